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
(``SPEED_CAP`` m/s, ``SPIN_CAP`` rad/s) is scaled down, but not as a whole. The response is split
into its rigid part (the group moving and turning as one about its centre of mass, with the
blow's momentum and its angular momentum about that centre: the projection in the kinetic-energy
metric, ``rigid_part``) and the joints' share (the bodies moving against one another: no
momentum, no angular momentum of its own). Moving as one opens no joint and whips no limb, so
the rigid part is scaled only where it alone would pass the caps (a blow of thousands of N·s,
or one far off the centre: ``GROUP_SPEED_CAP``, ``GROUP_SPIN_CAP``); only the joints' share
is scaled to keep every body, rigid part added, within the caps. Both parts satisfy the joints'
rows (the rigid one up to a joint's drift times the group's spin), so the scaled blow still adds
no velocity across a joint, and its energy is the rigid part's plus the scaled share's: at most
the unscaled blow's. A group held by the world (a joint to the world, a static or kinematic
body) cannot move as one: there all of it is the joints' share, scaled as a whole. Counted in
``physics.stats(e)`` (``blows_jointed``, ``blows_scaled``: either part scaled).

The ground's share, in the same instant (``ground_share``): a point of the group that touches
the ground or another still body (the last step's contact manifolds; the ground planes for a
body with none, as in an island asleep) and that the blow would drive into it, faster than it
was already approaching and faster than its separation allows in one step, is stopped there by
the ground's push, with the ground's friction (Coulomb's disk) against the sliding the blow
gives the point, all taken through the joints as the blow is: a contact problem on the
articulated group's mobility, after the caps (so the ground's push is never scaled away).
Without it the blow knew no contact: a figure lying down was driven into the ground for the
solver's soft contacts to catch over the next sub-steps. Counted in
``physics.stats(e).blows_grounded``; measured: the comment above ``GROUND_SWEEPS``.

Measured on the reference ragdoll standing (78 kg), pushed at the chest (``BONE_SPINE_03``) from
behind: the body that binds is the lower spine (``BONE_SPINE_01``, 60 rad/s from 247 N·s; the
neck next, 0.86 of it; the upper arms 0.69). Scaled as a whole the figure took 246 N·s from every
push of 247 N·s and up (3.16 m/s at its centre of mass: every push of 255 N·s or more the same
to the bit); with the split it takes all of it, 200 to 468 N·s (2.56 to 6 m/s: the whole group
held to ``GROUP_SPEED_CAP``), the joints' share scaled to 0.96 at 255 N·s, 0.80 at 300.

