"""Broadphase: sort-and-sweep on one axis, O(n log n + pairs), deterministic.

Each step every body in the world gets an AABB of its shape grown by how far it may move this
step (its speculative extent, ``SF_EXT``: dt·(|v| + |ω|·radius) + ½|g|dt² plus half the base
margin), so that a pair whose surfaces may meet within the step becomes a candidate and the
narrow phase keeps its points as speculative contacts (no tunnelling at speed). Against a ground
plane a dynamic body reaches further, ``SF_REACH``: its extent plus dt·reach_spin·its bounding
diameter, what a joint's drive may swing its far end by within the step without any speed at
the step's start (issue 18: a calf 2.50 cm over the ground, its margin 2.02 cm, swung 5.8 cm
down by the knee's drive within one step and sank 3.34 cm); see _kernels_contact's reach points.
The bodies are merge-sorted (stable; ties by slot) along the axis of largest spread of their
centres and swept; planes (infinite) are tested against each body directly.

A pair is a candidate only when at least one body moves (``SI_ACT`` 2: awake dynamic or moving
kinematic) and the other is not parked. Static-static, still-still, asleep-asleep, asleep-static
pairs never appear, so a sleeping pile costs only the O(n) passes. Groups and masks filter both
ways ((gA & mB) and (gB & mA)), and a sorted list of never-collide keys is binary-searched.
Candidates are written as keys ``a << 32 | b`` (a < b) and sorted, which is the canonical order
the manifolds and the solver follow.
"""

import math

from numba import njit

from ._layout import (
    B_DIMS,
    B_GROUP,
    B_KIND,
    B_MASK,
    B_PARKED,
    B_POS,
    B_QUAT,
    B_RADIUS,
    B_SHAPE,
    B_V,
    B_W,
    KIND_DYNAMIC,
    KIND_FREE,
    KIND_KINEMATIC,
    KIND_STATIC,
    SF_EXT,
    SF_HI,
    SF_KEY,
    SF_LO,
    SF_REACH,
    SF_SHI,
    SF_SLO,
    SHAPE_BOX,
    SHAPE_PLANE,
    SHAPE_SPHERE,
    SI_ACT,
    SI_ORDER,
    SI_PLANE,
    SI_TMP,
)
from ._math import qmat, qrot

KEY_SHIFT = 32
KEY_MASK = (1 << 32) - 1


@njit(cache=True, _nrt=False)
def compute_bounds(bf, bi, lb, dt, gmag, base_margin, sf, max_speed, max_spin, reach_spin):
    """AABBs (m) and speculative extents of every live, unparked body (lb: the slots not
    parked, ascending); returns the sweep axis.

    The extent is how far the body can move this step: its speed and spin held to what the
    sub-steps let it move by (max_speed m/s, max_spin rad/s; _kernels_step's nets), so one body
    struck far past them (a 5,000 N·s blow on a 1.5 kg forearm is 3,300 m/s until its first
    sub-step) does not reach out 55 m to every island around it."""
    mean0 = 0.0
    mean1 = 0.0
    mean2 = 0.0
    sq0 = 0.0
    sq1 = 0.0
    sq2 = 0.0
    cnt = 0
    for t in range(lb.shape[0]):
        i = lb[t]
        if bi[i, B_KIND] == KIND_FREE or bi[i, B_PARKED] != 0:
            continue
        shape = bi[i, B_SHAPE]
        if shape == SHAPE_PLANE:
            sf[i, SF_EXT] = 0.0
            sf[i, SF_REACH] = 0.0
            continue
        r = bf[i, B_RADIUS]
        ext = 0.5 * base_margin
        if bi[i, B_KIND] != KIND_STATIC:
            vx = bf[i, B_V]
            vy = bf[i, B_V + 1]
            vz = bf[i, B_V + 2]
            wx = bf[i, B_W]
            wy = bf[i, B_W + 1]
            wz = bf[i, B_W + 2]
            sp = (min(math.sqrt(vx * vx + vy * vy + vz * vz), max_speed)
                  + min(math.sqrt(wx * wx + wy * wy + wz * wz), max_spin) * r)
            ext += dt * sp
            if bi[i, B_KIND] == KIND_DYNAMIC:
                ext += gmag * dt * dt
        sf[i, SF_EXT] = ext
        sf[i, SF_REACH] = ext + (dt * reach_spin * 2.0 * r if bi[i, B_KIND] == KIND_DYNAMIC
                                 else 0.0)
        px = bf[i, B_POS]
        py = bf[i, B_POS + 1]
        pz = bf[i, B_POS + 2]
        q = (bf[i, B_QUAT], bf[i, B_QUAT + 1], bf[i, B_QUAT + 2], bf[i, B_QUAT + 3])
        if shape == SHAPE_SPHERE:
            e0 = r
            e1 = r
            e2 = r
        elif shape == SHAPE_BOX:
            m = qmat(q)
            hx = bf[i, B_DIMS]
            hy = bf[i, B_DIMS + 1]
            hz = bf[i, B_DIMS + 2]
            e0 = abs(m[0]) * hx + abs(m[1]) * hy + abs(m[2]) * hz
            e1 = abs(m[3]) * hx + abs(m[4]) * hy + abs(m[5]) * hz
            e2 = abs(m[6]) * hx + abs(m[7]) * hy + abs(m[8]) * hz
        else:  # capsule and cylinder: segment along local y, radius dims[0]
            a = qrot(q, (0.0, bf[i, B_DIMS + 1], 0.0))
            rr = bf[i, B_DIMS]
            e0 = abs(a[0]) + rr
            e1 = abs(a[1]) + rr
            e2 = abs(a[2]) + rr
        sf[i, SF_LO] = px - e0 - ext
        sf[i, SF_LO + 1] = py - e1 - ext
        sf[i, SF_LO + 2] = pz - e2 - ext
        sf[i, SF_HI] = px + e0 + ext
        sf[i, SF_HI + 1] = py + e1 + ext
        sf[i, SF_HI + 2] = pz + e2 + ext
        mean0 += px
        mean1 += py
        mean2 += pz
        sq0 += px * px
        sq1 += py * py
        sq2 += pz * pz
        cnt += 1
    if cnt == 0:
        return 0
    inv = 1.0 / cnt
    v0 = sq0 * inv - (mean0 * inv) ** 2
    v1 = sq1 * inv - (mean1 * inv) ** 2
    v2 = sq2 * inv - (mean2 * inv) ** 2
    if v0 >= v1 and v0 >= v2:
        return 0
    if v2 >= v1:
        return 2
    return 1


