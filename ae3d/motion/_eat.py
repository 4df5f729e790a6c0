"""Holding something on a seat and eating or drinking from it (spec: "Sat, a figure can take
something in both hands and eat from it", #825's 3): ``hold``, ``let_go``, ``eat``, ``eating``,
``holding``, ``mouth``, ``hold_cup``, ``drink``.

What it holds is an interaction point of its own: a kinematic physics body (``physics.add_box``
and its kin with ``kind="kinematic"``), and the places on it the hands grip, in its own frame (m;
its +Z the way the figure faces, +Y up, as it is held). Each step (Python, after the physics step:
``after_step``) the item is placed for the next step (``physics.move_kinematic``) and each hand
is solved onto its grip with the arm's two-bone solve (``_sit._newton`` on the upper arm's lean
and tilt and the elbow's bend: the elbow down and out), written into the sat key's arm rows the
way's verb holds (``PB_GU_BASE_Q``); the item and the figure's bodies pass through each other
while it is held.

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

from ae3d import _validate as V
from ae3d import human
from ae3d.physics import _layout as PL
from ae3d.physics._world import shape_mass

from . import _keyed as K
from . import _sit as S
from ._layout import (
    ACTING,
    F_FALLING,
    F_GU_WAY,
    F_KNOCKED,
    F_MODE,
    GETTING_UP,
    PB_GU_BASE_Q,
    PB_GU_P,
    PB_GU_Q,
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


def _drawn(m: Motion) -> tuple[np.ndarray, np.ndarray]:
    """The way's bodies as drawn (the sat key held): (n, 3) m, (n, 4)."""
    s = service(m.engine)
    nb = m.ragdoll.bones
    return (s.pbf[m.slot, :nb, PB_GU_P:PB_GU_P + 3].copy(),
            s.pbf[m.slot, :nb, PB_GU_Q:PB_GU_Q + 4].copy())


def _mouth_at(r: Any, p: np.ndarray, q: np.ndarray) -> np.ndarray:
    """(3,) m: the mouth in bodies p, q: MOUTH_UP of the way up the neck's body from its lower
    end, ahead (its forward axis) by its radius."""
    b = _P.BONE_NECK
    dims = K.dims_of(r)
    ax = K._qr(q[b], (0.0, dims[b, 1], 0.0))
    if ax[1] < 0.0:
        ax = -ax
    fwd = K._qr(q[b], np.array(_P.BONE_FORWARD_LOCAL[b], dtype=np.float64))
    return p[b] - ax + 2.0 * MOUTH_UP * ax + fwd * dims[b, 0]


def mouth(body: Motion) -> np.ndarray:
    """(3,) m: figure ``body``'s mouth as drawn now: part way up its neck's body (``MOUTH_UP`` of
    the way from its lower end), ahead by that body's radius. Any rig's head serves."""
    m = check(body)
    from ._pose import drawn_pose
    p, q = drawn_pose(m)
    return _mouth_at(m.ragdoll, np.asarray(p), np.asarray(q))


def _palm(fr: S._Frame, p: np.ndarray, q: np.ndarray, fore: int) -> np.ndarray:
    """(3,) m: the palm of forearm ``fore`` in bodies p, q."""
    e = fr.far_end(fore)
    e2 = e + e / max(_norm(e), 1e-12) * fr.dims[fore, 0]
    return p[fore] + K._qr(q[fore], e2)


# ------------------------------------------------------------------------------ the pose
def _quat_about(axis: np.ndarray, rad: float) -> np.ndarray:
    s = math.sin(0.5 * rad)
    return np.array([axis[0] * s, axis[1] * s, axis[2] * s, math.cos(0.5 * rad)])


def _slerp(a: np.ndarray, b: np.ndarray, t: float) -> np.ndarray:
    """The rotation ``t`` (0..1) of the way from ``a`` to ``b``, the shorter way."""
    d = float(a @ b)
    if d < 0.0:
        b, d = -b, -d
    if d > 0.9995:
        out = a + (b - a) * t
        return out / _norm(out)
    th = math.acos(d)
    return (math.sin((1.0 - t) * th) * a + math.sin(t * th) * b) / math.sin(th)


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


