"""The world's one jitted entry point per fixed step: collide once, then the soft-step sub-steps.

Order (Box2D v3 solver.c b2SolverTask; Catto's solver2d s2Solve_SoftStep):

    kinematic targets -> velocities; wake through joints
    world inverse inertia, step-start poses (B_POS0/B_QUAT0)
    broadphase, wake pass (moving bodies touching asleep ones wake their islands), narrow phase
    prepare joints, prepare anchors, prepare contacts
    islands (_kernels_islands), dealt into runs of consecutive islands, a run to a thread:
    each sub-step h = dt/N, over the run's bodies, joints, anchors and manifolds:
        integrate velocities (gravity, force, damping) of awake dynamic bodies
        warm start joints, anchors, contacts
        solve joints, anchors, contacts (bias)
        integrate positions (awake dynamic and kinematic bodies)
        relax joints, anchors, contacts (no bias; contact friction here)
    restitution; the nets (_hold_to_nets); joints open past World.project_gap (1.5 cm) projected
    together, with the contacts that drives deeper, a body the ground holds left where it is
    (_kernels_joints.project_joints, in a step where joints_open finds one);
    kinematic bodies land exactly on their targets; forces cleared; sleep

World inverse inertia (B_IW) is computed at the step's start and again after each sub-step's
position update (IW_EVERY_SUBSTEP): a body struck hard turns a lot within a 1/60 s step, and the
joints' rows (their masses taken in the same passes, see _kernels_joints) must see the I⁻¹ of
the pose they act on; once per step, the shoulder's twist limit spun an upper arm struck at
5,000 N·s to 5,228 rad/s (issue 18). Contacts take their masses in the solve from the same
current I⁻¹ (see _kernels_contact, "Effective masses": a step-start mass applied through a
refreshed I⁻¹ tore the busy scene).

Safety nets (issue 18), as Box2D v3, Jolt and PhysX keep them; each action is counted on the
body (B_NETS, read by ``physics.stats``), and with the joints' masses taken from the current
pose they rarely act (bench/tear.py and bench/soak.py count them):
    speed: a body's speed is held to FP_MAX_LINEAR_SPEED (World.max_linear_speed, 400 m/s: Box2D
        v3's 4 m x 100; Jolt 500 m/s) before each sub-step moves it, and again at the step's end
        (_hold_to_nets: the relax pass and restitution come after the sub-steps' caps).
    spin: a quarter turn a sub-step (MAX_TURN / h; Box2D v3's b2_maxRotation), the same two
        places: 377 rad/s at 8 sub-steps of 1/60 s.
    push-out: contacts at FP_CONTACT_SPEED (3 m/s, Box2D's contactSpeed); joints' points at
        JOINT_PUSH_MAX, limits at LIMIT_PUSH_MAX (_kernels_joints).
    reach: a body's speculative margin and broadphase bounds grow with its speed and spin held
        to the same caps (_kernels_broadphase.compute_bounds), so one struck far past them does
        not reach every island around it.
    non-finite: a body whose pose or velocity is not finite at the step's end goes back to where
        the step began, at rest, its joints', anchors' and contacts' warm starts dropped; islands
        share no dynamic body, so nothing of it reached another island this step, and with its
        bounds finite again none the next.

Position integration of a body without contacts adds -½h²a (a = gravity + force/mass) to h·v:
with v already advanced by h·a this is the trapezoid rule, exact for constant acceleration (free
fall lands on g·t²/2 at any sub-step count instead of being h·g·t/2 = 2 cm long after 1 s at
240 Hz). A body with contacts takes plain h·v (symplectic Euler): the contact solver does not see
the extra offset, which lifted resting bodies by 85 µm per sub-step and let a box on a 30° ramp
creep up it.
"""

import math

import numpy as np
from numba import njit, prange

