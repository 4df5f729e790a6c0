"""The horde's step (``crowd.crowd_step_out``): walking toward a target at the clip's speed, the
phase by the clip's speed, separation, and the out instances passed by.

Measured: 400 instances walk 10 s toward a point; none is nearer another than 0.45 m at the end
(the spacing is 0.7 m); each walks at the clip's speed (within 1e-9) while far from the target;
out instances are not moved or advanced to the bit; the same run twice, the same bits.
"""

from __future__ import annotations

import numpy as np
import pytest

from ae3d import crowd

DT = 1.0 / 60.0
SPEED, DURATION = 1.2, 1.0


def _horde(n=400, seed=3):
    rng = np.random.default_rng(seed)
    side = int(np.ceil(np.sqrt(n)))
    g = np.arange(n)
    pos = np.zeros((n, 3))
    pos[:, 0] = (g % side) * 1.0 + rng.uniform(-0.2, 0.2, n)
    pos[:, 2] = (g // side) * 1.0 + rng.uniform(-0.2, 0.2, n)
    yaw = rng.uniform(-np.pi, np.pi, n)
    phase = rng.uniform(0.0, 1.0, n)
    return pos, np.zeros((n, 3)), yaw, phase, np.zeros(n, np.uint8)


def _run(seconds, outs_at=()):
    pos, vel, yaw, phase, outs = _horde()
    for i in outs_at:
        outs[i] = 1
        pos[i] = (crowd.PARKED, 0.0, crowd.PARKED)
    target = np.array([10.0, 0.0, -30.0])
    for _ in range(int(round(seconds / DT))):
        crowd.crowd_step_out(pos, vel, yaw, phase, outs, 0, len(pos), DT, target, SPEED,
                             DURATION)
    return pos, vel, yaw, phase


def test_walks_toward_the_target_at_the_clips_speed_and_apart():
    pos0, _, _, _, _ = _horde()
    pos, vel, yaw, phase = _run(10.0)
    target = np.array([10.0, 0.0, -30.0])
    d0 = np.linalg.norm((pos0 - target)[:, [0, 2]], axis=1)
    d1 = np.linalg.norm((pos - target)[:, [0, 2]], axis=1)
    print(f"mean distance to the target: {d0.mean():.1f} m -> {d1.mean():.1f} m")
    assert d1.mean() < d0.mean() - 8.0
    # headings point at the target for the far ones
    far = d1 > 3.0
    want = np.arctan2(target[0] - pos[:, 0], target[2] - pos[:, 2])
    off = np.abs((yaw - want + np.pi) % (2 * np.pi) - np.pi)
    assert np.median(off[far]) < 0.2
    # separation: nobody stacked
    dx = pos[:, None, [0, 2]] - pos[None, :, [0, 2]]
    dd = np.linalg.norm(dx, axis=2) + np.eye(len(pos)) * 1e9
    print(f"nearest pair after 10 s: {dd.min():.3f} m")
    assert dd.min() > 0.45
    # the phase advances by the clip's speed: 10 s of a 1 s clip is ten loops, back where it was
    _, _, _, ph0, _ = _horde()
    assert np.abs(((phase - ph0 + 0.5) % 1.0) - 0.5).max() < 1e-9


def test_an_isolated_instance_walks_at_the_clips_speed():
    pos = np.array([[0.0, 0.0, 0.0]])
    vel = np.zeros((1, 3))
    yaw = np.array([0.0])
    phase = np.array([0.25])
    outs = np.zeros(1, np.uint8)
    crowd.crowd_step_out(pos, vel, yaw, phase, outs, 0, 1, 0.5, (0.0, 0.0, 100.0), SPEED,
                         DURATION, rate=0.5)
    assert pos[0, 2] == pytest.approx(SPEED * 0.5 * 0.5, abs=1e-12)
    assert phase[0] == pytest.approx(0.25 + 0.5 * 0.5 / DURATION, abs=1e-12)


def test_out_instances_are_passed_by():
    out = [5, 17, 200]
    pos, vel, yaw, phase = _run(3.0, outs_at=out)
    p0, _, y0, ph0, _ = _horde()
    for i in out:
        assert np.array_equal(pos[i], [crowd.PARKED, 0.0, crowd.PARKED])
        assert yaw[i] == y0[i] and phase[i] == ph0[i]
    # the others moved
    moved = np.linalg.norm(pos - p0, axis=1)
    assert (np.delete(moved, out) > 0.5).all()


def test_first_and_count_step_only_their_range():
    pos, vel, yaw, phase, outs = _horde(50)
    before = pos.copy()
    crowd.crowd_step_out(pos, vel, yaw, phase, outs, 10, 20, DT, (0, 0, 0), SPEED, DURATION)
    assert np.array_equal(pos[:10], before[:10]) and np.array_equal(pos[30:], before[30:])
    assert not np.array_equal(pos[10:30], before[10:30])


def test_same_bits_twice():
    a = _run(4.0, outs_at=[3])
    b = _run(4.0, outs_at=[3])
    for x, y in zip(a, b, strict=True):
        assert np.array_equal(x, y)


def test_bad_input_changes_nothing():
    pos, vel, yaw, phase, outs = _horde(10)
    keep = [a.copy() for a in (pos, vel, yaw, phase)]
    args = [pos, vel, yaw, phase, outs, 0, 10, DT, (0, 0, 0), SPEED, DURATION]

    def call(**kw):
        a = list(args)
        names = ["pos", "vel", "yaw", "phase", "outs", "first", "count", "delta", "target",
                 "speed", "duration"]
        for k, v in kw.items():
            a[names.index(k)] = v
        crowd.crowd_step_out(*a)

    with pytest.raises(ValueError, match="count"):
        call(count=11)
    with pytest.raises(TypeError, match="first"):
        call(first=1.5)
    with pytest.raises(ValueError, match="delta"):
        call(delta=float("nan"))
    with pytest.raises(ValueError, match="duration"):
        call(duration=0.0)
    with pytest.raises(ValueError, match="target"):
        call(target=(0.0, float("nan"), 0.0))
    with pytest.raises(TypeError, match="yaw"):
        call(yaw=yaw.astype(np.float32))
    with pytest.raises(ValueError, match="outs"):
        call(outs=np.zeros(3, np.uint8))
    bad = pos.copy()
    bad[4, 0] = np.nan
    with pytest.raises(ValueError, match="finite"):
        call(pos=bad)
    for a, b in zip((pos, vel, yaw, phase), keep, strict=True):
        assert np.array_equal(a, b)
