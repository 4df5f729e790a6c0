"""The pose phase: the pose drawn of every figure in one njit call, with the hand-overs' blends,
and a dressed figure's rig (read before each step, drawn after the clips).

The pose drawn is the animation's (ANIMATED, and the modes drawn from it) or the bodies' (POWERED,
LIMP), as a local pose: row 0 the pelvis's world pose, each other bone its rotation relative to
its parent's body. Two hand-overs blend (``blend_time``, 0.25 s): into POWERED the pose shown at
the call stays as an offset from the bodies that fades (#581, #665), never passing what now lies
between them; POWERED -> ANIMATED the drawing blends from the bodies' pose to the animation's.

A dressed figure (its ragdoll dressed on a rig, ``physics.ragdoll_dress``, ``on_figure``) has the
same two blends on its rig's local pose: POWERED and LIMP draw the bodies into the rig (every
dressed bone from its body through the dressing's offsets, the rest carried along in the
animation's pose); ANIMATED leaves the rig to its clips. Before each step its animation's pose is
read from the rig (``read_rig``): what the animation wrote since the bodies last did, bone by
bone (the dressing keeps it beside the rig), gives the pelvis's pose and every joint's target.

Every dressed figure's arrays (its rig's and its dressing's) are handed to the kernels as typed
lists built once when the dressed figures change (``DressedRigs``), so reading every rig and
drawing every figure are one call each (``_step.read_rigs``, ``_step.pose_all``).

Bodies drawn every frame: a frame that does not last exactly one fixed step (a display at 144
or 30 Hz, a window's real time) draws the bodies between their poses at the start and the end of
the last step, by the accumulator's remainder (``frame_alpha``: positions lerped, rotations
slerped, ``bodies_between``), one step behind the physics and never jumping a whole step. A
frame of exactly the fixed step takes one step every frame, with nothing to smooth: it draws the
bodies as they are. The physics reads none of it: its bits do not depend on the frame rate.

Columns: ``F_BLEND``, ``F_BLEND_T``, ``F_SHOWN``, ``F_RIG_BLEND``, ``F_RIG_BLEND_T``,
``F_RIG_OWNED``, ``F_DRESS``, ``F_RIG_BONES``; ``PB_DRAWN_*``, ``PB_OFF_*``, ``PB_FROM_*``;
the ``rbf`` table (``_layout``). Settings: ``ModesSettings.blend_time``. Verbs: ``read_rig``,
``pose_figure``. Units: m, s, rad. Quaternions (x, y, z, w).
"""

from __future__ import annotations

import math
from typing import Any

import numpy as np
from numba import njit, types
from numba.typed import List

from ae3d.figure._kernels import forward_kinematics
from ae3d.physics._kernels_dress import bodies_from_world, draw_bodies
from ae3d.physics._layout import B_POS, B_POS0, B_QUAT, B_QUAT0

from . import _checks
from ._kin import (
    body_pose_local,
    local_to_world,
    qdelta_rotvec,
    relative_from_world,
    turn_into,
)
from ._layout import (
    ACTING,
    ANIMATED,
    BLEND_FADE,
    BLEND_NONE,
    BLEND_TO_ANIMATION,
    F_ANIM_POS,
    F_ANIM_ROT,
    F_BLEND,
    F_BLEND_T,
    F_DRESS,
    F_MODE,
    F_NBONES,
    F_RIG_BLEND,
    F_RIG_BLEND_T,
    F_RIG_BONES,
    F_RIG_OWNED,
    F_SHOWN,
    FROM_ANIMATION,
    GETTING_UP,
    LIMP,
    PB_BODY,
    PB_DRAWN_Q,
    PB_DRAWN_T,
    PB_FROM_Q,
    PB_FROM_T,
    PB_GU_P,
    PB_GU_Q,
    PB_LOSS,
    PB_OFF_A,
    PB_OFF_D,
    PB_PART_MODE,
    PB_TARGET,
    POWERED,
    RB_FROM_Q,
    RB_FROM_T,
    RB_OFF_A,
    RB_OFF_D,
    RB_Q,
    RB_T,
    S_BLEND_TIME,
)
from ._parts import parts_drawn, parts_mask, parts_world_rotations
from ._service import PARENT, Motion, check, service

# a dressed figure's float arrays in the typed list ``f2``, NF2 a figure: its rig's local pose,
# scale and placement, and its dressing's animation pose, what the bodies last wrote (NaN where
# never) and the bodies' offsets from their rig bones (motion/_dress.py's Dressing)
R_T, R_Q, R_S, R_ROOT, R_ANIM_T, R_ANIM_Q, R_ANIM_S, R_WRITTEN_T, R_WRITTEN_Q, R_OFF_P, \
    R_OFF_Q = range(11)
