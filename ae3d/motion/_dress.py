"""Dressing a ragdoll in a figure's rig, and the two poses (spec: "Two poses", ``on_figure``).

A powered figure has two poses: the animation's, written to its rig by clips and read by its
muscles, and its bodies', written back into the rig for drawing. This module joins a ragdoll
(``physics.ragdoll``, or ``ragdoll_for_rig`` in ``_fit.py``) to a rig (``ae3d.figure``'s
``Rig``, or a Figure):

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

Where it lives. Physics knows rigs only as arrays handed to it (its ``_kernels_dress.py``); this
module, in motion, holds what joins a Ragdoll to a Rig. The dressing record rides on the ragdoll
(``Ragdoll.dressing``), so it lives and goes with it. ``ae3d.physics`` forwards its
``ragdoll_dress``, ``ragdoll_to_rig``... calls here, importing this module on first use.
"""

from __future__ import annotations

import math
from dataclasses import dataclass
from typing import Any

import numpy as np

from ae3d import human
from ae3d._math import mat_quat as _mat_quat
from ae3d._math import quat_conj as _qconj
from ae3d._math import quat_mul as _qmul
from ae3d._math import quat_pos as _qpos
from ae3d._math import quat_rot as _qrot
from ae3d.physics import _api_bodies as B
from ae3d.physics import _layout as L
from ae3d.physics._kernels_dress import bodies_from_world, draw_bodies, relative_targets
from ae3d.physics._ragdoll import Ragdoll, _check

__all__ = [
    "Dressing", "ragdoll_dress", "ragdoll_to_rig", "ragdoll_rig_targets", "ragdoll_to_rig_pose",
    "ragdoll_rig_bone", "ragdoll_dressed", "ragdoll_dressing", "ragdoll_animation_pose",
    "ragdoll_restore_rig", "ragdoll_rig_bodies", "BONE_ROLES",
]

#: The humanoid role (the pipeline's bone name) each ragdoll bone (``human.BONE_*``) wears.
BONE_ROLES = ("Hips", "Spine", "Chest", "Neck", "UpperArmL", "LowerArmL", "UpperArmR",
              "LowerArmR", "ThighL", "ShinL", "ThighR", "ShinR", "FootL", "FootR")


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



def _rig_of(rig: Any) -> tuple[Any, Any]:
    """(Rig, Figure or None) from a Rig or a Figure."""
    if hasattr(rig, "rig") and hasattr(rig, "model"):
        return rig.rig, rig
    if not (hasattr(rig, "translation") and hasattr(rig, "parents") and hasattr(rig, "world_of")):
        raise TypeError(f"rig must be a figure's Rig or a Figure, not {type(rig).__name__}")
    return rig, None




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
    r.dressing = d
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
    d = r.dressing
    if d is None:
        raise ValueError("this ragdoll is not dressed (physics.ragdoll_dress(r, rig))")
    return d


def ragdoll_dressed(r: Ragdoll) -> Any:
    """The rig ``r`` is dressed in, or None."""
    d = getattr(r, "dressing", None)
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


def _animation_into_rig(d: Dressing) -> None:
    """The animation's whole local pose back into the rig (after taking what it wrote since),
    and what the bodies wrote forgotten. The rig's world is not updated."""
    _sync(d)
    rig = d.rig
    rig.translation[:] = d.anim_t
    rig.rotation[:] = d.anim_q
    rig.scale[:] = d.anim_s  # _sync took the rig's scale: the same values
    d.written_t[:] = np.nan
    d.written_q[:] = np.nan


def ragdoll_restore_rig(r: Ragdoll) -> None:
    """Put the animation's pose back into the rig (the bodies' drawing undone) and update its
    world."""
    d = ragdoll_dressing(r)
    _animation_into_rig(d)
    d.rig.update_world()


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
    for b in range(r.bones):
        put_body(r.engine, w.handle(int(r.bodies[b])), p[b], q[b])


def put_body(e: Any, h: Any, p: Any, q: Any) -> None:
    """Teleport body ``h`` to position ``p`` (3,) m and rotation ``q`` (4,), at rest."""
    B.set_position(e, h, p)
    B.set_rotation(e, h, q)
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
    # the carried bones in the animation's pose, the dressed ones solved from their bodies
    _animation_into_rig(d)
    rig = d.rig
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
    d.written_t[mapped] = rig.translation[mapped]
    d.written_q[mapped] = rig.rotation[mapped]
