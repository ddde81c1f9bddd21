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


def test_the_bounds_are_pyqtgraphs_found_once_per_view_and_data(qtbot):
    ours = PassiveScatter(symbol="s", size=10)
    ours.setData(pos=np.array([[0.0, 0.0], [1.0, 0.5]]))
    w = plot_with(qtbot, ours)
    vb = w.getViewBox()
    looked_up = []
    real = ours.pixelVectors
    ours.pixelVectors = lambda *a: looked_up.append(1) or real(*a)

    def pyqtgraphs() -> bool:
        return ours.boundingRect() == pg.ScatterPlotItem.boundingRect(ours)

    for change in (lambda: vb.setRange(xRange=(-30, 30), yRange=(-30, 30), padding=0),
                   lambda: ours.setData(pos=np.array([[2.0, 2.0], [-1.0, 0.5]])),
                   lambda: ours.setSize(20)):
        change()
        qtbot.waitUntil(pyqtgraphs)
        looked_up.clear()
        for _ in range(5):
            ours.boundingRect()
        assert len(looked_up) <= 1  # kept while the view and the data stay
