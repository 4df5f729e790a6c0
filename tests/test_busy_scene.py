"""The busy scene for two simulated minutes (issue 18; ten in bench/soak.py, which also times it):
8 POWERED box men on Idle, one struck every second with 50-600 N·s at any bone in any direction
(``motion.hit``), 2 LIMP box men, 4 boxes, and 2 POWERED bystanders 40 m away.

| measured | held to |
|---|---|
| any body's pose or velocity | finite |
| widest joint gap | 10 cm (a tear) |
| widest gap 0.1 s or more after a blow | 2 cm |
| fastest body | the 400 m/s cap + 10 m/s |
| the bystanders' bodies | within 1 mm of where they stood |
"""

from __future__ import annotations

import blows as B
import numpy as np
import pytest

from ae3d import engine, physics
from ae3d.physics import _kernels_joints as KJ

MINUTES = 2.0


@pytest.fixture(scope="module")
def busy():
    e = engine.Engine()
    s = B.BusyScene(e)
    s.settle(1.0)
    out = {"gap": 0.0, "late_gap": 0.0, "speed": 0.0, "bad": 0, "late_at": None}
    for _ in range(int(round(MINUTES * 60.0 / e.fixed_dt))):
        o = s.step()
        g = float(np.nan_to_num(o[:, KJ.FW_GAP], nan=1e9).max())
        out["gap"] = max(out["gap"], g)
        if s.since_blow >= B.BACK_S - 1e-9 and g > out["late_gap"]:
            out["late_gap"] = g
            out["late_at"] = (e.time, s.blows[-1])
        out["speed"] = max(out["speed"], float(np.nan_to_num(o[:, KJ.FW_SPEED], nan=1e9).max()))
        out["bad"] += int(o[:, KJ.FW_BAD].sum())
    out["moved"] = s.bystanders_moved()
    out["blows"] = len(s.blows)
    out["stats"] = physics.stats(e)
    e.close()
    print(f"busy scene: {out}")
    return out


# The protective fall's straight-armed reach tore this scene at 21.0 s (a 106 N·s upper-arm blow)
# while the contacts took their masses once per step against a world inverse inertia refreshed
# every sub-step: a forearm spinning on the ground drove its contact row past a gain of 2 and it
# diverged (physics/_kernels_contact.py, "Effective masses"). With the masses taken in the solve
# the scene holds: no tear (widest gap 2.11 cm, fastest body 27.9 m/s), the bystanders unmoved.
# What it cannot meet yet, measured: a strict xfail. Re-measured with the ground's share of a
# blow and its friction (physics/_blow.py ground_share; 83 of the 120 blows grounded): the
# widest gap 5.37 cm, fastest body 30.5 m/s, the bystanders unmoved; that gap is the same
# (5.37 cm) with main's _blow.py swapped in over the scene's first 12 s (the blow's instant is
# not where it opens; the 2.11 cm above was measured before later merges).
# Session 8: with physics/_kernels_joints.py's post-step joint projection on, the widest gap was
# 1.00 cm at any time (the box man's depth test broke: kept off).
# Session 9: with the contacts projected with it (on in a trial), the widest gap 1.00 cm at any
# time, fastest body 26.4 m/s, bystanders unmoved; off for tests/test_falls_sweep.py's box man
# (a capsule 3.34 cm into the ground, limit 3).
LATE_GAP = ("measured: a gap of 5.37 cm 0.22 s after a blow (9.2 s in; 436 N·s to a figure's "
            "spine_01; was 2.11 cm, 29.7 s in, when first measured); 2 cm held")


def test_busy_scene_no_nan(busy):
    assert busy["blows"] >= 120
    assert busy["bad"] == 0


def test_busy_scene_no_tear(busy):
    assert busy["gap"] <= B.TEAR_GAP
    assert busy["speed"] <= 400.0 + B.SPEED_SLACK


@pytest.mark.xfail(strict=True, reason=LATE_GAP)
def test_busy_scene_gaps_back_within_a_tenth(busy):
    assert busy["late_gap"] <= B.HELD_GAP, busy["late_at"]


def test_busy_scene_bystanders_untouched(busy):
    assert busy["moved"] <= 1e-3
