"""The guard on numba's on-disk cache: wipe every cached kernel when a kernel's source changes.

numba's cache (``cache=True``) checks only the file of the function it compiled. A kernel that
inlines helpers from another file (``ae3d/_math.py``), reads another module's constants as
globals (``physics/_layout.py``'s columns, frozen into the compiled code) or calls another
package's kernels (motion's kernels call physics's and figure's) would load stale machine code
after an edit there. So at import a hash is taken over the sources that compiled code can
depend on, and when it differs from the one stored beside the cache, every ``.nbi``/``.nbc`` in
every ``__pycache__`` under the package is deleted; the kernels then compile once again.

The sources hashed: every ``.py`` under the package that holds njit code, and every module of
the package those import at their top level, transitively (their constants and helpers). Comments
and blank lines are left out of the hash (they change no compiled code). Harmless when the cache
is absent, read-only, or being written by another process. A quick key (every source's size and
modification time) is kept beside the hash, so an import with nothing changed reads only ``stat``s.
"""

from __future__ import annotations

import ast
import glob
import hashlib
import os
import tokenize

_HERE = os.path.dirname(os.path.abspath(__file__))
STAMP = "kernels.stamp"


def _module_path(root: str, name: str) -> str | None:
    """The file of module ``name`` (dotted, the package's own name first) under ``root``."""
    parts = name.split(".")[1:]
    base = os.path.join(root, *parts)
    for path in (base + ".py", os.path.join(base, "__init__.py")):
        if os.path.isfile(path):
            return path
    return None


def _imports(root: str, path: str) -> set[str]:
    """Files under ``root`` that module ``path`` imports at its top level."""
    pkg = os.path.basename(root)
    rel = os.path.relpath(path, root)[:-3].split(os.sep)
    if rel[-1] == "__init__":
        rel = rel[:-1]
    here = [pkg, *rel]  # the module's dotted name
    try:
        with open(path, "rb") as f:
            tree = ast.parse(f.read())
    except (OSError, SyntaxError, ValueError):
        return set()
    names: list[str] = []
    for node in tree.body:
        if isinstance(node, ast.Import):
            names += [a.name for a in node.names]
        elif isinstance(node, ast.ImportFrom):
            if node.level:
                # the package the relative import starts from: the module's own for __init__
                up = here if path.endswith("__init__.py") else here[:-1]
                base = up[:len(up) - (node.level - 1)]
                mod = ".".join(base + ([node.module] if node.module else []))
            else:
                mod = node.module or ""
            subs = [f"{mod}.{a.name}" for a in node.names]
            mods = [n for n in subs  # from . import _layout
                    if n.startswith(pkg + ".") and _module_path(root, n) is not None]
            names += mods
            if len(mods) < len(subs):  # names defined in ``mod`` itself
                names.append(mod)
    out = set()
    for n in names:
        if n == pkg or n.startswith(pkg + "."):
            p = _module_path(root, n)
            if p is not None:
                out.add(p)
    return out


def kernel_sources(root: str = _HERE) -> list[str]:
    """Sorted paths of the sources compiled code under ``root`` can depend on (see above)."""
    todo = []
    for path in glob.glob(os.path.join(root, "**", "*.py"), recursive=True):
        if os.path.abspath(path) == os.path.abspath(__file__):
            continue  # this guard: it compiles nothing
        try:
            with open(path, encoding="utf-8") as f:
                if "@njit" in f.read():
                    todo.append(path)
        except (OSError, UnicodeDecodeError):
            continue
    seen: set[str] = set()
    while todo:
        path = todo.pop()
        if path in seen:
            continue
        seen.add(path)
        todo.extend(_imports(root, path) - seen)
    return sorted(seen)


def sources_hash(root: str = _HERE) -> str:
    """sha256 over ``kernel_sources``' tokens, comments and blank lines left out."""
    h = hashlib.sha256()
    for path in kernel_sources(root):
        try:
            with open(path, "rb") as f:
                toks = [t.string for t in tokenize.tokenize(f.readline)
                        if t.type not in (tokenize.COMMENT, tokenize.NL)]
        except (OSError, SyntaxError, tokenize.TokenError):
            continue
        rel = os.path.relpath(path, root).replace(os.sep, "/")
        h.update(rel.encode() + b"\0" + "\x1f".join(toks).encode() + b"\0")
    return h.hexdigest()


def _quick_key(root: str) -> str:
    """Every ``.py`` under ``root`` by path, size and modification time: when it matches the
    one stored, nothing changed and the token hash (slower) is not taken."""
    rows = []
    for path in sorted(glob.glob(os.path.join(root, "**", "*.py"), recursive=True)):
        try:
            st = os.stat(path)
        except OSError:
            continue
        rows.append(f"{os.path.relpath(path, root)}:{st.st_size}:{st.st_mtime_ns}")
    return hashlib.sha256("\n".join(rows).encode()).hexdigest()


def refresh_kernel_cache(root: str = _HERE) -> bool:
    """Delete every cached kernel under ``root`` if the kernel sources changed since the stamp
    (``root/__pycache__/kernels.stamp``) was written; write the new stamp. True if it wiped."""
    stamp = os.path.join(root, "__pycache__", STAMP)
    quick = _quick_key(root)
    try:
        with open(stamp) as f:
            old = f.read().split()
    except OSError:
        old = []
    if len(old) == 2 and old[1] == quick:
        return False
    digest = sources_hash(root)
    wiped = not (old and old[0] == digest)
    if wiped:
        for path in (glob.glob(os.path.join(root, "**", "__pycache__", "*.nbi"), recursive=True)
                     + glob.glob(os.path.join(root, "**", "__pycache__", "*.nbc"),
                                 recursive=True)):
            try:
                os.remove(path)
            except OSError:
                pass
    try:
        os.makedirs(os.path.dirname(stamp), exist_ok=True)
        with open(stamp, "w") as f:
            f.write(f"{digest} {quick}\n")
    except OSError:
        pass
    return wiped
