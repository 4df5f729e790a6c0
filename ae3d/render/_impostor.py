"""Far-field impostors of a horde (the low preset): pictures of its figure baked once per pose
bank, one quad an instance far away.

The coarsest mesh of a box man is still 40 skinned vertices and 60 triangles an instance, and
a horde of 3,000 seen from its edge has two thirds of its members beyond 25 m: on a software
GL that vertex and triangle-setup work (one thread) was most of the horde's frame. Far away a
figure is a few dozen pixels tall; a quad facing the eye about the vertical, showing a baked
picture of the figure from the nearest of ``ANGLES`` views in the nearest bank frame, draws the
same pixels from 4 vertices and 2 triangles. The pictures keep the base colour (the instance's
tint multiplies it) and the figure-local normal, so the quad is lit per pixel like the mesh
(the heading turns the normal into the world); the baked view is horizontal, so instances seen
from steeply above keep their mesh (``MAX_ELEVATION``).

The atlas: ``ANGLES`` columns (views about the figure, from its front, +z, towards +x) and one
row a bank frame (at most ``MAX_FRAMES``, spread over the bank); each picture ``CELL_HEIGHT``
pixels tall (a box man at 25 m on a 720-line screen at 45 degrees is about 63) and as wide as
the figure's reach about its vertical in any pose of the bank.
"""

from __future__ import annotations

import math
from typing import Any

import moderngl
import numpy as np

ANGLES = 16          # views about the figure (22.5 degrees apart)
MAX_FRAMES = 32      # atlas rows: bank frames kept (spread over the bank when it has more)
CELL_HEIGHT = 64     # px: a picture's height
MAX_ELEVATION = math.radians(30.0)  # the eye above an instance by more: its mesh, not a picture
_QUAD_FMT = ("2f", "in_xz")
_MARGIN = 1.04       # the picture's bounds about the figure's reach


def _posed(mesh, bank: np.ndarray, rows: np.ndarray) -> np.ndarray:
    """(len(rows), v, 3) m: ``mesh``'s vertices skinned by the bank frames ``rows``."""
    j = np.asarray(mesh.joints, dtype=np.int64)
    w = np.asarray(mesh.weights, dtype=np.float64)
    p = np.concatenate([np.asarray(mesh.positions, dtype=np.float64),
                        np.ones((len(j), 1))], axis=1)              # (v, 4)
    m = np.asarray(bank, dtype=np.float64)[rows, :, :3, :]          # (f, joints, 3, 4)
    # sum_k w_k (M_jk p), a frame at a time
    return np.stack([np.einsum("vk,vkcd,vd->vc", w, mf[j], p) for mf in m])


def atlas_rows(frames: int, rows: int) -> np.ndarray:
    """The bank frame each of the atlas's ``rows`` shows (the bake shader's rule)."""
    return np.floor(np.arange(rows) * frames / rows + 0.5).astype(np.int64) % frames


def bounds(q: np.ndarray) -> tuple[float, float, float, float]:
    """(half width, bottom, top, reach) m of the posed vertices ``q`` (f, v, 3): the reach
    about the vertical through the figure's origin, the heights of the lowest and highest
    vertices, the reach from the origin (for the bake's depth)."""
    half = float(np.hypot(q[..., 0], q[..., 2]).max()) * _MARGIN + 1e-3
    lo, hi = float(q[..., 1].min()), float(q[..., 1].max())
    pad = (hi - lo) * (_MARGIN - 1.0) + 1e-3
    reach = float(np.linalg.norm(q, axis=2).max()) * _MARGIN + 1e-3
    return half, lo - pad, hi + pad, reach


def picture_rects(q: np.ndarray, angles: int, pad: float) -> np.ndarray:
    """(rows, angles, 4) float32: each picture's covered rectangle x0, x1, y0, y1 (m, x along
    the view's right, y up), grown by ``pad`` m: the quad drawn is only this (a walking figure
    covers a third of its picture's full cell; every fragment of the quad costs)."""
    t = 2.0 * np.pi * np.arange(angles) / angles
    right = np.stack([np.cos(t), np.zeros_like(t), -np.sin(t)], axis=1)     # (angles, 3)
    x = np.einsum("fvc,ac->fav", q, right)                                    # (f, angles, v)
    y = np.broadcast_to(q[:, None, :, 1], x.shape)
    out = np.stack([x.min(axis=2) - pad, x.max(axis=2) + pad,
                    y.min(axis=2) - pad, y.max(axis=2) + pad], axis=2)
    return out.astype(np.float32)


