"""Actions at an interaction point (spec #825, the mode ACTING): lying down, sitting, eating and
drinking, and getting up from each.

Left to right:

- a box man stood beside a bedroll, turned a third of a turn away from the way it will lie: it
  turns there on the spot, squats, sits back on its hands and lies down on the bedroll
  (``motion.lie_down``), lies a while, and gets up (``motion.get_up``);
- a box man on a squared log 0.45 m up: it sits (``motion.sit``, stood at ``motion.sit_spot``),
  takes the bowl beside it in both hands (``motion.hold``), takes two bites (``motion.eat``),
  lets go (the script puts the bowl back) and stands up (``motion.stand_up``);
- a Mixamo man on a round log (``physics.add_log``): it sits, takes a cup in its right hand
  (``motion.hold_cup``), drinks twice (``motion.drink``) and stands up (letting go first);
- a box man on another squared log, struck in the back with 300 N·s as it sits holding a bowl:
  knocked off its seat, it drops the bowl (made dynamic, it falls to the ground), falls forward,
  lands, lies a second and gets up by itself (``motion.set_get_up``).

The first two and the last are POWERED before and after (the muscles play their clips), the third
ANIMATED;
each action is keyed on its contacts and its bodies follow the keys, so the seats and the ground
hold them. In a window where there is a display; headless (EGL) into an MP4 where there is none:

    PYTHONPATH=. .venv/bin/python examples/actions.py [--out out/actions.mp4] [--seconds 12]
        [--size 1280x720] [--headless]
"""

from __future__ import annotations

import math
import os
import sys

sys.path.insert(0, os.path.join(os.path.dirname(__file__), ".."))
sys.path.insert(0, os.path.dirname(__file__))

import _cli  # noqa: E402

from ae3d import engine, figure, human, motion, physics, render  # noqa: E402

BEDROLL = (0.4, 0.025, 1.0)    # m: half extents (a thin static box on the ground)
LOG_SQUARED = 0.45             # m: the squared log's top
LOG_ROUND = 0.22               # m: the round log's radius (its top 0.44 m up)
BOWL = (0.11, 0.035, 0.08)     # m: half extents (a kinematic box)
CUP = (0.04, 0.05)             # m: radius, half length (a kinematic capsule standing)
STRIKE = 300.0                 # N·s: the blow in the struck one's back (3.8 m/s on it)

# (seconds, who, what): the script, from the start
SCRIPT = (
    (0.5, "lier", "lie_down"), (0.5, "eater", "sit"), (0.5, "drinker", "sit"),
    (0.5, "struck", "sit"), (3.0, "struck", "hold"), (4.0, "struck", "strike"),
    (3.0, "eater", "hold"), (3.0, "drinker", "hold_cup"),
    (3.8, "eater", "eat"), (3.8, "drinker", "drink"),
    (5.5, "lier", "get_up"),
    (5.6, "eater", "eat"), (5.6, "drinker", "drink"),
    (7.5, "eater", "let_go"),
    (8.1, "eater", "put_back"), (8.3, "eater", "stand_up"), (8.3, "drinker", "stand_up"),
    (9.0, "drinker", "put_back"),
)


def _figure(e, name: str, path: str, at, yaw: float, mode: int, clip: str = "Idle"):
    """A dressed figure standing at ``at`` (its root, m) facing ``yaw`` (rad about +y)."""
    z = figure.figure(e, name, path)
    f = figure.figure_of(e, z)
    figure.place(f, tuple(float(v) for v in at), yaw)
    figure.play(f, clip, 1.0, True)
    body = motion.on_figure(e, z)
    motion.set_mode(body, mode)
    render.hide_bodies(e, [int(s) for s in body.ragdoll.bodies])  # its skin shows it
    return body


def _yaw(v) -> float:
    """rad: the yaw about +y of a figure facing direction ``v``."""
    return math.atan2(float(v[0]), float(v[2]))


def _spot(e, path: str, where, *args):
    """``where(probe, *args)`` (``motion.lie_spot`` or ``motion.sit_spot``: where to stand) asked
    of a probe of rig ``path`` made far off and taken out again (each rig has its own spot)."""
    probe = _figure(e, "probe", path, (0.0, 0.0, 40.0), 0.0, motion.ANIMATED)
    spot = where(probe, *args)
    engine.destroy(e, probe.object)
    return spot


