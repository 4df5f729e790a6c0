"""``python -m ae3d.view PATH [CLIP]``: look at any glTF figure, playing its clips.

With a display, a window (left drag orbits, right drag pans, the wheel zooms; a click prints
what lies under it; Space pauses, N / P the next or previous clip, Escape quits). Without
one (or with ``--headless``), an MP4 of the clip (or ``--still`` a PNG). With no CLIP, the
first clip plays; ``--list`` prints the clips.
"""

from __future__ import annotations

import argparse
import math
import os
import sys


def _size(text: str) -> tuple[int, int]:
    try:
        w, h = (int(v) for v in text.lower().split("x"))
    except ValueError:
        raise argparse.ArgumentTypeError("size must look like 1280x720") from None
    if w < 16 or h < 16:
        raise argparse.ArgumentTypeError("size must be at least 16x16")
    return w, h


def main(argv: list[str] | None = None) -> int:
    ap = argparse.ArgumentParser(prog="python -m ae3d.view", description=__doc__.split("\n")[0])
    ap.add_argument("path", help="a skinned .glb/.gltf file")
    ap.add_argument("clip", nargs="?", help="the clip to play (default: the first)")
    ap.add_argument("--list", action="store_true", help="print the clips and exit")
    ap.add_argument("--headless", action="store_true", help="write a video even with a display")
    ap.add_argument("--out", help="the MP4 (or PNG with --still) to write; default out/NAME.mp4")
    ap.add_argument("--still", action="store_true", help="write one PNG instead of a video")
    ap.add_argument("--seconds", type=float, help="video length (default: the clip, 2..10 s)")
    ap.add_argument("--fps", type=int, default=30, choices=(30, 60))
    ap.add_argument("--size", type=_size, default=(1280, 720), help="WxH (default 1280x720)")
    ap.add_argument("--speed", type=float, default=1.0, help="clip speed (default 1)")
    ap.add_argument("--quality", default="auto", choices=("auto", "high", "low"),
                    help="render preset (default auto: low on a software GL, else high)")
    ap.add_argument("--samples", type=int, default=None, choices=(0, 2, 4),
                    help="multisampling (default: the preset's, 4 in high, 0 in low)")
    a = ap.parse_args(argv)

    from ae3d import engine, figure, render

    if not os.path.exists(a.path):
        ap.error(f"no such file: {a.path}")
    e = engine.Engine()
    try:
        obj = figure.figure(e, os.path.splitext(os.path.basename(a.path))[0], a.path)
        f = figure.figure_of(e, obj)
        names = figure.clips(f)
        if a.list:
            for n in names:
                print(f"{n}\t{figure.clip_duration(f, n):.3f} s")
            return 0
        clip = a.clip
        if clip is not None and clip not in names:
            ap.error(f"no clip {clip!r} in {a.path} (it has: {', '.join(names) or 'none'})")
        if clip is None and names:
            clip = names[0]
        if clip is not None:
            figure.play(f, clip, a.speed, True)
        # frame the figure: its height from the file's pose
        try:
            height = max(figure.bind_height(f), 0.2)
        except Exception:  # noqa: BLE001 - a figure with odd skinning still shows
            height = 1.8
        w = f.rig.world[:, :3, 3]
        centre = w.mean(axis=0)
        render.camera_orbit(e, target=(centre[0], 0.55 * height, centre[2]),
                            distance=1.7 * height + 0.6, yaw=0.6, pitch=0.22)
        render.camera_follow(e, obj, offset=(0.0, 0.0, 0.0), smoothing=0.5)
        s = render.scene(e)
        s.camera.follow_offset[1] = 0.55 * height - float(centre[1])
        width, hgt = a.size
        stem = os.path.splitext(os.path.basename(a.path))[0] + (f"_{clip}" if clip else "")
        if not a.headless and not a.still and render.window_available():
            def on_click(target, point, button):
                where = "" if point is None else " at (%.3f, %.3f, %.3f) m" % tuple(point)
                print(f"{button} click: {target!r}{where}", flush=True)

            current = [names.index(clip) if clip in names else 0]

            def on_key(name: str) -> None:
                if name == "SPACE" and figure.clip(f) is not None:
                    (figure.stop if figure.playing(f) else figure.resume)(f)
                elif name in ("N", "P") and names:
                    current[0] = (current[0] + (1 if name == "N" else -1)) % len(names)
                    figure.play(f, names[current[0]], a.speed, True)
                    print(f"clip {names[current[0]]}", flush=True)

            render.window(e, width, hgt, title=f"ae3d.view {a.path} {clip or ''}",
                          on_click=on_click, on_key=on_key, samples=a.samples,
                          quality=a.quality)
            return 0
        if a.still:
            out = a.out or os.path.join("out", stem + ".png")
            e.frame(0.0)
            render.still(e, out, width, hgt, samples=a.samples, quality=a.quality)
            print(out)
            return 0
        if width % 16 or hgt % 16:
            ap.error("a video's size must be divisible by 16")
        seconds = a.seconds
        if seconds is None:
            d = figure.clip_duration(f, clip) / max(abs(a.speed), 1e-3) if clip else 2.0
            seconds = min(max(d, 2.0), 10.0)
        if not (math.isfinite(seconds) and seconds > 0):
            ap.error("--seconds must be positive")
        out = a.out or os.path.join("out", stem + ".mp4")
        count = render.record(e, out, seconds, fps=a.fps, width=width, height=hgt,
                              samples=a.samples, quality=a.quality)
        print(f"{out}: {count} frames, {width}x{hgt} at {a.fps} fps", file=sys.stderr)
        print(out)
        return 0
    finally:
        e.close()


if __name__ == "__main__":
    sys.exit(main())
