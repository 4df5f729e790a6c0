"""tests/test_motion.ae in pytest (spec/motion.md, issues 6 and 12).

Figures stand on one ground, 3 m apart, POWERED on their muscles:

- the tracker, its clip bowing the chest 15° forward and back: the chest within 1.6° of its pose,
  never leaning more than 1.2°;
- the shoved, 60 N·s to the chest: knocked off its pose; back within 0.1° and upright 3 s later;
  never taken for falling;
- the felled, 400 N·s to the chest: down;
- the struck, 8 N·s to the right upper arm: its muscle at 5 % (the forearm's at half), then back
  to full;
- the limp: down;
- the felled, as drawn: its drawn hips under 0.6 m, with its pelvis body; a standing figure's
  above 0.8 m.

The protective fall's rows (issue 12): three protected fallers felled by 400 N·s at the chest
from the front, from behind and from the side, each beside an unprotected twin
(``tests/motion/falls.py``): the hands reach the ground and the head never does; the twins' heads
meet it (their speeds printed); the protected land, let go (every aim cleared) and lie.

Plus determinism (the scene twice, the same bits) and bad input (a clear error, nothing written).
The figures are box men dressed by ``motion.on_figure``, their clips played by their muscles.
"""

from __future__ import annotations

import hashlib
import math

import numpy as np
import pytest
from motion import measure as M

from ae3d import engine, figure, human, motion, physics
from ae3d.physics import _layout as L

DT = 1.0 / 60.0
SETTLE = 1.0        # s standing before the blows
AFTER = 4.0         # s after them


def _scene(seconds_after: float = AFTER):
    """Box men (the pipeline's naming) 3 m apart, each dressed by motion.on_figure and POWERED:
    the tracker plays its Bow clip (the chest 15 deg forward and back over 2 s), the rest Idle."""
    e = engine.Engine()
    physics.ground(e)
    names = ("tracker", "shoved", "felled", "struck", "limp", "standing")
    figs = {}
    for i, n in enumerate(names):
        z = figure.figure(e, n, "boxman.glb")
        f = figure.figure_of(e, z)
        figure.place(f, (3.0 * i, 0.0, 0.0), 0.0)
        figure.play(f, "Bow" if n == "tracker" else "Idle", 1.0, True)
        b = motion.on_figure(e, z)
        motion.set_mode(b, motion.POWERED)
        figs[n] = (b.ragdoll, b, f)
    rec = {k: [] for k in ("track_err", "track_lean", "shove_err", "shove_lean", "shove_falling",
                           "struck_arm", "struck_fore", "felled_drawn", "felled_pelvis",
                           "felled_lean", "standing_drawn", "felled_down", "limp_down")}
    tr, tb, _ = figs["tracker"]
    e.run(seconds=SETTLE)

    def chest(r):
        return physics.ragdoll_pose(r)[0][human.BONE_SPINE_03]

    # the blows
    motion.hit(figs["shoved"][1], human.BONE_SPINE_03, chest(figs["shoved"][0]), (0.0, 0.0, 60.0))
    motion.hit(figs["felled"][1], human.BONE_SPINE_03, chest(figs["felled"][0]),
               (0.0, 0.0, -400.0))
    sr = figs["struck"][0]
    arm = physics.ragdoll_pose(sr)[0][human.BONE_UPPERARM_R]
    motion.hit(figs["struck"][1], human.BONE_UPPERARM_R, arm, (0.0, 0.0, 8.0))
    rec["struck_first"] = (motion.strength(figs["struck"][1], human.BONE_UPPERARM_R),
                           motion.strength(figs["struck"][1], human.BONE_LOWERARM_R))
    # limp: a ragdoll. Standing straight, its knees on their straight limit and its joints'
    # friction holding the trunk over the hips, it stands as it was left; a touch sends it down
    lr, lb, _ = figs["limp"]
    motion.set_mode(lb, motion.LIMP)
    physics.apply_impulse(e, physics.ragdoll_body(lr, human.BONE_SPINE_03), (0.0, 0.0, 10.0),
                          chest(lr))
    for _ in range(int(round(seconds_after / DT))):
        asked = {k: motion.animation(figs[k][1])[0] for k in ("tracker", "shoved")}
        e.frame(DT)
        err = M.joint_errors(tr, asked["tracker"])
        rec["track_err"].append(err[human.BONE_SPINE_03])
        rec["track_lean"].append(motion.lean(tb))
        r, b, _ = figs["shoved"]
        rec["shove_err"].append(M.joint_errors(r, asked["shoved"]).max())
        rec["shove_lean"].append(motion.lean(b))
        rec["shove_falling"].append(motion.falling(b))
        r, b, _ = figs["struck"]
        rec["struck_arm"].append(motion.strength(b, human.BONE_UPPERARM_R))
        rec["struck_fore"].append(motion.strength(b, human.BONE_LOWERARM_R))
        r, b, f = figs["felled"]
        rec["felled_drawn"].append(f.rig.world_position(f.rig.bone("Hips")))
        rec["felled_pelvis"].append(physics.ragdoll_pose(r)[0][human.BONE_PELVIS].copy())
        rec["felled_down"].append(M.is_down(r, motion.lean(b)))
        rec["felled_lean"].append(motion.lean(b))
        r, b, _ = figs["limp"]
        rec["limp_down"].append(M.is_down(r, motion.lean(b)))
        f = figs["standing"][2]
        rec["standing_drawn"].append(f.rig.world_position(f.rig.bone("Hips"))[1])
    w = e.physics
    digest = hashlib.sha256(np.ascontiguousarray(w.bf[: w.n]).tobytes()).hexdigest()
    rigs = b"".join(np.ascontiguousarray(fg[2].rig.world).tobytes() for fg in figs.values())
    digest += hashlib.sha256(rigs).hexdigest()
    return e, figs, rec, digest


