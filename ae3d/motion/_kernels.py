"""The motion module's fixed-step work for every figure at once (njit), and the drawing's blends.

One call before the physics step (``pre_step``) and one after it (``post_step``) serve every
figure of an engine, so the Python cost per figure per step is nothing (DESIGN.md "Motion").
They write the physics world's joint and anchor rows directly (the layout is ``physics._layout``):

* ANIMATED: the joints' springs (the ragdoll's ``a`` Hz, critically damped) pull toward the
  animation's pose; the motors are off; the follow anchors' targets are the animation's bodies in
  the world, with the velocities that carry them there (finite differences over the step).
* POWERED: every joint's motor is a pose drive toward the animation's pose (the physics kernel
  asks it for the relative angular velocity that closes the gap in 50 ms, capped at 20 rad/s)
  within its budget: full budget x figure strength x (1 - the share a blow took). The springs are
  off: the motor is the muscle (a spring's stiffness is relative to two small inertias and sagged,
  spec "A joint's muscle is its motor"). The pelvis's upright anchor holds at 1,200 N·m x strength
  (the balance), what a blow past it overcomes: a blow giving the figure over 2.4 m/s lets it go
  over 0.4 s, and a figure falling (past 0.35 rad) has it let go until caught (under half).
  The heading hold is at 60 N·m x strength while a sole touches the ground and the lean is under
  0.35 rad, else 0 with its impulse cleared (#689).
* LIMP: motors, springs, balance and heading off; joint friction only (a ragdoll).

Quaternions are (x, y, z, w). Units: m, s, rad, N·m.
"""

from __future__ import annotations

import math

import numpy as np
from numba import njit

from ae3d.figure._kernels import forward_kinematics
from ae3d.physics._kernels_dress import bodies_from_world
from ae3d.physics._kernels_sleep import wake_island
from ae3d.physics._layout import (
    A_AXIS,
    A_HEADING,
    A_L_ANG,
    A_QAX,
    A_TMAX,
    A_TPOS,
    A_TQUAT,
    A_TV,
    A_TW,
    B_AWAKE,
    B_PARKED,
    B_POS,
    B_QUAT,
    B_SLEEP_TIME,
    DRIVE_AIM,
    DRIVE_POSE,
    J_DEADBAND,
    J_DRIVE,
    J_DRIVE_MAX_W,
    J_DRIVE_TIME,
    J_L_MOTOR,
    J_L_SPRING,
    J_MOTOR_MAX,
    J_OWNER,
    J_PA,
    J_PB,
    J_SPRING_HZ,
    J_SPRING_MAX,
    J_SPRING_ZETA,
    J_TARGET,
    SI_TOUCH,
)

ANIMATED = 0
POWERED = 1
LIMP = 2
GETTING_UP = 3
ACTING = 4

FALL_LEAN = 0.35        # rad: a POWERED figure leaning more than this from its pose is falling
CAUGHT_LEAN = 0.175     # rad: it has caught itself under half of it
# Through a fall the balance keeps this share of its cap as a brake ("Through a fall, until the
# figure lands, the anchor keeps the fall's brake"). Let go to nothing, a 400 N·s blow at the chest
# sent the box man over its shoulders, its calves 0.49 m above its chest and the lean to 2.27 rad
# (#822's legs over its head); at 0.2 and at 0.35 it lands flat (lean at most 1.56 rad) and the
# 60 N·s shove is unchanged.
FALL_BRAKE = 0.3
LETGO_TIME = 0.4        # s: a blow past the balance lets its anchor go over this ("On muscles")
TELEPORT_SPEED = 15.0   # m/s: an animated body's target faster than this has jumped, not moved
TELEPORT_SPIN = 40.0    # rad/s: the same for its turn


# ------------------------------------------------------------------------------ quaternions
@njit(cache=True)
def qmul(ax, ay, az, aw, bx, by, bz, bw):
    return (aw * bx + ax * bw + ay * bz - az * by,
            aw * by - ax * bz + ay * bw + az * bx,
            aw * bz + ax * by - ay * bx + az * bw,
            aw * bw - ax * bx - ay * by - az * bz)


