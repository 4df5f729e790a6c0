"""Anchors: bodies held to the world (position and orientation springs with force and torque caps,
upright-only, heading hold). OWNED BY THE JOINTS WORK (issue 3).

Contract with the step loop (``_kernels_step.step_world``), called for slots 0..na-1 in order:
    prepare_anchors(bf, bi, af, ai, na, h)             once per step, before the sub-steps
    warm_start_anchors(bf, bi, af, ai, na)             each sub-step
    solve_anchors(bf, bi, af, ai, na, h, use_bias)     each sub-step, bias pass then relax pass
"""

from numba import njit


@njit(cache=True)
def prepare_anchors(bf, bi, af, ai, na, h):  # pragma: no cover - stub until issue 3
    return


@njit(cache=True)
def warm_start_anchors(bf, bi, af, ai, na):  # pragma: no cover - stub until issue 3
    return


@njit(cache=True)
def solve_anchors(bf, bi, af, ai, na, h, use_bias):  # pragma: no cover - stub until issue 3
    return
