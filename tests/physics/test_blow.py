"""A blow on a jointed body is taken through its joints in the instant (physics/_blow.py)."""

from __future__ import annotations

import numpy as np
import pytest

from ae3d import engine, human, physics
from ae3d.physics import _blow
from ae3d.physics import _layout as L


def _rot(q):
    return _blow._rot(np.asarray(q))  # noqa: SLF001


def _joint_point_speeds(w):
    """Each joint's relative velocity at its point (m/s): B's there minus A's."""
    out = []
    for j in range(w.nj):
        if w.ji[j, L.J_KIND] == L.JOINT_FREE:
            continue
        a, b = int(w.ji[j, L.J_BODY_A]), int(w.ji[j, L.J_BODY_B])
        vel = []
        for s, col in ((a, L.J_PA), (b, L.J_PB)):
            r = _rot(w.bf[s, L.B_QUAT:L.B_QUAT + 4]) @ w.jf[j, col:col + 3]
            vel.append(w.bf[s, L.B_V:L.B_V + 3] + np.cross(w.bf[s, L.B_W:L.B_W + 3], r))
        out.append(float(np.linalg.norm(vel[1] - vel[0])))
    return np.array(out)


def _energy(w, slots):
    ke = 0.0
    for s in slots:
        m = 1.0 / w.bf[s, L.B_INV_MASS]
        i = 1.0 / w.bf[s, L.B_INV_I:L.B_INV_I + 3]
        rot = _rot(w.bf[s, L.B_QUAT:L.B_QUAT + 4])
        wl = rot.T @ w.bf[s, L.B_W:L.B_W + 3]
        ke += 0.5 * m * float(w.bf[s, L.B_V:L.B_V + 3] @ w.bf[s, L.B_V:L.B_V + 3])
        ke += 0.5 * float(np.sum(i * wl * wl))
    return ke


@pytest.mark.parametrize("bone", [human.BONE_LOWERARM_L, human.BONE_SPINE_03, human.BONE_CALF_R])
def test_blow_opens_no_joint_keeps_momentum_and_takes_less_energy(bone):
    e = engine.Engine()
    physics.set_gravity(e, (0.0, 0.0, 0.0))
    r = physics.ragdoll(e, "R", (0.0, 0.0, 0.0), 8.0, 8.0, 1.0)
    w = e.physics
    slots = [int(s) for s in r.bodies]
    s = slots[bone]
    j = np.array([12.0, 5.0, -9.0])  # N·s, small enough for no cap to act
    point = w.bf[s, L.B_POS:L.B_POS + 3] + np.array([0.02, 0.01, 0.0])
    physics.apply_impulse(e, w.handle(s), j, point)
    assert physics.stats(e).blows_jointed == 1 and physics.stats(e).blows_scaled == 0
    assert np.max(_joint_point_speeds(w)) < 1e-6            # no velocity across any joint
    p = sum(w.bf[k, L.B_V:L.B_V + 3] / w.bf[k, L.B_INV_MASS] for k in slots)
    assert np.allclose(p, j, atol=1e-9)                     # the blow's momentum, all of it
    # the struck body alone would take J^2/2m + L.I^-1.L/2 (L = r x J); the group takes less
    rot = _rot(w.bf[s, L.B_QUAT:L.B_QUAT + 4])
    iw = (rot * w.bf[s, L.B_INV_I:L.B_INV_I + 3]) @ rot.T
    lever = np.cross(point - w.bf[s, L.B_POS:L.B_POS + 3], j)
    lone = 0.5 * float(j @ j) * w.bf[s, L.B_INV_MASS] + 0.5 * float(lever @ iw @ lever)
    assert _energy(w, slots) <= lone
    e.close()


def test_a_blow_past_the_caps_is_scaled_and_opens_no_joint():
    e = engine.Engine()
    physics.set_gravity(e, (0.0, 0.0, 0.0))
    r = physics.ragdoll(e, "R", (0.0, 0.0, 0.0), 8.0, 8.0, 1.0)
    w = e.physics
    s = int(r.bodies[human.BONE_LOWERARM_R])
    physics.apply_impulse(e, w.handle(s), (0.0, 0.0, 5000.0), w.bf[s, L.B_POS:L.B_POS + 3])
    assert physics.stats(e).blows_scaled == 1
    slots = [int(k) for k in r.bodies]
    assert max(np.linalg.norm(w.bf[k, L.B_V:L.B_V + 3]) for k in slots) <= _blow.SPEED_CAP + 1e-9
    assert max(np.linalg.norm(w.bf[k, L.B_W:L.B_W + 3]) for k in slots) <= _blow.SPIN_CAP + 1e-9
    assert np.max(_joint_point_speeds(w)) < 1e-6  # scaled: still no velocity across a joint
    e.close()


