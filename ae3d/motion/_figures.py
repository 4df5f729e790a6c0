"""Figures: making an active ragdoll (``active_ragdoll``, ``on_figure``, ``on_skeleton``),
stepping it with an engine (``attach``) or by hand (``motion_step``), releasing it, and the
scene file's motion record.

``on_figure(e, object)``: a ragdoll made where the object stands, fitted to the figure's rig and
turned to its feet, dressed, ANIMATED and attached, so ``engine.destroy(e, object)`` takes it too
(#714). A rig in neither humanoid naming gets none: the answer is None, not a crash.

The record is the figure group's ``"motion"`` entry in a scene file:
``{"mode": "powered", "strength": 0.8, "protective": false, "get_up": 3}``.

Columns: ``F_GET_UP`` (read by ``_get_up.get_up_pre``), ``F_PROTECTIVE`` (``_layout``).
"""

from __future__ import annotations

import math
from typing import Any

from ae3d import physics
from ae3d.physics import _layout as PL

from . import _checks
from ._layout import (
    ANIMATED,
    F_ALIVE,
    F_ANIM_POS,
    F_ANIM_ROT,
    F_DRESS,
    F_GEN,
    F_GET_UP,
    F_HAS_PREV,
    F_HEADING,
    F_LEAN,
    F_LETGO,
    F_MAX_LEAN,
    F_MODE,
    F_NBONES,
    F_OWNER,
    F_PROTECTIVE,
    F_RECOVERY,
    F_RESUME,
    F_SPRING_HZ,
    F_STEP_ON,
    F_STEPPED,
    F_STRENGTH,
    F_UPRIGHT,
    FROM_ANIMATION,
    MODE_NAMES,
    PB_BODY,
    PB_FULL,
    PB_JOINT,
    PB_PART_S,
    PB_TARGET,
    S_RECOVERY,
    SETTABLE,
)
from ._service import Motion, check, service

# the scene file's mode names: the modes a record sets
RECORD_MODES = {MODE_NAMES[m]: m for m in SETTABLE}


def active_ragdoll(r: Any) -> Motion:
    """An active ragdoll on physics ragdoll ``r`` (``physics.ragdoll``), ANIMATED to begin with.

    Its animation's pose is the rig's where ``r`` is dressed (``physics.ragdoll_dress``), else
    the ragdoll's standing pose where it stands (``set_animation`` changes it)."""
    from . import _modes, _pose
    if not isinstance(r, physics.Ragdoll):
        raise TypeError(f"r must be a physics.Ragdoll, not {type(r).__name__}")
    if r.destroyed:
        raise ValueError("r was destroyed")
    e = r.engine
    if e.closed:
        raise ValueError("r's engine is closed")
    s = service(e)
    for h in s.live():
        if h.ragdoll is r:
            raise ValueError("r already has an active ragdoll")
    slot = s.new_row()
    w = e.physics
    nb = r.bones
    gen = int(s.fi[slot, F_GEN])
    # a clean row: every column zero (ints) or zero / identity (floats), then the figure's own
    s.ff[slot] = 0.0
    s.fi[slot] = 0
    s.pbf[slot] = 0.0
    s.pbi[slot] = -1
    s.rbf[slot] = 0.0
    s.fi[slot, F_GEN] = gen
    s.fi[slot, F_ALIVE] = 1
    s.fi[slot, F_STEPPED] = 0
    s.fi[slot, F_OWNER] = r.id
    s.fi[slot, F_MODE] = ANIMATED
    s.fi[slot, F_RESUME] = ANIMATED
    s.fi[slot, F_NBONES] = nb
    s.fi[slot, F_PROTECTIVE] = 1
    s.fi[slot, F_STEP_ON] = 1      # stepping on by default (_stepping.py)
    s.fi[slot, F_DRESS] = -1
    s.pbi[slot, :nb, PB_JOINT] = r.joints
    s.pbi[slot, :nb, PB_BODY] = r.bodies
    s.pbf[slot, :nb, PB_FULL] = r.budgets
    s.pbf[slot, :, PB_PART_S] = 1.0   # every part at all its muscle (_parts.py)
    s.ff[slot, F_STRENGTH] = 1.0
    s.ff[slot, F_RECOVERY] = s.prm[S_RECOVERY]
    s.pbf[slot, :, PB_TARGET + 3] = 1.0
    s.pbf[slot, :nb, PB_TARGET:PB_TARGET + 4] = physics.ragdoll_rest_targets(r)
    pel = int(r.bodies[0])
    s.ff[slot, F_ANIM_POS:F_ANIM_POS + 3] = w.bf[pel, PL.B_POS:PL.B_POS + 3]
    s.ff[slot, F_ANIM_ROT:F_ANIM_ROT + 4] = w.bf[pel, PL.B_QUAT:PL.B_QUAT + 4]
    s.fi[slot, F_HAS_PREV] = 0
    s.fi[slot, F_UPRIGHT] = r.upright
    s.fi[slot, F_HEADING] = r.heading
    s.ff[slot, F_LEAN] = 0.0
    s.ff[slot, F_MAX_LEAN] = 0.0
    s.ff[slot, F_LETGO] = 0.0
    s.ff[slot, F_SPRING_HZ] = r.spring_hz
    m = Motion(e, slot, gen, r)
    s.handles[slot] = m
    rig = _pose._dress().ragdoll_dressed(r)
    if rig is not None:
        m.rig = rig
        s.dressed.append(m)
        s.rigs.add(s, m)
        _pose.read_one(m)
    _modes.hand_over(m, ANIMATED, first=True)
    return m


