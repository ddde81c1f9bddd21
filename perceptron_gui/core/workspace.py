"""The workspace: a document, its run and its theory behind one facade; no Qt.

The window only draws a :class:`Workspace` and turns gestures into calls on it.
Data flows one way: a gesture becomes an edit or a command, the workspace
changes, it announces what changed through its :class:`Signal` attributes, and
the views redraw.  There are no timers here: playback is the window's job.

The workspace is three parts, one module each, and this facade:

- the document (:mod:`.document`): the data set, the learner chosen and every
  learner's parameters, validated before anything changes;
- the run (:mod:`.run`): the learner built on them and its cursor;
- the theory cache (:mod:`.theory_cache`): Novikoff's certificate, the maximum
  margin, LDA's overlay, the proof, the margins of the samples, computed on
  first use after each change; on a large data set Novikoff's margin is handed
  to a worker (:meth:`Workspace.pending_theory`).

A change of learner or parameters on a large data set is built in a worker too
(:meth:`Workspace.request_learner`, :meth:`Workspace.request_params`; the
model in :mod:`.switch`) while the old learner stays shown, and
:meth:`Workspace.commit_switch` installs it.

One change emits one signal, the one that says the most: a data edit emits
``dataset_changed`` alone, although the learner was rebuilt on the new data
and the run restarted; a subscriber that redraws the run listens to
``dataset_changed``, ``learner_changed`` and ``run_changed``.

The facade is one file: one short member per public name the window,
the files and the demos use (each delegating to a part), and the requests of
a switch, which change the document, the run and the theory together and
must announce once.
"""

from __future__ import annotations

import functools
import threading
import weakref

import numpy as np

