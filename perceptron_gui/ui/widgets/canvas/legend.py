"""The canvas's legend, under the plot: built from the layers' legend entries."""

from __future__ import annotations

import pyqtgraph as pg
from PySide6 import QtGui, QtWidgets

from ... import style
from .items import LegendSample, style_scatter

__all__ = ["CanvasLegend", "line_sample", "marker_sample"]


def line_sample(pen) -> pg.PlotCurveItem:
    """A legend sample drawn with ``pen`` (a bare curve item: its sample draws a line)."""
    return pg.PlotCurveItem(pen=pen)


def marker_sample(symbol, size, brush, pen) -> pg.ScatterPlotItem:
    """A legend sample drawn as one marker."""
    item = pg.ScatterPlotItem()
    style_scatter(item, symbol, size, brush, pen)
    return item


class CanvasLegend:
    """A ``LegendItem`` in its own row under the plot (it never covers a point).

    Rebuilt only when its rows, the scale or the number of columns that fit
    change, so it stays put while editing and during a run.

    Parameters
    ----------
    plot_item : pyqtgraph.PlotItem
        The canvas's plot; the legend goes into row 4, column 1 of its layout.

    Attributes
    ----------
    item : pyqtgraph.LegendItem
    """

    def __init__(self, plot_item):
        self.item = pg.LegendItem(
            sampleType=LegendSample, labelTextColor=style.FOREGROUND, colCount=4,
            horSpacing=12, verSpacing=-6,
        )
        self.item.setObjectName("canvasLegend")
        self.item.setCacheMode(QtWidgets.QGraphicsItem.CacheMode.DeviceCoordinateCache)
        plot_item.layout.addItem(self.item, 4, 1)
        self._key: tuple | None = None
        self._text_width: tuple = (None, 0.0)
        self.samples: list = []

    def apply_scale(self, scale) -> None:
        self.item.setLabelTextSize(f"{scale.font_pt}pt")
        self.item.setLabelTextColor(style.FOREGROUND)
        self._key = None

    def update(self, entries, visible: bool, scale, width: float) -> None:
        """Show ``entries`` (a list of ``LegendEntry``) in as many columns as fit ``width``."""
        texts = tuple(e.text for e in entries)
        if self._text_width[0] != (texts, scale.font_pt):
            font = QtGui.QFont()
            font.setPointSizeF(scale.font_pt)
            metrics = QtGui.QFontMetricsF(font)
            widest = max(metrics.horizontalAdvance(text) for text in texts)
            self._text_width = ((texts, scale.font_pt), widest)
        column = self._text_width[1] + 20 + 12 + 8
        columns = int(max(1, min(len(entries), width // column)))
        key = tuple((e.name, e.text) for e in entries) + (visible, scale.line, scale.marker,
                                                            columns)
        if key == self._key:
            return
        self._key = key
        self.item.clear()
        self.item.setColumnCount(columns)
        self.item.setVisible(visible)
        self.samples = []
        for entry in entries:
            sample = entry.sample()
            self.samples.append(sample)
            self.item.addItem(sample, entry.text)
