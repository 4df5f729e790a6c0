"""What the GPU draws of a SkinnedMesh: welded vertices and coarser levels of detail.

A box man's glTF has 24 vertices a box (each face its own four, for flat normals): 504 for a
figure that has 168 distinct corners, and on a software GL every vertex is skinned on one
thread, in every pass. A mesh is *flat* when each triangle's vertex normals equal its face's
normal; such a mesh is drawn from its distinct corners (position, skin and colour) and its
fragments take their normal from the screen derivatives of the world position
(``FLAT_NORMALS``), the same face normal. Any other mesh keeps its vertices, merged only where
two are identical in every attribute. The glTF files stay as they are (the physics and motion
packages read them).

Levels of detail (the horde far away): the mesh's connected parts (triangles sharing
vertices), the smallest dropped first; level 1 keeps the largest parts holding about 57% of the
triangles, level 2 about a third, level 3 a fifth. A mesh in one piece has no coarser level.
"""

from __future__ import annotations

from dataclasses import dataclass

import numpy as np

from ._mesh import SkinnedMesh

_LEVELS = (1.0, 0.57, 0.34, 0.2)  # share of the triangles each level keeps (at least)


@dataclass
class Prepared:
    """A mesh ready to upload: ``vertices`` (n, 17) float32 (``SkinnedMesh.vertex_data``'s
    layout), ``levels`` a list of (m,) uint32 index arrays, finest first, and ``flat`` (face
    normals from derivatives)."""

    vertices: np.ndarray
    levels: list[np.ndarray]
    flat: bool


def _is_flat(mesh: SkinnedMesh, tol: float = 1e-3) -> bool:
    tri = mesh.indices.reshape(-1, 3)
    p = mesh.positions[tri].astype(np.float64)
    fn = np.cross(p[:, 1] - p[:, 0], p[:, 2] - p[:, 0])
    ln = np.linalg.norm(fn, axis=1, keepdims=True)
    ok = ln[:, 0] > 1e-12
    fn = fn / np.maximum(ln, 1e-12)
    vn = mesh.normals[tri].astype(np.float64)
    return bool(np.all(np.abs(vn[ok] - fn[ok, None, :]) < tol))


def _weld(data: np.ndarray, indices: np.ndarray) -> tuple[np.ndarray, np.ndarray]:
    """Merge vertices whose rows of ``data`` are identical; returns (rows, new indices)."""
    keys = np.ascontiguousarray(data).view(np.dtype((np.void, data.dtype.itemsize * data.shape[1])))
    _, first, inverse = np.unique(keys.ravel(), return_index=True, return_inverse=True)
    order = np.argsort(first)            # keep the original order of first appearance
    rank = np.empty_like(order)
    rank[order] = np.arange(len(order))
    return data[first[order]], rank[inverse.ravel()][indices].astype(np.uint32)


def _provoking(verts: np.ndarray, idx: np.ndarray) -> tuple[np.ndarray, np.ndarray]:
    """``_provoking_in_order`` over the triangles in their order, then reversed, then in a few
    seeded shuffles, stopping at the first that needs no copied corner (the greedy choice
    depends on the order; a box whose faces' diagonals close a cycle needs none in some
    order), else the fewest copies."""
    n = len(idx) // 3
    orders = [np.arange(n), np.arange(n)[::-1]]
    rng = np.random.default_rng(0)
    orders += [rng.permutation(n) for _ in range(8)]
    best = None
    for order in orders:
        v, i = _provoking_in_order(verts, idx, order)
        if best is None or len(v) < len(best[0]):
            best = (v, i)
        if len(v) == len(verts):
            break
    return best


