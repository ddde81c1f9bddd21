"""The run: the learner in use and its cursor (step, seek, advance, step back); no Qt.

Each move announces itself once, on the ``run_changed`` signal it is given,
and a move that ends the run says how it ended on ``message``.
"""

from __future__ import annotations

import math
import time
from collections.abc import Callable

import numpy as np

from . import theory
from .learners import StepEvent
from .learners._run import MARGIN_NAN
from .learners.dual import PREDICTIONS_DISAGREE
from .signal import SignalInstance
from .switch import COMPUTING, COMPUTING_LINEAR, DataProblem
from .text import fmt, plural

__all__ = ["Run", "end_message"]


class Run:
    """The learner in use and the cursor of its run (``learner`` None before :meth:`install`)."""

    def __init__(self, run_changed: SignalInstance, message: SignalInstance,
                 describe_end: Callable[[], str]) -> None:
        self.run_changed = run_changed
        self.message = message
        self.describe_end = describe_end
        self.install(None, None, None, False)

    def install(self, learner, problem_kind: DataProblem | None, problem: str | None,
                steps: bool) -> None:
        """Make ``learner`` the one in use (a new run, at the cursor it has); announces nothing."""
        self.learner = learner
        self.problem_kind = problem_kind
        self.problem = problem
        self.steps = steps

    # -- state ---------------------------------------------------------------------
    @property
    def running(self) -> bool:
        """True when a run exists (the learner steps and the data allow one)."""
        return self.steps and self.problem is None

    @property
    def can_step(self) -> bool:
        """True when a step forward is possible."""
        return self.running and not self.learner.finished

    @property
    def can_step_back(self) -> bool:
        """True when the cursor is past the start."""
        return self.running and self.learner.step_count > 0

    @property
    def finished(self) -> bool:
        """True when the run has ended (converged or out of epochs)."""
        return self.running and self.learner.finished

    @property
    def step_count(self) -> int:
        """Steps taken by the current run (0 without one)."""
        return self.learner.step_count if self.running else 0

    @property
    def current_event(self) -> StepEvent | None:
        """The event of the last step taken, or None at the start."""
        if not self.running or self.learner.step_count == 0:
            return None
        return self.learner.event(self.learner.step_count)

    def state(self) -> tuple:
        """What the per-cursor quantities depend on: the learner, its step and update counts."""
        learner = self.learner
        return (learner, getattr(learner, "step_count", 0), getattr(learner, "n_updates_", 0))

    def weights_state(self) -> tuple:
        """What the margins of the samples depend on: the learner and its number of updates."""
        learner = self.learner
        return (learner, getattr(learner, "n_updates_", 0))

    # -- moves -----------------------------------------------------------------------
    def reset(self) -> None:
        """Rewind the run to its start (the computed run is kept for replay)."""
        self.seek(0)

    def step(self) -> StepEvent | None:
        """Examine the next sample."""
        return self._move(lambda learner: learner.step())

    def step_update(self) -> StepEvent | None:
        """Run to the next update."""
        return self._move(lambda learner: learner.step_update())

    def step_epoch(self) -> StepEvent | None:
        """Run to the end of the epoch."""
        return self._move(lambda learner: learner.step_epoch())

    def step_back(self) -> StepEvent | None:
        """Undo the last step."""
        return self._move(lambda learner: learner.step_back(), self.can_step_back)

    def run_to_end(self) -> StepEvent | None:
        """Run to convergence or ``max_iter`` in one go (the window slices it)."""
        return self._move(lambda learner: learner.run_to_end())

    def advance(self, max_steps: int, deadline: float | None = None) -> int:
        """Advance by at most ``max_steps`` steps, or to ``deadline`` (``time.perf_counter``)."""
        if not self.can_step:
            return 0
        return self._announced(self.learner.advance(max_steps, deadline=deadline))

    def advance_for(self, seconds: float, chunk: int = 4096) -> int:
        """Advance for about ``seconds`` of computing (at least one step); emit once.

        The window's "run to end" calls this once per frame; the learner stops
        at the deadline between two updates, so a slow run (a kernel on 10⁶
        points, O(n) per update) overruns the budget by one update at most.
        """
        if not self.can_step:
            return 0
        learner = self.learner
        return self._announced(_sliced(
            seconds, chunk, lambda done, got: not learner.finished,
            lambda n, deadline, done: learner.advance(n, deadline=deadline)))

    def compute_for(self, seconds: float, limit: int, chunk: int = 4096) -> int:
        """Compute up to ``limit`` steps past the frontier for about ``seconds``; the cursor stays.

        The slice of a long seek: nothing is announced, since the run shown has
        not moved; the seek's :meth:`seek` to the computed step comes last.
        """
        if not self.running:
            return 0
        learner = self.learner
        return _sliced(seconds, chunk, lambda done, got: got != 0 and done < limit
                       and learner.end_step is None,
                       lambda n, deadline, done: learner.compute(min(n, limit - done),
                                                                 deadline=deadline))

    def seek(self, step: int, announce: bool = True) -> StepEvent | None:
        """Move the cursor to ``step`` (0 = start); ``announce=False`` keeps it quiet."""
        if not self.running:
            return None
        self.learner.seek(step)
        ev = self.current_event
        if announce:
            self.run_changed.emit(ev)
        return ev

    def _move(self, action, allowed: bool | None = None) -> StepEvent | None:
        if not (self.can_step if allowed is None else allowed):
            return None
        action(self.learner)
        ev = self.current_event
        self._announced(1)
        return ev

    def _announced(self, taken: int) -> int:
        """After ``taken`` steps (none: nothing), emit the cursor's event and any end."""
        if taken:
            self.run_changed.emit(self.current_event)
            if self.finished:
                self.message.emit(self.describe_end())
        return taken


