"""Impulses: Δv = J/m and Δω = I⁻¹(r × J) to 1e-9 (no gravity); linear and angular momentum kept
through a collision of two free bodies (no gravity) to 1e-6, relative (issue 2)."""

import numpy as np

from ae3d import engine
from ae3d import physics as P


def _rotm(q):
    x, y, z, w = q
    return np.array([
        [1 - 2 * (y * y + z * z), 2 * (x * y - w * z), 2 * (x * z + w * y)],
        [2 * (x * y + w * z), 1 - 2 * (x * x + z * z), 2 * (y * z - w * x)],
        [2 * (x * z - w * y), 2 * (y * z + w * x), 1 - 2 * (x * x + y * y)],
    ])


def test_impulse_at_a_point():
    with engine.Engine() as e:
        P.set_gravity(e, (0.0, 0.0, 0.0))
        q = np.array([0.2, -0.4, 0.3, 0.8])
        q /= np.linalg.norm(q)
        hx, hy, hz = 0.3, 0.1, 0.6
        m = 7.5
        b = P.add_box(e, (hx, hy, hz), (1.0, 2.0, 3.0), q, mass=m)
        J = np.array([3.0, -1.5, 2.25])
        pt = np.array([1.2, 2.05, 2.6])
        P.apply_impulse(e, b, J, pt)
        ibody = m / 3.0 * np.diag([hy**2 + hz**2, hx**2 + hz**2, hx**2 + hy**2])
        R = _rotm(q)
        iworld = R @ ibody @ R.T
        dw = np.linalg.solve(iworld, np.cross(pt - np.array([1.0, 2.0, 3.0]), J))
        assert np.max(np.abs(P.velocity(e, b) - J / m)) < 1e-9
        assert np.max(np.abs(P.angular_velocity(e, b) - dw)) < 1e-9
        # and a step of free flight keeps them (no gravity, no damping)
        e.run(frames=1)
        assert np.max(np.abs(P.velocity(e, b) - J / m)) < 1e-9


def _momentum(e, bodies, inertias):
    lin = np.zeros(3)
    ang = np.zeros(3)
    for b, inert in zip(bodies, inertias, strict=True):
        m = P.mass(e, b)
        v = P.velocity(e, b)
        x = P.position(e, b)
        R = _rotm(P.rotation(e, b))
        lin += m * v
        ang += np.cross(x, m * v) + R @ inert @ R.T @ P.angular_velocity(e, b)
    return lin, ang


def test_momentum_through_a_collision():
    with engine.Engine() as e:
        P.set_gravity(e, (0.0, 0.0, 0.0))
        r1, r2 = 0.3, 0.5
        a = P.add_sphere(e, r1, (-2.0, 0.1, 0.05), mass=2.0, restitution=0.3)
        b = P.add_sphere(e, r2, (1.0, -0.1, 0.0), mass=5.0)
        P.set_velocity(e, a, (6.0, 0.2, 0.0))
        P.set_velocity(e, b, (-1.0, 0.0, 0.3))
        P.set_angular_velocity(e, a, (0.0, 0.0, 9.0))
        P.set_angular_velocity(e, b, (1.0, -2.0, 0.0))
        inert = [np.eye(3) * 0.4 * 2.0 * r1 * r1, np.eye(3) * 0.4 * 5.0 * r2 * r2]
        lin0, ang0 = _momentum(e, [a, b], inert)
        va0 = P.velocity(e, a)
        e.run(seconds=1.0)
        # they met: a has been turned back by b, and friction changed the spins
        assert P.velocity(e, a)[0] < va0[0] - 1.0
        assert e.physics.nm == 0  # apart again
        lin1, ang1 = _momentum(e, [a, b], inert)
        assert np.linalg.norm(lin1 - lin0) <= 1e-6 * np.linalg.norm(lin0)
        assert np.linalg.norm(ang1 - ang0) <= 1e-6 * np.linalg.norm(ang0)
