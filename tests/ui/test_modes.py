"""The window's modes: what a mode hides comes back, its guards go, Esc goes to one action.

A mode defined in this file alone (a quiz that hides the Edit toolbar and the
views, refuses edits and leaves on Esc) is registered with one call, as
docs/architecture.md, "Adding a mode", says; presenter mode and a playing demo
are the built-in modes.
"""

from __future__ import annotations

import pytest
from PySide6 import QtCore, QtGui, QtWidgets

from perceptron_gui.core.commands import SetLayers, SetViewRect
from perceptron_gui.core.dataset import AddPoints
from perceptron_gui.ui.actions import ActionSpec
from perceptron_gui.ui.modes import (
    MODE_TYPES,
    Mode,
    register_mode,
    unregister_mode,
)

ESC = QtGui.QKeySequence(QtCore.Qt.Key.Key_Escape)


class QuizMode(Mode):
    """A quiz: the Edit toolbar and the views hidden, no edits, Esc leaves (before a demo)."""

    name = "quiz"
    esc = "leave_quiz"
    esc_priority = 15
    refused: list = []

    def hidden(self) -> list:
        return [self.window.toolbars["edit"], self.window.views,
                *self.window.classes.actions[:1]]

    def guards(self) -> list:
        return [self.refuse]

    def refuse(self, edit) -> bool:
        self.refused.append(edit)
        return False


@pytest.fixture
def quiz(window):
    """The quiz mode registered, with its Esc action on the window."""
    register_mode(QuizMode)
    leave = window.actions.make(ActionSpec("leave_quiz", "Leave the quiz",
                                           lambda: window.modes.leave("quiz"), ("Esc",)))
    QuizMode.refused = []
    yield leave
    unregister_mode("quiz")


def test_entering_hides_and_guards_leaving_restores_exactly(window, quiz, qtbot):
    modes = window.modes
    edit_bar, views, class_pos = (window.toolbars["edit"], window.views,
                                  window.actions["class_0"])
    window.set_views_visible(True)
    class_pos.setVisible(False)  # hidden before: stays hidden after
    guards = list(window.edit_guards)
    assert edit_bar.isVisible() and views.isVisible()
    with qtbot.waitSignal(modes.changed) as entered:
        modes.enter("quiz")
    assert entered.args == ["quiz", True]
    assert modes.active == ("quiz",) and modes.is_active("quiz")
    assert not edit_bar.isVisible() and not views.isVisible()
    assert not window.actionViews.isChecked()  # the View menu follows
    assert len(window.edit_guards) == len(guards) + 1
    assert not window.push_edit(AddPoints([0.0, 0.0], 1))
    assert window.workspace.dataset.n == 0 and len(QuizMode.refused) == 1
    modes.enter("quiz")  # once on, entering again changes nothing
    assert len(window.edit_guards) == len(guards) + 1

    with qtbot.waitSignal(modes.changed) as left:
        modes.leave("quiz")
    assert left.args == ["quiz", False]
    assert modes.active == () and not modes.is_active("quiz")
    assert edit_bar.isVisible() and views.isVisible() and window.actionViews.isChecked()
    assert not class_pos.isVisible()
    assert window.edit_guards == guards
    assert window.push_edit(AddPoints([0.0, 0.0], 1))
    assert window.workspace.dataset.n == 1
    modes.leave("quiz")  # off already: nothing happens
    assert window.edit_guards == guards


def test_esc_goes_to_cancel_then_to_the_mode_of_lowest_priority(window, quiz, qtbot):
    modes, presenter = window.modes, window.presenter
    assert modes.esc_owner() is None and not quiz.isEnabled()
    modes.enter("quiz")
    assert modes.esc_owner() == "quiz" and quiz.isEnabled()
    presenter.set_active(True)  # the quiz's 15 beats presenter mode's 20
    assert modes.active == ("quiz", "presenter")
    assert modes.esc_owner() == "quiz"
    assert quiz.isEnabled() and not presenter.leave_action.isEnabled()
    window.actionCancel.setEnabled(True)  # as while running to the end: Esc cancels
    assert modes.esc_owner() is None
    assert not presenter.leave_action.isEnabled() and not quiz.isEnabled()
    window.actionCancel.setEnabled(False)
    assert quiz.isEnabled()
    # the key itself: the quiz first, then presenter mode, then nothing
    window.activateWindow()
    qtbot.keyClick(window, QtCore.Qt.Key.Key_Escape)
    assert presenter.active and modes.active == ("presenter",)
    assert presenter.leave_action.isEnabled() and not quiz.isEnabled()
    qtbot.keyClick(window, QtCore.Qt.Key.Key_Escape)
    assert modes.active == () and not presenter.active


def test_with_no_mode_on_esc_is_routed_without_walking_the_actions(window, quiz, monkeypatch):
    """Each mode's Esc action added while the window is built routed Esc again over the
    window's hundred actions (about 3 ms of its launch); with no mode on, none is on."""
    walks = []
    every = QtWidgets.QWidget.actions

    def counted(widget):
        walks.append(widget)
        return every(widget)

    monkeypatch.setattr(QtWidgets.QWidget, "actions", counted)
    modes = window.modes
    modes.update_esc()
    assert walks == [] and not quiz.isEnabled()
    modes.enter("quiz")  # a mode on: Esc is routed over the other Esc actions again
    assert walks and quiz.isEnabled()
    window.actionCancel.setEnabled(True)
    assert not quiz.isEnabled()
    window.actionCancel.setEnabled(False)
    modes.leave("quiz")
    assert not quiz.isEnabled()


