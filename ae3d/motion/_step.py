"""The motion's only loops over figures: the fixed step (``pre_step``, ``post_step``), the rigs
read before it (``read_rigs``) and the pose phase (``pose_all``), one njit call each for every
figure of an engine, so the Python cost per figure per step is nothing (DESIGN.md "Motion").

Each takes a fixed handful of tables: the motion's (``ff``, ``fi``, ``pbf``, ``pbi``, ``rbf``,
``_layout``), the physics world's (``bf``, ``bi``, ``jf``, ``ji``, ``af``, ``si``, ``mi``,
``mf``; ``physics/_layout``), the settings row ``prm`` and ``dt``, and calls each behaviour's
verbs in the stage order below, dispatching on the figure's mode (``F_MODE``). Adding a behaviour
is a file with its verbs, a column block in ``_layout`` and a line here: no signature changes.

Stage order, per live figure stepped with ``want`` (its ragdoll not destroyed under it, not
parked):

pre_step (before the physics step)
  00. get_up_pre   GETTING_UP: the way up's pose this step as the animation's (before anything
                   reads it), its last key flagged; else set_get_up's stillness, a way due
                   flagged (``_get_up.after_step`` starts and ends them after the step) _get_up.py
  0. hits_pre      the bodies' velocities as the step starts (once, while an ANIMATED figure is
                   stepped: the struck scan reads them)                             _hits.py
  1. landing_pre   POWERED and falling: landed, caught, lying or falling again (from the
                   state the last step left); the shape to hold taken               _landing.py
  2. muscles_pre   the blows' shares recover; every joint's target, budget (POWERED) and
                   spring (ANIMATED, GETTING_UP, ACTING); a landed figure's held shape _muscles.py
  3. balance_pre   the lean; the upright anchor's cap (let go, the fall's assist, landed
                   let go) and the heading hold                                     _balance.py
  3a. writhe_pre   POWERED, landed, writhing set: the legs and arms' bends on their muscle,
                   the rest on 15 %; caught, let go; over, the shape held           _writhe.py
  3b. wound_pre    POWERED, standing, a wound held: the hand to it, the spine's fold or the
                   knee as aims (before the fall's, which take over when it falls)  _wound.py
  4. fall_pre      POWERED, protective, falling, not landed: the reach, tuck, knees and
                   spine as aims (after the muscles' targets); else the aims cleared _fall.py
  4b. stepping_pre POWERED, stepping, not falling or landed: the capture point; the swinging
                   leg's, the planted leg's and the trunk's aims (after the fall's, which
                   let go of every aim as a fall is caught); else the step's aims let go
                                                                                    _stepping.py
  4c. parts_pre    POWERED: a LIMP part's joints keep no muscle, whatever the stages before
                   gave them (writhing's drives)                                    _parts.py
  5. modes_pre     ANIMATED...: the follow anchors' targets and velocities          _modes.py
  6. the figure woken where anything changed
post_step (after it)
  1. hits_post     an ANIMATED figure's bodies marked for the struck scan           _hits.py
  2. balance_post  the lean, the most leant, falling                                _balance.py
  2b. wound_post   a fresh wound judged: answered unless the blow threw the body    _wound.py
  3. hits_scan     the world's contacts: who was struck by a body (after the loop)  _hits.py
read_rigs (before pre_step): read_rig, a dressed figure's animation from its rig    _pose.py
pose_all (the pose phase): pose_figure, the pose drawn and the rig                   _pose.py

The verbs allocate nothing and are compiled without numba's reference counting
(``@njit(cache=True, _nrt=False)``): a call between kernels otherwise increfs and decrefs every
array argument, about 50 ns a call of a dozen tables, which a few verbs for 32 figures made
3 µs of a 5 µs post_step. A new verb does the same (its scratch comes from the loop here).

Units: m, s, rad, N·m.
"""

from __future__ import annotations

import numpy as np
from numba import njit

