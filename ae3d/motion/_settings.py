"""Every behaviour's settings in one frozen object, and the parameter row the kernels read.

``Settings`` gathers each behaviour's frozen settings (``ModesSettings``, ``MusclesSettings``,
``BalanceSettings``, ``HitsSettings``; each value with its unit and the measured reason beside
it, in its behaviour's file). ``pack`` writes them once into the float row ``prm`` whose columns
are ``_layout``'s ``S_*`` (Jolt's ``RagdollSettings`` -> ``Ragdoll``). A game reads them with
``motion.settings(e)``; a test sweeps one with ``motion.set_settings(e, replace(...))``.
"""

from __future__ import annotations

import math
from dataclasses import dataclass, field, fields
from typing import Any

import numpy as np

from ._balance import BalanceSettings
from ._fall import FallSettings
from ._get_up import GetUpSettings
from ._hits import HitsSettings
from ._landing import LandingSettings
from ._layout import PRM_COUNT
from ._modes import ModesSettings
from ._muscles import MusclesSettings
from ._parts import PartsSettings
from ._stepping import SteppingSettings
from ._wound import WoundSettings
from ._writhe import WritheSettings


@dataclass(frozen=True)
class Settings:
    """The motion's tuned constants, by behaviour (see each one's docstrings for units and
    reasons)."""

    modes: ModesSettings = field(default_factory=ModesSettings)
    muscles: MusclesSettings = field(default_factory=MusclesSettings)
    balance: BalanceSettings = field(default_factory=BalanceSettings)
    hits: HitsSettings = field(default_factory=HitsSettings)
    fall: FallSettings = field(default_factory=FallSettings)
    landing: LandingSettings = field(default_factory=LandingSettings)
    stepping: SteppingSettings = field(default_factory=SteppingSettings)
    get_up: GetUpSettings = field(default_factory=GetUpSettings)
    wound: WoundSettings = field(default_factory=WoundSettings)
    writhe: WritheSettings = field(default_factory=WritheSettings)
    parts: PartsSettings = field(default_factory=PartsSettings)


DEFAULT = Settings()
# the values the kernels or the façade divide by: they must be positive
_DIVIDED_BY = {"blend_time", "recovery", "drive_time", "letgo_time", "hit_speed",
               "step_time", "stride", "stage", "leg_period", "rock_period",
               "take_back",
               "stride_aside", "stride_back", "stride_back_let"}   # issue 14: the strides by way


def check(settings: Any) -> Settings:
    """``settings`` if it is a Settings of finite, non-negative values (those divided by
    positive);
    TypeError/ValueError naming the value otherwise."""
    if not isinstance(settings, Settings):
        raise TypeError(f"settings must be a motion.Settings, not {type(settings).__name__}")
    for part in fields(settings):
        group = getattr(settings, part.name)
        for f in fields(group):
            v = getattr(group, f.name)
            name = f"settings.{part.name}.{f.name}"
            if isinstance(v, bool) or not isinstance(v, (int, float)) or not math.isfinite(v):
                raise ValueError(f"{name} must be a finite number")
            if v < 0.0 or (v == 0.0 and f.name in _DIVIDED_BY):
                raise ValueError(f"{name} must be positive")
    return settings


def pack(settings: Settings) -> np.ndarray:
    """The parameter row (PRM_COUNT,) the kernels read, from ``settings``."""
    row = np.full(PRM_COUNT, np.nan)
    for part in fields(settings):
        getattr(settings, part.name).pack(row)
    if not np.all(np.isfinite(row)):
        raise RuntimeError("a settings column is left unpacked (_layout.S_*)")
    return row


def settings(e: Any) -> Settings:
    """The motion's settings of engine ``e`` (``motion.Settings``; DEFAULT unless set)."""
    from ._service import service
    return service(e).settings


def set_settings(e: Any, new: Settings) -> None:
    """Tune engine ``e``'s motion: every behaviour reads ``new`` from the next step on. A
    figure's recovery time is its own (``set_recovery``); new figures take ``new``'s."""
    from ._service import service
    s = check(new)
    sv = service(e)
    sv.prm[:] = pack(s)
    sv.settings = s
