"""Where it was hit (spec #698): a blow the figure stands through is answered where it landed.

``hit`` (``_hits.py``) hands every blow on a POWERED figure to ``wounded`` here, which keeps it
when it takes at least ``min_share`` of the struck bone's muscle and chooses the hand: the one on
the wound's side for the trunk, the head or a leg, the other one for an arm; never the struck arm
or a weak one (its muscle now under ``weak``), and where the wound's side is weak the other hand
of the trunk comes instead. After the step the blow lands on, ``wound_post`` judges its throw: a
body that keeps ``throws`` m/s or more (its centre of mass against before the blow) was thrown,
and the balance, the steps and the arms answer it, not this. Otherwise, for ``hold`` seconds,
``wound_pre``:

- the hand: the arm's upper arm and forearm aimed (``physics.ragdoll_aim``'s drive) so the palm
  (the forearm's far end) comes onto the wound, carried with the struck bone. The palm covers it
  from the side the hand can reach: the wound's own side of the bone, unless that faces away from
  the reaching shoulder (the outside of the other arm), when it is held from the figure's front.
  The elbow is placed by two-bone reach (down, out to its side and a little back) and each bone's
  aimed way, kept in the chest's frame so it is carried with the body, turns toward it no faster
  than ``turn`` rad/s. The reach doesn't route around the trunk: across the body to the other
  upper arm the forearm comes to rest on the chest (#700);
- a wound to the trunk folds the spine toward it, each of its two joints ``fold`` rad x the share
  taken, about the horizontal axis across the way to the wound (forward for the belly, sideways
  for a flank);
- a wound to a leg bends its knee ``knee`` rad x the share toward its bend.

It lets go (its aims handed back) when the time is up, or the figure falls, lands, leaves
POWERED, or is struck again (the new wound replaces it). ``set_hit_reaction(body, False)`` turns
it off. A startle or a brace that has the arms is not built yet; when it is, it takes the hand.
Only ``hit`` is answered: a body striking an ANIMATED figure names no point (``_hits.struck``).

Columns: ``F_WOUND_*``, ``PB_REACH_D`` (``_layout``). Settings: ``WoundSettings``. Verbs:
``wound_pre`` (before ``fall_pre``, whose aims take over when it falls), ``wound_post``.
Units: m, s, rad, m/s.
"""

from __future__ import annotations

import math
from dataclasses import dataclass
from typing import Any

import numpy as np
from numba import njit

from ae3d import human
from ae3d._validate import boolean
from ae3d.physics import _layout as PL
from ae3d.physics._layout import (
    B_DIMS,
    B_MASS,
    B_POS,
    B_QUAT,
    B_V,
    DRIVE_AIM,
    DRIVE_POSE,
    J_BODY_A,
    J_PA,
    J_PB,
    J_QA,
    J_TWIST_HI,
    J_TWIST_LO,
)

from ._fall import _aim, _along, _knee, _turned_from_parent
from ._kin import qrot
from ._layout import (
    F_FALLING,
    F_LAND,
    F_MODE,
    F_NBONES,
    F_STRENGTH,
    F_STRUCK_LAST,
    F_STRUCK_LAST_P,
    F_WOUND,
    F_WOUND_AIMED,
    F_WOUND_BONE,
    F_WOUND_HAND,
    F_WOUND_N,
    F_WOUND_OFF,
    F_WOUND_P,
    F_WOUND_SHARE,
    F_WOUND_T,
    F_WOUND_V0,
    LAND_NONE,
    PB_BODY,
    PB_JOINT,
    PB_LOSS,
    PB_PART_S,
    PB_REACH_D,
    POWERED,
    S_WOUND_FOLD,
    S_WOUND_HOLD,
    S_WOUND_KNEE,
    S_WOUND_MIN_SHARE,
    S_WOUND_POLE_BEHIND,
    S_WOUND_POLE_OUT,
    S_WOUND_THROWS,
    S_WOUND_TURN,
    S_WOUND_WEAK,
    WOUND_HELD,
    WOUND_JUDGED,
    WOUND_NONE,
)
from ._service import Motion, check, service

