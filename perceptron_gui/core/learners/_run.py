"""The record of a run: step events, the start check and the history view.

A run is deterministic, so a perceptron's is stored as its *updates* only (the
weights are constant between two) and any step is rebuilt exactly from them;
a run whose weights move every step keeps checkpoints (:mod:`._dense`).
"""

from __future__ import annotations

import math
from collections.abc import Sequence
from dataclasses import dataclass

import numpy as np

from ._log import UpdateLog

__all__ = ["History", "MARGIN_NAN", "StepEvent", "WEIGHTS_OVERFLOW", "check_start", "stop_reason"]

#: :attr:`~.engine.RunEngine.diverged_reason_` when ``w`` or ``b`` (for a kernel:
#: a decision value) overflowed float64.
WEIGHTS_OVERFLOW = "weights overflowed"
#: :attr:`~.engine.RunEngine.diverged_reason_` when a margin ``y (w·x + b)`` was
#: NaN (``inf - inf``): neither a mistake nor a correct sample.
MARGIN_NAN = "margin not a number"


def stop_reason(nan: bool, w, b: float) -> str:
    """Why a run left float64: :data:`MARGIN_NAN` for a NaN of finite ``w, b``, else overflow."""
    if nan and math.isfinite(b) and bool(np.isfinite(w).all()):
        return MARGIN_NAN
    return WEIGHTS_OVERFLOW


def check_start(coef_init, intercept_init, d: int, fit_intercept: bool
                ) -> tuple[np.ndarray, float]:
    """A run's start ``(w0, b0)`` from scikit-learn's ``coef_init, intercept_init`` (None: 0).

    ValueError for a wrong shape, a value not finite, or a bias without an intercept.
    """
    w0 = np.zeros(d) if coef_init is None else np.array(coef_init, dtype=np.float64)
    if w0.ndim == 2 and w0.shape[0] == 1:
        w0 = w0[0]
    if w0.shape != (d,):
        raise ValueError(f"coef_init must have {d} entries (one per feature); "
                         f"got shape {np.shape(coef_init)}")
    b = 0.0 if intercept_init is None else np.asarray(intercept_init, dtype=np.float64).ravel()
    if not isinstance(b, float):
        if b.size != 1:
            raise ValueError(f"intercept_init must be one number; got shape {b.shape}")
        b = float(b[0])
    if not (np.isfinite(w0).all() and math.isfinite(b)):
        raise ValueError("the start w0, b0 must be finite numbers")
    if not fit_intercept and b != 0.0:
        raise ValueError("intercept_init must be 0 without an intercept (fit_intercept=False)")
    w0 = w0 + 0.0  # no negative zeros: the run's arithmetic from +0.0, as from w = 0
    return w0, b + 0.0


@dataclass(frozen=True)
class StepEvent:
    """One step of a run (immutable): the examined sample, or a pass for batch descent.

    Attributes
    ----------
    step, epoch, position : int
        The step (1-based), its epoch and the position in the epoch's order (0-based).
    index, label : int
        The examined sample and its label ±1 (-1 and 0 for a pass, batch descent).
    margin : float
        Its functional margin ``y f(x)`` *before* the step (NaN for a pass).
    mistake : bool
        The step moved ``w`` or ``b`` (the perceptron: ``margin <= 0``).
    k : int
        Updates after this step: rows of the run's log (dense runs: ``k == step``).
    w_before, w_after : ndarray of shape (n_features,) or None
        Read-only; None for a non-linear kernel (``w`` lives in feature space).
    b_before, b_after : float
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


class History(Sequence):
    """A :class:`~.stepper.RunHistory`: :class:`StepEvent` rebuilt on demand from the log."""

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
        return self._learner.update_log

    @property
    def n_updates(self) -> int:
        return self._learner.update_log.count_before(self._len)
