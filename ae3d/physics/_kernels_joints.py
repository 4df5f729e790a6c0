"""Joint constraints of the soft-step solver (ball with twist and elliptical swing cone, hinge),
with friction, springs and torque-capped motors. OWNED BY THE JOINTS WORK (issue 3).

Contract with the step loop (``_kernels_step.step_world``), called for the slots in use on no
parked body (lj), in order:
    prepare_joints(bf, bi, jf, ji, lj, h, dt)          once per step, before the sub-steps
    warm_start_joints(bf, bi, jf, ji, jl, g, g_ready)  each sub-step (jl: the slots, in order)
    solve_joints(bf, bi, jf, ji, jl, h, use_bias, g, g_ready)
                                                       each sub-step, bias pass then relax pass
                                                       (g: the step's scratch, see solve_joints)
They read the current pose from bf[:, B_POS/B_QUAT] and write velocities bf[:, B_V/B_W].

Derivation (our own code; learnt from Box3D's spherical/revolute joints and Jolt's swing-twist):

* Softness (Catto's soft step) on the sub-step h: w = 2 pi f, a1 = 2 zeta + h w, a2 = h w a1,
  a3 = 1/(1+a2); bias rate w/a1, mass scale a2 a3, impulse scale a3. A soft row solves
  dl = -massScale * m * (Cdot + biasRate * C) - impulseScale * l.
* Rigid parts (the point, a hinge's two locked axes) are soft (J_HZ, J_ZETA) only in the bias
  pass; the relax pass removes the bias. A limit not yet reached is speculative (bias C/h, full
  mass, no impulse scale); once passed it is rigid too and takes LIMIT_BETA of its error out in a
  sub-step (soft limits let a limp ragdoll pass them by 4-6 degrees under blows). Rows a joint
  can't reach this sub-step are skipped exactly. Springs are soft in both passes.
* Motors (and friction, a motor toward zero) are hard velocity rows whose accumulated impulse is
  clamped to h * budget: on a ball joint the 3-vector's norm (isotropic budget), on a hinge its
  one axis. Rotational mass M = (IA^-1 + IB^-1)^-1 (world, as K below: each sub-step).
* Relative rotation relQ = FA^-1 FB (FA = qA * frameA), taken with w >= 0. Its swing-twist split
  about x: s = sqrt(w^2 + x^2); twist = (x, 0, 0, w)/s;
  swing = (0, (w y - x z), (w z + x y), s^2)/s.
  Twist angle 2 atan2(x, w); it turns at w . (xA + xB) / (1 + xA . xB), xA, xB the frames'
  x axes. Swing angle 2 atan2(|(sy, sz)|, sw) about
  n = x_A x x_B; the ellipse's radial limit in direction phi = atan2(sz, sy) is
  sin(lim/2) = 1 / sqrt((cos(phi)/sin(ay/2))^2 + (sin(phi)/sin(az/2))^2), ay/az the half-angles
  about frame A's y/z axes. The cone is about frame A's x axis, its own centre, which need not be
  the child bone's rest direction (aephysics#129).
* Hinge: its axis is frame x; the two other axes are locked with C = (relQ.y, relQ.z) and rows
  p_i = 1/2 R(FA) (s e_i + v x e_i), a 2x2 soft solve (Box3D's revolute lock).
* Point: C = (xB + rB) - (xA + rA), K = (mA + mB) I - [rA] IA^-1 [rA] - [rB] IB^-1 [rB], K^-1
  from the lever arms as they are now: built in the pass that first sees a pose (the step's
  first bias pass, each relax pass) and kept in J_KINV for the next sub-step's bias pass (the
  poses do not move between the two), as Box2D v3 builds K in its solve.
  What it was (issue 18): K^-1 was taken once per step in prepare_joints, from the step's first
  lever arms, and applied with the arms as they had turned since. For a thin bone that turns
  fast the stale inverse is several times too large: the largest eigenvalue of K_used^-1 K_true
  at the elbow was 1.14 at 6.5 deg of turn since the step began, 2.2 at 19, 5.65 at 40 (the
  forearm's inverse inertia is (34, 741, 34), 21.6:1); past 2 each pass amplifies the error
  instead of taking it out, and a 60 N·s blow on a forearm diverged to 7e9 m/s (at 16
  sub-steps too: it is the turn in a step that matters). The same held, more mildly, for the
  world inverse inertia (B_IW), once per step: it is now taken after every sub-step's position
  update (_kernels_step.IW_EVERY_SUBSTEP) and the rotational mass (J_RMASS, friction, spring and
  motor rows) with it, in the same passes as K, so that every row's mass is consistent with the
  I^-1 its impulse is applied through (refreshing B_IW alone, rows left on the step's masses,
  made 1,000 N·s blows worse). Limit and lock rows build their masses in the pass already.
* Nets (issue 18): the bias pass pushes a point's gap out no faster than JOINT_PUSH_MAX m/s, and
  a limit past its edge or a hinge's lock no faster than LIMIT_PUSH_MAX rad/s (counted in
  B_NETS + NET_PUSH). With
  the masses above they act only at the hardest blows (bench/tear.py counts them).
* Projection (issue 18; ON, up to PROJECT_SWEEPS = 16 sweeps, World.project_sweeps, measured
  there; ``project_joints``, after the step's sub-steps and nets, only in a step where
  ``joints_open`` finds a gap to take): a joint whose point gap is still over PROJECT_GAP
  (World.project_gap) at the step's end has its two bodies moved (positions and rotations, not
  velocities: no energy is added) along the gap by their inverse masses and inertias,
  K P = -C', leaving PROJECT_TO of it for the next step's bias pass; then every contact
  point of the step (the manifolds the solver used, their separation taken as the contact solver
  takes it) that this pushed below its floor, its separation before the projection or 0 where it
  was apart, is pushed back out to it along its normal through its normal mass, one-sided (never
  pulled together); sweeps of both, joints then contacts, in slot order (serial: the same bits on
  any thread count), until no joint is open past PROJECT_GAP or PROJECT_SWEEPS are done. Only
  awake dynamic bodies in the world move. The gaps it takes are the ones a figure landing hard
  opens in one step (a LIMP box man flung by 600 N·s at a thigh, landing 0.4 s later: 3.26 cm at
  the right shoulder, the contact's stop outrunning the one joint pass a sub-step), which the
  velocity rows close only over the next steps. Jolt's position steps (joints and contacts in one
  Gauss-Seidel loop on positions) and PhysX's joint projection do the same. Counted with the push
  nets on the joint's body B (B_NETS + NET_PUSH).
  A body the ground holds is not pushed into it (session 12): a joint's correction, split by the
  masses, that takes one of its bodies (only) under its floors against what the projection does not
  move (its contact points with the ground or a static, kinematic or asleep body, and the ground
  planes; _held_depth) by over PROJECT_HELD is undone and made by the other body alone; where both
  would go under, both move as before. What it was: the LIMP landings that kept gaps of 2.0-3.8 cm
  at a step's end (bench/tear.py's grid watched 1.5 s: 20 box man and 24 reference trials not back
  under 2 cm; tests/physics/test_unbreakable.py's landing trials) were, 40 of the 42 traced, a
  chest (the box man's 14.6 kg) coming down on an upper arm (2.1 kg) the ground already held (the
  arm on it or up to 2.1 cm into it, the chest 1.7-7.2 cm over it at their worst), the other 2 an
  elbow whose upper arm the ground held; the solver left the shoulder 3.8-6.5 cm open at the step's
  end (the 4 traced step by step). Split by the masses, each correction moved the arm most of the
  way, into the ground; the contacts' pass put it back, and a sweep closed 0.1-0.3 cm (a box man
  struck at spine_03 with 300 N·s: 4.22 cm, then 4.01, 3.84, 3.68 ... 2.62 after 16 sweeps, 2.70
  once the last contacts' pass had run). The gap was measured as the projection measures it
  (joint_gap: the same frames), the projection ran in every such step, and nothing after it in the
  step moves a dynamic body. With the rule the chest rises to the arm: those trials close in 3
  sweeps to 1.50 cm, and over the 44 landing trials of tests/physics/test_unbreakable.py the
  projection makes 559 corrections where it made 1,868, in less time (box man 1.2 ms against 3.1,
  reference 1.2 against 3.2). PROJECT_ANY_SIDE (a step_flags bit) turns it off.
Order inside a joint (the last solved wins): friction, spring, motor, limits, lock, point.
"""

import math

import numpy as np
from numba import njit

from ._kernels_contact import _rot_delta
from ._layout import (
    B_AWAKE,
    B_DIMS,
    B_INV_I,
    B_INV_MASS,
    B_IW,
    B_KIND,
    B_MASS,
    B_NETS,
    B_PARKED,
    B_POS,
    B_POS0,
    B_QUAT,
    B_SHAPE,
    B_V,
    B_W,
    DRIVE_AIM,
    DRIVE_POSE,
    J_AIM,
    J_AX_S,
    J_AX_T,
    J_BODY_A,
    J_BODY_B,
    J_DEADBAND,
    J_DRIVE,
    J_DRIVE_MAX_W,
    J_DRIVE_TIME,
    J_FEED,
    J_FLAGS,
    J_FRICTION,
    J_H,
    J_HZ,
    J_KIND,
    J_KINV,
    J_L_FRIC,
    J_L_LOCK,
    J_L_MOTOR,
    J_L_POINT,
    J_L_SPRING,
    J_L_SWING,
    J_L_THI,
    J_L_TLO,
    J_MOTOR_MAX,
    J_MOTOR_W,
    J_PA,
    J_PB,
    J_PY,
    J_PZ,
    J_QA,
    J_QB,
    J_RMASS,
    J_SIN_Y,
    J_SIN_Z,
    J_SOFT,
    J_SPRING_HZ,
    J_SPRING_MAX,
    J_SPRING_ZETA,
    J_SSOFT,
    J_SWING_Y,
    J_SWING_Z,
    J_TARGET,
    J_TARGET_ANGLE,
    J_TARGET_PREV,
    J_TWIST_HI,
    J_TWIST_LO,
    J_WT,
    J_ZETA,
    JFLAG_LIMITS,
    JOINT_BALL,
    JOINT_FREE,
    JOINT_HINGE,
    KIND_DYNAMIC,
    KIND_FREE,
    M_A,
    M_B,
    M_N,
    M_NORMAL,
    M_P,
    NET_PUSH,
    P_RA,
    P_RB,
    P_SEP,
    P_STRIDE,
    SHAPE_BOX,
    SHAPE_CYLINDER,
    SHAPE_PLANE,
    SHAPE_SPHERE,
    SI_TOUCH,
)
from ._math import cross as _cross
from ._math import dot as _dot
from ._math import length as _len
from ._math import qconj, qintegrate, qmul

