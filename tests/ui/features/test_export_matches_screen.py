"""Each export is the picture on screen: marker by marker, ring, axis tick and tint edge.

The window's canvas is grabbed (what the screen shows) and exported as PNG,
as SVG (rasterised with QtSvg's ``QSvgRenderer``) and as a one-frame GIF
(read back with Pillow).  In every image the marks are found by their
colours alone: the points (blobs of each class's colour), the examined
sample's ring (its yellow), the x = 0 axis line (the darkest vertical line
inside the data area), the tick labels (dark blobs under it) and the region
tint (whose bounding box is the data area).  At the canvas's own size each
export must put every mark on the screen's pixel (within 1 px); at another
size (where positions scale) each point must be where the data area found
in that image and the window's view rectangle put it, the ring on its point
and the "0" under the x = 0 line.
"""

from __future__ import annotations

import io

import numpy as np
import pyqtgraph as pg
import pytest
from PIL import Image
from PySide6 import QtCore, QtGui, QtSvg
from scipy import ndimage

from perceptron_gui.core import Dataset
from perceptron_gui.core.dataset import ReplaceAll
from perceptron_gui.ui import style

# well apart, so that no two markers touch at any size used here; after three updates
# neither arrow's head is on a point (w = (3.9, -0.4)), the ring is on (-1.1, -1.3)
POS = [(1.0, 1.2), (2.3, 3.1), (3.4, 1.1), (0.6, 2.8), (2.6, -0.9), (4.1, 3.6), (1.8, -2.9)]
NEG = [(-1.1, -1.3), (-2.2, -3.0), (-3.3, -1.2), (-0.7, -2.6), (-2.7, 1.2), (-4.0, -3.4),
       (-1.9, 3.0)]
TOL = 1.0  # px


