"""Down and hurt, a POWERED figure writhes (spec: ``set_writhing(body, seconds)``, off by default;
``writhing(body)`` says it is).

Once a falling figure has landed (``_landing.py``'s ``LAND_DOWN``) on its back (the pelvis's
front up past ``on_back``), or landed on its side or face and come to lie (``lying``: it may land
still rolling), it writhes for the seconds it was given, then lies still and settles, holding
the shape it ends in (``writhing`` False, ``writhe_over`` True: a get-up counts from then). A
LIMP figure is past it. While it writhes:

- its legs draw up together and let down once every ``leg_period``: the hips bend forward
  ``hip`` rad and the knees ``knee`` at the top (knees bent less than the hips lift the feet);
- its arms fold over its front: the shoulders forward ``shoulder_fwd`` and in ``shoulder_in``,
  the elbows ``elbow``, rocking ``rock`` rad every ``rock_period``;
- face down (the pelvis's front toward the ground as it starts) the knees bend ``face_knee``,
  heels up behind, the hips only ``face_hip``, and the arms stay tucked on ``face_arms`` of
  their muscle (#691); an arm under the chest (``_UNDER``) goes out to the side so the chest
  comes down, and while one is under and the hips are raised (eased across ``_SPINE_LO`` to
  ``_SPINE_HI``), or the trunk lies piked, hips up (``_PIKE``), the spine lies down straight on
  ``back_spine`` (propped so, the knees lifted the hips and it rolled over and over); face
  down or not is read over its first ``_FACE_WINDOW``;
- it fades: full for the first half of its time, then less and less, to the bends' middle
  (``fade_keep``), face down to straight;
- the limbs that writhe have all their muscle; the rest keep ``rest_share`` (the shape it landed
  in let go: held, it holds every joint whatever the bends ask). A limb a blow left weak (under
  half its muscle) or the arm struck last doesn't take part.

Every bend is from the joint's rest place under its parent (``PB_REST_Q``, the ragdoll's rest
targets, taken by ``set_writhing``), about the parent's own axes: the figure's forward and up
carried from the pelvis (``fwd_local``, ``up_local``) through the rest places; the joints' limits
keep it within their cones. Caught on its hands and knees (``LAND_CAUGHT``) it lets go: taken as
landed down (no balance), its shape held on ``rest_share`` (``WRITHE_DOWN``), and it writhes for
its seconds from where it comes to lie down (``lying`` and the landing's down; come to lie
kneeling or sitting up, it slumps first, ``_SLUMP``); caught sitting (its pelvis's front up past
``on_back``) it is on its back and writhes at once. Once it has writhed it stays down until it
is got up (``_landing.py`` takes it as falling again no more).

The arms fold toward where it was last struck (``F_STRUCK_LAST_P``, the point in its bone's
frame, kept by ``_wound.wounded``): each shoulder in more by ``toward`` rad a metre the place
lies across the chest's middle from the arm's side, forward more a metre it lies above the chest
(the knock-down's blow at the chest: the spec's fold). An arm pointing behind the chest's front
plane (``arm_behind``) props the figure up: a backward protective fall lands sitting on its
hands, curled up, and folded with all its muscle the arm was driven through the ground, lifting
the chest and shoving the figure 0.3 m along. On its back such an arm goes out to the side first
(``behind_out``, straight, along the ground), and the spine lies down straight on ``back_spine``
of its muscle while an arm is behind; out of there the arm folds over the front on all its
muscle (on its side, as face down, not: there it pushed off the ground and rolled the figure
onto its back). Face down it keeps ``behind_face``. Off its back, an arm goes from its
folding muscle to its behind share across a band (``_BEHIND_BAND``) about the threshold.
While the pelvis turns faster than ``roll_speed`` about its length (rolling over, as a figure
landing on its back may still be) the limbs don't writhe; face down they do.
The joints that don't writhe drive toward the standing pose (``rest_pose``). Let go from hands
and knees, every joint drives toward its rest place on ``down_share`` as it goes down, so it
lies flat on its front (its caught shape held, it tipped onto its side).

Columns: ``F_WRITHE*``, ``F_STRUCK_LAST``, ``F_STRUCK_LAST_P``, ``PB_REST_Q``. Settings:
``WritheSettings``. Verb: ``writhe_pre`` (after the balance, before the fall's and the wound's
aims, which are idle once landed). Units: s, rad.
"""

from __future__ import annotations

import math
from dataclasses import dataclass

import numpy as np
from numba import njit

from ae3d import human, physics
from ae3d._validate import nonneg
from ae3d.physics._layout import (
    A_L_ANG,
    A_L_UP,
    A_TMAX,
    B_POS,
    B_QUAT,
    B_W,
    DRIVE_AIM,
    DRIVE_POSE,
    J_DEADBAND,
    J_DRIVE,
    J_MOTOR_MAX,
    J_PA,
    J_PB,
    J_QB,
    J_TARGET,
    J_TWIST_HI,
    J_TWIST_LO,
)

from ._kin import qmul, qnorm, qrot
from ._landing import take_shape
from ._layout import (
    F_HOLD,
    F_LAND,
    F_LAND_N,
    F_LYING,
    F_STILL_T,
    F_STRENGTH,
    F_STRUCK_LAST,
    F_STRUCK_LAST_P,
    F_UPRIGHT,
    F_WRITHE,
    F_WRITHE_FACE,
    F_WRITHE_S,
    F_WRITHE_T,
    LAND_CAUGHT,
    LAND_DOWN,
    PB_BODY,
    PB_FULL,
    PB_JOINT,
    PB_LOSS,
    PB_PART_S,
    PB_REST_Q,
    S_HOLD_SHARE,
    S_LAND_STEPS,
    S_LIE_STEPS,
    S_WR_ARM_BEHIND,
    S_WR_BACK_SPINE,
    S_WR_BEHIND_FACE,
    S_WR_BEHIND_OUT,
    S_WR_BEHIND_SHARE,
    S_WR_DOWN_SHARE,
    S_WR_ELBOW,
    S_WR_FACE_ARMS,
    S_WR_FACE_FOLD,
    S_WR_FACE_HIP,
    S_WR_FACE_KNEE,
    S_WR_FADE_KEEP,
    S_WR_FADE_SHARE,
    S_WR_HIP,
    S_WR_KNEE,
    S_WR_LEG_PERIOD,
    S_WR_ON_BACK,
    S_WR_OUT_SHARE,
    S_WR_REST_POSE,
    S_WR_REST_SHARE,
    S_WR_ROCK,
    S_WR_ROCK_PERIOD,
    S_WR_ROLL_SPEED,
    S_WR_SHOULDER_FWD,
    S_WR_SHOULDER_IN,
    S_WR_TOWARD,
    WRITHE_DONE,
    WRITHE_DOWN,
    WRITHE_NONE,
    WRITHE_ON,
)
from ._service import Motion, check, service

