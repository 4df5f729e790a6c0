"""Holding something on a seat and eating or drinking from it (spec: "Sat, a figure can take
something in both hands and eat from it", #825's 3): ``hold``, ``let_go``, ``eat``, ``eating``,
``holding``, ``mouth``, ``hold_cup``, ``drink``.

What it holds is an interaction point of its own: a kinematic physics body (``physics.add_box``
and its kin with ``kind="kinematic"``), and the places on it the hands grip, in its own frame (m;
its +Z the way the figure faces, +Y up, as it is held). Each step, after the physics step
(``after_step``), one njit call a holding figure (``_arms_kernel``) places the item for the next
step (the world's kinematic move) and solves each hand onto its grip with the arm's two-bone
solve (closed form: the elbow down and out, bending about its hinge), written into the sat key's
arm rows the way's verb holds (``PB_GU_BASE_Q``); the item and the figure's bodies pass through
each other while it is held.

- ``hold(body, item, left, right)``: the grips go each to the hand on the side nearer it (the
  one further to the figure's left to the left hand); the item rests over the thighs, its origin
  ``LAP_AHEAD`` ahead of the hips' middle and ``LAP_OVER`` over the thighs' top. The hands go
  from the thighs to the grips over ``TAKE`` (0.5 s), eased, and back on ``let_go(body)``.
- ``eat(body)``: a bite: the item comes up in front of the mouth (``BITE_AHEAD`` ahead of it,
  ``BITE_UNDER`` under) over ``BITE_RAISE`` s, stays ``BITE_STAY`` s and goes back down over
  ``BITE_LOWER`` s, each eased.
- ``mouth(body)``: the figure's own: ``MOUTH_UP`` of the way up its neck's body from its lower
  end, ahead by that body's radius.
- ``hold_cup(body, cup, grip, right)``: one hand (the right, or the left) on ``grip``; the cup rests
  over that side's thigh, the other hand stays on its thigh. ``drink(body)``: a sip: the cup's rim
  (its top's middle, from its shape) comes to the lips, ``CUP_AHEAD`` ahead of the mouth and
  ``CUP_UNDER`` under it, tipped toward the face by ``CUP_TILT`` (60 degrees) at the top, over the
  bite's times.
- ``stand_up`` on a figure holding something lets go first and stands once the hands are back on
  the thighs. Let go, the item is left where it rests (the game's to take away), passing through
  the figure until the action ends (stood up, or ``set_mode``): a kinematic body left in the
  thighs would throw them. Knocked off the seat (``_hits.knock_off``), it drops the item: made
  dynamic where it is (``physics.set_kind``), it falls, passing through the figure until the
  figure is on its feet again.

The palm, where a grip is held, is the forearm's line on past its far end as far as its body
reaches (its radius): the forearm capsule's tip. Units: m, s, rad; angles in degrees where
named so.
"""

from __future__ import annotations

import math
import weakref
from typing import Any

import numpy as np
from numba import njit

from ae3d import _math as M
from ae3d import _validate as V
from ae3d import human
from ae3d.physics import _layout as PL
from ae3d.physics._world import shape_mass

from . import _keyed as K
from . import _sit as S
from ._kin import local_to_world, qdelta_rotvec, qexp
from ._layout import (
    ACTING,
    F_FALLING,
    F_GU_BASE_P,
    F_GU_WAY,
    F_KNOCKED,
    F_MODE,
    GETTING_UP,
    PB_GU_BASE_Q,
)
from ._service import PARENT, Motion, check, service

