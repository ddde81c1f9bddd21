"""The stepper protocol: what the window asks of any learner that learns step by step.

An iterative learner is a *cursor over a deterministic run*; callers move the
cursor, read a step's event and query the run's log (an *update* is a row of
it), never asking which learner it is.  ``isinstance(learner, Stepper)`` holds
for a *started* learner only (its ``_`` attributes exist once started).
"""

from __future__ import annotations

from typing import Protocol, runtime_checkable

import numpy as np

from ._log import Rows
from ._run import StepEvent

__all__ = ["RunHistory", "RunLog", "Stepper"]


@runtime_checkable
class RunLog(Protocol):
    """The log of a computed run, in bounded memory: row ``u`` is update ``u + 1``."""

    def __len__(self) -> int:
        """Updates computed so far (the frontier's count)."""

    @property
    def thinned(self) -> bool:
        """The log keeps checkpoints, not every row (:meth:`counts_before` exact only there)."""

    @property
    def nbytes(self) -> int:
        """Bytes the log holds now."""

    @property
    def budget(self) -> int:
        """Bytes the log may use."""

    def count_before(self, t: int) -> int:
        """Number of updates among the first ``t`` steps (exact)."""

    def counts_before(self, t) -> np.ndarray:
        """:meth:`count_before` of each step in the array ``t``."""

    def step_of(self, u: int) -> int:
        """Step number (1-based) of row ``u``."""

    def steps_of(self, u) -> np.ndarray:
        """Step numbers of the increasing rows ``u``."""

    def rows(self, k0: int = 0, k1: int | None = None) -> Rows:
        """Updates ``k0 + 1 .. k1`` as read-only arrays."""

    def state_after(self, k: int) -> tuple[np.ndarray | None, float]:
        """``(w, b)`` after ``k`` updates (``w`` a fresh copy; None for a kernel run)."""

    def samples(self, k: int, m: int = 4096) -> Rows:
        """At most ``m`` exact points ``(k_i, w, b)`` of the first ``k`` updates."""

    def epoch_counts(self, n_epochs: int) -> np.ndarray:
        """Updates in each of the first ``n_epochs`` epochs of the computed run."""

    def epoch_count(self, epoch: int) -> int:
        """Updates in ``epoch`` (0-based) of the computed run."""


@runtime_checkable
class RunHistory(Protocol):
    """The events of a run up to its cursor: ``history[i]`` is step ``i + 1``."""

    def __len__(self) -> int:
        """Steps up to the cursor."""

    def __getitem__(self, i):
        """The :class:`~._run.StepEvent` of step ``i + 1`` (a list for a slice)."""

    @property
    def updates(self) -> RunLog:
        """The log of the whole computed run (it may extend past the cursor)."""

    @property
    def n_updates(self) -> int:
        """Updates within this history."""


@runtime_checkable
class Stepper(Protocol):
    """A learner whose training is a run the window steps through, scrubs and rewinds.

    The *cursor* (:attr:`step_count`) may stand anywhere up to the *frontier*, and
    moving it gives the same bits as a fresh run stepped there; the attributes are
    those of :class:`~.primal.PrimalPerceptron`, at the cursor.
    """

    n_updates_: int
    n_epochs_: int
    converged_: bool
    diverged_reason_: str | None
    intercept_: np.ndarray
    classes_: np.ndarray
    fit_intercept: bool
    bias_scale: float

    def start(self, X, y, coef_init=None, intercept_init=None) -> Stepper:
        """Validate, and put the cursor at step 0 with ``w0, b0`` (default 0; else ValueError)."""

    def step(self) -> StepEvent | None:
        """Take one step; returns its event, or None when the run is over."""

    def step_update(self) -> StepEvent | None:
        """Advance to the next update (inclusive) or the end; returns the last event."""

    def step_epoch(self) -> StepEvent | None:
        """Advance to the end of the current epoch; returns the last event."""

    def step_back(self) -> StepEvent | None:
        """Undo the last step; returns the event undone, or None at step 0."""

    def seek(self, step: int) -> StepEvent | None:
        """Move the cursor to ``step``, computing forward if needed; its event, or None at 0."""

    def run_to_end(self) -> StepEvent | None:
        """Advance to the end of the run (convergence, ``max_iter`` or divergence)."""

    def advance(self, max_steps: int, deadline: float | None = None) -> int:
        """Advance at most ``max_steps`` steps or until ``deadline`` (``perf_counter``)."""

    def compute(self, max_steps: int, deadline: float | None = None) -> int:
        """Extend the computed run by at most ``max_steps`` steps (the cursor stays); how many."""

    @property
    def step_count(self) -> int:
        """Steps taken: the cursor (0 before :meth:`start`)."""

    @property
    def frontier(self) -> int:
        """Steps computed so far; the cursor may stand anywhere up to it."""

    @property
    def end_step(self) -> int | None:
        """The step at which the run ends, once computed that far, else None."""

    @property
    def finished(self) -> bool:
        """True when the cursor stands at the end of the run."""

    def event(self, step: int) -> StepEvent:
        """The immutable event of step ``step`` (1-based; IndexError outside ``1 .. frontier``)."""

    @property
    def history(self) -> RunHistory:
        """The events up to the cursor; ``history.updates`` is the run's log."""

    @property
    def update_log(self) -> RunLog:
        """The log of the whole computed run (the same as ``history.updates``)."""

    def training_margins(self) -> np.ndarray:
        """Margins ``y_i f(x_i)`` at the cursor, as the next event of each sample reports."""

    def mistakes_per_epoch(self) -> np.ndarray:
        """Updates in each epoch up to the cursor (the current one possibly partial)."""

    def epoch_mistakes(self, epoch: int) -> int:
        """Updates in ``epoch`` (0-based) up to the cursor."""

    @property
    def training_X(self) -> np.ndarray:
        """The validated training samples, shape (n_samples, n_features)."""

    @property
    def training_signs(self) -> np.ndarray:
        """The training labels as -1/+1, shape (n_samples,)."""
