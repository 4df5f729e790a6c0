"""Sleeping islands: at rest for 0.5 s an island sleeps; a touch, an impulse, a kinematic body
moving into it, or a change to it wakes it. Parking, never-collide pairs, removal."""

import numpy as np

from ae3d import engine
from ae3d import physics as P


def _stack(e, n=3, x=0.0):
    return [P.add_box(e, (0.25, 0.25, 0.25), (x, 0.25 + 0.5 * k, 0.0)) for k in range(n)]


def test_island_sleeps_and_wakes_on_impulse():
    with engine.Engine() as e:
        P.ground(e)
        boxes = _stack(e)
        e.run(seconds=1.5)
        assert not any(P.is_awake(e, b) for b in boxes)
        assert e.physics.awake_count() == 0
        P.apply_impulse(e, boxes[0], (0.0, 0.0, 1.0))
        assert all(P.is_awake(e, b) for b in boxes)  # the whole island


def test_touch_wakes_and_other_islands_keep_sleeping():
    with engine.Engine() as e:
        P.ground(e)
        left = _stack(e, 3, 0.0)
        right = _stack(e, 2, 3.0)
        e.run(seconds=1.5)
        assert e.physics.awake_count() == 0
        ball = P.add_sphere(e, 0.2, (0.0, 3.0, 0.0))
        e.run(seconds=0.8)  # it lands after 0.51 s
        assert all(P.is_awake(e, b) for b in left)
        assert not any(P.is_awake(e, b) for b in right)
        e.run(seconds=2.0)
        assert not P.is_awake(e, ball)


def test_kinematic_moving_into_a_sleeper_wakes_it():
    with engine.Engine() as e:
        P.ground(e)
        box = P.add_box(e, (0.3, 0.3, 0.3), (0.0, 0.3, 0.0))
        car = P.add_box(e, (0.5, 0.5, 0.5), (-2.0, 0.5, 0.0), kind=P.KINEMATIC)
        e.run(seconds=1.0)
        assert not P.is_awake(e, box)
        P.set_velocity(e, car, (2.0, 0.0, 0.0))
        e.run(seconds=1.0)  # it reaches the box after 0.6 s
        assert P.is_awake(e, box)
        assert P.position(e, box)[0] > 0.05


def test_set_position_wakes_what_it_touched():
    with engine.Engine() as e:
        P.ground(e)
        a, b = _stack(e, 2)
        e.run(seconds=1.5)
        assert not P.is_awake(e, b)
        P.set_position(e, a, (5.0, 0.25, 0.0))  # pull the bottom box out
        assert P.is_awake(e, b)
        e.run(seconds=0.5)
        assert P.position(e, b)[1] < 0.3  # it fell onto the ground


def test_park_and_unpark():
    with engine.Engine() as e:
        P.ground(e)
        b = P.add_sphere(e, 0.2, (0.0, 2.0, 0.0))
        P.park(e, b)
        e.run(seconds=1.0)
        assert np.allclose(P.position(e, b), (0.0, 2.0, 0.0))  # not integrated
        other = P.add_sphere(e, 0.2, (0.0, 2.5, 0.0))
        e.run(seconds=1.0)
        assert P.position(e, other)[1] < 0.25  # no contact with the parked body
        P.unpark(e, b)
        e.run(seconds=1.0)
        assert P.position(e, b)[1] < 0.7


def test_never_collide_pair_and_masks():
    with engine.Engine() as e:
        P.ground(e)
        a = P.add_box(e, (0.5, 0.1, 0.5), (0.0, 0.1, 0.0))
        b = P.add_sphere(e, 0.2, (0.0, 1.0, 0.0))
        c = P.add_sphere(e, 0.2, (2.0, 1.0, 0.0), group=2, mask=~2)
        d = P.add_box(e, (0.5, 0.1, 0.5), (2.0, 0.1, 0.0), group=2)
        P.set_no_collide(e, a, b)
        e.run(seconds=1.0)
        assert abs(P.position(e, b)[1] - 0.2) < 5e-3  # fell through a, onto the ground
        assert abs(P.position(e, c)[1] - 0.2) < 5e-3  # its mask leaves out group 2 (d)
        assert abs(P.position(e, d)[1] - 0.1) < 5e-3


def test_remove_wakes_and_frees():
    with engine.Engine() as e:
        P.ground(e)
        a, b = _stack(e, 2)
        e.run(seconds=1.5)
        P.remove_body(e, a)
        assert P.is_awake(e, b)
        e.run(seconds=0.5)
        assert P.position(e, b)[1] < 0.3
        assert e.physics.body_count() == 2


def test_powered_runs_eight_substeps():
    with engine.Engine() as e:
        assert P.substeps(e) == 4
        e.physics.powered += 1
        assert P.substeps(e) == 8 and e.physics.effective_substeps == 8
        e.physics.powered -= 1
        P.set_substeps(e, 2)
        assert P.substeps(e) == 2


def test_moving_or_removing_what_a_sleeper_rests_on_wakes_it():
    with engine.Engine() as e:
        g = P.ground(e)
        slab = P.add_box(e, (1.0, 0.1, 1.0), (0.0, 1.0, 0.0), kind=P.STATIC)
        box = P.add_box(e, (0.2, 0.2, 0.2), (0.0, 1.3, 0.0))
        ball = P.add_sphere(e, 0.2, (5.0, 0.2, 0.0))
        e.run(seconds=1.5)
        assert not P.is_awake(e, box) and not P.is_awake(e, ball)
        P.remove_body(e, slab)
        assert P.is_awake(e, box) and not P.is_awake(e, ball)
        e.run(seconds=1.0)
        assert abs(P.position(e, box)[1] - 0.2) < 5e-3  # fell to the ground
        e.run(seconds=1.0)
        P.set_position(e, g, (0.0, -1.0, 0.0))  # the ground drops: everything on it wakes
        assert P.is_awake(e, ball) and P.is_awake(e, box)
