"""The physics world: body, joint, anchor and contact tables, and the step.

Tables (layout in ``_layout``): bodies ``bf``/``bi`` (rows = slots, ``n`` = high-water mark, a
free list of removed slots, a generation per slot for stale-handle checks), joints ``jf``/``ji``
(``nj``), anchors ``af``/``ai`` (``na``), and two manifold buffers swapped after each step (last
step's manifolds warm-start this step's). Every table grows by doubling in Python between steps;
the step is one jitted call (``_kernels_step.step_world``) that allocates only its own scratch
(the joints' pose-derived values and the island lists, a few arrays a step). Its sub-steps run
island by island on ``threads`` threads (numba's pool), with the same bits on any count.

For other modules (joints, anchors, ragdolls, motion), the internal calls are:
    add_body(kind, shape, dims, pos, quat, *, mass=None, density=None, friction=0.9,
             restitution=0.0, group=1, mask=ALL_GROUPS, linear_damping=0, angular_damping=0,
             gravity_scale=1, rolling=None) -> slot      (KIND_*, SHAPE_* from _layout)
    remove_body(slot);  handle(slot) -> Body;  slot_of(body, name) -> slot (raises if stale)
    park_body(slot) / unpark_body(slot) / is_parked(slot);  wake(slot) (its island too)
    is_awake(slot);  kind(slot);  move_kinematic(slot, pos, quat)
    ignore_pair(a, b) / unignore_pair(a, b)     (slots; never collide)
    alloc_joint() -> row / free_joint(row);  alloc_anchor() -> row / free_anchor(row)
    substeps, powered (ints); effective_substeps (at least 8 while powered > 0)
    threads (solver threads, 1..max_threads()); last_islands (islands of the last step)
    contacts(slot=None) -> [(a, b, point, normal impulse)];  awake_count();  body_count()
A body's pose is bf[slot, B_POS/B_QUAT] (current, also within sub-steps); bf[slot, B_IW] is its
world inverse inertia, computed once per step from the step's starting rotation (as Box2D).

Parked rows cost a step nothing (issue 16): the step walks three lists, the body slots not
parked, and the joint and anchor slots in use on no parked body (``_live_lists``), made again
only when a body, joint or anchor is added, removed, parked or unparked. The rows they leave
out are those every pass skipped, so the rest see the same operations in the same order.
"""

from __future__ import annotations

import glob
import heapq
import itertools
import math
import os
import sys
from dataclasses import dataclass

import numba
import numpy as np

from . import _layout as L

_world_ids = itertools.count(1)
_announced = False

KIND_NAMES = {L.KIND_STATIC: "static", L.KIND_KINEMATIC: "kinematic", L.KIND_DYNAMIC: "dynamic"}
ALL_GROUPS = (1 << 62) - 1 + (1 << 62)  # every bit but the sign
# Issue 18's defaults (see World.__init__): the ground's reach spin (rad/s) and the step's flags;
# the projection's gap and sweeps are _kernels_joints.PROJECT_GAP and PROJECT_SWEEPS
REACH_SPIN = 20.0
STEP_FLAGS = 0


@dataclass(frozen=True, slots=True)
class Body:
    """A handle to a body of one physics world: its slot, the slot's generation and the world's
    id. A removed body's handle stays invalid forever (the slot's generation moves on)."""

    slot: int
    gen: int
    world: int

    def __repr__(self) -> str:
        return f"Body(slot={self.slot}, gen={self.gen})"


def _grow_rows(a: np.ndarray, rows: int) -> np.ndarray:
    out = np.zeros((rows,) + a.shape[1:], dtype=a.dtype)
    out[: a.shape[0]] = a
    return out


def _fit_cols(a: np.ndarray, cols: int) -> np.ndarray:
    if a.shape[1] >= cols:
        return a
    out = np.zeros((a.shape[0], cols), dtype=a.dtype)
    out[:, : a.shape[1]] = a
    return out


