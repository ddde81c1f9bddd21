"""Tests for the two-class LDA and the covariance ellipse helper."""

from __future__ import annotations

import warnings

import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st
from sklearn.base import clone
from sklearn.covariance import ledoit_wolf_shrinkage
from sklearn.discriminant_analysis import LinearDiscriminantAnalysis

from perceptron_gui.core.learners._base import NotFittedError
from perceptron_gui.core.learners.lda import LDA, covariance_ellipse, ledoit_wolf_intensity

REL = 1e-9


def _rel_close(a, b, rel=REL):
    a = np.asarray(a, dtype=float)
    b = np.asarray(b, dtype=float)
    scale = max(np.abs(a).max(), np.abs(b).max(), 1e-300)
    return np.abs(a - b).max() <= rel * scale


def _gaussian_data(seed, n_neg, n_pos, d, *, offset=0.0, scale=1.0):
    rng = np.random.default_rng(seed)
    # A rotation times axis scales in [0.5, 2]: the covariance has condition number
    # at most 16, so agreement to 1e-9 is a test of the maths, not of rounding.
    Q, _ = np.linalg.qr(rng.normal(size=(d, d)))
    A = Q * rng.uniform(0.5, 2.0, size=d)
    Xn = rng.normal(size=(n_neg, d)) @ A
    Xp = rng.normal(size=(n_pos, d)) @ A + rng.normal(scale=2.0, size=d)
    X = np.vstack([Xn, Xp]) * scale + offset
    y = np.r_[np.zeros(n_neg, dtype=int), np.ones(n_pos, dtype=int)]
    perm = rng.permutation(len(y))
    return X[perm], y[perm]


def _hand_pooled(X, y):
    classes = np.unique(y)
    n, d = X.shape
    S = np.zeros((d, d))
    for c in classes:
        Xc = X[y == c]
        for x in Xc - Xc.mean(axis=0):
            S += np.outer(x, x)
    return S / (n - 2)


def _check_against_sklearn(ours, sk, n):
    factor = (n - 2) / n
    assert _rel_close(ours.coef_, sk.coef_ * factor)
    log_prior = np.log(ours.priors_[1] / ours.priors_[0])
    assert np.isclose(log_prior, np.log(sk.priors_[1] / sk.priors_[0]), rtol=1e-12, atol=0)
    ours_rest = ours.intercept_[0] - log_prior
    sk_rest = (sk.intercept_[0] - log_prior) * factor
    assert abs(ours_rest - sk_rest) <= REL * max(abs(ours_rest), abs(sk_rest), 1e-12)


# ---------------------------------------------------------------- sklearn oracle

# Offset / spread stays <= 1e4: beyond that, rounding in x - mu alone moves both
# answers by more than 1e-9 (measured: up to 3.6e-9 at 1e6, for either library).
CASES = [
    # seed, n_neg, n_pos, d, offset, scale
    (0, 20, 20, 2, 0.0, 1.0),
    (1, 5, 40, 2, 0.0, 1.0),
    (2, 50, 7, 3, 100.0, 1.0),
    (3, 3, 2, 2, -5.0, 1e-3),
    (4, 200, 150, 5, 0.0, 1e3),
    (5, 11, 13, 1, 7.0, 1.0),
    (6, 30, 9, 4, 1e3, 1.0),
]


@pytest.mark.parametrize(("seed", "n_neg", "n_pos", "d", "offset", "scale"), CASES)
def test_matches_sklearn_lsqr(seed, n_neg, n_pos, d, offset, scale):
    X, y = _gaussian_data(seed, n_neg, n_pos, d, offset=offset, scale=scale)
    ours = LDA().fit(X, y)
    sk = LinearDiscriminantAnalysis(solver="lsqr").fit(X, y)
    _check_against_sklearn(ours, sk, len(y))
    assert not ours.singular_
    assert ours.regularization_ == 0.0


