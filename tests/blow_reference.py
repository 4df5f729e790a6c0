"""The Python version of physics/_blow.py's blow response, kept as the reference the compiled one
(physics/_kernels_blow.py ``blow_kernel``) is held to (tests/physics/test_blow_compiled.py).

The same math, line for line as it was before it was compiled (numpy, some 3.3 to 5 ms a blow);
it writes nothing (the compiled one counts a grounded blow in ``w.blow_stats``). The constants
are ``_blow``'s.
"""

from __future__ import annotations

import numpy as np

from ae3d.physics import _layout as L
from ae3d.physics._blow import (
    GROUND_SWEEPS,
    GROUND_TOL,
    GROUP_SPEED_CAP,
    GROUP_SPIN_CAP,
    MAX_GROUP,
    PLANE_MARGIN,
    SPEED_CAP,
    SPIN_CAP,
    _rot,  # the rotation matrix of a unit quaternion, one place
)
from ae3d.physics._kernels_blow import _ground_sweeps
from ae3d.physics._kernels_step import FP_DT as _DT


def _skew(r: np.ndarray) -> np.ndarray:
    return np.array([[0.0, -r[2], r[1]], [r[2], 0.0, -r[0]], [-r[1], r[0], 0.0]])




def _qconj(q: np.ndarray) -> np.ndarray:
    return np.array([-q[0], -q[1], -q[2], q[3]])


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
    now_v = bf[bodies, L.B_V:L.B_V + 3]
    now_w = bf[bodies, L.B_W:L.B_W + 3]
    # held by the world (or a static or kinematic body), or a body that cannot turn: the group
    # cannot move as one, so all of the response is the joints' share and is scaled as a whole
    anchored = (any(int(ji[j, end]) not in index for j in joints
                    for end in (L.J_BODY_A, L.J_BODY_B))
                or bool(np.any(bf[bodies, L.B_INV_I:L.B_INV_I + 3] <= 0.0)))
    if anchored:
        lin, ang, rw = np.zeros_like(dv), np.zeros_like(dv), np.zeros_like(dw)
    else:
        lin, ang, rw = rigid_part(bf, bodies, dv, dw)
    iv, iw = dv - lin - ang, dw - rw
    # the group moving and turning as one opens no joint: its turning is held to GROUP_SPIN_CAP
    # (the spin of the whole figure whirls its limbs out against the joints), and the whole of it
    # is scaled only where it alone would take a body past SPEED_CAP; the blow's momentum is kept
    # whole by everything else
    spin = float(np.linalg.norm(rw[0])) if len(rw) else 0.0
    turn = 1.0 if spin <= GROUP_SPIN_CAP else GROUP_SPIN_CAP / spin
    rv, rw = lin + turn * ang, rw * turn
    speed = float(np.linalg.norm(lin[0])) if len(lin) else 0.0
    rigid = min(_room(now_v, rv, SPEED_CAP),
                1.0 if speed <= GROUP_SPEED_CAP else GROUP_SPEED_CAP / speed)
    rv, rw = rv * rigid, rw * rigid
    rigid *= turn
    # the joints' share (the bodies moving against one another, no momentum of its own): scaled
    # so that no body passes the caps with the rigid part added
    inner = min(_room(now_v + rv, iv, SPEED_CAP), _room(now_w + rw, iw, SPIN_CAP))
    dv, dw = rv + inner * iv, rw + inner * iw
    if n > 1:
        # the ground's share, in the same instant (see ground_share)
        c = np.array(rows) if rows else np.zeros((0, 6 * n))
        gv, gw = ground_share(w, bodies, rots, minv, c, dv, dw)
        dv, dw = dv + gv, dw + gw
    return bodies, dv, dw, min(rigid, inner)


