"""Every layer draws what the workspace holds, geometrically true (lines, bands, regions, marks)."""

from __future__ import annotations

import math

import numpy as np
import pyqtgraph as pg
import pytest

from perceptron_gui.core import datasets
from perceptron_gui.core.dataset import (
    AddPoints,
    Dataset,
)
from perceptron_gui.core.learners.lda import covariance_ellipse
from perceptron_gui.core.workspace import Workspace
from perceptron_gui.ui.widgets.canvas.layers.draw import set_arrow
from tests.ui.canvas.helpers import (
    curve_xy,
    line_residual,
    separable_ws,
)


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
    boundary = canvas.layer("boundary").items["boundary"]
    weight, update = canvas.layer("weight").items, canvas.layer("update").items
    assert boundary.isVisible()
    assert line_residual(boundary, w, b) < 1e-9
    # the drawn segment spans the view (it is clipped to a margin around it)
    (x0, x1), (y0, y1) = canvas.getViewBox().viewRange()
    assert np.ptp(curve_xy(boundary), axis=0).max() > (x1 - x0)
    np.testing.assert_allclose(curve_xy(weight["weight_line"]), [[0, 0], w])
    np.testing.assert_allclose(_arrow_direction(weight["weight_head"]), w / np.linalg.norm(w),
                               atol=0.02)
    pos = weight["weight_head"].pos()
    np.testing.assert_allclose([pos.x(), pos.y()], w)
    # the update eta*y*x, from w_before to w_after, and the ghost of the old boundary
    np.testing.assert_allclose(curve_xy(update["delta_line"]), [ev.w_before, ev.w_after])
    d = ev.w_after - ev.w_before
    np.testing.assert_allclose(_arrow_direction(update["delta_head"]), d / np.linalg.norm(d),
                               atol=0.02)
    assert update["ghost_line"].isVisible()
    assert line_residual(update["ghost_line"], ev.w_before, ev.b_before) < 1e-9
    # the examined sample
    highlight = canvas.layer("examined").items["highlight"]
    np.testing.assert_allclose(highlight.getData()[0], [ws.dataset.X[ev.index, 0]])
    np.testing.assert_allclose(highlight.getData()[1], [ws.dataset.X[ev.index, 1]])


def test_arrow_points_along_w_in_every_quadrant(make_canvas):
    canvas, ws = make_canvas()
    for angle in np.arange(0, 360, 30):
        v = np.array([math.cos(math.radians(angle)), math.sin(math.radians(angle))])
        line, head = (canvas.layer("weight").items[name] for name in ("weight_line", "weight_head"))
        set_arrow(line, head, np.zeros(2), 3 * v, canvas.pixel_size())
        np.testing.assert_allclose(_arrow_direction(head), v, atol=0.02)


def test_margin_band_at_the_current_margin(make_canvas):
    canvas, ws = make_canvas(separable_ws())
    ws.run_to_end()
    canvas.refresh()
    ro = ws.readouts()
    assert ro.margin > 0
    band = canvas.layer("margin_band").items
    assert band["band_edges"].isVisible() and band["band_fill"].isVisible()
    w, b = ro.w, ro.b
    dist = (curve_xy(band["band_edges"]) @ w + b) / np.linalg.norm(w)
    np.testing.assert_allclose(np.sort(np.abs(dist)), np.full(4, ro.margin), rtol=1e-9)
    assert sorted(np.sign(dist).tolist()) == [-1, -1, 1, 1]
    canvas.set_visible_layers(margin_band=False)
    canvas.refresh()
    assert not band["band_edges"].isVisible()


def test_margin_band_shows_exactly_when_the_readouts_margin_is_positive(make_canvas):
    # the band reads the readouts only when no sample is misclassified: the same answer
    canvas, ws = make_canvas(separable_ws())
    seen = set()
    while True:
        canvas.refresh()
        margin = ws.readouts().margin
        fill = canvas.layer("margin_band").items["band_fill"]
        assert fill.isVisible() == (math.isfinite(margin) and margin > 0)
        seen.add(fill.isVisible())
        if ws.step_update() is None or not ws.can_step:
            break
    canvas.refresh()
    assert fill.isVisible() and seen == {True, False}