@pytest.fixture(scope="module")
def scene():
    e, figs, rec, digest = _scene()
    yield figs, rec, digest
    e.close()


def test_tracker_follows_its_bow(scene):
    _, rec, _ = scene
    worst = math.degrees(max(rec["track_err"]))
    lean = math.degrees(max(rec["track_lean"]))
    print(f"tracker: chest within {worst:.2f} deg of its pose, leaning at most {lean:.2f} deg")
    assert worst < 1.6
    assert lean < 1.2


def test_shoved_knocked_off_and_never_falling(scene):
    _, rec, _ = scene
    knocked = math.degrees(max(rec["shove_err"]))
    print(f"shoved: knocked {knocked:.1f} deg off its pose; falling ever: "
          f"{any(rec['shove_falling'])}; leaning at most "
          f"{math.degrees(max(rec['shove_lean'])):.3f} deg")
    assert knocked > 1.0
    assert not any(rec["shove_falling"])


def test_shoved_back_on_its_pose(scene):
    _, rec, _ = scene
    n3 = int(round(3.0 / DT))
    back = math.degrees(max(rec["shove_err"][n3:]))
    lean_late = math.degrees(max(rec["shove_lean"][n3:]))
    print(f"shoved: 3 s on within {back:.3f} deg, leaning {lean_late:.3f} deg")
    assert lean_late < math.degrees(0.1)
    assert back < 0.1


def test_felled_is_down(scene):
    # down: on the ground as the get-up reads it (the pelvis within 0.45 m of the lowest point,
    # or leaning past 1 rad). The blow overcomes the balance (spec "Balance"), so it topples
    # (leans past 1 rad) and stays down, rather than sliding on its feet and standing up again
    _, rec, _ = scene
    first = rec["felled_down"].index(True) if any(rec["felled_down"]) else None
    print(f"felled: down {first and (first + 1) * DT:.2f} s after the blow, for "
          f"{sum(rec['felled_down']) * DT:.2f} s; leaning at most "
          f"{math.degrees(max(rec['felled_lean'])):.0f} deg, at the end "
          f"{math.degrees(rec['felled_lean'][-1]):.0f} deg")
    assert first is not None
    assert max(rec["felled_lean"]) > 1.0
    assert rec["felled_down"][-1]
    # and not over its shoulders with its legs over its head (spec #822): the fall's brake keeps
    # the lean under 100 degrees (let go to nothing it reached 130)
    assert max(rec["felled_lean"]) < math.radians(100.0)


