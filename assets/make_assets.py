"""Make every .glb of assets/ (deterministically: same script, same bytes).

    python assets/make_assets.py            # writes assets/*.glb

- boxman.glb: the box man, the fixture of nearly every spec test. The pipeline's bone names
  (Hips, Spine, Chest, Neck, Head, ShoulderL, UpperArmL, LowerArmL, HandL, ThighL, ShinL, FootL,
  ToesL and R), 1.80 m, boxes skinned rigidly to bones, facing +z (its left is +x), clips Idle,
  Walk (the hips travelling over the ground), Run and Bow (the chest bowing 15° forward and back
  up again). Its joints are those of ae3d.human's reference ragdoll: hips 0.93 m (x ±0.09),
  knees 0.51, ankles 0.08, pelvis bone 0.98, shoulders 1.44 (x ±0.22), elbows 1.13, head top
  1.80.
- mixamo_man.glb: Mixamo-named (mixamorig: prefix), 1.95 m with longer arms, the same clips; its
  bones hang under an "Armature" node turned -90° about x and scaled 0.01 (bones in cm, z up),
  with Mixamo's bone frames (each bone's +y along it).
- zombie.glb: the horde's figure, Mixamo names without the prefix, 1.72 m, broad and hunched,
  its own colours, clips Idle and a shambling Walk.
- two_bone.glb: a bar of two bones (Base, Tip) that is no humanoid; clips Bend (rotation,
  LINEAR), Pulse (scale, STEP) and Slide (translation, CUBICSPLINE), blended byte weights.

Clips are keyed evenly (Idle in CUBICSPLINE with its tangents, the rest LINEAR); each key's
hips height sets the figure's lowest point on the ground (y = 0), so the feet neither sink nor
float at the keys (within about 2 cm between a Run's keys). Walk is 1.3 m/s for the box man
(one stride pair a second), Run 3.5 m/s, both scaled by height; the zombie shambles at 0.6 m/s
with its arms out and its right leg dragging. Rotations are keyed as turns in the figure's
own axes and turned into each rig's bone frames, so the same clip fits every naming.

Every clip asks only for poses the ragdoll fitted to its figure can take (ae3d.human's joint
ranges; tests/figure/test_clip_ranges.py samples every 1/60 s): a hip extends 20°, so the
thighs swing from 28° forward to 17° back walking and from 52° to 17° running (they once swung
25° and 45° each way, 5.2° and 23.8° past the hips' cones), the zombie's left from 20° to 14°.
The knees bend most just after the swinging leg passes under the body (55° walking, 75°
running, above the 5° they keep), which keeps the swinging foot clear of the ground.

``GltfBuilder`` is also what tests use to write small files of their own.
"""

from __future__ import annotations

import math
import os
from collections.abc import Callable, Sequence

import numpy as np
import pygltflib as G

HERE = os.path.dirname(os.path.abspath(__file__))

FLOAT, UBYTE, USHORT, UINT = 5126, 5121, 5123, 5125
_NP = {FLOAT: "<f4", UBYTE: "<u1", USHORT: "<u2", UINT: "<u4"}


# -- quaternions (x, y, z, w) ----------------------------------------------------------------------
# The arithmetic here is plain Python and numpy's element-wise operations, never BLAS or LAPACK
# (np.linalg.norm, np.linalg.inv, @): those pick kernels by the CPU (FMA, summation order), and an
# inverse bind matrix made on an AMD EPYC differed from an Intel's in the last bit of a float32,
# so the committed assets would not be "current" on every machine (tests/figure/test_assets.py).
def _dot(a: Sequence[float], b: Sequence[float]) -> float:
    return float(sum(float(x) * float(y) for x, y in zip(a, b, strict=True)))


def _unit(v: Sequence[float]) -> np.ndarray:
    a = np.asarray(v, dtype=np.float64)
    return a / math.sqrt(_dot(a, a))


def q_axis(axis: Sequence[float], angle: float) -> np.ndarray:
    a = _unit(axis)
    s = math.sin(0.5 * angle)
    return np.array([a[0] * s, a[1] * s, a[2] * s, math.cos(0.5 * angle)])


def q_mul(a: np.ndarray, b: np.ndarray) -> np.ndarray:
    ax, ay, az, aw = a
    bx, by, bz, bw = b
    return np.array([aw * bx + ax * bw + ay * bz - az * by,
                     aw * by - ax * bz + ay * bw + az * bx,
                     aw * bz + ax * by - ay * bx + az * bw,
                     aw * bw - ax * bx - ay * by - az * bz])


def q_conj(a: np.ndarray) -> np.ndarray:
    return np.array([-a[0], -a[1], -a[2], a[3]])


def q_rotate(q: np.ndarray, v: Sequence[float]) -> np.ndarray:
    p = np.array([v[0], v[1], v[2], 0.0])
    return q_mul(q_mul(q, p), q_conj(q))[:3]


def q_matrix(q: np.ndarray) -> np.ndarray:
    x, y, z, w = q
    return np.array([[1 - 2 * (y * y + z * z), 2 * (x * y - w * z), 2 * (x * z + w * y)],
                     [2 * (x * y + w * z), 1 - 2 * (x * x + z * z), 2 * (y * z - w * x)],
                     [2 * (x * z - w * y), 2 * (y * z + w * x), 1 - 2 * (x * x + y * y)]])


def q_between(u: Sequence[float], v: Sequence[float]) -> np.ndarray:
    """The shortest rotation taking direction u to v (a half turn about z when opposite)."""
    a = _unit(u)
    b = _unit(v)
    d = _dot(a, b)
    if d < -1.0 + 1e-12:
        return q_axis((0.0, 0.0, 1.0), math.pi)
    c = np.cross(a, b)
    return _unit((c[0], c[1], c[2], 1.0 + d))


def trs(t: Sequence[float], q: np.ndarray, s: float = 1.0) -> np.ndarray:
    m = np.eye(4)
    m[:3, :3] = q_matrix(q) * s
    m[:3, 3] = t
    return m


