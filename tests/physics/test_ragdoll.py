"""The reference ragdoll (issue 3): its build, its limits under blows, standing on its motors and
balance, a limp collapse that rests and sleeps, park/unpark, determinism, and the calls the motion
module drives it by."""

import hashlib
import math

import numpy as np
import pytest

from ae3d import engine, human, physics
from ae3d.physics import _kernels_joints as K
from ae3d.physics import _layout as L


def _world_with_ground():
    e = engine.Engine()
    w = e.physics
    w.add_body(L.KIND_STATIC, L.SHAPE_PLANE, (0.0, 0.0, 0.0), (0.0, 0.0, 0.0))
    return e, w


def _blow(w, s, point, P):
    """Apply impulse P (N·s) at world point to body slot s."""
    P = np.asarray(P, dtype=float)
    w.bf[s, L.B_V:L.B_V + 3] += w.bf[s, L.B_INV_MASS] * P
    r = np.asarray(point) - w.bf[s, L.B_POS:L.B_POS + 3]
    iw = w.bf[s, L.B_IW:L.B_IW + 9].reshape(3, 3)
    w.bf[s, L.B_W:L.B_W + 3] += iw @ np.cross(r, P)
    w.wake(s)


def _lean(w, r):
    q = tuple(w.bf[r.bodies[human.BONE_PELVIS], L.B_QUAT:L.B_QUAT + 4])
    u = K.qrot(q, human.BONE_UP_LOCAL[human.BONE_PELVIS])
    return math.acos(max(-1.0, min(1.0, u[1])))


# ------------------------------------------------------------------ the build
def test_build_twelve_bones_adult_frames_and_budgets():
    e, w = _world_with_ground()
    r = physics.ragdoll(e, "Zombie", (0.0, 0.0, 0.0), 8.0, 8.0, 1.0)
    assert r.bones == 12 and w.nj == 11
    mass = sum(w.bf[s, L.B_MASS] for s in r.bodies)
    assert 75.0 <= mass <= 80.0
    top = w.bf[r.bodies[human.BONE_NECK], L.B_POS + 1] + sum(
        w.bf[r.bodies[human.BONE_NECK], L.B_DIMS:L.B_DIMS + 2])
    assert 1.75 < top < 1.85
    low = min(w.bf[s, L.B_POS + 1] - w.bf[s, L.B_DIMS] - w.bf[s, L.B_DIMS + 1] for s in r.bodies)
    assert abs(low) < 1e-9
    # built at rest: every joint inside its limits, the knees straight
    err = physics.ragdoll_limit_errors(r)
    assert np.all(err[:, :2] == 0.0)
    assert abs(err[human.BONE_CALF_L, 2]) < 1e-12
    # the pelvis's explicit frame: local +x up, +z forward
    q = tuple(w.bf[r.bodies[0], L.B_QUAT:L.B_QUAT + 4])
    assert np.allclose(K.qrot(q, human.BONE_UP_LOCAL[0]), (0, 1, 0), atol=1e-12)
    assert np.allclose(K.qrot(q, human.BONE_FORWARD_LOCAL[0]), (0, 0, 1), atol=1e-12)
    # budgets from human.py
    assert r.budgets[human.BONE_THIGH_L] == human.BUDGET_HIP == 300.0
    assert r.budgets[human.BONE_CALF_R] == 250.0 and r.budgets[human.BONE_SPINE_03] == 250.0
    assert r.budgets[human.BONE_UPPERARM_L] == 80.0 and r.budgets[human.BONE_LOWERARM_R] == 60.0
    assert r.budgets[human.BONE_NECK] == 40.0
    # the pelvis turns as a heavier body (human.PELVIS_INERTIA_SCALE), its mass its own; every
    # other bone has its capsule's inertia
    from ae3d.physics._world import shape_mass
    for b in (human.BONE_PELVIS, human.BONE_THIGH_L):
        s = r.bodies[b]
        _, inert, _ = shape_mass(L.SHAPE_CAPSULE, tuple(w.bf[s, L.B_DIMS:L.B_DIMS + 3]))
        own = w.bf[s, L.B_MASS] * np.array(inert)
        k = human.PELVIS_INERTIA_SCALE if b == human.BONE_PELVIS else 1.0
        assert np.allclose(1.0 / w.bf[s, L.B_INV_I:L.B_INV_I + 3], k * own, rtol=1e-12)
    # joined bodies never collide
    for b in range(1, 12):
        a, c = sorted((int(r.bodies[b]), int(r.bodies[human.BONE_PARENT[b]])))
        assert ((a << 32) | c) in w._ignore
    # with ankles: feet
    physics.set_ankles(e, True)
    r2 = physics.ragdoll(e, "Footed", (3.0, 0.0, 0.0), 8.0, 8.0, 1.0)
    assert r2.bones == 14 and r2.budgets[human.BONE_FOOT_L] == human.BUDGET_ANKLE
    assert 75.0 <= sum(w.bf[s, L.B_MASS] for s in r2.bodies) <= 80.0
    assert np.all(physics.ragdoll_limit_errors(r2)[:, :2] == 0.0)
    e.close()