NF2 = 11
# its int arrays in ``i64``, NI64 a figure: the ragdoll bone on each rig bone (-1 carried
# along) and the rig bone of each ragdoll bone; ``i32`` its rig's parents, ``f3`` its world
I_BODY_OF, I_RIG_BONES = range(2)
NI64 = 2


def _dress() -> Any:
    from . import _dress as D  # rig <-> bodies (imported late: it imports the figure package)
    return D


class DressedRigs:
    """Every dressed figure's arrays for the kernels, as typed lists (rebuilt when stale)."""

    def __init__(self) -> None:
        self.entries: dict[int, tuple] = {}     # slot -> (f2 arrays, f3, i32, i64 arrays)
        self.stale = True
        self._tables: tuple = ()

    def add(self, s: Any, m: Motion) -> None:
        d = _dress().ragdoll_dressing(m.ragdoll)
        rig = m.rig
        f2 = (rig.translation, rig.rotation, rig.scale, rig.root, d.anim_t, d.anim_q, d.anim_s,
              d.written_t, d.written_q, d.off_p, d.off_q)
        i64 = (d.body_of, d.rig_bones)
        for a in f2 + (rig.world,):
            if a.dtype != np.float64 or not a.flags.c_contiguous:
                raise TypeError("a rig's pose arrays must be C-contiguous float64")
        # the parents are the rig template's (read-only, shared): the kernels get a copy
        self.entries[m.slot] = (f2, rig.world, np.array(rig.parents, dtype=np.int32),
                                tuple(np.ascontiguousarray(a, np.int64) for a in i64))
        s.fit_rig(rig.count)
        s.fi[m.slot, F_RIG_BONES] = rig.count
        self.stale = True

    def update(self, s: Any) -> None:
        """Rebuild the lists if the dressed figures changed; each one's F_DRESS its index."""
        if not self.stale:
            return
        f2 = List.empty_list(types.float64[:, ::1])
        f3 = List.empty_list(types.float64[:, :, ::1])
        i32 = List.empty_list(types.int32[::1])
        i64 = List.empty_list(types.int64[::1])
        most = 1
        live = {m.slot for m in s.dressed}
        for slot in list(self.entries):
            if slot not in live:
                del self.entries[slot]
        for k, m in enumerate(s.dressed):
            a2, a3, p, a64 = self.entries[m.slot]
            for a in a2:
                f2.append(a)
            f3.append(a3)
            i32.append(p)
            for a in a64:
                i64.append(a)
            s.fi[m.slot, F_DRESS] = k
            most = max(most, a3.shape[0])
        self._tables = (f2, f3, i32, i64, np.zeros((most, 4, 4)))
        self.stale = False

    def tables(self) -> tuple:
        """(f2, f3, i32, i64, world scratch) for the kernels."""
        if self.stale or not self._tables:
            raise RuntimeError("DressedRigs.update first")
        return self._tables


# ------------------------------------------------------------------------------ every frame
def frame_alpha(e: Any, dt: float) -> float | None:
    """Where between the last step's start and end (0..1) a frame of ``dt`` s draws the bodies:
    the engine's accumulator over its fixed step; None for a frame of exactly one fixed step."""
    fixed = float(e.fixed_dt)
    if abs(float(dt) - fixed) <= 1e-9 * fixed:
        return None
    # the engine keeps what is owed towards the next step; no public name for it yet
    return min(1.0, max(0.0, float(getattr(e, "_accumulator", fixed)) / fixed))


def bodies_between(bf: np.ndarray, n: int, alpha: float) -> np.ndarray:
    """A copy of the first ``n`` rows of the body table with each body's pose ``alpha`` of the
    way from its pose at the last step's start (B_POS0, B_QUAT0, which the physics sets for
    every moving kind and a teleport sets too) to its pose now: positions lerped, rotations
    slerped (the shorter way)."""
    out = np.array(bf[:n])
    a = float(alpha)
    p0 = out[:, B_POS0:B_POS0 + 3]
    out[:, B_POS:B_POS + 3] = p0 + (out[:, B_POS:B_POS + 3] - p0) * a
    q0 = out[:, B_QUAT0:B_QUAT0 + 4]
    q1 = out[:, B_QUAT:B_QUAT + 4].copy()
    d = np.einsum("ij,ij->i", q0, q1)
    q1[d < 0.0] *= -1.0
    d = np.minimum(np.abs(d), 1.0)
    th = np.arccos(d)
    st = np.sin(th)
    near = st < 1e-6
    safe = np.where(near, 1.0, st)
    w0 = np.where(near, 1.0 - a, np.sin((1.0 - a) * th) / safe)
    w1 = np.where(near, a, np.sin(a * th) / safe)
    q = w0[:, None] * q0 + w1[:, None] * q1
    out[:, B_QUAT:B_QUAT + 4] = q / np.maximum(np.linalg.norm(q, axis=1, keepdims=True), 1e-12)
    return out


