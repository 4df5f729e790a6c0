"""ae3d.figure: skinned glTF figures, their rigs, clips and skinning.

```python
from ae3d import engine, figure
e = engine.Engine()
z = figure.figure(e, "Zombie", "assets/zombie.glb")   # the object that wears it
f = figure.figure_of(z)                                # or figure.figure_of(e, z)
figure.play(f, "Walk", 1.0, True)                      # clip, speed, loop
figure.place(f, (2.0, 0.0, 0.0), math.pi / 2)          # the object's placement: m, rad about +y
e.run(seconds=1.0)                                     # the pose phase plays the clip
pose = figure.sample(f, "Walk", 0.25)                  # a pose without playing (Pose arrays)
engine.destroy(e, z)                                   # figure gone at the frame's end
```

Units: m, s, rad; Y up; quaternions (x, y, z, w); matrices 4x4, column vectors
(``p_world = M @ p``), float64.

The rig (``f.rig``, a ``Rig``): one bone per node of the file, parents before children.
``rig.names`` (n,), ``rig.parents`` (n,) int32 (-1 for a top node), ``rig.index`` name -> index,
``rig.bone(name)``, ``rig.is_joint`` (n,) bool (a skin's joint, not a mesh or armature
node); the local pose ``rig.translation`` (n, 3) m, ``rig.rotation`` (n, 4) xyzw,
``rig.scale`` (n, 3) (where clips write, and what the ragdoll reads and writes); the file's pose
``rig.rest_translation/rest_rotation/rest_scale``; ``rig.root`` (4, 4) the object's placement;
``rig.world`` (n, 4, 4) world matrices, from ``rig.update_world()`` (njit forward kinematics);
``rig.world_rotation(b)``, ``rig.world_position(b)``, and ``rig.set_world_pose(b, p, q)`` to pose
a bone by where it is in the world (the ragdoll's bodies written back, parents first).
Nodes above the armature (Mixamo's root turned -90° about x and scaled 0.01) are bones too.

Clips: ``play(f, clip, speed, loop)``, ``stop(f)``, ``resume(f)``, ``playing(f)``, ``clip(f)``,
``clip_time(f)``, ``set_clip_time(f, t)``, ``clip_duration(f, clip)``, ``clips(f)``. A clip
writes only the bones its channels name; the rest stay where they were. Each frame's pose phase
(``priorities.FIGURE_ANIMATE``) advances the playing clips by dt·speed, samples them into the
rigs and updates those rigs' ``world``. Whoever else writes a rig's pose (the motion module's
pose phase, a script) calls ``rig.update_world()`` after; ``skinning_matrices`` and ``skin``
do so themselves, and the play calls, ``place`` and ``reset_pose`` keep ``world`` current.

Renderer surface (read-only; per figure ``f``, from ``figures(e)`` or ``figure_of``):

- ``f.visible`` (bool; hidden figures, as parked pool figures, are not drawn), ``f.released``;
- ``f.rig.world`` (n, 4, 4) world matrices of every bone;
- ``f.model`` the parsed file, shared by every figure of that file (key GPU buffers on it;
  ``on_model_freed(cb)`` says when it goes, ``on_release(e, cb)`` when a figure goes);
- ``f.model.meshes``: list of ``Mesh`` (one per triangle primitive), each with ``positions``
  (v, 3) m and ``normals`` (v, 3) in bind space, ``joints`` (v, 4) int32 indices into its skin's
  joints, ``weights`` (v, 4) summing to 1, ``indices`` (k,) uint32 triangles (counter-clockwise
  front), ``color`` (4,) linear RGBA base colour, ``skin`` an index into ``f.model.skins``;
- ``f.model.skins[k]``: ``bones`` (j,) int32, skin joint -> rig bone index, and
  ``inverse_binds`` (j, 4, 4);
- ``skinning_matrices(f, k)`` (j, 4, 4) = ``rig.world[bones[j]] @ inverse_binds[j]``: a mesh
  vertex drawn at ``sum_i weights[i] * mats[joints[i]] @ (position, 1)``, in world space.

``skin(f)`` does that on the CPU (njit) for tests and as a fallback. ``humanoid_scheme(rig)``
says which humanoid naming a rig follows (0 pipeline, 1 Mixamo, -1 neither) and
``humanoid_bones(rig)`` gives its bones by role.
"""

