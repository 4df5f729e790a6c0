"""tests/test_lie.ae in pytest: lying down (spec/motion.md, "A figure can sit on a seat and lie
down on the ground", #825, the first slice of ACTING).

The box man with feet of its own (``physics.set_ankles``) and the Mixamo man, each stood by
``motion.lie_spot`` beside a bedroll (a thin static box: 0.8 m wide, 5 cm thick, 2 m long for
the box man, 2.2 m for the taller Mixamo man) so its hips lie at the bedroll's middle, laid down
with its head along it (``motion.lie_down``), held lain a second, then got up (``motion.get_up``):
eight head directions each, POWERED on the ground and ANIMATED on a floor 0.4 m up
(``tests/motion/lie.py`` measures). Held to the spec's table:

| measured | spec | held to |
|---|---|---|
| lying, past the bedroll's edge / under its top | 0 / 0.6 cm | 0 / 1 cm |
| up from lying | 3.6 s | 4 s |
| the worst turn of any body in a step, lying down and getting up | 5.5° | 6° |

and "Stood or risen, it is upright (under 0.1 rad) and in its mode a second on": the pelvis
body's up within 0.1 rad of the world's a second after the hand-over, in the mode it lay down
from. The measured numbers are printed (``-s``).

Beyond the table: the hips lie within 1 cm of the bedroll's middle (``lie_spot``), the head
within 2° of the way given; lain, no joint
is past its limits (the lying key is a pose the body can take, spec: "a key's limbs must be ones
its body can take"), and the keys themselves are within every joint's range; twice, the same
bits; bad input raises before anything is written; ``set_mode`` ends the action, the animation
back as it was; a bare ragdoll (no rig) lies down and gets up as well.
"""

from __future__ import annotations

import math

import numpy as np
import pytest
from motion import lie as LI

from ae3d import engine, human, motion, physics
from ae3d.motion import _layout as ML

PAST = 0.0        # m: past the bedroll's edge, lain
UNDER = 0.01      # m: under its top, lain
UP = 4.0          # s: up from lying
TURN = 6.0        # deg: the worst turn of any body in a step, lying down and getting up
UPRIGHT = 0.1     # rad: a second after it has risen
HIPS = 0.01       # m: the hips from the bedroll's middle, lain (lie_spot)
HEAD = 2.0        # deg: the way from its hips to its head, lain, off the head direction given
LIMITS = 0.01     # rad: any joint past its limits, lain
HEADS = (0.0, 45.0, 90.0, 135.0, 180.0, 225.0, 270.0, 315.0)
RUNS = {  # (rig, mode, the floor's height (m)): places on the ground and on a raised floor
    "box man, POWERED, on the ground": ("boxman.glb", motion.POWERED, 0.0),
    "box man, ANIMATED, 0.4 m up": ("boxman.glb", motion.ANIMATED, 0.4),
    "Mixamo man, POWERED, on the ground": ("mixamo_man.glb", motion.POWERED, 0.0),
    "Mixamo man, ANIMATED, 0.4 m up": ("mixamo_man.glb", motion.ANIMATED, 0.4),
}


def _line(r: dict) -> str:
    return (f"  head {r['name']}: past {100 * r['past']:.2f} cm, under {100 * r['under']:.2f} cm,"
            f" hips {1000 * r['hips']:.1f} mm, head {r['head_off']:.3f}° off, lain at "
            f"{r['lain_at']:.2f} s, up in {r['up_s']:.2f} s, worst turn {r['turn']:.2f}° (drawn "
            f"{r['turn_drawn']:.2f}°), "
            f"a second on {r['lean']:.4f} rad ({motion_name(r['mode_after'])}), joints past "
            f"their limits {r['limits']:.4f} rad")


def motion_name(mode) -> str:
    return {motion.ANIMATED: "ANIMATED", motion.POWERED: "POWERED", motion.LIMP: "LIMP",
            motion.GETTING_UP: "GETTING_UP", motion.ACTING: "ACTING"}.get(mode, str(mode))


