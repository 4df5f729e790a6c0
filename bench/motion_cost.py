"""What POWERED figures cost a fixed step (spec/motion.md, test_motion_cost).

0, 4, 16 and 32 figures bowing on one ground (tests/test_motion_cost.py's scene), 120 fixed steps
timed once settled: the step (motion pre-step, physics, post-step), a figure, and figures within a
millisecond; and 32 figures falling (the protective fall's aims, 0.1 s after 400 N·s blows) and 32
lying (their held shape, 3 s on). The spec's floor: a figure under 80 µs, a dozen within a
millisecond; the goal 34 µs at 32. The physics step alone is timed too, to show the motion's own
share, and the motion's pose phase (the pose drawn and, dressed, written into every rig) apart from
the step. Each count runs on one solver thread and on every thread (physics.set_threads; the same
bits).

    PYTHONPATH=. .venv/bin/python bench/motion_cost.py [--json PATH] [--steps 120]
"""

from __future__ import annotations

import argparse
import json
import os
import sys
import time

sys.path.insert(0, os.path.join(os.path.dirname(__file__), "..", "tests"))
sys.path.insert(0, os.path.join(os.path.dirname(__file__), ".."))

from test_motion_cost import run_figures  # noqa: E402

from ae3d import physics  # noqa: E402


def main() -> None:
    ap = argparse.ArgumentParser()
    ap.add_argument("--json", default=None, help="write the table here")
    ap.add_argument("--steps", type=int, default=120)
    args = ap.parse_args()
    run_figures(2, steps=5, settle=5)[0].close()  # compile
    rows = []
    for dressed in (False, True):
        rows += _table(args.steps, dressed)
    rows += _falls_table()
    rows += _stepping_table()   # stepping (issue 14)
    rows += _get_up_table()     # the ways up (issue 13)
    rows += _writhe_table()     # hurt (issue 15)
    rows += _parts_table()      # a part's own mode (issue 15, #573)
    rows += _acting_table()     # the actions (#825), and struck while acting (session 15)
    if args.json:
        with open(args.json, "w") as fh:
            json.dump({"bench": "motion_cost", "steps": args.steps, "rows": rows}, fh, indent=1)


def _table(steps: int, dressed: bool) -> list:
    rows = []
    print("box men playing their Bow clip, dressed (motion.on_figure)" if dressed else
          "ragdolls bowing through motion.set_animation")
    top = physics.max_threads()
    print(f"{'figures':>8} {'the step':>11} {'a figure':>10} {'in a ms':>8} {'physics':>11} "
          f"{'motion':>9} {'pose':>9} {f'a figure, {top} threads':>22} {'in a ms':>8}")
    for n in (0, 4, 16, 32):
        e, _, timed_p = run_figures(n, steps=steps, clock=time.perf_counter, dressed=dressed,
                                    threads=top)
        e.close()
        per_p = timed_p / steps * 1e6 / n if n else None
        in_ms_p = int(1000.0 / per_p) if per_p else None
        e, figs, timed = run_figures(n, steps=steps, clock=time.perf_counter, dressed=dressed,
                                     threads=1)
        step_us = timed / steps * 1e6
        # the motion's own share: its pre- and post-step kernels alone
        s = e.services.get("motion")
        t0 = time.perf_counter()
        for _ in range(steps):
            if s is not None:
                s.pre(1, e.fixed_dt)
                s.post(1)
        motion_us = (time.perf_counter() - t0) / steps * 1e6
        # the motion's pose phase alone (the pose drawn; dressed, written into every rig)
        t0 = time.perf_counter()
        for _ in range(steps):
            if s is not None:
                s.pose(1, e.fixed_dt)
        pose_us = (time.perf_counter() - t0) / steps * 1e6
        e.close()
        per = step_us / n if n else None
        in_ms = int(1000.0 / per) if per else None
        rows.append({"dressed": dressed, "figures": n, "step_us": round(step_us, 1),
                     "figure_us": None if per is None else round(per, 1),
                     "figures_per_ms": in_ms, "motion_us": round(motion_us, 1),
                     "physics_us": round(step_us - motion_us, 1), "pose_us": round(pose_us, 1),
                     "threads": top,
                     "figure_us_threads": None if per_p is None else round(per_p, 1),
                     "figures_per_ms_threads": in_ms_p})
        print(f"{n:>8} {step_us:>8.1f} µs {'' if per is None else f'{per:7.1f} µs':>10} "
              f"{'' if in_ms is None else in_ms:>8} {step_us - motion_us:>8.1f} µs "
              f"{motion_us:>6.1f} µs {pose_us:>6.1f} µs "
              f"{'' if per_p is None else f'{per_p:7.1f} µs':>22}"
              f" {'' if in_ms_p is None else in_ms_p:>8}")
    return rows