from __future__ import annotations

import math
import os
from typing import NamedTuple

import numpy as np

from ae3d import _validate as V
from ae3d.engine import Engine

from . import _figure
from ._clips import Channel, Clip
from ._figure import Figure, loaded_files, on_model_freed
from ._gltf import FigureFileError, Mesh, Model, Skin, load_model
from ._kernels import skin_vertices as _skin_vertices
from ._kernels import skinning_matrices as _skinning_kernel
from ._naming import (
    HUMANOID_ROLES,
    MIXAMO,
    MIXAMO_NAMES,
    NO_SCHEME,
    OPTIONAL_ROLES,
    PIPELINE,
    humanoid_bones,
    humanoid_scheme,
)
from ._rig import Rig, RigTemplate


class Pose(NamedTuple):
    """A local pose of a rig: translation (n, 3) m, rotation (n, 4) xyzw, scale (n, 3)."""

    translation: np.ndarray
    rotation: np.ndarray
    scale: np.ndarray


# -- figures in an engine -------------------------------------------------------------------------
def figure(e: Engine, name: str, path: str | os.PathLike[str]) -> int:
    """Load a skinned .glb/.gltf (parsed once per file, shared) and make an object wearing it.

    ``path`` is found from the working directory, or else in the repository's ``assets/``
    (so ``"zombie.glb"`` and ``"assets/zombie.glb"`` both find the horde's figure).

    Returns the object handle. Raises FileNotFoundError for a missing file and
    FigureFileError (a ValueError) naming the fault for a file that is not a skinned glTF.
    """
    return _figure.make_figure(e, name, path)


def figure_of(*args: object) -> Figure:
    """``figure_of(object)`` or ``figure_of(e, object)``: the Figure an object wears.

    With one argument the engine is the current one (the last one used), as in the spec's
    scripts; pass the engine when several are alive. ValueError if the object wears none.
    """
    return _figure.figure_of(*args)


def figures(e: Engine) -> list[Figure]:
    """Every figure of engine ``e`` not yet released, in creation order."""
    return _figure.figures(e)


def on_release(e: Engine, callback) -> None:  # type: ignore[no-untyped-def]
    """Call ``callback(figure)`` when a figure of ``e`` is released (destroyed or closed)."""
    _figure.on_release(e, callback)


def load(path: str | os.PathLike[str]) -> Model:
    """Parse a figure file on its own, outside the shared cache (a fresh Model each call)."""
    return load_model(_figure.resolve_path(os.fspath(path)))


# -- placement ------------------------------------------------------------------------------------
def place(f: Figure, position=(0.0, 0.0, 0.0), yaw: float = 0.0) -> None:  # type: ignore[no-untyped-def]
    """Place the figure's object: ``position`` (3,) m, turned ``yaw`` rad about +y."""
    _figure.check_figure(f)
    p = V.position(position, "position")
    yaw = V.real(yaw, "yaw", unit="rad")
    c, s = math.cos(yaw), math.sin(yaw)
    m = np.array([[c, 0.0, s, p[0]], [0.0, 1.0, 0.0, p[1]], [-s, 0.0, c, p[2]],
                  [0.0, 0.0, 0.0, 1.0]])
    f.rig.set_root(m)
    f.rig.update_world()


def set_root(f: Figure, matrix: np.ndarray) -> None:
    """Place the figure's object by a (4, 4) matrix (the parent of the rig's top nodes)."""
    _figure.check_figure(f)
    m = V.array(matrix, "matrix", (4, 4))
    V.position(m[:3, 3], "matrix's translation")
    f.rig.set_root(m)
    f.rig.update_world()


def set_visible(f: Figure, visible: bool) -> None:
    """Show or hide the figure (a hidden figure is still animated, but not drawn)."""
    _figure.check_figure(f)
    f.visible = V.boolean(visible, "visible")


def reset_pose(f: Figure) -> None:
    """Put the figure's nodes back as the file has them."""
    _figure.check_figure(f)
    f.rig.reset()


