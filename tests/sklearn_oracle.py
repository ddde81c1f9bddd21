"""scikit-learn's ``QuadraticDiscriminantAnalysis`` as our ``QDA``'s oracle, in either convention.

Our QDA divides a class's scatter by :math:`n_k - 1` (the unbiased covariance,
as the course text writes it).  scikit-learn divided by :math:`n_k - 1` up to
1.8 and divides by :math:`n_k` from 1.9 on (the biased covariance).  The
installed scikit-learn is asked which it does, on three points whose two
answers differ, rather than trusted by its version number, and the oracle is
fitted on points whose covariance in its convention is ours of the originals:
each class stretched about its own mean by :math:`\\sqrt{n_k / (n_k - 1)}`
when it divides by :math:`n_k`, the points unchanged otherwise.  Everything
downstream of the means and covariances (``reg_param``, the log-odds, the
posteriors) is then scikit-learn's own arithmetic.
"""

from __future__ import annotations

from functools import cache

import numpy as np


@cache
def qda_divides_by_n_k() -> bool:
    """Whether the installed scikit-learn's QDA divides a class's scatter by ``n_k``.

    Returns
    -------
    bool
        True for the biased covariance (scikit-learn 1.9 on), False for the
        unbiased one (:math:`n_k - 1`, before 1.9).

    Raises
    ------
    AssertionError
        If its covariance is neither: the oracle is then of no use as it stands.
    """
    from sklearn.discriminant_analysis import QuadraticDiscriminantAnalysis

    X = np.array([[0.0, 0.0], [2.0, 0.0], [0.0, 2.0], [5.0, 5.0], [7.0, 5.0], [5.0, 7.0]])
    y = np.array([0, 0, 0, 1, 1, 1])
    got = QuadraticDiscriminantAnalysis(store_covariance=True).fit(X, y).covariance_[0]
    biased, unbiased = np.cov(X[:3], rowvar=False, ddof=0), np.cov(X[:3], rowvar=False, ddof=1)
    if np.allclose(got, biased, rtol=1e-12, atol=0):
        return True
    assert np.allclose(got, unbiased, rtol=1e-12, atol=0), (
        f"scikit-learn's QDA covariance {got.tolist()} is neither the biased "
        f"{biased.tolist()} nor the unbiased {unbiased.tolist()} one")
    return False


def qda_oracle_points(X, y) -> np.ndarray:
    """Points whose scikit-learn QDA fit is the model our QDA fits on ``X``, ``y``.

    Parameters
    ----------
    X : ndarray of shape (n_samples, n_features)
    y : ndarray of shape (n_samples,)
        Every class with at least 2 points.

    Returns
    -------
    ndarray of shape (n_samples, n_features)
        ``X`` itself when scikit-learn divides by :math:`n_k - 1`; otherwise a
        copy with each class stretched about its mean by
        :math:`\\sqrt{n_k / (n_k - 1)}` (same means, covariances times
        :math:`n_k / (n_k - 1)`).
    """
    X = np.asarray(X, dtype=float)
    if not qda_divides_by_n_k():
        return X
    stretched = X.copy()
    for k in np.unique(y):
        m = y == k
        nk = m.sum()
        mu = X[m].mean(axis=0)
        stretched[m] = mu + (X[m] - mu) * np.sqrt(nk / (nk - 1))
    return stretched


def qda_covariances_as_ours(covariances, counts) -> np.ndarray:
    """scikit-learn's class covariances (``reg_param=0``) with our denominator, :math:`n_k - 1`.

    Parameters
    ----------
    covariances : array-like of shape (n_classes, n_features, n_features)
        A fitted ``QuadraticDiscriminantAnalysis(store_covariance=True)``'s
        ``covariance_``.
    counts : array-like of shape (n_classes,)
        The number of points in each class, :math:`n_k`.

    Returns
    -------
    ndarray of shape (n_classes, n_features, n_features)
    """
    covariances = np.asarray(covariances, dtype=float)
    if not qda_divides_by_n_k():
        return covariances
    counts = np.asarray(counts, dtype=float)
    return covariances * (counts / (counts - 1))[:, None, None]
