"""Humanoid constants: bones, their frames, the segment table, joint ranges and torque budgets.

The reference ragdoll (``physics.ragdoll``) is built from this module alone, so a controller can
read every fact about a bone here instead of guessing it from a body.

World and figure conventions (SI units, radians; Y up, as glTF):

* The figure is built standing, its feet on y = 0, facing +Z. Its LEFT is +X (facing +Z with Y up,
  +X is on the figure's left hand side), its right is -X.
* Every bone is one capsule body. A capsule's segment runs along its body's local **y** axis (the
  physics world's capsule convention).
* ``BONE_REST_QUAT[b]`` is the body's world rotation when standing (x, y, z, w). Limbs, spine
  ends and neck rest **unrotated** (identity): their local +y points up the world, +z forward,
  +x to the figure's left. The trunk's wide bones (pelvis, lower back, chest) are lateral
  capsules: they rest a quarter turn about +Z, so their local +x points UP, local +y to the
  figure's RIGHT (-X) and local +z forward. The feet rest a quarter turn about +X: local +y points
  forward (+Z), local -z up, +x left.
* For every bone, three local unit vectors say the rest: ``BONE_UP_LOCAL`` (the body axis that
  points up in the standing pose), ``BONE_FORWARD_LOCAL`` (the body axis that points the way the
  figure faces) and ``BONE_ALONG_LOCAL`` (from the bone's joint toward its far end: down a leg or
  an arm, up the spine and neck, forward along a foot; for the pelvis, the root, up). The pelvis's
  up is local +x and its forward local +z: read those, never its +y.

Numbers: an adult man of 1.80 m and 78 kg (``HEIGHT``, ``MASS``). Segment masses are the mean of
Winter's table (Winter, *Biomechanics and Motor Control of Human Movement*, 4th ed., Table 4.1,
Dempster's data) and de Leva's (1996, *J Biomech* 29:1223, male), as fractions of body mass:
``SEGMENT_TABLE = WINTER_DE_LEVA_MEAN``. Lengths follow Drillis & Contini's fractions of height
(Winter Fig. 4.1). Torque budgets are the spec's (an adult's peak joint torques, round); the
ankles' 130 N·m is the young-male plantarflexion peak of Anderson, Madigan & Nussbaum 2007
(J Biomech 40:3105, Table 3) at 78 kg and 1.8 m: it lets both ankles (65 each) carry the centre of
mass over the toes (about 150 N·m together), which a standing figure needs and no more.
"""

from __future__ import annotations

import math

# ------------------------------------------------------------------------------ bones
BONE_PELVIS = 0
BONE_SPINE_01 = 1      # the lower back (lumbar)
BONE_SPINE_03 = 2      # the chest
BONE_NECK = 3          # the neck and head, one capsule
BONE_UPPERARM_L = 4
BONE_LOWERARM_L = 5    # its capsule reaches the hand
BONE_UPPERARM_R = 6
BONE_LOWERARM_R = 7
BONE_THIGH_L = 8
BONE_CALF_L = 9
BONE_THIGH_R = 10
BONE_CALF_R = 11
BONE_FOOT_L = 12       # only with physics.set_ankles(e, True) / AE3D_ANKLES=1
BONE_FOOT_R = 13
BONE_COUNT = 12        # the reference ragdoll without feet
BONE_COUNT_FEET = 14   # with feet

BONE_NAMES = (
    "pelvis", "spine_01", "spine_03", "neck",
    "upperarm_l", "lowerarm_l", "upperarm_r", "lowerarm_r",
    "thigh_l", "calf_l", "thigh_r", "calf_r",
    "foot_l", "foot_r",
)

# the parent of each bone (-1: the root); the joint of bone b joins it to BONE_PARENT[b]
BONE_PARENT = (-1, BONE_PELVIS, BONE_SPINE_01, BONE_SPINE_03,
               BONE_SPINE_03, BONE_UPPERARM_L, BONE_SPINE_03, BONE_UPPERARM_R,
               BONE_PELVIS, BONE_THIGH_L, BONE_PELVIS, BONE_THIGH_R,
               BONE_CALF_L, BONE_CALF_R)

