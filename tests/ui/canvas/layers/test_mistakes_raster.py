"""At large n the misclassified samples are an exact raster of the view's pixels too.

Each pixel of the view that holds a sample the core counts as misclassified
(``Workspace.misclassified``) shows ``MISTAKE_COLOR``; every other pixel shows
what the data raster shows there.  Zoomed in (few mistakes in the view), or
with few mistakes in all, they are crosses again.
"""

from __future__ import annotations

import numpy as np

from perceptron_gui.core.dataset import Dataset
from perceptron_gui.core.scale import LARGE_N
from perceptron_gui.core.workspace import Workspace
from perceptron_gui.ui import style
from perceptron_gui.ui.widgets.canvas import LAYERS
from perceptron_gui.ui.widgets.canvas.raster import (
    MIXED,
    PixelGrid,
    class_codes,
    occupied,
    pixel_index,
)
from tests.ui.canvas.helpers import legend_texts
from tests.ui.canvas.layers.test_data_raster import ShownPixels, overlapping

N = 3 * LARGE_N


def noisy(n: int, seed: int = 0) -> Dataset:
    """Labels that do not depend on the positions: about half the samples stay misclassified."""
    rng = np.random.default_rng(seed)
    X = np.clip(rng.normal(size=(n, 2)) * 1.6, -4.9, 4.9)
    return Dataset(X, rng.choice([-1, 1], size=n))


def only_mistakes(canvas) -> None:
    """Every switchable layer off but the mistakes (the data are always drawn)."""
    canvas.set_visible_layers(**{name: name == "mistakes" for name in LAYERS})


def check_exact_mistakes(canvas, ws) -> dict:
    """Each pixel holding a misclassified sample has the mark's colour; the others the data's."""
    ds = ws.dataset
    wrong = np.zeros(ds.n, bool)
    wrong[ws.misclassified()] = True
    shown = ShownPixels(canvas, ds.X)
    mark, pos, neg = shown.held(wrong), shown.held(ds.y > 0), shown.held(ds.y < 0)
    counts = shown.check((("mark", mark, style.current().mistake_color),
                          ("pos", pos & ~neg & ~mark, style.current().pos_color),
                          ("neg", neg & ~pos & ~mark, style.current().neg_color),
                          ("mixed", pos & neg & ~mark, style.current().mixed_color)))
    unmarked = shown.in_box & ~mark & ~shown.ambiguous
    assert not np.any(unmarked & shown.showing(style.current().mistake_color))
    return counts


def test_many_mistakes_are_the_pixels_that_hold_them(make_canvas, palette):
    canvas, ws = make_canvas(Workspace(overlapping(N)))
    ws.step_update()
    assert ws.misclassified().size > LARGE_N  # more than the crosses take
    only_mistakes(canvas)
    canvas.refresh()
    layer = canvas.layer("mistakes")
    assert layer.mode == "raster" and canvas.layer("data").mode == "raster"
    assert layer.items["mistake_raster"].isVisible()
    assert not layer.items["mistake_marks"].isVisible()
    counts = check_exact_mistakes(canvas, ws)
    # each kind of pixel is checked, many times (a pixel holding both classes holds a
    # mistake of any hyperplane that does not cross it)
    assert min(counts["mark"], counts["pos"], counts["neg"]) > 100, counts
    canvas.set_visible_layers(legend=True)
    canvas.refresh()
    assert legend_texts(canvas)[-1] == "misclassified"
    assert [e.name for e in layer.legend_entries(canvas._frame())] == ["mistake_pixels"]


def test_steps_redraw_the_marks_in_a_worker_the_newest_shown(make_canvas, qtbot):
    canvas, ws = make_canvas(Workspace(noisy(N, seed=1)))
    only_mistakes(canvas)
    ws.step_update()
    canvas.refresh()
    layer = canvas.layer("mistakes")
    before = layer.items["mistake_raster"].image
    seen = set()
    for _ in range(4):  # four updates in a row: the marks follow to the last one
        ws.step_update()
        seen.add(ws.misclassified().size)
        canvas._flush()  # what the zero timer does after run_changed
    assert len(seen) > 1 and min(seen) > LARGE_N
    assert layer.pending and layer.items["mistake_raster"].image is before  # the old marks stay
    # the data's own raster may still be on its way on a loaded machine: both arrive
    qtbot.waitUntil(lambda: not layer.pending and not canvas.layer("data").pending)
    assert layer.items["mistake_raster"].image is not before
    check_exact_mistakes(canvas, ws)
    canvas.set_visible_layers(mistakes=False)
    canvas.refresh()
    assert not layer.items["mistake_raster"].isVisible()
    assert not layer.items["mistake_marks"].isVisible()
    assert layer.marked.size == 0


