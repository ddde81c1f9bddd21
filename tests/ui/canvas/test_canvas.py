"""Tests of the canvas: gestures become edits, and every drawn item is geometrically true.

The main window is simulated by connecting ``canvas.editRequested`` to
``workspace.apply_edit``.  Mouse events are sent straight to the viewport with
explicit buttons (``QTest.mouseMove`` carries no buttons).  Point drags run
with pyqtgraph's default mouse rate limit (the canvas sees every move); the
pan test switches the limit off, since the view's own pan drops close moves.
"""

from __future__ import annotations

import math

import numpy as np
import pyqtgraph as pg
import pytest
from PySide6 import QtCore, QtGui, QtWidgets

from perceptron_gui.core import datasets
from perceptron_gui.core.dataset import (
    AddPoints,
    Dataset,
    MovePoints,
)
from perceptron_gui.core.learners.lda import covariance_ellipse
from perceptron_gui.core.workspace import Workspace
from perceptron_gui.ui import style
from perceptron_gui.ui.widgets.canvas import (
    Canvas,
)
from perceptron_gui.ui.widgets.canvas.layers.draw import set_arrow

Qt = QtCore.Qt
LEFT, RIGHT, MIDDLE = (
    Qt.MouseButton.LeftButton, Qt.MouseButton.RightButton, Qt.MouseButton.MiddleButton
)


# --------------------------------------------------------------------------- helpers


@pytest.fixture
def no_mouse_rate_limit():
    """pyqtgraph's scene drops moves closer than 10 ms: the view's pans need this off.

    Point gestures do not: the canvas handles them with every event.
    """
    old = pg.getConfigOption("mouseRateLimit")
    pg.setConfigOption("mouseRateLimit", -1)
    yield
    pg.setConfigOption("mouseRateLimit", old)


@pytest.fixture
def make_canvas(qtbot):
    """Build a shown canvas on a workspace whose edits are applied (the window's job)."""

    def make(ws: Workspace | None = None, *, connect: bool = True, view=(-5, 5, -5, 5)):
        ws = ws if ws is not None else Workspace()
        canvas = Canvas(ws)
        qtbot.addWidget(canvas)
        canvas.resize(560, 480)
        canvas.show()
        qtbot.waitExposed(canvas)
        if connect:
            canvas.editRequested.connect(ws.apply_edit)
        if view is not None:
            canvas.getViewBox().setRange(xRange=view[:2], yRange=view[2:], padding=0)
        canvas.refresh()
        return canvas, ws

    return make


def _mouse(canvas, kind, xy, button=Qt.MouseButton.NoButton, buttons=None, mods=None):
    """Send one mouse event to the viewport at data coordinates ``xy`` (or a QPointF)."""
    pos = xy if isinstance(xy, QtCore.QPointF) else canvas.data_to_widget(*xy)
    vp = canvas.viewport()
    if buttons is None:
        release = kind == QtCore.QEvent.Type.MouseButtonRelease
        buttons = Qt.MouseButton.NoButton if release else button
    ev = QtGui.QMouseEvent(
        kind, pos, vp.mapToGlobal(pos), button, buttons, mods or Qt.KeyboardModifier.NoModifier
    )
    QtWidgets.QApplication.sendEvent(vp, ev)


def click(canvas, xy, button=LEFT, mods=None):
    _mouse(canvas, QtCore.QEvent.Type.MouseMove, xy)
    _mouse(canvas, QtCore.QEvent.Type.MouseButtonPress, xy, button, mods=mods)
    _mouse(canvas, QtCore.QEvent.Type.MouseButtonRelease, xy, button, mods=mods)


def drag(canvas, start, end, button=LEFT, steps=6):
    """Press at ``start``, move in ``steps`` to ``end``, release.

    ``start`` and ``end`` are data coordinates in the view as it is before the
    drag (a pan moves the view under the pointer).
    """
    a, b = canvas.data_to_widget(*start), canvas.data_to_widget(*end)
    _mouse(canvas, QtCore.QEvent.Type.MouseMove, a)
    _mouse(canvas, QtCore.QEvent.Type.MouseButtonPress, a, button)
    for t in np.linspace(0, 1, steps + 1)[1:]:
        _mouse(canvas, QtCore.QEvent.Type.MouseMove, a + t * (b - a), button, button)
    _mouse(canvas, QtCore.QEvent.Type.MouseButtonRelease, b, button)


