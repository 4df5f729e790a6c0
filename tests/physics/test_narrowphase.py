"""Narrow phase (``ae3d.physics._kernels_collide.collide``) against the brute-force reference.

For every pair of shapes, random poses (seeded) are placed from 0.3 m of penetration to just past
the speculative margin, and the manifold is compared with ``tests/reference.py`` (support-function
maximisation, exact to ~1e-8 m on these sizes):

- separated within the margin: the smallest separation equals the reference distance;
- overlapping: the depth equals the reference's minimal translation distance;
- the normal is an optimal axis: the reference's separation along our normal equals its optimum;
- nothing is reported past the margin, nothing is missed within it;
- the witness points (point ∓ normal·sep/2) lie on the surfaces (deepest point) or inside them;
- counts obey the caps (sphere 1, capsule 2, box / cylinder 4);
- feature ids stay the same under tiny motions; swapping A and B flips the normal, keeps the seps.

Tolerances: 1e-6 m where the pair is exact (the reference is good to ~1e-8 m). Box-box and
capsule-box depths may exceed the minimal translation by up to 0.1 mm (faces are preferred to
edges unless an edge is better by _SAT_TOL). Witness points to 1 mm (a face contact may sit up to
_FEATURE_TOL outside the face); where a box or a capsule's segment is inside a cylinder, the points
are approximate and not checked. Cylinder-cylinder is capsule-capsule (a test below).
"""

import functools

import numpy as np
import pytest
import reference as ref

from ae3d.physics._kernels_collide import _SAT_TOL, collide
from ae3d.physics._layout import SHAPE_BOX, SHAPE_CAPSULE, SHAPE_CYLINDER, SHAPE_PLANE, SHAPE_SPHERE

MARGIN = 0.02
N_POSES = 200
SEP_TOL = 1e-6
PT_TOL = 1e-3

S, C, B, P, Y = SHAPE_SPHERE, SHAPE_CAPSULE, SHAPE_BOX, SHAPE_PLANE, SHAPE_CYLINDER
PAIRS = [(S, S), (S, C), (S, B), (S, P), (S, Y), (C, C), (C, B), (C, P), (C, Y), (B, B), (B, P),
         (B, Y), (P, Y)]
CAP = {S: 1, C: 2, B: 4, Y: 4, P: 4}
# depth tolerance (m) for overlapping pairs, where not SEP_TOL: box-box and capsule-box prefer a
# face to an edge within _SAT_TOL; a box or a capsule's segment inside a cylinder ends in a
# golden-section search on a kink circle (measured 5e-9 m, one pose in 300 at 5e-6 m)
PEN_TOL = {(B, B): _SAT_TOL + SEP_TOL, (C, B): _SAT_TOL + SEP_TOL, (C, Y): 2e-5, (B, Y): 2e-5}


def exact_points(pair, a, d):
    """Are the witness points exact here? Not where a capsule's segment enters a cylinder or a
    box overlaps one (the point then sits on the box's / the segment's deepest feature)."""
    if pair == (C, Y):
        return d > -a[1][0] + 1e-9
    if pair == (B, Y):
        return d >= 0.0
    return True


def run(a, b, margin=MARGIN):
    n = np.zeros(3)
    pts = np.zeros((4, 3))
    seps = np.zeros(4)
    ids = np.zeros(4, np.int64)
    k = collide(a[0], a[1], a[2], a[3], b[0], b[1], b[2], b[3], margin, n, pts, seps, ids)
    return k, n, pts[:k].copy(), seps[:k].copy(), ids[:k].copy()


def qmul(p, q):
    """Quaternion product p*q, (x, y, z, w)."""
    px, py, pz, pw = p
    qx, qy, qz, qw = q
    return np.array([pw * qx + px * qw + py * qz - pz * qy, pw * qy - px * qz + py * qw + pz * qx,
                     pw * qz + px * qy - py * qx + pz * qw, pw * qw - px * qx - py * qy - pz * qz])


def pose(kind, dims, pos, quat):
    return (kind, np.asarray(dims, float), np.asarray(pos, float), np.asarray(quat, float))


@functools.lru_cache(maxsize=None)
def cases(ka, kb):
    """N_POSES random poses of the pair with the reference signed distance and our manifold."""
    rng = np.random.default_rng(1000 + 10 * ka + kb)
    out = []
    for _ in range(N_POSES):
        if rng.random() < 0.65:
            target = rng.uniform(-0.06, MARGIN + 0.005)
        else:
            target = rng.uniform(-0.3, -0.06)
        a, b = ref.place_pair(ka, kb, target, rng)
        d, u = ref.signed_distance(a, b, np.random.default_rng(7))
        out.append((a, b, d, u, run(a, b)))
    return out


