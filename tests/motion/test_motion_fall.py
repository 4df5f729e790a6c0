"""motion/_fall.py's and _landing.py's verbs on a figure tilted by hand (issue 12): the way of the
fall read in the world, each arm's own reach axis, the tuck, the knees, the spine; the twin takes
no aim; landing clears the aims, holds the shape and lets the balance go to nothing (an anchor
at nothing applies nothing: the fall relies on it)."""

from __future__ import annotations

import math

import numpy as np
import pytest

from ae3d import engine, human, motion, physics
from ae3d.motion import _layout as ML
from ae3d.motion._fall import fall_pre
from ae3d.motion._landing import landing_pre
from ae3d.motion._service import FWD_LOCAL, UP_LOCAL
from ae3d.physics import _layout as L


def _qaxis(axis, angle):
    a = np.asarray(axis, float) / np.linalg.norm(axis)
    return np.array([*(a * math.sin(angle / 2)), math.cos(angle / 2)])


def _qmul(a, b):
    ax, ay, az, aw = a
    bx, by, bz, bw = b
    return np.array([aw * bx + ax * bw + ay * bz - az * by, aw * by - ax * bz + ay * bw + az * bx,
                     aw * bz + ax * by - ay * bx + az * bw, aw * bw - ax * bx - ay * by - az * bz])


def _rot(q, v):
    u = np.array(q[:3])
    t = 2.0 * np.cross(u, v)
    return v + q[3] * t + np.cross(u, t)


@pytest.fixture()
def tilted():
    """A POWERED box man turned ``0.5`` rad about +X as a whole (its up toward -Z: falling
    backwards, it faces +Z), taken as falling."""
    e, r, b, sv = _tilted_by((1.0, 0.0, 0.0), -0.5)
    yield e, r, b, sv
    e.close()


def _fall(e, r, b, sv):
    w = e.physics
    return fall_pre(b.slot, r.bones, True, sv.ff, sv.fi, sv.pbi, sv.prm, UP_LOCAL, FWD_LOCAL,
                    w.bf, w.jf, w.ji)


def test_the_way_of_the_fall_is_read_in_the_world(tilted):
    e, r, b, sv = tilted
    assert _fall(e, r, b, sv)
    d = sv.ff[b.slot, ML.F_FALL_DIR:ML.F_FALL_DIR + 3]
    assert np.allclose(d, (0.0, 0.0, -1.0), atol=1e-9)   # backwards: its up leans to -Z
    assert motion.fall_way(b) == pytest.approx((0.0, 0.0, -1.0), abs=1e-9)


def test_each_arm_reaches_along_its_own_axis(tilted):
    e, r, b, sv = tilted
    _fall(e, r, b, sv)
    w = e.physics
    prm = sv.prm
    for up_b, lo_b, side in ((human.BONE_UPPERARM_L, human.BONE_LOWERARM_L, 1.0),
                             (human.BONE_UPPERARM_R, human.BONE_LOWERARM_R, -1.0)):
        for bone in (up_b, lo_b):
            j = r.joints[bone]
            assert w.ji[j, L.J_DRIVE] == L.DRIVE_AIM
            along = -w.jf[j, L.J_PB:L.J_PB + 3]
            along /= np.linalg.norm(along)
            got = _rot(w.jf[j, L.J_AIM:L.J_AIM + 4], along)
            # 1 along the fall (-Z), reach_down down, reach_out out to its own side (+X left)
            want = np.array([side * prm[ML.S_REACH_OUT], -prm[ML.S_REACH_DOWN], -1.0])
            want /= np.linalg.norm(want)
            assert np.allclose(got, want, atol=1e-9), (bone, got, want)


