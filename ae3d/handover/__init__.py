"""ae3d.handover: the horde hands the zombies that are struck to a pool of active ragdolls, and
takes them back when they recover (spec/motion.md "A horde can't be active ragdolls").

```python
from ae3d import crowd, handover
pool = handover.pool_new(e, "zombie.glb", "Walk", 12)  # the horde's file and its bank's clip
handover.set_horde(pool, pos, yaw, phase, count)       # the horde's columns (the game's arrays)
handover.set_facing(pool, facing)                      # the turn the horde's draw adds (rad)
handover.set_colors(pool, tint)                        # optional: figures wear their zombie's tint
# every frame, the horde's step passes by the zombies handed over
crowd.crowd_step_out(pos, vel, yaw, phase, handover.outs(pool), 0, count, delta, target,
                     bank.speed, bank.duration)
handover.strike(pool, zombie, point, impulse)   # POWERED, hit: falls, gets up, goes back
handover.kill(pool, zombie, point, impulse)     # LIMP: lies, and is despawned
```

The pool's figures are made from the horde's own file (``figure.figure``), given an active
ragdoll (``motion.on_figure``) that gets up by itself (``motion.set_get_up``), and parked
(hidden, clip stopped, every body and anchor out of the world: ``physics.ragdoll_park``).
``handover.step`` runs in the engine's fixed phase (``priorities.HANDOVER_STEP``); it costs
nothing while every figure is parked. How a figure is handed over and taken back, and the
states it goes through: ``_pool``'s docstring.

The horde's columns are the game's and the pool writes them: a zombie handed over has its
``outs`` flag set and its position put a million metres off (``crowd.PARKED``; x and z) so the
renderer's culls drop it; given back, its position, heading and phase are where its figure
stands. Units: m, s, rad, N·s.
"""

from __future__ import annotations

import math
import os
from collections.abc import Callable
from typing import Any

import numpy as np

from ae3d import _validate as V
from ae3d import crowd, figure, motion, physics
from ae3d.engine import priorities

from . import _pool
from ._pool import GET_UP, MUSCLE_BACK, STAND_HEIGHT, STAND_LEAN, STATE_NAMES, Pool, step

_MAX_SIZE = 256


def pool_new(e: Any, path: str | os.PathLike[str], clip: str, size: int) -> Pool:
    """A pool of ``size`` figures of the horde's file ``path`` (found as ``figure.figure``
    finds it), whose bank was baked from ``clip``; each an active ragdoll, parked. The pool's
    step is added to the engine's fixed phase. Raises for a closed engine, a missing file, an
    unknown clip, a rig that gets no ragdoll (not humanoid) or a size outside 1..256."""
    from ae3d.engine import Engine
    if not isinstance(e, Engine):
        raise TypeError(f"e must be an engine.Engine, not {type(e).__name__}")
    if e.closed:
        raise ValueError("e is closed")
    if not isinstance(path, (str, os.PathLike)):
        raise TypeError(f"path must be a file path, not {type(path).__name__}")
    clip = V.text(clip, "clip")
    size = V.integer(size, "size", lo=1, hi=_MAX_SIZE)
    pool = Pool(e, os.fspath(path), clip, size)
    try:
        for k in range(size):
            obj = figure.figure(e, f"handover{k}", path)
            pool.objects.append(obj)
            f = figure.figure_of(e, obj)
            pool.figures.append(f)
            if k == 0:
                if clip not in figure.clips(f):
                    raise ValueError(f"no clip {clip!r} in {path} (there are "
                                     f"{figure.clips(f)})")
                pool.hips = crowd.root_bone(f)
                pool.duration = float(figure.clip_duration(f, clip))
                if not pool.duration > 0.0:
                    raise ValueError(f"clip {clip!r} has no length")
                h0 = figure.pose_world(f, figure.sample(f, clip, 0.0), np.eye(4))[pool.hips]
                pool.offset = h0[[0, 2], 3].copy()
                pool.hips_height = float(h0[1, 3])
                h1 = figure.pose_world(f, figure.sample(f, clip, pool.duration),
                                       np.eye(4))[pool.hips]
                pool.travel = (h1[[0, 2], 3] - h0[[0, 2], 3]) / pool.duration
            figure.play(f, clip, 1.0, True)
            body = motion.on_figure(e, obj)
            if body is None:
                raise ValueError(f"{path} is not a humanoid rig: it gets no active ragdoll")
            pool.bodies.append(body)
            motion.set_get_up(body, GET_UP)
            figure.set_visible(f, False)
            figure.stop(f)
            physics.ragdoll_park(body.ragdoll)
    except Exception:
        for obj in pool.objects:
            if e.exists(obj):
                e.destroy(obj)
        e._flush_destroyed()  # noqa: SLF001 - nothing half-made is left
        raise
    e.add_processor(_pool._Step(e, pool), priorities.HANDOVER_STEP)
    e.add_processor(_pool._Carry(e, pool), priorities.HANDOVER_CARRY)
    e.on_close(lambda: setattr(pool, "closed", True))
    return pool


