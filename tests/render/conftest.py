"""Render tests: run headless (skip without a headless OpenGL 3.3); helpers in render_helpers."""

from __future__ import annotations

import os
import sys

import pytest

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))

pytest.importorskip("moderngl", reason="the render extra is not installed (pip install .[render])")

from ae3d import engine  # noqa: E402
from ae3d.render import _context  # noqa: E402


@pytest.fixture(autouse=True)
def _headless():
    if not _context.headless_available():
        pytest.skip("no headless OpenGL 3.3 (Mesa EGL) on this machine")


@pytest.fixture
def eng():
    e = engine.Engine()
    yield e
    e.close()
