"""Bench: what a blow costs (issue 18): ``motion.hit`` and ``physics.apply_impulse`` on a jointed
figure, and the blow's response alone (``physics/_blow.py``: compiled, ``_kernels_blow``) against
its Python version (tests/blow_reference.py, the reference the compiled one is held to).

Figures: a box man standing POWERED on Idle, one lying LIMP (its blows meet the ground: the
ground's share solves 10 to 40 contact points), one floating in zero gravity, the reference
ragdoll standing POWERED, and a Mixamo man standing POWERED. Each takes BLOWS blows of 50 to
600 N·s at a random bone's centre in a random direction (a seeded draw), every one on the same
state (the bodies' rows put back after each), timed one at a time; medians and the slowest in ms.

    PYTHONPATH=. .venv/bin/python bench/hit_cost.py [--blows 200] [--json PATH]
"""

from __future__ import annotations

import argparse
import json
import os
import sys
import time

HERE = os.path.dirname(os.path.abspath(__file__))
sys.path.insert(0, os.path.join(HERE, ".."))
sys.path.insert(0, os.path.join(HERE, "..", "tests"))

import blow_reference as REF  # noqa: E402
import blows as B  # noqa: E402
import numpy as np  # noqa: E402

from ae3d import engine, human, motion, physics  # noqa: E402
from ae3d.physics import _blow  # noqa: E402


def _scene():
    e = engine.Engine()
    physics.ground(e)
    figs = {
        "box man POWERED, standing": B.boxman(e, "p", (0.0, 0.0, 0.0), motion.POWERED),
        "box man LIMP, lying": B.boxman(e, "l", (4.0, 0.0, 0.0), motion.LIMP),
        "box man LIMP, zero g": B.boxman(e, "z", (8.0, B.FLOAT_Y, 0.0), motion.LIMP, True),
        "Mixamo man POWERED, standing": B.boxman(e, "x", (12.0, 0.0, 0.0), motion.POWERED,
                                                 path="mixamo_man.glb"),
    }
    ref = B.reference(e, "r", (16.0, 0.0, 0.0), motion.POWERED)
    e.run(seconds=2.0)
    return e, figs, ref


def _draws(n: int, bones: int, seed: int = 18):
    rng = np.random.default_rng(seed)
    out = []
    for _ in range(n):
        d = rng.normal(size=3)
        d /= np.linalg.norm(d)
        out.append((int(rng.integers(bones)), float(rng.uniform(50.0, 600.0)) * d))
    return out


def _timed(w, fn, draws) -> np.ndarray:
    saved = w.bf.copy()
    stats = w.blow_stats.copy()
    ts = np.zeros(len(draws))
    for k, (bone, j) in enumerate(draws):
        t = time.perf_counter()
        fn(bone, j)
        ts[k] = time.perf_counter() - t
        w.bf[:] = saved
        w.blow_stats[:] = stats
    return ts * 1e3


def main() -> None:
    ap = argparse.ArgumentParser()
    ap.add_argument("--blows", type=int, default=200)
    ap.add_argument("--json", default=None)
    args = ap.parse_args()
    e, figs, ref = _scene()
    w = e.physics
    rows = []
    print(f"{'figure':<30} {'motion.hit':>18} {'apply_impulse':>18} {'response':>18} "
          f"{'in Python':>18}   (ms: median / slowest)")

    def cell(ts):
        return f"{np.median(ts):8.3f} / {ts.max():7.3f}"

    cases = [(name, m.ragdoll, m) for name, m in figs.items()]
    cases.append(("reference ragdoll POWERED", ref, None))
    for name, r, m in cases:
        draws = _draws(args.blows, human.BONE_COUNT)

        def point(bone, r=r):
            return B.blow_point(e, r, bone)

        def do_hit(bone, j, m=m):
            motion.hit(m, bone, point(bone), j)

        def do_apply(bone, j, r=r):
            physics.apply_impulse(e, w.handle(int(r.bodies[bone])), j, point(bone))

        def do_response(bone, j, r=r):
            _blow.blow_response(w, int(r.bodies[bone]), j, point(bone))

        def do_python(bone, j, r=r):
            REF.blow_response(w, int(r.bodies[bone]), j, point(bone))

        for fn in (do_hit, do_apply, do_response):  # warm: compiled once, imports done
            if fn is do_hit and m is None:
                continue
            _timed(w, fn, draws[:3])
        hit = _timed(w, do_hit, draws) if m is not None else None
        app = _timed(w, do_apply, draws)
        resp = _timed(w, do_response, draws)
        py = _timed(w, do_python, draws[: max(10, args.blows // 10)])
        print(f"{name:<30} {cell(hit) if hit is not None else '-':>18} {cell(app):>18} "
              f"{cell(resp):>18} {cell(py):>18}")
        rows.append({"figure": name,
                     "hit_ms": None if hit is None else [float(np.median(hit)), float(hit.max())],
                     "apply_impulse_ms": [float(np.median(app)), float(app.max())],
                     "response_ms": [float(np.median(resp)), float(resp.max())],
                     "python_response_ms": [float(np.median(py)), float(py.max())]})
    e.close()
    if args.json:
        with open(args.json, "w") as fh:
            json.dump({"bench": "hit_cost", "blows": args.blows, "rows": rows}, fh, indent=1)


if __name__ == "__main__":
    main()
