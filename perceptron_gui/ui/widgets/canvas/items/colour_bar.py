"""A vertical colour bar in screen pixels: a colour table, its title and its ticks."""

from __future__ import annotations

import numpy as np
from PySide6 import QtCore, QtGui, QtWidgets

__all__ = ["ColourBar", "LINES"]

#: The bar's lengths in lines of its type, longest first: the longest is drawn where
#: there is room for it, a shorter one where the points leave no room for a longer.
LINES = (9.0, 7.0, 5.5, 4.0, 3.0)


class ColourBar(QtWidgets.QGraphicsItem):
    """A colour table drawn bottom (first row) to top (last row), with a title and ticks
    ``(position, label)``, positions from 0 (bottom) to 1 (top)."""

    def __init__(self, title: str, ticks):
        super().__init__()
        self.title = title
        self.ticks = list(ticks)
        self._colors: list[QtGui.QColor] = []  # the table's rows, top first
        self._font = QtGui.QFont()
        self._pen = QtGui.QPen(QtGui.QColor("#333333"))
        self._back = QtGui.QColor(255, 255, 255, 200)
        self._bar = QtCore.QRectF(0, 0, 16, 160)
        self._lines = LINES[0]
        self.setAcceptedMouseButtons(QtCore.Qt.MouseButton.NoButton)
        self._layout()

    def set_table(self, table: np.ndarray) -> None:
        """The colours, RGBA uint8 of shape (n, 4), the first at the bottom."""
        rows = np.asarray(table[::-1, :4], dtype=np.ubyte)  # top row first
        self._colors = [QtGui.QColor(*(int(v) for v in row)) for row in rows]
        self.update()

    def set_labels(self, title: str, ticks) -> None:
        """A new title and ticks ``(position, label)``."""
        ticks = list(ticks)
        if title != self.title or ticks != self.ticks:
            self.prepareGeometryChange()
            self.title, self.ticks = title, ticks
            self._layout()
            self.update()

    def set_style(self, font_pt: float, foreground, background) -> None:
        """Text and outline in ``foreground`` at ``font_pt`` on a translucent ``background``."""
        self.prepareGeometryChange()
        self._font = QtGui.QFont()
        self._font.setPointSizeF(font_pt)
        self._pen = QtGui.QPen(QtGui.QColor(foreground))
        back = QtGui.QColor(background)
        back.setAlpha(215)
        self._back = back
        self._layout()

    def set_length(self, lines: float) -> None:
        """The bar ``lines`` lines of its type long (one of :data:`LINES`)."""
        if lines != self._lines:
            self.prepareGeometryChange()
            self._lines = lines
            self._layout()

    def _layout(self) -> None:
        metrics = QtGui.QFontMetricsF(self._font)
        h = metrics.height()
        tick = 0.4 * h
        self._bar = QtCore.QRectF(0, 0, 1.4 * h, self._lines * h)
        label_w = max(metrics.horizontalAdvance(text) for _, text in self.ticks)
        self._bar.moveTopLeft(QtCore.QPointF(0.5 * h, 1.6 * h))
        width = max(self._bar.right() + tick + 0.3 * h + label_w,
                    metrics.horizontalAdvance(self.title)) + 0.5 * h
        self._rect = QtCore.QRectF(0, 0, width, self._bar.bottom() + 0.8 * h)
        self._tick = tick

    def bar_rect(self) -> QtCore.QRectF:
        """Where the colours are, in the item's coordinates."""
        return QtCore.QRectF(self._bar)

    def boundingRect(self) -> QtCore.QRectF:  # noqa: N802 (Qt's name)
        return QtCore.QRectF(self._rect)

    def paint(self, painter, option, widget=None) -> None:  # noqa: D102
        painter.setRenderHint(QtGui.QPainter.RenderHint.Antialiasing, False)
        painter.fillRect(self._rect, self._back)
        painter.setFont(self._font)
        painter.setPen(self._pen)
        metrics = QtGui.QFontMetricsF(self._font)
        h = metrics.height()
        painter.drawText(QtCore.QRectF(0, 0.2 * h, self._rect.width(), h),
                         QtCore.Qt.AlignmentFlag.AlignHCenter, self.title)
        if self._colors:  # a strip a level, not an image: Qt's SVG writer placed an
            # image without the item's offset
            bar, n = self._bar, len(self._colors)
            step = bar.height() / n
            for k, color in enumerate(self._colors):
                painter.fillRect(QtCore.QRectF(bar.left(), bar.top() + k * step, bar.width(),
                                               step + 0.5), color)
        bar = self._bar  # its frame as a polyline: Qt's SVG writer dropped a rect's offset
        painter.drawPolyline(QtGui.QPolygonF([bar.topLeft(), bar.topRight(), bar.bottomRight(),
                                              bar.bottomLeft(), bar.topLeft()]))
        for pos, text in self.ticks:
            y = self._bar.bottom() - pos * self._bar.height()
            x = self._bar.right()
            painter.drawLine(QtCore.QPointF(x, y), QtCore.QPointF(x + self._tick, y))
            painter.drawText(QtCore.QPointF(x + self._tick + 0.3 * h,
                                            y + 0.5 * (metrics.ascent() - metrics.descent())),
                             text)
