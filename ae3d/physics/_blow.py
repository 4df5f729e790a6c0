"""A blow through the joints: the impulse response of a jointed group of bodies, solved exactly.

A blow is an impulse: it changes velocities in no time. On a lone body that is Δv = J/m,
Δω = I⁻¹ (r × J). On a body held by joints it is not: in the instant of the blow the joints push
back with impulses of their own, and a forearm struck with 150 N·s does not leave at J/m = 125 m/s
with its elbow standing still; it drags its upper arm and the trunk with it. Handing the
solver the lone body's answer leaves the joints to catch up over the following sub-steps from a
velocity error of a hundred metres a second at a point a few centimetres across, which is where
a joint tears (issue 18's tear table: forearms from 150 N·s, the trunk from 1,000).

So ``apply_impulse`` on a jointed body solves the instant exactly, as an articulated body does
(Featherstone's impulse response; Bertrand's theorem: of all the velocities the joints allow,
the blow gives the one of least kinetic energy): with x = (v, ω) of every body of the group
joined to the struck one, M the masses and world inertias, C the joints' velocity rows (each
joint's point: the two bodies' velocities there equal, 3 rows; a hinge also keeps the two
bodies' spin apart from its axis equal, 2 rows) and f the blow's generalised impulse,

    M Δx = f + Cᵀ λ,    C Δx = 0    ->    (C M⁻¹ Cᵀ) λ = -C M⁻¹ f,   Δx = M⁻¹ (f + Cᵀ λ).

The blow adds no velocity across any joint: what tears nothing in the instant tears nothing
after. Limits, motors and springs are not in it (they are inequalities and caps, the solver's
work over the next sub-steps). The group's kinetic energy from the blow is at most the lone
body's (constraints only take energy away).

A net, documented: a blow that would take a body of the group past the world's speed caps
(``SPEED_CAP`` m/s, ``SPIN_CAP`` rad/s) is scaled down, the whole response alike, so that none
is: the joints' rows stay consistent (a body clamped alone would open its joints). Counted in
``physics.stats(e)`` (``blows_jointed``, ``blows_scaled``).

Cost: one dense solve of 3 to 5 rows a joint: about 0.1 ms for a 13-joint figure, once a blow.
Units: N·s, m, m/s, rad/s.
"""

from __future__ import annotations

import numpy as np

from ae3d import limits as LIM

from . import _layout as L

#: m/s: no body of a struck group leaves the blow faster than this: a fraction of the solver's
#: own cap (``limits.MAX_SPEED``), leaving the sub-steps after it room for gravity and contacts.
SPEED_CAP = 0.75 * LIM.MAX_SPEED
#: rad/s: nor spinning faster than this (about ten turns a second). Measured on bench/tear.py
#: (the reference ragdoll, LIMP in zero g, 12 bones x 12 directions x 150 to 5,000 N·s): with
#: the blow through the joints and a cap of 150 rad/s, 22 of 576 trials still tore (forearms
#: from 150 N·s: whipped round the elbow into its limit faster than a sub-step's rows can stop
#: it); at 60 rad/s none tore to 5,000 N·s (widest gap 2.4 cm). Without the exact response 286
#: of the 576 tore. The solver itself allows a quarter turn a sub-step (377 rad/s at 8).
SPIN_CAP = 60.0
#: the most bodies a group solved exactly may hold (a ragdoll has 12 to 14); a larger jointed
#: structure takes the blow on the struck body alone, as before.
MAX_GROUP = 64


def _skew(r: np.ndarray) -> np.ndarray:
    return np.array([[0.0, -r[2], r[1]], [r[2], 0.0, -r[0]], [-r[1], r[0], 0.0]])


def _rot(q: np.ndarray) -> np.ndarray:
    x, y, z, w = q
    return np.array([
        [1 - 2 * (y * y + z * z), 2 * (x * y - w * z), 2 * (x * z + w * y)],
        [2 * (x * y + w * z), 1 - 2 * (x * x + z * z), 2 * (y * z - w * x)],
        [2 * (x * z - w * y), 2 * (y * z + w * x), 1 - 2 * (x * x + y * y)],
    ])


def _qmul(a: np.ndarray, b: np.ndarray) -> np.ndarray:
    ax, ay, az, aw = a
    bx, by, bz, bw = b
    return np.array([aw * bx + ax * bw + ay * bz - az * by, aw * by - ax * bz + ay * bw + az * bx,
                     aw * bz + ax * by - ay * bx + az * bw, aw * bw - ax * bx - ay * by - az * bz])


