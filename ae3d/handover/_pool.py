"""The hand-over pool: a dozen active ragdolls the horde's struck zombies are handed to.

A zombie is an instance of the horde (a position, a heading and a phase in the game's columns,
no bodies). Struck, it is handed to a free figure of the pool (made from the horde's own file,
an active ragdoll parked out of the world while free), which falls, gets up and, back on its
feet, hands the zombie back to the horde where it stands. Killed, it lies and is despawned.

The relation both ways (spec "No pop"; ``crowd.posebank_bake_in_place``): a figure playing
the clip at t = phase·duration, turned yaw + facing, with its hips (the bank's travelling bone)
over the instance's position plus the bank's offset (turned), is the instance's pose.

A figure's states (``_FREE`` .. ``_DEAD``) and what moves it on, every fixed step
(``step``, the engine's fixed phase at ``priorities.HANDOVER_STEP``):

* FREE: parked (hidden, clip stopped, every body and anchor out of the world). No cost.
* STRUCK: POWERED, hit. Back on its feet (POWERED, not falling, landed, lying, down or getting
  up, leaning under ``STAND_LEAN`` and every muscle back from its blow within ``MUSCLE_BACK``)
  for ``settle`` s, its animation is moved to where its bodies stand and it is set ANIMATED:
  BLENDING.
* BLENDING: ANIMATED, the drawing blending into the clip; after the motion's blend time its
  zombie goes back (columns written, ``on_return`` told, the flag cleared) and it is parked.
  Meanwhile it walks on as its instance would (``carry``, in the pose phase at
  ``priorities.HANDOVER_CARRY``, after the clips have advanced): its object carried along its
  heading at the clip's own ground speed, the clip's travel taken out as the bank takes it out,
  so a walking clip's loop does not snap it back.
* DEAD: LIMP; after ``despawn`` s (0: never) parked, its zombie kept out for good.

Units: m, s, rad, N·s.
"""

from __future__ import annotations

import math
from collections.abc import Callable
from typing import Any

import numpy as np

from ae3d import crowd, figure, human, motion, physics
from ae3d.engine import PhaseProcessor, priorities
from ae3d.motion import _layout as ML
from ae3d.motion import _pose
from ae3d.motion._service import service
from ae3d.physics import _layout as PL

_FREE, _STRUCK, _BLENDING, _DEAD = 0, 1, 2, 3
STATE_NAMES = ("free", "struck", "blending", "dead")

STAND_LEAN = 0.2
"""rad: a figure leaning less than this from its pose stands (spec: "leaning under 0.2 rad")."""
MUSCLE_BACK = 0.02
"""share: a blow's share of every muscle under this is "back from its blow"."""
GET_UP = 1.0
"""s: a pool figure lain still this long gets up by itself (``motion.set_get_up``)."""
STAND_HEIGHT = 0.75
"""share of its standing hips' height (the clip's at t = 0) a figure's pelvis must stand over the
road to be back on its feet: a figure crumpled upright (not leaning, not yet ``down``) is not."""
STILL_SPEED = 0.3
"""m/s: a killed figure whose pelvis moves slower than this lies (no longer mid-fall)."""
HELP_UP = 4.0
"""s: a struck figure off its feet this long, not getting up, is told to (``_help_up``)."""