@njit(cache=True)
def qrot(qx, qy, qz, qw, vx, vy, vz):
    # v + 2 w (q x v) + 2 q x (q x v)
    tx = 2.0 * (qy * vz - qz * vy)
    ty = 2.0 * (qz * vx - qx * vz)
    tz = 2.0 * (qx * vy - qy * vx)
    return (vx + qw * tx + (qy * tz - qz * ty),
            vy + qw * ty + (qz * tx - qx * tz),
            vz + qw * tz + (qx * ty - qy * tx))


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


# ---------------------------------------------------------------------- the animation's bodies
@njit(cache=True, inline="always")
def _place_child(jf, j, a, b, lx, ly, lz, lw, out_p, out_q):
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


@njit(cache=True)
def anim_bodies(f, nb, parent, joints, targets, anim_pos, anim_rot, jf, out_p, out_q):
    """Forward kinematics of figure f's animation in body space: the pelvis at (anim_pos,
    anim_rot), every other body turned by its target relative rotation (qparent^-1 qbone) and
    placed so its joint's points meet. out_p (14, 3) m, out_q (14, 4)."""
    out_p[0, 0] = anim_pos[f, 0]
    out_p[0, 1] = anim_pos[f, 1]
    out_p[0, 2] = anim_pos[f, 2]
    for c in range(4):
        out_q[0, c] = anim_rot[f, c]
    for b in range(1, nb):
        a = parent[b]
        j = joints[f, b]
        _place_child(jf, j, a, b, targets[f, b, 0], targets[f, b, 1], targets[f, b, 2],
                     targets[f, b, 3], out_p, out_q)


@njit(cache=True)
def _wake_body(bf, bi, n, s):
    if bi[s, B_PARKED] != 0:
        return
    if bi[s, B_AWAKE] == 0:
        wake_island(bf, bi, n, s)
    bf[s, B_SLEEP_TIME] = 0.0


@njit(cache=True)
def _lean(bf, s, ux, uy, uz, arx, ary, arz, arw):
    """rad between the pelvis body's up and the animation pelvis's up (both world)."""
    q0, q1, q2, q3 = bf[s, B_QUAT], bf[s, B_QUAT + 1], bf[s, B_QUAT + 2], bf[s, B_QUAT + 3]
    bx, by, bz = qrot(q0, q1, q2, q3, ux, uy, uz)
    ax, ay, az = qrot(arx, ary, arz, arw, ux, uy, uz)
    d = bx * ax + by * ay + bz * az
    cx = by * az - bz * ay
    cy = bz * ax - bx * az
    cz = bx * ay - by * ax
    return math.atan2(math.sqrt(cx * cx + cy * cy + cz * cz), d)


