"""The protective fall (spec "A POWERED figure that leans more than 0.35 rad (20°) from its pose is
falling"): while a protective POWERED figure falls and has not landed, its joints are aimed
(``physics.ragdoll_aim``'s drive, written here straight into the joints' table):

- the reach: each arm, upper arm and forearm, straight toward where it is falling, ``reach_down``
  down to 1 along the fall and ``reach_out`` out to its own side, so the hands land apart;
- the tuck: the head turned ``tuck`` rad away from the fall from where the chest carries it;
- the knees: ``knee_give`` rad toward their bend from the animation's pose;
- the spine: falling toward its back, each of its two joints ``spine_bend`` rad away from the fall
  from its parent (the back rounds, the chin tucks); forwards or sideways, the same bend once the
  figure is past level, which face down arches the back and lifts the chest and head.

The way of the fall is read in the world: the pelvis body's up (the figure's ``up_local``, not a
body axis guessed) over the ground. Each arm's reach axis is its own: the bone's own direction
from its joint (``-J_PB``, the joint's point on the bone), so a rig whose arms lie along other
local axes reaches the same way (the spec's second fault). Caught (``balance_post`` drops
``F_FALLING``), landed (``_landing.py``), not protective or not POWERED: the aims are cleared, the
bones handed back to their targets.

Falling again (``_landing.py``'s ``F_FELL_AGAIN``), an arm whose hand is down gives for the rest
of that fall (``F_ARM_GIVEN``): not aimed, on ``arm_give`` of its budget, so a figure caught on
its hands and knees and pushed can go over onto its face.

Columns: ``F_FALL_DIR``, ``F_AIMED``, ``F_ARM_GIVEN``. Settings: ``FallSettings``. Verb:
``fall_pre``. Units: rad, m.
"""

from __future__ import annotations

import math
from dataclasses import dataclass

import numpy as np
from numba import njit

from ae3d import human
from ae3d.physics._layout import (
    B_DIMS,
    B_POS,
    B_QUAT,
    DRIVE_AIM,
    DRIVE_POSE,
    J_AIM,
    J_BODY_A,
    J_BODY_B,
    J_DRIVE,
    J_L_MOTOR,
    J_MOTOR_MAX,
    J_PB,
    J_QB,
    J_TARGET,
    J_TWIST_HI,
    J_TWIST_LO,
)

from ._kin import body_quat, qmul, qnorm, qrot
from ._layout import (
    F_AIMED,
    F_ARM_GIVEN,
    F_FALL_DIR,
    F_FALL_FAR,
    F_FALLING,
    F_FELL_AGAIN,
    F_LAND,
    F_LEAN,
    F_PROTECTIVE,
    LAND_NONE,
    PB_BODY,
    PB_JOINT,
    S_ARM_GIVE,
    S_BACKWARDS,
    S_FALL_ASSIST,
    S_FAR_FWD,
    S_HAND_DOWN,
    S_KNEE_GIVE,
    S_KNOCK_BRAKE,
    S_KNOCK_SPIN,
    S_LAND_LEAN,
    S_REACH_DOWN,
    S_REACH_OUT,
    S_SPINE_BEND,
    S_TUCK,
    S_TUCK_SIDE,
)
from ._service import Motion, check, service

_PELVIS = human.BONE_PELVIS
_SPINE1 = human.BONE_SPINE_01
_CHEST = human.BONE_SPINE_03
_NECK = human.BONE_NECK
_ARMS = ((human.BONE_UPPERARM_L, human.BONE_LOWERARM_L),
         (human.BONE_UPPERARM_R, human.BONE_LOWERARM_R))
_KNEES = (human.BONE_CALF_L, human.BONE_CALF_R)


