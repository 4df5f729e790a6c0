"""Restitution: a ball with restitution 0.5 dropped from 1 m bounces to 0.25 m ± 0.02 m."""

from ae3d import engine
from ae3d import physics as P


def test_ball_bounces_to_quarter_height():
    r = 0.1
    with engine.Engine() as e:
        P.ground(e)
        ball = P.add_sphere(e, r, (0.0, 1.0 + r, 0.0), restitution=0.5)
        bounced = False
        apex = 0.0
        for _ in range(150):
            e.run(frames=1)
            y = P.position(e, ball)[1] - r
            vy = P.velocity(e, ball)[1]
            if vy > 0.0:
                bounced = True
            if bounced:
                apex = max(apex, y)
                if vy < 0.0:
                    break
        assert bounced
        assert abs(apex - 0.25) <= 0.02


def test_no_bounce_without_restitution():
    with engine.Engine() as e:
        P.ground(e)
        ball = P.add_sphere(e, 0.1, (0.0, 1.1, 0.0))
        top = 0.0
        for _ in range(120):
            e.run(frames=1)
            if e.time > 0.5:
                top = max(top, P.position(e, ball)[1])
        assert top < 0.1 + 5e-3
