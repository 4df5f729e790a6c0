"""The frame's phase ordering, in one place.

esper runs processors from the highest priority to the lowest. Every processor belongs to one
phase: the *fixed* phase runs once for each 1/60 s of accumulated time, the *pose* phase once
per frame. Within a phase the priorities below are the order (DESIGN.md "Data flow").
"""

FIXED = "fixed"
POSE = "pose"

# fixed phase, every fixed step
HANDOVER_STEP = 400
MOTION_PRE_STEP = 300
PHYSICS_STEP = 200
MOTION_POST_STEP = 100

# pose phase, once per frame
FIGURE_ANIMATE = 40
HANDOVER_CARRY = 35   # the hand-over pool: a figure blending back walks on as the horde does
MOTION_POSE = 30
SKINNING = 20
DRAW = 10
