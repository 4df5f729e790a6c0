"""ae3d.motion: the active ragdoll (spec/motion.md): a figure whose animation is played by its
muscles. Hit it and it gives where it was hit and comes back; hit it harder than it can take and
it falls.

```python
from ae3d import engine, physics, motion, human
e = engine.Engine()
physics.ground(e)
r = physics.ragdoll(e, "Zombie", (0, 0, 0), 8.0, 8.0, 1.0)
body = motion.active_ragdoll(r)          # ANIMATED to begin with
motion.attach(e, body)                   # stepped every fixed step, posed after the clips
motion.set_mode(body, motion.POWERED)    # the muscles play the animation
motion.hit(body, human.BONE_SPINE_03, point, impulse)   # m, N·s
e.run(seconds=3.0)
```

Modes: ``ANIMATED`` (the animation drives, position and all, through follow anchors and the
joints' springs; struck, by ``hit`` or by a body that comes at it faster than 0.5 m/s, it goes
POWERED, the blow taking its muscle as ``hit``'s does), ``POWERED`` (every joint's motor drives
it toward the animation's pose within its budget; the pelvis's upright anchor, 1,200 N·m, is the
balance; the heading hold, 60 N·m on its soles, keeps the way it faces), ``LIMP`` (a ragdoll).
``GETTING_UP`` is got to, not set: ``get_up(body)`` from the ground (``down``), or by itself
with ``set_get_up(body, seconds)``; ``ACTING`` too: ``lie_down(body, head)`` (#825) lays it on
its back, lain until ``get_up(body)``; ``sit(body, seat, facing)`` sits it on a seat, sat until
``stand_up(body)`` (or ``get_up``).

The animation's pose is the rig's where the ragdoll is dressed (``physics.ragdoll_dress``,
``on_figure``); a ragdoll without a rig takes it from ``set_animation`` (body-relative joint
rotations and the pelvis's pose), its standing pose where it stands by default. The pose drawn is
``drawn_pose(body)`` (and, dressed, the rig).

A program that steps itself calls ``motion_step(e)`` each fixed step and ``pose(body, e)`` from
its pose phase instead of ``attach``.

The tuned constants are ``settings(e)`` (a frozen ``Settings``, each value with its unit and
reason); ``set_settings(e, dataclasses.replace(...))`` tunes them. The package's map, one file a
behaviour, is in README.md's "Developing".
"""

from ._balance import BalanceSettings, falling, lean
from ._fall import FallSettings, fall_way
from ._figures import (
    active_ragdoll,
    attach,
    from_record,
    motion_of,
    motion_step,
    on_figure,
    on_skeleton,
    record,
    set_get_up,
    set_protective,
)
from ._get_up import (
    GetUpSettings,
    down,
    get_up_clips,
    getting_up,
    set_get_up_clips,
)
from ._hits import HitsSettings, hit
from ._landing import LandingSettings, caught, landed, lying
from ._layout import ACTING, ANIMATED, GETTING_UP, LIMP, POWERED
from ._modes import ModesSettings, animation, mode, set_animation, set_mode
from ._muscles import MusclesSettings, set_recovery, set_strength, strength
from ._pose import drawn_pose, pose
from ._service import Motion
from ._settings import Settings, set_settings, settings

# stepping and staggers (issue 14)
from ._stepping import (  # noqa: E402
    SteppingSettings,
    capture_point,
    set_stepping,
    staggering,
    stepping,
    steps_taken,
)

# the hand to the wound (#698), _wound.py
from ._wound import WoundSettings, hit_reaction, set_hit_reaction, wound  # noqa: E402

# down and hurt, writhing, _writhe.py
from ._writhe import WritheSettings, set_writhing, writhe_over, writhing  # noqa: E402

FALL_LEAN = BalanceSettings().fall_lean   # rad: past this from its pose a POWERED figure falls

# the actions at an interaction point (#825): lying down, _act.py
from ._act import acting, lie_down, lie_spot, lying_down  # noqa: E402

# holding something sat, eating and drinking from it (#825's 3), _eat.py
from ._eat import drink, eat, eating, hold, hold_cup, holding, let_go, mouth  # noqa: E402

# parts with a strength of their own (#573), _parts.py
from ._parts import (  # noqa: E402
    PART_ARM_L,
    PART_ARM_R,
    PART_HEAD,
    PART_LEG_L,
    PART_LEG_R,
    PART_SPINE,
    PartsSettings,
    part_mode,
    part_strength,
    set_part_mode,
    set_part_strength,
)

# sitting on a seat and standing up from it (#825), _sit.py; get_up is _get_up.get_up but stands
# a figure sat on a seat up from it
from ._sit import get_up, seated, sit, sit_spot, sitting, stand_up  # noqa: E402

__all__ = [
    "ACTING", "ANIMATED", "FALL_LEAN", "GETTING_UP", "LIMP", "POWERED", "BalanceSettings",
    "FallSettings", "HitsSettings", "LandingSettings", "caught", "fall_way", "landed", "lying",
    "ModesSettings", "Motion", "MusclesSettings", "Settings", "active_ragdoll",
    "animation", "attach", "drawn_pose", "falling", "from_record", "hit", "lean", "mode",
    "motion_of", "motion_step", "on_figure", "on_skeleton", "pose", "record", "set_animation",
    "set_get_up", "set_mode", "set_protective", "set_recovery", "set_settings", "set_strength",
    "settings", "strength",
    # stepping and staggers (issue 14)
    "SteppingSettings", "capture_point", "set_stepping", "staggering", "stepping",
    "steps_taken",
    # the ways up (_get_up.py)
    "GetUpSettings", "down", "get_up", "getting_up",
    "get_up_clips", "set_get_up_clips",   # the clip way (issue 13)
    # the actions (#825): lying down, sitting and standing up
    "acting", "lie_down", "lie_spot", "lying_down", "seated", "sit", "sit_spot", "sitting",
    "stand_up",
    # the actions on a seat (#825's 3): holding, eating and drinking
    "drink", "eat", "eating", "hold", "hold_cup", "holding", "let_go", "mouth",
    # the hand to the wound (#698)
    "WoundSettings", "hit_reaction", "set_hit_reaction", "wound",
    # writhing
    "WritheSettings", "set_writhing", "writhe_over", "writhing",
    # parts (#573)
    "PART_ARM_L", "PART_ARM_R", "PART_HEAD", "PART_LEG_L", "PART_LEG_R", "PART_SPINE",
    "part_strength", "set_part_strength",
    # a part's own mode (#573, #658)
    "PartsSettings", "part_mode", "set_part_mode",
]