def contact_rows(w, bodies: list[int], rots: list[np.ndarray]
                 ) -> tuple[np.ndarray, np.ndarray, np.ndarray, np.ndarray]:
    """The group's touching points on still bodies (the ground, a static or kinematic body), from
    the last step's contact manifolds (a body with none, asleep: its points against the ground
    planes, ``_low_points``): (rows (m, 3, 6k), now (m,) m/s, floor (m,) m/s, friction
    (m,)). A point's first row gives its velocity along the contact normal, away from the still
    body, from the group's (v, ω), the other two across it; ``now`` is that velocity now (less
    the still body's), ``floor`` the slowest the point may approach: as much of its separation
    as one step closes (a speculative contact's allowance, 0 for a point in overlap)."""
    nm = int(w.nm)
    k = len(bodies)
    none = (np.zeros((0, 3, 6 * k)), np.zeros(0), np.zeros(0), np.zeros(0))
    if int(w.steps) == 0:
        return none
    index = {b: i for i, b in enumerate(bodies)}
    mi, mf, bf, bi = w.mi[:nm], w.mf[:nm], w.bf, w.bi
    dt = float(w.fp[_DT]) if float(w.fp[_DT]) > 0.0 else 1.0 / 60.0
    rows, now, floor, mu = [], [], [], []
    for r in np.nonzero(np.isin(mi[:, L.M_A], bodies) | np.isin(mi[:, L.M_B], bodies))[0]:
        a, b = int(mi[r, L.M_A]), int(mi[r, L.M_B])
        if a in index and b in index:
            continue  # within the group: the joints' rows already hold it together
        g, o = (b, a) if b in index else (a, b)
        if bi[o, L.B_KIND] == L.KIND_DYNAMIC:
            continue  # another free body: it gives way (the solver's work)
        sign = 1.0 if g == b else -1.0  # the normal runs from A to B
        n = mf[r, L.M_NORMAL:L.M_NORMAL + 3]
        turn_g = _rot(_qmul(bf[g, L.B_QUAT:L.B_QUAT + 4], _qconj(bf[g, L.B_QUAT0:L.B_QUAT0 + 4])))
        turn_o = _rot(_qmul(bf[o, L.B_QUAT:L.B_QUAT + 4], _qconj(bf[o, L.B_QUAT0:L.B_QUAT0 + 4])))
        i = index[g]
        for p in range(int(mi[r, L.M_N])):
            at = L.M_P + p * L.P_STRIDE
            rg0 = mf[r, at + (L.P_RB if g == b else L.P_RA):][:3]
            ro0 = mf[r, at + (L.P_RA if g == b else L.P_RB):][:3]
            rg, ro = turn_g @ rg0, turn_o @ ro0
            # the points' separation now: at collide, plus how far the two points moved since
            moved = ((bf[g, L.B_POS:L.B_POS + 3] - bf[g, L.B_POS0:L.B_POS0 + 3] + rg - rg0)
                     - (bf[o, L.B_POS:L.B_POS + 3] - bf[o, L.B_POS0:L.B_POS0 + 3] + ro - ro0))
            sep = float(mf[r, at + L.P_SEP]) + sign * float(n @ moved)
            vg = bf[g, L.B_V:L.B_V + 3] + np.cross(bf[g, L.B_W:L.B_W + 3], rg)
            vo = bf[o, L.B_V:L.B_V + 3] + np.cross(bf[o, L.B_W:L.B_W + 3], ro)
            rows.append(_point_rows(k, i, sign * n, rg))
            mu.append(float(mf[r, L.M_FRICTION]))
            now.append(sign * float(n @ (vg - vo)))
            floor.append(-max(sep, 0.0) / dt)
    # bodies with no manifold (an island asleep keeps none): their points against the ground
    # planes, within PLANE_MARGIN
    have = {int(x) for x in mi[:, L.M_A]} | {int(x) for x in mi[:, L.M_B]}
    planes = np.nonzero((bi[: w.n, L.B_SHAPE] == L.SHAPE_PLANE)
                        & (bi[: w.n, L.B_KIND] != L.KIND_FREE))[0]
    for g in bodies:
        if g in have:
            continue
        i = index[g]
        for o in planes:
            o = int(o)
            if not (bi[g, L.B_GROUP] & bi[o, L.B_MASK] and bi[o, L.B_GROUP] & bi[g, L.B_MASK]):
                continue
            n = _rot(bf[o, L.B_QUAT:L.B_QUAT + 4])[:, 1]
            for off in _low_points(bf, bi, g, rots[i], n):
                sep = float((bf[g, L.B_POS:L.B_POS + 3] + off - bf[o, L.B_POS:L.B_POS + 3]) @ n)
                if sep >= PLANE_MARGIN:
                    continue
                rows.append(_point_rows(k, i, n, off))
                mu.append(float(np.sqrt(bf[g, L.B_FRICTION] * bf[o, L.B_FRICTION])))
                now.append(float(n @ (bf[g, L.B_V:L.B_V + 3]
                                      + np.cross(bf[g, L.B_W:L.B_W + 3], off))))
                floor.append(-max(sep, 0.0) / dt)
    if not rows:
        return none
    return np.array(rows), np.array(now), np.array(floor), np.array(mu)