@pytest.mark.parametrize("raster", [False, True], ids=["markers", "raster"])
def test_regions_are_the_two_half_planes(make_canvas, qtbot, raster):
    canvas, ws = make_canvas(separable_ws())
    if raster:  # the points drawn as the raster of large n: it leaves the regions visible
        canvas.layer("data").marker_max = 0
    ws.run_to_end()
    canvas.refresh()
    assert canvas.layer("data").mode == ("raster" if raster else "markers")
    w, b = ws.readouts().w, ws.readouts().b
    regions = canvas.layer("boundary").items
    assert regions["region_pos"].isVisible() and regions["region_neg"].isVisible()
    for item, sign in ((regions["region_pos"], 1), (regions["region_neg"], -1)):
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
    for name in ("scatter_0", "scatter_1"):
        item = canvas.layer("data").items[name]
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
    marks = canvas.layer("mistakes").items["mistake_marks"]
    x, y = marks.getData()
    np.testing.assert_allclose(np.column_stack([x, y]), ws.dataset.X[mis])
    assert marks.isVisible()
    ws.apply_edit(AddPoints([0.0, 0.0], 1))
    canvas._flush()
    assert len(calls) == 2  # a data change re-sets each class scatter once


def _legend_labels(canvas) -> set[str]:
    return {label.text for _, label in canvas.legend.items}


def test_kernel_contour_for_rbf_dual(make_canvas):
    ws = Workspace(datasets.circles(60, seed=1), learner="dual",
                   params={"dual": {"kernel": "rbf", "gamma": 1.0}})
    canvas, ws = make_canvas(ws)
    canvas.refresh()
    contour = canvas.layer("kernel").items["contour"]
    assert not contour.isVisible()  # alpha = 0: no boundary yet
    assert "decision boundary" not in _legend_labels(canvas)
    ws.step_epoch()
    ws.step_epoch()
    canvas.refresh()
    assert contour.isVisible() and canvas.layer("kernel").items["region_image"].isVisible()
    assert "decision boundary" in _legend_labels(canvas)  # the contour has its legend row
    assert not canvas.layer("boundary").items["boundary"].isVisible()
    assert not canvas.layer("weight").items["weight_line"].isVisible()
    P = canvas.layer("kernel").contour_points()
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


