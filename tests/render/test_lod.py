"""What the GPU draws of a mesh (``render._lod``): a flat box man welded to its corners, its
levels of detail coarser and coarser; a smooth mesh keeps its normals and one level."""

from __future__ import annotations

import numpy as np

from ae3d.render import SkinnedMesh, _demo, _lod


def test_box_man_is_welded_to_its_corners():
    m = _demo.mesh()
    p = _lod.prepared(m)
    assert p.flat
    assert len(m.positions) == 14 * 24 and len(p.vertices) == 14 * 8
    # the same triangles, their corners turned (the winding kept) so that the last one (GL's
    # provoking vertex) carries the face's normal (the low preset's FLAT_VERTEX)
    tri_before = m.positions[m.indices.reshape(-1, 3)]
    tri_after = p.vertices[p.levels[0].reshape(-1, 3)][:, :, :3]
    turned = [np.roll(tri_before, -k, axis=1) for k in range(3)]
    assert all(any(np.array_equal(tb[i], tri_after[i]) for tb in turned)
               for i in range(len(tri_after)))
    face_normal = m.normals[m.indices.reshape(-1, 3)[:, 0]]
    last = p.vertices[p.levels[0].reshape(-1, 3)[:, 2], 3:6]
    assert np.abs(last - face_normal).max() < 1e-5
    counts = [len(lv) // 3 for lv in p.levels]
    assert counts[0] == 14 * 12 and all(a > b for a, b in zip(counts[:-1], counts[1:], strict=True))
    assert len(p.levels) == 4
    assert _lod.prepared(m) is p  # cached on the mesh


def test_smooth_mesh_keeps_its_normals_and_one_level():
    # an octahedron with smooth (vertex) normals: not flat, one piece
    v = np.array([(1, 0, 0), (-1, 0, 0), (0, 1, 0), (0, -1, 0), (0, 0, 1), (0, 0, -1)], float)
    idx = np.array([0, 2, 4, 2, 1, 4, 1, 3, 4, 3, 0, 4, 2, 0, 5, 1, 2, 5, 3, 1, 5, 0, 3, 5])
    m = SkinnedMesh(v, v, np.zeros((6, 4)), np.tile([1.0, 0, 0, 0], (6, 1)), idx,
                    np.eye(4)[None], [0])
    p = _lod.prepared(m)
    assert not p.flat
    assert len(p.vertices) == 6 and len(p.levels) == 1
    assert np.array_equal(p.vertices[:, 3:6], m.normals)
