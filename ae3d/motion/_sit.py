"""Sitting on a seat and standing up from it (spec: "A figure can sit on a seat and lie down on
the ground", #825's second slice of ``ACTING``): ``sit``, ``sit_spot``, ``sitting``, ``seated``,
``stand_up``.

A seat is whatever static body is under a point: ``seat`` (3,) m is where the hips' middle
(between the hip joints, ``_act.hips_point``) comes to rest, on the seat's top; the seat's own
surface is looked for straight down from ``SEAT_ABOVE`` over it (a squared log, a box; a round
log, ``physics.add_log``; a bench). ``facing`` is the way the figure faces sat (a direction in
the world, its height ignored).

Both ways are three stages of the keyed ways' ``stage`` (0.7 s, ``_keyed``), eased in and out,
run by the way up's verb (``_get_up.get_up_pre``) in ``ACTING``, as lying down is (``_act.py``).
Their keys follow a person's sit-to-stand (Schenkman et al. 1990) down and back up:

- sitting down (``sit``), from where it stands: the trunk leans ``TRUNK_DOWN`` (35 degrees)
  over the feet as the hips go back and down (``HIPS_DOWN`` of the way to the seat); the hips
  come onto the seat, the trunk still leaning; it sits upright, the hands on the thighs. Sat, it
  holds the last key (ACTING) until ``stand_up`` or ``set_mode``.
- standing up (``stand_up``): it leans forward ``TRUNK_UP`` (42 degrees) on the seat, lifts its
  hips over its feet (``HIPS_BACK`` behind them, ``HIPS_UP`` of the way up), and ends in the
  animation's own pose (kept as it sat down) moved and turned so its soles' middle is where the
  feet stand, facing the way it sat; then it is handed back to the mode it sat down from
  (POWERED or ANIMATED), the animation moved there, as a way up ends.

The keys are planned on their contacts (Python, once a call):

- the feet stay where they stood: each leg of every key is solved (``_leg``: a two-bone solve by
  Newton's method on the thigh's and calf's leans and a tilt of the leg about the figure's
  forward axis) so its ankle joint is where it stood, each foot at the turn it stands with (spec:
  "a planted foot keeps the turn it stands with"); the soles' middle is held there every step by
  the verb (``F_GU_SOLES``) and the feet are planted at 30 Hz (``_keyed.plant_feet``) from the
  first step to the end of standing up;
- the keys on the seat are set down by the pelvis and thighs against the seat's own surface
  under each point of them (``_seat_need``: each capsule's lower line and its ends, sampled
  down onto the seat by rays, then refined about the highest sample), solved with the legs
  (the hips' height and the thighs' slope depend on each other), once a sit: a round log holds
  it as a flat seat does;
- each hand rests on its thigh (``_hands``): the arm swung forward and in (a lean and a tilt
  about the forward axis) with its elbow bent ``ELBOW`` (30 degrees), until the forearm's end
  lies on the thigh's top over the thigh's middle line; where that is further down the thigh
  than ``HAND_ALONG`` (its middle, over the ground), the elbow bent more to rest it there (both
  rigs' 30 degree arms reach past their knees). On a high seat the thigh slopes down from the
  hip and the hand rests further up it (the box man's 0.56 of the way to the knee on a 0.35 m
  seat, 0.38 on a 0.6 m one).

A figure facing more than ``TURN_FIRST`` (0.2 rad) off the way it will sit turns there on the
spot first, standing, its feet carried round with it (``_act._plan_turn``, as lying down does;
``_after_turn`` plans the way down from where its feet then stand); within it, each leg bends
over the way its foot faces (``LEG_FOLLOW``), and standing up it faces its feet. A leg bent over
a foot turned off the way it sits is tilted about its forward axis to reach its hip, which its
hinged knee and ankle cannot take: the ankle rolls the planted foot with it (10 degrees sat, 20
degrees off) and the toes slide.

Not built (the spec's): the legs are solved at the keys, not every step (the soles' middle is
held every step and the feet planted); a stage into the animation's pose is not eased limb by
limb. Units: m, s, rad; leans and angles in degrees where named so.
"""

from __future__ import annotations

import math
import weakref
from dataclasses import dataclass
from typing import Any

import numpy as np

from ae3d import _validate as V
from ae3d import human
from ae3d.physics import _layout as PL

from . import _get_up as G
from . import _keyed as K
from ._layout import (
    ACTING,
    F_ANIM_POS,
    F_ANIM_ROT,
    F_GU_BASE_P,
    F_GU_BASE_Q,
    F_GU_KEY_P,
    F_GU_MOVE,
    F_GU_SOLES,
    F_GU_T,
    F_GU_WAY,
    F_KNOCKED,
    F_LEAN,
    F_LYING,
    F_MODE,
    F_RESUME,
    GETTING_UP,
    LIMP,
    PB_GU_BASE_Q,
    PB_GU_KEY_Q,
    PB_GU_P,
    PB_GU_Q,
    PB_TARGET,
    POWERED,
    S_FALL_LEAN,
    S_GU_STAGE,
)
from ._service import PARENT, Motion, check, service

_P = human
# F_GU_WAY's values on the sitting ways (after WAY_LIE_DOWN 3, _act.py; the kernels tell an
# action by its mode, ACTING, not by these)
WAY_SIT = 4
WAY_STAND_UP = 5

TRUNK_DOWN = 35.0   # deg: the trunk's lean over the feet sitting down (Schenkman et al. 1990)
TRUNK_UP = 42.0     # deg: its lean on the seat before the hips lift, standing up
TRUNK_OVER = 30.0   # deg: its lean as the hips come over the feet, standing up
HIPS_DOWN = 0.4     # share of the way from standing to the seat the hips are at, trunk leant
HIPS_UP = 0.5       # share of the way from the seat to standing the hips are at, over the feet
HIPS_BACK = 0.08    # m: the hips behind the soles' middle (the ankles) as they come over the feet
ELBOW = 30.0        # deg: a hand on its thigh, its elbow bent at least this (spec: 30)
HAND_ALONG = 0.5    # a hand rests no further down its thigh than this share of hip to knee
# The trunk's lean shared down the spine: leant all from the pelvis on a 0.35 m seat, the hips
# flexed 24 degrees (the Mixamo man 28) past their 120 (spec: "a key's limbs must be ones its
# body can take")
PELVIS_SHARE = 0.25
BACK_SHARE = 0.7
SHIN_MOST = 15.0    # deg: a shin's forward lean over its flat foot in a key (the ankle bends 20)
LEG_FOLLOW = 60.0   # deg: a leg bends over the way its foot faces within this of the way it sits
# rad: a figure facing further than this off the way it will sit turns there on the spot first,
# standing (``_act._plan_turn``, as lying down does, its feet carried round with it), then sits;
# within it, its legs bend over its feet (its ankles rolling the feet a little). Measured on
# tests/motion/sit.py, a 0.45 m squared log (toes sitting down / standing up): 20 degrees off,
# 4.0 / 2.7 mm on the box man and 4.3 / 3.0 on the Mixamo man as it is, 1.4 / 2.0 and 1.6 / 3.3
# turning first; 30 off, 4.6 / 2.9 and 5.0 / 3.7 as it is, 1.4 / 2.0 and 1.6 / 3.3 turning
# first; 11 off (within this), 2.6 / 2.4 and 3.2 / 3.1. With the feet left to turn with the
# figure (0.55 rad then), 5.6 / 4.9 and 5.9 / 5.4 turning first, 45 degrees to half a turn off
TURN_FIRST = 0.2
# (measured on tests/motion/sit.py, both rigs POWERED on 0.35 and 0.45 m squared logs and a 0.6 m
# round one: with the shins let lean as the hips came over the feet, 2 to 4 degrees past the
# ankle's 20, the toes slid up to 6.1 mm standing up (the Mixamo man, 0.35 m); the hips raised
# until they lean 15 at most, 1.1 mm)
SEAT_ABOVE = 0.25   # m: a seat's surface is looked for from this over ``seat`` down
SEAT_LOW = 0.15     # m: a seat lower than this over the ground at the feet is no seat
REACH = 1.25        # the seat within this many thigh lengths of the feet (over the ground)
SAMPLES = 17        # points along a capsule's lower line sampled down onto the seat, then as
                    # many again between the highest one's neighbours