from ._kernels_anchors import prepare_anchors, solve_anchors, warm_start_anchors
from ._kernels_broadphase import compute_bounds, find_pairs
from ._kernels_contact import (
    CG_COUNT,
    apply_restitution,
    build_manifolds,
    collide_bodies,
    prepare_contacts,
    solve_contacts,
    warm_start_contacts,
)
from ._kernels_islands import build_islands
from ._kernels_joints import (
    G_COUNT,
    ground_planes,
    joints_open,
    prepare_joints,
    project_joints,
    solve_joints,
    solve_joints_converged,
    warm_start_joints,
)
from ._kernels_sleep import update_sleep, wake_island, wake_through_joints
from ._layout import (
    A_BODY,
    A_L_ANG,
    A_L_LIN,
    B_ANG_DAMP,
    B_AWAKE,
    B_FORCE,
    B_GRAV_SCALE,
    B_INV_I,
    B_INV_MASS,
    B_IW,
    B_KIN_MOVE,
    B_KIN_POS,
    B_KIN_QUAT,
    B_KIND,
    B_LIN_DAMP,
    B_NETS,
    B_PARKED,
    B_POS,
    B_POS0,
    B_QUAT,
    B_QUAT0,
    B_TORQUE,
    B_V,
    B_W,
    J_BODY_A,
    J_BODY_B,
    J_L_LOCK,
    J_L_POINT,
    KIND_DYNAMIC,
    KIND_KINEMATIC,
    M_A,
    M_B,
    M_N,
    NET_RESET,
    NET_SPEED,
    NET_SPIN,
    SF_EXT,
    SI_ACT,
    SI_TOUCH,
)
from ._math import qangvel, qintegrate, rot_diag_inv

# Every physics kernel that allocates nothing is compiled with _nrt=False (issue 16): with
# numba's reference counting on, each helper an outer loop calls (inlined or not) increfs
# and decrefs every array it is handed, ~35 ns a call, so a loop that only passes a parked
# row by paid that per row (a pool of twelve parked figures: 20 us a step) and the solver
# paid it on every row of every pass. Those that allocate (step_world, the island scratch,
# the parallel runs, find_pairs' sort, draw_bodies) keep it; build_islands reuses its
# parent scratch for its fill cursors so that it need not. No arithmetic changes.

# fp: float parameters of the step
FP_GX = 0
FP_GY = 1
FP_GZ = 2
FP_DT = 3
FP_CONTACT_HZ = 4
FP_CONTACT_ZETA = 5
FP_CONTACT_SPEED = 6
FP_RESTITUTION_THRESHOLD = 7
FP_SLEEP_THRESHOLD = 8
FP_TIME_TO_SLEEP = 9
FP_MARGIN = 10
FP_MAX_LINEAR_SPEED = 11
FP_REACH_SPIN = 12      # rad/s: the spin a drive may swing a body at, for the ground's reach
FP_PROJECT_GAP = 13     # m: a joint's gap past this at a step's end is projected
FP_COUNT = 14
# ip: int parameters in, counts out
IP_N = 0
IP_NJ = 1
IP_NA = 2
IP_NM0 = 3
IP_SUBSTEPS = 4
IP_SLEEP = 5
IP_N_IGNORE = 6
IP_OUT_PAIRS = 7       # candidate pairs found (may exceed the key capacity)
IP_OUT_MANIFOLDS = 8   # manifolds found (may exceed the manifold capacity)
IP_OUT_WOKEN = 9
IP_OUT_SLEPT = 10
IP_SWEEPS = 11          # sweeps over a manifold's normal points per pass
IP_SORT = 12            # 12..13 the broadphase's sweep order: count and axis (kept between steps)
IP_OUT_ISLANDS = 14     # solver islands this step (see _kernels_islands)
IP_THREADS = 15         # solver threads: the islands are dealt into this many runs
IP_OUT_RESET = 16       # bodies put back this step for going non-finite (_hold_to_nets)
IP_PROJECT_SWEEPS = 17  # the projection's sweeps at most (0: off; _kernels_joints.project_joints)
IP_STEP_FLAGS = 18      # bits: _kernels_contact.REACH_NO_RESTITUTION 1, REACH_NO_FRICTION 2;
#                         _kernels_joints.PROJECT_TOUCH 4 (World.step_flags)
IP_COUNT = 19

# The world inverse inertia (B_IW) of a dynamic body is taken again after each sub-step's
# position update (see the module docstring)
IW_EVERY_SUBSTEP = True
# A sub-step turns a body at most this share of a turn (Box2D v3's b2_maxRotation, a quarter turn)
MAX_TURN = 0.25 * math.pi

