"""The numpy-only marker item draws the pixels of pyqtgraph's scatter, and exports vectors."""

from __future__ import annotations

import os
import subprocess
import sys
from pathlib import Path

import numpy as np
import pyqtgraph as pg
import pytest
from PySide6 import QtCore, QtGui

from perceptron_gui.ui.widgets.canvas.items import Marks
from tests.ui.canvas.items.helpers import pixels, plot_with

ROOT = Path(__file__).resolve().parents[4]


@pytest.mark.parametrize("symbol", ["x", "o", "s"])
def test_marks_draw_the_pixels_of_a_scatter(qtbot, symbol):
    X = np.random.default_rng(3).normal(size=(40, 2))
    pen = pg.mkPen("w", width=0.5)
    scatter = pg.ScatterPlotItem(pos=X, symbol=symbol, size=9, brush=pg.mkBrush("k"), pen=pen)
    marks = Marks()
    marks.set_style(symbol, 9, "k", pen)
    marks.setData(pos=X)
    a, b = pixels(plot_with(qtbot, scatter)), pixels(plot_with(qtbot, marks))
    assert (a != 255).any()  # something was drawn
    np.testing.assert_array_equal(a, b)
    np.testing.assert_array_equal(np.column_stack(marks.getData()), X)


def test_marks_export_as_vectors(qtbot):
    from PySide6 import QtSvg

    marks = Marks()
    marks.set_style("x", 9, "k", pg.mkPen("w"))
    marks.setData(pos=np.array([[0.0, 0.0], [1.0, 1.0], [-1.0, 2.0]]))
    w = plot_with(qtbot, marks)

    def svg_of(export: bool) -> str:
        buffer = QtCore.QBuffer()
        generator = QtSvg.QSvgGenerator()
        generator.setOutputDevice(buffer)
        generator.setSize(QtCore.QSize(300, 240))
        marks.setExportMode(export, {"antialias": True} if export else None)
        painter = QtGui.QPainter(generator)
        painter.setTransform(marks.deviceTransform(w.viewportTransform()))
        marks.paint(painter, None, None)
        painter.end()
        marks.setExportMode(False)
        del painter, generator  # before the buffer it writes to
        return bytes(buffer.data()).decode()

    vector, raster = svg_of(True), svg_of(False)
    assert "<image" not in vector and vector.count("<path") >= 3
    assert "<image" in raster  # on screen: pixmap fragments
    assert w.isVisible()


_HIDPI = """
import numpy as np
from PySide6 import QtGui, QtWidgets
app = QtWidgets.QApplication([])
import pyqtgraph as pg
from perceptron_gui.ui.widgets.canvas.items import Marks
X = np.random.default_rng(0).normal(size=(30, 2))
images = []
for marks in (False, True):
    w = pg.PlotWidget(background="w")
    w.resize(300, 200)
    w.getViewBox().setRange(xRange=(-3, 3), yRange=(-3, 3), padding=0)
    pen = pg.mkPen("w", width=0.5)
    if marks:
        item = Marks()
        item.set_style("x", 9, "k", pen)
        item.setData(pos=X)
        item.setCacheMode(QtWidgets.QGraphicsItem.CacheMode.DeviceCoordinateCache)
    else:
        item = pg.ScatterPlotItem(pos=X, symbol="x", size=9, brush=pg.mkBrush("k"), pen=pen)
    w.addItem(item)
    w.show()
    app.processEvents()
    image = w.grab().toImage().convertToFormat(QtGui.QImage.Format.Format_RGBA8888)
    assert image.devicePixelRatio() == 2.0
    images.append(np.frombuffer(bytes(image.constBits()), np.uint8).astype(int))
print(int(np.abs(images[0] - images[1]).max()), flush=True)
import os
os._exit(0)  # skip the interpreter's teardown of the Qt objects
"""


def test_cached_marks_are_sharp_on_a_high_dpi_screen():
    env = dict(os.environ, QT_QPA_PLATFORM="offscreen", QT_SCALE_FACTOR="2")
    proc = subprocess.run([sys.executable, "-c", _HIDPI], capture_output=True, text=True,
                          env=env, cwd=str(ROOT), timeout=120, check=False)
    assert proc.returncode == 0, proc.stderr
    assert int(proc.stdout.strip().splitlines()[-1]) <= 2  # rounding of the cache blend


def test_the_bounds_hold_the_markers_at_every_zoom_found_once_per_view(qtbot):
    marks = Marks()
    marks.set_style("o", 10, "r", pg.mkPen("k", width=1))
    marks.setData(pos=np.array([[0.0, 0.0], [1.0, 0.5]]))
    w = plot_with(qtbot, marks)
    vb = w.getViewBox()
    looked_up = []
    real = marks.pixelVectors
    marks.pixelVectors = lambda *a: looked_up.append(1) or real(*a)

    def holds_the_markers() -> bool:  # half the marker's diagonal, pen included
        rect, (sx, sy) = marks.boundingRect(), vb.viewPixelSize()
        pad = 11 * 0.7072
        return (rect.left() == pytest.approx(-pad * sx) and rect.right() == pytest.approx(
            1.0 + pad * sx) and rect.top() == pytest.approx(-pad * sy)
            and rect.bottom() == pytest.approx(0.5 + pad * sy))

    for view in ((-3, 3), (-30, 30), (-0.5, 1.5)):
        vb.setRange(xRange=view, yRange=view, padding=0)
        qtbot.waitUntil(holds_the_markers)
        looked_up.clear()
        for _ in range(5):
            assert holds_the_markers()
        assert len(looked_up) <= 1  # kept while the view stays