@settings(max_examples=40, deadline=None, derandomize=True)
@given(
    seed=st.integers(0, 2**32 - 1),
    n_neg=st.integers(2, 40),
    n_pos=st.integers(2, 40),
    d=st.integers(1, 3),
    offset=st.sampled_from([0.0, 3.0, -50.0]),
    scale=st.sampled_from([1.0, 0.1, 10.0]),
)
def test_matches_sklearn_lsqr_random(seed, n_neg, n_pos, d, offset, scale):
    X, y = _gaussian_data(seed, n_neg, n_pos, d, offset=offset, scale=scale)
    ours = LDA().fit(X, y)
    if ours.singular_:  # too few points for d; sklearn has no analogue of our ridge
        return
    sk = LinearDiscriminantAnalysis(solver="lsqr").fit(X, y)
    _check_against_sklearn(ours, sk, len(y))


@pytest.mark.parametrize("priors", [[0.5, 0.5], [0.2, 0.8], [0.9, 0.1]])
@pytest.mark.parametrize("seed", [10, 11, 12])
def test_given_priors_match_sklearn(seed, priors):
    # scikit-learn weights the class covariances by the priors; when both classes
    # have the same points up to a shift, any priors give the same covariance,
    # scatter / n, so the (n - 2) / n relation still holds.
    rng = np.random.default_rng(seed)
    d = 2 + seed % 2
    base = rng.normal(size=(15, d)) @ rng.normal(size=(d, d))
    X = np.vstack([base, base + rng.normal(scale=3.0, size=d)])
    y = np.r_[np.full(15, -1), np.full(15, 1)]
    ours = LDA(priors=priors).fit(X, y)
    sk = LinearDiscriminantAnalysis(solver="lsqr", priors=priors).fit(X, y)
    np.testing.assert_array_equal(ours.priors_, priors)
    _check_against_sklearn(ours, sk, len(y))


@pytest.mark.parametrize("seed", [20, 21])
def test_priors_shift_intercept_only(seed):
    X, y = _gaussian_data(seed, 12, 25, 3)
    free = LDA().fit(X, y)
    fixed = LDA(priors=[0.7, 0.3]).fit(X, y)
    np.testing.assert_allclose(fixed.coef_, free.coef_, rtol=1e-12)
    shift = np.log(0.3 / 0.7) - np.log(25 / 12)
    assert fixed.intercept_[0] - free.intercept_[0] == pytest.approx(shift, rel=1e-10)


# ---------------------------------------------------------------- the fitted quantities


def test_means_covariance_priors_by_hand():
    X, y = _gaussian_data(30, 9, 14, 3, offset=2.0)
    clf = LDA().fit(X, y)
    np.testing.assert_array_equal(clf.classes_, [0, 1])
    np.testing.assert_allclose(clf.means_[0], X[y == 0].mean(axis=0), rtol=1e-13)
    np.testing.assert_allclose(clf.means_[1], X[y == 1].mean(axis=0), rtol=1e-13)
    np.testing.assert_allclose(clf.priors_, [9 / 23, 14 / 23], rtol=1e-14)
    S = _hand_pooled(X, y)
    np.testing.assert_allclose(clf.covariance_, S, rtol=1e-12, atol=1e-14)
    np.testing.assert_allclose(clf.covariance_raw_, S, rtol=1e-12, atol=1e-14)
    Sinv = np.linalg.inv(S)
    mp, mn = clf.means_[1], clf.means_[0]
    np.testing.assert_allclose(clf.coef_[0], Sinv @ (mp - mn), rtol=1e-9)
    b = -0.5 * (mp @ Sinv @ mp - mn @ Sinv @ mn) + np.log(14 / 9)
    assert clf.intercept_[0] == pytest.approx(b, rel=1e-9)
    assert clf.shrinkage_ == 0.0 and clf.n_features_in_ == 3


