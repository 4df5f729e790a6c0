"""Column layout of the physics world's structure-of-arrays tables.

Each table is one 2-D array, a row per slot, with named columns: float64 ``*_f`` tables and int64
``*_i`` tables. A kernel takes a handful of tables rather than dozens of arrays, and adding a
field is adding a column here. Module-level ints are compile-time constants inside numba.

Owners: bodies and contacts belong to the rigid-body core (``_kernels_step``, ``_kernels_contact*``,
``_kernels_collide``); joints and anchors to ``_kernels_joints`` / ``_kernels_anchors``.
Add columns at the end of a block and bump its ``*_COUNT``.
"""

# ---------------------------------------------------------------- bodies: float64 (cap, BF_COUNT)
B_POS = 0          # 0..2  world position of the centre of mass (m); current pose during sub-steps
B_QUAT = 3         # 3..6  world rotation (x, y, z, w)
B_V = 7            # 7..9  linear velocity (m/s)
B_W = 10           # 10..12 angular velocity (rad/s), world frame
B_INV_MASS = 13    # 1/kg (0 for static and kinematic)
B_INV_I = 14       # 14..16 inverse inertia, diagonal in the body frame (1/(kg·m²))
B_IW = 17          # 17..25 inverse inertia in the world frame, row-major 3x3 (once per step)
B_FORCE = 26       # 26..28 force accumulated for the next step (N)
B_TORQUE = 29      # 29..31 torque accumulated for the next step (N·m)
B_LIN_DAMP = 32    # linear damping (1/s)
B_ANG_DAMP = 33    # angular damping (1/s)
B_GRAV_SCALE = 34  # gravity scale
B_SLEEP_TIME = 35  # s the body has been slow enough to sleep
B_KIN_POS = 36     # 36..38 kinematic target position (m) for the next step
B_KIN_QUAT = 39    # 39..42 kinematic target rotation
B_DIMS = 43        # 43..45 shape dims (sphere: r; capsule: r, half segment; box: half extents)
B_FRICTION = 46    # friction coefficient
B_RESTITUTION = 47 # restitution
B_MASS = 48        # kg (0 for static and kinematic)
B_POS0 = 49        # 49..51 position at the start of the step (for contact separation updates)
B_QUAT0 = 52       # 52..55 rotation at the start of the step
B_RADIUS = 56      # bounding radius about the centre (m), for the broadphase
B_ROLLING = 57     # rolling resistance (dimensionless; torque cap = it · radius · normal force)
B_NETS = 58        # 58..61 the safety nets' actions on this body since it was made (counts, see
                   # NET_* and _kernels_step's docstring): written only by the thread that owns
                   # the body's island, so the counts are the same bits on any thread count
BF_COUNT = 62
NET_SPEED = 0      # its speed held to the world's cap (a sub-step or the step's end)
NET_SPIN = 1       # its spin held to a quarter turn a sub-step
NET_PUSH = 2       # a joint's push-out (point or limit) on it held to its cap
NET_RESET = 3      # put back where its step began, at rest: its pose or velocity went non-finite
NET_COUNT = 4

# ---------------------------------------------------------------- bodies: int64 (cap, BI_COUNT)
B_KIND = 0         # KIND_* below; KIND_FREE for an unused slot
B_SHAPE = 1        # SHAPE_* below
B_AWAKE = 2        # 1 awake, 0 asleep
B_GROUP = 3        # collision group bits (this body is in)
B_MASK = 4         # collision mask bits (it collides with)
B_ISLAND = 5       # island id of the last step (-1 none)
B_PARKED = 6       # 1: out of the world (no contacts, not integrated, costs nothing)
B_KIN_MOVE = 7     # 1: a kinematic target was set for the next step
B_GEN = 8          # generation of the slot, for stale-handle checks
BI_COUNT = 9

KIND_FREE = 0
KIND_STATIC = 1
KIND_KINEMATIC = 2
KIND_DYNAMIC = 3

