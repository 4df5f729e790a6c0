"""Rigid bodies: the ground, boxes, spheres, capsules and logs; their pose, velocities, impulses
and forces; kinematic moves; raycasts and overlap queries; gravity and sub-steps.

Every call takes the engine ``e`` first (its world is ``e.physics``) and a body handle returned by
an ``add_*`` call. Units: m, kg, s, N, N·s, N·m, radians; Y up; quaternions (x, y, z, w). Every
input is checked before anything is written (``ae3d._validate``): NaN or infinite numbers, arrays
of the wrong shape, a non-positive mass for a dynamic body, or a removed body's handle raise
``ValueError`` (or ``TypeError`` for a value of the wrong type: a string, a bool, a complex
number) naming the argument; a value past a documented limit (``ae3d.limits``: an impulse over
``MAX_IMPULSE``, a position past ``WORLD_EXTENT``, a blow's point further than ``HIT_REACH`` from
its body, a speed over ``MAX_SPEED``...) raises ``ValueError`` naming the limit.

Kinds: ``DYNAMIC`` bodies move under gravity, forces and contacts; ``KINEMATIC`` bodies move only
as told (``move_kinematic``, or a velocity) and push dynamic bodies aside without being slowed;
``STATIC`` bodies never move. Any change made through these calls wakes the body (and its island).
"""

from __future__ import annotations

import math
from typing import Any, NamedTuple

import numpy as np

from ae3d import _validate as V
from ae3d import limits as LIM

from . import _layout as L
from ._blow import blow_response
from ._world import ALL_GROUPS, Body, World, max_threads, shape_mass

__all__ = [
    "Body", "RayHit", "STATIC", "KINEMATIC", "DYNAMIC", "ALL_GROUPS",
    "ground", "add_box", "add_sphere", "add_capsule", "add_log", "remove_body", "body_exists",
    "position", "set_position", "rotation", "set_rotation", "velocity", "set_velocity",
    "angular_velocity", "set_angular_velocity", "mass", "kind",
    "apply_impulse", "apply_angular_impulse", "apply_force", "apply_torque", "move_kinematic",
    "set_kind",
    "raycast", "overlap", "gravity", "set_gravity", "substeps", "set_substeps",
    "threads", "set_threads", "max_threads",
    "is_awake", "wake", "set_collision_filter", "set_no_collide", "set_friction",
    "set_restitution", "park", "unpark",
]

STATIC = "static"
KINEMATIC = "kinematic"
DYNAMIC = "dynamic"
_KINDS = {STATIC: L.KIND_STATIC, KINEMATIC: L.KIND_KINEMATIC, DYNAMIC: L.KIND_DYNAMIC}
_SHAPES = {"sphere": L.SHAPE_SPHERE, "capsule": L.SHAPE_CAPSULE, "box": L.SHAPE_BOX,
           "cylinder": L.SHAPE_CYLINDER}


class RayHit(NamedTuple):
    """The first hit of a ray: the body, the point (3,) m, the unit surface normal (3,), and
    the distance from the ray's origin (m)."""

    body: Body
    point: np.ndarray
    normal: np.ndarray
    distance: float


# ------------------------------------------------------------------------------ checks
def _world(e: Any) -> World:
    w = getattr(e, "physics", None)
    if not isinstance(w, World):
        raise TypeError("e must be an open Engine (with a physics world)")
    return w


def _num(x: Any, name: str, positive: bool = False, nonneg: bool = False,
         unit: str = "") -> float:
    if positive:
        return V.positive(x, name, unit=unit)
    if nonneg:
        return V.nonneg(x, name, unit=unit)
    return V.real(x, name, unit=unit)


def _vec(x: Any, name: str, n: int = 3) -> np.ndarray:
    return V.vector(x, name, n)


def _quat(x: Any, name: str) -> np.ndarray:
    return V.quaternion(x, name)


