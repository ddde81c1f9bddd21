"""More than two classes on the canvas: the regions, the boundaries, one-vs-rest's claims and
the winning class's posterior, each checked against the core's numbers."""

from __future__ import annotations

import numpy as np
import pyqtgraph as pg
import pytest
from PySide6 import QtCore

from perceptron_gui.core import samples
from perceptron_gui.core.dataset import Dataset
from perceptron_gui.core.learners import registry
from perceptron_gui.core.workspace import Workspace
from perceptron_gui.ui import style
from perceptron_gui.ui.widgets.canvas.geometry import cell_centres
from perceptron_gui.ui.widgets.canvas.layers import LAYER_TYPES, ClassRegionsLayer
from perceptron_gui.ui.widgets.canvas.layers.classes import (
    claims_polygons,
    linear_boundaries,
    linear_regions,
    paint,
    region_boundaries,
    winners,
)
from perceptron_gui.ui.widgets.canvas.layers.probability import (
    class_ramps,
    posteriors_text,
    shading,
)
from tests.ui.canvas.helpers import legend_texts


def _iris(learner: str) -> Workspace:
    dataset, info = samples.load("iris-versicolor-virginica-petal", all_classes=True)
    ws = Workspace(dataset, learner)
    ws.view = info.view
    return ws


def _blobs(m: int, seed: int = 0) -> Dataset:
    rng = np.random.default_rng(seed)
    centres = 4 * np.column_stack([np.cos(2 * np.pi * np.arange(m) / m),
                                   np.sin(2 * np.pi * np.arange(m) / m)])
    X = np.concatenate([c + rng.normal(0, 0.8, (20, 2)) for c in centres])
    y = np.repeat(np.arange(m), 20)
    return Dataset(X, y, classes=tuple(range(m)))


def test_the_layer_is_registered_and_draws_only_m_classes():
    assert LAYER_TYPES["classes"] is ClassRegionsLayer
    ws = Workspace(Dataset([[0.0, 0.0], [1.0, 1.0], [2.0, 0.0]], [-1, 1, 1]), "lda")
    assert ws.has_model and not ws.multiclass  # two classes: the one line, as ever


def test_regions_are_the_argmax_with_ties_to_the_first_and_nan_clear():
    colors = np.array([[1, 1, 1, 255], [2, 2, 2, 255], [3, 3, 3, 255]], np.ubyte)
    scores = np.array([[0.0, 1.0, 0.5], [2.0, 2.0, 1.0], [np.nan, 0.0, 0.0], [-1.0, -3.0, 4.0]])
    picture = paint(winners(scores), colors)
    assert picture.tolist() == [[2, 2, 2, 255], [1, 1, 1, 255], [0, 0, 0, 0], [3, 3, 3, 255]]


def test_boundaries_lie_where_the_two_best_scores_are_equal():
    ws = _iris("lda")
    learner = ws.learner
    xs, ys, G = cell_centres((0.0, 8.0, -1.0, 3.5), 160, 90)
    S = learner.decision_function(G).reshape(90, 160, 3)
    segs = region_boundaries(xs, ys, S)
    assert segs.shape[0] > 100 and segs.shape[1] == 2
    top2 = np.sort(learner.decision_function(segs), axis=1)[:, -2:]
    # a linear score is exact along a cell's edges: the two best scores meet there
    # (cells holding the junction of three regions excepted)
    gap = np.abs(top2[:, 1] - top2[:, 0])
    spread = np.ptp(S)
    assert np.quantile(gap, 0.98) < 1e-9 * spread
    # and every pair of neighbouring classes has its boundary traced
    pred = learner.predict(segs + [0.0, 1e-9])
    assert set(np.unique(pred)) == {0, 1, 2}


def _inside(polygon, points) -> np.ndarray:
    """Whether each point is inside the convex counter-clockwise ``polygon`` (or on it)."""
    if len(polygon) < 3:
        return np.zeros(len(points), bool)
    a, b = polygon, np.roll(polygon, -1, axis=0)
    cross = ((b[:, 0] - a[:, 0])[None] * (points[:, 1:2] - a[:, 1][None])
             - (b[:, 1] - a[:, 1])[None] * (points[:, 0:1] - a[:, 0][None]))
    return (cross >= -1e-9).all(axis=1)


