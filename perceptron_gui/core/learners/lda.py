"""Linear discriminant analysis, and the covariance ellipse the GUI draws.

Gaussian classes with one shared covariance: the Bayes rule is linear.
"""

from __future__ import annotations

import math
import numbers

import numpy as np

from ._base import (
    BaseLearner,
    accurate_mean,
    check_priors,
    check_X,
    encode_classes,
    encode_labels,
    scale_exponent,
    singular,
    softmax_by_class,
    softmax_log,
)
from .params import LDA_PARAMS, check

__all__ = ["LDA", "covariance_ellipse", "ledoit_wolf_intensity", "two_class_line"]

EPS = np.finfo(np.float64).eps

#: Relative size of the ridge added to a singular covariance.
RIDGE_FACTOR = 1e-6


def ledoit_wolf_intensity(Z) -> float:
    r"""Ledoit–Wolf shrinkage intensity of already centred data.

    ``Z`` of shape (n_samples, n_features) is centred (for LDA: each point less
    its class mean); the intensity in ``[0, 1]`` is towards ``(tr(C) / d) I``.

    Notes
    -----
    With :math:`C = Z^T Z / n`, :math:`\mu = \operatorname{tr}(C) / d`,

    .. math::

        \delta = \frac{1}{d} \lVert C - \mu I \rVert_F^2, \qquad
        \beta = \frac{1}{d\, n} \sum_{i,j} \Bigl(\frac{1}{n} \sum_k z_{ki}^2 z_{kj}^2
                - C_{ij}^2\Bigr),

    and :math:`\alpha = \min(\beta, \delta) / \delta` (0 when
    :math:`\beta = 0`). This is the formula of
    ``sklearn.covariance.ledoit_wolf_shrinkage`` (which returns 0 for a single
    feature); the intensity does not depend on an overall scale of ``C``, so it
    applies unchanged to the ``n - 2`` pooled covariance.

    References
    ----------
    .. [1] O. Ledoit and M. Wolf, "A well-conditioned estimator for large-dimensional
       covariance matrices", J. Multivariate Analysis 88(2), 2004, pp. 365–411.
    """
    Z = np.asarray(Z, dtype=np.float64)
    n, d = Z.shape
    if d == 1:
        return 0.0
    Z2 = Z**2
    emp_cov_trace = Z2.sum(axis=0) / n
    mu = emp_cov_trace.sum() / d
    beta_ = float(np.sum(Z2.T @ Z2))
    delta_ = float(np.sum((Z.T @ Z) ** 2)) / n**2
    beta = (beta_ / n - delta_) / (d * n)
    delta = (delta_ - 2.0 * mu * emp_cov_trace.sum() + d * mu**2) / d
    beta = min(beta, delta)
    return 0.0 if beta <= 0.0 or delta <= 0.0 else float(min(beta / delta, 1.0))


def two_class_line(cov: np.ndarray, means: np.ndarray, log_odds: float):
    """``(w, b)``, shapes ``(1, d)`` and ``(1,)``, of two classes sharing ``cov``.

    One solve for ``w`` and for ``S⁻¹μ₋``, ``S⁻¹μ₊`` (never an explicit inverse);
    ``log_odds`` is ``ln(π₊/π₋)``, computed by the caller (``np.log`` and
    ``math.log`` may differ in the last bit).
    """
    sol = np.linalg.solve(cov, np.column_stack([means[1] - means[0], means[0], means[1]]))
    quad = float(means[1] @ sol[:, 2]) - float(means[0] @ sol[:, 1])
    return sol[:, 0].reshape(1, -1), np.array([-0.5 * quad + log_odds])


def _standardised_ledoit_wolf(Z: np.ndarray, index: np.ndarray, means: np.ndarray):
    """Pooled covariance (over ``n - K``) of scikit-learn's ``_cov(X, "auto")`` per class.

    A constant feature keeps scale 1.  Returns it and the ``K`` intensities.
    """
    n, d = Z.shape
    K = means.shape[0]
    total = np.zeros((d, d))
    alphas = np.zeros(K)
    for k in range(K):
        Zk = Z[index == k]
        nk = Zk.shape[0]
        var = (Zk**2).mean(axis=0)
        constant = var <= nk * EPS * var + (nk * means[k] * EPS) ** 2
        scale = np.where(constant, 1.0, np.sqrt(var))
        Zs = Zk / scale
        a = ledoit_wolf_intensity(Zs)
        C = (Zs.T @ Zs) / nk
        shrunk = (1.0 - a) * C + a * (np.trace(C) / d) * np.eye(d)
        total += nk * (scale[:, None] * shrunk * scale[None, :])
        alphas[k] = a
    cov = total / (n - K)
    return 0.5 * (cov + cov.T), alphas


