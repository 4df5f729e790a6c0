"""The physics kernels' math helpers: a re-export of ``ae3d._math`` (their one home).

The physics kernels import ``from ._math import qmul, ...``; the helpers live, once, in
``ae3d/_math.py`` and inline into those kernels as before.
"""

from ae3d._math import (  # noqa: F401
    add,
    cross,
    dot,
    length,
    m9,
    madd,
    make_soft,
    mat9_quat,
    mvmul,
    normalize,
    perp_basis,
    q4,
    qangvel,
    qconj,
    qintegrate,
    qinvrot,
    qmat,
    qmul,
    qnormalize,
    qrot,
    rot_diag_inv,
    scale,
    solve3,
    sub,
    v3,
)
