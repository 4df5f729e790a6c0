"""A sitter knocked off its seat falls protected (``FallSettings.knock_brake``, ``knock_spin``:
a one-sided brake on the pelvis's tumble, ``_balance.balance_pre``): its head meets the ground
slower than an unprotected twin's, or not at all.

Both rigs sat on a 0.45 m squared log (tests/motion/sit.py), struck at the chest from behind, from
the front and from the side at 250 / 350 / 500 / 800 N·s, each beside a twin with
``set_protective(False)`` (24 pairs; 250 N·s from behind knocks neither rig off: 22 falls).
Watched 4 s from the blow: the head's speed as it first touches the ground (its capsule's lowest
point within 1 cm of it; m/s), the time it rests on its head with the pelvis over 0.5 m up (a
headstand, its legs up in the held sitting shape; s), and when it lands (``F_LAND``).

| measured (session 16, this ensemble) | no brake (before) | knock_brake 0.3 over 2 rad/s |
|---|---|---|
| protected head slower than its twin's, or never touching | 9 of 22 | 22 of 22 (7 never) |
| head in, mean of those touching, box man (twin 5.69 m/s) | 5.79 | 2.98 (6 touch) |
| head in, mean of those touching, Mixamo man (twin 5.52 m/s) | 5.45 | 3.41 (9 touch) |
| headstands, protected, all 24 (twins 9.2 s in 3 s, 10.2 in 4 s) | 6.0 s (in 3 s) | 0.25 s |

Held: slower or never touching in all but 2 of 22, the touching heads' mean under 0.75 of the
twins' each rig, headstands under a quarter of the twins'.
"""

from __future__ import annotations

import math

import numpy as np
import pytest
from motion import sit as SI
from motion.falls import TOUCH, _low

from ae3d import engine, human, motion, physics
from ae3d.motion import _layout as ML
from ae3d.physics import _layout as L

DT = 1.0 / 60.0
RIGS = ("boxman.glb", "mixamo_man.glb")
WAYS = {"behind": (0.0, 0.0, 1.0), "front": (0.0, 0.0, -1.0), "side": (1.0, 0.0, 0.0)}
BLOWS = (250.0, 350.0, 500.0, 800.0)   # N·s at the chest (250 from behind knocks neither off)
SEAT = 0.45       # m: the log's top
WATCH = 4.0       # s from the blow
HEADSTAND = 0.5   # m: the pelvis this high with the head touching is a headstand


@pytest.fixture(scope="module")
def falls():
    trials = [(r, w, j, p) for r in RIGS for w in WAYS for j in BLOWS for p in (True, False)]
    e = engine.Engine()
    physics.set_ankles(e, True)
    physics.ground(e)
    ones = []
    for i, (rig, _, _, prot) in enumerate(trials):
        o = SI.One(e, f"t{i}", rig, (4.0 * (i % 10), 0.0, 4.0 * (i // 10)), SEAT, 0.0,
                   motion.POWERED, False)
        motion.set_protective(o.m, prot)
        ones.append(o)
    e.run(seconds=0.5)
    for o in ones:
        motion.sit(o.m, o.seat.point, o.facing)
    e.run(seconds=4.0)
    w = e.physics
    s = e.services["motion"]
    assert all(motion.mode(o.m) == motion.ACTING for o in ones)
    head = np.array([int(o.m.ragdoll.bodies[human.BONE_NECK]) for o in ones])
    pel = np.array([int(o.m.ragdoll.bodies[human.BONE_PELVIS]) for o in ones])
    for o, (_, way, blow, _) in zip(ones, trials, strict=True):
        b = human.BONE_SPINE_03
        pt = w.bf[int(o.m.ragdoll.bodies[b]), L.B_POS:L.B_POS + 3].copy()
        motion.hit(o.m, b, pt, blow * np.array(WAYS[way]))
    knocked = [bool(s.fi[o.m.slot, ML.F_KNOCKED]) for o in ones]
    first = np.full(len(ones), np.nan)
    stand = np.zeros(len(ones))
    landed = np.full(len(ones), np.nan)
    was = None
    for i in range(int(round(WATCH / DT))):
        e.frame(DT)
        hy, hv = _low(w.bf, head)
        touch = hy < TOUCH
        new = touch & np.isnan(first)
        if was is not None:
            first[new] = np.linalg.norm(was[new], axis=1)
        stand += DT * (touch & (w.bf[pel, L.B_POS + 1] > HEADSTAND))
        was = hv
        for k, o in enumerate(ones):
            if math.isnan(landed[k]) and s.fi[o.m.slot, ML.F_LAND] == ML.LAND_DOWN:
                landed[k] = (i + 1) * DT
    e.close()
    return trials, knocked, first, stand, landed


def test_knocked_sitters_fall_protected(falls):
    trials, knocked, first, stand, landed = falls
    pairs = range(0, len(trials), 2)
    for i in pairs:
        rig, way, blow, _ = trials[i]
        print(f"{rig[:6]} {way:6s} {blow:3.0f}: head in {first[i]:.2f} m/s (twin "
              f"{first[i + 1]:.2f}), headstand {stand[i]:.2f} s ({stand[i + 1]:.2f}), landed "
              f"{landed[i]:.2f} s ({landed[i + 1]:.2f})")
    # 250 N·s from behind keeps either rig on its seat; every other blow knocks it off
    falls_ = [i for i in pairs if not (trials[i][1] == "behind" and trials[i][2] == 250.0)]
    assert [knocked[i] for i in pairs] == [i in falls_ for i in pairs]
    assert [knocked[i + 1] for i in pairs] == [i in falls_ for i in pairs]
    # every fall lands within the watch (the brake holds nothing up), and every twin's head
    # meets the ground
    for i in falls_:
        assert not math.isnan(landed[i]) and not math.isnan(landed[i + 1]), trials[i]
        assert not math.isnan(first[i + 1]), trials[i]
    # the protected head meets the ground slower than its twin's, or not at all
    safer = [i for i in falls_ if math.isnan(first[i]) or first[i] < first[i + 1]]
    never = [i for i in falls_ if math.isnan(first[i])]
    print(f"slower or never touching: {len(safer)} of {len(falls_)} ({len(never)} never)")
    assert len(safer) >= len(falls_) - 2
    # those that touch, well under their twins' (each rig)
    for rig in RIGS:
        hit = [first[i] for i in falls_ if trials[i][0] == rig and not math.isnan(first[i])]
        twin = [first[i + 1] for i in falls_ if trials[i][0] == rig]
        print(f"{rig}: head in {np.mean(hit):.2f} m/s on average over {len(hit)} that touch, "
              f"twins {np.mean(twin):.2f}")
        assert np.mean(hit) < 0.75 * np.mean(twin)
    # hardly any time on its head with its legs up
    prot = float(np.sum(stand[0::2]))
    twins = float(np.sum(stand[1::2]))
    print(f"headstands: {prot:.2f} s in all (twins {twins:.2f})")
    assert prot < 0.25 * twins
