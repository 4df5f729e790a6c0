"""tests/test_writhe.ae in pytest: down and hurt, a POWERED figure writhes (spec/motion.md,
``motion.set_writhing``; issue 15; ``ae3d/motion/_writhe.py``).

Four box men knocked down by 450 N·s at the chest, 3 m apart in one engine:

- three from in front, onto their backs: one writhes for 3 s, a twin lies still (writhing off),
  a third writhes and is struck on the right forearm (5 N·s) once down;
- a fourth from behind, onto its face (caught on its hands and knees, it lets go, and writhes
  once it lies).

Times are from when it starts writhing: where it lands, or where it comes to lie.

Held and reported (the spec's numbers beside ours, printed with ``-s``):

- the left leg's swing 0.5 to 2.5 s after landing: on its back the hip's (spec 0.30), face down
  the knee's (spec 0.43): at least 0.25 writhing; under 0.05 for the twin lying still;
- the left upper arm toward the front (cosine with the pelvis's forward; spec 0.70 writhing, 0.01
  at rest): writhing more than 0.1 over the twin's;
- the pelvis's drift from 1.5 s after landing to the end of writhing (spec 1.3 / 1.0 cm): at
  most 3 cm;
- it stops 3 s after landing (to the step), ``writhe_over`` from then;
- the struck right arm never takes part (its shoulder on 15 % of its muscle while it writhes);
- the same run twice, the same bits.

- the arms fold toward where it was last struck: struck on the right forearm once down, the
  left forearm lies at least 3 cm further across than the writher's (last struck at the chest);

And the sweep (#480, #691): 64 writhers from 32 directions at 450 and 500 N·s, box men and
Mixamo men (a rig's misses in ``SWEEP_MISSES``, measured): all land;
in every one a leg swings at least 0.30 rad (the hip, or face down the knee), the pelvis drifts
no more than 10 cm, writhing stops on time; held so at 425 N·s too (64 ways, both rigs), and
face down at 400 N·s; and at half-step ways (2 pi (k + 0.5) / 64) at 410 and 460 N·s (box man)
and 410, 430, 440, 460 and 490 (Mixamo), where the pelvis also stays under 0.5 m once writhing
is over (it stays down until it is got up). Two box men that sit back on their hands
(118.125 degrees at 500 N·s, 215 at 515) writhe on their backs and stop on time.
"""

from __future__ import annotations

import math

import numpy as np
import pytest
from blows import boxman
from motion import measure as M

from ae3d import engine, human, motion, physics
from ae3d._math import quat_rot
from ae3d.physics import _layout as L

DT = 1.0 / 60.0
B = human
SECONDS = 3.0
RUN = 5.5          # s after the blows
BLOW = 450.0       # N·s
REACH_MORE = 0.03  # m: struck on the right forearm, the left forearm at least this further across


def _q(w, s):
    return w.bf[s, L.B_QUAT:L.B_QUAT + 4].copy()


def _p(w, s):
    return w.bf[s, L.B_POS:L.B_POS + 3].copy()


def thigh_in_pelvis(w, r) -> np.ndarray:
    """The left thigh's way (its body y) in the pelvis's frame."""
    qp = _q(w, int(r.bodies[0])) * np.array([-1.0, -1.0, -1.0, 1.0])
    return quat_rot(qp, quat_rot(_q(w, int(r.bodies[B.BONE_THIGH_L])), np.array([0.0, 1.0, 0.0])))


def knee_angle(w, r) -> float:
    a = quat_rot(_q(w, int(r.bodies[B.BONE_CALF_L])), np.array([0.0, 1.0, 0.0]))
    b = quat_rot(_q(w, int(r.bodies[B.BONE_THIGH_L])), np.array([0.0, 1.0, 0.0]))
    return math.acos(float(np.clip(a @ b, -1.0, 1.0)))


