"""Joint constraints of the soft-step solver (ball with twist and elliptical swing cone, hinge),
with friction, springs and torque-capped motors. OWNED BY THE JOINTS WORK (issue 3).

Contract with the step loop (``_kernels_step.step_world``), called for slots 0..nj-1 in order:
    prepare_joints(bf, bi, jf, ji, nj, h)              once per step, before the sub-steps
    warm_start_joints(bf, bi, jf, ji, nj)              each sub-step
    solve_joints(bf, bi, jf, ji, nj, h, use_bias)      each sub-step, bias pass then relax pass
They read the current pose from bf[:, B_POS/B_QUAT] and write velocities bf[:, B_V/B_W].
"""

from numba import njit


@njit(cache=True)
def prepare_joints(bf, bi, jf, ji, nj, h):  # pragma: no cover - stub until issue 3
    return


@njit(cache=True)
def warm_start_joints(bf, bi, jf, ji, nj):  # pragma: no cover - stub until issue 3
    return


@njit(cache=True)
def solve_joints(bf, bi, jf, ji, nj, h, use_bias):  # pragma: no cover - stub until issue 3
    return
