"""More than two classes on the canvas: the regions, the boundaries, one-vs-rest's claims and
the winning class's posterior, each checked against the core's numbers."""

from __future__ import annotations

import numpy as np
import pyqtgraph as pg
import pytest

from perceptron_gui.core import samples
from perceptron_gui.core.dataset import Dataset
from perceptron_gui.core.learners import registry
from perceptron_gui.core.workspace import Workspace
from perceptron_gui.ui import style
from perceptron_gui.ui.widgets.canvas.geometry import cell_centres
from perceptron_gui.ui.widgets.canvas.layers import LAYER_TYPES, ClassRegionsLayer
from perceptron_gui.ui.widgets.canvas.layers.classes import (
    claims_picture,
    region_boundaries,
    regions_picture,
)
from perceptron_gui.ui.widgets.canvas.layers.probability import (
    class_ramps,
    posteriors_text,
    shading,
)


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
    picture = regions_picture(scores, colors)
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


def test_claims_picture_marks_gaps_and_overlaps():
    none, several = np.array([9, 9, 9, 200]), np.array([1, 2, 3, 70])
    claims = np.array([0, 1, 2, 3, 1, 0])
    picture = claims_picture(claims, 2, 3, none, several, stripe=1)
    assert picture[0, 0].tolist() == none.tolist() and picture[1, 2].tolist() == none.tolist()
    assert picture[0, 1].tolist() == [0, 0, 0, 0] and picture[1, 1].tolist() == [0, 0, 0, 0]
    assert picture[0, 2].tolist() == several.tolist()  # stripe 1 fills every overlap cell
    assert picture[1, 0].tolist() == several.tolist()
    wide = claims_picture(np.full(36, 2), 6, 6, none, several, stripe=3)
    drawn = wide[..., 3] == several[3]
    rows, cols = np.indices((6, 6))
    assert np.array_equal(drawn, (rows + cols) % 3 == 0)  # a third of the cells, diagonal


@pytest.mark.parametrize("learner", ["lda", "qda", "naive_bayes", "one_vs_rest"])
def test_the_regions_pixels_are_the_learners_predictions(make_canvas, palette, learner):
    canvas, ws = make_canvas(_iris(learner), view=(0.0, 8.0, -1.0, 3.5))
    assert ws.multiclass and ws.weights() is None and not ws.capabilities.linear
    layer = canvas.layer("classes")
    assert layer.items["class_regions"].isVisible() and layer.items["class_boundaries"].isVisible()
    assert not canvas.layer("kernel").items["region_image"].isVisible()  # not the two-class one
    (x0, x1, y0, y1), nx, ny, S = layer.scores
    image = layer.items["class_regions"].image
    fy, fx = image.shape[:2]  # the regions are drawn finer than the scores' grid
    assert (fy, fx) == (4 * ny, 4 * nx)
    _xs, _ys, G = cell_centres((x0, x1, y0, y1), fx, fy)
    predicted = ws.learner.predict(G).reshape(fy, fx)  # every pixel of the picture
    listed = ws.dataset.listed_classes
    for c in ws.dataset.classes:  # each class's cells in its tint, and only those
        tint = layer.tints[listed.index(c)]
        assert (image[predicted == c] == tint).all()
        assert not (image[predicted != c] == tint).all(axis=-1).any()
    # the tint is the class's colour over the background, as the two-class regions
    pal = style.current()
    a = pal.pos_region[3] / 255
    bg = np.array(pg.mkColor(pal.background).getRgb()[:3])
    for k in range(3):
        rgb = np.array(pg.mkColor(pal.class_colors[k]).getRgb()[:3])
        assert np.abs(layer.tints[k][:3] - (a * rgb + (1 - a) * bg)).max() <= 0.5
    claims = layer.items["claims"]
    if registry.get(learner).caps().claims:
        assert claims.isVisible()
        count = ws.learner.claims(G).reshape(fy, fx)
        alpha = claims.image[..., 3]
        assert (alpha[count == 1] == 0).all()  # one claim: clear
        assert (alpha[count == 0] == layer.none_color[3]).all()
        striped = alpha[count >= 2]
        assert striped.size and set(np.unique(striped)) == {0, layer.several_color[3]}
        for k in range(3):  # each learner's line, in its class's colour
            assert layer.items[f"class_line_{k}"].isVisible()
    else:
        assert not claims.isVisible()
    names = [e.text for e in layer.legend_entries(canvas._frame())]
    assert "boundaries between classes" in names
    assert ("no class claims the place" in names) == registry.get(learner).caps().claims


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
    image = layer.items["class_regions"].image
    seen = {tuple(px) for px in image.reshape(-1, 4)}
    assert {tuple(t) for t in layer.tints[:m]} <= seen
    # the means in their classes' colours
    brushes = canvas.layer("lda").items["lda_means"].data["brush"]
    colors = style.current().class_colors
    listed = ws.dataset.listed_classes
    assert [b.color().name() for b in brushes] == [
        pg.mkColor(colors[listed.index(c)]).name() for c in ws.learner.classes_]
