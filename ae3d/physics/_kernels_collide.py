"""Narrow phase: analytic contact manifolds for every pair of ae3d's shapes.

One entry point, :func:`collide`, called once per fixed step for each broadphase pair. It writes a
manifold of at most 4 points (capsules 2) in place and returns how many points it wrote.

Conventions (all world frame, SI):

- ``normal`` (3,) unit, points from shape A to shape B.
- ``points`` (4, 3) m: each contact point lies midway between the two surfaces.
- ``seps`` (4,) m: signed separation along the normal (negative = penetrating). Only points with
  ``sep < margin`` are written (speculative contacts).
- ``ids`` (4,) int64: feature ids, stable from frame to frame while the same features touch (the
  solver matches them for warm starting). Ids are only compared between two manifolds of the same
  pair, so they need only be unique within one manifold.

How each pair is built (sources learnt from: Box2D v3 ``manifold.c``, Box3D ``convex_manifold.c``,
Ericson's *Real-Time Collision Detection*; our own code):

- A sphere is a capsule whose segment has zero length, so sphere/capsule pairs share the
  segment-segment closest-point code (``_seg_seg``): separation = distance − rA − rB. Two capsules
  within 0.05 (sine of ~3°) of parallel clip B's segment against A's extent and give 2 points, one
  per end of the overlap (each with its own separation along the common normal).
- Segment (sphere, capsule) vs box and vs cylinder: the squared distance from a point of the
  segment to a convex solid is convex and C¹ along the segment, so its minimum is found by
  bisection on the sign of its derivative (32 halvings: the parameter to ~2e-10 of the segment).
  Separated (the segment outside the solid): exact closest points; a capsule whose normal lies
  within 0.998 of a box face normal (or a cylinder's cap), or that lies along a cylinder's side,
  is clipped to that face and gives 2 points (each with its separation along the normal, from the
  capsule's surface to the face). Deep (the segment enters the solid): SAT over the face axes and
  the segment x edge axes (box); for the cylinder, the cap axis, the radial direction, the segment
  x axis direction and a 1-D search (36 samples, then golden section) on the two great circles
  where the support functions have kinks (u perpendicular to the segment or to the cylinder's
  axis), where the minimal translation lies when no listed axis holds it. Faces are preferred
  unless another axis is better by _SAT_TOL (0.1 mm).
- Plane pairs: each candidate vertex (capsule ends, box corners, the cylinder's deepest rim points
  and its lower cap's rim every 90°) against the half-space.
- Box-box: SAT over 15 axes (A's faces, B's faces, 9 edge crosses; B's face only if better than
  A's by 0.1 mm, an edge only if better than both by 0.1 mm: a deterministic tie-break). A face
  axis gives the intersection of the reference face and the incident face, from three kinds of
  candidates (incident corners inside the reference face, reference corners inside the incident
  face, edge crossings; a candidate within _FEATURE_TOL (1 mm) of an earlier kind is dropped, and
  corners are accepted 1 mm outside, so that an aligned stack keeps the same ids under jitter),
  reduced to 4 in the reference box's frame (deepest, farthest in the contact plane, farthest
  from that line, then the one adding the most area). An edge axis gives 1 point (the closest
  points of the two edges). When the boxes are apart and no candidate (without tolerances) is as
  deep as the SAT axis, or the edges' closest points are at an end, SAT is only a lower bound of
  their distance (corner to corner): the exact distance from the 24 edges (bisections) replaces
  the manifold with its single point.
- Cylinder (a round log), against spheres, capsules, planes: exact (see above). Against a box:
  separated, exact (the best of the box's face normals, the cylinder's axis, axis x box edges,
  and each box edge's exact closest direction to the cylinder by bisection, pruned by a cheap
  lower bound); overlapping, the same axes plus cap rim vs crossing edge, the corner radial
  directions, the kink combinations and a 1-D search on the 4 kink circles (the minimal
  translation to ~1e-8 m on the tests' poses). Points: clipping the log's bottom line, its lower
  cap's rim every 90° and the box face's corners over the cap, or the box's corners over the cap,
  reduced to 4 (the SAT's deepest point is always among them); else one point at the closest
  (or deepest) features. Where the box overlaps the log the single point sits on the box's
  feature and is only approximately midway. Cylinder-cylinder is approximated as capsule-capsule
  (the ends rounded by the radius): not in the contract; logs are static seats.

Deep penetration always gives a finite normal: coincident centres fall back to fixed axes (world +y,
then +x). No allocation: helpers return tuples, only the output arrays are written.
"""

import math

from numba import njit

from ._layout import SHAPE_BOX, SHAPE_CYLINDER, SHAPE_PLANE, SHAPE_SPHERE

# Tolerances (m unless noted).
_PARALLEL_SIN = 0.05      # |eA x eB| below which two segments count as parallel (2 points)
_FACE_COS = 0.998         # normal within this cosine of a face normal: clip to that face (2 points)
_SAT_TOL = 1e-4           # a later SAT axis must beat an earlier one by this to be chosen
_FEATURE_TOL = 1e-3       # candidates closer than this to an earlier kind are dropped
_DUP_TOL = 1e-4           # reduction: points closer than this count as one
_BISECT_ITERS = 32


# ------------------------------------------------------------------------------ small vector math
@njit(cache=True, _nrt=False)
def _v3(a):
    return (a[0], a[1], a[2])


@njit(cache=True, _nrt=False)
def _add(a, b):
    return (a[0] + b[0], a[1] + b[1], a[2] + b[2])


@njit(cache=True, _nrt=False)
def _sub(a, b):
    return (a[0] - b[0], a[1] - b[1], a[2] - b[2])


@njit(cache=True, _nrt=False)
def _scl(a, s):
    return (a[0] * s, a[1] * s, a[2] * s)


@njit(cache=True, _nrt=False)
def _mad(a, b, s):
    """a + b*s"""
    return (a[0] + b[0] * s, a[1] + b[1] * s, a[2] + b[2] * s)


@njit(cache=True, _nrt=False)
def _dot(a, b):
    return a[0] * b[0] + a[1] * b[1] + a[2] * b[2]


@njit(cache=True, _nrt=False)
def _cross(a, b):
    return (a[1] * b[2] - a[2] * b[1], a[2] * b[0] - a[0] * b[2], a[0] * b[1] - a[1] * b[0])


@njit(cache=True, _nrt=False)
def _len(a):
    return math.sqrt(a[0] * a[0] + a[1] * a[1] + a[2] * a[2])


@njit(cache=True, _nrt=False)
def _neg(a):
    return (-a[0], -a[1], -a[2])


@njit(cache=True, _nrt=False)
def _clamp(x, lo, hi):
    if x < lo:
        return lo
    if x > hi:
        return hi
    return x


@njit(cache=True, _nrt=False)
def _sgn(x):
    """Sign with sgn(0) = +1 (a fixed choice for symmetric ties)."""
    return -1.0 if x < 0.0 else 1.0


@njit(cache=True, _nrt=False)
def _rot(q, v):
    """Rotate v by the unit quaternion q = (x, y, z, w)."""
    qv = (q[0], q[1], q[2])
    t = _scl(_cross(qv, v), 2.0)
    return _add(_mad(v, t, q[3]), _cross(qv, t))


@njit(cache=True, _nrt=False)
def _irot(q, v):
    """Rotate v by the inverse of q."""
    qv = (-q[0], -q[1], -q[2])
    t = _scl(_cross(qv, v), 2.0)
    return _add(_mad(v, t, q[3]), _cross(qv, t))


@njit(cache=True, _nrt=False)
def _axis(q, i):
    """World direction of the body's local axis i."""
    if i == 0:
        return _rot(q, (1.0, 0.0, 0.0))
    if i == 1:
        return _rot(q, (0.0, 1.0, 0.0))
    return _rot(q, (0.0, 0.0, 1.0))


@njit(cache=True, _nrt=False)
def _comp(v, i):
    if i == 0:
        return v[0]
    if i == 1:
        return v[1]
    return v[2]


@njit(cache=True, _nrt=False)
def _unit(i, s):
    if i == 0:
        return (s, 0.0, 0.0)
    if i == 1:
        return (0.0, s, 0.0)
    return (0.0, 0.0, s)


@njit(cache=True, _nrt=False)
def _perp_fallback(a):
    """A fixed unit direction perpendicular to a (a may be zero: then world +y)."""
    y = (0.0, 1.0, 0.0)
    d = _mad(y, a, -_dot(y, a))
    ln = _len(d)
    if ln > 1e-6:
        return _scl(d, 1.0 / ln)
    x = (1.0, 0.0, 0.0)
    d = _mad(x, a, -_dot(x, a))
    return _scl(d, 1.0 / _len(d))


@njit(cache=True, _nrt=False)
def _put(points, seps, ids, k, p, s, fid):
    points[k, 0] = p[0]
    points[k, 1] = p[1]
    points[k, 2] = p[2]
    seps[k] = s
    ids[k] = fid


@njit(cache=True, _nrt=False)
def _set_normal(normal, n):
    normal[0] = n[0]
    normal[1] = n[1]
    normal[2] = n[2]


@njit(cache=True, _nrt=False)
def _seg_closest(cA, aA, hA, cB, aB, hB):
    """Closest points of segments cA + s aA (|s| <= hA) and cB + t aB (|t| <= hB), unit axes.

    Returns (s, t). Parallel segments take the middle of their overlap (a fixed choice)."""
    d = _sub(cB, cA)
    e = _dot(aA, d)
    f = _dot(aB, d)
    if hA <= 0.0 and hB <= 0.0:
        return 0.0, 0.0
    if hA <= 0.0:
        return 0.0, _clamp(-f, -hB, hB)
    if hB <= 0.0:
        return _clamp(e, -hA, hA), 0.0
    b = _dot(aA, aB)
    den = 1.0 - b * b
    if den > 1e-10:
        s = _clamp((e - b * f) / den, -hA, hA)
    else:
        # overlap of B's projection on A with A's extent; its middle
        lo = max(e - hB * abs(b), -hA)
        hi = min(e + hB * abs(b), hA)
        if lo <= hi:
            s = 0.5 * (lo + hi)
        else:
            s = _clamp(e, -hA, hA)
    t = _clamp(s * b - f, -hB, hB)
    s = _clamp(e + t * b, -hA, hA)
    return s, t


