"""OpenMP's threads sleep between the physics' parallel steps (issue 17, the strike scene's
frame): ``import ae3d`` sets OMP_WAIT_POLICY=PASSIVE unless the program set it first. Spinning
(GNU OpenMP's default) burned 5 to 6 CPU-ms of the strike scene's frame on two cores."""

import os
import subprocess
import sys

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
_PRINT = "import ae3d, os; print(os.environ.get('OMP_WAIT_POLICY'))"


def _policy(env_value):
    env = {k: v for k, v in os.environ.items() if k != "OMP_WAIT_POLICY"}
    if env_value is not None:
        env["OMP_WAIT_POLICY"] = env_value
    out = subprocess.run([sys.executable, "-c", _PRINT], cwd=ROOT, env=env, check=True,
                         capture_output=True, text=True, timeout=120)
    return out.stdout.strip().splitlines()[-1]


def test_import_makes_openmp_threads_sleep_between_steps():
    assert _policy(None) == "PASSIVE"


def test_a_programs_own_wait_policy_wins():
    assert _policy("ACTIVE") == "ACTIVE"
