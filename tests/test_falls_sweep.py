"""The protective fall's robustness sweep (issue 12): 200 falls on each of three rigs of other
proportions and bind frames, every blow its own strength (300 to 600 N·s), direction (a
golden-angle sequence over the ground) and height (chest, belly, pelvis in turn), the figures
POWERED and protective on one engine. Held for every figure:

- no body faster than the struck body's own J/m plus 10 m/s;
- none faster than 30 m/s from 0.2 s after the blow;
- no capsule into the ground by more than 3 cm;
- no NaN.

Rigs: the box man (the reference ragdoll, and ``boxman.glb`` dressed), the Mixamo man
(``mixamo_man.glb``, 1.95 m, bones along +y, a 0.01 container turned about x) and a rig made here
facing +X (1.70 m, long arms, broad; ``falls.make_plus_x_rig``).

Measured on phys's solver (issue 18, merged): nothing blows up; the +X rig holds every limit
(deepest 1.2 cm, fastest 14.0 m/s after 0.2 s); the box man and the Mixamo man each have one
capsule just past 3 cm into the ground (3.3 and 3.0 cm), strict xfails until the contacts took
their effective masses from the current pose (session 5): now every rig within 3 cm. Before it:
the box man's and the +X rig's worlds blow up 0.2 s
after the blows, every figure in them at once (bodies at 1e100 m/s and more); one 556 N·s blow at
the chest, 53 degrees from ahead, does it, and main's code without the protective fall does it
too. A single protected box man struck so blows up at 0.13 s on its reaching arms, its twin does
not. The Mixamo man holds every limit but one: a capsule 3.4 cm into the ground.
"""

from __future__ import annotations

import pytest
from motion import falls as F


@pytest.mark.parametrize("rig", [
    "box", "box_man", "mixamo", "plus_x",
])
def test_two_hundred_falls(rig, tmp_path):
    # "box" is the reference ragdoll (the box man's bodies, no rig); "box_man" the box man's
    # glTF dressed by motion.on_figure on its Idle, as the issue names it (session 12's audit:
    # deepest 1.2 cm, fastest 14.5 m/s after 0.2 s, none past a limit)
    path = {"box": None, "box_man": "boxman.glb", "mixamo": "mixamo_man.glb",
            "plus_x": None if rig != "plus_x" else F.make_plus_x_rig(str(tmp_path))}[rig]
    s = F.sweep(rig, n=200, seconds=3.0, path=path)
    print(f"{rig}: fastest past J/m + 10: {s.worst_over:+.1f} m/s; fastest after 0.2 s "
          f"{s.worst_late:.1f} m/s; deepest {100 * s.worst_sink:.1f} cm; NaN {s.nan}; blown up at "
          f"{s.blown_at} s; fell {s.fell}, lying {s.lying} of {s.n}; past a limit {len(s.bad)}")
    assert not s.nan
    assert s.worst_over <= 0.0
    assert s.worst_late <= 30.0
    assert s.worst_sink <= 0.03
    assert not s.bad
