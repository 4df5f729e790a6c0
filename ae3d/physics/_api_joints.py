"""Joints (ball, hinge) with limits, friction, springs and torque-capped motors; anchors (a body
held to the world: position and orientation springs, upright-only, heading hold).

Every call takes the engine first. Handles are int slots of the world's joint / anchor tables.
Units: m, kg, s, N, N·m, radians; quaternions (x, y, z, w); Y up.

Joint frames. A joint holds body ``b`` (the child) to body ``a`` (the parent, or -1 for the world)
at a world ``point``. Its frame is a world rotation whose x axis is the ball's twist axis and the
cone's centre, or the hinge's axis. ``frame`` is that frame on the parent, ``child_frame`` on the
child (by default the same: the joint is at rest now, the centre of its cone). Giving a child
frame turned from the parent's makes a cone that is not centred on the child bone (the hips'). The
swing cone is an ellipse of half-angles ``swing=(about y, about z)`` of the frame; twist limits are
about the child's x axis. Targets (spring, pose drive) are body-relative rotations ``qa^-1 qb``.

A motor is a hard velocity constraint: the relative angular velocity it is asked for, held with no
more than its torque budget (N·m; a ball joint's 3-vector in norm, a hinge's about its axis).
Friction is a motor toward zero with a small cap; it acts while the motor's budget is 0.
"""

from __future__ import annotations

import math
from typing import Any

import numpy as np

from ae3d import _validate as V
from ae3d import limits as LIM
from ae3d._math import mat_to_quat
from ae3d._math import quat_conj as _qconj
from ae3d._math import quat_mul as _qmul
from ae3d._math import quat_rot as _qrot

from . import _layout as L
from ._kernels_anchors import anchor_force_torque
from ._kernels_joints import joint_state, quat_from_rotvec

__all__ = [
    "ball_joint", "hinge_joint", "joint_destroy", "joint_set_limits", "joint_set_motor",
    "joint_set_drive", "joint_set_aim", "joint_set_spring", "joint_set_friction",
    "joint_motor_torque", "joint_spring_torque", "joint_angles", "joint_relative_rotation",
    "joint_exists",
    "anchor", "upright_anchor", "heading_anchor", "anchor_set_target", "anchor_set_spring",
    "anchor_set_cap", "anchor_set_heading", "anchor_set_nothing", "anchor_destroy",
    "anchor_force", "anchor_torque", "anchor_exists",
    "JOINT_HZ", "JOINT_ZETA",
]

JOINT_HZ = 60.0    # Hz of a joint's rigid parts when violated (Box2D's joint softness)
JOINT_ZETA = 2.0   # their damping ratio
UPRIGHT_HZ = 60.0  # Hz of the upright and heading anchors' rigid rows when violated
UPRIGHT_ZETA = 1.0


# ------------------------------------------------------------------------------ helpers
def _world(e: Any):
    w = getattr(e, "physics", None)
    if w is None:
        raise ValueError("e must be an open Engine with a physics world")
    return w


def _vec(v, name: str, n: int = 3, max_norm: float | None = None, unit: str = "") -> np.ndarray:
    return V.vector(v, name, n, max_norm=max_norm, unit=unit)


def _quat(q, name: str) -> np.ndarray:
    return V.quaternion(q, name)


def _num(x, name: str, lo: float | None = None, hi: float | None = None) -> float:
    return V.real(x, name, lo=lo, hi=hi)


def _cap(x, name: str) -> float:
    """A torque or force cap: a real number >= 0, infinity allowed (no cap)."""
    if isinstance(x, bool | np.bool_) or not isinstance(x, int | float | np.integer | np.floating):
        raise TypeError(f"{name} must be a real number, not {type(x).__name__}")
    v = float(x)
    if math.isnan(v) or v < 0.0:
        raise ValueError(f"{name} must be >= 0 (inf: no cap), not {v}")
    return v


def _body_pose(w, b: int):
    if b < 0:
        return np.zeros(3), np.array([0.0, 0.0, 0.0, 1.0])
    return w.bf[b, L.B_POS:L.B_POS + 3].copy(), w.bf[b, L.B_QUAT:L.B_QUAT + 4].copy()