def test_struck_arm_loses_and_regains_its_muscle(scene):
    _, rec, _ = scene
    arm, fore = rec["struck_first"]
    print(f"struck: upper arm {arm:.3f}, forearm {fore:.3f}; "
          f"at the end {rec['struck_arm'][-1]:.3f}")
    assert arm == pytest.approx(0.05, abs=1e-9)
    assert fore == pytest.approx(0.525, abs=1e-9)
    assert rec["struck_arm"][-1] == 1.0 and rec["struck_fore"][-1] == 1.0
    # it comes back over the recovery (0.8 s): half way at 0.4 s
    i = int(round(0.4 / DT)) - 1
    assert 0.4 < rec["struck_arm"][i] < 0.65


def test_limp_is_down(scene):
    _, rec, _ = scene
    assert rec["limp_down"][-1]


def test_felled_as_drawn(scene):
    # as drawn where it is lowest. The spec's felled knelt, its drawn hips at 0.45 m ("down on
    # its knees"), its balance at full torque through the fall; ours keeps 0.3 of it
    # (_fall.FallSettings.assist: from 0.8 up no figure landed, the blow absorbed into the anchor
    # slid it into a squat on its knees), and 400 N·s from the front lays it on its back:
    # measured 0.106 m (its pelvis body 0.106 m, the lean 92 degrees), under the spec's 0.6
    _, rec, _ = scene
    k = int(np.argmin([p[1] for p in rec["felled_pelvis"]]))
    drawn = rec["felled_drawn"][k]
    body = rec["felled_pelvis"][k]
    print(f"felled drawn hips at {drawn[1]:.3f} m (body {body[1]:.3f}); standing drawn at "
          f"{rec['standing_drawn'][-1]:.3f} m")
    assert drawn[1] < 0.6
    # the rig's hips bone sits on the pelvis body (the box man's dressing offset: under 2 cm)
    assert np.linalg.norm(drawn - body) < 0.02
    assert min(rec["standing_drawn"]) > 0.8


def test_determinism():
    # shorter than the scene above: the same inputs twice, the same bits
    _, _, _, d1 = _scene_short()
    _, _, _, d2 = _scene_short()
    assert d1 == d2


def _scene_short():
    e, figs, rec, digest = _scene(seconds_after=1.0)
    e.close()
    return e, figs, rec, digest


# ------------------------------------------------------------------------------ the fallers
@pytest.fixture(scope="module")
def fallers():
    from motion import falls as F
    return {w: F.run(w, n=1, seconds=4.0, blows=(400.0, 400.0)) for w in F.WAYS}


def test_fallers_hands_reach_the_ground_first(fallers):
    for way, f in fallers.items():
        print(f"{way}: a hand down {f.hands_t[0]:.2f} s after the blow; the protected head "
              f"came in at {f.head_in[0]:.2f} m/s (nan: never met the ground), its twin's at "
              f"{f.head_in[1]:.2f} m/s ({f.head_speed[1]:.2f} once the contact stopped it); "
              f"landed {f.landed_t[0]:.2f} s, lying {f.lying_t[0]:.2f}")
        assert np.isfinite(f.hands_t[0])
        assert np.isnan(f.head_speed[0]) or f.hands_first[0] == 1


# sideways (session 8, the far arm along the fall): the protected head met the ground at 0.53 m/s
# (its twin's at 1.53), the far arm swinging over the head; with the far arm in front (_fall
# far_fwd 1.0, the default since session 9) a hand is down at 0.48 s and the head never meets it
@pytest.mark.parametrize("way", ["over backwards", "forwards", "sideways"])
def test_fallers_head_never_meets_the_ground(fallers, way):
    assert np.isnan(fallers[way].head_speed[0])


