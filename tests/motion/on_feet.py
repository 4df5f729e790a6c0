"""The way up on its feet measured (tests/test_get_up_on_feet.py): figures fallen and come to rest
on their feet, not down (bent over a table they were knocked onto, stood jammed between a log and
a table), straightened where they stand (``_get_up._start_on_feet``), watched every step.

Two kinds of trial, all in one engine per rig, far apart (``SPACING``):

- ``sit``: a sitter on a 0.45 m log (``motion/sit.py`` One, ``struck_acting.TABLE`` before it,
  its near face ``gap`` m past the log's front) struck at the chest from behind (into the table),
  the blow turned ``turn`` deg about +Y off straight ahead, ``J`` N·s;
- ``stand`` / ``stand high``: a POWERED figure standing facing a table (``stand high``: its top
  ``HIGH_TABLE`` m up), its toes ``gap`` m from its near face, struck at the chest from behind
  (``turn``, ``J`` as above): it falls onto the table, or past it, or stands.

Every figure has ``set_get_up(GET_UP_AFTER)``: it gets up by itself (the ground's ways, or on its
feet), and a knocked sitter stands by the sit's own rule (``_sit.ON_FEET_AFTER`` s).

Each way up (``Way``): ``on_feet`` (the way on its feet, the service row ``F_GU_WAY``
``WAY_ON_FEET``), the step it began and ended, the mode
it ended in; over the way, the hand-over's step included: ``turn`` the worst turn of any drawn bone
in one step (deg, ``motion.drawn_pose``; ``turn_at`` (steps into the way, bone) where, and
``turn_bodies`` the bodies' worst), ``hips`` the worst move of the drawn hips (the pelvis bone) in
one step (mm); ``hand_turn`` / ``hand_move`` the animation's bodies just after the hand-over
against the way's last (deg, mm); ``depth`` the lowest any capsule goes under the ground
(``depth_at`` where, ``depth0`` as the way began, ``depth_drawn`` the drawn pose's)
(m, positive under); ``slide`` / ``slide_drawn`` the most either ankle (a calf's lower end) moves
over the ground from where it was as the feet began to be kept (the way's second stage on)
(bodies / drawn; mm) until the hand-over, ``toes`` the same of each foot's toe (its capsule's
far end from the ankle joint, bodies); then ``lean`` the most the pelvis body leans from the
animation's pelvis in the second after it (deg) and ``fell`` whether it was falling in that
second.

Per figure at the end (``WATCH`` s after the blow): its mode, falling, getting up, seated, the
pelvis body's lean from the world's up (rad). Units: m, s, deg, mm as named.
"""

from __future__ import annotations

import math
import os
import sys

import numpy as np

from ae3d import engine, human, motion, physics
from ae3d.motion import _get_up as G
from ae3d.motion import _layout as ML
from ae3d.motion._modes import anim_world
from ae3d.physics import _kernels_joints as KJ
from ae3d.physics import _layout as L

sys.path.insert(0, os.path.join(os.path.dirname(__file__), ".."))
import blows as B  # noqa: E402
from motion import sit as SI  # noqa: E402
from motion.getup import angles, ankles, lows  # noqa: E402
from motion.measure import qrot, world_digest  # noqa: E402
from motion.sit import toes  # noqa: E402
from motion.struck_acting import TABLE  # noqa: E402

DT = 1.0 / 60.0
SPACING = 4.0           # m between trials
SETTLE = 0.5            # s stood before sitting (and before the standers' blow)
SETUP = 5.0             # s from sit to the blow
WATCH = 14.0            # s watched after the blow
AFTER = 1.0             # s after a way's hand-over its lean is watched
SEAT = 0.45             # m: the log's top
LOG_FRONT = SI.SEAT_HALF[1]     # m: the log's front from its middle
GET_UP_AFTER = 1.0      # s at rest before it gets up by itself
HIGH_TABLE = 0.95       # m: the top of the table a "stand high" trial stands before