# the arms while the hips go down or come over the feet: reaching forward (world leans, deg)
ARMS_AHEAD = {_P.BONE_UPPERARM_L: -25.0, _P.BONE_LOWERARM_L: -55.0,
              _P.BONE_UPPERARM_R: -25.0, _P.BONE_LOWERARM_R: -55.0}
_ARMS = ((_P.BONE_UPPERARM_L, _P.BONE_LOWERARM_L, _P.BONE_THIGH_L),
         (_P.BONE_UPPERARM_R, _P.BONE_LOWERARM_R, _P.BONE_THIGH_R))
_LEGS = ((_P.BONE_THIGH_L, _P.BONE_CALF_L, _P.BONE_FOOT_L),
         (_P.BONE_THIGH_R, _P.BONE_CALF_R, _P.BONE_FOOT_R))
_ON_SEAT = (_P.BONE_PELVIS, _P.BONE_THIGH_L, _P.BONE_THIGH_R)


# ------------------------------------------------------------------------------ rotations
def _axis_quat(axis: np.ndarray, deg: float) -> np.ndarray:
    a = math.radians(deg)
    s = math.sin(0.5 * a)
    return np.array([axis[0] * s, axis[1] * s, axis[2] * s, math.cos(0.5 * a)])


def _conj(q: np.ndarray) -> np.ndarray:
    return np.array([-q[0], -q[1], -q[2], q[3]])


class _Frame:
    """A ragdoll's standing rotations, joints and capsules, and the facing ``yaw`` (rad): what
    every key of a sit is built from."""

    def __init__(self, r: Any, yaw: float) -> None:
        self.r = r
        self.n = r.bones
        self.yaw = yaw
        self.turn = K.yaw_quat(yaw)
        self.stand = K.standing_world(r)
        self.fwd = np.array([math.sin(yaw), 0.0, math.cos(yaw)])
        self.across = np.array([math.cos(yaw), 0.0, -math.sin(yaw)])
        jf = r.engine.physics.jf
        self.pa = np.zeros((self.n, 3))
        self.pb = np.zeros((self.n, 3))
        for b in range(1, self.n):
            j = int(r.joints[b])
            self.pa[b] = jf[j, PL.J_PA:PL.J_PA + 3]
            self.pb[b] = jf[j, PL.J_PB:PL.J_PB + 3]
        self.dims = K.dims_of(r)
        self.feet = r.bones > _P.BONE_FOOT_R
        # each leg's own turn about +Y (its thigh's bone -> quaternion): the way its foot faces,
        # set by _Plan from where it stands (the figure's yaw until then)
        self.leg_turn: dict = {}

    def lean(self, b: int, deg: float, tilt: float = 0.0, turn: Any = None) -> np.ndarray:
        """Bone ``b``'s world rotation leant ``deg`` about the axis across the figure and tilted
        ``tilt`` deg about its forward axis (toward the figure's middle for a positive tilt on
        its left), from standing, turned to face the yaw (or by ``turn``, a quaternion about
        +Y: a leg turned to face the way its foot does)."""
        bend = _axis_quat(np.array(K.ACROSS), deg)
        roll = _axis_quat(np.array([0.0, 0.0, 1.0]), tilt)
        return K._qm(self.turn if turn is None else turn,
                     K._qm(roll, K._qm(bend, self.stand[b])))

    def far_end(self, b: int) -> np.ndarray:
        """Body ``b``'s capsule end farther from its joint's point (its own frame)."""
        e = np.array([0.0, self.dims[b, 1], 0.0])
        return e if np.linalg.norm(e - self.pb[b]) >= np.linalg.norm(-e - self.pb[b]) else -e


def _world(fr: _Frame, leans: dict) -> np.ndarray:
    """(n, 4): every bone's world rotation from ``leans`` (deg; a bone not given leans with its
    parent), facing the frame's yaw."""
    q = np.zeros((fr.n, 4))
    lean = np.zeros(fr.n)
    for b in range(fr.n):
        lean[b] = leans.get(b, lean[PARENT[b]] if b > 0 else 0.0)
        q[b] = fr.lean(b, lean[b])
    return q


def _local(fr: _Frame, world: np.ndarray, pelvis: np.ndarray) -> tuple:
    """A key (loc_q, loc_t) from world rotations and the pelvis body's position (m)."""
    lq = np.zeros((fr.n, 4))
    lq[0] = world[0]
    for b in range(1, fr.n):
        lq[b] = K._qm(_conj(world[PARENT[b]]), world[b])
        if lq[b, 3] < 0.0:
            lq[b] *= -1.0
    lt = np.zeros((fr.n, 3))
    lt[0] = pelvis
    return lq, lt


def _hip_offset(fr: _Frame, q0: np.ndarray) -> np.ndarray:
    """(3,) m: the hips' middle from the pelvis body's centre, the pelvis turned ``q0``."""
    a = K._qr(q0, fr.pa[_P.BONE_THIGH_L])
    b = K._qr(q0, fr.pa[_P.BONE_THIGH_R])
    return 0.5 * (a + b)


# ------------------------------------------------------------------------------ the solves
def _leg_ankle(fr: _Frame, hip: np.ndarray, leg: tuple, x: np.ndarray) -> tuple:
    """The ankle (the foot's joint point; a footless figure's calf's far end) of ``leg`` (thigh,
    calf, foot) from its hip joint ``hip`` (m) with leans ``x`` (thigh, calf, tilt; deg)."""
    th, ca, ft = leg
    turn = fr.leg_turn.get(th)
    qt = fr.lean(th, x[0], x[2], turn)
    qc = fr.lean(ca, x[1], x[2], turn)
    knee = hip + K._qr(qt, fr.pa[ca] - fr.pb[th])
    end = fr.pa[ft] if fr.feet else fr.far_end(ca)
    return knee + K._qr(qc, end - fr.pb[ca]), qt, qc


