"""tests/test_motion_cost.ae in pytest: 0, 4, 16 and 32 POWERED figures bowing on one ground,
120 fixed steps once settled; every figure still standing at the end.

What the step costs is bench/motion_cost.py's to print (DESIGN.md: no timed assertions in tests).
"""

from __future__ import annotations

import math

import pytest
from motion import measure as M

from ae3d import engine, figure, motion, physics

BOW = math.radians(15.0)


def run_figures(n: int, steps: int = 120, settle: int = 60, clock=None, dressed: bool = False,
                threads: int | None = None):
    """Stand ``n`` POWERED figures 2 m apart, bowing the chest 15° with a period of 3 s (each a
    little out of phase, so they stay awake), settle, then ``steps`` fixed steps. The bows are
    written (the animation's part, the pose phase's) outside what ``clock`` times. ``dressed``:
    box men playing their Bow clip (motion.on_figure), their rigs read before each step.
    ``threads``: the solver's threads (None: all). Returns (engine, figures, seconds timed)."""
    e = engine.Engine()
    physics.ground(e)
    if threads is not None:
        physics.set_threads(e, threads)
    figs = []
    for i in range(n):
        pos = (2.0 * (i % 8), 0.0, 2.0 * (i // 8))
        if dressed:
            z = figure.figure(e, f"f{i}", "boxman.glb")
            f = figure.figure_of(e, z)
            figure.place(f, pos, 0.0)
            figure.play(f, "Bow", 1.0, True)
            figure.set_clip_time(f, 0.1 * i)
            b = motion.on_figure(e, z)
            r = b.ragdoll
        else:
            r = physics.ragdoll(e, f"f{i}", pos, 8.0, 8.0, 1.0)
            b = motion.active_ragdoll(r)
            motion.attach(e, b)
        motion.set_mode(b, motion.POWERED)
        figs.append((r, b))
    timed = 0.0
    for k in range(settle + steps):
        t = e.time
        for i, (r, b) in enumerate(figs):
            if not dressed:
                motion.set_animation(
                    b, M.bow_targets(r, BOW * math.sin(2 * math.pi * t / 3.0 + i)))
        if clock is not None and k >= settle:
            t0 = clock()
            e.fixed_step()
            timed += clock() - t0
        else:
            e.fixed_step()
        e.pose_phase(e.fixed_dt)
    return e, figs, timed


@pytest.mark.parametrize("n", [0, 4, 16, 32])
def test_figures_bowing_stay_standing(n):
    e, figs, _ = run_figures(n)
    _check_standing(e, figs, n)


def test_dressed_figures_bowing_stay_standing():
    e, figs, _ = run_figures(4, dressed=True)
    _check_standing(e, figs, 4)


def _check_standing(e, figs, n):
    try:
        for r, b in figs:
            assert motion.mode(b) == motion.POWERED
            assert not motion.falling(b)
            assert M.pelvis_height(r) > 0.8
            assert motion.lean(b) < math.radians(5.0)
        if n:
            assert e.physics.awake_count() > 0
    finally:
        e.close()
