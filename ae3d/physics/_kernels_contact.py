"""Contact manifolds and the soft-step contact solver.

Storage. A manifold is a row of ``mi`` (int64) and ``mf`` (float64), layout in ``_layout``
(``M_*``, ``P_*``): the pair (A < B), up to 4 points with feature ids, the normal from A to B,
two tangents, and per point the anchors, effective masses and accumulated impulses. Rows are kept
sorted by the pair key, so the step matches this step's candidate pairs to last step's manifolds
by a single merge, and each new point takes the normal impulse of the old point with the same
feature id (warm starting). The friction impulse is carried as a world vector and projected onto
the new tangents, so a turning tangent basis loses nothing.

Solver (Box2D v3's soft step; Catto, "Solver2D" and box2d/src/contact_solver.c). Per point with
normal n, anchors rA, rB, separation s and relative normal velocity vn:

    s > 0 (speculative):  bias = s/h, mass scale 1, impulse scale 0
    s <= 0, bias pass:    bias = max(biasRate·s, -contact_speed), soft mass/impulse scales
    relax pass:           bias = 0, rigid
    Δλ = -m_n·massScale·(vn + bias) - impulseScale·λ;  λ = max(λ + Δλ, 0)

The separation during the sub-steps is ``s = s0 + n·(Δp_B - Δp_A + Δθ_B×r_B - Δθ_A×r_A)`` with
the anchors fixed for the step (collide runs once per step) and the rotations since the step's
start to first order (Δθ = 2·vec(q·q0*)). Box2D rotates the anchors fully; for a rolling ball
that lifts the anchor off the ground by r(1 - cos ωdt) (1 mm at 8 rad/s), the contact goes
speculative and the ball sinks and slips each step, while to first order a round body's rolling
leaves its separation unchanged, as it should. The normal points run
forward in the bias pass and backward in the relax pass (symmetric Gauss-Seidel), so the bias of
one order toward its first point cancels and a symmetric stack does not lean.

Friction (Box3D's central friction, as solver-notes §7): one 2-D impulse at the points' centroid
with the 2x2 tangent mass, clamped to the disk μ·Σλn, and a twist friction about the normal
clamped to μ·(mean lever)·Σλn. It runs only in the relax pass, as in Box2D since 2026-04. Per-point
friction was tried first: the uneven normal loads of sequential Gauss-Seidel made a sliding box
yaw (0.6 rad/s after 1.5 s on a 30° ramp at μ 0.3). Rolling resistance (Box2D v3.1's, in 3-D):
an angular impulse against the bodies' relative spin, its accumulated norm within
c·radius·Σλn, c = max of the two bodies' B_ROLLING, radius that of the round body (spheres,
capsules, cylinders); without it a pile's spheres roll on for ever and the pile never sleeps.

Contact softness: 60 Hz (World.contact_hertz; Box2D uses 30, see _world), ζ 10, clamped to a
quarter of the sub-step rate, twice that when one side is static or kinematic; push-out speed
capped at 3 m/s.

Lever arms. Box2D applies each impulse at r_A from A's centre and r_B from B's centre with the
anchors frozen; once the bodies have moved apart within the step those are two different world
points and a little angular momentum is made. We shift both by half the relative displacement,
``r_A' = r_A + ½(Δp_B - Δp_A)`` and ``r_B' = r_B - ½(Δp_B - Δp_A)``, which makes them one world
point again, so contacts keep linear and angular momentum exactly. Not in a speculative row (the
point apart at the sub-step's start) against a side that takes no impulse (inverse mass 0: the
ground, a static or kinematic body): there the shift keeps no momentum, and the normal velocity
the row holds, n·(v_B + ω_B×r_B'), is no longer the rate of the separation it tracks,
n·(v_B + ω_B×r_B) (above): they differ by n·(ω_B × ½Δp_B), which grows with the body's fall and
spin together. What it was (issue 18): a LIMP box man struck at the upper arm with 1,000 N·s
lands on a forearm falling at 8.6 m/s and spinning at 100 rad/s; by mid-step ½Δp_B was 5 cm and
the speculative row held a speed 3.4 m/s slower than the separation closed at, so the point,
13.4 cm up at the step's start, was let through to -2.2 cm of the solver's own separation and
the capsule's end 3.60 cm into the ground in one step. Touching points keep the shift: unshifted
everywhere against the ground (tried) the landing was as good, but the figures' ways over the
ground changed enough to move tuned behaviours (a writher's arm across, a sitting catch).

Effective masses (normal, the 2x2 tangent K, twist) are taken in the solve, from the lever arms
as shifted and the world inverse inertias (B_IW) as they are now, the same I⁻¹ the impulse is
then applied with. Box2D takes them once per step; so did this file until the world inverse
inertia came to be refreshed after every sub-step (_kernels_step, IW_EVERY_SUBSTEP, for the
joints). A mass from the step's start applied through the current I⁻¹ is an iteration whose gain
is K_true/K_used: past 2 every pass overshoots and the error grows. Measured (issue 18, the busy
scene's first tear, 25.0 s in, a 485 N·s blow to a right upper arm): the forearm, spinning at
60 rad/s, rolled on the ground within the step; its point's K_true/K_used rose 1.0, 1.13, 1.18,
1.42, 1.94, 2.81, 3.85, 5.94 over the eight sub-steps, its spin from 95 to 2,464 rad/s in the
sixth sub-step's contact pass, a 0.75 m gap at the step's end and the world torn after it. The
normal mass is taken only for a point that may push (a held impulse, or closing faster than its
bias allows): most points of a standing figure are speculative and cost nothing more.

Restitution (once after the sub-steps): a point whose closing velocity vn0 was below -threshold
(1 m/s) and that pushed this step gets Δλ = -m_n(vn + e·vn0). Box2D takes vn0 at the step's
start; we take the fastest closing velocity the bias pass met before its impulse, which includes
the gravity of the sub-steps before the impact: a ball (e 0.5) dropped from 1 m then bounces to
0.254 m rather than 0.236 m.
"""

