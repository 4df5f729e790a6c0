"""Tables grow between steps: bodies past the capacity, and pair and manifold arrays that a step
found too small (the overflow is dropped for that one step and the arrays grow for the next)."""

import numpy as np

from ae3d import engine
from ae3d import physics as P
from ae3d.physics import _layout as L


def test_growth_and_overflow():
    with engine.Engine() as e:
        w = e.physics
        P.ground(e)
        balls = [P.add_sphere(e, 0.1, (0.25 * (k % 10), 0.1 + 0.25 * (k // 10), 0.0))
                 for k in range(150)]
        assert w.cap >= 151 and w.body_count() == 151
        # starve the step of room: it must not crash, and must grow for the next step
        w.keys = np.zeros(4, dtype=np.int64)
        w.mf = np.zeros((2, L.MF_COUNT))
        w.mi = np.zeros((2, L.MI_COUNT), dtype=np.int64)
        w._mf1 = np.zeros((2, L.MF_COUNT))
        w._mi1 = np.zeros((2, L.MI_COUNT), dtype=np.int64)
        w.nm = 0
        e.run(frames=1)
        e.run(frames=2)
        assert w.keys.shape[0] >= w.last_pairs and w.mf.shape[0] >= w.nm
        e.run(seconds=2.0)
        ys = np.array([P.position(e, b)[1] for b in balls])
        assert np.all(np.isfinite(w.bf[: w.n]))
        assert ys.min() > 0.1 - 5e-3  # none fell through the ground
