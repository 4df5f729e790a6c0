"""Render benchmark: each quality preset's fps and CPU a frame, headless (EGL; llvmpipe without a
GPU), at 1280x720 by default.

    python bench/render.py [--json PATH] [--frames N] [--size WxH] [--quality high,low]
                           [--png DIR] [--video-frames N] [--stages]

Scenarios (issue 17):
  figures  300 skinned box men (ae3d.figure, each walking at its own time): one instanced draw.
  horde    a horde of 3,000 instances of the box man over its walk's pose bank.
  strike   the horde_strike scene: 300 horde instances (a pose bank from ``ae3d.crowd``) and 12
           active figures (box men through ``motion.on_figure``, POWERED, on the ground).
Each timed frame runs the engine's frame (clips, physics, rigs), then draws and waits for the
GL (``finish``). Columns: fps (wall); CPU ms a frame of every thread of this process
(llvmpipe rasterizes on the CPU: steadier than fps on a busy machine), split into the engine's
frame and the draw; the 1-minute load average when the scenario ended (the machine's other
work: this is a shared machine). ``video``: the ms of ffmpeg's CPU a frame (its own process)
encoding the strike scene's frames, x264 preset ``veryfast`` (what ``render.record`` uses) and
the default ``medium``. ``--stages``: also the CPU ms a frame of each stage of the draw (the
renderer's ``stage_hook``: the GL finished at each stage's end; the finishes cost parallelism,
so the stages add up to more than the plain frame): sync (the Python side: skinning, packing,
uploads), shadow map, clear, sky, models (figures, hordes, shapes), ground, blobs, overlays,
resolve. Prints a table; ``--json`` writes flat names -> numbers. Asserts nothing about time.
"""

from __future__ import annotations

import argparse
import glob
import json
import math
import os
import resource
import sys
import time

import numpy as np

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
sys.path.insert(0, ROOT)

from ae3d import engine, figure, render  # noqa: E402
from ae3d.render import _context  # noqa: E402


def _box_man() -> str:
    for p in sorted(glob.glob(os.path.join(ROOT, "assets", "*.glb"))):
        if "box" in os.path.basename(p).lower():
            return p
    raise SystemExit("no box man in assets/ (python assets/make_assets.py)")


