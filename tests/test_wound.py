"""Where it was hit (spec/motion.md #698, issue 15): a blow the figure stands through is answered
where it landed (``motion.set_hit_reaction``, on by default; ``ae3d/motion/_wound.py``).

Box men POWERED on Idle, 3 m apart in one engine, struck once a second in:

- the belly, 25 N·s from in front: the palm rests within 13 cm of the point struck (spec 13 cm;
  the point carried with the body) and the chest folds toward it (spec 8 cm: held 4 to 12 cm);
  a twin with ``set_hit_reaction(False)`` answers nothing (no wound, no aim, no fold);
- the left thigh, 25 N·s: the left knee gives about 0.3 rad (held 0.2 to 0.4);
- the right upper arm from its outside, 8 N·s: the left hand reaches across; its forearm comes
  to rest on the trunk (within 2 cm of the chest's or the lower back's capsule), the palm's
  distance reported (#700: about 10 cm short);
- the rules: a blow taking under a quarter of the bone's muscle (the chest, 3 N·s) and one
  leaving the body 0.3 m/s or more (the belly, 40 N·s) are not answered;
- the reaching arm's aimed way turns no faster than 4.5 rad/s.

The sweep: box man and Mixamo man, struck at eight bones from four ways at 8, 16 and 25 N·s
(96 figures): the hand is never the struck arm or a weak one, no joint tears (gap under 10 cm),
nothing leaves the world or goes NaN. The same run twice gives the same bits.
"""

from __future__ import annotations

import math

import numpy as np
import pytest
from blows import TEAR_GAP, Watch, boxman
from motion import measure as M

from ae3d import engine, human, motion, physics
from ae3d._math import quat_rot
from ae3d.physics import _layout as L

DT = 1.0 / 60.0
SETTLE = 1.0
HOLD = 2.5
B = human


def _q(w, s):
    return w.bf[s, L.B_QUAT:L.B_QUAT + 4].copy()


def _p(w, s):
    return w.bf[s, L.B_POS:L.B_POS + 3].copy()


def palm(e, r, arm: int) -> np.ndarray:
    """The palm: the forearm's far end (as far past its centre as the elbow is before it)."""
    w = e.physics
    lb = (B.BONE_LOWERARM_L, B.BONE_LOWERARM_R)[arm]
    s, j = int(r.bodies[lb]), int(r.joints[lb])
    return _p(w, s) - quat_rot(_q(w, s), w.jf[j, L.J_PB:L.J_PB + 3])


def ways(e, r) -> dict:
    """The figure's front, back, left and right over the ground (unit, world)."""
    w = e.physics
    fwd = quat_rot(_q(w, int(r.bodies[0])), np.array(B.BONE_FORWARD_LOCAL[0], float))
    fwd[1] = 0.0
    fwd /= np.linalg.norm(fwd)
    left = _p(w, int(r.bodies[B.BONE_UPPERARM_L])) - _p(w, int(r.bodies[B.BONE_UPPERARM_R]))
    left[1] = 0.0
    left /= np.linalg.norm(left)
    return {"front": fwd, "back": -fwd, "left": left, "right": -left}


def surface_point(e, r, bone: int, way: np.ndarray) -> np.ndarray:
    """The point of the bone's capsule out along ``way`` from its centre (m)."""
    w = e.physics
    s = int(r.bodies[bone])
    return _p(w, s) + way * float(w.bf[s, L.B_DIMS])


def capsule_gap(e, r, a: int, b: int) -> float:
    """m between two bones' capsules (their cores' nearest points, less both radii)."""
    w = e.physics

    def seg(bone):
        s = int(r.bodies[bone])
        h = quat_rot(_q(w, s), np.array([0.0, w.bf[s, L.B_DIMS + 1], 0.0]))
        return _p(w, s) - h, _p(w, s) + h, float(w.bf[s, L.B_DIMS])

    p0, p1, ra = seg(a)
    q0, q1, rb = seg(b)
    best = 1e9
    for t in np.linspace(0.0, 1.0, 21):
        x = p0 + t * (p1 - p0)
        d = q1 - q0
        u = np.clip(np.dot(x - q0, d) / max(np.dot(d, d), 1e-12), 0.0, 1.0)
        best = min(best, float(np.linalg.norm(x - (q0 + u * d))))
    return best - ra - rb