_P = human
LAP_AHEAD = 0.24    # m: a held item's origin ahead of the hips' middle
LAP_OVER = 0.07     # m: and over the thighs' top there
TAKE = 0.5          # s: the hands from the thighs to the grips (and back), eased (spec: 0.5)
BITE_RAISE = 0.6    # s: the item up to the mouth
BITE_STAY = 0.5     # s: held there
BITE_LOWER = 0.6    # s: back down to the lap
BITE_AHEAD = 0.10   # m: at a bite's top the item is this ahead of the mouth (spec: 10 cm)
BITE_UNDER = 0.05   # m: and this under it (spec: 5 cm)
BITE_ARC = 0.08     # m: on its way up and down the item bows out ahead by this at the middle
MOUTH_UP = 0.35     # share of the way up the neck's body (from its lower end) the mouth is
CUP_AHEAD = 0.01    # m: at a sip's top the cup's rim is this ahead of the mouth
CUP_UNDER = 0.01    # m: and this under it
CUP_TILT = 60.0     # deg: the cup tipped toward the face at a sip's top (spec: 60)
GRIP_MOST = 1.0     # m: a grip at most this far from its item's origin
ELBOW_MOST = 150.0  # deg: the arm's solve bends the elbow at most this (its range)
DROP_DENSITY = 600.0      # kg/m³: a held item dropped (its holder knocked off), a bowl of food
DROP_MASS = (0.1, 10.0)   # kg: and its mass kept within these

# figures holding something -> its state (the item, its grips, the hands, the times)
_HOLD: weakref.WeakKeyDictionary = weakref.WeakKeyDictionary()


# ------------------------------------------------------------------------------ the figure's
def _frame(m: Motion) -> S._Frame:
    from . import _act
    kept = _act._KEPT[m]
    return kept["sit"]["plan"].fr


def mouth(body: Motion) -> np.ndarray:
    """(3,) m: figure ``body``'s mouth as drawn now: part way up its neck's body (``MOUTH_UP`` of
    the way from its lower end), ahead by that body's radius. Any rig's head serves."""
    m = check(body)
    from ._pose import drawn_pose
    p, q = drawn_pose(m)
    return np.array(_mouth(np.asarray(p), np.asarray(q), K.dims_of(m.ragdoll)))


def _palm_local(fr: S._Frame, fore: int) -> np.ndarray:
    """(3,) m: the palm of forearm ``fore`` in its own frame: the forearm capsule's tip (its far
    end on past by its radius)."""
    e = fr.far_end(fore)
    return e + e / max(math.sqrt(float(e @ e)), 1e-12) * fr.dims[fore, 0]


def _palm(fr: S._Frame, p: np.ndarray, q: np.ndarray, fore: int) -> np.ndarray:
    """(3,) m: the palm of forearm ``fore`` in bodies p, q."""
    return p[fore] + K._qr(q[fore], _palm_local(fr, fore))


def _lerp_ease(t: float, up: float, stay: float, down: float) -> float:
    """0..1: a bite's share up at ``t`` s into it (eased up, held, eased down; 0 after)."""
    if t <= 0.0:
        return 0.0
    if t < up:
        return K.ease(t / up)
    if t < up + stay:
        return 1.0
    if t < up + stay + down:
        return 1.0 - K.ease((t - up - stay) / down)
    return 0.0


# ------------------------------------------------------------------------------ the kernel
# The item's pose and the arms' solve each step, one njit call a holding figure (``_arms``): in
# Python they were 175 µs a figure a step, numpy's small-array calls most of it.
_NECK = _P.BONE_NECK
_NECK_FWD = tuple(float(c) for c in _P.BONE_FORWARD_LOCAL[_NECK])
_THIGHS = (_P.BONE_THIGH_L, _P.BONE_THIGH_R)
_ARM_BONES = tuple((up, fore) for up, fore, _ in S._ARMS)


@njit(cache=True, inline="always")
def _unit(a):
    return M.scale(a, 1.0 / M.length(a))


@njit(cache=True, inline="always")
def _joint_at(p, q, pt, b):
    """Body ``b``'s point ``pt`` (its own frame, m) in the world."""
    return M.add(M.v3(p[b], 0), M.qrot(M.q4(q[b], 0), M.v3(pt, 0)))


@njit(cache=True, inline="always")
def _half_axis(q, dims, b):
    """Body ``b``'s capsule's half segment (its +y end from its middle) in the world, m."""
    return M.qrot(M.q4(q[b], 0), (0.0, dims[b, 1], 0.0))