@njit(cache=True, _nrt=False)
def _merge_sort(si, sf, m):
    """Stable bottom-up merge sort of si[:m, SI_ORDER] by sf[slot, SF_KEY], scratch SI_TMP."""
    width = 1
    src = SI_ORDER
    dst = SI_TMP
    while width < m:
        i = 0
        while i < m:
            mid = min(i + width, m)
            hi = min(i + 2 * width, m)
            a = i
            b = mid
            k = i
            while a < mid and b < hi:
                if sf[si[b, src], SF_KEY] < sf[si[a, src], SF_KEY]:
                    si[k, dst] = si[b, src]
                    b += 1
                else:
                    si[k, dst] = si[a, src]
                    a += 1
                k += 1
            while a < mid:
                si[k, dst] = si[a, src]
                a += 1
                k += 1
            while b < hi:
                si[k, dst] = si[b, src]
                b += 1
                k += 1
            i += 2 * width
        src, dst = dst, src
        width *= 2
    if src != SI_ORDER:
        for i in range(m):
            si[i, SI_ORDER] = si[i, SI_TMP]


@njit(cache=True, _nrt=False)
def _ignored(key, ign, n_ign):
    lo = 0
    hi = n_ign
    while lo < hi:
        mid = (lo + hi) >> 1
        if ign[mid] < key:
            lo = mid + 1
        else:
            hi = mid
    return lo < n_ign and ign[lo] == key


@njit(cache=True, _nrt=False, inline="always")
def _filter(bi, a, b):
    return (bi[a, B_GROUP] & bi[b, B_MASK]) != 0 and (bi[b, B_GROUP] & bi[a, B_MASK]) != 0


@njit(cache=True, _nrt=False)
def _coherent_sort(si, sf, m, budget):
    """Insertion sort of si[:m, SI_ORDER] by (SF_KEY, slot), from the order it holds (last
    step's, nearly sorted: bodies move little in a step, so this is O(m)). Returns False once
    more than ``budget`` moves were needed (the order is then still a permutation)."""
    moves = 0
    for ii in range(1, m):
        s = si[ii, SI_ORDER]
        k = sf[s, SF_KEY]
        jj = ii - 1
        while jj >= 0:
            t = si[jj, SI_ORDER]
            kt = sf[t, SF_KEY]
            if kt < k or (kt == k and t < s):
                break
            si[jj + 1, SI_ORDER] = t
            jj -= 1
        moves += ii - 1 - jj
        si[jj + 1, SI_ORDER] = s
        if moves > budget:
            return False
    return True


