"""motion/_layout.py and _settings.py: the tables' columns and the parameter row (issue 11)."""

from __future__ import annotations

import dataclasses

import numpy as np
import pytest

from ae3d import engine, motion
from ae3d.motion import _layout as L
from ae3d.motion import _settings


def _columns(prefixes, count, widths):
    """name -> (first, width) of the columns with one of ``prefixes``, below ``count``."""
    out = {}
    for name, v in vars(L).items():
        if isinstance(v, int) and name.startswith(prefixes) and not name.endswith("_COUNT"):
            out[name] = (v, widths.get(name, 1))
    return out


WIDE = {"F_ANIM_POS": 3, "F_ANIM_ROT": 4, "PB_TARGET": 4, "PB_PREV_P": 3, "PB_PREV_Q": 4,
        "PB_DRAWN_Q": 4, "PB_DRAWN_T": 3, "PB_FROM_Q": 4, "PB_FROM_T": 3, "RB_Q": 4, "RB_T": 3,
        "RB_FROM_Q": 4, "RB_FROM_T": 3, "F_FALL_DIR": 3, "PB_HELD_Q": 4,
        # the ways up (_get_up.py)
        "F_GU_PREV": 3, "F_GU_MOVE": 4, "F_GU_KEY_P": 9, "F_GU_BASE_P": 3, "F_GU_BASE_Q": 4,
        "PB_GU_KEY_Q": 12, "PB_GU_BASE_Q": 4, "PB_GU_P": 3, "PB_GU_Q": 4}
FLOAT_F = ("F_STRENGTH", "F_RECOVERY", "F_ANIM_POS", "F_ANIM_ROT", "F_SPRING_HZ", "F_LEAN",
           "F_MAX_LEAN", "F_LETGO", "F_BLEND_T", "F_RIG_BLEND_T", "F_GET_UP", "F_STRUCK_J",
           "F_FALL_DIR", "F_HOLD", "F_STILL_T",
           "F_GU_T", "F_GU_STILL_T", "F_GU_PREV", "F_GU_MOVE", "F_GU_KEY_P", "F_GU_BASE_P",
           "F_GU_BASE_Q")
# stepping (issue 14)
WIDE.update({"F_CP": 3, "F_STEP_SPOT": 3, "F_PLANT": 6})
FLOAT_F += ("F_CP", "F_STEP_T", "F_STEP_SPOT", "F_PLANT", "F_STEP_BEND", "F_STEP_DUR")
# the hand to the wound's (_wound.py)
WIDE.update({"F_WOUND_P": 3, "F_WOUND_N": 3, "F_WOUND_V0": 3, "PB_REACH_D": 3})
# writhing's (_writhe.py)
WIDE.update({"PB_REST_Q": 4})
# the hand to the wound's (_wound.py)
FLOAT_F += ("F_WOUND_T", "F_WOUND_SHARE", "F_WOUND_P", "F_WOUND_N", "F_WOUND_V0")
# writhing's (_writhe.py)
FLOAT_F += ("F_WRITHE_S", "F_WRITHE_T")
# the stepping's travelling clip
WIDE.update({"F_STEP_ANIM_PREV": 3})
FLOAT_F += ("F_STEP_ANIM_PREV",)
# the get-up clip way's (_get_up.py, issue 13)
FLOAT_F += ("F_GU_CLIP_D",)
# the parts' (_parts.py): PB_PART_S, one float a bone (width 1, no list to join)
PARTS_PBF = ("PB_PART_S",)
# a part's own mode (_parts.py): the pbf block's tail, a pbi column, each part's mode in fi
WIDE.update({"PB_PART_OFF": 3, "F_PART_MODE": 6})
PARTS_PBF += ("PB_PART_OFF", "PB_PART_T")
PBI_COLUMNS = ("PB_JOINT", "PB_BODY", "PB_FOLLOW", "PB_PART_MODE")
# writhing toward the place struck last (_writhe.py, session 6)
WIDE.update({"F_STRUCK_LAST_P": 3})
FLOAT_F += ("F_STRUCK_LAST_P",)
# the far arm's share of the reach, each arm's, taken as the fall begins (_fall.py, session 9)
WIDE.update({"F_FALL_FAR": 2})
FLOAT_F += ("F_FALL_FAR",)
# the pelvis tipped forward over the hips stepping back (_stepping.py, issue 14, session 10)
FLOAT_F += ("F_STEP_HIP",)
# falling again, each arm given (its hand was down; _fall.py, issue 12, session 11)
WIDE.update({"F_ARM_GIVEN": 2})
# a body striking a figure on a keyed way: its mass and closing speed (_hits.py, session 15)
FLOAT_F += ("F_STRUCK_BY", "F_STRUCK_V")
# the follow anchors' spring as made (_modes.py, session 15)
FLOAT_F += ("F_FOLLOW_HZ",)


