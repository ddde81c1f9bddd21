"""The passive scatter builds pyqtgraph's records with numpy, and draws the same pixels."""

from __future__ import annotations

import numpy as np
import pyqtgraph as pg
from PySide6 import QtGui

from perceptron_gui.ui.widgets.canvas.items import PassiveScatter
from tests.ui.canvas.items.helpers import pixels, plot_with


def test_fast_scatter_records_equal_pyqtgraphs(qtbot):
    X = np.random.default_rng(0).normal(size=(500, 2))
    ours, theirs = PassiveScatter(symbol="s", size=10), pg.ScatterPlotItem(symbol="s", size=10)
    ours.setData(pos=X)
    theirs.setData(pos=X)
    assert ours.data.dtype == theirs.data.dtype
    for name in ours.data.dtype.names:
        if name != "item":
            assert ours.data[name].tolist() == theirs.data[name].tolist(), name
    views = plot_with(qtbot, ours), plot_with(qtbot, theirs)
    np.testing.assert_array_equal(pixels(views[0]), pixels(views[1]))
    # per-point styles still take pyqtgraph's path
    ours.setData(pos=X[:2], brush=[pg.mkBrush("r"), pg.mkBrush("b")])
    assert ours.data["brush"][0].color() == QtGui.QColor("red")
