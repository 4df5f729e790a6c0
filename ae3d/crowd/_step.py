"""The horde's step: ``crowd_step_out``, one njit call over every instance of a horde.

Each instance walks toward its target (turning toward it at a bounded rate), its phase advanced
by the clip's own speed, pushed apart from its neighbours so the horde does not stack; an
instance whose ``out`` flag is set (handed over to the pool, ``ae3d.handover``) is passed by:
not moved, not advanced, and no neighbour of anyone.

Heading: ``yaw`` (rad about +y) faces an instance along (sin yaw, 0, cos yaw), as
``figure.place`` turns a figure's +z; the draw adds the horde's ``facing`` on top.
Separation: a uniform grid of cells of the separation distance, hashed, so a step is O(n).
Units: m, s, rad, m/s.
"""

from __future__ import annotations

import math

import numpy as np
from numba import njit

PARKED = 1.0e6
"""m: where an out instance is put (x and z), past every cull and the far plane, so the
renderer's CPU sort and the device's drop it without a change to either."""

_HASH_MUL_X = 73856093
_HASH_MUL_Z = 19349663


@njit(cache=True)
def _wrap(a):
    """An angle (rad) into (-pi, pi]."""
    return a - 2.0 * math.pi * math.floor((a + math.pi) / (2.0 * math.pi))


@njit(cache=True)
def _cell_key(x, z, inv, mask):
    cx = int(math.floor(x * inv))
    cz = int(math.floor(z * inv))
    return ((cx * _HASH_MUL_X) ^ (cz * _HASH_MUL_Z)) & mask, cx, cz


@njit(cache=True)
def step_kernel(pos, vel, yaw, phase, outs, first, count, delta, target, speed, duration,
                rate, turn_rate, spacing, push, arrive):
    """The step of instances first..first+count (see ``crowd_step_out``); ``target`` (m, 3):
    one row for all (m = 1) or one each. Returns the number of instances stepped (not out), or
    -1 with nothing written when a stepped instance's position, heading, phase or target is
    not finite."""
    hi = first + count
    one = target.shape[0] == 1
    for i in range(first, hi):
        if outs[i]:
            continue
        t = 0 if one else i
        if not (math.isfinite(pos[i, 0]) and math.isfinite(pos[i, 1])
                and math.isfinite(pos[i, 2]) and math.isfinite(yaw[i])
                and math.isfinite(phase[i]) and math.isfinite(target[t, 0])
                and math.isfinite(target[t, 2])):
            return -1
    # the grid: instances hashed into cells of ``spacing`` (m), counting sort by key
    size = 1
    while size < 2 * count:
        size *= 2
    mask = size - 1
    inv = 1.0 / spacing
    start = np.zeros(size + 1, np.int64)
    keys = np.full(count, -1, np.int64)
    for k in range(count):
        i = first + k
        if outs[i]:
            continue
        key, _, _ = _cell_key(pos[i, 0], pos[i, 2], inv, mask)
        keys[k] = key
        start[key + 1] += 1
    for c in range(size):
        start[c + 1] += start[c]
    fill = start[:size].copy()
    order = np.empty(count, np.int64)
    used = 0
    for k in range(count):
        if keys[k] >= 0:
            order[fill[keys[k]]] = first + k
            fill[keys[k]] += 1
            used += 1
    stepped = 0
    spacing2 = spacing * spacing
    for i in range(first, hi):
        if outs[i]:
            continue
        stepped += 1
        # turn toward the target, at most turn_rate·delta
        t = 0 if one else i
        dx = target[t, 0] - pos[i, 0]
        dz = target[t, 2] - pos[i, 2]
        dist = math.sqrt(dx * dx + dz * dz)
        walking = dist > arrive
        if walking:
            want = math.atan2(dx, dz)
            d = _wrap(want - yaw[i])
            lim = turn_rate * delta
            if d > lim:
                d = lim
            elif d < -lim:
                d = -lim
            yaw[i] = _wrap(yaw[i] + d)
        v = speed * rate if walking else 0.0
        vx = math.sin(yaw[i]) * v
        vz = math.cos(yaw[i]) * v
        # separation: every neighbour nearer than ``spacing`` pushes, harder the nearer
        _, cx, cz = _cell_key(pos[i, 0], pos[i, 2], inv, mask)
        sx = 0.0
        sz = 0.0
        for ox in range(-1, 2):
            for oz in range(-1, 2):
                key = (((cx + ox) * _HASH_MUL_X) ^ ((cz + oz) * _HASH_MUL_Z)) & mask
                for s in range(start[key], start[key + 1]):
                    j = order[s]
                    if j == i:
                        continue
                    ex = pos[i, 0] - pos[j, 0]
                    ez = pos[i, 2] - pos[j, 2]
                    d2 = ex * ex + ez * ez
                    if d2 >= spacing2:
                        continue
                    if d2 < 1e-12:  # the same spot: part them by index, the same every run
                        ex = 1.0e-3 if i < j else -1.0e-3
                        ez = 0.0
                        d2 = 1.0e-6
                    dd = math.sqrt(d2)
                    w = push * (spacing - dd) / (spacing * dd)
                    sx += ex * w
                    sz += ez * w
        vel[i, 0] = vx + sx
        vel[i, 1] = 0.0
        vel[i, 2] = vz + sz
        # the clip plays at ``rate`` times its own speed while walking; standing, the same
        # (an idle still breathes)
        phase[i] = phase[i] + delta * rate / duration
        phase[i] -= math.floor(phase[i])
    # move after every push is known, so the order of the instances changes nothing
    for i in range(first, hi):
        if outs[i]:
            continue
        pos[i, 0] += vel[i, 0] * delta
        pos[i, 2] += vel[i, 2] * delta
    return stepped


