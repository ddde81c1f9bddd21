"""The main window, driven as a person would: click, press the actions, check the state."""

from __future__ import annotations

import sys
import time

import numpy as np
import pytest
from PySide6 import QtCore, QtGui, QtWidgets

from perceptron_gui.core import Dataset, PrimalPerceptron, generators, theory
from perceptron_gui.core.dataset import ReplaceAll
from perceptron_gui.core.learners import registry
from perceptron_gui.ui.main_window import MainWindow, slider_from_speed, speed_from_slider
from tests.ui.helpers import load_long_kernel_run


def click(qtbot, window, x, y, button=QtCore.Qt.LeftButton):
    pos = window.canvas.data_to_widget(x, y).toPoint()
    qtbot.mouseClick(window.canvas.viewport(), button, pos=pos)


def load(window, dataset):
    window.push_edit(ReplaceAll.from_dataset(dataset))
    window.canvas.fit_view()
    QtWidgets.QApplication.processEvents()  # let the coalesced redraws run


def test_window_has_the_named_widgets(window):
    for name in ("canvas", "learnerSelector", "speedSlider"):
        assert window.findChild(QtWidgets.QWidget, name) is not None, name
    selector = window.findChild(QtWidgets.QComboBox, "learnerSelector")
    assert [selector.itemText(i) for i in range(selector.count())] == list(
        registry.LEARNERS.values())
    assert {"Primal perceptron", "One-vs-rest perceptron", "LDA"} <= set(registry.LEARNERS.values())
    for name in ("actionStepSample", "actionStep", "actionStepEpoch", "actionPlay",
                 "actionStepBack", "actionReset", "actionRunToEnd"):
        action = window.findChild(QtWidgets.QWidget, name) or getattr(window, name)
        assert action.objectName() == name
        assert action.shortcuts(), f"{name} has no shortcut"
    assert window.actionStep.shortcut().toString() == "Space"
    assert window.actionPlay.isCheckable()



def test_folded_details_and_hidden_log_are_made_when_first_shown(qtbot, window):
    # not made at launch (the details section is folded, the log hidden) ...
    assert not window.side_panel.sections["details"].is_expanded()
    assert window.docks["updateLog"].isHidden()
    assert window.findChild(QtWidgets.QLabel, "readout_k") is None
    assert window.findChild(QtWidgets.QTableView, "updateLog") is None
    load(window, generators.separable(20, seed=2))
    window.workspace.run_to_end()
    # ... and there, filled, when they show
    window.side_panel.sections["details"].set_expanded(True)
    label = window.findChild(QtWidgets.QLabel, "readout_k")
    assert label is not None and label.isVisible()
    assert label.text() == str(window.workspace.learner.n_updates_)
    window.docks["updateLog"].show()
    log = window.findChild(QtWidgets.QTableView, "updateLog")
    assert log is window.timeline.view and log.isVisible()
    assert log.model().rowCount() == window.workspace.learner.n_updates_
    assert window.timeline.actionExportLogCsv in log.actions()

def test_clicks_add_points_of_the_right_class(qtbot, window):
    ws = window.workspace
    click(qtbot, window, 1.0, 2.0)
    click(qtbot, window, -2.0, -1.0, QtCore.Qt.RightButton)
    assert ws.dataset.n == 2
    np.testing.assert_allclose(ws.dataset.X, [[1.0, 2.0], [-2.0, -1.0]], atol=0.05)
    assert list(ws.dataset.y) == [1, -1]
    assert "Only one class" not in (ws.problem or "")
    # switching the active class swaps what the buttons add
    window.actions["class_1"].trigger()
    click(qtbot, window, 3.0, 3.0)
    assert ws.dataset.y[-1] == -1


def test_undo_redo_and_clear(qtbot, window):
    ws = window.workspace
    click(qtbot, window, 1.0, 1.0)
    click(qtbot, window, -1.0, -1.0, QtCore.Qt.RightButton)
    before = ws.dataset
    window.actionClear.trigger()
    assert ws.dataset.n == 0
    window.actionUndo.trigger()
    assert ws.dataset == before
    window.actionUndo.trigger()
    window.actionUndo.trigger()
    assert ws.dataset.n == 0 and not window.actionUndo.isEnabled()
    window.actionRedo.trigger()
    window.actionRedo.trigger()
    assert ws.dataset == before


