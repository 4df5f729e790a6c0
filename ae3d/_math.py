"""One home for ae3d's vector and quaternion math: njit helpers for kernels, numpy ones for Python.

The njit helpers take and return plain floats or tuples (never arrays), so that each inlines
(``inline="always"``) into the calling kernel and allocates nothing; every package's kernels
import them from here (``physics/_math.py`` re-exports them for the physics kernels). The numpy
helpers below them are the same formulas for Python-side code (dressing, fitting, façades): each
runs its njit twin's Python source (``.py_func``), so the two cannot drift apart, and returns a
float64 array; the rotation conversions (``quat_to_mat``, ``mat_to_quat``, ``mat_quat``) are
numpy only.

Quaternions are (x, y, z, w), unit unless said; vectors are (x, y, z) m or 1/s as the caller's;
a 3x3 matrix is a 9-tuple in row-major order (njit) or a (3, 3) array acting on column vectors
(numpy). numba's cache does not notice edits here from kernels in other files; the package-wide
guard (``ae3d/_cache.py``) wipes the cached kernels when any source under ``ae3d/`` changes.
"""

from __future__ import annotations

import math

import numpy as np
from numba import njit


@njit(cache=True, inline="always")
def v3(a, i):
    """The 3-vector at a[i:i+3] as a tuple."""
    return a[i], a[i + 1], a[i + 2]


@njit(cache=True, inline="always")
def q4(a, i):
    """The quaternion at a[i:i+4] as a tuple (x, y, z, w)."""
    return a[i], a[i + 1], a[i + 2], a[i + 3]


@njit(cache=True, inline="always")
def add(a, b):
    return a[0] + b[0], a[1] + b[1], a[2] + b[2]


@njit(cache=True, inline="always")
def sub(a, b):
    return a[0] - b[0], a[1] - b[1], a[2] - b[2]


@njit(cache=True, inline="always")
def scale(a, s):
    return a[0] * s, a[1] * s, a[2] * s


@njit(cache=True, inline="always")
def madd(a, b, s):
    """a + b*s."""
    return a[0] + b[0] * s, a[1] + b[1] * s, a[2] + b[2] * s


@njit(cache=True, inline="always")
def dot(a, b):
    return a[0] * b[0] + a[1] * b[1] + a[2] * b[2]


@njit(cache=True, inline="always")
def cross(a, b):
    return (a[1] * b[2] - a[2] * b[1], a[2] * b[0] - a[0] * b[2], a[0] * b[1] - a[1] * b[0])


@njit(cache=True, inline="always")
def length(a):
    return math.sqrt(a[0] * a[0] + a[1] * a[1] + a[2] * a[2])


@njit(cache=True, inline="always")
def normalize(a):
    """(unit vector, length); (0, 0, 0) and 0 for a zero vector."""
    n = math.sqrt(a[0] * a[0] + a[1] * a[1] + a[2] * a[2])
    if n > 0.0:
        inv = 1.0 / n
        return (a[0] * inv, a[1] * inv, a[2] * inv), n
    return (0.0, 0.0, 0.0), 0.0


@njit(cache=True, inline="always")
def perp_basis(n):
    """Two unit tangents (t1, t2) with (t1, t2, n) right-handed, continuous in n (Duff et al.)."""
    s = 1.0 if n[2] >= 0.0 else -1.0
    a = -1.0 / (s + n[2])
    b = n[0] * n[1] * a
    t1 = (1.0 + s * n[0] * n[0] * a, s * b, -s * n[0])
    t2 = (b, s + n[1] * n[1] * a, -n[1])
    return t1, t2


@njit(cache=True, inline="always")
def qmul(a, b):
    """Hamilton product a*b."""
    ax, ay, az, aw = a
    bx, by, bz, bw = b
    return (aw * bx + ax * bw + ay * bz - az * by,
            aw * by - ax * bz + ay * bw + az * bx,
            aw * bz + ax * by - ay * bx + az * bw,
            aw * bw - ax * bx - ay * by - az * bz)