LIMIT_HZ_SHARE = 0.25  # limits' Hz when violated, as a share of the sub-step rate
LIMIT_ZETA = 1.0
# > 0: a violated limit is rigid instead (full mass, no impulse scale) and takes out this share of
# its error in a sub-step (Baumgarte-like, without momentum: the relax pass removes the push)
LIMIT_BETA = 0.8
# A powered figure standing untouched (#579, tests/test_motion_rest.py) rang at 8 sub-steps: its
# legs swayed with the pelvis held upright (0.15 rad/s on average, 1.1 at most). Taking the
# drive's target every sub-step and a second joint pass in the bias pass quietened the bare
# ragdoll (0.003) but not a box man on its Idle (0.45): the rows that hold the pelvis saw its own
# small inertia. With the pelvis's inertia raised (human.PELVIS_INERTIA_SCALE) neither is needed:
# the target taken once a step, as the spec says ("before each step"), and one pass: the bare
# figure 0.0007 rad/s, the box man on Idle 0.021, the shoved back within 0.055 deg, a limp
# ragdoll's limits within 1.27 deg under blows (limit 3); and the joints cost a third less.
# Safety nets (issue 18; see the module docstring's "Nets"): the fastest a joint's bias pass
# pushes its error out, m/s for the point, rad/s for a limit past its edge. Box2D v3 caps a
# contact's push-out (contactSpeed, 3 m/s); PhysX a body's (maxDepenetrationVelocity). Each
# time one holds a push it is counted on the joint's child body (B_NETS + NET_PUSH).
JOINT_PUSH_MAX = 10.0
LIMIT_PUSH_MAX = 20.0
# Passes (issue 18): the bias pass is one Gauss-Seidel pass; when it met a point moving apart
# faster than CONVERGED m/s (a gap opening CONVERGED * h a sub-step: 2 mm at 8 sub-steps of
# 1/60 s), up to EXTRA_PASSES more passes of the point rows alone follow, each solving only the
# rows still moving apart faster than that, alternately leaves-to-root and root-to-leaves, until
# one solves none. A blow far past what one pass carries down a chain (5,000 N·s on a 1.5 kg
# forearm is 3,300 m/s against a 78 kg figure) otherwise leaves most of it in the struck bone,
# whose speed the nets then cut alone, tearing the joint. A calm figure's rows are left exactly
# as they are: the same bits on any thread count and however the world is split into islands.
# MEASURED AND OFF: at 16 passes a 150 N·s blow on a LIMP box man's forearm tore in 2 of 12
# directions as without them, but worse (gaps 2.1 and 3.2 m the step of the blow against 1.3
# and 3.8 cm, bodies at 240-400 m/s against 6-35): the point rows, solved alone, undo what the
# hinge's lock and limit rows hold, and those push back. Kept for the next look (issue 18).
CONVERGED = 1.0
EXTRA_PASSES = 0
# Projection (see the module docstring): a gap over PROJECT_GAP m at the step's end is taken down
# to PROJECT_TO m by moving the two bodies, the contacts this drives deeper pushed back, at most
# PROJECT_SWEEPS sweeps. A calm figure's gaps are millimetres (a POWERED box man on the ground:
# 0.6 cm at the most under blows), so it only measures them (0.4-0.5 µs a figure a step) and acts
# after hard blows and landings.
# Session 8, joints alone at 4 sweeps: every gap of tests/physics/test_unbreakable.py held to
# 1.37 cm (was 3.26 box man, 2.53 reference), the busy scene's to 1.00 cm (was 5.37), but the box
# man LIMP struck at thigh_l with 600 N·s sank 3.33 cm into the ground (limit 3; 1.28 without):
# the projection pulled bodies through the ground, with or without PROJECT_TOUCH_RULE (of a body
# touching something and one touching nothing only the second moves; off, not needed).
# Session 9, with the contacts (PROJECT_CONTACTS): at 4 sweeps the depth stays 1.28 cm but that
# shoulder 2.01 cm (a light arm held up by the ground and pulled by a heavy chest closes about an
# eighth of the gap a sweep); at 16, every gap there 1.00 cm (box man and reference), the depth
# 1.28 and 0.55 cm as without the projection, the busy scene's gaps 1.00 cm, tests/physics
# passing, but tests/test_falls_sweep.py's box man (200 protected falls, 300-600 N·s) sank a
# capsule 3.34 cm into the ground (limit 3): MEASURED AND OFF (PROJECT_SWEEPS 0: the step is
# main's, bit for bit).
# Session 9, later: the ground planes made a floor for every body in the projection
# (PROJECT_PLANES, _project_planes: no body's lowest point left deeper than before it, lifted
# along the normal) changed nothing there (3.336 cm, fall 35: 489 N·s at the pelvis, 133°). The
# projection does not sink it: traced step by step, it acted on that figure once, at 0.467 s (its
# body 5 moved), and the calf_r went 3.34 cm into the ground at 0.867 s in a step where the
# projection did not act: the solver's own landing, on a trajectory the earlier correction
# changed (main's, without it, lands that figure within 3 cm; the same fall alone in a world
# sinks 0.19 cm with the projection on). So the limit needs the contacts' own landing (a calf
# arriving fast), not the projection: the next look. Kept off.
# PROJECT_CONTACT_SLOP: how far (m) below its floor a point may be pushed before it is pushed back.
# Session 11: on (16 sweeps), with the ground's reach (_kernels_broadphase SF_REACH) landing that
# calf (fall 35: 0.0 cm deep). PROJECT_GAP and PROJECT_SWEEPS are the World's defaults
# (World.project_gap, World.project_sweeps, passed in the step's fp/ip), PROJECT_TOUCH a bit of
# its step_flags. At a 1 cm gap it also took the 1.1-1.24 cm a box man's hands open catching a
# fall (the velocity rows close those within a step: 0.9 cm the next), which turned the writhe
# sweep's box man w20_500 (tests/test_writhe.py) from lying down on its hands and knees to
# standing up again (101 cm of drift, no writhe); at 1.5 cm the box man's sweep is main's to the
# bit while every gap the landings open past it (the Mixamo man's shoulder 3.1 cm as it lands
# on its arm) is taken: 1.5 cm, under the 2 cm that tests/physics/test_unbreakable.py holds.
PROJECT_GAP = 0.015
PROJECT_TO = 0.005
PROJECT_SWEEPS = 16
PROJECT_CONTACTS = True
PROJECT_PLANES = True  # the ground as a floor for every body (a capsule end past the margin)
PROJECT_TOUCH = 4  # step_flags bit: of a body touching something and one touching nothing, only
#                    the second moves (was PROJECT_TOUCH_RULE, off)
PROJECT_CONTACT_SLOP = 0.0
# Session 12 (see the module docstring's "Projection"): a joint correction that would drive one of
# its bodies under its floor against what cannot move (the ground, a static or sleeping body) by
# more than PROJECT_HELD m is taken by the other body alone. PROJECT_ANY_SIDE, a step_flags bit,
# turns that off (the two split by their masses whatever holds them: session 11's projection).
# Measured: every gap of the landing grid (bench/tear.py --watch 1.5, LIMP on the ground, box man
# and reference, 2 x 1,008 trials) 1.50 cm at the most from 0.1 s on (with PROJECT_ANY_SIDE on
# this tree 2.72 / 3.80 cm, 18 / 24 trials over 2 cm; session 11's audit counted 20 / 24), the
# projection's corrections and the push nets 5,730 / 2,894 times (7,938 / 6,410);
# tests/test_writhe.py's Mixamo sweep: w23_500 16.8 cm (17.5), w9_500 12.9
# (9.4): the projection acts there in 2-3 steps before the drift is read (no gap past 1.45 cm
# after it), and the writhe's roll goes elsewhere from the millimetres it moves them.
PROJECT_HELD = 0.001
PROJECT_ANY_SIDE = 8
DRIVE_EVERY_SUBSTEP = False  # True: the pose drive's target taken again each sub-step
BIAS_ITERATIONS = 1  # joint passes in the bias pass of each sub-step

# ============================================================== small math (tuples, no allocation)


# _dot, _cross, _len, qmul and qconj are the shared ones (ae3d/_math.py, the same arithmetic);
# qrot stays here: its sums are grouped otherwise, and the solver's bits depend on it.


@njit(cache=True, _nrt=False, inline="always")
def qrot(q, v):
    """Rotate vector v by unit quaternion q."""
    # t = 2 q.v x v ; v' = v + w t + q.v x t
    tx = 2.0 * (q[1] * v[2] - q[2] * v[1])
    ty = 2.0 * (q[2] * v[0] - q[0] * v[2])
    tz = 2.0 * (q[0] * v[1] - q[1] * v[0])
    return (
        v[0] + q[3] * tx + q[1] * tz - q[2] * ty,
        v[1] + q[3] * ty + q[2] * tx - q[0] * tz,
        v[2] + q[3] * tz + q[0] * ty - q[1] * tx,
    )


@njit(cache=True, _nrt=False, inline="always")
def qpos(q):
    """The same rotation with w >= 0."""
    if q[3] < 0.0:
        return (-q[0], -q[1], -q[2], -q[3])
    return q


@njit(cache=True, _nrt=False, inline="always")
def rotvec(q):
    """Rotation vector (axis * angle, rad) of unit quaternion q, angle in [0, pi]."""
    if q[3] < 0.0:
        q = (-q[0], -q[1], -q[2], -q[3])
    s = math.sqrt(q[0] * q[0] + q[1] * q[1] + q[2] * q[2])
    if s < 1e-12:
        return (2.0 * q[0], 2.0 * q[1], 2.0 * q[2])
    ang = 2.0 * math.atan2(s, q[3])
    k = ang / s
    return (q[0] * k, q[1] * k, q[2] * k)


@njit(cache=True, _nrt=False)
def quat_from_rotvec(r):
    ang = _len(r)
    if ang < 1e-12:
        return (0.5 * r[0], 0.5 * r[1], 0.5 * r[2], 1.0)
    s = math.sin(0.5 * ang) / ang
    return (r[0] * s, r[1] * s, r[2] * s, math.cos(0.5 * ang))


@njit(cache=True, _nrt=False, inline="always")
def mv(m, v):
    """3x3 (9-tuple row-major) times vector."""
    return (
        m[0] * v[0] + m[1] * v[1] + m[2] * v[2],
        m[3] * v[0] + m[4] * v[1] + m[5] * v[2],
        m[6] * v[0] + m[7] * v[1] + m[8] * v[2],
    )


@njit(cache=True, _nrt=False, inline="always")
def inv3(m):
    """Inverse of a 3x3 (9-tuple); zeros when singular."""
    c00 = m[4] * m[8] - m[5] * m[7]
    c01 = m[5] * m[6] - m[3] * m[8]
    c02 = m[3] * m[7] - m[4] * m[6]
    det = m[0] * c00 + m[1] * c01 + m[2] * c02
    if det == 0.0 or not math.isfinite(det):
        return (0.0, 0.0, 0.0, 0.0, 0.0, 0.0, 0.0, 0.0, 0.0)
    d = 1.0 / det
    return (
        c00 * d, (m[2] * m[7] - m[1] * m[8]) * d, (m[1] * m[5] - m[2] * m[4]) * d,
        c01 * d, (m[0] * m[8] - m[2] * m[6]) * d, (m[2] * m[3] - m[0] * m[5]) * d,
        c02 * d, (m[1] * m[6] - m[0] * m[7]) * d, (m[0] * m[4] - m[1] * m[3]) * d,
    )


@njit(cache=True, _nrt=False, inline="always")
def solve3(m, b):
    """Solve m x = b for a 3x3 (Cramer's rule); zeros when singular."""
    c00 = m[4] * m[8] - m[5] * m[7]
    c01 = m[5] * m[6] - m[3] * m[8]
    c02 = m[3] * m[7] - m[4] * m[6]
    det = m[0] * c00 + m[1] * c01 + m[2] * c02
    if det == 0.0:
        return (0.0, 0.0, 0.0)
    d = 1.0 / det
    x = (b[0] * c00 + b[1] * (m[2] * m[7] - m[1] * m[8]) + b[2] * (m[1] * m[5] - m[2] * m[4])) * d
    y = (b[0] * c01 + b[1] * (m[0] * m[8] - m[2] * m[6]) + b[2] * (m[2] * m[3] - m[0] * m[5])) * d
    z = (b[0] * c02 + b[1] * (m[1] * m[6] - m[0] * m[7]) + b[2] * (m[0] * m[4] - m[1] * m[3])) * d
    return (x, y, z)


@njit(cache=True, _nrt=False, inline="always")
def point_mass(ma, ia, ra, mb, ib, rb):
    """K = (ma + mb) I - [ra] IA [ra] - [rb] IB [rb] (9-tuple), IA/IB world inverse inertias."""
    out = _sandwich(ia, ra)
    out2 = _sandwich(ib, rb)
    m = ma + mb
    return (
        m - out[0] - out2[0], -out[1] - out2[1], -out[2] - out2[2],
        -out[3] - out2[3], m - out[4] - out2[4], -out[5] - out2[5],
        -out[6] - out2[6], -out[7] - out2[7], m - out[8] - out2[8],
    )


@njit(cache=True, _nrt=False, inline="always")
def _sandwich(i, r):
    """[r]x I [r]x (9-tuple) for a 9-tuple I."""
    x, y, z = r[0], r[1], r[2]
    # C = [r]x = [[0,-z,y],[z,0,-x],[-y,x,0]]; T = I C
    t00 = i[1] * z - i[2] * y
    t01 = -i[0] * z + i[2] * x
    t02 = i[0] * y - i[1] * x
    t10 = i[4] * z - i[5] * y
    t11 = -i[3] * z + i[5] * x
    t12 = i[3] * y - i[4] * x
    t20 = i[7] * z - i[8] * y
    t21 = -i[6] * z + i[8] * x
    t22 = i[6] * y - i[7] * x
    # C T
    return (
        -z * t10 + y * t20, -z * t11 + y * t21, -z * t12 + y * t22,
        z * t00 - x * t20, z * t01 - x * t21, z * t02 - x * t22,
        -y * t00 + x * t10, -y * t01 + x * t11, -y * t02 + x * t12,
    )


@njit(cache=True, _nrt=False, inline="always")
def make_soft(hertz, zeta, h):
    """(bias rate 1/s, mass scale, impulse scale) of a soft constraint on sub-step h."""
    if hertz <= 0.0:
        return 0.0, 0.0, 0.0
    omega = 2.0 * math.pi * hertz
    a1 = 2.0 * zeta + h * omega
    a2 = h * omega * a1
    a3 = 1.0 / (1.0 + a2)
    return omega / a1, a2 * a3, a3


# ============================================================== swing-twist (pure functions)


@njit(cache=True, _nrt=False, inline="always")
def swing_twist(q):
    """Split unit quaternion q (taken with w >= 0) into swing * twist, twist about x.

    Returns (sy, sz, sw, twist_angle): the swing quaternion (0, sy, sz, sw) and the twist angle
    (rad, in (-pi, pi]).
    """
    if q[3] < 0.0:
        q = (-q[0], -q[1], -q[2], -q[3])
    x, y, z, w = q
    s = math.sqrt(w * w + x * x)
    if s < 1e-12:
        # a half-turn swing: twist undefined, take none
        return y, z, 0.0, 0.0
    inv = 1.0 / s
    sy = (w * y - x * z) * inv
    sz = (w * z + x * y) * inv
    return sy, sz, s, 2.0 * math.atan2(x, w)


@njit(cache=True, _nrt=False, inline="always")
def cone_limit(sy, sz, half_y, half_z):
    """Swing angle (rad) of swing (0, sy, sz, sw>=0) and the cone's radial limit in its direction.

    The cone is an ellipse in quaternion space: (sy/sin(half_y/2))^2 + (sz/sin(half_z/2))^2 <= 1,
    half_y the half-angle of a swing about the frame's y axis, half_z about z.
    """
    r = math.sqrt(sy * sy + sz * sz)
    ang = 2.0 * math.asin(min(r, 1.0))
    a = math.sin(0.5 * min(half_y, math.pi))
    b = math.sin(0.5 * min(half_z, math.pi))
    if r < 1e-12:
        return ang, min(half_y, half_z)
    cy = sy / r
    cz = sz / r
    d = (cy / a) ** 2 + (cz / b) ** 2
    sl = 1.0 / math.sqrt(d)
    if sl >= 1.0:
        return ang, math.pi
    return ang, 2.0 * math.asin(sl)


@njit(cache=True, _nrt=False)
def clamp_swing_twist(q, half_y, half_z, tlo, thi):
    """Rotation q brought within the cone (radially, about its centre x) and the twist limits."""
    sy, sz, sw, tw = swing_twist(q)
    ang, lim = cone_limit(sy, sz, half_y, half_z)
    if ang > lim:
        r = math.sqrt(sy * sy + sz * sz)
        k = math.sin(0.5 * lim) / r
        sy *= k
        sz *= k
        sw = math.cos(0.5 * lim)
    tw = min(max(tw, tlo), thi)
    t = (math.sin(0.5 * tw), 0.0, 0.0, math.cos(0.5 * tw))
    return qmul((0.0, sy, sz, sw), t)


@njit(cache=True, _nrt=False)
def hinge_angle(q):
    """Angle (rad) of a rotation about x (its twist), in (-pi, pi]."""
    if q[3] < 0.0:
        q = (-q[0], -q[1], -q[2], -q[3])
    return 2.0 * math.atan2(q[0], q[3])


