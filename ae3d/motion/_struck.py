"""Struck by something: an ANIMATED figure goes POWERED when a body strikes it (#581).

"A figure stays ANIMATED, drawn from its clip, until something touches it, and goes POWERED the
moment it is struck." ``motion.hit`` is one way (the game knows what struck). The other is the
world's own contacts: a body that came at the figure's bodies strikes it.

Struck is told from touched by who moved. An ANIMATED figure's bodies follow its clip and push
aside what they meet (spec "ANIMATED"), so a walker pushing a crate must stay ANIMATED, while a
crate thrown at it must not. The scan therefore reads the other body's own velocity at the start
of the step (taken before the physics step: after it the two move together) along the contact
normal into the figure: a body coming at it faster than ``STRUCK_SPEED`` strikes it; one at rest
that the figure walks into does not. Static bodies (the ground) never strike; the figure's own
bodies never do.

What a strike takes from the muscles is ``hit``'s rule, with the blow's impulse estimated from the
two bodies' approach as a perfectly inelastic two-body impact: j = m_f m_o / (m_f + m_o) x the
closing speed (m_o infinite for a kinematic body: j = m_f x speed). The strongest strike of the
step on a figure is the one taken. Units: m/s, kg, N·s.
"""

from __future__ import annotations

import math

import numpy as np
from numba import njit

from ae3d.physics._layout import (
    B_KIN_MOVE,
    B_KIN_POS,
    B_KIND,
    B_MASS,
    B_PARKED,
    B_POS,
    B_V,
    KIND_DYNAMIC,
    KIND_KINEMATIC,
    M_A,
    M_B,
    M_N,
    M_NORMAL,
    M_P,
    P_MAXLN,
    P_STRIDE,
)

from ._kernels import ANIMATED

# m/s: a body coming at an ANIMATED figure faster than this strikes it; slower, it only touches
# (a walker's foot brushing a ball at rest, a prop set down against its legs). Half a slow walk:
# "until something touches it" asks for little, but not for nothing.
STRUCK_SPEED = 0.5


@njit(cache=True)
def take_velocities(bf, bi, n, dt, out):
    """out[i] = body i's linear velocity (m/s) as the coming step starts: a kinematic body moved
    to a target, the velocity that reaches it in ``dt``."""
    for i in range(n):
        if bi[i, B_KIND] == KIND_KINEMATIC and bi[i, B_KIN_MOVE] != 0:
            for c in range(3):
                out[i, c] = (bf[i, B_KIN_POS + c] - bf[i, B_POS + c]) / dt
        else:
            for c in range(3):
                out[i, c] = bf[i, B_V + c]


@njit(cache=True)
def scan_struck(rows, alive, stepped, want, mode, nbones, bodies, bf, bi, mi, mf, nm, v0,
                owner, speed_min, out_bone, out_j):
    """For every ANIMATED row stepped with ``want``: the bone struck hardest this step and the
    blow's estimated impulse (N·s), or out_bone -1. ``owner`` is scratch of at least the world's
    body count. Returns how many rows were struck."""
    nb_world = owner.shape[0]
    for i in range(nb_world):
        owner[i] = -1
    for f in range(rows):
        out_bone[f] = -1
        out_j[f] = 0.0
        if alive[f] == 0 or stepped[f] != want or mode[f] != ANIMATED:
            continue
        for b in range(nbones[f]):
            s = bodies[f, b]
            if 0 <= s < nb_world:
                owner[s] = f
    struck = 0
    for r in range(nm):
        a = mi[r, M_A]
        b = mi[r, M_B]
        fa = owner[a] if a < nb_world else -1
        fb = owner[b] if b < nb_world else -1
        if fa < 0 and fb < 0:
            continue
        touched = False
        for p in range(mi[r, M_N]):
            if mf[r, M_P + p * P_STRIDE + P_MAXLN] > 0.0:
                touched = True
        if not touched:
            continue
        nx = mf[r, M_NORMAL]
        ny = mf[r, M_NORMAL + 1]
        nz = mf[r, M_NORMAL + 2]
        for side in range(2):
            if side == 0:
                f, me, other, sg = fa, a, b, 1.0     # the normal runs from A (the figure) to B
            else:
                f, me, other, sg = fb, b, a, -1.0
            if f < 0 or owner[other] == f:
                continue
            k = bi[other, B_KIND]
            if (k != KIND_DYNAMIC and k != KIND_KINEMATIC) or bi[other, B_PARKED] != 0:
                continue
            # into the figure is -sg n; the other body's own speed that way, and the closing speed
            ux = -sg * nx
            uy = -sg * ny
            uz = -sg * nz
            coming = v0[other, 0] * ux + v0[other, 1] * uy + v0[other, 2] * uz
            if coming <= speed_min:
                continue
            mine = v0[me, 0] * ux + v0[me, 1] * uy + v0[me, 2] * uz
            closing = coming - mine
            if closing <= 0.0:
                continue
            mf_ = bf[me, B_MASS]
            if k == KIND_DYNAMIC:
                mo = bf[other, B_MASS]
                meff = mf_ * mo / (mf_ + mo)
            else:
                meff = mf_
            j = meff * closing
            if j > out_j[f]:
                if out_bone[f] < 0:
                    struck += 1
                out_j[f] = j
                # the bone of the body struck
                for bb in range(nbones[f]):
                    if bodies[f, bb] == me:
                        out_bone[f] = bb
    return struck


class StruckScan:
    """The service's scratch for the scan (grown with the world)."""

    def __init__(self) -> None:
        self.v0 = np.zeros((0, 3))
        self.owner = np.zeros(0, dtype=np.int64)
        self.bone = np.zeros(0, dtype=np.int64)
        self.j = np.zeros(0)
        self.taken = False

    def before(self, w, dt: float, any_animated: bool) -> None:
        """Before the physics step: the bodies' velocities, while an ANIMATED figure exists."""
        self.taken = bool(any_animated)
        if not self.taken:
            return
        if self.v0.shape[0] < w.n:
            self.v0 = np.zeros((max(w.n, 2 * self.v0.shape[0]), 3))
            self.owner = np.zeros(self.v0.shape[0], dtype=np.int64)
        take_velocities(w.bf, w.bi, w.n, dt, self.v0)

    def after(self, s, want: int) -> list[tuple[int, int, float]]:
        """After it: (row, bone, impulse N·s) of each ANIMATED figure struck this step."""
        if not self.taken:
            return []
        self.taken = False
        w = s.engine.physics
        if self.bone.shape[0] < s.n:
            self.bone = np.zeros(s.cap, dtype=np.int64)
            self.j = np.zeros(s.cap)
        if w.nm == 0 or self.owner.shape[0] < w.n:
            return []
        count = scan_struck(s.n, s.alive, s.stepped, want, s.mode, s.nbones, s.bodies, w.bf,
                            w.bi, w.mi, w.mf, w.nm, self.v0, self.owner[: w.n], STRUCK_SPEED,
                            self.bone, self.j)
        if count == 0:
            return []
        return [(f, int(self.bone[f]), float(self.j[f])) for f in range(s.n)
                if self.bone[f] >= 0 and math.isfinite(self.j[f])]
