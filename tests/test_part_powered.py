"""A POWERED part on an ANIMATED figure (spec "A POWERED part on an ANIMATED figure", #658; issue
15 section 3): ``set_part_mode(body, part, motion.POWERED)`` while the rest plays its clip.

The spec's test: the pipeline's rig (box man) on its clip (Idle), spine and head POWERED, jabbed
in the face, 20 N·s at a cost of 0.1:

- standing on its muscles, the head drawn within 0.01 cm of the clip's;
- jabbed, the head drawn back (spec 3.3 cm) with the pelvis on its clip, the figure ANIMATED;
- 0.9 s on, within 0.05 cm of where it stood (its offset from the clip as before the jab);
- given back, no step over 0.01 cm a frame and the clip's to 1 mm;
- with no part powered the jab moves nothing (spec 0 cm).

And the sweep: box man and Mixamo man, five parts at two strengths POWERED on figures playing
Idle, each jabbed at its end bone from one of four ways: the figure stays ANIMATED with its
pelvis on the clip, the part and every bone hanging from it off their anchors and on their
muscle, back near the clip 0.9 s on, given back without a pop and on the clip a second later.
Same bits twice; bad input is tests/test_motion_parts.py's (set_part_mode's checks).
"""

from __future__ import annotations

import math
import os

import numpy as np
import pytest
from blows import boxman
from motion import measure as M

from ae3d import engine, human, motion, physics
from ae3d.motion._modes import anim_world
from ae3d.motion._parts import PART_NAMES, bones_of
from ae3d.motion._service import PARENT
from ae3d.physics import _layout as L

DT = 1.0 / 60.0
ASSETS = os.path.join(os.path.dirname(__file__), "..", "assets")
RIGS = {"box man": "boxman.glb", "Mixamo man": os.path.join(ASSETS, "mixamo_man.glb")}
HEAD = human.BONE_NECK
FWD = np.array((0.0, 0.0, 1.0))   # the box men face +Z


def _head_off(b):
    """The head (neck body) drawn, less the clip's (m, world), and the pelvis drawn's offset."""
    dp, _ = motion.drawn_pose(b)
    ap, _ = anim_world(b)
    return dp[HEAD] - ap[HEAD], float(np.linalg.norm(dp[0] - ap[0]))


def _jab(b):
    """20 N·s backward into the face at a cost of 0.1."""
    p = physics.ragdoll_pose(b.ragdoll)[0][HEAD]
    motion.hit(b, HEAD, p + 0.08 * FWD, -20.0 * FWD, True, 0.1)


def _scene(powered: bool, path: str = "boxman.glb"):
    e = engine.Engine()
    physics.ground(e)
    b = boxman(e, "jabbed", (0.0, 0.0, 0.0), motion.ANIMATED, path=path)
    if powered:
        motion.set_part_mode(b, motion.PART_SPINE, motion.POWERED)
        motion.set_part_mode(b, motion.PART_HEAD, motion.POWERED)
    e.run(seconds=1.0)
    rec = {"stand": 0.0}
    for _ in range(30):
        e.frame(DT)
        rec["stand"] = max(rec["stand"], float(np.linalg.norm(_head_off(b)[0])))
    before, _ = _head_off(b)
    _jab(b)
    back = pel = 0.0
    modes = set()
    for _ in range(int(round(0.9 / DT))):
        e.frame(DT)
        off, p = _head_off(b)
        back = max(back, float(np.dot(off - before, -FWD)))
        pel = max(pel, p)
        modes.add(motion.mode(b))
    rec.update(back=back, pelvis=pel, modes=modes)
    after, _ = _head_off(b)
    rec["on"] = float(np.linalg.norm(after - before))
    if powered:
        motion.set_part_mode(b, motion.PART_SPINE, motion.ANIMATED)
        motion.set_part_mode(b, motion.PART_HEAD, motion.ANIMATED)
        prev = after
        step = 0.0
        for _ in range(60):
            e.frame(DT)
            off, _ = _head_off(b)
            step = max(step, float(np.linalg.norm(off - prev)))
            prev = off
        rec["step"] = step
        rec["end"] = float(np.linalg.norm(prev))
    rec["digest"] = M.world_digest(e)
    e.close()
    return rec


@pytest.fixture(scope="module")
def jab():
    return _scene(True)


