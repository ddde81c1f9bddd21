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

__all__ = ["Kernel", "KERNELS", "make_kernel"]

KERNELS = ("linear", "poly", "rbf")


@dataclass(frozen=True)
class Kernel:
    """A kernel function with its parameters.

    Parameters
    ----------
    name : {"linear", "poly", "rbf"}
        Which kernel.
    degree : int, default=3
        Degree of the polynomial kernel.
    gamma : float, default=1.0
        Scale of the polynomial and RBF kernels.
    coef0 : float, default=1.0
        Constant term of the polynomial kernel.
    """

    name: str = "linear"
    degree: int = 3
    gamma: float = 1.0
    coef0: float = 1.0

    def __call__(self, A: np.ndarray, B: np.ndarray, *, norms_b=None) -> np.ndarray:
        """Kernel matrix between the rows of ``A`` and the rows of ``B``.

        Overflow gives ``inf`` (or NaN for ``inf - inf`` in a polynomial
        kernel) without a warning; the learners detect it.  RBF squared
        distances that overflow are recomputed from the coordinate
        differences, so far-apart points get ``K = 0`` and a point and itself
        ``K = 1`` at any scale.  ``norms_b``: :meth:`squared_norms` of ``B``,
        when the caller keeps them (the RBF kernel then does not recompute
        them; the result is the same).
        """
        with np.errstate(over="ignore", invalid="ignore"):
            return self._matrix(A, B, norms_b)

    @staticmethod
    def squared_norms(B: np.ndarray) -> np.ndarray:
        """``||b_j||²`` of every row of ``B``, as the RBF kernel computes them."""
        B = np.atleast_2d(np.asarray(B, dtype=np.float64))
        with np.errstate(over="ignore", invalid="ignore"):
            return np.einsum("ij,ij->i", B, B)

    def _matrix(self, A: np.ndarray, B: np.ndarray, norms_b=None) -> np.ndarray:
        A = np.atleast_2d(np.asarray(A, dtype=np.float64))
        B = np.atleast_2d(np.asarray(B, dtype=np.float64))
        if self.name == "linear":
            return A @ B.T
        if self.name == "poly":
            return (self.gamma * (A @ B.T) + self.coef0) ** self.degree
        if self.name == "rbf":
            if norms_b is None:
                norms_b = np.einsum("ij,ij->i", B, B)
            # ||a||² + ||b||² − 2 a·b, then exp(−γ sq): the operations in this order,
            # in place (a kernel row of 10⁶ values is computed at every update)
            dot = A @ B.T
            dot *= 2.0
            sq = np.einsum("ij,ij->i", A, A)[:, None] + norms_b[None, :]
            sq -= dot
            del dot
            if not np.isfinite(sq).all():  # inf - inf at huge scales: differences instead
                sq = ((A[:, None, :] - B[None, :, :]) ** 2).sum(axis=2)
            np.maximum(sq, 0.0, out=sq)
            sq *= -self.gamma
            return np.exp(sq, out=sq)
        raise ValueError(f"unknown kernel {self.name!r}; expected one of {KERNELS}")

    def diagonal(self, A: np.ndarray) -> np.ndarray:
        """``k(a_i, a_i)`` for every row of ``A``, without the full matrix."""
        A = np.atleast_2d(np.asarray(A, dtype=np.float64))
        sq = np.einsum("ij,ij->i", A, A)
        if self.name == "linear":
            return sq
        if self.name == "poly":
            return (self.gamma * sq + self.coef0) ** self.degree
        if self.name == "rbf":
            return np.ones(A.shape[0])
        raise ValueError(f"unknown kernel {self.name!r}; expected one of {KERNELS}")


def make_kernel(name: str = "linear", *, degree=3, gamma=1.0, coef0=1.0) -> Kernel:
    """Validate kernel parameters and build a :class:`Kernel`.

    Raises
    ------
    ValueError
        For an unknown kernel name, a degree that is not a positive integer,
        or a non-positive / non-finite gamma.
    """
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
