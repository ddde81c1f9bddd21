"""The status bar: a long message is elided (whole in the tooltip); notices go with their state."""

from __future__ import annotations

from perceptron_gui.core import generators
from perceptron_gui.core.dataset import AddPoints, ReplaceAll
from perceptron_gui.ui.widgets.status_bar import StatusBar

LONG = ("Fisher's iris, setosa vs versicolor by the sepals: separable with a tiny margin "
        "(γ = 0.052, R = 7.76), so Novikoff's bound is 22,134 updates, while the perceptron "
        "converges after 1,562 updates (721 epochs); " * 2)
RESTARTED = "The data changed: training restarted from w = 0."


def test_a_long_message_is_elided_and_whole_in_the_tooltip(qtbot, window):
    bar = window.statusBar()
    assert isinstance(bar, StatusBar)
    window.show_message(LONG)
    room = bar.message_rect()
    shown = bar.shown_text()
    assert shown.endswith("…") and shown[:-1] and LONG.startswith(shown[:-1])
    assert bar.fontMetrics().horizontalAdvance(shown) <= room.width()
    assert room.right() < bar.width() and room.width() > 200
    assert bar.toolTip() == LONG
    window.show_message("Short.")
    assert bar.shown_text() == "Short." and bar.toolTip() == ""


def test_the_message_ends_left_of_the_permanent_widgets(qtbot, window):
    bar = window.statusBar()
    widgets = window.playback.status_widgets()
    for w in widgets:
        w.setVisible(True)
    qtbot.waitUntil(lambda: all(w.isVisible() for w in widgets))
    window.show_message(LONG)
    assert bar.message_rect().right() < min(w.x() for w in widgets)
    for w in widgets:
        w.setVisible(False)
    qtbot.waitUntil(lambda: bar.message_rect().right() > min(w.x() for w in widgets))


def converge(window) -> str:
    ws = window.workspace
    assert window.push_edit(ReplaceAll.from_dataset(generators.separable(20, seed=1), "data"))
    while ws.can_step:
        ws.step_update()
    return window.statusBar().currentMessage()


def test_converged_goes_when_the_data_is_replaced(qtbot, window):
    assert converge(window).startswith("Converged:")
    assert window.push_edit(ReplaceAll.from_dataset(generators.overlapping(30, seed=2), "new"))
    # the notice of the new state replaces the one of the old
    assert window.statusBar().currentMessage() == RESTARTED


def test_converged_goes_when_the_run_steps_back(qtbot, window):
    assert converge(window).startswith("Converged:")
    window.workspace.step_back()
    assert window.statusBar().currentMessage() == ""


def test_converged_goes_when_the_learner_changes(qtbot, window):
    assert converge(window).startswith("Converged:")
    window.workspace.set_params(eta0=0.5)
    assert window.statusBar().currentMessage() == ""


def test_training_restarted_goes_after_undo(qtbot, window):
    ws = window.workspace
    assert window.push_edit(ReplaceAll.from_dataset(generators.overlapping(30, seed=2), "data"))
    for _ in range(5):
        ws.step()
    assert window.push_edit(AddPoints([[0.5, 0.5]], [1]))
    assert window.statusBar().currentMessage() == RESTARTED
    window.undo_stack.undo()
    assert window.statusBar().currentMessage() == ""


def test_other_messages_stay_through_a_data_edit(qtbot, window):
    window.show_message("Saved to a.json")
    assert window.push_edit(AddPoints([[0.5, 0.5]], [1]))
    assert window.statusBar().currentMessage() == "Saved to a.json"
