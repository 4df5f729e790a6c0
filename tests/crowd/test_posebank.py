"""Pose banks (``ae3d.crowd``): a clip sampled into frames x bones, struck in place.

Measured: a walk's hips travel over the ground before baking and not after (under 1e-12 m), while
its feet still swing; a figure playing the clip at a frame's time, turned as an instance is, with
its hips over the instance's position plus the bank's offset, is the instance's pose (every bone
within 1e-12 m); the horde's skinning bank is the render's (same bits).
"""

from __future__ import annotations

import math
import os

import numpy as np
import pytest

from ae3d import crowd, engine, figure, render

ASSETS = os.path.join(os.path.dirname(os.path.dirname(os.path.dirname(__file__))), "assets")
FRAMES = 24


@pytest.fixture(scope="module")
def walker():
    e = engine.Engine()
    f = figure.figure_of(e, figure.figure(e, "Walker", os.path.join(ASSETS, "boxman.glb")))
    yield f
    e.close()


def _hips(f):
    return figure.humanoid_bones(f.rig)["Hips"]


def test_sampled_in_the_figures_frame(walker):
    bank = crowd.posebank_sample(walker, "Walk", FRAMES)
    dur = figure.clip_duration(walker, "Walk")
    assert bank.world.shape == (FRAMES, walker.rig.count, 4, 4)
    assert bank.duration == pytest.approx(dur) and bank.frames == FRAMES and not bank.baked
    assert bank.hips == _hips(walker)
    k = 7
    want = figure.pose_world(walker, figure.sample(walker, "Walk", dur * k / FRAMES), np.eye(4))
    assert np.array_equal(bank.world[k], want)


def test_bake_in_place_takes_out_the_hips_travel(walker):
    raw = crowd.posebank_sample(walker, "Walk", FRAMES)
    h = raw.hips
    before = raw.world[:, h, :3, 3].copy()
    travel_before = np.linalg.norm((before - before[0])[:, [0, 2]], axis=1).max()
    bank = crowd.posebank_bake_in_place(raw)
    assert bank is raw and bank.baked
    hips = bank.world[:, h, :3, 3]
    travel_after = np.linalg.norm((hips - hips[0])[:, [0, 2]], axis=1).max()
    print(f"hips' ground travel over the loop: {travel_before:.3f} m before, "
          f"{travel_after:.2e} m after")
    assert travel_before > 0.3          # the walk goes somewhere
    assert travel_after < 1e-12         # baked: on the spot
    assert np.abs(hips[:, [0, 2]] - bank.offset).max() < 1e-12
    assert np.array_equal(hips[:, 1], before[:, 1])  # the hips still rise and fall
    # the legs still move: each foot, against the hips, swings by more than 10 cm
    bones = figure.humanoid_bones(walker.rig)
    for foot in ("FootL", "FootR"):
        rel = bank.world[:, bones[foot], :3, 3] - hips
        swing = np.ptp(rel[:, 2])
        print(f"{foot} swings {swing:.3f} m along the walk")
        assert swing > 0.1
    # baking again moves nothing by more than rounding
    again = bank.world.copy()
    crowd.posebank_bake_in_place(bank)
    assert np.abs(bank.world - again).max() < 1e-12


@pytest.mark.parametrize("k", [0, 5, 13, 23])
def test_a_figure_at_the_instance_is_the_instance(walker, k):
    """The spec's relation: the clip at t = phase·duration, turned as the instance, its hips over
    the instance's position plus the bank's offset, is the instance's pose."""
    bank = crowd.posebank_bake_in_place(crowd.posebank_sample(walker, "Walk", FRAMES))
    pos, yaw = np.array([3.0, 0.0, -2.0]), 0.7
    phase = k / FRAMES
    t = bank.time_of(phase)
    inst = crowd.instance_root(pos, yaw) @ bank.world[k]
    # where the clip's hips are at t with the figure's object at the origin
    pose = figure.sample(walker, "Walk", t)
    hips_t = figure.pose_world(walker, pose, np.eye(4))[bank.hips, :3, 3]
    c, s = math.cos(yaw), math.sin(yaw)
    turn = np.array([[c, 0.0, s], [0.0, 1.0, 0.0], [-s, 0.0, c]])
    want_hips = pos + turn @ np.array([bank.offset[0], 0.0, bank.offset[1]])
    figure.place(walker, want_hips - turn @ np.array([hips_t[0], 0.0, hips_t[2]]), yaw)
    placed = figure.pose_world(walker, pose)
    assert np.abs(placed[bank.hips, [0, 2], 3] - want_hips[[0, 2]]).max() < 1e-12
    err = np.abs(placed - inst).max()
    print(f"frame {k}: figure against the instance, every bone {err:.1e}")
    assert err < 1e-12


def test_the_horde_draws_the_crowds_bank(walker):
    bank = crowd.posebank_bake_in_place(crowd.posebank_sample(walker, "Walk", FRAMES))
    mesh = render.figure_mesh(walker)
    mats = crowd.posebank_skinning(bank, mesh.joint_bones, mesh.inverse_bind)
    assert mats.dtype == np.float32 and mats.shape == (FRAMES, mesh.joint_count, 4, 4)
    assert np.array_equal(mats, render.bank_from_clip(walker, "Walk", FRAMES))


def test_bad_input(walker):
    with pytest.raises(TypeError, match="PoseBank"):
        crowd.posebank_bake_in_place(np.zeros((2, 3, 4, 4)))
    bank = crowd.posebank_sample(walker, "Walk", 2)
    with pytest.raises(ValueError, match="hips"):
        crowd.posebank_bake_in_place(bank, hips=10_000)
    with pytest.raises(ValueError, match="frames"):
        crowd.posebank_sample(walker, "Walk", 0)
