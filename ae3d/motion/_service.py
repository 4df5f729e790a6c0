"""The motion's service: every figure of one engine as rows of its tables, the handles, the free
list and the processors that run the fixed step and the pose phase.

A figure is a row ``slot`` of the tables in ``_layout`` (``ff``, ``fi``, ``pbf``, ``pbi``, ``rbf``)
and the parameter row ``prm`` (``_settings``). The façade validates and writes rows; the fixed
step is ``_step.pre_step`` and ``_step.post_step``, one njit call each over every row, and the
pose phase ``_step.pose_all``. Rows of released figures go on a free list and are reused, their
generation bumped so a stale handle is told.
"""

from __future__ import annotations

from typing import Any

import numpy as np

from ae3d import human
from ae3d.engine import PhaseProcessor, priorities

from . import _layout as L
from ._layout import MAXB

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


class Motion:
    """An active ragdoll: a handle to a figure's motion (``motion.active_ragdoll``).

    ``ragdoll`` is the physics ragdoll it drives, ``rig`` the rig it wears (or None), ``object``
    the engine object it goes with (or None). It holds its row (``slot``) and that row's
    generation, nothing a kernel reads: its state is the service's tables. Read-only for callers:
    use the ``motion`` calls.
    """

    __slots__ = ("engine", "slot", "generation", "ragdoll", "rig", "object", "__weakref__")

    def __init__(self, engine: Any, slot: int, generation: int, ragdoll: Any) -> None:
        self.engine = engine
        self.slot = slot
        self.generation = generation
        self.ragdoll = ragdoll
        self.rig: Any = None
        self.object: int | None = None

    @property
    def released(self) -> bool:
        """True once its row was freed (``release``, its object destroyed, the engine closed)."""
        s = self.engine.services.get("motion")
        return s is None or int(s.fi[self.slot, L.F_GEN]) != self.generation

    @property
    def protective(self) -> bool:
        """Whether a falling figure protects itself (``set_protective``)."""
        return bool(service(self.engine).fi[self.slot, L.F_PROTECTIVE])

    @property
    def get_up(self) -> float:
        """s lain still before it gets up by itself (``set_get_up``; 0 never)."""
        return float(service(self.engine).ff[self.slot, L.F_GET_UP])

    def release(self, engine: Any) -> None:
        """The object it goes with is destroyed (#714): its bodies out of the world, its row
        freed. The handle is stale afterwards."""
        from . import _figures
        _figures.release(self, destroy_ragdoll=True)

    def __repr__(self) -> str:
        state = ("released" if self.released
                 else L.MODE_NAMES[int(service(self.engine).fi[self.slot, L.F_MODE])])
        return f"Motion(slot={self.slot}, {state})"


