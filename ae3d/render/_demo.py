"""A procedural box man (a skinned mesh and a rig's poses) for tests, the benchmark and the
viewer when no glTF figure is at hand. Fourteen bones, each a box rigidly skinned to it."""

from __future__ import annotations

import math

import numpy as np

from . import _meshes, _xform
from ._mesh import SkinnedMesh

# name, parent, joint position at rest (m, world), box centre offset from the joint (m), half size
BONES = [
    ("pelvis", -1, (0.0, 0.95, 0.0), (0.0, 0.02, 0.0), (0.16, 0.09, 0.10)),
    ("spine", 0, (0.0, 1.08, 0.0), (0.0, 0.10, 0.0), (0.15, 0.10, 0.095)),
    ("chest", 1, (0.0, 1.28, 0.0), (0.0, 0.11, 0.0), (0.19, 0.13, 0.11)),
    ("head", 2, (0.0, 1.55, 0.0), (0.0, 0.12, 0.01), (0.10, 0.12, 0.11)),
    ("upperarm_l", 2, (0.25, 1.48, 0.0), (0.0, -0.14, 0.0), (0.055, 0.15, 0.055)),
    ("forearm_l", 4, (0.25, 1.18, 0.0), (0.0, -0.15, 0.0), (0.045, 0.16, 0.045)),
    ("upperarm_r", 2, (-0.25, 1.48, 0.0), (0.0, -0.14, 0.0), (0.055, 0.15, 0.055)),
    ("forearm_r", 6, (-0.25, 1.18, 0.0), (0.0, -0.15, 0.0), (0.045, 0.16, 0.045)),
    ("thigh_l", 0, (0.10, 0.90, 0.0), (0.0, -0.21, 0.0), (0.075, 0.22, 0.075)),
    ("shin_l", 8, (0.10, 0.48, 0.0), (0.0, -0.20, 0.0), (0.06, 0.21, 0.06)),
    ("foot_l", 9, (0.10, 0.07, 0.0), (0.0, -0.035, 0.06), (0.055, 0.035, 0.12)),
    ("thigh_r", 0, (-0.10, 0.90, 0.0), (0.0, -0.21, 0.0), (0.075, 0.22, 0.075)),
    ("shin_r", 11, (-0.10, 0.48, 0.0), (0.0, -0.20, 0.0), (0.06, 0.21, 0.06)),
    ("foot_r", 12, (-0.10, 0.07, 0.0), (0.0, -0.035, 0.06), (0.055, 0.035, 0.12)),
]
CHEST = 2
COLOR = (0.80, 0.30, 0.08)  # linear RGB: a clear orange against the grey ground


def mesh(color=COLOR) -> SkinnedMesh:
    """The box man's SkinnedMesh, bind pose standing at the origin facing +Z."""
    verts, idx = _meshes.box()
    pos: list = []
    nrm: list = []
    jn: list = []
    ind: list = []
    for b, (_, _, joint, off, half) in enumerate(BONES):
        p = verts[:, :3] * np.array(half) + np.array(joint) + np.array(off)
        ind.append(idx + len(pos) * len(verts))
        pos.append(p)
        nrm.append(verts[:, 3:6])
        jn.append(np.tile([b, 0, 0, 0], (len(verts), 1)))
    n = len(BONES)
    ib = np.stack([_xform.translate(*(-np.array(j[2]))) for j in BONES])
    w = np.zeros((n * len(verts), 4))
    w[:, 0] = 1.0
    return SkinnedMesh(np.concatenate(pos), np.concatenate(nrm), np.concatenate(jn), w,
                       np.concatenate(ind), ib, np.arange(n), color=color)


def pose(t: float = 0.0, root: np.ndarray | None = None, swing: float = 0.5) -> np.ndarray:
    """World matrices (14, 4, 4) of the box man walking in place at time ``t`` (s): arms and
    legs swinging ``swing`` rad at 1 Hz; ``root`` (4, 4) places it (identity: at the origin)."""
    a = swing * math.sin(2.0 * math.pi * t)
    rots = {"upperarm_l": a, "upperarm_r": -a, "thigh_l": -a, "thigh_r": a,
            "forearm_l": -0.3 - 0.3 * abs(a), "forearm_r": -0.3 - 0.3 * abs(a),
            "shin_l": 0.6 * max(0.0, a), "shin_r": 0.6 * max(0.0, -a)}
    root = np.eye(4) if root is None else np.asarray(root, dtype=np.float64)
    world = np.empty((len(BONES), 4, 4))
    for i, (name, parent, joint, _, _) in enumerate(BONES):
        ppos = np.zeros(3) if parent < 0 else np.array(BONES[parent][2])
        local = _xform.translate(*(np.array(joint) - ppos)) @ _xform.rot_x(rots.get(name, 0.0))
        world[i] = (root if parent < 0 else world[parent]) @ local
    return world


def bank(m: SkinnedMesh, frames: int = 30, swing: float = 0.5) -> np.ndarray:
    """A pose bank (frames, 14, 4, 4) float32 of one second of the walk in place."""
    from ae3d import crowd

    worlds = np.stack([pose(f / frames, swing=swing) for f in range(frames)])
    return crowd.skinning_bank(worlds, m.joint_bones, m.inverse_bind)
