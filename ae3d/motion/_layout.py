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
GETTING_UP = 3     # got to, not set (get_up, _get_up.py): drawn and driven as ANIMATED
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
# owner _stepping.py
F_CP = 22          # 22..24 the capture point (world, m; y the ground under it)
F_STEP_T = 25      # s into the stepping's phase (F_STEP_PHASE)
F_STEP_SPOT = 26   # 26..28 where the swinging foot goes (world, m)
F_PLANT = 29       # 29..34 each foot's planted spot while stepping (left 29..31, right 32..34; m)
F_STEP_BEND = 35   # rad: the trunk's bend forward over the hips stepping back (at the chest)
F_STEP_DUR = 36    # s: how long the step under way takes
# owner _get_up.py (the ways up; the keyed ways' machinery is _keyed.py)
F_GU_T = 37        # s into the way up (GETTING_UP)
F_GU_STILL_T = 38  # s lain still (the pelvis under still_move a step for still_steps steps)
F_GU_PREV = 39     # 39..41 the pelvis body's position the step before (m)
F_GU_MOVE = 42     # 42 the last key's turn about +Y (rad); 43..45 its move (m): x' = R x + t
F_GU_KEY_P = 46    # 46..54 keys 0..2: the pelvis body's position (m)
F_GU_BASE_P = 55   # 55..57 the animation's pelvis position, kept (a figure without a rig)
F_GU_BASE_Q = 58   # 58..61 its rotation
# owner _wound.py (the hand to the wound, #698)
F_WOUND_T = 62     # s left of the wound held (answered while > 0)
F_WOUND_SHARE = 63 # 0..1: the share of the struck bone's muscle the blow took
F_WOUND_P = 64     # 64..66 the point struck, in the struck bone's body frame (m)
F_WOUND_N = 67     # 67..69 its outward way from the bone's axis, in that frame (unit)
F_WOUND_V0 = 70    # 70..72 the centre of mass velocity before the blow (m/s, world)
# owner _writhe.py (down and hurt, a POWERED figure writhes)
F_WRITHE_S = 73    # s it writhes for once landed (set_writhing; 0: it doesn't)
F_WRITHE_T = 74    # s since it started writhing
# owner _stepping.py (a clip that travels)
F_STEP_ANIM_PREV = 75  # 75..77 the animation's pelvis position the step before (world, m)
# owner _get_up.py (the clip way: a figure's own get-up clip, set_get_up_clips)
F_GU_CLIP_D = 78   # s: the get-up clip's length on a clip way (0: the keyed way)
# owner _writhe.py, session 6 (the arms fold toward where it was last struck)
F_STRUCK_LAST_P = 79  # 79..81 the point struck last, in its bone's body frame (m; _wound.wounded)
# owner _fall.py, session 9 (the far arm's share, taken as the fall begins)
F_FALL_FAR = 82   # 82..83 each arm's share of the reach turned to the front (0..1)
F_STEP_HIP = 84   # rad: the pelvis held tipped forward over the hips stepping back (issue 14)
# owner _hits.py, session 15 (a body striking a figure on a keyed way: the whole figure's blow)
F_STRUCK_BY = 85  # kg: the body behind F_STRUCK_J (0: kinematic, as heavy as need be)
F_STRUCK_V = 86   # m/s: its closing speed along the contact's normal
# owner _modes.py, session 15 (a keyed way's follow anchors give by the muscle a blow took)
F_FOLLOW_HZ = 87  # Hz: the follow anchors' spring as made (the ragdoll's follow_hz)
FF_COUNT = 88

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
# owner _stepping.py
F_STEP_ON = 24     # 1: pushed, the figure steps to catch itself (set_stepping; on by default)
F_STEP_PHASE = 25  # STEP_IDLE, STEP_SHIFT, STEP_SWING, STEP_GAP, STEP_HOLD or STEP_CLOSE
F_STEP_FOOT = 26   # the swinging foot: 0 left, 1 right
F_STEPS = 27       # steps taken (steps_taken)
F_STAGGER = 28     # 1 while it staggers (a run of steps; staggering)
F_STEP_KIND = 29   # STEP_AHEAD, STEP_ASIDE or STEP_BACK: the step under way

