"""tests/test_get_up.ae in pytest: the ways up (spec/motion.md, "get_up(body) gets a figure on the
ground back on its feet", issue 13).

Four figures on one ground (``tests/motion/getup.py``): one knocked over backwards (400 N·s at
the chest from in front); one tripped, its shins swept back (80 N·s on each calf) and its chest
pushed on (250 N·s), which lands face down; one LIMP from the start, crumpled where it stood
(its knees pushed 15 N·s); one standing and POWERED, set ANIMATED (the blend). The three on the
ground have ``set_get_up(body, 0.5)``. Held to the spec's limits:

- each of the three gets up by itself half a second after it settles (lain still);
- the worst turn of any drawn bone in one step on the way up: at most 6°;
- the worst move of the drawn hips in one step: at most 40 mm;
- the hand-over to the animation: at most 1° and 5 mm;
- the lowest any body goes on the way up: at most 3 cm into the ground;
- up, the most it leans in the next second: under 10°;
- facing, against where its feet (face up) or head (face down) lay: within 30°;
- the blended figure takes 15 steps (a quarter second), no drawn bone turning more than 6° a step;
- the scene record writes a figure getting up as the mode it gets up to;
- twice, the same bits.

Beyond the spec: a figure knocked back onto a 10° slope, one slumped back against a wall (LIMP,
its knees pushed, sitting on its folded legs: it rises facing its knees, not its feet behind it),
one knocked onto its side, each up within the same limits. And a sweep: box man and Mixamo man,
felled at the chest by 300 and 450 N·s from six directions; every felled figure gets up within
the same limits. The spec's table is printed (``-s``).

The feet's plants (spec: "planted feet are held at 30 Hz"): once a stage that keeps the feet
begins, neither ankle slides more than ``SLIDE`` (5 mm) over the ground, bodies or drawn. The
spec has no get-up number; it names 5.3 mm as the fault of feet held at the anchors' 5 Hz (a
figure standing up from a seat), so a way up is held under that. Measured without the plants:
25.0, 7.7 and 16.0 mm.

The clip way (beyond the spec, issue 13): the box man's and the Mixamo man's own get-up clips
(``set_get_up_clips``; found by their names GetUpFaceUp / GetUpFaceDown), the spec's scene and a
sweep on both rigs, within the same limits; bad clips (a name the glTF lacks, a clip that is no
way up for the rig, a figure without a rig) raise before anything is set.
"""

from __future__ import annotations

import math

import pytest
from motion import getup as G

from ae3d import engine, motion, physics

TURN = 6.0        # deg a step, any drawn bone
HIPS = 40.0       # mm a step, the drawn hips
HAND_TURN = 1.0   # deg at the hand-over
HAND_MOVE = 5.0   # mm
DEPTH = 0.03      # m into the ground
LEAN = 10.0       # deg, the next second
FACING = 30.0     # deg
WAYS = ("face up", "face down", "limp")
SLIDE = 5.0       # mm: an ankle over the ground once the feet are kept (see above)


@pytest.fixture(scope="module")
def scene():
    out = G.spec_scene()
    print()
    print(G.table(out["rows"]))
    print(f"the blended figure: {out['blend_steps']} steps, the worst drawn bone "
          f"{out['blend_turn']:.2f}° a step")
    return out, {r["name"]: r for r in out["rows"]}


@pytest.mark.parametrize("way", WAYS)
def test_gets_up_by_itself_half_a_second_after_it_settles(scene, way):
    _, rows = scene
    r = rows[way]
    assert r["up"]
    assert abs(r["wait"] - G.GET_UP_AFTER) <= G.DT + 1e-9


def test_ways_match_how_they_lie(scene):
    from ae3d.motion import _layout as ML
    _, rows = scene
    assert rows["face up"]["way"] == ML.WAY_FACE_UP
    assert rows["face down"]["way"] == ML.WAY_FACE_DOWN


@pytest.mark.parametrize("way", WAYS)
def test_worst_turn_and_hips_a_step(scene, way):
    _, rows = scene
    assert rows[way]["turn"] <= TURN
    assert rows[way]["hips"] <= HIPS


@pytest.mark.parametrize("way", WAYS)
def test_hand_over_to_the_animation(scene, way):
    _, rows = scene
    r = rows[way]
    assert r["hand_turn"] <= HAND_TURN and r["hand_move"] <= HAND_MOVE
    # the drawing's own step across it is no jump either
    assert r["hand_draw_turn"] <= HAND_TURN and r["hand_draw_move"] <= HAND_MOVE