import math

from numba import njit

from ._kernels_collide import _collide_sorted, collide
from ._layout import (
    B_DIMS,
    B_FRICTION,
    B_INV_MASS,
    B_IW,
    B_POS,
    B_POS0,
    B_QUAT,
    B_QUAT0,
    B_RADIUS,
    B_RESTITUTION,
    B_ROLLING,
    B_SHAPE,
    B_V,
    B_W,
    M_A,
    M_B,
    M_BIAS,
    M_FRA,
    M_FRB,
    M_FRICTION,
    M_ID,
    M_ISCALE,
    M_KEY,
    M_LROLL,
    M_LT,
    M_LTW,
    M_MSCALE,
    M_N,
    M_NORMAL,
    M_P,
    M_RESTITUTION,
    M_ROLL,
    M_T1,
    M_T2,
    M_TMASS,
    M_TWMASS,
    M_TWR,
    P_LN,
    P_MAXLN,
    P_NMASS,
    P_POINT,
    P_RA,
    P_RB,
    P_RELV,
    P_SEP,
    P_STRIDE,
    SF_EXT,
    SF_REACH,
    SHAPE_BOX,
    SHAPE_PLANE,
    SI_TOUCH,
)
from ._math import (
    add,
    cross,
    dot,
    length,
    m9,
    madd,
    make_soft,
    mvmul,
    normalize,
    perp_basis,
    qconj,
    qmul,
    qrot,
    scale,
    sub,
    v3,
)

KEY_SHIFT = 32
KEY_MASK = (1 << 32) - 1
CLAMP = 0.25
# build_manifolds' reach_flags (World.reach_flags): what a ground plane's reach point leaves out
REACH_NO_RESTITUTION = 1
REACH_NO_FRICTION = 2

# The passes' pose scratch (cg, one row a manifold; see solve_contacts): what a pass derives from
# the poses alone. The bodies move only between a sub-step's bias and relax passes, so what the
# relax pass takes holds for the next sub-step's warm start and bias pass, which read it back.
CG_SH = 0      # 0..2 the lever arms' half shift (_half_shift, m)
CG_S = 3       # 3..6 each point's separation now (m): P_SEP + n·(the relative motion since)
CG_COUNT = 7


@njit(cache=True, _nrt=False, inline="always")
def collide_bodies(bf, bi, a, b, margin, cn, cp, cs, cid):
    """``collide`` of bodies a and b read straight from their rows: the same computation, without
    the eight array views (and their reference counting) the array signature costs per pair."""
    sa = bi[a, B_SHAPE]
    sb = bi[b, B_SHAPE]
    da = (bf[a, B_DIMS], bf[a, B_DIMS + 1], bf[a, B_DIMS + 2])
    db = (bf[b, B_DIMS], bf[b, B_DIMS + 1], bf[b, B_DIMS + 2])
    pa = (bf[a, B_POS], bf[a, B_POS + 1], bf[a, B_POS + 2])
    pb = (bf[b, B_POS], bf[b, B_POS + 1], bf[b, B_POS + 2])
    qa = (bf[a, B_QUAT], bf[a, B_QUAT + 1], bf[a, B_QUAT + 2], bf[a, B_QUAT + 3])
    qb = (bf[b, B_QUAT], bf[b, B_QUAT + 1], bf[b, B_QUAT + 2], bf[b, B_QUAT + 3])
    if sa > sb:
        cnt = _collide_sorted(sb, db, pb, qb, sa, da, pa, qa, margin, cn, cp, cs, cid)
        cn[0] = -cn[0]
        cn[1] = -cn[1]
        cn[2] = -cn[2]
        return cnt
    return _collide_sorted(sa, da, pa, qa, sb, db, pb, qb, margin, cn, cp, cs, cid)


