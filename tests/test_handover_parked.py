"""The hand-over pool's parked figures cost nothing (issue 16; spec/motion.md "A horde can't be
active ragdolls": "twelve parked figures cost under 2 µs a frame").

While every ragdoll of a world is parked, motion's phases pass by their kernels
(``motion._service.every_parked``), as the kernels themselves pass by a parked figure's row.
Held here:

* parked rows untouched: a pool of four parked figures run for a second, every table of the
  motion (ff, fi, pbf, pbi) and the world's rows of their bodies, joints and anchors the same
  bits before and after;
* the pass-by changes nothing: a run on two rigs (box man, Mixamo man) that strikes one zombie,
  shoves another (40 N·s, given back standing), lets every figure park, runs parked a while,
  then kills a third, run with the pass-by and without it: the horde's columns, the world's
  bodies, the motion's tables and every figure's rig the same bits. The struck scan's scratch
  (``F_STRUCK_BONE``, ``F_STRUCK_J``: written and read within one post step) is left out: the
  kernels clear it on every parked row each step they run, the pass-by leaves it as it was;
  so is ``F_OWNER``, the ragdoll's id, counted over the process (the second run's are higher).

Speed is bench/handover.py's (README's horde rows), not a test's.
"""

from __future__ import annotations

import hashlib

import numpy as np
import pytest

from ae3d import crowd, engine, figure, handover, physics
from ae3d.motion import _layout as ML
from ae3d.motion import _service
from ae3d.physics import _layout as PL

DT = 1.0 / 60.0
N = 16


