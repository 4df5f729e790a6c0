"""njit kernels of a dressed ragdoll (``_dress.py``): the rig's pose to the bodies and back.

A dressed ragdoll keeps, per bone ``b``, a constant offset between its rig bone's world frame and
its body: ``off_p[b]`` (m, in the rig bone's world rotation, scale removed) and ``off_q[b]``
(xyzw), so that

    q_body = q_bone * off_q            p_body = p_bone + R(q_bone) off_p

and back: ``q_bone = q_body * off_q^-1``, ``p_bone = p_body - R(q_bone) off_p``. Rig matrices may
carry a uniform scale (Mixamo's 0.01 armature); rotations are read with their columns normalised.
Quaternions are (x, y, z, w); matrices 4x4, column vectors. Every kernel allocates nothing.
"""

from __future__ import annotations

import math

import numpy as np
from numba import njit

from . import _math as M


@njit(cache=True, _nrt=False, inline="always")
def _qmul(ax, ay, az, aw, bx, by, bz, bw):
    return M.qmul((ax, ay, az, aw), (bx, by, bz, bw))


@njit(cache=True, _nrt=False)
def _rot_of(m):
    """The rotation (quaternion) of a 4x4 matrix's upper 3x3, its columns normalised."""
    c0 = math.sqrt(m[0, 0] ** 2 + m[1, 0] ** 2 + m[2, 0] ** 2)
    c1 = math.sqrt(m[0, 1] ** 2 + m[1, 1] ** 2 + m[2, 1] ** 2)
    c2 = math.sqrt(m[0, 2] ** 2 + m[1, 2] ** 2 + m[2, 2] ** 2)
    return M.mat9_quat(m[0, 0] / c0, m[0, 1] / c1, m[0, 2] / c2,
                       m[1, 0] / c0, m[1, 1] / c1, m[1, 2] / c2,
                       m[2, 0] / c0, m[2, 1] / c1, m[2, 2] / c2)


@njit(cache=True, _nrt=False, inline="always")
def _rotate(x, y, z, w, vx, vy, vz):
    # v + 2 w (q x v) + 2 q x (q x v)
    tx = 2.0 * (y * vz - z * vy)
    ty = 2.0 * (z * vx - x * vz)
    tz = 2.0 * (x * vy - y * vx)
    return (vx + w * tx + y * tz - z * ty,
            vy + w * ty + z * tx - x * tz,
            vz + w * tz + x * ty - y * tx)


@njit(cache=True, _nrt=False)
def bodies_from_world(world, rig_bones, off_p, off_q, out_p, out_q):
    """Body poses from rig world matrices: for each ragdoll bone ``b`` (rig bone
    ``rig_bones[b]``) ``out_q[b] = q_bone off_q[b]``, ``out_p[b] = p_bone + R(q_bone) off_p[b]``."""
    for b in range(rig_bones.shape[0]):
        m = world[rig_bones[b]]
        qx, qy, qz, qw = _rot_of(m)
        ox, oy, oz = _rotate(qx, qy, qz, qw, off_p[b, 0], off_p[b, 1], off_p[b, 2])
        out_p[b, 0] = m[0, 3] + ox
        out_p[b, 1] = m[1, 3] + oy
        out_p[b, 2] = m[2, 3] + oz
        x, y, z, w = _qmul(qx, qy, qz, qw, off_q[b, 0], off_q[b, 1], off_q[b, 2], off_q[b, 3])
        n = math.sqrt(x * x + y * y + z * z + w * w)
        if w < 0.0:
            n = -n
        out_q[b, 0] = x / n
        out_q[b, 1] = y / n
        out_q[b, 2] = z / n
        out_q[b, 3] = w / n


@njit(cache=True, _nrt=False)
def relative_targets(q_bodies, parents, out):
    """``out[b] = q_bodies[parent]^-1 q_bodies[b]`` (w >= 0) for b >= 1; ``out[0] = q_bodies[0]``
    (the root's world rotation)."""
    for b in range(q_bodies.shape[0]):
        p = parents[b]
        if p < 0:
            x, y, z, w = q_bodies[b, 0], q_bodies[b, 1], q_bodies[b, 2], q_bodies[b, 3]
        else:
            x, y, z, w = _qmul(-q_bodies[p, 0], -q_bodies[p, 1], -q_bodies[p, 2], q_bodies[p, 3],
                               q_bodies[b, 0], q_bodies[b, 1], q_bodies[b, 2], q_bodies[b, 3])
        if w < 0.0:
            x, y, z, w = -x, -y, -z, -w
        out[b, 0] = x
        out[b, 1] = y
        out[b, 2] = z
        out[b, 3] = w


