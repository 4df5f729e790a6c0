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
in, the first key, a crouch, and the animation's own pose. The first stage takes longer where a
bone lies so far from its first key that it would turn faster than ``max_turn`` (5 rad/s) at the
stage's middle (``_first_stage_pace``: the spec's 6 degrees a step held whatever the landing).
The keys between are the figure's reference bones bent by a lean per bone (``SIT_UP``,
``HANDS_KNEES``, ``CROUCH``, degrees, about the axis across the figure) and set down on the ground
under them. The last key is the
animation's pose moved (``F_GU_MOVE``) so its feet are where the crouch's are and turned to face
the way the figure rose; once up, the animation itself is moved there (a dressed figure's rig
root, else its ``set_animation`` pelvis), so it takes over with nothing to jump. Each step the
way's pose is written as the animation's (``F_ANIM_*``, ``PB_TARGET``), which the follow anchors
and the joints' springs of the modes drawn from the animation carry the bodies to, so it collides
as it rises; where its keys keep the feet (the crouch to standing, and sitting to the crouch),
the soles' middle is held where they have it, and no body of the way is set under the ground its
two keys rest on.

The feet's plants (spec: "planted feet are held at 30 Hz"): as a stage that keeps the feet
begins (face up from sitting on, face down from the crouch on), each foot's body is planted where
it stands (``_keyed.plant_feet``: a foot at the turn it stands with; a figure without feet by its
ankles only) until the way ends, so the bodies are not pushed along the ground as the weight
comes onto them (the box man's ankles slid 25.0, 7.7 and 16.0 mm over the ground without them).

The clip way (beyond the spec, issue 13): a dressed figure whose glTF has get-up clips of its own
(``GetUpFaceUp`` / ``GetUpFaceDown``, any case; or given by ``set_get_up_clips(body, face_up,
face_down)``, None a side's keyed way) plays the clip for the way it lies instead of the keyed
way. The rig plays it (``figure.play``, read before each step as the animation is), its root
turned and moved so the clip's first frame lies where the figure lies, facing the way it rises
(``F_GU_CLIP_D`` its length); the first ``CLIP_BLEND_IN`` s (or half the clip) are blended from
the pose it lies in, the last ``stage`` s (or third of the clip) onto the animation's own pose
(kept as it began) moved to stand where the clip's last frame stands, the soles' middle kept and
the feet planted through it. Once up,
the animation's pose, its clip and time and the rig's root (moved as the last key was) are put
back, so the hand-over is as a keyed way's.

A figure that was POWERED is POWERED again once up (its drawing fading from the way's into its
bodies', spec "Blends"); any other ends ANIMATED. ``set_mode`` ends a way up where it is.

Columns: ``F_GU_*``, ``PB_GU_*`` (``_layout``). Settings: ``GetUpSettings``. Verb:
``get_up_pre``; ``after_step`` (the Python side: a way started or ended, rows flagged by the
verb, the feet planted). Calls: ``get_up``, ``set_get_up`` (``_figures``), ``down``,
``getting_up``, ``set_get_up_clips``, ``get_up_clips``. Units: m, s, rad; leans in degrees.
"""

from __future__ import annotations

import math
import weakref
from dataclasses import dataclass
from typing import Any

import numpy as np
from numba import njit

from ae3d import human
from ae3d.physics._layout import B_DIMS, B_POS, B_QUAT

from . import _keyed as K
from ._kin import local_to_world, qdelta_rotvec, qmul, qrot, relative_from_world
from ._landing import lowest_point
from ._layout import (
    ACTING,
    ANIMATED,
    BLEND_NONE,
    F_ANIM_POS,
    F_ANIM_ROT,
    F_BLEND,
    F_DRESS,
    F_FALLING,
    F_GET_UP,
    F_GU_BASE_P,
    F_GU_BASE_Q,
    F_GU_CLIP_D,
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
    F_LAND,
    F_MODE,
    F_RESUME,
    F_RIG_BLEND,
    F_RIG_OWNED,
    F_WRITHE,
    GETTING_UP,
    LAND_NONE,
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
    S_GU_MAX_TURN,
    S_GU_STAGE,
    S_GU_STILL_MOVE,
    S_GU_STILL_STEPS,
    WAY_FACE_DOWN,
    WAY_FACE_UP,
    WAY_NONE,
    WAY_ON_FEET,
    WRITHE_DOWN,
    WRITHE_ON,
)
from ._service import PARENT, UP_LOCAL, Motion, check, service

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
STOOD_BENT = {  # on its feet, bent over them: the trunk leaned 30 degrees, knees a little bent
    _P.BONE_PELVIS: 25.0, _P.BONE_SPINE_01: 30.0, _P.BONE_SPINE_03: 30.0, _P.BONE_NECK: 15.0,
    _P.BONE_UPPERARM_L: -10.0, _P.BONE_LOWERARM_L: -25.0,
    _P.BONE_UPPERARM_R: -10.0, _P.BONE_LOWERARM_R: -25.0,
    _P.BONE_THIGH_L: -10.0, _P.BONE_CALF_L: 10.0, _P.BONE_THIGH_R: -10.0, _P.BONE_CALF_R: 10.0,
    _P.BONE_FOOT_L: 0.0, _P.BONE_FOOT_R: 0.0,
}
STOOD = {  # on its feet, near upright, arms hanging
    _P.BONE_PELVIS: 5.0, _P.BONE_SPINE_01: 5.0, _P.BONE_SPINE_03: 5.0, _P.BONE_NECK: 0.0,
    _P.BONE_UPPERARM_L: 0.0, _P.BONE_LOWERARM_L: -10.0,
    _P.BONE_UPPERARM_R: 0.0, _P.BONE_LOWERARM_R: -10.0,
    _P.BONE_THIGH_L: -3.0, _P.BONE_CALF_L: 3.0, _P.BONE_THIGH_R: -3.0, _P.BONE_CALF_R: 3.0,
    _P.BONE_FOOT_L: 0.0, _P.BONE_FOOT_R: 0.0,
}
_CHEST = human.BONE_SPINE_03
_CHEST_FWD = np.array(human.BONE_FORWARD_LOCAL[_CHEST], dtype=np.float64)
_CALVES = (human.BONE_CALF_L, human.BONE_CALF_R)
STAGES = 3
CLIP_BLEND_IN = 1.05
"""s: a clip way's blend from the pose the figure lies in into its clip (half the clip where that
is shorter). Measured on tests/test_get_up.py's clip sweep (felled by 300 and 450 N·s from 0°,
120° and 240°), the worst drawn bone's turn and hips' move a step: over 0.7 s (a stage, as the
out-blend) the Mixamo man lying on its side swept its limbs under the ground into its clip's prone
first frame and was lifted out at 42.7 mm a step, and felled face up by 450 N·s turned its upper
arm 6.8° a step (box man 4.6°, 37 mm); over 1.05 s the Mixamo man 4.9°, 30.4 mm, the box man
4.4°, 28.1 mm (the limits 6° and 40 mm)."""


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
    max_turn: float = 5.0
    """rad/s: a keyed way's first stage (out of the pose it lies in, each bone turning in the world
    to its first key) takes longer than ``stage`` where its widest turn would go faster than this
    at the stage's middle (smoothstep: 1.5 times the mean), so no drawn bone turns past the spec's
    6 degrees a step (0.105 rad at 60 Hz; 5 rad/s is 4.8 degrees). Without it, the Mixamo man
    felled by 300 N·s from 300 degrees, lying with an upper arm 173 degrees from its key, turned it
    6.18 degrees a step (session 13, a spine kept bent to the landing); the ways that turn no bone
    past 2.33 rad (5 x 0.7 / 1.5) are as before, bit for bit."""

    def pack(self, row: np.ndarray) -> None:
        row[S_GU_STAGE] = self.stage
        row[S_GU_STILL_MOVE] = self.still_move
        row[S_GU_STILL_STEPS] = self.still_steps
        row[S_GU_DOWN_LEAN] = self.down_lean
        row[S_GU_DOWN_DROP] = self.down_drop
        row[S_GU_MAX_TURN] = self.max_turn


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
def _fallen_on_feet(f, fi):
    """Figure f has fallen and come to rest (landed, or caught) without being down: on its feet,
    bent over what it fell against, or stood jammed (``_start_on_feet`` gets it up)."""
    return fi[f, F_FALLING] != 0 and fi[f, F_LAND] != LAND_NONE


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
    # a dressed figure's animation goes on under a keyed way; a clip way plays its clip on the
    # rig, and the animation's own pose is the one kept as it began; an action's (ACTING, _act.py)
    # last key is one it planned on its contacts (lying), kept where the animation's would be
    live = fi[f, F_DRESS] >= 0 and ff[f, F_GU_CLIP_D] <= 0.0 and fi[f, F_MODE] != ACTING
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
def _clip_way(f, t, nb, ff, fi, pbf, pbi, prm, parent, bf, jf, sc):
    """Figure f's clip way at ``t`` s: the clip's pose this step (the animation's, as the rig
    playing it was read before the step), blended in from the pose it lay in over its first
    ``CLIP_BLEND_IN`` s or half the clip (each bone the shorter way in the world, as a keyed
    way's first stage) and out onto the animation's own pose moved to where it stands (key 3)
    over its last ``blend`` s, the stage (0.7 s) or a third of the clip when it is shorter.
    Into sc[4], sc[5] (local), sc[6], sc[7] (world). Returns (mx, lift, mz) m to move it by:
    lifted so no body is under the ground the lying pose and key 3 rest on, and through the
    out-blend its soles' middle kept between where the clip and key 3 have it."""
    aq, at, bq, bt, oq, ot = sc[0], sc[1], sc[2], sc[3], sc[4], sc[5]
    wp, wq, waq, wbq = sc[6], sc[7], sc[8], sc[9]
    joints = pbi[f, :, PB_JOINT]
    end = ff[f, F_GU_CLIP_D]
    blend = min(prm[S_GU_STAGE], end / 3.0)
    blend_in = min(CLIP_BLEND_IN, end / 2.0)
    _key(f, 0, nb, ff, fi, pbf, aq, at)
    _key(f, 3, nb, ff, fi, pbf, bq, bt)
    for b in range(nb):
        for c in range(4):
            oq[b, c] = ff[f, F_ANIM_ROT + c] if b == 0 else pbf[f, b, PB_TARGET + c]
    for c in range(3):
        ot[0, c] = ff[f, F_ANIM_POS + c]
    # the out-blend keeps the soles' middle between where the clip and key 3 have it (the same
    # spot: key 3 stands where the clip's last frame does), as a keyed stage that keeps the feet
    out = t > end - blend
    x_out = K.ease((t - (end - blend)) / blend) if out else 0.0
    sax = 0.0
    saz = 0.0
    sbx = 0.0
    sbz = 0.0
    if out:
        local_to_world(nb, parent, joints, jf, oq, ot, wp, wq)
        sax, saz = _soles(f, nb, pbi, bf, wp, wq)
        K.interpolate(nb, oq, ot, bq, bt, x_out, oq, ot)
    local_to_world(nb, parent, joints, jf, aq, at, wp, waq)
    low_a = _lowest(f, nb, pbi, bf, wp, waq)
    local_to_world(nb, parent, joints, jf, bq, bt, wp, wbq)
    low_b = _lowest(f, nb, pbi, bf, wp, wbq)
    if out:
        sbx, sbz = _soles(f, nb, pbi, bf, wp, wbq)
    if t < blend_in:
        local_to_world(nb, parent, joints, jf, oq, ot, wp, wq)
        K.interpolate(nb, waq, at, wq, ot, K.ease(t / blend_in), wq, ot)
        relative_from_world(nb, parent, wq, oq)
    local_to_world(nb, parent, joints, jf, oq, ot, wp, wq)
    lift = low_a + (low_b - low_a) * K.ease(t / end) - _lowest(f, nb, pbi, bf, wp, wq)
    mx = 0.0
    mz = 0.0
    if out:
        nx, nz = _soles(f, nb, pbi, bf, wp, wq)
        mx = sax + (sbx - sax) * x_out - nx
        mz = saz + (sbz - saz) * x_out - nz
    return mx, max(lift, 0.0), mz


@njit(cache=True, _nrt=False)
def _first_stage_pace(f, nb, ff, fi, pbf, pbi, prm, parent, jf, sc):
    """Share of real time (0..1] the first stage of figure f's keyed way runs at: 1, or less where
    a bone turning in the world from the pose it lies in (key 0) to the first key would turn
    faster than ``max_turn`` at the stage's middle (GetUpSettings.max_turn). ``sc`` scratch, its
    rows 0-3 and 6-9 overwritten."""
    aq, at, bq, bt = sc[0], sc[1], sc[2], sc[3]
    wp, waq, wbq = sc[6], sc[8], sc[9]
    joints = pbi[f, :, PB_JOINT]
    _key(f, 0, nb, ff, fi, pbf, aq, at)
    _key(f, 1, nb, ff, fi, pbf, bq, bt)
    local_to_world(nb, parent, joints, jf, aq, at, wp, waq)
    local_to_world(nb, parent, joints, jf, bq, bt, wp, wbq)
    widest = 0.0
    for b in range(nb):
        rx, ry, rz = qdelta_rotvec(waq[b, 0], waq[b, 1], waq[b, 2], waq[b, 3],
                                   wbq[b, 0], wbq[b, 1], wbq[b, 2], wbq[b, 3])
        widest = max(widest, math.sqrt(rx * rx + ry * ry + rz * rz))
    # smoothstep's steepest is 1.5 times its mean, at the stage's middle
    fastest = 1.5 * widest / prm[S_GU_STAGE]
    if fastest <= prm[S_GU_MAX_TURN]:
        return 1.0
    return prm[S_GU_MAX_TURN] / fastest


@njit(cache=True, _nrt=False)
def get_up_pre(f, dt, nb, ff, fi, pbf, pbi, prm, parent, up_local, bf, jf, sc):
    """Before the physics step (before the muscles and the follow anchors read the animation),
    figure f's way up: GETTING_UP, the way's pose this step written as the animation's (and its
    bodies in the world, PB_GU_*), flagging F_GU_DONE at its last key (an action's way, ACTING,
    holds its last key instead: lain, ``_act.py``); otherwise, with
    set_get_up's seconds, how long it has lain still, flagging F_GU_DUE when they are up and it
    is down. ``sc`` (10, MAXB, 4) scratch. Returns True when the animation changed."""
    mode = fi[f, F_MODE]
    pel = pbi[f, 0, PB_BODY]
    acting = mode == ACTING
    if (mode != GETTING_UP and not acting) or fi[f, F_GU_WAY] == WAY_NONE:
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
                and (_down(f, nb, pbi, prm, up_local, bf) or _fallen_on_feet(f, fi))):
            fi[f, F_GU_DUE] = 1
        return False
    stage = prm[S_GU_STAGE]
    clip = ff[f, F_GU_CLIP_D] > 0.0
    pace = 1.0
    if not clip and ff[f, F_GU_T] < stage:
        pace = _first_stage_pace(f, nb, ff, fi, pbf, pbi, prm, parent, jf, sc)
    t = ff[f, F_GU_T] + dt * pace
    end = ff[f, F_GU_CLIP_D] if clip else STAGES * stage
    if t >= end - 1e-9:
        t = end
        # an action (ACTING: lying down) holds its last key, lain, until it is got up from
        if not acting:
            fi[f, F_GU_DONE] = 1
    ff[f, F_GU_T] = t
    if clip:
        mx, lift, mz = _clip_way(f, t, nb, ff, fi, pbf, pbi, prm, parent, bf, jf, sc)
        _write_way(f, nb, ff, pbf, sc[4], sc[5], sc[6], sc[7], mx, lift, mz)
        return True
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
        relative_from_world(nb, parent, wq, oq)
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
    _write_way(f, nb, ff, pbf, oq, ot, wp, wq, mx, lift, mz)
    return True