def trs_inverse(t: Sequence[float], q: np.ndarray) -> np.ndarray:
    """The inverse of trs(t, q) (a rotation and a move): the rotation's transpose, and the move
    turned back by it and negated."""
    r = q_matrix(q)
    m = np.eye(4)
    m[:3, :3] = r.T
    m[:3, 3] = [-_dot(r[:, k], t) for k in range(3)]
    return m


# -- writing glTF -------------------------------------------------------------------------------
class GltfBuilder:
    """A small glTF 2.0 writer: one buffer, accessors from numpy arrays, nodes, skins, clips."""

    def __init__(self) -> None:
        self.doc = G.GLTF2(asset=G.Asset(version="2.0", generator="ae3d make_assets.py"),
                           scene=0, scenes=[G.Scene(nodes=[])])
        self.blob = bytearray()

    def accessor(self, array: np.ndarray, ctype: int = FLOAT, normalized: bool = False,
                 target: int | None = None, minmax: bool = False) -> int:
        a = np.asarray(array)
        if a.ndim == 1:
            a = a[:, None]
        a = a.reshape(a.shape[0], -1)
        ncomp = a.shape[1]
        kind = {1: "SCALAR", 2: "VEC2", 3: "VEC3", 4: "VEC4", 16: "MAT4"}[ncomp]
        data = np.ascontiguousarray(a.astype(_NP[ctype])).tobytes()
        while len(self.blob) % 4:
            self.blob.append(0)
        offset = len(self.blob)
        self.blob += data
        self.doc.bufferViews.append(G.BufferView(buffer=0, byteOffset=offset,
                                                 byteLength=len(data), target=target))
        acc = G.Accessor(bufferView=len(self.doc.bufferViews) - 1, componentType=ctype,
                         count=a.shape[0], type=kind, normalized=normalized or None)
        if minmax:
            acc.min = [float(x) for x in a.min(axis=0)]
            acc.max = [float(x) for x in a.max(axis=0)]
        self.doc.accessors.append(acc)
        return len(self.doc.accessors) - 1

    def node(self, name: str, translation=None, rotation=None, scale=None, parent=None,
             mesh=None, skin=None) -> int:  # type: ignore[no-untyped-def]
        def lst(x):  # type: ignore[no-untyped-def]
            return None if x is None else [float(v) for v in x]

        self.doc.nodes.append(G.Node(name=name, translation=lst(translation),
                                     rotation=lst(rotation), scale=lst(scale), mesh=mesh,
                                     skin=skin))
        i = len(self.doc.nodes) - 1
        if parent is None:
            self.doc.scenes[0].nodes.append(i)
        else:
            self.doc.nodes[parent].children.append(i)
        return i

    def material(self, name: str, color: Sequence[float]) -> int:
        self.doc.materials.append(G.Material(
            name=name, pbrMetallicRoughness=G.PbrMetallicRoughness(
                baseColorFactor=[float(c) for c in color], metallicFactor=0.0,
                roughnessFactor=0.8)))
        return len(self.doc.materials) - 1

    def mesh(self, name: str, primitives: list[dict]) -> int:
        """primitives: dicts of positions, normals, indices, material and optionally joints,
        weights, joints_type (UBYTE/USHORT), weights_type (FLOAT or normalised UBYTE/USHORT)."""
        prims = []
        for p in primitives:
            attrs = G.Attributes(
                POSITION=self.accessor(p["positions"], FLOAT, target=34962, minmax=True),
                NORMAL=self.accessor(p["normals"], FLOAT, target=34962))
            if "joints" in p:
                attrs.JOINTS_0 = self.accessor(p["joints"], p.get("joints_type", UBYTE),
                                               target=34962)
                wt = p.get("weights_type", FLOAT)
                w = np.asarray(p["weights"], dtype=np.float64)
                if wt != FLOAT:
                    w = _quantize_weights(w, 255 if wt == UBYTE else 65535)
                attrs.WEIGHTS_0 = self.accessor(w, wt, normalized=wt != FLOAT, target=34962)
            idx = np.asarray(p["indices"])
            itype = p.get("indices_type", USHORT if idx.max() < 65535 else UINT)
            prims.append(G.Primitive(attributes=attrs, material=p.get("material"),
                                     indices=self.accessor(idx, itype, target=34963)))
        self.doc.meshes.append(G.Mesh(name=name, primitives=prims))
        return len(self.doc.meshes) - 1

    def skin(self, name: str, joints: Sequence[int], inverse_binds: np.ndarray,
             skeleton: int | None = None) -> int:
        ibm = np.asarray(inverse_binds, dtype=np.float64).transpose(0, 2, 1).reshape(-1, 16)
        self.doc.skins.append(G.Skin(name=name, joints=list(joints), skeleton=skeleton,
                                     inverseBindMatrices=self.accessor(ibm, FLOAT)))
        return len(self.doc.skins) - 1

    def animation(self, name: str, channels: list[tuple[int, str, np.ndarray, np.ndarray, str]]
                  ) -> int:
        """channels: (node, path, times (k,), values (k, c) or (k, 3, c), interpolation)."""
        samplers = []
        chans = []
        for node, path, times, values, interp in channels:
            inp = self.accessor(np.asarray(times, dtype=np.float64), FLOAT, minmax=True)
            v = np.asarray(values, dtype=np.float64)
            out = self.accessor(v.reshape(-1, v.shape[-1]), FLOAT)
            samplers.append(G.AnimationSampler(input=inp, output=out, interpolation=interp))
            chans.append(G.AnimationChannel(sampler=len(samplers) - 1,
                                            target=G.AnimationChannelTarget(node=node,
                                                                            path=path)))
        self.doc.animations.append(G.Animation(name=name, samplers=samplers, channels=chans))
        return len(self.doc.animations) - 1

    def to_bytes(self) -> bytes:
        while len(self.blob) % 4:
            self.blob.append(0)
        self.doc.buffers = [G.Buffer(byteLength=len(self.blob))]
        self.doc.set_binary_blob(bytes(self.blob))
        return b"".join(self.doc.save_to_bytes())

    def save(self, path: str) -> None:
        data = self.to_bytes()
        with open(path, "wb") as fh:
            fh.write(data)