def test_fallers_twins_heads_meet_the_ground(fallers):
    for f in fallers.values():
        assert np.isfinite(f.head_speed[1])


def test_fallers_land_and_let_go(fallers):
    for f in fallers.values():
        assert np.isfinite(f.landed_t[0])
        assert f.aims_left[0] == 0
        assert not f.aimed_twin


@pytest.mark.parametrize("way", ["over backwards", "forwards", "sideways"])
def test_fallers_lie(fallers, way):
    # forwards: with the whole blow (issue 18) 400 N·s from behind lands it 0.72 s after the blow
    # and it lies at 1.08 s; with the blow capped to 246 N·s it was caught on its hands and knees
    f = fallers[way]
    assert np.isfinite(f.lying_t[0]) and f.lying_t[0] > f.landed_t[0]


# ------------------------------------------------------------------------------ bad input
@pytest.fixture()
def one():
    e = engine.Engine()
    physics.ground(e)
    r = physics.ragdoll(e, "a", (0.0, 0.0, 0.0), 8.0, 8.0, 1.0)
    b = motion.active_ragdoll(r)
    motion.attach(e, b)
    yield e, r, b
    e.close()


def _state(e):
    s = e.services["motion"]
    return (s.ff.copy(), s.fi.copy(), s.pbf.copy(), s.pbi.copy(),
            e.physics.bf[: e.physics.n].copy())


def test_bad_input_nan_blow(one):
    e, r, b = one
    before = _state(e)
    with pytest.raises(ValueError, match="impulse must be finite"):
        motion.hit(b, human.BONE_SPINE_03, (0.0, 1.3, 0.0), (0.0, math.nan, 0.0))
    with pytest.raises(ValueError, match="point must be finite"):
        motion.hit(b, human.BONE_SPINE_03, (math.inf, 1.3, 0.0), (0.0, 1.0, 0.0))
    after = _state(e)
    assert all(np.array_equal(x, y) for x, y in zip(before, after, strict=True))
    assert motion.mode(b) == motion.ANIMATED


def test_bad_input_unknown_bone(one):
    e, r, b = one
    before = _state(e)
    with pytest.raises(ValueError, match="bone"):
        motion.hit(b, human.BONE_FOOT_L, (0.0, 0.1, 0.0), (0.0, 0.0, 1.0))  # no feet here
    with pytest.raises(ValueError, match="bone"):
        motion.hit(b, -1, (0.0, 0.1, 0.0), (0.0, 0.0, 1.0))
    with pytest.raises(ValueError, match="bone"):
        motion.strength(b, 99)
    after = _state(e)
    assert all(np.array_equal(x, y) for x, y in zip(before, after, strict=True))


def test_bad_input_unknown_mode(one):
    e, r, b = one
    with pytest.raises(ValueError, match="mode"):
        motion.set_mode(b, 17)
    with pytest.raises(ValueError, match="mode"):
        motion.set_mode(b, "powered")
    with pytest.raises(ValueError, match="got to, not set"):
        motion.set_mode(b, motion.GETTING_UP)
    assert motion.mode(b) == motion.ANIMATED


def test_bad_input_destroyed_body(one):
    e, r, b = one
    obj = b.object
    engine.destroy(e, obj)
    e.frame(DT)
    assert r.destroyed
    assert e.physics.body_count() == 1  # the ground alone: its bodies are out of the world
    with pytest.raises(ValueError, match="destroyed"):
        motion.hit(b, human.BONE_SPINE_03, (0.0, 1.3, 0.0), (0.0, 0.0, 1.0))
    with pytest.raises(ValueError, match="destroyed"):
        motion.set_mode(b, motion.POWERED)
    with pytest.raises(TypeError):
        motion.set_mode(None, motion.POWERED)
    e.run(seconds=0.1)  # the world steps on without it