# ------------------------------------------------------------------------------ blends
@njit(cache=True, _nrt=False)
def offset_size(shown_q, shown_t, body_q, body_t, out_a, out_d):
    """Per bone, the angle (rad) and distance (m) between the pose shown and the bodies' pose:
    the offset that fades over a hand-over into POWERED (#581)."""
    for b in range(shown_q.shape[0]):
        rx, ry, rz = qdelta_rotvec(body_q[b, 0], body_q[b, 1], body_q[b, 2], body_q[b, 3],
                                   shown_q[b, 0], shown_q[b, 1], shown_q[b, 2], shown_q[b, 3])
        out_a[b] = math.sqrt(rx * rx + ry * ry + rz * rz)
        dx = shown_t[b, 0] - body_t[b, 0]
        dy = shown_t[b, 1] - body_t[b, 1]
        dz = shown_t[b, 2] - body_t[b, 2]
        out_d[b] = math.sqrt(dx * dx + dy * dy + dz * dz)


@njit(cache=True, _nrt=False)
def fade_offset(body_q, body_t, drawn_q, drawn_t, off_a, off_d, remaining):
    """Draw the bodies' pose plus what is left of the offset (#581, #665), in place in drawn.

    ``remaining`` (0..1) is the share of the offset left (1 at the hand-over, 0 a quarter second
    on); ``off_a``/``off_d`` the offset's size at the hand-over. The offset is taken along what
    now lies between the bodies and the pose last shown (``drawn``), and is never more than that:
    a body moving the pose's way closes the gap and the drawing waits for it rather than passing
    it, and a body moving away (a blow) shows at once, the offset riding on it."""
    for b in range(body_q.shape[0]):
        rx, ry, rz = qdelta_rotvec(body_q[b, 0], body_q[b, 1], body_q[b, 2], body_q[b, 3],
                                   drawn_q[b, 0], drawn_q[b, 1], drawn_q[b, 2], drawn_q[b, 3])
        gap = math.sqrt(rx * rx + ry * ry + rz * rz)
        keep = off_a[b] * remaining
        if gap > keep and gap > 0.0:
            k = keep / gap
            rx *= k
            ry *= k
            rz *= k
        turn_into(rx, ry, rz, body_q, b, drawn_q, b)
        dx = drawn_t[b, 0] - body_t[b, 0]
        dy = drawn_t[b, 1] - body_t[b, 1]
        dz = drawn_t[b, 2] - body_t[b, 2]
        gap = math.sqrt(dx * dx + dy * dy + dz * dz)
        keep = off_d[b] * remaining
        k = 1.0
        if gap > keep and gap > 0.0:
            k = keep / gap
        drawn_t[b, 0] = body_t[b, 0] + dx * k
        drawn_t[b, 1] = body_t[b, 1] + dy * k
        drawn_t[b, 2] = body_t[b, 2] + dz * k


@njit(cache=True, _nrt=False)
def blend_pose(from_q, from_t, to_q, to_t, s, out_q, out_t):
    """out = from slerped toward to by s (0..1), per bone; translations lerped."""
    for b in range(from_q.shape[0]):
        rx, ry, rz = qdelta_rotvec(from_q[b, 0], from_q[b, 1], from_q[b, 2], from_q[b, 3],
                                   to_q[b, 0], to_q[b, 1], to_q[b, 2], to_q[b, 3])
        turn_into(rx * s, ry * s, rz * s, from_q, b, out_q, b)
        for c in range(3):
            out_t[b, c] = from_t[b, c] + (to_t[b, c] - from_t[b, c]) * s


# ------------------------------------------------------------------------------ the rig
@njit(cache=True, _nrt=False)
def sync_rig(rt, rq, rs, wt, wq, at, aq, as_):
    """Take whatever the animation wrote to the rig since the bodies last did, bone by bone,
    translation and rotation apart (a clip that keys a bone's rotation leaves its translation as
    it was); NaN in ``written`` never equals, so a bone the bodies never wrote is the animation's.
    """
    for i in range(rt.shape[0]):
        same = True
        for c in range(3):
            if not (rt[i, c] == wt[i, c]):
                same = False
        if not same:
            for c in range(3):
                at[i, c] = rt[i, c]
        same = True
        for c in range(4):
            if not (rq[i, c] == wq[i, c]):
                same = False
        if not same:
            for c in range(4):
                aq[i, c] = rq[i, c]
        for c in range(3):
            as_[i, c] = rs[i, c]