def _quantize_weights(w: np.ndarray, top: int) -> np.ndarray:
    """Weights to integers summing to exactly ``top`` per vertex (the largest takes the rest)."""
    q = np.floor(w * top + 0.5).astype(np.int64)
    big = np.argmax(w, axis=1)
    rows = np.arange(w.shape[0])
    q[rows, big] += top - q.sum(axis=1)
    return q


# -- boxes --------------------------------------------------------------------------------------
_FACES = [  # normal, two in-face axes (u, v) with u x v = normal
    ((1, 0, 0), (0, 1, 0), (0, 0, 1)), ((-1, 0, 0), (0, 0, 1), (0, 1, 0)),
    ((0, 1, 0), (0, 0, 1), (1, 0, 0)), ((0, -1, 0), (1, 0, 0), (0, 0, 1)),
    ((0, 0, 1), (1, 0, 0), (0, 1, 0)), ((0, 0, -1), (0, 1, 0), (1, 0, 0)),
]


def box(lo: Sequence[float], hi: Sequence[float]) -> tuple[np.ndarray, np.ndarray, np.ndarray]:
    """An axis-aligned box: 24 vertices (flat faces), normals and 36 counter-clockwise indices."""
    lo_a = np.asarray(lo, dtype=np.float64)
    hi_a = np.asarray(hi, dtype=np.float64)
    c = 0.5 * (lo_a + hi_a)
    h = 0.5 * (hi_a - lo_a)
    pos, nrm, idx = [], [], []
    for n, u, v in _FACES:
        n_a, u_a, v_a = (np.array(x, dtype=np.float64) for x in (n, u, v))
        base = len(pos)
        for su, sv in ((-1, -1), (1, -1), (1, 1), (-1, 1)):
            pos.append(c + h * (n_a + su * u_a + sv * v_a))
            nrm.append(n_a)
        idx += [base, base + 1, base + 2, base, base + 2, base + 3]
    return np.array(pos), np.array(nrm), np.array(idx, dtype=np.int64)


# -- humanoids ----------------------------------------------------------------------------------
# Roles are the pipeline's names. Each: parent role, joint position (m, the 1.80 m box man),
# box (lo, hi) (m), and material key.
_SIDE_BONES = [
    # role, parent, joint, box lo, box hi, material (the left side; the right mirrors it)
    ("Shoulder", "Chest", (0.03, 1.44, 0.0), (0.06, 1.39, -0.07), (0.18, 1.49, 0.07), "shirt"),
    ("UpperArm", "Shoulder", (0.22, 1.44, 0.0), (0.175, 1.13, -0.05), (0.265, 1.49, 0.05),
     "shirt"),
    ("LowerArm", "UpperArm", (0.22, 1.13, 0.0), (0.18, 0.89, -0.045), (0.26, 1.13, 0.045),
     "skin"),
    ("Hand", "LowerArm", (0.22, 0.89, 0.0), (0.195, 0.70, -0.03), (0.245, 0.89, 0.05), "skin"),
    ("Thigh", "Hips", (0.09, 0.93, 0.0), (0.025, 0.51, -0.075), (0.155, 0.95, 0.075), "trousers"),
    ("Shin", "Thigh", (0.09, 0.51, 0.0), (0.035, 0.08, -0.06), (0.145, 0.51, 0.06), "trousers"),
    ("Foot", "Shin", (0.09, 0.08, 0.0), (0.04, 0.0, -0.06), (0.14, 0.10, 0.14), "shoes"),
    ("Toes", "Foot", (0.09, 0.03, 0.14), (0.04, 0.0, 0.14), (0.14, 0.045, 0.21), "shoes"),
]
# joints as ae3d.human's reference ragdoll: hips 0.93 (x +-0.09), knees 0.51, ankles 0.08,
# lumbar 1.06, chest 1.25, neck 1.50, shoulders 1.44 (x +-0.22), elbows 1.13, fingertips 0.70
_TRUNK = [
    ("Hips", None, (0.0, 0.98, 0.0), (-0.16, 0.88, -0.10), (0.16, 1.06, 0.10), "trousers"),
    ("Spine", "Hips", (0.0, 1.06, 0.0), (-0.145, 1.06, -0.095), (0.145, 1.25, 0.095), "shirt"),
    ("Chest", "Spine", (0.0, 1.25, 0.0), (-0.18, 1.25, -0.11), (0.18, 1.50, 0.11), "shirt"),
    ("Neck", "Chest", (0.0, 1.50, 0.0), (-0.05, 1.50, -0.05), (0.05, 1.59, 0.05), "skin"),
    ("Head", "Neck", (0.0, 1.59, 0.0), (-0.09, 1.57, -0.10), (0.09, 1.80, 0.11), "skin"),
]


def humanoid_layout(height: float = 1.80, arm: float = 1.0, width: float = 1.0
                    ) -> list[tuple[str, str | None, np.ndarray, np.ndarray, np.ndarray, str]]:
    """Bones of a box humanoid in the pipeline's roles, parents first: (role, parent, joint,
    box lo, box hi, material), m, in figure space (y up, facing +z, left +x, feet at y = 0).

    ``height`` scales the whole figure; ``arm`` stretches the arms' lengths below the shoulder;
    ``width`` widens it across (x)."""
    k = height / 1.80
    out = []

    def sc(p: Sequence[float]) -> np.ndarray:
        return np.array([p[0] * k * width, p[1] * k, p[2] * k])

    for role, parent, joint, lo, hi, mat in _TRUNK:
        out.append((role, parent, sc(joint), sc(lo), sc(hi), mat))
    shoulder_y = 1.44 * k
    for side, sx in (("L", 1.0), ("R", -1.0)):
        for role, parent, joint, lo, hi, mat in _SIDE_BONES:
            j, a, b = sc(joint), sc(lo), sc(hi)
            if role in ("UpperArm", "LowerArm", "Hand"):  # stretch below the shoulder
                j[1], a[1], b[1] = (shoulder_y - (shoulder_y - y) * arm for y in (j[1], a[1], b[1]))
            if sx < 0:
                j[0], a[0], b[0] = -j[0], -b[0], -a[0]
            out.append((role + side, None if parent is None else
                        (parent if parent in ("Hips", "Chest") else parent + side),
                        j, a, b, mat))
    return out


