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


# What the physics cannot meet since the protective fall came in (issue 12 on issue 18's
# solver), measured: strict xfails. With every figure's protection off the scene holds all four
# checks (no joint gap over 10 cm in two minutes); protected, the first tear comes 21.0 s in: a
# 106 N·s blow to the right upper arm of a figure reaching with straight arms opens a 0.92 m gap
# a step later, and the scene ends with gaps of 5,829 m and the bystanders moved 2.9 km. The blow's
# exact response through the joints (physics/_blow.py) leaves the joints' limits out: likely, an
# elbow held straight at its limit by the reach is driven into it, and the limit's row must stop
# that in a sub-step. Next: the limit rows a blow drives into, in the blow's solve (an active set).
FALL_TEAR = ("measured with the protective fall: a 0.92 m gap 21.0 s in (106 N·s at a reaching "
             "figure's upper arm), 5,829 m by the end; holds with protection off")


def test_busy_scene_no_nan(busy):
    assert busy["blows"] >= 120
    assert busy["bad"] == 0


@pytest.mark.xfail(strict=True, reason=FALL_TEAR)
def test_busy_scene_no_tear(busy):
    assert busy["gap"] <= B.TEAR_GAP
    assert busy["speed"] <= 400.0 + B.SPEED_SLACK


@pytest.mark.xfail(strict=True, reason=FALL_TEAR)
def test_busy_scene_gaps_back_within_a_tenth(busy):
    assert busy["late_gap"] <= B.HELD_GAP, busy["late_at"]


@pytest.mark.xfail(strict=True, reason=FALL_TEAR + "; the bystanders 40 m away moved 2.9 km")
def test_busy_scene_bystanders_untouched(busy):
    assert busy["moved"] <= 1e-3