@njit(cache=True, _nrt=False)
def _write_way(f, nb, ff, pbf, oq, ot, wp, wq, mx, lift, mz):
    """The way's pose this step (local ``oq``, ``ot``; world ``wp``, ``wq``) moved by (mx, lift,
    mz) m, written as the animation's (F_ANIM_*, PB_TARGET) and as the way's bodies (PB_GU_*)."""
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


def _toward(r: Any, P: np.ndarray, Q: np.ndarray, up: bool) -> float:
    """rad: the yaw a figure lying in bodies P, Q rises facing: where its feet lay (face up; its
    knees where they lie farther out, a figure slumped on its folded legs) or its head (face
    down), from its pelvis, over the ground."""
    pelvis = P[0]
    if up:
        toward = K.legs_point(r, P, Q) - pelvis      # facing where its feet (or knees) lay
    else:
        toward = P[human.BONE_NECK] - pelvis         # facing where its head lay
    toward[1] = 0.0
    if float(np.hypot(toward[0], toward[2])) < 1e-6:
        toward = K._qr(Q[0], np.array(human.BONE_FORWARD_LOCAL[0]))
    return _yaw_of(toward)


def _start(m: Motion, pose: Any = None) -> None:
    """Plan and begin the way up from where the figure lies (Python, once): its own get-up clip
    for the way it lies where it has one (``set_get_up_clips``), else the keyed way. ``pose``:
    ((n, 3) m, (n, 4)) bodies to begin from instead of the bodies' own (an action's drawn pose)."""
    if pose is None and not down(m):
        _start_on_feet(m)
        return
    up = face_up(m)
    name = _clip_for(m, up)
    if name is not None:
        _start_clip(m, name, up, pose)
        return
    _start_keyed(m, up, pose)