class LDA(BaseLearner):
    r"""Linear discriminant analysis (Gaussian classes, one shared covariance).

    Parameters
    ----------
    priors : array-like of shape (n_classes,), default=None
        Class priors in ``classes_`` order (positive, summing to 1); ``None``
        uses :math:`\pi_k = n_k / n`.
    shrinkage : None, float in [0, 1] or "auto", default=None
        :math:`S' = (1 - a) S + a \,(\operatorname{tr}(S)/d)\, I` (``None``:
        ``a = 0``); ``"auto"``, as scikit-learn: each class's features
        standardised, shrunk by their Ledoit–Wolf intensity
        (:func:`ledoit_wolf_intensity`), scaled back: free of the units.

    Attributes
    ----------
    classes_ : ndarray of shape (n_classes,)
        The sorted labels; with two, ``classes_[1]`` is the positive class.
    means_, priors_ : ndarray of shape (n_classes, n_features) and (n_classes,)
        :math:`\mu_k` and :math:`\pi_k`, in the order of ``classes_``.
    covariance_raw_ : ndarray of shape (n_features, n_features)
        The pooled within-class covariance :math:`S` (denominator ``n - K``),
        before shrinkage and regularisation.
    covariance_ : ndarray of shape (n_features, n_features)
        The one used: :math:`S` shrunk, plus ``regularization_ * I`` when singular.
    shrinkage_ : float
        The intensity ``a`` applied; for ``"auto"`` the count-weighted mean of
        ``class_shrinkage_``, each class's intensity.
    singular_, regularization_ : bool, float
        Whether the shrunk covariance was singular, and the ridge :math:`\lambda` added.
    coef_, intercept_ : ndarray of shape (1, n_features) and (1,), or (n_classes, ...)
        :math:`w` and :math:`b`; with more classes each class's (Notes).

    Notes
    -----
    With :math:`n_\pm` points in each class and :math:`n = n_+ + n_-`,

    .. math::

        \mu_k = \frac{1}{n_k} \sum_{y_i = k} x_i, \qquad
        S = \frac{1}{n - 2} \sum_{k \in \{-, +\}} \sum_{y_i = k}
            (x_i - \mu_k)(x_i - \mu_k)^\top,

        w = S^{-1} (\mu_+ - \mu_-), \qquad
        b = -\tfrac12 \bigl(\mu_+^\top S^{-1} \mu_+ - \mu_-^\top S^{-1} \mu_-\bigr)
            + \ln \frac{\pi_+}{\pi_-},

    and :math:`P(+ \mid x) = \sigma(w^\top x + b)`; ``S^{-1}`` is never
    formed (linear solves).  With :math:`K > 2` classes :math:`S` divides by
    :math:`n - K` and each class has the score :math:`w_k^\top x + b_k` with
    :math:`w_k = S^{-1} \mu_k`, :math:`b_k = -\tfrac12 \mu_k^\top S^{-1} \mu_k + \ln \pi_k`
    (ESL eq. 4.10): ``decision_function`` returns them, ``predict`` their argmax,
    ``predict_proba`` their softmax, as scikit-learn's ``solver="lsqr"``.

    The covariance is *singular* when its largest eigenvalue is 0 or its
    smallest at most ``1e-12`` times it (collinear or identical points,
    ``n - 2 < d``); it is then :math:`S + \lambda I` with
    :math:`\lambda = 10^{-6} \operatorname{tr}(S)/d`, or if that is 0
    :math:`10^{-6} \frac{1}{n d} \sum_i \lVert x_i - \bar x \rVert^2`, or 1 (all
    points equal).  Fitting never warns.

    scikit-learn weights each class's covariance (denominator ``n_k``) by its
    prior: with the priors from the counts its ``coef_`` is ours times
    ``n / (n - K)`` (so is its intercept without the log-prior term); other
    priors also change its covariance, not ours.  ``shrinkage="auto"`` keeps
    the same factor.  Data beyond ``[2**-100, 2**100]`` are fitted scaled by
    a power of two (exact); the attributes are in the user's units.

    References
    ----------
    .. [1] T. Hastie, R. Tibshirani and J. Friedman, *The Elements of
       Statistical Learning*, 2nd ed., Springer, 2009, §4.3 (Linear
       Discriminant Analysis), eq. (4.9)–(4.11).
    """

    _multi_class = True

    def __init__(self, *, priors=None, shrinkage=None):
        self._store(locals())

    def fit(self, X, y) -> LDA:
        """Fit the class means, pooled covariance, ``coef_`` and ``intercept_``."""
        X, classes, index = self._check_training_data(X, y)
        self.validate_params()
        n, d = X.shape
        K = classes.shape[0]
        counts = np.bincount(index, minlength=K).astype(np.float64)
        priors = counts / n if self.priors is None else check_priors(self.priors, K)

        e = scale_exponent(X)
        X = np.ldexp(X, -e)
        means = np.vstack([accurate_mean(X[index == k]) for k in range(K)])
        Z = X - means[index]
        cov_raw = (Z.T @ Z) / (n - K)
        cov_raw = 0.5 * (cov_raw + cov_raw.T)

        if isinstance(self.shrinkage, str):
            cov, class_alpha = _standardised_ledoit_wolf(Z, index, means)
            alpha = float(counts @ class_alpha) / n
        else:
            alpha = 0.0 if self.shrinkage is None else float(self.shrinkage)
            class_alpha = np.full(K, alpha)
            trace = float(np.trace(cov_raw))
            cov = ((1.0 - alpha) * cov_raw + alpha * (trace / d) * np.eye(d) if alpha > 0.0
                   else cov_raw.copy())

        eigvals = np.linalg.eigvalsh(cov)
        is_singular = singular(float(eigvals[0]), float(eigvals[-1]))
        ridge = 0.0
        if is_singular:
            ridge = self._ridge(cov, X)
            cov = cov + ridge * np.eye(d)

        if K == 2:
            w, b = two_class_line(cov, means, float(np.log(priors[1] / priors[0])))
        else:
            # One solve for every S^-1 mu_k: the columns of sol.
            sol = np.linalg.solve(cov, means.T)
            w = sol.T
            b = -0.5 * np.einsum("kj,jk->k", means, sol) + np.log(priors)

        with np.errstate(over="ignore", under="ignore"):
            self.classes_ = classes
            self.means_ = np.ldexp(means, e)
            self.priors_ = priors
            self.covariance_raw_ = np.ldexp(cov_raw, 2 * e)
            self.covariance_ = np.ldexp(cov, 2 * e)
            self.shrinkage_ = float(alpha)
            self.class_shrinkage_ = class_alpha
            self.singular_ = is_singular
            self.regularization_ = float(np.ldexp(ridge, 2 * e))
            self.coef_ = np.ldexp(w, -e)
        self.intercept_ = b
        self.n_features_in_ = d
        return self

    @staticmethod
    def _ridge(cov: np.ndarray, X: np.ndarray) -> float:
        """The ``lambda`` added to a singular covariance (rule in the class Notes)."""
        d = cov.shape[0]
        trace = float(np.trace(cov))
        if trace > 0.0:
            return RIDGE_FACTOR * trace / d
        spread = float(np.sum((X - X.mean(axis=0)) ** 2)) / (X.shape[0] * d)
        return RIDGE_FACTOR * spread if spread > 0.0 else 1.0

    @staticmethod
    def _check_training_data(X, y):
        X = check_X(X)
        n = X.shape[0]
        y = np.asarray(y)
        y_arr = y.ravel() if y.ndim == 2 and y.shape[1] == 1 else y
        n_classes = 2
        if y_arr.ndim == 1 and y_arr.shape[0] == n:
            finite = y_arr.dtype.kind != "f" or bool(np.isfinite(y_arr).all())
            n_classes = np.unique(y_arr).shape[0] if finite else 2
            if n_classes > 2 and y_arr.dtype.kind == "f" and not np.array_equal(
                    y_arr, np.round(y_arr)):
                encode_classes(y, n)  # a continuous target: its precise message
            K = max(n_classes, 2)
            if n < K + 1:
                raise ValueError(
                    f"LDA needs at least {K + 1} points (pooled covariance divides by "
                    f"n − {K}); got n_samples={n}."
                )
            if n_classes == 1:
                raise ValueError(f"LDA needs points of both classes; every label is {y_arr[0]!r}.")
        if n_classes > 2:
            classes, index = encode_classes(y, n)  # warns about a column-vector y
            return X, classes, index
        classes, signs = encode_labels(y, n)  # warns about a column-vector y
        return X, classes, (signs > 0).astype(np.intp)

    def validate_params(self) -> None:
        """Raise ValueError for an invalid ``shrinkage`` or ``priors``; change nothing."""
        check(LDA_PARAMS[1], self.shrinkage)
        if self.priors is not None:
            p = np.asarray(self.priors, dtype=object)
            check_priors(self.priors, p.shape[0] if p.ndim == 1 else -1)
            if p.shape == (2,):
                check(LDA_PARAMS[0], self.priors)

    def decision_function(self, X) -> np.ndarray:
        """``w·x + b``, shape ``(n,)``, ``> 0`` for ``classes_[1]``; or every ``w_k·x + b_k``."""
        X = self._fitted_X(X)
        if self.coef_.shape[0] > 1:
            return X @ self.coef_.T + self.intercept_
        return X @ self.coef_[0] + self.intercept_[0]

    def predict(self, X) -> np.ndarray:
        """Predicted original labels, shape ``(n_samples,)``."""
        scores = self.decision_function(X)
        if scores.ndim == 2:
            return self.classes_[np.argmax(scores, axis=1)]
        return self.classes_[(scores > 0).astype(np.intp)]

    def predict_log_proba(self, X) -> np.ndarray:
        r"""Log posteriors :math:`-\ln(1 + e^{\mp f})` without overflow (or a log-softmax)."""
        f = self.decision_function(X)
        if f.ndim == 2:
            return softmax_log(f)
        return np.column_stack([-np.logaddexp(0.0, f), -np.logaddexp(0.0, -f)])

    def predict_proba(self, X) -> np.ndarray:
        """Posteriors ``sigma(-f), sigma(f)`` (shape ``(n, 2)``); with more classes a softmax."""
        X = self._fitted_X(X)
        if self.coef_.shape[0] > 1:  # class by class: contiguous rows, one pass
            scores = self.coef_ @ X.T
            scores += self.intercept_[:, None]
            return softmax_by_class(scores)
        return np.exp(self.predict_log_proba(X))


