"""Render benchmark: frames per second, headless at 1280x720 (EGL; llvmpipe without a GPU).

    python bench/render.py [--json PATH] [--frames N] [--size WxH]

Scenarios: 300 skinned figures (the box man, each playing its walk at its own time; one
instanced draw, bones in a texture) and a horde of 3,000 instances (one draw over a pose bank).
Each frame runs the engine's frame (clips sampled, rigs posed), then draws (shadow map + colour,
4x MSAA) and waits for the GPU; ``*_read_fps`` adds reading the frame back (what a video costs),
``*_noaa_fps`` draws without multisampling; ``*_cpu_ms`` is the CPU time per frame of every
thread of the process (llvmpipe rasterizes on the CPU: steadier than fps on a busy machine).
Prints a table; ``--json`` writes flat names -> numbers. Asserts nothing about time.
"""

from __future__ import annotations

import argparse
import glob
import json
import math
import os
import sys
import time

import numpy as np

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
sys.path.insert(0, ROOT)

from ae3d import engine, figure, render  # noqa: E402
from ae3d.render import _context, _demo  # noqa: E402


def _box_man() -> str | None:
    for p in sorted(glob.glob(os.path.join(ROOT, "assets", "*.glb"))):
        if "box" in os.path.basename(p).lower():
            return p
    return None