# more runs than threads, taken one at a time: a thread that is held up (a shared machine's
# other work) leaves its share to the others
RUNS_PER_THREAD = 4

KEY_SHIFT = 32
KEY_MASK = (1 << 32) - 1


@njit(cache=True, _nrt=False)
def _activity(bf, bi, lb, si):
    moving = 0
    for t in range(lb.shape[0]):
        i = lb[t]
        k = bi[i, B_KIND]
        act = 0
        if bi[i, B_PARKED] == 0:
            if k == KIND_DYNAMIC:
                act = 2 if bi[i, B_AWAKE] != 0 else 1
            elif k == KIND_KINEMATIC:
                if (bf[i, B_V] != 0.0 or bf[i, B_V + 1] != 0.0 or bf[i, B_V + 2] != 0.0
                        or bf[i, B_W] != 0.0 or bf[i, B_W + 1] != 0.0 or bf[i, B_W + 2] != 0.0):
                    act = 2
        si[i, SI_ACT] = act
        if act == 2:
            moving += 1
    return moving


@njit(cache=True, _nrt=False)
def _start_poses(bf, bi, lb):
    for t in range(lb.shape[0]):
        i = lb[t]
        k = bi[i, B_KIND]
        if bi[i, B_PARKED] != 0 or (k != KIND_DYNAMIC and k != KIND_KINEMATIC):
            continue
        for c in range(3):
            bf[i, B_POS0 + c] = bf[i, B_POS + c]
        for c in range(4):
            bf[i, B_QUAT0 + c] = bf[i, B_QUAT + c]
        if k == KIND_DYNAMIC and bi[i, B_AWAKE] != 0:
            iw = rot_diag_inv((bf[i, B_QUAT], bf[i, B_QUAT + 1], bf[i, B_QUAT + 2],
                               bf[i, B_QUAT + 3]),
                              (bf[i, B_INV_I], bf[i, B_INV_I + 1], bf[i, B_INV_I + 2]))
            for c in range(9):
                bf[i, B_IW + c] = iw[c]


@njit(cache=True, _nrt=False)
def _wake_pass(bf, bi, n, keys, npairs, sf, si, cn, cp, cs, cid):
    """A moving body whose candidate pair with an asleep body touches wakes that island."""
    woke = 0
    for k in range(npairs):
        key = keys[k]
        a = key >> KEY_SHIFT
        b = key & KEY_MASK
        if si[a, SI_ACT] == 1:
            sleeper = a
        elif si[b, SI_ACT] == 1:
            sleeper = b
        else:
            continue
        if bi[sleeper, B_AWAKE] != 0:
            continue  # woken already by an earlier pair
        # the manifold's own margin: a speculative contact with a sleeper wakes it, so that no
        # contact ever acts on an asleep body
        margin = sf[a, SF_EXT] + sf[b, SF_EXT]
        cnt = collide_bodies(bf, bi, a, b, margin, cn, cp, cs, cid)
        if cnt > 0:
            woke += wake_island(bf, bi, n, sleeper)
    return woke


@njit(cache=True, _nrt=False)
def _integrate_velocities(bf, bi, bl, h, gx, gy, gz):
    for t in range(bl.shape[0]):
        i = bl[t]
        if bi[i, B_KIND] != KIND_DYNAMIC or bi[i, B_AWAKE] == 0 or bi[i, B_PARKED] != 0:
            continue
        im = bf[i, B_INV_MASS]
        gs = bf[i, B_GRAV_SCALE]
        ld = 1.0 / (1.0 + h * bf[i, B_LIN_DAMP])
        ad = 1.0 / (1.0 + h * bf[i, B_ANG_DAMP])
        tx = bf[i, B_TORQUE]
        ty = bf[i, B_TORQUE + 1]
        tz = bf[i, B_TORQUE + 2]
        bf[i, B_V] = (bf[i, B_V] + h * (gx * gs + im * bf[i, B_FORCE])) * ld
        bf[i, B_V + 1] = (bf[i, B_V + 1] + h * (gy * gs + im * bf[i, B_FORCE + 1])) * ld
        bf[i, B_V + 2] = (bf[i, B_V + 2] + h * (gz * gs + im * bf[i, B_FORCE + 2])) * ld
        if tx != 0.0 or ty != 0.0 or tz != 0.0:
            o = B_IW
            bf[i, B_W] += h * (bf[i, o] * tx + bf[i, o + 1] * ty + bf[i, o + 2] * tz)
            bf[i, B_W + 1] += h * (bf[i, o + 3] * tx + bf[i, o + 4] * ty + bf[i, o + 5] * tz)
            bf[i, B_W + 2] += h * (bf[i, o + 6] * tx + bf[i, o + 7] * ty + bf[i, o + 8] * tz)
        bf[i, B_W] *= ad
        bf[i, B_W + 1] *= ad
        bf[i, B_W + 2] *= ad


