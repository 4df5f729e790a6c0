"""Reading a .glb / .gltf file (pygltflib) into a Model: rig template, skins, meshes, clips.

Every node of the file becomes a bone of the rig, parents before children. Skinned meshes
(a node with a mesh and a skin) keep their vertices in bind space; a mesh on a node without a
skin is carried rigidly by its node (a one-joint skin with an identity inverse bind). The mesh
node's own transform is ignored for skinned meshes, as glTF 2.0 says.
"""

from __future__ import annotations

import base64
import json
import os
import urllib.parse
from dataclasses import dataclass, field
from typing import Any

import numpy as np
import pygltflib

from ae3d import limits
from ae3d._math import mat_to_quat

from ._clips import Channel, Clip
from ._rig import RigTemplate

_COMPONENT: dict[int, np.dtype[Any]] = {
    5120: np.dtype("<i1"), 5121: np.dtype("<u1"), 5122: np.dtype("<i2"), 5123: np.dtype("<u2"),
    5125: np.dtype("<u4"), 5126: np.dtype("<f4")}
_NCOMP = {"SCALAR": 1, "VEC2": 2, "VEC3": 3, "VEC4": 4, "MAT2": 4, "MAT3": 9, "MAT4": 16}
_NORM = {5120: 127.0, 5121: 255.0, 5122: 32767.0, 5123: 65535.0}


class FigureFileError(ValueError):
    """A file that cannot be a figure: not glTF, no skin, a broken reference..."""


@dataclass(eq=False)
class Skin:
    """A skin: its joints as rig bone indices and their inverse bind matrices.

    bones (j,) int32: skin joint j is rig bone ``bones[j]``; inverse_binds (j, 4, 4): bind space
    to the joint's space. Skinning matrix j = ``rig.world[bones[j]] @ inverse_binds[j]``.
    """

    name: str
    bones: np.ndarray
    inverse_binds: np.ndarray


@dataclass(eq=False)
class Mesh:
    """One drawable primitive of a skinned mesh (read-only arrays, bind space, float64).

    positions (v, 3) m; normals (v, 3) unit; joints (v, 4) int32 indices into the skin's joints;
    weights (v, 4) summing to 1; indices (k,) uint32 triangle list; color (4,) linear RGBA base
    colour; skin: index into ``Model.skins``; node: the rig bone of the mesh's node.
    """

    name: str
    node: int
    skin: int
    positions: np.ndarray
    normals: np.ndarray
    joints: np.ndarray
    weights: np.ndarray
    indices: np.ndarray
    color: np.ndarray


@dataclass(eq=False)
class Model:
    """A parsed figure file, shared (read-only) by every figure made from it."""

    path: str
    rig: RigTemplate
    skins: list[Skin]
    meshes: list[Mesh]
    clips: dict[str, Clip]
    extras: dict[str, Any] = field(default_factory=dict)


# -- reading bytes ------------------------------------------------------------------------------
def _read_document(path: str) -> pygltflib.GLTF2:
    if not os.path.exists(path):
        raise FileNotFoundError(f"figure file not found: {path}")
    if os.path.isdir(path):
        raise FigureFileError(f"{path} is a directory, not a glTF file")
    with open(path, "rb") as fh:
        data = fh.read()
    if data[:4] == b"glTF":
        try:
            doc = pygltflib.GLTF2.load_from_bytes(data)
        except Exception as exc:  # noqa: BLE001 - any failure is a bad file
            raise FigureFileError(f"{path} is not a valid glTF binary (.glb): {exc}") from None
        if doc is None:
            raise FigureFileError(f"{path} is not a valid glTF binary (.glb): no JSON chunk")
        return doc
    try:
        text = data.decode("utf-8")
        obj = json.loads(text)
    except (UnicodeDecodeError, json.JSONDecodeError):
        raise FigureFileError(f"{path} is not a glTF file (neither .glb nor glTF JSON)") from None
    if not isinstance(obj, dict) or "asset" not in obj:
        raise FigureFileError(f"{path} is not a glTF file (JSON without an 'asset')")
    try:
        return pygltflib.GLTF2.from_json(text, infer_missing=True)
    except Exception as exc:  # noqa: BLE001
        raise FigureFileError(f"{path} is not a valid glTF file: {exc}") from None