def _size(x: Any, name: str, nonneg: bool = False) -> float:
    """A shape's size (m): within [MIN_SIZE, MAX_SIZE] (a half length may also be 0)."""
    v = V.real(x, name, lo=0.0, lo_open=not nonneg, unit="m", hi_limit="MAX_SIZE")
    if v != 0.0 or not nonneg:
        V.real(v, name, unit="m", lo_limit="MIN_SIZE")
    return v


def _int(x: Any, name: str) -> int:
    return V.integer(x, name)


def _kind(k: Any) -> int:
    if k not in _KINDS:
        raise ValueError(f"kind must be one of 'static', 'kinematic', 'dynamic', not {k!r}")
    return _KINDS[k]


def _slot(w: World, body: Any, name: str = "body") -> int:
    return w.slot_of(body, name)


def _rot_diag(q: np.ndarray, d: np.ndarray) -> np.ndarray:
    x, y, z, ww = q
    r = np.array([
        [1 - 2 * (y * y + z * z), 2 * (x * y - ww * z), 2 * (x * z + ww * y)],
        [2 * (x * y + ww * z), 1 - 2 * (x * x + z * z), 2 * (y * z - ww * x)],
        [2 * (x * z - ww * y), 2 * (y * z + ww * x), 1 - 2 * (x * x + y * y)],
    ])
    return (r * d) @ r.T


def _dynamic_mass(shape: int, dims: tuple[float, float, float], m: float | None,
                  dn: float | None) -> float:
    """kg: a dynamic body's mass, given (``m``) or from its shape at density ``dn`` (kg/m³; 1000
    if neither), checked against the limits before anything is made or changed."""
    if m is not None and not m > 0.0:
        raise ValueError("mass must be positive for a dynamic body")
    if dn is not None and not dn > 0.0:
        raise ValueError("density must be positive for a dynamic body")
    if m is not None:
        return V.real(m, "mass", unit="kg", lo_limit="MIN_MASS", hi_limit="MAX_MASS")
    vol = shape_mass(shape, dims)[0]
    got = (1000.0 if dn is None else dn) * vol
    if not LIM.MIN_MASS <= got <= LIM.MAX_MASS:
        raise ValueError(
            f"{'density' if dn is not None else 'the shape'} gives a mass of {got:g} kg "
            f"(density {1000.0 if dn is None else dn:g} kg/m³ times {vol:g} m³); a dynamic "
            f"body's mass must be in [{LIM.MIN_MASS:g}, {LIM.MAX_MASS:g}] kg "
            "(ae3d.limits.MIN_MASS, MAX_MASS): give a mass, or a density or size within")
    return got


def _add(e: Any, kind: Any, shape: int, dims: tuple[float, float, float], position: Any,
         rotation: Any, mass: Any, density: Any, friction: Any, restitution: Any, group: Any,
         mask: Any, linear_damping: Any, angular_damping: Any) -> Body:
    """Check every argument, the mass the body would have included, then add it."""
    w = _world(e)
    k = _kind(kind)
    p = V.position(position, "position")
    q = _quat(rotation, "rotation")
    m = None if mass is None else _num(mass, "mass")
    dn = None if density is None else _num(density, "density")
    if k == L.KIND_DYNAMIC:
        _dynamic_mass(shape, dims, m, dn)
    fr = _num(friction, "friction", nonneg=True)
    re = V.real(restitution, "restitution", lo=0.0, hi=1.0)
    g = _int(group, "group")
    mk = _int(mask, "mask")
    ld = _num(linear_damping, "linear_damping", nonneg=True, unit="1/s")
    ad = _num(angular_damping, "angular_damping", nonneg=True, unit="1/s")
    slot = w.add_body(k, shape, dims, p, q, mass=m, density=dn, friction=fr, restitution=re,
                      group=g, mask=mk, linear_damping=ld, angular_damping=ad)
    return w.handle(slot)


