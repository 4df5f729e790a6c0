"""Compiled: a blow's response through the joints and the ground's share (``physics/_blow.py``).

``blow_kernel`` is the whole of ``_blow.blow_response`` in one numba call: the jointed group of
the struck body, the joints' velocity rows, the dense solve (C M⁻¹ Cᵀ) λ = -C M⁻¹ f, the split
into the rigid part and the joints' share with the speed caps, and the ground's share (the
contact rows from the last step's manifolds or the ground planes, the articulated mobility, the
projected Gauss-Seidel sweeps). The math and its reasons are in ``_blow.py``'s docstring; the
caps and tolerances come in as arguments from there.

Why compiled: in Python the same path took 3.3 to 5 ms a blow (a figure's 13 joints: some 50
rows on 84 unknowns, built with numpy calls of a few microseconds each), most of ``motion.hit``.
Here the rows are dense arrays but every product skips what the structure makes zero: a joint's
row touches two bodies, a contact's one, M⁻¹ is block diagonal. The solve is a Cholesky
factorisation of the symmetric positive definite C M⁻¹ Cᵀ (plus the same 1e-12 regularisation),
used again for the ground's mobility. The answers match the Python version (kept in
tests/blow_reference.py) to about 1e-12 relative (tests/physics/test_blow_compiled.py).

Units: N·s, m, m/s, rad/s, kg.
"""

from __future__ import annotations

import math

import numpy as np
from numba import njit

from ._layout import (
    B_DIMS,
    B_FRICTION,
    B_GROUP,
    B_INV_I,
    B_INV_MASS,
    B_KIND,
    B_MASK,
    B_POS,
    B_POS0,
    B_QUAT,
    B_QUAT0,
    B_SHAPE,
    B_V,
    B_W,
    J_BODY_A,
    J_BODY_B,
    J_KIND,
    J_PA,
    J_PB,
    J_QA,
    JOINT_FREE,
    JOINT_HINGE,
    KIND_DYNAMIC,
    KIND_FREE,
    M_A,
    M_B,
    M_FRICTION,
    M_N,
    M_NORMAL,
    M_P,
    P_RA,
    P_RB,
    P_SEP,
    P_STRIDE,
    SHAPE_BOX,
    SHAPE_CAPSULE,
    SHAPE_PLANE,
    SHAPE_SPHERE,
)


@njit(cache=True)
def _rot(x, y, z, w, out):
    """out (3, 3) = the rotation matrix of the unit quaternion (x, y, z, w)."""
    out[0, 0] = 1 - 2 * (y * y + z * z)
    out[0, 1] = 2 * (x * y - w * z)
    out[0, 2] = 2 * (x * z + w * y)
    out[1, 0] = 2 * (x * y + w * z)
    out[1, 1] = 1 - 2 * (x * x + z * z)
    out[1, 2] = 2 * (y * z - w * x)
    out[2, 0] = 2 * (x * z - w * y)
    out[2, 1] = 2 * (y * z + w * x)
    out[2, 2] = 1 - 2 * (x * x + y * y)


@njit(cache=True)
def _qmul(ax, ay, az, aw, bx, by, bz, bw):
    return (aw * bx + ax * bw + ay * bz - az * by, aw * by - ax * bz + ay * bw + az * bx,
            aw * bz + ax * by - ay * bx + az * bw, aw * bw - ax * bx - ay * by - az * bz)


@njit(cache=True)
def _turn_since_step(bf, b, out):
    """out (3, 3): body b's turn since the step began, R(q q0*)."""
    x, y, z, w = _qmul(bf[b, B_QUAT], bf[b, B_QUAT + 1], bf[b, B_QUAT + 2], bf[b, B_QUAT + 3],
                       -bf[b, B_QUAT0], -bf[b, B_QUAT0 + 1], -bf[b, B_QUAT0 + 2],
                       bf[b, B_QUAT0 + 3])
    _rot(x, y, z, w, out)


@njit(cache=True)
def _cholesky(k):
    """The lower factor of the symmetric positive definite k (m, m), in a new array (a pivot at
    or under zero, only from rounding on a redundant row, is taken as the smallest positive)."""
    m = k.shape[0]
    low = np.zeros((m, m))
    for j in range(m):
        s = k[j, j]
        for p in range(j):
            s -= low[j, p] * low[j, p]
        if s <= 0.0:
            s = 1e-300
        d = math.sqrt(s)
        low[j, j] = d
        for i in range(j + 1, m):
            t = k[i, j]
            for p in range(j):
                t -= low[i, p] * low[j, p]
            low[i, j] = t / d
    return low


