"""tests/test_motion_figure.ae in pytest: active ragdolls on figures (``motion.on_figure``) and the
scene file's motion record.

Two humanoid rigs, one in each naming (the pipeline's box man, and Mixamo's), each turned a
quarter turn by its object, and a two-bone rig:

- both humanoids are known, and the two bones are not (no ragdoll: None, not a crash);
- dressed, each faces within 1.5° of its object's turn;
- POWERED, both stand on their muscles for two seconds, the pelvis at 1.0 m and leaning at most 1°;
- the scene record brings back each one's mode, strength, protection and get-up;
- destroying a figure's object takes its active ragdoll: its bodies out of the world.
"""

from __future__ import annotations

import json
import math

import numpy as np
import pytest
from motion import measure as M

from ae3d import engine, figure, human, motion, physics

QUARTER = math.pi / 2


def _facing(r) -> float:
    """rad about +y from +z: the way the pelvis body faces."""
    _, q = physics.ragdoll_pose(r)
    f = M.qrot(q[human.BONE_PELVIS], human.BONE_FORWARD_LOCAL[human.BONE_PELVIS])
    return math.atan2(f[0], f[2])


@pytest.fixture(scope="module")
def scene():
    e = engine.Engine()
    physics.ground(e)
    out = {"bodies": {}, "objects": {}}
    for name, path, x in (("box", "boxman.glb", 0.0), ("mixamo", "mixamo_man.glb", 3.0),
                          ("two", "two_bone.glb", 6.0)):
        z = figure.figure(e, name, path)
        f = figure.figure_of(e, z)
        figure.place(f, (x, 0.0, 0.0), QUARTER)
        if "Idle" in figure.clips(f):
            figure.play(f, "Idle", 1.0, True)
        out["objects"][name] = z
        out["bodies"][name] = motion.on_figure(e, z)
    out["facing"] = {k: _facing(b.ragdoll) for k, b in out["bodies"].items() if b is not None}
    for b in out["bodies"].values():
        if b is not None:
            motion.set_mode(b, motion.POWERED)
    e.run(seconds=0.5)
    leans = {k: 0.0 for k in out["facing"]}
    heights = {k: [] for k in out["facing"]}
    for _ in range(120):
        e.frame(1.0 / 60.0)
        for k in leans:
            b = out["bodies"][k]
            leans[k] = max(leans[k], motion.lean(b))
            heights[k].append(M.pelvis_height(b.ragdoll))
    out["leans"] = leans
    out["heights"] = heights
    out["e"] = e
    yield out
    e.close()


def test_namings(scene):
    assert scene["bodies"]["box"] is not None
    assert scene["bodies"]["mixamo"] is not None
    assert scene["bodies"]["two"] is None


def test_faces_its_object(scene):
    for k, yaw in scene["facing"].items():
        err = abs(math.remainder(yaw - QUARTER, 2 * math.pi))
        print(f"{k}: faces {math.degrees(yaw):.2f} deg, {math.degrees(err):.3f} deg off its "
              "object's turn")
        assert err < math.radians(1.5)


@pytest.mark.parametrize("k", [
    "box",
    "mixamo",
])
def test_stands_on_its_muscles(scene, k):
    lean = scene["leans"][k]
    h = scene["heights"][k]
    print(f"{k}: pelvis {min(h):.3f}..{max(h):.3f} m, leaning at most {math.degrees(lean):.3f} deg")
    assert motion.mode(scene["bodies"][k]) == motion.POWERED
    assert min(h) > 0.9 and max(h) < 1.1   # the pelvis at 1.0 m: standing, not sunk
    assert lean <= math.radians(1.0)


def test_scene_record_round_trip(scene):
    e = scene["e"]
    b = scene["bodies"]["box"]
    motion.set_strength(b, 0.8)
    motion.set_protective(b, False)
    motion.set_get_up(b, 3.0)
    rec = json.loads(json.dumps(motion.record(b)))
    assert rec == {"mode": "powered", "strength": 0.8, "protective": False, "get_up": 3}
    # a scene read in: a fresh figure, the record put back
    with engine.Engine() as e2:
        physics.ground(e2)
        z = figure.figure(e2, "box", "boxman.glb")
        b2 = motion.from_record(e2, z, rec)
        assert motion.mode(b2) == motion.POWERED
        assert motion.strength(b2) == 0.8
        assert b2.protective is False and b2.get_up == 3.0
        assert motion.record(b2) == rec
        with pytest.raises(ValueError, match="mode"):
            motion.from_record(e2, z, {"mode": "flying"})
        with pytest.raises(ValueError, match="strength"):
            motion.from_record(e2, z, {"strength": 2})
    assert e is scene["e"]


def test_destroy_with_the_object(scene):
    e = scene["e"]
    z = scene["objects"]["mixamo"]
    b = scene["bodies"]["mixamo"]
    before = e.physics.body_count()
    powered = e.physics.powered
    engine.destroy(e, z)
    e.frame(1.0 / 60.0)
    assert b.released and b.ragdoll.destroyed
    assert e.physics.body_count() == before - b.ragdoll.bones
    assert e.physics.powered == powered - 1
    assert motion.motion_of(e, z) is None
    with pytest.raises(ValueError, match="destroyed"):
        motion.set_mode(b, motion.LIMP)
    e.run(seconds=0.1)
    assert np.all(np.isfinite(e.physics.bf[: e.physics.n]))
