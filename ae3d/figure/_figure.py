"""Figures in an engine: the shared file cache, the Figure component, playing and animating.

Files are parsed once per process and shared: a cache keyed by absolute path, counted by the
figures that use it. A figure releases its file when its object is destroyed (at the end of the
frame) or its engine closes; the file's model is freed when its count reaches zero.

Per engine, ``e.services["figure"]`` holds the figures by object and the animate processor
(pose phase, ``priorities.FIGURE_ANIMATE``), registered the first time a figure is made there.
"""

from __future__ import annotations

import math
import os
import weakref
from collections.abc import Callable
from typing import Any

import esper
import numpy as np

from ae3d import _validate as V
from ae3d.engine import Engine, PhaseProcessor, priorities

from . import _kernels
from ._clips import Clip
from ._gltf import Mesh, Model, Skin, load_model
from ._rig import Rig

# -- the file cache -----------------------------------------------------------------------------
_models: dict[str, Model] = {}
_model_users: dict[str, int] = {}
_model_freed_listeners: list[Callable[[Model], None]] = []


# the repository's assets/ (a checkout or an editable install): where a relative name that is
# not found from the working directory is looked for next, as the spec's "zombie.glb"
ASSETS_DIR = os.path.join(os.path.dirname(os.path.dirname(os.path.dirname(
    os.path.abspath(__file__)))), "assets")


def resolve_path(path: str) -> str:
    """The absolute path of a figure file: as given, or for a relative path not found from the
    working directory, in the repository's assets/ (``assets/zombie.glb`` or ``zombie.glb``).
    FileNotFoundError naming the places looked in when it is nowhere."""
    p = os.fspath(path)
    if os.path.exists(p) or os.path.isabs(p):
        if not os.path.exists(p):
            raise FileNotFoundError(f"figure file not found: {p}")
        return os.path.abspath(p)
    tries = [os.path.abspath(p), os.path.join(ASSETS_DIR, p)]
    parts = os.path.normpath(p).split(os.sep)
    if len(parts) > 1 and parts[0] == "assets":
        tries.append(os.path.join(ASSETS_DIR, *parts[1:]))
    for t in tries[1:]:
        if os.path.exists(t):
            return t
    raise FileNotFoundError(f"figure file not found: {p} (looked in {', '.join(tries)})")


def _acquire_model(path: str) -> Model:
    key = resolve_path(path)
    model = _models.get(key)
    if model is None:
        model = load_model(key)
        _models[key] = model
        _model_users[key] = 0
    _model_users[key] += 1
    return model


def _release_model(model: Model) -> None:
    key = model.path
    if _models.get(key) is not model:
        return
    _model_users[key] -= 1
    if _model_users[key] <= 0:
        del _models[key]
        del _model_users[key]
        for fn in list(_model_freed_listeners):
            fn(model)


def loaded_files() -> dict[str, int]:
    """Absolute path -> number of figures using it, for every file now parsed and held."""
    return dict(_model_users)


def on_model_freed(callback: Callable[[Model], None]) -> None:
    """Call ``callback(model)`` whenever a file's model is freed (its last figure gone); a
    renderer drops the model's GPU meshes then."""
    _model_freed_listeners.append(callback)


