"""Balance: the pelvis's upright anchor (its cap, let go by a blow past it), the heading hold on
the soles, the lean, and falling (spec "Balance").

POWERED, the pelvis's upright anchor holds it to the animation's pelvis's tilt (its yaw free) at
``balance_torque`` x strength: the balance a standing figure keeps, and what a blow past it
overcomes. Such a blow (``hit``: one giving the whole figure more than 2.4 m/s) lets the anchor
go over ``letgo_time``, its cap fading to the fall's brake (``fall_brake`` of it); a figure
leaning past ``fall_lean`` from its pose is falling and keeps only that brake until it is back
under ``caught_lean`` (a figure landed down and set to writhe stays falling however it leans).
Held regardless, the anchor on the world took a 400 N·s blow's whole turn out of the pelvis at
once: the figure slid 2.6 m on its feet into a squat and its muscles stood it up again, rather
than toppling. The heading hold keeps the way it faces at ``heading_torque`` x
strength while a sole touches the ground and the lean is under ``fall_lean``, else 0 with its
impulse cleared (#689). Not POWERED, both are off. Knocked off a keyed way (``F_KNOCKED``) the
anchor lets go, but a protective figure keeps a brake on its pelvis's tumble until it lands
(``FallSettings.knock_brake`` of the cap while the pelvis tips faster than ``knock_spin``): the
anchor's target taken each step from the pelvis's own tilt, so it holds nothing up.

Columns: ``F_LEAN``, ``F_MAX_LEAN``, ``F_LETGO``, ``F_UPRIGHT``, ``F_HEADING``, ``F_FALLING``.
Settings: ``BalanceSettings``. Verbs: ``balance_pre``, ``balance_post``. Units: rad, s, N·m.
"""

from __future__ import annotations

import math
from dataclasses import dataclass

import numpy as np
from numba import njit

from ae3d import human
from ae3d.physics._layout import (
    A_AXIS,
    A_HEADING,
    A_L_ANG,
    A_L_UP,
    A_QAX,
    A_TMAX,
    B_QUAT,
    B_W,
    SI_TOUCH,
)

from ._kin import qnorm, qrot
from ._layout import (
    F_ANIM_ROT,
    F_FALLING,
    F_HEADING,
    F_KNOCKED,
    F_LAND,
    F_LEAN,
    F_LETGO,
    F_MAX_LEAN,
    F_PROTECTIVE,
    F_STAGGER,
    F_STEP_HIP,
    F_STRENGTH,
    F_UPRIGHT,
    F_WRITHE_S,
    LAND_DOWN,
    LAND_NONE,
    PB_BODY,
    S_BALANCE_TORQUE,
    S_CAUGHT_LEAN,
    S_FALL_ASSIST,
    S_FALL_BRAKE,
    S_FALL_LEAN,
    S_HEADING_TORQUE,
    S_HIP_FADE,
    S_KNOCK_BRAKE,
    S_KNOCK_SPIN,
    S_LETGO_TIME,
    S_STAGGER_LEAN,
)
from ._service import Motion, check, service


@dataclass(frozen=True)
class BalanceSettings:
    """The balance's tuned constants (packed into the parameter row by ``_settings.pack``)."""

    balance_torque: float = human.BALANCE_TORQUE
    """N·m at strength 1: the upright anchor's cap (spec "Balance": 1,200 N·m, "the balance a
    standing figure keeps, and what a blow past it overcomes")."""
    heading_torque: float = human.HEADING_TORQUE
    """N·m at strength 1: the heading hold on the soles (spec: 60 N·m, #689)."""
    fall_lean: float = 0.35
    """rad: a POWERED figure leaning more than this from its pose is falling (spec "Balance")."""
    caught_lean: float = 0.175
    """rad: it has caught itself under half of fall_lean."""
    fall_brake: float = 0.3
    """share of the cap kept through a fall as a brake ("until the figure lands, the anchor keeps
    the fall's brake"). Let go to nothing, a 400 N·s blow at the chest sent the box man over its
    shoulders, its calves 0.49 m above its chest and the lean to 2.27 rad (#822's legs over its
    head); at 0.2 and at 0.35 it lands flat (lean at most 1.56 rad) and the 60 N·s shove is
    unchanged."""
    letgo_time: float = 0.4
    """s: a blow past the balance lets its anchor go over this (spec "On muscles")."""

    def pack(self, row: np.ndarray) -> None:
        row[S_BALANCE_TORQUE] = self.balance_torque
        row[S_HEADING_TORQUE] = self.heading_torque
        row[S_FALL_LEAN] = self.fall_lean
        row[S_CAUGHT_LEAN] = self.caught_lean
        row[S_FALL_BRAKE] = self.fall_brake
        row[S_LETGO_TIME] = self.letgo_time


