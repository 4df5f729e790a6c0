"""Landing, the held shape, lying, caught, and falling again (spec: "It has landed when it leans
past 1.2 rad (69°) with its pelvis down ...").

A POWERED figure that is falling (``balance_post``'s ``F_FALLING``):

- lands (``LAND_DOWN``) once it has leant past ``land_lean`` with its pelvis within ``land_drop``
  of its lowest point for ``land_steps`` steps: its aims are cleared (the reach stops), the
  balance lets go (``balance_pre`` reads ``F_LAND``), and every joint holds the shape it landed in
  (the head still tucked: held at its tuck's rotation from the chest, ``_keep_tuck``) on
  ``hold_share`` of its budget, braking within ``hold_brake`` of it
  rather than chasing it (``muscles_pre`` drives ``PB_HELD_Q`` on ``F_HOLD`` of the budget, as
  ``physics.ragdoll_hold_shape`` does);
- lies (``lying``) once its pelvis and chest have been slower than ``still_speed`` for
  ``lie_steps`` steps more;
- is caught (``LAND_CAUGHT``: on hands and knees, or sitting) when its trunk has been still for
  ``caught_still`` s before it lands: it holds the shape it was caught in at full strength with
  its balance kept. It can still go over (it lands then);
- falls again when its trunk moves faster than ``still_speed`` after it has lain or been caught
  still: the shape let go, the arms reaching (``_fall.py``; an arm whose hand is down gives, so
  a figure caught kneeling can tip onto its face), to land and lie as any fall does
  (``F_FELL_AGAIN``: its trunk still before it is down lands it rather than catching it again,
  until it is caught upright or is no longer POWERED). Not a figure writhing, let go to writhe,
  or done writhing (``_writhe.py``): down and hurt, it stays down until it is got up.

Caught while falling (leaning under half the fall's lean), or no longer POWERED: none of it.

Columns: ``F_HOLD``, ``F_STILL_T``, ``F_LAND``, ``F_LAND_N``, ``F_LYING``, ``F_SHAPE_NEW``,
``F_FELL_AGAIN``, ``PB_HELD_Q``. Settings: ``LandingSettings``. Verb: ``landing_pre``. Units: rad,
m, s, m/s.
"""

from __future__ import annotations

import math
from dataclasses import dataclass

import numpy as np
from numba import njit

from ae3d import human
from ae3d.physics._layout import (
    B_POS,
    B_QUAT,
    B_V,
    DRIVE_AIM,
    J_AIM,
    J_BODY_A,
    J_BODY_B,
    J_DRIVE,
)

from ._fall import clear_aims, lowest_point
from ._kin import qmul
from ._layout import (
    F_AIMED,
    F_FALLING,
    F_FELL_AGAIN,
    F_HOLD,
    F_LAND,
    F_LAND_N,
    F_LEAN,
    F_LYING,
    F_SHAPE_NEW,
    F_STILL_T,
    F_WRITHE,
    LAND_CAUGHT,
    LAND_DOWN,
    LAND_NONE,
    PB_BODY,
    PB_HELD_Q,
    PB_JOINT,
    S_CAUGHT_STILL,
    S_HOLD_BRAKE,
    S_HOLD_SHARE,
    S_LAND_DROP,
    S_LAND_LEAN,
    S_LAND_STEPS,
    S_LIE_STEPS,
    S_STILL_SPEED,
    WRITHE_DONE,
    WRITHE_DOWN,
    WRITHE_ON,
)
from ._service import Motion, check, service


@dataclass(frozen=True)
class LandingSettings:
    """The landing's tuned constants (packed into the parameter row by ``_settings.pack``)."""

    land_lean: float = 1.2
    """rad: landed leaning past this (spec: 1.2 rad, 69 degrees)."""
    land_drop: float = 0.25
    """m: with the pelvis within this of the figure's lowest point (spec: 25 cm)."""
    land_steps: float = 10.0
    """steps both have held (spec: ten)."""
    hold_share: float = 0.4
    """share of each budget the landed shape is held on (spec: two fifths settles the most; a
    fifth sagged and crept, from half up the joints chattered against the ground)."""
    hold_brake: float = human.HOLD_BRAKE
    """rad: within this of the held shape the joints brake rather than chase it (spec: 0.02, or
    the calves creep along the ground for good)."""
    still_speed: float = 0.3
    """m/s: the trunk (pelvis and chest) slower than this is still; faster again after lying
    still, the figure falls again (spec: 0.3)."""
    lie_steps: float = 10.0
    """steps the trunk is still after landing before the figure lies (spec: ten more)."""
    caught_still: float = 1.0 / 3.0
    """s: a fall whose trunk is still this long before it lands is caught (spec: a third of a
    second)."""

    def pack(self, row: np.ndarray) -> None:
        row[S_LAND_LEAN] = self.land_lean
        row[S_LAND_DROP] = self.land_drop
        row[S_LAND_STEPS] = self.land_steps
        row[S_HOLD_SHARE] = self.hold_share
        row[S_HOLD_BRAKE] = self.hold_brake
        row[S_STILL_SPEED] = self.still_speed
        row[S_LIE_STEPS] = self.lie_steps
        row[S_CAUGHT_STILL] = self.caught_still


