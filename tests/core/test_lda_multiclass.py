"""LDA for any number of classes, and its posteriors against the course formula.

The posterior of the course text: Gaussian class conditionals with one shared
covariance (the pooled scatter over ``n − K``), ``P(k | x) ∝ π_k N(x; μ_k, S)``,
computed here from scratch (scipy's Gaussian density), not from the learner.
"""

from __future__ import annotations

import numpy as np
import pytest
from scipy.stats import multivariate_normal
from sklearn.discriminant_analysis import LinearDiscriminantAnalysis

from perceptron_gui.core import LDA


def _blobs(seed, counts, d=2):
    rng = np.random.default_rng(seed)
    A = rng.normal(size=(d, d)) + 2.0 * np.eye(d)
    X = np.vstack([rng.normal(size=(n, d)) @ A + 3.0 * rng.normal(size=d) for n in counts])
    y = np.concatenate([np.full(n, k) for k, n in enumerate(counts)])
    perm = rng.permutation(len(y))
    return X[perm], y[perm]


def _course_posterior(X, y, Xq, priors=None):
    """``π_k N(x; μ_k, S) / Σ_j π_j N(x; μ_j, S)`` with ``S`` the scatter over ``n − K``."""
    classes = np.unique(y)
    n, d = X.shape
    K = len(classes)
    scatter = np.zeros((d, d))
    means = []
    for c in classes:
        Xc = X[y == c]
        mu = Xc.mean(axis=0)
        means.append(mu)
        for x in Xc - mu:
            scatter += np.outer(x, x)
    S = scatter / (n - K)
    if priors is None:
        priors = np.array([np.mean(y == c) for c in classes])
    joint = np.column_stack([p * multivariate_normal(mu, S).pdf(Xq)
                             for p, mu in zip(priors, means, strict=True)])
    return joint / joint.sum(axis=1, keepdims=True)


@pytest.mark.parametrize("seed", range(4))
def test_binary_posterior_is_the_course_formula(seed):
    X, y = _blobs(seed, [30, 45])
    Xq, _ = _blobs(seed + 100, [20, 20])
    lda = LDA().fit(X, y)
    np.testing.assert_allclose(lda.predict_proba(Xq), _course_posterior(X, y, Xq),
                               rtol=1e-9, atol=1e-12)


def test_binary_posterior_with_given_priors_is_the_course_formula():
    X, y = _blobs(7, [25, 40])
    Xq, _ = _blobs(8, [15, 15])
    lda = LDA(priors=[0.8, 0.2]).fit(X, y)
    np.testing.assert_allclose(lda.predict_proba(Xq),
                               _course_posterior(X, y, Xq, np.array([0.8, 0.2])),
                               rtol=1e-9, atol=1e-12)


@pytest.mark.parametrize(("counts", "d"), [([20, 30, 25], 2), ([15, 12, 18, 30], 3)])
def test_multiclass_posterior_is_the_course_formula(counts, d):
    X, y = _blobs(11, counts, d)
    Xq, _ = _blobs(12, counts, d)
    lda = LDA().fit(X, y)
    proba = lda.predict_proba(Xq)
    assert proba.shape == (len(Xq), len(counts))
    np.testing.assert_allclose(proba, _course_posterior(X, y, Xq), rtol=1e-9, atol=1e-12)
    np.testing.assert_array_equal(lda.predict(Xq), lda.classes_[np.argmax(proba, axis=1)])


@pytest.mark.parametrize("shrinkage", [None, 0.3, "auto"])
def test_multiclass_against_sklearn_lsqr(shrinkage):
    """sklearn divides the pooled scatter by ``n`` (priors from the counts), we by ``n − K``."""
    X, y = _blobs(3, [40, 25, 35, 30], 3)
    Xq, _ = _blobs(4, [10, 10, 10, 10], 3)
    n, K = len(y), 4
    ours = LDA(shrinkage=shrinkage).fit(X, y)
    sk = LinearDiscriminantAnalysis(solver="lsqr", shrinkage=shrinkage).fit(X, y)
    factor = (n - K) / n
    np.testing.assert_allclose(ours.coef_, sk.coef_ * factor, rtol=1e-9)
    log_prior = np.log(ours.priors_)
    np.testing.assert_allclose(ours.intercept_ - log_prior,
                               (sk.intercept_ - np.log(sk.priors_)) * factor, rtol=1e-9)
    np.testing.assert_allclose(ours.means_, sk.means_, rtol=1e-12)
    np.testing.assert_array_equal(ours.classes_, sk.classes_)
    assert ours.decision_function(Xq).shape == (40, 4)
    np.testing.assert_allclose(ours.predict_proba(Xq).sum(axis=1), 1.0, rtol=1e-12)


def test_multiclass_string_labels_and_priors():
    X, y = _blobs(5, [20, 20, 20])
    labels = np.array(["a", "b", "c"])[y]
    lda = LDA(priors=[0.2, 0.3, 0.5]).fit(X, labels)
    assert lda.classes_.tolist() == ["a", "b", "c"]
    np.testing.assert_allclose(lda.priors_, [0.2, 0.3, 0.5])
    np.testing.assert_allclose(lda.predict_proba(X), _course_posterior(
        X, y, X, np.array([0.2, 0.3, 0.5])), rtol=1e-9, atol=1e-12)
    assert set(lda.predict(X)) <= {"a", "b", "c"}


@pytest.mark.parametrize(("priors", "message"), [
    ([0.5, 0.5], r"shape \(3,\)"), ([0.2, 0.3, 0.6], "sum to 1"), ([0.5, -0.1, 0.6], "positive")])
def test_multiclass_bad_priors(priors, message):
    X, y = _blobs(5, [10, 10, 10])
    with pytest.raises(ValueError, match=message):
        LDA(priors=priors).fit(X, y)


def test_binary_arithmetic_unchanged():
    """Two classes keep w, b over n − 2 and the (1, d) / (1,) shapes."""
    X, y = _blobs(9, [30, 20])
    lda = LDA().fit(X, y)
    assert lda.coef_.shape == (1, 2) and lda.intercept_.shape == (1,)
    m0, m1 = X[y == 0].mean(axis=0), X[y == 1].mean(axis=0)
    Z = np.vstack([X[y == 0] - m0, X[y == 1] - m1])
    S = Z.T @ Z / (len(y) - 2)
    w = np.linalg.solve(S, m1 - m0)
    b = -0.5 * (m1 @ np.linalg.solve(S, m1) - m0 @ np.linalg.solve(S, m0)) + np.log(20 / 30)
    np.testing.assert_allclose(lda.coef_[0], w, rtol=1e-10)
    np.testing.assert_allclose(lda.intercept_[0], b, rtol=1e-10)