def pair_id(p):
    names = {S: "sphere", C: "capsule", B: "box", P: "plane", Y: "cylinder"}
    return f"{names[p[0]]}-{names[p[1]]}"


@pytest.mark.parametrize("pair", PAIRS, ids=pair_id)
def test_distance_and_depth_match_reference(pair):
    pen_tol = PEN_TOL.get(pair, SEP_TOL)
    n_sep = n_pen = 0
    for _a, _b, d, _, (k, n, _pts, seps, _ids) in cases(*pair):
        assert np.all(np.isfinite(n)) and abs(np.linalg.norm(n) - 1.0) < 1e-9
        assert k <= min(CAP[pair[0]], CAP[pair[1]])
        if d > MARGIN + SEP_TOL:
            assert k == 0, f"reported {seps} past the margin (reference {d})"
            continue
        if d < MARGIN - SEP_TOL:
            assert k >= 1, f"missed a contact at {d} m"
        if k == 0:
            continue
        err = seps.min() - d
        if d >= 0.0:
            n_sep += 1
            assert abs(err) < SEP_TOL, f"separation {seps.min()} vs reference {d}"
        else:
            n_pen += 1
            assert -pen_tol < err < SEP_TOL, f"depth {seps.min()} vs reference {d}"
    assert n_sep >= 5
    assert n_pen >= 20


@pytest.mark.parametrize("pair", PAIRS, ids=pair_id)
def test_normal_is_optimal(pair):
    """The reference's separation along our normal equals the reference's best separation (our
    normal is a minimal-translation / separating axis); for separated pairs, also the direction."""
    tol = PEN_TOL.get(pair, SEP_TOL)
    for a, b, d, u, (k, n, _pts, _seps, _ids) in cases(*pair):
        if k == 0:
            continue
        along = ref.sep_along(a, b, n[None])[0]
        assert along > d - tol, f"normal {n} gives {along}, best {d} along {u}"
        if d > 1e-4 and P not in pair:
            # the closest points of separated solids are unique up to flat contacts, whose
            # normal is unique too
            assert np.dot(n, u) > 1.0 - 1e-6, f"normal {n} vs reference {u}"


@pytest.mark.parametrize("pair", PAIRS, ids=pair_id)
def test_points_lie_on_the_surfaces(pair):
    for a, b, d, _, (k, n, pts, seps, _ids) in cases(*pair):
        if k == 0 or not exact_points(pair, a, d):
            continue
        deepest = int(np.argmin(seps))
        for j in range(k):
            pa = pts[j] - 0.5 * seps[j] * n
            pb = pts[j] + 0.5 * seps[j] * n
            da = ref.sdf(a, pa)
            db = ref.sdf(b, pb)
            if j == deepest:
                assert abs(da) < PT_TOL and abs(db) < PT_TOL, (j, da, db)
            else:
                # another point of the manifold: on or inside both solids
                assert da < PT_TOL and db < PT_TOL, (j, da, db)


@pytest.mark.parametrize("pair", PAIRS, ids=pair_id)
def test_swap_flips_the_normal(pair):
    for a, b, d, _, (k, n, pts, seps, ids) in cases(*pair)[:100]:
        k2, n2, pts2, seps2, ids2 = run(b, a)
        if pair[0] != pair[1]:
            # the shapes are sorted internally: the same manifold, the normal flipped
            assert k2 == k
            assert np.array_equal(n2, -n)
            assert np.array_equal(seps2, seps) and np.array_equal(ids2, ids)
            assert np.array_equal(pts2, pts)
        else:
            # same kinds: A and B really change roles (a reference face of the other box...)
            assert (k2 == 0) == (k == 0)
            if k:
                tol = PEN_TOL.get(pair, SEP_TOL)
                assert abs(seps2.min() - seps.min()) < tol
                assert ref.sep_along(b, a, n2[None])[0] > d - tol


@pytest.mark.parametrize("pair", PAIRS, ids=pair_id)
def test_feature_ids_stable_under_tiny_motion(pair):
    rng = np.random.default_rng(99)
    checked = 0
    for a, b, _d, _, (k, _n, _pts, seps, ids) in cases(*pair):
        if k == 0 or np.any(np.abs(seps - MARGIN) < 1e-5):
            continue
        if np.linalg.norm(b[2] - a[2]) < 1e-5:
            continue        # coincident centres: an exact tie, broken by a fixed sign that flips
        q = qmul(np.append(rng.normal(size=3) * 0.5e-7, 1.0), b[3])   # ~1e-7 rad
        q /= np.linalg.norm(q)
        b2 = (b[0], b[1], b[2] + rng.normal(size=3) * 1e-7, q)
        k2, _, _, _, ids2 = run(a, b2)
        assert k2 == k and sorted(ids2) == sorted(ids), (ids, ids2)
        checked += 1
    assert checked > 50