def attach(e: Any, body: Motion) -> None:
    """Step ``body`` with engine ``e``: every fixed step (before and after physics) and posed
    after the clips each frame. Adds its Motion component to its object (one is made for a
    ragdoll built by hand), so destroying the object takes the figure with it (#714)."""
    m = check(body)
    if m.engine is not e:
        raise ValueError("body belongs to another engine")
    s = service(e)
    if s.fi[m.slot, F_STEPPED]:
        return
    s.fi[m.slot, F_STEPPED] = 1
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


# ------------------------------------------------------------------------------ figures
def on_skeleton(e: Any, obj: int, skeleton: Any) -> Motion | None:
    """An active ragdoll for object ``obj`` on ``skeleton`` (a figure.Rig): made where the rig's
    object stands, scaled to it, turned to its feet and dressed; ANIMATED and attached to ``obj``.
    None when the rig follows neither humanoid naming (figure.humanoid_scheme is -1)."""
    from ae3d import figure
    from ae3d.figure import Rig

    _checks.engine_open(e)
    if not isinstance(skeleton, Rig):
        raise TypeError(f"skeleton must be a figure.Rig, not {type(skeleton).__name__}")
    if not e.exists(obj):
        raise ValueError(f"object {obj} is not a live object of this engine")
    if figure.humanoid_scheme(skeleton) < 0:
        return None
    for m in _existing(e):
        if m.object == obj:
            raise ValueError(f"object {obj} already has an active ragdoll")
    from . import _fit as D  # fitting a ragdoll to a rig
    name = f"motion-{obj}"
    r = D.ragdoll_for_rig(e, name, skeleton, 8.0, 8.0)
    m = active_ragdoll(r)
    m.object = int(obj)
    attach(e, m)
    return m


def on_figure(e: Any, obj: int) -> Motion | None:
    """An active ragdoll for the figure object ``obj`` wears (ae3d.figure): see ``on_skeleton``.
    ANIMATED: the clip plays and the bodies follow. None for a rig that is not humanoid."""
    from ae3d import figure

    _checks.engine_open(e)
    f = figure.figure_of(e, obj)
    return on_skeleton(e, obj, f.rig)


def _existing(e: Any) -> list[Motion]:
    s = e.services.get("motion")
    if s is None:
        return []
    return s.live()


def motion_of(e: Any, obj: int) -> Motion | None:
    """The active ragdoll that goes with object ``obj``, or None."""
    for m in _existing(e):
        if m.object == obj:
            return m
    return None