SHAPE_SPHERE = 0
SHAPE_CAPSULE = 1   # segment along the body's local y axis
SHAPE_BOX = 2
SHAPE_PLANE = 3     # the ground: the body's local +y is the normal, through its position
SHAPE_CYLINDER = 4  # round log: axis along local y (radius, half height)

# ---------------------------------------------------------------- joints (owned by _kernels_joints)
# ji[:, J_KIND] == JOINT_FREE marks an unused slot. J_BODY_A / J_BODY_B are body slots (-1: world).
# A joint holds body B (the child) to body A (the parent). Each body carries a joint frame: a point
# (m, in the body's frame, from its centre of mass) and a rotation (body frame -> joint frame).
# The joint frame's x axis is the twist axis of a ball joint and the axis of a hinge; a ball's
# swing cone is centred on frame A's x axis, its ellipse half-angles about frame A's y and z axes.
# relQ = (qA*frameA)^-1 * (qB*frameB) is the joint's relative rotation (identity: frames aligned).
# Targets (spring, pose drive) are body-relative rotations qA^-1 * qB ("the bone's local rotation").
J_KIND = 0
J_BODY_A = 1
J_BODY_B = 2
J_DRIVE = 3        # DRIVE_* below: how the motor's target velocity is set each step
J_FLAGS = 4        # JFLAG_* bits
J_OWNER = 5        # ragdoll id that owns the joint (-1: none)
JI_COUNT = 6

JOINT_FREE = 0
JOINT_BALL = 1
JOINT_HINGE = 2

DRIVE_VELOCITY = 0  # the motor holds J_MOTOR_W (relative angular velocity, A's body frame)
DRIVE_POSE = 1      # toward J_TARGET: the gap closed in J_DRIVE_TIME, capped at J_DRIVE_MAX_W
DRIVE_AIM = 2       # toward the world rotation J_AIM for body B, from wherever A is

JFLAG_LIMITS = 1    # limits on
JFLAG_SPRING = 2    # spring on (J_SPRING_HZ > 0)

J_PA = 0           # 0..2   point on A (A's body frame, m from its centre of mass)
J_QA = 3           # 3..6   frame on A (rotation body A -> joint frame)
J_PB = 7           # 7..9   point on B
J_QB = 10          # 10..13 frame on B
J_TWIST_LO = 14    # rad: ball twist lower limit / hinge lower limit
J_TWIST_HI = 15    # rad: ball twist upper limit / hinge upper limit
J_SWING_Y = 16     # rad: cone half-angle of a swing about frame A's y axis (0 < a <= pi)
J_SWING_Z = 17     # rad: cone half-angle of a swing about frame A's z axis
J_HZ = 18          # Hz of the rigid parts when violated (point, limits, hinge lock)
J_ZETA = 19        # damping ratio of the rigid parts
J_FRICTION = 20    # N·m: joint friction (a motor toward zero velocity; only when motor budget 0)
J_SPRING_HZ = 21   # Hz of the spring toward J_TARGET (0: off)
J_SPRING_ZETA = 22 # damping ratio of the spring
J_SPRING_MAX = 23  # N·m: the spring's torque cap
J_TARGET = 24      # 24..27 target body-relative rotation qA^-1 qB (spring and pose drive)
J_MOTOR_MAX = 28   # N·m: the motor's torque budget (0: motor off)
J_MOTOR_W = 29     # 29..31 target relative angular velocity (rad/s, A's body frame) DRIVE_VELOCITY
J_DRIVE_TIME = 32  # s: the pose drive closes the gap in this time (0.05)
J_DRIVE_MAX_W = 33 # rad/s: the pose drive's speed cap (20)
J_DEADBAND = 34    # rad: within this of its target the pose drive brakes (target velocity 0)
J_AIM = 35         # 35..38 world rotation body B is aimed at (DRIVE_AIM)
# accumulated impulses (per sub-step, N·s and N·m·s), warm-started
J_L_POINT = 39     # 39..41
J_L_FRIC = 42      # 42..44 (hinge: first only)
J_L_SPRING = 45    # 45..47
J_L_MOTOR = 48     # 48..50
J_L_TLO = 51       # twist / hinge lower limit (>= 0)
J_L_THI = 52       # twist / hinge upper limit (>= 0)
J_L_SWING = 53     # swing cone (>= 0)
J_L_LOCK = 54      # 54..55 hinge's two locked axes
# per-step cache (prepare_joints)
J_RMASS = 56       # 56..64 (IA^-1 + IB^-1)^-1, world, row-major
J_WT = 65          # 65..67 world target relative angular velocity of the motor this step
J_SOFT = 68        # 68..70 bias rate, mass scale, impulse scale of the rigid parts
J_SSOFT = 71       # 71..73 the same for the spring
J_AX_T = 74        # 74..76 the twist/hinge axis (world) last used
J_AX_S = 77        # 77..79 the swing axis (world) last used
J_PY = 80          # 80..82 hinge lock rows (world) last used
J_PZ = 83          # 83..85
J_TARGET_ANGLE = 86  # hinge: J_TARGET as an angle about the hinge axis (rad)
J_H = 87           # s: the sub-step of the last step (for reading torques back)
J_SIN_Y = 88       # sin(J_SWING_Y / 2), once per step (the cone's ellipse in quaternion space)
J_SIN_Z = 89       # sin(J_SWING_Z / 2)
J_KINV = 90        # 90..98 the point's inverse effective mass K^-1 (once per step, row-major)
J_TARGET_PREV = 99 # 99..102 J_TARGET as the last step had it (the pose drive's feed-forward)
J_FEED = 103       # 1: the pose drive feeds its target's own turning forward (0: off; see
                   # _kernels_joints._drive_wt_fed)
