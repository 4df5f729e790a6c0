"""Sitting measured (tests/test_sit.py, spec #825 "tests/test_sit.ae"): figures stood by
``motion.sit_spot`` before a seat (a squared log, a static box; or a round one, a static capsule
lying across the way the figure faces, ``physics.add_log``), sat on it (``motion.sit``) facing
away from it, held sat, then stood up (``motion.stand_up``), each watched every step for what the
spec's table reads.

Per figure (``One.row()``):

- ``over``: sat (over ``HOLD`` s from the last key reached), the least gap between the pelvis's
  and thighs' capsules and the seat (m; negative: into it), the most over the hold: "under 1 mm
  over it"; ``into`` the deepest any goes into it over the hold (m; 0 when none): "no more than
  1 mm into it";
- ``hips``: the hips' middle from the seat's point over the ground, sat (m);
- ``slide_down`` / ``slide_up``: the farthest either foot's toe (its capsule's front end) moves
  over the ground from where it was as ``sit`` / ``stand_up`` was called (a figure turning on the
  spot first: as it is round, its feet turning with it till then), until seated / until the
  hand-over (m);
- ``turn``: the worst turn of any body in one step, sitting and standing (deg), the bodies'
  (``turn``) and the drawing's (``turn_drawn``);
- ``lean``: a second after the hand-over, the pelvis body's up against the world's (rad), and
  ``mode_after`` its mode then; ``ended`` the mode it was handed to;
- ``limits``: the most any joint is past its limits while sat (rad), the bodies'.

Units: m, s, deg (turns), rad (leans).
"""

from __future__ import annotations

import math
import os
import sys

import numpy as np

from ae3d import engine, human, motion, physics
from ae3d.motion import _layout as ML
from ae3d.physics import _layout as L

sys.path.insert(0, os.path.join(os.path.dirname(__file__), ".."))
from motion.measure import angles, motion_digest  # noqa: E402
from motion.measure import qrot as _rot  # noqa: E402

DT = 1.0 / 60.0
SETTLE = 0.5                  # s standing before sitting down
HOLD = 1.0                    # s sat before standing up
AFTER = 1.0                   # s watched after the hand-over
SPACING = 4.0                 # m between the figures' places
RIGS = {"box man": "boxman.glb", "Mixamo man": "mixamo_man.glb"}
SEAT_HALF = (0.6, 0.15)       # m: a squared log's half length (across the figure) and depth
HIGH = 0.55                   # m: a seat this high or more is sat on near its front (``ahead``)


def ahead_for(height: float, round_: bool) -> float:
    """m: where the hips' middle rests from a seat's middle toward its front: on a high seat,
    3 cm behind a squared log's front edge, 5 cm ahead of a round one's top (radius half its
    height); at its middle on a lower one."""
    if height < HIGH:
        return 0.0
    return 0.05 if round_ else SEAT_HALF[1] - 0.03


def segment_points(bf, s, n: int = 401) -> tuple[np.ndarray, float]:
    """((n, 3) m, m): points along body ``s``'s capsule segment, and its radius."""
    p = bf[s, L.B_POS:L.B_POS + 3]
    ax = _rot(bf[s, L.B_QUAT:L.B_QUAT + 4], (0.0, bf[s, L.B_DIMS + 1], 0.0))
    t = np.linspace(-1.0, 1.0, n)[:, None]
    return p + t * ax, float(bf[s, L.B_DIMS])