@njit(cache=True, _nrt=False)
def build_manifolds(bf, bi, keys, npairs, sf, si, mf0, mi0, nm0, mf1, mi1, m_cap,
                    cn, cp, cs, cid, reach_flags):
    """Collide every candidate pair into new manifolds (mf1, mi1), warm-started from the old
    (mf0, mi0) by pair key and feature id. Returns the number of manifolds found (may exceed
    m_cap: then only m_cap are kept and the caller grows the tables before the next step).

    A body and a ground plane with no point within the body's speculative margin (SF_EXT) are
    collided again within its reach (SF_REACH, _kernels_broadphase: what a drive may swing it
    by in the step); points found so are reach points: speculative (separation > 0), the body
    not marked touching (SI_TOUCH), started cold (no warm start from last step's manifold of
    the pair), and without what ``reach_flags`` leaves out (REACH_NO_RESTITUTION,
    REACH_NO_FRICTION: friction and rolling resistance)."""
    nm = 0
    j = 0
    for k in range(npairs):
        key = keys[k]
        a = key >> KEY_SHIFT
        b = key & KEY_MASK
        margin = sf[a, SF_EXT] + sf[b, SF_EXT]
        plane = bi[a, B_SHAPE] == SHAPE_PLANE or bi[b, B_SHAPE] == SHAPE_PLANE
        if not plane:
            # bounding spheres apart by more than the margin: no point can be within it
            dx = bf[b, B_POS] - bf[a, B_POS]
            dy = bf[b, B_POS + 1] - bf[a, B_POS + 1]
            dz = bf[b, B_POS + 2] - bf[a, B_POS + 2]
            reach = bf[a, B_RADIUS] + bf[b, B_RADIUS] + margin
            if dx * dx + dy * dy + dz * dz > reach * reach:
                continue
        cnt = collide_bodies(bf, bi, a, b, margin, cn, cp, cs, cid)
        reach = False
        if cnt <= 0 and plane:
            far = sf[a, SF_REACH] + sf[b, SF_REACH]
            if far > margin:
                cnt = collide_bodies(bf, bi, a, b, far, cn, cp, cs, cid)
                reach = True
        if cnt <= 0:
            continue
        if nm >= m_cap:
            nm += 1
            continue
        r = nm
        nm += 1
        mi1[r, M_A] = a
        mi1[r, M_B] = b
        mi1[r, M_N] = cnt
        mi1[r, M_KEY] = key
        n = (cn[0], cn[1], cn[2])
        t1, t2 = perp_basis(n)
        for c in range(3):
            mf1[r, M_NORMAL + c] = n[c]
            mf1[r, M_T1 + c] = t1[c]
            mf1[r, M_T2 + c] = t2[c]
        mf1[r, M_FRICTION] = math.sqrt(bf[a, B_FRICTION] * bf[b, B_FRICTION])
        mf1[r, M_RESTITUTION] = max(bf[a, B_RESTITUTION], bf[b, B_RESTITUTION])
        rr = 0.0
        sa = bi[a, B_SHAPE]
        sb = bi[b, B_SHAPE]
        if sa != SHAPE_BOX and sa != SHAPE_PLANE:
            rr = bf[a, B_RADIUS]
        if sb != SHAPE_BOX and sb != SHAPE_PLANE:
            rr = max(rr, bf[b, B_RADIUS])
        mf1[r, M_ROLL] = max(bf[a, B_ROLLING], bf[b, B_ROLLING]) * rr
        if reach:
            if reach_flags & REACH_NO_RESTITUTION:
                mf1[r, M_RESTITUTION] = 0.0
            if reach_flags & REACH_NO_FRICTION:
                mf1[r, M_FRICTION] = 0.0
                mf1[r, M_ROLL] = 0.0
        else:
            si[a, SI_TOUCH] = 1
            si[b, SI_TOUCH] = 1
        while j < nm0 and mi0[j, M_KEY] < key:
            j += 1
        # a reach point starts cold: last step's impulses of the pair (a limb lifting off the
        # ground) warm-started on a point centimetres up would push it for a sub-step, friction
        # through the position update, where without the reach the pair had no manifold at all
        old = j if (j < nm0 and mi0[j, M_KEY] == key and not reach) else -1
        lt1 = 0.0
        lt2 = 0.0
        ltw = 0.0
        if old >= 0 and mi0[old, M_N] > 0:
            f1 = mf0[old, M_LT]
            f2 = mf0[old, M_LT + 1]
            fw = (f1 * mf0[old, M_T1] + f2 * mf0[old, M_T2],
                  f1 * mf0[old, M_T1 + 1] + f2 * mf0[old, M_T2 + 1],
                  f1 * mf0[old, M_T1 + 2] + f2 * mf0[old, M_T2 + 2])
            lt1 = dot(fw, t1)
            lt2 = dot(fw, t2)
            ltw = mf0[old, M_LTW] * dot(n, v3(mf0[old], M_NORMAL))
            for c in range(3):
                mf1[r, M_LROLL + c] = mf0[old, M_LROLL + c]
        else:
            for c in range(3):
                mf1[r, M_LROLL + c] = 0.0
        mf1[r, M_LT] = lt1
        mf1[r, M_LT + 1] = lt2
        mf1[r, M_LTW] = ltw
        matched = 0
        for p in range(cnt):
            o = M_P + p * P_STRIDE
            mi1[r, M_ID + p] = cid[p]
            mf1[r, o + P_POINT] = cp[p, 0]
            mf1[r, o + P_POINT + 1] = cp[p, 1]
            mf1[r, o + P_POINT + 2] = cp[p, 2]
            mf1[r, o + P_SEP] = cs[p]
            ln = 0.0
            if old >= 0:
                for q in range(mi0[old, M_N]):
                    if mi0[old, M_ID + q] == cid[p]:
                        ln = mf0[old, M_P + q * P_STRIDE + P_LN]
                        matched += 1
                        break
            mf1[r, o + P_LN] = ln
        if old >= 0 and matched == 0 and mi0[old, M_N] > 0:
            # the pair touches by other features than last step (a face manifold turning into
            # an edge contact and back): spread last step's total over the new points rather
            # than start cold, or the pair lands afresh each step and jitters
            tot = 0.0
            for q in range(mi0[old, M_N]):
                tot += mf0[old, M_P + q * P_STRIDE + P_LN]
            tot /= cnt
            for p in range(cnt):
                mf1[r, M_P + p * P_STRIDE + P_LN] = tot
    return nm


