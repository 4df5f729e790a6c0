"""Stills (PNG) and video (MP4) from a headless renderer."""

from __future__ import annotations

import math
import os
import sys
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
    """Run ``engine`` for ``seconds`` at ``fps`` frames/s, writing each frame to ``path``."""
    import imageio.v2 as imageio
    from tqdm import tqdm

    if fps not in (30, 60):
        raise ValueError("fps must be 30 or 60")
    if not (math.isfinite(seconds) and seconds > 0):
        raise ValueError("seconds must be a positive number")
    check_video_size(renderer.width, renderer.height)
    frames = max(1, int(round(seconds * fps)))
    os.makedirs(os.path.dirname(os.path.abspath(path)) or ".", exist_ok=True)
    if progress is None:
        progress = sys.stderr.isatty()
    writer = imageio.get_writer(str(path), fps=fps, codec="libx264", quality=8,
                                macro_block_size=16, pixelformat="yuv420p",
                                ffmpeg_log_level="error")
    try:
        for _ in tqdm(range(frames), desc=os.path.basename(str(path)), unit="frame",
                      disable=not progress, leave=False):
            engine.frame(1.0 / fps)
            renderer.draw(scene)
            image = renderer.read()
            if on_frame is not None:
                on_frame(image)
            writer.append_data(image)
    finally:
        writer.close()
    return frames