@pytest.mark.parametrize("seed", range(6))
def test_linear_regions_are_where_each_class_wins_and_boundaries_where_two_tie(seed):
    rng = np.random.default_rng(seed)
    m = int(rng.integers(3, 9))
    W, B = rng.normal(size=(m, 2)), rng.normal(size=m)
    rect = (-5.0, 5.0, -4.0, 4.0)
    points = rng.uniform([-5, -4], [5, 4], (4000, 2))
    win = winners(points @ W.T + B)
    for k, polygon in enumerate(linear_regions(W, B, rect)):
        inside = _inside(polygon, points)
        assert np.array_equal(inside, win == k) or (inside != (win == k)).sum() <= 1
    segs = linear_boundaries(W, B, rect)
    assert len(segs) and len(segs) % 2 == 0
    ends = np.sort(segs @ W.T + B, axis=1)
    scale = np.abs(ends).max()
    assert np.abs(ends[:, -1] - ends[:, -2]).max() <= 1e-9 * scale  # the two best tie
    middles = (segs[0::2] + segs[1::2]) / 2
    top = np.sort(middles @ W.T + B, axis=1)
    assert np.abs(top[:, -1] - top[:, -2]).max() <= 1e-9 * scale


def test_classes_with_the_same_w_tie_to_the_first_and_the_better_bias_wins():
    W = np.array([[1.0, 0.0], [1.0, 0.0], [-1.0, 0.0]])
    regions = linear_regions(W, np.array([0.0, 0.0, 0.0]), (-1.0, 1.0, -1.0, 1.0))
    assert len(regions[0]) >= 3 and len(regions[1]) == 0 and len(regions[2]) >= 3
    regions = linear_regions(W, np.array([0.0, 0.5, 0.0]), (-1.0, 1.0, -1.0, 1.0))
    assert len(regions[0]) == 0 and len(regions[1]) >= 3


def test_claims_polygons_are_the_gaps_and_overlaps_of_one_against_the_rest():
    rng = np.random.default_rng(3)
    W, B = rng.normal(size=(4, 2)), rng.normal(size=4)
    rect = (-6.0, 6.0, -6.0, 6.0)
    points = rng.uniform(-6, 6, (5000, 2))
    count = ((points @ W.T + B) > 0).sum(axis=1)
    none, several = claims_polygons(W, B, rect)
    assert np.array_equal(_inside(none, points), count == 0)
    covered = np.zeros(len(points), bool)
    for polygon in several:
        covered |= _inside(polygon, points)
    assert np.array_equal(covered, count >= 2)


@pytest.mark.parametrize("learner", ["lda", "qda", "naive_bayes", "one_vs_rest"])
def test_the_regions_drawn_are_the_learners_predictions(make_canvas, palette, learner):
    canvas, ws = make_canvas(_iris(learner), view=(0.0, 8.0, -1.0, 3.5))
    assert ws.multiclass and ws.weights() is None and not ws.capabilities.linear
    caps = ws.capabilities
    assert caps.class_lines == (learner != "qda" and learner != "naive_bayes")
    layer = canvas.layer("classes")
    assert layer.items["class_boundaries"].isVisible()
    assert not canvas.layer("kernel").items["region_image"].isVisible()  # not the two-class one
    assert not canvas.layer("boundary").items["region_pos"].isVisible()
    rng = np.random.default_rng(1)
    points = rng.uniform([0.0, -1.0], [8.0, 3.5], (3000, 2))
    drawn, at = layer.drawn_classes(ws, points)
    assert np.array_equal(drawn, ws.learner.predict(at))  # every point in its class's region
    listed = ws.dataset.listed_classes
    if caps.class_lines:  # polygons, exact, in each class's tint
        assert layer.scores is None and not layer.items["class_regions"].isVisible()
        for c in ws.dataset.classes:
            item = layer.items[f"class_region_{listed.index(c)}"]
            assert item.isVisible()
            assert item.brush().color().getRgb() == tuple(int(v) for v in
                                                          layer.tints[listed.index(c)])
    else:  # a picture on the grid, each pixel the class predicted at its centre
        (x0, x1, y0, y1), nx, ny, _S = layer.scores
        image = layer.items["class_regions"].image
        fy, fx = image.shape[:2]
        assert fy > ny and fx > nx
        _xs, _ys, G = cell_centres((x0, x1, y0, y1), fx, fy)
        predicted = ws.learner.predict(G).reshape(fy, fx)
        for c in ws.dataset.classes:
            tint = layer.tints[listed.index(c)]
            assert (image[predicted == c] == tint).all()
    # the tint is the class's colour over the background, as the two-class regions
    pal = style.current()
    a = pal.pos_region[3] / 255
    bg = np.array(pg.mkColor(pal.background).getRgb()[:3])
    for k in range(3):
        rgb = np.array(pg.mkColor(pal.class_colors[k]).getRgb()[:3])
        assert np.abs(layer.tints[k][:3] - (a * rgb + (1 - a) * bg)).max() <= 0.5
    claims = registry.get(learner).caps().claims
    assert layer.items["claims_none"].isVisible() == claims
    if claims:
        count = ws.learner.claims(points)
        none = layer.items["claims_none"].path()
        several = layer.items["claims_several"].path()
        for p, c in zip(points[:400], count[:400], strict=True):
            q = QtCore.QPointF(*p)
            assert none.contains(q) == (c == 0) and several.contains(q) == (c >= 2)
        for k in range(3):  # each learner's line, in its class's colour
            assert layer.items[f"class_line_{k}"].isVisible()
    names = [e.text for e in layer.legend_entries(canvas._frame())]
    assert "boundaries between classes" in names
    assert ("no class claims the place" in names) == claims


