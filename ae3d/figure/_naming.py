"""Humanoid naming: which scheme a rig's bone names follow, and its bones by role.

Two schemes are known (spec: motion.on_figure):

- 0, the engine pipeline's: Hips, Spine, Chest, Neck, Head, ShoulderL, UpperArmL, LowerArmL,
  HandL, ThighL, ShinL, FootL, ToesL and the R side;
- 1, Mixamo's: Hips, Spine, Spine1, Spine2, Neck, Head, LeftShoulder, LeftArm, LeftForeArm,
  LeftHand, LeftUpLeg, LeftLeg, LeftFoot, LeftToeBase and Right, with the ``mixamorig:`` prefix
  (or any ``name:`` prefix, as ``mixamorig1:``) or without one. Its top spine bone, Spine2, is
  the ragdoll's chest; Spine1 has no role.

-1 is neither. A rig follows a scheme when it has every required role's bone; shoulders and toes
are optional (``OPTIONAL_ROLES``). Roles are named by the pipeline's names.
"""

from __future__ import annotations

from collections.abc import Iterable
from typing import Any

PIPELINE = 0
MIXAMO = 1
NO_SCHEME = -1

_SIDED = ("Shoulder", "UpperArm", "LowerArm", "Hand", "Thigh", "Shin", "Foot", "Toes")
#: Every humanoid role, by the pipeline's bone names.
HUMANOID_ROLES: tuple[str, ...] = ("Hips", "Spine", "Chest", "Neck", "Head") + tuple(
    f"{b}{s}" for s in ("L", "R") for b in _SIDED)
#: Roles a rig may lack and still be a humanoid.
OPTIONAL_ROLES: frozenset[str] = frozenset({"ShoulderL", "ShoulderR", "ToesL", "ToesR"})

_MIXAMO_SIDED = {"Shoulder": "Shoulder", "UpperArm": "Arm", "LowerArm": "ForeArm",
                 "Hand": "Hand", "Thigh": "UpLeg", "Shin": "Leg", "Foot": "Foot",
                 "Toes": "ToeBase"}
#: Role -> Mixamo's bone name (without prefix).
MIXAMO_NAMES: dict[str, str] = {"Hips": "Hips", "Spine": "Spine", "Chest": "Spine2",
                                "Neck": "Neck", "Head": "Head"}
for _s, _side in (("L", "Left"), ("R", "Right")):
    for _b, _m in _MIXAMO_SIDED.items():
        MIXAMO_NAMES[f"{_b}{_s}"] = f"{_side}{_m}"
del _s, _side, _b, _m


def _names_of(rig: Any) -> list[str]:
    if isinstance(rig, str):
        raise TypeError("rig must be a rig, a figure or a sequence of bone names, not a str")
    for attr in ("rig", "template"):  # a Figure has .rig; a Rig has .names via its template
        if hasattr(rig, attr) and not hasattr(rig, "names"):
            rig = getattr(rig, attr)
    names = getattr(rig, "names", rig)
    if not isinstance(names, Iterable):
        raise TypeError(f"rig must be a rig, a figure or a sequence of bone names, "
                        f"not {type(rig).__name__}")
    return [str(n) for n in names]


def _match(names: list[str]) -> tuple[int, dict[str, int]]:
    index: dict[str, int] = {}
    for i, n in enumerate(names):
        index.setdefault(n, i)
    # the pipeline's own names
    roles = {r: index[r] for r in HUMANOID_ROLES if r in index}
    if all(r in roles for r in HUMANOID_ROLES if r not in OPTIONAL_ROLES):
        return PIPELINE, roles
    # Mixamo's, with the prefix its Hips bone has ("mixamorig:", any "name:", or none)
    prefixes = sorted({n[: n.rindex(":") + 1] for n in names if n.endswith(":Hips")})
    if "Hips" in index:
        prefixes.insert(0, "")
    for prefix in prefixes:
        roles = {r: index[prefix + m] for r, m in MIXAMO_NAMES.items() if prefix + m in index}
        if all(r in roles for r in HUMANOID_ROLES if r not in OPTIONAL_ROLES):
            return MIXAMO, roles
    return NO_SCHEME, {}


def humanoid_scheme(rig: Any) -> int:
    """The humanoid naming a rig follows: 0 the pipeline's, 1 Mixamo's (with its prefix or
    without), -1 neither. ``rig`` is a Rig, a Figure, or a sequence of bone names."""
    return _match(_names_of(rig))[0]


def humanoid_bones(rig: Any) -> dict[str, int]:
    """Role (the pipeline's bone name, ``HUMANOID_ROLES``) -> the rig's bone index, for a rig in
    either scheme; optional roles the rig lacks are left out. ValueError for a rig in neither."""
    scheme, roles = _match(_names_of(rig))
    if scheme == NO_SCHEME:
        raise ValueError("rig follows no humanoid naming (humanoid_scheme is -1)")
    return roles


__all__ = ["HUMANOID_ROLES", "MIXAMO", "MIXAMO_NAMES", "NO_SCHEME", "OPTIONAL_ROLES", "PIPELINE",
           "humanoid_bones", "humanoid_scheme"]