@njit(cache=True)
def _chol_solve(low, b):
    """x with (low lowᵀ) x = b (m,), in place on b."""
    m = low.shape[0]
    for i in range(m):
        t = b[i]
        for p in range(i):
            t -= low[i, p] * b[p]
        b[i] = t / low[i, i]
    for i in range(m - 1, -1, -1):
        t = b[i]
        for p in range(i + 1, m):
            t -= low[p, i] * b[p]
        b[i] = t / low[i, i]


@njit(cache=True)
def _room(now, add, cap):
    """The largest s in [0, 1] with |now + s add| <= cap for every row (k, 3): 0 where a row is
    already past the cap (``_blow``'s caps)."""
    s = 1.0
    for i in range(now.shape[0]):
        bb = add[i, 0] * add[i, 0] + add[i, 1] * add[i, 1] + add[i, 2] * add[i, 2]
        if bb == 0.0:
            continue
        ab = now[i, 0] * add[i, 0] + now[i, 1] * add[i, 1] + now[i, 2] * add[i, 2]
        aa = now[i, 0] * now[i, 0] + now[i, 1] * now[i, 1] + now[i, 2] * now[i, 2]
        if aa >= cap * cap:
            return 0.0
        root = (-ab + math.sqrt(ab * ab + bb * (cap * cap - aa))) / bb
        s = min(s, max(0.0, root))
    return s


@njit(cache=True)
def _solve3(a, b):
    """x (3,) with a (3, 3) x = b (3,): Gaussian elimination with partial pivoting."""
    m = a.copy()
    x = b.copy()
    for c in range(3):
        p = c
        for r in range(c + 1, 3):
            if abs(m[r, c]) > abs(m[p, c]):
                p = r
        if p != c:
            for q in range(3):
                t = m[c, q]
                m[c, q] = m[p, q]
                m[p, q] = t
            t = x[c]
            x[c] = x[p]
            x[p] = t
        for r in range(c + 1, 3):
            f = m[r, c] / m[c, c]
            for q in range(c, 3):
                m[r, q] -= f * m[c, q]
            x[r] -= f * x[c]
    for r in range(2, -1, -1):
        t = x[r]
        for q in range(r + 1, 3):
            t -= m[r, q] * x[q]
        x[r] = t / m[r, r]
    return x


@njit(cache=True)
def _rigid_part(bf, bodies, rots, dv, dw):
    """(linear, turning, spin) (k, 3) each: ``_blow.rigid_part``, compiled."""
    k = bodies.shape[0]
    mass = np.empty(k)
    total = 0.0
    centre = np.zeros(3)
    for i in range(k):
        mass[i] = 1.0 / bf[bodies[i], B_INV_MASS]
        total += mass[i]
    for i in range(k):
        for c in range(3):
            centre[c] += mass[i] * bf[bodies[i], B_POS + c]
    for c in range(3):
        centre[c] /= total
    d = np.empty((k, 3))
    momentum = np.zeros(3)
    spin = np.zeros(3)
    inertia = np.zeros((3, 3))
    for i in range(k):
        for c in range(3):
            d[i, c] = bf[bodies[i], B_POS + c] - centre[c]
            momentum[c] += mass[i] * dv[i, c]
    for i in range(k):
        b = bodies[i]
        r = rots[i]
        body_i = np.empty((3, 3))
        for p in range(3):
            for q in range(3):
                s = 0.0
                for c in range(3):
                    s += r[p, c] * (1.0 / bf[b, B_INV_I + c]) * r[q, c]
                body_i[p, q] = s
        di = d[i]
        cx = di[1] * dv[i, 2] - di[2] * dv[i, 1]
        cy = di[2] * dv[i, 0] - di[0] * dv[i, 2]
        cz = di[0] * dv[i, 1] - di[1] * dv[i, 0]
        dd = di[0] * di[0] + di[1] * di[1] + di[2] * di[2]
        for p in range(3):
            s = 0.0
            for q in range(3):
                s += body_i[p, q] * dw[i, q]
            spin[p] += s
        spin[0] += mass[i] * cx
        spin[1] += mass[i] * cy
        spin[2] += mass[i] * cz
        for p in range(3):
            for q in range(3):
                inertia[p, q] += body_i[p, q] + mass[i] * ((dd if p == q else 0.0) - di[p] * di[q])
    omega = _solve3(inertia, spin)
    linear = np.empty((k, 3))
    turning = np.empty((k, 3))
    rw = np.empty((k, 3))
    for i in range(k):
        for c in range(3):
            linear[i, c] = momentum[c] / total
            rw[i, c] = omega[c]
        turning[i, 0] = omega[1] * d[i, 2] - omega[2] * d[i, 1]
        turning[i, 1] = omega[2] * d[i, 0] - omega[0] * d[i, 2]
        turning[i, 2] = omega[0] * d[i, 1] - omega[1] * d[i, 0]
    return linear, turning, rw


