"""Anchors (issue 3): a 5 Hz spring behaves as one, caps hold, a destroyed or zeroed anchor leaves
nothing behind (aephysics#58, #76), upright rights a tilted pelvis and leaves its yaw free, and the
heading hold turns it back within its cap."""

import math

import numpy as np

from ae3d import engine, human, physics
from ae3d.physics import _kernels_joints as K
from ae3d.physics import _layout as L


def _q(axis, ang):
    a = np.asarray(axis, dtype=float)
    a = a / np.linalg.norm(a)
    s = math.sin(0.5 * ang)
    return (a[0] * s, a[1] * s, a[2] * s, math.cos(0.5 * ang))


def _pelvis(w, pos=(0.0, 2.0, 0.0), quat=(0.0, 0.0, 0.0, 1.0)):
    """A pelvis-like body: the reference ragdoll's pelvis capsule and mass."""
    (_, _, _), _, (rad, hs) = human.bone_rest(human.BONE_PELVIS)
    return w.add_body(L.KIND_DYNAMIC, L.SHAPE_CAPSULE, (rad, hs, 0.0), pos, quat,
                      mass=human.bone_mass(human.BONE_PELVIS))


def test_5hz_anchor_pulls_like_a_5hz_damped_spring():
    e = engine.Engine()
    w = e.physics
    w.gravity[:] = 0.0
    b = w.add_body(L.KIND_DYNAMIC, L.SHAPE_SPHERE, (0.1, 0, 0), (0.2, 1.0, 0.0), mass=3.0)
    physics.anchor(e, b, position=(0.0, 1.0, 0.0), hertz=5.0, damping_ratio=1.0)
    om = 2 * math.pi * 5.0
    x0 = 0.2
    worst = 0.0
    for i in range(1, 61):
        e.fixed_step()
        t = i / 60.0
        exact = x0 * (1.0 + om * t) * math.exp(-om * t)  # critically damped from rest
        worst = max(worst, abs(w.bf[b, L.B_POS] - exact))
    assert worst < 0.1 * x0, f"off a 5 Hz spring by {worst / x0:.1%} of the start"
    # and an underdamped one keeps its period: zero crossings half a period apart (5 Hz, zeta 0.2)
    e2 = engine.Engine()
    w2 = e2.physics
    w2.gravity[:] = 0.0
    b2 = w2.add_body(L.KIND_DYNAMIC, L.SHAPE_SPHERE, (0.1, 0, 0), (0.2, 1.0, 0.0), mass=3.0)
    physics.anchor(e2, b2, position=(0.0, 1.0, 0.0), hertz=5.0, damping_ratio=0.2)
    w2.substeps = 8
    xs = []
    for _ in range(120):
        e2.fixed_step()
        xs.append(w2.bf[b2, L.B_POS])
    xs = np.array(xs)
    cross = np.nonzero(np.sign(xs[1:]) != np.sign(xs[:-1]))[0]
    period = 2.0 * float(np.mean(np.diff(cross))) / 60.0
    damped = 1.0 / (5.0 * math.sqrt(1 - 0.2 ** 2))
    assert abs(period - damped) < 0.1 * damped, (period, damped)


def test_capped_anchor_never_exceeds_its_caps():
    e = engine.Engine()
    w = e.physics
    w.gravity[:] = 0.0
    b = _pelvis(w, pos=(1.0, 1.0, 0.0), quat=_q((0, 0, 1), 1.0))
    k = physics.anchor(e, b, position=(0.0, 1.0, 0.0), rotation=(0, 0, 0, 1.0), hertz=30.0,
                       max_force=20.0, max_torque=3.0)
    most_f = most_t = 0.0
    for _ in range(90):
        v0 = w.bf[b, L.B_V:L.B_V + 3].copy()
        e.fixed_step()
        f = np.linalg.norm(physics.anchor_force(e, k))
        t = np.linalg.norm(physics.anchor_torque(e, k))
        most_f = max(most_f, f)
        most_t = max(most_t, t)
        # the body's own change of speed agrees: no more than the cap can give
        dv = np.linalg.norm(w.bf[b, L.B_V:L.B_V + 3] - v0)
        assert dv <= 20.0 / w.bf[b, L.B_MASS] / 60.0 * (1 + 1e-9) + 1e-12
    assert most_f <= 20.0 * (1 + 1e-12) and most_f > 19.0
    assert most_t <= 3.0 * (1 + 1e-12) and most_t > 2.9


def _state(w, b):
    return w.bf[b, :].copy()