def _rgb(image: QtGui.QImage) -> np.ndarray:
    image = image.convertToFormat(QtGui.QImage.Format.Format_RGB32)
    a = np.frombuffer(bytes(image.constBits()), np.uint8)[: image.bytesPerLine() * image.height()]
    a = a.reshape(image.height(), image.bytesPerLine() // 4, 4)[:, : image.width(), :3]
    return a[:, :, ::-1].astype(int)


def _color(color) -> QtGui.QColor:
    return pg.mkColor(color)  # the palette's "w" too


def _near(a: np.ndarray, color, tol: int) -> np.ndarray:
    c = _color(color)
    return np.abs(a - np.array([c.red(), c.green(), c.blue()])).max(axis=2) <= tol


def _blobs(mask: np.ndarray, least: int = 8) -> np.ndarray:
    """Centres ``(x, y)`` of the connected blobs of ``mask`` (pixel centres at i + 0.5)."""
    labels, n = ndimage.label(mask)
    index = range(1, n + 1)
    sizes = ndimage.sum(mask, labels, index)
    centres = ndimage.center_of_mass(mask, labels, index)
    return np.array([(c[1] + 0.5, c[0] + 0.5) for c, s in zip(centres, sizes, strict=True)
                     if s >= least]).reshape(-1, 2)


def _tint_box(a: np.ndarray) -> tuple[float, float, float, float]:
    """The data area, ``(left, top, right, bottom)`` in pixel edges: where the regions tint."""
    p = style.current()
    bg = np.array(_color(p.background).getRgb()[:3], float)
    mask = np.zeros(a.shape[:2], bool)
    for r, g, b, alpha in (p.pos_region, p.neg_region):
        tint = bg * (1 - alpha / 255) + np.array([r, g, b]) * alpha / 255
        mask |= np.abs(a - tint).max(axis=2) <= 6
    cols = np.flatnonzero(mask.sum(axis=0) >= 0.3 * mask.sum(axis=0).max())
    rows = np.flatnonzero(mask.sum(axis=1) >= 0.3 * mask.sum(axis=1).max())
    return float(cols[0]), float(rows[0]), float(cols[-1] + 1), float(rows[-1] + 1)


def _ring(a: np.ndarray) -> np.ndarray:
    """The centre of the examined sample's yellow ring."""
    r, g, b = a[:, :, 0], a[:, :, 1], a[:, :, 2]
    yellow = (r > 200) & (g > 200) & (b < 160) & (np.abs(r - g) < 30)
    ys, xs = np.nonzero(yellow)
    assert len(xs) > 20, "no examined ring in the picture"
    return np.array([xs.mean() + 0.5, ys.mean() + 0.5])


def _zero_line(a: np.ndarray, box) -> float:
    """The column of the x = 0 axis line: the darkest grey column inside the data area."""
    left, top, right, bottom = (int(v) for v in box)
    inside = a[top + 2:bottom - 2, left + 2:right - 2]
    grey = (np.abs(inside - inside.mean(axis=2, keepdims=True)).max(axis=2) < 12) & (
        inside.mean(axis=2) < 215)
    counts = grey.sum(axis=0).astype(float)
    col = int(np.argmax(counts))
    assert counts[col] > 0.5 * inside.shape[0], "no vertical axis line in the data area"
    # the line may straddle two columns: their weighted centre
    lo, hi = max(col - 1, 0), min(col + 2, len(counts))
    w = counts[lo:hi]
    return left + 2 + float(np.dot(np.arange(lo, hi) + 0.5, w) / w.sum())


def _tick_labels(a: np.ndarray, box) -> np.ndarray:
    """Centres of the tick labels under the data area (dark text blobs, digits merged)."""
    left, _top, right, bottom = (int(v) for v in box)
    strip = a[bottom + 3:bottom + 30, :]
    dark = strip.mean(axis=2) < 150
    # merge a label's glyphs ("-3") into one blob
    dark = ndimage.binary_dilation(dark, np.ones((3, 5), bool))
    centres = _blobs(dark, least=6)
    return centres[(centres[:, 0] > left) & (centres[:, 0] < right)] + [0, bottom + 3]


class Picture:
    """The marks found in one image."""

    def __init__(self, image: QtGui.QImage):
        a = _rgb(image)
        p = style.current()
        self.size = (image.width(), image.height())
        self.box = _tint_box(a)
        self.pos = _blobs(_near(a, p.pos_color, 24))
        self.neg = _blobs(_near(a, p.neg_color, 24))
        self.ring = _ring(a)
        self.zero = _zero_line(a, self.box)
        self.ticks = _tick_labels(a, self.box)


def _gaps(found: np.ndarray, expected: np.ndarray) -> np.ndarray:
    """For each expected position, the distance to the nearest found one."""
    assert len(found) == len(expected), (found, expected)
    return np.array([np.hypot(*(found - e).T).min() for e in expected])


@pytest.fixture
def shown(window, qtbot):
    """The window with spaced points, three updates made and the examined ring shown."""
    X = np.array(POS + NEG)
    y = np.array([1] * len(POS) + [-1] * len(NEG))
    window.push_edit(ReplaceAll.from_dataset(Dataset(X, y)))
    for _ in range(3):
        window.workspace.step_update()
    # the legend and the mistakes' crosses are other tests' business here: a legend
    # sample or a cross would add or split blobs
    window.canvas.set_visible_layers(legend=False, mistakes=False)
    window.canvas.fit_view()
    window.canvas.refresh()
    # once more: a redraw that leaves the data alone turns the scatters' pixel cache on, as
    # it is on screen between edits (it draws them up to half a pixel off: the same state
    # in every run)
    window.canvas.refresh()
    assert window.workspace.current_event is not None  # the ring is drawn
    return window


def _screen_image(window, qtbot) -> QtGui.QImage:
    """What the screen shows once painting it changes it no more.

    A paint can change the layout (pyqtgraph's axes measure their labels as
    they paint, and lay out later): the canvas is grabbed, with the event loop
    running between grabs, until two grabs in a row agree; before each grab
    the canvas draws what changed at once (a new view's raster of the points
    at large n, which it otherwise computes in a worker).
    """
    canvas = window.canvas
    grabs = [canvas.grab().toImage()]

    def settled():
        canvas.refresh()
        grabs.append(canvas.grab().toImage())
        return len(grabs) > 2 and grabs[-1] == grabs[-2]

    qtbot.waitUntil(settled)
    return grabs[-1]


def _screen(window, qtbot) -> tuple[Picture, QtGui.QImage]:
    """The screen's picture (:func:`_screen_image`) and its marks."""
    canvas = window.canvas
    image = _screen_image(window, qtbot)
    picture = Picture(image)
    # the screen draws each marker at a whole pixel (pyqtgraph copies a prepared
    # symbol), up to half a pixel off, and which way an exact half goes changes from run
    # to run: its markers are compared where the canvas maps the points, which the
    # screen's own markers must be near
    exact = [canvas.data_to_widget(*p) for p in POS + NEG]
    exact = np.array([(q.x(), q.y()) for q in exact])
    assert _gaps(picture.pos, exact[:len(POS)]).max() <= TOL
    assert _gaps(picture.neg, exact[len(POS):]).max() <= TOL
    picture.pos, picture.neg = exact[:len(POS)], exact[len(POS):]
    return picture, image


def _export_png(window, tmp_path, size) -> QtGui.QImage:
    path = tmp_path / "canvas.png"
    assert window.exporter.export_canvas(path, size, fmt="png", palette=style.current())
    return QtGui.QImage(str(path))


def _export_svg(window, tmp_path, size) -> QtGui.QImage:
    path = tmp_path / "canvas.svg"
    assert window.exporter.export_canvas(path, size, fmt="svg", palette=style.current())
    renderer = QtSvg.QSvgRenderer(str(path))
    assert renderer.isValid()
    image = QtGui.QImage(*size, QtGui.QImage.Format.Format_RGB32)
    image.fill(_color(style.current().background))
    painter = QtGui.QPainter(image)
    renderer.render(painter, QtCore.QRectF(0, 0, *size))
    painter.end()
    return image


def _export_gif_frame(window, tmp_path, size) -> QtGui.QImage:
    path = tmp_path / "run.gif"
    assert window.exporter.export_gif(path, source="run", size=size, frames=1,
                                      palette=style.current())
    with Image.open(path) as gif:
        gif.seek(0)
        frame = gif.convert("RGB")
        buffer = io.BytesIO()
        frame.save(buffer, "PNG")
    image = QtGui.QImage()
    assert image.loadFromData(buffer.getvalue(), "PNG")
    return image


EXPORTS = {"png": _export_png, "svg": _export_svg}


def _gif_canvas_frame(window, tmp_path, size) -> QtGui.QImage:
    """A GIF frame whose canvas part (above the caption strip) is ``size``: that part."""
    from perceptron_gui.ui.features.export.frames import caption_height

    strip = caption_height([], size[0], style.NORMAL, max_lines=2, min_lines=2)
    frame = _export_gif_frame(window, tmp_path, (size[0], size[1] + strip))
    return frame.copy(0, 0, *size)


def test_an_export_at_the_canvas_size_puts_every_mark_on_the_screens_pixel(shown, qtbot,
                                                                           tmp_path, subtests):
    for fmt in [*sorted(EXPORTS), "gif"]:  # one window: an export leaves the screen alone
        with subtests.test(fmt=fmt):
            _check_export_at_the_canvas_size(shown, qtbot, tmp_path, fmt)


def _check_export_at_the_canvas_size(shown, qtbot, tmp_path, fmt):
    screen, grabbed = _screen(shown, qtbot)
    size = (grabbed.width(), grabbed.height())
    export = Picture({**EXPORTS, "gif": _gif_canvas_frame}[fmt](shown, tmp_path, size))
    assert export.size == size
    assert _gaps(export.pos, screen.pos).max() <= TOL
    assert _gaps(export.neg, screen.neg).max() <= TOL
    assert np.hypot(*(export.ring - screen.ring)) <= TOL
    # the ring around its point
    examined = shown.workspace.current_event.index
    marker = np.concatenate([screen.pos, screen.neg])[examined]
    assert np.hypot(*(export.ring - marker)) <= TOL
    assert abs(export.zero - screen.zero) <= TOL
    assert _gaps(export.ticks, screen.ticks).max() <= TOL
    assert np.abs(np.subtract(export.box, screen.box)).max() <= TOL


def _scaling(screen: Picture, export: Picture):
    """The map ``u -> a u + b`` (one scale ``a``, offsets ``b``) from the screen's pixels to
    the export's that fits the markers best, and the markers' residuals under it.

    The markers are paired through a first guess from the x = 0 line and the
    examined ring (far from it), then the map is fitted to the pairs by least
    squares.
    """
    guess_a = (export.ring[0] - export.zero) / (screen.ring[0] - screen.zero)
    guess_b = np.array([export.zero - guess_a * screen.zero,
                        export.ring[1] - guess_a * screen.ring[1]])
    src, dst = [], []
    for found, ref in ((export.pos, screen.pos), (export.neg, screen.neg)):
        for u in ref:
            v = found[np.hypot(*(found - (guess_a * u + guess_b)).T).argmin()]
            src.append(u)
            dst.append(v)
    src, dst = np.array(src), np.array(dst)
    # dst = a src + b, one a for both axes: unknowns (a, bx, by)
    rows = np.block([[src[:, :1], np.ones((len(src), 1)), np.zeros((len(src), 1))],
                     [src[:, 1:], np.zeros((len(src), 1)), np.ones((len(src), 1))]])
    (a, bx, by), *_ = np.linalg.lstsq(rows, np.concatenate([dst[:, 0], dst[:, 1]]), rcond=None)
    b = np.array([bx, by])
    return a, b, np.hypot(*(a * src + b - dst).T)


def test_an_export_at_another_size_scales_every_mark(shown, qtbot, tmp_path, subtests):
    for fmt in [*sorted(EXPORTS), "gif"]:
        with subtests.test(fmt=fmt):
            _check_export_at_another_size(shown, qtbot, tmp_path, fmt)


def _check_export_at_another_size(shown, qtbot, tmp_path, fmt):
    screen, grabbed = _screen(shown, qtbot)
    size = (round(grabbed.width() * 1.37), round(grabbed.height() * 1.21))
    export_img = {**EXPORTS, "gif": _export_gif_frame}[fmt](shown, tmp_path, size)
    export = Picture(export_img)
    assert export.size == size
    assert len(export.pos) == len(screen.pos) and len(export.neg) == len(screen.neg)
    a, b, residuals = _scaling(screen, export)
    assert a > 1.1  # the picture did grow
    # every marker, the examined ring and the x = 0 line where the screen's scale to
    assert residuals.max() <= TOL
    assert np.hypot(*(a * screen.ring + b - export.ring)) <= TOL
    examined = shown.workspace.current_event.index
    marker = np.concatenate([screen.pos, screen.neg])[examined]
    assert np.hypot(*(a * marker + b - export.ring)) <= TOL
    assert abs(a * screen.zero + b[0] - export.zero) <= TOL
    # the "0" stands under the x = 0 line, and the tint starts where the axes end
    assert np.abs(export.ticks[:, 0] - export.zero).min() <= TOL
    assert np.abs(np.subtract(export.box[:2], screen.box[:2])).max() <= TOL


def _raster_pixels(image: QtGui.QImage, box) -> dict[str, np.ndarray]:
    """The data area's pixels painted in each class's colour (the points' raster; within 30
    levels: QtSvg resamples an embedded image a little even at one pixel per pixel)."""
    left, top, right, bottom = (int(v) for v in box)
    a = _rgb(image)[top:bottom, left:right]
    p = style.current()
    return {name: _near(a, color, 30) for name, color in (("pos", p.pos_color),
                                                         ("neg", p.neg_color))}


@pytest.mark.parametrize("fmt", sorted(EXPORTS))
def test_at_1e5_points_the_export_shows_the_screens_exact_raster(window, qtbot, tmp_path, fmt):
    rng = np.random.default_rng(5)
    X = rng.normal(size=(100_000, 2)) * 2.0
    y = np.where(X[:, 0] + 0.4 * X[:, 1] > 0.2, 1, -1)
    window.push_edit(ReplaceAll.from_dataset(Dataset(X, y)))
    window.canvas.set_visible_layers(legend=False, mistakes=False)
    window.canvas.fit_view()
    window.canvas.refresh()
    assert window.canvas.layer("data").mode == "raster"  # one pixel per occupied pixel
    screen = _screen_image(window, qtbot)
    size = (screen.width(), screen.height())
    exported = EXPORTS[fmt](window, tmp_path, size)
    frame = (0, 0, *size)
    on_screen, in_png = _raster_pixels(screen, frame), _raster_pixels(exported, frame)
    for name in ("pos", "neg"):
        both = np.count_nonzero(on_screen[name] & in_png[name])
        either = np.count_nonzero(on_screen[name] | in_png[name])
        assert either > 1000
        # the same pixels: not markers grown into a blob
        assert both / either > 0.98, (name, both, either)


def test_an_export_keeps_the_screens_axis_space_after_a_wider_view(shown, qtbot, tmp_path):
    """pyqtgraph keeps an axis as wide as the widest labels it showed (within 10 px):
    after a view whose labels were wider ("-10"), the screen's data area starts further
    right than fresh axes would put it, and the export follows the screen."""
    canvas = shown.canvas
    canvas.set_view_rect((-14.0, 14.0), (-14.0, 14.0))
    _screen_image(shown, qtbot)  # painted: the axes measured "-10"
    canvas.fit_view()
    screen, grabbed = _screen(shown, qtbot)
    size = (grabbed.width(), grabbed.height())
    export = Picture(_export_png(shown, tmp_path, size))
    assert _gaps(export.pos, screen.pos).max() <= TOL
    assert _gaps(export.neg, screen.neg).max() <= TOL
    assert np.abs(np.subtract(export.box, screen.box)).max() <= TOL
