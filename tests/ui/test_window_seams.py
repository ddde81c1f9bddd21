"""The window's own seams: settle reaches every view, a new Esc action joins the
routing at once, and the data problem reaches the status bar through the
window's message sink.
"""

from __future__ import annotations

import pytest

from perceptron_gui.core.dataset import AddPoints, Dataset
from perceptron_gui.ui.actions import ActionSpec
from perceptron_gui.ui.modes import Mode, register_mode, unregister_mode
from perceptron_gui.ui.views import View, register_view, unregister_view
from perceptron_gui.ui.wording import problem_text


class CountingView(View):
    """A view that subscribes to nothing: only a direct refresh redraws it."""

    name = "counting"
    title = "Counting"

    def __init__(self, workspace, parent=None):
        self.seen: list = []  # the point counts it drew
        super().__init__(workspace, parent)

    def subscriptions(self, workspace) -> tuple:
        return ()

    def refresh(self) -> None:
        self.seen.append(self.workspace.dataset.n)


@pytest.fixture
def counting():
    register_view(CountingView)
    yield CountingView
    unregister_view("counting")


def test_settle_refreshes_every_view_of_the_views_area(counting, window):
    view = window.views.view("counting")
    window.workspace.apply_edit(AddPoints([[0.5, 0.5]], [1]))
    assert 1 not in view.seen  # nothing told it
    window.settle()
    assert view.seen[-1] == 1


class Lesson(Mode):
    """A mode defined here alone, which Esc leaves."""

    name = "lesson"
    esc = "leave_lesson"
    esc_priority = 12


def test_a_new_modes_esc_action_starts_disabled_and_goes_to_its_mode(window):
    register_mode(Lesson)
    try:
        leave = window.actions.make(ActionSpec("leave_lesson", "Leave the lesson",
                                               lambda: window.modes.leave("lesson"), ("Esc",)))
        assert not leave.isEnabled()  # no mode is on: Esc is nobody's
        window.modes.enter("lesson")
        assert leave.isEnabled() and window.modes.esc_owner() == "lesson"
        leave.trigger()
        assert not window.modes.is_active("lesson") and not leave.isEnabled()
    finally:
        unregister_mode("lesson")


def test_the_data_problem_goes_through_show_message(qtbot, monkeypatch):
    from perceptron_gui.ui.main_window import MainWindow

    shown: list = []
    real = MainWindow.show_message

    def spy(self, text, msecs=8000):
        shown.append((text, msecs))
        real(self, text, msecs)

    monkeypatch.setattr(MainWindow, "show_message", spy)
    win = MainWindow()
    qtbot.addWidget(win)
    ws, bar = win.workspace, win.statusBar()
    assert shown[0] == (problem_text(ws), 0) and shown[0][0]  # "No points yet ..."
    win.show_message(shown[0][0], 0)
    with qtbot.waitSignal(win.readouts.problemChanged, timeout=2000):
        ws.set_dataset(Dataset([[1.0, 2.0], [-1.0, -2.0]], [1, -1]))
        win.readouts.refresh()
    assert bar.currentMessage() == ""  # the problem went: its message too
    with qtbot.waitSignal(win.readouts.problemChanged, timeout=2000):
        ws.set_dataset(Dataset([[1.0, 2.0]], [1]))
        win.readouts.refresh()
    assert shown[-1] == (problem_text(ws), 0) and "Only class +1" in shown[-1][0]
    assert bar.currentMessage() == shown[-1][0]
    win.show_message("Saved.")
    with qtbot.waitSignal(win.readouts.problemChanged, timeout=2000):
        ws.set_dataset(Dataset([[1.0, 2.0], [-1.0, -2.0]], [1, -1]))
        win.readouts.refresh()
    assert bar.currentMessage() == "Saved."  # another message is left alone