@njit(cache=True)
def _mouth(p, q, dims):
    """(3,) m: the mouth in bodies p, q: MOUTH_UP of the way up the neck's body from its lower
    end, ahead (its forward axis) by its radius."""
    b = _NECK
    ax = _half_axis(q, dims, b)
    if ax[1] < 0.0:
        ax = M.scale(ax, -1.0)
    fwd = M.qrot(M.q4(q[b], 0), _NECK_FWD)
    mid = M.madd(M.sub(M.v3(p[b], 0), ax), ax, 2.0 * MOUTH_UP)
    return M.madd(mid, fwd, dims[b, 0])


@njit(cache=True, inline="always")
def _thigh_top(p, q, dims, th, fwd, across, at):
    """(across m, height m): the thigh's middle line across the figure and its top (the
    capsule's axis plus its radius) at ``at``'s distance along ``fwd`` (``_sit._thigh_top``'s
    first two)."""
    ax = _half_axis(q, dims, th)
    a = M.sub(M.v3(p[th], 0), ax)
    b = M.add(M.v3(p[th], 0), ax)
    fa = M.dot(a, fwd)
    fb = M.dot(b, fwd)
    s = 0.5 if abs(fb - fa) < 1e-9 else min(1.0, max(0.0, (M.dot(at, fwd) - fa) / (fb - fa)))
    c = M.madd(a, M.sub(b, a), s)
    return M.dot(c, across), c[1] + dims[th, 0]


@njit(cache=True, inline="always")
def _item_at(p, q, pb, dims, fwd, across, turn, cup, right, rim, share):
    """The item's pose (position m, rotation) for bodies p, q: over the lap (a cup over its
    thigh), raised toward the mouth by the bite's ``share`` (0..1)."""
    tl, tr = _THIGHS
    hips = M.scale(M.add(_joint_at(p, q, pb[tl], tl), _joint_at(p, q, pb[tr], tr)), 0.5)
    at = M.madd(hips, fwd, LAP_AHEAD)
    if cup:
        off, top = _thigh_top(p, q, dims, tr if right else tl, fwd, across, at)
        lap = M.madd(at, across, off - M.dot(at, across))
        lap = (lap[0], top + LAP_OVER, lap[2])
    else:
        top = 0.5 * (_thigh_top(p, q, dims, tl, fwd, across, at)[1]
                     + _thigh_top(p, q, dims, tr, fwd, across, at)[1])
        lap = (at[0], top + LAP_OVER, at[2])
    if share <= 0.0:
        return lap, turn
    mo = _mouth(p, q, dims)
    arc = 4.0 * BITE_ARC * share * (1.0 - share)
    rot = turn
    if cup:
        # the rim (the cup's top's middle) to the lips, the cup tipped toward the face
        tilt = -math.radians(CUP_TILT) * share
        rot = M.qmul(qexp(across[0] * tilt, across[1] * tilt, across[2] * tilt), turn)
        lips = M.madd(mo, fwd, CUP_AHEAD)
        tip = M.sub((lips[0], lips[1] - CUP_UNDER, lips[2]), M.qrot(rot, M.v3(rim, 0)))
    else:
        tip = M.madd(mo, fwd, BITE_AHEAD)
        tip = (tip[0], tip[1] - BITE_UNDER, tip[2])
    return M.madd(M.madd(lap, M.sub(tip, lap), share), fwd, arc), rot


@njit(cache=True, inline="always")
def _axes(a, b):
    """The orthonormal frame (three unit 3-vectors) of ``a`` and ``b``: ``a``'s way, ``b`` made
    square to it, their cross."""
    e1 = _unit(a)
    e2 = _unit(M.madd(b, e1, -M.dot(b, e1)))
    return e1, e2, M.cross(e1, e2)


@njit(cache=True, inline="always")
def _frame_turn(a, b, c, d):
    """The rotation (xyzw) taking the frame of ``c`` and ``d`` onto that of ``a`` and ``b``
    (``_axes``): the matrix A B^T of the frames' columns."""
    a1, a2, a3 = _axes(a, b)
    b1, b2, b3 = _axes(c, d)
    r0 = M.madd(M.madd(M.scale(b1, a1[0]), b2, a2[0]), b3, a3[0])    # row i: sum_k a_k[i] b_k
    r1 = M.madd(M.madd(M.scale(b1, a1[1]), b2, a2[1]), b3, a3[1])
    r2 = M.madd(M.madd(M.scale(b1, a1[2]), b2, a2[2]), b3, a3[2])
    return M.mat9_quat(r0[0], r0[1], r0[2], r1[0], r1[1], r1[2], r2[0], r2[1], r2[2])


