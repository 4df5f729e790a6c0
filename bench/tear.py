"""Bench: the tear-threshold table (issue 18): the smallest blow that tears a figure, per bone.

A lone box man (``motion.on_figure`` on assets/boxman.glb) stands POWERED or lies LIMP, on the
ground or in zero gravity; after SETTLE s each of its bones is struck at its centre of mass in
the 12 directions of an icosahedron, with each blow of LEVELS N·s (every trial a figure of its
own, all in one engine, far apart: tests/blows.py). A trial tears when, within WATCH s, a joint
gap passes 10 cm, a body goes faster than the struck body's J/m (or the world's speed cap where
lower) plus 10 m/s, a body lies more than 3 cm under the ground, or anything goes non-finite. It
also counts trials whose gaps are not back under 2 cm within 0.1 s of the blow.

Prints, per bone and condition, the smallest blow that tore (">5000" for none), the worst gap
(cm), the fastest body (m/s), the deepest any body went under the ground (cm; in zero g under a
plane 1,000 m below the figures, so 0) and the safety nets' actions (``physics.stats``);
``--json PATH`` writes it all.
``--rig reference`` takes the bare reference ragdoll (physics.ragdoll) instead; ``--watch 1.5``
watches the figures land (session 11's audit of issue 18).
Asserts nothing.
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

from ae3d import engine, human, motion, physics  # noqa: E402

LEVELS = (60.0, 150.0, 300.0, 600.0, 1000.0, 2000.0, 5000.0)
SETTLE = 0.5
WATCH = 0.5


def run(mode: int, zero_g: bool, levels=LEVELS, rig: str = "boxman", bones=None,
        dirs=None, watch: float = WATCH) -> dict:
    """Every (bone, direction, level) a figure of its own. Returns the per-trial measures."""
    e = engine.Engine()
    physics.ground(e)
    dt = e.fixed_dt
    bones = list(range(human.BONE_COUNT)) if bones is None else list(bones)
    dirs = B.DIRECTIONS if dirs is None else dirs
    trials = [(b, d, J) for J in levels for b in bones for d in range(len(dirs))]
    side = int(np.ceil(np.sqrt(len(trials))))
    figs = []
    for k in range(len(trials)):
        pos = (B.SPACING * (k % side), B.FLOAT_Y if zero_g else 0.0, B.SPACING * (k // side))
        if rig == "boxman":
            m = B.boxman(e, f"f{k}", pos, mode, zero_g)
            figs.append(m.ragdoll)
        else:
            figs.append(B.reference(e, f"f{k}", pos, mode, zero_g))
    watch_ = B.Watch(e, figs)
    e.run(seconds=SETTLE)
    cap = e.physics.max_linear_speed
    limit = np.zeros(len(trials))
    ke0 = np.zeros(len(trials))
    for k, (b, _d, J) in enumerate(trials):
        strike_m = B.bone_mass(e, figs[k], b)
        limit[k] = min(J / strike_m, cap) + B.SPEED_SLACK
        ke0[k] = J * J / (2.0 * strike_m)
    base = watch_().copy()
    for k, (b, d, J) in enumerate(trials):
        B.strike(e, figs[k], b, J * dirs[d])
    steps = int(round(watch / dt))
    back = int(round(B.BACK_S / dt))
    worst_gap = np.zeros(len(trials))
    late_gap = np.zeros(len(trials))
    worst_sp = np.zeros(len(trials))
    worst_depth = np.zeros(len(trials))
    worst_ke = np.zeros(len(trials))
    bad = np.zeros(len(trials))
    t0 = time.perf_counter()
    for s in range(steps):
        e.fixed_step()
        o = watch_(B.FLOAT_Y - 1000.0 if zero_g else 0.0)
        worst_gap = np.maximum(worst_gap, np.nan_to_num(o[:, 0], nan=1e9))
        if s + 1 >= back:
            late_gap = np.maximum(late_gap, np.nan_to_num(o[:, 0], nan=1e9))
        worst_sp = np.maximum(worst_sp, np.nan_to_num(o[:, 1], nan=1e9))
        worst_depth = np.maximum(worst_depth, np.nan_to_num(o[:, 2], nan=1e9))
        worst_ke = np.maximum(worst_ke, np.nan_to_num(o[:, 3], nan=1e30))
        bad = np.maximum(bad, o[:, 4])
    wall = time.perf_counter() - t0
    torn = ((worst_gap > B.TEAR_GAP) | (worst_sp > limit) | (bad > 0)
            | ((worst_depth > B.DEPTH) & (not zero_g)))
    st = physics.stats(e).__dict__ if hasattr(physics, "stats") else {}
    e.close()
    return {"trials": trials, "gap": worst_gap, "late_gap": late_gap, "speed": worst_sp,
            "limit": limit, "depth": worst_depth, "ke": worst_ke, "ke0": ke0, "base": base,
            "bad": bad, "torn": torn, "wall": wall, "stats": st}


def table(res: dict, levels) -> list[dict]:
    rows = []
    for b in range(human.BONE_COUNT):
        sel = [k for k, t in enumerate(res["trials"]) if t[0] == b]
        if not sel:
            continue
        tore = [res["trials"][k][2] for k in sel if res["torn"][k]]
        slow = sum(1 for k in sel if res["late_gap"][k] > B.HELD_GAP)
        rows.append({"bone": human.BONE_NAMES[b], "tears_from": min(tore) if tore else None,
                     "worst_gap_cm": float(np.max(res["gap"][sel])) * 100.0,
                     "worst_speed": float(np.max(res["speed"][sel])),
                     "deepest_cm": float(np.max(res["depth"][sel])) * 100.0,
                     "not_back": slow, "trials": len(sel)})
    return rows


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--json", default=None)
    ap.add_argument("--rig", default="boxman", choices=("boxman", "reference"))
    ap.add_argument("--levels", default=None, help="comma-separated N·s")
    ap.add_argument("--only", default=None, help="powered-ground etc.")
    ap.add_argument("--watch", type=float, default=WATCH,
                    help="s watched after the blows (1.5: the flung figures land)")
    args = ap.parse_args()
    levels = LEVELS if args.levels is None else tuple(float(x) for x in args.levels.split(","))
    out = {"levels": levels, "rig": args.rig, "watch": args.watch, "conditions": {}}
    conds = [("powered", motion.POWERED), ("limp", motion.LIMP)]
    for mname, mode in conds:
        for gname, zg in (("ground", False), ("zero-g", True)):
            key = f"{mname}-{gname}"
            if args.only and key not in args.only.split(","):
                continue
            res = run(mode, zg, levels, args.rig, watch=args.watch)
            rows = table(res, levels)
            out["conditions"][key] = {"rows": rows, "stats": res["stats"], "wall_s": res["wall"]}
            print(f"\n{key} ({len(res['trials'])} trials, {res['wall']:.1f} s): "
                  f"torn {int(res['torn'].sum())}, nets {res['stats']}")
            print(f"{'bone':<14}{'tears from N·s':>16}{'worst gap cm':>14}{'fastest m/s':>13}"
                  f"{'deepest cm':>12}{'not back':>10}")
            for r in rows:
                tf = ">" + str(int(max(levels))) if r["tears_from"] is None else \
                    str(int(r["tears_from"]))
                print(f"{r['bone']:<14}{tf:>16}{r['worst_gap_cm']:>14.2f}"
                      f"{r['worst_speed']:>13.1f}{r['deepest_cm']:>12.2f}{r['not_back']:>10}")
            sys.stdout.flush()
    if args.json:
        with open(args.json, "w") as fh:
            json.dump(out, fh, indent=1, default=float)


if __name__ == "__main__":
    main()