class Pool:
    """A hand-over pool (``pool_new``). Read-only for callers: use the ``handover`` calls.

    ``objects``: the figures' object handles; ``bodies``: their active ragdolls (motion);
    ``zombie``: (size,) the zombie each figure holds (-1 none); ``state``: (size,) each figure's
    state (``STATE_NAMES``)."""

    def __init__(self, e: Any, path: str, clip: str, size: int) -> None:
        self.engine = e
        self.path = path
        self.clip = clip
        self.size = size
        self.objects: list[int] = []
        self.figures: list[Any] = []
        self.bodies: list[Any] = []
        self.zombie = np.full(size, -1, np.int64)
        self.state = np.zeros(size, np.int64)
        self.timer = np.zeros(size)          # s: settle, blend or despawn time so far
        self.unsteady = np.zeros(size)       # s: a struck figure off its feet, not getting up
        self.settle = 0.5
        self.despawn = 10.0
        self.facing = 0.0
        self.on_return: Callable[[int], None] | None = None
        self.pos: np.ndarray | None = None
        self.yaw: np.ndarray | None = None
        self.phase: np.ndarray | None = None
        self.count = 0
        self.road = np.zeros(0)              # m: each zombie's y when it was taken out
        self._outs = np.zeros(0, np.uint8)
        self._dead = np.zeros(0, np.uint8)
        self.tint: np.ndarray | None = None
        self.active = 0                      # figures not FREE: the step's early out
        self.slots: np.ndarray | None = None         # the figures' motion rows (made once)
        self.pelvis_slots: np.ndarray | None = None  # their pelvis bodies' world slots
        self.closed = False
        # the clip's travelling bone and the bank's offset (its x, z at t = 0, object at origin)
        self.hips = 0
        self.offset = np.zeros(2)
        self.hips_height = 0.0               # m: the clip's hips over the ground at t = 0
        self.travel = np.zeros(2)            # m/s: the clip's ground travel (x, z), object frame
        self.carry_pos = np.zeros((size, 3))  # m: a blending figure's instance, walking on
        self.carry_t = np.zeros(size)        # s: the clip's time it was carried to
        self.duration = 1.0


# ---------------------------------------------------------------------------- the processor
class _Step(PhaseProcessor):
    phase = priorities.FIXED

    def __init__(self, e: Any, pool: Pool) -> None:
        super().__init__(e)
        self.pool = pool

    def process(self, phase: str, dt: float) -> None:  # noqa: D401 - esper's hook
        # the work in the hook itself: one Python call a frame while every figure is parked
        if phase == self.phase and self.pool.active:
            step(self.pool, dt)

    def run(self, engine: Any, dt: float) -> None:
        self.process(self.phase, dt)


class _Carry(PhaseProcessor):
    phase = priorities.POSE

    def __init__(self, e: Any, pool: Pool) -> None:
        super().__init__(e)
        self.pool = pool

    def process(self, phase: str, dt: float) -> None:  # noqa: D401 - esper's hook
        if phase == self.phase and self.pool.active:
            carry(self.pool)

    def run(self, engine: Any, dt: float) -> None:
        self.process(self.phase, dt)


def carry(pool: Pool) -> None:
    """The pose phase, after the clips advanced: each blending figure's instance walks on by
    the clip's travel over the time its clip advanced, and the figure's object is put where
    the relation has it for that instance at the clip's time now."""
    for k in range(pool.size):
        if pool.state[k] != _BLENDING:
            continue
        f = pool.figures[k]
        t = figure.clip_time(f)
        step_t = (t - pool.carry_t[k]) % pool.duration
        pool.carry_t[k] = t
        m = f.rig.root
        yaw = math.atan2(m[0, 2], m[2, 2])
        walk = _turn(yaw) @ np.array([pool.travel[0], 0.0, pool.travel[1]])
        pool.carry_pos[k] += walk * step_t
        figure.place(f, _root_for(pool, k, pool.carry_pos[k], yaw, t), yaw)


def step(pool: Pool, dt: float) -> None:
    """One fixed step of the pool (run by the engine's fixed phase; call it yourself only for
    a pool you step by hand): the taking back and the despawning."""
    struck = pool.state == _STRUCK
    standing = _standing_all(pool, struck) if struck.any() else struck
    for k in range(pool.size):
        st = pool.state[k]
        if st == _FREE:
            continue
        body = pool.bodies[k]
        if st == _DEAD:
            pool.timer[k] += dt
            if pool.despawn > 0.0 and pool.timer[k] >= pool.despawn - 1e-9:
                _park(pool, k)
            continue
        if st == _BLENDING:
            if motion.mode(body) != motion.ANIMATED:  # struck again while blending
                pool.state[k] = _STRUCK
                pool.timer[k] = 0.0
                continue
            pool.timer[k] += dt
            if pool.timer[k] >= _blend_time(pool) - 1e-9:
                _give_back(pool, k)
            continue
        # STRUCK
        if standing[k]:
            pool.timer[k] += dt
            if pool.timer[k] >= pool.settle - 1e-9:
                _to_animation(pool, k)
                pool.state[k] = _BLENDING
                pool.timer[k] = 0.0
        else:
            pool.timer[k] = 0.0
            _help_up(pool, k, dt)