@njit(cache=True, inline="always")
def _solve_arm(p, q, parent, pa, pb, stand, turn, fwd, across, up, fore, palm, target, out):
    """The arm's two-bone solve: the upper arm's and forearm's world rotations putting its palm
    (``palm``, the forearm's frame, m) at ``target`` (m), the elbow down and out (``out``: +1
    the figure's left arm, -1 its right), bending about its hinge (the axis across the figure
    standing), straight where it cannot reach."""
    sh = parent[up]
    shoulder = _joint_at(p, q, pa[up], sh)
    a_loc = M.sub(M.v3(pa[fore], 0), M.v3(pb[up], 0))      # shoulder joint to elbow joint
    c_loc = M.sub(palm, M.v3(pb[fore], 0))                  # elbow joint to palm
    l1 = M.length(a_loc)
    l2 = M.length(c_loc)
    su = M.qmul(turn, M.q4(stand[up], 0))
    sf = M.qmul(turn, M.q4(stand[fore], 0))
    d = M.sub(target, shoulder)
    # no nearer than the elbow's bend allows (ELBOW_MOST), no further than the arm reaches
    near = math.sqrt(l1 * l1 + l2 * l2 + 2.0 * l1 * l2 * math.cos(math.radians(ELBOW_MOST)))
    dist = min(max(M.length(d), near), l1 + l2 - 1e-6)
    u = M.scale(d, 1.0 / max(M.length(d), 1e-9))
    pole = M.madd((-0.3 * fwd[0], -1.0, -0.3 * fwd[2]), across, 0.5 * out)
    v = M.madd(pole, u, -M.dot(pole, u))
    if M.length(v) < 1e-6:
        v = M.scale(across, out)
    v = _unit(v)
    cos_a = (l1 * l1 + dist * dist - l2 * l2) / (2.0 * l1 * dist)
    alpha = math.acos(max(-1.0, min(1.0, cos_a)))
    elbow = M.add(shoulder, M.scale(M.madd(M.scale(u, math.cos(alpha)), v, math.sin(alpha)), l1))
    d_u = M.scale(M.sub(elbow, shoulder), 1.0 / l1)
    d_f = M.scale(M.sub(M.madd(shoulder, u, dist), elbow), 1.0 / l2)
    h = M.cross(d_f, d_u)
    if M.length(h) < 1e-9:
        h = M.cross(d_u, v)       # straight: the hinge square to the elbow's way
    h = _unit(h)
    # the upper arm: its joint-to-joint axis onto d_u, its hinge (across, standing) onto h
    qu = M.qmul(_frame_turn(d_u, h, M.qrot(su, a_loc), across), su)
    # the forearm: the standing one carried with the upper arm, bent about h by the elbow's angle
    # (its palm's way onto d_f)
    qf0 = M.qmul(M.qmul(qu, M.qconj(su)), sf)
    c0 = _unit(M.qrot(qf0, c_loc))
    ang = math.atan2(M.dot(M.cross(c0, d_f), h), M.dot(c0, d_f))
    qf = M.qmul(qexp(h[0] * ang, h[1] * ang, h[2] * ang), qf0)
    return qu, qf


@njit(cache=True, inline="always")
def _toward(q, b, to, t):
    """The rotation ``t`` (0..1) of the way from row ``b`` of ``q`` to ``to``, the shorter way."""
    a = M.q4(q[b], 0)
    rx, ry, rz = qdelta_rotvec(a[0], a[1], a[2], a[3], to[0], to[1], to[2], to[3])
    return M.qnormalize(M.qmul(qexp(rx * t, ry * t, rz * t), a))