_PELVIS = human.BONE_PELVIS
_SPINE1 = human.BONE_SPINE_01
_CHEST = human.BONE_SPINE_03
_ARMS = ((human.BONE_UPPERARM_L, human.BONE_LOWERARM_L),
         (human.BONE_UPPERARM_R, human.BONE_LOWERARM_R))
# cosine: the band across the arm's behind threshold (arm_behind) over which an arm behind
# goes from its folding muscle to behind_share (behind_face face down), half each side; the box
# man's sweep held at 0.2 to 0.4 (w19_500 6.1 to 4.8 cm), not at 0.1 (12.8, a switch nearly)
_BEHIND_BAND = 0.3
# cosine: face down (and the chest's front toward the ground now), an upper arm pointing this
# far under the chest (its way's cosine with the chest's forward) props the chest up on its
# hand; it goes out to the side as an arm behind does on its back (behind_out, straight, along
# the ground, on the arms' face-down share) so the chest comes down. Left tucked under, the box
# man let go from hands and knees (64 ways at 475 N·s: from 90, 95.6 and 264.4 degrees) lay
# propped on its hands with the pelvis 0.27-0.30 m up, the bent knees lifted the hips on the
# calves, and it tipped and rolled over and over, its pelvis 1.1-1.2 m along from 1.5 s on (now
# 11-15 cm, mostly the hips, lifted by the first knee bend, coming down). At 0.3 one rolled 0.94
# m, at 0.7 18 cm; on all its muscle 1.9 m, on rest_share 1.5 m
_UNDER = 0.5
# cosine: face down, the pelvis's up (toward the head) this far up the world's is the trunk lying
# piked, hips up: the spine lies down straight on back_spine (as on its back with an arm behind)
_PIKE = 0.3
# cosine: face down, the pelvis's up (toward the head) this far up the world's is the trunk
# still propped on its knees: the knees' bend goes from all of it at _KNEEL_LO to none at
# _KNEEL_HI. Let go from hands and knees, the box man started writhing still kneeling (the
# pelvis's up 0.7-0.8 up, 23-27 cm high); bent 0.5 at the knee with the shins flat, its legs
# levered the hips up on the knees (the pelvis 31-34 cm up, its up 0.43) rather than the heels,
# and as the bends faded to straight it came down flat (10 cm): 13-20 cm of "drift" from 1.5 s
# on (64 ways at 400 N·s: 11.25, 95.6, 348.75 degrees; now 5.1 or less). Lying flat its up is
# 0.03-0.13 up. From 0.15 to 0.3 the Mixamo man from 84.4 degrees swung its knee 0.29 rad
_KNEEL_LO = 0.2
_KNEEL_HI = 0.35
# cosine: writhing face down, the pelvis's front this far up (from -1, face down) is lying on
# its side: it writhes as a side-lier (the hips drawn up, fading to their middle) from then on
_SIDE = -0.3
# s: face down or not is read from the pelvis's front (below -0.5 up) over the writhe's first
# this long, not from the one step it starts on. The box man from 230.6 and 258.75 degrees at 425
# N·s came to lie with the pelvis's front -0.48 and -0.50 up as it started, writhed as a
# side-lier, and rolled on to lie face down (-0.8 to -0.86) with its hips drawn up and its knees
# bent only 0.19 rad; the face-down knees' swing (spec #691) was missing. Read so, they writhe
# face down (knee swing 0.49 and 0.50, drift 0.3 and 0.4 cm); by then the legs have drawn up an
# eighth of their bend, so a change of mind costs no kick (read again later in the writhe, at
# -0.6 or -0.7, box men and a Mixamo man switching mid-cycle drifted 12-18 cm)
_FACE_WINDOW = 0.2
# cosine: face down with an arm under the chest, the spine lies down straight (back_spine) only
# as the hips are raised: its share goes from rest_share at the pelvis's up (toward the head)
# _SPINE_LO up the world's to back_spine at _SPINE_HI. With the pelvis lying flat and the chest
# propped on an arm stuck under it, straightening the spine can't bring the chest down: it
# levered the pelvis up instead (the box man from 84.4 degrees at 425 N·s: the right arm under
# the chest for 2.3 s, the chest 21-27 cm up, the pelvis lifted from 11 to 19 cm as its knees
# bent, and as it came down at the fade it tipped onto the left arm and slid: 10.7 cm; now 0.2).
# Raised on its knees with an arm under (let go from hands and knees, piked) it still lies down.
# A switch at one cosine is fragile (figures lying near it straightened and not, step by step):
# at 0.05 four box men of the sweeps drifted 10.7-15 cm, at 0.2 a Mixamo man 12.3; eased across
# the band, none over 10 (400 to 500 N·s, both rigs)
_SPINE_LO = 0.05
_SPINE_HI = 0.2
# Let go from hands and knees, it writhes once it lies down (the landing's down: leaning past
# land_lean with the pelvis low, for land_steps) and still. Come to lie not down (kneeling or
# sitting up) it slumps: its arms, neck and knees let go (_SLUMP_SHARE of their muscle; on the
# down drive's 15 % toward the standing pose the arms propped the chest up and the knees held it
# kneeling), face down the spine and hips lie down straight on _FLAT_SHARE, and it writhes once
# down, or still _SLUMP s into the slump. Started kneeling up as it first lay still, the box man
# from 267 degrees at 410 N·s writhed face down, rolled onto its side, writhed so and rolled over
# and over, 1.44 m, and from 98 degrees at 460 writhed propped on its knees, the knees' swing
# 0.17 rad; the Mixamo man from 81 and 278 degrees at 490 drifted 13-14 cm (now 4.6 cm; 0.40
# rad; 6.2 and 4.7 cm). Sitting face up it only lets go: the hips and spine driven straight
# (0.3 to all of their muscle) rocked the Mixamo man back and forth, metres across the ground.
# Waiting alone (no slump), the box man from 98 degrees at 460 rolled 0.71 m. The wait is a
# sensitive choice (half-step sweeps at 410-490 N·s, both rigs, over 10 cm: 11 before; at 0.3 s 7,
# 0.5 s 7, 0.8 s 5, 1.0 s 8), sitting Mixamo men most of all
_SLUMP_SHARE = 0.0
_FLAT_SHARE = 0.3
_SLUMP = 0.8
# 1/s and share: on its side (not face down, the pelvis's front not up past on_back), while its
# front rises (the figure rolling onto its back) faster than _BACK_ROLL_LO, eased in over
# _BACK_ROLL_BAND more, the hips draw up only (1 - _BACK_ROLL_HIP) of their bend. A side-lier
# half on its back (the front 0.3-0.7 up) rolled on over its back a little more at each draw-up
# (the legs swung forward along the ground), slowly, under roll_speed: the Mixamo man from 87
# and 273 degrees at 440 N·s (half-step ways) rolled from its side onto its back from 1.5 s on,
# its pelvis 21.0 cm along, and from 261 at 460 11.8 cm (now 8.1, 8.1, 3.8). Halved at once past
# 0.3 a Mixamo man's legs swung only 0.26 rad (270 degrees at 425 N·s); eased over 0.8 two
# still went 11-12 cm; only in the fade, none changed (the roll starts in the first half). The
# box man from 222 degrees at 490 N·s (half-step), rolling onto its back about 1.5 s in, rolls
# more slowly so and more of it is counted: 7.3 -> 14.1 cm (off the tests' sweeps)
_BACK_ROLL_LO = 0.3
_BACK_ROLL_BAND = 0.4
_BACK_ROLL_HIP = 0.5
_LEGS = ((human.BONE_THIGH_L, human.BONE_CALF_L),
         (human.BONE_THIGH_R, human.BONE_CALF_R))


