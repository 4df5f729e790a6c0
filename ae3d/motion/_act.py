"""Actions at an interaction point (spec: "A figure can sit on a seat and lie down on the ground",
#825): the mode ``ACTING``. Lying down is here; sitting and standing up from a seat are keyed ways
of their own in ``_sit.py`` (``WAY_SIT``, ``WAY_STAND_UP``), kept (``_KEPT``), planted and ended
(``end_action``) here as lying is; the actions on a seat (eating, drinking) are a later slice.

Lying down (``lie_down(body, head)``): the figure lies on its back with its head toward
``head`` (a direction in the world, m or any length; its height ignored: the way from its hips
to its head as it will lie; a point is ``point - where it stands``), from where it stands. It is
the face-up way up (``_get_up.py``) run the other way, three stages of ``stage`` s (0.7) eased
in and out (``_keyed``):

- it squats over its feet (``_get_up.CROUCH``, its soles' middle where it stands), facing away
  from ``head`` (the way its legs will lie);
- it sits back on the ground leaning on its hands behind its hips (``SIT_BACK``: the way up's
  ``SIT_UP`` with its elbows bent; its soles' middle kept);
- it lies back flat (``LIE``): its legs out, its hands by its hips and its elbows on the ground.

The lying key is planned on its contacts (spec: "a last key planned on its contacts ... its limbs
are its solves"): from ``LIE``'s leans, the head, each arm and each leg are turned about the axis
across the figure until their lowest point is level with the trunk's (``_lie_key``), so no limb
floats over the ground or is drawn into it, and every joint stays within its range (spec: "a
key's limbs must be ones its body can take"). The key is set down on the ground under its points
(``_keyed.set_down``: a bedroll, a slope), its pelvis where the sitting key's is.

A figure facing more than ``TURN_FIRST`` (0.2 rad) off the way it will lie turns there first,
standing, on the spot: its standing pose turned about the upright through its soles' middle, a
stage of 0.7 s for each quarter turn or part of one (one or two), each foot carried round with
it by its plant's anchor, stiffened to ``TURN_FEET_HZ`` and led where the turn draws the foot
(``_carry_feet``), then eased back onto the plants' 30 Hz over ``TURN_SETTLE`` (0.1 s) where the
turn left it; then it lies down (or sits) from the pose it turned to, its feet planted there.
Left free to turn with it, the feet came round 11 to 14 degrees behind the turn (the ground held
them), and a sitter sat on legs bent over feet turned off the way it sat, its toes sliding 5.6 to
5.9 mm. Turned as it squatted instead, a quarter turn off the box man's unplanted feet turned 8.2
degrees in a step, and half a turn off the figure whipped round as it sat, 49 degrees in a step.

The first stage runs at the way up's first-stage pace (no bone turning faster than
``GetUpSettings.max_turn`` at its middle). The soles' middle is held where the keys have it
through the first two stages (and through the turn), and the feet are planted
(``_keyed.plant_feet``, 30 Hz) as the way down begins, or kept planted where the turn left them
(a foot keeps the turn it stands with, so it is planted once the figure faces the way); they are
lifted as the legs go out.

Lain, it holds the lying key (ACTING) until ``get_up(body)``, which rises from its back by the
face-up way up (or the figure's own face-up get-up clip, as any way up) and ends in the mode it
lay down from (POWERED, or ANIMATED). ``set_mode`` ends the action where it is, the animation
back as it was before it lay down.

``lie_spot(body, middle, head)`` says where to stand (the soles' middle, facing away from
``head``) to lie with the hips' middle (between the hip joints, ``hips_point``) at ``middle``, a
bedroll's middle.

While it acts the way's rows are the way up's (``F_GU_*``, ``PB_GU_*``, written by
``_get_up.get_up_pre``, which holds an ACTING way at its last key rather than handing it back);
``F_GU_WAY`` is ``WAY_LIE_DOWN``. The animation's own pose is kept here (``_KEPT``) and put back
as the action ends. Units: m, s, rad; leans in degrees.
"""

from __future__ import annotations

import math
import weakref
from typing import Any

import numpy as np

from ae3d import _math as _M
from ae3d import _validate as V
from ae3d import human
from ae3d.physics import _layout as PL