def knee_angle(e, r, calf: int) -> float:
    w = e.physics
    thigh = B.BONE_PARENT[calf]
    a = quat_rot(_q(w, int(r.bodies[calf])), np.array([0.0, 1.0, 0.0]))
    b = quat_rot(_q(w, int(r.bodies[thigh])), np.array([0.0, 1.0, 0.0]))
    return math.acos(float(np.clip(np.dot(a, b), -1.0, 1.0)))


CASES = {
    # name: (bone, the side struck, N·s, hit reaction on)
    "belly": (B.BONE_SPINE_01, "front", 25.0, True),
    "belly_off": (B.BONE_SPINE_01, "front", 25.0, False),
    "thigh": (B.BONE_THIGH_L, "front", 25.0, True),
    "across": (B.BONE_UPPERARM_R, "right", 8.0, True),
    "quarter": (B.BONE_SPINE_03, "front", 3.0, True),
    "thrown": (B.BONE_SPINE_01, "front", 40.0, True),
}


def _scene():
    e = engine.Engine()
    physics.ground(e)
    figs = {}
    for i, (name, (_bone, _side, _j, on)) in enumerate(CASES.items()):
        m = boxman(e, name, (3.0 * i, 0.0, 0.0), motion.POWERED)
        motion.set_hit_reaction(m, on)
        figs[name] = m
    e.run(seconds=SETTLE)
    w = e.physics
    rec = {n: {"dist": [], "fold": [], "knee": [], "wound": [], "aims": [], "gap": [],
               "turn": []} for n in CASES}
    local = {}
    for name, (bone, side, J, _) in CASES.items():
        m = figs[name]
        r = m.ragdoll
        way = ways(e, r)[side]
        p = surface_point(e, r, bone, way)
        s = int(r.bodies[bone])
        qi = _q(w, s) * np.array([-1.0, -1.0, -1.0, 1.0])
        local[name] = (s, quat_rot(qi, p - _p(w, s)), way)
        rec[name]["chest0"] = _p(w, int(r.bodies[B.BONE_SPINE_03])) - _p(w, int(r.bodies[0]))
        rec[name]["knee0"] = knee_angle(e, r, B.BONE_CALF_L)
        motion.hit(m, bone, p, -J * way)
    from ae3d.motion._layout import PB_REACH_D
    from ae3d.motion._service import service
    sv = service(e)
    prev = {n: None for n in CASES}
    for _ in range(int(round((HOLD + 0.25) / DT))):
        e.fixed_step()
        for name, m in figs.items():
            r = m.ragdoll
            s, loc, way = local[name]
            pw = _p(w, s) + quat_rot(_q(w, s), loc)
            x = rec[name]
            x["dist"].append([float(np.linalg.norm(palm(e, r, a) - pw)) for a in (0, 1)])
            c = _p(w, int(r.bodies[B.BONE_SPINE_03])) - _p(w, int(r.bodies[0]))
            x["fold"].append(float((c - x["chest0"]) @ way))
            x["knee"].append(knee_angle(e, r, B.BONE_CALF_L) - x["knee0"])
            x["wound"].append(motion.wound(m))
            x["aims"].append(int(np.sum(w.ji[r.joints[1:], L.J_DRIVE] == L.DRIVE_AIM)))
            x["gap"].append(min(capsule_gap(e, r, B.BONE_LOWERARM_L, t)
                                for t in (B.BONE_SPINE_01, B.BONE_SPINE_03)))
            d = sv.pbf[m.slot, B.BONE_UPPERARM_L, PB_REACH_D:PB_REACH_D + 3].copy()
            if prev[name] is not None:
                x["turn"].append(math.acos(float(np.clip(d @ prev[name], -1.0, 1.0))) / DT)
            prev[name] = d
    digest = M.world_digest(e)
    return e, figs, rec, digest


