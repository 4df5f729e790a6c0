"""The camera: orbit about a target, or follow something, with the view and projection it makes."""

from __future__ import annotations

import math
from collections.abc import Callable
from typing import Any

import numpy as np

from . import _xform


class Camera:
    """An orbit camera: it looks at ``target`` (m) from ``distance`` (m) away, turned ``yaw``
    (rad, about +Y; 0 looks along -Z from the +Z side) and raised ``pitch`` (rad, up positive).

    ``fov`` is the vertical field of view (rad); ``near``/``far`` the clip planes (m). Following
    (``follow``) moves the target towards the followed point every frame, smoothed over
    ``follow_time`` seconds (0 snaps).
    """

    def __init__(self) -> None:
        self.target = np.array([0.0, 1.0, 0.0])
        self.distance = 6.0
        self.yaw = 0.0
        self.pitch = 0.25
        self.fov = math.radians(45.0)
        self.near = 0.05
        self.far = 500.0
        self.follow_fn: Callable[[], Any] | None = None
        self.follow_offset = np.zeros(3)
        self.follow_time = 0.25

    # -- setting ----------------------------------------------------------------------------
    def orbit(self, target=None, distance: float | None = None, yaw: float | None = None,
              pitch: float | None = None) -> None:
        """Set any of target (3,) m, distance m, yaw rad, pitch rad; stops following."""
        if target is not None:
            t = np.asarray(target, dtype=np.float64).reshape(3)
            if not np.isfinite(t).all():
                raise ValueError("target must be finite")
            self.target = t.copy()
        if distance is not None:
            if not (math.isfinite(distance) and distance > 0.0):
                raise ValueError("distance must be a positive number of metres")
            self.distance = float(distance)
        if yaw is not None:
            if not math.isfinite(yaw):
                raise ValueError("yaw must be finite")
            self.yaw = float(yaw)
        if pitch is not None:
            if not math.isfinite(pitch):
                raise ValueError("pitch must be finite")
            self.pitch = float(np.clip(pitch, -1.5, 1.5))
        self.follow_fn = None

    def update(self, dt: float) -> None:
        """Move a following camera's target towards what it follows (dt in s)."""
        if self.follow_fn is None:
            return
        p = self.follow_fn()
        if p is None:
            return
        goal = np.asarray(p, dtype=np.float64).reshape(3) + self.follow_offset
        if not np.isfinite(goal).all():
            return
        k = 1.0 if self.follow_time <= 0.0 else 1.0 - math.exp(-dt / self.follow_time)
        self.target = self.target + (goal - self.target) * k

    # -- matrices ---------------------------------------------------------------------------
    @property
    def eye(self) -> np.ndarray:
        cp = math.cos(self.pitch)
        d = np.array([cp * math.sin(self.yaw), math.sin(self.pitch), cp * math.cos(self.yaw)])
        return self.target + self.distance * d

    def view(self) -> np.ndarray:
        return _xform.look_at(self.eye, self.target)

    def projection(self, aspect: float) -> np.ndarray:
        return _xform.perspective(self.fov, aspect, self.near, self.far)

    def view_projection(self, width: int, height: int) -> np.ndarray:
        return self.projection(width / height) @ self.view()

    def project(self, points, width: int, height: int) -> np.ndarray:
        """Pixel coordinates (..., 2) (x right, y down, pixel centres at +0.5) of world points
        (..., 3) m in a ``width`` × ``height`` frame."""
        p = np.asarray(points, dtype=np.float64)
        h = np.concatenate([p, np.ones(p.shape[:-1] + (1,))], axis=-1)
        c = h @ self.view_projection(width, height).T
        ndc = c[..., :2] / c[..., 3:4]
        x = (ndc[..., 0] * 0.5 + 0.5) * width
        y = (1.0 - (ndc[..., 1] * 0.5 + 0.5)) * height
        return np.stack([x, y], axis=-1)

    def ray(self, x: float, y: float, width: int, height: int) -> tuple[np.ndarray, np.ndarray]:
        """World ray (origin m, unit direction) through pixel coordinates (x, y) (see project)."""
        inv = np.linalg.inv(self.view_projection(width, height))
        nx = 2.0 * x / width - 1.0
        ny = 1.0 - 2.0 * y / height
        a = inv @ np.array([nx, ny, -1.0, 1.0])
        b = inv @ np.array([nx, ny, 1.0, 1.0])
        a, b = a[:3] / a[3], b[:3] / b[3]
        d = b - a
        return a, d / np.linalg.norm(d)