# ------------------------------------------------------------------------------ the verbs
@njit(cache=True, _nrt=False)
def _speed(bf, s):
    return math.sqrt(bf[s, B_V] ** 2 + bf[s, B_V + 1] ** 2 + bf[s, B_V + 2] ** 2)


@njit(cache=True, _nrt=False)
def _store_rel(pbf, f, b, bf, a, qx, qy, qz, qw):
    """PB_HELD_Q of bone b: the world rotation q relative to parent body a (qA^-1 q), on the
    hemisphere w >= 0."""
    x, y, z, w = qmul(-bf[a, B_QUAT], -bf[a, B_QUAT + 1], -bf[a, B_QUAT + 2],
                      bf[a, B_QUAT + 3], qx, qy, qz, qw)
    if w < 0.0:
        x, y, z, w = -x, -y, -z, -w
    pbf[f, b, PB_HELD_Q] = x
    pbf[f, b, PB_HELD_Q + 1] = y
    pbf[f, b, PB_HELD_Q + 2] = z
    pbf[f, b, PB_HELD_Q + 3] = w


@njit(cache=True, _nrt=False)
def take_shape(f, nb, pbf, pbi, bf, ji):
    """PB_HELD_Q: every joint's body-relative rotation now (qA^-1 qB)."""
    for b in range(1, nb):
        j = pbi[f, b, PB_JOINT]
        c = ji[j, J_BODY_B]
        _store_rel(pbf, f, b, bf, ji[j, J_BODY_A], bf[c, B_QUAT], bf[c, B_QUAT + 1],
                   bf[c, B_QUAT + 2], bf[c, B_QUAT + 3])


@njit(cache=True, _nrt=False)
def _keep_tuck(f, nb, pbf, pbi, bf, jf, ji):
    """PB_HELD_Q of the head: its tuck (the neck's aim, relative to the chest where it is now)
    rather than where the head is, when the neck is aimed (spec: landed, "the head still
    tucked"). Taken where it is, a head the landing found on its way back up from meeting the
    ground (the tuck's drive lifting it) went on up 5 cm on its momentum and, held on landing's
    share, fell back: a second head impact (the Mixamo man pushed 30 degrees ahead of its side)."""
    b = human.BONE_NECK
    if b >= nb:
        return
    j = pbi[f, b, PB_JOINT]
    if ji[j, J_DRIVE] != DRIVE_AIM:
        return
    _store_rel(pbf, f, b, bf, ji[j, J_BODY_A], jf[j, J_AIM], jf[j, J_AIM + 1],
               jf[j, J_AIM + 2], jf[j, J_AIM + 3])


@njit(cache=True, _nrt=False)
def _reset(f, fi, ff):
    changed = ff[f, F_HOLD] != 0.0
    fi[f, F_LAND] = LAND_NONE
    fi[f, F_LAND_N] = 0
    fi[f, F_LYING] = 0
    fi[f, F_SHAPE_NEW] = 0
    ff[f, F_HOLD] = 0.0
    ff[f, F_STILL_T] = 0.0
    return changed


