"""The convex hull of points collinear only to rounding is their segment, once."""

from __future__ import annotations

import numpy as np

from perceptron_gui.core.theory.hull import convex_hull


def test_a_point_collinear_to_rounding_is_not_kept_on_both_chains():
    # q0, 0, q1 on one line to the last bit: the rounded orientation tests of
    # the lower and the upper chain both kept 0, and the hull listed it twice
    q0 = np.array([-0.8461538461538461, -1.2518157010522296])
    q1 = np.array([0.2692307692307692, 0.3983049958802549])
    hull = convex_hull(np.vstack([q0, [0.0, 0.0], q1]))
    rows = [tuple(r) for r in hull.tolist()]
    assert len(rows) == len(set(rows))
    assert len(rows) in (2, 3)
    if len(rows) == 2:
        assert set(rows) == {tuple(q0), tuple(q1)}


def test_every_hull_vertex_is_listed_once_on_random_near_collinear_sets():
    rng = np.random.default_rng(7)
    for _ in range(300):
        d = rng.normal(size=2)
        t = np.sort(rng.normal(size=rng.integers(3, 8)))
        P = t[:, None] * d[None, :]
        P += rng.integers(-2, 3, size=P.shape) * np.spacing(np.abs(P) + 1e-300)
        hull = convex_hull(P)
        rows = [tuple(r) for r in hull.tolist()]
        assert len(rows) == len(set(rows)), P
