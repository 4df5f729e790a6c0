"""Threads: the solver runs islands (bodies no joint or contact joins) in parallel, and the
results are the same bits on one thread, on every thread, and as the whole world solved in one
piece (the order before islands existed)."""

import hashlib

import numpy as np
import pytest

from ae3d import engine, human, physics


def _scene(threads: int, far_kinematic: bool = False):
    """Four powered ragdolls standing 2 m apart on their rest pose, two of them struck (one
    falls onto its neighbour), and a handful of boxes dropped on a pile beside them. Returns the
    digest of every body's row after 2 s, the islands of the first step and the fewest of any."""
    with engine.Engine() as e:
        physics.ground(e)
        physics.set_threads(e, threads)
        w = e.physics
        rs = []
        for k in range(4):
            r = physics.ragdoll(e, f"r{k}", (1.0 * k, 0.0, 0.0), 8.0, 8.0, 1.0)
            physics.ragdoll_set_powered(r, True)
            physics.ragdoll_set_balance(r, human.BALANCE_TORQUE)
            rs.append(r)
        for k in range(5):
            physics.add_box(e, (0.2, 0.2, 0.2), (6.0 + 0.05 * k, 0.3 + 0.5 * k, 0.0))
        if far_kinematic:
            # a kinematic body moving far from everything: the step then solves the whole world
            # as one island (see _kernels_islands); it touches nothing, so nothing else changes
            kin = physics.add_box(e, (0.1, 0.1, 0.1), (50.0, 5.0, 50.0), kind=physics.KINEMATIC)
        rest = physics.ragdoll_rest_targets(rs[0])
        first = None
        fewest = 1 << 30
        for i in range(120):
            for r in rs:
                physics.ragdoll_drive(r, rest)
            if i == 20:
                chest = physics.ragdoll_body(rs[1], human.BONE_SPINE_03)
                physics.apply_impulse(e, chest, (300.0, 0.0, 0.0), physics.position(e, chest))
                arm = physics.ragdoll_body(rs[3], human.BONE_UPPERARM_L)
                physics.apply_impulse(e, arm, (0.0, 0.0, 20.0), physics.position(e, arm))
            if far_kinematic:
                physics.move_kinematic(e, kin, (50.0 + 0.01 * i, 5.0, 50.0))
            e.fixed_step()
            if first is None:
                first = w.last_islands
            fewest = min(fewest, w.last_islands)
        n = w.n - (1 if far_kinematic else 0)  # the kinematic body is the last slot
        h = hashlib.sha256()
        h.update(np.ascontiguousarray(w.bf[:n]).tobytes())
        h.update(np.ascontiguousarray(w.jf[: w.nj]).tobytes())
        return h.hexdigest(), first, fewest


@pytest.fixture(scope="module")
def runs():
    top = physics.max_threads()
    return {"one": _scene(1), "all": _scene(top), "whole": _scene(top, far_kinematic=True),
            "top": top}


def test_islands_are_found(runs):
    _, first, fewest = runs["one"]
    print(f"islands: {first} at first, {fewest} at the fewest")
    # four standing figures and the five boxes, each its own island before they land
    assert first == 4 + 5
    # the struck figure fell onto its neighbour, and the boxes landed on each other
    assert fewest < first
    _, _, whole_fewest = runs["whole"]
    assert whole_fewest == 1


def test_same_bits_on_any_thread_count(runs):
    print(f"threads: 1 and {runs['top']}")
    assert runs["one"][0] == runs["all"][0]


def test_same_bits_as_the_world_solved_in_one_piece(runs):
    assert runs["whole"][0] == runs["all"][0]


def test_set_threads_bad_input():
    with engine.Engine() as e:
        top = physics.max_threads()
        for bad in (0, -1, top + 1):
            with pytest.raises(ValueError):
                physics.set_threads(e, bad)
        with pytest.raises((TypeError, ValueError)):
            physics.set_threads(e, 1.5)
        physics.set_threads(e, 1)
        assert physics.threads(e) == 1
