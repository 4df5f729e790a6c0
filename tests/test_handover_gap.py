"""tests/test_handover_gap.ae in pytest (#665): handed over with its bodies' knee bent and the pose
shown straight, the drawn knee never passes straight, and a quarter second on it is the bodies'.

The figure wears no rig: its animation is ``motion.set_animation``. ANIMATED with the knee bent
0.6 rad, its bodies follow; then the animation straightens the knee, the pose phase draws it
straight, and it is handed over (POWERED) while its bodies' knee is still bent. The motors
straighten the bodies' knee; the drawing's offset is taken along what lies between the bodies
and the pose shown, so it waits for them rather than passing them.
"""

from __future__ import annotations

import math

import numpy as np
from motion import measure as M

from ae3d import engine, human, motion, physics

DT = 1.0 / 60.0
BEND = 0.6


def _knee(q) -> float:
    """Signed flexion (rad) of a calf's rotation relative to its thigh: a turn about +X."""
    q = q if q[3] >= 0 else -q
    return 2.0 * math.atan2(q[0], q[3])


def _bent(r, angle):
    t = physics.ragdoll_rest_targets(r)
    t[human.BONE_CALF_L] = M.qmul(M.qaxis((1.0, 0.0, 0.0), angle), t[human.BONE_CALF_L])
    return t


def test_drawn_knee_never_passes_straight():
    with engine.Engine() as e:
        physics.ground(e)
        r = physics.ragdoll(e, "gap", (0.0, 0.0, 0.0), 8.0, 8.0, 1.0)
        b = motion.active_ragdoll(r)
        motion.attach(e, b)
        motion.set_animation(b, _bent(r, BEND))
        e.run(seconds=1.0)
        body_knee = physics.ragdoll_local_rotations(r)[human.BONE_CALF_L]
        assert _knee(body_knee) > 0.3  # the bodies' knee is bent
        motion.set_animation(b, _bent(r, 0.0))
        e.pose_phase(DT)  # the pose shown: straight
        shown = motion.drawn_pose(b)
        assert abs(_knee(_rel(shown, human.BONE_CALF_L))) < 1e-9
        motion.set_mode(b, motion.POWERED)
        drawn, bodies = [], []
        for _ in range(int(round(0.5 / DT))):
            e.frame(DT)
            drawn.append(_knee(_rel(motion.drawn_pose(b), human.BONE_CALF_L)))
            bodies.append(_knee(physics.ragdoll_local_rotations(r)[human.BONE_CALF_L]))
        drawn, bodies = np.array(drawn), np.array(bodies)
        k = int(round(0.25 / DT)) - 1
        print(f"handover gap: drawn knee at least {drawn.min():.4f} rad (bodies' from "
              f"{bodies[0]:.3f} to {bodies[-1]:.3f}); 0.25 s on, drawn {drawn[k]:.4f} against "
              f"the bodies' {bodies[k]:.4f}")
        # never past straight: no further than the bodies' own hinge limit lets them (its rigid
        # rows are soft when violated: the bodies reach -1e-5 rad), nor a milliradian
        assert drawn.min() >= min(0.0, bodies.min()) - 1e-9
        assert drawn.min() > -1e-3
        assert np.max(np.abs(drawn[k:] - bodies[k:])) < 1e-9  # a quarter second on, the bodies'


def _rel(pose, bone):
    """The bone's rotation relative to its parent's, from world poses."""
    _, q = pose
    p = q[human.BONE_PARENT[bone]]
    return M.qmul(np.array([-p[0], -p[1], -p[2], p[3]]), q[bone])


def test_powered_to_animated_blends_over_a_quarter_second():
    """POWERED to ANIMATED: the drawing goes from the bodies' pose to the animation's over 0.25 s,
    with no jump at the change, and is the animation's after."""
    with engine.Engine() as e:
        physics.ground(e)
        r = physics.ragdoll(e, "back", (0.0, 0.0, 0.0), 8.0, 8.0, 1.0)
        b = motion.active_ragdoll(r)
        motion.attach(e, b)
        motion.set_mode(b, motion.POWERED)
        motion.set_animation(b, _bent(r, BEND))
        e.run(seconds=0.5)
        motion.set_mode(b, motion.LIMP)
        e.run(seconds=0.3)           # the bodies away from the animation's pose
        before = motion.drawn_pose(b)
        motion.set_mode(b, motion.ANIMATED)
        knees, steps = [], []
        last = before[0]
        for _ in range(int(round(0.4 / DT))):
            e.frame(DT)
            p, q = motion.drawn_pose(b)
            knees.append(_knee(_rel((p, q), human.BONE_CALF_L)))
            steps.append(float(np.max(np.linalg.norm(p - last, axis=1))))
            last = p
        k = int(round(0.25 / DT)) - 1
        anim = motion.animation(b)[0][human.BONE_CALF_L]
        print(f"to animated: the drawing's biggest step {max(steps) * 100:.2f} cm; 0.25 s on the "
              f"knee {knees[k]:.4f} against the animation's {_knee(anim):.4f}")
        assert abs(knees[k] - _knee(anim)) < 1e-9
        assert max(steps) < 0.05   # no jump: a smoothstep over 15 frames