def _check_body(w, b, name: str, allow_world: bool = False) -> int:
    """The slot of a body given as a Body handle or an int slot (-1: the world, if allowed)."""
    if hasattr(b, "slot") and hasattr(b, "gen"):
        return int(w.slot_of(b, name))
    if isinstance(b, bool) or not isinstance(b, (int, np.integer)):
        raise TypeError(f"{name} must be a body handle, not {type(b).__name__}")
    b = int(b)
    if b == -1 and allow_world:
        return -1
    if b < 0 or b >= int(w.n) or w.bi[b, L.B_KIND] == L.KIND_FREE:
        raise ValueError(f"{name} is not a body of this world")
    return b


def _wake(w, b: int) -> None:
    if b < 0:
        return
    if not w.bi[b, L.B_PARKED]:
        w.wake(b)


def _new_joint(w) -> int:
    j = int(w.alloc_joint())
    w.ji[j, L.J_OWNER] = -1
    return j


def _new_anchor(w) -> int:
    k = int(w.alloc_anchor())
    w.ai[k, L.A_OWNER] = -1
    return k


def _joint(w, j) -> int:
    if isinstance(j, bool) or not isinstance(j, (int, np.integer)):
        raise TypeError(f"joint must be a joint handle (int), not {type(j).__name__}")
    j = int(j)
    if j < 0 or j >= w.nj or w.ji[j, L.J_KIND] == L.JOINT_FREE:
        raise ValueError(f"joint {j} is not a joint of this world (destroyed or never made)")
    return j


def _anchor(w, k) -> int:
    if isinstance(k, bool) or not isinstance(k, (int, np.integer)):
        raise TypeError(f"anchor must be an anchor handle (int), not {type(k).__name__}")
    k = int(k)
    if k < 0 or k >= w.na or w.ai[k, L.A_KIND] == L.ANCHOR_FREE:
        raise ValueError(f"anchor {k} is not an anchor of this world (destroyed or never made)")
    return k


def _wake_joint(w, j: int) -> None:
    _wake(w, int(w.ji[j, L.J_BODY_A]))
    _wake(w, int(w.ji[j, L.J_BODY_B]))


def _ignore(w, a: int, b: int) -> None:
    if a >= 0 and b >= 0:
        f = getattr(w, "ignore_pair", None)
        if f is not None:
            f(a, b)


def _unignore(w, a: int, b: int) -> None:
    if a >= 0 and b >= 0:
        f = getattr(w, "unignore_pair", None)
        if f is not None:
            f(a, b)


def frame_from_axes(x, ref=None) -> np.ndarray:
    """A rotation whose x axis is ``x`` and whose z axis is ``ref`` made perpendicular to it."""
    x = np.asarray(x, dtype=np.float64)
    x = x / np.linalg.norm(x)
    if ref is None:
        ref = (0.0, 1.0, 0.0) if abs(x[1]) < 0.9 else (1.0, 0.0, 0.0)
    z = np.asarray(ref, dtype=np.float64)
    z = z - x * np.dot(z, x)
    if np.linalg.norm(z) < 1e-9:
        z = np.array([0.0, 0.0, 1.0]) if abs(x[2]) < 0.9 else np.array([1.0, 0.0, 0.0])
        z = z - x * np.dot(z, x)
    z = z / np.linalg.norm(z)
    y = np.cross(z, x)
    return mat_to_quat(np.column_stack([x, y, z]))


def shortest_arc(u, v) -> np.ndarray:
    """The shortest rotation taking unit vector u to unit vector v."""
    u = np.asarray(u, dtype=np.float64) / np.linalg.norm(u)
    v = np.asarray(v, dtype=np.float64) / np.linalg.norm(v)
    c = float(np.dot(u, v))
    if c < -1.0 + 1e-12:
        p = np.cross(u, (1.0, 0.0, 0.0))
        if np.linalg.norm(p) < 1e-6:
            p = np.cross(u, (0.0, 1.0, 0.0))
        p /= np.linalg.norm(p)
        return np.array([p[0], p[1], p[2], 0.0])
    a = np.cross(u, v)
    q = np.array([a[0], a[1], a[2], 1.0 + c])
    return q / np.linalg.norm(q)


