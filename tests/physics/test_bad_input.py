"""Bad input: NaN or infinite positions, zero or negative mass for a dynamic body, a wrong shape
of array, a removed body's handle: each a clear exception naming the argument, nothing written."""

import numpy as np
import pytest

from ae3d import engine
from ae3d import physics as P


@pytest.fixture()
def e():
    with engine.Engine() as eng:
        P.ground(eng)
        yield eng


def _snapshot(e):
    w = e.physics
    return w.n, w.bf[: w.n].copy(), w.bi[: w.n].copy()


def _same(a, b):
    return a[0] == b[0] and np.array_equal(a[1], b[1]) and np.array_equal(a[2], b[2])


@pytest.mark.parametrize("pos", [(np.nan, 0, 0), (0, np.inf, 0), (0, 0, -np.inf)])
def test_non_finite_position(e, pos):
    before = _snapshot(e)
    with pytest.raises(ValueError, match="position"):
        P.add_box(e, (0.5, 0.5, 0.5), pos)
    assert _same(before, _snapshot(e))
    b = P.add_sphere(e, 0.5, (0, 1, 0))
    before = _snapshot(e)
    with pytest.raises(ValueError, match="position"):
        P.set_position(e, b, pos)
    assert _same(before, _snapshot(e))


@pytest.mark.parametrize("mass", [0.0, -1.0, np.nan])
def test_bad_mass_for_dynamic(e, mass):
    before = _snapshot(e)
    with pytest.raises(ValueError, match="mass"):
        P.add_sphere(e, 0.5, (0, 1, 0), mass=mass)
    assert _same(before, _snapshot(e))


def test_bad_sizes_and_density(e):
    with pytest.raises(ValueError, match="radius"):
        P.add_sphere(e, 0.0, (0, 1, 0))
    with pytest.raises(ValueError, match="half_extents"):
        P.add_box(e, (0.5, -0.5, 0.5), (0, 1, 0))
    with pytest.raises(ValueError, match="density"):
        P.add_capsule(e, 0.2, 0.3, (0, 1, 0), density=0.0)
    with pytest.raises(ValueError, match="kind"):
        P.add_box(e, (0.5, 0.5, 0.5), (0, 1, 0), kind="floating")
    with pytest.raises(TypeError, match="radius"):
        P.add_sphere(e, "big", (0, 1, 0))


@pytest.mark.parametrize("value", [(1, 2), (1, 2, 3, 4), [[1, 2, 3]], "abc"])
def test_wrong_shape_of_array(e, value):
    b = P.add_sphere(e, 0.5, (0, 1, 0))
    before = _snapshot(e)
    with pytest.raises((ValueError, TypeError), match="velocity"):
        P.set_velocity(e, b, value)
    with pytest.raises((ValueError, TypeError), match="impulse"):
        P.apply_impulse(e, b, value)
    with pytest.raises((ValueError, TypeError), match="rotation"):
        P.set_rotation(e, b, value if len(value) != 4 else (0, 0, 0, 0))
    assert _same(before, _snapshot(e))


def test_removed_handle(e):
    b = P.add_sphere(e, 0.5, (0, 1, 0))
    P.remove_body(e, b)
    before = _snapshot(e)
    for call in (lambda: P.position(e, b), lambda: P.set_velocity(e, b, (1, 0, 0)),
                 lambda: P.apply_impulse(e, b, (1, 0, 0)), lambda: P.remove_body(e, b),
                 lambda: P.is_awake(e, b)):
        with pytest.raises(ValueError, match="body was removed"):
            call()
    assert _same(before, _snapshot(e))
    # the slot is reused, the old handle stays stale
    c = P.add_sphere(e, 0.5, (0, 1, 0))
    assert c.slot == b.slot and c != b
    with pytest.raises(ValueError, match="removed"):
        P.position(e, b)
    assert P.body_exists(e, c) and not P.body_exists(e, b)


def test_not_a_handle_and_other_world(e):
    with pytest.raises(TypeError, match="body"):
        P.position(e, 3)
    with engine.Engine() as other:
        ob = P.add_sphere(other, 0.5, (0, 1, 0))
        with pytest.raises(ValueError, match="another physics world"):
            P.position(e, ob)


def test_nan_impulse_point_force_gravity(e):
    b = P.add_sphere(e, 0.5, (0, 1, 0))
    before = _snapshot(e)
    with pytest.raises(ValueError, match="point"):
        P.apply_impulse(e, b, (1, 0, 0), (0, np.nan, 0))
    with pytest.raises(ValueError, match="force"):
        P.apply_force(e, b, (np.inf, 0, 0))
    with pytest.raises(ValueError, match="g"):
        P.set_gravity(e, (0, np.nan, 0))
    with pytest.raises(ValueError, match="n"):
        P.set_substeps(e, 0)
    with pytest.raises(ValueError, match="direction"):
        P.raycast(e, (0, 1, 0), (0, 0, 0))
    with pytest.raises(ValueError, match="kinematic"):
        P.move_kinematic(e, b, (0, 0, 0))
    assert _same(before, _snapshot(e))
    assert np.all(np.isfinite(P.gravity(e)))
