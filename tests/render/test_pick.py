"""Picking through the colour-id pass: the chest pixel gives the figure, a horde instance's
pixel that instance, bare ground the ground and its world point within 1 cm; bodies too."""

from __future__ import annotations

import math

import numpy as np
import pytest
from render_helpers import H, W, framed_figure, front_camera, horde_mesh_bank

from ae3d import render


def test_chest_pixel_gives_the_figure(eng):
    fig = framed_figure(eng)
    x, y = render.project(eng, fig.chest, W, H)
    p = render.pick(eng, x, y, W, H)
    assert p.target == fig.obj
    assert p.kind == "figure"
    assert p.point is not None and np.linalg.norm(p.point - fig.chest) < 0.25


@pytest.mark.parametrize("x,y", [(40, 470), (600, 460), (320, 475), (100, 300)])
def test_bare_ground_gives_the_ground_and_its_point_within_1cm(eng, x, y):
    framed_figure(eng)
    p = render.pick(eng, x, y, W, H)
    assert p.target is render.GROUND
    # where the pixel's ray meets the plane y = 0
    o, d = render.scene(eng).camera.ray(x + 0.5, y + 0.5, W, H)
    exact = o + d * (-o[1] / d[1])
    err = np.linalg.norm(p.point - exact)
    assert err < 0.01, f"world point {p.point} is {err * 1000:.1f} mm from {exact}"


def test_sky_gives_nothing(eng):
    front_camera(eng)
    p = render.pick(eng, W // 2, 2, W, H)
    assert p.target is None and p.point is None


def _horde(eng, n=60):
    m, bank, chest = horde_mesh_bank(eng)
    h = render.horde_new(eng, m, bank, 100, name="test")
    i = np.arange(n)
    pos = np.stack([(i % 10 - 4.5) * 1.2, np.zeros(n), -(i // 10) * 1.5], axis=1)
    yaw = np.linspace(-math.pi, math.pi, n)
    render.horde_set(h, pos, yaw, (i * 0.137) % 1.0)
    return h, pos, chest


def test_horde_instance_pixel_gives_that_instance(eng):
    h, pos, chest_y = _horde(eng)
    render.camera_orbit(eng, target=(0.0, 0.8, -3.0), distance=11.0, yaw=0.0, pitch=0.5)
    eng.frame(1 / 60)
    hits = 0
    for k in (3, 15, 24, 36, 47):
        chest = pos[k] + (0.0, chest_y, 0.0)  # the bank's chest, in place
        x, y = render.project(eng, chest, W, H)
        p = render.pick(eng, x, y, W, H)
        assert p.kind == "horde", f"instance {k}: {p}"
        assert p.target == render.HordeInstance(h, k)
        assert abs(p.point[0] - chest[0]) < 0.3 and abs(p.point[2] - chest[2]) < 0.3
        hits += 1
    assert hits == 5


def test_parked_instance_is_drawn_by_nobody(eng):
    h, pos, chest_y = _horde(eng, n=1)
    pos[0] = (0.0, 0.0, 0.0)
    render.horde_set(h, pos, [0.3], [0.25])
    render.camera_orbit(eng, target=(0.0, 0.8, 0.0), distance=4.0, yaw=0.0, pitch=0.1)
    x, y = render.project(eng, pos[0] + (0.0, chest_y, 0.0), W, H)
    assert render.pick(eng, x, y, W, H).kind == "horde"
    drawn = render.still(eng, width=W, height=H)
    parked = pos.copy()
    parked[0] = (1.0e6, 0.0, 1.0e6)
    render.horde_set(h, parked, [0.0], [0.0])
    assert render.pick(eng, x, y, W, H).kind == "none"  # the sky behind it
    gone = render.still(eng, width=W, height=H)
    h.visible = False
    empty = render.still(eng, width=W, height=H)
    assert np.array_equal(gone, empty)
    assert not np.array_equal(drawn, gone)