def _check(pool: Any) -> Pool:
    if not isinstance(pool, Pool):
        raise TypeError(f"pool must be a handover pool (handover.pool_new), not "
                        f"{type(pool).__name__}")
    if pool.closed or pool.engine.closed:
        raise ValueError("pool's engine is closed")
    return pool


def _column(a: Any, name: str, count: int, tail: tuple) -> np.ndarray:
    if not isinstance(a, np.ndarray):
        raise TypeError(f"{name} must be a numpy array (the horde's own column), not "
                        f"{type(a).__name__}")
    if a.dtype != np.float64:
        raise TypeError(f"{name} must be float64, not {a.dtype.name}")
    if a.ndim != 1 + len(tail) or a.shape[1:] != tail or a.shape[0] < count:
        raise ValueError(f"{name} must have at least count = {count} rows of shape {tail}")
    if not a.flags.writeable:
        raise ValueError(f"{name} must be writeable (the pool writes zombies back into it)")
    return a


def set_horde(pool: Pool, pos: np.ndarray, yaw: np.ndarray, phase: np.ndarray,
              count: int) -> None:
    """The horde's columns, the game's own arrays (kept, and written by the pool): ``pos``
    (n, 3) float64 m, ``yaw`` (n,) float64 rad, ``phase`` (n,) float64 0..1; ``count`` zombies
    (the first rows). Zombies already out keep their flags. Call again when the arrays are
    replaced or the count changes."""
    p = _check(pool)
    count = V.integer(count, "count", lo=0)
    pos = _column(pos, "pos", count, (3,))
    yaw = _column(yaw, "yaw", count, ())
    phase = _column(phase, "phase", count, ())
    held = p.zombie[p.zombie >= 0]
    if len(held) and int(held.max()) >= count:
        raise ValueError(f"count {count} would drop zombie {int(held.max())}, which is out")
    outs_ = np.zeros(count, np.uint8)
    dead = np.zeros(count, np.uint8)
    road = np.zeros(count)
    m = min(count, len(p._outs))
    outs_[:m] = p._outs[:m]
    dead[:m] = p._dead[:m]
    road[:m] = p.road[:m]
    p.pos, p.yaw, p.phase, p.count = pos, yaw, phase, count
    p._outs, p._dead, p.road = outs_, dead, road
    if p.tint is not None and len(p.tint) < count:
        p.tint = None


def set_facing(pool: Pool, facing: float) -> None:
    """rad: the turn the horde's draw adds to every heading (``render.horde_set``'s facing)."""
    p = _check(pool)
    p.facing = V.real(facing, "facing", unit="rad")


def set_colors(pool: Pool, tint: Any) -> None:
    """(count, 3) colour multipliers: each figure wears its zombie's tint (None: none)."""
    p = _check(pool)
    if tint is None:
        p.tint = None
        return
    t = np.asarray(tint, dtype=np.float64)
    if t.ndim != 2 or t.shape[1] != 3 or len(t) < p.count:
        raise ValueError(f"tint must be (count, 3) = ({p.count}, 3)")
    if not np.isfinite(t).all():
        raise ValueError("tint must be finite")
    p.tint = t.astype(np.float32)


def outs(pool: Pool) -> np.ndarray:
    """(count,) uint8: 1 for each zombie handed over (or dead), for ``crowd.crowd_step_out``.
    The pool's own array, updated in place (read-only for callers)."""
    return _check(pool)._outs


def is_dead(pool: Pool, zombie: int) -> bool:
    """True for a zombie that was killed: it never comes back to the horde."""
    p = _check(pool)
    return bool(p._dead[_zombie(p, zombie)])


