"""Muscles: every joint's budget, what blows take of it and how it comes back (spec "On muscles").

A joint's muscle is its motor: POWERED, a pose drive toward the animation's pose (the physics
kernel asks it for the relative angular velocity that closes the gap in ``drive_time``, capped at
``drive_max_w``) within its budget, full budget x figure strength x (1 - the share a blow took).
A landed figure's motors hold the shape it landed in instead (``_landing.py``'s ``F_HOLD`` and
``PB_HELD_Q``), on that share of the budget, braking near it. ANIMATED, the motor is off and the
joint's spring (the ragdoll's ``a`` Hz, critically damped) pulls toward the pose instead: a
spring's stiffness is relative to two small inertias and sags, so it is no muscle (spec "A
joint's muscle is its motor"). LIMP: neither; joint friction only.

A blow's share comes back linearly over the recovery time (``set_recovery``).

Columns: ``F_STRENGTH``, ``F_RECOVERY``; ``PB_FULL``, ``PB_LOSS``, ``PB_LRATE`` (``_layout``).
Settings: ``MusclesSettings``. Verb: ``muscles_pre``. Units: s, N·m, rad/s.
"""

from __future__ import annotations

import math
from dataclasses import dataclass
from typing import Any

import numpy as np
from numba import njit

from ae3d import human, physics
from ae3d.physics._layout import (
    DRIVE_AIM,
    DRIVE_POSE,
    J_DEADBAND,
    J_DRIVE,
    J_DRIVE_MAX_W,
    J_DRIVE_TIME,
    J_FEED,
    J_L_MOTOR,
    J_L_SPRING,
    J_MOTOR_MAX,
    J_SPRING_HZ,
    J_SPRING_MAX,
    J_SPRING_ZETA,
    J_TARGET,
)

from . import _checks
from ._kin import qnorm
from ._layout import (
    F_HOLD,
    F_RECOVERY,
    F_SPRING_HZ,
    F_STRENGTH,
    LIMP,
    PB_FULL,
    PB_HELD_Q,
    PB_JOINT,
    PB_LOSS,
    PB_LRATE,
    PB_PART_MODE,
    PB_PART_S,
    PB_TARGET,
    POWERED,
    S_DRIVE_MAX_W,
    S_DRIVE_TIME,
    S_HOLD_BRAKE,
    S_RECOVERY,
)
from ._service import Motion, bone_of, check, service


@dataclass(frozen=True)
class MusclesSettings:
    """The muscles' tuned constants (packed into the parameter row by ``_settings.pack``)."""

    recovery: float = 0.8
    """s: a blow's share comes back over this by default (spec "On muscles": back to full
    within a second; the struck arm's 8 N·s is at 5 % then full again in test_motion)."""
    drive_time: float = human.DRIVE_TIME
    """s: a POWERED joint's drive closes its gap to the pose in this (human.DRIVE_TIME: the
    tracker keeps within 1.6 deg of its bow at 50 ms)."""
    drive_max_w: float = human.DRIVE_MAX_SPEED
    """rad/s: the most relative angular velocity a drive asks (human.DRIVE_MAX_SPEED)."""

    def pack(self, row: np.ndarray) -> None:
        row[S_RECOVERY] = self.recovery
        row[S_DRIVE_TIME] = self.drive_time
        row[S_DRIVE_MAX_W] = self.drive_max_w


