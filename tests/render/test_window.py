"""Window: under Xvfb, a scripted click (xdotool) on the figure reaches on_click with it.

Skips with the reason when Xvfb or xdotool is missing (.ci/run installs them)."""

from __future__ import annotations

import json
import os
import shutil
import subprocess
import sys
import time

import pytest

HERE = os.path.dirname(os.path.abspath(__file__))
ROOT = os.path.dirname(os.path.dirname(HERE))


@pytest.fixture
def xvfb():
    if shutil.which("Xvfb") is None:
        pytest.skip("Xvfb is not installed (apt-get install xvfb xdotool; .ci/run does it)")
    if shutil.which("xdotool") is None:
        pytest.skip("xdotool is not installed (apt-get install xvfb xdotool; .ci/run does it)")
    r, w = os.pipe()
    proc = subprocess.Popen(["Xvfb", "-displayfd", str(w), "-screen", "0", "1024x768x24",
                             "-nolisten", "tcp"], pass_fds=(w,), stdout=subprocess.DEVNULL,
                            stderr=subprocess.DEVNULL)
    os.close(w)
    try:
        with os.fdopen(r) as f:
            num = f.readline().strip()
        if not num:
            pytest.skip("Xvfb did not start")
        yield f":{num}"
    finally:
        proc.terminate()
        try:
            proc.wait(5)
        except subprocess.TimeoutExpired:
            proc.kill()


def _read_json(proc, key, deadline):
    while time.time() < deadline:
        line = proc.stdout.readline()
        if not line:
            if proc.poll() is not None:
                break
            continue
        try:
            msg = json.loads(line)
        except ValueError:
            continue
        if key in msg:
            return msg
    err = proc.stderr.read() if proc.poll() is not None else ""
    raise AssertionError(f"no {key!r} from the window program; stderr: {err[-2000:]}")


def test_click_on_figure_reaches_on_click(xvfb):
    env = dict(os.environ, DISPLAY=xvfb, PYTHONPATH=ROOT + os.pathsep
               + os.environ.get("PYTHONPATH", ""))
    proc = subprocess.Popen([sys.executable, os.path.join(HERE, "window_app.py")], env=env,
                            stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True, cwd=ROOT)
    try:
        deadline = time.time() + 420  # a clean clone compiles the physics kernels first
        ready = _read_json(proc, "ready", deadline)
        x, y = ready["ready"]
        subprocess.run(["xdotool", "mousemove", str(x), str(y), "click", "1"], env=env,
                       check=True, timeout=20)
        msg = _read_json(proc, "click", deadline)
        assert msg["click"] == msg["figure"], msg
        assert msg["button"] == "left"
        assert msg["point"] is not None
        proc.wait(30)
    finally:
        if proc.poll() is None:
            proc.kill()
            proc.wait(5)
