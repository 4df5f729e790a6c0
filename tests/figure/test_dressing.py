"""Dressing a ragdoll in a figure's rig, and the two poses (issue 4, "Dressing and the two poses";
spec test_motion_figure's facing).

Limits: dressed, each humanoid faces within 1.5° of its object's quarter turn; bodies put to the
rig and drawn back into it reproduce the rig's bones within 1 mm and 0.5°; the two-bone rig gets
a clear error; the rest pose's targets are the ragdoll's rest targets; a fitted ragdoll driven to
a posed rig is drawn within 5 mm of the pose (the issue's aim), and so is one standing at rest.
"""

from __future__ import annotations

import math

import numpy as np
import pytest

from ae3d import _math as Q
from ae3d import figure, human, physics
from ae3d import physics as D

HUMANOIDS = ("boxman.glb", "mixamo_man.glb")
QUARTER = 0.5 * math.pi


def _qmul(a, b):
    return Q.quat_mul(a, b)


def _angle_between(a, b) -> float:
    """rad between two rotations."""
    d = _qmul(Q.quat_conj(a), b)
    return 2.0 * math.atan2(float(np.linalg.norm(d[:3])), abs(float(d[3])))


def _heading(q, local) -> float:
    f = Q.quat_rot(q, local)
    return math.atan2(f[0], f[2])


def _wrap(a: float) -> float:
    return (a + math.pi) % (2.0 * math.pi) - math.pi


def _make(eng, asset, name, yaw=QUARTER, position=(1.0, 0.0, -2.0)):
    f = figure.figure_of(eng, figure.figure(eng, name, asset(name)))
    figure.place(f, position, yaw)
    return f


def _dressed(eng, asset, name, fitted):
    """A figure and a ragdoll on it: fitted to its rig, or the reference ragdoll dressed."""
    f = _make(eng, asset, name)
    if fitted:
        r = D.ragdoll_for_rig(eng, "R", f)
    else:
        r = physics.ragdoll(eng, "R", (0.0, 0.0, 0.0))
        D.ragdoll_dress(r, f)
    return f, r


def _bone_rot(world, i):
    return Q.mat_quat(world[i, :3, :3])


def _turn(rig, role, q_fig):
    """Turn a rig bone by ``q_fig`` (the figure's axes: its object's turn undone) about its own
    origin, from its rest pose."""
    i = figure.humanoid_bones(rig)[role]
    w = rig.world_of(rig.rest_translation, rig.rest_rotation, rig.rest_scale,
                     np.eye(4))  # the figure's own frame
    wq = _bone_rot(w, i)
    q_world = q_fig
    rig.rotation[i] = Q.quat_pos(_qmul(rig.rest_rotation[i],
                                       _qmul(Q.quat_conj(wq), _qmul(q_world, wq))))


def _qx(deg):
    a = math.radians(deg)
    return np.array([math.sin(0.5 * a), 0.0, 0.0, math.cos(0.5 * a)])


# a pose within every joint's range: hips and knees bent, arms forward, elbows bent, a bow
POSE = {"ThighL": -30, "ThighR": -20, "ShinL": 45, "ShinR": 30, "UpperArmL": -40,
        "UpperArmR": -20, "LowerArmL": -60, "LowerArmR": -30, "Spine": 8, "Chest": 8,
        "Neck": 10, "Head": 10}


def _pose(rig):
    for role, deg in POSE.items():
        _turn(rig, role, _qx(deg))
    rig.update_world()


# ------------------------------------------------------------------------------ facing
@pytest.mark.parametrize("name", HUMANOIDS)
def test_faces_the_objects_turn(eng, asset, name):
    f = _make(eng, asset, name)
    r = D.ragdoll_for_rig(eng, "R", f)
    assert D.ragdoll_dressed(r) is f.rig
    _, q = physics.ragdoll_pose(r)
    for b in (human.BONE_PELVIS, human.BONE_SPINE_03, human.BONE_THIGH_L, human.BONE_CALF_R):
        err = _wrap(_heading(q[b], human.BONE_FORWARD_LOCAL[b]) - QUARTER)
        assert abs(math.degrees(err)) < 1.5, (name, b, math.degrees(err))
    # made where the object stands: its lowest point on the object's ground, pelvis over it
    p, _ = physics.ragdoll_pose(r)
    assert abs(p[human.BONE_PELVIS][0] - 1.0) < 1e-9 and abs(p[human.BONE_PELVIS][2] + 2.0) < 1e-9
    # the left hand side is where the figure's left is: facing +x, left is -z
    assert p[human.BONE_UPPERARM_L][2] < -2.1 and p[human.BONE_UPPERARM_R][2] > -1.9