def _leg(fr: _Frame, hip: np.ndarray, leg: tuple, ankle: np.ndarray) -> tuple:
    """The thigh's and calf's world rotations putting ``leg``'s ankle at ``ankle`` (m) from its
    hip joint at ``hip``, the knee ahead: Newton's method on (thigh lean, calf lean, tilt) from
    a bent knee, the step halved where it would not close the gap. Raises ValueError when the
    ankle is out of the leg's reach (the seat too high or too far from the feet)."""
    x = np.array([-60.0, 10.0, 0.0])
    err = _leg_ankle(fr, hip, leg, x)[0] - ankle
    for _ in range(40):
        if float(np.linalg.norm(err)) < 1e-7:
            break
        jac = np.zeros((3, 3))
        for i in range(3):
            d = np.zeros(3)
            d[i] = 1e-3
            jac[:, i] = (_leg_ankle(fr, hip, leg, x + d)[0] - ankle - err) / 1e-3
        step = np.linalg.lstsq(jac, -err, rcond=None)[0]
        step = np.clip(step, -20.0, 20.0)
        for _h in range(8):
            e2 = _leg_ankle(fr, hip, leg, x + step)[0] - ankle
            if float(np.linalg.norm(e2)) < float(np.linalg.norm(err)):
                break
            step *= 0.5
        x = x + step
        err = _leg_ankle(fr, hip, leg, x)[0] - ankle
    if float(np.linalg.norm(err)) > 1e-4 or x[1] - x[0] < 0.0:
        raise ValueError("seat: out of the legs' reach from where the feet stand (stand the "
                         "figure at sit_spot(body, seat, facing))")
    _, qt, qc = _leg_ankle(fr, hip, leg, x)
    return qt, qc, float(x[1])


def _hand_at(fr: _Frame, shoulder: np.ndarray, up: int, fore: int, x: np.ndarray) -> tuple:
    """The forearm's far end from the shoulder joint ``shoulder`` (m): the upper arm leant x[0]
    deg and the forearm x[2] deg more (the elbow's bend), both tilted x[1] deg about the forward
    axis."""
    qu = fr.lean(up, x[0], x[1])
    qf = fr.lean(fore, x[0] - x[2], x[1])
    elbow = shoulder + K._qr(qu, fr.pa[fore] - fr.pb[up])
    return elbow + K._qr(qf, fr.far_end(fore) - fr.pb[fore]), qu, qf


def _thigh_top(fr: _Frame, p: np.ndarray, q: np.ndarray, th: int, at: np.ndarray) -> tuple:
    """(across, height m, along): the thigh's middle line across the figure and its top (the
    capsule's axis plus its radius) at ``at``'s distance along the figure's forward axis, and
    that distance's share of the way from the hip joint to the knee joint (unclamped)."""
    ax = K._qr(q[th], (0.0, fr.dims[th, 1], 0.0))
    a, b = p[th] - ax, p[th] + ax
    fa, fb = float(a @ fr.fwd), float(b @ fr.fwd)
    f = float(at @ fr.fwd)
    s = 0.5 if abs(fb - fa) < 1e-9 else min(1.0, max(0.0, (f - fa) / (fb - fa)))
    c = a + (b - a) * s
    hip = p[th] + K._qr(q[th], fr.pb[th])
    knee = p[th + 1] + K._qr(q[th + 1], fr.pb[th + 1])
    run = float((knee - hip) @ fr.fwd)
    along = (f - float(hip @ fr.fwd)) / run if abs(run) > 1e-9 else 0.0
    return float(c @ fr.across), float(c[1]) + float(fr.dims[th, 0]), along


def _hand_gap(fr: _Frame, p: np.ndarray, q: np.ndarray, shoulder: np.ndarray, arm: tuple,
              x: np.ndarray) -> np.ndarray:
    """m: arm (upper arm, forearm, its thigh) leant, tilted and bent ``x`` (``_hand_at``): its
    forearm's far end across the figure from the thigh's middle line, over the thigh's top less
    the forearm's radius (both 0 when the hand rests on the thigh), and with a third of ``x``
    free (the bend), its share of the way along the thigh past HAND_ALONG (m, scaled by the
    thigh's run)."""
    up, fore, th = arm
    hand = _hand_at(fr, shoulder, up, fore, x)[0]
    across, top, along = _thigh_top(fr, p, q, th, hand)
    out = [float(hand @ fr.across) - across, float(hand[1]) - top - float(fr.dims[fore, 0])]
    if len(x) > 3:
        out.append((along - HAND_ALONG) * 0.4)
    return np.array(out)


def _newton(f: Any, x: np.ndarray, n: int) -> np.ndarray:
    """Newton's method on the first ``n`` of ``x`` (deg) for f(x) = 0, finite differences, each
    step capped at 15 deg and halved where it does not bring |f| down."""
    err = f(x)
    for _ in range(30):
        if float(np.linalg.norm(err)) < 1e-6:
            break
        jac = np.zeros((len(err), n))
        for i in range(n):
            d = np.zeros(len(x))
            d[i] = 1e-3
            jac[:, i] = (f(x + d) - err) / 1e-3
        step = np.zeros(len(x))
        step[:n] = np.clip(np.linalg.lstsq(jac, -err, rcond=None)[0], -15.0, 15.0)
        for _h in range(8):
            if float(np.linalg.norm(f(x + step))) < float(np.linalg.norm(err)):
                break
            step *= 0.5
        x = x + step
        err = f(x)
    return x


def _hands(fr: _Frame, world: np.ndarray, pelvis: np.ndarray) -> None:
    """Each hand onto its thigh (``world`` rows of the arms set): the forearm's far end over the
    thigh's middle line, on its top (its own radius over it), the elbow bent ELBOW (Newton's
    method on the upper arm's lean and the arm's tilt); where that reaches further down the
    thigh than HAND_ALONG (a low seat), the elbow bent more to rest the hand there (spec: "each
    hand rests where its arm reaches with the elbow bent 30 degrees at least, further up the
    thigh on a high seat")."""
    lq, lt = _local(fr, world, pelvis)
    p, q = K.key_world(fr.r, lq, lt)
    for arm in _ARMS:
        up, fore, th = arm
        shoulder = p[PARENT[up]] + K._qr(q[PARENT[up]], fr.pa[up])

        def gap(x: np.ndarray, shoulder: np.ndarray = shoulder, arm: tuple = arm) -> np.ndarray:
            return _hand_gap(fr, p, q, shoulder, arm, x)
        x = _newton(gap, np.array([-40.0, 0.0, ELBOW]), 2)
        hand = _hand_at(fr, shoulder, up, fore, x)[0]
        if _thigh_top(fr, p, q, th, hand)[2] > HAND_ALONG:
            # the bend free too: a fourth entry marks the along-the-thigh row (its value unused)
            x4 = _newton(gap, np.array([x[0], x[1], ELBOW + 20.0, 0.0]), 3)
            if x4[2] >= ELBOW:
                x = x4[:3]
        _, world[up], world[fore] = _hand_at(fr, shoulder, up, fore, x)