@njit(cache=True, _nrt=False)
def rig_in_animation_pose(rt, rq, rs, wt, wq, at, aq, as_):
    """The rig put in the animation's pose (after taking what the animation wrote since the bodies
    last did, ``sync_rig``): every bone's translation, rotation and scale from the animation, for
    the dressed ones to be drawn from their bodies over it."""
    sync_rig(rt, rq, rs, wt, wq, at, aq, as_)
    for i in range(rt.shape[0]):
        for c in range(3):
            rt[i, c] = at[i, c]
            rs[i, c] = as_[i, c]
        for c in range(4):
            rq[i, c] = aq[i, c]


@njit(cache=True, _nrt=False)
def mark_written(rt, rq, wt, wq, body_of):
    """The rig's dressed bones hold what the motion drew (not the animation): remember it."""
    for i in range(rt.shape[0]):
        mapped = body_of[i] >= 0
        for c in range(3):
            wt[i, c] = rt[i, c] if mapped else np.nan
        for c in range(4):
            wq[i, c] = rq[i, c] if mapped else np.nan


@njit(cache=True)
def restore_rig(rt, rq, rs, root, world, parents, wt, wq, at, aq, as_):
    """The animation's pose back into the rig (the bodies' drawing undone), its world updated."""
    sync_rig(rt, rq, rs, wt, wq, at, aq, as_)
    for i in range(rt.shape[0]):
        for c in range(3):
            rt[i, c] = at[i, c]
            wt[i, c] = np.nan
        for c in range(4):
            rq[i, c] = aq[i, c]
            wq[i, c] = np.nan
    forward_kinematics(parents, rt, rq, rs, root, world)


@njit(cache=True)
def read_rig(f, k, nb, parent, ff, pbf, f2, i32, i64, world):
    """Before a step, dressed figure f's (index ``k`` in the lists) animation's pose from its rig:
    every rig bone whose local pose differs from what the bodies last wrote was written by the
    animation since, and is taken into the animation's pose kept beside the rig; the rest keep
    it. Then the animation's bodies in the world, the pelvis's pose (F_ANIM_POS, F_ANIM_ROT) and
    each joint's target, body-relative (PB_TARGET). ``world``: scratch of at least the rig's
    bones."""
    o = k * NF2
    rt, rq, rs, root = f2[o + R_T], f2[o + R_Q], f2[o + R_S], f2[o + R_ROOT]
    at, aq, as_ = f2[o + R_ANIM_T], f2[o + R_ANIM_Q], f2[o + R_ANIM_S]
    wt, wq = f2[o + R_WRITTEN_T], f2[o + R_WRITTEN_Q]
    for i in range(rt.shape[0]):
        same = True
        for c in range(3):
            if not (rt[i, c] == wt[i, c]):
                same = False
        for c in range(4):
            if not (rq[i, c] == wq[i, c]):
                same = False
        if not same:
            for c in range(3):
                at[i, c] = rt[i, c]
            for c in range(4):
                aq[i, c] = rq[i, c]
        for c in range(3):
            as_[i, c] = rs[i, c]
    forward_kinematics(i32[k], at, aq, as_, root, world)
    p = np.zeros((nb, 3))
    q = np.zeros((nb, 4))
    bodies_from_world(world, i64[k * NI64 + I_RIG_BONES], f2[o + R_OFF_P], f2[o + R_OFF_Q], p, q)
    for c in range(3):
        ff[f, F_ANIM_POS + c] = p[0, c]
    for c in range(4):
        ff[f, F_ANIM_ROT + c] = q[0, c]
    relative_from_world(nb, parent, q, pbf[f, :, PB_TARGET:PB_TARGET + 4])


