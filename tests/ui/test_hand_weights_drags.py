"""Move w by hand with a real mouse: a held handle keeps the view, the line itself drags.

The press is held while the event loop runs (the canvas's refit comes from a
timer), then released: what was dragged lands on the data point under the
pointer at the release.  Also in presenter mode, from ``w = 0``.
"""

from __future__ import annotations

import numpy as np
import pyqtgraph as pg
import pytest
from PySide6 import QtCore, QtGui, QtWidgets

from perceptron_gui.core import generators
from perceptron_gui.core.dataset import ReplaceAll
from tests.ui.helpers import weights_view

LEFT, NONE = QtCore.Qt.MouseButton.LeftButton, QtCore.Qt.MouseButton.NoButton
T = QtCore.QEvent.Type


@pytest.fixture(autouse=True)
def _every_move_counts():
    """pyqtgraph drops moves closer than 10 ms: off, so a fast test's moves all count."""
    old = pg.getConfigOption("mouseRateLimit")
    pg.setConfigOption("mouseRateLimit", -1)
    yield
    pg.setConfigOption("mouseRateLimit", old)


def _send(canvas, kind, pos, button, buttons):
    vp = canvas.viewport()
    ev = QtGui.QMouseEvent(kind, QtCore.QPointF(pos), vp.mapToGlobal(QtCore.QPointF(pos)),
                           button, buttons, QtCore.Qt.KeyboardModifier.NoModifier)
    QtWidgets.QApplication.sendEvent(vp, ev)


def _press_and_move(canvas, start, target, steps=8):
    """Hover, press at ``start`` and move to ``target`` (widget pixels), button held."""
    _send(canvas, T.MouseMove, start, NONE, NONE)
    _send(canvas, T.MouseButtonPress, start, LEFT, LEFT)
    for k in range(1, steps + 1):
        _send(canvas, T.MouseMove, start + (target - start) * (k / steps), NONE, LEFT)


def _release(canvas, at):
    _send(canvas, T.MouseButtonRelease, at, LEFT, NONE)


def _ready(window):
    window.push_edit(ReplaceAll.from_dataset(generators.separable(40, seed=3)))
    window.canvas.fit_view()
    window.canvas.refresh()
    hand = window.hand_weights
    assert hand.enter()
    window.canvas.refresh()
    return hand, window.canvas, window.canvas.layer("hand_weights")


def _xy(p):
    return np.array([p.x(), p.y()])


def test_a_held_head_keeps_the_view_and_w_lands_under_the_pointer(qtbot, window):
    _hand, canvas, layer = _ready(window)
    ws = window.workspace
    assert ws.start is None and layer.handles.head.isVisible()  # from w = 0: at the origin
    view = canvas.view_rect()
    count = window.undo_stack.count()
    start = canvas.data_to_widget(0.0, 0.0)
    (x0, x1), (y0, y1) = view
    # near the view's top right corner: the arrow's head there wants the view to grow
    target = canvas.data_to_widget(x1, y1) + QtCore.QPointF(-14.0, 14.0)
    _press_and_move(canvas, start, target)
    # the event loop runs the refit's timer while the button is held: it waits
    qtbot.waitUntil(lambda: canvas.refit_waiting or canvas.view_rect() != view)
    assert canvas.view_rect() == view
    shown = ws.start[0].copy()  # what the drag shows, held
    under = _xy(canvas.widget_to_data(target))
    px = max(canvas.pixel_size())  # Qt's scene takes the press at whole pixels
    np.testing.assert_allclose(shown, under, atol=px)
    _release(canvas, target)
    qtbot.waitUntil(lambda: window.undo_stack.count() == count + 1)
    np.testing.assert_allclose(ws.start[0], under, atol=px)  # the data under the pointer
    assert ws.start[1] == 0.0  # from w = 0 there was no line to turn about: b stays
    # after the release the view may grow for the head past its edge; w stays where it was put
    qtbot.waitUntil(lambda: not canvas.refit_waiting)
    np.testing.assert_array_equal(ws.start[0], np.asarray(shown))
    canvas.refresh()
    head = layer.handles.head.pos()
    np.testing.assert_allclose(_xy(head), shown, atol=1e-12)
    a = _xy(layer.handles.anchor.pos())  # the anchor came with the line it now has
    assert layer.handles.anchor.isVisible() and float(shown @ a) == pytest.approx(0, abs=1e-9)