_PELVIS = human.BONE_PELVIS
_SPINE1 = human.BONE_SPINE_01
_CHEST = human.BONE_SPINE_03
_NECK = human.BONE_NECK
_ARMS = ((human.BONE_UPPERARM_L, human.BONE_LOWERARM_L),
         (human.BONE_UPPERARM_R, human.BONE_LOWERARM_R))
_TRUNK = (human.BONE_PELVIS, human.BONE_SPINE_01, human.BONE_SPINE_03)
# each leg's bones and its knee
_LEGS = ((human.BONE_THIGH_L, human.BONE_CALF_L, human.BONE_FOOT_L),
         (human.BONE_THIGH_R, human.BONE_CALF_R, human.BONE_FOOT_R))
_KNEES = (human.BONE_CALF_L, human.BONE_CALF_R)


@dataclass(frozen=True)
class WoundSettings:
    """The hand to the wound's tuned constants (packed into the parameter row by
    ``_settings.pack``)."""

    hold: float = 2.5
    """s: the hand holds the wound this long (spec: 2.5 s)."""
    min_share: float = 0.25
    """share: a blow taking less of the struck bone's muscle is not answered (spec: a quarter)."""
    throws: float = 0.3
    """m/s: a blow leaving the whole body this fast or faster (its centre of mass after the step
    the blow lands on, against before it) threw it, and is not answered (spec: 0.3 m/s). Read
    after the step, once the feet and the balance have taken their share: at the instant of the
    blow 25 N·s is 0.32 m/s on the 78 kg box man, and the belly blow the spec answers would not
    be; after its step it keeps 0.25 (30 N·s keeps 0.32)."""
    turn: float = 4.5
    """rad/s: the arm turns toward the wound no faster than this (spec: 4.5 rad/s)."""
    fold: float = 0.13
    """rad: each spine joint folds toward a wound to the trunk by this x the share taken (0.95
    for the spec's 25 N·s belly blow: the chest about 8 cm toward it)."""
    knee: float = 0.32
    """rad: a wounded leg's knee bends by this x the share taken (spec: 0.3 rad struck on the
    thigh, where the blow takes 95 %)."""
    weak: float = 0.5
    """share: an arm whose upper arm or forearm has less muscle than this is weak and never
    comes (a trunk blow takes half its share of the shoulders', and that arm still comes)."""

    pole_out: float = 0.5
    """share: the elbow's pole, out to the arm's own side, against 1 down: the elbow goes out
    and down as the forearm comes across (measured on the belly blow, box man and Mixamo man)."""
    pole_behind: float = 0.3
    """share: the pole's part behind the figure, against 1 down."""

    def pack(self, row: np.ndarray) -> None:
        row[S_WOUND_POLE_OUT] = self.pole_out
        row[S_WOUND_POLE_BEHIND] = self.pole_behind
        row[S_WOUND_HOLD] = self.hold
        row[S_WOUND_MIN_SHARE] = self.min_share
        row[S_WOUND_THROWS] = self.throws
        row[S_WOUND_TURN] = self.turn
        row[S_WOUND_FOLD] = self.fold
        row[S_WOUND_KNEE] = self.knee
        row[S_WOUND_WEAK] = self.weak


# ------------------------------------------------------------------------------ the verbs
@njit(cache=True, _nrt=False)
def _hand_back(f, nb, pbi, ji):
    """The joints the wound may aim (both arms, the spine, the knees) handed back to their
    targets."""
    for b in (_ARMS[0][0], _ARMS[0][1], _ARMS[1][0], _ARMS[1][1], _SPINE1, _CHEST,
              _KNEES[0], _KNEES[1]):
        if b < nb:
            j = pbi[f, b, PB_JOINT]
            if ji[j, PL.J_DRIVE] == DRIVE_AIM:
                ji[j, PL.J_DRIVE] = DRIVE_POSE


