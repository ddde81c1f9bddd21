"""The losses of the margin ``z = y·f(x)`` drawn, and the empirical risk under each (numpy only).

The losses are the core's table (:data:`~perceptron_gui.core.learners.losses.MARGIN_LOSSES`);
the empirical risk of ``(w, b)`` under a loss is the mean of ``ℓ(y_i (w·x_i + b))``
over the training set (``z = 0`` is a mistake: the perceptron updates on ``z ≤ 0``).
"""

from __future__ import annotations

import numpy as np

from ....core.learners.losses import MARGIN_LOSSES, ZERO_ONE, loss_for

__all__ = ["LOSSES", "LOSS_LABELS", "LOSS_NAMES", "curve", "loss_values", "risks",
           "risks_of_margins"]

#: The losses drawn, in legend order (the table's :data:`MARGIN_LOSSES`, by name).
LOSS_NAMES = tuple(loss.name for loss in MARGIN_LOSSES)
#: Each loss's name and formula in legends.
LOSS_LABELS = {loss.name: loss.legend for loss in MARGIN_LOSSES}
#: Loss name -> the loss of an array of margins (elementwise): the table's own,
#: which the learner's steps and the demos' checks use too.
LOSSES = {loss.name: loss.value for loss in MARGIN_LOSSES}
#: Margins per block of :func:`risks`: 2¹⁶ (512 kB: the blocks stay in cache).
_BLOCK = 1 << 16


def loss_values(name: str, z) -> np.ndarray:
    """The loss ``name`` (a key of :data:`LOSSES`) at each margin of ``z``, as float64."""
    return LOSSES[name](np.asarray(z, dtype=np.float64))


def curve(name: str, lo: float, hi: float, num: int = 401) -> tuple[np.ndarray, np.ndarray]:
    """Points ``(z, ℓ(z))`` drawing the loss ``name`` over ``[lo, hi]``: the 0–1 loss's step,
    a piecewise linear loss's ends and kink, ``num`` points of a smooth one."""
    loss = loss_for(name)
    if loss is ZERO_ONE:
        return np.array([lo, 0.0, 0.0, hi]), np.array([1.0, 1.0, 0.0, 0.0])
    if loss.kink is not None:
        kink = loss.kink
        z = np.array([lo, *([kink] if lo < kink < hi else []), hi])
    else:
        z = np.linspace(lo, hi, num)
    return z, loss_values(name, z)


def _sums(Z: np.ndarray) -> np.ndarray:
    """Each loss of :data:`LOSS_NAMES` summed over the last axis of ``Z``: shape (..., 4)."""
    with np.errstate(over="ignore", invalid="ignore"):
        return np.stack([loss.value(Z).sum(axis=-1) for loss in MARGIN_LOSSES], axis=-1)


def risks_of_margins(z: np.ndarray) -> np.ndarray:
    """The mean of each loss of :data:`LOSS_NAMES` over the margins ``z``: shape (4,)."""
    z = np.asarray(z, dtype=np.float64)
    return _sums(z) / z.size if z.size else np.full(len(LOSS_NAMES), np.nan)


def risks(Xs: np.ndarray, s: np.ndarray, W: np.ndarray, B: np.ndarray):
    """The empirical risk under each loss for each state ``(w_j, b_j)``: a generator yielding
    after each block (a worker stops there) and returning the ``(m, 4)`` risks in the order
    of :data:`LOSS_NAMES`.  ``Xs``: ``(y_i x_i)`` transposed, ``(n_features, n_samples)``;
    ``s`` the ±1 labels; ``W`` (m, n_features) and ``B`` (m,) the states.
    """
    m, n = W.shape[0], s.shape[0]
    out = np.empty((m, len(LOSS_NAMES)))
    step = max(1, _BLOCK // max(int(n), 1))
    for a in range(0, m, step):
        Z = W[a : a + step] @ Xs  # (block, n): y_i w·x_i
        Z += np.multiply.outer(B[a : a + step], s)
        out[a : a + step] = _sums(Z)
        yield a
    out /= max(n, 1)
    return out
