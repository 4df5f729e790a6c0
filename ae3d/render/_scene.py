"""The scene: what an engine shows (CPU side). Renderers draw it; it holds no GPU objects.

One Scene per engine (``e.services["render"]``). Figures, hordes, debug overlays and the camera
are set here by scripts; the physics world's bodies are read from ``e.physics`` every frame.
"""

from __future__ import annotations

import math
from collections.abc import Callable
from dataclasses import dataclass, field
from typing import Any

import numpy as np

from ._camera import Camera
from ._mesh import SkinnedMesh

# pick ids: 0 nothing, 1 the ground, then figures, then horde ranges, then bodies
ID_NONE = 0
ID_GROUND = 1
_FIGURE_BASE = 2
_HORDE_BASE = 1 << 24
BODY_BASE = 1 << 30


class _Ground:
    """The ground marker returned by picking (``render.GROUND``)."""

    def __repr__(self) -> str:
        return "GROUND"


GROUND = _Ground()


@dataclass(eq=False)
class FigureItem:
    """A skinned figure drawn from its rig's world pose."""

    obj: int | None
    mesh: SkinnedMesh
    pose: Any  # callable -> (bones, 4, 4), an object with .world, or an array
    tint: np.ndarray
    pick_id: int
    visible: bool = True

    def world(self, check_finite: bool = True) -> np.ndarray | None:
        """The pose's world matrices (bones, 4, 4), or None: no pose, or (``check_finite``)
        one that is not finite (the renderer checks a whole group of figures at once)."""
        p = self.pose
        if callable(p):
            p = p()
        elif not isinstance(p, np.ndarray):
            p = getattr(p, "world", None)
            if callable(p):
                p = p()
        if p is None:
            return None
        p = np.asarray(p)
        if p.ndim != 3 or p.shape[1:] != (4, 4) or (check_finite and not np.isfinite(p).all()):
            return None
        return p


@dataclass(eq=False)
class HordeInstance:
    """A member of a horde, as picking reports it: the horde and the instance's index."""

    horde: Horde
    index: int

    def __eq__(self, other: object) -> bool:
        return (isinstance(other, HordeInstance) and other.horde is self.horde
                and other.index == self.index)

    def __hash__(self) -> int:
        return hash((id(self.horde), self.index))

    def __repr__(self) -> str:
        return f"HordeInstance({self.horde.name!r}, {self.index})"


@dataclass(eq=False)
class Body:
    """A physics body, as picking reports it: its slot in the world's tables."""

    slot: int

    def __eq__(self, other: object) -> bool:
        return isinstance(other, Body) and other.slot == self.slot

    def __hash__(self) -> int:
        return hash(("body", self.slot))

    def __repr__(self) -> str:
        return f"Body({self.slot})"


class Horde:
    """Instances of one skinned mesh, each posed from a pose bank (see ``render.horde_new``)."""

    def __init__(self, name: str, mesh: SkinnedMesh, bank: np.ndarray, capacity: int,
                 id_base: int) -> None:
        self.name = name
        self.mesh = mesh
        self.bank = bank  # (frames, joints, 4, 4) float32
        self.capacity = capacity
        self.id_base = id_base
        self.pos = np.zeros((capacity, 3), dtype=np.float32)
        self.yaw = np.zeros(capacity, dtype=np.float32)
        self.phase = np.zeros(capacity, dtype=np.float32)
        self.tint = np.ones((capacity, 3), dtype=np.float32)
        self.count = 0
        self.facing = 0.0
        self.visible = True
        self.bank_version = 0
        self.alive = True

    @property
    def frames(self) -> int:
        return int(self.bank.shape[0])


@dataclass
class Light:
    """The sun: ``direction`` points from the scene towards the sun (unit), colours linear RGB."""

    direction: np.ndarray = field(
        default_factory=lambda: _unit(np.array([-0.5, 0.72, 0.48])))  # key light from the left
    color: tuple[float, float, float] = (1.0, 0.97, 0.9)
    sky: tuple[float, float, float] = (0.34, 0.36, 0.40)
    bounce: tuple[float, float, float] = (0.16, 0.15, 0.14)
    shadows: bool = True
    shadow_extent: float = 0.0  # half size of the shadow map's square (m); 0: from the camera


def _unit(v):
    return v / np.linalg.norm(v)


@dataclass
class Debug:
    """On-demand overlays, drawn on top: ``bodies`` every body as its shape, see-through;
    ``contacts`` the physics world's contact points (red); ``anchors`` its anchors' targets
    (yellow); ``points`` (position (3,) m, colour (3,), radius m) markers of a script's own
    (a figure's capture point, aims...)."""

    bodies: bool = False
    contacts: bool = False
    anchors: bool = False
    points: list = field(default_factory=list)


