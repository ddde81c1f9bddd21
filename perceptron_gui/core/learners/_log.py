"""The update log of a perceptron run, in bounded memory, with exact queries.

A long run makes up to 10¹² updates (10⁶ points, 10⁶ epochs), so past half of
:data:`LOG_BYTES` the log keeps checkpoints and replays the scan between them.
One file: rows, checkpoints, replay cache and per-epoch counts share invariants.
"""

from __future__ import annotations

import bisect
from collections import OrderedDict
from collections.abc import Callable
from typing import NamedTuple

import numpy as np

from ..values import readonly

__all__ = ["CachedLog", "LOG_BYTES", "Rows", "UpdateLog", "empty_columns", "frozen_rows",
           "grown"]


class Rows(NamedTuple):
    """A block of consecutive updates, as read-only arrays (see :meth:`UpdateLog.rows`).

    Attributes
    ----------
    step, index : ndarray of int64, shape (m,)
        Step number (1-based, increasing) and sample (-1 for a pass) of each update.
    margin : ndarray of float64, shape (m,)
        The sample's functional margin before the update (NaN for a pass).
    w, b : ndarray of shape (m, n_features) (None for a kernel run) and (m,)
        Weights and bias after each update.
    """

    step: np.ndarray
    index: np.ndarray
    margin: np.ndarray
    w: np.ndarray | None
    b: np.ndarray


#: Bytes one run's log may use, whatever its size (tests lower it).
LOG_BYTES = 256 * 2**20

#: Rows per block of the row store (fewer under a small budget, an eighth of
#: it at most): rows are appended into fixed blocks, never copied to grow.
BLOCK_ROWS = 2**16

#: In a replay's cost, one update weighs this many examined samples.
UPDATE_COST = 8

#: The first checkpoints are at least this many cost units apart (fewer under a
#: budget whose block holds fewer than this many updates' cost).
MIN_SEGMENT_COST = 2**12

#: ``replay(T0, k0, w0, b0, T1, m)`` -> ``(first, rows)``: updates ``first + 1 .. k0 + m``
#: from the state after step ``T0`` (``k0`` updates, ``w0`` or None, ``b0``);
#: ``first < k0`` for a replay that started further back.
Replay = Callable[[int, int, "np.ndarray | None", float, int, int], tuple[int, Rows]]


def grown(a: np.ndarray, size: int) -> np.ndarray:
    """``a`` if it holds ``size`` entries, else a copy zero-padded to at least twice its size."""
    if size <= a.size:
        return a
    out = np.zeros(max(size, 2 * a.size), a.dtype)
    out[: a.size] = a
    return out


def empty_columns(m: int, d: int | None) -> list[np.ndarray]:
    """Uninitialised columns of ``m`` rows, as :class:`Rows` orders them (``w``: ``d`` wide)."""
    return [np.empty(m, np.int64), np.empty(m, np.int64), np.empty(m), np.empty((m, d or 0)),
            np.empty(m)]


