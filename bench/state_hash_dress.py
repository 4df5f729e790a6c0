"""State hashes of scenes that exercise dressing, fitting and pose banks (issue 11: same bits).

Run from the repository root: ``python bench/state_hash_dress.py``. Prints one sha256 per scene
over every float the scene ends with (the physics world's body table, the rigs' local poses and
world matrices, the pose banks). A restructuring must leave every line unchanged.
"""

from __future__ import annotations

import hashlib
import math
import os
import sys

import numpy as np

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
sys.path.insert(0, ROOT)
sys.path.insert(0, os.path.join(ROOT, "tests"))

from ae3d import engine, figure, human, motion, physics, render  # noqa: E402

ASSETS = os.path.join(ROOT, "assets")


def _h(*arrays) -> str:
    h = hashlib.sha256()
    for a in arrays:
        a = np.ascontiguousarray(np.asarray(a))
        h.update(str(a.dtype).encode() + str(a.shape).encode())
        h.update(a.tobytes())
    return h.hexdigest()[:16]


def _rig_arrays(f):
    return (f.rig.translation, f.rig.rotation, f.rig.scale, f.rig.world)


def powered_hit(path: str) -> str:
    """A figure on its Idle (if any), active ragdoll, POWERED, hit at the chest, 2 s."""
    e = engine.Engine()
    physics.ground(e)
    z = figure.figure(e, "F", os.path.join(ASSETS, path))
    f = figure.figure_of(e, z)
    figure.place(f, (0.5, 0.0, -1.0), 0.5 * math.pi)
    if "Idle" in figure.clips(f):
        figure.play(f, "Idle", 1.0, True)
    body = motion.on_figure(e, z)
    motion.set_mode(body, motion.POWERED)
    e.run(seconds=0.25)
    p, _ = physics.ragdoll_pose(body.ragdoll)
    motion.hit(body, human.BONE_SPINE_03, p[human.BONE_SPINE_03], (0.0, 0.0, -60.0))
    e.run(seconds=1.75)
    out = _h(e.physics.bf, *_rig_arrays(f))
    e.close()
    return out


def dressing_setups() -> dict[str, str]:
    """tests/figure/test_dressing.py's set-ups: fitted and reference ragdolls on both namings,
    the two poses both ways, fit=False."""
    out = {}
    for name in ("boxman.glb", "mixamo_man.glb"):
        for mode in ("fitted", "reference", "unfitted"):
            e = engine.Engine()
            f = figure.figure_of(e, figure.figure(e, "F", os.path.join(ASSETS, name)))
            figure.place(f, (1.0, 0.0, -2.0), 0.5 * math.pi)
            if mode == "fitted":
                r = physics.ragdoll_for_rig(e, "R", f)
            elif mode == "unfitted":
                r = physics.ragdoll_for_rig(e, "R", f, fit=False)
            else:
                r = physics.ragdoll(e, "R", (0.0, 0.0, 0.0))
                physics.ragdoll_dress(r, f)
            d = physics.ragdoll_dressing(r)
            parts = [e.physics.bf, e.physics.jf, d.off_p, d.off_q, d.rig_bones, d.body_of]
            physics.ragdoll_to_rig(r)
            parts.append(e.physics.bf)
            parts.append(physics.ragdoll_rig_targets(r))
            # a pose: the clip's first frame if any, then bodies drawn back into the rig
            clips = figure.clips(f)
            if clips:
                figure.play(f, clips[0], 1.0, True)
                figure.set_clip_time(f, 0.3)
            parts.append(physics.ragdoll_rig_targets(r))
            physics.ragdoll_to_rig(r)
            physics.ragdoll_to_rig_pose(r)
            parts.extend(_rig_arrays(f))
            physics.ragdoll_to_rig_pose(r, positions=False)
            parts.extend(_rig_arrays(f))
            parts.extend(physics.ragdoll_animation_pose(r))
            physics.ragdoll_restore_rig(r)
            parts.extend(_rig_arrays(f))
            parts.extend(physics.ragdoll_rig_bodies(r))
            out[f"{name}:{mode}"] = _h(*parts)
            e.close()
    return out


def banks() -> dict[str, str]:
    """Horde pose banks: each asset's clips sampled and baked in place, and the procedural one."""
    from ae3d.render import _demo

    out = {}
    for name in ("boxman.glb", "mixamo_man.glb", "zombie.glb"):
        e = engine.Engine()
        f = figure.figure_of(e, figure.figure(e, "F", os.path.join(ASSETS, name)))
        for clip in figure.clips(f):
            out[f"{name}:{clip}"] = _h(render.bank_from_clip(f, clip, 24))
        e.close()
    m = _demo.mesh()
    out["procedural"] = _h(_demo.bank(m, frames=24))
    return out


def main() -> None:
    for path in ("boxman.glb", "mixamo_man.glb"):
        print(f"powered_hit {path}: {powered_hit(path)}")
    for k, v in dressing_setups().items():
        print(f"dressing {k}: {v}")
    for k, v in banks().items():
        print(f"bank {k}: {v}")


if __name__ == "__main__":
    main()