def test_zoomed_in_the_mistakes_are_crosses_again(make_canvas, qtbot):
    canvas, ws = make_canvas(Workspace(overlapping(N, seed=2)))
    ws.step_update()
    canvas.refresh()
    layer = canvas.layer("mistakes")
    assert layer.mode == "raster"
    cx, cy = ws.dataset.X[ws.misclassified()[100]]
    canvas.set_view_rect((cx - 0.3, cx + 0.3), (cy - 0.3, cy + 0.3))  # some hundred points
    qtbot.waitUntil(lambda: layer.mode == "markers" and not layer.pending)
    assert layer.items["mistake_marks"].isVisible()
    assert not layer.items["mistake_raster"].isVisible()
    X = ws.dataset.X
    mis = ws.misclassified()
    (x0, x1), (y0, y1) = canvas.getViewBox().viewRange()
    seen = (X[mis, 0] >= x0) & (X[mis, 0] <= x1) & (X[mis, 1] >= y0) & (X[mis, 1] <= y1)
    assert seen.any()
    drawn = {tuple(p) for p in np.column_stack(layer.items["mistake_marks"].getData())}
    assert {tuple(p) for p in X[mis[seen]]} <= drawn  # each mistake in view has its cross
    assert drawn <= {tuple(p) for p in X[mis]}  # and each cross is on a mistake
    canvas.set_visible_layers(legend=True)
    canvas.refresh()
    assert [e.name for e in layer.legend_entries(canvas._frame())] == ["mistake"]
    canvas.fit_view()
    qtbot.waitUntil(lambda: layer.mode == "raster" and not layer.pending)
    only_mistakes(canvas)
    canvas.refresh()
    check_exact_mistakes(canvas, ws)


def test_few_mistakes_at_large_n_are_a_cross_each(make_canvas):
    rng = np.random.default_rng(3)
    X = rng.uniform(-4.5, 4.5, size=(N, 2))
    y = np.where(X[:, 0] - 0.3 * X[:, 1] > 0.2, 1, -1)
    canvas, ws = make_canvas(Workspace(Dataset(X, y)))
    ws.run_to_end()
    assert ws.learner.converged_
    canvas.refresh()
    assert ws.misclassified().size == 0
    marks = canvas.layer("mistakes").items
    assert not marks["mistake_marks"].isVisible() and not marks["mistake_raster"].isVisible()
    k = ws.learner.n_updates_
    ws.seek(int(ws.learner.history.updates.rows().step[k - 1]) - 1)  # just before the last update
    canvas.refresh()
    mis = ws.misclassified()
    assert 0 < mis.size <= LARGE_N
    layer = canvas.layer("mistakes")
    assert layer.mode == "markers" and not layer.pending
    drawn = np.column_stack(layer.items["mistake_marks"].getData())
    np.testing.assert_array_equal(drawn, ws.dataset.X[mis])
    np.testing.assert_array_equal(layer.marked, mis)


def test_pixel_index_bins_as_the_class_raster_does():
    ds = overlapping(5000, seed=5)
    X = np.vstack([ds.X, [[np.nan, 0.0], [np.inf, 1.0], [1e308, -1e308], [40.0, 0.0]]])
    y = np.append(ds.y, [1, 1, -1, -1])
    grid = PixelGrid.of_view((-5, 5, -5, 5), (10.5, 20.25, 410.5, 420.25))
    pixels = pixel_index(X, grid)
    assert pixels.dtype == np.int32 and (pixels[-4:] == -1).all()  # off the grid
    codes = class_codes(X, (y < 0).astype(np.uint8), grid)
    np.testing.assert_array_equal(occupied(pixels, grid), codes > 0)
    pos = y > 0
    np.testing.assert_array_equal(occupied(pixels[pos], grid), (codes == 1) | (codes == MIXED))
    np.testing.assert_array_equal(occupied(pixels[~pos], grid), (codes == 2) | (codes == MIXED))