@njit(cache=True, _nrt=False)
def _world(bf, s, lx, ly, lz):
    """Point (lx, ly, lz) of body s's frame in the world."""
    x, y, z = qrot(bf[s, B_QUAT], bf[s, B_QUAT + 1], bf[s, B_QUAT + 2], bf[s, B_QUAT + 3],
                   lx, ly, lz)
    return bf[s, B_POS] + x, bf[s, B_POS + 1] + y, bf[s, B_POS + 2] + z


@njit(cache=True, _nrt=False)
def _core(bf, s, y):
    """m: body s's capsule core (its segment along the body's y) nearest y."""
    return min(bf[s, B_DIMS + 1], max(-bf[s, B_DIMS + 1], y))


@njit(cache=True, _nrt=False)
def _turn_toward(pbf, f, b, dx, dy, dz, most):
    """PB_REACH_D of bone b (unit, chest frame) turned toward d (unit) by at most ``most`` rad;
    returns it."""
    cx, cy, cz = pbf[f, b, PB_REACH_D], pbf[f, b, PB_REACH_D + 1], pbf[f, b, PB_REACH_D + 2]
    c = min(1.0, max(-1.0, cx * dx + cy * dy + cz * dz))
    a = math.acos(c)
    if a > most and a > 1e-9:
        s = math.sin(a)
        if s < 1e-6:
            # opposite: through any way across
            ox, oy, oz = -cy, cx, 0.0
            if ox * ox + oy * oy < 1e-12:
                ox, oy, oz = 0.0, -cz, cy
            n = math.sqrt(ox * ox + oy * oy + oz * oz)
            ox, oy, oz = ox / n, oy / n, oz / n
            dx = cx * math.cos(most) + ox * math.sin(most)
            dy = cy * math.cos(most) + oy * math.sin(most)
            dz = cz * math.cos(most) + oz * math.sin(most)
        else:
            k0 = math.sin(a - most) / s
            k1 = math.sin(most) / s
            dx, dy, dz = k0 * cx + k1 * dx, k0 * cy + k1 * dy, k0 * cz + k1 * dz
    n = math.sqrt(dx * dx + dy * dy + dz * dz)
    dx, dy, dz = dx / n, dy / n, dz / n
    pbf[f, b, PB_REACH_D] = dx
    pbf[f, b, PB_REACH_D + 1] = dy
    pbf[f, b, PB_REACH_D + 2] = dz
    return dx, dy, dz