class Seat:
    """A seat: a squared log (a static box, ``round`` False) or a round one (a static capsule
    lying across), its top ``height`` m up, its middle at ``middle`` (on the ground), the figure
    to sit facing ``yaw`` (rad) away from it, the hips' middle to rest ``ahead`` m toward its front
    from its middle (on a high seat, near its front: the thighs slope down from the hips, and the
    box man's, a 0.51 m knee on a 0.6 m seat, would rest on the front edge of a deeper one)."""

    def __init__(self, e, middle, height: float, yaw: float, round_: bool, floor: float,
                 ahead: float = 0.0) -> None:
        self.round = round_
        self.middle = np.asarray(middle, float)
        self.yaw = yaw
        self.fwd = np.array([math.sin(yaw), 0.0, math.cos(yaw)])
        self.across = np.array([math.cos(yaw), 0.0, -math.sin(yaw)])
        self.top = floor + height
        if round_:
            self.radius = 0.5 * height
            self.centre = self.middle + np.array([0.0, floor + self.radius, 0.0])
            # add_log's axis is along world x turned by heading about +y: across the figure
            physics.add_log(e, self.radius, SEAT_HALF[0], tuple(self.centre), heading=yaw,
                            kind="static")
        else:
            self.half = np.array([SEAT_HALF[0], 0.5 * height, SEAT_HALF[1]])
            self.centre = self.middle + np.array([0.0, floor + 0.5 * height, 0.0])
            q = (0.0, math.sin(0.5 * yaw), 0.0, math.cos(0.5 * yaw))
            physics.add_box(e, tuple(self.half), tuple(self.centre), q, kind="static")
        # where the hips' middle comes to rest: ``ahead`` m along the facing from its middle
        self.ahead = ahead
        self.point = self.middle + np.array([0.0, self.top, 0.0]) + ahead * self.fwd

    def gap(self, pts: np.ndarray, r: float) -> float:
        """m: the least gap between a capsule (its segment's points, radius r) and the seat
        (negative: into it)."""
        d = pts - self.centre
        u = d @ self.across
        v = d[:, 1]
        w = d @ self.fwd
        if self.round:
            uc = np.clip(u, -SEAT_HALF[0], SEAT_HALF[0])
            dist = np.sqrt((u - uc) ** 2 + v ** 2 + w ** 2) - self.radius
        else:
            q = np.abs(np.stack([u, v, w], axis=1)) - self.half[[0, 1, 2]]
            outside = np.linalg.norm(np.maximum(q, 0.0), axis=1)
            inside = np.minimum(q.max(axis=1), 0.0)
            dist = outside + inside
        return float((dist - r).min())


def toes(e, m) -> np.ndarray:
    """(2, 3) m: figure ``m``'s toes, each foot's capsule's end farther from its ankle joint (the
    calf's end farther from its knee for a figure without feet)."""
    w = e.physics
    r = m.ragdoll
    feet = (human.BONE_FOOT_L, human.BONE_FOOT_R) if r.bones > human.BONE_FOOT_R else (
        human.BONE_CALF_L, human.BONE_CALF_R)
    out = []
    for b in feet:
        s = int(r.bodies[b])
        half = np.array([0.0, w.bf[s, L.B_DIMS + 1], 0.0])
        pb = w.jf[int(r.joints[b]), L.J_PB:L.J_PB + 3]
        end = half if np.linalg.norm(half - pb) >= np.linalg.norm(-half - pb) else -half
        out.append(w.bf[s, L.B_POS:L.B_POS + 3] + _rot(w.bf[s, L.B_QUAT:L.B_QUAT + 4], end))
    return np.array(out)