@pytest.mark.parametrize("way", WAYS)
def test_lowest_body_on_the_way_up(scene, way):
    _, rows = scene
    assert rows[way]["depth"] <= DEPTH


@pytest.mark.parametrize("way", WAYS)
def test_up_it_stands_upright(scene, way):
    _, rows = scene
    assert rows[way]["lean"] < LEAN


@pytest.mark.parametrize("way", WAYS)
def test_planted_feet_do_not_slide(scene, way):
    _, rows = scene
    assert rows[way]["slide"] <= SLIDE
    assert rows[way]["slide_drawn"] <= SLIDE


@pytest.mark.parametrize("way", ("face up", "face down"))
def test_facing_where_its_feet_or_head_lay(scene, way):
    _, rows = scene
    assert rows[way]["facing"] <= FACING


def test_ends_in_the_mode_it_gets_up_to_and_records_it(scene):
    _, rows = scene
    assert rows["face up"]["ended"] == "powered" and rows["face up"]["record"] == "powered"
    assert rows["face down"]["ended"] == "powered" and rows["face down"]["record"] == "powered"
    assert rows["limp"]["ended"] == "animated" and rows["limp"]["record"] == "animated"


def test_the_blend_takes_15_steps(scene):
    out, _ = scene
    assert out["blend_steps"] == 15
    assert out["blend_turn"] <= TURN


def test_twice_the_same_bits(scene):
    out, _ = scene
    assert G.spec_scene()["digest"] == out["digest"]


# ------------------------------------------------------------------------------ the calls
@pytest.fixture()
def lying():
    """A bare reference ragdoll POWERED, felled backwards and left to lie (no rig)."""
    from ae3d import human
    e = engine.Engine()
    physics.ground(e)
    r = physics.ragdoll(e, "r", (0.0, 0.0, 0.0), 8.0, 8.0, 1.0)
    b = motion.active_ragdoll(r)
    motion.attach(e, b)
    motion.set_mode(b, motion.POWERED)
    e.run(seconds=0.5)
    chest = human.BONE_SPINE_03
    motion.hit(b, chest, physics.ragdoll_pose(r)[0][chest], (0.0, 0.0, -400.0))
    e.run(seconds=2.0)
    yield e, b
    e.close()


def test_get_up_without_a_rig_and_set_mode_ends_it(lying):
    e, b = lying
    assert motion.down(b)
    assert motion.get_up(b) is True
    assert motion.getting_up(b) and motion.mode(b) == motion.GETTING_UP
    assert motion.get_up(b) is False          # already on its way
    with pytest.raises(ValueError, match="got to, not set"):
        motion.set_mode(b, motion.GETTING_UP)
    e.run(seconds=1.0)
    motion.set_mode(b, motion.LIMP)           # ends it where it is
    assert motion.mode(b) == motion.LIMP and not motion.getting_up(b)
    e.run(seconds=1.5)
    assert motion.down(b)
    assert motion.get_up(b)
    e.run(seconds=3.0)
    assert motion.mode(b) == motion.ANIMATED  # it was LIMP: it ends ANIMATED
    assert not motion.down(b)
    assert motion.lean(b) < math.radians(LEAN)


def test_standing_is_not_down_and_does_not_get_up():
    e = engine.Engine()
    physics.ground(e)
    r = physics.ragdoll(e, "r", (0.0, 0.0, 0.0), 8.0, 8.0, 1.0)
    b = motion.active_ragdoll(r)
    motion.attach(e, b)
    motion.set_mode(b, motion.POWERED)
    motion.set_get_up(b, 0.1)
    e.run(seconds=1.0)
    assert not motion.down(b)
    assert motion.get_up(b) is False
    assert motion.mode(b) == motion.POWERED
    e.close()


# ------------------------------------------------------------------------------ the sweep
SWEEP_STRENGTHS = (300.0, 450.0)
SWEEP_DIRECTIONS = (0.0, 60.0, 120.0, 180.0, 240.0, 300.0)


@pytest.fixture(scope="module", params=["boxman.glb", "mixamo_man.glb"])
def swept(request):
    rows = G.sweep(request.param, SWEEP_STRENGTHS, SWEEP_DIRECTIONS)
    print()
    print(request.param)
    for r in rows:
        print(f"  {r['name']}: felled {r['felled']}, up {r['up']} ({r['ended']}), way "
              f"{r['way']}, {r['turn']:.1f}°, {r['hips']:.0f} mm, hand-over "
              f"{r['hand_turn']:.2f}° {r['hand_move']:.1f} mm, {1000 * r['depth']:.0f} mm "
              f"under, lean {r['lean']:.1f}°, facing {r['facing']:.0f}°, ankles "
              f"{r['slide']:.1f} mm (drawn {r['slide_drawn']:.1f})")
    return rows


