"""Rotation conversions shared by the figure and physics packages (plain numpy, not njit).

Quaternions are (x, y, z, w); matrices are 3x3 rotations acting on column vectors.
"""

from __future__ import annotations

import math

import numpy as np


def quat_to_mat(q: np.ndarray) -> np.ndarray:
    """The (3, 3) rotation matrix of unit quaternion ``q`` (x, y, z, w)."""
    x, y, z, w = q
    return np.array([[1 - 2 * (y * y + z * z), 2 * (x * y - w * z), 2 * (x * z + w * y)],
                     [2 * (x * y + w * z), 1 - 2 * (x * x + z * z), 2 * (y * z - w * x)],
                     [2 * (x * z - w * y), 2 * (y * z + w * x), 1 - 2 * (x * x + y * y)]])


def mat_to_quat(r: np.ndarray) -> np.ndarray:
    """A (3, 3) rotation matrix's unit quaternion (x, y, z, w), with w >= 0 (Shepperd's
    method: the largest of the four candidates is divided by, so it never divides by ~0)."""
    tr = r[0, 0] + r[1, 1] + r[2, 2]
    if tr > 0.0:
        k = math.sqrt(tr + 1.0) * 2.0
        q = [(r[2, 1] - r[1, 2]) / k, (r[0, 2] - r[2, 0]) / k, (r[1, 0] - r[0, 1]) / k, 0.25 * k]
    elif r[0, 0] > r[1, 1] and r[0, 0] > r[2, 2]:
        k = math.sqrt(1.0 + r[0, 0] - r[1, 1] - r[2, 2]) * 2.0
        q = [0.25 * k, (r[0, 1] + r[1, 0]) / k, (r[0, 2] + r[2, 0]) / k, (r[2, 1] - r[1, 2]) / k]
    elif r[1, 1] > r[2, 2]:
        k = math.sqrt(1.0 + r[1, 1] - r[0, 0] - r[2, 2]) * 2.0
        q = [(r[0, 1] + r[1, 0]) / k, 0.25 * k, (r[1, 2] + r[2, 1]) / k, (r[0, 2] - r[2, 0]) / k]
    else:
        k = math.sqrt(1.0 + r[2, 2] - r[0, 0] - r[1, 1]) * 2.0
        q = [(r[0, 2] + r[2, 0]) / k, (r[1, 2] + r[2, 1]) / k, 0.25 * k, (r[1, 0] - r[0, 1]) / k]
    qa = np.array(q)
    qa /= np.linalg.norm(qa)
    return -qa if qa[3] < 0.0 else qa
