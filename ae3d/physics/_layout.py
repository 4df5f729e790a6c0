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
B_DIMS = 43        # 43..45 shape dimensions (sphere: r; capsule: r, half segment; box: half extents)
B_FRICTION = 46    # friction coefficient
B_RESTITUTION = 47 # restitution
B_MASS = 48        # kg (0 for static and kinematic)
B_POS0 = 49        # 49..51 position at the start of the step (for contact separation updates)
B_QUAT0 = 52       # 52..55 rotation at the start of the step
B_RADIUS = 56      # bounding radius about the centre (m), for the broadphase
BF_COUNT = 57

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
J_KIND = 0
J_BODY_A = 1
J_BODY_B = 2
JI_COUNT = 3       # the joints work grows these
JF_COUNT = 1
JOINT_FREE = 0
JOINT_BALL = 1
JOINT_HINGE = 2

# ---------------------------------------------------------------- anchors (owned by _kernels_anchors)
# ai[:, A_KIND] == ANCHOR_FREE marks an unused slot; A_BODY the body slot it holds.
A_KIND = 0
A_BODY = 1
AI_COUNT = 2       # the joints work grows these
AF_COUNT = 1
ANCHOR_FREE = 0
