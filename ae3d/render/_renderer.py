"""Renderer: draws a Scene with moderngl into its own framebuffers (GPU side).

Passes per frame: the shadow map (depth from the sun), then colour (sky, ground, shapes,
figures, hordes, blob shadows, overlays) into a framebuffer (multisampled and resolved when the
quality asks for it) for reading or for the window. Picking draws ids (uint) into a one-pixel
scissor of its own framebuffer and unprojects the depth there.

What each pass costs is set by the quality preset (``_quality``): its choices are shader
variants compiled on first use (``_prog``), one program per set of ``#define``s.

Skinned figures sharing a mesh go in one instanced draw: their skinning matrices (computed for
the whole group in one matmul) are the rows of one float texture. A horde is one instanced draw
per level of detail over its pose bank's texture, culled on the CPU to each pass's frustum; in
a preset with ``impostor`` its far instances are one instanced draw of quads (``_impostor``).
Meshes are welded first (``_lod``): a box man's 504 vertices become its 168 corners.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

import moderngl
import numpy as np

from . import _impostor, _lod, _meshes, _quality, _shaders, _xform
from ._scene import BODY_BASE, ID_GROUND, Scene

_SKIN_VERT_FMT = ("3f 3f 4f 4f 3f", "in_pos", "in_normal", "in_joints", "in_weights", "in_color")
_SKIN_INST_FMT = ("4f 4f u u /i", "i_place", "i_tint", "i_row", "i_id")
_SKIN_INST_DTYPE = np.dtype([("place", "f4", 4), ("tint", "f4", 4), ("row", "u4"), ("id", "u4")])
_SHAPE_VERT_FMT = ("3f 3f 1f", "in_pos", "in_normal", "in_cap")
_SHAPE_INST_FMT = ("16f 4f 4f u /i", "i_model", "i_dims", "i_color", "i_id")
_SHAPE_INST_DTYPE = np.dtype([("model", "f4", 16), ("dims", "f4", 4), ("color", "f4", 4),
                              ("id", "u4")])
_SHAPE_KINDS = ("sphere", "capsule", "box", "cylinder")  # u_kind 0..3; physics SHAPE_* 0,1,2,4
_PASSES = ("colour", "depth", "pick")
_FIGURE_REACH = 1.0  # m: a figure's bones and shadow about the mean of its bones, loosely
_RECT_CELLS = 4  # a shadow-reading ground rectangle's grid (its light and fog at the corners)
_SUN_HEIGHT = 60.0  # m: the shadow map's eye above its centre, along the light


@dataclass
class Pick:
    """What lies under a pixel.

    ``target``: an object handle (int) for a figure with an object, the FigureItem for one
    without, a ``HordeInstance``, a body (``physics.Body`` handle; its ``.slot``), ``GROUND``,
    or None (the sky). ``point``: the
    world point (3,) m under the pixel, or None. ``depth``: the distance along the view ray
    (m). ``pick_id`` is the raw id.
    """

    target: Any
    point: np.ndarray | None
    pick_id: int
    depth: float | None = None

    @property
    def kind(self) -> str:
        from ._scene import GROUND, Body, FigureItem, HordeInstance

        t = self.target
        if t is None:
            return "none"
        if t is GROUND:
            return "ground"
        if isinstance(t, HordeInstance):
            return "horde"
        if isinstance(t, Body) or (hasattr(t, "slot") and hasattr(t, "gen")):
            return "body"
        if isinstance(t, FigureItem) or isinstance(t, int):
            return "figure"
        return "other"


def _bank_radius(h) -> float:
    """Bounding radius (m) about the instance's position of every pose in its bank."""
    r = getattr(h, "_radius", None)
    if r is None or getattr(h, "_radius_version", -1) != h.bank_version:
        p = h.mesh.positions.astype(np.float64)
        # a vertex's reach is under its bind distance plus its bones' travel: bound it loosely
        t = np.asarray(h.bank, dtype=np.float64)[:, :, :3, 3]
        r = float(np.linalg.norm(p, axis=1).max() + np.linalg.norm(t, axis=2).max() + 0.25)
        h._radius, h._radius_version = r, h.bank_version
    return r


def _in_frustum(centres: np.ndarray, vp: np.ndarray, radius: float) -> np.ndarray:
    """(n,) bool: spheres of ``radius`` m about ``centres`` (n, 3) that touch the frustum of
    the view-projection ``vp`` (planes from its rows, Gribb & Hartmann)."""
    m = np.asarray(vp, dtype=np.float64)
    planes = np.array([m[3] + m[0], m[3] - m[0], m[3] + m[1], m[3] - m[1], m[3] + m[2],
                       m[3] - m[2]])
    planes /= np.linalg.norm(planes[:, :3], axis=1, keepdims=True)
    d = centres.astype(np.float64) @ planes[:, :3].T + planes[:, 3]
    return np.all(d > -radius, axis=1)


class _Group:
    """GPU copy of one skinned mesh (welded, with its levels of detail) and an instance buffer
    per level. For figures, also the group's cached members, tints and pick ids."""

    def __init__(self, r: Renderer, mesh) -> None:
        ctx = r.ctx
        prep = _lod.prepared(mesh)
        self.flat = prep.flat
        # every vertex on one bone with the weight exactly 1 (the box men): the shaders'
        # RIGID_SKIN fetches that bone alone, the same bits as the weighted sum
        w = prep.vertices[:, 10:14] if prep.vertices.ndim == 2 else None
        self.rigid = bool(w is not None and len(w) and np.all(w[:, 0] == 1.0)
                          and np.all(w[:, 1:] == 0.0))
        self.vbo = ctx.buffer(prep.vertices.tobytes())
        self.ibos = [ctx.buffer(lv.tobytes()) for lv in prep.levels]
        # an instance buffer per slot: level + levels * batch (a second batch of a pass,
        # such as the figures that read no shadow map, writes buffers of its own)
        self.inst: list[Any] = [None] * (2 * len(self.ibos))
        self.cap = [0] * (2 * len(self.ibos))
        self.vaos: dict[tuple[int, int], moderngl.VertexArray] = {}
        self.r = r
        self.used = True
        self.members: list = []
        self.tints = np.zeros((0, 3), dtype=np.float32)
        self.ids = np.zeros(0, dtype=np.uint32)

    @property
    def levels(self) -> int:
        return len(self.ibos)

    def write(self, inst: np.ndarray, level: int = 0) -> None:
        """Upload instance records (``_SKIN_INST_DTYPE``) for ``level`` (a slot: level +
        levels * batch), growing its buffer."""
        n = len(inst)
        if n > self.cap[level]:
            if self.inst[level] is not None:
                self.inst[level].release()
            for key in [k for k in self.vaos if k[0] == level]:
                self.vaos.pop(key).release()
            self.cap[level] = max(16, 1 << (n - 1).bit_length())
            self.inst[level] = self.r.ctx.buffer(
                reserve=self.cap[level] * _SKIN_INST_DTYPE.itemsize, dynamic=True)
        if n:
            self.inst[level].write(inst.tobytes())

    def vao(self, prog: moderngl.Program, level: int = 0) -> moderngl.VertexArray:
        key = (level, id(prog))
        v = self.vaos.get(key)
        if v is None:
            v = self.vaos[key] = self.r.ctx.vertex_array(
                prog, [(self.vbo, *_SKIN_VERT_FMT), (self.inst[level], *_SKIN_INST_FMT)],
                index_buffer=self.ibos[level % len(self.ibos)], index_element_size=4,
                skip_errors=True)
        return v

    def release(self) -> None:
        for v in self.vaos.values():
            v.release()
        for b in (self.vbo, *self.ibos, *self.inst):
            if b is not None:
                b.release()
        self.vaos = {}


