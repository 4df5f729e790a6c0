"""The ways up (spec: "get_up(body) gets a figure on the ground back on its feet"): ``get_up``,
``set_get_up`` (by itself once it has lain still that long), ``down`` and the mode
``GETTING_UP``.

On the ground is leaning past ``down_lean`` (1 rad) from upright, or the pelvis within
``down_drop`` (0.45 m) of the figure's lowest point (a figure that crumpled where it stood).
Lain still is the pelvis moving less than ``still_move`` (2 mm) a step for ``still_steps`` (ten)
steps; ``set_get_up(body, seconds)`` starts the way up once it has lain still that long more
(0, the default: never).

The way up matches how it lies, read from the chest's front (the chest, not the pelvis: a figure
propped on its arms can have its pelvis pointing anywhere; a figure on its side takes the nearer):

- face up (the chest's front to the sky): it sits up with its knees drawn in and its hands behind
  it, crouches over its feet, and stands, facing where its feet lay;
- face down: it pushes up onto its hands and knees, brings its feet under it (where its knees
  were), and stands, facing where its head lay.

Each way is three stages of ``stage`` (0.7 s), eased in and out (``_keyed``): the pose it lies
in, the first key, a crouch, and the animation's own pose. The keys between are the figure's
reference bones bent by a lean per bone (``SIT_UP``, ``HANDS_KNEES``, ``CROUCH``, degrees, about
the axis across the figure) and set down on the ground under them. The last key is the
animation's pose moved (``F_GU_MOVE``) so its feet are where the crouch's are and turned to face
the way the figure rose; once up, the animation itself is moved there (a dressed figure's rig
root, else its ``set_animation`` pelvis), so it takes over with nothing to jump. Each step the
way's pose is written as the animation's (``F_ANIM_*``, ``PB_TARGET``), which the follow anchors
and the joints' springs of the modes drawn from the animation carry the bodies to, so it collides
as it rises; where its keys keep the feet (the crouch to standing, and sitting to the crouch),
the soles' middle is held where they have it, and no body of the way is set under the ground its
two keys rest on.

A figure that was POWERED is POWERED again once up (its drawing fading from the way's into its
bodies', spec "Blends"); any other ends ANIMATED. ``set_mode`` ends a way up where it is.

Columns: ``F_GU_*``, ``PB_GU_*`` (``_layout``). Settings: ``GetUpSettings``. Verb:
``get_up_pre``; ``after_step`` (the Python side: a way started or ended, rows flagged by the
verb). Units: m, s, rad; leans in degrees.
"""

from __future__ import annotations

import math
from dataclasses import dataclass
from typing import Any

import numpy as np
from numba import njit

from ae3d import human
from ae3d.physics._layout import B_DIMS, B_POS, B_QUAT

from . import _keyed as K
from ._kin import local_to_world, qmul, qrot
from ._landing import lowest_point
from ._layout import (
    ANIMATED,
    BLEND_NONE,
    F_ANIM_POS,
    F_ANIM_ROT,
    F_BLEND,
    F_DRESS,
    F_GET_UP,
    F_GU_BASE_P,
    F_GU_BASE_Q,
    F_GU_DONE,
    F_GU_DUE,
    F_GU_KEY_P,
    F_GU_MOVE,
    F_GU_PREV,
    F_GU_SOLES,
    F_GU_STILL_N,
    F_GU_STILL_T,
    F_GU_T,
    F_GU_WAY,
    F_MODE,
    F_RESUME,
    F_RIG_BLEND,
    F_RIG_OWNED,
    F_WRITHE,
    GETTING_UP,
    LIMP,
    PB_BODY,
    PB_GU_BASE_Q,
    PB_GU_KEY_Q,
    PB_GU_P,
    PB_GU_Q,
    PB_JOINT,
    PB_TARGET,
    POWERED,
    S_GU_DOWN_DROP,
    S_GU_DOWN_LEAN,
    S_GU_STAGE,
    S_GU_STILL_MOVE,
    S_GU_STILL_STEPS,
    WAY_FACE_DOWN,
    WAY_FACE_UP,
    WAY_NONE,
    WRITHE_DOWN,
    WRITHE_ON,
)
from ._service import UP_LOCAL, Motion, check, service