from . import _get_up as G
from . import _keyed as K
from ._layout import (
    ACTING,
    ANIMATED,
    BLEND_NONE,
    F_ANIM_POS,
    F_ANIM_ROT,
    F_BLEND,
    F_GU_BASE_P,
    F_GU_BASE_Q,
    F_GU_CLIP_D,
    F_GU_DONE,
    F_GU_DUE,
    F_GU_KEY_P,
    F_GU_MOVE,
    F_GU_SOLES,
    F_GU_T,
    F_GU_WAY,
    F_MODE,
    F_RESUME,
    F_RIG_BLEND,
    F_RIG_OWNED,
    GETTING_UP,
    LIMP,
    PB_GU_BASE_Q,
    PB_GU_KEY_Q,
    PB_GU_P,
    PB_GU_Q,
    PB_TARGET,
    POWERED,
    S_GU_STAGE,
    WAY_NONE,
)
from ._service import Motion, check, service

_P = human
# F_GU_WAY's value on an action's way (after the ways up's WAY_FACE_UP 1 and WAY_FACE_DOWN 2;
# the kernels tell an action by its mode, ACTING, not by this)
WAY_LIE_DOWN = 3

# Lying on the back, from standing (leans in degrees about the axis across the figure, as the
# way up's keys): the trunk and head back flat, the legs out with the knees a little bent, the
# arms along the sides (the hands by the hips, the elbows bent a little), the feet relaxed,
# turned down from the shins. The head, the arms and the legs are then solved onto the ground
# (``lie_leans``: the head's, the arms' and the thighs' leans here are where the solve starts; a
# calf keeps KNEE_BEND from its thigh and a foot FOOT_DOWN from its calf). Every joint within its
# range on the box man and the Mixamo man (tests/test_lie.py: the knees bend 3, the elbows 10 to
# 11, the ankles 25 of their 50 down; spec: "the elbows bent toward the sky were drawn 69 degrees
# past their hinges and the feet 90 up at an ankle that bends 35").
LIE = {
    _P.BONE_PELVIS: -90.0, _P.BONE_SPINE_01: -90.0, _P.BONE_SPINE_03: -90.0, _P.BONE_NECK: -90.0,
    _P.BONE_UPPERARM_L: -85.0, _P.BONE_LOWERARM_L: -90.0,
    _P.BONE_UPPERARM_R: -85.0, _P.BONE_LOWERARM_R: -90.0,
    _P.BONE_THIGH_L: -88.0, _P.BONE_CALF_L: -85.0, _P.BONE_THIGH_R: -88.0, _P.BONE_CALF_R: -85.0,
    _P.BONE_FOOT_L: -60.0, _P.BONE_FOOT_R: -60.0,
}
# Sitting back on the ground, leaning on its hands behind its hips: the way up's sitting key
# (``_get_up.SIT_UP``) with the elbows bent 45 degrees, the hands 14 cm behind the hips (box
# man). Lying back from SIT_UP's straight arms (hands 45 cm behind) swept the forearms 18.5 cm
# through the ground at the stage's middle, and the box man's forearm, held there by the ground,
# flipped over its elbow (48 degrees in a step); from these, 7.8 cm (the way is lifted over it).
SIT_BACK = {**G.SIT_UP,
            _P.BONE_UPPERARM_L: 15.0, _P.BONE_LOWERARM_L: -30.0,
            _P.BONE_UPPERARM_R: 15.0, _P.BONE_LOWERARM_R: -30.0}
