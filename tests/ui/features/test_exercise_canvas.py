"""Exercises played on the canvas: click the point, drag the predicted w and the line.

Every level is played wrong (not passed) and right (passed) through the
window, the right answers coming from the run itself (the oracle) or from
the maximum-margin solver; the passes are remembered in the settings and a
teacher's reset forgets them.
"""

from __future__ import annotations

import math

import numpy as np
import pytest
from PySide6 import QtCore

from perceptron_gui.core.exercises import LEVELS, attempt_of
from perceptron_gui.core.game import game_of
from tests.ui.features.mouse import drag


def _next_update(ws):
    """The oracle: the run's own next update."""
    here = ws.step_count
    event = ws.step_update()
    ws.seek(here)
    return event


def _xy(p):
    return (p.x(), p.y())


def click_point(qtbot, window, index):
    """A left click on the data point ``index``, as the student makes it."""
    x, y = window.workspace.dataset.X[index]
    pos = window.canvas.data_to_widget(float(x), float(y)).toPoint()
    qtbot.mouseClick(window.canvas.viewport(), QtCore.Qt.MouseButton.LeftButton, pos=pos)


def drag_line_to(window, w, b, translate=True):
    """Drag the exercise's handles so that the line is ``w·x + b = 0``: w's head first
    (the line turns about its handle), then the handle on the line onto the target line."""
    canvas = window.canvas
    handles = canvas.layer("exercise").handles
    w = np.asarray(w, dtype=float)
    drag(canvas, _xy(handles.head.pos()), tuple(w))
    if translate:
        a = np.array(_xy(handles.anchor.pos()))
        target = a - (w @ a + b) / (w @ w) * w  # the nearest point of the target line
        drag(canvas, tuple(a), tuple(target))


def _pixel(window):
    return max(window.canvas.pixel_size())


def answer_on_the_canvas(qtbot, window, right=True):
    """Answer the next update on the canvas: the point clicked, w (and b) dragged."""
    ws, panel = window.workspace, window.exercises.panel
    t = _next_update(ws)
    if attempt_of(ws).predict.asks_rival:  # m classes: the point clicked, the class chosen
        index = t.index if right else (t.index + 1) % ws.dataset.n
        click_point(qtbot, window, index)
        assert panel.sample.value() == index + 1 and attempt_of(ws).chosen == index
        rival = ws.learner.update_terms(t)[4]
        panel.rival.setCurrentIndex(rival if right else (rival + 1) % panel.rival.count())
        panel.check.click()
        return
    w, b = np.asarray(t.w_after, float), float(t.b_after)
    bias = bool(ws.params["fit_intercept"])
    if not right:
        w, b = -w - 1.0, b + 1.0 if bias else 0.0
    if t.index >= 0:
        index = t.index if right else (t.index + 1) % ws.dataset.n
        click_point(qtbot, window, index)
        assert panel.sample.value() == index + 1  # the panel follows the click
        assert attempt_of(ws).chosen == index
    drag_line_to(window, w, b, translate=bias)
    tol = 3 * _pixel(window) * max(1.0, float(np.abs(w).max()))
    assert abs(panel.w1.value() - w[0]) < tol and abs(panel.w2.value() - w[1]) < tol
    assert abs(panel.b.value() - b) < tol
    panel.check.click()


def test_predict_the_point_by_a_click_and_w_by_a_drag(qtbot, window):
    ui = window.exercises
    window.actions["exercise_predict_wide"].trigger()
    window.settle()
    ws, panel, layer = window.workspace, ui.panel, window.canvas.layer("exercise")
    n = ws.dataset.n
    t = _next_update(ws)
    click_point(qtbot, window, t.index)
    window.settle()
    assert panel.sample.value() == t.index + 1 and ws.dataset.n == n  # selected, no edit
    label = layer.items["chosen_label"]
    assert label.isVisible() and label.textItem.toPlainText() == \
        f"your answer: point {t.index + 1}"
    assert layer.handles.head.isVisible() and not layer.handles.anchor.isVisible()  # no bias
    # typing moves the predicted w on the canvas: the handle follows the boxes
    panel.w1.setValue(1.5)
    panel.w2.setValue(-0.5)
    window.settle()
    np.testing.assert_allclose(_xy(layer.handles.head.pos()), (1.5, -0.5))
    assert layer.items["line"].isVisible()
    # the right answer dragged: marked right, then the update is shown
    with qtbot.waitSignal(ui.passed, timeout=5000):
        for _ in range(3):
            answer_on_the_canvas(qtbot, window)
            assert panel.result.text().startswith("Right point: the update came from point")
            assert "Right: w = " in panel.result.text()
    assert panel.score.text().startswith("3 of 3 right. Level passed!")
    assert window.undo_stack.count() == 0 and ws.dataset.n == n  # no edit was made