def _lower_line(fr: _Frame, p: np.ndarray, q: np.ndarray, b: int, n: int) -> np.ndarray:
    """(n + 2, 3) m: points on body ``b``'s capsule's lower line (its segment moved its radius
    down, square to the segment) and the bottoms of its two ends."""
    r = float(fr.dims[b, 0])
    ax = K._qr(q[b], (0.0, fr.dims[b, 1], 0.0))
    u = ax / max(float(np.linalg.norm(ax)), 1e-12)
    down = np.array([0.0, -1.0, 0.0])
    nrm = down - float(down @ u) * u
    nn = float(np.linalg.norm(nrm))
    nrm = down if nn < 1e-9 else nrm / nn
    s = np.linspace(-1.0, 1.0, n)
    pts = p[b] + s[:, None] * ax + r * nrm
    ends = np.array([p[b] - ax, p[b] + ax]) + np.array([0.0, -r, 0.0])
    return np.vstack([pts, ends])


def _seat_need(e: Any, fr: _Frame, p: np.ndarray, q: np.ndarray, top: float) -> float:
    """m: how far to raise (negative: lower) the pelvis and thighs so their lowest point, against
    the surface under each point of them, rests on it: each capsule's lower line and ends sampled
    down onto the first static body under them (looked for from ``top``), then as finely again
    between the highest sample's neighbours."""
    need = -1e300
    for b in _ON_SEAT:
        pts = _lower_line(fr, p, q, b, SAMPLES)
        gaps = np.array([K.ground_under(e, float(x[0]), float(x[2]), top) - float(x[1])
                         for x in pts])
        need = max(need, float(gaps.max()))
        i = int(np.argmax(gaps[:SAMPLES]))
        lo, hi = max(i - 1, 0), min(i + 1, SAMPLES - 1)
        fine = _lower_line(fr, p, q, b, (SAMPLES - 1) * 8 + 1)[8 * lo:8 * hi + 1]
        for x in fine:
            need = max(need, K.ground_under(e, float(x[0]), float(x[2]), top) - float(x[1]))
    return need


# ------------------------------------------------------------------------------ the keys
class _Plan:
    """A sit's fixed points: the frame, the ankles where the feet stand and the feet's turns,
    the standing hips' middle (m) and the seat's point and surface's ``top``."""

    def __init__(self, m: Motion, seat: np.ndarray, yaw: float, P: np.ndarray,
                 Q: np.ndarray) -> None:
        self.m = m
        self.fr = fr = _Frame(m.ragdoll, yaw)
        self.seat = seat
        self.top = float(seat[1]) + SEAT_ABOVE
        self.ankles = []
        self.feet_q = []
        for _th, ca, ft in _LEGS:
            if fr.feet:
                self.ankles.append(P[ft] + K._qr(Q[ft], fr.pb[ft]))
                self.feet_q.append(Q[ft].copy())
            else:
                self.ankles.append(P[ca] + K._qr(Q[ca], fr.far_end(ca)))
        # each leg in the plane its foot faces (spec: "a planted foot keeps the turn it stands
        # with"): its knee over its toes, so a foot splayed, or a figure sitting turned from the
        # way it stood, bends its legs over its feet rather than twisting them at the ankle
        # (a foot turned more than LEG_FOLLOW from the way it sits: the leg in that way, the
        # foot twisted at its ankle, as a figure stood the wrong way round)
        self.feet_yaw = []
        for th, ca, ft in _LEGS:
            b = ft if fr.feet else ca
            fwd = K._qr(Q[b], np.array(_P.BONE_FORWARD_LOCAL[b], dtype=np.float64))
            d = math.atan2(float(fwd[0]), float(fwd[2])) - yaw
            d = math.atan2(math.sin(d), math.cos(d))
            yaw_b = yaw + (d if abs(d) <= math.radians(LEG_FOLLOW) else 0.0)
            self.feet_yaw.append(yaw_b)
            fr.leg_turn[th] = K.yaw_quat(yaw_b)
        from ._act import hips_point
        self.stand_hips = hips_point(m.ragdoll, P, Q)
        self.sole = K.sole_point(m.ragdoll, P, Q)

    def key(self, trunk: float, hips: np.ndarray, hands: bool, lift: bool = False) -> tuple:
        """A key: the trunk leant ``trunk`` deg (the pelvis ``PELVIS_SHARE`` of it, the lower back
        ``BACK_SHARE``, the chest all of it, the head half), the hips' middle at ``hips`` (m),
        the legs solved to the ankles, the feet at their turns, the hands on the thighs
        (``hands``) or reaching ahead. ``lift``: the hips raised (1 cm a try) until no shin leans
        forward past ``SHIN_MOST`` over its flat foot. Returns (loc_q, loc_t, p, q)."""
        fr = self.fr
        leans = {_P.BONE_PELVIS: PELVIS_SHARE * trunk, _P.BONE_SPINE_01: BACK_SHARE * trunk,
                 _P.BONE_SPINE_03: trunk, _P.BONE_NECK: 0.5 * trunk, **ARMS_AHEAD}
        world = _world(fr, leans)
        hips = np.array(hips, dtype=np.float64)

        def legs(hips: np.ndarray) -> tuple:
            pelvis = hips - _hip_offset(fr, world[0])
            shin = -1e300
            for i, (th, ca, ft) in enumerate(_LEGS):
                hip = pelvis + K._qr(world[0], fr.pa[th])
                world[th], world[ca], lean = _leg(fr, hip, (th, ca, ft), self.ankles[i])
                shin = max(shin, lean)
                if fr.feet:
                    world[ft] = self.feet_q[i]
            return pelvis, shin
        pelvis, shin = legs(hips)
        for _ in range(40):
            if not lift or shin <= SHIN_MOST:
                break
            hips[1] += 0.01
            try:
                pelvis, shin = legs(hips)
            except ValueError:
                # the legs straight before the shins come upright: as high as they reach
                hips[1] -= 0.01
                pelvis, shin = legs(hips)
                break
        if hands:
            _hands(fr, world, pelvis)
        lq, lt = _local(fr, world, pelvis)
        p, q = K.key_world(fr.r, lq, lt)
        return lq, lt, p, q

    def sat_hips(self, trunk: float) -> np.ndarray:
        """(3,) m: the hips' middle at the seat's point over the ground, as high as sets the
        pelvis and thighs down on the seat's surface (trunk leant ``trunk``, the legs solved
        with it: the hips' height and the thighs' slope go together, so the height is found by
        the secant method on ``_seat_need``)."""
        e = self.m.engine
        surface = K.ground_under(e, float(self.seat[0]), float(self.seat[2]), self.top)
        hips = np.array([self.seat[0], surface + 0.12, self.seat[2]])

        def need(y: float) -> float:
            hips[1] = y
            _, _, p, q = self.key(trunk, hips, False)
            return _seat_need(e, self.fr, p, q, self.top)
        y0 = float(hips[1])
        g0 = need(y0)
        y1 = y0 + max(-0.1, min(0.1, g0))
        for _ in range(30):
            try:
                g1 = need(y1)
            except ValueError:
                break           # raised past the legs' reach: no height rests it
            if abs(g1) < 1e-6:
                hips[1] = y1
                return hips.copy()
            slope = (g1 - g0) / (y1 - y0) if abs(y1 - y0) > 1e-12 else -1.0
            if slope > -0.05:
                slope = -1.0      # the need falls as the hips rise; a flat one steps its own size
            y0, g0 = y1, g1
            y1 = y1 + max(-0.1, min(0.1, -g1 / slope))
        raise ValueError("seat: the pelvis and thighs find no height to rest at on it from where "
                         "the feet stand (a high seat's front under the thighs: give a point "
                         "nearer its front edge)")


