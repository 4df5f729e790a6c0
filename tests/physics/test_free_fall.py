"""Free fall: after 1 s a body has fallen g·t²/2 to within 1 mm (issue 2)."""

import numpy as np

from ae3d import engine
from ae3d import physics as P


def test_free_fall_one_second():
    with engine.Engine() as e:
        b = P.add_sphere(e, 0.2, (1.0, 10.0, -2.0))
        e.run(seconds=1.0)
        assert e.steps == 60
        p = P.position(e, b)
        g = 9.81
        assert abs(p[1] - (10.0 - 0.5 * g * 1.0**2)) < 1e-3
        assert abs(p[0] - 1.0) < 1e-12 and abs(p[2] + 2.0) < 1e-12
        assert abs(P.velocity(e, b)[1] + g) < 1e-9


def test_free_fall_any_substeps():
    with engine.Engine() as e:
        P.set_substeps(e, 1)
        b = P.add_box(e, (0.1, 0.2, 0.3), (0.0, 5.0, 0.0))
        e.run(seconds=1.0)
        assert abs(P.position(e, b)[1] - (5.0 - 0.5 * 9.81)) < 1e-3
        assert np.allclose(P.rotation(e, b), (0, 0, 0, 1))