# ------------------------------------------------------------------------------ the verbs
@njit(cache=True, _nrt=False)
def lean_of(bf, s, ux, uy, uz, arx, ary, arz, arw):
    """rad between the pelvis body's up and the animation pelvis's up (both world)."""
    q0, q1, q2, q3 = bf[s, B_QUAT], bf[s, B_QUAT + 1], bf[s, B_QUAT + 2], bf[s, B_QUAT + 3]
    bx, by, bz = qrot(q0, q1, q2, q3, ux, uy, uz)
    ax, ay, az = qrot(arx, ary, arz, arw, ux, uy, uz)
    d = bx * ax + by * ay + bz * az
    cx = by * az - bz * ay
    cy = bz * ax - bx * az
    cz = bx * ay - by * ax
    return math.atan2(math.sqrt(cx * cx + cy * cy + cz * cz), d)


@njit(cache=True, _nrt=False)
def hold_up(af, ku, arx, ary, arz, arw, wx, wy, wz):
    """Upright anchor ku holds up (world +y) the pelvis body's axis that the animation's pelvis
    ``ar`` turns to the world direction w (unit): w = +y holds the animation's tilt; w tipped
    back holds the pelvis tipped forward by as much (_stepping.py's bend over the hips)."""
    ux, uy, uz = qrot(-arx, -ary, -arz, arw, wx, wy, wz)
    af[ku, A_AXIS] = ux
    af[ku, A_AXIS + 1] = uy
    af[ku, A_AXIS + 2] = uz
    if uy > -1.0 + 1e-12:
        ax, ay, az, aw = qnorm(uz, 0.0, -ux, 1.0 + uy)  # shortest arc from +y to u
    else:
        ax, ay, az, aw = 1.0, 0.0, 0.0, 0.0
    af[ku, A_QAX] = ax
    af[ku, A_QAX + 1] = ay
    af[ku, A_QAX + 2] = az
    af[ku, A_QAX + 3] = aw


