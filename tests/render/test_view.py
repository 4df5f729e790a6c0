"""``python -m ae3d.view PATH [CLIP]`` headless: an MP4 of the clip, or a PNG still."""

from __future__ import annotations

import pytest
from render_helpers import box_man_file


def test_view_writes_video_and_still(tmp_path, capsys):
    import imageio.v2 as imageio

    from ae3d import view

    path = box_man_file()
    if path is None:
        pytest.skip("assets/ has no box man .glb yet")
    out = tmp_path / "walk.mp4"
    assert view.main([path, "Walk", "--headless", "--seconds", "0.2", "--size", "320x240",
                      "--out", str(out)]) == 0
    r = imageio.get_reader(str(out), format="ffmpeg")
    try:
        frames = [f for f in r]
    finally:
        r.close()
    assert len(frames) == 6 and frames[0].shape == (240, 320, 3)
    png = tmp_path / "idle.png"
    assert view.main([path, "--still", "--size", "320x240", "--out", str(png)]) == 0
    assert png.exists()
    assert view.main([path, "--list"]) == 0
    assert "Walk" in capsys.readouterr().out
    with pytest.raises(SystemExit):
        view.main([path, "NoSuchClip", "--headless"])
