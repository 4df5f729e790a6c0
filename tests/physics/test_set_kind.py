"""physics.set_kind: a kinematic prop let fall (made dynamic) lands and rests on the ground; a
dynamic box caught in the air (made kinematic) stays there and carries what lands on it; what a
kind can't become is refused before anything changes; the same script twice, the same bits."""

import numpy as np
import pytest

from ae3d import engine
from ae3d import physics as P

DT = 1.0 / 60.0
BOWL = (0.12, 0.03, 0.12)   # m: half extents of a bowl-sized box


def _let_fall():
    """A kinematic bowl carried across at 1 m, then made dynamic: (the run's positions, the
    bowl's mass, whether it slept at the end)."""
    with engine.Engine() as e:
        P.ground(e)
        bowl = P.add_box(e, BOWL, (0.0, 1.0, 0.0), kind=P.KINEMATIC)
        for k in range(10):
            P.move_kinematic(e, bowl, (0.02 * (k + 1), 1.0, 0.0))
            e.run(frames=1)
        P.set_kind(e, bowl, P.DYNAMIC, density=500.0)
        track = []
        for _ in range(120):
            e.run(frames=1)
            track.append(P.position(e, bowl))
        return np.array(track), P.mass(e, bowl), P.kind(e, bowl), P.is_awake(e, bowl)


def test_a_kinematic_prop_made_dynamic_falls_and_rests_on_the_ground():
    track, mass, kind, awake = _let_fall()
    assert kind == P.DYNAMIC
    assert mass == pytest.approx(500.0 * 8.0 * np.prod(BOWL))
    # it falls from where it was left, straight down (made dynamic at rest); landing, it
    # shifts no more than a millimetre
    assert track[0, 1] < 1.0
    air = track[:, 1] > BOWL[1] + 0.05
    assert np.max(np.abs(track[air, 0] - 0.2)) < 1e-9
    assert np.max(np.abs(track[:, 0] - 0.2)) < 1e-3
    # and rests on the ground: its bottom face on the plane, within the contacts' slop
    print(f"the bowl at rest {track[-1, 1] - BOWL[1]:+.4f} m over the ground, awake {awake}")
    assert abs(track[-1, 1] - BOWL[1]) < 0.01
    assert np.max(np.abs(track[-30:, 1] - track[-1, 1])) < 1e-3


def test_the_same_fall_twice_the_same_bits():
    a = _let_fall()[0]
    b = _let_fall()[0]
    assert a.tobytes() == b.tobytes()


def test_a_dynamic_box_made_kinematic_stays_and_carries_what_lands_on_it():
    with engine.Engine() as e:
        P.ground(e)
        shelf = P.add_box(e, (0.5, 0.05, 0.5), (0.0, 2.0, 0.0), mass=10.0)
        e.run(frames=20)                 # falling
        at = P.position(e, shelf)
        assert at[1] < 2.0
        P.set_kind(e, shelf, P.KINEMATIC)
        assert P.mass(e, shelf) == 0.0 and P.kind(e, shelf) == P.KINEMATIC
        crate = P.add_box(e, (0.2, 0.2, 0.2), (0.0, at[1] + 0.6, 0.0), mass=20.0)
        e.run(seconds=1.5)
        # the shelf stayed exactly where it was caught, the crate rests on it
        assert np.array_equal(P.position(e, shelf), at)
        assert abs(P.position(e, crate)[1] - (at[1] + 0.05 + 0.2)) < 0.01
        # and it can be moved as any kinematic body, the crate carried up with it
        for k in range(30):
            P.move_kinematic(e, shelf, (0.0, at[1] + 0.01 * (k + 1), 0.0))
            e.run(frames=1)
        assert abs(P.position(e, crate)[1] - (at[1] + 0.30 + 0.25)) < 0.02


def test_what_a_kind_cannot_become_is_refused_and_nothing_changes():
    with engine.Engine() as e:
        ground = P.ground(e)
        wall = P.add_box(e, (1.0, 1.0, 0.1), (0.0, 1.0, 3.0), kind=P.STATIC)
        prop = P.add_box(e, BOWL, (0.0, 1.0, 0.0), kind=P.KINEMATIC)
        r = P.ragdoll(e, "limp", (2.0, 0.0, 0.0), 8.0, 8.0, 1.0)
        bone = P.ragdoll_body(r, 0)
        with pytest.raises(ValueError, match="static"):
            P.set_kind(e, wall, P.DYNAMIC)
        with pytest.raises(ValueError, match="static"):
            P.set_kind(e, ground, P.KINEMATIC)
        with pytest.raises(ValueError, match="static"):
            P.set_kind(e, prop, P.STATIC)
        with pytest.raises(ValueError, match="kind must be one of"):
            P.set_kind(e, prop, "floppy")
        with pytest.raises(ValueError, match="mass"):
            P.set_kind(e, prop, P.DYNAMIC, mass=-1.0)
        with pytest.raises(ValueError, match="mass"):
            P.set_kind(e, prop, P.DYNAMIC, mass=float("nan"))
        with pytest.raises(ValueError, match="gives a mass"):
            P.set_kind(e, prop, P.DYNAMIC, density=1e12)
        with pytest.raises(ValueError, match="ragdoll"):
            P.set_kind(e, bone, P.KINEMATIC)
        assert P.kind(e, prop) == P.KINEMATIC and P.mass(e, prop) == 0.0
        P.remove_body(e, prop)
        with pytest.raises(ValueError, match="stale"):
            P.set_kind(e, prop, P.DYNAMIC)
        # its own kind again changes nothing
        box = P.add_box(e, BOWL, (0.0, 3.0, 0.0), mass=2.0)
        P.set_kind(e, box, P.DYNAMIC, mass=5.0)
        assert P.mass(e, box) == 2.0
