"""Video and stills: an MP4 of N frames reads back with its size and count; a PNG still."""

from __future__ import annotations

import numpy as np
from render_helpers import front_camera, standing_figure

from ae3d import render


def test_mp4_of_n_frames_reads_back(eng, tmp_path):
    import imageio.v3 as iio

    fig = standing_figure(eng)
    front_camera(eng)
    render.camera_follow(eng, fig.obj, offset=(0.0, 0.0, 0.0), smoothing=0.0)
    path = tmp_path / "clip.mp4"
    seen = []
    n = render.record(eng, path, seconds=0.5, fps=30, width=320, height=240, progress=False,
                      on_frame=lambda img: seen.append(img.shape))
    assert n == 15 and len(seen) == 15
    assert eng.frames == 15
    frames = iio.imread(path, plugin="pyav") if _has_pyav() else _read_ffmpeg(path)
    assert len(frames) == 15
    assert frames[0].shape == (240, 320, 3)


def _has_pyav() -> bool:
    try:
        import av  # noqa: F401
        return True
    except ImportError:
        return False


def _read_ffmpeg(path):
    import imageio.v2 as imageio

    r = imageio.get_reader(str(path), format="ffmpeg")
    try:
        return [f for f in r]
    finally:
        r.close()


def test_still_writes_a_png(eng, tmp_path):
    from PIL import Image

    standing_figure(eng)
    front_camera(eng)
    path = tmp_path / "still.png"
    img = render.still(eng, path, width=320, height=240)
    back = np.asarray(Image.open(path).convert("RGB"))
    assert back.shape == (240, 320, 3)
    assert np.array_equal(back, img)
