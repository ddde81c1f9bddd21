"""Gestures on the canvas: Qt mouse and key events become edits through the one tool.

Mouse events are sent straight to the viewport with explicit buttons
(``QTest.mouseMove`` carries no buttons).  Point drags run with pyqtgraph's
default mouse rate limit (the canvas sees every move); the pan test switches the
limit off, since the view's own pan drops close moves.
"""

from __future__ import annotations

import numpy as np
import pytest
from PySide6 import QtCore, QtGui, QtWidgets

from perceptron_gui.core.dataset import (
    AddPoints,
    Dataset,
    MovePoints,
)
from perceptron_gui.core.workspace import Workspace
from tests.ui.canvas.helpers import (
    LEFT,
    MIDDLE,
    RIGHT,
    Qt,
    click,
    drag,
    key,
    mouse,
    tol,
)


def test_left_click_adds_a_point_of_the_active_class(make_canvas):
    canvas, ws = make_canvas()
    assert canvas.objectName() == "canvas"
    click(canvas, (1.5, -2.0))
    assert ws.dataset.n == 1
    np.testing.assert_allclose(ws.dataset.X[0], [1.5, -2.0], atol=tol(canvas))
    assert ws.dataset.y[0] == 1


def test_right_click_adds_the_other_class_without_a_context_menu(make_canvas):
    canvas, ws = make_canvas()
    click(canvas, (-2.0, 3.0), RIGHT)
    assert QtWidgets.QApplication.activePopupWidget() is None
    assert ws.dataset.n == 1 and ws.dataset.y[0] == -1
    np.testing.assert_allclose(ws.dataset.X[0], [-2.0, 3.0], atol=tol(canvas))
    canvas.active_class = -1
    click(canvas, (2.0, 3.0), RIGHT)
    assert ws.dataset.y.tolist() == [-1, 1]


def test_the_canvas_never_applies_an_edit_itself(make_canvas):
    canvas, ws = make_canvas(connect=False)
    edits = []
    canvas.editRequested.connect(edits.append)
    click(canvas, (1.0, 1.0))
    assert ws.dataset.n == 0
    assert len(edits) == 1 and isinstance(edits[0], AddPoints)


def test_class_switch_keys(make_canvas, qtbot):
    canvas, ws = make_canvas()
    seen = []
    canvas.activeClassChanged.connect(seen.append)
    key(qtbot, canvas, Qt.Key.Key_2, "2")
    assert canvas.active_class == -1
    click(canvas, (0.5, 0.5))
    key(qtbot, canvas, Qt.Key.Key_Plus, "+")
    assert canvas.active_class == 1
    key(qtbot, canvas, Qt.Key.Key_Minus, "-")
    assert canvas.active_class == -1
    key(qtbot, canvas, Qt.Key.Key_T, "t")
    assert canvas.active_class == 1
    key(qtbot, canvas, Qt.Key.Key_1, "1")  # no change, no signal
    click(canvas, (-0.5, 0.5))
    assert ws.dataset.y.tolist() == [-1, 1]
    assert seen == [-1, 1, -1, 1]
    with pytest.raises(ValueError):
        canvas.active_class = 0


def test_drag_a_point_moves_it_in_one_stream_of_moves(make_canvas):
    canvas, ws = make_canvas(Workspace(Dataset([[1.0, 1.0], [-2.0, -1.0]], [1, -1])))
    edits, finished = [], []
    canvas.editRequested.connect(edits.append)
    canvas.dragFinished.connect(lambda: finished.append(True))
    drag(canvas, (1.0, 1.0), (2.5, -0.5))
    assert ws.dataset.n == 2
    np.testing.assert_allclose(ws.dataset.X[0], [2.5, -0.5], atol=tol(canvas))
    np.testing.assert_array_equal(ws.dataset.X[1], [-2.0, -1.0])
    assert len(edits) >= 3 and all(isinstance(e, MovePoints) for e in edits)
    assert all(e.indices.tolist() == [0] for e in edits)
    merged = edits[0]
    for e in edits[1:]:
        merged = merged.merge(e)
    np.testing.assert_array_equal(merged.X, ws.dataset.X[[0]])
    assert finished == [True]
    assert canvas.tool.dragging is False
    assert len(edits) == 6  # one move per pointer move, none dropped (the scene's rate limit)


def test_drag_on_empty_space_pans_and_edits_nothing(make_canvas, no_mouse_rate_limit):
    canvas, ws = make_canvas(Workspace(Dataset([[1.0, 1.0]], [1])))
    edits = []
    canvas.editRequested.connect(edits.append)
    before = np.array(canvas.getViewBox().viewRange())
    drag(canvas, (-3.0, -3.0), (-1.0, -2.0))
    after = np.array(canvas.getViewBox().viewRange())
    assert edits == []
    assert ws.dataset.n == 1
    # the data under the pointer follows it: the view moves by minus the drag
    np.testing.assert_allclose(after - before, [[-2.0, -2.0], [-1.0, -1.0]], atol=3 * tol(canvas))
    before = after
    drag(canvas, (1.0, 1.0), (2.0, 1.0), MIDDLE)  # a middle drag pans even on a point
    assert edits == []
    np.testing.assert_allclose(ws.dataset.X[0], [1.0, 1.0])
    after = np.array(canvas.getViewBox().viewRange())
    np.testing.assert_allclose(after - before, [[-1.0, -1.0], [0.0, 0.0]], atol=3 * tol(canvas))