# ------------------------------------------------------------------------------ bodies
def ground(e: Any, height: float = 0.0, friction: float = 0.9, restitution: float = 0.0,
           group: int = 1, mask: int = ALL_GROUPS) -> Body:
    """The ground: a static infinite plane y = ``height`` (m), normal +y."""
    h = V.real(height, "height", lo=-LIM.WORLD_EXTENT, unit="m", hi_limit="WORLD_EXTENT")
    return _add(e, STATIC, L.SHAPE_PLANE, (0.0, 0.0, 0.0), (0.0, h, 0.0),
                (0.0, 0.0, 0.0, 1.0), None, None, friction, restitution, group, mask, 0.0, 0.0)


def add_box(e: Any, half_extents: Any, position: Any, rotation: Any = (0.0, 0.0, 0.0, 1.0),
            kind: str = DYNAMIC, mass: float | None = None, density: float | None = None,
            friction: float = 0.9, restitution: float = 0.0, group: int = 1,
            mask: int = ALL_GROUPS, linear_damping: float = 0.0,
            angular_damping: float = 0.0) -> Body:
    """A box of ``half_extents`` (3,) m centred at ``position`` (3,) m, turned by ``rotation``
    (x, y, z, w). ``kind`` 'dynamic', 'kinematic' or 'static'. A dynamic body's mass is ``mass``
    (kg) or ``density`` (kg/m³, 1000 if neither) times its volume; inertia from the shape.
    ``friction`` (0.9) and ``restitution`` (0) mix as sqrt(μa·μb) and max(ea, eb). ``group``
    and ``mask`` are bit sets: two bodies collide when each one's group meets the other's mask.
    Damping in 1/s."""
    he = _vec(half_extents, "half_extents")
    if not np.all(he > 0.0):
        raise ValueError("half_extents must be positive")
    for i in range(3):
        _size(he[i], f"half_extents[{i}]")
    return _add(e, kind, L.SHAPE_BOX, tuple(he), position, rotation, mass, density, friction,
                restitution, group, mask, linear_damping, angular_damping)


def add_sphere(e: Any, radius: float, position: Any, kind: str = DYNAMIC,
               mass: float | None = None, density: float | None = None, friction: float = 0.9,
               restitution: float = 0.0, group: int = 1, mask: int = ALL_GROUPS,
               rotation: Any = (0.0, 0.0, 0.0, 1.0), linear_damping: float = 0.0,
               angular_damping: float = 0.0) -> Body:
    """A sphere of ``radius`` m at ``position`` (3,) m. Other arguments as ``add_box``."""
    r = _size(radius, "radius")
    return _add(e, kind, L.SHAPE_SPHERE, (r, 0.0, 0.0), position, rotation, mass, density,
                friction, restitution, group, mask, linear_damping, angular_damping)


def add_capsule(e: Any, radius: float, half_length: float, position: Any,
                rotation: Any = (0.0, 0.0, 0.0, 1.0), kind: str = DYNAMIC,
                mass: float | None = None, density: float | None = None, friction: float = 0.9,
                restitution: float = 0.0, group: int = 1, mask: int = ALL_GROUPS,
                linear_damping: float = 0.0, angular_damping: float = 0.0) -> Body:
    """A capsule: a segment of half length ``half_length`` m along the body's y axis, rounded
    by ``radius`` m (total length 2·(half_length + radius)); standing unless ``rotation`` turns
    it. Other arguments as ``add_box``."""
    r = _size(radius, "radius")
    hl = _size(half_length, "half_length", nonneg=True)
    return _add(e, kind, L.SHAPE_CAPSULE, (r, hl, 0.0), position, rotation, mass, density,
                friction, restitution, group, mask, linear_damping, angular_damping)