@njit(cache=True, _nrt=False)
def joint_error(qa, fa, qb, fb, ptype, half_y, half_z, tlo, thi):
    """How far (rad) a joint is past its limits: (twist or hinge past, swing past, lock angle)."""
    rel = qpos(qmul(qconj(qmul(qa, fa)), qmul(qb, fb)))
    if ptype == JOINT_HINGE:
        ang = hinge_angle(rel)
        past = max(tlo - ang, ang - thi, 0.0)
        lock = 2.0 * math.asin(min(1.0, math.sqrt(rel[1] * rel[1] + rel[2] * rel[2])))
        return past, 0.0, lock
    sy, sz, sw, tw = swing_twist(rel)
    ang, lim = cone_limit(sy, sz, half_y, half_z)
    return max(tlo - tw, tw - thi, 0.0), max(ang - lim, 0.0), 0.0


# ============================================================== body access


@njit(cache=True, _nrt=False, inline="always")
def _body_pose(bf, b):
    if b < 0:
        return (0.0, 0.0, 0.0), (0.0, 0.0, 0.0, 1.0)
    return (bf[b, B_POS], bf[b, B_POS + 1], bf[b, B_POS + 2]), (
        bf[b, B_QUAT], bf[b, B_QUAT + 1], bf[b, B_QUAT + 2], bf[b, B_QUAT + 3])


@njit(cache=True, _nrt=False, inline="always")
def _inv_i(bf, b):
    if b < 0:
        return (0.0, 0.0, 0.0, 0.0, 0.0, 0.0, 0.0, 0.0, 0.0)
    o = B_IW
    return (bf[b, o], bf[b, o + 1], bf[b, o + 2], bf[b, o + 3], bf[b, o + 4], bf[b, o + 5],
            bf[b, o + 6], bf[b, o + 7], bf[b, o + 8])


@njit(cache=True, _nrt=False, inline="always")
def _inv_m(bf, b):
    if b < 0:
        return 0.0
    return bf[b, B_INV_MASS]


@njit(cache=True, _nrt=False, inline="always")
def _vel(bf, b):
    if b < 0:
        return (0.0, 0.0, 0.0), (0.0, 0.0, 0.0)
    return ((bf[b, B_V], bf[b, B_V + 1], bf[b, B_V + 2]),
            (bf[b, B_W], bf[b, B_W + 1], bf[b, B_W + 2]))


@njit(cache=True, _nrt=False, inline="always")
def _add_w(bf, b, ii, L, sign):
    """w += sign * I^-1 L."""
    if b < 0:
        return
    d = mv(ii, L)
    bf[b, B_W] += sign * d[0]
    bf[b, B_W + 1] += sign * d[1]
    bf[b, B_W + 2] += sign * d[2]


@njit(cache=True, _nrt=False, inline="always")
def _active(bf, bi, a, b):
    """A joint is solved unless a body is parked, or neither body is awake."""
    aw = False
    if a >= 0:
        if bi[a, B_PARKED] != 0:
            return False
        if bi[a, B_AWAKE] != 0:
            aw = True
    if b >= 0:
        if bi[b, B_PARKED] != 0:
            return False
        if bi[b, B_AWAKE] != 0:
            aw = True
    return aw


@njit(cache=True, _nrt=False, inline="always")
def _joint_bodies(ji, j):
    """(kind, body A, body B) of joint slot j (a body -1 is the world)."""
    return ji[j, J_KIND], ji[j, J_BODY_A], ji[j, J_BODY_B]


@njit(cache=True, _nrt=False, inline="always")
def _frames(bf, jf, j, a, b):
    """World joint frames FA, FB and lever arms rA, rB (world, from each centre of mass)."""
    pa, qa = _body_pose(bf, a)
    pb, qb = _body_pose(bf, b)
    fa = qmul(qa, (jf[j, J_QA], jf[j, J_QA + 1], jf[j, J_QA + 2], jf[j, J_QA + 3]))
    fb = qmul(qb, (jf[j, J_QB], jf[j, J_QB + 1], jf[j, J_QB + 2], jf[j, J_QB + 3]))
    ra = qrot(qa, (jf[j, J_PA], jf[j, J_PA + 1], jf[j, J_PA + 2]))
    rb = qrot(qb, (jf[j, J_PB], jf[j, J_PB + 1], jf[j, J_PB + 2]))
    return pa, qa, pb, qb, fa, fb, ra, rb


# ============================================================== prepare

# the bias passes' scratch (solve_joints): per joint, values that depend only on the poses
G_RA = 0     # 0..2 lever arm on A (world)
G_RB = 3     # 3..5 lever arm on B
G_C = 6      # 6..8 the point's error
G_FA = 9     # ball: 9..12 frame A (world)
G_FB = 13    # ball: 13..16 frame B
G_SY = 17    # ball: swing (sy, sz, sw)
G_JN = 20    # ball: the twist rate's bound per unit relative angular speed
G_F = 21     # ball: the cone's ellipse value of the swing
G_CQ = 22    # ball: the angle left to the cone's edge, bound (0 < f < 1)
G_TA = 23    # ball: twist estimate
G_TW = 24    # ball: twist angle (when G_TWOK)
G_TWOK = 25  # ball: 1.0 when G_TW holds it
G_AX = 9     # hinge: 9..11 axis (world)
G_ANG = 12   # hinge: angle
G_KM = 13    # hinge: axial effective mass
G_PY = 14    # hinge: 14..16 lock row y
G_PZ = 17    # hinge: 17..19 lock row z
G_K = 20     # hinge: 20..22 lock mass (k11, k12, k22)
G_REL = 23   # hinge: 23..24 (rel.y, rel.z)
G_COUNT = 26


@njit(cache=True, _nrt=False, inline="always")
def _hinge_drive_speed(jf, j, fa, qt, fqb, axis, cur):
    """A hinge drive's target relative angular velocity (world, rad/s): toward the angle body B
    would have at world rotation ``qt``, from ``cur`` (rad), closing the gap in J_DRIVE_TIME and
    no faster than J_DRIVE_MAX_W, about ``axis`` (world)."""
    tt = jf[j, J_DRIVE_TIME]
    tgt = hinge_angle(qmul(qconj(fa), qmul(qt, fqb)))
    e = tgt - cur
    if e > math.pi:
        e -= 2.0 * math.pi
    elif e < -math.pi:
        e += 2.0 * math.pi
    if abs(e) > jf[j, J_DEADBAND] and tt > 0.0:
        sp = e / tt
        cap = jf[j, J_DRIVE_MAX_W]
        sp = min(max(sp, -cap), cap)
        return (axis[0] * sp, axis[1] * sp, axis[2] * sp)
    return (0.0, 0.0, 0.0)


@njit(cache=True, _nrt=False, inline="always")
def _drive_wt(jf, ji, j, kind, qa, qb):
    """The motor's target relative angular velocity (world, rad/s) from the bodies' current
    rotations: a pose or aim drive closes the gap in J_DRIVE_TIME, capped at J_DRIVE_MAX_W; any
    other motor runs at its J_MOTOR_W (frame A). Taken again every sub-step (see _solve_pass)."""
    tq = (jf[j, J_TARGET], jf[j, J_TARGET + 1], jf[j, J_TARGET + 2], jf[j, J_TARGET + 3])
    return _drive_wt_to(jf, ji, j, kind, qa, qb, tq)


@njit(cache=True, _nrt=False, inline="always")
def _drive_wt_fed(jf, ji, j, kind, qa, qb, dt):
    """``_drive_wt`` at the step's start with the pose drive's feed-forward (J_FEED): a target
    that turned since the last step (J_TARGET_PREV -> J_TARGET, the clip's own turning, about
    frame A) is followed at that rate, and the gap is closed toward where the target was as this
    step starts (J_TARGET_PREV), so that a body on its moving target stays on it: it turns with
    the target over the step and ends it on J_TARGET. Without it the servo trails a target turning
    at w by about twice w times the step (its gap taken once a step, a third of it closed in a
    step at the 50 ms drive): the part-powered head 0.066 cm behind Idle's sway (#658).
    A target that did not move (the same bits), a turn faster than J_DRIVE_MAX_W (a jump: a mode
    change, a key snapped to) or a joint not fed: exactly ``_drive_wt``. dt: the step (s)."""
    tq = (jf[j, J_TARGET], jf[j, J_TARGET + 1], jf[j, J_TARGET + 2], jf[j, J_TARGET + 3])
    if not (jf[j, J_FEED] > 0.0) or ji[j, J_DRIVE] != DRIVE_POSE or not (dt > 0.0):
        return _drive_wt_to(jf, ji, j, kind, qa, qb, tq)
    tp = (jf[j, J_TARGET_PREV], jf[j, J_TARGET_PREV + 1], jf[j, J_TARGET_PREV + 2],
          jf[j, J_TARGET_PREV + 3])
    if tp[0] == tq[0] and tp[1] == tq[1] and tp[2] == tq[2] and tp[3] == tq[3]:
        return _drive_wt_to(jf, ji, j, kind, qa, qb, tq)
    n2 = tp[0] * tp[0] + tp[1] * tp[1] + tp[2] * tp[2] + tp[3] * tp[3]
    if not (n2 > 0.5):   # never set (a new slot): nothing to feed forward
        return _drive_wt_to(jf, ji, j, kind, qa, qb, tq)
    d = rotvec(qmul(tq, qconj(tp)))     # the target's turn over the last step, frame A
    k = 1.0 / dt
    if _len(d) * k > jf[j, J_DRIVE_MAX_W]:
        return _drive_wt_to(jf, ji, j, kind, qa, qb, tq)
    ff = qrot(qa, (d[0] * k, d[1] * k, d[2] * k))
    wt = _drive_wt_to(jf, ji, j, kind, qa, qb, tp)
    if kind == JOINT_HINGE:
        axis = qrot(qmul(qa, (jf[j, J_QA], jf[j, J_QA + 1], jf[j, J_QA + 2], jf[j, J_QA + 3])),
                    (1.0, 0.0, 0.0))
        c = _dot(axis, ff)
        ff = (axis[0] * c, axis[1] * c, axis[2] * c)
    return (wt[0] + ff[0], wt[1] + ff[1], wt[2] + ff[2])


@njit(cache=True, _nrt=False, inline="always")
def _drive_wt_to(jf, ji, j, kind, qa, qb, tq):
    """``_drive_wt`` toward the body-relative target ``tq`` (a pose drive's)."""
    fqa = (jf[j, J_QA], jf[j, J_QA + 1], jf[j, J_QA + 2], jf[j, J_QA + 3])
    fqb = (jf[j, J_QB], jf[j, J_QB + 1], jf[j, J_QB + 2], jf[j, J_QB + 3])
    drive = ji[j, J_DRIVE]
    if drive == DRIVE_POSE or drive == DRIVE_AIM:
        if drive == DRIVE_AIM:
            qt = (jf[j, J_AIM], jf[j, J_AIM + 1], jf[j, J_AIM + 2], jf[j, J_AIM + 3])
        else:
            qt = qmul(qa, tq)
        wt = (0.0, 0.0, 0.0)
        tt = jf[j, J_DRIVE_TIME]
        if kind == JOINT_HINGE:
            fa = qmul(qa, fqa)
            axis = qrot(fa, (1.0, 0.0, 0.0))
            cur = hinge_angle(qmul(qconj(fa), qmul(qb, fqb)))
            wt = _hinge_drive_speed(jf, j, fa, qt, fqb, axis, cur)
        else:
            e = rotvec(qmul(qt, qconj(qb)))
            el = _len(e)
            if el > jf[j, J_DEADBAND] and tt > 0.0:
                k = 1.0 / tt
                cap = jf[j, J_DRIVE_MAX_W]
                if el * k > cap:
                    k = cap / el
                wt = (e[0] * k, e[1] * k, e[2] * k)
    else:
        wt = qrot(qa, (jf[j, J_MOTOR_W], jf[j, J_MOTOR_W + 1], jf[j, J_MOTOR_W + 2]))
        if kind == JOINT_HINGE:
            axis = qrot(qmul(qa, fqa), (1.0, 0.0, 0.0))
            d = _dot(axis, wt)
            wt = (axis[0] * d, axis[1] * d, axis[2] * d)
    return wt


@njit(cache=True, _nrt=False, inline="always")
def _drive_wt_hinge_pose(jf, j, qa, fa, axis, cur):
    """``_drive_wt`` of a hinge's pose drive, given its frame A (world), axis and current angle
    as ``_solve_pass`` has them (the same arithmetic, so the same bits)."""
    tq = (jf[j, J_TARGET], jf[j, J_TARGET + 1], jf[j, J_TARGET + 2], jf[j, J_TARGET + 3])
    fqb = (jf[j, J_QB], jf[j, J_QB + 1], jf[j, J_QB + 2], jf[j, J_QB + 3])
    return _hinge_drive_speed(jf, j, fa, qmul(qa, tq), fqb, axis, cur)


