"""Anchors: bodies held to the world (position and orientation springs with force and torque caps,
upright-only, heading hold). OWNED BY THE JOINTS WORK (issue 3).

Contract with the step loop (``_kernels_step.step_world``), called for the slots in use on no
parked body (la), in order:
    prepare_anchors(bf, bi, af, ai, la, h)             once per step, before the sub-steps
    warm_start_anchors(bf, bi, af, ai, al)             each sub-step (al: the slots, in order)
    solve_anchors(bf, bi, af, ai, al, h, use_bias)     each sub-step, bias pass then relax pass

Derivation (learnt from Box3D's motor joint and parallel joint; our own code):

* ANCHOR_SPRING: the world side is a static body at the target pose moving at the target
  velocity. Linear: C = (x + R r) - p_t, Cdot = v + w x r - v_t, K = m^-1 I - [r] I^-1 [r].
  Angular: C = rotation vector of q q_t^-1 (world), Cdot = w - w_t, mass = I (world inertia).
  Both are soft springs in both passes (Hz, zeta: the figure's 5 Hz follow, a planted foot's
  30 Hz), dl = -massScale m (Cdot + biasRate C) - impulseScale l, the accumulated impulse
  norm-clamped to h * force cap and h * torque cap.
* ANCHOR_UPRIGHT: rigid within its torque cap (DESIGN.md: stiffness that holds a body up must not
  be a spring scaled by one body's inertia). F = q * qax is a frame whose y is the body's up axis;
  C = (F.x, F.z) (zero exactly when up is world up; a turn about world y leaves it zero), rows
  p_i = (s e_i + v x e_i) (world; e = x, z), a 2x2 solve. A motor, as the joints' are: a hard
  velocity row (full effective mass, no impulse scale) asking Cdot = -rate C with the bias rate of
  (A_HZ, A_ZETA), the same in both passes, so a load within the cap is held with no steady error
  whatever the pelvis's inertia, and the torque it applies is real (read back); the applied
  angular impulse sum(l_i p_i) is clamped in norm to
  h * torque cap, so the torque never exceeds the cap (1,200 N·m for the pelvis).
* ANCHOR_HEADING: the body's forward axis, seen from above, toward a heading about world y:
  C = wrap(psi - psi_t), psi = atan2(f.x, f.z); row = world y; rigid the same way; |l| <= h * cap.
* A free slot (ANCHOR_FREE), a parked body, or a body asleep is skipped, and the façade zeroes the
  accumulators when it sets an anchor to nothing or destroys it: no warm start survives
  (aephysics#58, #76). An anchor with every Hz 0 (set to nothing) applies nothing at all.
"""

import math

from numba import njit

from ._kernels_joints import _cross, _dot, make_soft, mv, qconj, qmul, qrot, rotvec, solve3
from ._layout import (
    A_AHZ,
    A_ASOFT,
    A_AXIS,
    A_AZETA,
    A_BODY,
    A_FMAX,
    A_H,
    A_HEADING,
    A_HZ,
    A_KIND,
    A_L_ANG,
    A_L_LIN,
    A_L_UP,
    A_LOCAL,
    A_QAX,
    A_SOFT,
    A_TMAX,
    A_TPOS,
    A_TQUAT,
    A_TV,
    A_TW,
    A_ZETA,
    ANCHOR_FREE,
    ANCHOR_HEADING,
    ANCHOR_SPRING,
    ANCHOR_UPRIGHT,
    B_AWAKE,
    B_INV_MASS,
    B_IW,
    B_PARKED,
    B_POS,
    B_QUAT,
    B_V,
    B_W,
)


@njit(cache=True, _nrt=False, inline="always")
def _live(bi, af, ai, k):
    if ai[k, A_KIND] == ANCHOR_FREE:
        return -1
    b = ai[k, A_BODY]
    if b < 0 or bi[b, B_PARKED] != 0 or bi[b, B_AWAKE] == 0:
        return -1
    return b


@njit(cache=True, _nrt=False, inline="always")
def _iw(bf, b):
    o = B_IW
    return (bf[b, o], bf[b, o + 1], bf[b, o + 2], bf[b, o + 3], bf[b, o + 4], bf[b, o + 5],
            bf[b, o + 6], bf[b, o + 7], bf[b, o + 8])