def test_tuck_knees_and_spine_backwards(tilted):
    e, r, b, sv = tilted
    _fall(e, r, b, sv)
    w = e.physics
    # the head: turned tuck rad from where the chest carries it, away from the fall
    j = r.joints[human.BONE_NECK]
    chest = w.bf[r.bodies[human.BONE_SPINE_03], L.B_QUAT:L.B_QUAT + 4]
    carried = _qmul(chest, w.jf[j, L.J_TARGET:L.J_TARGET + 4])
    aim = w.jf[j, L.J_AIM:L.J_AIM + 4]
    up_c, up_a = _rot(carried, (0.0, 1.0, 0.0)), _rot(aim, (0.0, 1.0, 0.0))
    assert math.acos(np.clip(up_c @ up_a, -1, 1)) == pytest.approx(0.8, abs=1e-6)
    assert up_a[2] > up_c[2]          # away from the fall (-Z): toward +Z
    # backwards, both spine joints are aimed from the first lean; the knees too
    for bone in (human.BONE_SPINE_01, human.BONE_SPINE_03, human.BONE_CALF_L,
                 human.BONE_CALF_R):
        assert w.ji[r.joints[bone], L.J_DRIVE] == L.DRIVE_AIM
    # the knee's aim is 0.45 rad toward its bend (its range's open side) from its target
    j = r.joints[human.BONE_CALF_L]
    thigh = w.bf[r.bodies[human.BONE_THIGH_L], L.B_QUAT:L.B_QUAT + 4]
    tgt = _qmul(thigh, w.jf[j, L.J_TARGET:L.J_TARGET + 4])
    aim = w.jf[j, L.J_AIM:L.J_AIM + 4]
    assert 2 * math.acos(min(1.0, abs(float(tgt @ aim)))) == pytest.approx(0.45, abs=1e-6)


def test_the_twin_takes_no_aim(tilted):
    e, r, b, sv = tilted
    motion.set_protective(b, False)
    assert not _fall(e, r, b, sv)
    assert not np.any(e.physics.ji[r.joints[1:], L.J_DRIVE] == L.DRIVE_AIM)


def test_caught_lets_the_aims_go(tilted):
    e, r, b, sv = tilted
    _fall(e, r, b, sv)
    sv.fi[b.slot, ML.F_FALLING] = 0          # leaning under half the fall's lean again
    assert _fall(e, r, b, sv)
    assert not np.any(e.physics.ji[r.joints[1:], L.J_DRIVE] == L.DRIVE_AIM)


def test_landing_clears_the_aims_holds_the_shape_and_lets_the_balance_go(tilted):
    e, r, b, sv = tilted
    w = e.physics
    _fall(e, r, b, sv)
    # down: leaning past 1.2 with the pelvis near its lowest point, for ten steps
    sv.ff[b.slot, ML.F_LEAN] = 1.3
    for s in r.bodies:
        w.bf[s, L.B_POS + 1] = 0.3
        w.bf[s, L.B_V:L.B_V + 3] = (1.0, 0.0, 0.0)     # still moving: not caught
    w.bf[r.bodies[0], L.B_POS + 1] = 0.0                # the pelvis the lowest
    dt = 1.0 / 60.0
    for _ in range(9):
        assert not landing_pre(b.slot, dt, r.bones, True, sv.ff, sv.fi, sv.pbf, sv.pbi, sv.prm,
                               w.bf, w.jf, w.ji)
    assert not motion.landed(b)
    assert landing_pre(b.slot, dt, r.bones, True, sv.ff, sv.fi, sv.pbf, sv.pbi, sv.prm, w.bf,
                       w.jf, w.ji)
    assert motion.landed(b) and not motion.caught(b) and not motion.lying(b)
    assert not np.any(w.ji[r.joints[1:], L.J_DRIVE] == L.DRIVE_AIM)
    assert sv.ff[b.slot, ML.F_HOLD] == pytest.approx(0.4)
    # one pre step: the muscles hold the shape on 40 %, the balance is let go to nothing, its
    # impulse cleared (an anchor at nothing applies nothing)
    w.af[r.upright, L.A_TMAX] = 360.0                  # the fall's assist as it came down
    w.af[r.upright, L.A_L_ANG:L.A_L_ANG + 3] = (5.0, 0.0, 0.0)
    sv.pre(0, dt)
    assert np.allclose(w.jf[r.joints[1:], L.J_MOTOR_MAX], 0.4 * r.budgets[1:])
    assert np.allclose(w.jf[r.joints[1:], L.J_DEADBAND], human.HOLD_BRAKE)
    assert w.af[r.upright, L.A_TMAX] == 0.0
    assert np.all(w.af[r.upright, L.A_L_ANG:L.A_L_ANG + 3] == 0.0)
    # still for ten steps more: lying
    for s in r.bodies:
        w.bf[s, L.B_V:L.B_V + 3] = 0.0
    for _ in range(10):
        landing_pre(b.slot, dt, r.bones, True, sv.ff, sv.fi, sv.pbf, sv.pbi, sv.prm, w.bf, w.jf,
                    w.ji)
    assert motion.lying(b)
    # moving again after lying still: it falls again, the shape let go
    for s in r.bodies:
        w.bf[s, L.B_V:L.B_V + 3] = (0.5, 0.0, 0.0)
    assert landing_pre(b.slot, dt, r.bones, True, sv.ff, sv.fi, sv.pbf, sv.pbi, sv.prm, w.bf,
                       w.jf, w.ji)
    assert not motion.landed(b) and not motion.lying(b)
    assert sv.ff[b.slot, ML.F_HOLD] == 0.0


