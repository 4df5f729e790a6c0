"""tests/test_falls.ae in pytest: the protective fall over thirty falls each way (spec/motion.md,
"A POWERED figure that leans more than 0.35 rad (20°) from its pose is falling", issue 12).

Thirty figures each way (over backwards, forwards, sideways), each protected figure beside an
unprotected twin (``set_protective(False)``), felled by blows at the chest from 376 to 424 N·s
(forwards 410 to 460). Held (#479):

- the protected head the slower at its first ground contact in at least 29 of 30 each way, by
  the speed it comes in at (read the step before the contact stops it; a head that never meets
  the ground is the slower);
- no second head impact (the head capsule leaving the ground by 5 cm and meeting it again);
- every protected figure landed and still (``lying``) within 3 s of landing;
- the twin takes none of the reach (no aim is ever set on it), and a protected figure landed
  (lying, or caught on hands and knees) has every aim cleared;
- forwards, the knees give: the protected pelvis further down as it leans past 45 degrees than
  its twin's.

The spec's table is printed (``-s``). The ensemble is ``tests/motion/falls.py``.
"""

from __future__ import annotations

import math

import numpy as np
import pytest
from motion import falls as F

WAYS = tuple(F.WAYS)


@pytest.fixture(scope="module")
def ensemble():
    out = {w: F.run(w, n=30, seconds=4.5) for w in WAYS}
    rows = [F.row(out[w]) for w in WAYS]
    print()
    print(F.table(rows))
    for r in rows:
        print(f"{r['way']}: twins' second head impacts {r['second_twin']}; protected heads that "
              f"never met the ground {r['head_never']}; pelvis down at 45 deg "
              f"{r['drop']:.2f} m (twin {r['drop_twin']:.2f}); twins' knees "
              f"{r['knees_twin']:.2f} rad; fell {r['fell']} of {r['n']}")
    return out, {r["way"]: r for r in rows}


@pytest.mark.parametrize("way", WAYS)
def test_every_figure_falls(ensemble, way):
    _, rows = ensemble
    assert rows[way]["fell"] == 30


# Sideways (issue 12, sessions 8-9): with the whole blow (issue 18) both arms reached along the
# fall, and the far arm swung over the head and struck the ground beyond it at 4 to 7 m/s, 0.03 to
# 0.05 s after the protected head met the ground; the head was thrown up and met it again (27 of
# 30 slower, 20 protected heads at the ground, 18 twice). The far arm now comes down in front of
# the chest (_fall.FallSettings.far_fwd 1.0, the default since session 9).


@pytest.mark.parametrize("way", WAYS)
def test_protected_head_slower(ensemble, way):
    _, rows = ensemble
    assert rows[way]["slower"] >= 29


@pytest.mark.parametrize("way", WAYS)
def test_no_second_head_impact(ensemble, way):
    _, rows = ensemble
    assert rows[way]["second"] == 0


@pytest.mark.parametrize("way", WAYS)
def test_still_within_3s_of_landing(ensemble, way):
    _, rows = ensemble
    assert rows[way]["landed"] == 30
    assert rows[way]["still3"] == 30


@pytest.mark.parametrize("way", WAYS)
def test_twin_takes_no_aim_and_landed_has_none(ensemble, way):
    # landed: lying, or caught on its hands and knees (session 12: every one of the ninety lies,
    # none caught)
    out, _ = ensemble
    f = out[way]
    assert not f.aimed_twin
    landed = np.isfinite(f.landed_t[:30])
    assert landed.all()
    assert np.all(f.aims_left[:30][landed] == 0)


def test_knees_give_going_down_forwards(ensemble):
    _, rows = ensemble
    r = rows["forwards"]
    assert r["knees"] > 0.3
    assert r["drop"] > r["drop_twin"]


# ------------------------------------------------------------------------------ the spine, the tuck
# The spine and the tuck as the bodies show them (tests/motion/test_motion_fall.py holds that
# they are aimed, on a figure tilted by hand): each joint's turn from its standing pose (the
# joints' targets before the blow, from where its parent carries it) about the axis across the
# way of the fall, positive away from it (tests/motion/falls.py ``run``). Within ``AIM_TOL`` of
# the spec's angle: a tenth of a radian (6 degrees, a fifth of the bend) is as near as an eye
# tells a rounded back or a tucked chin from the spec's, and the muscles chasing an aim re-read
# from the parent each step through a 400 N·s fall lag and overshoot it by less (measured below).
SPINE_BEND = 0.5   # rad (spec: "0.5 rad at each of its two joints")
TUCK = 0.8         # rad (spec: "its head tucks 0.8 rad away from the fall")
AIM_TOL = 0.1      # rad


