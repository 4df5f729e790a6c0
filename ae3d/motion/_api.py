"""The motion calls: making, modes, strength, blows, the animation's pose and the pose drawn.

Every call validates before it writes anything (DESIGN.md "Conventions"). Units: m, s, rad,
N·s, N·m; quaternions (x, y, z, w).
"""

from __future__ import annotations

import math
from typing import Any

import numpy as np

from ae3d import physics
from ae3d.physics import _layout as L

from . import _checks
from . import _kernels as K
from ._state import (
    BLEND_TIME,
    BLOW_OVERCOMES,
    HIT_CAP,
    HIT_SPEED,
    MAXB,
    NEIGHBOURS,
    PARENT,
    Motion,
    service,
)

MODES = {K.ANIMATED: "animated", K.POWERED: "powered", K.LIMP: "limp",
         K.GETTING_UP: "getting_up", K.ACTING: "acting"}
SETTABLE = (K.ANIMATED, K.POWERED, K.LIMP)


# ------------------------------------------------------------------------------ checks
def check(body: Any) -> Motion:
    """The live Motion ``body``; TypeError/ValueError naming it otherwise."""
    if not isinstance(body, Motion):
        raise TypeError(f"body must be an active ragdoll (motion.active_ragdoll), not "
                        f"{type(body).__name__}")
    if body.released:
        raise ValueError("body was destroyed (its active ragdoll is released)")
    if body.engine.closed:
        raise ValueError("body's engine is closed")
    if body.ragdoll.destroyed:
        raise ValueError("body's ragdoll was destroyed")
    return body


def _finite(x: Any, name: str, shape: tuple) -> np.ndarray:
    try:
        a = np.asarray(x, dtype=np.float64)
    except (TypeError, ValueError):
        raise ValueError(f"{name} must be numbers of shape {shape}") from None
    if a.shape != shape:
        a = a.reshape(-1) if a.size == int(np.prod(shape)) else a
        if a.size != int(np.prod(shape)):
            raise ValueError(f"{name} must have shape {shape}")
        a = a.reshape(shape)
    if not np.all(np.isfinite(a)):
        raise ValueError(f"{name} must be finite")
    return a


def _bone(m: Motion, bone: Any) -> int:
    if isinstance(bone, bool) or not isinstance(bone, (int, np.integer)):
        raise ValueError(f"bone must be a human.BONE_* constant, not {bone!r}")
    b = int(bone)
    if not 0 <= b < m.ragdoll.bones:
        raise ValueError(f"bone {b} is not a bone of this ragdoll ({m.ragdoll.bones} bones)")
    return b


# ------------------------------------------------------------------------------ making
def active_ragdoll(r: Any) -> Motion:
    """An active ragdoll on physics ragdoll ``r`` (``physics.ragdoll``), ANIMATED to begin with.

    Its animation's pose is the rig's where ``r`` is dressed (``physics.ragdoll_dress``), else
    the ragdoll's standing pose where it stands (``set_animation`` changes it)."""
    if not isinstance(r, physics.Ragdoll):
        raise TypeError(f"r must be a physics.Ragdoll, not {type(r).__name__}")
    if r.destroyed:
        raise ValueError("r was destroyed")
    e = r.engine
    if e.closed:
        raise ValueError("r's engine is closed")
    s = service(e)
    for h in s.handles[: s.n]:
        if h is not None and h.ragdoll is r:
            raise ValueError("r already has an active ragdoll")
    slot = s.new_row()
    w = e.physics
    nb = r.bones
    s.alive[slot] = 1
    s.stepped[slot] = 0
    s.owner[slot] = r.id
    s.mode[slot] = K.ANIMATED
    s.nbones[slot] = nb
    s.joints[slot] = -1
    s.joints[slot, :nb] = r.joints
    s.bodies[slot] = -1
    s.bodies[slot, :nb] = r.bodies
    s.full[slot] = 0.0
    s.full[slot, :nb] = r.budgets
    s.fstrength[slot] = 1.0
    s.loss[slot] = 0.0
    s.lrate[slot] = 0.0
    s.targets[slot] = (0.0, 0.0, 0.0, 1.0)
    s.targets[slot, :nb] = physics.ragdoll_rest_targets(r)
    pel = int(r.bodies[0])
    s.anim_pos[slot] = w.bf[pel, L.B_POS:L.B_POS + 3]
    s.anim_rot[slot] = w.bf[pel, L.B_QUAT:L.B_QUAT + 4]
    s.has_prev[slot] = 0
    s.follow[slot] = -1
    s.upright[slot] = r.upright
    s.heading[slot] = r.heading
    s.lean[slot] = 0.0
    s.max_lean[slot] = 0.0
    s.falling[slot] = 0
    s.letgo[slot] = 0.0
    s.spring_hz[slot] = r.spring_hz
    m = Motion(engine=e, slot=slot, ragdoll=r)
    s.handles[slot] = m
    rig = _rig_of(r)
    if rig is not None:
        m.rig = rig
        s.dressed.append(m)
        read_rig(m)
    _set_mode(m, K.ANIMATED, first=True)
    return m


