"""Dressing a ragdoll in a figure's rig: the façade's calls, forwarded to ``ae3d.motion``.

Physics knows rigs only as arrays handed to it (``_kernels_dress.py``). What joins a Ragdoll to
a Rig (the dressing record, the two poses) is ``ae3d/motion/_dress.py``, and fitting capsules to
a rig's proportions is ``ae3d/motion/_fit.py``. These forwarders keep the spec's
``physics.ragdoll_dress``, ``physics.ragdoll_for_rig``... with their names and signatures; each
imports motion on first use, so ``import ae3d.physics`` imports neither figure nor motion.
"""

from __future__ import annotations

from typing import Any

import numpy as np

from ._ragdoll import Ragdoll

__all__ = [
    "ragdoll_dress", "ragdoll_for_rig", "ragdoll_to_rig", "ragdoll_rig_targets",
    "ragdoll_to_rig_pose", "ragdoll_rig_bone", "ragdoll_dressed", "ragdoll_dressing",
    "ragdoll_animation_pose", "ragdoll_restore_rig", "ragdoll_rig_bodies",
    "humanoid_scheme", "humanoid_bones",
]

#: served on first use from ae3d.motion._dress (``physics.Dressing``, ``physics.BONE_ROLES``)
LAZY = ("Dressing", "BONE_ROLES")


def _dress() -> Any:
    from ae3d.motion import _dress as D
    return D


def ragdoll_dress(r: Ragdoll, rig: Any) -> None:
    """Dress ragdoll ``r`` in ``rig`` (a figure's Rig, or the Figure); see
    ``ae3d.motion._dress.ragdoll_dress``. ValueError for a rig in no humanoid naming."""
    _dress().ragdoll_dress(r, rig)


def ragdoll_for_rig(e: Any, name: str, rig: Any, a: float = 8.0, b: float = 8.0,
                    fit: bool = True) -> Ragdoll:
    """A ragdoll made for a figure's rig (a Rig or a Figure), fitted to its proportions and
    dressed in it; see ``ae3d.motion._fit.ragdoll_for_rig``. ``a``, ``b``: Hz."""
    from ae3d.motion import _fit
    return _fit.ragdoll_for_rig(e, name, rig, a, b, fit)


def ragdoll_dressing(r: Ragdoll) -> Any:
    """The Dressing of ``r``; ValueError if it is not dressed."""
    return _dress().ragdoll_dressing(r)


def ragdoll_dressed(r: Ragdoll) -> Any:
    """The rig ``r`` is dressed in, or None."""
    return _dress().ragdoll_dressed(r)


def ragdoll_rig_bone(r: Ragdoll, bone: int) -> int:
    """The rig bone index that ragdoll ``bone`` (``human.BONE_*``) wears."""
    return _dress().ragdoll_rig_bone(r, bone)


def ragdoll_animation_pose(r: Ragdoll) -> tuple[np.ndarray, np.ndarray, np.ndarray]:
    """The animation's local pose of the rig: copies of translation (n, 3) m, rotation (n, 4),
    scale (n, 3)."""
    return _dress().ragdoll_animation_pose(r)


def ragdoll_restore_rig(r: Ragdoll) -> None:
    """Put the animation's pose back into the rig and update its world."""
    _dress().ragdoll_restore_rig(r)


def ragdoll_rig_bodies(r: Ragdoll) -> tuple[np.ndarray, np.ndarray]:
    """Where the animation's pose puts each body: ((n, 3) m, (n, 4)), in the world."""
    return _dress().ragdoll_rig_bodies(r)


def ragdoll_to_rig(r: Ragdoll) -> None:
    """Put the bodies where the rig's (animation's) pose is: a teleport, velocities zeroed."""
    _dress().ragdoll_to_rig(r)


def ragdoll_rig_targets(r: Ragdoll) -> np.ndarray:
    """(n, 4) what the animation asks of each joint (``ragdoll_drive``'s convention)."""
    return _dress().ragdoll_rig_targets(r)


def ragdoll_to_rig_pose(r: Ragdoll, positions: bool = True) -> None:
    """Draw the bodies' pose into the rig (``positions`` False: rotations and the hips only)."""
    _dress().ragdoll_to_rig_pose(r, positions)


def humanoid_scheme(rig: Any) -> int:
    """The rig's humanoid naming: 0 the pipeline's, 1 Mixamo's, -1 neither
    (``figure.humanoid_scheme``)."""
    from ae3d.figure._naming import humanoid_scheme as scheme
    return scheme(rig)


def humanoid_bones(rig: Any) -> dict[str, int]:
    """{role: rig bone} of a humanoid rig (``figure.humanoid_bones``)."""
    from ae3d.figure._naming import humanoid_bones as bones
    return bones(rig)