_P = human
# The keys between, as leans (degrees) per bone about the axis across the figure, from standing
# (a bone not given leans with its parent). Every limb within its joint's range: the hips flex
# at most 120 from the pelvis, the knees bend 0..130, the elbows 0..150, a foot within -50..20 of
# its calf (spec: "a key's limbs must be ones its body can take").
SIT_UP = {  # face up: sitting, knees drawn in, hands on the ground behind the hips
    _P.BONE_PELVIS: -40.0, _P.BONE_SPINE_01: -35.0, _P.BONE_SPINE_03: -30.0, _P.BONE_NECK: -10.0,
    _P.BONE_UPPERARM_L: 25.0, _P.BONE_LOWERARM_L: 10.0,
    _P.BONE_UPPERARM_R: 25.0, _P.BONE_LOWERARM_R: 10.0,
    _P.BONE_THIGH_L: -125.0, _P.BONE_CALF_L: -5.0, _P.BONE_THIGH_R: -125.0, _P.BONE_CALF_R: -5.0,
    _P.BONE_FOOT_L: 0.0, _P.BONE_FOOT_R: 0.0,
}
HANDS_KNEES = {  # face down: on hands and knees, arms straight under the shoulders
    _P.BONE_PELVIS: 60.0, _P.BONE_SPINE_01: 60.0, _P.BONE_SPINE_03: 60.0, _P.BONE_NECK: 45.0,
    _P.BONE_UPPERARM_L: 0.0, _P.BONE_LOWERARM_L: 0.0,
    _P.BONE_UPPERARM_R: 0.0, _P.BONE_LOWERARM_R: 0.0,
    _P.BONE_THIGH_L: -5.0, _P.BONE_CALF_L: 90.0, _P.BONE_THIGH_R: -5.0, _P.BONE_CALF_R: 90.0,
    _P.BONE_FOOT_L: 135.0, _P.BONE_FOOT_R: 135.0,
}
CROUCH = {  # both ways: crouched over the feet, the trunk bowed over the knees, arms ahead
    _P.BONE_PELVIS: 35.0, _P.BONE_SPINE_01: 40.0, _P.BONE_SPINE_03: 40.0, _P.BONE_NECK: 20.0,
    _P.BONE_UPPERARM_L: -40.0, _P.BONE_LOWERARM_L: -60.0,
    _P.BONE_UPPERARM_R: -40.0, _P.BONE_LOWERARM_R: -60.0,
    _P.BONE_THIGH_L: -80.0, _P.BONE_CALF_L: 35.0, _P.BONE_THIGH_R: -80.0, _P.BONE_CALF_R: 35.0,
    _P.BONE_FOOT_L: 15.0, _P.BONE_FOOT_R: 15.0,
}
_CHEST = human.BONE_SPINE_03
_CHEST_FWD = np.array(human.BONE_FORWARD_LOCAL[_CHEST], dtype=np.float64)
_CALVES = (human.BONE_CALF_L, human.BONE_CALF_R)
STAGES = 3


@dataclass(frozen=True)
class GetUpSettings:
    """The ways up's tuned constants (packed into the parameter row by ``_settings.pack``)."""

    stage: float = K.STAGE
    """s: each of a way's three stages (spec: 0.7 s, eased in and out)."""
    still_move: float = 0.002
    """m: the pelvis moving less than this a step is still (spec: 2 mm)."""
    still_steps: float = 10.0
    """steps it is still for before it has lain still (spec: ten)."""
    down_lean: float = 1.0
    """rad: leaning past this from upright it is on the ground (spec: 1 rad)."""
    down_drop: float = 0.45
    """m: or with its pelvis within this of its lowest point (spec: 0.45 m, which covers a figure
    that crumpled where it stood)."""

    def pack(self, row: np.ndarray) -> None:
        row[S_GU_STAGE] = self.stage
        row[S_GU_STILL_MOVE] = self.still_move
        row[S_GU_STILL_STEPS] = self.still_steps
        row[S_GU_DOWN_LEAN] = self.down_lean
        row[S_GU_DOWN_DROP] = self.down_drop


