"""Parts of a figure with a mode and a strength of their own (spec "A part of a figure can have a
mode and a strength of its own", #573, and "A POWERED part on an ANIMATED figure", #658).

The parts are the head, the spine, each arm and each leg (``PART_HEAD`` .. ``PART_LEG_R``); the
pelvis is in none (it carries the balance).

A part's strength is a lasting share of its bones' muscle: ``PB_PART_S`` (``_layout``), 1 by
default, multiplies every budget the module sets, in ``_muscles.muscles_pre`` (the pose drive, a
landed figure's held shape, the ANIMATED springs' caps) and ``_writhe`` (writhing's limbs and the
rest's 15 %), beside the figure's strength and what blows took. A blow's share recovers; this
doesn't, so a blow, a recovery or writhing never restores an injury (a game that clamped its
crippled arm after every step no longer has to). A limb under half its muscle counts as weak for
writhing and the hand to the wound, this share included. The joints' friction (a tenth of the
budget, physics's, acting while a motor is off) follows the share as it follows the figure's
strength (``physics.ragdoll_set_strength`` per bone: figure strength x the part's), keeping a
tenth of it at 0: at the figure's, a shoulder's 8 N·m held an arm at nothing out where it was
(0.6 rad ahead came down 0.03).

A part's mode (``set_part_mode``; ``part_mode``), ANIMATED by default (none of its own: the
part goes with its figure):

* LIMP: it hangs and swings from its parent and collides. On an ANIMATED figure its follow
  anchors are destroyed, not set to nothing (at nothing, the last spring impulse was still
  applied every sub-step and held an arm out on its shoulder's limit, aephysics#76), its joints'
  springs are off, and it is drawn as its bodies hang (the pose phase, after the clip); on a
  POWERED one its joints have no muscle (``muscles_pre``; ``parts_pre`` after writhing's). Its
  joints keep a tenth of their friction (at all of it an arm let go of stayed held out).
* POWERED on an ANIMATED figure (#658): the part's bodies and every body hanging from them lose
  their anchors, and each joint's motor drives toward the clip's turn within the bone's muscle
  (the clip's turn is the joint target the rig's reading hands physics before the step); drawn
  as its joints bend, from its parent as drawn. ``hit`` on it pushes it and stays ANIMATED
  (the pelvis and legs on the clip) unless the blow overcomes the balance. On a POWERED figure a
  POWERED part is as the rest.
* Taken back (ANIMATED again): its anchors are made again where its bodies are, and the drawing
  goes from where it was drawn to the clip over ``take_back`` (0.3 s) under an offset that
  fades (as the hand-overs' do, #581): no pop.

The bones' own modes are worked out when a part's mode is set (``PB_PART_MODE``: a LIMP part's
bones LIMP; a POWERED part's, and the bones hanging from it that no LIMP part holds, POWERED;
the rest -1, the figure's), so the kernels only read a column.

Columns: ``PB_PART_S``, ``PB_PART_OFF``, ``PB_PART_T`` (pbf), ``PB_PART_MODE`` (pbi),
``F_PART_MODE`` (fi). Settings: ``PartsSettings``. Verbs: ``parts_pre`` (after writhing's drives),
``parts_drawn``, ``parts_world_rotations`` and ``parts_mask`` (the pose phase; ``_pose``'s
``draw_parts_rig`` writes the parts into a dressed figure's rig). A body striking a part off
the clip (``_hits``' contact scan, ``struck``) goes by ``hit``'s rule (``keeps_clip``); the
scene file's record keeps each part's mode and strength (``_figures.record``'s ``parts``); a
limp part stays off a get-up's anchors and its dressed bones are drawn where its bodies hang
(``_pose.draw_rig``). Units: shares 0..1, s, rad.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

import numpy as np
from numba import njit

from ae3d import _validate as V
from ae3d import human, physics
from ae3d.physics._layout import B_MASS, B_POS, B_QUAT, J_L_MOTOR, J_MOTOR_MAX

from ._kin import body_pose_local, qdelta_rotvec, qmul, qnorm, turn_into
from ._layout import (
    ANIMATED,
    F_MODE,
    F_PART_MODE,
    F_SHOWN,
    F_STRENGTH,
    FROM_ANIMATION,
    LIMP,
    MAXB,
    PB_BODY,
    PB_DRAWN_Q,
    PB_FOLLOW,
    PB_JOINT,
    PB_PART_MODE,
    PB_PART_OFF,
    PB_PART_S,
    PB_PART_T,
    PB_PREV_P,
    PB_PREV_Q,
    PB_TARGET,
    POWERED,
    S_PART_TAKE_BACK,
)
from ._service import PARENT, Motion, check, service


@dataclass(frozen=True)
class PartsSettings:
    """The parts' tuned constants (packed into the parameter row by ``_settings.pack``)."""

    take_back: float = 0.3
    """s: a part taken back (LIMP or POWERED to ANIMATED on an ANIMATED figure) is drawn from
    where it was drawn to its clip over this, under an offset that fades (spec: 0.3 s; a
    smoothstep, so at 60 Hz an arm hung 0.58 rad off moves at most 0.05 rad a frame)."""

    def pack(self, row: np.ndarray) -> None:
        row[S_PART_TAKE_BACK] = self.take_back


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


