"""At large n the points are an exact raster of the view's pixels; zoomed in, markers again.

The pixel checks compute each point's screen pixel from the view's numbers
alone (the view range and where the view box lies in the widget), then read
the grabbed picture: a pixel holding points of class +1 only has
``POS_COLOR``, of class −1 only ``NEG_COLOR``, of both ``MIXED_COLOR``.
"""

from __future__ import annotations

import math

import numpy as np
import pytest
from PySide6 import QtGui

from perceptron_gui.core.dataset import AddPoints, Dataset
from perceptron_gui.core.scale import LARGE_N
from perceptron_gui.core.workspace import Workspace
from perceptron_gui.ui import style
from perceptron_gui.ui.widgets.canvas import LAYERS
from perceptron_gui.ui.widgets.canvas.layers.data import MIXED_NAME
from perceptron_gui.ui.widgets.canvas.raster import MIXED, PixelGrid, class_codes, points_view
from tests.ui.canvas.helpers import click, drag, legend_texts

N = 3 * LARGE_N  # more points than the markers take


def overlapping(n: int, seed: int = 0) -> Dataset:
    """Two classes overlapping along x = 0 (many pixels hold both), in [-5, 5]²."""
    rng = np.random.default_rng(seed)
    X = np.clip(rng.normal(size=(n, 2)) * 1.6, -4.9, 4.9)
    y = np.where(X[:, 0] + rng.normal(size=n) * 0.4 > 0, 1, -1)
    return Dataset(X, y)


def screen_pixels(canvas, X):
    """Each point's widget pixel ``(row, col)``, from the view range and the view box's rectangle.

    Also returns which points lie within 1e-6 pixel of a pixel edge (their
    pixel is ambiguous to rounding and is not checked).
    """
    (x0, x1), (y0, y1) = canvas.getViewBox().viewRange()  # as shown (the aspect is locked)
    vb = canvas.getViewBox()
    box = canvas.viewportTransform().mapRect(vb.mapRectToScene(vb.rect()))
    fx = box.left() + (X[:, 0] - x0) * box.width() / (x1 - x0)
    fy = box.top() + (y1 - X[:, 1]) * box.height() / (y1 - y0)
    edge = np.minimum(np.abs(fx - np.rint(fx)), np.abs(fy - np.rint(fy))) < 1e-6
    return np.floor(fy).astype(int), np.floor(fx).astype(int), edge, box


def picture(canvas) -> np.ndarray:
    """The canvas as shown, an (h, w, 3) array of RGB."""
    image = canvas.grab().toImage().convertToFormat(QtGui.QImage.Format.Format_RGB888)
    h, w = image.height(), image.width()
    raw = np.frombuffer(image.constBits(), np.uint8, count=image.bytesPerLine() * h)
    return raw.reshape(h, image.bytesPerLine())[:, : 3 * w].reshape(h, w, 3).copy()


def rgb(color) -> tuple:
    c = QtGui.QColor(color)
    return c.red(), c.green(), c.blue()