from . import game, scale, theory
from .dataset import Dataset, Edit
from .document import Document, check_start
from .learners import StepEvent, registry
from .learners.lda import LDA
from .learners.registry import DEFAULT_PARAMS, LEARNERS, Capabilities, LearnerSpec
from .readouts import Readouts, compute_readouts, no_bound_end_text
from .run import Run, end_message
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
)
from .theory_cache import EXPENSIVE_KERNEL_N, EXPENSIVE_LINEAR_N, OVERLAY, TheoryCache
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
    "EXPENSIVE_KERNEL_N",
    "EXPENSIVE_LINEAR_N",
    "OVERLAY",
    "data_problem",
    "describe_problem",
    "find_data_problem",
]


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
        Emitted with the new :class:`Dataset` after every edit, and when a
        file's content replaces everything: the learner was rebuilt on the new
        data, the run is at its new cursor (usually ``w = 0``), a pending
        switch was remade on the data.  It is the only signal such a change emits.
    learner_changed : Signal
        Emitted with no arguments when the learner object was rebuilt on the
        same data (new learner or parameters, a switch installed): the run
        restarts from ``w = 0``; a pending switch was installed or dropped.
    run_changed : Signal
        Emitted with the current :class:`StepEvent` (or None) when only the cursor moves.
    theory_changed : Signal
        Emitted with no arguments when only a derived quantity changed: a
        deferred result (the margin) arrived, or the overlay's parameters changed.
    switch_changed : Signal
        Emitted with no arguments when only the requested switch
        (:attr:`pending_switch`) is made, replaced or dropped.
    message : Signal
        Emitted with a one-line notice for the status bar (not a change).
    document : Document
        The data set, the learner chosen and the parameters.
    run : Run
        The learner in use and its cursor.
    theory : TheoryCache
        What is derived from them, computed once.
    """

    def __init__(self, dataset: Dataset | None = None, learner: str = registry.DEFAULT,
                 params: dict | None = None):
        self.dataset_changed = Signal()
        self.learner_changed = Signal()
        self.run_changed = Signal()
        self.message = Signal()
        self.switch_changed = Signal()
        self.theory_changed = Signal()
        self.document = Document(dataset, learner, params)
        self.run = Run(self.run_changed, self.message, self.end_message)
        self.theory = TheoryCache(self.document, self.run)
        self._switch: Switch | None = None
        #: What the window shows (layer switches, the view rectangle, the views):
        #: the one place the canvas, the View menu, demos, exports and files read.
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

    # -- the document ----------------------------------------------------------------
    @property
    def dataset(self) -> Dataset:
        """The current data set (immutable)."""
        return self.document.dataset

    @property
    def learner_name(self) -> str:
        """Key of the learner in use (a key of the learner registry)."""
        return self.document.learner_name

    @property
    def spec(self) -> LearnerSpec:
        """The registry's spec of the learner in use."""
        return self.document.spec

    @property
    def params(self) -> dict:
        """A copy of the parameters of the learner in use."""
        return dict(self.document.current)

    def all_params(self) -> dict:
        """A copy of the parameters of every learner."""
        return self.document.copy_params()

    @property
    def defer_expensive(self) -> bool:
        """Whether expensive theory and switches go to the window's workers.

        See :attr:`.TheoryCache.defer_expensive` and :data:`~.scale.LARGE_N`.
        """
        return self.theory.defer_expensive

    @defer_expensive.setter
    def defer_expensive(self, value: bool) -> None:
        self.theory.defer_expensive = bool(value)

    # -- what the learner in use can do --------------------------------------------------
    @property
    def capabilities(self) -> Capabilities:
        """What the learner in use can do with its parameters (read these, not its name)."""
        return self.theory.capabilities

    @property
    def learner(self):
        """The core learner in its current state (started on the data when possible)."""
        return self.run.learner

    @property
    def problem(self) -> str | None:
        """Why the learner cannot run on the current data, stated plainly, or None."""
        return self.run.problem

    @property
    def problem_kind(self) -> DataProblem | None:
        """Why the learner cannot run on the current data, as a fact, or None."""
        return self.run.problem_kind

    @property
    def has_model(self) -> bool:
        """True when there is a model to draw: a run, or a learner fitted on the data."""
        return self.run.problem is None

    def weights(self) -> tuple[np.ndarray, float] | None:
        """The linear model drawn now: ``(w, b)``, or None (no model, or a contour boundary).

        ``w`` is the current weights while a run exists (a linear kernel's
        too), the fitted ones of a learner fitted at once; a read-only copy.
        The readouts show the same numbers.
        """
        if not (self.has_model and self.capabilities.linear):
            return None
        learner = self.run.learner
        w, b = learner.coef_[0].copy(), float(learner.intercept_[0])
        w.flags.writeable = False
        return w, b

    # -- the start set by hand ------------------------------------------------------------
    @property
    def start(self) -> tuple[np.ndarray, float] | None:
        """The hand-set ``(w0, b0)`` a run starts from, or None (``w = 0, b = 0``).

        Part of the document (saved in the workspace file, changed through
        undo by :class:`~.commands.SetWeights`); kept across data edits and
        learner changes, used by the learners that can start there
        (:attr:`starts_by_hand`).
        """
        return self.document.start

    @property
    def starts_by_hand(self) -> bool:
        """True when the learner in use runs from :attr:`start` (its capabilities say it can)."""
        return self.running and self.capabilities.linear and self.capabilities.start

    @property
    def committed_start(self) -> tuple:
        """``(start, step)`` before the previews of a drag (:meth:`set_start` ``preview``).

        What an undo of the drag's one command gives back; the current start
        and step when no preview is under way.
        """
        if self._preview is not None:
            return self._preview
        return self.start, self.step_count

    def set_start(self, w, b: float = 0.0, *, preview: bool = False) -> None:
        """Set the weights by hand: the run restarts from ``w0 = w, b0 = b`` (None: from 0).

        The run is rewound to its new start, so the canvas and the readouts
        show ``w``.  Without an intercept ``b`` is ignored by the run (kept in
        the document).  ``preview``: a position during a drag, which
        :attr:`committed_start` remembers the start before; the drag's last
        call is without it.  Emits ``learner_changed`` (nothing when the
        start is unchanged).

        Raises
        ------
        ValueError
            For a ``w`` that is not two finite numbers, or a huge one
            (:func:`~.document.check_start`); nothing changes.
        """
        start = check_start(w, b)
        old = self.document.start
        if preview and self._preview is None:
            self._preview = (old, self.step_count)
        elif not preview:
            self._preview = None
        if _same_start(start, old):
            return
        self.document.start = start
        # Novikoff's R and γ do not depend on the start: kept, not recomputed at every
        # position of a drag (0.45 s at 10⁵ points)
        kept = {key: self.theory.per_model[key] for key in _START_FREE
                if key in self.theory.per_model}
        try:
            self._rebuild()
        except (ValueError, ArithmeticError):
            self.document.start = old
            self._rebuild()
            raise
        self.theory.per_model.update(kept)
        if self._switch is not None:  # the requested learner, from the new start
            self._switch = Switch(self.dataset, self._switch.learner_name, self._switch.params,
                                  defers=self.theory.deferred, start=start)
        self.learner_changed.emit()

    # -- the run's cursor --------------------------------------------------------------
    @property
    def running(self) -> bool:
        """True when a perceptron run exists (the data allow one)."""
        return self.run.running

    @property
    def can_step(self) -> bool:
        """True when a step forward is possible."""
        return self.run.can_step

    @property
    def can_step_back(self) -> bool:
        """True when the cursor is past the start."""
        return self.run.can_step_back

    @property
    def finished(self) -> bool:
        """True when the run has ended (converged or out of epochs)."""
        return self.run.finished

    @property
    def step_count(self) -> int:
        """Steps taken by the current run (0 without one)."""
        return self.run.step_count

    @property
    def current_event(self) -> StepEvent | None:
        """The event of the last step taken, or None at the start."""
        return self.run.current_event

    def reset(self) -> None:
        """Rewind the run to its start, ``w = 0`` or :attr:`start` (the run is kept for replay)."""
        self.run.reset()

    def step(self) -> StepEvent | None:
        """Examine the next sample."""
        return self.run.step()

    def step_update(self) -> StepEvent | None:
        """Run to the next update."""
        return self.run.step_update()

    def step_epoch(self) -> StepEvent | None:
        """Run to the end of the epoch."""
        return self.run.step_epoch()

    def step_back(self) -> StepEvent | None:
        """Undo the last step."""
        return self.run.step_back()

    def run_to_end(self) -> StepEvent | None:
        """Run to convergence or ``max_iter`` in one go (the window slices it)."""
        return self.run.run_to_end()

    def advance(self, max_steps: int, deadline: float | None = None) -> int:
        """Advance by at most ``max_steps`` steps (see :meth:`.Run.advance`); returns how many."""
        return self.run.advance(max_steps, deadline=deadline)

    def advance_for(self, seconds: float, chunk: int = 4096) -> int:
        """Advance for about ``seconds`` of computing (see :meth:`.Run.advance_for`); emit once."""
        return self.run.advance_for(seconds, chunk)

    def compute_for(self, seconds: float, limit: int) -> int:
        """Compute steps past the frontier, the cursor kept (:meth:`.Run.compute_for`)."""
        return self.run.compute_for(seconds, limit)

    def seek(self, step: int) -> StepEvent | None:
        """Move the cursor to ``step`` (0 = start)."""
        return self.run.seek(step)

    def end_message(self) -> str:
        """What the end of the run means, in one line."""
        caps = self.capabilities
        no_bound = None
        if caps.steps and not caps.novikoff:  # no bound to cite
            no_bound = functools.partial(no_bound_end_text, self.run.learner, self.capabilities)
        return end_message(self.run.learner, lambda: self.novikoff,
                           self.capabilities.nonlinear_kernel, self.dataset.X, no_bound)

    # -- the theory --------------------------------------------------------------------
    @property
    def novikoff(self) -> theory.NovikoffResult | None:
        """Novikoff's R, γ and bound for the vectors the current perceptron sees.

        A placeholder while it is deferred (see :attr:`.TheoryCache.novikoff`).
        """
        return self.theory.novikoff

    def pending_theory(self):
        """The deferred ``(token, job)`` a worker should run now, or None.

        See :meth:`.TheoryCache.pending_theory`.
        """
        return self.theory.pending_theory()

    def provide_novikoff(self, token: int, result) -> bool:
        """Install a deferred result and emit ``theory_changed``; ignored (returns
        False) if the data or parameters changed since ``token`` was handed out."""
        if not self.theory.provide_novikoff(token, result):
            return False
        self.theory_changed.emit()
        return True

    @property
    def max_margin(self) -> theory.MaxMarginResult | None:
        """The maximum-margin hyperplane (with bias) of the data, or None without data."""
        return self.theory.max_margin

    def margin_data(self) -> theory.MarginData | None:
        """The samples prepared for the margin of a hyperplane on them (None without data)."""
        return self.theory.margin_data()

    @property
    def lda(self) -> LDA | None:
        """LDA fitted on the data (with the LDA parameters), or None when it cannot be.

        What the overlay of class means and 2σ ellipses draws beside any
        learner (the same fit as the learner's when LDA is in use).
        """
        return self.theory.lda

    @property
    def lda_problem(self) -> str | None:
        """Why LDA cannot be fitted on the data, or None."""
        return self.theory.lda_problem

    def proof(self) -> theory.ProofTrace | None:
        """The proof's quantities along the run up to the cursor (linear learners only)."""
        return self.theory.proof()

    def training_margins(self) -> np.ndarray | None:
        """Functional margins ``y f(x)`` of every sample under the current weights (read-only)."""
        return self.theory.training_margins()

    def misclassified(self) -> np.ndarray:
        """Indices of the samples with ``y f(x) <= 0`` now (empty without a model; read-only)."""
        return self.theory.misclassified()

    def readouts(self) -> Readouts:
        """Every number the readout panel shows, in one consistent snapshot.

        Computed once per cursor position (and Novikoff result) and shared:
        ``w`` is read-only.
        """
        nov = self.novikoff
        # the game played on the data sets the bound (its rules change with the data kept)
        return self.theory.memo("readouts", (*self.run.state(), nov, game.game_of(self)),
                                lambda: self._readouts(nov))

    def _readouts(self, nov) -> Readouts:
        return compute_readouts(self, nov)

    # -- commands -------------------------------------------------------------------
    def apply_edit(self, edit: Edit, *, start=...) -> Edit:
        """Apply an edit of the data set and return its inverse.

        A running perceptron restarts from its start (and says so).  An edit
        that puts new data in place of the old (:attr:`Edit.replaces_data
        <.dataset.Edit.replaces_data>`: generated, loaded, cleared) drops the
        start set by hand, unless ``start`` is given (see :meth:`set_dataset`:
        an undo gives back the start from before).  Raises ValueError, with
        nothing changed, for an invalid edit.
        """
        new, inverse = edit.apply(self.dataset)
        if start is ... and edit.replaces_data:
            start = None
        self.set_dataset(new, start=start)
        return inverse

    def set_dataset(self, dataset: Dataset, *, start=...) -> None:
        """Replace the data set; restarts the run.  Emits ``dataset_changed`` alone.

        ``start``: the hand-set ``(w0, b0)`` to run from on the new data, or
        None (from 0); by default (``...``) the start is kept.
        """
        start = self.start if start is ... else None if start is None else check_start(*start)
        had_progress = self.running and self.run.learner.step_count > 0
        self.document.dataset = dataset
        self.document.start = start
        self.theory.forget_data()
        self._rebuild()
        if self._switch is not None:  # the requested learner, on the new data
            self._switch = Switch(dataset, self._switch.learner_name, self._switch.params,
                                  defers=self.theory.deferred, start=self.start)
        self.dataset_changed.emit(dataset)
        if had_progress and self.running:
            where = "w₀ (set by hand)" if self.starts_by_hand and self.start else "w = 0"
            self.message.emit(f"The data changed: training restarted from {where}.")

    def replace(self, dataset: Dataset, learner: str, params: dict, step: int = 0,
                start: tuple | None = None) -> None:
        """Replace data, learner, parameters and start at once (a loaded file), then seek ``step``.

        ``start`` is ``(w0, b0)`` set by hand, or None (see :attr:`start`).
        Everything is validated before anything changes: on ValueError the
        workspace is exactly as it was.  Emits ``dataset_changed`` alone.
        """
        merged = self.document.merged(learner, params)
        start = None if start is None else check_start(*start)
        self._switch = None
        self.document.replace(dataset, learner, merged, start)
        self.theory.forget_data()
        self._rebuild()
        if step and self.running:
            self.run.seek(step, announce=False)
        self.dataset_changed.emit(dataset)

    def take_over(self, other: Workspace) -> None:
        """Replace data, learner, parameters and run by ``other``'s, taking its built learner.

        Meant for a workspace loaded in a worker (:func:`~.io.load_workspace`):
        its learner is already started on the data there and its run recomputed
        up to the stored step, so this thread builds and replays nothing, where
        ``replace(other.dataset, ..., other.step_count)`` would do it all again.
        ``other`` gives its content up: it must not be used afterwards.  Its
        ``view`` and ``defer_expensive`` are not taken; the game played on it
        (:func:`.game.game_of`, a game file) is.  Emits ``dataset_changed`` alone.
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
        self.dataset_changed.emit(self.dataset)

    def set_learner(self, name: str) -> None:
        """Switch learner (a key of the learner registry); the run restarts.

        Emits ``learner_changed`` (or ``switch_changed`` when it only drops a
        pending switch).
        """
        self.document.check_learner_key(name)
        dropped = self._drop_switch()
        if name != self.learner_name:
            self.document.learner_name = name
            self._rebuild()
            self.learner_changed.emit()
        elif dropped:
            self.switch_changed.emit()

    def learner_withdrawn(self, key: str) -> None:
        """Let go of learner ``key``, about to be unregistered (:data:`~.registry.withdrawing`).

        Its parameters are forgotten and a pending switch to it is dropped; if
        it was the learner in use, the workspace falls back to
        :data:`registry.DEFAULT <.learners.registry.DEFAULT>`, says so through
        ``message`` and emits ``learner_changed`` once.  Called for every live
        workspace when the registry withdraws a learner.
        """
        doc = self.document
        doc.params.pop(key, None)
        switch = self._switch
        dropped = switch is not None and switch.learner_name == key
        if dropped:
            self._switch = None
        elif switch is not None:
            switch.params.pop(key, None)  # its commit must not bring them back
        if doc.learner_name != key:
            if dropped:
                self.switch_changed.emit()
            return
        doc.learner_name = registry.DEFAULT
        self._rebuild()
        self.learner_changed.emit()
        self.message.emit(f"{LEARNERS[key]} is no longer available (unregistered): "
                          f"now using {LEARNERS[registry.DEFAULT]}.")

    def set_params(self, learner: str | None = None, **values) -> None:
        """Change parameters of a learner (default: the one in use).

        The values are validated first; an invalid value raises ValueError
        with the learner's message and changes nothing.  Emits
        ``learner_changed`` when the learner in use was rebuilt, else
        ``theory_changed`` when the overlay's parameters changed, and
        ``switch_changed`` when a pending switch was dropped without a rebuild.
        """
        key = learner or self.learner_name
        trial = self.document.trial(key, values)
        dropped = self._drop_switch()
        rebuilt = False
        try:
            if trial != self.document.params[key]:
                rebuilt = self._set_valid_params(key, trial)
        finally:
            if dropped and not rebuilt:
                self.switch_changed.emit()

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
            self.learner_changed.emit()
            return True
        if overlay:
            self.theory_changed.emit()
        return False

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

        With :attr:`defer_expensive` and more than :data:`~.scale.LARGE_N`
        samples, returns the :class:`Switch` to build (also
        :attr:`pending_switch`; ``switch_changed`` is emitted) and changes
        nothing yet; otherwise this is :meth:`set_learner` and returns None.
        A request made while another is pending starts from the other's choice.
        """
        self.document.check_learner_key(name)
        if not self._switches_in_worker():
            self.set_learner(name)
            return None
        params = self._switch.params if self._switch is not None else self.document.params
        if name not in params:  # registered since the pending switch was made
            params = dict(params, **{name: self.document.params[name]})
        return self._request(name, params)

    def request_params(self, learner: str | None = None, **values) -> Switch | None:
        """Change parameters now, or on a large data set ask a worker to rebuild the learner.

        As :meth:`set_params` (invalid values raise ValueError and change
        nothing), except that with :attr:`defer_expensive` and more than
        :data:`~.scale.LARGE_N` samples a change that rebuilds the learner
        returns a :class:`Switch` (see :meth:`request_learner`).
        """
        if not self._switches_in_worker():
            self.set_params(learner, **values)
            return None
        doc = self.document
        name = self._switch.learner_name if self._switch is not None else doc.learner_name
        base = self._switch.params if self._switch is not None else doc.params
        key = learner or name
        doc.check_learner_key(key)
        trial = doc.trial(key, values, base=base.get(key, doc.params[key]))
        params = {k: dict(v) for k, v in base.items()}
        params[key] = trial
        return self._request(name, params)

    def _switches_in_worker(self) -> bool:
        return self.defer_expensive and scale.is_large(self.dataset.n)

    def _request(self, name: str, params: dict) -> Switch | None:
        doc = self.document
        if name == doc.learner_name and params[name] == doc.params[name]:
            # the learner in use stays: no switch, only other learners' parameters
            dropped = self._drop_switch()
            for key, values in params.items():
                if key != name and values != doc.params.get(key):
                    self._set_valid_params(key, dict(values))
            doc.params = {k: dict(v) for k, v in params.items()}
            if dropped:
                self.switch_changed.emit()
            return None
        fitted = self.theory.fitted(name, params[name])
        self._switch = Switch(self.dataset, name, params, fitted=fitted,
                              margin_data=self.theory.per_data.get("margin_data"),
                              defers=self.theory.deferred, start=self.start)
        self.switch_changed.emit()
        return self._switch

    def commit_switch(self, switch: Switch) -> bool:
        """Install a built switch (on the UI thread); False, and nothing changes, if stale.

        A switch is stale once another request, a data edit or a synchronous
        change (:meth:`set_learner`, :meth:`set_params`, :meth:`replace`)
        came after it.  Emits ``learner_changed`` alone (the switch is gone).
        """
        if switch is not self._switch or switch.model is None:
            return False
        self._switch = None
        doc = self.document
        doc.params = {k: dict(v) for k, v in switch.params.items()}
        doc.learner_name = switch.learner_name
        per_data = self.theory.per_data
        if switch.margin_data is not None:
            per_data.setdefault("margin_data", switch.margin_data)
        fitted = switch.model.cache.get("fit")
        if fitted is not None:
            per_data[("fit", doc.learner_name)] = (dict(doc.current), fitted)
        self._install(switch.model)
        self.learner_changed.emit()
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


#: What the theory keeps per model that a new start leaves as it is.
_START_FREE = ("capabilities", "novikoff_job", "novikoff")


def _same_start(a, b) -> bool:
    """Whether two starts (``(w0, b0)`` or None) are the same numbers."""
    if a is None or b is None:
        return a is b
    return bool(np.array_equal(a[0], b[0]) and a[1] == b[1])


#: Every workspace alive, told when the registry withdraws a learner (weakly held).
_LIVE: weakref.WeakSet[Workspace] = weakref.WeakSet()
_LIVE_LOCK = threading.Lock()


def _withdraw(key: str) -> None:
    with _LIVE_LOCK:
        live = list(_LIVE)
    for workspace in live:
        workspace.learner_withdrawn(key)


registry.withdrawing.connect(_withdraw)
