"""The workspace: a document, its run and its theory behind one facade; no Qt.

A gesture becomes an edit or a command, the workspace changes and announces
it through :attr:`Workspace.events` (psygnal, subscribers held weakly), the
views redraw.  No timers here: playback is the window's job.  The parts are
:mod:`.document` (data, learner, parameters), :mod:`.run` (the built learner
and its cursor), :mod:`.theory_cache` (derived quantities, computed on first
use), :mod:`.hand_start` and :mod:`.switch_requests`.

One change emits one signal, the one that says the most: a data edit emits
``dataset_changed`` alone, although the learner was rebuilt and the run
restarted; a subscriber that redraws the run listens to ``dataset_changed``,
``learner_changed`` and ``run_changed``.
"""

from __future__ import annotations

import functools
import operator
import threading
import weakref

import numpy as np

from . import game, scale
from .dataset import Dataset, Edit
from .document import Document, check_start
from .hand_start import HandStart
from .learners import registry
from .learners.registry import DEFAULT_PARAMS
from .readouts import Readouts, compute_readouts, no_bound_end_text
from .run import Run, end_message
from .signal import Signal, SignalGroup
from .switch import COMPUTING_LINEAR, DataProblem, Model, Switch, build, find_data_problem
from .switch_requests import SwitchRequests
from .theory_cache import EXPENSIVE_LINEAR_N, TheoryCache
from .values import readonly
from .viewstate import ViewState

#: The workspace's names other modules and tests read from here (the rest: their modules).
__all__ = ["DEFAULT_PARAMS", "COMPUTING_LINEAR", "EXPENSIVE_LINEAR_N", "DataProblem", "Readouts",
           "Switch", "Workspace", "WorkspaceEvents"]


def _part(path: str, doc: str) -> property:
    """A read-only property that reads ``path`` of a part (``"run.step_count"``)."""
    return property(operator.attrgetter(path), doc=doc)


def _call(path: str, doc: str):
    """A method that calls the part's method ``path`` (a function: an instance may shadow it)."""
    get = operator.attrgetter(path)

    def method(self, *args, **kwargs):
        return get(self)(*args, **kwargs)

    method.__name__, method.__doc__ = path.rpartition(".")[2], doc
    return method


class WorkspaceEvents(SignalGroup):
    """What a workspace announces: one signal per kind of change (see the module).

    ``dataset_changed`` follows every edit and a file's content replacing
    everything; ``learner_changed`` a rebuild on the same data (the run
    restarts); ``run_changed`` a move of the cursor alone, with its event;
    ``theory_changed`` a derived quantity alone (a deferred margin arrived,
    the overlay's parameters); ``switch_changed`` the requested switch alone;
    ``message`` is a one-line notice for the status bar (not a change).
    """

    dataset_changed = Signal(object)
    learner_changed = Signal()
    run_changed = Signal(object)
    theory_changed = Signal()
    switch_changed = Signal()
    message = Signal(str)


