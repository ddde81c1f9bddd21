"""P(y = +1 | x) as a diverging colour map of the plane, with its colour bar and hover readout.

The map is the background at ``P = 1/2``, class +1's colour as ``P → 1``, class
−1's as ``P → 0``.  With m classes, the winning class's colour, from the
background where its ``P(Cₖ | x)`` is ``1/m`` to its deepest at 1; the hover
gives every ``P(Cₖ | x)``.  A learner fitted at once (immutable) is evaluated in a worker;
a stepping learner (weights change in place) and a shaped model (about 25 ms at
600×360 cells) on this thread.
"""

from __future__ import annotations

import math

import numpy as np
import pyqtgraph as pg
from PySide6 import QtCore, QtWidgets

from .....core.class_edits import class_text
from .....core.scale import LARGE_N
from .....core.text import fmt
from .... import colormap, style
from ..geometry import cell_centres
from ..items.colour_bar import LINES, ColourBar
from ..legend import CanvasLegend, free_place
from ..newest import NewestJob
from .base import Layer
from .draw import font, item_alive, show

__all__ = ["ProbabilityLayer", "probability_lut", "LEVELS", "BAR_TITLE", "CLASSES_BAR_TITLE",
           "class_ramps", "posterior_text", "posteriors_text", "shading", "warm_up"]

#: Levels of the map: ``P`` is drawn to 1/255.
LEVELS = colormap.LEVELS
#: The colour bar's title.
BAR_TITLE = "P(y = +1 | x)"
#: Its title with more than two classes.
CLASSES_BAR_TITLE = "largest P(Cₖ | x)"
_BINARY_TICKS = [(0.0, "0"), (0.5, "½"), (1.0, "1")]
_CELL_PX = 3.0  # one probability per 3x3 screen pixels
_MAX_CELLS = 600  # along each axis
_DRAG_CELL_PX = 4.0  # while a model is shaped by hand (a drag redraws it, on this thread)
_BAR_MARGIN_PX = 6.0  # around the bar, as the legend's
_CLEAR_STEP_PX = 4.0  # the legend keeps clear of points this far apart over the bar


def _rgb(color) -> tuple[int, int, int]:
    c = pg.mkColor(color)
    return c.red(), c.green(), c.blue()


def probability_lut(pal: style.Palette | None = None) -> np.ndarray:
    """The colour of each level ``P = i / 255`` in ``pal`` (default: the active palette):
    RGBA (256, 4), uint8.  Built once per palette, in :func:`warm_up` off the UI thread."""
    pal = style.current() if pal is None else pal
    marks = [_rgb(c) for c in (pal.pos_color, pal.neg_color, pal.boundary_color, pal.weight_color)]
    return colormap.posterior_lut(_rgb(pal.background), _rgb(pal.pos_color),
                                  _rgb(pal.neg_color), marks)


def warm_up() -> None:
    """Build the map of every palette (0.3–0.6 s each), from the application's warm-up thread."""
    for pal in style.PALETTES.values():
        probability_lut(pal)


def posterior_text(p: float) -> str:
    """The hover readout: ``P(y = +1 | x) = 0.873``."""
    return f"{BAR_TITLE} = {fmt(p, 3)}"


def _posteriors(model, rect, nx: int, ny: int):
    """``P(y = +1 | x)`` at the centres of an ``nx × ny`` grid over ``rect``, shape (ny, nx);
    with m classes ``(winner, P)``: the class of the largest posterior (its place in
    ``model.classes_``, -1 where unknown) and that posterior, each of shape (ny, nx)."""
    with np.errstate(over="ignore", invalid="ignore"):
        P = np.asarray(model.predict_proba(cell_centres(rect, nx, ny)[2]), dtype=np.float64)
    if P.shape[1] == 2:
        return P[:, 1].reshape(ny, nx)
    known = np.isfinite(P).all(axis=1)
    winner = np.where(known, np.argmax(np.nan_to_num(P, nan=-1.0), axis=1), -1)
    best = np.where(known, np.nan_to_num(P, nan=-1.0).max(axis=1), np.nan)
    return winner.reshape(ny, nx), best.reshape(ny, nx)


