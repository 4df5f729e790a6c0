"""What POWERED figures cost a fixed step (spec/motion.md, test_motion_cost).

0, 4, 16 and 32 figures bowing on one ground (tests/test_motion_cost.py's scene), 120 fixed
steps timed once settled: the step (motion pre-step, physics, post-step), a figure, and figures
within a millisecond. The spec's floor: a figure under 80 µs, a dozen within a millisecond; the
goal 34 µs at 32. The physics step alone is timed too, to show the motion's own share, and the
motion's pose phase (the pose drawn and, dressed, written into every rig) apart from the step. Each
count runs on one solver thread and on every thread (physics.set_threads; the same bits).

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


if __name__ == "__main__":
    main()
