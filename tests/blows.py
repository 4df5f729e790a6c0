"""Blows on figures, many at once in one engine (issue 18): the harness of
tests/physics/test_unbreakable.py, bench/tear.py and bench/soak.py.

Figures stand far apart on one ground (``SPACING`` m: a figure flung at the world's speed cap
reaches no other within the trial) or float far above it with gravity off for their bodies
(gravity scale 0: zero gravity in the same engine). Each is struck once, at a bone's centre of
mass, and watched step by step: its joints' gaps (m), its bodies' speeds (m/s), how deep any body
lies under the ground (m), its kinetic energy (J). The figures' measures come from one numba call
a step (``_kernels_joints.figure_watch``), not Python loops.
"""

from __future__ import annotations

import math
import os

import numpy as np

from ae3d import figure, human, motion, physics
from ae3d.physics import _kernels_joints as KJ
from ae3d.physics import _layout as L

SPACING = 400.0     # m between figures: 400 m/s (the speed cap) for 0.5 s is 200 m each way
FLOAT_Y = 2000.0    # m: where the zero-gravity figures float
TEAR_GAP = 0.10     # m: a joint gap over this is a tear
HELD_GAP = 0.02     # m: every gap back under this within BACK_S of a blow
BACK_S = 0.1        # s
SPEED_SLACK = 10.0  # m/s over the struck body's J/m (or the speed cap)
DEPTH = 0.03        # m: no body more than this into the ground


def icosahedron() -> np.ndarray:
    """The 12 unit directions of an icosahedron's vertices (evenly spread)."""
    p = (1.0 + math.sqrt(5.0)) / 2.0
    v = []
    for a in (-1.0, 1.0):
        for b in (-p, p):
            v += [(0.0, a, b), (a, b, 0.0), (b, 0.0, a)]
    d = np.array(v)
    return d / np.linalg.norm(d, axis=1)[:, None]


DIRECTIONS = icosahedron()


def boxman(e, name: str, pos, mode: int, zero_g: bool = False, yaw: float = 0.0,
           path: str = "boxman.glb", clip: str | None = "Idle"):
    """A dressed figure (``motion.on_figure``) standing at ``pos``, in ``mode`` (POWERED or
    LIMP), playing ``clip`` (None: its rest pose); zero_g: its bodies feel no gravity. Returns
    its Motion handle."""
    z = figure.figure(e, name, path)
    f = figure.figure_of(e, z)
    figure.place(f, tuple(pos), yaw)
    if clip is not None:
        figure.play(f, clip, 1.0, True)
    m = motion.on_figure(e, z)
    motion.set_mode(m, mode)
    if zero_g:
        w = e.physics
        w.bf[m.ragdoll.bodies, L.B_GRAV_SCALE] = 0.0
    return m


def reference(e, name: str, pos, mode: int, zero_g: bool = False):
    """The bare reference ragdoll (``physics.ragdoll``): POWERED on its motors and balance, or
    LIMP. Returns the Ragdoll."""
    r = physics.ragdoll(e, name, tuple(pos), 8.0, 8.0, 1.0)
    if mode == motion.POWERED:
        physics.ragdoll_set_powered(r, True)
        physics.ragdoll_set_balance(r, human.BALANCE_TORQUE)
    if zero_g:
        e.physics.bf[r.bodies, L.B_GRAV_SCALE] = 0.0
    return r


class Watch:
    """The figures' joints and bodies, measured after each step (one numba call)."""

    def __init__(self, e, ragdolls) -> None:
        self.w = e.physics
        self.n = len(ragdolls)
        bodies = [np.asarray(r.bodies, dtype=np.int64) for r in ragdolls]
        joints = [np.asarray([j for j in r.joints if j >= 0], dtype=np.int64) for r in ragdolls]
        self.bstart = np.zeros(self.n + 1, dtype=np.int64)
        self.jstart = np.zeros(self.n + 1, dtype=np.int64)
        self.bstart[1:] = np.cumsum([len(b) for b in bodies])
        self.jstart[1:] = np.cumsum([len(j) for j in joints])
        self.bodies = np.concatenate(bodies)
        self.joints = np.concatenate(joints)
        self.out = np.zeros((self.n, KJ.FW_COUNT))

    def __call__(self, ground_y: float = 0.0) -> np.ndarray:
        """(figures, FW_COUNT): worst gap (m), fastest body (m/s), deepest under ground_y (m),
        kinetic energy (J), any non-finite (1.0), centre of mass x, y, z (m)."""
        KJ.figure_watch(self.w.bf, self.w.bi, self.w.jf, self.w.ji, self.bodies, self.bstart,
                        self.joints, self.jstart, ground_y, self.out)
        return self.out


def blow_point(e, r, bone: int) -> np.ndarray:
    """The bone's centre of mass (m)."""
    return e.physics.bf[r.bodies[bone], L.B_POS:L.B_POS + 3].copy()


def strike(e, r, bone: int, impulse) -> None:
    """``impulse`` (3,) N·s at the bone's centre of mass, through the public call."""
    w = e.physics
    physics.apply_impulse(e, w.handle(int(r.bodies[bone])), np.asarray(impulse, float),
                          blow_point(e, r, bone))