@pytest.fixture(scope="module")
def scene():
    e, figs, rec, digest = _scene()
    yield figs, rec, digest
    e.close()


def _rest(x, key):
    """The values 1.0 to 2.4 s after the blow (the hand has come)."""
    return np.asarray(x[key][60:144])


def test_belly_palm_within_13cm_and_chest_folds(scene):
    _, rec, _ = scene
    x = rec["belly"]
    assert x["wound"][2] is not None and x["wound"][2][0] == B.BONE_SPINE_01
    arm = x["wound"][2][1]
    d = _rest(x, "dist")[:, arm]
    fold = float(np.max(x["fold"]))
    print(f"\nbelly 25 N·s: the palm rests {100 * d.mean():.1f} cm from the point struck "
          f"(closest {100 * d.min():.1f}; spec 13), the chest folds {100 * fold:.1f} cm toward "
          f"it (spec 8); twin off: {100 * max(rec['belly_off']['fold']):.1f} cm")
    assert d.mean() <= 0.13
    assert 0.04 <= fold <= 0.12


def test_off_answers_none(scene):
    _, rec, _ = scene
    x = rec["belly_off"]
    assert all(v is None for v in x["wound"])
    assert max(x["aims"]) == 0
    assert max(x["fold"]) < 0.02


def test_thigh_knee_gives(scene):
    _, rec, _ = scene
    x = rec["thigh"]
    assert x["wound"][2] is not None and x["wound"][2][1] == 0   # the left hand, its side
    k = float(_rest(x, "knee").mean())
    print(f"\nthigh 25 N·s: the knee gives {k:.2f} rad (spec 0.3)")
    assert 0.2 <= k <= 0.4


def test_across_forearm_on_the_chest(scene):
    _, rec, _ = scene
    x = rec["across"]
    assert x["wound"][2] is not None and x["wound"][2][1] == 0   # the other hand
    gap = float(_rest(x, "gap").mean())
    d = float(_rest(x, "dist")[:, 0].mean())
    print(f"\nacross to the right upper arm: the left forearm {100 * gap:.1f} cm off the trunk, "
          f"the palm {100 * d:.1f} cm from the point struck (spec: about 10 short, #700)")
    assert gap <= 0.02


def test_quarter_and_throw_rules(scene):
    _, rec, _ = scene
    for name in ("quarter", "thrown"):
        assert all(v is None for v in rec[name]["wound"]), name
        assert max(rec[name]["aims"]) == 0, name


def test_arm_turns_no_faster_than_4_5(scene):
    _, rec, _ = scene
    for name in ("belly", "across"):
        t = max(rec[name]["turn"])
        print(f"\n{name}: the aimed upper arm turns at most {t:.2f} rad/s (spec 4.5)")
        assert t <= 4.5 + 1e-6


def test_let_go_after_2_5_s(scene):
    _, rec, _ = scene
    x = rec["belly"]["wound"]
    held = sum(v is not None for v in x) * DT
    print(f"\nthe belly's wound held {held:.3f} s (spec 2.5)")
    # to the step: judged on the step after the blow, let go on the step after the time is up
    assert HOLD - 0.1 <= held <= HOLD + 2.5 * DT
    assert x[-1] is None and rec["belly"]["aims"][-1] == 0


def test_same_bits_twice(scene):
    _, _, digest = scene
    e, _, _, again = _scene()
    e.close()
    assert again == digest


