"""Eating and drinking on a seat measured (tests/test_eat.py, spec #825 "tests/test_eat.ae"):
figures stood by ``motion.sit_spot`` before a squared log, sat (``motion.sit``), given a bowl (a
kinematic box, gripped at its two ends) or a cup (a kinematic capsule standing, gripped at its
side), three bites or sips, let go, stood up; each watched every step.

Per figure (``run``'s rows):

- ``palm``: the farthest either holding palm (the forearm capsule's tip) is from its grip in the
  world, from the take's end to the let-go (m), bites and all: the bodies' (``palm``) and the
  drawing's (``palm_drawn``, the spec's "drawn wrist");
- ``bowl_mouth``: at each bite's top (its middle), the item's origin from the mouth (m), the
  worst; ``rim_mouth`` a cup's rim (its top's middle) from the mouth and ``tilt`` the cup's up
  tipped toward the face (deg), at each sip's top, the worst;
- ``thigh``: a cup's other palm off its thigh's middle (the middle of the thigh's capsule
  segment) over the ground (m: the hand rests on the thigh's top), the worst while it holds;
- ``slide``: the farthest either toe moves over the ground from where it was as ``sit`` was
  called, until the hand-over after standing up (m);
- ``turn``: the worst turn of any body in a step from ``sit`` to the hand-over (deg);
- ``ended``: the mode it was handed back to; ``lean`` a second on (rad).

Units: m, s, deg (turns, tilts), rad (leans).
"""

from __future__ import annotations

import math
import os
import sys

import numpy as np

from ae3d import engine, human, motion, physics
from ae3d.physics import _layout as L

sys.path.insert(0, os.path.join(os.path.dirname(__file__), ".."))

from motion import sit as SI  # noqa: E402

DT = 1.0 / 60.0
BOWL = (0.11, 0.035, 0.08)     # m: a bowl's half extents (a kinematic box)
CUP = (0.04, 0.05)             # m: a cup's radius and half length (a kinematic capsule standing)
BITES = 3


def _palm(w, r, fore, pose=None) -> np.ndarray:
    """(3,) m: forearm ``fore``'s palm (its capsule's tip), the bodies' or in ``pose`` (p, q)."""
    from ae3d.motion import _eat as E
    from ae3d.motion import _sit as S
    fr = S._Frame(r, 0.0)
    if pose is None:
        pose = (w.bf[r.bodies, L.B_POS:L.B_POS + 3], w.bf[r.bodies, L.B_QUAT:L.B_QUAT + 4])
    return E._palm(fr, np.asarray(pose[0]), np.asarray(pose[1]), fore)


