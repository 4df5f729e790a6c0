"""Dressing a ragdoll in a figure's rig, and the two poses (spec: "Two poses", ``on_figure``).

A powered figure has two poses: the animation's, written to its rig by clips and read by its
muscles, and its bodies', written back into the rig for drawing. This module joins a ragdoll
(``physics.ragdoll`` or ``ragdoll_for_rig``) to a rig (``ae3d.figure``'s ``Rig``, or a Figure):

```python
r = physics.ragdoll_for_rig(e, "Zombie", f.rig)   # made where the figure stands, fitted, dressed
physics.ragdoll_to_rig(r)                        # bodies put where the rig's pose is
physics.ragdoll_drive(r, physics.ragdoll_rig_targets(r))   # muscles toward the animation
e.run(...)
physics.ragdoll_to_rig_pose(r)                   # the bodies' pose drawn into the rig
```

Dressing (``ragdoll_dress``) maps each ragdoll bone to its rig bone by the rig's humanoid naming
(``figure.humanoid_bones``; the pipeline's Hips, Spine, Chest, Neck, UpperArmL, LowerArmL,
ThighL, ShinL, FootL... or Mixamo's Hips, Spine, Spine2, Neck, LeftArm, LeftForeArm, LeftUpLeg,
LeftLeg, LeftFoot, with or without a ``name:`` prefix) and records, per bone, the constant offset
between the body and its rig bone's world frame, both standing in their rest poses:

    q_body = q_bone off_q        p_body = p_bone + R(q_bone) off_p     (m, xyzw)

so poses map both ways exactly. The rig's rest pose is laid over the ragdoll as it stands: the
ground under the rig's object (the root's height) on the ragdoll's lowest point, the rig's hips
over its pelvis, the way the rig's feet point onto the ragdoll's forward.

The animation's pose. Once the bodies have written the rig, the rig no longer holds what the
animation asked for. The dressing keeps the animation's local pose beside the rig: before it is
read (``ragdoll_rig_targets``, ``ragdoll_to_rig``) or written (``ragdoll_to_rig_pose``), every
bone whose local pose differs from what the bodies last wrote there was written since by the
animation, and is taken as the animation's; the others keep the animation's pose as it was. A
clip that moves one bone leaves the rest where the animation last put them.

Fitting (``ragdoll_for_rig``). The reference ragdoll has fixed proportions; a figure of others
trailed it by up to 2 cm. ``ragdoll_for_rig`` builds the reference ragdoll scaled to the rig's
height (masses with scale³, budgets with scale⁴) and then fits every capsule to the rig's own
bones: joints at the rig's joints (hips, knees, ankles, lumbar, chest, neck, shoulders,
elbows), capsules along the bones between them, their radii from the skinned mesh's widths, the
forearm to the fingertips, the calf (without feet) to the sole, the neck to the head's top. The
bodies' rest rotations are the reference's (``human.BONE_REST_QUAT``), tilted where a rig's
bone is not where the reference's is. Joint frames, limits and budgets are the reference's.
"""

from __future__ import annotations

import math
import weakref
from dataclasses import dataclass
from typing import Any

import numpy as np

from .. import human
from . import _api_bodies as B
from . import _api_joints as J
from . import _layout as L
from ._kernels_dress import bodies_from_world, draw_bodies, relative_targets
from ._kernels_joints import relative_rotations
from ._ragdoll import Ragdoll, _check, check_fitted, ragdoll
from ._world import shape_mass

__all__ = [
    "Dressing", "ragdoll_dress", "ragdoll_for_rig", "ragdoll_to_rig", "ragdoll_rig_targets",
    "ragdoll_to_rig_pose", "ragdoll_rig_bone", "ragdoll_dressed", "ragdoll_dressing",
    "ragdoll_animation_pose", "ragdoll_restore_rig", "ragdoll_rig_bodies", "BONE_ROLES",
]

#: The humanoid role (the pipeline's bone name) each ragdoll bone (``human.BONE_*``) wears.
BONE_ROLES = ("Hips", "Spine", "Chest", "Neck", "UpperArmL", "LowerArmL", "UpperArmR",
              "LowerArmR", "ThighL", "ShinL", "ThighR", "ShinR", "FootL", "FootR")

_REF_HEIGHT = human.HEIGHT
_REF_HIPS_Y = 0.98          # the reference pelvis bone's height (human.bone_rest(PELVIS))


# ------------------------------------------------------------------------------ small math
def _qmul(a, b) -> np.ndarray:
    ax, ay, az, aw = a
    bx, by, bz, bw = b
    return np.array([aw * bx + ax * bw + ay * bz - az * by, aw * by - ax * bz + ay * bw + az * bx,
                     aw * bz + ax * by - ay * bx + az * bw, aw * bw - ax * bx - ay * by - az * bz])


