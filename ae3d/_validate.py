"""Checking a public call's arguments: the one place every façade takes its checks from.

Each check returns the value as the world stores it (a float, an int, a bool, a fresh float64
array) or raises naming the argument: ``TypeError`` for a value of the wrong kind (a string, a
bool where a number goes, a complex number, None), ``ValueError`` for a right kind that is wrong
(non-finite, the wrong shape, past a limit of ``ae3d.limits``, with the limit in the message).
Nothing is converted silently: ``'0.5'``, ``True``, ``1+0j`` and ``['1', '2', '3']`` are refused,
and an array must have exactly the shape asked for ((3, 1) is not (3,)).
"""

from __future__ import annotations

import math
from collections.abc import Sequence
from typing import Any

import numpy as np

from . import limits

_REAL = (int, float, np.integer, np.floating)


def _fmt(x: float) -> str:
    return f"{x:g}"


def _named(limit: str | None) -> str:
    """' (ae3d.limits.NAME)' for a bound that is one of the documented limits."""
    return f" (ae3d.limits.{limit})" if limit else ""


def real(x: Any, name: str, *, lo: float | None = None, hi: float | None = None,
         lo_open: bool = False, unit: str = "", lo_limit: str | None = None,
         hi_limit: str | None = None) -> float:
    """``x`` as a finite float in [lo, hi] (lo excluded with ``lo_open``). ``lo_limit`` and
    ``hi_limit`` name ``ae3d.limits`` constants: the bounds (where ``lo``/``hi`` are not given),
    named in the message."""
    if lo is None and lo_limit is not None:
        lo = getattr(limits, lo_limit)
    if hi is None and hi_limit is not None:
        hi = getattr(limits, hi_limit)
    if isinstance(x, np.ndarray) and x.shape == () and x.dtype.kind in "iuf":
        x = x[()]  # a 0-d array of a real number is that number (numpy's reductions give them)
    if isinstance(x, bool | np.bool_) or not isinstance(x, _REAL):
        raise TypeError(f"{name} must be a real number, not {type(x).__name__}")
    v = float(x)
    if not math.isfinite(v):
        raise ValueError(f"{name} must be finite, not {v}")
    u = f" {unit}" if unit else ""
    if lo is not None and (v <= lo if lo_open else v < lo):
        rel = "greater than" if lo_open else "at least"
        raise ValueError(f"{name} must be {rel} {_fmt(lo)}{u}{_named(lo_limit)}; it is {_fmt(v)}")
    if hi is not None and v > hi:
        raise ValueError(f"{name} must be at most {_fmt(hi)}{u}{_named(hi_limit)}; it is {_fmt(v)}")
    return v


def positive(x: Any, name: str, *, hi: float | None = None, unit: str = "",
             hi_limit: str | None = None) -> float:
    """A finite real number greater than 0 (at most ``hi``)."""
    return real(x, name, lo=0.0, lo_open=True, hi=hi, unit=unit, hi_limit=hi_limit)


def nonneg(x: Any, name: str, *, hi: float | None = None, unit: str = "",
           hi_limit: str | None = None) -> float:
    """A finite real number at least 0 (at most ``hi``)."""
    return real(x, name, lo=0.0, hi=hi, unit=unit, hi_limit=hi_limit)


def integer(x: Any, name: str, *, lo: int | None = None, hi: int | None = None) -> int:
    """``x`` as an int (a Python or numpy integer, not a bool, not a float) in [lo, hi]."""
    if isinstance(x, bool | np.bool_) or not isinstance(x, int | np.integer):
        raise TypeError(f"{name} must be an int, not {type(x).__name__}")
    v = int(x)
    if lo is not None and v < lo:
        raise ValueError(f"{name} must be at least {lo}; it is {v}")
    if hi is not None and v > hi:
        raise ValueError(f"{name} must be at most {hi}; it is {v}")
    return v


def boolean(x: Any, name: str) -> bool:
    """``x``, which must be a bool (True or False: ``'no'`` and 1 are refused)."""
    if not isinstance(x, bool | np.bool_):
        raise TypeError(f"{name} must be True or False, not {type(x).__name__} {x!r}")
    return bool(x)