class One:
    """One figure's run and measures."""

    def __init__(self, e, name: str, path: str, middle, height: float, facing: float, mode: int,
                 round_: bool, floor: float = 0.0, turn: float = 0.0) -> None:
        import blows
        self.e = e
        self.name = name
        self.seat = Seat(e, middle, height, facing, round_, floor, ahead_for(height, round_))
        self.facing = np.array([math.sin(facing), 0.0, math.cos(facing)])
        # stood at sit_spot's point, turned ``turn`` rad from the way it will sit
        spot, sole = _spot(path, facing + turn, self.seat, floor, facing)
        at = np.array([spot[0] - sole[0], floor, spot[2] - sole[2]])
        self.m = m = blows.boxman(e, name, tuple(at), mode, yaw=facing + turn, path=path)
        if m.rig is not None:
            motion.set_get_up_clips(m, None, None)
        self.resume = mode
        self.start_step = self.seated_step = self.up_call = self.up_step = -1
        self.turn = self.turn_drawn = 0.0
        self.over = -1.0
        self.into = 0.0
        self.hips = 0.0
        self.limits = 0.0
        self.slide_down = self.slide_up = 0.0
        self.toes0 = None
        self.lean = math.nan
        self.mode_after = None
        self.ended = None
        self.prev = None
        self.prev_drawn = None

    def toes(self) -> np.ndarray:
        """(2, 3) m: each foot's toe (``toes``)."""
        return toes(self.e, self.m)

    def step(self, k: int) -> None:
        m = self.m
        s = self.e.services["motion"]
        f = m.slot
        mode = motion.mode(m)
        w = self.e.physics
        q = w.bf[m.ragdoll.bodies, L.B_QUAT:L.B_QUAT + 4].copy()
        _, dq = motion.drawn_pose(m)
        moving = self.start_step >= 0 and (self.up_step < 0 or k <= self.up_step)
        if moving and self.prev is not None:
            self.turn = max(self.turn, float(angles(self.prev, q).max()))
            self.turn_drawn = max(self.turn_drawn, float(angles(self.prev_drawn, dq).max()))
        from ae3d.motion import _act
        if self.toes0 is not None and self.up_call < 0 and "sit" not in _act._KEPT.get(m, {}):
            self.toes0 = self.toes()      # turning on the spot first: its feet turn with it
        if self.toes0 is not None and (self.seated_step < 0 or self.up_call >= 0) and (
                self.up_step < 0):
            d = self.toes() - self.toes0
            slide = float(np.hypot(d[:, 0], d[:, 2]).max())
            if self.up_call < 0:
                self.slide_down = max(self.slide_down, slide)
            else:
                self.slide_up = max(self.slide_up, slide)
        if (self.seated_step < 0 and self.start_step >= 0 and motion.seated(m)):
            self.seated_step = k
        if self.seated_step >= 0 and self.up_call < 0 and k - self.seated_step <= round(HOLD / DT):
            gaps = [self.seat.gap(*segment_points(w.bf, int(m.ragdoll.bodies[b])))
                    for b in (human.BONE_PELVIS, human.BONE_THIGH_L, human.BONE_THIGH_R)]
            g = min(gaps)
            self.over = max(self.over, g)
            self.into = max(self.into, -g)
            p = w.bf[m.ragdoll.bodies, L.B_POS:L.B_POS + 3]
            from ae3d.motion._act import hips_point
            d = hips_point(m.ragdoll, p, q) - self.seat.point
            self.hips = max(self.hips, float(np.hypot(d[0], d[2])))
            lim = physics.ragdoll_limit_errors(m.ragdoll)
            self.limits = max(self.limits, float(lim[:, :2].max()))
        if self.up_call >= 0 and self.up_step < 0 and mode != motion.ACTING:
            self.up_step = k
            self.ended = mode
        if self.up_step >= 0 and k - self.up_step == round(AFTER / DT):
            up = _rot(w.bf[int(m.ragdoll.bodies[0]), L.B_QUAT:L.B_QUAT + 4],
                      human.BONE_UP_LOCAL[0])
            self.lean = math.acos(max(-1.0, min(1.0, float(up[1]))))
            self.mode_after = mode
        self.prev = q
        self.prev_drawn = dq
        del s, f

    def row(self) -> dict:
        return dict(name=self.name, over=self.over, into=self.into, hips=self.hips,
                    slide_down=self.slide_down, slide_up=self.slide_up, turn=self.turn,
                    turn_drawn=self.turn_drawn, lean=self.lean, mode_after=self.mode_after,
                    ended=self.ended, resume=self.resume, limits=self.limits,
                    sat=self.seated_step >= 0, up=self.up_step >= 0,
                    seated_at=(self.seated_step - self.start_step) * DT
                    if self.seated_step >= 0 else math.nan,
                    up_s=(self.up_step - self.up_call) * DT if self.up_step >= 0 else math.nan)


