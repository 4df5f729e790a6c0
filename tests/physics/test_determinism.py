"""Determinism: a 200-body pile run twice gives identical bytes (issue 2)."""

import hashlib

import numpy as np

from ae3d import engine
from ae3d import physics as P


def build_pile(e, count=200, seed=7):
    """A pile of mixed shapes dropped into a heap (shared with the benchmark's scene)."""
    rng = np.random.default_rng(seed)
    P.ground(e)
    bodies = []
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
            bodies.append(P.add_box(e, rng.uniform(0.1, 0.25, 3), pos, q))
        elif kind == 1:
            bodies.append(P.add_sphere(e, rng.uniform(0.1, 0.25), pos))
        elif kind == 2:
            bodies.append(P.add_capsule(e, rng.uniform(0.08, 0.15), rng.uniform(0.1, 0.2), pos, q))
        else:
            bodies.append(P.add_log(e, rng.uniform(0.08, 0.15), rng.uniform(0.1, 0.2), pos,
                                    heading=rng.uniform(0, 3), cylinder=bool(k % 8 == 3)))
    return bodies


def _run():
    with engine.Engine() as e:
        build_pile(e)
        e.run(seconds=2.0)
        w = e.physics
        n = w.n
        h = hashlib.sha256()
        h.update(w.bf[:n].tobytes())
        h.update(w.bi[:n].tobytes())
        h.update(w.mf[: w.nm].tobytes())
        return h.hexdigest(), w.awake_count()


def test_pile_twice_identical_bytes():
    a, awake_a = _run()
    b, awake_b = _run()
    assert a == b
    assert awake_a == awake_b