class Workspace(HandStart, SwitchRequests):
    """A data set, the chosen learner and its parameters, and the run.

    ``params`` is ``{learner key: {parameter: value}}`` overriding
    :data:`DEFAULT_PARAMS`; ``events`` announces each change
    (``ws.events.run_changed.connect(self._on_run)``).
    """

    def __init__(self, dataset: Dataset | None = None, learner: str = registry.DEFAULT,
                 params: dict | None = None):
        self.events = WorkspaceEvents()
        self.document = Document(dataset, learner, params)
        self.run = Run(self.events.run_changed, self.events.message, self.end_message)
        self.theory = TheoryCache(self.document, self.run)
        self._switch: Switch | None = None
        #: What the window shows (layer switches, the view rectangle, the views).
        self.view_state = ViewState()
        #: What a loaded file stored that was not restored, said to the person who
        #: opens it (e.g. a run position too far to recompute), or None.
        self.open_note: str | None = None
        self._preview: tuple | None = None  # (start, step) before a drag's previews
        self._rebuild()
        with _LIVE_LOCK:  # a worker may make a workspace (a file read) meanwhile
            _LIVE.add(self)

    # -- the view state (kept beside the document, saved with it) -----------------------
    @property
    def view(self) -> tuple[float, float, float, float] | None:
        """``view_state.rect``; set to anything but a rectangle, it becomes None (a hint)."""
        return self.view_state.rect

    @view.setter
    def view(self, rect) -> None:
        try:
            self.view_state.set_rect(rect)
        except ValueError:
            self.view_state.set_rect(None)

    # -- the parts, read through ------------------------------------------------------
    dataset = _part("document.dataset", "The current data set (immutable).")
    learner_name = _part("document.learner_name", "Key of the learner in use.")
    spec = _part("document.spec", "The registry's spec of the learner in use.")
    all_params = _call("document.copy_params", "A copy of the parameters of every learner.")
    capabilities = _part("theory.capabilities",
                         "What the learner in use can do (read these, not its name).")
    learner = _part("run.learner", "The core learner in its current state.")
    problem = _part("run.problem", "Why the learner cannot run on the data, in words, or None.")
    problem_kind = _part("run.problem_kind", "Why the learner cannot run, as a fact, or None.")
    running = _part("run.running", "True when a perceptron run exists (the data allow one).")
    can_step = _part("run.can_step", "True when a step forward is possible.")
    can_step_back = _part("run.can_step_back", "True when the cursor is past the start.")
    finished = _part("run.finished", "True when the run has ended (converged or out of epochs).")
    step_count = _part("run.step_count", "Steps taken by the current run (0 without one).")
    current_event = _part("run.current_event", "The last step's event, or None at the start.")
    reset = _call("run.reset", "Rewind the run to its start (kept for replay).")
    step = _call("run.step", "Examine the next sample.")
    step_update = _call("run.step_update", "Run to the next update.")
    step_epoch = _call("run.step_epoch", "Run to the end of the epoch.")
    step_back = _call("run.step_back", "Undo the last step.")
    run_to_end = _call("run.run_to_end", "Run to convergence or ``max_iter`` in one go.")
    advance = _call("run.advance", "Advance by at most ``max_steps`` steps; how many were taken.")
    advance_for = _call("run.advance_for", "Advance for about ``seconds`` of computing; emit once.")
    compute_for = _call("run.compute_for", "Compute steps past the frontier, the cursor kept.")
    seek = _call("run.seek", "Move the cursor to ``step`` (0 = start).")
    novikoff = _part("theory.novikoff", "Novikoff's R, γ and bound (a placeholder while deferred).")
    pending_theory = _call("theory.pending_theory", "The deferred ``(token, job)``, or None.")
    max_margin = _part("theory.max_margin", "The maximum-margin hyperplane (with bias), or None.")
    margin_data = _call("theory.margin_data", "The samples prepared for margins, or None.")
    lda = _part("theory.lda", "LDA fitted on the data (the overlay), or None.")
    proof = _call("theory.proof", "The proof's quantities along the run up to the cursor.")
    training_margins = _call("theory.training_margins",
                             "Functional margins ``y f(x)`` under the current weights (read-only).")
    misclassified = _call("theory.misclassified",
                          "Indices of the samples with ``y f(x) <= 0`` now (read-only).")

    @property
    def params(self) -> dict:
        """A copy of the parameters of the learner in use."""
        return dict(self.document.current)

    @property
    def defer_expensive(self) -> bool:
        """Whether expensive theory and switches go to workers (:data:`~.scale.LARGE_N`)."""
        return self.theory.defer_expensive

    @defer_expensive.setter
    def defer_expensive(self, value: bool) -> None:
        self.theory.defer_expensive = bool(value)

    @property
    def has_model(self) -> bool:
        """True when there is a model to draw: a run, or a learner fitted on the data."""
        return self.run.problem is None

    @property
    def multiclass(self) -> bool:
        """True when there is a model of more than two classes: a score per class, the
        largest wins (no one line; the canvas draws the regions of every class)."""
        return self.has_model and not self.dataset.is_binary

    def weights(self) -> tuple[np.ndarray, float] | None:
        """The linear model drawn now: read-only ``(w, b)``, or None (no model, or a contour)."""
        if not (self.has_model and self.capabilities.linear):
            return None
        learner = self.run.learner
        return readonly(learner.coef_[0].copy()), float(learner.intercept_[0])

    def end_message(self) -> str:
        """What the end of the run means, in one line (why it cannot run, when it cannot)."""
        if self.problem_kind is not None:
            return self.problem or ""
        caps = self.capabilities
        no_bound = None
        if caps.steps and not caps.novikoff:  # no bound to cite
            no_bound = functools.partial(no_bound_end_text, self.run.learner, self.capabilities)
        return end_message(self.run.learner, lambda: self.novikoff,
                           self.capabilities.nonlinear_kernel, self.dataset.X, no_bound)

    def provide_novikoff(self, token: int, result) -> bool:
        """:meth:`~.theory_cache.TheoryCache.provide_novikoff`, announced on ``theory_changed``."""
        if not self.theory.provide_novikoff(token, result):
            return False
        self.events.theory_changed.emit()
        return True

    def readouts(self) -> Readouts:
        """Every number the readout panel shows, one snapshot per cursor (``w`` read-only)."""
        nov = self.novikoff
        # the game played on the data sets the bound (its rules change with the data kept)
        return self.theory.memo("readouts", (*self.run.state(), nov, game.game_of(self)),
                                lambda: self._readouts(nov))

    def _readouts(self, nov) -> Readouts:
        return compute_readouts(self, nov)

    # -- commands -------------------------------------------------------------------
    def apply_edit(self, edit: Edit, *, start=...) -> Edit:
        """Apply an edit of the data set and return its inverse.

        An edit that replaces the data drops the start set by hand unless
        ``start`` is given (an undo gives back the one from before).
        """
        new, inverse = edit.apply(self.dataset)
        if start is ... and edit.replaces_data:
            start = None
        self.set_dataset(new, start=start)
        return inverse

    def set_dataset(self, dataset: Dataset, *, start=...) -> None:
        """Replace the data set; restarts the run from ``start`` (``...``: the start kept)."""
        start = self.start if start is ... else None if start is None else check_start(*start)
        had_progress = self.running and self.run.learner.step_count > 0
        self.document.dataset = dataset
        self.document.start = start
        self.theory.forget_data()
        self._rebuild()
        self._remake_switch()  # the requested learner, on the new data
        self.events.dataset_changed.emit(dataset)
        if had_progress and self.running:
            where = "w₀ (set by hand)" if self.starts_by_hand and self.start else "w = 0"
            self.events.message.emit(f"The data changed: training restarted from {where}.")

    def replace(self, dataset: Dataset, learner: str, params: dict, step: int = 0,
                start: tuple | None = None) -> None:
        """Replace data, learner, parameters and start at once (a loaded file), then seek ``step``.

        Everything is validated first: on ValueError nothing changed.
        """
        merged = self.document.merged(learner, params)
        start = None if start is None else check_start(*start)
        self._switch = None
        self.document.replace(dataset, learner, merged, start)
        self.theory.forget_data()
        self._rebuild()
        if step and self.running:
            self.run.seek(step, announce=False)
        self.events.dataset_changed.emit(dataset)

    def take_over(self, other: Workspace) -> None:
        """Replace data, learner, parameters and run by ``other``'s, taking its built learner.

        For a workspace loaded in a worker: its run is already recomputed
        there, so this thread replays nothing.  ``other`` must not be used
        afterwards; its ``view`` and ``defer_expensive`` are not taken.
        """
        self._switch = None
        given = other.document
        self.document.replace(given.dataset, given.learner_name, given.copy_params(),
                              given.start)
        self.theory.per_data = other.theory.per_data
        run = other.run
        self._install(Model(run.learner, run.problem_kind, run.problem, other.theory.per_model))
        other.theory.per_data, other.theory.per_model = {}, {}
        game.transfer(other, self)  # the game played on it (a game file), or none
        self.events.dataset_changed.emit(self.dataset)

    def set_learner(self, name: str) -> None:
        """Switch learner (a key of the learner registry); the run restarts."""
        self.document.check_learner_key(name)
        dropped = self._drop_switch()
        if name != self.learner_name:
            self.document.learner_name = name
            self._rebuild()
            self.events.learner_changed.emit()
        elif dropped:
            self.events.switch_changed.emit()

    def set_params(self, learner: str | None = None, **values) -> None:
        """Change parameters of a learner (default: the one in use); ValueError changes nothing."""
        key = learner or self.learner_name
        trial = self.document.trial(key, values)
        dropped = self._drop_switch()
        rebuilt = False
        try:
            if trial != self.document.params[key]:
                rebuilt = self._set_valid_params(key, trial)
        finally:
            if dropped and not rebuilt:
                self.events.switch_changed.emit()

    def _set_valid_params(self, key: str, trial: dict) -> bool:
        """Install checked parameters of ``key``; True when the learner in use was rebuilt."""
        params = self.document.params
        old = params[key]
        params[key] = trial
        overlay = registry.get(key).caps(trial).class_model
        if overlay:
            self.theory.forget_overlay()  # the overlay is drawn for any learner
        if key == self.learner_name:
            try:
                self._rebuild()
            except (ValueError, ArithmeticError) as exc:  # e.g. an overflow on these data
                params[key] = old
                self._rebuild()
                raise ValueError(f"cannot use these parameters on this data: {exc}") from exc
            self.events.learner_changed.emit()
            return True
        if overlay:
            self.events.theory_changed.emit()
        return False

    def _switches_in_worker(self) -> bool:
        return self.defer_expensive and scale.is_large(self.dataset.n)

    # -- internals ------------------------------------------------------------------
    def _rebuild(self) -> None:
        """Build the learner for the current data and parameters; clear the caches."""
        doc = self.document
        name = doc.learner_name
        fitted = None
        if not registry.get(name).caps().steps and find_data_problem(doc.dataset, name) is None:
            fitted = self.theory.fit_memo(name)  # or the fit kept from before, for the same data
        self._install(build(doc.dataset, name, doc.params, fitted=fitted, start=doc.start))

    def _install(self, model: Model) -> None:
        """Make ``model`` the learner and its caches the theory's (a new version)."""
        self.theory.install(model.cache)
        self.run.install(model.learner, model.problem_kind, model.problem,
                         steps=self.theory.capabilities.steps)


#: Every workspace alive, told when the registry withdraws a learner (weakly held).
_LIVE: weakref.WeakSet[Workspace] = weakref.WeakSet()
_LIVE_LOCK = threading.Lock()


def _withdraw(key: str) -> None:
    with _LIVE_LOCK:
        live = list(_LIVE)
    for workspace in live:
        workspace.learner_withdrawn(key)


registry.withdrawing.connect(_withdraw)
