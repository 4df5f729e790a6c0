"""The reference ragdoll: twelve capsule bones (fourteen with feet) on ball joints and hinges, with
the calls the motion module drives it by.

``physics.ragdoll(e, name, position, a, b, scale)`` (the spec's ``physics.ragdoll(e, "Zombie",
position, 8.0, 8.0, 1.0)``):

* ``a`` is the joints' **spring** Hz (damping ratio 1): every joint is a spring toward its target
  (the rest pose until driven), its torque capped at the joint's budget times the strength. The
  spec's animated figures use 8 Hz. 0 makes a ragdoll without springs.
* ``b`` is the **follow anchors'** Hz (damping ratio 1): ``ragdoll_follow`` holds bones to world
  poses (an ANIMATED figure's bodies following their animation) at this rate. The spec's 8.0.
* ``scale`` scales the whole figure (1.0: 1.80 m, 78 kg; masses go with scale³).

Frames, masses, ranges and budgets come from ``ae3d.human`` (see its docstring: the figure faces
+Z, its left is +X, the pelvis's up is its local +x). The ragdoll is built standing with its feet
on ``position``'s height and ``position``'s x, z under its pelvis.

Sub-steps: every unparked ragdoll counts in the world's ``powered``, so the world steps 8 sub-steps
while it holds one, powered or limp (the spec asks 8 for powered figures; measured here, a limp
ragdoll struck by 2-6 m/s blows passed its limits by 7-10 degrees at 4 sub-steps and under 3 at 8).

State: a ragdoll starts **unpowered** (motors off; joint friction, a tenth of each budget times
the strength, acting; springs at ``a``). ``ragdoll_set_powered(r, True)`` turns its motors on
(each joint's budget times its strength) and its springs off. The motors drive toward the
targets (``ragdoll_drive``; the rest pose at first), each sub-step asking for the relative angular
velocity that closes the gap in 50 ms, capped at 20 rad/s.
"""

from __future__ import annotations

import os
from dataclasses import dataclass, field
from typing import Any

import numpy as np

from .. import _validate as V
from .. import human
from . import _api_joints as J
from . import _layout as L
from ._kernels_joints import (
    clamp_swing_twist,
    joints_past_limits,
    relative_rotations,
    set_drive_targets,
)

__all__ = [
    "Ragdoll", "ragdoll", "set_ankles", "ragdoll_destroy", "ragdoll_park", "ragdoll_unpark",
    "ragdoll_is_parked", "ragdoll_aim", "ragdoll_clear_aim", "ragdoll_clear_aims",
    "ragdoll_hold_shape", "ragdoll_plant", "ragdoll_within_cone", "ragdoll_set_powered",
    "ragdoll_set_strength", "ragdoll_drive", "ragdolls_drive", "ragdoll_rest_targets",
    "ragdoll_local_rotations",
    "ragdoll_set_balance", "ragdoll_set_heading", "ragdoll_body", "ragdoll_bodies",
    "ragdoll_joint", "ragdoll_follow", "ragdoll_unfollow", "ragdoll_limit_errors",
    "ragdoll_pose", "ragdoll_bone_count",
]

_ids = iter(range(1, 1 << 62))


@dataclass(eq=False)
class Ragdoll:
    """A handle to a reference ragdoll. Read-only for callers; use the ragdoll_* calls.

    bodies: (n,) body slots per bone (``human.BONE_*``); joints: (n,) joint rows (-1: the pelvis);
    bones: n (12, or 14 with feet).
    """

    engine: Any
    name: str
    id: int
    feet: bool
    scale: float
    spring_hz: float
    follow_hz: float
    bodies: np.ndarray
    joints: np.ndarray
    budgets: np.ndarray          # (n,) N·m at full strength
    strength: np.ndarray         # (n,) 0..1 per bone
    powered: bool = False
    parked: bool = False
    destroyed: bool = False
    upright: int = -1            # the pelvis's upright anchor (cap 0 until set_balance)
    heading: int = -1            # the pelvis's heading anchor (cap 0 until set_heading)
    plants: dict = field(default_factory=dict)    # bone -> anchor
    follows: dict = field(default_factory=dict)   # bone -> anchor
    rest_targets: np.ndarray = field(default_factory=lambda: np.zeros((0, 4)))
    _joint_bones: np.ndarray = field(default_factory=lambda: np.zeros(0, dtype=np.int64))
    dressing: Any = None         # the rig it wears: motion's record (ae3d.motion._dress), or None

    @property
    def bones(self) -> int:
        return int(self.bodies.shape[0])

    def __repr__(self) -> str:
        return f"Ragdoll({self.name!r}, id={self.id}, bones={self.bones})"


