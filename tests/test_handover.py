"""tests/test_handover.ae in pytest (issue 16; spec/motion.md "A horde can't be active ragdolls").

The horde is 48 of the box man, baked from its Idle (a bank of 60 frames), standing on a grid
and stepped by ``crowd.crowd_step_out`` toward a point at 0.3 m/s (so an instance the step did
not pass by would move); the pool is four of the same figure. No window.

Held (the spec's limits): handing over, every bone of the figure against the bank's pose on the
instance (as the horde draws it, the two nearest frames blended) within 2 mm; the instance out
of every tier of the sort (past the far plane and every level of detail, outside the frustum)
and not moved by the step; four struck at 400 N·s go down (the lowest pelvis reported), each
gets up by itself and is back in the horde within 12 s of the blow; giving back, every bone
against the instance's pose within 10 mm and the zombie within 20 mm of its figure's pelvis; a
fifth strike while all four fall is refused; a killed one lies, is kept 2 s with
``set_despawn(2)``, is parked by 3 s and its zombie stays out; four shoved at 40 N·s and
standing, a fifth strike reuses the farthest, given back first; the whole run twice, the same
bits. The sweep: strikes of 40 to 400 N·s from the front, the back and the side, on the box
man's horde and the Mixamo man's (walking), each handed over within 2 mm; the 40 N·s ones given
back within 10 / 20 mm.

The 400 N·s figures lie until they get up by themselves (``motion.set_get_up``, #13), then
are given back like any other.
"""

from __future__ import annotations

import hashlib
import math

import numpy as np
import pytest

from ae3d import crowd, engine, figure, handover, motion, physics

DT = 1.0 / 60.0
N = 48
FRAMES = 60
WALK = 0.3                          # m/s: the horde's step, toward TARGET
TARGET = np.array([0.0, 0.0, 40.0])
HAND_OVER_MM = 2.0
GIVE_BACK_MM = 10.0
ZOMBIE_PELVIS_MM = 20.0
BACK_WITHIN = 12.0                  # s after the blow
STRUCK = (5, 17, 30, 41)
FIFTH_AT = 0.45  # s after the four blows: the fifth strike, while all four fall