@njit(cache=True)
def pre_step(want, dt, nfig, alive, stepped, owner, mode, nbones, parent, joints, bodies, full,
             fstrength, loss, lrate, targets, anim_pos, anim_rot, prev_p, prev_q, has_prev,
             follow, upright, heading, lean, falling, letgo, spring_hz, soles, up_local, fwd_local,
             balance_torque, heading_torque, drive_time, drive_max_w,
             bf, bi, jf, ji, af, ai, si, nbody, scratch_p, scratch_q):
    """Before the physics step, for every live figure whose ``stepped`` equals ``want``: the
    blows' shares recover, the joints get the animation's pose and their budgets, the balance and
    heading anchors their caps, and an ANIMATED figure's follow anchors their targets."""
    for f in range(nfig):
        if alive[f] == 0 or stepped[f] != want:
            continue
        nb = nbones[f]
        pel = bodies[f, 0]
        if ji[joints[f, 1], J_OWNER] != owner[f]:
            # its ragdoll was destroyed under it (physics.ragdoll_destroy): its rows may be
            # someone else's now, so the figure is dropped, never written again
            alive[f] = 0
            continue
        if bi[pel, B_PARKED] != 0:
            continue
        m = mode[f]
        # a blow's share comes back over the recovery time
        for b in range(nb):
            if loss[f, b] > 0.0:
                loss[f, b] -= lrate[f, b] * dt
                if loss[f, b] <= 1e-12:
                    loss[f, b] = 0.0
                    lrate[f, b] = 0.0
        s = fstrength[f]
        changed = False
        powered = m == POWERED
        animated = m == ANIMATED or m == GETTING_UP or m == ACTING
        for b in range(1, nb):
            j = joints[f, b]
            x, y, z, w = qnorm(targets[f, b, 0], targets[f, b, 1], targets[f, b, 2],
                               targets[f, b, 3])
            d = (abs(jf[j, J_TARGET] - x) + abs(jf[j, J_TARGET + 1] - y)
                 + abs(jf[j, J_TARGET + 2] - z) + abs(jf[j, J_TARGET + 3] - w))
            if d > 1e-9:
                changed = True
            jf[j, J_TARGET] = x
            jf[j, J_TARGET + 1] = y
            jf[j, J_TARGET + 2] = z
            jf[j, J_TARGET + 3] = w
            budget = full[f, b] * s * (1.0 - loss[f, b]) if powered else 0.0
            if budget != jf[j, J_MOTOR_MAX]:
                changed = True
                if budget == 0.0:
                    jf[j, J_L_MOTOR] = 0.0
                    jf[j, J_L_MOTOR + 1] = 0.0
                    jf[j, J_L_MOTOR + 2] = 0.0
            jf[j, J_MOTOR_MAX] = budget
            jf[j, J_DRIVE_TIME] = drive_time
            jf[j, J_DRIVE_MAX_W] = drive_max_w
            jf[j, J_DEADBAND] = 0.0
            if ji[j, J_DRIVE] != DRIVE_AIM:
                ji[j, J_DRIVE] = DRIVE_POSE
            hz = spring_hz[f] if animated else 0.0
            if hz != jf[j, J_SPRING_HZ]:
                changed = True
                if hz == 0.0:
                    jf[j, J_L_SPRING] = 0.0
                    jf[j, J_L_SPRING + 1] = 0.0
                    jf[j, J_L_SPRING + 2] = 0.0
            jf[j, J_SPRING_HZ] = hz
            jf[j, J_SPRING_ZETA] = 1.0
            jf[j, J_SPRING_MAX] = full[f, b] * s * (1.0 - loss[f, b])
        # the animation's pelvis: its up (for the lean) and the way it faces (for the heading)
        arx, ary, arz, arw = anim_rot[f, 0], anim_rot[f, 1], anim_rot[f, 2], anim_rot[f, 3]
        lean[f] = _lean(bf, pel, up_local[0], up_local[1], up_local[2], arx, ary, arz, arw)
        fx, fy, fz = qrot(arx, ary, arz, arw, fwd_local[0], fwd_local[1], fwd_local[2])
        head = math.atan2(fx, fz)
        on_soles = False
        for k in range(soles.shape[0]):
            sb = soles[k]
            if sb < nb and si[bodies[f, sb], SI_TOUCH] != 0:
                on_soles = True
        # the balance is what a blow past it overcomes (#6): such a blow (``hit``) lets the
        # anchor go over LETGO_TIME, its cap fading to the fall's brake (FALL_BRAKE), and a
        # figure leaning past the falling lean (0.35 rad) keeps only that brake until it is back
        # under half of that (post_step's falling flag). Held regardless, the anchor on the
        # world took a 400 N·s blow's whole turn out of the pelvis at once: the figure slid 2.6 m
        # on its feet into a squat and its muscles stood it up again, rather than toppling
        up_cap = balance_torque * s if powered else 0.0
        brake = FALL_BRAKE * up_cap
        if letgo[f] > 0.0:
            up_cap = brake + (up_cap - brake) * letgo[f] / LETGO_TIME
            letgo[f] = max(0.0, letgo[f] - dt)
        if falling[f] != 0:
            up_cap = brake
        head_cap = heading_torque * s if (powered and on_soles and lean[f] < FALL_LEAN) else 0.0
        ku = upright[f]
        # the balance holds the pelvis to the animation's pelvis's tilt (its yaw free): the body
        # axis the animation's pelvis turns up is the one held up
        ux, uy, uz = qrot(-arx, -ary, -arz, arw, 0.0, 1.0, 0.0)
        af[ku, A_AXIS] = ux
        af[ku, A_AXIS + 1] = uy
        af[ku, A_AXIS + 2] = uz
        if uy > -1.0 + 1e-12:
            ax, ay, az, aw = qnorm(uz, 0.0, -ux, 1.0 + uy)  # shortest arc from +y to u
        else:
            ax, ay, az, aw = 1.0, 0.0, 0.0, 0.0
        af[ku, A_QAX] = ax
        af[ku, A_QAX + 1] = ay
        af[ku, A_QAX + 2] = az
        af[ku, A_QAX + 3] = aw
        if af[ku, A_TMAX] != up_cap:
            changed = True
            af[ku, A_TMAX] = up_cap
            if up_cap == 0.0:
                af[ku, A_L_ANG] = 0.0
                af[ku, A_L_ANG + 1] = 0.0
                af[ku, A_L_ANG + 2] = 0.0
        kh = heading[f]
        if af[kh, A_TMAX] != head_cap:
            af[kh, A_TMAX] = head_cap
            if head_cap == 0.0:
                af[kh, A_L_ANG] = 0.0
                af[kh, A_L_ANG + 1] = 0.0
                af[kh, A_L_ANG + 2] = 0.0
        af[kh, A_HEADING] = head
        # an animated figure's bodies follow the animation's through their anchors
        if animated:
            anim_bodies(f, nb, parent, joints, targets, anim_pos, anim_rot, jf,
                        scratch_p, scratch_q)
            for b in range(nb):
                k = follow[f, b]
                if k < 0:
                    continue
                vx = vy = vz = wx = wy = wz = 0.0
                if has_prev[f] != 0:
                    vx = (scratch_p[b, 0] - prev_p[f, b, 0]) / dt
                    vy = (scratch_p[b, 1] - prev_p[f, b, 1]) / dt
                    vz = (scratch_p[b, 2] - prev_p[f, b, 2]) / dt
                    wx, wy, wz = qdelta_rotvec(prev_q[f, b, 0], prev_q[f, b, 1], prev_q[f, b, 2],
                                               prev_q[f, b, 3], scratch_q[b, 0], scratch_q[b, 1],
                                               scratch_q[b, 2], scratch_q[b, 3])
                    wx /= dt
                    wy /= dt
                    wz /= dt
                    # a jump of the animation (a clip's loop snapping its root back, a pose set
                    # anew) is not a speed to chase: the anchors drag the bodies there instead
                    if vx * vx + vy * vy + vz * vz > TELEPORT_SPEED * TELEPORT_SPEED:
                        vx = vy = vz = 0.0
                    if wx * wx + wy * wy + wz * wz > TELEPORT_SPIN * TELEPORT_SPIN:
                        wx = wy = wz = 0.0
                for c in range(3):
                    af[k, A_TPOS + c] = scratch_p[b, c]
                    prev_p[f, b, c] = scratch_p[b, c]
                for c in range(4):
                    af[k, A_TQUAT + c] = scratch_q[b, c]
                    prev_q[f, b, c] = scratch_q[b, c]
                af[k, A_TV] = vx
                af[k, A_TV + 1] = vy
                af[k, A_TV + 2] = vz
                af[k, A_TW] = wx
                af[k, A_TW + 1] = wy
                af[k, A_TW + 2] = wz
                if vx != 0.0 or vy != 0.0 or vz != 0.0 or wx != 0.0 or wy != 0.0 or wz != 0.0:
                    changed = True
            has_prev[f] = 1
        else:
            has_prev[f] = 0
        if changed:
            _wake_body(bf, bi, nbody, pel)