# ------------------------------------------------------------------------------ joints
def _make_joint(e, kind, a, b, point, frame, child_frame, lo, hi, swing_y, swing_z) -> int:
    w = _world(e)
    a = _check_body(w, a, "a", allow_world=True)
    b = _check_body(w, b, "b")
    if a == b:
        raise ValueError("a joint needs two different bodies")
    p = V.position(point, "point")
    fw = _quat(frame, "frame") if frame is not None else np.array([0.0, 0.0, 0.0, 1.0])
    fbw = _quat(child_frame, "child_frame") if child_frame is not None else fw
    pa, qa = _body_pose(w, a)
    pb, qb = _body_pose(w, b)
    j = _new_joint(w)
    jf, ji = w.jf, w.ji
    ji[j, L.J_KIND] = kind
    ji[j, L.J_BODY_A] = a
    ji[j, L.J_BODY_B] = b
    ji[j, L.J_FLAGS] = L.JFLAG_LIMITS
    ji[j, L.J_DRIVE] = L.DRIVE_VELOCITY
    jf[j, L.J_PA:L.J_PA + 3] = _qrot(_qconj(qa), p - pa)
    jf[j, L.J_PB:L.J_PB + 3] = _qrot(_qconj(qb), p - pb)
    jf[j, L.J_QA:L.J_QA + 4] = _qmul(_qconj(qa), fw)
    jf[j, L.J_QB:L.J_QB + 4] = _qmul(_qconj(qb), fbw)
    jf[j, L.J_TWIST_LO] = lo
    jf[j, L.J_TWIST_HI] = hi
    jf[j, L.J_SWING_Y] = swing_y
    jf[j, L.J_SWING_Z] = swing_z
    jf[j, L.J_HZ] = JOINT_HZ
    jf[j, L.J_ZETA] = JOINT_ZETA
    jf[j, L.J_SPRING_ZETA] = 1.0
    jf[j, L.J_SPRING_MAX] = math.inf
    jf[j, L.J_TARGET:L.J_TARGET + 4] = _qmul(_qconj(qa), qb)
    jf[j, L.J_AIM + 3] = 1.0
    jf[j, L.J_DRIVE_TIME] = 0.05
    jf[j, L.J_DRIVE_MAX_W] = 20.0
    _ignore(w, a, b)
    _wake_joint(w, j)
    return j


def ball_joint(e, a: int, b: int, point, frame=None, child_frame=None,
               swing=(math.pi, math.pi), twist=(-math.pi, math.pi)) -> int:
    """A ball joint holding body ``b`` to ``a`` (-1: the world) at world ``point`` (m).

    frame: world rotation (x, y, z, w) of the joint frame on ``a``: its x axis is the cone's centre.
    child_frame: the frame on ``b`` (default ``frame``): its x axis is the twist axis.
    swing: (about y, about z) half-angles (rad) of the elliptical cone, each in (0, pi].
    twist: (lower, upper) twist limits (rad) about the child's x axis.
    The two bodies no longer collide with each other. Returns the joint handle.
    """
    sw = V.pair(swing, "swing")
    tw = V.pair(twist, "twist")
    sy = _num(sw[0], "swing[0]")
    sz = _num(sw[1], "swing[1]")
    if not (0.0 < sy <= math.pi and 0.0 < sz <= math.pi):
        raise ValueError("swing half-angles must be in (0, pi]")
    lo = _num(tw[0], "twist[0]")
    hi = _num(tw[1], "twist[1]")
    if lo > hi:
        raise ValueError("twist lower limit must not exceed the upper")
    return _make_joint(e, L.JOINT_BALL, a, b, point, frame, child_frame, lo, hi, sy, sz)