@pytest.fixture(scope="module")
def jab_plain():
    return _scene(False)


def test_standing_on_its_muscles(jab):
    # (0.066 cm before the pose drive fed the clip's own turning forward: the motors, velocity
    # servos closing the gap in 50 ms, trailed the Idle clip's sway)
    print(f"standing: the head drawn {jab['stand'] * 100:.4f} cm from the clip's (spec 0.001)")
    assert jab["stand"] < 1e-4


def test_jabbed_the_head_goes_back_and_the_rest_stays_on_its_clip(jab):
    print(f"jabbed: the head drawn back {jab['back'] * 100:.2f} cm (spec 3.3), the pelvis "
          f"{jab['pelvis'] * 100:.4f} cm off its clip, modes {sorted(jab['modes'])}")
    assert jab["back"] > 0.01
    assert jab["pelvis"] < 1e-4
    assert jab["modes"] == {motion.ANIMATED}


def test_back_where_it_stood(jab):
    # (0.079 cm before the feed-forward: the same lag behind the clip's sway as standing)
    print(f"0.9 s on: the head {jab['on'] * 100:.4f} cm from where it stood (spec 0.013)")
    assert jab["on"] < 5e-4


def test_given_back_without_a_step(jab):
    print(f"given back: at most {jab['step'] * 100:.4f} cm a frame; a second later "
          f"{jab['end'] * 1000:.4f} mm from the clip's")
    assert jab["step"] <= 1e-4
    assert jab["end"] <= 1e-3


@pytest.mark.xfail(strict=True, reason="measured (session 8): with no part powered the jab hands "
                   "the figure over to POWERED (hit's rule, #581) and its head goes back 5.19 cm, "
                   "against the spec's 0 cm; the spec's 0 needs hit to leave an ANIMATED figure "
                   "on its anchors for a blow its balance holds, against #581")
def test_no_part_powered_the_jab_moves_nothing(jab_plain):
    print(f"no part powered: the head {jab_plain['back'] * 100:.2f} cm, modes "
          f"{sorted(jab_plain['modes'])}")
    assert jab_plain["back"] < 1e-4


def test_same_bits_twice(jab):
    assert _scene(True)["digest"] == jab["digest"]


# ------------------------------------------------------------------------------ the sweep
SWEEP_PARTS = (motion.PART_HEAD, motion.PART_SPINE, motion.PART_ARM_L, motion.PART_ARM_R,
               motion.PART_LEG_L)
SHARES = (1.0, 0.3)
WAYS = (FWD, -FWD, np.array((1.0, 0.0, 0.0)), np.array((-1.0, 0.0, 0.0)))
END = {motion.PART_HEAD: HEAD, motion.PART_SPINE: human.BONE_SPINE_03,
       motion.PART_ARM_L: human.BONE_LOWERARM_L, motion.PART_ARM_R: human.BONE_LOWERARM_R,
       motion.PART_LEG_L: human.BONE_CALF_L}


def _qang(a, b) -> float:
    return 2.0 * math.acos(min(1.0, abs(float(np.dot(a, b)))))


def _hanging(b, part):
    """The part's bones and every bone hanging from them."""
    out = set(bones_of(b, part))
    for k in range(1, b.ragdoll.bones):
        if int(PARENT[k]) in out:
            out.add(k)
    return sorted(out)


def _local_off(b, bones):
    """The most any of ``bones`` is drawn turned from the clip's turn under its parent (rad)."""
    s = b.engine.services["motion"]
    from ae3d.motion import _layout as ML
    dq = s.pbf[b.slot, :, ML.PB_DRAWN_Q:ML.PB_DRAWN_Q + 4]
    tq = s.pbf[b.slot, :, ML.PB_TARGET:ML.PB_TARGET + 4]
    return max(_qang(dq[k], tq[k]) for k in bones)