# the stepping's phases (F_STEP_PHASE)
STEP_IDLE = 0      # standing on the pose
STEP_SHIFT = 1     # pushed back: the weight onto the stance foot before the step
STEP_SWING = 2     # a foot swinging to the capture point
STEP_GAP = 3       # between the steps of a run
STEP_HOLD = 4      # both feet planted where they stepped, the capture point within them
STEP_CLOSE = 5     # the trailing foot brought beside the other, then the pose again
STEP_GIVEN_UP = 6  # a push past two strides: no step (a fall) until the point is back
STEP_LUNGE = 7     # a push past what a run catches: one step toward it, then the fall (#14)
# the steps' kinds (F_STEP_KIND)
STEP_AHEAD = 0
STEP_ASIDE = 1
STEP_BACK = 2
# owner _get_up.py
F_GU_WAY = 30      # WAY_NONE, WAY_FACE_UP or WAY_FACE_DOWN (the way up it is on)
F_GU_STILL_N = 31  # steps the pelvis has moved less than still_move
F_GU_DUE = 32      # 1: set_get_up's time is up; the way up starts after this step
F_GU_DONE = 33     # 1: the way up has reached its last key; handed back after this step
F_GU_SOLES = 34    # bit k: stage k keeps the soles' middle where its keys have it

# the ways up (F_GU_WAY)
WAY_NONE = 0
WAY_FACE_UP = 1    # the chest's front to the sky: sits up, crouches over its feet, stands
WAY_FACE_DOWN = 2  # to the ground: hands and knees, feet under it, stands
WAY_ON_FEET = 6    # fallen at rest on its feet, not down: straightens where it stands (3-5: _act,
#                    _sit's actions)
# owner _wound.py (the hand to the wound, #698)
F_WOUND_OFF = 35   # 1: set_hit_reaction(body, False) (0, the default: blows are answered)
F_WOUND = 36       # WOUND_NONE, WOUND_JUDGED (the blow's throw judged after its step), WOUND_HELD
F_WOUND_BONE = 37  # the bone struck (while F_WOUND != WOUND_NONE)
F_WOUND_HAND = 38  # the arm that comes to it: 0 left, 1 right, -1 none (a fold or a knee only)
F_WOUND_AIMED = 39 # 1 while the wound's aims are set on the joints
# owner _writhe.py
F_WRITHE = 40      # WRITHE_NONE, _ON (writhing), _DONE (over: lies still), _DOWN (let go)
F_WRITHE_FACE = 41 # 1: it lies face down (decided as it starts)
F_STRUCK_LAST = 42 # the bone a hit struck last (-1: none; _wound.wounded writes it)
# owner _parts.py (a part's own mode, #573, #658)
F_PART_MODE = 43   # 43..48 each part's mode as set (PART_HEAD..PART_LEG_R): ANIMATED (none of
                   # its own: it goes with its figure), LIMP or POWERED
# stepping, session 7 (_stepping.py, issue 14)
F_STEP_LEFT = 49   # steps a push's run may still take (from its capture distance, S_RUN_STEPS)
# owner _landing.py (issue 12: falling again)
F_FELL_AGAIN = 50  # 1: it fell again after lying or being caught still (its next stillness lands
                   # it: caught once, it is not caught again until it stands)
# owner _fall.py (issue 12, session 11: the caught figure tips onto its face)
F_ARM_GIVEN = 51   # 51..52 1: falling again, that arm's hand was down: it gave (left, right)
# owner _hits.py (session 15: a blow to a figure on a keyed way)
F_KNOCKED = 53     # 1: knocked off a keyed way (getting up, acting): falling, holding the shape it
                   # was struck in, until it lands (balance_post, _landing.py)
FI_COUNT = 54

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
# owner _get_up.py
PB_GU_KEY_Q = 34   # 34..45 keys 0..2: local rotations (row 0 the pelvis's world rotation)
PB_GU_BASE_Q = 46  # 46..49 the animation's targets, kept (a figure without a rig)
PB_GU_P = 50       # 50..52 the way's body in the world this step (m; a dressed figure's drawing)
PB_GU_Q = 53       # 53..56 its rotation
# owner _wound.py
PB_REACH_D = 57    # 57..59 an arm bone's aimed way toward the wound, in the chest's frame (unit)
# owner _writhe.py
PB_REST_Q = 60     # 60..63 the joint's rest place under its parent (body-relative, the ragdoll's)
# owner _parts.py (a part's mode and strength, #573)
PB_PART_S = 64     # 0..1: the lasting share of the bone's muscle its part keeps (set_part_strength;
                   # 1 by default): every budget the module sets is multiplied by it
