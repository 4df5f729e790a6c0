"""Benchmark: powered reference ragdolls standing on one ground (the spec's test_motion_cost table).

0, 4, 16 and 32 ragdolls stand on their motors (every joint driven toward the standing pose, the
gap closed in 50 ms, capped at 20 rad/s, within its budget) and the pelvis's upright anchor
(1,200 N·m), each chest bowing 15 degrees forward and back every 2 s so that it stays awake. After
1 s of settling, 120 fixed steps of 1/60 s at 8 sub-steps are timed: µs per step, per figure, and
figures per millisecond. The drive (``physics.ragdolls_drive``: one njit call for every figure
each step) is timed apart. Each count runs on one solver thread and on every thread this machine
has (``physics.set_threads``: each standing figure is an island of its own; the same bits either
way).

The same figures in MuJoCo (if installed, ``pip install mujoco``: the ``bench`` extra): capsules of
the same sizes and masses, ball joints as three hinges with the same ranges (the cone as a box),
hinges for knees and elbows, position servos on every joint DOF with force ranges at the same
budgets, the pelvis on three slides and three hinges whose two tilts are servoed within 1,200 N·m
(the upright anchor), 8 steps of 1/480 s per frame, on one thread (the ratio to ae3d is given
for ae3d's one thread and for its every thread). Prints a table; ``--json PATH`` writes it.
Asserts nothing about time.

``--breakdown N`` times each stage of the step for N figures instead: the stages of
``_kernels_step.step_world`` called one by one from Python in its order (the same kernels on the
same data, so the same results), best and median over the timed steps, µs per figure per step
(the sub-step stages summed over the sub-steps). Keep it in step with ``step_world``'s order.
"""

from __future__ import annotations

import argparse
import json
import math
import os
import sys
import time

import numpy as np

sys.path.insert(0, os.path.join(os.path.dirname(__file__), ".."))

from ae3d import engine, human, physics  # noqa: E402
from ae3d.physics import _layout as L  # noqa: E402
from ae3d.physics._api_joints import _qconj, _qmul  # noqa: E402

COUNTS = (0, 4, 16, 32)
SETTLE = 60
STEPS = 120
BOW = math.radians(15.0)
BOW_PERIOD = 2.0


def _bow_targets(rest, t):
    """The standing pose with the chest bowed forward by BOW sin(2 pi t / period)."""
    a = BOW * math.sin(2.0 * math.pi * t / BOW_PERIOD)
    turn = np.array([math.sin(0.5 * a), 0.0, 0.0, math.cos(0.5 * a)])  # about +X: forward
    qa = np.array(human.BONE_REST_QUAT[human.BONE_SPINE_01])
    out = rest.copy()
    out[human.BONE_SPINE_03] = _qmul(_qmul(_qconj(qa), turn), _qmul(qa, rest[human.BONE_SPINE_03]))
    return out