def hinge_joint(e, a: int, b: int, point, axis, lower: float = -math.pi,
                upper: float = math.pi) -> int:
    """A hinge holding body ``b`` to ``a`` (-1: the world) at world ``point`` (m), turning about the
    world ``axis`` (unit, as it is now); ``lower``/``upper`` (rad) limit the turn of ``b`` about it
    (right-handed), 0 being the pose the bodies are in now. Returns the joint handle."""
    ax = _vec(axis, "axis")
    if np.linalg.norm(ax) < 1e-9:
        raise ValueError("axis must be non-zero")
    lo = _num(lower, "lower")
    hi = _num(upper, "upper")
    if lo > hi:
        raise ValueError("lower must not exceed upper")
    fr = frame_from_axes(ax)
    return _make_joint(e, L.JOINT_HINGE, a, b, point, fr, fr, lo, hi, math.pi, math.pi)


def joint_exists(e, j: int) -> bool:
    """True while ``j`` is a joint of this world."""
    w = _world(e)
    try:
        _joint(w, j)
    except (TypeError, ValueError):
        return False
    return True


def joint_destroy(e, j: int) -> None:
    """Remove joint ``j``; its bodies collide with each other again."""
    w = _world(e)
    j = _joint(w, j)
    a = int(w.ji[j, L.J_BODY_A])
    b = int(w.ji[j, L.J_BODY_B])
    _wake_joint(w, j)
    w.free_joint(j)
    _unignore(w, a, b)


def joint_set_limits(e, j: int, lower: float | None = None, upper: float | None = None,
                     swing=None, enabled: bool = True) -> None:
    """Change a joint's limits: twist (ball) or turn (hinge) ``lower``/``upper`` (rad), a ball's
    cone ``swing`` (about y, about z half-angles, rad); ``enabled=False`` turns them off."""
    w = _world(e)
    j = _joint(w, j)
    lo = None if lower is None else _num(lower, "lower")
    hi = None if upper is None else _num(upper, "upper")
    sw = None if swing is None else V.pair(swing, "swing")
    sy = None if sw is None else _num(sw[0], "swing[0]", 0.0, math.pi)
    sz = None if sw is None else _num(sw[1], "swing[1]", 0.0, math.pi)
    enabled = V.boolean(enabled, "enabled")
    if (lo if lo is not None else w.jf[j, L.J_TWIST_LO]) > (
            hi if hi is not None else w.jf[j, L.J_TWIST_HI]):
        raise ValueError("lower must not exceed upper")
    if lo is not None:
        w.jf[j, L.J_TWIST_LO] = lo
    if hi is not None:
        w.jf[j, L.J_TWIST_HI] = hi
    if sw is not None:
        w.jf[j, L.J_SWING_Y] = sy
        w.jf[j, L.J_SWING_Z] = sz
    if enabled:
        w.ji[j, L.J_FLAGS] |= L.JFLAG_LIMITS
    else:
        w.ji[j, L.J_FLAGS] &= ~L.JFLAG_LIMITS
        w.jf[j, L.J_L_TLO] = w.jf[j, L.J_L_THI] = w.jf[j, L.J_L_SWING] = 0.0
    _wake_joint(w, j)


def joint_set_motor(e, j: int, max_torque: float, velocity=(0.0, 0.0, 0.0)) -> None:
    """Drive joint ``j`` at a relative angular ``velocity`` (rad/s: a 3-vector in the parent's body
    frame for a ball joint, a number about the axis for a hinge) with at most ``max_torque`` N·m
    (0: motor off). A hard constraint within its budget; changeable every step."""
    w = _world(e)
    j = _joint(w, j)
    tau = _num(max_torque, "max_torque", 0.0)
    if w.ji[j, L.J_KIND] == L.JOINT_HINGE and np.ndim(velocity) == 0:
        s = V.real(velocity, "velocity", lo=-LIM.MAX_ANGULAR_SPEED, unit="rad/s",
                   hi_limit="MAX_ANGULAR_SPEED")
        # the hinge axis in A's body frame: frame A's x
        qa = w.jf[j, L.J_QA:L.J_QA + 4]
        vel = _qrot(qa, (s, 0.0, 0.0))
    else:
        vel = V.vector(velocity, "velocity", unit="rad/s", limit="MAX_ANGULAR_SPEED")
    w.jf[j, L.J_MOTOR_MAX] = tau
    w.jf[j, L.J_MOTOR_W:L.J_MOTOR_W + 3] = vel
    w.ji[j, L.J_DRIVE] = L.DRIVE_VELOCITY
    if tau == 0.0:
        w.jf[j, L.J_L_MOTOR:L.J_L_MOTOR + 3] = 0.0
    _wake_joint(w, j)


