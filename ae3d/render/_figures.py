"""The engine's glTF figures (ae3d.figure) as SkinnedMeshes: one per skin of a file's model,
its primitives merged with their base colours as vertex colours. Cached per model; dropped when
the figure package frees the model (its last figure gone)."""

from __future__ import annotations

from typing import Any

import numpy as np

from ._mesh import SkinnedMesh

_cache: dict[int, tuple[Any, list[SkinnedMesh]]] = {}
_listening = False


def _on_freed(model: Any) -> None:
    _cache.pop(id(model), None)


def model_meshes(model: Any) -> list[SkinnedMesh]:
    """SkinnedMeshes of a figure file's model, one per skin that has triangles."""
    global _listening
    hit = _cache.get(id(model))
    if hit is not None and hit[0] is model:
        return hit[1]
    if not _listening:
        try:
            from ae3d.figure import on_model_freed

            on_model_freed(_on_freed)
            _listening = True
        except ImportError:  # pragma: no cover
            pass
    out = []
    for k, sk in enumerate(model.skins):
        parts = [m for m in model.meshes if m.skin == k and len(m.indices)]
        if not parts:
            continue
        pos, nrm, jn, wt, col, idx = [], [], [], [], [], []
        base = 0
        for m in parts:
            pos.append(m.positions)
            nrm.append(m.normals)
            jn.append(m.joints)
            wt.append(m.weights)
            c = np.asarray(m.color, dtype=np.float32)[:3]
            col.append(np.tile(c, (len(m.positions), 1)))
            idx.append(np.asarray(m.indices, dtype=np.int64) + base)
            base += len(m.positions)
        out.append(SkinnedMesh(
            positions=np.concatenate(pos), normals=np.concatenate(nrm),
            joints=np.concatenate(jn), weights=np.concatenate(wt),
            indices=np.concatenate(idx), inverse_bind=sk.inverse_binds,
            joint_bones=sk.bones, colors=np.concatenate(col), source=(model, k)))
    _cache[id(model)] = (model, out)
    return out