# ------------------------------------------------------------------------------ the record
def record(body: Motion) -> dict:
    """The scene file's motion record of ``body``: mode (a figure getting up is written as the
    mode it gets up to), strength, protection and get-up seconds; ``parts`` (``_parts_record``)
    only where a part has a mode or a strength of its own; and, where ``set_get_up_clips`` gave it
    get-up clips, ``get_up_clips`` ([face up, face down], a clip's name or None each; without it
    the figure takes its glTF's own clips as it did)."""
    from ._get_up import _CLIPS_SET  # set_get_up_clips's (figures not in it: their glTF's)
    from ._muscles import strength
    m = check(body)
    s = service(m.engine)
    mo = int(s.fi[m.slot, F_MODE])
    if mo in FROM_ANIMATION and mo != ANIMATED:
        mo = int(s.fi[m.slot, F_RESUME])
    get_up = float(s.ff[m.slot, F_GET_UP])
    out = {"mode": MODE_NAMES[mo], "strength": strength(m),
           "protective": bool(s.fi[m.slot, F_PROTECTIVE]),
           "get_up": int(get_up) if get_up.is_integer() else get_up}
    parts = _parts_record(m)
    if parts:
        out["parts"] = parts
    clips = _CLIPS_SET.get(m)
    if clips is not None:
        out["get_up_clips"] = list(clips)
    return out


# --- parts in the record (issue 15: a part's mode and strength, #573) -------------------------
def _parts_record(m: Motion) -> dict:
    """``{part name: {"mode": ..., "strength": ...}}`` for each part (``_parts.PART_NAMES``) with
    a mode or a strength of its own; the defaults (ANIMATED, 1) left out, so a figure with none
    writes the record it always did."""
    from ._parts import PART_COUNT, PART_NAMES, part_mode, part_strength
    out = {}
    for k in range(PART_COUNT):
        md, st = part_mode(m, k), part_strength(m, k)
        row = {}
        if md != ANIMATED:
            row["mode"] = MODE_NAMES[md]
        if st != 1.0:
            row["strength"] = st
        if row:
            out[PART_NAMES[k]] = row
    return out


_PART_RECORD_MODES = ("animated", "powered", "limp")


def _check_parts_record(spec: Any) -> list[tuple[int, int | None, float | None]]:
    """The record's ``parts`` checked before anything is set: [(part, mode or None, strength or
    None)]; ValueError naming what is wrong."""
    from ._parts import PART_NAMES
    if not isinstance(spec, dict):
        raise ValueError("parts must be a dict of part names (head, spine, arm_l, arm_r, leg_l, "
                         "leg_r) to {\"mode\": ..., \"strength\": ...}")
    out = []
    for name, row in spec.items():
        if name not in PART_NAMES:
            raise ValueError(f"parts: unknown part {name!r} (one of {list(PART_NAMES)})")
        if not isinstance(row, dict) or set(row) - {"mode", "strength"}:
            raise ValueError(f"parts.{name} must be a dict with mode and/or strength")
        md = row.get("mode")
        if md is not None and md not in _PART_RECORD_MODES:
            raise ValueError(f"parts.{name}.mode must be one of {list(_PART_RECORD_MODES)}, "
                             f"not {md!r}")
        st = row.get("strength")
        if st is not None and (isinstance(st, bool) or not isinstance(st, (int, float))
                               or not 0.0 <= st <= 1.0):
            raise ValueError(f"parts.{name}.strength must be a number in [0, 1]")
        out.append((PART_NAMES.index(name), None if md is None else MODE_NAMES.index(md),
                    None if st is None else float(st)))
    return out