def test_wheel_zooms_about_the_cursor(make_canvas):
    canvas, ws = make_canvas()
    before = np.array(canvas.getViewBox().viewRange())
    pos = canvas.data_to_widget(2.0, 1.0)
    vp = canvas.viewport()
    ev = QtGui.QWheelEvent(pos, vp.mapToGlobal(pos), QtCore.QPoint(0, 0), QtCore.QPoint(0, 240),
                           Qt.MouseButton.NoButton, Qt.KeyboardModifier.NoModifier,
                           Qt.ScrollPhase.NoScrollPhase, False)
    QtWidgets.QApplication.sendEvent(vp, ev)
    after = np.array(canvas.getViewBox().viewRange())
    assert np.ptp(after, axis=1).max() < 0.9 * np.ptp(before, axis=1).max()
    p = canvas.widget_to_data(pos)  # the point under the cursor stays under it
    assert ws.dataset.n == 0
    np.testing.assert_allclose([p.x(), p.y()], [2.0, 1.0], atol=tol(canvas))


def test_click_selects_escape_clears_delete_removes_selection(make_canvas, qtbot):
    X = [[1.0, 1.0], [-2.0, -1.0], [2.0, -2.0]]
    canvas, ws = make_canvas(Workspace(Dataset(X, [1, -1, 1])))
    click(canvas, (-2.0, -1.0))
    assert ws.dataset.n == 3  # a click on a point does not add one
    assert canvas.selection.tolist() == [1]
    assert canvas.layer("selection").items["selection_marks"].isVisible()
    click(canvas, (2.0, -2.0), mods=Qt.KeyboardModifier.ControlModifier)
    assert canvas.selection.tolist() == [1, 2]
    key(qtbot, canvas, Qt.Key.Key_Escape)
    assert canvas.selection.tolist() == []
    canvas.refresh()
    assert not canvas.layer("selection").items["selection_marks"].isVisible()
    click(canvas, (1.0, 1.0))
    click(canvas, (2.0, -2.0), mods=Qt.KeyboardModifier.ShiftModifier)
    key(qtbot, canvas, Qt.Key.Key_Delete)
    np.testing.assert_array_equal(ws.dataset.X, [[-2.0, -1.0]])
    assert canvas.selection.tolist() == []


def test_delete_removes_the_point_under_the_cursor(make_canvas, qtbot):
    canvas, ws = make_canvas(Workspace(Dataset([[1.0, 1.0], [-2.0, -1.0]], [1, -1])))
    mouse(canvas, QtCore.QEvent.Type.MouseMove, (0.0, 3.0))  # hovering nothing
    key(qtbot, canvas, Qt.Key.Key_Delete)
    assert ws.dataset.n == 2
    mouse(canvas, QtCore.QEvent.Type.MouseMove, (-2.0 + 0.5 * tol(canvas), -1.0))
    key(qtbot, canvas, Qt.Key.Key_Backspace)
    np.testing.assert_array_equal(ws.dataset.X, [[1.0, 1.0]])


def test_canvas_keys_override_window_shortcuts_only_when_useful(make_canvas):
    canvas, ws = make_canvas(Workspace(Dataset([[1.0, 1.0]], [1])))

    def overridden(k, text="", mods=Qt.KeyboardModifier.NoModifier):
        ev = QtGui.QKeyEvent(QtCore.QEvent.Type.ShortcutOverride, k, mods, text)
        ev.ignore()
        QtWidgets.QApplication.sendEvent(canvas, ev)
        return ev.isAccepted()

    assert overridden(Qt.Key.Key_2, "2")
    assert not overridden(Qt.Key.Key_T, "t", Qt.KeyboardModifier.ControlModifier)
    assert not overridden(Qt.Key.Key_Space, " ")  # stepping is the window's
    assert not overridden(Qt.Key.Key_Delete)  # nothing under the cursor, nothing selected
    assert not overridden(Qt.Key.Key_Escape)
    mouse(canvas, QtCore.QEvent.Type.MouseMove, (1.0, 1.0))
    assert overridden(Qt.Key.Key_Delete)
    click(canvas, (1.0, 1.0))
    assert overridden(Qt.Key.Key_Escape)


def test_cursor_shows_what_a_press_would_do(make_canvas):
    canvas, ws = make_canvas(Workspace(Dataset([[1.0, 1.0]], [1])))
    mouse(canvas, QtCore.QEvent.Type.MouseMove, (1.0, 1.0))
    assert canvas.viewport().cursor().shape() == Qt.CursorShape.OpenHandCursor
    mouse(canvas, QtCore.QEvent.Type.MouseMove, (-3.0, 1.0))
    assert canvas.viewport().cursor().shape() == Qt.CursorShape.CrossCursor


def test_right_click_on_a_point_flips_its_class(make_canvas):
    canvas, ws = make_canvas(Workspace(Dataset([[1.0, 1.0]], [1])))
    click(canvas, (1.0, 1.0), RIGHT)
    assert ws.dataset.n == 1 and ws.dataset.y.tolist() == [-1]


def test_end_drag_finishes_a_drag_whose_release_was_lost(make_canvas, qtbot):
    canvas, ws = make_canvas(Workspace(Dataset([[1.0, 1.0]], [1])))
    a, b = canvas.data_to_widget(1.0, 1.0), canvas.data_to_widget(2.0, 2.0)
    mouse(canvas, QtCore.QEvent.Type.MouseMove, a)
    mouse(canvas, QtCore.QEvent.Type.MouseButtonPress, a, LEFT)
    mouse(canvas, QtCore.QEvent.Type.MouseMove, b, LEFT, LEFT)
    assert canvas.tool.dragging
    with qtbot.waitSignal(canvas.dragFinished, timeout=2000):
        canvas.end_drag()  # no button is down: the drag ends after this event
    assert not canvas.tool.dragging
    click(canvas, (-3.0, -3.0))  # the next press is a fresh gesture
    assert ws.dataset.n == 2
