"""Adding a command with a handler: one class, its inverse and one handler, all in this file.

Registered from here alone, the command goes through the window's bus (its
handler is called, the change is one undo step whose undo is the command's
inverse), through the demo player (a demo file names it; the handler is
called without the undo stack), and the recorder hears it.
"""

from __future__ import annotations

import json
from dataclasses import dataclass
from typing import ClassVar

import numpy as np
import pytest

from perceptron_gui.core import commands, demos
from perceptron_gui.core import dataset as ds
from perceptron_gui.core.commands import Command
from perceptron_gui.ui import commands as bus

POINTS = [{"x": 1.0, "y": 2.0, "label": 1}, {"x": -1.5, "y": -1.0, "label": -1},
          {"x": 2.0, "y": 0.5, "label": 1}]


@dataclass(frozen=True)
class Mirror(Command):
    """Mirror the points across the y axis (x -> -x); its own inverse."""

    name: ClassVar[str] = "mirror"

    def execute(self, workspace) -> None:
        X = workspace.dataset.X * np.array([-1.0, 1.0])
        workspace.apply_edit(ds.MovePoints(np.arange(workspace.dataset.n), X))

    def inverse(self, workspace) -> Command:
        return Mirror()


@pytest.fixture
def mirror():
    calls: list = []

    def handle(context, command) -> bool:
        calls.append((command, context.undo_stack is not None))
        if context.workspace.dataset.n == 0:
            return False  # nothing to mirror: not done
        return context.do(command)

    commands.register(Mirror)
    bus.register_handler(Mirror, handle)
    yield calls
    bus.unregister_handler(Mirror)
    commands.unregister("mirror")


def _demo() -> demos.Demo:
    return demos.parse_demo(json.dumps({
        "format": "perceptron-gui-demo", "version": 2, "title": "Mirror", "description": "",
        "data": {"points": POINTS}, "learner": "primal",
        "steps": [{"command": {"command": "mirror"}, "caption": "mirrored"}]}))


def test_the_window_carries_it_out_by_its_handler_and_undoes_it_by_its_inverse(
        window, mirror):
    heard: list = []
    window.commandDispatched.connect(heard.append)
    assert not window.dispatch(Mirror())  # the handler's own refusal: no points
    X = np.array([[p["x"], p["y"]] for p in POINTS])
    assert window.push_edit(ds.ReplaceAll(X, [p["label"] for p in POINTS]))
    before = window.workspace.dataset.X.copy()
    count = window.undo_stack.count()

    assert window.dispatch(commands.from_dict({"command": "mirror"}))

    assert mirror == [(Mirror(), True), (Mirror(), True)]
    assert heard == [Mirror()]
    np.testing.assert_array_equal(window.workspace.dataset.X, before * [-1.0, 1.0])
    assert window.undo_stack.count() == count + 1
    assert window.undo_stack.undoText() == "mirror"
    window.actions["undo"].trigger()
    np.testing.assert_array_equal(window.workspace.dataset.X, before)
    window.actions["redo"].trigger()
    np.testing.assert_array_equal(window.workspace.dataset.X, before * [-1.0, 1.0])


def test_the_demo_player_carries_it_out_by_its_handler_without_the_undo_stack(window, mirror):
    ui = window.demos
    assert ui.play(_demo())
    start = window.workspace.dataset.X.copy()
    ui.next()
    assert mirror == [(Mirror(), False)]
    np.testing.assert_array_equal(window.workspace.dataset.X, start * [-1.0, 1.0])
    assert window.undo_stack.count() == 0  # a demo's steps are not the user's
    ui.prev()
    np.testing.assert_array_equal(window.workspace.dataset.X, start)


def test_the_recorder_records_it_as_a_step_and_its_undo_undoes_it(window, mirror):
    X = np.array([[p["x"], p["y"]] for p in POINTS])
    window.workspace.set_dataset(ds.Dataset(X, [p["label"] for p in POINTS]))
    recorder = window.demo_files.recorder
    recorder.start()
    assert window.dispatch(Mirror())
    assert recorder.draft.steps[-1].data == {"command": {"command": "mirror"}}
    np.testing.assert_array_equal(window.workspace.dataset.X, X * [-1.0, 1.0])
    recorder.undo_step()
    assert not recorder.draft.steps
    np.testing.assert_array_equal(window.workspace.dataset.X, X)


def test_a_type_has_one_handler(mirror):
    with pytest.raises(ValueError, match="has a handler already"):
        bus.register_handler(Mirror, lambda context, command: True)
    assert all(issubclass(cls, Command) for cls in bus.HANDLERS)
