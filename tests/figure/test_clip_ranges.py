"""Every humanoid clip asks the fitted ragdoll only for poses its body can take (spec, motion.md:
"a key's limbs must be ones its body can take").

For each humanoid asset, with and without feet (``physics.set_ankles``), the ragdoll is fitted
to the figure (``physics.ragdoll_for_rig``); every clip is played from the rest pose and sampled
every 1/60 s over its whole length; at each sample the bodies are put where the rig's pose puts
them (``physics.ragdoll_to_rig``) and each joint is measured past its limits
(``physics.ragdoll_limit_errors``: twist or hinge range, and the swing cone).

Limit: no joint past its limits by more than 0.5° at any sample. Measured before the clips were
changed: the box man's and the Mixamo man's Walk 5.2° past the hips' cone (25° of extension
asked, 20° allowed), Run 23.8°, the zombie's Walk 0.37°; after: 0.00° everywhere.
"""

from __future__ import annotations

import math

import numpy as np
import pytest

from ae3d import engine, figure, human, physics

HUMANOIDS = ("boxman.glb", "mixamo_man.glb", "zombie.glb")
STEP = 1.0 / 60.0                 # s between samples
LIMIT = math.radians(0.5)         # rad: the most any joint target may be past its limits


def clip_excess(path: str, feet: bool) -> dict[str, tuple[float, str, float]]:
    """Per clip of the figure at ``path``: (the worst excess past any joint's limits (rad), the
    bone whose joint it is, the clip time (s)), sampled every ``STEP`` from the rest pose, on a
    ragdoll fitted to the figure (with ankles when ``feet``)."""
    e = engine.Engine()
    try:
        physics.set_ankles(e, feet)
        f = figure.figure_of(e, figure.figure(e, "F", path))
        r = physics.ragdoll_for_rig(e, "R", f)
        out = {}
        for clip in figure.clips(f):
            figure.reset_pose(f)
            figure.play(f, clip, 1.0, False)
            duration = figure.clip_duration(f, clip)
            worst = (0.0, "", 0.0)
            n = int(math.floor(duration / STEP + 1e-9))
            times = [k * STEP for k in range(n + 1)]
            if duration - times[-1] > 1e-9:
                times.append(duration)
            for t in times:
                figure.set_clip_time(f, t)
                physics.ragdoll_to_rig(r)
                err = physics.ragdoll_limit_errors(r)[:, :2].max(axis=1)
                b = int(np.argmax(err))
                if err[b] > worst[0]:
                    worst = (float(err[b]), human.BONE_NAMES[b], t)
            out[clip] = worst
        return out
    finally:
        e.close()


@pytest.mark.parametrize("feet", (False, True), ids=("no_feet", "feet"))
@pytest.mark.parametrize("name", HUMANOIDS)
def test_every_clip_within_the_joints_limits(asset, name, feet):
    excess = clip_excess(asset(name), feet)
    assert excess, f"{name} has no clips"
    for clip, (rad, bone, t) in excess.items():
        print(f"\n{name} {'with' if feet else 'without'} feet, {clip}: worst "
              f"{math.degrees(rad):.2f}° past the limits" + (f" ({bone}, t = {t:.3f} s)"
                                                             if bone else ""))
    bad = {c: (round(math.degrees(v[0]), 2), v[1], round(v[2], 3))
           for c, v in excess.items() if v[0] > LIMIT}
    assert not bad, f"{name}: clips ask joints past their limits by over 0.5° (deg, bone, s): {bad}"