# ------------------------------------------------------------------------------ reduction to 4
@njit(cache=True, _nrt=False)
def _reduce(cands, margin, n, points, seps, ids):
    """Pick at most 4 of the candidates (valid, x, y, z, sep, id) with sep < margin:
    the deepest, the farthest from it (in the contact plane), the farthest from that line, then
    the one adding the most area to that triangle.

    Deterministic: the earliest candidate wins exact ties, and points within _DUP_TOL of a chosen
    one are never chosen again (duplicates from several candidate kinds)."""
    nc = len(cands)
    i1 = -1
    best = 0.0
    for k in range(nc):
        c = cands[k]
        if c[0] > 0.5 and c[4] < margin:
            if i1 < 0 or c[4] < best:
                i1 = k
                best = c[4]
    if i1 < 0:
        return 0
    c1 = cands[i1]
    p1 = (c1[1], c1[2], c1[3])
    _put(points, seps, ids, 0, p1, c1[4], int(c1[5]))
    # farthest from p1 (in the contact plane)
    i2 = -1
    best = _DUP_TOL * _DUP_TOL
    for k in range(nc):
        c = cands[k]
        if c[0] > 0.5 and c[4] < margin:
            d = _sub((c[1], c[2], c[3]), p1)
            d = _mad(d, n, -_dot(d, n))
            d2 = _dot(d, d)
            if d2 > best:
                i2 = k
                best = d2
    if i2 < 0:
        return 1
    c2 = cands[i2]
    p2 = (c2[1], c2[2], c2[3])
    _put(points, seps, ids, 1, p2, c2[4], int(c2[5]))
    e = _sub(p2, p1)
    le = math.sqrt(best)
    # farthest from the line p1-p2
    i3 = -1
    best3 = _DUP_TOL * le
    a3 = 0.0
    for k in range(nc):
        c = cands[k]
        if c[0] > 0.5 and c[4] < margin:
            ar = _dot(_cross(e, _sub((c[1], c[2], c[3]), p1)), n)
            if abs(ar) > best3:
                i3 = k
                best3 = abs(ar)
                a3 = ar
    if i3 < 0:
        return 2
    c3 = cands[i3]
    p3 = (c3[1], c3[2], c3[3])
    _put(points, seps, ids, 2, p3, c3[4], int(c3[5]))
    # the point that adds the most area to the triangle (outside one of its edges)
    o = 1.0 if a3 > 0.0 else -1.0          # the triangle p1 p2 p3 turns this way about n
    i4 = -1
    best4 = _DUP_TOL * le
    for k in range(nc):
        c = cands[k]
        if c[0] > 0.5 and c[4] < margin:
            pk = (c[1], c[2], c[3])
            out = -o * _dot(_cross(_sub(p2, p1), _sub(pk, p1)), n)
            out = max(out, -o * _dot(_cross(_sub(p3, p2), _sub(pk, p2)), n))
            out = max(out, -o * _dot(_cross(_sub(p1, p3), _sub(pk, p3)), n))
            if out > best4:
                i4 = k
                best4 = out
    if i4 < 0:
        return 3
    c4 = cands[i4]
    _put(points, seps, ids, 3, (c4[1], c4[2], c4[3]), c4[4], int(c4[5]))
    return 4


@njit(cache=True, _nrt=False)
def _cand(valid, p, sep, fid):
    """A candidate point: (valid, x, y, z, sep, id, strict); strict: valid without tolerances."""
    v = 1.0 if valid else 0.0
    return (v, p[0], p[1], p[2], sep, float(fid), v)


@njit(cache=True, _nrt=False)
def _cand_s(valid, strict, p, sep, fid):
    return (1.0 if valid else 0.0, p[0], p[1], p[2], sep, float(fid),
            1.0 if (valid and strict) else 0.0)


# ------------------------------------------------------------------------------ segment vs segment
@njit(cache=True, _nrt=False)
def _seg_seg(cA, aA, hA, rA, cB, aB, hB, rB, margin, normal, points, seps, ids):
    """Sphere/capsule pairs: A and B are segments (h = 0 for a sphere) with radii."""
    s, t = _seg_closest(cA, aA, hA, cB, aB, hB)
    pA = _mad(cA, aA, s)
    pB = _mad(cB, aB, t)
    dv = _sub(pB, pA)
    dist = _len(dv)
    if dist > 1e-9:
        n = _scl(dv, 1.0 / dist)
    else:
        c = _cross(aA, aB)
        lc = _len(c)
        dc = _sub(cB, cA)
        if hA > 0.0 and hB > 0.0 and lc > 1e-6:
            n = _scl(c, _sgn(_dot(c, dc)) / lc)
        else:
            ax = aA if hA > 0.0 else aB
            if hA <= 0.0 and hB <= 0.0:
                ax = (0.0, 0.0, 0.0)
            dp = _mad(dc, ax, -_dot(dc, ax))
            ld = _len(dp)
            if ld > 1e-9:
                n = _scl(dp, 1.0 / ld)
            else:
                n = _perp_fallback(ax)
    _set_normal(normal, n)
    sep = dist - rA - rB
    if sep >= margin:
        return 0
    if hA > 0.0 and hB > 0.0 and _len(_cross(aA, aB)) < _PARALLEL_SIN:
        # clip B's segment to A's extent (B's parameter range whose projection lies on A)
        e = _dot(aA, _sub(cB, cA))
        b = _dot(aA, aB)
        t0 = (-hA - e) / b
        t1 = (hA - e) / b
        if t0 > t1:
            t0, t1 = t1, t0
        t0 = max(t0, -hB)
        t1 = min(t1, hB)
        if t1 - t0 > 1e-6:
            k = 0
            for j in range(2):
                tt = t0 if j == 0 else t1
                qB = _mad(cB, aB, tt)
                ss = _clamp(_dot(aA, _sub(qB, cA)), -hA, hA)
                qA = _mad(cA, aA, ss)
                sp = _dot(_sub(qB, qA), n) - rA - rB
                if sp < margin:
                    mid = _scl(_add(_mad(qA, n, rA), _mad(qB, n, -rB)), 0.5)
                    _put(points, seps, ids, k, mid, sp, 1 + j)
                    k += 1
            return k
    mid = _scl(_add(_mad(pA, n, rA), _mad(pB, n, -rB)), 0.5)
    _put(points, seps, ids, 0, mid, sep, 0)
    return 1


# ------------------------------------------------------------------------------ vs plane
@njit(cache=True, _nrt=False)
def _seg_plane(c, a, h, r, p0, pn, margin, normal, points, seps, ids):
    """Segment (sphere h=0, capsule) A vs the half-space below plane (p0, pn) B: normal = -pn."""
    _set_normal(normal, _neg(pn))
    k = 0
    m = 2 if h > 0.0 else 1
    for j in range(m):
        e = _mad(c, a, -h if j == 0 else h)
        sp = _dot(_sub(e, p0), pn) - r
        if sp < margin:
            _put(points, seps, ids, k, _mad(e, pn, -(r + 0.5 * sp)), sp, j)
            k += 1
    return k


@njit(cache=True, _nrt=False)
def _box_corner(c, ax0, ax1, ax2, ext, k):
    s0 = ext[0] if (k & 1) else -ext[0]
    s1 = ext[1] if (k & 2) else -ext[1]
    s2 = ext[2] if (k & 4) else -ext[2]
    return _mad(_mad(_mad(c, ax0, s0), ax1, s1), ax2, s2)


@njit(cache=True, _nrt=False)
def _box_plane(c, q, ext, p0, pn, margin, normal, points, seps, ids):
    """Box A vs half-space B: its 8 corners, reduced to 4. Normal = -pn."""
    _set_normal(normal, _neg(pn))
    ax0 = _axis(q, 0)
    ax1 = _axis(q, 1)
    ax2 = _axis(q, 2)
    cands = (
        _box_plane_cand(c, ax0, ax1, ax2, ext, p0, pn, 0),
        _box_plane_cand(c, ax0, ax1, ax2, ext, p0, pn, 1),
        _box_plane_cand(c, ax0, ax1, ax2, ext, p0, pn, 2),
        _box_plane_cand(c, ax0, ax1, ax2, ext, p0, pn, 3),
        _box_plane_cand(c, ax0, ax1, ax2, ext, p0, pn, 4),
        _box_plane_cand(c, ax0, ax1, ax2, ext, p0, pn, 5),
        _box_plane_cand(c, ax0, ax1, ax2, ext, p0, pn, 6),
        _box_plane_cand(c, ax0, ax1, ax2, ext, p0, pn, 7),
    )
    return _reduce(cands, margin, _neg(pn), points, seps, ids)


@njit(cache=True, _nrt=False)
def _box_plane_cand(c, ax0, ax1, ax2, ext, p0, pn, k):
    v = _box_corner(c, ax0, ax1, ax2, ext, k)
    sp = _dot(_sub(v, p0), pn)
    return _cand(True, _mad(v, pn, -0.5 * sp), sp, k)


@njit(cache=True, _nrt=False)
def _cyl_rim_dirs(a, q, d):
    """Unit radial direction of a cylinder (axis a, rotation q) toward direction d, and the one
    90° further. A fixed local direction (+x) when d is (almost) along the axis."""
    pd = _mad(d, a, -_dot(d, a))
    lp = _len(pd)
    if lp > 1e-4:
        r0 = _scl(pd, 1.0 / lp)
    else:
        x = _axis(q, 0)
        r0 = _mad(x, a, -_dot(x, a))
        r0 = _scl(r0, 1.0 / _len(r0))
    return r0, _cross(a, r0)