# ------------------------------------------------------------------------------ the verb
@njit(cache=True, _nrt=False)
def _down(f, nb, pbi, prm, up_local, bf):
    """Figure f is on the ground: leaning past down_lean from upright, or its pelvis within
    down_drop of its lowest point."""
    pel = pbi[f, 0, PB_BODY]
    ux, uy, uz = qrot(bf[pel, B_QUAT], bf[pel, B_QUAT + 1], bf[pel, B_QUAT + 2],
                      bf[pel, B_QUAT + 3], up_local[0], up_local[1], up_local[2])
    lean = math.acos(min(1.0, max(-1.0, uy)))
    if lean > prm[S_GU_DOWN_LEAN]:
        return True
    return bf[pel, B_POS + 1] - lowest_point(f, nb, pbi, bf) < prm[S_GU_DOWN_DROP]


@njit(cache=True, _nrt=False)
def _key(f, k, nb, ff, fi, pbf, out_q, out_t):
    """Key k of figure f's way into out (local form): 0..2 the keys kept, 3 the animation's own
    pose (a dressed figure's as its rig gives it this step, else the one kept) moved and turned
    by F_GU_MOVE."""
    for c in range(3):
        out_t[0, c] = 0.0
    if k < 3:
        for b in range(nb):
            for c in range(4):
                out_q[b, c] = pbf[f, b, PB_GU_KEY_Q + 4 * k + c]
        for c in range(3):
            out_t[0, c] = ff[f, F_GU_KEY_P + 3 * k + c]
        return
    live = fi[f, F_DRESS] >= 0
    for b in range(1, nb):
        for c in range(4):
            out_q[b, c] = pbf[f, b, PB_TARGET + c] if live else pbf[f, b, PB_GU_BASE_Q + c]
    px = ff[f, F_ANIM_POS] if live else ff[f, F_GU_BASE_P]
    py = ff[f, F_ANIM_POS + 1] if live else ff[f, F_GU_BASE_P + 1]
    pz = ff[f, F_ANIM_POS + 2] if live else ff[f, F_GU_BASE_P + 2]
    o = F_ANIM_ROT if live else F_GU_BASE_Q
    yaw = ff[f, F_GU_MOVE]
    sy = math.sin(0.5 * yaw)
    cy = math.cos(0.5 * yaw)
    x, y, z, w = qmul(0.0, sy, 0.0, cy, ff[f, o], ff[f, o + 1], ff[f, o + 2], ff[f, o + 3])
    if w < 0.0:
        x, y, z, w = -x, -y, -z, -w
    out_q[0, 0] = x
    out_q[0, 1] = y
    out_q[0, 2] = z
    out_q[0, 3] = w
    c2 = math.cos(yaw)
    s2 = math.sin(yaw)
    out_t[0, 0] = c2 * px + s2 * pz + ff[f, F_GU_MOVE + 1]
    out_t[0, 1] = py + ff[f, F_GU_MOVE + 2]
    out_t[0, 2] = -s2 * px + c2 * pz + ff[f, F_GU_MOVE + 3]


@njit(cache=True, _nrt=False)
def _soles(f, nb, pbi, bf, p, q):
    """(x, z) m: the middle of the calves' lower ends in bodies p, q."""
    sx = 0.0
    sz = 0.0
    for b in _CALVES:
        s = pbi[f, b, PB_BODY]
        ax, ay, az = qrot(q[b, 0], q[b, 1], q[b, 2], q[b, 3], 0.0, bf[s, B_DIMS + 1], 0.0)
        if ay > 0.0:
            ax, az = -ax, -az
        sx += 0.5 * (p[b, 0] + ax)
        sz += 0.5 * (p[b, 2] + az)
    return sx, sz


@njit(cache=True, _nrt=False)
def _lowest(f, nb, pbi, bf, p, q):
    low = 1e300
    for b in range(nb):
        s = pbi[f, b, PB_BODY]
        ax, ay, az = qrot(q[b, 0], q[b, 1], q[b, 2], q[b, 3], 0.0, bf[s, B_DIMS + 1], 0.0)
        y = p[b, 1] - abs(ay) - bf[s, B_DIMS]
        if y < low:
            low = y
    return low


