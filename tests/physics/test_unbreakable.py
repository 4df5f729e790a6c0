"""Physics that no blow can break (issue 18): blows from 1 to 5,000 N·s at every bone's centre, in
12 directions, on a lone box man (``motion.on_figure`` on assets/boxman.glb) POWERED and LIMP,
on the ground and in zero gravity, and on the bare reference ragdoll; forward falls on a rig that
faces +X; a torn figure never moves one it does not touch. Every trial is a figure of its own,
all in one engine per module, far apart (tests/blows.py); measured after every step by one numba
call.

| measured | held to |
|---|---|
| widest joint gap, any blow | 10 cm (a tear) |
| fastest body, any blow | the struck body's J/m (or the 400 m/s cap where lower) + 10 m/s |
| deepest body under the ground | 3 cm |
| widest gap from 0.1 s after the blow | 2 cm |
| widest gap at the blows a game means (trunk and legs to 600 N·s, arms to 150) | 2 cm |
| kinetic energy, zero gravity, LIMP | 1 % over J^2/2m of the struck body (+ what it had) |
| a figure 10 m from one struck with 5,000 N·s | within 1 mm of where it stood |

The trials of bench/tear.py's whole grid that missed (LIMP on the ground, as the flung figure lands,
watched 1.5 s) are kept below (BOXMAN_MISSES, REFERENCE_MISSES); their gaps and depths are held
since session 13 (the depth was 3.60 cm, a strict xfail, until the ground contacts' speculative
rows stopped shifting their lever arms: _kernels_contact's "Lever arms").
"""

from __future__ import annotations

import blows as B
import numpy as np
import pytest

from ae3d import engine, human, motion, physics
from ae3d.physics import _kernels_joints as KJ

LEVELS = (150.0, 600.0, 5000.0)  # N·s (bench/tear.py takes 60 to 5,000 in 7 steps)
WATCH = 0.4  # s after the blows
ARMS = (human.BONE_UPPERARM_L, human.BONE_LOWERARM_L, human.BONE_UPPERARM_R,
        human.BONE_LOWERARM_R)


# Issue 18's gaps (session 8: not the blow's instant but the flung figure landing; box man: 0.4 s
# after the thigh blow, the right shoulder opened 3.26 cm in one step by the contact's stop; the
# reference 2.53 cm at the neck) are held by the post-step joint projection with the contacts
# (physics/_kernels_joints.py project_joints, on since session 11 at gaps past PROJECT_GAP 1.5 cm,
# with the ground's reach, _kernels_broadphase SF_REACH): from 0.1 s after the blow every gap
# here 1.50 cm (box man; the reference 1.49), the deepest body 1.28 cm (reference 0.55).


def _game_level(bone: int, J: float) -> bool:
    """A blow a game means: to 150 N·s at an arm, to 600 at the trunk and legs."""
    return J <= (150.0 if bone in ARMS else 600.0)


