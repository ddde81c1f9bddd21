"""The perceptron in its dual (kernel) form: one ``alpha_i`` per sample, kernel rows on demand."""

from __future__ import annotations

import math
import time
from collections import OrderedDict

import numpy as np

from ..kernels import Kernel, make_kernel
from ..values import readonly
from ._log import Rows, UpdateLog, empty_columns
from ._run import WEIGHTS_OVERFLOW
from .params import DUAL
from .perceptron_engine import PerceptronEngine
from .ties import correct, mistakes

#: Kernel values (a few ms) up to which a converged kernel run's predictions are
#: all recomputed (:meth:`DualPerceptron._close_epoch`).
CHECK_ALL_WORK = 2**20

#: :attr:`DualPerceptron.diverged_reason_` when a clean epoch left ``predict``
#: misclassifying a training sample (the two sums round apart near 0).
PREDICTIONS_DISAGREE = "predictions disagree with the run's margins"

#: Bytes of kernel rows cached (least recently used out): every row up to n = 5,792.
KERNEL_CACHE_BYTES = 256 * 2**20

#: Bytes of copies of the frontier's kernel part of f (the spacing doubles when
#: they would exceed it): a cursor behind is rebuilt from the nearest one.
SNAPSHOT_BYTES = 128 * 2**20

#: The copies are at least this many kernel values apart (a rebuild's few ms).
SNAPSHOT_MIN_WORK = 2**21

#: Bytes of int32 copies of ``alpha`` along the run (the spacing doubles past it).
ALPHA_SNAPSHOT_BYTES = 32 * 2**20

#: The copies of ``alpha`` are at least this many updates apart.
ALPHA_MIN_STRIDE = 2**14

#: Updates read from the log at once when ``alpha`` is brought to a cursor.
_ALPHA_CHUNK = 2**18


class _Copies(dict):
    """Copies of a run's state by update count, one every :attr:`every` updates.

    Past ``most`` copies the spacing doubles and the copies off it go.
    """

    def __init__(self, every: int, most: int):
        super().__init__()
        self.every, self.most = max(1, every), max(1, most)

    def keep(self, count: int, value) -> None:
        """Keep ``value()``, the state after ``count`` updates, when ``count`` is on the spacing."""
        if count % self.every:
            return
        self[count] = value()
        if len(self) > self.most:
            self.every *= 2
            for c in [c for c in self if c % self.every]:
                del self[c]


