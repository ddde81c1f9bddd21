"""A ``ScatterPlotItem`` that never takes a click and sets many points with numpy."""

from __future__ import annotations

import math

import numpy as np
import pyqtgraph as pg
from PySide6 import QtCore

from . import pyqtgraph_internals as internals

__all__ = ["PassiveScatter"]

_HALF_MAX = float(np.finfo(np.float64).max) / 2


class PassiveScatter(pg.ScatterPlotItem):
    """A scatter that takes no click (the tool hit-tests itself), whose ``setData`` costs
    numpy only when every point has the item's style (one atlas look-up, not one a point)."""

    _rect_key = None  # what the rectangle kept was found for (data bounds, pixel padding)

    def mouseClickEvent(self, ev):
        ev.ignore()

    def boundingRect(self):
        """pyqtgraph's, and for points near ±1.8e308, where its padding overflows, the
        widest finite rectangle; kept until the data's bounds, the markers' padding or
        the view's transform change."""
        key = (tuple(self.dataBounds(ax=0)), tuple(self.dataBounds(ax=1)), self.pixelPadding())
        if key == self._rect_key:
            return QtCore.QRectF(self._rect)
        with np.errstate(over="ignore", invalid="ignore"):
            rect = super().boundingRect()
        if not all(math.isfinite(v) for v in (rect.x(), rect.y(), rect.width(), rect.height())):
            rect = QtCore.QRectF(-_HALF_MAX, -_HALF_MAX, 2 * _HALF_MAX, 2 * _HALF_MAX)
        self._rect_key, self._rect = key, rect
        return QtCore.QRectF(rect)

    def viewTransformChanged(self):
        self._rect_key = None  # the pixel padding in data units changed
        super().viewTransformChanged()

    def setData(self, *args, **kargs):
        """pyqtgraph's ``setData``; ``setData(pos=array)`` builds the records with numpy."""
        pos = kargs.get("pos")
        if (args or set(kargs) != {"pos"} or not isinstance(pos, np.ndarray)
                or pos.ndim != 2 or pos.shape[1] != 2):
            super().setData(*args, **kargs)
            return
        internals.set_scatter_positions(self, pos)

    def updateSpots(self, dataSet=None):
        data = self.data if dataSet is None else dataSet
        if not internals.update_uniform_spots(self, data):
            super().updateSpots(dataSet)


def style_scatter(item, symbol, size, brush, pen) -> None:
    """Set a scatter's default look (kept by later ``setData(pos=...)`` calls)."""
    item.setSymbol(symbol)
    item.setSize(size)
    item.setBrush(pg.mkBrush(brush))
    item.setPen(pen)
