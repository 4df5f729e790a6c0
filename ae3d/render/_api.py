"""The façade's functions (re-exported by ``ae3d.render``)."""

from __future__ import annotations

import math
import os
from collections.abc import Callable
from typing import Any

import numpy as np

from ae3d import crowd
from ae3d.engine import PhaseProcessor, priorities

from ._mesh import SkinnedMesh
from ._renderer import Pick, Renderer
from ._scene import Body, FigureItem, Horde, Scene

_KEY = "render"


class _DrawSync(PhaseProcessor):
    """Pose phase, DRAW: moves a following camera and lets go of destroyed figures."""

    phase = priorities.POSE

    def run(self, engine, dt: float) -> None:
        s: Scene = engine.services[_KEY]
        s.sync()
        s.camera.update(dt)


def scene(e) -> Scene:
    """The engine's Scene (made on first use): camera, light, figures, hordes, overlays."""
    s = e.services.get(_KEY)
    if s is None:
        s = Scene(e)
        e.services[_KEY] = s
        e.add_processor(_DrawSync(e), priorities.DRAW)
        e.on_close(lambda: _close_scene(s))
    return s


def _current(ctx) -> None:
    """Make the headless context current and leave it so (a window's context may have been):
    a Renderer's calls draw on whatever context is current."""
    ctx.mglo.__enter__()


def _close_scene(s: Scene) -> None:
    for r in s._renderers:
        _current(r.ctx)
        r.release()
    s._renderers.clear()
    s.figures.clear()
    s.hordes.clear()
    s.engine = None


# -------------------------------------------------------------------------------- figures
def add_figure(e, obj: int | None, mesh: SkinnedMesh, pose: Any,
               tint=(1.0, 1.0, 1.0)) -> FigureItem:
    """Draw a skinned figure.

    Args:
        obj: the figure's object handle; once the object is destroyed (engine.destroy) the
            figure leaves the renderer and its GPU buffers are freed. None: drawn until
            ``remove_figure``.
        mesh: its SkinnedMesh.
        pose: the rig's world matrices (bones, 4, 4) m, read every frame: a callable returning
            them, an object with a ``world`` attribute, or an array (updated in place).
        tint: (3,) multiplier of the mesh's colours.
    """
    if obj is not None and not e.exists(obj):
        raise ValueError(f"object {obj} is not an object of this engine")
    return scene(e).add_figure(obj, mesh, pose, tint)


def remove_figure(e, figure: FigureItem) -> None:
    """Stop drawing a figure added with ``add_figure``."""
    scene(e).remove_figure(figure)


# -------------------------------------------------------------------------------- hordes
def bake_bank(mesh: SkinnedMesh, worlds) -> np.ndarray:
    """A pose bank from a clip's rig poses: ``worlds`` (frames, bones, 4, 4) m, the rig's world
    matrices at evenly spaced times over one loop of the clip, baked in place (the root's travel
    taken out: ``crowd.posebank_bake_in_place``). Returns (frames, joints, 4, 4) float32
    skinning matrices for ``horde_new``."""
    w = np.asarray(worlds, dtype=np.float64)
    if w.ndim != 4 or w.shape[2:] != (4, 4) or len(w) == 0:
        raise ValueError("worlds must be (frames, bones, 4, 4)")
    if not np.isfinite(w).all():
        raise ValueError("worlds must be finite")
    return crowd.skinning_bank(w, mesh.joint_bones, mesh.inverse_bind)


def figure_mesh(f: Any, skin: int = 0) -> SkinnedMesh:
    """The SkinnedMesh of a glTF figure (an ``ae3d.figure`` Figure or its file's Model): the
    primitives of skin ``skin`` merged, their base colours as vertex colours. Shared per file."""
    from ._figures import model_meshes

    model = getattr(f, "model", f)
    for m in model_meshes(model):
        if m.source[1] == skin:
            return m
    raise ValueError(f"the figure has no triangles skinned to skin {skin}")