def test_the_posterior_shading_is_the_winners_colour_as_sure_as_it_is(make_canvas, palette):
    canvas, ws = make_canvas(_iris("qda"), view=(0.0, 8.0, -1.0, 3.5))
    canvas.set_visible_layers(probability=True)
    canvas.refresh()
    layer = canvas.layer("probability")
    x0, x1, y0, y1, (winner, best) = layer.grid
    ny, nx = winner.shape
    _xs, _ys, G = cell_centres((x0, x1, y0, y1), nx, ny)
    P = ws.learner.predict_proba(G)
    assert np.array_equal(winner.ravel(), np.argmax(P, axis=1))
    np.testing.assert_allclose(best.ravel(), P.max(axis=1), rtol=1e-12)
    image = layer.items["probability_image"].image
    assert image.shape == (ny, nx, 4)
    ramps = class_ramps(ws.dataset, ws.learner.classes_)
    np.testing.assert_array_equal(image, shading(winner, best, ramps))
    bg = pg.mkColor(style.current().background).getRgb()[:3]
    assert (ramps[:, 0, :3] == bg).all()  # 1/m: the background; 1: the deepest
    depth = np.abs(ramps[:, :, :3].astype(int) - bg).sum(axis=2)
    assert (depth[:, -1] > 60).all() and (np.diff(depth, axis=1) >= 0).all()
    title = layer.items["colour_bar"].title
    assert title == "largest P(Cₖ | x)"
    # the hover: every class's posterior, by name
    xy = (4.9, 1.6)
    text_p = layer.show_posterior_at(*xy)
    expect = ws.learner.predict_proba(np.array([xy]))[0]
    np.testing.assert_allclose(text_p, expect, rtol=1e-12)
    text = layer.items["posterior_readout"].text()
    assert text == posteriors_text(["setosa", "versicolor", "virginica"], expect)
    assert text.count("\n") == 2 and text.startswith("P(setosa | x) = ")


@pytest.mark.parametrize("m", [3, 8])
def test_m_classes_from_blobs_every_class_has_a_region(make_canvas, m):
    canvas, ws = make_canvas(Workspace(_blobs(m), "lda"), view=(-8.0, 8.0, -8.0, 8.0))
    layer = canvas.layer("classes")
    shown = [layer.items[f"class_region_{k}"].isVisible() for k in range(8)]
    assert shown == [k < m for k in range(8)]  # every class has a region, in view
    # the means in their classes' colours
    brushes = canvas.layer("lda").items["lda_means"].data["brush"]
    colors = style.current().class_colors
    listed = ws.dataset.listed_classes
    assert [b.color().name() for b in brushes] == [
        pg.mkColor(colors[listed.index(c)]).name() for c in ws.learner.classes_]


def test_the_hover_names_the_class_and_its_multiclass_margin():
    from perceptron_gui.ui.widgets.canvas.layers.hover import hover_text

    ws = _iris("lda")
    i = int(ws.misclassified()[0])
    text = hover_text(ws, i)
    scores = ws.learner.decision_function(ws.dataset.X[i : i + 1])[0]
    own = int(np.searchsorted(ws.learner.classes_, ws.dataset.y[i]))
    margin = scores[own] - np.max(np.delete(scores, own))
    assert margin < 0 and float(ws.training_margins()[i]) == pytest.approx(margin, rel=1e-12)
    name = ws.dataset.class_names[own]
    assert text.splitlines()[0] == f"sample {i + 1} · {name}"
    assert text.splitlines()[-1].startswith("own score − best other = −")


def test_the_mistakes_of_m_classes_are_marked(make_canvas):
    canvas, ws = make_canvas(_iris("lda"), view=(0.0, 8.0, -1.0, 3.5))
    wrong = np.flatnonzero(ws.learner.predict(ws.dataset.X) != ws.dataset.y)
    assert wrong.size == 6 and np.array_equal(ws.misclassified(), wrong)
    layer = canvas.layer("mistakes")
    assert np.array_equal(layer.marked, wrong) and layer.items["mistake_marks"].isVisible()


