"""The ways up measured (tests/test_get_up.py): figures felled, lying, getting up by themselves
(``set_get_up``), watched every step for what the spec's table reads.

Per figure (``Watch.rows()``):

- ``settled``/``started``: the step it had lain still (the pelvis under 2 mm a step for ten
  steps) and the step its way up began, so ``started - settled`` is set_get_up's seconds;
- ``turn``: the worst turn of any drawn bone in one step on the way up (deg), and ``hips`` the
  worst move of the drawn hips (the pelvis bone drawn) in one step (mm), the hand-over's step
  included;
- ``hand_turn``/``hand_move``: the hand-over to the animation: the animation's own bodies just
  after it against the way's last bodies (deg, mm), and the drawing's step across it;
- ``depth``: the lowest any capsule goes under the ground on the way up (m, positive under);
- ``lean``: up, the most the pelvis body leans from the animation's pelvis in the next second
  (deg);
- ``facing``: up, the way its pelvis body faces a second on against where its feet (face up) or
  its head (face down) lay, over the ground (deg);
- ``record``: the scene record's mode while it rises; ``ended``: the mode it ends in;
- ``slide``: the most either ankle (a calf's lower end) of the bodies moves over the ground
  (mm) from where it was as the stages that keep the feet begin (the keyed ways' ``F_GU_SOLES``;
  a clip way's last stage, the crouch to standing) to the hand-over; ``slide_drawn`` the same of
  the way's own (drawn) bodies.

Units: m, s, deg (as the table prints them).
"""

from __future__ import annotations

import math

import numpy as np
from motion.measure import motion_digest

from ae3d import human, motion
from ae3d.motion import _get_up as G
from ae3d.motion import _keyed as K
from ae3d.motion import _layout as ML
from ae3d.motion._modes import anim_world
from ae3d.physics import _layout as L

DT = 1.0 / 60.0


def lows(bf, bodies) -> np.ndarray:
    """(k,) m: the lowest point of each capsule."""
    p = bf[bodies, L.B_POS:L.B_POS + 3]
    q = bf[bodies, L.B_QUAT:L.B_QUAT + 4]
    x, z = q[:, 0], q[:, 2]
    ay = (1 - 2 * (x * x + z * z)) * bf[bodies, L.B_DIMS + 1]
    return p[:, 1] - np.abs(ay) - bf[bodies, L.B_DIMS]


def angles(qa: np.ndarray, qb: np.ndarray) -> np.ndarray:
    """(n,) deg between rotations row by row."""
    d = np.abs(np.einsum("ij,ij->i", qa, qb)).clip(0.0, 1.0)
    return np.degrees(2.0 * np.arccos(d))


def _rot(q, v):
    return K._qr(np.asarray(q, float), np.asarray(v, float))


def _yaw(v) -> float:
    return math.atan2(float(v[0]), float(v[2]))


def ankles(r, p, q) -> np.ndarray:
    """(2, 3) m: each calf's lower end in bodies p, q."""
    dims = K.dims_of(r)
    out = np.zeros((2, 3))
    for i, b in enumerate((human.BONE_CALF_L, human.BONE_CALF_R)):
        ax = _rot(q[b], (0.0, dims[b, 1], 0.0))
        out[i] = p[b] - ax if ax[1] > 0.0 else p[b] + ax
    return out


