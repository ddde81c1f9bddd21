"""Points placed, selected and moved from the keyboard, through the Qt-free tool and the canvas."""

from __future__ import annotations

import numpy as np
import pytest
from PySide6 import QtCore, QtGui, QtWidgets

from perceptron_gui.core.dataset import AddPoints, Dataset, DeletePoints, MovePoints
from perceptron_gui.ui.widgets.canvas import KEYS, EditTool
from perceptron_gui.ui.widgets.canvas.tool import BIG_STEP_PX, STEP_PX

Qt = QtCore.Qt
PX = (0.01, 0.02)
VIEW = (-5.0, 5.0, -5.0, 5.0)


@pytest.fixture
def tool():
    edits = []
    t = EditTool(edits.append)
    t.edits = edits
    t.set_dataset(Dataset([[0.0, 0.0], [1.0, 0.0], [3.0, 3.0]], [1, -1, 1]))
    return t


def apply_last(tool):
    tool.set_dataset(tool.edits[-1].apply(tool.dataset)[0])


def test_the_cursor_shows_moves_in_pixels_and_stays_in_view(tool):
    seen = []
    tool.cursor_changed.connect(seen.append)
    assert not tool.key("left", None, PX, (), VIEW)  # no cursor: the arrows are the window's
    assert tool.key("cursor", None, PX, (), VIEW)
    np.testing.assert_allclose(tool.cursor, [0.0, 0.0])  # the view's centre
    tool.key("right", None, PX, (), VIEW)
    tool.key("up", None, PX, {"shift"}, VIEW)
    np.testing.assert_allclose(tool.cursor, [STEP_PX * PX[0], BIG_STEP_PX * PX[1]])
    for _ in range(100):
        tool.key("left", None, PX, {"shift"}, VIEW)
    assert tool.cursor[0] == -5.0  # clamped to the view
    assert len(seen) > 3 and tool.edits == []
    assert tool.key("cursor", None, PX, (), VIEW) and tool.cursor is None


def test_add_at_the_cursor_in_either_class(tool):
    assert not tool.key("add", None, PX, (), VIEW)  # no cursor, nothing to add at
    tool.key("cursor", None, PX, (), VIEW)
    tool.set_cursor((2.0, -1.0))
    assert tool.key("add", None, PX, (), VIEW)
    assert tool.key("add", None, PX, {"shift"}, VIEW)
    a, b = tool.edits
    assert isinstance(a, AddPoints) and a.y.tolist() == [1] and a.X.tolist() == [[2.0, -1.0]]
    assert b.y.tolist() == [-1]


def test_tab_selects_the_nearest_then_the_next(tool):
    tool.set_cursor((0.9, 0.1))
    assert tool.key("nearest")
    assert tool.selection.tolist() == [1]
    tool.key("nearest")
    assert tool.selection.tolist() == [0]
    tool.key("nearest")
    tool.key("nearest")
    assert tool.selection.tolist() == [1]  # round again


def test_a_burst_of_arrows_moves_the_selection_as_one_merged_move(tool):
    finished = []
    tool.drag_finished.connect(lambda: finished.append(1))
    tool.set_cursor((1.0, 0.0))
    tool.key("nearest")
    for _ in range(3):
        assert tool.key("right", None, PX, (), VIEW)
        apply_last(tool)
    assert all(isinstance(e, MovePoints) and e.indices.tolist() == [1] for e in tool.edits)
    merged = tool.edits[0]
    for e in tool.edits[1:]:
        merged = merged.merge(e)
    np.testing.assert_allclose(merged.X, [[1.0 + 3 * STEP_PX * PX[0], 0.0]])
    np.testing.assert_allclose(tool.cursor, merged.X[0])  # the cursor moved with the point
    assert finished == []
    tool.key_move_end()
    assert finished == [1]
    tool.key("delete", None, PX)  # the selection goes
    assert isinstance(tool.edits[-1], DeletePoints) and tool.edits[-1].indices.tolist() == [1]


def test_delete_at_the_cursor_and_escape_hides_it(tool):
    tool.set_cursor((3.0, 3.0))
    assert tool.key("delete", None, PX)
    assert tool.edits[-1].indices.tolist() == [2]
    assert tool.key("escape") and tool.cursor is None
    assert not tool.key("escape")


def test_key_table():
    keys = [k for k, _ in KEYS]
    assert "C" in keys and "Tab" in keys and "A or Insert" in keys


# -- on the canvas and in the window -------------------------------------------------------------
def _key(widget, k, text="", mods=Qt.KeyboardModifier.NoModifier, release=False, repeat=False):
    kind = QtCore.QEvent.Type.KeyRelease if release else QtCore.QEvent.Type.KeyPress
    ev = QtGui.QKeyEvent(kind, k, mods, text, repeat)
    QtWidgets.QApplication.sendEvent(widget, ev)
    return ev


