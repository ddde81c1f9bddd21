"""The perceptron's frontier: ``w`` moves only on a mistake, the log keeps the updates.

The primal and dual perceptron share it (and the hinge loss, threshold 1): the
scan (:mod:`._scan`) finds the next sample at or below the update threshold, and
the :class:`~._log.UpdateLog` keeps those steps only, replaying the scan through
:meth:`PerceptronEngine.replay_updates`.  The margin is summed in scikit-learn's
order (``WeightVector.dot`` then ``+ intercept``; see :class:`~.primal.PrimalPerceptron`).
"""

from __future__ import annotations

import math
import time

import numpy as np

from . import _scan
from ._log import Rows, UpdateLog, empty_columns
from ._run import MARGIN_NAN, WEIGHTS_OVERFLOW
from .engine import RunEngine

__all__ = ["PerceptronEngine", "SCAN_STRETCH"]

#: Samples the frontier scans between two offers of a checkpoint to the log, at
#: most: a replay between two checkpoints never scans much more than this.
SCAN_STRETCH = 2**18


class PerceptronEngine(RunEngine):
    """Run engine of the primal and dual perceptrons: ``w`` moves only on a mistake."""

    #: A sample updates ``w`` when its functional margin ``y (w·x + b)`` is not
    #: above this: 0 for the perceptron (a mistake), 1 for the hinge loss.
    update_threshold = 0.0

    # -- the frontier ---------------------------------------------------------------
    def _setup_state(self) -> None:
        w0, b0 = self.start_weights
        self._log = UpdateLog(w0.shape[0], self._n, replay=self.replay_updates, start=(w0, b0))
        self._scan_state = [_scan.MIN_CHUNK, False]
        self._fw = w0.copy()
        self._fb = b0

    def replay_updates(self, T0: int, k0: int, w0: np.ndarray | None, b0: float, T1: int,
                       m: int) -> tuple[int, Rows]:
        """``(k0, rows)``: the ``m`` updates of steps ``T0 + 1 .. T1`` by the frontier's scan."""
        n, d = self._n, self._X.shape[1]
        out = empty_columns(m, d)
        w, b = np.array(w0, dtype=np.float64), float(b0)
        state = [_scan.MIN_CHUNK, False]
        compiled = _scan.choose_compiled(T1 - T0)
        T, u = T0, 0
        while T < T1 and u < m:
            epoch, pos = divmod(T, n)
            hi = min(n, pos + (T1 - T))
            pos, b, got = self._scan_stretch(epoch, pos, hi, w, b, False,
                                             [a[u:] for a in out], state, compiled)
            u += got
            T = epoch * n + pos
            if state[1]:
                break
        return k0, Rows(*out)

    def _scan_stretch(self, epoch, pos, hi, w, b, until_update, bufs, state, compiled):
        """Scan positions ``pos .. hi-1`` of ``epoch`` from ``w`` (in place) and ``b``."""
        cols, s, perm = (None, None, self._order(epoch)) if compiled else self._epoch_columns(epoch)
        return _scan.scan(cols, s, perm, self._X, self._s, pos, hi, w, b, self._eta, self._c2,
                          self.update_threshold, epoch * self._n, until_update, *bufs, state,
                          use_compiled=compiled,
                          positive=self._positive and self.update_threshold == 0.0)

    def _epoch_columns(self, epoch: int):
        """Feature columns and signs in the visiting order of ``epoch``."""
        perm = self._order(epoch)
        if perm is None:
            return self._cols, self._s, None
        entry = self._orders[epoch]
        if entry[1] is None:
            cols = [c[perm] for c in self._cols]
            entry = (perm, (cols, self._s[perm]))
            self._orders[epoch] = entry
        cols, s = entry[1]
        return cols, s, perm

    def _compute(self, max_steps: int | None = None, until_update: bool = False,
                 deadline: float | None = None) -> None:
        """Extend the run: ``max_steps``, one update, the end or ``deadline``, whichever first.

        The deadline is checked after each stretch (an epoch or :data:`SCAN_STRETCH`).
        """
        if self._end is not None:
            return
        n = self._n
        T = T0 = self._T
        stop_at = None if max_steps is None else T + max_steps
        w, b = self._fw, self._fb
        log = self._log
        k0 = len(log)
        # the length asked for decides (a single step never waits for numba to load);
        # searching for the next update, the length of this call's scan so far does,
        # so that many short epochs (small n, many epochs) also get the compiled loop
        planned = 0 if until_update else (stop_at - T0 if stop_at is not None else 2**62)
        while True:
            epoch, pos = divmod(T, n)
            hi = n if stop_at is None else min(n, pos + (stop_at - T))
            compiled = _scan.choose_compiled(max(planned, T - T0 + hi - pos))
            while True:
                bufs = log.reserve(1 if until_update else 4096)
                pos, b, u = self._scan_stretch(epoch, pos, min(hi, pos + SCAN_STRETCH), w, b,
                                               until_update, bufs, self._scan_state, compiled)
                log.commit(u)
                if u:
                    self._on_updates(bufs[1][:u])
                log.checkpoint(epoch * n + pos, w, b)
                late = deadline is not None and time.perf_counter() >= deadline
                if u and not (math.isfinite(b) and np.isfinite(w).all()):
                    break
                if pos >= hi or (until_update and u) or self._scan_state[1] or late:
                    break
            T = epoch * n + pos
            if not (math.isfinite(b) and np.isfinite(w).all()):
                # overflow: NaN margins would never count as mistakes and fake a convergence
                self._diverge(log.step_of(len(log) - 1), WEIGHTS_OVERFLOW)
                T = self._end
                break
            if self._scan_state[1]:
                self._scan_state[1] = False
                self._diverge(T, MARGIN_NAN)
                break
            if pos == n:
                self._close_epoch(epoch, T, w, b)
            if self._end is not None or (stop_at is not None and T >= stop_at):
                break
            if until_update and len(log) > k0:
                break
            if late:
                break
        self._T = T
        self._fb = b

    def _on_updates(self, index: np.ndarray) -> None:
        """The frontier just made updates on the samples ``index`` (for subclasses)."""

    def _close_epoch(self, epoch: int, T: int, w=None, b: float = 0.0) -> None:
        """End the run after a clean epoch without a NaN margin (it fakes one), or ``max_iter``."""
        clean = self._log.epoch_count(epoch) == 0
        if clean and w is not None and self._any_nan_margin(w, b):
            self._diverge(T, MARGIN_NAN)
        elif clean:
            self._end, self._end_converged = T, True
        elif epoch + 1 >= self.max_iter:
            self._end, self._end_converged = T, False
