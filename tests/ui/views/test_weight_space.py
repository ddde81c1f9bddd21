"""The weight-space view draws the core's lines, region and walk, follows the run, points both ways.

Every drawn line, region and point is checked against numbers computed here:
the perceptron's updates replayed by hand, Novikoff's w* from the core's
certificate, and the chart's polygon from scipy's ``HalfspaceIntersection``.
"""

from __future__ import annotations

import math

import numpy as np
import pyqtgraph as pg
import pytest
from PySide6 import QtCore, QtGui, QtWidgets
from scipy.spatial import ConvexHull, HalfspaceIntersection

from perceptron_gui.core import generators
from perceptron_gui.core.dataset import Dataset, ReplaceAll
from perceptron_gui.core.text import fmt_count
from perceptron_gui.core.theory import novikoff
from perceptron_gui.core.workspace import Workspace
from perceptron_gui.ui import style
from perceptron_gui.ui.views import VIEW_TYPES
from perceptron_gui.ui.views.weights import WeightSpaceView, segments
from perceptron_gui.ui.views.weights.geometry import RECENT_UPDATES
from perceptron_gui.ui.views.weights.view import OLD_ALPHA
from perceptron_gui.ui.wording import problem_text


def make_view(qtbot, ws) -> WeightSpaceView:
    view = WeightSpaceView(ws)
    qtbot.addWidget(view)
    view.resize(480, 640)
    view.show()
    qtbot.waitExposed(view)
    view.refresh()
    return view


def show_weights(window) -> WeightSpaceView:
    window.set_views_visible(True)
    view = window.views.view("weights")
    window.views.setCurrentWidget(view)
    assert view.isVisible()
    return view


def replay(X, y, c, fit_intercept):
    """The cyclic perceptron by hand: w after each update, and the cases updated on."""
    Z = (np.column_stack([X, np.full(len(X), c)]) if fit_intercept else X) * y[:, None]
    w = np.zeros(Z.shape[1])
    out, cases = [w.copy()], []
    for _ in range(1000):
        mistakes = 0
        for i in range(len(Z)):
            if Z[i] @ w <= 0:
                w = w + Z[i]
                out.append(w.copy())
                cases.append(i)
                mistakes += 1
        if not mistakes:
            break
    return np.array(out), cases


def curve(item) -> np.ndarray:
    x, y = item.getData()
    return np.empty((0, 2)) if x is None else np.column_stack([x, y])


def polygon(view) -> np.ndarray:
    poly = view.region_item.polygon()
    return np.array([[p.x(), p.y()] for p in poly]).reshape(-1, 2)


def no_bias_data():
    data = generators.separable(30, seed=11, margin=0.1, offset=0.0, angle=2.2)
    return data


def check_lines_drawn(view, Z_plane):
    """Each class's drawn segments lie on its cases' lines, one segment per case in the box."""
    y = view.workspace.learner.training_signs
    (x0, x1), (y0, y1) = view.plot.getViewBox().viewRange()
    for key, mask in (("pos", y > 0), ("neg", y < 0)):
        P = curve(view.case_lines[key]).reshape(-1, 2, 2)
        L = Z_plane[mask]
        # every endpoint is on one of this class's lines, inside the box
        vals = np.abs(P.reshape(-1, 2) @ L[:, :2].T + L[:, 2]) / np.hypot(L[:, 0], L[:, 1])
        assert (vals.min(axis=1) <= 1e-9 * max(x1 - x0, 1.0)).all()
        assert (P[..., 0] >= x0 - 1e-9).all() and (P[..., 0] <= x1 + 1e-9).all()
        assert P.shape[0] == np.isfinite(segments(L, (x0, x1), (y0, y1))[:, 0, 0]).sum()


def test_registered_as_a_view():
    assert VIEW_TYPES["weights"] is WeightSpaceView