@njit(cache=True, _nrt=False)
def _reach(f, dt, arm, ff, fi, pbf, pbi, prm, up_local, fwd_local, bf, jf, ji):
    """The arm ``arm``'s upper arm and forearm aimed so the palm comes onto the wound."""
    ub = _ARMS[arm][0]
    lb = _ARMS[arm][1]
    ju = pbi[f, ub, PB_JOINT]
    jl = pbi[f, lb, PB_JOINT]
    chest = ji[ju, J_BODY_A]
    cq = (bf[chest, B_QUAT], bf[chest, B_QUAT + 1], bf[chest, B_QUAT + 2], bf[chest, B_QUAT + 3])
    # the shoulder, the arm's two lengths (shoulder to elbow; elbow to the palm, the forearm's
    # far end: as far past its centre as the elbow is before it)
    sx, sy, sz = _world(bf, chest, jf[ju, J_PA], jf[ju, J_PA + 1], jf[ju, J_PA + 2])
    l1 = math.sqrt((jf[jl, J_PA] - jf[ju, J_PB]) ** 2 + (jf[jl, J_PA + 1] - jf[ju, J_PB + 1]) ** 2
                   + (jf[jl, J_PA + 2] - jf[ju, J_PB + 2]) ** 2)
    l2 = 2.0 * math.sqrt(jf[jl, J_PB] ** 2 + jf[jl, J_PB + 1] ** 2 + jf[jl, J_PB + 2] ** 2)
    fore = pbi[f, lb, PB_BODY]
    # the wound: its bone's axis (capsules lie along their body's y) at the point, and its way out
    w = pbi[f, fi[f, F_WOUND_BONE], PB_BODY]
    ax, ay, az = _world(bf, w, 0.0, _core(bf, w, ff[f, F_WOUND_P + 1]), 0.0)
    wq0, wq1, wq2, wq3 = bf[w, B_QUAT], bf[w, B_QUAT + 1], bf[w, B_QUAT + 2], bf[w, B_QUAT + 3]
    nx, ny, nz = qrot(wq0, wq1, wq2, wq3, ff[f, F_WOUND_N], ff[f, F_WOUND_N + 1],
                      ff[f, F_WOUND_N + 2])
    # the side the hand can reach: away from the shoulder, it is held from the figure's front
    bx, by, bz = qrot(wq0, wq1, wq2, wq3, 0.0, 1.0, 0.0)
    tx, ty, tz = sx - ax, sy - ay, sz - az
    t_along = tx * bx + ty * by + tz * bz
    tx, ty, tz = tx - t_along * bx, ty - t_along * by, tz - t_along * bz
    tn = math.sqrt(tx * tx + ty * ty + tz * tz)
    pel = pbi[f, _PELVIS, PB_BODY]
    fx, fy, fz = qrot(bf[pel, B_QUAT], bf[pel, B_QUAT + 1], bf[pel, B_QUAT + 2],
                      bf[pel, B_QUAT + 3], fwd_local[0], fwd_local[1], fwd_local[2])
    if tn > 1e-9 and (nx * tx + ny * ty + nz * tz) / tn < -0.3:
        f_along = fx * bx + fy * by + fz * bz
        nx, ny, nz = fx - f_along * bx, fy - f_along * by, fz - f_along * bz
        nn = math.sqrt(nx * nx + ny * ny + nz * nz)
        if nn > 1e-9:
            nx, ny, nz = nx / nn, ny / nn, nz / nn
    off = bf[w, B_DIMS] + bf[fore, B_DIMS]
    px, py, pz = ax + off * nx, ay + off * ny, az + off * nz
    # two-bone reach: the elbow down, out to the arm's side and a little back
    dx, dy, dz = px - sx, py - sy, pz - sz
    d = math.sqrt(dx * dx + dy * dy + dz * dz)
    if d < 1e-6:
        return
    ux, uy, uz = dx / d, dy / d, dz / d
    d = min(max(d, abs(l1 - l2) + 1e-3), 0.999 * (l1 + l2))
    ox, oz = sx - bf[chest, B_POS], sz - bf[chest, B_POS + 2]
    on = math.sqrt(ox * ox + oz * oz)
    if on > 1e-9:
        ox, oz = ox / on, oz / on
    po = prm[S_WOUND_POLE_OUT]
    pa = -prm[S_WOUND_POLE_BEHIND]
    vx, vy, vz = po * ox + pa * fx, -1.0, po * oz + pa * fz
    k = vx * ux + vy * uy + vz * uz
    vx, vy, vz = vx - k * ux, vy - k * uy, vz - k * uz
    vn = math.sqrt(vx * vx + vy * vy + vz * vz)
    if vn < 1e-9:
        vx, vy, vz, vn = 0.0, -1.0, 0.0, 1.0
    vx, vy, vz = vx / vn, vy / vn, vz / vn
    ca = min(1.0, max(-1.0, (l1 * l1 + d * d - l2 * l2) / (2.0 * l1 * d)))
    sa = math.sqrt(1.0 - ca * ca)
    ex = sx + l1 * (ca * ux + sa * vx)
    ey = sy + l1 * (ca * uy + sa * vy)
    ez = sz + l1 * (ca * uz + sa * vz)
    hx, hy, hz = sx + d * ux - ex, sy + d * uy - ey, sz + d * uz - ez
    hn = math.sqrt(hx * hx + hy * hy + hz * hz)
    most = prm[S_WOUND_TURN] * dt
    ix, iy, iz, iw = -cq[0], -cq[1], -cq[2], cq[3]
    # each bone's way, in the chest's frame, turned toward where it should go
    gx, gy, gz = qrot(ix, iy, iz, iw, (ex - sx) / l1, (ey - sy) / l1, (ez - sz) / l1)
    gx, gy, gz = _turn_toward(pbf, f, ub, gx, gy, gz, most)
    ux, uy, uz = qrot(cq[0], cq[1], cq[2], cq[3], gx, gy, gz)
    gx, gy, gz = qrot(ix, iy, iz, iw, hx / hn, hy / hn, hz / hn)
    gx, gy, gz = _turn_toward(pbf, f, lb, gx, gy, gz, most)
    lx, ly_, lz = qrot(cq[0], cq[1], cq[2], cq[3], gx, gy, gz)
    # the upper arm turned so the elbow's hinge bends the forearm that way (a hinge bends in one
    # plane: the shortest turn left the upper arm's twist where it was and the forearm off it)
    _aim_upper(jf, ji, ju, jl, ux, uy, uz, lx, ly_, lz, vx, vy, vz)
    _along(bf, jf, ji, jl, lx, ly_, lz)


