"""Resting shapes on the ground: penetration under 5 mm, drift under 1 mm over 10 s, asleep
within 2 s (issue 2)."""

import numpy as np
import pytest

from ae3d import engine
from ae3d import physics as P

# name -> (add(e) -> body, height of the centre above the ground when resting (m))
SHAPES = {
    "sphere": (lambda e: P.add_sphere(e, 0.3, (0.0, 0.3, 0.0)), 0.3),
    "lying capsule": (lambda e: P.add_log(e, 0.2, 0.4, (2.0, 0.2, 0.0)), 0.2),
    "standing capsule": (lambda e: P.add_capsule(e, 0.2, 0.4, (4.0, 0.6, 0.0)), 0.6),
    "box": (lambda e: P.add_box(e, (0.3, 0.25, 0.4), (6.0, 0.25, 0.0)), 0.25),
    "lying cylinder": (lambda e: P.add_log(e, 0.2, 0.4, (8.0, 0.2, 0.0), cylinder=True), 0.2),
}


@pytest.fixture(scope="module")
def rest_run():
    """All shapes on one ground, 10 s: per shape the start, the track of heights, sleep time."""
    with engine.Engine() as e:
        P.ground(e)
        bodies = {k: add(e) for k, (add, _) in SHAPES.items()}
        start = {k: P.position(e, b) for k, b in bodies.items()}
        lowest = {k: np.inf for k in bodies}
        asleep_at = {k: None for k in bodies}
        for step in range(600):
            e.run(frames=1)
            for k, b in bodies.items():
                lowest[k] = min(lowest[k], P.position(e, b)[1])
                if asleep_at[k] is None and not P.is_awake(e, b):
                    asleep_at[k] = (step + 1) / 60.0
        end = {k: P.position(e, b) for k, b in bodies.items()}
        yield start, end, lowest, asleep_at


@pytest.mark.parametrize("name", list(SHAPES))
def test_penetration_under_5mm(rest_run, name):
    _, _, lowest, _ = rest_run
    assert SHAPES[name][1] - lowest[name] < 5e-3


@pytest.mark.parametrize("name", list(SHAPES))
def test_drift_under_1mm_over_10s(rest_run, name):
    start, end, _, _ = rest_run
    assert np.linalg.norm(end[name] - start[name]) < 1e-3


@pytest.mark.parametrize("name", list(SHAPES))
def test_asleep_within_2s(rest_run, name):
    _, _, _, asleep_at = rest_run
    assert asleep_at[name] is not None and asleep_at[name] <= 2.0


def test_dropped_shapes_come_to_rest():
    """Dropped from 0.5 m rather than placed: they land, stop within 5 mm and sleep."""
    with engine.Engine() as e:
        P.ground(e)
        b = P.add_box(e, (0.3, 0.25, 0.4), (0.0, 0.75, 0.0))
        c = P.add_log(e, 0.2, 0.4, (2.0, 0.7, 0.0))
        e.run(seconds=3.0)
        assert abs(P.position(e, b)[1] - 0.25) < 5e-3
        assert abs(P.position(e, c)[1] - 0.2) < 5e-3
        assert not P.is_awake(e, b) and not P.is_awake(e, c)