def _buffers(doc: pygltflib.GLTF2, path: str) -> list[bytes]:
    out = []
    base = os.path.dirname(path)
    for i, buf in enumerate(doc.buffers or []):
        uri = buf.uri
        if uri is None:
            blob = doc.binary_blob()
            if blob is None:
                raise FigureFileError(f"{path}: buffer {i} has no data")
            out.append(bytes(blob))
        elif uri.startswith("data:"):
            try:
                out.append(base64.b64decode(uri.split(",", 1)[1]))
            except Exception:  # noqa: BLE001
                raise FigureFileError(f"{path}: buffer {i} has a bad data URI") from None
        else:
            p = os.path.join(base, urllib.parse.unquote(uri))
            if not os.path.exists(p):
                raise FigureFileError(f"{path}: buffer {i}'s file {p} not found")
            with open(p, "rb") as fh:
                out.append(fh.read())
    return out


class _Reader:
    def __init__(self, doc: pygltflib.GLTF2, path: str) -> None:
        self.doc = doc
        self.path = path
        self.buffers = _buffers(doc, path)

    def _view_array(self, view_index: int, offset: int, dtype: np.dtype, count: int,
                    ncomp: int, what: str) -> np.ndarray:
        views = self.doc.bufferViews or []
        if not 0 <= view_index < len(views):
            raise FigureFileError(f"{self.path}: {what} names bufferView {view_index}, "
                                  "which does not exist")
        view = views[view_index]
        data = self.buffers[view.buffer]
        elem = dtype.itemsize * ncomp
        stride = view.byteStride or elem
        start = (view.byteOffset or 0) + offset
        need = start + (count - 1) * stride + elem if count else start
        if need > len(data) or need > (view.byteOffset or 0) + view.byteLength:
            raise FigureFileError(f"{self.path}: {what} reads past the end of its buffer")
        arr = np.ndarray((count, ncomp), dtype=dtype, buffer=data, offset=start,
                         strides=(stride, dtype.itemsize))
        return np.array(arr)  # a copy in native order

    def accessor(self, index: int | None, what: str, normalize: bool = True) -> np.ndarray:
        """The accessor's elements as (count, ncomp) (normalised integers to float64 if the
        accessor says so, else in their own type)."""
        accs = self.doc.accessors or []
        if index is None or not 0 <= index < len(accs):
            raise FigureFileError(f"{self.path}: {what} names accessor {index}, "
                                  "which does not exist")
        acc = accs[index]
        if acc.componentType not in _COMPONENT or acc.type not in _NCOMP:
            raise FigureFileError(f"{self.path}: accessor {index} has an unknown type "
                                  f"({acc.componentType}, {acc.type})")
        dtype = _COMPONENT[acc.componentType]
        ncomp = _NCOMP[acc.type]
        count = int(acc.count)
        if acc.bufferView is None:
            arr = np.zeros((count, ncomp), dtype=dtype)
        else:
            arr = self._view_array(acc.bufferView, acc.byteOffset or 0, dtype, count, ncomp,
                                   f"accessor {index}")
        sp = acc.sparse
        if sp is not None and sp.count:
            idx_dtype = _COMPONENT[sp.indices.componentType]
            idx = self._view_array(sp.indices.bufferView, sp.indices.byteOffset or 0, idx_dtype,
                                   sp.count, 1, f"accessor {index}'s sparse indices")[:, 0]
            vals = self._view_array(sp.values.bufferView, sp.values.byteOffset or 0, dtype,
                                    sp.count, ncomp, f"accessor {index}'s sparse values")
            if idx.size and idx.max() >= count:
                raise FigureFileError(f"{self.path}: accessor {index}'s sparse index is past "
                                      "its count")
            arr[idx.astype(np.int64)] = vals
        if acc.componentType == 5126 and not np.all(np.isfinite(arr)):
            # NaN or infinity in a figure's numbers poisons whatever reads them (a ragdoll fitted
            # to NaN inverse binds put NaN bodies into the world): refused at load
            bad = int(np.argwhere(~np.isfinite(arr))[0][0])
            raise FigureFileError(f"{self.path}: accessor {index} ({what}) has non-finite "
                                  f"numbers (element {bad})")
        if normalize and acc.normalized and acc.componentType in _NORM:
            out = arr.astype(np.float64) / _NORM[acc.componentType]
            return np.maximum(out, -1.0)
        return arr


# -- nodes --------------------------------------------------------------------------------------
def _decompose(m: np.ndarray) -> tuple[np.ndarray, np.ndarray, np.ndarray]:
    """TRS of a column-major glTF matrix without shear: translation, xyzw rotation, scale."""
    t = m[:3, 3].copy()
    a = m[:3, :3].copy()
    s = np.linalg.norm(a, axis=0)
    if np.linalg.det(a) < 0.0:
        s[0] = -s[0]
    s[s == 0.0] = 1.0
    r = a / s
    return t, mat_to_quat(r), s