@njit(cache=True, _nrt=False)
def _quat_of_frame(m00, m01, m02, m10, m11, m12, m20, m21, m22):
    """The unit quaternion (x, y, z, w) of the rotation matrix m (row-major)."""
    tr = m00 + m11 + m22
    if tr > 0.0:
        k = 0.5 / math.sqrt(tr + 1.0)
        return (m21 - m12) * k, (m02 - m20) * k, (m10 - m01) * k, 0.25 / k
    if m00 > m11 and m00 > m22:
        k = 2.0 * math.sqrt(1.0 + m00 - m11 - m22)
        return 0.25 * k, (m01 + m10) / k, (m02 + m20) / k, (m21 - m12) / k
    if m11 > m22:
        k = 2.0 * math.sqrt(1.0 + m11 - m00 - m22)
        return (m01 + m10) / k, 0.25 * k, (m12 + m21) / k, (m02 - m20) / k
    k = 2.0 * math.sqrt(1.0 + m22 - m00 - m11)
    return (m02 + m20) / k, (m12 + m21) / k, 0.25 * k, (m10 - m01) / k


@njit(cache=True, _nrt=False)
def _aim_upper(jf, ji, ju, jl, ux, uy, uz, lx, ly, lz, px, py, pz):
    """Aim the upper arm (joint ju) along u (unit, world), turned about it so the elbow's hinge
    (joint jl) bends the forearm toward l (unit): the hinge's axis across the plane of u and l,
    on the side of its bend (p, the elbow's pole, where u and l lie along one line)."""
    # the upper arm's own way and the hinge's axis, in its body frame
    ax, ay, az = -jf[ju, J_PB], -jf[ju, J_PB + 1], -jf[ju, J_PB + 2]
    n = math.sqrt(ax * ax + ay * ay + az * az)
    if n < 1e-9:
        return
    ax, ay, az = ax / n, ay / n, az / n
    hx, hy, hz = qrot(jf[jl, J_QA], jf[jl, J_QA + 1], jf[jl, J_QA + 2], jf[jl, J_QA + 3],
                      1.0, 0.0, 0.0)
    k = hx * ax + hy * ay + hz * az
    hx, hy, hz = hx - k * ax, hy - k * ay, hz - k * az
    n = math.sqrt(hx * hx + hy * hy + hz * hz)
    if n < 1e-9:
        return
    hx, hy, hz = hx / n, hy / n, hz / n
    cx, cy, cz = ay * hz - az * hy, az * hx - ax * hz, ax * hy - ay * hx
    # the world's: u, the axis across u and l (a turn about it by + takes u toward l), u x it
    nx, ny, nz = uy * lz - uz * ly, uz * lx - ux * lz, ux * ly - uy * lx
    n = math.sqrt(nx * nx + ny * ny + nz * nz)
    if n < 1e-3:
        nx, ny, nz = uy * pz - uz * py, uz * px - ux * pz, ux * py - uy * px
        n = math.sqrt(nx * nx + ny * ny + nz * nz)
        if n < 1e-9:
            return
    nx, ny, nz = nx / n, ny / n, nz / n
    if jf[jl, J_TWIST_HI] < -jf[jl, J_TWIST_LO]:
        nx, ny, nz = -nx, -ny, -nz          # this hinge bends the other way about its axis
    wx, wy, wz = uy * nz - uz * ny, uz * nx - ux * nz, ux * ny - uy * nx
    # R = W L^T: the local frame (a, h, c) onto the world's (u, n, w)
    x, y, z, w = _quat_of_frame(
        ux * ax + nx * hx + wx * cx, ux * ay + nx * hy + wx * cy, ux * az + nx * hz + wx * cz,
        uy * ax + ny * hx + wy * cx, uy * ay + ny * hy + wy * cy, uy * az + ny * hz + wy * cz,
        uz * ax + nz * hx + wz * cx, uz * ay + nz * hy + wz * cy, uz * az + nz * hz + wz * cz)
    _aim(jf, ji, ju, x, y, z, w)