def _pipeline_names(role: str) -> str:
    return role


_MIXAMO = {"Hips": "Hips", "Spine": "Spine", "Chest": "Spine2", "Neck": "Neck", "Head": "Head"}
for _s, _side in (("L", "Left"), ("R", "Right")):
    for _b, _m in {"Shoulder": "Shoulder", "UpperArm": "Arm", "LowerArm": "ForeArm",
                   "Hand": "Hand", "Thigh": "UpLeg", "Shin": "Leg", "Foot": "Foot",
                   "Toes": "ToeBase"}.items():
        _MIXAMO[_b + _s] = _side + _m


# A clip: duration (s), key times, and a function of time giving per-role rotations
# (quaternions in figure-space axes, relative to the parent as posed) and the hips' offset (m).
PoseFn = Callable[[float], tuple[dict[str, np.ndarray], np.ndarray]]


def _deg(x: float) -> float:
    return math.radians(x)


def _rx(d: float) -> np.ndarray:
    return q_axis((1, 0, 0), _deg(d))


def _ry(d: float) -> np.ndarray:
    return q_axis((0, 1, 0), _deg(d))


def _rz(d: float) -> np.ndarray:
    return q_axis((0, 0, 1), _deg(d))


def _gait(period: float, speed: float, flex: float, extend: float, knee: float, arm: float,
          elbow: float, lean: float, twist: float, knee_lead: float = 0.0,
          ankle: float = 0.3) -> PoseFn:
    """A gait: each thigh swings from ``flex``° forward to ``extend``° back (a hip extends 20°,
    ae3d.human's range: the extension stays a few degrees inside it); each knee bends ``knee``°
    more than its 5° as its leg swings under the body, most ``-knee_lead``° of the cycle after
    the thigh passes straight down; the ankles turn ``ankle`` of the thighs' swing against them;
    the arms swing ``arm``° against the legs, elbows bent ``elbow``°; the spine leans ``lean``°
    and the hips turn ``twist``° each way (s, m/s, degrees)."""
    mid, amp = 0.5 * (flex - extend), 0.5 * (flex + extend)

    def pose(t: float) -> tuple[dict[str, np.ndarray], np.ndarray]:
        ph = 2.0 * math.pi * t / period
        s = math.sin(ph)
        kc = math.cos(ph + _deg(knee_lead))
        r = {
            "ThighL": _rx(-mid - amp * s), "ThighR": _rx(-mid + amp * s),
            # the swinging leg's knee bends most as it passes under the body
            "ShinL": _rx(5.0 + 0.5 * knee * (1.0 + kc)),
            "ShinR": _rx(5.0 + 0.5 * knee * (1.0 - kc)),
            "FootL": _rx(-ankle * amp * s), "FootR": _rx(ankle * amp * s),
            "UpperArmL": q_mul(_rz(4.0), _rx(arm * s)),
            "UpperArmR": q_mul(_rz(-4.0), _rx(-arm * s)),
            "LowerArmL": _rx(-elbow), "LowerArmR": _rx(-elbow),
            "Hips": _ry(twist * s), "Spine": _rx(lean), "Chest": _ry(-1.5 * twist * s),
        }
        return r, np.array([0.0, 0.0, speed * t])  # the height: set down on the ground

    return pose


def _idle(period: float) -> PoseFn:
    def pose(t: float) -> tuple[dict[str, np.ndarray], np.ndarray]:
        ph = 2.0 * math.pi * t / period
        s = math.sin(ph)
        r = {"Chest": _rx(1.5 * s), "Head": _rx(2.0 * math.sin(ph + 0.5)),
             "UpperArmL": _rz(4.0 + 1.0 * s), "UpperArmR": _rz(-4.0 - 1.0 * s),
             "LowerArmL": _rx(-5.0), "LowerArmR": _rx(-5.0)}
        return r, np.zeros(3)

    return pose


def _bow(period: float) -> PoseFn:
    def pose(t: float) -> tuple[dict[str, np.ndarray], np.ndarray]:
        # the chest bows 15° forward (toward +z) and comes back up, smoothly
        return {"Chest": _rx(7.5 * (1.0 - math.cos(2.0 * math.pi * t / period)))}, np.zeros(3)

    return pose


def _shamble(period: float, speed: float) -> PoseFn:
    def pose(t: float) -> tuple[dict[str, np.ndarray], np.ndarray]:
        ph = 2.0 * math.pi * t / period
        s, c = math.sin(ph), math.cos(ph)
        r = {
            # the left hip swings 20° forward and 14° back (it extends 20); the right leg drags
            "ThighL": _rx(-3.0 - 17.0 * s), "ThighR": _rx(8.0 * s),
            "ShinL": _rx(8.0 + 15.0 * (1.0 + c)), "ShinR": _rx(4.0),
            "FootR": _rx(10.0),
            "UpperArmL": q_mul(_rx(-70.0 + 6.0 * s), _rz(8.0)),
            "UpperArmR": q_mul(_rx(-62.0 - 6.0 * s), _rz(-12.0)),
            "LowerArmL": _rx(-15.0), "LowerArmR": _rx(-25.0),
            "Hips": q_mul(_rz(4.0 * s), _ry(6.0 * s)), "Spine": _rx(10.0),
            "Chest": _rx(6.0), "Neck": _rx(10.0), "Head": _rz(12.0 + 3.0 * c),
        }
        return r, np.array([0.03 * s, 0.0, speed * t])

    return pose