def arm_front(w, r) -> float:
    """Cosine of the left upper arm's way (from its shoulder) with the chest's front (the spec's
    measure; until session 12 the pelvis's forward)."""
    c = B.BONE_SPINE_03
    fwd = quat_rot(_q(w, int(r.bodies[c])), np.array(B.BONE_FORWARD_LOCAL[c], float))
    j = int(r.joints[B.BONE_UPPERARM_L])
    d = -quat_rot(_q(w, int(r.bodies[B.BONE_UPPERARM_L])), w.jf[j, L.J_PB:L.J_PB + 3])
    return float(d @ fwd / np.linalg.norm(d))


def reach_across(w, r) -> float:
    """m: how far the left forearm lies across toward the right, from the chest's middle along
    the way from the left shoulder to the right."""
    side = _p(w, int(r.bodies[B.BONE_UPPERARM_R])) - _p(w, int(r.bodies[B.BONE_UPPERARM_L]))
    side /= np.linalg.norm(side)
    return float((_p(w, int(r.bodies[B.BONE_LOWERARM_L]))
                  - _p(w, int(r.bodies[B.BONE_SPINE_03]))) @ side)


def swing(dirs: np.ndarray) -> float:
    """rad: the widest angle between two of the ways."""
    d = dirs[::3]
    c = np.clip(d @ d.T, -1.0, 1.0)
    return float(np.arccos(c.min()))