# ------------------------------------------------------------------ limits under blows
def test_limp_ragdoll_struck_by_20_blows_keeps_its_limits():
    e, w = _world_with_ground()
    r = physics.ragdoll(e, "limp", (0.0, 1.0, 0.0), 8.0, 8.0, 1.0)  # dropped from 1 m
    physics.ragdoll_set_strength(r, 0.0)
    rng = np.random.default_rng(3)
    worst = np.zeros((r.bones, 2))
    knee = 0.0
    for i in range(30 + 20 * 15 + 60):
        if i >= 30 and (i - 30) % 15 == 0 and (i - 30) // 15 < 20:
            # a blow at a random bone, a random way, giving that bone 2 to 6 m/s
            b = int(rng.integers(0, r.bones))
            s = int(r.bodies[b])
            d = rng.normal(size=3)
            d /= np.linalg.norm(d)
            P = d * rng.uniform(2.0, 6.0) * w.bf[s, L.B_MASS]
            _blow(w, s, w.bf[s, L.B_POS:L.B_POS + 3] + rng.normal(size=3) * 0.05, P)
        e.fixed_step()
        err = physics.ragdoll_limit_errors(r)
        worst = np.maximum(worst, err[:, :2])
        knee = min(knee, err[human.BONE_CALF_L, 2], err[human.BONE_CALF_R, 2])
    assert np.degrees(worst.max()) < 3.0, np.degrees(worst).round(2).tolist()
    assert knee > -math.radians(0.5), f"a knee bent {math.degrees(-knee):.2f} deg past straight"
    e.close()


# ------------------------------------------------------------------ standing
@pytest.fixture(scope="module")
def standing():
    """One ragdoll standing 10 s on its motors (driven to its standing pose every step) and the
    pelvis's upright anchor at 1,200 N·m: what it did, step by step."""
    e, w = _world_with_ground()
    r = physics.ragdoll(e, "stander", (0.0, 0.0, 0.0), 8.0, 8.0, 1.0)
    physics.ragdoll_set_powered(r, True)
    physics.ragdoll_set_balance(r, human.BALANCE_TORQUE)
    rest = physics.ragdoll_rest_targets(r)
    ys, leans, spins = [], [], []
    for _ in range(600):
        physics.ragdoll_drive(r, rest)
        e.fixed_step()
        ys.append(w.bf[r.bodies[0], L.B_POS + 1])
        leans.append(_lean(w, r))
        spins.append(np.linalg.norm(w.bf[r.bodies, L.B_W:L.B_W + 3], axis=1))
    yield e, w, r, np.array(ys), np.array(leans), np.array(spins)
    e.close()


def test_standing_ten_seconds_on_motors_and_balance(standing):
    e, w, r, ys, leans, spins = standing
    assert w.effective_substeps == 8
    assert ys.min() > 0.9
    assert np.degrees(leans.max()) < 2.0
    quiet = spins[60:300]  # from 1 s to 5 s
    assert quiet.mean() < 0.05 and quiet.max() < 0.2


def test_standing_figure_gives_to_a_shove_and_stays_up(standing):
    e, w, r, *_ = standing
    _blow(w, int(r.bodies[human.BONE_SPINE_03]), w.bf[r.bodies[2], L.B_POS:L.B_POS + 3],
          (0.0, 0.0, 40.0))
    rest = physics.ragdoll_rest_targets(r)

    def pose_error():
        now = physics.ragdoll_local_rotations(r)
        return max(np.linalg.norm(K.rotvec(K.qmul(tuple(now[b]), K.qconj(tuple(rest[b])))))
                   for b in range(1, r.bones))

    most = 0.0
    for _ in range(180):
        physics.ragdoll_drive(r, rest)
        e.fixed_step()
        most = max(most, pose_error())
    assert most > math.radians(2.0)  # it gave where it was struck
    # and stays up (without feet it rocks on its calves' round ends a while: the hips take it)
    assert _lean(w, r) < math.radians(2.0) and w.bf[r.bodies[0], L.B_POS + 1] > 0.9