# Measured (session 12, thirty falls over backwards, 376-424 N·s): the most each joint bent in
# the air 0.487-0.571 (spine_01) and 0.483-0.513 (chest), at the last step before landing
# 0.458-0.511 and 0.483-0.502, off the axis across the fall 0.006 at most; the unprotected
# twins' (no aim) 0.137 at most.
def test_spine_bends_away_falling_backwards(ensemble):
    """Spec: "when the fall is toward its back, its spine bends away from the fall too, 0.5 rad
    at each of its two joints. Going over backwards, from the first lean, that rounds the back":
    each of the two joints reaches the bend in the air, without passing it by more than the
    tolerance, and is still bent so as the figure lands, about the axis across the fall."""
    out, _ = ensemble
    f = out["over backwards"]
    n = len(f.blows)
    p, t = slice(0, n), slice(n, 2 * n)
    print(f"\nspine bend over backwards, the most in the air: spine_01 "
          f"{np.nanmin(f.bend_air[p, 0]):.3f}-{np.nanmax(f.bend_air[p, 0]):.3f}, chest "
          f"{np.nanmin(f.bend_air[p, 1]):.3f}-{np.nanmax(f.bend_air[p, 1]):.3f}; as it lands "
          f"{np.nanmin(f.bend_down[p]):.3f}-{np.nanmax(f.bend_down[p]):.3f}; off the axis "
          f"{f.bend_off[p].max():.3f}; twins {np.nanmax(f.bend_falling[t]):.3f}")
    assert np.all(np.abs(f.bend_air[p] - SPINE_BEND) <= AIM_TOL)
    assert np.all(np.abs(f.bend_down[p] - SPINE_BEND) <= AIM_TOL)
    assert np.all(f.bend_off[p] <= 0.05)
    # the bend is the protective fall's: the twin's spine, not aimed, bends under half of it
    assert np.nanmax(f.bend_falling[t]) < 0.5 * SPINE_BEND


# Measured (session 12): lying, the protected head's turn from where the chest carries its pose
# 0.780-0.848 over backwards, 0.788-0.828 forwards, 0.774-0.839 sideways (every one of the 30
# each way lies); the twins' heads -0.100 to 0.027. Sideways (ten falls, 376-424 N·s), nine
# heads were turned back toward the fall the step before landing (-0.11 to -0.50) and the held
# tuck brought them back to it.
@pytest.mark.parametrize("way", WAYS)
def test_lying_the_head_stays_tucked(ensemble, way):
    """Spec: landed, "every joint holds the shape it landed in, the head still tucked"
    (_landing._keep_tuck): for as long as it lies, the head is turned the tuck from where the
    chest carries it, away from the fall."""
    out, _ = ensemble
    f = out[way]
    n = len(f.blows)
    p, t = slice(0, n), slice(n, 2 * n)
    print(f"\n{way}: lying, the head's turn away from the fall {np.nanmin(f.tuck_lying[p]):.3f}"
          f"-{np.nanmax(f.tuck_lying[p]):.3f} (twins {np.nanmin(f.tuck_lying[t]):.3f}-"
          f"{np.nanmax(f.tuck_lying[t]):.3f})")
    assert np.all(np.isfinite(f.tuck_lying[p]))        # every one lay
    assert np.all(np.abs(f.tuck_lying[p] - TUCK) <= AIM_TOL)
    # the tuck is the protective fall's: a twin's head lies nearer its pose than half of it
    assert np.nanmax(np.abs(f.tuck_lying[t])) < 0.5 * TUCK


def test_twice_the_same_bits():
    a = F.run("forwards", n=2, seconds=1.5)
    b = F.run("forwards", n=2, seconds=1.5)
    assert a.digest == b.digest