def _lying_pose(m: Motion, pose: Any) -> tuple:
    """(P (n, 3) m, Q (n, 4), k0q, k0t): the pose a way up begins from, in the world and in the
    local form: the bodies' own, or ``pose``."""
    from ._pose import body_local
    if pose is None:
        P, Q = _bodies(m)
        k0q, k0t = body_local(m)
        return P, Q, k0q, k0t
    P, Q = pose[0].copy(), pose[1].copy()
    nb = m.ragdoll.bones
    k0q = np.zeros((nb, 4))
    k0t = np.zeros((nb, 3))
    relative_from_world(nb, PARENT, Q, k0q)
    k0t[0] = P[0]
    return P, Q, k0q, k0t


def _start_keyed(m: Motion, up: bool, pose: Any = None) -> None:
    r = m.ragdoll
    P, Q, k0q, k0t = _lying_pose(m, pose)
    pelvis = P[0]
    yaw = _toward(r, P, Q, up)
    top = float(pelvis[1]) + _GROUND_ABOVE
    k1q, k1t, p1, q1 = _placed(m, SIT_UP if up else HANDS_KNEES, yaw, pelvis, None, top)
    feet_at = K.sole_point(r, p1, q1) if up else K.knee_point(r, p1, q1)
    k2q, k2t, p2, q2 = _placed(m, CROUCH, yaw, feet_at, K.sole_point, top)
    # face up the feet stay from sitting on; face down from the crouch on
    _key_way(m, up, 0b110 if up else 0b100, yaw, top, P, Q, (k0q, k0t), (k1q, k1t),
             (k2q, k2t, p2, q2))


