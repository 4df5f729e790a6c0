"""The rig: a figure's bones (every node of its file), their local pose and world matrices.

A rig holds one bone per glTF node, parents before children (so forward kinematics is one pass).
Its local pose is three float64 arrays, the place an animation writes and the ragdoll reads:

- ``translation`` (n, 3) m, ``rotation`` (n, 4) quaternions (x, y, z, w), ``scale`` (n, 3);

and ``world`` (n, 4, 4) the bones' world matrices (column vectors, m), computed from the pose
and ``root`` (4, 4), the object's placement in the world, by ``update_world()``.
``rest_translation`` / ``rest_rotation`` / ``rest_scale`` are the nodes as the file has them
(the bind pose of the files ae3d makes). Nodes above the armature (a root turned -90° about x
and scaled 0.01, as many exports have) are bones like any other and so are honoured.
"""

from __future__ import annotations

from collections.abc import Sequence

import numpy as np

from ae3d._math import mat_quat, mat_to_quat, quat_to_mat

from . import _kernels


class RigTemplate:
    """The immutable part of a rig, shared by every figure of one file."""

    __slots__ = ("names", "parents", "index", "rest_translation", "rest_rotation", "rest_scale",
                 "node_to_bone", "children", "is_joint")

    def __init__(self, names: Sequence[str], parents: np.ndarray, rest_translation: np.ndarray,
                 rest_rotation: np.ndarray, rest_scale: np.ndarray,
                 node_to_bone: np.ndarray) -> None:
        self.names: tuple[str, ...] = tuple(names)
        self.parents = np.ascontiguousarray(parents, dtype=np.int32)
        self.rest_translation = np.ascontiguousarray(rest_translation, dtype=np.float64)
        self.rest_rotation = np.ascontiguousarray(rest_rotation, dtype=np.float64)
        self.rest_scale = np.ascontiguousarray(rest_scale, dtype=np.float64)
        self.node_to_bone = np.ascontiguousarray(node_to_bone, dtype=np.int32)
        index: dict[str, int] = {}
        for i, name in enumerate(self.names):
            index.setdefault(name, i)  # a duplicate name resolves to its first bone
        self.index = index
        children: list[list[int]] = [[] for _ in self.names]
        for i, p in enumerate(self.parents):
            if p >= 0:
                children[int(p)].append(i)
        self.children = tuple(tuple(c) for c in children)
        #: (n,) bool: the bone is a joint of some skin (the loader sets it)
        self.is_joint = np.zeros(len(self.names), dtype=bool)
        for a in (self.parents, self.rest_translation, self.rest_rotation, self.rest_scale,
                  self.node_to_bone):
            a.setflags(write=False)