def test_small_textbook_example():
    # Class -: (0,0), (2,0); class +: (0,2), (2,2), (1,5). Scatter: (2,0;0,0)
    # from class -, (2,0;0,6) from class +, so S = diag(4, 6) / 3.
    X = np.array([[0, 0], [2, 0], [0, 2], [2, 2], [1, 5]], dtype=float)
    y = np.array([-1, -1, 1, 1, 1])
    clf = LDA().fit(X, y)
    np.testing.assert_allclose(clf.covariance_, np.diag([4 / 3, 2.0]))
    np.testing.assert_allclose(clf.means_, [[1, 0], [1, 3]])
    np.testing.assert_allclose(clf.coef_, [[0.0, 1.5]], atol=1e-15)
    # b = -1/2 (mu+ S^-1 mu+ - mu- S^-1 mu-) + ln(3/2) = -1/2 (3/4 + 9/2 - 3/4) + ln 1.5
    assert clf.intercept_[0] == pytest.approx(-2.25 + np.log(1.5), rel=1e-12)


def test_shapes_predict_and_sign():
    X, y = _gaussian_data(40, 25, 30, 2)
    labels = np.where(y == 1, "spam", "ham")
    clf = LDA().fit(X, labels)
    assert clf.coef_.shape == (1, 2) and clf.intercept_.shape == (1,)
    assert clf.means_.shape == (2, 2) and clf.covariance_.shape == (2, 2)
    assert clf.priors_.shape == (2,)
    T = np.random.default_rng(41).normal(scale=3.0, size=(200, 2))
    f = clf.decision_function(T)
    assert f.shape == (200,)
    pred = clf.predict(T)
    assert pred.shape == (200,)
    np.testing.assert_array_equal(pred, np.where(f > 0, "spam", "ham"))
    assert set(pred) == {"spam", "ham"}
    P = clf.predict_proba(T)
    assert P.shape == (200, 2)
    np.testing.assert_allclose(P.sum(axis=1), 1.0, rtol=1e-12)
    np.testing.assert_allclose(P[:, 1], 1.0 / (1.0 + np.exp(-f)), rtol=1e-12)
    np.testing.assert_array_equal(clf.classes_[P.argmax(axis=1)], pred)
    np.testing.assert_allclose(np.exp(clf.predict_log_proba(T)), P, rtol=1e-12)
    assert clf.score(X, labels) == np.mean(clf.predict(X) == labels) > 0.5


def test_predict_proba_matches_sklearn_up_to_scaling():
    # Not equal (different covariance denominators), but the same ordering.
    X, y = _gaussian_data(42, 40, 40, 2)
    ours = LDA().fit(X, y)
    sk = LinearDiscriminantAnalysis(solver="lsqr").fit(X, y)
    T = np.random.default_rng(43).normal(size=(50, 2))
    np.testing.assert_array_equal(ours.predict(T), sk.predict(T))


def test_extreme_scores_do_not_warn():
    X = np.array([[0.0, 0.0], [0.0, 0.0], [1.0, 1.0], [1.0, 1.0]])
    y = [0, 0, 1, 1]
    with warnings.catch_warnings():
        warnings.simplefilter("error")
        clf = LDA().fit(X, y)
        T = np.array([[-1e6, -1e6], [1e6, 1e6]])
        P = clf.predict_proba(T)
        L = clf.predict_log_proba(T)
    np.testing.assert_array_equal(P, [[1.0, 0.0], [0.0, 1.0]])
    assert np.isfinite(L[:, 0][0]) and L[0, 1] < -1e6


def test_not_fitted_and_feature_count():
    with pytest.raises(NotFittedError, match="not fitted"):
        LDA().predict([[0.0, 0.0]])
    clf = LDA().fit(*_gaussian_data(44, 5, 5, 2))
    with pytest.raises(ValueError, match="expecting 2 features"):
        clf.decision_function([[0.0, 0.0, 0.0]])


