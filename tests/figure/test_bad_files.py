"""Bad files get clear errors naming the file and the fault, and leave nothing behind."""

from __future__ import annotations

import json
import os

import numpy as np
import pytest

from ae3d import figure


def _skinned(mk, gb):
    a = gb.node("A")
    pos, nrm, idx = mk.box((0, 0, 0), (1, 1, 1))
    mesh = gb.mesh("M", [dict(positions=pos, normals=nrm, indices=idx,
                              joints=np.zeros((24, 4), dtype=int),
                              weights=np.tile([1.0, 0, 0, 0], (24, 1)))])
    skin = gb.skin("S", [a], np.eye(4)[None])
    gb.node("M", mesh=mesh, skin=skin)
    return a


def test_missing_file(eng, tmp_path):
    with pytest.raises(FileNotFoundError, match="figure file not found"):
        figure.figure(eng, "x", str(tmp_path / "nope.glb"))
    assert figure.figures(eng) == []


@pytest.mark.parametrize("data", [b"hello, I am not a model\n", b"\x00\x01\x02garbage" * 10,
                                  json.dumps({"nodes": []}).encode(), b"glTF\x02\x00\x00\x00"])
def test_not_gltf(eng, tmp_path, data):
    p = tmp_path / "bad.glb"
    p.write_bytes(data)
    with pytest.raises(ValueError, match="not a (valid )?glTF") as err:
        figure.figure(eng, "x", str(p))
    assert str(p) in str(err.value)
    assert isinstance(err.value, figure.FigureFileError)
    assert str(p) not in figure.loaded_files()


def test_directory(eng, tmp_path):
    with pytest.raises(ValueError, match="directory"):
        figure.figure(eng, "x", str(tmp_path))


def test_no_skin(eng, tmp_path, make_assets):
    mk = make_assets
    gb = mk.GltfBuilder()
    pos, nrm, idx = mk.box((0, 0, 0), (1, 1, 1))
    gb.node("Rock", mesh=gb.mesh("Rock", [dict(positions=pos, normals=nrm, indices=idx)]))
    p = str(tmp_path / "rock.glb")
    gb.save(p)
    with pytest.raises(ValueError, match="has no skin"):
        figure.figure(eng, "x", p)


def test_channel_naming_a_missing_node(eng, tmp_path, make_assets):
    mk = make_assets
    gb = mk.GltfBuilder()
    _skinned(mk, gb)
    gb.animation("Broken", [(17, "rotation", np.array([0.0, 1.0]),
                             np.array([[0, 0, 0, 1.0], [0, 0, 0, 1.0]]), "LINEAR")])
    p = str(tmp_path / "broken.glb")
    gb.save(p)
    with pytest.raises(ValueError, match=r"animation 'Broken' channel 0 targets node 17, which "
                                         r"does not exist"):
        figure.figure(eng, "x", p)
    assert figure.loaded_files() == {} or p not in figure.loaded_files()


def test_gltf_json_with_external_buffer(eng, tmp_path, make_assets):
    """A .gltf (JSON) with its buffer in a .bin beside it loads as the .glb does."""
    mk = make_assets
    gb = mk.GltfBuilder()
    _skinned(mk, gb)
    gb.to_bytes()
    (tmp_path / "m.bin").write_bytes(bytes(gb.blob))
    doc = json.loads(gb.doc.to_json())
    doc["buffers"] = [{"byteLength": len(gb.blob), "uri": "m.bin"}]
    (tmp_path / "m.gltf").write_text(json.dumps(doc))
    f = figure.figure_of(eng, figure.figure(eng, "x", str(tmp_path / "m.gltf")))
    assert f.rig.names == ("A", "M")
    assert f.model.meshes[0].positions.shape == (24, 3)


def test_bad_calls(eng, asset):
    f = figure.figure_of(eng, figure.figure(eng, "b", asset("boxman.glb")))
    with pytest.raises(ValueError, match="no clip 'Dance'"):
        figure.play(f, "Dance")
    with pytest.raises(ValueError, match="speed"):
        figure.play(f, "Walk", float("nan"))
    with pytest.raises(TypeError):
        figure.play(3, "Walk")
    with pytest.raises(ValueError, match="wears no figure"):
        figure.figure_of(eng, eng.create())
    with pytest.raises(KeyError, match="no bone named 'Tail'"):
        f.rig.bone("Tail")
    with pytest.raises(ValueError):
        figure.place(f, (0, float("inf"), 0))


def test_names_found_in_assets(tmp_path, monkeypatch):
    monkeypatch.chdir(tmp_path)
    from ae3d.figure import _figure

    want = _figure.resolve_path(os.path.join(_figure.ASSETS_DIR, "zombie.glb"))
    assert _figure.resolve_path("zombie.glb") == want
    assert _figure.resolve_path("assets/zombie.glb") == want
    with pytest.raises(FileNotFoundError, match="looked in"):
        _figure.resolve_path("no_such.glb")