def _tile(cols, count):
    """Every slot of a table covered exactly once by its columns."""
    used = np.zeros(count, dtype=int)
    for first, width in cols.values():
        used[first:first + width] += 1
    return used


@pytest.mark.parametrize("table", ["ff", "fi", "pbf", "pbi", "rbf", "prm"])
def test_columns_tile_their_table(table):
    if table == "ff":
        cols = {k: (getattr(L, k), WIDE.get(k, 1)) for k in FLOAT_F}
        count = L.FF_COUNT
    elif table == "fi":
        cols = {k: v for k, v in _columns(("F_",), L.FI_COUNT, WIDE).items() if k not in FLOAT_F}
        count = L.FI_COUNT
    elif table == "pbf":
        cols = {k: v for k, v in _columns(("PB_",), 0, WIDE).items()
                if k not in PBI_COLUMNS}
        count = L.PBF_COUNT
    elif table == "pbi":
        cols = {k: (getattr(L, k), 1) for k in PBI_COLUMNS}
        count = L.PBI_COUNT
    elif table == "rbf":
        cols = _columns(("RB_",), 0, WIDE)
        count = L.RBF_COUNT
    else:
        cols = _columns(("S_",), 0, WIDE)
        count = L.PRM_COUNT
    assert list(_tile(cols, count)) == [1] * count


def test_modes_written_once():
    assert L.MODE_NAMES[motion.ANIMATED] == "animated"
    assert L.MODE_NAMES[motion.POWERED] == "powered"
    assert L.MODE_NAMES[motion.LIMP] == "limp"
    assert len(set(L.MODE_NAMES)) == len(L.MODE_NAMES) == 5
    assert set(L.FROM_ANIMATION) | {motion.POWERED, motion.LIMP} == set(range(5))


def test_settings_pack_every_column():
    row = _settings.pack(_settings.DEFAULT)
    assert row.shape == (L.PRM_COUNT,) and np.all(np.isfinite(row))
    assert row[L.S_FALL_LEAN] == motion.FALL_LEAN == 0.35
    assert row[L.S_BLEND_TIME] == 0.25


def test_settings_read_and_swept():
    with engine.Engine() as e:
        s = motion.settings(e)
        assert s == motion.Settings()
        with pytest.raises(dataclasses.FrozenInstanceError):
            s.balance.fall_lean = 1.0  # type: ignore[misc]
        tuned = dataclasses.replace(s, balance=dataclasses.replace(s.balance, fall_lean=0.5))
        motion.set_settings(e, tuned)
        assert motion.settings(e).balance.fall_lean == 0.5
        assert e.services["motion"].prm[L.S_FALL_LEAN] == 0.5


def test_bad_settings_named_and_nothing_written():
    with engine.Engine() as e:
        motion.settings(e)
        before = e.services["motion"].prm.copy()
        bad = dataclasses.replace(motion.Settings(),
                                  hits=dataclasses.replace(motion.HitsSettings(), hit_speed=0.0))
        with pytest.raises(ValueError, match="settings.hits.hit_speed"):
            motion.set_settings(e, bad)
        nan = dataclasses.replace(motion.Settings(), modes=motion.ModesSettings(blend_time=np.nan))
        with pytest.raises(ValueError, match="settings.modes.blend_time"):
            motion.set_settings(e, nan)
        with pytest.raises(TypeError, match="settings"):
            motion.set_settings(e, {"balance": 1})
        after = e.services["motion"].prm
        assert np.array_equal(before, after)
        assert np.array_equal(after, _settings.pack(_settings.DEFAULT))


def test_parts_column_at_the_end_and_whole_by_default():
    # the parts' block is the last of pbf, and a new figure's every bone keeps all its muscle
    assert max(getattr(L, k) + WIDE.get(k, 1) - 1 for k in PARTS_PBF) == L.PBF_COUNT - 1
    from ae3d import physics
    with engine.Engine() as e:
        r = physics.ragdoll(e, "a", (0.0, 0.0, 0.0), 8.0, 8.0, 1.0)
        b = motion.active_ragdoll(r)
        assert np.all(e.services["motion"].pbf[b.slot, :, L.PB_PART_S] == 1.0)
        assert all(motion.part_strength(b, p) == 1.0 for p in range(6))
