"""The w arrow and the update arrow are drawn above the points, with a contrasting outline."""

from __future__ import annotations

import numpy as np
import pyqtgraph as pg

from perceptron_gui.core.dataset import Dataset
from perceptron_gui.core.workspace import Workspace
from perceptron_gui.ui import style


def _dense_ws(n=4000, seed=3):
    rng = np.random.default_rng(seed)
    X = rng.uniform(-5, 5, size=(n, 2))
    y = np.where(rng.random(n) < 0.5, 1, -1)
    return Workspace(Dataset(X, y))


def test_arrows_are_above_every_point_item(make_canvas):
    canvas, ws = make_canvas(_dense_ws(50))
    points = [canvas.layer(layer).items[name] for layer, name in (
        ("data", "scatter_0"), ("data", "scatter_1"), ("selection", "selection_marks"),
        ("mistakes", "mistake_marks"), ("examined", "highlight"), ("lda", "lda_means"),
        ("max_margin", "mm_support"))]
    top = max(item.zValue() for item in points)
    weight, update = canvas.layer("weight").items, canvas.layer("update").items
    for name in ("weight_halo", "weight_line", "weight_head", "delta_halo", "delta_line",
                 "delta_head"):
        assert {**weight, **update}[name].zValue() > top, name
    # the outline is under its line, the line under its head
    assert (weight["weight_halo"].zValue() < weight["weight_line"].zValue()
            < weight["weight_head"].zValue())
    assert update["delta_halo"].zValue() < update["delta_line"].zValue()
    assert weight["weight_halo"].opts["pen"].widthF() > weight["weight_line"].opts["pen"].widthF()


def _distance_along(canvas, image, a, b, t, expected):
    """The least colour distance to ``expected`` in the 3x3 pixels at ``a + t (b - a)``."""
    p = canvas.data_to_widget(*(np.asarray(a) + t * (np.asarray(b) - np.asarray(a))))
    e = pg.mkColor(expected)
    best = 255
    for dx in (-1, 0, 1):
        for dy in (-1, 0, 1):
            c = image.pixelColor(round(p.x()) + dx, round(p.y()) + dy)
            best = min(best, max(abs(c.red() - e.red()), abs(c.green() - e.green()),
                                 abs(c.blue() - e.blue())))
    return best


def test_the_arrows_stay_visible_over_a_dense_cloud(make_canvas, qtbot):
    canvas, ws = make_canvas(_dense_ws())
    ws.step_update()
    ws.step_update()
    canvas.refresh()
    ro = ws.readouts()
    w = np.asarray(ro.w, dtype=float)
    ev = ws.current_event
    canvas.set_view_rect((-abs(w[0]) - 1, abs(w[0]) + 1), (-abs(w[1]) - 1, abs(w[1]) + 1))
    canvas.set_visible_layers(delta=False, regions=False)
    delta_line = canvas.layer("update").items["delta_line"]
    qtbot.waitUntil(lambda: not delta_line.isVisible())
    canvas.refresh()
    image = canvas.grab().toImage()
    for t in (0.25, 0.45, 0.7):
        assert _distance_along(canvas, image, (0, 0), w, t, style.current().weight_color) <= 24, t
    canvas.set_visible_layers(delta=True, weight=False)
    qtbot.waitUntil(lambda: delta_line.isVisible())
    canvas.refresh()
    image = canvas.grab().toImage()
    for t in (0.3, 0.5, 0.7):
        assert _distance_along(canvas, image, ev.w_before, ev.w_after, t,
                               style.current().delta_color) <= 24, t


def test_lda_arrow_never_leaves_the_view(make_canvas, qtbot):
    from perceptron_gui.core import generators

    ws = Workspace(generators.separable(60, seed=4), learner="lda")
    canvas, ws = make_canvas(ws)
    means = np.asarray(ws.lda.means_).mean(axis=0)
    weight = canvas.layer("weight").items
    for half in (0.5, 2.0, 8.0, 40.0, 400.0):
        for centre in (means, means + half * np.array([0.8, -0.6])):
            canvas.set_view_rect((centre[0] - half, centre[0] + half),
                                 (centre[1] - half, centre[1] + half))
            canvas.refresh()
            assert weight["weight_line"].isVisible()
            (x0, x1), (y0, y1) = canvas.getViewBox().viewRange()
            P = np.column_stack(weight["weight_line"].getData())
            assert np.all((P[:, 0] >= x0) & (P[:, 0] <= x1) & (P[:, 1] >= y0) & (P[:, 1] <= y1))
            if weight["weight_head"].isVisible():
                head = weight["weight_head"].pos()
                assert x0 <= head.x() <= x1 and y0 <= head.y() <= y1
            # it points along LDA's w, and is long enough to read
            d = P[1] - P[0]
            w = np.asarray(ws.readouts().w, dtype=float)
            assert np.dot(d, w) > 0.99 * np.linalg.norm(d) * np.linalg.norm(w)
            assert np.linalg.norm(d) > 0.4 * half  # a quarter of the view's side
    if weight["weight_label"].isVisible():
        label = weight["weight_label"].pos()
        assert x0 <= label.x() <= x1 and y0 <= label.y() <= y1


def test_a_w_longer_than_the_view_is_cut_at_its_edge_and_the_fit_holds_the_data(
        make_canvas, qtbot, palette):
    """A run growing w never zooms the data out: the head is drawn at the view's edge and
    the label says where w ends."""
    from perceptron_gui.core.text import fmt_vec
    from tests.ui.canvas.helpers import separable_ws

    canvas, ws = make_canvas(separable_ws(params={"primal": {"eta0": 20.0}}), view=None)
    canvas.fit_view()
    canvas.refresh()
    before = canvas.view_rect()
    ws.step_update()  # w = 20 y x: far past the data's frame
    canvas.refresh()
    qtbot.waitUntil(lambda: not canvas._refit_timer.isActive())
    canvas.refresh()
    assert canvas.view_rect() == before  # the view holds the data, not the arrow
    w = np.asarray(ws.readouts().w, dtype=float)
    (x0, x1), (y0, y1) = before
    assert not (x0 <= w[0] <= x1 and y0 <= w[1] <= y1)
    items = canvas.layer("weight").items
    head, label = items["weight_head"], items["weight_label"]
    assert head.isVisible()
    vb = canvas.getViewBox()
    reach = head.opts["headLen"]
    inner = vb.sceneBoundingRect().adjusted(reach, reach, -reach, -reach)
    assert inner.contains(vb.mapViewToScene(head.pos()))  # the head is whole, at the edge
    tip = np.array([head.pos().x(), head.pos().y()])
    cross = w[0] * tip[1] - w[1] * tip[0]
    assert abs(cross) <= 1e-9 * float(w @ w) and tip @ w > 0  # on w, short of its end
    assert label.isVisible() and label.textItem.toPlainText() == f"w at {fmt_vec(w)}"
    # a view wide enough for w: the whole arrow, labelled "w"
    canvas.set_view_rect((-3 * abs(w[0]) - 1, 3 * abs(w[0]) + 1),
                         (-3 * abs(w[1]) - 1, 3 * abs(w[1]) + 1))
    canvas.refresh()
    np.testing.assert_allclose([head.pos().x(), head.pos().y()], w)
    assert label.textItem.toPlainText() == "w"
