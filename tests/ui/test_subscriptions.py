"""Subscribers to the core's events are held weakly: a deleted widget is never called.

Widgets subscribe one way (``ws.events.x.connect(self._on_x)``), with no
bookkeeping of their own.  A widget that Qt deletes while a reference cycle
keeps its Python wrapper alive must be forgotten too (psygnal alone would
call it, and the call would raise on the deleted C++ object).
"""

from __future__ import annotations

import gc

import shiboken6
from PySide6 import QtCore, QtWidgets

import perceptron_gui.ui  # noqa: F401 - the Qt layer tells the core's signals about QObjects
from perceptron_gui.core import Workspace, generators


def events_of(ws) -> list:
    """Every signal of the workspace and of its view state, read from their groups."""
    return [getattr(group, name) for group in (ws.events, ws.view_state.events)
            for name in group]


def subscribers(ws) -> dict[str, int]:
    """The number of slots connected to each of the workspace's signals."""
    return {sig.name: len(sig) for sig in events_of(ws)}


class Cyclic(QtWidgets.QWidget):
    """A widget that keeps itself alive through a cycle, as most widgets do."""

    def __init__(self, ws, parent=None):
        super().__init__(parent)
        self.calls = 0
        self.myself = self  # a cycle: only the garbage collector frees the wrapper
        self.timer = QtCore.QTimer(self)
        self.timer.timeout.connect(self.on_change)
        for sig in events_of(ws):
            sig.connect(self.on_change)

    def on_change(self, *_args) -> None:
        self.calls += 1
        self.setToolTip(f"{self.calls} changes")  # touches the C++ object


class Plain:
    """A subscriber that is no Qt object."""

    def __init__(self, ws):
        self.calls = 0
        ws.events.run_changed.connect(self.on_run)

    def on_run(self, _event) -> None:
        self.calls += 1


def test_a_deleted_widget_is_forgotten_at_once(qtbot):
    ws = Workspace(generators.separable(20, seed=3))
    before = subscribers(ws)
    parent = QtWidgets.QWidget()
    widget = Cyclic(ws, parent)
    assert all(subscribers(ws)[name] == n + 1 for name, n in before.items())
    ws.step()
    assert widget.calls == 1
    parent.deleteLater()
    qtbot.waitUntil(lambda: not shiboken6.isValid(widget))
    assert subscribers(ws) == before  # the wrapper is still alive, the subscription gone
    ws.step()  # would raise (RuntimeError in an EmitLoopError) if it reached the widget
    ws.view_state.set_hovered(0)
    ws.events.message.emit("still here")
    assert widget.calls == 1


def test_a_subscriber_python_frees_is_forgotten():
    ws = Workspace(generators.separable(20, seed=3))
    before = len(ws.events.run_changed)
    plain = Plain(ws)
    ws.step()
    assert plain.calls == 1 and len(ws.events.run_changed) == before + 1
    del plain
    gc.collect()
    assert len(ws.events.run_changed) == before
    ws.step()


def test_a_deleted_window_leaves_its_workspace_as_it_found_it(qtbot):
    from perceptron_gui.ui.main_window import MainWindow

    ws = Workspace(generators.separable(40, seed=5))
    before = subscribers(ws)
    window = MainWindow(ws)
    window.show()
    qtbot.waitExposed(window)
    assert sum(subscribers(ws).values()) > sum(before.values()) + 10
    window.close()
    window.deleteLater()
    qtbot.waitUntil(lambda: not shiboken6.isValid(window))
    assert subscribers(ws) == before
    ws.run_to_end()
    ws.set_learner(next(key for key in ws.all_params() if key != ws.learner_name))
    ws.view_state.set_hovered(1)


def test_subscribing_again_and_again_watches_a_widget_once(qtbot):
    ws = Workspace(generators.separable(20, seed=3))
    parent = QtWidgets.QWidget()
    qtbot.addWidget(parent)
    widget = Cyclic(ws, parent)
    destroyed = QtCore.SIGNAL("destroyed(QObject*)")
    watchers = widget.receivers(destroyed)
    for _ in range(50):  # a mode that follows the data while it lasts, entered 50 times
        ws.events.run_changed.disconnect(widget.on_change)
        ws.events.run_changed.connect(widget.on_change)
    assert widget.receivers(destroyed) == watchers
    ws.step()
    assert widget.calls == 1