def _qconj(q) -> np.ndarray:
    return np.array([-q[0], -q[1], -q[2], q[3]])


def _qrot(q, v) -> np.ndarray:
    x, y, z, w = q
    u = np.array([x, y, z])
    v = np.asarray(v, dtype=np.float64)
    t = 2.0 * np.cross(u, v)
    return v + w * t + np.cross(u, t)


def _qpos(q) -> np.ndarray:
    q = np.asarray(q, dtype=np.float64)
    q = q / np.linalg.norm(q)
    return -q if q[3] < 0.0 else q


def _qyaw(yaw: float) -> np.ndarray:
    return np.array([0.0, math.sin(0.5 * yaw), 0.0, math.cos(0.5 * yaw)])


def _mat_quat(m: np.ndarray) -> np.ndarray:
    """Unit quaternion of a 3x3 (its columns normalised: a uniform scale is dropped)."""
    r = m / np.linalg.norm(m, axis=0)
    return J._mat_to_quat(r)  # noqa: SLF001 - the physics package's own helper


def _angle(q) -> float:
    """rad of a rotation quaternion."""
    return 2.0 * math.atan2(float(np.linalg.norm(q[:3])), abs(float(q[3])))


# ------------------------------------------------------------------------------ the dressing
@dataclass(eq=False)
class Dressing:
    """What ``ragdoll_dress`` records. Read-only for callers.

    rig: the Rig; figure: its Figure or None; scheme: 0 pipeline, 1 Mixamo; rig_bones (n,)
    int64: the rig bone of each ragdoll bone; off_p (n, 3) m and off_q (n, 4): each body's
    offset from its rig bone (see the module docstring); body_of (rig count,) int64: the ragdoll
    bone dressed on each rig bone, -1 for the bones carried along; anim_t/anim_q/anim_s: the
    animation's local pose kept beside the rig; written_t/written_q: what the bodies last wrote
    (NaN before they have); fitted: True for ``ragdoll_for_rig``'s fitted capsules.
    """

    rig: Any
    figure: Any
    scheme: int
    rig_bones: np.ndarray
    off_p: np.ndarray
    off_q: np.ndarray
    body_of: np.ndarray
    anim_t: np.ndarray
    anim_q: np.ndarray
    anim_s: np.ndarray
    written_t: np.ndarray
    written_q: np.ndarray
    parents: np.ndarray
    fitted: bool = False


_dressings: weakref.WeakKeyDictionary[Ragdoll, Dressing] = weakref.WeakKeyDictionary()


def _rig_of(rig: Any) -> tuple[Any, Any]:
    """(Rig, Figure or None) from a Rig or a Figure."""
    if hasattr(rig, "rig") and hasattr(rig, "model"):
        return rig.rig, rig
    if not (hasattr(rig, "translation") and hasattr(rig, "parents") and hasattr(rig, "world_of")):
        raise TypeError(f"rig must be a figure's Rig or a Figure, not {type(rig).__name__}")
    return rig, None


def _figure_of_rig(e: Any, rig: Any) -> Any:
    """The engine's figure that owns ``rig`` (for its meshes), or None."""
    try:
        from ae3d import figure as _fig
        for f in _fig.figures(e):
            if f.rig is rig:
                return f
    except Exception:  # noqa: BLE001 - a rig outside any figure: no mesh to measure
        return None
    return None


def _roles(rig: Any) -> tuple[int, dict[str, int]]:
    from ae3d.figure import humanoid_bones, humanoid_scheme
    scheme = humanoid_scheme(rig)
    if scheme < 0:
        names = ", ".join(list(rig.names)[:6])
        raise ValueError(
            "rig follows no humanoid naming (humanoid_scheme is -1): a ragdoll is dressed only "
            "in the pipeline's bone names (Hips, Spine, Chest, Neck, UpperArmL, ThighL...) or "
            f"Mixamo's (mixamorig:Hips, LeftArm, LeftUpLeg...); this rig has {names}"
            + ("..." if rig.count > 6 else ""))
    return scheme, humanoid_bones(rig)


def _rest_world(rig: Any) -> np.ndarray:
    """(n, 4, 4) the rig's rest pose in the world (its current root)."""
    return rig.world_of(rig.rest_translation, rig.rest_rotation, rig.rest_scale)


