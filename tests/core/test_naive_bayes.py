"""Gaussian naive Bayes against scikit-learn's GaussianNB (the unpooled model), and the
pooled model against its formula, computed here independently."""

from __future__ import annotations

import numpy as np
import pytest
from sklearn.naive_bayes import GaussianNB as SkGaussianNB

from perceptron_gui.core import GaussianNB


def _blobs(n_classes=2, d=2, seed=0):
    rng = np.random.default_rng(seed)
    X = np.vstack([rng.normal(rng.normal(0, 3, d), 0.5 + k, size=(20 + 5 * k, d))
                   for k in range(n_classes)])
    y = np.concatenate([np.full(20 + 5 * k, k) for k in range(n_classes)])
    return X, y, rng.normal(0, 4, size=(300, d))


def _tol(a, b, atol):
    np.testing.assert_allclose(a, b, rtol=0, atol=atol * max(1.0, float(np.abs(b).max())))


@pytest.mark.parametrize("n_classes", [2, 3, 5])
@pytest.mark.parametrize("var_smoothing", [1e-9, 0.0, 1e-2, 1.0])
def test_gaussian_nb_matches_sklearn_on_held_out_data(n_classes, var_smoothing):
    X, y, Xt = _blobs(n_classes, 3, seed=n_classes)
    ours = GaussianNB(var_smoothing=var_smoothing).fit(X, y)
    ref = SkGaussianNB(var_smoothing=var_smoothing).fit(X, y)
    _tol(ours.theta_, ref.theta_, 1e-12)
    _tol(ours.var_, ref.var_, 1e-12)
    assert ours.epsilon_ == pytest.approx(ref.epsilon_, rel=1e-12, abs=0)
    np.testing.assert_array_equal(ours.class_count_, ref.class_count_)
    _tol(ours.class_prior_, ref.class_prior_, 1e-15)
    np.testing.assert_allclose(ours.predict_proba(Xt), ref.predict_proba(Xt), rtol=0, atol=1e-9)
    jll = ref.predict_joint_log_proba(Xt)
    want = jll[:, 1] - jll[:, 0] if n_classes == 2 else jll
    _tol(ours.decision_function(Xt), want, 1e-9)
    np.testing.assert_array_equal(ours.predict(Xt), ref.predict(Xt))
    assert not hasattr(ours, "coef_")  # the unpooled boundary is not a line


def test_given_priors_as_sklearn():
    X, y, Xt = _blobs(3, 2, seed=9)
    ours = GaussianNB(priors=[0.1, 0.3, 0.6]).fit(X, y)
    ref = SkGaussianNB(priors=[0.1, 0.3, 0.6]).fit(X, y)
    np.testing.assert_allclose(ours.predict_proba(Xt), ref.predict_proba(Xt), rtol=0, atol=1e-9)


def test_pooled_variances_give_a_linear_classifier_by_its_formula():
    X, y, Xt = _blobs(2, 3, seed=11)
    y = np.where(y == 1, 1, -1)
    nb = GaussianNB(shared_variance=True, var_smoothing=1e-3).fit(X, y)
    # the formula, independently: pooled within-class variance over n, plus ε
    Xn, Xp = X[y == -1], X[y == 1]
    mn, mp = Xn.mean(axis=0), Xp.mean(axis=0)
    eps = 1e-3 * X.var(axis=0).max()
    s2 = (((Xn - mn) ** 2).sum(axis=0) + ((Xp - mp) ** 2).sum(axis=0)) / len(X) + eps
    w = (mp - mn) / s2
    b = -np.sum((mp**2 - mn**2) / (2 * s2)) + np.log(len(Xp) / len(Xn))
    _tol(nb.var_, np.vstack([s2, s2]), 1e-12)
    _tol(nb.coef_, w.reshape(1, -1), 1e-12)
    _tol(nb.intercept_, np.array([b]), 1e-12)
    _tol(nb.decision_function(Xt), Xt @ w + b, 1e-9)
    _tol(nb.predict_proba(Xt)[:, 1], 1 / (1 + np.exp(-(Xt @ w + b))), 1e-12)
    np.testing.assert_array_equal(nb.predict(Xt), np.where(Xt @ w + b > 0, 1, -1))


def test_pooled_with_more_classes_each_class_has_a_linear_score():
    X, y, Xt = _blobs(3, 2, seed=12)
    nb = GaussianNB(shared_variance=True).fit(X, y)
    assert nb.coef_.shape == (3, 2) and nb.intercept_.shape == (3,)
    scores = Xt @ nb.coef_.T + nb.intercept_
    # the class scores differ from the joint log-likelihoods by one term common to the classes
    diff = nb.decision_function(Xt) - scores
    _tol(diff - diff[:, :1], np.zeros_like(diff), 1e-9)
    np.testing.assert_array_equal(nb.predict(Xt), np.argmax(scores, axis=1))


def test_refitting_unpooled_drops_the_line():
    X, y, _ = _blobs(2, 2, seed=1)
    nb = GaussianNB(shared_variance=True).fit(X, y)
    assert hasattr(nb, "coef_")
    nb.set_params(shared_variance=False).fit(X, y)
    assert not hasattr(nb, "coef_") and not hasattr(nb, "intercept_")


def test_a_constant_feature_without_smoothing_is_stated_plainly():
    X = np.array([[0.0, 1.0], [0.0, 2.0], [1.0, 3.0], [2.0, 5.0]])
    with pytest.raises(ValueError, match=r"feature 0 has zero variance in class 0.*var_smoothing"):
        GaussianNB(var_smoothing=0.0).fit(X, np.array([0, 0, 1, 1]))
    assert GaussianNB().fit(X, np.array([0, 0, 1, 1])).var_[0, 0] > 0


@pytest.mark.parametrize("params, match", [
    ({"var_smoothing": -1.0}, "var_smoothing must be"),
    ({"shared_variance": 1}, "shared_variance must be True or False"),
    ({"priors": [0.5, 0.6]}, "priors must be"),
])
def test_invalid_parameters_are_refused(params, match):
    with pytest.raises(ValueError, match=match):
        GaussianNB(**params).validate_params()
