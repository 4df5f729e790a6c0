"""Lying down measured (tests/test_lie.py, spec #825 "tests/test_lie.ae"): figures stood by
``motion.lie_spot`` beside a bedroll (a thin static box on the ground), laid down on it
(``motion.lie_down``) with their heads along it, held lain, then got up (``motion.get_up``), each
watched every step for what the spec's table reads.

Per figure (``One.row()``):

- ``past``: the farthest any capsule of the bodies reaches past the bedroll's outline over the
  ground while lain (m; 0 within it), and ``under`` the deepest any goes under its top (m;
  negative: above it), over the hold (``HOLD`` s from the lying key's end);
- ``hips``: the hips' middle (between the hip joints) from the bedroll's middle over the
  ground, lain (m);
- ``head_off``: the way from the hips to the head over the ground, lain, against ``head`` (deg);
- ``lain_at``: s from ``lie_down`` to the lying key reached;
- ``up_s``: s from ``get_up`` to the hand-over (the mode it lay down from back);
- ``turn``: the worst turn of any body in one step, lying down and getting up (deg), the
  bodies' (``turn``) and the drawing's (``turn_drawn``);
- ``lean``: a second after the hand-over, the pelvis body's up against the world's (rad), and
  ``lean_most`` the most over that second; ``mode_after`` its mode then;
- ``limits``: the most any joint is past its limits while lain (rad), the bodies';
- ``ended``/``resume``: the mode it ended in and the one it lay down from.

Units: m, s, deg (turns), rad (leans).
"""

from __future__ import annotations

import math
import os
import sys

import numpy as np

from ae3d import engine, motion, physics
from ae3d.motion import _layout as ML
from ae3d.physics import _layout as L

sys.path.insert(0, os.path.join(os.path.dirname(__file__), ".."))
from motion.measure import angles, motion_digest  # noqa: E402
from motion.measure import qrot as _rot  # noqa: E402

DT = 1.0 / 60.0
# m: the bedroll's half extents per rig: 0.8 m wide, 5 cm thick, and 2 m long for the box man
# (1.80 m tall: it lies 1.85 m from its head to its toes, 0.98 m of it from its hips), 2.2 m for
# the Mixamo man (1.95 m tall: 2.0 m, 1.07 from its hips; on 2 m its toes were 6.6 cm past the end)
BEDROLLS = {"boxman.glb": (0.4, 0.025, 1.0), "mixamo_man.glb": (0.4, 0.025, 1.1)}
SETTLE = 0.5                  # s standing before lying down
HOLD = 1.0                    # s lain before getting up
AFTER = 1.0                   # s watched after the hand-over
SPACING = 5.0                 # m between the figures' places
RIGS = {"box man": "boxman.glb", "Mixamo man": "mixamo_man.glb"}


def capsule_ends(bf, bodies) -> tuple[np.ndarray, np.ndarray, np.ndarray]:
    """((k, 3), (k, 3) m, (k,) m): each capsule's two segment ends and its radius."""
    a = np.zeros((len(bodies), 3))
    b = np.zeros((len(bodies), 3))
    for i, s in enumerate(bodies):
        p = bf[s, L.B_POS:L.B_POS + 3]
        ax = _rot(bf[s, L.B_QUAT:L.B_QUAT + 4], (0.0, bf[s, L.B_DIMS + 1], 0.0))
        a[i], b[i] = p - ax, p + ax
    return a, b, bf[bodies, L.B_DIMS].copy()


class Bedroll:
    """A bedroll: a static box on the ground, its long side along ``head`` (unit, over the
    ground) at ``middle`` (on the ground)."""

    def __init__(self, e, middle, head, half=BEDROLLS["boxman.glb"]) -> None:
        self.half = tuple(half)
        self.middle = np.asarray(middle, float)
        h = np.array([head[0], 0.0, head[2]], float)
        self.along = h / np.linalg.norm(h)
        self.across = np.array([self.along[2], 0.0, -self.along[0]])
        yaw = math.atan2(self.along[0], self.along[2])
        q = (0.0, math.sin(0.5 * yaw), 0.0, math.cos(0.5 * yaw))
        self.top = float(self.middle[1]) + 2.0 * self.half[1]
        centre = self.middle + np.array([0.0, self.half[1], 0.0])
        physics.add_box(e, self.half, tuple(centre), q, kind="static")

    def past(self, a, b, r) -> float:
        """m: the farthest any capsule reaches past the outline over the ground (0 within)."""
        worst = 0.0
        for p in (a, b):
            d = p - self.middle
            u = np.abs(d @ self.across) + r - self.half[0]
            v = np.abs(d @ self.along) + r - self.half[2]
            worst = max(worst, float(u.max()), float(v.max()))
        return worst

    def under(self, a, b, r) -> float:
        """m: the deepest any capsule goes under the top (negative: above it)."""
        low = np.minimum(a[:, 1], b[:, 1]) - r
        return float(self.top - low.min())