def _item_pose(m: Motion, h: dict, p: np.ndarray, q: np.ndarray) -> tuple:
    """The item's pose (position m, rotation) for bodies p, q at the hold's bite time: over the
    lap (a cup over its thigh), raised toward the mouth by the bite's share."""
    fr = _frame(m)
    r = m.ragdoll
    from ._act import hips_point
    hips = hips_point(r, p, q)
    at = hips + fr.fwd * LAP_AHEAD
    thighs = (_P.BONE_THIGH_L, _P.BONE_THIGH_R)
    if h["cup"]:
        th = thighs[1] if h["right"] else thighs[0]
        across, top, _ = S._thigh_top(fr, p, q, th, at)
        lap = at + fr.across * (across - float(at @ fr.across))
        lap[1] = top + LAP_OVER
    else:
        tops = [S._thigh_top(fr, p, q, th, at)[1] for th in thighs]
        lap = at.copy()
        lap[1] = 0.5 * (tops[0] + tops[1]) + LAP_OVER
    rot = K.yaw_quat(fr.yaw)
    share = _lerp_ease(h["bite_t"], BITE_RAISE, BITE_STAY, BITE_LOWER) if h["bite_t"] >= 0.0 \
        else 0.0
    if share <= 0.0:
        return lap, rot
    mo = _mouth_at(r, p, q)
    if h["cup"]:
        # the rim (the cup's top's middle) to the lips, the cup tipped toward the face
        tilt = _quat_about(fr.across, -math.radians(CUP_TILT) * share)
        qc = K._qm(tilt, rot)
        top = mo + fr.fwd * CUP_AHEAD - np.array([0.0, CUP_UNDER, 0.0])
        at_top = top - K._qr(qc, h["rim"])
        return lap + (at_top - lap) * share + fr.fwd * (4.0 * BITE_ARC * share * (1.0 - share)), qc
    top = mo + fr.fwd * BITE_AHEAD - np.array([0.0, BITE_UNDER, 0.0])
    return lap + (top - lap) * share + fr.fwd * (4.0 * BITE_ARC * share * (1.0 - share)), rot


def _mat_q(mat: np.ndarray) -> np.ndarray:
    """(4,) (x, y, z, w): the rotation of the orthonormal 3x3 ``mat``."""
    t = float(np.trace(mat))
    if t > 0.0:
        w = math.sqrt(1.0 + t) * 0.5
        return np.array([(mat[2, 1] - mat[1, 2]) / (4.0 * w), (mat[0, 2] - mat[2, 0]) / (4.0 * w),
                         (mat[1, 0] - mat[0, 1]) / (4.0 * w), w])
    i = int(np.argmax(np.diag(mat)))
    j, k = (i + 1) % 3, (i + 2) % 3
    r = math.sqrt(max(1e-12, 1.0 + mat[i, i] - mat[j, j] - mat[k, k]))
    out = np.zeros(4)
    out[i] = 0.5 * r
    out[j] = (mat[j, i] + mat[i, j]) / (2.0 * r)
    out[k] = (mat[k, i] + mat[i, k]) / (2.0 * r)
    out[3] = (mat[k, j] - mat[j, k]) / (2.0 * r)
    return out


def _norm(a: np.ndarray) -> float:
    """|a| of a 3-vector: numpy's norm arithmetic (the square root of a . a) without its
    dispatch (2.3 µs a call there, some thirty a holding figure's step)."""
    return math.sqrt(float(a.dot(a)))


def _cross(a: np.ndarray, b: np.ndarray) -> np.ndarray:
    """a x b of two 3-vectors: numpy's cross product arithmetic without its axis handling (34 µs
    a call there, a third of an eating figure's step in Python)."""
    a0, a1, a2 = float(a[0]), float(a[1]), float(a[2])
    b0, b1, b2 = float(b[0]), float(b[1]), float(b[2])
    return np.array([a1 * b2 - a2 * b1, a2 * b0 - a0 * b2, a0 * b1 - a1 * b0])


def _basis(a: np.ndarray, b: np.ndarray) -> np.ndarray:
    """3x3: columns a, b (made square to a), a x b; both unit."""
    a = a / _norm(a)
    b = b - float(b @ a) * a
    b = b / _norm(b)
    return np.stack([a, b, _cross(a, b)], axis=1)


