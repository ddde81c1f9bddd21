r"""The four losses of the margin ``z = y·f(x)`` and the empirical risk under each (numpy only).

.. math::

    \ell_{0-1}(z) = [z \le 0], \quad
    \ell_{\mathrm{perceptron}}(z) = \max(0, -z), \quad
    \ell_{\mathrm{hinge}}(z) = \max(0, 1 - z), \quad
    \ell_{\log}(z) = \log(1 + e^{-z}),

and the empirical risk of ``(w, b)`` under a loss is the mean of ``ℓ(y_i (w·x_i + b))``
over the training set.  A case with ``z = 0`` counts as a mistake (the
perceptron updates on ``z ≤ 0``).  The losses are the core's table
(:mod:`~perceptron_gui.core.learners.losses`; the logistic one without overflow).
"""

from __future__ import annotations

import numpy as np

from ....core.learners.losses import MARGIN_LOSSES, ZERO_ONE, loss_for

__all__ = ["LOSSES", "LOSS_LABELS", "LOSS_NAMES", "chunk_states", "curve", "loss_values",
           "risks", "risks_of_margins"]

#: The losses drawn, in legend order (the table's :data:`MARGIN_LOSSES`, by name).
LOSS_NAMES = tuple(loss.name for loss in MARGIN_LOSSES)
#: Each loss's name and formula in legends.
LOSS_LABELS = {loss.name: loss.legend for loss in MARGIN_LOSSES}
#: Loss name -> the loss of an array of margins (elementwise): the table's own,
#: which the learner's steps and the demos' checks use too.
LOSSES = {loss.name: loss.value for loss in MARGIN_LOSSES}


def loss_values(name: str, z) -> np.ndarray:
    """The loss ``name`` (a key of :data:`LOSSES`) at each margin of ``z``, as float64."""
    return LOSSES[name](np.asarray(z, dtype=np.float64))


def curve(name: str, lo: float, hi: float, num: int = 401) -> tuple[np.ndarray, np.ndarray]:
    """Points ``(z, ℓ(z))`` drawing the loss ``name`` over ``[lo, hi]``, kinks included.

    The 0–1 loss is drawn as its step (a vertical edge at 0); the piecewise
    linear losses by their ends and kinks, the logistic one by ``num`` points.
    """
    loss = loss_for(name)
    if loss is ZERO_ONE:
        return np.array([lo, 0.0, 0.0, hi]), np.array([1.0, 1.0, 0.0, 0.0])
    if loss.kink is not None:
        kink = loss.kink
        z = np.array([lo, *([kink] if lo < kink < hi else []), hi])
    else:
        z = np.linspace(lo, hi, num)
    return z, loss_values(name, z)


def risks_of_margins(z: np.ndarray) -> np.ndarray:
    """The mean of each loss of :data:`LOSS_NAMES` over the margins ``z``: shape (4,)."""
    z = np.asarray(z, dtype=np.float64)
    if z.size == 0:
        return np.full(len(LOSS_NAMES), np.nan)
    return np.array([LOSSES[name](z).mean() for name in LOSS_NAMES])


def chunk_states(n: int) -> int:
    """States per block of :func:`risks`: about 2¹⁶ margins (512 kB: the blocks stay in cache)."""
    return max(1, (1 << 16) // max(int(n), 1))


def risks(Xs: np.ndarray, s: np.ndarray, W: np.ndarray, B: np.ndarray):
    """The empirical risk under each loss for each state ``(w_j, b_j)``, in blocks.

    A generator: it yields after each block (a worker stops there when asked),
    and returns the ``(m, 4)`` risks in the order of :data:`LOSS_NAMES`.
    ``Xs`` is ``(y_i x_i)`` transposed, shape ``(n_features, n_samples)``;
    ``s`` the ±1 labels; ``W`` (m, n_features) and ``B`` (m,) the states.
    """
    m, n = W.shape[0], s.shape[0]
    out = np.empty((m, len(LOSS_NAMES)))
    step = chunk_states(n)
    with np.errstate(over="ignore", invalid="ignore"):
        for a in range(0, m, step):
            Z = W[a : a + step] @ Xs  # (block, n): y_i w·x_i
            Z += np.multiply.outer(B[a : a + step], s)
            out[a : a + step, 0] = np.count_nonzero(Z <= 0, axis=1)
            neg = np.maximum(-Z, 0.0)
            out[a : a + step, 1] = neg.sum(axis=1)
            h = np.subtract(1.0, Z)
            np.maximum(h, 0.0, out=h)
            out[a : a + step, 2] = h.sum(axis=1)
            # log(1 + e^−z) = max(0, −z) + log1p(e^−|z|)
            np.abs(Z, out=h)
            np.negative(h, out=h)
            np.exp(h, out=h)
            np.log1p(h, out=h)
            h += neg
            out[a : a + step, 3] = h.sum(axis=1)
            yield a
    out /= max(n, 1)
    return out