class One:
    """One figure's measures."""

    def __init__(self, m, name: str) -> None:
        self.m = m
        self.name = name
        self.settled = -1
        self.started = -1
        self.ended_step = -1
        self.way = 0
        self.turn = 0.0
        self.hips = 0.0
        self.hand_turn = math.nan
        self.hand_move = math.nan
        self.hand_draw_turn = math.nan
        self.hand_draw_move = math.nan
        self.depth = 0.0
        self.lean = 0.0
        self.facing = math.nan
        self.ref_yaw = math.nan
        self.record = None
        self.ended = None
        self.prev = None
        self.last_way = None
        self.mode = motion.mode(m)
        self.slide = 0.0
        self.slide_drawn = 0.0
        self.feet0 = None
        self.clip = False

    def row(self) -> dict:
        return dict(name=self.name, settled=self.settled, started=self.started,
                    ended=self.ended, way=self.way, turn=self.turn, hips=self.hips,
                    hand_turn=self.hand_turn, hand_move=self.hand_move,
                    hand_draw_turn=self.hand_draw_turn, hand_draw_move=self.hand_draw_move,
                    depth=self.depth, lean=self.lean, facing=self.facing, record=self.record,
                    slide=self.slide, slide_drawn=self.slide_drawn,
                    clip=self.clip,
                    up=self.ended_step >= 0,
                    wait=(self.started - self.settled) * DT if self.started >= 0 else math.nan)


class Watch:
    """Figures of one engine watched each step (call ``step()`` after each fixed step and its
    pose phase: ``e.frame(DT)``)."""

    def __init__(self, e, figures: dict) -> None:
        self.e = e
        self.w = e.physics
        self.s = e.services["motion"]
        self.ones = [One(m, name) for name, m in figures.items()]
        self.k = 0

    def step(self) -> None:
        self.k += 1
        s = self.s
        bf = self.w.bf
        for o in self.ones:
            m = o.m
            f = m.slot
            mode = motion.mode(m)
            p, q = motion.drawn_pose(m)
            if (o.settled < 0 and o.started < 0 and s.fi[f, ML.F_GU_STILL_N]
                    >= s.prm[ML.S_GU_STILL_STEPS] and motion.down(m)):
                o.settled = self.k
            if mode == motion.GETTING_UP and o.mode != motion.GETTING_UP:
                o.started = self.k
                o.way = int(s.fi[f, ML.F_GU_WAY])
                # where its feet (face up; its knees where those lie farther out) or its head
                # (face down) lay, from its pelvis
                bp = bf[m.ragdoll.bodies, L.B_POS:L.B_POS + 3]
                if o.way == ML.WAY_FACE_UP:
                    bq = bf[m.ragdoll.bodies, L.B_QUAT:L.B_QUAT + 4]
                    toward = K.legs_point(m.ragdoll, bp, bq) - bp[0]
                else:
                    toward = bp[human.BONE_NECK] - bp[0]
                o.ref_yaw = _yaw(toward)
            if mode == motion.GETTING_UP:
                o.clip = bool(s.ff[f, ML.F_GU_CLIP_D] > 0.0)
                if G.feet_kept(s, f):
                    r = m.ragdoll
                    bp = bf[r.bodies, L.B_POS:L.B_POS + 3]
                    bq = bf[r.bodies, L.B_QUAT:L.B_QUAT + 4]
                    nb = r.bones
                    gp = s.pbf[f, :nb, ML.PB_GU_P:ML.PB_GU_P + 3]
                    gq = s.pbf[f, :nb, ML.PB_GU_Q:ML.PB_GU_Q + 4]
                    now = (ankles(r, bp, bq), ankles(r, gp, gq))
                    if o.feet0 is None:
                        o.feet0 = now
                    o.slide = max(o.slide, 1000.0 * float(np.hypot(
                        *(now[0] - o.feet0[0])[:, [0, 2]].T).max()))
                    o.slide_drawn = max(o.slide_drawn, 1000.0 * float(np.hypot(
                        *(now[1] - o.feet0[1])[:, [0, 2]].T).max()))
                o.record = motion.record(m)["mode"]
                o.last_way = (s.pbf[f, :m.ragdoll.bones, ML.PB_GU_P:ML.PB_GU_P + 3].copy(),
                              s.pbf[f, :m.ragdoll.bones, ML.PB_GU_Q:ML.PB_GU_Q + 4].copy())
                o.depth = max(o.depth, -float(lows(bf, m.ragdoll.bodies).min()))
            on_way = mode == motion.GETTING_UP or o.mode == motion.GETTING_UP
            if on_way and o.prev is not None:
                o.turn = max(o.turn, float(angles(o.prev[1], q).max()))
                o.hips = max(o.hips, 1000.0 * float(np.linalg.norm(p[0] - o.prev[0][0])))
            if o.mode == motion.GETTING_UP and mode != motion.GETTING_UP:
                o.ended_step = self.k
                o.ended = MODE.get(mode, str(mode))
                ap, aq = anim_world(m)
                lp, lq = o.last_way
                o.hand_turn = float(angles(aq, lq).max())
                o.hand_move = 1000.0 * float(np.linalg.norm(ap - lp, axis=1).max())
                o.hand_draw_turn = float(angles(o.prev[1], q).max())
                o.hand_draw_move = 1000.0 * float(np.linalg.norm(p - o.prev[0], axis=1).max())
            if o.ended_step >= 0 and self.k - o.ended_step <= round(1.0 / DT):
                ap, aq = anim_world(m)
                pq = bf[m.ragdoll.bodies[0], L.B_QUAT:L.B_QUAT + 4]
                up_l = human.BONE_UP_LOCAL[0]
                cosang = float(np.dot(_rot(pq, up_l), _rot(aq[0], up_l)))
                o.lean = max(o.lean, math.degrees(math.acos(max(-1.0, min(1.0, cosang)))))
                # the way it faces, its pelvis body's, a second on
                fwd = _rot(pq, human.BONE_FORWARD_LOCAL[0])
                d = _yaw(fwd) - o.ref_yaw
                o.facing = abs(math.degrees(math.atan2(math.sin(d), math.cos(d))))
            o.mode = mode
            o.prev = (p, q)

    def rows(self) -> list[dict]:
        return [o.row() for o in self.ones]