def test_sweep_every_felled_figure_gets_up_within_the_limits(swept):
    felled = [r for r in swept if r["felled"]]
    assert len(felled) >= len(swept) // 2
    for r in felled:
        assert r["up"], r["name"]
        assert r["turn"] <= TURN and r["hips"] <= HIPS, r["name"]
        assert r["hand_turn"] <= HAND_TURN and r["hand_move"] <= HAND_MOVE, r["name"]
        assert r["depth"] <= DEPTH, r["name"]
        assert r["lean"] < LEAN, r["name"]
        assert r["facing"] <= FACING, r["name"]
        assert r["slide"] <= SLIDE and r["slide_drawn"] <= SLIDE, r["name"]


# ------------------------------------------------------------------------------ beyond the spec
@pytest.fixture(scope="module")
def beyond():
    out = G.beyond_scene()
    print()
    for r in out["rows"]:
        print(f"  {r['name']}: up {r['up']} ({r['ended']}), way {r['way']}, {r['turn']:.1f}°, "
              f"{r['hips']:.0f} mm, hand-over {r['hand_turn']:.2f}° {r['hand_move']:.1f} mm, "
              f"{1000 * r['depth']:.0f} mm under y = 0, lean {r['lean']:.1f}°, facing "
              f"{r['facing']:.0f}°")
    print(f"  the slope: {1000 * out['slope_depth']:.1f} mm into it at the deepest")
    return out, {r["name"]: r for r in out["rows"]}


@pytest.mark.parametrize("name", ("slope", "wall", "side"))
def test_slope_wall_and_side_get_up_within_the_limits(beyond, name):
    out, rows = beyond
    r = rows[name]
    assert r["up"]
    assert r["turn"] <= TURN and r["hips"] <= HIPS
    assert r["hand_turn"] <= HAND_TURN and r["hand_move"] <= HAND_MOVE
    assert (out["slope_depth"] if name == "slope" else r["depth"]) <= DEPTH
    assert r["lean"] < LEAN
    assert r["facing"] <= FACING


# ------------------------------------------------------------------------------ the clip way
# Beyond the spec (issue 13): a figure with get-up clips of its own (the box man's and the Mixamo
# man's GetUpFaceUp / GetUpFaceDown, assets/make_assets.py) plays them warped onto where it lies,
# within the keyed ways' limits. The spec's scene again, and a sweep on both rigs, by the clips.
CLIP_SWEEP_DIRECTIONS = (0.0, 120.0, 240.0)


@pytest.fixture(scope="module")
def clip_scene():
    out = G.spec_scene(clips=True)
    print()
    print("by the box man's own get-up clips:")
    print(G.table(out["rows"]))
    return out, {r["name"]: r for r in out["rows"]}


@pytest.mark.parametrize("way", WAYS)
def test_clip_way_gets_up_within_the_limits(clip_scene, way):
    _, rows = clip_scene
    r = rows[way]
    assert r["clip"], "it got up by the keyed way, not its clip"
    assert r["up"] and abs(r["wait"] - G.GET_UP_AFTER) <= G.DT + 1e-9
    assert r["turn"] <= TURN and r["hips"] <= HIPS
    assert r["hand_turn"] <= HAND_TURN and r["hand_move"] <= HAND_MOVE
    assert r["hand_draw_turn"] <= HAND_TURN and r["hand_draw_move"] <= HAND_MOVE
    assert r["depth"] <= DEPTH
    assert r["lean"] < LEAN
    if way != "limp":
        assert r["facing"] <= FACING
    assert r["slide"] <= SLIDE and r["slide_drawn"] <= SLIDE


def test_clip_way_matches_how_it_lies_and_ends_in_its_mode(clip_scene):
    from ae3d.motion import _layout as ML
    _, rows = clip_scene
    assert rows["face up"]["way"] == ML.WAY_FACE_UP
    assert rows["face down"]["way"] == ML.WAY_FACE_DOWN
    assert rows["face up"]["ended"] == "powered" and rows["face up"]["record"] == "powered"
    assert rows["limp"]["ended"] == "animated" and rows["limp"]["record"] == "animated"


