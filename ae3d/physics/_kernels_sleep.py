"""Sleeping by islands (Box2D's criterion, islands rebuilt each step).

Per awake dynamic body, after the step (box2d solver.c b2FinalizeBodiesTask):

    sleep_velocity = max(|v| + |ω|·radius, ½·(|Δx| + radius·|Δθ|)/dt)
    sleep_velocity > 0.05 m/s  ->  sleep_time = 0,  else sleep_time += dt

Islands are the connected sets of awake dynamic bodies through contacts (any manifold with points,
speculative ones included) and joints (``ji[:, J_BODY_A/J_BODY_B]``); static bodies, kinematic
bodies and world anchors do not link islands. A body touching a moving kinematic body keeps
sleep_time 0. Union-find with the lowest slot as root makes the island ids deterministic. An
island whose every body has slept for 0.5 s goes to sleep at once: velocities zeroed, B_AWAKE 0,
B_ISLAND its root. Box2D keeps persistent islands and splits one per step; rebuilding them is
O(bodies + constraints) per step for the awake set only, and simpler.

Waking (``wake_island``) wakes every asleep body with the same B_ISLAND: on a touch from a moving
body (the step's wake pass), a joint to an awake body, an impulse, force or any change made
through the API, and a moving kinematic body's contact.
"""

import math

from numba import njit

from ._layout import (
    B_AWAKE,
    B_FORCE,
    B_ISLAND,
    B_KIND,
    B_PARKED,
    B_POS,
    B_POS0,
    B_QUAT,
    B_QUAT0,
    B_RADIUS,
    B_SLEEP_TIME,
    B_TORQUE,
    B_V,
    B_W,
    J_BODY_A,
    J_BODY_B,
    J_KIND,
    JOINT_FREE,
    KIND_DYNAMIC,
    KIND_KINEMATIC,
    M_A,
    M_B,
    SF_KEY,
    SI_PARENT,
)


@njit(cache=True, _nrt=False)
def wake_island(bf, bi, n, slot):
    """Wake ``slot`` and every asleep body of its island; returns the count woken."""
    if bi[slot, B_KIND] != KIND_DYNAMIC or bi[slot, B_AWAKE] != 0:
        return 0
    isl = bi[slot, B_ISLAND]
    woke = 0
    for i in range(n):
        if i == slot or (bi[i, B_AWAKE] == 0 and bi[i, B_KIND] == KIND_DYNAMIC
                         and bi[i, B_ISLAND] == isl and isl >= 0):
            if bi[i, B_AWAKE] == 0:
                bi[i, B_AWAKE] = 1
                bf[i, B_SLEEP_TIME] = 0.0
                woke += 1
    return woke


@njit(cache=True, _nrt=False, inline="always")
def _live_dyn(bi, i):
    return (i >= 0 and bi[i, B_KIND] == KIND_DYNAMIC and bi[i, B_PARKED] == 0)


@njit(cache=True, _nrt=False)
def wake_through_joints(bf, bi, n, ji, lj):
    """An asleep body jointed to an awake one wakes (with its island); returns the count woken.
    lj: the joint slots in use on no parked body, ascending."""
    woke = 0
    for t in range(lj.shape[0]):
        j = lj[t]
        if ji[j, J_KIND] == JOINT_FREE:
            continue
        a = ji[j, J_BODY_A]
        b = ji[j, J_BODY_B]
        if not (_live_dyn(bi, a) and _live_dyn(bi, b)):
            continue
        if bi[a, B_AWAKE] != bi[b, B_AWAKE]:
            woke += wake_island(bf, bi, n, a if bi[a, B_AWAKE] == 0 else b)
    return woke


@njit(cache=True, _nrt=False, inline="always")
def _find(si, i):
    r = i
    while si[r, SI_PARENT] != r:
        r = si[r, SI_PARENT]
    while si[i, SI_PARENT] != r:
        nxt = si[i, SI_PARENT]
        si[i, SI_PARENT] = r
        i = nxt
    return r


@njit(cache=True, _nrt=False, inline="always")
def _union(si, a, b):
    ra = _find(si, a)
    rb = _find(si, b)
    if ra < rb:
        si[rb, SI_PARENT] = ra
    elif rb < ra:
        si[ra, SI_PARENT] = rb