# body parts (groups of bones a blow or a strength acts on)
PART_TRUNK = (BONE_PELVIS, BONE_SPINE_01, BONE_SPINE_03)
PART_HEAD = (BONE_NECK,)
PART_ARM_L = (BONE_UPPERARM_L, BONE_LOWERARM_L)
PART_ARM_R = (BONE_UPPERARM_R, BONE_LOWERARM_R)
PART_LEG_L = (BONE_THIGH_L, BONE_CALF_L, BONE_FOOT_L)
PART_LEG_R = (BONE_THIGH_R, BONE_CALF_R, BONE_FOOT_R)

# ------------------------------------------------------------------------------ size and mass
HEIGHT = 1.80   # m
MASS = 78.0     # kg

# fractions of body mass: (Winter 1990 / Dempster, de Leva 1996 male); the mean is used
WINTER_DE_LEVA_MEAN = {
    "pelvis": (0.142, 0.1117),
    "spine_01": (0.139, 0.1633),
    "spine_03": (0.216, 0.1596),
    "neck": (0.081, 0.0694),          # head and neck
    "upperarm": (0.028, 0.0271),
    "lowerarm": (0.022, 0.0223),      # forearm and hand
    "thigh": (0.100, 0.1416),
    "calf": (0.0465, 0.0433),
    "foot": (0.0145, 0.0137),
}
SEGMENT_TABLE = WINTER_DE_LEVA_MEAN


def segment_mass(segment: str, mass: float = MASS) -> float:
    """kg of a segment of a body of ``mass`` kg: the mean of Winter's and de Leva's fractions."""
    a, b = SEGMENT_TABLE[segment]
    return 0.5 * (a + b) * mass


def _bone_segment(b: int) -> str:
    n = BONE_NAMES[b]
    return n[:-2] if n.endswith(("_l", "_r")) else n


# ------------------------------------------------------------------------------ rest geometry
# Landmark heights (m) of the 1.8 m figure standing (Drillis & Contini fractions of height):
ANKLE_Y = 0.08         # ankle joint (with feet)
KNEE_Y = 0.51          # 0.285 H
HIP_Y = 0.93           # hip joint centre, a little under the greater trochanter (0.530 H)
HIP_X = 0.09           # hip joints at x = +-0.09 (hip width 0.191 H between trochanters)
LUMBAR_Y = 1.06        # L4/L5: pelvis to lower back
CHEST_Y = 1.25         # T12: lower back to chest
NECK_Y = 1.50          # C7: chest to neck
SHOULDER_Y = 1.44      # shoulder joints (0.818 H is the acromion, 1.47)
SHOULDER_X = 0.22
ELBOW_Y = 1.13         # 0.630 H
HAND_END_Y = 0.70      # fingertips of the hanging arm
HEAD_TOP_Y = 1.80

_QI = (0.0, 0.0, 0.0, 1.0)
_S2 = math.sqrt(0.5)
_QZ90 = (0.0, 0.0, _S2, _S2)   # quarter turn about +Z: local +x -> up, local +y -> -X (right)
_QX90 = (_S2, 0.0, 0.0, _S2)   # quarter turn about +X: local +y -> +Z (forward), local +z -> -Y

# (centre x, y, z) m, rest rotation, capsule (radius, half segment) m
# The capsule's caps overhang its joints, which jointed neighbours may overlap (they never
# collide); unjointed neighbours are kept apart at rest.
_CALF_R_NOFEET = 0.055
_BONES = {
    BONE_PELVIS: ((0.0, 0.98, 0.0), _QZ90, (0.10, 0.07)),
    BONE_SPINE_01: ((0.0, 1.15, 0.0), _QZ90, (0.11, 0.05)),
    BONE_SPINE_03: ((0.0, 1.36, 0.0), _QZ90, (0.13, 0.08)),
    BONE_NECK: ((0.0, 1.615, 0.0), _QI, (0.10, 0.085)),
    BONE_UPPERARM_L: ((SHOULDER_X, 0.5 * (SHOULDER_Y + ELBOW_Y), 0.0), _QI,
                      (0.045, 0.5 * (SHOULDER_Y - ELBOW_Y))),
    BONE_LOWERARM_L: ((SHOULDER_X, 0.5 * (ELBOW_Y + HAND_END_Y + 0.04), 0.0), _QI,
                      (0.04, 0.5 * (ELBOW_Y - HAND_END_Y - 0.04))),
    BONE_THIGH_L: ((HIP_X, 0.5 * (HIP_Y + KNEE_Y), 0.0), _QI, (0.07, 0.5 * (HIP_Y - KNEE_Y))),
    # without feet the calf's capsule reaches the ground (its foot's mass merged into it)
    BONE_CALF_L: ((HIP_X, _CALF_R_NOFEET + 0.5 * (KNEE_Y - _CALF_R_NOFEET), 0.0), _QI,
                  (_CALF_R_NOFEET, 0.5 * (KNEE_Y - _CALF_R_NOFEET))),
}
# with feet: the calf ends at the ankle, the foot a capsule along +Z under it
_CALF_FEET = ((HIP_X, 0.5 * (KNEE_Y + ANKLE_Y), 0.0), _QI, (0.05, 0.5 * (KNEE_Y - ANKLE_Y)))
_FOOT = ((HIP_X, 0.04, 0.05), _QX90, (0.04, 0.09))