@njit(cache=True, _nrt=False)
def prepare_contacts(bf, mf, mi, nm, h, hertz, zeta):
    """Anchors, start velocities and softness of every manifold (once per step). The effective
    masses are not taken here: the solve takes them from the pose it acts on (module
    docstring, "Effective masses")."""
    hz = min(hertz, CLAMP / h)
    soft = make_soft(hz, zeta, h)
    soft_static = make_soft(2.0 * hz, zeta, h)
    for r in range(nm):
        a = mi[r, M_A]
        b = mi[r, M_B]
        ma = bf[a, B_INV_MASS]
        mb = bf[b, B_INV_MASS]
        s = soft if (ma > 0.0 and mb > 0.0) else soft_static
        mf[r, M_BIAS] = s[0]
        mf[r, M_MSCALE] = s[1]
        mf[r, M_ISCALE] = s[2]
        n = v3(mf[r], M_NORMAL)
        pa = v3(bf[a], B_POS)
        pb = v3(bf[b], B_POS)
        va = v3(bf[a], B_V)
        wa = v3(bf[a], B_W)
        vb = v3(bf[b], B_V)
        wb = v3(bf[b], B_W)
        npts = mi[r, M_N]
        cx = 0.0
        cy = 0.0
        cz = 0.0
        for p in range(npts):
            o = M_P + p * P_STRIDE
            c = v3(mf[r], o + P_POINT)
            cx += c[0]
            cy += c[1]
            cz += c[2]
            ra = sub(c, pa)
            rb = sub(c, pb)
            for k in range(3):
                mf[r, o + P_RA + k] = ra[k]
                mf[r, o + P_RB + k] = rb[k]
            dv = sub(add(vb, cross(wb, rb)), add(va, cross(wa, ra)))
            mf[r, o + P_RELV] = dot(dv, n)
            mf[r, o + P_MAXLN] = 0.0
        inv = 1.0 / npts
        cen = (cx * inv, cy * inv, cz * inv)
        twr = 0.0
        for p in range(npts):
            o = M_P + p * P_STRIDE
            d = sub(v3(mf[r], o + P_POINT), cen)
            dn = dot(d, n)
            twr += math.sqrt(max(dot(d, d) - dn * dn, 0.0))
        mf[r, M_TWR] = twr * inv
        ra = sub(cen, pa)
        rb = sub(cen, pb)
        for k in range(3):
            mf[r, M_FRA + k] = ra[k]
            mf[r, M_FRB + k] = rb[k]


@njit(cache=True, _nrt=False, inline="always")
def _apply(bf, a, b, ma, mb, ia, ib, ra, rb, pv):
    """Impulse pv (N·s) on B at rb and -pv on A at ra."""
    if ma > 0.0:
        ta = mvmul(ia, cross(ra, pv))
        for k in range(3):
            bf[a, B_V + k] -= ma * pv[k]
            bf[a, B_W + k] -= ta[k]
    if mb > 0.0:
        tb = mvmul(ib, cross(rb, pv))
        for k in range(3):
            bf[b, B_V + k] += mb * pv[k]
            bf[b, B_W + k] += tb[k]