def add_log(e: Any, radius: float, half_length: float, position: Any, heading: float = 0.0,
            kind: str = DYNAMIC, cylinder: bool = False, mass: float | None = None,
            density: float | None = None, friction: float = 0.9, restitution: float = 0.0,
            group: int = 1, mask: int = ALL_GROUPS, linear_damping: float = 0.0,
            angular_damping: float = 0.0) -> Body:
    """A round log lying on its side: a capsule (or, with ``cylinder=True``, a flat-ended
    cylinder) of ``radius`` m and half length ``half_length`` m whose axis is horizontal, along
    world x turned by ``heading`` rad about +y. Other arguments as ``add_box``."""
    r = _size(radius, "radius")
    cyl = V.boolean(cylinder, "cylinder")
    hl = _size(half_length, "half_length", nonneg=not cyl)
    hd = _num(heading, "heading")
    s = math.sqrt(0.5)
    qz = np.array([0.0, 0.0, -s, s])  # local y -> world x
    qy = np.array([0.0, math.sin(0.5 * hd), 0.0, math.cos(0.5 * hd)])
    x1, y1, z1, w1 = qy
    x2, y2, z2, w2 = qz
    q = (w1 * x2 + x1 * w2 + y1 * z2 - z1 * y2, w1 * y2 - x1 * z2 + y1 * w2 + z1 * x2,
         w1 * z2 + x1 * y2 - y1 * x2 + z1 * w2, w1 * w2 - x1 * x2 - y1 * y2 - z1 * z2)
    shape = L.SHAPE_CYLINDER if cyl else L.SHAPE_CAPSULE
    return _add(e, kind, shape, (r, hl, 0.0), position, q, mass, density, friction,
                restitution, group, mask, linear_damping, angular_damping)


def remove_body(e: Any, body: Body) -> None:
    """Take ``body`` out of the world for good; its handle raises from now on."""
    w = _world(e)
    w.remove_body(_slot(w, body))


def body_exists(e: Any, body: Any) -> bool:
    """True while ``body`` is a live body of this engine's world."""
    w = _world(e)
    try:
        w.slot_of(body)
    except (TypeError, ValueError):
        return False
    return True


def kind(e: Any, body: Body) -> str:
    """'static', 'kinematic' or 'dynamic'."""
    w = _world(e)
    return {L.KIND_STATIC: STATIC, L.KIND_KINEMATIC: KINEMATIC, L.KIND_DYNAMIC: DYNAMIC}[
        w.kind(_slot(w, body))]


def mass(e: Any, body: Body) -> float:
    """Mass (kg); 0 for static and kinematic bodies."""
    w = _world(e)
    return float(w.bf[_slot(w, body), L.B_MASS])


# ------------------------------------------------------------------------------ state
def _read(e: Any, body: Body, col: int, n: int) -> np.ndarray:
    """A copy of the body's ``n`` floats from column ``col`` of the world's float table."""
    w = _world(e)
    s = _slot(w, body)
    return w.bf[s, col:col + n].copy()


def position(e: Any, body: Body) -> np.ndarray:
    """Position of the body's centre (3,) m (a copy)."""
    return _read(e, body, L.B_POS, 3)


def rotation(e: Any, body: Body) -> np.ndarray:
    """Rotation (4,) quaternion (x, y, z, w) (a copy)."""
    return _read(e, body, L.B_QUAT, 4)


def velocity(e: Any, body: Body) -> np.ndarray:
    """Linear velocity of the centre (3,) m/s (a copy)."""
    return _read(e, body, L.B_V, 3)


def angular_velocity(e: Any, body: Body) -> np.ndarray:
    """Angular velocity (3,) rad/s, world frame (a copy)."""
    return _read(e, body, L.B_W, 3)


def _moved(w: World, s: int) -> None:
    """A body was changed by hand: it and whatever it touched wake."""
    w.wake(s)
    w._wake_touching(s)  # noqa: SLF001 - the façade of the same world


def _teleport(w: World, s: int, cols: tuple[int, int, int], x: np.ndarray) -> None:
    """Write ``x`` at the body's current, previous and kinematic-target columns ``cols``,
    waking it and what it touched; a pending kinematic move is dropped."""
    _moved(w, s)
    n = x.shape[0]
    for c in cols:
        w.bf[s, c:c + n] = x
    w.bi[s, L.B_KIN_MOVE] = 0


def set_position(e: Any, body: Body, position: Any) -> None:
    """Put the body's centre at ``position`` (3,) m (a teleport: velocities kept)."""
    w = _world(e)
    s = _slot(w, body)
    p = V.position(position, "position")
    _teleport(w, s, (L.B_POS, L.B_POS0, L.B_KIN_POS), p)