JF_COUNT = 104

# ------------------------------------------------------------ anchors (owned by _kernels_anchors)
# ai[:, A_KIND] == ANCHOR_FREE marks an unused slot; A_BODY the body slot it holds.
A_KIND = 0
A_BODY = 1
A_OWNER = 2        # ragdoll id that owns the anchor (-1: none)
AI_COUNT = 3

ANCHOR_FREE = 0
ANCHOR_SPRING = 1   # position and orientation springs toward a target pose and velocity
ANCHOR_UPRIGHT = 2  # the body's up axis to world up, rigid within a torque cap; yaw free
ANCHOR_HEADING = 3  # the body's forward axis about world up toward a heading, within a cap

A_LOCAL = 0        # 0..2 point on the body (body frame, m from its centre of mass)
A_TPOS = 3         # 3..5 target position of that point (m)
A_TQUAT = 6        # 6..9 target rotation of the body
A_TV = 10          # 10..12 target velocity of the point (m/s)
A_TW = 13          # 13..15 target angular velocity (rad/s)
A_HZ = 16          # linear spring Hz (0: off) / upright and heading: Hz when violated
A_ZETA = 17        # linear damping ratio
A_AHZ = 18         # angular spring Hz (0: off)
A_AZETA = 19       # angular damping ratio
A_FMAX = 20        # N: force cap
A_TMAX = 21        # N·m: torque cap (spring, upright, heading)
A_AXIS = 22        # 22..24 upright: the body's up axis (body frame); heading: its forward axis
A_HEADING = 25     # rad: heading target, the angle of the forward axis about +y from +z
A_L_LIN = 26       # 26..28 accumulated linear impulse (N·s)
A_L_ANG = 29       # 29..31 accumulated angular impulse (N·m·s, world)
A_SOFT = 32        # 32..34 linear softness (bias rate, mass scale, impulse scale)
A_ASOFT = 35       # 35..37 angular softness
A_QAX = 38         # 38..41 upright: rotation body -> frame whose y is the up axis
A_H = 42           # s: sub-step of the last step
A_L_UP = 43        # 43..44 upright: accumulated impulses of its two rows (A_L_ANG: their world sum)
AF_COUNT = 45