def _yaw_of(facing: np.ndarray) -> float:
    return math.atan2(float(facing[0]), float(facing[2]))


def _facing_arg(facing: Any) -> np.ndarray:
    f = V.vector(facing, "facing", unit="m")
    if float(np.hypot(f[0], f[2])) < 1e-6:
        raise ValueError("facing must point over the ground (its x and z not both 0): the way "
                         "the figure faces sat")
    return f


def _seat_arg(seat: Any) -> np.ndarray:
    return V.position(seat, "seat")


def _thigh_length(r: Any) -> float:
    """m: the hip joint to the knee joint."""
    jf = r.engine.physics.jf
    th, ca = _P.BONE_THIGH_L, _P.BONE_CALF_L
    a = jf[int(r.joints[th]), PL.J_PB:PL.J_PB + 3]
    b = jf[int(r.joints[ca]), PL.J_PA:PL.J_PA + 3]
    return float(np.linalg.norm(b - a))


# ------------------------------------------------------------------------------ the façade
def sit_spot(body: Motion, seat: Any, facing: Any) -> np.ndarray:
    """(3,) m: where figure ``body`` stands (its soles' middle, facing ``facing``) to sit on
    ``seat`` (the point its hips' middle comes to rest at, on the seat's top) with its shins
    upright: a thigh's length (hip joint to knee joint) ahead of the seat along ``facing`` where
    the seat is as high as its knees, less by the thigh's slope where it is higher or lower (the
    knee over the ankle, the hip joint a thigh's radius over the seat's surface), on the ground
    under it (the first static body below, looked for from the seat's height; the seat's height
    where there is none). Raises TypeError/ValueError for a bad handle, ``seat`` not a point in
    the world or ``facing`` not a direction over the ground."""
    m = check(body)
    st = _seat_arg(seat)
    f = _facing_arg(facing)
    yaw = _yaw_of(f)
    r = m.ragdoll
    e = m.engine
    d = _thigh_length(r)
    fwd = np.array([math.sin(yaw), 0.0, math.cos(yaw)])
    top = float(st[1])
    surface = K.ground_under(e, float(st[0]), float(st[2]), top + SEAT_ABOVE)
    x, z = float(st[0]) + d * fwd[0], float(st[2]) + d * fwd[2]
    g = K.ground_under(e, x, z, top)
    ground = g if g > top - 50.0 else top
    if surface - ground >= SEAT_LOW:
        # the knee's height standing (the ankle's over the ground, and the shin) against the
        # hip joint's, sat: the thigh's slope between them
        knee = ground + _knee_height(r)
        hip = surface + float(K.dims_of(r)[_P.BONE_THIGH_L, 0])
        rise = min(abs(hip - knee), 0.9 * d)
        d = math.sqrt(d * d - rise * rise)
        x, z = float(st[0]) + d * fwd[0], float(st[2]) + d * fwd[2]
        g = K.ground_under(e, x, z, top)
        ground = g if g > top - 50.0 else top
    return np.array([x, ground, z])


def _knee_height(r: Any) -> float:
    """m: the knee joint over the ground standing in the rest pose (the lowest point of the
    figure's capsules)."""
    lq, lt = K.key_from_leans(r, {}, 0.0)
    p, q = K.key_world(r, lq, lt)
    low = float(K.point_lows(p, q, K.dims_of(r))[:, 1].min())
    j = int(r.joints[_P.BONE_CALF_L])
    jf = r.engine.physics.jf
    knee = p[_P.BONE_CALF_L] + K._qr(q[_P.BONE_CALF_L], jf[j, PL.J_PB:PL.J_PB + 3])
    return float(knee[1]) - low


def sit(body: Motion, seat: Any, facing: Any) -> bool:
    """Sit figure ``body`` on ``seat`` (the point its hips' middle comes to rest at, on the
    seat's top: the first static body under it, looked for from 0.25 m over it), facing
    ``facing`` (a direction in the world, its height ignored), from where it stands (stand it at
    ``sit_spot``): the trunk leans 35 degrees over the feet as the hips go back and down, the
    hips come onto the seat, and it sits upright with its hands on its thighs (three stages of
    0.7 s); then it holds there, sat (ACTING), until ``stand_up(body)`` or ``set_mode``. Its
    feet stay where they stood, planted. From POWERED or ANIMATED, standing.

    Returns True when it began; False (nothing written) when it cannot sit from where it is
    now: falling, on the ground (``down``), getting up or already acting. Raises TypeError/
    ValueError (before anything is written) for a bad handle, ``seat`` not a point in the
    world, ``facing`` not three finite numbers or straight up or down, a LIMP figure, no seat
    under ``seat`` (its surface less than 0.15 m over the ground at the feet), or a seat out of
    the legs' reach from where the feet stand."""
    m = check(body)
    st = _seat_arg(seat)
    fc = _facing_arg(facing)
    s = service(m.engine)
    f = m.slot
    mode = int(s.fi[f, F_MODE])
    if mode == LIMP:
        raise ValueError("a LIMP figure cannot sit (it is a ragdoll): set it POWERED or "
                         "ANIMATED first")
    if mode in (GETTING_UP, ACTING):
        return False
    from ._balance import falling
    if (mode == POWERED and falling(m)) or G.down(m):
        return False
    yaw = _yaw_of(fc)
    from . import _act
    P, Q = G._bodies(m)
    off = _act._turn_from(P, Q, yaw)
    if abs(off) <= TURN_FIRST:
        _start_sit(m, _plan_sit(m, st, yaw))
        return True
    # turned off the way it will sit: planned (and checked, before anything is written) from
    # where the turn on the spot will stand it, then begun from there once it is round
    sole = K.sole_point(m.ragdoll, P, Q)
    _plan_sit(m, st, yaw, _act.turned_bodies(P, Q, sole, off))
    _start_turn(m, st, yaw, sole, off)
    return True


def sitting(body: Motion) -> bool:
    """True while figure ``body`` sits down or sits, sat (``sit``, until ``stand_up`` or
    ``set_mode``)."""
    m = check(body)
    s = service(m.engine)
    return int(s.fi[m.slot, F_MODE]) == ACTING and int(s.fi[m.slot, F_GU_WAY]) == WAY_SIT


def seated(body: Motion) -> bool:
    """True once figure ``body`` has come to sit (its last key reached), until ``stand_up`` or
    ``set_mode``."""
    m = check(body)
    s = service(m.engine)
    f = m.slot
    return (sitting(m) and float(s.ff[f, F_GU_T])
            >= G.STAGES * float(s.prm[S_GU_STAGE]) - 1e-9)


