"""Helpers of the render tests: the box man standing before the camera, colour checks.

The box man is the figures package's fixture (assets/box_man*.glb) when it exists, else the
renderer's own procedural box man added by hand; both stand at the origin facing +Z.
"""

from __future__ import annotations

import glob
import os
from dataclasses import dataclass
from typing import Any

import numpy as np

from ae3d import render
from ae3d.render import _demo

ROOT = os.path.dirname(os.path.dirname(os.path.dirname(os.path.abspath(__file__))))
W, H = 640, 480


def box_man_file() -> str | None:
    names = sorted(glob.glob(os.path.join(ROOT, "assets", "*.glb")))
    for n in names:
        if "box" in os.path.basename(n).lower():
            return n
    return None


@dataclass
class Standing:
    e: Any
    obj: int
    world: Any           # callable -> (bones, 4, 4)
    points: np.ndarray   # (k, 3) m inside the figure's limbs (bone segment midpoints)
    chest: np.ndarray    # (3,) m
    color: np.ndarray    # (3,) linear RGB base colour (the first mesh's)
    colors: np.ndarray   # (k, 3) linear RGB base colour of the mesh part at each point
    source: str


def _segment_points(world, parents, bones) -> np.ndarray:
    pts = []
    bones = set(int(b) for b in bones)
    for i, p in enumerate(parents):
        if p >= 0 and i in bones and int(p) in bones:
            a, b = world[p, :3, 3], world[i, :3, 3]
            if np.linalg.norm(a - b) > 0.08:
                pts.append(0.5 * (a + b))
    return np.array(pts)


def standing_figure(e) -> Standing:
    """The box man standing at the origin, facing +Z (the camera's side)."""
    path = box_man_file()
    if path is not None:
        from ae3d import figure

        obj = figure.figure(e, "BoxMan", path)
        f = figure.figure_of(e, obj)
        f.rig.update_world()
        sk = f.model.skins[0]
        pts = _segment_points(f.rig.world, f.rig.parents, sk.bones)
        roles = figure.humanoid_bones(f.rig) if hasattr(figure, "humanoid_bones") else {}
        chest_bone = None
        if isinstance(roles, dict):
            for key in ("chest", "spine_03", "spine2", "upper_chest", "spine_02"):
                for k, v in roles.items():
                    if str(k).lower() == key and v is not None and v >= 0:
                        chest_bone = int(v)
                        break
                if chest_bone is not None:
                    break
        y = f.rig.world[:, 1, 3]
        if chest_bone is None:
            chest = np.array([0.0, y.min() + 0.72 * (y.max() - y.min()), 0.0])
        else:
            chest = f.rig.world[chest_bone, :3, 3].copy()
        col = np.asarray(f.model.meshes[0].color[:3], dtype=float)
        # each point's colour: the material of the skinned vertex nearest to it
        skinned = figure.skin(f)
        vp = np.concatenate([p for p, _ in skinned])
        vc = np.concatenate([np.tile(np.asarray(m.color[:3], float), (len(p), 1))
                             for (p, _), m in zip(skinned, f.model.meshes, strict=True)])
        near = np.argmin(np.linalg.norm(vp[None] - pts[:, None], axis=2), axis=1)
        return Standing(e, obj, lambda: f.rig.world, pts, chest, col, vc[near], path)
    m = _demo.mesh()
    obj = e.create()
    world = _demo.pose(0.0, swing=0.0)
    render.add_figure(e, obj, m, world)
    pts = np.array([world[i, :3, :3] @ np.array(b[3]) + world[i, :3, 3]
                    for i, b in enumerate(_demo.BONES)])
    chest = pts[_demo.CHEST]
    col = np.array(_demo.COLOR)
    return Standing(e, obj, lambda: world, pts, chest, col, np.tile(col, (len(pts), 1)),
                    "procedural")


def front_camera(e) -> None:
    render.camera_orbit(e, target=(0.0, 0.9, 0.0), distance=3.6, yaw=0.0, pitch=0.12)


def framed_figure(e) -> Standing:
    """``standing_figure`` seen by ``front_camera``, one frame (1/60 s) run."""
    fig = standing_figure(e)
    front_camera(e)
    e.frame(1 / 60)
    return fig


def to_srgb(c) -> np.ndarray:
    return np.clip(np.asarray(c, float), 0, 1) ** (1 / 2.2) * 255.0


def chroma(rgb) -> np.ndarray:
    rgb = np.asarray(rgb, dtype=float)
    return rgb / np.maximum(rgb.sum(axis=-1, keepdims=True), 1e-6)


def horde_mesh_bank(e, frames: int = 24):
    """(mesh, bank, chest height m) for a horde: the box man's walk sampled from its clip and
    baked in place when the file exists (its figure hidden), else the procedural walk."""
    path = box_man_file()
    if path is not None:
        from ae3d import figure

        obj = figure.figure(e, "BankSource", path)
        f = figure.figure_of(e, obj)
        names = figure.clips(f)
        clip = "Walk" if "Walk" in names else names[0]
        mesh = render.figure_mesh(f)
        bank = render.bank_from_clip(f, clip, frames)
        figure.set_visible(f, False)
        top = float(mesh.positions[:, 1].max())
        return mesh, bank, 0.72 * top
    m = _demo.mesh()
    return m, _demo.bank(m, frames=frames), 1.38


# ------------------------------------------------------------------ the reference scene
REF_W, REF_H = 320, 240
REF_PNG = os.path.join(os.path.dirname(os.path.abspath(__file__)), "data", "reference_high.png")


def reference_scene(e):
    """A fixed scene for the high preset's pixel test: the box man before the camera (its
    shadow on the ground), a 5 x 5 horde of it walking behind (bank phases fixed), sun shadows
    on. The frame ``reference_high.png`` was drawn from it before the quality presets existed
    (commit 6db6822, 4x MSAA, 2048 shadow map, llvmpipe)."""
    fig = framed_figure(e)
    m, bank, _ = horde_mesh_bank(e)
    h = render.horde_new(e, m, bank, 25, name="reference")
    i = np.arange(25)
    pos = np.stack([(i % 5 - 2) * 1.3, np.zeros(25), -2.5 - (i // 5) * 1.4], axis=1)
    render.horde_set(h, pos, 0.2 * np.sin(i), (i * 0.137) % 1.0)
    render.camera_orbit(e, target=(0.0, 0.9, -1.5), distance=6.5, yaw=0.25, pitch=0.3)
    return fig, h
