"""Animation clips: a glTF animation packed into flat arrays for the njit sampler.

A clip writes only the bones its channels name: sampled into a pose, it leaves every other bone
where it was. Its duration (s) is its last key's time. Sampling clamps outside the keys: the
player (``_figure``) wraps a looping clip's time into [0, duration) itself.
"""

from __future__ import annotations

import math
from dataclasses import dataclass

import numpy as np

from . import _kernels

PATHS = {"translation": _kernels.PATH_TRANSLATION, "rotation": _kernels.PATH_ROTATION,
         "scale": _kernels.PATH_SCALE}
INTERPOLATIONS = {"LINEAR": _kernels.INTERP_LINEAR, "STEP": _kernels.INTERP_STEP,
                  "CUBICSPLINE": _kernels.INTERP_CUBIC}


@dataclass(frozen=True, slots=True)
class Channel:
    """One channel as read from the file (for inspection; the sampler uses the packed arrays)."""

    bone: int  # rig index of the target
    path: str  # "translation" | "rotation" | "scale"
    interpolation: str  # "LINEAR" | "STEP" | "CUBICSPLINE"
    times: np.ndarray  # (k,) s
    values: np.ndarray  # (k, c), or (k, 3, c) for CUBICSPLINE: in-tangent, value, out-tangent


class Clip:
    """A named clip: its channels, duration (s) and packed arrays for the sampler."""

    __slots__ = ("name", "channels", "duration", "start", "bones", "_times", "_values", "_node",
                 "_path", "_interp", "_key0", "_keys", "_value0")

    def __init__(self, name: str, channels: list[Channel]) -> None:
        self.name = name
        self.channels = tuple(channels)
        times: list[np.ndarray] = []
        values: list[np.ndarray] = []
        key0 = []
        value0 = []
        k = 0
        v = 0
        for ch in channels:
            key0.append(k)
            value0.append(v)
            t = np.ascontiguousarray(ch.times, dtype=np.float64).ravel()
            x = np.ascontiguousarray(ch.values, dtype=np.float64).ravel()
            times.append(t)
            values.append(x)
            k += t.size
            v += x.size
        self._times = np.concatenate(times) if times else np.zeros(0)
        self._values = np.concatenate(values) if values else np.zeros(0)
        self._node = np.array([c.bone for c in channels], dtype=np.int32)
        self._path = np.array([PATHS[c.path] for c in channels], dtype=np.int32)
        self._interp = np.array([INTERPOLATIONS[c.interpolation] for c in channels],
                                dtype=np.int32)
        self._key0 = np.array(key0, dtype=np.int64)
        self._keys = np.array([c.times.size for c in channels], dtype=np.int64)
        self._value0 = np.array(value0, dtype=np.int64)
        self.duration = float(self._times.max()) if self._times.size else 0.0
        self.start = float(self._times.min()) if self._times.size else 0.0
        self.bones = tuple(sorted({c.bone for c in channels}))
        for a in (self._times, self._values, self._node, self._path, self._interp, self._key0,
                  self._keys, self._value0):
            a.setflags(write=False)

    def sample_into(self, time: float, translation: np.ndarray, rotation: np.ndarray,
                    scale: np.ndarray) -> None:
        """Write the clip's pose at ``time`` (s, clamped to its keys) into the pose arrays
        (n, 3) m, (n, 4) xyzw, (n, 3); bones the clip does not move are left as they are."""
        if not math.isfinite(time):
            raise ValueError("time must be a finite number of seconds")
        _kernels.sample_channels(self._times, self._values, self._node, self._path,
                                 self._interp, self._key0, self._keys, self._value0,
                                 float(time), translation, rotation, scale)

    def __repr__(self) -> str:
        return f"Clip({self.name!r}, {self.duration:g} s, {len(self.channels)} channels)"
