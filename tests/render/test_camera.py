"""The camera's arithmetic (no GL): projection and rays agree, orbit and follow behave."""

from __future__ import annotations

import math

import numpy as np
import pytest

from ae3d import render
from ae3d.render import Camera


def test_project_and_ray_agree():
    cam = Camera()
    cam.orbit(target=(0.5, 1.0, -2.0), distance=7.0, yaw=0.7, pitch=0.4)
    pts = np.array([[0.5, 1.0, -2.0], [1.0, 0.0, 0.0], [-2.0, 2.0, -4.0]])
    px = cam.project(pts, 640, 480)
    assert np.allclose(px[0], (320.0, 240.0))  # the target is the frame's centre
    for p, (x, y) in zip(pts, px, strict=True):
        o, d = cam.ray(x, y, 640, 480)
        v = p - o
        # the point lies on the ray through its own pixel
        assert np.linalg.norm(v - d * (v @ d)) < 1e-9 * max(1.0, np.linalg.norm(v))


def test_orbit_eye_and_validation():
    cam = Camera()
    cam.orbit(target=(0, 0, 0), distance=2.0, yaw=0.0, pitch=0.0)
    assert np.allclose(cam.eye, (0.0, 0.0, 2.0))
    cam.orbit(yaw=math.pi / 2)
    assert np.allclose(cam.eye, (2.0, 0.0, 0.0))
    with pytest.raises(ValueError, match="distance"):
        cam.orbit(distance=0.0)
    with pytest.raises(ValueError, match="target"):
        cam.orbit(target=(0.0, math.nan, 0.0))


def test_follow_catches_up(eng):
    goal = np.array([3.0, 1.0, -1.0])
    render.camera_follow(eng, lambda: goal, offset=(0.0, 0.5, 0.0), smoothing=0.2)
    cam = render.scene(eng).camera
    assert np.allclose(cam.target, goal + (0.0, 0.5, 0.0))  # it starts on it
    goal[:] = (4.0, 1.0, -1.0)
    eng.run(seconds=0.2)
    # after one time constant, about 63% of the way
    assert 3.55 < cam.target[0] < 3.7
    eng.run(seconds=2.0)
    assert abs(cam.target[0] - 4.0) < 1e-3
    render.camera_orbit(eng, distance=3.0)  # orbiting stops following
    goal[:] = (9.0, 1.0, -1.0)
    eng.run(frames=10)
    assert abs(cam.target[0] - 4.0) < 1e-3
