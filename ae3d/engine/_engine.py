"""The Engine: an esper world, a physics world, objects, and the frame loop.

esper 3.x keeps its worlds in module globals. Only this package touches esper: every Engine owns
a uniquely named esper world and switches to it before it does anything with it, so several
engines live side by side in one process (the tests make many).
"""

from __future__ import annotations

import itertools
from collections.abc import Callable
from typing import Any

import esper

from ae3d import _validate as V

from . import priorities

_engine_ids = itertools.count()


class PhaseProcessor(esper.Processor):
    """A processor of one phase. Subclasses set ``phase`` and implement ``run(engine, dt)``.

    ``dt`` is the fixed step (s) in the fixed phase, and the frame's time (s) in the pose phase.
    """

    phase: str = priorities.FIXED

    def __init__(self, engine: Engine) -> None:
        super().__init__()
        self.engine = engine

    def process(self, phase: str, dt: float) -> None:  # noqa: D401 - esper's hook
        if phase == self.phase:
            self.run(self.engine, dt)

    def run(self, engine: Engine, dt: float) -> None:  # pragma: no cover - abstract
        raise NotImplementedError


class _PhysicsStep(PhaseProcessor):
    phase = priorities.FIXED

    def run(self, engine: Engine, dt: float) -> None:
        engine.physics.step(dt)