def _dress() -> Any:
    from . import _dress as D  # rig <-> bodies (was ae3d.physics._dress)
    return D


def _rig_of(r: Any) -> Any:
    """The rig ``r`` is dressed in, or None."""
    return _dress().ragdoll_dressed(r)


def attach(e: Any, body: Motion) -> None:
    """Step ``body`` with engine ``e``: every fixed step (before and after physics) and posed
    after the clips each frame. Adds its Motion component to its object (one is made for a
    ragdoll built by hand), so destroying the object takes the figure with it (#714)."""
    m = check(body)
    if m.engine is not e:
        raise ValueError("body belongs to another engine")
    s = service(e)
    if s.stepped[m.slot]:
        return
    s.stepped[m.slot] = 1
    if m.object is None:
        m.object = e.create(m)
    elif e.component(m.object, Motion) is None:
        e.add_component(m.object, m)


def release(m: Motion, destroy_ragdoll: bool = True) -> None:
    """Free ``m``'s row; its ragdoll's bodies out of the world (``destroy_ragdoll``)."""
    if m.released:
        return
    e = m.engine
    s = e.services.get("motion")
    r = m.ragdoll
    if destroy_ragdoll and not r.destroyed and e.physics is not None:
        physics.ragdoll_destroy(r)
    elif not r.destroyed and e.physics is not None:
        physics.ragdoll_unfollow(r)
        physics.ragdoll_set_powered(r, False)
    if s is not None:
        s.free_row(m.slot)
    m.released = True


# ------------------------------------------------------------------------------ modes
def set_mode(body: Motion, mode: int) -> None:
    """``ANIMATED``, ``POWERED`` or ``LIMP`` (``GETTING_UP`` and ``ACTING`` are got to, not set).

    Into POWERED from a rig that drove it, the pose shown at the call is kept as an offset that
    fades over 0.25 s (#581, #665); POWERED to ANIMATED blends from the bodies' pose to the
    animation's over 0.25 s."""
    m = check(body)
    if isinstance(mode, bool) or not isinstance(mode, (int, np.integer)) or int(mode) not in MODES:
        raise ValueError(f"mode must be motion.ANIMATED, POWERED or LIMP, not {mode!r}")
    if int(mode) not in SETTABLE:
        raise ValueError(f"mode {MODES[int(mode)]} is got to, not set")
    _set_mode(m, int(mode))


def _set_mode(m: Motion, mode: int, first: bool = False) -> None:
    s = service(m.engine)
    r = m.ragdoll
    old = int(s.mode[m.slot])
    if not first and mode == old:
        return
    if not first:
        _snapshot_shown(m)
        if m.rig is not None:
            _rig_handover(m, old, mode)
    s.mode[m.slot] = mode
    s.falling[m.slot] = 0
    s.letgo[m.slot] = 0.0
    if mode == K.ANIMATED:
        physics.ragdoll_set_powered(r, False)
        # the follow anchors, made where the animation's bodies are
        ap, aq = anim_world(m)
        for b in range(r.bones):
            s.follow[m.slot, b] = physics.ragdoll_follow(r, b, (ap[b], aq[b]))
        s.has_prev[m.slot] = 0
        if (not first and old in (K.POWERED, K.LIMP) and m.shown_valid
                and m.drawn_q is not None and m.drawn_t is not None):
            m.blend = 2
            m.blend_t = 0.0
            m.blend_from_q = m.drawn_q.copy()
            m.blend_from_t = m.drawn_t.copy()
        else:
            m.blend = 0
    else:
        physics.ragdoll_unfollow(r)
        s.follow[m.slot] = -1
        physics.ragdoll_set_powered(r, mode == K.POWERED)
        if old in (K.ANIMATED, K.GETTING_UP, K.ACTING) and m.shown_valid:
            # the pose shown at the call, as an offset from the bodies that fades (#581)
            bq, bt = _body_local(m)
            m.off_a = np.zeros(bq.shape[0])
            m.off_d = np.zeros(bq.shape[0])
            K.offset_size(m.drawn_q, m.drawn_t, bq, bt, m.off_a, m.off_d)
            m.blend = 1
            m.blend_t = 0.0
        elif m.blend == 2:
            m.blend = 0