def _column(a, name, n, shape_tail, dtype):
    if not isinstance(a, np.ndarray):
        raise TypeError(f"{name} must be a numpy array, not {type(a).__name__}")
    if a.dtype != dtype:
        raise TypeError(f"{name} must be {np.dtype(dtype).name}, not {a.dtype.name}")
    if a.ndim != 1 + len(shape_tail) or a.shape[1:] != shape_tail or a.shape[0] < n:
        raise ValueError(f"{name} must be ({n}{''.join(', ' + str(s) for s in shape_tail)}) "
                         f"or longer (first + count = {n}), not {a.shape}")
    if not a.flags.c_contiguous or not a.flags.writeable:
        raise ValueError(f"{name} must be C-contiguous and writeable")


def _number(x, name, lo, unit, strict=False):
    if isinstance(x, bool) or not isinstance(x, (int, float, np.integer, np.floating)):
        raise TypeError(f"{name} must be a number ({unit}), not {type(x).__name__}")
    v = float(x)
    if not math.isfinite(v) or v < lo or (strict and v == lo):
        rel = ">" if strict else ">="
        raise ValueError(f"{name} must be finite and {rel} {lo} {unit}, not {x!r}")
    return v


def crowd_step_out(pos: np.ndarray, vel: np.ndarray, yaw: np.ndarray, phase: np.ndarray,
                   outs: np.ndarray, first: int, count: int, delta: float, target,
                   speed: float, duration: float, rate: float = 1.0, turn_rate: float = 2.0,
                   spacing: float = 0.7, push: float = 2.0, arrive: float = 0.5) -> int:
    """Step the horde's instances ``first`` .. ``first + count - 1`` by ``delta`` seconds, in
    one njit call; every instance whose ``outs`` flag is set is passed by (not moved, not
    advanced, no one's neighbour). The arrays are the game's, changed in place.

    Args:
        pos: (n, 3) float64 m, each instance's position (its y is left as it is).
        vel: (n, 3) float64 m/s, written: the velocity each stepped instance moved at.
        yaw: (n,) float64 rad about +y, each instance's heading (it faces (sin yaw, 0, cos yaw)).
        phase: (n,) float64, 0..1, where in the clip's loop each instance is.
        outs: (n,) uint8 (or bool), 1: handed over (``handover.outs(pool)``), passed by.
        first, count: the instances stepped.
        delta: s, the step.
        target: (3,) m one point every instance walks toward, or (n, 3) m one each.
        speed: m/s, the clip's own ground speed (``PoseBank.speed``: what it travels in a loop
            over its duration) at ``rate`` 1.
        duration: s, the clip's loop (``PoseBank.duration``).
        rate: how fast the clip plays (1 as made): the walk is ``speed·rate`` m/s and the phase
            advances ``delta·rate/duration`` a step, so the feet do not slide.
        turn_rate: rad/s, the fastest an instance turns toward its target.
        spacing: m, instances nearer than this push each other apart.
        push: m/s, how hard two instances on the same spot part (linear to 0 at ``spacing``).
        arrive: m, an instance this near its target stops walking (its clip still plays).
    Returns the number of instances stepped. Bad input raises TypeError/ValueError before any
    array is written.
    """
    first_i = _int(first, "first")
    count_i = _int(count, "count")
    n = first_i + count_i
    _column(pos, "pos", n, (3,), np.float64)
    _column(vel, "vel", n, (3,), np.float64)
    _column(yaw, "yaw", n, (), np.float64)
    _column(phase, "phase", n, (), np.float64)
    if not isinstance(outs, np.ndarray):
        raise TypeError(f"outs must be a numpy array, not {type(outs).__name__}")
    if outs.dtype == np.bool_:
        outs = outs.view(np.uint8)
    if outs.dtype != np.uint8 or outs.ndim != 1 or outs.shape[0] < n:
        raise ValueError(f"outs must be ({n},) uint8 or bool or longer (first + count = {n})")
    delta_f = _number(delta, "delta", 0.0, "s")
    speed_f = _number(speed, "speed", 0.0, "m/s")
    duration_f = _number(duration, "duration", 0.0, "s", strict=True)
    rate_f = _number(rate, "rate", 0.0, "")
    turn_f = _number(turn_rate, "turn_rate", 0.0, "rad/s")
    spacing_f = _number(spacing, "spacing", 0.0, "m", strict=True)
    push_f = _number(push, "push", 0.0, "m/s")
    arrive_f = _number(arrive, "arrive", 0.0, "m")
    t = np.asarray(target, dtype=np.float64)
    if t.shape == (3,):
        t = t.reshape(1, 3)
    elif t.ndim != 2 or t.shape[1] != 3 or t.shape[0] < n:
        raise ValueError(f"target must be (3,) or ({n}, 3) m, not {t.shape}")
    if not np.isfinite(t).all():
        raise ValueError("target must be finite")
    if count_i == 0:
        return 0
    stepped = int(step_kernel(pos, vel, yaw, phase, outs, first_i, count_i, delta_f, t,
                              speed_f, duration_f, rate_f, turn_f, spacing_f, push_f, arrive_f))
    if stepped < 0:
        raise ValueError("pos, yaw, phase and target must be finite (for every instance "
                         "stepped)")
    return stepped


def _int(x, name):
    if isinstance(x, bool) or not isinstance(x, (int, np.integer)):
        raise TypeError(f"{name} must be an int, not {type(x).__name__}")
    if int(x) < 0:
        raise ValueError(f"{name} must be >= 0, not {x}")
    return int(x)


__all__ = ["PARKED", "crowd_step_out", "step_kernel"]