def _run(specs, path="boxman.glb", seconds=RUN, spacing=3.0):
    """specs: (name, from 'front' or 'back' or an angle (rad), writhe, N·s, struck once down).
    Returns (measures by name, digest)."""
    e = engine.Engine()
    physics.ground(e)
    figs = []
    for i, (name, way, writhe, J, strike) in enumerate(specs):
        m = boxman(e, name, (spacing * (i % 8), 0.0, spacing * (i // 8)), motion.POWERED,
                   path=path)
        if writhe:
            motion.set_writhing(m, SECONDS)
        figs.append((m, name, way, J, strike))
    e.run(seconds=1.0)
    w = e.physics
    for m, _, way, J, _ in figs:
        r = m.ragdoll
        f = quat_rot(_q(w, int(r.bodies[0])), np.array(B.BONE_FORWARD_LOCAL[0], float))
        f[1] = 0.0
        f /= np.linalg.norm(f)
        if way == "front":
            d = -f
        elif way == "back":
            d = f
        else:
            c, s = math.cos(way), math.sin(way)
            d = np.array([c * f[0] + s * f[2], 0.0, -s * f[0] + c * f[2]])
        motion.hit(m, B.BONE_SPINE_03, _p(w, int(r.bodies[B.BONE_SPINE_03])), J * d)
    rec = {name: dict(land=None, hip=[], knee=[], arm=[], pel=[], wr=[], over=[], t=[], reach=[],
                      struck_share=[], face=None)
           for _, name, *_ in figs}
    for k in range(int(round(seconds / DT))):
        e.fixed_step()
        t = (k + 1) * DT
        for m, name, _, _, strike in figs:
            r = m.ragdoll
            x = rec[name]
            if x["land"] is None and motion.landed(m):
                x["land"] = t
            if strike and x["land"] is not None and "struck" not in x and t > x["land"] + 0.2:
                motion.hit(m, B.BONE_LOWERARM_R, _p(w, int(r.bodies[B.BONE_LOWERARM_R])),
                           (0.0, -5.0, 0.0))
                x["struck"] = t
            x["t"].append(t)
            x["hip"].append(thigh_in_pelvis(w, r))
            x["knee"].append(knee_angle(w, r))
            x["arm"].append(arm_front(w, r))
            x["reach"].append(reach_across(w, r))
            x["pel"].append(_p(w, int(r.bodies[0])))
            x["wr"].append(motion.writhing(m))
            x["over"].append(motion.writhe_over(m))
            j = int(r.joints[B.BONE_UPPERARM_R])
            full = float(r.budgets[B.BONE_UPPERARM_R])
            x["struck_share"].append(float(w.jf[j, L.J_MOTOR_MAX]) / full)
            if x["face"] is None and motion.writhing(m):
                fwd = quat_rot(_q(w, int(r.bodies[0])), np.array(B.BONE_FORWARD_LOCAL[0], float))
                x["face"] = bool(fwd[1] < -0.5)
    digest = M.world_digest(e)
    e.close()
    out = {}
    for _, name, *_ in figs:
        x = rec[name]
        t = np.array(x["t"])
        if x["land"] is None:
            out[name] = dict(landed=False)
            continue
        wr = np.array(x["wr"])
        # from when it starts writhing: where it lands, or where it comes to lie when it was
        # caught on its hands and knees (a twin lying still: from its landing)
        t0 = float(t[wr].min()) if wr.any() else x["land"]
        sel = (t >= t0 + 0.5) & (t <= t0 + 2.5)
        knee = np.array(x["knee"])[sel]
        pel = np.array(x["pel"])
        late = (t >= t0 + 1.5) & (t <= t0 + SECONDS)
        drift = float(np.linalg.norm(pel[late] - pel[late][0], axis=1).max())
        out[name] = dict(
            landed=True, land=x["land"], start=t0, face=x["face"],
            hip=swing(np.array(x["hip"])[sel]), knee=float(knee.max() - knee.min()),
            arm=float(np.mean(np.array(x["arm"])[sel])), drift=drift,
            reach=float(np.mean(np.array(x["reach"])[sel])),
            stop=(float(t[wr].max()) - t0 + DT) if wr.any() else None,
            over=bool(x["over"][-1]),
            # the pelvis's highest once its writhing is over (no get-up set: it stays down)
            top=float(pel[t >= t[wr].max(), 1].max()) if wr.any() else None,
            struck_share=float(np.max(np.array(x["struck_share"])[wr & (t > x.get("struck", 1e9))]))
            if "struck" in x and (wr & (t > x["struck"])).any() else None)
    return out, digest


SPECS = (("writher", "front", True, BLOW, False), ("still", "front", False, BLOW, False),
         ("struck", "front", True, BLOW, True), ("face", "back", True, BLOW, False))


@pytest.fixture(scope="module")
def four():
    out, digest = _run(SPECS)
    print()
    for k, v in out.items():
        print(k, {a: (round(b, 3) if isinstance(b, float) else b) for a, b in v.items()})
    return out, digest


def test_all_land(four):
    out, _ = four
    assert all(v["landed"] for v in out.values())


def test_legs_swing(four):
    out, _ = four
    print(f"\nthe left hip's swing: {out['writher']['hip']:.2f} rad on its back (spec 0.30), "
          f"the knee's face down {out['face']['knee']:.2f} (spec 0.43), still "
          f"{out['still']['hip']:.3f} (spec 0)")
    assert out["writher"]["hip"] >= 0.25
    assert out["struck"]["hip"] >= 0.25
    assert out["still"]["hip"] < 0.05


def test_face_down_knee_swings(four):
    out, _ = four
    assert out["face"]["face"]
    assert out["face"]["knee"] >= 0.25


def test_arms_fold_over_the_front(four):
    out, _ = four
    print(f"\nthe left upper arm toward the front (cosine): writhing {out['writher']['arm']:.2f}, "
          f"struck on the right forearm {out['struck']['arm']:.2f} (spec 0.70), at rest "
          f"{out['still']['arm']:.2f} (spec 0.01)")
    assert out["writher"]["arm"] > out["still"]["arm"] + 0.1


def test_pelvis_drift(four):
    out, _ = four
    print(f"\nwrithing on its back: the pelvis drifts {100 * out['writher']['drift']:.2f} cm "
          "(spec 1.3)")
    assert out["writher"]["drift"] <= 0.03


def test_pelvis_drift_face(four):
    out, _ = four
    print(f"\nface: the pelvis drifts {100 * out['face']['drift']:.2f} cm (spec 1.0)")
    assert out["face"]["drift"] <= 0.03


def test_pelvis_drift_struck(four):
    out, _ = four
    d = out["struck"]["drift"]
    print(f"\nstruck on the right forearm: the pelvis drifts {100 * d:.2f} cm")
    assert d <= 0.03


def test_arms_fold_toward_the_place_struck_last(four):
    """The arms fold over the front toward where it was last struck: struck on the right
    forearm once down, the left forearm comes further across to the right than the writher's,
    last struck at the chest's middle."""
    out, _ = four
    a, b = out["struck"]["reach"], out["writher"]["reach"]
    print(f"\nthe left forearm across toward the right: {100 * a:.1f} cm struck on the right "
          f"forearm, {100 * b:.1f} cm struck at the chest")
    assert a >= b + REACH_MORE


def test_stops_on_time(four):
    out, _ = four
    for name in ("writher", "struck", "face"):
        assert abs(out[name]["stop"] - SECONDS) <= 1.5 * DT, name
        assert out[name]["over"], name
    assert out["still"]["stop"] is None


def test_struck_arm_takes_no_part(four):
    out, _ = four
    s = out["struck"]["struck_share"]
    print(f"\nthe struck right arm's shoulder while it writhes: {s:.3f} of its full budget")
    assert s is not None and s <= 0.15 + 1e-9


def test_same_bits_twice(four):
    _, digest = four
    _, again = _run(SPECS)
    assert again == digest


@pytest.fixture(scope="module", params=["boxman.glb", "mixamo_man.glb"])
def sweep(request):
    specs = []
    for k in range(32):
        a = 2.0 * math.pi * k / 32
        for J in (450.0, 500.0):
            specs.append((f"w{k}_{int(J)}", a, True, J, False))
    # 8 s: a figure may land late (the box man from 225 degrees at 500 N·s, since the ground's
    # share of the blow: caught on its hands and knees 4.0 s after it, writhing from 4.25 s); at
    # 6.5 s the run ended while it writhed and its 3 s read as 2.27
    out, _ = _run(specs, path=request.param, seconds=8.0, spacing=5.0)
    faces = sum(1 for v in out.values() if v.get("face"))
    legs = [max(v["hip"], v["knee"]) if not v.get("face") else v["knee"] for v in out.values()
            if v["landed"]]
    drifts = [v["drift"] for v in out.values() if v["landed"]]
    n_wr = sum(v.get("stop") is not None for v in out.values())
    print(f"\n64 writhers ({request.param}): writhed {n_wr}, "
          f"landed {sum(v['landed'] for v in out.values())}, face down {faces}; "
          f"the leg's swing at least {min(legs):.2f} rad; drift at most {100 * max(drifts):.1f} cm")
    far = sorted(((v["drift"], k, v.get("face")) for k, v in out.items() if v["landed"]),
                 reverse=True)[:6]
    print("  the most drift: " + ", ".join(f"{k} ({360 * int(k[1:].split('_')[0]) / 32:g} "
                                           f"degrees{', face down' if fc else ''}) "
                                           f"{100 * d:.1f} cm" for d, k, fc in far))
    out["_rig"] = request.param
    return out


# Where a rig's sweep misses a limit: (test, rig) -> the measured reason. A strict expected
# failure by hand (the sweep is one fixture over both rigs): passing, the test fails and says so.
SWEEP_MISSES: dict[tuple[str, str], str] = {
    # none (session 11): the box man's w19_500 (213.75 degrees, 500 N·s), 16.5 cm on the merged
    # tree, drifts 4.15 cm since an arm at the behind threshold eases between its shares (it
    # rolls onto its face before 1.5 s instead: 36 cm over its whole writhe, 26 before)
    # none (session 12, writhe8): the Mixamo man's w23_500 (258.75 degrees, 500 N·s) 16.8 cm and
    # its mirror w9_500 12.9 on integ 3aeb1e4 (joints7's projection merged): landed on its back
    # still rolling (6.3 rad/s about its length), its legs drawn up at once carried it onto its
    # side and it rolled back over its back as they let down and faded. With the limbs let go
    # while the pelvis rolls faster than roll_speed (2 rad/s, not face down): 3.0 and 3.3 cm,
    # the sweep at most 8.9 (w8_500)
}


def _held(ok: bool, test: str, rig: str, what: str) -> None:
    reason = SWEEP_MISSES.get((test, rig))
    if reason is None:
        assert ok, what
    elif ok:
        pytest.fail(f"{test} on {rig} now holds: remove its SWEEP_MISSES entry ({reason})")
    else:
        pytest.xfail(reason)


def _rig(sweep_out) -> str:
    return sweep_out["_rig"]


def test_sweep_all_land(sweep):
    assert all(v["landed"] for k, v in sweep.items() if k != "_rig")


def test_sweep_a_leg_swings(sweep):
    bad = {k: round(v["knee"] if v["face"] else max(v["hip"], v["knee"]), 2)
           for k, v in sweep.items() if k != "_rig" and v["landed"]
           and (v["knee"] if v["face"] else max(v["hip"], v["knee"])) < 0.30}
    _held(not bad, "test_sweep_a_leg_swings", _rig(sweep), str(bad))


def test_sweep_drift(sweep):
    bad = {k: round(v["drift"], 3) for k, v in sweep.items()
           if k != "_rig" and v["landed"] and v["drift"] > 0.10}
    _held(not bad, "test_sweep_drift", _rig(sweep), str(bad))


def test_sweep_stops_on_time_once_started(sweep):
    for k, v in sweep.items():
        if k != "_rig" and v.get("stop") is not None:
            assert abs(v["stop"] - SECONDS) <= 1.5 * DT, (k, v["stop"])


def test_sweep_every_one_writhes(sweep):
    bad = [k for k, v in sweep.items() if k != "_rig" and v.get("stop") is None]
    _held(not bad, "test_sweep_every_one_writhes", _rig(sweep), str(bad))


def test_caught_sitting_writhes():
    """Caught sitting back on its hands (the pelvis's front up), a writher writhes at once on its
    back (session 11, #12/#15): let go to go down first, the box man sat up, was taken as caught
    upright, its landing and writhing reset, and its balance stood it up (118.125 degrees at 500
    N·s, and 215 at 515: caught at 5.2 and 2.5 s). Since session 13 (the ground's speculative
    contact rows unshifted, issue 18) the first is propped back on its hands and feet from 0.5 s,
    its pelvis 0.28 m up and its trunk never still (0.1-0.5 m/s), and lands at 6.18 s: the run
    is 10 s (it was 8.8, and ended its writhing at 2.63 s)."""
    out, _ = _run([("w21_500", 2.0 * math.pi * 21 / 64, True, 500.0, False),
                   ("d215_515", math.radians(215.0), True, 515.0, False)],
                  seconds=10.0, spacing=10.0)
    for k, v in out.items():
        assert v["landed"] and v["stop"] is not None, (k, v)
        assert abs(v["stop"] - SECONDS) <= 1.5 * DT and v["over"], (k, v["stop"])


# Found by session 12's audit of #15 ("A LIMP figure is past it"): writhe_pre returned before it
# read its state when the figure was not POWERED, so a writher set LIMP kept F_WRITHE at
# WRITHE_ON: writhing() said True for good (a box man felled by 450 N·s, set LIMP 0.5 s into its
# writhe: to the end of 8 s), and set_get_up never counted (its twin set LIMP without writhing
# got up 0.32 s after). Let go, a writher's writhing is over.
def test_limp_is_past_it():
    e = engine.Engine()
    physics.ground(e)
    m = boxman(e, "limp writher", (0.0, 0.0, 0.0), motion.POWERED)
    motion.set_writhing(m, 2.0)
    motion.set_get_up(m, 0.5)
    e.run(seconds=1.0)
    chest = int(m.ragdoll.bodies[B.BONE_SPINE_03])
    motion.hit(m, B.BONE_SPINE_03, _p(e.physics, chest), (0.0, 0.0, -450.0))
    limp_at, after, up = None, [], False
    for k in range(int(round(8.0 / DT))):
        e.frame(DT)
        if limp_at is None and motion.writhing(m) and k * DT > 1.15:
            motion.set_mode(m, motion.LIMP)
            limp_at = k
        elif limp_at is not None:
            after.append(motion.writhing(m))
            up |= motion.getting_up(m)
    e.close()
    assert limp_at is not None           # it was writhing when let go
    assert not any(after[1:])            # past it from the next step on
    assert up                            # and set_get_up counts again


def test_bad_input():
    e = engine.Engine()
    physics.ground(e)
    m = boxman(e, "x", (0.0, 0.0, 0.0), motion.POWERED)
    for bad in (-1.0, math.nan, "3", None, True):
        with pytest.raises((TypeError, ValueError), match="seconds"):
            motion.set_writhing(m, bad)
    assert not motion.writhing(m) and not motion.writhe_over(m)
    e.close()


# Off the sweep (#15, session 13): 64 ways at 400 N·s, face down. Let go from hands and knees,
# the box man writhed still kneeling and its knees levered its hips up (the pelvis 31-34 cm up,
# 10 lying), coming down 13.9-16.8 cm as the bends faded (11.25, 95.6 and 348.75 degrees); one
# from 253.1 degrees rolled onto its side and back onto its face, 12.2 cm. The knees bend face
# down only as the trunk lies (_writhe._KNEEL_LO/_HI), and one rolled onto its side writhes as
# a side-lier (_writhe._SIDE).
@pytest.fixture(scope="module", params=["boxman.glb", "mixamo_man.glb"])
def sweep_400(request):
    specs = [(f"w{k}_400", 2.0 * math.pi * k / 64, True, 400.0, False) for k in range(64)]
    out, _ = _run(specs, path=request.param, seconds=8.0, spacing=5.0)
    face = sorted(((v["drift"], k) for k, v in out.items() if v["landed"] and v.get("face")),
                  reverse=True)
    print(f"\n64 writhers at 400 N·s ({request.param}): face down {len(face)}, drift at most "
          + ", ".join(f"{k} {100 * d:.1f} cm" for d, k in face[:4]) + "; the knee's swing at least "
          f"{min(v['knee'] for v in out.values() if v.get('face')):.2f} rad")
    return out


def test_sweep_400_face_down_drift(sweep_400):
    assert all(v["landed"] and v.get("stop") is not None for v in sweep_400.values())
    bad = {k: round(v["drift"], 3) for k, v in sweep_400.items()
           if v.get("face") and v["drift"] > 0.10}
    assert not bad, bad
    # and the knees still swing, as the sweep's do
    weak = {k: round(v["knee"], 2) for k, v in sweep_400.items()
            if v.get("face") and v["knee"] < 0.30}
    assert not weak, weak


# Off the sweep (#15, session 14): 64 ways at 425 N·s, between the sweeps' strengths, held as the
# sweep is (all land and writhe, stop on time, a leg swings 0.30, drift at most 10 cm). Before:
# the box man from 84.4 degrees drifted 10.7 cm (face down, the chest propped on an arm stuck
# under it, the spine straightened toward it levered the pelvis up: _writhe._SPINE_LO/_HI), and
# from 230.6 and 258.75 degrees its knees swung 0.19 rad (face down or not read on the one step
# it started on, at the threshold: _writhe._FACE_WINDOW). Measured: box man at most 8.5 cm, the
# leg's swing at least 0.33; Mixamo 7.7 cm, 0.49.
@pytest.fixture(scope="module", params=["boxman.glb", "mixamo_man.glb"])
def sweep_425(request):
    specs = [(f"w{k}_425", 2.0 * math.pi * k / 64, True, 425.0, False) for k in range(64)]
    out, _ = _run(specs, path=request.param, seconds=8.0, spacing=5.0)
    legs = {k: (v["knee"] if v.get("face") else max(v["hip"], v["knee"]))
            for k, v in out.items() if v["landed"]}
    far = sorted(((v["drift"], k) for k, v in out.items() if v["landed"]), reverse=True)
    print(f"\n64 writhers at 425 N·s ({request.param}): face down "
          f"{sum(1 for v in out.values() if v.get('face'))}, drift at most "
          + ", ".join(f"{k} {100 * d:.1f} cm" for d, k in far[:3])
          + f"; the leg's swing at least {min(legs.values()):.2f} rad")
    return out


def test_sweep_425(sweep_425):
    assert all(v["landed"] and v.get("stop") is not None for v in sweep_425.values())
    for k, v in sweep_425.items():
        assert abs(v["stop"] - SECONDS) <= 1.5 * DT and v["over"], (k, v["stop"])
    weak = {k: round(v["knee"] if v["face"] else max(v["hip"], v["knee"]), 2)
            for k, v in sweep_425.items()
            if (v["knee"] if v["face"] else max(v["hip"], v["knee"])) < 0.30}
    assert not weak, weak
    bad = {k: round(v["drift"], 3) for k, v in sweep_425.items() if v["drift"] > 0.10}
    assert not bad, bad


# Off the sweep (#15, #12, session 14): half-step ways (2 pi (k + 0.5) / 64) at 410 and 460 N·s
# (box man) and 490 (Mixamo). Let go from hands and knees, the box man knelt up on its rest
# drive and came to lie so; from 267 degrees at 410 N·s it writhed kneeling, rolled onto its
# side and over, 1.44 m, sat up as its writhe ended, was taken as falling again and caught
# upright, and its balance stood it up (the pelvis at 0.96 m, no get-up set); from 98 degrees at
# 460 its knees, propped under it, swung 0.17 rad. The Mixamo man from 81 and 278 degrees at
# 490, face down still propped on its knees, drifted 13-14 cm. It now writhes once down (or
# slumped, _writhe._SLUMP), and once it has writhed it is not taken as falling again
# (_landing.landing_pre). Held: all 64 writhe and stop on time, a leg swings 0.30, the pelvis
# drifts at most 10 cm and stays under half a metre once its writhing is over.
# Session 14: and the Mixamo man at 410 and 430, where let go from hands and knees the upright
# anchor's last impulse (capped at 0 but not cleared, warm-started every sub-step) rolled the
# figure 1.10 m (250 degrees at 410 N·s) and 8 m (250 at 430, never coming to lie): 8.6 / 8.1 cm
# at most now, none stood up.
# Session 17: and the Mixamo man at 440 and 460, where three side-liers half on their backs rolled
# slowly on over them as their hips drew up, from 1.5 s on (87 and 273 degrees at 440 N·s 21.0 cm,
# 261 at 460 11.8): the hips draw up half as far while the pelvis's front rises
# (_writhe._BACK_ROLL_*): 8.1, 8.1 and 3.8 cm.
@pytest.fixture(scope="module", params=[("boxman.glb", 410.0), ("boxman.glb", 460.0),
                                        ("mixamo_man.glb", 410.0), ("mixamo_man.glb", 430.0),
                                        ("mixamo_man.glb", 440.0), ("mixamo_man.glb", 460.0),
                                        ("mixamo_man.glb", 490.0)])
def sweep_half(request):
    path, J = request.param
    specs = [(f"w{k}_{int(J)}", 2.0 * math.pi * (k + 0.5) / 64, True, J, False) for k in range(64)]
    out, _ = _run(specs, path=path, seconds=8.0, spacing=5.0)
    far = sorted(((v["drift"], k) for k, v in out.items() if v["landed"]), reverse=True)
    leg = min(v["knee"] if v.get("face") else max(v["hip"], v["knee"]) for v in out.values())
    print(f"\n64 writhers at {J:g} N·s, half-step ways ({path}): drift at most "
          + ", ".join(f"{k} {100 * d:.1f} cm" for d, k in far[:3])
          + f"; the leg's swing at least {leg:.2f} rad; the pelvis after at most "
          f"{max(v['top'] for v in out.values()):.2f} m")
    return out


def test_sweep_half_steps(sweep_half):
    assert all(v["landed"] and v.get("stop") is not None for v in sweep_half.values())
    for k, v in sweep_half.items():
        assert abs(v["stop"] - SECONDS) <= 1.5 * DT and v["over"], (k, v["stop"])
    weak = {k: round(v["knee"] if v["face"] else max(v["hip"], v["knee"]), 2)
            for k, v in sweep_half.items()
            if (v["knee"] if v["face"] else max(v["hip"], v["knee"])) < 0.30}
    assert not weak, weak
    bad = {k: round(v["drift"], 3) for k, v in sweep_half.items() if v["drift"] > 0.10}
    assert not bad, bad
    up = {k: round(v["top"], 2) for k, v in sweep_half.items() if v["top"] > 0.5}
    assert not up, up