@njit(cache=True, inline="always")
def _put(pbf, f, b, r):
    """The held key's row ``b`` (``PB_GU_BASE_Q``): rotation ``r``, its w kept non-negative."""
    s = -1.0 if r[3] < 0.0 else 1.0
    for c in range(4):
        pbf[f, b, PB_GU_BASE_Q + c] = r[c] * s


@njit(cache=True)
def _arms_kernel(nb, parent, joints, jf, ff, pbf, f, base, yaw, pa, pb, dims, stand, palms,
                 grips, hands, cup, right, rim, bite, take, item, p, q, root):
    """Figure ``f``'s held key (``PB_GU_BASE_Q``): ``base`` (the sat key's, its pelvis at
    ``F_GU_BASE_P``) with each holding hand's arm (``hands[i]`` 1) solved onto its grip
    (``grips[i]``, the item's frame, m), blended from the thigh by ``take`` (0..1); ``item``
    (7,): the item's pose (m, xyzw), raised toward the mouth by the bite's share ``bite``. ``p``
    (nb, 3), ``q`` (nb, 4), ``root`` (1, 3): scratch (the key's bodies in the world), kept with
    the hold rather than made each call."""
    for c in range(3):
        root[0, c] = ff[f, F_GU_BASE_P + c]
    local_to_world(nb, parent, joints, jf, base, root, p, q)
    fwd = (math.sin(yaw), 0.0, math.cos(yaw))
    across = (math.cos(yaw), 0.0, -math.sin(yaw))
    turn = (0.0, math.sin(0.5 * yaw), 0.0, math.cos(0.5 * yaw))     # K.yaw_quat
    pos, rot = _item_at(p, q, pb, dims, fwd, across, turn, cup, right, rim, bite)
    for b in range(nb):
        for c in range(4):
            pbf[f, b, PB_GU_BASE_Q + c] = base[b, c]
    for i in range(2):
        if hands[i] == 0:
            continue
        up, fore = _ARM_BONES[i]
        target = M.add(pos, M.qrot(rot, M.v3(grips[i], 0)))
        qu, qf = _solve_arm(p, q, parent, pa, pb, stand, turn, fwd, across, up, fore,
                            M.v3(palms[i], 0), target, 1.0 if i == 0 else -1.0)
        if take < 1.0:
            # from the thigh: each bone turned in the world from the sat key's toward its solve
            # (a target moved along instead swung the elbow round to the solve's plane, 20
            # degrees in the first step)
            qu = _toward(q, up, qu, take)
            qf = _toward(q, fore, qf, take)
        sh = parent[up]
        _put(pbf, f, up, M.qmul(M.qconj(M.q4(q[sh], 0)), qu))
        _put(pbf, f, fore, M.qmul(M.qconj(qu), qf))
    rot = M.qnormalize(rot)
    for c in range(3):
        item[c] = pos[c]
    for c in range(4):
        item[3 + c] = rot[c]


def _arms(m: Motion, h: dict) -> None:
    """Each holding hand solved onto its grip (blended from its thigh by the take's share), the
    arm rows of the held key written (``PB_GU_BASE_Q``); the item moved there (the kernel's
    work: ``_arms_kernel``)."""
    s = service(m.engine)
    r = m.ragdoll
    w = m.engine.physics
    fr = h["frame"]
    bite = _lerp_ease(h["bite_t"], BITE_RAISE, BITE_STAY, BITE_LOWER) if h["bite_t"] >= 0.0 \
        else 0.0
    out = h["out"]
    _arms_kernel(r.bones, PARENT, r.joints, w.jf, s.ff, s.pbf, m.slot, h["base"], fr.yaw, fr.pa,
                 fr.pb, fr.dims, fr.stand, h["palms"], h["grip_at"], h["hands"], h["cup"],
                 h["right"], h["rim"], bite, K.ease(h["take_t"] / TAKE), out, *h["scratch"])
    # the world's own move (physics.move_kinematic less its checks of what the kernel wrote: a
    # finite point, a unit rotation; the item's kind was checked at hold): half the call's cost
    # there. The item still has to be there (a removed one raises, naming it).
    w.move_kinematic(w.slot_of(h["item"], "item"), out[:3], out[3:])


