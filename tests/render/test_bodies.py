"""The physics world's bodies, read from its tables (ae3d/physics/_layout.py): static and
kinematic shapes drawn solid, all bodies see-through on top with the debug overlay, and picked
as Body(slot). The tables are filled here by hand so the test does not wait on the solver."""

from __future__ import annotations

import math

import numpy as np
from render_helpers import H, W

from ae3d import render
from ae3d.physics import _layout as L


def _tables(eng, n=8):
    w = eng.physics
    bf = np.zeros((n, L.BF_COUNT))
    bi = np.zeros((n, L.BI_COUNT), dtype=np.int64)
    bf[:, L.B_QUAT + 3] = 1.0

    def body(i, kind, shape, pos, dims, quat=(0.0, 0.0, 0.0, 1.0)):
        bi[i, L.B_KIND], bi[i, L.B_SHAPE] = kind, shape
        bf[i, L.B_POS:L.B_POS + 3] = pos
        bf[i, L.B_QUAT:L.B_QUAT + 4] = quat
        bf[i, L.B_DIMS:L.B_DIMS + 3] = dims

    s = math.sqrt(0.5)
    body(0, L.KIND_STATIC, L.SHAPE_PLANE, (0, 0, 0), (0, 0, 0))
    body(1, L.KIND_STATIC, L.SHAPE_BOX, (1.2, 0.4, 0.0), (0.4, 0.4, 0.4))
    body(2, L.KIND_KINEMATIC, L.SHAPE_CYLINDER, (-1.2, 0.25, 0.0), (0.25, 0.6, 0), (0, 0, s, s))
    body(3, L.KIND_DYNAMIC, L.SHAPE_CAPSULE, (0.0, 0.6, 0.8), (0.15, 0.3, 0))
    body(4, L.KIND_DYNAMIC, L.SHAPE_SPHERE, (0.0, 0.3, -0.8), (0.3, 0, 0))
    # a parked body and a free slot draw nothing
    body(5, L.KIND_DYNAMIC, L.SHAPE_SPHERE, (0.0, 1.5, 0.0), (0.3, 0, 0))
    bi[5, L.B_PARKED] = 1
    w.bf, w.bi = bf, bi
    w.n = n  # the body count (rows in use)
    return {1: (1.2, 0.4, 0.0), 2: (-1.2, 0.25, 0.0), 3: (0.0, 0.6, 0.8), 4: (0.0, 0.3, -0.8)}


def test_bodies_drawn_and_picked(eng):
    if getattr(eng.physics, "bf", None) is not None:
        # the real world's tables have landed: ours would replace them; use a bare engine
        pass
    centres = _tables(eng)
    render.camera_orbit(eng, target=(0.0, 0.4, 0.0), distance=5.0, yaw=0.4, pitch=0.45)
    img = render.still(eng, width=W, height=H)
    for slot, c in centres.items():
        x, y = render.project(eng, c, W, H)
        p = render.pick(eng, x, y, W, H)
        assert p.kind == "body", (slot, p)
        assert p.target.slot == slot, (slot, p)
    # the parked sphere above the middle is not there
    x, y = render.project(eng, (0.0, 1.5, 0.0), W, H)
    assert getattr(render.pick(eng, x, y, W, H).target, "slot", None) != 5
    # the debug overlay changes the frame; hiding a body takes it out of the solid draw
    render.set_debug(eng, bodies=True)
    over = render.still(eng, width=W, height=H)
    assert not np.array_equal(img, over)
    render.set_debug(eng, bodies=False)
    render.hide_bodies(eng, [1])
    x, y = render.project(eng, centres[1], W, H)
    assert render.pick(eng, x, y, W, H).target is render.GROUND


def test_picking_a_physics_body_gives_its_handle(eng):
    import pytest

    physics = pytest.importorskip("ae3d.physics")
    if not hasattr(physics, "add_box"):
        pytest.skip("physics.add_box has not landed")
    physics.ground(eng)
    box = physics.add_box(eng, (0.4, 0.4, 0.4), (0.0, 0.4, 0.0), kind=physics.STATIC)
    log = physics.add_log(eng, 0.15, 0.8, (0.0, 0.15, 1.2), heading=0.4,
                          kind=physics.KINEMATIC, cylinder=True)
    render.camera_orbit(eng, target=(0.0, 0.4, 0.5), distance=5.0, yaw=0.3, pitch=0.4)
    for handle, centre in ((box, (0.0, 0.4, 0.0)), (log, (0.0, 0.15, 1.2))):
        x, y = render.project(eng, centre, W, H)
        p = render.pick(eng, x, y, W, H)
        assert p.kind == "body" and p.target == handle, p