@njit(cache=True)  # sorts its keys in place: numba's sort needs its reference counting
def find_pairs(bf, bi, n, lb, sf, si, axis, keys, key_cap, ign, n_ign, base_margin, sort_state):
    """Candidate pairs as sorted keys in keys[:count]; returns the count found (may exceed
    key_cap: then only key_cap are written and the caller grows the array for the next step).

    sort_state (int64 (2,)): the count and axis of the sweep order left in si[:, SI_ORDER] by
    the last call. When this call sweeps the same bodies on the same axis, that order is
    insertion-sorted (nearly sorted already); otherwise, or when too much moved, merge-sorted.
    Any order sorted by the key finds the same pairs, and the keys are sorted at the end, so
    the result does not depend on which sort ran.

    lb: the slots not parked, ascending (a parked slot's si is left as it was: its SI_TMP may
    hold an earlier step's scratch, so a slot of the kept order that is parked now is no longer
    the same set)."""
    m = 0
    nplanes = 0
    for t in range(lb.shape[0]):
        i = lb[t]
        si[i, SI_TMP] = 0  # 1: takes part in the sweep
        if bi[i, B_KIND] == KIND_FREE or bi[i, B_PARKED] != 0:
            continue
        if bi[i, B_SHAPE] == SHAPE_PLANE:
            si[nplanes, SI_PLANE] = i
            nplanes += 1
            continue
        si[i, SI_TMP] = 1
        sf[i, SF_KEY] = sf[i, SF_LO + axis]
        m += 1
    same = m > 1 and sort_state[0] == m and sort_state[1] == axis
    if same:
        # last step's order holds exactly these bodies, each once?
        for ii in range(m):
            s = si[ii, SI_ORDER]
            if s < 0 or s >= n or bi[s, B_PARKED] != 0 or si[s, SI_TMP] != 1:
                same = False
                break
            si[s, SI_TMP] = 2
    if not (same and _coherent_sort(si, sf, m, 4 * m + 64)):
        if not same:
            k = 0
            for t in range(lb.shape[0]):
                i = lb[t]
                if si[i, SI_TMP] != 0:
                    si[k, SI_ORDER] = i
                    k += 1
        _merge_sort(si, sf, m)
    sort_state[0] = m
    sort_state[1] = axis
    # the boxes in sweep order, contiguous (the inner loop then walks memory in order); the
    # sweep axis goes first, then the other two
    a1 = (axis + 1) % 3
    a2 = (axis + 2) % 3
    for ii in range(m):
        i = si[ii, SI_ORDER]
        sf[ii, SF_SLO] = sf[i, SF_LO + axis]
        sf[ii, SF_SLO + 1] = sf[i, SF_LO + a1]
        sf[ii, SF_SLO + 2] = sf[i, SF_LO + a2]
        sf[ii, SF_SHI] = sf[i, SF_HI + axis]
        sf[ii, SF_SHI + 1] = sf[i, SF_HI + a1]
        sf[ii, SF_SHI + 2] = sf[i, SF_HI + a2]
        si[ii, SI_TMP] = si[i, SI_ACT]
    count = 0
    for ii in range(m):
        i = si[ii, SI_ORDER]
        ai = si[ii, SI_TMP]
        hi_i = sf[ii, SF_SHI]
        lo1 = sf[ii, SF_SLO + 1]
        hi1 = sf[ii, SF_SHI + 1]
        lo2 = sf[ii, SF_SLO + 2]
        hi2 = sf[ii, SF_SHI + 2]
        for jj in range(ii + 1, m):
            if sf[jj, SF_SLO] > hi_i:
                break
            if ai != 2 and si[jj, SI_TMP] != 2:
                continue
            if (sf[jj, SF_SLO + 1] > hi1 or lo1 > sf[jj, SF_SHI + 1]
                    or sf[jj, SF_SLO + 2] > hi2 or lo2 > sf[jj, SF_SHI + 2]):
                continue
            j = si[jj, SI_ORDER]
            # a moving kinematic against a static or another kinematic: no response
            if bi[i, B_KIND] != KIND_DYNAMIC and bi[j, B_KIND] != KIND_DYNAMIC:
                continue
            if not _filter(bi, i, j):
                continue
            a = min(i, j)
            b = max(i, j)
            key = (a << KEY_SHIFT) | b
            if n_ign > 0 and _ignored(key, ign, n_ign):
                continue
            if count < key_cap:
                keys[count] = key
            count += 1
    for pp in range(nplanes):
        p = si[pp, SI_PLANE]
        nq = (bf[p, B_QUAT], bf[p, B_QUAT + 1], bf[p, B_QUAT + 2], bf[p, B_QUAT + 3])
        nrm = qrot(nq, (0.0, 1.0, 0.0))
        off = nrm[0] * bf[p, B_POS] + nrm[1] * bf[p, B_POS + 1] + nrm[2] * bf[p, B_POS + 2]
        for ii in range(m):
            i = si[ii, SI_ORDER]
            if si[i, SI_ACT] != 2 or bi[i, B_KIND] != KIND_DYNAMIC:
                continue
            d = (nrm[0] * bf[i, B_POS] + nrm[1] * bf[i, B_POS + 1] + nrm[2] * bf[i, B_POS + 2]
                 - off - bf[i, B_RADIUS])
            if d > sf[i, SF_REACH] + 0.5 * base_margin:
                continue
            if not _filter(bi, i, p):
                continue
            a = min(i, p)
            b = max(i, p)
            key = (a << KEY_SHIFT) | b
            if n_ign > 0 and _ignored(key, ign, n_ign):
                continue
            if count < key_cap:
                keys[count] = key
            count += 1
    nk = min(count, key_cap)
    keys[:nk].sort()
    return count


_unused = (KIND_KINEMATIC,)