@pytest.mark.parametrize("name", HUMANOIDS)
def test_hand_built_ragdoll_put_on_a_turned_rig(eng, asset, name):
    f = _make(eng, asset, name)
    r = physics.ragdoll(eng, "R", (0.0, 0.0, 0.0), 8.0, 8.0, 1.0)  # facing +z, elsewhere
    D.ragdoll_dress(r, f)
    D.ragdoll_to_rig(r)
    p, q = physics.ragdoll_pose(r)
    err = _wrap(_heading(q[0], human.BONE_FORWARD_LOCAL[0]) - QUARTER)
    assert abs(math.degrees(err)) < 1.5
    hips = f.rig.world_position(figure.humanoid_bones(f.rig)["Hips"])
    assert np.linalg.norm((p[0] - hips)[[0, 2]]) < 1e-9  # the pelvis over the hips


# ------------------------------------------------------------------------------ scheme
def test_two_bone_rig_is_refused(eng, asset):
    f = figure.figure_of(eng, figure.figure(eng, "Bar", asset("two_bone.glb")))
    n = eng.physics.body_count() if callable(getattr(eng.physics, "body_count", None)) else None
    with pytest.raises(ValueError, match="no humanoid naming"):
        D.ragdoll_for_rig(eng, "R", f)
    if n is not None:
        assert eng.physics.body_count() == n  # nothing made
    r = physics.ragdoll(eng, "R", (0.0, 0.0, 0.0))
    with pytest.raises(ValueError, match="pipeline.*Mixamo"):
        D.ragdoll_dress(r, f.rig)
    assert D.ragdoll_dressed(r) is None
    with pytest.raises(ValueError, match="not dressed"):
        D.ragdoll_rig_targets(r)
    with pytest.raises(TypeError):
        D.ragdoll_dress(r, "Hips")


@pytest.mark.parametrize("name, chest, forearm", [
    ("boxman.glb", "Chest", "LowerArmL"),
    ("mixamo_man.glb", "mixamorig:Spine2", "mixamorig:LeftForeArm"),
    ("zombie.glb", "Spine2", "LeftForeArm"),
])
def test_bones_by_scheme(eng, asset, name, chest, forearm):
    f = _make(eng, asset, name, yaw=0.0)
    r = D.ragdoll_for_rig(eng, "R", f.rig)  # a Rig finds its figure's meshes
    assert f.rig.names[D.ragdoll_rig_bone(r, human.BONE_SPINE_03)] == chest
    assert f.rig.names[D.ragdoll_rig_bone(r, human.BONE_LOWERARM_L)] == forearm
    with pytest.raises(ValueError):
        D.ragdoll_rig_bone(r, 99)


# ------------------------------------------------------------------------------ round trips
def _check_reproduced(rig, before):
    after = rig.world
    dp = np.linalg.norm(after[:, :3, 3] - before[:, :3, 3], axis=1)
    assert dp.max() < 1e-3, dp.max()
    for i in range(rig.count):
        a = math.degrees(_angle_between(_bone_rot(before, i), _bone_rot(after, i)))
        assert a < 0.5, (rig.names[i], a)


@pytest.mark.parametrize("name", HUMANOIDS)
@pytest.mark.parametrize("fitted", [True, False])
def test_bodies_put_to_the_rig_and_drawn_back(eng, asset, name, fitted):
    f, r = _dressed(eng, asset, name, fitted)
    figure.play(f, "Walk", 1.0, True)
    figure.set_clip_time(f, 0.3)
    _pose(f.rig)  # a pose of its own on top of the walk's hips
    before = f.rig.world.copy()
    D.ragdoll_to_rig(r)
    assert not np.any(physics.velocity(eng, physics.ragdoll_body(r, 0)))
    # scramble the rig's dressed bones: the drawing must write them back from the bodies
    for b in range(r.bones):
        f.rig.rotation[D.ragdoll_rig_bone(r, b)] = (0.0, 0.0, 0.0, 1.0)
    D.ragdoll_to_rig_pose(r)
    _check_reproduced(f.rig, before)
    D.ragdoll_to_rig_pose(r, positions=False)
    _check_reproduced(f.rig, before)