# ------------------------------------------------------------------------------ resting cases
Q0 = (0.0, 0.0, 0.0, 1.0)
QZ90 = (0.0, 0.0, np.sqrt(0.5), np.sqrt(0.5))     # local y -> world -x
QX90 = (np.sqrt(0.5), 0.0, 0.0, np.sqrt(0.5))     # local y -> world +z
GROUND = pose(P, (0, 0, 0), (0, 0, 0), Q0)


def test_lying_capsule_on_ground_and_on_a_box_gives_two_points():
    cap = pose(C, (0.1, 0.4, 0), (0, 0.099, 0), QZ90)
    k, n, pts, seps, ids = run(cap, GROUND)
    assert k == 2 and np.allclose(n, (0, -1, 0))
    assert np.allclose(sorted(pts[:, 0]), (-0.4, 0.4)) and np.allclose(seps, -0.001)
    box = pose(B, (1.0, 0.5, 1.0), (0, -0.5, 0), Q0)
    k, n, pts, seps, ids = run(cap, box)
    assert k == 2 and np.allclose(n, (0, -1, 0)) and np.allclose(seps, -0.001)
    assert np.allclose(sorted(pts[:, 0]), (-0.4, 0.4))
    # swapped: the normal points from the box up to the capsule
    k, n, pts, seps, ids = run(box, cap)
    assert k == 2 and np.allclose(n, (0, 1, 0))


def test_standing_capsule_gives_one_point():
    cap = pose(C, (0.1, 0.4, 0), (0.0, 0.499, 0), Q0)
    box = pose(B, (1.0, 0.5, 1.0), (0, -0.5, 0), Q0)
    for other in (GROUND, box):
        k, n, pts, seps, ids = run(cap, other)
        assert k == 1 and np.allclose(seps, -0.001) and np.allclose(pts[0], (0, -0.0005, 0))


def test_box_stack_gives_four_stable_points():
    lower = pose(B, (0.5, 0.5, 0.5), (0, 0.5, 0), Q0)
    upper = pose(B, (0.5, 0.5, 0.5), (0, 1.499, 0), Q0)
    k, n, pts, seps, ids = run(lower, upper)
    assert k == 4 and np.allclose(n, (0, 1, 0)) and np.allclose(seps, -0.001)
    assert np.allclose(np.sort(np.abs(pts[:, [0, 2]]).ravel()), 0.5)
    # stack jitter: 0.1 mm and 1e-4 rad must keep the same features
    rng = np.random.default_rng(5)
    for _ in range(50):
        w = rng.normal(size=3) * 5e-5
        q = np.array([w[0], w[1], w[2], 1.0])
        q /= np.linalg.norm(q)
        jig = pose(B, (0.5, 0.5, 0.5), np.array((0, 1.499, 0)) + rng.normal(size=3) * 1e-4, q)
        k2, n2, _, seps2, ids2 = run(lower, jig)
        assert k2 == 4 and sorted(ids2) == sorted(ids)
    k, n, pts, seps, ids = run(lower, GROUND)
    assert k == 4 and np.allclose(seps, 0.0, atol=1e-12)


def test_box_on_box_rotated_and_offset():
    lower = pose(B, (1.0, 0.25, 1.0), (0, 0.25, 0), Q0)
    s = np.sin(np.pi / 8)
    upper = pose(B, (0.3, 0.2, 0.3), (0.2, 0.699, 0.1), (0, s, 0, np.cos(np.pi / 8)))
    k, n, pts, seps, ids = run(lower, upper)
    assert k == 4 and np.allclose(n, (0, 1, 0)) and np.allclose(seps, -0.001)
    assert len(set(ids)) == 4