def _rig_frame(rig: Any, world: np.ndarray, roles: dict[str, int]) -> tuple[np.ndarray, float]:
    """(origin (3,) m, yaw rad about +y from +z) of a standing rig: the ground under its object
    (the root's height) below its hips, and the way its feet point (toes ahead of the feet;
    without toes, across the hips: forward = left x up)."""
    hips = world[roles["Hips"], :3, 3]
    origin = np.array([hips[0], rig.root[1, 3], hips[2]])
    fwd = np.zeros(3)
    for s in "LR":
        if f"Toes{s}" in roles:
            d = world[roles[f"Toes{s}"], :3, 3] - world[roles[f"Foot{s}"], :3, 3]
            d[1] = 0.0
            if np.linalg.norm(d) > 1e-6:
                fwd += d / np.linalg.norm(d)
    if np.linalg.norm(fwd) < 1e-6:
        left = world[roles["ThighL"], :3, 3] - world[roles["ThighR"], :3, 3]
        fwd = np.cross(left, (0.0, 1.0, 0.0))
        fwd[1] = 0.0
    if np.linalg.norm(fwd) < 1e-9:
        raise ValueError("cannot tell which way the rig faces (feet and hips coincide)")
    return origin, math.atan2(fwd[0], fwd[2])


def _ragdoll_frame(w: Any, r: Ragdoll) -> tuple[np.ndarray, float]:
    """(origin, yaw) of a standing ragdoll: its lowest point's height under its pelvis, and its
    pelvis's forward."""
    s = r.bodies
    p = w.bf[s, L.B_POS:L.B_POS + 3]
    q = w.bf[s, L.B_QUAT:L.B_QUAT + 4]
    low = math.inf
    for k in range(r.bones):
        rad, hs = w.bf[s[k], L.B_DIMS], w.bf[s[k], L.B_DIMS + 1]
        ay = abs(_qrot(q[k], (0.0, 1.0, 0.0))[1])
        low = min(low, p[k, 1] - ay * hs - rad)
    pel = p[human.BONE_PELVIS]
    f = _qrot(q[human.BONE_PELVIS], human.BONE_FORWARD_LOCAL[human.BONE_PELVIS])
    return np.array([pel[0], low, pel[2]]), math.atan2(f[0], f[2])


def _dress(r: Ragdoll, rig_in: Any, align: bool, fitted: bool = False) -> Dressing:
    w = _check(r)
    rig, fig = _rig_of(rig_in)
    scheme, roles = _roles(rig)
    n = r.bones
    rig_bones = np.zeros(n, dtype=np.int64)
    for b in range(n):
        role = BONE_ROLES[b]
        if role not in roles:
            raise ValueError(f"the rig has no bone for the ragdoll's {human.BONE_NAMES[b]} "
                             f"(role {role})")
        rig_bones[b] = roles[role]
    world = _rest_world(rig)
    if align:
        # lay the rig's rest pose over the ragdoll as it stands
        o_rig, yaw_rig = _rig_frame(rig, world, roles)
        o_rd, yaw_rd = _ragdoll_frame(w, r)
        a = np.eye(4)
        c, s = math.cos(yaw_rd - yaw_rig), math.sin(yaw_rd - yaw_rig)
        a[:3, :3] = [[c, 0.0, s], [0.0, 1.0, 0.0], [-s, 0.0, c]]
        a[:3, 3] = o_rd - a[:3, :3] @ o_rig
        world = np.einsum("ij,njk->nik", a, world)
    bp = w.bf[r.bodies, L.B_POS:L.B_POS + 3]
    bq = w.bf[r.bodies, L.B_QUAT:L.B_QUAT + 4]
    off_p = np.zeros((n, 3))
    off_q = np.zeros((n, 4))
    for b in range(n):
        m = world[rig_bones[b]]
        qb = _mat_quat(m[:3, :3])
        off_q[b] = _qpos(_qmul(_qconj(qb), bq[b]))
        off_p[b] = _qrot(_qconj(qb), bp[b] - m[:3, 3])
    body_of = np.full(rig.count, -1, dtype=np.int64)
    for b in range(n):
        body_of[rig_bones[b]] = b
    nan = np.full((rig.count, 3), np.nan)
    d = Dressing(rig=rig, figure=fig, scheme=scheme, rig_bones=rig_bones, off_p=off_p,
                 off_q=off_q, body_of=body_of, anim_t=rig.translation.copy(),
                 anim_q=rig.rotation.copy(), anim_s=rig.scale.copy(), written_t=nan,
                 written_q=np.full((rig.count, 4), np.nan),
                 parents=np.array([max(p, -1) for p in human.BONE_PARENT[:n]], dtype=np.int64),
                 fitted=fitted)
    _dressings[r] = d
    return d


