"""The actions example (examples/actions.py, #825) runs its script to the end without rendering:
the lier turns, lies down on its bedroll and gets up; the eater sits, eats twice and stands up;
the drinker sits, drinks twice and stands up; the struck one, struck in the back as it sits, is
knocked off its seat, lands and gets up by itself; each ends standing in the mode it began in."""

from __future__ import annotations

import os
import sys

sys.path.insert(0, os.path.join(os.path.dirname(__file__), "..", "examples"))

import actions as A  # noqa: E402

from ae3d import engine, motion  # noqa: E402


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
    print(seen)
    assert "lying" in seen["lier"]
    assert {"seated", "holding", "eating"} <= seen["eater"]
    assert {"seated", "holding", "eating"} <= seen["drinker"]
    assert {"seated", "landed", "rising"} <= seen["struck"]
