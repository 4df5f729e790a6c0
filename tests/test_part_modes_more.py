"""A part's mode, the leftovers of issue 15 (spec "A part of a figure can have a mode and a
strength of its own", #573; ``ae3d/motion/_parts.py``):

- a body striking a part off the clip goes by ``hit``'s rule (``_parts.keeps_clip``): a ball
  thrown at a box man's or a Mixamo man's limp left forearm (ANIMATED, playing Idle) swings the
  arm and leaves the figure ANIMATED, its pelvis on its clip, on every step the ball strikes the
  arm (gone on past it into the thigh, it strikes a bone on the clip: POWERED, as any strike);
  the same ball at the twin's chest
  (on the clip) hands that one over to POWERED (#581). Swept over three speeds (3, 4.5, 6 m/s) and
  two ways in (from behind, level and from above), both rigs;
- the scene file's motion record keeps each part's mode and strength (``parts``, only where a part
  has its own), and puts them back; bad parts refused before anything is set;
- a limp arm stays limp through a get-up: the way's anchors leave it hanging, and the dressed rig
  draws it where its body hangs, not where the way's clip has it.
"""

from __future__ import annotations

import json
import math

import numpy as np
import pytest
from blows import boxman

from ae3d import engine, figure, human, motion, physics, scene
from ae3d._math import quat_rot
from ae3d.physics import _layout as L

DT = 1.0 / 60.0
RIGS = ("boxman.glb", "mixamo_man.glb")
# m/s, a 4.2 kg ball (at 8 it reaches the thigh beside the hanging forearm within the step it
# strikes the forearm, and the scan keeps the harder strike: the thigh's, POWERED)
SPEEDS = (3.0, 4.5, 6.0)
WAYS = ("behind", "behind, from above")
LL, UL = human.BONE_LOWERARM_L, human.BONE_UPPERARM_L


def _pos(e, m, bone):
    return e.physics.bf[int(m.ragdoll.bodies[bone]), L.B_POS:L.B_POS + 3].copy()


def _quat(e, m, bone):
    return e.physics.bf[int(m.ragdoll.bodies[bone]), L.B_QUAT:L.B_QUAT + 4].copy()


