"""World queries: the first body a ray hits, and the bodies a shape overlaps.

Brute force over the live, unparked bodies (O(n) per query, no allocation): queries are rare
(picking, a shot, a foot probe) next to the step. A ray that starts inside a shape does not hit
that shape. Each shape is intersected in its own frame: sphere and capsule/cylinder sides by the
quadratic, capsule ends as spheres, cylinder caps and box slabs as planes, the ground plane from
its front side only.
"""

import math

from numba import njit

from ._kernels_contact import collide
from ._layout import (
    B_DIMS,
    B_GROUP,
    B_KIND,
    B_PARKED,
    B_POS,
    B_QUAT,
    B_SHAPE,
    KIND_FREE,
    SHAPE_BOX,
    SHAPE_CAPSULE,
    SHAPE_CYLINDER,
    SHAPE_PLANE,
    SHAPE_SPHERE,
)
from ._math import qinvrot, qrot

_INF = math.inf


@njit(cache=True, _nrt=False, inline="always")
def _ray_sphere(o, d, cx, cy, cz, r):
    """Smallest t >= 0 where o + t d (|d| = 1) enters the sphere; inf if none or inside."""
    mx = o[0] - cx
    my = o[1] - cy
    mz = o[2] - cz
    c = mx * mx + my * my + mz * mz - r * r
    if c <= 0.0:
        return _INF
    b = mx * d[0] + my * d[1] + mz * d[2]
    if b > 0.0:
        return _INF
    disc = b * b - c
    if disc < 0.0:
        return _INF
    return -b - math.sqrt(disc)


@njit(cache=True, _nrt=False, inline="always")
def _ray_side(o, d, r, hl):
    """Entry t into the infinite y-axis cylinder of radius r, kept only within |y| <= hl."""
    a = d[0] * d[0] + d[2] * d[2]
    if a < 1e-18:
        return _INF
    b = o[0] * d[0] + o[2] * d[2]
    c = o[0] * o[0] + o[2] * o[2] - r * r
    disc = b * b - a * c
    if disc < 0.0:
        return _INF
    t = (-b - math.sqrt(disc)) / a
    if t < 0.0:
        return _INF
    y = o[1] + t * d[1]
    if abs(y) > hl:
        return _INF
    return t


@njit(cache=True, _nrt=False)
def _ray_local(shape, dims, o, d):
    """(t, local normal) of a ray in the shape's frame; t = inf for a miss."""
    if shape == SHAPE_SPHERE:
        t = _ray_sphere(o, d, 0.0, 0.0, 0.0, dims[0])
        if t == _INF:
            return _INF, (0.0, 0.0, 0.0)
        p = (o[0] + t * d[0], o[1] + t * d[1], o[2] + t * d[2])
        inv = 1.0 / dims[0]
        return t, (p[0] * inv, p[1] * inv, p[2] * inv)
    if shape == SHAPE_CAPSULE:
        r = dims[0]
        hl = dims[1]
        yc = min(max(o[1], -hl), hl)
        dx = o[0]
        dy = o[1] - yc
        dz = o[2]
        if dx * dx + dy * dy + dz * dz <= r * r:
            return _INF, (0.0, 0.0, 0.0)
        best = _ray_side(o, d, r, hl)
        cy = 0.0
        for s in (-1.0, 1.0):
            t = _ray_sphere(o, d, 0.0, s * hl, 0.0, r)
            if t < best:
                best = t
                cy = s * hl
        if best == _INF:
            return _INF, (0.0, 0.0, 0.0)
        p = (o[0] + best * d[0], o[1] + best * d[1], o[2] + best * d[2])
        y = min(max(p[1], -hl), hl)
        if cy != 0.0 and abs(p[1]) >= hl:
            y = cy
        nx = p[0]
        ny = p[1] - y
        nz = p[2]
        nn = math.sqrt(nx * nx + ny * ny + nz * nz)
        return best, (nx / nn, ny / nn, nz / nn)
    if shape == SHAPE_CYLINDER:
        r = dims[0]
        hl = dims[1]
        if o[0] * o[0] + o[2] * o[2] <= r * r and abs(o[1]) <= hl:
            return _INF, (0.0, 0.0, 0.0)
        best = _ray_side(o, d, r, hl)
        nrm = (0.0, 0.0, 0.0)
        if best < _INF:
            p = (o[0] + best * d[0], o[2] + best * d[2])
            nrm = (p[0] / r, 0.0, p[1] / r)
        for s in (-1.0, 1.0):
            if d[1] * s < 0.0:  # moving toward this cap from outside
                t = (s * hl - o[1]) / d[1]
                if t >= 0.0 and t < best:
                    x = o[0] + t * d[0]
                    z = o[2] + t * d[2]
                    if x * x + z * z <= r * r:
                        best = t
                        nrm = (0.0, s, 0.0)
        return best, nrm
    if shape == SHAPE_BOX:
        tmin = -_INF
        tmax = _INF
        ax = -1
        sg = 0.0
        for k in range(3):
            h = dims[k]
            if abs(d[k]) < 1e-15:
                if o[k] < -h or o[k] > h:
                    return _INF, (0.0, 0.0, 0.0)
                continue
            inv = 1.0 / d[k]
            t1 = (-h - o[k]) * inv
            t2 = (h - o[k]) * inv
            s = -1.0
            if t1 > t2:
                t1, t2 = t2, t1
                s = 1.0
            if t1 > tmin:
                tmin = t1
                ax = k
                sg = s
            if t2 < tmax:
                tmax = t2
            if tmin > tmax:
                return _INF, (0.0, 0.0, 0.0)
        if tmin < 0.0 or ax < 0:
            return _INF, (0.0, 0.0, 0.0)
        return tmin, (sg if ax == 0 else 0.0, sg if ax == 1 else 0.0, sg if ax == 2 else 0.0)
    if shape == SHAPE_PLANE:
        if o[1] <= 0.0 or d[1] >= 0.0:
            return _INF, (0.0, 0.0, 0.0)
        return -o[1] / d[1], (0.0, 1.0, 0.0)
    return _INF, (0.0, 0.0, 0.0)