def set_ankles(e, on: bool) -> None:
    """Give every ragdoll made afterwards in engine ``e`` feet on ankle joints (the spec's
    physics_set_ankles); ``AE3D_ANKLES=1`` in the environment does it for a whole run."""
    if getattr(e, "physics", None) is None:
        raise ValueError("e must be an open Engine")
    e.services["physics.ankles"] = V.boolean(on, "on")


def _ankles(e) -> bool:
    v = e.services.get("physics.ankles")
    if v is None:
        return os.environ.get("AE3D_ANKLES", "") == "1"
    return bool(v)


def _qmul(a, b):
    return J._qmul(a, b)


def _check(r: Ragdoll) -> Any:
    if not isinstance(r, Ragdoll):
        raise TypeError(f"r must be a Ragdoll, not {type(r).__name__}")
    if r.destroyed:
        raise ValueError("this ragdoll was destroyed")
    if r.engine.physics is None:
        raise ValueError("the ragdoll's engine is closed")
    return r.engine.physics


def _bone(r: Ragdoll, bone) -> int:
    if isinstance(bone, bool) or not isinstance(bone, (int, np.integer)):
        raise ValueError("bone must be a human.BONE_* constant")
    b = int(bone)
    if b < 0 or b >= r.bones:
        raise ValueError(f"bone {b} is not a bone of this ragdoll ({r.bones} bones)")
    return b


def _wake_all(w, r: Ragdoll) -> None:
    if r.parked:
        return
    asleep = r.bodies[w.bi[r.bodies, L.B_AWAKE] == 0]
    for s in asleep:
        w.wake(int(s))
    w.bf[r.bodies, L.B_SLEEP_TIME] = 0.0


def ragdoll(e, name: str, position, a: float = 8.0, b: float = 8.0, scale: float = 1.0) -> Ragdoll:
    """Build the reference ragdoll standing at ``position`` (m: its feet's height, its pelvis over
    x, z), facing +Z. ``a``: the joints' spring Hz; ``b``: the follow anchors' Hz; ``scale``: size
    (1.0 = 1.80 m, 78 kg). Returns its handle. See the module docstring."""
    w = getattr(e, "physics", None)
    if w is None:
        raise ValueError("e must be an open Engine")
    pos, a, b, scale = check_ragdoll_args(name, position, a, b, scale)
    feet = _ankles(e)
    n = human.BONE_COUNT_FEET if feet else human.BONE_COUNT
    mass = human.MASS * scale ** 3
    bodies = np.full(n, -1, dtype=np.int64)
    rest_q = np.zeros((n, 4))
    rest_p = np.zeros((n, 3))
    for bone in range(n):
        (cx, cy, cz), q, (rad, hs) = human.bone_rest(bone, feet)
        p = pos + scale * np.array([cx, cy, cz])
        rest_p[bone] = p
        rest_q[bone] = q
        bodies[bone] = w.add_body(L.KIND_DYNAMIC, L.SHAPE_CAPSULE, (scale * rad, scale * hs, 0.0),
                                  p, q, mass=human.bone_mass(bone, feet, mass), friction=0.9)
        if bone == human.BONE_PELVIS:
            w.bf[bodies[bone], L.B_INV_I:L.B_INV_I + 3] /= human.PELVIS_INERTIA_SCALE
    joints = np.full(n, -1, dtype=np.int64)
    budgets = np.zeros(n)
    for bone in range(1, n):
        spec = human.JOINTS[bone]
        parent = human.BONE_PARENT[bone]
        pa, pb = int(bodies[parent]), int(bodies[bone])
        point = pos + scale * np.array(spec["point"])
        if spec["kind"] == human.JOINT_KIND_BALL:
            fa = J.frame_from_axes(spec["centre"], spec["ref"])
            along = J._qrot(rest_q[bone], human.BONE_ALONG_LOCAL[bone])
            fb = _qmul(J.shortest_arc(spec["centre"], along), fa)
            j = J.ball_joint(e, pa, pb, point, fa, fb, swing=(spec["half_y"], spec["half_z"]),
                             twist=spec["twist"])
        else:
            j = J.hinge_joint(e, pa, pb, point, spec["axis"], spec["range"][0], spec["range"][1])
        joints[bone] = j
        budgets[bone] = human.BUDGETS[bone] * scale ** 4  # torque ~ m g l ~ scale^4
        w.ji[j, L.J_OWNER] = 0
    # bodies that never collide: the joined pairs (done by the joints), and pairs that can't touch
    for p_, q_ in ((human.BONE_PELVIS, human.BONE_SPINE_03), (human.BONE_SPINE_01, human.BONE_NECK),
                   (human.BONE_PELVIS, human.BONE_NECK)):
        w.ignore_pair(int(bodies[p_]), int(bodies[q_]))
    r = Ragdoll(engine=e, name=name, id=next(_ids), feet=feet, scale=scale, spring_hz=a,
                follow_hz=b, bodies=bodies, joints=joints, budgets=budgets,
                strength=np.ones(n))
    for bone in range(1, n):
        w.ji[joints[bone], L.J_OWNER] = r.id
    r._joint_bones = np.arange(1, n, dtype=np.int64)
    out = np.zeros((n - 1, 4))
    relative_rotations(w.bf, w.ji, joints[1:], out)
    r.rest_targets = out.copy()
    # the pelvis's balance and heading anchors, off (cap 0) until asked for
    pelvis = int(bodies[human.BONE_PELVIS])
    r.upright = J.upright_anchor(e, pelvis, 0.0, up=human.BONE_UP_LOCAL[human.BONE_PELVIS])
    r.heading = J.heading_anchor(e, pelvis, 0.0, 0.0,
                                 forward=human.BONE_FORWARD_LOCAL[human.BONE_PELVIS])
    for k in (r.upright, r.heading):
        w.ai[k, L.A_OWNER] = r.id
    _apply_strength(w, r)
    _powered_count(w, 1)
    reg = e.services.setdefault("physics.ragdolls", {})
    reg[r.id] = r
    return r