@dataclass(frozen=True)
class WritheSettings:
    """Writhing's tuned constants (packed into the parameter row by ``_settings.pack``)."""

    leg_period: float = 1.7
    """s: the legs draw up and let down once in this (spec: 1.7 s)."""
    hip: float = 0.6
    """rad: the hips bend forward this at the top (spec: 0.6)."""
    knee: float = 0.2
    """rad: the knees at the top (spec: 0.2; bent less than the hips, the feet lift)."""
    shoulder_fwd: float = 0.7
    """rad: the shoulders forward (spec: 0.7)."""
    shoulder_in: float = 0.3
    """rad: and in across the front (spec: 0.3)."""
    elbow: float = 0.6
    """rad: the elbows (spec: 0.6)."""
    rock: float = 0.12
    """rad: the arms rock forward and back this (spec: 0.12)."""
    rock_period: float = 1.1
    """s: once in this (spec: 1.1 s)."""
    rest_share: float = 0.15
    """share of their muscle the joints that don't writhe keep (spec: 15 %; strong, a limb not
    bent drives toward its pose and pushes the body over)."""
    face_hip: float = 0.1
    """rad: face down, the hips hardly move (spec #691: drawn up, a knee went under the belly
    and rolled the figure over)."""
    face_knee: float = 0.5
    """rad: face down, the knees bend, heels up behind (spec #691; measured swing 0.50 against
    the spec's 0.43: at 1.0 a box man let go from hands and knees drew its knees under it, rose
    to 0.57 m at the pelvis and went 44 cm across the ground)."""
    face_arms: float = 0.4
    """share: face down, the arms stay tucked on this of their muscle (spec #691: 40 %)."""
    # session 6
    arm_behind: float = 0.3
    """cosine: an upper arm pointing this far behind the chest's front plane (its way's cosine
    with the chest's forward under minus this) is propping the figure up: a backward protective fall
    lands sitting on its hands behind it, and folding such an arm over the front drove it
    through the ground, lifting the chest and shoving the figure 0.3 m along."""
    behind_share: float = 0.0
    """share: such an arm's muscle (the trunk comes down on it, then the arm folds): the rest's
    15 %. At 0 (session 6) the arm lay on its joints' limits and friction alone; since a blow
    keeps its whole momentum (physics/_blow.py) the box man knocked down by 450 N·s lands sitting
    up higher on such arms, and the legs let down rocked the pelvis back onto the propped trunk
    (lifted 7 cm: drift 3.89 cm) or, struck on the forearm, slid it 8 cm toward its head (9.31
    cm); on 15 % the arms lower the trunk and the pelvis stays (0.99 cm both). Session 9: 0
    again, with the bends fading to their middle (``fade_keep``): on its side the arm behind on
    15 % propped the trunk leaning back, gave way 1.6 s in and the box man rolled onto its back,
    12-13 cm along (from 112.5 and 247.5 degrees at 500 N·s); on 0 it is down sooner, 6.2 and
    6.4 cm (the four: 2.40 cm struck on the forearm, 0.14 face down)."""
    toward: float = 1.5
    """rad/m: the fold turned toward where it was last struck: the shoulders in more (or less)
    by this for each metre the place lies across the chest's middle, forward more (less) for
    each metre above (below) the chest."""
    down_share: float = 0.15
    """share: let go from hands and knees, every joint drives toward its rest place (straight,
    as the figure stands) on this of its muscle, so it goes down flat on its front; 0 holds the
    shape it was caught in."""
    rest_pose: float = 1.0
    """1: the joints that don't writhe drive toward their rest place, the standing pose (spec:
    "a limb not aimed drives toward the standing pose"; held, the landing's tucked spine kept a
    backward faller curled up on its arms); 0: toward the shape it landed in."""
    face_fold: float = 0.0
    """share of the fold's turns (forward, in) the arms take face down: none, they stay tucked
    where they lie (folded forward face down, they pressed the chest up: a box man drifted
    13 cm at 0.3 of the fold with the arms on 15 %)."""
    # session 7
    behind_face: float = 0.0
    """share: face down, an arm behind the chest's front plane (lying along its side or back)
    keeps this, not ``behind_share``: on the back-landers' 15 % the Mixamo man face down from
    258.75 degrees rolled over and over, 2.5 m across the ground (at 0 the sweep's face-down
    writhers lie as they did)."""

    # session 8
    behind_out: float = 1.2
    """rad: on its back (the pelvis's front up, ``on_back``: on its side the arm
    pushed off the ground and rolled the figure over, 23 cm along), an arm behind the chest's
    front plane is turned out to the side this
    from its rest place (elbow straight) on ``out_share`` of its muscle, along the ground, so the
    trunk it props comes down; out of there it folds over the front on all its muscle (the box
    man knocked down by 450 N·s: the left upper arm's cosine toward the front 0.72, spec 0.70).
    0: such an arm stays on ``behind_share`` (session 7: it lay behind, -0.70)."""
    out_share: float = 1.0
    """share: of its muscle an arm behind goes out with (``behind_out``)."""
    back_spine: float = 0.5
    """share: on its back while an arm is behind, the spine drives toward its rest place (lying
    straight) on this of its muscle (the rest's 15 % left the box man sitting up curled, its
    chest 0.25 m above the pelvis, leaning back on its hands)."""
    roll_speed: float = 2.0
    """rad/s: while the pelvis turns faster than this about its length (rolling over), the limbs
    don't writhe (on ``rest_share``, as the rest); 0: never. Not face down (writhing started so).
    Session 12: the Mixamo man landing on its back from 258.75 degrees at 500 N·s still rolls at
    6.3 rad/s as it starts writhing; drawn up at once, its legs and arms carried it onto its side
    (the pelvis's front 0.43 up), and as they let down and faded it rolled back over its back,
    16.8 cm (its mirror, 101.25 degrees, 12.9). Let go for the 0.2 s the roll lasts, it comes to
    lie on its back: 3.0 and 3.3 cm, the Mixamo sweep at most 8.9 (w8_500, unchanged), the box
    man's unchanged but w19_500 4.2 -> 6.8 and w13_500 3.0 -> 3.7; 1.5 to 2.5 the same, 3 left
    w23_500 at 14.0. Let go face down too (session 7 tried 3 rad/s so), box men face down from
    90 and 270 degrees at 475 N·s (off the test's sweep) rolled over and over, 103 and 48 cm."""

    on_back: float = 0.8
    """cosine: the pelvis's front this far up (its cosine with the world's up) is lying on its
    back, where an arm behind goes out and the spine lies down (``behind_out``): at 0.5 the
    box man sweep's three drifters at 500 N·s went 24.8, 24.2 and 14.8 cm, at 0.8 15.7, 14.8 and
    14.4 (the four's fold the same)."""

    # session 9
    fade_share: float = 1.0
    """share: as the bends fade (the second half of its time) the writhing limbs' muscle fades
    with them, from all of it to this (1: all of it to the end, the default: at 0.15 and 0.4 the
    side-liers still rolled onto their backs, 11-15 cm; the Mixamo man from 90 degrees 18.1 and
    8.7 cm)."""

    fade_keep: float = 1.0
    """share: as it fades the bends go to this share of their middle (the legs half drawn up,
    the arms folded without the rock), not to straight (0, session 8): straightened, a figure
    writhing on its side became a plank and rolled onto its back as it faded, its pelvis 10-25 cm
    along (box man 157.5 degrees at 500 N·s 14.8 cm, now 0.9; the Mixamo man from 90 degrees
    23.4, now 7.7). It ends curled up, and holds that. Face down not (session 10): there the
    knees and elbows kept half bent pushed the Mixamo man 10.6-12.4 cm along; faded to straight
    at most 4.9."""

    def pack(self, row: np.ndarray) -> None:
        row[S_WR_LEG_PERIOD] = self.leg_period
        row[S_WR_HIP] = self.hip
        row[S_WR_KNEE] = self.knee
        row[S_WR_SHOULDER_FWD] = self.shoulder_fwd
        row[S_WR_SHOULDER_IN] = self.shoulder_in
        row[S_WR_ELBOW] = self.elbow
        row[S_WR_ROCK] = self.rock
        row[S_WR_ROCK_PERIOD] = self.rock_period
        row[S_WR_REST_SHARE] = self.rest_share
        row[S_WR_FACE_HIP] = self.face_hip
        row[S_WR_FACE_KNEE] = self.face_knee
        row[S_WR_FACE_ARMS] = self.face_arms
        row[S_WR_ARM_BEHIND] = self.arm_behind
        row[S_WR_BEHIND_SHARE] = self.behind_share
        row[S_WR_TOWARD] = self.toward
        row[S_WR_DOWN_SHARE] = self.down_share
        row[S_WR_REST_POSE] = self.rest_pose
        row[S_WR_FACE_FOLD] = self.face_fold
        row[S_WR_BEHIND_FACE] = self.behind_face
        row[S_WR_BEHIND_OUT] = self.behind_out
        row[S_WR_OUT_SHARE] = self.out_share
        row[S_WR_BACK_SPINE] = self.back_spine
        row[S_WR_ROLL_SPEED] = self.roll_speed
        row[S_WR_ON_BACK] = self.on_back
        row[S_WR_FADE_SHARE] = self.fade_share
        row[S_WR_FADE_KEEP] = self.fade_keep