def key(qtbot, canvas, k, text=""):
    ev = QtGui.QKeyEvent(QtCore.QEvent.Type.KeyPress, k, Qt.KeyboardModifier.NoModifier, text)
    QtWidgets.QApplication.sendEvent(canvas, ev)


def tol(canvas) -> float:
    """Two screen pixels in data units: the precision of a click."""
    return 2.0 * max(canvas.pixel_size())


def curve_xy(item) -> np.ndarray:
    x, y = item.getData()
    return np.column_stack([x, y])


def separable_ws(**kwargs) -> Workspace:
    X = np.array([[3, 1], [2, 3], [1, 2.5], [-1, -2], [-2, 0.5], [0.5, -2.5]], float)
    y = np.array([1, 1, 1, -1, -1, -1])
    return Workspace(Dataset(X, y), **kwargs)


# --------------------------------------------------------------------------- editing


def test_left_click_adds_a_point_of_the_active_class(make_canvas):
    canvas, ws = make_canvas()
    assert canvas.objectName() == "canvas"
    click(canvas, (1.5, -2.0))
    assert ws.dataset.n == 1
    np.testing.assert_allclose(ws.dataset.X[0], [1.5, -2.0], atol=tol(canvas))
    assert ws.dataset.y[0] == 1


def test_right_click_adds_the_other_class_without_a_context_menu(make_canvas):
    canvas, ws = make_canvas()
    click(canvas, (-2.0, 3.0), RIGHT)
    assert QtWidgets.QApplication.activePopupWidget() is None
    assert ws.dataset.n == 1 and ws.dataset.y[0] == -1
    np.testing.assert_allclose(ws.dataset.X[0], [-2.0, 3.0], atol=tol(canvas))
    canvas.active_class = -1
    click(canvas, (2.0, 3.0), RIGHT)
    assert ws.dataset.y.tolist() == [-1, 1]


def test_the_canvas_never_applies_an_edit_itself(make_canvas):
    canvas, ws = make_canvas(connect=False)
    edits = []
    canvas.editRequested.connect(edits.append)
    click(canvas, (1.0, 1.0))
    assert ws.dataset.n == 0
    assert len(edits) == 1 and isinstance(edits[0], AddPoints)


def test_class_switch_keys(make_canvas, qtbot):
    canvas, ws = make_canvas()
    seen = []
    canvas.activeClassChanged.connect(seen.append)
    key(qtbot, canvas, Qt.Key.Key_2, "2")
    assert canvas.active_class == -1
    click(canvas, (0.5, 0.5))
    key(qtbot, canvas, Qt.Key.Key_Plus, "+")
    assert canvas.active_class == 1
    key(qtbot, canvas, Qt.Key.Key_Minus, "-")
    assert canvas.active_class == -1
    key(qtbot, canvas, Qt.Key.Key_T, "t")
    assert canvas.active_class == 1
    key(qtbot, canvas, Qt.Key.Key_1, "1")  # no change, no signal
    click(canvas, (-0.5, 0.5))
    assert ws.dataset.y.tolist() == [-1, 1]
    assert seen == [-1, 1, -1, 1]
    with pytest.raises(ValueError):
        canvas.active_class = 0


def test_drag_a_point_moves_it_in_one_stream_of_moves(make_canvas):
    canvas, ws = make_canvas(Workspace(Dataset([[1.0, 1.0], [-2.0, -1.0]], [1, -1])))
    edits, finished = [], []
    canvas.editRequested.connect(edits.append)
    canvas.dragFinished.connect(lambda: finished.append(True))
    drag(canvas, (1.0, 1.0), (2.5, -0.5))
    assert ws.dataset.n == 2
    np.testing.assert_allclose(ws.dataset.X[0], [2.5, -0.5], atol=tol(canvas))
    np.testing.assert_array_equal(ws.dataset.X[1], [-2.0, -1.0])
    assert len(edits) >= 3 and all(isinstance(e, MovePoints) for e in edits)
    assert all(e.indices.tolist() == [0] for e in edits)
    merged = edits[0]
    for e in edits[1:]:
        merged = merged.merge(e)
    np.testing.assert_array_equal(merged.X, ws.dataset.X[[0]])
    assert finished == [True]
    assert canvas.tool.dragging is False
    assert len(edits) == 6  # one move per pointer move, none dropped (the scene's rate limit)