def _sway(period: float) -> PoseFn:
    def pose(t: float) -> tuple[dict[str, np.ndarray], np.ndarray]:
        s = math.sin(2.0 * math.pi * t / period)
        r = {"Hips": _rz(3.0 * s), "Spine": _rx(10.0), "Chest": _rx(6.0), "Head": _rz(12.0 + 4 * s),
             "UpperArmL": _rz(6.0 + 2.0 * s), "UpperArmR": _rz(-6.0 + 2.0 * s)}
        return r, np.zeros(3)

    return pose


# A clip: name, duration (s), keys, interpolation, pose function
ClipSpec = tuple[str, float, int, str, PoseFn]


# -- the get-up clips (issue 13, the clip way: motion.set_get_up_clips) --------------------------
# Keys as leans (degrees, about the figure's x: + brings a bone's top forward, toward +z) of each
# role in the world from standing, as motion/_get_up.py's keyed ways are (a role not given leans
# with its parent). Every limb within the reference ragdoll's ranges (ae3d.human): the hips flex
# at most 115 of their 120, the knees 120 of 130, an ankle 20 up (dorsiflexion) and 45 down.
_GU_STAND = {"Hips": 0.0}
_GU_LIE_UP = {"Hips": -90.0, "FootL": -70.0, "FootR": -70.0}   # on its back, head toward -z
_GU_LIE_DOWN = {"Hips": 90.0, "FootL": 135.0, "FootR": 135.0}  # on its front, head toward +z
_GU_SIT = {  # sitting, knees drawn in, hands on the ground behind the hips
    "Hips": -40.0, "Spine": -35.0, "Chest": -30.0, "Neck": -10.0,
    "UpperArmL": 25.0, "LowerArmL": 10.0, "UpperArmR": 25.0, "LowerArmR": 10.0,
    "ThighL": -125.0, "ShinL": -5.0, "ThighR": -125.0, "ShinR": -5.0,
    "FootL": 0.0, "FootR": 0.0,
}
_GU_HANDS_KNEES = {  # on hands and knees, arms straight under the shoulders, toes tucked back
    "Hips": 60.0, "Spine": 60.0, "Chest": 60.0, "Neck": 45.0,
    "UpperArmL": 0.0, "LowerArmL": 0.0, "UpperArmR": 0.0, "LowerArmR": 0.0,
    "ThighL": -5.0, "ShinL": 90.0, "ThighR": -5.0, "ShinR": 90.0,
    "FootL": 135.0, "FootR": 135.0,
}
_GU_CROUCH = {  # crouched over the feet, heels up, the trunk bowed over the knees, arms ahead
    "Hips": 35.0, "Spine": 40.0, "Chest": 40.0, "Neck": 20.0,
    "UpperArmL": -40.0, "LowerArmL": -60.0, "UpperArmR": -40.0, "LowerArmR": -60.0,
    "ThighL": -80.0, "ShinL": 35.0, "ThighR": -80.0, "ShinR": 35.0,
    "FootL": 15.0, "FootR": 15.0,
}
_GU_PARENT = {"Spine": "Hips", "Chest": "Spine", "Neck": "Chest", "Head": "Neck",
              "ShoulderL": "Chest", "ShoulderR": "Chest"}
for _s in "LR":
    _GU_PARENT.update({"UpperArm" + _s: "Shoulder" + _s, "LowerArm" + _s: "UpperArm" + _s,
                       "Hand" + _s: "LowerArm" + _s, "Thigh" + _s: "Hips",
                       "Shin" + _s: "Thigh" + _s, "Foot" + _s: "Shin" + _s,
                       "Toes" + _s: "Foot" + _s})
_GU_ROLES = ["Hips"] + list(_GU_PARENT)   # parents first
GET_UP_STAGE = 0.7   # s: each stage, eased in and out (the spec's keyed ways')


def _gu_leans(key: dict[str, float]) -> dict[str, float]:
    out: dict[str, float] = {}
    for role in _GU_ROLES:
        out[role] = key.get(role, out[_GU_PARENT[role]] if role != "Hips" else 0.0)
    return out


def _gu_leg(leans: dict[str, float], k: float) -> tuple[float, float]:
    """(z of the knee, z of the ankle) (m) from the hips' joint, the left leg in ``leans``."""
    def z_of(lean: float, down: float) -> float:  # a bone hanging ``down`` m turned ``lean``
        return -down * math.sin(math.radians(lean))
    hip = z_of(leans["Hips"], 0.05 * k)
    knee = hip + z_of(leans["ThighL"], 0.42 * k)
    return knee, knee + z_of(leans["ShinL"], 0.43 * k)


def _get_up(face_up: bool, height: float) -> PoseFn:
    """A way up, three stages of 0.7 s eased in and out: lying (face up: on its back, head
    toward -z; face down: on its front, head toward +z), sitting with its knees drawn in and its
    hands behind it (face down: on hands and knees), a crouch over its feet, standing facing +z
    (where its feet, face up, or its head, face down, lay). The hips travel so nothing planted
    slides: face up the pelvis stays where it lay while it sits up, then the feet stay where
    they sat; face down the knees stay where they lay, the feet come under where the knees
    were, then stay."""
    k = height / 1.80
    keys = [_gu_leans(x) for x in ((_GU_LIE_UP, _GU_SIT, _GU_CROUCH, _GU_STAND) if face_up else
                                   (_GU_LIE_DOWN, _GU_HANDS_KNEES, _GU_CROUCH, _GU_STAND))]
    knee0 = _gu_leg(keys[0], k)[0]

    def hips_z(st: int, leans: dict[str, float], e: float) -> float:
        knee, ankle = _gu_leg(leans, k)
        if face_up:
            if st == 0:
                return 0.0
            return _gu_leg(keys[1], k)[1] - ankle
        if st == 0:
            return knee0 - knee
        if st == 1:
            h1 = knee0 - _gu_leg(keys[1], k)[0]
            h2 = knee0 - _gu_leg(keys[2], k)[1]
            return h1 + (h2 - h1) * e
        return knee0 - ankle

    def pose(t: float) -> tuple[dict[str, np.ndarray], np.ndarray]:
        st = min(int(t / GET_UP_STAGE), 2)
        x = min(1.0, max(0.0, t / GET_UP_STAGE - st))
        e = x * x * (3.0 - 2.0 * x)
        leans = {r: keys[st][r] + (keys[st + 1][r] - keys[st][r]) * e for r in _GU_ROLES}
        r = {role: _rx(leans[role] - (leans[_GU_PARENT[role]] if role != "Hips" else 0.0))
             for role in _GU_ROLES}
        return r, np.array([0.0, 0.0, hips_z(st, leans, e)])

    return pose




