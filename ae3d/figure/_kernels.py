"""njit kernels of ae3d.figure: quaternions, forward kinematics, clip sampling, skinning.

Every helper a kernel calls lives in this file or in the shared ``ae3d/_math.py`` (numba's cache
does not see edits to helpers in other files: ``ae3d/_cache.py`` wipes it when any source under
``ae3d/`` changes). Quaternions are (x, y, z, w); matrices are 4x4 column-vector transforms
(``p_world = M @ p_local``), float64.

Clip sampling follows glTF 2.0 (section 3.11, appendix C): with keys t_k and s = (t - t_k) / td,
td = t_{k+1} - t_k,

- STEP: the value of key k for t in [t_k, t_{k+1});
- LINEAR: (1 - s) v_k + s v_{k+1}; rotations are slerped along the shortest arc;
- CUBICSPLINE: the Hermite spline
  (2s³ - 3s² + 1) v_k + td (s³ - 2s² + s) b_k + (-2s³ + 3s²) v_{k+1} + td (s³ - s²) a_{k+1},
  a the in-tangents and b the out-tangents; rotations are then normalised.

Before the first key the first value holds; after the last, the last.
"""

from __future__ import annotations

import math

import numpy as np
from numba import njit

from ae3d._math import qmat

PATH_TRANSLATION = 0
PATH_ROTATION = 1
PATH_SCALE = 2

INTERP_LINEAR = 0
INTERP_STEP = 1
INTERP_CUBIC = 2

# Below this 1 - |cos| two rotations are within ~1.4e-4 rad: slerp's sin(θ) would lose digits and
# the normalised lerp differs from it by O(θ³) ~ 1e-12, far under the sampler's 1e-9.
_SLERP_NLERP_BELOW = 1e-8


@njit(cache=True)
def trs_matrix(tx, ty, tz, qx, qy, qz, qw, sx, sy, sz, out):
    """Write T @ R @ S into out (4, 4). The quaternion need not be unit (it is normalised)."""
    n = math.sqrt(qx * qx + qy * qy + qz * qz + qw * qw)
    if n > 0.0:
        qx /= n
        qy /= n
        qz /= n
        qw /= n
    else:
        qx = 0.0
        qy = 0.0
        qz = 0.0
        qw = 1.0
    r = qmat((qx, qy, qz, qw))
    out[0, 0] = r[0] * sx
    out[1, 0] = r[3] * sx
    out[2, 0] = r[6] * sx
    out[3, 0] = 0.0
    out[0, 1] = r[1] * sy
    out[1, 1] = r[4] * sy
    out[2, 1] = r[7] * sy
    out[3, 1] = 0.0
    out[0, 2] = r[2] * sz
    out[1, 2] = r[5] * sz
    out[2, 2] = r[8] * sz
    out[3, 2] = 0.0
    out[0, 3] = tx
    out[1, 3] = ty
    out[2, 3] = tz
    out[3, 3] = 1.0


@njit(cache=True)
def _mat_mul_into(a, b, out):
    """out = a @ b for 4x4 affine matrices (out must not alias a or b)."""
    for i in range(4):
        for j in range(4):
            out[i, j] = (a[i, 0] * b[0, j] + a[i, 1] * b[1, j] + a[i, 2] * b[2, j]
                         + a[i, 3] * b[3, j])


@njit(cache=True)
def forward_kinematics(parents, translation, rotation, scale, root, world):
    """World matrices of a rig from its local pose.

    parents (n,) int32, each parent's index below its child's (-1 for a top node);
    translation (n, 3) m, rotation (n, 4) xyzw, scale (n, 3); root (4, 4) the object's placement,
    the parent of every top node; world (n, 4, 4) written.
    """
    local = np.empty((4, 4))
    for i in range(parents.shape[0]):
        trs_matrix(translation[i, 0], translation[i, 1], translation[i, 2],
                   rotation[i, 0], rotation[i, 1], rotation[i, 2], rotation[i, 3],
                   scale[i, 0], scale[i, 1], scale[i, 2], local)
        p = parents[i]
        if p < 0:
            _mat_mul_into(root, local, world[i])
        else:
            _mat_mul_into(world[p], local, world[i])


