"""The motion calls' argument checks, each called first thing by its call (after the body's own
check), so a refused call writes nothing: clear exceptions naming the argument and, where there
is one, the limit (``ae3d.limits``). Built on the shared ``ae3d._validate``."""

from __future__ import annotations

from typing import Any

import numpy as np

from ae3d import _validate as V
from ae3d.physics import _api_bodies as B


def bone(m: Any, b: Any) -> int:
    """A bone of ``m``'s ragdoll (a ``human.BONE_*`` int)."""
    if isinstance(b, bool | np.bool_) or not isinstance(b, int | np.integer):
        raise ValueError(f"bone must be a human.BONE_* constant, not {b!r}")
    k = int(b)
    if not 0 <= k < m.ragdoll.bones:
        raise ValueError(f"bone {k} is not a bone of this ragdoll ({m.ragdoll.bones} bones)")
    return k


def hit_args(m: Any, b: Any, point: Any, impulse: Any, use_cost: Any, cost: Any) -> None:
    """``hit``'s: the bone, ``point`` (3,) m within HIT_REACH of the bone's body, ``impulse``
    (3,) N·s at most MAX_IMPULSE long, ``use_cost`` a bool and ``cost`` in [0, 1] with it."""
    k = bone(m, b)
    w = m.engine.physics
    B.reach(w, int(m.ragdoll.bodies[k]), point, "point")
    V.vector(impulse, "impulse", unit="N·s", limit="MAX_IMPULSE")
    if V.boolean(use_cost, "use_cost"):
        if cost is None:
            raise ValueError("cost must be given with use_cost")
        V.real(cost, "cost", lo=0.0, hi=1.0)


def strength(s: Any) -> float:
    """A strength ``s`` in [0, 1]."""
    return V.real(s, "s (the strength)", lo=0.0, hi=1.0)


def seconds(x: Any, name: str = "seconds", positive: bool = False) -> float:
    """A duration (s): finite, at least 0 (greater with ``positive``)."""
    return V.positive(x, name, unit="s") if positive else V.nonneg(x, name, unit="s")


def animation_args(m: Any, targets: Any, pelvis: Any) -> None:
    """``set_animation``'s: ``targets`` (n, 4) non-zero quaternions (row 0 ignored), ``pelvis`` a
    (position (3,) m within the world's extent, non-zero rotation (4,)) pair."""
    nb = m.ragdoll.bones
    if targets is not None:
        t = V.array(targets, "targets", (nb, 4))
        if np.any(np.linalg.norm(t[1:], axis=1) < 1e-9):
            raise ValueError("targets must be non-zero quaternions")
    if pelvis is not None:
        p, q = V.pair(pelvis, "pelvis")
        V.position(p, "pelvis position")
        V.quaternion(q, "pelvis rotation")


def engine_open(e: Any) -> None:
    """``e`` an Engine that is not closed (ValueError naming it otherwise)."""
    from ae3d.engine import Engine

    if not isinstance(e, Engine):
        raise TypeError(f"e must be an Engine, not {type(e).__name__}")
    if e.closed:
        raise ValueError("e is closed: its objects, figures and bodies are gone")
