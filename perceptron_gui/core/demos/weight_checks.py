"""The demo checks of weight space: the feasible region, and where the walk ``w_0 … w_k`` is.

Each measure reads the core's geometry, the numbers the weight-space view
draws, and answers None where the quantity does not exist (no run, a learner
that does not walk in the plane, a cone asked for with a bias).
"""

from __future__ import annotations

import math

import numpy as np

from ..theory.proof import augmented_start
from ..theory.weight_space import FeasibleRegion, feasible_region, gnomonic, trajectory

__all__ = ["MAX_WALK", "cone_angle", "cone_edges", "current_w", "cycle_updates", "region",
           "region_sides", "w_feasible", "w_in_chart", "w_repeats", "walk"]

#: The longest walk the cycle checks read in full (states beyond it are not compared).
MAX_WALK = 100_000


def _learner(p):
    """The run's learner when it walks in weight space drawn in the plane, else None."""
    ws = p.workspace
    if not (ws.running and ws.capabilities.linear and ws.capabilities.steps):
        return None
    return ws.learner if ws.learner.training_X.shape[1] == 2 else None


def region(p) -> FeasibleRegion | None:
    """The feasible region of the run's data, as the weight-space view draws it."""
    learner = _learner(p)
    if learner is None:
        return None
    return feasible_region(learner.training_X, learner.training_signs,
                           fit_intercept=bool(learner.fit_intercept),
                           bias_scale=float(learner.bias_scale))


def walk(p, m: int = MAX_WALK):
    """The trajectory ``w_0 … w_k`` of the run (every state up to ``m`` updates), or None."""
    learner = _learner(p)
    if learner is None:
        return None
    return trajectory(learner.history.updates, learner.training_X, learner.training_signs,
                      fit_intercept=bool(learner.fit_intercept),
                      bias_scale=float(learner.bias_scale), k=int(learner.n_updates_), m=m)


def current_w(p) -> np.ndarray | None:
    """The current ``w_k`` in weight space: ``(w_1, w_2)``, or ``(w_1, w_2, b / c)``."""
    learner = _learner(p)
    if learner is None:
        return None
    return augmented_start(learner.coef_[0], learner.intercept_[0], 0, learner.fit_intercept,
                           learner.bias_scale)


def cone_angle(p) -> float | None:
    """The opening of the feasible cone in degrees (no bias; 180 for a half-plane)."""
    r = region(p)
    if r is None or r.fit_intercept or r.empty or r.kind not in ("cone", "half-plane"):
        return None
    e0, e1 = r.edges
    turn = math.degrees(math.atan2(e0[0] * e1[1] - e0[1] * e1[0], float(e0 @ e1)))
    return turn % 360.0 if r.kind == "cone" else 180.0


def region_sides(p) -> int | None:
    r = region(p)
    return None if r is None or r.empty else int(r.active.size)


def w_feasible(p) -> bool | None:
    """Whether the current ``w_k`` lies in the feasible region (classifies every case).

    With a bias the test is at its gnomonic point (a ``w_k`` off the chart's
    hemisphere is not in it).
    """
    r, w = region(p), current_w(p)
    if r is None or w is None:
        return None
    if r.center is not None:
        point = gnomonic(w, r.center)
        if not np.isfinite(point).all():
            return False
    else:
        point = w
    return bool(r.contains(point[None, :])[0])


def cycle_updates(p) -> int | None:
    """Updates since the walk was last at the current ``w_k`` (None if never before)."""
    tr = walk(p)
    if tr is None or tr.count[-1] > MAX_WALK:  # a sampled walk: its states are not all there
        return None
    W = tr.w
    same = np.flatnonzero((W[:-1] == W[-1]).all(axis=1))
    return int(tr.count[-1] - tr.count[same[-1]]) if same.size else None


def w_repeats(p) -> bool | None:
    """Whether the current ``w_k`` equals an earlier state of the walk, exactly."""
    return None if _learner(p) is None else cycle_updates(p) is not None


def cone_edges(p):
    r = region(p)
    if r is None or r.fit_intercept or r.empty or r.edges.shape != (2, 2):
        return None
    return r.edges.ravel()


def w_in_chart(p) -> bool | None:
    """Whether ``w_k`` is on the chart around ``w*``: ``w_k·w* > 0`` (with a bias)."""
    r, w = region(p), current_w(p)
    if r is None or w is None or r.center is None or r.empty:
        return None
    return bool(w @ r.center > 0)
