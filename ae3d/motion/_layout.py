"""Column layout of the motion's tables: every value a kernel reads or writes, named, with its unit
and its owner (as ``physics/_layout.py`` has the world's).

Four tables, a row per figure (``slot``), grown by doubling (``_service.Service``):

* ``ff`` float64 (cap, FF_COUNT) and ``fi`` int64 (cap, FI_COUNT): the figure's own values;
* ``pbf`` float64 (cap, MAXB, PBF_COUNT) and ``pbi`` int64 (cap, MAXB, PBI_COUNT): per figure per
  ragdoll bone (``human.BONE_*``; rows past the ragdoll's ``F_NBONES`` unused);
* ``rbf`` float64 (cap, rig bones, RBF_COUNT): per figure per rig bone, a dressed figure's drawing
  (the table's middle size grows to the largest rig dressed).

And one parameter row ``prm`` float64 (PRM_COUNT,): every behaviour's settings, packed once
(``_settings.pack``). Kernels take these tables, never loose arrays; module-level ints are
compile-time constants inside numba. Each block is marked with the file that owns it (writes it):
adding a behaviour adds a block here at the end of each table and bumps the ``*_COUNT``.

The mode ints (the values of ``F_MODE``) and their names are here too, once: the façade, the
kernels and the scene file's record all read them from this module.
"""

from ae3d import human

MAXB = human.BONE_COUNT_FEET   # the most bones a ragdoll has (the per-bone tables' middle size)

# ---------------------------------------------------------------- modes (the values of F_MODE)
ANIMATED = 0       # the animation drives: follow anchors and the joints' springs
POWERED = 1        # the muscles (the joints' motors) play the animation within their budgets
LIMP = 2           # a ragdoll: joint friction only
GETTING_UP = 3     # got to, not set (a later slice): drawn and driven as ANIMATED
ACTING = 4         # got to, not set (a later slice): drawn and driven as ANIMATED
MODE_NAMES = ("animated", "powered", "limp", "getting_up", "acting")   # index: the mode int
SETTABLE = (ANIMATED, POWERED, LIMP)      # what set_mode and the scene file's record take
FROM_ANIMATION = (ANIMATED, GETTING_UP, ACTING)   # drawn from the animation, bodies following it

# ---------------------------------------------------------------- figure: float64 (cap, FF_COUNT)
# owner _muscles.py
F_STRENGTH = 0     # the figure's strength, 0..1: scales every budget and the balance
F_RECOVERY = 1     # s: a blow's share of a muscle comes back over this
# owner _modes.py (the animation's pose; a dressed figure's is read from its rig, _pose.py)
F_ANIM_POS = 2     # 2..4 the animation's pelvis body position in the world (m)
F_ANIM_ROT = 5     # 5..8 the animation's pelvis body rotation in the world (x, y, z, w)
F_SPRING_HZ = 9    # Hz: the joints' springs while ANIMATED (the ragdoll's ``a``), critically damped
# owner _balance.py
F_LEAN = 10        # rad: the pelvis's up against the animation pelvis's up (after a step)
F_MAX_LEAN = 11    # rad: the most it has leant
F_LETGO = 12       # s left of a blow past the balance letting the upright anchor go
# owner _pose.py
F_BLEND_T = 13     # s into the drawing's hand-over blend (F_BLEND)
F_RIG_BLEND_T = 14 # s into the rig's hand-over blend (F_RIG_BLEND)
# owner _figures.py (held for later slices; no kernel reads them yet)
F_GET_UP = 15      # s lain still before getting up by itself (0: never)
# owner _hits.py
F_STRUCK_J = 16    # N·s: the strongest strike by a body this step (F_STRUCK_BONE >= 0)
# owner _fall.py
F_FALL_DIR = 17    # 17..19 the way of the fall: the pelvis's up over the ground, unit (world)
# owner _landing.py
F_HOLD = 20        # share of each budget the held shape is kept on (0: no shape held)
F_STILL_T = 21     # s the trunk (pelvis and chest) has been still (slower than still_speed)
# owner _wound.py (the hand to the wound, #698)
F_WOUND_T = 22     # s left of the wound held (answered while > 0)
F_WOUND_SHARE = 23 # 0..1: the share of the struck bone's muscle the blow took
F_WOUND_P = 24     # 24..26 the point struck, in the struck bone's body frame (m)
F_WOUND_N = 27     # 27..29 its outward way from the bone's axis, in that frame (unit)
F_WOUND_V0 = 30    # 30..32 the centre of mass velocity before the blow (m/s, world)
# owner _writhe.py (down and hurt, a POWERED figure writhes)
F_WRITHE_S = 33    # s it writhes for once landed (set_writhing; 0: it doesn't)
F_WRITHE_T = 34    # s since it started writhing
FF_COUNT = 35