def _grid(n: int, spacing: float) -> np.ndarray:
    side = int(math.ceil(math.sqrt(n)))
    i = np.arange(n)
    return np.stack([(i % side - (side - 1) / 2) * spacing, np.zeros(n),
                     -(i // side) * spacing], axis=1)


def figures_scene(n: int):
    e = engine.Engine()
    path = _box_man()
    pos = _grid(n, 1.3)
    for k in range(n):
        obj = figure.figure(e, f"man{k}", path)
        f = figure.figure_of(e, obj)
        names = figure.clips(f)
        clip = "Walk" if "Walk" in names else names[0]
        figure.place(f, pos[k], 0.3 * math.sin(k))
        figure.play(f, clip, 1.0, True)
        figure.set_clip_time(f, (k * 0.137) % figure.clip_duration(f, clip))
    depth = pos[:, 2].min()
    render.camera_orbit(e, target=(0.0, 0.8, 0.5 * depth), distance=0.9 * abs(depth) + 8.0,
                        yaw=0.0, pitch=0.45)
    return e


def _horde(e, n: int, pos: np.ndarray):
    """A horde of ``n`` box men walking in place at ``pos`` (a bank from ae3d.crowd)."""
    from ae3d import crowd

    obj = figure.figure(e, "bank", _box_man())
    f = figure.figure_of(e, obj)
    names = figure.clips(f)
    clip = "Walk" if "Walk" in names else names[0]
    mesh = render.figure_mesh(f)
    bank = crowd.posebank_skinning(crowd.posebank_bake_in_place(
        crowd.posebank_sample(f, clip, 30)), mesh.joint_bones, mesh.inverse_bind)
    figure.set_visible(f, False)
    h = render.horde_new(e, mesh, bank, n)
    rng = np.random.default_rng(7)
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
    return h


def horde_scene(n: int):
    e = engine.Engine()
    rng = np.random.default_rng(3)
    pos = _grid(n, 1.4) + np.concatenate([rng.uniform(-0.3, 0.3, (n, 1)), np.zeros((n, 1)),
                                          rng.uniform(-0.3, 0.3, (n, 1))], axis=1)
    _horde(e, n, pos)
    render.camera_orbit(e, target=(0.0, 1.0, -6.0), distance=14.0, yaw=0.0, pitch=0.35)
    return e


def strike_scene(n_horde: int = 300, n_active: int = 12):
    """The horde_strike scene: a field of ``n_horde`` instances coming on, ``n_active`` box men
    on their muscles (POWERED) in front."""
    from ae3d import motion, physics

    e = engine.Engine()
    physics.ground(e)
    rng = np.random.default_rng(5)
    pos = _grid(n_horde, 1.5) + np.array([0.0, 0.0, -6.0])
    pos[:, [0, 2]] += rng.uniform(-0.35, 0.35, (n_horde, 2))
    _horde(e, n_horde, pos)
    path = _box_man()
    for k in range(n_active):
        obj = figure.figure(e, f"active{k}", path)
        f = figure.figure_of(e, obj)
        a = (k / n_active - 0.5) * 2.4
        figure.place(f, (6.0 * math.sin(a), 0.0, -4.5 + 2.0 * math.cos(a)), math.pi)
        names = figure.clips(f)
        figure.play(f, "Idle" if "Idle" in names else names[0], 1.0, True)
        body = motion.on_figure(e, obj)
        motion.set_mode(body, motion.POWERED)
        render.hide_bodies(e, [int(s) for s in body.ragdoll.bodies])
    render.camera_orbit(e, target=(0.0, 1.0, -10.0), distance=16.0, yaw=0.0, pitch=0.35)
    return e


def _stages(e, r, s, frames: int) -> dict[str, float]:
    """CPU ms a frame of each stage of ``r.draw`` (a finish at each stage's end)."""
    ctx = r.ctx
    acc: dict[str, float] = {}
    last = [0.0]

    def hook(name: str) -> None:
        ctx.finish()
        now = time.process_time()
        acc[name] = acc.get(name, 0.0) + now - last[0]
        last[0] = now

    r.stage_hook = hook
    try:
        for k in range(frames + 2):
            if k == 2:
                acc.clear()
            e.frame(1 / 60)
            ctx.finish()
            last[0] = time.process_time()
            r.draw(s)
    finally:
        r.stage_hook = None
    return {f"stage_{n}": v / frames * 1e3 for n, v in acc.items()}


def _time(e, r, s, frames: int) -> dict[str, float]:
    ctx = r.ctx
    for _ in range(2):  # warm up: first uploads, shader variants
        e.frame(1 / 60)
        r.draw(s)
        ctx.finish()
    eng_cpu = draw_cpu = 0.0
    t0 = time.perf_counter()
    for _ in range(frames):
        c0 = time.process_time()
        e.frame(1 / 60)
        c1 = time.process_time()
        r.draw(s)
        ctx.finish()
        c2 = time.process_time()
        eng_cpu += c1 - c0
        draw_cpu += c2 - c1
    wall = time.perf_counter() - t0
    return {"fps": frames / wall, "cpu_ms": (eng_cpu + draw_cpu) / frames * 1e3,
            "engine_cpu_ms": eng_cpu / frames * 1e3, "draw_cpu_ms": draw_cpu / frames * 1e3,
            "load": os.getloadavg()[0]}


def _video_cost(images: list[np.ndarray], fps: int = 30) -> dict[str, float]:
    """ffmpeg's CPU ms a frame encoding ``images``, x264 veryfast and its default preset."""
    import tempfile

    import imageio.v2 as imageio

    out = {}
    for preset in ("veryfast", "medium"):
        before = resource.getrusage(resource.RUSAGE_CHILDREN)
        with tempfile.TemporaryDirectory() as d:
            w = imageio.get_writer(os.path.join(d, "v.mp4"), fps=fps, codec="libx264", quality=8,
                                   macro_block_size=16, pixelformat="yuv420p",
                                   ffmpeg_log_level="error", output_params=["-preset", preset])
            for im in images:
                w.append_data(im)
            w.close()
        after = resource.getrusage(resource.RUSAGE_CHILDREN)
        cpu = (after.ru_utime + after.ru_stime) - (before.ru_utime + before.ru_stime)
        out[f"video_{preset}_cpu_ms"] = cpu / len(images) * 1e3
    return out


SCENARIOS = {"figures": lambda a: figures_scene(a.figures),
             "horde": lambda a: horde_scene(a.horde),
             "strike": lambda a: strike_scene(300, 12)}
LABELS = {"figures": "300 figures", "horde": "horde 3,000", "strike": "strike 300+12"}


def main(argv=None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    ap.add_argument("--json", help="write the results here")
    ap.add_argument("--frames", type=int, default=20, help="timed frames per scenario and preset")
    ap.add_argument("--size", default="1280x720")
    ap.add_argument("--figures", type=int, default=300)
    ap.add_argument("--horde", type=int, default=3000)
    ap.add_argument("--quality", default="high,low", help="presets, comma-separated")
    ap.add_argument("--scenarios", default="figures,horde,strike")
    ap.add_argument("--video-frames", type=int, default=30, help="0: no video cost")
    ap.add_argument("--png", help="directory for one still of each scenario and preset")
    ap.add_argument("--stages", action="store_true", help="also each draw stage's CPU ms")
    a = ap.parse_args(argv)
    w, h = (int(v) for v in a.size.lower().split("x"))
    ctx = _context.headless_context()
    presets = [q.strip() for q in a.quality.split(",") if q.strip()]
    out: dict[str, float] = {"width": w, "height": h}
    rows = []
    for name in [s.strip() for s in a.scenarios.split(",") if s.strip()]:
        t0 = time.perf_counter()
        e = SCENARIOS[name](a)
        out[f"{name}_setup_s"] = time.perf_counter() - t0
        s = render.scene(e)
        for q in presets:
            r = render.renderer(e, w, h, quality=q)
            res = _time(e, r, s, a.frames)
            if a.stages:
                res.update(_stages(e, r, s, a.frames))
            for k, v in res.items():
                out[f"{name}_{q}_{k}"] = v
            rows.append((LABELS[name], q, res))
            if a.png:
                os.makedirs(a.png, exist_ok=True)
                render.still(e, os.path.join(a.png, f"bench_{name}_{q}.png"), w, h, quality=q)
        if name == "strike" and a.video_frames > 0:
            r = render.renderer(e, w, h, quality=presets[-1])
            images = []
            for _ in range(a.video_frames):
                e.frame(1 / 30)
                r.draw(s)
                images.append(r.read())
            out.update(_video_cost(images))
        e.close()
    print(f"render benchmark, {w}x{h} headless on {ctx.info.get('GL_RENDERER', '?')}, "
          f"{os.cpu_count()} cores")
    print(f"{'scenario':<16}{'preset':<8}{'fps':>7}{'CPU ms':>8}{'engine':>8}{'draw':>8}"
          f"{'load':>7}")
    for label, q, res in rows:
        print(f"{label:<16}{q:<8}{res['fps']:>7.2f}{res['cpu_ms']:>8.1f}"
              f"{res['engine_cpu_ms']:>8.1f}{res['draw_cpu_ms']:>8.1f}{res['load']:>7.2f}")
        st = {k[6:]: v for k, v in res.items() if k.startswith("stage_")}
        if st:
            print("    stages (CPU ms, a finish after each): " + ", ".join(
                f"{k} {v:.1f}" for k, v in st.items()))
    if "video_veryfast_cpu_ms" in out:
        print(f"video (ffmpeg's CPU ms a frame, {w}x{h}): veryfast "
              f"{out['video_veryfast_cpu_ms']:.1f}, medium (default) "
              f"{out['video_medium_cpu_ms']:.1f}")
    if a.json:
        with open(a.json, "w") as fh:
            json.dump(out, fh, indent=1, sort_keys=True)
    return 0


if __name__ == "__main__":
    sys.exit(main())