def _tilted_by(axis, angle):
    """A POWERED reference ragdoll turned ``angle`` rad about ``axis`` as a whole (standing, it
    faces +Z), taken as falling with that lean."""
    e = engine.Engine()
    physics.ground(e)
    r = physics.ragdoll(e, "t", (0.0, 0.0, 0.0), 8.0, 8.0, 1.0)
    b = motion.active_ragdoll(r)
    motion.set_mode(b, motion.POWERED)
    w = e.physics
    tilt = _qaxis(axis, angle)
    for s in r.bodies:
        w.bf[s, L.B_POS:L.B_POS + 3] = _rot(tilt, w.bf[s, L.B_POS:L.B_POS + 3])
        w.bf[s, L.B_QUAT:L.B_QUAT + 4] = _qmul(tilt, w.bf[s, L.B_QUAT:L.B_QUAT + 4])
    sv = e.services["motion"]
    sv.fi[b.slot, ML.F_FALLING] = 1
    sv.ff[b.slot, ML.F_LEAN] = abs(angle)
    return e, r, b, sv


@pytest.mark.parametrize("way, axis", [("forwards", (1.0, 0.0, 0.0)),
                                       ("sideways", (0.0, 0.0, -1.0))])
def test_forwards_and_sideways_the_spine_bends_once_past_level(way, axis):
    """Spec: "In a fall forwards or sideways the pelvis's front turns back along the fall once it
    passes level; face down, the bend arches the back and lifts the chest and head". Leaning
    0.8 rad the spine keeps its pose; past level (1.9 rad) each of its two joints is aimed
    0.5 rad away from the fall from where its parent carries it, which turns the chest's up
    toward the sky."""
    for lean, bent in ((0.8, False), (1.9, True)):
        e, r, b, sv = _tilted_by(axis, lean)
        try:
            _fall(e, r, b, sv)
            w = e.physics
            d = sv.ff[b.slot, ML.F_FALL_DIR:ML.F_FALL_DIR + 3]
            # the way of the fall: where its up leans over the ground (+Z forwards, +X sideways)
            want = (0.0, 0.0, 1.0) if way == "forwards" else (1.0, 0.0, 0.0)
            assert np.allclose(d, want, atol=1e-9)
            for bone in (human.BONE_SPINE_01, human.BONE_SPINE_03):
                j = r.joints[bone]
                aimed = w.ji[j, L.J_DRIVE] == L.DRIVE_AIM
                assert aimed == bent, (way, lean, bone)
                if not bent:
                    continue
                parent = w.bf[r.bodies[human.BONE_PARENT[bone]], L.B_QUAT:L.B_QUAT + 4]
                carried = _qmul(parent, w.jf[j, L.J_TARGET:L.J_TARGET + 4])
                aim = w.jf[j, L.J_AIM:L.J_AIM + 4]
                up_l = np.array(human.BONE_UP_LOCAL[bone], float)
                up_c, up_a = _rot(carried, up_l), _rot(aim, up_l)
                assert math.acos(np.clip(up_c @ up_a, -1, 1)) == pytest.approx(0.5, abs=1e-6)
                # about the axis across the fall (its up stays in the plane of up and d), back
                # from the fall: past level, its up lifted toward the sky
                assert abs(up_a @ np.cross(d, (0.0, 1.0, 0.0))) < 1e-9
                assert up_a[1] > up_c[1]
        finally:
            e.close()