def shading(winner: np.ndarray, P: np.ndarray, ramps: np.ndarray) -> np.ndarray:
    """The m-class map as RGBA (ny, nx, 4): ``ramps[k]`` (each class's, background first) at
    ``(P − 1/m) / (1 − 1/m)`` where class ``k`` wins; transparent where it is unknown."""
    m = ramps.shape[0]
    top = ramps.shape[1] - 1
    with np.errstate(invalid="ignore"):
        t = np.clip((np.nan_to_num(P, nan=0.0) - 1.0 / m) / (1.0 - 1.0 / m), 0.0, 1.0)
    out = ramps[np.maximum(winner, 0), np.rint(t * top).astype(np.intp)]
    out[winner < 0] = 0
    return out


def class_ramps(dataset, classes, pal: style.Palette | None = None) -> np.ndarray:
    """Each of ``classes``'s ramp (RGBA, shape (m, LEVELS // 2, 4)) in its colour on the canvas
    (by its place in the data's ``listed_classes``): the background to 45 % of the colour."""
    pal = style.current() if pal is None else pal
    listed = dataset.listed_classes
    return np.stack([_ramp(pal, pal.class_colors[listed.index(int(c))]) for c in classes])


def _ramp(pal: style.Palette, color) -> np.ndarray:
    return colormap.class_ramp(_rgb(pal.background), _rgb(color))


def posteriors_text(names, P) -> str:
    """The hover readout with m classes: ``P(setosa | x) = 0.981`` a line, for each class."""
    return "\n".join(f"P({name} | x) = {fmt(p, 3)}" for name, p in zip(names, P, strict=True))


def _model(frame):
    """What is shaded: the model shaped by hand, else the learner (None: nothing)."""
    if frame.shaping is not None:
        return frame.shaping
    ws = frame.workspace
    return ws.learner if ws.capabilities.posteriors and ws.has_model and ws.dataset.n else None