def check_ragdoll_args(name, position, a, b, scale) -> tuple[np.ndarray, float, float, float]:
    """``ragdoll``'s arguments checked (the dressing checks a fitted figure's with it, before it
    makes one): (position (3,) m, a Hz, b Hz, scale). The figure stands within the world's
    extent, its scale within [MIN_RAGDOLL_SCALE, MAX_RAGDOLL_SCALE]."""
    V.text(name, "name")
    pos = V.position(position, "position")
    a = V.nonneg(a, "a", unit="Hz")
    b = V.nonneg(b, "b", unit="Hz")
    scale = V.real(scale, "scale", lo_limit="MIN_RAGDOLL_SCALE", hi_limit="MAX_RAGDOLL_SCALE")
    # its head: the figure is 1.80 m tall at scale 1
    V.position(pos + (0.0, 1.8 * scale, 0.0), "position (the figure's top)")
    return pos, a, b, scale


def check_fitted(name, origin, a, b, geo) -> None:
    """A ragdoll fitted to a rig (``ragdoll_for_rig``), checked before it is made: ``ragdoll``'s
    arguments with the fitted scale, and every fitted capsule and joint finite, within the
    world's extent and of a size the world takes. A rig whose numbers are broken (NaN inverse
    binds, a bone 1e30 m away) is refused here, leaving nothing in the world."""
    check_ragdoll_args(name, origin, a, b, geo["k"])
    rot = np.asarray(geo["rot"], dtype=np.float64)
    if rot.shape != (3, 3) or not np.all(np.isfinite(rot)):
        raise ValueError("the rig's frame is not finite (its rest pose or skin has NaN numbers)")
    for k, (centre, q, rad, hs) in geo["bones"].items():
        what = f"the rig's {human.BONE_NAMES[k]} (fitted from its rest pose and skin)"
        V.position(np.asarray(origin) + rot @ np.asarray(centre, dtype=np.float64),
                   f"{what} position")
        V.quaternion(q, f"{what} rotation")
        V.real(rad, f"{what} radius", unit="m", lo_limit="MIN_SIZE", hi_limit="MAX_SIZE")
        V.real(hs, f"{what} half length", lo=0.0, unit="m", hi_limit="MAX_SIZE")
    for k, p in geo["joints"].items():
        if p is not None:
            V.position(np.asarray(origin) + rot @ np.asarray(p, dtype=np.float64),
                       f"the rig's {human.BONE_NAMES[k]} joint")