def _grid(n: int, spacing: float) -> np.ndarray:
    side = int(math.ceil(math.sqrt(n)))
    i = np.arange(n)
    return np.stack([(i % side - (side - 1) / 2) * spacing, np.zeros(n),
                     -(i // side) * spacing], axis=1)


def _time(e, r, s, frames: int, read: bool) -> float:
    ctx = r.ctx
    for _ in range(2):  # warm up: first uploads, shader variants
        e.frame(1 / 60)
        r.draw(s)
        ctx.finish()
    t0 = time.perf_counter()
    c0 = time.process_time()
    for _ in range(frames):
        e.frame(1 / 60)
        r.draw(s)
        if read:
            r.read()
        else:
            ctx.finish()
    _cpu[0] = (time.process_time() - c0) / frames * 1000.0
    return frames / (time.perf_counter() - t0)


_cpu = [0.0]  # CPU ms per frame of the last _time, every thread of this process (llvmpipe's too)


def figures_scene(n: int):
    e = engine.Engine()
    path = _box_man()
    pos = _grid(n, 1.3)
    if path is not None:
        for k in range(n):
            obj = figure.figure(e, f"man{k}", path)
            f = figure.figure_of(e, obj)
            names = figure.clips(f)
            clip = "Walk" if "Walk" in names else (names[0] if names else None)
            figure.place(f, pos[k], 0.3 * math.sin(k))
            if clip:
                figure.play(f, clip, 1.0, True)
                figure.set_clip_time(f, (k * 0.137) % figure.clip_duration(f, clip))
        source = os.path.basename(path)
    else:
        m = _demo.mesh()
        for k in range(n):
            obj = e.create()
            root = np.eye(4)
            root[:3, 3] = pos[k]
            render.add_figure(e, obj, m, (lambda root=root, k=k: _demo.pose(
                e.time + k * 0.137, root)))
        source = "procedural"
    depth = pos[:, 2].min()
    render.camera_orbit(e, target=(0.0, 0.8, 0.5 * depth), distance=0.9 * abs(depth) + 8.0,
                        yaw=0.0, pitch=0.45)
    return e, source


def horde_scene(n: int):
    e = engine.Engine()
    path = _box_man()
    if path is not None:
        obj = figure.figure(e, "bank", path)
        f = figure.figure_of(e, obj)
        names = figure.clips(f)
        clip = "Walk" if "Walk" in names else names[0]
        mesh, bank = render.figure_mesh(f), render.bank_from_clip(f, clip, 30)
        figure.set_visible(f, False)
        source = os.path.basename(path)
    else:
        mesh = _demo.mesh()
        bank = _demo.bank(mesh)
        source = "procedural"
    h = render.horde_new(e, mesh, bank, n)
    rng = np.random.default_rng(7)
    pos = _grid(n, 1.4) + np.concatenate([rng.uniform(-0.3, 0.3, (n, 1)), np.zeros((n, 1)),
                                          rng.uniform(-0.3, 0.3, (n, 1))], axis=1)
    phase = rng.uniform(0, 1, n)
    yaw = rng.uniform(-0.4, 0.4, n)
    render.horde_set(h, pos, yaw, phase, rng.uniform(0.75, 1.0, (n, 3)))

    class _Walk(engine.PhaseProcessor):  # the horde's phases advance as a crowd's would
        phase = engine.priorities.POSE

        def run(self, eng, dt):
            nonlocal phase
            phase = (phase + dt) % 1.0
            render.horde_set(h, pos, yaw, phase)

    e.add_processor(_Walk(e), engine.priorities.DRAW + 1)
    render.camera_orbit(e, target=(0.0, 1.0, -6.0), distance=14.0, yaw=0.0, pitch=0.35)
    return e, source


def main(argv=None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    ap.add_argument("--json", help="write the results here")
    ap.add_argument("--frames", type=int, default=20, help="timed frames per scenario")
    ap.add_argument("--size", default="1280x720")
    ap.add_argument("--figures", type=int, default=300)
    ap.add_argument("--horde", type=int, default=3000)
    ap.add_argument("--png", help="directory for one still of each scenario")
    a = ap.parse_args(argv)
    w, h = (int(v) for v in a.size.lower().split("x"))
    ctx = _context.headless_context()
    out: dict[str, float] = {"width": w, "height": h}
    sources = {}
    for name, make, count in (("figures", figures_scene, a.figures),
                              ("horde", horde_scene, a.horde)):
        t0 = time.perf_counter()
        e, src = make(count)
        out[f"{name}_setup_s"] = time.perf_counter() - t0
        sources[name] = src
        r = render.renderer(e, w, h)
        s = render.scene(e)
        out[f"{name}_count"] = count
        out[f"{name}_fps"] = _time(e, r, s, a.frames, read=False)
        out[f"{name}_cpu_ms"] = _cpu[0]
        out[f"{name}_read_fps"] = _time(e, r, s, max(3, a.frames // 2), read=True)
        # the engine's own share: frames without drawing
        t0 = time.perf_counter()
        for _ in range(a.frames):
            e.frame(1 / 60)
        out[f"{name}_engine_ms"] = (time.perf_counter() - t0) / a.frames * 1000.0
        out[f"{name}_ms"] = 1000.0 / out[f"{name}_fps"]
        # without multisampling (what a software rasterizer saves on edges)
        r0 = render.renderer(e, w, h, samples=0)
        out[f"{name}_noaa_fps"] = _time(e, r0, s, a.frames, read=False)
        out[f"{name}_noaa_cpu_ms"] = _cpu[0]
        if a.png:
            os.makedirs(a.png, exist_ok=True)
            render.still(e, os.path.join(a.png, f"bench_{name}.png"), w, h)
        e.close()
    renderer_name = ctx.info.get("GL_RENDERER", "?")
    print(f"render benchmark, {w}x{h} headless on {renderer_name}")
    print(f"  figures from {sources['figures']}, horde from {sources['horde']}")
    print(f"{'scenario':<18}{'fps':>7}{'ms/frame':>10}{'cpu ms':>9}{'fps+read':>10}"
          f"{'no-AA fps':>11}{'no-AA cpu':>11}{'engine ms':>11}")
    for name in ("figures", "horde"):
        print(f"{name + ' x' + str(int(out[name + '_count'])):<18}{out[name + '_fps']:>7.2f}"
              f"{out[name + '_ms']:>10.1f}{out[name + '_cpu_ms']:>9.0f}"
              f"{out[name + '_read_fps']:>10.2f}"
              f"{out[name + '_noaa_fps']:>11.2f}{out[name + '_noaa_cpu_ms']:>11.0f}"
              f"{out[name + '_engine_ms']:>11.2f}")
    if a.json:
        with open(a.json, "w") as fh:
            json.dump(out, fh, indent=1, sort_keys=True)
    return 0


if __name__ == "__main__":
    sys.exit(main())
