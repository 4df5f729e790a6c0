"""Active ragdolls on figures (``on_figure``, ``on_skeleton``) and the scene file's motion record.

``on_figure(e, object)``: a ragdoll made where the object stands, fitted to the figure's rig and
turned to its feet, dressed, ANIMATED and attached, so ``engine.destroy(e, object)`` takes it too
(#714). A rig in neither humanoid naming gets none: the answer is None, not a crash.

The record is the figure group's ``"motion"`` entry in a scene file:
``{"mode": "powered", "strength": 0.8, "protective": false, "get_up": 3}``.
"""

from __future__ import annotations

import math
from typing import Any

from . import _api, _checks
from . import _kernels as K

RECORD_MODES = {"animated": K.ANIMATED, "powered": K.POWERED, "limp": K.LIMP}


def on_skeleton(e: Any, obj: int, skeleton: Any) -> _api.Motion | None:
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
    from . import _fit as D  # fitting a ragdoll to a rig (was ae3d.physics._dress)
    name = f"motion-{obj}"
    r = D.ragdoll_for_rig(e, name, skeleton, 8.0, 8.0)
    m = _api.active_ragdoll(r)
    m.object = int(obj)
    _api.attach(e, m)
    return m


def on_figure(e: Any, obj: int) -> _api.Motion | None:
    """An active ragdoll for the figure object ``obj`` wears (ae3d.figure): see ``on_skeleton``.
    ANIMATED: the clip plays and the bodies follow. None for a rig that is not humanoid."""
    from ae3d import figure

    _checks.engine_open(e)
    f = figure.figure_of(e, obj)
    return on_skeleton(e, obj, f.rig)


def _existing(e: Any) -> list[_api.Motion]:
    s = e.services.get("motion")
    if s is None:
        return []
    return [m for m in s.handles[: s.n] if m is not None]


def motion_of(e: Any, obj: int) -> _api.Motion | None:
    """The active ragdoll that goes with object ``obj``, or None."""
    for m in _existing(e):
        if m.object == obj:
            return m
    return None


def record(body: _api.Motion) -> dict:
    """The scene file's motion record of ``body``: mode (a figure getting up is written as the
    mode it gets up to), strength, protection and get-up seconds."""
    m = _api.check(body)
    mo = _api.mode(m)
    if mo in (K.GETTING_UP, K.ACTING):
        mo = int(m.extra.get("resume_mode", K.ANIMATED))
    get_up = m.get_up
    return {"mode": _api.MODES[mo], "strength": _api.strength(m), "protective": bool(m.protective),
            "get_up": int(get_up) if float(get_up).is_integer() else get_up}


def from_record(e: Any, obj: int, spec: dict) -> _api.Motion | None:
    """Put a motion record back on the figure object ``obj`` of a scene read in: its active
    ragdoll (made with ``on_figure`` where it has none) takes the record's mode, strength,
    protection and get-up. Every field is checked before anything is made."""
    if not isinstance(spec, dict):
        raise ValueError("spec must be a motion record (a dict)")
    unknown = set(spec) - {"mode", "strength", "protective", "get_up"}
    if unknown:
        raise ValueError(f"unknown motion record fields: {sorted(unknown)}")
    mode_name = spec.get("mode", "animated")
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
    m = motion_of(e, obj)
    if m is None:
        m = on_figure(e, obj)
        if m is None:
            return None
    _api.set_strength(m, float(st))
    set_protective(m, pr)
    set_get_up(m, float(gu))
    _api.set_mode(m, RECORD_MODES[mode_name])
    return m


def set_protective(body: _api.Motion, on: bool) -> None:
    """Whether a falling figure protects itself (on by default; the protective fall itself comes
    with a later slice)."""
    m = _api.check(body)
    m.protective = _checks.V.boolean(on, "on")


def set_get_up(body: _api.Motion, seconds: float) -> None:
    """Get up by itself once lain still this long (s; 0, the default, never; the ways up come
    with a later slice)."""
    m = _api.check(body)
    _checks.seconds(seconds)
    v = float(seconds)
    if not (math.isfinite(v) and v >= 0.0):
        raise ValueError("seconds must be a non-negative number")
    m.get_up = v
