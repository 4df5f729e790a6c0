"""What the horde's hand-over pool costs a frame (spec/motion.md "A horde can't be active
ragdolls"; issue 16).

A frame is the horde's step (``crowd.crowd_step_out`` over 400 zombies of the box man walking
toward a point) and one ``Engine.frame`` of a fixed step (the pool's step, motion, physics)
and the pose phase, no drawing, the physics solved on one thread (a shared machine's cores
make a parallel solve's waits cost more than it saves). Three scenes, the frames timed after a
warm-up:

* no pool: 400 zombies and a ground;
* twelve parked: the same with a pool of twelve, every figure parked (these two timed
  frame about frame, so that what the parked pool adds is measured under one load);
* twelve handed over: twelve zombies struck at 400 N·s at their chests, timed from 0.1 s after
  the blows (falling, landing, lying: every figure awake).

Reported: µs a frame for each (the spec measured 2.7, 4.3 and 290 to 400 µs), what the
parked pool adds a frame (the spec: under 2 µs), and µs per handed-over figure a frame
(the spec: 24 to 33), with each stage's share (``--stages``: every processor of the frame timed
on its own, the horde's step too, medians). Held in the table: twelve parked within 0.3 ms a
frame, twelve handed over within 3 ms. The machine's load (1-minute average) is printed and
written: the numbers are only as quiet as it was.

    PYTHONPATH=. .venv/bin/python bench/handover.py [--json PATH] [--frames 120] [--stages]
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

from ae3d import crowd, engine, figure, handover, physics  # noqa: E402

DT = 1.0 / 60.0
ZOMBIES = 400
POOL = 12
LIMIT_PARKED_US = 300.0
LIMIT_HANDED_US = 3000.0


def scene(pool: bool, threads: int = 1):
    e = engine.Engine()
    physics.ground(e)
    physics.set_threads(e, threads)
    src = figure.figure_of(e, figure.figure(e, "bank", "boxman.glb"))
    figure.set_visible(src, False)
    bank = crowd.posebank_bake_in_place(crowd.posebank_sample(src, "Walk", 30))
    bones = figure.humanoid_bones(src.rig)
    side = 20
    g = np.arange(ZOMBIES)
    pos = np.zeros((ZOMBIES, 3))
    pos[:, 0] = (g % side) * 2.0 - side
    pos[:, 2] = (g // side) * 2.0 - side
    yaw = np.zeros(ZOMBIES)
    phase = (g * 0.618) % 1.0
    p = None
    if pool:
        p = handover.pool_new(e, "boxman.glb", "Walk", POOL)
        handover.set_horde(p, pos, yaw, phase, ZOMBIES)
    outs = handover.outs(p) if p is not None else np.zeros(ZOMBIES, np.uint8)
    return e, p, bank, bones, pos, yaw, phase, outs


def time_frames(e, bank, pos, yaw, phase, outs, frames: int) -> float:
    """µs a frame, the median of ``frames`` frames."""
    vel = np.zeros_like(pos)
    target = np.array([0.0, 0.0, 200.0])
    ts = []
    for _ in range(frames):
        t0 = time.perf_counter()
        crowd.crowd_step_out(pos, vel, yaw, phase, outs, 0, ZOMBIES, DT, target, bank.speed,
                             bank.duration)
        e.frame(DT)
        ts.append(time.perf_counter() - t0)
    return float(np.median(ts)) * 1e6


def time_two(a: tuple, b: tuple, frames: int) -> tuple[float, float]:
    """µs a frame of two scenes (``scene``'s tuples), their frames taken turn about so that
    both see the same machine (a shared machine's load moves within seconds): the medians."""
    ta, tb = [], []
    for _ in range(frames):
        for sc, ts in ((a, ta), (b, tb)):
            e, _, bank, _, pos, yaw, phase, outs = sc
            ts.append(time_frames(e, bank, pos, yaw, phase, outs, 1))
    return float(np.median(ta)), float(np.median(tb))


def time_stages(e, bank, pos, yaw, phase, outs, frames: int) -> dict:
    """µs a frame of each stage (the medians of ``frames`` frames of one fixed step each): the
    horde's step, then every processor of the fixed phase and of the pose phase on its own."""
    from ae3d.engine import priorities
    vel = np.zeros_like(pos)
    target = np.array([0.0, 0.0, 200.0])
    names = {}
    for phase_name in (priorities.FIXED, priorities.POSE):
        for proc in e._phase_lists[phase_name]:  # noqa: SLF001 - the engine's phase order
            names[id(proc)] = f"{type(proc).__module__.split('.')[-2]}.{type(proc).__name__}"
    ts: dict[str, list[float]] = {"horde step": []}
    for _ in range(frames):
        t0 = time.perf_counter()
        crowd.crowd_step_out(pos, vel, yaw, phase, outs, 0, ZOMBIES, DT, target, bank.speed,
                             bank.duration)
        ts["horde step"].append(time.perf_counter() - t0)
        e.activate()
        for phase_name in (priorities.FIXED, priorities.POSE):
            for proc in e._phase_lists[phase_name]:  # noqa: SLF001
                t0 = time.perf_counter()
                proc.process(phase_name, DT)
                ts.setdefault(names[id(proc)], []).append(time.perf_counter() - t0)
            if phase_name == priorities.FIXED:
                e.time += e.fixed_dt
                e.steps += 1
        e.frames += 1
    return {k: float(np.median(v)) * 1e6 for k, v in ts.items()}


def time_pool(p, frames: int) -> float:
    """µs: the pool's own fixed step (its figures looked at; dt 0, so nothing moves on)."""
    from ae3d.handover import _pool
    ts = []
    for _ in range(frames):
        t0 = time.perf_counter()
        _pool.step(p, 0.0)
        ts.append(time.perf_counter() - t0)
    return float(np.median(ts)) * 1e6


def strike_twelve(p, bank, bones, pos, yaw, phase) -> None:
    for k in range(POOL):
        z = 37 * k % ZOMBIES
        ph = (phase[z] % 1.0) * bank.frames
        w = crowd.instance_root(pos[z], yaw[z]) @ bank.world[int(ph) % bank.frames]
        chest = 0.5 * (w[bones["Chest"], :3, 3] + w[bones["Neck"], :3, 3])
        fwd = np.array([math.sin(yaw[z]), 0.0, math.cos(yaw[z])])
        handover.strike(p, z, chest, -400.0 * fwd)


def main() -> None:
    ap = argparse.ArgumentParser()
    ap.add_argument("--json", default=None, help="write the table here")
    ap.add_argument("--frames", type=int, default=120)
    ap.add_argument("--stages", action="store_true",
                    help="also time every stage of the frame on its own, in each scene")
    args = ap.parse_args()
    rows = {}
    stages = {}
    load_before = os.getloadavg()[0]
    bare = scene(False)
    parked = scene(True)
    for sc in (bare, parked):
        time_frames(sc[0], *sc[2:3], *sc[4:], 30)
    # the two taken turn about: what the parked pool adds is their difference, under one load
    rows["no_pool_us"], rows["twelve_parked_us"] = time_two(bare, parked, 4 * args.frames)
    if args.stages:
        stages["no pool"] = time_stages(bare[0], *bare[2:3], *bare[4:], args.frames)
        stages["twelve parked"] = time_stages(parked[0], *parked[2:3], *parked[4:], args.frames)
    bare[0].close()
    e, p, bank, bones, pos, yaw, phase, outs = parked
    strike_twelve(p, bank, bones, pos, yaw, phase)
    time_frames(e, bank, pos, yaw, phase, outs, 6)
    rows["twelve_handed_over_us"] = time_frames(e, bank, pos, yaw, phase, outs, args.frames)
    if args.stages:
        e.close()  # the same twelve blows again, timed stage by stage over the same 2 s
        e, p, bank, bones, pos, yaw, phase, outs = scene(True)
        time_frames(e, bank, pos, yaw, phase, outs, 30)
        strike_twelve(p, bank, bones, pos, yaw, phase)
        time_frames(e, bank, pos, yaw, phase, outs, 6)
        stages["twelve handed over"] = time_stages(e, bank, pos, yaw, phase, outs, args.frames)
    rows["pool_step_twelve_handed_over_us"] = time_pool(p, args.frames)
    e.close()
    rows["load_1min"] = [load_before, os.getloadavg()[0]]
    rows["parked_pool_adds_us"] = rows["twelve_parked_us"] - rows["no_pool_us"]
    rows["per_handed_over_figure_us"] = (rows["twelve_handed_over_us"]
                                         - rows["twelve_parked_us"]) / POOL
    rows["parked_within_limit"] = rows["twelve_parked_us"] <= LIMIT_PARKED_US
    rows["handed_over_within_limit"] = rows["twelve_handed_over_us"] <= LIMIT_HANDED_US
    print(f"a frame of {ZOMBIES} zombies (the horde's step and one fixed step, no drawing):")
    print(f"  no pool             {rows['no_pool_us']:9.1f} µs   (spec 2.7)")
    print(f"  twelve parked       {rows['twelve_parked_us']:9.1f} µs   (spec 4.3; held "
          f"{LIMIT_PARKED_US:.0f}: {'ok' if rows['parked_within_limit'] else 'OVER'})")
    print(f"  twelve handed over  {rows['twelve_handed_over_us']:9.1f} µs   (spec 290-400; held "
          f"{LIMIT_HANDED_US:.0f}: {'ok' if rows['handed_over_within_limit'] else 'OVER'})")
    print(f"  the parked pool adds {rows['parked_pool_adds_us']:.1f} µs a frame (spec under 2)")
    print(f"  a handed-over figure: {rows['per_handed_over_figure_us']:.1f} µs a frame "
          f"(spec 24-33), of which the pool's own step "
          f"{rows['pool_step_twelve_handed_over_us'] / POOL:.1f} µs")
    if stages:
        print("stage by stage, µs a frame (medians; a handed-over figure's share: the twelve's "
              "less the parked, over twelve):")
        names = list(dict.fromkeys(k for v in stages.values() for k in v))
        print("  " + f"{'stage':24s}" + "".join(f"{k:>20s}" for k in stages) + "   per figure")
        for k in names:
            vals = [stages[s].get(k, 0.0) for s in stages]
            per = (stages.get("twelve handed over", {}).get(k, 0.0)
                   - stages.get("twelve parked", {}).get(k, 0.0)) / POOL
            print("  " + f"{k:24s}" + "".join(f"{v:20.1f}" for v in vals) + f"{per:12.1f}")
        rows["stages_us"] = stages
    print(f"machine load (1-minute average): {rows['load_1min'][0]:.1f} before, "
          f"{rows['load_1min'][1]:.1f} after, on {os.cpu_count()} cores")
    if args.json:
        with open(args.json, "w") as fh:
            json.dump({"bench": "handover", "frames": args.frames, "zombies": ZOMBIES,
                       "pool": POOL, "rows": rows}, fh, indent=1)


if __name__ == "__main__":
    main()
