"""Fixtures of the figure tests: the asset script (its GltfBuilder writes small files) and
engines closed after each test."""

from __future__ import annotations

import importlib.util
import os

import pytest

ROOT = os.path.dirname(os.path.dirname(os.path.dirname(os.path.abspath(__file__))))
ASSETS = os.path.join(ROOT, "assets")


def _load_make_assets():
    spec = importlib.util.spec_from_file_location("ae3d_make_assets",
                                                  os.path.join(ASSETS, "make_assets.py"))
    mod = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(mod)
    return mod


@pytest.fixture(scope="session")
def make_assets():
    return _load_make_assets()


@pytest.fixture
def asset():
    def path(name: str) -> str:
        return os.path.join(ASSETS, name)

    return path


@pytest.fixture
def eng():
    from ae3d import engine

    e = engine.Engine()
    yield e
    e.close()
