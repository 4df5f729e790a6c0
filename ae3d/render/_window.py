"""The pyglet window: the display drives ``Engine.frame``; the mouse moves the camera
(left drag orbits, right or middle drag pans, the wheel zooms) and a click (press and release
without dragging) becomes ``on_click(object, point, button)``."""

from __future__ import annotations

import math
import os
from collections.abc import Callable
from typing import Any

import numpy as np

_BUTTONS = {1: "left", 2: "middle", 4: "right"}


def window_available() -> bool:
    """True when a display can be opened (an X server at $DISPLAY, or Xvfb)."""
    if os.name == "posix" and not os.environ.get("DISPLAY") and not os.environ.get(
            "WAYLAND_DISPLAY"):
        return False
    try:
        import pyglet

        mod: Any = getattr(pyglet, "display", None)
        if mod is None:  # pyglet 2.0 called it canvas
            mod = pyglet.canvas  # type: ignore[attr-defined]
        mod.get_display()
        return True
    except Exception:  # noqa: BLE001 - any failure means no window here
        return False


def window(e, width: int = 1280, height: int = 720, title: str = "ae3d",
           on_click: Callable[[Any, Any, str], None] | None = None,
           seconds: float | None = None, fps: int = 60, samples: int | None = None,
           on_frame: Callable[[Any], Any] | None = None,
           on_key: Callable[[str], Any] | None = None, quality: str = "auto") -> int:
    """Show the engine's scene in a window until it is closed (or ``seconds`` have run).

    Each display frame runs ``e.frame(dt)`` with the real time since the last (at most 0.1 s),
    then draws. ``on_click(object, point, button)`` (also ``render.set_on_click``) hears clicks:
    ``object`` as ``Pick.target`` (an object handle, a HordeInstance, a Body, GROUND or None),
    ``point`` the world point (3,) m, ``button`` "left", "right" or "middle". ``on_frame(win)``
    runs after each drawn frame (for scripts and tests); returning False closes the window.
    ``on_key(name)`` hears key presses by pyglet's key names ("SPACE", "N", "LEFT"...); Escape
    closes the window. ``quality``: "auto" (low on a software GL, else high), "high" or
    "low"; ``samples`` (MSAA) overrides the preset's.
    Returns the frames drawn.
    """
    import moderngl
    import pyglet

    from ._api import scene
    from ._renderer import Renderer

    if not window_available():
        raise RuntimeError("no display: set DISPLAY (or run under Xvfb), or render headless "
                           "with render.record / render.still")
    s = scene(e)
    if on_click is not None:
        s.on_click = on_click
    config = pyglet.gl.Config(major_version=3, minor_version=3,  # type: ignore[abstract]
                              forward_compatible=True, double_buffer=True, depth_size=24)
    win = pyglet.window.Window(width, height, title, config=config, resizable=True, vsync=False)
    ctx = moderngl.create_context(require=330)
    fw, fh = win.get_framebuffer_size()
    r = Renderer(ctx, fw, fh, samples=samples, quality=quality)
    state: dict[str, Any] = {"frames": 0, "time": 0.0, "press": None, "dragged": False,
                             "done": False}
    cam = s.camera

    def shutdown() -> None:
        """Free the GPU objects while the window's context lives, then close it."""
        if state["done"]:
            return
        state["done"] = True
        pyglet.clock.unschedule(tick)
        try:
            r.release()
        finally:
            _ = ctx.error  # a stale GL error would surface in pyglet's own checks as it closes
            win.close()
            pyglet.app.exit()

    def tick(dt: float) -> None:
        if state["done"]:
            return
        e.frame(min(max(dt, 0.0), 0.1))
        state["time"] += dt
        if seconds is not None and state["time"] >= seconds:
            shutdown()

    @win.event
    def on_draw() -> None:
        if state["done"]:
            return
        w, h = win.get_framebuffer_size()
        if (w, h) != (r.width, r.height) and w > 0 and h > 0:
            r.resize(w, h)
        r.draw(s)
        ctx.copy_framebuffer(ctx.screen, r.fbo)
        state["frames"] += 1
        _ = ctx.error  # clear it: pyglet checks glGetError after its own calls
        if on_frame is not None and on_frame(win) is False:
            shutdown()

    def to_pixel(x: float, y: float) -> tuple[float, float]:
        sx = r.width / max(win.width, 1)
        sy = r.height / max(win.height, 1)
        return x * sx, r.height - 1 - y * sy

    @win.event
    def on_mouse_press(x, y, button, modifiers) -> None:
        state["press"] = (x, y, button)
        state["dragged"] = False

    @win.event
    def on_mouse_drag(x, y, dx, dy, buttons, modifiers) -> None:
        p = state["press"]
        if p is not None and math.hypot(x - p[0], y - p[1]) > 3:
            state["dragged"] = True
        if buttons & 1:
            cam.orbit(yaw=cam.yaw - dx * 0.01, pitch=cam.pitch - dy * 0.01)
        elif buttons & 6:
            v = cam.view()
            right, up = v[0, :3], v[1, :3]
            k = cam.distance * 0.0015
            cam.orbit(target=cam.target - right * dx * k - up * dy * k)

    @win.event
    def on_mouse_release(x, y, button, modifiers) -> None:
        p = state["press"]
        state["press"] = None
        if p is None or state["dragged"]:
            return
        px, py = to_pixel(x, y)
        px = float(np.clip(px, 0, r.width - 1))
        py = float(np.clip(py, 0, r.height - 1))
        hit = r.pick(s, px, py)
        handler = s.on_click
        if handler is not None:
            handler(hit.target, hit.point, _BUTTONS.get(button, str(button)))

    @win.event
    def on_mouse_scroll(x, y, scroll_x, scroll_y) -> None:
        cam.distance = float(np.clip(cam.distance * 0.9 ** scroll_y, 0.3, cam.far * 0.5))

    @win.event
    def on_key_press(symbol, modifiers) -> None:
        if on_key is not None:
            on_key(pyglet.window.key.symbol_string(symbol))

    @win.event
    def on_close() -> bool:
        shutdown()
        return True  # handled: the window is closed already

    pyglet.clock.schedule_interval(tick, 1.0 / fps)
    try:
        pyglet.app.run(1.0 / fps)
    finally:
        shutdown()
    return int(state["frames"])