class Way:
    """One way up of one figure, watched."""

    def __init__(self, k: int, on_feet: bool) -> None:
        self.start = k
        self.on_feet = on_feet
        self.end = -1
        self.ended = None
        self.turn = self.hips = self.depth = 0.0
        self.turn_at = (-1, -1)     # (steps into the way, bone) of the worst turn
        self.depth_at = (-1, -1)    # (steps into the way, bone) of the deepest
        self.turn_bodies = 0.0      # deg: the worst turn of any body in one step
        self.depth_drawn = 0.0      # m: the same of the drawn pose (its bones as the capsules)
        self.depth0 = math.nan      # m: the bodies' deepest as the way began
        self.slide = self.slide_drawn = self.toes = 0.0
        self.ank0 = self.ank_drawn0 = self.toes0 = None
        self.hand_turn = self.hand_move = math.nan
        self.lean = 0.0
        self.fell = False
        self.last = None

    def row(self) -> dict:
        return dict(on_feet=self.on_feet, start=self.start, end=self.end, ended=self.ended,
                    turn=self.turn, turn_at=self.turn_at, turn_bodies=self.turn_bodies,
                    hips=self.hips, depth=self.depth, depth_at=self.depth_at,
                    depth_drawn=self.depth_drawn, depth0=self.depth0, slide=self.slide,
                    slide_drawn=self.slide_drawn, toes=self.toes, hand_turn=self.hand_turn,
                    hand_move=self.hand_move, lean=self.lean, fell=self.fell)


def drawn_lows(bf, bodies, p, q) -> np.ndarray:
    """(k,) m: the lowest point of each capsule drawn at ``p``, ``q`` (the bodies' sizes)."""
    x, z = q[:, 0], q[:, 2]
    ay = (1 - 2 * (x * x + z * z)) * bf[bodies, L.B_DIMS + 1]
    return p[:, 1] - np.abs(ay) - bf[bodies, L.B_DIMS]


def _over_ground(a, b) -> float:
    """mm: the most any of points a moved from points b over the ground (x, z)."""
    d = a - b
    return 1000.0 * float(np.hypot(d[:, 0], d[:, 2]).max())


def pelvis_lean(e, m) -> float:
    """rad: the pelvis body's up against the world's."""
    q = e.physics.bf[int(m.ragdoll.bodies[0]), L.B_QUAT:L.B_QUAT + 4]
    up = qrot(q, human.BONE_UP_LOCAL[0])
    return math.acos(max(-1.0, min(1.0, float(up[1]))))


class Figure:
    """One figure's ways up, watched every step (``step`` after ``e.frame``)."""

    def __init__(self, e, m, name: str, kind: str, gap: float, J: float, turn: float) -> None:
        self.e, self.m, self.name = e, m, name
        self.kind, self.gap, self.J, self.turn = kind, gap, J, turn
        self.ways: list[Way] = []
        self.mode = motion.mode(m)
        self.prev = motion.drawn_pose(m)
        self.prev_bq = None
        self.knocked = False

    def _bodies(self):
        r = self.m.ragdoll
        bf = self.e.physics.bf
        return bf[r.bodies, L.B_POS:L.B_POS + 3], bf[r.bodies, L.B_QUAT:L.B_QUAT + 4]

    def step(self, k: int) -> None:
        e, m = self.e, self.m
        s = e.services["motion"]
        f = m.slot
        r = m.ragdoll
        mode = motion.mode(m)
        p, q = motion.drawn_pose(m)
        w = self.ways[-1] if self.ways else None
        if mode == motion.GETTING_UP and self.mode != motion.GETTING_UP:
            on_feet = int(s.fi[f, ML.F_GU_WAY]) == ML.WAY_ON_FEET
            w = Way(k, on_feet)
            w.depth0 = -float(lows(e.physics.bf, r.bodies).min())
            self.ways.append(w)
        if mode == motion.GETTING_UP:
            bp, bq = self._bodies()
            if G.feet_kept(s, f):
                if w.ank0 is None:      # the feet kept from here (the way on its feet: its start)
                    w.ank0, w.ank_drawn0, w.toes0 = ankles(r, bp, bq), ankles(r, p, q), toes(e, m)
                w.slide = max(w.slide, _over_ground(ankles(r, bp, bq), w.ank0))
                w.slide_drawn = max(w.slide_drawn, _over_ground(ankles(r, p, q), w.ank_drawn0))
                w.toes = max(w.toes, _over_ground(toes(e, m), w.toes0))
            lo = lows(e.physics.bf, r.bodies)
            dl = drawn_lows(e.physics.bf, r.bodies, p, q)
            w.depth_drawn = max(w.depth_drawn, -float(dl.min()))
            if -float(lo.min()) > w.depth:
                w.depth, w.depth_at = -float(lo.min()), (k - w.start, int(lo.argmin()))
            nb = r.bones
            w.last = (s.pbf[f, :nb, ML.PB_GU_P:ML.PB_GU_P + 3].copy(),
                      s.pbf[f, :nb, ML.PB_GU_Q:ML.PB_GU_Q + 4].copy())
        if w is not None and (mode == motion.GETTING_UP or self.mode == motion.GETTING_UP):
            bq_now = self._bodies()[1]
            if self.prev_bq is not None:
                w.turn_bodies = max(w.turn_bodies, float(angles(self.prev_bq, bq_now).max()))
            a = angles(self.prev[1], q)
            if float(a.max()) > w.turn:
                w.turn, w.turn_at = float(a.max()), (k - w.start, int(a.argmax()))
            w.hips = max(w.hips, 1000.0 * float(np.linalg.norm(p[0] - self.prev[0][0])))
        if self.mode == motion.GETTING_UP and mode != motion.GETTING_UP:
            w.end = k
            w.ended = mode
            ap, aq = anim_world(m)
            lp, lq = w.last
            w.hand_turn = float(angles(aq, lq).max())
            w.hand_move = 1000.0 * float(np.linalg.norm(ap - lp, axis=1).max())
        if w is not None and w.end >= 0 and k - w.end <= round(AFTER / DT):
            _, aq = anim_world(m)
            pq = e.physics.bf[int(r.bodies[0]), L.B_QUAT:L.B_QUAT + 4]
            up_l = human.BONE_UP_LOCAL[0]
            c = float(np.dot(qrot(pq, up_l), qrot(aq[0], up_l)))
            w.lean = max(w.lean, math.degrees(math.acos(max(-1.0, min(1.0, c)))))
            w.fell |= motion.falling(m)
        self.mode = mode
        self.prev = (p, q)
        self.prev_bq = self._bodies()[1].copy()

    def row(self) -> dict:
        m = self.m
        return dict(name=self.name, kind=self.kind, gap=self.gap, J=self.J, turn=self.turn,
                    knocked=self.knocked, ways=[w.row() for w in self.ways],
                    mode=motion.mode(m), falling=motion.falling(m),
                    getting_up=motion.getting_up(m), seated=motion.seated(m),
                    lean=pelvis_lean(self.e, m))


