"""tests/test_balance.ae in pytest: pushes at the chest, each with and without stepping (spec
"Pushed, a POWERED figure steps to catch itself", issue 14).

The spec's table (the reference ragdoll, facing +Z): 60 N·s from behind stands with no step;
255 stands both ways; 270 and 315 fall standing still and stand stepping; 180 from the side
stands both ways; 210 from the side falls standing still and stands stepping; 150 from in front
stands with no step. The sweep from behind 240 to 315 N·s for where standing still gives out,
on the reference ragdoll, the box man and the Mixamo man. Backward: the reference ragdoll (the
spec's box man) shoved from in front at 1.0 to 1.6 m/s at seven angles from -30 to 30 degrees:
all seven stand at 1.0 m/s, 15 or more of the 21 from 1.0 to 1.4, the chest 3 cm or more ahead
of the pelvis on average as it steps back from 1.0. The tables are printed (``-s``); the runner
is ``tests/motion/shoves.py``.

Measured here, with the whole push (issue 18: physics/_blow.py keeps a blow's momentum; before,
every push from behind of 255 N·s and more was the same 246 N·s push): the capture point as first
seen is 1.01 m off at 255 N·s, 1.07 at 270, 1.25 at 315, within two strides ahead (1.49 m; issue
14: strides of 0.745 m ahead, 0.485 aside and back), and stepping stands out of each (3 to 4
catch steps: the closing step is not counted, and within a stagger a capture point behind the
feet steps past 0.65 m, issue 14). Standing still holds 255 N·s from behind and falls from 270,
as the spec's table has: a blow ahead lets the balance go past 3.35 m/s
(``blow_overcomes_ahead``, session 8; at 2.4 every way standing still gave out past 180 N·s).
Rows the spec has otherwise are strict xfails with what they do.

Backward (session 10): a figure standing still steps back past the spec's 24 cm, its weight shift
always ends in its step, and while the step back is under way the upright anchor tips the pelvis
forward over the hips (the blow takes 95 % of the chest's muscle, so the spec's bend at the chest
alone left it 5.8 cm behind the pelvis); two strides back (0.58 m) lie between the 1.6 m/s shove
(0.49 m as first seen) and the 150 N·s (0.59), which takes no step. Measured: all 28 stand, each
stepping back first; the chest 3.8 cm ahead on average at 1.0 m/s.
"""

from __future__ import annotations

import os

import numpy as np
import pytest
from motion import shoves as S

ASSETS = os.path.join(os.path.dirname(__file__), "..", "assets")
# (N·s, degrees from behind: 0 behind, 90 the side, 180 in front), the spec's verdicts
TABLE = (
    (60.0, 0.0, "stands", "stands, no step"),
    (255.0, 0.0, "stands", "stands, steps"),
    (270.0, 0.0, "falls", "stands, steps"),
    (315.0, 0.0, "falls", "stands, steps"),
    (180.0, 90.0, "stands", "stands, steps"),
    (210.0, 90.0, "falls", "stands, steps"),
    (150.0, 180.0, "stands", "stands, no step"),
)
SWEEP = np.arange(240.0, 316.0, 15.0)
RIGS = (("reference", "box", None), ("box man", "glb", os.path.join(ASSETS, "boxman.glb")),
        ("Mixamo man", "glb", os.path.join(ASSETS, "mixamo_man.glb")))
ANGLES = np.arange(-30.0, 31.0, 10.0)
SPEEDS = (1.0, 1.2, 1.4, 1.6)


def _verdict(o, k):
    if not o.stands[k]:
        return "falls"
    if o.steps[k] == 0:
        return "stands, no step"
    return f"stands, {o.steps[k]} steps"


@pytest.fixture(scope="module")
def table():
    imp = [j * S.way(a) for j, a, _, _ in TABLE]
    n = len(TABLE)
    o = S.run(imp + imp, [True] * n + [False] * n, seconds=3.0)
    print()
    print("| push | without stepping | stepping | spec |")
    print("|---|---|---|---|")
    for k, (j, a, still, step) in enumerate(TABLE):
        where = {0.0: "from behind", 90.0: "from the side", 180.0: "from in front"}[a]
        print(f"| {j:.0f} N·s {where} | {_verdict(o, n + k)} | {_verdict(o, k)} "
              f"(at {', '.join(f'{t:.2f}' for t in o.step_t[k])} s) | {still} / {step} |")
    return o, n


def _row(j, a):
    return next(k for k, r in enumerate(TABLE) if r[0] == j and r[1] == a)


