"""The inner loop of stochastic gradient descent on a linear model, compiled by numba.

The step of :mod:`.gradient` (scikit-learn's ``_plain_sgd``) for the losses of
:data:`~.losses.TRAINABLE` by their code, each derivative as :mod:`.losses` writes it.

No fused multiply-add (numba's default), so the Python loop, this one and
scikit-learn's agree bit for bit.  Without numba the engine's Python loop runs.
"""

from __future__ import annotations

import numpy as np

from . import _scan
from ._jit import COMPILED_MIN_STRETCH, EMPTY_ORDER, LazyLoop, warm_inputs

__all__ = ["compiled_available", "choose_compiled", "run", "COMPILED_MIN_STRETCH"]

#: Codes :func:`run` returns for why it stopped before the end of the stretch.
STOP_NAN, STOP_INF = 1, 2


def _build():
    import math

    import numba

    @numba.njit(cache=True, nogil=True, fastmath=False)
    def loop(X, s, order, use_order, pos, hi, w, b, eta, c2, loss, base, stride, rec,
             r_index, r_margin, r_w, r_b, ck_w, ck_b):
        d = X.shape[1]
        inf = math.inf
        moved = 0
        nck = 0
        for q in range(pos, hi):
            i = order[q] if use_order else q
            y = s[i]
            p = X[i, 0] * w[0]
            for j in range(1, d):
                p = p + X[i, j] * w[j]
            p = p + b
            if not (-inf < p < inf):
                return q, b, moved, (1 if p != p else 2), nck
            if loss == 0:
                g = -y if p * y <= 0.0 else 0.0
            elif loss == 1:
                g = -y if p * y <= 1.0 else 0.0
            else:
                t = 0.5 * (y + 1.0)
                if p > -37.0:
                    e = math.exp(-p)
                    g = ((1.0 - t) - t * e) / (1.0 + e)
                else:
                    g = math.exp(p) - t
            if g != 0.0:
                u = -eta * g
                for j in range(d):
                    w[j] = w[j] + X[i, j] * u
                b = b + u * c2
                moved += 1
            if rec:
                k = q - pos
                r_index[k] = i
                r_margin[k] = y * p
                for j in range(d):
                    r_w[k, j] = w[j]
                r_b[k] = b
            if (base + q + 1) % stride == 0:
                for j in range(d):
                    ck_w[nck, j] = w[j]
                ck_b[nck] = b
                nck += 1
        return hi, b, moved, 0, nck

    return loop


def _warm(loop) -> None:
    """Load the machine code for the argument types the engine uses (writable and read-only X)."""
    for X in warm_inputs():
        for rec in (False, True):
            loop(X, np.ones(1), EMPTY_ORDER, False, 0, 1, np.zeros(2), 0.0, 1.0, 1.0, 1, 0,
                 2**62, rec, np.zeros(1, np.int64), np.zeros(1), np.zeros((1, 2)), np.zeros(1),
                 np.zeros((1, 2)), np.zeros(1))


_compiled = LazyLoop(_build, _warm)
compiled_available = _compiled.available


def loaded() -> bool:
    """True when the compiled loop is loaded already (using it costs no wait)."""
    return _compiled.loaded


def choose_compiled(stretch: int) -> bool:
    """Whether to run ``stretch`` steps compiled (:data:`~._scan.FORCE` decides first)."""
    return _compiled.choose(stretch, _scan.FORCE)


def run(X, s, order, pos, hi, w, b, eta, c2, loss, base, stride, rows=None):
    """Steps at positions ``pos .. hi-1`` of an epoch, compiled; ``w`` is updated in place.

    ``order``, ``c2`` and ``base`` as :func:`~._scan.scan_numpy`'s; the state
    after each step number that is a multiple of ``stride`` is kept; ``rows``
    are ``(index, margin, w, b)`` buffers for every step's row.

    Returns
    -------
    pos, b, moved : int, float, int
        The position reached (``hi``, or that of a decision value not finite,
        step not taken), the bias, and the steps that moved ``w`` or ``b``.
    stop : int
        0, :data:`STOP_NAN` or :data:`STOP_INF` (the decision value at ``pos``).
    checkpoints : tuple of ndarray
        ``(w, b)`` after each multiple of ``stride``, in order.
    """
    d = w.shape[0]
    m = (base + hi) // stride - (base + pos) // stride
    ck_w, ck_b = np.empty((max(m, 1), d)), np.empty(max(m, 1))
    rec = rows is not None
    if not rec:
        rows = (np.empty(1, np.int64), np.empty(1), np.empty((1, d)), np.empty(1))
    use_order = order is not None
    pos, b, moved, stop, nck = _compiled(
        X, s, order if use_order else EMPTY_ORDER, use_order, int(pos), int(hi), w, float(b),
        float(eta), float(c2), int(loss), int(base), int(stride), rec, *rows, ck_w, ck_b)
    return int(pos), float(b), int(moved), int(stop), (ck_w[:nck], ck_b[:nck])