# ------------------------------------------------------------------------------ caught
def _caught_scene(push_j: float, push_at: float = 2.5, seconds: float = 5.0, settings=None):
    """A box man felled forwards by 270 N·s at the chest (gently enough to be caught on its
    hands and knees), pushed again from behind at ``push_at`` s by ``push_j`` N·s at the chest.
    ``settings``: the motion's (``motion.set_settings``) instead of the defaults. Returns the
    states (falling, landed, caught, lying, lean) each step, and what the joints and the balance
    held while caught."""
    from ae3d import engine, human, motion, physics
    from ae3d.motion import _layout as ML
    from ae3d.physics import _layout as L
    e = engine.Engine()
    physics.ground(e)
    if settings is not None:
        motion.set_settings(e, settings)
    r = physics.ragdoll(e, "caught", (0.0, 0.0, 0.0), 8.0, 8.0, 1.0)
    b = motion.active_ragdoll(r)
    motion.attach(e, b)
    motion.set_mode(b, motion.POWERED)
    # felled: a figure that steps stands out of a whole 270 N·s push from behind (spec, the
    # stagger table); this scene is the fall's caught state
    motion.set_stepping(b, False)
    e.run(seconds=F.SETTLE)
    chest = human.BONE_SPINE_03
    motion.hit(b, chest, physics.ragdoll_pose(r)[0][chest], (0.0, 0.0, 270.0))
    w = e.physics
    sv = e.services["motion"]
    states, held = [], None
    for k in range(int(round(seconds / F.DT))):
        if k == int(round(push_at / F.DT)):
            held = dict(
                budgets=w.jf[r.joints[1:], L.J_MOTOR_MAX].copy(),
                full=r.budgets[1:].copy(),
                band=w.jf[r.joints[1:], L.J_DEADBAND].copy(),
                balance=float(w.af[r.upright, L.A_TMAX]),
                trunk=float(np.linalg.norm(w.bf[r.bodies[0], L.B_V:L.B_V + 3])),
                hold=float(sv.ff[b.slot, ML.F_HOLD]),
                aims=int((w.ji[r.joints[1:], L.J_DRIVE] == L.DRIVE_AIM).sum()))
            motion.hit(b, chest, physics.ragdoll_pose(r)[0][chest], (0.0, 0.0, push_j))
        e.frame(F.DT)
        states.append((motion.falling(b), motion.landed(b), motion.caught(b), motion.lying(b),
                       motion.lean(b)))
    e.close()
    return states, held


@pytest.fixture(scope="module")
def caught_scene():
    return _caught_scene(250.0)


def test_caught_on_hands_and_knees_holds_at_full_strength(caught_scene):
    states, held = caught_scene
    first = next(i for i, s in enumerate(states) if s[2])
    print(f"caught {(first + 1) * F.DT:.2f} s after the blow; held on {held['hold']:.0%} of its "
          f"budgets, its balance {held['balance']:.0f} N·m, trunk {held['trunk']:.3f} m/s")
    assert held["hold"] == 1.0
    assert np.allclose(held["budgets"], held["full"])
    assert np.allclose(held["band"], 0.02)
    assert held["balance"] > 0.0          # its balance kept
    assert held["aims"] == 0
    assert held["trunk"] < 0.3
    assert all(s[2] for s in states[first:int(round(2.5 / F.DT))])


def test_caught_pushed_again_falls_again(caught_scene):
    states, _ = caught_scene
    k = int(round(2.5 / F.DT))
    # the push moves its trunk: the shape is let go and it falls again (not landed, reaching)
    assert any(s[0] and not s[1] for s in states[k:k + 30])


def test_caught_pushed_again_lands_and_lies(caught_scene):
    # caught once, it is not caught again: falling again, its trunk still for a third of a
    # second lands it (held on landing's share), and it lies. Before (session 7) it was caught
    # again 0.65 s after the push (3.17 s) and never lay
    states, _ = caught_scene
    k = int(round(2.5 / F.DT))
    down = next(i for i in range(k, len(states)) if states[i][1] and not states[i][2])
    lies = next(i for i in range(down, len(states)) if states[i][3])
    print(f"pushed again at 2.5 s: landed {(down + 1) * F.DT:.2f} s, lying "
          f"{(lies + 1) * F.DT:.2f} s")
    assert not any(s[2] for s in states[k + 1:])
    assert all(s[3] for s in states[lies:])


