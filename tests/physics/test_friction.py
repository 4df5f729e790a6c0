"""Friction: a box on a static 30° ramp stays put at μ = 0.9 and, at μ = 0.3, slides with
acceleration g(sin θ − μ cos θ) within 5 % (issue 2)."""

import math

import numpy as np

from ae3d import engine
from ae3d import physics as P

THETA = math.radians(30.0)
G = 9.81


def _ramp_and_box(e, mu):
    # the ramp: a static slab turned -30° about z (it rises toward -x); its top face passes
    # through the origin
    q = (0.0, 0.0, math.sin(-THETA / 2), math.cos(-THETA / 2))
    n = np.array([math.sin(THETA), math.cos(THETA), 0.0])  # top face normal
    P.add_box(e, (20.0, 0.5, 2.0), tuple(-0.5 * n), q, kind=P.STATIC, friction=mu)
    h = 0.2
    box = P.add_box(e, (h, h, h), tuple(n * (h + 1e-4) + np.array([0, 0, 0])), q, friction=mu)
    down = np.array([math.cos(THETA), -math.sin(THETA), 0.0])  # down the slope
    return box, down


def test_box_stays_on_ramp_at_mu_09():
    with engine.Engine() as e:
        box, _ = _ramp_and_box(e, 0.9)
        p0 = P.position(e, box)
        e.run(seconds=3.0)
        assert np.linalg.norm(P.position(e, box) - p0) < 5e-3
        assert not P.is_awake(e, box)


def test_box_slides_at_mu_03():
    with engine.Engine() as e:
        box, down = _ramp_and_box(e, 0.3)
        e.run(seconds=0.5)
        t1, v1 = e.time, float(P.velocity(e, box) @ down)
        e.run(seconds=1.0)
        t2, v2 = e.time, float(P.velocity(e, box) @ down)
        a = (v2 - v1) / (t2 - t1)
        expected = G * (math.sin(THETA) - 0.3 * math.cos(THETA))
        assert abs(a - expected) < 0.05 * expected
        # and it slides flat on its face: no tumbling
        assert np.linalg.norm(P.angular_velocity(e, box)) < 0.05