@njit(cache=True, _nrt=False, inline="always")
def _iw_mul(bf, i, v):
    """Body i's world inverse inertia (B_IW, row-major) times v, read in place."""
    return (bf[i, B_IW] * v[0] + bf[i, B_IW + 1] * v[1] + bf[i, B_IW + 2] * v[2],
            bf[i, B_IW + 3] * v[0] + bf[i, B_IW + 4] * v[1] + bf[i, B_IW + 5] * v[2],
            bf[i, B_IW + 6] * v[0] + bf[i, B_IW + 7] * v[1] + bf[i, B_IW + 8] * v[2])


@njit(cache=True, _nrt=False, inline="always")
def _ang_mass_bf(bf, i, r, d):
    """(r×d)·I⁻¹(r×d) with body i's current world inverse inertia (B_IW, read in place)."""
    rc = cross(r, d)
    return dot(rc, _iw_mul(bf, i, rc))


@njit(cache=True, _nrt=False, inline="always")
def _normal_mass(bf, a, b, ma, mb, ra, rb, n):
    """The point's normal effective mass (kg) from the lever arms and world inverse inertias as
    they are now (see the module docstring's "Effective masses")."""
    k = ma + mb
    if ma > 0.0:
        k += _ang_mass_bf(bf, a, ra, n)
    if mb > 0.0:
        k += _ang_mass_bf(bf, b, rb, n)
    return 1.0 / k if k > 0.0 else 0.0


@njit(cache=True, _nrt=False, inline="always")
def _imp_bf(bf, a, b, ma, mb, ra, rb, pv, va, wa, vb, wb):
    """Velocities after impulse pv (N·s) on B at rb and -pv on A at ra; a side with no inverse
    mass (static, kinematic) is left as it is (its velocities are never stored back)."""
    if ma > 0.0:
        ta = _iw_mul(bf, a, cross(ra, pv))
        va = madd(va, pv, -ma)
        wa = sub(wa, ta)
    if mb > 0.0:
        tb = _iw_mul(bf, b, cross(rb, pv))
        vb = madd(vb, pv, mb)
        wb = add(wb, tb)
    return va, wa, vb, wb


@njit(cache=True, _nrt=False, inline="always")
def _apply_bf(bf, a, b, ma, mb, ra, rb, pv):
    """Impulse pv (N·s) on B at rb and -pv on A at ra, with I⁻¹ read in place."""
    if ma > 0.0:
        ta = _iw_mul(bf, a, cross(ra, pv))
        for k in range(3):
            bf[a, B_V + k] -= ma * pv[k]
            bf[a, B_W + k] -= ta[k]
    if mb > 0.0:
        tb = _iw_mul(bf, b, cross(rb, pv))
        for k in range(3):
            bf[b, B_V + k] += mb * pv[k]
            bf[b, B_W + k] += tb[k]


@njit(cache=True, _nrt=False, inline="always")
def _rot_delta(bf, i):
    """Rotation vector (rad) of the body since the step's start, to first order: 2·vec(q·q0*)."""
    d = qmul((bf[i, B_QUAT], bf[i, B_QUAT + 1], bf[i, B_QUAT + 2], bf[i, B_QUAT + 3]),
             qconj((bf[i, B_QUAT0], bf[i, B_QUAT0 + 1], bf[i, B_QUAT0 + 2], bf[i, B_QUAT0 + 3])))
    k = 2.0 if d[3] >= 0.0 else -2.0
    return d[0] * k, d[1] * k, d[2] * k


@njit(cache=True, _nrt=False, inline="always")
def _half_shift(bf, a, b):
    """½(Δp_B - Δp_A) since the step's start: the lever arms' shift to one world point."""
    return (0.5 * ((bf[b, B_POS] - bf[b, B_POS0]) - (bf[a, B_POS] - bf[a, B_POS0])),
            0.5 * ((bf[b, B_POS + 1] - bf[b, B_POS0 + 1]) - (bf[a, B_POS + 1] - bf[a, B_POS0 + 1])),
            0.5 * ((bf[b, B_POS + 2] - bf[b, B_POS0 + 2]) - (bf[a, B_POS + 2] - bf[a, B_POS0 + 2])))