@njit(cache=True, _nrt=False)
def _plane_cyl(p0, pn, c, q, R, H, margin, normal, points, seps, ids):
    """Half-space A vs cylinder B (normal = +pn): the deepest rim point of each cap, and the lower
    cap's rim every 90° (a standing log gets 4 points, a lying one 2)."""
    _set_normal(normal, pn)
    a = _axis(q, 1)
    r0, r1 = _cyl_rim_dirs(a, q, _neg(pn))
    al = _dot(a, pn)
    lo = -1.0 if al >= 0.0 else 1.0          # the lower cap
    clo = _mad(c, a, lo * H)
    chi = _mad(c, a, -lo * H)
    cands = (
        _plane_pt_cand(_mad(clo, r0, R), p0, pn, 0),
        _plane_pt_cand(_mad(chi, r0, R), p0, pn, 4),
        _plane_pt_cand(_mad(clo, r1, R), p0, pn, 1),
        _plane_pt_cand(_mad(clo, r0, -R), p0, pn, 2),
        _plane_pt_cand(_mad(clo, r1, -R), p0, pn, 3),
    )
    return _reduce(cands, margin, pn, points, seps, ids)


@njit(cache=True, _nrt=False)
def _plane_pt_cand(v, p0, pn, fid):
    sp = _dot(_sub(v, p0), pn)
    return _cand(True, _mad(v, pn, -0.5 * sp), sp, fid)


# ------------------------------------------------------------------------------ segment vs box
@njit(cache=True, _nrt=False)
def _clamp_box(p, ext):
    return (_clamp(p[0], -ext[0], ext[0]), _clamp(p[1], -ext[1], ext[1]),
            _clamp(p[2], -ext[2], ext[2]))


@njit(cache=True, _nrt=False)
def _clamp_solid(p, ext, cyl):
    """Closest point to p of the centred local box (half extents ext) or, with cyl, of the
    cylinder (radius ext[0], half height ext[1], axis y)."""
    if cyl:
        return _clamp_cyl(p, ext[0], ext[1])
    return _clamp_box(p, ext)


@njit(cache=True, _nrt=False)
def _seg_solid_t(cl, al, h, ext, cyl):
    """Segment parameter closest to the local box or cylinder (ext, cyl: see _clamp_solid):
    bisection on d/dt of dist²."""
    if h <= 0.0:
        return 0.0
    lo = -h
    hi = h
    p = _mad(cl, al, lo)
    if _dot(_sub(p, _clamp_solid(p, ext, cyl)), al) >= 0.0:
        return lo
    p = _mad(cl, al, hi)
    if _dot(_sub(p, _clamp_solid(p, ext, cyl)), al) <= 0.0:
        return hi
    for _ in range(_BISECT_ITERS):
        mid = 0.5 * (lo + hi)
        p = _mad(cl, al, mid)
        if _dot(_sub(p, _clamp_solid(p, ext, cyl)), al) > 0.0:
            hi = mid
        else:
            lo = mid
    return 0.5 * (lo + hi)


@njit(cache=True, _nrt=False)
def _ray_face(s0, n, i, e, R, side):
    """Signed distance along n from s0 to the face plane x_i = -sgn(n_i) e of the local solid
    it faces, or, with side, to the curved side of the centred cylinder (radius R, half height
    e, axis y)."""
    if not side:
        ni = _comp(n, i)
        return (-_sgn(ni) * e - _comp(s0, i)) / ni
    a2 = n[0] * n[0] + n[2] * n[2]
    b2 = 2.0 * (s0[0] * n[0] + s0[2] * n[2])
    c2 = s0[0] * s0[0] + s0[2] * s0[2] - R * R
    disc = b2 * b2 - 4.0 * a2 * c2
    if a2 < 1e-12 or disc < 0.0:
        q = _clamp_cyl(s0, R, e)
        return _len(_sub(q, s0))
    return (-b2 - math.sqrt(disc)) / (2.0 * a2)


@njit(cache=True, _nrt=False)
def _put_rays(cl, al, t, t0, t1, n, r, i, e, R, side, margin, bp, bq, fid, points, seps, ids):
    """Separated segment against a face of B (local frame; i, e, R, side: see _ray_face): the
    ends of the range [t0, t1] widened to hold t, each from the capsule's surface along n to
    the face, written in the world (ids fid + 1, fid + 2) where nearer than margin. Returns
    how many, or -1 if the range is shorter than 1e-6 m (the caller gives one point)."""
    if t0 > t1:
        t0 = t
        t1 = t
    t0 = min(t0, t)
    t1 = max(t1, t)
    if t1 - t0 <= 1e-6:
        return -1
    k = 0
    for j in range(2):
        tt = t0 if j == 0 else t1
        s0 = _mad(_mad(cl, al, tt), n, r)
        sp = _ray_face(s0, n, i, e, R, side)
        if sp < margin:
            mid = _mad(s0, n, 0.5 * sp)
            _put(points, seps, ids, k, _add(bp, _rot(bq, mid)), sp, fid + 1 + j)
            k += 1
    return k


@njit(cache=True, _nrt=False)
def _put_face(cl, al, t, t0, t1, bu, floor, r, margin, bp, bq, fid, points, seps, ids):
    """Deep segment against a face of B (local frame) with outward normal -bu, B's minimum
    along bu being floor: the ends of the range [t0, t1] (t alone if it is empty), written in
    the world (ids fid + 1, fid + 2) where shallower than margin. Returns how many."""
    if t0 > t1:
        t0 = t
        t1 = t
    k = 0
    m = 2 if t1 - t0 > 1e-6 else 1
    for j in range(m):
        tt = t0 if j == 0 else t1
        pj = _mad(cl, al, tt)
        sp = floor - _dot(pj, bu) - r
        if sp < margin:
            mid = _mad(pj, bu, r + 0.5 * sp)
            _put(points, seps, ids, k, _add(bp, _rot(bq, mid)), sp, fid + 1 + j)
            k += 1
    return k


@njit(cache=True, _nrt=False)
def _clip_range_box2(cl, al, h, ext, i):
    """Parameter range of the segment whose projection along local axis i lies within the box's
    face rectangle (Liang-Barsky on the two other axes). Returns (t0, t1), empty if t0 > t1."""
    t0 = -h
    t1 = h
    for j in range(3):
        if j == i:
            continue
        pj = _comp(cl, j)
        dj = _comp(al, j)
        ej = _comp(ext, j)
        if abs(dj) < 1e-12:
            if abs(pj) > ej:
                return 1.0, -1.0
        else:
            ta = (-ej - pj) / dj
            tb = (ej - pj) / dj
            if ta > tb:
                ta, tb = tb, ta
            t0 = max(t0, ta)
            t1 = min(t1, tb)
    return t0, t1


@njit(cache=True, _nrt=False)
def _seg_box(c, a, h, r, bp, bq, ext, margin, normal, points, seps, ids):
    """Segment A (sphere h=0, capsule) vs box B. Computed in the box's frame."""
    cl = _irot(bq, _sub(c, bp))
    al = _irot(bq, a)
    t = _seg_solid_t(cl, al, h, ext, False)
    p = _mad(cl, al, t)
    qb = _clamp_box(p, ext)
    dv = _sub(qb, p)
    dist = _len(dv)
    if dist > 1e-9:
        n = _scl(dv, 1.0 / dist)
        _set_normal(normal, _rot(bq, n))
        sep = dist - r
        if sep >= margin:
            return 0
        # the face of B facing A
        i = 0
        if abs(n[1]) > abs(_comp(n, i)):
            i = 1
        if abs(n[2]) > abs(_comp(n, i)):
            i = 2
        ni = _comp(n, i)
        if h > 0.0 and abs(ni) > _FACE_COS:
            fid = 10 * (2 * i + (1 if ni > 0.0 else 0))
            # clip where the rays from the capsule's surface along n hit the face: the hit
            # point is linear in t, h(t) = h0 + t hd
            s0 = _mad(cl, n, r)
            fpl = -_sgn(ni) * _comp(ext, i)
            h0 = _mad(s0, n, (fpl - _comp(s0, i)) / ni)
            hd = _mad(al, n, -_comp(al, i) / ni)
            t0, t1 = _clip_range_box2(h0, hd, h, ext, i)
            k = _put_rays(cl, al, t, t0, t1, n, r, i, _comp(ext, i), 0.0, False, margin, bp, bq,
                          fid, points, seps, ids)
            if k >= 0:
                return k
        mid = _scl(_add(_mad(p, n, r), qb), 0.5)
        _put(points, seps, ids, 0, _add(bp, _rot(bq, mid)), sep, 0)
        return 1
    # deep: the segment enters the box. SAT over the face axes and the segment x edge axes.
    best = -1e300
    bi = 0
    for i in range(3):
        ci = _comp(cl, i)
        s = abs(ci) - h * abs(_comp(al, i)) - _comp(ext, i)
        if s > best:
            best = s
            bi = i
    bu = _unit(bi, -_sgn(_comp(cl, bi)))
    edge = -1
    if h > 0.0:
        for i in range(3):
            u = _cross(al, _unit(i, 1.0))
            lu = _len(u)
            if lu < 1e-6:
                continue
            u = _scl(u, 1.0 / lu)
            cu = _dot(cl, u)
            s = abs(cu) - (ext[0] * abs(u[0]) + ext[1] * abs(u[1]) + ext[2] * abs(u[2]))
            if s > best + _SAT_TOL:
                best = s
                edge = i
                bu = _scl(u, -_sgn(cu))
    _set_normal(normal, _rot(bq, bu))
    sep = best - r
    if sep >= margin:
        return 0
    if edge < 0:
        # face of B with outward normal -bu; the segment clipped to its rectangle
        ni = _comp(bu, bi)
        fid = 10 * (2 * bi + (1 if ni < 0.0 else 0))
        t0, t1 = _clip_range_box2(cl, al, h, ext, bi)
        return _put_face(cl, al, t, t0, t1, bu, -_comp(ext, bi), r, margin, bp, bq, fid,
                         points, seps, ids)
    # edge of B parallel to local axis `edge`, the support of B toward -bu
    ec = (0.0, 0.0, 0.0)
    for j in range(3):
        if j != edge:
            ec = _mad(ec, _unit(j, 1.0), -_sgn(_comp(bu, j)) * _comp(ext, j))
    ea = _unit(edge, 1.0)
    s, tt = _seg_closest(cl, al, h, ec, ea, _comp(ext, edge))
    pA = _mad(cl, al, s)
    pB = _mad(ec, ea, tt)
    mid = _scl(_add(_mad(pA, bu, r), pB), 0.5)
    _put(points, seps, ids, 0, _add(bp, _rot(bq, mid)), sep, 100 + edge)
    return 1


