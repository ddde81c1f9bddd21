"""α labels never pile up, and hovering a point shows its numbers (α too), live during a run."""

from __future__ import annotations

import numpy as np
from PySide6 import QtCore

from perceptron_gui.core import generators
from perceptron_gui.core.dataset import Dataset
from perceptron_gui.core.workspace import Workspace
from perceptron_gui.ui.widgets.canvas.geometry import declutter
from tests.ui.canvas.helpers import mouse, separable_ws

MOVE = QtCore.QEvent.Type.MouseMove


def _dual_ws(n=300):
    ws = Workspace(generators.circles(n, seed=0), learner="dual")
    ws.set_params(kernel="rbf", gamma=0.5)
    for _ in range(60):
        ws.step_update()
    return ws


def _overlap(a, b) -> float:
    r = a.intersected(b)
    return max(r.width(), 0.0) * max(r.height(), 0.0)


def test_declutter_keeps_the_first_of_overlapping_rects():
    rects = np.array([[0, 0, 10, 5], [5, 2, 15, 7], [10, 0, 20, 5], [30, 30, 40, 35],
                      [0, 5, 10, 10]])
    assert declutter(rects).tolist() == [0, 2, 3, 4]  # touching edges do not overlap
    assert declutter(rects, limit=2).tolist() == [0, 2]
    assert declutter(np.empty((0, 4))).size == 0


def test_no_two_alpha_labels_overlap_on_a_dense_data_set(make_canvas):
    canvas, ws = make_canvas(_dual_ws(), view=None)
    canvas.fit_view()
    canvas.refresh()
    layer = canvas.layer("alpha")
    labels = [label for label in layer.labels if label.isVisible()]
    n_sv = int(np.count_nonzero(ws.learner.alpha_))
    assert 3 <= len(labels) < n_sv  # some are left to the hover
    rects = [label.sceneBoundingRect() for label in labels]
    for i, a in enumerate(rects):
        for b in rects[i + 1:]:
            assert _overlap(a, b) < 0.5, (a, b)
    # the largest α always has its label
    assert int(np.argmax(ws.learner.alpha_)) in layer.labelled.tolist()
    # zoomed in, more labels find room
    (x0, x1), (y0, y1) = canvas.view_rect()
    canvas.set_view_rect((x0 / 3, x1 / 3), (y0 / 3, y1 / 3))
    canvas.refresh()
    assert all(_overlap(a.sceneBoundingRect(), b.sceneBoundingRect()) < 0.5
               for i, a in enumerate(layer.labels) if a.isVisible()
               for b in layer.labels[i + 1:] if b.isVisible())


def test_on_5000_rbf_points_a_few_labels_only_where_they_cover_no_point(make_canvas):
    from perceptron_gui.ui.widgets.canvas.layers.alpha import FEW, LEGEND_TEXT, MAX_ALPHA_LABELS

    ws = Workspace(generators.circles(5000, seed=1), learner="dual",
                   params={"dual": {"kernel": "rbf"}})
    ws.advance(20_000)
    canvas, ws = make_canvas(ws, view=None)
    canvas.resize(900, 640)
    canvas.fit_view()
    canvas.refresh()
    layer = canvas.layer("alpha")
    alpha = ws.learner.alpha_
    n_sv = int(np.count_nonzero(alpha))
    assert n_sv > 3 * MAX_ALPHA_LABELS  # 121 labels were placed here before (issue 20)
    labels = [label for label in layer.labels if label.isVisible()]
    assert FEW <= len(labels) <= MAX_ALPHA_LABELS
    assert layer.unlabelled == n_sv - len(labels)
    # the largest α has its label; any label that covers a point is one of the few largest
    largest = np.argsort(-alpha, kind="stable")[:FEW]
    assert int(largest[0]) in layer.labelled.tolist()
    vb = canvas.getViewBox()
    X = ws.dataset.X
    for label in labels:
        i = next(int(k) for k in layer.labelled
                 if (X[k] == (label.pos().x(), label.pos().y())).all())
        if i in largest:
            continue
        rect = vb.mapSceneToView(label.sceneBoundingRect()).boundingRect()
        under = ((X[:, 0] > rect.left()) & (X[:, 0] < rect.right())
                 & (X[:, 1] > rect.top()) & (X[:, 1] < rect.bottom()))
        assert not under.any(), (i, int(under.sum()))
    # and the legend says why most have none
    assert LEGEND_TEXT in {label.text for _, label in canvas.legend.items}