def mode(body: Motion) -> int:
    """The figure's mode: ANIMATED, POWERED, LIMP, GETTING_UP or ACTING."""
    m = check(body)
    return int(service(m.engine).mode[m.slot])


def falling(body: Motion) -> bool:
    """True while a POWERED figure leans more than 0.35 rad from its pose (until it leans less
    than half that again)."""
    m = check(body)
    return bool(service(m.engine).falling[m.slot])


def lean(body: Motion) -> float:
    """rad: the pelvis's up against the animation's, after the last step."""
    m = check(body)
    return float(service(m.engine).lean[m.slot])


# ------------------------------------------------------------------------------ strength and blows
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
    service(m.engine).fstrength[m.slot] = v
    physics.ragdoll_set_strength(m.ragdoll, v)


def strength(body: Motion, bone: int | None = None) -> float:
    """The figure's strength, or one bone's muscle now (0..1: strength x what blows left)."""
    m = check(body)
    sv = service(m.engine)
    if bone is None:
        return float(sv.fstrength[m.slot])
    b = _bone(m, bone)
    return float(sv.fstrength[m.slot] * (1.0 - sv.loss[m.slot, b]))


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
    m.recovery = v


def hit(body: Motion, bone: int, point: Any, impulse: Any, use_cost: bool = False,
        cost: float | None = None) -> None:
    """Strike ``bone`` at ``point`` (3,) m with ``impulse`` (3,) N·s.

    The blow takes a share of the struck bone's muscle and half that of its neighbours', coming
    back over ``set_recovery`` seconds: by default the speed the blow gives the struck bone over
    1.6 m/s, capped at 95 %; ``hit(body, bone, point, impulse, True, cost)`` takes cost x 95 %
    instead (cost in [0, 1]). An ANIMATED figure goes POWERED the moment it is struck (#581)."""
    m = check(body)
    _checks.hit_args(m, bone, point, impulse, use_cost, cost)
    b = _bone(m, bone)
    p = _finite(point, "point", (3,))
    j = _finite(impulse, "impulse", (3,))
    share = None
    if use_cost:
        if cost is None:
            raise ValueError("cost must be given with use_cost")
        try:
            c = float(cost)
        except (TypeError, ValueError):
            raise ValueError("cost must be a number in [0, 1]") from None
        if not (0.0 <= c <= 1.0):
            raise ValueError("cost must be in [0, 1]")
        share = c * HIT_CAP
    e = m.engine
    w = e.physics
    slot = int(m.ragdoll.bodies[b])
    s = service(e)
    if int(s.mode[m.slot]) in (K.ANIMATED,):
        _set_mode(m, K.POWERED)
    _blow_takes(m, b, float(np.linalg.norm(j)), share)
    physics.apply_impulse(e, w.handle(slot), j, p)


def _blow_takes(m: Motion, b: int, impulse: float, share: float | None) -> None:
    """What a blow of ``impulse`` N·s on bone ``b`` takes: ``share`` of its muscle (None: the
    speed it gives the bone over 1.6 m/s, capped at 95 %), half that of its neighbours', and the
    balance when it gives the whole figure more than 2.4 m/s."""
    w = m.engine.physics
    r = m.ragdoll
    s = service(m.engine)
    if share is None:
        mass = float(w.bf[int(r.bodies[b]), L.B_MASS])
        share = min(HIT_CAP, impulse / mass / HIT_SPEED)
    _take(s, m, b, share)
    for nb in NEIGHBOURS[b]:
        if nb < r.bones:
            _take(s, m, nb, 0.5 * share)
    # a blow past what the balance keeps lets its anchor go (the kernels' pre_step): held, the
    # anchor on the world took the blow's turn out of the pelvis and the figure slid on its feet
    total = float(np.sum(w.bf[r.bodies, L.B_MASS]))
    if total > 0.0 and impulse / total > BLOW_OVERCOMES:
        s.letgo[m.slot] = K.LETGO_TIME