@njit(cache=True, _nrt=False)
def warm_start_contacts(bf, mf, mi, ml, cg, cg_ready):
    """Apply the stored normal and friction impulses of every point of the manifolds ml lists
    (each sub-step). Zero impulses (a speculative manifold's) are not applied. cg_ready: cg (see
    solve_contacts) holds the lever arms' shift of the current poses."""
    for t in range(ml.shape[0]):
        r = ml[t]
        a = mi[r, M_A]
        b = mi[r, M_B]
        ma = bf[a, B_INV_MASS]
        mb = bf[b, B_INV_MASS]
        n = v3(mf[r], M_NORMAL)
        if cg_ready:
            sh = (cg[r, CG_SH], cg[r, CG_SH + 1], cg[r, CG_SH + 2])
        else:
            sh = _half_shift(bf, a, b)
        for p in range(mi[r, M_N]):
            o = M_P + p * P_STRIDE
            ln = mf[r, o + P_LN]
            if ln == 0.0:
                continue
            ra = add(v3(mf[r], o + P_RA), sh)
            rb = sub(v3(mf[r], o + P_RB), sh)
            _apply_bf(bf, a, b, ma, mb, ra, rb, (ln * n[0], ln * n[1], ln * n[2]))
        l1 = mf[r, M_LT]
        l2 = mf[r, M_LT + 1]
        if l1 != 0.0 or l2 != 0.0:
            t1 = v3(mf[r], M_T1)
            t2 = v3(mf[r], M_T2)
            pv = (l1 * t1[0] + l2 * t2[0], l1 * t1[1] + l2 * t2[1], l1 * t1[2] + l2 * t2[2])
            _apply_bf(bf, a, b, ma, mb, add(v3(mf[r], M_FRA), sh), sub(v3(mf[r], M_FRB), sh), pv)
        lam = mf[r, M_LTW]
        if lam != 0.0:
            if ma > 0.0:
                ta = _iw_mul(bf, a, n)
                for k in range(3):
                    bf[a, B_W + k] -= lam * ta[k]
            if mb > 0.0:
                tb = _iw_mul(bf, b, n)
                for k in range(3):
                    bf[b, B_W + k] += lam * tb[k]
        if mf[r, M_ROLL] > 0.0:
            t = v3(mf[r], M_LROLL)
            if t[0] != 0.0 or t[1] != 0.0 or t[2] != 0.0:
                if ma > 0.0:
                    ta = _iw_mul(bf, a, t)
                    for k in range(3):
                        bf[a, B_W + k] -= ta[k]
                if mb > 0.0:
                    tb = _iw_mul(bf, b, t)
                    for k in range(3):
                        bf[b, B_W + k] += tb[k]