def _apply_strength(w, r: Ragdoll) -> None:
    """Budgets (motors on only while powered), spring caps and friction from the strengths."""
    for bone in range(1, r.bones):
        j = int(r.joints[bone])
        s = float(r.strength[bone])
        full = float(r.budgets[bone])
        w.jf[j, L.J_MOTOR_MAX] = full * s if r.powered else 0.0
        if not r.powered:
            w.jf[j, L.J_L_MOTOR:L.J_L_MOTOR + 3] = 0.0
        # friction (acting while the motor is off): a tenth of the budget, times the strength;
        # a limp part (strength 0) keeps a tenth of it
        w.jf[j, L.J_FRICTION] = full * human.FRICTION_SHARE * max(s, human.LIMP_FRICTION_SHARE)
        # the springs hold an unpowered figure's shape; powered, the motors do (a spring's
        # stiffness scales with two bones' small inertia: it sags, spec "A joint's muscle")
        w.jf[j, L.J_SPRING_HZ] = r.spring_hz if (s > 0.0 and not r.powered) else 0.0
        w.jf[j, L.J_SPRING_ZETA] = 1.0
        w.jf[j, L.J_SPRING_MAX] = full * s
        if w.jf[j, L.J_SPRING_HZ] == 0.0:
            w.jf[j, L.J_L_SPRING:L.J_L_SPRING + 3] = 0.0
        if w.ji[j, L.J_DRIVE] == L.DRIVE_VELOCITY:
            w.ji[j, L.J_DRIVE] = L.DRIVE_POSE
            w.jf[j, L.J_DRIVE_TIME] = human.DRIVE_TIME
            w.jf[j, L.J_DRIVE_MAX_W] = human.DRIVE_MAX_SPEED


def _powered_count(w, delta: int) -> None:
    w.powered = max(0, int(w.powered) + delta)


def ragdoll_set_powered(r: Ragdoll, on: bool) -> None:
    """Motors on (each joint's budget times its strength, driving toward its target) or off (joint
    friction only, springs at the ragdoll's ``a`` Hz)."""
    w = _check(r)
    r.powered = V.boolean(on, "on")
    _apply_strength(w, r)
    _wake_all(w, r)


def ragdoll_set_strength(r: Ragdoll, strength, bone: int | None = None) -> None:
    """Scale the budgets (and spring caps) by ``strength`` in [0, 1] (0: limp, keeping a tenth of
    the joint friction), for every bone or one ``bone``."""
    w = _check(r)
    s = V.real(strength, "strength", lo=0.0, hi=1.0)
    b = None if bone is None else _bone(r, bone)
    if b is None:
        r.strength[:] = s
    else:
        r.strength[b] = s
    _apply_strength(w, r)
    _wake_all(w, r)


def ragdoll_drive(r: Ragdoll, targets, budgets=None) -> None:
    """Set every joint's motor target in one call: ``targets`` (n, 4) body-relative rotations
    (qparent^-1 qbone) per bone (row 0, the pelvis, is ignored), ``budgets`` (n,) N·m or None (the
    full budget times the strength while powered). Each step the motor closes the gap in 50 ms,
    capped at 20 rad/s (one njit call; a bone aimed keeps its aim)."""
    w = _check(r)
    t = V.array(targets, "targets", (r.bones, 4))
    if np.any(np.linalg.norm(t[1:], axis=1) < 1e-9):
        raise ValueError("targets must be non-zero quaternions")
    if budgets is None:
        bud = r.budgets[1:] * r.strength[1:] if r.powered else np.zeros(r.bones - 1)
    else:
        bb = V.array(budgets, "budgets", (r.bones,))
        if np.any(bb < 0):
            raise ValueError(f"budgets must be ({r.bones},) finite and >= 0")
        bud = bb[1:]
    changed = set_drive_targets(w.jf, w.ji, r.joints[1:], np.ascontiguousarray(t[1:]),
                                np.ascontiguousarray(bud), human.DRIVE_TIME,
                                human.DRIVE_MAX_SPEED, 0.0)
    if changed:
        _wake_all(w, r)