def _point_rows(k: int, i: int, n: np.ndarray, r: np.ndarray) -> np.ndarray:
    """(3, 6k): the velocity of body i's point at ``r`` (m from its centre) along the normal
    ``n`` (away from the still body) and along two tangents across it."""
    t1 = np.cross(n, (1.0, 0.0, 0.0) if abs(n[0]) < 0.9 else (0.0, 1.0, 0.0))
    t1 /= np.linalg.norm(t1)
    t2 = np.cross(n, t1)
    out = np.zeros((3, 6 * k))
    for row, d in zip(out, (n, t1, t2), strict=True):
        row[6 * i:6 * i + 3] = d
        row[6 * i + 3:6 * i + 6] = np.cross(r, d)
    return out


def _low_points(bf, bi, g: int, rot: np.ndarray, n: np.ndarray) -> list[np.ndarray]:
    """Offsets (m, world, from body g's centre) of its points nearest a plane of normal ``n``:
    a sphere's, a capsule's two ends', a box's eight corners (other shapes: none)."""
    shape = int(bi[g, L.B_SHAPE])
    d = bf[g, L.B_DIMS:L.B_DIMS + 3]
    if shape == L.SHAPE_SPHERE:
        return [-d[0] * n]
    if shape == L.SHAPE_CAPSULE:
        return [s * d[1] * rot[:, 1] - d[0] * n for s in (-1.0, 1.0)]
    if shape == L.SHAPE_BOX:
        return [rot @ (d * np.array([sx, sy, sz])) for sx in (-1.0, 1.0) for sy in (-1.0, 1.0)
                for sz in (-1.0, 1.0)]
    return []


def ground_share(w, bodies: list[int], rots: list[np.ndarray], minv: np.ndarray,
                 joints: np.ndarray, dv: np.ndarray, dw: np.ndarray
                 ) -> tuple[np.ndarray, np.ndarray]:
    """(dv, dw) (k, 3) m/s, rad/s: what the ground (a static or kinematic body the group
    touches, ``contact_rows``) adds to the blow ``dv``, ``dw`` in its instant, through the
    joints' rows ``joints`` (m, 6k) and the group's inverse masses ``minv`` (6k, 6k). A point
    the blow drives into the ground faster than it was approaching, and faster than its
    separation allows in a step, is stopped at that speed; the ground only pushes (λ >= 0).
    Where it pushes, its friction holds the point from sliding as the blow would slide it,
    within Coulomb's disk (mu times the push: the contact's friction, sqrt(μA μB)): without
    it the ground's push, taken from the solver's next sub-steps into the instant, took with it
    the friction those sub-steps would have had, and the feet of a figure pushed sideways slid
    out from under it (tests/test_motion.py's sideways faller: its protected head met the
    ground at 3.27 m/s, its twin's at 2.00, against 1.24 and 0.51 with no ground share).

    The velocities of least kinetic energy distance from the blow's that the joints and these
    points allow: a contact LCP on the articulated group's mobility
    W = M⁻¹ - M⁻¹Cᵀ(C M⁻¹ Cᵀ)⁻¹C M⁻¹, solved by projected Gauss-Seidel (a figure lying down has
    some 10 to 40 points). Since the joints' rows are equalities, projecting the joints-only
    answer onto the contacts is the same as solving both at once (Pythagoras in the kinetic-energy
    metric), so the unscaled blow stays exact (friction's disk is convex, so the same holds)."""
    k = len(bodies)
    zero = (np.zeros((k, 3)), np.zeros((k, 3)))
    rows, now, floor, mu = contact_rows(w, bodies, rots)
    if len(rows) == 0:
        return zero
    dx = np.concatenate([dv, dw], axis=1).reshape(-1)
    # how much faster (m/s) each point must leave than the blow sends it
    need = np.minimum(now, floor) - (now + rows[:, 0] @ dx)
    if not np.any(need > 0.0):
        return zero
    m = len(rows)
    cc = rows.reshape(3 * m, 6 * k)  # per point: its normal row, then its two tangents
    # the tangents: the blow's sliding at the point undone, as far as friction allows
    target = -(cc @ dx)
    target[0::3] = need
    mob = minv
    if len(joints):
        kj = joints @ minv @ joints.T
        kj += np.eye(len(kj)) * (1e-12 * max(1.0, float(np.max(np.abs(np.diag(kj))))))
        mob = minv - minv @ joints.T @ np.linalg.solve(kj, joints @ minv)
    a = cc @ mob @ cc.T
    diag = np.diag(a).copy()
    tiny = 1e-12 * max(1.0, float(diag.max()))
    lam = np.zeros(3 * m)
    got = np.zeros(3 * m)  # a @ lam, kept as lam changes
    _ground_sweeps(a, diag, target, np.asarray(mu, dtype=np.float64), tiny, GROUND_SWEEPS,
                   GROUND_TOL, lam, got)
    dx = mob @ (cc.T @ lam)
    return dx.reshape(k, 6)[:, 0:3].copy(), dx.reshape(k, 6)[:, 3:6].copy()



