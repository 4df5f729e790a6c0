"""The engine's frame loop: phases, fixed steps owed, destroy at the frame's end, close."""

import pytest

from ae3d import engine
from ae3d.engine import priorities


class Recorder(engine.PhaseProcessor):
    def __init__(self, e, phase, log, tag):
        super().__init__(e)
        self.phase = phase
        self.log = log
        self.tag = tag

    def run(self, e, dt):
        self.log.append((self.tag, round(dt, 9)))


def test_frame_runs_fixed_steps_owed_then_pose_once():
    with engine.Engine() as e:
        log = []
        e.add_processor(Recorder(e, priorities.FIXED, log, "post"), priorities.MOTION_POST_STEP)
        e.add_processor(Recorder(e, priorities.FIXED, log, "pre"), priorities.MOTION_PRE_STEP)
        e.add_processor(Recorder(e, priorities.POSE, log, "pose"), priorities.MOTION_POSE)
        taken = e.frame(2.5 / 60.0)
        assert taken == 2
        assert [t for t, _ in log] == ["pre", "post", "pre", "post", "pose"]
        log.clear()
        assert e.frame(0.5 / 60.0) == 1  # the half step owed comes due
        e.run(seconds=1.0)
        assert e.steps == 3 + 60


def test_run_frames_and_bad_arguments():
    with engine.Engine() as e:
        e.run(frames=10)
        assert e.steps == 10 and e.frames == 10
        with pytest.raises(ValueError):
            e.run()
        with pytest.raises(ValueError):
            e.frame(float("nan"))
    with pytest.raises(ValueError):
        engine.Engine(fixed_dt=0.0)


class Owned:
    def __init__(self, log):
        self.log = log

    def release(self, e):
        self.log.append("released")


def test_destroy_at_frame_end_and_twice_raises():
    with engine.Engine() as e:
        log = []
        o = e.create(Owned(log))
        engine.destroy(e, o)
        assert log == []
        with pytest.raises(ValueError, match="already destroyed"):
            engine.destroy(e, o)
        e.frame(1 / 60)
        assert log == ["released"]
        assert not e.exists(o)
        with pytest.raises(ValueError, match="not an object"):
            engine.destroy(e, o)
        with pytest.raises(TypeError):
            engine.destroy(e, "zombie")


def test_engines_live_side_by_side_and_close_frees():
    a, b = engine.Engine(), engine.Engine()
    log = []
    oa = a.create(Owned(log))
    ob = b.create(Owned(log))
    assert a.exists(oa) and b.exists(ob)
    a.close()
    assert log == ["released"]
    assert b.exists(ob)
    b.close()
    assert log == ["released", "released"]
    with pytest.raises(RuntimeError):
        a.frame(1 / 60)
