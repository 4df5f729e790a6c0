"""Modes and hand-overs: ANIMATED, POWERED, LIMP (GETTING_UP and ACTING are got to, not set), the
animation's pose every mode reads, and an ANIMATED figure's follow anchors.

* ANIMATED: the animation drives, position and all: the follow anchors' targets are the
  animation's bodies in the world, with the velocities that carry them there (finite
  differences over the step), and the joints' springs pull toward its pose (``_muscles``).
* POWERED: the muscles play the animation (``_muscles``), the balance holds (``_balance``).
* LIMP: a ragdoll.

A hand-over (``set_mode``) makes or drops the follow anchors and, for the drawing, starts a blend
(``_pose``): into POWERED the pose shown at the call fades as an offset over ``blend_time``
(#581, #665); POWERED -> ANIMATED blends from the bodies' pose to the animation's.

Columns: ``F_MODE``, ``F_HAS_PREV``, ``F_RESUME``, ``F_ANIM_POS``, ``F_ANIM_ROT``,
``F_SPRING_HZ``; ``PB_TARGET``, ``PB_PREV_P``, ``PB_PREV_Q``, ``PB_FOLLOW`` (``_layout``).
Settings: ``ModesSettings``. Verb: ``modes_pre``. Units: m, s, rad.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

import numpy as np
from numba import njit

from ae3d import physics
from ae3d.physics._layout import A_AHZ, A_HZ, A_TPOS, A_TQUAT, A_TV, A_TW

from . import _checks
from . import _layout as L
from ._kin import anim_bodies, qdelta_rotvec
from ._layout import (
    ANIMATED,
    F_ANIM_POS,
    F_ANIM_ROT,
    F_FALLING,
    F_FOLLOW_HZ,
    F_HAS_PREV,
    F_LETGO,
    F_MODE,
    FROM_ANIMATION,
    MAXB,
    MODE_NAMES,
    PB_FOLLOW,
    PB_LOSS,
    PB_PREV_P,
    PB_PREV_Q,
    PB_TARGET,
    POWERED,
    S_BLEND_TIME,
    S_TELEPORT_SPEED,
    S_TELEPORT_SPIN,
    SETTABLE,
)
from ._service import PARENT, Motion, check, finite, service


@dataclass(frozen=True)
class ModesSettings:
    """The hand-overs' tuned constants (packed into the parameter row by ``_settings.pack``)."""

    blend_time: float = 0.25
    """s: the hand-overs' blends, POWERED -> ANIMATED and the offset fading into POWERED: a
    quarter second hides the jump without the drawing lagging a blow (#581, #665)."""
    teleport_speed: float = 15.0
    """m/s: an animated body's target faster than this has jumped (a clip's loop snapping its
    root back, a pose set anew), not moved: the anchors drag it there with no speed to chase."""
    teleport_spin: float = 40.0
    """rad/s: the same for its turn."""

    def pack(self, row: np.ndarray) -> None:
        row[S_BLEND_TIME] = self.blend_time
        row[S_TELEPORT_SPEED] = self.teleport_speed
        row[S_TELEPORT_SPIN] = self.teleport_spin


# ------------------------------------------------------------------------------ the verbs
@njit(cache=True, inline="always")
def from_animation(mode):
    """True for the modes drawn from the animation, the bodies following it (FROM_ANIMATION)."""
    return mode == ANIMATED or mode == L.GETTING_UP or mode == L.ACTING