def set_rotation(e: Any, body: Body, rotation: Any) -> None:
    """Turn the body to ``rotation`` (4,) (x, y, z, w), normalized here."""
    w = _world(e)
    s = _slot(w, body)
    q = _quat(rotation, "rotation")
    _teleport(w, s, (L.B_QUAT, L.B_QUAT0, L.B_KIN_QUAT), q)


def _set_vel(e: Any, body: Body, col: int, x: Any, name: str, top: str, unit: str) -> None:
    """Validate ``x`` (3,) as ``name`` (at most the limit ``top`` long) and write it at column
    ``col`` of a non-static body, which wakes."""
    w = _world(e)
    s = _slot(w, body)
    v = V.vector(x, name, unit=unit, limit=top)
    if w.kind(s) == L.KIND_STATIC:
        raise ValueError("body is static: it cannot be given a velocity")
    w.wake(s)
    w.bf[s, col:col + 3] = v


def set_velocity(e: Any, body: Body, velocity: Any) -> None:
    """Set the linear velocity (3,) m/s (a kinematic body keeps it until told otherwise)."""
    _set_vel(e, body, L.B_V, velocity, "velocity", "MAX_SPEED", "m/s")


def set_angular_velocity(e: Any, body: Body, angular_velocity: Any) -> None:
    """Set the angular velocity (3,) rad/s, world frame."""
    _set_vel(e, body, L.B_W, angular_velocity, "angular_velocity", "MAX_ANGULAR_SPEED",
             "rad/s")


def _dynamic_row(e: Any, body: Body, x: Any, name: str, top: str, unit: str, point: Any = None
                 ) -> tuple[np.ndarray, np.ndarray, np.ndarray | None] | None:
    """For the apply_* calls: ``x`` (3,) checked as ``name`` (at most ``top`` ``unit`` long) and
    ``point`` (3,) m if given (within HIT_REACH of the body's bounding sphere); the body's float
    row (a view), woken, with them; None for a non-dynamic body (no effect)."""
    w = _world(e)
    s = _slot(w, body)
    v = V.vector(x, name, unit=unit, limit=top)
    p = None if point is None else reach(w, s, point, "point")
    if w.kind(s) != L.KIND_DYNAMIC:
        return None
    w.wake(s)
    return w.bf[s], v, p


def reach(w: World, s: int, point: Any, name: str = "point") -> np.ndarray:
    """``point`` (3,) m, which must lie within HIT_REACH of body ``s``'s bounding sphere: a blow
    lands on what it strikes (a far point is a lever arm that spins the body at any speed)."""
    p = V.position(point, name)
    far = float(np.linalg.norm(p - w.bf[s, L.B_POS:L.B_POS + 3])) - float(w.bf[s, L.B_RADIUS])
    if far > LIM.HIT_REACH:
        raise ValueError(f"{name} must be within {LIM.HIT_REACH:g} m of the body it strikes "
                         f"(ae3d.limits.HIT_REACH); it is {far:g} m from its surface")
    return p


def apply_impulse(e: Any, body: Body, impulse: Any, point: Any = None) -> None:
    """An impulse (3,) N·s at the world ``point`` (3,) m (the centre if None). On a lone body
    Δv = J/m, Δω = I⁻¹ (r × J) with the body's current world inertia. On a body held by joints
    the blow is taken by every body joined to it, as the joints take it in the instant (solved
    exactly: no velocity across any joint; ``physics/_blow.py``), scaled down only where it would
    send a body past the speed caps (``physics.stats(e)`` counts those). No effect on
    non-dynamic bodies."""
    row = _dynamic_row(e, body, impulse, "impulse", "MAX_IMPULSE", "N·s", point)
    if row is None:
        return
    bf, j, p = row
    w = _world(e)
    s = _slot(w, body)
    bodies, dv, dw, scale = blow_response(w, s, j, p)
    if len(bodies) > 1:
        for i, b in enumerate(bodies):
            w.wake(int(b))
            w.bf[b, L.B_V:L.B_V + 3] += dv[i]
            w.bf[b, L.B_W:L.B_W + 3] += dw[i]
        w.blow_stats[0] += 1
        if scale < 1.0:
            w.blow_stats[1] += 1
        return
    bf[L.B_V:L.B_V + 3] += bf[L.B_INV_MASS] * j
    if p is not None:
        r = p - bf[L.B_POS:L.B_POS + 3]
        iw = _rot_diag(bf[L.B_QUAT:L.B_QUAT + 4], bf[L.B_INV_I:L.B_INV_I + 3])
        bf[L.B_W:L.B_W + 3] += iw @ np.cross(r, j)