@njit(cache=True, _nrt=False)
def _integrate_positions(bf, bi, si, bl, h, gx, gy, gz, max_speed):
    max_rot = MAX_TURN / h
    max_rot2 = max_rot * max_rot
    max_speed2 = max_speed * max_speed
    hh = 0.5 * h * h
    for t in range(bl.shape[0]):
        i = bl[t]
        k = bi[i, B_KIND]
        if bi[i, B_PARKED] != 0:
            continue
        if k == KIND_DYNAMIC:
            if bi[i, B_AWAKE] == 0:
                continue
            vx = bf[i, B_V]
            vy = bf[i, B_V + 1]
            vz = bf[i, B_V + 2]
            sp2 = vx * vx + vy * vy + vz * vz
            if sp2 > max_speed2:  # the root only for the rare body over the cap
                f = max_speed / math.sqrt(sp2)
                vx *= f
                vy *= f
                vz *= f
                bf[i, B_V] = vx
                bf[i, B_V + 1] = vy
                bf[i, B_V + 2] = vz
                bf[i, B_NETS + NET_SPEED] += 1.0
            wx = bf[i, B_W]
            wy = bf[i, B_W + 1]
            wz = bf[i, B_W + 2]
            ws2 = wx * wx + wy * wy + wz * wz
            if ws2 > max_rot2:
                f = max_rot / math.sqrt(ws2)
                wx *= f
                wy *= f
                wz *= f
                bf[i, B_W] = wx
                bf[i, B_W + 1] = wy
                bf[i, B_W + 2] = wz
                bf[i, B_NETS + NET_SPIN] += 1.0
            if si[i, SI_TOUCH] == 0:
                im = bf[i, B_INV_MASS]
                gs = bf[i, B_GRAV_SCALE]
                bf[i, B_POS] += h * vx - hh * (gx * gs + im * bf[i, B_FORCE])
                bf[i, B_POS + 1] += h * vy - hh * (gy * gs + im * bf[i, B_FORCE + 1])
                bf[i, B_POS + 2] += h * vz - hh * (gz * gs + im * bf[i, B_FORCE + 2])
            else:
                bf[i, B_POS] += h * vx
                bf[i, B_POS + 1] += h * vy
                bf[i, B_POS + 2] += h * vz
        elif k == KIND_KINEMATIC:
            vx = bf[i, B_V]
            vy = bf[i, B_V + 1]
            vz = bf[i, B_V + 2]
            wx = bf[i, B_W]
            wy = bf[i, B_W + 1]
            wz = bf[i, B_W + 2]
            if vx == 0.0 and vy == 0.0 and vz == 0.0 and wx == 0.0 and wy == 0.0 and wz == 0.0:
                continue
            bf[i, B_POS] += h * vx
            bf[i, B_POS + 1] += h * vy
            bf[i, B_POS + 2] += h * vz
        else:
            continue
        if wx != 0.0 or wy != 0.0 or wz != 0.0:
            q = qintegrate((bf[i, B_QUAT], bf[i, B_QUAT + 1], bf[i, B_QUAT + 2],
                            bf[i, B_QUAT + 3]), (wx, wy, wz), h)
            bf[i, B_QUAT] = q[0]
            bf[i, B_QUAT + 1] = q[1]
            bf[i, B_QUAT + 2] = q[2]
            bf[i, B_QUAT + 3] = q[3]
            if IW_EVERY_SUBSTEP and k == KIND_DYNAMIC:
                # the world inverse inertia of the pose the next rows see (see the docstring)
                iw = rot_diag_inv(q, (bf[i, B_INV_I], bf[i, B_INV_I + 1], bf[i, B_INV_I + 2]))
                for c in range(9):
                    bf[i, B_IW + c] = iw[c]