def stand_up(body: Motion) -> bool:
    """Stand figure ``body`` up from its seat: it leans forward 42 degrees on the seat, lifts its
    hips over its feet and ends in the animation's own pose where its feet stand, facing the way
    it sat (three stages of 0.7 s, ACTING while it rises), then is handed back to the mode it sat
    down from (POWERED or ANIMATED), the animation moved there. Returns True when it began;
    False (nothing written) when it is not sitting (``sitting``). Holding something (``hold``,
    ``hold_cup``), it lets go first and stands once its hands are back on its thighs. Raises
    TypeError/ValueError for a bad handle."""
    m = check(body)
    if not sitting(m):
        return False
    from . import _act
    if "sit" not in _act._KEPT.get(m, {}):
        return False        # still turning to the way it will sit
    from . import _eat
    if _eat.stand_after(m):
        # holding something: it lets go first, and stands once its hands are back
        return True
    _start_stand(m)
    return True


def get_up(body: Motion) -> bool:
    """``_get_up.get_up``, but a figure sitting (or sat) on a seat stands up from it
    (``stand_up``) rather than taking a way up from the ground (on a low seat its pelvis is
    within ``down``'s 0.45 m of its feet); one standing up is already on its way (False)."""
    m = check(body)
    s = service(m.engine)
    if int(s.fi[m.slot, F_MODE]) == ACTING and int(s.fi[m.slot, F_GU_WAY]) in (WAY_SIT,
                                                                              WAY_STAND_UP):
        return stand_up(m)
    return G.get_up(m)


# ------------------------------------------------------------------------------ the ways
def _plan_sit(m: Motion, seat: np.ndarray, yaw: float, pose: Any = None,
              again: bool = False) -> dict:
    """Sitting's keys from where the figure stands (its bodies, or ``pose`` (P, Q)) (Python,
    once; raises before anything is written when there is no seat or it is out of reach).
    ``again``: it is on the seat already (knocked, at rest there): every key the sat one, so it
    eases back into sitting rather than rising to sit down again."""
    P, Q = G._bodies(m) if pose is None else pose
    plan = _Plan(m, seat, yaw, P, Q)
    e = m.engine
    ground = K.ground_under(e, float(plan.sole[0]), float(plan.sole[2]),
                            float(plan.sole[1]) + 0.3)
    surface = K.ground_under(e, float(seat[0]), float(seat[2]), plan.top)
    if surface - ground < SEAT_LOW:
        raise ValueError(f"seat: no seat under it (the first static body under it is "
                         f"{surface - ground:.3f} m over the ground at the feet, under "
                         f"{SEAT_LOW} m)")
    far = float(np.hypot(seat[0] - plan.sole[0], seat[2] - plan.sole[2]))
    if far > REACH * _thigh_length(m.ragdoll) + 0.1:
        raise ValueError(f"seat: {far:.2f} m from where the feet stand, out of the legs' reach "
                         "(stand the figure at sit_spot(body, seat, facing))")
    # the hips' height on the seat, solved once: a trunk's lean turns the pelvis's capsule about
    # its own axis (across the hips), so the keys on the seat share it
    sat = plan.sat_hips(0.0)
    lean = sat
    down = plan.stand_hips + (lean - plan.stand_hips) * HIPS_DOWN
    k3 = plan.key(0.0, sat, True)
    if again:
        return dict(plan=plan, keys=(k3, k3, k3), sat=sat)
    k1 = plan.key(TRUNK_DOWN, down, False, lift=True)
    k2 = plan.key(TRUNK_DOWN, lean, True)
    return dict(plan=plan, keys=(k1, k2, k3), sat=sat)


def _start_sit(m: Motion, got: dict) -> None:
    """Begin sitting: key 0 the pose it stands in, keys 1-2 the hips going down and onto the
    seat, the sat key as the way's last (kept where the way up keeps the animation's own pose,
    with no move); the animation's own pose kept (``_act._KEPT``) to put back."""
    from . import _act
    from ._pose import body_local
    s = service(m.engine)
    f = m.slot
    r = m.ragdoll
    nb = r.bones
    P, Q = G._bodies(m)
    k0q, k0t = body_local(m)
    _act._KEPT[m] = dict(pos=s.ff[f, F_ANIM_POS:F_ANIM_POS + 3].copy(),
                         rot=s.ff[f, F_ANIM_ROT:F_ANIM_ROT + 4].copy(),
                         targets=s.pbf[f, :nb, PB_TARGET:PB_TARGET + 4].copy(),
                         plant_from=0, sit=got)
    _write_sit_keys(m, (k0q, k0t), got)
    _act.begin(m, k0q, k0t, P, Q)


def _write_sit_keys(m: Motion, k0: tuple, got: dict) -> None:
    """Sitting's keys into figure ``m``'s rows: key 0 ``k0`` (local (q, t)), keys 1-2 the hips
    going down and onto the seat, the sat key the way's last; the soles' middle kept every
    stage, the clock at 0."""
    from . import _act
    (k1q, k1t, _, _), (k2q, k2t, _, _), (k3q, k3t, _, _) = got["keys"]
    _act._write_keys(m, (k0, (k1q, k1t), (k2q, k2t)), (k3q, k3t), 0b111, WAY_SIT)


def _start_turn(m: Motion, seat: np.ndarray, yaw: float, sole: np.ndarray, off: float) -> None:
    """Begin sitting with a turn on the spot (``_act._plan_turn``, as lying down does: its
    standing pose turned about its soles' middle, a 0.7 s stage for each quarter turn or part,
    its feet free to turn with it); ``_after_turn`` begins the way down once it is round."""
    from . import _act
    from ._pose import body_local
    s = service(m.engine)
    f = m.slot
    r = m.ragdoll
    nb = r.bones
    P, Q = G._bodies(m)
    k0 = body_local(m)
    _act._KEPT[m] = dict(pos=s.ff[f, F_ANIM_POS:F_ANIM_POS + 3].copy(),
                         rot=s.ff[f, F_ANIM_ROT:F_ANIM_ROT + 4].copy(),
                         targets=s.pbf[f, :nb, PB_TARGET:PB_TARGET + 4].copy(),
                         plant_from=0, yaw=yaw, sole=sole, seat=seat, then=_after_turn)
    _act._plan_turn(m, k0, sole, off)
    s.fi[f, F_GU_WAY] = WAY_SIT
    _act.begin(m, k0[0], k0[1], P, Q)


def _after_turn(m: Motion) -> None:
    """Round to the way it will sit (``_act.after_step``): the way down planned from where the
    bodies stand and begun from the pose the turn ended in (the animation's, which the drawing
    and the bodies follow), its clock at 0, its feet planted from its first step."""
    from . import _act
    from ._pose import anim_local
    kept = _act._KEPT[m]
    # planned on the bodies (where the feet stand, about to be planted), begun from the pose
    # drawn (the turn's last)
    got = _plan_sit(m, kept["seat"], kept["yaw"])
    kept["sit"] = got
    _write_sit_keys(m, anim_local(m), got)


