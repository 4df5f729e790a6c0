"""Blows to a figure on a keyed way: sitting on a log, lying on the ground, eating from a bowl
(ACTING, #825) or rising from its back (GETTING_UP). Harness: tests/motion/struck_acting.py.

The way's bodies follow its keys through the follow anchors, uncapped: before session 15 a 5,000
N·s blow to a sitter's chest moved its pelvis 0.0 cm and a figure getting up rose through every
blow as if it had not been struck. Now a blow that gives the whole figure more than its balance
keeps standing (``blow_overcomes``, ``blow_overcomes_ahead`` from behind; its part straight down,
into the seat or the ground, not counted) knocks it off the way: POWERED, fallen, the shape it was
struck in held on the landing's share, the protective fall's reach and tuck; it lands, lies and
gets up (set_get_up). A lighter blow the way holds: the blow takes its share of the muscle, the
struck bone's follow anchors give by it and come back as it recovers, and the bone is drawn toward
its body by as much. A body that strikes it (the world's contacts) is judged on the whole figure as
an inelastic impact of the two.

The sweep (both rigs, with feet): each of the four ways x four bones (chest, head, upper arm,
thigh) x five ways (four level, one straight down) at 60, 250, 1,000 or 5,000 N·s (the strength
turning with the way: every bone takes every strength), 80 trials a rig.

| measured | held to |
|---|---|
| widest joint gap, any blow / from 0.1 s after it | 10 cm (a tear) / 2 cm |
| deepest body under the ground | 3 cm |
| 60 N·s, any bone, any way | kept to its way; a sitter's or lier's pelvis within 3 cm 3 s on |
| a sitter's head or arm, 60 N·s level | gives 8 cm or more, bodies and drawn |
| a blow a sitter or lier keeps to its way through | the struck bone back within 2 cm 3 s on, |
| | bodies and drawn |
| straight down, any strength | kept to its way |
| 1,000 N·s or more, level | knocked off |
| knocked off | at rest within 5 s (landed; or, still on its seat, sat again), and stands again |
| every figure at the end (acting ones asked up 3 s and 6 s after the blow) | POWERED, upright |
| | (under 0.1 rad), not falling |
| a 60 kg crate thrown at a sitter's chest at 10 m/s / a 1 kg ball at 4 m/s | knocked off / kept |
| knocked against a table 0.25 m before the log (350-900 N·s, from behind and in front) | |
| | back on its seat, it sits again; every figure at rest 8 s on, sat or standing |
| a knocked eater's bowl (made dynamic, dropped) | at rest at the end, on the ground or the |
| | log (under its top + the bowl's height + 1 cm), never 1 cm into the ground |
"""

from __future__ import annotations

import math

import numpy as np
import pytest
from motion import struck_acting as SA

from ae3d import motion

RIGS = {"box man": "boxman.glb", "Mixamo man": "mixamo_man.glb"}
REST = 5.0   # s: a knocked figure has come to rest (landed, or sat again) this soon after the blow


@pytest.fixture(scope="module", params=list(RIGS))
def sweep(request):
    out = SA.run(RIGS[request.param])
    out["rig"] = request.param
    return out


@pytest.fixture(scope="module", params=list(RIGS))
def thrown(request):
    return request.param, SA.run_thrown(RIGS[request.param])


def _worst(rows, key):
    r = max(rows, key=lambda r: r[key])
    return r[key], f"{r['kind']} {r['bone']} {r['J']:.0f} N·s {r['way']}"


def test_no_blow_breaks_the_world(sweep):
    rows = sweep["rows"]
    gap, at = _worst(rows, "gap")
    late, at_late = _worst(rows, "late_gap")
    depth, at_depth = _worst(rows, "depth")
    print(f"{sweep['rig']}: widest gap {gap * 100:.2f} cm ({at}); from 0.1 s on "
          f"{late * 100:.2f} cm ({at_late}); deepest {depth * 100:.2f} cm ({at_depth})")
    assert all(r["bad"] == 0.0 for r in rows)
    assert gap < 0.10
    assert late <= 0.02
    assert depth <= 0.03