@njit(cache=True, _nrt=False)
def prepare_joints(bf, bi, jf, ji, lj, h, dt):
    """Once per step (dt s, of sub-steps h): softness and the motor's target velocity (world),
    with the pose drive's feed-forward (``_drive_wt_fed``); the rotational mass as the step
    begins (the solve takes it again from each sub-step's pose). lj: the joint slots in use on
    no parked body, ascending. Every joint's J_TARGET is kept as J_TARGET_PREV for the next."""
    for t in range(lj.shape[0]):
        j = lj[t]
        kind, a, b = _joint_bodies(ji, j)
        if kind == JOINT_FREE:
            continue
        if not _active(bf, bi, a, b):
            for c in range(4):
                jf[j, J_TARGET_PREV + c] = jf[j, J_TARGET + c]
            continue
        jf[j, J_H] = h
        jf[j, J_SIN_Y] = math.sin(0.5 * min(jf[j, J_SWING_Y], math.pi))
        jf[j, J_SIN_Z] = math.sin(0.5 * min(jf[j, J_SWING_Z], math.pi))
        ia = _inv_i(bf, a)
        ib = _inv_i(bf, b)
        s = (ia[0] + ib[0], ia[1] + ib[1], ia[2] + ib[2], ia[3] + ib[3], ia[4] + ib[4],
             ia[5] + ib[5], ia[6] + ib[6], ia[7] + ib[7], ia[8] + ib[8])
        m = inv3(s)
        for k in range(9):
            jf[j, J_RMASS + k] = m[k]
        # (the point's K^-1 is taken in the solve from the current lever arms: see the
        # module docstring's "Point")
        hz = min(jf[j, J_HZ], 0.25 / h)
        sb, sm, si = make_soft(hz, jf[j, J_ZETA], h)
        jf[j, J_SOFT] = sb
        jf[j, J_SOFT + 1] = sm
        jf[j, J_SOFT + 2] = si
        sb, sm, si = make_soft(jf[j, J_SPRING_HZ], jf[j, J_SPRING_ZETA], h)
        jf[j, J_SSOFT] = sb
        jf[j, J_SSOFT + 1] = sm
        jf[j, J_SSOFT + 2] = si

        pa, qa = _body_pose(bf, a)
        pb, qb = _body_pose(bf, b)
        tq = (jf[j, J_TARGET], jf[j, J_TARGET + 1], jf[j, J_TARGET + 2], jf[j, J_TARGET + 3])
        fqa = (jf[j, J_QA], jf[j, J_QA + 1], jf[j, J_QA + 2], jf[j, J_QA + 3])
        fqb = (jf[j, J_QB], jf[j, J_QB + 1], jf[j, J_QB + 2], jf[j, J_QB + 3])
        if kind == JOINT_HINGE:
            jf[j, J_TARGET_ANGLE] = hinge_angle(qmul(qconj(fqa), qmul(tq, fqb)))
        # (DRIVE_EVERY_SUBSTEP: the first bias pass of every sub-step takes it again before the
        # motor reads it, without the feed-forward)
        if not (DRIVE_EVERY_SUBSTEP and jf[j, J_MOTOR_MAX] > 0.0):
            wt = _drive_wt_fed(jf, ji, j, kind, qa, qb, dt)
            jf[j, J_WT] = wt[0]
            jf[j, J_WT + 1] = wt[1]
            jf[j, J_WT + 2] = wt[2]
        for c in range(4):
            jf[j, J_TARGET_PREV + c] = jf[j, J_TARGET + c]


# ============================================================== warm start


@njit(cache=True, _nrt=False)
def warm_start_joints(bf, bi, jf, ji, jl, g, g_ready):
    """Apply the accumulated impulses of the last sub-step (the axes it used then) of the joints
    whose slots jl lists, in that order. g_ready: g (see solve_joints) holds the lever arms of
    the current poses."""
    for t in range(jl.shape[0]):
        j = jl[t]
        kind, a, b = _joint_bodies(ji, j)
        if kind == JOINT_FREE or not _active(bf, bi, a, b):
            continue
        if g_ready:
            ra = (g[j, G_RA], g[j, G_RA + 1], g[j, G_RA + 2])
            rb = (g[j, G_RB], g[j, G_RB + 1], g[j, G_RB + 2])
        else:
            pa, qa = _body_pose(bf, a)
            pb, qb = _body_pose(bf, b)
            ra = qrot(qa, (jf[j, J_PA], jf[j, J_PA + 1], jf[j, J_PA + 2]))
            rb = qrot(qb, (jf[j, J_PB], jf[j, J_PB + 1], jf[j, J_PB + 2]))
        P = (jf[j, J_L_POINT], jf[j, J_L_POINT + 1], jf[j, J_L_POINT + 2])
        if kind == JOINT_BALL:
            lx = jf[j, J_L_FRIC] + jf[j, J_L_SPRING] + jf[j, J_L_MOTOR]
            ly = jf[j, J_L_FRIC + 1] + jf[j, J_L_SPRING + 1] + jf[j, J_L_MOTOR + 1]
            lz = jf[j, J_L_FRIC + 2] + jf[j, J_L_SPRING + 2] + jf[j, J_L_MOTOR + 2]
            lt = jf[j, J_L_TLO] - jf[j, J_L_THI]
            ls = -jf[j, J_L_SWING]
            lx += lt * jf[j, J_AX_T] + ls * jf[j, J_AX_S]
            ly += lt * jf[j, J_AX_T + 1] + ls * jf[j, J_AX_S + 1]
            lz += lt * jf[j, J_AX_T + 2] + ls * jf[j, J_AX_S + 2]
        else:
            la = (jf[j, J_L_FRIC] + jf[j, J_L_SPRING] + jf[j, J_L_MOTOR]
                  + jf[j, J_L_TLO] - jf[j, J_L_THI])
            l1 = jf[j, J_L_LOCK]
            l2 = jf[j, J_L_LOCK + 1]
            lx = la * jf[j, J_AX_T] + l1 * jf[j, J_PY] + l2 * jf[j, J_PZ]
            ly = la * jf[j, J_AX_T + 1] + l1 * jf[j, J_PY + 1] + l2 * jf[j, J_PZ + 1]
            lz = la * jf[j, J_AX_T + 2] + l1 * jf[j, J_PY + 2] + l2 * jf[j, J_PZ + 2]
        ca = _cross(ra, P)
        cb = _cross(rb, P)
        La = (lx + ca[0], ly + ca[1], lz + ca[2])
        Lb = (lx + cb[0], ly + cb[1], lz + cb[2])
        if a >= 0:
            ma = bf[a, B_INV_MASS]
            bf[a, B_V] -= ma * P[0]
            bf[a, B_V + 1] -= ma * P[1]
            bf[a, B_V + 2] -= ma * P[2]
            _add_w(bf, a, _inv_i(bf, a), La, -1.0)
        if b >= 0:
            mb = bf[b, B_INV_MASS]
            bf[b, B_V] += mb * P[0]
            bf[b, B_V + 1] += mb * P[1]
            bf[b, B_V + 2] += mb * P[2]
            _add_w(bf, b, _inv_i(bf, b), Lb, 1.0)


# ============================================================== solve


# An estimate of atan2 within 0.0038 rad (w >= 0) lets a row far from its limit be skipped
# without the exact angle: only when it is further than this margin (rad of twist) beyond the
# skip test's reach, so the decision is the one the exact angle gives.
TWIST_MARGIN = 0.02


@njit(cache=True, _nrt=False, inline="always")
def _atan2_rough(x, w):
    """atan2(x, w) for w >= 0 within 0.0038 rad (pi/4 t + 0.273 t (1 - |t|), |t| <= 1)."""
    if abs(x) <= w:
        t = x / w
        return 0.7853981633974483 * t + 0.273 * t * (1.0 - abs(t))
    t = w / x
    return math.copysign(0.5 * math.pi, x) - (0.7853981633974483 * t + 0.273 * t * (1.0 - abs(t)))


@njit(cache=True, _nrt=False, inline="always")
def _clamp_norm3(x, y, z, cap):
    n2 = x * x + y * y + z * z
    if n2 > cap * cap:
        k = cap / math.sqrt(n2)
        return x * k, y * k, z * k
    return x, y, z


@njit(cache=True, _nrt=False)
def solve_joints(bf, bi, jf, ji, jl, h, use_bias, g, g_ready):
    """The share of a sub-step of the joints whose slots jl lists (in that order):
    BIAS_ITERATIONS Gauss-Seidel passes in the bias pass (see the constant), one in the relax
    pass.

    g: the caller's scratch, (>= the joint slots, G_COUNT) floats, kept across the step's
    sub-steps. The bodies move only between the bias and relax passes, so what a pass derives
    from the poses (lever arms, frames, angles, lock rows) holds until the next position update:
    the relax pass keeps it in g, and the next sub-step's bias passes read it back. g_ready: g
    holds it for the current poses (False on the step's first sub-step: its first bias pass
    fills it).
    """
    err = 0.0
    if use_bias:
        for it in range(BIAS_ITERATIONS):
            take = DRIVE_EVERY_SUBSTEP and it == 0
            gmode = 2 if (it > 0 or g_ready) else 1
            if take and gmode == 2:
                # every drive target first, in a loop of its own: they read only the poses,
                # and apart from the rows their long chains of arithmetic overlap
                _take_drives(bf, bi, jf, ji, jl, g)
                take = False
            err = _solve_pass(bf, bi, jf, ji, jl, h, True, take, g, gmode)
    else:
        err = _solve_pass(bf, bi, jf, ji, jl, h, False, False, g, 1)
    return err


@njit(cache=True, _nrt=False)
def solve_joints_converged(bf, bi, jf, ji, jl, g, err):
    """More passes over the point rows of the joints jl lists, after the bias pass found a point
    moving apart faster than CONVERGED m/s (``err``): see the module docstring's "Passes".
    Returns the passes taken."""
    n = 0
    if err <= CONVERGED:
        return n
    while n < EXTRA_PASSES:
        # leaves to root first: a blow on a leaf crosses the whole chain in one pass
        solved = _point_pass(bf, bi, jf, ji, jl, g, n % 2 == 0)
        n += 1
        if solved == 0:
            break
    return n


@njit(cache=True, _nrt=False)
def _point_pass(bf, bi, jf, ji, jl, g, reverse):
    """One pass over the point rows of the joints jl lists (reverse: the other way), solving
    rigidly (with the bias pass's capped push-out) only the rows whose point moves apart faster
    than CONVERGED m/s; the lever arms, error and K^-1 are those the bias pass kept (g, J_KINV).
    A row at or under CONVERGED is left exactly as it is, so a figure whose rows all are is at a
    fixed point: whatever else shares its pass, nothing of it changes (the same bits however the
    world is split into islands). Returns the rows solved."""
    solved = 0
    n_jl = jl.shape[0]
    for tt in range(n_jl):
        j = jl[n_jl - 1 - tt] if reverse else jl[tt]
        kind, a, b = _joint_bodies(ji, j)
        if kind == JOINT_FREE or not _active(bf, bi, a, b):
            continue
        ra = (g[j, G_RA], g[j, G_RA + 1], g[j, G_RA + 2])
        rb = (g[j, G_RB], g[j, G_RB + 1], g[j, G_RB + 2])
        sb = jf[j, J_SOFT]
        bx = sb * g[j, G_C]
        by = sb * g[j, G_C + 1]
        bz = sb * g[j, G_C + 2]
        b2 = bx * bx + by * by + bz * bz
        if b2 > JOINT_PUSH_MAX * JOINT_PUSH_MAX:
            f = JOINT_PUSH_MAX / math.sqrt(b2)
            bx *= f
            by *= f
            bz *= f
        va, wa = _vel(bf, a)
        vb, wb = _vel(bf, b)
        ca = _cross(wa, ra)
        cb = _cross(wb, rb)
        cd = (vb[0] + cb[0] - va[0] - ca[0] + bx, vb[1] + cb[1] - va[1] - ca[1] + by,
              vb[2] + cb[2] - va[2] - ca[2] + bz)
        if _dot(cd, cd) <= CONVERGED * CONVERGED:
            continue
        solved += 1
        kinv = (jf[j, J_KINV], jf[j, J_KINV + 1], jf[j, J_KINV + 2], jf[j, J_KINV + 3],
                jf[j, J_KINV + 4], jf[j, J_KINV + 5], jf[j, J_KINV + 6], jf[j, J_KINV + 7],
                jf[j, J_KINV + 8])
        x = mv(kinv, cd)
        P = (-x[0], -x[1], -x[2])
        jf[j, J_L_POINT] += P[0]
        jf[j, J_L_POINT + 1] += P[1]
        jf[j, J_L_POINT + 2] += P[2]
        if a >= 0:
            ma = bf[a, B_INV_MASS]
            for c in range(3):
                bf[a, B_V + c] -= ma * P[c]
            _add_w(bf, a, _inv_i(bf, a), _cross(ra, P), -1.0)
        if b >= 0:
            mb = bf[b, B_INV_MASS]
            for c in range(3):
                bf[b, B_V + c] += mb * P[c]
            _add_w(bf, b, _inv_i(bf, b), _cross(rb, P), 1.0)
    return solved


@njit(cache=True, _nrt=False)
def _take_drives(bf, bi, jf, ji, jl, g):
    """The motors' targets (J_WT) as ``_solve_pass`` takes them with take_drive, from the poses
    that g holds the pose-only values of (its gmode 2): the same arithmetic, so the same bits."""
    for t in range(jl.shape[0]):
        j = jl[t]
        kind, a, b = _joint_bodies(ji, j)
        if kind == JOINT_FREE or not _active(bf, bi, a, b):
            continue
        if not (jf[j, J_MOTOR_MAX] > 0.0):
            continue
        pa, qa = _body_pose(bf, a)
        pb, qb = _body_pose(bf, b)
        if kind == JOINT_HINGE and ji[j, J_DRIVE] == DRIVE_POSE:
            fa = qmul(qa, (jf[j, J_QA], jf[j, J_QA + 1], jf[j, J_QA + 2], jf[j, J_QA + 3]))
            hax = (g[j, G_AX], g[j, G_AX + 1], g[j, G_AX + 2])
            wt = _drive_wt_hinge_pose(jf, j, qa, fa, hax, g[j, G_ANG])
        else:
            wt = _drive_wt(jf, ji, j, kind, qa, qb)
        jf[j, J_WT] = wt[0]
        jf[j, J_WT + 1] = wt[1]
        jf[j, J_WT + 2] = wt[2]


@njit(cache=True, _nrt=False, inline="always")
def _ball_row_store(jf, j, col, o0, o1, o2, n0, n1, n2, wa, wb, ia, ib):
    """A ball joint's angular 3-vector row (friction, spring or motor): its accumulated impulse at
    ``jf[j, col:col+3]`` goes from (o0, o1, o2) to (n0, n1, n2) N·m·s, and the bodies' angular
    velocities take the difference. Returns the new (wa, wb)."""
    jf[j, col] = n0
    jf[j, col + 1] = n1
    jf[j, col + 2] = n2
    L = (n0 - o0, n1 - o1, n2 - o2)
    da = mv(ia, L)
    db = mv(ib, L)
    return ((wa[0] - da[0], wa[1] - da[1], wa[2] - da[2]),
            (wb[0] + db[0], wb[1] + db[1], wb[2] + db[2]))


@njit(cache=True, _nrt=False, inline="always")
def _hinge_row_apply(ax, dl, wa, wb, ia, ib):
    """A hinge row's impulse along its axis ax changed by dl N·m·s: the bodies' angular
    velocities take it (-dl on A, +dl on B). Returns the new (wa, wb)."""
    L = (ax[0] * dl, ax[1] * dl, ax[2] * dl)
    da = mv(ia, L)
    db = mv(ib, L)
    return ((wa[0] - da[0], wa[1] - da[1], wa[2] - da[2]),
            (wb[0] + db[0], wb[1] + db[1], wb[2] + db[2]))