def _rig_template(doc: pygltflib.GLTF2, path: str) -> RigTemplate:
    nodes = doc.nodes or []
    n = len(nodes)
    parent = [-1] * n
    for i, node in enumerate(nodes):
        for c in node.children or []:
            if not 0 <= c < n:
                raise FigureFileError(f"{path}: node {i} names child {c}, which does not exist")
            if parent[c] != -1 or c == i:
                raise FigureFileError(f"{path}: node {c} has more than one parent")
            parent[c] = i
    # parents before children: the file's order when it already is, else depth first from the
    # top nodes in file order (children in their listed order)
    if all(parent[i] < i for i in range(n)):
        order = list(range(n))
    else:
        order = []
        stack = [i for i in reversed(range(n)) if parent[i] == -1]
        while stack:
            i = stack.pop()
            order.append(i)
            stack.extend(reversed(nodes[i].children or []))
        if len(order) != n:
            raise FigureFileError(f"{path}: the node hierarchy has a cycle")
    node_to_bone = np.empty(n, dtype=np.int32)
    for b, i in enumerate(order):
        node_to_bone[i] = b
    names = []
    parents = np.empty(n, dtype=np.int32)
    t = np.zeros((n, 3))
    r = np.zeros((n, 4))
    r[:, 3] = 1.0
    s = np.ones((n, 3))
    for b, i in enumerate(order):
        node = nodes[i]
        names.append(node.name if node.name is not None else f"node{i}")
        parents[b] = node_to_bone[parent[i]] if parent[i] >= 0 else -1
        what = f"{path}: node {i} ({names[-1]!r})"
        if node.matrix is not None:
            m = _node_numbers(node.matrix, 16, f"{what} matrix").reshape(4, 4).T  # column-major
            t[b], r[b], s[b] = _decompose(m)
        else:
            if node.translation is not None:
                t[b] = _node_numbers(node.translation, 3, f"{what} translation")
            if node.rotation is not None:
                q = _node_numbers(node.rotation, 4, f"{what} rotation")
                ln = np.linalg.norm(q)
                if not ln > 1e-6:
                    raise FigureFileError(f"{what} has a zero rotation quaternion {list(q)}")
                r[b] = q / ln
            if node.scale is not None:
                s[b] = _node_numbers(node.scale, 3, f"{what} scale")
        if np.max(np.abs(t[b])) > limits.WORLD_EXTENT:
            raise FigureFileError(f"{what} is placed {np.max(np.abs(t[b])):g} from its parent, "
                                  f"past ae3d.limits.WORLD_EXTENT ({limits.WORLD_EXTENT:g})")
    return RigTemplate(names, parents, t, r, s, node_to_bone)


def _node_numbers(x: Any, n: int, what: str) -> np.ndarray:
    """A node's ``n`` numbers as float64, or FigureFileError naming the node and the field."""
    try:
        a = np.array(x, dtype=np.float64).reshape(-1)
    except (TypeError, ValueError):
        raise FigureFileError(f"{what} is not {n} numbers") from None
    if a.shape != (n,):
        raise FigureFileError(f"{what} has {a.size} numbers, not {n}")
    if not np.all(np.isfinite(a)):
        raise FigureFileError(f"{what} has non-finite numbers")
    return a


# -- meshes -------------------------------------------------------------------------------------
def _smooth_normals(pos: np.ndarray, idx: np.ndarray) -> np.ndarray:
    nrm = np.zeros_like(pos)
    tri = idx.reshape(-1, 3)
    fn = np.cross(pos[tri[:, 1]] - pos[tri[:, 0]], pos[tri[:, 2]] - pos[tri[:, 0]])
    for k in range(3):
        np.add.at(nrm, tri[:, k], fn)
    ln = np.linalg.norm(nrm, axis=1, keepdims=True)
    ln[ln == 0.0] = 1.0
    return nrm / ln