def _mirror(spec):
    (x, y, z), q, dims = spec
    return (-x, y, z), q, dims


_BONES[BONE_UPPERARM_R] = _mirror(_BONES[BONE_UPPERARM_L])
_BONES[BONE_LOWERARM_R] = _mirror(_BONES[BONE_LOWERARM_L])
_BONES[BONE_THIGH_R] = _mirror(_BONES[BONE_THIGH_L])
_BONES[BONE_CALF_R] = _mirror(_BONES[BONE_CALF_L])

BONE_REST_QUAT = tuple(_BONES[b][1] for b in range(BONE_COUNT)) + (_QX90, _QX90)
_Y = (0.0, 1.0, 0.0)
_X = (1.0, 0.0, 0.0)
_Z = (0.0, 0.0, 1.0)
_MY = (0.0, -1.0, 0.0)
_MZ = (0.0, 0.0, -1.0)
BONE_UP_LOCAL = (_X, _X, _X, _Y, _Y, _Y, _Y, _Y, _Y, _Y, _Y, _Y, _MZ, _MZ)
BONE_FORWARD_LOCAL = (_Z,) * 12 + (_Y, _Y)
BONE_ALONG_LOCAL = (_X, _X, _X, _Y, _MY, _MY, _MY, _MY, _MY, _MY, _MY, _MY, _Y, _Y)


def bone_rest(b: int, feet: bool = False):
    """((x, y, z) centre m, (x, y, z, w) rotation, (radius, half segment) m) of bone b at rest."""
    if b in (BONE_FOOT_L, BONE_FOOT_R):
        if not feet:
            raise ValueError("the feet exist only on a ragdoll with ankles")
        spec = _FOOT if b == BONE_FOOT_L else _mirror(_FOOT)
        return spec
    if feet and b in (BONE_CALF_L, BONE_CALF_R):
        return _CALF_FEET if b == BONE_CALF_L else _mirror(_CALF_FEET)
    return _BONES[b]


def bone_mass(b: int, feet: bool = False, mass: float = MASS) -> float:
    """kg of bone b: its segment's share; without feet the calves carry the feet's mass."""
    seg = _bone_segment(b)
    m = segment_mass(seg, mass)
    if seg == "calf" and not feet:
        m += segment_mass("foot", mass)
    return m


# ------------------------------------------------------------------------------ joints
JOINT_KIND_BALL = 1
JOINT_KIND_HINGE = 2

# Each joint is the joint of its child bone. Ball joints: the cone's centre (world direction at
# rest, from the joint), the axis its frame's z is built from (world), the half-angles of the
# ellipse about the frame's y and z axes (rad) and the twist range about the child bone (rad).
# Frame A: x = cone centre, z = the reference axis made perpendicular, y = z x x. The child's
# twist axis is the bone's rest direction (BONE_ALONG); the cone need not be centred on it.
# Hinges: the world axis, and the range (rad) of the turn of the child about it from rest.
_D = math.radians


def _dir(*v):
    n = math.sqrt(sum(c * c for c in v))
    return tuple(c / n for c in v)


def _tilt(base, toward, deg):
    """Unit vector: ``base`` turned ``deg`` toward ``toward`` (both unit, perpendicular)."""
    c, s = math.cos(_D(deg)), math.sin(_D(deg))
    return _dir(*(b * c + t * s for b, t in zip(base, toward, strict=True)))