def bone_mass(e, r, bone: int) -> float:
    return float(e.physics.bf[r.bodies[bone], L.B_MASS])


def assets_dir() -> str:
    return os.path.join(os.path.dirname(__file__), "..", "assets")


def make_turned_rig(path: str, height: float = 1.75) -> str:
    """Write a box man in the pipeline's naming that faces +X (a quarter turn about +Y of its
    bones, boxes and clips, its bones' frames left as the figure's axes, no container node) and
    stands in a T-pose (arms straight out): the properties of the rig whose forward falls blew up
    (issue 18: a fitted rig, 1.75 m). Returns ``path``."""
    import importlib.util

    spec = importlib.util.spec_from_file_location(
        "_ae3d_make_assets", os.path.join(assets_dir(), "make_assets.py"))
    ma = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(ma)
    turn = ma.q_axis((0.0, 1.0, 0.0), 0.5 * math.pi)
    layout = []
    shoulder = {}
    for role, parent, joint, lo, hi, mat in ma.humanoid_layout(height):
        if role.startswith("UpperArm"):
            shoulder[role[-1]] = joint
        side = role[-1]
        if role[:-1] in ("UpperArm", "LowerArm", "Hand"):
            # the arm straight out: a quarter turn about z at its shoulder (left +x, right -x)
            q = ma.q_axis((0.0, 0.0, 1.0), 0.5 * math.pi if side == "L" else -0.5 * math.pi)
            c = shoulder[side]
            cs = np.array([c + ma.q_rotate(q, np.array((x, y, z)) - c) for x in (lo[0], hi[0])
                           for y in (lo[1], hi[1]) for z in (lo[2], hi[2])])
            joint, lo, hi = c + ma.q_rotate(q, joint - c), cs.min(axis=0), cs.max(axis=0)
        layout.append((role, parent, joint, lo, hi, mat))
    ma.build_humanoid(path, layout, ma._pipeline_names, ma.BOXMAN_COLORS,
                      ma._human_clips(height), turn=turn)
    return path


class BusyScene:
    """Issue 18's busy scene: 8 POWERED box men on Idle in a row 4 m apart, one of them struck
    every second (``motion.hit``) with 50-600 N·s at any bone in any direction (a seeded
    draw), 2 LIMP box men lying by them, 4 boxes, and 2 POWERED bystanders 40 m away that nothing
    touches. ``step()`` takes one fixed step (a blow first when one is due) and measures."""

    def __init__(self, e, seed: int = 18) -> None:
        self.e = e
        physics.ground(e)
        self.rng = np.random.default_rng(seed)
        self.powered = [boxman(e, f"p{k}", (4.0 * k, 0.0, 0.0), motion.POWERED)
                        for k in range(8)]
        self.limp = [boxman(e, f"l{k}", (4.0 * k + 2.0, 0.0, 5.0), motion.LIMP)
                     for k in range(2)]
        self.boxes = [physics.add_box(e, (0.25, 0.25, 0.25), (4.0 * k + 1.0, 0.25, -4.0))
                      for k in range(4)]
        self.bystanders = [boxman(e, f"b{k}", (10.0 * k, 0.0, 40.0), motion.POWERED, clip=None)
                           for k in range(2)]
        figs = [m.ragdoll for m in self.powered + self.limp + self.bystanders]
        self.watch = Watch(e, figs)
        self.nb = len(self.bystanders)
        self.by_bodies = np.concatenate([m.ragdoll.bodies for m in self.bystanders])
        self.by_start = None
        self.since_blow = 1e9
        self.blows = []
        self.steps = 0

    def settle(self, seconds: float = 1.0) -> None:
        self.e.run(seconds=seconds)
        self.by_start = self.e.physics.bf[self.by_bodies, L.B_POS:L.B_POS + 3].copy()

    def blow(self) -> None:
        k = int(self.rng.integers(len(self.powered)))
        bone = int(self.rng.integers(human.BONE_COUNT))
        d = self.rng.normal(size=3)
        d /= np.linalg.norm(d)
        J = float(self.rng.uniform(50.0, 600.0))
        m = self.powered[k]
        p = blow_point(self.e, m.ragdoll, bone)
        motion.hit(m, bone, p, J * d)
        self.blows.append((self.e.time, k, bone, J))
        self.since_blow = 0.0

    def step(self) -> np.ndarray:
        """One fixed step (a blow first on each whole second); returns the figures' measures."""
        dt = self.e.fixed_dt
        if self.steps % int(round(1.0 / dt)) == 0:
            self.blow()
        self.e.fixed_step()
        self.steps += 1
        self.since_blow += dt
        return self.watch()

    def bystanders_moved(self) -> float:
        """How far (m) the bystanders' bodies are from where they stood after settling."""
        p = self.e.physics.bf[self.by_bodies, L.B_POS:L.B_POS + 3]
        return float(np.max(np.linalg.norm(p - self.by_start, axis=1)))
