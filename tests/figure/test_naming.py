"""Humanoid scheme detection: the pipeline's names, Mixamo's with and without a prefix, neither."""

from __future__ import annotations

import pytest

from ae3d import figure
from ae3d.figure import _naming

SIDED = ("Shoulder", "UpperArm", "LowerArm", "Hand", "Thigh", "Shin", "Foot", "Toes")
PIPELINE = ["Hips", "Spine", "Chest", "Neck", "Head"] + [b + s for s in "LR" for b in SIDED]
MX_SIDED = ("Shoulder", "Arm", "ForeArm", "Hand", "UpLeg", "Leg", "Foot", "ToeBase")
MIXAMO = ["Hips", "Spine", "Spine1", "Spine2", "Neck", "Head"] + [
    s + b for s in ("Left", "Right") for b in MX_SIDED]


def test_pipeline():
    assert figure.humanoid_scheme(PIPELINE) == 0
    assert figure.humanoid_scheme(["Root"] + PIPELINE + ["Body"]) == 0
    bones = figure.humanoid_bones(PIPELINE)
    assert bones["Chest"] == 2 and bones["ThighR"] == PIPELINE.index("ThighR")


@pytest.mark.parametrize("prefix", ["mixamorig:", "", "mixamorig1:"])
def test_mixamo(prefix):
    names = ["Armature"] + [prefix + n for n in MIXAMO]
    assert figure.humanoid_scheme(names) == 1
    bones = figure.humanoid_bones(names)
    assert names[bones["Chest"]] == prefix + "Spine2"  # the top spine bone is the chest
    assert names[bones["LowerArmL"]] == prefix + "LeftForeArm"
    assert names[bones["ToesR"]] == prefix + "RightToeBase"


def test_optional_roles():
    names = [n for n in PIPELINE if not n.startswith(("Toes", "Shoulder"))]
    assert figure.humanoid_scheme(names) == 0
    assert "ToesL" not in figure.humanoid_bones(names)


@pytest.mark.parametrize("names", [
    ["Base", "Tip", "Bar"],
    [n for n in PIPELINE if n != "ThighL"],
    ["mixamorig:" + n for n in MIXAMO if n != "Spine2"],
    ["mixamorig:" + n for n in MIXAMO[:10]] + MIXAMO[10:],  # prefix not kept throughout
    [],
])
def test_neither(names):
    assert figure.humanoid_scheme(names) == -1
    with pytest.raises(ValueError, match="no humanoid naming"):
        figure.humanoid_bones(names)


def test_rigs_and_figures(asset, eng):
    for name, want in (("boxman.glb", 0), ("mixamo_man.glb", 1), ("zombie.glb", 1),
                       ("two_bone.glb", -1)):
        f = figure.figure_of(eng, figure.figure(eng, name, asset(name)))
        assert _naming.humanoid_scheme(f.rig) == want
        assert _naming.humanoid_scheme(f) == want
        assert _naming.humanoid_scheme(f.model.rig) == want
    with pytest.raises(TypeError):
        figure.humanoid_scheme("Hips")