class One:
    """One figure's run and measures."""

    def __init__(self, e, name: str, path: str, middle, head, mode: int, facing: float,
                 clips: bool = False) -> None:
        import blows
        self.e = e
        self.name = name
        self.head = np.asarray(head, float)
        self.bed = Bedroll(e, middle, head, BEDROLLS[path])
        yaw = facing
        # where to stand (motion.lie_spot): asked of a twin in an engine of its own, with the
        # twin's soles' middle against its root, so the figure is made standing there
        spot, sole = _spot(path, yaw, self.bed.middle, self.head)
        at = np.array([spot[0] - sole[0], self.bed.top, spot[2] - sole[2]])
        self.spot = spot
        self.m = m = blows.boxman(e, name, tuple(at), mode, yaw=yaw, path=path)
        if not clips and m.rig is not None:
            motion.set_get_up_clips(m, None, None)
        self.resume = mode
        self.start_step = -1
        self.lain_step = -1
        self.up_call = -1
        self.up_step = -1
        self.turn = 0.0
        self.turn_drawn = 0.0
        self.past = 0.0
        self.under = -1.0
        self.hips = 0.0
        self.head_off = 0.0
        self.limits = 0.0
        self.lean = math.nan
        self.lean_most = 0.0
        self.mode_after = None
        self.ended = None
        self.prev = None
        self.prev_drawn = None

    def bodies(self):
        w = self.e.physics
        b = self.m.ragdoll.bodies
        return w.bf[b, L.B_POS:L.B_POS + 3].copy(), w.bf[b, L.B_QUAT:L.B_QUAT + 4].copy()

    def step(self, k: int) -> None:
        m = self.m
        s = self.e.services["motion"]
        f = m.slot
        mode = motion.mode(m)
        p, q = self.bodies()
        dp, dq = motion.drawn_pose(m)
        moving = (self.start_step >= 0 and (self.up_step < 0 or k <= self.up_step))
        if moving and self.prev is not None:
            self.turn = max(self.turn, float(angles(self.prev, q).max()))
            self.turn_drawn = max(self.turn_drawn, float(angles(self.prev_drawn, dq).max()))
        if (mode == motion.ACTING and self.lain_step < 0
                and s.ff[f, ML.F_GU_T] >= 3.0 * s.prm[ML.S_GU_STAGE] - 1e-9):
            self.lain_step = k
        if self.lain_step >= 0 and self.up_call < 0 and k - self.lain_step <= round(HOLD / DT):
            a, b, r = capsule_ends(self.e.physics.bf, m.ragdoll.bodies)
            self.past = max(self.past, self.bed.past(a, b, r))
            self.under = max(self.under, self.bed.under(a, b, r))
            from ae3d import human
            from ae3d.motion._act import hips_point
            hp = hips_point(m.ragdoll, p, q)
            d = hp - self.bed.middle
            self.hips = max(self.hips, float(np.hypot(d[0], d[2])))
            # its head toward ``head``: the hips to the head over the ground, against it
            v = p[human.BONE_NECK] - hp
            a = math.atan2(v[0], v[2]) - math.atan2(self.head[0], self.head[2])
            self.head_off = max(self.head_off, abs(math.degrees(math.atan2(math.sin(a),
                                                                           math.cos(a)))))
            lim = physics.ragdoll_limit_errors(m.ragdoll)
            self.limits = max(self.limits, float(lim[:, :2].max()))
        if self.up_call >= 0 and self.up_step < 0 and mode not in (motion.GETTING_UP,
                                                                   motion.ACTING):
            self.up_step = k
            self.ended = mode
        if self.up_step >= 0 and 0 < k - self.up_step <= round(AFTER / DT):
            up = _rot(q[0], _up_local())
            lean = math.acos(max(-1.0, min(1.0, float(up[1]))))
            self.lean_most = max(self.lean_most, lean)
            if k - self.up_step == round(AFTER / DT):
                self.lean = lean
                self.mode_after = mode
        self.prev = q
        self.prev_drawn = dq

    def row(self) -> dict:
        return dict(name=self.name, past=self.past, under=self.under, hips=self.hips,
                    head_off=self.head_off,
                    lain_at=(self.lain_step - self.start_step) * DT if self.lain_step >= 0
                    else math.nan,
                    up_s=(self.up_step - self.up_call) * DT if self.up_step >= 0 else math.nan,
                    turn=self.turn, turn_drawn=self.turn_drawn, lean=self.lean,
                    lean_most=self.lean_most, mode_after=self.mode_after, ended=self.ended,
                    resume=self.resume, limits=self.limits, lain=self.lain_step >= 0,
                    up=self.up_step >= 0)