# anatomical ranges (ragdoll-notes.md section 3): a person's, narrowed only where a cone can't
# hold them. The sagittal half-angle is a swing about the frame's z (lateral) axis.
JOINTS = {
    # lumbar: flexion 40, extension 25 -> centre 7.5 forward, half 32.5; side bend 20; twist 15
    BONE_SPINE_01: dict(kind=JOINT_KIND_BALL, point=(0.0, LUMBAR_Y, 0.0),
                        centre=_tilt(_Y, _Z, 7.5), ref=_X,
                        half_y=_D(20.0), half_z=_D(32.5), twist=(_D(-15.0), _D(15.0))),
    # thoracic: flexion 35, extension 25 -> centre 5 forward, half 30; side bend 20; twist 25
    BONE_SPINE_03: dict(kind=JOINT_KIND_BALL, point=(0.0, CHEST_Y, 0.0),
                        centre=_tilt(_Y, _Z, 5.0), ref=_X,
                        half_y=_D(20.0), half_z=_D(30.0), twist=(_D(-25.0), _D(25.0))),
    # neck: flexion 50, extension 60 -> centre 5 back, half 55; lateral 45; rotation 60
    BONE_NECK: dict(kind=JOINT_KIND_BALL, point=(0.0, NECK_Y, 0.0),
                    centre=_tilt(_Y, _MZ, 5.0), ref=_X,
                    half_y=_D(45.0), half_z=_D(55.0), twist=(_D(-60.0), _D(60.0))),
    # shoulder: a cone centred out, forward and 45 below level (the arm hangs 45 inside it);
    # half 95 about both axes: flexion to above level, extension 50, across the chest 60
    BONE_UPPERARM_L: dict(kind=JOINT_KIND_BALL, point=(SHOULDER_X, SHOULDER_Y, 0.0),
                          centre=_dir(0.5, -_S2, 0.5), ref=_Y,
                          half_y=_D(95.0), half_z=_D(95.0), twist=(_D(-60.0), _D(60.0))),
    # hip: flexion 120, extension 30 (a person's, ragdoll-notes §3; 20 was narrower than needed)
    # -> centre 45 forward of down, sagittal half 75; abduction 45, adduction 30 -> 7.5 out,
    # frontal half 37.5; rotation 40 each way
    BONE_THIGH_L: dict(kind=JOINT_KIND_BALL, point=(HIP_X, HIP_Y, 0.0),
                       centre=_dir(math.sin(_D(7.5)), -math.cos(_D(45.0)), math.sin(_D(45.0))),
                       ref=_X, half_y=_D(37.5), half_z=_D(75.0), twist=(_D(-40.0), _D(40.0))),
    # knee: straight to 2.3 rad (130 degrees) and never past straight; + flexion moves the foot
    # back (a turn about +X)
    BONE_CALF_L: dict(kind=JOINT_KIND_HINGE, point=(HIP_X, KNEE_Y, 0.0), axis=_X,
                      range=(0.0, 2.3)),
    # elbow: straight to 150 degrees; + flexion brings the hand forward (a turn about -X)
    BONE_LOWERARM_L: dict(kind=JOINT_KIND_HINGE, point=(SHOULDER_X, ELBOW_Y, 0.0),
                          axis=(-1.0, 0.0, 0.0), range=(0.0, _D(150.0))),
    # ankle: plantarflexion 50 (-), dorsiflexion 20 (+: toes up, a turn about -X)
    BONE_FOOT_L: dict(kind=JOINT_KIND_HINGE, point=(HIP_X, ANKLE_Y, 0.0),
                      axis=(-1.0, 0.0, 0.0), range=(_D(-50.0), _D(20.0))),
}


def _mirror_joint(spec):
    s = dict(spec)
    s["point"] = (-spec["point"][0],) + tuple(spec["point"][1:])
    if spec["kind"] == JOINT_KIND_BALL:
        c = spec["centre"]
        s["centre"] = (-c[0], c[1], c[2])
        # mirrored twist: a turn about the bone mirrors to the opposite turn
        lo, hi = spec["twist"]
        s["twist"] = (-hi, -lo)
    return s