def test_each_step_action(qtbot, window):
    ds = generators.separable(20, seed=2, margin=0.4)
    load(window, ds)
    ws = window.workspace
    window.actionStepSample.trigger()
    assert ws.step_count == 1
    window.actionStep.trigger()
    assert ws.current_event.mistake
    window.actionStepEpoch.trigger()
    assert ws.step_count % ds.n == 0
    t = ws.step_count
    window.actionStepBack.trigger()
    assert ws.step_count == t - 1
    window.actionReset.trigger()
    assert ws.step_count == 0 and not window.actionReset.isEnabled()
    window.actionRunToEnd.trigger()
    qtbot.waitUntil(lambda: ws.finished, timeout=10_000)
    assert not window.actionStep.isEnabled() and not window.actionRunToEnd.isEnabled()
    core = PrimalPerceptron(random_state=0).fit(ds.X, ds.y)
    assert np.array_equal(ws.learner.coef_, core.coef_)
    assert ws.learner.intercept_[0] == core.intercept_[0]
    assert ws.learner.n_updates_ == core.n_updates_


def test_learner_switching_and_stepping(qtbot, window):
    load(window, generators.circles(40, seed=0))
    selector = window.learner_panel.selector
    selector.setCurrentIndex(selector.findData("dual"))
    assert window.workspace.learner_name == "dual"
    kernel = window.learner_panel.control("dual", "kernel")
    kernel.setCurrentIndex(kernel.findData("rbf"))
    assert window.workspace.capabilities.nonlinear_kernel
    window.actionStep.trigger()
    assert window.workspace.learner.n_updates_ == 1
    selector.setCurrentIndex(selector.findData("lda"))
    assert window.workspace.learner_name == "lda"
    assert not window.actionStep.isEnabled() and not window.actionPlay.isEnabled()
    assert window.workspace.lda is not None


def test_play_and_pause(qtbot, window):
    load(window, generators.xor(40, seed=0))
    ws = window.workspace
    window.speedSlider.setValue(100)
    with qtbot.waitSignal(window.playback.play_timer.timeout, timeout=5000):
        window.actionPlay.trigger()
    assert window.actionPlay.isChecked()
    qtbot.waitUntil(lambda: ws.step_count >= 50, timeout=30_000)
    window.actionPlay.trigger()
    assert not window.actionPlay.isChecked() and not window.playback.play_timer.isActive()
    t = ws.step_count
    qtbot.wait(50)
    assert ws.step_count == t


def test_play_stops_at_the_end(qtbot, window):
    load(window, generators.separable(10, seed=1, margin=0.5))
    window.speedSlider.setValue(100)
    window.actionPlay.trigger()
    qtbot.waitUntil(lambda: window.workspace.finished, timeout=10_000)
    qtbot.waitUntil(lambda: not window.actionPlay.isChecked(), timeout=10_000)
    assert "Converged" in window.statusBar().currentMessage()


def test_hovering_the_canvas_keeps_the_status_message(qtbot, window):
    # the canvas is where the pointer rests: a status tip there would erase every
    # message ("Converged", "restarted") as soon as the mouse moved
    from PySide6.QtTest import QTest

    window.show_message("Converged after 3 updates.")
    centre = QtCore.QPointF(window.canvas.rect().center())
    for widget in (window.canvas, window.canvas.viewport()):
        QtWidgets.QApplication.sendEvent(widget, QtGui.QEnterEvent(centre, centre, centre))
    QTest.mouseMove(window.canvas.viewport(), window.canvas.viewport().rect().center())
    assert window.statusBar().currentMessage() == "Converged after 3 updates."


def test_edit_during_a_run_restarts_and_says_so(qtbot, window):
    load(window, generators.separable(20, seed=3, margin=0.3))
    window.actionStep.trigger()
    window.actionStep.trigger()
    click(qtbot, window, 0.0, 4.0)
    assert window.workspace.step_count == 0
    assert "restarted from w = 0" in window.statusBar().currentMessage()


def test_non_separable_run_ends_with_a_message(qtbot, window):
    load(window, generators.xor(20, seed=1))
    window.workspace.set_params(max_iter=5)
    qtbot.waitUntil(lambda: window.readouts.values()["bound"] == "not separable — no bound",
                    timeout=30_000)
    window.actionRunToEnd.trigger()
    qtbot.waitUntil(lambda: window.workspace.finished, timeout=10_000)
    assert "not linearly separable" in window.statusBar().currentMessage()


#: Data a learner cannot be fitted to: none (the window as it opens, so first), one point,
#: two classes at one point, four points at one point.
EDGE_CASES = [([], []), ([[1.0, 1.0]], [1]), ([[1.0, 1.0], [1.0, 1.0]], [1, -1]),
              ([[0.0, 0.0]] * 4, [1, -1, 1, -1])]