def test_light_blows_keep_to_the_way(sweep):
    light = [r for r in sweep["rows"] if r["J"] == 60.0]
    assert len(light) >= 16
    drift, at = _worst([r for r in light if r["kind"] != "rise"], "drift")
    print(f"{sweep['rig']}: 60 N·s, {len(light)} blows: none knocked it off; the pelvis at most "
          f"{drift * 100:.2f} cm from where it was 3 s on ({at})")
    for r in light:
        assert not r["knocked"], r
        if r["kind"] != "rise":
            assert r["acting_at_ask"], r
    assert drift <= 0.03


def test_a_blow_the_way_keeps_gives_and_comes_back(sweep):
    # the struck bone's anchor gives by the muscle the blow took and comes back with it
    # (before: held at full strength, 60 N·s moved a sitter's head 4.6 cm)
    kept = [r for r in sweep["rows"] if not r["knocked"] and r["kind"] in ("sit", "lie")]
    limbs = [r for r in kept if r["kind"] == "sit" and r["J"] == 60.0
             and r["bone"] in ("head", "upper arm") and r["way"] != "down"]
    give = min(r["give"] for r in limbs)
    give_drawn = min(r["give_drawn"] for r in limbs)
    back, at = _worst(kept, "back")
    back_drawn, at_drawn = _worst(kept, "back_drawn")
    print(f"{sweep['rig']}: a sitter's head or arm struck with 60 N·s gives at least "
          f"{give * 100:.1f} cm, drawn {give_drawn * 100:.1f}; 3 s on, a kept blow's bone at most "
          f"{back * 100:.2f} cm from where it was struck ({at}), drawn {back_drawn * 100:.2f} "
          f"({at_drawn})")
    assert limbs
    assert give >= 0.08 and give_drawn >= 0.08
    assert back <= 0.02 and back_drawn <= 0.02


def test_blows_into_what_holds_it_knock_nothing(sweep):
    down = [r for r in sweep["rows"] if r["way"] == "down"]
    assert {r["J"] for r in down} == set(SA.LEVELS)
    print(f"{sweep['rig']}: straight down, 60 to 5,000 N·s, {len(down)} blows: none knocked it "
          "off")
    for r in down:
        assert not r["knocked"], r


def test_heavy_blows_knock_it_off_and_it_gets_up(sweep):
    heavy = [r for r in sweep["rows"] if r["J"] >= 1000.0 and r["way"] != "down"]
    knocked = [r for r in sweep["rows"] if r["knocked"]]
    landed, at = _worst(knocked, "landed_s")
    up, at_up = _worst(knocked, "up_s")
    by_level = {J: sum(r["knocked"] for r in sweep["rows"] if r["J"] == J and r["way"] != "down")
                for J in SA.LEVELS}
    resat = [f"{r['kind']} {r['bone']} {r['J']:.0f} N·s {r['way']}" for r in knocked
             if r["resat"]]
    print(f"{sweep['rig']}: knocked off (level blows) {by_level}; at rest at most {landed:.2f} s "
          f"after the blow ({at}); sat again on the seat: {resat}; standing again at most "
          f"{up:.2f} s after ({at_up})")
    for r in heavy:
        assert r["knocked"], r
        assert r["mode_at"] == (motion.GETTING_UP if r["kind"] == "rise" else motion.ACTING)
    for r in knocked:
        assert r["landed_s"] <= REST, r
        assert not math.isnan(r["up_s"]), r


def test_a_knocked_eater_drops_its_bowl_a_kept_one_holds_it(sweep):
    eaters = [r for r in sweep["rows"] if r["kind"] == "eat"]
    dropped = [r for r in eaters if r["knocked"]]
    print(f"{sweep['rig']}: {len(dropped)} of {len(eaters)} eaters knocked off; their bowls at "
          f"the end {min(r['item_y'] for r in dropped):.3f}-{max(r['item_y'] for r in dropped):.3f}"
          f" m up, at most {max(r['item_v'] for r in dropped):.4f} m/s; the lowest any went "
          f"{min(r['item_low'] for r in eaters):.3f} m")
    assert dropped
    for r in dropped:
        # fallen (made dynamic): come to rest on the ground or the log, not hanging in the air
        assert r["item_kind"] == "dynamic", r
        assert r["item_v"] < 0.01, r
        assert r["item_y"] < SA.SEAT + 2.0 * SA.BOWL[1] + 0.01, r
        assert r["item_low"] > SA.BOWL[1] - 0.01, r
    for r in eaters:
        if not r["knocked"]:
            assert r["item_kind"] == "kinematic", r