def apply_angular_impulse(e: Any, body: Body, impulse: Any) -> None:
    """An angular impulse (3,) N·m·s (world): Δω = I⁻¹ L."""
    row = _dynamic_row(e, body, impulse, "impulse", "MAX_ANGULAR_IMPULSE", "N·m·s")
    if row is None:
        return
    bf, j, _ = row
    iw = _rot_diag(bf[L.B_QUAT:L.B_QUAT + 4], bf[L.B_INV_I:L.B_INV_I + 3])
    bf[L.B_W:L.B_W + 3] += iw @ j


def apply_force(e: Any, body: Body, force: Any, point: Any = None) -> None:
    """A force (3,) N for the next fixed step, at the world ``point`` (3,) m (the centre if
    None: then no torque). Forces add up and are cleared after each step."""
    row = _dynamic_row(e, body, force, "force", "MAX_FORCE", "N", point)
    if row is None:
        return
    bf, f, p = row
    bf[L.B_FORCE:L.B_FORCE + 3] += f
    if p is not None:
        bf[L.B_TORQUE:L.B_TORQUE + 3] += np.cross(p - bf[L.B_POS:L.B_POS + 3], f)


def apply_torque(e: Any, body: Body, torque: Any) -> None:
    """A torque (3,) N·m (world) for the next fixed step."""
    row = _dynamic_row(e, body, torque, "torque", "MAX_TORQUE", "N·m")
    if row is None:
        return
    bf, t, _ = row
    bf[L.B_TORQUE:L.B_TORQUE + 3] += t


def move_kinematic(e: Any, body: Body, position: Any, rotation: Any = None) -> None:
    """Move a kinematic body to ``position`` (3,) m and ``rotation`` (x, y, z, w) (kept if None)
    over the next fixed step, with the velocities that takes, so what it strikes is pushed; it
    stops there unless moved again."""
    w = _world(e)
    s = _slot(w, body)
    p = V.position(position, "position")
    q = w.bf[s, L.B_QUAT:L.B_QUAT + 4].copy() if rotation is None else _quat(rotation, "rotation")
    if w.kind(s) != L.KIND_KINEMATIC:
        raise ValueError("body must be kinematic to be moved with move_kinematic")
    w.move_kinematic(s, p, q)


def set_kind(e: Any, body: Body, kind: str, mass: float | None = None,
             density: float | None = None) -> None:
    """Turn a kinematic body dynamic, or a dynamic one kinematic, where it is and at rest (as
    Jolt's motion type and Box2D's body type change): a prop a figure held, let fall when it is
    knocked away. Made dynamic it has ``mass`` kg, or its shape's at ``density`` kg/m³ (1000 if
    neither), its inertia its shape's; made kinematic it stays put until ``move_kinematic``.
    Static bodies, planes and a ragdoll's bodies keep their kind (ValueError); the kind it has
    already changes nothing."""
    w = _world(e)
    s = _slot(w, body)
    k = _kind(kind)
    now = w.kind(s)
    if now == L.KIND_STATIC or k == L.KIND_STATIC:
        raise ValueError("a static body's kind can't change, nor a body be made static: add one")
    if int(w.bi[s, L.B_SHAPE]) == L.SHAPE_PLANE:
        raise ValueError("a plane can't be made dynamic")
    for r in e.services.get("physics.ragdolls", {}).values():
        if s in r.bodies:
            raise ValueError("body is a ragdoll's: its kind is the ragdoll's (motion's modes)")
    m = None if mass is None else _num(mass, "mass")
    dn = None if density is None else _num(density, "density")
    dims = tuple(float(x) for x in w.bf[s, L.B_DIMS:L.B_DIMS + 3])
    got = _dynamic_mass(int(w.bi[s, L.B_SHAPE]), dims, m, dn) if k == L.KIND_DYNAMIC else 0.0
    if k != now:
        w.set_kind(s, k, got)