# -- the component ------------------------------------------------------------------------------
class Figure:
    """A figure: the component an object wears. Its arrays are for reading (see the package
    docstring); change the pose through ``rig.translation/rotation/scale`` or the play calls.

    Attributes: name; obj (the object handle); engine; model (the shared parsed file:
    ``model.meshes``, ``model.skins``, ``model.clips``); rig (this figure's own Rig);
    clip (the playing clip's name or None); time (s, its time); speed; loop; playing; visible.
    """

    __slots__ = ("name", "obj", "engine", "model", "rig", "clip", "time", "speed", "loop",
                 "_playing", "visible", "released", "__weakref__")

    def __init__(self, engine: Engine, name: str, model: Model) -> None:
        self.name = name
        self.obj = -1
        self.engine = engine
        self.model = model
        self.rig = Rig(model.rig)
        self.clip: str | None = None
        self.time = 0.0
        self.speed = 1.0
        self.loop = True
        self._playing = False
        self.visible = True
        self.released = False

    @property
    def playing(self) -> bool:
        return self._playing

    @playing.setter
    def playing(self, on: bool) -> None:
        # the engine's figures playing kept beside the figures (``_Service.playing``): the
        # pose phase passes by a frame with none (a parked hand-over pool's, issue 16)
        on = bool(on)
        self._playing = on
        svc = self.engine.services.get("figure")
        if svc is not None:
            if on:
                svc.playing[id(self)] = self
            else:
                svc.playing.pop(id(self), None)

    @property
    def meshes(self) -> list[Mesh]:
        return self.model.meshes

    @property
    def skins(self) -> list[Skin]:
        return self.model.skins

    @property
    def clips(self) -> dict[str, Clip]:
        return self.model.clips

    def release(self, engine: Engine) -> None:
        """Called by the engine when the object is destroyed (end of frame) or it closes."""
        if self.released:
            return
        self.released = True
        svc: _Service | None = engine.services.get("figure")
        if svc is not None:
            svc.figures.pop(self.obj, None)
            svc.playing.pop(id(self), None)
            for fn in list(svc.release_listeners):
                fn(self)
        _release_model(self.model)
        self.playing = False

    def __repr__(self) -> str:
        state = "released" if self.released else (self.clip or "no clip")
        return f"Figure({self.name!r}, object {self.obj}, {state})"


# -- per engine ---------------------------------------------------------------------------------
class _Service:
    def __init__(self, engine: Engine) -> None:
        self.figures: dict[int, Figure] = {}
        self.playing: dict[int, Figure] = {}  # id -> the figures whose clip plays
        self.release_listeners: list[Callable[[Figure], None]] = []
        engine.add_processor(_Animate(engine), priorities.FIGURE_ANIMATE)


# esper world name -> that engine's service, for figure_of(obj) with no engine
_by_world: weakref.WeakValueDictionary[str, _Service] = weakref.WeakValueDictionary()


def _service(e: Engine) -> _Service:
    svc = e.services.get("figure")
    if svc is None:
        svc = _Service(e)
        e.services["figure"] = svc
        _by_world[e.name] = svc
        name = e.name

        def forget() -> None:
            _by_world.pop(name, None)

        e.on_close(forget)
    return svc


class _Animate(PhaseProcessor):
    """Pose phase: advance each playing clip by dt·speed, sample it into the rig and bring the
    rig's world matrices up to date. A figure not playing costs nothing here (a parked pool
    figure): whoever else writes a rig updates its world (the play calls, ``place`` and
    ``reset_pose`` do)."""

    phase = priorities.POSE

    def run(self, engine: Engine, dt: float) -> None:
        svc: _Service | None = engine.services.get("figure")
        if svc is None or not svc.playing:
            return
        # only the figures playing (a clip's end stops its figure: the list is taken first)
        for f in list(svc.playing.values()):
            _advance(f, dt)
            f.rig.update_world()


def _advance(f: Figure, dt: float) -> None:
    clip = f.model.clips[f.clip]  # type: ignore[index]
    t = f.time + dt * f.speed
    d = clip.duration
    if f.loop:
        t = math.fmod(t, d) if d > 0.0 else 0.0
        if t < 0.0:
            t += d
    elif t >= d or t <= 0.0:
        t = min(max(t, 0.0), d)
        f.playing = False
    f.time = t
    clip.sample_into(t, f.rig.translation, f.rig.rotation, f.rig.scale)


# -- the API ------------------------------------------------------------------------------------
def _check_engine(e: Any) -> Engine:
    if not isinstance(e, Engine):
        raise TypeError(f"e must be an Engine, not {type(e).__name__}")
    return e


