"""Parts of a figure with a strength of their own (spec "A part of a figure can have a mode and a
strength of its own", #573).

The parts are the head, the spine, each arm and each leg (``PART_HEAD`` .. ``PART_LEG_R``); the
pelvis is in none (it carries the balance). A part's strength is a lasting share of its bones'
muscle: ``PB_PART_S`` (``_layout``), 1 by default, multiplies every budget the module sets, in
``_muscles.muscles_pre`` (the pose drive, a landed figure's held shape, the ANIMATED springs'
caps) and ``_writhe`` (writhing's limbs and the rest's 15 %), beside the figure's strength and
what blows took. A blow's share recovers; this doesn't, so a blow, a recovery or writhing never
restores an injury (a game that clamped its crippled arm after every step no longer has to).
A limb under half its muscle counts as weak for writhing and the hand to the wound, this share
included. The joints' friction (a tenth of the budget, physics's, acting while a motor is off)
follows the share as it follows the figure's strength (``physics.ragdoll_set_strength`` per bone:
figure strength x the part's), keeping a tenth of it at 0: at the figure's, a shoulder's 8 N·m
held an arm at nothing out where it was (0.6 rad ahead came down 0.03).

Not yet here: a part's own mode (``set_part_mode``: a limp part, a POWERED part on an ANIMATED
figure, #658), the issue's later steps.

Column: ``PB_PART_S`` (per bone). No verb of its own: the budgets' kernels read the column.
Units: shares 0..1.
"""

from __future__ import annotations

from typing import Any

import numpy as np

from ae3d import _validate as V
from ae3d import human, physics

from ._layout import F_STRENGTH, PB_PART_S
from ._service import Motion, check, service

PART_HEAD = 0    # the neck and head
PART_SPINE = 1   # the lower back and the chest
PART_ARM_L = 2   # the left upper arm and forearm
PART_ARM_R = 3
PART_LEG_L = 4   # the left thigh and calf (and foot, on a ragdoll with feet)
PART_LEG_R = 5
PART_COUNT = 6
PART_NAMES = ("head", "spine", "arm_l", "arm_r", "leg_l", "leg_r")   # index: the part int

# the bones of each part (human.BONE_*); a bone past the ragdoll's count is left out
PART_BONES = (
    (human.BONE_NECK,),
    (human.BONE_SPINE_01, human.BONE_SPINE_03),
    (human.BONE_UPPERARM_L, human.BONE_LOWERARM_L),
    (human.BONE_UPPERARM_R, human.BONE_LOWERARM_R),
    (human.BONE_THIGH_L, human.BONE_CALF_L, human.BONE_FOOT_L),
    (human.BONE_THIGH_R, human.BONE_CALF_R, human.BONE_FOOT_R),
)


def _part(part: Any) -> int:
    """``part`` as a part int; TypeError/ValueError naming it otherwise."""
    if isinstance(part, bool | np.bool_) or not isinstance(part, int | np.integer):
        raise TypeError(f"part must be a motion.PART_* constant (an int), not "
                        f"{type(part).__name__}")
    k = int(part)
    if not 0 <= k < PART_COUNT:
        raise ValueError(f"part must be one of motion.PART_HEAD .. PART_LEG_R "
                         f"(0..{PART_COUNT - 1}), not {k}")
    return k


def bones_of(m: Motion, part: int) -> tuple[int, ...]:
    """The bones of ``part`` that ``m``'s ragdoll has."""
    return tuple(b for b in PART_BONES[part] if b < m.ragdoll.bones)


def set_part_strength(body: Motion, part: int, s: float) -> None:
    """Give ``part`` (``PART_*``) a lasting share ``s`` in [0, 1] of its muscle (1 by default):
    every budget its joints are given is multiplied by it, on top of the figure's strength and
    what blows take, and nothing restores it but another call."""
    m = check(body)
    k = _part(part)
    v = V.real(s, "s (the part's strength)", lo=0.0, hi=1.0)
    sv = service(m.engine)
    for b in bones_of(m, k):
        sv.pbf[m.slot, b, PB_PART_S] = v
        physics.ragdoll_set_strength(m.ragdoll, float(sv.ff[m.slot, F_STRENGTH]) * v, b)
    # the budgets follow at the next step (muscles_pre, which wakes the figure when they change)


def apply_friction(m: Motion) -> None:
    """After the figure's strength changed (``set_strength``): each weakened part's joints' physics
    strength (their friction) the figure's times the part's share again."""
    sv = service(m.engine)
    st = float(sv.ff[m.slot, F_STRENGTH])
    for b in range(1, m.ragdoll.bones):
        part = float(sv.pbf[m.slot, b, PB_PART_S])
        if part != 1.0:
            physics.ragdoll_set_strength(m.ragdoll, st * part, b)


def part_strength(body: Motion, part: int) -> float:
    """The lasting share of its muscle ``part`` was given (``set_part_strength``; 0..1)."""
    m = check(body)
    k = _part(part)
    b = bones_of(m, k)[0]
    return float(service(m.engine).pbf[m.slot, b, PB_PART_S])