# ------------------------------------------------------------------------------ sleep, filters
def is_awake(e: Any, body: Body) -> bool:
    """True unless the body sleeps (static bodies count as awake)."""
    w = _world(e)
    return w.is_awake(_slot(w, body)) or w.kind(_slot(w, body)) != L.KIND_DYNAMIC


def wake(e: Any, body: Body) -> None:
    """Wake the body and its island."""
    w = _world(e)
    w.wake(_slot(w, body))


def park(e: Any, body: Body) -> None:
    """Take the body out of the world where it is: no contacts, not moved, no cost."""
    w = _world(e)
    w.park_body(_slot(w, body))


def unpark(e: Any, body: Body) -> None:
    """Put a parked body back in the world, awake."""
    w = _world(e)
    w.unpark_body(_slot(w, body))


def set_collision_filter(e: Any, body: Body, group: int, mask: int) -> None:
    """Collision bits: two bodies collide when (group_a & mask_b) and (group_b & mask_a)."""
    w = _world(e)
    s = _slot(w, body)
    g = _int(group, "group")
    m = _int(mask, "mask")
    _moved(w, s)
    w.bi[s, L.B_GROUP] = g
    w.bi[s, L.B_MASK] = m


def set_no_collide(e: Any, a: Body, b: Body, no_collide: bool = True) -> None:
    """Bodies ``a`` and ``b`` never collide with each other (or do again, with False)."""
    w = _world(e)
    sa = _slot(w, a, "a")
    sb = _slot(w, b, "b")
    if V.boolean(no_collide, "no_collide"):
        w.ignore_pair(sa, sb)
    else:
        w.unignore_pair(sa, sb)
    w.wake(sa)
    w.wake(sb)


def set_friction(e: Any, body: Body, friction: float) -> None:
    """Friction coefficient (mixed with the other body's as sqrt(μa·μb))."""
    w = _world(e)
    s = _slot(w, body)
    w.bf[s, L.B_FRICTION] = _num(friction, "friction", nonneg=True)
    w.wake(s)


def set_restitution(e: Any, body: Body, restitution: float) -> None:
    """Restitution (mixed as max(ea, eb)): 0 no bounce, 1 elastic."""
    w = _world(e)
    s = _slot(w, body)
    w.bf[s, L.B_RESTITUTION] = V.real(restitution, "restitution", lo=0.0, hi=1.0)
    w.wake(s)


# ------------------------------------------------------------------------------ queries
def raycast(e: Any, origin: Any, direction: Any, max_distance: float = 1e4,
            mask: int = ALL_GROUPS) -> RayHit | None:
    """The first body the ray from ``origin`` (3,) m along ``direction`` (3,) (normalized here)
    hits within ``max_distance`` m, among bodies whose group meets ``mask``; None if none. A ray
    that starts inside a body does not hit that body."""
    from ._kernels_query import raycast as _rc

    w = _world(e)
    o = V.position(origin, "origin")
    d = _vec(direction, "direction")
    nd = float(np.sqrt(d @ d))
    if nd < 1e-12:
        raise ValueError("direction must not be zero")
    md = _num(max_distance, "max_distance", nonneg=True)
    out = np.zeros(7)
    slot = int(_rc(w.bf, w.bi, w.n, o, d / nd, md, _int(mask, "mask"), out))
    if slot < 0:
        return None
    return RayHit(w.handle(slot), out[1:4].copy(), out[4:7].copy(), float(out[0]))