def test_edge_cases_give_messages_not_tracebacks(qtbot, window, subtests):
    ws = window.workspace
    for points, labels in EDGE_CASES:  # one window, a subtest each
        with subtests.test(points=points, labels=labels), qtbot.captureExceptions() as raised:
            if points:  # the message is the one of these data, not of the case before
                window.statusBar().clearMessage()
                load(window, Dataset(points, labels))
            for learner in ("primal", "dual", "lda"):
                ws.set_learner(learner)
                for action in (window.actionStepSample, window.actionStep,
                               window.actionStepEpoch, window.actionStepBack,
                               window.actionReset):
                    action.trigger()
                window.canvas.refresh()
                window.readouts.refresh()
                window.plots.refresh()
            QtWidgets.QApplication.processEvents()  # the deferred redraws, in this case
            assert raised == []
            assert ws.dataset.n == len(points)
            if len(points) < 2:
                assert ws.problem and window.statusBar().currentMessage()


def _mouse(canvas, kind, pos, button, buttons):
    vp = canvas.viewport()
    ev = QtGui.QMouseEvent(kind, pos, vp.mapToGlobal(pos), button, buttons,
                           QtCore.Qt.KeyboardModifier.NoModifier)
    QtWidgets.QApplication.sendEvent(vp, ev)


def test_dragging_a_point_updates_the_margin_live(qtbot, window):
    load(window, Dataset([[-1.0, 0.0], [1.0, 0.0]], [-1, 1]))
    window.canvas.getViewBox().setRange(xRange=(-3, 3), yRange=(-3, 3), padding=0)
    ws = window.workspace
    g0 = ws.novikoff.margin
    canvas, left, none = window.canvas, QtCore.Qt.LeftButton, QtCore.Qt.NoButton
    start, end = canvas.data_to_widget(1.0, 0.0), canvas.data_to_widget(2.0, 0.0)
    _mouse(canvas, QtCore.QEvent.MouseMove, start, none, none)
    _mouse(canvas, QtCore.QEvent.MouseButtonPress, start, left, left)
    seen = []
    for i in range(1, 6):
        _mouse(canvas, QtCore.QEvent.MouseMove, start + (end - start) * (i / 5), left, left)
        seen.append(ws.max_margin.margin)
    _mouse(canvas, QtCore.QEvent.MouseButtonRelease, end, left, none)
    assert seen == sorted(seen) and seen[-1] > seen[0]  # the margin grew under the cursor
    assert seen[-1] == pytest.approx(1.5, abs=0.05)
    assert ws.novikoff.margin != g0
    assert window.undo_stack.count() == 2  # the load, and one drag
    window.actionUndo.trigger()
    np.testing.assert_array_equal(ws.dataset.X, [[-1.0, 0.0], [1.0, 0.0]])


def test_readouts_equal_the_core(qtbot, window):
    ds = generators.separable(30, seed=3, margin=0.2)
    load(window, ds)
    window.actionRunToEnd.trigger()
    qtbot.waitUntil(lambda: window.workspace.finished, timeout=10_000)
    # the bound is the theory worker's: computed in the background, later on a busy machine
    qtbot.waitUntil(lambda: not window.theory_worker.busy, timeout=30_000)
    window.readouts.refresh()
    values = window.readouts.values()
    core = PrimalPerceptron(random_state=0).fit(ds.X, ds.y)
    assert values["k"] == str(core.n_updates_)
    nov = theory.novikoff(ds.X, ds.y)
    assert values["bound"] == window.workspace.readouts().bound_text
    assert f"{nov.bound:.2f}" in values["bound"]


def test_speed_slider_maps_log_scale(window):
    assert speed_from_slider(0) == pytest.approx(0.5)
    assert speed_from_slider(100) == pytest.approx(5000.0)
    assert slider_from_speed(speed_from_slider(37)) == 37
    window.speedSlider.setValue(slider_from_speed(10.0))
    assert window.playback.speed == pytest.approx(10.0, rel=0.05)
    assert window.playback.play_timer.interval() == round(1000 / window.playback.speed)


def test_settings_restore_the_speed(qtbot):
    first = MainWindow()
    qtbot.addWidget(first)
    first.speedSlider.setValue(77)
    first.close()
    second = MainWindow()
    qtbot.addWidget(second)
    assert second.speedSlider.value() == 77


