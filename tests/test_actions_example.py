"""The actions example (examples/actions.py, #825) runs its script to the end without rendering:
the lier turns, lies down on its bedroll and gets up; the eater sits, eats twice and stands up;
the drinker sits, drinks twice and stands up; the struck one, struck in the back as it sits
holding a bowl, is knocked off its seat, drops the bowl (it falls to the ground), lands and gets
up by itself; each ends standing in the mode it began in."""

from __future__ import annotations

import os
import sys

sys.path.insert(0, os.path.join(os.path.dirname(__file__), "..", "examples"))

import actions as A  # noqa: E402
import numpy as np  # noqa: E402

from ae3d import engine, motion, physics  # noqa: E402


def test_the_actions_example_plays_its_script():
    seen = {name: set() for name in ("lier", "eater", "drinker", "struck")}
    with engine.Engine() as e:
        cast = A.build(e)
        began = {name: motion.mode(b) for name, (b, _) in cast.items()}
        for _ in range(int(12.0 * 60)):
            e.run(frames=1)
            for name, (b, _) in cast.items():
                for what, asked in (("lying", motion.lying_down), ("seated", motion.seated),
                                    ("holding", motion.holding), ("eating", motion.eating),
                                    ("landed", motion.landed), ("rising", motion.getting_up)):
                    if asked(b):
                        seen[name].add(what)
        for name, (b, _) in cast.items():
            p, _ = motion.drawn_pose(b)
            assert motion.mode(b) == began[name], name
            assert not motion.acting(b) and p[0][1] > 0.9, (name, p[0])
        bowl = cast["struck"][1]["item"]
        x, y, z, w = physics.rotation(e, bowl)
        # its lowest corner: the half extents along the world's up, from its rotation's second row
        up_row = (2.0 * (x * y + w * z), 1.0 - 2.0 * (x * x + z * z), 2.0 * (y * z - w * x))
        low = float(physics.position(e, bowl)[1]) - sum(
            abs(r) * h for r, h in zip(up_row, A.BOWL, strict=True))
        dropped = (physics.kind(e, bowl), low, float(np.linalg.norm(physics.velocity(e, bowl))))
    print(seen)
    assert "lying" in seen["lier"]
    assert {"seated", "holding", "eating"} <= seen["eater"]
    assert {"seated", "holding", "eating"} <= seen["drinker"]
    assert {"seated", "holding", "landed", "rising"} <= seen["struck"]
    # the bowl it held when struck: dropped (made dynamic), at rest on the ground (its lowest
    # corner on it)
    assert dropped[0] == "dynamic"
    assert abs(dropped[1]) < 0.01 and dropped[2] < 0.01, dropped