@pytest.fixture(scope="module", params=list(RUNS))
def swept(request):
    path, mode, floor = RUNS[request.param]
    out = LI.run(path, HEADS, mode, floor=floor)
    print()
    print(request.param)
    for r in out["rows"]:
        print(_line(r))
    rows = out["rows"]
    print(f"  worst: past {100 * max(r['past'] for r in rows):.2f} cm, under "
          f"{100 * max(r['under'] for r in rows):.2f} cm, up {max(r['up_s'] for r in rows):.2f} "
          f"s, turn {max(r['turn'] for r in rows):.2f}° (drawn "
          f"{max(r['turn_drawn'] for r in rows):.2f}°), a second on "
          f"{max(r['lean'] for r in rows):.4f} rad")
    return mode, rows


def test_lying_on_the_bedroll(swept):
    _, rows = swept
    for r in rows:
        assert r["lain"], r["name"]
        assert r["past"] <= PAST, (r["name"], r["past"])
        assert r["under"] <= UNDER, (r["name"], r["under"])
        assert r["hips"] <= HIPS, (r["name"], r["hips"])
        assert r["head_off"] <= HEAD, (r["name"], r["head_off"])


def test_up_from_lying_in_under_4_s(swept):
    _, rows = swept
    for r in rows:
        assert r["up"] and r["up_s"] < UP, (r["name"], r["up_s"])


def test_worst_turn_of_any_body_a_step(swept):
    _, rows = swept
    for r in rows:
        assert r["turn"] <= TURN, (r["name"], r["turn"])
        assert r["turn_drawn"] <= TURN, (r["name"], r["turn_drawn"])


def test_risen_upright_and_in_its_mode_a_second_on(swept):
    mode, rows = swept
    for r in rows:
        assert r["ended"] == mode, (r["name"], r["ended"])
        assert r["mode_after"] == mode, (r["name"], r["mode_after"])
        assert r["lean"] < UPRIGHT, (r["name"], r["lean"])


def test_lain_no_joint_past_its_limits(swept):
    _, rows = swept
    for r in rows:
        assert r["limits"] <= LIMITS, (r["name"], r["limits"])


def test_twice_the_same_bits():
    a = LI.run("boxman.glb", (0.0, 135.0), motion.POWERED)
    b = LI.run("boxman.glb", (0.0, 135.0), motion.POWERED)
    assert a["digest"] == b["digest"]


# ------------------------------------------------------------------------------ by its clip
@pytest.mark.parametrize("path", list(LI.RIGS.values()))
def test_up_from_lying_by_its_own_get_up_clip(path):
    """Beyond the spec: a figure with a face-up get-up clip of its own (the box man's and the
    Mixamo man's GetUpFaceUp) rises from lying by it, as any way up, within the same limits."""
    out = LI.run(path, (0.0, 135.0, 270.0), motion.POWERED, clips=True)
    print()
    for r in out["rows"]:
        print(path, "by its clip:", _line(r))
        assert r["lain"] and r["past"] <= PAST and r["under"] <= UNDER, r
        assert r["up"] and r["up_s"] < UP, r
        assert r["turn"] <= TURN and r["turn_drawn"] <= TURN, r
        assert r["mode_after"] == motion.POWERED and r["lean"] < UPRIGHT, r


# ------------------------------------------------------------------------------ turned
@pytest.mark.parametrize("path", list(LI.RIGS.values()))
@pytest.mark.parametrize("turn", (-120.0, -45.0, 60.0, 90.0, 180.0))
def test_turned_from_the_way_it_lies(path, turn):
    """Standing off the way it will lie (not as lie_spot has it face: a quarter, a third and
    half a turn either way), it turns there on the spot first, standing, and lies down from
    there, on its bedroll, within the same limits. Turned as it squatted instead, a quarter turn
    off the box man's feet turned 8.2 degrees in a step and half a turn off 49."""
    out = LI.run(path, (0.0, 200.0), motion.POWERED, turn=turn)
    print()
    for r in out["rows"]:
        print(path, f"turned {turn:g}°:", _line(r))
        assert r["lain"] and r["past"] <= PAST and r["under"] <= UNDER, r
        assert r["hips"] <= HIPS and r["head_off"] <= HEAD, r
        assert r["turn"] <= TURN and r["turn_drawn"] <= TURN, r
        assert r["up_s"] < UP and r["lean"] < UPRIGHT, r