def ragdolls_drive(rs, targets, budgets=None) -> None:
    """``ragdoll_drive`` for many ragdolls of one engine in one njit call: ``targets`` (k, n, 4)
    (or (n, 4), the same for all), ``budgets`` (k, n) N·m or None (full budget times strength
    while powered). The motion module's per-step call."""
    if not rs:
        return
    w = _check(rs[0])
    n = rs[0].bones
    k = len(rs)
    shape = (n, 4) if np.shape(targets) == (n, 4) else (k, n, 4)
    t = V.array(targets, "targets", shape)
    if np.any(np.linalg.norm(t[..., 1:, :], axis=-1) < 1e-9):
        raise ValueError("targets must be non-zero quaternions")
    if t.shape == (n, 4):
        t = np.broadcast_to(t, (k, n, 4))
    joints = np.empty(k * (n - 1), dtype=np.int64)
    bud = np.empty(k * (n - 1))
    for i, r in enumerate(rs):
        if r.engine is not rs[0].engine or r.bones != n or r.destroyed:
            raise ValueError("rs must be live ragdolls of one engine with the same bones")
        joints[i * (n - 1):(i + 1) * (n - 1)] = r.joints[1:]
        if budgets is None:
            bud[i * (n - 1):(i + 1) * (n - 1)] = (r.budgets[1:] * r.strength[1:] if r.powered
                                                  else 0.0)
    if budgets is not None:
        bb = V.array(budgets, "budgets", (k, n))
        if np.any(bb < 0):
            raise ValueError(f"budgets must be ({k}, {n}) finite and >= 0")
        bud[:] = bb[:, 1:].reshape(-1)
    quats = np.ascontiguousarray(t[:, 1:, :].reshape(-1, 4))
    if set_drive_targets(w.jf, w.ji, joints, quats, bud, human.DRIVE_TIME,
                         human.DRIVE_MAX_SPEED, 0.0):
        # changed targets keep a figure awake (spec: a powered figure whose targets change)
        live = [r.bodies for r in rs if not r.parked]
        if live:
            allb = np.concatenate(live)
            for s in allb[w.bi[allb, L.B_AWAKE] == 0]:
                w.wake(int(s))
            w.bf[allb, L.B_SLEEP_TIME] = 0.0


def ragdoll_rest_targets(r: Ragdoll) -> np.ndarray:
    """(n, 4) the body-relative rotations of the standing pose (row 0: identity)."""
    _check(r)
    out = np.zeros((r.bones, 4))
    out[0, 3] = 1.0
    out[1:] = r.rest_targets
    return out


def ragdoll_local_rotations(r: Ragdoll) -> np.ndarray:
    """(n, 4) every bone's body-relative rotation now (qparent^-1 qbone; row 0 the pelvis's world
    rotation)."""
    w = _check(r)
    out = np.zeros((r.bones, 4))
    relative_rotations(w.bf, w.ji, r.joints[1:], out[1:])
    out[0] = w.bf[int(r.bodies[0]), L.B_QUAT:L.B_QUAT + 4]
    return out


def ragdoll_pose(r: Ragdoll) -> tuple[np.ndarray, np.ndarray]:
    """((n, 3) positions m, (n, 4) rotations) of every bone's body in the world."""
    w = _check(r)
    s = r.bodies
    return w.bf[s, L.B_POS:L.B_POS + 3].copy(), w.bf[s, L.B_QUAT:L.B_QUAT + 4].copy()


def ragdoll_bone_count(r: Ragdoll) -> int:
    return r.bones


def ragdoll_body(r: Ragdoll, bone: int):
    """The physics body handle of ``bone``."""
    w = _check(r)
    return w.handle(int(r.bodies[_bone(r, bone)]))


def ragdoll_bodies(r: Ragdoll) -> np.ndarray:
    """(n,) body slots, per bone."""
    _check(r)
    return r.bodies.copy()


def ragdoll_joint(r: Ragdoll, bone: int) -> int:
    """The joint handle of ``bone`` (joining it to its parent); -1 for the pelvis."""
    _check(r)
    return int(r.joints[_bone(r, bone)])


def ragdoll_limit_errors(r: Ragdoll) -> np.ndarray:
    """(n, 3): per bone, rad past its twist/hinge limit, past its cone, and its twist/hinge angle
    now (row 0, the pelvis, zeros)."""
    w = _check(r)
    out = np.zeros((r.bones, 3))
    joints_past_limits_rows(w, r, out)
    return out