def build(e):
    """The four figures, their seats and their items. Returns {name: (Motion, dict)}."""
    physics.set_ankles(e, True)      # feet of their own: the actions plant them
    physics.ground(e)
    cast = {}
    # the lier: a bedroll along X, its head toward +X; stood a third of a turn off the way
    middle, head = (-2.2, 2.0 * BEDROLL[1], 0.3), (1.0, 0.0, 0.0)
    physics.add_box(e, (BEDROLL[2], BEDROLL[1], BEDROLL[0]), (middle[0], BEDROLL[1], middle[2]),
                    kind="static")
    spot = _spot(e, "boxman.glb", motion.lie_spot, middle, head)
    away = _yaw((-head[0], 0.0, -head[2]))
    body = _figure(e, "lier", "boxman.glb", spot, away + 2.0 * math.pi / 3.0, motion.POWERED)
    cast["lier"] = (body, dict(head=head))
    # the eater: a squared log across the picture, sat facing the camera (+Z)
    seat, facing = (0.0, LOG_SQUARED, -0.1), (0.0, 0.0, 1.0)
    physics.add_box(e, (0.6, 0.5 * LOG_SQUARED, 0.15), (0.0, 0.5 * LOG_SQUARED, -0.1),
                    kind="static")
    spot = _spot(e, "boxman.glb", motion.sit_spot, seat, facing)
    body = _figure(e, "eater", "boxman.glb", spot, _yaw(facing), motion.POWERED)
    # the bowl waits on the log beside it (put back there once it has let go: the game's part)
    rest = (0.42, LOG_SQUARED + BOWL[1], -0.1)
    bowl = physics.add_box(e, BOWL, rest, kind="kinematic")
    cast["eater"] = (body, dict(seat=seat, facing=facing, item=bowl, rest=rest,
                                grips=((BOWL[0] + 0.02, 0.0, 0.0), (-BOWL[0] - 0.02, 0.0, 0.0))))
    # the drinker: a round log, sat facing the camera
    seat, facing = (2.2, 2.0 * LOG_ROUND, -0.1), (0.0, 0.0, 1.0)
    physics.add_log(e, LOG_ROUND, 0.6, (2.2, LOG_ROUND, -0.1), kind="static")
    spot = _spot(e, "mixamo_man.glb", motion.sit_spot, seat, facing)
    body = _figure(e, "drinker", "mixamo_man.glb", spot, _yaw(facing), motion.ANIMATED)
    # the cup waits on the ground beside its feet
    rest = (2.62, CUP[0] + CUP[1], 0.3)
    cup = physics.add_capsule(e, CUP[0], CUP[1], rest, kind="kinematic")
    cast["drinker"] = (body, dict(seat=seat, facing=facing, item=cup, rest=rest,
                                  grip=(-CUP[0] - 0.02, 0.0, 0.0)))
    # the struck: a squared log further on, sat facing the camera, struck in the back as it sits
    # holding a bowl of its own
    seat, facing = (4.4, LOG_SQUARED, -0.1), (0.0, 0.0, 1.0)
    physics.add_box(e, (0.6, 0.5 * LOG_SQUARED, 0.15), (4.4, 0.5 * LOG_SQUARED, -0.1),
                    kind="static")
    spot = _spot(e, "boxman.glb", motion.sit_spot, seat, facing)
    body = _figure(e, "struck", "boxman.glb", spot, _yaw(facing), motion.POWERED)
    motion.set_get_up(body, 1.0)     # knocked down, it gets up by itself a second after lying
    bowl = physics.add_box(e, BOWL, (4.82, LOG_SQUARED + BOWL[1], -0.1), kind="kinematic")
    cast["struck"] = (body, dict(seat=seat, facing=facing, blow=(0.0, 0.0, STRIKE), item=bowl,
                                 grips=((BOWL[0] + 0.02, 0.0, 0.0), (-BOWL[0] - 0.02, 0.0, 0.0))))
    e.add_processor(Script(e, cast), engine.priorities.HANDOVER_STEP + 50)
    render.camera_orbit(e, target=(1.1, 0.5, 0.4), distance=8.5, yaw=0.0, pitch=0.35)
    return cast


class Script(engine.PhaseProcessor):
    """Runs ``SCRIPT`` (fixed phase, first): each line once its time has come."""

    phase = engine.priorities.FIXED

    def __init__(self, e, cast) -> None:
        super().__init__(e)
        self.cast = cast
        self.next = 0

    def run(self, e, dt) -> None:
        while self.next < len(SCRIPT) and SCRIPT[self.next][0] <= e.time + 1e-9:
            _, who, what = SCRIPT[self.next]
            self.next += 1
            body, a = self.cast[who]
            if what == "lie_down":
                motion.lie_down(body, a["head"])
            elif what == "sit":
                motion.sit(body, a["seat"], a["facing"])
            elif what == "hold":
                motion.hold(body, a["item"], *a["grips"])
            elif what == "hold_cup":
                motion.hold_cup(body, a["item"], a["grip"], True)
            elif what == "strike":
                # in the back at the chest: past what its balance keeps, it is knocked off
                chest = physics.ragdoll_pose(body.ragdoll)[0][human.BONE_SPINE_03]
                motion.hit(body, human.BONE_SPINE_03, chest, a["blow"])
            elif what == "put_back":
                # let go, the item stays where it rests: putting it away is the game's part
                physics.move_kinematic(e, a["item"], a["rest"], (0.0, 0.0, 0.0, 1.0))
            else:   # eat, drink, let_go, stand_up, get_up: the body is all they take
                getattr(motion, what)(body)


def main() -> None:
    args = _cli.parser(__doc__, "out/actions.mp4", 12.0).parse_args()
    with engine.Engine() as e:
        build(e)
        _cli.show(e, args)


if __name__ == "__main__":
    main()