@njit(cache=True, _nrt=False)
def get_up_pre(f, dt, nb, ff, fi, pbf, pbi, prm, parent, up_local, bf, jf, sc):
    """Before the physics step (before the muscles and the follow anchors read the animation),
    figure f's way up: GETTING_UP, the way's pose this step written as the animation's (and its
    bodies in the world, PB_GU_*), flagging F_GU_DONE at its last key; otherwise, with
    set_get_up's seconds, how long it has lain still, flagging F_GU_DUE when they are up and it
    is down. ``sc`` (10, MAXB, 4) scratch. Returns True when the animation changed."""
    mode = fi[f, F_MODE]
    pel = pbi[f, 0, PB_BODY]
    if mode != GETTING_UP or fi[f, F_GU_WAY] == WAY_NONE:
        # writhing (or let go to writhe) is not lying still: set_get_up counts from its end
        writhes = fi[f, F_WRITHE] == WRITHE_ON or fi[f, F_WRITHE] == WRITHE_DOWN
        if ff[f, F_GET_UP] <= 0.0 or (mode != POWERED and mode != LIMP) or writhes:
            fi[f, F_GU_STILL_N] = 0
            ff[f, F_GU_STILL_T] = 0.0
            for c in range(3):
                ff[f, F_GU_PREV + c] = bf[pel, B_POS + c]
            return False
        d2 = 0.0
        for c in range(3):
            d = bf[pel, B_POS + c] - ff[f, F_GU_PREV + c]
            d2 += d * d
            ff[f, F_GU_PREV + c] = bf[pel, B_POS + c]
        if math.sqrt(d2) < prm[S_GU_STILL_MOVE]:
            fi[f, F_GU_STILL_N] += 1
        else:
            fi[f, F_GU_STILL_N] = 0
        # lain still once still_steps steps were; counted from then
        if fi[f, F_GU_STILL_N] > prm[S_GU_STILL_STEPS]:
            ff[f, F_GU_STILL_T] += dt
        else:
            ff[f, F_GU_STILL_T] = 0.0
        if (fi[f, F_GU_STILL_N] >= prm[S_GU_STILL_STEPS]
                and ff[f, F_GU_STILL_T] >= ff[f, F_GET_UP] - 1e-9
                and _down(f, nb, pbi, prm, up_local, bf)):
            fi[f, F_GU_DUE] = 1
        return False
    stage = prm[S_GU_STAGE]
    t = ff[f, F_GU_T] + dt
    end = STAGES * stage
    if t >= end - 1e-9:
        t = end
        fi[f, F_GU_DONE] = 1
    ff[f, F_GU_T] = t
    k = min(int(t / stage), STAGES - 1)
    s = K.ease((t - k * stage) / stage)
    aq, at, bq, bt, oq, ot = sc[0], sc[1], sc[2], sc[3], sc[4], sc[5]
    wp, wq, waq, wbq = sc[6], sc[7], sc[8], sc[9]
    joints = pbi[f, :, PB_JOINT]
    _key(f, k, nb, ff, fi, pbf, aq, at)
    _key(f, k + 1, nb, ff, fi, pbf, bq, bt)
    # the keys' own lowest points and soles, then the way's pose between them
    local_to_world(nb, parent, joints, jf, aq, at, wp, waq)
    low_a = _lowest(f, nb, pbi, bf, wp, waq)
    sax, saz = _soles(f, nb, pbi, bf, wp, waq)
    local_to_world(nb, parent, joints, jf, bq, bt, wp, wbq)
    low_b = _lowest(f, nb, pbi, bf, wp, wbq)
    sbx, sbz = _soles(f, nb, pbi, bf, wp, wbq)
    if k == 0:
        # out of the pose it lies in, each bone turns in the world the shorter way to its key:
        # a limb and the trunk turning the same way each step, slerped joint by joint, add up
        # past the 6 degrees a step a bone may turn
        K.interpolate(nb, waq, at, wbq, bt, s, wq, ot)
        K.world_to_local(nb, parent, wq, oq)
    else:
        K.interpolate(nb, aq, at, bq, bt, s, oq, ot)
    local_to_world(nb, parent, joints, jf, oq, ot, wp, wq)
    # no body of the way under the ground its two keys rest on
    lift = low_a + (low_b - low_a) * s - _lowest(f, nb, pbi, bf, wp, wq)
    if lift < 0.0:
        lift = 0.0
    # a stage that keeps the feet: the soles' middle where its keys have it
    mx = 0.0
    mz = 0.0
    if (fi[f, F_GU_SOLES] >> k) & 1:
        nx, nz = _soles(f, nb, pbi, bf, wp, wq)
        mx = sax + (sbx - sax) * s - nx
        mz = saz + (sbz - saz) * s - nz
    ot[0, 0] += mx
    ot[0, 1] += lift
    ot[0, 2] += mz
    for c in range(3):
        ff[f, F_ANIM_POS + c] = ot[0, c]
    for c in range(4):
        ff[f, F_ANIM_ROT + c] = oq[0, c]
    for b in range(1, nb):
        for c in range(4):
            pbf[f, b, PB_TARGET + c] = oq[b, c]
    for b in range(nb):
        pbf[f, b, PB_GU_P] = wp[b, 0] + mx
        pbf[f, b, PB_GU_P + 1] = wp[b, 1] + lift
        pbf[f, b, PB_GU_P + 2] = wp[b, 2] + mz
        for c in range(4):
            pbf[f, b, PB_GU_Q + c] = wq[b, c]
    return True


