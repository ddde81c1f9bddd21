"""The exercise mode driven by tests: predict the updates, be the learner, the levels."""

from __future__ import annotations

import pytest
from PySide6 import QtCore

from perceptron_gui.core.exercises import LEVELS, attempt_of
from perceptron_gui.core.game import game_of


def _next_update(ws):
    """The oracle: the run's own next update."""
    here = ws.step_count
    event = ws.step_update()
    ws.seek(here)
    return event


def _answer_esc(monkeypatch, button: str) -> list:
    """Esc asks before leaving a level: answer ``button``; the questions asked are listed."""
    from PySide6 import QtWidgets

    from perceptron_gui.ui import errors

    asked = []

    def ask(parent, title, text, buttons, default=None):
        asked.append((title, text))
        return QtWidgets.QMessageBox.StandardButton[button]

    monkeypatch.setattr(errors, "ask", ask)
    return asked


def test_predict_level_marks_answers_and_is_passed_and_remembered(qtbot, window, monkeypatch):
    ui = window.exercises
    window.actions["exercise_predict_wide"].trigger()
    assert window.modes.is_active("exercise") and attempt_of(window.workspace) is not None
    assert not window.side_panel.sections["learner"].isVisible()
    ws, panel = window.workspace, ui.panel
    assert ws.params["fit_intercept"] is False and ws.dataset.n == 10
    truth = _next_update(ws)
    panel.sample.setValue(truth.index + 2 if truth.index + 2 <= 10 else 1)  # the wrong point
    panel.check.click()
    assert panel.result.text().startswith("Not that point: the update came from point "
                                          f"{truth.index + 1}.")
    assert panel.score.text() == "0 of 1 right."
    assert ws.step_count == truth.step  # the update is shown
    with qtbot.waitSignal(ui.passed, timeout=5000) as passed:
        for _ in range(3):
            t = _next_update(ws)
            panel.sample.setValue(t.index + 1)
            panel.w1.setValue(t.w_after[0])
            panel.w2.setValue(t.w_after[1])
            panel.b.setValue(t.b_after)
            panel.check.click()
            assert panel.result.text().startswith("Right point")
    assert passed.args == ["predict-wide"]
    assert "Level passed!" in panel.score.text()
    assert QtCore.QSettings().value("exercises/passed") in (["predict-wide"], "predict-wide")
    assert window.actions["exercise_predict_wide"].isChecked()
    _answer_esc(monkeypatch, "Yes")
    qtbot.keyClick(window, QtCore.Qt.Key.Key_Escape)
    assert not window.modes.is_active("exercise") and attempt_of(window.workspace) is None
    window.actions["exercise_reset"].trigger()
    assert not window.actions["exercise_predict_wide"].isChecked()
    assert ui.progress.passed == ()


def test_a_level_hides_what_would_show_the_next_update_before_it_is_predicted(qtbot, window):
    forward = ("step", "step_sample", "step_epoch", "play", "run_to_end")
    timeline = window.toolbars["timeline"]
    assert timeline.isVisible() and all(window.actions[k].isVisible() for k in forward)
    window.actions["exercise_predict_wide"].trigger()
    assert not any(window.actions[k].isVisible() for k in forward)
    assert not timeline.isVisible()  # its end is the update the student predicts
    step = window.workspace.step_count
    qtbot.keyClick(window.canvas, QtCore.Qt.Key.Key_Space)  # Play's key does nothing
    assert window.workspace.step_count == step and not window.playback.playing
    now = window.side_panel.sections["now"]
    assert now.isVisible()
    window.actions["exercise_learner_wide"].trigger()  # another kind: the timeline is back
    assert timeline.isVisible() and not window.actions["run_to_end"].isVisible()
    # "Training error 100 %" of the perceptron at w = 0 beside the student's line: hidden
    assert not now.isVisible() and not window.side_panel.sections["bound"].isVisible()
    window.exercises.leave()
    assert now.isVisible()
    assert timeline.isVisible() and all(window.actions[k].isVisible() for k in forward)


def test_be_the_learner_scores_the_line_and_shows_the_maximum_margin(qtbot, window):
    ui = window.exercises
    window.actions["exercise_learner_wide"].trigger()
    ws, panel = window.workspace, ui.panel
    assert panel.learner_box.isVisibleTo(window) and not panel.predict_box.isVisibleTo(window)
    window.settle()
    assert window.canvas.layer("exercise").items["line"].isVisible()  # drawn at once
    panel.set_line(210.0, 0.0)  # surely not the best
    panel.score_button.click()
    assert "largest" in panel.result.text() and window.view_state.layer("max_margin")
    assert ui.progress.passed == ()
    best = ws.max_margin
    import math

    norm = math.hypot(*best.coef)
    with qtbot.waitSignal(ui.passed, timeout=5000):
        panel.set_line(math.degrees(math.atan2(best.coef[1], best.coef[0])),
                       best.intercept / norm)
        panel.score_button.click()
    assert "(100" in panel.result.text()