def ragdoll_dress(r: Ragdoll, rig: Any) -> None:
    """Dress ragdoll ``r`` in ``rig`` (a figure's Rig, or the Figure): each ragdoll bone mapped
    to its rig bone by the rig's humanoid naming (pipeline or Mixamo), and the constant offset
    between each body and its rig bone recorded with both standing in their rest poses (the
    ragdoll as it stands now, the rig's rest pose laid over it: ground on ground, hips over
    pelvis, the feet's way onto the pelvis's forward). Poses then map both ways exactly.

    ValueError, naming the two namings, for a rig in neither (``humanoid_scheme`` -1)."""
    if not isinstance(r, Ragdoll):
        raise TypeError(f"r must be a Ragdoll, not {type(r).__name__}")
    _dress(r, rig, align=True)


def ragdoll_dressing(r: Ragdoll) -> Dressing:
    """The Dressing of ``r``; ValueError if it is not dressed."""
    _check(r)
    d = _dressings.get(r)
    if d is None:
        raise ValueError("this ragdoll is not dressed (physics.ragdoll_dress(r, rig))")
    return d


def ragdoll_dressed(r: Ragdoll) -> Any:
    """The rig ``r`` is dressed in, or None."""
    d = _dressings.get(r)
    return None if d is None else d.rig


def ragdoll_rig_bone(r: Ragdoll, bone: int) -> int:
    """The rig bone index that ragdoll ``bone`` (``human.BONE_*``) wears."""
    d = ragdoll_dressing(r)
    if isinstance(bone, bool) or not isinstance(bone, (int, np.integer)):
        raise ValueError("bone must be a human.BONE_* constant")
    if not 0 <= int(bone) < r.bones:
        raise ValueError(f"bone {int(bone)} is not a bone of this ragdoll ({r.bones} bones)")
    return int(d.rig_bones[int(bone)])


# ------------------------------------------------------------------------------ the two poses
def _sync(d: Dressing) -> None:
    """Take whatever the animation wrote to the rig since the bodies last did, bone by bone."""
    rig = d.rig
    t, q, s = rig.translation, rig.rotation, rig.scale
    # NaN never equals: a bone the bodies never wrote is always the animation's. Translation
    # and rotation apart: a clip that keys a bone's rotation leaves its translation as it was
    new_t = ~np.all(t == d.written_t, axis=1)
    new_q = ~np.all(q == d.written_q, axis=1)
    d.anim_t[new_t] = t[new_t]
    d.anim_q[new_q] = q[new_q]
    d.anim_s[:] = s


def ragdoll_animation_pose(r: Ragdoll) -> tuple[np.ndarray, np.ndarray, np.ndarray]:
    """The animation's local pose of the rig (what it last wrote, whatever the bodies wrote
    since): copies of translation (n, 3) m, rotation (n, 4), scale (n, 3)."""
    d = ragdoll_dressing(r)
    _sync(d)
    return d.anim_t.copy(), d.anim_q.copy(), d.anim_s.copy()


def ragdoll_restore_rig(r: Ragdoll) -> None:
    """Put the animation's pose back into the rig (the bodies' drawing undone) and update its
    world."""
    d = ragdoll_dressing(r)
    _sync(d)
    rig = d.rig
    rig.translation[:] = d.anim_t
    rig.rotation[:] = d.anim_q
    d.written_t[:] = np.nan
    d.written_q[:] = np.nan
    rig.update_world()


def ragdoll_rig_bodies(r: Ragdoll) -> tuple[np.ndarray, np.ndarray]:
    """Where the animation's pose puts each body: ((n, 3) m, (n, 4)), in the world."""
    d = ragdoll_dressing(r)
    _sync(d)
    world = d.rig.world_of(d.anim_t, d.anim_q, d.anim_s)
    p = np.zeros((r.bones, 3))
    q = np.zeros((r.bones, 4))
    bodies_from_world(world, d.rig_bones, d.off_p, d.off_q, p, q)
    return p, q


def ragdoll_to_rig(r: Ragdoll) -> None:
    """Put the bodies where the rig's (animation's) pose is: positions and rotations set, linear
    and angular velocities zeroed, every body woken. A teleport, not a drag."""
    w = _check(r)
    p, q = ragdoll_rig_bodies(r)
    e = r.engine
    for b in range(r.bones):
        h = w.handle(int(r.bodies[b]))
        B.set_position(e, h, p[b])
        B.set_rotation(e, h, q[b])
        B.set_velocity(e, h, (0.0, 0.0, 0.0))
        B.set_angular_velocity(e, h, (0.0, 0.0, 0.0))


def ragdoll_rig_targets(r: Ragdoll) -> np.ndarray:
    """(n, 4) what the animation asks of each joint: per ragdoll bone, the body-relative rotation
    ``q_parent^-1 q_bone`` (w >= 0) its body would have in the rig's (animation's) local pose;
    row 0 is the pelvis's world rotation there. The shape and convention ``ragdoll_drive``
    takes (it ignores row 0) and ``ragdoll_local_rotations`` / ``ragdoll_rest_targets`` give."""
    d = ragdoll_dressing(r)
    _, q = ragdoll_rig_bodies(r)
    out = np.zeros((r.bones, 4))
    relative_targets(q, d.parents, out)
    return out