# ------------------------------------------------------------------------------ the verb
@njit(cache=True, _nrt=False)
def muscles_pre(f, dt, nb, powered, animated, ff, pbf, pbi, prm, jf, ji):
    """Before the physics step, figure f's muscles: the blows' shares recover, and every joint
    gets the animation's pose as its target, its motor's budget (POWERED) and its spring
    (``animated``: ANIMATED and the modes drawn from the animation). Returns True when a joint's
    target, budget or spring changed (the figure is woken)."""
    # a blow's share comes back over the recovery time
    for b in range(nb):
        if pbf[f, b, PB_LOSS] > 0.0:
            pbf[f, b, PB_LOSS] -= pbf[f, b, PB_LRATE] * dt
            if pbf[f, b, PB_LOSS] <= 1e-12:
                pbf[f, b, PB_LOSS] = 0.0
                pbf[f, b, PB_LRATE] = 0.0
    s = ff[f, F_STRENGTH]
    drive_time = prm[S_DRIVE_TIME]
    drive_max_w = prm[S_DRIVE_MAX_W]
    # a landed figure holds the shape it landed in (_landing.py): on F_HOLD of each budget,
    # braking within the hold's brake of it rather than chasing it
    hold = ff[f, F_HOLD] if powered else 0.0
    src = PB_HELD_Q if hold > 0.0 else PB_TARGET
    share = hold if hold > 0.0 else 1.0
    band = prm[S_HOLD_BRAKE] if hold > 0.0 else 0.0
    changed = False
    for b in range(1, nb):
        j = pbi[f, b, PB_JOINT]
        x, y, z, w = qnorm(pbf[f, b, src], pbf[f, b, src + 1],
                           pbf[f, b, src + 2], pbf[f, b, src + 3])
        d = (abs(jf[j, J_TARGET] - x) + abs(jf[j, J_TARGET + 1] - y)
             + abs(jf[j, J_TARGET + 2] - z) + abs(jf[j, J_TARGET + 3] - w))
        if d > 1e-9:
            changed = True
        jf[j, J_TARGET] = x
        jf[j, J_TARGET + 1] = y
        jf[j, J_TARGET + 2] = z
        jf[j, J_TARGET + 3] = w
        # the part's lasting share (_parts.py) on top of what blows left: never restored
        part = pbf[f, b, PB_PART_S]
        budget = (pbf[f, b, PB_FULL] * s * (1.0 - pbf[f, b, PB_LOSS]) * part * share
                  if powered else 0.0)
        # a part's own mode (_parts.py): a limp one has no muscle; a POWERED one on an ANIMATED
        # figure drives toward the clip's turn on its bone's muscle, its spring off (#658)
        own = pbi[f, b, PB_PART_MODE]
        if own == LIMP:
            budget = 0.0
        elif own == POWERED and animated:
            budget = pbf[f, b, PB_FULL] * s * (1.0 - pbf[f, b, PB_LOSS]) * part
        if budget != jf[j, J_MOTOR_MAX]:
            changed = True
            if budget == 0.0:
                jf[j, J_L_MOTOR] = 0.0
                jf[j, J_L_MOTOR + 1] = 0.0
                jf[j, J_L_MOTOR + 2] = 0.0
        jf[j, J_MOTOR_MAX] = budget
        # a POWERED part on an ANIMATED figure (#658) feeds the clip's own turning forward
        # (physics' _drive_wt_fed): a servo alone trailed Idle's sway, the head 0.066 cm off its
        # clip against the spec's 0.01. Only there for now: on a POWERED figure it follows the
        # clip closer too (Idle: each joint 0.00003 rad off on average, was 0.00035) but it feeds
        # forward what writhing, stepping and the ways up write over the clip as well, and the
        # writhing sweep changed (a writher stopping 5 steps early; session 9, drive4)
        jf[j, J_FEED] = 1.0 if own == POWERED and animated and budget > 0.0 else 0.0
        jf[j, J_DRIVE_TIME] = drive_time
        jf[j, J_DRIVE_MAX_W] = drive_max_w
        jf[j, J_DEADBAND] = band
        if ji[j, J_DRIVE] != DRIVE_AIM:
            ji[j, J_DRIVE] = DRIVE_POSE
        hz = ff[f, F_SPRING_HZ] if animated and own < 0 else 0.0
        if hz != jf[j, J_SPRING_HZ]:
            changed = True
            if hz == 0.0:
                jf[j, J_L_SPRING] = 0.0
                jf[j, J_L_SPRING + 1] = 0.0
                jf[j, J_L_SPRING + 2] = 0.0
        jf[j, J_SPRING_HZ] = hz
        jf[j, J_SPRING_ZETA] = 1.0
        jf[j, J_SPRING_MAX] = pbf[f, b, PB_FULL] * s * (1.0 - pbf[f, b, PB_LOSS]) * part
    return changed


# ------------------------------------------------------------------------------ the façade
def set_strength(body: Motion, s: float) -> None:
    """Scale every budget by ``s`` in [0, 1] (0 is limp, 1 full strength), the balance too."""
    m = check(body)
    _checks.strength(s)
    try:
        v = float(s)
    except (TypeError, ValueError):
        raise ValueError("s must be a number in [0, 1]") from None
    if not (0.0 <= v <= 1.0):
        raise ValueError("s must be in [0, 1]")
    service(m.engine).ff[m.slot, F_STRENGTH] = v
    physics.ragdoll_set_strength(m.ragdoll, v)
    from ._parts import apply_friction  # the parts' shares of it kept (_parts.py)

    apply_friction(m)


def strength(body: Motion, bone: int | None = None) -> float:
    """The figure's strength, or one bone's muscle now (0..1: strength x what blows left x its
    part's lasting share, ``set_part_strength``)."""
    m = check(body)
    sv = service(m.engine)
    if bone is None:
        return float(sv.ff[m.slot, F_STRENGTH])
    b = bone_of(m, bone)
    return float(sv.ff[m.slot, F_STRENGTH] * (1.0 - sv.pbf[m.slot, b, PB_LOSS])
                 * sv.pbf[m.slot, b, PB_PART_S])


def set_recovery(body: Motion, seconds: float) -> None:
    """A blow's share of a muscle comes back over ``seconds`` (s, > 0; 0.8 by default)."""
    m = check(body)
    _checks.seconds(seconds, positive=True)
    try:
        v = float(seconds)
    except (TypeError, ValueError):
        raise ValueError("seconds must be a positive number") from None
    if not (math.isfinite(v) and v > 0.0):
        raise ValueError("seconds must be a positive finite number")
    service(m.engine).ff[m.slot, F_RECOVERY] = v


def take(s: Any, m: Motion, b: int, share: float) -> None:
    """A blow takes ``share`` (0..1) of bone ``b``'s muscle, if more than it has lost already;
    it comes back over the figure's recovery time."""
    if share > s.pbf[m.slot, b, PB_LOSS]:
        s.pbf[m.slot, b, PB_LOSS] = share
    s.pbf[m.slot, b, PB_LRATE] = s.pbf[m.slot, b, PB_LOSS] / s.ff[m.slot, F_RECOVERY]