JOINTS[BONE_UPPERARM_R] = _mirror_joint(JOINTS[BONE_UPPERARM_L])
JOINTS[BONE_LOWERARM_R] = _mirror_joint(JOINTS[BONE_LOWERARM_L])
JOINTS[BONE_THIGH_R] = _mirror_joint(JOINTS[BONE_THIGH_L])
JOINTS[BONE_CALF_R] = _mirror_joint(JOINTS[BONE_CALF_L])
JOINTS[BONE_FOOT_R] = _mirror_joint(JOINTS[BONE_FOOT_L])
KNEE_RANGE = JOINTS[BONE_CALF_L]["range"]     # rad
ELBOW_RANGE = JOINTS[BONE_LOWERARM_L]["range"]
ANKLE_RANGE = JOINTS[BONE_FOOT_L]["range"]

# ------------------------------------------------------------------------------ budgets (N·m)
BUDGET_HIP = 300.0
BUDGET_KNEE = 250.0
BUDGET_SPINE = 250.0      # lower back and chest
BUDGET_SHOULDER = 80.0
BUDGET_ELBOW = 60.0
BUDGET_NECK = 40.0
BUDGET_ANKLE = 130.0      # A07 plantarflexion peak at 78 kg, 1.8 m (see the module docstring)

BUDGETS = (
    0.0,               # pelvis: no joint (its balance is the upright anchor)
    BUDGET_SPINE, BUDGET_SPINE, BUDGET_NECK,
    BUDGET_SHOULDER, BUDGET_ELBOW, BUDGET_SHOULDER, BUDGET_ELBOW,
    BUDGET_HIP, BUDGET_KNEE, BUDGET_HIP, BUDGET_KNEE,
    BUDGET_ANKLE, BUDGET_ANKLE,
)
# Joint friction (N·m) of a figure at full strength: a tenth of the budget (a motor toward zero
# relative speed, acting while the motor is off); a limp part keeps a tenth of it.
FRICTION_SHARE = 0.1
LIMP_FRICTION_SHARE = 0.1
FRICTION = tuple(FRICTION_SHARE * b for b in BUDGETS)

# ------------------------------------------------------------------------------ balance
# N·m: the pelvis's upright anchor (spec: measured; 600 failed, 2,500 could not be felled)
BALANCE_TORQUE = 1200.0
HEADING_TORQUE = 60.0     # N·m: the heading hold (840 N on a sole at friction 0.9, over 8 cm)
DRIVE_TIME = 0.05         # s: a muscle closes the gap to its pose in this
DRIVE_MAX_SPEED = 20.0    # rad/s: and no faster
HOLD_BRAKE = 0.02         # rad: a held shape brakes within this rather than chase it
PLANT_HZ = 30.0           # a planted foot's anchor

# The pelvis body's rotational inertia is its capsule's times this (its mass is unchanged): a
# parent's inertia raised toward what hangs on it, as Havok's and Jolt's ragdoll stabilisation
# does (Strunk, "Stop my Constraints from Blowing Up!"; Jolt's RagdollSettings::Stabilize caps
# its raise at 2x). The pelvis carries the balance (the upright anchor) and the hips' and lower
# back's motors, and each of those rows sees the pelvis's own inertia (0.09 kg m^2 about a level
# axis) where the sway it must stop is the body's above the feet. With its capsule's inertia a
# POWERED box man on its Idle rocked over its feet (0.45 rad/s on average, the hips chattering
# at their 300 N·m cap) and a shove never settled (5.5 deg off its pose 3 s on). Measured, the
# pelvis's inertia times: 4 on every bone 0.14 rad/s, 0.73 deg; 5 on the pelvis alone 0.11 rad/s,
# 0.44 deg; 10, 25 and 50 on the pelvis alone 0.021 rad/s and 0.076 deg, which is the Idle's own
# motion and the lag behind it (the legs' inertia times 10 instead: 0.29 rad/s, 2.9 deg). 20
# leaves twice the least that held: 1.8 kg m^2, a third of the trunk's inertia about the pelvis.
# The whole figure's inertia about its centre of mass grows by about a tenth, so falls hardly
# change; a limp pelvis turns more slowly against its legs.
PELVIS_INERTIA_SCALE = 20.0

__all__ = [n for n in dir() if n.isupper() and not n.startswith("_")] + [
    "segment_mass", "bone_rest", "bone_mass"]