def bank_from_clip(f: Any, clip: str, frames: int = 30, skin: int = 0) -> np.ndarray:
    """A pose bank (frames, joints, 4, 4) float32 of a glTF figure's ``clip``: ``frames`` poses
    evenly over one loop, baked in place (the hips' travel over the ground taken out:
    ``crowd.posebank_sample`` and ``crowd.posebank_bake_in_place``), for
    ``horde_new(e, figure_mesh(f), bank, ...)``. The figure is not changed."""
    if not (isinstance(frames, int) and frames >= 1):
        raise ValueError("frames must be a positive int")
    mesh = figure_mesh(f, skin)
    bank = crowd.posebank_bake_in_place(crowd.posebank_sample(f, clip, frames, skin))
    return crowd.posebank_skinning(bank, mesh.joint_bones, mesh.inverse_bind)


def horde_new(e, mesh: SkinnedMesh, bank, capacity: int, name: str = "horde") -> Horde:
    """A horde: up to ``capacity`` instances of ``mesh`` drawn in one instanced draw.

    Args:
        bank: (frames, joints, 4, 4) skinning matrices (m) of one loop of a clip baked in place
            (``bake_bank``); an instance at phase p (0..1) shows the bank at p·frames, blended
            between the two nearest frames.
    Set the instances with ``horde_set``.
    """
    b = np.asarray(bank, dtype=np.float32)
    if b.ndim != 4 or b.shape[2:] != (4, 4) or b.shape[0] < 1:
        raise ValueError("bank must be (frames, joints, 4, 4)")
    if b.shape[1] != mesh.joint_count:
        raise ValueError(f"bank has {b.shape[1]} joints, the mesh's skin {mesh.joint_count}")
    if not np.isfinite(b).all():
        raise ValueError("bank must be finite")
    if not (isinstance(capacity, (int, np.integer)) and capacity > 0):
        raise ValueError("capacity must be a positive int")
    return scene(e).add_horde(mesh, b, int(capacity), name)


def horde_set(horde: Horde, pos, yaw, phase, tint=None, count: int | None = None,
              facing: float | None = None) -> None:
    """Set the horde's instances (the first ``count`` rows of each array are used).

    Args:
        pos: (n, 3) m, each instance's position (where the bank's root stands). An instance
            parked far off (a million metres) is drawn by nobody and never picked.
        yaw: (n,) rad, heading about +Y.
        phase: (n,) 0..1, where in the bank's loop each instance is (wrapped).
        tint: (n, 3) colour multipliers, or None to keep the current ones (white at first).
        count: instances drawn (default n), at most the horde's capacity.
        facing: rad added to every heading (the turn between the bank's forward and the
            horde's), or None to keep it.
    """
    pos = np.asarray(pos, dtype=np.float64)
    yaw = np.asarray(yaw, dtype=np.float64).ravel()
    phase = np.asarray(phase, dtype=np.float64).ravel()
    if pos.ndim != 2 or pos.shape[1] != 3:
        raise ValueError("pos must be (n, 3)")
    n = len(pos) if count is None else int(count)
    if n < 0 or n > horde.capacity:
        raise ValueError(f"count must be in 0..{horde.capacity}")
    if len(pos) < n or len(yaw) < n or len(phase) < n:
        raise ValueError("pos, yaw and phase must each have at least count rows")
    if not (np.isfinite(pos[:n]).all() and np.isfinite(yaw[:n]).all()
            and np.isfinite(phase[:n]).all()):
        raise ValueError("pos, yaw and phase must be finite")
    if tint is not None:
        t = np.asarray(tint, dtype=np.float32)
        if t.ndim != 2 or t.shape[1] != 3 or len(t) < n or not np.isfinite(t[:n]).all():
            raise ValueError("tint must be (n, 3) and finite")
        horde.tint[:n] = t[:n]
    if facing is not None:
        if not math.isfinite(facing):
            raise ValueError("facing must be finite")
        horde.facing = float(facing)
    horde.pos[:n] = pos[:n]
    horde.yaw[:n] = yaw[:n]
    horde.phase[:n] = np.mod(phase[:n], 1.0)
    horde.count = n