class _Store:
    """Rows appended in fixed blocks: an append never copies what is stored."""

    def __init__(self, d: int | None, block: int):
        self.d = d
        self.block = block
        self.block_bytes = block * 8 * (4 + (d or 0))
        self.blocks: list[list[np.ndarray]] = []
        self.first: list[int] = []  # first step of each block
        self.len = 0

    @property
    def nbytes(self) -> int:
        return self.block_bytes * len(self.blocks)

    def free(self, m: int) -> list[np.ndarray]:
        """Writable buffers for at most ``m`` rows at the end (at least one)."""
        used = self.len - (len(self.blocks) - 1) * self.block if self.blocks else 0
        if not self.blocks or used == self.block:
            self.blocks.append(empty_columns(self.block, self.d))
            self.first.append(-1)
            used = 0
        blk = self.blocks[-1]
        e = min(self.block, used + max(1, m))
        return [a[used:e] for a in blk]

    def commit(self, m: int) -> None:
        if m:
            used = self.len - (len(self.blocks) - 1) * self.block
            if used == 0:
                self.first[-1] = int(self.blocks[-1][0][0])
            self.len += m

    def rows(self, a: int, e: int) -> list[np.ndarray]:
        """Copies of rows ``a .. e-1`` of the store, column by column."""
        out = [[], [], [], [], []]
        while a < e:
            j, r = divmod(a, self.block)
            stop = min(e - a, self.block - r)
            for c in range(5):
                out[c].append(self.blocks[j][c][r : r + stop])
            a += stop
        return self._joined(out)

    def take(self, u: np.ndarray) -> list[np.ndarray]:
        """Rows at the (sorted) positions ``u``, column by column."""
        j, r = np.divmod(u, self.block)
        out = [[], [], [], [], []]
        for b in np.unique(j).tolist():
            sel = r[j == b]
            for c in range(5):
                out[c].append(self.blocks[b][c][sel])
        return self._joined(out)

    def _joined(self, out: list[list[np.ndarray]]) -> list[np.ndarray]:
        if not out[0]:
            return [a[:0].copy() for a in empty_columns(0, self.d)]
        return [np.concatenate(col) if len(col) != 1 else col[0].copy() for col in out]

    def counts_before(self, t: np.ndarray) -> np.ndarray:
        out = np.zeros(t.shape, np.int64)
        for j in range(-(-self.len // self.block)):
            used = min(self.block, self.len - j * self.block)
            out += np.searchsorted(self.blocks[j][0][:used], t, side="right")
        return out

    def count_before(self, t: int) -> int:
        filled = -(-self.len // self.block)
        j = bisect.bisect_right(self.first, t, 0, filled) - 1
        if j < 0:
            return 0
        used = min(self.block, self.len - j * self.block)
        return j * self.block + int(np.searchsorted(self.blocks[j][0][:used], t, side="right"))


def frozen_rows(parts: list[list[np.ndarray]], weights: bool) -> Rows:
    """The consecutive blocks of columns ``parts`` joined into read-only :class:`Rows`."""
    out = [readonly(np.concatenate(col) if len(col) != 1 else col[0].view())
           for col in zip(*parts, strict=True)]
    return Rows(*out[:3], out[3] if weights else None, out[4])


class CachedLog:
    """What both logs share: their length, their budget and a cache of replayed segments.

    The cache keeps the rows of the segments last asked for (least recently
    used out, at most a quarter of the budget, at least one segment); it is
    not pickled.
    """

    def __len__(self) -> int:
        return self._len

    @property
    def budget(self) -> int:
        return self._budget

    def _remember(self, key, cols: list[np.ndarray]) -> None:
        """Cache the rows ``cols`` of segment ``key``, read-only."""
        for a in cols:
            a.flags.writeable = False
        self._cache[key] = cols
        self._cache_bytes += sum(a.nbytes for a in cols)
        while len(self._cache) > 1 and self._cache_bytes > self._budget // 4:
            _, old = self._cache.popitem(last=False)
            self._cache_bytes -= sum(a.nbytes for a in old)

    def drop_cache(self) -> None:
        """Forget the replayed rows (rebuilt on demand): the next query replays."""
        self._cache = OrderedDict()
        self._cache_bytes = 0

    def __getstate__(self) -> dict:
        state = self.__dict__.copy()
        state["_cache"] = OrderedDict()
        state["_cache_bytes"] = 0
        return state


def _first_rows_past(store: _Store, quantum: int) -> np.ndarray:
    """The first row at or past each multiple of ``quantum`` of cost ``step_u + 8 (u + 1)``.

    Worked out a block at a time into one buffer, never for the whole store.
    """
    block, n = store.block, store.len
    offsets = UPDATE_COST * np.arange(1, block + 1, dtype=np.int64)
    cost = np.empty(block, np.int64)
    picks, next_mark = [], quantum
    for b, blk in enumerate(store.blocks):
        a = b * block
        m = min(block, n - a)
        if m <= 0:
            break
        c = cost[:m]
        np.add(blk[0][:m], offsets[:m], out=c)
        c += UPDATE_COST * a
        last = int(c[-1])
        if last < next_mark:
            continue
        marks = np.arange(next_mark, last + 1, quantum)
        found = np.searchsorted(c, marks, side="left") + a
        picks.append(found[np.r_[True, found[1:] != found[:-1]]])
        next_mark = int(marks[-1]) + quantum
    if not picks:
        return np.empty(0, np.int64)
    out = np.concatenate(picks)
    return out[np.r_[True, out[1:] != out[:-1]]]


class UpdateLog(CachedLog):
    """The updates of a run (row ``k - 1``: update ``k``'s step, sample, margin, ``w`` and ``b``).

    A :class:`~.stepper.RunLog`: a query without a docstring does what the protocol's says.

    Parameters
    ----------
    n_features : int or None
        None for a kernel run, whose log keeps no weights.
    n_samples : int
        An epoch's length, for the per-epoch counts.
    replay : callable, optional
        :data:`Replay`, which rebuilds the updates between two checkpoints;
        without it the log never thins.
    budget : int, optional
        Bytes the log may use (default :data:`LOG_BYTES`, read when made).
    start : tuple, optional
        ``(w0, b0)`` before the first update (default 0).

    Notes
    -----
    While the rows fit in half the budget the log keeps them all.  Past that it
    keeps *checkpoints* (``T``, ``k``, ``w, b`` after step ``T``) about every
    ``Q`` units of replay cost (a step costs 1, an update :data:`UPDATE_COST`)
    or when a block of rows fills (an eighth of the budget); when they fill
    half the budget every other one goes and ``Q`` doubles.  Rows between two
    checkpoints are replayed on demand, bit for bit; a query costs at most one
    replay of ``Q`` units, a few milliseconds.

    The bound: the budget (half checkpoints, an eighth newest rows, a quarter
    cache) plus 4 bytes an epoch, for fewer than ``budget² / (16 · row ·
    checkpoint)`` updates (48 and 40 bytes with two features): 2.3·10¹² with
    the default budget, past the 10¹² steps of 10⁶ points for 10⁶ epochs.
    """

    _w0: np.ndarray | None = None  # no start: w = 0
    _b0 = 0.0

    def __init__(self, n_features: int | None, n_samples: int = 1,
                 replay: Replay | None = None, budget: int | None = None,
                 start: tuple | None = None):
        self._d = n_features
        if start is not None:
            w0, b0 = start
            self._w0 = None if n_features is None else np.array(w0, dtype=np.float64)
            self._b0 = float(b0)
        self._n = max(1, int(n_samples))
        self._replay = replay
        self._budget = int(LOG_BYTES if budget is None else budget)
        d = 0 if n_features is None else n_features
        self._row_bytes = 8 * (4 + d)
        self._ck_bytes = 8 * (3 + d)
        block = max(16, min(BLOCK_ROWS, self._budget // 8 // self._row_bytes))
        self._rows = _Store(n_features, block)
        # a segment of the smallest cost holds at most a block of rows
        self._min_quantum = min(MIN_SEGMENT_COST, block * UPDATE_COST)
        self._len = 0
        self._base = 0  # update count before the first row of the store
        self._epochs = np.zeros(16, np.int32)  # updates per epoch (complete or not)
        self._ck = None  # (T, k, w, b) arrays once thinned
        self._nck = 0
        self._quantum = 0
        self.drop_cache()

    # -- size -----------------------------------------------------------------------
    @property
    def thinned(self) -> bool:
        return self._ck is not None

    @property
    def max_replay_rows(self) -> int:
        """The most updates one replay rebuilds (0 while every row is kept)."""
        if self._ck is None or self._nck < 2:
            return 0
        return int(np.diff(self._ck[1][: self._nck]).max())

    @property
    def nbytes(self) -> int:
        ck = sum(a.nbytes for a in self._ck if a is not None) if self._ck else 0
        return self._rows.nbytes + ck + self._cache_bytes + self._epochs.nbytes

    # -- writing at the frontier -----------------------------------------------------------
    def append(self, step: int, index: int, margin: float, w, b: float) -> None:
        """Record one update (``w`` is ignored when the log keeps no weights)."""
        steps, index_, margins, ws, bs = self.reserve(1)
        steps[0], index_[0], margins[0], bs[0] = step, index, margin, b
        if self._d is not None:
            ws[0] = w
        self.commit(1)

    def reserve(self, m: int):
        """Writable ``(step, index, margin, w, b)`` for up to ``m`` updates, then :meth:`commit`."""
        return self._rows.free(m)

    def commit(self, m: int) -> None:
        """Account for ``m`` rows written into the buffers of :meth:`reserve`."""
        if not m:
            return
        rows = self._rows
        used = rows.len - (len(rows.blocks) - 1) * rows.block
        steps = rows.blocks[-1][0][used : used + m]
        rows.commit(m)
        self._len += m
        e0 = int(steps[0] - 1) // self._n
        e1 = int(steps[-1] - 1) // self._n
        self._epochs = grown(self._epochs, e1 + 1)
        if e0 == e1:
            self._epochs[e0] += m
        else:
            self._epochs[e0 : e1 + 1] += np.bincount((steps - 1) // self._n - e0).astype(np.int32)

    def checkpoint(self, T: int, w, b: float) -> None:
        """The frontier's state after step ``T``, kept as a checkpoint when due (or to thin)."""
        if self._ck is None:
            rows = self._rows
            if (len(rows.blocks) * rows.block_bytes + self._epochs.nbytes > self._budget // 2
                    and self._replay is not None):
                self._thin(T, w, b)
            return
        cost = T + UPDATE_COST * self._len
        last = self._nck - 1
        since = cost - (int(self._ck[0][last]) + UPDATE_COST * int(self._ck[1][last]))
        if since < self._quantum and self._rows.len < self._rows.block:
            return
        if self._nck == self._ck[0].size:
            self._halve()
        self._push(T, self._len, w, b)

    def _push(self, T: int, k: int, w, b: float) -> None:
        """Keep a checkpoint after step ``T``; the rows since the last one become a segment."""
        j = self._nck
        T_, k_, w_, b_ = self._ck
        T_[j], k_[j], b_[j] = T, k, b
        if w_ is not None:
            w_[j] = w
        self._nck = j + 1
        if j and self._rows.len:
            self._remember(j - 1, self._rows.rows(0, self._rows.len))
        self._rows = _Store(self._d, self._rows.block)
        self._base = k

    def _thin(self, T: int, w, b: float) -> None:
        """Leave the full rows for checkpoints; keep the frontier's as the last."""
        n_ck = max(16, (self._budget // 2) // self._ck_bytes)
        d = self._d
        self._ck = [np.zeros(n_ck, np.int64), np.zeros(n_ck, np.int64),
                    None if d is None else np.zeros((n_ck, d)), np.zeros(n_ck)]
        w0, b0 = self.state_after(0)  # checkpoint 0 is the start
        if d is not None:
            self._ck[2][0] = w0
        self._ck[3][0] = b0
        store = self._rows
        if not store.len:  # only the per-epoch counts outgrew half the budget
            self._quantum = self._min_quantum
            self._nck = 1
            self._push(T, self._len, w, b)
            return
        total = T + UPDATE_COST * self._len
        self._quantum = max(self._min_quantum, -(-total // max(1, n_ck // 4)))
        picks = _first_rows_past(store, self._quantum)[: n_ck - 2]
        kept = store.take(picks)
        T_, k_, w_, b_ = self._ck
        p = picks.size  # checkpoint 0 is the start: T = 0, k = 0, w = w0, b = b0
        T_[1 : p + 1], k_[1 : p + 1], b_[1 : p + 1] = kept[0], picks + 1, kept[4]
        if w_ is not None:
            w_[1 : p + 1] = kept[3]
        self._nck = p + 1
        self._rows = _Store(d, store.block)  # the last segment is replayed when asked for
        self._push(T, self._len, w, b)

    def _halve(self) -> None:
        """Keep the first checkpoint of each stretch of a doubled ``Q``, and the last.

        So the oldest part of the run does not grow ever sparser.
        """
        T_, k_ = self._ck[0], self._ck[1]
        m = self._nck
        cost = T_[:m] + UPDATE_COST * k_[:m]
        self._quantum = max(2 * self._quantum, -(-int(cost[-1]) // max(1, T_.size // 2 - 2)))
        bucket = cost // self._quantum
        keep = np.flatnonzero(np.r_[True, bucket[1:] > bucket[:-1]])
        if keep[-1] != m - 1:
            keep = np.r_[keep, m - 1]
        for a in self._ck:
            if a is not None:
                a[: keep.size] = a[keep]
        self._nck = keep.size
        self.drop_cache()

    # -- reading ------------------------------------------------------------------------
    def _segment(self, j: int) -> tuple[int, list[np.ndarray] | None]:
        """Segment ``j``'s first row and rows (None for the last: those are in the store)."""
        T_, k_, w_, b_ = self._ck
        if j == self._nck - 1:
            return self._base, None
        cols = self._cache.get(j)
        if cols is None:
            k0, k1 = int(k_[j]), int(k_[j + 1])
            w0 = None if w_ is None else w_[j].copy()
            first, got = self._replay(int(T_[j]), k0, w0, float(b_[j]), int(T_[j + 1]), k1 - k0)
            cols = [np.asarray(a) if a is not None else np.empty((k1 - first, 0)) for a in got]
            if first > k0 or cols[0].shape[0] != k1 - first:
                raise RuntimeError(f"replay of steps {int(T_[j])}..{int(T_[j + 1])} made "
                                   f"{cols[0].shape[0]} updates, the run made {k1 - first}")
            # a replay from further back (a kernel run's copy of f) fills earlier segments too
            lo = int(np.searchsorted(k_[: self._nck], first, side="left"))
            for i in range(lo, j):
                a, e = int(k_[i]) - first, int(k_[i + 1]) - first
                if i not in self._cache and e - a <= self._rows.block:
                    self._remember(i, [c[a:e].copy() for c in cols])
            cols = [c[k0 - first :].copy() for c in cols] if first < k0 else cols
            self._remember(j, cols)
        else:
            self._cache.move_to_end(j)
        return int(k_[j]), cols

    def count_before(self, t: int) -> int:
        if self._ck is None:
            return self._rows.count_before(t)
        j = int(np.searchsorted(self._ck[0][: self._nck], t, side="right")) - 1
        k0, cols = self._segment(j)
        if cols is None:
            return k0 + self._rows.count_before(t)
        return k0 + int(np.searchsorted(cols[0], t, side="right"))

    def counts_before(self, t) -> np.ndarray:
        """:meth:`count_before` of each step in ``t`` (thinned: the checkpoint's, no replay)."""
        t = np.asarray(t, np.int64)
        if self._ck is None:
            return self._rows.counts_before(t)
        T_, k_ = self._ck[0][: self._nck], self._ck[1][: self._nck]
        j = np.searchsorted(T_, t, side="right") - 1
        out = k_[np.maximum(j, 0)].copy()
        tail = j == self._nck - 1
        if tail.any():
            out[tail] = self._base + self._rows.counts_before(t[tail])
        return out

    def steps_of(self, u) -> np.ndarray:
        """Step numbers of the (increasing) rows ``u``; exact, replaying only once thinned."""
        u = np.asarray(u, np.int64)
        if self._ck is None:
            return self._rows.take(u)[0]
        return np.array([self.step_of(int(r)) for r in u.tolist()], np.int64)

    def rows(self, k0: int = 0, k1: int | None = None) -> Rows:
        k1 = self._len if k1 is None else k1
        k0, k1 = max(0, int(k0)), min(self._len, int(k1))
        if k1 <= k0:
            return frozen_rows([self._rows.rows(0, 0)], self._d is not None)
        parts = []
        u = k0
        if self._ck is not None:  # several segments not cached: one replay through them
            T_, k_, w_, b_ = (a[: self._nck] if a is not None else None for a in self._ck)
            j0 = int(np.searchsorted(k_, k0, side="right")) - 1
            j1 = min(int(np.searchsorted(k_, k1 - 1, side="right")) - 1, self._nck - 2)
            if j1 > j0 and any(j not in self._cache for j in range(j0, j1 + 1)):
                first, got = self._replay(int(T_[j0]), int(k_[j0]),
                                          None if w_ is None else w_[j0].copy(), float(b_[j0]),
                                          int(T_[j1 + 1]), int(k_[j1 + 1] - k_[j0]))
                u = min(k1, int(k_[j1 + 1]))
                parts.append([np.empty((u - k0, 0)) if a is None else a[k0 - first : u - first]
                              for a in got])
        while u < k1:
            if self._ck is None:
                base, cols, end = 0, None, self._len
            else:
                j = int(np.searchsorted(self._ck[1][: self._nck], u, side="right")) - 1
                base, cols = self._segment(j)
                end = self._len if cols is None else int(self._ck[1][j + 1])
            stop = min(k1, end)
            if cols is None:
                part = self._rows.rows(u - self._base, stop - self._base)
            else:
                part = [a[u - base : stop - base] for a in cols]
            parts.append(part)
            u = stop
        return frozen_rows(parts, self._d is not None)

    def step_of(self, u: int) -> int:
        return int(self.rows(u, u + 1).step[0])

    def state_after(self, k: int) -> tuple[np.ndarray | None, float]:
        if k == 0:
            if self._d is None:
                return None, self._b0
            return (np.zeros(self._d) if self._w0 is None else self._w0.copy()), self._b0
        r = self.rows(k - 1, k)
        return (None if r.w is None else r.w[0].copy()), float(r.b[0])

    def epoch_counts(self, n_epochs: int) -> np.ndarray:
        """Updates in each of the first ``n_epochs`` epochs of the computed run (a copy)."""
        out = np.zeros(n_epochs, np.int64)
        m = min(n_epochs, self._epochs.size)
        out[:m] = self._epochs[:m]
        return out

    def epoch_count(self, epoch: int) -> int:
        return int(self._epochs[epoch]) if 0 <= epoch < self._epochs.size else 0

    def samples(self, k: int, m: int = 4096) -> Rows:
        """At most ``m`` exact points of the first ``k`` updates, spread evenly, for plots.

        ``index`` is the update count ``k_i`` (``k`` last), ``step`` a step with
        exactly ``k_i`` updates (thinned: a checkpoint's), ``w, b`` then, ``margin``
        NaN.  No replay but for the last point.
        """
        k = min(int(k), self._len)
        if k <= 0:
            return self.rows(0, 0)
        if self._ck is None:
            first = 0 if m > 1 else k - 1  # one point: the k-th update's
            u = np.arange(k) if k <= m else np.unique(np.linspace(first, k - 1, m).round()
                                                      .astype(np.int64))
            cols = self._rows.take(u)
            cols[1] = u + 1
        else:
            top = int(np.searchsorted(self._ck[1][: self._nck], k - 1, side="right"))
            pick = (np.unique(np.linspace(1, top - 1, m - 1).round().astype(np.int64))
                    if top - 1 > m - 1 else np.arange(1, top))
            pick = pick[self._ck[1][pick] > 0]
            T_, k_, w_, b_ = self._ck
            last = self.rows(k - 1, k)
            cols = [np.r_[T_[pick], last.step], np.r_[k_[pick], k],
                    None, None if w_ is None else np.vstack([w_[pick], last.w]),
                    np.r_[b_[pick], last.b]]
        cols[2] = np.full(cols[1].shape[0], np.nan)
        if self._d is None:
            cols[3] = None
        return Rows(*cols)