@njit(cache=True, inline="always")
def qconj(q):
    return -q[0], -q[1], -q[2], q[3]


@njit(cache=True, inline="always")
def qnormalize(q):
    n = math.sqrt(q[0] * q[0] + q[1] * q[1] + q[2] * q[2] + q[3] * q[3])
    if n > 0.0:
        inv = 1.0 / n
        return q[0] * inv, q[1] * inv, q[2] * inv, q[3] * inv
    return 0.0, 0.0, 0.0, 1.0


@njit(cache=True, inline="always")
def qrot(q, v):
    """Rotate vector v by unit quaternion q."""
    qx, qy, qz, qw = q
    # t = 2 * cross(q.xyz, v); v' = v + w*t + cross(q.xyz, t)
    tx = 2.0 * (qy * v[2] - qz * v[1])
    ty = 2.0 * (qz * v[0] - qx * v[2])
    tz = 2.0 * (qx * v[1] - qy * v[0])
    return (v[0] + qw * tx + (qy * tz - qz * ty),
            v[1] + qw * ty + (qz * tx - qx * tz),
            v[2] + qw * tz + (qx * ty - qy * tx))


@njit(cache=True, inline="always")
def qinvrot(q, v):
    """Rotate vector v by the inverse of unit quaternion q."""
    return qrot((-q[0], -q[1], -q[2], q[3]), v)


@njit(cache=True, inline="always")
def qmat(q):
    """Rotation matrix of unit quaternion q, row-major 9-tuple."""
    x, y, z, w = q
    xx = x * x
    yy = y * y
    zz = z * z
    xy = x * y
    xz = x * z
    yz = y * z
    wx = w * x
    wy = w * y
    wz = w * z
    return (1.0 - 2.0 * (yy + zz), 2.0 * (xy - wz), 2.0 * (xz + wy),
            2.0 * (xy + wz), 1.0 - 2.0 * (xx + zz), 2.0 * (yz - wx),
            2.0 * (xz - wy), 2.0 * (yz + wx), 1.0 - 2.0 * (xx + yy))


@njit(cache=True, inline="always")
def qintegrate(q, w, h):
    """q advanced by angular velocity w (rad/s, world) over h (s): normalize(q + h/2 (w,0) q)."""
    hw = 0.5 * h
    d = qmul((w[0] * hw, w[1] * hw, w[2] * hw, 0.0), q)
    return qnormalize((q[0] + d[0], q[1] + d[1], q[2] + d[2], q[3] + d[3]))


@njit(cache=True, inline="always")
def qangvel(q0, q1, dt):
    """Angular velocity (rad/s, world) that turns q0 into q1 in dt (s), the short way round."""
    d = qmul(q1, qconj(q0))
    if d[3] < 0.0:
        d = (-d[0], -d[1], -d[2], -d[3])
    s = math.sqrt(d[0] * d[0] + d[1] * d[1] + d[2] * d[2])
    if s < 1e-12:
        k = 2.0 / dt
    else:
        k = 2.0 * math.atan2(s, d[3]) / (s * dt)
    return d[0] * k, d[1] * k, d[2] * k


@njit(cache=True, inline="always")
def mvmul(m, v):
    """Row-major 3x3 (9-tuple) times vector."""
    return (m[0] * v[0] + m[1] * v[1] + m[2] * v[2],
            m[3] * v[0] + m[4] * v[1] + m[5] * v[2],
            m[6] * v[0] + m[7] * v[1] + m[8] * v[2])


@njit(cache=True, inline="always")
def m9(a, i):
    """Row-major 3x3 at a[i:i+9] as a 9-tuple."""
    return (a[i], a[i + 1], a[i + 2], a[i + 3], a[i + 4], a[i + 5], a[i + 6], a[i + 7], a[i + 8])


