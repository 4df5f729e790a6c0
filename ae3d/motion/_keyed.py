"""Keyed ways: the machinery every keyed way shares (the ways up, ``_get_up.py``; the actions of
#825, sit, stand up and lie down, will reuse it): keys, stages, easing, setting a key down on the
ground under it, and the feet's plants (spec: "get_up(body) gets a figure on the ground back on
its feet", and the rules for every keyed way under "A figure can sit on a seat").

A key is a figure's pose in the motion's local form (``_kin.body_pose_local``): row 0 the
pelvis body's world rotation and position, every other bone its rotation relative to its
parent's body. A key between is made from the figure's reference bones bent in its own frame
from standing (``key_from_leans``): each bone's world rotation is its standing one turned by a
lean (degrees) about the axis across the figure (the way its knees do not bend: the knee
hinge's axis, +X of a figure facing +Z), the whole turned to face ``yaw`` about +Y; the bones
are placed through their joints from the pelvis out (``_kin.local_to_world``). A positive lean
brings a bone's top forward: the trunk bowing, a calf's knee ahead of its ankle; a thigh pointing
ahead is -90.

A way is stages of ``stage`` seconds (0.7 s, the spec's), from one key to the next, eased in and
out (``ease``: smoothstep, no jump in speed at a key); ``interpolate`` slerps each bone's local
rotation and lerps the pelvis's position by the eased share.

Setting down (``set_down``): a key's bodies are lowered or raised so the lowest point of any
capsule rests on the ground under that point (``ground_under``: the first static body straight
below, so a slope or a step holds it, and a figure's own bodies never do).

The feet's plants: a planted foot is held where it stands by a 30 Hz anchor
(``physics.ragdoll_plant``, PuppetMaster's pin weight on a planted foot) at the turn it stands
with (``plant_feet``), so it neither skates as the weight comes onto it nor turns to face the
way.

Units: m, s, rad (leans in degrees where a table gives them). Quaternions (x, y, z, w).
"""

from __future__ import annotations

import math
from typing import Any

import numpy as np
from numba import njit

from ae3d import human, physics
from ae3d.physics import _layout as PL
from ae3d.physics._kernels_query import raycast as _raycast

from ._kin import local_to_world, qdelta_rotvec, qmul, qrot, turn_into
from ._service import PARENT

STAGE = 0.7          # s: each stage of a keyed way (spec: three stages of 0.7 s)
ACROSS = (1.0, 0.0, 0.0)   # the axis across a figure standing facing +Z (its knees' hinge)
_FEET = (human.BONE_FOOT_L, human.BONE_FOOT_R)
_CALVES = (human.BONE_CALF_L, human.BONE_CALF_R)
_THIGHS = (human.BONE_THIGH_L, human.BONE_THIGH_R)


# ------------------------------------------------------------------------------ easing
@njit(cache=True, inline="always")
def ease(x):
    """Smoothstep: 0 at 0, 1 at 1, no speed at either end (eased in and out). ``x`` clamped."""
    x = min(1.0, max(0.0, x))
    return x * x * (3.0 - 2.0 * x)


@njit(cache=True, _nrt=False)
def interpolate(nb, a_q, a_t, b_q, b_t, s, out_q, out_t):
    """The local pose ``s`` (0..1) of the way from key a to key b: each row's rotation slerped
    the shorter way, the pelvis's position (row 0) lerped. Rows: ``_kin.body_pose_local``'s."""
    for b in range(nb):
        rx, ry, rz = qdelta_rotvec(a_q[b, 0], a_q[b, 1], a_q[b, 2], a_q[b, 3],
                                   b_q[b, 0], b_q[b, 1], b_q[b, 2], b_q[b, 3])
        turn_into(rx * s, ry * s, rz * s, a_q, b, out_q, b)
    for c in range(3):
        out_t[0, c] = a_t[0, c] + (b_t[0, c] - a_t[0, c]) * s


@njit(cache=True, _nrt=False)
def lowest_of(nb, p, q, dims):
    """m: the lowest point of capsules at poses ``p`` (n, 3), ``q`` (n, 4), ``dims`` (n, 2)
    (radius, half segment along the body's y)."""
    low = 1e300
    for b in range(nb):
        ax, ay, az = qrot(q[b, 0], q[b, 1], q[b, 2], q[b, 3], 0.0, dims[b, 1], 0.0)
        y = p[b, 1] - abs(ay) - dims[b, 0]
        if y < low:
            low = y
    return low


# ------------------------------------------------------------------------------ keys
def yaw_quat(yaw: float) -> np.ndarray:
    """(4,): a turn of ``yaw`` rad about +Y (a figure facing +Z turned to face
    (sin yaw, 0, cos yaw))."""
    return np.array([0.0, math.sin(0.5 * yaw), 0.0, math.cos(0.5 * yaw)])


def _qm(a: np.ndarray, b: np.ndarray) -> np.ndarray:
    return np.array(qmul(a[0], a[1], a[2], a[3], b[0], b[1], b[2], b[3]))


