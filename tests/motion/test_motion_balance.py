"""motion/_balance.py's verbs on hand-made tables: lean, falling, the upright cap (issue 11)."""

from __future__ import annotations

import math

import numpy as np

from ae3d.motion import _layout as L
from ae3d.motion import _settings
from ae3d.motion._balance import balance_post, balance_pre, lean_of
from ae3d.physics import _layout as PL

UP = np.array([0.0, 1.0, 0.0])
FWD = np.array([0.0, 0.0, 1.0])


def _tilted(angle):
    """A world of one body turned ``angle`` rad about x, and a figure on it."""
    bf = np.zeros((1, PL.BF_COUNT))
    bf[0, PL.B_QUAT:PL.B_QUAT + 4] = (math.sin(angle / 2), 0.0, 0.0, math.cos(angle / 2))
    ff = np.zeros((1, L.FF_COUNT))
    ff[0, L.F_ANIM_ROT + 3] = 1.0
    ff[0, L.F_STRENGTH] = 1.0
    fi = np.zeros((1, L.FI_COUNT), dtype=np.int64)
    fi[0, L.F_UPRIGHT] = 0
    fi[0, L.F_HEADING] = 1
    pbi = np.zeros((1, L.MAXB, L.PBI_COUNT), dtype=np.int64)
    return bf, ff, fi, pbi, _settings.pack(_settings.DEFAULT)


def test_lean_is_the_tilt():
    bf, *_ = _tilted(0.3)
    assert abs(lean_of(bf, 0, 0.0, 1.0, 0.0, 0.0, 0.0, 0.0, 1.0) - 0.3) < 1e-12


def test_falling_past_the_lean_and_caught_under_half():
    prm = _settings.pack(_settings.DEFAULT)
    for angle, was, now in ((0.3, 0, 0), (0.4, 0, 1), (0.3, 1, 1), (0.1, 1, 0)):
        bf, ff, fi, pbi, _ = _tilted(angle)
        fi[0, L.F_FALLING] = was
        balance_post(0, True, ff, fi, pbi, prm, UP, bf)
        assert fi[0, L.F_FALLING] == now, (angle, was)
        assert abs(ff[0, L.F_MAX_LEAN] - angle) < 1e-12
    bf, ff, fi, pbi, _ = _tilted(0.5)
    balance_post(0, False, ff, fi, pbi, prm, UP, bf)
    assert fi[0, L.F_FALLING] == 0   # only a POWERED figure falls


def test_upright_cap_let_go_to_the_brake():
    bf, ff, fi, pbi, prm = _tilted(0.0)
    af = np.zeros((2, PL.AF_COUNT))
    si = np.zeros((1, PL.SI_COUNT), dtype=np.int64)
    soles = np.zeros(0, dtype=np.int64)
    cap = prm[L.S_BALANCE_TORQUE]
    assert balance_pre(0, 0.1, 1, True, ff, fi, pbi, prm, soles, UP, FWD, bf, af, si)
    assert af[0, PL.A_TMAX] == cap
    assert af[1, PL.A_TMAX] == 0.0   # no sole on the ground: no heading hold
    ff[0, L.F_LETGO] = prm[L.S_LETGO_TIME]
    balance_pre(0, 0.1, 1, True, ff, fi, pbi, prm, soles, UP, FWD, bf, af, si)
    assert abs(af[0, PL.A_TMAX] - cap) < 1e-9   # the whole cap as the blow lands
    assert abs(ff[0, L.F_LETGO] - (prm[L.S_LETGO_TIME] - 0.1)) < 1e-12
    fi[0, L.F_FALLING] = 1
    balance_pre(0, 0.1, 1, True, ff, fi, pbi, prm, soles, UP, FWD, bf, af, si)
    assert af[0, PL.A_TMAX] == prm[L.S_FALL_BRAKE] * cap
    balance_pre(0, 0.1, 1, False, ff, fi, pbi, prm, soles, UP, FWD, bf, af, si)
    assert af[0, PL.A_TMAX] == 0.0
