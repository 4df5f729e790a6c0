"""motion/_service.py and _step.py: rows, the free list, stale handles, a figure whose ragdoll
is destroyed under it (issue 11)."""

from __future__ import annotations

import pytest

from ae3d import engine, motion, physics
from ae3d.motion import _layout as L


def test_rows_reused_and_stale_handles_told():
    with engine.Engine() as e:
        physics.ground(e)
        a = motion.active_ragdoll(physics.ragdoll(e, "a", (0.0, 0.0, 0.0)))
        b = motion.active_ragdoll(physics.ragdoll(e, "b", (2.0, 0.0, 0.0)))
        assert (a.slot, b.slot) == (0, 1)
        a.release(e)
        assert a.released and not b.released
        with pytest.raises(ValueError, match="body was destroyed"):
            motion.mode(a)
        c = motion.active_ragdoll(physics.ragdoll(e, "c", (4.0, 0.0, 0.0)))
        assert c.slot == 0 and c.generation == a.generation + 1
        assert a.released and not c.released
        assert repr(c) == "Motion(slot=0, animated)"
    assert b.released and c.released


def test_a_figure_whose_ragdoll_is_destroyed_is_dropped():
    with engine.Engine() as e:
        physics.ground(e)
        r = physics.ragdoll(e, "a", (0.0, 0.0, 0.0))
        b = motion.active_ragdoll(r)
        motion.attach(e, b)
        keep = motion.active_ragdoll(physics.ragdoll(e, "k", (2.0, 0.0, 0.0)))
        motion.attach(e, keep)
        physics.ragdoll_destroy(r)
        e.run(frames=3)
        s = e.services["motion"]
        assert s.fi[b.slot, L.F_ALIVE] == 0 and s.fi[keep.slot, L.F_ALIVE] == 1
        assert motion.mode(keep) == motion.ANIMATED
