"""What the safety nets did: ``stats(e)``, a counter a game can read (issue 18).

The solver keeps a few nets, as the best engines do, for what a blow or a bad frame could do past
what its rows hold (their values and why: ``_kernels_step`` and ``_kernels_joints``, and the
README's "What you may throw at it"). With the joints' effective masses taken from the current
lever arms they rarely act; when they do, a game can see it here, and a body that went non-finite
was put back where its step began, at rest, without touching any other island.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

from . import _layout as L
from ._world import World

__all__ = ["Stats", "stats"]


@dataclass(frozen=True)
class Stats:
    """The nets' actions since the engine was made (counts of body-sub-steps or body-steps).

    speed_held: a body's speed held to the world's cap (``World.max_linear_speed``, 400 m/s) in
        a sub-step or at the step's end.
    spin_held: a body's spin held to a quarter turn a sub-step (at 8 sub-steps of 1/60 s,
        377 rad/s).
    push_held: a joint's push-out held to its cap (a point 10 m/s; a limit past its edge or a
        hinge's lock 20 rad/s), counted on the joint's child body (body-sub-steps).
    reset: bodies put back where their step began, at rest, for going non-finite (their
        joints', anchors' and contacts' warm starts dropped). Each is a fault worth reporting.
    reset_last_step: those of the last step alone.
    worst_gap: the widest joint gap now (m): how far apart a joint's two points are (under
        2 cm but for the moment of a hard blow).
    steps: fixed steps taken.
    blows_jointed: impulses (``apply_impulse``, ``motion.hit``) on a body held by joints, taken
        by its whole jointed group as the joints take them in the instant (``physics/_blow.py``).
    blows_scaled: those of them scaled down so that no body of the group left faster than the
        blow's caps (300 m/s, 60 rad/s): a blow past what a figure can take whole.
    blows_grounded: those of them the ground took a share of in the instant: a point of the
        group touching the ground (or a static or kinematic body) that the blow drove into it.
    """

    speed_held: int
    spin_held: int
    push_held: int
    reset: int
    reset_last_step: int
    worst_gap: float
    steps: int
    blows_jointed: int
    blows_scaled: int
    blows_grounded: int

    def nets(self) -> int:
        """All the nets' actions together."""
        return self.speed_held + self.spin_held + self.push_held + self.reset


def stats(e: Any) -> Stats:
    """The safety nets' counts for engine ``e`` (see ``Stats``). Cheap: one pass over the
    bodies and joints, made only when called."""
    from ._kernels_joints import worst_joint_gap

    w = getattr(e, "physics", None)
    if not isinstance(w, World):
        raise TypeError("e must be an open Engine (with a physics world)")
    live = w.bi[: w.n, L.B_KIND] != L.KIND_FREE
    c = w.bf[: w.n][live, L.B_NETS:L.B_NETS + L.NET_COUNT].sum(axis=0) + w.nets_removed
    gap = float(worst_joint_gap(w.bf, w.jf, w.ji, w.nj)) if w.nj else 0.0
    return Stats(speed_held=int(c[L.NET_SPEED]), spin_held=int(c[L.NET_SPIN]),
                 push_held=int(c[L.NET_PUSH]), reset=int(c[L.NET_RESET]),
                 reset_last_step=int(w.last_reset), worst_gap=gap, steps=int(w.steps),
                 blows_jointed=int(w.blow_stats[0]), blows_scaled=int(w.blow_stats[1]),
                 blows_grounded=int(w.blow_stats[2]))