KNEE_BEND = 3.0     # deg: a lying leg's knee, kept as its thigh is solved onto the ground
FOOT_DOWN = 25.0    # deg: a lying foot turned down from its shin (its ankle bends 50 that way)
ELBOW_MIN = 5.0     # deg: a lying arm's elbow bends at least this (a straight one has no pole)
PLANT_TURN = 0.2    # rad: a figure facing within this of the way it will lie is planted at once
# rad: a figure facing further than this off the way it will lie turns there on the spot first,
# standing, then lies down (turned as it squatted, a quarter turn off the box man's unplanted
# feet turned 8.2 degrees in a step and half a turn off 49, the figure whipping round as it sat)
TURN_FIRST = PLANT_TURN
TURN_STAGE = 0.5 * math.pi   # rad: the most one stage of that turn turns it (0.7 s)
# Hz: each foot's anchor carrying it round that turn, where the turn draws it. Left to turn with
# the figure (its follow anchors and its legs), the box man's feet came round 11 to 14 degrees
# behind the turn, held back by the ground, and it sat with its legs bent over feet turned off the
# way it sat; at the plants' 30 Hz they were 5 degrees behind, at 60 Hz 2, at this 0.3
TURN_FEET_HZ = 240.0
# s: once round, the feet's anchors eased from TURN_FEET_HZ onto the plants' 30 Hz (held where the
# turn left them) before the way down begins: switched at once, the leg's pull the stiff anchor
# had held moved the box man's toes 3 mm in a step as it began to sit
TURN_SETTLE = 0.1
_TRUNK = (_P.BONE_PELVIS, _P.BONE_SPINE_01, _P.BONE_SPINE_03)
_ARMS = ((_P.BONE_UPPERARM_L, _P.BONE_LOWERARM_L), (_P.BONE_UPPERARM_R, _P.BONE_LOWERARM_R))
_LEGS = ((_P.BONE_THIGH_L, _P.BONE_CALF_L), (_P.BONE_THIGH_R, _P.BONE_CALF_R))
_FEET = ((_P.BONE_CALF_L, _P.BONE_FOOT_L), (_P.BONE_CALF_R, _P.BONE_FOOT_R))

# figures acting -> what their action keeps: the animation's own pose to put back (a figure
# without a rig: its pelvis pose and targets), and the stage its feet are planted from
_KEPT: weakref.WeakKeyDictionary = weakref.WeakKeyDictionary()
# ragdolls -> their lying key's solved leans (their bodies' sizes and joints do not change)
_LEANS: weakref.WeakKeyDictionary = weakref.WeakKeyDictionary()


# ------------------------------------------------------------------------------ the lying key
def _lows(r: Any, leans: dict, yaw: float) -> tuple:
    """The key from ``leans`` facing ``yaw`` at the origin: (loc_q, loc_t, p, q, lows (n,) m,
    each capsule's lowest point's height)."""
    lq, lt = K.key_from_leans(r, leans, yaw)
    p, q = K.key_world(r, lq, lt)
    return lq, lt, p, q, K.point_lows(p, q, K.dims_of(r))[:, 1]


def _solve(r: Any, leans: dict, yaw: float, bones: tuple, lo: float, hi: float, ground: float,
           offsets: tuple = ()) -> None:
    """Set ``leans[bones[0]]`` (degrees, within lo..hi, the rest of ``bones`` at their
    ``offsets`` from it) so the lowest of ``bones``' capsules is level with ``ground`` (m, the
    trunk's lowest): bisection between the two ends, where the lowest point is one side of it
    at one and the other at the other; else the end nearer it (a limb that cannot reach it)."""
    def low(a: float) -> float:
        leans[bones[0]] = a
        for b, d in zip(bones[1:], offsets, strict=True):
            leans[b] = a + d
        return float(min(_lows(r, leans, yaw)[4][b] for b in bones)) - ground
    f_lo, f_hi = low(lo), low(hi)
    if f_lo * f_hi > 0.0:
        low(lo if abs(f_lo) < abs(f_hi) else hi)
        return
    a, b = lo, hi
    for _ in range(30):
        mid = 0.5 * (a + b)
        if (low(mid) > 0.0) == (f_lo > 0.0):
            a = mid
        else:
            b = mid
    low(0.5 * (a + b))


def lie_leans(r: Any, yaw: float = 0.0) -> dict:
    """The lying key's leans (degrees) for ragdoll ``r``: ``LIE`` with its head, arms and legs
    solved so their lowest points are level with the trunk's (lying flat, nothing floating).
    The same facing any way (``yaw``, rad, is accepted for the keys' sake): solved once a ragdoll
    (about 50 ms) and kept."""
    got = _LEANS.get(r)
    if got is None:
        got = _LEANS[r] = _solve_leans(r)
    return dict(got)