@njit(cache=True)
def draw_rig(f, dt, nb, from_anim, fi, ff, pbf, pbi, rbf, prm, bf, f2, f3, i32, i64, bp, bq):
    """Dressed figure f's rig, after the pose drawn: the bodies' pose (POWERED, LIMP) with what
    is left of the hand-over's offset, or the animation's (``from_anim``) after the blend from the
    bodies. ``bp``, ``bq``: scratch of MAXB rows."""
    k = fi[f, F_DRESS]
    cnt = fi[f, F_RIG_BONES]
    o = k * NF2
    rt, rq, rs, root = f2[o + R_T], f2[o + R_Q], f2[o + R_S], f2[o + R_ROOT]
    at, aq, as_ = f2[o + R_ANIM_T], f2[o + R_ANIM_Q], f2[o + R_ANIM_S]
    wt, wq = f2[o + R_WRITTEN_T], f2[o + R_WRITTEN_Q]
    world = f3[k]
    parents = i32[k]
    body_of = i64[k * NI64 + I_BODY_OF]
    blend_time = prm[S_BLEND_TIME]
    if fi[f, F_MODE] == GETTING_UP or fi[f, F_MODE] == ACTING:
        # the way up (or an action's keyed way) drawn exactly: its bodies this step (_get_up.py)
        # into the rig, the bones carried along in the animation's pose
        rig_in_animation_pose(rt, rq, rs, wt, wq, at, aq, as_)
        for b in range(nb):
            for c in range(3):
                bp[b, c] = pbf[f, b, PB_GU_P + c]
            for c in range(4):
                bq[b, c] = pbf[f, b, PB_GU_Q + c]
            s = pbi[f, b, PB_BODY]
            if pbi[f, b, PB_PART_MODE] >= 0:
                # a part with a mode of its own (_parts.py: limp, it hangs) is off the way's
                # anchors too: drawn where its body is, not where the way would have it
                for c in range(3):
                    bp[b, c] = bf[s, B_POS + c]
                for c in range(4):
                    bq[b, c] = bf[s, B_QUAT + c]
            elif pbf[f, b, PB_LOSS] > 0.0:
                # struck, toward its body by the muscle the blow took (struck_drawn)
                toward_body(pbf[f, b, PB_LOSS], bf, s, bp, bq, b)
        draw_bodies(parents, rt, rq, rs, root, body_of, bp, bq, f2[o + R_OFF_P],
                    f2[o + R_OFF_Q], True, world)
        mark_written(rt, rq, wt, wq, body_of)
        fi[f, F_RIG_OWNED] = 1
        return
    if from_anim:
        if fi[f, F_RIG_BLEND] == BLEND_TO_ANIMATION:
            ff[f, F_RIG_BLEND_T] += dt
            sync_rig(rt, rq, rs, wt, wq, at, aq, as_)
            x = min(1.0, ff[f, F_RIG_BLEND_T] / blend_time)
            x = x * x * (3.0 - 2.0 * x)
            blend_pose(rbf[f, :cnt, RB_FROM_Q:RB_FROM_Q + 4], rbf[f, :cnt, RB_FROM_T:RB_FROM_T + 3],
                       aq, at, x, rq, rt)
            forward_kinematics(parents, rt, rq, rs, root, world)
            mark_written(rt, rq, wt, wq, body_of)
            if ff[f, F_RIG_BLEND_T] >= blend_time:
                fi[f, F_RIG_BLEND] = BLEND_NONE
                restore_rig(rt, rq, rs, root, world, parents, wt, wq, at, aq, as_)
        elif fi[f, F_RIG_BLEND] == BLEND_NONE and fi[f, F_RIG_OWNED] != 0:
            restore_rig(rt, rq, rs, root, world, parents, wt, wq, at, aq, as_)
            fi[f, F_RIG_OWNED] = 0
        return
    # the bodies drawn into the rig: the carried bones in the animation's pose, the dressed ones
    # solved from their bodies
    rig_in_animation_pose(rt, rq, rs, wt, wq, at, aq, as_)
    for b in range(nb):
        s = pbi[f, b, PB_BODY]
        for c in range(3):
            bp[b, c] = bf[s, B_POS + c]
        for c in range(4):
            bq[b, c] = bf[s, B_QUAT + c]
    draw_bodies(parents, rt, rq, rs, root, body_of, bp, bq, f2[o + R_OFF_P], f2[o + R_OFF_Q],
                True, world)
    mark_written(rt, rq, wt, wq, body_of)
    fi[f, F_RIG_OWNED] = 1
    shown_q = rbf[f, :cnt, RB_Q:RB_Q + 4]
    shown_t = rbf[f, :cnt, RB_T:RB_T + 3]
    if fi[f, F_RIG_BLEND] == BLEND_FADE:
        ff[f, F_RIG_BLEND_T] += dt
        remaining = max(0.0, 1.0 - ff[f, F_RIG_BLEND_T] / blend_time)
        fade_offset(rq.copy(), rt.copy(), shown_q, shown_t, rbf[f, :cnt, RB_OFF_A],
                    rbf[f, :cnt, RB_OFF_D], remaining)
        for i in range(cnt):
            for c in range(4):
                rq[i, c] = shown_q[i, c]
            for c in range(3):
                rt[i, c] = shown_t[i, c]
        forward_kinematics(parents, rt, rq, rs, root, world)
        mark_written(rt, rq, wt, wq, body_of)
        if remaining <= 0.0:
            fi[f, F_RIG_BLEND] = BLEND_NONE
    else:
        for i in range(cnt):
            for c in range(4):
                shown_q[i, c] = rq[i, c]
            for c in range(3):
                shown_t[i, c] = rt[i, c]


@njit(cache=True, _nrt=False)
def toward_body(loss, bf, s, bp, bq, b):
    """Row b of world poses ``bp`` (m), ``bq`` moved toward body s's by ``loss`` (0..1)."""
    w = min(max(loss, 0.0), 1.0)
    rx, ry, rz = qdelta_rotvec(bq[b, 0], bq[b, 1], bq[b, 2], bq[b, 3], bf[s, B_QUAT],
                               bf[s, B_QUAT + 1], bf[s, B_QUAT + 2], bf[s, B_QUAT + 3])
    turn_into(rx * w, ry * w, rz * w, bq, b, bq, b)
    for c in range(3):
        bp[b, c] += (bf[s, B_POS + c] - bp[b, c]) * w