@njit(cache=True)
def _contact_dirs(nx, ny, nz, dirs, p):
    """dirs[p] (3, 3): the normal n and two tangents across it (``_blow._point_rows``)."""
    if abs(nx) < 0.9:
        ex, ey, ez = 1.0, 0.0, 0.0
    else:
        ex, ey, ez = 0.0, 1.0, 0.0
    t1x = ny * ez - nz * ey
    t1y = nz * ex - nx * ez
    t1z = nx * ey - ny * ex
    ln = math.sqrt(t1x * t1x + t1y * t1y + t1z * t1z)
    t1x /= ln
    t1y /= ln
    t1z /= ln
    dirs[p, 0, 0], dirs[p, 0, 1], dirs[p, 0, 2] = nx, ny, nz
    dirs[p, 1, 0], dirs[p, 1, 1], dirs[p, 1, 2] = t1x, t1y, t1z
    dirs[p, 2, 0] = ny * t1z - nz * t1y
    dirs[p, 2, 1] = nz * t1x - nx * t1z
    dirs[p, 2, 2] = nx * t1y - ny * t1x


@njit(cache=True)
def _add_point(p, i, nx, ny, nz, rx, ry, rz, cbody, dirs, arms):
    """Contact point p on group body i at r (m from its centre) with normal n: its three
    directions and their lever rows r × d."""
    cbody[p] = i
    _contact_dirs(nx, ny, nz, dirs, p)
    for t in range(3):
        dx, dy, dz = dirs[p, t, 0], dirs[p, t, 1], dirs[p, t, 2]
        arms[p, t, 0] = ry * dz - rz * dy
        arms[p, t, 1] = rz * dx - rx * dz
        arms[p, t, 2] = rx * dy - ry * dx