def test_drag_on_empty_space_pans_and_edits_nothing(make_canvas, no_mouse_rate_limit):
    canvas, ws = make_canvas(Workspace(Dataset([[1.0, 1.0]], [1])))
    edits = []
    canvas.editRequested.connect(edits.append)
    before = np.array(canvas.getViewBox().viewRange())
    drag(canvas, (-3.0, -3.0), (-1.0, -2.0))
    after = np.array(canvas.getViewBox().viewRange())
    assert edits == []
    assert ws.dataset.n == 1
    # the data under the pointer follows it: the view moves by minus the drag
    np.testing.assert_allclose(after - before, [[-2.0, -2.0], [-1.0, -1.0]], atol=3 * tol(canvas))
    before = after
    drag(canvas, (1.0, 1.0), (2.0, 1.0), MIDDLE)  # a middle drag pans even on a point
    assert edits == []
    np.testing.assert_allclose(ws.dataset.X[0], [1.0, 1.0])
    after = np.array(canvas.getViewBox().viewRange())
    np.testing.assert_allclose(after - before, [[-1.0, -1.0], [0.0, 0.0]], atol=3 * tol(canvas))


def test_wheel_zooms_about_the_cursor(make_canvas):
    canvas, ws = make_canvas()
    before = np.array(canvas.getViewBox().viewRange())
    pos = canvas.data_to_widget(2.0, 1.0)
    vp = canvas.viewport()
    ev = QtGui.QWheelEvent(pos, vp.mapToGlobal(pos), QtCore.QPoint(0, 0), QtCore.QPoint(0, 240),
                           Qt.MouseButton.NoButton, Qt.KeyboardModifier.NoModifier,
                           Qt.ScrollPhase.NoScrollPhase, False)
    QtWidgets.QApplication.sendEvent(vp, ev)
    after = np.array(canvas.getViewBox().viewRange())
    assert np.ptp(after, axis=1).max() < 0.9 * np.ptp(before, axis=1).max()
    p = canvas.widget_to_data(pos)  # the point under the cursor stays under it
    assert ws.dataset.n == 0
    np.testing.assert_allclose([p.x(), p.y()], [2.0, 1.0], atol=tol(canvas))


def test_click_selects_escape_clears_delete_removes_selection(make_canvas, qtbot):
    X = [[1.0, 1.0], [-2.0, -1.0], [2.0, -2.0]]
    canvas, ws = make_canvas(Workspace(Dataset(X, [1, -1, 1])))
    click(canvas, (-2.0, -1.0))
    assert ws.dataset.n == 3  # a click on a point does not add one
    assert canvas.selection.tolist() == [1]
    assert canvas.selection_marks.isVisible()
    click(canvas, (2.0, -2.0), mods=Qt.KeyboardModifier.ControlModifier)
    assert canvas.selection.tolist() == [1, 2]
    key(qtbot, canvas, Qt.Key.Key_Escape)
    assert canvas.selection.tolist() == []
    canvas.refresh()
    assert not canvas.selection_marks.isVisible()
    click(canvas, (1.0, 1.0))
    click(canvas, (2.0, -2.0), mods=Qt.KeyboardModifier.ShiftModifier)
    key(qtbot, canvas, Qt.Key.Key_Delete)
    np.testing.assert_array_equal(ws.dataset.X, [[-2.0, -1.0]])
    assert canvas.selection.tolist() == []


def test_delete_removes_the_point_under_the_cursor(make_canvas, qtbot):
    canvas, ws = make_canvas(Workspace(Dataset([[1.0, 1.0], [-2.0, -1.0]], [1, -1])))
    _mouse(canvas, QtCore.QEvent.Type.MouseMove, (0.0, 3.0))  # hovering nothing
    key(qtbot, canvas, Qt.Key.Key_Delete)
    assert ws.dataset.n == 2
    _mouse(canvas, QtCore.QEvent.Type.MouseMove, (-2.0 + 0.5 * tol(canvas), -1.0))
    key(qtbot, canvas, Qt.Key.Key_Backspace)
    np.testing.assert_array_equal(ws.dataset.X, [[1.0, 1.0]])