@njit(cache=True, _nrt=False)
def raycast(bf, bi, n, origin, direction, max_distance, mask, out):
    """First body hit by the ray origin + t·direction (direction unit, 0 <= t <= max_distance),
    among bodies whose group meets ``mask``. Returns its slot (-1: none) and writes out[0] = t
    (m), out[1:4] = the point (m), out[4:7] = the surface normal (unit, world)."""
    best = max_distance
    hit = -1
    o = (origin[0], origin[1], origin[2])
    d = (direction[0], direction[1], direction[2])
    for i in range(n):
        if bi[i, B_KIND] == KIND_FREE or bi[i, B_PARKED] != 0 or (bi[i, B_GROUP] & mask) == 0:
            continue
        q = (bf[i, B_QUAT], bf[i, B_QUAT + 1], bf[i, B_QUAT + 2], bf[i, B_QUAT + 3])
        lo = qinvrot(q, (o[0] - bf[i, B_POS], o[1] - bf[i, B_POS + 1], o[2] - bf[i, B_POS + 2]))
        ld = qinvrot(q, d)
        dims = (bf[i, B_DIMS], bf[i, B_DIMS + 1], bf[i, B_DIMS + 2])
        t, ln = _ray_local(bi[i, B_SHAPE], dims, lo, ld)
        if t <= best:
            best = t
            hit = i
            wn = qrot(q, ln)
            out[0] = t
            for k in range(3):
                out[1 + k] = o[k] + t * d[k]
                out[4 + k] = wn[k]
    return hit


@njit(cache=True, _nrt=False)
def overlap(bf, bi, n, shape, dims, pos, quat, mask, out, cn, cp, cs, cid):
    """Slots of the bodies (group meeting ``mask``) that the query shape overlaps (any contact
    point with separation <= 0), in slot order, written to out; returns how many (may exceed
    out's length: only that many are written)."""
    count = 0
    for i in range(n):
        if bi[i, B_KIND] == KIND_FREE or bi[i, B_PARKED] != 0 or (bi[i, B_GROUP] & mask) == 0:
            continue
        if shape == SHAPE_PLANE and bi[i, B_SHAPE] == SHAPE_PLANE:
            continue
        cnt = collide(shape, dims, pos, quat, bi[i, B_SHAPE], bf[i, B_DIMS:B_DIMS + 3],
                      bf[i, B_POS:B_POS + 3], bf[i, B_QUAT:B_QUAT + 4], 1e-9, cn, cp, cs, cid)
        hit = False
        for k in range(cnt):
            if cs[k] <= 0.0:
                hit = True
        if hit:
            if count < out.shape[0]:
                out[count] = i
            count += 1
    return count