def _human_clips(height: float) -> list[ClipSpec]:
    k = height / 1.80
    return [
        ("Idle", 3.0, 13, "CUBICSPLINE", _idle(3.0)),
        ("Walk", 1.0, 17, "LINEAR", _gait(1.0, 1.3 * k, 28.0, 17.0, 55.0, 15.0, 15.0, 0.0, 5.0,
                                           knee_lead=-15.0)),
        ("Run", 0.7, 15, "LINEAR", _gait(0.7, 3.5 * k, 52.0, 17.0, 75.0, 35.0, 80.0, 8.0, 8.0,
                                         knee_lead=-20.0)),
        ("Bow", 2.0, 21, "LINEAR", _bow(2.0)),
        ("GetUpFaceUp", 3 * GET_UP_STAGE, 43, "LINEAR", _get_up(True, height)),
        ("GetUpFaceDown", 3 * GET_UP_STAGE, 43, "LINEAR", _get_up(False, height)),
    ]


def build_humanoid(path: str, layout, names: Callable[[str], str],  # type: ignore[no-untyped-def]
                   colors: dict[str, Sequence[float]], clips: list[ClipSpec], *,
                   bone_frames: str = "identity", container: tuple[np.ndarray, float] | None = None,
                   container_name: str = "Armature", joints_type: int = UBYTE,
                   weights_type: int = FLOAT, spine1: str | None = None,
                   turn: np.ndarray | None = None) -> None:
    """Write a box humanoid.

    layout: ``humanoid_layout``'s list; names: role -> bone name; bone_frames: "identity" (every
    bone's frame lines up with the figure's) or "along" (each bone's +y along it, as Mixamo's);
    container: (rotation quaternion, uniform scale) of a node above the armature (the bones and
    the mesh are then written in its space); spine1: a bone name inserted half way between Spine
    and Chest (Mixamo's Spine1); turn: a rotation (quaternion) of the whole figure in its own
    space, bones, boxes and clips (a quarter turn about y: a rig that faces +x with its bones'
    frames still the figure's axes, as a pipeline that turns a rig without a container writes it).
    """
    if turn is not None:
        layout = _turned_layout(layout, turn)
        clips = [(n, d, k, i, _turned_pose(fn, turn)) for n, d, k, i, fn in clips]
    bones = [list(b) for b in layout]
    if spine1 is not None:  # split the abdomen: Spine -> Spine1 -> Chest
        i = next(i for i, b in enumerate(bones) if b[0] == "Spine")
        sp = bones[i]
        ch = next(b for b in bones if b[0] == "Chest")
        mid = 0.5 * (sp[2] + ch[2])
        lo2 = sp[3].copy()
        lo2[1] = mid[1]
        hi1 = sp[4].copy()
        hi1[1] = mid[1]
        bones.insert(i + 1, ["Spine1", "Spine", mid, lo2, sp[4].copy(), sp[5]])
        sp[4] = hi1
        ch[1] = "Spine1"
    role_names = {b[0]: (spine1 if b[0] == "Spine1" else names(b[0])) for b in bones}
    index = {b[0]: i for i, b in enumerate(bones)}
    children: dict[str, list[str]] = {b[0]: [] for b in bones}
    for b in bones:
        if b[1] is not None:
            children[b[1]].append(b[0])

    # figure-space rest frames
    frames = {}
    for role, _parent, joint, lo, hi, _ in bones:
        if bone_frames == "identity":
            q = np.array([0.0, 0.0, 0.0, 1.0])
        else:
            kids = children[role]
            if kids and role != "Hips":
                tip = bones[index[kids[0]]][2]
            else:
                tip = joint + np.array([0.0, 0.1, 0.0]) if role in ("Hips", "Head") else \
                    0.5 * (lo + hi) * np.array([1, 0, 1]) + np.array([0, 0.5 * (lo[1] + hi[1]), 0])
            d = tip - joint
            if math.sqrt(_dot(d, d)) < 1e-9 or role == "Hips":
                d = np.array([0.0, 1.0, 0.0])
            q = q_between((0.0, 1.0, 0.0), d)
        frames[role] = q

    # into the container's space: p' = R^-1 p / s, frames R^-1 q
    if container is None:
        cq, cs = np.array([0.0, 0.0, 0.0, 1.0]), 1.0
    else:
        cq, cs = container
    cqi = q_conj(cq)

    def to_space(p: np.ndarray) -> np.ndarray:
        return q_rotate(cqi, p) / cs

    space_pos = {b[0]: to_space(b[2]) for b in bones}
    space_rot = {r: q_mul(cqi, q) for r, q in frames.items()}

    gb = GltfBuilder()
    root = None
    if container is not None:
        root = gb.node(container_name, rotation=cq, scale=(cs, cs, cs))
    node_of: dict[str, int] = {}
    rest_local: dict[str, tuple[np.ndarray, np.ndarray]] = {}
    for role, parent, *_ in bones:
        if parent is None:
            lt, lr = space_pos[role], space_rot[role]
            pnode = root
        else:
            pr = q_conj(space_rot[parent])
            lt = q_rotate(pr, space_pos[role] - space_pos[parent])
            lr = q_mul(pr, space_rot[role])
            pnode = node_of[parent]
        rest_local[role] = (lt, lr)
        node_of[role] = gb.node(role_names[role], translation=lt, rotation=lr, parent=pnode)

    # the mesh, in the container's space; each box bound rigidly to its bone
    mats = {key: gb.material(key, c) for key, c in colors.items()}
    joint_order = [b[0] for b in bones]
    by_mat: dict[str, list] = {key: [[], [], [], []] for key in colors}
    for j, (_role, _, _, lo, hi, mat) in enumerate(bones):
        p, n, idx = box(lo, hi)
        p = np.array([to_space(x) for x in p])
        n = np.array([q_rotate(cqi, x) for x in n])
        acc = by_mat[mat]
        acc[2].append(idx + sum(len(x) for x in acc[0]))
        acc[0].append(p)
        acc[1].append(n)
        acc[3].append(np.full(len(p), j))
    prims = []
    for key, (ps, ns, ids, js) in by_mat.items():
        if not ps:
            continue
        jj = np.concatenate(js)
        joints = np.zeros((len(jj), 4), dtype=np.int64)
        joints[:, 0] = jj
        weights = np.zeros((len(jj), 4))
        weights[:, 0] = 1.0
        prims.append(dict(positions=np.concatenate(ps), normals=np.concatenate(ns),
                          indices=np.concatenate(ids), material=mats[key], joints=joints,
                          weights=weights, joints_type=joints_type, weights_type=weights_type))
    mesh = gb.mesh("Body", prims)
    ibm = np.array([trs_inverse(space_pos[r], space_rot[r]) for r in joint_order])
    skin = gb.skin("Skin", [node_of[r] for r in joint_order], ibm, skeleton=node_of["Hips"])
    gb.node("Body", mesh=mesh, skin=skin, parent=root)

    corners = {}
    for role, _, _, lo, hi, _ in bones:
        corners[role] = [to_space(np.array([x, y, z])) for x in (lo[0], hi[0])
                         for y in (lo[1], hi[1]) for z in (lo[2], hi[2])]

    # clips: rotation deltas in figure axes -> local rotations; the hips' offset -> translation
    for name, duration, nkeys, interp, fn in clips:
        times = np.linspace(0.0, duration, nkeys)

        def local_pose(t: float, fn: PoseFn = fn):  # type: ignore[no-untyped-def]
            rots, off = fn(t)
            out = {}
            for role, d in rots.items():
                if role not in rest_local:
                    continue
                d_space = q_mul(q_mul(cqi, d), cq)
                w = space_rot[role]
                lr = q_mul(rest_local[role][1], q_mul(q_mul(q_conj(w), d_space), w))
                out[role] = _unit(lr)
            hips_t = rest_local["Hips"][0] + q_rotate(cqi, off) / cs
            # set the pose down: its lowest corner on the ground (y = 0)
            wp: dict[str, np.ndarray] = {}
            wq: dict[str, np.ndarray] = {}
            low = math.inf
            for role, parent, *_ in bones:
                lt, lr = rest_local[role]
                lr = out.get(role, lr)
                if role == "Hips":
                    lt = hips_t
                if parent is None:
                    wp[role], wq[role] = lt, lr
                else:
                    wp[role] = wp[parent] + q_rotate(wq[parent], lt)
                    wq[role] = q_mul(wq[parent], lr)
                for c in corners[role]:
                    local = q_rotate(q_conj(space_rot[role]), c - space_pos[role])
                    y = (q_rotate(cq, wp[role] + q_rotate(wq[role], local)) * cs)[1]
                    low = min(low, y)
            hips_t = hips_t + q_rotate(cqi, np.array([0.0, -low, 0.0])) / cs
            return out, hips_t

        keyed = [local_pose(float(t)) for t in times]
        roles = [r for r in joint_order if r in keyed[0][0]]
        channels = []
        for role in roles:
            vals = np.array([k[0][role] for k in keyed])
            for i in range(1, len(vals)):  # one hemisphere: no flips between keys
                if _dot(vals[i], vals[i - 1]) < 0.0:
                    vals[i] = -vals[i]
            channels.append((node_of[role], "rotation", times, vals, interp))
        hips = np.array([k[1] for k in keyed])
        channels.append((node_of["Hips"], "translation", times, hips, interp))
        if interp == "CUBICSPLINE":
            h = 1e-4
            cub = []
            for node, pth, tm, vals, it in channels:
                role = next(r for r, nd in node_of.items() if nd == node)
                tan = []
                for t in tm:
                    a, b = local_pose(float(t) - h), local_pose(float(t) + h)
                    if pth == "rotation":
                        va, vb = a[0][role], b[0][role]
                        ref = vals[list(tm).index(t)]
                        va = va if _dot(va, ref) >= 0 else -va
                        vb = vb if _dot(vb, ref) >= 0 else -vb
                    else:
                        va, vb = a[1], b[1]
                    tan.append((vb - va) / (2 * h))
                tan_a = np.array(tan)
                cub.append((node, pth, tm, np.stack([tan_a, vals, tan_a], axis=1), it))
            channels = cub
        gb.animation(name, channels)
    gb.save(path)


