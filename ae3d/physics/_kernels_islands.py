"""Solver islands: the step's bodies split into groups that no joint or contact joins, so that
each group's sub-steps can run on its own thread (``_kernels_step._solve_runs``).

Two dynamic bodies are in one island when a joint or a contact manifold joins them. Static and
kinematic bodies join nothing: the solver never changes their velocities (a contact leaves a side
with no inverse mass alone; a joint adds 0 to it), so two islands may both read them.

Why the results do not depend on the split: every body's velocity is changed only by the
constraints of its own island, and within an island the joints, anchors and manifolds keep the
order of their slots. A body therefore sees exactly the operations, in exactly the order, that
the whole world solved as one group gives it: the same bits on any number of threads, and the
same as before islands existed.

When that argument does not hold the whole world is one island (the former serial order):
a kinematic body moving this step (its pose changes between sub-steps, which islands solved one
after the other would read at different times), a joint or an anchor on no dynamic body, or a
manifold between two bodies neither of which is dynamic. Joints and anchors on a parked body are
left out of every island (the solver skips them).

Output (CSR, ``int64``): island k's bodies are ``bl[bs[k]:bs[k+1]]``, its joint slots
``jl[js[k]:js[k+1]]``, anchor slots ``al[as_[k]:as_[k+1]]`` and manifolds ``ml[ms[k]:ms[k+1]]``,
each in ascending order; islands are numbered by their lowest body.
"""

from numba import njit

from ._layout import (
    A_BODY,
    A_KIND,
    ANCHOR_FREE,
    B_KIND,
    B_PARKED,
    J_BODY_A,
    J_BODY_B,
    J_KIND,
    JOINT_FREE,
    KIND_DYNAMIC,
    KIND_KINEMATIC,
    M_A,
    M_B,
    SI_ACT,
)


@njit(cache=True, _nrt=False, inline="always")
def _root(parent, i):
    while parent[i] != i:
        parent[i] = parent[parent[i]]  # path halving
        i = parent[i]
    return i


@njit(cache=True, _nrt=False)
def _dynamic(bi, n, b):
    return 0 <= b < n and bi[b, B_KIND] == KIND_DYNAMIC and bi[b, B_PARKED] == 0


@njit(cache=True, _nrt=False, inline="always")
def _join(bi, n, parent, a, b):
    """A joint's or manifold's bodies a, b: one island when both are dynamic (the lower root
    wins, so a root is its island's lowest body). False when neither is: the caller then solves
    the world as one island."""
    da = _dynamic(bi, n, a)
    db = _dynamic(bi, n, b)
    if da and db:
        ra = _root(parent, a)
        rb = _root(parent, b)
        if ra != rb:
            parent[max(ra, rb)] = min(ra, rb)
    return da or db


@njit(cache=True, _nrt=False, inline="always")
def _pair_island(a, b, n, bi, island):
    """The island of a joint's or manifold's bodies (at least one dynamic, checked before)."""
    if _dynamic(bi, n, a):
        return island[a]
    return island[b]


@njit(cache=True, _nrt=False, inline="always")
def _joint_island(ji, j, n, bi, island):
    return _pair_island(ji[j, J_BODY_A], ji[j, J_BODY_B], n, bi, island)


@njit(cache=True, _nrt=False, inline="always")
def _parked(bi, n, b):
    return 0 <= b < n and bi[b, B_PARKED] != 0


@njit(cache=True, _nrt=False, inline="always")
def _listed_joint(bi, n, ji, j):
    """A joint the solver may act on: not free, on no parked body (those it skips)."""
    return (ji[j, J_KIND] != JOINT_FREE and not _parked(bi, n, ji[j, J_BODY_A])
            and not _parked(bi, n, ji[j, J_BODY_B]))


@njit(cache=True, _nrt=False)
def _one_island(lb, lj, la, nm, out):
    """Everything in one island, in slot order (the serial solve): the bodies not parked, the
    joints and anchors in use on no parked body (every solve pass skips those left out)."""
    bl, bs, jl, js, al, as_, ml, ms = out
    for t in range(lb.shape[0]):
        bl[t] = lb[t]
    nj_used = lj.shape[0]
    for t in range(nj_used):
        jl[t] = lj[t]
    na_used = la.shape[0]
    for t in range(na_used):
        al[t] = la[t]
    for r in range(nm):
        ml[r] = r
    bs[0] = 0
    bs[1] = lb.shape[0]
    js[0] = 0
    js[1] = nj_used
    as_[0] = 0
    as_[1] = na_used
    ms[0] = 0
    ms[1] = nm
    return 1