def rigid_part(bf, bodies: list[int], dv: np.ndarray, dw: np.ndarray
               ) -> tuple[np.ndarray, np.ndarray, np.ndarray]:
    """(linear, turning, spin), each (k, 3): the part of a group's velocity change ``dv`` m/s,
    ``dw`` rad/s (k, 3) that moves the group as one rigid body with the same momentum (N·s) and
    angular momentum about the group's centre of mass (N·m·s): every body at V (linear, m/s)
    plus Ω × (its centre - the group's) (turning, m/s), spinning at Ω (rad/s). It is the
    projection in the kinetic-energy metric, so the remainder (the joints' share) carries no
    momentum and no angular momentum, and the two energies add."""
    mass = 1.0 / bf[bodies, L.B_INV_MASS]
    pos = bf[bodies, L.B_POS:L.B_POS + 3]
    total = float(mass.sum())
    centre = (mass[:, None] * pos).sum(axis=0) / total
    d = pos - centre
    momentum = (mass[:, None] * dv).sum(axis=0)
    spin = np.zeros(3)
    inertia = np.zeros((3, 3))
    for i, b in enumerate(bodies):
        r = _rot(bf[b, L.B_QUAT:L.B_QUAT + 4])
        inv = bf[b, L.B_INV_I:L.B_INV_I + 3]
        body_i = (r * (1.0 / inv)) @ r.T
        spin += body_i @ dw[i] + mass[i] * np.cross(d[i], dv[i])
        inertia += body_i + mass[i] * (float(d[i] @ d[i]) * np.eye(3) - np.outer(d[i], d[i]))
    omega = np.linalg.solve(inertia, spin)
    linear = np.broadcast_to(momentum / total, dv.shape).copy()
    rw = np.broadcast_to(omega, dw.shape).copy()
    return linear, np.cross(omega, d), rw


def _room(now: np.ndarray, add: np.ndarray, cap: float) -> float:
    """The largest s in [0, 1] with |now + s add| <= cap for every row (k, 3): 0 where a row is
    already past the cap."""
    s = 1.0
    for a, b in zip(now, add, strict=True):
        bb = float(b @ b)
        if bb == 0.0:
            continue
        ab, aa = float(a @ b), float(a @ a)
        if aa >= cap * cap:
            return 0.0
        # |a + s b|^2 = cap^2 at the positive root
        root = (-ab + np.sqrt(ab * ab + bb * (cap * cap - aa))) / bb
        s = min(s, max(0.0, root))
    return s
