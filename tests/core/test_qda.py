"""QDA against scikit-learn's QuadraticDiscriminantAnalysis, the oracle, on held-out data.

Our QDA divides each class's scatter by ``n_k − 1``, as the course text does;
scikit-learn did so before 1.9 and divides by ``n_k`` since.  The oracle is
asked which it does and fitted on points whose covariance in its convention is
ours of the originals (:mod:`tests.sklearn_oracle`: each class stretched about
its own mean by ``sqrt(n_k / (n_k − 1))`` for the ``n_k`` convention, the
points themselves for the other); everything downstream (``reg_param``, the
log-odds, the posteriors) is then its own arithmetic.  The covariances are also
checked directly against ``numpy.cov`` and against scikit-learn's on the
unstretched data, brought to our denominator.
"""

from __future__ import annotations

import numpy as np
import pytest
from sklearn.discriminant_analysis import QuadraticDiscriminantAnalysis

from perceptron_gui.core import QDA
from tests.sklearn_oracle import qda_covariances_as_ours, qda_oracle_points


def _blobs(n_classes=2, d=2, seed=0, offset=0.0):
    rng = np.random.default_rng(seed)
    X, y = [], []
    for k in range(n_classes):
        A = rng.normal(size=(d, d)) * (0.4 + k)
        X.append(rng.normal(size=(25 + 7 * k, d)) @ A + rng.normal(0, 3, d) + offset)
        y.append(np.full(25 + 7 * k, k))
    X, y = np.vstack(X), np.concatenate(y)
    held_out = rng.normal(0, 4, size=(200, d)) + offset
    return X, y, held_out


def _tol(a, b, rtol):
    scale = max(1.0, float(np.abs(b).max()))
    np.testing.assert_allclose(a, b, rtol=0, atol=rtol * scale)


@pytest.mark.parametrize("n_classes", [2, 3, 4])
@pytest.mark.parametrize("reg_param", [0.0, 0.05, 0.5, 1.0])
@pytest.mark.parametrize("d", [2, 3])
def test_qda_matches_sklearn_on_held_out_data(n_classes, reg_param, d):
    X, y, Xt = _blobs(n_classes, d, seed=n_classes * 10 + d)
    ours = QDA(reg_param=reg_param).fit(X, y)
    ref = QuadraticDiscriminantAnalysis(store_covariance=True, reg_param=reg_param).fit(
        qda_oracle_points(X, y), y)
    _tol(ours.means_, ref.means_, 1e-12)
    _tol(ours.covariance_, np.array(ref.covariance_), 1e-12)
    _tol(ours.priors_, ref.priors_, 1e-15)
    np.testing.assert_allclose(ours.predict_proba(Xt), ref.predict_proba(Xt), rtol=0, atol=1e-9)
    f, g = ours.decision_function(Xt), ref.decision_function(Xt)
    assert f.shape == ((200,) if n_classes == 2 else (200, n_classes))
    _tol(f, g, 1e-9)
    np.testing.assert_array_equal(ours.predict(Xt), ref.predict(Xt))
    np.testing.assert_allclose(ours.predict_log_proba(Xt), ref.predict_log_proba(Xt),
                               rtol=1e-9, atol=1e-9)


def test_covariances_have_denominator_n_k_minus_1():
    X, y, _ = _blobs(3, 3, seed=5)
    ours = QDA().fit(X, y)
    plain = QuadraticDiscriminantAnalysis(store_covariance=True).fit(X, y)
    theirs = qda_covariances_as_ours(plain.covariance_, np.bincount(y))
    for k in range(3):
        Xk = X[y == k]
        _tol(ours.covariance_[k], np.cov(Xk, rowvar=False, ddof=1), 1e-12)
        _tol(ours.covariance_[k], theirs[k], 1e-12)
        _tol(ours.means_[k], Xk.mean(axis=0), 1e-12)


