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
into its rigid part (the group moving and turning as one about its centre of mass, with the blow's
momentum and its angular momentum about that centre: the projection in the kinetic-energy metric,
``_kernels_blow._rigid_part``) and the joints' share (the bodies moving against one another: no
momentum, no angular momentum of its own). Moving as one opens no joint and whips no limb, so the
rigid part is scaled only where it alone would pass the caps (a blow of thousands of N·s, or one
far off the centre: ``GROUP_SPEED_CAP``, ``GROUP_SPIN_CAP``); only the joints' share is scaled to
keep every body, rigid part added, within the caps. Both parts satisfy the joints' rows (the rigid
one up to a joint's drift times the group's spin), so the scaled blow still adds no velocity across
a joint, and its energy is the rigid part's plus the scaled share's: at most the unscaled blow's. A
group held by the world (a joint to the world, a static or kinematic body) cannot move as one:
there all of it is the joints' share, scaled as a whole. Counted in ``physics.stats(e)``
(``blows_jointed``, ``blows_scaled``: either part scaled).

The ground's share, in the same instant (``_kernels_blow._ground``): a point of the group that
touches the ground or another still body (the last step's contact manifolds; the ground planes for a
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

Cost: one dense solve of 3 to 5 rows a joint, compiled (``_kernels_blow.blow_kernel``: the whole
response in one numba call; in Python, kept as tests/blow_reference.py, it took 3.3 to
5 ms a blow): see bench/hit_cost.py and the README.
Units: N·s, m, m/s, rad/s.
"""

from __future__ import annotations

import numpy as np

from ae3d import limits as LIM

from ._kernels_blow import blow_kernel
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


def _rot(q: np.ndarray) -> np.ndarray:
    """The rotation matrix (3, 3) of the unit quaternion q (x, y, z, w)."""
    x, y, z, w = q
    return np.array([
        [1 - 2 * (y * y + z * z), 2 * (x * y - w * z), 2 * (x * z + w * y)],
        [2 * (x * y + w * z), 1 - 2 * (x * x + z * z), 2 * (y * z - w * x)],
        [2 * (x * z - w * y), 2 * (y * z + w * x), 1 - 2 * (x * x + y * y)],
    ])


def blow_response(w, slot: int, impulse: np.ndarray, point: np.ndarray | None
                  ) -> tuple[np.ndarray, np.ndarray, np.ndarray, float]:
    """The velocity changes a blow ``impulse`` (3,) N·s at world ``point`` (3,) m (the centre if
    None) on body ``slot`` gives its jointed group: (bodies (k,), dv (k, 3) m/s, dw (k, 3) rad/s,
    scale), ``scale`` < 1 where the speed caps took the blow down; k = 1 for a lone body (or a
    group of more than MAX_GROUP: the caller takes the blow on the body alone). Writes nothing
    but ``w.blow_stats[2]`` (a blow the ground's share changed). One compiled call
    (``_kernels_blow.blow_kernel``)."""
    dt = float(w.fp[_DT]) if float(w.fp[_DT]) > 0.0 else 1.0 / 60.0
    has_point = point is not None
    p = np.asarray(point, dtype=np.float64) if has_point else np.zeros(3)
    bodies, dv, dw, scale = blow_kernel(
        w.bf, w.bi, w.jf, w.ji, int(w.nj), w.mi, w.mf, int(w.nm), int(w.n), int(w.steps), dt,
        int(slot), np.asarray(impulse, dtype=np.float64), p, has_point, SPEED_CAP, SPIN_CAP,
        GROUP_SPEED_CAP, GROUP_SPIN_CAP, MAX_GROUP, GROUND_SWEEPS, GROUND_TOL, PLANE_MARGIN,
        w.blow_stats)
    return bodies, dv, dw, float(scale)