# ------------------------------------------------------------------------------ segment vs cylinder
@njit(cache=True, _nrt=False)
def _clamp_cyl(p, R, H):
    rho = math.sqrt(p[0] * p[0] + p[2] * p[2])
    x = p[0]
    z = p[2]
    if rho > R:
        x = x * (R / rho)
        z = z * (R / rho)
    return (x, _clamp(p[1], -H, H), z)


@njit(cache=True, _nrt=False)
def _clip_range_disk(cl, al, h, R):
    """Parameter range of the segment whose projection along local y lies within radius R."""
    a2 = al[0] * al[0] + al[2] * al[2]
    b2 = 2.0 * (cl[0] * al[0] + cl[2] * al[2])
    c2 = cl[0] * cl[0] + cl[2] * cl[2] - R * R
    if a2 < 1e-12:
        if c2 <= 0.0:
            return -h, h
        return 1.0, -1.0
    disc = b2 * b2 - 4.0 * a2 * c2
    if disc < 0.0:
        return 1.0, -1.0
    sq = math.sqrt(disc)
    ta = (-b2 - sq) / (2.0 * a2)
    tb = (-b2 + sq) / (2.0 * a2)
    return max(ta, -h), min(tb, h)


@njit(cache=True, _nrt=False)
def _cyl_min(u, R, H):
    """Minimum of a centred local cylinder along unit u (= -support)."""
    uy = abs(u[1])
    return -(H * uy + R * math.sqrt(max(0.0, 1.0 - uy * uy)))


@njit(cache=True, _nrt=False)
def _cyl_support_neg(u, R, H):
    """A point of the centred local cylinder extreme along -u."""
    y = -H * _sgn(u[1]) if abs(u[1]) > 1e-12 else 0.0
    rx = -u[0]
    rz = -u[2]
    lr = math.sqrt(rx * rx + rz * rz)
    if lr > 1e-12:
        return (R * rx / lr, y, R * rz / lr)
    return (0.0, y, 0.0)


@njit(cache=True, _nrt=False)
def _seg_cyl(c, a, h, r, yp, yq, R, H, margin, normal, points, seps, ids):
    """Segment A (sphere h=0, capsule) vs cylinder B (axis local y). Computed in B's frame."""
    cl = _irot(yq, _sub(c, yp))
    al = _irot(yq, a)
    t = _seg_solid_t(cl, al, h, (R, H, R), True)
    p = _mad(cl, al, t)
    qc = _clamp_cyl(p, R, H)
    dv = _sub(qc, p)
    dist = _len(dv)
    if dist > 1e-9:
        n = _scl(dv, 1.0 / dist)
        _set_normal(normal, _rot(yq, n))
        sep = dist - r
        if sep >= margin:
            return 0
        if h > 0.0:
            t0 = 1.0
            t1 = -1.0
            fid = 0
            if abs(n[1]) > _FACE_COS:
                # against a cap: clip where the rays along n from the capsule's surface hit
                # the cap's disk (linear in t)
                s0 = _mad(cl, n, r)
                h0 = _mad(s0, n, (-_sgn(n[1]) * H - s0[1]) / n[1])
                hd = _mad(al, n, -al[1] / n[1])
                t0, t1 = _clip_range_disk(h0, hd, h, R)
                fid = 10 if n[1] > 0.0 else 20
            elif abs(qc[1]) < H and math.sqrt(al[0] * al[0] + al[2] * al[2]) < _PARALLEL_SIN:
                # along the curved side: clip to the axial extent
                t0 = (-H - cl[1]) / al[1]
                t1 = (H - cl[1]) / al[1]
                if t0 > t1:
                    t0, t1 = t1, t0
                t0 = max(t0, -h)
                t1 = min(t1, h)
                fid = 30
            if fid > 0:
                k = _put_rays(cl, al, t, t0, t1, n, r, 1, H, R, fid == 30, margin, yp, yq, fid,
                              points, seps, ids)
                if k >= 0:
                    return k
        mid = _scl(_add(_mad(p, n, r), qc), 0.5)
        _put(points, seps, ids, 0, _add(yp, _rot(yq, mid)), sep, 0)
        return 1
    # deep: candidate axes (A -> B). sep(u) = min_B(u) - max_A(u)
    # 1) the cap axis
    bu = (0.0, -_sgn(cl[1]), 0.0)
    best = abs(cl[1]) - h * abs(al[1]) - H
    kind = 1
    # 2) radial, from the segment point nearest the axis toward the axis
    s, _ = _seg_closest(cl, al, h, (0.0, 0.0, 0.0), (0.0, 1.0, 0.0), H)
    w = _mad(cl, al, s)
    lw = math.sqrt(w[0] * w[0] + w[2] * w[2])
    if lw > 1e-9:
        u = (-w[0] / lw, 0.0, -w[2] / lw)
    else:
        u = (-1.0, 0.0, 0.0)
    sp = _cyl_min(u, R, H) - (_dot(cl, u) + h * abs(_dot(al, u)))
    if sp > best + _SAT_TOL:
        best = sp
        bu = u
        kind = 2
    # 3) segment x axis (both signs)
    u = _cross(al, (0.0, 1.0, 0.0))
    lu = _len(u)
    if h > 0.0 and lu > 1e-6:
        u = _scl(u, -_sgn(_dot(cl, u)) / lu)
        sp = _cyl_min(u, R, H) - _dot(cl, u)
        if sp > best + _SAT_TOL:
            best = sp
            bu = u
            kind = 3
    # the minimal translation often lies on a kink circle (u perpendicular to the segment or to
    # the cylinder's axis): a 1-D search on each
    for i in range(2):
        if h <= 0.0:
            break       # a sphere: the cap or the radial axis is exact
        uu, sv = _circle_search(al if i == 0 else (0.0, 1.0, 0.0), 1, cl, al, h, R, H,
                                (0.0, 0.0, 0.0))
        if sv > best + _SAT_TOL:
            best = sv
            bu = uu
            kind = 3
    _set_normal(normal, _rot(yq, bu))
    sep = best - r
    if sep >= margin:
        return 0
    if kind == 1:
        t0, t1 = _clip_range_disk(cl, al, h, R)
        fid = 10 if bu[1] < 0.0 else 20
        return _put_face(cl, al, t, t0, t1, bu, -H, r, margin, yp, yq, fid, points, seps, ids)
    # the point: at the segment's point nearest the cylinder's axis (the middle of the overlap),
    # on the line of action along the normal
    pA = _mad(w, bu, r)
    mid = _mad(pA, bu, 0.5 * sep)
    _put(points, seps, ids, 0, _add(yp, _rot(yq, mid)), sep, 40 + kind)
    return 1


# ------------------------------------------------------------------------------ box vs box
@njit(cache=True, _nrt=False)
def _in_quad(x, y, q0, q1, q2, q3, orient, tol):
    """Is 2-D point (x, y) inside the convex quad q0..q3 (orientation `orient`), grown by tol?"""
    for k in range(4):
        if k == 0:
            a = q0
            b = q1
        elif k == 1:
            a = q1
            b = q2
        elif k == 2:
            a = q2
            b = q3
        else:
            a = q3
            b = q0
        ex = b[0] - a[0]
        ey = b[1] - a[1]
        le = math.sqrt(ex * ex + ey * ey)
        if le < 1e-12:
            continue
        cr = (ex * (y - a[1]) - ey * (x - a[0])) * orient / le
        if cr < -tol:
            return False
    return True