def test_params_round_trip_and_clone():
    clf = LDA(priors=[0.3, 0.7], shrinkage=0.25)
    assert clf.get_params() == {"priors": [0.3, 0.7], "shrinkage": 0.25}
    assert clf.set_params(shrinkage="auto") is clf and clf.shrinkage == "auto"
    assert repr(LDA(shrinkage=0.5)) == "LDA(shrinkage=0.5)"
    X, y = _gaussian_data(45, 10, 10, 2)
    clf.fit(X, y)
    twin = clone(clf)
    assert type(twin) is LDA and twin.get_params() == clf.get_params()
    assert not hasattr(twin, "coef_")
    np.testing.assert_array_equal(twin.fit(X, y).coef_, clf.coef_)
    with pytest.raises(ValueError, match="Invalid parameter"):
        clf.set_params(solver="svd")


def test_fit_does_not_modify_inputs_and_is_refittable():
    X, y = _gaussian_data(46, 8, 8, 2)
    X0, y0 = X.copy(), y.copy()
    clf = LDA()
    assert clf.fit(X, y) is clf
    np.testing.assert_array_equal(X, X0)
    np.testing.assert_array_equal(y, y0)
    first = clf.coef_.copy()
    clf.fit(X[::-1], y[::-1])
    np.testing.assert_allclose(clf.coef_, first, rtol=1e-12)


# ---------------------------------------------------------------- singular cases


def _fit_strict(X, y, **params):
    with warnings.catch_warnings():
        warnings.simplefilter("error")
        return LDA(**params).fit(np.asarray(X, dtype=float), y)


def test_three_collinear_points():
    clf = _fit_strict([[0, 0], [1, 1], [3, 3]], [0, 0, 1])
    assert clf.singular_
    # S = (1/2, 1/2; 1/2, 1/2) / 1, so lambda = 1e-6 * tr(S) / d = 5e-7.
    assert clf.regularization_ == pytest.approx(5e-7, rel=1e-12)
    np.testing.assert_allclose(clf.covariance_raw_, [[0.5, 0.5], [0.5, 0.5]])
    np.testing.assert_allclose(clf.covariance_, clf.covariance_raw_ + 5e-7 * np.eye(2))
    assert np.isfinite(clf.coef_).all() and np.isfinite(clf.intercept_).all()
    np.testing.assert_array_equal(clf.predict([[0, 0], [1, 1], [3, 3]]), [0, 0, 1])


@pytest.mark.parametrize(("eps", "singular"), [(1e-3, False), (1e-5, False), (1e-7, True)])
def test_nearly_collinear_threshold(eps, singular):
    # lambda_min / lambda_max of S is about eps^2 / 16: 6e-8, 6e-12, 6e-16 against 1e-12.
    clf = _fit_strict([[0, 0], [1, 1 + eps], [2, 2], [3, 3]], [0, 0, 1, 1])
    eig = np.linalg.eigvalsh(clf.covariance_raw_)
    assert (eig[0] / eig[1] <= 1e-12) == singular
    assert clf.singular_ == singular
    assert (clf.regularization_ > 0) == singular


def test_identical_points_within_each_class():
    X = [[0, 0], [0, 0], [0, 0], [2, 1], [2, 1]]
    clf = _fit_strict(X, [-1, -1, -1, 1, 1])
    assert clf.singular_
    np.testing.assert_array_equal(clf.covariance_raw_, np.zeros((2, 2)))
    # S = 0: lambda = 1e-6 * mean squared distance to the overall mean / d.
    Xa = np.asarray(X, dtype=float)
    spread = np.sum((Xa - Xa.mean(axis=0)) ** 2) / (5 * 2)
    assert clf.regularization_ == pytest.approx(1e-6 * spread, rel=1e-12)
    assert np.isfinite(clf.coef_).all()
    np.testing.assert_array_equal(clf.predict(X), [-1, -1, -1, 1, 1])


def test_all_points_equal():
    clf = _fit_strict([[1, 2]] * 4, [0, 1, 0, 1])
    assert clf.singular_ and clf.regularization_ == 1.0
    np.testing.assert_array_equal(clf.coef_, [[0.0, 0.0]])
    assert clf.intercept_[0] == 0.0


