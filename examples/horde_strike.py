"""The horde and its hand-over pool (spec/motion.md "A horde can't be active ragdolls"): the
README's demo.

A field of 300 zombies of any humanoid glTF (the box man by default; ``--figure PATH`` takes
any, the Mixamo man too) walking about, drawn instanced from a pose bank of the file's walk, with
a pool of twelve active ragdolls. A left click strikes the zombie under the cursor (the
renderer's colour-id picking), a right click kills it. With no one clicking, a timer strikes
the zombie in the middle of the view every 1.5 s, and every third blow kills. A struck zombie
is handed to a figure of the pool: it falls protected, gets up (once ``motion.get_up`` is there)
and walks on back in the horde; a killed one lies and vanishes after 10 s.

In a window where there is a display (its frame time in the title); headless (EGL) it writes
an MP4, a progress bar on the terminal:

    make demo
    PYTHONPATH=. .venv/bin/python examples/horde_strike.py [--figure PATH] [--out
        out/horde_strike.mp4] [--seconds 12] [--size 1280x720] [--headless] [--quality auto]
"""

from __future__ import annotations

import argparse
import json
import math
import os
import sys
import time

sys.path.insert(0, os.path.join(os.path.dirname(__file__), ".."))

import numpy as np  # noqa: E402

from ae3d import crowd, engine, figure, handover, physics, render  # noqa: E402

ZOMBIES = 300
POOL = 12
FIELD = 20.0         # m: the field's half size
EVERY = 1.5          # s between the timer's blows
STRIKE_J = 500.0     # N·s: a strike, at the chest, away from the camera
KILL_J = 300.0       # N·s: a kill
FRAMES = 30          # the bank's poses over one loop of the walk
# the camera: high enough over the field that a walker hides a figure lying on the ground behind
# it for only ~1.6 m (a 1.8 m walker over tan(pitch)), close enough to see the fall
CAMERA = {"target": (0.0, 0.5, 0.0), "distance": 9.0, "yaw": 0.35, "pitch": 0.85}
SEEN_WITHIN = 5.0    # m from the camera's target: the timer's blows strike in the middle
CLEAR_WIDE = 1.3     # m: no walker this near the line from a struck one to the camera
CLEAR_LONG = 3.0     # m: along that line (its fall, and the stretch a walker would hide)