def test_undo_of_an_edit_restores_the_run_position(qtbot, window):
    load(window, generators.separable(20, seed=3, margin=0.3))
    ws = window.workspace
    for _ in range(3):
        window.actionStep.trigger()
    step, coef = ws.step_count, ws.learner.coef_.copy()
    click(qtbot, window, 0.0, 4.0)
    assert ws.step_count == 0
    window.actionUndo.trigger()
    assert ws.step_count == step and np.array_equal(ws.learner.coef_, coef)


def test_an_edit_guard_can_cancel_an_edit(qtbot, window):
    window.edit_guards.append(lambda edit: False)
    click(qtbot, window, 1.0, 1.0)
    assert window.workspace.dataset.n == 0 and window.undo_stack.count() == 0


@pytest.mark.parametrize("views", [False, True])
def test_every_control_has_an_accessible_name_and_a_tooltip(qtbot, window, views):
    # a screen reader says what each control is and does; Qt's own parts of
    # composite widgets (a dock's buttons, a spin box's line edit) are named by Qt
    window.set_views_visible(views)
    window.docks["updateLog"].show()
    QtWidgets.QApplication.processEvents()
    kinds = (QtWidgets.QAbstractButton, QtWidgets.QComboBox, QtWidgets.QAbstractSlider,
             QtWidgets.QAbstractSpinBox, QtWidgets.QLineEdit, QtWidgets.QAbstractItemView)
    missing = []
    checked = 0
    for control in window.findChildren(QtWidgets.QWidget):
        if (not isinstance(control, kinds)
                or isinstance(control, (QtWidgets.QScrollBar, QtWidgets.QHeaderView))
                or control.objectName().startswith("qt_") or not control.isVisibleTo(window)):
            continue
        checked += 1
        action = control.defaultAction() if isinstance(control, QtWidgets.QToolButton) else None
        name = control.accessibleName() or (
            control.text() if isinstance(control, QtWidgets.QAbstractButton) else "")
        tip = control.toolTip() or (action.toolTip() if action is not None else "")
        if not name.strip() or not tip.strip():
            missing.append((type(control).__name__, control.objectName(), name, tip))
    assert checked > 20
    assert missing == []


@pytest.mark.serial  # timing: the run must end within one 15 ms slice
def test_a_run_that_ends_within_its_first_slice_shows_no_progress(qtbot, window):
    from perceptron_gui.core.learners import warmup

    warmup.warm_up()  # compiled first, as the application's warm-up does: alone, the
    # test would time the compilation in the first slice
    load(window, generators.separable(40, seed=2, margin=0.2))
    shown = []
    progress = window.playback.progress
    original = progress.setVisible
    progress.setVisible = lambda on: (shown.append(on), original(on))[1]
    window.actionRunToEnd.trigger()
    assert window.workspace.finished  # at once: the first slice runs in the action
    assert not window.playback.running_to_end and shown == []
    assert not progress.isVisible() and "Converged" in window.statusBar().currentMessage()
    assert not window.actionRunToEnd.isEnabled() and window.actionStepBack.isEnabled()


def test_a_long_run_shows_its_progress_and_goes_on_in_slices(qtbot, window, monkeypatch):
    from perceptron_gui.ui import playback

    monkeypatch.setattr(playback, "RUN_SLICE_SECONDS", 0.0)  # one update per slice
    load(window, generators.separable(5000, seed=2, margin=0.01))
    window.actionRunToEnd.trigger()
    ws = window.workspace
    assert window.playback.running_to_end and window.playback.progress.isVisible()
    first = ws.step_count
    assert 0 < first and window.actionCancel.isEnabled()
    qtbot.waitUntil(lambda: ws.finished, timeout=20_000)
    assert ws.step_count > first and not window.playback.progress.isVisible()
    assert window.playback.progress_label.text().startswith(f"epoch {ws.learner.n_epochs_:,}")