def shape_mass(shape: int, dims: tuple[float, float, float]
               ) -> tuple[float, tuple[float, ...], float]:
    """(volume m³, inertia per unit mass about the centre in the body frame (m²), bounding
    radius m) of a shape."""
    pi = math.pi
    if shape == L.SHAPE_SPHERE:
        r = dims[0]
        k = 0.4 * r * r
        return 4.0 / 3.0 * pi * r**3, (k, k, k), r
    if shape == L.SHAPE_BOX:
        a, b, c = dims
        return 8.0 * a * b * c, ((b * b + c * c) / 3.0, (a * a + c * c) / 3.0,
                                 (a * a + b * b) / 3.0), math.sqrt(a * a + b * b + c * c)
    if shape == L.SHAPE_CAPSULE:
        r, hl = dims[0], dims[1]
        h = 2.0 * hl
        vc = pi * r * r * h
        vs = 4.0 / 3.0 * pi * r**3
        v = vc + vs
        fc, fs = vc / v, vs / v
        iy = fc * r * r / 2.0 + fs * 0.4 * r * r
        ix = (fc * (h * h / 12.0 + r * r / 4.0)
              + fs * (0.4 * r * r + h * h / 4.0 + 3.0 * h * r / 8.0))
        return v, (ix, iy, ix), hl + r
    if shape == L.SHAPE_CYLINDER:
        r, hl = dims[0], dims[1]
        h = 2.0 * hl
        ix = (3.0 * r * r + h * h) / 12.0
        return pi * r * r * h, (ix, r * r / 2.0, ix), math.sqrt(r * r + hl * hl)
    return 0.0, (0.0, 0.0, 0.0), 0.0


# numba's cache is guarded package-wide at import (ae3d/_cache.py, called by ae3d/__init__)


def _announce_compile() -> None:
    """Say so once when the step kernel is not in numba's cache yet (first use compiles)."""
    global _announced
    if _announced:
        return
    _announced = True
    here = os.path.join(os.path.dirname(__file__), "__pycache__")
    if not glob.glob(os.path.join(here, "_kernels_step.step_world-*.nbi")):
        print("compiling physics kernels, once", file=sys.stderr, flush=True)


def max_threads() -> int:
    """The most solver threads this process can use (numba's pool: the machine's cores, or
    NUMBA_NUM_THREADS)."""
    return int(numba.config.NUMBA_NUM_THREADS)