# ------------------------------------------------------------------------------ the keys
@pytest.mark.parametrize("path", list(LI.RIGS.values()))
def test_the_keys_are_poses_the_body_can_take(path):
    """The crouch, sitting back and the lying key (solved onto the ground), each facing eight
    ways: no joint past its limits (spec: "a key's limbs must be ones its body can take")."""
    import blows

    from ae3d.motion import _act as A
    from ae3d.motion import _get_up as G
    from ae3d.motion import _keyed as K
    from ae3d.physics import _layout as L
    e = engine.Engine()
    physics.set_ankles(e, True)
    m = blows.boxman(e, "m", (0.0, 0.0, 0.0), motion.ANIMATED, path=path)
    r = m.ragdoll
    w = e.physics
    for d in HEADS:
        yaw = math.radians(d)
        for name, leans in (("crouch", G.CROUCH), ("sitting back", A.SIT_BACK),
                            ("lying", A.lie_leans(r, yaw))):
            lq, lt = K.key_from_leans(r, leans, yaw)
            p, q = K.key_world(r, lq, lt)
            w.bf[r.bodies, L.B_POS:L.B_POS + 3] = p
            w.bf[r.bodies, L.B_QUAT:L.B_QUAT + 4] = q
            past = physics.ragdoll_limit_errors(r)[:, :2].max()
            assert past <= 1e-6, (path, d, name, past)
        # lying, nothing under the trunk's lowest and the head, hands and heels on it
        _, _, p, q, lows = A._lows(r, A.lie_leans(r, yaw), yaw)
        trunk = lows[[human.BONE_PELVIS, human.BONE_SPINE_01, human.BONE_SPINE_03]].min()
        assert lows.min() >= trunk - 1e-4
        for b in (human.BONE_NECK, human.BONE_LOWERARM_L, human.BONE_LOWERARM_R,
                  human.BONE_FOOT_L, human.BONE_FOOT_R):
            assert abs(lows[b] - trunk) <= 2e-3, (path, d, human.BONE_NAMES[b], lows[b] - trunk)
    e.close()


# ------------------------------------------------------------------------------ the calls
def _standing(mode=motion.POWERED, path="boxman.glb"):
    import blows
    e = engine.Engine()
    physics.set_ankles(e, True)
    physics.ground(e)
    m = blows.boxman(e, "m", (0.0, 0.0, 0.0), mode, path=path)
    motion.set_get_up_clips(m, None, None)
    e.run(seconds=0.3)
    return e, m


def _rows(e, m):
    s = e.services["motion"]
    f = m.slot
    return (s.ff[f].copy(), s.fi[f].copy(), s.pbf[f].copy(), e.physics.bf[: e.physics.n].copy(),
            dict(m.ragdoll.plants), len(e.physics._ignore))


def _same(a, b) -> bool:
    return (np.array_equal(a[0], b[0]) and np.array_equal(a[1], b[1])
            and np.array_equal(a[2], b[2]) and np.array_equal(a[3], b[3])
            and a[4] == b[4] and a[5] == b[5])


def test_the_calls_and_their_states():
    e, m = _standing()
    assert not motion.acting(m) and not motion.lying_down(m)
    assert motion.get_up(m) is False                 # standing: not down
    assert motion.lie_down(m, (0.0, 0.0, 1.0)) is True
    assert motion.acting(m) and motion.lying_down(m) and motion.mode(m) == motion.ACTING
    assert motion.record(m)["mode"] == "powered"    # an acting figure records the mode it left
    assert motion.lie_down(m, (0.0, 0.0, 1.0)) is False   # already acting
    with pytest.raises(ValueError, match="got to, not set"):
        motion.set_mode(m, motion.ACTING)
    e.run(seconds=0.5)
    assert motion.get_up(m) is False                 # squatting: not down yet
    assert motion.lying_down(m)
    e.run(seconds=2.5)
    assert motion.lying_down(m) and motion.down(m)   # lain, it holds there
    assert motion.get_up(m) is True
    assert motion.mode(m) == motion.GETTING_UP and not motion.acting(m)
    assert not motion.lying_down(m)
    e.run(seconds=3.0)
    assert motion.mode(m) == motion.POWERED and not motion.down(m)
    e.close()