def _start_stand(m: Motion) -> None:
    """Begin standing up from the pose drawn (the way's): key 1 leant forward on the seat, key 2
    the hips over the feet, key 3 the animation's own pose (kept as it sat down) moved and turned
    so its soles' middle is where the feet stand, facing the way it sat (``F_GU_MOVE``, as a way
    up moves it; ``_get_up.end_way`` moves the animation there as it ends)."""
    from . import _act
    s = service(m.engine)
    f = m.slot
    r = m.ragdoll
    nb = r.bones
    kept = _act._KEPT[m]
    got = kept["sit"]
    plan = got["plan"]
    fr = plan.fr
    P = s.pbf[f, :nb, PB_GU_P:PB_GU_P + 3].copy()
    Q = s.pbf[f, :nb, PB_GU_Q:PB_GU_Q + 4].copy()
    from ._kin import relative_from_world
    k0q = np.zeros((nb, 4))
    k0t = np.zeros((nb, 3))
    relative_from_world(nb, PARENT, Q, k0q)
    k0t[0] = P[0]
    lean = got["sat"]
    k1 = plan.key(TRUNK_UP, lean, True)
    over = plan.sole - fr.fwd * HIPS_BACK
    over[1] = lean[1] + (plan.stand_hips[1] - lean[1]) * HIPS_UP
    k2 = plan.key(TRUNK_OVER, over, False, lift=True)
    # the animation's own pose, as kept, in the world; turned to face the way it sat and moved
    # so its soles' middle is where the feet stand
    aq = np.zeros((nb, 4))
    aq[0] = kept["rot"]
    aq[1:] = kept["targets"][1:]
    at = np.zeros((nb, 3))
    at[0] = kept["pos"]
    ap, awq = K.key_world(r, aq, at)
    # turned so its feet face the way the planted feet do (their mean turn against the
    # animation's own feet's): where a figure sat turned from the way it stood, it stands up
    # over its feet, not twisting them at the hand-over
    sin_sum = cos_sum = 0.0
    for i, (_, ca, ft) in enumerate(_LEGS):
        b = ft if fr.feet else ca
        fwd = K._qr(awq[b], np.array(human.BONE_FORWARD_LOCAL[b], dtype=np.float64))
        d = plan.feet_yaw[i] - G._yaw_of(fwd)
        sin_sum += math.sin(d)
        cos_sum += math.cos(d)
    turn = math.atan2(sin_sum, cos_sum)     # the mean turn (a half turn each way is one turn)
    c, sn = math.cos(turn), math.sin(turn)
    rot = np.array([[c, 0.0, sn], [0.0, 1.0, 0.0], [-sn, 0.0, c]])
    a_here = K.sole_point(r, ap, awq)
    a_sole = rot @ a_here
    # stood on the ground where the feet are, as the animation stands on its own (a way up's
    # move): the ground under each, not the soles' heights (under the animation's soles where
    # they are, not where the turn about the origin takes them: over the seat, a turned figure
    # was moved 0.45 m down)
    g_here = K.ground_under(m.engine, float(a_here[0]), float(a_here[2]), float(ap[0, 1]))
    g_there = K.ground_under(m.engine, float(plan.sole[0]), float(plan.sole[2]),
                             float(plan.sole[1]) + 0.3)
    move = np.array([plan.sole[0] - a_sole[0], g_there - g_here, plan.sole[2] - a_sole[2]])
    for k, (lq, lt) in enumerate(((k0q, k0t), (k1[0], k1[1]), (k2[0], k2[1]))):
        s.pbf[f, :nb, PB_GU_KEY_Q + 4 * k:PB_GU_KEY_Q + 4 * k + 4] = lq
        s.ff[f, F_GU_KEY_P + 3 * k:F_GU_KEY_P + 3 * k + 3] = lt[0]
    s.ff[f, F_GU_BASE_P:F_GU_BASE_P + 3] = kept["pos"]
    s.ff[f, F_GU_BASE_Q:F_GU_BASE_Q + 4] = kept["rot"]
    s.pbf[f, :nb, PB_GU_BASE_Q:PB_GU_BASE_Q + 4] = kept["targets"]
    s.ff[f, F_GU_MOVE] = turn
    s.ff[f, F_GU_MOVE + 1:F_GU_MOVE + 4] = move
    s.ff[f, F_GU_T] = 0.0
    s.fi[f, F_GU_WAY] = WAY_STAND_UP
    s.fi[f, F_GU_SOLES] = 0b111
    s.ff[f, F_ANIM_POS:F_ANIM_POS + 3] = k0t[0]
    s.ff[f, F_ANIM_ROT:F_ANIM_ROT + 4] = k0q[0]
    s.pbf[f, 1:nb, PB_TARGET:PB_TARGET + 4] = k0q[1:]


def _finish_stand(m: Motion) -> None:
    """Stood: the action over, the animation moved to where it stands (``_get_up.end_way``, as
    a way up ends), handed back to the mode it sat down from."""
    from . import _act, _modes
    s = service(m.engine)
    resume = int(s.fi[m.slot, F_RESUME])
    _act._KEPT.pop(m, None)
    G.end_way(m, True)
    _modes.hand_over(m, resume)


def after_step(s: Any) -> None:
    """After the physics step (``_act.after_step``, which plants a sitting figure's feet from
    its first step, every stage keeping them): a figure standing up handed back once its last
    key is reached."""
    from . import _act
    n = s.n
    ways = s.fi[:n, F_GU_WAY]
    rows = np.nonzero((s.fi[:n, F_MODE] == ACTING) & ((ways == WAY_SIT)
                                                     | (ways == WAY_STAND_UP)))[0]
    end = G.STAGES * float(s.prm[S_GU_STAGE])
    for f in rows:
        m = s.handles[int(f)]
        if m is None or m not in _act._KEPT:
            continue
        if int(s.fi[f, F_GU_WAY]) == WAY_STAND_UP and float(s.ff[f, F_GU_T]) >= end - 1e-9:
            _finish_stand(m)
    _reseat_knocked(s)
    # what a sitter holds (_eat.py): placed, and the hands solved onto it, for the next step
    from . import _eat
    _eat.after_step(s)


# ------------------------------------------------------------------------------ knocked, still sat
@dataclass
class _Watched:
    """A sitter knocked off its way (_hits.knock_off), watched until it sits again, stands or is
    down on the ground. Seconds each."""

    upright: float = 0.0    # leaning under the fall's lean, on end
    look: float = 0.0       # to its next look for a seat
    slumped: float = 0.0    # leaning under SLUMPED, on end
    since: float = 0.0      # since the blow


