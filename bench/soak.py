"""Bench: the busy scene for ten simulated minutes (issue 18; tests/blows.py's BusyScene).

8 POWERED box men on Idle, one struck every second with 50-600 N·s at any bone (``motion.hit``),
2 LIMP box men, 4 boxes, 2 POWERED bystanders 40 m away. Each fixed step is timed (the whole
engine step: motion and physics) and measured: any non-finite body, the widest joint gap, the
widest gap once 0.1 s has passed since the last blow, the fastest body, how far the bystanders
moved, the safety nets' actions (``physics.stats``). Prints a table a minute and the verdict
(no NaN, no tear, gaps back under 2 cm within 0.1 s, bystanders within 1 mm, the last minute's
mean step within 20 % of the first's); ``--json PATH`` writes it. Asserts nothing.
"""

from __future__ import annotations

import argparse
import json
import os
import sys
import time

import numpy as np

HERE = os.path.dirname(os.path.abspath(__file__))
sys.path.insert(0, os.path.join(HERE, ".."))
sys.path.insert(0, os.path.join(HERE, "..", "tests"))

import blows as B  # noqa: E402

from ae3d import engine, physics  # noqa: E402
from ae3d.physics import _kernels_joints as KJ  # noqa: E402


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--minutes", type=float, default=10.0)
    ap.add_argument("--seed", type=int, default=18)
    ap.add_argument("--json", default=None)
    args = ap.parse_args()
    e = engine.Engine()
    s = B.BusyScene(e, args.seed)
    s.settle(1.0)
    per_min = int(round(60.0 / e.fixed_dt))
    rows = []
    worst = {"gap": 0.0, "late_gap": 0.0, "speed": 0.0, "moved": 0.0, "bad": 0}
    print(f"{'minute':>6} {'mean ms':>8} {'p99 ms':>7} {'gap cm':>7} {'late cm':>8} "
          f"{'fastest':>8} {'moved mm':>9} {'nets':>6}")
    for minute in range(int(round(args.minutes))):
        times = []
        r = {"gap": 0.0, "late_gap": 0.0, "speed": 0.0, "bad": 0}
        for _ in range(per_min):
            t0 = time.perf_counter()
            o = s.step()
            times.append(time.perf_counter() - t0)
            g = float(np.nan_to_num(o[:, KJ.FW_GAP], nan=1e9).max())
            r["gap"] = max(r["gap"], g)
            if s.since_blow >= B.BACK_S - 1e-9:
                r["late_gap"] = max(r["late_gap"], g)
            r["speed"] = max(r["speed"], float(np.nan_to_num(o[:, KJ.FW_SPEED], nan=1e9).max()))
            r["bad"] += int(o[:, KJ.FW_BAD].sum())
        moved = s.bystanders_moved()
        st = physics.stats(e)
        t = np.array(times) * 1e3
        row = {"minute": minute + 1, "mean_ms": float(t.mean()),
               "p99_ms": float(np.percentile(t, 99)), **r, "moved": moved, "nets": st.nets(),
               "stats": st.__dict__}
        rows.append(row)
        for k in ("gap", "late_gap", "speed", "moved"):
            worst[k] = max(worst[k], row[k])
        worst["bad"] += r["bad"]
        print(f"{minute + 1:>6} {row['mean_ms']:>8.2f} {row['p99_ms']:>7.2f} "
              f"{r['gap'] * 100:>7.2f} {r['late_gap'] * 100:>8.2f} {r['speed']:>8.1f} "
              f"{moved * 1e3:>9.3f} {st.nets():>6}", flush=True)
    slow = rows[-1]["mean_ms"] / rows[0]["mean_ms"] - 1.0 if rows else 0.0
    verdict = {"no_nan": worst["bad"] == 0, "no_tear": worst["gap"] <= B.TEAR_GAP,
               "back_in_0.1s": worst["late_gap"] <= B.HELD_GAP,
               "bystanders_1mm": worst["moved"] <= 1e-3, "last_minute_slower": slow,
               "within_20pct": slow <= 0.20, "blows": len(s.blows)}
    print(f"blows {len(s.blows)}; widest gap {worst['gap'] * 100:.2f} cm, "
          f"{worst['late_gap'] * 100:.2f} cm 0.1 s after a blow; fastest {worst['speed']:.1f} "
          f"m/s; bystanders moved {worst['moved'] * 1e3:.3f} mm; last minute "
          f"{slow * 100:+.1f} % on the first; nets {physics.stats(e)}")
    print("verdict:", verdict)
    if args.json:
        with open(args.json, "w") as fh:
            json.dump({"bench": "soak", "minutes": args.minutes, "seed": args.seed, "rows": rows,
                       "worst": worst, "verdict": verdict}, fh, indent=1, default=float)
    e.close()


if __name__ == "__main__":
    main()