@njit(cache=True, _nrt=False)
def struck_drawn(f, nb, pbf, pbi, parent, bf, ji, drawn_q, drawn_t, bq, bt):
    """A keyed way's pose drawn (GETTING_UP, ACTING), each bone turned from the way's toward its
    body's by the muscle a blow took from it (PB_LOSS, 0..1): a blow the way keeps shows where it
    landed and fades as the muscle comes back, as the bone's anchor gives by as much
    (_modes.modes_pre). Drawn from the way alone, a sitter struck in the head showed nothing."""
    hit = False
    for b in range(nb):
        if pbf[f, b, PB_LOSS] > 0.0:
            hit = True
    if not hit:
        return
    body_pose_local(bf, ji, nb, parent, pbi[f, :, PB_BODY], bq, bt)
    for b in range(nb):
        w = min(max(pbf[f, b, PB_LOSS], 0.0), 1.0)
        if w <= 0.0 or pbi[f, b, PB_PART_MODE] >= 0:
            continue
        rx, ry, rz = qdelta_rotvec(drawn_q[b, 0], drawn_q[b, 1], drawn_q[b, 2], drawn_q[b, 3],
                                   bq[b, 0], bq[b, 1], bq[b, 2], bq[b, 3])
        turn_into(rx * w, ry * w, rz * w, drawn_q, b, drawn_q, b)
        if b == 0:
            for c in range(3):
                drawn_t[0, c] += (bt[0, c] - drawn_t[0, c]) * w


@njit(cache=True)
def draw_parts_rig(f, nb, fi, pbf, pbi, parent, f2, f3, i32, i64, bp, bq):
    """Dressed figure f drawn from its clip with parts off it (_parts.py): the rig in the
    animation's pose, and the parts' dressed bones turned as the pose drawn has their bodies (their
    local translations kept). ``bp``, ``bq``: scratch of MAXB rows."""
    k = fi[f, F_DRESS]
    o = k * NF2
    rt, rq, rs, root = f2[o + R_T], f2[o + R_Q], f2[o + R_S], f2[o + R_ROOT]
    at, aq, as_ = f2[o + R_ANIM_T], f2[o + R_ANIM_Q], f2[o + R_ANIM_S]
    wt, wq = f2[o + R_WRITTEN_T], f2[o + R_WRITTEN_Q]
    body_of = i64[k * NI64 + I_BODY_OF]
    rig_in_animation_pose(rt, rq, rs, wt, wq, at, aq, as_)
    parts_world_rotations(nb, parent, pbf[f, :nb, PB_DRAWN_Q:PB_DRAWN_Q + 4], bq)
    mask = np.empty_like(body_of)
    parts_mask(f, pbi, pbf, body_of, mask)
    draw_bodies(i32[k], rt, rq, rs, root, mask, bp, bq, f2[o + R_OFF_P], f2[o + R_OFF_Q], False,
                f3[k])
    mark_written(rt, rq, wt, wq, body_of)
    fi[f, F_RIG_OWNED] = 1