def test_canvas_keys_override_window_shortcuts_only_when_useful(make_canvas):
    canvas, ws = make_canvas(Workspace(Dataset([[1.0, 1.0]], [1])))

    def overridden(k, text="", mods=Qt.KeyboardModifier.NoModifier):
        ev = QtGui.QKeyEvent(QtCore.QEvent.Type.ShortcutOverride, k, mods, text)
        ev.ignore()
        QtWidgets.QApplication.sendEvent(canvas, ev)
        return ev.isAccepted()

    assert overridden(Qt.Key.Key_2, "2")
    assert not overridden(Qt.Key.Key_T, "t", Qt.KeyboardModifier.ControlModifier)
    assert not overridden(Qt.Key.Key_Space, " ")  # stepping is the window's
    assert not overridden(Qt.Key.Key_Delete)  # nothing under the cursor, nothing selected
    assert not overridden(Qt.Key.Key_Escape)
    _mouse(canvas, QtCore.QEvent.Type.MouseMove, (1.0, 1.0))
    assert overridden(Qt.Key.Key_Delete)
    click(canvas, (1.0, 1.0))
    assert overridden(Qt.Key.Key_Escape)


def test_cursor_shows_what_a_press_would_do(make_canvas):
    canvas, ws = make_canvas(Workspace(Dataset([[1.0, 1.0]], [1])))
    _mouse(canvas, QtCore.QEvent.Type.MouseMove, (1.0, 1.0))
    assert canvas.viewport().cursor().shape() == Qt.CursorShape.OpenHandCursor
    _mouse(canvas, QtCore.QEvent.Type.MouseMove, (-3.0, 1.0))
    assert canvas.viewport().cursor().shape() == Qt.CursorShape.CrossCursor


def test_right_click_on_a_point_flips_its_class(make_canvas):
    canvas, ws = make_canvas(Workspace(Dataset([[1.0, 1.0]], [1])))
    click(canvas, (1.0, 1.0), RIGHT)
    assert ws.dataset.n == 1 and ws.dataset.y.tolist() == [-1]


# --------------------------------------------------------------------------- drawing


def _line_residual(item, w, b) -> float:
    """Largest |w·p + b| / ||w|| over the drawn vertices of a line item."""
    P = curve_xy(item)
    return float(np.max(np.abs(P @ w + b)) / np.linalg.norm(w))


def _arrow_direction(head: pg.ArrowItem) -> np.ndarray:
    """The direction an ArrowItem points to on screen, as a data-space unit vector.

    The head's path has its tip at (0, 0) and its body behind the tip; the item
    ignores the view's transform, so path coordinates are pixels with y down.
    """
    path = head.path
    pts = {(round(path.elementAt(i).x, 6), round(path.elementAt(i).y, 6))
           for i in range(path.elementCount())}
    c = np.mean(list(pts), axis=0)  # tip, base corners, inner point: on the axis
    v = np.array([-c[0], c[1]])  # from the body to the tip, y flipped up
    return v / np.linalg.norm(v)


def test_boundary_arrow_update_and_ghost_match_the_run(make_canvas):
    canvas, ws = make_canvas(separable_ws())
    ws.step_update()
    ws.step_update()
    canvas.refresh()
    ev = ws.current_event
    assert ev.mistake
    w, b = ws.learner.coef_[0], float(ws.learner.intercept_[0])
    assert canvas.boundary.isVisible()
    assert _line_residual(canvas.boundary, w, b) < 1e-9
    # the drawn segment spans the view (it is clipped to a margin around it)
    (x0, x1), (y0, y1) = canvas.getViewBox().viewRange()
    assert np.ptp(curve_xy(canvas.boundary), axis=0).max() > (x1 - x0)
    np.testing.assert_allclose(curve_xy(canvas.weight_line), [[0, 0], w])
    np.testing.assert_allclose(_arrow_direction(canvas.weight_head), w / np.linalg.norm(w),
                               atol=0.02)
    pos = canvas.weight_head.pos()
    np.testing.assert_allclose([pos.x(), pos.y()], w)
    # the update eta*y*x, from w_before to w_after, and the ghost of the old boundary
    np.testing.assert_allclose(curve_xy(canvas.delta_line), [ev.w_before, ev.w_after])
    d = ev.w_after - ev.w_before
    np.testing.assert_allclose(_arrow_direction(canvas.delta_head), d / np.linalg.norm(d),
                               atol=0.02)
    assert canvas.ghost_line.isVisible()
    assert _line_residual(canvas.ghost_line, ev.w_before, ev.b_before) < 1e-9
    # the examined sample
    np.testing.assert_allclose(canvas.highlight.getData()[0], [ws.dataset.X[ev.index, 0]])
    np.testing.assert_allclose(canvas.highlight.getData()[1], [ws.dataset.X[ev.index, 1]])


