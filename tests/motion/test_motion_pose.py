"""motion/_pose.py: the blends' kernels and the pose phase of every figure in one call
(issue 11)."""

from __future__ import annotations

import math

import numpy as np

from ae3d import engine, figure, motion, physics
from ae3d.motion import _layout as L
from ae3d.motion._pose import blend_pose, fade_offset, offset_size


def _q(angle):
    return np.array([[math.sin(angle / 2), 0.0, 0.0, math.cos(angle / 2)]])


def test_blend_ends_at_its_ends():
    t0, t1 = np.zeros((1, 3)), np.ones((1, 3))
    out_q, out_t = np.zeros((1, 4)), np.zeros((1, 3))
    blend_pose(_q(0.0), t0, _q(1.0), t1, 0.0, out_q, out_t)
    assert np.allclose(out_q, _q(0.0)) and np.allclose(out_t, t0)
    blend_pose(_q(0.0), t0, _q(1.0), t1, 0.5, out_q, out_t)
    assert np.allclose(out_q, _q(0.5)) and np.allclose(out_t, 0.5)


def test_offset_fades_to_the_bodies():
    body_q, body_t = _q(0.0), np.zeros((1, 3))
    shown_q, shown_t = _q(0.4), np.full((1, 3), 0.1)
    a, d = np.zeros(1), np.zeros(1)
    offset_size(shown_q, shown_t, body_q, body_t, a, d)
    assert abs(a[0] - 0.4) < 1e-12 and abs(d[0] - math.sqrt(0.03)) < 1e-12
    drawn_q, drawn_t = shown_q.copy(), shown_t.copy()
    fade_offset(body_q, body_t, drawn_q, drawn_t, a, d, 0.5)
    assert np.allclose(drawn_q, _q(0.2)) and np.allclose(drawn_t, 0.05)
    fade_offset(body_q, body_t, drawn_q, drawn_t, a, d, 0.0)
    assert np.allclose(drawn_q, body_q) and np.allclose(drawn_t, body_t)


def test_the_pose_phase_draws_every_figure_in_one_call():
    """Two dressed figures and one bare: after the pose phase, a POWERED figure is drawn where
    its bodies are and its rig wears them; an ANIMATED one is drawn in its animation's pose."""
    with engine.Engine() as e:
        physics.ground(e)
        bodies = []
        for i in range(2):
            z = figure.figure(e, f"f{i}", "boxman.glb")
            figure.place(figure.figure_of(e, z), (2.0 * i, 0.0, 0.0), 0.0)
            bodies.append(motion.on_figure(e, z))
        bare = motion.active_ragdoll(physics.ragdoll(e, "bare", (5.0, 0.0, 0.0)))
        motion.attach(e, bare)
        motion.set_mode(bodies[0], motion.POWERED)
        motion.set_mode(bare, motion.LIMP)
        e.run(seconds=0.5)
        s = e.services["motion"]
        assert [int(s.fi[b.slot, L.F_DRESS]) for b in bodies + [bare]] == [0, 1, -1]
        for b in (bodies[0], bare):
            # drawn through the joints' points from the bodies' rotations: where the bodies
            # are, to the joints' give
            p, q = motion.drawn_pose(b)
            bp, bq = physics.ragdoll_pose(b.ragdoll)
            assert np.all(np.abs(np.sum(q * bq, axis=1)) > 1.0 - 1e-9)
            assert np.max(np.linalg.norm(p - bp, axis=1)) < 0.005
        rig = bodies[0].rig
        pel = physics.ragdoll_pose(bodies[0].ragdoll)[0][0]
        hips = rig.world_position(rig.bone("Hips"))
        assert np.linalg.norm(hips - pel) < 0.2
        p, _ = motion.drawn_pose(bodies[1])
        ap, _ = motion.animation(bodies[1])[1]
        assert np.allclose(p[0], ap)