def _leaves_ok(x: Any, name: str, depth: int = 0) -> None:
    """Refuse strings, bools, complex numbers and None anywhere in a nested list or tuple (numpy
    would turn '1' and True into numbers, or the array into strings)."""
    if isinstance(x, str | bytes):
        raise TypeError(f"{name} must be real numbers, not a {type(x).__name__} ({x!r})")
    if isinstance(x, bool | np.bool_):
        raise TypeError(f"{name} must be real numbers, not a bool")
    if isinstance(x, complex | np.complexfloating):
        raise TypeError(f"{name} must be real numbers, not complex")
    if x is None:
        raise TypeError(f"{name} must be real numbers, not None")
    if isinstance(x, list | tuple) and depth < 4:
        for v in x:
            _leaves_ok(v, name, depth + 1)


def array(x: Any, name: str, shape: tuple[int, ...], *, unit: str = "") -> np.ndarray:
    """``x`` as a fresh, finite float64 array of exactly ``shape``."""
    _leaves_ok(x, name)
    try:
        a = np.asarray(x)
    except (TypeError, ValueError):
        raise TypeError(f"{name} must be an array of real numbers of shape {shape}") from None
    if a.dtype.kind not in "iuf":
        kind = {"b": "bools", "c": "complex numbers", "U": "strings", "S": "bytes"}.get(
            a.dtype.kind, f"{a.dtype} values")
        raise TypeError(f"{name} must be real numbers, not {kind}")
    if a.shape != shape:
        raise ValueError(f"{name} must have shape {shape}, not {a.shape}")
    a = a.astype(np.float64)  # a copy: the caller's array is never kept
    if not np.all(np.isfinite(a)):
        raise ValueError(f"{name} must be finite")
    return a


def vector(x: Any, name: str, n: int = 3, *, max_norm: float | None = None,
           unit: str = "", limit: str | None = None) -> np.ndarray:
    """``x`` as a fresh finite float64 (n,) vector, its length at most ``max_norm`` (the
    ``ae3d.limits`` constant ``limit``, named in the message)."""
    a = array(x, name, (n,), unit=unit)
    if max_norm is None and limit is not None:
        max_norm = getattr(limits, limit)
    if max_norm is not None:
        big = float(np.max(np.abs(a)))  # the length without overflow: 1e300 squared is inf
        size = big * float(np.linalg.norm(a / big)) if big > 0.0 else 0.0
        if size > max_norm:
            u = f" {unit}" if unit else ""
            raise ValueError(f"{name} must be at most {_fmt(max_norm)}{u} long"
                             f"{_named(limit)}; it is {_fmt(size)}")
    return a


def position(x: Any, name: str = "position") -> np.ndarray:
    """A point (3,) m within the world's extent (each coordinate at most WORLD_EXTENT)."""
    a = array(x, name, (3,), unit="m")
    big = float(np.max(np.abs(a)))
    if big > limits.WORLD_EXTENT:
        raise ValueError(f"{name} must be within {_fmt(limits.WORLD_EXTENT)} m of the origin "
                         f"(ae3d.limits.WORLD_EXTENT); it reaches {_fmt(big)} m")
    return a


def quaternion(x: Any, name: str = "rotation") -> np.ndarray:
    """A rotation (x, y, z, w), non-zero, normalized here."""
    q = array(x, name, (4,))
    nq = float(np.linalg.norm(q))
    if nq < 1e-9:
        raise ValueError(f"{name} must be a non-zero quaternion (x, y, z, w)")
    return q / nq


def pair(x: Any, name: str) -> tuple[Any, Any]:
    """A sequence of exactly two items (a (position, rotation) pose, a (lo, hi) range)."""
    if isinstance(x, str | bytes) or not isinstance(x, Sequence | np.ndarray) or len(x) != 2:
        raise TypeError(f"{name} must be a pair of two items, not {type(x).__name__}")
    return x[0], x[1]


def text(x: Any, name: str) -> str:
    if not isinstance(x, str):
        raise TypeError(f"{name} must be a str, not {type(x).__name__}")
    return x