def test_every_figure_ends_on_its_feet(sweep):
    rows = sweep["rows"]
    lean, at = _worst(rows, "lean")
    print(f"{sweep['rig']}: at the end the most any pelvis leans {lean:.3f} rad ({at})")
    for r in rows:
        assert r["mode"] == motion.POWERED, r
        assert not r["falling"] and not r["getting_up"], r
    assert lean < 0.1


def test_thrown_crate_knocks_a_sitter_off_a_ball_does_not(thrown):
    rig, out = thrown
    print(f"{rig}: {out}")
    crate, ball = out["crate"], out["ball"]
    assert crate["knocked"] and crate["landed"]
    assert crate["mode"] == motion.POWERED and crate["lean"] < 0.1
    assert not ball["knocked"] and ball["acting"] and ball["mode"] == motion.ACTING


@pytest.fixture(scope="module", params=list(RIGS))
def table(request):
    return request.param, SA.run_table(RIGS[request.param])


def _row(r) -> str:
    return (f"{r['J']:.0f} N·s {r['way']}: mode {r['mode']}, seated {r['seated']}, falling "
            f"{r['falling']}, landed {r['landed']}, pelvis {r['pelvis']:.2f} m")


def test_knocked_back_onto_its_seat_it_sits_again(table):
    """Thrown against the table (or back over the log) and come back onto its seat, a knocked
    sitter sits again. Before session 16 two of the five box men back on the seat sat there
    fallen for good, rocking, its arms reaching toward a fall that turned as it rocked (never
    still, so never at rest to be sat again); in a wider probe (tables 0.1 / 0.25 / 0.4 m from
    the log, 60 figures) 15 were left so, some slumped on the log's back edge, their hips'
    middle 3 cm past it where the seat was looked for."""
    rig, rows = table
    knocked = [r for r in rows if r["knocked"]]
    back = [r for r in knocked if r["on_seat"]]
    print(f"{rig}: {len(knocked)} of {len(rows)} knocked off; back on the seat {len(back)}, "
          f"seated again {sum(r['seated'] for r in back)}")
    assert len(knocked) == len(rows)
    for r in back:
        assert r["seated"] and r["mode"] == motion.ACTING, _row(r)


def test_knocked_at_a_table_every_figure_comes_to_rest_sat_or_standing(table):
    """Every figure at a table has come to rest, sat again or standing, 8 s after the blow.
    Session 16 left one a rig (a strict xfail): the box man struck at 450 N·s from behind landed
    and still falling, its pelvis 0.37 m up; the Mixamo man at 550 N·s from behind still getting
    up. Two faults: every way up there ended 0.75 m under the ground (its last key, the
    animation's pose, set down on the table's top: it had stood where the table is before it
    sat), a pop of 5 m/s that threw it down again; and a knocked figure come to rest on its feet
    (bent over the table, or stood in the gap) is fallen however it leans and was got up only
    from the ground (``_get_up._start_on_feet`` now straightens it where it stands)."""
    rig, rows = table
    stuck = [r for r in rows if r["mode"] != motion.ACTING
             and (r["falling"] or r["getting_up"] or r["mode"] != motion.POWERED)]
    print(f"{rig}: stuck {len(stuck)} of {len(rows)}: " + "; ".join(_row(r) for r in stuck))
    assert not stuck


def test_same_bits_twice():
    only = [t for t in SA.trials() if t[2] == 1000.0][:6]
    a = SA.run("boxman.glb", only)
    b = SA.run("boxman.glb", only)
    assert any(r["knocked"] for r in a["rows"])
    assert a["digest"] == b["digest"]
    assert np.array_equal([r["up_s"] for r in a["rows"]], [r["up_s"] for r in b["rows"]],
                          equal_nan=True)
