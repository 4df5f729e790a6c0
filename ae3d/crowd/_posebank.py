"""Pose banks: one loop of a clip sampled into frames x bones world matrices, struck in place.

A horde's thousands of instances have no rigs: each is drawn from a pose bank, the clip's poses
at ``frames`` evenly spaced times over one loop (frame k at t = duration·k/frames), in the
figure's own frame (its object at the origin, facing +z). An instance at phase p shows the bank
at p·frames, placed by its position and turned by its heading.

Struck in place (``posebank_bake_in_place``). A walk carries the figure over the ground; an
instance's position must not be carried twice. The travelling bone (the hips: the skin's bone
nearest the top of the hierarchy) has its ground travel from the first frame, x and z,

    travel_k = p_hips(t_k) - p_hips(0)        (m, y kept: the hips still rise and fall)

taken out of every bone of frame k. So, with ``offset`` = the baked hips' ground position
(x, z of p_hips(0), the same in every frame), a figure playing the clip at time t, turned as the
instance is, with its hips over the instance's position plus that offset (turned), is the
instance's pose at phase t / duration; read backwards, the same relation puts a figure's pose
back into the horde (spec: "No pop").
"""

from __future__ import annotations

import math
from dataclasses import dataclass
from typing import Any

import numpy as np

__all__ = ["PoseBank", "posebank_sample", "posebank_bake_in_place", "posebank_skinning",
           "skinning_bank", "root_bone", "instance_root"]


@dataclass(eq=False)
class PoseBank:
    """One loop of a clip as world matrices. Read-only for callers but through the calls here.

    world: (frames, bones, 4, 4) float64, m: the rig's world matrices at t = duration·k/frames,
    the figure's object at the origin facing +z; clip: the clip's name; duration: s, one loop;
    hips: the rig bone that travels (``root_bone``); baked: True once struck in place;
    offset: (2,) m, x and z of the hips in every baked frame (zeros before baking);
    speed: m/s, the hips' ground travel over a loop divided by the loop's duration, measured by
    the baking (0 before): how fast an instance playing the clip at its own speed walks.
    """

    world: np.ndarray
    clip: str
    duration: float
    hips: int
    baked: bool = False
    offset: Any = None
    speed: float = 0.0

    @property
    def frames(self) -> int:
        return int(self.world.shape[0])

    def time_of(self, phase: float) -> float:
        """s: the clip's time at ``phase`` (0..1, wrapped)."""
        return (phase % 1.0) * self.duration


def root_bone(f: Any, skin: int = 0) -> int:
    """The rig bone that travels with a clip: skin ``skin``'s bone nearest the top of the
    hierarchy (the hips), the first such in the skin's order on a tie."""
    bones = [int(b) for b in f.model.skins[skin].bones]
    depth = {}
    for b in bones:
        d, p = 0, b
        while p >= 0:
            p = int(f.rig.parents[p])
            d += 1
        depth[b] = d
    return min(bones, key=lambda b: depth[b])


def posebank_sample(f: Any, clip: str, frames: int = 30, skin: int = 0) -> PoseBank:
    """The pose bank of figure ``f``'s (``ae3d.figure``) ``clip``: ``frames`` poses evenly over
    one loop, in the figure's own frame, not yet struck in place. The figure is not changed."""
    from ae3d import figure

    if not (isinstance(frames, int) and frames >= 1):
        raise ValueError("frames must be a positive int")
    dur = figure.clip_duration(f, clip)
    root = np.eye(4)
    world = np.stack([figure.pose_world(f, figure.sample(f, clip, dur * k / frames), root)
                      for k in range(frames)])
    return PoseBank(world=world, clip=clip, duration=float(dur), hips=root_bone(f, skin),
                    offset=np.zeros(2))


def posebank_bake_in_place(bank: PoseBank, hips: int | None = None) -> PoseBank:
    """Strike ``bank`` in place (see the module docstring): the ``hips`` bone's (default the
    bank's own) ground travel from the first frame, x and z (m), taken out of every bone of
    every frame. Changes ``bank.world`` in place, sets ``baked`` and ``offset`` ((2,) m, the
    hips' x and z now in every frame) and returns ``bank``. Baking twice changes nothing more."""
    if not isinstance(bank, PoseBank):
        raise TypeError(f"bank must be a PoseBank, not {type(bank).__name__}")
    b = bank.hips if hips is None else int(hips)
    if not 0 <= b < bank.world.shape[1]:
        raise ValueError(f"hips must be a bone in 0..{bank.world.shape[1] - 1}")
    worlds = bank.world
    travel = worlds[:, b, :3, 3] - worlds[0, b, :3, 3]
    worlds[:, :, 0, 3] -= travel[:, None, 0]
    worlds[:, :, 2, 3] -= travel[:, None, 2]
    if not bank.baked and bank.frames > 1 and bank.duration > 0.0:
        # frame k is at duration·k/frames: the last frame is (frames-1)/frames of the loop in
        last = float(np.hypot(travel[-1, 0], travel[-1, 2]))
        bank.speed = last / (bank.duration * (bank.frames - 1) / bank.frames)
    bank.hips = b
    bank.baked = True
    bank.offset = worlds[0, b, [0, 2], 3].copy()
    return bank


def skinning_bank(worlds: np.ndarray, joint_bones: np.ndarray,
                  inverse_bind: np.ndarray) -> np.ndarray:
    """(frames, joints, 4, 4) float32 skinning matrices of world matrices ``worlds`` (frames,
    bones, 4, 4) m for a skin whose joints are rig bones ``joint_bones`` (joints,) with inverse
    bind matrices ``inverse_bind`` (joints, 4, 4): what a horde's instanced draw reads."""
    return np.matmul(worlds[:, joint_bones], inverse_bind[None]).astype(np.float32)


def posebank_skinning(bank: PoseBank, joint_bones: np.ndarray,
                      inverse_bind: np.ndarray) -> np.ndarray:
    """``skinning_bank`` of a PoseBank's world matrices."""
    return skinning_bank(bank.world, joint_bones, inverse_bind)


def instance_root(pos, yaw: float) -> np.ndarray:
    """(4, 4) an instance's placement: at ``pos`` (3,) m, turned ``yaw`` rad about +y (as
    ``figure.place`` turns a figure's object)."""
    c, s = math.cos(yaw), math.sin(yaw)
    p = np.asarray(pos, dtype=np.float64)
    return np.array([[c, 0.0, s, p[0]], [0.0, 1.0, 0.0, p[1]], [-s, 0.0, c, p[2]],
                     [0.0, 0.0, 0.0, 1.0]])
