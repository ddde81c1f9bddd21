"""A demo playing: its mode (:class:`DemoPlaying`) and the clicker's keys, whatever has focus.

Left to Qt, a clicker's keys reach the focused widget once the demo's own
actions are disabled (after the last caption, → moved the speed slider), and
the arrows move the focus between buttons: an application event filter takes
them first while a demo plays (an open menu or dialog keeps its keys).
"""

from __future__ import annotations

from PySide6 import QtCore, QtGui, QtWidgets

from ..modes import Mode, register_mode

__all__ = ["CLICKER_KEYS", "ClickerKeys", "DemoPlaying"]

_K = QtCore.Qt.Key
#: The keys a presentation clicker sends, and what each does while a demo plays.
CLICKER_KEYS = {_K.Key_Right: "next", _K.Key_PageDown: "next", _K.Key_Space: "next",
                _K.Key_Left: "prev", _K.Key_PageUp: "prev"}
_PLAIN = (QtCore.Qt.KeyboardModifier.NoModifier, QtCore.Qt.KeyboardModifier.KeypadModifier)


@register_mode
class DemoPlaying(Mode):
    """A demo playing: Esc stops it (before presenter mode); the views area shows the first
    of the demo's ``views`` that exists."""

    name = "demo"
    esc = "demo_stop_key"
    esc_priority = 10

    def __init__(self, window, views=()):
        super().__init__(window)
        self.views = tuple(views)

    def shown(self) -> list:
        return [self.window.views] if self.views else []

    def entered(self) -> None:
        area = self.window.views
        for name in self.views:
            if name in area.names():
                area.setCurrentWidget(area.view(name))
                break


class ClickerKeys(QtCore.QObject):
    """Takes the clicker's keys of ``window`` and calls ``on_key("next" | "prev")``.

    Auto-repeat of "next" is dropped: a held key must not race through a lecture.
    """

    def __init__(self, parent, window, on_key):
        super().__init__(parent)
        self._window = window
        self._on_key = on_key
        self.owned = False

    def set_owned(self, on: bool) -> None:
        """Take the keys (a demo started) or give them back (it ended)."""
        app = QtWidgets.QApplication.instance()
        if on != self.owned and app is not None:
            (app.installEventFilter if on else app.removeEventFilter)(self)
            self.owned = on

    def _ours(self, obj, event) -> bool:
        if event.key() not in CLICKER_KEYS or event.modifiers() not in _PLAIN:
            return False
        app = QtWidgets.QApplication
        if app.activePopupWidget() is not None or app.activeModalWidget() is not None:
            return False  # an open menu or dialog keeps its keys
        widget = obj if isinstance(obj, QtWidgets.QWidget) else None
        if widget is None and isinstance(obj, QtGui.QWindow):
            widget = app.focusWidget()
        return widget is not None and widget.window() is self._window

    def eventFilter(self, obj, event) -> bool:  # noqa: N802 - Qt's name
        kind = event.type()
        if kind not in (QtCore.QEvent.Type.ShortcutOverride, QtCore.QEvent.Type.KeyPress) \
                or not self._ours(obj, event):
            return False
        if kind == QtCore.QEvent.Type.ShortcutOverride:
            event.accept()  # no window shortcut: the key press comes to this filter
            return True
        what = CLICKER_KEYS[event.key()]
        if not event.isAutoRepeat() or what == "prev":
            self._on_key(what)
        return True
