"""The stepper protocol: what the window asks of any learner that learns step by step.

An iterative learner is a *cursor over a deterministic run*: its callers move
the cursor, read the event of a step and query the run's log, and never ask
which learner it is.  Two engines implement it:
:class:`~.perceptron_engine.PerceptronEngine` (``w`` moves only on a mistake,
:class:`~._log.UpdateLog`) and :class:`~.gradient.GradientEngine` (``w`` may
move on every step, :class:`~._dense.DenseLog`); an *update* is a row of the log.

``isinstance(learner, Stepper)`` holds for a *started* learner only (the
attributes ending in ``_`` exist once :meth:`Stepper.start` has run).
"""

from __future__ import annotations

from typing import Protocol, runtime_checkable

import numpy as np

from ._log import Rows
from ._run import StepEvent

__all__ = ["LinearStepper", "RunHistory", "RunLog", "Stepper"]


@runtime_checkable
class RunLog(Protocol):
    """The log of a computed run, in bounded memory, with exact queries.

    Row ``u`` is update ``u + 1``; readers never take the whole log as arrays.
    """

    def __len__(self) -> int:
        """Updates computed so far (the frontier's count)."""

    @property
    def thinned(self) -> bool:
        """True when the log keeps checkpoints, not every row (then :meth:`counts_before`
        may be exact only at checkpoints, and the timeline bar marks columns, not rows)."""

    @property
    def nbytes(self) -> int:
        """Bytes the log holds now (at most :attr:`budget` within its documented bound)."""

    @property
    def budget(self) -> int:
        """Bytes the log may use."""

    def count_before(self, t: int) -> int:
        """Number of updates among the first ``t`` steps (exact)."""

    def counts_before(self, t) -> np.ndarray:
        """:meth:`count_before` of each step in the array ``t``, for drawing many marks."""

    def step_of(self, u: int) -> int:
        """Step number (1-based) of row ``u``."""

    def steps_of(self, u) -> np.ndarray:
        """Step numbers of the increasing rows ``u``."""

    def rows(self, k0: int = 0, k1: int | None = None) -> Rows:
        """Updates ``k0 + 1 .. k1`` as read-only arrays (step, index, margin, w, b), exactly."""

    def state_after(self, k: int) -> tuple[np.ndarray | None, float]:
        """``(w, b)`` after ``k`` updates (``w`` a fresh copy; None for a kernel run)."""

    def samples(self, k: int, m: int = 4096) -> Rows:
        """At most ``m`` exact points ``(k_i, w, b)`` of the first ``k`` updates, for plots."""

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
        """The :class:`~._run.StepEvent` of step ``i + 1`` (or a list of them for a slice)."""

    @property
    def updates(self) -> RunLog:
        """The log of the whole computed run (it may extend past the cursor)."""

    @property
    def n_updates(self) -> int:
        """Updates within this history."""


@runtime_checkable
class Stepper(Protocol):
    """A learner whose training is a run the window steps through, scrubs and rewinds.

    The run is deterministic (the data, the parameters and the seed fix it)
    and computed lazily: the *cursor* (:attr:`step_count`) may stand anywhere
    up to the *frontier* (:attr:`frontier`, how far the run has been
    computed), and moving it back or forth returns the same bits as a fresh
    run stepped there.

    Attributes
    ----------
    n_updates_ : int
        Updates among the steps up to the cursor (the log's rows): the steps
        at which ``w`` or ``b`` changed.
    n_epochs_ : int
        Epochs begun up to the cursor.
    converged_ : bool
        The cursor stands at the end of a run that converged.
    diverged_reason_ : str or None
        Why the run stopped early, when the cursor stands at or past that
        step (its arithmetic left float64), else None.
    intercept_ : ndarray of shape (1,)
        The bias at the cursor.
    classes_ : ndarray of shape (2,)
        The two labels; ``classes_[1]`` is the positive class.
    fit_intercept : bool
        Whether the run learns a bias (a parameter; the exports' bias column).
    bias_scale : float
        The constant feature ``c`` of the bias (a parameter).
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
        """Validate the data and parameters and put the cursor at step 0 (``w = w0``).

        ``coef_init, intercept_init`` are the start ``w0, b0`` (default 0), as
        scikit-learn's ``fit`` takes them; a learner that cannot start elsewhere
        refuses any other with ValueError.
        """

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
        """Advance by at most ``max_steps`` steps; returns how many were taken.

        ``deadline`` is a ``time.perf_counter()`` value: stop once it has
        passed, after at least one step.
        """

    def compute(self, max_steps: int, deadline: float | None = None) -> int:
        """Extend the computed run by at most ``max_steps`` steps; the cursor stays.

        Returns the steps computed (0 once the end is computed); ``deadline``
        as in :meth:`advance`, checked after each stretch.
        """

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


@runtime_checkable
class LinearStepper(Stepper, Protocol):
    """A :class:`Stepper` whose boundary is ``w·x + b = 0`` in the input space.

    A kernel run has no ``coef_`` (as scikit-learn's kernel estimators); the
    readouts and the canvas read ``coef_`` only from a linear one.

    Attributes
    ----------
    coef_ : ndarray of shape (1, n_features)
        The weights ``w`` at the cursor.
    """

    coef_: np.ndarray
