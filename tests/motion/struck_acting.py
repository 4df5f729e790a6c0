"""Blows to figures on a keyed way (tests/test_struck_acting.py): sitting on a log, lying on the
ground, eating from a bowl on the log (ACTING), and rising from its back (GETTING_UP), each struck
once with ``motion.hit`` at one bone, one strength and one way, then watched.

Every figure is one trial in one engine per rig, far apart (``SPACING``). Timeline: stood
``SETTLE`` s, sat or laid down, ``SETUP`` s on (the eaters then take a bowl and begin a bite, the
risers are asked up), struck at ``STRIKE`` s into the action; a figure acting ``ASK`` and
``ASK_AGAIN`` s after the blow is asked up (``get_up``); watched to ``WATCH`` s after the blow.
``set_get_up(1.0)`` on every figure, so one knocked down gets up by itself.

Per trial (``Trial``): the mode at the blow, whether the blow knocked it off its way (POWERED the
moment it was struck), the seconds from the blow to coming to rest (``motion.landed``, or sat again
on its seat: ``resat``) and to standing again, the joints' widest gap (all along, and from
``BACK_S`` after the blow), the deepest body under the ground, bad bodies (``tests/blows.Watch``),
the pelvis's drift over the ``ASK`` s after a blow it kept to its way through (m), the struck
bone's give (the farthest its body goes from where it was struck over ``GIVE`` s, m) and how far
it is from there ``ASK`` s on (``back``, m; a blow the way kept, not rising), the same drawn
(``give_drawn``, ``back_drawn``: ``motion.drawn_pose``), and at the end:
its mode, its pelvis body's up against the world's (rad), falling, getting up. Units: m, s, rad,
N·s.
"""

from __future__ import annotations

import math
import os
import sys

import numpy as np

from ae3d import engine, human, motion, physics
from ae3d.physics import _kernels_joints as KJ
from ae3d.physics import _layout as L

sys.path.insert(0, os.path.join(os.path.dirname(__file__), ".."))
import blows as B  # noqa: E402
from motion import lie as LI  # noqa: E402
from motion import sit as SI  # noqa: E402
from motion.eat import BOWL  # noqa: E402
from motion.measure import motion_digest, qrot  # noqa: E402

DT = 1.0 / 60.0
SPACING = 4.0           # m between trials
SETTLE = 0.5            # s stood before the action
SETUP = 5.0             # s from sit / lie_down to the eaters' bowl and the risers' get_up
STRIKE = 6.0            # s from sit / lie_down to the blow (the risers 1 s into the way up)
ASK = 3.0               # s after the blow a figure still acting is asked up
ASK_AGAIN = 6.0         # s after the blow, again (a knocked sitter that sat again on its seat)
GIVE = 0.5              # s after the blow the struck bone's give is watched
WATCH = 11.0            # s watched after the blow
SEAT = 0.45             # m: the log's top
HEAD = (1.0, 0.0, 0.0)  # the liers' head (lie_down's ``head``): toward +X, stood facing -X

KINDS = ("sit", "lie", "eat", "rise")
BONES = {"chest": human.BONE_SPINE_03, "head": human.BONE_NECK,
         "upper arm": human.BONE_UPPERARM_L, "thigh": human.BONE_THIGH_R}
LEVELS = (60.0, 250.0, 1000.0, 5000.0)
WAYS = {"-z": (0.0, 0.0, -1.0), "+z": (0.0, 0.0, 1.0), "+x": (1.0, 0.0, 0.0),
        "-x": (-1.0, 0.0, 0.0), "down": (0.0, -1.0, 0.0)}


def trials() -> list[tuple[str, str, float, str]]:
    """(kind, bone, N·s, way): every kind takes every bone from every way, the strength turning
    with the way so each bone takes each strength (test_unbreakable's rotation)."""
    out = []
    for kind in KINDS:
        for bi, bone in enumerate(BONES):
            for wi, way in enumerate(WAYS):
                out.append((kind, bone, LEVELS[(wi + bi) % len(LEVELS)], way))
    return out


