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
# Re-measured with the ground's share of a blow and its friction (physics/_blow.py ground_share; 83
# of the 120 blows grounded): the widest gap 5.37 cm 0.22 s after a blow (9.2 s in; 436 N·s to a
# figure's spine_01), fastest body 30.5 m/s, the bystanders unmoved: a strict xfail until the
# post-step joint projection with the contacts (physics/_kernels_joints.py project_joints) came
# on in session 11 with the ground's reach (_kernels_broadphase SF_REACH; sessions 8-9 had it off
# for the box man's depth; session 11: gaps past 1.5 cm projected): from 0.1 s after a blow the
# widest gap 1.47 cm (34.6 s in), 3.11 cm at any time, fastest body 26.4 m/s, bystanders unmoved.


def test_busy_scene_no_nan(busy):
    assert busy["blows"] >= 120
    assert busy["bad"] == 0


def test_busy_scene_no_tear(busy):
    assert busy["gap"] <= B.TEAR_GAP
    assert busy["speed"] <= 400.0 + B.SPEED_SLACK


def test_busy_scene_gaps_back_within_a_tenth(busy):
    assert busy["late_gap"] <= B.HELD_GAP, busy["late_at"]


def test_busy_scene_bystanders_untouched(busy):
    assert busy["moved"] <= 1e-3