@njit(cache=True, _nrt=False)
def modes_pre(f, dt, nb, animated, ff, fi, pbf, pbi, prm, parent, jf, af, scratch_p, scratch_q):
    """Before the physics step, an ANIMATED figure's (``animated``) follow anchors: their targets
    the animation's bodies in the world, with the velocities that carry them there over ``dt``.
    Returns True when a target moves (the figure is woken)."""
    changed = False
    if not animated:
        fi[f, F_HAS_PREV] = 0
        return changed
    anim_bodies(f, nb, parent, ff, pbf, pbi, jf, scratch_p, scratch_q)
    tv = prm[S_TELEPORT_SPEED]
    tw = prm[S_TELEPORT_SPIN]
    keyed = fi[f, F_MODE] == L.GETTING_UP or fi[f, F_MODE] == L.ACTING
    for b in range(nb):
        k = pbi[f, b, PB_FOLLOW]
        if k < 0:
            continue
        # on a keyed way a bone's anchor gives by the muscle a blow took from it, coming back
        # with it over set_recovery (PuppetMaster's unpin): held at full strength, a sitter's
        # head took 60 N·s and moved 4.6 cm (an ANIMATED figure struck goes POWERED instead)
        hz = ff[f, F_FOLLOW_HZ]
        if keyed:
            hz *= 1.0 - min(max(pbf[f, b, PB_LOSS], 0.0), 1.0)
        if ff[f, F_FOLLOW_HZ] > 0.0 and af[k, A_HZ] != hz:
            af[k, A_HZ] = hz
            af[k, A_AHZ] = hz
        vx = vy = vz = wx = wy = wz = 0.0
        if fi[f, F_HAS_PREV] != 0:
            vx = (scratch_p[b, 0] - pbf[f, b, PB_PREV_P]) / dt
            vy = (scratch_p[b, 1] - pbf[f, b, PB_PREV_P + 1]) / dt
            vz = (scratch_p[b, 2] - pbf[f, b, PB_PREV_P + 2]) / dt
            wx, wy, wz = qdelta_rotvec(pbf[f, b, PB_PREV_Q], pbf[f, b, PB_PREV_Q + 1],
                                       pbf[f, b, PB_PREV_Q + 2], pbf[f, b, PB_PREV_Q + 3],
                                       scratch_q[b, 0], scratch_q[b, 1], scratch_q[b, 2],
                                       scratch_q[b, 3])
            wx /= dt
            wy /= dt
            wz /= dt
            # a jump of the animation is not a speed to chase: the anchors drag the bodies there
            if vx * vx + vy * vy + vz * vz > tv * tv:
                vx = vy = vz = 0.0
            if wx * wx + wy * wy + wz * wz > tw * tw:
                wx = wy = wz = 0.0
        for c in range(3):
            af[k, A_TPOS + c] = scratch_p[b, c]
            pbf[f, b, PB_PREV_P + c] = scratch_p[b, c]
        for c in range(4):
            af[k, A_TQUAT + c] = scratch_q[b, c]
            pbf[f, b, PB_PREV_Q + c] = scratch_q[b, c]
        af[k, A_TV] = vx
        af[k, A_TV + 1] = vy
        af[k, A_TV + 2] = vz
        af[k, A_TW] = wx
        af[k, A_TW + 1] = wy
        af[k, A_TW + 2] = wz
        if vx != 0.0 or vy != 0.0 or vz != 0.0 or wx != 0.0 or wy != 0.0 or wz != 0.0:
            changed = True
    fi[f, F_HAS_PREV] = 1
    return changed


# ------------------------------------------------------------------------------ the façade
def set_mode(body: Motion, mode: int) -> None:
    """``ANIMATED``, ``POWERED`` or ``LIMP`` (``GETTING_UP`` and ``ACTING`` are got to, not set).

    Into POWERED from a rig that drove it, the pose shown at the call is kept as an offset that
    fades over 0.25 s (#581, #665); POWERED to ANIMATED blends from the bodies' pose to the
    animation's over 0.25 s."""
    m = check(body)
    if (isinstance(mode, bool) or not isinstance(mode, (int, np.integer))
            or not 0 <= int(mode) < len(MODE_NAMES)):
        raise ValueError(f"mode must be motion.ANIMATED, POWERED or LIMP, not {mode!r}")
    if int(mode) not in SETTABLE:
        raise ValueError(f"mode {MODE_NAMES[int(mode)]} is got to, not set")
    hand_over(m, int(mode))