def test_one_class_identical_other_spread():
    clf = _fit_strict([[0, 0], [0, 0], [3, 0], [3, 1], [4, 0.5]], [0, 0, 1, 1, 1])
    assert not clf.singular_  # the + class spreads in 2-D
    clf = _fit_strict([[0, 0], [0, 0], [3, 0], [4, 0], [5, 0]], [0, 0, 1, 1, 1])
    assert clf.singular_ and np.isfinite(clf.coef_).all()
    np.testing.assert_array_equal(clf.predict([[0, 0], [4, 0]]), [0, 1])


def test_duplicated_points_and_more_features_than_points():
    rng = np.random.default_rng(50)
    P = rng.normal(size=(3, 2))
    X = np.vstack([P, P, P + 4.0])
    y = np.r_[np.zeros(6), np.ones(3)]
    clf = _fit_strict(X, y)
    assert not clf.singular_  # duplicates alone do not make S singular
    X = rng.normal(size=(5, 6))
    clf = _fit_strict(X, [0, 0, 1, 1, 1])
    assert clf.singular_ and np.isfinite(clf.coef_).all()
    assert clf.regularization_ == pytest.approx(1e-6 * np.trace(clf.covariance_raw_) / 6)


def test_singular_with_shrinkage_is_not_singular():
    clf = _fit_strict([[0, 0], [1, 1], [3, 3], [4, 4]], [0, 0, 1, 1], shrinkage=0.5)
    assert not clf.singular_ and clf.regularization_ == 0.0


# ---------------------------------------------------------------- shrinkage


@pytest.mark.parametrize("alpha", [0.0, 0.3, 1.0])
def test_shrinkage_float(alpha):
    X, y = _gaussian_data(60, 10, 12, 3)
    clf = LDA(shrinkage=alpha).fit(X, y)
    S = _hand_pooled(X, y)
    expected = (1 - alpha) * S + alpha * np.trace(S) / 3 * np.eye(3)
    np.testing.assert_allclose(clf.covariance_, expected, rtol=1e-12)
    np.testing.assert_allclose(clf.covariance_raw_, S, rtol=1e-12)
    diff = clf.means_[1] - clf.means_[0]
    np.testing.assert_allclose(clf.coef_[0], np.linalg.solve(expected, diff), rtol=1e-9)
    assert clf.shrinkage_ == alpha


def test_full_shrinkage_gives_mean_difference_direction():
    X, y = _gaussian_data(61, 10, 12, 2)
    clf = LDA(shrinkage=1.0).fit(X, y)
    diff = clf.means_[1] - clf.means_[0]
    cos = clf.coef_[0] @ diff / np.linalg.norm(clf.coef_) / np.linalg.norm(diff)
    assert cos == pytest.approx(1.0, abs=1e-12)


@pytest.mark.parametrize(
    ("seed", "n_neg", "n_pos", "d"), [(70, 6, 5, 3), (71, 30, 40, 4), (72, 4, 4, 8)]
)
def test_shrinkage_auto_standardises_each_class_as_sklearn(seed, n_neg, n_pos, d):
    # features in very different units: the standardisation is what matters
    X, y = _gaussian_data(seed, n_neg, n_pos, d, offset=1.0)
    X = X * np.logspace(-1, 1.5, d)
    clf = LDA(shrinkage="auto").fit(X, y)
    S = np.zeros((d, d))
    for k in (0, 1):
        Xk = X[y == k]
        scale = Xk.std(axis=0)
        Zs = (Xk - Xk.mean(axis=0)) / scale
        a = ledoit_wolf_shrinkage(Zs)
        assert ledoit_wolf_intensity(Zs) == pytest.approx(a, rel=1e-10)
        assert clf.class_shrinkage_[k] == pytest.approx(a, rel=1e-10)
        C = Zs.T @ Zs / len(Xk)
        shrunk = (1 - a) * C + a * np.trace(C) / d * np.eye(d)
        S += len(Xk) * scale[:, None] * shrunk * scale[None, :]
    np.testing.assert_allclose(clf.covariance_, S / (len(y) - 2), rtol=1e-10)
    assert clf.shrinkage_ == pytest.approx(np.bincount(y) @ clf.class_shrinkage_ / len(y))
    sk = LinearDiscriminantAnalysis(solver="lsqr", shrinkage="auto").fit(X, y)
    _check_against_sklearn(clf, sk, len(y))