@njit(cache=True)
def pose_figure(f, dt, ff, fi, pbf, pbi, rbf, prm, parent, bf, ji, f2, f3, i32, i64, bq, bt,
                bp, bq2):
    """The pose phase of figure f: the pose drawn (PB_DRAWN_*), with the hand-overs' blends,
    and a dressed figure's rig. ``bq``, ``bt``, ``bp``, ``bq2``: scratch of MAXB rows."""
    nb = fi[f, F_NBONES]
    mo = fi[f, F_MODE]
    blend_time = prm[S_BLEND_TIME]
    drawn_q = pbf[f, :nb, PB_DRAWN_Q:PB_DRAWN_Q + 4]
    drawn_t = pbf[f, :nb, PB_DRAWN_T:PB_DRAWN_T + 3]
    from_anim = mo != POWERED and mo != LIMP
    if from_anim:
        # the animation's local pose: the pelvis's world pose, every joint's target
        for b in range(nb):
            for c in range(4):
                drawn_q[b, c] = ff[f, F_ANIM_ROT + c] if b == 0 else pbf[f, b, PB_TARGET + c]
            for c in range(3):
                drawn_t[b, c] = ff[f, F_ANIM_POS + c] if b == 0 else 0.0
        if fi[f, F_BLEND] == BLEND_TO_ANIMATION:
            ff[f, F_BLEND_T] += dt
            x = min(1.0, ff[f, F_BLEND_T] / blend_time)
            x = x * x * (3.0 - 2.0 * x)
            blend_pose(pbf[f, :nb, PB_FROM_Q:PB_FROM_Q + 4], pbf[f, :nb, PB_FROM_T:PB_FROM_T + 3],
                       drawn_q, drawn_t, x, drawn_q, drawn_t)
            if ff[f, F_BLEND_T] >= blend_time:
                fi[f, F_BLEND] = BLEND_NONE
        # a part with a mode of its own drawn as its bodies bend, or taken back (_parts.py)
        parts = parts_drawn(f, dt, nb, pbf, pbi, prm, parent, bf, ji, drawn_q, bq, bt)
        if mo == GETTING_UP or mo == ACTING:
            struck_drawn(f, nb, pbf, pbi, parent, bf, ji, drawn_q, drawn_t, bq, bt)
    else:
        parts = False
        body_pose_local(bf, ji, nb, parent, pbi[f, :, PB_BODY], bq, bt)
        if fi[f, F_BLEND] == BLEND_FADE:
            ff[f, F_BLEND_T] += dt
            remaining = max(0.0, 1.0 - ff[f, F_BLEND_T] / blend_time)
            fade_offset(bq[:nb], bt[:nb], drawn_q, drawn_t, pbf[f, :nb, PB_OFF_A],
                        pbf[f, :nb, PB_OFF_D], remaining)
            if remaining <= 0.0:
                fi[f, F_BLEND] = BLEND_NONE
        else:
            for b in range(nb):
                for c in range(4):
                    drawn_q[b, c] = bq[b, c]
                for c in range(3):
                    drawn_t[b, c] = bt[b, c]
    fi[f, F_SHOWN] = 1
    if fi[f, F_DRESS] >= 0:
        if (parts and fi[f, F_RIG_BLEND] == BLEND_NONE and mo != GETTING_UP
                and mo != ACTING):
            draw_parts_rig(f, nb, fi, pbf, pbi, parent, f2, f3, i32, i64, bp, bq2)
        else:
            draw_rig(f, dt, nb, from_anim, fi, ff, pbf, pbi, rbf, prm, bf, f2, f3, i32, i64,
                     bp, bq2)


# ------------------------------------------------------------------------------ the façade
def body_local(m: Motion) -> tuple[np.ndarray, np.ndarray]:
    """The bodies' local pose now: ((n, 4), (n, 3) m), as the pose drawn holds it."""
    nb = m.ragdoll.bones
    q = np.zeros((nb, 4))
    t = np.zeros((nb, 3))
    body_pose_local(m.engine.physics.bf, m.engine.physics.ji, nb, PARENT, m.ragdoll.bodies, q, t)
    return q, t


def anim_local(m: Motion) -> tuple[np.ndarray, np.ndarray]:
    """The animation's local pose now: ((n, 4), (n, 3) m)."""
    s = service(m.engine)
    nb = m.ragdoll.bones
    q = s.pbf[m.slot, :nb, PB_TARGET:PB_TARGET + 4].copy()
    q[0] = s.ff[m.slot, F_ANIM_ROT:F_ANIM_ROT + 4]
    t = np.zeros((nb, 3))
    t[0] = s.ff[m.slot, F_ANIM_POS:F_ANIM_POS + 3]
    return q, t


def snapshot_shown(m: Motion) -> None:
    """Make sure the pose drawn holds the pose shown now (before a mode change)."""
    s = service(m.engine)
    if not s.fi[m.slot, F_SHOWN]:
        nb = m.ragdoll.bones
        mo = int(s.fi[m.slot, F_MODE])
        q, t = anim_local(m) if mo in FROM_ANIMATION else body_local(m)
        s.pbf[m.slot, :nb, PB_DRAWN_Q:PB_DRAWN_Q + 4] = q
        s.pbf[m.slot, :nb, PB_DRAWN_T:PB_DRAWN_T + 3] = t
        s.fi[m.slot, F_SHOWN] = 1


def hand_over(m: Motion, old: int, mode: int, first: bool) -> None:
    """The drawing's side of a mode change (``_modes.hand_over``): to ANIMATED from POWERED or
    LIMP, a blend from the pose shown; into POWERED or LIMP from the animation, the pose shown
    kept as an offset from the bodies that fades (#581)."""
    s = service(m.engine)
    f = m.slot
    nb = m.ragdoll.bones
    shown = bool(s.fi[f, F_SHOWN])
    if mode == ANIMATED:
        if not first and old in (POWERED, LIMP) and shown:
            s.fi[f, F_BLEND] = BLEND_TO_ANIMATION
            s.ff[f, F_BLEND_T] = 0.0
            s.pbf[f, :nb, PB_FROM_Q:PB_FROM_Q + 4] = s.pbf[f, :nb, PB_DRAWN_Q:PB_DRAWN_Q + 4]
            s.pbf[f, :nb, PB_FROM_T:PB_FROM_T + 3] = s.pbf[f, :nb, PB_DRAWN_T:PB_DRAWN_T + 3]
        else:
            s.fi[f, F_BLEND] = BLEND_NONE
    elif old in FROM_ANIMATION and shown:
        # the pose shown at the call, as an offset from the bodies that fades (#581)
        bq, bt = body_local(m)
        a = np.zeros(nb)
        d = np.zeros(nb)
        offset_size(s.pbf[f, :nb, PB_DRAWN_Q:PB_DRAWN_Q + 4],
                    s.pbf[f, :nb, PB_DRAWN_T:PB_DRAWN_T + 3], bq, bt, a, d)
        s.pbf[f, :nb, PB_OFF_A] = a
        s.pbf[f, :nb, PB_OFF_D] = d
        s.fi[f, F_BLEND] = BLEND_FADE
        s.ff[f, F_BLEND_T] = 0.0
    elif s.fi[f, F_BLEND] == BLEND_TO_ANIMATION:
        s.fi[f, F_BLEND] = BLEND_NONE