MODE = {motion.ANIMATED: "animated", motion.POWERED: "powered", motion.LIMP: "limp",
        motion.GETTING_UP: "getting_up"}


def table(rows: list[dict]) -> str:
    """The spec's table with our numbers (face up, face down, limp)."""
    cols = [r["name"] for r in rows]
    out = ["| | " + " | ".join(cols) + " |", "|---" * (len(cols) + 1) + "|"]

    def line(label, fmt):
        out.append(f"| {label} | " + " | ".join(fmt(r) for r in rows) + " |")

    line("gets up by itself, half a second after it settles",
         lambda r: f"{'yes' if r['up'] else 'no'} ({r['wait']:.2f} s)")
    line("the worst turn of any drawn bone in one step", lambda r: f"{r['turn']:.1f}°")
    line("the worst move of the drawn hips in one step", lambda r: f"{r['hips']:.0f} mm")
    line("the hand-over to the animation",
         lambda r: f"{r['hand_turn']:.2f}°, {r['hand_move']:.1f} mm")
    line("the lowest any body goes on the way up",
         lambda r: f"{1000 * r['depth']:.0f} mm into the ground" if r['depth'] > 0
         else f"{-1000 * r['depth']:.0f} mm above")
    line("up, the most it leans in the next second", lambda r: f"{r['lean']:.1f}°")
    line("facing, against where its feet (head) lay", lambda r: f"{r['facing']:.0f}°")
    line("the ankles' slide over the ground once the feet are kept (bodies, drawn)",
         lambda r: f"{r['slide']:.1f} mm, {r['slide_drawn']:.1f} mm")
    return "\n".join(out)


__all__ = ["Watch", "table", "lows", "angles", "G"]


# ------------------------------------------------------------------------------ the scenes
SETTLE = 0.5          # s standing before the blows
GET_UP_AFTER = 0.5    # s lain still before getting up by itself (the spec's half second)
KNOCK = 400.0         # N·s at the chest, from in front: over backwards
TRIP_SHINS = 80.0     # N·s on each calf, backwards: the shins swept
TRIP_CHEST = 250.0    # N·s at the chest, forwards: pushed on, it lands face down
CRUMPLE = 15.0        # N·s on each calf, forwards: a LIMP figure's knees go, it crumples


def _at(m, bone):
    from ae3d import physics
    return physics.ragdoll_pose(m.ragdoll)[0][bone]


