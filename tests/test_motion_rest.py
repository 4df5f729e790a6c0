"""tests/test_motion_rest.ae in pytest (#579): a POWERED figure standing untouched is still.

From 1 s to 5 s of standing, every body's angular speed: under 0.05 rad/s on average and 0.2
at most (before 8 sub-steps it measured 0.56 and 1.59).
"""

from __future__ import annotations

from ae3d import engine, motion, physics
from ae3d.motion import _measure as M


def test_powered_figure_at_rest_is_still():
    with engine.Engine() as e:
        physics.ground(e)
        r = physics.ragdoll(e, "still", (0.0, 0.0, 0.0), 8.0, 8.0, 1.0)
        b = motion.active_ragdoll(r)
        motion.attach(e, b)
        motion.set_mode(b, motion.POWERED)
        e.physics.sleep = False  # measure the figure itself, not a sleeping island
        e.run(seconds=1.0)
        means, worst = [], 0.0
        for _ in range(240):
            e.frame(1.0 / 60.0)
            mean, most = M.max_angular_speed(r)
            means.append(mean)
            worst = max(worst, most)
        avg = sum(means) / len(means)
        print(f"at rest: {avg:.4f} rad/s on average, {worst:.4f} at most; "
              f"substeps {e.physics.effective_substeps}")
        assert e.physics.effective_substeps == 8
        assert avg < 0.05
        assert worst < 0.2
        assert motion.mode(b) == motion.POWERED and not motion.falling(b)