def covariance_ellipse(mean, cov, n_std: float = 2.0, n_points: int = 100) -> np.ndarray:
    r"""Points of the ellipse :math:`(p - \mu)^\top \Sigma^{-1} (p - \mu) = k^2` in 2-D.

    ``mean`` :math:`\mu` of shape (2,), ``cov`` :math:`\Sigma` symmetric positive
    semi-definite (2, 2), ``n_std`` the Mahalanobis radius :math:`k`; returns
    ``n_points`` (at least 3) points, the last repeating the first.

    Notes
    -----
    With :math:`\Sigma = V \operatorname{diag}(\lambda_1, \lambda_2) V^\top`,
    :math:`p(t) = \mu + k\, V \operatorname{diag}(\sqrt{\lambda_1}, \sqrt{\lambda_2})
    (\cos t, \sin t)^\top`, ``t`` evenly spaced in :math:`[0, 2\pi]`.  A singular
    :math:`\Sigma` gives a segment or a point; rounding's tiny negative
    eigenvalues count as 0.
    """
    mean = np.asarray(mean, dtype=np.float64)
    cov = np.asarray(cov, dtype=np.float64)
    if mean.shape != (2,):
        raise ValueError(f"mean must have shape (2,); got {mean.shape}.")
    if cov.shape != (2, 2):
        raise ValueError(f"cov must have shape (2, 2); got {cov.shape}.")
    if not (np.isfinite(mean).all() and np.isfinite(cov).all()):
        raise ValueError("mean and cov must be finite.")
    scale = max(float(np.abs(cov).max()), 1.0)
    if abs(cov[0, 1] - cov[1, 0]) > 1e-9 * scale:
        raise ValueError("cov must be symmetric.")
    n_std = float(n_std)
    if not np.isfinite(n_std) or n_std < 0:
        raise ValueError(f"n_std must be a non-negative number; got {n_std!r}.")
    if isinstance(n_points, bool) or not isinstance(n_points, numbers.Integral) or n_points < 3:
        raise ValueError(f"n_points must be an integer >= 3; got {n_points!r}.")
    unit = cov / scale  # entries at most 1: the eigenvalues of cov may exceed the largest float
    eigvals, eigvecs = np.linalg.eigh(0.5 * (unit + unit.T))
    if eigvals[0] < -1e-9 * max(float(eigvals[-1]), 0.0):
        with np.errstate(over="ignore"):
            shown = (eigvals * scale).tolist()
        raise ValueError(f"cov must be positive semi-definite; eigenvalues {shown}.")
    radii = np.sqrt(np.clip(eigvals, 0.0, None)) * math.sqrt(scale)
    t = np.linspace(0.0, 2.0 * np.pi, int(n_points))
    circle = np.column_stack([np.cos(t), np.sin(t)])
    return mean + n_std * (circle * radii) @ eigvecs.T
