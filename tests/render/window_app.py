"""The window test's program (run by test_window.py under Xvfb): the box man in a window;
prints JSON lines: {"ready": [x, y]} (screen pixel of its chest), then {"click": ...}."""

from __future__ import annotations

import json
import os
import sys

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))

from render_helpers import front_camera, standing_figure  # noqa: E402

from ae3d import engine, render  # noqa: E402

W, H = 640, 480


def main() -> None:
    e = engine.Engine()
    fig = standing_figure(e)
    front_camera(e)
    state = {"frames": 0, "clicked": None, "ready": False}

    def on_click(obj, point, button):
        state["clicked"] = True
        print(json.dumps({"click": obj if isinstance(obj, int) else repr(obj),
                          "figure": fig.obj, "button": button,
                          "point": None if point is None else [float(v) for v in point]}),
              flush=True)

    def on_frame(win):
        state["frames"] += 1
        if state["frames"] == 5:
            wx, wy = win.get_location()
            x, y = render.project(e, fig.chest, W, H)
            print(json.dumps({"ready": [int(wx + x), int(wy + y)]}), flush=True)
        if state["clicked"]:
            return False
        return None

    render.window(e, W, H, title="ae3d window test", on_click=on_click, seconds=40.0,
                  on_frame=on_frame)
    e.close()


if __name__ == "__main__":
    main()