PB_PART_OFF = 65   # 65..67 rad: a part taken back, its drawing's offset from the clip then
                   # (rotation vector, in the parent's frame; fades over take_back)
PB_PART_T = 68     # s left of that offset's fade (0: none)
PBF_COUNT = 69

# ---------------------------------------------------------------- per bone: int64 (cap, MAXB, ..)
# owner _service.py
PB_JOINT = 0       # the physics joint slot of the bone (to its parent; row 0 unused)
PB_BODY = 1        # the physics body slot of the bone
# owner _modes.py
PB_FOLLOW = 2      # the follow anchor's slot while ANIMATED (-1 none)
# owner _parts.py
PB_PART_MODE = 3   # the bone's own mode: -1 its figure's; LIMP (its part limp) or POWERED (its
                   # part POWERED, or hanging from one: on its muscle while the figure is ANIMATED)
PBI_COUNT = 4

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
# owner _stepping.py
S_STEP_OFF = 31        # m: the capture point off the feet past which a foot steps
S_STEP_SPEED = 32      # m/s: and the figure moving over the ground at least this
S_STEP_TOE = 33        # m: the toe ahead of the ankle (the feet's ground)
S_STEP_TIME = 34       # s: a catch step
S_STEP_LIFT = 35       # s: the knee bent this first part of a catch step
S_KNEE_ASIDE = 36      # rad: the knee bent stepping aside or back
S_KNEE_AHEAD = 37      # rad: stepping ahead
S_STEP_PAST = 38       # m: landing past the capture point
S_STEP_REACH = 39      # m: at most this from under the hip
S_SHIFT_TIME = 40      # s: the weight shift before a step back
S_BEND_RATE = 41       # rad per m/s: the chest's bend stepping back
S_BEND_MAX = 42        # rad
S_RUN_TIME = 43        # s: a stagger's step
S_RUN_GAP = 44         # s: between a stagger's steps
S_STRIDE = 45          # m
S_WAIT_STRIDES = 46    # strides: past this the first step waits
S_RUN_STRIDES = 47     # strides: a stagger goes on within this
S_STAGGER_LEAN = 48    # rad: the fall's lean while staggering
S_AHEAD_COS = 49       # cosine: a step ahead within this of the way it faces
S_HOLD_TIME = 50       # s: standing apart at most this before the feet come together
S_RUN_OFF = 51         # m: off the feet past this as a step lands, the run goes on
S_FALL_STRIDES = 52    # strides: a push past this is a fall, no step taken
S_THIGH_BASE = 53      # 1: the legs' aims on the animation's pelvis; 0: on the pelvis as it is
# owner _get_up.py
S_GU_STAGE = 54        # s
S_GU_STILL_MOVE = 55   # m a step
S_GU_STILL_STEPS = 56  # steps
S_GU_DOWN_LEAN = 57    # rad
S_GU_DOWN_DROP = 58    # m
# owner _wound.py
S_WOUND_HOLD = 59      # s
S_WOUND_MIN_SHARE = 60 # share
S_WOUND_THROWS = 61    # m/s
S_WOUND_TURN = 62      # rad/s
S_WOUND_FOLD = 63      # rad
S_WOUND_KNEE = 64      # rad
S_WOUND_WEAK = 65      # share
S_WOUND_POLE_OUT = 66  # share
S_WOUND_POLE_BEHIND = 67 # share
# owner _writhe.py
S_WR_LEG_PERIOD = 68   # s
S_WR_HIP = 69          # rad
S_WR_KNEE = 70         # rad
S_WR_SHOULDER_FWD = 71 # rad
S_WR_SHOULDER_IN = 72  # rad
S_WR_ELBOW = 73        # rad
S_WR_ROCK = 74         # rad
S_WR_ROCK_PERIOD = 75  # s
S_WR_REST_SHARE = 76   # share
S_WR_FACE_HIP = 77     # rad
S_WR_FACE_KNEE = 78    # rad
S_WR_FACE_ARMS = 79    # share
# owner _parts.py
S_PART_TAKE_BACK = 80  # s
# writhing, session 6 (_writhe.py: the arms behind the back, toward the struck place, let go)
S_WR_ARM_BEHIND = 81   # cosine: an arm under minus this with the chest's forward props
S_WR_BEHIND_SHARE = 82 # share: such an arm's muscle
S_WR_TOWARD = 83       # rad/m: the fold turned toward the place struck last
S_WR_DOWN_SHARE = 84   # share: let go from hands and knees, every joint toward its rest place
S_WR_REST_POSE = 85    # 1: the joints that don't writhe toward the standing pose; 0: the held shape
S_WR_FACE_FOLD = 86    # share: of the fold's turns face down
# writhing, session 7 (_writhe.py: an arm behind the chest face down)
S_WR_BEHIND_FACE = 87  # share: face down, an arm behind the chest's front plane
# stepping, session 7 (_stepping.py: strides by the way the capture point goes, issue 14)
S_STRIDE_ASIDE = 88    # m: a stride aside (S_STRIDE: ahead)
S_STRIDE_BACK = 89     # m: a stride back
S_LUNGE_STRIDES = 90   # strides: a push past this takes no step at all (past S_FALL_STRIDES, one)
S_RUN_STEPS = 91       # steps per stride of a push's capture distance its run may take
S_CLOSE_AFTER = 92     # s: on its feet apart at least this before they are brought together
S_TRIGGER_BACK = 93    # m: the trigger (S_STEP_OFF) for a capture point mostly behind the feet
# the protective fall, session 8 (_fall.py: the sideways fall, issue 12)
S_TUCK_SIDE = 94       # rad: the head's tuck in a fall to the figure's side (S_TUCK: forwards/back)
S_FAR_FWD = 95         # share: the far arm's reach turned to the figure's front, falling sideways
# issue 14, session 8 (steps3): standing still through a push ahead
S_BLOW_OVERCOMES_AHEAD = 96  # m/s: S_BLOW_OVERCOMES for a blow along the way the pelvis faces
# writhing, session 8 (_writhe.py: an arm behind the chest on its back goes out to the side, the
# spine lies down; a rolling writher lets go)
S_WR_BEHIND_OUT = 97   # rad: on its back, an arm behind the chest's front plane turned out this
S_WR_OUT_SHARE = 98    # share: of its muscle, going out
S_WR_BACK_SPINE = 99   # share: on its back while an arm is behind, the spine toward its rest place
S_WR_ROLL_SPEED = 100  # rad/s: the pelvis turning faster than this about its length, no bends
S_WR_ON_BACK = 101     # cosine: the pelvis's front up this far is on its back
S_WR_FADE_SHARE = 102 # share: of their muscle the writhing limbs keep as the bends fade out
S_WR_FADE_KEEP = 103  # share: of the bends' middle kept as they fade (curled up, not straight)
# issue 14, session 10 (steps5): the first step back, the hips' bend stepping back
S_TRIGGER_BACK_FIRST = 104  # m: S_TRIGGER_BACK for the first step of a push (from standing)
S_HIP_BEND = 105       # rad per m/s back: the pelvis tipped forward over the hips stepping back
S_SHIFT_COMMITS = 106  # 0/1: a weight shift begun ends in its step back
S_FIRST_AFTER = 107    # s: S_TRIGGER_BACK_FIRST only after this long with no step under way
S_HIP_FADE = 108       # rad/s: the pelvis's tip forward let go at this once the bend is over
S_STRIDE_BACK_LET = 109  # m: S_STRIDE_BACK once a blow has let the balance go
# the protective fall, session 11 (_fall.py: falling again, an arm whose hand is down gives)
S_ARM_GIVE = 110       # share: of its budget a given arm keeps, driven to its pose (not reaching)
S_HAND_DOWN = 111      # m: a forearm's lowest point within this of the figure's is a hand down
# the ways up, session 13 (_get_up.py: the first stage paced by its widest turn)
S_GU_MAX_TURN = 112    # rad/s: no bone of a keyed way's first stage turns faster at its middle
# the protective fall of a figure knocked off its keyed way, session 16 (_balance.py)
S_KNOCK_BRAKE = 113    # share: of the balance's cap, a knocked figure's tumble brake on its pelvis
S_KNOCK_SPIN = 114     # rad/s: the pelvis's tilt rate the knocked figure's brake lets through
PRM_COUNT = 115
