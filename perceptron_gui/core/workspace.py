"""The workspace: a data set, a learner with its parameters, and the run; no Qt.

The window only draws a :class:`Workspace` and turns gestures into calls on it.
Data flows one way: a gesture becomes an edit or a command, the workspace
changes, it announces what changed through its :class:`Signal` attributes, and
the views redraw.  There are no timers here: playback is the window's job.

Derived quantities (the Novikoff radius, margin and bound; the maximum-margin
hyperplane; LDA) are computed on first use after each change and cached, so a
drag that edits the data many times a second pays only for what is shown.

On a large data set the window does not wait for what a change costs: the
Novikoff margin is handed to a worker (:meth:`Workspace.pending_theory`), and
so is a change of learner or parameters (:meth:`Workspace.request_learner`,
:meth:`Workspace.request_params`): the worker builds the new learner
(:mod:`.switch`) while the old one stays shown, and
:meth:`Workspace.commit_switch` installs it.

The module is one class (about 860 lines) because the caches, the pending
switch and the signals must change together; the readouts, the learners, the
switch's model and the theory it caches live in their own modules.
"""

from __future__ import annotations

import math
import time

import numpy as np

from . import theory
from .dataset import Dataset, Edit
from .learners import StepEvent, registry
from .learners.dual import PREDICTIONS_DISAGREE
from .learners.engine import MARGIN_NAN
from .learners.lda import LDA
from .learners.registry import DEFAULT_PARAMS, LEARNERS, Capabilities, LearnerSpec
from .readouts import Readouts, compute_readouts, no_bound_end_text
from .signal import Signal
from .switch import (
    COMPUTING,
    COMPUTING_LINEAR,
    DataProblem,
    Model,
    Switch,
    build,
    data_problem,
    describe_problem,
    find_data_problem,
    fit,
    novikoff_job,
    placeholder,
)
from .text import fmt, plural
from .viewstate import ViewState

__all__ = [
    "Signal",
    "Workspace",
    "Readouts",
    "LEARNERS",
    "DEFAULT_PARAMS",
    "DataProblem",
    "Switch",
    "COMPUTING",
    "COMPUTING_LINEAR",
    "data_problem",
    "describe_problem",
    "find_data_problem",
]

#: Kernel margin problems above this many samples are handed to a worker when
#: :attr:`Workspace.defer_expensive` is set (the window sets it); below it the
#: solve takes a few milliseconds and is done at once.
EXPENSIVE_KERNEL_N = 150
#: Linear margin problems of more than this many samples are handed to the
#: worker too (with :attr:`Workspace.defer_expensive`), so that an edit is drawn
#: before its certified margin is known (at 10⁶ points it takes seconds).
EXPENSIVE_LINEAR_N = 500
#: The learner whose fit the overlay of class means and 2σ ellipses draws, beside
#: any learner in use (:attr:`Workspace.lda`).
OVERLAY = "lda"
#: A change of learner or parameters on more samples than this is built in a
#: worker (:meth:`Workspace.request_learner`) when :attr:`Workspace.defer_expensive`
#: is set; on fewer it is made at once (it then takes a few milliseconds).
SWITCH_IN_WORKER_N = 20_000


