"""An export of three classes is the screen's picture: each class's markers on the screen's
pixels, and at large n each class's pixels of the raster (as the two-class tests check,
tests/ui/features/test_export_matches_screen.py)."""

from __future__ import annotations

import numpy as np
import pytest

from perceptron_gui.core import Dataset
from perceptron_gui.core.dataset import ReplaceAll
from perceptron_gui.ui import style
from perceptron_gui.ui.widgets.canvas import LAYERS
from tests.ui.features.test_export_matches_screen import (
    EXPORTS,
    TOL,
    _blobs,
    _gaps,
    _near,
    _rgb,
    _screen_image,
)

M = 3


def _show(window, X, y) -> None:
    """Only the data layer (no tint, axis or legend sample adds a blob of a class's colour)."""
    window.push_edit(ReplaceAll.from_dataset(Dataset(X, y, classes=tuple(range(M)))))
    window.canvas.set_visible_layers(**{name: name == "data" for name in LAYERS})
    window.canvas.fit_view()
    window.canvas.refresh()


def _class_masks(image, tol: int) -> list[np.ndarray]:
    a = _rgb(image)
    return [_near(a, color, tol) for color in style.current().class_colors[:M]]


def test_an_export_puts_each_classs_markers_on_the_screens_pixels(window, qtbot, tmp_path,
                                                                  subtests):
    angles = np.linspace(0, 2 * np.pi, 15, endpoint=False)
    X = np.column_stack([np.cos(angles), np.sin(angles)]) * np.r_[2.0, 3.5, 5.0].repeat(5)[:, None]
    y = np.arange(15) % M
    _show(window, X, y)
    assert window.canvas.layer("data").mode == "markers"
    screen = _screen_image(window, qtbot)
    size = (screen.width(), screen.height())
    exact = np.array([(q.x(), q.y()) for q in (window.canvas.data_to_widget(*p) for p in X)])
    on_screen = [_blobs(mask) for mask in _class_masks(screen, 24)]
    for k in range(M):
        # each marker on its point (a triangle's centroid is off its centre by a sixth)
        assert _gaps(on_screen[k], exact[y == k]).max() <= 3.0, k
    for fmt in sorted(EXPORTS):
        with subtests.test(fmt=fmt):
            exported = EXPORTS[fmt](window, tmp_path, size)
            assert (exported.width(), exported.height()) == size
            for k, mask in enumerate(_class_masks(exported, 24)):
                assert _gaps(_blobs(mask), on_screen[k]).max() <= TOL, (fmt, k)


@pytest.mark.parametrize("fmt", sorted(EXPORTS))
def test_at_1e5_points_the_export_shows_each_classs_pixels_as_the_screen(window, qtbot,
                                                                         tmp_path, fmt):
    rng = np.random.default_rng(7)
    y = rng.integers(0, M, 100_000)
    centres = 2.0 * np.array([(1.0, 0.0), (-0.5, 0.87), (-0.5, -0.87)])
    _show(window, centres[y] + rng.normal(size=(len(y), 2)), y)
    assert window.canvas.layer("data").mode == "raster"
    screen = _screen_image(window, qtbot)
    exported = EXPORTS[fmt](window, tmp_path, (screen.width(), screen.height()))
    # within 30 levels: QtSvg resamples an embedded image a little even at a pixel per pixel
    for k, (shown, painted) in enumerate(zip(_class_masks(screen, 30),
                                             _class_masks(exported, 30), strict=True)):
        both, either = np.count_nonzero(shown & painted), np.count_nonzero(shown | painted)
        assert either > 1000, k
        assert both / either > 0.98, (k, both, either)