def from_record(e: Any, obj: int, spec: dict) -> Motion | None:
    """Put a motion record back on the figure object ``obj`` of a scene read in: its active
    ragdoll (made with ``on_figure`` where it has none) takes the record's mode, strength,
    protection, get-up and get-up clips. Every field is checked before anything is made (the
    clips' names against the figure's glTF); whether each clip is a way up for the figure (it
    starts on the ground lying that way and ends standing) once its active ragdoll is there,
    before any of its fields is set."""
    from ._get_up import check_clip, set_get_up_clips
    from ._modes import set_mode
    from ._muscles import set_strength
    if not isinstance(spec, dict):
        raise ValueError("spec must be a motion record (a dict)")
    unknown = set(spec) - {"mode", "strength", "protective", "get_up", "parts", "get_up_clips"}
    if unknown:
        raise ValueError(f"unknown motion record fields: {sorted(unknown)}")
    mode_name = spec.get("mode", MODE_NAMES[ANIMATED])
    if mode_name not in RECORD_MODES:
        raise ValueError(f"mode must be one of {sorted(RECORD_MODES)}, not {mode_name!r}")
    st = spec.get("strength", 1.0)
    if isinstance(st, bool) or not isinstance(st, (int, float)) or not 0.0 <= st <= 1.0:
        raise ValueError("strength must be a number in [0, 1]")
    pr = spec.get("protective", True)
    if not isinstance(pr, bool):
        raise ValueError("protective must be true or false")
    gu = spec.get("get_up", 0)
    if (isinstance(gu, bool) or not isinstance(gu, (int, float)) or not math.isfinite(gu)
            or gu < 0):
        raise ValueError("get_up must be a non-negative number of seconds")
    parts = _check_parts_record(spec.get("parts", {}))
    clips = spec.get("get_up_clips")
    if clips is not None and (not isinstance(clips, (list, tuple)) or len(clips) != 2 or not all(
            c is None or isinstance(c, str) for c in clips)):
        raise ValueError("get_up_clips must be [face up, face down], a clip's name or null each")
    if clips is not None:
        from ae3d import figure
        have = figure.figure_of(e, obj).model.clips
        for k, c in enumerate(clips):
            if c is not None and c not in have and sum(
                    h.casefold() == c.casefold() for h in have) != 1:
                raise ValueError(f"get_up_clips[{k}]: the figure has no clip {c!r} (it has "
                                 f"{sorted(have)})")
    m = motion_of(e, obj)
    if m is None:
        m = on_figure(e, obj)
        if m is None:
            return None
    if clips is not None:
        up = check_clip(m, clips[0], True, "get_up_clips[0]")
        dn = check_clip(m, clips[1], False, "get_up_clips[1]")
        set_get_up_clips(m, up, dn)
    set_strength(m, float(st))
    set_protective(m, pr)
    set_get_up(m, float(gu))
    set_mode(m, RECORD_MODES[mode_name])
    # the parts after the figure's mode: a part's mode lasts through the figure's hand-overs
    from ._parts import PART_COUNT, part_strength, set_part_mode, set_part_strength
    given = {k: (md, ps) for k, md, ps in parts}
    for k in range(PART_COUNT):
        md, ps = given.get(k, (None, None))
        ps = 1.0 if ps is None else ps
        if part_strength(m, k) != ps:
            set_part_strength(m, k, ps)
        set_part_mode(m, k, ANIMATED if md is None else md)
    return m


def set_protective(body: Motion, on: bool) -> None:
    """Whether a falling figure protects itself (on by default; ``_fall.py``): falling, its
    arms reach for the ground, its head tucks 0.8 rad away from the fall, its knees give 0.45 rad
    and its spine bends 0.5 rad a joint (rad; ``FallSettings``). Off, none of it is aimed: it
    falls stiff (its landing and lying are read the same way, ``_landing.py``)."""
    m = check(body)
    service(m.engine).fi[m.slot, F_PROTECTIVE] = 1 if _checks.V.boolean(on, "on") else 0


def set_get_up(body: Motion, seconds: float) -> None:
    """Get up by itself once lain still this long (s; 0, the default, never): its pelvis moving
    less than 2 mm a step for ten steps, then ``seconds`` more, on the ground (``down``),
    POWERED or LIMP; the way up is ``get_up``'s (``_get_up.py``)."""
    m = check(body)
    _checks.seconds(seconds)
    v = float(seconds)
    if not (math.isfinite(v) and v >= 0.0):
        raise ValueError("seconds must be a non-negative number")
    service(m.engine).ff[m.slot, F_GET_UP] = v