def _start_on_feet(m: Motion) -> None:
    """The way up of a figure fallen and come to rest on its feet, not down (bent over a table it
    was knocked onto, or stood jammed between a seat and a table): it straightens over its feet
    where they stand (``STOOD_BENT``, ``STOOD``), into the animation's pose there. Knocked, it was
    fallen however it leaned, and a figure only down is got up, so it stood or leant there for
    good (4 of 60 sitters knocked at a table, session 16). Its feet are planted where they stand
    all three stages: let go in the first to come into the keys' stance, jammed between a log and
    a table 0.1 m before it the box man fell again 7 times in 30 against 3."""
    r = m.ragdoll
    P, Q, k0q, k0t = _lying_pose(m, None)
    fwd = K._qr(Q[0], np.array(human.BONE_FORWARD_LOCAL[0]))
    fwd[1] = 0.0
    yaw = _yaw_of(fwd)
    feet = K.sole_point(r, P, Q)
    # the ground under its feet, looked for from just over them (not the table it leant on)
    top = float(feet[1]) + _OVER_FEET
    k1q, k1t, _, _ = _on_feet(m, STOOD_BENT, yaw, feet, top)
    k2q, k2t, p2, q2 = _on_feet(m, STOOD, yaw, feet, top)
    _key_way(m, False, 0b111, yaw, top, P, Q, (k0q, k0t), (k1q, k1t), (k2q, k2t, p2, q2),
             WAY_ON_FEET)


# m over the ankles the ground under a figure on its feet is looked for from
_OVER_FEET = 0.1


def _on_feet(m: Motion, leans: dict, yaw: float, feet: np.ndarray, top: float) -> tuple:
    """A key from ``leans`` facing ``yaw``, moved so its ankles' middle is over ``feet`` (m) and
    set down on the ground under its points looked for from ``top`` (m, just over the ankles):
    the ground under the chest of a figure bent over a table is not the table's top, and feet
    jammed 42 to 48 mm into the ground are stood on it. Returns (loc_q, loc_t, p, q)."""
    r = m.ragdoll
    lq, lt = K.key_from_leans(r, leans, yaw)
    p, q = K.key_world(r, lq, lt)
    by = feet - K.sole_point(r, p, q)
    p += by
    lift = K.set_down(m.engine, p, q, K.dims_of(r), top)
    p[:, 1] += lift
    by[1] += lift
    return lq, K.move_key(lt, by), p, q