@njit(cache=True)
def post_step(want, nfig, alive, stepped, owner, mode, joints, bodies, anim_rot, lean, max_lean,
              falling, up_local, bf, bi, ji):
    """After the physics step: each figure's lean from its pose (rad), the most it has leant,
    and whether a POWERED figure is falling (past 0.35 rad; caught again under half of it)."""
    for f in range(nfig):
        if alive[f] == 0 or stepped[f] != want:
            continue
        pel = bodies[f, 0]
        if ji[joints[f, 1], J_OWNER] != owner[f]:
            alive[f] = 0
            continue
        if bi[pel, B_PARKED] != 0:
            continue
        le = _lean(bf, pel, up_local[0], up_local[1], up_local[2], anim_rot[f, 0],
                   anim_rot[f, 1], anim_rot[f, 2], anim_rot[f, 3])
        lean[f] = le
        if le > max_lean[f]:
            max_lean[f] = le
        if mode[f] == POWERED:
            if le > FALL_LEAN:
                falling[f] = 1
            elif le < CAUGHT_LEAN:
                falling[f] = 0
        else:
            falling[f] = 0


@njit(cache=True)
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


@njit(cache=True)
def read_dressed(rig_t, rig_q, rig_s, written_t, written_q, anim_t, anim_q, anim_s, rig_parents,
                 root, world, rig_bones, off_p, off_q, nb, parent, p, q, targets, anim_pos,
                 anim_rot):
    """A dressed figure's animation's pose, before a step, in one call (what the dressing's
    ``ragdoll_rig_targets`` and ``ragdoll_rig_bodies`` do, without their Python): every rig bone
    whose local pose differs from what the bodies last wrote (``written``, NaN where they never
    did) was written by the animation since, and is taken into the animation's pose kept beside
    the rig (``anim``); the rest keep it. Then the animation's bodies in the world (p, q), the
    pelvis's pose (anim_pos, anim_rot) and each joint's target, body-relative (targets)."""
    for i in range(rig_t.shape[0]):
        same = True
        for c in range(3):
            if not (rig_t[i, c] == written_t[i, c]):
                same = False
        for c in range(4):
            if not (rig_q[i, c] == written_q[i, c]):
                same = False
        if not same:
            for c in range(3):
                anim_t[i, c] = rig_t[i, c]
            for c in range(4):
                anim_q[i, c] = rig_q[i, c]
        for c in range(3):
            anim_s[i, c] = rig_s[i, c]
    forward_kinematics(rig_parents, anim_t, anim_q, anim_s, root, world)
    bodies_from_world(world, rig_bones, off_p, off_q, p, q)
    for c in range(3):
        anim_pos[c] = p[0, c]
    for c in range(4):
        anim_rot[c] = q[0, c]
    relative_from_world(nb, parent, q, targets)


