"""Every key sequence is held by at most one enabled action, in every mode and level.

Qt calls a key that two enabled actions share ambiguous and triggers
neither; so a key means one thing at a time.  The walk goes through the
window's states a person reaches: a plain session with undo to do, presenter
mode, a demo playing (also in presenter mode), a demo being recorded (also
of a game), a game with a move played, each exercise level, shaping the
Gaussians and moving w by hand.
"""

from __future__ import annotations

import numpy as np
import pytest
from PySide6 import QtGui, QtWidgets

from perceptron_gui.core import exercises as ex
from perceptron_gui.core.commands import EditData, SetLearner
from perceptron_gui.core.dataset import AddPoints


def _holders(window) -> dict[str, list[str]]:
    """Key -> the texts of the enabled, visible actions of the window that hold it."""
    held: dict[str, list[str]] = {}
    for act in {*QtWidgets.QWidget.actions(window), *window.actions.values()}:
        if not (act.isEnabled() and act.isVisible()):
            continue
        for key in act.shortcuts():
            if not key.isEmpty():
                held.setdefault(key.toString(), []).append(act.text())
    return held


def _points(window) -> None:
    rng = np.random.default_rng(0)
    for label, centre in ((1, (2.0, 2.0)), (-1, (-2.0, -2.0))):
        for xy in rng.normal(centre, 0.4, size=(4, 2)):
            window.push_edit(AddPoints(xy.tolist(), label))


def _normal(window, qtbot):
    _points(window)


def _presenter(window, qtbot):
    _points(window)
    window.presenter.set_active(True)


def _demo(window, qtbot):
    window.demos.play("lda")
    window.demos.next()


def _demo_presenting(window, qtbot):
    window.presenter.set_active(True)
    window.demos.play("lda")


def _recording(window, qtbot):
    _points(window)
    assert window.demo_files.recorder.start()
    window.dispatch(EditData(AddPoints([0.5, 0.5], 1)))
    assert window.demo_files.recorder.step_count == 1


def _game(window, qtbot):
    window.game.new_game()
    window.game.propose(np.array([0.5, 0.2]))
    qtbot.waitUntil(lambda: window.game.game is not None and bool(window.game.game.history))


def _recording_game(window, qtbot):
    _points(window)
    assert window.demo_files.recorder.start()
    _game(window, qtbot)


def _shaping(window, qtbot):
    _points(window)
    window.dispatch(SetLearner("lda"))
    qtbot.waitUntil(lambda: window.shaping.available())
    assert window.shaping.enter()


def _hand_weights(window, qtbot):
    _points(window)
    qtbot.waitUntil(lambda: window.hand_weights.available())
    assert window.hand_weights.enter()


def _level(key):
    def enter(window, qtbot):
        _points(window)
        window.exercises.start(key)
    enter.__name__ = f"_level_{key}"
    return enter


STATES = [_normal, _presenter, _demo, _demo_presenting, _recording, _game,
          _recording_game, _shaping, _hand_weights, *(_level(lv.key) for lv in ex.LEVELS)]


@pytest.mark.parametrize("state", STATES, ids=lambda f: f.__name__.lstrip("_"))
def test_each_key_has_one_enabled_action(window, qtbot, state):
    state(window, qtbot)
    shared = {key: texts for key, texts in _holders(window).items() if len(texts) > 1}
    assert shared == {}, f"{window.modes.active}: {shared}"



def test_every_window_action_is_made_from_a_spec(window):
    """One way to make an action: only the toggles Qt makes (a dock's) are added as made."""
    made_by_qt = set(window.actions) - set(window.actions.specs)
    assert made_by_qt == {"side_panel"}
    for action_id, spec in window.actions.specs.items():
        action = window.actions[action_id]
        assert action.objectName() == spec.object_name
        assert action.shortcuts() == spec.sequences()
    assert window.actions.specs["play_undo_move"].when is not None
    redo = QtGui.QKeySequence.keyBindings(QtGui.QKeySequence.StandardKey.Redo)
    assert window.actions["redo"].shortcuts() == redo  # every binding of the platform's
