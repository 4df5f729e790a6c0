"""The active ragdoll's showcase: a row of box men, each on its muscles (spec/motion.md).

From left to right: the tracker, bowing (its clip played by its muscles); one shoved from behind,
285 N·s at the chest, which staggers out of it (issue 14 asks about 300: on the box man 300 N·s
stands once in 5 steps but falls at its third shove 4 s apart; 285 stands through three in 3 steps
each); one felled, 400 N·s at the
chest; one struck in the right arm, 8 N·s (the arm drops and comes back up, and the left hand
comes across to clutch it: the hand to the wound, #698, on by default); one that goes limp;
one ANIMATED on its clip until a ball thrown at its chest strikes it, which makes it POWERED
(#581; it is put back on its clip before each throw). The blows land a second in, and again
every few seconds.

In front of them, the protective fall (issue 12): three protected fallers, each beside its
unprotected twin (``set_protective(False)``), felled once a second in: over backwards (400 N·s at
the chest from the front), forwards (440 from behind) and sideways (400 from its right). The
protected reach for the ground with straight arms, tuck the head, give at the knees, land and lie
holding the shape they landed in; the twins fall stiff. At the end of that row, a writher (issue
15): felled over backwards, it writhes for 3 s where it lands (legs drawn up and let down, arms
folded over its front), then lies still.

Behind the row, a figure walks its clip (ANIMATED) across the picture with its left arm limp
(issue 15, ``set_part_mode``): the arm hangs from its shoulder and swings as it walks.

The felled and the limp get up by themselves once they have lain still a second
(``set_get_up(body, 1.0)``, issue 13): face up they sit up, crouch and stand; face down they push
up onto hands and knees first.

In a window where there is a display; headless (EGL) into an MP4 where there is none:

    PYTHONPATH=. .venv/bin/python examples/motion_showcase.py [--out out/motion_showcase.mp4]
        [--seconds 6] [--size 1280x720] [--headless]
"""

from __future__ import annotations

import math
import os
import sys

sys.path.insert(0, os.path.join(os.path.dirname(__file__), ".."))
sys.path.insert(0, os.path.dirname(__file__))

import _cli  # noqa: E402

from ae3d import engine, figure, human, motion, physics, render  # noqa: E402

FIGURE = "boxman.glb"
GAP = 1.6          # m between the figures
FIRST_BLOW = 1.0   # s
AGAIN = 4.0        # s between the rounds of blows


# the fallers: name -> (blow N·s along the world, protected)
FALLERS = {
    "backwards": ((0.0, 0.0, -400.0), True), "backwards twin": ((0.0, 0.0, -400.0), False),
    "forwards": ((0.0, 0.0, 440.0), True), "forwards twin": ((0.0, 0.0, 440.0), False),
    "sideways": ((400.0, 0.0, 0.0), True), "sideways twin": ((400.0, 0.0, 0.0), False),
}
FALLERS_Z = 3.0    # m: their row, in front of the first
# hurt (issue 15): a faller that writhes for 3 s once down (motion.set_writhing), at the row's end
FALLERS["writher"] = ((0.0, 0.0, -400.0), True)
WRITHERS = {"writher": 3.0}
# a part of its own (issue 15, #573): behind the row, a figure walking its clip ANIMATED across
# the picture with its left arm limp (motion.set_part_mode), the arm swinging from its shoulder
LIMP_ARM_START = (-7.0, 0.0, -2.0)   # m: it walks along +X


