"""LineHandles: the anchor moves the line, the head turns w about the anchor; drags by mouse."""

from __future__ import annotations

import numpy as np
import pyqtgraph as pg
import pytest

from perceptron_gui.ui.widgets.canvas.items.line_handles import LineHandles, anchor_point
from tests.ui.features.mouse import drag

VIEW = (-5.0, 5.0, -4.0, 4.0)


class _Frame:
    view = VIEW


class _Layer:
    """What LineHandles needs of a layer: ``add`` into a view box."""

    def __init__(self, view_box):
        self.view_box, self.items = view_box, {}

    def add(self, name, item, z, *, passive=True):
        item.setZValue(z)
        self.view_box.addItem(item, ignoreBounds=True)
        self.items[name] = item
        return item


@pytest.fixture
def plot(qtbot):
    widget = pg.PlotWidget()
    qtbot.addWidget(widget)
    widget.resize(500, 400)
    widget.setRange(xRange=VIEW[:2], yRange=VIEW[2:], padding=0)
    widget.show()
    qtbot.waitExposed(widget)
    return widget


def _handles(plot):
    layer = _Layer(plot.getViewBox())
    handles = LineHandles(layer, "line", 10)
    return layer, handles


def test_the_anchor_lies_on_the_line_inside_the_view():
    for w, b in (([1.0, 2.0], 0.5), ([0.0, 3.0], -6.0), ([-2.0, 0.1], 9.0), ([1, 1], 30.0)):
        p = anchor_point(w, b, VIEW)
        assert abs(np.dot(w, p) + b) < 1e-9 * max(1.0, abs(b))
        inside = -5 <= p[0] <= 5 and -4 <= p[1] <= 4
        assert inside == (abs(b) / np.hypot(*w) < 6.0)  # the last line misses the view
    assert anchor_point([0.0, 0.0], 1.0, VIEW) is None
    assert anchor_point([np.nan, 1.0], 1.0, VIEW) is None


def test_moving_the_anchor_keeps_w_and_moves_the_line_through_it(plot):
    _layer, handles = _handles(plot)
    moved, released = [], []
    handles.moved.connect(lambda w, b: moved.append((w, b)))
    handles.released.connect(lambda w, b: released.append((w, b)))
    handles.set_line([1.0, 2.0], 0.5, _Frame())
    assert moved == []  # placing is not a drag
    handles.anchor.setPos(2.0, 1.0)
    w, b = moved[-1]
    np.testing.assert_array_equal(w, [1.0, 2.0])
    assert b == -4.0  # the line passes through (2, 1)
    head = handles.head.pos()
    assert (head.x(), head.y()) == (1.0, 2.0)


def test_moving_the_head_turns_w_about_the_anchor(plot):
    _layer, handles = _handles(plot)
    moved = []
    handles.moved.connect(lambda w, b: moved.append((w, b)))
    handles.set_line([1.0, 0.0], -1.0, _Frame())  # x = 1
    a = handles.anchor.pos()
    handles.head.setPos(0.0, 3.0)
    w, b = moved[-1]
    np.testing.assert_array_equal(w, [0.0, 3.0])
    assert w @ np.array([a.x(), a.y()]) + b == pytest.approx(0.0, abs=1e-12)
    handles.head.setPos(0.0, 0.0)  # w = 0 is no line: ignored
    assert len(moved) == 1


def test_without_a_bias_the_anchor_is_hidden_and_b_stays_zero(plot):
    _layer, handles = _handles(plot)
    moved = []
    handles.moved.connect(lambda w, b: moved.append((w, b)))
    handles.set_line([1.0, 1.0], 3.0, _Frame(), translate=False)
    assert not handles.anchor.isVisible() and handles.head.isVisible()
    handles.head.setPos(-2.0, 1.0)
    np.testing.assert_array_equal(moved[-1][0], [-2.0, 1.0])
    assert moved[-1][1] == 0.0