def test_two_class_log_odds_is_the_course_quadratic():
    """δ₊ − δ₋ written out with explicit inverses and determinants, independently."""
    X, y, Xt = _blobs(2, 2, seed=3)
    y = np.where(y == 1, 1, -1)
    q = QDA().fit(X, y)
    delta = []
    for c in (-1, 1):
        Xc = X[y == c]
        mu, S = Xc.mean(axis=0), np.cov(Xc, rowvar=False)
        D = Xt - mu
        quad = np.einsum("ij,jk,ik->i", D, np.linalg.inv(S), D)
        delta.append(-0.5 * np.log(np.linalg.det(S)) - 0.5 * quad + np.log(len(Xc) / len(X)))
    _tol(q.decision_function(Xt), delta[1] - delta[0], 1e-9)
    p = q.predict_proba(Xt)
    _tol(p[:, 1], 1 / (1 + np.exp(-(delta[1] - delta[0]))), 1e-12)
    np.testing.assert_array_equal(q.predict(Xt), np.where(delta[1] > delta[0], 1, -1))


def test_given_priors_shift_the_log_odds_by_their_log_ratio():
    X, y, Xt = _blobs(2, 2, seed=4)
    free = QDA().fit(X, y)
    given = QDA(priors=[0.2, 0.8]).fit(X, y)
    counts = np.bincount(y) / len(y)
    f = free.decision_function(Xt)
    np.testing.assert_allclose(  # to rounding of f, whose size is that of the held-out points
        given.decision_function(Xt) - f,
        np.full(len(Xt), np.log(0.8 / 0.2) - np.log(counts[1] / counts[0])),
        rtol=0, atol=1e-13 * np.abs(f).max())
    ref = QuadraticDiscriminantAnalysis(priors=[0.2, 0.8]).fit(qda_oracle_points(X, y), y)
    np.testing.assert_allclose(given.predict_proba(Xt), ref.predict_proba(Xt), atol=1e-9)


def test_a_singular_class_covariance_names_the_class_and_suggests_reg_param():
    rng = np.random.default_rng(0)
    t = rng.normal(size=10)
    X = np.vstack([np.column_stack([t, 2 * t + 1]), rng.normal(size=(10, 2))])
    y = np.r_[np.full(10, 7), np.full(10, 3)]
    with pytest.raises(ValueError, match=r"covariance of class 7 is singular.*reg_param"):
        QDA().fit(X, y)
    fitted = QDA(reg_param=0.01).fit(X, y)  # the suggested cure works
    assert np.isfinite(fitted.decision_function(X)).all()
    with pytest.raises(ValueError, match=r"class 'b' has only 1 point"):
        QDA().fit(rng.normal(size=(5, 2)), np.array(["a", "a", "a", "a", "b"]))


@pytest.mark.parametrize("bad", [-0.1, 1.5, "x", None])
def test_reg_param_outside_its_range_is_refused(bad):
    with pytest.raises(ValueError, match="reg_param must be a number in"):
        QDA(reg_param=bad).validate_params()


def test_priors_are_checked_for_any_number_of_classes():
    X, y, _ = _blobs(3, 2, seed=2)
    with pytest.raises(ValueError, match=r"priors must have shape \(3,\)"):
        QDA(priors=[0.5, 0.5]).fit(X, y)
    with pytest.raises(ValueError, match="priors must sum to 1"):
        QDA(priors=[0.5, 0.4, 0.4]).fit(X, y)
    assert np.allclose(QDA(priors=[0.2, 0.3, 0.5]).fit(X, y).priors_, [0.2, 0.3, 0.5])


def test_far_from_the_origin_the_means_and_covariances_stay_exact():
    X, y, Xt = _blobs(2, 2, seed=8, offset=1e6)
    q = QDA().fit(X, y)
    for k in range(2):
        Xk = X[y == k] - 1e6
        _tol(q.covariance_[k], np.cov(Xk, rowvar=False), 1e-9)
