"""Input checks and small array helpers shared by the theory modules."""

from __future__ import annotations

import math

import numpy as np

from ..values import readonly as readonly

EPS = np.finfo(np.float64).eps


def check_X(X) -> np.ndarray:
    try:
        arr = np.asarray(X, dtype=np.float64)
    except (TypeError, ValueError) as exc:
        raise ValueError(f"X must be a numeric array: {exc}") from exc
    if arr.ndim == 1 and arr.size == 0:
        arr = arr.reshape(0, 2)  # an empty list: no points in the plane
    if arr.ndim != 2:
        raise ValueError(f"X must be 2-D of shape (n_samples, n_features), got shape {arr.shape}")
    if not np.isfinite(arr).all():
        raise ValueError("X contains NaN or infinity")
    return np.ascontiguousarray(arr)


def check_Xy(X, y) -> tuple[np.ndarray, np.ndarray]:
    X = check_X(X)
    try:
        y = np.asarray(y, dtype=np.float64)
    except (TypeError, ValueError) as exc:
        raise ValueError(f"y must contain the labels -1 and +1: {exc}") from exc
    if y.ndim == 2 and y.shape[1] == 1:
        y = y.ravel()
    if y.ndim != 1 or y.shape[0] != X.shape[0]:
        raise ValueError(
            f"y must have shape ({X.shape[0]},) to match X, got shape {y.shape}"
        )
    if not np.isin(y, (-1.0, 1.0)).all():
        raise ValueError("y must contain the labels -1 and +1 only")
    return X, np.ascontiguousarray(y)


def check_coef(coef, d: int) -> np.ndarray:
    coef = np.asarray(coef, dtype=np.float64).ravel()
    if coef.shape != (d,):
        raise ValueError(f"coef must have {d} entries to match X, got {coef.shape[0]}")
    if not np.isfinite(coef).all():
        raise ValueError("coef contains NaN or infinity")
    return coef


def check_bias_scale(bias_scale) -> float:
    """``bias_scale`` as a float ``c > 0`` (ValueError otherwise)."""
    c = float(bias_scale)
    if not (math.isfinite(c) and c > 0):
        raise ValueError(f"bias_scale must be a finite number > 0, got {bias_scale!r}")
    return c


def pow2_exponent(amax: float) -> int:
    """``e`` with ``amax * 2**-e`` in ``[0.5, 1)`` (``0`` for ``amax = 0``).

    Scaling by ``2**-e`` (``np.ldexp``) is exact for every value that stays a
    normal float, so a computation on the scaled data gives the same digits,
    shifted in exponent, as on the data themselves, without overflow or
    underflow in squares and products.
    """
    return int(np.frexp(amax)[1]) if amax > 0 and np.isfinite(amax) else 0