from ae3d.physics._kernels_sleep import wake_island
from ae3d.physics._layout import B_AWAKE, B_PARKED, B_SLEEP_TIME, J_OWNER

from ._balance import balance_post, balance_pre
from ._fall import fall_pre
from ._get_up import get_up_pre
from ._hits import hits_post, hits_pre, hits_scan
from ._landing import landing_pre
from ._layout import (
    F_ALIVE,
    F_DRESS,
    F_MODE,
    F_NBONES,
    F_OWNER,
    F_STEPPED,
    F_STRUCK_BONE,
    F_STRUCK_J,
    MAXB,
    PB_BODY,
    PB_JOINT,
    POWERED,
    S_STRUCK_SPEED,
)
from ._modes import from_animation, modes_pre
from ._muscles import muscles_pre
from ._parts import parts_pre
from ._pose import pose_figure, read_rig
from ._stepping import stepping_pre
from ._wound import wound_post, wound_pre
from ._writhe import writhe_pre


@njit(cache=True, _nrt=False)
def _live(f, want, fi, pbi, ji):
    """Figure f is in use and stepped with ``want`` (-1: any). A figure whose ragdoll was
    destroyed under it (physics.ragdoll_destroy: its joints' owner is someone else's now) is
    dropped, never written again."""
    if fi[f, F_ALIVE] == 0 or (want >= 0 and fi[f, F_STEPPED] != want):
        return False
    if ji[pbi[f, 1, PB_JOINT], J_OWNER] != fi[f, F_OWNER]:
        fi[f, F_ALIVE] = 0
        return False
    return True


@njit(cache=True)
def _wake_body(bf, bi, n, s):
    if bi[s, B_PARKED] != 0:
        return
    if bi[s, B_AWAKE] == 0:
        wake_island(bf, bi, n, s)
    bf[s, B_SLEEP_TIME] = 0.0


@njit(cache=True)
def pre_step(want, dt, n, ff, fi, pbf, pbi, prm, parent, soles, up_local, fwd_local, bf, bi,
             jf, ji, af, si, nbody, v0):
    """Before the physics step, every live figure stepped with ``want``: the stage order above.
    ``v0`` (at least nbody, 3): the bodies' velocities for the struck scan. Returns True when
    they were taken (a figure following its animation is stepped: ANIMATED, GETTING_UP, ACTING)."""
    taken = False
    for f in range(n):
        if fi[f, F_ALIVE] != 0 and fi[f, F_STEPPED] == want and from_animation(fi[f, F_MODE]):
            taken = True
    if taken:
        hits_pre(bf, bi, nbody, dt, v0)
    scratch_p = np.zeros((MAXB, 3))
    scratch_q = np.zeros((MAXB, 4))
    scratch_s = np.zeros((6, 4))
    scratch_way = np.zeros((10, MAXB, 4))   # get_up_pre's keys and bodies
    for f in range(n):
        if not _live(f, want, fi, pbi, ji):
            continue
        pel = pbi[f, 0, PB_BODY]
        if bi[pel, B_PARKED] != 0:
            continue
        nb = fi[f, F_NBONES]
        mode = fi[f, F_MODE]
        powered = mode == POWERED
        animated = from_animation(mode)
        changed = get_up_pre(f, dt, nb, ff, fi, pbf, pbi, prm, parent, up_local, bf, jf,
                             scratch_way)
        changed = landing_pre(f, dt, nb, powered, ff, fi, pbf, pbi, prm, bf, jf, ji) or changed
        changed = muscles_pre(f, dt, nb, powered, animated, ff, pbf, pbi, prm, jf, ji) or changed
        changed = balance_pre(f, dt, nb, powered, ff, fi, pbi, prm, soles, up_local, fwd_local,
                              bf, af, si) or changed
        changed = writhe_pre(f, dt, nb, powered, ff, fi, pbf, pbi, prm, up_local, fwd_local, bf,
                             jf, ji, af) or changed
        changed = wound_pre(f, dt, nb, powered, ff, fi, pbf, pbi, prm, up_local, fwd_local, bf,
                            jf, ji) or changed
        changed = fall_pre(f, nb, powered, ff, fi, pbi, prm, up_local, fwd_local, bf, jf,
                           ji) or changed
        changed = stepping_pre(f, dt, nb, powered, ff, fi, pbi, prm, up_local, fwd_local, bf,
                               jf, ji, scratch_s) or changed
        changed = parts_pre(f, nb, powered, pbi, jf) or changed
        changed = modes_pre(f, dt, nb, animated, ff, fi, pbf, pbi, prm, parent, jf, af,
                            scratch_p, scratch_q) or changed
        if changed:
            _wake_body(bf, bi, nbody, pel)
    return taken