def test_set_mode_ends_the_action_where_it_is():
    """set_mode ends it: the figure's own bodies collide again, its feet are lifted, and the
    animation is back as it was (a bare ragdoll's pose given by set_animation: kept and put
    back)."""
    e = engine.Engine()
    physics.set_ankles(e, True)
    physics.ground(e)
    r = physics.ragdoll(e, "r", (0.0, 0.0, 0.0), 8.0, 8.0, 1.0)
    m = motion.active_ragdoll(r)
    motion.attach(e, m)
    motion.set_mode(m, motion.POWERED)
    e.run(seconds=0.3)
    anim = motion.animation(m)
    ignored = set(e.physics._ignore)
    assert motion.lie_down(m, (1.0, 0.0, 0.0))
    e.run(seconds=1.0)
    assert r.plants                                  # sitting back, its feet planted
    motion.set_mode(m, motion.POWERED)
    assert motion.mode(m) == motion.POWERED and not motion.acting(m)
    assert not motion.lying_down(m) and not r.plants
    assert set(e.physics._ignore) == ignored
    after = motion.animation(m)
    assert np.array_equal(after[0], anim[0])
    assert np.array_equal(after[1][0], anim[1][0]) and np.array_equal(after[1][1], anim[1][1])
    e.close()


def test_a_bare_ragdoll_lies_down_and_gets_up():
    """No rig: the animation's own pose (set_animation's, its standing pose) kept while it lies
    and put back before it rises, so it stands up where it got up, ANIMATED as it began."""
    e = engine.Engine()
    physics.set_ankles(e, True)
    physics.ground(e)
    r = physics.ragdoll(e, "r", (0.0, 0.0, 0.0), 8.0, 8.0, 1.0)
    m = motion.active_ragdoll(r)
    motion.attach(e, m)
    e.run(seconds=0.3)
    assert motion.lie_down(m, (0.0, 0.0, -1.0))
    e.run(seconds=3.0)
    assert motion.lying_down(m) and motion.down(m)
    assert motion.get_up(m)
    e.run(seconds=3.5)
    assert motion.mode(m) == motion.ANIMATED and not motion.down(m)
    pq = physics.ragdoll_pose(r)[1][0]
    up = LI._rot(pq, human.BONE_UP_LOCAL[0])
    assert math.acos(min(1.0, up[1])) < UPRIGHT
    e.close()


def test_lie_spot_stands_on_the_bedroll():
    """lie_spot's point is on the ground under it: the bedroll's top where it stands on it,
    and for a figure facing any way (it says where to stand, not where the figure is)."""
    e, m = _standing()
    LI.Bedroll(e, (3.0, 0.0, 0.0), (1.0, 0.0, 0.0))
    spot = motion.lie_spot(m, (3.0, 0.0, 0.0), (1.0, 0.0, 0.0))
    assert spot.shape == (3,)
    assert spot[1] == pytest.approx(2.0 * LI.BEDROLLS["boxman.glb"][1])
    assert 2.0 < spot[0] < 3.0 and abs(spot[2]) < 1e-9     # toward its feet, on the bedroll
    far = motion.lie_spot(m, (30.0, 0.0, 0.0), (1.0, 0.0, 0.0))
    assert far[1] == pytest.approx(0.0) and far[0] - 27.0 == pytest.approx(spot[0])
    e.close()


BAD_HEADS = (
    ((float("nan"), 0.0, 1.0), ValueError, "head"),
    ((0.0, 0.0), ValueError, "head"),
    ("north", TypeError, "head"),
    ((0.0, 1.0, 0.0), ValueError, "over the ground"),
    ((0.0, 0.0, 0.0), ValueError, "over the ground"),
    ((float("inf"), 0.0, 0.0), ValueError, "head"),
)