# ------------------------------------------------------------------------------ the verbs
@njit(cache=True, _nrt=False)
def _unit(x, y, z):
    n = math.sqrt(x * x + y * y + z * z)
    if n < 1e-12:
        return 0.0, 0.0, 0.0
    return x / n, y / n, z / n


@njit(cache=True, _nrt=False)
def _cross(ax, ay, az, bx, by, bz):
    return ay * bz - az * by, az * bx - ax * bz, ax * by - ay * bx


@njit(cache=True, _nrt=False)
def _axis_q(kx, ky, kz, a):
    s = math.sin(0.5 * a)
    return kx * s, ky * s, kz * s, math.cos(0.5 * a)


@njit(cache=True, _nrt=False)
def _drive(f, b, pbf, pbi, jf, ji, x, y, z, w, budget):
    """Joint of bone b driven toward (x, y, z, w) (body-relative) on ``budget`` N·m."""
    j = pbi[f, b, PB_JOINT]
    x, y, z, w = qnorm(x, y, z, w)
    jf[j, J_TARGET] = x
    jf[j, J_TARGET + 1] = y
    jf[j, J_TARGET + 2] = z
    jf[j, J_TARGET + 3] = w
    jf[j, J_MOTOR_MAX] = budget
    jf[j, J_DEADBAND] = 0.0
    if ji[j, J_DRIVE] == DRIVE_AIM:
        ji[j, J_DRIVE] = DRIVE_POSE


@njit(cache=True, _nrt=False)
def _rest(pbf, f, b):
    return pbf[f, b, PB_REST_Q], pbf[f, b, PB_REST_Q + 1], pbf[f, b, PB_REST_Q + 2], \
        pbf[f, b, PB_REST_Q + 3]


@njit(cache=True, _nrt=False)
def _turned(pbf, f, b, kx, ky, kz, a):
    """The rest place of bone b turned ``a`` rad about (kx, ky, kz) of its parent's frame."""
    rx, ry, rz, rw = _rest(pbf, f, b)
    qx, qy, qz, qw = _axis_q(kx, ky, kz, a)
    return qmul(qx, qy, qz, qw, rx, ry, rz, rw)