def test_strength_and_recovery_input(one):
    e, r, b = one
    with pytest.raises(ValueError):
        motion.set_strength(b, 1.5)
    with pytest.raises(ValueError):
        motion.set_strength(b, math.nan)
    with pytest.raises(ValueError):
        motion.set_recovery(b, 0.0)
    with pytest.raises(ValueError):
        motion.hit(b, human.BONE_NECK, (0.0, 1.6, 0.0), (0.0, 0.0, 5.0), True, 1.5)


def test_punch_with_a_cost(one):
    e, r, b = one
    motion.set_mode(b, motion.POWERED)
    head = physics.ragdoll_pose(r)[0][human.BONE_NECK]
    motion.hit(b, human.BONE_NECK, head, (0.0, 0.0, -20.0), True, 0.1)
    assert motion.strength(b, human.BONE_NECK) == pytest.approx(1.0 - 0.095)
    assert motion.strength(b, human.BONE_SPINE_03) == pytest.approx(1.0 - 0.0475)


def test_struck_while_animated_goes_powered(one):
    e, r, b = one
    e.run(seconds=0.2)
    assert motion.mode(b) == motion.ANIMATED
    chest = physics.ragdoll_pose(r)[0][human.BONE_SPINE_03]
    motion.hit(b, human.BONE_SPINE_03, chest, (0.0, 0.0, 10.0))
    assert motion.mode(b) == motion.POWERED
    assert e.physics.powered >= 1


def test_modes_write_the_world(one):
    e, r, b = one
    w = e.physics
    e.run(frames=2)
    j = int(r.joints[human.BONE_CALF_L])
    assert w.jf[j, L.J_MOTOR_MAX] == 0.0 and w.jf[j, L.J_SPRING_HZ] == 8.0
    motion.set_mode(b, motion.POWERED)
    e.run(frames=2)
    assert w.jf[j, L.J_MOTOR_MAX] == pytest.approx(human.BUDGET_KNEE)
    assert w.af[r.upright, L.A_TMAX] == pytest.approx(human.BALANCE_TORQUE)
    motion.set_strength(b, 0.5)
    e.run(frames=1)
    assert w.jf[j, L.J_MOTOR_MAX] == pytest.approx(0.5 * human.BUDGET_KNEE)
    motion.set_mode(b, motion.LIMP)
    e.run(frames=1)
    assert w.jf[j, L.J_MOTOR_MAX] == 0.0 and w.af[r.upright, L.A_TMAX] == 0.0
    assert w.jf[j, L.J_SPRING_HZ] == 0.0


def test_ragdoll_destroyed_by_hand(one):
    e, r, b = one
    motion.set_mode(b, motion.POWERED)
    e.run(frames=3)
    physics.ragdoll_destroy(r)
    # a body that would take the freed rows: the motion must never write them
    physics.add_box(e, (0.2, 0.2, 0.2), (3.0, 0.5, 0.0))
    e.run(frames=5)
    with pytest.raises(ValueError, match="destroyed"):
        motion.set_mode(b, motion.LIMP)
    assert np.all(np.isfinite(e.physics.bf[: e.physics.n]))


def test_a_program_stepping_itself():
    with engine.Engine() as e:
        physics.ground(e)
        r = physics.ragdoll(e, "self", (0.0, 0.0, 0.0), 8.0, 8.0, 1.0)
        b = motion.active_ragdoll(r)          # not attached: stepped by hand
        motion.set_mode(b, motion.POWERED)
        for _ in range(60):
            motion.motion_step(e)
            motion.pose(b, e)
        assert e.physics.effective_substeps == 8
        assert M.pelvis_height(r) > 0.9 and motion.lean(b) < 0.01
        p, _ = motion.drawn_pose(b)
        assert np.linalg.norm(p[0] - physics.ragdoll_pose(r)[0][0]) < 1e-9
        with pytest.raises(ValueError):
            motion.motion_step(e, math.nan)