def _key_way(m: Motion, up: bool, soles: int, yaw: float, top: float, P: np.ndarray,
             Q: np.ndarray, k0: tuple, k1: tuple, k2: tuple, way: int | None = None) -> None:
    """Begin a keyed way from bodies ``P``, ``Q`` through keys ``k0``, ``k1`` ((n, 4), (n, 3)
    local) and ``k2`` (local, and its bodies in the world) into the animation's own pose moved so
    its feet are where ``k2``'s are, facing ``yaw`` (rad), the ground looked for from ``top`` m;
    ``soles``: the stages that keep the feet (bit k, stage k); ``way``: F_GU_WAY's (None: the way
    up face up or down, by ``up``)."""
    from . import _modes
    s = service(m.engine)
    f = m.slot
    r = m.ragdoll
    nb = r.bones
    k2q, k2t, p2, q2 = k2
    # the animation's own pose moved so its feet are where the crouch's are, turned to face yaw
    from ._modes import anim_world
    ap, aq = anim_world(m)
    a_fwd = K._qr(aq[0], np.array(human.BONE_FORWARD_LOCAL[0]))
    turn = yaw - _yaw_of(a_fwd)
    turn = math.atan2(math.sin(turn), math.cos(turn))
    c, sn = math.cos(turn), math.sin(turn)
    rot = np.array([[c, 0.0, sn], [0.0, 1.0, 0.0], [-sn, 0.0, c]])
    a_at = K.sole_point(r, ap, aq)
    a_sole = rot @ a_at
    c_sole = K.sole_point(r, p2, q2)
    # the ground the animation's own pose stands on: under its soles where they are (turned
    # about the world's origin, the point could lie over a step or a seat far from it), looked
    # for from just over its ankles: from its pelvis, a sitter's pose stood where it had stood
    # before it sat, into the table before it, took the table's top for its ground, and every
    # way up there ended 0.75 m under the ground, a pop of 5 m/s (session 17)
    g_here = K.ground_under(m.engine, float(a_at[0]), float(a_at[2]), float(a_at[1]) + _OVER_FEET)
    g_there = K.ground_under(m.engine, float(c_sole[0]), float(c_sole[2]), top)
    move = np.array([c_sole[0] - a_sole[0], g_there - g_here, c_sole[2] - a_sole[2]])
    # keep the animation's own pose (a figure without a rig: the way writes over it)
    s.ff[f, F_GU_BASE_P:F_GU_BASE_P + 3] = s.ff[f, F_ANIM_POS:F_ANIM_POS + 3]
    s.ff[f, F_GU_BASE_Q:F_GU_BASE_Q + 4] = s.ff[f, F_ANIM_ROT:F_ANIM_ROT + 4]
    s.pbf[f, :nb, PB_GU_BASE_Q:PB_GU_BASE_Q + 4] = s.pbf[f, :nb, PB_TARGET:PB_TARGET + 4]
    for k, (lq, lt) in enumerate((k0, k1, (k2q, k2t))):
        s.pbf[f, :nb, PB_GU_KEY_Q + 4 * k:PB_GU_KEY_Q + 4 * k + 4] = lq
        s.ff[f, F_GU_KEY_P + 3 * k:F_GU_KEY_P + 3 * k + 3] = lt[0]
    s.ff[f, F_GU_MOVE] = turn
    s.ff[f, F_GU_MOVE + 1:F_GU_MOVE + 4] = move
    _begin(m, up, soles, 0.0, k0[0], k0[1], P, Q)
    if way is not None:
        s.fi[f, F_GU_WAY] = way
    _modes.hand_over(m, GETTING_UP)
    _begun(m)


def _begin(m: Motion, up: bool, soles: int, clip_d: float, k0q: np.ndarray, k0t: np.ndarray,
           P: np.ndarray, Q: np.ndarray) -> None:
    """A way's rows as it begins, before the hand-over to GETTING_UP: the way and its kept
    stages, the clip's length (0: keyed), the mode to go back to, and the follow anchors made
    on the pose it lies in (``k0q``, ``k0t``; its bodies ``P``, ``Q``)."""
    s = service(m.engine)
    f = m.slot
    nb = m.ragdoll.bones
    s.ff[f, F_GU_T] = 0.0
    s.ff[f, F_GU_CLIP_D] = clip_d
    s.fi[f, F_GU_WAY] = WAY_FACE_UP if up else WAY_FACE_DOWN
    s.fi[f, F_GU_SOLES] = soles
    s.fi[f, F_GU_DUE] = 0
    s.fi[f, F_GU_DONE] = 0
    old = int(s.fi[f, F_MODE])
    if old != ACTING:
        # from an action (lain), the mode it began from is kept
        s.fi[f, F_RESUME] = POWERED if old == POWERED else ANIMATED
    s.ff[f, F_ANIM_POS:F_ANIM_POS + 3] = k0t[0]
    s.ff[f, F_ANIM_ROT:F_ANIM_ROT + 4] = k0q[0]
    s.pbf[f, 1:nb, PB_TARGET:PB_TARGET + 4] = k0q[1:]
    s.pbf[f, :nb, PB_GU_P:PB_GU_P + 3] = P
    s.pbf[f, :nb, PB_GU_Q:PB_GU_Q + 4] = Q


def _begun(m: Motion) -> None:
    """After the hand-over to GETTING_UP: its own bodies pass through each other, and the way
    starts from the pose shown (the bodies'): no blend of its own."""
    s = service(m.engine)
    f = m.slot
    K.pass_through(m.ragdoll, True)
    s.fi[f, F_BLEND] = BLEND_NONE
    s.fi[f, F_RIG_BLEND] = BLEND_NONE
    if m.rig is not None:
        s.fi[f, F_RIG_OWNED] = 1


# ------------------------------------------------------------------------------ the clip way
# Beyond the spec (issue 13): a figure whose glTF has get-up clips of its own (named
# GetUpFaceUp / GetUpFaceDown, any case, or given by set_get_up_clips) plays the clip for the
# way it lies instead of the keyed way, warped onto where it lies: the rig's root turned and
# moved so the clip's first frame lies where the figure does, facing the way it will rise, the
# first ``stage`` s blended from the pose it lies in, the last onto the animation's own pose
# moved to where the clip stands (so the hand-over is as a keyed way's: nothing to jump).