def joint_set_drive(e, j: int, target, max_torque: float, time: float = 0.05,
                    max_speed: float = 20.0, deadband: float = 0.0,
                    feed_forward: bool = False) -> None:
    """Drive joint ``j`` toward the body-relative rotation ``target`` (qa^-1 qb): each step the
    motor is asked for the relative angular velocity that closes the gap in ``time`` s, capped at
    ``max_speed`` rad/s, within ``max_torque`` N·m; within ``deadband`` rad of it, it brakes.
    ``feed_forward``: a target set anew each step (an animation's) is followed at its own rate of
    turning too (from the last step's target to this one's, up to ``max_speed``), the gap closed
    toward where it was as the step starts: no lag behind a turning target (a servo alone trails
    it by about twice its turn in a step). A target that stays put sees no change."""
    w = _world(e)
    j = _joint(w, j)
    q = _quat(target, "target")
    tau = _num(max_torque, "max_torque", 0.0)
    t = V.positive(time, "time", unit="s")
    top = V.nonneg(max_speed, "max_speed", unit="rad/s", hi_limit="MAX_ANGULAR_SPEED")
    band = _num(deadband, "deadband", 0.0)
    if not isinstance(feed_forward, (bool, np.bool_)):
        raise TypeError("feed_forward must be True or False")
    w.jf[j, L.J_FEED] = 1.0 if feed_forward else 0.0
    w.jf[j, L.J_TARGET:L.J_TARGET + 4] = q
    w.jf[j, L.J_MOTOR_MAX] = tau
    w.jf[j, L.J_DRIVE_TIME] = t
    w.jf[j, L.J_DRIVE_MAX_W] = top
    w.jf[j, L.J_DEADBAND] = band
    w.ji[j, L.J_DRIVE] = L.DRIVE_POSE
    _wake_joint(w, j)


def joint_set_aim(e, j: int, rotation) -> None:
    """Drive joint ``j``'s child to the world ``rotation`` from wherever its parent is (the pose
    drive's time, speed cap and budget); ``None`` goes back to the body-relative target."""
    w = _world(e)
    j = _joint(w, j)
    if rotation is None:
        if w.ji[j, L.J_DRIVE] == L.DRIVE_AIM:
            w.ji[j, L.J_DRIVE] = L.DRIVE_POSE
    else:
        w.jf[j, L.J_AIM:L.J_AIM + 4] = _quat(rotation, "rotation")
        w.ji[j, L.J_DRIVE] = L.DRIVE_AIM
    _wake_joint(w, j)


def joint_set_spring(e, j: int, hertz: float, damping_ratio: float = 1.0, target=None,
                     max_torque: float = math.inf) -> None:
    """A spring of ``hertz`` Hz and ``damping_ratio`` toward the body-relative rotation ``target``
    (default: the one it has), its torque capped at ``max_torque`` N·m. 0 Hz turns it off."""
    w = _world(e)
    j = _joint(w, j)
    hz = _num(hertz, "hertz", 0.0)
    z = _num(damping_ratio, "damping_ratio", 0.0)
    cap = _cap(max_torque, "max_torque")
    if target is not None:
        w.jf[j, L.J_TARGET:L.J_TARGET + 4] = _quat(target, "target")
    w.jf[j, L.J_SPRING_HZ] = hz
    w.jf[j, L.J_SPRING_ZETA] = z
    w.jf[j, L.J_SPRING_MAX] = cap
    if hz == 0.0:
        w.jf[j, L.J_L_SPRING:L.J_L_SPRING + 3] = 0.0
    _wake_joint(w, j)