class Impostors:
    """The atlas of one horde's bank on the GPU and the quads' instance buffer."""

    def __init__(self, r, group, bank_tex, horde) -> None:
        ctx = r.ctx
        self.ctx = ctx
        frames = int(horde.frames)
        self.grid = (ANGLES, min(frames, MAX_FRAMES))
        q = _posed(horde.mesh, horde.bank, atlas_rows(frames, self.grid[1]))
        self.cell = bounds(q)
        half, lo, hi, reach = self.cell
        # square texels, but no picture wider than 4 of its heights (a bank lying flat would
        # ask for an atlas past a GL's size; its texels are stretched instead)
        cw = max(4, min(4 * CELL_HEIGHT,
                        int(math.ceil(CELL_HEIGHT * 2.0 * half / max(hi - lo, 1e-6)))))
        size = (self.grid[0] * cw, self.grid[1] * CELL_HEIGHT)
        texel = (hi - lo) / CELL_HEIGHT  # m
        rects = picture_rects(q, ANGLES, 1.5 * texel)
        self.rects = ctx.texture((ANGLES, self.grid[1]), 4, rects.tobytes(), dtype="f4")
        self.rects.filter = (moderngl.NEAREST, moderngl.NEAREST)
        self.colour = ctx.texture(size, 4)
        self.normal = ctx.texture(size, 4)
        for t in (self.colour, self.normal):
            t.filter = (moderngl.NEAREST, moderngl.NEAREST)
            t.repeat_x = t.repeat_y = False
        depth = ctx.depth_renderbuffer(size)
        fbo = ctx.framebuffer([self.colour, self.normal], depth)
        prog = r._prog("bake", "colour", ["FLAT_NORMALS"] if group.flat else [])
        vao = ctx.vertex_array(prog, [(group.vbo, "3f 3f 4f 4f 3f", "in_pos", "in_normal",
                                       "in_joints", "in_weights", "in_color")],
                               index_buffer=group.ibos[0], index_element_size=4,
                               skip_errors=True)
        prog["u_bones"].value = 0
        prog["u_frames"].value = frames
        prog["u_grid"].value = self.grid
        prog["u_cell"].value = (half, lo, hi, reach)
        fbo.use()
        fbo.clear(0.0, 0.0, 0.0, 0.0, depth=1.0)
        ctx.enable(moderngl.DEPTH_TEST | moderngl.CULL_FACE)
        ctx.disable(moderngl.BLEND)
        bank_tex.use(0)
        vao.render(instances=self.grid[0] * self.grid[1])
        vao.release()
        fbo.release()
        depth.release()
        self.quad = ctx.buffer(np.array([-1, -1, 1, -1, 1, 1, -1, -1, 1, 1, -1, 1],
                                        dtype=np.float32).tobytes())
        self.inst: Any = None
        self.cap = 0
        self.vaos: dict[int, moderngl.VertexArray] = {}

    def draw(self, r, prog: moderngl.Program, inst: np.ndarray, inst_fmt) -> None:
        """Draw the quads of the instance records ``inst`` (the horde's ``_SKIN_INST_DTYPE``)
        with ``prog`` (its uniforms but these set)."""
        n = len(inst)
        if n > self.cap:
            if self.inst is not None:
                self.inst.release()
            for v in self.vaos.values():
                v.release()
            self.vaos = {}
            self.cap = max(64, 1 << (n - 1).bit_length())
            self.inst = self.ctx.buffer(reserve=self.cap * inst.dtype.itemsize, dynamic=True)
        self.inst.write(inst.tobytes())
        v = self.vaos.get(id(prog))
        if v is None:
            v = self.vaos[id(prog)] = self.ctx.vertex_array(
                prog, [(self.quad, *_QUAD_FMT), (self.inst, *inst_fmt)], skip_errors=True)
        r._set(prog, "u_grid", self.grid)
        r._set(prog, "u_cell", self.cell)
        r._set(prog, "u_atlas", 2)
        r._set(prog, "u_atlas_n", 3)
        r._set(prog, "u_rects", 4)
        self.colour.use(2)
        self.normal.use(3)
        self.rects.use(4)
        v.render(instances=n)

    def release(self) -> None:
        for v in self.vaos.values():
            v.release()
        self.vaos = {}
        for b in (self.quad, self.inst, self.colour, self.normal, self.rects):
            if b is not None:
                b.release()
        self.inst = None
