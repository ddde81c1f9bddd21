"""The two inequalities of Novikoff's proof, measured along a run.

After ``k`` updates with learning rate ``eta``::

    w_k·w*    >= k eta gamma
    ||w_k||²  <= k eta² R²
"""

from __future__ import annotations

from dataclasses import dataclass

import numpy as np

from ._validation import readonly

#: Relative slack allowed for rounding in :attr:`ProofTrace.holds`.
PROOF_RTOL = 1e-12


@dataclass(frozen=True, eq=False)
class ProofTrace:
    """Both sides of the two inequalities of Novikoff's proof after each update.

    Attributes
    ----------
    k : ndarray of int, shape (K,)
        Update counts ``1, ..., K``.
    dot : ndarray of shape (K,)
        ``w_k·w*`` (augmented ``w_k = (w, b / c)`` with an intercept).
    lower : ndarray of shape (K,)
        ``k eta gamma``; the proof shows ``dot >= lower``.
    norm2 : ndarray of shape (K,)
        ``||w_k||²`` (augmented likewise).
    upper : ndarray of shape (K,)
        ``k eta² R²``; the proof shows ``norm2 <= upper``.
    """

    k: np.ndarray
    dot: np.ndarray
    lower: np.ndarray
    norm2: np.ndarray
    upper: np.ndarray

    @property
    def dot_holds(self) -> np.ndarray:
        """``w_k·w* >= k eta gamma`` at each k, up to ``PROOF_RTOL`` relative."""
        return self.dot >= self.lower - PROOF_RTOL * np.abs(self.lower)

    @property
    def norm_holds(self) -> np.ndarray:
        """``||w_k||² <= k eta² R²`` at each k, up to ``PROOF_RTOL`` relative."""
        return self.norm2 <= self.upper + PROOF_RTOL * np.abs(self.upper)

    @property
    def holds(self) -> bool:
        """Whether both inequalities hold at every k."""
        return bool(self.dot_holds.all() and self.norm_holds.all())


def proof_trace(
    W,
    B,
    *,
    w_star,
    gamma,
    radius,
    eta0=1.0,
    fit_intercept=True,
    bias_scale=1.0,
    k=None,
) -> ProofTrace:
    """The quantities of Novikoff's proof along a perceptron run.

    Parameters
    ----------
    W : array-like of shape (K, n_features)
        The weights after each of the ``K`` updates (row ``k-1`` is ``w_k``).
    B : array-like of shape (K,)
        The biases after each update (ignored without an intercept).
    w_star : array-like of shape (n_features + 1,) or (n_features,)
        A unit separator in the augmented space (``NovikoffResult.w_star``).
    gamma : float
        Its margin ``min_i y_i w*·z_i`` (``NovikoffResult.margin``).
    radius : float
        ``R = max_i ||z_i||`` (``NovikoffResult.radius``).
    eta0 : float, default=1.0
        ``eta``.
    fit_intercept : bool, default=True
        Whether ``w_k`` is augmented with ``b_k / bias_scale``.
    bias_scale : float, default=1.0
        ``c``.
    k : array-like of int, shape (K,), optional
        The update count of each row of ``W`` when they are not ``1 .. K``
        (a long run's sampled updates).

    Returns
    -------
    trace : ProofTrace

    Notes
    -----
    Each update adds ``eta y_i z_i`` for a sample with ``y_i w_{k-1}·z_i <= 0``,
    so by induction from ``w_0 = 0``::

        w_k·w*   = w_{k-1}·w* + eta y_i z_i·w*   >= k eta gamma
        ||w_k||² = ||w_{k-1}||² + 2 eta y_i w_{k-1}·z_i + eta² ||z_i||²
                 <= k eta² R²

    and with Cauchy-Schwarz ``k eta gamma <= ||w_k|| <= sqrt(k) eta R``, hence
    ``k <= (R / gamma)²``.
    """
    W = np.asarray(W, dtype=np.float64)
    if W.ndim == 1:
        W = W.reshape(-1, 1) if W.size else W.reshape(0, 0)
    B = np.asarray(B, dtype=np.float64).ravel()
    K = W.shape[0]
    if fit_intercept:
        if B.shape[0] != K:
            raise ValueError(f"B must have {K} entries to match W, got {B.shape[0]}")
        V = np.column_stack([W, B / float(bias_scale)]) if K else np.empty((0, W.shape[1] + 1))
    else:
        V = W
    w_star = np.asarray(w_star, dtype=np.float64).ravel()
    if K and V.shape[1] != w_star.shape[0]:
        raise ValueError(
            f"w_star has {w_star.shape[0]} entries, the (augmented) weights have {V.shape[1]}"
        )
    k = np.arange(1, K + 1) if k is None else np.asarray(k, dtype=np.int64).ravel()
    if k.shape[0] != K:
        raise ValueError(f"k must have {K} entries to match W, got {k.shape[0]}")
    eta = float(eta0)
    r = float(radius)
    with np.errstate(over="ignore", invalid="ignore"):  # at huge scales: inf, honestly
        dot = V @ w_star if K else np.empty(0)
        norm2 = np.einsum("ij,ij->i", V, V) if K else np.empty(0)
        upper = k * (eta * eta) * (r * r)
    return ProofTrace(
        k=readonly(k),
        dot=readonly(np.asarray(dot, dtype=np.float64)),
        lower=readonly(k * eta * float(gamma)),
        norm2=readonly(np.asarray(norm2, dtype=np.float64)),
        upper=readonly(np.asarray(upper, dtype=np.float64)),
    )