# ---------------------------------------------------------------- figure: int64 (cap, FI_COUNT)
# owner _service.py
F_ALIVE = 0        # 1 in use; 0 free, or dropped (its ragdoll was destroyed under it)
F_STEPPED = 1      # 1 stepped by the engine's phases (attach); 0 by the program (motion_step)
F_OWNER = 2        # the physics ragdoll's id (its joints' J_OWNER): a stale row is told by it
F_NBONES = 3       # the ragdoll's bone count (<= MAXB)
F_GEN = 4          # generation of the row, for stale-handle checks (bumped when freed)
# owner _modes.py
F_MODE = 5         # ANIMATED, POWERED, LIMP, GETTING_UP or ACTING
F_HAS_PREV = 6     # 1: PB_PREV_* hold the animation's bodies of the step before
F_RESUME = 7       # the mode a figure getting up or acting goes back to (the record's mode)
# owner _balance.py
F_UPRIGHT = 8      # the pelvis's upright anchor slot (physics anchors)
F_HEADING = 9      # the heading hold's anchor slot
F_FALLING = 10     # 1 while a POWERED figure leans past the falling lean (until caught)
# owner _pose.py
F_BLEND = 11       # the drawing's hand-over: BLEND_NONE, BLEND_FADE or BLEND_TO_ANIMATION
F_SHOWN = 12       # 1: PB_DRAWN_* hold the pose shown
F_RIG_BLEND = 13   # the rig's hand-over, as F_BLEND
F_RIG_OWNED = 14   # 1: the rig holds the bodies' pose (restored to the animation's when ANIMATED)
F_DRESS = 15       # the figure's index in the service's dressed rigs (-1: no rig)
F_RIG_BONES = 16   # the rig's bone count (rows of rbf in use)
# owner _figures.py
F_PROTECTIVE = 17  # 1: a falling figure protects itself (the protective fall is a later slice)
# owner _hits.py
F_STRUCK_BONE = 18 # the bone struck hardest by a body this step (-1: none)
# owner _fall.py
F_AIMED = 19       # 1 while the protective fall's aims are set on the joints
# owner _landing.py
F_LAND = 20        # LAND_NONE, LAND_DOWN (landed, 40 %), LAND_CAUGHT (full strength, balanced)
F_LAND_N = 21      # steps the landing's lean and pelvis have held
F_LYING = 22       # 1: landed and still (lying(body))
F_SHAPE_NEW = 23   # 1: the shape to hold is taken at the next pre_step (landed this step)
# owner _wound.py (the hand to the wound, #698)
F_WOUND_OFF = 24   # 1: set_hit_reaction(body, False) (0, the default: blows are answered)
F_WOUND = 25       # WOUND_NONE, WOUND_JUDGED (the blow's throw judged after its step), WOUND_HELD
F_WOUND_BONE = 26  # the bone struck (while F_WOUND != WOUND_NONE)
F_WOUND_HAND = 27  # the arm that comes to it: 0 left, 1 right, -1 none (a fold or a knee only)
F_WOUND_AIMED = 28 # 1 while the wound's aims are set on the joints
# owner _writhe.py
F_WRITHE = 29      # WRITHE_NONE, _ON (writhing), _DONE (over: lies still), _DOWN (let go)
F_WRITHE_FACE = 30 # 1: it lies face down (decided as it starts)
F_STRUCK_LAST = 31 # the bone a hit struck last (-1: none; _wound.wounded writes it)
FI_COUNT = 32

# writhing's states (F_WRITHE)
WRITHE_NONE = 0
WRITHE_ON = 1
WRITHE_DONE = 2
WRITHE_DOWN = 3    # caught on hands and knees, let go: it writhes once it lies

# the wound's states (F_WOUND)
WOUND_NONE = 0
WOUND_JUDGED = 1   # struck this step: answered only if the body keeps under wound_throws after it
WOUND_HELD = 2     # the hand on the wound, the spine folded or the knee bent

# the landing's states (F_LAND)
LAND_NONE = 0
LAND_DOWN = 1      # down: the reach stopped, the balance let go, the shape held on 40 %
LAND_CAUGHT = 2    # caught on hands and knees or sitting: the shape held at full, balance kept

# the hand-overs' blends (F_BLEND, F_RIG_BLEND)
BLEND_NONE = 0
BLEND_FADE = 1          # into POWERED/LIMP: the pose shown kept as an offset that fades (#581)
BLEND_TO_ANIMATION = 2  # POWERED/LIMP -> ANIMATED: from the pose shown to the animation's