@njit(cache=True, _nrt=False)
def build_islands(bi, n, lb, si, ji, lj, ai, la, mi, nm, parent, island, out):
    """Split the step into islands (see the module's docstring). lb, lj, la: the body slots
    not parked, the joint and anchor slots in use on no parked body (ascending; a parked
    body's parent and island are never written nor read). parent, island: (n,) int64
    scratch; out: the eight CSR arrays (bl and island of n, bs of n + 1, jl/js of nj and nj + 1,
    al/as_ of na and na + 1, ml/ms of nm and nm + 1). Returns the number of islands."""
    bl, bs, jl, js, al, as_, ml, ms = out
    for t in range(lb.shape[0]):
        i = lb[t]
        parent[i] = i if _dynamic(bi, n, i) else -1
        if bi[i, B_KIND] == KIND_KINEMATIC and bi[i, B_PARKED] == 0 and si[i, SI_ACT] == 2:
            return _one_island(lb, lj, la, nm, out)
    for t in range(lj.shape[0]):
        j = lj[t]
        if not _listed_joint(bi, n, ji, j):
            continue
        if not _join(bi, n, parent, ji[j, J_BODY_A], ji[j, J_BODY_B]):
            return _one_island(lb, lj, la, nm, out)
    for t in range(la.shape[0]):
        k = la[t]
        if ai[k, A_KIND] == ANCHOR_FREE:
            continue
        b = ai[k, A_BODY]
        if not _dynamic(bi, n, b) and 0 <= b < n and bi[b, B_PARKED] == 0:
            return _one_island(lb, lj, la, nm, out)
    for r in range(nm):
        if not _join(bi, n, parent, mi[r, M_A], mi[r, M_B]):
            return _one_island(lb, lj, la, nm, out)
    # number the islands by their lowest body (the root is the lowest: unions keep the minimum)
    count = 0
    for t in range(lb.shape[0]):
        i = lb[t]
        island[i] = -1
        if parent[i] >= 0 and _root(parent, i) == i:
            island[i] = count
            count += 1
    for t in range(lb.shape[0]):
        i = lb[t]
        if parent[i] >= 0 and parent[i] != i:
            island[i] = island[_root(parent, i)]
    # counts, then offsets, then the lists in slot order
    for k in range(count + 1):
        bs[k] = 0
        js[k] = 0
        as_[k] = 0
        ms[k] = 0
    for t in range(lb.shape[0]):
        i = lb[t]
        if island[i] >= 0:
            bs[island[i] + 1] += 1
    for t in range(lj.shape[0]):
        j = lj[t]
        if _listed_joint(bi, n, ji, j):
            js[_joint_island(ji, j, n, bi, island) + 1] += 1
    for t in range(la.shape[0]):
        k = la[t]
        if ai[k, A_KIND] != ANCHOR_FREE and _dynamic(bi, n, ai[k, A_BODY]):
            as_[island[ai[k, A_BODY]] + 1] += 1
    for r in range(nm):
        ms[_pair_island(mi[r, M_A], mi[r, M_B], n, bi, island) + 1] += 1
    for k in range(count):
        bs[k + 1] += bs[k]
        js[k + 1] += js[k]
        as_[k + 1] += as_[k]
        ms[k + 1] += ms[k]
    # parent's last use was above: it is the fill cursors' scratch now (count <= n), so the
    # kernel allocates nothing and runs without numba's reference counting (_nrt=False)
    fill = parent
    for k in range(count):
        fill[k] = bs[k]
    for t in range(lb.shape[0]):
        i = lb[t]
        if island[i] >= 0:
            bl[fill[island[i]]] = i
            fill[island[i]] += 1
    for k in range(count):
        fill[k] = js[k]
    for t in range(lj.shape[0]):
        j = lj[t]
        if _listed_joint(bi, n, ji, j):
            k = _joint_island(ji, j, n, bi, island)
            jl[fill[k]] = j
            fill[k] += 1
    for k in range(count):
        fill[k] = as_[k]
    for t in range(la.shape[0]):
        a = la[t]
        if ai[a, A_KIND] != ANCHOR_FREE and _dynamic(bi, n, ai[a, A_BODY]):
            k = island[ai[a, A_BODY]]
            al[fill[k]] = a
            fill[k] += 1
    for k in range(count):
        fill[k] = ms[k]
    for r in range(nm):
        k = _pair_island(mi[r, M_A], mi[r, M_B], n, bi, island)
        ml[fill[k]] = r
        fill[k] += 1
    return count