def ragdoll_to_rig_pose(r: Ragdoll, positions: bool = True) -> None:
    """Draw the bodies' pose into the rig: each dressed rig bone takes its body's world pose
    (through the offsets), parents first; every other bone (hands, feet, toes, head, shoulders,
    a spine bone between) is carried along in the animation's local pose. Then the rig's world
    is updated. ``positions`` False writes only the dressed bones' rotations and the hips'
    position (the rig keeps its own bone lengths)."""
    w = _check(r)
    d = ragdoll_dressing(r)
    _sync(d)
    rig = d.rig
    # the carried bones in the animation's pose, the dressed ones solved from their bodies
    rig.translation[:] = d.anim_t
    rig.rotation[:] = d.anim_q
    rig.scale[:] = d.anim_s
    bp = np.ascontiguousarray(w.bf[r.bodies, L.B_POS:L.B_POS + 3])
    bq = np.ascontiguousarray(w.bf[r.bodies, L.B_QUAT:L.B_QUAT + 4])
    draw_bodies(rig.parents, rig.translation, rig.rotation, rig.scale, rig.root, d.body_of, bp,
                bq, d.off_p, d.off_q, bool(positions), rig.world)
    if not positions:  # the hips' position too
        only = np.full(rig.count, -1, dtype=np.int64)
        only[d.rig_bones[human.BONE_PELVIS]] = human.BONE_PELVIS
        draw_bodies(rig.parents, rig.translation, rig.rotation, rig.scale, rig.root, only, bp, bq,
                    d.off_p, d.off_q, True, rig.world)
    mapped = d.body_of >= 0
    d.written_t[:] = np.nan
    d.written_q[:] = np.nan
    d.written_t[mapped] = rig.translation[mapped]
    d.written_q[mapped] = rig.rotation[mapped]


# ------------------------------------------------------------------------------ fitting
def _skinned_rest(fig: Any, rest_world: np.ndarray) -> tuple[np.ndarray, np.ndarray] | None:
    """(v, 3) world vertices of the figure's meshes in the rest pose and (v,) the rig bone each
    follows most; None without meshes."""
    if fig is None:
        return None
    model = getattr(fig, "model", None)
    if model is None or not model.meshes:
        return None
    pos, bone = [], []
    for mesh in model.meshes:
        skin = model.skins[mesh.skin]
        mats = np.einsum("jab,jbc->jac", rest_world[skin.bones], skin.inverse_binds)
        wts = mesh.weights
        v = np.zeros((mesh.positions.shape[0], 3))
        ph = np.concatenate([mesh.positions, np.ones((mesh.positions.shape[0], 1))], axis=1)
        for k in range(4):
            m = mats[mesh.joints[:, k]]
            v += wts[:, k:k + 1] * np.einsum("vab,vb->va", m, ph)[:, :3]
        top = mesh.joints[np.arange(len(wts)), np.argmax(wts, axis=1)]
        pos.append(v)
        bone.append(skin.bones[top])
    return np.concatenate(pos), np.concatenate(bone)


def _descendants_until(rig: Any, start: int, stop: set[int]) -> list[int]:
    """``start`` and the bones below it, not entering any bone of ``stop``."""
    out, todo = [], [start]
    children = rig.template.children
    while todo:
        i = todo.pop()
        out.append(i)
        todo.extend(c for c in children[i] if c not in stop)
    return out


def _perp(d: np.ndarray) -> tuple[np.ndarray, np.ndarray]:
    """Two unit vectors across ``d``: the first as near +x as can be."""
    u = np.array([1.0, 0.0, 0.0]) - d * d[0]
    if np.linalg.norm(u) < 1e-6:
        u = np.array([0.0, 0.0, 1.0]) - d * d[2]
    u /= np.linalg.norm(u)
    return u, np.cross(d, u)


