"""The two inequalities of Novikoff's proof, measured along a run, and the bound from w₀.

After ``k`` updates with learning rate ``eta`` from ``w_0``::

    w_k·w*    >= w_0·w* + k eta gamma
    ||w_k||²  <= ||w_0||² + k eta² R²

From ``w_0 = 0`` they give ``k <= (R/gamma)²``; from another ``w_0``,
:func:`start_bound`.
"""

from __future__ import annotations

import math
from dataclasses import dataclass

import numpy as np

from ._validation import readonly

#: Relative slack allowed for rounding in :attr:`ProofTrace.holds`.
PROOF_RTOL = 1e-12


@dataclass(frozen=True, eq=False)
class ProofTrace:
    """Both sides of the two inequalities of Novikoff's proof after each update.

    Arrays of shape (K,): the update counts ``k``; ``dot = w_k·w*`` (augmented
    ``w_k = (w, b / c)`` with an intercept) against ``lower = w_0·w* + k eta
    gamma``; ``norm2 = ||w_k||²`` against ``upper = ||w_0||² + k eta² R²``.
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


def proof_trace(W, B, *, w_star, gamma, radius, eta0=1.0, fit_intercept=True, bias_scale=1.0,
                k=None, w0=None, b0=0.0) -> ProofTrace:
    """The quantities of Novikoff's proof along a perceptron run.

    Parameters
    ----------
    W, B : array-like of shape (K, n_features) and (K,)
        The weights and biases after each of the ``K`` updates (row ``k-1`` is
        ``w_k``); ``w_k`` is augmented with ``b_k / bias_scale`` with an intercept.
    w_star, gamma, radius
        A unit separator in the augmented space, its margin and ``R``: those
        of :class:`~.certificate.NovikoffResult`.
    k : array-like of int, shape (K,), optional
        The update count of each row of ``W`` when they are not ``1 .. K``
        (a long run's sampled updates).

    Notes
    -----
    Each update adds ``eta y_i z_i`` for a sample with ``y_i w_{k-1}·z_i <= 0``:
    ``w_k·w*`` gains at least ``eta gamma``, and ``||w_k||²`` at most ``eta² R²``
    (the cross term ``2 eta y_i w_{k-1}·z_i`` is not positive).
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
    v0 = augmented_start(w0, b0, w_star.shape[0], fit_intercept, bias_scale)
    with np.errstate(over="ignore", invalid="ignore"):  # at huge scales: inf, honestly
        dot = V @ w_star if K else np.empty(0)
        norm2 = np.einsum("ij,ij->i", V, V) if K else np.empty(0)
        upper = float(v0 @ v0) + k * (eta * eta) * (r * r)
        lower = float(v0 @ w_star) + k * eta * float(gamma)
    return ProofTrace(readonly(k), *(readonly(np.asarray(a, dtype=np.float64))
                                     for a in (dot, lower, norm2, upper)))


def augmented_start(w0, b0, width: int, fit_intercept: bool, bias_scale: float) -> np.ndarray:
    """The start ``w_0`` as the proof sees it: ``(w0, b0 / c)`` with an intercept (None: 0)."""
    if w0 is None:
        return np.zeros(width)
    w0 = np.asarray(w0, dtype=np.float64).ravel()
    return np.r_[w0, float(b0) / float(bias_scale)] if fit_intercept else w0


def start_bound(v0, w_star, gamma: float, radius: float, eta0: float = 1.0) -> float:
    """The most updates a perceptron run from ``v0`` makes: Novikoff's bound from a start.

    ``v0`` is the augmented start (:func:`augmented_start`), ``w_star`` a unit
    separator of margin ``gamma`` = γ, ``radius`` = R, ``eta0`` = η. Every run
    from ``v0`` makes ``k <= k_max`` updates (``(R/γ)²`` from ``v0 = 0``; ``inf``
    when ``γ <= 0``).

    Notes
    -----
    With ``a = w_0·w*``, the two inequalities of the proof give, for ``k``
    with ``a + kηγ > 0``, ``(a + kηγ)² <= (w_k·w*)² <= ||w_k||² <= ||w_0||² +
    kη²R²``: ``k`` lies below the positive root of

        η²γ² k² + (2aηγ − η²R²) k + (a² − ||w_0||²) = 0,

        k_max = (η²R² − 2aηγ + sqrt(η⁴R⁴ − 4aη³γR² + 4η²γ²||w_0||²)) / (2η²γ²)

    (the discriminant is at least ``(η²R² − 2aηγ)²`` as ``|a| <= ||w_0||``).
    A ``k`` with ``a + kηγ <= 0`` is below the root too (the quadratic is
    ``<= 0`` there), so ``k_max`` bounds every run.

    It is computed in units of ``ηR`` and of ``s = ||w_0||/(ηR)``: with ``u =
    w_0/||w_0||``, ``ρ = γ/R``, ``B = 1 − 2s(u·w*)ρ`` and ``q = ||u||² −
    (u·w*)²`` (from the part of ``u`` across ``w*``), ``k_max = (B + sqrt(B² +
    4ρ²s²q)) / (2ρ²)``, or ``2sq / (sqrt((B/s)² + 4ρ²q) − B/s)`` for ``B < 0``,
    so no power of η, R or ``w_0`` overflows at any learning rate the panel
    accepts (``inf`` only when ``k_max`` itself passes the largest float).
    """
    v0 = np.asarray(v0, dtype=np.float64).ravel()
    w_star = np.asarray(w_star, dtype=np.float64).ravel()
    g, r, eta = float(gamma), float(radius), float(eta0)
    if not g > 0:
        return math.inf
    if not r > 0:
        return 0.0  # every point at the origin
    rho = g / r
    rr = rho * rho
    if rr == 0:
        return math.inf  # (R/γ)² passes the largest float
    with np.errstate(over="ignore", under="ignore", invalid="ignore", divide="ignore"):
        big = float(np.abs(v0).max()) if v0.size else 0.0
        if big == 0:
            return 1.0 / rr
        u = v0 / big
        length = float(np.linalg.norm(u))
        u /= length
        scale = big / eta / r * length
        if scale == 0:  # too small beside ηR to count
            return 1.0 / rr
        if not math.isfinite(scale):
            return math.inf
        along = float(u @ w_star)
        across = u - along * w_star
        q = float(across @ across)
        B = 1.0 - 2.0 * scale * along * rho
        if B >= 0:
            k = (B + math.hypot(B, 2.0 * rho * scale * math.sqrt(q))) / (2.0 * rr)
        else:
            b = 1.0 / scale - 2.0 * along * rho
            k = 2.0 * scale * q / (math.hypot(b, 2.0 * rho * math.sqrt(q)) - b)
    return k if not math.isnan(k) else math.inf
