"""What a game may throw at ae3d: the documented limits of its calls, each with its unit and why.

A call given a value past one of these raises ``ValueError`` naming the argument and the limit
(``impulse must be at most 100000 N·s (ae3d.limits.MAX_IMPULSE); it is 1e+06``), before it writes
anything. They are read here, and ``ae3d.physics`` exports them too. They bound what no game means
to do, not what it does every second: the hardest blows a game throws are a few thousand N·s.
"""

from __future__ import annotations

#: m: the largest coordinate of any position, point or target, and of a figure file's nodes. A
#: renderer draws in float32, whose step at 1e5 m is 7.8 mm (a figure there already shimmers);
#: past it the world's own float64 contact and joint math loses the millimetres it works in.
WORLD_EXTENT = 1e5

#: N·s: the largest impulse (``apply_impulse``, ``motion.hit``). 20 times the hardest blow a
#: game means (5,000 N·s: a shotgun blast is hundreds, a car at 10 m/s 600); more is a bug in the
#: game (a unit mix-up, a runaway product), not a blow.
MAX_IMPULSE = 1e5

#: N·m·s: the largest angular impulse (``apply_angular_impulse``), the impulse cap at a 1 m lever.
MAX_ANGULAR_IMPULSE = 1e5

#: N: the largest force (``apply_force``): the impulse cap spread over one 1/60 s step.
MAX_FORCE = MAX_IMPULSE * 60.0

#: N·m: the largest torque (``apply_torque``): the angular impulse cap over one 1/60 s step.
MAX_TORQUE = MAX_ANGULAR_IMPULSE * 60.0

#: m/s: the fastest velocity a body may be given (``set_velocity``, an anchor's target velocity).
#: The solver moves no body faster than this (its safety net, the world's ``max_linear_speed``),
#: so a faster one would be clipped at once: past it the call is a mistake. A rifle bullet (900
#: m/s) is a raycast, not a body.
MAX_SPEED = 400.0

#: rad/s: the fastest angular velocity a body may be given (``set_angular_velocity``, an anchor's
#: target angular velocity): 160 turns a second, four times a car wheel's at 300 km/h (250
#: rad/s); the solver turns no body more than a quarter turn a sub-step.
MAX_ANGULAR_SPEED = 1000.0

#: kg: the lightest and heaviest dynamic body (given as a mass, or as a density times the shape's
#: volume). 1 g is a pebble; 1,000 t a loaded ship. Outside them the mass ratios against a 78 kg
#: figure (1e-5 to 1e4) are more than any iterative solver holds, and an inverse mass of 1e300
#: (a 1e-300 kg body) is no number to push anything with.
MIN_MASS = 1e-3
MAX_MASS = 1e6

#: m: the smallest and largest size of a shape (radius, half length, half extent). 1 mm is below
#: the contact margin (2 cm) and a figure's thinnest bone (3 cm); the largest is the world's
#: extent (a static floor may be that large).
MIN_SIZE = 1e-3
MAX_SIZE = WORLD_EXTENT

#: m/s²: the strongest gravity (``set_gravity``): 100 g.
MAX_GRAVITY = 1000.0

#: the range of a ragdoll's ``scale`` (1.0 is 1.80 m, 78 kg): a 36 cm doll to a 9 m giant. Masses
#: go with scale³ and budgets with scale⁴, so past these the figure's own bones span more than the
#: solver's mass ratios (a 0.2 doll's hand is 60 g).
MIN_RAGDOLL_SCALE = 0.2
MAX_RAGDOLL_SCALE = 5.0

#: m: how far from a body a blow's point may be (``apply_impulse``'s and ``motion.hit``'s point):
#: within this of the body's bounding sphere. A blow lands on the bone it strikes; a point 1e4 m
#: away is a lever arm that spins the bone at any speed.
HIT_REACH = 1.0

__all__ = [
    "WORLD_EXTENT", "MAX_IMPULSE", "MAX_ANGULAR_IMPULSE", "MAX_FORCE", "MAX_TORQUE", "MAX_SPEED",
    "MAX_ANGULAR_SPEED", "MIN_MASS", "MAX_MASS", "MIN_SIZE", "MAX_SIZE", "MAX_GRAVITY",
    "MIN_RAGDOLL_SCALE", "MAX_RAGDOLL_SCALE", "HIT_REACH",
]