AUTO_CLIPS = ("getupfaceup", "getupfacedown")   # the names looked for, any case
# the figures' clips set by set_get_up_clips ((face up, face down), a name or None each); a
# figure not here takes its glTF's clips named as AUTO_CLIPS
_CLIPS_SET: weakref.WeakKeyDictionary = weakref.WeakKeyDictionary()
# the animation kept through a clip way (its pose, the rig's root, the clip playing)
_KEPT: weakref.WeakKeyDictionary = weakref.WeakKeyDictionary()


def _dressing(m: Motion) -> Any:
    from ._pose import _dress
    return _dress().ragdoll_dressing(m.ragdoll)


def _clip_bodies(m: Motion, clip: Any, time: float, root: np.ndarray) -> tuple:
    """((n, 3) m, (n, 4)): where the figure's bodies are in ``clip`` at ``time`` s, on the
    animation's pose (bones it does not move), its rig placed by ``root`` (4, 4)."""
    from ae3d.physics._kernels_dress import bodies_from_world
    d = _dressing(m)
    from ._pose import _dress
    at, aq, as_ = _dress().ragdoll_animation_pose(m.ragdoll)
    clip.sample_into(float(time), at, aq, as_)
    world = d.rig.world_of(at, aq, as_, root)
    nb = m.ragdoll.bones
    p = np.zeros((nb, 3))
    q = np.zeros((nb, 4))
    bodies_from_world(world, d.rig_bones, d.off_p, d.off_q, p, q)
    return p, q


def _frame_down(m: Motion, p: np.ndarray, q: np.ndarray) -> bool:
    """Bodies p, q are on the ground by ``down``'s rule (leaning past 1 rad, or the pelvis
    within 0.45 m of the lowest point), the settings' values."""
    s = service(m.engine)
    up = K._qr(q[0], np.array(human.BONE_UP_LOCAL[0]))
    if math.acos(max(-1.0, min(1.0, float(up[1])))) > s.prm[S_GU_DOWN_LEAN]:
        return True
    low = float(K.point_lows(p, q, K.dims_of(m.ragdoll))[:, 1].min())
    return float(p[0, 1]) - low < s.prm[S_GU_DOWN_DROP]


def check_clip(m: Motion, clip: Any, up: bool, what: str) -> str | None:
    """The name of figure ``m``'s clip ``clip`` (a name, any case; None: the keyed way) checked
    as its way up lying face up (``up``) or face down: a clip of the figure's own glTF that moves
    its rig's hips, starts on the ground lying that way and ends standing. ``what`` names the
    argument. Raises TypeError/ValueError otherwise."""
    if clip is None:
        return None
    if not isinstance(clip, str):
        raise TypeError(f"{what} must be a clip's name (str) or None, not {type(clip).__name__}")
    if m.rig is None:
        raise ValueError(f"{what}: this figure has no rig (a bare ragdoll): a get-up clip is a "
                         "clip of the figure's own glTF (motion.on_figure)")
    d = _dressing(m)
    fig = d.figure
    clips = fig.model.clips if fig is not None else {}
    name = clip if clip in clips else None
    if name is None:
        same = [c for c in clips if c.casefold() == clip.casefold()]
        name = same[0] if len(same) == 1 else None
    if name is None:
        raise ValueError(f"{what}: the figure has no clip {clip!r} (it has {sorted(clips)})")
    c = clips[name]
    hips = int(d.rig_bones[0])
    if hips not in c.bones:
        raise ValueError(f"{what}: clip {name!r} does not move this rig's hips "
                         f"({d.rig.names[hips]!r}): it is no way up for this rig")
    root = d.rig.root.copy()
    p0, q0 = _clip_bodies(m, c, c.start, root)
    p1, q1 = _clip_bodies(m, c, c.duration, root)
    way = "face up" if up else "face down"
    if not _frame_down(m, p0, q0):
        raise ValueError(f"{what}: clip {name!r} does not start on the ground (its first frame "
                         "stands): it is no way up")
    if (K._qr(q0[_CHEST], _CHEST_FWD)[1] >= 0.0) != up:
        raise ValueError(f"{what}: clip {name!r} starts lying "
                         f"{'face down' if up else 'face up'}, not {way}")
    if _frame_down(m, p1, q1):
        raise ValueError(f"{what}: clip {name!r} does not end standing (its last frame is on "
                         "the ground)")
    return name


def _clip_for(m: Motion, up: bool) -> str | None:
    """The clip figure ``m`` gets up by lying face up (``up``) or down: set_get_up_clips's, or
    its glTF's own named as AUTO_CLIPS (one that is no way up for it is passed over)."""
    if m.rig is None:
        return None
    if m in _CLIPS_SET:
        return _CLIPS_SET[m][0 if up else 1]
    fig = _dressing(m).figure
    if fig is None:
        return None
    want = AUTO_CLIPS[0 if up else 1]
    same = [c for c in fig.model.clips if c.casefold() == want]
    if len(same) != 1:
        return None
    try:
        return check_clip(m, same[0], up, "clip")
    except ValueError:
        return None


def _turn_about_y(turn: float, move: Any) -> np.ndarray:
    """(4, 4): a turn of ``turn`` rad about +Y, then a move by ``move`` (3,) m."""
    c, sn = math.cos(turn), math.sin(turn)
    mat = np.eye(4)
    mat[:3, :3] = [[c, 0.0, sn], [0.0, 1.0, 0.0], [-sn, 0.0, c]]
    mat[:3, 3] = move
    return mat