class ProbabilityLayer(Layer):
    """``P(y = +1 | x)`` on a grid over the view, its colour bar, its readout; ``grid``:
    ``(x0, x1, y0, y1, P)`` shown (or None), ``hover``: ``(x, y, P)`` at the pointer."""

    name = "probability"
    item_names = ("probability_image", "colour_bar", "posterior_readout")
    switches = ("probability",)
    caption_words = {"shading": ("probability_image",)}

    def __init__(self):
        super().__init__()
        self.grid = None
        self.hover = None
        self._shown_model = None
        self._dataset = None
        self._ramps = None
        self._bar_for = None
        self._spot = None  # the bar's top left in the view box's pixels (free_place)
        self._lines = LINES[0]  # and its length
        self._pad_px = 0.0
        self._job = NewestJob(lambda request: (_posteriors, request), self._apply,
                              lambda: item_alive(self.items["probability_image"]))

    def create(self, view_box) -> None:
        # above the exact half-planes of the regions (-25), below everything else
        self.image = self.add("probability_image", pg.ImageItem(axisOrder="row-major"), -24)
        self.bar = self.add("colour_bar", ColourBar(BAR_TITLE, _BINARY_TICKS), 1e6, pixels=True)
        self.readout = self.add("posterior_readout", QtWidgets.QGraphicsSimpleTextItem(), 1e6,
                                pixels=True)
        view_box.scene().sigMouseMoved.connect(self._pointer_moved)

    def apply_scale(self, scale) -> None:
        pal = style.current()
        self.lut = probability_lut()
        self.image.setLookupTable(self.lut)
        self.bar.set_table(self.lut)
        self._ramps = None  # with m classes: (each class's ramp, the bar's), made when drawn
        self._bar_for = None  # (the classes the bar is drawn for,), None: not yet
        self.bar.set_style(scale.font_pt, pal.foreground, pg.mkColor(pal.background))
        self.readout.setFont(font(scale.font_pt))
        self.readout.setBrush(pg.mkBrush(pal.foreground))
        self._pad_px = scale.marker / 2 + 2
        self._spot = None

    def cache_key(self, frame) -> tuple | None:
        return frame.weights_key

    def update(self, frame) -> None:
        model = _model(frame) if frame.switches["probability"] else None
        x0, x1, y0, y1 = frame.clip_rect(0.25)
        sx, sy = frame.pixel_size
        cell = _CELL_PX if frame.shaping is None else _DRAG_CELL_PX
        with np.errstate(divide="ignore", invalid="ignore"):
            nx, ny = np.float64(x1 - x0) / sx / cell, np.float64(y1 - y0) / sy / cell
        if (model is None or not all(math.isfinite(v) for v in (x0, x1, y0, y1, nx, ny))
                or nx <= 0 or ny <= 0):
            self._hide()
            return
        nx, ny = int(min(_MAX_CELLS, max(2, nx))), int(min(_MAX_CELLS, max(2, ny)))
        ds = frame.workspace.dataset
        self._dataset = ds
        self._set_classes(ds)
        request = (model, (x0, x1, y0, y1), nx, ny)
        on_thread = (frame.now or frame.shaping is not None or frame.workspace.capabilities.steps)
        self._choose_place(frame)
        self._job.request(request, now=on_thread)
        self._place()

    def _set_classes(self, dataset) -> None:
        """The bar's title, ticks and table for two classes or for ``dataset``'s m (once per
        classes and palette: this runs at every redraw)."""
        m = dataset.n_classes
        key = None if m == 2 else (dataset.classes, dataset.listed_classes)
        if self._bar_for is not None and self._bar_for[0] == key:
            return
        self._bar_for = (key,)
        if key is None:
            self._ramps = None
            self.bar.set_labels(BAR_TITLE, _BINARY_TICKS)
            self.bar.set_table(self.lut)
            return
        pal = style.current()
        grey = colormap.class_ramp(_rgb(pal.background), _rgb(pal.foreground), 1.0)
        self._ramps = (class_ramps(dataset, dataset.classes, pal), grey)
        self.bar.set_labels(CLASSES_BAR_TITLE, [(0.0, f"1/{m}"), (1.0, "1")])
        self.bar.set_table(grey)

    def _apply(self, request, P) -> None:
        model, (x0, x1, y0, y1), _nx, _ny = request
        self.grid = (x0, x1, y0, y1, P)
        self._shown_model = model
        if isinstance(P, tuple):  # m classes: the winner's colour, as sure as it is
            winner, best = P
            self.image.setLookupTable(None)
            self.image.setImage(shading(winner, best, self._ramps[0]), autoLevels=False,
                                levels=None)
        else:
            levels = np.rint(np.nan_to_num(P, nan=0.5) * (LEVELS - 1)).astype(np.ubyte)
            self.image.setLookupTable(self.lut)
            self.image.setImage(levels, autoLevels=False, levels=(0, LEVELS - 1))
        self.image.setRect(QtCore.QRectF(x0, y0, x1 - x0, y1 - y0))
        was = self.bar.isVisible()
        show(True, self.image, self.bar)
        self._place()
        if self.hover is not None:  # the readout follows the model under a still pointer
            self.show_posterior_at(*self.hover[:2])
        if not was:
            self.changed()

    def _hide(self) -> None:
        self._job.drop()
        self.grid = self.hover = self._shown_model = None
        self.hide()

    def _box_px(self) -> tuple[float, float]:
        bar = self.bar.boundingRect()
        return bar.width() + 2 * _BAR_MARGIN_PX, bar.height() + 2 * _BAR_MARGIN_PX

    def _choose_place(self, frame) -> None:
        """Where the bar covers no point nor w (:func:`~..legend.free_place`)."""
        sx, sy = frame.pixel_size
        x0, x1, y0, y1 = frame.view
        if not (sx > 0 and sy > 0):
            return
        view_px = ((x1 - x0) / sx, (y1 - y0) / sy)
        if not all(math.isfinite(v) and v > 0 for v in view_px):
            return
        X = frame.workspace.dataset.X
        step = max(1, -(-len(X) // LARGE_N))  # the bar's place counts a sample
        X = X[::step]
        arrow = CanvasLegend.arrow(frame)
        if arrow is not None:  # the w arrow from the origin, as points along it
            X = np.concatenate([X, np.linspace(0.0, 1.0, 16)[:, None] * arrow[None, :]])
        with np.errstate(over="ignore", invalid="ignore"):
            points = np.column_stack(((X[:, 0] - x0) / sx, (y1 - X[:, 1]) / sy))
        weights = np.full(len(points), float(step))
        best = None
        for lines in LINES:  # the longest bar that covers nothing; else the least covering
            self.bar.set_length(lines)
            w, h = self._box_px()
            middle = (max(0.0, view_px[0] - w), max(0.0, (view_px[1] - h) / 2))
            keep = self._spot if self._spot is not None and lines == self._lines else middle
            left, top, _corner, covered = free_place(points, view_px, (w, h), self._pad_px,
                                                     weights, keep)
            if best is None or covered < best[0]:
                best = (covered, lines, (left, top))
            if covered == 0:
                break
        _covered, self._lines, self._spot = best
        self.bar.set_length(self._lines)

    def keep_clear(self, frame):
        """The bar's place, as points every few pixels over it: the legend takes another."""
        if self._spot is None or not self.bar.isVisible():
            return None
        sx, sy = frame.pixel_size
        x0, _x1, _y0, y1 = frame.view
        w, h = self._box_px()
        left, top = self._spot
        gx, gy = np.meshgrid(np.arange(left, left + w + _CLEAR_STEP_PX, _CLEAR_STEP_PX),
                             np.arange(top, top + h + _CLEAR_STEP_PX, _CLEAR_STEP_PX))
        return np.column_stack((x0 + gx.ravel() * sx, y1 - gy.ravel() * sy))

    def _place(self) -> None:
        """The bar at its place, the readout under it (above it at the view's bottom)."""
        box = self._view_box.boundingRect()
        w, h = self._box_px()
        margin = _BAR_MARGIN_PX
        left, top = ((box.right() - w, box.center().y() - h / 2) if self._spot is None
                     else (box.left() + self._spot[0], box.top() + self._spot[1]))
        self.bar.setPos(left + margin, top + margin)
        text = self.readout.boundingRect()
        y = top + h
        if y + text.height() > box.bottom():
            y = top - text.height()
        x = min(left + w - margin - text.width(), box.right() - text.width())
        self.readout.setPos(max(x, box.left() + margin), y)  # a long text starts in the view

    def pointer_left(self) -> None:
        """No posterior under a pointer that left the canvas."""
        self.hover = None
        self.readout.setVisible(False)

    def _pointer_moved(self, scene_pos) -> None:
        model = self._shown_model
        vb = self._view_box
        if model is None or not self.image.isVisible() or not vb.sceneBoundingRect().contains(
                scene_pos):
            self.hover = None
            self.readout.setVisible(False)
            return
        at = vb.mapSceneToView(scene_pos)
        self.show_posterior_at(at.x(), at.y())

    def show_posterior_at(self, x: float, y: float):
        """Write the posterior at the data point ``(x, y)`` under the colour bar; returns it
        (with m classes, every class's, in the model's ``classes_`` order)."""
        with np.errstate(over="ignore", invalid="ignore"):
            P = np.asarray(self._shown_model.predict_proba(np.array([[x, y]]))[0],
                           dtype=np.float64)
        if P.shape[0] == 2:
            p = float(P[1])
            text = posterior_text(p)
        else:
            ds = self._dataset
            names = [class_text(ds, int(c)) for c in self._shown_model.classes_]
            p, text = P, posteriors_text(names, P)
        self.hover = (x, y, p)
        self.readout.setText(text)
        self._place()
        self.readout.setVisible(True)
        return p
