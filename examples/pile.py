"""A pile of boxes and capsules settling: the interim `make demo`.

Drops 120 boxes, capsules and logs onto the ground, steps the world for 8 s at 60 Hz and prints
what happened: how many bodies are awake, how many touch, how high the heap stands, how fast its
fastest body goes, and the cost of a step. Later issues replace this with the flagship example.
"""

from __future__ import annotations

import os
import sys
import time

import numpy as np

sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__)), ".."))

from ae3d import engine  # noqa: E402
from ae3d import physics as P  # noqa: E402


def build(e: engine.Engine, count: int = 120, seed: int = 1) -> list:
    rng = np.random.default_rng(seed)
    P.ground(e)
    bodies = []
    for k in range(count):
        layer, cell = divmod(k, 16)
        i, j = divmod(cell, 4)
        pos = (0.8 * (i - 1.5) + rng.uniform(-0.1, 0.1), 0.6 + 0.8 * layer,
               0.8 * (j - 1.5) + rng.uniform(-0.1, 0.1))
        q = rng.normal(size=4)
        q /= np.linalg.norm(q)
        if k % 3 == 0:
            bodies.append(P.add_box(e, rng.uniform(0.12, 0.3, 3), pos, q))
        elif k % 3 == 1:
            bodies.append(P.add_capsule(e, rng.uniform(0.08, 0.15), rng.uniform(0.1, 0.3), pos, q))
        else:
            bodies.append(P.add_log(e, rng.uniform(0.1, 0.15), rng.uniform(0.2, 0.4), pos,
                                    heading=rng.uniform(0.0, np.pi)))
    return bodies


def main() -> None:
    with engine.Engine() as e:
        bodies = build(e)
        w = e.physics
        print(f"a pile of {len(bodies)} boxes, capsules and logs falling onto the ground "
              f"({P.substeps(e)} sub-steps per 1/60 s step)")
        t0 = time.perf_counter()
        e.run(frames=1)  # the first step compiles the kernels (once) or loads them
        first = time.perf_counter() - t0
        print(f"{'time s':>7} {'awake':>6} {'contacts':>9} {'top m':>7} {'fastest m/s':>12}"
              f" {'step µs':>8}")
        step_time = 0.0
        steps = 0
        for second in range(1, 9):
            t0 = time.perf_counter()
            while e.time < second - 1e-9:
                e.run(frames=1)
                steps += 1
            dt = time.perf_counter() - t0
            step_time += dt
            pos = np.array([P.position(e, b) for b in bodies])
            speed = max(float(np.linalg.norm(P.velocity(e, b))) for b in bodies)
            print(f"{e.time:7.1f} {w.awake_count():6d} {len(w.contacts()):9d} "
                  f"{pos[:, 1].max():7.2f} {speed:12.3f} {dt / 60 * 1e6:8.0f}")
        asleep = sum(not P.is_awake(e, b) for b in bodies)
        print(f"{asleep} of {len(bodies)} bodies asleep after {e.time:.0f} s; "
              f"{step_time / steps * 1e6:.0f} µs per step on average; first step {first:.2f} s")


if __name__ == "__main__":
    main()