@njit(cache=True)
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


@njit(cache=True)
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
        _place_child(jf, j, a, b, loc_q[b, 0], loc_q[b, 1], loc_q[b, 2], loc_q[b, 3],
                     out_p, out_q)


@njit(cache=True)
def offset_size(shown_q, shown_t, body_q, body_t, out_a, out_d):
    """Per bone, the angle (rad) and distance (m) between the pose shown and the bodies' pose:
    the offset that fades over a hand-over into POWERED (#581)."""
    for b in range(shown_q.shape[0]):
        rx, ry, rz = qdelta_rotvec(body_q[b, 0], body_q[b, 1], body_q[b, 2], body_q[b, 3],
                                   shown_q[b, 0], shown_q[b, 1], shown_q[b, 2], shown_q[b, 3])
        out_a[b] = math.sqrt(rx * rx + ry * ry + rz * rz)
        dx = shown_t[b, 0] - body_t[b, 0]
        dy = shown_t[b, 1] - body_t[b, 1]
        dz = shown_t[b, 2] - body_t[b, 2]
        out_d[b] = math.sqrt(dx * dx + dy * dy + dz * dz)


@njit(cache=True)
def fade_offset(body_q, body_t, drawn_q, drawn_t, off_a, off_d, remaining):
    """Draw the bodies' pose plus what is left of the offset (#581, #665), in place in drawn.

    ``remaining`` (0..1) is the share of the offset left (1 at the hand-over, 0 a quarter second
    on); ``off_a``/``off_d`` the offset's size at the hand-over. The offset is taken along what
    now lies between the bodies and the pose last shown (``drawn``), and is never more than that:
    a body moving the pose's way closes the gap and the drawing waits for it rather than passing
    it, and a body moving away (a blow) shows at once, the offset riding on it."""
    for b in range(body_q.shape[0]):
        rx, ry, rz = qdelta_rotvec(body_q[b, 0], body_q[b, 1], body_q[b, 2], body_q[b, 3],
                                   drawn_q[b, 0], drawn_q[b, 1], drawn_q[b, 2], drawn_q[b, 3])
        gap = math.sqrt(rx * rx + ry * ry + rz * rz)
        keep = off_a[b] * remaining
        if gap > keep and gap > 0.0:
            k = keep / gap
            rx *= k
            ry *= k
            rz *= k
        ex, ey, ez, ew = qexp(rx, ry, rz)
        qx, qy, qz, qw = qnorm(*qmul(ex, ey, ez, ew, body_q[b, 0], body_q[b, 1], body_q[b, 2],
                                     body_q[b, 3]))
        if qw < 0.0:
            qx, qy, qz, qw = -qx, -qy, -qz, -qw
        drawn_q[b, 0] = qx
        drawn_q[b, 1] = qy
        drawn_q[b, 2] = qz
        drawn_q[b, 3] = qw
        dx = drawn_t[b, 0] - body_t[b, 0]
        dy = drawn_t[b, 1] - body_t[b, 1]
        dz = drawn_t[b, 2] - body_t[b, 2]
        gap = math.sqrt(dx * dx + dy * dy + dz * dz)
        keep = off_d[b] * remaining
        k = 1.0
        if gap > keep and gap > 0.0:
            k = keep / gap
        drawn_t[b, 0] = body_t[b, 0] + dx * k
        drawn_t[b, 1] = body_t[b, 1] + dy * k
        drawn_t[b, 2] = body_t[b, 2] + dz * k