@pytest.fixture(scope="module", params=["boxman.glb", "mixamo_man.glb"])
def clip_swept(request):
    rows = G.sweep(request.param, SWEEP_STRENGTHS, CLIP_SWEEP_DIRECTIONS, clips=True)
    print()
    print(request.param, "by its own get-up clips")
    for r in rows:
        print(f"  {r['name']}: felled {r['felled']}, up {r['up']} ({r['ended']}), clip "
              f"{r['clip']}, way {r['way']}, {r['turn']:.1f}°, {r['hips']:.0f} mm, hand-over "
              f"{r['hand_turn']:.2f}° {r['hand_move']:.1f} mm, {1000 * r['depth']:.0f} mm "
              f"under, lean {r['lean']:.1f}°, facing {r['facing']:.0f}°, ankles "
              f"{r['slide']:.1f} mm (drawn {r['slide_drawn']:.1f})")
    return rows


def test_clip_sweep_every_felled_figure_gets_up_by_its_clip_within_the_limits(clip_swept):
    # the Mixamo man felled face up by 450 N·s from 0 degrees turned its upper arm 6.8 degrees a
    # step blended into its clip over 0.7 s; over _get_up.CLIP_BLEND_IN (1.05 s) 4.9
    felled = [r for r in clip_swept if r["felled"]]
    assert len(felled) >= len(clip_swept) // 2
    for r in felled:
        assert r["up"] and r["clip"], r["name"]
        assert r["turn"] <= TURN, r["name"]
        assert r["hand_turn"] <= HAND_TURN and r["hand_move"] <= HAND_MOVE, r["name"]
        assert r["depth"] <= DEPTH, r["name"]
        assert r["lean"] < LEAN, r["name"]
        assert r["facing"] <= FACING, r["name"]
        assert r["slide"] <= SLIDE and r["slide_drawn"] <= SLIDE, r["name"]


def test_clip_sweep_hips_a_step(clip_swept):
    # Until issue 14 (strides by the way the capture point goes) the Mixamo man felled at
    # 300 N·s from 120° and 240° lay on its side and its clip's way lifted the hips 42.7 mm a
    # step (a strict xfail): those two now stand, caught by steps. Blended over 0.7 s into its
    # clip's first (prone) frame its limbs swept under the ground; over _get_up.CLIP_BLEND_IN
    # (1.05 s) 30.4 mm (box man 37 -> 28.1)
    for r in clip_swept:
        if r["felled"]:
            assert r["hips"] <= HIPS, (r["name"], r["hips"])


def _dressed(path="boxman.glb"):
    import blows
    e = engine.Engine()
    physics.ground(e)
    return e, blows.boxman(e, "m", (0.0, 0.0, 0.0), motion.POWERED, path=path)


def test_get_up_clips_found_by_name_any_case_and_set():
    e, m = _dressed()
    assert motion.get_up_clips(m) == ("GetUpFaceUp", "GetUpFaceDown")
    motion.set_get_up_clips(m, "getupfaceup", None)     # any case; None: the keyed way
    assert motion.get_up_clips(m) == ("GetUpFaceUp", None)
    motion.set_get_up_clips(m, None, None)
    assert motion.get_up_clips(m) == (None, None)
    e.close()
    e, z = _dressed("zombie.glb")
    assert motion.get_up_clips(z) == (None, None)       # its glTF has none: the keyed ways
    e.close()


def test_bad_get_up_clips_raise_clearly_and_set_nothing():
    e, m = _dressed()
    with pytest.raises(ValueError, match="face_up: the figure has no clip 'Cartwheel'"):
        motion.set_get_up_clips(m, "Cartwheel", None)
    with pytest.raises(TypeError, match="face_down must be a clip's name"):
        motion.set_get_up_clips(m, None, 3)
    with pytest.raises(ValueError, match="'Walk' does not start on the ground"):
        motion.set_get_up_clips(m, "Walk", None)
    with pytest.raises(ValueError, match="'Bow' does not start on the ground"):
        motion.set_get_up_clips(m, None, "Bow")
    # the wrong way's clip: it lies face down at its start
    with pytest.raises(ValueError, match="starts lying face down, not face up"):
        motion.set_get_up_clips(m, "GetUpFaceDown", None)
    with pytest.raises(ValueError, match="starts lying face up, not face down"):
        motion.set_get_up_clips(m, None, "GetUpFaceUp")
    assert motion.get_up_clips(m) == ("GetUpFaceUp", "GetUpFaceDown")   # nothing was set
    e.close()
    # a bare ragdoll has no rig to play a clip on
    e = engine.Engine()
    r = physics.ragdoll(e, "r", (0.0, 0.0, 0.0), 8.0, 8.0, 1.0)
    b = motion.active_ragdoll(r)
    with pytest.raises(ValueError, match="no rig"):
        motion.set_get_up_clips(b, "GetUpFaceUp", None)
    assert motion.get_up_clips(b) == (None, None)
    motion.set_get_up_clips(b, None, None)
    e.close()


