"""examples/horde_strike.py in a window under Xvfb: a click (xdotool) on a zombie strikes that one
(the renderer's colour-id picking: the zombie under the cursor is handed to the pool).

Skips with the reason when Xvfb or xdotool is missing (.ci/run installs them)."""

from __future__ import annotations

import os
import subprocess
import sys
import time

from render.test_window import _read_json, xvfb  # noqa: F401 - the Xvfb fixture

HERE = os.path.dirname(os.path.abspath(__file__))
ROOT = os.path.dirname(HERE)


def test_a_click_on_a_zombie_strikes_that_one(xvfb):  # noqa: F811
    env = dict(os.environ, DISPLAY=xvfb, PYTHONPATH=ROOT + os.pathsep
               + os.environ.get("PYTHONPATH", ""))
    proc = subprocess.Popen([sys.executable, os.path.join(ROOT, "examples", "horde_strike.py"),
                             "--probe", "--size", "640x480"], env=env, stdout=subprocess.PIPE,
                            stderr=subprocess.PIPE, text=True, cwd=ROOT)
    try:
        deadline = time.time() + 420  # a clean clone compiles the kernels first
        ready = _read_json(proc, "ready", deadline)
        x, y = ready["ready"]
        subprocess.run(["xdotool", "mousemove", str(x), str(y), "click", "1"], env=env,
                       check=True, timeout=20)
        msg = _read_json(proc, "struck", deadline)
        print(f"clicked zombie {ready['zombie']} at ({x}, {y}): {msg}")
        assert msg["struck"] == ready["zombie"], msg
        assert msg["button"] == "left"
        assert msg["out"] is True
        assert msg["outs_after"] == msg["outs_before"] + 1
        proc.wait(30)
    finally:
        if proc.poll() is None:
            proc.kill()