class Scene:
    """What one engine shows. Made by ``render.scene(e)``; see the package docstring."""

    def __init__(self, engine: Any) -> None:
        self.engine = engine
        self.camera = Camera()
        self.light = Light()
        self.debug = Debug()
        self.figures: list[FigureItem] = []
        self.hordes: list[Horde] = []
        self.ground = True
        self.ground_color = (0.50, 0.50, 0.47)  # linear RGB
        self.ground_line_color = (0.16, 0.17, 0.18)
        self.fog_color = (0.62, 0.68, 0.76)
        self.zenith_color = (0.25, 0.38, 0.62)
        self.body_colors = {  # linear RGB by kind: static, kinematic, dynamic
            1: (0.35, 0.33, 0.30), 2: (0.22, 0.32, 0.48), 3: (0.62, 0.50, 0.30)}
        self.hidden_bodies: set[int] = set()
        self.draw_bodies = True  # static, kinematic and dynamic bodies as solid shapes
        self.on_click: Callable[[Any, Any, str], None] | None = None
        self._next_figure_id = _FIGURE_BASE
        self._next_horde_id = _HORDE_BASE
        self._renderers: list[Any] = []  # renderers that hold GPU copies of this scene's data
        self.version = 0  # bumps when figures/hordes are added or removed
        self._auto: dict[int, tuple[Any, list[FigureItem]]] = {}  # ae3d.figure figures by obj

    # -- figures ----------------------------------------------------------------------------
    def add_figure(self, obj, mesh, pose, tint=(1.0, 1.0, 1.0), pick_id: int | None = None,
                   auto: bool = False) -> FigureItem:
        if not isinstance(mesh, SkinnedMesh):
            raise TypeError("mesh must be a render.SkinnedMesh")
        t = np.asarray(tint, dtype=np.float32).reshape(3)
        if not np.isfinite(t).all():
            raise ValueError("tint must be finite")
        if self._next_figure_id >= _HORDE_BASE:
            raise RuntimeError("too many figures for the pick ids")
        if pick_id is None:
            pick_id = self._next_figure_id
            self._next_figure_id += 1
        item = FigureItem(obj, mesh, pose, t, pick_id)
        if not auto:
            self.figures.append(item)
        self.version += 1
        return item

    def remove_figure(self, item: FigureItem) -> None:
        if item in self.figures:
            self.figures.remove(item)
            self.version += 1

    def figure_of(self, obj: int) -> FigureItem | None:
        for f in self.all_figures():
            if f.obj == obj:
                return f
        return None

    # -- hordes -----------------------------------------------------------------------------
    def add_horde(self, mesh, bank, capacity: int, name: str) -> Horde:
        if self._next_horde_id + capacity >= BODY_BASE:
            raise RuntimeError("too many horde instances for the pick ids")
        h = Horde(name, mesh, bank, capacity, self._next_horde_id)
        self._next_horde_id += capacity
        self.hordes.append(h)
        self.version += 1
        return h

    def remove_horde(self, h: Horde) -> None:
        if h in self.hordes:
            self.hordes.remove(h)
            h.alive = False
            self.version += 1

    # -- per frame --------------------------------------------------------------------------
    def sync(self) -> None:
        """Drop the figures whose objects no longer exist (destroyed: spec #714), and follow
        the engine's glTF figures (``ae3d.figure``): each is drawn while it is visible."""
        e = self.engine
        if e is None or getattr(e, "closed", False):
            return
        kept = [f for f in self.figures if f.obj is None or e.exists(f.obj)]
        if len(kept) != len(self.figures):
            self.figures = kept
            self.version += 1
        current = {}
        if e.services.get("figure") is not None:  # the figure package is in use here
            from ae3d.figure import figures

            current = {f.obj: f for f in figures(e)}
        for obj in [o for o, (fig, _) in self._auto.items()
                    if current.get(o) is not fig or getattr(fig, "released", False)]:
            del self._auto[obj]
            self.version += 1
        if current:
            from ._figures import model_meshes

            for obj, fig in current.items():
                entry = self._auto.get(obj)
                if entry is None:
                    if getattr(fig, "released", False):
                        continue
                    pid = self._next_figure_id
                    self._next_figure_id += 1
                    items = [self.add_figure(obj, m, fig.rig, pick_id=pid, auto=True)
                             for m in model_meshes(fig.model)]
                    entry = self._auto[obj] = (fig, items)
                    self.version += 1
                vis = bool(getattr(fig, "visible", True))
                for it in entry[1]:
                    it.visible = vis

    def all_figures(self) -> list[FigureItem]:
        """Every figure item drawn: those added by hand and the engine's glTF figures."""
        out = list(self.figures)
        for _, items in self._auto.values():
            out.extend(items)
        return out

    def bodies(self):
        """The physics world's live bodies: (slots, kinds, shapes, pos (n,3), quat (n,4),
        dims (n,3)) or None when the world has no body tables."""
        w = getattr(self.engine, "physics", None)
        bf = getattr(w, "bf", None)
        bi = getattr(w, "bi", None)
        if bf is None or bi is None:
            return None
        from ae3d.physics import _layout as L

        n = _body_count(w, bf)
        kind = bi[:n, L.B_KIND]
        live = kind != L.KIND_FREE
        live &= bi[:n, L.B_PARKED] == 0
        slots = np.nonzero(live)[0]
        return (slots, kind[slots], bi[slots, L.B_SHAPE], bf[slots, L.B_POS:L.B_POS + 3],
                bf[slots, L.B_QUAT:L.B_QUAT + 4], bf[slots, L.B_DIMS:L.B_DIMS + 3])

    def markers(self) -> list:
        """The debug markers to draw: (position (3,) m, colour (3,), radius m) each."""
        out = list(self.debug.points)
        w = getattr(self.engine, "physics", None)
        if w is None or not (self.debug.contacts or self.debug.anchors):
            return out
        try:
            from ae3d.physics import _layout as L

            if self.debug.contacts:
                for m in range(int(getattr(w, "nm", 0))):
                    for k in range(int(w.mi[m, L.M_N])):
                        c = L.M_P + k * L.P_STRIDE + L.P_POINT
                        out.append((w.mf[m, c:c + 3].copy(), (0.95, 0.1, 0.05), 0.025))
            if self.debug.anchors:
                for a in range(int(getattr(w, "na", 0))):
                    if w.ai[a, L.A_KIND] == L.ANCHOR_FREE:
                        continue
                    t = w.af[a, L.A_TPOS:L.A_TPOS + 3]
                    if np.isfinite(t).all() and np.abs(t).sum() > 0.0:
                        out.append((t.copy(), (0.95, 0.8, 0.05), 0.03))
        except (AttributeError, IndexError):  # tables of another shape: no markers
            pass
        return out

    def skinned_bodies(self) -> set[int]:
        """Body slots left out of the solid draw: ``hidden_bodies`` and the bodies of every
        dressed ragdoll (``physics.ragdoll_dressed``), whose figure's skin shows
        them. The debug overlay still draws them."""
        from ae3d.physics import ragdoll_dressed  # late: physics is optional to the renderer

        out = set(self.hidden_bodies)
        e = self.engine
        regs = getattr(e, "services", {}).get("physics.ragdolls") if e is not None else None
        if regs:
            for r in regs.values():
                if getattr(r, "destroyed", False):
                    continue
                if ragdoll_dressed(r) is not None:
                    out.update(int(b) for b in np.asarray(r.bodies).ravel() if b >= 0)
        return out

    def body_handle(self, slot: int):
        """The physics world's handle of body ``slot`` (``physics.Body``), or a render Body."""
        w: Any = getattr(self.engine, "physics", None)
        try:
            from ae3d.physics import _layout as L
            from ae3d.physics._world import Body as PhysicsBody

            return PhysicsBody(int(slot), int(w.bi[slot, L.B_GEN]), int(w.id))
        except Exception:  # noqa: BLE001 - a world without handles: the slot will do
            return Body(int(slot))

    def ground_height(self) -> float:
        b = self.bodies()
        if b is not None:
            from ae3d.physics import _layout as L

            planes = np.nonzero(b[2] == L.SHAPE_PLANE)[0]
            if len(planes):
                return float(b[3][planes[0], 1])
        return 0.0

    def resolve(self, pick_id: int):
        """What a pick id stands for: GROUND, an object handle (or FigureItem), a
        HordeInstance, a Body, or None."""
        if pick_id == ID_NONE:
            return None
        if pick_id == ID_GROUND:
            return GROUND
        if pick_id >= BODY_BASE:
            return self.body_handle(pick_id - BODY_BASE)
        if pick_id >= _HORDE_BASE:
            for h in self.hordes:
                if h.id_base <= pick_id < h.id_base + h.capacity:
                    return HordeInstance(h, pick_id - h.id_base)
            return None
        for f in self.all_figures():
            if f.pick_id == pick_id:
                return f
        return None


def _body_count(world, bf) -> int:
    for name in ("n", "count", "n_bodies", "body_count", "nb"):
        v = getattr(world, name, None)
        if isinstance(v, (int, np.integer)):
            return int(min(v, len(bf)))
    return len(bf)


def finite_or(value: float, default: float) -> float:
    return value if math.isfinite(value) else default