@njit(cache=True)
def blend_pose(from_q, from_t, to_q, to_t, s, out_q, out_t):
    """out = from slerped toward to by s (0..1), per bone; translations lerped."""
    for b in range(from_q.shape[0]):
        rx, ry, rz = qdelta_rotvec(from_q[b, 0], from_q[b, 1], from_q[b, 2], from_q[b, 3],
                                   to_q[b, 0], to_q[b, 1], to_q[b, 2], to_q[b, 3])
        ex, ey, ez, ew = qexp(rx * s, ry * s, rz * s)
        qx, qy, qz, qw = qnorm(*qmul(ex, ey, ez, ew, from_q[b, 0], from_q[b, 1], from_q[b, 2],
                                     from_q[b, 3]))
        if qw < 0.0:
            qx, qy, qz, qw = -qx, -qy, -qz, -qw
        out_q[b, 0] = qx
        out_q[b, 1] = qy
        out_q[b, 2] = qz
        out_q[b, 3] = qw
        for c in range(3):
            out_t[b, c] = from_t[b, c] + (to_t[b, c] - from_t[b, c]) * s


__all__ = ["pre_step", "post_step", "anim_bodies", "body_pose_local", "local_to_world",
           "offset_size", "fade_offset", "blend_pose", "ANIMATED", "POWERED", "LIMP",
           "GETTING_UP", "ACTING", "FALL_LEAN", "np"]