def _help_up(pool: Pool, k: int, dt: float) -> None:
    """A struck figure off its feet for HELP_UP s without getting up is told to get up
    (``motion.get_up``, when it is ``down``). ``set_get_up`` waits for it to lie still, and a
    figure propped on its arms after a fall can rock for good without ever lying still (the
    demo's first struck zombie sat 10 s and more); counted again from 0 after each look."""
    if service(pool.engine).fi[pool.bodies[k].slot, ML.F_MODE] == ML.GETTING_UP:
        pool.unsteady[k] = 0.0
        return
    pool.unsteady[k] += dt
    if pool.unsteady[k] >= HELP_UP - 1e-9:
        pool.unsteady[k] = 0.0
        body = pool.bodies[k]
        if motion.down(body):
            motion.get_up(body)


def _blend_time(pool: Pool) -> float:
    return float(motion.settings(pool.engine).modes.blend_time)


def _standing(pool: Pool, k: int) -> bool:
    """Back on its feet: POWERED, not falling, landed, lying, down, getting up or mid-step
    (staggering), leaning under STAND_LEAN, its pelvis over STAND_HEIGHT of its standing height,
    every muscle back from its blow. Read from the motion's tables at once (the public calls'
    checks, a dozen a step for a dozen figures, cost more than the rest of the pool)."""
    body = pool.bodies[k]
    s = service(pool.engine)
    f = body.slot
    fi, ff = s.fi, s.ff
    if (fi[f, ML.F_MODE] != ML.POWERED or fi[f, ML.F_FALLING] != 0
            or fi[f, ML.F_LAND] != ML.LAND_NONE or fi[f, ML.F_LYING] != 0
            or fi[f, ML.F_STAGGER] != 0 or fi[f, ML.F_STEP_PHASE] != ML.STEP_IDLE):
        return False
    if ff[f, ML.F_LEAN] >= STAND_LEAN:
        return False
    pel = int(body.ragdoll.bodies[human.BONE_PELVIS])
    if (pool.engine.physics.bf[pel, PL.B_POS + 1] - pool.road[pool.zombie[k]]
            < STAND_HEIGHT * pool.hips_height):
        return False
    if s.pbf[f, :body.ragdoll.bones, ML.PB_LOSS].max() >= MUSCLE_BACK:
        return False
    down = getattr(motion, "down", None)  # the ways up (#13), looked up when they land
    return not (down is not None and down(body))


def _standing_all(pool: Pool, which: np.ndarray) -> np.ndarray:
    """(size,) bool: ``_standing`` for every figure in ``which`` (a bool mask), read from the
    tables in a few array operations for all of them at once (a dozen figures one by one cost
    4 µs each a step); the ways up's ``down`` asked only of those that pass the rest."""
    s = service(pool.engine)
    if pool.slots is None:
        pool.slots = np.array([b.slot for b in pool.bodies], np.int64)
        pool.pelvis_slots = np.array([int(b.ragdoll.bodies[human.BONE_PELVIS])
                                      for b in pool.bodies], np.int64)
    f = pool.slots
    fi = s.fi[f]
    ok = (which & (fi[:, ML.F_MODE] == ML.POWERED) & (fi[:, ML.F_FALLING] == 0)
          & (fi[:, ML.F_LAND] == ML.LAND_NONE) & (fi[:, ML.F_LYING] == 0)
          & (fi[:, ML.F_STAGGER] == 0) & (fi[:, ML.F_STEP_PHASE] == ML.STEP_IDLE)
          & (s.ff[f, ML.F_LEAN] < STAND_LEAN))
    if not ok.any():
        return ok
    road = pool.road[np.where(pool.zombie >= 0, pool.zombie, 0)]
    ok &= (pool.engine.physics.bf[pool.pelvis_slots, PL.B_POS + 1] - road
           >= STAND_HEIGHT * pool.hips_height)
    nb = pool.bodies[0].ragdoll.bones
    ok &= s.pbf[f, :nb, ML.PB_LOSS].max(axis=1) < MUSCLE_BACK
    down = getattr(motion, "down", None)  # the ways up (#13), looked up when they land
    if down is not None:
        for k in np.nonzero(ok)[0]:
            ok[k] = not down(pool.bodies[int(k)])
    return ok


