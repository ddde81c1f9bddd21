"""Kernel functions for the dual perceptron and the kernel margin.

Each kernel maps two sample matrices ``A`` (m, d) and ``B`` (n, d) to the
(m, n) matrix ``K[i, j] = k(a_i, b_j)``.

- linear:      ``k(a, b) = a·b``
- polynomial:  ``k(a, b) = (gamma a·b + coef0) ** degree``
- rbf:         ``k(a, b) = exp(-gamma ||a - b||²)``
"""

from __future__ import annotations

from dataclasses import dataclass

import numpy as np

__all__ = ["Kernel", "KERNELS", "make_kernel", "squared_distances"]

KERNELS = ("linear", "poly", "rbf")


@dataclass(frozen=True)
class Kernel:
    """A kernel function with its parameters (the formulas: the module docstring)."""

    name: str = "linear"
    degree: int = 3
    gamma: float = 1.0
    coef0: float = 1.0

    def __post_init__(self):
        if self.name not in KERNELS:
            raise ValueError(f"unknown kernel {self.name!r}; expected one of {KERNELS}")

    def __call__(self, A: np.ndarray, B: np.ndarray) -> np.ndarray:
        """Kernel matrix between the rows of ``A`` and the rows of ``B``.

        Overflow gives ``inf`` (or NaN for ``inf - inf`` in a polynomial
        kernel) without a warning; the learners detect it.  ``K(a, b)`` and
        ``K(b, a)`` are the same bits (RBF: :func:`squared_distances`).
        """
        with np.errstate(over="ignore", invalid="ignore"):
            return self._matrix(A, B)

    def _matrix(self, A: np.ndarray, B: np.ndarray) -> np.ndarray:
        A = np.atleast_2d(np.asarray(A, dtype=np.float64))
        B = np.atleast_2d(np.asarray(B, dtype=np.float64))
        if self.name != "rbf":
            return self._of_dot(A @ B.T)
        sq = squared_distances(A, B)
        sq *= -self.gamma
        return np.exp(sq, out=sq)

    def diagonal(self, A: np.ndarray) -> np.ndarray:
        """``k(a_i, a_i)`` for every row of ``A``, without the full matrix."""
        A = np.atleast_2d(np.asarray(A, dtype=np.float64))
        if self.name == "rbf":
            return np.ones(A.shape[0])
        return self._of_dot(np.einsum("ij,ij->i", A, A))

    def _of_dot(self, dot: np.ndarray) -> np.ndarray:
        """The linear or polynomial kernel of the dot products ``dot``."""
        return dot if self.name == "linear" else (self.gamma * dot + self.coef0) ** self.degree


def squared_distances(A: np.ndarray, B: np.ndarray) -> np.ndarray:
    """``||a_i - b_j||²`` for the rows of ``A`` (m, d) and ``B`` (n, d): an (m, n) matrix.

    Summed from the coordinate differences, one feature at a time: exact to a
    few ulps at any scale, 0 for a point and itself, ``inf`` (no warning) where
    it exceeds the largest float.  ``||a||² + ||b||² − 2 a·b`` loses everything
    to cancellation once ``||a||²`` is about ``1/eps`` times the distance.
    """
    A = np.atleast_2d(np.asarray(A, dtype=np.float64))
    B = np.atleast_2d(np.asarray(B, dtype=np.float64))
    with np.errstate(over="ignore"):
        sq = A[:, :1] - B[:, 0]
        sq *= sq
        for k in range(1, A.shape[1]):
            diff = A[:, k : k + 1] - B[:, k]
            diff *= diff
            sq += diff
    return sq


def make_kernel(name: str = "linear", *, degree=3, gamma=1.0, coef0=1.0) -> Kernel:
    """A :class:`Kernel` of checked parameters (ValueError naming the bad one)."""
    if name not in KERNELS:
        raise ValueError(f"kernel must be one of {KERNELS}, got {name!r}")
    if isinstance(degree, bool) or not isinstance(degree, (int, np.integer)) or degree < 1:
        raise ValueError(f"degree must be a positive integer, got {degree!r}")
    gamma = float(gamma)
    coef0 = float(coef0)
    if not np.isfinite(gamma) or gamma <= 0:
        raise ValueError(f"gamma must be a positive finite number, got {gamma!r}")
    if not np.isfinite(coef0):
        raise ValueError(f"coef0 must be finite, got {coef0!r}")
    return Kernel(name, int(degree), gamma, coef0)