def test_data_edits_wait_while_a_level_is_tried(qtbot, window, ):
    window.actions["exercise_learner_wide"].trigger()
    n = window.workspace.dataset.n
    # empty space: away from the points and from the line's handles (a click on a handle
    # is the handle's, not a new point)
    handles = window.canvas.layer("exercise").handles
    taken = [tuple(p) for p in window.workspace.dataset.X.tolist()] + [
        (q.x(), q.y()) for q in (handles.anchor.pos(), handles.head.pos())]
    spot = max(((x / 2, y / 2) for x in range(-6, 7) for y in range(-6, 7)),
               key=lambda c: min((c[0] - a) ** 2 + (c[1] - b) ** 2 for a, b in taken))
    pos = window.canvas.data_to_widget(*spot).toPoint()
    with qtbot.waitSignal(window.errorReported, timeout=5000) as blocker:
        qtbot.mouseClick(window.canvas.viewport(), QtCore.Qt.MouseButton.LeftButton, pos=pos)
    assert "The data are the level's" in blocker.args[0] and window.workspace.dataset.n == n


@pytest.mark.parametrize("level", [lv for lv in LEVELS if lv.kind == "game"],
                         ids=lambda lv: lv.key)
def test_a_game_level_is_passed_by_ending_the_game_with_enough_mistakes(qtbot, window, level):
    ui = window.exercises
    window.exercises.start(level.key)
    game = game_of(window.workspace)
    assert game is not None and window.modes.is_active("game")
    window.game.reveal_ms = 0
    while (x := game.adversary_move()) is not None:
        with qtbot.waitSignal(window.game.revealed, timeout=5000):
            window.game.propose(x)
    with qtbot.waitSignal(ui.passed, timeout=5000):
        window.actions["play_end_game"].trigger()
    assert game.mistakes >= level.target


def test_leaving_the_levels_gives_back_the_data_settings_and_view_from_before(qtbot, window,
                                                                            monkeypatch):
    from perceptron_gui.core import generators
    from perceptron_gui.core.commands import EditData, SetLayers, SetViewRect, SetWeights
    from perceptron_gui.core.dataset import ReplaceAll

    ws = window.workspace
    window.dispatch(EditData(ReplaceAll.from_dataset(generators.separable(30, seed=4))))
    window.dispatch(SetWeights((1.0, -0.5), 0.25))
    for _ in range(2):
        ws.step_update()
    window.dispatch(SetLayers({"radius": True}))
    window.dispatch(SetViewRect((-9.0, 9.0, -7.0, 7.0)))
    data, learner, params, step = ws.dataset, ws.learner_name, ws.all_params(), ws.step_count
    layers, rect = window.view_state.layers(), window.view_state.rect
    changes = [lv for lv in LEVELS if lv.kind != "game" and lv.params]  # a learner, an order…
    for lv in (changes[0], changes[-1]):
        window.actions[f"exercise_{lv.key.replace('-', '_')}"].trigger()
        assert ws.dataset is not data and attempt_of(ws).level is lv
    assert ws.all_params() != params
    _answer_esc(monkeypatch, "Yes")
    qtbot.keyClick(window, QtCore.Qt.Key.Key_Escape)
    assert not window.modes.is_active("exercise")
    assert ws.dataset is data and ws.learner_name == learner and ws.all_params() == params
    assert ws.step_count == step and ws.start[0].tolist() == [1.0, -0.5]
    assert window.view_state.layers() == layers and window.view_state.rect == rect


def test_a_predict_level_numbers_its_points_and_asks_no_b_without_a_bias(qtbot, window):
    level = next(lv for lv in LEVELS if lv.kind == "predict"
                 and lv.params.get("fit_intercept") is False)
    window.actions[f"exercise_{level.key.replace('-', '_')}"].trigger()
    window.canvas.refresh()
    panel, ws = window.exercises.panel, window.workspace
    assert not panel.b.isVisible() and panel.w1.isVisible()
    numbers = window.canvas.layer("exercise").numbers
    shown = [(item.toPlainText(), item.pos().x(), item.pos().y())
             for item in numbers if item.isVisible()]
    assert shown == [(str(i + 1), x, y) for i, (x, y) in enumerate(ws.dataset.X.tolist())]
    biased = next(lv for lv in LEVELS if lv.kind == "predict"
                  and lv.params.get("fit_intercept") is not False)
    window.actions[f"exercise_{biased.key.replace('-', '_')}"].trigger()
    assert panel.b.isVisible()
    window.exercises.leave()
    window.canvas.refresh()
    assert not any(item.isVisible() for item in numbers)