@njit(cache=True, inline="always")
def rot_diag_inv(q, d):
    """R diag(d) R^T for unit quaternion q: a body-frame diagonal tensor in the world frame."""
    r = qmat(q)
    out0 = r[0] * r[0] * d[0] + r[1] * r[1] * d[1] + r[2] * r[2] * d[2]
    out1 = r[0] * r[3] * d[0] + r[1] * r[4] * d[1] + r[2] * r[5] * d[2]
    out2 = r[0] * r[6] * d[0] + r[1] * r[7] * d[1] + r[2] * r[8] * d[2]
    out4 = r[3] * r[3] * d[0] + r[4] * r[4] * d[1] + r[5] * r[5] * d[2]
    out5 = r[3] * r[6] * d[0] + r[4] * r[7] * d[1] + r[5] * r[8] * d[2]
    out8 = r[6] * r[6] * d[0] + r[7] * r[7] * d[1] + r[8] * r[8] * d[2]
    return (out0, out1, out2, out1, out4, out5, out2, out5, out8)


@njit(cache=True, inline="always")
def solve3(m, b):
    """Solve the symmetric or general 3x3 system m x = b (Cramer); zero if singular."""
    c0 = (m[4] * m[8] - m[5] * m[7], m[5] * m[6] - m[3] * m[8], m[3] * m[7] - m[4] * m[6])
    det = m[0] * c0[0] + m[1] * c0[1] + m[2] * c0[2]
    if det != 0.0:
        det = 1.0 / det
    x = det * (b[0] * c0[0] + b[1] * (m[2] * m[7] - m[1] * m[8])
               + b[2] * (m[1] * m[5] - m[2] * m[4]))
    y = det * (b[0] * c0[1] + b[1] * (m[0] * m[8] - m[2] * m[6])
               + b[2] * (m[2] * m[3] - m[0] * m[5]))
    z = det * (b[0] * c0[2] + b[1] * (m[1] * m[6] - m[0] * m[7])
               + b[2] * (m[0] * m[4] - m[1] * m[3]))
    return x, y, z


@njit(cache=True, inline="always")
def make_soft(hertz, zeta, h):
    """(bias rate 1/s, mass scale, impulse scale) of a soft constraint (Box2D's b2MakeSoft)."""
    if hertz == 0.0:
        return 0.0, 0.0, 0.0
    omega = 2.0 * math.pi * hertz
    a1 = 2.0 * zeta + h * omega
    a2 = h * omega * a1
    a3 = 1.0 / (1.0 + a2)
    return omega / a1, a2 * a3, a3


# ------------------------------------------------------------------------------ numpy, for Python


@njit(cache=True, _nrt=False)
def mat9_quat(m00, m01, m02, m10, m11, m12, m20, m21, m22):
    """A rotation matrix's unit quaternion (x, y, z, w), w >= 0, from its nine entries (row-major).
    Not inlined: the dressing's and the eating's kernels call it as they did from its old home
    (physics/_kernels_dress.py), the same bits."""
    tr = m00 + m11 + m22
    if tr > 0.0:
        k = math.sqrt(tr + 1.0) * 2.0
        x, y, z, w = (m21 - m12) / k, (m02 - m20) / k, (m10 - m01) / k, 0.25 * k
    elif m00 > m11 and m00 > m22:
        k = math.sqrt(1.0 + m00 - m11 - m22) * 2.0
        x, y, z, w = 0.25 * k, (m01 + m10) / k, (m02 + m20) / k, (m21 - m12) / k
    elif m11 > m22:
        k = math.sqrt(1.0 + m11 - m00 - m22) * 2.0
        x, y, z, w = (m01 + m10) / k, 0.25 * k, (m12 + m21) / k, (m02 - m20) / k
    else:
        k = math.sqrt(1.0 + m22 - m00 - m11) * 2.0
        x, y, z, w = (m02 + m20) / k, (m12 + m21) / k, 0.25 * k, (m10 - m01) / k
    n = math.sqrt(x * x + y * y + z * z + w * w)
    if w < 0.0:
        n = -n
    return x / n, y / n, z / n, w / n