@njit(cache=True, _nrt=False, inline="always")
def _limit_row(bf, cb, jf, j, col, C, sg, ax, wa, wb, ia, ib, km, inv_h, lim_b, lim_m, lim_i):
    """One side of an angular limit about unit axis ``ax`` (a twist limit or a hinge's): a
    one-sided impulse accumulated in ``jf[j, col]`` (>= 0), speculative (C/h) while the limit is
    not reached (C > 0), soft (lim_b, lim_m, lim_i) once passed. ``sg`` is +1 for the lower
    side, -1 for the upper. Returns the bodies' new angular velocities (wa, wb). A push past
    LIMIT_PUSH_MAX is held to it and counted on body cb."""
    if C > 0.0:
        bias = C * inv_h
        mscale = 1.0
        iscale = 0.0
    else:
        bias = lim_b * C
        if bias < -LIMIT_PUSH_MAX:
            bias = -LIMIT_PUSH_MAX
            bf[cb, B_NETS + NET_PUSH] += 1.0
        mscale = lim_m
        iscale = lim_i
    cd = sg * (_dot(ax, wb) - _dot(ax, wa))
    old = jf[j, col]
    imp = -km * mscale * (cd + bias) - iscale * old
    new = max(old + imp, 0.0)
    jf[j, col] = new
    if new == old:
        # nothing applied (a limit not reached holding no impulse): the velocities as they are
        return wa, wb
    dl = (new - old) * sg
    L = (ax[0] * dl, ax[1] * dl, ax[2] * dl)
    da = mv(ia, L)
    db = mv(ib, L)
    return ((wa[0] - da[0], wa[1] - da[1], wa[2] - da[2]),
            (wb[0] + db[0], wb[1] + db[1], wb[2] + db[2]))


