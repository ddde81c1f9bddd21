"""Quadratic discriminant analysis: one Gaussian per class, each with its own covariance.

The class scores ``δ_k(x)`` are quadratic; with two classes the boundary is a conic.
"""

from __future__ import annotations

import math

import numpy as np

from ._base import (
    ROWWISE_MAX_FEATURES,
    ClassScoreLearner,
    accurate_mean,
    label_text,
    scale_exponent,
    singular,
)
from .params import QDA_PARAMS

__all__ = ["QDA"]


class QDA(ClassScoreLearner):
    r"""Quadratic discriminant analysis (a Gaussian per class, its own covariance).

    Parameters
    ----------
    priors : array-like of shape (n_classes,), default=None
        As for :class:`~.lda.LDA`: positive, summing to 1; ``None``: :math:`n_k / n`.
    reg_param : float in [0, 1], default=0.0
        scikit-learn's regularisation: each class covariance :math:`\Sigma_k`
        is replaced by :math:`(1 - r)\,\Sigma_k + r I`.

    Attributes
    ----------
    classes_, priors_ : ndarray of shape (n_classes,)
    means_ : ndarray of shape (n_classes, n_features)
    covariance_ : ndarray of shape (n_classes, n_features, n_features)
        Denominator :math:`n_k - 1`, after ``reg_param`` (scikit-learn's with
        ``store_covariance=True``).
    rotations_, scalings_ : list of ndarray
        Each covariance's eigenvectors (columns) and eigenvalues, largest first.

    Notes
    -----
    .. math::

        \delta_k(x) = -\tfrac12 \ln\lvert\Sigma_k\rvert
            - \tfrac12 (x - \mu_k)^\top \Sigma_k^{-1} (x - \mu_k) + \ln \pi_k,

    the log-posterior of class ``k`` up to a common constant (ESL eq. 4.12).
    Data beyond ``[2**-100, 2**100]`` are fitted scaled by a power of two (as
    LDA's); a variance past the largest float reads ``inf``.

    A singular class covariance raises ValueError suggesting ``reg_param``:
    no pseudo-inverse stands in for :math:`\Sigma_k^{-1}`.

    scikit-learn 1.9 divides a class's scatter by :math:`n_k` (earlier
    versions, and the course text, by :math:`n_k - 1`, as here): its
    ``covariance_`` is ours times :math:`(n_k - 1)/n_k` when ``reg_param=0``.

    References
    ----------
    .. [1] T. Hastie, R. Tibshirani and J. Friedman, *The Elements of
       Statistical Learning*, 2nd ed., Springer, 2009, §4.3, eq. (4.12).
    """

    PARAMS = QDA_PARAMS

    def __init__(self, *, priors=None, reg_param=0.0):
        self._store(locals())

    def fit(self, X, y) -> QDA:
        """Fit each class's mean, covariance and prior (ValueError naming a class that cannot)."""
        X, classes, index, counts, priors = self._fit_classes(X, y)
        n, d = X.shape
        r = float(self.reg_param)
        e = scale_exponent(X)  # fitted on X·2⁻ᵉ: no covariance overflows at 1e200
        with np.errstate(over="ignore"):
            ridge = float(np.ldexp(r, -2 * e))  # r·I in the user's units
        if not np.isfinite(ridge):  # r·I swamps data of 1e-200: they fit as they are
            e, ridge = 0, r
        if e:
            X = np.ldexp(X, -e)
        means, covs, rotations, scalings = [], [], [], []
        for k, label in enumerate(classes):
            Xk = X[index == k]
            name = label_text(label, classes)
            if Xk.shape[0] < 2:
                raise ValueError(f"class {name} has only 1 point: its covariance is undefined "
                                 "(it divides by n_k − 1); QDA needs 2 points in every class.")
            mean = accurate_mean(Xk)
            Z = Xk - mean
            cov = (Z.T @ Z) / (Xk.shape[0] - 1)
            cov = (1.0 - r) * (0.5 * (cov + cov.T)) + ridge * np.eye(d)
            values, vectors = np.linalg.eigh(cov)
            order = np.argsort(values)[::-1]
            values, vectors = values[order], vectors[:, order]
            if singular(values[-1], values[0]):
                raise ValueError(
                    f"the covariance of class {name} is singular (its points are "
                    "collinear, repeated or fewer than n_features + 1): QDA cannot invert "
                    "it. Set reg_param > 0 to regularise it, e.g. reg_param=0.01.")
            means.append(mean)
            covs.append(cov)
            rotations.append(vectors)
            scalings.append(values)
        self._scaled = (e, np.asarray(means), scalings)  # what the scores are computed from
        with np.errstate(over="ignore", under="ignore"):
            self.classes_ = classes
            self.means_ = np.ldexp(np.asarray(means), e)
            self.covariance_ = np.ldexp(np.asarray(covs), 2 * e)
            self.scalings_ = [np.ldexp(s, 2 * e) for s in scalings]
        self.priors_ = priors
        self.rotations_ = rotations
        self.n_features_in_ = d
        return self

    def _class_scores(self, X) -> np.ndarray:
        X = self._fitted_X(X)
        n, d = X.shape
        e, means, scalings = self._scaled
        if e:
            X = np.ldexp(X, -e)
        out = np.empty((len(self.classes_), n))
        # Few features: each coordinate a contiguous row, and no BLAS call (a
        # threaded (n, d) @ (d, d) product is the slowest part under load).
        Xt = np.ascontiguousarray(X.T) if d <= ROWWISE_MAX_FEATURES else None
        for k, (R, S) in enumerate(zip(self.rotations_, scalings, strict=True)):
            M = R / np.sqrt(S)
            if Xt is None:
                W = X @ M
                W -= means[k] @ M
                np.einsum("ij,ij->i", W, W, out=out[k])
            else:
                Z = Xt - means[k][:, None]
                out[k] = 0.0
                w = np.empty(n)
                for c in range(d):
                    np.multiply(Z[0], M[0, c], out=w)
                    for j in range(1, d):
                        w += M[j, c] * Z[j]
                    w *= w
                    out[k] += w
            out[k] *= -0.5
            # the densities of the scaled data: each score less d * e * ln 2
            out[k] += np.log(self.priors_[k]) - 0.5 * np.log(S).sum() - d * e * math.log(2.0)
        return out