# Session 8 measured it (a strict miss until session 11): pushed from behind with 250 N·s, the
# caught figure fell again, its arms reaching 0.7 down along the push propped it on its hands, and
# it slid 0.59 m on its hands and knees at the same lean (1.16 to 1.18 rad, pelvis 0.25 m) and
# landed there in its kneeling shape (3.17 s) rather than tipping onto its face. Now, falling
# again, an arm whose hand is down gives (_fall.FallSettings.arm_give, on none of its budget): it
# tips onto its face (lean 1.52 rad), lands at 2.83 s and lies at 3.17 s. Given on 0.1 of its
# budget 1.41; 0.2 1.51 but rocked out of lying; 0.3, 0.4 and 1.0 propped it (1.16-1.17).
def test_caught_pushed_again_from_behind_tips_onto_its_face(caught_scene):
    states, _ = caught_scene
    k = int(round(2.5 / F.DT))
    assert max(s[4] for s in states[k:]) > 1.2


# ------------------------------------------------------------------------------ caught sitting
# Box men caught sitting back on their hands and feet (the pelvis up, its front toward the sky),
# found by sweeps of blows at the chest. Session 12: 118.125 degrees from its front at 515 N·s,
# the only one of 28 blows at 105-130 degrees and 505-540 N·s that sat (at 500 it knelt). Session
# 13, the ground's speculative contact rows unshifted (issue 18; physics/_kernels_contact.py,
# "Lever arms"): 118.125 at 515 never caught; of 133 stepping box men (90-270 degrees every 10,
# 300-600 N·s every 50) three sat and held every check below: 120 and 240 degrees at 300 N·s
# (their fronts up 0.54 / 0.53) and 240 at 550 (0.85), the only one of 25 blows at 235-245
# degrees and 530-570 N·s. Figures that do not step, from 120 and its mirror 240 degrees at 250
# N·s, sit; none of the reference ragdolls from 150-210 degrees at 200-350 N·s (session 12).
# None writhes (tests/test_writhe.py's test_caught_sitting_writhes holds the writhers). (name,
# degrees about +Y from the pelvis's forward, N·s, steps)
SITTING = (("240_550", 240.0, 550.0, True), ("120_250", 120.0, 250.0, False),
           ("240_250", 240.0, 250.0, False))
SITTING_RUN = 3.0       # s after the blows
STILL_STEPS = 20        # a third of a second's steps (spec: "its trunk still for a third of a
                        # second": slower than 0.3 m/s)