def _override(canvas, k, text=""):
    ev = QtGui.QKeyEvent(QtCore.QEvent.Type.ShortcutOverride, k, Qt.KeyboardModifier.NoModifier,
                         text)
    QtWidgets.QApplication.sendEvent(canvas, ev)
    return ev.isAccepted()


def test_keyboard_editing_on_the_canvas(make_canvas, qtbot):
    canvas, ws = make_canvas()
    assert not canvas.layer("cursor").items["keyboard_cursor"].isVisible()
    _key(canvas, Qt.Key.Key_C, "c")
    qtbot.waitUntil(canvas.layer("cursor").items["keyboard_cursor"].isVisible)
    start = canvas.tool.cursor.copy()
    _key(canvas, Qt.Key.Key_Right)
    _key(canvas, Qt.Key.Key_Right, mods=Qt.KeyboardModifier.ShiftModifier)
    sx, _ = canvas.pixel_size()
    assert canvas.tool.cursor[0] == pytest.approx(start[0] + (STEP_PX + BIG_STEP_PX) * sx)
    _key(canvas, Qt.Key.Key_A, "a")
    _key(canvas, Qt.Key.Key_Insert, mods=Qt.KeyboardModifier.ShiftModifier)
    assert ws.dataset.y.tolist() == [1, -1]
    _key(canvas, Qt.Key.Key_Up, mods=Qt.KeyboardModifier.ShiftModifier)
    _key(canvas, Qt.Key.Key_Tab, "\t")
    assert canvas.selection.size == 1
    before = ws.dataset.X[canvas.selection[0]].copy()
    _key(canvas, Qt.Key.Key_Down)
    np.testing.assert_allclose(ws.dataset.X[canvas.selection[0]],
                               before - [0, STEP_PX * canvas.pixel_size()[1]])
    _key(canvas, Qt.Key.Key_Escape)  # the selection goes, then the cursor
    _key(canvas, Qt.Key.Key_Escape)
    qtbot.waitUntil(lambda: not canvas.layer("cursor").items["keyboard_cursor"].isVisible())


def test_canvas_keys_do_not_collide_with_the_window_shortcuts(window, qtbot):
    shortcuts = {s.toString() for a in window.findChildren(QtGui.QAction)
                 for s in a.shortcuts()}
    for mine in ("C", "A", "Shift+A", "Ins", "Shift+Ins", "Tab"):
        assert mine not in shortcuts, mine
    canvas = window.canvas
    canvas.setFocus()
    # without the canvas cursor, Left/Right stay the window's step keys
    assert "Right" in shortcuts
    assert not _override(canvas, Qt.Key.Key_Right)
    _key(canvas, Qt.Key.Key_C, "c")
    assert _override(canvas, Qt.Key.Key_Right)  # with it, the canvas takes the arrows


def test_one_undo_step_per_burst_of_arrow_keys(window, qtbot):
    canvas, ws = window.canvas, window.workspace
    window.push_edit(AddPoints(np.array([[1.0, 1.0]]), 1))
    _key(canvas, Qt.Key.Key_C, "c")
    canvas.tool.set_cursor((1.0, 1.0))
    _key(canvas, Qt.Key.Key_Tab, "\t")
    assert canvas.selection.tolist() == [0]
    count = window.undo_stack.count()
    _key(canvas, Qt.Key.Key_Right)
    for _ in range(4):  # held down: auto-repeated presses and releases
        _key(canvas, Qt.Key.Key_Right, release=True, repeat=True)
        _key(canvas, Qt.Key.Key_Right, repeat=True)
    _key(canvas, Qt.Key.Key_Right, release=True)
    _key(canvas, Qt.Key.Key_Up)
    _key(canvas, Qt.Key.Key_Up, release=True)
    assert window.undo_stack.count() == count + 2
    moved = ws.dataset.X[0].copy()
    assert moved[0] > 1.0 and moved[1] > 1.0
    window.undo_stack.undo()
    assert ws.dataset.X[0][1] == pytest.approx(1.0) and ws.dataset.X[0][0] == moved[0]
    window.undo_stack.undo()
    np.testing.assert_allclose(ws.dataset.X[0], [1.0, 1.0])


def test_the_canvas_has_an_accessible_name_and_description(make_canvas):
    canvas, _ = make_canvas()
    assert canvas.accessibleName() == "Canvas"
    text = canvas.accessibleDescription()
    assert "decision boundary" in text and "Tab: select the point nearest" in text
    assert canvas.focusPolicy() == Qt.FocusPolicy.StrongFocus