def test_kernel_grid_in_blocks_redraws_only_what_a_step_changed(make_canvas):
    ws = Workspace(datasets.circles(3000, noise=0.25, seed=5), learner="dual",
                   params={"dual": {"kernel": "rbf", "gamma": 2.0, "order": "random",
                                    "random_state": 1}})
    canvas, ws = make_canvas(ws)
    kernel = canvas.layer("kernel")
    grids = {}

    def check():
        canvas.refresh()
        _, _, F = kernel.values(ws, kernel.cache["geometry"], kernel.cache["rect"], None, None)
        np.testing.assert_allclose(F, ws.learner.decision_function(kernel.cache["G"]),
                                   rtol=1e-9, atol=1e-9)
        if ws.step_count in grids:  # reached again along another path: the same bits
            assert np.array_equal(grids[ws.step_count], F)
        grids[ws.step_count] = F.copy()
        return F

    for _ in range(40):
        ws.step_update()
        check()
    blocks = {i // 256 for i in ws.learner.support_.tolist()}
    assert len(blocks) > 4  # the support vectors span several blocks
    before = dict(kernel.cache["sums"])
    ws.step_update()
    check()
    after = kernel.cache["sums"]
    assert len(after) > 4
    # one block recomputed (the one the update changed), the others kept as they were
    assert sum(before.get(k) is not v for k, v in after.items()) == 1
    steps = sorted(grids)
    for step in (steps[5], steps[-1], steps[20], steps[0]):  # jumps, back and forth
        ws.seek(step)
        check()
    for _ in range(3):
        ws.step_back()
        check()


def test_lda_means_and_ellipses(make_canvas):
    ws = Workspace(datasets.blobs(60, seed=3), learner="lda")
    canvas, ws = make_canvas(ws)
    canvas.refresh()
    lda = ws.lda
    drawn = canvas.layer("lda").items
    assert drawn["lda_ellipses"].isVisible() and drawn["lda_means"].isVisible()
    x, y = drawn["lda_means"].getData()
    np.testing.assert_allclose(np.column_stack([x, y]), lda.means_)
    P = curve_xy(drawn["lda_ellipses"])
    ref = covariance_ellipse(lda.means_[0], lda.covariance_, n_std=2.0)
    np.testing.assert_allclose(P[: len(ref)], ref)
    w, b = lda.coef_[0], float(lda.intercept_[0])
    assert line_residual(canvas.layer("boundary").items["boundary"], w, b) < 1e-9
    # beside a perceptron, on demand, with its own boundary
    ws.set_learner("primal")
    canvas.refresh()
    assert not drawn["lda_ellipses"].isVisible()
    canvas.set_visible_layers(lda=True)
    canvas.refresh()
    assert drawn["lda_ellipses"].isVisible() and drawn["lda_line"].isVisible()
    assert line_residual(drawn["lda_line"], w, b) < 1e-9


def test_max_margin_layer(make_canvas):
    canvas, ws = make_canvas(separable_ws())
    assert not canvas.layer_visible("max_margin")
    canvas.set_visible_layers(max_margin=True)
    canvas.refresh()
    mm = ws.max_margin
    drawn = canvas.layer("max_margin").items
    assert drawn["mm_line"].isVisible()
    assert line_residual(drawn["mm_line"], mm.coef, mm.intercept) < 1e-9
    x, y = drawn["mm_support"].getData()
    np.testing.assert_allclose(np.column_stack([x, y]), ws.dataset.X[mm.support])
    dist = (curve_xy(drawn["mm_edges"]) @ mm.coef + mm.intercept) / np.linalg.norm(mm.coef)
    np.testing.assert_allclose(np.abs(dist), mm.margin, rtol=1e-9)
    with pytest.raises(ValueError):
        canvas.set_visible_layers(nonsense=True)


def test_radius_circle_is_the_largest_input_norm(make_canvas):
    canvas, ws = make_canvas(separable_ws())
    R = np.linalg.norm(ws.dataset.X, axis=1).max()
    circle = canvas.layer("radius").items["radius_circle"]
    rect = circle.rect()
    np.testing.assert_allclose([rect.center().x(), rect.center().y()], [0.0, 0.0])
    np.testing.assert_allclose([rect.width() / 2, rect.height() / 2], [R, R])
    assert circle.isVisible()
    ws.set_learner("lda")  # R belongs to the perceptron's bound
    canvas.refresh()
    assert not circle.isVisible()


@pytest.mark.parametrize("params", [{"fit_intercept": True, "bias_scale": 1.0},
                                    {"fit_intercept": True, "bias_scale": 4.0},
                                    {"fit_intercept": False}])
def test_the_r_circle_says_which_norm_equals_the_readouts_r_on_it(make_canvas, params):
    canvas, ws = make_canvas(separable_ws())
    ws.set_params("primal", **params)
    canvas.refresh()
    R = ws.readouts().radius
    r = canvas.layer("radius").items["radius_circle"].rect().width() / 2
    c = params.get("bias_scale", 0.0) if params["fit_intercept"] else 0.0
    assert math.hypot(r, c) == pytest.approx(R, rel=1e-12)  # the norm R measures, on the circle
    labels = {label.text for _, label in canvas.legend.items}
    norm = "‖(x, c)‖" if params["fit_intercept"] else "‖x‖"
    assert f"{norm} = R" in labels
    assert not any("radius R" in text for text in labels)





def test_w_zero_hides_the_model(make_canvas):
    canvas, ws = make_canvas(separable_ws())
    assert ws.running and ws.step_count == 0
    for layer, name in (("boundary", "boundary"), ("weight", "weight_line"),
                        ("weight", "weight_head"), ("boundary", "region_pos"),
                        ("mistakes", "mistake_marks"), ("margin_band", "band_edges"),
                        ("examined", "highlight")):
        assert not canvas.layer(layer).items[name].isVisible(), name


def test_vertical_boundary(make_canvas):
    canvas, ws = make_canvas(Workspace(Dataset([[2.0, 0.0], [-2.0, 0.0]], [1, -1]),
                                       params={"primal": {"fit_intercept": False}}))
    ws.run_to_end()
    canvas.refresh()
    np.testing.assert_allclose(ws.learner.coef_[0], [2.0, 0.0])
    P = curve_xy(canvas.layer("boundary").items["boundary"])
    np.testing.assert_allclose(P[:, 0], 0.0, atol=1e-12)
    assert np.ptp(P[:, 1]) > 10


def test_a_run_turns_the_heads_as_set_style_would_without_restyling_them(make_canvas):
    canvas, ws = make_canvas(separable_ws())
    heads = [canvas.layer(layer).items[name] for layer, name in (("weight", "weight_head"),
                                                                   ("update", "delta_head"))]
    restyled = []
    for head in heads:
        head.setStyle = lambda *a, real=head.setStyle, **k: restyled.append(k) or real(*a, **k)
    for _ in range(6):
        ws.step_update()
        canvas.refresh()
        for head in heads:
            same = pg.ArrowItem(**head.opts)

            def points(path):
                return [(e.x, e.y) for e in map(path.elementAt, range(path.elementCount()))]

            np.testing.assert_allclose(points(head.path), points(same.path), atol=1e-9)
    assert not restyled  # the pen, brush and flags stay: only the path turns
