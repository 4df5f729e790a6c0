"""Hits: blows (``hit``), what they take of the muscles and the balance, and an ANIMATED figure
struck by a body (#581).

``hit(body, bone, point, impulse)`` takes the struck bone's muscle by the speed the blow gives it
over ``hit_speed`` (capped at ``hit_cap``), half that of its neighbours', and the balance when it
gives the whole figure more than ``blow_overcomes`` (spec "Balance": the 1,200 N·m "is the
balance a standing figure keeps, and what a blow past it overcomes"; the top of what a step
catches, spec "On muscles": 1.2 to 2.4 m/s. 60 N·s on the 78 kg box man is 0.77 m/s and it
stands; 400 N·s is 5.1 m/s and it goes down). An ANIMATED figure struck goes POWERED.

Struck by a body:

"A figure stays ANIMATED, drawn from its clip, until something touches it, and goes POWERED the
moment it is struck." ``motion.hit`` is one way (the game knows what struck). The other is the
world's own contacts: a body that came at the figure's bodies strikes it.

Struck is told from touched by who moved. An ANIMATED figure's bodies follow its clip and push
aside what they meet (spec "ANIMATED"), so a walker pushing a crate must stay ANIMATED, while a
crate thrown at it must not. The scan therefore reads the other body's own velocity at the start
of the step (taken before the physics step: after it the two move together) along the contact
normal into the figure: a body coming at it faster than ``STRUCK_SPEED`` strikes it; one at rest
that the figure walks into does not. Static bodies (the ground) never strike; the figure's own
bodies never do.

What a strike takes from the muscles is ``hit``'s rule, with the blow's impulse estimated from the
two bodies' approach as a perfectly inelastic two-body impact: j = m_f m_o / (m_f + m_o) x the
closing speed (m_o infinite for a kinematic body: j = m_f x speed). The strongest strike of the
step on a figure is the one taken. Units: m/s, kg, N·s.

Columns: ``F_STRUCK_BONE``, ``F_STRUCK_J`` (``_layout``). Settings: ``HitsSettings``. Verbs:
``hits_pre`` (the bodies' velocities as the step starts), ``hits_post`` (a figure's bodies marked
for the scan) and ``hits_scan`` (the world's contacts, after the loop).
"""

from __future__ import annotations

import math
from dataclasses import dataclass
from typing import Any

import numpy as np
from numba import njit

from ae3d import physics
from ae3d.physics import _layout as PL
from ae3d.physics._layout import (
    B_KIN_MOVE,
    B_KIN_POS,
    B_KIND,
    B_MASS,
    B_PARKED,
    B_POS,
    B_V,
    KIND_DYNAMIC,
    KIND_KINEMATIC,
    M_A,
    M_B,
    M_N,
    M_NORMAL,
    M_P,
    P_MAXLN,
    P_STRIDE,
)

from . import _checks
from ._layout import (
    ACTING,
    ANIMATED,
    F_FALLING,
    F_FELL_AGAIN,
    F_HOLD,
    F_KNOCKED,
    F_MODE,
    F_NBONES,
    F_STRUCK_BONE,
    F_STRUCK_BY,
    F_STRUCK_J,
    F_STRUCK_V,
    GETTING_UP,
    PB_BODY,
    POWERED,
    S_BLOW_OVERCOMES,
    S_BLOW_OVERCOMES_AHEAD,
    S_HIT_CAP,
    S_HIT_SPEED,
    S_HOLD_SHARE,
    S_STRUCK_SPEED,
)
from ._modes import from_animation
from ._service import NEIGHBOURS, Motion, bone_of, check, finite, service


