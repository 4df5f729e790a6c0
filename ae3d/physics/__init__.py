"""ae3d.physics: a soft-step rigid-body world, joints, motors, anchors and ragdolls.

Units: m, kg, s, N, N·m, N·s, radians. Y is up (as glTF). Quaternions are (x, y, z, w).
Every call takes the engine first: ``physics.add_box(e, ...)``. See each function's docstring.
"""

from ae3d.figure._naming import humanoid_bones, humanoid_scheme

from . import _api_bodies, _api_joints, _api_stats, _dress, _ragdoll
from ._api_bodies import *  # noqa: F401,F403
from ._api_joints import *  # noqa: F401,F403
from ._api_stats import *  # noqa: F401,F403
from ._dress import *  # noqa: F401,F403
from ._ragdoll import *  # noqa: F401,F403

__all__ = [*_api_bodies.__all__, *_api_joints.__all__, *_api_stats.__all__, *_ragdoll.__all__,
           *_dress.__all__, "humanoid_scheme", "humanoid_bones"]