@pytest.mark.parametrize(
    ("loader", "expected"), [("wine01", 0.977), ("breast_cancer", 0.956)]
)
def test_shrinkage_auto_cross_validates_as_sklearn_on_unscaled_real_data(loader, expected):
    from sklearn.datasets import load_breast_cancer, load_wine
    from sklearn.model_selection import cross_val_score

    if loader == "wine01":
        X, y = load_wine(return_X_y=True)
        X, y = X[y < 2], y[y < 2]
    else:
        X, y = load_breast_cancer(return_X_y=True)
    ours = cross_val_score(LDA(shrinkage="auto"), X, y, cv=5).mean()
    sk_model = LinearDiscriminantAnalysis(solver="lsqr", shrinkage="auto")
    sk = cross_val_score(sk_model, X, y, cv=5).mean()
    assert round(ours, 3) == expected == round(sk, 3)
    fitted = LDA(shrinkage="auto").fit(X, y)
    factor = (len(y) - 2) / len(y)
    ref = sk_model.fit(X, y).coef_ * factor
    # breast cancer's 30 features are ill-conditioned: both solvers round at 1e-9
    assert np.abs(fitted.coef_ - ref).max() <= 1e-7 * np.abs(ref).max()


def test_shrinkage_auto_one_feature_is_zero():
    X, y = _gaussian_data(73, 6, 6, 1)
    assert LDA(shrinkage="auto").fit(X, y).shrinkage_ == 0.0
    assert ledoit_wolf_shrinkage(X - X.mean()) == 0.0


# ---------------------------------------------------------------- errors


@pytest.mark.parametrize("y", [[1, 1, 1, 1], ["a", "a", "a", "a"]])
def test_one_class_is_an_error(y):
    with pytest.raises(ValueError, match="LDA needs points of both classes"):
        LDA().fit(np.arange(8.0).reshape(4, 2), y)


@pytest.mark.parametrize(("X", "y"), [([[0, 0], [1, 1]], [0, 1]), ([[0, 0]], [1])])
def test_too_few_points_is_an_error(X, y):
    with pytest.raises(ValueError, match=r"LDA needs at least 3 points \(pooled covariance"):
        LDA().fit(X, y)


def test_other_label_errors_still_precise():
    X = np.arange(8.0).reshape(4, 2)
    with pytest.raises(ValueError, match="inconsistent numbers of samples"):
        LDA().fit(X, [0, 1, 0])
    with pytest.raises(ValueError, match=r"at least 4 points \(pooled covariance divides by n − 3"):
        LDA().fit(X[:3], [0, 1, 2])
    with pytest.raises(ValueError, match="NaN"):
        LDA().fit(X, [0.0, 1.0, np.nan, 1.0])


@pytest.mark.parametrize(
    ("priors", "message"),
    [
        ([0.5, 0.6], "sum to 1"),
        ([1.0, 0.0], "positive"),
        ([-0.5, 1.5], "positive"),
        ([0.2, 0.3, 0.5], "shape"),
        ([[0.5, 0.5]], "shape"),
        (["a", "b"], "priors"),
        ([np.nan, 0.5], "positive and finite"),
    ],
)
def test_bad_priors(priors, message):
    X, y = _gaussian_data(80, 5, 5, 2)
    with pytest.raises(ValueError, match=message):
        LDA(priors=priors).fit(X, y)