@pytest.fixture(scope="module", params=list(RIGS))
def sweep(request):
    e = engine.Engine()
    physics.ground(e)
    figs = []
    for k, part in enumerate(p for p in SWEEP_PARTS for _ in SHARES):
        b = boxman(e, f"p{k}", (3.0 * k, 0.0, 0.0), motion.ANIMATED, path=RIGS[request.param])
        motion.set_part_strength(b, part, SHARES[k % 2])
        motion.set_part_mode(b, part, motion.POWERED)
        figs.append((part, SHARES[k % 2], WAYS[k % 4], b))
    e.run(seconds=1.0)
    s = e.services["motion"]
    rows = []
    for part, share, way, b in figs:
        bones = _hanging(b, part)
        own = bones_of(b, part)
        rows.append({
            "part": part, "share": share,
            "anchors": [int(s.pbi[b.slot, k, 2]) for k in bones],
            # each joint on its muscle: the full budget x the part's share (1 for the bones
            # hanging from the part)
            "budget_share": min(float(e.physics.jf[int(b.ragdoll.joints[k]), L.J_MOTOR_MAX])
                                / float(b.ragdoll.budgets[k]) / (share if k in own else 1.0)
                                for k in bones),
            "stand": _local_off(b, bones)})
        p = physics.ragdoll_pose(b.ragdoll)[0][END[part]]
        motion.hit(b, END[part], p - 0.05 * way, 20.0 * way, True, 0.1)
    modes = set()
    pel = 0.0
    most = [0.0] * len(figs)
    for _ in range(int(round(0.9 / DT))):
        e.frame(DT)
        for i, (part, _s, _w, b) in enumerate(figs):
            modes.add(motion.mode(b))
            dp, _ = motion.drawn_pose(b)
            ap, _ = anim_world(b)
            pel = max(pel, float(np.linalg.norm(dp[0] - ap[0])))
            most[i] = max(most[i], _local_off(b, _hanging(b, part)))
    for i, (part, _s, _w, b) in enumerate(figs):
        rows[i]["struck"] = most[i]
        rows[i]["on"] = _local_off(b, _hanging(b, part))
    e.run(seconds=1.1)
    for i, (part, _s, _w, b) in enumerate(figs):
        rows[i]["later"] = _local_off(b, _hanging(b, part))
    bodies = [b for *_, b in figs]
    for part, _s, _w, b in figs:
        motion.set_part_mode(b, part, motion.ANIMATED)
    steps = M.largest_drawn_steps(e, bodies, [_hanging(b, part) for part, _s, _w, b in figs])
    for i, (part, _s, _w, b) in enumerate(figs):
        rows[i]["step"] = steps[i]
        rows[i]["back"] = _local_off(b, range(1, b.ragdoll.bones))
        rows[i]["anchors_back"] = [int(s.pbi[b.slot, k, 2]) for k in _hanging(b, part)]
    finite = bool(np.all(np.isfinite(e.physics.bf[: e.physics.n])))
    e.close()
    return request.param, rows, modes, pel, finite


def test_sweep(sweep):
    rig, rows, modes, pel, finite = sweep
    worst = {k: max(r[k] for r in rows) for k in ("stand", "struck", "on", "later", "step",
                                                   "back")}
    full_on = max(r["on"] for r in rows if r["share"] == 1.0)
    least = min(r["budget_share"] for r in rows)
    print(f"{rig}: 10 POWERED parts: standing {worst['stand']:.4f} rad from the clip at most; "
          f"jabbed up to {worst['struck']:.3f} rad, 0.9 s on {worst['on']:.4f} (at full "
          f"strength {full_on:.4f}), 2 s on {worst['later']:.4f}; the pelvis "
          f"{pel * 100:.4f} cm off its clip; modes {sorted(modes)}; given back at most "
          f"{worst['step']:.4f} rad a frame, a second later {worst['back']:.2e}; the least "
          f"budget {least:.4f} of its share")
    for r in rows:
        print(f"  {PART_NAMES[r['part']]} at {r['share']}: standing {r['stand']:.4f}, "
              f"jabbed {r['struck']:.3f}, 0.9 s on {r['on']:.4f}, 2 s on {r['later']:.4f}, "
              f"given back {r['step']:.4f} a frame")
    assert modes == {motion.ANIMATED}
    assert all(k == -1 for r in rows for k in r["anchors"])
    assert all(k >= 0 for r in rows for k in r["anchors_back"])
    assert least > 0.5
    assert pel < 1e-4
    assert worst["stand"] < 0.05
    assert full_on < 0.05
    assert worst["later"] < 0.05
    assert worst["step"] <= 0.1
    assert worst["back"] < 1e-6
    assert finite
