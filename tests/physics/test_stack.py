"""A stack of 10 boxes stands 10 s (the top box moves less than 1 cm) and sleeps; so does a
pyramid of 20 (issue 2)."""

import numpy as np
import pytest

from ae3d import engine
from ae3d import physics as P

H = 0.25  # half extent of the cubes (m)


def _run(e, bodies, seconds):
    start = [P.position(e, b) for b in bodies]
    moved = np.zeros(len(bodies))
    asleep_at = None
    for step in range(int(round(seconds * 60))):
        e.run(frames=1)
        for i, b in enumerate(bodies):
            moved[i] = max(moved[i], np.linalg.norm(P.position(e, b) - start[i]))
        if asleep_at is None and not any(P.is_awake(e, b) for b in bodies):
            asleep_at = (step + 1) / 60.0
    return moved, asleep_at


@pytest.fixture(scope="module")
def stack():
    with engine.Engine() as e:
        P.ground(e)
        boxes = [P.add_box(e, (H, H, H), (0.0, H + 2 * H * k, 0.0)) for k in range(10)]
        yield _run(e, boxes, 10.0)


def test_stack_of_10_top_moves_under_1cm(stack):
    moved, _ = stack
    assert moved[-1] < 0.01
    assert np.all(moved < 0.01)


def test_stack_of_10_sleeps(stack):
    _, asleep_at = stack
    assert asleep_at is not None and asleep_at < 10.0


@pytest.fixture(scope="module")
def pyramid():
    with engine.Engine() as e:
        P.ground(e)
        boxes = []
        rows = [6, 5, 4, 3, 2]  # 20 boxes
        gap = 0.01
        for r, count in enumerate(rows):
            y = H + 2 * H * r
            for k in range(count):
                x = (k - 0.5 * (count - 1)) * (2 * H + gap)
                boxes.append(P.add_box(e, (H, H, H), (x, y, 0.0)))
        assert len(boxes) == 20
        yield _run(e, boxes, 10.0)


def test_pyramid_of_20_stands(pyramid):
    moved, _ = pyramid
    assert np.all(moved < 0.01)


def test_pyramid_of_20_sleeps(pyramid):
    _, asleep_at = pyramid
    assert asleep_at is not None and asleep_at < 10.0