@pytest.fixture(scope="module")
def caught_sitting():
    """Each of SITTING's box men: when it was caught, how it sat, and what held from then to
    the end of the run."""
    import blows

    from ae3d import engine, human, motion, physics
    from ae3d._math import quat_rot
    from ae3d.physics import _layout as L
    e = engine.Engine()
    physics.ground(e)
    figs = []
    for i, (name, deg, j, steps) in enumerate(SITTING):
        b = blows.boxman(e, name, (10.0 * i, 0.0, 0.0), motion.POWERED)
        if not steps:
            motion.set_stepping(b, False)
        figs.append(dict(name=name, b=b, deg=deg, j=j))
    e.run(seconds=1.0)
    w = e.physics
    fwd_local = np.array(human.BONE_FORWARD_LOCAL[human.BONE_PELVIS], float)

    def quat(s):
        return w.bf[s, L.B_QUAT:L.B_QUAT + 4].copy()

    def shape(r):
        # every joint's rotation of its body relative to its parent's (qA^-1 qB)
        a = w.bf[w.ji[r.joints[1:], L.J_BODY_A], L.B_QUAT:L.B_QUAT + 4].copy()
        a[:, :3] *= -1.0
        return F._qmul(a, w.bf[w.ji[r.joints[1:], L.J_BODY_B], L.B_QUAT:L.B_QUAT + 4])

    for g in figs:
        r = g["b"].ragdoll
        f = quat_rot(quat(r.bodies[0]), fwd_local)
        f[1] = 0.0
        f /= np.linalg.norm(f)
        c, s = math.cos(math.radians(g["deg"])), math.sin(math.radians(g["deg"]))
        d = np.array([c * f[0] + s * f[2], 0.0, -s * f[0] + c * f[2]])
        chest = r.bodies[human.BONE_SPINE_03]
        motion.hit(g["b"], human.BONE_SPINE_03, w.bf[chest, L.B_POS:L.B_POS + 3].copy(), g["j"] * d)
        g.update(at=None, balance_before=None, states=set(), drift=0.0, trunk=0.0, budgets=0.0,
                 band=0.0, aims=0, balance=[], writhed=False, before=[])
    for k in range(int(round(SITTING_RUN / F.DT))):
        balance = {g["name"]: float(w.af[g["b"].ragdoll.upright, L.A_TMAX]) for g in figs}
        e.frame(F.DT)
        t = (k + 1) * F.DT
        for g in figs:
            b, r = g["b"], g["b"].ragdoll
            g["writhed"] |= motion.writhing(b)
            trunk = max(float(np.linalg.norm(w.bf[r.bodies[x], L.B_V:L.B_V + 3]))
                        for x in (human.BONE_PELVIS, human.BONE_SPINE_03))
            if g["at"] is None:
                if not motion.caught(b):
                    g["before"].append(trunk)
                    continue
                low, _ = F._low(w.bf, np.array(r.bodies))
                pel = r.bodies[human.BONE_PELVIS]
                g.update(at=t, lean=motion.lean(b), pelvis_up=float(w.bf[pel, L.B_POS + 1]
                                                                   - low.min()),
                         front_up=float(quat_rot(quat(pel), fwd_local)[1]),
                         hands=float(low[[human.BONE_LOWERARM_L, human.BONE_LOWERARM_R]].max()),
                         balance_before=balance[g["name"]], shape=shape(r))
            g["states"].add((motion.falling(b), motion.landed(b), motion.caught(b),
                             motion.lying(b)))
            dots = np.clip(np.abs(np.sum(shape(r) * g["shape"], axis=1)), 0.0, 1.0)
            g["drift"] = max(g["drift"], float((2.0 * np.arccos(dots)).max()))
            g["trunk"] = max(g["trunk"], trunk)
            g["budgets"] = max(g["budgets"], float(np.abs(w.jf[r.joints[1:], L.J_MOTOR_MAX]
                                                          - r.budgets[1:]).max()))
            g["band"] = max(g["band"], float(np.abs(w.jf[r.joints[1:], L.J_DEADBAND]
                                                    - human.HOLD_BRAKE).max()))
            g["aims"] = max(g["aims"], int((w.ji[r.joints[1:], L.J_DRIVE] == L.DRIVE_AIM).sum()))
            g["balance"].append(float(w.af[r.upright, L.A_TMAX]))
    e.close()
    print()
    for g in figs:
        if g["at"] is None:
            print(f"{g['name']}: never caught")
            continue
        print(f"{g['name']}: caught {g['at']:.2f} s after the blow, lean {g['lean']:.2f} rad, "
              f"pelvis {g['pelvis_up']:.2f} m over its lowest point, its front up "
              f"{g['front_up']:.2f}, hands {g['hands']:.3f} m, its trunk the third of a second "
              f"before under {max(g['before'][-STILL_STEPS:]):.3f} m/s; to {SITTING_RUN:.1f} s: "
              f"shape within {g['drift']:.3f} rad, trunk {g['trunk']:.3f} m/s, balance "
              f"{min(g['balance']):.0f}-{max(g['balance']):.0f} N·m (falling "
              f"{g['balance_before']:.0f})")
    return figs