@njit(cache=True, _nrt=False)
def wound_pre(f, dt, nb, powered, ff, fi, pbf, pbi, prm, up_local, fwd_local, bf, jf, ji):
    """Before the physics step (after the muscles' targets, before the protective fall's aims),
    figure f's answer to the wound it holds: the hand, the spine's fold or the knee, as aims.
    Let go (aims handed back) when its time is up, or the figure falls, lands or leaves POWERED.
    Returns True when an aim was set or handed back (the figure is woken)."""
    st = fi[f, F_WOUND]
    active = (st == WOUND_HELD and powered and fi[f, F_WOUND_OFF] == 0
              and fi[f, F_FALLING] == 0 and fi[f, F_LAND] == LAND_NONE
              and ff[f, F_WOUND_T] > 0.0)
    if not active:
        changed = False
        if fi[f, F_WOUND_AIMED] != 0:
            _hand_back(f, nb, pbi, ji)
            fi[f, F_WOUND_AIMED] = 0
            changed = True
        if st == WOUND_HELD:
            fi[f, F_WOUND] = WOUND_NONE
            ff[f, F_WOUND_T] = 0.0
        return changed
    ff[f, F_WOUND_T] -= dt
    fi[f, F_WOUND_AIMED] = 1
    arm = fi[f, F_WOUND_HAND]
    if arm >= 0 and _ARMS[arm][1] < nb:
        _reach(f, dt, arm, ff, fi, pbf, pbi, prm, up_local, fwd_local, bf, jf, ji)
    b = fi[f, F_WOUND_BONE]
    share = ff[f, F_WOUND_SHARE]
    if b == _PELVIS or b == _SPINE1 or b == _CHEST:
        # fold toward the wound: the way out to it from the trunk's axis, over the ground
        w = pbi[f, b, PB_BODY]
        nx, ny, nz = qrot(bf[w, B_QUAT], bf[w, B_QUAT + 1], bf[w, B_QUAT + 2], bf[w, B_QUAT + 3],
                          ff[f, F_WOUND_N], ff[f, F_WOUND_N + 1], ff[f, F_WOUND_N + 2])
        h = math.sqrt(nx * nx + nz * nz)
        if h > 1e-6:
            dx, dz = nx / h, nz / h
            for s in (_SPINE1, _CHEST):
                if s < nb:
                    _turned_from_parent(bf, jf, ji, pbi[f, s, PB_JOINT], dz, -dx,
                                        prm[S_WOUND_FOLD] * share)
    for leg in range(2):
        if b == _LEGS[leg][0] or b == _LEGS[leg][1] or b == _LEGS[leg][2]:
            if _KNEES[leg] < nb:
                _knee(bf, jf, ji, pbi[f, _KNEES[leg], PB_JOINT], prm[S_WOUND_KNEE] * share)
    return True