def hand_over(m: Motion, mode: int, first: bool = False) -> None:
    """Put ``m`` in ``mode``: the follow anchors made or dropped, the powered count, and the
    drawing's blends started (``_pose.hand_over``). ``first``: a new figure, nothing shown yet."""
    from . import _pose
    s = service(m.engine)
    r = m.ragdoll
    old = int(s.fi[m.slot, F_MODE])
    if not first and mode == old:
        return
    if not first and old == L.GETTING_UP:
        # leaving a way up (set_mode ends it where it is; _get_up ends it up first)
        from . import _get_up
        _get_up.end_way(m, False)
    if not first and old == L.ACTING:
        # leaving an action (set_mode ends it where it is; get_up ends it before it rises)
        from . import _act
        _act.end_action(m)
    if not first:
        _pose.snapshot_shown(m)
        if m.rig is not None:
            _pose.rig_hand_over(m, old, mode)
    s.fi[m.slot, F_MODE] = mode
    s.fi[m.slot, F_FALLING] = 0
    s.fi[m.slot, L.F_KNOCKED] = 0
    s.ff[m.slot, F_LETGO] = 0.0
    if mode in FROM_ANIMATION:
        physics.ragdoll_set_powered(r, False)
        # the follow anchors, made where the animation's bodies are
        ap, aq = anim_world(m)
        s.ff[m.slot, F_FOLLOW_HZ] = r.follow_hz
        # a part with a mode of its own has none (#573, #658)
        from ._parts import off_clip

        for b in range(r.bones):
            if off_clip(m, b):
                s.pbi[m.slot, b, PB_FOLLOW] = -1
                continue
            s.pbi[m.slot, b, PB_FOLLOW] = physics.ragdoll_follow(r, b, (ap[b], aq[b]))
        s.fi[m.slot, F_HAS_PREV] = 0
    else:
        physics.ragdoll_unfollow(r)
        s.pbi[m.slot, :, PB_FOLLOW] = -1
        physics.ragdoll_set_powered(r, mode == POWERED)
    _pose.hand_over(m, old, mode, first)


def mode(body: Motion) -> int:
    """The figure's mode: ANIMATED, POWERED, LIMP, GETTING_UP or ACTING."""
    m = check(body)
    return int(service(m.engine).fi[m.slot, F_MODE])


def set_animation(body: Motion, targets: Any = None, pelvis: Any = None) -> None:
    """The animation's pose of a figure without a rig: ``targets`` (n, 4) body-relative rotations
    (qparent^-1 qbone, the ``physics.ragdoll_drive`` convention; row 0 ignored) and ``pelvis`` =
    (position (3,) m, rotation (4,)) of the pelvis body in the world. None keeps a part."""
    m = check(body)
    _checks.animation_args(m, targets, pelvis)
    s = service(m.engine)
    nb = m.ragdoll.bones
    t = None if targets is None else finite(targets, "targets", (nb, 4))
    if t is not None and np.any(np.linalg.norm(t[1:], axis=1) < 1e-9):
        raise ValueError("targets must be non-zero quaternions")
    pp = pq = None
    if pelvis is not None:
        if len(pelvis) != 2:
            raise ValueError("pelvis must be (position, rotation)")
        pp = finite(pelvis[0], "pelvis position", (3,))
        pq = finite(pelvis[1], "pelvis rotation", (4,))
        n = float(np.linalg.norm(pq))
        if n < 1e-9:
            raise ValueError("pelvis rotation must be a non-zero quaternion")
        pq = pq / n
    if t is not None:
        t = t / np.linalg.norm(t, axis=1, keepdims=True).clip(1e-300)
        t[0] = (0.0, 0.0, 0.0, 1.0)
        s.pbf[m.slot, :nb, PB_TARGET:PB_TARGET + 4] = t
    if pp is not None:
        s.ff[m.slot, F_ANIM_POS:F_ANIM_POS + 3] = pp
        s.ff[m.slot, F_ANIM_ROT:F_ANIM_ROT + 4] = pq


def animation(body: Motion) -> tuple[np.ndarray, tuple[np.ndarray, np.ndarray]]:
    """(targets (n, 4), (pelvis position (3,) m, pelvis rotation (4,))): the animation's pose."""
    m = check(body)
    s = service(m.engine)
    nb = m.ragdoll.bones
    return (s.pbf[m.slot, :nb, PB_TARGET:PB_TARGET + 4].copy(),
            (s.ff[m.slot, F_ANIM_POS:F_ANIM_POS + 3].copy(),
             s.ff[m.slot, F_ANIM_ROT:F_ANIM_ROT + 4].copy()))


def anim_world(m: Motion) -> tuple[np.ndarray, np.ndarray]:
    """(n, 3) m, (n, 4): where the animation has each body in the world."""
    s = service(m.engine)
    nb = m.ragdoll.bones
    p = np.zeros((MAXB, 3))
    q = np.zeros((MAXB, 4))
    anim_bodies(m.slot, nb, PARENT, s.ff, s.pbf, s.pbi, m.engine.physics.jf, p, q)
    return p[:nb], q[:nb]


__all__ = ["FROM_ANIMATION", "ModesSettings", "modes_pre", "set_mode", "hand_over", "mode",
           "set_animation", "animation", "anim_world"]
