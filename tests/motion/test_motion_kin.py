"""motion/_kin.py: the bodies' local pose and back, and the animation's bodies (issue 11)."""

from __future__ import annotations

import numpy as np

from ae3d import engine, motion, physics
from ae3d.motion._kin import body_pose_local, local_to_world, qmul, relative_from_world
from ae3d.motion._modes import anim_world
from ae3d.motion._service import PARENT


def test_quaternion_product_is_hamiltons():
    i = (1.0, 0.0, 0.0, 0.0)
    j = (0.0, 1.0, 0.0, 0.0)
    assert qmul(*i, *j) == (0.0, 0.0, 1.0, 0.0)       # i j = k
    assert qmul(*j, *i) == (0.0, 0.0, -1.0, 0.0)      # j i = -k


def test_local_pose_and_back_is_where_the_bodies_are():
    with engine.Engine() as e:
        physics.ground(e)
        r = physics.ragdoll(e, "a", (0.0, 0.0, 0.0))
        w = e.physics
        nb = r.bones
        q = np.zeros((nb, 4))
        t = np.zeros((nb, 3))
        body_pose_local(w.bf, w.ji, nb, PARENT, r.bodies, q, t)
        p_back = np.zeros((nb, 3))
        q_back = np.zeros((nb, 4))
        local_to_world(nb, PARENT, r.joints, w.jf, q, t, p_back, q_back)
        bp, bq = physics.ragdoll_pose(r)
        assert np.max(np.linalg.norm(p_back - bp, axis=1)) < 1e-6
        assert np.all(np.abs(np.sum(q_back * bq, axis=1)) > 1.0 - 1e-12)
        rel = np.zeros((nb, 4))
        relative_from_world(nb, PARENT, bq, rel)
        assert np.allclose(np.abs(np.sum(rel[1:] * q[1:], axis=1)), 1.0)


def test_the_animation_at_rest_is_the_standing_pose():
    with engine.Engine() as e:
        physics.ground(e)
        r = physics.ragdoll(e, "a", (0.0, 0.0, 0.0))
        b = motion.active_ragdoll(r)
        ap, aq = anim_world(b)
        bp, bq = physics.ragdoll_pose(r)
        assert np.max(np.linalg.norm(ap - bp, axis=1)) < 1e-3
