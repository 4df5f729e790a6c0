"""What the examples share: their command line and where they show (a window where there is a
display, else an MP4 rendered headless through EGL)."""

from __future__ import annotations

import argparse
import math
import os

from ae3d import render


def parser(doc: str, out: str, seconds: float) -> argparse.ArgumentParser:
    """The examples' arguments: ``--out`` (the MP4, default ``out``), ``--seconds``, ``--size``,
    ``--fps``, ``--headless``, ``--quality``."""
    ap = argparse.ArgumentParser(description=doc.split("\n")[0])
    ap.add_argument("--out", default=out)
    ap.add_argument("--seconds", type=float, default=seconds)
    ap.add_argument("--size", default="1280x720")
    ap.add_argument("--fps", type=int, default=30)
    ap.add_argument("--headless", action="store_true", help="an MP4 even with a display")
    ap.add_argument("--quality", default="auto", choices=("auto", "high", "low"),
                    help="render preset (default auto: low on a software GL, else high)")
    return ap


def show(e, args: argparse.Namespace) -> None:
    """Engine ``e`` (built) in a window where there is a display and ``--headless`` was not
    asked; else ``args.seconds`` of it recorded into ``args.out``."""
    w, h = (int(v) for v in args.size.lower().split("x"))
    if not args.headless and render.window_available():
        render.window(e, quality=args.quality)
        return
    os.makedirs(os.path.dirname(os.path.abspath(args.out)), exist_ok=True)
    n = render.record(e, args.out, seconds=args.seconds, fps=args.fps, width=w, height=h,
                      quality=args.quality)
    print(f"wrote {args.out}: {n} frames, {w}x{h}, {math.floor(args.seconds)} s")