@njit(cache=True, _nrt=False)
def landing_pre(f, dt, nb, powered, ff, fi, pbf, pbi, prm, bf, jf, ji):
    """Before the physics step (before the muscles read ``F_HOLD``), figure f's landing from the
    state the last step left: landed, lying, caught or falling again; the shape to hold taken
    where it has just landed. Returns True when what the joints hold changed."""
    if not powered or fi[f, F_FALLING] == 0:
        # caught upright (or no longer POWERED): a fall from here is a first one again
        fi[f, F_FELL_AGAIN] = 0
        return _reset(f, fi, ff)
    pel = pbi[f, human.BONE_PELVIS, PB_BODY]
    chest = pbi[f, human.BONE_SPINE_03, PB_BODY]
    trunk = max(_speed(bf, pel), _speed(bf, chest))
    still = trunk < prm[S_STILL_SPEED]
    down = (ff[f, F_LEAN] > prm[S_LAND_LEAN]
            and bf[pel, B_POS + 1] - lowest_point(f, nb, pbi, bf) < prm[S_LAND_DROP])
    fi[f, F_LAND_N] = fi[f, F_LAND_N] + 1 if down else 0
    was_still = ff[f, F_STILL_T]
    ff[f, F_STILL_T] = was_still + dt if still else 0.0
    landed = fi[f, F_LAND_N] >= prm[S_LAND_STEPS]
    st = fi[f, F_LAND]
    changed = False
    if st == LAND_NONE:
        if landed:
            st = LAND_DOWN
            ff[f, F_STILL_T] = 0.0
        elif ff[f, F_STILL_T] >= prm[S_CAUGHT_STILL] - 1e-9:
            # still before it is down: caught, the first time; falling again it lands there, on
            # landing's share (caught again instead, a caught figure pushed from behind slid
            # and was caught again, never lying; landed, it lies where it slid)
            if fi[f, F_FELL_AGAIN] != 0:
                st = LAND_DOWN
                ff[f, F_STILL_T] = 0.0
            else:
                st = LAND_CAUGHT
        if st != LAND_NONE:
            fi[f, F_LAND] = st
            fi[f, F_LYING] = 0
            ff[f, F_HOLD] = prm[S_HOLD_SHARE] if st == LAND_DOWN else 1.0
            take_shape(f, nb, pbf, pbi, bf, ji)
            if st == LAND_DOWN:
                _keep_tuck(f, nb, pbf, pbi, bf, jf, ji)
            fi[f, F_SHAPE_NEW] = 1
            clear_aims(f, nb, pbi, ji)
            fi[f, F_AIMED] = 0
            return True
        return False
    fi[f, F_SHAPE_NEW] = 0
    if st == LAND_CAUGHT and landed:
        # a caught figure that goes over (kneeling, onto its face) lands: a shape of its own
        fi[f, F_LAND] = LAND_DOWN
        ff[f, F_HOLD] = prm[S_HOLD_SHARE]
        ff[f, F_STILL_T] = 0.0
        take_shape(f, nb, pbf, pbi, bf, ji)
        fi[f, F_SHAPE_NEW] = 1
        return True
    # after lying (or being caught) still, the trunk moving again: it falls again
    settled = fi[f, F_LYING] != 0 or st == LAND_CAUGHT
    # a writhing figure, or one let go to writhe, moves on purpose (_writhe.py): that is no fall;
    # nor, down and hurt, once it has writhed: it stays down until it is got up (set_get_up).
    # Taken as falling again as its writhe ended, the box man from 267 degrees at 410 N·s,
    # sitting up, was caught upright and its balance stood it up
    writhes = (fi[f, F_WRITHE] == WRITHE_ON or fi[f, F_WRITHE] == WRITHE_DOWN
               or fi[f, F_WRITHE] == WRITHE_DONE)
    if settled and not still and not writhes:
        _reset(f, fi, ff)
        fi[f, F_FELL_AGAIN] = 1
        return True
    if st == LAND_DOWN and fi[f, F_LYING] == 0:
        if ff[f, F_STILL_T] >= prm[S_LIE_STEPS] * dt - 1e-9:
            fi[f, F_LYING] = 1
    return changed


# ------------------------------------------------------------------------------ the façade
def landed(body: Motion) -> bool:
    """True once a falling figure has landed (down, or caught on its hands and knees or
    sitting), until it falls again, gets up or is caught upright."""
    m = check(body)
    return bool(service(m.engine).fi[m.slot, F_LAND] != LAND_NONE)


def caught(body: Motion) -> bool:
    """True while a fall is held where it was caught (hands and knees, or sitting)."""
    m = check(body)
    return bool(service(m.engine).fi[m.slot, F_LAND] == LAND_CAUGHT)


def lying(body: Motion) -> bool:
    """True once a landed figure's pelvis and chest have been still for ten steps (until it
    falls again)."""
    m = check(body)
    return bool(service(m.engine).fi[m.slot, F_LYING])