digest = motion_digest


def _ways(m, clips: bool) -> None:
    """The way up figure m takes: its rig's own get-up clips (``clips``), or the keyed ways
    (the spec's; the box man's and the Mixamo man's glTFs have get-up clips of their own)."""
    if not clips and m.rig is not None:
        motion.set_get_up_clips(m, None, None)


def spec_scene(seconds: float = 7.0, path: str = "boxman.glb", clips: bool = False) -> dict:
    """The spec's four figures on one ground: knocked over backwards, tripped (lands face down),
    LIMP and crumpled where it stood (each set_get_up(0.5)), and one standing POWERED set
    ANIMATED (the blend). Returns the rows, the blend's measures and the digest."""
    import os
    import sys
    sys.path.insert(0, os.path.join(os.path.dirname(__file__), ".."))
    import blows

    from ae3d import engine, physics

    e = engine.Engine()
    physics.ground(e)
    back = blows.boxman(e, "back", (0.0, 0.0, 0.0), motion.POWERED, path=path)
    trip = blows.boxman(e, "trip", (4.0, 0.0, 0.0), motion.POWERED, path=path)
    limp = blows.boxman(e, "limp", (8.0, 0.0, 0.0), motion.LIMP, path=path)
    blend = blows.boxman(e, "blend", (12.0, 0.0, 0.0), motion.POWERED, path=path)
    for m in (back, trip, limp):
        motion.set_get_up(m, GET_UP_AFTER)
        _ways(m, clips)
    e.run(seconds=SETTLE)
    chest = human.BONE_SPINE_03
    motion.hit(back, chest, _at(back, chest), (0.0, 0.0, -KNOCK))
    for b in (human.BONE_CALF_L, human.BONE_CALF_R):
        motion.hit(trip, b, _at(trip, b), (0.0, 0.0, -TRIP_SHINS))
        physics.apply_impulse(e, physics.ragdoll_body(limp.ragdoll, b), (0.0, 0.0, CRUMPLE),
                              _at(limp, b))
    motion.hit(trip, chest, _at(trip, chest), (0.0, 0.0, TRIP_CHEST))
    watch = Watch(e, {"face up": back, "face down": trip, "limp": limp})
    s = e.services["motion"]
    blend_steps = 0
    blend_turn = 0.0
    prev = None
    set_at = round(1.0 / DT)
    for k in range(int(round(seconds / DT))):
        if k == set_at:
            prev = motion.drawn_pose(blend)
            motion.set_mode(blend, motion.ANIMATED)
        e.frame(DT)
        watch.step()
        if k >= set_at and (s.fi[blend.slot, ML.F_BLEND] != ML.BLEND_NONE or k == set_at):
            blend_steps += 1
            p, q = motion.drawn_pose(blend)
            blend_turn = max(blend_turn, float(angles(prev[1], q).max()))
            prev = (p, q)
    out = dict(rows=watch.rows(), blend_steps=blend_steps, blend_turn=blend_turn,
               digest=digest(e))
    e.close()
    return out


def sweep(path: str, strengths, directions, seconds: float = 8.0, clips: bool = False
          ) -> list[dict]:
    """POWERED figures of rig ``path`` felled by each strength (N·s) at the chest from each
    direction (deg about +Y, 0 from in front, the blow toward -Z), each set_get_up(0.5).
    Returns a row each (``Watch``'s) with ``felled`` (it was down) added."""
    import os
    import sys
    sys.path.insert(0, os.path.join(os.path.dirname(__file__), ".."))
    import blows

    from ae3d import engine, physics

    e = engine.Engine()
    physics.ground(e)
    figs = {}
    blows_ = []
    k = 0
    for j in strengths:
        for d in directions:
            m = blows.boxman(e, f"{j:.0f}@{d:.0f}", (6.0 * k, 0.0, 0.0), motion.POWERED,
                             path=path)
            motion.set_get_up(m, GET_UP_AFTER)
            _ways(m, clips)
            a = math.radians(d)
            figs[f"{j:.0f} N·s from {d:.0f}°"] = m
            blows_.append((m, j * np.array([-math.sin(a), 0.0, -math.cos(a)])))
            k += 1
    e.run(seconds=SETTLE)
    chest = human.BONE_SPINE_03
    for m, imp in blows_:
        motion.hit(m, chest, _at(m, chest), imp)
    watch = Watch(e, figs)
    felled = {name: False for name in figs}
    for _ in range(int(round(seconds / DT))):
        e.frame(DT)
        watch.step()
        for name, m in figs.items():
            if not felled[name] and motion.mode(m) != motion.GETTING_UP and motion.down(m):
                felled[name] = True
    rows = watch.rows()
    for r in rows:
        r["felled"] = felled[r["name"]]
    e.close()
    return rows


