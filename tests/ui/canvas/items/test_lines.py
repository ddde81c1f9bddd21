"""The light line item draws the pixels of pyqtgraph's curve, with bounds that hold its pen."""

from __future__ import annotations

import numpy as np
import pyqtgraph as pg
import pytest
from PySide6 import QtCore

from perceptron_gui.ui.widgets.canvas.items import Lines
from tests.ui.canvas.items.helpers import pixels, plot_with


@pytest.mark.parametrize(("connect", "x", "y"), [
    ("all", [-2.0, 2.5], [-1.0, 1.7]),
    ("all", [-2.5, 0.0, 2.0], [0.0, 2.0, -1.5]),
    ("pairs", [-2.5, 2.5, -2.5, 2.5], [-1.0, 0.5, 1.0, 2.5]),
])
def test_lines_draw_the_pixels_of_a_curve(qtbot, connect, x, y):
    pen = pg.mkPen((20, 40, 200), width=3)
    curve = pg.PlotCurveItem(connect=connect, antialias=True, pen=pen)
    curve.setData(x, y)
    lines = Lines(connect=connect)
    lines.setPen(pen)
    lines.setData(x, y)
    a, b = pixels(plot_with(qtbot, curve)), pixels(plot_with(qtbot, lines))
    assert (a != 255).any()  # something was drawn
    np.testing.assert_array_equal(a, b)
    np.testing.assert_array_equal(np.column_stack(lines.getData()), np.column_stack([x, y]))
    assert lines.opts["pen"].widthF() == 3


def test_a_segment_with_a_non_finite_end_is_left_out(qtbot):
    pen = pg.mkPen("k", width=2)
    only = Lines(connect="pairs", pen=pen)
    only.setData([-2.0, 2.0], [1.0, 1.0])
    both = Lines(connect="pairs", pen=pen)
    both.setData([-2.0, 2.0, np.nan, 1.0], [1.0, 1.0, 0.0, -2.0])
    np.testing.assert_array_equal(pixels(plot_with(qtbot, only)), pixels(plot_with(qtbot, both)))


def test_the_bounds_hold_the_pen_of_a_horizontal_line(qtbot):
    lines = Lines(pen=pg.mkPen("k", width=4))
    lines.setData([-2.0, 2.0], [0.5, 0.5])
    w = plot_with(qtbot, lines)
    vb = w.getViewBox()

    def holds_the_pen() -> bool:  # half the 4-pixel pen and a pixel, on every side
        rect = lines.boundingRect()
        sx, sy = vb.viewPixelSize()
        return (rect.top() <= 0.5 - 2.5 * sy and rect.bottom() >= 0.5 + 2.5 * sy
                and rect.left() <= -2.0 - 2.5 * sx and rect.right() >= 2.0 + 2.5 * sx
                and rect.height() <= 10 * sy)  # ... and not much more

    qtbot.waitUntil(holds_the_pen)
    vb.setRange(xRange=(-30, 30), yRange=(-30, 30), padding=0)  # larger pixels
    qtbot.waitUntil(holds_the_pen)
    vb.setRange(xRange=(-0.5, 0.5), yRange=(0, 1), padding=0)  # smaller ones
    qtbot.waitUntil(holds_the_pen)
    assert Lines().boundingRect() == QtCore.QRectF()  # nothing to draw, no bounds


def test_connect_must_be_known():
    with pytest.raises(ValueError, match="connect"):
        Lines(connect="finite")