def test_without_bias_the_cone_lines_walk_and_w_star(qtbot):
    data = no_bias_data()
    ws = Workspace(data)
    ws.set_params(fit_intercept=False)
    ws.run_to_end()
    view = make_view(qtbot, ws)
    assert view.message == ""
    X, y = data.X, data.y
    Z = X * y[:, None]
    ref, cases = replay(X, y, 1.0, False)
    # the walk: every w_k, the current one ringed
    np.testing.assert_allclose(curve(view.path), ref, rtol=1e-12, atol=1e-12)
    np.testing.assert_allclose(curve(view.now), ref[-1:], rtol=1e-12)
    # the lines z_i·w = 0, each in its class's colour
    check_lines_drawn(view, np.column_stack([Z, np.zeros(len(Z))]))
    assert view.case_lines["pos"].opts["pen"].color().rgb() == pg.mkColor(
        style.current().pos_color).rgb()
    # the cone: every drawn corner on the good side of every case, and w_k inside it
    P = polygon(view)
    assert P.shape[0] >= 3
    assert (P @ Z.T >= -1e-9 * np.abs(P).max()).all()
    # it is the whole cone in the box: its area equals scipy's intersection
    (x0, x1), (y0, y1) = view.plot.getViewBox().viewRange()
    box = [[1, 0, -x1], [-1, 0, x0], [0, 1, -y1], [0, -1, y0]]
    inner = ref[-1] / np.linalg.norm(ref[-1]) * 1e-3 * (x1 - x0)
    ref_poly = HalfspaceIntersection(np.vstack([np.column_stack([-Z, np.zeros(len(Z))]), box]),
                                     inner).intersections
    assert math.isclose(ConvexHull(P).volume, ConvexHull(ref_poly).volume, rel_tol=1e-9)
    assert (ref[-1] @ Z.T > 0).all() and not (ref[0] @ Z.T > 0).all()
    # the last update's case: its line thick
    i = cases[-1]
    seg = curve(view.last_line)
    assert view.last_line.isVisible()
    np.testing.assert_allclose(seg @ Z[i], 0.0, atol=1e-9 * np.abs(seg).max())
    assert view.last_line.opts["pen"].widthF() > view.case_lines["pos"].opts["pen"].widthF()
    # w*: the arrow along Novikoff's unit w* through the origin
    w_star = novikoff(X, y, fit_intercept=False).w_star
    arrow = curve(view.star)
    tip = arrow[1]
    np.testing.assert_allclose(tip / np.linalg.norm(tip), w_star, rtol=1e-12)
    np.testing.assert_allclose(arrow[0], [0.0, 0.0])
    assert "cone" in view.caption.text() and f"case {i + 1}" in view.caption.text()  # 1-based
    assert view.plot.getViewBox().state["aspectLocked"] == 1.0


