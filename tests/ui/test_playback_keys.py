"""Playback from the keyboard and the toolbar: Space and P beside a number box, a steady Play."""

from __future__ import annotations

import pytest
from PySide6 import QtCore

from perceptron_gui.core import generators
from perceptron_gui.core.dataset import ReplaceAll

Key = QtCore.Qt.Key


@pytest.fixture
def focused(qtbot, window):
    """The window with data, and a function giving focus to a control of the panel."""
    data = generators.overlapping(40, seed=3)
    assert window.push_edit(ReplaceAll.from_dataset(data, "data"))
    window.activateWindow()

    def focus(key: str):
        box = window.learner_panel.control("primal", key)
        box.setFocus()
        qtbot.waitUntil(box.hasFocus)
        return box

    return focus


def test_p_plays_and_pauses_while_a_number_box_has_focus(qtbot, window, focused, subtests):
    for key in ("eta0", "max_iter"):  # one window, a subtest each
        with subtests.test(key):
            box = focused(key)
            text = box.text()
            qtbot.keyClick(box, Key.Key_P)
            assert window.playback.playing
            qtbot.keyClick(box, Key.Key_P)
            assert not window.playback.playing
            assert box.text() == text  # the key did not go into the box


def test_space_steps_while_a_number_box_has_focus(qtbot, window, focused, subtests):
    for key in ("eta0", "max_iter"):
        with subtests.test(key):
            box = focused(key)
            before = window.workspace.step_count
            qtbot.keyClick(box, Key.Key_Space)
            assert window.workspace.step_count > before
            assert " " not in box.text()


def test_digits_and_an_exponent_still_go_into_a_float_box(qtbot, window, focused):
    box = focused("eta0")
    box.lineEdit().selectAll()
    qtbot.keyClicks(box, "2e-3")
    qtbot.keyClick(box, Key.Key_Return)
    assert window.workspace.params["eta0"] == pytest.approx(0.002)
    assert not window.playback.playing


def test_the_toolbar_does_not_shift_when_play_becomes_pause(qtbot, window, focused):
    bar = window.toolbars["playback"]
    play = bar.widgetForAction(window.playback.actionPlay)
    after = bar.widgetForAction(window.playback.actionRunToEnd)
    qtbot.waitUntil(lambda: play.width() > 0 and after.x() > play.x())
    before = (play.geometry(), after.geometry())
    window.playback.set_playing(True)
    assert play.text() == "Pause"
    bar.layout().activate()  # the layout as the next pass of the event loop makes it
    assert (play.geometry(), after.geometry()) == before
    assert play.width() >= play.sizeHint().width()  # "Pause" fits
    window.playback.set_playing(False)
    assert play.text() == "Play"
    bar.layout().activate()
    assert (play.geometry(), after.geometry()) == before
