"""Quaternions and the ragdoll's bodies' kinematics, for the motion's kernels (njit).

The quaternion helpers take and return scalars (x, y, z, w), so the kernels keep them in
registers; the product and the rotation are the shared math module's (``ae3d/_math.py``).
The bodies' kinematics place a figure's bodies from a local pose (the pelvis's world pose and
each bone's rotation relative to its parent's body) through the joints' points, and back.
Units: m, rad. Quaternions are (x, y, z, w).
"""

from __future__ import annotations

import math

from numba import njit

from ae3d import _math as M
from ae3d.physics._layout import B_POS, B_QUAT, J_PA, J_PB

from ._layout import F_ANIM_POS, F_ANIM_ROT, PB_JOINT, PB_TARGET


# ------------------------------------------------------------------------------ quaternions
@njit(cache=True, inline="always")
def qmul(ax, ay, az, aw, bx, by, bz, bw):
    """The Hamilton product a b, on scalars (``ae3d._math.qmul``'s arithmetic)."""
    return M.qmul((ax, ay, az, aw), (bx, by, bz, bw))


@njit(cache=True, inline="always")
def qrot(qx, qy, qz, qw, vx, vy, vz):
    """v turned by the unit quaternion q, on scalars (``ae3d._math.qrot``'s arithmetic)."""
    return M.qrot((qx, qy, qz, qw), (vx, vy, vz))


@njit(cache=True)
def qnorm(x, y, z, w):
    n = math.sqrt(x * x + y * y + z * z + w * w)
    if not (n > 0.0):
        return 0.0, 0.0, 0.0, 1.0
    return x / n, y / n, z / n, w / n


@njit(cache=True)
def qdelta_rotvec(ax, ay, az, aw, bx, by, bz, bw):
    """The rotation vector (rad) of b a^-1: the turn from a to b in the outer frame."""
    x, y, z, w = qmul(bx, by, bz, bw, -ax, -ay, -az, aw)
    if w < 0.0:
        x, y, z, w = -x, -y, -z, -w
    s = math.sqrt(x * x + y * y + z * z)
    if s < 1e-12:
        return 2.0 * x, 2.0 * y, 2.0 * z
    ang = 2.0 * math.atan2(s, w)
    k = ang / s
    return x * k, y * k, z * k


@njit(cache=True)
def qexp(rx, ry, rz):
    """The quaternion of rotation vector r (rad)."""
    a = math.sqrt(rx * rx + ry * ry + rz * rz)
    if a < 1e-12:
        return qnorm(0.5 * rx, 0.5 * ry, 0.5 * rz, 1.0)
    s = math.sin(0.5 * a) / a
    return rx * s, ry * s, rz * s, math.cos(0.5 * a)


@njit(cache=True, inline="always")
def turn_into(rx, ry, rz, q, b, out, o):
    """out[o] = row b of quaternions q turned by the rotation vector (rx, ry, rz) rad (on the
    left: in q's frame's parent), unit, its w kept non-negative (one sign for every pose drawn)."""
    ex, ey, ez, ew = qexp(rx, ry, rz)
    qx, qy, qz, qw = qnorm(*qmul(ex, ey, ez, ew, q[b, 0], q[b, 1], q[b, 2], q[b, 3]))
    if qw < 0.0:
        qx, qy, qz, qw = -qx, -qy, -qz, -qw
    out[o, 0] = qx
    out[o, 1] = qy
    out[o, 2] = qz
    out[o, 3] = qw


# ---------------------------------------------------------------------- the bodies' poses
@njit(cache=True, inline="always")
def place_child(jf, j, a, b, lx, ly, lz, lw, out_p, out_q):
    """Bone ``b``'s pose (out_p m, out_q xyzw) from its parent ``a``'s and the joint ``j``
    turned by local rotation (lx, ly, lz, lw): the joint's points on both bodies coincide."""
    ax, ay, az, aw = out_q[a, 0], out_q[a, 1], out_q[a, 2], out_q[a, 3]
    bx, by, bz, bw = qnorm(*qmul(ax, ay, az, aw, lx, ly, lz, lw))
    pax, pay, paz = qrot(ax, ay, az, aw, jf[j, J_PA], jf[j, J_PA + 1], jf[j, J_PA + 2])
    pbx, pby, pbz = qrot(bx, by, bz, bw, jf[j, J_PB], jf[j, J_PB + 1], jf[j, J_PB + 2])
    out_p[b, 0] = out_p[a, 0] + pax - pbx
    out_p[b, 1] = out_p[a, 1] + pay - pby
    out_p[b, 2] = out_p[a, 2] + paz - pbz
    out_q[b, 0] = bx
    out_q[b, 1] = by
    out_q[b, 2] = bz
    out_q[b, 3] = bw