@njit(cache=True, _nrt=False)
def update_sleep(bf, bi, lb, mi, nm, ji, lj, sf, si, dt, threshold, time_to_sleep, enable):
    """Sleep bookkeeping after the step; returns the number of bodies put to sleep. lb: the
    body slots not parked; lj: the joint slots in use on no parked body (ascending): a parked
    body's SI_PARENT is neither written nor read."""
    n = bi.shape[0]
    for t in range(lb.shape[0]):
        i = lb[t]
        si[i, SI_PARENT] = -1
        if not _live_dyn(bi, i) or bi[i, B_AWAKE] == 0:
            continue
        si[i, SI_PARENT] = i
        r = bf[i, B_RADIUS]
        vx = bf[i, B_V]
        vy = bf[i, B_V + 1]
        vz = bf[i, B_V + 2]
        wx = bf[i, B_W]
        wy = bf[i, B_W + 1]
        wz = bf[i, B_W + 2]
        vel = math.sqrt(vx * vx + vy * vy + vz * vz) + r * math.sqrt(wx * wx + wy * wy + wz * wz)
        dx = bf[i, B_POS] - bf[i, B_POS0]
        dy = bf[i, B_POS + 1] - bf[i, B_POS0 + 1]
        dz = bf[i, B_POS + 2] - bf[i, B_POS0 + 2]
        # |Δθ| ≈ 2|vector part of q·q0*|
        q0x = -bf[i, B_QUAT0]
        q0y = -bf[i, B_QUAT0 + 1]
        q0z = -bf[i, B_QUAT0 + 2]
        q0w = bf[i, B_QUAT0 + 3]
        qx = bf[i, B_QUAT]
        qy = bf[i, B_QUAT + 1]
        qz = bf[i, B_QUAT + 2]
        qw = bf[i, B_QUAT + 3]
        ex = qw * q0x + qx * q0w + qy * q0z - qz * q0y
        ey = qw * q0y - qx * q0z + qy * q0w + qz * q0x
        ez = qw * q0z + qx * q0y - qy * q0x + qz * q0w
        ang = 2.0 * math.sqrt(ex * ex + ey * ey + ez * ez)
        pvel = 0.5 * (math.sqrt(dx * dx + dy * dy + dz * dz) + r * ang) / dt
        if pvel > vel:
            vel = pvel
        if vel > threshold or not enable:
            bf[i, B_SLEEP_TIME] = 0.0
        else:
            bf[i, B_SLEEP_TIME] += dt
    if not enable:
        return 0
    for r in range(nm):
        a = mi[r, M_A]
        b = mi[r, M_B]
        pa = si[a, SI_PARENT]
        pb = si[b, SI_PARENT]
        if pa >= 0 and pb >= 0:
            _union(si, a, b)
        elif pa >= 0 and bi[b, B_KIND] == KIND_KINEMATIC:
            if (bf[b, B_V] != 0.0 or bf[b, B_V + 1] != 0.0 or bf[b, B_V + 2] != 0.0
                    or bf[b, B_W] != 0.0 or bf[b, B_W + 1] != 0.0 or bf[b, B_W + 2] != 0.0):
                bf[a, B_SLEEP_TIME] = 0.0
        elif pb >= 0 and bi[a, B_KIND] == KIND_KINEMATIC:
            if (bf[a, B_V] != 0.0 or bf[a, B_V + 1] != 0.0 or bf[a, B_V + 2] != 0.0
                    or bf[a, B_W] != 0.0 or bf[a, B_W + 1] != 0.0 or bf[a, B_W + 2] != 0.0):
                bf[b, B_SLEEP_TIME] = 0.0
    for t in range(lj.shape[0]):
        j = lj[t]
        if ji[j, J_KIND] == JOINT_FREE:
            continue
        a = ji[j, J_BODY_A]
        b = ji[j, J_BODY_B]
        if (a >= 0 and b >= 0 and a < n and b < n and si[a, SI_PARENT] >= 0
                and si[b, SI_PARENT] >= 0):
            _union(si, a, b)
    # island minimum sleep time, kept at the root (sf[:, SF_KEY] is free after the sweep)
    for t in range(lb.shape[0]):
        i = lb[t]
        if si[i, SI_PARENT] >= 0:
            sf[i, SF_KEY] = 1e300
    for t in range(lb.shape[0]):
        i = lb[t]
        if si[i, SI_PARENT] >= 0:
            root = _find(si, i)
            bi[i, B_ISLAND] = root
            t = bf[i, B_SLEEP_TIME]
            if t < sf[root, SF_KEY]:
                sf[root, SF_KEY] = t
    slept = 0
    for t in range(lb.shape[0]):
        i = lb[t]
        if si[i, SI_PARENT] >= 0:
            root = bi[i, B_ISLAND]
            if sf[root, SF_KEY] >= time_to_sleep:
                bi[i, B_AWAKE] = 0
                for k in range(3):
                    bf[i, B_V + k] = 0.0
                    bf[i, B_W + k] = 0.0
                    bf[i, B_FORCE + k] = 0.0
                    bf[i, B_TORQUE + k] = 0.0
                slept += 1
    return slept
