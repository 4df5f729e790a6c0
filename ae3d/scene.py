"""Scene files: the figures of an engine, where they stand, what they play, and their motion.

A scene is JSON. Each figure is a group with its file, its placement and its clip, and, where it
has an active ragdoll, the motion record (spec/motion.md, "The scene file carries it as the motion
record of the figure's group"):

```json
{"ae3d_scene": 1,
 "figures": [{"name": "Zombie", "file": "assets/zombie.glb", "position": [0, 0, 0], "yaw": 1.57,
              "clip": "Walk", "speed": 1.0, "loop": true, "time": 0.4,
              "motion": {"mode": "powered", "strength": 0.8, "protective": false, "get_up": 3}}]}
```

``save(e, path)`` writes one; ``load(e, path)`` reads one into an engine and returns the objects it
made, each figure with its active ragdoll put back by ``motion.from_record``. Units: m, rad, s.
"""

from __future__ import annotations

import json
import math
import os
from typing import Any

import numpy as np

__all__ = ["save", "load", "to_dict", "from_dict"]

FORMAT = 1


def _placement(root: np.ndarray) -> tuple[list[float], float]:
    """The object's position (m) and its turn about +y (rad) from its (4, 4) placement."""
    return [float(v) for v in root[:3, 3]], math.atan2(float(root[0, 2]), float(root[0, 0]))


def to_dict(e: Any) -> dict:
    """The scene of engine ``e`` as a JSON-ready dict (see the module docstring)."""
    from ae3d import figure, motion

    groups = []
    for f in figure.figures(e):
        position, yaw = _placement(f.rig.root)
        group: dict[str, Any] = {
            "name": f.name, "file": f.model.path, "position": position, "yaw": yaw,
            "clip": f.clip, "speed": float(f.speed), "loop": bool(f.loop), "time": float(f.time),
        }
        m = motion.motion_of(e, f.obj)
        if m is not None:
            group["motion"] = motion.record(m)
        groups.append(group)
    return {"ae3d_scene": FORMAT, "figures": groups}


def save(e: Any, path: str) -> None:
    """Write the scene of engine ``e`` to ``path`` (JSON)."""
    with open(path, "w", encoding="utf-8") as fh:
        json.dump(to_dict(e), fh, indent=1)


def _check_group(i: int, g: Any) -> None:
    where = f"figures[{i}]"
    if not isinstance(g, dict):
        raise ValueError(f"{where} must be an object")
    for key in ("name", "file"):
        if not isinstance(g.get(key), str):
            raise ValueError(f"{where}.{key} must be a string")
    pos = g.get("position", [0.0, 0.0, 0.0])
    if (not isinstance(pos, list) or len(pos) != 3
            or not all(isinstance(v, (int, float)) and math.isfinite(v) for v in pos)):
        raise ValueError(f"{where}.position must be 3 finite numbers (m)")
    yaw = g.get("yaw", 0.0)
    if not isinstance(yaw, (int, float)) or not math.isfinite(yaw):
        raise ValueError(f"{where}.yaw must be a finite angle (rad)")
    motion_spec = g.get("motion")
    if motion_spec is not None and not isinstance(motion_spec, dict):
        raise ValueError(f"{where}.motion must be a motion record")


def from_dict(e: Any, scene: dict, base: str = ".") -> list[int]:
    """Make the figures of ``scene`` (a dict as ``to_dict`` writes) in engine ``e``; relative
    file paths are taken from ``base``. Returns the objects made, in the scene's order. Every
    group is checked before anything is made."""
    from ae3d import figure, motion

    if not isinstance(scene, dict) or scene.get("ae3d_scene") != FORMAT:
        raise ValueError(f"not an ae3d scene (format {FORMAT})")
    groups = scene.get("figures", [])
    if not isinstance(groups, list):
        raise ValueError("figures must be a list")
    for i, g in enumerate(groups):
        _check_group(i, g)
    made = []
    for g in groups:
        path = g["file"] if os.path.isabs(g["file"]) else os.path.join(base, g["file"])
        if not os.path.exists(path):
            path = g["file"]  # figure.figure also looks in the package's assets
        obj = figure.figure(e, g["name"], path)
        f = figure.figure_of(e, obj)
        figure.place(f, g.get("position", [0.0, 0.0, 0.0]), float(g.get("yaw", 0.0)))
        if g.get("clip"):
            figure.play(f, g["clip"], float(g.get("speed", 1.0)), bool(g.get("loop", True)))
            figure.set_clip_time(f, float(g.get("time", 0.0)))
        if g.get("motion") is not None:
            motion.from_record(e, obj, g["motion"])
        made.append(obj)
    return made


def load(e: Any, path: str) -> list[int]:
    """Read the scene at ``path`` into engine ``e``; returns the objects made."""
    with open(path, encoding="utf-8") as fh:
        scene = json.load(fh)
    return from_dict(e, scene, base=os.path.dirname(os.path.abspath(path)))