class Engine:
    """A game engine instance: objects (esper entities), a physics world and the frame loop.

    Args:
        fixed_dt: the fixed step (s), 1/60 by default. Physics and motion advance by it.
        max_steps_per_frame: the most fixed steps one ``frame`` runs; time owed past that is
            dropped, so a long stall does not make the next frame take longer still.

    Use it as a context manager, or call ``close()``, to free everything it holds.
    """

    def __init__(self, fixed_dt: float = 1.0 / 60.0, max_steps_per_frame: int = 8) -> None:
        self.fixed_dt = V.positive(fixed_dt, "fixed_dt", unit="s")
        self.max_steps_per_frame = V.integer(max_steps_per_frame, "max_steps_per_frame", lo=1)
        self.name = f"ae3d-engine-{next(_engine_ids)}"
        self.time = 0.0  # s of simulated time (fixed steps taken times fixed_dt)
        self.steps = 0  # fixed steps taken
        self.frames = 0  # frames run
        self._accumulator = 0.0
        self._pending_destroy: list[int] = []
        self._closed = False
        self._on_close: list[Callable[[], None]] = []
        self.services: dict[str, Any] = {}  # per-engine singletons of other packages
        # each phase's processors in priority order (esper.process calls every processor with
        # the phase for it to check: twice a frame each, a cost every processor added paid)
        self._phase_lists: dict[str, list[Any]] = {priorities.FIXED: [], priorities.POSE: []}

        from ae3d.physics._world import World  # late import: physics does not import engine

        self.physics = World()
        esper.switch_world(self.name)
        self.add_processor(_PhysicsStep(self), priorities.PHYSICS_STEP)

    # -- esper ---------------------------------------------------------------------------
    def activate(self) -> None:
        """Make this engine's esper world the current one (every call below does this)."""
        self._check_open()
        if esper.current_world != self.name:  # a switch costs a microsecond: only when needed
            esper.switch_world(self.name)

    def add_processor(self, processor: PhaseProcessor, priority: int) -> None:
        """Add a processor to this engine; ``priority`` from ``engine.priorities``."""
        self.activate()
        esper.add_processor(processor, priority)
        procs = esper._processors  # noqa: SLF001 - this world's, in esper's priority order
        for phase, listed in self._phase_lists.items():
            listed[:] = [p for p in procs if getattr(p, "phase", phase) == phase]

    def create(self, *components: Any) -> int:
        """Create an object (an entity) with the given components; returns its handle."""
        self.activate()
        return esper.create_entity(*components)

    def add_component(self, obj: int, component: Any) -> None:
        self._check_object(obj)
        esper.add_component(obj, component)

    def component(self, obj: int, kind: type) -> Any:
        """The object's component of the given type, or None."""
        self._check_object(obj)
        return esper.try_component(obj, kind)

    def objects_with(self, kind: type) -> list[tuple[int, Any]]:
        """Every (object, component) with a component of that type, in creation order."""
        self.activate()
        return sorted(esper.get_component(kind), key=lambda pair: pair[0])

    def exists(self, obj: int) -> bool:
        """True while ``obj`` is an object of this engine not yet destroyed."""
        self.activate()
        return (
            isinstance(obj, int)
            and esper.entity_exists(obj)
            and obj not in self._pending_destroy
        )

    def _check_object(self, obj: Any) -> None:
        self.activate()
        if isinstance(obj, bool) or not isinstance(obj, int):
            raise TypeError(f"object must be an object handle (int), not {type(obj).__name__}")
        if not esper.entity_exists(obj):
            raise ValueError(
                f"object {obj} is not an object of this engine (destroyed or never made)")

    # -- destroying ----------------------------------------------------------------------
    def destroy(self, obj: int) -> None:
        """Destroy an object at the end of the frame (or of the fixed step when stepped directly).

        Every component with a ``release(engine)`` method is released then, in the order it was
        added, and the entity deleted. A second destroy of the same object raises.
        """
        self._check_object(obj)
        if obj in self._pending_destroy:
            raise ValueError(f"object {obj} is already destroyed")
        self._pending_destroy.append(obj)

    def _flush_destroyed(self) -> None:
        if not self._pending_destroy:
            return
        self.activate()
        pending, self._pending_destroy = self._pending_destroy, []
        for obj in pending:
            if not esper.entity_exists(obj):
                continue
            for comp in esper.components_for_entity(obj):
                release = getattr(comp, "release", None)
                if release is not None:
                    release(self)
            esper.delete_entity(obj, immediate=True)

    # -- the frame loop ------------------------------------------------------------------
    def fixed_step(self) -> None:
        """Run the fixed-phase processors once (handover, motion pre-step, physics, post-step)."""
        self._run_phase(priorities.FIXED, self.fixed_dt)
        self.time += self.fixed_dt
        self.steps += 1

    def pose_phase(self, dt: float) -> None:
        """Run the pose-phase processors once (clips, motion pose, skinning, draw)."""
        self._run_phase(priorities.POSE, dt)

    def _run_phase(self, phase: str, dt: float) -> None:
        """``esper.process(phase, dt)`` over the phase's own processors only."""
        self.activate()
        esper.clear_dead_entities()
        for p in self._phase_lists[phase]:
            p.process(phase, dt)

    def frame(self, dt: float) -> int:
        """Advance the engine by ``dt`` seconds of real time; returns the fixed steps taken.

        Time accumulates; a fixed step runs for each ``fixed_dt`` owed (at most
        ``max_steps_per_frame``), then the pose phase once, then destroyed objects are freed.
        """
        dt = V.nonneg(dt, "dt", unit="s")
        self._check_open()
        self._accumulator += dt
        taken = 0
        # a small tolerance so that 60 frames of 1/60 s make exactly 60 steps
        while self._accumulator >= self.fixed_dt * (1.0 - 1e-9):
            if taken == self.max_steps_per_frame:
                self._accumulator = 0.0
                break
            self.fixed_step()
            self._accumulator -= self.fixed_dt
            taken += 1
        if self._accumulator < 0.0:
            self._accumulator = 0.0
        self.pose_phase(dt)
        self._flush_destroyed()
        self.frames += 1
        return taken

    def run(self, seconds: float | None = None, frames: int | None = None,
            frame_dt: float | None = None) -> None:
        """Run frames of ``frame_dt`` (the fixed step by default) for ``seconds`` or ``frames``."""
        if (seconds is None) == (frames is None):
            raise ValueError("give exactly one of seconds= or frames=")
        step = self.fixed_dt if frame_dt is None else V.positive(frame_dt, "frame_dt", unit="s")
        if frames is None:
            frames = int(round(V.nonneg(seconds, "seconds", unit="s") / step))
        else:
            frames = V.integer(frames, "frames", lo=0)
        self._check_open()
        for _ in range(frames):
            self.frame(step)

    # -- closing -------------------------------------------------------------------------
    def on_close(self, callback: Callable[[], None]) -> None:
        """Call ``callback`` when the engine closes (after its objects are released)."""
        self._on_close.append(callback)

    def close(self) -> None:
        """Free every object, the physics world and the esper world. Safe to call twice."""
        if self._closed:
            return
        esper.switch_world(self.name)
        for obj in sorted(esper._entities.keys()):  # noqa: SLF001 - our own world
            if obj not in self._pending_destroy:
                self._pending_destroy.append(obj)
        self._flush_destroyed()
        for callback in self._on_close:
            callback()
        self._on_close.clear()
        self.services.clear()
        esper.switch_world("default")
        esper.delete_world(self.name)
        self.physics = None  # type: ignore[assignment]
        self._closed = True

    @property
    def closed(self) -> bool:
        return self._closed

    def _check_open(self) -> None:
        if self._closed:
            raise RuntimeError("this Engine is closed")

    def __enter__(self) -> Engine:
        return self

    def __exit__(self, *exc: object) -> None:
        self.close()