# -- clips ----------------------------------------------------------------------------------------
def play(f: Figure, clip: str, speed: float = 1.0, loop: bool = True) -> None:
    """Play ``clip`` from its start (its end for a negative speed) at ``speed`` (1 = as made),
    looping or holding its last pose. The rig takes the clip's first pose at once."""
    _figure.play(f, clip, speed, loop)


def stop(f: Figure) -> None:
    """Stop the clip where it is: the pose stays, the time no longer advances."""
    _figure.check_figure(f)
    f.playing = False


def resume(f: Figure) -> None:
    """Play the current clip on from its time."""
    _figure.check_figure(f)
    if f.clip is None:
        raise ValueError(f"figure {f.name!r} has no clip to resume")
    f.playing = True


def playing(f: Figure) -> bool:
    """True while a clip plays (a clip that does not loop stops at its end)."""
    return bool(_figure.check_figure(f).playing)


def clip(f: Figure) -> str | None:
    """The current clip's name (playing or stopped), or None."""
    return _figure.check_figure(f).clip


def clip_time(f: Figure) -> float:
    """The current clip's time (s), within [0, duration]."""
    return float(_figure.check_figure(f).time)


def set_clip_time(f: Figure, time: float) -> None:
    """Move the current clip to ``time`` (s; wrapped when it loops, clamped when not) and pose
    the rig there at once."""
    _figure.set_time(f, time)


def clip_duration(f: Figure, clip: str | None = None) -> float:
    """A clip's duration (s): its last key's time; the current clip's when ``clip`` is None."""
    _figure.check_figure(f)
    name = f.clip if clip is None else clip
    if name is None:
        raise ValueError(f"figure {f.name!r} has no current clip")
    return _figure.get_clip(f, name).duration


def clips(f: Figure | Model) -> list[str]:
    """The names of the figure's clips, in the file's order."""
    return list(_model_of(f).clips)


def _model_of(f: Figure | Model) -> Model:
    if isinstance(f, Model):
        return f
    if not isinstance(f, Figure):
        raise TypeError(f"f must be a Figure or a Model, not {type(f).__name__}")
    return _figure.check_figure(f).model


def rest_pose(f: Figure | Model) -> Pose:
    """The file's pose (fresh arrays)."""
    rig = _model_of(f).rig
    return Pose(rig.rest_translation.copy(), rig.rest_rotation.copy(), rig.rest_scale.copy())


def current_pose(f: Figure) -> Pose:
    """A copy of the figure's local pose."""
    rig = _figure.check_figure(f).rig
    return Pose(rig.translation.copy(), rig.rotation.copy(), rig.scale.copy())


def sample(f: Figure | Model, clip: str, time: float, base: Pose | None = None) -> Pose:
    """The pose of ``clip`` at ``time`` (s, clamped to its keys), without playing it.

    Bones the clip does not move keep ``base``'s pose (the file's pose by default).
    Returns fresh arrays; nothing of the figure changes.
    """
    model = _model_of(f)
    time = V.real(time, "time", unit="s")
    try:
        c = model.clips[clip]
    except (KeyError, TypeError):
        raise ValueError(f"no clip {clip!r} (there are {sorted(model.clips)})") from None
    pose = rest_pose(model) if base is None else Pose(*(np.array(a, dtype=np.float64)
                                                        for a in base))
    n = len(model.rig.names)
    if pose.translation.shape != (n, 3) or pose.rotation.shape != (n, 4) or \
            pose.scale.shape != (n, 3):
        raise ValueError(f"base must be a Pose of {n} bones")
    c.sample_into(float(time), pose.translation, pose.rotation, pose.scale)
    return pose


def pose_world(f: Figure | Model, pose: Pose, root: np.ndarray | None = None) -> np.ndarray:
    """World matrices (n, 4, 4) of ``pose`` on the figure's rig, placed by ``root`` (4, 4;
    the figure's own placement by default, the origin for a Model). Nothing is touched."""
    if isinstance(f, Model):
        rig = Rig(f.rig)
    else:
        rig = _figure.check_figure(f).rig
    return rig.world_of(pose.translation, pose.rotation, pose.scale, root)


def _check_skin(model: Model, skin: int) -> None:
    V.integer(skin, "skin")
    if not 0 <= skin < len(model.skins):
        raise ValueError(f"skin must be in 0..{len(model.skins) - 1}")