def test_arrow_points_along_w_in_every_quadrant(make_canvas):
    canvas, ws = make_canvas()
    for angle in np.arange(0, 360, 30):
        v = np.array([math.cos(math.radians(angle)), math.sin(math.radians(angle))])
        set_arrow(canvas.weight_line, canvas.weight_head, np.zeros(2), 3 * v, canvas.pixel_size())
        np.testing.assert_allclose(_arrow_direction(canvas.weight_head), v, atol=0.02)


def test_margin_band_at_the_current_margin(make_canvas):
    canvas, ws = make_canvas(separable_ws())
    ws.run_to_end()
    canvas.refresh()
    ro = ws.readouts()
    assert ro.margin > 0
    assert canvas.band_edges.isVisible() and canvas.band_fill.isVisible()
    w, b = ro.w, ro.b
    dist = (curve_xy(canvas.band_edges) @ w + b) / np.linalg.norm(w)
    np.testing.assert_allclose(np.sort(np.abs(dist)), np.full(4, ro.margin), rtol=1e-9)
    assert sorted(np.sign(dist).tolist()) == [-1, -1, 1, 1]
    canvas.set_visible_layers(margin_band=False)
    canvas.refresh()
    assert not canvas.band_edges.isVisible()


def test_regions_are_the_two_half_planes(make_canvas, qtbot):
    canvas, ws = make_canvas(separable_ws())
    ws.run_to_end()
    canvas.refresh()
    w, b = ws.readouts().w, ws.readouts().b
    assert canvas.region_pos.isVisible() and canvas.region_neg.isVisible()
    for item, sign in ((canvas.region_pos, 1), (canvas.region_neg, -1)):
        poly = item.path().toFillPolygon()
        P = np.array([[p.x(), p.y()] for p in poly])
        assert np.all(sign * (P @ w + b) >= -1e-9 * np.linalg.norm(w) * np.abs(P).max())
    # the pixels agree: bluish where w·x + b > 0, orange where < 0
    image = canvas.grab().toImage()
    n = w / np.linalg.norm(w)
    for sign in (1, -1):
        p = canvas.data_to_widget(*(sign * 4.5 * n - b * n / np.linalg.norm(w)))
        c = image.pixelColor(int(p.x()), int(p.y()))
        assert (c.blue() - c.red()) * sign > 0, (sign, c.getRgb())


def test_mistakes_marked_and_data_scatters_untouched_by_the_run(make_canvas, monkeypatch):
    ws = Workspace(datasets.overlapping(40, seed=4))
    canvas, ws = make_canvas(ws)
    calls = []
    for name in ("scatter_pos", "scatter_neg"):
        item = getattr(canvas, name)
        original = item.setData
        monkeypatch.setattr(item, "setData", lambda *a, _o=original, **k: (calls.append(1),
                                                                            _o(*a, **k)))
    for _ in range(25):
        ws.step()
    ws.step_epoch()
    canvas.refresh()
    calls.clear()
    for _ in range(10):
        ws.step_update()
        canvas._flush()  # what the zero timer does after run_changed
    assert calls == []
    mis = ws.misclassified()
    assert mis.size > 0
    x, y = canvas.mistake_marks.getData()
    np.testing.assert_allclose(np.column_stack([x, y]), ws.dataset.X[mis])
    assert canvas.mistake_marks.isVisible()
    ws.apply_edit(AddPoints([0.0, 0.0], 1))
    canvas._flush()
    assert len(calls) == 2  # a data change re-sets each class scatter once


def test_redraws_are_coalesced_on_a_zero_timer(make_canvas, qtbot):
    canvas, ws = make_canvas(separable_ws())
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
    np.testing.assert_allclose(canvas.highlight.getData()[0], ws.dataset.X[[i], 0])


