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
    # landed: lying, or caught on its hands and knees (forwards, since the solver's fix, every
    # one of the thirty is caught so)
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