def _momenta(w, slots):
    """(momentum N·s, angular momentum about the group's centre of mass N·m·s)."""
    m = np.array([1.0 / w.bf[k, L.B_INV_MASS] for k in slots])
    x = w.bf[slots, L.B_POS:L.B_POS + 3]
    c = (m[:, None] * x).sum(axis=0) / m.sum()
    p = (m[:, None] * w.bf[slots, L.B_V:L.B_V + 3]).sum(axis=0)
    h = np.zeros(3)
    for i, k in enumerate(slots):
        rot = _rot(w.bf[k, L.B_QUAT:L.B_QUAT + 4])
        inertia = (rot / w.bf[k, L.B_INV_I:L.B_INV_I + 3]) @ rot.T
        v = w.bf[k, L.B_V:L.B_V + 3]
        h += inertia @ w.bf[k, L.B_W:L.B_W + 3] + m[i] * np.cross(x[i] - c, v)
    return p, h, c


@pytest.mark.parametrize("bone", [human.BONE_SPINE_03, human.BONE_NECK, human.BONE_PELVIS])
@pytest.mark.parametrize("strength", [250.0, 400.0, 450.0])
def test_a_blow_past_the_caps_keeps_its_momentum(bone, strength):
    """Past the spin cap (a chest push from 247 N·s), only the joints' share of the response is
    scaled: the figure takes all of the blow's momentum, and its angular momentum unless the whole
    figure would turn faster than GROUP_SPIN_CAP."""
    e = engine.Engine()
    physics.set_gravity(e, (0.0, 0.0, 0.0))
    r = physics.ragdoll(e, "R", (0.0, 0.0, 0.0), 8.0, 8.0, 1.0)
    w = e.physics
    slots = [int(k) for k in r.bodies]
    s = slots[bone]
    j = strength * np.array([0.3, 0.1, 1.0]) / np.linalg.norm([0.3, 0.1, 1.0])
    point = w.bf[s, L.B_POS:L.B_POS + 3] + np.array([0.03, 0.05, -0.1])
    _, _, c = _momenta(w, slots)
    before = _energy(w, slots)
    physics.apply_impulse(e, w.handle(s), j, point)
    assert physics.stats(e).blows_scaled == 1
    p, h, _ = _momenta(w, slots)
    assert np.allclose(p, j, atol=1e-6 * strength)
    lever = np.cross(point - c, j)
    # all of its angular momentum, but for the whole figure's turning past GROUP_SPIN_CAP
    assert np.allclose(np.cross(h, lever), 0.0, atol=1e-6 * strength * strength)
    assert float(h @ lever) <= float(lever @ lever) * (1.0 + 1e-9)
    spin = max(np.linalg.norm(w.bf[k, L.B_W:L.B_W + 3]) for k in slots)
    assert np.allclose(h, lever, atol=1e-6 * strength) or spin >= _blow.GROUP_SPIN_CAP
    assert max(np.linalg.norm(w.bf[k, L.B_W:L.B_W + 3]) for k in slots) <= _blow.SPIN_CAP + 1e-9
    assert max(np.linalg.norm(w.bf[k, L.B_V:L.B_V + 3]) for k in slots) <= _blow.SPEED_CAP + 1e-9
    assert np.max(_joint_point_speeds(w)) < 1e-6
    assert before == 0.0 and _energy(w, slots) > 0.0
    e.close()


def test_a_lone_body_takes_j_over_m():
    e = engine.Engine()
    physics.set_gravity(e, (0.0, 0.0, 0.0))
    b = physics.add_sphere(e, 0.1, (0.0, 1.0, 0.0), mass=2.0)
    physics.apply_impulse(e, b, (4.0, 0.0, 0.0))
    w = e.physics
    assert np.allclose(w.bf[w.slot_of(b), L.B_V:L.B_V + 3], (2.0, 0.0, 0.0))
    assert physics.stats(e).blows_jointed == 0
    e.close()