@njit(cache=True)
def contact_points(bf, bi, mi, mf, nm, nbody, steps, dt, bodies, index, rots, plane_margin):
    """The group's touching points on still bodies (``_blow.contact_rows``, compiled): (count,
    body (m,) group index, dirs (m, 3, 3) normal and tangents, arms (m, 3, 3) r × each, now (m,)
    m/s, floor (m,) m/s, friction (m,)), in the same order as the Python version."""
    k = bodies.shape[0]
    cap = 0
    if steps > 0:
        for r in range(nm):
            a, b = mi[r, M_A], mi[r, M_B]
            if (a >= 0 and index[a] >= 0) or (b >= 0 and index[b] >= 0):
                cap += mi[r, M_N]
    have = np.zeros(nbody, dtype=np.bool_)
    nplanes = 0
    planes = np.empty(nbody, dtype=np.int64)
    if steps > 0:
        for r in range(nm):
            if 0 <= mi[r, M_A] < nbody:
                have[mi[r, M_A]] = True
            if 0 <= mi[r, M_B] < nbody:
                have[mi[r, M_B]] = True
        for o in range(nbody):
            if bi[o, B_SHAPE] == SHAPE_PLANE and bi[o, B_KIND] != KIND_FREE:
                planes[nplanes] = o
                nplanes += 1
        cap += 8 * k * nplanes
    cbody = np.empty(cap, dtype=np.int64)
    dirs = np.empty((cap, 3, 3))
    arms = np.empty((cap, 3, 3))
    now = np.empty(cap)
    floor = np.empty(cap)
    mu = np.empty(cap)
    if steps == 0:
        return 0, cbody, dirs, arms, now, floor, mu
    cnt = 0
    turn_g = np.empty((3, 3))
    turn_o = np.empty((3, 3))
    for r in range(nm):
        a, b = mi[r, M_A], mi[r, M_B]
        ina = a >= 0 and index[a] >= 0
        inb = b >= 0 and index[b] >= 0
        if not (ina or inb) or (ina and inb):
            continue  # not the group's, or within it (the joints' rows hold it)
        if inb:
            g, o, sign = b, a, 1.0   # the normal runs from A to B
        else:
            g, o, sign = a, b, -1.0
        if bi[o, B_KIND] == KIND_DYNAMIC:
            continue  # another free body: it gives way (the solver's work)
        nx = sign * mf[r, M_NORMAL]
        ny = sign * mf[r, M_NORMAL + 1]
        nz = sign * mf[r, M_NORMAL + 2]
        _turn_since_step(bf, g, turn_g)
        _turn_since_step(bf, o, turn_o)
        i = index[g]
        for p in range(mi[r, M_N]):
            at = M_P + p * P_STRIDE
            cg = at + (P_RB if inb else P_RA)
            co = at + (P_RA if inb else P_RB)
            rg = np.empty(3)
            ro = np.empty(3)
            for c in range(3):
                rg[c] = (turn_g[c, 0] * mf[r, cg] + turn_g[c, 1] * mf[r, cg + 1]
                         + turn_g[c, 2] * mf[r, cg + 2])
                ro[c] = (turn_o[c, 0] * mf[r, co] + turn_o[c, 1] * mf[r, co + 1]
                         + turn_o[c, 2] * mf[r, co + 2])
            # the points' separation now: at collide, plus how far the two points moved since
            moved_n = 0.0
            vrel_n = 0.0
            wg = bf[g, B_W:B_W + 3]
            wo = bf[o, B_W:B_W + 3]
            vg = (bf[g, B_V] + wg[1] * rg[2] - wg[2] * rg[1],
                  bf[g, B_V + 1] + wg[2] * rg[0] - wg[0] * rg[2],
                  bf[g, B_V + 2] + wg[0] * rg[1] - wg[1] * rg[0])
            vo = (bf[o, B_V] + wo[1] * ro[2] - wo[2] * ro[1],
                  bf[o, B_V + 1] + wo[2] * ro[0] - wo[0] * ro[2],
                  bf[o, B_V + 2] + wo[0] * ro[1] - wo[1] * ro[0])
            for c in range(3):
                moved = ((bf[g, B_POS + c] - bf[g, B_POS0 + c] + rg[c] - mf[r, cg + c])
                         - (bf[o, B_POS + c] - bf[o, B_POS0 + c] + ro[c] - mf[r, co + c]))
                moved_n += mf[r, M_NORMAL + c] * moved
                vrel_n += mf[r, M_NORMAL + c] * (vg[c] - vo[c])
            sep = mf[r, at + P_SEP] + sign * moved_n
            _add_point(cnt, i, nx, ny, nz, rg[0], rg[1], rg[2], cbody, dirs, arms)
            mu[cnt] = mf[r, M_FRICTION]
            now[cnt] = sign * vrel_n
            floor[cnt] = -max(sep, 0.0) / dt
            cnt += 1
    # bodies with no manifold (an island asleep keeps none): their points against the ground
    # planes, within plane_margin
    rot_o = np.empty((3, 3))
    offs = np.empty((8, 3))
    for i in range(k):
        g = bodies[i]
        if have[g]:
            continue
        for q in range(nplanes):
            o = planes[q]
            if (bi[g, B_GROUP] & bi[o, B_MASK]) == 0 or (bi[o, B_GROUP] & bi[g, B_MASK]) == 0:
                continue
            _rot(bf[o, B_QUAT], bf[o, B_QUAT + 1], bf[o, B_QUAT + 2], bf[o, B_QUAT + 3], rot_o)
            nx, ny, nz = rot_o[0, 1], rot_o[1, 1], rot_o[2, 1]
            shape = bi[g, B_SHAPE]
            d0, d1, d2 = bf[g, B_DIMS], bf[g, B_DIMS + 1], bf[g, B_DIMS + 2]
            rg = rots[i]
            nl = 0
            if shape == SHAPE_SPHERE:
                offs[0, 0], offs[0, 1], offs[0, 2] = -d0 * nx, -d0 * ny, -d0 * nz
                nl = 1
            elif shape == SHAPE_CAPSULE:
                for s in range(2):
                    sg = -1.0 if s == 0 else 1.0
                    offs[s, 0] = sg * d1 * rg[0, 1] - d0 * nx
                    offs[s, 1] = sg * d1 * rg[1, 1] - d0 * ny
                    offs[s, 2] = sg * d1 * rg[2, 1] - d0 * nz
                nl = 2
            elif shape == SHAPE_BOX:
                for sx in range(2):
                    for sy in range(2):
                        for sz in range(2):
                            hx = d0 * (-1.0 if sx == 0 else 1.0)
                            hy = d1 * (-1.0 if sy == 0 else 1.0)
                            hz = d2 * (-1.0 if sz == 0 else 1.0)
                            for c in range(3):
                                offs[nl, c] = rg[c, 0] * hx + rg[c, 1] * hy + rg[c, 2] * hz
                            nl += 1
            for li in range(nl):
                ox, oy, oz = offs[li, 0], offs[li, 1], offs[li, 2]
                sep = ((bf[g, B_POS] + ox - bf[o, B_POS]) * nx
                       + (bf[g, B_POS + 1] + oy - bf[o, B_POS + 1]) * ny
                       + (bf[g, B_POS + 2] + oz - bf[o, B_POS + 2]) * nz)
                if sep >= plane_margin:
                    continue
                _add_point(cnt, i, nx, ny, nz, ox, oy, oz, cbody, dirs, arms)
                mu[cnt] = math.sqrt(bf[g, B_FRICTION] * bf[o, B_FRICTION])
                wx, wy, wz = bf[g, B_W], bf[g, B_W + 1], bf[g, B_W + 2]
                now[cnt] = (nx * (bf[g, B_V] + wy * oz - wz * oy)
                            + ny * (bf[g, B_V + 1] + wz * ox - wx * oz)
                            + nz * (bf[g, B_V + 2] + wx * oy - wy * ox))
                floor[cnt] = -max(sep, 0.0) / dt
                cnt += 1
    return cnt, cbody, dirs, arms, now, floor, mu


