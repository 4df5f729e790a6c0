"""motion/_modes.py: the follow verb on hand-made tables, and the hand-overs (issue 11)."""

from __future__ import annotations

import numpy as np
import pytest

from ae3d import engine, motion, physics
from ae3d.motion import _layout as L
from ae3d.motion import _settings
from ae3d.motion._modes import from_animation, modes_pre
from ae3d.physics import _layout as PL


def _tables():
    ff = np.zeros((1, L.FF_COUNT))
    fi = np.zeros((1, L.FI_COUNT), dtype=np.int64)
    pbf = np.zeros((1, L.MAXB, L.PBF_COUNT))
    pbi = np.full((1, L.MAXB, L.PBI_COUNT), -1, dtype=np.int64)
    ff[0, L.F_ANIM_ROT + 3] = 1.0
    pbi[0, 0, L.PB_FOLLOW] = 0
    af = np.zeros((1, PL.AF_COUNT))
    jf = np.zeros((1, PL.JF_COUNT))
    scratch = np.zeros((L.MAXB, 3)), np.zeros((L.MAXB, 4))
    return ff, fi, pbf, pbi, af, jf, scratch, _settings.pack(_settings.DEFAULT)


def test_from_animation_is_the_table():
    assert [m for m in range(5) if from_animation(m)] == list(L.FROM_ANIMATION)


def test_follow_anchor_led_with_its_speed_and_a_jump_dragged():
    ff, fi, pbf, pbi, af, jf, (sp, sq), prm = _tables()
    parent = np.zeros(L.MAXB, dtype=np.int64)
    dt = 0.01
    assert not modes_pre(0, dt, 1, True, ff, fi, pbf, pbi, prm, parent, jf, af, sp, sq)
    assert fi[0, L.F_HAS_PREV] == 1
    ff[0, L.F_ANIM_POS] = 0.02                       # 2 m/s
    assert modes_pre(0, dt, 1, True, ff, fi, pbf, pbi, prm, parent, jf, af, sp, sq)
    assert af[0, PL.A_TPOS] == 0.02
    assert abs(af[0, PL.A_TV] - 2.0) < 1e-12
    ff[0, L.F_ANIM_POS] = 1.0                        # 98 m/s: a jump, not a speed
    modes_pre(0, dt, 1, True, ff, fi, pbf, pbi, prm, parent, jf, af, sp, sq)
    assert af[0, PL.A_TPOS] == 1.0 and af[0, PL.A_TV] == 0.0
    assert not modes_pre(0, dt, 1, False, ff, fi, pbf, pbi, prm, parent, jf, af, sp, sq)
    assert fi[0, L.F_HAS_PREV] == 0


def test_hand_overs_make_and_drop_the_follow_anchors():
    with engine.Engine() as e:
        physics.ground(e)
        r = physics.ragdoll(e, "a", (0.0, 0.0, 0.0))
        b = motion.active_ragdoll(r)
        s = e.services["motion"]
        assert np.all(s.pbi[b.slot, :r.bones, L.PB_FOLLOW] >= 0)
        motion.set_mode(b, motion.POWERED)
        assert np.all(s.pbi[b.slot, :, L.PB_FOLLOW] == -1)
        assert motion.mode(b) == motion.POWERED
        with pytest.raises(ValueError, match="got to, not set"):
            motion.set_mode(b, motion.GETTING_UP)
        assert motion.mode(b) == motion.POWERED