def joints_past_limits_rows(w, r: Ragdoll, out: np.ndarray) -> None:
    tmp = np.zeros((w.nj, 3))
    joints_past_limits(w.bf, w.jf, w.ji, 0, w.nj, tmp)
    out[1:] = tmp[r.joints[1:]]


def ragdoll_set_balance(r: Ragdoll, max_torque: float = human.BALANCE_TORQUE) -> None:
    """The pelvis's upright anchor: its up held to the world's up, rigid within ``max_torque`` N·m
    (1,200), its turn about the vertical free. 0 lets go entirely (no impulse left over)."""
    w = _check(r)
    J.anchor_set_cap(r.engine, r.upright, max_torque)
    _wake_all(w, r)


def ragdoll_set_heading(r: Ragdoll, heading: float | None,
                        max_torque: float = human.HEADING_TORQUE) -> None:
    """Hold the pelvis's turn about the vertical toward ``heading`` (rad about +y from +z) within
    ``max_torque`` N·m (60); None lets it go."""
    w = _check(r)
    if heading is None:
        J.anchor_set_cap(r.engine, r.heading, 0.0)
    else:
        V.real(heading, "heading")
        V.nonneg(max_torque, "max_torque", unit="N·m")
        J.anchor_set_heading(r.engine, r.heading, heading)
        J.anchor_set_cap(r.engine, r.heading, max_torque)
    _wake_all(w, r)


def ragdoll_aim(r: Ragdoll, bone: int, rotation) -> None:
    """Drive ``bone``'s joint to hold the bone at the world ``rotation`` from wherever its parent
    is (the bones below keep their targets relative to it)."""
    _check(r)
    b = _bone(r, bone)
    if b == human.BONE_PELVIS:
        raise ValueError("the pelvis has no joint to aim with")
    J.joint_set_aim(r.engine, int(r.joints[b]), rotation)


def ragdoll_clear_aim(r: Ragdoll, bone: int) -> None:
    """Hand ``bone`` back to its target (the animation's pose)."""
    _check(r)
    b = _bone(r, bone)
    if b != human.BONE_PELVIS:
        J.joint_set_aim(r.engine, int(r.joints[b]), None)


def ragdoll_clear_aims(r: Ragdoll) -> None:
    """Hand every aimed bone back to its target."""
    _check(r)
    for b in range(1, r.bones):
        J.joint_set_aim(r.engine, int(r.joints[b]), None)


def ragdoll_hold_shape(r: Ragdoll, share: float) -> None:
    """Every joint holds the shape it has now on ``share`` of its budget, braking within 0.02 rad
    of it rather than chasing it (aims cleared). Motors on; ``ragdoll_drive`` replaces it."""
    w = _check(r)
    s = V.real(share, "share", lo=0.0, hi=1.0)
    cur = np.zeros((r.bones - 1, 4))
    relative_rotations(w.bf, w.ji, r.joints[1:], cur)
    for b in range(1, r.bones):
        j = int(r.joints[b])
        if w.ji[j, L.J_DRIVE] == L.DRIVE_AIM:
            w.ji[j, L.J_DRIVE] = L.DRIVE_POSE
    set_drive_targets(w.jf, w.ji, r.joints[1:], cur, r.budgets[1:] * s, human.DRIVE_TIME,
                      human.DRIVE_MAX_SPEED, human.HOLD_BRAKE)
    _wake_all(w, r)


def ragdoll_plant(r: Ragdoll, bone: int, pose) -> int:
    """Plant ``bone`` (a foot, or a calf without feet) at ``pose`` = (position (3,) m, rotation
    (4,)) with a 30 Hz anchor (critically damped); None lifts it. Returns the anchor or -1."""
    _check(r)
    b = _bone(r, bone)
    if pose is not None:
        pp, pq = V.pair(pose, "pose")
        p = V.position(pp, "pose position")
        q = V.quaternion(pq, "pose rotation")
    old = r.plants.pop(b, None)
    if old is not None:
        J.anchor_destroy(r.engine, old)
    if pose is None:
        return -1
    k = J.anchor(r.engine, int(r.bodies[b]), p, q, hertz=human.PLANT_HZ, damping_ratio=1.0)
    r.engine.physics.ai[k, L.A_OWNER] = r.id
    r.plants[b] = k
    return k