@njit(cache=True, _nrt=False)
def _solve_pass(bf, bi, jf, ji, jl, h, use_bias, take_drive, g, gmode, reverse=False):
    """One Gauss-Seidel pass over the joints jl lists (bias pass when use_bias, else relax),
    in their order or (reverse) the other way. Returns the largest point velocity error it met
    (m/s, before each point's own row).

    gmode 0: derive everything from the poses; 1: also keep the pose-only values in g[j, G_*];
    2: read them back from g (the poses unchanged since the gmode 1 pass).
    """
    inv_h = 1.0 / h
    # limits, once violated, are pushed back as stiffly as the sub-step allows (a quarter of its
    # rate, critically damped): a ragdoll's limits carry its landings
    lim_b, lim_m, lim_i = make_soft(LIMIT_HZ_SHARE * inv_h, LIMIT_ZETA, h)
    if LIMIT_BETA > 0.0:
        lim_b = LIMIT_BETA * inv_h
        lim_m = 1.0
        lim_i = 0.0
    if not use_bias:
        lim_b = 0.0
        lim_m = 1.0
        lim_i = 0.0
    worst2 = 0.0  # the largest squared point velocity error the pass met (m²/s²)
    n_jl = jl.shape[0]
    for tt in range(n_jl):
        j = jl[n_jl - 1 - tt] if reverse else jl[tt]
        kind, a, b = _joint_bodies(ji, j)
        if kind == JOINT_FREE or not _active(bf, bi, a, b):
            continue
        pa, qa = _body_pose(bf, a)
        pb, qb = _body_pose(bf, b)
        cbody = b if b >= 0 else a  # the body the nets' actions are counted on
        if gmode == 2:
            ra = (g[j, G_RA], g[j, G_RA + 1], g[j, G_RA + 2])
            rb = (g[j, G_RB], g[j, G_RB + 1], g[j, G_RB + 2])
            Cp = (g[j, G_C], g[j, G_C + 1], g[j, G_C + 2])
        else:
            ra = qrot(qa, (jf[j, J_PA], jf[j, J_PA + 1], jf[j, J_PA + 2]))
            rb = qrot(qb, (jf[j, J_PB], jf[j, J_PB + 1], jf[j, J_PB + 2]))
            Cp = _point_gap(pa, ra, pb, rb)
            if gmode == 1:
                for k in range(3):
                    g[j, G_RA + k] = ra[k]
                    g[j, G_RB + k] = rb[k]
                    g[j, G_C + k] = Cp[k]
        ia = _inv_i(bf, a)
        ib = _inv_i(bf, b)
        ma = _inv_m(bf, a)
        mb = _inv_m(bf, b)
        va, wa = _vel(bf, a)
        vb, wb = _vel(bf, b)
        if gmode == 2:
            rm = (jf[j, J_RMASS], jf[j, J_RMASS + 1], jf[j, J_RMASS + 2], jf[j, J_RMASS + 3],
                  jf[j, J_RMASS + 4], jf[j, J_RMASS + 5], jf[j, J_RMASS + 6], jf[j, J_RMASS + 7],
                  jf[j, J_RMASS + 8])
        else:
            # from the bodies' world inverse inertia as it is now (taken every sub-step): the
            # rows' masses stay consistent with the I^-1 their impulses are applied through
            rm = inv3((ia[0] + ib[0], ia[1] + ib[1], ia[2] + ib[2], ia[3] + ib[3], ia[4] + ib[4],
                       ia[5] + ib[5], ia[6] + ib[6], ia[7] + ib[7], ia[8] + ib[8]))
            if gmode == 1:
                for k in range(9):
                    jf[j, J_RMASS + k] = rm[k]
        sbias = jf[j, J_SOFT]
        smass = jf[j, J_SOFT + 1]
        simp = jf[j, J_SOFT + 2]
        if not use_bias:
            sbias = 0.0
            smass = 1.0
            simp = 0.0
        motor_max = jf[j, J_MOTOR_MAX]
        fric = jf[j, J_FRICTION]
        limits = (ji[j, J_FLAGS] & JFLAG_LIMITS) != 0
        if gmode == 2:
            # the frames as the gmode 1 pass had them (a hinge needs only what it kept)
            if kind == JOINT_BALL and limits:
                fa = (g[j, G_FA], g[j, G_FA + 1], g[j, G_FA + 2], g[j, G_FA + 3])
                fb = (g[j, G_FB], g[j, G_FB + 1], g[j, G_FB + 2], g[j, G_FB + 3])
            else:
                fa = (0.0, 0.0, 0.0, 1.0)
                fb = fa
            rel = (0.0, 0.0, 0.0, 1.0)
        elif kind == JOINT_HINGE or limits:
            fa = qmul(qa, (jf[j, J_QA], jf[j, J_QA + 1], jf[j, J_QA + 2], jf[j, J_QA + 3]))
            fb = qmul(qb, (jf[j, J_QB], jf[j, J_QB + 1], jf[j, J_QB + 2], jf[j, J_QB + 3]))
            rel = qpos(qmul(qconj(fa), fb))
            if gmode == 1 and kind == JOINT_BALL:
                for k in range(4):
                    g[j, G_FA + k] = fa[k]
                    g[j, G_FB + k] = fb[k]
        else:
            fa = (0.0, 0.0, 0.0, 1.0)
            fb = fa
            rel = fa
        if kind == JOINT_HINGE:
            # the hinge's axis and angle (the drive's current angle too: the same arithmetic)
            if gmode == 2:
                hax = (g[j, G_AX], g[j, G_AX + 1], g[j, G_AX + 2])
                hang = g[j, G_ANG]
            else:
                hax = qrot(fa, (1.0, 0.0, 0.0))
                hang = 2.0 * math.atan2(rel[0], rel[3])
                if gmode == 1:
                    g[j, G_AX] = hax[0]
                    g[j, G_AX + 1] = hax[1]
                    g[j, G_AX + 2] = hax[2]
                    g[j, G_ANG] = hang
        else:
            hax = (1.0, 0.0, 0.0)
            hang = 0.0
        if take_drive and motor_max > 0.0:
            # the drive's target from the pose this sub-step starts at, not the step's: a target
            # held for the whole step is a step's delay in the muscle's loop, and a powered
            # figure standing untouched rang against it at 8 sub-steps (#579)
            if kind == JOINT_HINGE and ji[j, J_DRIVE] == DRIVE_POSE:
                if gmode == 2:
                    fa = qmul(qa, (jf[j, J_QA], jf[j, J_QA + 1], jf[j, J_QA + 2], jf[j, J_QA + 3]))
                wt = _drive_wt_hinge_pose(jf, j, qa, fa, hax, hang)
            else:
                wt = _drive_wt(jf, ji, j, kind, qa, qb)
            jf[j, J_WT] = wt[0]
            jf[j, J_WT + 1] = wt[1]
            jf[j, J_WT + 2] = wt[2]
        if kind == JOINT_BALL:
            # ---- friction (only while the motor is off)
            if fric > 0.0 and motor_max <= 0.0:
                cd = (wb[0] - wa[0], wb[1] - wa[1], wb[2] - wa[2])
                d = mv(rm, cd)
                o0 = jf[j, J_L_FRIC]
                o1 = jf[j, J_L_FRIC + 1]
                o2 = jf[j, J_L_FRIC + 2]
                n0, n1, n2 = _clamp_norm3(o0 - d[0], o1 - d[1], o2 - d[2], h * fric)
                wa, wb = _ball_row_store(jf, j, J_L_FRIC, o0, o1, o2, n0, n1, n2, wa, wb, ia, ib)
            # ---- spring toward the target relative rotation (soft in both passes)
            if jf[j, J_SPRING_HZ] > 0.0:
                tq = (jf[j, J_TARGET], jf[j, J_TARGET + 1], jf[j, J_TARGET + 2],
                      jf[j, J_TARGET + 3])
                c = rotvec(qmul(qb, qconj(qmul(qa, tq))))
                kb = jf[j, J_SSOFT]
                km = jf[j, J_SSOFT + 1]
                ki = jf[j, J_SSOFT + 2]
                cd = (wb[0] - wa[0] + kb * c[0], wb[1] - wa[1] + kb * c[1],
                      wb[2] - wa[2] + kb * c[2])
                d = mv(rm, cd)
                o0 = jf[j, J_L_SPRING]
                o1 = jf[j, J_L_SPRING + 1]
                o2 = jf[j, J_L_SPRING + 2]
                n0, n1, n2 = _clamp_norm3(o0 - km * d[0] - ki * o0, o1 - km * d[1] - ki * o1,
                                          o2 - km * d[2] - ki * o2, h * jf[j, J_SPRING_MAX])
                wa, wb = _ball_row_store(jf, j, J_L_SPRING, o0, o1, o2, n0, n1, n2, wa, wb, ia, ib)
            # ---- motor: hard velocity row, accumulated impulse norm-clamped to h * budget
            if motor_max > 0.0:
                cd = (wb[0] - wa[0] - jf[j, J_WT], wb[1] - wa[1] - jf[j, J_WT + 1],
                      wb[2] - wa[2] - jf[j, J_WT + 2])
                d = mv(rm, cd)
                o0 = jf[j, J_L_MOTOR]
                o1 = jf[j, J_L_MOTOR + 1]
                o2 = jf[j, J_L_MOTOR + 2]
                n0, n1, n2 = _clamp_norm3(o0 - d[0], o1 - d[1], o2 - d[2], h * motor_max)
                wa, wb = _ball_row_store(jf, j, J_L_MOTOR, o0, o1, o2, n0, n1, n2, wa, wb, ia, ib)
            if limits:
                sa = jf[j, J_SIN_Y]
                sb_ = jf[j, J_SIN_Z]
                if gmode == 2:
                    sy = g[j, G_SY]
                    sz = g[j, G_SY + 1]
                    sw = g[j, G_SY + 2]
                    jn = g[j, G_JN]
                    f = g[j, G_F]
                    cq = g[j, G_CQ]
                    ta = g[j, G_TA]
                    tw = g[j, G_TW]
                    twok = g[j, G_TWOK] != 0.0
                    rx = 0.0
                    rw = 1.0
                else:
                    # swing_twist(rel) (rel has w >= 0), its twist angle taken only when needed
                    rx = rel[0]
                    rw = rel[3]
                    s_tw = math.sqrt(rw * rw + rx * rx)
                    if s_tw < 1e-12:
                        sy = rel[1]
                        sz = rel[2]
                        sw = 0.0
                    else:
                        inv_s = 1.0 / s_tw
                        sy = (rw * rel[1] - rx * rel[2]) * inv_s
                        sz = (rw * rel[2] + rx * rel[1]) * inv_s
                        sw = s_tw
                    # (from here sw < 1e-12 exactly when s_tw < 1e-12, NaN alike)
                    jn = 2.0 * sw / max(2.0 * sw * sw, 0.05)  # |xA + xB| / max(1 + xA.xB, 0.05)
                    f = (sy / sa) ** 2 + (sz / sb_) ** 2
                    cq = 0.0
                    if gmode == 1 or (jf[j, J_L_SWING] == 0.0 and f < 1.0):
                        if f < 1.0 and f > 0.0 and not (sa >= 1.0 and sb_ >= 1.0):
                            r = math.sqrt(sy * sy + sz * sz)
                            cq = 2.0 * r * (1.0 / math.sqrt(f) - 1.0)
                    ta = 0.0
                    if sw >= 1e-12:
                        ta = 2.0 * _atan2_rough(rx, rw)
                    tw = 0.0
                    twok = False
                # Rows that could do nothing are skipped exactly: no impulse held, and further
                # from the limit than the joint turns in a sub-step (|J| bounds the rate).
                dwx = wb[0] - wa[0]
                dwy = wb[1] - wa[1]
                dwz = wb[2] - wa[2]
                spd = math.sqrt(dwx * dwx + dwy * dwy + dwz * dwz)
                far = False
                if sw >= 1e-12 and jf[j, J_L_TLO] == 0.0 and jf[j, J_L_THI] == 0.0:
                    # both twist rows provably skipped (far from both limits, with a margin
                    # well over the estimate's error): no atan2
                    tl = jn * spd
                    if ((ta - TWIST_MARGIN - jf[j, J_TWIST_LO]) * inv_h > tl
                            and (jf[j, J_TWIST_HI] - ta - TWIST_MARGIN) * inv_h > tl):
                        far = True
                if far:
                    c_lo = 0.0
                    c_hi = 0.0
                    need_lo = False
                    need_hi = False
                else:
                    if not twok:
                        if gmode == 2:
                            rel = qpos(qmul(qconj(fa), fb))
                            rx = rel[0]
                            rw = rel[3]
                        tw = 0.0 if sw < 1e-12 else 2.0 * math.atan2(rx, rw)
                        twok = True
                        if gmode == 2:
                            g[j, G_TW] = tw
                            g[j, G_TWOK] = 1.0
                    c_lo = tw - jf[j, J_TWIST_LO]
                    c_hi = jf[j, J_TWIST_HI] - tw
                    need_lo = jf[j, J_L_TLO] != 0.0 or c_lo * inv_h <= jn * spd
                    need_hi = jf[j, J_L_THI] != 0.0 or c_hi * inv_h <= jn * spd
                if gmode == 1:
                    g[j, G_SY] = sy
                    g[j, G_SY + 1] = sz
                    g[j, G_SY + 2] = sw
                    g[j, G_JN] = jn
                    g[j, G_F] = f
                    g[j, G_CQ] = cq
                    g[j, G_TA] = ta
                    g[j, G_TW] = tw
                    g[j, G_TWOK] = 1.0 if twok else 0.0
                # cone: in quaternion space r = sin(swing/2), its edge in that direction at
                # sl = r / sqrt(f); asin being convex, the angle left is at least 2 (sl - r)
                need_c = True
                if jf[j, J_L_SWING] == 0.0 and f < 1.0:
                    if sa >= 1.0 and sb_ >= 1.0:
                        need_c = False
                    elif f <= 0.0:
                        need_c = False
                    else:
                        if cq > spd * h:
                            need_c = False
                if need_lo or need_hi or need_c:
                    xa = qrot(fa, (1.0, 0.0, 0.0))
                    xb = qrot(fb, (1.0, 0.0, 0.0))
                if need_lo or need_hi:
                    # ---- twist limits. The twist of relQ = swing * twist turns at
                    # w . (xA + xB) / (1 + xA . xB) (Box3D's coneAxis + tan(swing/2) n x coneAxis):
                    # faster than w along the child's axis once the swing is large.
                    den = max(1.0 + _dot(xa, xb), 0.05)
                    ax = ((xa[0] + xb[0]) / den, (xa[1] + xb[1]) / den, (xa[2] + xb[2]) / den)
                    jf[j, J_AX_T] = ax[0]
                    jf[j, J_AX_T + 1] = ax[1]
                    jf[j, J_AX_T + 2] = ax[2]
                    km = _dot(ax, mv(ia, ax)) + _dot(ax, mv(ib, ax))
                    km = 1.0 / km if km > 0.0 else 0.0
                    for side in range(2):
                        if side == 0:
                            if not need_lo:
                                continue
                            C = c_lo
                            sg = 1.0
                            col = J_L_TLO
                        else:
                            if not need_hi:
                                continue
                            C = c_hi
                            sg = -1.0
                            col = J_L_THI
                        wa, wb = _limit_row(bf, cbody, jf, j, col, C, sg, ax, wa, wb, ia, ib,
                                            km, inv_h, lim_b, lim_m, lim_i)
                if need_c:
                    # ---- swing cone (elliptical, about frame A's x: its own centre)
                    ang, lim = cone_limit(sy, sz, jf[j, J_SWING_Y], jf[j, J_SWING_Z])
                    if lim < math.pi:
                        n = _cross(xa, xb)
                        nl = _len(n)
                        if nl > 1e-9:
                            n = (n[0] / nl, n[1] / nl, n[2] / nl)
                        else:
                            # at the centre: any direction; take the swing's own axis
                            n = qrot(fa, (0.0, sy, sz))
                            nl = _len(n)
                            if nl > 1e-12:
                                n = (n[0] / nl, n[1] / nl, n[2] / nl)
                            else:
                                n = qrot(fa, (0.0, 1.0, 0.0))
                        jf[j, J_AX_S] = n[0]
                        jf[j, J_AX_S + 1] = n[1]
                        jf[j, J_AX_S + 2] = n[2]
                        C = lim - ang
                        if C > 0.0:
                            bias = C * inv_h
                            mscale = 1.0
                            iscale = 0.0
                        else:
                            bias = lim_b * C
                            if bias < -LIMIT_PUSH_MAX:
                                bias = -LIMIT_PUSH_MAX
                                bf[cbody, B_NETS + NET_PUSH] += 1.0
                            mscale = lim_m
                            iscale = lim_i
                        km = _dot(n, mv(ia, n)) + _dot(n, mv(ib, n))
                        km = 1.0 / km if km > 0.0 else 0.0
                        cd = -(_dot(n, wb) - _dot(n, wa))
                        old = jf[j, J_L_SWING]
                        imp = -km * mscale * (cd + bias) - iscale * old
                        new = max(old + imp, 0.0)
                        jf[j, J_L_SWING] = new
                        if new != old:
                            dl = -(new - old)
                            L = (n[0] * dl, n[1] * dl, n[2] * dl)
                            da = mv(ia, L)
                            db = mv(ib, L)
                            wa = (wa[0] - da[0], wa[1] - da[1], wa[2] - da[2])
                            wb = (wb[0] + db[0], wb[1] + db[1], wb[2] + db[2])
        else:
            # ================= hinge about frame x
            ax = hax
            if gmode == 2:
                # J_AX_T (and J_PY/J_PZ below) hold these already: the gmode 1 pass wrote them
                km = g[j, G_KM]
            else:
                jf[j, J_AX_T] = ax[0]
                jf[j, J_AX_T + 1] = ax[1]
                jf[j, J_AX_T + 2] = ax[2]
                km = _dot(ax, mv(ia, ax)) + _dot(ax, mv(ib, ax))
                km = 1.0 / km if km > 0.0 else 0.0
                if gmode == 1:
                    g[j, G_KM] = km
            ang = hang
            # ---- friction
            if fric > 0.0 and motor_max <= 0.0:
                cd = _dot(ax, wb) - _dot(ax, wa)
                old = jf[j, J_L_FRIC]
                cap = h * fric
                new = min(max(old - km * cd, -cap), cap)
                jf[j, J_L_FRIC] = new
                if new != old:  # (a motor held at its cap applies nothing)
                    wa, wb = _hinge_row_apply(ax, new - old, wa, wb, ia, ib)
            # ---- spring
            if jf[j, J_SPRING_HZ] > 0.0:
                C = ang - jf[j, J_TARGET_ANGLE]
                if C > math.pi:
                    C -= 2.0 * math.pi
                elif C < -math.pi:
                    C += 2.0 * math.pi
                cd = _dot(ax, wb) - _dot(ax, wa)
                old = jf[j, J_L_SPRING]
                cap = h * jf[j, J_SPRING_MAX]
                new = old - jf[j, J_SSOFT + 1] * km * (cd + jf[j, J_SSOFT] * C) \
                    - jf[j, J_SSOFT + 2] * old
                new = min(max(new, -cap), cap)
                jf[j, J_L_SPRING] = new
                if new != old:  # (a motor held at its cap applies nothing)
                    wa, wb = _hinge_row_apply(ax, new - old, wa, wb, ia, ib)
            # ---- motor
            if motor_max > 0.0:
                wt = _dot(ax, (jf[j, J_WT], jf[j, J_WT + 1], jf[j, J_WT + 2]))
                cd = _dot(ax, wb) - _dot(ax, wa) - wt
                old = jf[j, J_L_MOTOR]
                cap = h * motor_max
                new = min(max(old - km * cd, -cap), cap)
                jf[j, J_L_MOTOR] = new
                if new != old:  # (a motor held at its cap applies nothing)
                    wa, wb = _hinge_row_apply(ax, new - old, wa, wb, ia, ib)
            # ---- limits
            if limits:
                for side in range(2):
                    if side == 0:
                        C = ang - jf[j, J_TWIST_LO]
                        sg = 1.0
                        col = J_L_TLO
                    else:
                        C = jf[j, J_TWIST_HI] - ang
                        sg = -1.0
                        col = J_L_THI
                    wa, wb = _limit_row(bf, cbody, jf, j, col, C, sg, ax, wa, wb, ia, ib, km,
                                        inv_h, lim_b, lim_m, lim_i)
            # ---- the two locked axes: C = (rel.y, rel.z)
            if gmode == 2:
                py = (g[j, G_PY], g[j, G_PY + 1], g[j, G_PY + 2])
                pz = (g[j, G_PZ], g[j, G_PZ + 1], g[j, G_PZ + 2])
                k11 = g[j, G_K]
                k12 = g[j, G_K + 1]
                k22 = g[j, G_K + 2]
                rely = g[j, G_REL]
                relz = g[j, G_REL + 1]
            else:
                s = rel[3]
                v = (rel[0], rel[1], rel[2])
                t = _cross(v, (0.0, 1.0, 0.0))
                py = qrot(fa, (0.5 * (t[0]), 0.5 * (s + t[1]), 0.5 * t[2]))
                t = _cross(v, (0.0, 0.0, 1.0))
                pz = qrot(fa, (0.5 * t[0], 0.5 * t[1], 0.5 * (s + t[2])))
                jf[j, J_PY] = py[0]
                jf[j, J_PY + 1] = py[1]
                jf[j, J_PY + 2] = py[2]
                jf[j, J_PZ] = pz[0]
                jf[j, J_PZ + 1] = pz[1]
                jf[j, J_PZ + 2] = pz[2]
                iy = (mv(ia, py), mv(ib, py))
                iz = (mv(ia, pz), mv(ib, pz))
                k11 = _dot(py, iy[0]) + _dot(py, iy[1])
                k12 = _dot(py, iz[0]) + _dot(py, iz[1])
                k22 = _dot(pz, iz[0]) + _dot(pz, iz[1])
                rely = rel[1]
                relz = rel[2]
                if gmode == 1:
                    for k in range(3):
                        g[j, G_PY + k] = py[k]
                        g[j, G_PZ + k] = pz[k]
                    g[j, G_K] = k11
                    g[j, G_K + 1] = k12
                    g[j, G_K + 2] = k22
                    g[j, G_REL] = rely
                    g[j, G_REL + 1] = relz
            dwx = wb[0] - wa[0]
            dwy = wb[1] - wa[1]
            dwz = wb[2] - wa[2]
            dw = (dwx, dwy, dwz)
            by_ = sbias * rely
            bz_ = sbias * relz
            bl2 = by_ * by_ + bz_ * bz_
            if bl2 > LIMIT_PUSH_MAX * LIMIT_PUSH_MAX:
                # a lock this far off is pushed back no faster than a limit's net
                f = LIMIT_PUSH_MAX / math.sqrt(bl2)
                by_ *= f
                bz_ *= f
                bf[cbody, B_NETS + NET_PUSH] += 1.0
            r1 = _dot(py, dw) + by_
            r2 = _dot(pz, dw) + bz_
            det = k11 * k22 - k12 * k12
            if det > 0.0:
                idet = 1.0 / det
                x1 = (k22 * r1 - k12 * r2) * idet
                x2 = (k11 * r2 - k12 * r1) * idet
                o1 = jf[j, J_L_LOCK]
                o2 = jf[j, J_L_LOCK + 1]
                d1 = -smass * x1 - simp * o1
                d2 = -smass * x2 - simp * o2
                jf[j, J_L_LOCK] = o1 + d1
                jf[j, J_L_LOCK + 1] = o2 + d2
                L = (py[0] * d1 + pz[0] * d2, py[1] * d1 + pz[1] * d2, py[2] * d1 + pz[2] * d2)
                da = mv(ia, L)
                db = mv(ib, L)
                wa = (wa[0] - da[0], wa[1] - da[1], wa[2] - da[2])
                wb = (wb[0] + db[0], wb[1] + db[1], wb[2] + db[2])

        # ================= point (both kinds), the last word
        bx = sbias * Cp[0]
        by = sbias * Cp[1]
        bz = sbias * Cp[2]
        b2 = bx * bx + by * by + bz * bz
        if b2 > JOINT_PUSH_MAX * JOINT_PUSH_MAX:
            # a gap this wide is pushed out no faster than the net (the root only here)
            f = JOINT_PUSH_MAX / math.sqrt(b2)
            bx *= f
            by *= f
            bz *= f
            bf[cbody, B_NETS + NET_PUSH] += 1.0
        ca = _cross(wa, ra)
        cb = _cross(wb, rb)
        ex = vb[0] + cb[0] - va[0] - ca[0]
        ey = vb[1] + cb[1] - va[1] - ca[1]
        ez = vb[2] + cb[2] - va[2] - ca[2]
        worst2 = max(worst2, ex * ex + ey * ey + ez * ez)
        cd = (ex + bx, ey + by, ez + bz)
        if gmode == 2:
            # the relax pass's K^-1: the poses (and B_IW) have not moved since
            kinv = (jf[j, J_KINV], jf[j, J_KINV + 1], jf[j, J_KINV + 2], jf[j, J_KINV + 3],
                    jf[j, J_KINV + 4], jf[j, J_KINV + 5], jf[j, J_KINV + 6], jf[j, J_KINV + 7],
                    jf[j, J_KINV + 8])
        else:
            # K from the lever arms as they are now (Box2D v3 builds K in the solve): a thin
            # bone turning fast made a step-start K^-1 several times too large (issue 18)
            kinv = inv3(point_mass(ma, ia, ra, mb, ib, rb))
            if gmode == 1:
                for k in range(9):
                    jf[j, J_KINV + k] = kinv[k]
        x = mv(kinv, cd)
        o0 = jf[j, J_L_POINT]
        o1 = jf[j, J_L_POINT + 1]
        o2 = jf[j, J_L_POINT + 2]
        P = (-smass * x[0] - simp * o0, -smass * x[1] - simp * o1, -smass * x[2] - simp * o2)
        jf[j, J_L_POINT] = o0 + P[0]
        jf[j, J_L_POINT + 1] = o1 + P[1]
        jf[j, J_L_POINT + 2] = o2 + P[2]
        va = (va[0] - ma * P[0], va[1] - ma * P[1], va[2] - ma * P[2])
        vb = (vb[0] + mb * P[0], vb[1] + mb * P[1], vb[2] + mb * P[2])
        da = mv(ia, _cross(ra, P))
        db = mv(ib, _cross(rb, P))
        wa = (wa[0] - da[0], wa[1] - da[1], wa[2] - da[2])
        wb = (wb[0] + db[0], wb[1] + db[1], wb[2] + db[2])
        if a >= 0:
            bf[a, B_V] = va[0]
            bf[a, B_V + 1] = va[1]
            bf[a, B_V + 2] = va[2]
            bf[a, B_W] = wa[0]
            bf[a, B_W + 1] = wa[1]
            bf[a, B_W + 2] = wa[2]
        if b >= 0:
            bf[b, B_V] = vb[0]
            bf[b, B_V + 1] = vb[1]
            bf[b, B_V + 2] = vb[2]
            bf[b, B_W] = wb[0]
            bf[b, B_W + 1] = wb[1]
            bf[b, B_W + 2] = wb[2]
    return math.sqrt(worst2)


