"""Stills (PNG) and video (MP4) from a headless renderer."""

from __future__ import annotations

import math
import os
import queue
import sys
import threading
from typing import Any

import numpy as np


def check_video_size(width: int, height: int) -> None:
    if width % 16 or height % 16:
        raise ValueError(f"video frame size must be divisible by 16, got {width}x{height}")


def write_png(path: str | os.PathLike, image: np.ndarray) -> None:
    from PIL import Image

    os.makedirs(os.path.dirname(os.path.abspath(path)) or ".", exist_ok=True)
    Image.fromarray(image).save(path)


def record(engine: Any, renderer: Any, scene: Any, path: str | os.PathLike, seconds: float,
           fps: int, progress: bool | None, on_frame=None) -> int:
    """Run ``engine`` for ``seconds`` at ``fps`` frames/s, writing each frame to ``path``.

    The frames go to ffmpeg (libx264, preset ``veryfast``: its default preset costs about twice
    the CPU a frame for a file a little smaller) from a thread of their own, so drawing the next
    frame overlaps encoding this one. A tqdm bar (frames and the fps they are written at) shows
    once the render has taken a second; ``progress=False`` hides it, True shows it at once.
    """
    import imageio.v2 as imageio
    from tqdm import tqdm

    if fps not in (30, 60):
        raise ValueError("fps must be 30 or 60")
    if not (math.isfinite(seconds) and seconds > 0):
        raise ValueError("seconds must be a positive number")
    check_video_size(renderer.width, renderer.height)
    frames = max(1, int(round(seconds * fps)))
    os.makedirs(os.path.dirname(os.path.abspath(path)) or ".", exist_ok=True)
    writer = imageio.get_writer(str(path), fps=fps, codec="libx264", quality=8,
                                macro_block_size=16, pixelformat="yuv420p",
                                ffmpeg_log_level="error",
                                output_params=["-preset", "veryfast"])
    sink = _FrameSink(writer)
    bar = tqdm(total=frames, desc=os.path.basename(str(path)), unit="frame",
               disable=progress is False, delay=0.0 if progress else 1.0, leave=False,
               file=sys.stderr)
    try:
        for _ in range(frames):
            engine.frame(1.0 / fps)
            renderer.draw(scene)
            image = renderer.read()
            if on_frame is not None:
                on_frame(image)
            sink.put(image)
            bar.update(1)
    finally:
        bar.close()
        sink.close()
    return frames


class _FrameSink:
    """Hands frames to a writer on a thread of its own (a few frames queued at most, so a slow
    encoder holds the renderer back rather than filling memory); ``close`` waits for the last
    frame and closes the writer, raising whatever the writer raised."""

    def __init__(self, writer: Any, depth: int = 4) -> None:
        self.writer = writer
        self.queue: queue.Queue = queue.Queue(maxsize=depth)
        self.error: BaseException | None = None
        self.thread = threading.Thread(target=self._run, name="ae3d-video", daemon=True)
        self.thread.start()

    def _run(self) -> None:
        while True:
            image = self.queue.get()
            if image is None:
                return
            if self.error is None:
                try:
                    self.writer.append_data(image)
                except BaseException as exc:  # noqa: BLE001 - handed to the caller in close
                    self.error = exc

    def put(self, image: np.ndarray) -> None:
        if self.error is not None:
            raise self.error
        self.queue.put(image)

    def close(self) -> None:
        self.queue.put(None)
        self.thread.join()
        try:
            self.writer.close()
        finally:
            if self.error is not None:
                raise self.error