@njit(cache=True, _nrt=False, inline="always")
def _quat(bf, b):
    return (bf[b, B_QUAT], bf[b, B_QUAT + 1], bf[b, B_QUAT + 2], bf[b, B_QUAT + 3])


@njit(cache=True, _nrt=False)
def _sandwich_k(m, i, r):
    """m I - [r] I [r] (9-tuple) for a 9-tuple I."""
    x, y, z = r[0], r[1], r[2]
    t00 = i[1] * z - i[2] * y
    t01 = -i[0] * z + i[2] * x
    t02 = i[0] * y - i[1] * x
    t10 = i[4] * z - i[5] * y
    t11 = -i[3] * z + i[5] * x
    t12 = i[3] * y - i[4] * x
    t20 = i[7] * z - i[8] * y
    t21 = -i[6] * z + i[8] * x
    t22 = i[6] * y - i[7] * x
    return (
        m + z * t10 - y * t20, z * t11 - y * t21, z * t12 - y * t22,
        -z * t00 + x * t20, m - z * t01 + x * t21, -z * t02 + x * t22,
        y * t00 - x * t10, y * t01 - x * t11, m + y * t02 - x * t12,
    )


@njit(cache=True, _nrt=False)
def prepare_anchors(bf, bi, af, ai, la, h):
    """Once per step: softness of each live anchor on the sub-step h (la: the anchor slots in
    use on no parked body, ascending)."""
    for t in range(la.shape[0]):
        k = la[t]
        b = _live(bi, af, ai, k)
        if b < 0:
            continue
        af[k, A_H] = h
        kind = ai[k, A_KIND]
        hz = af[k, A_HZ]
        if kind != ANCHOR_SPRING:
            hz = min(hz, 0.25 / h)  # a rigid part's Hz, clamped as joints' are
        s0, s1, s2 = make_soft(hz, af[k, A_ZETA], h)
        af[k, A_SOFT] = s0
        af[k, A_SOFT + 1] = s1
        af[k, A_SOFT + 2] = s2
        s0, s1, s2 = make_soft(af[k, A_AHZ], af[k, A_AZETA], h)
        af[k, A_ASOFT] = s0
        af[k, A_ASOFT + 1] = s1
        af[k, A_ASOFT + 2] = s2


@njit(cache=True, _nrt=False)
def warm_start_anchors(bf, bi, af, ai, al):
    """Apply the accumulated impulses (linear at its point, angular) of each live anchor whose
    slot al lists."""
    for t in range(al.shape[0]):
        k = al[t]
        b = _live(bi, af, ai, k)
        if b < 0:
            continue
        P = (af[k, A_L_LIN], af[k, A_L_LIN + 1], af[k, A_L_LIN + 2])
        L = (af[k, A_L_ANG], af[k, A_L_ANG + 1], af[k, A_L_ANG + 2])
        if P[0] == 0.0 and P[1] == 0.0 and P[2] == 0.0 and L[0] == 0.0 and L[1] == 0.0 \
                and L[2] == 0.0:
            continue
        m = bf[b, B_INV_MASS]
        r = qrot(_quat(bf, b), (af[k, A_LOCAL], af[k, A_LOCAL + 1], af[k, A_LOCAL + 2]))
        c = _cross(r, P)
        ii = _iw(bf, b)
        d = mv(ii, (L[0] + c[0], L[1] + c[1], L[2] + c[2]))
        bf[b, B_V] += m * P[0]
        bf[b, B_V + 1] += m * P[1]
        bf[b, B_V + 2] += m * P[2]
        bf[b, B_W] += d[0]
        bf[b, B_W + 1] += d[1]
        bf[b, B_W + 2] += d[2]