def _qr(q: np.ndarray, v: Any) -> np.ndarray:
    return np.array(qrot(q[0], q[1], q[2], q[3], v[0], v[1], v[2]))


def standing_world(r: Any) -> np.ndarray:
    """(n, 4): each body's world rotation standing in its rest pose, facing +Z (the pelvis at
    its rest rotation, the others by the ragdoll's rest targets)."""
    t = physics.ragdoll_rest_targets(r)
    n = r.bones
    q = np.zeros((n, 4))
    q[0] = human.BONE_REST_QUAT[0]
    for b in range(1, n):
        q[b] = _qm(q[PARENT[b]], t[b])
    return q


def key_from_leans(r: Any, leans_deg: dict, yaw: float) -> tuple[np.ndarray, np.ndarray]:
    """A key from leans: ((n, 4) local rotations, (n, 3) local translations) of the figure's
    reference bones, each turned by its lean (degrees, about the axis across; a bone not given
    keeps its parent's lean) from standing, the whole turned ``yaw`` about +Y, the pelvis at the
    origin (``set_down`` and ``move_to`` place it)."""
    n = r.bones
    stand = standing_world(r)
    turn = yaw_quat(yaw)
    world = np.zeros((n, 4))
    lean = np.zeros(n)
    for b in range(n):
        lean[b] = leans_deg.get(b, lean[PARENT[b]] if b > 0 else 0.0)
        a = math.radians(lean[b])
        bend = np.array([ACROSS[0] * math.sin(0.5 * a), ACROSS[1] * math.sin(0.5 * a),
                         ACROSS[2] * math.sin(0.5 * a), math.cos(0.5 * a)])
        world[b] = _qm(turn, _qm(bend, stand[b]))
    loc_q = np.zeros((n, 4))
    loc_q[0] = world[0]
    for b in range(1, n):
        a = world[PARENT[b]]
        loc_q[b] = _qm(np.array([-a[0], -a[1], -a[2], a[3]]), world[b])
        if loc_q[b, 3] < 0.0:
            loc_q[b] *= -1.0
    loc_t = np.zeros((n, 3))
    return loc_q, loc_t


def key_world(r: Any, loc_q: np.ndarray, loc_t: np.ndarray) -> tuple[np.ndarray, np.ndarray]:
    """((n, 3) m, (n, 4)): the key's bodies in the world, placed through the joints."""
    n = r.bones
    p = np.zeros((n, 3))
    q = np.zeros((n, 4))
    local_to_world(n, PARENT, r.joints, r.engine.physics.jf, loc_q, loc_t, p, q)
    return p, q


def dims_of(r: Any) -> np.ndarray:
    """(n, 2) m: each body's capsule (radius, half segment)."""
    return np.ascontiguousarray(r.engine.physics.bf[r.bodies, PL.B_DIMS:PL.B_DIMS + 2])


def ground_under(e: Any, x: float, z: float, top: float) -> float:
    """m: the height of the first static body straight below (x, top, z) (the ground, a slope,
    a step; a figure's own bodies and anything moving are looked through); ``top`` - 50 m when
    there is none."""
    w = e.physics
    out = np.zeros(7)
    o = np.array([x, top, z], dtype=np.float64)
    d = np.array([0.0, -1.0, 0.0])
    for _ in range(16):
        hit = _raycast(w.bf, w.bi, w.n, o, d, 50.0, -1, out)
        if hit < 0:
            return top - 50.0
        if w.bi[hit, PL.B_KIND] == PL.KIND_STATIC:
            return float(out[2])
        o = np.array([out[1], out[2] - 1e-4, out[3]])
    return float(o[1])


def point_lows(p: np.ndarray, q: np.ndarray, dims: np.ndarray) -> np.ndarray:
    """(n, 3) m: each capsule's lowest point (its end nearer the ground, less its radius)."""
    out = np.zeros((p.shape[0], 3))
    for b in range(p.shape[0]):
        ax = _qr(q[b], (0.0, dims[b, 1], 0.0))
        end = p[b] - ax if ax[1] > 0.0 else p[b] + ax
        out[b] = end
        out[b, 1] -= dims[b, 0]
    return out


def set_down(e: Any, p: np.ndarray, q: np.ndarray, dims: np.ndarray, top: float) -> float:
    """m: how far to raise (or lower, negative) bodies ``p``, ``q`` so the lowest point of any
    capsule rests on the ground under that point (spec: "set down with its lowest point on the
    ground"; on a slope or by a step, the ground under each point). The ground is looked for
    from ``top`` (m) down: a wall beside the figure is not ground for a point over its top."""
    lows = point_lows(p, q, dims)
    need = -1e300
    for b in range(p.shape[0]):
        g = ground_under(e, float(lows[b, 0]), float(lows[b, 2]), top)
        need = max(need, g - float(lows[b, 1]))
    return need


def move_key(loc_t: np.ndarray, by: np.ndarray) -> np.ndarray:
    """The key's translations moved by ``by`` (3,) m (only the pelvis's row is a position)."""
    t = loc_t.copy()
    t[0] += by
    return t