@njit(cache=True)
def blow_kernel(bf, bi, jf, ji, nj, mi, mf, nm, nbody, steps, dt, slot, impulse, point,
                has_point, speed_cap, spin_cap, group_speed_cap, group_spin_cap, max_group,
                sweeps, tol, plane_margin, stats):
    """The velocity changes a blow ``impulse`` (3,) N·s at ``point`` (3,) m (the centre unless
    ``has_point``) on body ``slot`` gives its jointed group (``_blow.blow_response``): (bodies
    (k,), dv (k, 3) m/s, dw (k, 3) rad/s, scale). k = 1: a lone body, or a group of more than
    ``max_group`` (the caller takes the blow on the body alone; dv, dw are then zeros).
    ``stats[2]`` counts a blow the ground's share changed. Writes nothing else."""
    cap_all = bf.shape[0]
    # ---- the jointed group: breadth first from the struck body, joints in slot order
    seen = np.zeros(cap_all, dtype=np.bool_)
    group = np.empty(max_group, dtype=np.int64)
    group[0] = slot
    seen[slot] = True
    n = 1
    k = 0
    over = False
    while k < n and not over:
        b = group[k]
        k += 1
        for j in range(nj):
            if ji[j, J_KIND] == JOINT_FREE:
                continue
            a_, b_ = ji[j, J_BODY_A], ji[j, J_BODY_B]
            other = b_ if a_ == b else (a_ if b_ == b else -1)
            if other >= 0 and not seen[other] and bi[other, B_KIND] == KIND_DYNAMIC:
                if n == max_group:
                    over = True
                    break
                seen[other] = True
                group[n] = other
                n += 1
    if over or n == 1:
        one = np.empty(1, dtype=np.int64)
        one[0] = slot
        return one, np.zeros((1, 3)), np.zeros((1, 3)), 1.0
    bodies = group[:n].copy()
    index = np.full(cap_all, -1, dtype=np.int64)
    for i in range(n):
        index[bodies[i]] = i
    nrow = 0
    anchored = False
    for j in range(nj):
        if ji[j, J_KIND] == JOINT_FREE:
            continue
        a_, b_ = ji[j, J_BODY_A], ji[j, J_BODY_B]
        ina = a_ >= 0 and index[a_] >= 0
        inb = b_ >= 0 and index[b_] >= 0
        if ina or inb:
            nrow += 5 if ji[j, J_KIND] == JOINT_HINGE else 3
            if not (ina and inb):
                anchored = True  # held by the world, a static or a kinematic body
    # ---- the bodies: rotations, inverse masses, world inverse inertias
    rots = np.empty((n, 3, 3))
    invm = np.empty(n)
    iw = np.empty((n, 3, 3))
    for i in range(n):
        b = bodies[i]
        _rot(bf[b, B_QUAT], bf[b, B_QUAT + 1], bf[b, B_QUAT + 2], bf[b, B_QUAT + 3], rots[i])
        invm[i] = bf[b, B_INV_MASS]
        for c in range(3):
            if bf[b, B_INV_I + c] <= 0.0:
                anchored = True  # a body that cannot turn
        for p in range(3):
            for q in range(3):
                s = 0.0
                for c in range(3):
                    s += rots[i, p, c] * bf[b, B_INV_I + c] * rots[i, q, c]
                iw[i, p, q] = s
    # ---- the joints' rows: C (nrow, 6n), each touching at most two bodies (rb)
    nx6 = 6 * n
    cm = np.zeros((nrow, nx6))
    rb = np.full((nrow, 2), -1, dtype=np.int64)
    row = 0
    frame = np.empty((3, 3))
    for j in range(nj):
        if ji[j, J_KIND] == JOINT_FREE:
            continue
        a_, b_ = ji[j, J_BODY_A], ji[j, J_BODY_B]
        ia = index[a_] if a_ >= 0 else -1
        ib = index[b_] if b_ >= 0 else -1
        if ia < 0 and ib < 0:
            continue
        for e in range(2):
            i = ia if e == 0 else ib
            if i < 0:
                continue
            col = J_PA if e == 0 else J_PB
            sign = -1.0 if e == 0 else 1.0
            r0, r1, r2 = jf[j, col], jf[j, col + 1], jf[j, col + 2]
            rx = rots[i, 0, 0] * r0 + rots[i, 0, 1] * r1 + rots[i, 0, 2] * r2
            ry = rots[i, 1, 0] * r0 + rots[i, 1, 1] * r1 + rots[i, 1, 2] * r2
            rz = rots[i, 2, 0] * r0 + rots[i, 2, 1] * r1 + rots[i, 2, 2] * r2
            o = 6 * i
            for c in range(3):
                cm[row + c, o + c] = sign
                rb[row + c, e] = i
            # -sign [r]x: the point's velocity v + ω × r = v - [r]x ω
            cm[row, o + 4] = sign * rz
            cm[row, o + 5] = -sign * ry
            cm[row + 1, o + 3] = -sign * rz
            cm[row + 1, o + 5] = sign * rx
            cm[row + 2, o + 3] = sign * ry
            cm[row + 2, o + 4] = -sign * rx
        row += 3
        if ji[j, J_KIND] == JOINT_HINGE:
            if a_ >= 0:
                qx, qy = bf[a_, B_QUAT], bf[a_, B_QUAT + 1]
                qz, qw = bf[a_, B_QUAT + 2], bf[a_, B_QUAT + 3]
            else:
                qx, qy, qz, qw = 0.0, 0.0, 0.0, 1.0
            fx, fy, fz, fw = _qmul(qx, qy, qz, qw, jf[j, J_QA], jf[j, J_QA + 1], jf[j, J_QA + 2],
                                   jf[j, J_QA + 3])
            _rot(fx, fy, fz, fw, frame)
            for ax in range(1, 3):  # the two axes the hinge locks
                for e in range(2):
                    i = ia if e == 0 else ib
                    if i < 0:
                        continue
                    sign = -1.0 if e == 0 else 1.0
                    rb[row, e] = i
                    for c in range(3):
                        cm[row, 6 * i + 3 + c] = sign * frame[c, ax]
                row += 1
    # ---- M⁻¹ Cᵀ, row by row (MC[r] = M⁻¹ C[r]); K = C M⁻¹ Cᵀ
    mc = np.zeros((nrow, nx6))
    for r in range(nrow):
        for e in range(2):
            i = rb[r, e]
            if i < 0:
                continue
            o = 6 * i
            for c in range(3):
                mc[r, o + c] = invm[i] * cm[r, o + c]
            for p in range(3):
                s = 0.0
                for q in range(3):
                    s += iw[i, p, q] * cm[r, o + 3 + q]
                mc[r, o + 3 + p] = s
    kk = np.zeros((nrow, nrow))
    for r in range(nrow):
        for s_ in range(r + 1):
            t = 0.0
            for e in range(2):
                i = rb[r, e]
                if i < 0 or (rb[s_, 0] != i and rb[s_, 1] != i):
                    continue
                o = 6 * i
                for c in range(6):
                    t += cm[r, o + c] * mc[s_, o + c]
            kk[r, s_] = t
            kk[s_, r] = t
    big = 1.0
    for r in range(nrow):
        big = max(big, abs(kk[r, r]))
    for r in range(nrow):
        # a tiny regularisation: rows made redundant by a closed loop or a world end
        kk[r, r] += 1e-12 * big
    low = _cholesky(kk)
    # ---- the blow: free = M⁻¹ f (the struck body's block only), then the joints' impulses
    ix, iy, iz = impulse[0], impulse[1], impulse[2]
    tx, ty, tz = 0.0, 0.0, 0.0
    if has_point:
        px = point[0] - bf[slot, B_POS]
        py = point[1] - bf[slot, B_POS + 1]
        pz = point[2] - bf[slot, B_POS + 2]
        tx, ty, tz = py * iz - pz * iy, pz * ix - px * iz, px * iy - py * ix
    dx = np.zeros(nx6)
    dx[0], dx[1], dx[2] = invm[0] * ix, invm[0] * iy, invm[0] * iz
    for p in range(3):
        dx[3 + p] = iw[0, p, 0] * tx + iw[0, p, 1] * ty + iw[0, p, 2] * tz
    lam = np.zeros(nrow)
    for r in range(nrow):
        if rb[r, 0] == 0 or rb[r, 1] == 0:
            t = 0.0
            for c in range(6):
                t += cm[r, c] * dx[c]
            lam[r] = -t
    _chol_solve(low, lam)
    for r in range(nrow):
        for e in range(2):
            i = rb[r, e]
            if i < 0:
                continue
            o = 6 * i
            for c in range(6):
                dx[o + c] += mc[r, o + c] * lam[r]
    dv = np.empty((n, 3))
    dw = np.empty((n, 3))
    now_v = np.empty((n, 3))
    now_w = np.empty((n, 3))
    for i in range(n):
        for c in range(3):
            dv[i, c] = dx[6 * i + c]
            dw[i, c] = dx[6 * i + 3 + c]
            now_v[i, c] = bf[bodies[i], B_V + c]
            now_w[i, c] = bf[bodies[i], B_W + c]
    # ---- the rigid part and the joints' share, with the caps (``_blow.blow_response``)
    if anchored:
        lin = np.zeros((n, 3))
        ang = np.zeros((n, 3))
        rw = np.zeros((n, 3))
    else:
        lin, ang, rw = _rigid_part(bf, bodies, rots, dv, dw)
    iv = dv - lin - ang
    iwv = dw - rw
    spin = math.sqrt(rw[0, 0] ** 2 + rw[0, 1] ** 2 + rw[0, 2] ** 2)
    turn = 1.0 if spin <= group_spin_cap else group_spin_cap / spin
    rv = lin + turn * ang
    rw = rw * turn
    speed = math.sqrt(lin[0, 0] ** 2 + lin[0, 1] ** 2 + lin[0, 2] ** 2)
    rigid = min(_room(now_v, rv, speed_cap),
                1.0 if speed <= group_speed_cap else group_speed_cap / speed)
    rv = rv * rigid
    rw = rw * rigid
    rigid *= turn
    inner = min(_room(now_v + rv, iv, speed_cap), _room(now_w + rw, iwv, spin_cap))
    dv = rv + inner * iv
    dw = rw + inner * iwv
    # ---- the ground's share, in the same instant (``_blow.ground_share``)
    m, cbody, dirs, arms, now, floor, mu = contact_points(
        bf, bi, mi, mf, nm, nbody, steps, dt, bodies, index, rots, plane_margin)
    if m > 0:
        need = np.empty(m)
        anyneed = False
        for p in range(m):
            i = cbody[p]
            g = 0.0
            for c in range(3):
                g += dirs[p, 0, c] * dv[i, c] + arms[p, 0, c] * dw[i, c]
            need[p] = min(now[p], floor[p]) - (now[p] + g)
            if need[p] > 0.0:
                anyneed = True
        if anyneed:
            _ground(n, nrow, cm, mc, rb, low, invm, iw, m, cbody, dirs, arms, need, mu, dv, dw,
                    sweeps, tol)
            stats[2] += 1
    return bodies, dv, dw, min(rigid, inner)