def _free_point_on_line(canvas, layer, w, b, ds):
    """A widget pixel on the line, far from the handles and the points (and the legend)."""
    n = np.asarray(w) / np.linalg.norm(w)
    foot = -b * n / np.linalg.norm(w)
    along = np.array([-n[1], n[0]])
    (x0, x1), (y0, y1) = canvas.view_rect()
    handles = [_xy(layer.handles.anchor.pos()), _xy(layer.handles.head.pos())]
    for t in np.linspace(-(x1 - x0), x1 - x0, 401):
        p = foot + t * along
        q = canvas.data_to_widget(*p)
        if not (x0 + 0.15 * (x1 - x0) < p[0] < x1 - 0.15 * (x1 - x0)
                and y0 + 0.15 * (y1 - y0) < p[1] < y1 - 0.15 * (y1 - y0)):
            continue
        pixels = [canvas.data_to_widget(*v) for v in (*handles, *ds.X)]
        if canvas.over_legend(q) or min(
                (q - v).manhattanLength() for v in pixels) < 40:
            continue
        return p, q
    raise AssertionError("no free place on the line")


def test_the_line_itself_is_dragged_parallel_not_the_view(qtbot, window):
    hand, canvas, layer = _ready(window)
    ws = window.workspace
    w = np.array([1.0, 0.5])
    assert hand.set_weights(tuple(w), -0.25)
    canvas.refresh()
    assert layer.handles.grip.isVisible()
    view = canvas.view_rect()
    count = window.undo_stack.count()
    p, start = _free_point_on_line(canvas, layer, w, -0.25, ws.dataset)
    target = start + QtCore.QPointF(30.0, -18.0)
    _press_and_move(canvas, start, target)
    qtbot.waitUntil(lambda: ws.start[1] != -0.25)  # followed live
    _release(canvas, target)
    qtbot.waitUntil(lambda: window.undo_stack.count() == count + 1)
    assert canvas.view_rect() == view  # no pan
    np.testing.assert_array_equal(ws.start[0], w)
    moved = p + _xy(canvas.widget_to_data(target)) - _xy(canvas.widget_to_data(start))
    b = ws.start[1]
    assert float(w @ moved) + b == pytest.approx(0.0, abs=0.05 * max(canvas.pixel_size()))
    assert ws.dataset.n == 40  # no point added by the press
    # the anchor went along: it is on the moved line, and the head turns about it
    canvas.refresh()
    a = _xy(layer.handles.anchor.pos())
    assert float(w @ a) + b == pytest.approx(0.0, abs=1e-9)
    window.undo_stack.undo()
    assert ws.start[1] == -0.25


def test_presenter_mode_from_w_0_the_head_then_the_square_drag(qtbot, window):
    window.actions["presenter_mode"].trigger()
    hand, canvas, layer = _ready(window)
    ws = window.workspace
    assert hand.set_weights((0.5, 0.5), 1.0)
    canvas.refresh()
    window.actions["clear_hand_weights"].trigger()  # "From w = 0"
    assert ws.start is None
    canvas.fit_view()
    canvas.refresh()
    view = canvas.view_rect()
    count = window.undo_stack.count()
    # the head from w = 0 (at the origin) to a point up left
    start = canvas.data_to_widget(0.0, 0.0)
    target = canvas.data_to_widget(-1.0, 0.8)
    _press_and_move(canvas, start, target)
    _release(canvas, target)
    qtbot.waitUntil(lambda: window.undo_stack.count() == count + 1)
    w, b = ws.start
    np.testing.assert_allclose(w, _xy(canvas.widget_to_data(target)), atol=0.01)
    assert b == 0.0
    # the square is on the line now, visible, and a press on it drags it (no pan)
    a = _xy(layer.handles.anchor.pos())
    assert layer.handles.anchor.isVisible() and float(w @ a) + b == pytest.approx(0, abs=1e-9)
    start = canvas.data_to_widget(*a)
    target = start + QtCore.QPointF(40.0, 30.0)
    _press_and_move(canvas, start, target)
    _release(canvas, target)
    qtbot.waitUntil(lambda: window.undo_stack.count() == count + 2)
    assert canvas.view_rect() == view
    dropped = _xy(canvas.widget_to_data(target))
    np.testing.assert_array_equal(ws.start[0], w)
    assert ws.start[1] == pytest.approx(-float(w @ dropped), abs=0.01)
    assert ws.start[1] != 0.0
    window.actions["leave_presenter_mode"].trigger()


def test_off_view_points_from_the_edge_towards_the_point():
    from perceptron_gui.ui.views.weights.geometry import off_view

    assert off_view((0.5, -1.0), (-2, 2), (-2, 2)) is None
    assert off_view((np.nan, 1.0), (-2, 2), (-2, 2)) is None
    q, u = off_view((-30.0, 3.0), (-2, 2), (-1, 3))
    np.testing.assert_allclose(u, np.array([-30.0, 2.0]) / np.hypot(30, 2))
    assert q[0] == pytest.approx(-2 + 0.08 * 4) and -1 < q[1] < 3  # on the inset left edge
    assert (q - np.array([0.0, 1.0])) @ u > 0  # from the centre towards the point