@dataclass(frozen=True)
class HitsSettings:
    """The blows' tuned constants (packed into the parameter row by ``_settings.pack``)."""

    hit_speed: float = 1.6
    """m/s: the struck bone's speed that takes its whole share (the struck arm's 8 N·s takes
    5 % of its muscle, the forearm half that: test_motion)."""
    hit_cap: float = 0.95
    """the most a blow takes of a muscle (a muscle is never all gone)."""
    blow_overcomes: float = 2.4
    """m/s: a blow giving the whole figure more than this overcomes its balance (the top of what
    a step catches, spec "On muscles": 60 N·s on the box man stands, 400 N·s falls). This is
    the limit aside and back; ahead it is ``blow_overcomes_ahead``, an ellipse's between."""
    blow_overcomes_ahead: float = 3.35
    """m/s: ``blow_overcomes`` for a blow along the way the pelvis faces (a push from behind),
    whose feet reach 0.2 m ahead of the ankles and not behind or aside (issue 14: the spec's
    table stands still through 255 N·s from behind and falls from 270, and through 180 from
    the side but not 210). Measured on the 78 kg reference ragdoll shoved at the chest: at 2.4
    every way the anchor let go from 195 N·s from behind (2.5 m/s) and standing still gave out
    past 180; never let go, its 1,200 N·m alone stands 270 from behind (and 210 from the side)
    and falls at 300; at 3.35 ahead it stands to 255 (3.27 m/s) and falls from 270 (3.46).
    A blow whose way is not known (struck by a body) takes ``blow_overcomes``."""
    struck_speed: float = 0.5
    """m/s: a body coming at an ANIMATED figure faster than this strikes it; slower, it only
    touches (a walker's foot brushing a ball at rest, a prop set down against its legs). Half a
    slow walk: "until something touches it" asks for little, but not for nothing."""

    def pack(self, row: np.ndarray) -> None:
        row[S_HIT_SPEED] = self.hit_speed
        row[S_HIT_CAP] = self.hit_cap
        row[S_BLOW_OVERCOMES] = self.blow_overcomes
        row[S_BLOW_OVERCOMES_AHEAD] = self.blow_overcomes_ahead
        row[S_STRUCK_SPEED] = self.struck_speed


# ------------------------------------------------------------------------------ the verbs
@njit(cache=True)
def hits_pre(bf, bi, n, dt, out):
    """out[i] = body i's linear velocity (m/s) as the coming step starts: a kinematic body moved
    to a target, the velocity that reaches it in ``dt``."""
    for i in range(n):
        if bi[i, B_KIND] == KIND_KINEMATIC and bi[i, B_KIN_MOVE] != 0:
            for c in range(3):
                out[i, c] = (bf[i, B_KIN_POS + c] - bf[i, B_POS + c]) / dt
        else:
            for c in range(3):
                out[i, c] = bf[i, B_V + c]


@njit(cache=True, _nrt=False)
def hits_post(f, ff, fi, pbi, owner):
    """After the physics step, figure f (live, stepped): no strike yet; the bodies of a figure
    following its animation (ANIMATED, or on a keyed way: GETTING_UP, ACTING) marked as its own
    in ``owner`` (world body count) for ``hits_scan``."""
    fi[f, F_STRUCK_BONE] = -1
    ff[f, F_STRUCK_J] = 0.0
    if not from_animation(fi[f, F_MODE]):
        return
    nb_world = owner.shape[0]
    for b in range(fi[f, F_NBONES]):
        s = pbi[f, b, PB_BODY]
        if 0 <= s < nb_world:
            owner[s] = f


@njit(cache=True)
def hits_scan(ff, fi, pbi, bf, bi, mi, mf, nm, v0, owner, speed_min):
    """After the physics step, over the world's contacts: for every figure ``hits_post`` marked
    (``owner``: the figure of each body, -1 none), the bone struck hardest this step and the
    blow's estimated impulse (F_STRUCK_BONE, F_STRUCK_J N·s). Returns how many were struck."""
    nb_world = owner.shape[0]
    struck = 0
    for r in range(nm):
        a = mi[r, M_A]
        b = mi[r, M_B]
        fa = owner[a] if a < nb_world else -1
        fb = owner[b] if b < nb_world else -1
        if fa < 0 and fb < 0:
            continue
        touched = False
        for p in range(mi[r, M_N]):
            if mf[r, M_P + p * P_STRIDE + P_MAXLN] > 0.0:
                touched = True
        if not touched:
            continue
        nx = mf[r, M_NORMAL]
        ny = mf[r, M_NORMAL + 1]
        nz = mf[r, M_NORMAL + 2]
        for side in range(2):
            if side == 0:
                f, me, other, sg = fa, a, b, 1.0     # the normal runs from A (the figure) to B
            else:
                f, me, other, sg = fb, b, a, -1.0
            if f < 0 or owner[other] == f:
                continue
            k = bi[other, B_KIND]
            if (k != KIND_DYNAMIC and k != KIND_KINEMATIC) or bi[other, B_PARKED] != 0:
                continue
            # into the figure is -sg n; the other body's own speed that way, and the closing speed
            ux = -sg * nx
            uy = -sg * ny
            uz = -sg * nz
            coming = v0[other, 0] * ux + v0[other, 1] * uy + v0[other, 2] * uz
            if coming <= speed_min:
                continue
            mine = v0[me, 0] * ux + v0[me, 1] * uy + v0[me, 2] * uz
            closing = coming - mine
            if closing <= 0.0:
                continue
            mf_ = bf[me, B_MASS]
            mo = bf[other, B_MASS] if k == KIND_DYNAMIC else 0.0
            meff = mf_ * mo / (mf_ + mo) if mo > 0.0 else mf_
            j = meff * closing
            if j > ff[f, F_STRUCK_J]:
                if fi[f, F_STRUCK_BONE] < 0:
                    struck += 1
                ff[f, F_STRUCK_J] = j
                ff[f, F_STRUCK_BY] = mo
                ff[f, F_STRUCK_V] = closing
                # the bone of the body struck
                for bb in range(fi[f, F_NBONES]):
                    if pbi[f, bb, PB_BODY] == me:
                        fi[f, F_STRUCK_BONE] = bb
    return struck




