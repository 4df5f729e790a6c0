"""Figures in the engine: playing clips, shared files, destroy (#714) and close."""

from __future__ import annotations

import math

import numpy as np
import pytest

from ae3d import engine, figure


def test_play_stop_time(asset, eng):
    z = figure.figure(eng, "b", asset("boxman.glb"))
    f = figure.figure_of(z)  # one argument: the current engine
    assert f is figure.figure_of(eng, z)
    assert f.name == "b" and f.obj == z
    assert figure.clip(f) is None and not figure.playing(f)
    figure.play(f, "Walk", 1.0, True)
    assert figure.clip_duration(f) == pytest.approx(1.0)
    eng.run(frames=30)  # 0.5 s
    assert figure.clip_time(f) == pytest.approx(0.5)
    hips = f.rig.bone("Hips")
    want = figure.pose_world(f, figure.sample(f, "Walk", 0.5))
    assert np.abs(f.rig.world - want).max() < 1e-12
    eng.run(frames=45)  # 1.25 s: looped
    assert figure.clip_time(f) == pytest.approx(0.25)
    figure.stop(f)
    held = f.rig.translation.copy()
    eng.run(frames=10)
    assert figure.clip_time(f) == pytest.approx(0.25) and np.array_equal(f.rig.translation, held)
    figure.resume(f)
    eng.run(frames=6)
    assert figure.clip_time(f) == pytest.approx(0.35)
    figure.reset_pose(f)  # Bow moves only the chest (and hips): the rest stay where Walk left
    figure.play(f, "Bow", 2.0, False)  # twice as fast, once
    eng.run(frames=90)
    assert not figure.playing(f) and figure.clip_time(f) == pytest.approx(2.0)
    figure.set_clip_time(f, 1.0)
    assert f.rig.world[f.rig.bone("Chest"), 2, 1] == pytest.approx(math.sin(math.radians(15)))
    assert f.rig.world[hips, 1, 3] == pytest.approx(0.98)


def test_negative_speed_and_place(asset, eng):
    f = figure.figure_of(eng, figure.figure(eng, "b", asset("boxman.glb")))
    figure.play(f, "Walk", -1.0, True)
    eng.run(frames=15)
    assert figure.clip_time(f) == pytest.approx(0.75)
    figure.place(f, (3.0, 0.0, 1.0), math.pi / 2)  # a quarter turn: +z faces +x
    figure.stop(f)
    figure.reset_pose(f)
    toes = f.rig.world[f.rig.bone("ToesL"), :3, 3]
    foot = f.rig.world[f.rig.bone("FootL"), :3, 3]
    assert toes - foot == pytest.approx([0.14, -0.05, 0.0], abs=1e-6)
    assert f.rig.world[f.rig.bone("Hips"), :3, 3] == pytest.approx([3.0, 0.98, 1.0])
    assert f.rig.world[f.rig.bone("ThighL"), :3, 3] == pytest.approx([3.0, 0.93, 1.0 - 0.09])


def test_a_file_is_parsed_once_and_freed_when_unused(asset, eng):
    path = asset("zombie.glb")
    a = figure.figure(eng, "a", path)
    b = figure.figure(eng, "b", path)
    fa, fb = figure.figure_of(eng, a), figure.figure_of(eng, b)
    assert fa.model is fb.model and fa.rig is not fb.rig
    assert figure.loaded_files()[path] == 2
    figure.play(fa, "Walk")
    eng.run(frames=3)
    assert not np.array_equal(fa.rig.rotation, fb.rig.rotation)  # each its own pose
    engine.destroy(eng, a)
    assert eng.component(a, figure.Figure) is fa  # still there until the frame's end
    eng.frame(1 / 60)
    assert not eng.exists(a)
    assert fa.released and figure.figures(eng) == [fb]
    with pytest.raises(ValueError):
        figure.figure_of(eng, a)
    with pytest.raises(ValueError, match="released"):
        figure.play(fa, "Walk")
    assert figure.loaded_files()[path] == 1
    engine.destroy(eng, b)
    eng.frame(1 / 60)
    assert path not in figure.loaded_files()
    c = figure.figure(eng, "c", path)  # parsed anew
    assert figure.figure_of(eng, c).model is not fa.model