@njit(cache=True, _nrt=False)
def solve_anchors(bf, bi, af, ai, al, h, use_bias):
    """One pass over the anchors al lists, in order (bias pass when use_bias, else relax)."""
    for t in range(al.shape[0]):
        k = al[t]
        b = _live(bi, af, ai, k)
        if b < 0:
            continue
        kind = ai[k, A_KIND]
        q = _quat(bf, b)
        ii = _iw(bf, b)
        w = (bf[b, B_W], bf[b, B_W + 1], bf[b, B_W + 2])
        if kind == ANCHOR_SPRING:
            # ---- orientation spring
            if af[k, A_AHZ] > 0.0:
                tq = (af[k, A_TQUAT], af[k, A_TQUAT + 1], af[k, A_TQUAT + 2], af[k, A_TQUAT + 3])
                c = rotvec(qmul(q, qconj(tq)))
                sb = af[k, A_ASOFT]
                sm = af[k, A_ASOFT + 1]
                si = af[k, A_ASOFT + 2]
                cd = (w[0] - af[k, A_TW] + sb * c[0], w[1] - af[k, A_TW + 1] + sb * c[1],
                      w[2] - af[k, A_TW + 2] + sb * c[2])
                x = solve3(ii, cd)  # I * cd with I = (I^-1)^-1
                o0 = af[k, A_L_ANG]
                o1 = af[k, A_L_ANG + 1]
                o2 = af[k, A_L_ANG + 2]
                n0 = o0 - sm * x[0] - si * o0
                n1 = o1 - sm * x[1] - si * o1
                n2 = o2 - sm * x[2] - si * o2
                cap = h * af[k, A_TMAX]
                nn = n0 * n0 + n1 * n1 + n2 * n2
                if nn > cap * cap:
                    s = cap / math.sqrt(nn)
                    n0 *= s
                    n1 *= s
                    n2 *= s
                af[k, A_L_ANG] = n0
                af[k, A_L_ANG + 1] = n1
                af[k, A_L_ANG + 2] = n2
                d = mv(ii, (n0 - o0, n1 - o1, n2 - o2))
                w = (w[0] + d[0], w[1] + d[1], w[2] + d[2])
            # ---- position spring at the anchor's point
            if af[k, A_HZ] > 0.0:
                m = bf[b, B_INV_MASS]
                r = qrot(q, (af[k, A_LOCAL], af[k, A_LOCAL + 1], af[k, A_LOCAL + 2]))
                v = (bf[b, B_V], bf[b, B_V + 1], bf[b, B_V + 2])
                C = (bf[b, B_POS] + r[0] - af[k, A_TPOS],
                     bf[b, B_POS + 1] + r[1] - af[k, A_TPOS + 1],
                     bf[b, B_POS + 2] + r[2] - af[k, A_TPOS + 2])
                wr = _cross(w, r)
                sb = af[k, A_SOFT]
                sm = af[k, A_SOFT + 1]
                si = af[k, A_SOFT + 2]
                cd = (v[0] + wr[0] - af[k, A_TV] + sb * C[0],
                      v[1] + wr[1] - af[k, A_TV + 1] + sb * C[1],
                      v[2] + wr[2] - af[k, A_TV + 2] + sb * C[2])
                K = _sandwich_k(m, ii, r)
                x = solve3(K, cd)
                o0 = af[k, A_L_LIN]
                o1 = af[k, A_L_LIN + 1]
                o2 = af[k, A_L_LIN + 2]
                n0 = o0 - sm * x[0] - si * o0
                n1 = o1 - sm * x[1] - si * o1
                n2 = o2 - sm * x[2] - si * o2
                cap = h * af[k, A_FMAX]
                nn = n0 * n0 + n1 * n1 + n2 * n2
                if nn > cap * cap:
                    s = cap / math.sqrt(nn)
                    n0 *= s
                    n1 *= s
                    n2 *= s
                af[k, A_L_LIN] = n0
                af[k, A_L_LIN + 1] = n1
                af[k, A_L_LIN + 2] = n2
                P = (n0 - o0, n1 - o1, n2 - o2)
                bf[b, B_V] = v[0] + m * P[0]
                bf[b, B_V + 1] = v[1] + m * P[1]
                bf[b, B_V + 2] = v[2] + m * P[2]
                d = mv(ii, _cross(r, P))
                w = (w[0] + d[0], w[1] + d[1], w[2] + d[2])
        elif kind == ANCHOR_UPRIGHT:
            if af[k, A_HZ] <= 0.0 or af[k, A_TMAX] <= 0.0:
                continue
            f = qmul(q, (af[k, A_QAX], af[k, A_QAX + 1], af[k, A_QAX + 2], af[k, A_QAX + 3]))
            if f[3] < 0.0:
                f = (-f[0], -f[1], -f[2], -f[3])
            s = f[3]
            v = (f[0], f[1], f[2])
            t = _cross(v, (1.0, 0.0, 0.0))
            px = (s + t[0], t[1], t[2])
            t = _cross(v, (0.0, 0.0, 1.0))
            pz = (t[0], t[1], s + t[2])
            # a motor, as the joints' are: a hard velocity row asking the error back at the bias
            # rate, the same in both passes, its impulse capped (no steady give under a load
            # within the cap, whatever the body's inertia)
            sb = af[k, A_SOFT]
            sm = 1.0
            si = 0.0
            ix = mv(ii, px)
            iz = mv(ii, pz)
            k11 = _dot(px, ix)
            k12 = _dot(px, iz)
            k22 = _dot(pz, iz)
            # C = 2 (f.x, f.z) so that the rows (p above) are unit length when upright
            r1 = _dot(px, w) + sb * 2.0 * f[0]
            r2 = _dot(pz, w) + sb * 2.0 * f[2]
            det = k11 * k22 - k12 * k12
            if det <= 0.0:
                continue
            idet = 1.0 / det
            x1 = (k22 * r1 - k12 * r2) * idet
            x2 = (k11 * r2 - k12 * r1) * idet
            # the rows' accumulated impulses (l1, l2); the body holds o = their world sum as
            # applied so far (warm start included), and gets the difference to the new sum
            o = (af[k, A_L_ANG], af[k, A_L_ANG + 1], af[k, A_L_ANG + 2])
            l1 = af[k, A_L_UP] - sm * x1 - si * af[k, A_L_UP]
            l2 = af[k, A_L_UP + 1] - sm * x2 - si * af[k, A_L_UP + 1]
            Lx = l1 * px[0] + l2 * pz[0]
            Ly = l1 * px[1] + l2 * pz[1]
            Lz = l1 * px[2] + l2 * pz[2]
            cap = h * af[k, A_TMAX]
            nn = Lx * Lx + Ly * Ly + Lz * Lz
            if nn > cap * cap:
                sc = cap / math.sqrt(nn)
                Lx *= sc
                Ly *= sc
                Lz *= sc
                l1 *= sc
                l2 *= sc
            af[k, A_L_UP] = l1
            af[k, A_L_UP + 1] = l2
            af[k, A_L_ANG] = Lx
            af[k, A_L_ANG + 1] = Ly
            af[k, A_L_ANG + 2] = Lz
            d = mv(ii, (Lx - o[0], Ly - o[1], Lz - o[2]))
            w = (w[0] + d[0], w[1] + d[1], w[2] + d[2])
        elif kind == ANCHOR_HEADING:
            if af[k, A_HZ] <= 0.0 or af[k, A_TMAX] <= 0.0:
                continue
            fw = qrot(q, (af[k, A_AXIS], af[k, A_AXIS + 1], af[k, A_AXIS + 2]))
            if fw[0] * fw[0] + fw[2] * fw[2] < 1e-6:
                continue
            psi = math.atan2(fw[0], fw[2])
            C = psi - af[k, A_HEADING]
            C = C - 2.0 * math.pi * math.floor((C + math.pi) / (2.0 * math.pi))
            # a motor, as the joints' are: a hard velocity row asking the error back at the bias
            # rate, the same in both passes, its impulse capped (no steady give under a load
            # within the cap, whatever the body's inertia)
            sb = af[k, A_SOFT]
            sm = 1.0
            si = 0.0
            kk = ii[4]
            if kk <= 0.0:
                continue
            old = af[k, A_L_ANG + 1]
            new = old - sm * (w[1] + sb * C) / kk - si * old
            cap = h * af[k, A_TMAX]
            new = min(max(new, -cap), cap)
            af[k, A_L_ANG + 1] = new
            dl = new - old
            w = (w[0] + ii[1] * dl, w[1] + ii[4] * dl, w[2] + ii[7] * dl)
        bf[b, B_W] = w[0]
        bf[b, B_W + 1] = w[1]
        bf[b, B_W + 2] = w[2]


@njit(cache=True, _nrt=False)
def anchor_force_torque(af, ai, k, out):
    """out[0:3] force (N) and out[3:6] torque (N·m, world) anchor k applied in its last sub-step."""
    h = af[k, A_H]
    ih = 1.0 / h if h > 0.0 else 0.0
    for c in range(3):
        out[c] = af[k, A_L_LIN + c] * ih
        out[3 + c] = af[k, A_L_ANG + c] * ih