@pytest.mark.parametrize("shrinkage", [-0.1, 1.5, float("nan"), "ledoit", True, [0.5]])
def test_bad_shrinkage(shrinkage):
    X, y = _gaussian_data(81, 5, 5, 2)
    with pytest.raises(ValueError, match="shrinkage"):
        LDA(shrinkage=shrinkage).fit(X, y)


def test_bad_parameters_accepted_until_fit():
    clf = LDA(priors="nonsense", shrinkage=-3)  # stored unchanged, validated in fit
    assert clf.priors == "nonsense" and clf.shrinkage == -3


# ---------------------------------------------------------------- ellipse


@pytest.mark.parametrize(
    ("mean", "cov", "n_std"),
    [
        ([0.0, 0.0], [[1.0, 0.0], [0.0, 1.0]], 1.0),
        ([3.0, -2.0], [[2.0, 0.8], [0.8, 0.5]], 2.0),
        ([1e3, 5.0], [[1e-4, -3e-5], [-3e-5, 2e-4]], 3.0),
    ],
)
def test_covariance_ellipse_on_mahalanobis_contour(mean, cov, n_std):
    pts = covariance_ellipse(mean, cov, n_std=n_std, n_points=64)
    assert pts.shape == (64, 2)
    D = pts - np.asarray(mean)
    m2 = np.einsum("ij,jk,ik->i", D, np.linalg.inv(cov), D)
    np.testing.assert_allclose(m2, n_std**2, rtol=1e-9)
    np.testing.assert_allclose(pts[0], pts[-1], atol=1e-9 * (1 + np.abs(mean).max()))
    np.testing.assert_allclose(pts[:-1].mean(axis=0), mean, atol=1e-9 * (1 + np.abs(mean).max()))


def test_covariance_ellipse_near_the_largest_float_warns_nothing():
    """``cov + cov.T`` overflowed (a RuntimeWarning, an error here) for data at 1e154."""
    cov = np.array([[2.0, 0.8], [0.8, 0.5]])
    reference = covariance_ellipse([0.0, 0.0], cov, n_std=1.0, n_points=16)
    pts = covariance_ellipse([0.0, 0.0], cov * (1.6e308 / 2.0), n_std=1.0, n_points=16)
    assert np.isfinite(pts).all()
    np.testing.assert_allclose(pts, reference * np.sqrt(1.6e308 / 2.0), rtol=1e-9)


def test_covariance_ellipse_of_fitted_lda_and_degenerate():
    X, y = _gaussian_data(90, 20, 20, 2)
    clf = LDA().fit(X, y)
    pts = covariance_ellipse(clf.means_[1], clf.covariance_)
    assert pts.shape == (100, 2)
    seg = covariance_ellipse([0, 0], [[1.0, 1.0], [1.0, 1.0]], n_std=1.0, n_points=9)
    np.testing.assert_allclose(seg[:, 0], seg[:, 1], atol=1e-12)
    assert np.abs(seg).max() == pytest.approx(1.0)  # eigenvalue 2 along (1, 1)/sqrt 2
    dot = covariance_ellipse([1, 1], np.zeros((2, 2)), n_points=5)
    np.testing.assert_array_equal(dot, np.ones((5, 2)))


@pytest.mark.parametrize(
    ("kwargs", "message"),
    [
        ({"mean": [0, 0, 0], "cov": np.eye(2)}, "mean"),
        ({"mean": [0, 0], "cov": np.eye(3)}, "cov must have shape"),
        ({"mean": [0, 0], "cov": [[1, 0.5], [0, 1]]}, "symmetric"),
        ({"mean": [0, 0], "cov": [[1, 0], [0, -1]]}, "semi-definite"),
        ({"mean": [0, 0], "cov": np.eye(2), "n_points": 2}, "n_points"),
        ({"mean": [0, 0], "cov": np.eye(2), "n_std": -1}, "n_std"),
        ({"mean": [np.nan, 0], "cov": np.eye(2)}, "finite"),
    ],
)
def test_covariance_ellipse_errors(kwargs, message):
    with pytest.raises(ValueError, match=message):
        covariance_ellipse(**kwargs)