class Service:
    """Every figure of one engine, as rows of the ``_layout`` tables (capacity grows by doubling).

    ``handles[slot]`` is the row's Motion (None when free); ``dressed`` the figures that wear a
    rig, in the order dressed (``_pose.DressedRigs`` holds their arrays for the kernels)."""

    def __init__(self, engine: Any, capacity: int = 8) -> None:
        from . import _hits, _pose, _settings  # they import this module
        self.engine = engine
        self.cap = 0
        self.n = 0
        self.free: list[int] = []
        self.handles: list[Motion | None] = []
        self.dressed: list[Motion] = []
        self.ff = np.zeros((0, L.FF_COUNT))
        self.fi = np.zeros((0, L.FI_COUNT), dtype=np.int64)
        self.pbf = np.zeros((0, MAXB, L.PBF_COUNT))
        self.pbi = np.zeros((0, MAXB, L.PBI_COUNT), dtype=np.int64)
        self.rbf = np.zeros((0, 0, L.RBF_COUNT))
        self._grow(capacity)
        self.settings = _settings.DEFAULT
        self.prm = _settings.pack(self.settings)
        self.rigs = _pose.DressedRigs()
        self.struck = _hits.StruckScratch()
        self.processors_added = False

    def _grow(self, cap: int, rig_bones: int | None = None) -> None:
        """Grow the tables to ``cap`` rows (and rbf to ``rig_bones`` rig bones), keeping them."""
        old = self.cap
        rb = self.rbf.shape[1] if rig_bones is None else rig_bones

        def g(a: np.ndarray, shape: tuple) -> np.ndarray:
            new = np.zeros(shape, dtype=a.dtype)
            new[: a.shape[0], : a.shape[1]] = a
            return new

        self.ff = g(self.ff, (cap, L.FF_COUNT))
        self.fi = g(self.fi, (cap, L.FI_COUNT))
        self.pbf = g(self.pbf, (cap, MAXB, L.PBF_COUNT))
        self.pbi = g(self.pbi, (cap, MAXB, L.PBI_COUNT))
        self.rbf = g(self.rbf, (cap, rb, L.RBF_COUNT))
        self.pbi[old:cap] = -1
        self.fi[old:cap, L.F_DRESS] = -1
        self.handles.extend([None] * (cap - old))
        self.cap = cap

    def fit_rig(self, count: int) -> None:
        """Make room in rbf for a rig of ``count`` bones."""
        if count > self.rbf.shape[1]:
            self._grow(self.cap, count)

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
            self.rigs.stale = True
        self.fi[slot, L.F_ALIVE] = 0
        self.fi[slot, L.F_STEPPED] = 0
        self.fi[slot, L.F_GEN] += 1
        self.fi[slot, L.F_DRESS] = -1
        self.pbi[slot, :, L.PB_FOLLOW] = -1
        self.handles[slot] = None
        self.free.append(slot)
        self.free.sort()

    def live(self) -> list[Motion]:
        """The handles in use, in row order."""
        return [m for m in self.handles[: self.n] if m is not None]

    # -- the fixed step and the pose phase ---------------------------------------------------
    def pre(self, want: int, dt: float) -> None:
        """Before the physics step: every figure stepped with ``want`` (1 by the engine's phases,
        0 by ``motion_step``)."""
        from . import _step
        w = self.engine.physics
        self.struck.fit(w.n)
        if self.dressed:
            self.rigs.update(self)
            _step.read_rigs(want, self.n, self.ff, self.fi, self.pbf, self.pbi, PARENT, w.ji,
                            *self.rigs.tables(), w.bi)
        self.struck.taken = _step.pre_step(
            want, dt, self.n, self.ff, self.fi, self.pbf, self.pbi, self.prm, PARENT, SOLES,
            UP_LOCAL, FWD_LOCAL, w.bf, w.bi, w.jf, w.ji, w.af, w.si, w.n, self.struck.v0)

    def post(self, want: int) -> None:
        """After the physics step: leans and falling; ANIMATED figures struck by a body go
        POWERED, the blow taking its share (``_hits.struck``)."""
        from . import _hits, _step
        w = self.engine.physics
        sc = self.struck
        scan = sc.taken and w.nm != 0 and sc.owner.shape[0] >= w.n
        sc.taken = False
        count = _step.post_step(want, self.n, self.ff, self.fi, self.pbi, self.prm, UP_LOCAL,
                                w.bf, w.bi, w.ji, w.mi, w.mf, w.nm, scan, sc.v0,
                                sc.owner[: w.n])
        if count:
            n = self.n
            rows = np.nonzero((self.fi[:n, L.F_STRUCK_BONE] >= 0)
                              & np.isfinite(self.ff[:n, L.F_STRUCK_J]))[0]
            _hits.struck_rows(self, [int(f) for f in rows])
        # the ways up flagged this step: started (set_get_up) or handed back (_get_up.py)
        from . import _get_up
        _get_up.after_step(self)

    def pose(self, want: int, dt: float, lo: int = 0, hi: int | None = None,
             alpha: float | None = None) -> None:
        """The pose phase of rows lo..hi stepped with ``want`` (-1: any): the pose drawn, with
        the hand-overs' blends, and a dressed figure's rig. One njit call. ``alpha`` (0..1):
        the bodies drawn between their poses at the last step's start and end
        (``_pose.bodies_between``); None: as they are."""
        from . import _pose, _step
        w = self.engine.physics
        self.rigs.update(self)
        bf = w.bf if alpha is None else _pose.bodies_between(w.bf, w.n, alpha)
        _step.pose_all(want, dt, lo, self.n if hi is None else hi, self.ff, self.fi, self.pbf,
                       self.pbi, self.rbf, self.prm, PARENT, bf, w.bi, w.ji,
                       *self.rigs.tables())