# ------------------------------------------------------------------------------ struck by a body
@pytest.fixture(scope="module")
def thrown():
    """Per rig, speed and way: a figure with its left arm limp struck at the forearm by a ball,
    and a twin (limp arm too) struck at the chest. Returns rows of what each did."""
    e = engine.Engine()
    physics.ground(e)
    figs = []
    k = 0
    for path in RIGS:
        for v in SPEEDS:
            for way in WAYS:
                pair = []
                for target in (LL, human.BONE_SPINE_03):
                    m = boxman(e, f"f{k}", (3.0 * (k % 8), 0.0, 4.0 * (k // 8)), motion.ANIMATED,
                               path=path)
                    motion.set_part_mode(m, motion.PART_ARM_L, motion.LIMP)
                    pair.append((m, target))
                    k += 1
                figs.append((path, v, way, pair))
    e.run(seconds=1.0)
    for _path, v, way, pair in figs:
        for m, target in pair:
            p = _pos(e, m, target)
            fwd = quat_rot(_quat(e, m, 0), np.array(human.BONE_FORWARD_LOCAL[0], float))
            fwd[1] = 0.0
            fwd /= np.linalg.norm(fwd)
            # the limp forearm from behind (level, or from above), so the ball goes on ahead
            # of the figure and touches nothing else; the twin's chest from ahead
            d = -fwd if way == "behind" else -fwd + np.array([0.0, 0.5, 0.0])
            d /= np.linalg.norm(d)
            if target != LL:
                d = fwd
            ball = physics.add_sphere(e, 0.06, p + 0.3 * d, mass=4.2)
            physics.set_velocity(e, ball, tuple(-v * d))
    way0 = {}
    for *_, pair in figs:
        m = pair[0][0]
        way0[m.slot] = _pos(e, m, LL) - _pos(e, m, UL)
    rows = []
    modes = {m.slot: set() for _, _, _, pair in figs for m, _ in pair}
    at_swing = {}     # the arm's figure's mode on the frame its arm has swung 0.2 rad
    strikes = {pair[0][0].slot: [] for *_, pair in figs}
    sv = e.services["motion"]
    from ae3d.motion._layout import F_STRUCK_BONE
    swing = {m.slot: 0.0 for _, _, _, pair in figs for m, _ in pair}
    pelvis = {m.slot: 0.0 for _, _, _, pair in figs for m, _ in pair}
    from ae3d.motion._modes import anim_world
    for _ in range(int(round(0.6 / DT))):
        e.frame(DT)
        for _, _, _, pair in figs:
            for m, _ in pair:
                modes[m.slot].add(motion.mode(m))
            m = pair[0][0]
            d = _pos(e, m, LL) - _pos(e, m, UL)
            c = float(d @ way0[m.slot] / np.linalg.norm(d) / np.linalg.norm(way0[m.slot]))
            swing[m.slot] = max(swing[m.slot], math.acos(max(-1.0, min(1.0, c))))
            if swing[m.slot] > 0.2 and m.slot not in at_swing:
                at_swing[m.slot] = motion.mode(m)
            # the bone the ball struck this step (the contact scan's) and the mode after it
            hit_bone = int(sv.fi[m.slot, F_STRUCK_BONE])
            if hit_bone >= 0:
                strikes[m.slot].append((hit_bone, motion.mode(m)))
            if motion.mode(m) == motion.ANIMATED:
                ap, _ = anim_world(m)
                pelvis[m.slot] = max(pelvis[m.slot], float(np.linalg.norm(
                    _pos(e, m, 0) - ap[0])))
    for path, v, way, pair in figs:
        (arm, _), (chest, _) = pair
        rows.append(dict(rig=path, speed=v, way=way, at_swing=at_swing.get(arm.slot),
                         strikes=strikes[arm.slot],
                         chest_modes=modes[chest.slot], swing=swing[arm.slot],
                         pelvis=pelvis[arm.slot]))
    e.close()
    for r in rows:
        print(r)
    return rows


def test_a_ball_at_a_limp_arm_leaves_the_figure_on_its_clip(thrown):
    # every step the ball strikes the limp arm (its forearm or upper arm) the figure is ANIMATED
    # after it (handed over at the strike, it was POWERED from the step the ball landed); the
    # first strike is the arm's
    for r in thrown:
        assert r["strikes"] and r["strikes"][0][0] == LL, r
        for bone, mode in r["strikes"]:
            if bone in (LL, UL):
                assert mode == motion.ANIMATED, r
            else:
                break


def test_a_ball_on_into_the_thigh_hands_it_over(thrown):
    # the ball, gone on past the arm, strikes a bone on the clip: POWERED, as any strike (#581)
    for r in thrown:
        later = [mode for bone, mode in r["strikes"] if bone not in (LL, UL)]
        if later:
            assert later[0] == motion.POWERED, r


def test_the_limp_arm_struck_swings(thrown):
    # the drawn arm of test_motion_parts' 8 N·s blow swings over 0.2 rad; so does a ball's
    for r in thrown:
        assert r["swing"] > 0.2, r


def test_the_pelvis_stays_on_its_clip(thrown):
    # the anchors' sag: the figure's pelvis within 2 cm of its clip's while the arm is struck
    for r in thrown:
        assert r["pelvis"] < 0.02, r


def test_a_ball_at_the_chest_hands_the_figure_over(thrown):
    for r in thrown:
        assert motion.POWERED in r["chest_modes"], r


# ------------------------------------------------------------------------------ the scene record
def test_the_record_keeps_the_parts(tmp_path):
    path = tmp_path / "parts.json"
    with engine.Engine() as e:
        physics.ground(e)
        z = figure.figure(e, "Hurt", "boxman.glb")
        figure.play(figure.figure_of(e, z), "Idle", 1.0, True)
        m = motion.on_figure(e, z)
        motion.set_part_mode(m, motion.PART_ARM_L, motion.LIMP)
        motion.set_part_mode(m, motion.PART_HEAD, motion.POWERED)
        motion.set_part_strength(m, motion.PART_LEG_R, 0.3)
        plain = figure.figure(e, "Plain", "boxman.glb")
        motion.on_figure(e, plain)
        e.run(frames=3)
        scene.save(e, str(path))
    data = json.loads(path.read_text())
    assert data["figures"][0]["motion"]["parts"] == {
        "head": {"mode": "powered"}, "arm_l": {"mode": "limp"}, "leg_r": {"strength": 0.3}}
    assert "parts" not in data["figures"][1]["motion"]
    with engine.Engine() as e:
        physics.ground(e)
        made = scene.load(e, str(path))
        m = motion.motion_of(e, made[0])
        assert motion.part_mode(m, motion.PART_ARM_L) == motion.LIMP
        assert motion.part_mode(m, motion.PART_HEAD) == motion.POWERED
        assert motion.part_mode(m, motion.PART_ARM_R) == motion.ANIMATED
        assert motion.part_strength(m, motion.PART_LEG_R) == 0.3
        assert motion.part_strength(m, motion.PART_LEG_L) == 1.0
        e.run(seconds=1.0)
        # the limp arm hangs: its anchor gone, it comes down from the clip's
        from ae3d.motion._modes import anim_world
        ap, _ = anim_world(m)
        assert np.linalg.norm(_pos(e, m, LL) - ap[LL]) > 0.02
        assert motion.record(m)["parts"] == data["figures"][0]["motion"]["parts"]


@pytest.mark.parametrize("parts", [
    [], {"arm": {"mode": "limp"}}, {"arm_l": "limp"}, {"arm_l": {"mode": "getting_up"}},
    {"arm_l": {"strength": 1.5}}, {"arm_l": {"strength": True}}, {"arm_l": {"size": 1}}])
def test_bad_parts_in_the_record_set_nothing(parts):
    with engine.Engine() as e:
        physics.ground(e)
        z = figure.figure(e, "Hurt", "boxman.glb")
        m = motion.on_figure(e, z)
        s = e.services["motion"]
        before = (s.ff.copy(), s.fi.copy(), s.pbf.copy(), s.pbi.copy())
        with pytest.raises(ValueError, match="parts"):
            motion.from_record(e, z, {"mode": "powered", "strength": 0.5, "parts": parts})
        assert all(np.array_equal(a, b) for a, b in
                   zip(before, (s.ff, s.fi, s.pbf, s.pbi), strict=True))
        assert motion.mode(m) == motion.ANIMATED


# ------------------------------------------------------------------------------ through a get-up
@pytest.fixture(scope="module", params=RIGS)
def get_up_limp(request):
    """A POWERED figure with its left arm limp knocked down from in front (450 N·s) and getting
    up by its clip once lain still 0.5 s: over the way, the angle between the rig's left forearm
    (LowerArmL to HandL, or Mixamo's) and its body's way from the elbow, beside the angle between
    that body and where the way would have it."""
    e = engine.Engine()
    physics.ground(e)
    m = boxman(e, "hurt", (0.0, 0.0, 0.0), motion.POWERED, path=request.param)
    motion.set_part_mode(m, motion.PART_ARM_L, motion.LIMP)
    motion.set_get_up(m, 0.5)
    e.run(seconds=1.0)
    fwd = quat_rot(_quat(e, m, 0), np.array(human.BONE_FORWARD_LOCAL[0], float))
    fwd[1] = 0.0
    fwd /= np.linalg.norm(fwd)
    motion.hit(m, human.BONE_SPINE_03, _pos(e, m, human.BONE_SPINE_03), -450.0 * fwd)
    f = figure.figure_of(e, m.object)
    names = [n for n in ("LowerArmL", "mixamorig:LeftForeArm") if _has(f.rig, n)]
    hands = [n for n in ("HandL", "mixamorig:LeftHand") if _has(f.rig, n)]
    lo, hand = f.rig.bone(names[0]), f.rig.bone(hands[0])
    s = e.services["motion"]
    from ae3d.motion._layout import PB_GU_Q
    drawn, way, frames = [], [], 0
    j = int(m.ragdoll.joints[LL])
    for _ in range(int(round(9.0 / DT))):
        e.frame(DT)
        if not motion.getting_up(m):
            if frames:
                break
            continue
        frames += 1
        rig_way = f.rig.world_position(hand) - f.rig.world_position(lo)
        # the forearm body's way from its elbow (the joint's point on the body)
        q = _quat(e, m, LL)
        elbow = _pos(e, m, LL) + quat_rot(q, e.physics.jf[j, L.J_PB:L.J_PB + 3])
        body_way = _pos(e, m, LL) - elbow
        drawn.append(_angle(rig_way, body_way))
        gq = s.pbf[m.slot, LL, PB_GU_Q:PB_GU_Q + 4]
        way.append(2.0 * math.acos(min(1.0, abs(float(np.dot(gq, q))))))
    e.close()
    out = dict(frames=frames, drawn=max(drawn) if drawn else None,
               way=max(way) if way else None)
    print(f"\n{request.param}: getting up {frames} frames; the rig's left forearm at most "
          f"{out['drawn']:.3f} rad from its hanging body's way; that body up to {out['way']:.2f} "
          "rad from where the way has it")
    return out


def _has(rig, name) -> bool:
    try:
        rig.bone(name)
    except (KeyError, ValueError):
        return False
    return True


def _angle(a, b) -> float:
    c = float(a @ b / np.linalg.norm(a) / np.linalg.norm(b))
    return math.acos(max(-1.0, min(1.0, c)))


def test_a_limp_arm_is_drawn_limp_through_a_get_up(get_up_limp):
    assert get_up_limp["frames"] > 30
    # the rig's forearm on its body's way: the rig's proportions against the ragdoll's leave
    # some (test_motion_parts holds the drawn arm within 0.02 rad of its body on the clip)
    assert get_up_limp["drawn"] < 0.15
    # and the way would have had it elsewhere: what drawing it limp changes
    assert get_up_limp["way"] > 2.0 * get_up_limp["drawn"]