@pytest.mark.parametrize("name", [s[0] for s in SITTING])
def test_caught_sitting_holds_its_shape_at_full_strength(caught_sitting, name):
    """Spec: "A fall caught on the hands and knees, or sitting, leans less or keeps its pelvis
    up. Its trunk still for a third of a second, it has landed as well, and holds the shape it
    was caught in at full strength with its balance kept" (no writhing: the landing's own)."""
    g = next(x for x in caught_sitting if x["name"] == name)
    assert g["at"] is not None, "never caught"
    # sitting: leaning less than the landing's 1.2 rad or its pelvis up (more than the landing's
    # 25 cm over its lowest point), back on its hands with its front up (kneeling it faces down:
    # -0.92 measured)
    assert g["lean"] < 1.2 or g["pelvis_up"] > 0.25
    assert g["front_up"] > 0.5
    assert g["hands"] < F.TOUCH
    # caught once its trunk (pelvis and chest) had been slower than 0.3 m/s for a third of a
    # second
    assert max(g["before"][-STILL_STEPS:]) < 0.3
    # from being caught to the end (at least a second): landed and caught, never lying (only a
    # figure landed down lies), never falling again, not writhing
    assert SITTING_RUN - g["at"] >= 1.0
    assert g["states"] == {(True, True, True, False)}
    assert not g["writhed"]
    # the shape it was caught in, at full strength (every joint's whole budget, braking within
    # the held shape's 0.02 rad), no aim left, its trunk still
    assert g["drift"] < 0.05
    assert g["budgets"] <= 1e-9
    assert g["band"] <= 1e-12
    assert g["aims"] == 0
    assert g["trunk"] < 0.3
    # its balance kept: what it worked with falling, never let go (landed down it is nothing)
    assert min(g["balance"]) == g["balance_before"] > 0.0


# ------------------------------------------------------------------------------ propped, no limbo
# Box men and Mixamo men struck at the chest from behind and to a side (110-130 degrees about +Y
# from the pelvis's forward and the mirror 230-250, 450-550 N·s), stepping and set to writhe for 3
# s. Session 13: the box man from 118.125 degrees at 500 N·s fell back propped on its hands and feet
# (pelvis 0.28 m up, lean 1.53 rad: not down by the landing's 25 cm) and stayed there neither landed
# nor caught for 5.82 s, 230 at 550 for 3.72 s: the spine's bend away from a fall toward its back
# went on and off every step or two (its way on the backwards cone's edge, cos -0.5), its trunk
# jerked at 0.05-0.5 m/s and was never still for the caught rule's third of a second. _fall.py now
# keeps a spine bent that way once the figure leans past the landing's lean (118.125 at 500 N·s:
# neither for 0.80 s, landed 0.65 s after it was propped; 230 at 550: 0.35 s). The limit: coming
# down takes about half a second, the spec lets a figure landed on its back settle 1.3 s ("every
# fall backwards and sideways is still within 1.3 s") and being caught takes a third of a second
# still: 2 s falling, neither landed nor caught, is more than a fall that is over takes.
PROPPED_DEGS = (110.0, 114.0, 118.125, 122.0, 126.0, 130.0, 230.0, 234.0, 238.0, 242.0, 246.0,
                250.0)
PROPPED_JS = (450.0, 500.0, 550.0)
PROPPED_RUN = 6.0      # s after the blows
PROPPED_LIMIT = 2.0    # s falling, neither landed nor caught