def _scene(path, clip, size):
    e = engine.Engine()
    physics.ground(e)
    src = figure.figure_of(e, figure.figure(e, "bank", path))
    figure.set_visible(src, False)
    bank = crowd.posebank_bake_in_place(crowd.posebank_sample(src, clip, 30))
    bones = figure.humanoid_bones(src.rig)
    g = np.arange(N)
    pos = np.zeros((N, 3))
    pos[:, 0] = (g % 4) * 2.5 - 3.75
    pos[:, 2] = (g // 4) * 2.5 - 3.75
    yaw = np.linspace(-3.0, 3.0, N)
    phase = np.linspace(0.0, 1.0, N, endpoint=False)
    pool = handover.pool_new(e, path, clip, size)
    handover.set_horde(pool, pos, yaw, phase, N)
    return e, pool, bank, bones, pos, yaw, phase


def _chest(bank, bones, pos, yaw, phase, z):
    k = int((phase[z] % 1.0) * bank.frames) % bank.frames
    w = crowd.instance_root(pos[z], yaw[z]) @ bank.world[k]
    return 0.5 * (w[bones["Chest"], :3, 3] + w[bones["Neck"], :3, 3])


def _run(e, pool, bank, pos, yaw, phase, seconds):
    vel = np.zeros_like(pos)
    target = np.array([0.0, 0.0, 40.0])
    for _ in range(int(round(seconds / DT))):
        crowd.crowd_step_out(pos, vel, yaw, phase, handover.outs(pool), 0, N, DT, target, 0.3,
                             bank.duration)
        e.frame(DT)


def _motion_tables(e):
    s = _service.service(e)
    ff = s.ff[: s.n].copy()
    fi = s.fi[: s.n].copy()
    ff[:, ML.F_STRUCK_J] = 0.0      # the struck scan's scratch (see the module's docstring)
    fi[:, ML.F_STRUCK_BONE] = 0
    fi[:, ML.F_OWNER] = 0           # the ragdoll's id: counted over the process, not the run
    return ff, fi, s.pbf[: s.n].copy(), s.pbi[: s.n].copy()


@pytest.fixture(autouse=True)
def _pass_by_on():
    yield
    _service.SKIP_PARKED = True


def test_parked_rows_untouched():
    e, pool, bank, _, pos, yaw, phase = _scene("boxman.glb", "Idle", 4)
    try:
        _run(e, pool, bank, pos, yaw, phase, 0.1)
        w = e.physics
        assert w.powered == 0 and _service.every_parked(e)
        bodies = np.concatenate([np.asarray(b.ragdoll.bodies, np.int64) for b in pool.bodies])
        joints = np.concatenate([np.asarray(b.ragdoll.joints[1:], np.int64)
                                 for b in pool.bodies])
        anchors = np.nonzero(np.isin(w.ai[: w.na, PL.A_BODY], bodies))[0]
        before = (_motion_tables(e), w.bf[bodies].copy(), w.bi[bodies].copy(),
                  w.jf[joints].copy(), w.ji[joints].copy(), w.af[anchors].copy(),
                  w.ai[anchors].copy(), [f.rig.world.copy() for f in pool.figures])
        _run(e, pool, bank, pos, yaw, phase, 1.0)
        after = (_motion_tables(e), w.bf[bodies], w.bi[bodies], w.jf[joints], w.ji[joints],
                 w.af[anchors], w.ai[anchors], [f.rig.world for f in pool.figures])
        for a, b in zip(before[0], after[0], strict=True):
            assert np.array_equal(a, b)
        for a, b in zip(before[1:7], after[1:7], strict=True):
            assert np.array_equal(a, b)
        for a, b in zip(before[7], after[7], strict=True):
            assert np.array_equal(a, b)
    finally:
        e.close()


def _story(path, clip, skip):
    """Strike one, shove another (given back standing), everyone parked a while, then a kill:
    the digest of everything at the end, and how long every figure was parked (s)."""
    _service.SKIP_PARKED = skip
    e, pool, bank, bones, pos, yaw, phase = _scene(path, clip, 2)
    try:
        handover.set_settle(pool, 0.2)
        _run(e, pool, bank, pos, yaw, phase, 0.2)
        fwd = np.array([np.sin(yaw[5]), 0.0, np.cos(yaw[5])])
        assert handover.strike(pool, 5, _chest(bank, bones, pos, yaw, phase, 5),
                               -300.0 * fwd) >= 0
        fwd = np.array([np.sin(yaw[9]), 0.0, np.cos(yaw[9])])
        assert handover.strike(pool, 9, _chest(bank, bones, pos, yaw, phase, 9),
                               -40.0 * fwd) >= 0
        parked = 0.0
        for _ in range(int(round(12.0 / DT))):
            _run(e, pool, bank, pos, yaw, phase, DT)
            if e.physics.powered == 0:
                parked += DT
                if parked >= 0.5:
                    break
        _run(e, pool, bank, pos, yaw, phase, 0.3)
        assert handover.kill(pool, 12, _chest(bank, bones, pos, yaw, phase, 12),
                             np.array([0.0, 0.0, 200.0])) >= 0
        _run(e, pool, bank, pos, yaw, phase, 1.0)
        h = hashlib.sha256()
        w = e.physics
        for a in (pos, yaw, phase, handover.outs(pool), w.bf[: w.n], w.bi[: w.n], pool.state,
                  pool.zombie, *_motion_tables(e)):
            h.update(np.ascontiguousarray(a).tobytes())
        for f in pool.figures:
            h.update(f.rig.world.tobytes())
        return h.hexdigest(), parked
    finally:
        e.close()
        _service.SKIP_PARKED = True


@pytest.mark.parametrize("path, clip", [("boxman.glb", "Walk"), ("mixamo_man.glb", "Walk")])
def test_the_pass_by_changes_no_bit(path, clip):
    with_skip, parked = _story(path, clip, True)
    without, parked_too = _story(path, clip, False)
    print(f"{path}: every figure parked for {parked:.2f} s mid-run; digests "
          f"{with_skip[:12]} / {without[:12]}")
    assert parked >= 0.5 and parked_too >= 0.5   # the pass-by had steps to pass by
    assert with_skip == without