def _turned_layout(layout, turn: np.ndarray):  # type: ignore[no-untyped-def]
    """``layout`` turned by ``turn``: joints turned, boxes the bounds of their turned corners."""
    out = []
    for role, parent, joint, lo, hi, mat in layout:
        cs = np.array([q_rotate(turn, (x, y, z)) for x in (lo[0], hi[0]) for y in (lo[1], hi[1])
                       for z in (lo[2], hi[2])])
        out.append((role, parent, q_rotate(turn, joint), cs.min(axis=0), cs.max(axis=0), mat))
    return out


def _turned_pose(fn: PoseFn, turn: np.ndarray) -> PoseFn:
    """A clip's pose function for the figure turned by ``turn``: its turns and offset turned."""
    tc = q_conj(turn)

    def pose(t: float) -> tuple[dict[str, np.ndarray], np.ndarray]:
        rots, off = fn(t)
        return ({r: q_mul(q_mul(turn, d), tc) for r, d in rots.items()},
                q_rotate(turn, off))

    return pose


# -- the two-bone rig ---------------------------------------------------------------------------
def build_two_bone(path: str) -> None:
    gb = GltfBuilder()
    base = gb.node("Base", translation=(0.0, 0.0, 0.0))
    tip = gb.node("Tip", translation=(0.0, 0.5, 0.0), parent=base)
    # a bar 1 m tall in 10 rings of 4 vertices; weights blend across the joint at 0.5 m
    ys = np.linspace(0.0, 1.0, 11)
    pos, nrm, jn, wt = [], [], [], []
    for y in ys:
        w_tip = float(np.clip((y - 0.4) / 0.2, 0.0, 1.0))
        for x, z in ((0.05, 0.05), (-0.05, 0.05), (-0.05, -0.05), (0.05, -0.05)):
            pos.append((x, y, z))
            n = np.array([x, 0.0, z])
            nrm.append(_unit(n))
            jn.append((0, 1, 0, 0))
            wt.append((1.0 - w_tip, w_tip, 0.0, 0.0))
    idx = []
    for r in range(len(ys) - 1):
        for k in range(4):
            a, b = r * 4 + k, r * 4 + (k + 1) % 4
            c, d = a + 4, b + 4
            idx += [a, b, d, a, d, c]
    mat = gb.material("bar", (0.8, 0.7, 0.2, 1.0))
    mesh = gb.mesh("Bar", [dict(positions=np.array(pos), normals=np.array(nrm),
                                indices=np.array(idx), material=mat, joints=np.array(jn),
                                weights=np.array(wt), joints_type=UBYTE, weights_type=UBYTE)])
    ibm = np.array([np.eye(4), trs_inverse((0.0, 0.5, 0.0), np.array([0, 0, 0, 1.0]))])
    skin = gb.skin("Skin", [base, tip], ibm)
    gb.node("Bar", mesh=mesh, skin=skin)
    t = np.array([0.0, 1.0, 2.0])
    bend = np.array([[0, 0, 0, 1.0], q_axis((0, 0, 1), math.pi / 2), [0, 0, 0, 1.0]])
    gb.animation("Bend", [(tip, "rotation", t, bend, "LINEAR")])
    gb.animation("Pulse", [(base, "scale", np.array([0.0, 0.5, 1.0]),
                            np.array([[1, 1, 1], [1.2, 1.2, 1.2], [1, 1, 1.0]]), "STEP")])
    slide = np.array([[[0, 0, 0], [0, 0.5, 0], [0, 0, 1.0]],
                      [[0, 0, 0], [0.2, 0.6, 0], [0, 0, 0]],
                      [[0, 0, -1.0], [0, 0.5, 0], [0, 0, 0]]])
    gb.animation("Slide", [(tip, "translation", np.array([0.0, 0.75, 1.5]), slide,
                            "CUBICSPLINE")])
    gb.save(path)