def _meshes(doc: pygltflib.GLTF2, rd: _Reader, rig: RigTemplate, path: str
            ) -> tuple[list[Skin], list[Mesh]]:
    skins: list[Skin] = []
    nnodes = len(doc.nodes or [])
    for k, sk in enumerate(doc.skins or []):
        joints = list(sk.joints or [])
        if not joints:
            raise FigureFileError(f"{path}: skin {k} has no joints")
        for j in joints:
            if not 0 <= j < nnodes:
                raise FigureFileError(f"{path}: skin {k} names joint node {j}, "
                                      "which does not exist")
        bones = rig.node_to_bone[np.array(joints, dtype=np.int64)].astype(np.int32)
        if sk.inverseBindMatrices is None:
            ibm = np.tile(np.eye(4), (len(joints), 1, 1))
        else:
            raw = rd.accessor(sk.inverseBindMatrices, f"skin {k}'s inverse bind matrices")
            if raw.shape != (len(joints), 16):
                raise FigureFileError(f"{path}: skin {k} has {raw.shape[0]} inverse bind "
                                      f"matrices for {len(joints)} joints")
            ibm = raw.astype(np.float64).reshape(-1, 4, 4).transpose(0, 2, 1).copy()
        skins.append(Skin(sk.name or f"skin{k}", bones, ibm))
    meshes: list[Mesh] = []
    materials = doc.materials or []
    for i, node in enumerate(doc.nodes or []):
        if node.mesh is None:
            continue
        if not 0 <= node.mesh < len(doc.meshes or []):
            raise FigureFileError(f"{path}: node {i} names mesh {node.mesh}, which does not exist")
        bone = int(rig.node_to_bone[i])
        gm = doc.meshes[node.mesh]
        if node.skin is not None:
            if not 0 <= node.skin < len(skins):
                raise FigureFileError(f"{path}: node {i} names skin {node.skin}, "
                                      "which does not exist")
            skin_index = node.skin
        else:  # carried rigidly by its node: a one-joint skin
            skins.append(Skin(f"{rig.names[bone]}:rigid", np.array([bone], dtype=np.int32),
                              np.eye(4)[None].copy()))
            skin_index = len(skins) - 1
        njoints = skins[skin_index].bones.size
        for p, prim in enumerate(gm.primitives):
            what = f"mesh {node.mesh} primitive {p}"
            if prim.mode not in (None, 4):
                continue  # points and lines are not drawn as a figure's skin
            attrs = prim.attributes
            if attrs.POSITION is None:
                raise FigureFileError(f"{path}: {what} has no POSITION")
            pos = rd.accessor(attrs.POSITION, f"{what} POSITION").astype(np.float64)
            v = pos.shape[0]
            if prim.indices is not None:
                idx = rd.accessor(prim.indices, f"{what} indices")[:, 0].astype(np.uint32)
            else:
                idx = np.arange(v, dtype=np.uint32)
            if idx.size % 3 or (idx.size and int(idx.max()) >= v):
                raise FigureFileError(f"{path}: {what} has bad triangle indices")
            if attrs.NORMAL is not None:
                nrm = rd.accessor(attrs.NORMAL, f"{what} NORMAL").astype(np.float64)
            else:
                nrm = _smooth_normals(pos, idx)
            if node.skin is not None:
                if attrs.JOINTS_0 is None or attrs.WEIGHTS_0 is None:
                    raise FigureFileError(f"{path}: {what} is skinned but has no "
                                          "JOINTS_0/WEIGHTS_0")
                jn = rd.accessor(attrs.JOINTS_0, f"{what} JOINTS_0", normalize=False)
                if not np.issubdtype(jn.dtype, np.unsignedinteger):
                    raise FigureFileError(f"{path}: {what} JOINTS_0 must be unsigned byte or short")
                wt = rd.accessor(attrs.WEIGHTS_0, f"{what} WEIGHTS_0").astype(np.float64)
                if jn.shape != (v, 4) or wt.shape != (v, 4):
                    raise FigureFileError(f"{path}: {what} JOINTS_0/WEIGHTS_0 are not VEC4 "
                                          "per vertex")
                jn = jn.astype(np.int32)
                wt = np.where(wt > 0.0, wt, 0.0)
                past = (jn >= njoints) & (wt > 0.0)
                if np.any(past):
                    v0 = int(np.argwhere(past)[0][0])
                    raise FigureFileError(
                        f"{path}: {what} JOINTS_0 (accessor {attrs.JOINTS_0}) weights joint "
                        f"{int(jn[past].max())} (vertex {v0}), past its skin's {njoints} joints")
                # a joint past the skin with no weight moves nothing: as index 0
                jn[jn >= njoints] = 0
                total = wt.sum(axis=1, keepdims=True)
                bare = total[:, 0] == 0.0
                wt[bare] = (1.0, 0.0, 0.0, 0.0)
                total[bare] = 1.0
                wt = wt / total
            else:
                jn = np.zeros((v, 4), dtype=np.int32)
                wt = np.zeros((v, 4))
                wt[:, 0] = 1.0
            color = np.ones(4)
            if prim.material is not None and 0 <= prim.material < len(materials):
                pbr = materials[prim.material].pbrMetallicRoughness
                if pbr is not None and pbr.baseColorFactor is not None:
                    color = np.array(pbr.baseColorFactor, dtype=np.float64)
            arrays = (pos, nrm, jn, wt, idx, color)
            for a in arrays:
                a.setflags(write=False)
            name = gm.name or f"mesh{node.mesh}"
            meshes.append(Mesh(name if len(gm.primitives) == 1 else f"{name}.{p}", bone,
                               skin_index, np.ascontiguousarray(pos), np.ascontiguousarray(nrm),
                               np.ascontiguousarray(jn), np.ascontiguousarray(wt),
                               np.ascontiguousarray(idx), color))
    for sk in skins:
        rig.is_joint[sk.bones] = True
        sk.bones.setflags(write=False)
        sk.inverse_binds.setflags(write=False)
    rig.is_joint.setflags(write=False)
    return skins, meshes


