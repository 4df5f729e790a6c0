"""Bodies drawn every frame (issue 17; spec/motion.md's "next": "drawing a powered figure's
bodies each frame rather than each step"): a frame between fixed steps draws the bodies between
the last step's start and end by the accumulator's remainder, so a display at 144, 90 or 30 Hz
shows no judder; the physics is the same, bit for bit, whatever the frame rate."""

from __future__ import annotations

import numpy as np

from ae3d import engine, human, motion, physics
from ae3d.motion._pose import bodies_between, frame_alpha


def _figure(e, height=0.0, mode=motion.POWERED):
    physics.ground(e)
    r = physics.ragdoll(e, "Zombie", (0.0, height, 0.0), 8.0, 8.0, 1.0)
    body = motion.active_ragdoll(r)
    motion.attach(e, body)
    motion.set_mode(body, mode)
    return body


def _run_steps(frame_dt: float, steps: int = 60) -> tuple[bytes, int]:
    """The physics' body table after ``steps`` fixed steps taken by frames of ``frame_dt``, a
    blow landing at the 12th step, and the frames it took."""
    e = engine.Engine()
    try:
        body = _figure(e)
        hit = False
        frames = 0
        while e.steps < steps:
            if not hit and e.steps >= 12:
                p = physics.ragdoll_pose(body.ragdoll)[0][human.BONE_SPINE_03]
                motion.hit(body, human.BONE_SPINE_03, p, (0.0, 0.0, -60.0))
                hit = True
            e.frame(frame_dt)
            frames += 1
        assert e.steps == steps
        w = e.physics
        return w.bf[:w.n].tobytes() + w.bi[:w.n].tobytes(), frames
    finally:
        e.close()


def test_same_physics_bits_at_any_frame_rate():
    ref, n60 = _run_steps(1 / 60)
    for dt in (1 / 144, 1 / 90, 1 / 30):
        bits, frames = _run_steps(dt)
        assert frames != n60
        assert bits == ref, f"the physics differs with frames of {dt:.5f} s"


def test_figure_drawn_at_90_hz_moves_smoothly():
    """A limp figure falling from 3 m, drawn at 90 Hz (fixed steps at 60 Hz): from 0.2 s to
    0.5 s of its fall (2 to 5 m/s), no frame's step of its drawn pelvis is more than twice the
    mean, nor less than half of it (a frame drawing the bodies as they are would stand still
    every third frame and jump a whole step the others)."""
    e = engine.Engine()
    try:
        body = _figure(e, height=3.0, mode=motion.LIMP)
        pelvis = []
        for _ in range(int(0.5 * 90)):
            e.frame(1 / 90)
            pelvis.append(motion.drawn_pose(body)[0][0].copy())
        p = np.array(pelvis)[int(0.2 * 90):]
        steps = np.linalg.norm(np.diff(p, axis=0), axis=1)
        mean = steps.mean()
        assert mean > 0.01
        assert steps.max() <= 2.0 * mean, steps / mean
        assert steps.min() >= 0.5 * mean, steps / mean
    finally:
        e.close()


def test_a_frame_of_one_step_draws_the_bodies_as_they_are():
    e = engine.Engine()
    try:
        assert frame_alpha(e, e.fixed_dt) is None
        body = _figure(e, height=3.0, mode=motion.LIMP)
        for _ in range(20):
            e.frame(e.fixed_dt)
        drawn = motion.drawn_pose(body)[0][0]
        pose = physics.ragdoll_pose(body.ragdoll)[0][0]
        assert np.allclose(drawn, pose, atol=1e-9)
        # half way between steps: half way between the step's start and end
        w = e.physics
        half = bodies_between(w.bf, w.n, 0.5)
        s = int(body.ragdoll.bodies[0])
        assert np.allclose(half[s, 0:3], 0.5 * (w.bf[s, 0:3] + w.bf[s, 49:52]))
    finally:
        e.close()
