"""Opening a file is all or nothing: a file refused at any stage of an open leaves the
work, its undo history and a change being built as they were; a run position too far
to recompute opens at the start and says so."""

from __future__ import annotations

import json

import pytest

from perceptron_gui.core import generators, io
from perceptron_gui.core.dataset import AddPoints
from perceptron_gui.ui.features import files as files_mod
from tests.ui.features.test_files import load
from tests.ui.helpers import finish, window_state


def _work_with_history(qtbot, window, tmp_path):
    """Two undoable edits, one undone, in a saved document: (state, path of another file)."""
    load(window, generators.separable(12, seed=1))
    window.push_edit(AddPoints([[0.5, 0.5]], 1))
    window.undo_stack.undo()
    assert finish(qtbot, window.files.save_to(tmp_path / "mine.json"))
    window.push_edit(AddPoints([[0.25, 0.75]], -1))
    other = tmp_path / "other.json"
    io.save_workspace(io.workspace_from_json(io.workspace_to_json(
        __import__("perceptron_gui.core", fromlist=["Workspace"]).Workspace(
            generators.xor(8, seed=5), learner="dual"))), other)
    return window_state(window), other


def _undo_and_redo_still_work(window, state):
    ws = window.workspace
    window.undo_stack.undo()
    assert ws.dataset.n == state[0].n - 1
    window.undo_stack.redo()
    assert ws.dataset == state[0]


def test_a_value_the_controls_cannot_hold_is_refused_and_nothing_changes(
        qtbot, window, tmp_path, warnings):
    state, other = _work_with_history(qtbot, window, tmp_path)
    doc = json.loads(other.read_text())
    doc["params"]["primal"]["max_iter"] = 2**31
    other.write_text(json.dumps(doc))
    assert not finish(qtbot, window.files.open_path(other, ask=False))
    assert window_state(window) == state
    assert window.files.path == str(tmp_path / "mine.json")
    (title, text), = warnings
    assert "params.primal.max_iter: max_iter must be a positive integer" in text
    _undo_and_redo_still_work(window, state)


def test_a_failure_at_the_last_step_of_an_open_rolls_everything_back(
        qtbot, window, tmp_path, warnings, monkeypatch):
    state, other = _work_with_history(qtbot, window, tmp_path)
    window.canvas.getViewBox().setRange(xRange=(-7, 3), yRange=(-2, 5), padding=0)
    view = files_mod.canvas_view(window.canvas)  # not the saved view: the one on screen
    real = files_mod.set_canvas_view

    def fail_on_the_new_view(canvas, new_view):
        if window.workspace.dataset.n == 8:  # the file's data are installed by now
            raise RuntimeError("the canvas cannot frame this")
        real(canvas, new_view)

    monkeypatch.setattr(files_mod, "set_canvas_view", fail_on_the_new_view)
    assert not finish(qtbot, window.files.open_path(other, ask=False))
    assert window_state(window) == state
    assert window.files.path == str(tmp_path / "mine.json") and window.files.is_dirty()
    assert window.learner_panel.selector.currentData() == "primal"
    assert files_mod.canvas_view(window.canvas) == pytest.approx(view)
    (title, text), = warnings
    assert title == "Cannot open the file"
    assert "the canvas cannot frame this" in text and files_mod.UNCHANGED in text
    _undo_and_redo_still_work(window, state)


def test_a_view_that_raises_while_the_file_is_installed_rolls_back(
        qtbot, window, tmp_path, warnings):
    state, other = _work_with_history(qtbot, window, tmp_path)
    ws = window.workspace
    raised = []

    def refuses_the_dual_once(*_args):
        if ws.learner_name == "dual" and not raised:
            raised.append(True)
            raise OverflowError("Python int too large to convert to C int")

    ws.events.dataset_changed.connect(refuses_the_dual_once)  # an opened file announces new data
    assert not finish(qtbot, window.files.open_path(other, ask=False))
    assert raised and window_state(window) == state
    assert window.learner_panel.selector.currentData() == "primal"
    assert files_mod.UNCHANGED in warnings[0][1]
    _undo_and_redo_still_work(window, state)
    # and the same file opens next time
    assert finish(qtbot, window.files.open_path(other, ask=False))
    assert ws.learner_name == "dual" and window.undo_stack.count() == 0
    assert window.windowTitle() == "other.json — perceptron-gui"


def test_a_failed_open_keeps_a_change_being_built(qtbot, window, tmp_path, warnings,
                                                  monkeypatch):
    import threading

    from perceptron_gui.core import scale
    from perceptron_gui.core.switch import Switch

    monkeypatch.setattr(scale, "LARGE_N", 10)  # 12 points: in a worker
    gate, run = threading.Event(), Switch.run
    monkeypatch.setattr(Switch, "run", lambda self: gate.wait(60) and run(self))
    state, other = _work_with_history(qtbot, window, tmp_path)
    ws, selector = window.workspace, window.learner_panel.selector
    qtbot.waitUntil(lambda: not window.theory_worker.busy, timeout=10_000)
    selector.setCurrentIndex(selector.findData("lda"))
    assert ws.pending_switch is not None and ws.learner_name == "primal"
    monkeypatch.setattr(files_mod, "set_canvas_view", lambda *a: (_ for _ in ()).throw(
        RuntimeError("the canvas cannot frame this")))
    try:
        assert not finish(qtbot, window.files.open_path(other, ask=False))
        assert window_state(window) == state
        switch = ws.pending_switch
        assert switch is not None and switch.learner_name == "lda"
        assert selector.currentData() == "lda"  # the choice is still shown
    finally:
        gate.set()
    qtbot.waitUntil(lambda: ws.learner_name == "lda", timeout=10_000)


def test_a_file_at_a_position_too_far_to_recompute_opens_at_the_start_and_says_so(
        qtbot, window, warnings, tmp_path, monkeypatch):
    from perceptron_gui.core import Workspace
    from perceptron_gui.core.io import runstep

    saved = Workspace(generators.xor(8, seed=1))
    saved.advance(6)
    path = tmp_path / "far.json"
    io.save_workspace(saved, path)
    monkeypatch.setattr(runstep, "RESTORE_SECONDS", 1e-12)
    assert finish(qtbot, window.files.open_path(path, ask=False))
    ws = window.workspace
    assert ws.dataset == saved.dataset and ws.step_count == 0
    assert window.files.path == str(path)
    [(title, text)] = warnings
    assert title == "The run opens at its start"
    assert "its stored position, step 6 on 8 points" in text