class StruckScratch:
    """The service's scratch for the scan, grown with the world: the bodies' velocities as the
    step starts (v0, m/s) and each body's figure (owner)."""

    def __init__(self) -> None:
        self.v0 = np.zeros((0, 3))
        self.owner = np.zeros(0, dtype=np.int64)
        self.taken = False    # hits_pre took the velocities (an ANIMATED figure was stepped)

    def fit(self, n: int) -> None:
        if self.v0.shape[0] < n:
            self.v0 = np.zeros((max(n, 2 * self.v0.shape[0]), 3))
            self.owner = np.zeros(self.v0.shape[0], dtype=np.int64)


# ------------------------------------------------------------------------------ the façade
def hit(body: Motion, bone: int, point: Any, impulse: Any, use_cost: bool = False,
        cost: float | None = None) -> None:
    """Strike ``bone`` at ``point`` (3,) m with ``impulse`` (3,) N·s.

    The blow takes a share of the struck bone's muscle and half that of its neighbours', coming
    back over ``set_recovery`` seconds: by default the speed the blow gives the struck bone over
    1.6 m/s, capped at 95 %; ``hit(body, bone, point, impulse, True, cost)`` takes cost x 95 %
    instead (cost in [0, 1]). An ANIMATED figure goes POWERED the moment it is struck (#581); one
    on a keyed way (getting up, or acting: sitting, lying, eating) keeps to it unless the blow
    knocks it off (``knocked_off_its_way``), when it goes POWERED with its balance let go and
    falls."""
    from ._modes import hand_over
    m = check(body)
    _checks.hit_args(m, bone, point, impulse, use_cost, cost)
    b = bone_of(m, bone)
    p = finite(point, "point", (3,))
    j = finite(impulse, "impulse", (3,))
    s = service(m.engine)
    share = None
    if use_cost:
        if cost is None:
            raise ValueError("cost must be given with use_cost")
        try:
            c = float(cost)
        except (TypeError, ValueError):
            raise ValueError("cost must be a number in [0, 1]") from None
        if not (0.0 <= c <= 1.0):
            raise ValueError("cost must be in [0, 1]")
        share = c * float(s.prm[S_HIT_CAP])
    e = m.engine
    w = e.physics
    slot = int(m.ragdoll.bodies[b])
    # a part off the clip (limp, or POWERED on an ANIMATED figure, _parts.py) takes a blow the
    # balance holds on its own: the rest stays on the clip (#658)
    from ._parts import keeps_clip
    mode = int(s.fi[m.slot, F_MODE])
    if mode == ANIMATED and not keeps_clip(m, b, float(np.linalg.norm(j))):
        hand_over(m, POWERED)
    elif mode in KEYED and knocked_off_its_way(m, _off_the_ground(j), j):
        knock_off(m)
    blow_takes(m, b, float(np.linalg.norm(j)), share, j)
    # the hand to the wound (_wound.py): kept before the impulse, judged after its step
    from ._wound import wounded
    wounded(m, b, p)
    physics.apply_impulse(e, w.handle(slot), j, p)


# the modes on a keyed way: the bodies held to the way's keys by the follow anchors (_get_up.py,
# _act.py); uncapped, the anchors take any blow out of the bodies within a few steps
KEYED = (GETTING_UP, ACTING)


def knocked_off_its_way(m: Motion, impulse: float, way: np.ndarray | None) -> bool:
    """A blow of ``impulse`` N·s along ``way`` (world; None: not known) on a figure on a keyed
    way (getting up, sitting, lying, eating: its bodies held to the way's keys by the follow
    anchors) knocks it off the way when it gives the whole figure more than the balance keeps
    standing (``_overcomes``: blow_overcomes, or blow_overcomes_ahead from behind): the anchors,
    uncapped, would hold it through any blow. Below that the way holds it: the struck bodies give
    and the anchors bring them back, and the blow takes its share of the muscle."""
    total = figure_mass(m)
    return total > 0.0 and impulse / total > _overcomes(m, service(m.engine).prm, way)