class Horde:
    """An engine, a ground, 48 zombies of ``path`` on a grid (the game's columns) and a pool of
    ``size``; ``run`` steps the horde and the engine together."""

    def __init__(self, path="boxman.glb", clip="Idle", size=4, n=N, spacing=2.5):
        self.e = engine.Engine()
        physics.ground(self.e)
        src = figure.figure_of(self.e, figure.figure(self.e, "bank", path))
        figure.set_visible(src, False)
        self.bank = crowd.posebank_bake_in_place(crowd.posebank_sample(src, clip, FRAMES))
        self.bones = figure.humanoid_bones(src.rig)
        side = 8
        g = np.arange(n)
        self.n = n
        self.pos = np.zeros((n, 3))
        self.pos[:, 0] = (g % side) * spacing - 0.5 * (side - 1) * spacing
        self.pos[:, 2] = (g // side) * spacing - 0.5 * (n // side - 1) * spacing
        self.yaw = np.linspace(-3.0, 3.0, n)
        self.phase = np.linspace(0.0, 1.0, n, endpoint=False)
        self.vel = np.zeros((n, 3))
        self.facing = 0.0
        self.pool = handover.pool_new(self.e, path, clip, size)
        handover.set_horde(self.pool, self.pos, self.yaw, self.phase, n)
        self.returns: list[dict] = []
        handover.set_on_return(self.pool, self._on_return)

    def close(self):
        self.e.close()

    def instance_pose(self, z):
        """(bones, 4, 4) zombie z as the horde draws it: the bank's two nearest frames blended,
        placed at its position, turned by its heading."""
        b = self.bank
        ph = (self.phase[z] % 1.0) * b.frames
        k = int(math.floor(ph))
        fr = ph - k
        w = (1.0 - fr) * b.world[k % b.frames] + fr * b.world[(k + 1) % b.frames]
        return crowd.instance_root(self.pos[z], self.yaw[z] + self.facing) @ w

    def chest(self, z):
        """m: the middle of zombie z's chest, as drawn (between its chest and neck bones)."""
        w = self.instance_pose(z)
        return 0.5 * (w[self.bones["Chest"], :3, 3] + w[self.bones["Neck"], :3, 3])

    def forward(self, z):
        a = self.yaw[z] + self.facing
        return np.array([math.sin(a), 0.0, math.cos(a)])

    def figure_of(self, z):
        return figure.figure_of(self.e, handover.figure_of(self.pool, z))

    def pelvis(self, k):
        from ae3d.handover import _pool
        return _pool._pelvis(self.pool, k).copy()

    def against_instance(self, z, pose=None):
        """mm: the worst bone of zombie z's figure against the instance's pose (``pose``: as it
        was drawn before it was handed over; by default as the columns have it now)."""
        f = self.figure_of(z)
        want = self.instance_pose(z) if pose is None else pose
        return 1e3 * float(np.abs(f.rig.world[:, :3, 3] - want[:, :3, 3]).max())

    def strike(self, z, impulse, kill=False):
        """Strike (kill) zombie z at its chest with ``impulse`` N·s along its forward (negative:
        from the front); returns (figure, mm: every bone against the pose drawn before)."""
        drawn = self.instance_pose(z)
        call = handover.kill if kill else handover.strike
        k = call(self.pool, z, self.chest(z), impulse)
        return k, (self.against_instance(z, drawn) if k >= 0 else None)

    def _on_return(self, z):
        k = int(np.nonzero(self.pool.zombie == z)[0][0])
        hips = self.instance_pose(z)[self.bank.hips, :3, 3]
        pel = self.pelvis(k)
        self.returns.append({
            "time": self.e.time, "zombie": z, "figure": k,
            "bones_mm": self.against_instance(z),
            "pelvis_mm": 1e3 * float(np.hypot(*(pel - hips)[[0, 2]])),
            "state": handover.state(self.pool, k)})

    def run(self, seconds, each=None):
        for _ in range(int(round(seconds / DT))):
            crowd.crowd_step_out(self.pos, self.vel, self.yaw, self.phase,
                                 handover.outs(self.pool), 0, self.n, DT, TARGET, WALK,
                                 self.bank.duration)
            self.e.frame(DT)
            if each is not None:
                each()

    def digest(self):
        h = hashlib.sha256()
        w = self.e.physics
        for a in (self.pos, self.yaw, self.phase, handover.outs(self.pool), w.bf[: w.n],
                  self.pool.state, self.pool.zombie):
            h.update(np.ascontiguousarray(a).tobytes())
        for f in self.pool.figures:
            h.update(f.rig.world.tobytes())
        return h.hexdigest()


# ------------------------------------------------------------------------------ struck at 400
@pytest.fixture(scope="module")
def felled():
    """Four struck at 400 N·s from the front at their chests, a fifth tried while they fall,
    then 12 s run; everything measured on the way."""
    h = Horde()
    out = {"hand_over_mm": [], "moved": 0.0, "lowest": np.inf}
    h.run(0.5)
    blow = h.e.time
    for z in STRUCK:
        k, mm = h.strike(z, -400.0 * h.forward(z))
        assert k >= 0
        out["hand_over_mm"].append(mm)
    out["parked_at"] = {z: h.pos[z].copy() for z in STRUCK}
    out["eye"] = None
    low = [np.inf] * 4

    def watch():
        for k in range(4):
            if h.pool.state[k] != 0:
                low[k] = min(low[k], float(h.pelvis(k)[1]))
        for z in STRUCK:
            if handover.outs(h.pool)[z]:
                out["moved"] = max(out["moved"],
                                   float(np.abs(h.pos[z] - out["parked_at"][z]).max()))

    # with the whole 400 N·s push (issue 18) the figure goes back more as one: its lean passes
    # the fall's 0.35 rad 0.28-0.30 s after the blow (measured), so the fifth comes at 0.45 s
    h.run(FIFTH_AT, watch)
    out["falling"] = [motion.falling(b) or motion.landed(b) for b in h.pool.bodies]
    fifth = 2
    before = (h.pos[fifth].copy(), handover.outs(h.pool)[fifth])
    out["fifth"] = handover.strike(h.pool, fifth, h.chest(fifth), -400.0 * h.forward(fifth))
    out["fifth_after"] = (h.pos[fifth].copy(), handover.outs(h.pool)[fifth], before)
    h.run(BACK_WITHIN - FIFTH_AT, watch)
    out["lowest"] = low
    out["returns"] = list(h.returns)
    out["blow"] = blow
    out["outs_end"] = handover.outs(h.pool)[list(STRUCK)].copy()
    yield h, out
    h.close()


def test_handing_over_every_bone_on_the_instance(felled):
    _, out = felled
    worst = max(out["hand_over_mm"])
    print(f"handing over: every bone against the bank's pose on the instance, worst "
          f"{worst:.4f} mm (limit {HAND_OVER_MM} mm)")
    assert worst <= HAND_OVER_MM


def test_handed_over_out_of_every_tier_and_not_moved(felled):
    from ae3d.render import _quality
    from ae3d.render._camera import Camera
    from ae3d.render._renderer import _in_frustum

    h, out = felled
    cam = Camera()
    cam.orbit((0.0, 1.0, 0.0), 25.0, 0.4, 0.5)
    vp = cam.view_projection(1280, 720)
    farthest_tier = max([cam.far] + [max(q.lod, default=0.0)
                                      for q in _quality.PRESETS.values()])
    for z in STRUCK:
        p = out["parked_at"][z]
        assert p[0] == crowd.PARKED and p[2] == crowd.PARKED
        assert float(np.linalg.norm(p - cam.eye)) > farthest_tier
        assert not _in_frustum(p[None, :], vp, 5.0)[0]
        # and the horde drawn from there shows it: an instance where it stood is in view
        assert _in_frustum(h.instance_pose(0)[h.bank.hips, :3, 3][None, :], vp, 1.0)[0]
    print(f"handed over: parked {crowd.PARKED:.0e} m off; moved by the step while out "
          f"{out['moved']} m")
    assert out["moved"] == 0.0


def test_four_struck_at_400_go_down(felled):
    _, out = felled
    print(f"four struck at 400 N·s: the lowest pelvis of each "
          f"{[round(v, 3) for v in out['lowest']]} m")
    assert max(out["lowest"]) < 0.5


def test_a_fifth_strike_while_all_four_fall_is_refused(felled):
    _, out = felled
    assert all(out["falling"])
    pos, flag, (pos0, flag0) = out["fifth_after"]
    print(f"a fifth strike while all four fall: {out['fifth']}")
    assert out["fifth"] == -1
    assert flag == 0 and flag0 == 0 and np.array_equal(pos[[1]], pos0[[1]])


def test_each_gets_up_and_is_back_within_12_s(felled):
    _, out = felled
    back = {r["zombie"]: r["time"] - out["blow"] for r in out["returns"]}
    print(f"back in the horde after the blow: {back} s (limit {BACK_WITHIN} s)")
    assert sorted(back) == sorted(STRUCK)
    assert max(back.values()) <= BACK_WITHIN
    for r in out["returns"]:
        assert r["bones_mm"] <= GIVE_BACK_MM
        assert r["pelvis_mm"] <= ZOMBIE_PELVIS_MM
    assert not out["outs_end"].any()


# ------------------------------------------------------------------------------ shoved at 40
def _shoved():
    """Four shoved at 40 N·s (they stand); 0.3 s on, a fifth strike; then all given back; then
    one killed with set_despawn(2), watched for 3.5 s."""
    h = Horde()
    out = {}
    h.run(0.5)
    for z in STRUCK:
        assert handover.strike(h.pool, z, h.chest(z), -40.0 * h.forward(z)) >= 0
    h.run(0.3)
    out["standing"] = [handover.state(h.pool, k) for k in range(4)]
    fifth = 2
    point = h.chest(fifth)
    held = {int(h.pool.zombie[k]): k for k in range(4)}
    dist = {z: float(np.linalg.norm(h.pelvis(k) - point)) for z, k in held.items()}
    out["farthest"] = max(dist, key=dist.get)
    out["farthest_figure"] = held[out["farthest"]]
    n_before = len(h.returns)
    out["fifth"] = handover.strike(h.pool, fifth, point, -40.0 * h.forward(fifth))
    out["first_back"] = [r["zombie"] for r in h.returns[n_before:]]
    out["farthest_out"] = int(handover.outs(h.pool)[out["farthest"]])
    out["farthest_pos"] = h.pos[out["farthest"]].copy()
    h.run(3.0)
    out["returns"] = [r for r in h.returns if r["zombie"] != out["farthest"]]
    out["outs_after"] = int(handover.outs(h.pool).sum())
    # the kill
    handover.set_despawn(h.pool, 2.0)
    dead = 9
    k = handover.kill(h.pool, dead, h.chest(dead), -150.0 * h.forward(dead))
    t_kill = h.e.time
    seen = []

    def watch():
        seen.append((h.e.time - t_kill, handover.state(h.pool, k),
                     physics.ragdoll_is_parked(h.pool.bodies[k].ragdoll),
                     h.pool.figures[k].visible, float(h.pelvis(k)[1]),
                     int(handover.outs(h.pool)[dead])))

    h.run(3.5, watch)
    out["kill"] = seen
    out["dead"] = (dead, handover.is_dead(h.pool, dead), int(handover.outs(h.pool)[dead]),
                   h.pos[dead].copy())
    out["digest"] = h.digest()
    h.close()
    return out


@pytest.fixture(scope="module")
def shoved():
    return _shoved()


def test_shoved_at_40_given_back_on_the_instance(shoved):
    rs = shoved["returns"]
    bones = max(r["bones_mm"] for r in rs)
    pel = max(r["pelvis_mm"] for r in rs)
    print(f"given back ({len(rs)}): every bone against the instance's pose, worst {bones:.4f} mm "
          f"(limit {GIVE_BACK_MM}); the zombie from its figure's pelvis {pel:.3f} mm "
          f"(limit {ZOMBIE_PELVIS_MM}); at {[round(r['time'], 2) for r in rs]} s")
    assert len(rs) == 4      # the three shoved that stayed, and the fifth
    assert bones <= GIVE_BACK_MM and pel <= ZOMBIE_PELVIS_MM
    assert shoved["outs_after"] == 0


def test_full_pool_reuses_the_farthest_given_back_first(shoved):
    print(f"four standing ({shoved['standing']}): the fifth strike took figure "
          f"{shoved['fifth']}, the farthest's ({shoved['farthest']}), whose zombie went back "
          f"first: {shoved['first_back']}")
    assert shoved["standing"] == ["struck"] * 4
    assert shoved["fifth"] == shoved["farthest_figure"]
    assert shoved["first_back"] == [shoved["farthest"]]
    assert shoved["farthest_out"] == 0
    assert shoved["farthest_pos"][0] != crowd.PARKED


def test_a_killed_one_lies_kept_2_s_parked_by_3_s_stays_out(shoved):
    seen = shoved["kill"]
    kept = [s for s in seen if s[0] < 2.0 - 1e-6]
    by3 = [s for s in seen if s[0] >= 3.0 - 1e-6]
    low = min(s[4] for s in kept)
    parked_at = min((s[0] for s in seen if s[2]), default=None)
    print(f"a killed one: its pelvis down to {low:.3f} m; parked at {parked_at} s "
          f"(kept 2 s, limit 3 s)")
    assert low < 0.5
    assert all(s[1] == "dead" and not s[2] and s[3] for s in kept)
    assert by3 and all(s[2] and not s[3] for s in by3)
    assert all(s[5] == 1 for s in seen)
    dead, is_dead, flag, pos = shoved["dead"]
    assert is_dead and flag == 1 and pos[0] == crowd.PARKED


@pytest.mark.parametrize("path", ["boxman.glb", "mixamo_man.glb"])
def test_a_killed_one_left_lying_never_gets_up(path):
    """``set_despawn(0)``: a killed one lies for good. The pool's figures get up by themselves
    (``set_get_up``), and a LIMP figure lain still would too: a kill turns that off (the demo's
    killed zombies stood up and walked off as "dead" ones). Killed from the front and from the
    side, 200 N·s, each watched 5 s: its pelvis never back over half its standing height."""
    h = Horde(path, clip="Walk", size=2)
    try:
        handover.set_despawn(h.pool, 0.0)
        for z, way in ((5, h.forward(5)), (30, np.cross(h.forward(30), (0.0, 1.0, 0.0)))):
            assert handover.kill(h.pool, z, h.chest(z), -200.0 * way) >= 0
        lows, highs = [np.inf, np.inf], [0.0, 0.0]

        def watch():
            for k in range(2):
                y = float(h.pelvis(k)[1])
                lows[k] = min(lows[k], y)
                if h.e.time > 3.0:
                    highs[k] = max(highs[k], y)

        h.run(5.0, watch)
        states = [handover.state(h.pool, k) for k in range(2)]
        print(f"{path}: killed, lowest pelvis {lows}, highest after 3 s {highs} m (standing "
              f"{h.pool.hips_height:.2f}); {states}")
        assert states == ["dead", "dead"]
        assert max(highs) < 0.5 * h.pool.hips_height
    finally:
        h.close()


def test_the_whole_run_twice_the_same_bits(shoved):
    again = _shoved()
    assert again["digest"] == shoved["digest"]


# ------------------------------------------------------------------------------ the sweep
@pytest.mark.parametrize("path,clip", [("boxman.glb", "Walk"), ("mixamo_man.glb", "Walk")])
def test_sweep_strengths_and_ways_on_two_rigs(path, clip):
    """Strikes of 40, 150 and 400 N·s from the front, the back and the side on a walking
    horde of each rig (a turn of 0.5 rad in the draw's facing): each handed over within 2 mm;
    the 40 N·s ones given back within 10 / 20 mm."""
    h = Horde(path, clip, size=9, n=16)
    try:
        h.facing = 0.5
        handover.set_facing(h.pool, h.facing)
        h.run(0.4)
        worst = 0.0
        z = 0
        gentle = []
        for j in (40.0, 150.0, 400.0):
            for way in ("front", "back", "side"):
                f = h.forward(z)
                d = {"front": -f, "back": f, "side": np.array([f[2], 0.0, -f[0]])}[way]
                k, mm = h.strike(z, j * d)
                assert k >= 0
                worst = max(worst, mm)
                if j == 40.0:
                    gentle.append(z)
                z += 1
        h.run(3.0)
        back = [r for r in h.returns if r["zombie"] in gentle]
        print(f"{path} {clip}: handed over, worst bone {worst:.4f} mm; 40 N·s given back "
              f"{len(back)}/3, worst {max((r['bones_mm'] for r in back), default=-1):.4f} mm, "
              f"pelvis {max((r['pelvis_mm'] for r in back), default=-1):.3f} mm")
        assert worst <= HAND_OVER_MM
        assert len(back) == 3
        assert max(r["bones_mm"] for r in back) <= GIVE_BACK_MM
        assert max(r["pelvis_mm"] for r in back) <= ZOMBIE_PELVIS_MM
    finally:
        h.close()


# ------------------------------------------------------------------------------ bad input
def test_bad_input_clear_errors_nothing_changed():
    h = Horde(size=2, n=8)
    try:
        p = h.pool
        snap = (h.pos.copy(), h.yaw.copy(), h.phase.copy(), handover.outs(p).copy(),
                p.state.copy(), p.zombie.copy())

        def same():
            return all(np.array_equal(a, b) for a, b in zip(
                (h.pos, h.yaw, h.phase, handover.outs(p), p.state, p.zombie), snap, strict=True))

        pt, j = h.chest(1), (0.0, 0.0, -40.0)
        for call, err, msg in [
            (lambda: handover.strike(p, 8, pt, j), ValueError, "not in the horde"),
            (lambda: handover.strike(p, -1, pt, j), ValueError, "not in the horde"),
            (lambda: handover.strike(p, 1.0, pt, j), TypeError, "zombie"),
            (lambda: handover.strike(p, True, pt, j), TypeError, "zombie"),
            (lambda: handover.strike(p, 1, (0.0, np.nan, 0.0), j), ValueError, "point"),
            (lambda: handover.kill(p, 1, pt, (np.inf, 0.0, 0.0)), ValueError, "impulse"),
            (lambda: handover.strike(p, 1, pt, (1e9, 0.0, 0.0)), ValueError, "impulse"),
            (lambda: handover.strike(p, 1, pt, (1.0, 2.0)), ValueError, "impulse"),
            (lambda: handover.strike("pool", 1, pt, j), TypeError, "pool"),
            (lambda: handover.set_horde(p, h.pos.astype(np.float32), h.yaw, h.phase, 8),
             TypeError, "pos"),
            (lambda: handover.set_horde(p, h.pos, h.yaw, h.phase, 9), ValueError, "count"),
            (lambda: handover.set_settle(p, -1.0), ValueError, "seconds"),
            (lambda: handover.set_despawn(p, np.nan), ValueError, "seconds"),
            (lambda: handover.set_facing(p, np.inf), ValueError, "facing"),
            (lambda: handover.set_colors(p, np.ones((3, 3))), ValueError, "tint"),
            (lambda: handover.set_on_return(p, 3), TypeError, "callback"),
            (lambda: handover.pool_new(h.e, "boxman.glb", "Nope", 2), ValueError, "clip"),
            (lambda: handover.pool_new(h.e, "boxman.glb", "Idle", 0), ValueError, "size"),
        ]:
            with pytest.raises(err, match=msg):
                call()
            assert same()
        # one already out, one dead
        k = handover.strike(p, 1, pt, j)
        assert k >= 0
        with pytest.raises(ValueError, match="already out"):
            handover.strike(p, 1, pt, j)
        handover.kill(p, 3, h.chest(3), j)
        with pytest.raises(ValueError, match="dead"):
            handover.kill(p, 3, h.chest(3), j)
        # a pool of a closed engine
        h.e.close()
        with pytest.raises(ValueError, match="closed"):
            handover.strike(p, 2, pt, j)
    finally:
        h.close()
