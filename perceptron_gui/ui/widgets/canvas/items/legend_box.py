"""The canvas legend's box and its samples: clicks go through to the view, a drag is remembered."""

from __future__ import annotations

import math

import pyqtgraph as pg
from PySide6 import QtCore

__all__ = ["LegendBox", "LegendSample"]


class LegendSample(pg.ItemSample):
    """A legend sample that does not toggle its item on click: the click goes to the view."""

    def mouseClickEvent(self, ev):
        ev.ignore()


class LegendBox(pg.LegendItem):
    """A ``LegendItem`` overlaid on the view: a click goes through to the view, a drag moves
    it (``moved``: it then stays where it was put)."""

    def __init__(self, **kwargs):
        super().__init__(sampleType=LegendSample, **kwargs)
        self.moved = False

    def mouseClickEvent(self, ev):
        ev.ignore()  # the view under it adds (or selects) a point, as if the legend were not there

    def mouseDragEvent(self, ev):
        super().mouseDragEvent(ev)
        if ev.isAccepted():
            self.moved = True

    def updateSize(self):  # noqa: N802 - pyqtgraph's name
        """Take the layout's preferred size (pyqtgraph's sum of the rows' stretched widths kept
        the box as wide as a long row gone)."""
        if self.size is not None:
            return
        self.layout.invalidate()
        hint = self.layout.effectiveSizeHint(QtCore.Qt.SizeHint.PreferredSize)
        self.setGeometry(0, 0, hint.width(), hint.height())

    def make_row(self, item, text: str) -> tuple:
        """A ``(sample, label)`` row, made as ``addItem`` makes them, not shown."""
        label = pg.LabelItem(text, color=self.opts["labelTextColor"], justify="left",
                             size=self.opts["labelTextSize"])
        sample = item if isinstance(item, self.sampleType) else self.sampleType(item)
        sample.sigClicked.connect(self.sigSampleClicked)
        return sample, label

    def show_rows(self, rows, columns: int) -> None:
        """Show ``rows`` (:meth:`make_row`) in ``columns`` columns; the others hidden, not
        destroyed (a row that comes back costs a layout, not a new text item)."""
        layout = self.layout
        for i in range(layout.count() - 1, -1, -1):
            layout.removeAt(i)
        wanted = {id(part) for row in rows for part in row}
        for row in self.items:
            for part in row:
                if id(part) not in wanted:
                    part.setVisible(False)
        self.columnCount = columns
        self.rowCount = math.ceil(len(rows) / columns)
        self.items = list(rows)
        for i, (sample, label) in enumerate(rows):
            r, c = divmod(i, columns)
            layout.addItem(sample, r, 2 * c, alignment=QtCore.Qt.AlignmentFlag.AlignVCenter)
            layout.addItem(label, r, 2 * c + 1)
            sample.setVisible(True)
            label.setVisible(True)
        self.updateSize()

    def drop_rows(self, rows) -> None:
        """Destroy ``rows`` (made by :meth:`make_row`, shown or not), as ``clear`` does."""
        shown = {id(row[0]) for row in self.items}
        if any(id(row[0]) in shown for row in rows):
            self.show_rows([row for row in self.items if row not in rows], self.columnCount)
        for row in rows:
            for part in row:
                part.close()
                scene = part.scene()
                if scene is not None:  # a closed item stays in the scene (PySide)
                    scene.removeItem(part)