# ------------------------------------------------------------------ limp
def test_limp_ragdoll_collapses_rests_within_3s_and_sleeps():
    e, w = _world_with_ground()
    r = physics.ragdoll(e, "limp", (0.0, 0.0, 0.0), 8.0, 8.0, 1.0)
    physics.ragdoll_set_strength(r, 0.0)
    _blow(w, int(r.bodies[human.BONE_SPINE_03]), w.bf[r.bodies[2], L.B_POS:L.B_POS + 3],
          (0.0, 0.0, 15.0))
    rested = None
    for i in range(240):
        e.fixed_step()
        v = np.linalg.norm(w.bf[r.bodies, L.B_V:L.B_V + 3], axis=1).max()
        om = np.linalg.norm(w.bf[r.bodies, L.B_W:L.B_W + 3], axis=1).max()
        if rested is None and v < 0.05 and om < 0.05:
            rested = (i + 1) / 60.0
        elif v >= 0.05 or om >= 0.05:
            rested = None
    assert w.bf[r.bodies[0], L.B_POS + 1] < 0.35  # collapsed
    assert rested is not None and rested <= 3.0, rested
    assert all(w.bi[s, L.B_AWAKE] == 0 for s in r.bodies)  # and asleep
    e.close()


# ------------------------------------------------------------------ park / unpark
def test_park_and_unpark():
    e, w = _world_with_ground()
    r = physics.ragdoll(e, "parked", (0.0, 0.0, 0.0), 8.0, 8.0, 1.0)
    physics.ragdoll_set_powered(r, True)
    physics.ragdoll_set_balance(r, human.BALANCE_TORQUE)
    rest = physics.ragdoll_rest_targets(r)
    for _ in range(30):
        physics.ragdoll_drive(r, rest)
        e.fixed_step()
    pose0 = physics.ragdoll_pose(r)
    physics.ragdoll_park(r)
    assert physics.ragdoll_is_parked(r) and w.powered == 0 and w.effective_substeps == 4
    jf0 = w.jf[: w.nj].copy()
    af0 = w.af[: w.na].copy()
    for _ in range(30):
        e.fixed_step()
    assert all(not any(s in (a, b) for a, b, *_ in w.contacts()) for s in r.bodies)
    assert w.awake_count() == 0
    assert np.array_equal(w.jf[: w.nj], jf0) and np.array_equal(w.af[: w.na], af0)
    pose1 = physics.ragdoll_pose(r)
    assert np.array_equal(pose0[0], pose1[0]) and np.array_equal(pose0[1], pose1[1])
    physics.ragdoll_unpark(r)
    assert w.powered == 1
    for _ in range(120):
        physics.ragdoll_drive(r, rest)
        e.fixed_step()
    assert w.bf[r.bodies[0], L.B_POS + 1] > 0.9 and _lean(w, r) < math.radians(2.0)
    e.close()


# ------------------------------------------------------------------ determinism
def _pile_hash():
    e, w = _world_with_ground()
    rs = []
    for k in range(4):
        r = physics.ragdoll(e, f"r{k}", (0.15 * k, 0.3 + 0.5 * k, 0.1 * k), 8.0, 8.0, 1.0)
        physics.ragdoll_set_strength(r, 0.0)
        rs.append(r)
    _blow(w, int(rs[3].bodies[2]), w.bf[rs[3].bodies[2], L.B_POS:L.B_POS + 3], (10.0, 0, 5.0))
    for _ in range(150):
        e.fixed_step()
    h = hashlib.sha256(w.bf[: w.n].tobytes() + w.jf[: w.nj].tobytes()).hexdigest()
    e.close()
    return h


def test_four_ragdolls_falling_onto_each_other_twice_identical_bytes():
    assert _pile_hash() == _pile_hash()