def test_carried_bones_keep_the_animations_pose(eng, asset):
    f = _make(eng, asset, "mixamo_man.glb")
    r = D.ragdoll_for_rig(eng, "R", f)
    rig = f.rig
    hb = figure.humanoid_bones(rig)
    _turn(rig, "HandL", _qx(-30))
    _turn(rig, "Head", _qx(15))
    rig.update_world()
    hand_local = rig.rotation[hb["HandL"]].copy()
    spine1 = rig.bone("mixamorig:Spine1")
    # the bodies somewhere else: the elbow bent
    D.ragdoll_to_rig(r)
    j = physics.ragdoll_body(r, human.BONE_LOWERARM_L)
    physics.set_rotation(eng, j, _qmul(_qx(-50), physics.rotation(eng, j)))
    D.ragdoll_to_rig_pose(r)
    assert np.allclose(rig.rotation[hb["HandL"]], hand_local)
    assert np.allclose(rig.rotation[spine1], rig.rest_rotation[spine1])
    # the hand went with the forearm: 50° further round than the animation's
    wq = _bone_rot(rig.world, hb["HandL"])
    d = math.degrees(_angle_between(wq, _bone_rot(rig.world_of(
        *D.ragdoll_animation_pose(r)), hb["HandL"])))
    assert abs(d - 50.0) < 0.5


def test_the_animations_pose_is_kept_beside_the_rig(eng, asset):
    f = _make(eng, asset, "boxman.glb")
    r = D.ragdoll_for_rig(eng, "R", f)
    rig = f.rig
    hb = figure.humanoid_bones(rig)
    _pose(rig)
    anim_q = rig.rotation.copy()
    D.ragdoll_to_rig(r)
    # the bodies fall somewhere else and are drawn
    body = physics.ragdoll_body(r, human.BONE_SPINE_03)
    physics.set_rotation(eng, body, _qmul(_qx(30), physics.rotation(eng, body)))
    D.ragdoll_to_rig_pose(r)
    assert not np.allclose(rig.rotation[hb["Chest"]], anim_q[hb["Chest"]])
    # the animation moves one bone; the rest stay where the animation last put them
    _turn(rig, "ThighL", _qx(-10))
    t, q, _ = D.ragdoll_animation_pose(r)
    assert np.array_equal(q[hb["ThighL"]], rig.rotation[hb["ThighL"]])
    assert np.array_equal(q[hb["Chest"]], anim_q[hb["Chest"]])
    targets = D.ragdoll_rig_targets(r)
    want = D.ragdoll_rig_targets(r)
    assert np.array_equal(targets, want)
    D.ragdoll_restore_rig(r)
    assert np.array_equal(rig.rotation[hb["Chest"]], anim_q[hb["Chest"]])


# ------------------------------------------------------------------------------ targets
@pytest.mark.parametrize("name", HUMANOIDS)
@pytest.mark.parametrize("fitted", [True, False])
def test_rest_pose_targets_are_the_rest_targets(eng, asset, name, fitted):
    f, r = _dressed(eng, asset, name, fitted)
    figure.play(f, "Walk", 1.0, True)  # a clip playing does not matter: the rest pose is read
    f.rig.reset()
    t = D.ragdoll_rig_targets(r)
    rest = physics.ragdoll_rest_targets(r)
    assert t.shape == (r.bones, 4)
    for b in range(1, r.bones):
        assert _angle_between(t[b], rest[b]) < math.radians(0.01)
    # and the bodies' own relative rotations, put to the rig
    D.ragdoll_to_rig(r)
    now = physics.ragdoll_local_rotations(r)
    for b in range(r.bones):
        assert _angle_between(t[b], now[b]) < 1e-9


def _drive_to_pose(eng, asset, name, fit, seconds=1.0):
    physics.set_gravity(eng, (0.0, 0.0, 0.0))
    f = _make(eng, asset, name)
    r = D.ragdoll_for_rig(eng, "R", f, fit=fit)
    _pose(f.rig)
    want = f.rig.world.copy()
    D.ragdoll_to_rig(r)
    p, q = D.ragdoll_rig_bodies(r)
    physics.ragdoll_set_powered(r, True)
    physics.ragdoll_follow(r, human.BONE_PELVIS, (p[0], q[0]))
    targets = D.ragdoll_rig_targets(r)
    physics.ragdoll_drive(r, targets)
    for _ in range(int(seconds * 60)):
        eng.physics.step(1.0 / 60.0)
    D.ragdoll_to_rig_pose(r)
    roles = figure.humanoid_bones(f.rig)
    idx = sorted(set(roles.values()))
    err = 1e3 * np.linalg.norm(f.rig.world[idx, :3, 3] - want[idx, :3, 3], axis=1).max()
    return r, targets, err