def test_a_few_support_vectors_each_keep_their_label_and_no_legend_row(make_canvas):
    from perceptron_gui.ui.widgets.canvas.layers.alpha import ALL_BELOW, LEGEND_TEXT

    ws = Workspace(generators.circles(40, seed=1), learner="dual",
                   params={"dual": {"kernel": "rbf"}})
    ws.run_to_end()
    canvas, ws = make_canvas(ws, view=None)
    canvas.fit_view()
    canvas.refresh()
    layer = canvas.layer("alpha")
    n_sv = int(np.count_nonzero(ws.learner.alpha_))
    assert 0 < n_sv <= ALL_BELOW  # few: each gets a label where labels do not overlap
    assert layer.unlabelled == n_sv - len(layer.labelled)
    assert len(layer.labelled) >= min(n_sv, 8)
    assert LEGEND_TEXT not in {label.text for _, label in canvas.legend.items}


def test_hovering_a_point_without_a_label_shows_its_alpha(make_canvas, qtbot):
    canvas, ws = make_canvas(_dual_ws(), view=None)
    canvas.fit_view()
    canvas.refresh()
    alpha = ws.learner.alpha_
    unlabelled = sorted(set(np.flatnonzero(alpha)) - set(canvas.layer("alpha").labelled.tolist()))
    assert unlabelled
    i = int(unlabelled[0])
    hover = canvas.layer("hover").items["hover_label"]
    mouse(canvas, MOVE, tuple(ws.dataset.X[i]))
    qtbot.waitUntil(lambda: hover.isVisible())
    assert canvas.view_state.hovered is not None
    j = canvas.view_state.hovered  # the nearest point (another may lie as close)
    assert f"α = {int(alpha[j])}" in hover.toPlainText()
    assert f"sample {j + 1} ·" in hover.toPlainText()


def test_hover_shows_coordinates_label_and_margins_and_follows_the_run(make_canvas, qtbot):
    canvas, ws = make_canvas(separable_ws())
    hover = canvas.layer("hover").items["hover_label"]
    mouse(canvas, MOVE, (1.0, 2.5))  # sample 3, class +1
    qtbot.waitUntil(lambda: hover.isVisible())
    text = hover.toPlainText()
    assert text.startswith("sample 3 · class +1") and "x = (1.00, 2.50)" in text
    assert "y·f(x) = 0.00" in text  # w = 0 before the first update
    texts = {text}
    for _ in range(2):  # the data converge after two updates
        ws.step_update()
        qtbot.waitUntil(lambda: hover.toPlainText() not in texts)
        texts.add(hover.toPlainText())
    ro = ws.readouts()
    w, b = np.asarray(ro.w, dtype=float), float(ro.b)
    functional = float(np.dot(w, [1.0, 2.5]) + b)
    label = hover.toPlainText()
    assert f"margin = {functional / np.linalg.norm(w):.2f}".replace("-", "−") in label
    # leaving the canvas or moving off the point hides it
    mouse(canvas, MOVE, (-4.0, 4.0))
    qtbot.waitUntil(lambda: not hover.isVisible())
    assert canvas.view_state.hovered is None


def test_hover_label_stays_inside_the_view(make_canvas, qtbot):
    canvas, ws = make_canvas(Workspace(Dataset([[4.8, 4.8], [-1.0, -1.0]], [1, -1])))
    hover = canvas.layer("hover").items["hover_label"]
    mouse(canvas, MOVE, (4.8, 4.8))
    qtbot.waitUntil(lambda: hover.isVisible())
    vb = canvas.getViewBox()
    assert vb.mapRectToScene(vb.boundingRect()).contains(hover.sceneBoundingRect())


def test_the_hover_label_is_drawn_above_the_legend(make_canvas):
    canvas, _ = make_canvas(separable_ws())
    label, legend = canvas.layer("hover").items["hover_label"], canvas.legend
    assert label.parentItem() is legend.parentItem() is canvas.getViewBox()
    assert label.zValue() > legend.zValue()