def overlap(e: Any, shape: str, size: Any, position: Any,
            rotation: Any = (0.0, 0.0, 0.0, 1.0), mask: int = ALL_GROUPS) -> list[Body]:
    """Bodies (group meeting ``mask``) that a query shape overlaps, in creation-slot order.
    ``shape`` 'sphere' (size: radius m), 'capsule' or 'cylinder' (size: (radius, half length)
    m, along the local y axis) or 'box' (size: half extents (3,) m), at ``position`` (3,) m
    turned by ``rotation`` (x, y, z, w)."""
    from ._kernels_query import overlap as _ov

    w = _world(e)
    if not isinstance(shape, str) or shape not in _SHAPES:
        raise ValueError("shape must be 'sphere', 'capsule', 'cylinder' or 'box'")
    if shape == "sphere":
        dims = np.array([_num(size, "size", positive=True), 0.0, 0.0])
    elif shape == "box":
        dims = _vec(size, "size")
        if not np.all(dims > 0.0):
            raise ValueError("size must be positive")
    else:
        s2 = _vec(size, "size", 2)
        if not (s2[0] > 0.0 and s2[1] >= 0.0):
            raise ValueError("size must be a positive radius and a non-negative half length")
        dims = np.array([s2[0], s2[1], 0.0])
    p = V.position(position, "position")
    q = _quat(rotation, "rotation")
    out = np.zeros(max(16, w.n), dtype=np.int64)
    cnt = int(_ov(w.bf, w.bi, w.n, _SHAPES[shape], dims, p, q, _int(mask, "mask"), out,
                  np.zeros(3), np.zeros((4, 3)), np.zeros(4), np.zeros(4, dtype=np.int64)))
    return [w.handle(int(s)) for s in out[: min(cnt, out.shape[0])]]


# ------------------------------------------------------------------------------ the world
def gravity(e: Any) -> np.ndarray:
    """Gravity (3,) m/s² (a copy)."""
    return _world(e).gravity.copy()


def set_gravity(e: Any, g: Any) -> None:
    """Set gravity (3,) m/s²; every body wakes."""
    w = _world(e)
    w.gravity[:] = V.vector(g, "g", unit="m/s²", limit="MAX_GRAVITY")
    bi = w.bi[: w.n]
    dyn = (bi[:, L.B_KIND] == L.KIND_DYNAMIC) & (bi[:, L.B_PARKED] == 0)
    bi[dyn, L.B_AWAKE] = 1
    w.bf[: w.n][dyn, L.B_SLEEP_TIME] = 0.0


def substeps(e: Any) -> int:
    """Solver sub-steps per fixed step now (the setting, or 8 while a powered figure exists)."""
    return _world(e).effective_substeps


def threads(e: Any) -> int:
    """Threads the world's solver uses (all the machine's cores by default)."""
    return _world(e).threads


def set_threads(e: Any, n: int) -> None:
    """Solve on n threads (1..the machine's cores, or NUMBA_NUM_THREADS). Bodies that no joint
    or contact joins (each standing figure, each separate pile) are solved in parallel; one pile
    or one tangle of figures is solved on one thread. The results are the same bits on any
    count, so a replay recorded on one machine plays the same on another. The setting applies
    to the thread that steps the world (numba's thread count is per calling thread). numba picks
    its threading layer (TBB, OpenMP or its own workqueue); a program that forks worker
    processes after stepping (multiprocessing's "fork") should use 1 thread or set
    NUMBA_THREADING_LAYER=forksafe, as GNU OpenMP's pool does not survive a fork."""
    k = _int(n, "n")
    top = max_threads()
    if not 1 <= k <= top:
        raise ValueError(f"n must be between 1 and {top} (this machine's solver threads)")
    _world(e).threads = k


def set_substeps(e: Any, n: int) -> None:
    """Solver sub-steps per fixed step (1..64; 4 by default)."""
    k = _int(n, "n")
    if not 1 <= k <= 64:
        raise ValueError("n must be between 1 and 64")
    _world(e).substeps = k