def horde_free(e, horde: Horde) -> None:
    """Stop drawing a horde and free its GPU buffers."""
    scene(e).remove_horde(horde)


# -------------------------------------------------------------------------------- camera
def camera_orbit(e, target=None, distance: float | None = None, yaw: float | None = None,
                 pitch: float | None = None) -> None:
    """Orbit: look at ``target`` (3,) m from ``distance`` m, turned ``yaw`` rad about +Y and
    raised ``pitch`` rad. Arguments left None keep their value. Stops following."""
    scene(e).camera.orbit(target, distance, yaw, pitch)


def camera_follow(e, what: Any, offset=(0.0, 0.0, 0.0), distance: float | None = None,
                  smoothing: float = 0.25) -> None:
    """Follow ``what`` every frame: an object handle of a drawn figure (the mean of its bones),
    a body (``physics.Body`` handle), a callable returning (3,) m, or a (3,) array read each
    frame. ``offset`` (3,) m is added; ``smoothing`` (s) is the time constant of the catching
    up (0 snaps)."""
    s = scene(e)
    cam = s.camera
    if distance is not None:
        cam.orbit(distance=distance)
    if isinstance(what, Body) or (hasattr(what, "slot") and hasattr(what, "gen")):
        slot = int(what.slot)

        def fn():
            from ae3d.physics import _layout as L

            bf = getattr(getattr(e, "physics", None), "bf", None)
            return None if bf is None else bf[slot, L.B_POS:L.B_POS + 3].copy()
    elif isinstance(what, (int, np.integer)) and not isinstance(what, bool):
        obj = int(what)

        def fn():
            f = s.figure_of(obj)
            if f is None:
                return None
            w = f.world()
            return None if w is None else w[:, :3, 3].mean(axis=0)
    elif callable(what):
        fn = what
    else:
        arr = np.asarray(what)
        if arr.shape != (3,):
            raise TypeError("what must be an object handle, a Body, a callable or a (3,) array")

        def fn():
            return arr
    if not (math.isfinite(smoothing) and smoothing >= 0):
        raise ValueError("smoothing must be a non-negative number of seconds")
    cam.follow_fn = fn
    cam.follow_offset = np.asarray(offset, dtype=np.float64).reshape(3)
    cam.follow_time = float(smoothing)
    p = fn()
    if p is not None:
        cam.target = np.asarray(p, dtype=np.float64).reshape(3) + cam.follow_offset


# -------------------------------------------------------------------------------- overlays
def set_debug(e, bodies: bool | None = None, points: list | None = None,
              contacts: bool | None = None, anchors: bool | None = None) -> None:
    """Debug overlays, drawn on top: ``bodies`` every body's shape, see-through; ``contacts``
    the physics world's contact points (red); ``anchors`` its anchors' target points (yellow);
    ``points`` a list of (position (3,) m, colour (3,) linear RGB, radius m) markers of your own
    (a figure's capture point...). None keeps the current setting."""
    d = scene(e).debug
    if bodies is not None:
        d.bodies = bool(bodies)
    if contacts is not None:
        d.contacts = bool(contacts)
    if anchors is not None:
        d.anchors = bool(anchors)
    if points is not None:
        d.points = [(np.asarray(p, float).reshape(3), tuple(c), float(r)) for p, c, r in points]


def hide_bodies(e, slots, hidden: bool = True) -> None:
    """Leave bodies (slots) out of the solid draw (a figure's ragdoll under its skin)."""
    s = scene(e)
    for slot in np.asarray(slots, dtype=np.int64).ravel():
        if hidden:
            s.hidden_bodies.add(int(slot))
        else:
            s.hidden_bodies.discard(int(slot))