# each bone's part (-1: the pelvis, in none)
PART_OF = np.full(MAXB, -1, dtype=np.int64)
for _k, _bones in enumerate(PART_BONES):
    for _b in _bones:
        PART_OF[_b] = _k


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
        # a limp bone keeps a tenth of its friction whatever its share (set_part_mode)
        limp = int(sv.pbi[m.slot, b, PB_PART_MODE]) == LIMP
        physics.ragdoll_set_strength(m.ragdoll,
                                     0.0 if limp else float(sv.ff[m.slot, F_STRENGTH]) * v, b)
    # the budgets follow at the next step (muscles_pre, which wakes the figure when they change)


def apply_friction(m: Motion) -> None:
    """After the figure's strength changed (``set_strength``): each weakened part's joints' physics
    strength (their friction) the figure's times the part's share again."""
    sv = service(m.engine)
    st = float(sv.ff[m.slot, F_STRENGTH])
    for b in range(1, m.ragdoll.bones):
        part = float(sv.pbf[m.slot, b, PB_PART_S])
        limp = int(sv.pbi[m.slot, b, PB_PART_MODE]) == LIMP
        if part != 1.0 or limp:
            physics.ragdoll_set_strength(m.ragdoll, 0.0 if limp else st * part, b)


def part_strength(body: Motion, part: int) -> float:
    """The lasting share of its muscle ``part`` was given (``set_part_strength``; 0..1)."""
    m = check(body)
    k = _part(part)
    b = bones_of(m, k)[0]
    return float(service(m.engine).pbf[m.slot, b, PB_PART_S])


# ------------------------------------------------------------------------------ a part's mode
PART_MODES = (ANIMATED, POWERED, LIMP)   # what set_part_mode takes


def _mode(mode: Any) -> int:
    """``mode`` as ANIMATED, POWERED or LIMP; TypeError/ValueError naming it otherwise."""
    if isinstance(mode, bool | np.bool_) or not isinstance(mode, int | np.integer):
        raise TypeError(f"mode must be motion.ANIMATED, POWERED or LIMP (an int), not "
                        f"{type(mode).__name__}")
    v = int(mode)
    if v not in PART_MODES:
        raise ValueError(f"mode must be motion.ANIMATED, POWERED or LIMP for a part, not {v}")
    return v


def bone_modes(part_modes: np.ndarray, nb: int) -> np.ndarray:
    """(nb,) each bone's own mode from the parts' (``F_PART_MODE``): LIMP for a limp part's
    bones; POWERED for a POWERED part's and for the bones hanging from one that no limp part
    holds (they go on their muscles with it: held to the clip by world anchors, the arms would
    hold a swaying chest where the clip had it); -1, the figure's, for the rest."""
    out = np.full(nb, -1, dtype=np.int64)
    for b in range(1, nb):
        own = int(part_modes[PART_OF[b]]) if PART_OF[b] >= 0 else ANIMATED
        if own == LIMP:
            out[b] = LIMP
        elif own == POWERED or out[PARENT[b]] == POWERED:
            out[b] = POWERED
    return out


