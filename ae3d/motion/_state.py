"""Per-engine motion state: every figure's row in structure-of-arrays, the handles, the processors.

A figure is a row ``slot`` of the service's arrays (mode, strengths, blows, the animation's pose,
anchors, lean...). The façade validates and writes rows; the fixed-step work is two njit calls
over every row (``_kernels.pre_step`` and ``post_step``). Rows of released figures go on a free
list and are reused.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any

import numpy as np

from ae3d import human
from ae3d.engine import PhaseProcessor, priorities

from . import _kernels as K
from ._struck import StruckScan

MAXB = human.BONE_COUNT_FEET
PARENT = np.array([max(p, 0) for p in human.BONE_PARENT], dtype=np.int64)
# the bones a figure stands on: the feet where it has them, else the calves (whose capsules
# reach the ground)
SOLES = np.array([human.BONE_CALF_L, human.BONE_CALF_R, human.BONE_FOOT_L, human.BONE_FOOT_R],
                 dtype=np.int64)
UP_LOCAL = np.array(human.BONE_UP_LOCAL[human.BONE_PELVIS], dtype=np.float64)
FWD_LOCAL = np.array(human.BONE_FORWARD_LOCAL[human.BONE_PELVIS], dtype=np.float64)

# neighbours of each bone (its parent and children): a blow takes half its share of theirs
NEIGHBOURS = tuple(
    tuple(sorted({human.BONE_PARENT[b]} - {-1}
                 | {c for c in range(MAXB) if human.BONE_PARENT[c] == b}))
    for b in range(MAXB))

BLEND_TIME = 0.25      # s: the hand-overs' blends (POWERED -> ANIMATED, into POWERED) (#581)
RECOVERY = 0.8         # s: a blow's share comes back over this by default
HIT_SPEED = 1.6        # m/s: the struck bone's speed that takes its whole share
HIT_CAP = 0.95         # the most a blow takes of a muscle
# m/s: a blow that gives the whole figure more than this overcomes its balance (spec "Balance":
# the 1,200 N·m "is the balance a standing figure keeps, and what a blow past it overcomes"; the
# top of what a step catches, spec "On muscles": 1.2 to 2.4 m/s). 60 N·s on the 78 kg box man
# is 0.77 m/s and it stands; 400 N·s is 5.1 m/s and it goes down
BLOW_OVERCOMES = 2.4


@dataclass(eq=False)
class Motion:
    """An active ragdoll: a handle to a figure's motion (``motion.active_ragdoll``).

    ``ragdoll`` is the physics ragdoll it drives, ``rig`` the rig it wears (or None), ``object``
    the engine object it goes with (or None). Read-only for callers: use the ``motion`` calls.
    """

    engine: Any
    slot: int
    ragdoll: Any
    rig: Any = None
    object: int | None = None
    released: bool = False
    protective: bool = True
    get_up: float = 0.0
    recovery: float = RECOVERY
    # the drawing: 0 none, 1 into POWERED (fading offset), 2 POWERED -> ANIMATED (blend)
    blend: int = 0
    blend_t: float = 0.0
    blend_from_q: np.ndarray | None = None
    blend_from_t: np.ndarray | None = None
    off_a: np.ndarray | None = None
    off_d: np.ndarray | None = None
    drawn_q: np.ndarray | None = None     # the pose drawn (local: see _kernels.body_pose_local)
    drawn_t: np.ndarray | None = None
    shown_valid: bool = False
    # a dressed figure's rig: the local pose drawn last, the blends' offsets and their start
    rig_blend: int = 0
    rig_blend_t: float = 0.0
    rig_q: np.ndarray | None = None
    rig_t: np.ndarray | None = None
    rig_off_a: np.ndarray | None = None
    rig_off_d: np.ndarray | None = None
    rig_from_q: np.ndarray | None = None
    rig_from_t: np.ndarray | None = None
    rig_owned: bool = False
    extra: dict = field(default_factory=dict)

    def release(self, engine: Any) -> None:
        """The object it goes with is destroyed (#714): its bodies out of the world, its row
        freed. The handle is stale afterwards."""
        from . import _api
        _api.release(self, destroy_ragdoll=True)

    def __repr__(self) -> str:
        state = "released" if self.released else K_MODE_NAMES.get(self.mode_value(), "?")
        return f"Motion(slot={self.slot}, {state})"

    def mode_value(self) -> int:
        if self.released:
            return -1
        return int(service(self.engine).mode[self.slot])


K_MODE_NAMES = {K.ANIMATED: "animated", K.POWERED: "powered", K.LIMP: "limp",
                K.GETTING_UP: "getting_up", K.ACTING: "acting"}


class Service:
    """Every figure of one engine, as rows of arrays (capacity grows by doubling)."""

    alive: np.ndarray
    stepped: np.ndarray
    owner: np.ndarray
    mode: np.ndarray
    nbones: np.ndarray
    joints: np.ndarray
    bodies: np.ndarray
    full: np.ndarray
    fstrength: np.ndarray
    loss: np.ndarray
    lrate: np.ndarray
    targets: np.ndarray
    anim_pos: np.ndarray
    anim_rot: np.ndarray
    prev_p: np.ndarray
    prev_q: np.ndarray
    has_prev: np.ndarray
    follow: np.ndarray
    upright: np.ndarray
    heading: np.ndarray
    lean: np.ndarray
    max_lean: np.ndarray
    falling: np.ndarray
    letgo: np.ndarray
    spring_hz: np.ndarray

    def __init__(self, engine: Any, capacity: int = 8) -> None:
        self.engine = engine
        self.cap = 0
        self.n = 0
        self.free: list[int] = []
        self.handles: list[Motion | None] = []
        self.dressed: list[Motion] = []   # the figures that wear a rig (read before each step)
        self._grow(capacity)
        self.scratch_p = np.zeros((MAXB, 3))
        self.scratch_q = np.zeros((MAXB, 4))
        self.processors_added = False
        self.struck = StruckScan()   # ANIMATED figures struck by a body go POWERED (#581)

    def _grow(self, cap: int) -> None:
        old = self.cap
        def g(name: str, shape: tuple, dtype: Any = np.float64, fill: float = 0.0) -> None:
            new = np.full((cap,) + shape, fill, dtype=dtype)
            if old:
                new[:old] = getattr(self, name)
            setattr(self, name, new)
        g("alive", (), np.int64)
        g("stepped", (), np.int64)
        g("owner", (), np.int64)
        g("mode", (), np.int64)
        g("nbones", (), np.int64)
        g("joints", (MAXB,), np.int64, -1)
        g("bodies", (MAXB,), np.int64, -1)
        g("full", (MAXB,))
        g("fstrength", ())
        g("loss", (MAXB,))
        g("lrate", (MAXB,))
        g("targets", (MAXB, 4))
        g("anim_pos", (3,))
        g("anim_rot", (4,))
        g("prev_p", (MAXB, 3))
        g("prev_q", (MAXB, 4))
        g("has_prev", (), np.int64)
        g("follow", (MAXB,), np.int64, -1)
        g("upright", (), np.int64, -1)
        g("heading", (), np.int64, -1)
        g("lean", ())
        g("max_lean", ())
        g("falling", (), np.int64)
        g("letgo", ())
        g("spring_hz", ())
        self.handles.extend([None] * (cap - old))
        self.cap = cap

    def new_row(self) -> int:
        if self.free:
            return self.free.pop(0)
        if self.n == self.cap:
            self._grow(2 * self.cap)
        self.n += 1
        return self.n - 1

    def free_row(self, slot: int) -> None:
        m = self.handles[slot]
        if m is not None and m in self.dressed:
            self.dressed.remove(m)
        self.alive[slot] = 0
        self.stepped[slot] = 0
        self.follow[slot] = -1
        self.handles[slot] = None
        self.free.append(slot)
        self.free.sort()

    # -- the fixed step --------------------------------------------------------------------
    def pre(self, want: int, dt: float) -> None:
        from . import _api
        w = self.engine.physics
        n = self.n
        self.struck.before(w, dt, bool(np.any((self.mode[:n] == K.ANIMATED)
                                              & (self.alive[:n] != 0)
                                              & (self.stepped[:n] == want))))
        for m in self.dressed:
            if self.stepped[m.slot] == want and self.alive[m.slot] and not m.ragdoll.destroyed:
                _api.read_rig(m)
        K.pre_step(want, dt, self.n, self.alive, self.stepped, self.owner, self.mode, self.nbones,
                   PARENT,
                   self.joints, self.bodies, self.full, self.fstrength, self.loss, self.lrate,
                   self.targets, self.anim_pos, self.anim_rot, self.prev_p, self.prev_q,
                   self.has_prev, self.follow, self.upright, self.heading, self.lean,
                   self.falling, self.letgo, self.spring_hz, SOLES, UP_LOCAL, FWD_LOCAL,
                   human.BALANCE_TORQUE, human.HEADING_TORQUE, human.DRIVE_TIME,
                   human.DRIVE_MAX_SPEED,
                   w.bf, w.bi, w.jf, w.ji, w.af, w.ai, w.si, w.n, self.scratch_p, self.scratch_q)

    def pose(self, want: int, dt: float) -> None:
        """The pose phase of every figure stepped with ``want``: the pose drawn (and the rig)."""
        from . import _api
        for m in self.handles[: self.n]:
            if m is not None and self.stepped[m.slot] == want:
                _api.pose_one(m, dt)

    def post(self, want: int) -> None:
        w = self.engine.physics
        K.post_step(want, self.n, self.alive, self.stepped, self.owner, self.mode, self.joints,
                    self.bodies, self.anim_rot, self.lean, self.max_lean, self.falling, UP_LOCAL,
                    w.bf, w.bi, w.ji)
        for row, bone, impulse in self.struck.after(self, want):
            m = self.handles[row]
            if m is not None and not m.released:
                from . import _api
                _api.struck(m, bone, impulse)


class _PreStep(PhaseProcessor):
    phase = priorities.FIXED

    def run(self, engine: Any, dt: float) -> None:
        s = engine.services.get("motion")
        if s is not None and s.n:
            s.pre(1, dt)


class _PostStep(PhaseProcessor):
    phase = priorities.FIXED

    def run(self, engine: Any, dt: float) -> None:
        s = engine.services.get("motion")
        if s is not None and s.n:
            s.post(1)


class _Pose(PhaseProcessor):
    phase = priorities.POSE

    def run(self, engine: Any, dt: float) -> None:
        s = engine.services.get("motion")
        if s is None:
            return
        s.pose(1, dt)


def service(e: Any) -> Service:
    """The engine's motion service, made (with its processors) on first use."""
    s = e.services.get("motion")
    if s is None:
        s = Service(e)
        e.services["motion"] = s
        e.add_processor(_PreStep(e), priorities.MOTION_PRE_STEP)
        e.add_processor(_PostStep(e), priorities.MOTION_POST_STEP)
        e.add_processor(_Pose(e), priorities.MOTION_POSE)
        e.on_close(lambda: _free_all(s))
    return s


def _free_all(s: Service) -> None:
    """At the engine's end, after its objects (figures first): every motion left is freed."""
    for m in list(s.handles[: s.n]):
        if m is not None and not m.released:
            m.released = True
            s.free_row(m.slot)
