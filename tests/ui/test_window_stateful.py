"""A hypothesis state machine drives the real main window with random sequences of actions.

Rules: add, move, drag (moves that merge into one undo step), delete, undo, redo,
switch learner, change a parameter (through the learner panel's controls), step
(sample, update, epoch), play a few frames (the play timer's tick), step back,
reset, save, load and clear; a shipped demo played to a random step, then
stopped or kept as one undo step; presenter mode at 800 × 600, in and out; the
hand tools: w set by hand (``SetWeights``, an undo step) and a sample drawn
from the Gaussians shaped by hand (``SampleModel``, a data edit). Edits go
through ``window.push_edit``, where the canvas sends them, so the edit guards
(the timeline's "discard later steps?" question, answered at random) take part.

Invariants after every rule:

- no exception reached ``sys.excepthook`` (slots and deferred refreshes run);
- the data set equals the one the core gives when the same edits are applied to
  a :class:`Dataset` with :mod:`perceptron_gui.core.dataset`, with our own undo and
  redo stacks of inverse edits;
- the window's undo stack has the same length and index as ours;
- the readouts equal a fresh core workspace's, seeked to the same step, and the
  readout panel shows them.

At the end of each example, undoing everything returns to the start (the empty
canvas, or the last loaded file) and redoing everything returns to the end; a
load after a save gives back the saved data, learner, parameters, step and w₀.

The suite runs a fixed number of examples of :data:`STEPS` rules from a fixed seed,
printed (another: ``PERCEPTRON_GUI_FUZZ_SEED``). A long run::

    PERCEPTRON_GUI_STATEFUL_EXAMPLES=3000 PERCEPTRON_GUI_STATEFUL_STEPS=40 \\
        QT_QPA_PLATFORM=offscreen python -m pytest -q tests/ui/test_window_stateful.py
"""

from __future__ import annotations

import math
import os
import sys

import numpy as np
import pytest
from hypothesis import HealthCheck, settings
from hypothesis import seed as use_seed
from hypothesis import strategies as st
from hypothesis.stateful import (
    RuleBasedStateMachine,
    get_state_machine_test,
    initialize,
    invariant,
    precondition,
    rule,
)
from PySide6 import QtWidgets

from perceptron_gui.core import Workspace, demos
from perceptron_gui.core.commands import SampleModel
from perceptron_gui.core.dataset import (
    AddPoints,
    Clear,
    Dataset,
    DeletePoints,
    MovePoints,
    ReplaceAll,
)
from perceptron_gui.core.learners import registry
from perceptron_gui.core.text import fmt, fmt_vec
from perceptron_gui.ui import errors as ui_errors
from perceptron_gui.ui.features import autosave as autosave_mod
from perceptron_gui.ui.wording import problem_text
from tests.ui.helpers import finish

B = QtWidgets.QMessageBox
LONG = int(os.environ.get("PERCEPTRON_GUI_STATEFUL_EXAMPLES", "0"))
SEED = int(os.environ.get("PERCEPTRON_GUI_FUZZ_SEED", "32"))
MAX_POINTS = 24
#: Rules run in an example (after its start); a long run may ask for more.
STEPS = int(os.environ.get("PERCEPTRON_GUI_STATEFUL_STEPS", "10"))
#: The window's size in the suite; presenter mode is tried at the smallest one people use.
SIZE, SMALL = (1100, 700), (800, 600)

coord = st.floats(-5.0, 5.0, allow_nan=False, allow_infinity=False, width=32)
label = st.sampled_from([-1, 1])

#: Parameter changes made through the learner panel: (learner, control key, value).
PARAM_CHANGES = [
    ("primal", "eta0", 0.5), ("primal", "eta0", 2.0),
    ("primal", "bias_scale", 3.0), ("primal", "bias_scale", 1.0),
    ("primal", "fit_intercept", False), ("primal", "fit_intercept", True),
    ("primal", "order", "random"), ("primal", "order", "cyclic"),
    ("primal", "max_iter", 3), ("primal", "max_iter", 1000),
    ("dual", "kernel", "rbf"), ("dual", "kernel", "poly"), ("dual", "kernel", "linear"),
    ("dual", "gamma", 0.5), ("dual", "degree", 2), ("dual", "fit_intercept", False),
    ("dual", "max_iter", 4),
    ("lda", "priors_auto", False), ("lda", "priors_auto", True), ("lda", "pi_pos", 0.3),
    ("lda", "shrinkage_mode", "auto"), ("lda", "shrinkage_mode", "none"),
]