def _provoking_in_order(verts: np.ndarray, idx: np.ndarray,
                        order: np.ndarray) -> tuple[np.ndarray, np.ndarray]:
    """The welded flat mesh with each triangle's last vertex (GL's provoking vertex, whose
    ``flat`` outputs the whole triangle shows) carrying that triangle's face normal (columns
    3..5): each triangle's corners are rotated (its winding kept) to put last a corner whose
    normal is its face's, or one with none yet (preferring one the face's other triangles
    share, such as a box face's diagonal); where no corner is free, a copy of one is added.
    The low preset's ``FLAT_VERTEX`` lights a rigid flat mesh per vertex from these normals
    instead of per pixel from screen derivatives. Corners that provoke no triangle keep a
    zero normal (never read)."""
    tri = idx.reshape(-1, 3).astype(np.int64)
    p = verts[:, :3].astype(np.float64)
    fn = np.cross(p[tri[:, 1]] - p[tri[:, 0]], p[tri[:, 2]] - p[tri[:, 0]])
    ln = np.linalg.norm(fn, axis=1)
    fn = fn / np.maximum(ln, 1e-12)[:, None]
    normal = np.zeros((len(verts), 3))
    taken = np.zeros(len(verts), dtype=bool)
    adj: dict[int, list[int]] = {}
    for t, a in enumerate(tri):
        for v in a:
            adj.setdefault(int(v), []).append(t)
    extra: list[tuple[int, np.ndarray]] = []
    out = tri.copy()
    rank = np.empty(len(tri), dtype=np.int64)
    rank[order] = np.arange(len(tri))
    for t in order:
        a = tri[t]
        f = fn[t]
        if ln[t] <= 1e-12:  # no area, nothing drawn: any corner
            continue
        pick = next((k for k in range(3) if taken[a[k]] and normal[a[k]] @ f > 1.0 - 1e-6), -1)
        if pick < 0:
            free = [k for k in range(3) if not taken[a[k]]]
            if free:
                def shared(k: int, a=a, t=t, f=f) -> int:
                    return sum(1 for u in adj[int(a[k])]
                               if rank[u] > rank[t] and fn[u] @ f > 1.0 - 1e-6)
                pick = max(free, key=shared)
                taken[a[pick]] = True
                normal[a[pick]] = f
            else:
                pick = 2
                a = a.copy()
                a[2] = len(verts) + len(extra)
                extra.append((int(tri[t, 2]), f))
        out[t] = (a[(pick + 1) % 3], a[(pick + 2) % 3], a[pick])
    verts = verts.copy()
    verts[taken, 3:6] = normal[taken]
    if extra:
        dup = verts[[v for v, _ in extra]].copy()
        dup[:, 3:6] = [f for _, f in extra]
        verts = np.concatenate([verts, dup])
    return verts.astype(np.float32), out.ravel().astype(np.uint32)


def _components(tri: np.ndarray, n: int) -> np.ndarray:
    """(triangles,) component label of each triangle (triangles sharing a vertex join)."""
    parent = np.arange(n)

    def find(a: int) -> int:
        while parent[a] != a:
            parent[a] = parent[parent[a]]
            a = parent[a]
        return a

    for a, b, c in tri:
        ra, rb, rc = find(a), find(b), find(c)
        parent[rb] = ra
        parent[find(rc)] = ra
    roots = np.array([find(v) for v in tri[:, 0]])
    return np.unique(roots, return_inverse=True)[1].ravel()


def _levels(vertices: np.ndarray, indices: np.ndarray) -> list[np.ndarray]:
    tri = indices.reshape(-1, 3)
    label = _components(tri, len(vertices))
    parts = int(label.max()) + 1
    out = [indices]
    if parts < 3:
        return out
    pos = vertices[:, :3]
    size = np.zeros(parts)
    for k in range(parts):
        v = pos[tri[label == k].ravel()]
        size[k] = float(np.prod(np.maximum(v.max(axis=0) - v.min(axis=0), 1e-3)))  # volume
    order = np.argsort(-size)  # largest first
    counts = np.bincount(label, minlength=parts)[order]
    for share in _LEVELS[1:]:
        keep_n = int(np.searchsorted(np.cumsum(counts), share * len(tri)) + 1)
        keep = np.isin(label, order[:keep_n])
        if keep.sum() < len(out[-1]) // 3:
            out.append(tri[keep].ravel().astype(np.uint32))
    return out


def prepared(mesh: SkinnedMesh) -> Prepared:
    """The mesh welded, its levels of detail (cached on the mesh)."""
    hit = getattr(mesh, "_render_prepared", None)
    if hit is not None:
        return hit
    data = mesh.vertex_data()
    flat = _is_flat(mesh)
    if flat:
        # the normal (columns 3..5) is not read: corners of different faces merge
        key = data.copy()
        key[:, 3:6] = 0.0
        verts, idx = _weld(key, mesh.indices)
        verts, idx = _provoking(verts, idx)
    else:
        verts, idx = _weld(data, mesh.indices)
    levels = _levels(verts, idx)
    # the coarsest level's vertices first, then the next one's: a level's indices span only
    # the vertices it uses (a draw's vertex work follows the index range it spans)
    coarsest = np.zeros(len(verts), dtype=np.int64)
    for k, lv in enumerate(levels):
        coarsest[lv] = k
    order = np.argsort(-coarsest, kind="stable")
    rank = np.empty_like(order)
    rank[order] = np.arange(len(order))
    verts = verts[order]
    levels = [rank[lv].astype(np.uint32) for lv in levels]
    p = Prepared(verts, levels, flat)
    mesh._render_prepared = p  # type: ignore[attr-defined]
    return p