class Trial:
    def __init__(self, e, k: int, path: str, kind: str, bone: str, J: float, way: str) -> None:
        self.kind, self.bone, self.J, self.way = kind, bone, J, way
        middle = (SPACING * (k % 10), 0.0, SPACING * (k // 10))
        if kind in ("sit", "eat"):
            self.one = SI.One(e, f"t{k}", path, middle, SEAT, 0.0, motion.POWERED, False)
        else:
            self.one = LI.One(e, f"t{k}", path, middle, HEAD, motion.POWERED, -0.5 * math.pi)
        self.m = self.one.m
        motion.set_get_up(self.m, 1.0)
        self.item = None
        self.mode_at = -1
        self.knocked = False
        self.landed_s = math.nan
        self.up_s = math.nan
        self.gap = self.late_gap = self.depth = 0.0
        self.bad = 0.0
        self.drift = 0.0
        self.give = self.give_drawn = 0.0
        self.back = self.back_drawn = math.nan
        self.b0 = self.d0 = None
        self.acting_at_ask = False
        self.asked = 0
        self.resat = False
        self.p0 = None
        self.item_low = math.inf

    def begin(self) -> None:
        if self.kind in ("sit", "eat"):
            assert motion.sit(self.m, self.one.seat.point, self.one.facing)
        else:
            assert motion.lie_down(self.m, self.one.head)

    def pelvis(self, w) -> np.ndarray:
        return w.bf[int(self.m.ragdoll.bodies[0]), L.B_POS:L.B_POS + 3].copy()

    def struck_at(self, w) -> np.ndarray:
        """m: the struck bone's body's centre now."""
        return w.bf[int(self.m.ragdoll.bodies[BONES[self.bone]]), L.B_POS:L.B_POS + 3].copy()

    def drawn_at(self) -> np.ndarray:
        """m: the struck bone as drawn now (``motion.drawn_pose``)."""
        return motion.drawn_pose(self.m)[0][BONES[self.bone]].copy()

    def lean(self, w) -> float:
        q = w.bf[int(self.m.ragdoll.bodies[0]), L.B_QUAT:L.B_QUAT + 4]
        up = qrot(q, human.BONE_UP_LOCAL[0])
        return math.acos(max(-1.0, min(1.0, float(up[1]))))

    def strike(self, e) -> None:
        w = e.physics
        b = BONES[self.bone]
        self.mode_at = motion.mode(self.m)
        self.p0 = self.pelvis(w)
        p = w.bf[int(self.m.ragdoll.bodies[b]), L.B_POS:L.B_POS + 3].copy()
        self.b0 = p
        self.d0 = self.drawn_at()
        motion.hit(self.m, b, p, self.J * np.asarray(WAYS[self.way]))
        self.knocked = motion.mode(self.m) == motion.POWERED

    def item_row(self, w) -> dict:
        """An eater's bowl at the end: its kind, height (m), speed (m/s), the lowest it went (m)."""
        if self.item is None:
            return {}
        e = self.m.engine
        return dict(item_kind=physics.kind(e, self.item),
                    item_y=float(physics.position(e, self.item)[1]),
                    item_v=float(np.linalg.norm(physics.velocity(e, self.item))),
                    item_low=self.item_low)

    def row(self, w) -> dict:
        return dict(kind=self.kind, bone=self.bone, J=self.J, way=self.way, mode_at=self.mode_at,
                    knocked=self.knocked, landed_s=self.landed_s, up_s=self.up_s, gap=self.gap,
                    late_gap=self.late_gap, depth=self.depth, bad=self.bad, drift=self.drift,
                    give=self.give, back=self.back, give_drawn=self.give_drawn,
                    back_drawn=self.back_drawn,
                    acting_at_ask=self.acting_at_ask, asked=self.asked, resat=self.resat,
                    mode=motion.mode(self.m), **self.item_row(w),
                    lean=self.lean(w), falling=motion.falling(self.m),
                    getting_up=motion.getting_up(self.m))


digest = motion_digest


def run(path: str, only: list | None = None) -> dict:
    """Every trial (or ``only``'s) for rig ``path`` in one engine. Returns dict(rows, digest)."""
    e = engine.Engine()
    physics.set_ankles(e, True)
    physics.ground(e)
    ts = [Trial(e, k, path, *t) for k, t in enumerate(only if only is not None else trials())]
    watch = B.Watch(e, [t.m.ragdoll for t in ts])
    w = e.physics
    e.run(seconds=SETTLE)
    for t in ts:
        t.begin()
    steps = 0

    def frames(seconds: float) -> None:
        nonlocal steps
        for _ in range(round(seconds / DT)):
            e.frame(DT)
            steps += 1

    frames(SETUP)
    for t in ts:
        if t.kind == "eat":
            c = t.one.seat.middle
            t.item = physics.add_box(e, BOWL, (c[0], 1.0, c[2] + 1.0), kind="kinematic")
            assert motion.hold(t.m, t.item, (BOWL[0] + 0.02, 0.0, 0.0),
                               (-BOWL[0] - 0.02, 0.0, 0.0))
        elif t.kind == "rise":
            assert motion.get_up(t.m)
    frames(0.7)
    for t in ts:
        if t.kind == "eat":
            assert motion.eat(t.m)
    frames(STRIKE - SETUP - 0.7)
    for t in ts:
        t.strike(e)
    back = round(B.BACK_S / DT)
    for s in range(round(WATCH / DT)):
        if s == round(ASK / DT):
            for t in ts:
                t.acting_at_ask = motion.acting(t.m)
                if not t.knocked and t.kind != "rise":
                    t.drift = float(np.linalg.norm(t.pelvis(w) - t.p0))
                    t.back = float(np.linalg.norm(t.struck_at(w) - t.b0))
                    t.back_drawn = float(np.linalg.norm(t.drawn_at() - t.d0))
        if s in (round(ASK / DT), round(ASK_AGAIN / DT)):
            for t in ts:
                if motion.acting(t.m) and not motion.getting_up(t.m):
                    t.asked += 1
                    assert motion.get_up(t.m)
        e.frame(DT)
        o = watch()
        for i, t in enumerate(ts):
            gap = float(np.nan_to_num(o[i, KJ.FW_GAP], nan=1e9))
            t.gap = max(t.gap, gap)
            if s + 1 >= back:
                t.late_gap = max(t.late_gap, gap)
            t.depth = max(t.depth, float(np.nan_to_num(o[i, KJ.FW_DEPTH], nan=1e9)))
            t.bad = max(t.bad, float(o[i, KJ.FW_BAD]))
            if s < round(GIVE / DT):
                t.give = max(t.give, float(np.linalg.norm(t.struck_at(w) - t.b0)))
                t.give_drawn = max(t.give_drawn, float(np.linalg.norm(t.drawn_at() - t.d0)))
            if t.knocked and math.isnan(t.landed_s) and (motion.landed(t.m)
                                                          or motion.acting(t.m)):
                t.landed_s = (s + 1) * DT
            t.resat |= t.knocked and motion.sitting(t.m)
            if t.item is not None:
                t.item_low = min(t.item_low, float(w.bf[t.item.slot, L.B_POS + 1]))
            if (t.knocked and math.isnan(t.up_s) and not math.isnan(t.landed_s)
                    and motion.mode(t.m) == motion.POWERED and not motion.falling(t.m)
                    and t.lean(w) < 0.1):
                t.up_s = (s + 1) * DT
    out = dict(rows=[t.row(w) for t in ts], digest=digest(e))
    e.close()
    return out


# things thrown at a sitter's chest from in front: (name, half extent m, kg, m/s)
THROWN = (("crate", 0.2, 60.0, 10.0), ("ball", 0.08, 1.0, 4.0))


def run_thrown(path: str) -> dict:
    """A sitter per thing in ``THROWN``, struck by it (the world's contacts, not ``hit``): a box
    of that half extent and mass thrown level at its chest from 1 m ahead at that speed. Returns
    {name: dict(knocked, landed, mode, lean, acting)} after ``WATCH`` s."""
    e = engine.Engine()
    physics.set_ankles(e, True)
    physics.ground(e)
    ones = [SI.One(e, name, path, (SPACING * i, 0.0, 0.0), SEAT, 0.0, motion.POWERED, False)
            for i, (name, *_r) in enumerate(THROWN)]
    for o in ones:
        motion.set_get_up(o.m, 1.0)
    e.run(seconds=SETTLE)
    for o in ones:
        assert motion.sit(o.m, o.seat.point, o.facing)
    e.run(seconds=SETUP)
    w = e.physics
    for o, (_n, half, kg, speed) in zip(ones, THROWN, strict=True):
        chest = w.bf[int(o.m.ragdoll.bodies[human.BONE_SPINE_03]), L.B_POS:L.B_POS + 3]
        at = chest + o.facing * 1.0
        box = physics.add_box(e, (half, half, half), tuple(at), kind="dynamic", mass=kg)
        physics.set_velocity(e, box, tuple(-speed * o.facing))
    out = {n: dict(knocked=False, landed=False) for n, *_r in THROWN}
    for _ in range(round(WATCH / DT)):
        e.frame(DT)
        for o, (name, *_r) in zip(ones, THROWN, strict=True):
            out[name]["knocked"] |= not motion.acting(o.m)
            out[name]["landed"] |= motion.landed(o.m)
    for o, (name, *_r) in zip(ones, THROWN, strict=True):
        q = w.bf[int(o.m.ragdoll.bodies[0]), L.B_QUAT:L.B_QUAT + 4]
        up = qrot(q, human.BONE_UP_LOCAL[0])
        out[name].update(mode=motion.mode(o.m), acting=motion.acting(o.m),
                         lean=math.acos(max(-1.0, min(1.0, float(up[1])))))
    e.close()
    return out


# a table before the log: half extents (across, up, along) m and its middle ahead of the seat's
TABLE = (0.6, 0.375, 0.35)
TABLE_AHEAD = 0.75          # m: its near face 0.25 m past the log's front (the knees under it)
TABLE_LEVELS = (350.0, 450.0, 550.0, 700.0, 900.0)
TABLE_WAYS = {"from behind": 1.0, "from in front": -1.0}   # along the way it sits facing (+z)
TABLE_WATCH = 8.0           # s after the blow


def run_table(path: str) -> list[dict]:
    """Sitters on a 0.45 m log with a table before them (``TABLE``), struck at the chest from
    behind (into the table) and from in front (over the log) at ``TABLE_LEVELS``. Returns a row
    a trial: (N·s, way, knocked, mode, seated, falling, landed, getting_up, pelvis y m, on its
    seat: the hips' middle over the log, at most 0.3 m over its top) ``TABLE_WATCH`` s on."""
    from ae3d.motion._act import hips_point
    from ae3d.motion._get_up import _bodies
    e = engine.Engine()
    physics.set_ankles(e, True)
    physics.ground(e)
    trials = [(J, way) for J in TABLE_LEVELS for way in TABLE_WAYS]
    ones = []
    for i, _t in enumerate(trials):
        o = SI.One(e, f"t{i}", path, (SPACING * (i % 10), 0.0, SPACING * (i // 10)), SEAT, 0.0,
                   motion.POWERED, False)
        motion.set_get_up(o.m, 1.0)
        c = o.seat.middle
        physics.add_box(e, TABLE, (c[0], TABLE[1], c[2] + TABLE_AHEAD), kind="static")
        ones.append(o)
    e.run(seconds=SETTLE)
    for o in ones:
        assert motion.sit(o.m, o.seat.point, o.facing)
    e.run(seconds=SETUP)
    w = e.physics
    knocked = []
    for o, (J, way) in zip(ones, trials, strict=True):
        b = human.BONE_SPINE_03
        p = w.bf[int(o.m.ragdoll.bodies[b]), L.B_POS:L.B_POS + 3].copy()
        motion.hit(o.m, b, p, (0.0, 0.0, J * TABLE_WAYS[way]))
        knocked.append(motion.mode(o.m) == motion.POWERED)
    e.run(seconds=TABLE_WATCH)
    rows = []
    for o, (J, way), k in zip(ones, trials, knocked, strict=True):
        m = o.m
        hp = hips_point(m.ragdoll, *_bodies(m))
        d = hp - o.seat.middle
        on_seat = (abs(float(d @ o.seat.across)) < 0.6 and abs(float(d @ o.seat.fwd)) < 0.2
                   and 0.0 < hp[1] - SEAT < 0.3)
        rows.append(dict(J=J, way=way, knocked=k, mode=motion.mode(m), seated=motion.seated(m),
                         falling=motion.falling(m), landed=motion.landed(m),
                         getting_up=motion.getting_up(m),
                         pelvis=float(w.bf[int(m.ragdoll.bodies[0]), L.B_POS + 1]),
                         on_seat=bool(on_seat)))
    e.close()
    return rows


__all__ = ["run", "run_thrown", "run_table", "trials", "KINDS", "BONES", "LEVELS", "WAYS",
           "THROWN", "TABLE", "TABLE_LEVELS", "TABLE_WAYS"]