def figure_mass(m: Motion) -> float:
    """kg: the whole figure's, every body of its ragdoll."""
    return float(np.sum(m.engine.physics.bf[m.ragdoll.bodies, PL.B_MASS]))


def _off_the_ground(j: np.ndarray) -> float:
    """N·s: a blow's impulse less its part straight down, which drives the figure into what it
    sits or lies on (a seat, the ground) rather than off it."""
    return math.sqrt(float(j[0]) ** 2 + max(float(j[1]), 0.0) ** 2 + float(j[2]) ** 2)


def knock_off(m: Motion) -> None:
    """Figure ``m`` knocked off its keyed way (``knocked_off_its_way``): the way ended where it
    is, POWERED and fallen until it gets up (``F_KNOCKED``: balance_post keeps it falling,
    balance_pre lets the balance go), its joints holding the shape they were struck in on the
    landing's share (``hold_share``) while the protective fall's reach and tuck take the arms
    and head, and landing wherever it comes to rest (as a figure falling again does). Handed
    to POWERED as it was, the joints drove to the clip's standing pose: a sitter struck from
    behind straightened its legs in the air and, its pelvis upright, was taken as caught and
    landed on its feet 3.7 m away."""
    from ._landing import take_shape
    from ._modes import hand_over
    s = service(m.engine)
    w = m.engine.physics
    f = m.slot
    s.fi[f, F_KNOCKED] = 1          # read as the action ends (_eat.end); hand_over clears it
    from ._sit import knocked
    knocked(m)                      # a sitter: watched till it rests (sat again if on its seat)
    hand_over(m, POWERED)
    take_shape(f, m.ragdoll.bones, s.pbf, s.pbi, w.bf, w.ji)
    s.ff[f, F_HOLD] = s.prm[S_HOLD_SHARE]
    s.fi[f, F_KNOCKED] = 1
    s.fi[f, F_FALLING] = 1
    s.fi[f, F_FELL_AGAIN] = 1


def blow_takes(m: Motion, b: int, impulse: float, share: float | None,
               way: np.ndarray | None = None) -> None:
    """What a blow of ``impulse`` N·s on bone ``b`` takes: ``share`` of its muscle (None: the
    speed it gives the bone over hit_speed, capped at hit_cap), half that of its neighbours', and
    the balance when it gives the whole figure more than blow_overcomes (blow_overcomes_ahead
    along the way the pelvis faces, an ellipse's between; ``way``: the blow's impulse, world,
    N·s; None: not known, blow_overcomes)."""
    from . import _balance, _muscles
    w = m.engine.physics
    r = m.ragdoll
    s = service(m.engine)
    prm = s.prm
    if share is None:
        mass = float(w.bf[int(r.bodies[b]), PL.B_MASS])
        share = min(float(prm[S_HIT_CAP]), impulse / mass / float(prm[S_HIT_SPEED]))
    _muscles.take(s, m, b, share)
    for nb in NEIGHBOURS[b]:
        if nb < r.bones:
            _muscles.take(s, m, nb, 0.5 * share)
    # a blow past what the balance keeps lets its anchor go (_balance.balance_pre): held, the
    # anchor on the world took the blow's turn out of the pelvis and the figure slid on its feet
    total = figure_mass(m)
    if total > 0.0 and impulse / total > _overcomes(m, prm, way):
        _balance.let_go(m)