def struck(m: Motion, bone: int, impulse: float) -> None:
    """An ANIMATED figure struck by a body in the step just taken (``_struck``): POWERED, and the
    blow takes its share as ``hit``'s does. The blow already moved the bodies, so the hand-over's
    offset is measured from where they were as the step began: what the blow did shows on the
    frame it landed (#581), as a ``hit`` does."""
    w = m.engine.physics
    slots = np.asarray(m.ragdoll.bodies, dtype=np.int64)
    now_p = w.bf[slots, L.B_POS:L.B_POS + 3].copy()
    now_q = w.bf[slots, L.B_QUAT:L.B_QUAT + 4].copy()
    w.bf[slots, L.B_POS:L.B_POS + 3] = w.bf[slots, L.B_POS0:L.B_POS0 + 3]
    w.bf[slots, L.B_QUAT:L.B_QUAT + 4] = w.bf[slots, L.B_QUAT0:L.B_QUAT0 + 4]
    try:
        _set_mode(m, K.POWERED)
    finally:
        w.bf[slots, L.B_POS:L.B_POS + 3] = now_p
        w.bf[slots, L.B_QUAT:L.B_QUAT + 4] = now_q
    _blow_takes(m, bone, impulse, None)


def _take(s: Any, m: Motion, b: int, share: float) -> None:
    if share > s.loss[m.slot, b]:
        s.loss[m.slot, b] = share
    s.lrate[m.slot, b] = s.loss[m.slot, b] / m.recovery


# ------------------------------------------------------------------------------ the animation
def set_animation(body: Motion, targets: Any = None, pelvis: Any = None) -> None:
    """The animation's pose of a figure without a rig: ``targets`` (n, 4) body-relative rotations
    (qparent^-1 qbone, the ``physics.ragdoll_drive`` convention; row 0 ignored) and ``pelvis`` =
    (position (3,) m, rotation (4,)) of the pelvis body in the world. None keeps a part."""
    m = check(body)
    _checks.animation_args(m, targets, pelvis)
    s = service(m.engine)
    nb = m.ragdoll.bones
    t = None if targets is None else _finite(targets, "targets", (nb, 4))
    if t is not None and np.any(np.linalg.norm(t[1:], axis=1) < 1e-9):
        raise ValueError("targets must be non-zero quaternions")
    pp = pq = None
    if pelvis is not None:
        if len(pelvis) != 2:
            raise ValueError("pelvis must be (position, rotation)")
        pp = _finite(pelvis[0], "pelvis position", (3,))
        pq = _finite(pelvis[1], "pelvis rotation", (4,))
        n = float(np.linalg.norm(pq))
        if n < 1e-9:
            raise ValueError("pelvis rotation must be a non-zero quaternion")
        pq = pq / n
    if t is not None:
        t = t / np.linalg.norm(t, axis=1, keepdims=True).clip(1e-300)
        t[0] = (0.0, 0.0, 0.0, 1.0)
        s.targets[m.slot, :nb] = t
    if pp is not None:
        s.anim_pos[m.slot] = pp
        s.anim_rot[m.slot] = pq


def animation(body: Motion) -> tuple[np.ndarray, tuple[np.ndarray, np.ndarray]]:
    """(targets (n, 4), (pelvis position (3,) m, pelvis rotation (4,))): the animation's pose."""
    m = check(body)
    s = service(m.engine)
    nb = m.ragdoll.bones
    return s.targets[m.slot, :nb].copy(), (s.anim_pos[m.slot].copy(), s.anim_rot[m.slot].copy())


def anim_world(m: Motion) -> tuple[np.ndarray, np.ndarray]:
    """(n, 3) m, (n, 4): where the animation has each body in the world."""
    s = service(m.engine)
    nb = m.ragdoll.bones
    p = np.zeros((MAXB, 3))
    q = np.zeros((MAXB, 4))
    K.anim_bodies(m.slot, nb, PARENT, s.joints, s.targets, s.anim_pos, s.anim_rot,
                  m.engine.physics.jf, p, q)
    return p[:nb], q[:nb]


def read_rig(m: Motion) -> None:
    """Before a step, a dressed figure's animation's pose from its rig (the dressing keeps it
    beside the rig: what the animation wrote since the bodies last did, bone by bone): the
    pelvis's pose and every joint's target (body-relative, the ragdoll_drive convention). One
    njit call (``_kernels.read_dressed``) on the dressing's own arrays."""
    d = m.extra.get("dressing")
    if d is None:
        d = _dress().ragdoll_dressing(m.ragdoll)
        nb = m.ragdoll.bones
        m.extra["dressing"] = d
        m.extra["scratch"] = (np.zeros((m.rig.count, 4, 4)), np.zeros((nb, 3)), np.zeros((nb, 4)))
    world, p, q = m.extra["scratch"]
    s = service(m.engine)
    rig = m.rig
    K.read_dressed(rig.translation, rig.rotation, rig.scale, d.written_t, d.written_q, d.anim_t,
                   d.anim_q, d.anim_s, rig.parents, rig.root, world, d.rig_bones, d.off_p,
                   d.off_q, m.ragdoll.bones, PARENT, p, q, s.targets[m.slot], s.anim_pos[m.slot],
                   s.anim_rot[m.slot])


