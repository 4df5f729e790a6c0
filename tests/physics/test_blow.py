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
