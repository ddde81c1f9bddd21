"""Novikoff's theorem as a property: on every separable set, k <= (R/γ)², and the
proof's two inequalities hold at every update."""

from __future__ import annotations

import numpy as np
from hypothesis import HealthCheck, assume, given, settings
from hypothesis import strategies as st

from perceptron_gui.core import PrimalPerceptron, theory


@st.composite
def separable_sets(draw):
    """Separable 2-D sets: scaled, translated, with duplicates, sometimes nearly collinear."""
    seed = draw(st.integers(0, 2**32 - 1))
    rng = np.random.default_rng(seed)
    n = draw(st.integers(2, 40))
    angle = draw(st.floats(0, 2 * np.pi))
    normal = np.array([np.cos(angle), np.sin(angle)])
    gap = draw(st.floats(0.02, 1.0))
    X = rng.normal(size=(n, 2))
    if draw(st.booleans()):  # nearly collinear along the boundary direction
        X = X * np.array([3.0, 0.05]) @ np.array([[normal[1], -normal[0]], normal])
    side = np.where(rng.random(n) < 0.5, -1, 1)
    side[0], side[-1] = -1, 1
    X = X - np.outer(X @ normal, normal) + np.outer(side * (gap + rng.random(n)), normal)
    if draw(st.booleans()):  # duplicates
        X = np.vstack([X, X[: n // 2]])
        side = np.concatenate([side, side[: n // 2]])
    scale = draw(st.sampled_from([1e-2, 1.0, 1e2]))
    shift = draw(st.sampled_from([0.0, 3.0, -20.0]))
    X = X * scale + shift * np.array([1.0, 0.5])
    return X, side


@settings(max_examples=120, deadline=None, derandomize=True,
          suppress_health_check=[HealthCheck.too_slow])
@given(
    data=separable_sets(),
    order=st.sampled_from(["cyclic", "random"]),
    eta0=st.sampled_from([1.0, 0.1, 3.7]),
    fit_intercept=st.booleans(),
    bias_scale=st.sampled_from([1.0, 0.5, 4.0]),
)
def test_updates_never_exceed_the_bound(data, order, eta0, fit_intercept, bias_scale):
    X, y = data
    nov = theory.novikoff(X, y, fit_intercept=fit_intercept, bias_scale=bias_scale)
    assume(nov.separable)  # without a bias, a shifted set may not separate through 0
    assume(nov.bound < 20_000)
    p = PrimalPerceptron(order=order, random_state=1, eta0=eta0,
                         fit_intercept=fit_intercept, bias_scale=bias_scale,
                         max_iter=100_000).fit(X, y)
    assert p.converged_
    assert p.n_updates_ <= nov.bound * (1 + 1e-9)
    log = p.history.updates.rows()
    trace = theory.proof_trace(log.w, log.b, w_star=nov.w_star, gamma=nov.margin,
                               radius=nov.radius, eta0=eta0,
                               fit_intercept=fit_intercept, bias_scale=bias_scale)
    rel = 1e-9
    assert np.all(trace.dot >= trace.lower * (1 - rel) - 1e-12 * trace.upper ** 0.5)
    assert np.all(trace.norm2 <= trace.upper * (1 + rel))