def _solve_leans(r: Any) -> dict:
    yaw = 0.0
    leans = dict(LIE)
    if r.bones <= _P.BONE_FOOT_L:
        leans = {b: a for b, a in leans.items() if b < r.bones}
    ground = float(min(_lows(r, leans, yaw)[4][b] for b in _TRUNK))
    # the head: from tipped back (-100) to the chin tucked (-80)
    _solve(r, leans, yaw, (_P.BONE_NECK,), -100.0, -80.0, ground)
    for up, fore in _ARMS:
        # the elbow down to the ground (the upper arm's far end), then the hand
        _solve(r, leans, yaw, (up,), -90.0, -60.0, ground)
        _solve(r, leans, yaw, (fore,), leans[up] - 40.0, leans[up] - ELBOW_MIN, ground)
    for (thigh, calf), (_, foot) in zip(_LEGS, _FEET, strict=True):
        # the leg as one, its knee a little bent and its foot turned down from its shin: the
        # heel onto the ground (the heel is under the ankle's end of the shin)
        if foot < r.bones:
            _solve(r, leans, yaw, (thigh, calf, foot), -95.0, -75.0, ground,
                   (KNEE_BEND, KNEE_BEND + FOOT_DOWN))
        else:
            _solve(r, leans, yaw, (thigh, calf), -95.0, -75.0, ground, (KNEE_BEND,))
    return leans


def _lie_key(m: Motion, yaw: float, at: np.ndarray, top: float) -> tuple:
    """The lying key facing ``yaw`` (its feet that way), its pelvis at ``at`` (x, z) and set down
    on the ground under it (looked for from ``top`` m down). Returns (loc_q, loc_t, p, q)."""
    return G._placed(m, lie_leans(m.ragdoll, yaw), yaw, at, None, top)


def _head_yaw(head: np.ndarray) -> float:
    """rad: the yaw a figure lying with its head toward ``head`` faces (its feet's way)."""
    return math.atan2(-float(head[0]), -float(head[2]))


def _head_arg(head: Any) -> np.ndarray:
    h = V.vector(head, "head", unit="m")
    if float(np.hypot(h[0], h[2])) < 1e-6:
        raise ValueError("head must point over the ground (its x and z not both 0): the way "
                         "from the hips to the head as the figure will lie")
    return h


def _keys_at(m: Motion, yaw: float, sole: np.ndarray, top: float) -> tuple:
    """The three keys of lying down from a stand at ``sole`` (its soles' middle, m): the crouch,
    sitting and lying, each (loc_q, loc_t, p, q)."""
    k1 = G._placed(m, G.CROUCH, yaw, sole, K.sole_point, top)
    k2 = G._placed(m, SIT_BACK, yaw, K.sole_point(m.ragdoll, k1[2], k1[3]), K.sole_point, top)
    k3 = _lie_key(m, yaw, k2[2][0], top)
    return k1, k2, k3


# ------------------------------------------------------------------------------ the façade
def hips_point(r: Any, p: np.ndarray, q: np.ndarray) -> np.ndarray:
    """(3,) m: the hips' middle in bodies ``p``, ``q``: between the thighs' joints (the hip
    joints' points)."""
    jf = r.engine.physics.jf
    pts = []
    for b in (_P.BONE_THIGH_L, _P.BONE_THIGH_R):
        j = int(r.joints[b])
        pts.append(p[b] + K._qr(q[b], jf[j, PL.J_PB:PL.J_PB + 3]))
    return 0.5 * (pts[0] + pts[1])


def lie_spot(body: Motion, middle: Any, head: Any) -> np.ndarray:
    """(3,) m: where figure ``body`` stands (its soles' middle, facing away from ``head``) to lie
    down with its hips' middle (between its hip joints, ``hips_point``) at ``middle`` (a point,
    m: a bedroll's middle) and its
    head toward ``head`` (a direction, its height ignored). Its height is the ground's under it
    (the first static body below, looked for from 1 m over ``middle``), or ``middle``'s where
    there is none. Raises TypeError/ValueError for a bad handle or argument."""
    m = check(body)
    mid = V.position(middle, "middle")
    h = _head_arg(head)
    yaw = _head_yaw(h)
    r = m.ragdoll
    # the keys stand wherever: only where the lying pelvis comes against the soles matters
    k1q, k1t = K.key_from_leans(r, G.CROUCH, yaw)
    p1, q1 = K.key_world(r, k1q, k1t)
    s1 = K.sole_point(r, p1, q1)
    k2q, k2t = K.key_from_leans(r, SIT_BACK, yaw)
    p2, q2 = K.key_world(r, k2q, k2t)
    p2 += s1 - K.sole_point(r, p2, q2)
    # lying, its pelvis where it sat (``_keys_at``): its hips' middle from there
    _, _, p3, q3, _ = _lows(r, lie_leans(r, yaw), yaw)
    off = p2[0] + (hips_point(r, p3, q3) - p3[0]) - s1
    x, z = float(mid[0] - off[0]), float(mid[2] - off[2])
    top = float(mid[1]) + 1.0
    g = K.ground_under(m.engine, x, z, top)
    y = g if g > top - 50.0 else float(mid[1])
    return np.array([x, y, z])