@njit(cache=True, _nrt=False)
def wound_post(f, ff, fi, pbi, prm, bf):
    """After the physics step, figure f's fresh wound judged: a body that keeps ``throws`` m/s
    or more after the step its blow landed on was thrown, and the wound is not answered."""
    if fi[f, F_WOUND] != WOUND_JUDGED:
        return
    m = 0.0
    vx = 0.0
    vy = 0.0
    vz = 0.0
    for b in range(fi[f, F_NBONES]):
        s = pbi[f, b, PB_BODY]
        mb = bf[s, B_MASS]
        m += mb
        vx += mb * bf[s, B_V]
        vy += mb * bf[s, B_V + 1]
        vz += mb * bf[s, B_V + 2]
    if m <= 0.0:
        fi[f, F_WOUND] = WOUND_NONE
        return
    dvx = vx / m - ff[f, F_WOUND_V0]
    dvy = vy / m - ff[f, F_WOUND_V0 + 1]
    dvz = vz / m - ff[f, F_WOUND_V0 + 2]
    if math.sqrt(dvx * dvx + dvy * dvy + dvz * dvz) >= prm[S_WOUND_THROWS]:
        fi[f, F_WOUND] = WOUND_NONE
        ff[f, F_WOUND_T] = 0.0
    else:
        fi[f, F_WOUND] = WOUND_HELD


# ------------------------------------------------------------------------------ the façade
def _arm_muscle(s: Any, m: Motion, arm: int) -> float:
    """The weaker of the arm's upper arm's and forearm's muscle now (0..1)."""
    st = float(s.ff[m.slot, F_STRENGTH])
    return min(st * (1.0 - float(s.pbf[m.slot, b, PB_LOSS])) * float(s.pbf[m.slot, b, PB_PART_S])
               for b in _ARMS[arm])