# ------------------------------------------------------ contact manifolds (rigid-body core)
# One row per touching pair, rows sorted by M_KEY (= a << 32 | b, a < b) so that the next step
# matches its pairs to these by a merge. Body A is the lower slot. The normal points from A to B.
M_A = 0            # mi: body slot A
M_B = 1            # mi: body slot B
M_N = 2            # mi: points in use (0..4)
M_KEY = 3          # mi: pair key
M_ID = 4           # mi: 4..7 feature id of each point (warm starting)
MI_COUNT = 8

M_NORMAL = 0       # mf: 0..2 unit normal from A to B (world)
M_FRICTION = 3     # mf: mixed friction sqrt(muA muB)
M_RESTITUTION = 4  # mf: mixed restitution max(eA, eB)
M_BIAS = 5         # mf: softness bias rate (1/s) of this step
M_MSCALE = 6       # mf: softness mass scale
M_ISCALE = 7       # mf: softness impulse scale
M_T1 = 8           # mf: 8..10 first tangent
M_T2 = 11          # mf: 11..13 second tangent
M_FRA = 14         # mf: 14..16 friction anchor (the points' centroid) from A's centre (m, world)
M_FRB = 17         # mf: 17..19 friction anchor from B's centre
M_TMASS = 20       # mf: 20..22 inverse of the 2x2 tangent K at the anchor: (k11, k12, k22)
M_LT = 23          # mf: 23..24 accumulated friction impulse along M_T1, M_T2 (N·s per sub-step)
M_TWMASS = 25      # mf: twist (about the normal) effective mass (kg·m²)
M_LTW = 26         # mf: accumulated twist friction impulse (N·m·s per sub-step)
M_TWR = 27         # mf: twist friction lever (m): mean distance of the points from the anchor
M_LROLL = 28       # mf: 28..30 accumulated rolling resistance impulse (N·m·s per sub-step, world)
M_ROLL = 31        # mf: rolling resistance lever (m): max(cA, cB) · the round body's radius
M_P = 32           # mf: first point; point k starts at M_P + k*P_STRIDE
P_RA = 0           # 0..2 anchor on A relative to A's centre at the step's start (m, world)
P_RB = 3           # 3..5 anchor on B relative to B's centre
P_SEP = 6          # separation at collide (m); the solver adds n·(relative motion since)
P_NMASS = 7        # normal effective mass (kg)
P_LN = 8           # accumulated normal impulse (N·s, per sub-step)
P_MAXLN = 9        # largest normal impulse this step (restitution gate)
P_RELV = 10        # normal relative velocity at the step's start (m/s)
P_POINT = 11       # 11..13 world contact point at collide
P_STRIDE = 14
MF_COUNT = M_P + 4 * P_STRIDE

# ------------------------------------------------ per-body scratch of the step (rigid-body core)
SF_LO = 0          # sf: 0..2 AABB low corner (m), speculative extent included
SF_HI = 3          # sf: 3..5 AABB high corner
SF_EXT = 6         # sf: distance the body may move this step (m): speculative margin share
SF_KEY = 7         # sf: sort key of the sweep
SF_SLO = 8         # sf: 8..10 AABB low corner of the ii-th body in sweep order (contiguous)
SF_SHI = 11        # sf: 11..13 its high corner
SF_REACH = 14      # sf: the ground planes' margin (m): SF_EXT + what a drive may swing the body by
#                    in the step (dt · reach spin · its bounding diameter; _kernels_broadphase)
SF_COUNT = 15
SI_ORDER = 0       # si: sweep order (body slots)
SI_TMP = 1         # si: merge-sort scratch
SI_ACT = 2         # si: 2 moving (awake dynamic, moving kinematic), 1 asleep dynamic, 0 still
SI_PARENT = 3      # si: union-find parent (islands)
SI_PLANE = 4       # si: plane body slots
SI_TOUCH = 5       # si: 1 when the body has a contact manifold this step
SI_COUNT = 6