def lie_down(body: Motion, head: Any) -> bool:
    """Lay figure ``body`` on its back with its head toward ``head`` (a direction in the world,
    its height ignored), from where it stands: it squats over its feet, sits back on the ground
    leaning on its hands behind its hips and lies back flat (three stages of 0.7 s), then holds
    there, lain, in ACTING until ``get_up(body)`` (which ends in the mode it lay down from) or
    ``set_mode``. From POWERED or ANIMATED, standing.

    Returns True when it began; False (nothing written) when it cannot lie down from where it
    is now: falling, on the ground (``down``), getting up or already acting. Raises TypeError/
    ValueError (before anything is written) for a bad handle, ``head`` not three finite numbers
    or straight up or down, or a LIMP figure (a ragdoll does not act: set it POWERED or
    ANIMATED first)."""
    m = check(body)
    h = _head_arg(head)
    s = service(m.engine)
    f = m.slot
    mode = int(s.fi[f, F_MODE])
    if mode == LIMP:
        raise ValueError("a LIMP figure cannot lie down (it is a ragdoll): set it POWERED or "
                         "ANIMATED first")
    if mode in (GETTING_UP, ACTING):
        return False
    from ._balance import falling
    if (mode == POWERED and falling(m)) or G.down(m):
        return False
    _start(m, _head_yaw(h))
    return True


def lying_down(body: Motion) -> bool:
    """True while figure ``body`` lies down or lies, lain (``lie_down``, until ``get_up`` or
    ``set_mode``)."""
    m = check(body)
    s = service(m.engine)
    return (int(s.fi[m.slot, F_MODE]) == ACTING
            and int(s.fi[m.slot, F_GU_WAY]) == WAY_LIE_DOWN)


def acting(body: Motion) -> bool:
    """True while figure ``body`` acts (mode ACTING: lying down or lain, sitting down, sat or
    standing up)."""
    m = check(body)
    return int(service(m.engine).fi[m.slot, F_MODE]) == ACTING


# ------------------------------------------------------------------------------ the way
def _start(m: Motion, yaw: float) -> None:
    """Begin lying down facing ``yaw`` from where the figure stands (Python, once): the
    animation's own pose kept here to put back, the mode to end in kept (``F_RESUME``), ACTING.
    A figure facing more than ``TURN_FIRST`` off the way turns there first, standing
    (``_plan_turn``), and lies down from there (``after_step``); else it lies down at once
    (``_plan_lie``)."""
    from ._pose import body_local
    s = service(m.engine)
    f = m.slot
    r = m.ragdoll
    nb = r.bones
    P, Q = G._bodies(m)
    sole = K.sole_point(r, P, Q)
    k0 = body_local(m)
    off = _turn_from(P, Q, yaw)
    _KEPT[m] = dict(pos=s.ff[f, F_ANIM_POS:F_ANIM_POS + 3].copy(),
                    rot=s.ff[f, F_ANIM_ROT:F_ANIM_ROT + 4].copy(),
                    targets=s.pbf[f, :nb, PB_TARGET:PB_TARGET + 4].copy(),
                    yaw=yaw, sole=sole,
                    plant_from=0 if abs(off) <= PLANT_TURN else 1)
    if abs(off) > TURN_FIRST:
        _plan_turn(m, k0, sole, off)
    else:
        _plan_lie(m, yaw, k0, sole, float(P[0, 1]) + G._GROUND_ABOVE)
    begin(m, k0[0], k0[1], P, Q)


