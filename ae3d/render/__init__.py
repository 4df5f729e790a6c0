"""ae3d.render: the engine's scene drawn with moderngl (OpenGL 3.3 core).

In a pyglet window (``window``: the display drives ``Engine.frame``, the mouse orbits the camera,
clicks become ``on_click(object, point, button)``), or headless on EGL (Mesa's llvmpipe without a
GPU): ``still`` (a PNG), ``record`` (an MP4 of N seconds at 30 or 60 fps).

```python
from ae3d import engine, render
e = engine.Engine()
render.add_figure(e, obj, mesh, rig)            # a SkinnedMesh of your own, posed by rig.world
# the engine's glTF figures (ae3d.figure) are drawn by themselves while visible
bank = render.bank_from_clip(f, "Walk", 30)     # (frames, joints, 4, 4) skinning matrices
h = render.horde_new(e, render.figure_mesh(f), bank, 3000)
render.horde_set(h, pos, yaw, phase)            # (n, 3) m, (n,) rad, (n,) 0..1
render.camera_orbit(e, target=(0, 1, 0), distance=5.0, yaw=0.3, pitch=0.2)
render.still(e, "out/frame.png")
render.record(e, "out/clip.mp4", seconds=3.0, fps=30)
hit = render.pick(e, 640, 360)                  # hit.target, hit.point
render.window(e, on_click=lambda obj, point, button: ...)
```

The physics world's bodies (``e.physics``) are drawn too: static, kinematic and dynamic ones as
solid shapes, but for a dressed ragdoll's (``physics.ragdoll_dressed``: its figure's skin
shows it) and those ``hide_bodies`` leaves out; all of
them see-through on top with ``set_debug(e, bodies=True)``, with contacts and anchors on demand.
Picking a body gives its ``physics.Body`` handle. A figure whose object is destroyed
(``engine.destroy``) leaves the renderer at the frame's end, its GPU buffers freed.
The ground (y = 0, or the world's plane) has a 1 m grid.

Quality (``quality=`` on ``renderer``, ``still``, ``record``, ``pick``, ``window``; ``--quality``
in ``ae3d.view`` and the examples): ``"high"`` (4x MSAA, a 2048 shadow map filtered 3x3,
specular and rim light), ``"low"`` (no MSAA, a 1024 one-tap map for the few figures nearest the
camera's target and a blob under every other figure and horde instance, diffuse light, levels of
detail), or ``"auto"`` (the default: low on a software GL such as llvmpipe, high elsewhere).
Each choice is a shader variant compiled on first use. ``record`` encodes on a thread of its
own (x264 ``veryfast``) and shows a tqdm bar once a render has taken a second.
Units: m, rad. Pixel coordinates: x right, y down, from the frame's top-left corner.
"""

from ._api import (
    add_figure,
    bake_bank,
    bank_from_clip,
    camera_follow,
    camera_orbit,
    click,
    figure_mesh,
    hide_bodies,
    horde_free,
    horde_new,
    horde_set,
    pick,
    project,
    record,
    remove_figure,
    renderer,
    scene,
    set_debug,
    set_on_click,
    still,
)
from ._camera import Camera
from ._mesh import SkinnedMesh
from ._renderer import Pick, Renderer
from ._scene import GROUND, Body, FigureItem, Horde, HordeInstance, Scene
from ._window import window, window_available

__all__ = [
    "GROUND", "Body", "Camera", "FigureItem", "Horde", "HordeInstance", "Pick", "Renderer",
    "Scene", "SkinnedMesh",
    "add_figure", "bake_bank", "bank_from_clip", "camera_follow", "camera_orbit", "click",
    "figure_mesh", "hide_bodies",
    "horde_free", "horde_new", "horde_set", "pick", "project", "record", "remove_figure",
    "renderer", "scene", "set_debug", "set_on_click", "still", "window", "window_available",
]
