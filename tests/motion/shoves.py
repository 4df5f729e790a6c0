"""Shoves at the chest (tests/test_balance.py, tests/test_stagger.py): figures standing on one
engine, each shoved once (or on a schedule) with stepping on or off, watched every step (one
numpy read of the motion's tables a step, no Python per figure). Units: m, s, N·s, m/s.

A figure stands when it never fell (``falling`` never set) and leans under the fall's lean at the
end. The figures face +Z: a shove from behind is +Z, from in front -Z, from the side +X.
"""

from __future__ import annotations

import math
from dataclasses import dataclass, field

import numpy as np
from motion import measure as M

from ae3d import engine, figure, human, motion, physics
from ae3d.motion import _layout as ML
from ae3d.physics import _layout as L

DT = 1.0 / 60.0
SETTLE = 0.5
CHEST = human.BONE_SPINE_03


def way(angle_deg: float) -> np.ndarray:
    """The unit direction over the ground ``angle_deg`` from +Z (from behind) toward +X."""
    a = math.radians(angle_deg)
    return np.array([math.sin(a), 0.0, math.cos(a)])


@dataclass
class Shoves:
    impulses: np.ndarray                  # (n, 3) N·s
    stepping: np.ndarray                  # (n,) bool
    fell: np.ndarray = field(default=None)         # (n,) bool: falling was ever set
    fell_t: np.ndarray = field(default=None)       # (n,) s after the shove it fell (nan: never)
    capture0: np.ndarray = field(default=None)     # (n,) m: the capture point off the pelvis as
    #                                                first seen after the shove, over the ground
    steps: np.ndarray = field(default=None)        # (n,) steps taken
    step_t: list = field(default=None)             # per figure: s after the shove of each step
    stagger_t: np.ndarray = field(default=None)    # (n,) s staggering ended (nan: never)
    staggered: np.ndarray = field(default=None)    # (n,) bool: it staggered
    stagger_end: np.ndarray = field(default=None)  # (n,) bool: staggering at the end
    lean_end: np.ndarray = field(default=None)     # (n,) rad
    turn: np.ndarray = field(default=None)         # (n,) rad: the pelvis's heading change
    chest_ahead: np.ndarray = field(default=None)  # (n,) m: chest ahead of pelvis stepping back
    digest: str = ""
    step_bits: list = field(default=None)          # per figure: the fixed steps of each step

    @property
    def stands(self) -> np.ndarray:
        return ~self.fell


def _heading(w, pel):
    q = w.bf[pel, L.B_QUAT:L.B_QUAT + 4]
    x, y, z, ww = q[:, 0], q[:, 1], q[:, 2], q[:, 3]
    f = np.array(human.BONE_FORWARD_LOCAL[human.BONE_PELVIS])
    # the pelvis's forward in the world
    t = 2.0 * np.cross(np.stack([x, y, z], axis=1), np.broadcast_to(f, (len(pel), 3)))
    v = f + ww[:, None] * t + np.cross(np.stack([x, y, z], axis=1), t)
    return np.arctan2(v[:, 0], v[:, 2])