@njit(cache=True, _nrt=False)
def _hold_to_nets(bf, bi, lb, jf, ji, nj, af, ai, na, mi, nm, max_speed, max_rot, reset):
    """The step's last word on every awake dynamic body (the nets; see the module docstring):
    a body whose pose or velocity is not finite goes back to where its step began, at rest, and
    its joints', anchors' and contacts' warm starts are dropped; any other is held to the speed
    cap and to a quarter turn a sub-step (the relax pass and restitution come after the sub-steps'
    caps). Each action is counted on the body (B_NETS). Returns the bodies put back. reset:
    (n,) zeros in; 1 for each body put back (a parked body's stays 0: it is not in lb)."""
    max_speed2 = max_speed * max_speed
    max_rot2 = max_rot * max_rot
    nreset = 0
    for t in range(lb.shape[0]):
        i = lb[t]
        if bi[i, B_KIND] != KIND_DYNAMIC or bi[i, B_PARKED] != 0 or bi[i, B_AWAKE] == 0:
            continue
        ok = True
        for c in range(13):  # B_POS, B_QUAT, B_V, B_W
            if not math.isfinite(bf[i, c]):
                ok = False
        if not ok:
            for c in range(3):
                p0 = bf[i, B_POS0 + c]
                bf[i, B_POS + c] = p0 if math.isfinite(p0) else 0.0
                bf[i, B_V + c] = 0.0
                bf[i, B_W + c] = 0.0
            qok = True
            for c in range(4):
                if not math.isfinite(bf[i, B_QUAT0 + c]):
                    qok = False
            for c in range(4):
                bf[i, B_QUAT + c] = bf[i, B_QUAT0 + c] if qok else (1.0 if c == 3 else 0.0)
            bf[i, B_NETS + NET_RESET] += 1.0
            reset[i] = 1
            nreset += 1
            continue
        vx = bf[i, B_V]
        vy = bf[i, B_V + 1]
        vz = bf[i, B_V + 2]
        sp2 = vx * vx + vy * vy + vz * vz
        if sp2 > max_speed2:
            f = max_speed / math.sqrt(sp2)
            bf[i, B_V] = vx * f
            bf[i, B_V + 1] = vy * f
            bf[i, B_V + 2] = vz * f
            bf[i, B_NETS + NET_SPEED] += 1.0
        wx = bf[i, B_W]
        wy = bf[i, B_W + 1]
        wz = bf[i, B_W + 2]
        ws2 = wx * wx + wy * wy + wz * wz
        if ws2 > max_rot2:
            f = max_rot / math.sqrt(ws2)
            bf[i, B_W] = wx * f
            bf[i, B_W + 1] = wy * f
            bf[i, B_W + 2] = wz * f
            bf[i, B_NETS + NET_SPIN] += 1.0
    if nreset > 0:
        for j in range(nj):
            a = ji[j, J_BODY_A]
            b = ji[j, J_BODY_B]
            if (a >= 0 and reset[a] != 0) or (b >= 0 and reset[b] != 0):
                for c in range(J_L_POINT, J_L_LOCK + 2):
                    jf[j, c] = 0.0
        for k in range(na):
            b = ai[k, A_BODY]
            if b >= 0 and reset[b] != 0:
                for c in range(3):
                    af[k, A_L_LIN + c] = 0.0
                    af[k, A_L_ANG + c] = 0.0
        for r in range(nm):
            if reset[mi[r, M_A]] != 0 or reset[mi[r, M_B]] != 0:
                mi[r, M_N] = 0
    return nreset


@njit(cache=True)
def _island_scratch(n, nj, na, nm):
    """The island lists' arrays (see build_islands): bl, bs, jl, js, al, as_, ml, ms, parent,
    island."""
    m = n + 2
    return (np.empty(max(n, 1), dtype=np.int64), np.empty(m, dtype=np.int64),
            np.empty(max(nj, 1), dtype=np.int64), np.empty(m, dtype=np.int64),
            np.empty(max(na, 1), dtype=np.int64), np.empty(m, dtype=np.int64),
            np.empty(max(nm, 1), dtype=np.int64), np.empty(m, dtype=np.int64),
            np.empty(max(n, 1), dtype=np.int64), np.empty(max(n, 1), dtype=np.int64))


