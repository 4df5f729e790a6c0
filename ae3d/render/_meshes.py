"""Unit meshes of the primitive shapes, as flat float32 vertex arrays and uint32 indices.

Each vertex is ``position (3), normal (3), cap (1)``. The shape shader scales the unit mesh by the
body's dimensions: a box by its half extents, a sphere by its radius, a cylinder by (radius, half
height), and a capsule by its radius with ``cap`` (+1 upper half, -1 lower half, 0 none) shifting
the hemispheres apart by its half segment, so one mesh serves every capsule and the normals stay
right under the non-uniform scale.
"""

from __future__ import annotations

import math

import numpy as np


def _pack(pos, nrm, cap, idx):
    v = np.concatenate([np.asarray(pos, np.float32), np.asarray(nrm, np.float32),
                        np.asarray(cap, np.float32).reshape(-1, 1)], axis=1)
    return np.ascontiguousarray(v, dtype=np.float32), np.asarray(idx, dtype=np.uint32).ravel()


def box():
    """Cube with half extents 1 (24 vertices, flat normals)."""
    pos, nrm, idx = [], [], []
    for axis in range(3):
        for sign in (1.0, -1.0):
            n = np.zeros(3)
            n[axis] = sign
            u = np.zeros(3)
            u[(axis + 1) % 3] = 1.0
            v = np.cross(n, u)
            base = len(pos)
            for a, b in ((-1, -1), (1, -1), (1, 1), (-1, 1)):
                pos.append(n + a * u + b * v)
                nrm.append(n)
            idx += [base, base + 1, base + 2, base, base + 2, base + 3]
    return _pack(pos, nrm, np.zeros(len(pos)), idx)


def _rows_to_tris(rows: int, cols: int, start: int = 0):
    idx = []
    for r in range(rows - 1):
        for c in range(cols):
            a = start + r * (cols + 1) + c
            b = a + cols + 1
            idx += [a, b, a + 1, a + 1, b, b + 1]
    return idx


def sphere(stacks: int = 12, slices: int = 24):
    """Unit sphere (radius 1)."""
    pos: list = []
    for i in range(stacks + 1):
        th = math.pi * i / stacks
        for j in range(slices + 1):
            ph = 2 * math.pi * j / slices
            pos.append((math.sin(th) * math.sin(ph), math.cos(th), math.sin(th) * math.cos(ph)))
    p = np.array(pos)
    return _pack(p, p, np.zeros(len(p)), _rows_to_tris(stacks + 1, slices))


def capsule(half_stacks: int = 6, slices: int = 24):
    """Unit-radius capsule with a zero-length segment; ``cap`` marks the halves (see module)."""
    pos: list = []
    cap: list = []
    rings = [(math.pi * 0.5 * i / half_stacks, 1.0) for i in range(half_stacks + 1)]
    rings += [(math.pi * 0.5 * (1.0 + i / half_stacks), -1.0) for i in range(half_stacks + 1)]
    for th, c in rings:
        for j in range(slices + 1):
            ph = 2 * math.pi * j / slices
            pos.append((math.sin(th) * math.sin(ph), math.cos(th), math.sin(th) * math.cos(ph)))
            cap.append(c)
    p = np.array(pos)
    return _pack(p, p, cap, _rows_to_tris(len(rings), slices))


def cylinder(slices: int = 24):
    """Cylinder of radius 1 and half height 1 along y, with capped ends."""
    pos: list = []
    nrm: list = []
    idx: list = []
    for j in range(slices + 1):
        ph = 2 * math.pi * j / slices
        x, z = math.sin(ph), math.cos(ph)
        pos += [(x, 1, z), (x, -1, z)]
        nrm += [(x, 0, z), (x, 0, z)]
    for j in range(slices):
        a = 2 * j
        idx += [a, a + 1, a + 2, a + 2, a + 1, a + 3]
    for y in (1.0, -1.0):
        centre = len(pos)
        pos.append((0, y, 0))
        nrm.append((0, y, 0))
        for j in range(slices + 1):
            ph = 2 * math.pi * j / slices
            pos.append((math.sin(ph), y, math.cos(ph)))
            nrm.append((0, y, 0))
        for j in range(slices):
            a, b = centre + 1 + j, centre + 2 + j
            idx += [centre, a, b] if y > 0 else [centre, b, a]
    return _pack(pos, nrm, np.zeros(len(pos)), idx)


SHAPES = {"sphere": sphere, "capsule": capsule, "box": box, "cylinder": cylinder}