def test_release_listeners(asset, eng):
    gone, freed = [], []
    figure.on_release(eng, gone.append)
    figure.on_model_freed(freed.append)
    try:
        z = figure.figure(eng, "b", asset("two_bone.glb"))
        f = figure.figure_of(eng, z)
        engine.destroy(eng, z)
        eng.frame(1 / 60)
        assert gone == [f] and freed == [f.model]
    finally:
        from ae3d.figure import _figure

        _figure._model_freed_listeners.remove(freed.append)  # noqa: SLF001


def test_close_frees_every_figure(asset):
    e = engine.Engine()
    path = asset("boxman.glb")
    before = figure.loaded_files().get(path, 0)
    fs = [figure.figure_of(e, figure.figure(e, str(i), path)) for i in range(3)]
    assert figure.loaded_files()[path] == before + 3
    e.close()
    assert all(f.released for f in fs)
    assert figure.loaded_files().get(path, 0) == before


def test_engines_apart(asset):
    with engine.Engine() as e1, engine.Engine() as e2:
        a = figure.figure(e1, "a", asset("boxman.glb"))
        b = figure.figure(e2, "b", asset("boxman.glb"))
        assert figure.figure_of(e1, a).engine is e1
        assert figure.figure_of(e2, b).engine is e2
        figure.play(figure.figure_of(e1, a), "Walk")
        e1.run(frames=10)
        e2.run(frames=10)
        assert figure.clip_time(figure.figure_of(e1, a)) == pytest.approx(10 / 60)
        assert figure.clip(figure.figure_of(e2, b)) is None


def test_determinism(asset):
    def run():
        with engine.Engine() as e:
            f = figure.figure_of(e, figure.figure(e, "m", asset("mixamo_man.glb")))
            figure.play(f, "Run", 1.3, True)
            e.run(frames=77, frame_dt=1 / 47)
            return f.rig.world.tobytes() + figure.skin(f)[0][0].tobytes()

    assert run() == run()


def test_set_world_pose_round_trip(asset, eng):
    """Posing bones by their world placement gives back the same world (under the 0.01 root)."""
    f = figure.figure_of(eng, figure.figure(eng, "m", asset("mixamo_man.glb")))
    figure.play(f, "Run", 1.0, True)
    figure.place(f, (0.5, 0.0, 2.0), 1.1)
    figure.set_clip_time(f, 0.33)
    want = f.rig.world.copy()
    pos = [f.rig.world_position(i) for i in range(f.rig.count)]
    rot = [f.rig.world_rotation(i) for i in range(f.rig.count)]
    figure.reset_pose(f)
    for i in range(f.rig.count):
        f.rig.set_world_pose(i, pos[i], rot[i])
    assert np.abs(f.rig.world - want).max() < 1e-12
    assert np.abs(f.rig.update_world() - want).max() < 1e-12
    assert f.rig.is_joint[f.rig.bone("mixamorig:Hips")]
    assert not f.rig.is_joint[f.rig.bone("Armature")] and not f.rig.is_joint[f.rig.bone("Body")]


def test_pose_bank_surface(asset):
    """A model sampled without a figure: world matrices and skinning matrices of a pose."""
    m = figure.load(asset("boxman.glb"))
    w = figure.pose_world(m, figure.sample(m, "Idle", 1.2))
    mats = figure.skinning_from_world(m, w)
    sk = m.skins[0]
    assert mats.shape == (sk.bones.size, 4, 4)
    assert np.abs(mats[3] - w[sk.bones[3]] @ sk.inverse_binds[3]).max() < 1e-12