def _solve_arm(fr: S._Frame, p: np.ndarray, q: np.ndarray, up: int, fore: int,
               target: np.ndarray, out: float) -> tuple:
    """The arm's two-bone solve: the upper arm's and forearm's world rotations putting its palm
    at ``target`` (m), the elbow down and out (``out``: +1 the figure's left arm, -1 its right),
    bending about its hinge (the axis across the figure standing), straight where it cannot
    reach."""
    shoulder = p[PARENT[up]] + K._qr(q[PARENT[up]], fr.pa[up])
    a_loc = fr.pa[fore] - fr.pb[up]                    # shoulder joint to elbow joint
    e = fr.far_end(fore)
    c_loc = e + e / max(_norm(e), 1e-12) * fr.dims[fore, 0] - fr.pb[fore]
    l1 = _norm(a_loc)
    l2 = _norm(c_loc)
    su, sf = K._qm(fr.turn, fr.stand[up]), K._qm(fr.turn, fr.stand[fore])
    hinge = fr.across                                  # the elbow's axis, standing
    d = target - shoulder
    # no nearer than the elbow's bend allows (ELBOW_MOST), no further than the arm reaches
    near = math.sqrt(l1 * l1 + l2 * l2 + 2.0 * l1 * l2 * math.cos(math.radians(ELBOW_MOST)))
    dist = min(max(_norm(d), near), l1 + l2 - 1e-6)
    u = d / max(_norm(d), 1e-9)
    pole = np.array([0.0, -1.0, 0.0]) + 0.5 * out * fr.across - 0.3 * fr.fwd
    v = pole - float(pole @ u) * u
    if _norm(v) < 1e-6:
        v = fr.across * out
    v = v / _norm(v)
    cos_a = (l1 * l1 + dist * dist - l2 * l2) / (2.0 * l1 * dist)
    alpha = math.acos(max(-1.0, min(1.0, cos_a)))
    elbow = shoulder + l1 * (math.cos(alpha) * u + math.sin(alpha) * v)
    d_u = (elbow - shoulder) / l1
    d_f = (shoulder + u * dist - elbow) / l2
    h = _cross(d_f, d_u)
    if _norm(h) < 1e-9:
        h = _cross(d_u, v)       # straight: the hinge square to the elbow's way
    h = h / _norm(h)
    # the upper arm: its joint-to-joint axis onto d_u, its hinge onto h
    a_st = K._qr(su, a_loc)
    rot = _basis(d_u, h) @ _basis(a_st, hinge).T
    qu = K._qm(_mat_q(rot), su)
    # the forearm: the standing one carried with the upper arm, bent about h by the elbow's angle
    # (its palm's way onto d_f)
    qf0 = K._qm(K._qm(qu, S._conj(su)), sf)
    c0 = K._qr(qf0, c_loc)
    c0 = c0 / _norm(c0)
    ang = math.atan2(float(_cross(c0, d_f) @ h), float(c0 @ d_f))
    qf = K._qm(_quat_about(h, ang), qf0)
    return qu, qf


def _arms(m: Motion, h: dict) -> None:
    """Each holding hand solved onto its grip (blended from its thigh by the take's share), the
    arm rows of the held key written (``PB_GU_BASE_Q``); the item moved there."""
    s = service(m.engine)
    f = m.slot
    r = m.ragdoll
    nb = r.bones
    fr = _frame(m)
    base = h["base"].copy()
    lt = np.zeros((nb, 3))
    lt[0] = s.ff[f, S.F_GU_BASE_P:S.F_GU_BASE_P + 3]
    p, q = K.key_world(r, base, lt)
    pos, rot = _item_pose(m, h, p, q)
    share = K.ease(h["take_t"] / TAKE)
    for i, (up, fore, _) in enumerate(S._ARMS):
        grip = h["grips"][i]
        if grip is None:
            continue
        qu, qf = _solve_arm(fr, p, q, up, fore, pos + K._qr(rot, grip), 1.0 if i == 0 else -1.0)
        if share < 1.0:
            # from the thigh: each bone turned in the world from the sat key's toward its solve
            # (a target moved along instead swung the elbow round to the solve's plane, 20
            # degrees in the first step)
            qu = _slerp(q[up], qu, share)
            qf = _slerp(q[fore], qf, share)
        base[up] = K._qm(S._conj(q[PARENT[up]]), qu)
        base[fore] = K._qm(S._conj(qu), qf)
        for b in (up, fore):
            if base[b, 3] < 0.0:
                base[b] *= -1.0
    s.pbf[f, :nb, PB_GU_BASE_Q:PB_GU_BASE_Q + 4] = base
    from ae3d import physics
    physics.move_kinematic(m.engine, h["item"], pos, rot)


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
    _HOLD[m] = dict(item=item, grips=grips, cup=cup, right=right, rim=rim,
                    base=s.pbf[f, :nb, PB_GU_BASE_Q:PB_GU_BASE_Q + 4].copy(),
                    take_t=0.0, going=1.0, bite_t=-1.0, stand=False,
                    ignored=w.ignore_pairs(pairs))


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