def ragdoll_follow(r: Ragdoll, bone: int, pose, velocity=(0.0, 0.0, 0.0),
                   angular_velocity=(0.0, 0.0, 0.0)) -> int:
    """Hold ``bone`` to the world ``pose`` = (position, rotation) with a follow anchor at the
    ragdoll's ``b`` Hz (critically damped), made on first use and moved after. Returns it."""
    _check(r)
    b = _bone(r, bone)
    pp, pq = V.pair(pose, "pose")
    p = V.position(pp, "pose position")
    q = V.quaternion(pq, "pose rotation")
    V.vector(velocity, "velocity", unit="m/s", limit="MAX_SPEED")
    V.vector(angular_velocity, "angular_velocity", unit="rad/s", limit="MAX_ANGULAR_SPEED")
    k = r.follows.get(b)
    if k is None:
        k = J.anchor(r.engine, int(r.bodies[b]), p, q, hertz=r.follow_hz, damping_ratio=1.0)
        r.engine.physics.ai[k, L.A_OWNER] = r.id
        r.follows[b] = k
    J.anchor_set_target(r.engine, k, p, q, velocity, angular_velocity)
    return k


def ragdoll_unfollow(r: Ragdoll, bone: int | None = None) -> None:
    """Destroy the follow anchor of ``bone`` (every bone's if None): nothing of it stays."""
    _check(r)
    bones = list(r.follows) if bone is None else [_bone(r, bone)]
    for b in bones:
        k = r.follows.pop(b, None)
        if k is not None:
            J.anchor_destroy(r.engine, k)


def ragdoll_within_cone(r: Ragdoll, bone: int, rotation) -> np.ndarray:
    """The body-relative ``rotation`` (qparent^-1 qbone) wanted for ``bone``, brought within its
    joint's limits: radially within the elliptical cone about the cone's own centre, and within
    the twist (a hinge: onto its axis and within its range). Returns (4,)."""
    w = _check(r)
    b = _bone(r, bone)
    if b == human.BONE_PELVIS:
        raise ValueError("the pelvis has no joint")
    q = J._quat(rotation, "rotation")
    j = int(r.joints[b])
    fa = w.jf[j, L.J_QA:L.J_QA + 4]
    fb = w.jf[j, L.J_QB:L.J_QB + 4]
    rel = _qmul(J._qconj(fa), _qmul(q, fb))
    lo, hi = w.jf[j, L.J_TWIST_LO], w.jf[j, L.J_TWIST_HI]
    if w.ji[j, L.J_KIND] == L.JOINT_HINGE:
        c = clamp_swing_twist(tuple(rel), 1e-9, 1e-9, lo, hi)
    else:
        c = clamp_swing_twist(tuple(rel), w.jf[j, L.J_SWING_Y], w.jf[j, L.J_SWING_Z], lo, hi)
    out = _qmul(fa, _qmul(np.array(c), J._qconj(fb)))
    return -out if out[3] < 0 else out


def ragdoll_park(r: Ragdoll) -> None:
    """Take every body and anchor of the ragdoll out of the world where they are: no contacts, no
    solver time. It stops counting as powered."""
    w = _check(r)
    if r.parked:
        return
    for s in r.bodies:
        w.park_body(int(s))
    _powered_count(w, -1)
    r.parked = True


def ragdoll_unpark(r: Ragdoll) -> None:
    """Put a parked ragdoll back where it was (awake), its anchors with it."""
    w = _check(r)
    if not r.parked:
        return
    for s in r.bodies:
        w.unpark_body(int(s))
    r.parked = False
    _powered_count(w, 1)
    _wake_all(w, r)


def ragdoll_is_parked(r: Ragdoll) -> bool:
    return bool(r.parked)


def ragdoll_destroy(r: Ragdoll) -> None:
    """Take the ragdoll out of the world: its anchors, joints and bodies. The handle goes stale."""
    w = _check(r)
    e = r.engine
    for k in list(r.plants.values()) + list(r.follows.values()) + [r.upright, r.heading]:
        if k >= 0 and J.anchor_exists(e, k):
            J.anchor_destroy(e, k)
    for j in r.joints[1:]:
        if J.joint_exists(e, int(j)):
            J.joint_destroy(e, int(j))
    for s in r.bodies:
        w.remove_body(int(s))
    if not r.parked:
        _powered_count(w, -1)
    r.destroyed = True
    e.services.get("physics.ragdolls", {}).pop(r.id, None)
