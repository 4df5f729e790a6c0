"""GL contexts: one headless EGL context per process, shared by every engine's scene."""

from __future__ import annotations

import threading

import moderngl

_lock = threading.Lock()
_headless: moderngl.Context | None = None


def headless_context() -> moderngl.Context:
    """The process's standalone OpenGL 3.3 core context (EGL; Mesa llvmpipe without a GPU)."""
    global _headless
    with _lock:
        if _headless is None:
            try:
                _headless = moderngl.create_context(standalone=True, require=330,
                                                     backend="egl")  # type: ignore[arg-type]
            except Exception as egl_error:  # noqa: BLE001 - try the platform default next
                try:
                    _headless = moderngl.create_context(standalone=True, require=330)
                except Exception:
                    raise RuntimeError(
                        "no headless OpenGL 3.3 context: install Mesa's EGL "
                        f"(libegl1, libgl1-mesa-dri); EGL said: {egl_error}") from egl_error
        return _headless


def headless_available() -> bool:
    try:
        headless_context()
        return True
    except RuntimeError:
        return False