SLOPE = 10.0          # deg: the slope a figure falls back onto
WALL_BEHIND = 0.3     # m behind the figure's heels: the wall it slumps back against


def beyond_scene(seconds: float = 8.0, clips: bool = False) -> dict:
    """Beyond the spec's four: a figure knocked back onto a 10° slope (rising behind it), one
    LIMP with a wall just behind its heels, its knees pushed (it slumps back against the wall,
    sitting on its folded legs, its back and head on the wall), one knocked onto its side
    (400 N·s from its right), each set_get_up(0.5). (A POWERED figure knocked back toward a
    wall is held up by it, the spec's pin: it never lies down against it.) Returns the rows
    and, for the slope, the deepest any body went into the slope on the way up (m)."""
    import os
    import sys
    sys.path.insert(0, os.path.join(os.path.dirname(__file__), ".."))
    import blows

    from ae3d import engine, physics

    e = engine.Engine()
    physics.ground(e)
    th = math.radians(SLOPE)
    n = np.array([0.0, math.cos(th), math.sin(th)])
    physics.add_box(e, (2.0, 0.5, 3.0), tuple(-0.5 * n), (math.sin(th / 2), 0.0, 0.0,
                                                           math.cos(th / 2)), kind="static")
    physics.add_box(e, (1.5, 1.0, 0.1), (8.0, 1.0, -WALL_BEHIND - 0.1), kind="static")
    slope = blows.boxman(e, "slope", (0.0, 0.0, 0.0), motion.POWERED)
    wall = blows.boxman(e, "wall", (8.0, 0.0, 0.0), motion.LIMP)
    side = blows.boxman(e, "side", (16.0, 0.0, 0.0), motion.POWERED)
    for m in (slope, wall, side):
        motion.set_get_up(m, GET_UP_AFTER)
        _ways(m, clips)
    e.run(seconds=SETTLE)
    chest = human.BONE_SPINE_03
    motion.hit(slope, chest, _at(slope, chest), (0.0, 0.0, -KNOCK))
    for b in (human.BONE_CALF_L, human.BONE_CALF_R):
        physics.apply_impulse(e, physics.ragdoll_body(wall.ragdoll, b), (0.0, 0.0, CRUMPLE),
                              _at(wall, b))
    motion.hit(side, chest, _at(side, chest), (KNOCK, 0.0, 0.0))
    watch = Watch(e, {"slope": slope, "wall": wall, "side": side})
    w = e.physics
    deep = 0.0
    b = slope.ragdoll.bodies
    for _ in range(int(round(seconds / DT))):
        e.frame(DT)
        watch.step()
        if motion.mode(slope) == motion.GETTING_UP:
            p = w.bf[b, L.B_POS:L.B_POS + 3]
            q = w.bf[b, L.B_QUAT:L.B_QUAT + 4]
            for i in range(len(b)):
                ax = _rot(q[i], (0.0, w.bf[b[i], L.B_DIMS + 1], 0.0))
                dist = float(n @ p[i]) - abs(float(n @ ax)) - w.bf[b[i], L.B_DIMS]
                deep = max(deep, -dist)
    out = dict(rows=watch.rows(), slope_depth=deep)
    e.close()
    return out
