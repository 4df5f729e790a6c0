"""A kinematic box driven at 8 m/s into a resting box sends it off and is not slowed itself; at
10 m/s it does not pass through a capsule (issue 2)."""

import numpy as np

from ae3d import engine
from ae3d import physics as P

DT = 1.0 / 60.0


def _drive(e, car, speed, steps, x0):
    """Move the kinematic car along +x at ``speed``; returns its positions after each step."""
    track = []
    for k in range(steps):
        P.move_kinematic(e, car, (x0 + speed * DT * (k + 1), 0.5, 0.0))
        e.run(frames=1)
        track.append(P.position(e, car))
    return np.array(track)


def test_kinematic_box_at_8_sends_a_box_off():
    with engine.Engine() as e:
        P.ground(e)
        car = P.add_box(e, (0.5, 0.5, 0.5), (-3.0, 0.5, 0.0), kind=P.KINEMATIC)
        box = P.add_box(e, (0.3, 0.3, 0.3), (0.0, 0.3, 0.0), mass=20.0)
        e.run(seconds=1.0)
        assert not P.is_awake(e, box)
        track = _drive(e, car, 8.0, 45, -3.0)
        # the car was not slowed: it is exactly where it was told, each step
        want = -3.0 + 8.0 * DT * np.arange(1, 46)
        assert np.max(np.abs(track[:, 0] - want)) < 1e-9
        assert np.max(np.abs(track[:, 1:] - (0.5, 0.0))) < 1e-12
        # the box was sent off ahead of it, faster than the car at the moment of the hit
        assert P.position(e, box)[0] > track[-1, 0] + 0.5
        assert P.velocity(e, box)[0] > 4.0


def test_kinematic_box_at_10_does_not_pass_through_a_capsule():
    with engine.Engine() as e:
        P.ground(e)
        car = P.add_box(e, (0.5, 0.5, 0.5), (-3.0, 0.5, 0.0), kind=P.KINEMATIC)
        cap = P.add_log(e, 0.15, 0.5, (0.0, 0.15, 0.0), heading=np.pi / 2)  # across the path
        e.run(seconds=1.0)
        worst = np.inf
        for k in range(40):
            P.move_kinematic(e, car, (-3.0 + 10.0 * DT * (k + 1), 0.5, 0.0))
            e.run(frames=1)
            gap = P.position(e, cap)[0] - 0.15 - (P.position(e, car)[0] + 0.5)
            worst = min(worst, gap)
        assert P.position(e, cap)[0] > P.position(e, car)[0] + 0.5  # still ahead of the car
        assert worst > -0.05  # never more than 5 cm into it