# -- the assets ---------------------------------------------------------------------------------
BOXMAN_COLORS = {"skin": (0.86, 0.66, 0.52, 1.0), "shirt": (0.20, 0.36, 0.72, 1.0),
                 "trousers": (0.24, 0.25, 0.30, 1.0), "shoes": (0.10, 0.09, 0.08, 1.0)}
MIXAMO_COLORS = {"skin": (0.62, 0.45, 0.34, 1.0), "shirt": (0.72, 0.22, 0.18, 1.0),
                 "trousers": (0.15, 0.22, 0.35, 1.0), "shoes": (0.35, 0.24, 0.14, 1.0)}
ZOMBIE_COLORS = {"skin": (0.47, 0.58, 0.38, 1.0), "shirt": (0.45, 0.38, 0.26, 1.0),
                 "trousers": (0.28, 0.24, 0.22, 1.0), "shoes": (0.16, 0.14, 0.12, 1.0)}

#: As made: height (m) and clip durations (s) of each asset (tests check them).
MADE = {
    "boxman.glb": (1.80, {"Idle": 3.0, "Walk": 1.0, "Run": 0.7, "Bow": 2.0,
                          "GetUpFaceUp": 2.1, "GetUpFaceDown": 2.1}),
    "mixamo_man.glb": (1.95, {"Idle": 3.0, "Walk": 1.0, "Run": 0.7, "Bow": 2.0,
                              "GetUpFaceUp": 2.1, "GetUpFaceDown": 2.1}),
    "zombie.glb": (1.72, {"Idle": 2.5, "Walk": 1.6}),
    "two_bone.glb": (1.0, {"Bend": 2.0, "Pulse": 1.0, "Slide": 1.5}),
}


def make_all(folder: str = HERE) -> list[str]:
    paths = []
    p = os.path.join(folder, "boxman.glb")
    build_humanoid(p, humanoid_layout(1.80), _pipeline_names, BOXMAN_COLORS, _human_clips(1.80))
    paths.append(p)

    p = os.path.join(folder, "mixamo_man.glb")
    build_humanoid(p, humanoid_layout(1.95, arm=1.12), lambda r: "mixamorig:" + _MIXAMO[r],
                   MIXAMO_COLORS, _human_clips(1.95), bone_frames="along",
                   container=(q_axis((1, 0, 0), -math.pi / 2), 0.01),
                   joints_type=USHORT, weights_type=USHORT, spine1="mixamorig:Spine1")
    paths.append(p)

    p = os.path.join(folder, "zombie.glb")
    build_humanoid(p, humanoid_layout(1.72, arm=1.06, width=1.12), lambda r: _MIXAMO[r],
                   ZOMBIE_COLORS, [("Idle", 2.5, 11, "LINEAR", _sway(2.5)),
                                   ("Walk", 1.6, 17, "LINEAR", _shamble(1.6, 0.6))],
                   bone_frames="along", container=(np.array([0.0, 0.0, 0.0, 1.0]), 1.0),
                   weights_type=UBYTE, spine1="Spine1")
    paths.append(p)

    p = os.path.join(folder, "two_bone.glb")
    build_two_bone(p)
    paths.append(p)
    return paths


if __name__ == "__main__":
    for path in make_all():
        print(f"{os.path.relpath(path)}: {os.path.getsize(path)} bytes")