class Rig:
    """One figure's bones and pose (see the module docstring for the arrays and their units).

    Bones are found by name (``rig.bone("Hips")``, ``rig.index``) or index; ``rig.parents[i]`` is
    the parent's index (-1 for a top node). The pose arrays are the figure's own and may be
    written in place; call ``update_world()`` to bring ``world`` up to date after writing.
    """

    def __init__(self, template: RigTemplate) -> None:
        self.template = template
        n = len(template.names)
        self.translation = template.rest_translation.copy()
        self.rotation = template.rest_rotation.copy()
        self.scale = template.rest_scale.copy()
        self.root = np.eye(4)
        self.world = np.zeros((n, 4, 4))
        self.update_world()

    # -- names -------------------------------------------------------------------------------
    @property
    def names(self) -> tuple[str, ...]:
        """Bone names, by index."""
        return self.template.names

    @property
    def parents(self) -> np.ndarray:
        """(n,) int32 parent indices, -1 for a top node; read-only."""
        return self.template.parents

    @property
    def index(self) -> dict[str, int]:
        """Bone name -> index."""
        return self.template.index

    @property
    def is_joint(self) -> np.ndarray:
        """(n,) bool: the bone is a joint of a skin (not a mesh's or an armature's node)."""
        return self.template.is_joint

    @property
    def count(self) -> int:
        return len(self.template.names)

    def __len__(self) -> int:
        return len(self.template.names)

    def bone(self, name: str) -> int:
        """The index of the bone named ``name``; KeyError naming it if there is none."""
        try:
            return self.template.index[name]
        except KeyError:
            raise KeyError(f"the rig has no bone named {name!r}") from None

    def find(self, name: str) -> int:
        """The index of the bone named ``name``, or -1."""
        return self.template.index.get(name, -1)

    # -- rest pose ---------------------------------------------------------------------------
    @property
    def rest_translation(self) -> np.ndarray:
        """(n, 3) m: the nodes' translations as the file has them (read-only)."""
        return self.template.rest_translation

    @property
    def rest_rotation(self) -> np.ndarray:
        """(n, 4) xyzw: the nodes' rotations as the file has them (read-only)."""
        return self.template.rest_rotation

    @property
    def rest_scale(self) -> np.ndarray:
        """(n, 3): the nodes' scales as the file has them (read-only)."""
        return self.template.rest_scale

    def reset(self) -> None:
        """Put every node back as the file has it (the rest pose) and update the world."""
        self.translation[:] = self.template.rest_translation
        self.rotation[:] = self.template.rest_rotation
        self.scale[:] = self.template.rest_scale
        self.update_world()

    # -- world ---------------------------------------------------------------------------------
    def set_root(self, matrix: np.ndarray) -> None:
        """Place the rig in the world: ``matrix`` (4, 4) is the parent of every top node."""
        m = np.asarray(matrix, dtype=np.float64)
        if m.shape != (4, 4) or not np.all(np.isfinite(m)):
            raise ValueError("root must be a finite (4, 4) matrix")
        self.root[:] = m

    def update_world(self) -> np.ndarray:
        """Recompute ``world`` (n, 4, 4) from the local pose and ``root`` (njit); returns it."""
        _kernels.forward_kinematics(self.template.parents, self.translation, self.rotation,
                                    self.scale, self.root, self.world)
        return self.world

    def world_of(self, translation: np.ndarray, rotation: np.ndarray, scale: np.ndarray,
                 root: np.ndarray | None = None) -> np.ndarray:
        """World matrices (n, 4, 4) of another local pose of this rig (``root`` defaults to the
        rig's own); the rig itself is not touched."""
        out = np.empty((self.count, 4, 4))
        r = self.root if root is None else np.asarray(root, dtype=np.float64)
        _kernels.forward_kinematics(self.template.parents,
                                    np.ascontiguousarray(translation, dtype=np.float64),
                                    np.ascontiguousarray(rotation, dtype=np.float64),
                                    np.ascontiguousarray(scale, dtype=np.float64), r, out)
        return out

    def _i(self, bone: int | str) -> int:
        i = self.bone(bone) if isinstance(bone, str) else int(bone)
        if not 0 <= i < self.count:
            raise IndexError(f"bone index {i} is out of range (the rig has {self.count})")
        return i

    def world_rotation(self, bone: int | str) -> np.ndarray:
        """The bone's world rotation (4,) xyzw from ``world`` as last updated (scale removed)."""
        m = self.world[self._i(bone), :3, :3]
        return mat_quat(m)

    def set_world_pose(self, bone: int | str, position: np.ndarray, rotation: np.ndarray) -> None:
        """Pose a bone by where it should be in the world: ``position`` (3,) m, ``rotation`` (4,)
        xyzw. Its local translation and rotation are solved against its parent's world matrix
        as it is now (uniform scales assumed; its own scale kept), and its own ``world`` row is
        updated. Set bones parents first; call ``update_world()`` after, for the bones below."""
        i = self._i(bone)
        p = self.template.parents[i]
        pw = self.root if p < 0 else self.world[p]
        pos = np.asarray(position, dtype=np.float64)
        q = np.asarray(rotation, dtype=np.float64)
        q = q / np.linalg.norm(q)
        inv = np.linalg.inv(pw)
        self.translation[i] = inv[:3, :3] @ pos + inv[:3, 3]
        pr = pw[:3, :3] / np.linalg.norm(pw[:3, :3], axis=0)
        local = pr.T @ quat_to_mat(q)
        self.rotation[i] = mat_to_quat(local)
        t, r, sc = self.translation[i], self.rotation[i], self.scale[i]
        local = np.empty((4, 4))
        _kernels.trs_matrix(t[0], t[1], t[2], r[0], r[1], r[2], r[3], sc[0], sc[1], sc[2], local)
        self.world[i] = pw @ local

    def world_position(self, bone: int | str) -> np.ndarray:
        """The bone's world position (3,) m from ``world`` as last updated."""
        return self.world[self._i(bone), :3, 3].copy()

    def __repr__(self) -> str:
        return f"Rig({self.count} bones)"

