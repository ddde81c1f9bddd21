"""Novikoff's bound from a start w₀ ≠ 0, against brute force and against real runs."""

from __future__ import annotations

import math

import numpy as np
import pytest

from perceptron_gui.core import PrimalPerceptron, theory
from perceptron_gui.core.theory import augmented_start, proof_trace, start_bound

from .test_perceptron import separable


def _brute_force_max_k(v0, w_star, gamma, radius, eta=1.0, limit=200_000) -> int:
    """The largest integer k the two inequalities allow, by trying every k."""
    a, n0 = float(v0 @ w_star), float(v0 @ v0)
    k = np.arange(limit + 1, dtype=np.float64)
    lower = a + k * eta * gamma
    ok = (lower <= 0) | (lower * lower <= n0 + k * eta * eta * radius * radius)
    assert not ok[-1], "limit too small"
    return int(np.flatnonzero(ok).max())


@pytest.mark.parametrize("seed", range(40))
def test_the_root_is_the_largest_k_the_inequalities_allow(seed):
    rng = np.random.default_rng(seed)
    d = 3
    w_star = rng.normal(size=d)
    w_star /= np.linalg.norm(w_star)
    gamma, radius = rng.uniform(0.05, 0.5), rng.uniform(1.0, 4.0)
    v0 = rng.normal(size=d) * rng.choice([0.0, 0.3, 3.0, 30.0])
    eta = rng.choice([1.0, 0.5, 2.0])
    bound = start_bound(v0, w_star, gamma, radius, eta)
    assert math.floor(bound + 1e-9) == _brute_force_max_k(v0, w_star, gamma, radius, eta)


def test_from_zero_the_bound_is_r_over_gamma_squared():
    w_star = np.array([0.6, 0.8])
    assert start_bound(np.zeros(2), w_star, 0.25, 2.0) == pytest.approx((2.0 / 0.25) ** 2)
    assert start_bound(np.zeros(2), w_star, 0.25, 2.0, eta0=3.0) == pytest.approx(64.0)
    assert start_bound(np.ones(2), w_star, 0.0, 2.0) == math.inf


def test_a_start_along_w_star_lowers_the_bound_and_against_it_raises_it():
    w_star = np.array([0.6, 0.8])
    zero = start_bound(np.zeros(2), w_star, 0.25, 2.0)
    assert start_bound(5 * w_star, w_star, 0.25, 2.0) < zero
    assert start_bound(-5 * w_star, w_star, 0.25, 2.0) > zero


@pytest.mark.parametrize("seed", range(8))
@pytest.mark.parametrize("scale", [0.5, 5.0, 50.0])
def test_every_run_from_w0_stays_under_its_bound_and_the_proof_holds(seed, scale):
    X, y = separable(60, 0.2, seed, offset=(1.0, -0.5))
    nov = theory.novikoff(X, y, fit_intercept=True, bias_scale=1.0)
    assert nov.separable
    rng = np.random.default_rng(100 + seed)
    w0, b0 = rng.normal(size=2) * scale, float(rng.normal() * scale)
    run = PrimalPerceptron(max_iter=100_000).fit(X, y, coef_init=w0, intercept_init=b0)
    assert run.converged_
    v0 = augmented_start(w0, b0, 3, True, 1.0)
    bound = start_bound(v0, nov.w_star, nov.margin, nov.radius)
    assert run.n_updates_ <= bound
    rows = run.update_log.rows()
    trace = proof_trace(rows.w, rows.b, w_star=nov.w_star, gamma=nov.margin,
                        radius=nov.radius, w0=w0, b0=b0)
    assert trace.holds
    assert trace.lower[0] == pytest.approx(v0 @ nov.w_star + nov.margin)
    assert trace.upper[0] == pytest.approx(v0 @ v0 + nov.radius ** 2)
