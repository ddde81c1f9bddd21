"""Help ▸ Keyboard and mouse: a table generated from the window's own actions.

Every action of the window with a shortcut gets a row (its shortcuts, then what
it does), so the reference lists exactly the keys that work; the canvas's mouse
gestures and keys, which are not actions, follow from :data:`CANVAS_ROWS`.
"""

from __future__ import annotations

from typing import TYPE_CHECKING

from PySide6 import QtGui, QtWidgets

if TYPE_CHECKING:
    from .window_api import WindowAPI

__all__ = ["CANVAS_ROWS", "KeyboardHelp", "canvas_key_rows", "shortcut_rows"]

#: The canvas's gestures and keys (not actions): (keys, what they do).
CANVAS_ROWS = (
    ("Left click", "Add a point of the active class"),
    ("Right click", "Add a point of the other class"),
    ("Drag a point", "Move it (one undo step per drag)"),
    ("Drag empty space, middle drag", "Pan"),
    ("Wheel", "Zoom"),
    ("Click a point", "Select it"),
    ("Delete, Backspace", "Remove the selected points"),
)


def canvas_key_rows() -> list[tuple[str, str]]:
    """The canvas's own keys (its cursor, adding, selecting, the active class)."""
    from .widgets.canvas.tool import KEYS

    return [(keys, what[:1].upper() + what[1:]) for keys, what in KEYS]


def _plain(text: str) -> str:
    return text.replace("&&", "\0").replace("&", "").replace("\0", "&").rstrip(".…")


def shortcut_rows(window: WindowAPI) -> list[tuple[str, str]]:
    """(shortcuts, description) for every action of ``window`` with a shortcut.

    The actions are those registered in ``window.actions``; the description is
    the action's text (status tip when it says more); actions are listed once,
    in the order they were registered.
    """
    rows = []
    seen = set()
    for act in window.actions.values():
        keys = [k.toString(QtGui.QKeySequence.SequenceFormat.NativeText)
                for k in act.shortcuts() if not k.isEmpty()]
        keys = [k for k in keys if k]
        if not keys or id(act) in seen:
            continue
        seen.add(id(act))
        text = _plain(act.text())
        tip = act.statusTip()
        if tip and _plain(tip) != text:
            text = f"{text} — {tip}"
        rows.append((", ".join(keys), text))
    return rows


class KeyboardHelp(QtWidgets.QDialog):
    """The keyboard and mouse reference of ``window``, in two aligned columns.

    Attributes
    ----------
    table : QtWidgets.QTableWidget
        Rows of (keys, what they do): the actions first, then the canvas.
    """

    def __init__(self, window: WindowAPI):
        super().__init__(window)
        self.setObjectName("keyboardHelp")
        self.setWindowTitle("Keyboard and mouse")
        rows = shortcut_rows(window) + list(CANVAS_ROWS) + canvas_key_rows()
        self.table = QtWidgets.QTableWidget(len(rows), 2, self)
        self.table.setObjectName("keyboardTable")
        self.table.setHorizontalHeaderLabels(["Keys", "Does"])
        self.table.verticalHeader().setVisible(False)
        self.table.setEditTriggers(QtWidgets.QAbstractItemView.EditTrigger.NoEditTriggers)
        self.table.setWordWrap(True)
        self.table.setAlternatingRowColors(True)
        for i, (keys, text) in enumerate(rows):
            self.table.setItem(i, 0, QtWidgets.QTableWidgetItem(keys))
            self.table.setItem(i, 1, QtWidgets.QTableWidgetItem(text))
        header = self.table.horizontalHeader()
        header.setSectionResizeMode(0, QtWidgets.QHeaderView.ResizeMode.ResizeToContents)
        header.setSectionResizeMode(1, QtWidgets.QHeaderView.ResizeMode.Stretch)
        self.table.resizeRowsToContents()
        buttons = QtWidgets.QDialogButtonBox(QtWidgets.QDialogButtonBox.StandardButton.Close)
        buttons.rejected.connect(self.reject)
        layout = QtWidgets.QVBoxLayout(self)
        layout.addWidget(self.table)
        layout.addWidget(buttons)
        self.resize(720, 560)

    def texts(self) -> list[tuple[str, str]]:
        """The table's rows as (keys, what they do)."""
        return [(self.table.item(i, 0).text(), self.table.item(i, 1).text())
                for i in range(self.table.rowCount())]