def run(impulses, stepping, seconds: float = 2.5, rig: str = "box", path: str | None = None,
        schedule=None, spacing: float = 4.0, settings=None) -> Shoves:
    """Figures (``rig`` "box": the reference ragdoll; "glb": ``path`` dressed by on_figure, on
    its Idle) each shoved once at the chest with ``impulses[k]`` (N·s, (3,)) after settling,
    stepping where ``stepping[k]``; ``schedule``: a list of (seconds after the first shove)
    at which every figure is shoved again the same way."""
    imp = np.asarray(impulses, float).reshape(-1, 3)
    n = len(imp)
    stp = np.broadcast_to(np.asarray(stepping, bool), (n,)).copy()
    e = engine.Engine()
    physics.ground(e)
    if settings is not None:
        motion.set_settings(e, settings)
    cols = int(math.ceil(math.sqrt(n)))
    figs = []
    for k in range(n):
        pos = (spacing * (k % cols), 0.0, spacing * (k // cols))
        if rig == "box":
            r = physics.ragdoll(e, f"s{k}", pos, 8.0, 8.0, 1.0)
            b = motion.active_ragdoll(r)
            motion.attach(e, b)
        else:
            z = figure.figure(e, f"s{k}", path)
            fg = figure.figure_of(e, z)
            figure.place(fg, pos, 0.0)
            figure.play(fg, "Idle", 1.0, True)
            b = motion.on_figure(e, z)
        motion.set_mode(b, motion.POWERED)
        motion.set_stepping(b, bool(stp[k]))
        figs.append(b)
    e.run(seconds=SETTLE)
    w = e.physics
    sv = e.services["motion"]
    slots = np.array([b.slot for b in figs])
    pel = np.array([b.ragdoll.bodies[0] for b in figs])
    chest = np.array([b.ragdoll.bodies[CHEST] for b in figs])
    head0 = _heading(w, pel)

    def shove():
        for k, b in enumerate(figs):
            p = physics.ragdoll_pose(b.ragdoll)[0][CHEST]
            motion.hit(b, CHEST, p, imp[k])

    pel0 = w.bf[pel, L.B_POS:L.B_POS + 3].copy()
    shove()
    out = Shoves(imp, stp)
    out.fell = np.zeros(n, bool)
    out.fell_t = np.full(n, np.nan)
    out.staggered = np.zeros(n, bool)
    out.stagger_t = np.full(n, np.nan)
    out.step_t = [[] for _ in range(n)]
    out.step_bits = [[] for _ in range(n)]
    ahead_sum = np.zeros(n)
    ahead_n = np.zeros(n)
    prev_steps = sv.fi[slots, ML.F_STEPS].copy()
    prev_stag = np.zeros(n, bool)
    fwd = np.array([0.0, 0.0, 1.0])
    due = sorted(int(round(s / DT)) for s in (schedule or ()))
    for i in range(int(round(seconds / DT))):
        if due and i == due[0]:
            due.pop(0)
            shove()
        e.frame(DT)
        t = (i + 1) * DT
        if i == 0:
            cp = sv.ff[slots, ML.F_CP:ML.F_CP + 3] - pel0
            out.capture0 = np.hypot(cp[:, 0], cp[:, 2])
        now = sv.fi[slots, ML.F_FALLING] != 0
        out.fell_t[now & ~out.fell] = t
        out.fell |= now
        st = sv.fi[slots, ML.F_STEPS]
        for k in np.nonzero(st != prev_steps)[0]:
            out.step_t[k].append(t)
            out.step_bits[k].append(i)
        prev_steps = st.copy()
        stag = sv.fi[slots, ML.F_STAGGER] != 0
        out.staggered |= stag
        ended = prev_stag & ~stag
        out.stagger_t[ended] = t
        prev_stag = stag
        # stepping back: the chest ahead of the pelvis (along the way it faced), while the
        # step under way is a step back
        back = ((sv.fi[slots, ML.F_STEP_KIND] == ML.STEP_BACK)
                & (sv.fi[slots, ML.F_STEP_PHASE] != ML.STEP_IDLE)
                & (sv.fi[slots, ML.F_FALLING] == 0))
        d = (w.bf[chest, L.B_POS:L.B_POS + 3] - w.bf[pel, L.B_POS:L.B_POS + 3]) @ fwd
        ahead_sum[back] += d[back]
        ahead_n[back] += 1
    out.steps = sv.fi[slots, ML.F_STEPS].copy()
    out.stagger_end = sv.fi[slots, ML.F_STAGGER] != 0
    out.lean_end = sv.ff[slots, ML.F_LEAN].copy()
    out.fell |= out.lean_end > motion.FALL_LEAN
    turn = _heading(w, pel) - head0
    out.turn = np.abs((turn + math.pi) % (2 * math.pi) - math.pi)
    out.chest_ahead = np.where(ahead_n > 0, ahead_sum / np.maximum(ahead_n, 1), np.nan)
    out.digest = M.world_digest(e)
    e.close()
    return out
