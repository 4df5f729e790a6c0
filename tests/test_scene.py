"""Scene files: figures saved with their placement, clip and motion record, and loaded back
(spec/motion.md: "The scene file carries it as the motion record of the figure's group")."""

from __future__ import annotations

import json
import math

import pytest

from ae3d import engine, figure, motion, physics, scene


def test_scene_saves_and_loads_figures_and_their_motion(tmp_path):
    path = tmp_path / "street.json"
    with engine.Engine() as e:
        physics.ground(e)
        z = figure.figure(e, "Zombie", "zombie.glb")
        f = figure.figure_of(e, z)
        figure.place(f, (2.0, 0.0, -1.0), math.pi / 2)
        figure.play(f, "Walk", 1.0, True)
        body = motion.on_figure(e, z)
        motion.set_mode(body, motion.POWERED)
        motion.set_strength(body, 0.8)
        motion.set_protective(body, False)
        motion.set_get_up(body, 3.0)
        plain = figure.figure(e, "Bystander", "boxman.glb")
        e.run(frames=3)
        scene.save(e, str(path))
    data = json.loads(path.read_text())
    assert data["figures"][0]["motion"] == {"mode": "powered", "strength": 0.8,
                                            "protective": False, "get_up": 3}
    assert "motion" not in data["figures"][1]
    assert plain is not None

    with engine.Engine() as e:
        physics.ground(e)
        made = scene.load(e, str(path))
        assert len(made) == 2
        f = figure.figure_of(e, made[0])
        assert f.name == "Zombie" and f.clip == "Walk"
        assert f.rig.root[0, 3] == pytest.approx(2.0) and f.rig.root[2, 3] == pytest.approx(-1.0)
        assert math.atan2(f.rig.root[0, 2], f.rig.root[0, 0]) == pytest.approx(math.pi / 2)
        body = motion.motion_of(e, made[0])
        assert motion.record(body) == data["figures"][0]["motion"]
        assert motion.motion_of(e, made[1]) is None


def test_bad_scene_writes_nothing():
    with engine.Engine() as e:
        with pytest.raises(ValueError, match="not an ae3d scene"):
            scene.from_dict(e, {"figures": []})
        bad = {"ae3d_scene": 1, "figures": [{"name": "A", "file": "boxman.glb"},
                                             {"name": "B", "file": "boxman.glb",
                                              "position": [0, float("nan"), 0]}]}
        with pytest.raises(ValueError, match=r"figures\[1\].position"):
            scene.from_dict(e, bad)
        assert figure.figures(e) == []