def _start_clip(m: Motion, name: str, up: bool, pose: Any = None) -> None:
    """Begin the clip way: the rig plays clip ``name`` from its start, its root turned and moved
    so the first frame lies where the figure does, facing the way it rises; key 0 the pose it
    lies in, key 3 the animation's own pose (kept) moved and turned to stand where the clip's
    last frame stands."""
    from ae3d import figure as FG

    from . import _modes
    from ._modes import anim_world
    from ._pose import _dress, read_one
    s = service(m.engine)
    f = m.slot
    r = m.ragdoll
    nb = r.bones
    d = _dressing(m)
    rig = d.rig
    fig = d.figure
    clip = fig.model.clips[name]
    P, Q, k0q, k0t = _lying_pose(m, pose)
    pelvis = P[0]
    top = float(pelvis[1]) + _GROUND_ABOVE
    # the animation's own pose now (read from the rig), kept to go back to
    read_one(m)
    at, aq, as_ = _dress().ragdoll_animation_pose(r)
    root0 = rig.root.copy()
    _KEPT[m] = dict(t=at, q=aq, s=as_, root=root0, clip=fig.clip, time=fig.time,
                    speed=fig.speed, loop=fig.loop, playing=fig.playing)
    # the clip warped: its first frame where the figure lies, facing where it rises
    p0, q0 = _clip_bodies(m, clip, clip.start, root0)
    turn = _toward(r, P, Q, up) - _toward(r, p0, q0, up)
    turn = math.atan2(math.sin(turn), math.cos(turn))
    warp = _turn_about_y(turn, np.zeros(3))
    p0w = p0 @ warp[:3, :3].T
    low0 = float(K.point_lows(p0, q0, K.dims_of(r))[:, 1].min())
    ground = K.ground_under(m.engine, float(pelvis[0]), float(pelvis[2]), top)
    warp[:3, 3] = (float(pelvis[0] - p0w[0, 0]), ground - low0, float(pelvis[2] - p0w[0, 2]))
    root = warp @ root0
    # its last frame there: the animation's own pose moved to face the way it does, its soles
    # where the clip's are as the out-blend begins (the ankles' lower ends the clip carries
    # round its ankle joints as it stands, 12.9 mm on the box man: held from there instead)
    pe, qe = _clip_bodies(m, clip, clip.duration, root)
    blend = min(float(s.prm[S_GU_STAGE]), clip.duration / 3.0)
    pc, qc = _clip_bodies(m, clip, max(clip.start, clip.duration - blend), root)
    ap, aqw = anim_world(m)
    fwd = np.array(human.BONE_FORWARD_LOCAL[0])
    turn_b = _yaw_of(K._qr(qe[0], fwd)) - _yaw_of(K._qr(aqw[0], fwd))
    turn_b = math.atan2(math.sin(turn_b), math.cos(turn_b))
    rot_b = _turn_about_y(turn_b, np.zeros(3))[:3, :3]
    a_at = K.sole_point(r, ap, aqw)
    a_sole = rot_b @ a_at
    c_sole = K.sole_point(r, pc, qc)
    # under the animation's soles where they are (as the keyed way's, ``_start_keyed``)
    g_here = K.ground_under(m.engine, float(a_at[0]), float(a_at[2]), float(ap[0, 1]))
    g_there = K.ground_under(m.engine, float(c_sole[0]), float(c_sole[2]), top)
    s.ff[f, F_GU_BASE_P:F_GU_BASE_P + 3] = s.ff[f, F_ANIM_POS:F_ANIM_POS + 3]
    s.ff[f, F_GU_BASE_Q:F_GU_BASE_Q + 4] = s.ff[f, F_ANIM_ROT:F_ANIM_ROT + 4]
    s.pbf[f, :nb, PB_GU_BASE_Q:PB_GU_BASE_Q + 4] = s.pbf[f, :nb, PB_TARGET:PB_TARGET + 4]
    s.pbf[f, :nb, PB_GU_KEY_Q:PB_GU_KEY_Q + 4] = k0q
    s.ff[f, F_GU_KEY_P:F_GU_KEY_P + 3] = k0t[0]
    s.ff[f, F_GU_MOVE] = turn_b
    s.ff[f, F_GU_MOVE + 1:F_GU_MOVE + 4] = (c_sole[0] - a_sole[0], g_there - g_here,
                                            c_sole[2] - a_sole[2])
    _begin(m, up, 0, max(clip.duration, 1e-3), k0q, k0t, P, Q)
    _modes.hand_over(m, GETTING_UP)
    _begun(m)
    # the rig plays the clip from its start, warped (read before each step as the animation)
    rig.root[:] = root
    FG.play(fig, name, 1.0, False)


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
    kept = _KEPT.pop(m, None)
    if kept is not None and m.rig is not None:
        # a clip way: the animation's pose and its clip as they were, the root as it was
        # (moved as the last key was)
        from . import _pose
        d = _dressing(m)
        rig = d.rig
        rig.root[:] = _turn_about_y(turn, move) @ kept["root"]
        for a, b in ((d.anim_t, "t"), (d.anim_q, "q"), (d.anim_s, "s")):
            a[:] = kept[b]
        rig.translation[:] = kept["t"]
        rig.rotation[:] = kept["q"]
        rig.scale[:] = kept["s"]
        d.written_t[:] = np.nan
        d.written_q[:] = np.nan
        rig.update_world()
        fig = d.figure
        fig.clip, fig.time, fig.speed = kept["clip"], kept["time"], kept["speed"]
        fig.loop, fig.playing = kept["loop"], kept["playing"]
        s.fi[f, F_RIG_OWNED] = 0
        _pose.read_one(m)
        return
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
    K.lift_feet(m.ragdoll)
    s.fi[f, F_GU_DONE] = 0
    s.fi[f, F_GU_DUE] = 0
    s.fi[f, F_GU_STILL_N] = 0
    s.ff[f, F_GU_STILL_T] = 0.0
    _restore_animation(m, up)
    s.ff[f, F_GU_CLIP_D] = 0.0


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
    _plant(s)
    # the actions' feet (ACTING, _act.py)
    from . import _act
    _act.after_step(s)