@njit(cache=True, _nrt=False)
def _face_cands(ea, i, si, tb, bx0, bx1, bx2, eb, floor):
    """Candidates of a face contact, in the reference box's frame.

    Reference: face of box A (extents ea, centre 0, axes = frame) with outward normal si*e_i.
    Incident: box B (centre tb, axes bx0..2 in A's frame, extents eb): its face most anti-parallel
    to the reference normal. Returns 24 candidates (valid, x, y, z, sep, id) in A's frame, with
    ids 0..23 + 24 * (2 * i + side) + 144 * (incident face)."""
    u = _unit(i, si)
    # incident face
    d0 = _dot(bx0, u)
    d1 = _dot(bx1, u)
    d2 = _dot(bx2, u)
    j = 0
    dj = d0
    if abs(d1) > abs(dj):
        j = 1
        dj = d1
    if abs(d2) > abs(dj):
        j = 2
        dj = d2
    sj = -_sgn(dj)
    if j == 0:
        nj = bx0
        ka = bx1
        kb = bx2
        xa = eb[1]
        xb = eb[2]
        ej = eb[0]
    elif j == 1:
        nj = bx1
        ka = bx2
        kb = bx0
        xa = eb[2]
        xb = eb[0]
        ej = eb[1]
    else:
        nj = bx2
        ka = bx0
        kb = bx1
        xa = eb[0]
        xb = eb[1]
        ej = eb[2]
    ni = _scl(nj, sj)
    ci = _mad(tb, ni, ej)
    v0 = _mad(_mad(ci, ka, xa), kb, xb)
    v1 = _mad(_mad(ci, ka, -xa), kb, xb)
    v2 = _mad(_mad(ci, ka, -xa), kb, -xb)
    v3 = _mad(_mad(ci, ka, xa), kb, -xb)
    # reference face 2-D axes p, q
    p = (i + 1) % 3
    q = (i + 2) % 3
    ep = _comp(ea, p)
    eq = _comp(ea, q)
    ei = _comp(ea, i)
    w0 = (_comp(v0, p), _comp(v0, q))
    w1 = (_comp(v1, p), _comp(v1, q))
    w2 = (_comp(v2, p), _comp(v2, q))
    w3 = (_comp(v3, p), _comp(v3, q))
    area = ((w1[0] - w0[0]) * (w2[1] - w0[1]) - (w1[1] - w0[1]) * (w2[0] - w0[0]) +
            (w2[0] - w0[0]) * (w3[1] - w0[1]) - (w2[1] - w0[1]) * (w3[0] - w0[0]))
    orient = 1.0 if area >= 0.0 else -1.0
    base = 24 * (2 * i + (0 if si > 0.0 else 1)) + 144 * (2 * j + (0 if sj > 0.0 else 1))
    tol = _FEATURE_TOL
    # (a) incident corners inside the reference rectangle
    in0 = abs(w0[0]) <= ep + tol and abs(w0[1]) <= eq + tol
    in1 = abs(w1[0]) <= ep + tol and abs(w1[1]) <= eq + tol
    in2 = abs(w2[0]) <= ep + tol and abs(w2[1]) <= eq + tol
    in3 = abs(w3[0]) <= ep + tol and abs(w3[1]) <= eq + tol
    ca0 = _corner_cand(in0, abs(w0[0]) <= ep and abs(w0[1]) <= eq, v0, u, si, i, ei, base + 0)
    ca1 = _corner_cand(in1, abs(w1[0]) <= ep and abs(w1[1]) <= eq, v1, u, si, i, ei, base + 1)
    ca2 = _corner_cand(in2, abs(w2[0]) <= ep and abs(w2[1]) <= eq, v2, u, si, i, ei, base + 2)
    ca3 = _corner_cand(in3, abs(w3[0]) <= ep and abs(w3[1]) <= eq, v3, u, si, i, ei, base + 3)
    # (b) reference corners inside the incident quad (depth from the incident plane)
    un = _dot(u, ni)
    cb0 = _ref_corner_cand(ep, eq, ei, p, q, i, si, u, ni, ci, un, w0, w1, w2, w3, orient,
                           in0, in1, in2, in3, floor, base + 4)
    cb1 = _ref_corner_cand(-ep, eq, ei, p, q, i, si, u, ni, ci, un, w0, w1, w2, w3, orient,
                           in0, in1, in2, in3, floor, base + 5)
    cb2 = _ref_corner_cand(-ep, -eq, ei, p, q, i, si, u, ni, ci, un, w0, w1, w2, w3, orient,
                           in0, in1, in2, in3, floor, base + 6)
    cb3 = _ref_corner_cand(ep, -eq, ei, p, q, i, si, u, ni, ci, un, w0, w1, w2, w3, orient,
                           in0, in1, in2, in3, floor, base + 7)
    # (c) incident edges crossing reference edges
    e00 = _edge_cand(v0, v1, 0, ep, eq, p, q, i, si, ei, u, ca0, ca1, cb0, cb1, cb2, cb3, base)
    e01 = _edge_cand(v0, v1, 1, ep, eq, p, q, i, si, ei, u, ca0, ca1, cb0, cb1, cb2, cb3, base)
    e02 = _edge_cand(v0, v1, 2, ep, eq, p, q, i, si, ei, u, ca0, ca1, cb0, cb1, cb2, cb3, base)
    e03 = _edge_cand(v0, v1, 3, ep, eq, p, q, i, si, ei, u, ca0, ca1, cb0, cb1, cb2, cb3, base)
    e10 = _edge_cand(v1, v2, 0, ep, eq, p, q, i, si, ei, u, ca1, ca2, cb0, cb1, cb2, cb3, base + 4)
    e11 = _edge_cand(v1, v2, 1, ep, eq, p, q, i, si, ei, u, ca1, ca2, cb0, cb1, cb2, cb3, base + 4)
    e12 = _edge_cand(v1, v2, 2, ep, eq, p, q, i, si, ei, u, ca1, ca2, cb0, cb1, cb2, cb3, base + 4)
    e13 = _edge_cand(v1, v2, 3, ep, eq, p, q, i, si, ei, u, ca1, ca2, cb0, cb1, cb2, cb3, base + 4)
    e20 = _edge_cand(v2, v3, 0, ep, eq, p, q, i, si, ei, u, ca2, ca3, cb0, cb1, cb2, cb3, base + 8)
    e21 = _edge_cand(v2, v3, 1, ep, eq, p, q, i, si, ei, u, ca2, ca3, cb0, cb1, cb2, cb3, base + 8)
    e22 = _edge_cand(v2, v3, 2, ep, eq, p, q, i, si, ei, u, ca2, ca3, cb0, cb1, cb2, cb3, base + 8)
    e23 = _edge_cand(v2, v3, 3, ep, eq, p, q, i, si, ei, u, ca2, ca3, cb0, cb1, cb2, cb3, base + 8)
    e30 = _edge_cand(v3, v0, 0, ep, eq, p, q, i, si, ei, u, ca3, ca0, cb0, cb1, cb2, cb3, base + 12)
    e31 = _edge_cand(v3, v0, 1, ep, eq, p, q, i, si, ei, u, ca3, ca0, cb0, cb1, cb2, cb3, base + 12)
    e32 = _edge_cand(v3, v0, 2, ep, eq, p, q, i, si, ei, u, ca3, ca0, cb0, cb1, cb2, cb3, base + 12)
    e33 = _edge_cand(v3, v0, 3, ep, eq, p, q, i, si, ei, u, ca3, ca0, cb0, cb1, cb2, cb3, base + 12)
    return (ca0, ca1, ca2, ca3, cb0, cb1, cb2, cb3,
            e00, e01, e02, e03, e10, e11, e12, e13, e20, e21, e22, e23, e30, e31, e32, e33)


@njit(cache=True, _nrt=False)
def _corner_cand(inside, strict, v, u, si, i, ei, fid):
    sp = si * _comp(v, i) - ei
    return _cand_s(inside, strict, _mad(v, u, -0.5 * sp), sp, fid)


@njit(cache=True, _nrt=False)
def _ref_corner_cand(x, y, ei, p, q, i, si, u, ni, ci, un, w0, w1, w2, w3, orient,
                     in0, in1, in2, in3, floor, fid):
    ok = abs(un) > 1e-9 and _in_quad(x, y, w0, w1, w2, w3, orient, _FEATURE_TOL)
    strict = ok and _in_quad(x, y, w0, w1, w2, w3, orient, 0.0)
    pt = _add(_add(_unit(p, x), _unit(q, y)), _unit(i, si * ei))
    lam = 0.0
    if ok:
        # no point of B is nearer than the SAT separation (the incident plane, extended past
        # the face by the tolerance, could be)
        lam = max(_dot(_sub(ci, pt), ni) / un, floor)
        # drop it when an accepted incident corner already sits there
        for k in range(4):
            if k == 0:
                inside = in0
                w = w0
            elif k == 1:
                inside = in1
                w = w1
            elif k == 2:
                inside = in2
                w = w2
            else:
                inside = in3
                w = w3
            if inside and abs(w[0] - x) < _FEATURE_TOL and abs(w[1] - y) < _FEATURE_TOL:
                ok = False
    return _cand_s(ok, strict, _mad(pt, u, 0.5 * lam), lam, fid)


@njit(cache=True, _nrt=False)
def _near(c, pt):
    if c[0] < 0.5:
        return False
    return (abs(c[1] - pt[0]) < _FEATURE_TOL and abs(c[2] - pt[1]) < _FEATURE_TOL
            and abs(c[3] - pt[2]) < _FEATURE_TOL)


@njit(cache=True, _nrt=False)
def _edge_cand(va, vb, r, ep, eq, p, q, i, si, ei, u, caa, cab, cb0, cb1, cb2, cb3, fid0):
    """Crossing of incident edge va-vb with reference edge r (0: x_p=+ep, 1: x_q=+eq,
    2: x_p=-ep, 3: x_q=-eq)."""
    if r == 0 or r == 2:
        axc = p
        axo = q
        cval = ep if r == 0 else -ep
        olim = eq
    else:
        axc = q
        axo = p
        cval = eq if r == 1 else -eq
        olim = ep
    a0 = _comp(va, axc)
    a1 = _comp(vb, axc)
    den = a1 - a0
    ok = False
    pt = va
    sp = 0.0
    if abs(den) > 1e-12:
        lam = (cval - a0) / den
        if 0.0 <= lam <= 1.0:
            y = _add(va, _scl(_sub(vb, va), lam))
            if abs(_comp(y, axo)) <= olim:
                ok = True
                sp = si * _comp(y, i) - ei
                pt = _mad(y, u, -0.5 * sp)
                if (_near(caa, pt) or _near(cab, pt) or _near(cb0, pt) or _near(cb1, pt)
                        or _near(cb2, pt) or _near(cb3, pt)):
                    ok = False
    return _cand(ok, pt, sp, fid0 + 8 + r)


@njit(cache=True, _nrt=False)
def _box_face_axes(t, bx0, bx1, bx2, ea, eb):
    """Best face axis of the box at the origin with extents ea vs box (t, bx*, eb) in its frame.
    Returns (sep, axis index, sign toward B)."""
    best = -1e300
    bi = 0
    for i in range(3):
        ti = _comp(t, i)
        rb = (eb[0] * abs(_comp(bx0, i)) + eb[1] * abs(_comp(bx1, i))
              + eb[2] * abs(_comp(bx2, i)))
        s = abs(ti) - _comp(ea, i) - rb
        if s > best:
            best = s
            bi = i
    return best, bi, _sgn(_comp(t, bi))


@njit(cache=True, _nrt=False)
def _points_to_world(points, n, bp, bq):
    for j in range(n):
        w = _add(bp, _rot(bq, (points[j, 0], points[j, 1], points[j, 2])))
        points[j, 0] = w[0]
        points[j, 1] = w[1]
        points[j, 2] = w[2]


@njit(cache=True, _nrt=False)
def _box_box_exact(pa, qa, ea, pb, qb, eb):
    """Exact distance of two disjoint boxes: the closest of their 24 edges to the other box.
    Returns (dist, point on A, point on B) in world."""
    best = 1e300
    wa = (0.0, 0.0, 0.0)
    wb = (0.0, 0.0, 0.0)
    for side in range(2):
        if side == 0:
            sp, sq, se, op, oq, oe = pb, qb, eb, pa, qa, ea
        else:
            sp, sq, se, op, oq, oe = pa, qa, ea, pb, qb, eb
        # edges of box `s` against box `o`, in o's frame
        cs = _irot(oq, _sub(sp, op))
        for ax in range(3):
            al = _irot(oq, _axis(sq, ax))
            o1 = (ax + 1) % 3
            o2 = (ax + 2) % 3
            a1 = _irot(oq, _axis(sq, o1))
            a2 = _irot(oq, _axis(sq, o2))
            for k in range(4):
                s1 = _comp(se, o1) if (k & 1) else -_comp(se, o1)
                s2 = _comp(se, o2) if (k & 2) else -_comp(se, o2)
                cl = _mad(_mad(cs, a1, s1), a2, s2)
                h = _comp(se, ax)
                t = _seg_solid_t(cl, al, h, oe, False)
                p = _mad(cl, al, t)
                qc = _clamp_box(p, oe)
                d = _len(_sub(p, qc))
                if d < best:
                    best = d
                    pw = _add(op, _rot(oq, p))
                    qw = _add(op, _rot(oq, qc))
                    if side == 0:
                        wb = pw
                        wa = qw
                    else:
                        wa = pw
                        wb = qw
    return best, wa, wb


