"""The dense log of a run whose ``w`` moves on every step: checkpoints and exact replay.

A row a step would take 4.8 GB for 10⁵ points and 10³ epochs, so the log keeps
``(w, b)`` every ``stride`` steps and replays the frontier's loop between them.
Its queries are the update log's (:class:`~.stepper.RunLog`); update ``k`` is step ``k``.
"""

from __future__ import annotations

from collections.abc import Callable

import numpy as np

from . import _log
from ._log import CachedLog, Rows, empty_columns, frozen_rows

__all__ = ["DenseLog", "DenseReplay"]

#: ``replay(T0, w0, b0, T1)`` -> the :class:`~._log.Rows` of steps ``T0 + 1 .. T1``
#: from the state ``w0, b0`` after step ``T0``.
DenseReplay = Callable[[int, np.ndarray, float, int], Rows]


class DenseLog(CachedLog):
    """One row a step of a run (:class:`~._log.Rows`), in bounded memory, with exact queries.

    A :class:`~.stepper.RunLog`: a query without a docstring does what the protocol's says.

    Parameters
    ----------
    epoch_steps : int
        The number of samples, or 1 when a step is a pass.
    replay : callable
        The frontier's own loop (:data:`DenseReplay`).
    stride : int
        Steps between two checkpoints at first.
    budget, start
        As for :class:`~._log.UpdateLog`.

    Notes
    -----
    The log keeps the state after steps ``0, Q, 2Q, ...`` and the frontier's;
    when they fill half the budget every other one goes and ``Q`` doubles.  So
    it holds at most the budget for fewer than ``budget² / (16 · row ·
    checkpoint)`` steps (48 and 24 bytes with two features; 3.9·10¹² with the
    default budget), and a query replays at most ``Q`` steps.  The per-epoch
    counts are arithmetic.
    """

    def __init__(self, n_features: int, epoch_steps: int, replay: DenseReplay, stride: int,
                 budget: int | None = None, start: tuple | None = None):
        self._d = int(n_features)
        self._per = max(1, int(epoch_steps))
        self._replay = replay
        self._budget = int(_log.LOG_BYTES if budget is None else budget)
        self._stride = max(1, int(stride))
        self._max_ck = max(16, (self._budget // 2) // (8 * (1 + self._d)))
        self._ck_w = np.zeros((16, self._d))  # checkpoint j: state after step j * stride
        self._ck_b = np.zeros(16)
        self._nck = 1  # checkpoint 0 is the start, w = w0, b = b0 (default 0)
        self._len = 0
        w0, b0 = (np.zeros(self._d), 0.0) if start is None else start
        self._ck_w[0] = self._front_w = np.array(w0, dtype=np.float64)
        self._ck_b[0] = self._front_b = float(b0)
        self.drop_cache()

    # -- size -------------------------------------------------------------------------
    @property
    def thinned(self) -> bool:
        """Always True: the log keeps checkpoints, never every row."""
        return True

    @property
    def stride(self) -> int:
        """Steps between two checkpoints: the most one replay rebuilds."""
        return self._stride

    @property
    def nbytes(self) -> int:
        return (self._ck_w.nbytes + self._ck_b.nbytes + self._cache_bytes
                + self._front_w.nbytes)

    # -- writing at the frontier ------------------------------------------------------
    @property
    def next_checkpoint(self) -> int:
        """The step after which the frontier must hand its state over (:meth:`extend`)."""
        return self._nck * self._stride

    def extend(self, T: int, w: np.ndarray, b: float) -> None:
        """The frontier's state ``w, b`` after ``T`` steps, at most :attr:`next_checkpoint`."""
        T = int(T)
        if not self._len <= T <= self.next_checkpoint:
            raise ValueError(f"the frontier went from step {self._len} to {T}, past the "
                             f"checkpoint at {self.next_checkpoint}")
        self._len = T
        self._front_w = np.array(w, dtype=np.float64)
        self._front_b = float(b)
        if T == self.next_checkpoint:
            self._push(self._front_w, self._front_b)

    def _push(self, w: np.ndarray, b: float) -> None:
        if self._nck == self._max_ck:
            self._halve()
            if self._len != self.next_checkpoint:  # an odd checkpoint: dropped with the others
                return
        if self._nck == self._ck_b.size:
            size = min(self._max_ck, 2 * self._ck_b.size)
            grown_w, grown_b = np.zeros((size, self._d)), np.zeros(size)
            grown_w[: self._nck], grown_b[: self._nck] = self._ck_w, self._ck_b
            self._ck_w, self._ck_b = grown_w, grown_b
        self._ck_w[self._nck] = w
        self._ck_b[self._nck] = b
        self._nck += 1

    def _halve(self) -> None:
        """Keep every other checkpoint (the first among them): the stride doubles."""
        keep = np.arange(0, self._nck, 2)
        self._ck_w[: keep.size] = self._ck_w[keep]
        self._ck_b[: keep.size] = self._ck_b[keep]
        self._nck = keep.size
        self._stride *= 2
        self.drop_cache()

    def drop_cache(self) -> None:
        super().drop_cache()
        self._tail = (-1, 0)  # key of the cached rows of a segment short of its end

    # -- reading ----------------------------------------------------------------------
    def _segment(self, j: int) -> list[np.ndarray]:
        """Rows of the steps after checkpoint ``j`` up to the next (or the frontier).

        The last segment's cached rows are extended from their last state, so
        stepping at the frontier replays each step once.
        """
        T0 = j * self._stride
        end = min(T0 + self._stride, self._len)
        key = (j, end)
        cols = self._cache.get(key)
        if cols is not None:
            self._cache.move_to_end(key)
            return cols
        head = self._cache.pop(self._tail, None) if self._tail[0] == j else None
        if head is not None:
            self._cache_bytes -= sum(a.nbytes for a in head)
            start, w0, b0 = self._tail[1], head[3][-1].copy(), float(head[4][-1])
        else:
            start, w0, b0 = T0, self._ck_w[j].copy(), float(self._ck_b[j])
        got = [np.asarray(a) for a in self._replay(start, w0, b0, end)]
        cols = got if head is None else [np.concatenate(c) for c in zip(head, got, strict=True)]
        if cols[0].shape[0] != end - T0:
            raise RuntimeError(f"replay of steps {start}..{end} made {cols[0].shape[0]} rows "
                               f"from step {T0}, the run made {end - T0}")
        self._remember(key, cols)
        if end < T0 + self._stride:
            self._tail = key
        return cols

    def count_before(self, t: int) -> int:
        """Rows among the first ``t`` steps: ``t``, up to the frontier."""
        return max(0, min(int(t), self._len))

    def counts_before(self, t) -> np.ndarray:
        return np.clip(np.asarray(t, np.int64), 0, self._len)

    def step_of(self, u: int) -> int:
        """Step number of row ``u``: ``u + 1``."""
        u = int(u)
        if not 0 <= u < self._len:
            raise IndexError(f"row {u} has not been computed ({self._len} rows)")
        return u + 1

    def steps_of(self, u) -> np.ndarray:
        return np.asarray(u, np.int64) + 1

    def rows(self, k0: int = 0, k1: int | None = None) -> Rows:
        k1 = self._len if k1 is None else k1
        k0, k1 = max(0, int(k0)), min(self._len, int(k1))
        parts = []
        u = k0
        while u < k1:
            j = u // self._stride
            cols = self._segment(j)
            base = j * self._stride
            stop = min(k1, base + cols[0].shape[0])
            parts.append([a[u - base : stop - base] for a in cols])
            u = stop
        if not parts:
            parts = [empty_columns(0, self._d)]
        return frozen_rows(parts, True)

    def state_after(self, k: int) -> tuple[np.ndarray, float]:
        k = int(k)
        if not 0 <= k <= self._len:
            raise IndexError(f"step {k} has not been computed ({self._len} steps)")
        if k == self._len:
            return self._front_w.copy(), self._front_b
        j, r = divmod(k, self._stride)
        if r == 0 and j < self._nck:
            return self._ck_w[j].copy(), float(self._ck_b[j])
        row = self.rows(k - 1, k)
        return row.w[0].copy(), float(row.b[0])

    def epoch_counts(self, n_epochs: int) -> np.ndarray:
        starts = np.arange(int(n_epochs), dtype=np.int64) * self._per
        return np.clip(self._len - starts, 0, self._per)

    def epoch_count(self, epoch: int) -> int:
        return int(np.clip(self._len - int(epoch) * self._per, 0, self._per)) if epoch >= 0 else 0

    def samples(self, k: int, m: int = 4096) -> Rows:
        """As :meth:`~._log.UpdateLog.samples` (beyond ``m``: checkpoints, then the state at k)."""
        k = min(int(k), self._len)
        if k <= 0:
            return self.rows(0, 0)
        if k <= m:
            r = self.rows(0, k)
            steps = np.arange(1, k + 1, dtype=np.int64)
            return Rows(steps, steps.copy(), np.full(k, np.nan), r.w, r.b)
        top = min(self._nck - 1, (k - 1) // self._stride)  # checkpoints strictly before k
        pick = np.unique(np.linspace(1, top, m - 1).round().astype(np.int64)) if top else \
            np.empty(0, np.int64)
        w, b = self.state_after(k)
        steps = np.r_[pick * self._stride, k].astype(np.int64)
        return Rows(steps, steps.copy(), np.full(steps.size, np.nan),
                    np.vstack([self._ck_w[pick], w]), np.r_[self._ck_b[pick], b])

    def __getstate__(self) -> dict:
        state = super().__getstate__()
        state["_tail"] = (-1, 0)
        return state