@njit(cache=True, _nrt=False)
def _hinged(pbf, f, b, jf, j, g):
    """The rest place of hinge bone b turned ``g`` rad toward its bend."""
    if jf[j, J_TWIST_HI] < -jf[j, J_TWIST_LO]:
        g = -g
    fx, fy, fz, fw = jf[j, J_QB], jf[j, J_QB + 1], jf[j, J_QB + 2], jf[j, J_QB + 3]
    s = math.sin(0.5 * g)
    rx, ry, rz, rw = qmul(fx, fy, fz, fw, s, 0.0, 0.0, math.cos(0.5 * g))
    rx, ry, rz, rw = qmul(rx, ry, rz, rw, -fx, -fy, -fz, fw)
    tx, ty, tz, tw = _rest(pbf, f, b)
    return qmul(tx, ty, tz, tw, rx, ry, rz, rw)


@njit(cache=True, _nrt=False)
def _muscle(f, b, ff, pbf):
    # the part's lasting share (_parts.py) too: writhing never restores an injury
    return (pbf[f, b, PB_FULL] * ff[f, F_STRENGTH] * (1.0 - pbf[f, b, PB_LOSS])
            * pbf[f, b, PB_PART_S])


@njit(cache=True, _nrt=False)
def writhe_pre(f, dt, nb, powered, ff, fi, pbf, pbi, prm, up_local, fwd_local, bf, jf, ji, af):
    """Before the physics step (after the muscles and the balance), figure f's writhing: started
    once it has landed down, the bends driven on the writhing limbs' full muscle and the rest on
    ``rest_share``; over when its time is up (the shape it ends in held); caught on its hands and
    knees, let go. Returns True when the joints' drive changed (the figure is woken)."""
    st = fi[f, F_WRITHE]
    if not powered:
        # "a LIMP figure is past it": a writher let go ends its writhing there (writhing()
        # False, writhe_over() True) so a get-up counts from it; kept on, set_get_up never came
        if st == WRITHE_ON or st == WRITHE_DOWN:
            fi[f, F_WRITHE] = WRITHE_DONE
        return False
    if ff[f, F_WRITHE_S] <= 0.0:
        return False
    land = fi[f, F_LAND]
    rest_share = prm[S_WR_REST_SHARE]
    if st == WRITHE_DONE:
        return False
    if st == WRITHE_NONE and land == LAND_CAUGHT:
        # caught on hands and knees: it lets go (taken as down: no balance; its shape held on
        # rest_share) and writhes once it lies. Left to land again, a kneeling box man slumped
        # to 1.1 rad of lean, under the landing's 1.2, and was caught again and again; writhing
        # at once, its knees pushed it 0.6 m along the ground as it went down
        fi[f, F_LAND] = LAND_DOWN
        ff[f, F_HOLD] = rest_share
        # it lies once still again, let go (the stillness that caught it doesn't count)
        fi[f, F_LYING] = 0
        ff[f, F_STILL_T] = 0.0
        # the upright anchor let go entirely: its cap and its accumulated impulses (warm-started
        # every sub-step whatever the cap, as _balance.py and physics.anchor_set_cap clear them).
        # Capped at 0 alone, its last impulse went on turning the lower back for as long as the
        # figure lay let go: a Mixamo man from 250 degrees at 430 N·s never came to lie and
        # travelled 8 m at 1 to 3.5 m/s over 6 s (aephysics#58's fault, here again)
        ku = fi[f, F_UPRIGHT]
        af[ku, A_TMAX] = 0.0
        for c in range(3):
            af[ku, A_L_ANG + c] = 0.0
        af[ku, A_L_UP] = 0.0
        af[ku, A_L_UP + 1] = 0.0
        # caught sitting, its pelvis's front up past on_back, it is on its back: it writhes at
        # once (below), its arms behind going out. Let go to go down first, the box man from
        # 118 degrees at 500 N·s, sitting back on its hands, sat up in 0.13 s: taken as caught
        # upright, its balance stood it up; kept down (_balance.py), it rose bent over and fell
        pel = pbi[f, _PELVIS, PB_BODY]
        if qrot(bf[pel, B_QUAT], bf[pel, B_QUAT + 1], bf[pel, B_QUAT + 2], bf[pel, B_QUAT + 3],
                fwd_local[0], fwd_local[1], fwd_local[2])[1] <= prm[S_WR_ON_BACK]:
            fi[f, F_WRITHE] = WRITHE_DOWN
            return True
        land = LAND_DOWN
    if st == WRITHE_DOWN:
        if land != LAND_DOWN:
            fi[f, F_WRITHE] = WRITHE_NONE
            return False
        if fi[f, F_LYING] == 0:
            down = prm[S_WR_DOWN_SHARE]
            if down <= 0.0:
                return False
            # going down: every joint toward its rest place, straight, so the kneeling figure
            # lies down flat on its front (held, its shape tipped it onto its side)
            for b in range(1, nb):
                x, y, z, w = _rest(pbf, f, b)
                _drive(f, b, pbf, pbi, jf, ji, x, y, z, w, _muscle(f, b, ff, pbf) * down)
            return True
        # come to lie, it writhes once it lies down (F_LAND_N, the landing's) and still
        # (lie_steps); still but not down, it slumps (F_WRITHE_T counts it) and writhes once
        # down, or still _SLUMP s into the slump (_SLUMP_SHARE above)
        still = ff[f, F_STILL_T] >= prm[S_LIE_STEPS] * dt - 1e-9
        slump = ff[f, F_WRITHE_T]
        if not (still and (fi[f, F_LAND_N] >= prm[S_LAND_STEPS] or slump >= _SLUMP)):
            slumps = slump > 0.0 or still
            flat = 0.0
            if slumps:
                ff[f, F_WRITHE_T] = slump + dt
                pel = pbi[f, _PELVIS, PB_BODY]
                if qrot(bf[pel, B_QUAT], bf[pel, B_QUAT + 1], bf[pel, B_QUAT + 2],
                        bf[pel, B_QUAT + 3], fwd_local[0], fwd_local[1],
                        fwd_local[2])[1] < -0.5:
                    flat = _FLAT_SHARE
            for b in range(1, nb):
                share = prm[S_WR_DOWN_SHARE]
                if slumps:
                    share = flat if (b == _SPINE1 or b == _CHEST or b == human.BONE_THIGH_L
                                     or b == human.BONE_THIGH_R) else _SLUMP_SHARE
                x, y, z, w = _rest(pbf, f, b)
                _drive(f, b, pbf, pbi, jf, ji, x, y, z, w, _muscle(f, b, ff, pbf) * share)
            return True
        st = WRITHE_NONE
    if st == WRITHE_NONE:
        # it starts once it lies (landed and still), not as it lands: a sideways faller whose
        # far arm came down in front lands still rolling and comes to lie a second later, on
        # its back or its face; started as it landed, its cycle ran while it rolled and its
        # face-down or not, read as it landed, was the wrong one (the box man from 101.25
        # degrees at 450 N·s landed face down, rolled onto its back and drew its knees 0.19
        # rad; the pelvis went 11 cm in the second half; from 213.75 at 500 N·s, on its back
        # rolling onto its face, 11 cm in the second half). Landed on its back (the pelvis's
        # front up past on_back) it lies where it landed and starts at once (waiting for it to
        # lie, the four's writher on its back drifted 2.95 cm against 1.55)
        if land != LAND_DOWN:
            return False
        pel = pbi[f, _PELVIS, PB_BODY]
        fx, fy, fz = qrot(bf[pel, B_QUAT], bf[pel, B_QUAT + 1], bf[pel, B_QUAT + 2],
                          bf[pel, B_QUAT + 3], fwd_local[0], fwd_local[1], fwd_local[2])
        if fi[f, F_LYING] == 0 and fy <= prm[S_WR_ON_BACK]:
            return False
        st = WRITHE_ON
        fi[f, F_WRITHE] = WRITHE_ON
        ff[f, F_WRITHE_T] = 0.0
        fi[f, F_WRITHE_FACE] = 1 if fy < -0.5 else 0
    t = ff[f, F_WRITHE_T]
    total = ff[f, F_WRITHE_S]
    if t >= total or land != LAND_DOWN:
        # over: it lies still and holds the shape it ends in
        fi[f, F_WRITHE] = WRITHE_DONE
        take_shape(f, nb, pbf, pbi, bf, ji)
        ff[f, F_HOLD] = prm[S_HOLD_SHARE]
        return True
    ff[f, F_WRITHE_T] = t + dt
    fade = 1.0 if t < 0.5 * total else max(0.0, (total - t) / (0.5 * total))
    if t < _FACE_WINDOW:
        pq = pbi[f, _PELVIS, PB_BODY]
        fi[f, F_WRITHE_FACE] = 1 if qrot(bf[pq, B_QUAT], bf[pq, B_QUAT + 1], bf[pq, B_QUAT + 2],
                                         bf[pq, B_QUAT + 3], fwd_local[0], fwd_local[1],
                                         fwd_local[2])[1] < -0.5 else 0
    face = fi[f, F_WRITHE_FACE] != 0
    if face:
        # rolled onto its side (the pelvis's front up past _SIDE) it writhes as a side-lier from
        # then on: the box man landed face down from 253.1 degrees at 400 N·s, rolled onto its
        # side as its knees bent (heels up) and lay there, its upper arm behind and let go, and
        # as the knees faded to straight it rolled back onto its face, its pelvis 12.2 cm along
        # from 1.5 s on (5.4 so)
        pq = pbi[f, _PELVIS, PB_BODY]
        if qrot(bf[pq, B_QUAT], bf[pq, B_QUAT + 1], bf[pq, B_QUAT + 2], bf[pq, B_QUAT + 3],
                fwd_local[0], fwd_local[1], fwd_local[2])[1] > _SIDE:
            fi[f, F_WRITHE_FACE] = 0
            face = False
    # the bends fade to their middle (curled up: a side-lier straightened rolled onto its back);
    # face down to straight, as before session 9: kept half bent, the knees and the elbows under
    # the chest pushed the Mixamo man 10-12 cm along the ground as it faded
    keep = 0.0 if face else prm[S_WR_FADE_KEEP] * (1.0 - fade)
    legs = 0.5 * (1.0 - math.cos(2.0 * math.pi * t / prm[S_WR_LEG_PERIOD])) * fade + 0.5 * keep
    folded = fade + keep
    # the writhing limbs' muscle fades with the bends (to fade_share of it)
    gm = prm[S_WR_FADE_SHARE] + (1.0 - prm[S_WR_FADE_SHARE]) * fade
    rock = prm[S_WR_ROCK] * math.sin(2.0 * math.pi * t / prm[S_WR_ROCK_PERIOD])
    # on its back now (the pelvis's front up): an arm behind goes out and the spine lies down
    # only so; on its side they pushed off the ground and rolled it onto its back, 0.2 m along
    pel = pbi[f, _PELVIS, PB_BODY]
    fpx, up_y, fpz = qrot(bf[pel, B_QUAT], bf[pel, B_QUAT + 1], bf[pel, B_QUAT + 2],
                          bf[pel, B_QUAT + 3], fwd_local[0], fwd_local[1], fwd_local[2])
    on_back = up_y > prm[S_WR_ON_BACK]
    # on its side and rolling onto its back (the pelvis's front rising, 1/s): the hips draw up
    # less (_BACK_ROLL_*)
    rising = 0.0
    if not face and not on_back:
        rise = bf[pel, B_W + 2] * fpx - bf[pel, B_W] * fpz
        rising = min(1.0, max(0.0, (rise - _BACK_ROLL_LO) / _BACK_ROLL_BAND))
    # every joint first on rest_share, toward the standing pose (or the shape held, the
    # landing's); the limbs that writhe are driven below
    to_rest = prm[S_WR_REST_POSE] >= 0.5
    for b in range(1, nb):
        if to_rest:
            x, y, z, w = _rest(pbf, f, b)
            _drive(f, b, pbf, pbi, jf, ji, x, y, z, w, _muscle(f, b, ff, pbf) * rest_share)
        else:
            jf[pbi[f, b, PB_JOINT], J_MOTOR_MAX] = _muscle(f, b, ff, pbf) * rest_share
    # the pelvis's axes (its frame): down, forward, and the hips' turn from down to forward
    ux, uy, uz = up_local[0], up_local[1], up_local[2]
    # rolling over (the pelvis turning fast about its length): the limbs stay on rest_share
    # until it slows, so the bends don't keep it rolling (landed on its back still rolling,
    # drawn up at once they carried it onto its side, and it rolled back as they faded); face
    # down not: there, let go while it rolled, a box man rolled over and over
    roll = prm[S_WR_ROLL_SPEED]
    if roll > 0.0 and not face:
        lx, ly, lz = qrot(bf[pel, B_QUAT], bf[pel, B_QUAT + 1], bf[pel, B_QUAT + 2],
                          bf[pel, B_QUAT + 3], ux, uy, uz)
        if abs(bf[pel, B_W] * lx + bf[pel, B_W + 1] * ly + bf[pel, B_W + 2] * lz) > roll:
            return True
    vx, vy, vz = fwd_local[0], fwd_local[1], fwd_local[2]
    kx, ky, kz = _unit(*_cross(-ux, -uy, -uz, vx, vy, vz))
    hip = (prm[S_WR_FACE_HIP] if face else prm[S_WR_HIP]) * legs
    knee = (prm[S_WR_FACE_KNEE] if face else prm[S_WR_KNEE]) * legs
    if face:
        # face down, the knees bend only as the trunk lies (not propped up on them)
        kneel = qrot(bf[pel, B_QUAT], bf[pel, B_QUAT + 1], bf[pel, B_QUAT + 2],
                     bf[pel, B_QUAT + 3], ux, uy, uz)[1]
        knee *= min(1.0, max(0.0, (_KNEEL_HI - kneel) / (_KNEEL_HI - _KNEEL_LO)))
    for leg in range(2):
        th = _LEGS[leg][0]
        ca = _LEGS[leg][1]
        if ca >= nb or _weak(f, th, ca, ff, pbf, fi):
            continue
        x, y, z, w = _turned(pbf, f, th, kx, ky, kz, hip * (1.0 - _BACK_ROLL_HIP * rising))
        _drive(f, th, pbf, pbi, jf, ji, x, y, z, w, _muscle(f, th, ff, pbf) * gm)
        x, y, z, w = _hinged(pbf, f, ca, jf, pbi[f, ca, PB_JOINT], knee)
        _drive(f, ca, pbf, pbi, jf, ji, x, y, z, w, _muscle(f, ca, ff, pbf) * gm)
    # the chest's axes: the pelvis's carried through the spine's rest places
    r1x, r1y, r1z, r1w = _rest(pbf, f, _SPINE1)
    r2x, r2y, r2z, r2w = _rest(pbf, f, _CHEST)
    cx, cy, cz, cw = qmul(r1x, r1y, r1z, r1w, r2x, r2y, r2z, r2w)
    cux, cuy, cuz = qrot(-cx, -cy, -cz, cw, ux, uy, uz)
    cvx, cvy, cvz = qrot(-cx, -cy, -cz, cw, vx, vy, vz)
    arms_share = prm[S_WR_FACE_ARMS] if face else 1.0
    # the chest's pose in the world, for the arms' ways and the place struck last
    ch = pbi[f, _CHEST, PB_BODY]
    hx, hy, hz, hw = bf[ch, B_QUAT], bf[ch, B_QUAT + 1], bf[ch, B_QUAT + 2], bf[ch, B_QUAT + 3]
    # the place struck last, in the chest's frame: its height above the chest along the
    # spine (cu) and where it lies across (each arm's own out below); none: the chest's middle
    px = py = pz = 0.0
    sb = fi[f, F_STRUCK_LAST]
    if sb >= 0 and sb < nb:
        sbd = pbi[f, sb, PB_BODY]
        wx, wy, wz = qrot(bf[sbd, B_QUAT], bf[sbd, B_QUAT + 1], bf[sbd, B_QUAT + 2],
                          bf[sbd, B_QUAT + 3], ff[f, F_STRUCK_LAST_P],
                          ff[f, F_STRUCK_LAST_P + 1], ff[f, F_STRUCK_LAST_P + 2])
        px, py, pz = qrot(-hx, -hy, -hz, hw, bf[sbd, B_POS] + wx - bf[ch, B_POS],
                          bf[sbd, B_POS + 1] + wy - bf[ch, B_POS + 1],
                          bf[sbd, B_POS + 2] + wz - bf[ch, B_POS + 2])
    toward = prm[S_WR_TOWARD]
    up_by = max(-0.5, min(0.5, toward * (px * cux + py * cuy + pz * cuz)))
    behind = 0
    unders = 0
    # face down now (the chest's front toward the ground): an arm under it goes out (_UNDER)
    down_now = qrot(hx, hy, hz, hw, cvx, cvy, cvz)[1] < -0.5
    for arm in range(2):
        ub = _ARMS[arm][0]
        lb = _ARMS[arm][1]
        if lb >= nb or _weak(f, ub, lb, ff, pbf, fi):
            continue
        ju = pbi[f, ub, PB_JOINT]
        # the arm's way out from the chest (the shoulder's point, across up and forward)
        ox, oy, oz = jf[ju, J_PA], jf[ju, J_PA + 1], jf[ju, J_PA + 2]
        d = ox * cux + oy * cuy + oz * cuz
        ox, oy, oz = ox - d * cux, oy - d * cuy, oz - d * cuz
        d = ox * cvx + oy * cvy + oz * cvz
        ox, oy, oz = _unit(ox - d * cvx, oy - d * cvy, oz - d * cvz)
        # forward: from down toward the front; in: from down toward the middle
        fkx, fky, fkz = _unit(*_cross(-cux, -cuy, -cuz, cvx, cvy, cvz))
        ikx, iky, ikz = _unit(*_cross(-cux, -cuy, -cuz, -ox, -oy, -oz))
        # toward the place struck last: in by how far across it lies from this arm's side,
        # forward by how high (a place on the arm's own side or low down: less)
        across = max(-0.5, min(0.5, -toward * (px * ox + py * oy + pz * oz)))
        fwd_a = max(0.0, prm[S_WR_SHOULDER_FWD] + up_by)
        in_a = max(0.0, prm[S_WR_SHOULDER_IN] + across)
        fold = prm[S_WR_FACE_FOLD] if face else 1.0
        ax, ay, az, aw = _axis_q(fkx, fky, fkz, ((fwd_a + rock) * fade + fwd_a * keep) * fold)
        bx, by, bz, bw = _axis_q(ikx, iky, ikz, in_a * folded * fold)
        qx, qy, qz, qw = qmul(bx, by, bz, bw, ax, ay, az, aw)
        rx, ry, rz, rw = _rest(pbf, f, ub)
        x, y, z, w = qmul(qx, qy, qz, qw, rx, ry, rz, rw)
        # an arm pointing behind the chest's front plane props the figure up (a backward
        # protective fall lands sitting on its hands): folded with all its muscle it was driven
        # through the ground, lifting the chest and shoving the figure along; on its back it
        # goes out to the side first, the trunk comes down, and then it folds
        share = arms_share * gm
        su = pbi[f, ub, PB_BODY]
        dx, dy, dz = qrot(bf[su, B_QUAT], bf[su, B_QUAT + 1], bf[su, B_QUAT + 2],
                          bf[su, B_QUAT + 3], -jf[ju, J_PB], -jf[ju, J_PB + 1], -jf[ju, J_PB + 2])
        dx, dy, dz = _unit(*qrot(-hx, -hy, -hz, hw, dx, dy, dz))
        elbow = prm[S_WR_ELBOW] * folded
        c = dx * cvx + dy * cvy + dz * cvz
        if c < -prm[S_WR_ARM_BEHIND]:
            behind += 1
        under = face and c > _UNDER and down_now
        if under:
            unders += 1
        if ((c < -prm[S_WR_ARM_BEHIND] and on_back and not face) or under) \
                and prm[S_WR_BEHIND_OUT] > 0.0:
            # on its back: out to the side first, straight, along the ground (from down
            # toward the arm's out way), so the trunk it props comes down; then it folds
            okx, oky, okz = _unit(*_cross(-cux, -cuy, -cuz, ox, oy, oz))
            qx, qy, qz, qw = _axis_q(okx, oky, okz, prm[S_WR_BEHIND_OUT])
            x, y, z, w = qmul(qx, qy, qz, qw, rx, ry, rz, rw)
            elbow = 0.0
            share = min(share, prm[S_WR_OUT_SHARE])
        else:
            # behind (face down, or on its side) it keeps behind_face or behind_share, reached
            # across a band of _BEHIND_BAND about the threshold: switched there at once, the box
            # man from 213.75 degrees at 500 N·s lay on its side with its upper arm near the
            # threshold, its muscle none or all of it by a hair, and rolled onto its back as it
            # faded, its pelvis 16.5 cm along from 1.5 s on (now 4.15; but it rolls onto its face
            # in its first 1.3 s instead, its pelvis 36 cm along over the whole writhe, 26 before)
            past = min(1.0, max(0.0, (-c - prm[S_WR_ARM_BEHIND]) / _BEHIND_BAND + 0.5))
            lim = prm[S_WR_BEHIND_FACE] if face else prm[S_WR_BEHIND_SHARE]
            share += (min(share, lim) - share) * past
        _drive(f, ub, pbf, pbi, jf, ji, x, y, z, w, _muscle(f, ub, ff, pbf) * share)
        x, y, z, w = _hinged(pbf, f, lb, jf, pbi[f, lb, PB_JOINT], elbow)
        _drive(f, lb, pbf, pbi, jf, ji, x, y, z, w, _muscle(f, lb, ff, pbf) * share)
    # on its back with an arm behind, the spine lies down straight (the landing curled it up
    # sitting on its hands; on the rest's share it stayed so); face down so too while an arm is
    # under the chest or the pelvis lies tilted head up past _PIKE (let go from hands and knees,
    # the box man lay piked, its hips up, and the first knee bend lifted them to 0.30 m on the
    # calves: with the arm out alone, 11.8-14.6 cm as they came down; now 8.5 the most). Face
    # down always, the four's face-down writher drifted 2.51 cm (now 0.25) and the Mixamo man
    # from 90 degrees at 475 N·s, starting half on its side, rolled over and over, 1.3 m
    puy = qrot(bf[pel, B_QUAT], bf[pel, B_QUAT + 1], bf[pel, B_QUAT + 2], bf[pel, B_QUAT + 3],
               ux, uy, uz)[1]
    spine = prm[S_WR_BACK_SPINE]
    if spine > rest_share:
        if (behind > 0 and on_back and not face) or (face and down_now and puy > _PIKE):
            share = spine
        elif unders > 0:
            # an arm under: as the hips are raised (_SPINE_LO, _SPINE_HI)
            share = rest_share + (spine - rest_share) * min(1.0, max(
                0.0, (puy - _SPINE_LO) / (_SPINE_HI - _SPINE_LO)))
        else:
            share = 0.0
        if share > 0.0:
            for b in (_SPINE1, _CHEST):
                x, y, z, w = _rest(pbf, f, b)
                _drive(f, b, pbf, pbi, jf, ji, x, y, z, w, _muscle(f, b, ff, pbf) * share)
    return True