def test_a_mouse_drag_of_the_head_reports_every_move_and_one_release(qtbot, plot):
    _layer, handles = _handles(plot)
    handles.set_line([1.0, 1.0], 0.0, _Frame())
    moved, released = [], []
    handles.moved.connect(lambda w, b: moved.append((w, b)))
    handles.released.connect(lambda w, b: released.append((w, b)))
    drag(plot, (1.0, 1.0), (-2.0, 3.0), steps=8)
    qtbot.waitUntil(lambda: len(released) == 1)
    px = max(plot.getViewBox().viewPixelSize())
    np.testing.assert_allclose(released[0][0], [-2.0, 3.0], atol=3 * px)
    assert len(moved) >= 4
    assert released[0][1] == pytest.approx(
        -float(released[0][0] @ [handles.anchor.pos().x(), handles.anchor.pos().y()]))


def test_the_handles_take_the_size_they_are_given(plot):
    _layer, handles = _handles(plot)
    handles.set_line([1.0, 1.0], 0.5, _Frame())
    small = handles.head.boundingRect().width()
    handles.set_color("#009E73", "#000000", 2.0, size_px=26)
    assert handles.head.scale == handles.anchor.scale == 26
    assert handles.head.boundingRect().width() > 1.5 * small  # drawn larger on screen


def test_the_grip_drags_the_line_parallel_and_takes_the_anchor_along(qtbot, plot):
    layer = _Layer(plot.getViewBox())
    handles = LineHandles(layer, "line", 10, grip=True)
    assert layer.items["line_line"] is handles.grip
    handles.set_line([1.0, 1.0], 0.0, _Frame())  # x + y = 0, anchor at the origin
    a = handles.anchor.pos()
    assert handles.grip.isVisible() and (handles.grip.pos().x(), handles.grip.pos().y()) == (
        a.x(), a.y())
    assert handles.grip.angle % 180 == pytest.approx(135.0)  # along the line
    released = []
    handles.released.connect(lambda w, b: released.append((w, b)))
    drag(plot, (-2.0, 2.0), (-1.0, 3.0))  # on the line, far from both handles
    qtbot.waitUntil(lambda: len(released) == 1)
    w, b = released[0]
    px = max(plot.getViewBox().viewPixelSize())
    np.testing.assert_array_equal(w, [1.0, 1.0])
    assert b == pytest.approx(-2.0, abs=3 * px)  # through (-1, 3): moved by (1, 1)
    a = handles.anchor.pos()
    assert w @ np.array([a.x(), a.y()]) + b == pytest.approx(0.0, abs=1e-12)
    # without a bias there is nothing to move parallel: no grip
    handles.set_line([1.0, 1.0], 0.0, _Frame(), translate=False)
    assert not handles.grip.isVisible()


def test_from_w_0_the_head_keeps_b_and_a_placed_anchor_stays_where_it_was_left(plot):
    _layer, handles = _handles(plot)
    moved = []
    handles.moved.connect(lambda w, b: moved.append((w, b)))
    handles.set_line([0.0, 0.0], 0.0, _Frame())  # no line: no anchor
    assert not handles.anchor.isVisible()
    handles.anchor.setPos(3.0, 3.0)  # wherever a hidden anchor was left
    handles.head.setPos(-1.0, 0.5)
    assert moved[-1][1] == 0.0  # not −w·(3, 3)
    handles.set_line([1.0, 0.0], -1.0, _Frame())
    handles.anchor.setPos(1.0, 2.5)  # dropped there (on x = 1)
    handles.set_line([1.0, 0.0], -1.0, _Frame())  # the redraw of the same line keeps it
    assert (handles.anchor.pos().x(), handles.anchor.pos().y()) == (1.0, 2.5)
    handles.set_line([1.0, 0.0], -2.0, _Frame())  # another line: placed afresh on it
    assert handles.anchor.pos().x() == pytest.approx(2.0)
