"""4x4 transform helpers (numpy, float64): column vectors, ``world_point = M @ [x, y, z, 1]``.

Y is up, the camera looks down its local -Z (OpenGL's convention); quaternions are (x, y, z, w).
These run a few times per frame, never per vertex, so plain numpy is the right tool.
"""

from __future__ import annotations

import math

import numpy as np


def perspective(fovy: float, aspect: float, near: float, far: float) -> np.ndarray:
    """OpenGL projection for a vertical field of view ``fovy`` (rad); near/far in m."""
    f = 1.0 / math.tan(0.5 * fovy)
    m = np.zeros((4, 4))
    m[0, 0] = f / aspect
    m[1, 1] = f
    m[2, 2] = (far + near) / (near - far)
    m[2, 3] = 2.0 * far * near / (near - far)
    m[3, 2] = -1.0
    return m


def ortho(half_w: float, half_h: float, near: float, far: float) -> np.ndarray:
    """OpenGL orthographic projection of a box ``±half_w × ±half_h`` (m), depth near..far (m)."""
    m = np.eye(4)
    m[0, 0] = 1.0 / half_w
    m[1, 1] = 1.0 / half_h
    m[2, 2] = -2.0 / (far - near)
    m[2, 3] = -(far + near) / (far - near)
    return m


def look_at(eye, target, up=(0.0, 1.0, 0.0)) -> np.ndarray:
    """View matrix of a camera at ``eye`` (m) looking at ``target`` (m)."""
    eye = np.asarray(eye, dtype=np.float64)
    f = np.asarray(target, dtype=np.float64) - eye
    f /= np.linalg.norm(f)
    up = np.asarray(up, dtype=np.float64)
    s = np.cross(f, up)
    if np.linalg.norm(s) < 1e-9:  # looking straight up or down: any side will do
        s = np.cross(f, np.array([0.0, 0.0, 1.0]))
    s /= np.linalg.norm(s)
    u = np.cross(s, f)
    m = np.eye(4)
    m[0, :3] = s
    m[1, :3] = u
    m[2, :3] = -f
    m[:3, 3] = -m[:3, :3] @ eye
    return m


def quat_to_mat3(q) -> np.ndarray:
    """Rotation matrices (..., 3, 3) of quaternions (..., 4) given as (x, y, z, w)."""
    q = np.asarray(q, dtype=np.float64)
    x, y, z, w = q[..., 0], q[..., 1], q[..., 2], q[..., 3]
    n = x * x + y * y + z * z + w * w
    s = np.where(n > 0.0, 2.0 / np.where(n > 0.0, n, 1.0), 0.0)
    m = np.empty(q.shape[:-1] + (3, 3))
    m[..., 0, 0] = 1 - s * (y * y + z * z)
    m[..., 0, 1] = s * (x * y - z * w)
    m[..., 0, 2] = s * (x * z + y * w)
    m[..., 1, 0] = s * (x * y + z * w)
    m[..., 1, 1] = 1 - s * (x * x + z * z)
    m[..., 1, 2] = s * (y * z - x * w)
    m[..., 2, 0] = s * (x * z - y * w)
    m[..., 2, 1] = s * (y * z + x * w)
    m[..., 2, 2] = 1 - s * (x * x + y * y)
    return m


def compose(pos, quat) -> np.ndarray:
    """Transforms (..., 4, 4) from positions (..., 3) m and quaternions (..., 4)."""
    pos = np.asarray(pos, dtype=np.float64)
    r = quat_to_mat3(quat)
    m = np.zeros(r.shape[:-2] + (4, 4))
    m[..., :3, :3] = r
    m[..., :3, 3] = pos
    m[..., 3, 3] = 1.0
    return m


def rot_y(angle: float) -> np.ndarray:
    """4x4 rotation by ``angle`` (rad) about +Y (right-handed: +X turns towards -Z)."""
    c, s = math.cos(angle), math.sin(angle)
    m = np.eye(4)
    m[0, 0], m[0, 2], m[2, 0], m[2, 2] = c, s, -s, c
    return m


def rot_x(angle: float) -> np.ndarray:
    c, s = math.cos(angle), math.sin(angle)
    m = np.eye(4)
    m[1, 1], m[1, 2], m[2, 1], m[2, 2] = c, -s, s, c
    return m


def rot_z(angle: float) -> np.ndarray:
    c, s = math.cos(angle), math.sin(angle)
    m = np.eye(4)
    m[0, 0], m[0, 1], m[1, 0], m[1, 1] = c, -s, s, c
    return m


def translate(x: float, y: float, z: float) -> np.ndarray:
    m = np.eye(4)
    m[:3, 3] = (x, y, z)
    return m


def to_gl(m: np.ndarray) -> bytes:
    """Bytes of a 4x4 matrix for a GLSL ``mat4`` uniform (column-major float32)."""
    return np.ascontiguousarray(np.asarray(m, dtype=np.float32).T).tobytes()