@njit(cache=True, _nrt=False)
def anim_bodies(f, nb, parent, ff, pbf, pbi, jf, out_p, out_q):
    """Forward kinematics of figure f's animation in body space: the pelvis at its F_ANIM_POS,
    F_ANIM_ROT, every other body turned by its target relative rotation (PB_TARGET, qparent^-1
    qbone) and placed so its joint's points meet. out_p (MAXB, 3) m, out_q (MAXB, 4)."""
    out_p[0, 0] = ff[f, F_ANIM_POS]
    out_p[0, 1] = ff[f, F_ANIM_POS + 1]
    out_p[0, 2] = ff[f, F_ANIM_POS + 2]
    for c in range(4):
        out_q[0, c] = ff[f, F_ANIM_ROT + c]
    for b in range(1, nb):
        a = parent[b]
        j = pbi[f, b, PB_JOINT]
        place_child(jf, j, a, b, pbf[f, b, PB_TARGET], pbf[f, b, PB_TARGET + 1],
                    pbf[f, b, PB_TARGET + 2], pbf[f, b, PB_TARGET + 3], out_p, out_q)


@njit(cache=True, _nrt=False)
def body_quat(bf, s):
    """The world rotation (x, y, z, w) of body slot ``s``."""
    return bf[s, B_QUAT], bf[s, B_QUAT + 1], bf[s, B_QUAT + 2], bf[s, B_QUAT + 3]


@njit(cache=True, _nrt=False)
def relative_from_world(nb, parent, q, out):
    """out[0] = q[0]; out[b] = q[parent]^-1 q[b] (w >= 0) for the other bones."""
    for c in range(4):
        out[0, c] = q[0, c]
    for b in range(1, nb):
        a = parent[b]
        x, y, z, w = qmul(-q[a, 0], -q[a, 1], -q[a, 2], q[a, 3], q[b, 0], q[b, 1], q[b, 2], q[b, 3])
        if w < 0.0:
            x, y, z, w = -x, -y, -z, -w
        out[b, 0] = x
        out[b, 1] = y
        out[b, 2] = z
        out[b, 3] = w


@njit(cache=True, _nrt=False)
def body_pose_local(bf, ji, nb, parent, bodies, out_q, out_t):
    """The bodies' pose as the motion module draws it: out_q[0] the pelvis's world rotation,
    out_q[b] each bone's rotation relative to its parent's body (qparent^-1 qbone, w >= 0);
    out_t[0] the pelvis's position (m), the other rows 0."""
    for b in range(nb):
        s = bodies[b]
        qx, qy, qz, qw = bf[s, B_QUAT], bf[s, B_QUAT + 1], bf[s, B_QUAT + 2], bf[s, B_QUAT + 3]
        if b > 0:
            p = bodies[parent[b]]
            qx, qy, qz, qw = qmul(-bf[p, B_QUAT], -bf[p, B_QUAT + 1], -bf[p, B_QUAT + 2],
                                  bf[p, B_QUAT + 3], qx, qy, qz, qw)
            out_t[b, 0] = 0.0
            out_t[b, 1] = 0.0
            out_t[b, 2] = 0.0
        else:
            out_t[0, 0] = bf[s, B_POS]
            out_t[0, 1] = bf[s, B_POS + 1]
            out_t[0, 2] = bf[s, B_POS + 2]
        if qw < 0.0:
            qx, qy, qz, qw = -qx, -qy, -qz, -qw
        out_q[b, 0] = qx
        out_q[b, 1] = qy
        out_q[b, 2] = qz
        out_q[b, 3] = qw


@njit(cache=True, _nrt=False)
def local_to_world(nb, parent, joints, jf, loc_q, loc_t, out_p, out_q):
    """World poses (m, quats) of the bodies from a local pose as ``body_pose_local`` writes it,
    placed through the joints' points from the pelvis out."""
    for c in range(3):
        out_p[0, c] = loc_t[0, c]
    for c in range(4):
        out_q[0, c] = loc_q[0, c]
    for b in range(1, nb):
        a = parent[b]
        j = joints[b]
        place_child(jf, j, a, b, loc_q[b, 0], loc_q[b, 1], loc_q[b, 2], loc_q[b, 3],
                     out_p, out_q)