def test_with_bias_the_chart_polygon_and_walk(qtbot):
    data = generators.separable(30, seed=3, margin=0.3)
    ws = Workspace(data)
    ws.run_to_end()
    view = make_view(qtbot, ws)
    X, y = data.X, data.y
    nov = novikoff(X, y, bias_scale=1.0)
    region = view.picture.region
    np.testing.assert_allclose(region.center, nov.w_star, rtol=1e-12)  # centred on w*
    u = nov.w_star
    E = region.basis
    assert np.allclose(E @ u, 0) and np.allclose(E @ E.T, np.eye(2))
    Z = np.column_stack([X, np.ones(len(X))]) * y[:, None]
    lines = np.column_stack([Z @ E.T, Z @ u])  # z·(u + p₁e₁ + p₂e₂) = 0
    check_lines_drawn(view, lines)
    # the walk: each drawn point is the direction of w_k (k >= 1), w_0 = 0 off the chart
    ref, cases = replay(X, y, 1.0, True)
    P = curve(view.path)
    assert np.isnan(P[0]).all() and np.isfinite(P[1:]).all()
    for w, p in zip(ref[1:], P[1:], strict=True):
        d = u + p[0] * E[0] + p[1] * E[1]
        np.testing.assert_allclose(np.cross(w, d), 0.0, atol=1e-9 * np.linalg.norm(w))
        assert w @ u > 0  # Novikoff: w_k·w* >= kηγ > 0
    # the polygon: scipy's intersection of the lines' good sides within the view
    (x0, x1), (y0, y1) = view.plot.getViewBox().viewRange()
    box = [[1, 0, -x1], [-1, 0, x0], [0, 1, -y1], [0, -1, y0]]
    ref_poly = HalfspaceIntersection(np.vstack([-lines, box]), np.zeros(2)).intersections
    assert math.isclose(ConvexHull(polygon(view)).volume, ConvexHull(ref_poly).volume,
                        rel_tol=1e-9)
    assert region.contains(P[-1:])[0]  # the run converged inside
    assert "wₖ·w* ≥ kηγ > 0" in view.caption.text()
    assert view.plot.getPlotItem().titleLabel.text.startswith("Chart around w*, c = 1.00")
    # another bias scale: another picture
    ws.set_params(bias_scale=3.0)
    ws.run_to_end()
    view.refresh()
    other = view.picture.region
    assert other.bias_scale == 3.0 and not np.allclose(other.lines, region.lines)
    np.testing.assert_allclose(other.center, novikoff(X, y, bias_scale=3.0).w_star, rtol=1e-12)
    assert "c = 3.00" in view.plot.getPlotItem().titleLabel.text


def test_dual_with_the_linear_kernel_walks_the_primal_path(qtbot):
    data = generators.separable(30, seed=3, margin=0.3)
    ws = Workspace(data)
    ws.run_to_end()
    view = make_view(qtbot, ws)
    primal = curve(view.path).copy()
    ws.set_learner("dual")
    ws.run_to_end()
    view.refresh()
    assert view.message == ""
    np.testing.assert_allclose(curve(view.path), primal, rtol=1e-12, atol=1e-12)


def test_non_separable_has_no_region_and_shows_the_walk(qtbot):
    data = generators.overlapping(40, seed=0)
    ws = Workspace(data)
    ws.set_params(max_iter=8)
    ws.run_to_end()
    view = make_view(qtbot, ws)
    assert view.picture.region.empty
    assert polygon(view).shape[0] == 0
    assert "No feasible region" in view.caption.text()
    assert "cycles" in view.caption.text()
    k = ws.learner.n_updates_
    # the older walk and the recent part meet at one state: together every w_k
    old, recent = curve(view.old_path), curve(view.path)
    assert k > RECENT_UPDATES and old.shape[0] + recent.shape[0] - 1 == k + 1
    np.testing.assert_array_equal(np.vstack([old[:-1], recent]), view.picture.points)
    assert view.plot.getPlotItem().titleLabel.text.startswith("Chart around ū")


