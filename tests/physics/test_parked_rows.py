"""Parked rows are out of the step (issue 16): the world walks the body slots not parked and the
joint and anchor slots on no parked body, so what is parked changes nothing of the rest, down to
the bits; a parked body's own row is left as it was; what the step did to a parked body (a
kinematic target reached, a force dropped) still happens."""

import numpy as np
import pytest

from ae3d import engine, physics
from ae3d.physics import _layout as L

STEPS = 45


def _world(extra_parked: bool):
    """A ground, a falling pile of boxes and one ragdoll falling over; with ``extra_parked``,
    two more ragdolls and a box made after them (higher slots) and parked (the first of them
    unparked a while on the way: ``runs``)."""
    e = engine.Engine()
    physics.ground(e)
    boxes = [physics.add_box(e, (0.2, 0.15, 0.25), (0.1 * k, 0.4 + 0.45 * k, 1.5),
                             (0.0, 0.1 * k, 0.0, 1.0)) for k in range(5)]
    live = physics.ragdoll(e, "live", (0.0, 0.0, 0.0), 8.0, 8.0, 1.0)
    physics.apply_impulse(e, e.physics.handle(int(live.bodies[0])), (30.0, 0.0, 10.0))
    parked = []
    if extra_parked:
        for k in range(2):
            r = physics.ragdoll(e, f"parked{k}", (3.0 * (k + 1), 0.0, 0.0), 8.0, 8.0, 1.0)
            physics.ragdoll_park(r)
            parked.append(r)
        b = physics.add_box(e, (0.3, 0.3, 0.3), (0.0, 0.35, 1.5))  # where the pile falls
        physics.park(e, b)
    return e, boxes, live, parked


def _rows(e, slots):
    w = e.physics
    return w.bf[slots].copy(), w.bi[slots, :L.B_GEN].copy()


@pytest.fixture(scope="module")
def runs():
    out = []
    for extra in (False, True):
        e, boxes, live, parked = _world(extra)
        w = e.physics
        slots = np.array([b.slot for b in boxes] + list(live.bodies), np.int64)
        joints = np.array([j for j in live.joints if j >= 0], np.int64)
        still = np.asarray(parked[1].bodies, np.int64) if parked else np.zeros(0, np.int64)
        before = w.bf[still].copy()
        for k in range(STEPS):
            if parked and k == 10:
                physics.ragdoll_unpark(parked[0])  # its rows walked again, then left out
            if parked and k == 25:
                physics.ragdoll_park(parked[0])
            e.fixed_step()
        out.append(dict(rows=_rows(e, slots), jf=w.jf[joints].copy(), parked_before=before,
                        parked_after=w.bf[still].copy(), awake=w.awake_count()))
        e.close()
    return out


def test_parked_rows_change_nothing_of_the_rest(runs):
    a, b = runs
    assert np.array_equal(a["rows"][0], b["rows"][0])
    assert np.array_equal(a["rows"][1], b["rows"][1])
    assert np.array_equal(a["jf"], b["jf"])
    assert a["awake"] == b["awake"]


def test_parked_rows_left_as_they_were(runs):
    _, b = runs
    assert b["parked_before"].shape[0] > 0
    assert np.array_equal(b["parked_before"], b["parked_after"])


def test_unparked_ragdoll_walked_again():
    with engine.Engine() as e:
        physics.ground(e)
        r = physics.ragdoll(e, "r", (0.0, 0.0, 0.0), 8.0, 8.0, 1.0)
        physics.ragdoll_park(r)
        pel = int(r.bodies[0])
        y0 = float(e.physics.bf[pel, L.B_POS + 1])
        e.run(frames=10)
        assert float(e.physics.bf[pel, L.B_POS + 1]) == y0
        physics.ragdoll_unpark(r)
        physics.apply_impulse(e, e.physics.handle(int(pel)), (0.0, 0.0, 60.0))
        e.run(frames=30)
        assert abs(float(e.physics.bf[pel, L.B_POS + 2])) > 0.05  # it moves again


def test_parked_kinematic_lands_on_its_target_at_once():
    with engine.Engine() as e:
        k = physics.add_box(e, (0.2, 0.2, 0.2), (0.0, 1.0, 0.0), kind="kinematic")
        physics.park(e, k)
        physics.move_kinematic(e, k, (1.0, 2.0, 3.0))
        assert np.array_equal(physics.position(e, k), [1.0, 2.0, 3.0])
        assert np.array_equal(physics.velocity(e, k), [0.0, 0.0, 0.0])
        e.run(frames=3)
        physics.unpark(e, k)
        e.run(frames=3)  # no move pending: it stays
        assert np.array_equal(physics.position(e, k), [1.0, 2.0, 3.0])


def test_force_on_a_parked_body_dropped():
    with engine.Engine() as e:
        physics.set_gravity(e, (0.0, 0.0, 0.0))
        b = physics.add_box(e, (0.2, 0.2, 0.2), (0.0, 1.0, 0.0), mass=2.0)
        physics.park(e, b)
        physics.apply_force(e, b, (100.0, 0.0, 0.0))
        e.run(frames=2)
        physics.unpark(e, b)
        e.run(frames=2)
        assert np.array_equal(physics.velocity(e, b), [0.0, 0.0, 0.0])