def _posed_heights(mesh, skin: np.ndarray) -> np.ndarray:
    """(v,) m: the y of every vertex of ``mesh`` skinned by ``skin`` (joints, 4, 4)."""
    j = np.asarray(mesh.joints, dtype=np.int64)
    w = np.asarray(mesh.weights, dtype=np.float64)
    m = np.asarray(skin, dtype=np.float64)[:, 1, :]          # (joints, 4): each matrix's y row
    p = np.concatenate([np.asarray(mesh.positions, dtype=np.float64),
                        np.ones((len(j), 1))], axis=1)       # (v, 4)
    return np.einsum("vk,vkc,vc->v", w, m[j], p)


class _HordeGPU:
    def __init__(self, r: Renderer, horde) -> None:
        self.group = _Group(r, horde.mesh)
        self.group.write(np.zeros(min(horde.capacity, 16), dtype=_SKIN_INST_DTYPE))
        self.tex: Any = None
        self.bank_version = -1
        self.used = True
        self.impostors: Any = None  # _impostor.Impostors of this bank, baked on first use
        # m: a blob under one member, from its height as the bank's first pose stands it (the
        # bind positions may be in another unit: Mixamo's are centimetres under a 0.01 scale)
        top = _posed_heights(horde.mesh, horde.bank[0])
        self.blob_radius = 0.22 * float(top.max() - top.min())

    def upload_bank(self, r: Renderer, horde) -> None:
        if self.bank_version == horde.bank_version and self.tex is not None:
            return
        if self.tex is not None:
            self.tex.release()
        b = np.ascontiguousarray(np.asarray(horde.bank, dtype=np.float32).transpose(0, 1, 3, 2))
        f, j = b.shape[:2]
        self.tex = r.ctx.texture((j * 4, f), 4, b.tobytes(), dtype="f4")
        # linear along the frames (the shader samples column centres), repeating past the last;
        # BANK_NEAREST reads whole texels (texelFetch), unfiltered
        self.tex.filter = (moderngl.LINEAR, moderngl.LINEAR)
        self.tex.repeat_x = False
        self.tex.repeat_y = True
        self.bank_version = horde.bank_version
        if self.impostors is not None:  # a new bank: new pictures
            self.impostors.release()
            self.impostors = None

    def bake_impostors(self, r: Renderer, horde) -> None:
        """The far field's pictures of this bank (once a bank; after ``upload_bank``)."""
        if self.impostors is None:
            self.impostors = _impostor.Impostors(r, self.group, self.tex, horde)

    def release(self) -> None:
        self.group.release()
        if self.tex is not None:
            self.tex.release()
        if self.impostors is not None:
            self.impostors.release()
            self.impostors = None


