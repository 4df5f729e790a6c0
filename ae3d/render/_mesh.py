"""SkinnedMesh: what the renderer needs of a skinned figure's mesh (CPU arrays)."""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any

import numpy as np


@dataclass(eq=False)
class SkinnedMesh:
    """A skinned triangle mesh in its bind pose.

    Args:
        positions: (n, 3) m, bind-pose vertex positions.
        normals: (n, 3) unit bind-pose normals.
        joints: (n, 4) int skin-joint indices per vertex (glTF JOINTS_0).
        weights: (n, 4) float skin weights per vertex (glTF WEIGHTS_0; rows sum to 1).
        indices: (m,) uint triangle vertex indices (counter-clockwise fronts).
        colors: (n, 3) linear RGB per vertex in 0..1 (the material's base colour), or
            None for ``color`` everywhere.
        inverse_bind: (j, 4, 4) the skin's inverse bind matrices.
        joint_bones: (j,) int, the rig bone each skin joint follows.
        color: (3,) linear RGB used where ``colors`` is None.

    The skinning matrix of skin joint ``k`` is ``world[joint_bones[k]] @ inverse_bind[k]``, with
    ``world`` the rig's (bones, 4, 4) world matrices (m).
    """

    positions: np.ndarray
    normals: np.ndarray
    joints: np.ndarray
    weights: np.ndarray
    indices: np.ndarray
    inverse_bind: np.ndarray
    joint_bones: np.ndarray
    colors: np.ndarray | None = None
    color: tuple[float, float, float] = (0.8, 0.45, 0.2)
    source: Any = field(default=None, repr=False)  # what it was made from (for caching)

    def __post_init__(self) -> None:
        p = np.asarray(self.positions, dtype=np.float32)
        if p.ndim != 2 or p.shape[1] != 3 or len(p) == 0:
            raise ValueError("positions must be a non-empty (n, 3) array")
        n = len(p)
        self.positions = p
        self.normals = _rows(self.normals, n, 3, "normals", np.float32)
        self.joints = _rows(self.joints, n, 4, "joints", np.float32)
        self.weights = _rows(self.weights, n, 4, "weights", np.float32)
        idx = np.asarray(self.indices).ravel()
        if len(idx) % 3 or len(idx) == 0:
            raise ValueError("indices must hold a positive multiple of 3 entries")
        if idx.min() < 0 or idx.max() >= n:
            raise ValueError("indices must lie in 0..len(positions)-1")
        self.indices = idx.astype(np.uint32)
        ib = np.asarray(self.inverse_bind, dtype=np.float64)
        if ib.ndim != 3 or ib.shape[1:] != (4, 4):
            raise ValueError("inverse_bind must be (joints, 4, 4)")
        self.inverse_bind = ib
        jb = np.asarray(self.joint_bones, dtype=np.int64).ravel()
        if len(jb) != len(ib):
            raise ValueError("joint_bones must have one entry per inverse bind matrix")
        self.joint_bones = jb
        if self.joints.max(initial=0) >= len(ib):
            raise ValueError("joints refer to skin joints the skin does not have")
        if self.colors is None:
            self.colors = np.tile(np.asarray(self.color, dtype=np.float32), (n, 1))
        else:
            self.colors = _rows(self.colors, n, 3, "colors", np.float32)
        if not all(np.isfinite(a).all() for a in (self.positions, self.normals, self.weights)):
            raise ValueError("mesh arrays must be finite")

    @property
    def joint_count(self) -> int:
        return len(self.inverse_bind)

    def vertex_data(self) -> np.ndarray:
        """Interleaved float32 vertices: position 3, normal 3, joints 4, weights 4, colour 3."""
        return np.ascontiguousarray(np.concatenate(
            [self.positions, self.normals, self.joints, self.weights, self.colors], axis=1),
            dtype=np.float32)

    def skinning(self, world: np.ndarray) -> np.ndarray:
        """(j, 4, 4) skinning matrices for the rig's (bones, 4, 4) world matrices."""
        return np.matmul(np.asarray(world)[self.joint_bones], self.inverse_bind)


def _rows(a, n, k, name, dtype):
    a = np.asarray(a, dtype=dtype)
    if a.shape != (n, k):
        raise ValueError(f"{name} must be ({n}, {k}), got {a.shape}")
    return a