def wounded(m: Motion, b: int, point: np.ndarray) -> None:
    """``hit``'s blow on bone ``b`` at ``point`` (m), after it took its share and before its
    impulse is applied: kept to be judged after its step (``wound_post``) when the figure is
    POWERED, answers blows, and the blow took at least min_share of the bone's muscle."""
    s = service(m.engine)
    f = m.slot
    s.fi[f, F_STRUCK_LAST] = b          # writhing leaves the arm struck last out (_writhe.py)
    # and folds the other toward the place, kept in the bone's frame (carried with it)
    s_l = int(m.ragdoll.bodies[b])
    q_l = m.engine.physics.bf[s_l, B_QUAT:B_QUAT + 4]
    s.ff[f, F_STRUCK_LAST_P:F_STRUCK_LAST_P + 3] = _rot(
        np.array([-q_l[0], -q_l[1], -q_l[2], q_l[3]]),
        np.asarray(point, dtype=float) - m.engine.physics.bf[s_l, B_POS:B_POS + 3])
    if int(s.fi[f, F_WOUND_OFF]) != 0 or int(s.fi[f, F_MODE]) != POWERED:
        return
    if int(s.fi[f, F_FALLING]) != 0 or int(s.fi[f, F_LAND]) != LAND_NONE:
        return
    prm = s.prm
    share = float(s.pbf[f, b, PB_LOSS])
    if share < float(prm[S_WOUND_MIN_SHARE]):
        return
    w = m.engine.physics
    r = m.ragdoll
    nb = r.bones
    bodies = np.asarray(r.bodies, dtype=np.int64)
    # which hand: the wound's side for the trunk, head or a leg; the other for an arm
    arm_of = {bb: k for k, (u, lo) in enumerate(_ARMS) for bb in (u, lo)}
    la = w.bf[bodies[_ARMS[0][0]], B_POS:B_POS + 3]
    ra = w.bf[bodies[_ARMS[1][0]], B_POS:B_POS + 3]
    if b in arm_of:
        choices = [1 - arm_of[b]]
    else:
        mid = 0.5 * (la + ra)
        left = (point - mid) @ (la - ra) >= 0.0
        choices = [0, 1] if left else [1, 0]
    hand = -1
    for k in choices:
        if _ARMS[k][1] < nb and _arm_muscle(s, m, k) >= float(prm[S_WOUND_WEAK]):
            hand = k
            break
    trunk_or_leg = b in _TRUNK or any(b in leg for leg in _LEGS)
    if hand < 0 and not trunk_or_leg:
        return
    # the point and its way out from the bone's axis, in the struck bone's frame
    s_b = int(bodies[b])
    q = w.bf[s_b, B_QUAT:B_QUAT + 4]
    qi = np.array([-q[0], -q[1], -q[2], q[3]])
    loc = _rot(qi, point - w.bf[s_b, B_POS:B_POS + 3])
    # from the capsule's core segment: a point past its end (a trunk capsule lying across the
    # body, struck on the flank) goes out through the end
    half = float(w.bf[s_b, B_DIMS + 1])
    out = loc - np.array([0.0, min(half, max(-half, float(loc[1]))), 0.0])
    n = float(np.linalg.norm(out))
    if n < 1e-6:
        # struck on the axis: its way out is toward the figure's front
        fwd = _rot(w.bf[bodies[0], B_QUAT:B_QUAT + 4],
                   np.asarray(human.BONE_FORWARD_LOCAL[0], dtype=float))
        out = _rot(qi, fwd)
        n = float(np.linalg.norm(out)) or 1.0
    out /= n
    mass = w.bf[bodies, B_MASS]
    v0 = (w.bf[bodies, B_V:B_V + 3] * mass[:, None]).sum(axis=0) / max(float(mass.sum()), 1e-9)
    s.ff[f, F_WOUND_T] = float(prm[S_WOUND_HOLD])
    s.ff[f, F_WOUND_SHARE] = share
    s.ff[f, F_WOUND_P:F_WOUND_P + 3] = loc
    s.ff[f, F_WOUND_N:F_WOUND_N + 3] = out
    s.ff[f, F_WOUND_V0:F_WOUND_V0 + 3] = v0
    s.fi[f, F_WOUND_BONE] = b
    s.fi[f, F_WOUND_HAND] = hand
    s.fi[f, F_WOUND] = WOUND_JUDGED
    # the aimed ways start where the arm's bones lie now (the chest's frame)
    if hand >= 0:
        chest = int(bodies[_CHEST])
        cq = w.bf[chest, B_QUAT:B_QUAT + 4]
        ci = np.array([-cq[0], -cq[1], -cq[2], cq[3]])
        for bb in _ARMS[hand]:
            j = int(r.joints[bb])
            d = -_rot(w.bf[bodies[bb], B_QUAT:B_QUAT + 4], w.jf[j, J_PB:J_PB + 3])
            d = _rot(ci, d / max(float(np.linalg.norm(d)), 1e-9))
            s.pbf[f, bb, PB_REACH_D:PB_REACH_D + 3] = d


def _rot(q: np.ndarray, v: np.ndarray) -> np.ndarray:
    from ae3d._math import quat_rot
    return quat_rot(np.asarray(q, dtype=float), np.asarray(v, dtype=float))


def set_hit_reaction(body: Motion, on: bool) -> None:
    """Answer the blows the figure stands through where they land (on by default, spec #698):
    a free hand to the wound for 2.5 s, the spine folded toward a wound to the trunk, the knee
    of a wounded leg bent. Off, a wound held now is let go at the next step."""
    m = check(body)
    v = boolean(on, "on")
    s = service(m.engine)
    s.fi[m.slot, F_WOUND_OFF] = 0 if v else 1


def hit_reaction(body: Motion) -> bool:
    """True when the figure answers blows where they land (``set_hit_reaction``)."""
    m = check(body)
    return not bool(service(m.engine).fi[m.slot, F_WOUND_OFF])


def wound(body: Motion) -> tuple[int, int, float] | None:
    """The wound held now: (the bone struck, the arm that holds it: 0 left, 1 right, -1 none,
    s left), or None."""
    m = check(body)
    s = service(m.engine)
    if int(s.fi[m.slot, F_WOUND]) != WOUND_HELD:
        return None
    return (int(s.fi[m.slot, F_WOUND_BONE]), int(s.fi[m.slot, F_WOUND_HAND]),
            float(s.ff[m.slot, F_WOUND_T]))
