"""tests/test_impact_shows.ae in pytest (#581): a blow shows on the frame it lands.

A box man playing its Idle, ANIMATED, is struck 60 N·s at the chest, which makes it POWERED. The
drawing keeps the offset the rig's pose had from the bodies and fades it over 0.25 s, taken along
what lies between them (#665):

| measured | held to |
|---|---|
| the drawn hips' way against the pelvis body's, worst in 0.3 s | 1 cm |
| how much of the body's way the drawing has gone, 0.2 s in | 90 % or more |
| a twin POWERED all along: its drawn hips' way against its body's | 1 mm |
"""

from __future__ import annotations

import numpy as np
import pytest

from ae3d import engine, figure, human, motion, physics

DT = 1.0 / 60.0


def _hips(f):
    return f.rig.world_position(f.rig.bone("Hips"))


@pytest.fixture(scope="module")
def struck():
    e = engine.Engine()
    physics.ground(e)
    out = {}
    figs = {}
    for name, x in (("struck", 0.0), ("twin", 3.0)):
        z = figure.figure(e, name, "boxman.glb")
        f = figure.figure_of(e, z)
        figure.place(f, (x, 0.0, 0.0), 0.0)
        figure.play(f, "Idle", 1.0, True)
        b = motion.on_figure(e, z)
        figs[name] = (f, b)
    motion.set_mode(figs["twin"][1], motion.POWERED)
    e.run(seconds=1.0)
    ways = {k: ([], []) for k in figs}
    start = {}
    for k, (f, b) in figs.items():
        start[k] = (_hips(f), physics.ragdoll_pose(b.ragdoll)[0][human.BONE_PELVIS].copy())
        chest = physics.ragdoll_pose(b.ragdoll)[0][human.BONE_SPINE_03]
        motion.hit(b, human.BONE_SPINE_03, chest, (0.0, 0.0, 60.0))
    out["mode_after_hit"] = motion.mode(figs["struck"][1])
    for _ in range(int(round(0.3 / DT))):
        e.frame(DT)
        for k, (f, b) in figs.items():
            d0, b0 = start[k]
            ways[k][0].append(_hips(f) - d0)
            ways[k][1].append(physics.ragdoll_pose(b.ragdoll)[0][human.BONE_PELVIS] - b0)
    out["ways"] = {k: (np.array(v[0]), np.array(v[1])) for k, v in ways.items()}
    yield out
    e.close()


def test_struck_goes_powered(struck):
    assert struck["mode_after_hit"] == motion.POWERED


def test_drawn_hips_go_with_the_body(struck):
    drawn, body = struck["ways"]["struck"]
    worst = float(np.max(np.linalg.norm(drawn - body, axis=1)))
    k = int(round(0.2 / DT)) - 1
    along = float(np.dot(drawn[k], body[k]) / np.dot(body[k], body[k]))
    # where the blow had taken the body furthest: the drawing had gone with it there too (the
    # pelvis gives 2 cm within 0.1 s and is back within 2 mm by 0.2 s, so the spec's 0.2 s
    # ratio below is one of millimetres)
    p = int(np.argmax(np.linalg.norm(body, axis=1)))
    along_peak = float(np.dot(drawn[p], body[p]) / np.dot(body[p], body[p]))
    print(f"impact: drawn hips' way against the body's, worst {worst * 100:.2f} cm; at the "
          f"body's furthest, {(p + 1) * DT:.2f} s, {np.linalg.norm(body[p]) * 100:.1f} cm, the "
          f"drawing had gone {along_peak * 100:.1f} % of it; 0.2 s in {along * 100:.1f} % of "
          f"the body's {np.linalg.norm(body[k]) * 100:.2f} cm")
    assert np.linalg.norm(body[p]) > 0.01  # the blow moved the body
    assert along_peak >= 0.9
    assert worst < 0.01
    assert along >= 0.9


def test_twin_powered_all_along(struck):
    drawn, body = struck["ways"]["twin"]
    worst = float(np.max(np.linalg.norm(drawn - body, axis=1)))
    print(f"twin: drawn hips' way against the body's, worst {worst * 1000:.3f} mm")
    assert worst < 0.001