def begin(m: Motion, k0q: np.ndarray, k0t: np.ndarray, P: np.ndarray, Q: np.ndarray) -> None:
    """Hand figure ``m`` over to ACTING for a way whose keys are written: the mode to end in kept
    (``F_RESUME``), the animation set to key 0 (local ``k0q``, ``k0t``), the way's bodies to
    ``P``, ``Q`` (m, quaternions), its own bodies passing through each other, no blend, a
    dressed figure's rig owned by the way (lying down and sitting, ``_sit.py``)."""
    from . import _modes
    s = service(m.engine)
    f = m.slot
    nb = m.ragdoll.bones
    s.fi[f, F_RESUME] = POWERED if int(s.fi[f, F_MODE]) == POWERED else ANIMATED
    s.ff[f, F_ANIM_POS:F_ANIM_POS + 3] = k0t[0]
    s.ff[f, F_ANIM_ROT:F_ANIM_ROT + 4] = k0q[0]
    s.pbf[f, 1:nb, PB_TARGET:PB_TARGET + 4] = k0q[1:]
    s.pbf[f, :nb, PB_GU_P:PB_GU_P + 3] = P
    s.pbf[f, :nb, PB_GU_Q:PB_GU_Q + 4] = Q
    _modes.hand_over(m, ACTING)
    K.pass_through(m.ragdoll, True)
    s.fi[f, F_BLEND] = BLEND_NONE
    s.fi[f, F_RIG_BLEND] = BLEND_NONE
    if m.rig is not None:
        s.fi[f, F_RIG_OWNED] = 1


def _plan_lie(m: Motion, yaw: float, k0: tuple, sole: np.ndarray, top: float) -> None:
    """The way down from standing pose ``k0`` (local (q, t)) with its soles' middle at ``sole``:
    key 0 ``k0``, keys 1-2 the crouch and sitting back, the lying key as the way's last (kept
    where the way up keeps the animation's own pose, ``PB_GU_BASE_Q``/``F_GU_BASE_*``, with no
    move); the soles' middle kept squatting and sitting back, the legs going out lying back."""
    (k1q, k1t, _, _), (k2q, k2t, _, _), k3 = _keys_at(m, yaw, sole, top)
    _write_keys(m, (k0, (k1q, k1t), (k2q, k2t)), k3, 0b011)


def _plan_turn(m: Motion, k0: tuple, sole: np.ndarray, off: float) -> None:
    """The turn on the spot before lying down: standing pose ``k0`` turned ``off`` rad about the
    upright through its soles' middle ``sole``, a stage for each ``TURN_STAGE`` of it or part
    (one or two; the first stage's pace holds its bones to ``max_turn``), the soles' middle kept,
    the feet carried round with it from where the bodies stand now (``_carry_feet``).
    ``after_step`` begins the way down once it is round and its feet settled (``_KEPT``'s
    ``turn_stages``, ``turn_feet``)."""
    n = 1 if abs(off) <= TURN_STAGE else 2
    mid = _turned(k0, sole, off / n)
    end = _turned(k0, sole, off)
    _write_keys(m, (k0, mid, end), end, 0b111)
    _KEPT[m]["turn_stages"] = n
    P, Q = G._bodies(m)
    _KEPT[m]["turn_feet"] = (P, Q, np.array(sole, dtype=np.float64), off)


def turned_bodies(P: np.ndarray, Q: np.ndarray, about: np.ndarray, a: float) -> tuple:
    """Bodies P, Q turned ``a`` rad about the upright through ``about`` (m)."""
    c, sn = math.cos(a), math.sin(a)
    rot = np.array([[c, 0.0, sn], [0.0, 1.0, 0.0], [-sn, 0.0, c]])
    q = K.yaw_quat(a)
    P2 = (P - about) @ rot.T + about
    P2[:, 1] = P[:, 1]
    Q2 = np.array([K._qm(q, Q[b]) for b in range(Q.shape[0])])
    return P2, Q2


def _carry_feet(m: Motion, t: float, stage: float) -> None:
    """The turn on the spot's feet for the step about to be taken (the way's clock ``t`` s now,
    ``stage`` s a stage): each held by its plant at ``TURN_FEET_HZ`` where the turn draws it (its
    body as the turn began, turned as far about the soles' middle as the figure is, eased a stage
    at a time as the keys are, moving as they turn); once round, held there and eased onto the
    plants' 30 Hz over ``TURN_SETTLE``."""
    kept = _KEPT[m]
    P0, Q0, about, off = kept["turn_feet"]
    n = kept["turn_stages"]
    tn = t + float(m.engine.fixed_dt)     # the first stage's pace aside
    end = n * stage
    if tn < end:
        k = min(int(tn / stage), n - 1)
        x = (tn - k * stage) / stage
        a = off / n * (k + x * x * (3.0 - 2.0 * x))
        spin = off / n * 6.0 * x * (1.0 - x) / stage
        hz = TURN_FEET_HZ
    else:
        a, spin = off, 0.0
        share = min(1.0, (tn - end) / _settle(n, stage))
        hz = TURN_FEET_HZ * (human.PLANT_HZ / TURN_FEET_HZ) ** share
    P, Q = turned_bodies(P0, Q0, about, a)
    _hold_feet(m.ragdoll, P, Q, hz, about, spin)