# ------------------------------------------------------------------------------ the pose drawn
def _body_local(m: Motion) -> tuple[np.ndarray, np.ndarray]:
    nb = m.ragdoll.bones
    q = np.zeros((nb, 4))
    t = np.zeros((nb, 3))
    K.body_pose_local(m.engine.physics.bf, m.engine.physics.ji, nb, PARENT, m.ragdoll.bodies, q, t)
    return q, t


def _anim_local(m: Motion) -> tuple[np.ndarray, np.ndarray]:
    s = service(m.engine)
    nb = m.ragdoll.bones
    q = s.targets[m.slot, :nb].copy()
    q[0] = s.anim_rot[m.slot]
    t = np.zeros((nb, 3))
    t[0] = s.anim_pos[m.slot]
    return q, t


def _snapshot_shown(m: Motion) -> None:
    """Make sure ``drawn`` holds the pose shown now (before a mode change)."""
    if not m.shown_valid:
        mo = int(service(m.engine).mode[m.slot])
        if mo in (K.ANIMATED, K.GETTING_UP, K.ACTING):
            m.drawn_q, m.drawn_t = _anim_local(m)
        else:
            m.drawn_q, m.drawn_t = _body_local(m)
        m.shown_valid = True


def pose_one(m: Motion, dt: float) -> None:
    """The pose phase of one figure: the pose drawn, with the hand-overs' blends."""
    if m.released or m.ragdoll.destroyed or m.ragdoll.parked:
        return
    s = service(m.engine)
    mo = int(s.mode[m.slot])
    animated = mo in (K.ANIMATED, K.GETTING_UP, K.ACTING)
    if animated:
        aq, at = _anim_local(m)
        if m.blend == 2:
            m.blend_t += dt
            x = min(1.0, m.blend_t / BLEND_TIME)
            x = x * x * (3.0 - 2.0 * x)
            K.blend_pose(m.blend_from_q, m.blend_from_t, aq, at, x, aq, at)
            if m.blend_t >= BLEND_TIME:
                m.blend = 0
        m.drawn_q, m.drawn_t = aq, at
    else:
        bq, bt = _body_local(m)
        if m.blend == 1 and m.drawn_q is not None:
            m.blend_t += dt
            remaining = max(0.0, 1.0 - m.blend_t / BLEND_TIME)
            K.fade_offset(bq, bt, m.drawn_q, m.drawn_t, m.off_a, m.off_d, remaining)
            if remaining <= 0.0:
                m.blend = 0
        else:
            m.drawn_q, m.drawn_t = bq, bt
    m.shown_valid = True
    if m.rig is not None:
        _draw_rig(m, mo, dt)


def _mark_written(m: Motion) -> None:
    """Tell the dressing the rig's dressed bones hold what the motion drew (not the animation)."""
    d = _dress().ragdoll_dressing(m.ragdoll)
    rig = m.rig
    mapped = d.body_of >= 0
    d.written_t[:] = np.nan
    d.written_q[:] = np.nan
    d.written_t[mapped] = rig.translation[mapped]
    d.written_q[mapped] = rig.rotation[mapped]