class World:
    """A soft-step rigid-body world (SI units; Y up; quaternions (x, y, z, w)).

    Attributes:
        gravity: (3,) m/s², (0, -9.81, 0) by default.
        substeps: solver sub-steps per fixed step (4).
        powered: count of powered figures; while > 0 the solver runs 8 sub-steps.
        sleep: False keeps every body awake.
    """

    def __init__(self, capacity: int = 64) -> None:
        cap = max(8, int(capacity))
        self.id = next(_world_ids)
        self.gravity = np.array([0.0, -9.81, 0.0])
        self.substeps = 4
        self.powered = 0
        self.blow_stats = np.zeros(3, dtype=np.int64)  # blows through joints; scaled; grounded
        self.sleep = True
        # solver settings (Box2D's defaults; see _kernels_contact)
        # Box2D's 30 Hz lets a stack sink: under load a soft contact settles at g/ω² per unit
        # of (load / point effective mass); measured, the top of 10 stacked 0.5 m cubes sank
        # 24 mm at 30 Hz and 6 mm at 60 Hz. 60 Hz is Box2D's own stability clamp at 4 sub-steps
        # (a quarter of the sub-step rate), so we use it; static contacts get twice that.
        self.contact_hertz = 60.0
        self.contact_damping = 10.0
        self.contact_speed = 3.0  # m/s, the fastest push-out of an overlap
        self.restitution_threshold = 1.0  # m/s
        self.sleep_threshold = 0.05  # m/s
        self.time_to_sleep = 0.5  # s
        self.margin = 0.02  # m, speculative margin at rest (grows with speed)
        self.max_linear_speed = 400.0  # m/s
        # issue 18: a body's margin against a ground plane also covers what a drive may swing
        # it by in a step at this spin (rad/s; 0: off; _kernels_broadphase SF_REACH)
        self.reach_spin = REACH_SPIN
        # joints open past project_gap (m) at a step's end projected, up to project_sweeps
        # sweeps (0: off; _kernels_joints.project_joints)
        from . import _kernels_joints as kj

        self.project_gap = kj.PROJECT_GAP
        self.project_sweeps = kj.PROJECT_SWEEPS
        self.step_flags = STEP_FLAGS  # _kernels_step.IP_STEP_FLAGS' bits
        # default rolling resistance of new bodies: a 1 m/s ball on the ground stops in ~7 s
        # (decelerates at c·g/1.4); 0 rolls for ever and a pile with balls never sleeps
        self.rolling_resistance = 0.02
        # sweeps over a manifold's normal points per solver pass, alternating direction.
        # Measured on 10 stacked cubes (4 sub-steps): 1 sweep leans the stack 6.5 mm sideways
        # (sequential Gauss-Seidel favours a manifold's first point), 2 sweeps 1.6 mm, 3 sweeps
        # 0.2 mm; each sweep costs ~0.5 µs per body per step in a 256-body pile.
        self.point_sweeps = 2
        self.steps = 0
        self.time = 0.0
        # bodies
        self.cap = cap
        self.n = 0
        self._free: list[int] = []
        self.bf = np.zeros((cap, L.BF_COUNT))
        self.bi = np.zeros((cap, L.BI_COUNT), dtype=np.int64)
        self.sf = np.zeros((cap, L.SF_COUNT))
        self.si = np.zeros((cap, L.SI_COUNT), dtype=np.int64)
        # joints and anchors (their content belongs to the joints work)
        self.jf = np.zeros((16, L.JF_COUNT))
        self.ji = np.zeros((16, L.JI_COUNT), dtype=np.int64)
        self.nj = 0
        self._jfree: list[int] = []
        self.af = np.zeros((16, L.AF_COUNT))
        self.ai = np.zeros((16, L.AI_COUNT), dtype=np.int64)
        self.na = 0
        self._afree: list[int] = []
        # contacts: two manifold buffers, the current one is (mf, mi, nm)
        mcap = 4 * cap
        self.mf = np.zeros((mcap, L.MF_COUNT))
        self.mi = np.zeros((mcap, L.MI_COUNT), dtype=np.int64)
        self._mf1 = np.zeros((mcap, L.MF_COUNT))
        self._mi1 = np.zeros((mcap, L.MI_COUNT), dtype=np.int64)
        self.nm = 0
        self.keys = np.zeros(8 * cap, dtype=np.int64)
        self._ignore: set[int] = set()
        self.ign = np.zeros(1, dtype=np.int64)
        self._n_ign = 0
        # narrow-phase scratch
        self._cn = np.zeros(3)
        self._cp = np.zeros((4, 3))
        self._cs = np.zeros(4)
        self._cid = np.zeros(4, dtype=np.int64)
        # step parameters
        from . import _kernels_step as ks

        self._ks = ks
        self.fp = np.zeros(ks.FP_COUNT)
        self.ip = np.zeros(ks.IP_COUNT, dtype=np.int64)
        # solver threads: islands (groups of bodies no joint or contact joins) are solved in
        # parallel; the results are the same bits on any count (see _kernels_islands)
        self.threads = max_threads()
        self.last_islands = 0
        self.last_pairs = 0
        self.last_woken = 0
        self.last_slept = 0
        self.last_reset = 0  # bodies put back by the last step for going non-finite
        # the nets' actions on bodies since removed (B_NETS of the live ones holds the rest)
        self.nets_removed = np.zeros(L.NET_COUNT)
        # the rows the step walks (see the module docstring): made again when _lists_key moves
        self._lists_dirty = True
        self._lists_key = (-1, -1, -1)
        self._lb = np.zeros(0, dtype=np.int64)
        self._lj = np.zeros(0, dtype=np.int64)
        self._la = np.zeros(0, dtype=np.int64)

    # -- sub-steps -------------------------------------------------------------------------
    @property
    def effective_substeps(self) -> int:
        """Sub-steps the next step runs: ``substeps``, or at least 8 while ``powered > 0``."""
        return max(self.substeps, 8) if self.powered > 0 else self.substeps

    # -- bodies ----------------------------------------------------------------------------
    def _grow_bodies(self, need: int) -> None:
        cap = self.cap
        while cap < need:
            cap *= 2
        if cap == self.cap:
            return
        self.bf = _grow_rows(self.bf, cap)
        self.bi = _grow_rows(self.bi, cap)
        self.sf = np.zeros((cap, L.SF_COUNT))
        self.si = np.zeros((cap, L.SI_COUNT), dtype=np.int64)
        self.ip[self._ks.IP_SORT] = 0  # the broadphase's kept sweep order went with si
        self.cap = cap
        # room for the pairs and manifolds so many bodies may make (a pile: ~3 per body)
        if self.keys.shape[0] < 8 * cap:
            self.keys = np.zeros(8 * cap, dtype=np.int64)
        if self.mf.shape[0] < 4 * cap:
            m = 4 * cap
            self.mf = _grow_rows(self.mf, m)
            self.mi = _grow_rows(self.mi, m)
            self._mf1 = np.zeros((m, L.MF_COUNT))
            self._mi1 = np.zeros((m, L.MI_COUNT), dtype=np.int64)

    def add_body(self, kind: int, shape: int, dims, pos, quat=(0.0, 0.0, 0.0, 1.0), *,
                 mass: float | None = None, density: float | None = None,
                 friction: float = 0.9, restitution: float = 0.0,
                 group: int = 1, mask: int = ALL_GROUPS,
                 linear_damping: float = 0.0, angular_damping: float = 0.0,
                 gravity_scale: float = 1.0, rolling: float | None = None) -> int:
        """Add a body; returns its slot. Internal (the public calls validate first).

        kind: KIND_*; shape: SHAPE_*; dims (3,) m (sphere (r,·,·), capsule/cylinder (r, half
        length, ·), box half extents, plane ignored); pos (3,) m; quat (4,) xyzw (normalized
        here); mass kg, or density kg/m³ (1000 if neither) for a dynamic body.
        """
        d = np.zeros(3)
        dd = np.asarray(dims, dtype=np.float64).ravel()
        d[: min(3, dd.size)] = dd[:3]
        p = np.asarray(pos, dtype=np.float64).reshape(3)
        q = np.asarray(quat, dtype=np.float64).reshape(4)
        qn = float(np.sqrt(q @ q))
        if not qn > 0.0:
            raise ValueError("rotation must be a non-zero quaternion")
        q = q / qn
        vol, inert, radius = shape_mass(shape, (float(d[0]), float(d[1]), float(d[2])))
        m = 0.0
        if kind == L.KIND_DYNAMIC:  # checked before a slot is taken: a refused body leaves none
            m = float(mass) if mass is not None else (1000.0 if density is None else density) * vol
            if not (m > 0.0 and math.isfinite(1.0 / m)):
                raise ValueError("mass must be positive for a dynamic body")
        if self._free:
            slot = heapq.heappop(self._free)
        else:
            slot = self.n
            self._grow_bodies(slot + 1)
            self.n += 1
        gen = int(self.bi[slot, L.B_GEN])
        self.bf[slot] = 0.0
        self.bi[slot] = 0
        self.bi[slot, L.B_GEN] = gen
        bf = self.bf[slot]
        bi = self.bi[slot]
        bi[L.B_KIND] = kind
        bi[L.B_SHAPE] = shape
        bi[L.B_AWAKE] = 1
        bi[L.B_GROUP] = group
        bi[L.B_MASK] = mask
        bi[L.B_ISLAND] = -1
        bf[L.B_POS:L.B_POS + 3] = p
        bf[L.B_QUAT:L.B_QUAT + 4] = q
        bf[L.B_POS0:L.B_POS0 + 3] = p
        bf[L.B_QUAT0:L.B_QUAT0 + 4] = q
        bf[L.B_KIN_POS:L.B_KIN_POS + 3] = p
        bf[L.B_KIN_QUAT:L.B_KIN_QUAT + 4] = q
        bf[L.B_DIMS:L.B_DIMS + 3] = d
        bf[L.B_FRICTION] = friction
        bf[L.B_RESTITUTION] = restitution
        bf[L.B_LIN_DAMP] = linear_damping
        bf[L.B_ANG_DAMP] = angular_damping
        bf[L.B_GRAV_SCALE] = gravity_scale
        bf[L.B_ROLLING] = self.rolling_resistance if rolling is None else rolling
        bf[L.B_RADIUS] = radius
        if kind == L.KIND_DYNAMIC:
            bf[L.B_MASS] = m
            bf[L.B_INV_MASS] = 1.0 / m
            bf[L.B_INV_I:L.B_INV_I + 3] = [1.0 / (m * k) for k in inert]
        self._invalidate_manifolds(slot)
        self._lists_dirty = True
        return slot

    def _invalidate_manifolds(self, slot: int) -> None:
        """Forget warm-start data of manifolds that name ``slot`` (keys stay sorted)."""
        nm = self.nm
        if nm:
            mi = self.mi[:nm]
            hit = (mi[:, L.M_A] == slot) | (mi[:, L.M_B] == slot)
            mi[hit, L.M_N] = 0

    def remove_body(self, slot: int) -> None:
        """Take a body out for good: its slot goes back to the free list, its handles go stale,
        its never-collide pairs are dropped, and whatever it touched wakes."""
        self.wake(slot)
        self._wake_touching(slot)
        gen = int(self.bi[slot, L.B_GEN]) + 1
        self.nets_removed += self.bf[slot, L.B_NETS:L.B_NETS + L.NET_COUNT]
        self.bf[slot] = 0.0
        self.bi[slot] = 0
        self.bi[slot, L.B_GEN] = gen
        self.bi[slot, L.B_KIND] = L.KIND_FREE
        self._invalidate_manifolds(slot)
        drop = [k for k in self._ignore if (k >> 32) == slot or (k & 0xFFFFFFFF) == slot]
        if drop:
            self._ignore.difference_update(drop)
            self._rebuild_ignore()
        heapq.heappush(self._free, slot)
        self._lists_dirty = True

    def _wake_touching(self, slot: int) -> None:
        """Wake whatever the body touched: its contacts of the last step, and the asleep bodies
        near it (a sleeper resting on a static or kinematic body has no manifold with it; a
        plane reaches every body)."""
        nm = self.nm
        if nm:
            mi = self.mi[:nm]
            for r in np.nonzero((mi[:, L.M_A] == slot) | (mi[:, L.M_B] == slot))[0]:
                other = int(mi[r, L.M_B] if mi[r, L.M_A] == slot else mi[r, L.M_A])
                self.wake(other)
        n = self.n
        bi = self.bi[:n]
        asleep = np.nonzero((bi[:, L.B_KIND] == L.KIND_DYNAMIC) & (bi[:, L.B_AWAKE] == 0))[0]
        if asleep.size == 0:
            return
        if self.bi[slot, L.B_SHAPE] != L.SHAPE_PLANE:
            bf = self.bf
            d = np.linalg.norm(bf[asleep, L.B_POS:L.B_POS + 3] - bf[slot, L.B_POS:L.B_POS + 3],
                               axis=1)
            asleep = asleep[d <= bf[asleep, L.B_RADIUS] + bf[slot, L.B_RADIUS] + 2 * self.margin]
        for other in asleep:
            self.wake(int(other))

    def handle(self, slot: int) -> Body:
        """The handle of the live body in ``slot``."""
        return Body(int(slot), int(self.bi[slot, L.B_GEN]), self.id)

    def slot_of(self, body: object, name: str = "body") -> int:
        """The slot of a live body handle; TypeError/ValueError naming ``name`` otherwise."""
        if not isinstance(body, Body):
            raise TypeError(f"{name} must be a physics body handle, not {type(body).__name__}")
        if body.world != self.id:
            raise ValueError(f"{name} belongs to another physics world")
        s = body.slot
        if (s < 0 or s >= self.n or self.bi[s, L.B_KIND] == L.KIND_FREE
                or self.bi[s, L.B_GEN] != body.gen):
            raise ValueError(f"{name} was removed (stale body handle)")
        return s

    def kind(self, slot: int) -> int:
        return int(self.bi[slot, L.B_KIND])

    def wake(self, slot: int) -> None:
        """Wake a dynamic body and its island (sleep time back to 0)."""
        from ._kernels_sleep import wake_island

        if self.bi[slot, L.B_KIND] != L.KIND_DYNAMIC:
            return
        if self.bi[slot, L.B_AWAKE] == 0:
            wake_island(self.bf, self.bi, self.n, slot)
        self.bf[slot, L.B_SLEEP_TIME] = 0.0

    def is_awake(self, slot: int) -> bool:
        return bool(self.bi[slot, L.B_AWAKE])

    def park_body(self, slot: int) -> None:
        """Take a body out of the world (no contacts, not integrated, no cost) where it is."""
        if self.bi[slot, L.B_PARKED]:
            return
        self.wake(slot)
        self._wake_touching(slot)
        if self.bi[slot, L.B_KIN_MOVE]:  # the move the step would make (it passes parked by)
            self.bi[slot, L.B_PARKED] = 1
            self.move_kinematic(slot, self.bf[slot, L.B_KIN_POS:L.B_KIN_POS + 3].copy(),
                                self.bf[slot, L.B_KIN_QUAT:L.B_KIN_QUAT + 4].copy())
        self.bi[slot, L.B_PARKED] = 1
        self._invalidate_manifolds(slot)
        self._lists_dirty = True

    def unpark_body(self, slot: int) -> None:
        """Put a parked body back, awake, with the pose and velocities it had (or was given).
        A force or torque put on it while parked is dropped (the step clears them before they
        act; it passes a parked body by, so this does it)."""
        if not self.bi[slot, L.B_PARKED]:
            return
        self.bi[slot, L.B_PARKED] = 0
        self._lists_dirty = True
        if self.bi[slot, L.B_KIND] == L.KIND_DYNAMIC:
            self.bi[slot, L.B_AWAKE] = 1
            self.bf[slot, L.B_SLEEP_TIME] = 0.0
            self.bf[slot, L.B_FORCE:L.B_FORCE + 3] = 0.0
            self.bf[slot, L.B_TORQUE:L.B_TORQUE + 3] = 0.0

    def set_kind(self, slot: int, kind: int, mass: float) -> None:
        """Turn a kinematic body dynamic (of ``mass`` kg, its inertia its shape's) or a dynamic one
        kinematic, where it is, at rest; its contacts' warm starts forgotten and what touched it
        woken. Internal (``physics.set_kind`` validates first)."""
        bf, bi = self.bf[slot], self.bi[slot]
        self.wake(slot)
        self._wake_touching(slot)
        bi[L.B_KIND] = kind
        bi[L.B_KIN_MOVE] = 0
        bf[L.B_V:L.B_V + 3] = 0.0
        bf[L.B_W:L.B_W + 3] = 0.0
        bf[L.B_FORCE:L.B_FORCE + 3] = 0.0
        bf[L.B_TORQUE:L.B_TORQUE + 3] = 0.0
        bf[L.B_SLEEP_TIME] = 0.0
        if kind == L.KIND_DYNAMIC:
            dims = (float(bf[L.B_DIMS]), float(bf[L.B_DIMS + 1]), float(bf[L.B_DIMS + 2]))
            inert = shape_mass(int(bi[L.B_SHAPE]), dims)[1]
            bf[L.B_MASS] = mass
            bf[L.B_INV_MASS] = 1.0 / mass
            bf[L.B_INV_I:L.B_INV_I + 3] = [1.0 / (mass * k) for k in inert]
            bi[L.B_AWAKE] = 1
        else:
            # held where it is until it is moved (move_kinematic)
            bf[L.B_MASS] = 0.0
            bf[L.B_INV_MASS] = 0.0
            bf[L.B_INV_I:L.B_INV_I + 3] = 0.0
            bf[L.B_IW:L.B_IW + 9] = 0.0
            bf[L.B_KIN_POS:L.B_KIN_POS + 3] = bf[L.B_POS:L.B_POS + 3]
            bf[L.B_KIN_QUAT:L.B_KIN_QUAT + 4] = bf[L.B_QUAT:L.B_QUAT + 4]
            bi[L.B_AWAKE] = 1
            bi[L.B_ISLAND] = -1
        self._invalidate_manifolds(slot)
        self._lists_dirty = True

    def is_parked(self, slot: int) -> bool:
        return bool(self.bi[slot, L.B_PARKED])

    def ignore_pair(self, a: int, b: int) -> None:
        """Bodies in slots a and b never collide (until unignore_pair or either is removed)."""
        if a == b:
            return
        self._ignore.add((min(a, b) << 32) | max(a, b))
        self._rebuild_ignore()

    def unignore_pair(self, a: int, b: int) -> None:
        self._ignore.discard((min(a, b) << 32) | max(a, b))
        self._rebuild_ignore()

    def ignore_pairs(self, pairs) -> list[tuple[int, int]]:  # type: ignore[no-untyped-def]
        """Many pairs of body slots (a, b) never collide, with one rebuild of the sorted keys
        (``ignore_pair`` rebuilds once a pair). Returns the pairs this added, those not already
        ignored, for ``unignore_pairs`` to take back without touching pairs others set (a
        joint's, a ragdoll's own)."""
        added = []
        for a, b in pairs:
            a, b = int(a), int(b)
            if a == b:
                continue
            k = (min(a, b) << 32) | max(a, b)
            if k not in self._ignore:
                self._ignore.add(k)
                added.append((a, b))
        if added:
            self._rebuild_ignore()
        return added

    def unignore_pairs(self, pairs) -> None:  # type: ignore[no-untyped-def]
        """Pairs (a, b) collide again (one rebuild): the inverse of ``ignore_pairs``."""
        n = len(self._ignore)
        for a, b in pairs:
            a, b = int(a), int(b)
            self._ignore.discard((min(a, b) << 32) | max(a, b))
        if len(self._ignore) != n:
            self._rebuild_ignore()

    def _rebuild_ignore(self) -> None:
        keys = sorted(self._ignore)
        self.ign = np.array(keys if keys else [0], dtype=np.int64)
        self._n_ign = len(keys)

    def move_kinematic(self, slot: int, pos, quat) -> None:
        """Target pose of a kinematic body for the next step (it moves there with the
        velocities that takes, then stops unless moved again). A parked body lands on it at
        once, at rest (what the step did to it; the step passes a parked body by)."""
        self.bf[slot, L.B_KIN_POS:L.B_KIN_POS + 3] = pos
        self.bf[slot, L.B_KIN_QUAT:L.B_KIN_QUAT + 4] = quat
        if self.bi[slot, L.B_PARKED]:
            self.bf[slot, L.B_POS:L.B_POS + 3] = self.bf[slot, L.B_KIN_POS:L.B_KIN_POS + 3]
            self.bf[slot, L.B_QUAT:L.B_QUAT + 4] = self.bf[slot, L.B_KIN_QUAT:L.B_KIN_QUAT + 4]
            self.bf[slot, L.B_V:L.B_V + 3] = 0.0
            self.bf[slot, L.B_W:L.B_W + 3] = 0.0
            self.bi[slot, L.B_KIN_MOVE] = 0
            return
        self.bi[slot, L.B_KIN_MOVE] = 1

    # -- joints and anchors rows (content owned by the joints work) -------------------------
    def alloc_joint(self) -> int:
        """A zeroed joint row (ji[row, J_KIND] is JOINT_FREE until the caller fills it)."""
        self.jf = _fit_cols(self.jf, L.JF_COUNT)
        self.ji = _fit_cols(self.ji, L.JI_COUNT)
        if self._jfree:
            row = heapq.heappop(self._jfree)
        else:
            row = self.nj
            if row >= self.jf.shape[0]:
                self.jf = _grow_rows(self.jf, 2 * self.jf.shape[0])
                self.ji = _grow_rows(self.ji, 2 * self.ji.shape[0])
            self.nj += 1
        self.jf[row] = 0.0
        self.ji[row] = 0
        self._lists_dirty = True  # (the caller fills its bodies before the next step)
        return row

    def free_joint(self, row: int) -> None:
        self.jf[row] = 0.0
        self.ji[row] = 0
        heapq.heappush(self._jfree, row)
        self._lists_dirty = True

    def alloc_anchor(self) -> int:
        """A zeroed anchor row (ai[row, A_KIND] is ANCHOR_FREE until the caller fills it)."""
        self.af = _fit_cols(self.af, L.AF_COUNT)
        self.ai = _fit_cols(self.ai, L.AI_COUNT)
        if self._afree:
            row = heapq.heappop(self._afree)
        else:
            row = self.na
            if row >= self.af.shape[0]:
                self.af = _grow_rows(self.af, 2 * self.af.shape[0])
                self.ai = _grow_rows(self.ai, 2 * self.ai.shape[0])
            self.na += 1
        self.af[row] = 0.0
        self.ai[row] = 0
        self._lists_dirty = True  # (the caller fills its body before the next step)
        return row

    def free_anchor(self, row: int) -> None:
        self.af[row] = 0.0
        self.ai[row] = 0
        heapq.heappush(self._afree, row)
        self._lists_dirty = True

    # -- the step --------------------------------------------------------------------------
    def _live_lists(self) -> tuple[np.ndarray, np.ndarray, np.ndarray]:
        """The rows the step walks, ascending: body slots not parked (free ones included, as
        the passes always saw them), joint slots in use on no parked body, anchor slots in use
        on no parked body. Made again after an add, remove, park or unpark (or when a table's
        high-water mark moved under it); otherwise the last ones."""
        key = (self.n, self.nj, self.na)
        if self._lists_dirty or key != self._lists_key:
            n = self.n
            parked = self.bi[:n, L.B_PARKED] != 0
            self._lb = np.flatnonzero(~parked).astype(np.int64)

            def on_parked(b: np.ndarray) -> np.ndarray:
                inside = (b >= 0) & (b < n)
                out = np.zeros(b.shape[0], dtype=bool)
                out[inside] = parked[b[inside]]
                return out

            ji = self.ji[: self.nj]
            self._lj = np.flatnonzero((ji[:, L.J_KIND] != L.JOINT_FREE)
                                      & ~on_parked(ji[:, L.J_BODY_A])
                                      & ~on_parked(ji[:, L.J_BODY_B])).astype(np.int64)
            ai = self.ai[: self.na]
            self._la = np.flatnonzero((ai[:, L.A_KIND] != L.ANCHOR_FREE)
                                      & ~on_parked(ai[:, L.A_BODY])).astype(np.int64)
            self._lists_dirty = False
            self._lists_key = key
        return self._lb, self._lj, self._la

    def step(self, dt: float) -> None:
        """Advance the world by dt seconds (one fixed step: collide once, then the sub-steps)."""
        if not (math.isfinite(dt) and dt > 0.0):
            raise ValueError("dt must be a positive finite number of seconds")
        _announce_compile()
        ks = self._ks
        # grow what the last step found too small (its overflow was dropped for one step)
        need_keys = int(self.last_pairs)
        if need_keys > self.keys.shape[0] * 3 // 4:
            self.keys = np.zeros(max(2 * need_keys, 2 * self.keys.shape[0]), dtype=np.int64)
        need_m = int(self.ip[ks.IP_OUT_MANIFOLDS])
        if need_m > self.mf.shape[0] * 3 // 4:
            m = max(2 * need_m, 2 * self.mf.shape[0])
            self.mf = _grow_rows(self.mf, m)
            self.mi = _grow_rows(self.mi, m)
            self._mf1 = np.zeros((m, L.MF_COUNT))
            self._mi1 = np.zeros((m, L.MI_COUNT), dtype=np.int64)
        if self.jf.shape[1] < L.JF_COUNT or self.ji.shape[1] < L.JI_COUNT:
            self.jf = _fit_cols(self.jf, L.JF_COUNT)
            self.ji = _fit_cols(self.ji, L.JI_COUNT)
        if self.af.shape[1] < L.AF_COUNT or self.ai.shape[1] < L.AI_COUNT:
            self.af = _fit_cols(self.af, L.AF_COUNT)
            self.ai = _fit_cols(self.ai, L.AI_COUNT)
        fp = self.fp
        g = self.gravity
        fp[ks.FP_GX] = g[0]
        fp[ks.FP_GY] = g[1]
        fp[ks.FP_GZ] = g[2]
        fp[ks.FP_DT] = dt
        fp[ks.FP_CONTACT_HZ] = self.contact_hertz
        fp[ks.FP_CONTACT_ZETA] = self.contact_damping
        fp[ks.FP_CONTACT_SPEED] = self.contact_speed
        fp[ks.FP_RESTITUTION_THRESHOLD] = self.restitution_threshold
        fp[ks.FP_SLEEP_THRESHOLD] = self.sleep_threshold
        fp[ks.FP_TIME_TO_SLEEP] = self.time_to_sleep
        fp[ks.FP_MARGIN] = self.margin
        fp[ks.FP_MAX_LINEAR_SPEED] = self.max_linear_speed
        fp[ks.FP_REACH_SPIN] = self.reach_spin
        fp[ks.FP_PROJECT_GAP] = self.project_gap
        ip = self.ip
        ip[ks.IP_PROJECT_SWEEPS] = self.project_sweeps
        ip[ks.IP_STEP_FLAGS] = self.step_flags
        ip[ks.IP_N] = self.n
        ip[ks.IP_NJ] = self.nj
        ip[ks.IP_NA] = self.na
        ip[ks.IP_NM0] = self.nm
        ip[ks.IP_SUBSTEPS] = self.effective_substeps
        ip[ks.IP_SLEEP] = 1 if self.sleep else 0
        ip[ks.IP_SWEEPS] = self.point_sweeps
        ip[ks.IP_N_IGNORE] = self._n_ign
        ip[ks.IP_THREADS] = self.threads
        if self.threads != numba.get_num_threads():
            numba.set_num_threads(self.threads)  # per calling thread: set before every step
        # the islands' runs go one at a time to the next free thread (a thread held up by the
        # machine's other work leaves its share to the others)
        lb, lj, la = self._live_lists()
        chunk = numba.get_parallel_chunksize()
        numba.set_parallel_chunksize(1)
        try:
            nm = ks.step_world(self.bf, self.bi, self.jf, self.ji, self.af, self.ai,
                               self.mf, self.mi, self._mf1, self._mi1, self.sf, self.si,
                               self.keys, self.ign, self._cn, self._cp, self._cs, self._cid, fp,
                               ip, lb, lj, la)
        finally:
            numba.set_parallel_chunksize(chunk)
        self.mf, self._mf1 = self._mf1, self.mf
        self.mi, self._mi1 = self._mi1, self.mi
        self.nm = int(nm)
        self.last_pairs = int(ip[ks.IP_OUT_PAIRS])
        self.last_woken = int(ip[ks.IP_OUT_WOKEN])
        self.last_slept = int(ip[ks.IP_OUT_SLEPT])
        self.last_islands = int(ip[ks.IP_OUT_ISLANDS])
        self.last_reset = int(ip[ks.IP_OUT_RESET])
        self.steps += 1
        self.time += dt

    # -- inspection ------------------------------------------------------------------------
    def body_count(self) -> int:
        """Live bodies (parked included)."""
        return int(np.count_nonzero(self.bi[: self.n, L.B_KIND] != L.KIND_FREE))

    def awake_count(self) -> int:
        """Awake, unparked dynamic bodies."""
        bi = self.bi[: self.n]
        return int(np.count_nonzero((bi[:, L.B_KIND] == L.KIND_DYNAMIC) & (bi[:, L.B_AWAKE] != 0)
                                    & (bi[:, L.B_PARKED] == 0)))

    def contacts(self, slot: int | None = None) -> list[tuple[int, int, np.ndarray, float]]:
        """Contact points of the last step as (slot A, slot B, point (3,) m, normal impulse
        N·s per sub-step), all of them or those of one body. For inspection, not hot loops."""
        out = []
        for r in range(self.nm):
            a, b = int(self.mi[r, L.M_A]), int(self.mi[r, L.M_B])
            if slot is not None and slot not in (a, b):
                continue
            for p in range(int(self.mi[r, L.M_N])):
                o = L.M_P + p * L.P_STRIDE
                out.append((a, b, self.mf[r, o + L.P_POINT:o + L.P_POINT + 3].copy(),
                            float(self.mf[r, o + L.P_LN])))
        return out