@dataclass(frozen=True)
class FallSettings:
    """The protective fall's tuned constants (packed into the parameter row by
    ``_settings.pack``)."""

    reach_down: float = 0.7
    """share: the reach's downward part against 1 along the fall (spec: "0.7 down to 1 along the
    fall"; straight arms, which take the landing through their joints)."""
    reach_out: float = 0.3
    """share: the reach's part out to each arm's own side, so the hands land apart (spec "a little
    out to each side")."""
    tuck: float = 0.8
    """rad: the head turned away from the fall, from where the chest carries it (spec: 0.8)."""
    knee_give: float = 0.45
    """rad: the knees toward their bend (spec #578: 0.45; a deeper one caught fewer falls)."""
    spine_bend: float = 0.5
    """rad: each of the spine's two joints away from the fall: backwards from the first lean,
    forwards and sideways once past level (spec: 0.5)."""
    backwards: float = 0.5
    """cosine: a fall is toward the figure's back when its way against the pelvis's forward over
    the ground is below minus this (60 degrees either side of straight back)."""

    assist: float = 0.3
    """share of the balance's cap (the pelvis's upright anchor) a protective figure keeps while
    it falls, until it lands (``_balance.balance_pre``; an unprotected twin keeps the fall's
    brake, 0.3). Swept on tests/test_falls.py's ninety falls (protected head the slower
    backwards / forwards / sideways, of 30; second head impacts; landed):
    0: 30 / 25 / 25, 2+5+1 second impacts (the spec's plank from the hips);
    0.3: 30 / 30 / 27, 0+0+4, all landed and still within 0.5 s;
    0.4: 30 / 30 / 22, none; 10 backwards caught sitting;
    0.5: 30 / 30 / 30, none, but 3 sideways pushed themselves back up on the reaching arm
    and stood, 2 backwards and 1 forwards never landed;
    0.8 and 1.0 (the spec's full torque): no figure lands: the 400 N·s blow is absorbed into
    the anchor and the figure slides into a squat on its knees (the issue's finding)."""

    # Swept on tests/test_falls.py's thirty sideways falls (session 8, the whole blow; protected
    # head the slower of 30, heads that met the ground, second head impacts):
    # far_fwd 0 (both arms along the fall): 27, 20 met, 18 second (the far arm swung over the
    # head and struck the ground beyond it at 4-7 m/s, the head thrown back up); 0.5: 30, 0, 0;
    # 0.75: 30, 2, 0; 1.0: 30, 0, 0 (forwards and backwards the same: 30, 0, 0).
    # the tuck sideways with the far arm along the fall: 1.0 (tuck, every way): 29, 20, 1;
    # tuck_side 1.2: 30, 20, 1; 1.4: 30, 13, 1
    # (into the neck's 45 degree lateral limit: the drive holds it there at full budget); with
    # the far arm to the front it adds nothing, so it stays the spec's 0.8.
    # Over directions (ten falls each, 350-480 N·s, the reference ragdoll; far_fwd 0 -> 1):
    # 90 deg 9 -> 10, 6 -> 0 second; -90 9 -> 10, 6 -> 0; 60 9 -> 10, 1 -> 0; -60 10, 0;
    # 105 10 -> 9, 0 -> 1; 120 and 150 as before (the blend to none toward the back).
    # On by default since session 9. Session 8 left it off: at 1.0 test_get_up's box man felled
    # by 300 N·s from 60 degrees never got up (the far arm's share, read each step, grew from
    # none to a third as it sat turned on its hands; the arm swung, rolled it onto its back
    # propped on both hands, and it rocked there, never still: now each arm's share is read only
    # while it leans under the landing's lean, and kept, F_FALL_FAR) and two of test_writhe's
    # 64 box men (135 and 225 degrees) writhed with a leg's swing of 0.20 rad against 0.30
    # (landed still rolling over onto its face, read as on its back: _writhe.py now reads it
    # again each step until it lies)
    tuck_side: float = 0.8
    """rad: the head's tuck in a fall to the figure's side (``tuck`` forwards and backwards),
    blended by how far the fall is to its side (the sine between the pelvis's forward and the
    way of the fall)."""
    arm_give: float = 0.0
    """share: falling again (after it was caught or lay still), an arm whose hand is down gives:
    it reaches no more for that fall and is driven to its pose on this share of its budget (spec:
    a caught figure "can still go over -- kneeling, it tips onto its face"). Reaching, the arms
    of the box man caught on its hands and knees and pushed from behind by 250 N·s propped it
    there (lean 1.16-1.18 rad, never the landing's 1.2). Swept on that push (tests/test_falls.py,
    the most it leant after the push): 0 (limp): 1.52 rad, landed 0.33 s after the push, lying
    0.67 s after; 0.1: 1.41; 0.2: 1.51 but it rocked out of lying; 0.3, 0.4, 1.0: 1.16-1.17,
    propped up. ``hand_down`` from 0.02 to 0.2 m gave the same."""
    hand_down: float = 0.05
    """m: an arm's hand is down when its forearm's lowest point is within this of the figure's
    lowest point (on the ground with the knees)."""
    far_fwd: float = 1.0
    """share: in a fall to its side, the far arm's reach (the arm on the side away from the
    fall) turned from the way of the fall to the figure's front, so it comes down in front of the
    chest rather than over the head; blended to none as the fall turns toward its back
    (``backwards``), where the arm reaching along the fall keeps the head off the ground."""

    knock_brake: float = 0.3
    """share of the balance's cap (the pelvis's upright anchor, 1,200 N·m at strength 1): a
    protective figure knocked off its keyed way (``_hits.knock_off``), until it lands, has its
    pelvis's tumble braked within this cap (``_balance.balance_pre``) while it tips faster than
    ``knock_spin``. The anchor's target is taken each step from the pelvis's own tilt, so it holds
    nothing up (the fall's assist, an upright hold, held a knocked sitter's pelvis up and it
    crawled 1.5 m on its knees). Swept on tests/test_knocked_falls.py's ensemble (both rigs sat on
    a 0.45 m log, struck at the chest from behind / front / side at 250-800 N·s beside an
    unprotected twin: 22 falls; protected head slower than the twin's or never touching; its speed
    at first ground contact, mean box man / Mixamo man over those touching, twins 5.69 / 5.52 m/s;
    s resting on its head with the pelvis over 0.5 m up, all, in 3 s):
    0 (none): 9 of 22, 5.79 / 5.45, 6.0 s;
    braking at any rate (knock_spin 0): 0.15: 18 of 22, 3.48 / 4.32, 0.5 s; 0.3: 22 of 22 (13
    never touch), 3.58 / 3.34, 0.1 s, but tests/test_struck_acting.py's box man knocked while
    rising by 5,000 N·s never stood again and a knocked sitter's arm tore 2.23 cm (2 allowed);
    0.3 over 2 rad/s: 22 of 22 (7 never touch), 2.98 / 3.41, 0.25 s (in 4 s)."""
    knock_spin: float = 2.0
    """rad/s: the knocked figure's brake is off while the pelvis tips slower than this, and on
    brakes it down to this (its target turned that far ahead each step along the tilt). Turned
    ahead at the pelvis's own rate up to this and on at any rate, it held a slow turn as it was,
    gravity's too: a Mixamo sitter struck at the arm (250 N·s) sat slumped on its log, never came
    to rest, and stood up from there (22 of 22 on the ensemble, 3.38 / 2.69 m/s)."""

    def pack(self, row: np.ndarray) -> None:
        row[S_KNOCK_BRAKE] = self.knock_brake
        row[S_KNOCK_SPIN] = self.knock_spin
        row[S_FALL_ASSIST] = self.assist
        row[S_REACH_DOWN] = self.reach_down
        row[S_REACH_OUT] = self.reach_out
        row[S_TUCK] = self.tuck
        row[S_KNEE_GIVE] = self.knee_give
        row[S_SPINE_BEND] = self.spine_bend
        row[S_BACKWARDS] = self.backwards
        row[S_TUCK_SIDE] = self.tuck_side
        row[S_FAR_FWD] = self.far_fwd
        row[S_ARM_GIVE] = self.arm_give
        row[S_HAND_DOWN] = self.hand_down