@njit(cache=True)
def post_step(want, n, ff, fi, pbi, prm, up_local, bf, bi, ji, mi, mf, nm, scan, v0, owner):
    """After the physics step, every live figure stepped with ``want``: the stage order above.
    ``scan``: look for ANIMATED figures struck by a body (``v0`` the velocities pre_step took,
    ``owner`` scratch of the world's body count). Returns how many were struck."""
    if scan:
        for i in range(owner.shape[0]):
            owner[i] = -1
    for f in range(n):
        if scan:
            fi[f, F_STRUCK_BONE] = -1
            ff[f, F_STRUCK_J] = 0.0
        if not _live(f, want, fi, pbi, ji):
            continue
        if scan:
            hits_post(f, ff, fi, pbi, owner)
        if bi[pbi[f, 0, PB_BODY], B_PARKED] != 0:
            continue
        balance_post(f, fi[f, F_MODE] == POWERED, ff, fi, pbi, prm, up_local, bf)
        wound_post(f, ff, fi, pbi, prm, bf)
    if not scan:
        return 0
    return hits_scan(ff, fi, pbi, bf, bi, mi, mf, nm, v0, owner, prm[S_STRUCK_SPEED])


@njit(cache=True)
def read_rigs(want, n, ff, fi, pbf, pbi, parent, ji, f2, f3, i32, i64, world, bi):
    """Before the step, every live dressed figure stepped with ``want``, not parked: its
    animation's pose from its rig (``_pose.read_rig``), all rigs in one call. (A parked figure,
    a hand-over pool's spare, costs nothing: its rig is read again as it is unparked.)"""
    for f in range(n):
        if fi[f, F_DRESS] < 0 or fi[f, F_ALIVE] == 0 or fi[f, F_STEPPED] != want:
            continue
        if ji[pbi[f, 1, PB_JOINT], J_OWNER] != fi[f, F_OWNER]:
            continue
        if bi[pbi[f, 0, PB_BODY], B_PARKED] != 0:
            continue
        read_rig(f, fi[f, F_DRESS], fi[f, F_NBONES], parent, ff, pbf, f2, i32, i64, world)


@njit(cache=True)
def pose_all(want, dt, lo, hi, ff, fi, pbf, pbi, rbf, prm, parent, bf, bi, ji, f2, f3, i32, i64,
             world):
    """The pose phase of figures lo..hi stepped with ``want`` (-1: any): each one's pose drawn,
    with the hand-overs' blends, and its rig (``_pose.pose_figure``)."""
    bq = np.zeros((MAXB, 4))
    bt = np.zeros((MAXB, 3))
    bp = np.zeros((MAXB, 3))
    bq2 = np.zeros((MAXB, 4))
    for f in range(lo, hi):
        if fi[f, F_ALIVE] == 0 or (want >= 0 and fi[f, F_STEPPED] != want):
            continue
        if ji[pbi[f, 1, PB_JOINT], J_OWNER] != fi[f, F_OWNER]:
            continue
        if bi[pbi[f, 0, PB_BODY], B_PARKED] != 0:
            continue
        pose_figure(f, dt, ff, fi, pbf, pbi, rbf, prm, parent, bf, ji, f2, f3, i32, i64, bq, bt,
                    bp, bq2)