@njit(cache=True, _nrt=False)
def _trs_into(tx, ty, tz, x, y, z, w, sx, sy, sz, out):
    out[0, 0] = (1.0 - 2.0 * (y * y + z * z)) * sx
    out[0, 1] = 2.0 * (x * y - w * z) * sy
    out[0, 2] = 2.0 * (x * z + w * y) * sz
    out[1, 0] = 2.0 * (x * y + w * z) * sx
    out[1, 1] = (1.0 - 2.0 * (x * x + z * z)) * sy
    out[1, 2] = 2.0 * (y * z - w * x) * sz
    out[2, 0] = 2.0 * (x * z - w * y) * sx
    out[2, 1] = 2.0 * (y * z + w * x) * sy
    out[2, 2] = (1.0 - 2.0 * (x * x + y * y)) * sz
    out[0, 3] = tx
    out[1, 3] = ty
    out[2, 3] = tz
    out[3, 0] = 0.0
    out[3, 1] = 0.0
    out[3, 2] = 0.0
    out[3, 3] = 1.0


@njit(cache=True)
def draw_bodies(parents, translation, rotation, scale, root, body_of, body_p, body_q, off_p,
                off_q, positions, world):
    """Write the bodies' pose into a rig, parents first, and recompute every world matrix.

    ``body_of[i]``: the ragdoll bone dressed on rig bone ``i`` (-1: none). A dressed bone takes
    the world rotation ``q_body off_q^-1`` and, when ``positions``, the world position
    ``p_body - R off_p`` (else it keeps its local translation); its local translation and
    rotation are solved against its parent's world matrix as just computed (the parent's scale
    uniform). Every other bone keeps its local pose and rides along. ``world`` (n, 4, 4) out.
    """
    tmp = np.empty((4, 4))
    for i in range(parents.shape[0]):
        p = parents[i]
        pw = root if p < 0 else world[p]
        k = body_of[i]
        if k >= 0:
            bx, by, bz, bw = body_q[k, 0], body_q[k, 1], body_q[k, 2], body_q[k, 3]
            qx, qy, qz, qw = _qmul(bx, by, bz, bw, -off_q[k, 0], -off_q[k, 1], -off_q[k, 2],
                                   off_q[k, 3])
            # the parent's rotation and (uniform) scale
            px, py, pz, pq = _rot_of(pw)
            s = math.sqrt(pw[0, 0] ** 2 + pw[1, 0] ** 2 + pw[2, 0] ** 2)
            lx, ly, lz, lw = _qmul(-px, -py, -pz, pq, qx, qy, qz, qw)
            n = math.sqrt(lx * lx + ly * ly + lz * lz + lw * lw)
            if lw < 0.0:
                n = -n
            rotation[i, 0] = lx / n
            rotation[i, 1] = ly / n
            rotation[i, 2] = lz / n
            rotation[i, 3] = lw / n
            if positions:
                ox, oy, oz = _rotate(qx, qy, qz, qw, off_p[k, 0], off_p[k, 1], off_p[k, 2])
                dx = body_p[k, 0] - ox - pw[0, 3]
                dy = body_p[k, 1] - oy - pw[1, 3]
                dz = body_p[k, 2] - oz - pw[2, 3]
                tx, ty, tz = _rotate(-px, -py, -pz, pq, dx, dy, dz)
                translation[i, 0] = tx / s
                translation[i, 1] = ty / s
                translation[i, 2] = tz / s
        _trs_into(translation[i, 0], translation[i, 1], translation[i, 2], rotation[i, 0],
                  rotation[i, 1], rotation[i, 2], rotation[i, 3], scale[i, 0], scale[i, 1],
                  scale[i, 2], tmp)
        for r in range(4):
            for c in range(4):
                world[i, r, c] = (pw[r, 0] * tmp[0, c] + pw[r, 1] * tmp[1, c]
                                  + pw[r, 2] * tmp[2, c] + pw[r, 3] * tmp[3, c])