class Demo:
    """The horde (the game's columns), its draw, its pool and the timer's blows."""

    def __init__(self, e, path: str, seed: int = 7, timer: bool = True) -> None:
        self.e = e
        physics.ground(e)
        src = figure.figure_of(e, figure.figure(e, "bank", path))
        figure.set_visible(src, False)
        names = figure.clips(src)
        self.clip = "Walk" if "Walk" in names else names[0]
        self.bank = crowd.posebank_bake_in_place(crowd.posebank_sample(src, self.clip, FRAMES))
        bones = figure.humanoid_bones(src.rig)
        self.chest_bones = (bones["Chest"], bones.get("Neck", bones["Chest"]))
        # the turn the draw adds: the clip walks along +z of its file turned by this
        raw = crowd.posebank_sample(src, self.clip, 2)
        travel = raw.world[1, raw.hips, :3, 3] - raw.world[0, raw.hips, :3, 3]
        self.facing = (-math.atan2(travel[0], travel[2])
                       if math.hypot(travel[0], travel[2]) > 1e-4 else 0.0)
        rng = np.random.default_rng(seed)
        self.rng = rng
        n = ZOMBIES
        self.pos = np.zeros((n, 3))
        self.pos[:, [0, 2]] = rng.uniform(-FIELD, FIELD, (n, 2))
        self.yaw = rng.uniform(-math.pi, math.pi, n)
        self.phase = rng.uniform(0.0, 1.0, n)
        self.vel = np.zeros((n, 3))
        self.target = np.zeros((n, 3))
        self.target[:, [0, 2]] = rng.uniform(-FIELD, FIELD, (n, 2))
        self.tint = (0.55 + 0.45 * rng.random((n, 3))) * np.array([0.8, 1.0, 0.75])
        mesh = render.figure_mesh(src)
        mats = crowd.posebank_skinning(self.bank, mesh.joint_bones, mesh.inverse_bind)
        self.horde = render.horde_new(e, mesh, mats, n, "zombies")
        self.pool = handover.pool_new(e, path, self.clip, POOL)
        handover.set_horde(self.pool, self.pos, self.yaw, self.phase, n)
        handover.set_facing(self.pool, self.facing)
        handover.set_colors(self.pool, self.tint)
        self.timer = timer
        self.walking = True
        self.next_blow = EVERY
        self.blows = 0
        self.log: list[tuple] = []
        e.add_processor(_HordeStep(e, self), engine.priorities.FIGURE_ANIMATE + 5)
        self.draw()

    # -- the horde ---------------------------------------------------------------------------
    def step(self, dt: float) -> None:
        """The horde's frame: new targets for those that arrived, the step, the draw."""
        outs = handover.outs(self.pool)
        near = np.hypot(*(self.pos - self.target)[:, [0, 2]].T) < 1.0
        near &= outs == 0
        if near.any():
            pts = self.rng.uniform(-FIELD, FIELD, (int(near.sum()), 2))
            self.target[np.nonzero(near)[0][:, None], [0, 2]] = pts
        if self.walking:
            crowd.crowd_step_out(self.pos, self.vel, self.yaw, self.phase, outs, 0, ZOMBIES,
                                 dt, self.target, self.bank.speed, self.bank.duration)
        if self.timer and self.e.time + 1e-9 >= self.next_blow:
            self.next_blow += EVERY
            z = self.middle_zombie()
            if z >= 0:
                self.blows += 1
                self.blow(z, None, kill=self.blows % 3 == 0)
        self.draw()

    def draw(self) -> None:
        render.horde_set(self.horde, self.pos, self.yaw, self.phase, self.tint, ZOMBIES,
                         self.facing)

    def pose(self, z: int) -> np.ndarray:
        b = self.bank
        k = int(round((self.phase[z] % 1.0) * b.frames)) % b.frames
        return crowd.instance_root(self.pos[z], self.yaw[z] + self.facing) @ b.world[k]

    def chest(self, z: int) -> np.ndarray:
        w = self.pose(z)
        return 0.5 * (w[self.chest_bones[0], :3, 3] + w[self.chest_bones[1], :3, 3])

    def middle_zombie(self) -> int:
        """The zombie in the middle of the view the camera sees whole: in the horde, the
        nearest its target (within SEEN_WITHIN) with no walker between it and the camera (so
        its fall, its lying and its getting up are not hidden); else the one with the fewest
        walkers in the way, the nearest of those."""
        cam = render.scene(self.e).camera
        d = np.hypot(*(self.pos - cam.target)[:, [0, 2]].T)
        d[handover.outs(self.pool) != 0] = np.inf
        order = np.argsort(d, kind="stable")
        best, fewest = -1, 1 << 30
        for z in order[:60]:
            if not d[z] <= SEEN_WITHIN:
                break
            n = self.in_the_way(int(z), cam.eye)
            if n == 0:
                return int(z)
            if n < fewest:
                best, fewest = int(z), n
        if best < 0 and math.isfinite(d[order[0]]):
            best = int(order[0])
        return best

    def in_clear_view(self, z: int, eye: np.ndarray) -> bool:
        """No other zombie of the horde in the way between zombie z and the camera."""
        return self.in_the_way(z, eye) == 0

    def in_the_way(self, z: int, eye: np.ndarray) -> int:
        """How many other zombies of the horde stand within CLEAR_WIDE m of the ground's line
        from zombie z toward the camera, from 1 m behind it to CLEAR_LONG m in front."""
        here = self.pos[z, [0, 2]]
        u = eye[[0, 2]] - here
        u /= max(float(np.linalg.norm(u)), 1e-9)
        rel = self.pos[:, [0, 2]] - here
        along = rel @ u
        across = np.abs(rel[:, 0] * u[1] - rel[:, 1] * u[0])
        near = (along > -1.0) & (along < CLEAR_LONG) & (across < CLEAR_WIDE)
        near &= handover.outs(self.pool) == 0
        near[z] = False
        return int(near.sum())

    def blow(self, z: int, point, kill: bool) -> int:
        """Strike (kill) zombie z at ``point`` (its chest if None): a click's away from the
        camera; the timer's across the view, so the fall is seen from its side, not end on."""
        if handover.outs(self.pool)[z]:
            return -1
        p = self.chest(z) if point is None else np.asarray(point, dtype=np.float64)
        cam = render.scene(self.e).camera
        away = p - cam.eye
        away[1] = 0.0
        away /= max(float(np.linalg.norm(away)), 1e-9)
        if point is None:
            away = np.array([-away[2], 0.0, away[0]])  # a quarter turn: across the view
        call = handover.kill if kill else handover.strike
        k = call(self.pool, z, p, (KILL_J if kill else STRIKE_J) * away)
        self.log.append((round(self.e.time, 3), z, "kill" if kill else "strike", k))
        return k

    def on_click(self, target, point, button) -> None:
        if not isinstance(target, render.HordeInstance) or target.horde is not self.horde:
            return
        if button in ("left", "right"):
            self.timer = False  # someone is clicking: the timer stops
            self.blow(int(target.index), point, kill=button == "right")


