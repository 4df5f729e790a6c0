"""Measurements the motion tests and the benchmark share (not for hot loops).

Pose error is per joint (a bone against its parent), what a muscle answers for; the lean is the
pelvis's up against the animation's (``motion.lean``). Units: rad, m.
"""

from __future__ import annotations

import hashlib
import math

import numpy as np

from ae3d import human, physics


def qmul(a, b):
    ax, ay, az, aw = a
    bx, by, bz, bw = b
    return np.array([aw * bx + ax * bw + ay * bz - az * by,
                     aw * by - ax * bz + ay * bw + az * bx,
                     aw * bz + ax * by - ay * bx + az * bw,
                     aw * bw - ax * bx - ay * by - az * bz])


def qaxis(axis, angle: float) -> np.ndarray:
    a = np.asarray(axis, dtype=np.float64)
    a = a / np.linalg.norm(a)
    s = math.sin(0.5 * angle)
    return np.array([a[0] * s, a[1] * s, a[2] * s, math.cos(0.5 * angle)])


def qangle(a, b) -> float:
    """rad between two rotations."""
    d = abs(float(np.dot(a, b)))
    return 2.0 * math.acos(min(1.0, d))


def angles(qa: np.ndarray, qb: np.ndarray) -> np.ndarray:
    """(n,) deg between rotations (n, 4) row by row (the turn of each body in a step)."""
    d = np.abs(np.einsum("ij,ij->i", qa, qb)).clip(0.0, 1.0)
    return np.degrees(2.0 * np.arccos(d))


def qrot(q, v) -> np.ndarray:
    x, y, z, w = q
    u = np.array([x, y, z])
    v = np.asarray(v, dtype=np.float64)
    t = 2.0 * np.cross(u, v)
    return v + w * t + np.cross(u, t)


def bow_targets(r, angle: float, bone: int = human.BONE_SPINE_03) -> np.ndarray:
    """The standing pose with ``bone`` bowed ``angle`` rad forward (about the figure's left, +X
    at rest) from its parent: (n, 4) body-relative targets."""
    t = physics.ragdoll_rest_targets(r)
    parent = human.BONE_PARENT[bone]
    qp = np.array(human.BONE_REST_QUAT[parent])
    # the world axis +X in the parent's body frame
    axis = qrot(np.array([-qp[0], -qp[1], -qp[2], qp[3]]), (1.0, 0.0, 0.0))
    t[bone] = qmul(qaxis(axis, angle), t[bone])
    return t


def joint_errors(r, targets) -> np.ndarray:
    """(n,) rad: each joint's rotation against its target (row 0, the pelvis, 0)."""
    cur = physics.ragdoll_local_rotations(r)
    out = np.zeros(r.bones)
    for b in range(1, r.bones):
        out[b] = qangle(cur[b], targets[b] / np.linalg.norm(targets[b]))
    return out


def lowest_point(r) -> float:
    """m: the lowest point of any of the ragdoll's capsules."""
    w = r.engine.physics
    from ae3d.physics import _layout as L
    low = math.inf
    for s in r.bodies:
        p = w.bf[s, L.B_POS:L.B_POS + 3]
        q = w.bf[s, L.B_QUAT:L.B_QUAT + 4]
        rad, hs = w.bf[s, L.B_DIMS], w.bf[s, L.B_DIMS + 1]
        ax = qrot(q, (0.0, hs, 0.0))
        low = min(low, p[1] - abs(ax[1]) - rad)
    return low


def pelvis_height(r) -> float:
    return float(physics.ragdoll_pose(r)[0][human.BONE_PELVIS][1])


def is_down(r, lean: float) -> bool:
    """On the ground as the spec's get-up reads it: leaning past 1 rad, or the pelvis within
    0.45 m of the figure's lowest point."""
    return lean > 1.0 or pelvis_height(r) - lowest_point(r) < 0.45


def max_angular_speed(r) -> tuple[float, float]:
    """(mean, max) rad/s of the ragdoll's bodies' angular speeds now."""
    w = r.engine.physics
    from ae3d.physics import _layout as L
    sp = np.linalg.norm(w.bf[r.bodies, L.B_W:L.B_W + 3], axis=1)
    return float(sp.mean()), float(sp.max())


def world_digest(e) -> str:
    """SHA-256 of the world's body table (positions, turns, velocities of every live row): two
    runs of one script give the same digest, or they are not deterministic."""
    w = e.physics
    return hashlib.sha256(np.ascontiguousarray(w.bf[: w.n]).tobytes()).hexdigest()


def motion_digest(e) -> str:
    """SHA-256 of the world's body table and the motion service's per-bone table (its muscles,
    losses, keys): ``world_digest`` and what the motion keeps of each figure."""
    w = e.physics
    h = hashlib.sha256(np.ascontiguousarray(w.bf[: w.n]).tobytes())
    s = e.services["motion"]
    h.update(np.ascontiguousarray(s.pbf[: s.n]).tobytes())
    return h.hexdigest()


def largest_drawn_steps(e, bodies, bones, frames: int = 60) -> list[float]:
    """Each body's largest turn (rad) of any of ``bones[i]`` between two drawn frames, over
    ``frames`` frames of ``e`` (a pop shows as one large step)."""
    from ae3d import motion

    prev = [motion.drawn_pose(b)[1] for b in bodies]
    steps = [0.0] * len(bodies)
    for _ in range(frames):
        e.frame(e.fixed_dt)
        for i, b in enumerate(bodies):
            q = motion.drawn_pose(b)[1]
            steps[i] = max(steps[i], max(qangle(q[k], prev[i][k]) for k in bones[i]))
            prev[i] = q
    return steps