# ============================================================== façade helpers (one call each)


@njit(cache=True, _nrt=False)
def joint_state(bf, jf, ji, j, out):
    """Fill out[0..] with: angle readings and applied torques of joint j.

    out[0]  twist (ball) or hinge angle (rad)
    out[1]  swing angle (rad, ball)
    out[2]  the cone's radial limit in the swing's direction (rad, ball)
    out[3:6] motor torque applied in the last sub-step (world, N·m)
    out[6:9] spring torque (world, N·m)
    out[9:12] friction torque (world, N·m)
    """
    a = ji[j, J_BODY_A]
    b = ji[j, J_BODY_B]
    pa, qa, pb, qb, fa, fb, ra, rb = _frames(bf, jf, j, a, b)
    rel = qpos(qmul(qconj(fa), fb))
    h = jf[j, J_H]
    ih = 1.0 / h if h > 0.0 else 0.0
    if ji[j, J_KIND] == JOINT_HINGE:
        out[0] = hinge_angle(rel)
        out[1] = 0.0
        out[2] = 0.0
        for k in range(3):
            ax = jf[j, J_AX_T + k]
            out[3 + k] = jf[j, J_L_MOTOR] * ax * ih
            out[6 + k] = jf[j, J_L_SPRING] * ax * ih
            out[9 + k] = jf[j, J_L_FRIC] * ax * ih
    else:
        sy, sz, sw, tw = swing_twist(rel)
        ang, lim = cone_limit(sy, sz, jf[j, J_SWING_Y], jf[j, J_SWING_Z])
        out[0] = tw
        out[1] = ang
        out[2] = lim
        for k in range(3):
            out[3 + k] = jf[j, J_L_MOTOR + k] * ih
            out[6 + k] = jf[j, J_L_SPRING + k] * ih
            out[9 + k] = jf[j, J_L_FRIC + k] * ih


@njit(cache=True, _nrt=False)
def joints_past_limits(bf, jf, ji, j0, j1, out):
    """For joints j0..j1-1: out[k] = (twist/hinge past, swing past, hinge angle or twist) (rad)."""
    for j in range(j0, j1):
        k = j - j0
        if ji[j, J_KIND] == JOINT_FREE:
            out[k, 0] = 0.0
            out[k, 1] = 0.0
            out[k, 2] = 0.0
            continue
        a = ji[j, J_BODY_A]
        b = ji[j, J_BODY_B]
        pa, qa, pb, qb, fa, fb, ra, rb = _frames(bf, jf, j, a, b)
        rel = qpos(qmul(qconj(fa), fb))
        lo = jf[j, J_TWIST_LO]
        hi = jf[j, J_TWIST_HI]
        if ji[j, J_KIND] == JOINT_HINGE:
            ang = hinge_angle(rel)
            out[k, 0] = max(lo - ang, ang - hi, 0.0)
            out[k, 1] = 0.0
            out[k, 2] = ang
        else:
            sy, sz, sw, tw = swing_twist(rel)
            ang, lim = cone_limit(sy, sz, jf[j, J_SWING_Y], jf[j, J_SWING_Z])
            out[k, 0] = max(lo - tw, tw - hi, 0.0)
            out[k, 1] = max(ang - lim, 0.0)
            out[k, 2] = tw


@njit(cache=True, _nrt=False)
def set_drive_targets(jf, ji, joints, quats, budgets, drive_time, max_w, deadband):
    """Pose-drive every joint in ``joints`` toward quats[k] (body-relative) within budgets[k].

    budgets[k] < 0 leaves that joint's budget as it is; drive_time (s), max_w (rad/s),
    deadband (rad) as in J_DRIVE_TIME / J_DRIVE_MAX_W / J_DEADBAND. Joints aimed (DRIVE_AIM)
    keep their aim but take the new target for when the aim is cleared. Returns True when a
    target or budget changed (the caller wakes the figure).
    """
    changed = False
    for k in range(joints.shape[0]):
        j = joints[k]
        if j < 0 or ji[j, J_KIND] == JOINT_FREE:
            continue
        x, y, z, w = quats[k, 0], quats[k, 1], quats[k, 2], quats[k, 3]
        n = math.sqrt(x * x + y * y + z * z + w * w)
        if not (n > 0.0) or not math.isfinite(n):
            continue
        x /= n
        y /= n
        z /= n
        w /= n
        d = (abs(jf[j, J_TARGET] - x) + abs(jf[j, J_TARGET + 1] - y)
             + abs(jf[j, J_TARGET + 2] - z) + abs(jf[j, J_TARGET + 3] - w))
        if d > 1e-9 or ji[j, J_DRIVE] == 0:
            changed = True
        jf[j, J_TARGET] = x
        jf[j, J_TARGET + 1] = y
        jf[j, J_TARGET + 2] = z
        jf[j, J_TARGET + 3] = w
        if budgets[k] >= 0.0:
            if budgets[k] != jf[j, J_MOTOR_MAX]:
                changed = True
            jf[j, J_MOTOR_MAX] = budgets[k]
        jf[j, J_DRIVE_TIME] = drive_time
        jf[j, J_DRIVE_MAX_W] = max_w
        jf[j, J_DEADBAND] = deadband
        if ji[j, J_DRIVE] != DRIVE_AIM:
            ji[j, J_DRIVE] = DRIVE_POSE
    return changed


@njit(cache=True, _nrt=False)
def relative_rotations(bf, ji, joints, out):
    """out[k] = qA^-1 qB (body-relative rotation, w >= 0) of each joint in ``joints``."""
    for k in range(joints.shape[0]):
        j = joints[k]
        a = ji[j, J_BODY_A]
        b = ji[j, J_BODY_B]
        pa, qa = _body_pose(bf, a)
        pb, qb = _body_pose(bf, b)
        r = qpos(qmul(qconj(qa), qb))
        out[k, 0] = r[0]
        out[k, 1] = r[1]
        out[k, 2] = r[2]
        out[k, 3] = r[3]


# ============================================================== watching figures (tests, benches)

FW_GAP = 0       # m: the worst joint gap (|point on B - point on A|)
FW_SPEED = 1     # m/s: the fastest body
FW_DEPTH = 2     # m: how far the deepest body reaches under the ground height (0: none)
FW_KE = 3        # J: kinetic energy (linear and angular)
FW_BAD = 4       # 1.0 when a body's pose or velocity is not finite
FW_COM = 5       # 5..7 centre of mass (m)
FW_COUNT = 8


@njit(cache=True, _nrt=False)
def joint_gap(bf, jf, ji, j):
    """|(pB + rB) - (pA + rA)| (m) of joint slot j: how far apart its two points are."""
    kind, a, b = _joint_bodies(ji, j)
    pa, qa, pb, qb, fa, fb, ra, rb = _frames(bf, jf, j, a, b)
    return _len(_point_gap(pa, ra, pb, rb))


@njit(cache=True, _nrt=False)
def _point_gap(pa, ra, pb, rb):
    """(pB + rB) - (pA + rA) (m, world): the vector a joint's two points are apart."""
    return (pb[0] + rb[0] - pa[0] - ra[0], pb[1] + rb[1] - pa[1] - ra[1],
            pb[2] + rb[2] - pa[2] - ra[2])


@njit(cache=True)  # builds a list (a box's corner): numba's lists need reference counting
def figure_watch(bf, bi, jf, ji, bodies, bstart, joints, jstart, ground_y, out):
    """For figure k (its bodies bodies[bstart[k]:bstart[k+1]], joints likewise): out[k, FW_*]."""
    for k in range(bstart.shape[0] - 1):
        gap = 0.0
        for t in range(jstart[k], jstart[k + 1]):
            gap = max(gap, joint_gap(bf, jf, ji, joints[t]))
        sp = 0.0
        depth = 0.0
        ke = 0.0
        bad = 0.0
        mt = 0.0
        cx = 0.0
        cy = 0.0
        cz = 0.0
        for t in range(bstart[k], bstart[k + 1]):
            i = bodies[t]
            v = (bf[i, B_V], bf[i, B_V + 1], bf[i, B_V + 2])
            w = (bf[i, B_W], bf[i, B_W + 1], bf[i, B_W + 2])
            for c in range(13):
                if not math.isfinite(bf[i, c]):
                    bad = 1.0
            sp = max(sp, _len(v))
            m = bf[i, B_MASS]
            # angular: w . I w, I = R diag(1/invI) R^T, taken in the body frame
            q = (bf[i, B_QUAT], bf[i, B_QUAT + 1], bf[i, B_QUAT + 2], bf[i, B_QUAT + 3])
            wl = qrot(qconj(q), w)
            kr = 0.0
            for c in range(3):
                ii = bf[i, B_INV_I + c]
                if ii > 0.0:
                    kr += wl[c] * wl[c] / ii
            ke += 0.5 * m * _dot(v, v) + 0.5 * kr
            mt += m
            cx += m * bf[i, B_POS]
            cy += m * bf[i, B_POS + 1]
            cz += m * bf[i, B_POS + 2]
            shape = bi[i, B_SHAPE]
            if shape == SHAPE_SPHERE:
                low = bf[i, B_POS + 1] - bf[i, B_DIMS]
            elif shape == SHAPE_BOX:
                low = bf[i, B_POS + 1]
                for c in range(3):
                    e_ = [0.0, 0.0, 0.0]
                    e_[c] = bf[i, B_DIMS + c]
                    u = qrot(q, (e_[0], e_[1], e_[2]))
                    low -= abs(u[1])
            else:
                u = qrot(q, (0.0, bf[i, B_DIMS + 1], 0.0))
                low = bf[i, B_POS + 1] - abs(u[1]) - bf[i, B_DIMS]
            depth = max(depth, ground_y - low)
        out[k, FW_GAP] = gap
        out[k, FW_SPEED] = sp
        out[k, FW_DEPTH] = depth
        out[k, FW_KE] = ke
        out[k, FW_BAD] = bad
        if mt > 0.0:
            out[k, FW_COM] = cx / mt
            out[k, FW_COM + 1] = cy / mt
            out[k, FW_COM + 2] = cz / mt


@njit(cache=True, _nrt=False)
def worst_joint_gap(bf, jf, ji, nj):
    """The widest gap (m) of the live joints 0..nj-1 (physics.stats)."""
    worst = 0.0
    for j in range(nj):
        if ji[j, J_KIND] == JOINT_FREE:
            continue
        worst = max(worst, joint_gap(bf, jf, ji, j))
    return worst


@njit(cache=True, _nrt=False, inline="always")
def _movable(bf, bi, i):
    """Body i may be moved by the projection: a dynamic body, awake, in the world."""
    return (i >= 0 and bi[i, B_KIND] == KIND_DYNAMIC and bi[i, B_AWAKE] != 0
            and bi[i, B_PARKED] == 0)


@njit(cache=True, _nrt=False, inline="always")
def _contact_sep(bf, mf, r, p, a, b):
    """Contact point p of manifold r: its separation now (m) and lever arms (world), as the
    contact solver takes them (P_SEP + n . the relative motion since the step's start, the
    anchors fixed for the step and shifted to one world point; _kernels_contact)."""
    o = M_P + p * P_STRIDE
    n = (mf[r, M_NORMAL], mf[r, M_NORMAL + 1], mf[r, M_NORMAL + 2])
    ra0 = (mf[r, o + P_RA], mf[r, o + P_RA + 1], mf[r, o + P_RA + 2])
    rb0 = (mf[r, o + P_RB], mf[r, o + P_RB + 1], mf[r, o + P_RB + 2])
    dpa = (bf[a, B_POS] - bf[a, B_POS0], bf[a, B_POS + 1] - bf[a, B_POS0 + 1],
           bf[a, B_POS + 2] - bf[a, B_POS0 + 2])
    dpb = (bf[b, B_POS] - bf[b, B_POS0], bf[b, B_POS + 1] - bf[b, B_POS0 + 1],
           bf[b, B_POS + 2] - bf[b, B_POS0 + 2])
    tha = _rot_delta(bf, a)
    thb = _rot_delta(bf, b)
    ca = _cross(tha, ra0)
    cb = _cross(thb, rb0)
    d = (dpb[0] - dpa[0] + cb[0] - ca[0], dpb[1] - dpa[1] + cb[1] - ca[1],
         dpb[2] - dpa[2] + cb[2] - ca[2])
    sep = _dot(d, n) + mf[r, o + P_SEP]
    sh = (0.5 * (dpb[0] - dpa[0]), 0.5 * (dpb[1] - dpa[1]), 0.5 * (dpb[2] - dpa[2]))
    ra = (ra0[0] + sh[0], ra0[1] + sh[1], ra0[2] + sh[2])
    rb = (rb0[0] - sh[0], rb0[1] - sh[1], rb0[2] - sh[2])
    return sep, n, ra, rb


@njit(cache=True, _nrt=False, inline="always")
def _move_body(bf, i, m, ii, r, p, sign):
    """Body i moved by a position impulse sign * p (kg m) at lever arm r: its centre by m p,
    its rotation by I^-1 (r x p) (rad, world)."""
    t = mv(ii, _cross(r, p))
    for c in range(3):
        bf[i, B_POS + c] += sign * m * p[c]
    q = qintegrate((bf[i, B_QUAT], bf[i, B_QUAT + 1], bf[i, B_QUAT + 2], bf[i, B_QUAT + 3]),
                   (sign * t[0], sign * t[1], sign * t[2]), 1.0)
    for c in range(4):
        bf[i, B_QUAT + c] = q[c]