@pytest.mark.serial  # timing: redraws per second of a run
def test_a_long_run_redraws_the_canvas_a_few_times_a_second(qtbot, window, monkeypatch):
    from perceptron_gui.ui import playback

    monkeypatch.setattr(playback, "RUN_SLICE_SECONDS", 0.005)
    ws, canvas = load_long_kernel_run(window), window.canvas
    ws.set_params(max_iter=1)  # one epoch of the long run: still seconds of slices
    redraws, slices = [], []
    original = canvas._update_model
    canvas._update_model = lambda: (redraws.append(time.perf_counter()), original())
    ws.events.run_changed.connect(lambda *_: slices.append(time.perf_counter()))
    window.actionRunToEnd.trigger()
    qtbot.waitUntil(lambda: ws.finished, timeout=120_000)
    ended = slices[-1]  # the last step's announcement
    qtbot.waitUntil(lambda: redraws and redraws[-1] >= ended, timeout=5_000)
    during = [t for t in redraws if slices[0] < t < ended]
    run_s = ended - slices[0]
    assert run_s > 4 * playback.RUN_REDRAW_SECONDS and len(slices) > 40
    # the picture follows the run (the slices never starve a redraw) ...
    assert len(during) >= run_s / playback.RUN_REDRAW_SECONDS / 3
    # ... but not after every slice: at most once per RUN_REDRAW_SECONDS (a
    # coarse timer may fire 5 % early)
    assert min(np.diff(during)) >= 0.95 * playback.RUN_REDRAW_SECONDS
    assert len(during) <= run_s / (0.95 * playback.RUN_REDRAW_SECONDS) + 1
    # the finished run is drawn at once, and the bar shows its last epoch
    assert redraws[-1] - ended < playback.RUN_REDRAW_SECONDS
    i = ws.current_event.index
    highlight = canvas.layer("examined").items["highlight"]
    np.testing.assert_allclose(highlight.getData()[0], ws.dataset.X[[i], 0])
    progress, n = window.playback.progress, ws.dataset.n
    into = ws.step_count - (ws.learner.n_epochs_ - 1) * n
    qtbot.waitUntil(lambda: progress.value() == 1000 * into // n)
    assert progress.text() == f"{100 * into // n}% of epoch {ws.learner.n_epochs_}"


def test_cancel_says_where_the_run_paused_in_readable_numbers(qtbot, window):
    ws = load_long_kernel_run(window)
    window.actionRunToEnd.trigger()
    qtbot.waitUntil(lambda: ws.step_count >= 1_000, timeout=120_000)
    window.actionCancel.trigger()
    assert not window.playback.running_to_end and not ws.finished
    assert window.statusBar().currentMessage() == (
        f"Cancelled at step {ws.step_count:,}: the run is paused there.")
    assert "," in f"{ws.step_count:,}"


def test_a_slice_that_raises_ends_the_run_and_gives_the_controls_back(qtbot, window,
                                                                      monkeypatch):
    ws = load_long_kernel_run(window)
    window.actionRunToEnd.trigger()
    assert window.playback.running_to_end

    def fail(seconds):
        raise RuntimeError("a learner failed mid-run")

    monkeypatch.setattr(ws, "advance_for", fail)
    errors = []
    monkeypatch.setattr(sys, "excepthook", lambda *exc: errors.append(exc[1]))
    qtbot.waitUntil(lambda: not window.playback.running_to_end, timeout=5_000)
    assert [str(e) for e in errors] == ["a learner failed mid-run"]
    assert window.actionStep.isEnabled() and not window.actionCancel.isEnabled()
    assert not window.playback.progress.isVisible()


def test_closing_the_window_ends_a_run_to_the_end(qtbot, window):
    load_long_kernel_run(window)
    window.actionRunToEnd.trigger()
    assert window.playback.running_to_end
    window.playback.shutdown()
    assert not window.playback.running_to_end and not window.playback.run_timer.isActive()


def test_a_drag_on_many_points_applies_its_newest_move_in_a_later_pass(qtbot, window):
    # at 10⁶ points a move restarts the run on every point (about 50 ms): applied
    # inside each mouse event, a move and the redraws it caused shared one pass of
    # the event loop (0.1-0.2 s); now a timer applies the newest move, the redraws
    # in passes of their own, and the last one when the drag ends
    data = generators.separable(25_000, seed=0, margin=0.1)  # > scale.LARGE_N
    window.push_edit(ReplaceAll.from_dataset(data))
    ws, tool = window.workspace, window.canvas.tool
    before, steps = ws.dataset, window.undo_stack.count()
    start = before.X[0].copy()
    changes = []
    ws.events.dataset_changed.connect(changes.append)
    try:
        assert tool.drag_start(tuple(start), window.canvas.pixel_size())
        for k in range(1, 4):
            tool.drag_move(tuple(start + 0.01 * k))
        assert ws.dataset is before  # not inside the events
        qtbot.waitUntil(lambda: len(changes) == 1)
        assert np.array_equal(ws.dataset.X[0], start + 0.03)  # the newest move only
        tool.drag_move(tuple(start + 0.04))
        tool.drag_finish(tuple(start + 0.05))
        assert np.array_equal(ws.dataset.X[0], start + 0.05)  # the drop, at once
        assert window.undo_stack.count() == steps + 1  # one undo step
        window.undo_stack.undo()
        assert ws.dataset == before
    finally:
        ws.events.dataset_changed.disconnect(changes.append)