def _settle(n: int, stage: float) -> float:
    """s: the feet's settle after a turn of ``n`` stages of ``stage`` s: ``TURN_SETTLE``, within
    the way's last key (the way's clock stops at its end)."""
    return min(TURN_SETTLE, (G.STAGES - n) * stage)


def _hold_feet(r: Any, p: np.ndarray, q: np.ndarray, hertz: float, about: np.ndarray,
               spin: float) -> None:
    """Each sole's plant (made where it has none, ``_keyed.plant_feet``) moved to its pose in
    ``p``, ``q`` at ``hertz`` Hz, critically damped, the target moving at ``spin`` rad/s about the
    upright through ``about`` (m). A figure without feet: its ankles' points only, as planted."""
    from ae3d.physics import _api_joints as J
    if not r.plants:
        K.plant_feet(r, p, q)
    feet = K.soles_of(r) == (_P.BONE_FOOT_L, _P.BONE_FOOT_R)
    dims = K.dims_of(r)
    w = np.array([0.0, spin, 0.0])
    for b in K.soles_of(r):
        if feet:
            at, rot, ahz, om = p[b], q[b], hertz, w
        else:
            ax = K._qr(q[b], (0.0, dims[b, 1], 0.0))
            at, rot, ahz, om = (p[b] - ax if ax[1] > 0.0 else p[b] + ax), None, 0.0, np.zeros(3)
        k = r.plants[b]
        J.anchor_set_target(r.engine, k, at, rot, np.cross(w, at - about), om)
        J.anchor_set_spring(r.engine, k, hertz, 1.0, ahz, 1.0)


def _turned(key: tuple, about: np.ndarray, a: float) -> tuple:
    """Local key ``key`` (q, t) turned ``a`` rad about the upright through ``about`` (m): its
    pelvis's rotation and place (row 0) only; every other bone is relative to its parent."""
    q, t = key[0].copy(), key[1].copy()
    h = 0.5 * a
    q[0] = _M.qmul((0.0, math.sin(h), 0.0, math.cos(h)), tuple(q[0]))
    c, sn = math.cos(a), math.sin(a)
    dx, dz = t[0, 0] - about[0], t[0, 2] - about[2]
    t[0, 0] = about[0] + c * dx + sn * dz
    t[0, 2] = about[2] - sn * dx + c * dz
    return q, t


def _write_keys(m: Motion, keys: tuple, last: tuple, soles: int, way: int = WAY_LIE_DOWN) -> None:
    """The way's three keys (local (q, t) each) and its last (kept as the base, no move) into
    figure ``m``'s rows, its clock at 0; ``soles`` the stages that keep the soles' middle;
    ``way`` the way it is (lying down, or _sit.py's sitting)."""
    s = service(m.engine)
    f = m.slot
    nb = m.ragdoll.bones
    for k, (lq, lt) in enumerate(keys):
        s.pbf[f, :nb, PB_GU_KEY_Q + 4 * k:PB_GU_KEY_Q + 4 * k + 4] = lq
        s.ff[f, F_GU_KEY_P + 3 * k:F_GU_KEY_P + 3 * k + 3] = lt[0]
    s.ff[f, F_GU_BASE_P:F_GU_BASE_P + 3] = last[1][0]
    s.ff[f, F_GU_BASE_Q:F_GU_BASE_Q + 4] = last[0][0]
    s.pbf[f, :nb, PB_GU_BASE_Q:PB_GU_BASE_Q + 4] = last[0]
    s.ff[f, F_GU_MOVE:F_GU_MOVE + 4] = 0.0
    s.ff[f, F_GU_T] = 0.0
    s.ff[f, F_GU_CLIP_D] = 0.0
    s.fi[f, F_GU_WAY] = way
    s.fi[f, F_GU_SOLES] = soles
    s.fi[f, F_GU_DUE] = 0
    s.fi[f, F_GU_DONE] = 0