class Workspace:
    """A data set, the chosen learner and its parameters, and the run.

    Parameters
    ----------
    dataset : Dataset, optional
        Initial points (default: empty).
    learner : str, default=registry.DEFAULT
        The learner in use: a key of the learner registry ("primal", "dual",
        "lda", or any registered since).
    params : dict, optional
        ``{learner key: {parameter: value}}`` overriding :data:`DEFAULT_PARAMS`.

    Attributes
    ----------
    dataset_changed : Signal
        Emitted with the new :class:`Dataset` after every edit.
    learner_changed : Signal
        Emitted with no arguments when the learner object was rebuilt (new
        data, learner or parameters): the run restarts from ``w = 0``.
    run_changed : Signal
        Emitted with the current :class:`StepEvent` (or None) when the cursor moves.
    message : Signal
        Emitted with a one-line message for the status bar.
    switch_changed : Signal
        Emitted with no arguments when a requested switch (:attr:`pending_switch`)
        is made, replaced, dropped or installed.
    """

    def __init__(self, dataset: Dataset | None = None, learner: str = registry.DEFAULT,
                 params: dict | None = None):
        self.dataset_changed = Signal()
        self.learner_changed = Signal()
        self.run_changed = Signal()
        self.message = Signal()
        self.switch_changed = Signal()
        #: Emitted when a deferred theory result (the kernel margin) arrives.
        self.theory_changed = Signal()
        #: When True, expensive theory (a margin on many samples: above
        #: :data:`EXPENSIVE_KERNEL_N` with a kernel, :data:`EXPENSIVE_LINEAR_N`
        #: without) is not computed on
        #: access: :attr:`novikoff` returns a placeholder and
        #: :meth:`pending_theory` hands the work to the caller's worker.
        self.defer_expensive = False
        self._version = 0
        self._switch: Switch | None = None
        self._data: dict = {}  # what depends on the data set alone (max margin, LDA)
        self._dataset = dataset if dataset is not None else Dataset()
        self._params = {key: dict(values) for key, values in DEFAULT_PARAMS.items()}
        self._cache: dict = {}
        for key, values in (params or {}).items():
            self._check_learner_key(key)
            self._params[key].update(values)
        self._check_learner_key(learner)
        self._learner_name = learner
        #: What the window shows (layer switches, the view rectangle, the views):
        #: the one place the canvas, the View menu, demos, exports and files read.
        self.view_state = ViewState()
        #: What a loaded file stored that was not restored, said to the person who
        #: opens it (e.g. a run position too far to recompute), or None.
        self.open_note: str | None = None
        self._rebuild()

    # -- state ---------------------------------------------------------------------
    @property
    def view(self) -> tuple[float, float, float, float] | None:
        """The view rectangle ``(x_min, x_max, y_min, y_max)`` or None: ``view_state.rect``.

        A window keeps it current; files save it and restore it.  Set to
        anything but a rectangle, it becomes None (the view is a display hint).
        """
        return self.view_state.rect

    @view.setter
    def view(self, rect) -> None:
        try:
            self.view_state.set_rect(rect)
        except ValueError:
            self.view_state.set_rect(None)

    @property
    def dataset(self) -> Dataset:
        """The current data set (immutable)."""
        return self._dataset

    @property
    def learner_name(self) -> str:
        """Key of the learner in use (a key of the learner registry)."""
        return self._learner_name

    @property
    def spec(self) -> LearnerSpec:
        """The registry's spec of the learner in use."""
        return registry.get(self._learner_name)

    @property
    def capabilities(self) -> Capabilities:
        """What the learner in use can do with its parameters (read these, not its name)."""
        caps = self._cache.get("capabilities")
        if caps is None:
            caps = self._cache["capabilities"] = self.spec.caps(self._params[self._learner_name])
        return caps

    @property
    def learner(self):
        """The core learner in its current state (started on the data when possible)."""
        return self._learner

    @property
    def params(self) -> dict:
        """A copy of the parameters of the learner in use."""
        return dict(self._params[self._learner_name])

    def all_params(self) -> dict:
        """A copy of the parameters of every learner."""
        return {key: dict(values) for key, values in self._params.items()}

    @property
    def problem(self) -> str | None:
        """Why the learner cannot run on the current data, stated plainly, or None."""
        return self._problem

    @property
    def problem_kind(self) -> DataProblem | None:
        """Why the learner cannot run on the current data, as a fact, or None."""
        return self._problem_kind

    @property
    def is_perceptron(self) -> bool:
        """True for a learner that steps (a run), such as the primal and dual perceptron."""
        return self.capabilities.steps

    @property
    def has_model(self) -> bool:
        """True when there is a model to draw: a run, or a learner fitted on the data."""
        return self._problem is None

    @property
    def running(self) -> bool:
        """True when a perceptron run exists (the data allow one)."""
        return self.is_perceptron and self._problem is None

    @property
    def can_step(self) -> bool:
        """True when a step forward is possible."""
        return self.running and not self._learner.finished

    @property
    def can_step_back(self) -> bool:
        """True when the cursor is past the start."""
        return self.running and self._learner.step_count > 0

    @property
    def finished(self) -> bool:
        """True when the run has ended (converged or out of epochs)."""
        return self.running and self._learner.finished

    @property
    def step_count(self) -> int:
        """Steps taken by the current run (0 without one)."""
        return self._learner.step_count if self.running else 0

    @property
    def current_event(self) -> StepEvent | None:
        """The event of the last step taken, or None at the start."""
        if not self.running or self._learner.step_count == 0:
            return None
        return self._learner.event(self._learner.step_count)

    @property
    def kernel(self):
        """The kernel of the learner in use (None for a learner without one)."""
        return self.capabilities.kernel

    @property
    def linear(self) -> bool:
        """True when the boundary is the line ``w·x + b = 0`` (else a contour of f)."""
        return self.capabilities.linear

    @property
    def is_kernel(self) -> bool:
        """True for a learner whose boundary is a contour of a non-linear kernel's f."""
        caps = self.capabilities
        return caps.kernel is not None and not caps.linear

    def weights(self) -> tuple[np.ndarray, float] | None:
        """The linear model drawn now: ``(w, b)``, or None (no model, or a contour boundary).

        ``w`` is the current weights while a run exists (a linear kernel's
        too), the fitted ones of a learner fitted at once; a read-only copy.
        The readouts show the same numbers.
        """
        if not (self.has_model and self.linear):
            return None
        learner = self._learner
        w, b = learner.coef_[0].copy(), float(learner.intercept_[0])
        w.flags.writeable = False
        return w, b

    # -- commands -------------------------------------------------------------------
    def apply_edit(self, edit: Edit) -> Edit:
        """Apply an edit of the data set and return its inverse.

        A running perceptron restarts from ``w = 0`` (and says so).
        Raises ValueError, with nothing changed, for an invalid edit.
        """
        new, inverse = edit.apply(self._dataset)
        self.set_dataset(new)
        return inverse

    def set_dataset(self, dataset: Dataset) -> None:
        """Replace the data set; restarts the run."""
        had_progress = self.running and self._learner.step_count > 0
        self._dataset = dataset
        self._data = {}
        self._rebuild()
        if self._switch is not None:  # the requested learner, on the new data
            self._switch = Switch(dataset, self._switch.learner_name, self._switch.params,
                                  defers=self._deferred)
        self.dataset_changed.emit(dataset)
        self.learner_changed.emit()
        if self._switch is not None:
            self.switch_changed.emit()
        if had_progress and self.running:
            self.message.emit("The data changed: training restarted from w = 0.")

    def replace(self, dataset: Dataset, learner: str, params: dict, step: int = 0) -> None:
        """Replace data, learner and parameters at once (a loaded file), then seek ``step``.

        Everything is validated before anything changes: on ValueError the
        workspace is exactly as it was.
        """
        self._check_learner_key(learner)
        merged = {key: dict(values) for key, values in DEFAULT_PARAMS.items()}
        for key, values in params.items():
            self._check_learner_key(key)
            unknown = set(values) - set(merged[key])
            if unknown:
                raise ValueError(f"unknown parameter(s) for {LEARNERS[key]}: {sorted(unknown)}")
            merged[key].update(values)
            registry.get(key).validate(merged[key])
        dropped = self._drop_switch()
        self._dataset = dataset
        self._data = {}
        self._params = merged
        self._learner_name = learner
        self._rebuild()
        self.dataset_changed.emit(dataset)
        self.learner_changed.emit()
        if dropped:
            self.switch_changed.emit()
        if step and self.running:
            self.seek(step)

    def take_over(self, other: Workspace) -> None:
        """Replace data, learner, parameters and run by ``other``'s, taking its built learner.

        Meant for a workspace loaded in a worker (:func:`~.io.load_workspace`):
        its learner is already started on the data there and its run recomputed
        up to the stored step, so this thread builds and replays nothing, where
        ``replace(other.dataset, ..., other.step_count)`` would do it all again.
        ``other`` gives its content up: it must not be used afterwards.  Its
        ``view`` and ``defer_expensive`` are not taken.  Announces as
        :meth:`replace` does.
        """
        dropped = self._drop_switch()
        self._dataset, self._data = other._dataset, other._data
        self._params = {key: dict(values) for key, values in other._params.items()}
        self._learner_name = other._learner_name
        self._install(Model(other._learner, other._problem_kind, other._problem, other._cache))
        other._data, other._cache = {}, {}
        self.dataset_changed.emit(self._dataset)
        self.learner_changed.emit()
        if dropped:
            self.switch_changed.emit()
        if self.step_count:
            self.run_changed.emit(self.current_event)

    def set_learner(self, name: str) -> None:
        """Switch learner (a key of the learner registry); the run restarts."""
        self._check_learner_key(name)
        dropped = self._drop_switch()
        if name != self._learner_name:
            self._learner_name = name
            self._rebuild()
            self.learner_changed.emit()
        if dropped:
            self.switch_changed.emit()

    def set_params(self, learner: str | None = None, **values) -> None:
        """Change parameters of a learner (default: the one in use).

        The values are validated first; an invalid value raises ValueError
        with the learner's message and changes nothing.
        """
        key = learner or self._learner_name
        self._check_learner_key(key)
        unknown = set(values) - set(self._params[key])
        if unknown:
            raise ValueError(f"unknown parameter(s) for {LEARNERS[key]}: {sorted(unknown)}")
        trial = dict(self._params[key], **values)
        registry.get(key).validate(trial)
        dropped = self._drop_switch()
        try:
            if trial != self._params[key]:
                self._set_valid_params(key, trial)
        finally:
            if dropped:
                self.switch_changed.emit()

    def _set_valid_params(self, key: str, trial: dict) -> None:
        old = self._params[key]
        self._params[key] = trial
        overlay = registry.get(key).caps(trial).class_model
        if overlay:
            self._cache.pop("overlay", None)  # the overlay is drawn for any learner
        if key == self._learner_name:
            try:
                self._rebuild()
            except (ValueError, ArithmeticError) as exc:  # e.g. an overflow on these data
                self._params[key] = old
                self._rebuild()
                raise ValueError(f"cannot use these parameters on this data: {exc}") from exc
            self.learner_changed.emit()
        elif overlay:
            self.theory_changed.emit()

    # -- a switch built in a worker ----------------------------------------------------
    @property
    def pending_switch(self) -> Switch | None:
        """The requested change of learner or parameters not installed yet, or None.

        Its ``learner_name`` and ``params`` are what the user chose; until
        :meth:`commit_switch` the workspace keeps the learner it has.
        """
        return self._switch

    def request_learner(self, name: str) -> Switch | None:
        """Switch learner now, or on a large data set ask a worker to build it.

        With :attr:`defer_expensive` and more than :data:`SWITCH_IN_WORKER_N`
        samples, returns the :class:`Switch` to build (also
        :attr:`pending_switch`; ``switch_changed`` is emitted) and changes
        nothing yet; otherwise this is :meth:`set_learner` and returns None.
        A request made while another is pending starts from the other's choice.
        """
        self._check_learner_key(name)
        if not self._switches_in_worker():
            self.set_learner(name)
            return None
        params = self._switch.params if self._switch is not None else self._params
        return self._request(name, params)

    def request_params(self, learner: str | None = None, **values) -> Switch | None:
        """Change parameters now, or on a large data set ask a worker to rebuild the learner.

        As :meth:`set_params` (invalid values raise ValueError and change
        nothing), except that with :attr:`defer_expensive` and more than
        :data:`SWITCH_IN_WORKER_N` samples a change that rebuilds the learner
        returns a :class:`Switch` (see :meth:`request_learner`).
        """
        if not self._switches_in_worker():
            self.set_params(learner, **values)
            return None
        name = self._switch.learner_name if self._switch is not None else self._learner_name
        base = self._switch.params if self._switch is not None else self._params
        key = learner or name
        self._check_learner_key(key)
        current = base.get(key, self._params[key])
        unknown = set(values) - set(current)
        if unknown:
            raise ValueError(f"unknown parameter(s) for {LEARNERS[key]}: {sorted(unknown)}")
        trial = dict(current, **values)
        registry.get(key).validate(trial)
        params = {k: dict(v) for k, v in base.items()}
        params[key] = trial
        return self._request(name, params)

    def _switches_in_worker(self) -> bool:
        return self.defer_expensive and self._dataset.n > SWITCH_IN_WORKER_N

    def _request(self, name: str, params: dict) -> Switch | None:
        if name == self._learner_name and params[name] == self._params[name]:
            # the learner in use stays: no switch, only other learners' parameters
            dropped = self._drop_switch()
            for key, values in params.items():
                if key != name and values != self._params.get(key):
                    self._set_valid_params(key, dict(values))
            self._params = {k: dict(v) for k, v in params.items()}
            if dropped:
                self.switch_changed.emit()
            return None
        memo = self._data.get(("fit", name))
        fitted = memo[1] if memo is not None and memo[0] == params[name] else None
        self._switch = Switch(self._dataset, name, params, fitted=fitted,
                              margin_data=self._data.get("margin_data"), defers=self._deferred)
        self.switch_changed.emit()
        return self._switch

    def commit_switch(self, switch: Switch) -> bool:
        """Install a built switch (on the UI thread); False, and nothing changes, if stale.

        A switch is stale once another request, a data edit or a synchronous
        change (:meth:`set_learner`, :meth:`set_params`, :meth:`replace`)
        came after it.  Emits ``learner_changed`` and ``switch_changed``.
        """
        if switch is not self._switch or switch.model is None:
            return False
        self._switch = None
        self._params = {k: dict(v) for k, v in switch.params.items()}
        self._learner_name = switch.learner_name
        if switch.margin_data is not None:
            self._data.setdefault("margin_data", switch.margin_data)
        fitted = switch.model.cache.get("fit")
        if fitted is not None:
            self._data[("fit", self._learner_name)] = (dict(self._params[self._learner_name]),
                                                       fitted)
        self._install(switch.model)
        self.learner_changed.emit()
        self.switch_changed.emit()
        return True

    def drop_switch(self, switch: Switch, why: str | None = None) -> bool:
        """Forget ``switch`` (its build failed: ``why`` is shown); False if it was stale."""
        if switch is not self._switch:
            return False
        self._switch = None
        if why:
            self.message.emit(f"Not changed: cannot use these parameters on this data: {why}")
        self.switch_changed.emit()
        return True

    def _drop_switch(self) -> bool:
        dropped = self._switch is not None
        self._switch = None
        return dropped

    def reset(self) -> None:
        """Rewind the run to ``w = 0`` (the computed run is kept for replay)."""
        if self.running:
            self._learner.seek(0)
            self.run_changed.emit(None)

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
        if not self.can_step_back:
            return None
        self._learner.step_back()
        ev = self.current_event
        self.run_changed.emit(ev)
        return ev

    def run_to_end(self) -> StepEvent | None:
        """Run to convergence or ``max_iter`` in one go (the window slices it)."""
        return self._move(lambda learner: learner.run_to_end())

    def advance(self, max_steps: int, deadline: float | None = None) -> int:
        """Advance by at most ``max_steps`` steps; returns how many were taken.

        With ``deadline`` (a ``time.perf_counter()`` value) it also stops once
        that time has passed, after at least one step.
        """
        if not self.can_step:
            return 0
        taken = self._learner.advance(max_steps, deadline=deadline)
        if taken:
            self.run_changed.emit(self.current_event)
            self._announce_end()
        return taken

    def advance_for(self, seconds: float, chunk: int = 4096) -> int:
        """Advance for about ``seconds`` of computing (at least one step); emit once.

        The window's "run to end" calls this once per frame: the chunk grows
        while it takes under a tenth of the budget, so a fast run finishes in
        one slice, and the learner stops at the deadline between two updates,
        so a slow one (a kernel on 10⁶ points, O(n) per update) overruns the
        budget by one update at most.  Returns the number of steps taken.
        """
        if not self.can_step:
            return 0
        learner = self._learner
        deadline = time.perf_counter() + seconds
        taken = 0
        while not learner.finished:
            t0 = time.perf_counter()
            taken += learner.advance(chunk, deadline=deadline)
            now = time.perf_counter()
            if now >= deadline:
                break
            if now - t0 < seconds / 10:
                chunk *= 2
            elif now - t0 > seconds / 3:
                chunk = max(1, chunk // 2)
        if taken:
            self.run_changed.emit(self.current_event)
            self._announce_end()
        return taken

    def seek(self, step: int) -> StepEvent | None:
        """Move the cursor to ``step`` (0 = start)."""
        if not self.running:
            return None
        self._learner.seek(step)
        ev = self.current_event
        self.run_changed.emit(ev)
        return ev

    def _move(self, action) -> StepEvent | None:
        if not self.can_step:
            return None
        action(self._learner)
        ev = self.current_event
        self.run_changed.emit(ev)
        self._announce_end()
        return ev

    def _announce_end(self) -> None:
        if self.finished:
            self.message.emit(self.end_message())

    def end_message(self) -> str:
        """What the end of the run means, in one line."""
        learner = self._learner
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
        if self.capabilities.steps and not self.capabilities.novikoff:  # no bound to cite
            return no_bound_end_text(learner, self.params)
        if learner.converged_:
            return (
                f"Converged: {plural(learner.n_updates_, 'update')} in "
                f"{plural(learner.n_epochs_, 'epoch')}; the last epoch made no mistake."
            )
        text = (f"Stopped after max_iter = {plural(learner.n_epochs_, 'epoch')} with "
                f"mistakes in every epoch: {self._separability_verdict()}")
        if self._products_underflow():
            text += (" At this data scale the products w·x underflow to 0, so the margins "
                     "are the bias alone. Rescale the data.")
        return text

    def _separability_verdict(self) -> str:
        """Why a run stopped at ``max_iter``, from Novikoff's certificate (one sentence).

        Separable (a unit ``w*`` attains ``γ > 0``): more epochs would converge,
        within ``(R/γ)²`` updates; not separable: they would not; unknown: say so.
        """
        space = "separable in the kernel's feature space" if self.is_kernel else \
            "linearly separable"
        nov = self.novikoff
        if nov is None or nov.separable is None:
            reason = None if nov is None else nov.reason
            if reason in (COMPUTING, COMPUTING_LINEAR):
                return f"whether the data are {space} is still being computed."
            known = f" ({reason})" if reason else ""
            return f"whether the data are {space} is not known{known}; more epochs may help."
        if not nov.separable:
            sure = "" if nov.certified else " (not certified)"
            return f"the data are not {space}{sure}, so more epochs would not help."
        k = self._learner.n_updates_
        if math.isfinite(nov.bound):
            bound = f"at most (R/γ)² = {fmt(nov.bound)} updates, {k:,} made"
        else:
            bound = "(R/γ)² exceeds the largest float"
        return (f"the data are {space} (certified: γ = {fmt(nov.margin)} > 0), so the run "
                f"needs more epochs: {bound}.")

    def _products_underflow(self) -> bool:
        """Whether some ``x_j w_j`` with both factors non-zero is 0 (linear learners only)."""
        w = getattr(self._learner, "coef_", None)
        if w is None:
            return False
        X = self._dataset.X
        with np.errstate(under="ignore"):
            return bool(np.any((X * w[0] == 0) & (X != 0) & (w[0] != 0)))

    # -- derived quantities ------------------------------------------------------------
    @property
    def novikoff(self) -> theory.NovikoffResult | None:
        """Novikoff's R, γ and bound for the vectors the current perceptron sees.

        With :attr:`defer_expensive` and an expensive kernel problem, a
        placeholder (``separable=None``, the exact radius, ``reason`` =
        :data:`COMPUTING` or :data:`COMPUTING_LINEAR`) until
        :meth:`provide_novikoff` delivers the result.
        """
        if "novikoff" not in self._cache:
            job = self._novikoff_job()
            if job is None:
                self._cache["novikoff"] = None
            elif self._deferred(job):
                return self._placeholder()
            else:
                self._cache["novikoff"] = job()
        return self._cache["novikoff"]

    def _novikoff_job(self):
        if "novikoff_job" not in self._cache:  # has_both_classes is O(n): once per model
            self._cache["novikoff_job"] = novikoff_job(self._dataset, self._learner_name,
                                                       self._params)
        return self._cache["novikoff_job"]

    def _deferred(self, job) -> bool:
        if not self.defer_expensive:
            return False
        n = self._dataset.n
        if job.keywords["kernel"] is None:
            return EXPENSIVE_LINEAR_N < n
        return EXPENSIVE_KERNEL_N < n <= theory.KERNEL_MARGIN_MAX_N

    def _placeholder(self) -> theory.NovikoffResult:
        if "placeholder" not in self._cache:
            self._cache["placeholder"] = placeholder(self._novikoff_job(),
                                                     radius=self._dataset.radius())
        return self._cache["placeholder"]

    def pending_theory(self):
        """The deferred computation a worker should run now, or None.

        Returns
        -------
        (token, job) or None
            ``job()`` computes the result (it reads only immutable arrays, so
            it may run in another thread); pass it back with ``token`` to
            :meth:`provide_novikoff`.
        """
        if "novikoff" in self._cache:
            return None
        job = self._novikoff_job()
        if job is None or not self._deferred(job):
            return None
        return self._version, job

    def provide_novikoff(self, token: int, result) -> bool:
        """Install a deferred result; ignored (returns False) if the data or
        parameters changed since ``token`` was handed out."""
        if token != self._version or "novikoff" in self._cache:
            return False
        self._cache["novikoff"] = result
        self.theory_changed.emit()
        return True

    @property
    def max_margin(self) -> theory.MaxMarginResult | None:
        """The maximum-margin hyperplane (with bias) of the data, or None without data."""
        if "max_margin" not in self._data:  # kept while only the learner changes
            ds = self._dataset
            self._data["max_margin"] = theory.max_margin(ds.X, ds.y) if ds.n else None
        return self._data["max_margin"]

    def margin_data(self) -> theory.MarginData | None:
        """The samples prepared for the margin of a hyperplane on them (None without data).

        Made once per data set (:class:`~.theory.MarginData`): the readouts
        ask for the margin of a new hyperplane after every update.
        """
        if "margin_data" not in self._data:
            ds = self._dataset
            self._data["margin_data"] = theory.MarginData(ds.X, ds.y) if ds.n else None
        return self._data["margin_data"]

    @property
    def lda(self) -> LDA | None:
        """LDA fitted on the data (with the LDA parameters), or None when it cannot be.

        What the overlay of class means and 2σ ellipses draws beside any
        learner (the same fit as the learner's when LDA is in use).
        """
        if "overlay" not in self._cache:
            self._cache["overlay"] = self._fit_memo(OVERLAY)
        return self._cache["overlay"][0]

    @property
    def lda_problem(self) -> str | None:
        """Why LDA cannot be fitted on the data, or None."""
        self.lda  # noqa: B018 - fills the cache
        return self._cache["overlay"][1]

    def _fit_memo(self, key: str):
        """``(fitted learner or None, why not)`` for learner ``key`` fitted at once on the data.

        One memo per learner, kept while only the other learners change.
        """
        self._check_learner_key(key)
        memo = self._data.get(("fit", key))
        if memo is not None and memo[0] == self._params[key]:
            return memo[1]
        result = fit(self._dataset, key, self._params[key])
        self._data[("fit", key)] = (dict(self._params[key]), result)
        return result

    def proof(self) -> theory.ProofTrace | None:
        """The proof's quantities along the run up to the cursor (linear learners only).

        At every update up to 4,096 of them, then at 4,096 spread evenly (the
        log's :meth:`~perceptron_gui.core.learners.UpdateLog.samples`), the last at the cursor.
        """
        nov = self.novikoff
        if not (self.running and self.capabilities.proof) or nov is None or not nov.separable:
            return None
        k = self._learner.n_updates_
        points = self._learner.history.updates.samples(k)  # every update up to a few thousand
        p = self._params[self._learner_name]
        return theory.proof_trace(
            points.w, points.b, k=points.index, w_star=nov.w_star, gamma=nov.margin,
            radius=nov.radius,
            eta0=p.get("eta0", 1.0), fit_intercept=p["fit_intercept"],
            bias_scale=p["bias_scale"],
        )

    def _run_state(self) -> tuple:
        """What the per-cursor quantities depend on beyond what :meth:`_rebuild` resets."""
        learner = self._learner
        return (learner, getattr(learner, "step_count", 0), getattr(learner, "n_updates_", 0))

    def _memo(self, name: str, state: tuple, compute):
        """``compute()``, cached under ``name`` for as long as ``state`` holds.

        The canvas, the readout panel and the plots each ask for the same
        numbers after a step: they are computed once per cursor position.
        ``state`` holds objects (compared by identity) and ints.
        """
        hit = self._cache.get(name)
        if hit is not None and all(a is b or (isinstance(a, (int, np.integer)) and a == b)
                                   for a, b in zip(hit[0], state, strict=True)):
            return hit[1]
        value = compute()
        self._cache[name] = (state, value)
        return value

    def _weights_state(self) -> tuple:
        """What the margins of the samples depend on: the learner and its number of updates."""
        learner = self._learner
        return (learner, getattr(learner, "n_updates_", 0))

    def training_margins(self) -> np.ndarray | None:
        """Functional margins ``y f(x)`` of every sample under the current weights.

        Read-only (computed once per weights, i.e. per number of updates, and
        shared: a step that is not a mistake keeps the same array).
        """
        return self._memo("training_margins", self._weights_state(), self._training_margins)

    def _training_margins(self) -> np.ndarray | None:
        if not self.has_model:
            return None
        if not self.is_perceptron:
            m = self._dataset.y * self._learner.decision_function(self._dataset.X)
        elif not self.running:
            return None
        else:
            m = self._learner.training_margins()
        m.flags.writeable = False
        return m

    def misclassified(self) -> np.ndarray:
        """Indices of the samples with ``y f(x) <= 0`` now (empty without a model; read-only).

        The same array for as long as the weights are (see :meth:`training_margins`).
        """
        return self._memo("misclassified", self._weights_state(), self._misclassified)

    def _misclassified(self) -> np.ndarray:
        m = self.training_margins()
        idx = np.empty(0, np.int64) if m is None else np.flatnonzero(m <= 0)
        idx.flags.writeable = False
        return idx

    def readouts(self) -> Readouts:
        """Every number the readout panel shows, in one consistent snapshot.

        Computed once per cursor position (and Novikoff result) and shared:
        ``w`` is read-only.
        """
        nov = self.novikoff
        return self._memo("readouts", (*self._run_state(), nov), lambda: self._readouts(nov))

    def _readouts(self, nov) -> Readouts:
        return compute_readouts(self, nov)

    # -- internals ------------------------------------------------------------------
    def _check_learner_key(self, key: str) -> None:
        """ValueError for an unknown learner; a learner registered since gets its defaults."""
        spec = registry.get(key)
        if key not in self._params:
            self._params[key] = dict(spec.defaults)

    def _rebuild(self) -> None:
        """Build the learner for the current data and parameters; clear the caches."""
        name = self._learner_name
        fitted = None
        if not registry.get(name).steps and find_data_problem(self._dataset, name) is None:
            fitted = self._fit_memo(name)  # or the fit kept from before, for the same data
        self._install(build(self._dataset, name, self._params, fitted=fitted))

    def _install(self, model: Model) -> None:
        """Make ``model`` the learner and its caches the workspace's (a new version)."""
        self._cache = model.cache
        self._version = getattr(self, "_version", 0) + 1
        self._learner = model.learner
        self._problem_kind = model.problem_kind
        self._problem = model.problem