# ------------------------------------------------------------------------------ the calls
def _item_arg(m: Motion, item: Any, what: str) -> int:
    from ae3d.physics._world import Body
    if not isinstance(item, Body):
        raise TypeError(f"{what} must be a physics body (physics.add_box and its kin), not "
                        f"{type(item).__name__}")
    from ae3d import physics
    if not physics.body_exists(m.engine, item):
        raise ValueError(f"{what} is not a body of this figure's world (removed, or another's)")
    if physics.kind(m.engine, item) != "kinematic":
        raise ValueError(f"{what} must be kinematic (kind='kinematic'): it is placed each step")
    return int(item.slot)


def _grip_arg(g: Any, what: str) -> np.ndarray:
    return V.vector(g, what, max_norm=GRIP_MOST, unit="m")


def _can_hold(m: Motion) -> bool:
    from . import _act
    return S.seated(m) and m not in _HOLD and m in _act._KEPT


def _begin(m: Motion, item: Any, slot: int, grips: list, cup: bool, right: bool,
           rim: np.ndarray) -> None:
    s = service(m.engine)
    f = m.slot
    nb = m.ragdoll.bones
    w = m.engine.physics
    pairs = [(slot, int(b)) for b in m.ragdoll.bodies]
    # what the step's kernel reads, kept as arrays: each hand's grip (a row of zeros and a 0 in
    # hands where that hand holds nothing) and its palm in its forearm's frame
    fr = _frame(m)
    grip_at = np.zeros((2, 3))
    hands = np.zeros(2, dtype=np.int64)
    for i, g in enumerate(grips):
        if g is not None:
            grip_at[i] = g
            hands[i] = 1
    palms = np.array([_palm_local(fr, fore) for _, fore, _ in S._ARMS])
    _HOLD[m] = dict(item=item, grips=grips, cup=cup, right=right, rim=rim,
                    base=s.pbf[f, :nb, PB_GU_BASE_Q:PB_GU_BASE_Q + 4].copy(),
                    take_t=0.0, going=1.0, bite_t=-1.0, stand=False,
                    ignored=w.ignore_pairs(pairs), frame=fr, grip_at=grip_at, hands=hands,
                    palms=palms, out=np.zeros(7),
                    scratch=(np.empty((nb, 3)), np.empty((nb, 4)), np.empty((1, 3))))


def hold(body: Motion, item: Any, left: Any, right: Any) -> bool:
    """Figure ``body``, sat (``seated``), takes ``item`` (a kinematic physics body) in both hands:
    ``left`` and ``right`` are the grips (points in the item's frame, m, within 1 m of its
    origin), each going to the hand on the side nearer it. The item rests over the thighs; the
    hands go to the grips over 0.5 s. Returns True when it took it; False (nothing written) when
    it is not sat or already holds something. Raises TypeError/ValueError (before anything is
    written) for a bad handle, an item that is no kinematic body of the figure's world, or a
    grip not a point within 1 m."""
    m = check(body)
    slot = _item_arg(m, item, "item")
    g1 = _grip_arg(left, "left")
    g2 = _grip_arg(right, "right")
    if not _can_hold(m):
        return False
    # the grip further to the figure's left (+x in the item's frame) to the left hand
    grips = [g1, g2] if g1[0] >= g2[0] else [g2, g1]
    _begin(m, item, slot, grips, False, False, np.zeros(3))
    _arms(m, _HOLD[m])
    return True


def hold_cup(body: Motion, cup: Any, grip: Any, right: bool) -> bool:
    """Figure ``body``, sat, takes ``cup`` (a kinematic physics body) in one hand (the right when
    ``right``, else the left) by ``grip`` (a point in the cup's frame, m): the cup rests over
    that side's thigh, the other hand stays on its own thigh. Returns True when it took it;
    False (nothing written) when it is not sat or already holds something. Raises as ``hold``."""
    m = check(body)
    slot = _item_arg(m, cup, "cup")
    g = _grip_arg(grip, "grip")
    rt = V.boolean(right, "right")
    if not _can_hold(m):
        return False
    grips = [None, g] if rt else [g, None]
    _begin(m, cup, slot, grips, True, rt, _rim(m, slot))
    _arms(m, _HOLD[m])
    return True


