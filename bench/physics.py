"""Physics benchmark: µs per fixed step (1/60 s, 4 sub-steps) of

- pile_awake:   256 mixed bodies (boxes, spheres, capsules, logs) falling into a pile, all awake
- pile_asleep:  the same pile once it has gone to sleep
- spheres_1000: 1,000 spheres poured into a walled box

Usage: python bench/physics.py [--json PATH] [--quick]
Prints a table; with --json writes one flat JSON object of names to numbers. Asserts nothing.
"""

from __future__ import annotations

import argparse
import json
import os
import sys
import time

import numpy as np

sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__)), ".."))

from ae3d import engine  # noqa: E402
from ae3d import physics as P  # noqa: E402

DT = 1.0 / 60.0


def build_pile(e, count=256, seed=7):
    """A heap of mixed shapes, 4 kinds in turn, dropped from a grid of layers."""
    rng = np.random.default_rng(seed)
    P.ground(e)
    side = int(np.ceil(np.sqrt(count / 4)))
    for k in range(count):
        layer, cell = divmod(k, side * side)
        i, j = divmod(cell, side)
        pos = (0.7 * (i - side / 2) + rng.uniform(-0.05, 0.05), 0.5 + 0.7 * layer,
               0.7 * (j - side / 2) + rng.uniform(-0.05, 0.05))
        q = rng.normal(size=4)
        q /= np.linalg.norm(q)
        kind = k % 4
        if kind == 0:
            P.add_box(e, rng.uniform(0.1, 0.25, 3), pos, q)
        elif kind == 1:
            P.add_sphere(e, rng.uniform(0.1, 0.25), pos)
        elif kind == 2:
            P.add_capsule(e, rng.uniform(0.08, 0.15), rng.uniform(0.1, 0.2), pos, q)
        else:
            P.add_log(e, rng.uniform(0.08, 0.15), rng.uniform(0.1, 0.2), pos,
                      heading=rng.uniform(0, 3), cylinder=bool(k % 8 == 3))


def build_spheres(e, count=1000, seed=3):
    """Spheres poured into a 6 m x 6 m box with 2 m walls."""
    rng = np.random.default_rng(seed)
    P.ground(e)
    for x, z, hx, hz in ((3.1, 0, 0.1, 3.2), (-3.1, 0, 0.1, 3.2), (0, 3.1, 3.2, 0.1),
                         (0, -3.1, 3.2, 0.1)):
        P.add_box(e, (hx, 1.0, hz), (x, 1.0, z), kind=P.STATIC)
    side = 12
    for k in range(count):
        layer, cell = divmod(k, side * side)
        i, j = divmod(cell, side)
        P.add_sphere(e, 0.2, (0.45 * (i - side / 2 + 0.5) + rng.uniform(-0.02, 0.02),
                              0.3 + 0.45 * layer,
                              0.45 * (j - side / 2 + 0.5) + rng.uniform(-0.02, 0.02)))


CPU: dict[str, float] = {}


def time_steps(w, steps, name):
    """(mean, median) wall µs per fixed step over ``steps`` steps of world ``w`` (after one
    warm-up step); the process's CPU µs per step goes to CPU[name]. On a shared machine the
    median and the CPU time are the steadier figures."""
    w.step(DT)
    ts = []
    c0 = time.process_time()
    for _ in range(steps):
        t0 = time.perf_counter()
        w.step(DT)
        ts.append(time.perf_counter() - t0)
    CPU[name] = (time.process_time() - c0) / steps * 1e6
    return float(np.mean(ts)) * 1e6, float(np.median(ts)) * 1e6


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--json", help="write the figures to this JSON file")
    ap.add_argument("--quick", action="store_true", help="fewer steps (a smoke run)")
    args = ap.parse_args()
    steps = 30 if args.quick else 120
    out: dict[str, float] = {}

    t0 = time.perf_counter()
    with engine.Engine() as e:
        w = e.physics
        w.step(DT)  # compiles (or loads) the kernels
        out["first_step_s"] = time.perf_counter() - t0
    with engine.Engine() as e:
        build_pile(e, 256)
        w = e.physics
        for _ in range(20):  # into the fall: the first contacts
            w.step(DT)
        us, med = time_steps(w, steps, "pile_awake")
        out["pile_awake_cpu_us_per_step"] = CPU["pile_awake"]
        out["pile_awake_cpu_us_per_body"] = CPU["pile_awake"] / 256
        out["pile_awake_bodies"] = w.awake_count()
        out["pile_awake_us_per_step"] = us
        out["pile_awake_us_per_step_median"] = med
        out["pile_awake_us_per_body"] = us / 256
        out["pile_awake_us_per_body_median"] = med / 256
        out["pile_awake_manifolds"] = w.nm
        settle = 0
        while w.awake_count() > 0 and settle < 60 * 30:
            w.step(DT)
            settle += 1
        out["pile_settle_s"] = settle * DT
        out["pile_asleep_bodies"] = 256 - w.awake_count()
        us, med = time_steps(w, steps, "pile_asleep")
        out["pile_asleep_cpu_us_per_step"] = CPU["pile_asleep"]
        out["pile_asleep_us_per_step"] = us
        out["pile_asleep_us_per_step_median"] = med
    with engine.Engine() as e:
        build_spheres(e, 1000)
        w = e.physics
        for _ in range(60):
            w.step(DT)
        us, med = time_steps(w, steps, "spheres_1000")
        out["spheres_1000_cpu_us_per_step"] = CPU["spheres_1000"]
        out["spheres_1000_awake_bodies"] = w.awake_count()
        out["spheres_1000_us_per_step"] = us
        out["spheres_1000_us_per_step_median"] = med
        out["spheres_1000_us_per_body"] = us / 1000
        out["spheres_1000_manifolds"] = w.nm

    width = max(len(k) for k in out)
    print(f"{'figure':<{width}}  value")
    for k, v in out.items():
        print(f"{k:<{width}}  {v:.3f}" if isinstance(v, float) else f"{k:<{width}}  {v}")
    if args.json:
        with open(args.json, "w") as f:
            json.dump({k: float(v) for k, v in out.items()}, f, indent=1, sort_keys=True)


if __name__ == "__main__":
    main()
