"""The inner loop of the linear perceptron: scan a stretch of one epoch for mistakes.

Two implementations, bit-identical by construction and by test: :func:`scan_numpy`
takes a chunk of margins at once, adapting the chunk to the gap between mistakes;
:func:`scan_compiled` is the same loop compiled by numba (imported lazily; off
with ``PERCEPTRON_GUI_NO_JIT=1``), since an update costs numpy a handful of calls.

Both compute ``y * (((x0*w0 + x1*w1) + ...) + b)``, one rounding per operation
and no fused multiply-add, and update ``w += x * (eta*y)``, ``b += (eta*y) * c2``.
A mistake is ``not z > thr`` (``positive``: ``sign(0) = +1``, :mod:`.ties`).  A
NaN margin (``inf - inf``) is neither mistake nor correct: the scan stops there.
"""

from __future__ import annotations

import numpy as np

from ._jit import COMPILED_MIN_STRETCH, EMPTY_ORDER, LazyLoop, warm_inputs

__all__ = ["COMPILED_MIN_STRETCH", "FORCE", "choose_compiled", "compiled_available", "scan",
           "scan_numpy"]

MIN_CHUNK = 8

#: Backend override for tests and benchmarks: None (automatic), "numpy" or "compiled".
FORCE: str | None = None


def scan_numpy(cols, s, order, X, s_all, pos, hi, w, b, eta, c2, thr, base_step, until_update,
               out_step, out_index, out_margin, out_w, out_b, state, positive=False):
    """Scan positions ``pos .. hi-1`` of an epoch; record updates into the ``out_*`` buffers.

    Parameters
    ----------
    cols, s : list of ndarray, ndarray
        Feature columns and labels (±1.0) in the epoch's visiting ``order`` (None: identity).
    X, s_all : ndarray
        Samples and labels in index order (for the update); ``w`` is updated in place.
    c2, thr : float
        Square of the bias feature (0 without bias); the update threshold
        (0 for the perceptron loss, 1 for the hinge loss).
    base_step : int
        Step number of position 0 of this epoch, minus one.
    out_step, out_index, out_margin, out_w, out_b : ndarray
        Buffers for the updates; the scan stops when they are full.
    state : list
        ``[chunk, nan]``: the adaptive chunk, and True once stopped at a NaN margin.

    Returns
    -------
    pos, b, n_updates
        Position reached (just past a NaN margin), bias, updates written.
    """
    with np.errstate(over="ignore", invalid="ignore"):  # overflow is detected by the caller
        cap = out_step.shape[0]
        d = len(cols)
        chunk = state[0]
        u = 0
        while pos < hi and u < cap:
            e = min(hi, pos + chunk)
            z = cols[0][pos:e] * w[0]
            for j in range(1, d):
                z += cols[j][pos:e] * w[j]
            z += b
            z *= s[pos:e]
            if positive:
                hits = np.flatnonzero(~((z > thr) | ((z == 0.0) & (s[pos:e] > 0.0))))
            else:
                hits = np.flatnonzero(~(z > thr))
            if hits.size:
                h = int(hits[0])
                if z[h] != z[h]:
                    pos += h + 1
                    state[1] = True
                    break
                i = pos + h if order is None else int(order[pos + h])
                upd = eta * s_all[i]
                w += X[i] * upd
                b += upd * c2
                pos += h + 1
                out_step[u] = base_step + pos
                out_index[u] = i
                out_margin[u] = z[h]
                out_w[u] = w
                out_b[u] = b
                u += 1
                chunk = max(MIN_CHUNK, 2 * (h + 1))
                if until_update:
                    break
            else:
                pos = e
                chunk = min(2 * chunk, max(hi, 1))
        state[0] = chunk
        return pos, b, u


def _build_compiled():
    import numba

    @numba.njit(cache=True, nogil=True, fastmath=False)
    def _loop(X, s_all, order, use_order, pos, hi, w, b, eta, c2, thr, base_step, until_update,
              out_step, out_index, out_margin, out_w, out_b, positive):
        d = X.shape[1]
        cap = out_step.shape[0]
        u = 0
        nan = False
        while pos < hi and u < cap:
            i = order[pos] if use_order else pos
            p = X[i, 0] * w[0]
            for j in range(1, d):
                p = p + X[i, j] * w[j]
            z = s_all[i] * (p + b)
            pos += 1
            if not (z > thr or (positive and z == 0.0 and s_all[i] > 0.0)):
                if z != z:
                    nan = True
                    break
                upd = eta * s_all[i]
                for j in range(d):
                    w[j] = w[j] + X[i, j] * upd
                b = b + upd * c2
                out_step[u] = base_step + pos
                out_index[u] = i
                out_margin[u] = z
                for j in range(d):
                    out_w[u, j] = w[j]
                out_b[u] = b
                u += 1
                if until_update:
                    break
        return pos, b, u, nan

    return _loop


def _warm(loop) -> None:
    """Call the loop on tiny arrays of every real type (numba loads on first call: 0.3-0.8 s)."""
    for X in warm_inputs():
        loop(X, np.ones(1), EMPTY_ORDER, False, 0, 1, np.zeros(2), 0.0, 1.0, 1.0, 0.0, 0, False,
             np.zeros(1, np.int64), np.zeros(1, np.int64), np.zeros(1), np.zeros((1, 2)),
             np.zeros(1), False)


_compiled = LazyLoop(_build_compiled, _warm)
compiled_available = _compiled.available


def scan_compiled(cols, s, order, X, s_all, pos, hi, w, b, eta, c2, thr, base_step, until_update,
                  out_step, out_index, out_margin, out_w, out_b, state, positive=False):
    """Same contract as :func:`scan_numpy`, one compiled loop over the samples."""
    use_order = order is not None
    o = order if use_order else EMPTY_ORDER
    pos, b, u, nan = _compiled(X, s_all, o, use_order, pos, hi, w, float(b), float(eta),
                               float(c2), float(thr), base_step, until_update,
                               out_step, out_index, out_margin, out_w, out_b, bool(positive))
    if nan:
        state[1] = True
    return int(pos), float(b), int(u)


def choose_compiled(stretch: int) -> bool:
    """Whether to scan a stretch of ``stretch`` samples with the compiled loop."""
    return _compiled.choose(stretch, FORCE)


def scan(*args, use_compiled: bool, positive: bool = False):
    """The compiled loop (:func:`choose_compiled`) or the numpy scan, as :func:`scan_numpy`."""
    return (scan_compiled if use_compiled else scan_numpy)(*args, positive)