def _draw_rig(m: Motion, mo: int, dt: float) -> None:
    """The pose drawn into a dressed figure's rig: the bodies' (POWERED, LIMP) with what is left
    of the hand-over's offset, or the animation's (ANIMATED) after the blend from the bodies."""
    D = _dress()
    r = m.ragdoll
    rig = m.rig
    if mo in (K.ANIMATED, K.GETTING_UP, K.ACTING):
        if m.rig_blend == 2:
            m.rig_blend_t += dt
            at, aq, _ = D.ragdoll_animation_pose(r)
            x = min(1.0, m.rig_blend_t / BLEND_TIME)
            x = x * x * (3.0 - 2.0 * x)
            K.blend_pose(m.rig_from_q, m.rig_from_t, aq, at, x, rig.rotation, rig.translation)
            rig.update_world()
            _mark_written(m)
            if m.rig_blend_t >= BLEND_TIME:
                m.rig_blend = 0
                D.ragdoll_restore_rig(r)
        elif m.rig_blend == 0 and m.rig_owned:
            D.ragdoll_restore_rig(r)
            m.rig_owned = False
        return
    D.ragdoll_to_rig_pose(r)
    m.rig_owned = True
    if m.rig_blend == 1:
        m.rig_blend_t += dt
        remaining = max(0.0, 1.0 - m.rig_blend_t / BLEND_TIME)
        bq = rig.rotation.copy()
        bt = rig.translation.copy()
        K.fade_offset(bq, bt, m.rig_q, m.rig_t, m.rig_off_a, m.rig_off_d, remaining)
        rig.rotation[:] = m.rig_q
        rig.translation[:] = m.rig_t
        rig.update_world()
        _mark_written(m)
        if remaining <= 0.0:
            m.rig_blend = 0
    else:
        m.rig_q = rig.rotation.copy()
        m.rig_t = rig.translation.copy()


def _rig_handover(m: Motion, old: int, new: int) -> None:
    """At a mode change of a dressed figure: into POWERED/LIMP from the animation, the rig's pose
    at the call is kept as an offset that fades (#581); to ANIMATED, the pose drawn is blended
    from."""
    D = _dress()
    r = m.ragdoll
    rig = m.rig
    was_anim = old in (K.ANIMATED, K.GETTING_UP, K.ACTING)
    if new in (K.POWERED, K.LIMP) and was_anim:
        shown_q = rig.rotation.copy()
        shown_t = rig.translation.copy()
        D.ragdoll_to_rig_pose(r)
        bq = rig.rotation.copy()
        bt = rig.translation.copy()
        rig.rotation[:] = shown_q
        rig.translation[:] = shown_t
        rig.update_world()
        d = D.ragdoll_dressing(r)
        d.written_t[:] = np.nan
        d.written_q[:] = np.nan
        m.rig_q = shown_q
        m.rig_t = shown_t
        m.rig_off_a = np.zeros(rig.count)
        m.rig_off_d = np.zeros(rig.count)
        K.offset_size(shown_q, shown_t, bq, bt, m.rig_off_a, m.rig_off_d)
        m.rig_blend = 1
        m.rig_blend_t = 0.0
    elif new == K.ANIMATED and not was_anim:
        m.rig_from_q = rig.rotation.copy()
        m.rig_from_t = rig.translation.copy()
        m.rig_blend = 2
        m.rig_blend_t = 0.0


def pose(body: Motion, e: Any = None, dt: float | None = None) -> None:
    """The pose phase for one figure, for a program that steps itself (#699): the pose drawn is
    worked out (bodies, animation, blends) and, dressed, written into the rig. ``dt`` (s) is the
    frame's time, the engine's fixed step by default."""
    m = check(body)
    if dt is not None:
        _checks.seconds(dt, "dt")
    if e is not None and e is not m.engine:
        raise ValueError("body belongs to another engine")
    d = m.engine.fixed_dt if dt is None else float(dt)
    if not (math.isfinite(d) and d >= 0.0):
        raise ValueError("dt must be a finite, non-negative number of seconds")
    pose_one(m, d)


def drawn_pose(body: Motion) -> tuple[np.ndarray, np.ndarray]:
    """((n, 3) m, (n, 4)): where each bone's body is drawn in the world (the pose shown)."""
    m = check(body)
    _snapshot_shown(m)
    nb = m.ragdoll.bones
    p = np.zeros((nb, 3))
    q = np.zeros((nb, 4))
    K.local_to_world(nb, PARENT, m.ragdoll.joints, m.engine.physics.jf, m.drawn_q, m.drawn_t, p, q)
    return p, q


def motion_step(e: Any, dt: float | None = None) -> None:
    """One fixed step for a program that steps itself: every figure of ``e`` not attached gets
    its pre-step, the physics world steps ``dt`` (s, the engine's fixed step by default), then
    the post-step. Attached figures are stepped by the engine's own phases instead."""
    if getattr(e, "physics", None) is None:
        raise ValueError("e must be an open Engine")
    if dt is not None:
        _checks.seconds(dt, "dt", positive=True)
    d = e.fixed_dt if dt is None else float(dt)
    if not (math.isfinite(d) and d > 0.0):
        raise ValueError("dt must be a positive finite number of seconds")
    s = service(e)
    s.pre(0, d)
    e.physics.step(d)
    s.post(0)