# ------------------------------------------------------------------------------ the verbs
@njit(cache=True, _nrt=False)
def capsule_low(bf, s):
    """m: the lowest point of body s's capsule (along its body's y)."""
    hs = bf[s, B_DIMS + 1]
    ax, ay, az = qrot(bf[s, B_QUAT], bf[s, B_QUAT + 1], bf[s, B_QUAT + 2], bf[s, B_QUAT + 3],
                      0.0, hs, 0.0)
    return bf[s, B_POS + 1] - abs(ay) - bf[s, B_DIMS]


@njit(cache=True, _nrt=False)
def lowest_point(f, nb, pbi, bf):
    """m: the lowest point of figure f's capsules (each along its body's y)."""
    low = 1e300
    for b in range(nb):
        y = capsule_low(bf, pbi[f, b, PB_BODY])
        if y < low:
            low = y
    return low


@njit(cache=True, _nrt=False)
def _give(jf, ji, j, share):
    """Joint j given: handed back to its pose (not aimed) on ``share`` of the budget the muscles
    gave it this step."""
    ji[j, J_DRIVE] = DRIVE_POSE
    jf[j, J_MOTOR_MAX] *= share
    if jf[j, J_MOTOR_MAX] == 0.0:
        jf[j, J_L_MOTOR] = 0.0
        jf[j, J_L_MOTOR + 1] = 0.0
        jf[j, J_L_MOTOR + 2] = 0.0


