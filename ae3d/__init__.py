"""ae3d: active ragdolls for Python game scripts.

Figures whose animation is played by their muscles (joint motors within torque budgets):
hit one and it gives where it was hit and comes back; hit it harder than it can take and it falls,
protects itself, lands, lies and gets up.

Packages: ``engine`` (the frame loop), ``physics`` (soft-step rigid bodies, joints, ragdolls),
``figure`` (glTF rigs, clips, skinning), ``motion`` (the active ragdoll, dressing and fitting),
``crowd`` (pose banks for hordes), ``render``. Shared: ``human`` (humanoid constants), ``_math``
(vector and quaternion helpers), ``_cache`` (the guard on numba's cache).
Units are SI (m, kg, s, N, N·m, N·s) and radians; Y is up; quaternions are (x, y, z, w).
"""

__version__ = "0.1.0"

import os as _os  # noqa: E402

# Threads between parallel regions (issue 17, the strike scene's frame): numba runs the
# physics' parallel step on GNU OpenMP here, whose threads spin after a region for the next
# one (by default some 300,000 pause loops, milliseconds). A frame steps the physics once, so
# the spin was waste: 5 to 6 of the strike scene's CPU-ms a frame (its engine frame 7.8 ->
# 2.2 CPU-ms passive, at load 10), and it took a core from the renderer's rasterizer threads
# on a two-core machine. Passive, they sleep until the next step wakes them (microseconds a
# step). Read once, when OpenMP loads: a program's own setting wins.
_os.environ.setdefault("OMP_WAIT_POLICY", "PASSIVE")

from ae3d._cache import refresh_kernel_cache as _refresh_kernel_cache  # noqa: E402

# numba's cached kernels, wiped when any kernel source under ae3d/ changed (ae3d/_cache.py);
# once, before any package's kernels load
_refresh_kernel_cache()