def _fit_geometry(rig: Any, roles: dict[str, int], world: np.ndarray, origin: np.ndarray,
                  yaw: float, fig: Any, feet: bool) -> dict[str, Any]:
    """Each bone's fitted capsule and each joint's point, in the figure's frame F (origin on the
    ground under the hips, facing +z, left +x; m)."""
    c, s = math.cos(yaw), math.sin(yaw)
    rot = np.array([[c, 0.0, s], [0.0, 1.0, 0.0], [-s, 0.0, c]])  # F -> world

    def to_f(p):
        return rot.T @ (np.asarray(p) - origin)

    P = {role: to_f(world[i, :3, 3]) for role, i in roles.items()}
    mesh = _skinned_rest(fig, world)
    if mesh is not None:
        verts = (mesh[0] - origin) @ rot   # rows: rot.T @ v
        vbone = mesh[1]
    mapped = {roles[BONE_ROLES[b]] for b in range(len(BONE_ROLES)) if BONE_ROLES[b] in roles}

    def pts(*role_names, extend=True):
        """F vertices that follow the given roles' bones (and, with ``extend``, the unmapped
        bones below them); None without a mesh or when there are none."""
        if mesh is None:
            return None
        bones: set[int] = set()
        for rn in role_names:
            if rn not in roles:
                continue
            i = roles[rn]
            bones.update(_descendants_until(rig, i, mapped - {i}) if extend else [i])
        sel = np.isin(vbone, list(bones))
        return verts[sel] if np.any(sel) else None

    k_height = None
    if mesh is not None:
        top = float(np.max(verts[:, 1]))
        k_height = top / _REF_HEIGHT
    hips_y = P["Hips"][1]
    if k_height is None or not k_height > 0.0:
        k_height = hips_y / _REF_HIPS_Y
    k = k_height
    geo: dict[str, Any] = {"k": k, "bones": {}, "joints": {}}

    def across(v, d, centre):
        """Mean half-width of vertices ``v`` across direction ``d`` about ``centre``."""
        u1, u2 = _perp(d)
        rel = v - centre
        a, b = rel @ u1, rel @ u2
        return 0.25 * ((a.max() - a.min()) + (b.max() - b.min()))

    up = np.array([0.0, 1.0, 0.0])

    # --- trunk: lateral capsules (local y across the body), centred between their joints
    sp, ch, nk = P["Spine"], P["Chest"], P["Neck"]
    trunk = {
        human.BONE_PELVIS: (P["Hips"], None, ("Hips",)),
        human.BONE_SPINE_01: (0.5 * (sp + ch), ch - sp, ("Spine",)),
        human.BONE_SPINE_03: (0.5 * (ch + nk), nk - ch, ("Chest",)),
    }
    for b, (centre, d, rn) in trunk.items():
        ref_c, ref_q, (ref_r, ref_hs) = human.bone_rest(b)
        q = np.array(ref_q, dtype=np.float64)
        if d is not None and np.linalg.norm(d) > 1e-9:
            q = _qmul(J.shortest_arc(up, d / np.linalg.norm(d)), q)
        v = pts(*rn, extend=(b != human.BONE_SPINE_03))  # not the chest's shoulders
        centre = centre.copy()
        if v is not None:
            depth = 0.5 * (v[:, 2].max() - v[:, 2].min())
            half_w = 0.5 * (v[:, 0].max() - v[:, 0].min())
            centre[2] = 0.5 * (v[:, 2].max() + v[:, 2].min())
            rad = depth
            hs = max(half_w - rad, 0.25 * rad)
        else:
            rad, hs = ref_r * k, ref_hs * k
        geo["bones"][b] = (centre, q, rad, hs)

    # --- neck and head: one capsule from just above the neck joint to the head's top
    head = P["Head"]
    d = head - nk
    d = d / np.linalg.norm(d) if np.linalg.norm(d) > 1e-9 else up
    v = pts("Neck", "Head")
    if v is not None:
        top = float(np.max((v - nk) @ d))
        vh = pts("Head", extend=False)
        rad = across(vh if vh is not None else v, d, head)
    else:
        top = (1.80 - 1.50) * k
        rad = 0.10 * k
    lo = 0.3 * rad
    hi = max(top - rad, lo + 0.02 * k)
    geo["bones"][human.BONE_NECK] = (nk + d * 0.5 * (lo + hi), _qmul(J.shortest_arc(up, d),
                                     human.BONE_REST_QUAT[human.BONE_NECK]), rad,
                                     0.5 * (hi - lo))

    # --- limbs: capsules from joint to joint
    def limb(b, a_role, b_role, own_roles, tip_roles=None, tip=None):
        pa, pb = P[a_role], P[b_role]
        d = pb - pa
        length = float(np.linalg.norm(d))
        d = d / length
        along = _qrot(human.BONE_REST_QUAT[b], human.BONE_ALONG_LOCAL[b])
        q = _qmul(J.shortest_arc(along, d), human.BONE_REST_QUAT[b])
        v = pts(*own_roles, extend=False)
        _, _, (ref_r, _) = human.bone_rest(b)
        rad = across(v, d, pa) if v is not None else ref_r * k
        end = length
        vt = pts(*tip_roles) if tip_roles is not None else None
        if vt is not None:
            end = float(np.max((vt - pa) @ d)) - rad
        elif tip is not None:
            end = tip(rad, length)
        end = max(end, 0.02 * k)
        geo["bones"][b] = (pa + d * 0.5 * end, q, rad, 0.5 * end)
        return d

    for side, ua, la, th, ca, fo in (("L", human.BONE_UPPERARM_L, human.BONE_LOWERARM_L,
                                       human.BONE_THIGH_L, human.BONE_CALF_L, human.BONE_FOOT_L),
                                      ("R", human.BONE_UPPERARM_R, human.BONE_LOWERARM_R,
                                       human.BONE_THIGH_R, human.BONE_CALF_R, human.BONE_FOOT_R)):
        limb(ua, f"UpperArm{side}", f"LowerArm{side}", (f"UpperArm{side}",))
        # the forearm's capsule reaches the fingertips (without a mesh, as the reference's:
        # 0.43 m from the elbow for a forearm of 0.24 m)
        limb(la, f"LowerArm{side}", f"Hand{side}", (f"LowerArm{side}",),
             tip_roles=(f"LowerArm{side}",), tip=lambda rad, length: length * 0.43 / 0.24 - rad)
        limb(th, f"Thigh{side}", f"Shin{side}", (f"Thigh{side}",))
        knee, ankle = P[f"Shin{side}"], P[f"Foot{side}"]
        vf = pts(f"Foot{side}")
        sole = float(vf[:, 1].min()) if vf is not None else 0.0
        if feet:
            limb(ca, f"Shin{side}", f"Foot{side}", (f"Shin{side}",))
            # the foot: a capsule along the figure's forward under the ankle, on the sole
            rad = max(0.5 * (ankle[1] - sole), 0.01 * k)
            if vf is not None:
                heel, toe = float(vf[:, 2].min()), float(vf[:, 2].max())
            else:
                heel, toe = ankle[2] - 0.08 * k, ankle[2] + 0.18 * k
            hs = max(0.5 * (toe - heel) - rad, 0.01 * k)
            centre = np.array([ankle[0], sole + rad, 0.5 * (heel + toe)])
            geo["bones"][fo] = (centre, np.array(human.BONE_REST_QUAT[fo]), rad, hs)
        else:
            # the calf's capsule reaches the sole (the foot's mass merged into it)
            def to_sole(rad, length, knee=knee, ankle=ankle, sole=sole):
                d = (ankle - knee) / np.linalg.norm(ankle - knee)
                return (knee[1] - sole - rad) / max(-d[1], 1e-3)
            limb(ca, f"Shin{side}", f"Foot{side}", (f"Shin{side}",), tip=to_sole)

    # --- joints at the rig's joints: each bone's joint is where its rig bone starts
    for b in range(1, len(BONE_ROLES)):
        if BONE_ROLES[b] in P:
            geo["joints"][b] = P[BONE_ROLES[b]]
    geo["rot"] = rot
    return geo