def _spot(path: str, yaw: float, middle, head) -> tuple[np.ndarray, np.ndarray]:
    """(lie_spot's point, the soles' middle against the figure's root (3,) m) for rig ``path``
    placed at the origin facing ``yaw``: asked of a twin in an engine of its own (the spot
    against the middle is the rig's and the way's, wherever it stands)."""
    import blows

    from ae3d.motion import _keyed as K
    e = engine.Engine()
    physics.set_ankles(e, True)
    physics.ground(e)
    m = blows.boxman(e, "twin", (0.0, 0.0, 0.0), motion.ANIMATED, yaw=yaw, path=path)
    spot = motion.lie_spot(m, (0.0, 0.0, 0.0), head) + np.asarray(middle, float)
    p, q = motion.drawn_pose(m)
    sole = K.sole_point(m.ragdoll, p, q)
    e.close()
    return spot, sole


def _up_local():
    from ae3d import human
    return human.BONE_UP_LOCAL[0]


digest = motion_digest


def run(path: str, heads, mode: int = motion.POWERED, turn: float = 0.0, floor: float = 0.0,
        clips: bool = False) -> dict:
    """Figures of rig ``path``, one a head direction in ``heads`` (deg about +Y from +Z: the way
    from the hips to the head), each beside its own bedroll (its middle at a place of its own,
    on a static floor ``floor`` m up where that is not 0), in ``mode``, facing away from the
    head turned ``turn`` deg more; stood SETTLE s, laid down, held HOLD s lain, got up, watched
    AFTER s more. Returns dict(rows=[One.row()], digest)."""
    e = engine.Engine()
    physics.set_ankles(e, True)
    physics.ground(e)
    ones = []
    for i, d in enumerate(heads):
        a = math.radians(d)
        middle = (SPACING * i, floor, 0.37 * i)
        if floor > 0.0:
            physics.add_box(e, (1.5, 0.5 * floor, 1.5), (middle[0], 0.5 * floor, middle[2]),
                            kind="static")
        facing = math.atan2(-math.sin(a), -math.cos(a)) + math.radians(turn)
        ones.append(One(e, f"{d:.0f}°", path, middle, (math.sin(a), 0.0, math.cos(a)), mode,
                        facing, clips))
    k = 0
    for _ in range(round(SETTLE / DT)):
        e.frame(DT)
        k += 1
    for o in ones:
        assert motion.lie_down(o.m, o.head), o.name
        o.start_step = k
    end = k + round((3 * 0.7 + 1.5 + HOLD + 4.0 + AFTER + 0.5) / DT)
    while k < end:
        e.frame(DT)
        k += 1
        for o in ones:
            o.step(k)
            if o.lain_step >= 0 and o.up_call < 0 and k - o.lain_step >= round(HOLD / DT):
                assert motion.get_up(o.m), o.name
                o.up_call = k
        if all(o.up_step >= 0 and k - o.up_step > round(AFTER / DT) for o in ones):
            break
    out = dict(rows=[o.row() for o in ones], digest=digest(e))
    e.close()
    return out


__all__ = ["run", "One", "Bedroll", "angles", "digest", "RIGS", "BEDROLLS"]