def rig_hand_over(m: Motion, old: int, new: int) -> None:
    """At a mode change of a dressed figure: into POWERED/LIMP from the animation, the rig's pose
    at the call is kept as an offset that fades (#581); to ANIMATED, the pose drawn is blended
    from."""
    D = _dress()
    r = m.ragdoll
    rig = m.rig
    s = service(m.engine)
    f = m.slot
    cnt = rig.count
    was_anim = old in FROM_ANIMATION
    if new in (POWERED, LIMP) and was_anim:
        shown_q = rig.rotation.copy()
        shown_t = rig.translation.copy()
        D.ragdoll_to_rig_pose(r)
        bq = rig.rotation.copy()
        bt = rig.translation.copy()
        rig.rotation[:] = shown_q
        rig.translation[:] = shown_t
        rig.update_world()
        d = D.ragdoll_dressing(r)
        d.written_t[:] = np.nan
        d.written_q[:] = np.nan
        s.rbf[f, :cnt, RB_Q:RB_Q + 4] = shown_q
        s.rbf[f, :cnt, RB_T:RB_T + 3] = shown_t
        a = np.zeros(cnt)
        dd = np.zeros(cnt)
        offset_size(shown_q, shown_t, bq, bt, a, dd)
        s.rbf[f, :cnt, RB_OFF_A] = a
        s.rbf[f, :cnt, RB_OFF_D] = dd
        s.fi[f, F_RIG_BLEND] = BLEND_FADE
        s.ff[f, F_RIG_BLEND_T] = 0.0
    elif new == ANIMATED and not was_anim:
        s.rbf[f, :cnt, RB_FROM_Q:RB_FROM_Q + 4] = rig.rotation
        s.rbf[f, :cnt, RB_FROM_T:RB_FROM_T + 3] = rig.translation
        s.fi[f, F_RIG_BLEND] = BLEND_TO_ANIMATION
        s.ff[f, F_RIG_BLEND_T] = 0.0


def read_one(m: Motion) -> None:
    """Figure ``m``'s animation's pose from its rig now (``read_rig``), e.g. as it is made."""
    s = service(m.engine)
    s.rigs.update(s)
    f2, f3, i32, i64, world = s.rigs.tables()
    read_rig(m.slot, int(s.fi[m.slot, F_DRESS]), m.ragdoll.bones, PARENT, s.ff, s.pbf, f2, i32,
             i64, world)


def pose(body: Motion, e: Any = None, dt: float | None = None) -> None:
    """The pose phase for one figure, for a program that steps itself (#699): the pose drawn is
    worked out (bodies, animation, blends) and, dressed, written into the rig. ``dt`` (s) is the
    frame's time, the engine's fixed step by default."""
    m = check(body)
    if dt is not None:
        _checks.seconds(dt, "dt")
    if e is not None and e is not m.engine:
        raise ValueError("body belongs to another engine")
    d = m.engine.fixed_dt if dt is None else float(dt)
    if not (math.isfinite(d) and d >= 0.0):
        raise ValueError("dt must be a finite, non-negative number of seconds")
    service(m.engine).pose(-1, d, m.slot, m.slot + 1)


def drawn_pose(body: Motion) -> tuple[np.ndarray, np.ndarray]:
    """((n, 3) m, (n, 4)): where each bone's body is drawn in the world (the pose shown)."""
    m = check(body)
    snapshot_shown(m)
    s = service(m.engine)
    nb = m.ragdoll.bones
    p = np.zeros((nb, 3))
    q = np.zeros((nb, 4))
    local_to_world(nb, PARENT, m.ragdoll.joints, m.engine.physics.jf,
                   s.pbf[m.slot, :nb, PB_DRAWN_Q:PB_DRAWN_Q + 4],
                   s.pbf[m.slot, :nb, PB_DRAWN_T:PB_DRAWN_T + 3], p, q)
    return p, q