@njit(cache=True, _nrt=False)
def balance_pre(f, dt, nb, powered, ff, fi, pbi, prm, soles, up_local, fwd_local, bf, af, si):
    """Before the physics step, figure f's balance: its lean now, the upright anchor's axis and
    cap, the heading hold's heading and cap. Returns True when the upright cap changed."""
    pel = pbi[f, 0, PB_BODY]
    # the animation's pelvis: its up (for the lean) and the way it faces (for the heading)
    arx, ary = ff[f, F_ANIM_ROT], ff[f, F_ANIM_ROT + 1]
    arz, arw = ff[f, F_ANIM_ROT + 2], ff[f, F_ANIM_ROT + 3]
    ff[f, F_LEAN] = lean_of(bf, pel, up_local[0], up_local[1], up_local[2], arx, ary, arz, arw)
    fx, fy, fz = qrot(arx, ary, arz, arw, fwd_local[0], fwd_local[1], fwd_local[2])
    head = math.atan2(fx, fz)
    on_soles = False
    for k in range(soles.shape[0]):
        sb = soles[k]
        if sb < nb and si[pbi[f, sb, PB_BODY], SI_TOUCH] != 0:
            on_soles = True
    # a blow past the balance lets the anchor go over letgo_time, its cap fading to the fall's
    # brake; a falling figure keeps only the brake (balance_post's F_FALLING)
    s = ff[f, F_STRENGTH]
    up_cap = prm[S_BALANCE_TORQUE] * s if powered else 0.0
    brake = prm[S_FALL_BRAKE] * up_cap
    if ff[f, F_LETGO] > 0.0:
        up_cap = brake + (up_cap - brake) * ff[f, F_LETGO] / prm[S_LETGO_TIME]
        ff[f, F_LETGO] = max(0.0, ff[f, F_LETGO] - dt)
    if fi[f, F_FALLING] != 0:
        # a protective figure's balance works against the fall until it is down (_fall.py's
        # assist); an unprotected one keeps only the brake
        up_cap = (prm[S_FALL_ASSIST] * prm[S_BALANCE_TORQUE] * s if fi[f, F_PROTECTIVE] != 0
                  else brake)
    if fi[f, F_LAND] == LAND_DOWN or fi[f, F_KNOCKED] != 0:
        # landed (_landing.py), or knocked off a keyed way (_hits.knock_off): the balance lets
        # go (an anchor at nothing applies nothing). The fall's assist held a knocked sitter's
        # pelvis up as it went over onto its knees, and it crawled back 1.5 m
        up_cap = 0.0
    # a protective figure knocked off its way, until it lands: a brake on its pelvis's tumble
    # (FallSettings.knock_brake), the anchor's target taken from the pelvis's own tilt each step
    brake_on = (powered and fi[f, F_KNOCKED] != 0 and fi[f, F_PROTECTIVE] != 0
                and fi[f, F_LAND] == LAND_NONE and prm[S_KNOCK_BRAKE] > 0.0)
    wx, wz = bf[pel, B_W], bf[pel, B_W + 2]
    rate = math.sqrt(wx * wx + wz * wz)     # rad/s: the pelvis's tilt rate (its yaw left out)
    if brake_on:
        # one-sided: off while the pelvis tips slower than knock_spin. On at any rate (its target
        # turned ahead at that rate), it held a slower turn as it was, gravity's too: a Mixamo
        # sitter struck at the arm (250 N·s) sat slumped on its log 1.7 s, never tipping off
        up_cap = prm[S_KNOCK_BRAKE] * prm[S_BALANCE_TORQUE] * s if rate > prm[S_KNOCK_SPIN] else 0.0
    head_cap = (prm[S_HEADING_TORQUE] * s
                if (powered and on_soles and ff[f, F_LEAN] < prm[S_FALL_LEAN]) else 0.0)
    changed = False
    ku = fi[f, F_UPRIGHT]
    # the balance holds the pelvis to the animation's pelvis's tilt (its yaw free): the body
    # axis the animation's pelvis turns up is the one held up
    # tipped forward over the hips while a step back is under way (_stepping.py sets F_STEP_HIP
    # each step it bends the trunk; let go here at hip_fade, at once falling or down)
    hb = ff[f, F_STEP_HIP]
    if not powered or fi[f, F_FALLING] != 0 or fi[f, F_LAND] != LAND_NONE:
        hb = 0.0
    fh = math.sqrt(fx * fx + fz * fz)
    if brake_on:
        # the body axis that is up once the pelvis has tipped on this step at knock_spin along its
        # tilt (world up turned back by that much, seen from the pelvis): the anchor holds nothing
        # up and only brakes the tumble down to that rate
        q0, q1 = bf[pel, B_QUAT], bf[pel, B_QUAT + 1]
        q2, q3 = bf[pel, B_QUAT + 2], bf[pel, B_QUAT + 3]
        tx, ty, tz = 0.0, 1.0, 0.0
        if rate > 1e-9:
            th = -min(rate, prm[S_KNOCK_SPIN]) * dt
            sn = math.sin(0.5 * th) / rate
            tx, ty, tz = qrot(wx * sn, 0.0, wz * sn, math.cos(0.5 * th), 0.0, 1.0, 0.0)
        hold_up(af, ku, q0, q1, q2, q3, tx, ty, tz)
        if af[ku, A_TMAX] == 0.0:
            # from nothing: no warm start from the anchor's last hold (its rows' impulses too)
            af[ku, A_L_UP] = 0.0
            af[ku, A_L_UP + 1] = 0.0
    elif hb > 0.0 and fh > 1e-6:
        sn = math.sin(hb) / fh
        hold_up(af, ku, arx, ary, arz, arw, -sn * fx, math.cos(hb), -sn * fz)
    else:
        hold_up(af, ku, arx, ary, arz, arw, 0.0, 1.0, 0.0)
    ff[f, F_STEP_HIP] = max(0.0, hb - prm[S_HIP_FADE] * dt)
    if af[ku, A_TMAX] != up_cap:
        changed = True
        af[ku, A_TMAX] = up_cap
        if up_cap == 0.0:
            af[ku, A_L_ANG] = 0.0
            af[ku, A_L_ANG + 1] = 0.0
            af[ku, A_L_ANG + 2] = 0.0
    kh = fi[f, F_HEADING]
    if af[kh, A_TMAX] != head_cap:
        af[kh, A_TMAX] = head_cap
        if head_cap == 0.0:
            af[kh, A_L_ANG] = 0.0
            af[kh, A_L_ANG + 1] = 0.0
            af[kh, A_L_ANG + 2] = 0.0
    af[kh, A_HEADING] = head
    return changed