class DualPerceptron(PerceptronEngine):
    r"""The perceptron in its dual form, with a kernel, and the same step API.

    The weight vector is kept as :math:`w = \sum_i \alpha_i y_i \phi(x_i)`, where
    :math:`\alpha_i` counts the mistakes made on sample :math:`i`; it classifies
    with

    .. math::  f(x) = \sum_j \alpha_j y_j K(x_j, x) + b,

    and a mistake on sample :math:`i` (:math:`y_i f(x_i) \le 0`; with
    ``tie="positive"``, :math:`y_i \hat y_i < 0` with
    :math:`\operatorname{sign}(0) = +1`) sets
    :math:`\alpha_i \leftarrow \alpha_i + 1` and :math:`b \leftarrow b + y_i c^2`.

    Parameters
    ----------
    kernel : {"linear", "poly", "rbf"}, default="linear"
        :math:`K(a, b)`: ``a·b``; ``(gamma a·b + coef0)**degree``; ``exp(-gamma ||a - b||²)``.
    degree, gamma, coef0 : int, float, float, default=3, 1.0, 1.0
        The polynomial kernel's degree, its and the RBF's scale, its constant.
    tie, fit_intercept, bias_scale, order, random_state, max_iter
        As for :class:`PrimalPerceptron` (the bias is the weight of a constant
        feature :math:`c`: the kernel :math:`K + c^2`).

    Attributes
    ----------
    alpha_, dual_coef_ : ndarray of shape (n_samples,)
        Mistakes per training sample at the cursor (int), and :math:`\alpha_i y_i`.
    support_ : ndarray of int
        The samples with :math:`\alpha_i > 0`.
    coef_ : ndarray of shape (1, n_features)
        Only for the linear kernel: :math:`\sum_i \alpha_i y_i x_i`.
    intercept_, classes_, n_updates_, n_epochs_, converged_, diverged_, history
        As for :class:`PrimalPerceptron`; a kernel run whose clean last epoch
        left ``predict`` misclassifying a training sample ends with
        ``diverged_reason_`` :data:`PREDICTIONS_DISAGREE`, never converged.

    Notes
    -----
    With the linear kernel it keeps :math:`w` and makes the updates of
    :class:`PrimalPerceptron`, bit for bit.  With another it keeps the kernel
    part of every sample's decision value, adding :math:`y_i K(x_i, \cdot)` on
    each update (O(n), one kernel row, cached up to :data:`KERNEL_CACHE_BYTES`;
    never the Gram matrix).  A cursor behind the frontier rebuilds the values
    in the frontier's order from its nearest kept copy (:data:`SNAPSHOT_BYTES`),
    so with the same bits.

    References
    ----------
    Y. Freund and R. E. Schapire, "Large margin classification using the
    perceptron algorithm", Machine Learning 37 (1999).
    """

    PARAMS = DUAL

    def __init__(self, *, kernel="linear", degree=3, gamma=1.0, coef0=1.0, tie="mistake",
                 fit_intercept=True, bias_scale=1.0, order="cyclic", random_state=None,
                 max_iter=1000):
        self._store(locals())

    def validate_params(self) -> None:
        super().validate_params()
        self._kernel_ = make_kernel(
            self.kernel, degree=self.degree, gamma=self.gamma, coef0=self.coef0
        )

    @property
    def kernel_function(self) -> Kernel:
        """The run's validated :class:`~perceptron_gui.core.kernels.Kernel`."""
        self._require_started()
        return self._kernel_

    @property
    def _linear(self) -> bool:
        return self._kernel_.name == "linear"

    def _check_start(self, w0: np.ndarray, b0: float) -> None:
        """The dual perceptron starts from ``alpha = 0``: it takes no other start."""
        if np.any(w0) or b0:
            raise ValueError("the dual perceptron starts from alpha = 0 (w = 0, b = 0); "
                             "a start w0 is the primal perceptron's")

    # -- kernel rows ----------------------------------------------------------------
    def _setup_state(self) -> None:
        self._alpha_front = np.zeros(self._n, np.int64)  # alpha at the frontier
        # the copies of alpha along the run and the last one asked for belong to it
        self._alpha_snaps = _Copies(ALPHA_MIN_STRIDE, ALPHA_SNAPSHOT_BYTES // (4 * self._n))
        self._alpha_memo = None
        if self._linear:
            super()._setup_state()
            return
        self._log = UpdateLog(None, self._n, replay=self.replay_updates)
        self._ff = np.zeros(self._n)  # kernel part of f at the frontier
        self._fb = 0.0
        self._rows: OrderedDict[int, np.ndarray] = OrderedDict()
        self._max_rows = max(1, KERNEL_CACHE_BYTES // (8 * self._n))
        # update count -> (step, b, frontier's f) after it
        self._snaps = _Copies(SNAPSHOT_MIN_WORK // self._n, SNAPSHOT_BYTES // (8 * self._n))

    def kernel_row(self, i: int) -> np.ndarray:
        """``K(x_i, x_j)`` for every training sample ``j`` (computed once, cached)."""
        row = self._rows.get(i)
        if row is None:
            row = readonly(self._kernel_(self._X[i : i + 1], self._X)[0])
            self._rows[i] = row
            while len(self._rows) > self._max_rows:
                self._rows.popitem(last=False)
        else:
            self._rows.move_to_end(i)
        return row

    # -- copies of the frontier ---------------------------------------------------------
    def _snapshot_before(self, k: int) -> tuple[int, int, float, np.ndarray | None]:
        """``(c, T_c, b_c, f_c)``: the frontier's last kept ``f``, after ``c <= k`` updates."""
        snaps = self._snaps
        c = max((c for c in snaps if c <= k), default=0)
        return (c, *snaps[c]) if c else (0, 0, 0.0, None)

    def _kernel_f(self, k: int, idx):
        """The kernel part of ``f`` at the samples ``idx`` after ``k`` updates, as the scan saw it.

        The frontier's values when no update follows; else rebuilt in the order
        the frontier accumulated them, from its latest copy at or before ``k``.
        """
        if k == len(self._log):
            return self._ff[idx].copy()
        c, _, _, base = self._snapshot_before(k)
        f = (np.zeros(self._n) if base is None else base.copy())[idx]
        for i in self._log.rows(c, k).index.tolist():
            f += self._s[i] * self.kernel_row(i)[idx]
        return f

    def _margin_at(self, idx: int, k: int) -> float:
        if self._linear:
            return super()._margin_at(idx, k)
        return float(self._s[idx] * (self._kernel_f(k, idx) + self._log.state_after(k)[1]))

    def _compute(self, max_steps: int | None = None, until_update: bool = False,
                 deadline: float | None = None) -> None:
        if self._linear:
            return super()._compute(max_steps, until_update, deadline)
        if self._end is not None:
            return
        log = self._log

        front = self._alpha_front

        def record(step, i, z, b, f):
            log.append(step, i, z, None, b)
            front[i] += 1
            self._snaps.keep(len(log), lambda: (step, b, readonly(f.copy())))
            log.checkpoint(step, None, b)

        stop_at = None if max_steps is None else self._T + max_steps
        self._T, self._fb = self._kernel_scan(self._ff, self._fb, self._T, stop_at, record,
                                              until_update, deadline, frontier=True)

    def _kernel_scan(self, f, b, T, stop_at, record, until_update=False, deadline=None,
                     frontier=False):
        """Run from step ``T``, ``f`` (updated in place) and ``b``; returns the step and ``b``.

        ``record(step, i, z, b, f)`` follows each update; the frontier also ends the run.
        """
        n, c2, s_all = self._n, self._c2, self._s
        while True:
            epoch, pos = divmod(T, n)
            perm = self._order(epoch)
            hi = n if stop_at is None else min(n, pos + (stop_at - T))
            updated = False
            while pos < hi:
                idx = slice(pos, hi) if perm is None else perm[pos:hi]
                z = (f[idx] + b) * s_all[idx]
                hits = np.flatnonzero(mistakes(z, s_all[idx], self._positive))
                if not hits.size:
                    pos = hi
                    break
                h = int(hits[0])
                i = pos + h if perm is None else int(perm[pos + h])
                y = s_all[i]
                if y > 0:  # f += y K(x_i, ·) with y = ±1, without a temporary row
                    f += self.kernel_row(i)
                else:
                    f -= self.kernel_row(i)
                b += y * c2
                pos += h + 1
                record(epoch * n + pos, i, float(z[h]), b, f)
                updated = True
                if not (math.isfinite(b) and np.isfinite(f).all()):
                    break
                if until_update:
                    break
                if deadline is not None and time.perf_counter() >= deadline:
                    break  # an update costs O(n): the caller's time is up
            T = epoch * n + pos
            if not (math.isfinite(b) and np.isfinite(f).all()):
                if frontier:
                    self._diverge(T, WEIGHTS_OVERFLOW)
                break
            if frontier:
                self._log.checkpoint(T, None, b)
                if pos == n:
                    self._close_epoch(epoch, T)
                if self._end is not None:
                    break
            if stop_at is not None and T >= stop_at:
                break
            if until_update and updated:
                break
            if deadline is not None and time.perf_counter() >= deadline:
                break
        return T, b

    def replay_updates(self, T0: int, k0: int, w0: np.ndarray | None, b0: float, T1: int,
                       m: int) -> tuple[int, Rows]:
        """The engine's; a kernel run from the last copy of ``f`` at ``c <= k0``: ``(c, rows)``."""
        if self._linear:
            return super().replay_updates(T0, k0, w0, b0, T1, m)
        c, Tc, bc, fc = self._snapshot_before(k0)
        size = k0 + m - c
        out = empty_columns(size, None)
        seen = [0]

        def record(step, i, z, b, f):
            u = seen[0]
            out[0][u], out[1][u], out[2][u], out[4][u] = step, i, z, b
            seen[0] = u + 1

        f = np.zeros(self._n) if fc is None else fc.copy()
        self._kernel_scan(f, bc, Tc, T1, record)
        return c, Rows(*out)

    def training_margins(self) -> np.ndarray:
        self._require_started()
        if self._linear:
            return super().training_margins()
        k = self._log.count_before(self._t)
        f = self._kernel_f(k, slice(None))
        f += self._log.state_after(k)[1]
        f *= self._s
        return f

    # -- state --------------------------------------------------------------------------
    def _sync_extra(self, k: int) -> None:
        alpha = self._alpha_at(k)
        self.alpha_ = alpha
        self.dual_coef_ = alpha * self._s
        # flatnonzero(alpha): by sorting the k updates' indices while that costs less than
        # a pass over the n samples (early in a run on many samples), else by that pass
        self.support_ = (np.unique(self._log.rows(0, k).index)
                         if k * max(1, k.bit_length()) < self._n else np.flatnonzero(alpha))
        self.X_fit_ = self._X
        if not self._linear and hasattr(self, "coef_"):
            del self.coef_

    def alpha_after(self, k: int) -> np.ndarray:
        """``alpha`` after the first ``k`` updates of the computed run (a new array)."""
        self._require_started()
        return self._alpha_at(max(0, min(int(k), len(self._log))))

    def _alpha_at(self, k: int) -> np.ndarray:
        """The nearest known ``alpha`` (last asked, frontier's, a copy, 0) plus the updates between.

        Walking forward keeps the copies it passes (:data:`ALPHA_SNAPSHOT_BYTES`).
        """
        snaps, memo = self._alpha_snaps, self._alpha_memo
        stride = snaps.every
        c, base = 0, None
        if memo is not None and abs(memo[0] - k) < k:
            c, base = memo
        K = len(self._log)
        if abs(K - k) < abs(c - k):
            c, base = K, self._alpha_front
        near = k - k % stride
        if near in snaps and abs(near - k) < abs(c - k):
            c, base = near, snaps[near]
        alpha = np.zeros(self._n, np.int64) if base is None else base.astype(np.int64)
        if c > k:
            self._alpha_add(alpha, k, c, -1)
        while c < k:  # forward, stopping at each multiple of the stride to keep a copy
            e = min(k, (c // stride + 1) * stride)
            self._alpha_add(alpha, c, e, 1)
            c = e
            if c not in snaps:
                snaps.keep(c, lambda: readonly(alpha.astype(np.int32)))
                stride = snaps.every
        self._alpha_memo = (k, alpha.copy())
        return alpha

    def _on_updates(self, index: np.ndarray) -> None:
        np.add.at(self._alpha_front, index, 1)

    def _alpha_add(self, alpha: np.ndarray, k0: int, k1: int, sign: int) -> None:
        """Add ``sign`` once for each update ``k0 + 1 .. k1`` to its sample's entry."""
        for a in range(k0, k1, _ALPHA_CHUNK):
            idx = self._log.rows(a, min(k1, a + _ALPHA_CHUNK)).index
            if idx.size * 8 > self._n:
                alpha += sign * np.bincount(idx, minlength=self._n)
            else:
                np.add.at(alpha, idx, sign)

    def decision_function(self, X) -> np.ndarray:
        """:math:`f(x) = \\sum_j \\alpha_j y_j K(x_j, x) + b` of shape (n_samples,)."""
        self._check_fitted()
        if self._linear:
            return super().decision_function(X)
        X = self._fitted_X(X)
        sv = self.support_
        return self._decision(X, sv, self.dual_coef_[sv], float(self.intercept_[0]))

    def _decision(self, X, sv, coef, b: float) -> np.ndarray:
        """``b + K(X, X[sv]) @ coef``, as :meth:`decision_function` computes it."""
        out = np.full(X.shape[0], b)
        coef = coef.astype(np.float64)
        block = max(1, (1 << 22) // max(1, sv.size))  # keep blocks around 32 MiB
        for a in range(0, X.shape[0], block):
            if sv.size:
                out[a : a + block] += self._kernel_(X[a : a + block], self._X[sv]) @ coef
        return out

    def _close_epoch(self, epoch: int, T: int, w=None, b: float = 0.0) -> None:
        """As the engine's; a kernel run converges only if ``predict`` gets every sample right.

        The scan accumulated ``f`` a kernel row an update, :meth:`predict` sums
        it once: they differ only by rounding (the kernel is symmetric to the
        bit).  Every sample is checked up to :data:`CHECK_ALL_WORK` kernel
        values, else those within the rounding bound of 0.
        """
        super()._close_epoch(epoch, T, w, b)
        if self._linear or not (self._end == T and self._end_converged):
            return
        k = self._log.count_before(T)
        alpha = self._alpha_at(k)
        sv = np.flatnonzero(alpha)
        b = self._log.state_after(k)[1]
        if self._n * sv.size <= CHECK_ALL_WORK:
            near = np.arange(self._n)
        else:
            near = np.flatnonzero(~(self._s * (self._ff + b) > self._rounding_bound(k, b)))
        if near.size:
            f = self._decision(self._X[near], sv, (alpha * self._s)[sv], b)
            if np.any(~correct(self._s[near] * f, self._s[near], self._positive)):
                self._diverge(T, PREDICTIONS_DISAGREE)

    def _rounding_bound(self, k: int, b: float) -> float:
        """Twice the error bounds of a sum of ``k`` kernel values (and ``b``), added twice."""
        kern = self._kernel_
        if kern.name == "rbf":
            k_max = 1.0
        else:  # |K(a, b)| <= (gamma |a| |b| + |coef0|) ** degree
            with np.errstate(over="ignore"):
                r2 = float(np.max(np.einsum("ij,ij->i", self._X, self._X)))
                k_max = (kern.gamma * r2 + abs(kern.coef0)) ** kern.degree
        with np.errstate(over="ignore", invalid="ignore"):
            return 4.0 * (k + 2) * float(np.finfo(np.float64).eps) * (k * k_max + abs(b))