def figure_of(pool: Pool, zombie: int) -> int | None:
    """The object handle of the figure holding ``zombie`` now, or None."""
    p = _check(pool)
    z = _zombie(p, zombie)
    k = np.nonzero(p.zombie == z)[0]
    return p.objects[int(k[0])] if len(k) else None


def state(pool: Pool, k: int) -> str:
    """Figure k's state: "free", "struck", "blending" or "dead"."""
    p = _check(pool)
    k = V.integer(k, "k", lo=0, hi=p.size - 1)
    return STATE_NAMES[int(p.state[k])]


def set_settle(pool: Pool, seconds: float) -> None:
    """s a figure stands back on its feet before it is taken back (0.5 by default)."""
    _check(pool).settle = V.nonneg(seconds, "seconds", unit="s")


def set_despawn(pool: Pool, seconds: float) -> None:
    """s a killed figure lies before it is parked (10 by default; 0 leaves it lying)."""
    _check(pool).despawn = V.nonneg(seconds, "seconds", unit="s")


def set_on_return(pool: Pool, callback: Callable[[int], None] | None) -> None:
    """``callback(zombie)`` is told as a zombie goes back to the horde: its columns already
    hold where it goes back to, its figure not yet parked. None: nobody is told."""
    p = _check(pool)
    if callback is not None and not callable(callback):
        raise TypeError("callback must be callable or None")
    p.on_return = callback


def _zombie(p: Pool, zombie: Any) -> int:
    if p.pos is None:
        raise ValueError("the pool has no horde yet (handover.set_horde)")
    if isinstance(zombie, bool) or not isinstance(zombie, (int, np.integer)):
        raise TypeError(f"zombie must be an int index, not {type(zombie).__name__}")
    z = int(zombie)
    if not 0 <= z < p.count:
        raise ValueError(f"zombie {z} is not in the horde (0..{p.count - 1})")
    return z


def _blow(p: Pool, zombie: Any, point: Any, impulse: Any) -> tuple[int, np.ndarray, np.ndarray]:
    z = _zombie(p, zombie)
    if p._dead[z]:
        raise ValueError(f"zombie {z} is dead")
    if p._outs[z]:
        raise ValueError(f"zombie {z} is already out (handed over)")
    pt = V.position(point, "point")
    imp = V.vector(impulse, "impulse", 3, max_norm=physics.MAX_IMPULSE)
    if not (np.isfinite(p.pos[z]).all() and math.isfinite(p.yaw[z])
            and math.isfinite(p.phase[z])):
        raise ValueError(f"zombie {z}'s position, heading and phase must be finite")
    return z, pt, imp


def strike(pool: Pool, zombie: int, point: Any, impulse: Any) -> int:
    """Hand ``zombie`` to a figure of the pool, POWERED, and hit it at the bone nearest
    ``point`` (3,) m with ``impulse`` (3,) N·s: it falls (or staggers), gets up and goes back.
    Returns the figure's index, or -1 when every figure is falling, lying or getting up (the
    zombie stays in the horde). A full pool frees the figure farthest from ``point`` that is
    not mid-fall first."""
    return _strike(pool, zombie, point, impulse, kill=False)


def kill(pool: Pool, zombie: int, point: Any, impulse: Any) -> int:
    """As ``strike``, but LIMP: it lies, is never given back, and is parked after
    ``set_despawn`` seconds; the zombie stays out of the horde (``is_dead``)."""
    return _strike(pool, zombie, point, impulse, kill=True)


def _strike(pool: Any, zombie: Any, point: Any, impulse: Any, kill: bool) -> int:
    p = _check(pool)
    z, pt, imp = _blow(p, zombie, point, impulse)
    k = _pool.pick_figure(p, pt)
    if k < 0:
        return -1
    _pool.free_figure(p, k)
    _pool.hand_over(p, k, z, pt, imp, kill)
    return k


__all__ = ["GET_UP", "MUSCLE_BACK", "Pool", "STAND_HEIGHT", "STAND_LEAN",
           "STATE_NAMES", "figure_of", "is_dead",
           "kill", "outs", "pool_new", "set_colors", "set_despawn", "set_facing", "set_horde",
           "set_on_return", "set_settle", "state", "step", "strike"]
