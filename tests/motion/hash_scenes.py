"""Same bits: a hash of the whole state after each of the motion's scenes (issue 11).

Hashes the physics world's tables and, per figure, what the motion calls answer (mode, falling,
lean, every bone's strength, the animation's pose, the pose drawn) and a dressed figure's rig
(local pose and world matrices). It reads the motion through its public calls, so the same script
hashes the state before and after motion's tables are rearranged.

    PYTHONPATH=. .venv/bin/python tests/motion/hash_scenes.py [scene ...]

Scenes: test_motion (tests/test_motion.py's row), showcase (examples/motion_showcase.py's row run
6 s headless, two rounds of blows), cost (tests/test_motion_cost.py's figures, bare and dressed, 1
and 2 threads), stepped (a figure a program steps itself: motion_step and pose, modes and blows),
pile (tests/physics/test_determinism.py's pile). Not a test: a tool for restructurings.

Run every scene in one process, in this order, before and after: a ragdoll's id (in its joints'
owner column) counts up over the process, so a scene run alone hashes differently.
Issue 11's restructuring (tables, one file a behaviour, the pose phase in one call) left all
five as they were: hashes_before.txt.
"""

from __future__ import annotations

import hashlib
import math
import os
import sys

import numpy as np

HERE = os.path.dirname(os.path.abspath(__file__))
sys.path.insert(0, os.path.join(HERE, ".."))
sys.path.insert(0, os.path.join(HERE, "..", ".."))
sys.path.insert(0, os.path.join(HERE, "..", "..", "examples"))

from ae3d import engine, human, motion, physics  # noqa: E402


def _world(h, w) -> None:
    n = w.n
    for name in ("bf", "bi", "jf", "ji", "af", "ai"):
        a = getattr(w, name, None)
        if a is not None:
            h.update(name.encode())
            h.update(np.ascontiguousarray(a).tobytes())
    h.update(np.ascontiguousarray(w.mf[: w.nm]).tobytes())
    h.update(str(n).encode())


def _figure(h, b) -> None:
    h.update(str(motion.mode(b)).encode())
    h.update(str(motion.falling(b)).encode())
    h.update(np.float64(motion.lean(b)).tobytes())
    h.update(np.float64(motion.strength(b)).tobytes())
    for bone in range(b.ragdoll.bones):
        h.update(np.float64(motion.strength(b, bone)).tobytes())
    t, (p, q) = motion.animation(b)
    for a in (t, p, q):
        h.update(np.ascontiguousarray(a).tobytes())
    p, q = motion.drawn_pose(b)
    h.update(np.ascontiguousarray(p).tobytes())
    h.update(np.ascontiguousarray(q).tobytes())
    if b.rig is not None:
        for a in (b.rig.translation, b.rig.rotation, b.rig.scale, b.rig.world):
            h.update(np.ascontiguousarray(a).tobytes())


def digest(e, bodies) -> str:
    h = hashlib.sha256()
    _world(h, e.physics)
    for b in bodies:
        _figure(h, b)
    return h.hexdigest()


def scene_test_motion() -> str:
    import test_motion
    e, figs, _, _ = test_motion._scene()
    try:
        return digest(e, [fg[1] for fg in figs.values()])
    finally:
        e.close()


def scene_showcase() -> str:
    import motion_showcase
    with engine.Engine() as e:
        row = motion_showcase.build(e)
        for _ in range(360):
            e.frame(1.0 / 60.0)
        return digest(e, list(row.values()))


def scene_cost() -> str:
    import test_motion_cost
    out = []
    for dressed in (False, True):
        for threads in (1, 2):
            e, figs, _ = test_motion_cost.run_figures(6, steps=60, settle=30, dressed=dressed,
                                                      threads=threads)
            try:
                out.append(digest(e, [b for _, b in figs]))
            finally:
                e.close()
    return hashlib.sha256("".join(out).encode()).hexdigest()


def scene_stepped() -> str:
    """A program stepping its figure itself (motion_step, pose), through every hand-over."""
    with engine.Engine() as e:
        physics.ground(e)
        r = physics.ragdoll(e, "solo", (0.0, 0.0, 0.0), 8.0, 8.0, 1.0)
        b = motion.active_ragdoll(r)
        plan = {10: motion.POWERED, 40: "hit", 80: motion.ANIMATED, 110: motion.LIMP,
                150: motion.POWERED, 200: motion.ANIMATED}
        for k in range(240):
            if k in plan:
                v = plan[k]
                if v == "hit":
                    p = physics.ragdoll_pose(r)[0][human.BONE_SPINE_03]
                    motion.hit(b, human.BONE_SPINE_03, p, (0.0, 0.0, -90.0))
                else:
                    motion.set_mode(b, v)
            t = motion.animation(b)[0]
            t[human.BONE_SPINE_03] = (math.sin(0.05 * k) * 0.1, 0.0, 0.0, 1.0)
            motion.set_animation(b, t)
            motion.motion_step(e)
            motion.pose(b, e)
        return digest(e, [b])


def scene_pile() -> str:
    from physics.test_determinism import _run
    return _run()[0]


SCENES = {"test_motion": scene_test_motion, "showcase": scene_showcase, "cost": scene_cost,
          "stepped": scene_stepped, "pile": scene_pile}


def main() -> None:
    names = sys.argv[1:] or list(SCENES)
    for name in names:
        print(f"{name:12s} {SCENES[name]()}", flush=True)


if __name__ == "__main__":
    main()