# ------------------------------------------------------------------------------ planning
def _bodies(m: Motion) -> tuple[np.ndarray, np.ndarray]:
    w = m.engine.physics
    b = m.ragdoll.bodies
    return w.bf[b, B_POS:B_POS + 3].copy(), w.bf[b, B_QUAT:B_QUAT + 4].copy()


def _yaw_of(v: np.ndarray) -> float:
    return math.atan2(float(v[0]), float(v[2]))


def face_up(m: Motion) -> bool:
    """The chest's front is to the sky (or level): the face-up way (a figure on its side takes
    the nearer way)."""
    _, q = _bodies(m)
    return bool(K._qr(q[_CHEST], _CHEST_FWD)[1] >= 0.0)


# m over the pelvis where it lies that the ground under a key's points is looked for from (a
# wall's top beside a figure lying against it is not ground)
_GROUND_ABOVE = 0.6


def _placed(m: Motion, leans: dict, yaw: float, at: np.ndarray, point: Any,
            top: float) -> tuple:
    """A key from ``leans`` facing ``yaw``, moved over the ground so ``point(r, p, q)`` (its
    pelvis when None) is at ``at`` (x, z), then set down on the ground under it (looked for from
    ``top`` m down). Returns (loc_q, loc_t, p, q)."""
    r = m.ragdoll
    lq, lt = K.key_from_leans(r, leans, yaw)
    p, q = K.key_world(r, lq, lt)
    here = p[0] if point is None else point(r, p, q)
    by = np.array([at[0] - here[0], 0.0, at[2] - here[2]])
    p += by
    by[1] = K.set_down(m.engine, p, q, K.dims_of(r), top)
    p[:, 1] += by[1]
    lt = K.move_key(lt, by)
    return lq, lt, p, q