def run(path: str = "boxman.glb", height: float = 0.4, facing: float = 0.0, cup: bool = False,
        right: bool = True, mode: int = motion.POWERED) -> dict:
    """One figure on a squared log ``height`` m up facing ``facing`` deg: sat, given a bowl (or a
    cup in its right hand, or left), BITES bites (sips), let go, stood up."""
    from ae3d.motion import _eat as E
    e = engine.Engine()
    physics.set_ankles(e, True)
    physics.ground(e)
    yaw = math.radians(facing)
    o = SI.One(e, "m", path, (0.0, 0.0, 0.0), height, yaw, mode, False)
    m = o.m
    r = m.ragdoll
    w = e.physics
    if cup:
        item = physics.add_capsule(e, CUP[0], CUP[1], (3.0, 1.0, 0.0), kind="kinematic")
        grip = (-CUP[0] - 0.02 if right else CUP[0] + 0.02, 0.0, 0.0)
    else:
        item = physics.add_box(e, BOWL, (3.0, 1.0, 0.0), kind="kinematic")
        grips = ((BOWL[0] + 0.02, 0.0, 0.0), (-BOWL[0] - 0.02, 0.0, 0.0))
    e.run(seconds=0.3)
    toes0 = o.toes()
    assert motion.sit(m, o.seat.point, o.facing)
    out = dict(palm=0.0, palm_drawn=0.0, bowl_mouth=0.0, rim_mouth=0.0, tilt=180.0, thigh=0.0,
               slide=0.0, turn=0.0, ended=None, lean=math.nan, tops=0, held=False)
    prev = w.bf[r.bodies, L.B_QUAT:L.B_QUAT + 4].copy()
    k = 0
    phase = "sit"
    bites = 0
    up_step = -1
    hold_at = -1
    bite_at = -1
    top_step = round((E.BITE_RAISE + 0.5 * E.BITE_STAY) / DT)
    while k < round(30.0 / DT):
        e.frame(DT)
        k += 1
        q = w.bf[r.bodies, L.B_QUAT:L.B_QUAT + 4].copy()
        if up_step < 0 or k <= up_step:
            out["turn"] = max(out["turn"], float(SI.angles(prev, q).max()))
            d = o.toes() - toes0
            out["slide"] = max(out["slide"], float(np.hypot(d[:, 0], d[:, 2]).max()))
        prev = q
        if phase == "sit" and motion.seated(m):
            ok = (motion.hold_cup(m, item, grip, right) if cup
                  else motion.hold(m, item, *grips))
            assert ok
            phase, hold_at = "take", k
        elif phase == "take" and k - hold_at >= round(E.TAKE / DT) + 1:
            phase = "bites"
        if phase == "bites":
            out["held"] = True
            ip = w.bf[item.slot, L.B_POS:L.B_POS + 3]
            iq = w.bf[item.slot, L.B_QUAT:L.B_QUAT + 4]
            sides = ((human.BONE_LOWERARM_L, 0), (human.BONE_LOWERARM_R, 1))
            h = E._HOLD[m]
            for fore, i in sides:
                g = h["grips"][i]
                if g is None:
                    # a cup's other hand: on its thigh's middle
                    th = human.BONE_THIGH_L if i == 0 else human.BONE_THIGH_R
                    # over the ground: the hand rests on the thigh's top
                    d = _palm(w, r, fore) - w.bf[int(r.bodies[th]), L.B_POS:L.B_POS + 3]
                    out["thigh"] = max(out["thigh"], float(np.hypot(d[0], d[2])))
                    continue
                gw = ip + SI._rot(iq, g)
                out["palm"] = max(out["palm"], float(np.linalg.norm(_palm(w, r, fore) - gw)))
                drawn = _palm(w, r, fore, motion.drawn_pose(m))
                out["palm_drawn"] = max(out["palm_drawn"], float(np.linalg.norm(drawn - gw)))
            if not motion.eating(m) and bite_at < 0:
                if bites == BITES:
                    assert motion.let_go(m)
                    phase = "letgo"
                else:
                    assert motion.drink(m) if cup else motion.eat(m)
                    bites += 1
                    bite_at = k
            elif bite_at >= 0 and k - bite_at == top_step:
                mo = motion.mouth(m)
                if cup:
                    rim = ip + SI._rot(iq, E._rim(m, item.slot))
                    out["rim_mouth"] = max(out["rim_mouth"], float(np.linalg.norm(rim - mo)))
                    up = SI._rot(iq, (0.0, 1.0, 0.0))
                    fwd = np.array([math.sin(yaw), 0.0, math.cos(yaw)])
                    # tipped toward the face: the cup's up leaning back against the facing
                    tip = math.degrees(math.atan2(-float(up @ fwd), float(up[1])))
                    out["tilt"] = min(out["tilt"], tip)
                else:
                    out["bowl_mouth"] = max(out["bowl_mouth"], float(np.linalg.norm(ip - mo)))
                out["tops"] += 1
            if bite_at >= 0 and not motion.eating(m):
                bite_at = -1
        elif phase == "letgo" and not motion.holding(m):
            # the game takes the item away (it is left where it rested, over the lap)
            physics.move_kinematic(e, item, (3.0, 1.0, 0.0))
            assert motion.stand_up(m)
            phase = "stand"
        elif phase == "stand" and motion.mode(m) != motion.ACTING and up_step < 0:
            up_step = k
            out["ended"] = motion.mode(m)
        if up_step >= 0 and k - up_step == round(1.0 / DT):
            upv = SI._rot(w.bf[int(r.bodies[0]), L.B_QUAT:L.B_QUAT + 4], human.BONE_UP_LOCAL[0])
            out["lean"] = math.acos(max(-1.0, min(1.0, float(upv[1]))))
            break
    e.close()
    return out


__all__ = ["run", "BOWL", "CUP", "BITES"]