@pytest.mark.parametrize("head,err,match", BAD_HEADS)
def test_bad_input_raises_before_writing(head, err, match):
    e, m = _standing()
    before = _rows(e, m)
    with pytest.raises(err, match=match):
        motion.lie_down(m, head)
    with pytest.raises(err, match=match):
        motion.lie_spot(m, (0.0, 0.0, 0.0), head)
    assert _same(before, _rows(e, m))
    e.close()


def test_bad_middle_and_handles():
    e, m = _standing()
    before = _rows(e, m)
    with pytest.raises(ValueError, match="middle"):
        motion.lie_spot(m, (0.0, float("nan"), 0.0), (0.0, 0.0, 1.0))
    with pytest.raises(ValueError, match="middle"):
        motion.lie_spot(m, (1e9, 0.0, 0.0), (0.0, 0.0, 1.0))
    for call in (lambda b: motion.lie_down(b, (0.0, 0.0, 1.0)), motion.lying_down,
                 motion.acting, lambda b: motion.lie_spot(b, (0, 0, 0), (0, 0, 1))):
        with pytest.raises(TypeError, match="body must be an active ragdoll"):
            call("figure")
    assert _same(before, _rows(e, m))
    e.close()
    # a closed engine's figure
    with pytest.raises(ValueError, match="closed|destroyed"):
        motion.lie_down(m, (0.0, 0.0, 1.0))
    # a destroyed ragdoll's motion
    e = engine.Engine()
    physics.ground(e)
    r = physics.ragdoll(e, "r", (0.0, 0.0, 0.0), 8.0, 8.0, 1.0)
    b = motion.active_ragdoll(r)
    physics.ragdoll_destroy(r)
    with pytest.raises(ValueError, match="destroyed"):
        motion.lie_down(b, (0.0, 0.0, 1.0))
    e.close()


def test_limp_raises_and_falling_down_or_rising_figures_do_not_lie_down():
    """A LIMP figure is a ragdoll: lie_down raises (nothing written). Falling, on the ground or
    getting up, it cannot lie down from where it is: False, nothing written."""
    e, m = _standing()
    motion.set_mode(m, motion.LIMP)
    before = _rows(e, m)
    with pytest.raises(ValueError, match="LIMP"):
        motion.lie_down(m, (0.0, 0.0, 1.0))
    assert _same(before, _rows(e, m))
    e.close()
    e, m = _standing()
    chest = human.BONE_SPINE_03
    motion.hit(m, chest, physics.ragdoll_pose(m.ragdoll)[0][chest], (0.0, 0.0, -400.0))
    e.run(seconds=2.5)                               # knocked over backwards: down
    assert motion.down(m)
    before = _rows(e, m)
    assert motion.lie_down(m, (0.0, 0.0, 1.0)) is False
    assert _same(before, _rows(e, m))
    assert motion.get_up(m)
    before = _rows(e, m)
    assert motion.lie_down(m, (0.0, 0.0, 1.0)) is False   # getting up
    assert _same(before, _rows(e, m))
    e.close()
    e, m = _standing()
    chest = human.BONE_SPINE_03
    motion.hit(m, chest, physics.ragdoll_pose(m.ragdoll)[0][chest], (0.0, 0.0, -400.0))
    for _ in range(60):
        e.frame(1.0 / 60.0)
        if motion.falling(m):
            break
    assert motion.falling(m)
    before = _rows(e, m)
    assert motion.lie_down(m, (0.0, 0.0, 1.0)) is False
    assert _same(before, _rows(e, m))
    e.close()


def test_the_layout_keeps_its_ways():
    """The action's way is told apart from the ways up (F_GU_WAY), and ACTING is drawn and
    driven from the animation."""
    from ae3d.motion import _act as A
    assert A.WAY_LIE_DOWN not in (ML.WAY_NONE, ML.WAY_FACE_UP, ML.WAY_FACE_DOWN)
    assert motion.ACTING in ML.FROM_ANIMATION
