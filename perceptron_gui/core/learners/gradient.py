r"""Gradient descent on a linear model, one step at a time: the engine of a dense run.

A step is :math:`u = -\eta\, \ell'(p, y)`, :math:`w \leftarrow w + u\,x`,
:math:`b \leftarrow b + u\,c^2` at ``p = w·x + b``, in scikit-learn's order
(``_plain_sgd``, ``penalty=None``, constant rate: ``p`` summed left to right,
``w`` moved only when ``u != 0``); batch descent steps ``w <- w - eta g_w``,
``b <- b - eta g_p c²``.  The run ends after an epoch that moved nothing,
after ``max_iter``, or when ``p`` or the weights leave float64.  Long
stretches of a loss of :data:`~.losses.TRAINABLE` run compiled (:mod:`._sgd`),
short ones in Python floats: the same arithmetic, bit for bit.
"""

from __future__ import annotations

import math
import time

import numpy as np

from . import _sgd
from ._dense import DenseLog
from ._log import Rows, empty_columns, grown
from ._run import WEIGHTS_OVERFLOW, stop_reason
from .engine import RunEngine, affine

__all__ = ["GradientEngine", "SAMPLE_STRIDE", "BATCH_WORK"]

#: Steps between two checkpoints of a run that examines one sample a step: a
#: seek or a step back replays at most this many (a few ms).
SAMPLE_STRIDE = 2**10

#: A batch run keeps a checkpoint every ``BATCH_WORK // n`` steps (at least every step).
BATCH_WORK = 2**16

#: Steps the compiled loop runs between two looks at the deadline, at most.
COMPILED_STRETCH = 2**16

_NO_CHECKPOINTS = 2**62

_INF = math.inf


