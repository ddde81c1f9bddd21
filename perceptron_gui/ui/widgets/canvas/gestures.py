"""Mouse and key routing: Qt events on the canvas become calls of the Qt-free edit tool.

Clicks reach the tool by one route, :meth:`Gestures.click`: a press and release
*on a point* is seen here at the widget level (pyqtgraph's scene drops moves above
its rate limit and calls a press held 0.5 s a drag); a click *on empty space* comes
from the view box (:meth:`Gestures.view_click`).  The rest is pyqtgraph's.
"""

from __future__ import annotations

import weakref
from dataclasses import dataclass

import shiboken6
from PySide6 import QtCore, QtGui, QtWidgets

from ...deferred import YieldingTimer

__all__ = ["Gestures", "mark_handle"]

Qt = QtCore.Qt

#: The handles the user drags (the shaping mode's), held weakly: a press on one is
#: the handle's (pyqtgraph's drag), not a point's, even over a point.
_HANDLES: weakref.WeakSet = weakref.WeakSet()


def mark_handle(item) -> None:
    """Let a press on the scene item ``item`` go to it, before the points under it."""
    _HANDLES.add(item)


_BUTTONS = {
    Qt.MouseButton.LeftButton: "left",
    Qt.MouseButton.RightButton: "right",
    Qt.MouseButton.MiddleButton: "middle",
}


_ARROW_KEYS = {
    Qt.Key.Key_Left: "left",
    Qt.Key.Key_Right: "right",
    Qt.Key.Key_Up: "up",
    Qt.Key.Key_Down: "down",
}
#: The keys the tool names whatever the cursor (the arrows, Tab and A only with one).
_NAMED_KEYS = {Qt.Key.Key_Delete: "delete", Qt.Key.Key_Backspace: "delete",
               Qt.Key.Key_Escape: "escape", Qt.Key.Key_C: "cursor"}
_CURSOR_NAMES = ("cursor", "left", "right", "up", "down", "escape")
_MODIFIERS = (("ctrl", Qt.KeyboardModifier.ControlModifier),
              ("shift", Qt.KeyboardModifier.ShiftModifier))


def _mods(modifiers) -> set:
    return {name for name, flag in _MODIFIERS if modifiers & flag}


@dataclass
class _Press:
    """A mouse press on a point: becomes a click, or (left button) a drag."""

    button: str
    widget_pos: QtCore.QPointF
    data_pos: tuple
    modifiers: set
    dragging: bool = False