# -------------------------------------------------------------------------------- headless
def renderer(e, width: int = 1280, height: int = 720, samples: int | None = None,
             quality: str = "auto") -> Renderer:
    """The engine's headless renderer at this size and quality (made on first use, kept until
    close); its context is made current, for direct ``draw``/``read``/``pick`` calls.

    ``quality``: "auto" (low on a software GL such as llvmpipe, high elsewhere), "high" or
    "low" (see ``Renderer.quality``); ``samples`` (MSAA, 0: none) overrides the preset's."""
    from ._context import headless_context
    from ._quality import resolve

    ctx = headless_context()
    q = resolve(quality, ctx, samples)
    s = scene(e)
    for r in s._renderers:
        if getattr(r, "headless", False):
            if r.quality != q:
                continue
            _current(r.ctx)
            r.resize(width, height)
            return r
    _current(ctx)
    r = Renderer(ctx, width, height, quality=q)
    r.headless = True
    s._renderers.append(r)
    return r


def still(e, path: str | os.PathLike | None = None, width: int = 1280, height: int = 720,
          samples: int | None = None, quality: str = "auto") -> np.ndarray:
    """Draw the scene as it stands: (height, width, 3) uint8 sRGB, top row first; written as a
    PNG to ``path`` when given. Runs no frame of the engine. ``quality``, ``samples``: as
    ``renderer``."""
    from ._output import write_png

    r = renderer(e, width, height, samples, quality)
    _current(r.ctx)
    r.draw(scene(e))
    img = r.read()
    if path is not None:
        write_png(path, img)
    return img


def record(e, path: str | os.PathLike, seconds: float, fps: int = 30, width: int = 1280,
           height: int = 720, samples: int | None = None, progress: bool | None = None,
           on_frame: Callable[[np.ndarray], None] | None = None, quality: str = "auto") -> int:
    """Run the engine for ``seconds`` at ``fps`` (30 or 60) frames a second, one
    ``Engine.frame(1/fps)`` per video frame, writing an H.264 MP4 to ``path``. The frame size
    must be divisible by 16. Encoding (x264 ``veryfast``) runs on a thread of its own. A tqdm
    bar on stderr (frames done, the fps they are written at) shows once the render has taken a
    second (``progress``: False hides it, True shows it at once). ``quality``, ``samples``: as
    ``renderer``. Returns the frames written."""
    from ._output import check_video_size
    from ._output import record as _record

    check_video_size(width, height)
    r = renderer(e, width, height, samples, quality)
    _current(r.ctx)
    return _record(e, r, scene(e), path, seconds, fps, progress, on_frame)


def pick(e, x: float, y: float, width: int = 1280, height: int = 720,
         quality: str = "auto") -> Pick:
    """What lies under pixel (x right, y down) of a ``width`` × ``height`` frame of the scene as
    it stands: ``Pick.target`` (object handle, HordeInstance, Body, GROUND or None) and
    ``Pick.point`` (3,) m."""
    r = renderer(e, width, height, quality=quality)
    _current(r.ctx)
    return r.pick(scene(e), x, y)


def project(e, points, width: int = 1280, height: int = 720) -> np.ndarray:
    """Pixel coordinates (..., 2) (x right, y down) of world points (..., 3) m."""
    return scene(e).camera.project(points, width, height)


def set_on_click(e, handler: Callable[[Any, Any, str], None] | None) -> None:
    """The window calls ``handler(object, point, button)`` for each click: ``object`` as
    ``Pick.target``, ``point`` (3,) m or None, ``button`` "left", "right" or "middle"."""
    scene(e).on_click = handler


def click(e, x: float, y: float, button: str = "left", width: int = 1280,
          height: int = 720) -> Pick:
    """What a click at pixel (x, y) does in a window: pick, then call the on_click handler."""
    p = pick(e, x, y, width, height)
    h = scene(e).on_click
    if h is not None:
        h(p.target, p.point, button)
    return p