@pytest.mark.parametrize("j,a", [
    (60.0, 0.0),
    (150.0, 180.0),
])
def test_stands_with_no_step(table, j, a):
    o, n = table
    k = _row(j, a)
    assert o.stands[k] and o.stands[n + k]
    assert o.steps[k] == 0


@pytest.mark.parametrize("j,a", [
    (180.0, 90.0),
    (255.0, 0.0),
])
def test_stands_both_ways_stepping(table, j, a):
    o, n = table
    k = _row(j, a)
    assert o.stands[n + k], "standing still"
    assert o.stands[k] and o.steps[k] >= 1, "stepping"


@pytest.mark.parametrize("j,a", [(210.0, 90.0), (270.0, 0.0), (315.0, 0.0)])
def test_falls_standing_still_stands_stepping(table, j, a):
    o, n = table
    k = _row(j, a)
    assert not o.stands[n + k], "standing still"
    assert o.stands[k] and o.steps[k] >= 1, "stepping"


def test_stepping_off_takes_no_step(table):
    o, n = table
    assert np.all(o.steps[n:] == 0)


# ------------------------------------------------------------------------------ the sweep
@pytest.fixture(scope="module")
def sweep():
    out = {}
    print()
    print("| rig | from behind, N·s | " + " | ".join(f"{j:.0f}" for j in SWEEP) + " |")
    print("|---|---|" + "---|" * len(SWEEP))
    for name, rig, path in RIGS:
        imp = [j * S.way(0.0) for j in SWEEP]
        n = len(SWEEP)
        o = S.run(imp + imp, [True] * n + [False] * n, seconds=3.0, rig=rig, path=path)
        out[name] = (o, n)
        for label, off in (("standing still", n), ("stepping", 0)):
            cells = [("stands" if o.stands[off + k] else "falls")
                     + (f" {o.steps[off + k]}" if o.steps[off + k] else "") for k in range(n)]
            print(f"| {name} | {label} | " + " | ".join(cells) + " |")
    return out


@pytest.mark.parametrize("name", [r[0] for r in RIGS])
def test_sweep_stepping_never_worse(sweep, name):
    # where standing still stands, stepping stands too
    o, n = sweep[name]
    assert np.all(o.stands[:n] | ~o.stands[n:])


# ------------------------------------------------------------------------------ backward
@pytest.fixture(scope="module")
def backward():
    from ae3d import engine, motion, physics
    e = engine.Engine()
    r = physics.ragdoll(e, "m", (0.0, 0.0, 0.0), 8.0, 8.0, 1.0)
    mass = float(np.sum(e.physics.bf[r.bodies, 48]))   # B_MASS
    del motion
    e.close()
    imp, keys = [], []
    for v in SPEEDS:
        for a in ANGLES:
            imp.append(v * mass * S.way(180.0 + a))
            keys.append((v, a))
    o = S.run(imp, True, seconds=3.0)
    print()
    print(f"backward shoves ({mass:.1f} kg): | m/s | " + " | ".join(f"{a:.0f}°" for a in ANGLES)
          + " |")
    for v in SPEEDS:
        ks = [i for i, kk in enumerate(keys) if kk[0] == v]
        print(f"| {v:.1f} | " + " | ".join(
            ("stands" if o.stands[i] else "falls") + f" {o.steps[i]}" for i in ks) + " |")
    # nan when no shove at 1.0 m/s steps back (no chest to measure)
    measured = [o.chest_ahead[i] for i, kk in enumerate(keys)
                if kk[0] == 1.0 and np.isfinite(o.chest_ahead[i])]
    ahead = float(np.mean(measured)) if measured else float("nan")
    print(f"stands {int(o.stands.sum())} of {len(keys)}; 1.0-1.4: "
          f"{int(sum(o.stands[i] for i, kk in enumerate(keys) if kk[0] <= 1.4))} of 21; chest "
          f"ahead of the pelvis stepping back from 1.0 m/s: {100 * ahead:.1f} cm")
    return o, keys, ahead


def test_backward_all_seven_stand_at_1(backward):
    o, keys, _ = backward
    assert all(o.stands[i] for i, kk in enumerate(keys) if kk[0] == 1.0)


def test_backward_15_of_21_to_1_4(backward):
    o, keys, _ = backward
    assert sum(o.stands[i] for i, kk in enumerate(keys) if kk[0] <= 1.4) >= 15


def test_backward_chest_ahead_stepping_back(backward):
    _, _, ahead = backward
    assert ahead >= 0.03