@njit(cache=True, _nrt=False)
def balance_post(f, powered, ff, fi, pbi, prm, up_local, bf):
    """After the physics step, figure f's lean from its pose (rad), the most it has leant, and
    whether a POWERED figure is falling (past fall_lean; caught again under caught_lean)."""
    le = lean_of(bf, pbi[f, 0, PB_BODY], up_local[0], up_local[1], up_local[2],
                 ff[f, F_ANIM_ROT], ff[f, F_ANIM_ROT + 1], ff[f, F_ANIM_ROT + 2],
                 ff[f, F_ANIM_ROT + 3])
    ff[f, F_LEAN] = le
    if le > ff[f, F_MAX_LEAN]:
        ff[f, F_MAX_LEAN] = le
    if powered:
        # while it staggers (_stepping.py) the fall waits for a deeper lean
        fall_lean = prm[S_STAGGER_LEAN] if fi[f, F_STAGGER] != 0 else prm[S_FALL_LEAN]
        # hurt and down (landed, set to writhe) it stays fallen however it leans: let go from
        # sitting to go down (_writhe.py), the box man from 118 degrees at 500 N·s sat up (its
        # lean from 1.52 to 0.02 rad in 0.13 s, its pelvis 0.17 m up), was taken as caught
        # upright, its landing and writhing reset, and its balance stood it up
        down = fi[f, F_LAND] == LAND_DOWN and ff[f, F_WRITHE_S] > 0.0
        # knocked off a keyed way (_hits.knock_off) it is fallen however it leans until it
        # gets up: its lean is read against the clip's standing pelvis, and a sitter's pelvis,
        # upright, was taken as caught, its balance back, and flung 3.7 m it landed on its feet
        knocked = fi[f, F_KNOCKED] != 0
        if le > fall_lean or knocked:
            fi[f, F_FALLING] = 1
        elif le < prm[S_CAUGHT_LEAN] and not down:
            fi[f, F_FALLING] = 0
    else:
        fi[f, F_FALLING] = 0
        fi[f, F_KNOCKED] = 0


# ------------------------------------------------------------------------------ the façade
def falling(body: Motion) -> bool:
    """True while a POWERED figure leans more than 0.35 rad from its pose (until it leans less
    than half that again)."""
    m = check(body)
    return bool(service(m.engine).fi[m.slot, F_FALLING])


def lean(body: Motion) -> float:
    """rad: the pelvis's up against the animation's, after the last step."""
    m = check(body)
    return float(service(m.engine).ff[m.slot, F_LEAN])


def let_go(m: Motion) -> None:
    """A blow past the balance: the upright anchor lets go over letgo_time (s)."""
    s = service(m.engine)
    s.ff[m.slot, F_LETGO] = s.prm[S_LETGO_TIME]