@njit(cache=True)
def skinning_matrices(world, bones, inverse_binds, out):
    """out[j] = world[bones[j]] @ inverse_binds[j]; (j, 4, 4)."""
    for j in range(bones.shape[0]):
        _mat_mul_into(world[bones[j]], inverse_binds[j], out[j])


@njit(cache=True)
def skin_vertices(positions, normals, joints, weights, mats, out_positions, out_normals):
    """Linear blend skinning into world space.

    positions, normals (v, 3) in the mesh's bind space; joints (v, 4) int32 indices into mats;
    weights (v, 4) (summing to 1); mats (j, 4, 4) skinning matrices. Positions go through the
    blended matrix, normals through its cofactor (the inverse transpose up to a positive
    factor) and are normalised. A vertex with one weight of 1 is moved by exactly that matrix.
    """
    m = np.empty((3, 4))
    for v in range(positions.shape[0]):
        for a in range(3):
            for b in range(4):
                m[a, b] = 0.0
        for k in range(4):
            w = weights[v, k]
            if w != 0.0:
                mk = mats[joints[v, k]]
                for a in range(3):
                    for b in range(4):
                        m[a, b] += w * mk[a, b]
        px = positions[v, 0]
        py = positions[v, 1]
        pz = positions[v, 2]
        for a in range(3):
            out_positions[v, a] = m[a, 0] * px + m[a, 1] * py + m[a, 2] * pz + m[a, 3]
        # cofactor matrix of the upper 3x3
        c00 = m[1, 1] * m[2, 2] - m[1, 2] * m[2, 1]
        c01 = m[1, 2] * m[2, 0] - m[1, 0] * m[2, 2]
        c02 = m[1, 0] * m[2, 1] - m[1, 1] * m[2, 0]
        c10 = m[0, 2] * m[2, 1] - m[0, 1] * m[2, 2]
        c11 = m[0, 0] * m[2, 2] - m[0, 2] * m[2, 0]
        c12 = m[0, 1] * m[2, 0] - m[0, 0] * m[2, 1]
        c20 = m[0, 1] * m[1, 2] - m[0, 2] * m[1, 1]
        c21 = m[0, 2] * m[1, 0] - m[0, 0] * m[1, 2]
        c22 = m[0, 0] * m[1, 1] - m[0, 1] * m[1, 0]
        det = m[0, 0] * c00 + m[0, 1] * c01 + m[0, 2] * c02
        nx = normals[v, 0]
        ny = normals[v, 1]
        nz = normals[v, 2]
        ox = c00 * nx + c01 * ny + c02 * nz
        oy = c10 * nx + c11 * ny + c12 * nz
        oz = c20 * nx + c21 * ny + c22 * nz
        ln = math.sqrt(ox * ox + oy * oy + oz * oz)
        if ln > 0.0:
            if det < 0.0:
                ln = -ln
            out_normals[v, 0] = ox / ln
            out_normals[v, 1] = oy / ln
            out_normals[v, 2] = oz / ln
        else:
            out_normals[v, 0] = 0.0
            out_normals[v, 1] = 0.0
            out_normals[v, 2] = 0.0


@njit(cache=True)
def _find_key(times, k0, n, t):
    """Index k of the last key with times[k0 + k] <= t (0..n-1); t is within the keys."""
    lo = 0
    hi = n - 1
    while hi - lo > 1:
        mid = (lo + hi) // 2
        if times[k0 + mid] <= t:
            lo = mid
        else:
            hi = mid
    return lo


@njit(cache=True)
def _slerp_into(values, a, b, s, out):
    """Shortest-arc slerp of the quaternions at values[a:a+4] and values[b:b+4] into out (4,)."""
    ax = values[a]
    ay = values[a + 1]
    az = values[a + 2]
    aw = values[a + 3]
    bx = values[b]
    by = values[b + 1]
    bz = values[b + 2]
    bw = values[b + 3]
    la = math.sqrt(ax * ax + ay * ay + az * az + aw * aw)
    lb = math.sqrt(bx * bx + by * by + bz * bz + bw * bw)
    ax /= la
    ay /= la
    az /= la
    aw /= la
    bx /= lb
    by /= lb
    bz /= lb
    bw /= lb
    d = ax * bx + ay * by + az * bz + aw * bw
    if d < 0.0:
        d = -d
        bx = -bx
        by = -by
        bz = -bz
        bw = -bw
    if 1.0 - d < _SLERP_NLERP_BELOW:
        wa = 1.0 - s
        wb = s
    else:
        if d > 1.0:
            d = 1.0
        theta = math.acos(d)
        st = math.sin(theta)
        wa = math.sin((1.0 - s) * theta) / st
        wb = math.sin(s * theta) / st
    ox = wa * ax + wb * bx
    oy = wa * ay + wb * by
    oz = wa * az + wb * bz
    ow = wa * aw + wb * bw
    ln = math.sqrt(ox * ox + oy * oy + oz * oz + ow * ow)
    out[0] = ox / ln
    out[1] = oy / ln
    out[2] = oz / ln
    out[3] = ow / ln