# ------------------------------------------------------------------------------ 32 figures at once
def _grid_of_32(threads: int, prefix: str, writhing: float = 0.0):
    """An engine on ``threads`` solver threads with a ground and 32 reference ragdolls on a 3 m
    grid of 8 x 4, POWERED (writhing ``writhing`` s once down when it is not 0), settled 0.5 s:
    (engine, [(ragdoll, body)])."""
    from ae3d import engine, motion

    e = engine.Engine()
    physics.set_threads(e, threads)
    physics.ground(e)
    figs = []
    for k in range(32):
        r = physics.ragdoll(e, f"{prefix}{k}", (3.0 * (k % 8), 0.0, 3.0 * (k // 8)), 8.0, 8.0, 1.0)
        b = motion.active_ragdoll(r)
        motion.attach(e, b)
        motion.set_mode(b, motion.POWERED)
        if writhing:
            motion.set_writhing(b, writhing)
        figs.append((r, b))
    e.run(seconds=0.5)
    return e, figs


def _strike_chests(figs: list, impulse: float, turn) -> None:
    """Every figure struck at the chest by ``impulse`` N·s, from the way ``turn(k)`` rad about
    the up axis (figure k)."""
    import math

    import numpy as np

    from ae3d import human, motion

    for k, (r, b) in enumerate(figs):
        a = turn(k)
        p = physics.ragdoll_pose(r)[0][human.BONE_SPINE_03]
        motion.hit(b, human.BONE_SPINE_03, p, impulse * np.array([math.sin(a), 0.0, math.cos(a)]))


def _four_ways(k: int) -> float:
    """Figure k's way in turn: ahead, aside, behind, the other side (rad)."""
    import math

    return 0.5 * math.pi * (k % 4)


def _motion_us(e, steps: int) -> float:
    """The motion's own pre- and post-step share: µs a step, ``steps`` steps of its kernels
    alone."""
    s = e.services["motion"]
    t0 = time.perf_counter()
    for _ in range(steps):
        s.pre(1, e.fixed_dt)
        s.post(1)
    return (time.perf_counter() - t0) / steps * 1e6


def _frames_us(e, steps: int) -> float:
    """µs a frame, ``steps`` fixed frames of the whole engine."""
    t0 = time.perf_counter()
    for _ in range(steps):
        e.frame(e.fixed_dt)
    return (time.perf_counter() - t0) / steps * 1e6


def _row(state: str, threads: int, frame_us: float, motion_us: float, **counts) -> dict:
    """One table row: the step and the motion's share a figure (of 32), and the counts."""
    return {"state": state, "figures": 32, "threads": threads,
            "figure_us": round(frame_us / 32, 1), "motion_figure_us": round(motion_us / 32, 2),
            **counts}


def _falls_table() -> list:
    """32 protected figures felled by 400 N·s at the chest (four ways in turn), timed falling
    (from 0.1 s after the blows, 12 steps) and lying (from 3 s on, 60 steps), on 1 and on every
    thread: the step per figure and the motion's own pre- and post-step share."""
    from ae3d import motion

    rows = []
    top = physics.max_threads()
    print("32 protected figures, 400 N·s at the chest: falling (0.1 s after) and lying (3 s on)")
    print(f"{'state':>8} {'threads':>8} {'a figure':>10} {'motion, a figure':>18} {'down':>6}")
    for threads in (1, top):
        for state, start, steps in (("falling", 0.1, 12), ("lying", 3.0, 60)):
            e, figs = _grid_of_32(threads, "f")
            _strike_chests(figs, 400.0, _four_ways)
            e.run(seconds=start)
            frame_us = _frames_us(e, steps)
            motion_us = _motion_us(e, steps)
            n_in = sum(motion.falling(b) if state == "falling" else motion.lying(b)
                       for _, b in figs)
            e.close()
            rows.append(_row(state, threads, frame_us, motion_us, **{state: n_in}))
            print(f"{state:>8} {threads:>8} {frame_us / 32:>7.1f} µs {motion_us / 32:>15.2f} µs "
                  f"{n_in:>6}")
    return rows


# ------------------------------------------------------------------------------ the ways up
def _get_up_table() -> list:
    """32 figures getting up (issue 13): felled as ``_falls_table``'s, lain 3 s, then
    ``motion.get_up`` each; timed from 0.3 s into the way (60 steps, through its first two
    stages), on 1 and on every thread: the step per figure and the motion's own share (the way's
    pose each step, the follow anchors)."""
    from ae3d import motion

    rows = []
    top = physics.max_threads()
    print("32 figures getting up (motion.get_up, 3 s after 400 N·s at the chest)")
    print(f"{'threads':>8} {'a figure':>10} {'motion, a figure':>18} {'getting up':>11}")
    for threads in (1, top):
        e, figs = _grid_of_32(threads, "f")
        _strike_chests(figs, 400.0, _four_ways)
        e.run(seconds=3.0)
        for _, b in figs:
            motion.get_up(b)
        e.run(seconds=0.3)
        frame_us = _frames_us(e, 60)
        n_in = sum(motion.getting_up(b) for _, b in figs)
        motion_us = _motion_us(e, 60)
        e.close()
        rows.append(_row("getting up", threads, frame_us, motion_us, getting_up=n_in))
        print(f"{threads:>8} {frame_us / 32:>7.1f} µs {motion_us / 32:>15.2f} µs {n_in:>11}")
    return rows


# ------------------------------------------------------------------------------ hurt (issue 15)
def _writhe_table() -> list:
    """32 protected figures felled by 400 N·s at the chest (four ways in turn), each writhing 5 s
    once down (``motion.set_writhing``), timed from 1.5 s after the blows (60 steps), on 1 and on
    every thread: the step per figure and the motion's own pre- and post-step share."""
    from ae3d import motion

    rows = []
    top = physics.max_threads()
    print("32 writhers, 400 N·s at the chest, writhing 5 s: from 1.5 s after the blows")
    print(f"{'threads':>8} {'a figure':>10} {'motion, a figure':>18} {'writhing':>9}")
    for threads in (1, top):
        e, figs = _grid_of_32(threads, "w", writhing=5.0)
        _strike_chests(figs, 400.0, _four_ways)
        e.run(seconds=1.5)
        frame_us = _frames_us(e, 60)
        motion_us = _motion_us(e, 60)
        n_in = sum(motion.writhing(b) for _, b in figs)
        e.close()
        rows.append(_row("writhing", threads, frame_us, motion_us, writhing=n_in))
        print(f"{threads:>8} {frame_us / 32:>7.1f} µs {motion_us / 32:>15.2f} µs {n_in:>9}")
    return rows


# ------------------------------------------------------------------------------ stepping (issue 14)
def _stepping_table() -> list:
    """32 figures stepping: each shoved at the chest every second (180 N·s, the way turning a
    quarter from one figure to the next, from behind, the side and in front: pushes they step
    out of), timed over two seconds (120 steps) from the first shove, on 1 and on every thread:
    the step per figure, the motion's own pre- and post-step share, the steps taken."""
    import math

    from ae3d import motion

    rows = []
    top = physics.max_threads()
    print("32 figures stepping, shoved every second (180 N·s at the chest)")
    print(f"{'threads':>8} {'a figure':>10} {'motion, a figure':>18} {'steps':>6} {'standing':>9}")
    for threads in (1, top):
        e, figs = _grid_of_32(threads, "s")
        steps = 120
        frame_s = 0.0
        for i in range(steps):
            if i % 60 == 0:
                _strike_chests(figs, 180.0,
                               lambda k, i=i: 0.5 * math.pi * (k % 3) + 0.5 * math.pi * (i // 60))
            frame_s += _frames_us(e, 1) * 1e-6
        motion_us = _motion_us(e, steps)
        taken = sum(motion.steps_taken(b) for _, b in figs)
        up = sum(not motion.falling(b) for _, b in figs)
        e.close()
        frame_us = frame_s / steps * 1e6
        rows.append(_row("stepping", threads, frame_us, motion_us, steps=taken, standing=up))
        print(f"{threads:>8} {frame_us / 32:>7.1f} µs {motion_us / 32:>15.2f} µs {taken:>6} "
              f"{up:>9}")
    return rows


# ------------------------------------------------------------------------------ parts (issue 15)
def _parts_table() -> list:
    """32 dressed box men ANIMATED on Idle, with and without a limp left arm
    (``motion.set_part_mode``: its anchors gone, drawn as it hangs, into the rig), one thread:
    a frame per figure and the pose phase per figure, 60 frames timed after a second."""
    from blows import boxman

    from ae3d import engine, motion

    rows = []
    print("32 box men ANIMATED on Idle, a limp left arm or none: a frame and the pose phase")
    print(f"{'limp arm':>9} {'a figure':>10} {'pose, a figure':>15}")
    for limp in (False, True):
        e = engine.Engine()
        physics.set_threads(e, 1)
        physics.ground(e)
        figs = [boxman(e, f"p{k}", (3.0 * (k % 8), 0.0, 3.0 * (k // 8)), motion.ANIMATED)
                for k in range(32)]
        if limp:
            for b in figs:
                motion.set_part_mode(b, motion.PART_ARM_L, motion.LIMP)
        e.run(seconds=1.0)
        steps = 60
        t0 = time.perf_counter()
        for _ in range(steps):
            e.frame(e.fixed_dt)
        frame_us = (time.perf_counter() - t0) / steps * 1e6
        s = e.services["motion"]
        t0 = time.perf_counter()
        for _ in range(steps):
            s.pose(1, e.fixed_dt)
        pose_us = (time.perf_counter() - t0) / steps * 1e6
        e.close()
        rows.append({"state": "animated, limp arm" if limp else "animated", "figures": 32,
                     "threads": 1, "figure_us": round(frame_us / 32, 1),
                     "pose_figure_us": round(pose_us / 32, 2)})
        print(f"{'yes' if limp else 'no':>9} {frame_us / 32:>7.1f} µs {pose_us / 32:>12.2f} µs")
    return rows


# ------------------------------------------------------------------------------ the actions
def _sitters(threads: int):
    """An engine on ``threads`` solver threads, feet on, a ground and 32 dressed box men each before
    a squared log 0.45 m up (tests/motion/sit.py's), on a 4 m grid of 8 x 4, POWERED, stood
    0.5 s: (engine, [(Motion, Seat)]). Where to stand is asked once (``motion.sit_spot``): the
    logs are alike."""
    import blows
    from motion import sit as SI

    from ae3d import engine, motion

    e = engine.Engine()
    physics.set_threads(e, threads)
    physics.set_ankles(e, True)
    physics.ground(e)
    figs = []
    spot = sole = None
    for k in range(32):
        middle = (4.0 * (k % 8), 0.0, 4.0 * (k // 8))
        seat = SI.Seat(e, middle, 0.45, 0.0, False, 0.0)
        if spot is None:
            spot, sole = SI._spot("boxman.glb", 0.0, seat, 0.0)
        at = (spot[0] - sole[0] + middle[0], 0.0, spot[2] - sole[2] + middle[2])
        figs.append((blows.boxman(e, f"s{k}", at, motion.POWERED), seat))
    e.run(seconds=0.5)
    return e, figs


def _acting_table() -> list:
    """32 dressed box men with feet on squared logs (#825): sitting down (0.3 s into the way, 60
    steps), sat (3 s on, 60 steps), eating (a bowl held, a bite on, 60 steps) and knocked off
    their logs (400 N·s in the back as they sit, from 0.1 s after, 30 steps), on 1 and on every
    thread: the step per figure and the motion's own pre- and post-step share (the way's pose,
    the follow anchors, the Python after-steps that plant the feet and place the items)."""
    import numpy as np
    from motion.eat import BOWL

    from ae3d import human, motion

    rows = []
    top = physics.max_threads()
    print("32 box men with feet on squared logs: sitting down, sat, eating, knocked off (400 N·s)")
    print(f"{'state':>13} {'threads':>8} {'a figure':>10} {'motion, a figure':>18} {'in it':>6}")
    for threads in (1, top):
        for state in ("sitting down", "sat", "eating", "knocked off"):
            e, figs = _sitters(threads)
            for m, seat in figs:
                motion.sit(m, seat.point, (0.0, 0.0, 1.0))
            if state == "sitting down":
                e.run(seconds=0.3)
            else:
                e.run(seconds=3.0)
            if state == "eating":
                for m, seat in figs:
                    c = seat.middle
                    bowl = physics.add_box(e, BOWL, (c[0], 1.0, c[2] + 1.0), kind="kinematic")
                    motion.hold(m, bowl, (BOWL[0] + 0.02, 0.0, 0.0), (-BOWL[0] - 0.02, 0.0, 0.0))
                e.run(seconds=0.6)
                for m, _ in figs:
                    motion.eat(m)
            if state == "knocked off":
                for m, _ in figs:
                    p = physics.ragdoll_pose(m.ragdoll)[0][human.BONE_SPINE_03]
                    motion.hit(m, human.BONE_SPINE_03, p, np.array([0.0, 0.0, 400.0]))
                e.run(seconds=0.1)
            steps = 30 if state == "knocked off" else 60
            # counted as the timing begins (its frames and the kernels' own run on the clock of
            # a bite: 1.7 s, over by the end)
            asked = {"sitting down": motion.sitting, "sat": motion.seated,
                     "eating": motion.eating, "knocked off": motion.falling}[state]
            n_in = sum(bool(asked(m)) for m, _ in figs)
            frame_us = _frames_us(e, steps)
            motion_us = _motion_us(e, steps)
            e.close()
            rows.append(_row(state, threads, frame_us, motion_us, **{"in_it": n_in}))
            print(f"{state:>13} {threads:>8} {frame_us / 32:>7.1f} µs {motion_us / 32:>15.2f} µs "
                  f"{n_in:>6}")
    return rows


if __name__ == "__main__":
    main()
