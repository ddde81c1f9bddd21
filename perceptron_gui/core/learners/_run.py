"""The record of a perceptron run: step events, the update log and the history view.

A run is deterministic: given the data, the parameters and the seed, step ``t``
always examines the same sample with the same weights.  So a run is stored
compactly as its *updates* only (the steps that were mistakes): the weights after
each update, and the step number at which it happened.  Any other step can be
rebuilt exactly, because between two updates the weights do not change.  Memory
is O(updates), not O(steps), which keeps a 10⁵-point run with millions of
examined samples cheap, and makes rewinding (``step_back``, a timeline) free.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass

import numpy as np

__all__ = ["StepEvent", "UpdateLog", "History"]


@dataclass(frozen=True)
class StepEvent:
    """One examined sample of a perceptron run (immutable).

    Attributes
    ----------
    step : int
        1-based number of this step in the run.
    epoch : int
        0-based epoch the step belongs to (shown to people as ``epoch + 1``).
    position : int
        0-based position of the sample in that epoch's visiting order.
    index : int
        Index of the examined sample in the training data.
    label : int
        Its label, -1 or +1.
    margin : float
        Its functional margin ``y (w·x + b)`` *before* the step (for the dual
        learner ``y (sum_j alpha_j y_j K(x_j, x) + b)``).
    mistake : bool
        ``margin <= 0``: the step updated the weights.
    k : int
        Number of updates after this step.
    w_before, w_after : ndarray of shape (n_features,) or None
        Weights before and after the step (read-only).  ``None`` for a
        non-linear kernel, whose weight vector lives in feature space.
    b_before, b_after : float
        Bias before and after the step.
    """

    step: int
    epoch: int
    position: int
    index: int
    label: int
    margin: float
    mistake: bool
    k: int
    w_before: np.ndarray | None
    b_before: float
    w_after: np.ndarray | None
    b_after: float

    @property
    def delta_w(self) -> np.ndarray | None:
        """The vector added to ``w`` by this step (``eta*y*x`` on a mistake, else 0)."""
        if self.w_before is None or self.w_after is None:
            return None
        return self.w_after - self.w_before


class UpdateLog:
    """Growable columnar store of the updates of a run.

    Row ``u`` (0-based) is update number ``k = u + 1``: the step at which it
    happened, the sample, its margin before the update, and the weights and bias
    after it.
    """

    def __init__(self, n_features: int | None):
        self._cap = 64
        self._len = 0
        self._step = np.empty(self._cap, np.int64)
        self._index = np.empty(self._cap, np.int64)
        self._margin = np.empty(self._cap, np.float64)
        self._b = np.empty(self._cap, np.float64)
        self._n_features = n_features
        self._w = None if n_features is None else np.empty((self._cap, n_features), np.float64)

    def __len__(self) -> int:
        return self._len

    def _grow(self) -> None:
        cap = self._cap * 2
        self._step = np.resize(self._step, cap)
        self._index = np.resize(self._index, cap)
        self._margin = np.resize(self._margin, cap)
        self._b = np.resize(self._b, cap)
        if self._w is not None:
            w = np.empty((cap, self._n_features), np.float64)
            w[: self._len] = self._w[: self._len]
            self._w = w
        self._cap = cap

    def append(self, step: int, index: int, margin: float, w, b: float) -> None:
        """Record one update (``w`` is ignored when the log keeps no weights)."""
        if self._len == self._cap:
            self._grow()
        u = self._len
        self._step[u] = step
        self._index[u] = index
        self._margin[u] = margin
        self._b[u] = b
        if self._w is not None:
            self._w[u] = w
        self._len = u + 1

    def reserve(self, m: int):
        """Free rows for ``m`` more updates, as writable buffers ``(step, index, margin, w, b)``.

        Fill them, then call :meth:`commit` with the number of rows written.
        ``w`` is a dummy (m, 1) buffer when the log keeps no weights.
        """
        while self._cap - self._len < m:
            self._grow()
        a, e = self._len, self._len + m
        w = self._w[a:e] if self._w is not None else np.empty((m, 1))
        return self._step[a:e], self._index[a:e], self._margin[a:e], w, self._b[a:e]

    def commit(self, m: int) -> None:
        """Account for ``m`` rows written into the buffers from :meth:`reserve`."""
        self._len += m

    # read-only views over the first ``len`` rows
    @property
    def step(self) -> np.ndarray:
        """Step number (1-based) of every update, increasing."""
        return _ro(self._step[: self._len])

    @property
    def index(self) -> np.ndarray:
        """Sample index of every update."""
        return _ro(self._index[: self._len])

    @property
    def margin(self) -> np.ndarray:
        """Functional margin of the sample just before each update (always <= 0)."""
        return _ro(self._margin[: self._len])

    @property
    def w(self) -> np.ndarray | None:
        """Weights after each update, shape (k, n_features); None for a kernel run."""
        return None if self._w is None else _ro(self._w[: self._len])

    @property
    def b(self) -> np.ndarray:
        """Bias after each update."""
        return _ro(self._b[: self._len])

    def count_before(self, t: int) -> int:
        """Number of updates among the first ``t`` steps."""
        return int(np.searchsorted(self._step[: self._len], t, side="right"))


def _ro(a: np.ndarray) -> np.ndarray:
    v = a.view()
    v.flags.writeable = False
    return v


class History(Sequence):
    """The steps of a run up to its cursor, as a read-only sequence of :class:`StepEvent`.

    ``history[i]`` is step ``i + 1``; events are rebuilt on demand from the
    update log, so the sequence costs no memory per step.
    """

    def __init__(self, learner, length: int):
        self._learner = learner
        self._len = length

    def __len__(self) -> int:
        return self._len

    def __getitem__(self, i):
        if isinstance(i, slice):
            return [self[j] for j in range(*i.indices(self._len))]
        if i < 0:
            i += self._len
        if not 0 <= i < self._len:
            raise IndexError("history index out of range")
        return self._learner.event(i + 1)

    @property
    def updates(self) -> UpdateLog:
        """The update log of the whole computed run (may extend past the cursor)."""
        return self._learner.update_log

    @property
    def n_updates(self) -> int:
        """Number of updates within this history."""
        return self._learner.update_log.count_before(self._len)