def test_a_pan_within_the_cut_polygons_redraws_nothing_and_a_far_one_recuts(make_canvas):
    canvas, ws = make_canvas(_iris("lda"), view=(0.0, 8.0, -1.0, 3.5))
    layer = canvas.layer("classes")
    item = layer.items["class_region_0"]
    before = item.path()
    canvas.getViewBox().setRange(xRange=(0.5, 8.5), yRange=(-1.0, 3.5), padding=0)
    canvas.refresh()
    assert item.path() is not before and item.path() == before  # the same polygon, kept
    canvas.getViewBox().setRange(xRange=(30.0, 38.0), yRange=(-1.0, 3.5), padding=0)
    canvas.refresh()
    assert item.path() != before
    rng = np.random.default_rng(2)
    points = rng.uniform([30.0, -1.0], [38.0, 3.5], (500, 2))
    drawn, at = layer.drawn_classes(ws, points)
    assert np.array_equal(drawn, ws.learner.predict(at))


def test_the_grid_of_a_fitted_learner_comes_from_a_worker_and_is_the_same(make_canvas, qtbot):
    canvas, ws = make_canvas(_iris("qda"), view=(0.0, 8.0, -1.0, 3.5))
    layer = canvas.layer("classes")
    now = layer.items["class_regions"].image.copy()
    canvas.getViewBox().setRange(xRange=(0.5, 8.5), yRange=(-1.0, 3.5), padding=0)
    canvas.refresh(finish=False)  # as the window redraws: the grid in a worker
    assert layer.pending  # asked for, not drawn on this thread
    qtbot.waitUntil(lambda: not layer.pending, timeout=10_000)
    later = layer.items["class_regions"].image
    assert later.shape != now.shape or not np.array_equal(later, now)  # the new view's
    rng = np.random.default_rng(3)
    points = rng.uniform([0.5, -1.0], [8.5, 3.5], (1500, 2))
    drawn, at = layer.drawn_classes(ws, points)
    assert np.array_equal(drawn, ws.learner.predict(at))


def test_the_posteriors_readout_is_inside_the_view_and_goes_with_the_pointer(make_canvas):
    canvas, ws = make_canvas(_iris("lda"), view=(0.0, 8.0, -1.0, 3.5))
    canvas.set_visible_layers(probability=True)
    canvas.refresh()
    layer = canvas.layer("probability")
    readout = layer.items["posterior_readout"]
    layer.show_posterior_at(4.9, 1.6)
    assert readout.isVisible() and readout.text().count("\n") == 2
    box = canvas.getViewBox().sceneBoundingRect()
    shown = readout.sceneBoundingRect()
    assert box.contains(shown), (box, shown)  # every line whole: the class names too
    layer.pointer_left()
    assert not readout.isVisible() and layer.hover is None


def test_a_worker_s_first_picture_puts_the_boundaries_in_the_legend(make_canvas, qtbot):
    canvas, ws = make_canvas(_iris("qda"), view=(0.0, 8.0, -1.0, 3.5))
    layer = canvas.layer("classes")
    layer.hide()  # as before a first picture: nothing drawn, nothing listed
    canvas.getViewBox().setRange(xRange=(0.2, 8.2), yRange=(-1.0, 3.5), padding=0)
    canvas.refresh(finish=False)
    qtbot.waitUntil(lambda: not layer.pending, timeout=10_000)
    assert "boundaries between classes" in legend_texts(canvas)


def test_the_regions_of_a_multiclass_run_follow_its_cursor(make_canvas):
    canvas, ws = make_canvas(_iris("multiclass_perceptron"), view=(0.0, 8.0, -1.0, 3.5))
    assert ws.running and ws.multiclass and ws.capabilities.class_lines
    layer = canvas.layer("classes")
    points = np.random.default_rng(2).uniform([0.0, -1.0], [8.0, 3.5], (1500, 2))
    seen = set()
    for _ in range(4):  # each update moves two classes' scores: the picture follows
        ws.step_update()
        canvas.refresh()
        drawn, at = layer.drawn_classes(ws, points)
        assert np.array_equal(drawn, ws.learner.predict(at))
        seen.add(drawn.tobytes())
    ws.seek(0)  # W = 0: every score ties, the first class everywhere
    canvas.refresh()
    drawn, _ = layer.drawn_classes(ws, points)
    assert (drawn == ws.dataset.listed_classes[0]).all()
    assert len(seen) == 4