def _refit(r: Ragdoll, geo: dict[str, Any], origin: np.ndarray, yaw: float) -> None:
    """Reshape and move ``r``'s bodies to ``geo`` and rebuild its joints' frames there."""
    w = r.engine.physics
    e = r.engine
    rot = geo["rot"]
    qy = _qyaw(yaw)
    n = r.bones
    wp = np.zeros((n, 3))
    wq = np.zeros((n, 4))
    for b in range(n):
        centre, q, rad, hs = geo["bones"][b]
        wp[b] = origin + rot @ centre
        wq[b] = _qpos(_qmul(qy, q))
        s = int(r.bodies[b])
        h = w.handle(s)
        dims = (float(rad), float(hs), 0.0)
        w.bf[s, L.B_DIMS:L.B_DIMS + 3] = dims
        _, inert, radius = shape_mass(L.SHAPE_CAPSULE, dims)
        m = w.bf[s, L.B_MASS]
        w.bf[s, L.B_INV_I:L.B_INV_I + 3] = [1.0 / (m * i) for i in inert]
        if b == human.BONE_PELVIS:  # raised as the reference ragdoll's (human.py)
            w.bf[s, L.B_INV_I:L.B_INV_I + 3] /= human.PELVIS_INERTIA_SCALE
        w.bf[s, L.B_RADIUS] = radius
        B.set_position(e, h, wp[b])
        B.set_rotation(e, h, wq[b])
        B.set_velocity(e, h, (0.0, 0.0, 0.0))
        B.set_angular_velocity(e, h, (0.0, 0.0, 0.0))
    for b in range(1, n):
        j = int(r.joints[b])
        spec = human.JOINTS[b]
        parent = human.BONE_PARENT[b]
        qa, qb = wq[parent], wq[b]
        pa, pb = wp[parent], wp[b]
        point = origin + rot @ geo["joints"][b]
        if spec["kind"] == human.JOINT_KIND_BALL:
            centre = _qrot(qy, spec["centre"])
            fa = J.frame_from_axes(centre, _qrot(qy, spec["ref"]))
            along = _qrot(qb, human.BONE_ALONG_LOCAL[b])
            fb = _qmul(J.shortest_arc(centre, along), fa)
        else:
            fa = fb = J.frame_from_axes(_qrot(qy, spec["axis"]))
        jf = w.jf
        jf[j, L.J_PA:L.J_PA + 3] = _qrot(_qconj(qa), point - pa)
        jf[j, L.J_PB:L.J_PB + 3] = _qrot(_qconj(qb), point - pb)
        jf[j, L.J_QA:L.J_QA + 4] = _qmul(_qconj(qa), fa)
        jf[j, L.J_QB:L.J_QB + 4] = _qmul(_qconj(qb), fb)
        jf[j, L.J_TARGET:L.J_TARGET + 4] = _qpos(_qmul(_qconj(qa), qb))
        jf[j, L.J_L_POINT:L.J_L_LOCK + 2] = 0.0
    out = np.zeros((n - 1, 4))
    relative_rotations(w.bf, w.ji, r.joints[1:], out)
    r.rest_targets = out.copy()
    # unjointed bodies that overlap at rest never collide (as the reference's trunk and head)
    jointed = {(min(b, human.BONE_PARENT[b]), max(b, human.BONE_PARENT[b])) for b in range(1, n)}
    for a in range(n):
        for b in range(a + 1, n):
            if (a, b) in jointed:
                continue
            if _capsule_gap(w, int(r.bodies[a]), int(r.bodies[b])) < 0.005:
                w.ignore_pair(int(r.bodies[a]), int(r.bodies[b]))
    for s in r.bodies:
        w.wake(int(s))


