"""Clips sampled at their keys give the keys, and between keys what LINEAR, STEP, CUBICSPLINE
and slerp give computed by hand, to 1e-9."""

from __future__ import annotations

import math

import numpy as np
import pytest

from ae3d import figure

TOL = 1e-9


def f32(x) -> np.ndarray:
    """What the file holds (float32), as float64."""
    return np.asarray(x, dtype=np.float32).astype(np.float64)


def unit(q) -> np.ndarray:
    q = np.asarray(q, dtype=np.float64)
    return q / np.linalg.norm(q)


def slerp_by_hand(a, b, s):
    a, b = unit(a), unit(b)
    if a @ b < 0.0:
        b = -b
    th = math.acos(min(1.0, a @ b))
    return (math.sin((1 - s) * th) * a + math.sin(s * th) * b) / math.sin(th)


def hermite_by_hand(v0, b0, v1, a1, td, s):
    return ((2 * s**3 - 3 * s**2 + 1) * v0 + (s**3 - 2 * s**2 + s) * td * b0
            + (-2 * s**3 + 3 * s**2) * v1 + (s**3 - s**2) * td * a1)


@pytest.fixture(scope="module")
def clip_file(tmp_path_factory, make_assets):
    mk = make_assets
    gb = mk.GltfBuilder()
    a = gb.node("A", translation=(0, 1, 0))
    b = gb.node("B", translation=(0, 0.5, 0), parent=a)
    c = gb.node("C", translation=(0, 0.5, 0), rotation=mk.q_axis((0, 0, 1), 0.3), parent=b)
    pos, nrm, idx = mk.box((-0.1, 0, -0.1), (0.1, 1.5, 0.1))
    mesh = gb.mesh("M", [dict(positions=pos, normals=nrm, indices=idx,
                              joints=np.zeros((24, 4), dtype=int),
                              weights=np.tile([1.0, 0, 0, 0], (24, 1)))])
    skin = gb.skin("S", [a, b, c], np.tile(np.eye(4), (3, 1, 1)))
    gb.node("M", mesh=mesh, skin=skin)
    times = np.array([0.0, 0.4, 1.0, 1.7])
    tvals = np.array([[0, 0, 0], [1, 2, 3], [-1, 0.5, 2], [0.25, -3, 1]], dtype=float)
    # the third key is on the far hemisphere: the slerp must take the short way
    rvals = np.array([[0, 0, 0, 1], mk.q_axis((1, 0, 0), 1.0), -mk.q_axis((0, 1, 1), 2.0),
                      mk.q_axis((1, 1, 0), 0.5)])
    svals = np.array([[1, 1, 1], [2, 1, 1], [1, 3, 1], [0.5, 0.5, 0.5]], dtype=float)
    rng = np.random.default_rng(7)
    cub_t = rng.normal(size=(4, 3, 3))
    cub_r = rng.normal(size=(4, 3, 4))
    cub_r[:, 1] = [unit(q) for q in cub_r[:, 1]]
    gb.animation("Linear", [(a, "translation", times, tvals, "LINEAR"),
                            (a, "rotation", times, rvals, "LINEAR"),
                            (a, "scale", times, svals, "LINEAR")])
    gb.animation("Step", [(a, "translation", times, tvals, "STEP"),
                          (b, "rotation", times, rvals, "STEP")])
    gb.animation("Cubic", [(b, "translation", times, cub_t, "CUBICSPLINE"),
                           (b, "rotation", times, cub_r, "CUBICSPLINE")])
    gb.animation("OnlyC", [(c, "rotation", times[:2], rvals[:2], "LINEAR")])
    path = str(tmp_path_factory.mktemp("clips") / "clips.glb")
    gb.save(path)
    return path, dict(times=f32(times), t=f32(tvals), r=f32(rvals), s=f32(svals),
                      ct=f32(cub_t), cr=f32(cub_r))


def _between(times):
    out = []
    for k in range(len(times) - 1):
        for s in (0.1, 0.37, 0.5, 0.93):
            out.append((k, s, times[k] + s * (times[k + 1] - times[k])))
    return out


def test_keys_are_the_keys(clip_file):
    path, d = clip_file
    m = figure.load(path)
    a = m.rig.index["A"]
    b = m.rig.index["B"]
    for k, t in enumerate(d["times"]):
        p = figure.sample(m, "Linear", t)
        assert np.abs(p.translation[a] - d["t"][k]).max() < TOL
        q = p.rotation[a]
        assert min(np.abs(q - unit(d["r"][k])).max(), np.abs(q + unit(d["r"][k])).max()) < TOL
        assert np.abs(p.scale[a] - d["s"][k]).max() < TOL
        p = figure.sample(m, "Step", t)
        assert np.abs(p.translation[a] - d["t"][k]).max() < TOL
        p = figure.sample(m, "Cubic", t)
        assert np.abs(p.translation[b] - d["ct"][k, 1]).max() < TOL
        assert np.abs(p.rotation[b] - unit(d["cr"][k, 1])).max() < TOL


