"""A frame of the box man: its colour where its bones project, the ground's elsewhere; the same
scene drawn twice is the same image; a destroyed figure leaves the renderer (spec #714)."""

from __future__ import annotations

import numpy as np
from render_helpers import H, W, chroma, framed_figure, front_camera, standing_figure, to_srgb

from ae3d import engine, render


def _classify(img, px, fig_c, ground_c):
    """True where a pixel's chromaticity is nearer the figure's colour than the ground's
    (lighting scales brightness, so chromaticity is what a colour keeps under it)."""
    x = np.clip(np.round(px[:, 0] - 0.5).astype(int), 0, W - 1)
    y = np.clip(np.round(px[:, 1] - 0.5).astype(int), 0, H - 1)
    c = chroma(img[y, x])
    return (np.linalg.norm(c - fig_c, axis=1) < np.linalg.norm(c - ground_c, axis=1)), img[y, x]


def test_box_man_colour_at_bones_ground_elsewhere(eng):
    fig = standing_figure(eng)
    s = render.scene(eng)
    # a green ground: the box man wears grey trousers, the default ground is grey
    s.ground_color = (0.20, 0.42, 0.15)
    s.ground_line_color = (0.08, 0.2, 0.06)
    ground = np.asarray(s.ground_color)
    front_camera(eng)
    eng.frame(1 / 60)
    img = render.still(eng, width=W, height=H)
    fig_c, ground_c = chroma(to_srgb(fig.colors)), chroma(to_srgb(ground))
    px = render.project(eng, fig.points, W, H)
    assert len(px) >= 8
    is_fig, rgb = _classify(img, px, fig_c, ground_c)
    assert is_fig.all(), f"not the figure's colour at {px[~is_fig]}: {rgb[~is_fig]}"
    # the ground: points on it well away from the figure, within the frame
    pts = np.array([(x, 0.0, z) for x in (-1.2, -0.7, 0.7, 1.2) for z in (-0.5, 0.6, 1.2)])
    gpx = render.project(eng, pts, W, H)
    is_fig, rgb = _classify(img, gpx, chroma(to_srgb(fig.color)), ground_c)
    assert not is_fig.any(), f"the figure's colour on bare ground at {gpx[is_fig]}"
    for p in gpx[:3]:
        assert render.pick(eng, p[0], p[1], W, H).target is render.GROUND
    # and it reads: lit faces brighter than the ground's shadowed side is dark
    assert img.std() > 10.0


def test_same_scene_twice_is_identical(eng):
    framed_figure(eng)
    a = render.still(eng, width=W, height=H)
    b = render.still(eng, width=W, height=H)
    assert np.array_equal(a, b)
    e2 = engine.Engine()
    try:
        framed_figure(e2)
        c = render.still(e2, width=W, height=H)
    finally:
        e2.close()
    assert np.array_equal(a, c)


def test_destroyed_figure_leaves_the_renderer(eng):
    fig = framed_figure(eng)
    r = render.renderer(eng, W, H)
    before = render.still(eng, width=W, height=H)
    assert r.gpu_meshes == 1
    engine.destroy(eng, fig.obj)
    eng.frame(1 / 60)  # the object goes at the frame's end
    after = render.still(eng, width=W, height=H)
    assert r.gpu_meshes == 0
    assert render.scene(eng).all_figures() == []
    px = render.project(eng, fig.chest, W, H)
    assert render.pick(eng, px[0], px[1], W, H).target is render.GROUND
    assert not np.array_equal(before, after)


def test_bad_input_is_refused(eng):
    import pytest

    with pytest.raises(ValueError, match="divisible by 16"):
        render.record(eng, "/tmp/never.mp4", 1.0, width=650, height=480)
    with pytest.raises(ValueError, match="distance"):
        render.camera_orbit(eng, distance=-1.0)
    with pytest.raises(ValueError, match="outside"):
        render.pick(eng, W + 5, 3, W, H)


def test_hidden_figure_is_not_drawn(eng):
    fig = framed_figure(eng)
    x, y = render.project(eng, fig.chest, W, H)
    assert render.pick(eng, x, y, W, H).target == fig.obj
    items = [f for f in render.scene(eng).all_figures() if f.obj == fig.obj]
    if fig.source != "procedural":
        from ae3d import figure

        figure.set_visible(figure.figure_of(eng, fig.obj), False)
    else:
        for it in items:
            it.visible = False
    assert render.pick(eng, x, y, W, H).target is not fig.obj
    assert render.pick(eng, x, y, W, H).kind != "figure"


def test_figure_with_a_nan_pose_is_not_drawn_the_others_are(eng):
    """The renderer checks a group's poses at once: a pose gone bad (a NaN) draws nothing,
    and the figures sharing its mesh are drawn as before."""
    from ae3d.render import _demo

    mesh = _demo.mesh()
    objs, poses = [], []
    for k in range(3):
        root = np.eye(4)
        root[0, 3] = (k - 1) * 1.2
        pose = _demo.pose(0.0, root).copy()
        obj = eng.create()
        render.add_figure(eng, obj, mesh, pose)
        objs.append(obj)
        poses.append(pose)
    render.camera_orbit(eng, target=(0.0, 0.9, 0.0), distance=5.0, yaw=0.0, pitch=0.2)
    eng.frame(1 / 60)
    s = render.scene(eng)
    r = render.renderer(eng, 320, 240)
    ids = {f.obj: f.pick_id for f in s.all_figures()}
    before = set(np.unique(r.id_image(s)).tolist())
    assert {ids[o] for o in objs} <= before
    poses[1][3, 0, 3] = np.nan
    after = set(np.unique(r.id_image(s)).tolist())
    assert ids[objs[1]] not in after
    assert {ids[objs[0]], ids[objs[2]]} <= after
