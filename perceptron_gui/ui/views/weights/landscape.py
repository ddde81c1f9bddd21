r"""The loss landscape: the empirical risk over a grid of weights (numpy only).

Over the plane ``(w_1, w_2)`` (with a bias, the slice at a fixed ``b``) the
risk under a loss is

.. math::  R(w) = \frac1n \sum_i \ell(m_i), \qquad m_i = A_i w_1 + B_i w_2 + C_i,

with ``(A_i, B_i, C_i) = y_i (x_{i1}, x_{i2}, b)``.  For the perceptron and
hinge losses, ``ℓ(m) = max(0, k - m)`` is piecewise linear, and along a row
of the grid (``w_2`` fixed) case ``i`` adds ``s_i w_1 + r_i`` to the columns
on one side of its kink ``t_i = -r_i / s_i``: every row is summed at once
by counting each case into the column where it starts (or stops) counting
and a cumulative sum, ``O(G n + G²)`` for a ``G × G`` grid instead of
``O(G² n)`` (:func:`piecewise_grid`, 256² at 10⁴ cases in tens of ms).  The
logistic loss is evaluated directly, coarse grids first
(:func:`progressive`).
"""

from __future__ import annotations

import numpy as np

from ....core.learners.primal import margin_loss

__all__ = ["KINKED", "LEVELS", "direct_grid", "piecewise_grid", "progressive", "risk_grid"]

#: The losses whose risk is piecewise linear in w: name -> the kink's margin ``k``.
KINKED = {"perceptron": 0.0, "hinge": 1.0}
#: The grid sides computed in turn, coarse first: each result is drawn as it comes.
LEVELS = (16, 32, 64, 128, 256)
#: Margins per block of :func:`direct_grid` (about 2¹⁸: 2 MB).
BLOCK = 1 << 18


def _axes(x_range, y_range, size: int) -> tuple[np.ndarray, np.ndarray]:
    """The centres of ``size`` columns and rows spanning the ranges."""
    (x0, x1), (y0, y1) = x_range, y_range
    dx, dy = (x1 - x0) / size, (y1 - y0) / size
    return x0 + dx * (np.arange(size) + 0.5), y0 + dy * (np.arange(size) + 0.5)


def piecewise_grid(ABC: np.ndarray, loss: str, x_range, y_range, size: int) -> np.ndarray:
    """The risk under the perceptron or hinge loss at the centres of a ``size²`` grid.

    Parameters
    ----------
    ABC : ndarray of shape (n, 3)
        ``(A_i, B_i, C_i)``: case ``i``'s margin is ``A_i w_1 + B_i w_2 + C_i``.
    loss : {"perceptron", "hinge"}
    x_range, y_range : (float, float)
        The grid's extent in ``w_1`` and ``w_2``.
    size : int
        Columns and rows.

    Returns
    -------
    ndarray of shape (size, size)
        Row ``r``, column ``j``: the risk at ``(w1[j], w2[r])`` (margins that
        overflow, at extreme scales, give ``inf`` or NaN, silently).
    """
    with np.errstate(over="ignore", invalid="ignore", divide="ignore"):
        return _piecewise(ABC, loss, x_range, y_range, size)


def _piecewise(ABC, loss, x_range, y_range, size):
    k = KINKED[loss]
    n = ABC.shape[0]
    w1, w2 = _axes(x_range, y_range, size)
    x0, dx = w1[0], (w1[1] - w1[0] if size > 1 else 1.0)
    s = -ABC[:, 0]  # along a row, ℓ_i = max(0, s_i w1 + r_i)
    R = np.multiply.outer(w2, -ABC[:, 1])  # (size, n): r_i per row
    R += k - ABC[:, 2]
    G1 = size + 1
    # j: the first column past the kink t_i = -r_i / s_i.  A case with s_i > 0 counts
    # from there on; one with s_i < 0 counts from column 0 and stops there.
    sign = np.sign(s)
    J = np.divide(R, -s, where=s != 0, out=np.zeros_like(R))
    J -= x0
    J /= dx
    np.floor(J, out=J)
    J += 1
    np.clip(J, 0, size, out=J)
    idx = J.astype(np.int64)
    idx += (np.arange(size) * G1)[:, None]
    flat = s == 0
    if flat.any():  # no kink: counts everywhere while r_i > 0
        idx[:, flat] = (np.arange(size) * G1)[:, None]
    idx = idx.ravel()
    ws = np.broadcast_to(np.where(flat, 0.0, sign * s), R.shape).ravel()
    wr = (R * np.where(flat, 1.0, sign)).ravel()
    if flat.any():
        wr = np.where(np.broadcast_to(flat, R.shape).ravel() & (wr < 0), 0.0, wr)
    slope = np.bincount(idx, ws, minlength=size * G1).reshape(size, G1)
    offset = np.bincount(idx, wr, minlength=size * G1).reshape(size, G1)
    down = s < 0
    if down.any():
        slope[:, 0] += s[down].sum()
        offset[:, 0] += R[:, down].sum(axis=1)
    np.cumsum(slope, axis=1, out=slope)
    np.cumsum(offset, axis=1, out=offset)
    out = slope[:, :size] * w1 + offset[:, :size]
    return np.maximum(out, 0.0) / max(n, 1)


def direct_grid(ABC: np.ndarray, loss: str, x_range, y_range, size: int):
    """The risk under any loss at the centres of a ``size²`` grid, by evaluating every margin.

    A generator: it yields after each block of rows (a worker stops there when
    asked) and returns the grid, as :func:`piecewise_grid`.
    """
    n = ABC.shape[0]
    w1, w2 = _axes(x_range, y_range, size)
    out = np.empty((size, size))
    rows = max(1, BLOCK // max(n * size, 1))
    for r0 in range(0, size, rows):
        r1 = min(size, r0 + rows)
        with np.errstate(over="ignore", invalid="ignore"):
            M = (np.multiply.outer(w1, ABC[:, 0])[None, :, :]
                 + np.multiply.outer(w2[r0:r1], ABC[:, 1])[:, None, :] + ABC[:, 2])
            out[r0:r1] = margin_loss(loss, M).mean(axis=2) if n else 0.0
        yield r0
    return out


def risk_grid(ABC: np.ndarray, loss: str, x_range, y_range, size: int) -> np.ndarray:
    """The risk grid at once: :func:`piecewise_grid` where it applies, else :func:`direct_grid`."""
    if loss in KINKED:
        return piecewise_grid(ABC, loss, x_range, y_range, size)
    gen = direct_grid(ABC, loss, x_range, y_range, size)
    while True:
        try:
            next(gen)
        except StopIteration as stop:
            return stop.value


def progressive(ABC: np.ndarray, loss: str, x_range, y_range, levels=LEVELS):
    """Yield ``(size, grid)`` for each size of ``levels``, coarse first (a worker's generator).

    The piecewise-linear losses go straight to the finest grid (it costs
    little); the logistic loss is refined level by level, yielding between
    blocks of rows so that a newer request stops it soon.
    """
    if loss in KINKED:
        yield levels[-1], piecewise_grid(ABC, loss, x_range, y_range, levels[-1])
        return
    for size in levels:
        gen = direct_grid(ABC, loss, x_range, y_range, size)
        while True:
            try:
                next(gen)
            except StopIteration as stop:
                grid = stop.value
                break
            yield None
        yield size, grid
