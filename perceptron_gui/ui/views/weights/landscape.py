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
``O(G² n)`` (:func:`piecewise_grid`; the counting pass compiled by numba when
available).  The logistic loss is evaluated directly, coarse grids first.
"""

from __future__ import annotations

import numpy as np

from ....core.learners._jit import LazyLoop
from ....core.learners.losses import Loss

__all__ = ["LEVELS", "compiled_available", "direct_grid", "piecewise_grid",
           "progressive", "risk_grid"]

#: The grid sides computed in turn, coarse first: each result is drawn as it comes.
LEVELS = (8, 16, 32, 64, 128, 256)
#: The first grid of a piecewise-linear loss when it is counted in numpy.
COARSE = 64
#: Margins per block of :func:`direct_grid` (about 2¹⁸: 2 MB).
BLOCK = 1 << 18


def _axes(x_range, y_range, size: int) -> tuple[np.ndarray, np.ndarray]:
    """The centres of ``size`` columns and rows spanning the ranges."""
    (x0, x1), (y0, y1) = x_range, y_range
    dx, dy = (x1 - x0) / size, (y1 - y0) / size
    return x0 + dx * (np.arange(size) + 0.5), y0 + dy * (np.arange(size) + 0.5)


def _rows_summed(slope, offset, w1, size: int, n: int) -> np.ndarray:
    """The risk of each row from the slope and offset each column starts counting."""
    np.cumsum(slope, axis=1, out=slope)
    np.cumsum(offset, axis=1, out=offset)
    return np.maximum(slope[:, :size] * w1 + offset[:, :size], 0.0) / max(n, 1)


def _build():
    import math

    import numba

    @numba.njit(cache=True, nogil=True, fastmath=False)
    def count(S, R0, RB, T0, TB, w2, size, slope, offset):
        # case i along row r: ℓ_i = max(0, S_i w_1 + R0_i + RB_i w2_r), its kink in
        # column units t = T0_i + TB_i w2_r (the numpy pass's, to rounding)
        n = S.shape[0]
        for r in range(size):
            v = w2[r]
            for i in range(n):
                s = S[i]
                R = R0[i] + RB[i] * v
                if s == 0.0:  # no kink: counts everywhere while r_i > 0
                    if R > 0.0:
                        offset[r, 0] += R
                    continue
                t = T0[i] + TB[i] * v
                if not (t == t):  # NaN at extreme scales: counted nowhere
                    continue
                t = math.floor(t) + 1.0
                j = 0 if t < 0.0 else (size if t > size else int(t))
                if s > 0.0:
                    slope[r, j] += s
                    offset[r, j] += R
                else:
                    slope[r, 0] += s
                    offset[r, 0] += R
                    slope[r, j] -= s
                    offset[r, j] -= R

    return count


def _warm(count) -> None:
    z = np.zeros(1)
    count(z + 1.0, z, z, z, z, z, 1, np.zeros((1, 2)), np.zeros((1, 2)))


#: The counting pass of :func:`piecewise_grid` compiled (built on first use, in a worker).
_counting = LazyLoop(_build, _warm)


def compiled_available(build: bool = True) -> bool:
    """Whether the compiled counting pass is used; ``build=False`` does not compile it now."""
    return _counting.available() if build else _counting.loaded


def piecewise_grid(ABC: np.ndarray, loss: Loss, x_range, y_range, size: int, *,
                   compiled: bool | None = None) -> np.ndarray:
    """The risk under a kinked loss at the centres of a ``size²`` grid, row ``r`` at ``w2[r]``
    (overflow: ``inf`` or NaN); ``compiled``: True, numpy (False), or (None) once built."""
    use = _counting.loaded if compiled is None else compiled and _counting.available()
    with np.errstate(over="ignore", invalid="ignore", divide="ignore"):
        w1, w2 = _axes(x_range, y_range, size)
        x0, dx = w1[0], (w1[1] - w1[0] if size > 1 else 1.0)  # the columns' start and step
        return (_piecewise_compiled if use else _piecewise)(ABC, loss.kink, w1, w2, x0, dx)


def _piecewise_compiled(ABC, k, w1, w2, x0, dx):
    size = w1.size
    slope = np.zeros((size, size + 1))
    offset = np.zeros((size, size + 1))
    A, B, C = (np.ascontiguousarray(ABC[:, j], dtype=np.float64) for j in range(3))
    S = -A
    R0, RB = k - C, -B
    moves = S != 0
    d = np.where(moves, -S, 1.0)
    T0 = np.where(moves, (R0 / d - x0) / dx, 0.0)
    TB = np.where(moves, RB / d / dx, 0.0)
    _counting(S, R0, RB, T0, TB, w2, int(size), slope, offset)
    return _rows_summed(slope, offset, w1, size, ABC.shape[0])


def _piecewise(ABC, k, w1, w2, x0, dx):
    size = w1.size
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
    return _rows_summed(slope, offset, w1, size, ABC.shape[0])


def direct_grid(ABC: np.ndarray, loss: Loss, x_range, y_range, size: int):
    """The risk under any loss at the centres of a ``size²`` grid, every margin evaluated: a
    generator yielding None after each block of rows (a worker stops there), returning it."""
    n = ABC.shape[0]
    w1, w2 = _axes(x_range, y_range, size)
    out = np.empty((size, size))
    rows = max(1, BLOCK // max(n * size, 1))
    for r0 in range(0, size, rows):
        r1 = min(size, r0 + rows)
        with np.errstate(over="ignore", invalid="ignore"):
            M = (np.multiply.outer(w1, ABC[:, 0])[None, :, :]
                 + np.multiply.outer(w2[r0:r1], ABC[:, 1])[:, None, :] + ABC[:, 2])
            out[r0:r1] = loss.value(M).mean(axis=2) if n else 0.0
        yield None
    return out


def risk_grid(ABC: np.ndarray, loss: Loss, x_range, y_range, size: int) -> np.ndarray:
    """The risk grid at once: :func:`piecewise_grid` where it applies, else :func:`direct_grid`."""
    if loss.kink is not None:
        return piecewise_grid(ABC, loss, x_range, y_range, size)
    *_, (_size, grid) = progressive(ABC, loss, x_range, y_range, levels=(size,))
    return grid


def progressive(ABC: np.ndarray, loss: Loss, x_range, y_range, levels=LEVELS):
    """Yield ``(size, grid)`` for each size of ``levels``, coarse first (a worker's generator;
    the logistic loss yields None between blocks of rows too, so a newer request stops it)."""
    if loss.kink is not None:
        if not _counting.available() and levels[-1] > COARSE:
            yield COARSE, piecewise_grid(ABC, loss, x_range, y_range, COARSE, compiled=False)
        yield levels[-1], piecewise_grid(ABC, loss, x_range, y_range, levels[-1])
        return
    for size in levels:
        grid = yield from direct_grid(ABC, loss, x_range, y_range, size)
        yield size, grid