@njit(cache=True)
def _deal_islands(nisl, threads, bs, js, ms):
    """Deal the islands, in their order, into at most ``threads`` runs of consecutive islands of
    about equal work (a joint counts as four bodies or manifolds: it is most of a figure's cost).
    Returns the runs' bounds in islands, (runs + 1,). A run's bodies, joints, anchors and
    manifolds are then one stretch of each island list, so a thread solves its run with one call
    of each kernel a sub-step rather than one per island."""
    runs = min(threads, nisl)
    out = np.empty(max(runs, 1) + 1, dtype=np.int64)
    out[0] = 0
    if runs <= 1:
        out[1] = nisl
        return out[:2]
    total = 4 * js[nisl] + bs[nisl] + ms[nisl]
    k = 0
    for r in range(1, runs):
        goal = total * r // runs
        while k < nisl and 4 * js[k] + bs[k] + ms[k] < goal:
            k += 1
        out[r] = max(k, out[r - 1])
    out[runs] = nisl
    return out


@njit(cache=True, _nrt=False)
def _solve_run(bf, bi, si, jf, ji, af, ai, mf, mi, jg, cg, b_, j_, js_, a_, m_, nsub, h, gx, gy,
               gz, speed, sweeps, max_speed):
    """The sub-steps of one run: its bodies b_, joint slots j_ (island k's j_[js_[k]:js_[k+1]]),
    anchor slots a_, manifolds m_."""
    inv_h = 1.0 / h
    for s in range(nsub):
        _integrate_velocities(bf, bi, b_, h, gx, gy, gz)
        warm_start_joints(bf, bi, jf, ji, j_, jg, s > 0)
        warm_start_anchors(bf, bi, af, ai, a_)
        warm_start_contacts(bf, mf, mi, m_, cg, s > 0)
        for k in range(js_.shape[0] - 1):
            if js_[k + 1] > js_[k]:
                jk = j_[js_[k]:js_[k + 1]]
                err = solve_joints(bf, bi, jf, ji, jk, h, True, jg, s > 0)
                solve_joints_converged(bf, bi, jf, ji, jk, jg, err)
        solve_anchors(bf, bi, af, ai, a_, h, True)
        solve_contacts(bf, mf, mi, m_, inv_h, True, speed, sweeps, cg, s > 0)
        _integrate_positions(bf, bi, si, b_, h, gx, gy, gz, max_speed)
        solve_joints(bf, bi, jf, ji, j_, h, False, jg, False)
        solve_anchors(bf, bi, af, ai, a_, h, False)
        solve_contacts(bf, mf, mi, m_, inv_h, False, speed, sweeps, cg, False)


@njit(cache=True, parallel=True)
def _solve_runs(bf, bi, si, jf, ji, af, ai, mf, mi, jg, cg, bl, bs, jl, js, al, as_, ml, ms, runs,
                nsub, h, gx, gy, gz, speed, sweeps, max_speed):
    """The runs (see _deal_islands), each taken by the next free thread (the caller sets
    numba's parallel chunk size to 1: set inside, it could not be cached). Islands share no
    dynamic body, so neither the runs' order nor which islands share a run changes a bit; see
    _kernels_islands."""
    for r in prange(runs.shape[0] - 1):
        k0 = runs[r]
        k1 = runs[r + 1]
        _solve_run(bf, bi, si, jf, ji, af, ai, mf, mi, jg, cg, bl[bs[k0]:bs[k1]],
                   jl[js[k0]:js[k1]], js[k0:k1 + 1] - js[k0],
                   al[as_[k0]:as_[k1]], ml[ms[k0]:ms[k1]], nsub, h, gx, gy, gz, speed, sweeps,
                   max_speed)