class ShownPixels:
    """The canvas as shown, and which of its pixels hold points.

    ``held(mask)`` marks the pixels holding the points selected by ``mask``
    (inside the view box, not on a pixel edge); ``ambiguous`` are the pixels
    of points on an edge, never checked; ``in_box`` the view box's pixels.
    """

    def __init__(self, canvas, X):
        self._row, self._col, edge, box = screen_pixels(canvas, X)
        img = picture(canvas)
        h, self.w = img.shape[:2]
        self.pixels = img.reshape(-1, 3)
        inside = ((self._row >= math.ceil(box.top())) & (self._row < math.floor(box.bottom()))
                  & (self._col >= math.ceil(box.left())) & (self._col < math.floor(box.right())))
        self._flat = self._row * self.w + self._col
        self.ambiguous = np.zeros(h * self.w, bool)
        self.ambiguous[self._flat[edge & inside]] = True
        self._keep = inside & ~edge
        r = np.arange(h)[:, None]
        c = np.arange(self.w)[None, :]
        self.in_box = ((r >= math.ceil(box.top())) & (r < math.floor(box.bottom()))
                       & (c >= math.ceil(box.left())) & (c < math.floor(box.right()))).ravel()

    def held(self, mask) -> np.ndarray:
        """The pixels (flat) holding a point of ``mask`` (a boolean per point)."""
        out = np.zeros(self.pixels.shape[0], bool)
        out[self._flat[self._keep & mask]] = True
        return out

    def check(self, expected) -> dict:
        """Assert each ``(name, pixels, colour)`` of ``expected``; the pixels counted by name."""
        counts = {}
        for name, where, color in expected:
            where = where & ~self.ambiguous
            counts[name] = int(where.sum())
            bad = np.flatnonzero(where & np.any(self.pixels != rgb(color), axis=1))
            assert bad.size == 0, (name, [(i // self.w, i % self.w, tuple(self.pixels[i]))
                                          for i in bad[:5]])
        return counts

    def showing(self, color) -> np.ndarray:
        """The pixels (flat) of exactly ``color``."""
        return np.all(self.pixels == rgb(color), axis=1)


def check_exact_raster(canvas, ds: Dataset) -> dict:
    """Every pixel holding points shows their classes' colour; no empty pixel does."""
    shown = ShownPixels(canvas, ds.X)
    pos, neg = shown.held(ds.y > 0), shown.held(ds.y < 0)
    counts = shown.check((("pos", pos & ~neg, style.current().pos_color),
                          ("neg", neg & ~pos, style.current().neg_color),
                          ("mixed", pos & neg, style.current().mixed_color)))
    # a pixel of the view box that holds no point shows none of the three colours
    empty = shown.in_box & ~pos & ~neg & ~shown.ambiguous
    p = style.current()
    for color in (p.pos_color, p.neg_color, p.mixed_color):
        assert not np.any(empty & shown.showing(color)), color
    return counts


def test_at_large_n_each_pixel_has_the_colour_of_its_points_classes(make_canvas, palette):
    canvas, ws = make_canvas(Workspace(overlapping(N)))
    canvas.set_visible_layers(**{name: False for name in LAYERS})
    canvas.refresh()
    data = canvas.layer("data")
    assert data.mode == "raster" and data.mixed
    assert data.items["point_raster"].isVisible() and not data.items["scatter_0"].isVisible()
    counts = check_exact_raster(canvas, ws.dataset)
    assert min(counts.values()) > 100, counts  # each kind of pixel is checked, many times
    canvas.set_visible_layers(legend=True)
    canvas.refresh()
    assert legend_texts(canvas) == [style.POS_NAME, style.NEG_NAME, MIXED_NAME]


def test_the_raster_stays_exact_over_the_learners_regions(make_canvas):
    ws = Workspace(overlapping(N, seed=3), params={"primal": {"max_iter": 2}})
    canvas, ws = make_canvas(ws)
    ws.run_to_end()
    canvas.set_visible_layers(**{name: name in ("regions", "boundary") for name in LAYERS})
    canvas.refresh()
    assert canvas.layer("boundary").items["region_pos"].isVisible()
    assert canvas.layer("data").mode == "raster"
    check_exact_raster(canvas, ws.dataset)
    # an empty pixel far on each side shows the region's tint, as with markers
    w, b = ws.readouts().w, ws.readouts().b
    img = picture(canvas)
    n = w / np.linalg.norm(w)
    for sign in (1, -1):
        p = canvas.data_to_widget(*(sign * 4.97 * n - b * n / np.linalg.norm(w)))
        red, _green, blue = (int(v) for v in img[int(p.y()), int(p.x())])
        assert (blue - red) * sign > 0, (sign, red, blue)


def test_zooming_in_returns_markers_and_out_the_raster(make_canvas, qtbot):
    canvas, ws = make_canvas(Workspace(overlapping(N, seed=1)))
    data = canvas.layer("data")
    assert data.mode == "raster"
    assert style.POS_NAME in legend_texts(canvas)
    canvas.set_view_rect((2.0, 2.6), (-0.3, 0.3))  # a few hundred points
    qtbot.waitUntil(lambda: data.mode == "markers" and not data.pending)
    assert data.items["scatter_0"].isVisible() and not data.items["point_raster"].isVisible()
    (x0, x1), (y0, y1) = canvas.getViewBox().viewRange()
    X, y = ws.dataset.X, ws.dataset.y
    seen = (X[:, 0] >= x0) & (X[:, 0] <= x1) & (X[:, 1] >= y0) & (X[:, 1] <= y1)
    drawn = {tuple(p) for p in np.column_stack(data.items["scatter_0"].getData())}
    assert {tuple(p) for p in X[seen & (y > 0)]} <= drawn  # every visible point has its marker
    assert len(drawn) + len(data.items["scatter_1"].getData()[0]) <= 3 * data.marker_max
    assert MIXED_NAME not in legend_texts(canvas)
    canvas.fit_view()
    qtbot.waitUntil(lambda: data.mode == "raster" and not data.pending)
    assert MIXED_NAME in legend_texts(canvas)
    canvas.set_visible_layers(**{name: False for name in LAYERS})
    canvas.refresh()
    check_exact_raster(canvas, ws.dataset)


def test_a_new_view_is_binned_in_a_worker_and_stale_results_are_dropped(make_canvas, qtbot):
    canvas, ws = make_canvas(Workspace(overlapping(N, seed=2)))
    canvas.set_visible_layers(**{name: False for name in LAYERS})
    canvas.refresh()
    data = canvas.layer("data")
    before = data.items["point_raster"].image
    for k in range(4):  # four views in a row: only the last one is drawn
        canvas.set_view_rect((-5 + 0.3 * k, 5), (-5, 5 - 0.3 * k))
        canvas._flush()  # what the zero timer does after a view change
    assert data.pending and data.items["point_raster"].image is before  # the old raster stays
    qtbot.waitUntil(lambda: not data.pending)
    assert data.items["point_raster"].image is not before
    check_exact_raster(canvas, ws.dataset)
    # an edit: the old points stay until the new raster is ready
    ws.apply_edit(AddPoints([[4.5, 4.5]], -1))
    canvas._flush()
    qtbot.waitUntil(lambda: not data.pending)
    check_exact_raster(canvas, ws.dataset)


def test_below_the_threshold_all_points_are_markers_whatever_the_view(make_canvas):
    canvas, ws = make_canvas(Workspace(overlapping(LARGE_N)))
    data = canvas.layer("data")
    assert data.mode == "markers" and not data.pending
    scatters = data.items["scatter_0"], data.items["scatter_1"]
    assert sum(len(item.getData()[0]) for item in scatters) == LARGE_N
    assert legend_texts(canvas)[:2] == [style.POS_NAME, style.NEG_NAME]


def test_clicks_and_hover_find_points_in_the_raster(make_canvas, qtbot):
    ds = overlapping(N, seed=4)
    X = np.vstack([ds.X, [[4.6, -4.6]]])  # one point alone in a corner
    canvas, ws = make_canvas(Workspace(Dataset(X, np.append(ds.y, 1))))
    assert canvas.layer("data").mode == "raster"
    i = ws.dataset.n - 1
    click(canvas, (4.6 + 2 * canvas.pixel_size()[0], -4.6))  # two pixels off: still a hit
    assert canvas.selection.tolist() == [i]
    assert canvas.view_state.hovered == i
    j = int(np.argmin(np.abs(ws.dataset.X - [0.5, 0.5]).sum(axis=1)))
    click(canvas, tuple(ws.dataset.X[j]), mods=None)
    assert canvas.selection.tolist() == [j]


def test_a_point_dragged_in_the_raster_moves_there(make_canvas, qtbot):
    ds = overlapping(N, seed=6)
    X = np.vstack([ds.X, [[4.6, -4.6]]])
    canvas, ws = make_canvas(Workspace(Dataset(X, np.append(ds.y, -1))))
    canvas.set_visible_layers(**{name: False for name in LAYERS})
    canvas.refresh()
    drag(canvas, (4.6, -4.6), (4.0, 4.4))
    i = ws.dataset.n - 1
    np.testing.assert_allclose(ws.dataset.X[i], [4.0, 4.4], atol=2 * max(canvas.pixel_size()))
    assert canvas.view_state.hovered == i
    canvas._flush()  # what the zero timer does after the last move
    data = canvas.layer("data")
    qtbot.waitUntil(lambda: not data.pending)
    assert data.mode == "raster"
    canvas.set_hovered(None)  # its label would cover pixels
    check_exact_raster(canvas, ws.dataset)


def test_points_view_is_the_binning_of_the_view():
    ds = overlapping(5000, seed=5)
    grid = PixelGrid.of_view((-5, 5, -5, 5), (10.5, 20.25, 410.5, 420.25))
    assert (grid.width, grid.height) == (401, 401)
    assert grid.left == pytest.approx(-5 - 0.5 * 10 / 400) and grid.sx == pytest.approx(10 / 400)
    places = ds.listed_index()
    codes = class_codes(ds.X, places, grid)
    # an independent count per pixel
    row = np.floor((grid.top - ds.X[:, 1]) / grid.sy).astype(int)
    col = np.floor((ds.X[:, 0] - grid.left) / grid.sx).astype(int)
    npos = np.zeros(codes.shape, int)
    nneg = np.zeros(codes.shape, int)
    np.add.at(npos, (row[ds.y > 0], col[ds.y > 0]), 1)
    np.add.at(nneg, (row[ds.y < 0], col[ds.y < 0]), 1)
    expected = np.select([(npos > 0) & (nneg > 0), npos > 0, nneg > 0], [MIXED, 1, 2], 0)
    np.testing.assert_array_equal(codes, expected)
    out = points_view(ds.X, places, grid, limit=100)
    assert np.array_equal(out.codes, codes) and out.mixed == bool((expected == MIXED).any())
    few = points_view(ds.X, places, grid, limit=10_000)
    assert len(few.X) == ds.n and np.array_equal(few.y, places)


def test_the_raster_of_eight_classes_is_their_binning():
    rng = np.random.default_rng(8)
    X = rng.normal(size=(200_000, 2)) * 2
    places = rng.integers(0, 8, len(X)).astype(np.uint8)
    grid = PixelGrid.of_view((-5, 5, -5, 5), (0, 0, 300, 300))
    codes = class_codes(X, places, grid)
    row = np.floor((grid.top - X[:, 1]) / grid.sy).astype(int)
    col = np.floor((X[:, 0] - grid.left) / grid.sx).astype(int)
    on = (row >= 0) & (row < grid.height) & (col >= 0) & (col < grid.width)
    seen = np.zeros((8, grid.height, grid.width), bool)
    seen[places[on], row[on], col[on]] = True
    count = seen.sum(axis=0)
    expected = np.where(count > 1, MIXED, np.where(count == 1, seen.argmax(axis=0) + 1, 0))
    np.testing.assert_array_equal(codes, expected)
    assert {int(c) for c in np.unique(codes)} == {0, *range(1, 9), MIXED}
    assert PixelGrid.of_view((0, 0, 0, 1), (0, 0, 10, 10)) is None  # an empty view
    assert PixelGrid.of_view((0, 1, 0, 1), (0, 0, 0, 10)) is None  # a view box of no width