def test_esc_stops_the_demo_first_then_leaves_presenter_mode(window, qtbot):
    """One meaning at a time, the innermost first, and the enabled action says it."""
    modes, demos, presenter = window.modes, window.demos, window.presenter
    demos.play("lda")
    assert modes.active == ("demo",) and modes.esc_owner() == "demo"
    assert demos.actionStopKey.isEnabled()
    presenter.set_active(True)
    assert modes.esc_owner() == "demo" and demos.actionStopKey.isEnabled()
    assert not presenter.leave_action.isEnabled()

    def esc_text():  # the text of the one enabled action Esc triggers
        (act,) = [a for a in window.actions.values() if a.isEnabled() and ESC in a.shortcuts()]
        return act.text()

    assert esc_text() == "Stop demo"
    window.activateWindow()
    qtbot.keyClick(window, QtCore.Qt.Key.Key_Escape)
    assert not demos.playing and presenter.active  # the demo stopped, still full screen
    assert modes.esc_owner() == "presenter" and esc_text() == "Leave presenter mode"
    qtbot.keyClick(window, QtCore.Qt.Key.Key_Escape)
    assert not presenter.active and modes.active == ()
    assert not demos.actionStopKey.isEnabled() and not presenter.leave_action.isEnabled()
    # entered the other way round, the same: the demo is the inner one
    presenter.set_active(True)
    demos.play("lda")
    assert modes.esc_owner() == "demo"
    demos.stop()
    assert modes.esc_owner() == "presenter"
    presenter.set_active(False)


def test_registering_checks_the_class():
    class Nameless(Mode):
        pass

    class Clash(Mode):
        name = "presenter"

    from perceptron_gui.ui.features import demo_keys, presenter  # each registers its mode

    assert MODE_TYPES["presenter"] is presenter.Presenting
    assert MODE_TYPES["demo"] is demo_keys.DemoPlaying
    with pytest.raises(ValueError, match="no name"):
        register_mode(Nameless)
    with pytest.raises(ValueError, match="registered already"):
        register_mode(Clash)
    with pytest.raises(TypeError):
        register_mode(object)
    with pytest.raises(KeyError):
        unregister_mode("no such mode")


def test_a_demo_shows_the_views_it_uses_over_presenter_mode(window, qtbot):
    """A mode's shown item wins over another's hidden one; each comes back as it was."""
    from perceptron_gui.core.demos import list_demos, load_demo
    from perceptron_gui.ui.views import VIEW_TYPES

    for name in list_demos():  # every view a shipped demo names exists
        assert set(load_demo(name).views) <= set(VIEW_TYPES), name
    win = window
    assert not win.views.isVisible()  # 1280 px: hidden
    win.demos.play("novikoff-proof")
    assert win.views.isVisible() and win.views.currentWidget() is win.plots
    win.presenter.set_active(True)  # presenter mode hides the views; the demo shows them
    assert win.views.isVisible()
    win.demos.stop()
    assert not win.views.isVisible()  # presenter mode's hiding, now alone
    win.presenter.set_active(False)
    assert not win.views.isVisible()  # as before both
    win.set_views_visible(True)
    win.demos.play("first-updates")  # uses no view: they stay as they are
    assert win.views.isVisible()
    win.demos.stop()
    assert win.views.isVisible() and win.actions["views"].isChecked()


class Spotlight(Mode):
    """A mode declared here alone: its switches, a view it keeps, what it shows and hides."""

    name = "spotlight"
    esc = "leave_spotlight"
    esc_priority = 25
    layers = {"regions": False, "radius": True}
    keeps_view = True

    def hidden(self) -> list:
        return [self.window.toolbars["playback"]]

    def shown(self) -> list:
        return [self.window.actions["spotlight_hint"]]


def _window_state(window) -> dict:
    return {"layers": window.view_state.layers(), "rect": window.view_state.rect,
            "guards": list(window.edit_guards), "modes": window.modes.active,
            "visible": {k: t.isVisible() for k, t in window.toolbars.items()},
            "enabled": {k: a.isEnabled() for k, a in window.actions.items()},
            "shown": {k: a.isVisible() for k, a in window.actions.items()}}


def test_a_mode_declared_in_a_test_plugs_in_and_leaves_nothing_behind(window, qtbot):
    """Registering announces it; entering sets its switches; leaving gives all back."""
    heard: list = []
    MODE_TYPES.changed.connect(heard.append)
    register_mode(Spotlight)
    try:
        assert heard == ["spotlight"] and MODE_TYPES["spotlight"] is Spotlight
        hint = window.actions.make(ActionSpec("spotlight_hint", "Look here"))
        hint.setVisible(False)
        window.actions.make(ActionSpec("leave_spotlight", "Leave the spotlight",
                                       lambda: window.modes.leave("spotlight"), ("Esc",)))
        window.dispatch(SetViewRect(((-3.0, 3.0), (-2.0, 2.0))))
        window.dispatch(SetLayers({"regions": True, "radius": False}))
        before = _window_state(window)
        assert before["layers"]["regions"] and not before["layers"]["radius"]
        window.modes.enter("spotlight")
        on = window.view_state.layers()
        assert not on["regions"] and on["radius"]
        assert not window.actions["show_regions"].isChecked()  # the View menu follows
        assert not window.toolbars["playback"].isVisible() and hint.isVisible()
        assert window.actions.holders()["Esc"] == ["leave_spotlight"]
        window.dispatch(SetLayers({"boundary": False}))  # while on: kept too
        window.dispatch(SetViewRect(((0.0, 1.0), (0.0, 1.0))))
        window.activateWindow()
        qtbot.keyClick(window, QtCore.Qt.Key.Key_Escape)
        assert _window_state(window) == before
    finally:
        unregister_mode("spotlight")
        MODE_TYPES.changed.disconnect(heard.append)
    assert heard == ["spotlight", "spotlight"] and "spotlight" not in MODE_TYPES