@njit(cache=True, _nrt=False)
def _weak(f, a, b, ff, pbf, fi):
    """A limb (bones a, b) a blow left weak (either under half its muscle), or the arm struck
    last: it doesn't take part."""
    s = ff[f, F_STRENGTH]
    sa = s * (1.0 - pbf[f, a, PB_LOSS]) * pbf[f, a, PB_PART_S]
    sb = s * (1.0 - pbf[f, b, PB_LOSS]) * pbf[f, b, PB_PART_S]
    if sa < 0.5 or sb < 0.5:
        return True
    last = fi[f, F_STRUCK_LAST]
    return last == a or last == b


# ------------------------------------------------------------------------------ the façade
def set_writhing(body: Motion, seconds: float) -> None:
    """Down and hurt, writhe for ``seconds`` (s, >= 0; 0, the default, never) once landed, then
    lie still holding the shape it ends in. Set before it lands; a POWERED figure only."""
    m = check(body)
    v = nonneg(seconds, "seconds", unit="s")
    s = service(m.engine)
    r = m.ragdoll
    s.pbf[m.slot, :r.bones, PB_REST_Q:PB_REST_Q + 4] = physics.ragdoll_rest_targets(r)
    s.ff[m.slot, F_WRITHE_S] = float(v)
    if int(s.fi[m.slot, F_WRITHE]) != WRITHE_ON:
        s.fi[m.slot, F_WRITHE] = WRITHE_NONE
        s.ff[m.slot, F_WRITHE_T] = 0.0


def writhing(body: Motion) -> bool:
    """True while the figure writhes (landed, within its seconds). False before, and once over:
    ``writhe_over`` tells the two apart."""
    m = check(body)
    return bool(int(service(m.engine).fi[m.slot, F_WRITHE]) == WRITHE_ON)


def writhe_over(body: Motion) -> bool:
    """True once its writhing is over (it lies still and settles; a get-up counts from then)."""
    m = check(body)
    return bool(int(service(m.engine).fi[m.slot, F_WRITHE]) == WRITHE_DONE)