@njit(cache=True, _nrt=False)
def _aim(jf, ji, j, x, y, z, w):
    x, y, z, w = qnorm(x, y, z, w)
    jf[j, J_AIM] = x
    jf[j, J_AIM + 1] = y
    jf[j, J_AIM + 2] = z
    jf[j, J_AIM + 3] = w
    ji[j, J_DRIVE] = DRIVE_AIM


@njit(cache=True, _nrt=False)
def clear_aims(f, nb, pbi, ji):
    """Every bone of figure f aimed is handed back to its target (``ragdoll_clear_aims``)."""
    for b in range(1, nb):
        j = pbi[f, b, PB_JOINT]
        if ji[j, J_DRIVE] == DRIVE_AIM:
            ji[j, J_DRIVE] = DRIVE_POSE


@njit(cache=True, _nrt=False)
def _along(bf, jf, ji, j, dx, dy, dz):
    """Aim joint j's bone straight along the world direction d (unit), from its rotation now:
    the shortest turn taking the bone's own direction from its joint onto d."""
    b = ji[j, J_BODY_B]
    qx, qy, qz, qw = body_quat(bf, b)
    lx, ly, lz = -jf[j, J_PB], -jf[j, J_PB + 1], -jf[j, J_PB + 2]
    n = math.sqrt(lx * lx + ly * ly + lz * lz)
    if n < 1e-9:
        return
    ax, ay, az = qrot(qx, qy, qz, qw, lx / n, ly / n, lz / n)
    c = ax * dx + ay * dy + az * dz
    cx, cy, cz = ay * dz - az * dy, az * dx - ax * dz, ax * dy - ay * dx
    if c < -0.999999:
        # opposite: half a turn about any axis across the bone
        cx, cy, cz = -ay, ax, 0.0
        if cx * cx + cy * cy < 1e-12:
            cx, cy, cz = 0.0, -az, ay
        rx, ry, rz, rw = qnorm(cx, cy, cz, 0.0)
    else:
        rx, ry, rz, rw = qnorm(cx, cy, cz, 1.0 + c)
    x, y, z, w = qmul(rx, ry, rz, rw, qx, qy, qz, qw)
    _aim(jf, ji, j, x, y, z, w)


@njit(cache=True, _nrt=False)
def _turned_from_parent(bf, jf, ji, j, kx, kz, angle):
    """Aim joint j's bone at its target from where its parent is now, turned ``angle`` rad about
    the world's horizontal axis (kx, 0, kz)."""
    a = ji[j, J_BODY_A]
    px, py, pz, pw = body_quat(bf, a)
    tx, ty, tz, tw = qmul(px, py, pz, pw, jf[j, J_TARGET], jf[j, J_TARGET + 1],
                          jf[j, J_TARGET + 2], jf[j, J_TARGET + 3])
    s = math.sin(0.5 * angle)
    x, y, z, w = qmul(kx * s, 0.0, kz * s, math.cos(0.5 * angle), tx, ty, tz, tw)
    _aim(jf, ji, j, x, y, z, w)


@njit(cache=True, _nrt=False)
def _knee(bf, jf, ji, j, give):
    """Aim a hinge (the knee) ``give`` rad toward its bend (the side of its range with the more
    room) from its target, its parent where it is now."""
    a = ji[j, J_BODY_A]
    px, py, pz, pw = body_quat(bf, a)
    g = give if jf[j, J_TWIST_HI] >= -jf[j, J_TWIST_LO] else -give
    # target * frameB * Rx(g) * frameB^-1: the child turned g about the hinge's axis
    fx, fy, fz, fw = jf[j, J_QB], jf[j, J_QB + 1], jf[j, J_QB + 2], jf[j, J_QB + 3]
    s = math.sin(0.5 * g)
    rx, ry, rz, rw = qmul(fx, fy, fz, fw, s, 0.0, 0.0, math.cos(0.5 * g))
    rx, ry, rz, rw = qmul(rx, ry, rz, rw, -fx, -fy, -fz, fw)
    tx, ty, tz, tw = qmul(jf[j, J_TARGET], jf[j, J_TARGET + 1], jf[j, J_TARGET + 2],
                          jf[j, J_TARGET + 3], rx, ry, rz, rw)
    x, y, z, w = qmul(px, py, pz, pw, tx, ty, tz, tw)
    _aim(jf, ji, j, x, y, z, w)