def joint_set_friction(e, j: int, torque: float) -> None:
    """Joint friction: a motor toward zero relative speed capped at ``torque`` N·m (acts while the
    motor's budget is 0)."""
    w = _world(e)
    j = _joint(w, j)
    w.jf[j, L.J_FRICTION] = _num(torque, "torque", 0.0)
    if w.jf[j, L.J_FRICTION] == 0.0:
        w.jf[j, L.J_L_FRIC:L.J_L_FRIC + 3] = 0.0


def _state(w, j: int) -> np.ndarray:
    out = np.zeros(12)
    joint_state(w.bf, w.jf, w.ji, j, out)
    return out


def joint_motor_torque(e, j: int) -> np.ndarray:
    """(3,) N·m: the torque joint ``j``'s motor applied to its child in the last sub-step (world;
    the parent gets the opposite)."""
    w = _world(e)
    return _state(w, _joint(w, j))[3:6]


def joint_spring_torque(e, j: int) -> np.ndarray:
    """(3,) N·m: the torque joint ``j``'s spring applied to its child in the last sub-step."""
    w = _world(e)
    return _state(w, _joint(w, j))[6:9]


def joint_angles(e, j: int) -> tuple[float, float, float]:
    """(twist or hinge angle, swing angle, the cone's limit in the swing's direction), rad."""
    w = _world(e)
    s = _state(w, _joint(w, j))
    return float(s[0]), float(s[1]), float(s[2])


def joint_relative_rotation(e, j: int) -> np.ndarray:
    """(4,) the body-relative rotation qa^-1 qb of joint ``j`` now (w >= 0)."""
    w = _world(e)
    j = _joint(w, j)
    _, qa = _body_pose(w, int(w.ji[j, L.J_BODY_A]))
    _, qb = _body_pose(w, int(w.ji[j, L.J_BODY_B]))
    r = _qmul(_qconj(qa), qb)
    return -r if r[3] < 0 else r


# ------------------------------------------------------------------------------ anchors
def anchor(e, body: int, position=None, rotation=None, hertz: float = 5.0,
           damping_ratio: float = 1.0, angular_hertz: float | None = None,
           angular_damping_ratio: float | None = None, max_force: float = math.inf,
           max_torque: float = math.inf, point=(0.0, 0.0, 0.0)) -> int:
    """Hold ``body`` to a target pose with springs: its ``point`` (m, body frame) toward world
    ``position`` (default: where it is) at ``hertz`` Hz / ``damping_ratio``, its rotation toward
    ``rotation`` (default: as it is) at ``angular_hertz`` (default ``hertz``), the force capped at
    ``max_force`` N and the torque at ``max_torque`` N·m. 0 Hz leaves that part off."""
    w = _world(e)
    b = _check_body(w, body, "body")
    pnt = V.position(point, "point")
    pos, q = _body_pose(w, b)
    tp = V.position(position, "position") if position is not None else pos + _qrot(q, pnt)
    tq = _quat(rotation, "rotation") if rotation is not None else q
    # the spring's settings too, before the anchor is made (anchor_set_spring checks them again)
    _spring_args(hertz, damping_ratio, hertz if angular_hertz is None else angular_hertz,
                 damping_ratio if angular_damping_ratio is None else angular_damping_ratio,
                 max_force, max_torque)
    k = _new_anchor(w)
    w.ai[k, L.A_KIND] = L.ANCHOR_SPRING
    w.ai[k, L.A_BODY] = b
    w.af[k, L.A_LOCAL:L.A_LOCAL + 3] = pnt
    w.af[k, L.A_TPOS:L.A_TPOS + 3] = tp
    w.af[k, L.A_TQUAT:L.A_TQUAT + 4] = tq
    anchor_set_spring(e, k, hertz, damping_ratio,
                      hertz if angular_hertz is None else angular_hertz,
                      damping_ratio if angular_damping_ratio is None else angular_damping_ratio,
                      max_force, max_torque)
    return k