Cost: one dense solve of 3 to 5 rows a joint: about 0.1 ms for a 13-joint figure, once a blow.
Units: N·s, m, m/s, rad/s.
"""

from __future__ import annotations

import math

import numpy as np
from numba import njit

from ae3d import limits as LIM

from . import _layout as L
from ._kernels_step import FP_DT as _DT

#: m/s: no body of a struck group leaves the blow faster than this: a fraction of the solver's
#: own cap (``limits.MAX_SPEED``), leaving the sub-steps after it room for gravity and contacts.
SPEED_CAP = 0.75 * LIM.MAX_SPEED
#: rad/s: nor spinning faster than this (about ten turns a second). Measured on bench/tear.py
#: (the reference ragdoll, LIMP in zero g, 12 bones x 12 directions x 150 to 5,000 N·s): with
#: the blow through the joints and a cap of 150 rad/s, 22 of 576 trials still tore (forearms
#: from 150 N·s: whipped round the elbow into its limit faster than a sub-step's rows can stop
#: it); at 60 rad/s none tore to 5,000 N·s (widest gap 2.4 cm). Without the exact response 286
#: of the 576 tore. The solver itself allows a quarter turn a sub-step (377 rad/s at 8).
#: Since the cap scales only the joints' share of a blow (the figure keeps its momentum; the
#: whole figure's turning held to GROUP_SPIN_CAP), the same table: none tore, widest gap 2.5 cm,
#: every gap back under 2 cm within 0.1 s (as before); the fastest bodies 91 m/s at 5,000 N·s
#: (was 41: the figure now leaves with the blow's 64 m/s).
SPIN_CAP = 60.0
#: rad/s: the whole group turning as one (the rigid part of a blow) takes no more of it than
#: this: the whole figure spinning whirls its limbs out against the joints. Measured on
#: bench/tear.py (reference, LIMP, zero g, 2,000 and 5,000 N·s, 288 trials): with the group's
#: spin held only to SPIN_CAP (60) none tore but joints opened to 5.5 cm and 219 trials' gaps
#: were not back under 2 cm within 0.1 s; at 30: 3.2 cm, 46; at 20: 2.5 cm, 4; at 15: 2.5 cm,
#: none (10: 3.0 cm, none). On the ground 15 was not enough: the reference ragdoll LIMP, struck
#: level at a thigh with 600 N·s, turned as one into the ground and sank 4.3 and 3.4 cm (2 of the
#: 24 thigh trials torn by the 3 cm depth limit); at 10 none (deepest 1.4 cm, widest gap 2.2),
#: at 6 none (0.4 cm). The box man the same way: at 15 none (deepest 2.99 cm), at 10 two (3.3 and
#: 3.5 cm: bench/tear.py box man LIMP on the ground, 600 and 5,000 N·s, 2 of 288), at 6 none of
#: the thigh trials (1.05 cm) but 3 of the 288 (arms at 600 N·s, 3.0 to 3.6 cm; the reference at
#: 6: none, 2.4 cm). So the cap only moves these: not yet the 0 it must be on both rigs; the
#: cure is the ground's contact rows in the response.
#: The response knows no contact (as GROUP_SPEED_CAP). A push at the chest
#: from behind turns a standing 78 kg figure as one at 5.7 rad/s at 200 N·s, 7.3 at 255, 8.5 at
#: 300, 11.4 at 400, 13.3 at 468: from about 350 N·s its turning is held, its momentum is not.
GROUP_SPIN_CAP = 10.0
#: m/s: nor moving faster than this as a whole. The response knows no contact: a figure lying on
#: the ground driven into it as one at the blow's J/m (64 m/s at 5,000 N·s) tore (bench/tear.py
#: on the ground, 600 and 5,000 N·s, LIMP: 90 of 288 reference trials, 95 box man; at 10 m/s
#: 0 and 3; held per body at 6 m/s none on either rig, but a chest push kept only 197 N·s).
#: Held at the centre of mass, as here, at 6 m/s: box man none torn, the reference 2 of 288
#: LIMP on the ground (none POWERED, none in zero g), both thigh blows of 600 N·s turned into
#: the ground: with GROUP_SPIN_CAP at 10 (was 15) the reference none (widest gap 4.8 cm, fastest
#: body 34 m/s; in zero g none, 3.0 cm, 34 m/s), the box man 2 (thighs, 3.3 and 3.5 cm deep).
#: 6 m/s keeps a 78 kg figure's push whole to 468 N·s.
GROUP_SPEED_CAP = 6.0
#: projected Gauss-Seidel sweeps of the ground's share (at most) and the tolerance that ends
#: them early (m/s: the largest change a sweep made to any point's velocity).
#: The ground's share measured on bench/tear.py's figures on the ground, 600 and 5,000 N·s, 12
#: bones x 12 directions (288 trials), before -> after:
#:   box man LIMP: torn 2 -> 0 (both by the 3 cm depth limit), deepest 3.54 -> 2.64 cm, gaps not
#:     back under 2 cm within 0.1 s 53 -> 44, widest gap 4.58 -> 6.41 cm (spine_01, 600 N·s);
#:   reference LIMP: torn 0 -> 0, deepest 2.21 -> 2.15 cm, not back 37 -> 41, widest 4.83 ->
#:     4.64 cm; box man POWERED: torn 0 -> 0, deepest 0.47 -> 0.23 cm, widest 3.27 cm both.
#: The deepest trials (with the push alone) were not the blow's instant: 0.43 s after it the
#: figure lands on a forearm falling at 9.6 m/s that sinks 3.3 cm within the step (the solver's
#: contacts; 2.5 cm at a contact stiffness of 120 Hz); the friction changed where figures land.
#: Without the friction (the push alone) the box man LIMP kept 2 torn (3.32 cm) and the sideways
#: protective fall of tests/test_motion.py met the ground at 3.27 m/s (twin 2.00); with it 0.53
#: (twin 1.53; main 1.24 / 0.51), tests/test_falls.py sideways slower 27 of 30 (main 4).
GROUND_SWEEPS = 200
GROUND_TOL = 1e-6
#: m: a body of the group with no contact manifold (its island asleep: a figure lying still
#: keeps none) takes the ground planes' rows at its points nearer a plane than this (the
#: world's speculative margin at rest)
PLANE_MARGIN = 0.02
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
    w.blow_stats[2] += 1
    return dx.reshape(k, 6)[:, 0:3].copy(), dx.reshape(k, 6)[:, 3:6].copy()


@njit(cache=True, _nrt=False)
def _ground_sweeps(a, diag, target, mu, tiny, sweeps, tol, lam, got):
    """The ground's share's projected Gauss-Seidel (``ground_share``), in place on ``lam`` (3m,
    N·s: each point's push, then its two frictions) and ``got`` (= a @ lam, m/s). Compiled: a
    figure lying down has 10 to 40 points and the sweeps in Python took 40 to 80 ms a blow."""
    m = len(lam) // 3
    n_all = len(lam)
    for _sweep in range(sweeps):
        most = 0.0
        for p in range(m):
            n_ = 3 * p
            o0, o1, o2 = lam[n_], lam[n_ + 1], lam[n_ + 2]
            if diag[n_] > tiny:
                lam[n_] = max(0.0, lam[n_] + (target[n_] - got[n_]) / diag[n_])
            for t in (n_ + 1, n_ + 2):
                if diag[t] > tiny:
                    lam[t] += (target[t] - got[t]) / diag[t]
            # Coulomb: the friction impulse within the disk of mu times the push
            cap = mu[p] * lam[n_]
            fr = math.hypot(lam[n_ + 1], lam[n_ + 2])
            if fr > cap:
                lam[n_ + 1] *= cap / fr
                lam[n_ + 2] *= cap / fr
            d0, d1, d2 = lam[n_] - o0, lam[n_ + 1] - o1, lam[n_ + 2] - o2
            if d0 != 0.0 or d1 != 0.0 or d2 != 0.0:
                for q in range(n_all):
                    got[q] += a[q, n_] * d0 + a[q, n_ + 1] * d1 + a[q, n_ + 2] * d2
                most = max(most, abs(d0) * diag[n_], abs(d1) * diag[n_ + 1],
                           abs(d2) * diag[n_ + 2])
        if most < tol:
            break
    # friction couples the rows and slows the sweeps: the pushes finish alone, the friction as
    # it stands (a point still driven in at 0.36 m/s by 2,000 N·s down on a lying figure's chest)
    for _sweep in range(sweeps):
        most = 0.0
        for n_ in range(0, n_all, 3):
            if diag[n_] <= tiny:
                continue
            new = max(0.0, lam[n_] + (target[n_] - got[n_]) / diag[n_])
            d = new - lam[n_]
            if d != 0.0:
                lam[n_] = new
                for q in range(n_all):
                    got[q] += a[q, n_] * d
                most = max(most, abs(d) * diag[n_])
        if most < tol:
            break


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