# ---------------------------------------------------------------- per bone: float64 (cap, MAXB, ..)
# owner _muscles.py
PB_FULL = 0        # N·m: the joint's full budget (the ragdoll's, at strength 1)
PB_LOSS = 1        # 0..1: the share of the muscle a blow took
PB_LRATE = 2       # 1/s: how fast that share comes back
# owner _modes.py (the animation's pose; _pose.py reads a rig into it)
PB_TARGET = 3      # 3..6 the joint's target, body-relative (qparent^-1 qbone); row 0 unused
PB_PREV_P = 7      # 7..9 the animation's body position (m) the step before (follow velocities)
PB_PREV_Q = 10     # 10..13 its rotation
# owner _pose.py (the pose drawn, local: row 0 the pelvis's world pose, the rest body-relative)
PB_DRAWN_Q = 14    # 14..17 rotation drawn
PB_DRAWN_T = 18    # 18..20 translation drawn (m; row 0 only, the others 0)
PB_OFF_A = 21      # rad: the fading offset's angle at the hand-over (BLEND_FADE)
PB_OFF_D = 22      # m: its distance
PB_FROM_Q = 23     # 23..26 the pose blended from (BLEND_TO_ANIMATION)
PB_FROM_T = 27     # 27..29
# owner _landing.py
PB_HELD_Q = 30     # 30..33 the shape held once landed: the joint's body-relative rotation
# owner _wound.py
PB_REACH_D = 34    # 34..36 an arm bone's aimed way toward the wound, in the chest's frame (unit)
# owner _writhe.py
PB_REST_Q = 37     # 37..40 the joint's rest place under its parent (body-relative, the ragdoll's)
PBF_COUNT = 41

# ---------------------------------------------------------------- per bone: int64 (cap, MAXB, ..)
# owner _service.py
PB_JOINT = 0       # the physics joint slot of the bone (to its parent; row 0 unused)
PB_BODY = 1        # the physics body slot of the bone
# owner _modes.py
PB_FOLLOW = 2      # the follow anchor's slot while ANIMATED (-1 none)
PBI_COUNT = 3

# ---------------------------------------------------------------- per rig bone: float64 (cap, R..)
# owner _pose.py: a dressed figure's rig drawing (the rig's local pose, per rig bone)
RB_Q = 0           # 0..3 the rig's local rotation drawn last (BLEND_FADE fades it)
RB_T = 4           # 4..6 its local translation (m)
RB_OFF_A = 7       # rad: the fading offset's angle at the hand-over
RB_OFF_D = 8       # m: its distance
RB_FROM_Q = 9      # 9..12 the rig's pose blended from (BLEND_TO_ANIMATION)
RB_FROM_T = 13     # 13..15
RBF_COUNT = 16

# ---------------------------------------------------------------- the parameter row (PRM_COUNT,)
# Each behaviour's settings (its frozen dataclass, with units and reasons) packed by _settings.py.
# owner _modes.py
S_BLEND_TIME = 0       # s
S_TELEPORT_SPEED = 1   # m/s
S_TELEPORT_SPIN = 2    # rad/s
# owner _muscles.py
S_RECOVERY = 3         # s (a new figure's F_RECOVERY)
S_DRIVE_TIME = 4       # s
S_DRIVE_MAX_W = 5      # rad/s
# owner _balance.py
S_BALANCE_TORQUE = 6   # N·m
S_HEADING_TORQUE = 7   # N·m
S_FALL_LEAN = 8        # rad
S_CAUGHT_LEAN = 9      # rad
S_FALL_BRAKE = 10      # share of the balance's cap
S_LETGO_TIME = 11      # s
# owner _hits.py
S_HIT_SPEED = 12       # m/s
S_HIT_CAP = 13         # share
S_BLOW_OVERCOMES = 14  # m/s
S_STRUCK_SPEED = 15    # m/s
# owner _fall.py
S_REACH_DOWN = 16      # share: the reach's downward part against 1 along the fall
S_REACH_OUT = 17       # share: its part out to the arm's side
S_TUCK = 18            # rad: the head turned away from the fall
S_KNEE_GIVE = 19       # rad: the knees toward their bend
S_SPINE_BEND = 20      # rad: each spine joint away from a fall backwards
S_BACKWARDS = 21       # cosine: the fall is backwards when its way . the figure's back > this
S_FALL_ASSIST = 30     # share of the balance's cap a protective figure keeps while it falls
# owner _landing.py
S_LAND_LEAN = 22       # rad
S_LAND_DROP = 23       # m
S_LAND_STEPS = 24      # steps
S_HOLD_SHARE = 25      # share
S_HOLD_BRAKE = 26      # rad
S_STILL_SPEED = 27     # m/s
S_LIE_STEPS = 28       # steps
S_CAUGHT_STILL = 29    # s
# owner _wound.py
S_WOUND_HOLD = 31      # s
S_WOUND_MIN_SHARE = 32 # share
S_WOUND_THROWS = 33    # m/s
S_WOUND_TURN = 34      # rad/s
S_WOUND_FOLD = 35      # rad
S_WOUND_KNEE = 36      # rad
S_WOUND_WEAK = 37      # share
S_WOUND_POLE_OUT = 38  # share
S_WOUND_POLE_BEHIND = 39 # share
# owner _writhe.py
S_WR_LEG_PERIOD = 40   # s
S_WR_HIP = 41          # rad
S_WR_KNEE = 42         # rad
S_WR_SHOULDER_FWD = 43 # rad
S_WR_SHOULDER_IN = 44  # rad
S_WR_ELBOW = 45        # rad
S_WR_ROCK = 46         # rad
S_WR_ROCK_PERIOD = 47  # s
S_WR_REST_SHARE = 48   # share
S_WR_FACE_HIP = 49     # rad
S_WR_FACE_KNEE = 50    # rad
S_WR_FACE_ARMS = 51    # share
PRM_COUNT = 52