_KNOCKED: weakref.WeakKeyDictionary = weakref.WeakKeyDictionary()
SEAT_REST = 0.25    # m: the hips' middle this near the seat's surface under it rests on it
SEAT_LOOK = (0.0, 0.1, -0.1, 0.2)   # m: where under the hips a seat is looked for: their middle,
#                                     then ahead of it (over the thighs) and behind, along the
#                                     pelvis's forward (jammed against a table, the Mixamo man sat
#                                     on the log's back edge, its hips' middle 3 cm past it)
UPRIGHT_SAT = 0.5   # s: a knocked sitter back upright on a seat this long sits again, still or not
LOOK_EVERY = 0.25   # s: a knocked sitter at rest (or upright) and on no seat looks again this often
SLUMPED = 0.7       # rad: a knocked sitter leaning less than this ...
SLUMPED_SAT = 1.5   # s: ... this long, on a seat, sits again (thrown back onto its log against a
#                     table, the box man sat there leaning 0.4-0.5 rad, rocking at 0.1-0.27 m/s
#                     for 14 s: neither upright nor still; session 17)
ON_FEET_AFTER = 4.0  # s: a knocked sitter still on its feet this long after the blow, leaning
#                      under SLUMPED and slow, sits again where a seat takes it, else stands where
#                      it is (_get_up._start_on_feet): jammed upright between its log and a table
#                      0.1 m before it, the box man swayed there, leaning up to 0.56 rad, for 11 s
#                      and fell over, never still; slumped on its log where the re-seat's plan
#                      found no height to rest at, two box men sat so for good (session 17).
#                      Slumped SLUMPED_SAT s counts as slow: rocking on its log it never was
FEET_DOWN = 0.15    # m: ankles this near the ground are on it (the box man's stand 0.08 over it)
SLOW = 0.3          # m/s: the pelvis and chest slower than this, and the pelvis turning slower
SLOW_TURN = 1.0     # rad/s than this, a knocked sitter is stood (begun mid-tumble, the box man's
#                     bodies turned 35 degrees in the way's first step)


def knocked(m: Motion) -> None:
    """``_hits.knock_off``, before the way ends: a sitter is watched till it comes to rest."""
    if sitting(m):
        _KNOCKED[m] = _Watched()


def _feet_and_ground(m: Motion, P: np.ndarray, Q: np.ndarray) -> tuple[np.ndarray, float]:
    """Figure ``m``'s ankles' middle in bodies ``P``, ``Q`` (m) and the ground under it (m, looked
    for from 0.3 m over it)."""
    sole = K.sole_point(m.ragdoll, P, Q)
    return sole, K.ground_under(m.engine, float(sole[0]), float(sole[2]), float(sole[1]) + 0.3)


def _on_a_seat(m: Motion) -> tuple[np.ndarray, float] | None:
    """Where figure ``m``'s hips rest on a seat (m; the seat's surface under the hips' middle, or
    under a point ``SEAT_LOOK`` ahead of or behind it, at least SEAT_LOW over the ground under its
    soles, and the hips' middle within SEAT_REST over it) and the way its pelvis faces (rad
    about +y), or None."""
    from ._act import hips_point
    P, Q = G._bodies(m)
    hp = hips_point(m.ragdoll, P, Q)
    _, ground = _feet_and_ground(m, P, Q)
    e = m.engine
    fwd = K._qr(Q[0], np.array(_P.BONE_FORWARD_LOCAL[0], dtype=np.float64))
    yaw = math.atan2(float(fwd[0]), float(fwd[2]))
    fwd[1] = 0.0
    fwd /= max(float(np.linalg.norm(fwd)), 1e-9)
    for ahead in SEAT_LOOK:
        x, z = float(hp[0] + ahead * fwd[0]), float(hp[2] + ahead * fwd[2])
        top = K.ground_under(e, x, z, float(hp[1]))
        if top - ground >= SEAT_LOW and hp[1] - top <= SEAT_REST:
            return np.array([x, top, z]), yaw
    return None


def _on_its_feet(m: Motion) -> bool:
    """Figure ``m``'s ankles are within FEET_DOWN of the ground under them."""
    sole, ground = _feet_and_ground(m, *G._bodies(m))
    return float(sole[1]) - ground < FEET_DOWN


def _sit_again_plan(m: Motion) -> dict | None:
    """The plan to sit knocked sitter ``m`` again on the seat it rests on (``_plan_sit``), or None:
    on no seat, or none it can sit on from where its feet stand."""
    rest = _on_a_seat(m)
    if rest is None:
        return None
    try:
        return _plan_sit(m, *rest, again=True)
    except ValueError:
        return None


def _slow(m: Motion) -> bool:
    """Figure ``m``'s pelvis and chest move slower than SLOW, its pelvis turns slower than
    SLOW_TURN."""
    bf = m.engine.physics.bf
    pel, chest = int(m.ragdoll.bodies[0]), int(m.ragdoll.bodies[_P.BONE_SPINE_03])
    return (max(float(np.linalg.norm(bf[pel, PL.B_V:PL.B_V + 3])),
                float(np.linalg.norm(bf[chest, PL.B_V:PL.B_V + 3]))) < SLOW
            and float(np.linalg.norm(bf[pel, PL.B_W:PL.B_W + 3])) < SLOW_TURN)


def _reseat_knocked(s: Any) -> None:
    """Sitters knocked off their way that came to rest still on a seat (a blow along a log slid
    the Mixamo man 0.35 m down it, and it sat there slumped, fallen and never ``down``, so never
    got up), or are back upright on one ``UPRIGHT_SAT`` s (or slumped on it, under ``SLUMPED``,
    ``SLUMPED_SAT`` s), sit again where they are: eased into
    the sat key planned from the pose they rest in, facing the way the pelvis faces (the sit's own
    first keys half stood it up, 0.4 m, to sit down again). Upright: thrown against a table, a
    sitter fell back onto its seat and sat there upright, its arms reaching toward a fall that
    turned as it rocked, and never came to rest (22 of 60 box and Mixamo men at a table, struck
    at 350-900 N·s, still fallen 14 s on). One down on the ground is left to the fall's ways (it
    lies and gets up); one at rest or upright on no seat is looked at again every LOOK_EVERY s."""
    for m in list(_KNOCKED):
        f = m.slot
        if f >= s.n or s.handles[f] is not m or int(s.fi[f, F_KNOCKED]) == 0:
            _KNOCKED.pop(m, None)
            continue
        watch = _KNOCKED[m]
        dt = float(m.engine.fixed_dt)
        lying = int(s.fi[f, F_LYING]) != 0
        lean = float(s.ff[f, F_LEAN])
        watch.upright = watch.upright + dt if lean < float(s.prm[S_FALL_LEAN]) else 0.0
        watch.slumped = watch.slumped + dt if lean < SLUMPED else 0.0
        watch.look -= dt
        watch.since += dt
        slumped = watch.slumped >= SLUMPED_SAT - 1e-9
        if (watch.since >= ON_FEET_AFTER - 1e-9 and lean < SLUMPED
                and int(s.fi[f, F_MODE]) == POWERED and not G.down(m) and _on_its_feet(m)
                and (_slow(m) or slumped)):
            # sat again where a seat takes it, else stood where it is
            got = _sit_again_plan(m)
            del _KNOCKED[m]
            if got is not None:
                _start_sit(m, got)
            else:
                G._start_on_feet(m)
            continue
        if not (lying or watch.upright >= UPRIGHT_SAT - 1e-9 or slumped) or watch.look > 0.0:
            continue
        if lying and G.down(m):
            del _KNOCKED[m]         # on the ground: it lies and gets up
            continue
        watch.look = LOOK_EVERY
        got = _sit_again_plan(m)
        if got is not None:
            del _KNOCKED[m]
            _start_sit(m, got)


__all__ = ["WAY_SIT", "WAY_STAND_UP", "sit", "sit_spot", "sitting", "seated", "stand_up",
           "after_step", "get_up", "TRUNK_DOWN", "TRUNK_UP", "ELBOW"]