class Gestures:
    """Routes a canvas's events into its :class:`~.tool.EditTool`; each ``*_event`` method
    returns True when it handled the event, False when pyqtgraph should have it."""

    def __init__(self, canvas, tool):
        self.canvas = canvas
        self.tool = tool
        self._cursor: QtCore.QPointF | None = None
        self._press: _Press | None = None  # a press on a point, until its release
        # ends a press whose release never came, once the current event is over
        self._lost_press = YieldingTimer(canvas, self._end_lost_press, name="canvasLostPressTimer")

    def click(self, button: str, pos, modifiers=()) -> bool:
        """A click at data position ``pos``: the tool adds, selects or flips."""
        self.canvas.setFocus(Qt.FocusReason.MouseFocusReason)
        return self.tool.click(button, pos, self.canvas.pixel_size(), modifiers)

    def view_click(self, ev) -> bool:
        """A click pyqtgraph's scene delivered to the view box (on empty space)."""
        button = _BUTTONS.get(ev.button())
        if button is None or button == "middle":
            return False
        if ev.double():
            return True  # the first click of the pair already acted
        if self._handle_at(ev.scenePos()):
            return True  # a click on a handle, without a drag: no point added under it
        pos = self.canvas.getViewBox().mapSceneToView(ev.scenePos())
        return self.click(button, (pos.x(), pos.y()), _mods(ev.modifiers()))

    def press_event(self, ev) -> bool:
        button = _BUTTONS.get(ev.button())
        if self._press is None and (self.canvas.over_legend(ev.position())
                                    or self._over_handle(ev.position())):
            return False  # pyqtgraph's: a drag moves the legend or the handle
        if self._press is None and button in ("left", "right") and ev.buttons() == ev.button():
            p = self.canvas.widget_to_data(ev.position())
            pos = (p.x(), p.y())
            if self.tool.hit(pos, self.canvas.pixel_size()) is not None:
                self._press = _Press(button, QtCore.QPointF(ev.position()), pos,
                                     _mods(ev.modifiers()))
                self.canvas.setFocus(Qt.FocusReason.MouseFocusReason)
                ev.accept()
                return True
        if self._press is not None:
            ev.accept()  # a second button during a point gesture: ignored
            return True
        return False

    def _over_handle(self, pos) -> bool:  # pos: a viewport pixel
        return self._handle_at(self.canvas.mapToScene(QtCore.QPoint(round(pos.x()),
                                                                    round(pos.y()))))

    def _handle_at(self, at) -> bool:  # at: a scene point
        scene = self.canvas.scene()
        return any(shiboken6.isValid(h) and h.scene() is scene and h.isVisible()
                   and h.sceneBoundingRect().contains(at) for h in list(_HANDLES))

    def double_click_event(self, ev) -> bool:
        if self._press is None:
            self.press_event(ev)  # on a point: the second click is a click too
        if self._press is not None:
            ev.accept()
            return True
        return False

    def move_event(self, ev) -> bool:
        self._cursor = QtCore.QPointF(ev.position())
        press = self._press
        if press is None:
            return False
        if press.button == "left":
            if not press.dragging:
                moved = (ev.position() - press.widget_pos).manhattanLength()
                if moved >= QtWidgets.QApplication.startDragDistance():
                    press.dragging = self.tool.drag_start(press.data_pos, self.canvas.pixel_size())
                    if press.dragging:
                        self._set_cursor_shape(Qt.CursorShape.ClosedHandCursor)
            if press.dragging and self.tool.dragging:
                p = self.canvas.widget_to_data(ev.position())
                self.tool.drag_move((p.x(), p.y()))
        ev.accept()
        return True

    def hover_event(self, ev) -> None:
        """A move with no button down: the hover label, and the cursor's shape."""
        if ev.buttons() == Qt.MouseButton.NoButton:
            pos, pixel = self._cursor_in_data()
            over = None if self.canvas.over_legend(ev.position()) else self.tool.hit(pos, pixel)
            self.canvas.set_hovered(over)
            self._set_cursor_shape(Qt.CursorShape.OpenHandCursor if over is not None
                                   else Qt.CursorShape.CrossCursor)

    def release_event(self, ev) -> bool:
        press = self._press
        if press is None:
            return False
        ev.accept()
        if _BUTTONS.get(ev.button()) == press.button:
            self._end_press(ev.position())
        return True

    def _end_press(self, widget_pos) -> None:
        press, self._press = self._press, None
        if press.dragging:
            p = self.canvas.widget_to_data(widget_pos)
            self.tool.drag_finish((p.x(), p.y()))
            self._set_cursor_shape(Qt.CursorShape.OpenHandCursor)
        else:
            self.click(press.button, press.data_pos, press.modifiers)

    def end_drag(self) -> None:
        """End a point drag whose button release never came, at the cursor (see ``Canvas``)."""
        if QtWidgets.QApplication.mouseButtons() != Qt.MouseButton.NoButton:
            return
        self._lost_press.start(0)

    def _end_lost_press(self) -> None:
        if self._press is None or self._press.button != "left":
            return
        viewport = self.canvas.viewport()
        self._end_press(QtCore.QPointF(viewport.mapFromGlobal(QtGui.QCursor.pos())))

    def leave_event(self) -> None:
        self._cursor = None
        self.canvas.set_hovered(None)

    def _set_cursor_shape(self, shape) -> None:
        viewport = self.canvas.viewport()
        if viewport.cursor().shape() != shape:
            viewport.setCursor(shape)

    def _cursor_in_data(self):
        if self._cursor is None:
            return None, None
        p = self.canvas.widget_to_data(self._cursor)
        return (p.x(), p.y()), self.canvas.pixel_size()

    def _key_name(self, ev) -> str:
        """The tool's name for a key ("" for others; arrows, Tab and A only with the cursor)."""
        mods = ev.modifiers() & ~(Qt.KeyboardModifier.ShiftModifier
                                  | Qt.KeyboardModifier.KeypadModifier)
        if mods != Qt.KeyboardModifier.NoModifier:
            return ""  # Ctrl+T and the like belong to the window
        Key = Qt.Key
        k = ev.key()
        if k in _NAMED_KEYS:
            return _NAMED_KEYS[k]
        shown = self.tool.cursor is not None
        if k in _ARROW_KEYS:
            return _ARROW_KEYS[k] if shown else ""
        if k == Key.Key_Tab:
            shift = ev.modifiers() & Qt.KeyboardModifier.ShiftModifier
            return "nearest" if shown and not shift else ""
        if k in (Key.Key_Insert, Key.Key_A):
            return "add" if shown else ""
        text = ev.text()
        return text if text in ("1", "2", "3", "4", "5", "6", "7", "8", "+", "-", "t",
                                "T") else ""

    def shortcut_override_event(self, ev) -> bool:
        """Let the canvas's keys win over window shortcuts, when they would do something here."""
        name = self._key_name(ev)
        if name == "delete":
            pos, pixel = self._cursor_in_data()
            pixel = pixel or self.canvas.pixel_size()
            wanted = self.tool.selection.size > 0 or any(
                p is not None and self.tool.hit(p, pixel) is not None
                for p in (pos, self.tool.cursor))
        elif name == "escape":
            wanted = (self.tool.dragging or self.tool.selection.size > 0
                      or self.tool.cursor is not None)
        else:
            wanted = bool(name)
        if wanted:
            ev.accept()
        return wanted

    def key_press_event(self, ev) -> bool:
        name = self._key_name(ev)
        if not name:
            return False
        pos, _pixel = self._cursor_in_data()
        pixel = self.canvas.pixel_size()
        mods = _mods(ev.modifiers())
        (x0, x1), (y0, y1) = self.canvas.view_rect()
        if not self.tool.key(name, pos, pixel, mods, (x0, x1, y0, y1)):
            return False
        ev.accept()
        cursor = self.tool.cursor
        if name in _CURSOR_NAMES:  # the point under the canvas cursor gets the hover label
            self.canvas.set_hovered(None if cursor is None else self.tool.hit(cursor, pixel))
        return True

    def key_release_event(self, ev) -> None:
        """The end of a burst of arrow keys (not an auto-repeat) ends the keyboard move."""
        if ev.key() in _ARROW_KEYS and not ev.isAutoRepeat():
            self.tool.key_move_end()