# ------------------------------------------------------------------ the motion module's calls
def test_aim_hold_shape_plant_within_cone_and_destroy():
    e, w = _world_with_ground()
    r = physics.ragdoll(e, "actor", (0.0, 0.0, 0.0), 8.0, 8.0, 1.0)
    physics.ragdoll_set_powered(r, True)
    physics.ragdoll_set_balance(r, human.BALANCE_TORQUE)
    rest = physics.ragdoll_rest_targets(r)
    # aim the left upper arm straight ahead: its along axis (local -y) to +Z
    aim = (-math.sin(math.pi / 4), 0.0, 0.0, math.cos(math.pi / 4))  # -90 degrees about +X
    physics.ragdoll_aim(r, human.BONE_UPPERARM_L, aim)
    for _ in range(60):
        physics.ragdoll_drive(r, rest)
        e.fixed_step()
    s = int(r.bodies[human.BONE_UPPERARM_L])
    along = K.qrot(tuple(w.bf[s, L.B_QUAT:L.B_QUAT + 4]), human.BONE_ALONG_LOCAL[4])
    assert along[2] > math.cos(math.radians(5.0))
    physics.ragdoll_clear_aims(r)
    for _ in range(60):
        physics.ragdoll_drive(r, rest)
        e.fixed_step()
    along = K.qrot(tuple(w.bf[s, L.B_QUAT:L.B_QUAT + 4]), human.BONE_ALONG_LOCAL[4])
    assert along[1] < -math.cos(math.radians(5.0))  # hanging again
    # hold the shape it has: within the brake's 0.02 rad, joint by joint
    physics.ragdoll_hold_shape(r, 0.4)
    held = physics.ragdoll_local_rotations(r)
    for _ in range(60):
        e.fixed_step()
    now = physics.ragdoll_local_rotations(r)
    for b in range(1, r.bones):
        d = K.rotvec(K.qmul(tuple(now[b]), K.qconj(tuple(held[b]))))
        assert np.linalg.norm(d) < 0.03
    # within cone: far outside the hip's cone -> on its edge; inside -> unchanged
    j = physics.ragdoll_joint(r, human.BONE_THIGH_L)
    # the thigh swung 150 degrees forward (about world -X), as a body-relative rotation
    qp = human.BONE_REST_QUAT[human.BONE_PELVIS]
    swung = K.qmul((-math.sin(1.3), 0.0, 0.0, math.cos(1.3)), human.BONE_REST_QUAT[8])
    want = K.qmul(K.qconj(qp), swung)
    got = physics.ragdoll_within_cone(r, human.BONE_THIGH_L, want)
    fa = tuple(w.jf[j, L.J_QA:L.J_QA + 4])
    fb = tuple(w.jf[j, L.J_QB:L.J_QB + 4])
    rel = K.qmul(K.qconj(fa), K.qmul(tuple(got), fb))
    sy, sz, _, tw = K.swing_twist(rel)
    ang, lim = K.cone_limit(sy, sz, w.jf[j, L.J_SWING_Y], w.jf[j, L.J_SWING_Z])
    assert abs(ang - lim) < 1e-9
    same = physics.ragdoll_within_cone(r, human.BONE_THIGH_L, rest[human.BONE_THIGH_L])
    assert np.allclose(same, rest[human.BONE_THIGH_L], atol=1e-12)
    # plant a calf (no feet) 3 cm ahead: its 30 Hz anchor takes it there
    c = int(r.bodies[human.BONE_CALF_L])
    p = w.bf[c, L.B_POS:L.B_POS + 3] + (0.0, 0.0, 0.03)
    k = physics.ragdoll_plant(r, human.BONE_CALF_L, (p, w.bf[c, L.B_QUAT:L.B_QUAT + 4].copy()))
    assert w.af[k, L.A_HZ] == human.PLANT_HZ
    physics.ragdoll_plant(r, human.BONE_CALF_L, None)
    assert not physics.anchor_exists(e, k)
    # destroy: every body, joint and anchor gone; the world steps 4 again
    n_before = w.body_count()
    physics.ragdoll_destroy(r)
    assert w.body_count() == n_before - 12 and w.powered == 0
    assert np.all(w.ji[: w.nj, L.J_KIND] == L.JOINT_FREE)
    assert np.all(w.ai[: w.na, L.A_KIND] == L.ANCHOR_FREE)
    with pytest.raises(ValueError):
        physics.ragdoll_aim(r, 1, aim)
    e.close()


def test_standing_with_feet_is_still():
    e, w = _world_with_ground()
    physics.set_ankles(e, True)
    r = physics.ragdoll(e, "footed", (0.0, 0.0, 0.0), 8.0, 8.0, 1.0)
    physics.ragdoll_set_powered(r, True)
    physics.ragdoll_set_balance(r, human.BALANCE_TORQUE)
    rest = physics.ragdoll_rest_targets(r)
    spins = []
    for _ in range(300):
        physics.ragdoll_drive(r, rest)
        e.fixed_step()
        spins.append(np.linalg.norm(w.bf[r.bodies, L.B_W:L.B_W + 3], axis=1))
    quiet = np.array(spins[60:300])
    assert w.bf[r.bodies[0], L.B_POS + 1] > 0.9 and _lean(w, r) < math.radians(2.0)
    assert quiet.mean() < 0.05 and quiet.max() < 0.2
    e.close()