@njit(cache=True, _nrt=False)
def _box_box(pa, qa, ea, pb, qb, eb, margin, normal, points, seps, ids):
    # B in A's frame
    t = _irot(qa, _sub(pb, pa))
    bx0 = _irot(qa, _axis(qb, 0))
    bx1 = _irot(qa, _axis(qb, 1))
    bx2 = _irot(qa, _axis(qb, 2))
    sa, ia, sga = _box_face_axes(t, bx0, bx1, bx2, ea, eb)
    # A in B's frame
    tb = _irot(qb, _sub(pa, pb))
    ax0 = _irot(qb, _axis(qa, 0))
    ax1 = _irot(qb, _axis(qa, 1))
    ax2 = _irot(qb, _axis(qa, 2))
    sb, ib, sgb = _box_face_axes(tb, ax0, ax1, ax2, eb, ea)
    # edge axes, in A's frame
    se = -1e300
    eu = (0.0, 0.0, 0.0)
    ei = -1
    ej = -1
    for i in range(3):
        for j in range(3):
            bj = bx0 if j == 0 else (bx1 if j == 1 else bx2)
            u = _cross(_unit(i, 1.0), bj)
            lu = _len(u)
            if lu < 1e-6:
                continue
            u = _scl(u, 1.0 / lu)
            tu = _dot(t, u)
            ra = ea[0] * abs(u[0]) + ea[1] * abs(u[1]) + ea[2] * abs(u[2])
            rb = (eb[0] * abs(_dot(bx0, u)) + eb[1] * abs(_dot(bx1, u))
                  + eb[2] * abs(_dot(bx2, u)))
            s = abs(tu) - ra - rb
            if s > se:
                se = s
                ei = i
                ej = j
                eu = _scl(u, _sgn(tu))
    kind = 0
    best = sa
    if sb > best + _SAT_TOL:
        kind = 1
        best = sb
    if ei >= 0 and se > best + _SAT_TOL:
        kind = 2
        best = se
    if kind == 0:
        nw = _rot(qa, _unit(ia, sga))
    elif kind == 1:
        nw = _neg(_rot(qb, _unit(ib, sgb)))
    else:
        nw = _rot(qa, eu)
    _set_normal(normal, nw)
    if best >= margin:
        return 0
    if kind == 2:
        # edge-edge: A's edge along e_ei (support toward +eu), B's along bx_ej (toward -eu)
        ca = (0.0, 0.0, 0.0)
        for k in range(3):
            if k != ei:
                ca = _mad(ca, _unit(k, 1.0), _sgn(_comp(eu, k)) * _comp(ea, k))
        cb = t
        for k in range(3):
            if k != ej:
                bk = bx0 if k == 0 else (bx1 if k == 1 else bx2)
                cb = _mad(cb, bk, -_sgn(_dot(bk, eu)) * _comp(eb, k))
        bj = bx0 if ej == 0 else (bx1 if ej == 1 else bx2)
        s, tt = _seg_closest(ca, _unit(ei, 1.0), _comp(ea, ei), cb, bj, _comp(eb, ej))
        # separated with the closest points at an edge's end: SAT is only a lower bound
        if best <= 0.0 or (abs(s) < _comp(ea, ei) and abs(tt) < _comp(eb, ej)):
            mid = _scl(_add(_mad(ca, _unit(ei, 1.0), s), _mad(cb, bj, tt)), 0.5)
            _put(points, seps, ids, 0, _add(pa, _rot(qa, mid)), best, 4000 + 3 * ei + ej)
            return 1
    else:
        # face contact, reduced in the reference box's frame, then moved to world
        if kind == 0:
            c = _face_cands(ea, ia, sga, t, bx0, bx1, bx2, eb, sa)
            n = _reduce(c, margin, _unit(ia, sga), points, seps, ids)
            fp = pa
            fq = qa
            idoff = 0
        else:
            c = _face_cands(eb, ib, sgb, tb, ax0, ax1, ax2, ea, sb)
            n = _reduce(c, margin, _unit(ib, sgb), points, seps, ids)
            fp = pb
            fq = qb
            idoff = 2000
        # exact when some point is as deep as the SAT axis says (a point pair at that distance
        # exists); else (apart, corner or edge outside the face) the exact distance below
        deep = 1e300
        for j in range(24):
            cj = c[j]
            if cj[6] > 0.5:
                deep = min(deep, cj[4])
        if best <= 0.0 or deep <= best + 1e-9:
            for j in range(n):
                w = _add(fp, _rot(fq, (points[j, 0], points[j, 1], points[j, 2])))
                points[j, 0] = w[0]
                points[j, 1] = w[1]
                points[j, 2] = w[2]
                ids[j] += idoff
            return n
    d, wa, wb = _box_box_exact(pa, qa, ea, pb, qb, eb)
    if d >= margin:
        return 0
    # closest features that SAT does not see (corner-corner, corner-edge): one exact point
    nw = _scl(_sub(wb, wa), 1.0 / d)
    _set_normal(normal, nw)
    _put(points, seps, ids, 0, _scl(_add(wa, wb), 0.5), d, 5000)
    return 1