def sole_point(r: Any, p: np.ndarray, q: np.ndarray) -> np.ndarray:
    """(3,) m: between the feet: the middle of the calves' lower ends (the ankles)."""
    pts = []
    dims = dims_of(r)
    for b in _CALVES:
        ax = _qr(q[b], (0.0, dims[b, 1], 0.0))
        pts.append(p[b] - ax if ax[1] > 0.0 else p[b] + ax)
    return 0.5 * (pts[0] + pts[1])


def legs_point(r: Any, p: np.ndarray, q: np.ndarray) -> np.ndarray:
    """(3,) m: where a figure's legs lie, seen from its pelvis: between its feet (``sole_point``),
    or between its knees where those lie farther out over the ground. A figure lying out has its
    feet farthest; one slumped back on its folded legs (sitting on its heels against a wall) has
    its feet under or behind its pelvis and its knees out in front, the way it sits up facing
    (rising toward its feet there would turn it half round, over its own shins)."""
    feet = sole_point(r, p, q)
    knees = knee_point(r, p, q)
    d_feet = float(np.hypot(feet[0] - p[0, 0], feet[2] - p[0, 2]))
    d_knees = float(np.hypot(knees[0] - p[0, 0], knees[2] - p[0, 2]))
    return knees if d_knees > d_feet else feet


def knee_point(r: Any, p: np.ndarray, q: np.ndarray) -> np.ndarray:
    """(3,) m: between the knees (each calf's joint point in the world)."""
    jf = r.engine.physics.jf
    pts = []
    for b in _CALVES:
        j = int(r.joints[b])
        pts.append(p[b] + _qr(q[b], jf[j, PL.J_PB:PL.J_PB + 3]))
    return 0.5 * (pts[0] + pts[1])


# ------------------------------------------------------------------------------ own bodies
# (world id, ragdoll id) -> the pairs of its own bodies a keyed way set to pass through each
# other (those the ragdoll did not already keep apart)
_THROUGH: dict = {}


def pass_through(r: Any, on: bool) -> None:
    """While a keyed way is drawn, the figure's own bodies pass through each other (``on``) and
    collide with the world only: the way is drawn exactly, and a limb the way moves the short
    way round from where it lay (an arm pinned under the chest, a leg across the other) follows
    it rather than catching on the trunk for good. Off: the pairs set back as they were."""
    w = r.engine.physics
    key = (id(w), r.id)
    if on:
        if key in _THROUGH:
            return
        bodies = [int(b) for b in r.bodies]
        pairs = [(a, b) for i, a in enumerate(bodies) for b in bodies[i + 1:]]
        # the world's ignored pairs, all at once (one rebuild of its sorted keys), and only those
        # it did not already ignore, so taking them back leaves the ragdoll's own as they were
        _THROUGH[key] = w.ignore_pairs(pairs)
        return
    added = _THROUGH.pop(key, ())
    if added:
        w.unignore_pairs(added)


# ------------------------------------------------------------------------------ plants
def soles_of(r: Any) -> tuple[int, int]:
    """The bones a figure stands on: its feet where it has them, else its calves."""
    return _FEET if r.bones > _FEET[1] else _CALVES


def plant_feet(r: Any, p: np.ndarray, q: np.ndarray) -> None:
    """Plant both soles at their poses in ``p``, ``q`` (the bodies' or a key's) with 30 Hz
    anchors: a foot at the turn it stands with (``physics.ragdoll_plant``); a figure without
    feet by its calves' lower ends (the ankles) only, at ``human.PLANT_HZ``, since a calf turns
    over its ankle as the figure rises on it."""
    if soles_of(r) == _FEET:
        for b in _FEET:
            physics.ragdoll_plant(r, b, (p[b], q[b]))
        return
    from ae3d.physics import _api_joints as J
    w = r.engine.physics
    dims = dims_of(r)
    for b in _CALVES:
        physics.ragdoll_plant(r, b, None)
        ax = _qr(q[b], (0.0, dims[b, 1], 0.0))
        end = (0.0, -dims[b, 1], 0.0) if ax[1] > 0.0 else (0.0, dims[b, 1], 0.0)
        at = p[b] + _qr(q[b], end)
        k = J.anchor(r.engine, int(r.bodies[b]), at, None, hertz=human.PLANT_HZ,
                     damping_ratio=1.0, angular_hertz=0.0, point=end)
        w.ai[k, PL.A_OWNER] = r.id
        r.plants[b] = k


def lift_feet(r: Any) -> None:
    """Every plant lifted."""
    for b in list(r.plants):
        physics.ragdoll_plant(r, b, None)


__all__ = ["STAGE", "ease", "interpolate", "lowest_of", "key_from_leans",
           "key_world", "standing_world", "set_down", "ground_under", "sole_point", "knee_point",
           "plant_feet", "lift_feet", "pass_through", "yaw_quat", "dims_of", "move_key", "soles_of"]