def _free_twin(snapshot, gravity):
    e = engine.Engine()
    w = e.physics
    w.gravity[:] = gravity
    b = _pelvis(w)
    w.bf[b, :] = snapshot
    return e, w, b


def _bits(w, b):
    return w.bf[b, L.B_POS:L.B_W + 3].tobytes()


def test_destroyed_or_zeroed_anchor_leaves_the_path_of_a_free_body():
    for how in ("destroy", "nothing", "upright_destroy", "upright_nothing"):
        e = engine.Engine()
        w = e.physics
        b = _pelvis(w, quat=_q((1, 0, 0), 0.3))
        w.bf[b, L.B_W:L.B_W + 3] = (0.5, 1.0, 0.0)
        if how.startswith("upright"):
            k = physics.upright_anchor(e, b, 1200.0, up=human.BONE_UP_LOCAL[human.BONE_PELVIS])
        else:
            k = physics.anchor(e, b, position=(0.0, 2.5, 0.0), hertz=5.0, max_torque=50.0)
        for _ in range(20):
            e.fixed_step()
        if how.endswith("destroy"):
            physics.anchor_destroy(e, k)
        else:
            physics.anchor_set_nothing(e, k)
        snap = _state(w, b)
        e2, w2, b2 = _free_twin(snap, w.gravity)
        for _ in range(40):
            e.fixed_step()
            e2.fixed_step()
            assert _bits(w, b) == _bits(w2, b2), how
        e.close()
        e2.close()


def _tilt(w, b, up_local):
    u = K.qrot(tuple(w.bf[b, L.B_QUAT:L.B_QUAT + 4]), up_local)
    return math.acos(max(-1.0, min(1.0, u[1])))


def test_upright_rights_a_tilted_pelvis_and_leaves_its_yaw_free():
    up = human.BONE_UP_LOCAL[human.BONE_PELVIS]
    rest = human.BONE_REST_QUAT[human.BONE_PELVIS]
    e = engine.Engine()
    w = e.physics
    w.gravity[:] = 0.0
    b = _pelvis(w, quat=K.qmul(_q((1, 0, 1), 0.5), rest))
    k = physics.upright_anchor(e, b, 1200.0, up=up)
    for _ in range(30):
        e.fixed_step()
        assert np.linalg.norm(physics.anchor_torque(e, k)) <= 1200.0 * (1 + 1e-12)
    assert _tilt(w, b, up) < math.radians(0.5)
    # upright and turning about the vertical: the turn goes on unhindered
    w.bf[b, L.B_W:L.B_W + 3] = (0.0, 2.0, 0.0)
    for _ in range(60):
        e.fixed_step()
    assert abs(w.bf[b, L.B_W + 1] - 2.0) < 1e-6
    assert _tilt(w, b, up) < math.radians(0.5)
    # rigid within its cap: a steady 1,000 N·m barely tilts it; 1,500 N·m tips it over
    for torque, held in ((1000.0, True), (1500.0, False)):
        e3 = engine.Engine()
        w3 = e3.physics
        w3.gravity[:] = 0.0
        b3 = _pelvis(w3, quat=rest)
        physics.upright_anchor(e3, b3, 1200.0, up=up)
        for _ in range(60):
            w3.bf[b3, L.B_TORQUE:L.B_TORQUE + 3] = (torque, 0.0, 0.0)
            e3.fixed_step()
        if held:
            assert _tilt(w3, b3, up) < math.radians(1.0)
        else:
            assert _tilt(w3, b3, up) > math.radians(20.0)


def test_heading_hold_turns_it_back_within_its_cap():
    rest = human.BONE_REST_QUAT[human.BONE_PELVIS]
    fwd = human.BONE_FORWARD_LOCAL[human.BONE_PELVIS]
    e = engine.Engine()
    w = e.physics
    w.gravity[:] = 0.0
    b = _pelvis(w, quat=K.qmul(_q((0, 1, 0), 1.0), rest))
    physics.upright_anchor(e, b, 1200.0, up=human.BONE_UP_LOCAL[human.BONE_PELVIS])
    k = physics.heading_anchor(e, b, 0.0, 60.0, forward=fwd)
    most = 0.0
    for _ in range(120):
        e.fixed_step()
        most = max(most, np.linalg.norm(physics.anchor_torque(e, k)))
    f = K.qrot(tuple(w.bf[b, L.B_QUAT:L.B_QUAT + 4]), fwd)
    assert abs(math.atan2(f[0], f[2])) < math.radians(1.0)
    assert 59.0 < most <= 60.0 * (1 + 1e-12)