def upright_anchor(e, body: int, max_torque: float, up=(0.0, 1.0, 0.0)) -> int:
    """Hold ``body``'s ``up`` axis (body frame) to the world's up, rigid within ``max_torque`` N·m
    (the pelvis's balance: 1,200 N·m), leaving its turn about the vertical free."""
    w = _world(e)
    b = _check_body(w, body, "body")
    u = _vec(up, "up")
    if np.linalg.norm(u) < 1e-9:
        raise ValueError("up must be non-zero")
    u = u / np.linalg.norm(u)
    cap = _num(max_torque, "max_torque", 0.0)
    k = _new_anchor(w)
    w.ai[k, L.A_KIND] = L.ANCHOR_UPRIGHT
    w.ai[k, L.A_BODY] = b
    w.af[k, L.A_AXIS:L.A_AXIS + 3] = u
    w.af[k, L.A_QAX:L.A_QAX + 4] = shortest_arc((0.0, 1.0, 0.0), u)
    w.af[k, L.A_HZ] = UPRIGHT_HZ
    w.af[k, L.A_ZETA] = UPRIGHT_ZETA
    w.af[k, L.A_TMAX] = cap
    _wake(w, b)
    return k


def heading_anchor(e, body: int, heading: float, max_torque: float,
                   forward=(0.0, 0.0, 1.0)) -> int:
    """Turn ``body`` about the vertical so its ``forward`` axis (body frame) faces ``heading`` (rad
    about +y from +z: 0 faces +Z, pi/2 faces +X), rigid within ``max_torque`` N·m (60)."""
    w = _world(e)
    b = _check_body(w, body, "body")
    f = _vec(forward, "forward")
    if np.linalg.norm(f) < 1e-9:
        raise ValueError("forward must be non-zero")
    hd = _num(heading, "heading")
    cap = _num(max_torque, "max_torque", 0.0)
    k = _new_anchor(w)
    w.ai[k, L.A_KIND] = L.ANCHOR_HEADING
    w.ai[k, L.A_BODY] = b
    w.af[k, L.A_AXIS:L.A_AXIS + 3] = f / np.linalg.norm(f)
    w.af[k, L.A_HEADING] = hd
    w.af[k, L.A_HZ] = UPRIGHT_HZ
    w.af[k, L.A_ZETA] = UPRIGHT_ZETA
    w.af[k, L.A_TMAX] = cap
    _wake(w, b)
    return k


def anchor_exists(e, k: int) -> bool:
    w = _world(e)
    try:
        _anchor(w, k)
    except (TypeError, ValueError):
        return False
    return True


def anchor_set_target(e, k: int, position=None, rotation=None, velocity=(0.0, 0.0, 0.0),
                      angular_velocity=(0.0, 0.0, 0.0)) -> None:
    """Move a spring anchor's target: ``position`` (m), ``rotation``, and their velocities (m/s,
    rad/s, world). None leaves a part as it is."""
    w = _world(e)
    k = _anchor(w, k)
    p = None if position is None else V.position(position, "position")
    q = None if rotation is None else _quat(rotation, "rotation")
    v = V.vector(velocity, "velocity", unit="m/s", limit="MAX_SPEED")
    om = V.vector(angular_velocity, "angular_velocity", unit="rad/s",
                  limit="MAX_ANGULAR_SPEED")
    if p is not None:
        w.af[k, L.A_TPOS:L.A_TPOS + 3] = p
    if q is not None:
        w.af[k, L.A_TQUAT:L.A_TQUAT + 4] = q
    w.af[k, L.A_TV:L.A_TV + 3] = v
    w.af[k, L.A_TW:L.A_TW + 3] = om
    _wake(w, int(w.ai[k, L.A_BODY]))