def run_ae3d(n: int, threads: int = 1) -> dict:
    e = engine.Engine()
    physics.set_threads(e, threads)
    w = e.physics
    w.add_body(L.KIND_STATIC, L.SHAPE_PLANE, (0.0, 0.0, 0.0), (0.0, 0.0, 0.0))
    rs = []
    for k in range(n):
        r = physics.ragdoll(e, f"r{k}", (2.0 * (k % 8), 0.0, 2.0 * (k // 8)), 8.0, 8.0, 1.0)
        physics.ragdoll_set_powered(r, True)
        physics.ragdoll_set_balance(r, human.BALANCE_TORQUE)
        rs.append(r)
    rest = physics.ragdoll_rest_targets(rs[0]) if rs else None
    dt = e.fixed_dt
    t = 0.0
    for _ in range(SETTLE):
        if rs:
            physics.ragdolls_drive(rs, _bow_targets(rest, t))
        w.step(dt)
        t += dt
    step_s = []
    drive_s = []
    for _ in range(STEPS):
        t0 = time.perf_counter()
        if rs:
            physics.ragdolls_drive(rs, _bow_targets(rest, t))
        t1 = time.perf_counter()
        w.step(dt)
        t2 = time.perf_counter()
        drive_s.append(t1 - t0)
        step_s.append(t2 - t1)
        t += dt
    standing = sum(1 for r in rs if w.bf[r.bodies[0], L.B_POS + 1] > 0.8)
    us = 1e6 * float(np.mean(step_s))
    out = {
        "figures": n,
        "threads": threads,
        "substeps": w.effective_substeps,
        "us_per_step": us,
        "us_per_figure": us / n if n else None,
        "figures_per_ms": 1000.0 / (us / n) if n else None,
        "drive_us_per_figure": 1e6 * float(np.mean(drive_s)) / n if n else None,
        "awake_bodies": w.awake_count(),
        "standing": standing,
    }
    e.close()
    return out


def breakdown(n: int) -> dict:
    """Per-stage µs per figure per step (best, median) for n figures; see the module docstring."""
    from ae3d.physics import _kernels_step as ks
    from ae3d.physics._kernels_anchors import prepare_anchors, solve_anchors, warm_start_anchors
    from ae3d.physics._kernels_broadphase import compute_bounds, find_pairs
    from ae3d.physics._kernels_contact import (
        CG_COUNT,
        apply_restitution,
        build_manifolds,
        prepare_contacts,
        solve_contacts,
        warm_start_contacts,
    )
    from ae3d.physics._kernels_joints import (
        G_COUNT,
        prepare_joints,
        solve_joints,
        warm_start_joints,
    )
    from ae3d.physics._kernels_sleep import update_sleep, wake_through_joints

    e = engine.Engine()
    w = e.physics
    w.add_body(L.KIND_STATIC, L.SHAPE_PLANE, (0.0, 0.0, 0.0), (0.0, 0.0, 0.0))
    rs = []
    for k in range(n):
        r = physics.ragdoll(e, f"r{k}", (2.0 * (k % 8), 0.0, 2.0 * (k // 8)), 8.0, 8.0, 1.0)
        physics.ragdoll_set_powered(r, True)
        physics.ragdoll_set_balance(r, human.BALANCE_TORQUE)
        rs.append(r)
    rest = physics.ragdoll_rest_targets(rs[0])
    dt = e.fixed_dt
    t = 0.0
    for _ in range(SETTLE):
        physics.ragdolls_drive(rs, _bow_targets(rest, t))
        w.step(dt)
        t += dt
    acc: dict = {}

    def tm(name, f, *a):
        t0 = time.perf_counter()
        r = f(*a)
        acc[name] = acc.get(name, 0.0) + time.perf_counter() - t0
        return r

    def step():
        g = w.gravity
        bf, bi, jf, ji, af, ai, sf, si = w.bf, w.bi, w.jf, w.ji, w.af, w.ai, w.sf, w.si
        mf1, mi1, keys = w._mf1, w._mi1, w.keys
        cn, cp, cs, cid = w._cn, w._cp, w._cs, w._cid
        nb, nj, na, nsub = w.n, w.nj, w.na, w.effective_substeps
        h = dt / nsub
        gx, gy, gz = float(g[0]), float(g[1]), float(g[2])
        gmag = math.sqrt(gx * gx + gy * gy + gz * gz)
        lb, lj, la = w._live_lists()  # the rows the step walks (none parked here)
        tm("wake through joints", wake_through_joints, bf, bi, nb, ji, lj)
        tm("activity", ks._activity, bf, bi, lb, si)
        axis = tm("bounds", compute_bounds, bf, bi, lb, dt, gmag, w.margin, sf,
                  w.max_linear_speed, ks.MAX_TURN * nsub / dt, w.reach_spin)
        cap = keys.shape[0]
        npairs = tm("find pairs", find_pairs, bf, bi, nb, lb, sf, si, axis, keys, cap, w.ign,
                    w._n_ign, w.margin, w.ip[ks.IP_SORT:ks.IP_SORT + 2])
        tm("wake pass", ks._wake_pass, bf, bi, nb, keys, min(npairs, cap), sf, si, cn, cp, cs,
           cid)
        tm("start poses", ks._start_poses, bf, bi, lb)
        si[:nb, L.SI_TOUCH] = 0
        nm = tm("build manifolds", build_manifolds, bf, bi, keys, min(npairs, cap), sf, si, w.mf,
                w.mi, w.nm, mf1, mi1, mf1.shape[0], cn, cp, cs, cid, w.step_flags)
        nm = min(nm, mf1.shape[0])
        tm("joints prepare", prepare_joints, bf, bi, jf, ji, lj, h, dt)
        tm("anchors prepare", prepare_anchors, bf, bi, af, ai, la, h)
        tm("contacts prepare", prepare_contacts, bf, mf1, mi1, nm, h, w.contact_hertz,
           w.contact_damping)
        jg = np.empty((nj, G_COUNT))
        cg = np.empty((max(nm, 1), CG_COUNT))
        # the stages one after another over the whole world (one island, one thread)
        bl = np.arange(nb, dtype=np.int64)
        jl = np.arange(nj, dtype=np.int64)
        al = np.arange(na, dtype=np.int64)
        ml = np.arange(nm, dtype=np.int64)
        for s_ in range(nsub):
            tm("integrate velocities", ks._integrate_velocities, bf, bi, bl, h, gx, gy, gz)
            tm("joints warm start", warm_start_joints, bf, bi, jf, ji, jl, jg, s_ > 0)
            tm("anchors warm start", warm_start_anchors, bf, bi, af, ai, al)
            tm("contacts warm start", warm_start_contacts, bf, mf1, mi1, ml, cg, s_ > 0)
            tm("joints solve", solve_joints, bf, bi, jf, ji, jl, h, True, jg, s_ > 0)
            tm("anchors solve", solve_anchors, bf, bi, af, ai, al, h, True)
            tm("contacts solve", solve_contacts, bf, mf1, mi1, ml, 1.0 / h, True,
               w.contact_speed, w.point_sweeps, cg, s_ > 0)
            tm("integrate positions", ks._integrate_positions, bf, bi, si, bl, h, gx, gy, gz,
               w.max_linear_speed)
            tm("joints relax", solve_joints, bf, bi, jf, ji, jl, h, False, jg, False)
            tm("anchors relax", solve_anchors, bf, bi, af, ai, al, h, False)
            tm("contacts relax", solve_contacts, bf, mf1, mi1, ml, 1.0 / h, False,
               w.contact_speed, w.point_sweeps, cg, False)
        tm("restitution", apply_restitution, bf, mf1, mi1, nm, w.restitution_threshold)
        tm("nets", ks._hold_to_nets, bf, bi, lb, jf, ji, nj, af, ai, na, mi1, nm,
           w.max_linear_speed, ks.MAX_TURN / h, np.zeros(max(nb, 1), dtype=np.int64))
        if tm("joints open", ks.joints_open, bf, bi, jf, ji, lj, w.project_gap) \
                and w.project_sweeps > 0:
            pl = ks.ground_planes(bi, nb)
            tm("project", ks.project_joints, bf, bi, si, jf, ji, lj, mf1, mi1, nm,
               np.empty((max(nm, 1), 4)), pl, np.empty((nb, max(pl.shape[0], 1))),
               w.project_sweeps, w.project_gap, w.step_flags)
        bf[:nb, L.B_FORCE:L.B_FORCE + 3] = 0.0
        bf[:nb, L.B_TORQUE:L.B_TORQUE + 3] = 0.0
        tm("sleep", update_sleep, bf, bi, lb, mi1, nm, ji, lj, sf, si, dt, w.sleep_threshold,
           w.time_to_sleep, 1 if w.sleep else 0)
        w.mf, w._mf1 = w._mf1, w.mf
        w.mi, w._mi1 = w._mi1, w.mi
        w.nm = int(nm)
        w.last_pairs = int(npairs)
        return npairs, nm

    per: dict = {}
    for k in range(20 + STEPS):  # 20 to compile and warm up
        physics.ragdolls_drive(rs, _bow_targets(rest, t))
        acc.clear()
        npairs, nm = step()
        t += dt
        if k >= 20:
            for name, v in acc.items():
                per.setdefault(name, []).append(1e6 * v / n)
    rows = {name: (float(np.min(v)), float(np.median(v))) for name, v in per.items()}
    out = {"figures": n, "pairs": int(npairs), "manifolds": int(nm), "stages": rows}
    e.close()
    return out


def print_breakdown(b: dict) -> None:
    print(f"{b['figures']} figures, {b['pairs']} candidate pairs, {b['manifolds']} manifolds;"
          " µs per figure per step")
    print(f"{'stage':>22} {'best':>7} {'median':>7}")
    groups: dict = {}
    for name, (lo, med) in sorted(b["stages"].items(), key=lambda kv: -kv[1][0]):
        print(f"{name:>22} {lo:7.2f} {med:7.2f}")
        g = name.split()[0] if name.split()[0] in ("joints", "anchors", "contacts") else "other"
        groups[g] = groups.get(g, 0.0) + lo
    print("  best by group: " + ", ".join(f"{g} {v:.1f}" for g, v in groups.items())
          + f"; sum {sum(groups.values()):.1f}")


# ---------------------------------------------------------------------------------- MuJoCo
def _fmt(v):
    return " ".join(f"{x:.6g}" for x in v)


def _mjcf(n: int) -> str:
    """An MJCF of n reference ragdolls (same capsules, masses, ranges and budgets)."""
    feet = False
    bodies = []
    for k in range(n):
        ox, oz = 2.0 * (k % 8), 2.0 * (k // 8)
        bodies.append(_mj_figure(k, ox, oz, feet))
    actuators = "\n".join(a for _, a in bodies)
    xml = f"""<mujoco model="ragdolls">
  <option timestep="{1.0 / 480.0}" gravity="0 -9.81 0" integrator="implicitfast"/>
  <default><geom friction="0.9 0.005 0.0001" condim="3"/></default>
  <worldbody>
    <geom name="ground" type="plane" size="100 100 0.1" zaxis="0 1 0"/>
    {"".join(b for b, _ in bodies)}
  </worldbody>
  <actuator>
{actuators}
  </actuator>
</mujoco>"""
    return xml


def _mj_figure(k: int, ox: float, oz: float, feet: bool):
    """(body xml, actuator xml) of figure k at (ox, 0, oz). Bodies are placed in world coordinates
    through nested frames; every capsule as in human.bone_rest, masses from human.bone_mass."""
    nb = human.BONE_COUNT
    kids = {b: [] for b in range(nb)}
    for b in range(1, nb):
        kids[human.BONE_PARENT[b]].append(b)
    acts = []

    def capsule(b):
        (cx, cy, cz), q, (rad, hs) = human.bone_rest(b, feet)
        # segment along the body's local y, rotated by q, in world coordinates
        x, y, z, w = q
        ax = np.array([2 * (x * y - w * z), 1 - 2 * (x * x + z * z), 2 * (y * z + w * x)])
        p0 = np.array([cx + ox, cy, cz + oz]) - ax * hs
        p1 = np.array([cx + ox, cy, cz + oz]) + ax * hs
        return p0, p1, rad, human.bone_mass(b, feet)

    def joint_xml(b):
        spec = human.JOINTS[b]
        p = np.array(spec["point"]) + (ox, 0.0, oz)
        name = f"f{k}b{b}"
        budget = human.BUDGETS[b]
        kp = 400.0 if budget >= 100 else 60.0
        if spec["kind"] == human.JOINT_KIND_HINGE:
            lo, hi = spec["range"]
            acts.append(f'    <position joint="{name}" kp="{kp}" kv="{kp * 0.05}" '
                        f'forcerange="{-budget} {budget}" forcelimited="true"/>')
            return (f'<joint name="{name}" type="hinge" pos="{_fmt(p)}" '
                    f'axis="{_fmt(spec["axis"])}" range="{lo} {hi}" limited="true"/>')
        out = []
        hy, hz = spec["half_y"], spec["half_z"]
        lo, hi = spec["twist"]
        for ax_name, axis, rng in (("x", (1, 0, 0), (-hz, hz)), ("y", (0, 1, 0), (lo, hi)),
                                   ("z", (0, 0, 1), (-hy, hy))):
            jn = f"{name}{ax_name}"
            out.append(f'<joint name="{jn}" type="hinge" pos="{_fmt(p)}" axis="{_fmt(axis)}" '
                       f'range="{rng[0]} {rng[1]}" limited="true"/>')
            acts.append(f'    <position joint="{jn}" kp="{kp}" kv="{kp * 0.05}" '
                        f'forcerange="{-budget} {budget}" forcelimited="true"/>')
        return "".join(out)

    def body_xml(b):
        p0, p1, rad, m = capsule(b)
        inner = ""
        if b == human.BONE_PELVIS:
            c = 0.5 * (p0 + p1)
            inner += (f'<joint name="f{k}sx" type="slide" pos="{_fmt(c)}" axis="1 0 0"/>'
                      f'<joint name="f{k}sy" type="slide" pos="{_fmt(c)}" axis="0 1 0"/>'
                      f'<joint name="f{k}sz" type="slide" pos="{_fmt(c)}" axis="0 0 1"/>'
                      f'<joint name="f{k}rx" type="hinge" pos="{_fmt(c)}" axis="1 0 0"/>'
                      f'<joint name="f{k}rz" type="hinge" pos="{_fmt(c)}" axis="0 0 1"/>'
                      f'<joint name="f{k}ry" type="hinge" pos="{_fmt(c)}" axis="0 1 0"/>')
            for a in ("rx", "rz"):  # the upright anchor: tilts servoed within 1,200 N·m
                acts.append(f'    <position joint="f{k}{a}" kp="5000" kv="250" '
                            f'forcerange="-1200 1200" forcelimited="true"/>')
        else:
            inner += joint_xml(b)
        inner += (f'<geom type="capsule" fromto="{_fmt(p0)} {_fmt(p1)}" size="{rad}" '
                  f'mass="{m}"/>')
        for c in kids[b]:
            inner += body_xml(c)
        return f'<body name="f{k}b{b}">{inner}</body>'

    return body_xml(human.BONE_PELVIS), "\n".join(acts)


def run_mujoco(n: int) -> dict | None:
    try:
        import mujoco
    except ImportError:
        return None
    if n == 0:
        model = mujoco.MjModel.from_xml_string(_mjcf(0))
    else:
        model = mujoco.MjModel.from_xml_string(_mjcf(n))
    data = mujoco.MjData(model)
    nact = model.nu
    # actuators per figure, in order; bow the chest's sagittal hinge (spine_03, axis x)
    chest = [i for i in range(nact)
             if mujoco.mj_id2name(model, mujoco.mjtObj.mjOBJ_JOINT, model.actuator_trnid[i, 0])
             .endswith(f"b{human.BONE_SPINE_03}x")]
    t = 0.0
    dt = 1.0 / 60.0

    def frame():
        nonlocal t
        a = BOW * math.sin(2.0 * math.pi * t / BOW_PERIOD)
        data.ctrl[chest] = a
        for _ in range(8):
            mujoco.mj_step(model, data)
        t += dt

    for _ in range(SETTLE):
        frame()
    ts = []
    for _ in range(STEPS):
        t0 = time.perf_counter()
        frame()
        ts.append(time.perf_counter() - t0)
    us = 1e6 * float(np.mean(ts))
    return {"figures": n, "us_per_step": us, "us_per_figure": us / n if n else None,
            "figures_per_ms": 1000.0 / (us / n) if n else None}


def main(argv=None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--json", help="write the results here")
    ap.add_argument("--counts", default=",".join(map(str, COUNTS)))
    ap.add_argument("--breakdown", type=int, metavar="N",
                    help="time each stage of the step for N figures instead")
    args = ap.parse_args(argv)
    if args.breakdown:
        b = breakdown(args.breakdown)
        print_breakdown(b)
        if args.json:
            with open(args.json, "w") as fh:
                json.dump({"bench": "ragdolls_breakdown", **b}, fh, indent=2)
        return 0
    counts = [int(c) for c in args.counts.split(",")]
    top = physics.max_threads()
    run_ae3d(1)  # compile / load the kernels first
    rows = []
    print(f"µs per figure per step on 1 solver thread and on {top}; MuJoCo on 1")
    print(f"{'figures':>7} {'µs/step':>10} {'µs/figure':>10} {'fig/ms':>7}"
          f" {f'µs/fig {top}t':>10} {f'fig/ms {top}t':>10} {'drive µs/fig':>12}"
          f" {'MuJoCo µs/fig':>14} {'ratio':>6} {f'ratio {top}t':>8} {'standing':>8}")
    for n in counts:
        a = run_ae3d(n)
        p = run_ae3d(n, top) if top > 1 else a
        m = run_mujoco(n)
        ratio = (m["us_per_step"] / a["us_per_step"]) if (m and n) else None
        ratio_p = (m["us_per_step"] / p["us_per_step"]) if (m and n) else None
        row = {"ae3d": a, "ae3d_threads": p, "mujoco": m, "mujoco_over_ae3d": ratio,
               "mujoco_over_ae3d_threads": ratio_p}
        rows.append(row)

        def f(v, fmt):
            return format(v, fmt) if v is not None else "-"

        print(f"{n:>7} {a['us_per_step']:>10.1f} {f(a['us_per_figure'], '10.1f')}"
              f" {f(a['figures_per_ms'], '7.1f')} {f(p['us_per_figure'], '10.1f')}"
              f" {f(p['figures_per_ms'], '10.1f')} {f(a['drive_us_per_figure'], '12.1f')}"
              f" {f(m and m['us_per_figure'], '14.1f')} {f(ratio, '6.2f')} {f(ratio_p, '8.2f')}"
              f" {min(a['standing'], p['standing']):>5}/{n}")
    if args.json:
        with open(args.json, "w") as fh:
            json.dump({"bench": "ragdolls", "steps": STEPS, "substeps": 8, "threads": top,
                       "rows": rows}, fh, indent=2)
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