def _run(make, levels=LEVELS, bones=None, watch=WATCH, conds=None, only=None):
    """Every (condition, bone, direction) a figure of its own in one engine, struck at once after
    0.5 s, the level turning with the direction (each bone takes each level in 4 of its 12
    directions: the whole grid, every direction at every level, is bench/tear.py's, too slow to
    dress here; ``only``, a list of (bone, direction, N·s), takes just those); watched for
    ``watch`` s. Returns the trials and their measures."""
    e = engine.Engine()
    physics.ground(e)
    dt = e.fixed_dt
    bones = list(range(human.BONE_COUNT)) if bones is None else list(bones)
    if conds is None:
        conds = [(motion.POWERED, False), (motion.LIMP, False), (motion.POWERED, True),
                 (motion.LIMP, True)]
    if only is not None:
        trials = [(c, b, d, J) for c in range(len(conds)) for b, d, J in only]
    else:
        trials = [(c, b, d, levels[(d + b) % len(levels)]) for c in range(len(conds))
                  for b in bones for d in range(len(B.DIRECTIONS))]
    side = int(np.ceil(np.sqrt(len(trials))))
    figs = []
    for k, (c, _b, _d, _J) in enumerate(trials):
        mode, zg = conds[c]
        pos = (B.SPACING * (k % side), B.FLOAT_Y if zg else 0.0, B.SPACING * (k // side))
        figs.append(make(e, f"f{k}", pos, mode, zg))
    watch_ = B.Watch(e, figs)
    e.run(seconds=0.5)
    before = watch_().copy()
    for k, (_c, b, d, J) in enumerate(trials):
        B.strike(e, figs[k], b, J * B.DIRECTIONS[d])
    n = len(trials)
    rec = {key: np.zeros(n) for key in ("gap", "late_gap", "speed", "depth", "ke", "bad")}
    ground = np.array([B.FLOAT_Y - 1000.0 if conds[t[0]][1] else 0.0 for t in trials])
    back = int(round(B.BACK_S / dt))
    for s in range(int(round(watch / dt))):
        e.fixed_step()
        o = watch_()
        depth = np.where(ground > 0.0, 0.0, o[:, KJ.FW_DEPTH])
        rec["gap"] = np.maximum(rec["gap"], np.nan_to_num(o[:, KJ.FW_GAP], nan=1e9))
        if s + 1 >= back:
            rec["late_gap"] = np.maximum(rec["late_gap"], np.nan_to_num(o[:, KJ.FW_GAP], nan=1e9))
        rec["speed"] = np.maximum(rec["speed"], np.nan_to_num(o[:, KJ.FW_SPEED], nan=1e9))
        rec["depth"] = np.maximum(rec["depth"], np.nan_to_num(depth, nan=1e9))
        rec["ke"] = np.maximum(rec["ke"], np.nan_to_num(o[:, KJ.FW_KE], nan=1e30))
        rec["bad"] = np.maximum(rec["bad"], o[:, KJ.FW_BAD])
    cap = e.physics.max_linear_speed
    m = np.array([B.bone_mass(e, figs[k], t[1]) for k, t in enumerate(trials)])
    J = np.array([t[3] for t in trials])
    rec["limit"] = np.minimum(J / m, cap) + B.SPEED_SLACK
    rec["ke0"] = J * J / (2.0 * m)
    rec["ke_before"] = before[:, KJ.FW_KE]
    rec["stats"] = physics.stats(e)
    e.close()
    return {"trials": trials, "conds": conds, **rec}


def _boxman(e, name, pos, mode, zg):
    return B.boxman(e, name, pos, mode, zg).ragdoll


@pytest.fixture(scope="module")
def boxmen():
    return _run(_boxman)


@pytest.fixture(scope="module")
def reference():
    return _run(B.reference)


def _name(res, k):
    c, b, d, J = res["trials"][k]
    mode, zg = res["conds"][c]
    return (f"{'POWERED' if mode == motion.POWERED else 'LIMP'} "
            f"{'zero-g' if zg else 'ground'} {human.BONE_NAMES[b]} dir {d} {J:g} N·s")


def _worst(res, key, sel=None):
    v = res[key] if sel is None else np.where(sel, res[key], -np.inf)
    k = int(np.argmax(v))
    return float(v[k]), _name(res, k)


def _check_no_tear(res):
    gap, at = _worst(res, "gap")
    print(f"widest gap {gap * 100:.2f} cm ({at}); nets {res['stats']}")
    assert not np.any(res["bad"]), "a body went non-finite"
    assert gap <= B.TEAR_GAP, f"tear: gap {gap:.3f} m at {at}"
    over = res["speed"] - res["limit"]
    k = int(np.argmax(over))
    assert over[k] <= 0.0, (f"{res['speed'][k]:.1f} m/s over {res['limit'][k]:.1f} at "
                            f"{_name(res, k)}")


def _check_depth(res):
    depth, at = _worst(res, "depth")
    print(f"deepest body under the ground {depth * 100:.2f} cm ({at})")
    assert depth <= B.DEPTH, f"{depth:.3f} m under the ground at {at}"


def _check_back(res):
    late, at = _worst(res, "late_gap")
    print(f"widest gap from 0.1 s on: {late * 100:.2f} cm ({at})")
    assert late <= B.HELD_GAP, f"gap {late:.3f} m 0.1 s after the blow at {at}"


def _check_game(res):
    sel = np.array([_game_level(b, J) for c, b, d, J in res["trials"]])
    gap, at = _worst(res, "gap", sel)
    print(f"widest gap at the blows a game means: {gap * 100:.2f} cm ({at})")
    assert gap <= B.HELD_GAP, f"gap {gap:.3f} m at {at}"


def _check_energy(res):
    sel = np.array([res["conds"][c] == (motion.LIMP, True) for c, *_ in res["trials"]])
    ratio = (res["ke"] - res["ke_before"]) / res["ke0"]
    r, at = _worst({**res, "ratio": ratio}, "ratio", sel)
    print(f"zero-g LIMP: most kinetic energy {r * 100:.2f} % of J^2/2m ({at})")
    assert r <= 1.01, f"{r:.4f} J^2/2m at {at}"


def test_boxman_no_tear(boxmen):
    _check_no_tear(boxmen)


def test_boxman_never_into_the_ground(boxmen):
    # passes since physics/_blow.py holds the whole figure's turning to GROUP_SPIN_CAP 10 rad/s
    # (it was 3.18 cm under the ground, LIMP, thigh_l, 600 N·s, with the blow capped as a whole);
    # with the ground's share of the blow (physics/_blow.py ground_share) the deepest is 1.28 cm
    # (the reference ragdoll 0.55 cm)
    _check_depth(boxmen)


def test_boxman_gaps_back_within_a_tenth(boxmen):
    _check_back(boxmen)


def test_boxman_game_blows_hold(boxmen):
    _check_game(boxmen)


def test_boxman_limp_zero_g_only_loses_energy(boxmen):
    _check_energy(boxmen)


def test_reference_no_tear(reference):
    _check_no_tear(reference)


def test_reference_never_into_the_ground(reference):
    _check_depth(reference)


def test_reference_gaps_back_within_a_tenth(reference):
    _check_back(reference)


def test_reference_game_blows_hold(reference):
    _check_game(reference)


def test_reference_limp_zero_g_only_loses_energy(reference):
    _check_energy(reference)


# ------------------------------------------------------------------ the whole grid where it misses
# bench/tear.py takes every direction at every level (1,008 trials a condition). Session 11's audit
# of issue 18 ran it on the merged tree (integ a4076ff: the projection and the ground's reach on),
# LIMP on the ground, watched 1.5 s instead of 0.5: no trial opens a joint past 3.8 cm or moves a
# body faster than 36 m/s, but as the flung figure lands (0.4 s after the blow and later, past the
# sampled grid's WATCH) gaps stayed over 2 cm past the projection's 1.5 cm at a step's end, and the
# box man's upper arm at 1,000 N·s drives a body 3.69 cm into the ground. The trials that missed,
# each again here (a figure of its own, watched 1.5 s): (bone, direction, N·s).
# Session 12 traced the gaps: every one was a chest landing on an upper arm the ground already
# held (the shoulder 3.8-6.5 cm open at the step's end), and the projection, splitting each
# correction by the masses, moved the light arm into the ground, which the contacts' pass put
# back: 0.1-0.3 cm closed a sweep, 2.3-3.8 cm left after 16. Now a correction that would drive
# one body under its floor moves the other alone (_kernels_joints.PROJECT_HELD): 1.50 cm at the
# most from 0.1 s on (box man and reference), in 3 sweeps. The depth was the solver's own landing
# (a forearm falling at 8.6 m/s and spinning at 100 rad/s went from 13.4 cm over the ground to
# 3.60 under it in one step, the projection not acting): the ground contact's speculative row
# held a normal velocity taken at a lever arm shifted by half the body's displacement, 3.4 m/s
# off the rate of the separation it tracked; unshifted in the speculative rows against the ground
# (session 13), 1.69 cm at the most (upperarm_r dir 11 at 1,000 N·s).
BOXMAN_MISSES = [
    (human.BONE_LOWERARM_L, 4, 60.0), (human.BONE_LOWERARM_R, 10, 60.0),
    (human.BONE_SPINE_03, 1, 300.0), (human.BONE_SPINE_03, 7, 300.0),
    (human.BONE_SPINE_01, 8, 600.0), (human.BONE_SPINE_01, 11, 600.0),
    (human.BONE_LOWERARM_L, 7, 600.0), (human.BONE_CALF_L, 10, 600.0),
    (human.BONE_CALF_R, 9, 600.0), (human.BONE_UPPERARM_L, 8, 1000.0),
    (human.BONE_LOWERARM_L, 7, 1000.0), (human.BONE_UPPERARM_R, 11, 1000.0),
    (human.BONE_LOWERARM_R, 1, 1000.0), (human.BONE_SPINE_03, 1, 2000.0),
    (human.BONE_SPINE_03, 7, 2000.0), (human.BONE_THIGH_L, 1, 2000.0),
    (human.BONE_CALF_L, 7, 2000.0), (human.BONE_CALF_R, 1, 2000.0),
    (human.BONE_LOWERARM_L, 4, 5000.0), (human.BONE_LOWERARM_R, 10, 5000.0),
]
REFERENCE_MISSES = [
    (human.BONE_NECK, 4, 150.0), (human.BONE_NECK, 10, 150.0),
    (human.BONE_UPPERARM_L, 8, 300.0), (human.BONE_UPPERARM_R, 11, 300.0),
    (human.BONE_THIGH_L, 3, 300.0), (human.BONE_UPPERARM_L, 6, 600.0),
    (human.BONE_UPPERARM_L, 9, 600.0), (human.BONE_UPPERARM_R, 6, 600.0),
    (human.BONE_UPPERARM_R, 9, 600.0), (human.BONE_CALF_L, 4, 600.0),
    (human.BONE_CALF_L, 10, 600.0), (human.BONE_CALF_R, 4, 600.0),
    (human.BONE_CALF_R, 10, 600.0), (human.BONE_SPINE_03, 7, 1000.0),
    (human.BONE_NECK, 1, 1000.0), (human.BONE_NECK, 7, 1000.0),
    (human.BONE_SPINE_03, 1, 2000.0), (human.BONE_SPINE_03, 7, 2000.0),
    (human.BONE_NECK, 1, 2000.0), (human.BONE_NECK, 7, 2000.0),
    (human.BONE_UPPERARM_L, 7, 2000.0), (human.BONE_UPPERARM_R, 1, 2000.0),
    (human.BONE_UPPERARM_L, 7, 5000.0), (human.BONE_UPPERARM_R, 1, 5000.0),
]
LANDING_WATCH = 1.5  # s


@pytest.fixture(scope="module")
def boxman_misses():
    return _run(_boxman, conds=[(motion.LIMP, False)], only=BOXMAN_MISSES, watch=LANDING_WATCH)


@pytest.fixture(scope="module")
def reference_misses():
    return _run(B.reference, conds=[(motion.LIMP, False)], only=REFERENCE_MISSES,
                watch=LANDING_WATCH)


def test_boxman_limp_landing_no_tear(boxman_misses):
    _check_no_tear(boxman_misses)


def test_boxman_limp_landing_never_into_the_ground(boxman_misses):
    # a strict xfail until session 13 (upperarm_l dir 8 at 1,000 N·s 3.60 cm into the ground,
    # upperarm_r dir 11 3.33): a forearm falling at 8.6 m/s and spinning at 100 rad/s went
    # through its speculative contact in one step, the ground contact's lever arm shifted by half
    # the body's displacement (none now in a speculative row against the ground: 1.69 cm at most)
    _check_depth(boxman_misses)


def test_boxman_limp_landing_gaps_back_within_a_tenth(boxman_misses):
    _check_back(boxman_misses)


def test_boxman_limp_landing_game_blows_hold(boxman_misses):
    _check_game(boxman_misses)


def test_reference_limp_landing_no_tear(reference_misses):
    _check_no_tear(reference_misses)


def test_reference_limp_landing_never_into_the_ground(reference_misses):
    _check_depth(reference_misses)


def test_reference_limp_landing_gaps_back_within_a_tenth(reference_misses):
    _check_back(reference_misses)


def test_reference_limp_landing_game_blows_hold(reference_misses):
    _check_game(reference_misses)


# ------------------------------------------------------------------ a rig that faces +X
FALLS = (300.0, 350.0, 400.0, 450.0, 500.0, 550.0, 600.0)


@pytest.fixture(scope="module")
def turned(tmp_path_factory):
    """Forward falls on a rig that faces +X in a T-pose (tests/blows.py make_turned_rig, the
    property of issue 18's fitted rig): POWERED, blows of FALLS N·s at the chest along +X, each
    on a figure of its own; watched for 2 s (the fall and the landing)."""
    path = B.make_turned_rig(str(tmp_path_factory.mktemp("rig") / "turned.glb"))
    e = engine.Engine()
    physics.ground(e)
    figs = [B.boxman(e, f"t{k}", (B.SPACING * k, 0.0, 0.0), motion.POWERED, path=path).ragdoll
            for k in range(len(FALLS))]
    watch_ = B.Watch(e, figs)
    e.run(seconds=0.5)
    for k, J in enumerate(FALLS):
        B.strike(e, figs[k], human.BONE_SPINE_03, (J, 0.0, 0.0))
    n = len(FALLS)
    gap = np.zeros(n)
    depth = np.zeros(n)
    speed = np.zeros(n)
    bad = np.zeros(n)
    for _ in range(int(round(2.0 / e.fixed_dt))):
        e.fixed_step()
        o = watch_()
        gap = np.maximum(gap, np.nan_to_num(o[:, KJ.FW_GAP], nan=1e9))
        depth = np.maximum(depth, np.nan_to_num(o[:, KJ.FW_DEPTH], nan=1e9))
        speed = np.maximum(speed, np.nan_to_num(o[:, KJ.FW_SPEED], nan=1e9))
        bad = np.maximum(bad, o[:, KJ.FW_BAD])
    m = B.bone_mass(e, figs[0], human.BONE_SPINE_03)
    out = {"gap": gap, "depth": depth, "speed": speed, "bad": bad,
           "limit": np.minimum(np.array(FALLS) / m, e.physics.max_linear_speed) + B.SPEED_SLACK,
           "stats": physics.stats(e)}
    e.close()
    return out


def test_turned_rig_forward_falls_hold(turned):
    print(f"turned rig: widest gap {turned['gap'].max() * 100:.2f} cm, deepest "
          f"{turned['depth'].max() * 100:.2f} cm, fastest {turned['speed'].max():.1f} m/s; "
          f"{turned['stats']}")
    assert not np.any(turned["bad"])
    assert np.all(turned["gap"] <= B.TEAR_GAP)
    assert np.all(turned["depth"] <= B.DEPTH)
    assert np.all(turned["speed"] <= turned["limit"])


# ------------------------------------------------------------------ a bystander
def test_struck_figure_never_moves_one_it_does_not_touch():
    """A box man struck with 5,000 N·s at the chest, another standing 10 m away (on its rest
    pose, POWERED): the other's bodies stay within 1 mm of where they stood."""
    e = engine.Engine()
    physics.ground(e)
    struck = B.boxman(e, "struck", (0.0, 0.0, 0.0), motion.POWERED, clip=None).ragdoll
    other = B.boxman(e, "other", (10.0, 0.0, 0.0), motion.POWERED, clip=None).ragdoll
    w = e.physics
    e.run(seconds=1.0)
    start = w.bf[other.bodies, 0:3].copy()
    # toward the bystander and off every axis: the worst way for it
    B.strike(e, struck, human.BONE_SPINE_03, 5000.0 * np.array([0.8, 0.36, 0.48]))
    moved = 0.0
    for _ in range(int(round(1.0 / e.fixed_dt))):
        e.fixed_step()
        moved = max(moved, float(np.max(np.linalg.norm(w.bf[other.bodies, 0:3] - start,
                                                         axis=1))))
    print(f"bystander moved {moved * 1e3:.4f} mm; {physics.stats(e)}")
    e.close()
    assert moved <= 1e-3


# ------------------------------------------------------------------ the nets' counter
def test_stats_counts_a_body_gone_non_finite_and_keeps_it_to_itself():
    """A body whose velocity is made non-finite (behind the public calls' backs) is put back
    where its step began, at rest, and counted; a box on the ground beside it never notices."""
    e = engine.Engine()
    physics.ground(e)
    a = physics.add_box(e, (0.2, 0.2, 0.2), (0.0, 0.2, 0.0))
    b = physics.add_box(e, (0.2, 0.2, 0.2), (3.0, 0.2, 0.0))
    e.run(seconds=0.5)
    w = e.physics
    sa = w.slot_of(a)
    sb = w.slot_of(b)
    before = w.bf[sb].copy()
    p0 = w.bf[sa, 0:3].copy()
    assert physics.stats(e).reset == 0
    w.bf[sa, 7] = float("nan")  # B_V
    w.wake(sa)
    e.fixed_step()
    st = physics.stats(e)
    assert st.reset == 1 and st.reset_last_step == 1
    assert np.all(np.isfinite(w.bf[sa, 0:13]))
    assert np.linalg.norm(w.bf[sa, 0:3] - p0) < 1e-6
    assert np.linalg.norm(w.bf[sb, 0:3] - before[0:3]) < 1e-6
    e.run(seconds=0.5)
    assert physics.stats(e).reset_last_step == 0
    e.close()