@njit(cache=True, _nrt=False)
def solve_contacts(bf, mf, mi, ml, inv_h, use_bias, contact_speed, sweeps, cg, cg_ready):
    """One Gauss-Seidel pass over the manifolds ml lists, in order: normal impulses (with bias
    in the bias pass), then friction in the relax pass (use_bias False). The bodies' velocities
    are held in locals while a manifold is solved.

    Cost: most manifolds of a standing figure are speculative (a hand beside a thigh) and push
    nothing. A sweep over the points that changes no impulse leaves the velocities as they were,
    so the sweeps after it would repeat it exactly: they are skipped (the Σλn a later sweep would
    have summed in its own order is summed in that order). An impulse of zero is not applied,
    friction within a zero cap that holds no impulse is left alone, and velocities nothing
    changed are not stored back. Results are those of the full passes, bit for bit (but for the
    sign of a zero).

    cg: the caller's scratch, (>= the manifolds, CG_COUNT) floats, kept across the step's
    sub-steps: each manifold's lever-arm shift and its points' separations, taken from the poses
    once a pass (not once a sweep) and, as the bodies move only between the bias and relax
    passes, kept by the relax pass for the next sub-step's warm start and bias pass (the same
    arithmetic on the same values: the same bits). cg_ready: cg holds them for the current poses
    (False on the step's first sub-step and in every relax pass: the pass takes them)."""
    for t in range(ml.shape[0]):
        r = ml[t]
        a = mi[r, M_A]
        b = mi[r, M_B]
        ma = bf[a, B_INV_MASS]
        mb = bf[b, B_INV_MASS]
        n = v3(mf[r], M_NORMAL)
        bias_rate = mf[r, M_BIAS]
        mscale = mf[r, M_MSCALE]
        iscale = mf[r, M_ISCALE]
        npts = mi[r, M_N]
        if cg_ready:
            sh = (cg[r, CG_SH], cg[r, CG_SH + 1], cg[r, CG_SH + 2])
        else:
            sh = _half_shift(bf, a, b)
            dpa = sub(v3(bf[a], B_POS), v3(bf[a], B_POS0))
            dpb = sub(v3(bf[b], B_POS), v3(bf[b], B_POS0))
            tha = _rot_delta(bf, a)
            thb = _rot_delta(bf, b)
            dp = sub(dpb, dpa)
            for c in range(3):
                cg[r, CG_SH + c] = sh[c]
            for p in range(npts):
                o = M_P + p * P_STRIDE
                ra0 = v3(mf[r], o + P_RA)
                rb0 = v3(mf[r], o + P_RB)
                d = add(dp, sub(cross(thb, rb0), cross(tha, ra0)))
                cg[r, CG_S + p] = dot(d, n) + mf[r, o + P_SEP]
        grounded = ma == 0.0 or mb == 0.0
        va = v3(bf[a], B_V)
        wa = v3(bf[a], B_W)
        vb = v3(bf[b], B_V)
        wb = v3(bf[b], B_W)
        total_ln = 0.0
        moved = False
        for sweep in range(sweeps):
            total_ln = 0.0
            changed = False
            # alternate directions (symmetric Gauss-Seidel: forward in the bias pass,
            # backward in the relax pass), so that no point is always first and a
            # symmetric stack does not lean toward one corner
            fwd = (sweep % 2 == 0) == use_bias
            for pp in range(npts):
                p = pp if fwd else npts - 1 - pp
                o = M_P + p * P_STRIDE
                ra0 = v3(mf[r], o + P_RA)
                rb0 = v3(mf[r], o + P_RB)
                s = cg[r, CG_S + p]
                if s > 0.0:
                    bias = s * inv_h
                    msc = 1.0
                    isc = 0.0
                elif use_bias:
                    bias = max(bias_rate * s, -contact_speed)
                    msc = mscale
                    isc = iscale
                else:
                    bias = 0.0
                    msc = 1.0
                    isc = 0.0
                if s > 0.0 and grounded:
                    # speculative against a side that takes no impulse: the row holds the rate
                    # its separation closes at (module docstring, "Lever arms")
                    ra = ra0
                    rb = rb0
                else:
                    ra = add(ra0, sh)
                    rb = sub(rb0, sh)
                dv = sub(add(vb, cross(wb, rb)), add(va, cross(wa, ra)))
                vn = dot(dv, n)
                if use_bias and sweep == 0 and vn < mf[r, o + P_RELV]:
                    mf[r, o + P_RELV] = vn  # the closing speed grows under gravity
                lam = mf[r, o + P_LN]
                if lam == 0.0 and vn + bias >= 0.0:
                    continue  # pushes nothing, whatever its mass (most speculative points)
                nmass = _normal_mass(bf, a, b, ma, mb, ra, rb, n)
                mf[r, o + P_NMASS] = nmass
                imp = -nmass * msc * (vn + bias) - isc * lam
                new = max(lam + imp, 0.0)
                imp = new - lam
                total_ln += new
                if imp != 0.0:
                    mf[r, o + P_LN] = new
                    if imp > mf[r, o + P_MAXLN]:
                        mf[r, o + P_MAXLN] = imp
                    va, wa, vb, wb = _imp_bf(bf, a, b, ma, mb, ra, rb, scale(n, imp),
                                             va, wa, vb, wb)
                    changed = True
            if not changed:
                # the sweeps left would repeat this one; the last sums Σλn in its own order
                if npts > 2 and sweep < sweeps - 1 and ((sweeps - 1 - sweep) % 2 == 1):
                    total_ln = 0.0
                    for pp in range(npts):
                        p = npts - 1 - pp if fwd else pp
                        total_ln += mf[r, M_P + p * P_STRIDE + P_LN]
                break
            moved = True
        if not use_bias:
            mu = mf[r, M_FRICTION]
            l1 = mf[r, M_LT]
            l2 = mf[r, M_LT + 1]
            if total_ln != 0.0 or l1 != 0.0 or l2 != 0.0:
                t1 = v3(mf[r], M_T1)
                t2 = v3(mf[r], M_T2)
                # central friction: one 2-D impulse at the points' centroid, in the disk mu·Σλn
                ra = add(v3(mf[r], M_FRA), sh)
                rb = sub(v3(mf[r], M_FRB), sh)
                dv = sub(add(vb, cross(wb, rb)), add(va, cross(wa, ra)))
                v1 = dot(dv, t1)
                v2 = dot(dv, t2)
                # the 2x2 tangent K at the anchor from the current pose, inverted
                ra1 = cross(ra, t1)
                ra2 = cross(ra, t2)
                rb1 = cross(rb, t1)
                rb2 = cross(rb, t2)
                k11 = ma + mb
                k12 = 0.0
                k22 = ma + mb
                if ma > 0.0:
                    ia1 = _iw_mul(bf, a, ra1)
                    ia2 = _iw_mul(bf, a, ra2)
                    k11 += dot(ra1, ia1)
                    k12 += dot(ra1, ia2)
                    k22 += dot(ra2, ia2)
                if mb > 0.0:
                    ib1 = _iw_mul(bf, b, rb1)
                    ib2 = _iw_mul(bf, b, rb2)
                    k11 += dot(rb1, ib1)
                    k12 += dot(rb1, ib2)
                    k22 += dot(rb2, ib2)
                det = k11 * k22 - k12 * k12
                if det > 0.0:
                    det = 1.0 / det
                tm0 = k22 * det
                tm1 = -k12 * det
                tm2 = k11 * det
                mf[r, M_TMASS] = tm0
                mf[r, M_TMASS + 1] = tm1
                mf[r, M_TMASS + 2] = tm2
                n1 = l1 - (tm0 * v1 + tm1 * v2)
                n2 = l2 - (tm1 * v1 + tm2 * v2)
                cap = mu * total_ln
                mag2 = n1 * n1 + n2 * n2
                if mag2 > cap * cap:
                    f = cap / math.sqrt(mag2)
                    n1 *= f
                    n2 *= f
                d1 = n1 - l1
                d2 = n2 - l2
                mf[r, M_LT] = n1
                mf[r, M_LT + 1] = n2
                if d1 != 0.0 or d2 != 0.0:
                    va, wa, vb, wb = _imp_bf(bf, a, b, ma, mb, ra, rb,
                                             add(scale(t1, d1), scale(t2, d2)), va, wa, vb, wb)
                    moved = True
            # twist friction about the normal, within mu·lever·Σλn
            tcap = mu * mf[r, M_TWR] * total_ln
            if tcap > 0.0:
                wrel = dot(sub(wb, wa), n)
                kt = 0.0
                if ma > 0.0:
                    kt += dot(n, _iw_mul(bf, a, n))
                if mb > 0.0:
                    kt += dot(n, _iw_mul(bf, b, n))
                twmass = 1.0 / kt if kt > 0.0 else 0.0
                mf[r, M_TWMASS] = twmass
                lt = mf[r, M_LTW]
                nt = min(max(lt - twmass * wrel, -tcap), tcap)
                mf[r, M_LTW] = nt
                dl = nt - lt
                if ma > 0.0:
                    wa = madd(wa, _iw_mul(bf, a, n), -dl)
                if mb > 0.0:
                    wb = madd(wb, _iw_mul(bf, b, n), dl)
                moved = True
            elif mf[r, M_LTW] != 0.0:
                mf[r, M_LTW] = 0.0
            # rolling resistance: an angular impulse against the relative spin, within
            # roll·Σλn
            rcap = mf[r, M_ROLL] * total_ln
            if rcap > 0.0:
                u, wn = normalize(sub(wb, wa))
                if wn > 0.0:
                    ku = dot(u, _iw_mul(bf, a, u)) + dot(u, _iw_mul(bf, b, u))
                    k = wn / ku if ku > 0.0 else 0.0
                    l0 = v3(mf[r], M_LROLL)
                    l1v = madd(l0, u, -k)
                    lm = length(l1v)
                    if lm > rcap:
                        l1v = scale(l1v, rcap / lm)
                    for c in range(3):
                        mf[r, M_LROLL + c] = l1v[c]
                    dl3 = sub(l1v, l0)
                    if ma > 0.0:
                        wa = sub(wa, _iw_mul(bf, a, dl3))
                    if mb > 0.0:
                        wb = add(wb, _iw_mul(bf, b, dl3))
                    moved = True
        if moved:
            if ma > 0.0:
                for c in range(3):
                    bf[a, B_V + c] = va[c]
                    bf[a, B_W + c] = wa[c]
            if mb > 0.0:
                for c in range(3):
                    bf[b, B_V + c] = vb[c]
                    bf[b, B_W + c] = wb[c]