def test_linear_and_slerp_between_keys(clip_file):
    path, d = clip_file
    m = figure.load(path)
    a = m.rig.index["A"]
    for k, s, t in _between(d["times"]):
        s = (t - d["times"][k]) / (d["times"][k + 1] - d["times"][k])
        p = figure.sample(m, "Linear", t)
        assert np.abs(p.translation[a] - ((1 - s) * d["t"][k] + s * d["t"][k + 1])).max() < TOL
        assert np.abs(p.scale[a] - ((1 - s) * d["s"][k] + s * d["s"][k + 1])).max() < TOL
        want = slerp_by_hand(d["r"][k], d["r"][k + 1], s)
        assert min(np.abs(p.rotation[a] - want).max(),
                   np.abs(p.rotation[a] + want).max()) < TOL


def test_slerp_takes_the_short_way(clip_file):
    path, d = clip_file
    m = figure.load(path)
    a = m.rig.index["A"]
    t1, t2 = d["times"][1], d["times"][2]
    q1 = figure.sample(m, "Linear", t1).rotation[a]
    prev = q1
    for t in np.linspace(t1, t2, 50)[1:]:
        q = figure.sample(m, "Linear", t).rotation[a]
        assert abs(q @ prev) > math.cos(0.5 * 0.1)  # no step past 0.1 rad
        prev = q


def test_step_between_keys(clip_file):
    path, d = clip_file
    m = figure.load(path)
    a, b = m.rig.index["A"], m.rig.index["B"]
    for k, _, t in _between(d["times"]):
        p = figure.sample(m, "Step", t)
        assert np.abs(p.translation[a] - d["t"][k]).max() < TOL
        assert np.abs(p.rotation[b] - unit(d["r"][k])).max() < TOL


def test_cubicspline_between_keys(clip_file):
    path, d = clip_file
    m = figure.load(path)
    b = m.rig.index["B"]
    tm = d["times"]
    for k, _, t in _between(tm):
        td = tm[k + 1] - tm[k]
        s = (t - tm[k]) / td
        p = figure.sample(m, "Cubic", t)
        want_t = hermite_by_hand(d["ct"][k, 1], d["ct"][k, 2], d["ct"][k + 1, 1],
                                 d["ct"][k + 1, 0], td, s)
        assert np.abs(p.translation[b] - want_t).max() < TOL
        want_r = unit(hermite_by_hand(d["cr"][k, 1], d["cr"][k, 2], d["cr"][k + 1, 1],
                                      d["cr"][k + 1, 0], td, s))
        assert np.abs(p.rotation[b] - want_r).max() < TOL


def test_outside_the_keys_clamps(clip_file):
    path, d = clip_file
    m = figure.load(path)
    a = m.rig.index["A"]
    assert np.abs(figure.sample(m, "Linear", -1.0).translation[a] - d["t"][0]).max() < TOL
    assert np.abs(figure.sample(m, "Linear", 9.0).translation[a] - d["t"][-1]).max() < TOL


def test_a_clip_leaves_other_bones_alone(clip_file):
    path, d = clip_file
    m = figure.load(path)
    a, b, c = (m.rig.index[n] for n in "ABC")
    base = figure.sample(m, "Cubic", 0.8)  # B moved, A at rest
    p = figure.sample(m, "OnlyC", 0.2, base=base)
    assert np.array_equal(p.translation[b], base.translation[b])
    assert np.array_equal(p.rotation[b], base.rotation[b])
    assert np.array_equal(p.translation[a], m.rig.rest_translation[a])
    assert not np.allclose(p.rotation[c], m.rig.rest_rotation[c])


def test_playing_a_partial_clip_keeps_the_rest(clip_file, eng):
    path, _ = clip_file
    f = figure.figure_of(eng, figure.figure(eng, "f", path))
    b = f.rig.bone("B")
    figure.play(f, "Cubic", 1.0, False)
    eng.run(frames=30)
    held = f.rig.rotation[b].copy()
    figure.play(f, "OnlyC", 1.0, True)
    eng.run(frames=10)
    assert np.array_equal(f.rig.rotation[b], held)