def test_esc_asks_before_leaving_a_level(qtbot, window, monkeypatch):
    window.actions["exercise_predict_wide"].trigger()
    data = window.workspace.dataset
    asked = _answer_esc(monkeypatch, "Cancel")
    qtbot.keyClick(window, QtCore.Qt.Key.Key_Escape)
    assert len(asked) == 1 and asked[0][0] == "Leave the level?"
    assert window.modes.is_active("exercise") and window.workspace.dataset is data
    _answer_esc(monkeypatch, "Yes")
    qtbot.keyClick(window, QtCore.Qt.Key.Key_Escape)
    assert not window.modes.is_active("exercise") and window.workspace.dataset is not data


def test_the_level_bar_numbers_the_levels_scores_attempts_and_keeps_them(qtbot, window,
                                                                         monkeypatch):
    from perceptron_gui.ui import settings

    ui = window.exercises
    bar = window.toolbars["levels"]
    assert not bar.isVisible()
    assert [b.text() for b in bar.buttons] == [str(i) for i in range(1, len(LEVELS) + 1)]
    first = LEVELS[0]
    qtbot.mouseClick(bar.buttons[0], QtCore.Qt.MouseButton.LeftButton)
    assert bar.isVisible() and attempt_of(window.workspace).level is first
    # the level tried is marked in bold, not only by a pressed look faint in some styles
    assert [b.font().bold() for b in bar.buttons] == [True] + [False] * (len(LEVELS) - 1)
    top = window.canvas.mapTo(window, QtCore.QPoint(0, 0)).y()
    assert bar.goal.isVisible() and bar.goal.mapTo(window, QtCore.QPoint(0, 0)).y() < top
    assert bar.goal.text() == f"1. {first.title}: {first.goal}"
    assert not bar.hint.isVisible()
    bar.hint_action.trigger()
    assert bar.hint.isVisible() and bar.hint.text() == f"Hint: {first.hint}"
    assert bar.score.text().strip() == "Attempt 1 · no score yet"
    assert bar.progress.text().strip() == f"0 of {len(LEVELS)} levels passed"
    ws, panel = window.workspace, ui.panel
    t = _next_update(ws)
    panel.sample.setValue(t.index + 1)
    panel.w1.setValue(t.w_after[0])
    panel.w2.setValue(t.w_after[1])
    panel.b.setValue(t.b_after)
    panel.check.click()
    assert bar.score.text().strip() == f"Attempt 1 · best {first.score_text(1)}"
    qtbot.mouseClick(bar.buttons[0], QtCore.Qt.MouseButton.LeftButton)  # again: attempt 2
    assert bar.score.text().strip() == f"Attempt 2 · best {first.score_text(1)}"
    # kept in the settings: a new window (the same student on this machine) reads them
    assert settings.value("exercises/attempts", "json") == {first.key: 2}
    assert settings.value("exercises/best", "json") == {first.key: 1.0}
    ui.start(LEVELS[2].key)
    assert [b.font().bold() for b in bar.buttons] == [i == 2 for i in range(len(LEVELS))]
    _answer_esc(monkeypatch, "Yes")
    qtbot.keyClick(window, QtCore.Qt.Key.Key_Escape)
    assert not bar.isVisible()


def test_the_multiclass_level_asks_the_point_and_the_class_that_loses_x(qtbot, window):
    ui = window.exercises
    window.actions["exercise_predict_multiclass"].trigger()
    ws, panel = window.workspace, ui.panel
    assert ws.multiclass and ws.running and ws.dataset.n == 18
    # the class asked instead of w and b; every point numbered, no line to drag
    assert panel.rival.isVisible() and not panel.w1.isVisible() and not panel.b.isVisible()
    assert [panel.rival.itemText(i) for i in range(3)] == ["left", "middle", "right"]
    window.canvas.refresh()
    layer = window.canvas.layer("exercise")
    assert sum(item.isVisible() for item in layer.numbers) == 18
    assert not layer.items["line"].isVisible()
    assert not layer.handles.head.isVisible() and not layer.handles.anchor.isVisible()
    window.essentials.refresh()
    assert window.essentials.texts()["update"].replace("\xa0", " ") == \
        "No update yet: every wₖ = 0"
    learner = ws.learner
    truth = _next_update(ws)
    rival = learner.update_terms(truth)[4]
    panel.sample.setValue(truth.index + 1)
    panel.rival.setCurrentIndex((rival + 1) % 3)  # the wrong class
    panel.check.click()
    assert panel.result.text() == (
        f"Right point: the update came from point {truth.index + 1}. Not that class: "
        f"{panel.rival.itemText(rival)} scored as much, so its w lost x̃.")
    assert panel.score.text() == "0 of 1 right." and ws.step_count == truth.step
    with qtbot.waitSignal(ui.passed, timeout=5000) as passed:
        for _ in range(3):
            t = _next_update(ws)
            panel.sample.setValue(t.index + 1)
            panel.rival.setCurrentIndex(learner.update_terms(t)[4])
            panel.check.click()
            assert panel.result.text().startswith("Right point") and "Right class" in \
                panel.result.text()
    assert passed.args == ["predict-multiclass"]
    window.exercises.leave()
    assert not window.modes.is_active("exercise")