def test_kernel_contour_for_rbf_dual(make_canvas):
    ws = Workspace(datasets.circles(60, seed=1), learner="dual",
                   params={"dual": {"kernel": "rbf", "gamma": 1.0}})
    canvas, ws = make_canvas(ws)
    canvas.refresh()
    assert not canvas.contour.isVisible()  # alpha = 0: no boundary yet
    ws.step_epoch()
    ws.step_epoch()
    canvas.refresh()
    assert canvas.contour.isVisible() and canvas.region_image.isVisible()
    assert not canvas.boundary.isVisible() and not canvas.weight_line.isVisible()
    P = curve_xy(canvas.contour)
    assert P.shape[0] >= 20
    f = ws.learner.decision_function(P)
    scale = np.abs(ws.learner.decision_function(ws.dataset.X)).mean()
    assert np.abs(f).max() < 0.05 * scale
    # alpha labels for the support vectors
    sv = ws.learner.support_
    shown = [t for t in canvas.layer("alpha").labels if t.isVisible()]
    assert len(shown) == sv.size
    assert {t.toPlainText() for t in shown} <= {f"α={a}" for a in ws.learner.alpha_[sv]}


def test_kernel_grid_is_exact_and_the_same_on_every_path(make_canvas):
    ws = Workspace(datasets.circles(60, seed=2), learner="dual",
                   params={"dual": {"kernel": "poly", "degree": 3, "bias_scale": 2.0}})
    canvas, ws = make_canvas(ws)
    kernel = canvas.layer("kernel")
    original = ws.learner.decision_function
    grids = {}
    for move in ["step_update"] * 6 + ["step_back"] * 3 + ["step_update"] * 2:
        getattr(ws, move)()
        canvas.refresh()
        xs, ys, F = kernel.values(ws, kernel.cache["geometry"], kernel.cache["rect"], None, None)
        np.testing.assert_allclose(F, original(kernel.cache["G"]),
                                   rtol=1e-9, atol=1e-9)
        key = ws.step_count
        if key in grids:  # reached again along another path: the same bits
            assert np.array_equal(grids[key], F)
        grids[key] = F.copy()
    # each support vector's kernel column is computed once
    assert set(kernel.cache["cols"]) == set(ws.learner.support_.tolist()) | set(
        kernel.cache["cols"])
    step = ws.step_count
    ws.run_to_end()
    canvas.refresh()
    ws.seek(step)
    canvas.refresh()
    _, _, F = kernel.values(ws, kernel.cache["geometry"], kernel.cache["rect"], None, None)
    assert np.array_equal(grids[step], F)


def test_lda_means_and_ellipses(make_canvas):
    ws = Workspace(datasets.blobs(60, seed=3), learner="lda")
    canvas, ws = make_canvas(ws)
    canvas.refresh()
    lda = ws.lda
    assert canvas.lda_ellipses.isVisible() and canvas.lda_means.isVisible()
    x, y = canvas.lda_means.getData()
    np.testing.assert_allclose(np.column_stack([x, y]), lda.means_)
    P = curve_xy(canvas.lda_ellipses)
    ref = covariance_ellipse(lda.means_[0], lda.covariance_, n_std=2.0)
    np.testing.assert_allclose(P[: len(ref)], ref)
    w, b = lda.coef_[0], float(lda.intercept_[0])
    assert _line_residual(canvas.boundary, w, b) < 1e-9
    # beside a perceptron, on demand, with its own boundary
    ws.set_learner("primal")
    canvas.refresh()
    assert not canvas.lda_ellipses.isVisible()
    canvas.set_visible_layers(lda=True)
    canvas.refresh()
    assert canvas.lda_ellipses.isVisible() and canvas.lda_line.isVisible()
    assert _line_residual(canvas.lda_line, w, b) < 1e-9


def test_max_margin_layer(make_canvas):
    canvas, ws = make_canvas(separable_ws())
    assert not canvas.layer_visible("max_margin")
    canvas.set_visible_layers(max_margin=True)
    canvas.refresh()
    mm = ws.max_margin
    assert canvas.mm_line.isVisible()
    assert _line_residual(canvas.mm_line, mm.coef, mm.intercept) < 1e-9
    x, y = canvas.mm_support.getData()
    np.testing.assert_allclose(np.column_stack([x, y]), ws.dataset.X[mm.support])
    dist = (curve_xy(canvas.mm_edges) @ mm.coef + mm.intercept) / np.linalg.norm(mm.coef)
    np.testing.assert_allclose(np.abs(dist), mm.margin, rtol=1e-9)
    with pytest.raises(ValueError):
        canvas.set_visible_layers(nonsense=True)