def _same(a, b) -> bool:
    if isinstance(a, float) and isinstance(b, float):
        return (math.isnan(a) and math.isnan(b)) or a == b
    if isinstance(a, np.ndarray) or isinstance(b, np.ndarray):
        return a is not None and b is not None and np.array_equal(a, b)
    return a == b


class _NoDataChange:
    """The model's entry for an undo step that changes no data (w set by hand)."""

    def apply(self, data):
        return data, self


def _same_start(a, b) -> bool:
    if a is None or b is None:
        return a is b
    return np.array_equal(a[0], b[0]) and a[1] == b[1]


def _set_control(widget, value) -> None:
    if isinstance(widget, QtWidgets.QCheckBox):
        widget.setChecked(bool(value))
    elif isinstance(widget, QtWidgets.QComboBox):
        widget.setCurrentIndex(widget.findData(value))
    else:
        widget.setValue(value)


class WindowMachine(RuleBasedStateMachine):
    """The real window against a model made of core edits and our own undo stacks."""

    window = None  # set by the test
    qtbot = None
    folder = None
    counts = {"examples": 0, "steps": 0}

    def __init__(self):
        super().__init__()
        w = self.window
        w.playback.stop()
        w.undo_stack.clear()
        w.workspace.replace(Dataset(), "primal", {}, 0)
        w.files.mark_clean(None)
        w.canvas.fit_view()
        self.errors: list = []
        self.answer_yes = True
        self.asked: list[str] = []
        self.start = Dataset()
        self.data = Dataset()
        self.undo: list = []  # (edit, inverse) pairs, oldest first
        self.redo: list = []  # edits to redo, most recent undo last
        self.saved = None  # (path, dataset, learner, params) of the last save
        type(self).counts["examples"] += 1
        if LONG and type(self).counts["examples"] % 100 == 0:  # progress of a long run
            print(f"stateful: {type(self).counts['examples']} examples", flush=True)

    # -- helpers -------------------------------------------------------------------------
    def _push(self, edit) -> bool:
        ok = self.window.push_edit(edit)
        if ok:
            self.data, inverse = edit.apply(self.data)
            self.undo.append((edit, inverse))
            self.redo.clear()
        return ok

    def _count(self, name: str) -> None:
        type(self).counts[name] = type(self).counts.get(name, 0) + 1

    def _followed(self, before: int, edit) -> None:
        """Record ``edit`` when the window's undo stack took a step since it stood at ``before``."""
        stack = self.window.undo_stack
        if stack.index() == before + 1 and stack.count() == before + 1:
            self.data, inverse = edit.apply(self.data)
            self.undo.append((edit, inverse))
            self.redo.clear()

    # -- edits ---------------------------------------------------------------------------
    @initialize(points=st.lists(st.tuples(coord, coord), max_size=8), seed=st.integers(0, 3))
    def start_with_points(self, points, seed):
        """Most examples start from a few points of both classes (a generator's Replace)."""
        if len(points) >= 2:
            labels = [1 if (k + seed) % 2 else -1 for k in range(len(points))]
            self._push(ReplaceAll(np.array(points, dtype=float), np.array(labels)))

    @precondition(lambda self: self.data.n < MAX_POINTS - 4)
    @rule(points=st.lists(st.tuples(coord, coord, label), min_size=1, max_size=4),
          yes=st.booleans())
    def add_several(self, points, yes):
        """Points added at once (the generator dialog's "Add to canvas")."""
        self.answer_yes = yes
        self._push(AddPoints([p[:2] for p in points], [p[2] for p in points]))

    @precondition(lambda self: self.data.n < MAX_POINTS)
    @rule(x=coord, y=coord, lab=label, yes=st.booleans())
    def add(self, x, y, lab, yes):
        self.answer_yes = yes
        self._push(AddPoints([x, y], lab))

    @precondition(lambda self: self.data.n > 0)
    @rule(i=st.integers(0, 10**6), x=coord, y=coord, yes=st.booleans())
    def move(self, i, x, y, yes):
        self.answer_yes = yes
        self._push(MovePoints([i % self.data.n], [[x, y]]))
        self.window.end_drag()

    @precondition(lambda self: self.data.n > 0)
    @rule(i=st.integers(0, 10**6), path=st.lists(st.tuples(coord, coord), min_size=2,
                                                   max_size=4), yes=st.booleans())
    def drag(self, i, path, yes):
        """Several moves of one point in one drag: one undo step."""
        self.answer_yes = yes
        index = i % self.data.n
        first = True
        for x, y in path:
            edit = MovePoints([index], [[x, y]])
            if not self.window.push_edit(edit):
                continue
            if first:
                self.data, inverse = edit.apply(self.data)
                self.undo.append((edit, inverse))
                self.redo.clear()
                first = False
            else:  # merged into the drag's command: keep its inverse
                top, inverse = self.undo[-1]
                merged = top.merge(edit)
                assert merged is not None
                self.data, _ = edit.apply(self.data)
                self.undo[-1] = (merged, inverse)
        self.window.end_drag()

    @precondition(lambda self: self.data.n > 0)
    @rule(i=st.integers(0, 10**6), yes=st.booleans())
    def delete(self, i, yes):
        self.answer_yes = yes
        self._push(DeletePoints([i % self.data.n]))

    @precondition(lambda self: self.data.n > 0)
    @rule(yes=st.booleans())
    def clear(self, yes):
        self.answer_yes = yes
        before = self.window.undo_stack.count()
        self.window.actionClear.trigger()
        if self.window.undo_stack.count() != before or self.window.undo_stack.index() != len(
                self.undo):
            self.data, inverse = Clear().apply(self.data)
            self.undo.append((Clear(), inverse))
            self.redo.clear()

    @rule()
    def undo_(self):
        if self.undo:
            assert self.window.actionUndo.isEnabled()
            self.window.actionUndo.trigger()
            edit, inverse = self.undo.pop()
            self.data, _ = inverse.apply(self.data)
            self.redo.append(edit)
        else:
            assert not self.window.undo_stack.canUndo()

    @rule()
    def redo_(self):
        if self.redo:
            self.window.actionRedo.trigger()
            edit = self.redo.pop()
            self.data, inverse = edit.apply(self.data)
            self.undo.append((edit, inverse))
        else:
            assert not self.window.undo_stack.canRedo()

    # -- learner -------------------------------------------------------------------------
    @rule(key=st.sampled_from(["primal", "dual", "lda"]))
    def switch_learner(self, key):
        self.window.learner_panel.selector.setCurrentIndex(list(registry.LEARNERS).index(key))
        assert self.window.workspace.learner_name == key

    @rule(change=st.sampled_from(PARAM_CHANGES))
    def change_parameter(self, change):
        learner, key, value = change
        _set_control(self.window.learner_panel.control(learner, key), value)

    # -- the run ---------------------------------------------------------------------------
    @rule(actions=st.lists(st.sampled_from(["actionStep", "actionStepSample", "actionStepEpoch",
                                            "actionStepBack", "actionReset"]),
                           min_size=1, max_size=6))
    def step(self, actions):
        """A few presses of the step buttons (forward, back, reset)."""
        for name in actions:
            getattr(self.window, name).trigger()

    @rule(k=st.integers(1, 8))
    def step_forward(self, k):
        """Step to the next update k times (Space)."""
        for _ in range(k):
            self.window.actionStep.trigger()

    @rule(frames=st.integers(1, 5))
    def play(self, frames):
        w = self.window
        w.playback.set_playing(True)
        for _ in range(frames):
            if not w.actionPlay.isChecked():
                break
            w.playback.tick()
        w.playback.set_playing(False)
        assert not w.playback.play_timer.isActive()

    # -- demos, presenter mode, the hand tools ----------------------------------------------
    @rule(name=st.sampled_from(demos.list_demos()), at=st.integers(0, 10**6), keep=st.booleans())
    def demo(self, name, at, keep):
        """A shipped demo to a random step, then stopped (all back) or kept (one undo step)."""
        w = self.window
        ui = w.demos
        before = w.undo_stack.index()
        assert ui.play(name)
        ui.goto(at % (len(ui.player) + 1))
        self.qtbot.waitUntil(lambda: not ui.running_step, timeout=60_000)
        self._count("demo")
        if keep:
            ui.keep()
            self._followed(before, ReplaceAll.from_dataset(w.workspace.dataset))
        else:
            ui.stop()
        assert not ui.playing and w.undo_stack.index() == len(self.undo)

    @rule(demo=st.booleans())
    def presenter_small(self, demo):
        """Presenter mode at 800 × 600 (with a demo playing, or not), then back."""
        w = self.window
        w.resize(*SMALL)
        if demo:
            assert w.demos.play("first-updates")
            w.demos.next()
        w.presenter.set_active(True)
        QtWidgets.QApplication.processEvents()
        assert w.presenter.active
        self._count("presenter")
        w.presenter.set_active(False)
        if demo:
            w.demos.stop()
        w.showNormal()
        w.resize(*SIZE)
        assert not w.presenter.active

    @rule(w1=coord, w2=coord, b=coord, yes=st.booleans())
    def weights_by_hand(self, w1, w2, b, yes):
        """w set by hand (the mode's typed weights): one undo step that keeps the data."""
        w = self.window
        self.answer_yes = yes
        before = w.undo_stack.index()
        if w.hand_weights.enter():
            w.hand_weights.set_weights([w1, w2], b)
            self._count("hand")
            w.hand_weights.leave()
            self._followed(before, _NoDataChange())

    @rule(n=st.integers(2, 40), seed=st.integers(0, 99), mean=st.tuples(coord, coord),
          yes=st.booleans())
    def sample_shaped(self, n, seed, mean, yes):
        """LDA chosen, its Gaussians shaped by hand (a mean moved), sampled: a data edit."""
        w = self.window
        self.answer_yes = yes
        before = w.undo_stack.index()
        # LDA: a Gaussian class model
        w.learner_panel.selector.setCurrentIndex(list(registry.LEARNERS).index("lda"))
        if w.shaping.enter():
            model = w.shaping.move_handle(0, mean)
            if w.shaping.sample(n, seed):
                self._count("sampled")
            w.shaping.leave()
            self._followed(before, SampleModel.of(model, n, seed).edit())

    # -- files -----------------------------------------------------------------------------
    @rule()
    def save(self):
        ws = self.window.workspace
        path = str(self.folder / "machine.json")
        assert finish(self.qtbot, self.window.files.save_to(path))
        assert not self.window.files.is_dirty()
        self.saved = (path, ws.dataset, ws.learner_name, ws.all_params(), ws.step_count,
                      ws.start)

    @precondition(lambda self: self.saved is not None)
    @rule()
    def load(self):
        path, data, learner, params, step, start = self.saved
        # asks (Discard) when there are changes
        assert finish(self.qtbot, self.window.files.open_path(path))
        ws = self.window.workspace
        assert ws.dataset == data
        assert ws.learner_name == learner and ws.all_params() == params
        assert ws.step_count == step
        assert _same_start(ws.start, start)
        self.start = self.data = data
        self.undo.clear()
        self.redo.clear()

    # -- invariants ------------------------------------------------------------------------
    @invariant()
    def settle_and_no_exception(self):
        QtWidgets.QApplication.processEvents()
        type(self).counts["steps"] += 1
        if self.window.workspace.step_count:
            type(self).counts["running"] = type(self).counts.get("running", 0) + 1
        if self.window.timeline.later_steps():
            type(self).counts["scrubbed"] = type(self).counts.get("scrubbed", 0) + 1
        assert self.errors == [], self.errors[0]

    @invariant()
    def data_equal_the_core_model(self):
        assert self.window.workspace.dataset == self.data
        stack = self.window.undo_stack
        assert stack.index() == len(self.undo)
        assert stack.count() == len(self.undo) + len(self.redo)

    @invariant()
    def readouts_equal_the_core(self):
        ws = self.window.workspace
        fresh = Workspace(ws.dataset, ws.learner_name, ws.all_params())
        if ws.start is not None:
            fresh.set_start(*ws.start)
        if fresh.running:
            fresh.seek(ws.step_count)
        assert fresh.step_count == ws.step_count
        mine, ref = ws.readouts(), fresh.readouts()
        for field in ref.__dataclass_fields__:
            assert _same(getattr(mine, field), getattr(ref, field)), field
        panel = self.window.readouts
        panel.refresh()
        shown = panel.values()
        # a data problem in the UI's words (with the gestures), else the core's status
        assert shown["status"] == (problem_text(fresh) or ref.status)
        if ws.capabilities.steps:
            assert shown["k"] == f"{ref.k:,}"
            assert shown["bound"] == ref.bound_text
        if ref.w is not None and not ws.capabilities.nonlinear_kernel:
            assert shown["w"] == fmt_vec(ref.w)
            assert shown["b"] == fmt(ref.b)

    def teardown(self):
        stack = self.window.undo_stack
        end = self.data  # where redoing everything leads, by the core
        for edit in reversed(self.redo):
            end, _ = edit.apply(end)
        while stack.canUndo():
            stack.undo()
        assert self.window.workspace.dataset == self.start
        while stack.canRedo():
            stack.redo()
        assert self.window.workspace.dataset == end