def set_part_mode(body: Motion, part: int, mode: int) -> None:
    """Give ``part`` (``PART_*``) a mode of its own: ``LIMP`` (it hangs from its parent: no
    muscle, no anchors, a tenth of its friction), ``POWERED`` (on an ANIMATED figure, the part and
    the bones hanging from it on their own muscles toward the clip, #658) or ``ANIMATED`` (taken
    back: none of its own, it goes with its figure; drawn back to its clip over 0.3 s, its anchors
    made again where its bodies are). The mode lasts through the figure's own hand-overs."""
    m = check(body)
    k = _part(part)
    md = _mode(mode)
    sv = service(m.engine)
    f = m.slot
    r = m.ragdoll
    nb = r.bones
    w = m.engine.physics
    modes = sv.fi[f, F_PART_MODE:F_PART_MODE + PART_COUNT].copy()
    if int(modes[k]) == md:
        return
    modes[k] = md
    old = sv.pbi[f, :nb, PB_PART_MODE].copy()
    new = bone_modes(modes, nb)
    anim = int(sv.fi[f, F_MODE]) in FROM_ANIMATION
    ap = aq = None
    if anim and np.any((old >= 0) & (new < 0)):
        # (imported late: _modes reads this module)
        from ._modes import anim_world

        ap, aq = anim_world(m)
    sv.fi[f, F_PART_MODE:F_PART_MODE + PART_COUNT] = modes
    st = float(sv.ff[f, F_STRENGTH])
    tb = float(sv.prm[S_PART_TAKE_BACK])
    for b in range(1, nb):
        was, now = int(old[b]), int(new[b])
        if was == now:
            continue
        sv.pbi[f, b, PB_PART_MODE] = now
        if (was == LIMP) != (now == LIMP):
            # a limp bone keeps a tenth of its friction; taken back, its share's again
            physics.ragdoll_set_strength(
                r, 0.0 if now == LIMP else st * float(sv.pbf[f, b, PB_PART_S]), b)
        if not anim:
            sv.pbf[f, b, PB_PART_T] = 0.0
            continue
        if now >= 0 and was < 0:
            # off the clip: its anchor destroyed, not set to nothing (aephysics#76)
            physics.ragdoll_unfollow(r, b)
            sv.pbi[f, b, PB_FOLLOW] = -1
            sv.pbf[f, b, PB_PART_T] = 0.0
        elif now < 0 and was >= 0:
            # taken back: the anchor made where its body is (the next step moves its target to
            # the clip, with the clip's velocity from here on)
            s = int(r.bodies[b])
            p = w.bf[s, B_POS:B_POS + 3].copy()
            q = w.bf[s, B_QUAT:B_QUAT + 4].copy()
            sv.pbi[f, b, PB_FOLLOW] = physics.ragdoll_follow(r, b, (p, q))
            sv.pbf[f, b, PB_PREV_P:PB_PREV_P + 3] = ap[b]
            sv.pbf[f, b, PB_PREV_Q:PB_PREV_Q + 4] = aq[b]
            # the drawing's offset from the clip now, faded over take_back
            if int(sv.fi[f, F_SHOWN]):
                d = sv.pbf[f, b, PB_DRAWN_Q:PB_DRAWN_Q + 4]
            else:
                bq = np.zeros((MAXB, 4))
                bt = np.zeros((MAXB, 3))
                body_pose_local(w.bf, w.ji, nb, PARENT, r.bodies, bq, bt)
                d = bq[b]
            t = sv.pbf[f, b, PB_TARGET:PB_TARGET + 4]
            sv.pbf[f, b, PB_PART_OFF:PB_PART_OFF + 3] = qdelta_rotvec(
                t[0], t[1], t[2], t[3], d[0], d[1], d[2], d[3])
            sv.pbf[f, b, PB_PART_T] = tb
    # the budgets and springs follow at the next step (muscles_pre, parts_pre), waking it


def part_mode(body: Motion, part: int) -> int:
    """The mode ``part`` was given (``set_part_mode``): ANIMATED (none of its own, the default),
    POWERED or LIMP."""
    m = check(body)
    k = _part(part)
    return int(service(m.engine).fi[m.slot, F_PART_MODE + k])


def off_clip(m: Motion, b: int) -> bool:
    """Bone ``b`` has a mode of its own (LIMP, or POWERED on its part's muscle): no anchor while
    its figure is ANIMATED (``_modes.hand_over``)."""
    return int(service(m.engine).pbi[m.slot, b, PB_PART_MODE]) >= 0