def test_a_far_hand_set_w0_keeps_the_polygon_in_sight_and_is_pointed_at(qtbot, window):
    from perceptron_gui.ui.views.weights.geometry import FAR

    hand, _canvas, _layer = _ready(window)
    ws = window.workspace
    # nearly across from w*: far out in the chart around w*
    from perceptron_gui.ui.views.weights.hand import chart_weights

    w, b = chart_weights((-25.0, 3.0), ws.novikoff.w_star, 1.0, ws.params["bias_scale"])
    assert hand.set_weights(tuple(w), b)
    view = weights_view(qtbot, window)
    pic = view.picture
    assert pic.chart
    p0 = pic.points[-1]
    V = pic.region.vertices
    region = float(np.hypot(V[:, 0], V[:, 1]).max())
    (x0, x1), (y0, y1) = view.plot.getViewBox().viewRange()
    half = (x1 - x0) / 2
    assert np.isfinite(p0).all() and np.hypot(*p0) > 2 * half  # w₀ is past the view...
    assert half <= 1.25 * max(FAR * region, 2.0) * 1.01  # ...which the polygon still fills
    assert region > 0.1 * half
    # w₀ pointed at from the edge, inside the view, towards it
    assert view.far.isVisible() and view.far_label.isVisible()
    assert view.far_label.textItem.toPlainText().startswith("w₀ at (")
    q = np.array([view.far.pos().x(), view.far.pos().y()])
    assert x0 < q[0] < x1 and y0 < q[1] < y1
    assert (p0 - q) @ (q - np.array([(x0 + x1) / 2, (y0 + y1) / 2])) > 0
    # a run brings w into the view: no arrow then
    ws.run_to_end()
    view.refresh()
    (x0, x1), (y0, y1) = view.plot.getViewBox().viewRange()
    now = view.picture.points[-1]
    assert x0 <= now[0] <= x1 and y0 <= now[1] <= y1
    assert not view.far.isVisible()


def test_the_weight_space_view_holds_still_under_a_dragged_w(qtbot, window):
    hand, _canvas, _layer = _ready(window)
    ws = window.workspace
    hand.set_weights((0.5, 0.25), -0.5)
    view = weights_view(qtbot, window)
    plot, vb = view.plot, view.plot.getViewBox()
    before = vb.targetRange()  # the range fitted (the caption's layout may resize the plot)
    p0 = view.picture.points[0]
    (x0, x1), (y0, y1) = before

    def at(x, y):
        return QtCore.QPointF(plot.mapFromScene(vb.mapViewToScene(QtCore.QPointF(x, y))))

    start, target = at(*p0), at(x0 + 0.15 * (x1 - x0), y1 - 0.15 * (y1 - y0))  # up left
    vp = plot.viewport()

    def send(kind, pos, button, buttons):
        ev = QtGui.QMouseEvent(kind, pos, vp.mapToGlobal(pos), button, buttons,
                               QtCore.Qt.KeyboardModifier.NoModifier)
        QtWidgets.QApplication.sendEvent(vp, ev)

    send(T.MouseMove, start, NONE, NONE)
    send(T.MouseButtonPress, start, LEFT, LEFT)
    for k in range(1, 9):
        send(T.MouseMove, start + (target - start) * (k / 8), NONE, LEFT)
    # the preview reached the view (its refresh is coalesced): the range did not follow
    qtbot.waitUntil(lambda: view.picture.points[-1][0] < p0[0] - 0.5 * (x1 - x0) * 0.5)
    assert vb.targetRange() == before  # no refit under the pointer
    count = window.undo_stack.count()
    send(T.MouseButtonRelease, target, LEFT, NONE)
    qtbot.waitUntil(lambda: window.undo_stack.count() == count + 1)
    from perceptron_gui.core.theory.weight_space import gnomonic

    w, b = ws.start
    v = np.r_[w, b / ws.params["bias_scale"]]
    under = vb.mapSceneToView(plot.mapToScene(target.toPoint()))
    px = max(vb.viewPixelSize())
    np.testing.assert_allclose(gnomonic(v, view.picture.region.center),
                               (under.x(), under.y()), atol=2 * px)
    view.refresh()
    assert vb.targetRange() == before  # nor after the release: w stays where it was put
    from perceptron_gui.ui.views.weights.hand import chart_weights

    w, b = chart_weights((2.5, 0.5), view.picture.region.center, 1.0, ws.params["bias_scale"])
    hand.set_weights(tuple(w), b)  # w set another way, further out: the view fits again
    view.refresh()
    assert vb.targetRange() != before