class Blows(engine.PhaseProcessor):
    """Strikes the row at FIRST_BLOW and every AGAIN seconds after (fixed phase, first)."""

    phase = engine.priorities.FIXED

    def __init__(self, e, row):
        super().__init__(e)
        self.row = row
        self.next = FIRST_BLOW

    def run(self, e, dt):
        if e.time + 1e-9 < self.next:
            return
        first = self.next == FIRST_BLOW
        self.next += AGAIN
        for name, body in self.row.items():
            if name in FALLERS:
                if first:   # felled once: they lie where they land
                    pos = physics.ragdoll_pose(body.ragdoll)[0]
                    motion.hit(body, human.BONE_SPINE_03, pos[human.BONE_SPINE_03],
                               FALLERS[name][0])
                continue
            r = body.ragdoll
            pos = physics.ragdoll_pose(r)[0]
            if name == "shoved":
                # from behind, hard enough to stagger out of (issue 14: about 300 N·s). Measured
                # (session 11, the box man, shoves 4 s apart): 285 stands through three, 3 steps
                # each (0.02, 0.35, 0.62 s); 300 stands once (5 steps) and falls at the third
                motion.hit(body, human.BONE_SPINE_03, pos[human.BONE_SPINE_03], (0.0, 0.0, 285.0))
            elif name == "felled":
                motion.hit(body, human.BONE_SPINE_03, pos[human.BONE_SPINE_03], (0.0, 0.0, -400.0))
            elif name == "struck":
                motion.hit(body, human.BONE_UPPERARM_R, pos[human.BONE_UPPERARM_R],
                           (0.0, 0.0, -8.0))
            elif name == "caught":
                # back on its clip, then a 4 kg ball at its chest at 6 m/s: the ball's strike
                # (not a hit call) makes it POWERED
                if motion.mode(body) != motion.ANIMATED:
                    motion.set_mode(body, motion.ANIMATED)
                c = pos[human.BONE_SPINE_03]
                ball = physics.add_sphere(e, 0.1, (c[0], c[1], c[2] + 0.8))
                physics.set_velocity(e, ball, (0.0, 0.0, -6.0))
            elif name == "limp":
                if motion.mode(body) != motion.LIMP:
                    motion.set_mode(body, motion.LIMP)
                physics.apply_impulse(e, physics.ragdoll_body(r, human.BONE_SPINE_03),
                                      (0.0, 0.0, -10.0), pos[human.BONE_SPINE_03])


def build(e):
    """The row: returns {name: Motion}."""
    physics.ground(e)
    names = ("tracker", "shoved", "felled", "struck", "limp", "caught")
    row = {}
    for i, name in enumerate(names):
        z = figure.figure(e, name, FIGURE)
        f = figure.figure_of(e, z)
        figure.place(f, ((i - 0.5 * (len(names) - 1)) * GAP, 0.0, 0.0), 0.0)
        figure.play(f, "Bow" if name == "tracker" else "Idle", 1.0, True)
        body = motion.on_figure(e, z)
        if name != "caught":
            motion.set_mode(body, motion.POWERED)
        render.hide_bodies(e, [int(s) for s in body.ragdoll.bodies])  # its skin shows it
        row[name] = body
    for i, name in enumerate(FALLERS):
        z = figure.figure(e, name, FIGURE)
        f = figure.figure_of(e, z)
        figure.place(f, ((i - 0.5 * (len(FALLERS) - 1)) * GAP * 1.6, 0.0, FALLERS_Z), 0.0)
        figure.play(f, "Idle", 1.0, True)
        body = motion.on_figure(e, z)
        motion.set_mode(body, motion.POWERED)
        motion.set_protective(body, FALLERS[name][1])
        if name in WRITHERS:
            motion.set_writhing(body, WRITHERS[name])
        render.hide_bodies(e, [int(s) for s in body.ragdoll.bodies])
        row[name] = body
    # a limp arm (issue 15): the walker's left arm hangs and swings as it walks its clip
    z = figure.figure(e, "limp arm", FIGURE)
    f = figure.figure_of(e, z)
    figure.place(f, LIMP_ARM_START, 0.5 * math.pi)
    figure.play(f, "Walk", 1.0, True)
    body = motion.on_figure(e, z)
    motion.set_part_mode(body, motion.PART_ARM_L, motion.LIMP)
    render.hide_bodies(e, [int(s) for s in body.ragdoll.bodies])
    row["limp arm"] = body
    # the ways up (issue 13): the felled and the limp get up by themselves once they have lain
    # still a second (the limp one ends ANIMATED, the felled POWERED), and go again at the next
    # round of blows
    for name in ("felled", "limp"):
        motion.set_get_up(row[name], 1.0)
    e.add_processor(Blows(e, row), engine.priorities.HANDOVER_STEP + 50)
    render.camera_orbit(e, target=(0.0, 0.6, 1.5), distance=10.0, yaw=0.0, pitch=0.3)
    return row


def main() -> None:
    args = _cli.parser(__doc__, "out/motion_showcase.mp4", 6.0).parse_args()
    with engine.Engine() as e:
        build(e)
        _cli.show(e, args)


if __name__ == "__main__":
    main()