def _pelvis(pool: Pool, k: int) -> np.ndarray:
    r = pool.bodies[k].ragdoll
    return pool.engine.physics.bf[int(r.bodies[human.BONE_PELVIS]), PL.B_POS:PL.B_POS + 3]


def _pelvis_speed(pool: Pool, k: int) -> float:
    r = pool.bodies[k].ragdoll
    v = pool.engine.physics.bf[int(r.bodies[human.BONE_PELVIS]), PL.B_V:PL.B_V + 3]
    return float(np.linalg.norm(v))


# ---------------------------------------------------------------------------- the relation
def _turn(yaw: float) -> np.ndarray:
    c, s = math.cos(yaw), math.sin(yaw)
    return np.array([[c, 0.0, s], [0.0, 1.0, 0.0], [-s, 0.0, c]])


def _clip_hips(pool: Pool, k: int, t: float) -> np.ndarray:
    """(4, 4) the clip's hips at time t (s), the figure's object at the origin."""
    f = pool.figures[k]
    return figure.pose_world(f, figure.sample(f, pool.clip, t), np.eye(4))[pool.hips]


def _root_for(pool: Pool, k: int, pos: np.ndarray, yaw: float, t: float) -> np.ndarray:
    """Where figure k's object stands for the instance at ``pos`` turned ``yaw`` (the figure's
    own turn, facing included) with its clip at t: its hips over pos plus the offset."""
    hips = _clip_hips(pool, k, t)[:3, 3]
    turn = _turn(yaw)
    off = np.array([pool.offset[0], 0.0, pool.offset[1]])
    root = pos + turn @ (off - np.array([hips[0], 0.0, hips[2]]))
    root[1] = pos[1]
    return root


def _heading(m: np.ndarray) -> float:
    """rad about +y of a (3, 3) rotation's horizontal turn (its z axis, else its x axis)."""
    z = m[:, 2]
    if math.hypot(z[0], z[2]) > 0.3:
        return math.atan2(z[0], z[2])
    x = m[:, 0]
    return math.atan2(x[0], x[2]) - 0.5 * math.pi


def _stands(pool: Pool, k: int) -> tuple[np.ndarray, float, float]:
    """(root (3,) m, yaw rad, clip time s): where figure k's clip stands its hips as its
    drawn hips stand now, turned as they are turned (the animation moved to its bodies)."""
    f = pool.figures[k]
    t = figure.clip_time(f)
    clip_h = _clip_hips(pool, k, t)
    drawn_h = f.rig.update_world()[pool.hips]
    yaw = _heading(drawn_h[:3, :3]) - _heading(clip_h[:3, :3])
    yaw = math.atan2(math.sin(yaw), math.cos(yaw))
    turn = _turn(yaw)
    root = drawn_h[:3, 3] - turn @ np.array([clip_h[0, 3], 0.0, clip_h[2, 3]])
    root[1] = pool.road[pool.zombie[k]]
    return root, yaw, t