@njit(cache=True)
def _ground(n, nrow, cm, mc, rb, low, invm, iw, m, cbody, dirs, arms, need, mu, dv, dw, sweeps,
            tol):
    """Adds the ground's share to dv, dw (n, 3) in place: the contact LCP on the articulated
    mobility W = M⁻¹ - M⁻¹Cᵀ K⁻¹ C M⁻¹ (K = low lowᵀ), A = cc W ccᵀ, by ``_ground_sweeps``."""
    m3 = 3 * m
    # each contact row: the body's (v, ω) coefficients, and M⁻¹ of it (6,)
    crow = np.empty((m3, 6))
    cmr = np.empty((m3, 6))
    for p in range(m):
        i = cbody[p]
        for t in range(3):
            q = 3 * p + t
            for c in range(3):
                crow[q, c] = dirs[p, t, c]
                crow[q, 3 + c] = arms[p, t, c]
                cmr[q, c] = invm[i] * dirs[p, t, c]
            for a in range(3):
                s = 0.0
                for c in range(3):
                    s += iw[i, a, c] * arms[p, t, c]
                cmr[q, 3 + a] = s
    # G = C M⁻¹ ccᵀ (nrow, 3m); A = cc M⁻¹ ccᵀ - Gᵀ K⁻¹ G
    gg = np.zeros((nrow, m3))
    for r in range(nrow):
        for q in range(m3):
            i = cbody[q // 3]
            if rb[r, 0] != i and rb[r, 1] != i:
                continue
            o = 6 * i
            s = 0.0
            for c in range(6):
                s += cm[r, o + c] * cmr[q, c]
            gg[r, q] = s
    x = gg.copy()
    col = np.empty(nrow)
    for q in range(m3):
        for r in range(nrow):
            col[r] = x[r, q]
        _chol_solve(low, col)
        for r in range(nrow):
            x[r, q] = col[r]
    a = np.zeros((m3, m3))
    for q in range(m3):
        iq = cbody[q // 3]
        for q2 in range(q + 1):
            s = 0.0
            if cbody[q2 // 3] == iq:
                for c in range(6):
                    s += crow[q, c] * cmr[q2, c]
            for r in range(nrow):
                s -= gg[r, q] * x[r, q2]
            a[q, q2] = s
            a[q2, q] = s
    diag = np.empty(m3)
    big = 1.0
    for q in range(m3):
        diag[q] = a[q, q]
        big = max(big, diag[q])
    tiny = 1e-12 * big
    # the target: each point's push leaves at its need; the blow's sliding undone (friction)
    target = np.empty(m3)
    for p in range(m):
        i = cbody[p]
        target[3 * p] = need[p]
        for t in range(1, 3):
            s = 0.0
            for c in range(3):
                s += dirs[p, t, c] * dv[i, c] + arms[p, t, c] * dw[i, c]
            target[3 * p + t] = -s
    lam = np.zeros(m3)
    got = np.zeros(m3)
    _ground_sweeps(a, diag, target, mu[:m].copy(), tiny, sweeps, tol, lam, got)
    # Δx = W ccᵀ λ = M⁻¹ ccᵀ λ - M⁻¹Cᵀ K⁻¹ (G λ)
    z = np.zeros(nrow)
    for r in range(nrow):
        s = 0.0
        for q in range(m3):
            s += gg[r, q] * lam[q]
        z[r] = s
    _chol_solve(low, z)
    d = np.zeros(6 * n)
    for q in range(m3):
        o = 6 * cbody[q // 3]
        for c in range(6):
            d[o + c] += cmr[q, c] * lam[q]
    for r in range(nrow):
        for e in range(2):
            i = rb[r, e]
            if i < 0:
                continue
            o = 6 * i
            for c in range(6):
                d[o + c] -= mc[r, o + c] * z[r]
    for i in range(n):
        for c in range(3):
            dv[i, c] += d[6 * i + c]
            dw[i, c] += d[6 * i + 3 + c]


@njit(cache=True, _nrt=False)
def _ground_sweeps(a, diag, target, mu, tiny, sweeps, tol, lam, got):
    """The ground's share's projected Gauss-Seidel (``_blow.ground_share``), in place on ``lam``
    (3m, N·s: each point's push, then its two frictions) and ``got`` (= a @ lam, m/s)."""
    m = len(lam) // 3
    n_all = len(lam)
    for _sweep in range(sweeps):
        most = 0.0
        for p in range(m):
            n_ = 3 * p
            o0, o1, o2 = lam[n_], lam[n_ + 1], lam[n_ + 2]
            if diag[n_] > tiny:
                lam[n_] = max(0.0, lam[n_] + (target[n_] - got[n_]) / diag[n_])
            for t in (n_ + 1, n_ + 2):
                if diag[t] > tiny:
                    lam[t] += (target[t] - got[t]) / diag[t]
            # Coulomb: the friction impulse within the disk of mu times the push
            cap = mu[p] * lam[n_]
            fr = math.hypot(lam[n_ + 1], lam[n_ + 2])
            if fr > cap:
                lam[n_ + 1] *= cap / fr
                lam[n_ + 2] *= cap / fr
            d0, d1, d2 = lam[n_] - o0, lam[n_ + 1] - o1, lam[n_ + 2] - o2
            if d0 != 0.0 or d1 != 0.0 or d2 != 0.0:
                for q in range(n_all):
                    got[q] += a[q, n_] * d0 + a[q, n_ + 1] * d1 + a[q, n_ + 2] * d2
                most = max(most, abs(d0) * diag[n_], abs(d1) * diag[n_ + 1],
                           abs(d2) * diag[n_ + 2])
        if most < tol:
            break
    # friction couples the rows and slows the sweeps: the pushes finish alone, the friction as
    # it stands (a point still driven in at 0.36 m/s by 2,000 N·s down on a lying figure's chest)
    for _sweep in range(sweeps):
        most = 0.0
        for n_ in range(0, n_all, 3):
            if diag[n_] <= tiny:
                continue
            new = max(0.0, lam[n_] + (target[n_] - got[n_]) / diag[n_])
            d = new - lam[n_]
            if d != 0.0:
                lam[n_] = new
                for q in range(n_all):
                    got[q] += a[q, n_] * d
                most = max(most, abs(d) * diag[n_])
        if most < tol:
            break