def _capsule_gap(w: Any, a: int, b: int) -> float:
    """Distance (m) between two capsules' surfaces (negative: overlapping), sampled."""
    def seg(s):
        p = w.bf[s, L.B_POS:L.B_POS + 3]
        q = w.bf[s, L.B_QUAT:L.B_QUAT + 4]
        hs = w.bf[s, L.B_DIMS + 1]
        ax = _qrot(q, (0.0, 1.0, 0.0))
        return p - ax * hs, p + ax * hs, w.bf[s, L.B_DIMS]
    a0, a1, ra = seg(a)
    b0, b1, rb = seg(b)
    t = np.linspace(0.0, 1.0, 33)
    pa = a0[None] + (a1 - a0)[None] * t[:, None]
    pb = b0[None] + (b1 - b0)[None] * t[:, None]
    dist = np.linalg.norm(pa[:, None] - pb[None], axis=2).min()
    return float(dist - ra - rb)


def ragdoll_for_rig(e: Any, name: str, rig: Any, a: float = 8.0, b: float = 8.0,
                    fit: bool = True) -> Ragdoll:
    """A ragdoll made for a figure's rig (a Rig or a Figure), dressed in it.

    It is made where the rig's object stands (the ground at the root's height, under the hips
    of the rig's rest pose), turned to face the way the figure's feet point (its turn about
    +y), and scaled to the rig's height (the mesh's top, or the hips' height; masses with
    scale³, budgets with scale⁴). With ``fit`` (the default) its capsules are fitted to the
    rig's own proportions (see the module docstring); without, it is the reference ragdoll
    scaled. ``a``, ``b``: the joints' spring and the follow anchors' Hz (``physics.ragdoll``).
    The bodies stand in the rest pose; ``ragdoll_to_rig`` puts them on the rig's pose.

    ValueError for a rig in no humanoid naming (before anything is made)."""
    rg, fig = _rig_of(rig)
    _, roles = _roles(rg)  # a clear error before anything is made
    if fig is None:
        fig = _figure_of_rig(e, rg)
    world = _rest_world(rg)
    origin, yaw = _rig_frame(rg, world, roles)
    from ._ragdoll import _ankles
    feet = _ankles(e)
    geo = _fit_geometry(rg, roles, world, origin, yaw, fig, feet)
    check_fitted(name, origin, a, b, geo)  # before anything is made: a broken rig leaves none
    r = ragdoll(e, name, origin, a, b, geo["k"])
    if fit:
        _refit(r, geo, origin, yaw)
    else:
        # the reference, turned about its feet's centre under the pelvis to face the feet's way
        w = e.physics
        qy = _qyaw(yaw)
        for bb in range(r.bones):
            s = int(r.bodies[bb])
            p = w.bf[s, L.B_POS:L.B_POS + 3].copy()
            q = w.bf[s, L.B_QUAT:L.B_QUAT + 4].copy()
            h = w.handle(s)
            B.set_position(e, h, origin + _qrot(qy, p - origin))
            B.set_rotation(e, h, _qpos(_qmul(qy, q)))
    _dress(r, rg if fig is None else fig, align=not fit, fitted=fit)
    return r
