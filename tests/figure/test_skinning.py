"""Skinning: a vertex bound to one bone follows that bone's matrix exactly; the bind pose
reproduces the mesh (to 1 µm: the file holds float32); blended (normalised byte) weights blend."""

from __future__ import annotations

import numpy as np
import pytest

from ae3d import figure
from ae3d.figure import _kernels

ASSETS = ["boxman.glb", "mixamo_man.glb", "zombie.glb", "two_bone.glb"]


@pytest.mark.parametrize("name", ASSETS)
def test_bind_pose_reproduces_the_mesh(name, asset, eng):
    f = figure.figure_of(eng, figure.figure(eng, name, asset(name)))
    for mesh, (p, n) in zip(f.model.meshes, figure.skin(f), strict=True):
        w = f.rig.world[mesh.node]  # the mesh node's placement (the armature's, for Mixamo)
        want = mesh.positions @ w[:3, :3].T + w[:3, 3]
        # to the file's precision: nodes and inverse binds are float32 there
        assert np.abs(p - want).max() < 1e-6
        rot = w[:3, :3] / np.linalg.norm(w[:3, 0])
        assert np.abs(n - mesh.normals @ rot.T).max() < 1e-6


@pytest.mark.parametrize("name", ["boxman.glb", "mixamo_man.glb"])
def test_rigid_vertex_follows_its_bone_exactly(name, asset, eng):
    f = figure.figure_of(eng, figure.figure(eng, name, asset(name)))
    figure.play(f, "Run", 1.0, True)
    figure.place(f, (1.5, 0.2, -3.0), 2.0)
    eng.run(frames=7, frame_dt=0.031)
    world = f.rig.update_world().copy()
    skinned = figure.skin(f)
    mats = figure.skinning_matrices(f, 0)
    sk = f.model.skins[0]
    for j in range(sk.bones.size):  # the matrix is world[bone] @ inverse_bind
        assert np.array_equal(mats[j], world[sk.bones[j]] @ sk.inverse_binds[j]) or \
            np.abs(mats[j] - world[sk.bones[j]] @ sk.inverse_binds[j]).max() < 1e-12
    for mesh, (p, _) in zip(f.model.meshes, skinned, strict=True):
        assert np.all(mesh.weights[:, 0] == 1.0)  # the box man's boxes are rigid
        m = mats[mesh.joints[:, 0]]
        want = np.einsum("vij,vj->vi", m[:, :3, :3], mesh.positions) + m[:, :3, 3]
        assert np.abs(p - want).max() < 1e-12


def test_blended_weights(asset, eng):
    """two_bone's bar blends Base and Tip over 0.4..0.6 m in normalised unsigned bytes."""
    f = figure.figure_of(eng, figure.figure(eng, "bar", asset("two_bone.glb")))
    mesh = f.model.meshes[0]
    assert np.allclose(mesh.weights.sum(axis=1), 1.0, atol=1e-12)
    mid = np.abs(mesh.positions[:, 1] - 0.5) < 1e-6
    assert np.allclose(mesh.weights[mid, :2], 128 / 255 * np.array([0, 1]) + 127 / 255
                       * np.array([1, 0]), atol=1e-12) or \
        np.allclose(mesh.weights[mid, :2], [0.5, 0.5], atol=2 / 255)
    figure.play(f, "Bend", 1.0, False)
    figure.set_clip_time(f, 1.0)  # the tip a quarter turn about z
    p, _ = figure.skin(f)[0]
    mats = figure.skinning_matrices(f)
    v = np.flatnonzero(mid)[0]
    w = mesh.weights[v]
    x = np.append(mesh.positions[v], 1.0)
    want = (w[0] * mats[0] + w[1] * mats[1]) @ x
    assert np.abs(p[v] - want[:3]).max() < 1e-12
    top = np.argmax(mesh.positions[:, 1])
    assert p[top, 0] < -0.4  # bent over to -x


def test_skin_kernel_normals_under_scale():
    """Normals go through the inverse transpose: a box squashed in y keeps its side normals."""
    pos = np.array([[1.0, 1.0, 0.0]])
    nrm = np.array([[1.0, 1.0, 0.0]]) / np.sqrt(2.0)
    mats = np.eye(4)[None].copy()
    mats[0, 1, 1] = 0.5
    op, on = np.empty_like(pos), np.empty_like(nrm)
    _kernels.skin_vertices(pos, nrm, np.zeros((1, 4), dtype=np.int32),
                           np.array([[1.0, 0, 0, 0]]), mats, op, on)
    assert op[0] == pytest.approx([1.0, 0.5, 0.0])
    assert on[0] == pytest.approx(np.array([1.0, 2.0, 0.0]) / np.sqrt(5.0))