class Renderer:
    """Draws scenes into ``width`` × ``height`` frames on a moderngl context.

    Args:
        ctx: a moderngl context (EGL standalone, or the window's).
        width, height: frame size in pixels.
        samples: MSAA samples of the colour pass (0 or 1: none); None: the preset's.
        shadow_size: the shadow map's side in texels; None: the preset's.
        quality: "auto" (low on a software GL, else high), "high", "low" or a ``Quality``.
    """

    def __init__(self, ctx: moderngl.Context, width: int, height: int,
                 samples: int | None = None, shadow_size: int | None = None,
                 quality: str | _quality.Quality = "auto") -> None:
        self.ctx = ctx
        self.quality = _quality.resolve(quality, ctx, samples)
        self.progs: dict[tuple, moderngl.Program] = {}
        # ``_set``'s caches: each program's member names and the uniform values last written
        # (programs live as long as the renderer: their ids stay theirs)
        self._uniform_names: dict[int, frozenset] = {}
        self._uniform_values: dict[tuple[int, str], Any] = {}
        quad = np.array([-1, -1, 1, -1, 1, 1, -1, -1, 1, 1, -1, 1], dtype=np.float32)
        self.quad = ctx.buffer(quad.tobytes())
        # a blob's disc: a square about the unit circle, as a strip of 4 corners (FRAG_BLOB
        # leaves nothing past the rim). An octagon (6 triangles, 18 corners) blended a sixth
        # fewer fragments, but a horde's blobs are a few pixels each and llvmpipe shades their
        # corners on one thread: the square measured 6.5 -> 4.3 CPU-ms for the horde's 2,000
        # blobs, 3.1 -> 2.3 for the strike scene's, 2.9 -> 2.0 for the 300 figures' (load 9)
        self.blob_quad = ctx.buffer(np.array([-1, -1, 1, -1, -1, 1, 1, 1],
                                             dtype=np.float32).tobytes())
        self.quad_vaos: dict[int, moderngl.VertexArray] = {}
        # primitive shapes
        self.shapes: dict[str, dict[str, Any]] = {}
        for name in _SHAPE_KINDS:
            verts, idx = _meshes.SHAPES[name]()
            vbo = ctx.buffer(verts.tobytes())
            ibo = ctx.buffer(idx.tobytes())
            self.shapes[name] = {"vbo": vbo, "ibo": ibo, "inst": None, "cap": 0, "vaos": {}}
        # shadow map
        self.shadow_size = int(shadow_size or self.quality.shadow_size)
        self.shadow_tex = ctx.depth_texture((self.shadow_size, self.shadow_size))
        self.shadow_tex.compare_func = "<="
        self.shadow_tex.filter = (moderngl.LINEAR, moderngl.LINEAR)
        self.shadow_tex.repeat_x = False
        self.shadow_tex.repeat_y = False
        self.shadow_fbo = ctx.framebuffer(depth_attachment=self.shadow_tex)
        self.map_on = False  # this frame draws (and reads) the shadow map
        self._ground_y = 0.0  # m: the ground's height, found once a frame (``_sync``)
        self.sky_grid: Any = None
        self.sky_buf: Any = None    # low: the sky's cells the ground leaves bare, this frame
        self.sky_cap = 0
        self._sky_corners: Any = None
        self._sky_tris: Any = None
        self.blob_buf: Any = None
        self.blob_cap = 0
        self._rect_unit: Any = None  # the shadow-reading ground rectangles' unit grid
        self._rect_buf: Any = None
        self._rect_cap = 0
        self.blob_vao: Any = None
        self.bones_tex: Any = None
        self.bones_shape = (0, 0)
        self.groups: dict[tuple, _Group] = {}   # (id(mesh), bones) -> group
        self.group_meshes: dict[tuple, Any] = {}
        self.hordes: dict[int, _HordeGPU] = {}
        self.horde_objs: dict[int, Any] = {}
        self.width = self.height = 0
        self.samples = self.quality.samples
        self.fbo: Any = None
        self.msaa_fbo: Any = None
        self.pick_fbo: Any = None
        self.pick_depth: Any = None
        self.headless = False
        self._fbo_parts: list = []
        self.resize(width, height)
        self.light_vp = np.eye(4)
        self.frames_drawn = 0
        self.impostors_drawn = 0  # horde instances drawn as impostors by the last colour or
        # pick pass (``draw``, ``id_image``, ``pick``)
        # a callable given each stage's name as ``draw`` ends it (``bench/render.py --stages``
        # finishes the GL there and reads the process's CPU time); None: no calls
        self.stage_hook: Any = None

    def _stage(self, name: str) -> None:
        if self.stage_hook is not None:
            self.stage_hook(name)

    # -- programs --------------------------------------------------------------------------
    def _prog(self, kind: str, pass_: str, defines=()) -> moderngl.Program:
        """The program of ``kind`` ("skinned", "shape", "ground", "sky", "blob") for ``pass_``
        compiled with ``defines`` (made on first use, kept)."""
        key = (kind, pass_, tuple(sorted(defines)))
        prog = self.progs.get(key)
        if prog is None:
            S = _shaders
            frags = {"colour": S.FRAG_COLOUR, "depth": S.FRAG_DEPTH, "pick": S.FRAG_PICK}
            if kind == "sky":
                vert, frag = S.VERT_SKY, S.FRAG_SKY
            elif kind == "bake":
                vert, frag = S.VERT_BAKE, S.FRAG_BAKE
            elif kind == "impostor":
                vert = S.VERT_IMPOSTOR
                frag = S.FRAG_IMPOSTOR_PICK if pass_ == "pick" else S.FRAG_IMPOSTOR
            elif kind == "blob":
                vert, frag = S.VERT_BLOB, S.FRAG_BLOB
            else:
                vert = {"skinned": S.VERT_SKINNED, "shape": S.VERT_SHAPE,
                        "ground": S.VERT_GROUND}[kind]
                frag = S.FRAG_GROUND if (kind == "ground" and pass_ == "colour") else frags[pass_]
            vs, fs = S.program_source(vert, frag, key[2])
            prog = self.progs[key] = self.ctx.program(vertex_shader=vs, fragment_shader=fs)
            prog.extra = key[2]  # its defines
        return prog

    def _defines(self, kind: str, pass_: str, shadow: bool | None = None) -> list[str]:
        """The quality's defines for a kind's pass this frame (``shadow``: read the map;
        None: as the frame has it, but the cheap ground reads it only about its casters)."""
        q = self.quality
        d: list[str] = []
        if pass_ == "colour" and q.fast_srgb and kind in ("skinned", "shape", "ground", "sky"):
            d.append("FAST_SRGB")
        if kind == "sky" and q.sky_last:
            d.append("SKY_GRID")
        if pass_ == "colour" and kind in ("skinned", "shape", "ground"):
            if shadow is None:
                shadow = self.map_on and not (kind == "ground" and q.ground == "cheap") \
                    and not (kind == "skinned" and not q.figure_shadows)
            if shadow:
                d.append("SHADOW_PCF3" if q.shadow == "pcf3" else "SHADOW_TAP1")
            if q.lighting == "diffuse":
                d.append("LIGHT_DIFFUSE")
                if kind != "ground":
                    d.append("FOG_VERTEX")
            if kind == "ground" and q.ground == "cheap":
                d.append("GROUND_CHEAP")
        return d

    def _flat(self, g: _Group, defines: list[str], pass_: str) -> list[str]:
        """The mesh defines of group ``g`` drawn with ``defines``: RIGID_SKIN for a rigid
        skin; in the colour pass of a welded flat mesh FLAT_NORMALS (screen derivatives a
        pixel), or for a rigid one in a preset with ``flat_vertex`` FLAT_VERTEX (the
        provoking vertex's face normal) and, where no shadow map is read and the light is
        diffuse, FLAT_LIT (lit at that vertex: fog and sRGB left a pixel; the figures'
        fragments were 7 of the strike scene's ~31 draw CPU-ms on llvmpipe)."""
        out = ["RIGID_SKIN"] if g.rigid else []
        if not (g.flat and pass_ == "colour"):
            return out
        if self.quality.flat_vertex and g.rigid:
            lit = self.quality.lighting == "diffuse" and not any(
                d.startswith("SHADOW_") for d in defines)
            return out + ["FLAT_VERTEX"] + (["FLAT_LIT"] if lit else [])
        return out + ["FLAT_NORMALS"]

    def _quad_vao(self, prog: moderngl.Program) -> moderngl.VertexArray:
        v = self.quad_vaos.get(id(prog))
        if v is None:
            v = self.quad_vaos[id(prog)] = self.ctx.vertex_array(
                prog, [(self.quad, "2f", "in_xz")], skip_errors=True)
        return v

    def _grid_vao(self, prog: moderngl.Program) -> moderngl.VertexArray:
        """32 x 32 cells over -1..1 (as triangles, ``in_xz``): the low sky's screen and the
        cheap ground's square, whose colours are worked out at the corners."""
        if self.sky_grid is None:
            g = np.linspace(-1.0, 1.0, 33, dtype=np.float32)
            x0, y0 = np.meshgrid(g[:-1], g[:-1])
            x1, y1 = x0 + g[1] - g[0], y0 + g[1] - g[0]
            tri = np.stack([x0, y0, x1, y0, x1, y1, x0, y0, x1, y1, x0, y1], axis=-1)
            self.sky_grid = self.ctx.buffer(tri.astype(np.float32).tobytes())
        v = self.quad_vaos.get(-id(prog))
        if v is None:
            v = self.quad_vaos[-id(prog)] = self.ctx.vertex_array(
                prog, [(self.sky_grid, "2f", "in_xz")], skip_errors=True)
        return v

    # -- framebuffers ----------------------------------------------------------------------
    def resize(self, width: int, height: int) -> None:
        width, height = int(width), int(height)
        if width < 1 or height < 1:
            raise ValueError("width and height must be at least 1 pixel")
        if (width, height) == (self.width, self.height):
            return
        for part in self._fbo_parts:
            part.release()
        ctx = self.ctx
        size = (width, height)
        colour = ctx.texture(size, 4)
        depth = ctx.depth_renderbuffer(size)
        self.fbo = ctx.framebuffer([colour], depth)
        parts = [self.fbo, colour, depth]
        self.msaa_fbo = None
        if self.samples > 1:
            try:
                mc = ctx.renderbuffer(size, 4, samples=self.samples)
                md = ctx.depth_renderbuffer(size, samples=self.samples)
                self.msaa_fbo = ctx.framebuffer([mc], md)
                parts += [self.msaa_fbo, mc, md]
            except moderngl.Error:
                self.msaa_fbo = None
        pid = ctx.renderbuffer(size, 1, dtype="u4")
        pdepth = ctx.depth_texture(size)
        self.pick_fbo = ctx.framebuffer([pid], pdepth)
        self.pick_depth = pdepth
        parts += [self.pick_fbo, pid, pdepth]
        self._fbo_parts = parts
        self.width, self.height = width, height

    # -- per-frame data --------------------------------------------------------------------
    def _sync(self, scene: Scene) -> dict:
        """Upload the scene's poses and instances; free GPU copies nobody draws any more.

        Figures sharing a mesh are skinned together (one matmul for the group); in a preset
        with blobs, those outside the shadow map's square are ordered last and get a blob.
        """
        scene.sync()
        q = self.quality
        # m: the ground plane's height this frame (a look through the physics bodies: once)
        self._ground_y = scene.ground_height()
        self.light_vp = self._light_matrix(scene)
        for grp in self.groups.values():
            grp.used = False
        by_mesh: dict[tuple, tuple[Any, list, list]] = {}
        for f in scene.all_figures():
            if not f.visible:
                continue
            w = f.world(check_finite=False)
            if w is None:
                continue
            key = (id(f.mesh), w.shape[0])
            entry = by_mesh.get(key)
            if entry is None:
                entry = by_mesh[key] = (f.mesh, [], [])
            entry[1].append(f)
            entry[2].append(w)
        for key in list(by_mesh):  # stacked, and checked finite, a group at a time
            mesh, items, worlds = by_mesh[key]
            W = np.stack(worlds)
            ok = np.isfinite(W).reshape(len(W), -1).all(axis=1)
            if not ok.all():  # a pose gone bad is not drawn (``FigureItem.world``)
                items = [f for f, k in zip(items, ok, strict=True) if k]
                W = W[ok]
            if items:
                by_mesh[key] = (mesh, items, W)
            else:
                del by_mesh[key]
        draws = []
        blobs: list[np.ndarray] = []
        rect = None
        total = sum(len(v[1]) for v in by_mesh.values())
        if total:
            jmax = max(m.joint_count for m, _, _ in by_mesh.values())
            rows = np.zeros((total, jmax, 4, 4), dtype=np.float32)
            groups = []
            off = 0
            for key, (mesh, items, W) in by_mesh.items():
                n = len(items)
                # every figure of the group skinned in one matmul: world[bone] @ inverse_bind
                skin = np.matmul(W[:, mesh.joint_bones], mesh.inverse_bind)
                rows[off:off + n, :mesh.joint_count] = skin.transpose(0, 1, 3, 2)
                groups.append((key, mesh, items, W[:, :, :3, 3].mean(axis=1), off,
                               W[:, :, :3, 3]))
                off += n
            near_all = self._near_casters(scene, np.concatenate([g[3] for g in groups]))
            for key, mesh, items, centres, off, _bones in groups:
                n = len(items)
                g: _Group | None = self.groups.get(key)
                if g is None or self.group_meshes.get(key) is not mesh:
                    if g is not None:
                        g.release()
                    g = self.groups[key] = _Group(self, mesh)
                    self.group_meshes[key] = mesh
                g.used = True
                if len(g.members) != n or any(
                        a is not b for a, b in zip(g.members, items, strict=True)):
                    g.members = list(items)
                    g.tints = np.stack([f.tint for f in items]).astype(np.float32)
                    g.ids = np.array([f.pick_id for f in items], dtype=np.uint32)
                near = near_all[off:off + n]
                order = np.argsort(~near, kind="stable")  # near first: the map draws them
                n_near = int(near.sum())
                if q.blobs and n_near < n:
                    top = mesh.positions[:, 1]
                    radius = 0.22 * float(top.max() - top.min())
                    blobs.append(self._blob_rows(centres[~near], radius, scene))
                inst = np.zeros(n, dtype=_SKIN_INST_DTYPE)
                inst["tint"][:, :3] = g.tints[order]
                inst["row"] = off + order
                inst["id"] = g.ids[order]
                draws.append((g, inst, n_near, centres[order]))
            if q.blobs and near_all.any():
                rect = self._shadow_footprints(
                    scene, [g[5][near_all[g[4]:g[4] + len(g[2])]] for g in groups])
            shape = (jmax * 4, total)
            if self.bones_tex is None or self.bones_shape[0] < shape[0] or \
                    self.bones_shape[1] < shape[1]:
                if self.bones_tex is not None:
                    self.bones_tex.release()
                cap = (max(shape[0], self.bones_shape[0]),
                       max(16, 1 << (shape[1] - 1).bit_length(), self.bones_shape[1]))
                self.bones_tex = self.ctx.texture(cap, 4, dtype="f4")
                self.bones_tex.filter = (moderngl.NEAREST, moderngl.NEAREST)
                self.bones_shape = cap
            self.bones_tex.write(rows.tobytes(), viewport=(0, 0, shape[0], shape[1]))
        for key in [k for k, g in self.groups.items() if not g.used]:
            self.groups.pop(key).release()
            self.group_meshes.pop(key, None)
        # hordes
        hdraws = []
        live = set()
        for h in scene.hordes:
            live.add(id(h))
            hg = self.hordes.get(id(h))
            if hg is None or self.horde_objs.get(id(h)) is not h:
                if hg is not None:
                    hg.release()
                hg = self.hordes[id(h)] = _HordeGPU(self, h)
                self.horde_objs[id(h)] = h
            hg.upload_bank(self, h)
            n = int(h.count)
            if not h.visible or n == 0:
                continue
            if q.impostor > 0 and hg.impostors is None:  # baked once one is that far away
                far = np.asarray(h.pos[:n], dtype=np.float64) - scene.camera.eye
                if (np.einsum("ij,ij->i", far, far) > q.impostor ** 2).any():
                    hg.bake_impostors(self, h)
            inst = np.zeros(n, dtype=_SKIN_INST_DTYPE)
            inst["place"][:, :3] = h.pos[:n]
            inst["place"][:, 3] = h.yaw[:n]
            inst["tint"][:, :3] = h.tint[:n]
            inst["tint"][:, 3] = h.phase[:n]
            inst["id"] = h.id_base + np.arange(n, dtype=np.uint32)
            hdraws.append((hg, h, inst, _bank_radius(h)))
        for hkey in [k for k in self.hordes if k not in live]:
            self.hordes.pop(hkey).release()
            self.horde_objs.pop(hkey, None)
        # bodies
        solid, overlay = self._body_instances(scene)
        # the shadow map: always in high; in low only when something real casts into it
        self.map_on = bool(scene.light.shadows and q.shadow != "off")
        if self.map_on and q.blobs:
            self.map_on = any(d[2] for d in draws) or bool(solid)
            if solid:  # shapes cast anywhere in the map: the ground reads all of it
                d = np.asarray(scene.light.direction, dtype=np.float64)
                half = self._map_half(scene) / max(abs(d[1]) / np.linalg.norm(d), 0.3)
                cx, cz = float(scene.camera.target[0]), float(scene.camera.target[2])
                rect = np.array([[cx - half, cz - half, cx + half, cz + half]])
        return {"figures": draws, "hordes": hdraws, "solid": solid, "overlay": overlay,
                "blobs": blobs, "shadow_rects": rect if self.map_on else None}

    def _shadow_footprints(self, scene: Scene, bones: list[np.ndarray]) -> np.ndarray:
        """(n, 4) rectangles x0, z0, x1, z1 (m) of the ground where each of the map's casters
        can darken it: its bones (``bones``: per group (figures, bones, 3) m) and their
        shadows cast along the sun onto the ground, padded by a quarter of the figure's
        height (its limbs about the bones) and 10 cm. Only these read the shadow map (the
        cheap ground): one rectangle about all the casters covered a third of the strike
        scene's screen; a rectangle each covers a few square metres a figure."""
        d = np.asarray(scene.light.direction, dtype=np.float64)
        d = d / np.linalg.norm(d)
        y0 = self._ground_y
        out = []
        for P in bones:
            if not len(P):
                continue
            P = P.astype(np.float64)
            t = np.maximum(P[..., 1] - y0, 0.0) / max(d[1], 0.2)  # a low sun: shadows bounded
            Q = P - d * t[..., None]
            xz = np.concatenate([P[..., [0, 2]], Q[..., [0, 2]]], axis=1)  # (figures, 2b, 2)
            pad = 0.25 * (P[..., 1].max(axis=1) - P[..., 1].min(axis=1)) + 0.1
            out.append(np.concatenate([xz.min(axis=1) - pad[:, None],
                                       xz.max(axis=1) + pad[:, None]], axis=1))
        return np.concatenate(out) if out else np.zeros((0, 4))

    def _near_casters(self, scene: Scene, centres: np.ndarray) -> np.ndarray:
        """(n,) bool: the figures (centres (n, 3) m) that cast into the shadow map: all in
        high; in a preset with blobs, the ``near_casters`` nearest the camera's target within
        the map."""
        q = self.quality
        if not q.blobs:
            return np.ones(len(centres), dtype=bool)
        if not scene.light.shadows:
            return np.zeros(len(centres), dtype=bool)
        near = _in_frustum(centres, self.light_vp, _FIGURE_REACH)
        if q.near_casters and near.sum() > q.near_casters:
            d = np.linalg.norm((centres - scene.camera.target)[:, [0, 2]], axis=1)
            d[~near] = np.inf
            near = np.zeros(len(centres), dtype=bool)
            near[np.argsort(d, kind="stable")[:q.near_casters]] = True
        return near

    def _blob_rows(self, centres: np.ndarray, radius: float, scene: Scene) -> np.ndarray:
        """(n, 4) float32 blob records: x, z (m), radius (m), strength; nudged away from the
        sun, where a standing figure's shadow falls."""
        d = np.asarray(scene.light.direction, dtype=np.float64)
        shift = -d[[0, 2]] / max(abs(d[1]), 0.3) * 0.15
        out = np.empty((len(centres), 4), dtype=np.float32)
        out[:, 0] = centres[:, 0] + shift[0]
        out[:, 1] = centres[:, 2] + shift[1]
        out[:, 2] = radius
        out[:, 3] = 0.6
        reach = self.quality.blob_reach
        if reach > 0:
            # fade out over the last third of the reach, then none: far away a blob is a few
            # pixels, and each still costs its two triangles' setup
            far = np.linalg.norm(centres - np.asarray(scene.camera.eye), axis=1)
            out[:, 3] *= np.clip((reach - far) / (reach / 3.0), 0.0, 1.0)
            out = out[out[:, 3] > 0.0]
        return out

    def _body_instances(self, scene: Scene):
        b = scene.bodies()
        solid: dict[str, np.ndarray] = {}
        overlay: dict[str, np.ndarray] = {}
        if b is not None and len(b[0]):
            from ae3d.physics import _layout as L

            slots, kinds, shapes, pos, quat, dims = b
            models = _xform.compose(pos, quat)
            code = {L.SHAPE_SPHERE: "sphere", L.SHAPE_CAPSULE: "capsule", L.SHAPE_BOX: "box",
                    L.SHAPE_CYLINDER: "cylinder"}
            skip = scene.skinned_bodies()
            hidden = np.isin(slots, np.fromiter(skip, dtype=np.int64, count=len(skip)))
            for shp, name in code.items():
                sel = shapes == shp
                # nothing of this kind to draw (every one a dressed ragdoll's, under its skin,
                # and no overlay): no records built
                if not sel.any() or not (scene.debug.bodies or (
                        scene.draw_bodies and (sel & ~hidden).any())):
                    continue
                inst = np.zeros(int(sel.sum()), dtype=_SHAPE_INST_DTYPE)
                inst["model"] = models[sel].transpose(0, 2, 1).reshape(-1, 16)
                inst["dims"][:, :3] = dims[sel]
                cols = np.array([scene.body_colors.get(int(k), (0.5, 0.5, 0.5))
                                 for k in kinds[sel]], dtype=np.float32)
                inst["color"][:, :3] = cols
                inst["color"][:, 3] = 1.0
                inst["id"] = BODY_BASE + slots[sel].astype(np.uint32)
                if scene.draw_bodies:
                    keep = ~hidden[sel]
                    if keep.any():
                        solid[name] = inst[keep]
                if scene.debug.bodies:
                    o = inst.copy()
                    o["color"][:, :3] = (0.2, 0.9, 0.5)
                    o["color"][:, 3] = 0.35
                    overlay[name] = o
        pts = scene.markers()
        if pts:
            inst = np.zeros(len(pts), dtype=_SHAPE_INST_DTYPE)
            for i, (p, c, radius) in enumerate(pts):
                m = np.eye(4)
                m[:3, 3] = p
                inst[i]["model"] = m.T.reshape(16)
                inst[i]["dims"][:] = radius
                inst[i]["color"][:3] = c
                inst[i]["color"][3] = 0.9
            overlay["sphere"] = np.concatenate([overlay["sphere"], inst]) \
                if "sphere" in overlay else inst
        return solid, overlay

    def _shape_vao(self, name: str, prog: moderngl.Program, n: int):
        s = self.shapes[name]
        if n > s["cap"]:
            if s["inst"] is not None:
                s["inst"].release()
            for v in s["vaos"].values():
                v.release()
            cap = max(16, 1 << (n - 1).bit_length())
            s["inst"] = self.ctx.buffer(reserve=cap * _SHAPE_INST_DTYPE.itemsize, dynamic=True)
            s["cap"] = cap
            s["vaos"] = {}
        if id(prog) not in s["vaos"]:
            s["vaos"][id(prog)] = self.ctx.vertex_array(
                prog, [(s["vbo"], *_SHAPE_VERT_FMT), (s["inst"], *_SHAPE_INST_FMT)],
                index_buffer=s["ibo"], index_element_size=4, skip_errors=True)
        return s["vaos"][id(prog)], s["inst"]

    # -- drawing ---------------------------------------------------------------------------
    def _set(self, prog: moderngl.Program, name: str, value) -> None:
        """Set uniform ``name`` of ``prog`` when the program has it and its value changed.
        (``name in prog`` walks the program's members, and a write is a GL call: a frame
        sets about a hundred uniforms, most of them the same as the frame before.)"""
        key = id(prog)
        names = self._uniform_names.get(key)
        if names is None:
            names = self._uniform_names[key] = frozenset(prog)
        if name not in names:
            return
        if isinstance(value, np.ndarray) and value.shape == (4, 4):
            value = _xform.to_gl(value)
        plain = isinstance(value, (bytes, int, float, tuple))
        if plain:
            last = self._uniform_values.get((key, name))
            if last is not None and type(last) is type(value) and last == value:
                return
        u: Any = prog[name]
        if isinstance(value, bytes):
            u.write(value)
        else:
            u.value = value
        if plain:
            self._uniform_values[(key, name)] = value

    def _fog(self, scene: Scene) -> tuple[float, float]:
        far = scene.camera.far
        return (0.35 * far * 0.4, far * 0.8)

    def _uniforms(self, scene: Scene, prog, vp, pass_: str) -> None:
        L = scene.light
        self._set(prog, "u_vp", vp)
        if pass_ != "colour":
            return
        self._set(prog, "u_sun_dir", tuple(float(x) for x in L.direction))
        self._set(prog, "u_sun_color", tuple(L.color))
        self._set(prog, "u_sky_color", tuple(L.sky))
        self._set(prog, "u_bounce_color", tuple(L.bounce))
        self._set(prog, "u_eye", tuple(float(x) for x in scene.camera.eye))
        self._set(prog, "u_fog_color", tuple(scene.fog_color))
        self._set(prog, "u_fog", self._fog(scene))
        self._set(prog, "u_light_vp", self.light_vp)
        self._set(prog, "u_shadow_texel", 1.0 / self.shadow_size)
        # 1.5 cm along the light, in [0, 1] depth over the map's range (a larger bias lifts
        # shadows off their casters' contacts)
        self._set(prog, "u_shadow_bias", 0.015 * 0.5 / (_SUN_HEIGHT * 2.0 - 1.0))
        if "u_shadow" in self._uniform_names[id(prog)]:  # (``_set`` filled it above)
            self._set(prog, "u_shadow", 1)
            self.shadow_tex.use(1)

    def _levels(self, g: _Group, inst: np.ndarray, centres: np.ndarray, scene: Scene,
                pass_: str) -> list[tuple[int, np.ndarray]]:
        """(level, instances) pairs: by the distance of ``centres`` (n, 3) m from the eye when
        the preset has levels of detail (colour and pick passes; the shadow map draws the
        full mesh)."""
        lod = self.quality.lod
        if not lod or pass_ == "depth" or g.levels == 1:
            return [(0, inst)] if len(inst) else []
        d = np.linalg.norm(centres - scene.camera.eye, axis=1)
        level = np.minimum(np.searchsorted(np.asarray(lod), d), g.levels - 1)
        return [(k, inst[level == k]) for k in range(g.levels) if (level == k).any()]

    def _impostor_split(self, hg: _HordeGPU, inst: np.ndarray, scene: Scene, pass_: str):
        """(instances drawn as meshes, instances drawn as impostors or None): impostors
        beyond the preset's ``impostor`` distance from the eye where the eye is no more than
        ``_impostor.MAX_ELEVATION`` above the picture's middle (colour and pick passes)."""
        dist = self.quality.impostor
        if dist <= 0 or pass_ == "depth" or hg.impostors is None:
            return inst, None
        eye = np.asarray(scene.camera.eye, dtype=np.float64)
        v = inst["place"][:, :3].astype(np.float64) - eye
        across = np.hypot(v[:, 0], v[:, 2])
        _, lo, hi, _ = hg.impostors.cell
        up = -v[:, 1] - 0.5 * (lo + hi)  # the eye above the picture's middle
        far = (across * across + v[:, 1] * v[:, 1] > dist * dist) & \
            (up <= np.tan(_impostor.MAX_ELEVATION) * across)
        if not far.any():
            return inst, None
        # nearest first: the early depth test spares the fragments of those behind them
        order = np.argsort(across[far], kind="stable")
        return inst[~far], inst[far][order]

    def _geometry(self, scene: Scene, data: dict, vp, pass_: str) -> list[np.ndarray]:
        """Draw the opaque geometry for ``pass_``; returns the blob records of the horde
        instances drawn (colour pass of a preset with blobs)."""
        q = self.quality
        blobs: list[np.ndarray] = []
        if pass_ != "depth":
            self.impostors_drawn = 0
        # the ground first in high (the image before the presets); last in low, where the
        # figures standing on it hide its fragments from the shader (early depth test)
        ground_last = q.sky_last and pass_ == "colour"
        if not ground_last:
            self._ground(scene, data, vp, pass_)
        # shapes
        prog = self._prog("shape", pass_, self._defines("shape", pass_))
        self._uniforms(scene, prog, vp, pass_)
        for kind_i, name in enumerate(_SHAPE_KINDS):
            inst = data["solid"].get(name)
            if inst is None or not len(inst):
                continue
            vao, buf = self._shape_vao(name, prog, len(inst))
            buf.write(inst.tobytes())
            self._set(prog, "u_kind", kind_i)
            vao.render(instances=len(inst))
        # figures: the shadow map draws those near the camera (all of them in high); the
        # colour and pick passes by level of detail where the preset has them
        base = self._defines("skinned", pass_)
        # in a preset with blobs only the map's casters read it: the others cast nothing into
        # it, and its lookup was 13 of the 300 figures' 35 CPU-ms (llvmpipe, 1280x720)
        unlit = self._defines("skinned", pass_, shadow=False) \
            if q.blobs and q.figure_shadows else base
        for g, inst, n_near, centres in data["figures"]:
            if pass_ == "depth":
                batches = [(base, [(0, inst[:n_near])] if n_near else [])]
            else:  # culled to the view on the CPU (a figure's reach about its bones' mean)
                keep = _in_frustum(centres, vp, _FIGURE_REACH)
                if unlit is base:
                    batches = [(base, self._levels(g, inst[keep], centres[keep], scene, pass_))]
                else:
                    near = np.arange(len(inst)) < n_near
                    batches = [(d, self._levels(g, inst[keep & k], centres[keep & k], scene,
                                                pass_)) for d, k in ((base, near),
                                                                     (unlit, ~near))]
            for batch, (defines, parts) in enumerate(batches):
                if not parts:
                    continue
                prog = self._prog("skinned", pass_, defines + self._flat(g, defines, pass_))
                self._uniforms(scene, prog, vp, pass_)
                self._set(prog, "u_bones", 0)
                self.bones_tex.use(0)
                for level, part in parts:
                    slot = level + batch * g.levels
                    g.write(part, slot)
                    g.vao(prog, slot).render(instances=len(part))
        # hordes: in a preset with blobs they cast no map shadow
        if pass_ == "depth" and q.blobs:
            return blobs
        extra = ["HORDE"] + (["BANK_NEAREST"] if q.bank_nearest else [])
        if q.blobs and pass_ == "colour":  # blobs under the horde: it reads no map either
            base = self._defines("skinned", pass_, shadow=False)
        for hg, h, inst, radius in data["hordes"]:
            # cull on the CPU to this pass's frustum: the shadow map sees a small square of a
            # big horde, the camera rarely all of it; parked instances fall out here too
            keep = _in_frustum(inst["place"][:, :3], vp, radius)
            if not keep.any():
                continue
            sub = inst[keep]
            prog = self._prog("skinned", pass_,
                              base + extra + self._flat(hg.group, base, pass_))
            self._uniforms(scene, prog, vp, pass_)
            self._set(prog, "u_bones", 0)
            self._set(prog, "u_frames", h.frames)
            self._set(prog, "u_facing", float(h.facing))
            hg.tex.use(0)
            mesh_sub, far = self._impostor_split(hg, sub, scene, pass_)
            for level, part in self._levels(hg.group, mesh_sub, mesh_sub["place"][:, :3], scene,
                                            pass_):
                hg.group.write(part, level)
                hg.group.vao(prog, level).render(instances=len(part))
            if far is not None and len(far):
                iprog = self._prog("impostor", pass_,
                                   [d for d in base if d != "FLAT_NORMALS"])
                self._uniforms(scene, iprog, vp, pass_)
                self._set(iprog, "u_eye", tuple(float(x) for x in scene.camera.eye))
                self._set(iprog, "u_facing", float(h.facing))
                hg.impostors.draw(self, iprog, far, _SKIN_INST_FMT)
                self.impostors_drawn += len(far)
            if pass_ == "colour" and q.blobs:
                blobs.append(self._blob_rows(sub["place"][:, :3].astype(np.float64),
                                             hg.blob_radius, scene))
        if ground_last:
            self._ground(scene, data, vp, pass_)
        return blobs

    def _ground(self, scene: Scene, data: dict, vp, pass_: str) -> None:
        """The ground: a square of the far plane's half size about the camera's target; where
        the cheap ground reads the shadow map only about its casters, those rectangles
        (``_shadow_footprints``) are drawn first, in one draw, and the rest, pushed back by a
        polygon offset, around them."""
        if not scene.ground or pass_ == "depth":  # the ground casts no shadow worth its fill
            return
        ctx = self.ctx
        cam = scene.camera
        y = self._ground_y
        rects = data.get("shadow_rects") if pass_ == "colour" else None
        if rects is not None and not (len(rects) and self.quality.ground == "cheap"):
            rects = None
        if pass_ == "colour":
            self._stage("models")
        ctx.disable(moderngl.CULL_FACE)  # seen from below too (a camera under it)
        steps = ([("rects", True)] if rects is not None else []) + [("square", None)]
        for k, (what, shadow) in enumerate(steps):
            extra = ["GROUND_RECT"] if shadow else []
            prog = self._prog("ground", pass_,
                              self._defines("ground", pass_, shadow=shadow) + extra)
            self._uniforms(scene, prog, vp, pass_)
            if what == "rects":  # the rectangles' grids in world x, z
                self._set(prog, "u_centre", (0.0, y, 0.0))
                self._set(prog, "u_half", 1.0)
                self._set(prog, "u_aspect", (1.0, 1.0))
            else:
                self._set(prog, "u_centre", (float(cam.target[0]), y, float(cam.target[2])))
                self._set(prog, "u_half", min(cam.far, 1000.0))
                self._set(prog, "u_aspect", (1.0, 1.0))
            self._set(prog, "u_id", ID_GROUND)
            self._set(prog, "u_ground_color", tuple(scene.ground_color))
            self._set(prog, "u_line_color", tuple(scene.ground_line_color))
            if k:
                ctx.polygon_offset = (1.0, 4.0)
            if what == "rects":
                self._rects_vao(prog, rects).render(vertices=len(rects) * 6 * _RECT_CELLS ** 2)
            elif "GROUND_CHEAP" in prog.extra:  # its light and fog at a grid's corners
                self._grid_vao(prog).render()
            else:
                self._quad_vao(prog).render()
            if k:
                ctx.polygon_offset = (0.0, 0.0)
        ctx.enable(moderngl.CULL_FACE)
        if pass_ == "colour":
            self._stage("ground")

    def _rects_vao(self, prog: moderngl.Program, rects: np.ndarray) -> moderngl.VertexArray:
        """The ground rectangles ``rects`` (n, 4: x0, z0, x1, z1 m) as a grid of
        ``_RECT_CELLS`` squared cells each (triangles, world x, z in ``in_xz``)."""
        if self._rect_unit is None:
            g = np.linspace(0.0, 1.0, _RECT_CELLS + 1)
            x0, y0 = np.meshgrid(g[:-1], g[:-1])
            x1, y1 = x0 + g[1], y0 + g[1]
            self._rect_unit = np.stack([x0, y0, x1, y0, x1, y1, x0, y0, x1, y1, x0, y1],
                                       axis=-1).reshape(-1, 2)          # (6 cells, 2) in 0..1
        r = np.asarray(rects, dtype=np.float64)
        u = self._rect_unit
        xz = np.empty((len(r), len(u), 2), dtype=np.float32)
        xz[:, :, 0] = r[:, None, 0] + u[None, :, 0] * (r[:, 2] - r[:, 0])[:, None]
        xz[:, :, 1] = r[:, None, 1] + u[None, :, 1] * (r[:, 3] - r[:, 1])[:, None]
        if xz.nbytes > self._rect_cap:
            if self._rect_buf is not None:
                self._rect_buf.release()
                for key in [k for k in self.quad_vaos if isinstance(k, tuple)]:
                    self.quad_vaos.pop(key).release()
            self._rect_cap = max(4096, 1 << (xz.nbytes - 1).bit_length())
            self._rect_buf = self.ctx.buffer(reserve=self._rect_cap, dynamic=True)
        self._rect_buf.write(xz.tobytes())
        key = ("rects", id(prog))
        v = self.quad_vaos.get(key)
        if v is None:
            v = self.quad_vaos[key] = self.ctx.vertex_array(
                prog, [(self._rect_buf, "2f", "in_xz")], skip_errors=True)
        return v

    def _draw_blobs(self, scene: Scene, vp, rows: np.ndarray, target) -> None:
        """Soft dark discs on the ground (over it, under everything standing on it)."""
        n = len(rows)
        if not n:  # every blob beyond the reach: no buffer to write (none made yet)
            return
        prog = self._prog("blob", "colour")
        if n > self.blob_cap:
            if self.blob_buf is not None:
                self.blob_buf.release()
                self.blob_vao.release()
            self.blob_cap = max(64, 1 << (n - 1).bit_length())
            self.blob_buf = self.ctx.buffer(reserve=self.blob_cap * 16, dynamic=True)
            self.blob_vao = self.ctx.vertex_array(
                prog, [(self.blob_quad, "2f", "in_xz"), (self.blob_buf, "4f /i", "i_blob")])
        self.blob_buf.write(np.ascontiguousarray(rows, dtype=np.float32).tobytes())
        self._set(prog, "u_vp", vp)
        self._set(prog, "u_ground_y", self._ground_y)
        self._set(prog, "u_eye", tuple(float(x) for x in scene.camera.eye))
        self._set(prog, "u_fog", self._fog(scene))
        ctx = self.ctx
        ctx.enable(moderngl.BLEND)
        ctx.blend_func = moderngl.SRC_ALPHA, moderngl.ONE_MINUS_SRC_ALPHA
        ctx.disable(moderngl.CULL_FACE)
        target.depth_mask = False
        self.blob_vao.render(moderngl.TRIANGLE_STRIP, instances=n)
        target.depth_mask = True
        ctx.enable(moderngl.CULL_FACE)
        ctx.disable(moderngl.BLEND)

    def _sky(self, scene: Scene, vp) -> None:
        sky = self._prog("sky", "colour", self._defines("sky", "colour"))
        self._set(sky, "u_inv_vp", np.linalg.inv(vp))
        self._set(sky, "u_fog_color", tuple(scene.fog_color))
        self._set(sky, "u_zenith_color", tuple(scene.zenith_color))
        if self.quality.sky_last:
            cells = self._sky_cells(scene, vp)
            if cells is None:
                self._grid_vao(sky).render()
            elif len(cells):
                n = len(cells)
                if n > self.sky_cap:  # room for every cell: allocated once
                    self.sky_cap = 32 * 32
                    self.sky_buf = self.ctx.buffer(reserve=self.sky_cap * 48, dynamic=True)
                v = self.quad_vaos.get(-id(sky) - 1)
                if v is None:
                    v = self.quad_vaos[-id(sky) - 1] = self.ctx.vertex_array(
                        sky, [(self.sky_buf, "2f", "in_xz")], skip_errors=True)
                self.sky_buf.write(cells.tobytes())
                v.render(vertices=6 * n)
        else:
            self._quad_vao(sky).render()

    def _sky_cells(self, scene: Scene, vp) -> np.ndarray | None:
        """The low sky's grid cells (n, 12) float32 (two triangles each) that the ground does
        not cover, or None: every cell (no ground). The pixels whose view ray meets the
        ground's square between the near and far planes make a convex region of the screen
        (a convex polygon seen from a point): a cell whose four corners lie in it, with a
        margin, is all ground, and the sky's fill there (failing the depth test pixel by
        pixel on llvmpipe) is skipped."""
        if not scene.ground:
            return None
        if self._sky_corners is None:
            g = np.linspace(-1.0, 1.0, 33)
            u, v = np.meshgrid(g, g)
            self._sky_corners = (u.ravel(), v.ravel())
            x0, y0 = np.meshgrid(g[:-1], g[:-1])
            x1, y1 = x0 + g[1] - g[0], y0 + g[1] - g[0]
            self._sky_tris = np.stack([x0, y0, x1, y0, x1, y1, x0, y0, x1, y1, x0, y1],
                                      axis=-1).reshape(-1, 12).astype(np.float32)
        u, v = self._sky_corners
        inv = np.linalg.inv(np.asarray(vp, dtype=np.float64))
        one = np.ones_like(u)
        a = inv @ np.stack([u, v, -one, one])
        b = inv @ np.stack([u, v, one, one])
        a = a[:3] / a[3]
        b = b[:3] / b[3]
        y = self._ground_y
        dy = b[1] - a[1]
        with np.errstate(divide="ignore", invalid="ignore"):
            t = np.where(np.abs(dy) > 1e-12, (y - a[1]) / dy, -1.0)
        hit = a + t * (b - a)
        cam = scene.camera
        half = 0.99 * min(cam.far, 1000.0)  # the ground's square (``_ground``), a margin in
        covered = ((t >= 0.0) & (t <= 0.99) & (np.abs(hit[0] - cam.target[0]) < half)
                   & (np.abs(hit[2] - cam.target[2]) < half)).reshape(33, 33)
        cell = (covered[:-1, :-1] & covered[:-1, 1:] & covered[1:, :-1]
                & covered[1:, 1:]).ravel()
        return self._sky_tris[~cell]

    def _map_half(self, scene: Scene) -> float:
        """Half side (m) of the shadow map's square, across the light."""
        L = scene.light
        r = L.shadow_extent if L.shadow_extent > 0 else \
            float(np.clip(scene.camera.distance * 0.9, 6, 40))
        if self.quality.near_shadow > 0:
            r = min(r, self.quality.near_shadow)
        return r

    def _light_matrix(self, scene: Scene) -> np.ndarray:
        L = scene.light
        cam = scene.camera
        r = self._map_half(scene)
        d = np.asarray(L.direction, dtype=np.float64)
        d = d / np.linalg.norm(d)
        centre = cam.target.copy()
        centre[1] = self._ground_y
        view = _xform.look_at(centre + d * _SUN_HEIGHT, centre,
                              (0.0, 0.0, 1.0) if abs(d[1]) > 0.99 else (0.0, 1.0, 0.0))
        # snap the centre to whole texels so shadows do not crawl as the camera moves
        texel = 2.0 * r / self.shadow_size
        c = view @ np.append(centre, 1.0)
        view[0, 3] -= c[0] - np.floor(c[0] / texel) * texel
        view[1, 3] -= c[1] - np.floor(c[1] / texel) * texel
        return _xform.ortho(r, r, 1.0, _SUN_HEIGHT * 2.0) @ view

    def draw(self, scene: Scene) -> dict:
        """Draw the scene into the frame (``self.fbo`` once resolved); returns the frame data."""
        ctx = self.ctx
        q = self.quality
        data = self._sync(scene)
        self._stage("sync")
        ctx.enable(moderngl.DEPTH_TEST | moderngl.CULL_FACE)
        ctx.disable(moderngl.BLEND)
        # shadow pass
        if self.map_on:
            self.shadow_fbo.use()
            self.shadow_fbo.clear(depth=1.0)
            self._geometry(scene, data, self.light_vp, "depth")
        self._stage("shadow map")
        # colour pass
        target = self.msaa_fbo or self.fbo
        target.use()
        if q.sky_last:
            # every pixel gets the sky or something in front of it: only the depth is cleared
            # (a colour clear is a full screen's writes on llvmpipe)
            target.color_mask = (False, False, False, False)
            target.clear(depth=1.0)
            target.color_mask = (True, True, True, True)
            target.use()  # the mask is GL state: set again for the draws
        else:
            target.clear(0.0, 0.0, 0.0, 1.0, depth=1.0)
        self._stage("clear")
        vp = scene.camera.view_projection(self.width, self.height)
        if not q.sky_last:
            ctx.disable(moderngl.DEPTH_TEST)
            self._sky(scene, vp)
            ctx.enable(moderngl.DEPTH_TEST)
            self._stage("sky")
        blobs = self._geometry(scene, data, vp, "colour") + data["blobs"]
        self._stage("models")  # figures, hordes, shapes (the ground reports its own)
        if blobs and scene.light.shadows and scene.ground:
            self._draw_blobs(scene, vp, np.concatenate(blobs), target)
        self._stage("blobs")
        if q.sky_last:
            # the sky lies at the far plane's edge: drawn last, it fills only the bare pixels
            self._sky(scene, vp)
            self._stage("sky")
        # overlays: see-through, on top
        if data["overlay"]:
            ctx.enable(moderngl.BLEND)
            ctx.blend_func = moderngl.SRC_ALPHA, moderngl.ONE_MINUS_SRC_ALPHA
            ctx.disable(moderngl.DEPTH_TEST)
            prog = self._prog("shape", "colour", self._defines("shape", "colour"))
            self._uniforms(scene, prog, vp, "colour")
            for kind_i, name in enumerate(_SHAPE_KINDS):
                inst = data["overlay"].get(name)
                if inst is None:
                    continue
                vao, buf = self._shape_vao(name, prog, len(inst))
                buf.write(inst.tobytes())
                self._set(prog, "u_kind", kind_i)
                vao.render(instances=len(inst))
            ctx.disable(moderngl.BLEND)
            ctx.enable(moderngl.DEPTH_TEST)
        self._stage("overlays")
        if self.msaa_fbo is not None:
            ctx.copy_framebuffer(self.fbo, self.msaa_fbo)
        self._stage("resolve")
        self.frames_drawn += 1
        return data

    def read(self) -> np.ndarray:
        """The last drawn frame as (height, width, 3) uint8 sRGB, top row first."""
        raw = self.fbo.read(components=3, alignment=1)
        img = np.frombuffer(raw, dtype=np.uint8).reshape(self.height, self.width, 3)
        return np.ascontiguousarray(img[::-1])

    def id_image(self, scene: Scene) -> np.ndarray:
        """The pick ids of the whole frame (height, width) uint32, top row first: what the
        colour pass draws, as ids (``Scene.resolve`` names them)."""
        data = self._sync(scene)
        ctx = self.ctx
        self.pick_fbo.use()
        self.pick_fbo.clear(0.0, 0.0, 0.0, 0.0, depth=1.0)
        ctx.enable(moderngl.DEPTH_TEST | moderngl.CULL_FACE)
        ctx.disable(moderngl.BLEND)
        vp = scene.camera.view_projection(self.width, self.height)
        self._geometry(scene, data, vp, "pick")
        raw = self.pick_fbo.read(components=1, dtype="u4")
        ids = np.frombuffer(raw, dtype=np.uint32).reshape(self.height, self.width)
        return np.ascontiguousarray(ids[::-1])

    def pick(self, scene: Scene, x: float, y: float, data: dict | None = None) -> Pick:
        """What lies under pixel (x, y) (x right, y down, in pixels of this frame)."""
        xi, yi = int(np.floor(x)), int(np.floor(y))
        if not (0 <= xi < self.width and 0 <= yi < self.height):
            raise ValueError(f"pixel ({x}, {y}) is outside the {self.width}x{self.height} frame")
        if data is None:
            data = self._sync(scene)
        ctx = self.ctx
        gy = self.height - 1 - yi
        self.pick_fbo.use()
        ctx.scissor = (xi, gy, 1, 1)
        self.pick_fbo.clear(0.0, 0.0, 0.0, 0.0, depth=1.0)
        ctx.enable(moderngl.DEPTH_TEST | moderngl.CULL_FACE)
        ctx.disable(moderngl.BLEND)
        vp = scene.camera.view_projection(self.width, self.height)
        self._geometry(scene, data, vp, "pick")
        ctx.scissor = None
        raw = self.pick_fbo.read(viewport=(xi, gy, 1, 1), components=1, dtype="u4")
        pid = int(np.frombuffer(raw, dtype=np.uint32)[0])
        draw = self.pick_fbo.read(viewport=(xi, gy, 1, 1), components=1, attachment=-1,
                                  dtype="f4")
        d = float(np.frombuffer(draw, dtype=np.float32)[0])
        target = scene.resolve(pid)
        if target is not None and hasattr(target, "obj") and target.obj is not None:
            target = target.obj
        point = None
        dist = None
        if pid != 0 and d < 1.0:
            inv = np.linalg.inv(vp)
            ndc = np.array([2.0 * (xi + 0.5) / self.width - 1.0,
                            2.0 * (gy + 0.5) / self.height - 1.0, 2.0 * d - 1.0, 1.0])
            p = inv @ ndc
            point = p[:3] / p[3]
            dist = float(np.linalg.norm(point - scene.camera.eye))
        return Pick(target, point, pid, dist)

    def release(self) -> None:
        """Free every GPU object this renderer made."""
        for g in self.groups.values():
            g.release()
        for h in self.hordes.values():
            h.release()
        self.groups.clear()
        self.hordes.clear()
        for part in self._fbo_parts:
            part.release()
        self._fbo_parts = []
        for s in self.shapes.values():
            for v in s["vaos"].values():
                v.release()
            for k in ("vbo", "ibo", "inst"):
                if s[k] is not None:
                    s[k].release()
        for v in self.quad_vaos.values():
            v.release()
        self.quad_vaos.clear()
        self.quad.release()
        self.blob_quad.release()
        for x in (self.sky_grid, self.sky_buf):
            if x is not None:
                x.release()
        self.sky_grid = self.sky_buf = None
        self.sky_cap = 0
        if self._rect_buf is not None:
            self._rect_buf.release()
            self._rect_buf = None
            self._rect_cap = 0
        for x in (self.blob_vao, self.blob_buf):
            if x is not None:
                x.release()
        self.blob_vao = self.blob_buf = None
        if self.bones_tex is not None:
            self.bones_tex.release()
        self.shadow_fbo.release()
        self.shadow_tex.release()
        for p in self.progs.values():
            p.release()
        self.progs.clear()

    @property
    def gpu_meshes(self) -> int:
        """How many skinned meshes this renderer holds on the GPU (figures' and hordes')."""
        return len(self.groups) + len(self.hordes)