def make_figure(e: Engine, name: str, path: str | os.PathLike[str]) -> int:
    _check_engine(e)
    if e.closed:
        raise ValueError("e is closed: a figure is made in an open Engine")
    if not isinstance(name, str):
        raise TypeError("name must be a str")
    if not isinstance(path, str | os.PathLike):
        raise TypeError(f"path must be a str or a path, not {type(path).__name__}")
    model = _acquire_model(os.fspath(path))
    try:
        svc = _service(e)
        f = Figure(e, name, model)
        obj = e.create(f)
    except BaseException:
        _release_model(model)
        raise
    f.obj = obj
    svc.figures[obj] = f
    return obj


def figure_of(*args: Any) -> Figure:
    if len(args) == 1:
        e = None
        obj = args[0]
    elif len(args) == 2:
        e, obj = args
        _check_engine(e)
        if e.closed:
            raise ValueError(f"e is closed: object {obj!r} wears no figure in it any more")
    else:
        raise TypeError("figure_of(object) or figure_of(e, object)")
    if isinstance(obj, Figure):
        return obj
    if isinstance(obj, bool) or not isinstance(obj, int | np.integer):
        raise TypeError(f"object must be an object handle (int), not {type(obj).__name__}")
    obj = int(obj)
    if e is None:
        svc = _by_world.get(esper.current_world)
        if svc is None:
            raise ValueError(f"object {obj} wears no figure (no engine with figures is current;"
                             " pass the engine: figure_of(e, object))")
    else:
        svc = e.services.get("figure")
    f = svc.figures.get(obj) if svc is not None else None
    if f is None:
        raise ValueError(f"object {obj} wears no figure")
    return f


def figures(e: Engine) -> list[Figure]:
    svc: _Service | None = _check_engine(e).services.get("figure")
    return [] if svc is None else list(svc.figures.values())


def on_release(e: Engine, callback: Callable[[Figure], None]) -> None:
    _service(_check_engine(e)).release_listeners.append(callback)


def check_figure(f: Any) -> Figure:
    if not isinstance(f, Figure):
        raise TypeError(f"f must be a Figure (figure.figure_of(object)), not {type(f).__name__}")
    if f.released:
        raise ValueError(f"figure {f.name!r} is released (its object was destroyed)")
    return f


def get_clip(f: Figure, clip: str) -> Clip:
    if not isinstance(clip, str):
        raise TypeError(f"clip must be a clip's name (str), not {type(clip).__name__}")
    try:
        return f.model.clips[clip]
    except (KeyError, TypeError):
        raise ValueError(f"figure {f.name!r} has no clip {clip!r} "
                         f"(it has {sorted(f.model.clips)})") from None


def play(f: Figure, clip: str, speed: float = 1.0, loop: bool = True) -> None:
    check_figure(f)
    c = get_clip(f, clip)
    speed = V.real(speed, "speed")
    loop = V.boolean(loop, "loop")
    f.clip = c.name
    f.speed = speed
    f.loop = loop
    f.time = 0.0 if speed >= 0.0 or not loop else c.duration
    f.playing = True
    c.sample_into(f.time, f.rig.translation, f.rig.rotation, f.rig.scale)
    f.rig.update_world()


def set_time(f: Figure, time: float) -> None:
    check_figure(f)
    if f.clip is None:
        raise ValueError(f"figure {f.name!r} has no clip to set the time of")
    time = V.real(time, "time", unit="s")
    c = f.model.clips[f.clip]
    if f.loop and c.duration > 0.0:
        time = math.fmod(time, c.duration)
        if time < 0.0:
            time += c.duration
    else:
        time = min(max(time, 0.0), c.duration)
    f.time = time
    c.sample_into(time, f.rig.translation, f.rig.rotation, f.rig.scale)
    f.rig.update_world()


def skinning_matrices(f: Figure, skin: int = 0, update: bool = True,
                      out: np.ndarray | None = None) -> np.ndarray:
    sk = f.model.skins[skin]
    if update:
        f.rig.update_world()
    if out is None:
        out = np.empty((sk.bones.size, 4, 4))
    _kernels.skinning_matrices(f.rig.world, sk.bones, sk.inverse_binds, out)
    return out