@pytest.fixture(scope="module", params=["boxman.glb", "mixamo_man.glb"])
def propped(request):
    """Each figure's longest run (s) falling, neither landed nor caught, by name deg_N·s (box
    men and Mixamo men: the Mixamo man was never left falling, 0.57 s the longest, before the
    fix or after)."""
    import blows

    from ae3d import engine, human, motion, physics
    from ae3d._math import quat_rot
    from ae3d.physics import _layout as L
    e = engine.Engine()
    physics.ground(e)
    figs = []
    for i, (deg, j) in enumerate((d, j) for d in PROPPED_DEGS for j in PROPPED_JS):
        b = blows.boxman(e, f"{deg:g}_{j:g}", (10.0 * (i % 6), 0.0, 10.0 * (i // 6)),
                         motion.POWERED, path=request.param)
        motion.set_writhing(b, 3.0)
        figs.append((f"{deg:g}_{j:g}", b, deg, j))
    e.run(seconds=1.0)
    w = e.physics
    fwd_local = np.array(human.BONE_FORWARD_LOCAL[human.BONE_PELVIS], float)
    for _, b, deg, j in figs:
        r = b.ragdoll
        f = quat_rot(w.bf[r.bodies[0], L.B_QUAT:L.B_QUAT + 4].copy(), fwd_local)
        f[1] = 0.0
        f /= np.linalg.norm(f)
        c, s = math.cos(math.radians(deg)), math.sin(math.radians(deg))
        d = np.array([c * f[0] + s * f[2], 0.0, -s * f[0] + c * f[2]])
        chest = r.bodies[human.BONE_SPINE_03]
        motion.hit(b, human.BONE_SPINE_03, w.bf[chest, L.B_POS:L.B_POS + 3].copy(), j * d)
    run = {name: 0.0 for name, *_ in figs}
    worst = dict(run)
    for _ in range(int(round(PROPPED_RUN / F.DT))):
        e.fixed_step()   # as the reproduction stepped them
        for name, b, _, _ in figs:
            limbo = motion.falling(b) and not motion.landed(b) and not motion.caught(b)
            run[name] = run[name] + F.DT if limbo else 0.0
            worst[name] = max(worst[name], run[name])
    return worst


def test_a_fall_propped_on_hands_and_feet_lands_or_is_caught(propped):
    """Spec: a fall lands (leaning past 1.2 rad, the pelvis within 25 cm of its lowest point) or,
    caught sitting or on hands and knees, "its trunk still for a third of a second, it has landed
    as well": none is left falling, neither, for PROPPED_LIMIT."""
    stuck = {k: round(v, 2) for k, v in propped.items() if v > PROPPED_LIMIT}
    assert not stuck, stuck
    # the box man's that was found, at 5.82 s (measured 0.80 s with the bend kept)
    assert propped["118.125_500"] <= PROPPED_LIMIT


# A sweep: caught (box man) or lying (Mixamo man), then pushed again from behind and from the
# side at several strengths: each falls again, lands (never caught a second time) and lies.
AGAIN_PUSHES = (150.0, 250.0, 400.0)
AGAIN_FROM = (0.0, 90.0)        # deg about +Y: 0 from behind (as the first blow), 90 the side
AGAIN_RIGS = (("boxman.glb", 270.0, AGAIN_PUSHES), ("mixamo_man.glb", 270.0, (250.0, 400.0)))


@pytest.fixture(scope="module")
def again_swept():
    import math

    import blows

    from ae3d import engine, human, motion, physics
    e = engine.Engine()
    physics.ground(e)
    figs = []
    for path, first, pushes in AGAIN_RIGS:
        for j in pushes:
            for d in AGAIN_FROM:
                b = blows.boxman(e, f"{path} {j:.0f}@{d:.0f}", (4.0 * len(figs), 0.0, 0.0),
                                 motion.POWERED, path=path)
                motion.set_stepping(b, False)
                figs.append(dict(b=b, rig=path, first=first, push=j, at=d, caught=False,
                                 lay=False, again=None, down=None, caught2=False, lying=None))
    e.run(seconds=F.SETTLE)
    chest = human.BONE_SPINE_03
    for g in figs:
        b = g["b"]
        motion.hit(b, chest, physics.ragdoll_pose(b.ragdoll)[0][chest], (0.0, 0.0, g["first"]))
    push_k = int(round(2.5 / F.DT))
    for k in range(int(round(5.0 / F.DT))):
        if k == push_k:
            for g in figs:
                b = g["b"]
                a = math.radians(g["at"])
                g["caught"], g["lay"] = motion.caught(b), motion.lying(b)
                motion.hit(b, chest, physics.ragdoll_pose(b.ragdoll)[0][chest],
                           (g["push"] * math.sin(a), 0.0, g["push"] * math.cos(a)))
        e.frame(F.DT)
        if k < push_k:
            continue
        t = (k + 1) * F.DT
        for g in figs:
            b = g["b"]
            if g["again"] is None and motion.falling(b) and not motion.landed(b):
                g["again"] = t
            if g["again"] is not None:
                g["caught2"] |= motion.caught(b)
                if g["down"] is None and motion.landed(b):
                    g["down"] = t
                if g["down"] is not None and g["lying"] is None and motion.lying(b):
                    g["lying"] = t
        for g in figs:
            assert np.all(np.isfinite(e.physics.bf[g["b"].ragdoll.bodies, :]))
    def s(t):
        return "never" if t is None else f"{t:.2f} s"
    print()
    for g in figs:
        print(f"{g['rig']} felled by {g['first']:.0f} N·s ({'caught' if g['caught'] else ''}"
              f"{'lying' if g['lay'] else ''}), pushed again by {g['push']:.0f} N·s from "
              f"{g['at']:.0f} deg: falls again {s(g['again'])}, landed {s(g['down'])}, lying "
              f"{s(g['lying'])}, caught again {g['caught2']}")
    e.close()
    return figs


def test_pushed_again_sweep_falls_again_lands_and_lies(again_swept):
    for g in again_swept:
        name = (g["rig"], g["push"], g["at"])
        assert g["caught"] or g["lay"], name          # settled before the push
        assert g["again"] is not None, name
        assert not g["caught2"], name
        assert g["down"] is not None and g["lying"] is not None, name
    # the box man was caught on its hands and knees by the first blow
    assert all(g["caught"] for g in again_swept if g["rig"] == "boxman.glb")


# ------------------------------------------------------------------------------ sideways, swept
# The sideways protective fall (the far arm in front, far_fwd 1.0) over strengths and
# directions on two rigs: the reference ragdoll and the Mixamo man (other proportions, bind
# frames along +y), pushed to either side and 30 degrees ahead of it (a push from behind-left
# or behind-right), 350 to 480 N·s at the chest.
SIDE_DIRECTIONS = (90.0, -90.0, 60.0, -60.0)      # deg about +Y from the figure's forward (+Z)
SIDE_RIGS = (None, "mixamo_man.glb")              # None: the reference ragdoll
SIDE_N = 6


@pytest.fixture(scope="module")
def sideways_swept():
    out = {}
    for rig in SIDE_RIGS:
        for a in SIDE_DIRECTIONS:
            f = F.run("sideways", n=SIDE_N, seconds=3.0, blows=(350.0, 480.0), rig=rig,
                      direction=(math.sin(math.radians(a)), math.cos(math.radians(a))))
            r = F.row(f)
            out[(rig or "reference", a)] = r
            print(f"{rig or 'reference'} pushed from {a:.0f} deg: protected head slower "
                  f"{r['slower']} of {r['n']}, coming in at {r['head_p']:.2f} / "
                  f"{r['head_t']:.2f} m/s ({r['n'] - r['head_never']} met the ground; read "
                  f"after the contact's stop {r['head_stop_p']:.2f} / {r['head_stop_t']:.2f} m/s, "
                  f"{r['slower_stopped']} slower), second impacts "
                  f"{r['second']}, "
                  f"still within {r['slowest']:.2f} s of landing")
    return out


def _held_sideways(rows):
    n = sum(r["n"] for r in rows)
    # the spec's 29 of 30 over the sweep (12 falls: every one), no second impact, all still
    assert sum(r["slower"] for r in rows) >= math.ceil(n * 29 / 30)
    assert sum(r["second"] for r in rows) == 0
    assert all(r["landed"] == r["n"] and r["still3"] == r["n"] for r in rows)


@pytest.mark.parametrize("rig", ["reference", "mixamo_man.glb"])
def test_sideways_swept_to_either_side(sideways_swept, rig):
    _held_sideways([r for (g, a), r in sideways_swept.items() if g == rig and abs(a) == 90.0])


# The Mixamo man pushed 30 degrees ahead of its side (issue 12). Session 8: with the far arm to the
# front 11 of 12 protected heads slower and 2 second impacts; with the far arm along the fall
# (before) 10 of 12, none. Session 10: the second impact (60 degrees, 428 N·s) was the head landed
# on its way back up: it met the ground at 0.60 s (coming in at 4.5 m/s, the figure flat on its
# front, lean 1.52), the tuck lifted it at 1 m/s, the landing (0.63 s) took the shape there and the
# head went on 5.4 cm up and fell back. Landed, the head is now held at its tuck
# (_landing._keep_tuck): none. It was a strict xfail until session 12 for one head (-60 degrees,
# 428 N·s) read at 0.54 m/s against its twin's 0.53, both read the step the head is found at the
# ground, after the contact had stopped them; they came in at 2.15 and 6.96 m/s. The heads are now
# compared by the speed they come in at (tests/motion/falls.py ``row``), as the spec's twins'
# 3.2-3.6 m/s are: 12 of 12.


@pytest.mark.parametrize("rig", ["reference", "mixamo_man.glb"])
def test_sideways_swept_ahead_of_the_side(sideways_swept, rig):
    _held_sideways([r for (g, a), r in sideways_swept.items() if g == rig and abs(a) == 60.0])