# ------------------------------------------------------------------ the ground's share
def _lowest_points(w, slots):
    """(body, offset from its centre (3,) m) of each capsule end's or sphere's lowest point."""
    out = []
    for s in slots:
        shape = int(w.bi[s, L.B_SHAPE])
        assert shape in (L.SHAPE_SPHERE, L.SHAPE_CAPSULE)
        r, half = w.bf[s, L.B_DIMS], w.bf[s, L.B_DIMS + 1] if shape == L.SHAPE_CAPSULE else 0.0
        axis = _rot(w.bf[s, L.B_QUAT:L.B_QUAT + 4])[:, 1]
        for end in ((-1.0, 1.0) if half > 0.0 else (0.0,)):
            out.append((s, end * half * axis - np.array([0.0, r, 0.0])))
    return out


def _point_vy(w, s, off):
    return float(w.bf[s, L.B_V + 1] + np.cross(w.bf[s, L.B_W:L.B_W + 3], off)[1])


def _lying(make):
    e = engine.Engine()
    physics.ground(e)
    slots = make(e)
    e.run(seconds=0.5)
    w = e.physics
    chest = slots[human.BONE_SPINE_03]
    physics.apply_impulse(e, w.handle(chest), (0.0, 0.0, 150.0))  # over backwards
    e.run(seconds=2.5)  # down and lying still
    return e, slots


def _reference(e):
    return [int(s) for s in physics.ragdoll(e, "R", (0.0, 0.0, 0.0), 8.0, 8.0, 1.0).bodies]


def _boxman(e):
    import blows as B

    from ae3d import motion
    return [int(s) for s in B.boxman(e, "M", (0.0, 0.0, 0.0), motion.LIMP).ragdoll.bodies]


@pytest.mark.parametrize("make", [_reference, _boxman])
def test_a_blow_drives_no_lying_figure_into_the_ground(make):
    """A figure lying on the ground, struck down and aslant at the trunk, a thigh and a forearm
    (100 to 2,000 N·s): in the blow's instant no point touching the ground (within 2 cm) is sent
    into it faster than it was moving, the ground's impulse goes through the joints (no velocity
    across any joint) and it takes part of the blow's downward momentum."""
    e, slots = _lying(make)
    w = e.physics
    rows = slots
    before = w.bf[rows].copy()
    dt = e.fixed_dt
    touching = [(s, off) for s, off in _lowest_points(w, slots)
                if w.bf[s, L.B_POS + 1] + off[1] < 0.02]
    assert len(touching) >= 4
    grounded = physics.stats(e).blows_grounded
    for bone in (human.BONE_SPINE_03, human.BONE_THIGH_L, human.BONE_LOWERARM_R):
        for way in ((0.0, -1.0, 0.0), (0.6, -0.8, 0.0), (0.0, -0.6, -0.8)):
            for strength in (100.0, 600.0, 2000.0):
                w.bf[rows] = before
                s = slots[bone]
                j = strength * np.array(way)
                v0 = {k: _point_vy(w, k, off) for k, off in touching}
                gaps0 = _joint_point_speeds(w)
                physics.apply_impulse(e, w.handle(s), j, w.bf[s, L.B_POS:L.B_POS + 3].copy())
                for k, off in touching:
                    sep = max(float(w.bf[k, L.B_POS + 1] + off[1]), 0.0)
                    floor = min(v0[k], -sep / dt)
                    assert _point_vy(w, k, off) >= floor - 0.05, (bone, way, strength, k)
                # none across a joint (but the rigid part's drift times spin, see _blow.py)
                assert np.max(np.abs(_joint_point_speeds(w) - gaps0)) < 0.01
                p = sum((w.bf[k, L.B_V:L.B_V + 3] - before[i, L.B_V:L.B_V + 3])
                        / w.bf[k, L.B_INV_MASS] for i, k in enumerate(rows))
                assert p[1] > j[1] + 1.0  # the ground took some of the push down
                grounded += 1
    assert physics.stats(e).blows_grounded == grounded
    e.close()