@pytest.mark.parametrize("name", HUMANOIDS)
def test_driven_to_the_rigs_targets(eng, asset, name):
    r, targets, err = _drive_to_pose(eng, asset, name, fit=True)
    now = physics.ragdoll_local_rotations(r)
    for b in range(1, r.bones):
        assert _angle_between(now[b], targets[b]) < math.radians(0.5), b
    print(f"\n{name}: fitted, driven to a pose, drawn {err:.2f} mm from it")
    assert err < 5.0


def test_scaled_reference_trails_a_rig_of_other_proportions(eng, asset):
    """Measured, not a limit: the reference ragdoll scaled to the Mixamo man's height (longer
    arms) is drawn centimetres from the pose it is driven to; fitted, under a millimetre."""
    _, _, err = _drive_to_pose(eng, asset, "mixamo_man.glb", fit=False)
    print(f"\nmixamo_man.glb: scaled reference, driven to a pose, drawn {err:.1f} mm from it")
    assert err > 5.0


@pytest.mark.parametrize("name", HUMANOIDS)
def test_standing_at_rest_drawn_as_the_rig(eng, asset, name):
    physics.ground(eng)
    f = _make(eng, asset, name)
    r = D.ragdoll_for_rig(eng, "R", f)
    want = f.rig.world.copy()
    physics.ragdoll_set_powered(r, True)
    physics.ragdoll_set_balance(r)
    physics.ragdoll_set_heading(r, QUARTER)
    for _ in range(60):
        physics.ragdoll_drive(r, D.ragdoll_rig_targets(r))
        eng.physics.step(1.0 / 60.0)
    D.ragdoll_to_rig_pose(r)
    err = 1e3 * np.linalg.norm(f.rig.world[:, :3, 3] - want[:, :3, 3], axis=1).max()
    print(f"\n{name}: standing 1 s on its muscles, drawn {err:.2f} mm from the rig's rest")
    assert err < 5.0


def test_with_ankles(eng, asset):
    """A ragdoll with feet (physics.set_ankles) is fitted and dressed the same way: its feet on
    the rig's feet, flat on the ground, and the round trip exact."""
    physics.set_ankles(eng, True)
    f = _make(eng, asset, "mixamo_man.glb")
    r = D.ragdoll_for_rig(eng, "R", f)
    assert r.bones == human.BONE_COUNT_FEET
    assert f.rig.names[D.ragdoll_rig_bone(r, human.BONE_FOOT_L)] == "mixamorig:LeftFoot"
    p, q = physics.ragdoll_pose(r)
    for b in (human.BONE_FOOT_L, human.BONE_FOOT_R):
        rad = eng.physics.bf[r.bodies[b], 43]
        assert abs(p[b][1] - rad) < 1e-6  # resting on the ground (y = 0)
        assert abs(math.degrees(_wrap(_heading(q[b], human.BONE_FORWARD_LOCAL[b]) - QUARTER))) < 1.5
    t = D.ragdoll_rig_targets(r)
    rest = physics.ragdoll_rest_targets(r)
    assert max(_angle_between(t[b], rest[b]) for b in range(1, r.bones)) < 1e-6
    _pose(f.rig)
    before = f.rig.world.copy()
    D.ragdoll_to_rig(r)
    D.ragdoll_to_rig_pose(r)
    _check_reproduced(f.rig, before)


def test_a_playing_clip_is_the_animations_pose_under_the_drawing(eng, asset):
    """Frame by frame the clip writes the rig, the muscles read it, the bodies are drawn over
    it: the animation's pose kept beside the rig is the clip's, to the bit."""
    physics.ground(eng)
    f = _make(eng, asset, "zombie.glb")
    r = D.ragdoll_for_rig(eng, "R", f)
    figure.play(f, "Walk", 1.0, True)
    physics.ragdoll_set_powered(r, True)
    physics.ragdoll_set_balance(r)
    for _ in range(20):
        physics.ragdoll_drive(r, D.ragdoll_rig_targets(r))
        eng.frame(1.0 / 60.0)
        D.ragdoll_to_rig_pose(r)
    t, q, _ = D.ragdoll_animation_pose(r)
    want = figure.sample(f, "Walk", figure.clip_time(f))
    assert np.array_equal(q, want.rotation)
    assert np.array_equal(t, want.translation)