def _to_animation(pool: Pool, k: int) -> None:
    """Its animation moved to where its bodies stand, then ANIMATED (blending into the clip)."""
    root, yaw, t = _stands(pool, k)
    figure.place(pool.figures[k], root, yaw)
    pos, _, _ = _instance_of(pool, k, root, yaw, t)
    pool.carry_pos[k] = pos
    pool.carry_t[k] = t
    motion.set_mode(pool.bodies[k], motion.ANIMATED)


def _instance_of(pool: Pool, k: int, root: np.ndarray, yaw: float, t: float
                 ) -> tuple[np.ndarray, float, float]:
    """The instance (pos, yaw, phase) whose pose figure k shows standing at ``root`` turned
    ``yaw`` with its clip at t: the relation read backwards."""
    hips = _clip_hips(pool, k, t)[:3, 3]
    off = np.array([pool.offset[0], 0.0, pool.offset[1]])
    pos = root + _turn(yaw) @ (np.array([hips[0], 0.0, hips[2]]) - off)
    pos[1] = root[1]
    y = yaw - pool.facing
    return pos, math.atan2(math.sin(y), math.cos(y)), (t / pool.duration) % 1.0


def _give_back(pool: Pool, k: int, now: bool = False) -> None:
    """Figure k's zombie back to the horde where the figure stands, then the figure parked.
    ``now``: straight from wherever it is (a full pool's reuse), its stance read from its
    drawn hips; else from the placed clip it has blended into."""
    f = pool.figures[k]
    z = int(pool.zombie[k])
    if now:
        root, yaw, t = _stands(pool, k)
    else:
        m = f.rig.root
        root = m[:3, 3].copy()
        yaw = math.atan2(m[0, 2], m[2, 2])
        t = figure.clip_time(f)
    pos, y, ph = _instance_of(pool, k, root, yaw, t)
    pool.pos[z] = pos
    pool.yaw[z] = y
    pool.phase[z] = ph
    if pool.on_return is not None:
        pool.on_return(z)
    pool._outs[z] = 0
    _park(pool, k)


def _park(pool: Pool, k: int) -> None:
    """Figure k out of the world: hidden, its clip stopped, its bodies and anchors parked."""
    f = pool.figures[k]
    figure.set_visible(f, False)
    figure.stop(f)
    physics.ragdoll_park(pool.bodies[k].ragdoll)
    if pool.state[k] != _FREE:
        pool.active -= 1
    pool.state[k] = _FREE
    pool.zombie[k] = -1
    pool.timer[k] = 0.0


# ---------------------------------------------------------------------------- handing over
def nearest_bone(pool: Pool, k: int, point: np.ndarray) -> int:
    """The ragdoll bone of figure k whose body's centre is nearest ``point``."""
    r = pool.bodies[k].ragdoll
    p = pool.engine.physics.bf[np.asarray(r.bodies, np.int64), PL.B_POS:PL.B_POS + 3]
    return int(np.argmin(np.sum((p - point) ** 2, axis=1)))


def pick_figure(pool: Pool, point: np.ndarray) -> int:
    """The figure a strike at ``point`` takes: a free one (the first), else the farthest from
    the point that is not mid-fall (a killed one lying, or one standing over its blow); -1
    when every one is falling, lying or getting up."""
    free = np.nonzero(pool.state == _FREE)[0]
    if len(free):
        return int(free[0])
    best, far = -1, -1.0
    for k in range(pool.size):
        st = pool.state[k]
        if st == _DEAD:
            ok = _pelvis_speed(pool, k) < STILL_SPEED
        elif st == _BLENDING:
            ok = True
        else:
            ok = _standing_over_blow(pool, k)
        if ok:
            d = float(np.linalg.norm(_pelvis(pool, k) - point))
            if d > far:
                best, far = k, d
    return best


def _standing_over_blow(pool: Pool, k: int) -> bool:
    """On its feet after a blow it took standing (not falling, landed, down or getting up)."""
    body = pool.bodies[k]
    if motion.mode(body) != motion.POWERED:
        return False
    if motion.falling(body) or motion.landed(body) or motion.lying(body):
        return False
    down = getattr(motion, "down", None)
    return not (down is not None and down(body))