class GradientEngine(RunEngine):
    """A linear model trained by gradient steps; every step is an update (a row).

    A subclass says only what its loss is, as orange3-educational's
    ``GradientDescent`` subclasses do: it takes the perceptron's parameters and
    defines :meth:`dloss` (batch descent: :attr:`batch` and :meth:`batch_gradient`);
    with :attr:`loss_code` set, :meth:`dloss` must be that loss of
    :data:`~.losses.TRAINABLE`.  Attributes as :class:`~.primal.PrimalPerceptron`'s.
    """

    #: The loss's code in the compiled loop (:mod:`._sgd`), or None: Python calls :meth:`dloss`.
    loss_code: int | None = None

    #: True: a step sums the whole pass (batch descent), an epoch is a step.
    batch = False

    # -- what a subclass says ---------------------------------------------------------
    def dloss(self, p: float, y: float) -> float:
        """``∂ℓ/∂p`` at label ``y`` (±1), on Python floats; 0 leaves ``w`` and ``b`` as they are."""
        raise NotImplementedError

    def batch_gradient(self, X: np.ndarray, s: np.ndarray,
                       p: np.ndarray) -> tuple[np.ndarray, float]:
        """The gradient over a pass at decision values ``p``, labels ``s`` (±1.0).

        Returns
        -------
        g_w, g_p : ndarray of shape (n_features,), float
            The bias moves by ``-eta g_p c²``.
        n_terms : int, optional
            Samples whose gradient is not 0: when given, a pass with some moved
            (the run goes on) even if they cancel; else when ``w`` or ``b`` changed.
        """
        raise NotImplementedError

    def _learning_rate(self) -> float:
        return float(self.eta0)

    # -- the shape of the run -----------------------------------------------------------
    @property
    def _epoch_steps(self) -> int:
        return 1 if self.batch else self._n

    def _examined(self, step: int) -> tuple[int, int, int]:
        return (step - 1, 0, -1) if self.batch else super()._examined(step)

    def _moved(self, recorded: bool, w_before, b_before: float, w_after, b_after: float) -> bool:
        return bool(b_before != b_after or not np.array_equal(w_before, w_after))

    def _setup_state(self) -> None:
        d = self._X.shape[1]
        stride = max(1, BATCH_WORK // self._n) if self.batch else SAMPLE_STRIDE
        w0, b0 = self.start_weights
        self._log = DenseLog(d, self._epoch_steps, replay=self.replay_steps, stride=stride,
                             start=(w0, b0))
        self._fw = w0.copy()
        self._fb = b0
        self._moves = np.zeros(16, np.int64)  # steps that moved w or b, per epoch
        self._lists = None

    def _columns_as_lists(self) -> tuple[list[list[float]], list[float]]:
        """The feature columns and the labels as Python floats (the loop's fastest reads)."""
        if self.__dict__.get("_lists") is None:
            self._lists = ([c.tolist() for c in self._cols], self._s.tolist())
        return self._lists

    # -- the frontier -----------------------------------------------------------------
    def _compute(self, max_steps: int | None = None, until_update: bool = False,
                 deadline: float | None = None) -> None:
        """As :meth:`.PerceptronEngine._compute`; it stops at checkpoints and epoch ends."""
        if self._end is not None:
            return
        per = self._epoch_steps
        T = self._T
        stop = self.max_iter * per
        if until_update:
            stop = min(stop, T + 1)
        elif max_steps is not None:
            stop = min(stop, T + max_steps)
        w, b, log = self._fw, self._fb, self._log
        compiled = self._use_compiled(stop - T)
        while T < stop:
            epoch = T // per
            if compiled:  # a long stretch; the loop hands over the checkpoints it passed
                nxt = min(stop, (epoch + 1) * per, T + COMPILED_STRETCH)
                T0, stride = T, log.stride
                T, b, moved, why, (ck_w, ck_b) = self._steps_compiled(T, nxt, w, b, stride)
                first = (T0 // stride + 1) * stride
                for c in range(ck_b.shape[0]):
                    log.extend(first + c * stride, ck_w[c], ck_b[c])
            else:
                nxt = min(stop, log.next_checkpoint, (epoch + 1) * per)
                T, b, moved, why = self._steps(T, nxt, w, b, None)
            self._moves = grown(self._moves, epoch + 1)
            self._moves[epoch] += moved
            log.extend(T, w, b)
            if why is None and not (math.isfinite(b) and np.isfinite(w).all()):
                why = WEIGHTS_OVERFLOW
            if why is not None:
                self._diverge(T, why)
                break
            if T == (epoch + 1) * per:
                self._fb = b
                self._close_epoch(epoch, T)
                if self._end is not None:
                    break
            if deadline is not None and time.perf_counter() >= deadline:
                break
        self._T, self._fb = T, b

    def _fixed_point(self, w: np.ndarray, b: float) -> bool:
        """Whether no step from ``w, b`` would move them (an epoch that saw all samples says so)."""
        return True

    def _close_epoch(self, epoch: int, T: int) -> None:
        """End the run after an epoch in which no step moved ``w`` or ``b``, or ``max_iter``."""
        if self._moves[epoch] == 0 and self._fixed_point(self._fw, self._fb):
            self._end, self._end_converged = T, True
        elif epoch + 1 >= self.max_iter:
            self._end, self._end_converged = T, False

    def _use_compiled(self, stretch: int) -> bool:
        return (not self.batch and self.loss_code is not None
                and _sgd.choose_compiled(stretch))

    def _steps_compiled(self, T: int, T1: int, w: np.ndarray, b: float, stride: int,
                        rows=None):
        """:meth:`_steps` compiled, and ``(ck_w, ck_b)`` after each multiple of ``stride``."""
        n = self._n
        epoch, pos = divmod(T, n)
        pos1, b, moved, stop, cks = _sgd.run(
            self._X, self._s, self._order(epoch), pos, pos + (T1 - T), w, b, self._eta,
            self._c2, self.loss_code, epoch * n, stride, rows)
        why = stop_reason(stop == _sgd.STOP_NAN, w, b) if stop else None
        return epoch * n + pos1, b, moved, why, cks

    def replay_steps(self, T0: int, w0: np.ndarray, b0: float, T1: int) -> Rows:
        """The rows of steps ``T0 + 1 .. T1`` from ``w0, b0`` by the frontier's loop (same bits)."""
        if self._use_compiled(T1 - T0) or (self._use_compiled(_sgd.COMPILED_MIN_STRETCH)
                                            and _sgd.loaded()):
            return self._replay_compiled(T0, w0, b0, T1)
        rec: list[tuple] = []
        w, b, T, per = np.array(w0, dtype=np.float64), float(b0), int(T0), self._epoch_steps
        while T < T1:
            T, b, _, why = self._steps(T, min(T1, (T // per + 1) * per), w, b, rec)
            if why is not None:
                break
        m, d = len(rec), w.shape[0]
        if not m:
            return Rows(*empty_columns(0, d))
        step, index, margin, ws, bs = zip(*rec, strict=True)
        return Rows(np.array(step, np.int64), np.array(index, np.int64), np.array(margin),
                    np.array(ws, np.float64).reshape(m, d), np.array(bs))

    def _replay_compiled(self, T0: int, w0: np.ndarray, b0: float, T1: int) -> Rows:
        m, d = T1 - T0, self._X.shape[1]
        index, margin, ws, bs = (np.empty(m, np.int64), np.empty(m), np.empty((m, d)),
                                 np.empty(m))
        w, b, T, per = np.array(w0, dtype=np.float64), float(b0), int(T0), self._epoch_steps
        while T < T1:
            u = T - T0
            T, b, _, why, _ = self._steps_compiled(
                T, min(T1, (T // per + 1) * per), w, b, _NO_CHECKPOINTS,
                (index[u:], margin[u:], ws[u:], bs[u:]))
            if why is not None:
                break
        m = T - T0
        return Rows(np.arange(T0 + 1, T + 1, dtype=np.int64), index[:m], margin[:m], ws[:m],
                    bs[:m])

    def _steps(self, T: int, T1: int, w: np.ndarray, b: float, rec: list | None):
        """Steps ``T + 1 .. T1`` of one epoch from ``w`` (in place) and ``b``, rows into ``rec``.

        Returns ``(T, b, moved, why)``; ``why``: a decision value not finite (step not taken).
        """
        if self.batch:
            return self._batch_steps(T, T1, w, b, rec)
        n = self._n
        epoch, pos = divmod(T, n)
        perm = self._order(epoch)
        visit = range(pos, pos + (T1 - T)) if perm is None else perm[pos : pos + (T1 - T)].tolist()
        cols, s = self._columns_as_lists()
        wl = w.tolist()
        d = len(wl)
        eta, c2, dloss = self._eta, self._c2, self.dloss
        moved, why, t = 0, None, T
        for i in visit:
            y = s[i]
            p = cols[0][i] * wl[0]
            for j in range(1, d):
                p = p + cols[j][i] * wl[j]
            p = p + b
            if not -_INF < p < _INF:
                why = stop_reason(p != p, wl, b)
                break
            g = dloss(p, y)
            if g != 0.0:
                u = -eta * g
                for j in range(d):
                    wl[j] = wl[j] + cols[j][i] * u
                b = b + u * c2
                moved += 1
            t += 1
            if rec is not None:
                rec.append((t, i, y * p, tuple(wl), b))
        w[:] = wl
        return t, b, moved, why

    def _batch_steps(self, T: int, T1: int, w: np.ndarray, b: float, rec: list | None):
        moved, why, t = 0, None, T
        for _ in range(T, T1):
            p = affine(self._cols, w, b)
            if not np.isfinite(p).all():
                why = stop_reason(bool(np.isnan(p).any()), w, b)
                break
            gw, gp, *terms = self.batch_gradient(self._X, self._s, p)
            u = -self._eta * float(gp)
            with np.errstate(over="ignore", invalid="ignore"):
                step_w = np.asarray(gw, dtype=np.float64) * -self._eta
                b_new = b + u * self._c2
                if (terms[0] > 0) if terms else (step_w.any() or b_new != b):
                    moved += 1
                w += step_w
            b = b_new
            t += 1
            if rec is not None:
                rec.append((t, -1, math.nan, tuple(w.tolist()), b))
        return t, b, moved, why