def _sliced(seconds: float, chunk: int, more, work) -> int:
    """Call ``work(chunk, deadline, done)`` while ``more(done, got)``, for about ``seconds``.

    The chunk doubles while a call takes under a tenth of the budget (a fast
    run finishes in one slice) and halves over a third.  Returns the steps done.
    """
    deadline = time.perf_counter() + seconds
    done, got = 0, None
    while more(done, got):
        t0 = time.perf_counter()
        got = work(chunk, deadline, done)
        done += got
        now = time.perf_counter()
        if now >= deadline:
            break
        if now - t0 < seconds / 10:
            chunk *= 2
        elif now - t0 > seconds / 3:
            chunk = max(1, chunk // 2)
    return done


def end_message(learner, novikoff: Callable[[], theory.NovikoffResult | None],
                kernel_space: bool, X: np.ndarray,
                no_bound: Callable[[], str] | None = None) -> str:
    """What the end of a run means, in one line.

    ``novikoff()`` is asked only when the run stopped at ``max_iter``; ``X`` tells
    when the products ``w·x`` underflow. For a run Novikoff's bound is not
    about (hinge or logistic loss, batch descent) ``no_bound()`` says how it
    ended instead.
    """
    if getattr(learner, "diverged_", False):
        if learner.diverged_reason_ == MARGIN_NAN:
            return (
                f"Stopped at step {learner.step_count:,}: a margin y(w·x + b) is not a "
                "number (w·x overflows float64 as ∞ − ∞), so it is neither a mistake nor "
                "correct. Rescale the data."
            )
        if learner.diverged_reason_ == PREDICTIONS_DISAGREE:
            return (
                f"Stopped at step {learner.step_count:,}: the last epoch made no mistake, "
                "but predict() misclassifies a training point (the run's two sums of f "
                "round apart near f = 0), so the run is not called converged."
            )
        return (
            f"Stopped at step {learner.step_count:,}: the weights overflowed float64 "
            "(no longer finite). Rescale the data or lower the learning rate."
        )
    if no_bound is not None:
        return no_bound()
    if learner.converged_:
        return (
            f"Converged: {plural(learner.n_updates_, 'update')} in "
            f"{plural(learner.n_epochs_, 'epoch')}; the last epoch made no mistake."
        )
    text = (f"Stopped after max_iter = {plural(learner.n_epochs_, 'epoch')} with "
            f"mistakes in every epoch: "
            f"{_separability_verdict(learner, novikoff(), kernel_space)}")
    if _products_underflow(learner, X):
        text += (" At this data scale the products w·x underflow to 0, so the margins "
                 "are the bias alone. Rescale the data.")
    return text


def _separability_verdict(learner, nov, kernel_space: bool) -> str:
    """Why a run stopped at ``max_iter``, from Novikoff's certificate (one sentence)."""
    space = "separable in the kernel's feature space" if kernel_space else \
        "linearly separable"
    if nov is None or nov.separable is None:
        reason = None if nov is None else nov.reason
        if reason in (COMPUTING, COMPUTING_LINEAR):
            return f"whether the data are {space} is still being computed."
        known = f" ({reason})" if reason else ""
        return f"whether the data are {space} is not known{known}; more epochs may help."
    if not nov.separable:
        sure = "" if nov.certified else " (not certified)"
        return f"the data are not {space}{sure}, so more epochs would not help."
    k = learner.n_updates_
    if math.isfinite(nov.bound):
        bound = f"at most (R/γ)² = {fmt(nov.bound)} updates, {k:,} made"
    else:
        bound = "(R/γ)² exceeds the largest float"
    return (f"the data are {space} (certified: γ = {fmt(nov.margin)} > 0), so the run "
            f"needs more epochs: {bound}.")


def _products_underflow(learner, X: np.ndarray) -> bool:
    """Whether some ``x_j w_j`` with both factors non-zero is 0 (linear learners only)."""
    w = getattr(learner, "coef_", None)
    if w is None:
        return False
    with np.errstate(under="ignore"):
        return bool(np.any((X * w[0] == 0) & (X != 0) & (w[0] != 0)))