# -- animations ---------------------------------------------------------------------------------
def _clips(doc: pygltflib.GLTF2, rd: _Reader, rig: RigTemplate, path: str) -> dict[str, Clip]:
    clips: dict[str, Clip] = {}
    nnodes = len(doc.nodes or [])
    for a, anim in enumerate(doc.animations or []):
        name = anim.name or f"animation{a}"
        channels: list[Channel] = []
        for c, ch in enumerate(anim.channels or []):
            tgt = ch.target
            if tgt is None or tgt.path not in ("translation", "rotation", "scale"):
                continue  # morph weights and extension targets are not a rig's
            if tgt.node is None:
                continue
            if not 0 <= tgt.node < nnodes:
                raise FigureFileError(
                    f"{path}: animation {name!r} channel {c} targets node {tgt.node}, which "
                    f"does not exist (the file has {nnodes} nodes)")
            if not 0 <= ch.sampler < len(anim.samplers or []):
                raise FigureFileError(f"{path}: animation {name!r} channel {c} names sampler "
                                      f"{ch.sampler}, which does not exist")
            smp = anim.samplers[ch.sampler]
            interp = smp.interpolation or "LINEAR"
            if interp not in ("LINEAR", "STEP", "CUBICSPLINE"):
                raise FigureFileError(f"{path}: animation {name!r} sampler {ch.sampler} has "
                                      f"unknown interpolation {interp!r}")
            what = f"animation {name!r} sampler {ch.sampler}"
            times = rd.accessor(smp.input, f"{what} input")[:, 0].astype(np.float64)
            vals = rd.accessor(smp.output, f"{what} output").astype(np.float64)
            nc = 4 if tgt.path == "rotation" else 3
            if vals.shape[1] != nc:
                raise FigureFileError(f"{path}: {what} output has {vals.shape[1]} components "
                                      f"for {tgt.path}")
            per = 3 if interp == "CUBICSPLINE" else 1
            if vals.shape[0] != per * times.size:
                raise FigureFileError(f"{path}: {what} has {times.size} keys and "
                                      f"{vals.shape[0]} outputs")
            if not (np.all(np.isfinite(times)) and np.all(np.isfinite(vals))):
                raise FigureFileError(f"{path}: {what} has non-finite keys")
            keyed = vals if per == 1 else vals.reshape(times.size, 3, nc)[:, 1]
            if tgt.path == "rotation" and np.any(np.linalg.norm(keyed, axis=1) < 1e-6):
                raise FigureFileError(f"{path}: {what} output (accessor {smp.output}) has a "
                                      "zero rotation quaternion")
            if tgt.path == "translation" and np.any(np.abs(keyed) > limits.WORLD_EXTENT):
                raise FigureFileError(f"{path}: {what} output (accessor {smp.output}) moves a "
                                      f"node past ae3d.limits.WORLD_EXTENT "
                                      f"({limits.WORLD_EXTENT:g})")
            if times.size > 1 and np.any(np.diff(times) <= 0.0):
                raise FigureFileError(f"{path}: {what}'s key times do not increase")
            if per == 3:
                vals = vals.reshape(times.size, 3, nc)
            channels.append(Channel(int(rig.node_to_bone[tgt.node]), tgt.path, interp,
                                    times, vals))
        if name in clips:
            raise FigureFileError(f"{path}: two animations are named {name!r}")
        clips[name] = Clip(name, channels)
    return clips


def load_model(path: str) -> Model:
    """Parse a figure file. Raises FileNotFoundError for a missing file and FigureFileError
    (a ValueError) naming the file and the fault for anything else."""
    doc = _read_document(path)
    rd = _Reader(doc, path)
    rig = _rig_template(doc, path)
    skins, meshes = _meshes(doc, rd, rig, path)
    if not any(m.skin < len(doc.skins or []) for m in meshes):
        raise FigureFileError(f"{path} has no skin: a figure needs a mesh skinned to its bones")
    clips = _clips(doc, rd, rig, path)
    return Model(path, rig, skins, meshes, clips)
