"""The canvas widget: coalesced redraws, the view API, switches, scale, and its lifetime."""

from __future__ import annotations

import numpy as np
import pyqtgraph as pg
import pytest
import shiboken6
from PySide6 import QtCore

from perceptron_gui.core.dataset import (
    AddPoints,
    Dataset,
)
from perceptron_gui.core.workspace import Workspace
from perceptron_gui.ui import style
from perceptron_gui.ui.widgets.canvas import (
    Canvas,
)
from tests.ui.canvas.helpers import (
    line_residual,
    separable_ws,
)


def test_redraws_are_coalesced_on_a_zero_timer(make_canvas, qtbot):
    canvas, ws = make_canvas(separable_ws())
    canvas.set_view_rect((-50, 50), (-50, 50))  # set, not fitted: it does not follow w
    canvas.grab()  # a paint settles the view range (pyqtgraph announces it lazily)
    qtbot.waitUntil(lambda: not canvas._timer.isActive())
    count = []
    original = canvas._update_model
    canvas._update_model = lambda: (count.append(1), original())
    for _ in range(5):
        ws.step()
    assert count == []  # nothing drawn synchronously
    assert canvas._timer.isActive()
    qtbot.waitUntil(lambda: not canvas._timer.isActive())
    assert count == [1]
    i = ws.current_event.index
    highlight = canvas.layer("examined").items["highlight"]
    np.testing.assert_allclose(highlight.getData()[0], ws.dataset.X[[i], 0])


def test_fit_view_frames_data_and_origin(make_canvas):
    canvas, ws = make_canvas(Workspace(Dataset([[10.0, 12.0], [14.0, 11.0]], [1, -1])))
    canvas.fit_view()
    (x0, x1), (y0, y1) = canvas.getViewBox().viewRange()
    assert x0 < 0 < 14 < x1 and y0 < 0 < 12 < y1
    empty, _ = make_canvas(view=None)
    empty.fit_view()
    (x0, x1), (y0, y1) = empty.getViewBox().viewRange()
    assert x0 <= -5 and x1 >= 5 and y0 <= -5 and y1 >= 5
    assert min(x1 - x0, y1 - y0) == pytest.approx(10.0)


@pytest.mark.parametrize(
    "X, y",
    [
        (np.empty((0, 2)), np.empty(0)),
        ([[1.0, 1.0]], [1]),
        ([[1.0, 1.0], [2.0, 2.0]], [1, 1]),
        ([[1.0, 1.0], [1.0, 1.0], [1.0, 1.0]], [1, -1, 1]),
        ([[0.0, 0.0], [0.0, 0.0]], [1, -1]),
        ([[2.0, 0.0], [-2.0, 0.0], [2.0, 1.0]], [1, -1, 1]),  # vertical boundary, w[1] = 0
        ([[1e12, 3e12], [-2e12, -1e12], [4e12, 1e12]], [1, -1, 1]),
        ([[1e-12, 3e-12], [-2e-12, -1e-12], [4e-12, 1e-12]], [1, -1, 1]),
    ],
)
@pytest.mark.parametrize("learner", ["primal", "dual", "lda"])
def test_edge_cases_never_raise(make_canvas, X, y, learner):
    params = {"dual": {"kernel": "rbf"}} if learner == "dual" else None
    ws = Workspace(Dataset(X, y), learner=learner, params=params)
    canvas, ws = make_canvas(ws, view=None)
    canvas.set_visible_layers(max_margin=True, lda=True)
    canvas.fit_view()
    canvas.refresh()
    for _ in range(3):
        ws.step_update()
        canvas.refresh()
    ws.run_to_end()
    canvas.refresh()
    canvas.set_scale(style.PRESENTER)
    canvas.grab()
    ro = ws.readouts()
    boundary = canvas.layer("boundary").items["boundary"]
    if ro.w is not None and np.any(ro.w != 0) and boundary.isVisible():
        assert line_residual(boundary, ro.w, ro.b) <= 1e-6 * np.abs(X).max()


def test_layers_and_presenter_scale(make_canvas):
    canvas, ws = make_canvas(separable_ws())
    ws.step_update()
    canvas.refresh()
    assert canvas.layer("weight").items["weight_line"].isVisible()
    canvas.set_visible_layers(weight=False, regions=False, legend=False)
    canvas.refresh()
    assert not canvas.layer("weight").items["weight_line"].isVisible()
    assert not canvas.layer("boundary").items["region_pos"].isVisible()
    assert not canvas.legend.isVisible()
    assert canvas.layer_visible("weight") is False
    canvas.set_scale(style.PRESENTER)
    assert canvas.layer("data").items["scatter_0"].opts["size"] == style.PRESENTER.marker
    assert canvas.layer("boundary").items["boundary"].opts["pen"].widthF() == style.PRESENTER.line


def test_closing_the_canvas_disconnects_it(qtbot):
    ws = separable_ws()
    canvas = Canvas(ws)
    canvas.deleteLater()
    QtCore.QCoreApplication.sendPostedEvents(None, QtCore.QEvent.Type.DeferredDelete)
    ws.step()
    ws.apply_edit(AddPoints([1.0, 1.0], 1))  # no slot of a deleted canvas is called


def test_view_rect_round_trips_and_fit_view_uses_it(make_canvas):
    canvas, ws = make_canvas(view=None)
    canvas.set_view_rect((-2.0, 6.0), (-1.0, 7.0))
    (x0, x1), (y0, y1) = canvas.view_rect()
    assert x0 <= -2.0 and x1 >= 6.0 and y0 <= -1.0 and y1 >= 7.0
    assert min(x1 - x0, y1 - y0) == pytest.approx(8.0)
    canvas.set_view_rect((0.0, 10.0), (0.0, 10.0), padding=0.1)
    (x0, x1), _ = canvas.view_rect()
    assert x1 - x0 == pytest.approx(12.0)


def test_closing_destroys_the_whole_scene_at_once(make_canvas):
    canvas, ws = make_canvas(separable_ws())
    ws.step_update()
    canvas.refresh()
    items = canvas.scene().items()
    assert any(isinstance(item, pg.LabelItem) for item in items)  # the legend's rows
    canvas.close()
    # pyqtgraph's close() takes the view box and the axes out of the scene: nothing of
    # it may be left for the garbage collector to tear down later, in no set order
    assert [type(item).__name__ for item in items if shiboken6.isValid(item)] == []
    canvas.close()  # twice is harmless
    assert [type(item).__name__ for item in items if shiboken6.isValid(item)] == []


class _FirstPaint(QtCore.QObject):
    """Records the left axis's width when the canvas is first painted."""

    def __init__(self, axis):
        super().__init__()
        self.axis, self.width = axis, None

    def eventFilter(self, obj, event):  # noqa: N802 - Qt's name
        if event.type() == QtCore.QEvent.Type.Paint and self.width is None:
            self.width = self.axis.width()
        return False


def test_the_first_frame_is_laid_out_as_the_settled_one(qtbot):
    """The left axis has its labels' width at the first paint, so that paint moves nothing."""
    canvas = Canvas(Workspace())
    qtbot.addWidget(canvas)
    canvas.resize(560, 480)
    axis = canvas.getPlotItem().getAxis("left")
    probe = _FirstPaint(axis)
    canvas.viewport().installEventFilter(probe)
    canvas.show()
    qtbot.waitUntil(lambda: probe.width is not None)
    canvas.grab()  # pyqtgraph measures the tick labels while painting and resizes the axis
    QtCore.QCoreApplication.processEvents()
    assert probe.width == axis.width()
    assert axis.width() < 35  # sized for "−4", not pyqtgraph's 35 px default for text
