"""Each asset loads with the bones, height and clips it was made with; the script is
deterministic and the committed files are what it writes."""

from __future__ import annotations

import os

import numpy as np
import pytest

from ae3d import figure

SIDED = ("Shoulder", "UpperArm", "LowerArm", "Hand", "Thigh", "Shin", "Foot", "Toes")
PIPELINE = ["Hips", "Spine", "Chest", "Neck", "Head"] + [b + s for s in "LR" for b in SIDED]
MIXAMO_SIDED = ("Shoulder", "Arm", "ForeArm", "Hand", "UpLeg", "Leg", "Foot", "ToeBase")
MIXAMO = ["Hips", "Spine", "Spine1", "Spine2", "Neck", "Head"] + [
    side + b for side in ("Left", "Right") for b in MIXAMO_SIDED]

EXPECTED = {
    "boxman.glb": (PIPELINE + ["Body"], 0),
    "mixamo_man.glb": (["Armature"] + ["mixamorig:" + n for n in MIXAMO] + ["Body"], 1),
    "zombie.glb": (["Armature"] + MIXAMO + ["Body"], 1),
    "two_bone.glb": (["Base", "Tip", "Bar"], -1),
}


@pytest.mark.parametrize("name", sorted(EXPECTED))
def test_asset_loads_as_made(name, asset, eng, make_assets):
    names, scheme = EXPECTED[name]
    height, durations = make_assets.MADE[name]
    f = figure.figure_of(eng, figure.figure(eng, name, asset(name)))
    assert sorted(f.rig.names) == sorted(names)
    assert figure.humanoid_scheme(f.rig) == scheme
    assert figure.bind_height(f) == pytest.approx(height, abs=1e-5)
    assert figure.clips(f) == list(durations)
    for clip, d in durations.items():
        assert figure.clip_duration(f, clip) == pytest.approx(d, abs=1e-6)
    # parents come before children
    assert all(p < i for i, p in enumerate(f.rig.parents))


def test_boxman_proportions(asset, eng):
    """Joints where ae3d.human's reference ragdoll has them; feet on the ground, facing +z."""
    f = figure.figure_of(eng, figure.figure(eng, "b", asset("boxman.glb")))
    at = {n: f.rig.world[f.rig.bone(n), :3, 3] for n in f.rig.names}
    assert at["Hips"][1] == pytest.approx(0.98)
    assert at["ThighL"] == pytest.approx([0.09, 0.93, 0.0])
    assert at["ShinL"][1] == pytest.approx(0.51)
    assert at["UpperArmL"] == pytest.approx([0.22, 1.44, 0.0])
    assert at["UpperArmR"] == pytest.approx([-0.22, 1.44, 0.0])
    assert at["ToesL"][2] > at["FootL"][2]  # toes ahead: facing +z
    lo = min(p[:, 1].min() for p, _ in figure.skin(f))
    assert lo == pytest.approx(0.0, abs=1e-6)


def test_mixamo_root_is_honoured(asset, eng):
    """Bones hang under a node turned -90° about x and scaled 0.01 (cm, z up): in the world the
    figure stands y up in metres, taller than the box man, with longer arms."""
    f = figure.figure_of(eng, figure.figure(eng, "m", asset("mixamo_man.glb")))
    rig = f.rig
    root = rig.bone("Armature")
    assert rig.rest_scale[root] == pytest.approx([0.01, 0.01, 0.01])
    s = np.sqrt(0.5)
    assert abs(rig.rest_rotation[root] @ np.array([-s, 0, 0, s])) == pytest.approx(1.0)
    hips = rig.bone("mixamorig:Hips")
    assert rig.rest_translation[hips][2] > 50.0  # cm, z up in the armature's space
    w = rig.world
    assert w[hips, 1, 3] == pytest.approx(0.98 * 1.95 / 1.8, abs=1e-6)
    assert np.linalg.norm(w[hips, :3, 0]) == pytest.approx(0.01)
    arm = (w[rig.bone("mixamorig:LeftArm"), :3, 3] - w[rig.bone("mixamorig:LeftHand"), :3, 3])
    box = figure.load(asset("boxman.glb"))
    bw = figure.Rig(box.rig).world
    barm = bw[box.rig.index["UpperArmL"], :3, 3] - bw[box.rig.index["HandL"], :3, 3]
    assert np.linalg.norm(arm) > 1.15 * np.linalg.norm(barm)


def test_walk_travels_and_bow_bows(asset, eng):
    import math

    for name, hips_name, chest_name in (("boxman.glb", "Hips", "Chest"),
                                         ("mixamo_man.glb", "mixamorig:Hips",
                                          "mixamorig:Spine2")):
        f = figure.figure_of(eng, figure.figure(eng, name, asset(name)))
        hips = f.rig.bone(hips_name)
        w0 = figure.pose_world(f, figure.sample(f, "Walk", 0.0))
        w1 = figure.pose_world(f, figure.sample(f, "Walk", 1.0))
        travel = w1[hips, :3, 3] - w0[hips, :3, 3]
        assert travel[2] > 1.2 and abs(travel[0]) < 1e-6  # forward, over the ground
        chest = f.rig.bone(chest_name)
        rest = f.rig.world[chest, :3, :3]
        bow = figure.pose_world(f, figure.sample(f, "Bow", 1.0))[chest, :3, :3]
        r = (bow / np.linalg.norm(bow[:, 0])) @ (rest / np.linalg.norm(rest[:, 0])).T
        assert math.degrees(math.atan2(r[2, 1], r[1, 1])) == pytest.approx(15.0, abs=1e-4)
        end = figure.pose_world(f, figure.sample(f, "Bow", 2.0))[chest, :3, :3]
        assert end == pytest.approx(rest, abs=1e-6)


def test_assets_are_deterministic_and_current(tmp_path, make_assets, asset):
    paths = make_assets.make_all(str(tmp_path))
    for p in paths:
        name = os.path.basename(p)
        with open(p, "rb") as fh:
            made = fh.read()
        with open(asset(name), "rb") as fh:
            assert fh.read() == made, f"assets/{name} is stale: run assets/make_assets.py"


def test_assets_cover_the_vertex_component_types(asset):
    """Between them the assets hold joints as unsigned bytes and shorts, and weights as floats,
    normalised unsigned bytes and normalised unsigned shorts."""
    import pygltflib

    joints, weights = set(), set()
    for name in EXPECTED:
        doc = pygltflib.GLTF2().load(asset(name))
        for mesh in doc.meshes:
            for prim in mesh.primitives:
                joints.add(doc.accessors[prim.attributes.JOINTS_0].componentType)
                acc = doc.accessors[prim.attributes.WEIGHTS_0]
                weights.add((acc.componentType, bool(acc.normalized)))
    assert joints == {5121, 5123}
    assert weights == {(5126, False), (5121, True), (5123, True)}
