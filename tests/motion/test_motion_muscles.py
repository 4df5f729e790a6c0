"""motion/_muscles.py's verb on a hand-made table: recovery, budgets, springs (issue 11)."""

from __future__ import annotations

import numpy as np

from ae3d.motion import _layout as L
from ae3d.motion import _settings
from ae3d.motion._muscles import muscles_pre
from ae3d.physics import _layout as PL

NB = 3


def _tables():
    ff = np.zeros((1, L.FF_COUNT))
    pbf = np.zeros((1, L.MAXB, L.PBF_COUNT))
    pbi = np.full((1, L.MAXB, L.PBI_COUNT), -1, dtype=np.int64)
    ff[0, L.F_STRENGTH] = 0.5
    ff[0, L.F_SPRING_HZ] = 8.0
    pbf[0, :, L.PB_TARGET + 3] = 1.0
    pbf[0, :, L.PB_PART_S] = 1.0   # every part whole, as a new figure's (_figures.py)
    pbf[0, :NB, L.PB_FULL] = (0.0, 100.0, 40.0)
    pbf[0, 1, L.PB_LOSS] = 0.5
    pbf[0, 1, L.PB_LRATE] = 0.5 / 0.8
    pbi[0, :NB, L.PB_JOINT] = (-1, 0, 1)
    jf = np.zeros((2, PL.JF_COUNT))
    ji = np.zeros((2, PL.JI_COUNT), dtype=np.int64)
    return ff, pbf, pbi, jf, ji, _settings.pack(_settings.DEFAULT)


def test_powered_budget_is_full_x_strength_x_what_blows_left():
    ff, pbf, pbi, jf, ji, prm = _tables()
    dt = 0.1
    changed = muscles_pre(0, dt, NB, True, False, ff, pbf, pbi, prm, jf, ji)
    assert changed
    loss = 0.5 - 0.5 / 0.8 * dt
    assert pbf[0, 1, L.PB_LOSS] == loss
    assert jf[0, PL.J_MOTOR_MAX] == 100.0 * 0.5 * (1.0 - loss)
    assert jf[1, PL.J_MOTOR_MAX] == 40.0 * 0.5
    assert np.all(jf[:, PL.J_SPRING_HZ] == 0.0)
    assert np.all(ji[:, PL.J_DRIVE] == PL.DRIVE_POSE)
    assert np.all(jf[:, PL.J_DRIVE_TIME] == prm[L.S_DRIVE_TIME])


def test_a_parts_share_on_top_of_strength_and_blows():
    # the parts' lasting share (_parts.py) multiplies the budget and the spring's cap
    ff, pbf, pbi, jf, ji, prm = _tables()
    pbf[0, 1, L.PB_PART_S] = 0.03
    dt = 0.1
    muscles_pre(0, dt, NB, True, False, ff, pbf, pbi, prm, jf, ji)
    loss = 0.5 - 0.5 / 0.8 * dt
    assert jf[0, PL.J_MOTOR_MAX] == 100.0 * 0.5 * (1.0 - loss) * 0.03
    assert jf[0, PL.J_SPRING_MAX] == 100.0 * 0.5 * (1.0 - loss) * 0.03
    assert jf[1, PL.J_MOTOR_MAX] == 40.0 * 0.5
    for _ in range(10):   # the blow's share comes back; the part's doesn't
        muscles_pre(0, dt, NB, True, False, ff, pbf, pbi, prm, jf, ji)
    assert pbf[0, 1, L.PB_LOSS] == 0.0
    assert jf[0, PL.J_MOTOR_MAX] == 100.0 * 0.5 * 0.03


def test_animated_springs_and_no_motor():
    ff, pbf, pbi, jf, ji, prm = _tables()
    muscles_pre(0, 0.01, NB, False, True, ff, pbf, pbi, prm, jf, ji)
    assert np.all(jf[:, PL.J_MOTOR_MAX] == 0.0)
    assert np.all(jf[:, PL.J_SPRING_HZ] == 8.0)


def test_a_blow_comes_back_within_its_recovery():
    ff, pbf, pbi, jf, ji, prm = _tables()
    for _ in range(81):
        muscles_pre(0, 0.01, NB, True, False, ff, pbf, pbi, prm, jf, ji)
    assert pbf[0, 1, L.PB_LOSS] == 0.0 and pbf[0, 1, L.PB_LRATE] == 0.0
    # settled: nothing changes, so nothing wakes
    assert not muscles_pre(0, 0.01, NB, True, False, ff, pbf, pbi, prm, jf, ji)
