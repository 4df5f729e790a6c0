"""Far-field impostors (issue 17): in the low preset a horde instance beyond ``impostor`` m is a
quad showing a picture of its figure baked from the pose bank (``render/_impostor.py``).

Held, on the box man and the Mixamo man (and the zombie), each walking from its own bank:

* an impostor draws its figure: five instances at several headings and phases, 6 m from the
  camera, drawn as impostors (``impostor`` 0.01 m) and as meshes: the pixels each covers within
  ``COVER_TOL`` of the mesh's count, the image within ``MEAN_TOL`` levels of the mesh's (mean
  absolute difference over the whole frame; measured on llvmpipe: box man 1.24 levels, Mixamo
  man 1.50, zombie 1.35; cover within 7.4%, 8.0%, 5.0% of the mesh's; the pictures are the
  nearest of 16 views and the bank's nearest frame, so edges move by a pixel or two);
* a horde far away is drawn as impostors, every instance of it (colour-id pass), and the
  instances the eye looks down on steeply keep their mesh;
* the same scene twice gives the same bits.
"""

from __future__ import annotations

import os
from dataclasses import replace

import numpy as np
import pytest

from ae3d import figure, render
from ae3d.render import _quality

ROOT = os.path.dirname(os.path.dirname(os.path.dirname(os.path.abspath(__file__))))
RIGS = ["boxman.glb", "mixamo_man.glb", "zombie.glb"]
COVER_TOL = 0.15   # share of the mesh's pixels an impostor may cover more or less
MEAN_TOL = 4.0     # levels (0..255): the impostors' frame against the meshes', mean

NEAR_IMPOSTORS = replace(_quality.LOW, impostor=0.01, lod=())  # every instance a picture
NO_IMPOSTORS = replace(_quality.LOW, impostor=0.0, lod=())


def _horde(e, rig: str, n: int):
    obj = figure.figure(e, "BankSource", os.path.join(ROOT, "assets", rig))
    f = figure.figure_of(e, obj)
    names = figure.clips(f)
    mesh = render.figure_mesh(f)
    bank = render.bank_from_clip(f, "Walk" if "Walk" in names else names[0], 24)
    figure.set_visible(f, False)
    return render.horde_new(e, mesh, bank, n, name="far")


@pytest.mark.parametrize("rig", RIGS)
def test_an_impostor_draws_its_figure(eng, rig):
    h = _horde(eng, rig, 5)
    pos = np.array([[x, 0.0, 0.0] for x in np.linspace(-3.0, 3.0, 5)])
    render.horde_set(h, pos, np.array([0.0, 0.8, 1.6, 2.4, 3.1]), np.linspace(0.0, 0.8, 5))
    render.camera_orbit(eng, target=(0.0, 1.0, 0.0), distance=6.0, yaw=0.3, pitch=0.15)
    eng.frame(1 / 60)
    s = render.scene(eng)
    imgs, covers = [], []
    for q in (NEAR_IMPOSTORS, NO_IMPOSTORS):
        r = render.renderer(eng, 640, 300, quality=q)
        ids = r.id_image(s)
        assert r.impostors_drawn == (5 if q is NEAR_IMPOSTORS else 0)
        covers.append(np.array([(ids == h.id_base + k).sum() for k in range(5)]))
        r.draw(s)
        imgs.append(r.read().astype(int))
    pic, mesh = covers
    assert (mesh > 200).all(), mesh  # each figure in view, a few hundred pixels
    assert (np.abs(pic - mesh) <= COVER_TOL * mesh).all(), (pic, mesh)
    d = np.abs(imgs[0] - imgs[1])
    assert d.mean() <= MEAN_TOL, d.mean()


@pytest.mark.parametrize("rig", RIGS[:2])
def test_a_far_horde_is_impostors_every_one_drawn(eng, rig):
    n = 48
    h = _horde(eng, rig, n)
    i = np.arange(n)
    pos = np.stack([(i % 8 - 3.5) * 2.0, np.zeros(n), -30.0 - (i // 8) * 4.0], axis=1)
    render.horde_set(h, pos, 0.3 * np.sin(i), (i * 0.137) % 1.0)
    render.camera_orbit(eng, target=(0.0, 1.0, -38.0), distance=40.0, yaw=0.0, pitch=0.12)
    eng.frame(1 / 60)
    s = render.scene(eng)
    r = render.renderer(eng, 640, 360, quality="low")
    ids = r.id_image(s)
    assert r.impostors_drawn == n
    want = set((h.id_base + i).tolist())
    got = set(np.unique(ids).tolist())
    assert want <= got, f"instances not drawn: {sorted(want - got)}"
    r.draw(s)
    a = r.read()
    r.draw(s)
    assert np.array_equal(a, r.read())
    # looked down on from straight above, the same horde keeps its mesh
    render.camera_orbit(eng, target=(0.0, 1.0, -38.0), distance=40.0, yaw=0.0, pitch=1.45)
    eng.frame(1 / 60)
    ids = r.id_image(s)
    assert r.impostors_drawn == 0
    assert want <= set(np.unique(ids).tolist())