def test_radius_circle_is_the_largest_input_norm(make_canvas):
    canvas, ws = make_canvas(separable_ws())
    R = np.linalg.norm(ws.dataset.X, axis=1).max()
    rect = canvas.radius_circle.rect()
    np.testing.assert_allclose([rect.center().x(), rect.center().y()], [0.0, 0.0])
    np.testing.assert_allclose([rect.width() / 2, rect.height() / 2], [R, R])
    assert canvas.radius_circle.isVisible()
    ws.set_learner("lda")  # R belongs to the perceptron's bound
    canvas.refresh()
    assert not canvas.radius_circle.isVisible()


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
    if ro.w is not None and np.any(ro.w != 0) and canvas.boundary.isVisible():
        assert _line_residual(canvas.boundary, ro.w, ro.b) <= 1e-6 * np.abs(X).max()


def test_w_zero_hides_the_model(make_canvas):
    canvas, ws = make_canvas(separable_ws())
    assert ws.running and ws.step_count == 0
    for item in (canvas.boundary, canvas.weight_line, canvas.weight_head, canvas.region_pos,
                 canvas.mistake_marks, canvas.band_edges, canvas.highlight):
        assert not item.isVisible()


def test_vertical_boundary(make_canvas):
    canvas, ws = make_canvas(Workspace(Dataset([[2.0, 0.0], [-2.0, 0.0]], [1, -1]),
                                       params={"primal": {"fit_intercept": False}}))
    ws.run_to_end()
    canvas.refresh()
    np.testing.assert_allclose(ws.learner.coef_[0], [2.0, 0.0])
    P = curve_xy(canvas.boundary)
    np.testing.assert_allclose(P[:, 0], 0.0, atol=1e-12)
    assert np.ptp(P[:, 1]) > 10


def test_layers_and_presenter_scale(make_canvas):
    canvas, ws = make_canvas(separable_ws())
    ws.step_update()
    canvas.refresh()
    assert canvas.weight_line.isVisible()
    canvas.set_visible_layers(weight=False, regions=False, legend=False)
    canvas.refresh()
    assert not canvas.weight_line.isVisible() and not canvas.region_pos.isVisible()
    assert not canvas.legend.isVisible()
    assert canvas.layer_visible("weight") is False
    canvas.set_scale(style.PRESENTER)
    assert canvas.scatter_pos.opts["size"] == style.PRESENTER.marker
    assert canvas.boundary.opts["pen"].widthF() == style.PRESENTER.line


def test_closing_the_canvas_disconnects_it(qtbot):
    ws = separable_ws()
    canvas = Canvas(ws)
    canvas.deleteLater()
    QtCore.QCoreApplication.sendPostedEvents(None, QtCore.QEvent.Type.DeferredDelete)
    ws.step()
    ws.apply_edit(AddPoints([1.0, 1.0], 1))  # no slot of a deleted canvas is called


# --------------------------------------------------------------------------- public view API


def test_view_rect_round_trips_and_fit_view_uses_it(make_canvas):
    canvas, ws = make_canvas(view=None)
    canvas.set_view_rect((-2.0, 6.0), (-1.0, 7.0))
    (x0, x1), (y0, y1) = canvas.view_rect()
    assert x0 <= -2.0 and x1 >= 6.0 and y0 <= -1.0 and y1 >= 7.0
    assert min(x1 - x0, y1 - y0) == pytest.approx(8.0)
    canvas.set_view_rect((0.0, 10.0), (0.0, 10.0), padding=0.1)
    (x0, x1), _ = canvas.view_rect()
    assert x1 - x0 == pytest.approx(12.0)


def test_end_drag_finishes_a_drag_whose_release_was_lost(make_canvas, qtbot):
    canvas, ws = make_canvas(Workspace(Dataset([[1.0, 1.0]], [1])))
    a, b = canvas.data_to_widget(1.0, 1.0), canvas.data_to_widget(2.0, 2.0)
    _mouse(canvas, QtCore.QEvent.Type.MouseMove, a)
    _mouse(canvas, QtCore.QEvent.Type.MouseButtonPress, a, LEFT)
    _mouse(canvas, QtCore.QEvent.Type.MouseMove, b, LEFT, LEFT)
    assert canvas.tool.dragging
    with qtbot.waitSignal(canvas.dragFinished, timeout=2000):
        canvas.end_drag()  # no button is down: the drag ends after this event
    assert not canvas.tool.dragging
    click(canvas, (-3.0, -3.0))  # the next press is a fresh gesture
    assert ws.dataset.n == 2