@pytest.fixture
def machine_window(qtbot, tmp_path, monkeypatch):
    monkeypatch.setattr(autosave_mod, "default_directory", lambda: str(tmp_path / "appdata"))
    from perceptron_gui.ui.main_window import MainWindow

    win = MainWindow()
    qtbot.addWidget(win)
    win.resize(1100, 700)
    win.show()
    qtbot.waitExposed(win)
    return win


def test_random_action_sequences_keep_the_window_consistent(machine_window, tmp_path,
                                                           monkeypatch, qtbot):
    WindowMachine.window = machine_window
    WindowMachine.qtbot = qtbot
    WindowMachine.folder = tmp_path
    WindowMachine.counts = {"examples": 0, "steps": 0}
    errors: list = []

    def question(parent, title, text, *args, **kwargs):
        machine = WindowMachine.current
        machine.asked.append(title)
        WindowMachine.counts[title] = WindowMachine.counts.get(title, 0) + 1
        if title == "Unsaved changes":
            return B.Discard
        return B.Yes if machine.answer_yes else B.No

    original_init = WindowMachine.__init__

    def init(self):
        original_init(self)
        WindowMachine.current = self
        self.errors = errors
        errors.clear()

    monkeypatch.setattr(WindowMachine, "__init__", init)
    monkeypatch.setattr(ui_errors, "ask", question)
    monkeypatch.setattr(ui_errors, "warn",
                        lambda parent, title, text, *a: errors.append(f"warning: {title}: {text}"))
    monkeypatch.setattr(sys, "excepthook", lambda *exc: errors.append(exc))
    examples = LONG or 12
    print(f"\nstateful: seed {SEED} (PERCEPTRON_GUI_FUZZ_SEED)")
    machine_test = get_state_machine_test(WindowMachine, settings=settings(
        max_examples=examples, stateful_step_count=STEPS, deadline=None,
        suppress_health_check=list(HealthCheck), database=None))
    use_seed(SEED)(machine_test)()
    counts = WindowMachine.counts
    print(f"\nstateful: seed {SEED}: {counts['examples']} examples, {counts['steps']} checked "
          f"states, {({k: v for k, v in counts.items() if k not in ('examples', 'steps')})}")
    assert counts["examples"] >= min(examples, 10)
    # the actions this fuzz is for were among those taken
    assert all(counts.get(name, 0) for name in ("demo", "presenter", "hand", "sampled")), counts
