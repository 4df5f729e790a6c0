"""tests/test_motion_rest.ae in pytest (#579): a POWERED figure standing untouched is still.

From 1 s to 5 s of standing, every body's angular speed: under 0.05 rad/s on average and 0.2
at most (before 8 sub-steps it measured 0.56 and 1.59).
"""

from __future__ import annotations

from motion import measure as M

from ae3d import engine, figure, motion, physics


def _spin_from_1_to_5_s(e, r) -> tuple[float, float]:
    """Stand 1 s, then over 4 s: the bodies' angular speed (rad/s), averaged and at most."""
    e.run(seconds=1.0)
    means, worst = [], 0.0
    for _ in range(240):
        e.frame(1.0 / 60.0)
        mean, most = M.max_angular_speed(r)
        means.append(mean)
        worst = max(worst, most)
    return sum(means) / len(means), worst


def test_powered_figure_at_rest_is_still():
    with engine.Engine() as e:
        physics.ground(e)
        r = physics.ragdoll(e, "still", (0.0, 0.0, 0.0), 8.0, 8.0, 1.0)
        b = motion.active_ragdoll(r)
        motion.attach(e, b)
        motion.set_mode(b, motion.POWERED)
        e.physics.sleep = False  # measure the figure itself, not a sleeping island
        avg, worst = _spin_from_1_to_5_s(e, r)
        print(f"at rest: {avg:.4f} rad/s on average, {worst:.4f} at most; "
              f"substeps {e.physics.effective_substeps}")
        assert e.physics.effective_substeps == 8
        assert avg < 0.05
        assert worst < 0.2
        assert motion.mode(b) == motion.POWERED and not motion.falling(b)


def test_dressed_figure_playing_idle_at_rest_is_still():
    """The same for a box man dressed by motion.on_figure, playing its Idle on its muscles."""
    with engine.Engine() as e:
        physics.ground(e)
        z = figure.figure(e, "idle", "boxman.glb")
        figure.play(figure.figure_of(e, z), "Idle", 1.0, True)
        b = motion.on_figure(e, z)
        motion.set_mode(b, motion.POWERED)
        avg, worst = _spin_from_1_to_5_s(e, b.ragdoll)
        print(f"box man on Idle at rest: {avg:.4f} rad/s on average, {worst:.4f} at most")
        assert avg < 0.05
        assert worst < 0.2