# --- the parked pass-by (issue 16: a hand-over pool's parked figures cost nothing) ---------
SKIP_PARKED = True
"""The phases' processors pass by the kernels while every ragdoll is parked (``every_parked``).
False: they call them anyway (the test holding that both give the same bits turns it off)."""


def every_parked(engine: Any) -> bool:
    """True while no ragdoll of the engine's world is in it (each one parked, or none made):
    every figure's row is then one the kernels pass by (its pelvis parked), so the phases do
    not call them: a pool of parked figures costs a step nothing but this look. The world
    counts the ragdolls not parked (``World.powered``: made +1, parked -1, unparked +1,
    destroyed unparked -1). A row whose ragdoll was destroyed is dropped at the next step that
    runs the kernels, as before (nothing reads it in between)."""
    return SKIP_PARKED and engine.physics.powered == 0


class _PreStep(PhaseProcessor):
    """Motion's three processors do their work in esper's hook itself (``process``), not
    through ``run``: one Python call a phase rather than two, so that a parked pool's pass-by
    costs a frame as little as it can (issue 16). ``run`` does the same, for a direct call."""

    phase = priorities.FIXED

    def process(self, phase: str, dt: float) -> None:  # noqa: D401 - esper's hook
        if phase != self.phase:
            return
        engine = self.engine
        s = engine.services.get("motion")
        if s is not None and s.n:
            if every_parked(engine):
                s.struck.taken = False  # no velocities taken: the step after scans nothing
                return
            s.pre(1, dt)

    def run(self, engine: Any, dt: float) -> None:
        self.process(self.phase, dt)


class _PostStep(PhaseProcessor):
    phase = priorities.FIXED

    def process(self, phase: str, dt: float) -> None:  # noqa: D401 - esper's hook
        if phase != self.phase:
            return
        engine = self.engine
        s = engine.services.get("motion")
        if s is not None and s.n and not every_parked(engine):
            s.post(1)

    def run(self, engine: Any, dt: float) -> None:
        self.process(self.phase, dt)


class _Pose(PhaseProcessor):
    phase = priorities.POSE

    def process(self, phase: str, dt: float) -> None:  # noqa: D401 - esper's hook
        if phase != self.phase:
            return
        engine = self.engine
        s = engine.services.get("motion")
        if s is not None and s.n and not every_parked(engine):
            from . import _pose  # (after the pass-by: an import statement costs ~1 µs a call)
            s.pose(1, dt, alpha=_pose.frame_alpha(engine, dt))

    def run(self, engine: Any, dt: float) -> None:
        self.process(self.phase, dt)


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
    for m in s.live():
        s.free_row(m.slot)


# ------------------------------------------------------------------------------ checks
def check(body: Any) -> Motion:
    """The live Motion ``body``; TypeError/ValueError naming it otherwise."""
    if not isinstance(body, Motion):
        raise TypeError(f"body must be an active ragdoll (motion.active_ragdoll), not "
                        f"{type(body).__name__}")
    if body.released:
        raise ValueError("body was destroyed (its active ragdoll is released)")
    if body.engine.closed:
        raise ValueError("body's engine is closed")
    if body.ragdoll.destroyed:
        raise ValueError("body's ragdoll was destroyed")
    return body


def finite(x: Any, name: str, shape: tuple) -> np.ndarray:
    """``x`` as a float array of ``shape``; ValueError naming ``name`` if it is not finite."""
    try:
        a = np.asarray(x, dtype=np.float64)
    except (TypeError, ValueError):
        raise ValueError(f"{name} must be numbers of shape {shape}") from None
    if a.shape != shape:
        a = a.reshape(-1) if a.size == int(np.prod(shape)) else a
        if a.size != int(np.prod(shape)):
            raise ValueError(f"{name} must have shape {shape}")
        a = a.reshape(shape)
    if not np.all(np.isfinite(a)):
        raise ValueError(f"{name} must be finite")
    return a


def bone_of(m: Motion, bone: Any) -> int:
    """``bone`` as one of ``m``'s ragdoll's bones; ValueError naming it otherwise."""
    if isinstance(bone, bool) or not isinstance(bone, (int, np.integer)):
        raise ValueError(f"bone must be a human.BONE_* constant, not {bone!r}")
    b = int(bone)
    if not 0 <= b < m.ragdoll.bones:
        raise ValueError(f"bone {b} is not a bone of this ragdoll ({m.ragdoll.bones} bones)")
    return b