def quat_mul(a, b) -> np.ndarray:
    """(4,) the Hamilton product a*b of two quaternions (sequences of 4)."""
    return np.array(qmul.py_func(a, b))


def quat_conj(q) -> np.ndarray:
    """(4,) the conjugate (the inverse of a unit quaternion)."""
    return np.array(qconj.py_func(q))


def quat_rot(q, v) -> np.ndarray:
    """(3,) vector ``v`` rotated by unit quaternion ``q``."""
    return np.array(qrot.py_func(q, v))


def quat_pos(q) -> np.ndarray:
    """(4,) ``q`` normalised, with w >= 0 (the same rotation)."""
    q = np.asarray(q, dtype=np.float64)
    q = q / np.linalg.norm(q)
    return -q if q[3] < 0.0 else q


def quat_yaw(yaw: float) -> np.ndarray:
    """(4,) the turn of ``yaw`` rad about +y."""
    return np.array([0.0, math.sin(0.5 * yaw), 0.0, math.cos(0.5 * yaw)])


def quat_angle(q) -> float:
    """rad: the angle of the rotation quaternion ``q`` (0..pi)."""
    return 2.0 * math.atan2(float(np.linalg.norm(q[:3])), abs(float(q[3])))


def quat_to_mat(q: np.ndarray) -> np.ndarray:
    """The (3, 3) rotation matrix of unit quaternion ``q`` (x, y, z, w)."""
    x, y, z, w = q
    return np.array([[1 - 2 * (y * y + z * z), 2 * (x * y - w * z), 2 * (x * z + w * y)],
                     [2 * (x * y + w * z), 1 - 2 * (x * x + z * z), 2 * (y * z - w * x)],
                     [2 * (x * z - w * y), 2 * (y * z + w * x), 1 - 2 * (x * x + y * y)]])


def mat_to_quat(r: np.ndarray) -> np.ndarray:
    """A (3, 3) rotation matrix's unit quaternion (x, y, z, w), with w >= 0 (Shepperd's
    method: the largest of the four candidates is divided by, so it never divides by ~0)."""
    tr = r[0, 0] + r[1, 1] + r[2, 2]
    if tr > 0.0:
        k = math.sqrt(tr + 1.0) * 2.0
        q = [(r[2, 1] - r[1, 2]) / k, (r[0, 2] - r[2, 0]) / k, (r[1, 0] - r[0, 1]) / k, 0.25 * k]
    elif r[0, 0] > r[1, 1] and r[0, 0] > r[2, 2]:
        k = math.sqrt(1.0 + r[0, 0] - r[1, 1] - r[2, 2]) * 2.0
        q = [0.25 * k, (r[0, 1] + r[1, 0]) / k, (r[0, 2] + r[2, 0]) / k, (r[2, 1] - r[1, 2]) / k]
    elif r[1, 1] > r[2, 2]:
        k = math.sqrt(1.0 + r[1, 1] - r[0, 0] - r[2, 2]) * 2.0
        q = [(r[0, 1] + r[1, 0]) / k, 0.25 * k, (r[1, 2] + r[2, 1]) / k, (r[0, 2] - r[2, 0]) / k]
    else:
        k = math.sqrt(1.0 + r[2, 2] - r[0, 0] - r[1, 1]) * 2.0
        q = [(r[0, 2] + r[2, 0]) / k, (r[1, 2] + r[2, 1]) / k, 0.25 * k, (r[1, 0] - r[0, 1]) / k]
    qa = np.array(q)
    qa /= np.linalg.norm(qa)
    return -qa if qa[3] < 0.0 else qa


def mat_quat(m: np.ndarray) -> np.ndarray:
    """Unit quaternion of a 3x3 (its columns normalised: a uniform scale is dropped)."""
    return mat_to_quat(m / np.linalg.norm(m, axis=0))