def _overcomes(m: Motion, prm: np.ndarray, way: np.ndarray | None) -> float:
    """m/s: the whole figure's speed past which a blow along ``way`` (world, any length; None:
    not known) overcomes the balance: blow_overcomes aside and back, blow_overcomes_ahead along
    the way the pelvis faces over the ground, an ellipse's between (issue 14)."""
    aside = float(prm[S_BLOW_OVERCOMES])
    if way is None:
        return aside
    from ._service import FWD_LOCAL
    # the pelvis's forward in the world: v + w t + q x t, t = 2 q x v
    q = m.engine.physics.bf[int(m.ragdoll.bodies[0]), PL.B_QUAT:PL.B_QUAT + 4]
    t = 2.0 * np.cross(q[:3], FWD_LOCAL)
    fx, _, fz = (FWD_LOCAL + q[3] * t + np.cross(q[:3], t)).tolist()
    fh = math.hypot(fx, fz)
    jh = math.hypot(float(way[0]), float(way[2]))
    if fh < 1e-9 or jh < 1e-12:
        return aside
    c = (float(way[0]) * fx + float(way[2]) * fz) / (fh * jh)
    if c <= 0.0:
        return aside
    ahead = float(prm[S_BLOW_OVERCOMES_AHEAD])
    if aside <= 0.0 or ahead <= 0.0:
        return min(aside, ahead)
    # what holds a push ahead is the legs' reach over the feet: a figure whose legs a blow has
    # just taken (its shins swept) has none of it. Measured: tests/test_get_up's tripped figure
    # (80 N·s on each calf, then 250 N·s at the chest from behind, 3.2 m/s) kept its anchor at
    # 3.35 and lay 0.38 s longer before it got up than the spec's half second
    from ae3d import human

    from ._layout import PB_LOSS
    s = service(m.engine)
    legs = (human.BONE_THIGH_L, human.BONE_THIGH_R, human.BONE_CALF_L, human.BONE_CALF_R)
    loss = max((float(s.pbf[m.slot, b, PB_LOSS]) for b in legs if b < m.ragdoll.bones),
               default=0.0)
    ahead = aside + (ahead - aside) * (1.0 - min(max(loss, 0.0), 1.0))
    return 1.0 / math.sqrt((c / ahead) ** 2 + (1.0 - c * c) / aside ** 2)


def struck_rows(s: Any, rows: list[int]) -> None:
    """The rows ``hits_scan`` found struck this step, in row order (``struck``)."""
    for f in rows:
        m = s.handles[f]
        if m is not None and not m.released:
            struck(m, int(s.fi[f, F_STRUCK_BONE]), float(s.ff[f, F_STRUCK_J]))


def _whole_figure(m: Motion, s: Any) -> float:
    """N·s: the blow of the body that struck figure ``m`` this step on the whole figure, as a
    perfectly inelastic impact of the two (F_STRUCK_BY kg at F_STRUCK_V m/s; a kinematic body,
    the figure's mass times the speed). On a keyed way the figure is held together by its
    anchors, and the struck bone's share alone (F_STRUCK_J) read a kinematic car at 10 m/s into
    a sitter's chest as 150 N·s, a blow it keeps its seat through."""
    mass = figure_mass(m)
    mo = float(s.ff[m.slot, F_STRUCK_BY])
    v = float(s.ff[m.slot, F_STRUCK_V])
    return (mass * mo / (mass + mo) if mo > 0.0 else mass) * v


def struck(m: Motion, bone: int, impulse: float) -> None:
    """A figure following its animation struck by a body in the step just taken. ANIMATED:
    POWERED, and the blow takes
    its share as ``hit``'s does. The blow already moved the bodies, so the hand-over's offset is
    measured from where they were as the step began: what the blow did shows on the frame it
    landed (#581), as a ``hit`` does. A body striking a part off the clip (limp, or POWERED on
    its own muscles) leaves the figure ANIMATED by ``hit``'s rule (``_parts.keeps_clip``): the
    part swings and the rest walks its clip, unless the blow overcomes the balance. On a keyed
    way (GETTING_UP, ACTING) it keeps to the way unless the blow knocks it off
    (``knocked_off_its_way``): a car into a sitter."""
    from ._modes import hand_over
    from ._parts import keeps_clip
    s = service(m.engine)
    keyed = int(s.fi[m.slot, F_MODE]) in KEYED
    keeps = (not knocked_off_its_way(m, _whole_figure(m, s), None)) if keyed else keeps_clip(
        m, bone, impulse)
    if keeps:
        blow_takes(m, bone, impulse, None)
        return
    w = m.engine.physics
    slots = np.asarray(m.ragdoll.bodies, dtype=np.int64)
    now_p = w.bf[slots, PL.B_POS:PL.B_POS + 3].copy()
    now_q = w.bf[slots, PL.B_QUAT:PL.B_QUAT + 4].copy()
    w.bf[slots, PL.B_POS:PL.B_POS + 3] = w.bf[slots, PL.B_POS0:PL.B_POS0 + 3]
    w.bf[slots, PL.B_QUAT:PL.B_QUAT + 4] = w.bf[slots, PL.B_QUAT0:PL.B_QUAT0 + 4]
    try:
        if keyed:
            knock_off(m)
        else:
            hand_over(m, POWERED)
    finally:
        w.bf[slots, PL.B_POS:PL.B_POS + 3] = now_p
        w.bf[slots, PL.B_QUAT:PL.B_QUAT + 4] = now_q
    blow_takes(m, bone, impulse, None)