def _spot(path: str, yaw: float, seat: Seat, floor: float,
          facing: float | None = None) -> tuple[np.ndarray, np.ndarray]:
    """(sit_spot's point to sit facing ``facing`` (rad; ``yaw`` when None), the soles' middle
    against the root (3,) m of rig ``path`` standing facing ``yaw``): asked of a twin in an
    engine of its own, with the same seat (and floor), the twin standing far off (sit_spot says
    where to stand, wherever the figure is)."""
    import blows

    from ae3d.motion import _keyed as K
    e = engine.Engine()
    physics.set_ankles(e, True)
    physics.ground(e)
    if floor > 0.0:
        physics.add_box(e, (3.0, 0.5 * floor, 3.0), (seat.middle[0], 0.5 * floor, seat.middle[2]),
                        kind="static")
    twin = Seat(e, seat.middle, seat.top - floor, seat.yaw, seat.round, floor, seat.ahead)
    m = blows.boxman(e, "twin", (50.0, 0.0, 0.0), motion.ANIMATED, yaw=yaw, path=path)
    way = yaw if facing is None else facing
    f = (math.sin(way), 0.0, math.cos(way))
    spot = motion.sit_spot(m, twin.point, f)
    p, q = motion.drawn_pose(m)
    sole = K.sole_point(m.ragdoll, p, q) - np.array([50.0, 0.0, 0.0])
    sole[1] = 0.0
    e.close()
    return spot, sole


digest = motion_digest


def run(path: str, seats, mode: int = motion.POWERED, floor: float = 0.0,
        turn: float = 0.0) -> dict:
    """Figures of rig ``path``, one a seat in ``seats`` ((height m, facing deg about +Y from +Z,
    round) each), each before its own seat at a place of its own (on a static floor ``floor`` m
    up where that is not 0), in ``mode``, stood turned ``turn`` deg from the way it will sit;
    stood SETTLE s, sat, held HOLD s sat, stood up, watched AFTER s more. Returns
    dict(rows=[One.row()], digest)."""
    e = engine.Engine()
    physics.set_ankles(e, True)
    physics.ground(e)
    if floor > 0.0:
        physics.add_box(e, (SPACING * len(seats), 0.5 * floor, 3.0),
                        (0.5 * SPACING * (len(seats) - 1), 0.5 * floor, 0.0), kind="static")
    ones = []
    for i, (height, facing, round_) in enumerate(seats):
        middle = (SPACING * i, 0.0, 0.29 * i)
        name = f"{'round' if round_ else 'squared'} {height:.2f} m, {facing:.0f}°"
        ones.append(One(e, name, path, middle, height, math.radians(facing), mode, round_, floor,
                        math.radians(turn)))
    k = 0
    for _ in range(round(SETTLE / DT)):
        e.frame(DT)
        k += 1
    for o in ones:
        assert motion.sit(o.m, o.seat.point, o.facing), o.name
        o.start_step = k
        o.toes0 = o.toes()
    end = k + round((3 * 0.7 + 1.0 + HOLD + 3 * 0.7 + 1.0 + AFTER + 0.5) / DT)
    while k < end:
        e.frame(DT)
        k += 1
        for o in ones:
            o.step(k)
            if o.seated_step >= 0 and o.up_call < 0 and k - o.seated_step >= round(HOLD / DT):
                assert motion.stand_up(o.m), o.name
                o.up_call = k
                o.toes0 = o.toes()
        if all(o.up_step >= 0 and k - o.up_step > round(AFTER / DT) for o in ones):
            break
    out = dict(rows=[o.row() for o in ones], digest=digest(e))
    e.close()
    return out


__all__ = ["run", "One", "Seat", "angles", "digest", "RIGS"]
del ML