def anchor_set_spring(e, k: int, hertz: float, damping_ratio: float, angular_hertz: float,
                      angular_damping_ratio: float, max_force: float = math.inf,
                      max_torque: float = math.inf) -> None:
    """A spring anchor's Hz, damping ratios and caps (N, N·m); changeable every step."""
    w = _world(e)
    k = _anchor(w, k)
    vals = _spring_args(hertz, damping_ratio, angular_hertz, angular_damping_ratio, max_force,
                        max_torque)
    cols = (L.A_HZ, L.A_ZETA, L.A_AHZ, L.A_AZETA, L.A_FMAX, L.A_TMAX)
    for col, v in zip(cols, vals, strict=True):
        w.af[k, col] = v
    if w.af[k, L.A_HZ] == 0.0 or w.af[k, L.A_FMAX] == 0.0:
        w.af[k, L.A_L_LIN:L.A_L_LIN + 3] = 0.0
    if w.af[k, L.A_AHZ] == 0.0 or w.af[k, L.A_TMAX] == 0.0:
        w.af[k, L.A_L_ANG:L.A_L_ANG + 3] = 0.0
        w.af[k, L.A_L_UP:L.A_L_UP + 2] = 0.0
    _wake(w, int(w.ai[k, L.A_BODY]))


def _spring_args(hertz, damping_ratio, angular_hertz, angular_damping_ratio, max_force,
                 max_torque) -> tuple[float, ...]:
    """A spring anchor's settings, checked: Hz and ratios >= 0, caps >= 0 (inf: none)."""
    return (_num(hertz, "hertz", 0.0), _num(damping_ratio, "damping_ratio", 0.0),
            _num(angular_hertz, "angular_hertz", 0.0),
            _num(angular_damping_ratio, "angular_damping_ratio", 0.0),
            _cap(max_force, "max_force"), _cap(max_torque, "max_torque"))


def anchor_set_cap(e, k: int, max_torque: float) -> None:
    """The torque cap (N·m) of an anchor (upright, heading or spring); 0 lets go entirely."""
    w = _world(e)
    k = _anchor(w, k)
    w.af[k, L.A_TMAX] = _num(max_torque, "max_torque", 0.0)
    if w.af[k, L.A_TMAX] == 0.0:
        w.af[k, L.A_L_ANG:L.A_L_ANG + 3] = 0.0
        w.af[k, L.A_L_UP:L.A_L_UP + 2] = 0.0
    _wake(w, int(w.ai[k, L.A_BODY]))


def anchor_set_heading(e, k: int, heading: float) -> None:
    """A heading anchor's target heading (rad about +y from +z)."""
    w = _world(e)
    k = _anchor(w, k)
    w.af[k, L.A_HEADING] = _num(heading, "heading")
    _wake(w, int(w.ai[k, L.A_BODY]))


def anchor_set_nothing(e, k: int) -> None:
    """Set an anchor to nothing: every Hz and cap 0 and its accumulated impulses zeroed, so it
    applies nothing from now on, not even a warm start (aephysics#58)."""
    w = _world(e)
    k = _anchor(w, k)
    for col in (L.A_HZ, L.A_AHZ, L.A_FMAX, L.A_TMAX):
        w.af[k, col] = 0.0
    w.af[k, L.A_L_LIN:L.A_L_LIN + 3] = 0.0
    w.af[k, L.A_L_ANG:L.A_L_ANG + 3] = 0.0
    w.af[k, L.A_L_UP:L.A_L_UP + 2] = 0.0


def anchor_destroy(e, k: int) -> None:
    """Remove an anchor; nothing of it is applied afterwards (aephysics#76)."""
    w = _world(e)
    k = _anchor(w, k)
    _wake(w, int(w.ai[k, L.A_BODY]))
    w.free_anchor(k)


def anchor_force(e, k: int) -> np.ndarray:
    """(3,) N: the force the anchor applied in its last sub-step (world)."""
    w = _world(e)
    out = np.zeros(6)
    anchor_force_torque(w.af, w.ai, _anchor(w, k), out)
    return out[:3]


def anchor_torque(e, k: int) -> np.ndarray:
    """(3,) N·m: the torque the anchor applied in its last sub-step (world)."""
    w = _world(e)
    out = np.zeros(6)
    anchor_force_torque(w.af, w.ai, _anchor(w, k), out)
    return out[3:]


# keep the helper importable for the ragdoll module
_quat_from_rotvec = quat_from_rotvec