def keeps_clip(m: Motion, b: int, impulse: float) -> bool:
    """A blow of ``impulse`` N·s on bone ``b`` of an ANIMATED figure leaves it ANIMATED: the bone
    is off the clip (a limp or POWERED part) and the blow doesn't overcome the balance (gives the
    whole figure under ``blow_overcomes``). A heavier blow still takes the figure POWERED."""
    from ._layout import S_BLOW_OVERCOMES
    if not off_clip(m, b):
        return False
    w = m.engine.physics
    total = float(np.sum(w.bf[m.ragdoll.bodies, B_MASS]))
    prm = service(m.engine).prm
    return total > 0.0 and impulse / total <= float(prm[S_BLOW_OVERCOMES])


# ------------------------------------------------------------------------------ the verbs
@njit(cache=True, _nrt=False)
def parts_pre(f, nb, powered, pbi, jf):
    """Before the physics step, after every stage that drives joints (writhing's among them):
    a POWERED figure's LIMP bones keep no muscle. Returns True when a budget changed."""
    changed = False
    if not powered:
        return changed
    for b in range(1, nb):
        if pbi[f, b, PB_PART_MODE] != LIMP:
            continue
        j = pbi[f, b, PB_JOINT]
        if jf[j, J_MOTOR_MAX] != 0.0:
            changed = True
            jf[j, J_MOTOR_MAX] = 0.0
            jf[j, J_L_MOTOR] = 0.0
            jf[j, J_L_MOTOR + 1] = 0.0
            jf[j, J_L_MOTOR + 2] = 0.0
    return changed


@njit(cache=True, _nrt=False)
def parts_drawn(f, dt, nb, pbf, pbi, prm, parent, bf, ji, drawn_q, bq, bt):
    """The pose phase of a figure drawn from its animation (``drawn_q``: the clip's local pose,
    written over): each bone off the clip drawn as its body bends from its parent (a limp part
    as it hangs, a POWERED one as its muscles hold it), and a part taken back from where it was
    drawn to the clip under its fading offset. ``bq``, ``bt``: scratch of MAXB rows. Returns True
    when a bone is drawn off the clip (the rig draws it too)."""
    off = False
    for b in range(1, nb):
        if pbi[f, b, PB_PART_MODE] >= 0:
            off = True
    if off:
        body_pose_local(bf, ji, nb, parent, pbi[f, :, PB_BODY], bq, bt)
    tb = prm[S_PART_TAKE_BACK]
    drawn = False
    for b in range(1, nb):
        if pbi[f, b, PB_PART_MODE] >= 0:
            for c in range(4):
                drawn_q[b, c] = bq[b, c]
            pbf[f, b, PB_PART_T] = 0.0
            drawn = True
        elif pbf[f, b, PB_PART_T] > 0.0:
            t = max(0.0, pbf[f, b, PB_PART_T] - dt)
            pbf[f, b, PB_PART_T] = t
            x = 1.0 - t / tb if tb > 0.0 else 1.0
            k = 1.0 - x * x * (3.0 - 2.0 * x)     # what is left of the offset, eased
            turn_into(pbf[f, b, PB_PART_OFF] * k, pbf[f, b, PB_PART_OFF + 1] * k,
                      pbf[f, b, PB_PART_OFF + 2] * k, drawn_q, b, drawn_q, b)
            drawn = True
    return drawn


@njit(cache=True, _nrt=False)
def parts_world_rotations(nb, parent, drawn_q, out_q):
    """The bodies' world rotations from the local pose drawn (``out_q`` (MAXB, 4))."""
    for c in range(4):
        out_q[0, c] = drawn_q[0, c]
    for b in range(1, nb):
        a = parent[b]
        x, y, z, w = qnorm(*qmul(out_q[a, 0], out_q[a, 1], out_q[a, 2], out_q[a, 3],
                                 drawn_q[b, 0], drawn_q[b, 1], drawn_q[b, 2], drawn_q[b, 3]))
        out_q[b, 0] = x
        out_q[b, 1] = y
        out_q[b, 2] = z
        out_q[b, 3] = w


@njit(cache=True, _nrt=False)
def parts_mask(f, pbi, pbf, body_of, out):
    """``body_of`` with -1 on every rig bone whose ragdoll bone is drawn on the clip (neither off
    it nor being taken back): the rig draws only the parts' bones from the drawing."""
    for i in range(body_of.shape[0]):
        k = body_of[i]
        if k >= 0 and pbi[f, k, PB_PART_MODE] < 0 and not pbf[f, k, PB_PART_T] > 0.0:
            k = -1
        out[i] = k

