"""motion/_hits.py: the velocities as a step starts, the marks for the scan, and hit's rule
(issue 11)."""

from __future__ import annotations

import numpy as np

from ae3d import engine, human, motion, physics
from ae3d.motion import _layout as L
from ae3d.motion._hits import hits_post, hits_pre
from ae3d.physics import _layout as PL


def test_velocities_as_the_step_starts():
    bf = np.zeros((2, PL.BF_COUNT))
    bi = np.zeros((2, PL.BI_COUNT), dtype=np.int64)
    bf[0, PL.B_V:PL.B_V + 3] = (1.0, 2.0, 3.0)
    bi[1, PL.B_KIND] = PL.KIND_KINEMATIC
    bi[1, PL.B_KIN_MOVE] = 1
    bf[1, PL.B_KIN_POS:PL.B_KIN_POS + 3] = (0.5, 0.0, 0.0)
    v0 = np.zeros((2, 3))
    hits_pre(bf, bi, 2, 0.5, v0)
    assert list(v0[0]) == [1.0, 2.0, 3.0]
    assert list(v0[1]) == [1.0, 0.0, 0.0]      # the speed that reaches its target


def test_only_animated_figures_marked():
    ff = np.zeros((2, L.FF_COUNT))
    fi = np.zeros((2, L.FI_COUNT), dtype=np.int64)
    pbi = np.full((2, L.MAXB, L.PBI_COUNT), -1, dtype=np.int64)
    fi[:, L.F_NBONES] = 2
    fi[1, L.F_MODE] = L.POWERED
    pbi[0, :2, L.PB_BODY] = (0, 1)
    pbi[1, :2, L.PB_BODY] = (2, 3)
    owner = np.full(4, -1, dtype=np.int64)
    for f in range(2):
        hits_post(f, ff, fi, pbi, owner)
    assert list(owner) == [0, 0, -1, -1]
    assert list(fi[:, L.F_STRUCK_BONE]) == [-1, -1]


def test_hit_takes_its_share_and_its_neighbours_half():
    with engine.Engine() as e:
        physics.ground(e)
        r = physics.ragdoll(e, "a", (0.0, 0.0, 0.0))
        b = motion.active_ragdoll(r)
        motion.set_mode(b, motion.POWERED)
        arm = physics.ragdoll_pose(r)[0][human.BONE_UPPERARM_R]
        motion.hit(b, human.BONE_UPPERARM_R, arm, (0.0, 0.0, 8.0))
        mass = e.physics.bf[int(r.bodies[human.BONE_UPPERARM_R]), PL.B_MASS]
        share = min(0.95, 8.0 / mass / 1.6)
        assert abs(motion.strength(b, human.BONE_UPPERARM_R) - (1.0 - share)) < 1e-12
        assert abs(motion.strength(b, human.BONE_LOWERARM_R) - (1.0 - 0.5 * share)) < 1e-12
        motion.hit(b, human.BONE_SPINE_03, arm, (0.0, 0.0, 10.0), True, 1.0)
        assert abs(motion.strength(b, human.BONE_SPINE_03) - 0.05) < 1e-12


def test_a_hit_on_an_animated_figure_powers_it():
    with engine.Engine() as e:
        physics.ground(e)
        r = physics.ragdoll(e, "a", (0.0, 0.0, 0.0))
        b = motion.active_ragdoll(r)
        assert motion.mode(b) == motion.ANIMATED
        motion.hit(b, human.BONE_SPINE_03, (0.0, 1.3, 0.0), (0.0, 0.0, 1.0))
        assert motion.mode(b) == motion.POWERED