def joined_group(w, slot: int) -> tuple[list[int], list[int]]:
    """(bodies, joints): the dynamic bodies joined to ``slot`` through joints (slot first, then
    in the order they are reached, joints in slot order) and every joint that touches them.
    Static, kinematic and world ends hold their side still and join nothing."""
    ji = w.ji[: w.nj]
    used = np.nonzero(ji[:, L.J_KIND] != L.JOINT_FREE)[0]
    dynamic = w.bi[:, L.B_KIND] == L.KIND_DYNAMIC
    bodies = [slot]
    seen = {slot}
    k = 0
    while k < len(bodies):
        b = bodies[k]
        k += 1
        for j in used:
            a_, b_ = int(ji[j, L.J_BODY_A]), int(ji[j, L.J_BODY_B])
            other = b_ if a_ == b else a_ if b_ == b else -1
            if other >= 0 and other not in seen and dynamic[other]:
                seen.add(other)
                bodies.append(other)
    joints = [int(j) for j in used
              if int(ji[j, L.J_BODY_A]) in seen or int(ji[j, L.J_BODY_B]) in seen]
    return bodies, joints


def blow_response(w, slot: int, impulse: np.ndarray, point: np.ndarray | None
                  ) -> tuple[list[int], np.ndarray, np.ndarray, float]:
    """The velocity changes a blow ``impulse`` (3,) N·s at world ``point`` (3,) m (the centre if
    None) on body ``slot`` gives its jointed group: (bodies, dv (k, 3) m/s, dw (k, 3) rad/s,
    scale), ``scale`` < 1 where the speed caps took the blow down. Writes nothing."""
    bodies, joints = joined_group(w, slot)
    if len(bodies) > MAX_GROUP:
        bodies, joints = [slot], []
    n = len(bodies)
    index = {b: i for i, b in enumerate(bodies)}
    bf, jf, ji = w.bf, w.jf, w.ji
    rots = [_rot(bf[b, L.B_QUAT:L.B_QUAT + 4]) for b in bodies]
    minv = np.zeros((6 * n, 6 * n))
    for i, b in enumerate(bodies):
        minv[6 * i:6 * i + 3, 6 * i:6 * i + 3] = np.eye(3) * bf[b, L.B_INV_MASS]
        r = rots[i]
        minv[6 * i + 3:6 * i + 6, 6 * i + 3:6 * i + 6] = (r * bf[b, L.B_INV_I:L.B_INV_I + 3]) @ r.T
    f = np.zeros(6 * n)
    f[0:3] = impulse
    if point is not None:
        f[3:6] = np.cross(point - bf[slot, L.B_POS:L.B_POS + 3], impulse)
    rows: list[np.ndarray] = []
    for j in joints:
        ends = ((int(ji[j, L.J_BODY_A]), L.J_PA, -1.0), (int(ji[j, L.J_BODY_B]), L.J_PB, 1.0))
        point_rows = np.zeros((3, 6 * n))
        for body, col, sign in ends:
            if body in index:
                i = index[body]
                r = rots[i] @ jf[j, col:col + 3]
                point_rows[:, 6 * i:6 * i + 3] = sign * np.eye(3)
                point_rows[:, 6 * i + 3:6 * i + 6] = -sign * _skew(r)
        rows.extend(point_rows)
        if ji[j, L.J_KIND] == L.JOINT_HINGE:
            a = int(ji[j, L.J_BODY_A])
            qa = bf[a, L.B_QUAT:L.B_QUAT + 4] if a >= 0 else np.array([0.0, 0.0, 0.0, 1.0])
            frame = _rot(_qmul(qa, jf[j, L.J_QA:L.J_QA + 4]))
            for axis in (frame[:, 1], frame[:, 2]):  # the two the hinge locks
                row = np.zeros(6 * n)
                for body, _, sign in ends:
                    if body in index:
                        i = index[body]
                        row[6 * i + 3:6 * i + 6] = sign * axis
                rows.append(row)
    free = minv @ f
    dx = free
    if rows:
        c = np.array(rows)
        k = c @ minv @ c.T
        # a tiny regularisation: rows made redundant by a closed loop or a world end
        k += np.eye(len(rows)) * (1e-12 * max(1.0, float(np.max(np.abs(np.diag(k))))))
        lam = np.linalg.solve(k, -(c @ free))
        dx = free + minv @ (c.T @ lam)
    dv = dx.reshape(n, 6)[:, 0:3].copy()
    dw = dx.reshape(n, 6)[:, 3:6].copy()
    scale = 1.0
    for i, b in enumerate(bodies):
        for now, add, cap in ((bf[b, L.B_V:L.B_V + 3], dv[i], SPEED_CAP),
                              (bf[b, L.B_W:L.B_W + 3], dw[i], SPIN_CAP)):
            grow = float(np.linalg.norm(add))
            room = cap - float(np.linalg.norm(now))
            if grow * scale > room:
                scale = max(0.0, room / grow)
    return bodies, dv * scale, dw * scale, scale
