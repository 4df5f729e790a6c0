"""ae3d.crowd: the horde's side of things (spec: "A horde can't be active ragdolls").

A horde's zombies are instances (a position, a heading and a phase each, no bodies) drawn from a
pose bank: one loop of a clip sampled into frames x bones world matrices and struck in place,
so that an instance's position is where its hips stand.

```python
from ae3d import crowd, figure, render
bank = crowd.posebank_bake_in_place(crowd.posebank_sample(f, "Walk", 30))   # f: a Figure
mesh = render.figure_mesh(f)
mats = crowd.posebank_skinning(bank, mesh.joint_bones, mesh.inverse_bind)   # (30, joints, 4, 4)
h = render.horde_new(e, mesh, mats, 1000)
```

The horde's step, every frame, passing by the zombies handed over to the pool:

```python
crowd.crowd_step_out(pos, vel, yaw, phase, handover.outs(pool), 0, count, delta,
                     target, bank.speed, bank.duration)
```

Units: m, s, radians; matrices 4x4 acting on column vectors; y is up. The horde's step and the
hand-over pool build on these (``ae3d.handover``).
"""

from ._posebank import (
    PoseBank,
    instance_root,
    posebank_bake_in_place,
    posebank_sample,
    posebank_skinning,
    root_bone,
    skinning_bank,
)
from ._step import PARKED, crowd_step_out

__all__ = ["PoseBank", "posebank_sample", "posebank_bake_in_place", "posebank_skinning",
           "skinning_bank", "root_bone", "instance_root", "crowd_step_out", "PARKED"]
