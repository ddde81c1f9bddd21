"""Help ▸ Keyboard and mouse: a table generated from the window's own actions.

Every action with a shortcut gets a row, so the reference lists exactly the keys that
work; the canvas's gestures and keys, which are not actions, follow.
"""

from __future__ import annotations

from typing import TYPE_CHECKING

from PySide6 import QtCore, QtGui, QtWidgets

if TYPE_CHECKING:
    from .window_api import WindowAPI

__all__ = ["CANVAS_ROWS", "KeyboardHelp", "shortcut_rows"]

#: The canvas's gestures and keys (not actions): (keys, what they do).
CANVAS_ROWS = (
    ("Left click", "Add a point of the active class"),
    ("Right click", "Add a point of the other class (with more classes: the next)"),
    ("Drag a point", "Move it (one undo step per drag)"),
    ("Drag empty space, middle drag", "Pan"),
    ("Wheel", "Zoom"),
    ("Click a point", "Select it"),
)


def _plain(text: str) -> str:
    return text.replace("&&", "\0").replace("&", "").replace("\0", "&").rstrip(".…")


def shortcut_rows(window: WindowAPI) -> list[tuple[str, str]]:
    """(shortcuts, text and status tip) for every action with a shortcut, once, in order."""
    rows = []
    seen = set()
    for act in window.actions.values():
        keys = [s for k in act.shortcuts()
                if (s := k.toString(QtGui.QKeySequence.SequenceFormat.NativeText))]
        if not keys or id(act) in seen:
            continue
        seen.add(id(act))
        text = _plain(act.text())
        tip = act.statusTip()
        for key in keys:  # the keys have their own column
            tip = tip.replace(f" ({key})", "")
        if tip and _plain(tip) != text:
            text = f"{text} — {tip}"
        rows.append((", ".join(keys), text))
    return rows


class KeyboardHelp(QtWidgets.QDialog):
    """The keyboard and mouse reference of ``window``, in two aligned columns of even rows."""

    def __init__(self, window: WindowAPI):
        super().__init__(window)
        self.setObjectName("keyboardHelp")
        self.setWindowTitle("Keyboard and mouse")
        from .widgets.canvas.tool import KEYS  # the canvas's own keys

        rows = (shortcut_rows(window) + list(CANVAS_ROWS)
                + [(keys, what[:1].upper() + what[1:]) for keys, what in KEYS])
        self.table = QtWidgets.QTableWidget(len(rows), 2, self)
        self.table.setObjectName("keyboardTable")
        self.table.setHorizontalHeaderLabels(["Keys", "Does"])
        self.table.verticalHeader().setVisible(False)
        self.table.setEditTriggers(QtWidgets.QAbstractItemView.EditTrigger.NoEditTriggers)
        # one line a row, every row as high as the others: a text too long for the
        # column is elided, and whole in its tooltip
        self.table.setWordWrap(False)
        self.table.setTextElideMode(QtCore.Qt.TextElideMode.ElideRight)
        self.table.setAlternatingRowColors(True)
        for i, (keys, text) in enumerate(rows):
            for j, cell in enumerate((keys, text)):
                item = QtWidgets.QTableWidgetItem(cell)
                item.setToolTip(cell)
                self.table.setItem(i, j, item)
        rows_header = self.table.verticalHeader()
        rows_header.setSectionResizeMode(QtWidgets.QHeaderView.ResizeMode.Fixed)
        rows_header.setDefaultSectionSize(self.fontMetrics().height() + 8)
        header = self.table.horizontalHeader()
        header.setSectionResizeMode(0, QtWidgets.QHeaderView.ResizeMode.ResizeToContents)
        header.setSectionResizeMode(1, QtWidgets.QHeaderView.ResizeMode.Stretch)
        buttons = QtWidgets.QDialogButtonBox(QtWidgets.QDialogButtonBox.StandardButton.Close)
        buttons.rejected.connect(self.reject)
        layout = QtWidgets.QVBoxLayout(self)
        layout.addWidget(self.table)
        layout.addWidget(buttons)
        self.resize(self._width(rows), 560)

    def _width(self, rows) -> int:
        """Wide enough for the longest row, within 90 % of the screen."""
        metrics = self.table.fontMetrics()
        keys = max((metrics.horizontalAdvance(k) for k, _ in rows), default=0)
        text = max((metrics.horizontalAdvance(t) for _, t in rows), default=0)
        wanted = keys + text + 120  # cell padding, the scroll bar, the dialog's margins
        screen = self.screen()
        most = int(screen.availableGeometry().width() * 0.9) if screen is not None else wanted
        return max(720, min(wanted, most))

    def texts(self) -> list[tuple[str, str]]:
        """The table's rows as (keys, what they do)."""
        return [(self.table.item(i, 0).text(), self.table.item(i, 1).text())
                for i in range(self.table.rowCount())]