def _turn_from(P: np.ndarray, Q: np.ndarray, yaw: float) -> float:
    """rad (-pi..pi]: how far the pelvis body's facing over the ground is from ``yaw`` (the
    turn that brings it there, about +Y)."""
    fwd = K._qr(Q[0], np.array(human.BONE_FORWARD_LOCAL[0]))
    d = yaw - G._yaw_of(fwd)
    return math.atan2(math.sin(d), math.cos(d))


def end_action(m: Motion) -> None:
    """Figure ``m``'s action is over (``get_up`` from lying, or ``set_mode``): its way's rows
    cleared, its own bodies colliding again, its feet lifted, and the animation's own pose put
    back as it was before it began. The mode is left to the caller. Nothing when it is not
    acting."""
    kept = _KEPT.pop(m, None)
    if kept is None:
        return
    from . import _eat
    _eat.end(m)
    s = service(m.engine)
    f = m.slot
    nb = m.ragdoll.bones
    s.fi[f, F_GU_WAY] = WAY_NONE
    s.fi[f, F_GU_DONE] = 0
    s.fi[f, F_GU_DUE] = 0
    s.fi[f, F_GU_SOLES] = 0
    s.ff[f, F_GU_T] = 0.0
    K.pass_through(m.ragdoll, False)
    K.lift_feet(m.ragdoll)
    if m.rig is not None:
        from . import _pose
        # the animation's own pose back into the rig (the way's drawing undone)
        _pose._dress().ragdoll_restore_rig(m.ragdoll)
        s.fi[f, F_RIG_OWNED] = 0
        _pose.read_one(m)
        return
    s.ff[f, F_ANIM_POS:F_ANIM_POS + 3] = kept["pos"]
    s.ff[f, F_ANIM_ROT:F_ANIM_ROT + 4] = kept["rot"]
    s.pbf[f, :nb, PB_TARGET:PB_TARGET + 4] = kept["targets"]


def after_step(s: Any) -> None:
    """After the physics step (``_get_up.after_step``): an acting figure's feet planted where
    they stand as the stage they are planted from begins, and lifted as the legs go out."""
    n = s.n
    rows = np.nonzero((s.fi[:n, F_MODE] == ACTING) & (s.fi[:n, F_GU_WAY] != WAY_NONE))[0]
    stage = float(s.prm[S_GU_STAGE])
    for f in rows:
        m = s.handles[int(f)]
        if m is None or m not in _KEPT:
            continue
        turning = _KEPT[m].get("turn_stages", 0)
        if turning and float(s.ff[f, F_GU_T]) < turning * stage + _settle(turning, stage) - 1e-9:
            # turning on the spot: its feet carried round with it, then settled
            _carry_feet(m, float(s.ff[f, F_GU_T]), stage)
            continue
        if turning:
            # round to the way it will lie: the way down from the pose the turn ends in (the
            # animation's, which the drawing and the bodies follow), its feet planted where the
            # turn left them (its anchors, now the plants' 30 Hz) as a figure's already facing
            # the way are
            from ._pose import anim_local
            kept = _KEPT[m]
            del kept["turn_stages"]
            del kept["turn_feet"]
            kept["plant_from"] = 0
            then = kept.pop("then", None)
            if then is not None:
                then(m)         # another action's way from there (sitting, _sit.py)
            else:
                P, _ = G._bodies(m)
                _plan_lie(m, kept["yaw"], anim_local(m), kept["sole"],
                          float(P[0, 1]) + G._GROUND_ABOVE)
        k = min(int(float(s.ff[f, F_GU_T]) / stage + 1e-9), G.STAGES - 1)
        keep = bool((int(s.fi[f, F_GU_SOLES]) >> k) & 1) and k >= _KEPT[m]["plant_from"]
        r = m.ragdoll
        if keep and not r.plants:
            P, Q = G._bodies(m)
            K.plant_feet(r, P, Q)
        elif not keep and r.plants:
            K.lift_feet(r)
    # sitting's ways (_sit.py): a figure standing up handed back at its last key
    from . import _sit
    _sit.after_step(s)


__all__ = ["LIE", "SIT_BACK", "WAY_LIE_DOWN", "hips_point", "lie_down", "lie_spot", "lying_down",
           "acting", "end_action", "after_step", "lie_leans"]