@njit(cache=True)
def step_world(bf, bi, jf, ji, af, ai, mf0, mi0, mf1, mi1, sf, si, keys, ign,
               cn, cp, cs, cid, fp, ip, lb, lj, la):
    """Advance the world by fp[FP_DT] seconds. Returns the number of manifolds now in (mf1, mi1)
    (the caller swaps the two manifold buffers afterwards).

    lb, lj, la (int64, ascending): the body slots not parked (free ones included), the joint
    slots in use on no parked body, the anchor slots in use on no parked body (``World``'s
    ``_live_lists``). Every pass walks these instead of 0..n, 0..nj, 0..na: the rows they
    leave out are the ones every pass skipped, so a parked row costs a step nothing and the
    rest see the same operations in the same order (the same bits)."""
    n = ip[IP_N]
    nj = ip[IP_NJ]
    na = ip[IP_NA]
    nm0 = ip[IP_NM0]
    nsub = ip[IP_SUBSTEPS]
    n_ign = ip[IP_N_IGNORE]
    dt = fp[FP_DT]
    h = dt / nsub
    gx = fp[FP_GX]
    gy = fp[FP_GY]
    gz = fp[FP_GZ]
    gmag = math.sqrt(gx * gx + gy * gy + gz * gz)
    margin = fp[FP_MARGIN]
    ip[IP_OUT_WOKEN] = 0
    ip[IP_OUT_SLEPT] = 0

    # kinematic targets -> the velocities that reach them in dt
    for t in range(lb.shape[0]):
        i = lb[t]
        if bi[i, B_KIND] == KIND_KINEMATIC and bi[i, B_KIN_MOVE] != 0 and bi[i, B_PARKED] == 0:
            for c in range(3):
                bf[i, B_V + c] = (bf[i, B_KIN_POS + c] - bf[i, B_POS + c]) / dt
            w = qangvel((bf[i, B_QUAT], bf[i, B_QUAT + 1], bf[i, B_QUAT + 2], bf[i, B_QUAT + 3]),
                        (bf[i, B_KIN_QUAT], bf[i, B_KIN_QUAT + 1], bf[i, B_KIN_QUAT + 2],
                         bf[i, B_KIN_QUAT + 3]), dt)
            bf[i, B_W] = w[0]
            bf[i, B_W + 1] = w[1]
            bf[i, B_W + 2] = w[2]
    woke = wake_through_joints(bf, bi, n, ji, lj)

    moving = _activity(bf, bi, lb, si)
    nm = 0
    if moving > 0:
        axis = compute_bounds(bf, bi, lb, dt, gmag, margin, sf, fp[FP_MAX_LINEAR_SPEED],
                              MAX_TURN * nsub / dt, fp[FP_REACH_SPIN])
        sort_state = ip[IP_SORT:IP_SORT + 2]
        cap = keys.shape[0]
        npairs = find_pairs(bf, bi, n, lb, sf, si, axis, keys, cap, ign, n_ign, margin,
                              sort_state)
        ip[IP_OUT_PAIRS] = npairs
        w2 = _wake_pass(bf, bi, n, keys, min(npairs, cap), sf, si, cn, cp, cs, cid)
        while w2 > 0:  # woken bodies may touch further sleepers: repeat until none wakes
            woke += w2
            moving = _activity(bf, bi, lb, si)
            npairs = find_pairs(bf, bi, n, lb, sf, si, axis, keys, cap, ign, n_ign, margin,
                              sort_state)
            ip[IP_OUT_PAIRS] = npairs
            w2 = _wake_pass(bf, bi, n, keys, min(npairs, cap), sf, si, cn, cp, cs, cid)
        _start_poses(bf, bi, lb)
        for t in range(lb.shape[0]):
            si[lb[t], SI_TOUCH] = 0
        nm = build_manifolds(bf, bi, keys, min(npairs, cap), sf, si, mf0, mi0, nm0, mf1, mi1,
                             mf1.shape[0], cn, cp, cs, cid, ip[IP_STEP_FLAGS])
        ip[IP_OUT_MANIFOLDS] = nm
        nm = min(nm, mf1.shape[0])
    else:
        for t in range(lb.shape[0]):
            si[lb[t], SI_TOUCH] = 0
        ip[IP_OUT_PAIRS] = 0
        ip[IP_OUT_MANIFOLDS] = 0
        _start_poses(bf, bi, lb)
    ip[IP_OUT_WOKEN] = woke

    prepare_joints(bf, bi, jf, ji, lj, h, dt)
    prepare_anchors(bf, bi, af, ai, la, h)
    prepare_contacts(bf, mf1, mi1, nm, h, fp[FP_CONTACT_HZ], fp[FP_CONTACT_ZETA])
    speed = fp[FP_CONTACT_SPEED]
    sweeps = ip[IP_SWEEPS]
    max_speed = fp[FP_MAX_LINEAR_SPEED]
    jg = np.empty((nj, G_COUNT))  # the joints' pose-derived scratch (see solve_joints)
    cg = np.empty((max(nm, 1), CG_COUNT))  # the contacts' (see solve_contacts)
    isl = _island_scratch(n, nj, na, nm)
    nisl = build_islands(bi, n, lb, si, ji, lj, ai, la, mi1, nm, isl[8], isl[9],
                         (isl[0], isl[1], isl[2], isl[3], isl[4], isl[5], isl[6], isl[7]))
    ip[IP_OUT_ISLANDS] = nisl
    threads = max(1, ip[IP_THREADS])
    runs = _deal_islands(nisl, threads if threads == 1 else RUNS_PER_THREAD * threads, isl[1],
                         isl[3], isl[7])
    if runs.shape[0] > 2:
        _solve_runs(bf, bi, si, jf, ji, af, ai, mf1, mi1, jg, cg, isl[0], isl[1], isl[2], isl[3],
                    isl[4], isl[5], isl[6], isl[7], runs, nsub, h, gx, gy, gz, speed, sweeps,
                    max_speed)
    else:  # one run (one thread, or one island): no parallel launch, no thread left spinning
        _solve_run(bf, bi, si, jf, ji, af, ai, mf1, mi1, jg, cg, isl[0][:isl[1][nisl]],
                   isl[2][:isl[3][nisl]], isl[3][:nisl + 1],
                   isl[4][:isl[5][nisl]],
                   isl[6][:isl[7][nisl]], nsub, h, gx, gy, gz, speed, sweeps, max_speed)
    apply_restitution(bf, mf1, mi1, nm, fp[FP_RESTITUTION_THRESHOLD])
    reset = np.zeros(max(n, 1), dtype=np.int64)
    ip[IP_OUT_RESET] = _hold_to_nets(bf, bi, lb, jf, ji, nj, af, ai, na, mi1, nm, max_speed,
                                     MAX_TURN / h, reset)
    # joints still open past project_gap after a hard blow or landing: their bodies moved
    # together, and the contacts that drives deeper pushed back (positions only;
    # _kernels_joints.project_joints, issue 18); the planes and scratch only in a step where a
    # joint is open (joints_open), so a calm world pays one pass over its joints
    sweeps_p = ip[IP_PROJECT_SWEEPS]
    gap_p = fp[FP_PROJECT_GAP]
    if sweeps_p > 0 and joints_open(bf, bi, jf, ji, lj, gap_p):
        planes = ground_planes(bi, n)
        project_joints(bf, bi, si, jf, ji, lj, mf1, mi1, nm, np.empty((max(nm, 1), 4)), planes,
                       np.empty((n, max(planes.shape[0], 1))), sweeps_p, gap_p,
                       ip[IP_STEP_FLAGS])

    # (a parked body is not in lb: World.move_kinematic lands a parked kinematic body on its
    # target at once, and World.unpark_body clears what force was put on it while parked)
    for t in range(lb.shape[0]):
        i = lb[t]
        k = bi[i, B_KIND]
        if k == KIND_KINEMATIC and bi[i, B_KIN_MOVE] != 0:
            for c in range(3):
                bf[i, B_POS + c] = bf[i, B_KIN_POS + c]
                bf[i, B_V + c] = 0.0
                bf[i, B_W + c] = 0.0
            for c in range(4):
                bf[i, B_QUAT + c] = bf[i, B_KIN_QUAT + c]
            bi[i, B_KIN_MOVE] = 0
        elif k == KIND_DYNAMIC:
            for c in range(3):
                bf[i, B_FORCE + c] = 0.0
                bf[i, B_TORQUE + c] = 0.0
    ip[IP_OUT_SLEPT] = update_sleep(bf, bi, lb, mi1, nm, ji, lj, sf, si, dt,
                                    fp[FP_SLEEP_THRESHOLD], fp[FP_TIME_TO_SLEEP], ip[IP_SLEEP])
    return nm