class _HordeStep(engine.PhaseProcessor):
    """The horde's step once a frame, in the pose phase before the clips advance."""

    phase = engine.priorities.POSE

    def __init__(self, e, demo: Demo) -> None:
        super().__init__(e)
        self.demo = demo

    def run(self, e, dt: float) -> None:
        self.demo.step(dt)


def build(e, path: str = "boxman.glb", timer: bool = True) -> Demo:
    d = Demo(e, path, timer=timer)
    render.camera_orbit(e, **CAMERA)
    return d


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    ap.add_argument("--figure", default="boxman.glb", help="any humanoid glTF (.glb/.gltf)")
    ap.add_argument("--out", default="out/horde_strike.mp4")
    ap.add_argument("--seconds", type=float, default=12.0)
    ap.add_argument("--size", default="1280x720")
    ap.add_argument("--fps", type=int, default=30)
    ap.add_argument("--headless", action="store_true", help="an MP4 even with a display")
    ap.add_argument("--quality", default="auto", choices=("auto", "high", "low"),
                    help="render preset (default auto: low on a software GL, else high)")
    ap.add_argument("--probe", action="store_true", help=argparse.SUPPRESS)  # the window test
    args = ap.parse_args()
    w, h = (int(v) for v in args.size.lower().split("x"))
    with engine.Engine() as e:
        if args.probe:
            _probe(e, args, w, h)
            return
        demo = build(e, args.figure)
        if not args.headless and render.window_available():
            last = [time.perf_counter(), 0.0]

            def on_frame(win):
                now = time.perf_counter()
                last[1] = 0.9 * last[1] + 0.1 * (now - last[0]) if last[1] else now - last[0]
                last[0] = now
                if e.frames % 15 == 0:
                    win.set_caption(f"ae3d horde_strike: {ZOMBIES} zombies, pool of {POOL} - "
                                    f"{1e3 * last[1]:.1f} ms a frame")

            render.window(e, w, h, title="ae3d horde_strike", on_click=demo.on_click,
                          on_frame=on_frame, quality=args.quality)
            return
        os.makedirs(os.path.dirname(os.path.abspath(args.out)), exist_ok=True)
        n = render.record(e, args.out, seconds=args.seconds, fps=args.fps, width=w, height=h,
                          quality=args.quality)
        print(f"wrote {args.out}: {n} frames, {w}x{h}; blows: {demo.log}")


def _probe(e, args, w: int, h: int) -> None:
    """The window test's run: no timer; prints {"ready": [x, y], "zombie": z} (the screen
    pixel of a zombie's chest near the middle), then {"struck": ...} when a click lands."""
    demo = build(e, args.figure, timer=False)
    state = {"frames": 0, "zombie": -1, "done": False}

    def on_click(target, point, button):
        before = int(handover.outs(demo.pool).sum())
        demo.on_click(target, point, button)
        idx = target.index if isinstance(target, render.HordeInstance) else None
        print(json.dumps({"struck": idx, "zombie": state["zombie"], "button": button,
                          "out": bool(idx is not None and handover.outs(demo.pool)[idx]),
                          "outs_before": before,
                          "outs_after": int(handover.outs(demo.pool).sum())}), flush=True)
        state["done"] = True

    def on_frame(win):
        state["frames"] += 1
        if state["frames"] == 5:
            z = demo.middle_zombie()
            state["zombie"] = z
            demo.timer = False
            wx, wy = win.get_location()
            x, y = render.project(e, demo.chest(z), w, h)
            print(json.dumps({"ready": [int(wx + x), int(wy + y)], "zombie": z}), flush=True)
        return False if state["done"] else None

    demo.walking = False  # the zombies stand still for the click
    # one zombie at the middle of the view, the others cleared from about it (none in front)
    target = render.scene(e).camera.target
    d = demo.pos[:, [0, 2]] - target[[0, 2]]
    r = np.hypot(d[:, 0], d[:, 1])
    near = r < 5.0
    demo.pos[near, 0] = target[0] + d[near, 0] / np.maximum(r[near], 1e-6) * 5.0
    demo.pos[near, 2] = target[2] + d[near, 1] / np.maximum(r[near], 1e-6) * 5.0
    demo.pos[0] = (target[0], 0.0, target[2])
    demo.draw()
    render.window(e, w, h, title="ae3d horde_strike probe", on_click=on_click, seconds=60.0,
                  on_frame=on_frame, quality=args.quality)


if __name__ == "__main__":
    main()