def test_be_the_learner_by_dragging_the_line(qtbot, window):
    ui = window.exercises
    window.actions["exercise_learner_wide"].trigger()
    window.settle()
    ws, panel, layer = window.workspace, ui.panel, window.canvas.layer("exercise")
    assert layer.handles.head.isVisible() and layer.handles.anchor.isVisible()
    best = ws.max_margin
    coef = np.asarray(best.coef, float)
    unit = coef / np.linalg.norm(coef)
    drag_line_to(window, 1.5 * unit, 1.5 * best.intercept / np.linalg.norm(coef))
    window.settle()
    # the panel's boxes followed the drag
    assert panel.angle.value() == pytest.approx(math.degrees(math.atan2(unit[1], unit[0])),
                                                abs=1.0)
    assert panel.offset.value() == pytest.approx(best.intercept / np.linalg.norm(coef),
                                                 abs=0.05)
    line = attempt_of(ws).line
    assert np.hypot(line[0], line[1]) == pytest.approx(1.5, abs=0.05)
    with qtbot.waitSignal(ui.passed, timeout=5000):
        panel.score_button.click()
    assert "Your margin is" in panel.result.text()
    # a box typed moves the line on the canvas, the handles with it
    panel.angle.setValue(panel.angle.value() + 90.0)
    window.settle()
    head = np.array(_xy(layer.handles.head.pos()))
    assert math.degrees(math.atan2(head[1], head[0])) == pytest.approx(panel.angle.value(),
                                                                       abs=0.5)


def _play(qtbot, window, level, right):
    """Play ``level`` through the window, right or wrong; returns whether it passed."""
    ui = window.exercises
    ui.start(level.key)
    window.settle()
    passed = []
    ui.passed.connect(passed.append)
    if level.kind == "predict":
        for _ in range(int(level.target)):
            answer_on_the_canvas(qtbot, window, right)
    elif level.kind == "learner":
        ws = window.workspace
        best = ws.max_margin
        norm = float(np.linalg.norm(best.coef))
        w = np.asarray(best.coef, float) / norm
        b = best.intercept / norm
        if not right:  # parallel, through the margin's edge: a point on the line
            b = b + 0.9 * best.margin
        drag_line_to(window, w, b)
        ui.panel.score_button.click()
    else:
        game = game_of(window.workspace)
        window.game.reveal_ms = 0
        moves = 0
        while (x := game.adversary_move()) is not None and (right or moves < 2):
            with qtbot.waitSignal(window.game.revealed, timeout=5000):
                window.game.propose(x)
            moves += 1
        window.actions["play_end_game"].trigger()
    ui.passed.disconnect(passed.append)
    return passed == [level.key]


def test_every_level_fails_played_wrong_and_passes_played_right(qtbot, window):
    from perceptron_gui.ui.main_window import MainWindow

    ui = window.exercises
    for level in LEVELS:
        assert not _play(qtbot, window, level, right=False), level.key
        assert level.key not in ui.progress.passed
        assert not window.actions[f"exercise_{level.key.replace('-', '_')}"].isChecked()
        assert _play(qtbot, window, level, right=True), level.key
        assert window.actions[f"exercise_{level.key.replace('-', '_')}"].isChecked()
    keys = [lv.key for lv in LEVELS]
    assert list(ui.progress.passed) == keys
    # remembered in the settings: a new window ticks them all
    again = MainWindow()
    qtbot.addWidget(again)
    assert list(again.exercises.progress.passed) == keys
    assert all(again.actions[f"exercise_{k.replace('-', '_')}"].isChecked() for k in keys)
    # the teacher's reset forgets them, in the settings too
    again.actions["exercise_reset"].trigger()
    assert not any(again.actions[f"exercise_{k.replace('-', '_')}"].isChecked() for k in keys)
    assert QtCore.QSettings().value("exercises/passed") in ([], None, "")



def _holds_the_next_answers(window) -> bool:
    """Whether the view holds the disk of every w the next update can make."""
    ws = window.workspace
    X = ws.dataset.X
    w = np.asarray(ws.weights()[0], float)
    r = math.hypot(*w) + float(ws.params["eta0"]) * float(np.max(np.hypot(X[:, 0], X[:, 1])))
    (x0, x1), (y0, y1) = window.canvas.view_rect()
    return x0 <= -r and x1 >= r and y0 <= -r and y1 >= r


def test_the_view_frames_the_answers_only_while_answering(qtbot, window):
    """While a question is open the view holds every w the update can make (to be dragged);
    once the level is passed it is the data's own frame again, not zoomed out."""
    ui = window.exercises
    window.actions["exercise_predict_wide"].trigger()
    window.settle()
    canvas = window.canvas
    assert _holds_the_next_answers(window)
    with qtbot.waitSignal(ui.passed, timeout=5000):
        for k in range(3):
            answer_on_the_canvas(qtbot, window)
            window.settle()
            if k < 2:
                assert _holds_the_next_answers(window), k
    shown = canvas.view_rect()
    assert not _holds_the_next_answers(window)  # the data's frame is smaller than w's reach
    canvas.fit_view()
    assert canvas.view_rect() == shown  # passed: the data's own frame