def _rim(m: Motion, slot: int) -> np.ndarray:
    """(3,) m: a cup's rim in its own frame: its top's middle (a box's half height; a capsule's
    or cylinder's standing along its y, its half length and, a capsule, its radius)."""
    w = m.engine.physics
    shape = int(w.bi[slot, PL.B_SHAPE])
    d = w.bf[slot, PL.B_DIMS:PL.B_DIMS + 3]
    if shape == PL.SHAPE_BOX:
        return np.array([0.0, float(d[1]), 0.0])
    if shape == PL.SHAPE_CAPSULE:
        return np.array([0.0, float(d[1] + d[0]), 0.0])
    if shape == PL.SHAPE_CYLINDER:
        return np.array([0.0, float(d[1]), 0.0])
    return np.array([0.0, float(d[0]), 0.0])


def let_go(body: Motion) -> bool:
    """Figure ``body`` lets go of what it holds: the hands back on the thighs over 0.5 s, the
    item left where it rests (the game's to take away; it passes through the figure until the
    action ends). Returns False when it holds nothing (or is letting go)."""
    m = check(body)
    h = _HOLD.get(m)
    if h is None or h["going"] < 0.0:
        return False
    h["going"] = -1.0
    return True


def eat(body: Motion) -> bool:
    """Figure ``body`` takes a bite of what it holds in both hands: the item up in front of its
    mouth (0.6 s), held (0.5 s) and back down (0.6 s). Returns False when it holds nothing in
    both hands, is still taking it or letting go, or a bite is on."""
    m = check(body)
    h = _HOLD.get(m)
    if h is None or h["cup"] or h["take_t"] < TAKE or h["going"] < 0.0 or h["bite_t"] >= 0.0:
        return False
    h["bite_t"] = 0.0
    return True


def drink(body: Motion) -> bool:
    """Figure ``body`` takes a sip from the cup it holds (``hold_cup``): the rim to its lips,
    tipped toward its face 60 degrees at the top, over a bite's times. False as ``eat``."""
    m = check(body)
    h = _HOLD.get(m)
    if h is None or not h["cup"] or h["take_t"] < TAKE or h["going"] < 0.0 \
            or h["bite_t"] >= 0.0:
        return False
    h["bite_t"] = 0.0
    return True


def eating(body: Motion) -> bool:
    """True while a bite (or a sip) is on."""
    m = check(body)
    h = _HOLD.get(m)
    return h is not None and h["bite_t"] >= 0.0


def holding(body: Motion) -> bool:
    """True while figure ``body`` holds something (from ``hold`` or ``hold_cup`` until its hands
    are back on its thighs after ``let_go``)."""
    m = check(body)
    return m in _HOLD


# ------------------------------------------------------------------------------ each step
def _release(m: Motion, h: dict) -> None:
    """The hold over: the sat key's arms as they were; the item's pairs with the figure's bodies
    taken back once the action ends."""
    s = service(m.engine)
    nb = m.ragdoll.bones
    s.pbf[m.slot, :nb, PB_GU_BASE_Q:PB_GU_BASE_Q + 4] = h["base"]
    _HOLD.pop(m, None)
    # the item is left where it rests, over the lap: it passes through the figure until the
    # action ends (stood up, or set_mode), or a kinematic body in the thighs would throw them
    _LEFT[m] = h["ignored"]
    if h["stand"]:
        S.stand_up(m)


# figures that stood up from an item left on their lap -> its pairs with their bodies, taken
# back once they have stood
_LEFT: weakref.WeakKeyDictionary = weakref.WeakKeyDictionary()


# figures knocked off their seat holding an item (_hits.knock_off) -> its pairs with their bodies,
# taken back once they are on their feet again: a kinematic bowl left where the hands held it,
# colliding again at once, was a wall in the way of the figure it was knocked from (a forearm
# struck with 5,000 N·s from behind opened its elbow 2.7 cm against it)
_DROPPED: weakref.WeakKeyDictionary = weakref.WeakKeyDictionary()