def test_follows_the_step_and_seek(window, qtbot):
    data = generators.separable(20, seed=5, margin=0.2)
    window.push_edit(ReplaceAll.from_dataset(data))
    view = show_weights(window)
    ws = window.workspace
    ws.run_to_end()
    ref, _cases = replay(data.X, data.y, 1.0, True)
    end = ws.step_count
    for t in (end, 3, 0, end // 2):
        ws.seek(t)
        k = ws.learner.n_updates_
        # w_0 = 0 has no direction: alone, it is not on the chart
        qtbot.waitUntil(lambda k=k: curve(view.path).shape[0] == (k + 1 if k else 0))
        if k:
            p = curve(view.now)[0]
            u, E = view.picture.region.center, view.picture.region.basis
            d = u + p[0] * E[0] + p[1] * E[1]
            np.testing.assert_allclose(np.cross(ref[k], d), 0.0, atol=1e-9 * np.abs(ref[k]).max())


def _move_to(plot: pg.PlotWidget, x: float, y: float) -> None:
    vb = plot.getViewBox()
    scene = vb.mapViewToScene(QtCore.QPointF(x, y))
    pos = QtCore.QPointF(plot.mapFromScene(scene))
    event = QtGui.QMouseEvent(QtCore.QEvent.Type.MouseMove, pos, plot.viewport().mapToGlobal(pos),
                              QtCore.Qt.MouseButton.NoButton, QtCore.Qt.MouseButton.NoButton,
                              QtCore.Qt.KeyboardModifier.NoModifier)
    QtWidgets.QApplication.sendEvent(plot.viewport(), event)


def test_hover_points_both_ways(window, qtbot):
    data = generators.separable(12, seed=5, margin=0.4)
    window.push_edit(ReplaceAll.from_dataset(data))
    ws = window.workspace
    ws.run_to_end()
    view = show_weights(window)
    qtbot.waitUntil(lambda: view.picture is not None)
    view.refresh()
    region = view.picture.region
    (x0, x1), (y0, y1) = view.plot.getViewBox().viewRange()
    segs = segments(region.lines, (x0, x1), (y0, y1))
    # a point on case i's line, away from every other line
    best, where = None, None
    for i in range(12):
        if not np.isfinite(segs[i]).all():
            continue
        for t in np.linspace(0.1, 0.9, 17):
            p = segs[i, 0] + t * (segs[i, 1] - segs[i, 0])
            L = region.lines
            dist = np.abs(L[:, :2] @ p + L[:, 2]) / np.hypot(L[:, 0], L[:, 1])
            dist[i] = np.inf
            if best is None or dist.min() > best[0]:
                best, where = (dist.min(), i), p
    i = best[1]
    _move_to(view.plot, *where)
    assert ws.view_state.hovered == i
    assert window.canvas.view_state.hovered == i
    assert view.hover_line.isVisible()
    hover = window.canvas.layer("hover")
    qtbot.waitUntil(lambda: hover.items["hover_ring"].isVisible())
    rx, ry = hover.items["hover_ring"].getData()
    assert (rx[0], ry[0]) == tuple(ws.dataset.X[i])
    # far from every line (the grid point farthest from them): nothing pointed at
    gx, gy = np.meshgrid(np.linspace(x0, x1, 41)[1:-1], np.linspace(y0, y1, 41)[1:-1])
    G = np.column_stack([gx.ravel(), gy.ravel()])
    L = region.lines
    far = G[np.argmax((np.abs(G @ L[:, :2].T + L[:, 2]) / np.hypot(L[:, 0], L[:, 1]))
                      .min(axis=1))]
    _move_to(view.plot, *far)
    assert ws.view_state.hovered is None and window.canvas.view_state.hovered is None
    assert not view.hover_line.isVisible()
    # the canvas -> the view: the case's line drawn thick, on its line
    j = (i + 1) % 12
    window.canvas.set_hovered(j)
    seg = curve(view.hover_line)
    L = region.lines[j]
    np.testing.assert_allclose(seg @ L[:2] + L[2], 0.0, atol=1e-9 * max(1.0, np.abs(seg).max()))
    assert view.hover_line.isVisible()
    window.canvas.set_hovered(None)
    assert not view.hover_line.isVisible()


def test_lda_and_kernel_say_what_they_cannot_show(qtbot):
    ws = Workspace(generators.GENERATORS["blobs"](n=30, seed=1))
    view = make_view(qtbot, ws)
    ws.set_learner("lda")
    view.refresh()
    assert view.message == ws.spec.no_steps_text  # the learner's own wording
    ws.set_learner("dual")
    ws.set_params(kernel="rbf", gamma=2.0)
    view.refresh()
    assert "rbf" in view.message and "linear kernel" in view.message
    ws.set_params(kernel="linear")
    ws.step_update()
    view.refresh()
    assert view.message == ""
    empty = Workspace()
    assert make_view(qtbot, empty).message == problem_text(empty)


def test_presenter_scale_and_both_schemes(window, qtbot):
    window.push_edit(ReplaceAll.from_dataset(generators.separable(20, seed=2)))
    window.workspace.run_to_end()
    view = window.views.view("weights")
    try:
        window.presenter.set_active(True)
        assert view.scale == style.PRESENTER
        assert view.hover_line.opts["pen"].widthF() == style.PRESENTER.line * 1.5
        font = view.plot.getPlotItem().getAxis("bottom").style["tickFont"]
        assert font.pointSizeF() == pytest.approx(style.PRESENTER.font_pt * 0.85)
        for palette, choice in ((style.DARK, "dark"), (style.LIGHT, "light")):
            window.theme.set_choice(choice)
            assert view.plot.backgroundBrush().color() == pg.mkColor(palette.background)
            pen = view.case_lines["neg"].opts["pen"].color()
            assert pen.rgb() == pg.mkColor(palette.neg_color).rgb()
        window.presenter.set_active(False)
        assert view.hover_line.opts["pen"].widthF() == style.NORMAL.line * 1.5
    finally:
        window.presenter.set_active(False)
        window.theme.set_choice("system")


def test_clicking_a_state_of_the_walk_goes_to_its_step(window, qtbot):
    data = generators.separable(20, seed=5, margin=0.2)
    window.push_edit(ReplaceAll.from_dataset(data))
    ws = window.workspace
    ws.run_to_end()
    view = show_weights(window)
    qtbot.waitUntil(lambda: view.picture is not None
                    and view.picture.trajectory.count[-1] == ws.learner.n_updates_)
    view.refresh()
    tr = view.picture.trajectory
    j = 2  # the second update's state
    p = view.picture.points[j]
    seen = []
    window.commandDispatched.connect(seen.append)
    scene = view.plot.getViewBox().mapViewToScene(QtCore.QPointF(*p))
    pos = view.plot.mapFromScene(scene)
    qtbot.mouseClick(view.plot.viewport(), QtCore.Qt.MouseButton.LeftButton, pos=pos)
    qtbot.waitUntil(lambda: ws.step_count == int(tr.step[j]))
    assert ws.learner.n_updates_ == 2
    assert [c.name for c in seen] == ["seek"] and seen[0].step == int(tr.step[j])
    # the view shows that step: the current state is w_2
    qtbot.waitUntil(lambda: curve(view.path).shape[0] == 3)
    np.testing.assert_allclose(curve(view.now)[0], p, rtol=1e-12)
    # a click beside the walk does nothing
    corner = view.plot.mapFromScene(view.plot.getViewBox().mapViewToScene(
        QtCore.QPointF(*(np.nanmax(np.abs(view.picture.points), axis=0) * 5))))
    qtbot.mouseClick(view.plot.viewport(), QtCore.Qt.MouseButton.LeftButton, pos=corner)
    assert len(seen) == 1 and ws.step_count == int(tr.step[j])


# ------------------------------------------------------------ a long walk, the w* label


def test_a_long_cycling_walk_draws_its_recent_part_in_full_and_the_rest_faint(qtbot):
    data = generators.overlapping(60, seed=0)
    ws = Workspace(data)
    ws.set_params(max_iter=200)
    ws.run_to_end()
    view = make_view(qtbot, ws)
    k = ws.learner.n_updates_
    assert k > 2048 + RECENT_UPDATES  # sampled, and longer than the recent part
    pic = view.picture
    tr = pic.trajectory
    j = pic.recent_from
    # the recent part: w_{k-R} … w_k, every one of them, as the log has them
    np.testing.assert_array_equal(tr.count[j:], np.arange(k - RECENT_UPDATES, k + 1))
    log = ws.learner.history.updates
    rows = log.rows(k - RECENT_UPDATES - 1, k)
    c = float(ws.learner.bias_scale)
    W = np.column_stack([rows.w, np.asarray(rows.b) / c])
    np.testing.assert_array_equal(tr.step[j:], rows.step)
    u, E = pic.region.center, pic.region.basis
    recent = curve(view.path)
    assert recent.shape[0] == RECENT_UPDATES + 1
    for w, p in zip(W, recent, strict=True):
        if w @ u > 0:  # on the chart: the drawn point is w's direction
            d = u + p[0] * E[0] + p[1] * E[1]
            np.testing.assert_allclose(np.cross(w, d), 0.0, atol=1e-9 * np.linalg.norm(w))
        else:
            assert np.isnan(p).all()
    # the older part: the states before it, meeting it at w_{k-R}, faint, thin, unmarked
    old = curve(view.old_path)
    assert old.shape[0] == j + 1 > 1000
    np.testing.assert_array_equal(old, pic.points[: j + 1])
    np.testing.assert_array_equal(old[-1], recent[0])
    old_pen, pen = view.old_path.opts["pen"], view.path.opts["pen"]
    assert old_pen.color().alpha() == OLD_ALPHA < 255 == pen.color().alpha()
    assert 1.0 < old_pen.widthF() <= pen.widthF()  # one outline: crossings do not pile up
    assert view.path.opts["symbol"] == "o"
    # under the case lines, over the region and the landscape; the current state on top
    assert (view.landscape.image.zValue() < view.region_item.zValue()
            < view.old_path.zValue() < view.case_lines["pos"].zValue() < view.path.zValue()
            < view.now.zValue())
    np.testing.assert_allclose(curve(view.now)[0], pic.points[-1])
    text = view.caption.text()
    assert f"{fmt_count(k)} updates" in text and "," in fmt_count(k)
    assert f"last {RECENT_UPDATES} updates is drawn in full, the older walk faint" in text
    # a short walk is all recent
    ws.seek(40)
    view.refresh()
    assert view.picture.recent_from == 0 and curve(view.old_path).shape[0] == 0
    assert "faint" not in view.caption.text()


def _label_clear(view) -> None:
    """The w* label covers neither the current state's marker nor the arrowhead or cross."""
    vb = view.plot.getViewBox()
    label = view.star_label.sceneBoundingRect()
    now = vb.mapViewToScene(QtCore.QPointF(*curve(view.now)[0]))
    r = view.scale.marker * 1.3 / 2
    assert not label.intersects(QtCore.QRectF(now.x() - r, now.y() - r, 2 * r, 2 * r)), \
        (label, now)
    for x, y in curve(view.star)[1:]:  # the tip and the head's corners, the cross's ends
        assert not label.contains(vb.mapViewToScene(QtCore.QPointF(x, y)))


def test_the_w_star_label_stays_clear_of_the_arrowhead_and_the_current_w(qtbot):
    # every z along (1, 0.2): w_1 = (1, 0.2) is on w*'s ray, and the run stops there
    X = np.array([[1.0, 0.2], [2.0, 0.4], [-1.0, -0.2], [-2.0, -0.4]])
    data = Dataset(X, np.array([1.0, 1.0, -1.0, -1.0]))
    ws = Workspace(data)
    ws.set_params(fit_intercept=False)
    ws.run_to_end()
    view = make_view(qtbot, ws)
    now = curve(view.now)[0]
    half = np.linalg.norm(now) / 0.8  # the arrow's tip (at 0.8 of the half box) on w_k
    view.show_box((-half, half), (-half, half))
    tip = curve(view.star)[1]
    (x0, x1), _ = view.plot.getViewBox().viewRange()
    assert np.linalg.norm(tip - now) < 0.02 * (x1 - x0)  # the case the review saw
    assert view.star_label.textItem.toPlainText() == "w*"
    _label_clear(view)
    # with a bias: the cross at the chart's centre, a converged w_k beside it
    sep = Workspace(generators.separable(30, seed=3, margin=0.3))
    sep.run_to_end()
    chart = make_view(qtbot, sep)
    assert chart.picture.chart
    _label_clear(chart)


@pytest.mark.parametrize("size", [(480, 640), (518, 965), (300, 700)])
def test_the_w_star_arrow_and_its_label_are_inside_the_pane_at_presenter_sizes(qtbot, size):
    """Issue 33: in presenter mode's tall pane, w* along the wide axis had its label past
    the view's edge ("w" cut); the arrow is shortened so that its label fits."""
    X = np.array([[2.0, 1.0], [1.0, 3.0], [3.0, -1.0], [-1.0, -2.0], [-3.0, 1.0],
                  [-1.0, 4.0]])  # the demo "weight-space"'s cases, two updates in
    ws = Workspace(Dataset(X, np.array([1.0, 1.0, 1.0, -1.0, -1.0, -1.0])))
    ws.set_params(fit_intercept=False)
    ws.step_update()
    ws.step_update()
    view = make_view(qtbot, ws)
    view.set_scale(style.PRESENTER)
    view.resize(*size)
    qtbot.waitUntil(lambda: view.size() == QtCore.QSize(*size))
    view.refresh()
    assert view.star_label.isVisible()
    vb = view.plot.getViewBox()
    pane = vb.sceneBoundingRect()
    label = view.star_label.sceneBoundingRect()
    assert pane.contains(label), (label, pane)
    for x, y in curve(view.star):
        assert pane.contains(vb.mapViewToScene(QtCore.QPointF(x, y)))


def _shoelace(P: np.ndarray) -> float:
    x, y = P[:, 0], P[:, 1]
    return 0.5 * abs(float(x @ np.roll(y, -1) - y @ np.roll(x, -1)))


@pytest.mark.parametrize("size", [(480, 640), (518, 965)], ids=["normal", "presenter"])
@pytest.mark.parametrize("updates", [1, 3])
def test_the_view_fits_the_cone_the_walk_and_the_origin(qtbot, size, updates):
    """Issue 33: a square about the origin showed the feasible cone as a wedge at the pane's
    edge; the view centres on the cone, w* and the walk, the origin kept in view."""
    X = np.array([[2.0, 1.0], [1.0, 3.0], [3.0, -1.0], [-1.0, -2.0], [-3.0, 1.0],
                  [-1.0, 4.0]])  # the demo "weight-space"'s cases
    ws = Workspace(Dataset(X, np.array([1.0, 1.0, 1.0, -1.0, -1.0, -1.0])))
    ws.set_params(fit_intercept=False)
    for _ in range(updates):
        ws.step_update()
    view = make_view(qtbot, ws)
    if size[1] > 900:
        view.set_scale(style.PRESENTER)
    view.resize(*size)
    qtbot.waitUntil(lambda: view.size() == QtCore.QSize(*size))
    view.refresh()
    (x0, x1), (y0, y1) = box = view.plot.getViewBox().viewRange()
    region = view.picture.region
    assert region.kind == "cone"
    share = _shoelace(region.clipped(*box)) / ((x1 - x0) * (y1 - y0))
    assert share >= 0.12, share  # a square about 0: 0.04 to 0.06 in the presenter pane
    inside = [np.zeros(2), *curve(view.path), *curve(view.star)]
    for x, y in inside:  # the origin, every w_k, w*'s arrow
        assert x0 < x < x1 and y0 < y < y1, ((x, y), box)


def test_a_scene_asked_anew_while_a_worker_finds_one_is_found_once_the_newest(qtbot):
    """A worker's scene outrun by a newer request is kept but not announced: the view
    is told once, when the newest scene arrives (it redrew for the stale one too)."""
    import threading

    from perceptron_gui.ui.views.weights.scenes import Scenes

    gate, calls = threading.Event(), []
    scenes = Scenes(lambda: calls.append(True), lambda: True)
    X, s = np.zeros((3, 2)), np.ones(3)

    def find(value):
        gate.wait(30)
        return value

    assert scenes.get("region", (X, s, 1.0), find, (1,), at_once=False) is None
    assert scenes.finding
    assert scenes.get("region", (X, s, 2.0), find, (2,), at_once=False) is None
    gate.set()
    qtbot.waitUntil(lambda: bool(calls) and not scenes.finding, timeout=10_000)
    assert calls == [True]
    assert scenes.get("region", (X, s, 2.0), find, (2,), at_once=False) == ((X, s, 2.0), 2)
