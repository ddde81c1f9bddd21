"""LDA with m classes: the argmax of the δ_k, the pooled covariance over n − m (seed 003)."""

from __future__ import annotations

import numpy as np
import pytest
from sklearn.discriminant_analysis import LinearDiscriminantAnalysis

from perceptron_gui.core.learners.lda import LDA


def _blobs(m: int, seed: int, n_per: int = 40):
    rng = np.random.default_rng(seed)
    centres = rng.normal(size=(m, 2)) * 3
    mix = rng.normal(size=(2, 2))
    y = np.repeat(np.arange(m), n_per + rng.integers(0, 20, m))
    X = centres[y] + rng.normal(size=(len(y), 2)) @ mix
    return X, y, rng.normal(size=(300, 2)) * 5


def _oracle_points(X, y):
    """Points whose covariance in scikit-learn's convention (the pooled scatter over n) is ours
    of the originals (over n − m): every class stretched about its mean by √(n / (n − m))."""
    n, m = len(y), len(np.unique(y))
    out = X.copy()
    for k in np.unique(y):
        mean = X[y == k].mean(axis=0)
        out[y == k] = mean + (X[y == k] - mean) * np.sqrt(n / (n - m))
    return out


@pytest.mark.parametrize("m", [3, 5, 8])
@pytest.mark.parametrize("seed", range(3))
def test_m_class_lda_is_scikit_learns_with_the_pooled_covariance_over_n_minus_m(m, seed):
    X, y, Xt = _blobs(m, seed)
    ours = LDA().fit(X, y)
    ref = LinearDiscriminantAnalysis(solver="lsqr", store_covariance=True).fit(
        _oracle_points(X, y), y)
    n = len(y)
    within = sum((X[y == k] - X[y == k].mean(0)).T @ (X[y == k] - X[y == k].mean(0))
                 for k in range(m))
    np.testing.assert_allclose(ours.covariance_, within / (n - m), rtol=1e-12)
    np.testing.assert_allclose(ours.covariance_, ref.covariance_, rtol=1e-12)
    f, g = ours.decision_function(Xt), ref.decision_function(Xt)
    assert f.shape == (300, m)
    np.testing.assert_allclose(f, g, rtol=0, atol=1e-9 * np.abs(g).max())
    np.testing.assert_allclose(ours.predict_proba(Xt), ref.predict_proba(Xt), atol=1e-9)
    np.testing.assert_array_equal(ours.predict(Xt), ref.predict(Xt))
    np.testing.assert_array_equal(ours.predict(Xt), np.argmax(f, axis=1))  # the largest δ_k