# ------------------------------------------------------------------------------ the sweep
SWEEP_BONES = (B.BONE_SPINE_01, B.BONE_SPINE_03, B.BONE_PELVIS, B.BONE_UPPERARM_L,
               B.BONE_LOWERARM_R, B.BONE_THIGH_R, B.BONE_CALF_L, B.BONE_NECK)
SWEEP_WAYS = ("front", "back", "left", "right")
SWEEP_J = (8.0, 16.0, 25.0)
ARM_OF = {B.BONE_UPPERARM_L: 0, B.BONE_LOWERARM_L: 0, B.BONE_UPPERARM_R: 1,
          B.BONE_LOWERARM_R: 1}


@pytest.fixture(scope="module")
def sweep():
    out = {}
    for path in ("boxman.glb", "mixamo_man.glb"):
        e = engine.Engine()
        physics.ground(e)
        figs = []
        k = 0
        for bone in SWEEP_BONES:
            for wy in SWEEP_WAYS:
                for J in SWEEP_J:
                    m = boxman(e, f"s{k}", (3.0 * (k % 12), 0.0, 3.0 * (k // 12)),
                               motion.POWERED, path=path)
                    figs.append((m, bone, wy, J))
                    k += 1
        e.run(seconds=SETTLE)
        watch = Watch(e, [m.ragdoll for m, *_ in figs])
        bad_hand = 0
        answered = 0
        for m, bone, wy, J in figs:
            r = m.ragdoll
            way = ways(e, r)[wy]
            motion.hit(m, bone, surface_point(e, r, bone, way), -J * way)
        worst_gap = 0.0
        finite = True
        for _ in range(int(round(3.0 / DT))):
            e.fixed_step()
            meas = watch()
            worst_gap = max(worst_gap, float(meas[:, 0].max()))
            finite = finite and bool(np.all(meas[:, 4] == 0.0))
            for m, bone, _wy, _j in figs:
                wd = motion.wound(m)
                if wd is None:
                    continue
                answered += 1
                hand = wd[1]
                if hand >= 0:
                    weak = min(motion.strength(m, b) for b in
                               ((B.BONE_UPPERARM_L, B.BONE_LOWERARM_L),
                                (B.BONE_UPPERARM_R, B.BONE_LOWERARM_R))[hand])
                    # the struck arm, or an arm weaker than half when the hand came (its first
                    # step: the arm's muscle only comes back after)
                    if ARM_OF.get(bone, -1) == hand or (wd[2] > 2.5 - 1.5 * DT and weak < 0.5):
                        bad_hand += 1
        w = e.physics
        out[path] = dict(gap=worst_gap, finite=finite and bool(np.all(np.isfinite(w.bf[: w.n]))),
                         bad_hand=bad_hand, answered=answered, n=len(figs))
        print(f"\n{path}: {len(figs)} blows, wounds held {answered * DT:.1f} figure-s, worst "
              f"joint gap {100 * worst_gap:.2f} cm, hands on a struck or weak arm {bad_hand}")
        e.close()
    return out


@pytest.mark.parametrize("path", ("boxman.glb", "mixamo_man.glb"))
def test_sweep_never_the_struck_or_weak_arm(sweep, path):
    assert sweep[path]["answered"] > 0
    assert sweep[path]["bad_hand"] == 0


@pytest.mark.parametrize("path", ("boxman.glb", "mixamo_man.glb"))
def test_sweep_nothing_tears_the_world_holds(sweep, path):
    assert sweep[path]["gap"] < TEAR_GAP
    assert sweep[path]["finite"]


def test_bad_input():
    e = engine.Engine()
    physics.ground(e)
    m = boxman(e, "x", (0.0, 0.0, 0.0), motion.POWERED)
    with pytest.raises((TypeError, ValueError), match="on"):
        motion.set_hit_reaction(m, "yes")
    with pytest.raises((TypeError, ValueError)):
        motion.set_hit_reaction(None, True)
    assert motion.hit_reaction(m)
    e.close()