def test_logs_as_seats():
    log = pose(Y, (0.2, 1.0, 0), (0, 0.2, 0), QZ90)           # lying along x, top at y = 0.4
    k, n, pts, seps, ids = run(log, GROUND)
    assert k == 2 and np.allclose(n, (0, -1, 0)) and np.allclose(seps, -0.0, atol=1e-12)
    assert np.allclose(sorted(pts[:, 0]), (-1.0, 1.0))
    # a box sitting on it: the log's top line, clipped to the box's bottom face
    box = pose(B, (0.3, 0.1, 0.2), (0.1, 0.499, 0), Q0)
    k, n, pts, seps, ids = run(box, log)
    assert k == 2 and np.allclose(n, (0, -1, 0)) and np.allclose(seps, -0.001)
    assert np.allclose(sorted(pts[:, 0]), (-0.2, 0.4)) and np.allclose(pts[:, 2], 0.0)
    # a capsule sitting across it (a thigh on a seat): one point on top
    thigh = pose(C, (0.08, 0.2, 0), (0.3, 0.479, 0.0), QX90)
    k, n, pts, seps, ids = run(thigh, log)
    assert k == 1 and np.allclose(n, (0, -1, 0)) and np.allclose(seps, -0.001)
    assert np.allclose(pts[0], (0.3, 0.3995, 0.0))
    # a capsule lying along it: two points
    along = pose(C, (0.08, 0.3, 0), (0.2, 0.479, 0.0), QZ90)
    k, n, pts, seps, ids = run(along, log)
    assert k == 2 and np.allclose(n, (0, -1, 0)) and np.allclose(seps, -0.001)
    # a standing log on the ground: 4 points on its rim
    stand = pose(Y, (0.2, 0.5, 0), (0, 0.499, 0), Q0)
    k, n, pts, seps, ids = run(GROUND, stand)
    assert k == 4 and np.allclose(n, (0, 1, 0)) and np.allclose(seps, -0.001)
    assert np.allclose(np.hypot(pts[:, 0], pts[:, 2]), 0.2)


def test_box_and_capsule_on_a_standing_log():
    stand = pose(Y, (0.3, 0.5, 0), (0, 0.5, 0), Q0)          # its top cap at y = 1
    small = pose(B, (0.1, 0.1, 0.1), (0.05, 1.099, 0), Q0)    # the box's corners over the cap
    big = pose(B, (0.5, 0.1, 0.5), (0.0, 1.099, 0), Q0)       # the cap's rim under the box
    for box, radius in ((small, None), (big, 0.3)):
        k, n, pts, seps, ids = run(box, stand)
        assert k == 4 and np.allclose(n, (0, -1, 0)) and np.allclose(seps, -0.001)
        assert np.allclose(pts[:, 1], 0.9995)
        if radius is not None:
            assert np.allclose(np.hypot(pts[:, 0], pts[:, 2]), radius)
        k2, n2, pts2, seps2, ids2 = run(stand, box)
        assert k2 == 4 and np.array_equal(n2, -n) and np.array_equal(ids2, ids)
    cap = pose(C, (0.05, 0.2, 0), (0.0, 1.049, 0), QZ90)     # lying on the cap
    k, n, pts, seps, ids = run(cap, stand)
    assert k == 2 and np.allclose(n, (0, -1, 0)) and np.allclose(seps, -0.001)
    assert np.allclose(sorted(pts[:, 0]), (-0.2, 0.2))


def test_coincident_centres_are_finite():
    shapes = [pose(S, (0.3, 0, 0), (1, 2, 3), Q0), pose(C, (0.2, 0.5, 0), (1, 2, 3), QZ90),
              pose(B, (0.3, 0.4, 0.5), (1, 2, 3), Q0), pose(Y, (0.3, 0.5, 0), (1, 2, 3), QX90),
              pose(P, (0, 0, 0), (1, 2, 3), Q0)]
    for a in shapes:
        for b in shapes:
            if a[0] == P and b[0] == P:
                continue
            k, n, pts, seps, ids = run(a, b)
            assert k >= 1, (a[0], b[0])
            assert np.all(np.isfinite(n)) and abs(np.linalg.norm(n) - 1.0) < 1e-12
            assert np.all(np.isfinite(pts)) and np.all(np.isfinite(seps)) and seps.min() < 0


def test_cylinder_pair_is_capsule_like():
    """Cylinder-cylinder is approximated as capsule-capsule: exact on the curved sides."""
    a = pose(Y, (0.2, 1.0, 0), (0, 0.2, 0), QZ90)
    b = pose(Y, (0.2, 1.0, 0), (0, 0.599, 0), QX90)
    k, n, pts, seps, ids = run(a, b)
    assert k == 1 and np.allclose(n, (0, 1, 0)) and np.allclose(seps, -0.001)


def test_deterministic_and_no_output_past_count():
    qa = np.array((0.1, 0.2, 0.3, 0.9))
    qb = np.array((0.5, 0.1, 0.2, 0.8))
    a = pose(B, (0.3, 0.2, 0.4), (0.1, 0.2, 0.3), qa / np.linalg.norm(qa))
    b = pose(B, (0.2, 0.5, 0.1), (0.3, 0.6, 0.2), qb / np.linalg.norm(qb))
    r1 = run(a, b)
    r2 = run(a, b)
    for x, y in zip(r1[1:], r2[1:], strict=True):
        assert np.array_equal(x, y)
