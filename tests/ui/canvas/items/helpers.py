"""Shared by the item tests: a bare plot showing one item, and its pixels."""

from __future__ import annotations

import numpy as np
import pyqtgraph as pg
from PySide6 import QtGui


def pixels(widget) -> np.ndarray:
    image = widget.grab().toImage().convertToFormat(QtGui.QImage.Format.Format_RGBA8888)
    return np.frombuffer(bytes(image.constBits()), np.uint8).reshape(
        image.height(), image.width(), 4).astype(int)


def plot_with(qtbot, item) -> pg.PlotWidget:
    w = pg.PlotWidget(background="w")
    qtbot.addWidget(w)
    w.resize(300, 240)
    w.getPlotItem().hideAxis("left")
    w.getPlotItem().hideAxis("bottom")
    w.getViewBox().setRange(xRange=(-3, 3), yRange=(-3, 3), padding=0)
    w.addItem(item)
    w.show()
    qtbot.waitExposed(w)
    return w