def _start(m: Motion) -> None:
    """Plan and begin the way up from where the figure lies (Python, once)."""
    from . import _modes
    from ._pose import body_local
    s = service(m.engine)
    f = m.slot
    r = m.ragdoll
    nb = r.bones
    P, Q = _bodies(m)
    up = face_up(m)
    pelvis = P[0]
    if up:
        toward = K.sole_point(r, P, Q) - pelvis      # facing where its feet lay
    else:
        toward = P[human.BONE_NECK] - pelvis         # facing where its head lay
    toward[1] = 0.0
    if float(np.hypot(toward[0], toward[2])) < 1e-6:
        toward = K._qr(Q[0], np.array(human.BONE_FORWARD_LOCAL[0]))
    yaw = _yaw_of(toward)
    k0q, k0t = body_local(m)
    top = float(pelvis[1]) + _GROUND_ABOVE
    k1q, k1t, p1, q1 = _placed(m, SIT_UP if up else HANDS_KNEES, yaw, pelvis, None, top)
    feet_at = K.sole_point(r, p1, q1) if up else K.knee_point(r, p1, q1)
    k2q, k2t, p2, q2 = _placed(m, CROUCH, yaw, feet_at, K.sole_point, top)
    # the animation's own pose moved so its feet are where the crouch's are, turned to face yaw
    from ._modes import anim_world
    ap, aq = anim_world(m)
    a_fwd = K._qr(aq[0], np.array(human.BONE_FORWARD_LOCAL[0]))
    turn = yaw - _yaw_of(a_fwd)
    turn = math.atan2(math.sin(turn), math.cos(turn))
    c, sn = math.cos(turn), math.sin(turn)
    rot = np.array([[c, 0.0, sn], [0.0, 1.0, 0.0], [-sn, 0.0, c]])
    a_sole = rot @ K.sole_point(r, ap, aq)
    c_sole = K.sole_point(r, p2, q2)
    g_here = K.ground_under(m.engine, float(a_sole[0]), float(a_sole[2]), float(ap[0, 1]))
    g_there = K.ground_under(m.engine, float(c_sole[0]), float(c_sole[2]), top)
    move = np.array([c_sole[0] - a_sole[0], g_there - g_here, c_sole[2] - a_sole[2]])
    # keep the animation's own pose (a figure without a rig: the way writes over it)
    s.ff[f, F_GU_BASE_P:F_GU_BASE_P + 3] = s.ff[f, F_ANIM_POS:F_ANIM_POS + 3]
    s.ff[f, F_GU_BASE_Q:F_GU_BASE_Q + 4] = s.ff[f, F_ANIM_ROT:F_ANIM_ROT + 4]
    s.pbf[f, :nb, PB_GU_BASE_Q:PB_GU_BASE_Q + 4] = s.pbf[f, :nb, PB_TARGET:PB_TARGET + 4]
    for k, (lq, lt) in enumerate(((k0q, k0t), (k1q, k1t), (k2q, k2t))):
        s.pbf[f, :nb, PB_GU_KEY_Q + 4 * k:PB_GU_KEY_Q + 4 * k + 4] = lq
        s.ff[f, F_GU_KEY_P + 3 * k:F_GU_KEY_P + 3 * k + 3] = lt[0]
    s.ff[f, F_GU_MOVE] = turn
    s.ff[f, F_GU_MOVE + 1:F_GU_MOVE + 4] = move
    s.ff[f, F_GU_T] = 0.0
    s.fi[f, F_GU_WAY] = WAY_FACE_UP if up else WAY_FACE_DOWN
    # face up the feet stay from sitting on; face down from the crouch on
    s.fi[f, F_GU_SOLES] = 0b110 if up else 0b100
    s.fi[f, F_GU_DUE] = 0
    s.fi[f, F_GU_DONE] = 0
    old = int(s.fi[f, F_MODE])
    s.fi[f, F_RESUME] = POWERED if old == POWERED else ANIMATED
    # the follow anchors made on the pose it lies in
    s.ff[f, F_ANIM_POS:F_ANIM_POS + 3] = k0t[0]
    s.ff[f, F_ANIM_ROT:F_ANIM_ROT + 4] = k0q[0]
    s.pbf[f, 1:nb, PB_TARGET:PB_TARGET + 4] = k0q[1:]
    s.pbf[f, :nb, PB_GU_P:PB_GU_P + 3] = P
    s.pbf[f, :nb, PB_GU_Q:PB_GU_Q + 4] = Q
    _modes.hand_over(m, GETTING_UP)
    K.pass_through(r, True)
    # the way starts from the pose shown (the bodies'): no blend of its own
    s.fi[f, F_BLEND] = BLEND_NONE
    s.fi[f, F_RIG_BLEND] = BLEND_NONE
    if m.rig is not None:
        s.fi[f, F_RIG_OWNED] = 1