def _plant(s: Any) -> None:
    """The keyed ways' feet planted as a stage that keeps them begins (spec: "planted feet are
    held at 30 Hz", physics.ragdoll_plant), where their bodies stand, until the way ends: the
    way's soles stay where its keys have them, and the bodies the follow anchors carry would
    otherwise be pushed along the ground as the weight comes onto them."""
    n = s.n
    rising = np.nonzero((s.fi[:n, F_MODE] == GETTING_UP) & (s.fi[:n, F_GU_WAY] != WAY_NONE))[0]
    for f in rising:
        m = s.handles[int(f)]
        if m is None or m.ragdoll.plants:
            continue
        if feet_kept(s, int(f)):
            P, Q = _bodies(m)
            K.plant_feet(m.ragdoll, P, Q)


def feet_kept(s: Any, f: int) -> bool:
    """Figure f's way up is in a stage that keeps its feet: a keyed way's stage with its
    ``F_GU_SOLES`` bit, a clip way's out-blend (its last ``stage`` s, or third: the box man's
    clips crouch over their feet there and stand)."""
    t = float(s.ff[f, F_GU_T])
    stage = float(s.prm[S_GU_STAGE])
    d = float(s.ff[f, F_GU_CLIP_D])
    if d > 0.0:
        return t >= d - min(stage, d / 3.0) - 1e-9
    k = min(int(t / stage + 1e-9), STAGES - 1)
    return bool((int(s.fi[f, F_GU_SOLES]) >> k) & 1)


# ------------------------------------------------------------------------------ the façade
def down(body: Motion) -> bool:
    """True while the figure is on the ground: leaning past 1 rad from upright, or its pelvis
    within 0.45 m of its lowest point (a figure crumpled where it stood)."""
    m = check(body)
    s = service(m.engine)
    w = m.engine.physics
    return bool(_down(m.slot, m.ragdoll.bones, s.pbi, s.prm, UP_LOCAL, w.bf))


def get_up(body: Motion) -> bool:
    """Get a figure on the ground, or fallen and come to rest on its feet (bent over a table it
    was knocked onto, stood jammed: fallen and landed, not ``down``), back on its feet, whatever
    mode it is in: on the ground the way up that matches how it lies (face up or face down, read
    from the chest's front), on its feet straightened where it stands; GETTING_UP while it rises;
    POWERED again once up if it was POWERED, else ANIMATED (a figure lying down or lain,
    ``lie_down``: the mode it lay down from). Returns True when a way up began (False: it is
    neither down nor fallen and at rest on its feet, or already on its way up)."""
    m = check(body)
    s = service(m.engine)
    if int(s.fi[m.slot, F_MODE]) == GETTING_UP:
        return False
    if not down(m) and not _fallen_on_feet(m.slot, s.fi):
        return False
    pose = None
    if int(s.fi[m.slot, F_MODE]) == ACTING:
        # lying down or lain (_act.py): the action ends (the animation's own pose back) and it
        # rises from the pose it is drawn in (the way's: where its bodies follow, so the drawing
        # does not jump onto theirs), to the mode it lay down from (F_RESUME, kept)
        from . import _act
        nb = m.ragdoll.bones
        pose = (s.pbf[m.slot, :nb, PB_GU_P:PB_GU_P + 3].copy(),
                s.pbf[m.slot, :nb, PB_GU_Q:PB_GU_Q + 4].copy())
        _act.end_action(m)
    _start(m, pose)
    return True


def set_get_up_clips(body: Motion, face_up: Any, face_down: Any) -> None:
    """Get figure ``body`` up by clips of its own glTF (beyond the spec, issue 13): ``face_up``
    the clip it plays lying face up, ``face_down`` face down (names, any case; None: the keyed
    way for that side). Each is played warped onto where the figure lies: its first frame
    blended from the pose it lies in, its last onto the animation's own pose where the clip
    stands. Without this call a figure takes its glTF's clips named GetUpFaceUp / GetUpFaceDown
    (any case) where it has them. Raises TypeError/ValueError (before anything is set) for a
    figure without a rig, a name its glTF does not have, or a clip that is no way up for it (it
    does not move the rig's hips, start on the ground lying that way, or end standing)."""
    m = check(body)
    up = check_clip(m, face_up, True, "face_up")
    dn = check_clip(m, face_down, False, "face_down")
    _CLIPS_SET[m] = (up, dn)


def get_up_clips(body: Motion) -> tuple[str | None, str | None]:
    """(face up, face down): the clips figure ``body`` gets up by (None: the keyed way)."""
    m = check(body)
    return _clip_for(m, True), _clip_for(m, False)


def getting_up(body: Motion) -> bool:
    """True while the figure is on its way up (mode GETTING_UP)."""
    m = check(body)
    return int(service(m.engine).fi[m.slot, F_MODE]) == GETTING_UP


__all__ = ["GetUpSettings", "get_up_pre", "after_step", "down", "get_up", "getting_up",
           "set_get_up_clips", "get_up_clips", "check_clip", "AUTO_CLIPS", "end_way", "face_up",
           "feet_kept", "SIT_UP", "HANDS_KNEES", "CROUCH"]