@njit(cache=True, _nrt=False)
def apply_restitution(bf, mf, mi, nm, threshold):
    """Bounce: points that closed faster than ``threshold`` (m/s) at the step's start and pushed
    this step get their normal velocity set to -e times that closing speed."""
    for r in range(nm):
        e = mf[r, M_RESTITUTION]
        if e == 0.0:
            continue
        a = mi[r, M_A]
        b = mi[r, M_B]
        ma = bf[a, B_INV_MASS]
        mb = bf[b, B_INV_MASS]
        ia = m9(bf[a], B_IW)
        ib = m9(bf[b], B_IW)
        n = v3(mf[r], M_NORMAL)
        sh = _half_shift(bf, a, b)
        for p in range(mi[r, M_N]):
            o = M_P + p * P_STRIDE
            relv = mf[r, o + P_RELV]
            if relv > -threshold or mf[r, o + P_MAXLN] == 0.0:
                continue
            ra = add(v3(mf[r], o + P_RA), sh)
            rb = sub(v3(mf[r], o + P_RB), sh)
            dv = sub(add(v3(bf[b], B_V), cross(v3(bf[b], B_W), rb)),
                     add(v3(bf[a], B_V), cross(v3(bf[a], B_W), ra)))
            vn = dot(dv, n)
            lam = mf[r, o + P_LN]
            imp = -_normal_mass(bf, a, b, ma, mb, ra, rb, n) * (vn + e * relv)
            new = max(lam + imp, 0.0)
            imp = new - lam
            mf[r, o + P_LN] = new
            _apply(bf, a, b, ma, mb, ia, ib, ra, rb, (imp * n[0], imp * n[1], imp * n[2]))


_unused = (qmul, qconj, qrot, collide)