def _restore_animation(m: Motion, moved: bool) -> None:
    """The animation's own pose back where the way took it from (``moved``: moved and turned as
    the last key was, so it takes over where the figure stands)."""
    s = service(m.engine)
    f = m.slot
    nb = m.ragdoll.bones
    turn = float(s.ff[f, F_GU_MOVE]) if moved else 0.0
    move = s.ff[f, F_GU_MOVE + 1:F_GU_MOVE + 4].copy() if moved else np.zeros(3)
    c, sn = math.cos(turn), math.sin(turn)
    rot = np.array([[c, 0.0, sn], [0.0, 1.0, 0.0], [-sn, 0.0, c]])
    if m.rig is not None:
        from . import _pose
        if moved:
            mat = np.eye(4)
            mat[:3, :3] = rot
            mat[:3, 3] = move
            m.rig.root[:] = mat @ m.rig.root
        # the animation's own pose back into the rig (the way's drawing undone): what a
        # hand-over reads as the pose shown, and what the next read takes as the animation's
        _pose._dress().ragdoll_restore_rig(m.ragdoll)
        service(m.engine).fi[m.slot, F_RIG_OWNED] = 0
        _pose.read_one(m)
        return
    p = s.ff[f, F_GU_BASE_P:F_GU_BASE_P + 3].copy()
    q = s.ff[f, F_GU_BASE_Q:F_GU_BASE_Q + 4].copy()
    s.ff[f, F_ANIM_POS:F_ANIM_POS + 3] = rot @ p + move
    nq = K._qm(K.yaw_quat(turn), q)
    s.ff[f, F_ANIM_ROT:F_ANIM_ROT + 4] = nq if nq[3] >= 0.0 else -nq
    s.pbf[f, 1:nb, PB_TARGET:PB_TARGET + 4] = s.pbf[f, 1:nb, PB_GU_BASE_Q:PB_GU_BASE_Q + 4]


def end_way(m: Motion, up: bool) -> None:
    """The way up is over: up (its last key reached: the animation moved to where it stands),
    or ended where it is (``set_mode``). Called before the hand-over of the mode."""
    s = service(m.engine)
    f = m.slot
    if int(s.fi[f, F_GU_WAY]) == WAY_NONE:
        return
    s.fi[f, F_GU_WAY] = WAY_NONE
    K.pass_through(m.ragdoll, False)
    s.fi[f, F_GU_DONE] = 0
    s.fi[f, F_GU_DUE] = 0
    s.fi[f, F_GU_STILL_N] = 0
    s.ff[f, F_GU_STILL_T] = 0.0
    _restore_animation(m, up)


def _finish(m: Motion) -> None:
    from . import _modes
    s = service(m.engine)
    resume = int(s.fi[m.slot, F_RESUME])
    end_way(m, True)
    _modes.hand_over(m, resume)


def after_step(s: Any) -> None:
    """After the physics step (``Service.post``): the ways flagged by ``get_up_pre`` started
    (set_get_up's time up) or handed back (their last key reached)."""
    n = s.n
    due = np.nonzero(s.fi[:n, F_GU_DUE])[0]
    done = np.nonzero(s.fi[:n, F_GU_DONE])[0]
    for f in done:
        m = s.handles[int(f)]
        if m is not None:
            _finish(m)
        else:
            s.fi[f, F_GU_DONE] = 0
    for f in due:
        m = s.handles[int(f)]
        s.fi[f, F_GU_DUE] = 0
        if m is not None and int(s.fi[f, F_MODE]) in (POWERED, LIMP):
            _start(m)


# ------------------------------------------------------------------------------ the façade
def down(body: Motion) -> bool:
    """True while the figure is on the ground: leaning past 1 rad from upright, or its pelvis
    within 0.45 m of its lowest point (a figure crumpled where it stood)."""
    m = check(body)
    s = service(m.engine)
    w = m.engine.physics
    return bool(_down(m.slot, m.ragdoll.bones, s.pbi, s.prm, UP_LOCAL, w.bf))


def get_up(body: Motion) -> bool:
    """Get a figure on the ground back on its feet, whatever mode it is in: the way up that
    matches how it lies (face up or face down, read from the chest's front), GETTING_UP while it
    rises; POWERED again once up if it was POWERED, else ANIMATED. Returns True when a way up
    began (False: it is not down, or already on its way up)."""
    m = check(body)
    s = service(m.engine)
    if int(s.fi[m.slot, F_MODE]) == GETTING_UP:
        return False
    if not down(m):
        return False
    _start(m)
    return True


def getting_up(body: Motion) -> bool:
    """True while the figure is on its way up (mode GETTING_UP)."""
    m = check(body)
    return int(service(m.engine).fi[m.slot, F_MODE]) == GETTING_UP


__all__ = ["GetUpSettings", "get_up_pre", "after_step", "down", "get_up", "getting_up",
           "end_way", "face_up", "SIT_UP", "HANDS_KNEES", "CROUCH"]