GAP_AFTER = 0.1     # s after the blow the joints' gaps are held from (the blow's own step aside)


def _table(e, near: np.ndarray, fwd: np.ndarray, top: float = 2.0 * TABLE[1]) -> None:
    """A static ``TABLE`` (its top ``top`` m up) whose near face's middle is at ``near`` (on the
    ground), its depth along ``fwd`` (the trials face +Z)."""
    c = near + TABLE[2] * fwd
    half = (TABLE[0], 0.5 * top, TABLE[2])
    physics.add_box(e, half, (float(c[0]), 0.5 * top, float(c[2])), kind="static")


def _blow(J: float, turn: float) -> np.ndarray:
    """N·s: ``J`` from behind a figure facing +Z, turned ``turn`` deg about +Y."""
    a = math.radians(turn)
    return J * np.array([math.sin(a), 0.0, math.cos(a)])


def run(path: str, trials, seconds: float = WATCH) -> dict:
    """Every trial ((kind, gap m, J N·s, turn deg) each) for rig ``path`` in one engine, watched
    ``seconds`` after the blow. Returns dict(rows=[Figure.row()], digest, gap_late: the widest
    joint gap from ``GAP_AFTER`` s after the blow (m), deepest: the deepest any body goes under
    the ground all along (m), bad: any body's pose or velocity not finite)."""
    e = engine.Engine()
    physics.set_ankles(e, True)
    physics.ground(e)
    figs = []
    fwd = np.array([0.0, 0.0, 1.0])
    for i, (kind, gap, J, turn) in enumerate(trials):
        middle = np.array([SPACING * (i % 10), 0.0, SPACING * (i // 10)])
        name = f"{kind} {gap:.2f} m {J:.0f} N·s {turn:+.0f}°"
        if kind == "sit":
            o = SI.One(e, f"t{i}", path, tuple(middle), SEAT, 0.0, motion.POWERED, False)
            _table(e, middle + (LOG_FRONT + gap) * fwd, fwd)
            fig = Figure(e, o.m, name, kind, gap, J, turn)
            fig.seat = o
        else:
            m = B.boxman(e, f"t{i}", tuple(middle), motion.POWERED, path=path)
            if m.rig is not None:
                motion.set_get_up_clips(m, None, None)
            fig = Figure(e, m, name, kind, gap, J, turn)
            fig.seat = None
        motion.set_get_up(fig.m, GET_UP_AFTER)
        figs.append(fig)
    e.run(seconds=SETTLE)
    stands = [f for f in figs if f.kind != "sit"]
    for f in stands:
        # its toes ``gap`` m from the table's near face
        toe = float(toes(e, f.m)[:, 2].max())
        mid = np.array([f.e.physics.bf[int(f.m.ragdoll.bodies[0]), L.B_POS], 0.0, toe])
        _table(e, mid + f.gap * fwd, fwd, HIGH_TABLE if f.kind == "stand high" else TABLE[1] * 2)
    for f in figs:
        if f.kind == "sit":
            assert motion.sit(f.m, f.seat.seat.point, f.seat.facing), f.name
    k = 0
    for _ in range(round(SETUP / DT)):
        e.frame(DT)
        k += 1
    w = e.physics
    for f in figs:
        b = human.BONE_SPINE_03
        p = w.bf[int(f.m.ragdoll.bodies[b]), L.B_POS:L.B_POS + 3].copy()
        motion.hit(f.m, b, p, _blow(f.J, f.turn))
        f.knocked = motion.mode(f.m) == motion.POWERED
        f.prev = motion.drawn_pose(f.m)
    watch = B.Watch(e, [f.m.ragdoll for f in figs])
    gap_late, deepest, bad = 0.0, 0.0, False
    for i in range(round(seconds / DT)):
        e.frame(DT)
        k += 1
        for f in figs:
            f.step(k)
        out = watch()
        if (i + 1) * DT >= GAP_AFTER - 1e-9:
            gap_late = max(gap_late, float(out[:, KJ.FW_GAP].max()))
        deepest = max(deepest, float(out[:, KJ.FW_DEPTH].max()))
        bad |= bool(out[:, KJ.FW_BAD].any())
    out = dict(rows=[f.row() for f in figs], digest=world_digest(e), gap_late=gap_late,
               deepest=deepest, bad=bad)
    e.close()
    return out




# ------------------------------------------------------------------------------ by the call
DIRECT = ("sit", 0.1, 900.0, 0.0)   # the knocked figure: its trial (kind, gap, J, turn)
ASK_AFTER = 0.5     # s it has been fallen, landed and not down before get_up is called
DIRECT_WATCH = 6.0  # s watched after the blow


def run_direct(path: str = "boxman.glb") -> dict:
    """``motion.get_up`` by the call, two figures in one engine: one standing POWERED, never
    struck (``get_up`` asked of it as the other is asked); one sat at a table 0.1 m before its log
    (``DIRECT``) struck into it, with no ``set_get_up`` seconds (0: never by itself), asked up
    once it has been ``ASK_AFTER`` s fallen, landed and not down (the public reads:
    ``motion.falling``, ``motion.landed``, ``motion.down``). Returns dict(asked: the seconds after
    the blow it was asked (nan: never), answer: get_up's, stood_answer: get_up's of the standing
    figure, ways: its ways' rows (``Way``), mode / lean (rad, the pelvis body from the world's
    up) 1 s after its way ended, stood_mode, digest: ``world_digest`` at the end)."""
    e = engine.Engine()
    physics.set_ankles(e, True)
    physics.ground(e)
    fwd = np.array([0.0, 0.0, 1.0])
    kind, gap, J, turn = DIRECT
    o = SI.One(e, "knocked", path, (0.0, 0.0, 0.0), SEAT, 0.0, motion.POWERED, False)
    _table(e, np.array([0.0, 0.0, LOG_FRONT + gap]), fwd)
    fig = Figure(e, o.m, "knocked", kind, gap, J, turn)
    stood = B.boxman(e, "stood", (SPACING, 0.0, 0.0), motion.POWERED, path=path)
    e.run(seconds=SETTLE)
    assert motion.sit(o.m, o.seat.point, o.facing)
    e.run(seconds=SETUP)
    w = e.physics
    b = human.BONE_SPINE_03
    motion.hit(o.m, b, w.bf[int(o.m.ragdoll.bodies[b]), L.B_POS:L.B_POS + 3].copy(),
               _blow(J, turn))
    fig.prev = motion.drawn_pose(o.m)
    out = dict(asked=math.nan, answer=None, stood_answer=None, mode=None, lean=math.nan)
    rest = 0
    for k in range(round(DIRECT_WATCH / DT)):
        e.frame(DT)
        fig.step(k + 1)
        m = o.m
        on_feet = motion.falling(m) and motion.landed(m) and not motion.down(m)
        rest = rest + 1 if on_feet and not motion.getting_up(m) else 0
        if out["answer"] is None and rest >= round(ASK_AFTER / DT):
            out["asked"] = (k + 1) * DT
            out["answer"] = motion.get_up(m)
            out["stood_answer"] = motion.get_up(stood)
        ways = fig.ways
        if ways and ways[-1].end >= 0 and k + 1 - ways[-1].end == round(AFTER / DT):
            out["mode"] = motion.mode(m)
            out["lean"] = pelvis_lean(e, m)
    out.update(ways=[wy.row() for wy in fig.ways], stood_mode=motion.mode(stood),
               stood_falling=motion.falling(stood), digest=world_digest(e))
    e.close()
    return out


__all__ = ["run", "run_direct", "Figure", "Way", "toes", "pelvis_lean", "WATCH", "DT"]
