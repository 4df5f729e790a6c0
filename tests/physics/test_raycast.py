"""Raycast: hits the right body at the right distance; misses when it should. Overlap query."""

import math

import numpy as np
import pytest

from ae3d import engine
from ae3d import physics as P


@pytest.fixture(scope="module")
def scene():
    with engine.Engine() as e:
        P.set_gravity(e, (0.0, 0.0, 0.0))
        g = P.ground(e)
        s = P.add_sphere(e, 0.5, (0.0, 1.0, 0.0))
        b = P.add_box(e, (0.5, 0.25, 1.0), (3.0, 1.0, 0.0),
                      (0.0, math.sin(0.3), 0.0, math.cos(0.3)))
        c = P.add_capsule(e, 0.2, 0.5, (-3.0, 1.0, 0.0))
        k = P.add_log(e, 0.3, 0.5, (0.0, 1.0, 4.0), cylinder=True)
        yield e, g, s, b, c, k


def test_hits_sphere(scene):
    e, g, s, b, c, k = scene
    h = P.raycast(e, (0.0, 1.0, -5.0), (0.0, 0.0, 1.0))
    assert h is not None and h.body == s
    assert abs(h.distance - 4.5) < 1e-9
    assert np.allclose(h.point, (0.0, 1.0, -0.5)) and np.allclose(h.normal, (0.0, 0.0, -1.0))


def test_hits_capsule_side_and_end(scene):
    e, g, s, b, c, k = scene
    h = P.raycast(e, (-6.0, 1.2, 0.0), (1.0, 0.0, 0.0))
    assert h.body == c and abs(h.distance - 2.8) < 1e-9
    h = P.raycast(e, (-3.0, 5.0, 0.0), (0.0, -1.0, 0.0))
    assert h.body == c and abs(h.distance - (5.0 - 1.7)) < 1e-9
    assert np.allclose(h.normal, (0.0, 1.0, 0.0))


def test_hits_rotated_box(scene):
    e, g, s, b, c, k = scene
    h = P.raycast(e, (3.0, 5.0, 0.2), (0.0, -1.0, 0.0))
    assert h.body == b and abs(h.distance - 3.75) < 1e-9
    assert np.allclose(h.normal, (0.0, 1.0, 0.0))


def test_hits_cylinder_log_and_ground(scene):
    e, g, s, b, c, k = scene
    h = P.raycast(e, (0.2, 5.0, 4.2), (0.0, -1.0, 0.0))
    assert h.body == k and abs(h.distance - (4.0 - math.sqrt(0.09 - 0.04))) < 1e-9
    h = P.raycast(e, (10.0, 2.0, 0.0), (0.0, -1.0, 0.0))
    assert h.body == g and abs(h.distance - 2.0) < 1e-9


def test_misses(scene):
    e, *_ = scene
    assert P.raycast(e, (0.0, 1.0, -5.0), (0.0, 1.0, 0.0)) is None
    assert P.raycast(e, (0.0, 1.0, -5.0), (0.0, 0.0, 1.0), max_distance=4.0) is None
    assert P.raycast(e, (0.0, 1.0, -5.0), (0.0, 0.0, -1.0)) is None
    assert P.raycast(e, (0.0, 0.0, 0.0) , (0.0, 0.0, 1.0), mask=0) is None


def test_overlap(scene):
    e, g, s, b, c, k = scene
    assert P.overlap(e, "sphere", 0.3, (0.0, 1.7, 0.0)) == [s]
    assert P.overlap(e, "sphere", 0.3, (0.0, 1.9, 0.0)) == []
    got = P.overlap(e, "box", (4.0, 0.1, 0.1), (0.0, 1.0, 0.0))
    assert got == [s, b, c]
    assert P.overlap(e, "capsule", (0.2, 5.0), (0.0, 0.0, 0.0)) == [g, s]