@njit(cache=True, _nrt=False, inline="always")
def _pose7(bf, i):
    """Body i's position and rotation (7-tuple)."""
    return (bf[i, B_POS], bf[i, B_POS + 1], bf[i, B_POS + 2], bf[i, B_QUAT], bf[i, B_QUAT + 1],
            bf[i, B_QUAT + 2], bf[i, B_QUAT + 3])


@njit(cache=True, _nrt=False, inline="always")
def _set_pose7(bf, i, pose):
    """Body i put back to ``pose`` (_pose7's), bit for bit."""
    for c in range(3):
        bf[i, B_POS + c] = pose[c]
    for c in range(4):
        bf[i, B_QUAT + c] = pose[3 + c]


@njit(cache=True, _nrt=False)
def _contact_floors(bf, bi, mf, mi, nm, floor):
    """Each contact point's floor for the projection (m): its separation before the projection,
    or 0 where it was apart. The projection may not push a point deeper than that."""
    for r in range(nm):
        a = mi[r, M_A]
        b = mi[r, M_B]
        for p in range(mi[r, M_N]):
            sep, _n, _ra, _rb = _contact_sep(bf, mf, r, p, a, b)
            floor[r, p] = min(sep, 0.0)


@njit(cache=True, _nrt=False)
def _project_contacts(bf, bi, mf, mi, nm, floor):
    """One pass over the contact points: a point the joints' projection pushed below its floor is
    pushed back out to it along the normal, through the point's normal mass (positions and
    rotations only, one-sided: never pulled together). Returns how many it pushed."""
    pushed = 0
    for r in range(nm):
        a = mi[r, M_A]
        b = mi[r, M_B]
        dyn_a = _movable(bf, bi, a)
        dyn_b = _movable(bf, bi, b)
        if not (dyn_a or dyn_b):
            continue
        zero = (0.0, 0.0, 0.0, 0.0, 0.0, 0.0, 0.0, 0.0, 0.0)
        ma = bf[a, B_INV_MASS] if dyn_a else 0.0
        mb = bf[b, B_INV_MASS] if dyn_b else 0.0
        ia = _inv_i(bf, a) if dyn_a else zero
        ib = _inv_i(bf, b) if dyn_b else zero
        for p in range(mi[r, M_N]):
            sep, n, ra, rb = _contact_sep(bf, mf, r, p, a, b)
            err = floor[r, p] - sep
            if not (err > PROJECT_CONTACT_SLOP):
                continue
            rna = _cross(ra, n)
            rnb = _cross(rb, n)
            k = ma + mb + _dot(rna, mv(ia, rna)) + _dot(rnb, mv(ib, rnb))
            if not (k > 0.0):
                continue
            lam = err / k
            pv = (lam * n[0], lam * n[1], lam * n[2])
            if dyn_a:
                _move_body(bf, a, ma, ia, ra, pv, -1.0)
            if dyn_b:
                _move_body(bf, b, mb, ib, rb, pv, 1.0)
            pushed += 1
    return pushed


@njit(cache=True, _nrt=False)
def _held_depth(bf, bi, si, mf, mi, nm, floor, planes, bfloor, i):
    """How far (m) body i lies under its floors against what cannot move: its contact points
    with a body the projection does not move (the ground, a static, kinematic or asleep body),
    and the ground planes (the floors of _contact_floors and _plane_floors). 0 when none."""
    worst = 0.0
    if si[i, SI_TOUCH] != 0:  # no manifold this step: no contact point to look at
        for r in range(nm):
            a = mi[r, M_A]
            b = mi[r, M_B]
            if not ((a == i and not _movable(bf, bi, b)) or (b == i and not _movable(bf, bi, a))):
                continue
            for p in range(mi[r, M_N]):
                sep, _n, _ra, _rb = _contact_sep(bf, mf, r, p, a, b)
                worst = max(worst, floor[r, p] - sep)
    for k in range(planes.shape[0]):
        worst = max(worst, bfloor[i, k] - _plane_height(bf, bi, i, planes[k]))
    return worst


@njit(cache=True)  # returns a new array
def ground_planes(bi, n):
    """The slots (int64) of the live planes (the grounds) among bodies 0..n-1, in slot order."""
    k = 0
    for i in range(n):
        if bi[i, B_SHAPE] == SHAPE_PLANE and bi[i, B_KIND] != KIND_FREE:
            k += 1
    out = np.empty(k, dtype=np.int64)
    k = 0
    for i in range(n):
        if bi[i, B_SHAPE] == SHAPE_PLANE and bi[i, B_KIND] != KIND_FREE:
            out[k] = i
            k += 1
    return out


@njit(cache=True, _nrt=False)
def _plane_height(bf, bi, i, g):
    """How far (m) body i's lowest point is above plane body g (negative: under it), along the
    plane's normal (its local +y, through its position): a sphere's bottom, a capsule's lower
    end, a cylinder's lower rim, a box's lowest corner. 1e30 for a plane."""
    pn = qrot((bf[g, B_QUAT], bf[g, B_QUAT + 1], bf[g, B_QUAT + 2], bf[g, B_QUAT + 3]),
              (0.0, 1.0, 0.0))
    d = (bf[i, B_POS] - bf[g, B_POS]) * pn[0] + (bf[i, B_POS + 1] - bf[g, B_POS + 1]) * pn[1] \
        + (bf[i, B_POS + 2] - bf[g, B_POS + 2]) * pn[2]
    shape = bi[i, B_SHAPE]
    if shape == SHAPE_PLANE:
        return 1e30
    if shape == SHAPE_SPHERE:
        return d - bf[i, B_DIMS]
    q = (bf[i, B_QUAT], bf[i, B_QUAT + 1], bf[i, B_QUAT + 2], bf[i, B_QUAT + 3])
    if shape == SHAPE_BOX:
        for c in range(3):
            e = (bf[i, B_DIMS] if c == 0 else 0.0, bf[i, B_DIMS + 1] if c == 1 else 0.0,
                 bf[i, B_DIMS + 2] if c == 2 else 0.0)
            d -= abs(_dot(qrot(q, e), pn))
        return d
    ca = _dot(qrot(q, (0.0, 1.0, 0.0)), pn)  # the axis against the normal
    d -= bf[i, B_DIMS + 1] * abs(ca)
    if shape == SHAPE_CYLINDER:
        return d - bf[i, B_DIMS] * math.sqrt(max(0.0, 1.0 - ca * ca))
    return d - bf[i, B_DIMS]   # capsule


@njit(cache=True, _nrt=False)
def _plane_floors(bf, bi, planes, bfloor):
    """Each movable body's floor against each plane (bfloor[i, k], m): its lowest point's height
    over plane planes[k] before the projection, or 0 where it was above."""
    for i in range(bfloor.shape[0]):
        if not _movable(bf, bi, i):
            continue
        for k in range(planes.shape[0]):
            bfloor[i, k] = min(_plane_height(bf, bi, i, planes[k]), 0.0)


@njit(cache=True, _nrt=False)
def _project_planes(bf, bi, planes, bfloor):
    """A movable body whose lowest point the projection took under its floor against a plane
    (the ground) is lifted back to it along the plane's normal (a translation: every point of it
    rises as much, so the lowest one reaches the floor exactly). Returns how many it lifted."""
    lifted = 0
    for i in range(bfloor.shape[0]):
        if not _movable(bf, bi, i):
            continue
        for k in range(planes.shape[0]):
            g = planes[k]
            err = bfloor[i, k] - _plane_height(bf, bi, i, g)
            if not (err > PROJECT_CONTACT_SLOP):
                continue
            pn = qrot((bf[g, B_QUAT], bf[g, B_QUAT + 1], bf[g, B_QUAT + 2], bf[g, B_QUAT + 3]),
                      (0.0, 1.0, 0.0))
            for c in range(3):
                bf[i, B_POS + c] += err * pn[c]
            lifted += 1
    return lifted


@njit(cache=True, _nrt=False)
def joints_open(bf, bi, jf, ji, lj, gap_max):
    """Whether any live joint (slots ``lj``) on a body that may move has its point gap over
    gap_max (m): the projection's cheap gate (a calm world's step allocates and projects
    nothing)."""
    g2 = gap_max * gap_max
    for t in range(lj.shape[0]):
        j = lj[t]
        kind, a, b = _joint_bodies(ji, j)
        if kind == JOINT_FREE or not _active(bf, bi, a, b):
            continue
        pa, qa, pb, qb, fa, fb, ra, rb = _frames(bf, jf, j, a, b)
        cx, cy, cz = _point_gap(pa, ra, pb, rb)
        if cx * cx + cy * cy + cz * cz > g2 and (_movable(bf, bi, a) or _movable(bf, bi, b)):
            return True
    return False


@njit(cache=True, _nrt=False)
def project_joints(bf, bi, si, jf, ji, lj, mf, mi, nm, floor, planes, bfloor, sweeps, gap_max,
                   flags):
    """After the step's sub-steps: every live joint (slots ``lj``, in order) whose point gap is
    over gap_max m (World.project_gap) has its dynamic bodies moved so that PROJECT_TO m of it is
    left, through the point's effective mass K = (mA + mB) I - [rA] IA [rA] - [rB] IB [rB] (a
    static, kinematic, asleep or world end does not move); then the step's contact points (manifolds
    0..nm-1 of mf, mi) that this pushed deeper than they were are pushed back out (one-sided,
    _project_contacts; floor: the caller's (>= nm, 4) scratch), and every movable body whose
    lowest point went under the ground planes (slots ``planes``, ground_planes) deeper than it
    was, or under them at all where it was above, is lifted back along the plane's normal
    (_project_planes; bfloor: the caller's (n bodies, >= len(planes)) scratch: a capsule end past
    the contacts' margin has no contact point to hold it); up to ``sweeps`` sweeps of all
    three, until one moves no joint. A correction that would take one of the two bodies (only)
    under those floors by over PROJECT_HELD m is made by the other alone (_held_depth; not with
    PROJECT_ANY_SIDE). Positions and rotations only (velocities are left as the solver made
    them). flags: the step's flags (PROJECT_TOUCH, PROJECT_ANY_SIDE). Returns how many joint
    corrections it made."""
    acted = 0
    floors = False
    touch_rule = (flags & PROJECT_TOUCH) != 0
    held_rule = (flags & PROJECT_ANY_SIDE) == 0
    for _sweep in range(sweeps):
        moved = 0
        for t in range(lj.shape[0]):
            j = lj[t]
            kind, a, b = _joint_bodies(ji, j)
            if kind == JOINT_FREE or not _active(bf, bi, a, b):
                continue
            pa, qa, pb, qb, fa, fb, ra, rb = _frames(bf, jf, j, a, b)
            cx, cy, cz = _point_gap(pa, ra, pb, rb)
            gap = math.sqrt(cx * cx + cy * cy + cz * cz)
            if not (gap > gap_max):
                continue
            dyn_a = _movable(bf, bi, a)
            dyn_b = _movable(bf, bi, b)
            if touch_rule:
                touch_a = dyn_a and si[a, SI_TOUCH] != 0
                touch_b = dyn_b and si[b, SI_TOUCH] != 0
                if touch_a and dyn_b and not touch_b:
                    dyn_a = False
                elif touch_b and dyn_a and not touch_a:
                    dyn_b = False
            if not (dyn_a or dyn_b):
                continue
            if not floors:  # the contacts' floors from the poses before anything moves
                _contact_floors(bf, bi, mf, mi, nm, floor)
                _plane_floors(bf, bi, planes, bfloor)
                floors = True
            zero = (0.0, 0.0, 0.0, 0.0, 0.0, 0.0, 0.0, 0.0, 0.0)
            ma = _inv_m(bf, a) if dyn_a else 0.0
            mb = _inv_m(bf, b) if dyn_b else 0.0
            ia = _inv_i(bf, a) if dyn_a else zero
            ib = _inv_i(bf, b) if dyn_b else zero
            s = 1.0 - PROJECT_TO / gap
            p = solve3(point_mass(ma, ia, ra, mb, ib, rb), (-s * cx, -s * cy, -s * cz))
            if dyn_a and dyn_b and held_rule:
                # a body the ground holds is not pushed into it: tried split by the masses, and
                # where that drives one body (only) under its floors, the other takes it all
                pose_a = _pose7(bf, a)
                pose_b = _pose7(bf, b)
                da = _held_depth(bf, bi, si, mf, mi, nm, floor, planes, bfloor, a)
                db = _held_depth(bf, bi, si, mf, mi, nm, floor, planes, bfloor, b)
                _move_body(bf, a, ma, ia, ra, p, -1.0)
                _move_body(bf, b, mb, ib, rb, p, 1.0)
                held_a = _held_depth(bf, bi, si, mf, mi, nm, floor, planes, bfloor, a) - da \
                    > PROJECT_HELD
                held_b = _held_depth(bf, bi, si, mf, mi, nm, floor, planes, bfloor, b) - db \
                    > PROJECT_HELD
                if held_a != held_b:
                    _set_pose7(bf, a, pose_a)
                    _set_pose7(bf, b, pose_b)
                    if held_a:
                        dyn_a = False
                        ma = 0.0
                        ia = zero
                    else:
                        dyn_b = False
                        mb = 0.0
                        ib = zero
                    p = solve3(point_mass(ma, ia, ra, mb, ib, rb), (-s * cx, -s * cy, -s * cz))
                    if dyn_a:
                        _move_body(bf, a, ma, ia, ra, p, -1.0)
                    if dyn_b:
                        _move_body(bf, b, mb, ib, rb, p, 1.0)
            else:
                if dyn_a:
                    _move_body(bf, a, ma, ia, ra, p, -1.0)
                if dyn_b:
                    _move_body(bf, b, mb, ib, rb, p, 1.0)
            bf[b if dyn_b else a, B_NETS + NET_PUSH] += 1.0
            moved += 1
        acted += moved
        if moved == 0:
            break
        if PROJECT_CONTACTS:
            _project_contacts(bf, bi, mf, mi, nm, floor)
        if PROJECT_PLANES:
            _project_planes(bf, bi, planes, bfloor)
    return acted