@njit(cache=True)
def sample_channels(times, values, ch_node, ch_path, ch_interp, ch_key0, ch_keys, ch_value0,
                    t, out_translation, out_rotation, out_scale):
    """Sample a clip's channels at time t (s) into a local pose; untouched bones keep theirs.

    times (K,) s, every sampler's keys back to back; values (V,) every sampler's outputs
    flattened (for CUBICSPLINE three per key: in-tangent, value, out-tangent); per channel c:
    ch_node the rig bone, ch_path (0 translation, 1 rotation, 2 scale), ch_interp (0 LINEAR,
    1 STEP, 2 CUBICSPLINE), its keys times[ch_key0[c] : ch_key0[c] + ch_keys[c]] and values
    from ch_value0[c].
    """
    tmp = np.empty(4)
    for c in range(ch_node.shape[0]):
        node = ch_node[c]
        path = ch_path[c]
        interp = ch_interp[c]
        k0 = ch_key0[c]
        n = ch_keys[c]
        v0 = ch_value0[c]
        nc = 4 if path == PATH_ROTATION else 3
        cubic = interp == INTERP_CUBIC
        stride = 3 * nc if cubic else nc  # values per key
        mid = nc if cubic else 0  # offset of the value within a key's block
        if n == 0:
            continue
        if n == 1 or t <= times[k0]:
            base = v0 + mid
            for i in range(nc):
                tmp[i] = values[base + i]
        elif t >= times[k0 + n - 1]:
            base = v0 + (n - 1) * stride + mid
            for i in range(nc):
                tmp[i] = values[base + i]
        else:
            k = _find_key(times, k0, n, t)
            ta = times[k0 + k]
            tb = times[k0 + k + 1]
            td = tb - ta
            s = (t - ta) / td
            a = v0 + k * stride
            b = v0 + (k + 1) * stride
            if interp == INTERP_STEP:
                for i in range(nc):
                    tmp[i] = values[a + i]
            elif interp == INTERP_LINEAR:
                if path == PATH_ROTATION:
                    _slerp_into(values, a, b, s, tmp)
                else:
                    for i in range(nc):
                        tmp[i] = (1.0 - s) * values[a + i] + s * values[b + i]
            else:
                s2 = s * s
                s3 = s2 * s
                h00 = 2.0 * s3 - 3.0 * s2 + 1.0
                h10 = td * (s3 - 2.0 * s2 + s)
                h01 = -2.0 * s3 + 3.0 * s2
                h11 = td * (s3 - s2)
                for i in range(nc):
                    # key k: value at a + nc, out-tangent at a + 2nc; key k+1: in-tangent at b
                    tmp[i] = (h00 * values[a + nc + i] + h10 * values[a + 2 * nc + i]
                              + h01 * values[b + nc + i] + h11 * values[b + i])
        if path == PATH_ROTATION:
            # every rotation comes out unit (a key held in float32 is not quite)
            ln = math.sqrt(tmp[0] * tmp[0] + tmp[1] * tmp[1] + tmp[2] * tmp[2] + tmp[3] * tmp[3])
            if ln > 0.0:
                for i in range(4):
                    tmp[i] /= ln
        if path == PATH_TRANSLATION:
            for i in range(3):
                out_translation[node, i] = tmp[i]
        elif path == PATH_ROTATION:
            for i in range(4):
                out_rotation[node, i] = tmp[i]
        else:
            for i in range(3):
                out_scale[node, i] = tmp[i]
