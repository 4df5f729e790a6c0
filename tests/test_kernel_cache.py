"""The guard on numba's cache (``ae3d/_cache.py``) covers the whole package.

Edit-simulation on a small package in a temporary folder laid out as ae3d is (a kernel in one
package inlining a helper and reading constants from others): a changed source that compiled
code depends on wipes the cached kernels (.nbi/.nbc) in every package's ``__pycache__``; a
comment, an untouched import, or a module no kernel depends on wipes nothing.
"""

from __future__ import annotations

import os

import pytest

from ae3d import _cache

FILES = {
    "__init__.py": '"""pkg."""\n',
    "_math.py": "from numba import njit\n\n\n@njit(cache=True, inline='always')\n"
                "def qmul(a, b):\n    return a * b\n",
    "physics/__init__.py": "",
    "physics/_layout.py": "B_POS = 0\n",
    "physics/_kernels.py": "from numba import njit\n\nfrom pkg._math import qmul\n\n"
                           "from . import _layout as L\n\n\n@njit(cache=True)\n"
                           "def step(a):\n    return qmul(a[L.B_POS], 2.0)\n",
    "motion/__init__.py": "",
    "motion/_kernels.py": "from numba import njit\n\nfrom pkg.physics._kernels import step\n\n\n"
                          "@njit(cache=True)\ndef pre(a):\n    return step(a)\n",
    "render/__init__.py": "",
    "render/_window.py": "WIDTH = 640\n",
}


def _write(root, rel, text):
    path = os.path.join(root, rel)
    os.makedirs(os.path.dirname(path), exist_ok=True)
    with open(path, "w") as f:
        f.write(text)


def _cached(root):
    """Fake cache files beside each package's kernels; returns their paths."""
    out = []
    for pkg in ("", "physics", "motion"):
        for ext in ("nbi", "nbc"):
            rel = os.path.join(pkg, "__pycache__", f"_kernels.k-1.py311.{ext}")
            _write(root, rel, "x")
            out.append(os.path.join(root, rel))
    return out


@pytest.fixture
def pkg(tmp_path):
    root = str(tmp_path / "pkg")
    for rel, text in FILES.items():
        _write(root, rel, text)
    assert _cache.refresh_kernel_cache(root)  # no stamp yet: wiped (nothing there) and stamped
    return root


def _edit(root, rel, old, new):
    path = os.path.join(root, rel)
    with open(path) as f:
        text = f.read()
    assert old in text
    with open(path, "w") as f:
        f.write(text.replace(old, new))
    st = os.stat(path)
    os.utime(path, ns=(st.st_atime_ns, st.st_mtime_ns + 1_000_000))  # a later mtime, surely


def test_sources_followed_through_imports(pkg):
    rels = {os.path.relpath(p, pkg) for p in _cache.kernel_sources(pkg)}
    assert rels == {"_math.py", os.path.join("physics", "_layout.py"),
                    os.path.join("physics", "_kernels.py"), os.path.join("motion", "_kernels.py")}


def test_nothing_changed_keeps_the_cache(pkg):
    files = _cached(pkg)
    assert not _cache.refresh_kernel_cache(pkg)
    assert all(os.path.exists(p) for p in files)


@pytest.mark.parametrize("rel, old, new", [
    ("_math.py", "a * b", "b * a"),                                  # a shared inlined helper
    (os.path.join("physics", "_layout.py"), "B_POS = 0", "B_POS = 1"),  # a column constant
    (os.path.join("physics", "_kernels.py"), "2.0", "3.0"),          # another package's kernel
])
def test_an_edit_wipes_every_packages_cache(pkg, rel, old, new):
    files = _cached(pkg)
    _edit(pkg, rel, old, new)
    assert _cache.refresh_kernel_cache(pkg)
    left = [p for p in files if os.path.exists(p)]
    assert left == []  # motion's cached kernels too, though motion's files did not change
    assert not _cache.refresh_kernel_cache(pkg)  # stamped: once


@pytest.mark.parametrize("rel, old, new", [
    ("_math.py", "def qmul", "# a comment\ndef qmul"),                 # a comment only
    (os.path.join("render", "_window.py"), "640", "800"),            # no kernel reads it
])
def test_what_compiles_nothing_wipes_nothing(pkg, rel, old, new):
    files = _cached(pkg)
    _edit(pkg, rel, old, new)
    assert not _cache.refresh_kernel_cache(pkg)
    assert all(os.path.exists(p) for p in files)


def test_the_package_is_guarded():
    """ae3d's own kernels: every package's kernel files and the shared math are hashed."""
    rels = {os.path.relpath(p, _cache._HERE).replace(os.sep, "/")  # noqa: SLF001
            for p in _cache.kernel_sources()}
    for want in ("_math.py", "figure/_kernels.py", "motion/_step.py", "motion/_muscles.py",
                 "motion/_layout.py", "physics/_layout.py", "physics/_kernels_step.py",
                 "physics/_kernels_dress.py", "motion/_fall.py", "motion/_landing.py"):
        assert want in rels
