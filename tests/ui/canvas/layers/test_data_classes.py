"""The data layer with three to eight classes: a marker and a colour each, an exact raster."""

from __future__ import annotations

import numpy as np
import pytest

from perceptron_gui.core.dataset import Dataset
from perceptron_gui.core.scale import LARGE_N
from perceptron_gui.core.workspace import Workspace
from perceptron_gui.ui import style
from perceptron_gui.ui.widgets.canvas import LAYERS
from perceptron_gui.ui.widgets.canvas.layers.data import MIXED_MANY
from tests.ui.canvas.helpers import legend_texts
from tests.ui.canvas.layers.test_data_raster import ShownPixels


def many(m: int, n: int, seed: int = 0, names=None) -> Dataset:
    rng = np.random.default_rng(seed)
    angles = 2 * np.pi * np.arange(m) / m
    centres = 2.5 * np.column_stack([np.cos(angles), np.sin(angles)])
    y = rng.integers(0, m, n)
    return Dataset(centres[y] + rng.normal(size=(n, 2)), y, classes=tuple(range(m)),
                   class_names=names)


@pytest.mark.parametrize("m", [3, 8])
def test_each_class_has_its_scatter_styled_from_the_palette(make_canvas, palette, m):
    names = tuple(f"kind {k}" for k in range(m))
    canvas, ws = make_canvas(Workspace(many(m, 400, names=names)))
    canvas.set_visible_layers(**{name: name in ("legend",) for name in LAYERS})
    canvas.refresh()
    data = canvas.layer("data")
    assert data.mode == "markers"
    for k in range(8):
        item = data.items[f"scatter_{k}"]
        xs, ys = item.getData()
        expected = ws.dataset.X[ws.dataset.y == k] if k < m else np.empty((0, 2))
        np.testing.assert_array_equal(np.column_stack([xs, ys]).reshape(-1, 2), expected)
        assert item.opts["symbol"] == style.CLASS_SYMBOLS[k]
        assert item.opts["size"] == pytest.approx(style.CLASS_SYMBOL_SIZES[k] * data.styles[0][1])
        assert item.opts["brush"].color().name().lower() == palette.class_colors[k].lower()
    assert legend_texts(canvas) == list(names)


def test_fewer_classes_empty_the_scatters_of_the_others(make_canvas):
    canvas, ws = make_canvas(Workspace(many(8, 300)))
    canvas.refresh()
    ws.set_dataset(many(3, 300, seed=1))
    canvas.refresh()
    data = canvas.layer("data")
    assert all(len(data.items[f"scatter_{k}"].getData()[0]) == 0 for k in range(3, 8))
    assert legend_texts(canvas)[:3] == ["class 0", "class 1", "class 2"]


@pytest.mark.parametrize("m", [3, 8])
def test_at_large_n_every_pixel_has_its_class_colour_or_the_mixed_one(make_canvas, palette,
                                                                     qtbot, m):
    canvas, ws = make_canvas(Workspace(many(m, max(100_000, 2 * LARGE_N + 1000), seed=2)))
    canvas.set_visible_layers(**{name: False for name in LAYERS})
    canvas.refresh()
    data = canvas.layer("data")
    qtbot.waitUntil(lambda: not data.pending, timeout=60_000)
    canvas.refresh()
    assert data.mode == "raster" and data.mixed
    ds = ws.dataset
    shown = ShownPixels(canvas, ds.X)
    held = [shown.held(ds.y == k) for k in range(m)]
    several = (np.sum(held, axis=0) > 1)
    counts = shown.check([(f"class {k}", held[k] & ~several, palette.class_colors[k])
                          for k in range(m)] + [("mixed", several, palette.mixed_color)])
    assert min(counts.values()) > 50, counts
    canvas.set_visible_layers(legend=True)
    canvas.refresh()
    assert legend_texts(canvas) == [f"class {k}" for k in range(m)] + [MIXED_MANY]