def _let_fall(m: Motion, item: Any) -> None:
    """The item of a figure knocked off its seat is dropped: made dynamic where it is
    (``physics.set_kind``), of ``DROP_DENSITY`` (its mass kept within ``DROP_MASS``), to fall
    as the hands let it go. Left kinematic it hung in the air where the hands had held it. The
    game takes it back as it likes (``set_kind`` to kinematic to be held again)."""
    from ae3d import physics
    w = m.engine.physics
    if not physics.body_exists(m.engine, item) or physics.kind(m.engine, item) != "kinematic":
        return                      # removed, or already made something else by the game
    s = int(item.slot)
    vol = shape_mass(int(w.bi[s, PL.B_SHAPE]), tuple(w.bf[s, PL.B_DIMS:PL.B_DIMS + 3]))[0]
    physics.set_kind(m.engine, item, "dynamic",
                     mass=min(max(DROP_DENSITY * vol, DROP_MASS[0]), DROP_MASS[1]))


def end(m: Motion) -> None:
    """The action ended (``set_mode``, ``_act.end_action``): a hold dropped where it is. Knocked
    off the seat (``F_KNOCKED``), the item is dropped (``_let_fall``) and passes through the
    figure until it is up again."""
    h = _HOLD.pop(m, None)
    if h is not None:
        if int(service(m.engine).fi[m.slot, F_KNOCKED]) != 0:
            _DROPPED[m] = h["ignored"]
            _let_fall(m, h["item"])
        else:
            m.engine.physics.unignore_pairs(h["ignored"])
    left = _LEFT.pop(m, None)
    if left is not None:
        m.engine.physics.unignore_pairs(left)


def stand_after(m: Motion) -> bool:
    """``stand_up`` on a figure holding something: it lets go first and stands once its hands
    are back (True); False when it holds nothing."""
    h = _HOLD.get(m)
    if h is None:
        return False
    h["going"] = -1.0
    h["stand"] = True
    return True


def after_step(s: Any) -> None:
    """After the physics step: each holding figure's times on, the item placed and the hands
    solved for the next step; a hold let go ended once the hands are back."""
    for m in list(_HOLD):
        h = _HOLD.get(m)
        f = m.slot
        if h is None or f >= s.n or s.handles[f] is not m:
            _HOLD.pop(m, None)      # released (its figure destroyed): nothing to place
            continue
        if int(s.fi[f, F_MODE]) != ACTING or int(s.fi[f, F_GU_WAY]) != S.WAY_SIT:
            continue
        dt = float(m.engine.fixed_dt)
        h["take_t"] = min(TAKE, max(0.0, h["take_t"] + dt * h["going"]))
        if h["bite_t"] >= 0.0:
            h["bite_t"] += dt
            if h["bite_t"] >= BITE_RAISE + BITE_STAY + BITE_LOWER:
                h["bite_t"] = -1.0
        if h["going"] < 0.0 and h["take_t"] <= 0.0:
            _release(m, h)
            continue
        _arms(m, h)
    for m in list(_LEFT):
        f = m.slot
        if f >= s.n or s.handles[f] is not m:
            _LEFT.pop(m, None)
        elif int(s.fi[f, F_MODE]) != ACTING:
            m.engine.physics.unignore_pairs(_LEFT.pop(m))
    for m in list(_DROPPED):
        f = m.slot
        if f >= s.n or s.handles[f] is not m:
            _DROPPED.pop(m, None)
        elif (int(s.fi[f, F_MODE]) not in (ACTING, GETTING_UP) and int(s.fi[f, F_KNOCKED]) == 0
              and int(s.fi[f, F_FALLING]) == 0):
            m.engine.physics.unignore_pairs(_DROPPED.pop(m))


__all__ = ["hold", "hold_cup", "let_go", "eat", "drink", "eating", "holding", "mouth",
           "after_step", "end", "stand_after", "LAP_AHEAD", "TAKE", "BITE_RAISE", "BITE_STAY",
           "BITE_LOWER", "CUP_TILT"]