def test_the_way_up_takes_back_only_the_pairs_it_let_pass(lying):
    """The way's own bodies pass through each other (physics World.ignore_pairs), and only the
    pairs it added are taken back: the ragdoll's own ignored pairs (its joints') stay."""
    e, b = lying
    w = e.physics
    before = set(w._ignore)
    assert motion.get_up(b)
    assert before < set(w._ignore)
    e.run(seconds=3.0)
    assert not motion.getting_up(b)
    assert set(w._ignore) == before


def test_the_scene_keeps_the_get_up_clips(tmp_path):
    """A figure given its get-up clips by set_get_up_clips is saved with them and loaded back
    with them (the scene's motion record, ``get_up_clips``); one that takes its glTF's own
    writes nothing for them. A record's clips are checked before anything is made."""
    import json

    from ae3d import figure, scene
    path = tmp_path / "getting_up.json"
    with engine.Engine() as e:
        physics.ground(e)
        z = figure.figure(e, "box", "boxman.glb")
        m = motion.on_figure(e, z)
        assert "get_up_clips" not in motion.record(m)     # its glTF's own: nothing written
        motion.set_get_up_clips(m, "getupfaceup", None)   # any case; None: the keyed way
        motion.set_get_up(m, 1.0)
        scene.save(e, str(path))
    data = json.loads(path.read_text())
    assert data["figures"][0]["motion"]["get_up_clips"] == ["GetUpFaceUp", None]
    with engine.Engine() as e:
        physics.ground(e)
        made = scene.load(e, str(path))
        b = motion.motion_of(e, made[0])
        assert motion.get_up_clips(b) == ("GetUpFaceUp", None)
        assert motion.record(b) == data["figures"][0]["motion"]
        # bad clips: a clear error naming the field, and no active ragdoll made
        z = figure.figure(e, "other", "boxman.glb")
        for bad, err in ((["Cartwheel", None], ValueError), ("GetUpFaceUp", ValueError),
                         ([3, None], ValueError), ([None], ValueError)):
            with pytest.raises(err, match="get_up_clips"):
                motion.from_record(e, z, {"mode": "powered", "get_up_clips": bad})
            assert motion.motion_of(e, z) is None
        # a clip that is no way up for that side: raised before any field is set
        with pytest.raises(ValueError, match=r"get_up_clips\[0\].*starts lying face down"):
            motion.from_record(e, z, {"mode": "powered", "strength": 0.5,
                                      "get_up_clips": ["GetUpFaceDown", None]})
        b2 = motion.motion_of(e, z)
        assert b2 is None or (motion.mode(b2) == motion.ANIMATED and motion.strength(b2) == 1.0)


# ------------------------------------------------------------------------------ other ground
@pytest.mark.parametrize("clips", (True, False), ids=("its own clip", "keyed"))
def test_risen_the_animation_stands_on_the_ground_it_rose_on(clips):
    """The way up moves the animation to where the figure rose, its height by the ground under
    the animation's own soles and under the crouch's. A box man 6 m from the world's origin,
    felled by 400 N·s toward -X, rose turned 104 degrees from its animation; its soles turned
    about the origin instead of about themselves came over a 0.3 m step 6 m away, and the
    animation was moved 0.30 m into the ground (measured before the fix, both ways up)."""
    import blows

    from ae3d import human
    from ae3d.motion._modes import anim_world
    from ae3d.physics import _layout as L
    with engine.Engine() as e:
        physics.ground(e)
        for x, z in ((0.0, 6.0), (0.0, -6.0), (-6.0, 0.0)):
            physics.add_box(e, (1.5, 0.15, 1.5), (x, 0.15, z), kind="static")
        m = blows.boxman(e, "m", (6.0, 0.0, 0.0), motion.POWERED)
        if not clips:
            motion.set_get_up_clips(m, None, None)
        motion.set_get_up(m, 0.5)
        e.run(seconds=0.5)
        before = float(anim_world(m)[0][0, 1])
        c = e.physics.bf[m.ragdoll.bodies[human.BONE_SPINE_03], L.B_POS:L.B_POS + 3].copy()
        motion.hit(m, human.BONE_SPINE_03, c, (-400.0, 0.0, 0.0))
        went = False
        for _ in range(600):
            e.run(frames=1)
            went = went or motion.mode(m) == motion.GETTING_UP
            if went and motion.mode(m) == motion.POWERED:
                break
        after = float(anim_world(m)[0][0, 1])
        print(f"the animation's pelvis {before:.3f} m up before, {after:.3f} m risen")
        assert went and motion.mode(m) == motion.POWERED
        assert abs(after - before) < 0.01
