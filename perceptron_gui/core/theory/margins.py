"""Functional and geometric margins of a given hyperplane on labeled samples.

Computed on data and weights scaled by powers of two, so a margin is ``±inf``
only when it overflows itself, never NaN for finite input.
"""

from __future__ import annotations

import math

import numpy as np

from ._validation import check_coef, check_Xy, pow2_exponent


def functional_margins(X, y, coef, intercept=0.0) -> np.ndarray:
    """Functional margins ``y_i (w·x_i + b)`` (``coef`` is ``w``, ``intercept`` ``b``)."""
    data = MarginData(X, y)
    m, _, ew = data.functional(coef, intercept)
    with np.errstate(over="ignore"):
        return np.ldexp(m, data.ex + ew)


class MarginData:
    """Samples validated and scaled by ``2**-ex`` once, for the margins of many hyperplanes."""

    def __init__(self, X, y):
        X, self._y = check_Xy(X, y)
        self._d = X.shape[1]
        self.ex = pow2_exponent(float(np.abs(X).max())) if X.size else 0
        self._Xs = np.ldexp(X, -self.ex)

    def functional(self, coef, intercept=0.0) -> tuple[np.ndarray, np.ndarray, int]:
        """Scaled functional margins, the scaled weights and their exponent ``ew``.

        The margins are the returned ones times ``2**(ex + ew)``, the weights
        the returned ones times ``2**ew``.
        """
        coef = check_coef(coef, self._d)
        b = float(intercept)
        if not np.isfinite(b):
            raise ValueError("intercept is NaN or infinity")
        ew = pow2_exponent(float(np.abs(coef).max())) if coef.size else 0
        ws = np.ldexp(coef, -ew)
        with np.errstate(over="ignore"):
            m = self._Xs @ ws  # then y (Xs·ws + b'), in place: the same operations
            m += np.ldexp(b, -(self.ex + ew))
            m *= self._y
            return m, ws, ew

    def geometric(self, coef, intercept=0.0) -> np.ndarray:
        """:func:`geometric_margins` of these samples."""
        margins, ws, _ = self.functional(coef, intercept)
        norm = float(np.linalg.norm(ws))
        if norm == 0.0:
            return np.zeros(margins.shape[0])
        with np.errstate(over="ignore"):
            margins /= norm
            return np.ldexp(margins, self.ex, out=margins)

    def hyperplane_margin(self, coef, intercept=0.0) -> float:
        """:func:`hyperplane_margin` of these samples.

        Only the smallest functional margin is scaled: division by a positive
        norm and a power of two are monotone in floating point.
        """
        margins, ws, _ = self.functional(coef, intercept)
        if not margins.size:
            return math.inf
        norm = float(np.linalg.norm(ws))
        if norm == 0.0:
            return 0.0
        with np.errstate(over="ignore"):
            return float(np.ldexp(margins.min() / norm, self.ex))


def geometric_margins(X, y, coef, intercept=0.0) -> np.ndarray:
    """Geometric margins ``y_i (w·x_i + b) / ||w||``: signed distances (0 where ``w = 0``)."""
    return MarginData(X, y).geometric(coef, intercept)


def hyperplane_margin(X, y, coef, intercept=0.0) -> float:
    """Margin of a hyperplane on a data set: ``min_i y_i (w·x_i + b) / ||w||``.

    Negative when the hyperplane misclassifies a sample, ``0.0`` when ``w = 0``,
    ``+inf`` for no samples (the minimum over an empty set).
    """
    return MarginData(X, y).hyperplane_margin(coef, intercept)