def _world_arg(world: np.ndarray, n: int) -> np.ndarray:
    """``world`` as contiguous float64 bone matrices (n, 4, 4); ValueError if not that shape."""
    w = np.ascontiguousarray(world, dtype=np.float64)
    if w.shape != (n, 4, 4):
        raise ValueError(f"world must be ({n}, 4, 4)")
    return w


def _skin_mats(world: np.ndarray, sk: Skin) -> np.ndarray:
    """Skinning matrices (j, 4, 4) of skin ``sk`` for checked bone world matrices (njit)."""
    out = np.empty((sk.bones.size, 4, 4))
    _skinning_kernel(world, sk.bones, sk.inverse_binds, out)
    return out


def skinning_from_world(f: Figure | Model, world: np.ndarray, skin: int = 0) -> np.ndarray:
    """Skinning matrices (j, 4, 4) of skin ``skin`` for bone world matrices ``world``
    (n, 4, 4), e.g. from ``pose_world`` (a pose bank's frames)."""
    model = _model_of(f)
    _check_skin(model, skin)
    w = _world_arg(world, len(model.rig.names))
    return _skin_mats(w, model.skins[skin])


# -- skinning -------------------------------------------------------------------------------------
def skinning_matrices(f: Figure, skin: int = 0, update: bool = True,
                      out: np.ndarray | None = None) -> np.ndarray:
    """Skinning matrices (j, 4, 4) of the figure's skin ``skin``:
    ``rig.world[bones[j]] @ inverse_binds[j]``. ``update`` recomputes ``rig.world`` first."""
    _check_skin(_figure.check_figure(f).model, skin)
    return _figure.skinning_matrices(f, skin, update, out)


def skin(f: Figure, world: np.ndarray | None = None) -> list[tuple[np.ndarray, np.ndarray]]:
    """World-space (positions (v, 3) m, normals (v, 3)) of each mesh of ``f.model.meshes``,
    skinned on the CPU (njit) at the rig's pose, or at ``world`` (n, 4, 4) bone matrices."""
    _figure.check_figure(f)
    if world is None:
        world = f.rig.update_world()
    world = _world_arg(world, f.rig.count)
    mats = [_skin_mats(world, sk) for sk in f.model.skins]
    out = []
    for mesh in f.model.meshes:
        p = np.empty_like(mesh.positions)
        n = np.empty_like(mesh.normals)
        _skin_vertices(mesh.positions, mesh.normals, mesh.joints, mesh.weights,
                       mats[mesh.skin], p, n)
        out.append((p, n))
    return out


def bind_height(f: Figure | Model) -> float:
    """The figure's height (m) as the file poses it, placed at the origin: its skinned
    vertices' highest y less their lowest."""
    model = _model_of(f)
    rig = Rig(model.rig)
    lo, hi = math.inf, -math.inf
    for mesh in model.meshes:
        sk = model.skins[mesh.skin]
        m = np.empty((sk.bones.size, 4, 4))
        _skinning_kernel(rig.world, sk.bones, sk.inverse_binds, m)
        p = np.empty_like(mesh.positions)
        n = np.empty_like(mesh.normals)
        _skin_vertices(mesh.positions, mesh.normals, mesh.joints, mesh.weights, m, p, n)
        lo = min(lo, float(p[:, 1].min()))
        hi = max(hi, float(p[:, 1].max()))
    return hi - lo


__all__ = [
    "HUMANOID_ROLES", "MIXAMO", "MIXAMO_NAMES", "NO_SCHEME", "OPTIONAL_ROLES", "PIPELINE",
    "Channel", "Clip", "Figure", "FigureFileError", "Mesh", "Model", "Pose", "Rig",
    "RigTemplate", "Skin",
    "bind_height", "clip", "clip_duration", "clip_time", "clips", "current_pose", "figure",
    "figure_of", "figures", "humanoid_bones", "humanoid_scheme", "load", "loaded_files",
    "on_model_freed", "on_release", "place", "play", "playing", "pose_world", "reset_pose",
    "rest_pose", "resume", "sample", "set_clip_time", "set_root", "set_visible", "skin",
    "skinning_from_world", "skinning_matrices", "stop",
]
