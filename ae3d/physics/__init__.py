"""ae3d.physics: a soft-step rigid-body world, joints, motors, anchors and ragdolls.

Units: m, kg, s, N, N·m, N·s, radians. Y is up (as glTF). Quaternions are (x, y, z, w).
Every call takes the engine first: ``physics.add_box(e, ...)``. See each function's docstring.
Physics knows rigs only as arrays: it imports neither ``ae3d.figure`` nor ``ae3d.motion`` (the
dressing calls forward to motion on first use).
What a call refuses (``physics.MAX_IMPULSE``, ``WORLD_EXTENT``...) is in ``ae3d.limits``.
"""

from typing import Any

from ae3d import limits
from ae3d.limits import *  # noqa: F401,F403 - the documented limits, readable here too

from . import _api_bodies, _api_joints, _api_stats, _dress, _ragdoll
from ._api_bodies import *  # noqa: F401,F403
from ._api_joints import *  # noqa: F401,F403
from ._api_stats import *  # noqa: F401,F403
from ._dress import *  # noqa: F401,F403
from ._ragdoll import *  # noqa: F401,F403

__all__ = [*_api_bodies.__all__, *_api_joints.__all__, *_api_stats.__all__, *_ragdoll.__all__,
           *_dress.__all__, *_dress.LAZY, "limits", *limits.__all__]


def __getattr__(name: str) -> Any:
    """``Dressing`` and ``BONE_ROLES``, from motion's dressing on first use."""
    if name in _dress.LAZY:
        from ae3d.motion import _dress as D
        return getattr(D, name)
    raise AttributeError(f"module 'ae3d.physics' has no attribute {name!r}")