@njit(cache=True, _nrt=False)
def fall_pre(f, nb, powered, ff, fi, pbi, prm, up_local, fwd_local, bf, jf, ji):
    """Before the physics step (after the muscles have set the joints' targets), figure f's
    protective fall: while it is POWERED, protective, falling and not landed, the way of the
    fall and the reach, tuck, knees and spine as aims; else its aims cleared. Returns True when
    an aim was set or cleared (the figure is woken)."""
    active = (powered and fi[f, F_PROTECTIVE] != 0 and fi[f, F_FALLING] != 0
              and fi[f, F_LAND] == LAND_NONE)
    if not active:
        # landed, caught or no longer falling: the next fall's arms reach again
        fi[f, F_ARM_GIVEN] = 0
        fi[f, F_ARM_GIVEN + 1] = 0
        if fi[f, F_AIMED] != 0:
            clear_aims(f, nb, pbi, ji)
            fi[f, F_AIMED] = 0
            return True
        return False
    pel = pbi[f, _PELVIS, PB_BODY]
    qx, qy, qz, qw = body_quat(bf, pel)
    # the way of the fall: the pelvis's up over the ground (kept while it stands near upright)
    ux, uy, uz = qrot(qx, qy, qz, qw, up_local[0], up_local[1], up_local[2])
    h = math.sqrt(ux * ux + uz * uz)
    first = fi[f, F_AIMED] == 0
    if h > 0.1 or first:
        if h < 1e-9:
            ux, uz, h = 0.0, -1.0, 1.0
        ff[f, F_FALL_DIR] = ux / h
        ff[f, F_FALL_DIR + 1] = 0.0
        ff[f, F_FALL_DIR + 2] = uz / h
    dx, dz = ff[f, F_FALL_DIR], ff[f, F_FALL_DIR + 2]
    # the axis a turn toward the fall is about: up x d (a turn by -angle is away from the fall)
    kx, kz = dz, -dx
    fi[f, F_AIMED] = 1
    # the pelvis's forward over the ground, and how far the fall is to the figure's side (the
    # sine between them; 0 straight forwards or back)
    fx, fy, fz = qrot(qx, qy, qz, qw, fwd_local[0], fwd_local[1], fwd_local[2])
    fh = math.sqrt(fx * fx + fz * fz)
    side_of = abs(fx * dz - fz * dx) / fh if fh > 1e-9 else 0.0
    # the reach: each arm straight toward the fall, down and out to its own side; falling to its
    # side, the far arm (its shoulder behind the chest along the fall) turned to the front. Each
    # arm's share of that turn is read while the figure leans less than the landing's lean (in
    # the air) and kept from there: read on, a figure falling back and to its side (from 60
    # degrees) that sat on its hands turned on the ground, its arm's share grew from none to a
    # third, the arm swung and rolled it onto its back, propped on both hands, where it rocked
    # and was never still (never caught, never up: tests/test_get_up.py's sweep). Taken once as
    # the fall began (lean 0.35), the Mixamo man pushed to its side had 10 of 12 heads slower
    # (tests/test_falls.py's sideways sweep; read each step 12 of 12)
    down = prm[S_REACH_DOWN]
    out = prm[S_REACH_OUT]
    chest = pbi[f, _CHEST, PB_BODY]
    # falling again (caught on its hands and knees, or lying, and moved), an arm whose hand is
    # down gives and stays given for that fall: reaching straight, the arms of a caught figure
    # pushed from behind propped it on its hands and knees (lean 1.16-1.18 rad) and it slid
    # rather than tipping onto its face
    again = fi[f, F_FELL_AGAIN] != 0
    low = lowest_point(f, nb, pbi, bf) if again else 0.0
    for k in range(2):
        up_b = _ARMS[k][0]
        lo_b = _ARMS[k][1]
        if lo_b >= nb:
            continue
        ju = pbi[f, up_b, PB_JOINT]
        jl = pbi[f, lo_b, PB_JOINT]
        if again and capsule_low(bf, pbi[f, lo_b, PB_BODY]) - low < prm[S_HAND_DOWN]:
            fi[f, F_ARM_GIVEN + k] = 1
        if fi[f, F_ARM_GIVEN + k] != 0:
            _give(jf, ji, ju, prm[S_ARM_GIVE])
            _give(jf, ji, jl, prm[S_ARM_GIVE])
            continue
        su = pbi[f, up_b, PB_BODY]
        ox = bf[su, B_POS] - bf[chest, B_POS]
        oz = bf[su, B_POS + 2] - bf[chest, B_POS + 2]
        side = ox * kx + oz * kz
        sg = 1.0 if side >= 0.0 else -1.0
        hx, hz = dx, dz
        on = math.sqrt(ox * ox + oz * oz)
        if first or ff[f, F_LEAN] < prm[S_LAND_LEAN]:
            # the far arm's share: 1 for an arm straight behind the chest along the fall, 0 for
            # one across it (falling forwards or back); none from a fall toward its back
            # (``S_BACKWARDS``'s cosine) on, where the front is away from the fall
            far = 0.0
            if on > 1e-9 and fh > 1e-9:
                behind = max(0.0, min(1.0, 1.0 + (fx * dx + fz * dz) / (fh * prm[S_BACKWARDS])))
                far = max(0.0, -(ox * dx + oz * dz) / on) * prm[S_FAR_FWD] * behind
            ff[f, F_FALL_FAR + k] = far
        far = ff[f, F_FALL_FAR + k]
        if far > 0.0 and fh > 1e-9:
            hx = (1.0 - far) * dx + far * fx / fh
            hz = (1.0 - far) * dz + far * fz / fh
        ax = hx + sg * out * kx
        ay = -down
        az = hz + sg * out * kz
        n = math.sqrt(ax * ax + ay * ay + az * az)
        _along(bf, jf, ji, ju, ax / n, ay / n, az / n)
        _along(bf, jf, ji, jl, ax / n, ay / n, az / n)
    # the tuck: the head away from the fall, from where the chest carries it
    if _NECK < nb:
        tuck = prm[S_TUCK] + side_of * (prm[S_TUCK_SIDE] - prm[S_TUCK])
        _turned_from_parent(bf, jf, ji, pbi[f, _NECK, PB_JOINT], kx, kz, -tuck)
    # the knees give toward their bend
    for k in range(2):
        if _KNEES[k] < nb:
            _knee(bf, jf, ji, pbi[f, _KNEES[k], PB_JOINT], prm[S_KNEE_GIVE])
    # the spine: away from a fall backwards from the first lean; else once past level. Past the
    # landing's lean a spine bent away from the fall stays bent until the figure lands (the spine
    # still aimed from the last step): read afresh each step, a box man struck at the chest 118
    # degrees from its front, propped on its hands and feet (lean 1.53 rad, pelvis 28 cm up), had
    # its way right on the backwards cone's edge (cos -0.5) and the bend went on and off every
    # step or two; its trunk jerked at 0.05-0.5 m/s and was never still for the caught rule's
    # third of a second (5.8 s neither caught nor landed; now landed 0.65 s after it was propped).
    # Kept either way (unbent stays unbent too) it landed 1.4 s after; kept only with its pelvis
    # up (not down by the landing's 25 cm) it flickered at that edge instead and landed 3.3 s after
    back = fh > 1e-9 and (fx * dx + fz * dz) / fh < -prm[S_BACKWARDS]
    if not back and not first and _SPINE1 < nb and ff[f, F_LEAN] >= prm[S_LAND_LEAN]:
        back = ji[pbi[f, _SPINE1, PB_JOINT], J_DRIVE] == DRIVE_AIM
    if back or ff[f, F_LEAN] > 0.5 * math.pi:
        for b in (_SPINE1, _CHEST):
            if b < nb:
                _turned_from_parent(bf, jf, ji, pbi[f, b, PB_JOINT], kx, kz,
                                    -prm[S_SPINE_BEND])
    else:
        for b in (_SPINE1, _CHEST):
            j = pbi[f, b, PB_JOINT]
            if b < nb and ji[j, J_DRIVE] == DRIVE_AIM:
                ji[j, J_DRIVE] = DRIVE_POSE
    return True


# ------------------------------------------------------------------------------ the façade
def fall_way(body: Motion) -> tuple[float, float, float]:
    """The way the figure falls (or fell last), a unit vector over the ground (world)."""
    m = check(body)
    r = service(m.engine).ff[m.slot, F_FALL_DIR:F_FALL_DIR + 3]
    return float(r[0]), float(r[1]), float(r[2])