def free_figure(pool: Pool, k: int) -> None:
    """Figure k made free for a new strike: given back (standing) or despawned (killed)."""
    if pool.state[k] == _DEAD:
        _park(pool, k)
    elif pool.state[k] != _FREE:
        _give_back(pool, k, now=pool.state[k] == _STRUCK)


def hand_over(pool: Pool, k: int, zombie: int, point: np.ndarray, impulse: np.ndarray,
              kill: bool) -> None:
    """Zombie ``zombie`` handed to the free figure k, hit (kill: LIMP)."""
    f = pool.figures[k]
    body = pool.bodies[k]
    pos = pool.pos[zombie].copy()
    yaw = float(pool.yaw[zombie]) + pool.facing
    t = float(pool.phase[zombie] % 1.0) * pool.duration
    # the nodes as the file has them (a figure that lay limp last time would be stood so)
    figure.reset_pose(f)
    figure.play(f, pool.clip, 1.0, True)
    figure.set_clip_time(f, t)
    figure.place(f, _root_for(pool, k, pos, yaw, t), yaw)
    figure.set_visible(f, True)
    if pool.tint is not None:
        _dress_tint(pool, k, pool.tint[zombie])
    _fresh_animation(body)
    _fresh_state(body)
    # a killed one lies for good: with set_get_up on, a LIMP figure lain still gets up too
    motion.set_get_up(body, 0.0 if kill else GET_UP)
    if motion.mode(body) != motion.ANIMATED:
        motion.set_mode(body, motion.ANIMATED)
    physics.ragdoll_unpark(body.ragdoll)
    physics.ragdoll_to_rig(body.ragdoll)
    _fresh_animation(body)
    motion.set_mode(body, motion.LIMP if kill else motion.POWERED)
    bone = nearest_bone(pool, k, point)
    motion.hit(body, bone, point, impulse)
    # the instance out: flagged, and parked a million metres off (every cull drops it)
    pool.road[zombie] = pos[1]
    pool._outs[zombie] = 1
    pool.pos[zombie] = (crowd.PARKED, pos[1], crowd.PARKED)
    pool.zombie[k] = zombie
    pool.state[k] = _DEAD if kill else _STRUCK
    pool.timer[k] = 0.0
    pool.unsteady[k] = 0.0
    pool.active += 1
    if kill:
        pool._dead[zombie] = 1


def _fresh_animation(body: Any) -> None:
    """The animation read from the rig as it stands now and nothing shown held from before
    (the figure was parked: what it showed then is not what it shows now)."""
    _pose.read_one(body)
    service(body.engine).fi[body.slot, ML.F_SHOWN] = 0


def _fresh_state(body: Any) -> None:
    """What a figure's last fall left in its row cleared, as a new figure's: the blows' shares
    of its muscles, the landing and lying, the shape held, the leans."""
    s = service(body.engine)
    f = body.slot
    s.pbf[f, :body.ragdoll.bones, ML.PB_LOSS] = 0.0
    s.fi[f, ML.F_LAND] = ML.LAND_NONE
    s.fi[f, ML.F_LAND_N] = 0
    s.fi[f, ML.F_LYING] = 0
    s.ff[f, ML.F_HOLD] = 0.0
    s.ff[f, ML.F_STILL_T] = 0.0
    s.ff[f, ML.F_LEAN] = 0.0
    s.ff[f, ML.F_MAX_LEAN] = 0.0


def _dress_tint(pool: Pool, k: int, tint: np.ndarray) -> None:
    """Figure k wears ``tint`` where the renderer draws it (nothing without a renderer)."""
    s = pool.engine.services.get("render")
    if s is None:
        return
    s.sync()
    entry = s._auto.get(pool.objects[k])  # noqa: SLF001 - the renderer's items of a figure
    if entry is not None:
        for it in entry[1]:
            it.tint[:] = tint