# ------------------------------------------------------------------------------ box vs cylinder
@njit(cache=True, _nrt=False)
def _box_cyl(pa, qa, ea, yp, yq, R, H, margin, normal, points, seps, ids):
    """Box A vs cylinder B (an approximation, see the module docstring). Box frame."""
    cl = _irot(qa, _sub(yp, pa))
    al = _irot(qa, _axis(yq, 1))
    xl = _irot(qa, _axis(yq, 0))
    # sep(u) for u pointing from the box to the cylinder
    best = -1e300
    bu = (0.0, 1.0, 0.0)
    kind = 0   # 0 box face (index fi), 1 cylinder axis, 2 other
    fi = 0
    for i in range(3):
        u = _unit(i, _sgn(_comp(cl, i)))
        s = _box_cyl_sep(u, cl, al, R, H, ea)
        if s > best:
            best = s
            bu = u
            fi = i
    # cylinder axis
    u = _scl(al, _sgn(_dot(al, cl)))
    s = _box_cyl_sep(u, cl, al, R, H, ea)
    if s > best + _SAT_TOL:
        best = s
        bu = u
        kind = 1
    has_w = False
    wbox = (0.0, 0.0, 0.0)
    eb_s = -1e300
    eb_score = -1e300
    eb_u = bu
    eb_own = 1e300
    eb_w = wbox
    # each box edge: its exact closest direction to the cylinder (bisection along the edge;
    # covers corners, the curved side and the cap rims); an edge inside the cylinder gives the
    # radial direction from the cylinder's axis instead. The bisection (the costly part) runs
    # only for edges that can be the closest: first the one nearest the axis, then those whose
    # lower bound (distance to the axis segment - R) is below the best distance so far.
    e0 = 0
    lb0 = 1e300
    for e in range(12):
        lb, _, _, _ = _edge_axis(e, ea, cl, al, H, R)
        if lb < lb0:
            lb0 = lb
            e0 = e
    ubest = 1e300
    for it in range(13):
        e = e0 if it == 0 else it - 1
        if it > 0 and e == e0:
            continue
        ax = e // 4
        ec, eax, he = _box_edge(e, ea)
        lb, sa, dr, ldr = _edge_axis(e, ea, cl, al, H, R)
        bis = lb <= ubest + 1e-9 or ubest == 0.0
        if bis:
            ecl = _irot(yq, _sub(_add(pa, _rot(qa, ec)), yp))
            eal = _irot(yq, _axis(qa, ax))
            te = _seg_solid_t(ecl, eal, he, (R, H, R), True)
            pe = _mad(ecl, eal, te)
            qc = _clamp_cyl(pe, R, H)
            d = _irot(qa, _rot(yq, _sub(qc, pe)))
            ld = _len(d)
            if ld > 1e-9:
                ubest = min(ubest, ld)
                u = _scl(d, 1.0 / ld)
                s = _box_cyl_sep(u, cl, al, R, H, ea)
                # parallel edges can share a direction: the score 2s - own (own: the edge's
                # own distance) is largest, = the distance, for the closest edge exactly,
                # whose closest point is then the witness
                if 2.0 * s - ld > eb_score:
                    eb_score = 2.0 * s - ld
                    eb_s = s
                    eb_u = u
                    eb_own = ld
                    eb_w = _irot(qa, _sub(_add(yp, _rot(yq, pe)), pa))
                continue
            ubest = 0.0
        # the radial direction from the edge's point nearest the cylinder's axis
        if ldr > 1e-9:
            u = _scl(dr, 1.0 / ldr)
            s = _box_cyl_sep(u, cl, al, R, H, ea)
            # an edge left out of the bisection is farther than the best so far: its lower
            # bound stands for its own distance in the score
            own = s if bis else lb
            if 2.0 * s - own > eb_score:
                eb_score = 2.0 * s - own
                eb_s = s
                eb_u = u
                eb_own = own
                eb_w = _mad(ec, eax, sa)
    if ubest == 0.0:
        # the box enters the cylinder: also a cap rim against each crossing edge (normal along
        # edge x rim tangent) and the radial direction at each corner
        for e in range(12):
            ec, eax, he = _box_edge(e, ea)
            ecl = _irot(yq, _sub(_add(pa, _rot(qa, ec)), yp))
            eal = _irot(yq, _axis(qa, e // 4))
            for cap in range(2):
                yc = H if cap == 0 else -H
                if abs(eal[1]) < 1e-9:
                    continue
                te = (yc - ecl[1]) / eal[1]
                if abs(te) > he:
                    continue
                x = _mad(ecl, eal, te)
                rr = math.sqrt(x[0] * x[0] + x[2] * x[2])
                if rr < 1e-9:
                    continue
                tau = (-x[2] / rr, 0.0, x[0] / rr)
                u = _cross(eal, tau)
                lu = _len(u)
                if lu < 1e-9:
                    continue
                u = _irot(qa, _rot(yq, _scl(u, 1.0 / lu)))
                for sg in range(2):
                    uu = u if sg == 0 else _neg(u)
                    sv = _box_cyl_sep(uu, cl, al, R, H, ea)
                    if sv > eb_score:
                        eb_score = sv
                        eb_s = sv
                        eb_u = uu
                        eb_own = sv
                        xb = _irot(qa, _sub(_add(yp, _rot(yq, x)), pa))
                        eb_w = _mad(ec, eax, _dot(_sub(xb, ec), eax))
        # kinks of the two support functions: the cylinder's axis with a box axis removed (its
        # cap against a box edge), a box axis with the cylinder's axis removed
        for i in range(3):
            ei_ = _unit(i, 1.0)
            for m in range(2):
                if m == 0:
                    uu = _mad(al, ei_, -al[i])
                else:
                    uu = _mad(ei_, al, -al[i])
                lu = _len(uu)
                if lu < 1e-9:
                    continue
                uu = _scl(uu, _sgn(_dot(uu, cl)) / lu)
                sv = _box_cyl_sep(uu, cl, al, R, H, ea)
                if sv > eb_score:
                    eb_score = sv
                    eb_s = sv
                    eb_u = uu
                    eb_own = sv
                    eb_w = (ea[0] * _sgn(uu[0]), ea[1] * _sgn(uu[1]), ea[2] * _sgn(uu[2]))
        # the minimal translation often lies on a kink circle of the support functions (u
        # perpendicular to a box axis or to the cylinder's axis): a 1-D search on each
        for i in range(4):
            ax_ = al if i == 3 else _unit(i, 1.0)
            uu, sv = _circle_search(ax_, 0, cl, al, 0.0, R, H, ea)
            if sv > eb_score:
                eb_score = sv
                eb_s = sv
                eb_u = uu
                eb_own = sv
                eb_w = (ea[0] * _sgn(uu[0]), ea[1] * _sgn(uu[1]), ea[2] * _sgn(uu[2]))
        for k in range(8):
            v = (ea[0] if (k & 1) else -ea[0], ea[1] if (k & 2) else -ea[1],
                 ea[2] if (k & 4) else -ea[2])
            rv = _sub(v, cl)
            rv = _mad(rv, al, -_dot(rv, al))
            lr = _len(rv)
            if lr > 1e-9:
                uu = _scl(rv, -1.0 / lr)
                sv = _box_cyl_sep(uu, cl, al, R, H, ea)
                if sv > eb_score:
                    eb_score = sv
                    eb_s = sv
                    eb_u = uu
                    eb_own = sv
                    eb_w = v
    if eb_s > best + _SAT_TOL:
        best = eb_s
        bu = eb_u
        kind = 2
        wbox = eb_w
        has_w = eb_own - eb_s < 1e-6
    # axis x box edges
    for i in range(3):
        u = _cross(al, _unit(i, 1.0))
        lu = _len(u)
        if lu > 1e-6:
            u = _scl(u, _sgn(_dot(u, cl)) / lu)
            s = _box_cyl_sep(u, cl, al, R, H, ea)
            if s > best + _SAT_TOL:
                best = s
                bu = u
                kind = 2
                has_w = False
    nw = _rot(qa, bu)
    _set_normal(normal, nw)
    if best >= margin:
        return 0
    if kind == 0:
        c = _box_cyl_face_cands(ea, fi, bu, cl, al, xl, R, H)
        n = _reduce(c, margin, bu, points, seps, ids)
        if n > 0:
            _points_to_world(points, n, pa, qa)
            return n
    elif kind == 1:
        c = _box_cyl_cap_cands(ea, bu, cl, al, R, H)
        n = _reduce(c, margin, bu, points, seps, ids)
        if n > 0:
            _points_to_world(points, n, pa, qa)
            return n
    # one point: the cylinder's deepest point toward the box, and its image on the box's side
    au = _dot(al, bu)
    sc = -_sgn(au) if abs(au) > 1e-9 else 0.0
    d = _mad(_neg(bu), al, au)
    ld = _len(d)
    qc = _mad(cl, al, sc * H)
    if ld > 1e-9:
        qc = _mad(qc, d, R / ld)
    mid = _mad(qc, bu, -0.5 * best)
    if has_w:
        mid = _mad(wbox, bu, 0.5 * best)
    elif kind == 2:
        # the box's support toward the cylinder (a corner, or an edge's middle)
        vb = (ea[0] * _sgn(bu[0]) if abs(bu[0]) > 1e-9 else 0.0,
              ea[1] * _sgn(bu[1]) if abs(bu[1]) > 1e-9 else 0.0,
              ea[2] * _sgn(bu[2]) if abs(bu[2]) > 1e-9 else 0.0)
        mid = _mad(vb, bu, 0.5 * best)
    _put(points, seps, ids, 0, _add(pa, _rot(qa, mid)), best, 300 + kind)
    return 1


@njit(cache=True, _nrt=False)
def _box_edge(e, ea):
    """Box edge e (0..11, along local axis e // 4) in the box frame: (centre, axis, half)."""
    ax = e // 4
    k = e % 4
    o1 = (ax + 1) % 3
    o2 = (ax + 2) % 3
    s1 = _comp(ea, o1) if (k & 1) else -_comp(ea, o1)
    s2 = _comp(ea, o2) if (k & 2) else -_comp(ea, o2)
    return _add(_unit(o1, s1), _unit(o2, s2)), _unit(ax, 1.0), _comp(ea, ax)


@njit(cache=True, _nrt=False)
def _edge_axis(e, ea, cl, al, H, R):
    """Box edge e vs the cylinder's axis segment (box frame): (lower bound of the edge's distance
    to the cylinder, edge parameter, radial vector from the edge toward the axis, its length)."""
    ec, eax, he = _box_edge(e, ea)
    sa, sb = _seg_closest(ec, eax, he, cl, al, H)
    d = _sub(_mad(cl, al, sb), _mad(ec, eax, sa))
    lb = _len(d) - R
    d = _mad(d, al, -_dot(d, al))
    return lb, sa, d, _len(d)


@njit(cache=True, _nrt=False)
def _circle_search(c, kind, cl, al, h, R, H, ea):
    """Best separation of a box (kind 0, extents ea) or a segment (kind 1, half length h) from
    the cylinder on the great circle perpendicular to c: 36 samples, then a golden-section
    search around the best. Returns (direction, separation)."""
    b1 = _perp_fallback(c)
    b2 = _cross(c, b1)
    bt = 0.0
    bs = -1e300
    step = 2.0 * math.pi / 36.0
    for k in range(36):
        th = k * step
        sv = _pair_sep(kind, _circ(b1, b2, th), cl, al, h, R, H, ea)
        if sv > bs:
            bs = sv
            bt = th
    lo = bt - step
    hi = bt + step
    g = 0.5 * (math.sqrt(5.0) - 1.0)
    x1 = hi - g * (hi - lo)
    x2 = lo + g * (hi - lo)
    f1 = _pair_sep(kind, _circ(b1, b2, x1), cl, al, h, R, H, ea)
    f2 = _pair_sep(kind, _circ(b1, b2, x2), cl, al, h, R, H, ea)
    for _ in range(40):
        if f1 > f2:
            hi = x2
            x2 = x1
            f2 = f1
            x1 = hi - g * (hi - lo)
            f1 = _pair_sep(kind, _circ(b1, b2, x1), cl, al, h, R, H, ea)
        else:
            lo = x1
            x1 = x2
            f1 = f2
            x2 = lo + g * (hi - lo)
            f2 = _pair_sep(kind, _circ(b1, b2, x2), cl, al, h, R, H, ea)
    th = 0.5 * (lo + hi)
    u = _add(_scl(b1, math.cos(th)), _scl(b2, math.sin(th)))
    sv = _pair_sep(kind, u, cl, al, h, R, H, ea)
    if bs > sv:
        return _add(_scl(b1, math.cos(bt)), _scl(b2, math.sin(bt))), bs
    return u, sv


@njit(cache=True, _nrt=False)
def _circ(b1, b2, th):
    return _add(_scl(b1, math.cos(th)), _scl(b2, math.sin(th)))


@njit(cache=True, _nrt=False)
def _pair_sep(kind, u, cl, al, h, R, H, ea):
    if kind == 0:
        return _box_cyl_sep(u, cl, al, R, H, ea)
    return _cyl_min(u, R, H) - (_dot(cl, u) + h * abs(_dot(al, u)))


@njit(cache=True, _nrt=False)
def _box_cyl_sep(u, cl, al, R, H, ea):
    au = abs(_dot(al, u))
    mn = _dot(cl, u) - H * au - R * math.sqrt(max(0.0, 1.0 - au * au))
    mx = ea[0] * abs(u[0]) + ea[1] * abs(u[1]) + ea[2] * abs(u[2])
    return mn - mx


@njit(cache=True, _nrt=False)
def _box_cyl_face_cands(ea, fi, u, cl, al, xl, R, H):
    """Box face (outward u, index fi) vs the cylinder's feature toward it: its bottom line
    clipped to the face, the lower cap's rim every 90° inside the face, and the face corners
    over the cap disk (cap-on-face)."""
    ei = _comp(ea, fi)
    si = _comp(u, fi)
    p = (fi + 1) % 3
    q = (fi + 2) % 3
    ep = _comp(ea, p)
    eq = _comp(ea, q)
    nu = _neg(u)
    au = _dot(al, u)
    # rim direction toward -u
    pd = _mad(nu, al, -_dot(nu, al))
    lp = _len(pd)
    if lp > 1e-4:
        r0 = _scl(pd, 1.0 / lp)
    else:
        r0 = _mad(xl, al, -_dot(xl, al))
        r0 = _scl(r0, 1.0 / _len(r0))
    r1 = _cross(al, r0)
    lo = 1.0 if au >= 0.0 else -1.0           # lower cap (toward the box): -sign(au) along al
    lo = -lo
    clo = _mad(cl, al, lo * H)
    chi = _mad(cl, al, -lo * H)
    b0 = _mad(clo, r0, R)
    b1 = _mad(chi, r0, R)
    # clip the bottom line b0-b1 to the face rectangle
    t0 = 0.0
    t1 = 1.0
    d = _sub(b1, b0)
    for k in range(2):
        ax = p if k == 0 else q
        e = ep if k == 0 else eq
        pc = _comp(b0, ax)
        dc = _comp(d, ax)
        if abs(dc) < 1e-12:
            if abs(pc) > e + _FEATURE_TOL:
                t0 = 1.0
                t1 = 0.0
        else:
            ta = (-e - pc) / dc
            tb = (e - pc) / dc
            if ta > tb:
                ta, tb = tb, ta
            t0 = max(t0, ta)
            t1 = min(t1, tb)
    okl = t0 <= t1
    l0 = _mad(b0, d, t0)
    l1 = _mad(b0, d, t1)
    c0 = _face_pt_cand(okl, l0, u, si, fi, ei, 0)
    c1 = _face_pt_cand(okl and t1 - t0 > 1e-9, l1, u, si, fi, ei, 1)
    g1 = _mad(clo, r1, R)
    g2 = _mad(clo, r0, -R)
    g3 = _mad(clo, r1, -R)
    c2 = _face_pt_cand(_in_rect(g1, p, q, ep, eq), g1, u, si, fi, ei, 2)
    c3 = _face_pt_cand(_in_rect(g2, p, q, ep, eq), g2, u, si, fi, ei, 3)
    c4 = _face_pt_cand(_in_rect(g3, p, q, ep, eq), g3, u, si, fi, ei, 4)
    # face corners over the lower cap disk (only when the cap faces the box)
    capf = abs(au) > 0.5
    k0 = _face_corner_cand(capf, ep, eq, ei, p, q, fi, si, u, clo, al, R, 5)
    k1 = _face_corner_cand(capf, -ep, eq, ei, p, q, fi, si, u, clo, al, R, 6)
    k2 = _face_corner_cand(capf, -ep, -eq, ei, p, q, fi, si, u, clo, al, R, 7)
    k3 = _face_corner_cand(capf, ep, -eq, ei, p, q, fi, si, u, clo, al, R, 8)
    # the deepest point of the cylinder, moved onto the face if it lies past the face's edge:
    # the manifold always holds the SAT depth
    bd = b0 if _dot(b0, u) <= _dot(b1, u) else b1
    bc = _add(_add(_unit(p, _clamp(_comp(bd, p), -ep, ep)),
                   _unit(q, _clamp(_comp(bd, q), -eq, eq))), _unit(fi, _comp(bd, fi)))
    spd = si * _comp(bd, fi) - ei
    k4 = _cand(True, _mad(bc, u, -0.5 * spd), spd, 209)
    return (c0, c1, c2, c3, c4, k0, k1, k2, k3, k4)


@njit(cache=True, _nrt=False)
def _in_rect(v, p, q, ep, eq):
    return abs(_comp(v, p)) <= ep + _FEATURE_TOL and abs(_comp(v, q)) <= eq + _FEATURE_TOL


@njit(cache=True, _nrt=False)
def _face_pt_cand(ok, v, u, si, fi, ei, fid):
    sp = si * _comp(v, fi) - ei
    return _cand(ok, _mad(v, u, -0.5 * sp), sp, 200 + fid)


@njit(cache=True, _nrt=False)
def _face_corner_cand(capf, x, y, ei, p, q, fi, si, u, cc, al, R, fid):
    pt = _add(_add(_unit(p, x), _unit(q, y)), _unit(fi, si * ei))
    ok = False
    lam = 0.0
    un = _dot(u, al)
    if capf and abs(un) > 1e-9:
        lam = _dot(_sub(cc, pt), al) / un
        hit = _mad(pt, u, lam)
        rv = _sub(hit, cc)
        rv = _mad(rv, al, -_dot(rv, al))
        ok = _len(rv) <= R
    return _cand(ok, _mad(pt, u, 0.5 * lam), lam, 200 + fid)


@njit(cache=True, _nrt=False)
def _box_cyl_cap_cands(ea, u, cl, al, R, H):
    """The cylinder's cap (normal -u, facing the box) vs the box corners over the disk."""
    cc = _mad(cl, al, -_sgn(_dot(al, u)) * H)
    plane = _dot(cc, u)
    return (_cap_corner_cand(ea, 0, u, cc, al, R, plane),
            _cap_corner_cand(ea, 1, u, cc, al, R, plane),
            _cap_corner_cand(ea, 2, u, cc, al, R, plane),
            _cap_corner_cand(ea, 3, u, cc, al, R, plane),
            _cap_corner_cand(ea, 4, u, cc, al, R, plane),
            _cap_corner_cand(ea, 5, u, cc, al, R, plane),
            _cap_corner_cand(ea, 6, u, cc, al, R, plane),
            _cap_corner_cand(ea, 7, u, cc, al, R, plane),
            _cap_deepest_cand(ea, u, cc, al, R, plane))


@njit(cache=True, _nrt=False)
def _cap_deepest_cand(ea, u, cc, al, R, plane):
    """The box's deepest corner, moved radially over the cap disk if it lies outside: the
    manifold always holds the SAT depth."""
    v = (ea[0] * _sgn(u[0]), ea[1] * _sgn(u[1]), ea[2] * _sgn(u[2]))
    sp = plane - _dot(v, u)
    rv = _sub(v, cc)
    ax = _dot(rv, al)
    rv = _mad(rv, al, -ax)
    lr = _len(rv)
    if lr > R:
        v = _add(_mad(cc, al, ax), _scl(rv, R / lr))
    return _cand(True, _mad(v, u, 0.5 * sp), sp, 259)


@njit(cache=True, _nrt=False)
def _cap_corner_cand(ea, k, u, cc, al, R, plane):
    v = (ea[0] if (k & 1) else -ea[0], ea[1] if (k & 2) else -ea[1], ea[2] if (k & 4) else -ea[2])
    sp = plane - _dot(v, u)
    rv = _sub(v, cc)
    rv = _mad(rv, al, -_dot(rv, al))
    ok = _len(rv) <= R + _FEATURE_TOL
    return _cand(ok, _mad(v, u, 0.5 * sp), sp, 250 + k)


# ------------------------------------------------------------------------------ entry point
@njit(cache=True, _nrt=False)
def _seg_of(shape, dims, p, q):
    """(centre, unit axis, half length, radius) of a sphere / capsule / cylinder-as-capsule."""
    a = _axis(q, 1)
    if shape == SHAPE_SPHERE:
        return p, a, 0.0, dims[0]
    return p, a, dims[1], dims[0]


@njit(cache=True, _nrt=False)
def _collide_sorted(sa, da, pa, qa, sb, db, pb, qb, margin, normal, points, seps, ids):
    if sa == SHAPE_PLANE and sb == SHAPE_PLANE:
        _set_normal(normal, _axis(qa, 1))
        return 0
    if sb == SHAPE_PLANE:
        pn = _axis(qb, 1)
        if sa == SHAPE_BOX:
            return _box_plane(pa, qa, da, pb, pn, margin, normal, points, seps, ids)
        c, a, h, r = _seg_of(sa, da, pa, qa)
        return _seg_plane(c, a, h, r, pb, pn, margin, normal, points, seps, ids)
    if sa == SHAPE_PLANE:   # sb is a cylinder
        return _plane_cyl(pa, _axis(qa, 1), pb, qb, db[0], db[1], margin, normal, points,
                          seps, ids)
    if sa == SHAPE_BOX:
        if sb == SHAPE_BOX:
            return _box_box(pa, qa, da, pb, qb, db, margin, normal, points, seps, ids)
        return _box_cyl(pa, qa, da, pb, qb, db[0], db[1], margin, normal, points, seps, ids)
    c, a, h, r = _seg_of(sa, da, pa, qa)
    if sb == SHAPE_BOX:
        return _seg_box(c, a, h, r, pb, qb, db, margin, normal, points, seps, ids)
    if sb == SHAPE_CYLINDER and sa != SHAPE_CYLINDER:
        return _seg_cyl(c, a, h, r, pb, qb, db[0], db[1], margin, normal, points, seps, ids)
    c2, a2, h2, r2 = _seg_of(sb, db, pb, qb)
    return _seg_seg(c, a, h, r, c2, a2, h2, r2, margin, normal, points, seps, ids)


@njit(cache=True, _nrt=False)
def collide(shape_a, dims_a, pos_a, quat_a, shape_b, dims_b, pos_b, quat_b, margin,
            normal, points, seps, ids):
    """Contact manifold of shapes A and B.

    shape_*: SHAPE_* ints from ``_layout``. dims_*: (3,) m (sphere r; capsule r, half segment;
    box half extents; cylinder r, half height; plane unused). pos_*: (3,) m. quat_*: (4,) (x, y,
    z, w). margin: m, speculative distance. Outputs written in place: normal (3,) unit, from A
    to B; points (4, 3) m, midway between the surfaces; seps (4,) m, negative = penetrating;
    ids (4,) feature ids. Returns the number of points (0..4; capsules and spheres at most 2).
    """
    da = (float(dims_a[0]), float(dims_a[1]), float(dims_a[2]))
    db = (float(dims_b[0]), float(dims_b[1]), float(dims_b[2]))
    pa = (float(pos_a[0]), float(pos_a[1]), float(pos_a[2]))
    pb = (float(pos_b[0]), float(pos_b[1]), float(pos_b[2]))
    qa = (float(quat_a[0]), float(quat_a[1]), float(quat_a[2]), float(quat_a[3]))
    qb = (float(quat_b[0]), float(quat_b[1]), float(quat_b[2]), float(quat_b[3]))
    if shape_a > shape_b:
        n = _collide_sorted(shape_b, db, pb, qb, shape_a, da, pa, qa, margin, normal, points,
                            seps, ids)
        normal[0] = -normal[0]
        normal[1] = -normal[1]
        normal[2] = -normal[2]
        return n
    return _collide_sorted(shape_a, da, pa, qa, shape_b, db, pb, qb, margin, normal, points,
                           seps, ids)
