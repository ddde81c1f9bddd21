"""More than two classes: where each class scores highest, the boundaries between the regions,
and one-vs-rest's lines with the places that none or several of its learners claim."""

from __future__ import annotations

import math

import numpy as np
import pyqtgraph as pg
from PySide6 import QtCore

from .... import style
from ..geometry import cell_centres, drawable_range, marching_squares, unit_normal
from ..legend import marker_sample
from .base import Layer, LegendEntry, line_rows
from .boundary import boundary_pen
from .draw import over_background, rgba, set_line, show

__all__ = ["ClassRegionsLayer", "class_grid", "claims_picture", "region_boundaries",
           "regions_picture"]

_CELL_PX = 3.0  # one score per 3x3 screen pixels
_MAX_CELLS = 640  # along each axis
_STRIPE_PX = 8  # the period of the stripes over the places several learners claim
#: The claims picture's codes: no learner claims the place, several do.
NONE, SEVERAL = 1, 2


def class_grid(view, pixel_size):
    """``((x0, x1, y0, y1), nx, ny)``: the view and a quarter more on each side, cells of
    about 3 pixels, or None (a view of no finite size)."""
    x0, x1, y0, y1 = view
    sx, sy = pixel_size
    if not all(math.isfinite(v) for v in (x0, x1, y0, y1, sx, sy)):
        return None
    if not (sx > 0 and sy > 0 and x1 > x0 and y1 > y0):
        return None
    pad_x, pad_y = 0.25 * x1 - 0.25 * x0, 0.25 * y1 - 0.25 * y0
    x0, x1 = drawable_range(x0 - pad_x, x1 + pad_x)
    y0, y1 = drawable_range(y0 - pad_y, y1 + pad_y)
    nx, ny = (x1 / sx - x0 / sx) / _CELL_PX, (y1 / sy - y0 / sy) / _CELL_PX
    if not (math.isfinite(nx) and math.isfinite(ny)):
        return None
    nx, ny = int(min(_MAX_CELLS, max(8, nx))), int(min(_MAX_CELLS, max(8, ny)))
    return (x0, x1, y0, y1), nx, ny


def regions_picture(scores: np.ndarray, colors: np.ndarray) -> np.ndarray:
    """The argmax of ``scores`` (n cells × m classes, ties to the first) as ``colors[k]``
    (RGBA, shape (m, 4)); transparent where a score is NaN. Shape (n, 4)."""
    known = ~np.isnan(scores).any(axis=1)
    winner = np.argmax(np.where(np.isnan(scores), -np.inf, scores), axis=1)
    out = colors[winner]
    out[~known] = 0
    return out


def region_boundaries(xs, ys, S: np.ndarray) -> np.ndarray:
    """The boundaries between the classes' regions: for each class ``k`` the zero contour of
    ``s_k − max_{j≠k} s_j`` on the grid ``xs`` × ``ys`` (``S`` of shape (ny, nx, m)); segment
    ends in pairs, shape (2 s, 2). A boundary between two classes is traced from each side."""
    m = S.shape[2]
    segments = []
    with np.errstate(invalid="ignore", over="ignore"):
        order = np.sort(S, axis=2)
        first, second = order[..., -1], order[..., -2]
        for k in range(m):
            own = S[..., k]
            others = np.where(own == first, second, first)  # the best of the others
            segments.append(marching_squares(xs, ys, own - others))
    return np.concatenate(segments) if segments else np.empty((0, 2))


def claims_picture(claims: np.ndarray, ny: int, nx: int, none_color, several_color,
                   stripe: int) -> np.ndarray:
    """Where no binary learner claims a cell (``none_color``) or several do (diagonal stripes of
    ``several_color``, a third of every ``stripe`` cells and at least one), RGBA of shape
    (ny, nx, 4); clear elsewhere."""
    claims = claims.reshape(ny, nx)
    out = np.zeros((ny, nx, 4), np.ubyte)
    out[claims == 0] = none_color
    rows, cols = np.indices((ny, nx))
    stripes = ((rows + cols) % max(1, stripe)) < max(1, stripe // 3)
    out[(claims >= 2) & stripes] = several_color
    return out


class ClassRegionsLayer(Layer):
    """With m classes: each class's region in its tint (the ``regions`` switch), the
    boundaries between them (``boundary``), and for one-vs-rest each learner's line in its
    class's colour and where none or several claim a point. ``scores``: the last grid's
    ``(rect, nx, ny, S)`` (S of shape (ny, nx, m)), or None."""

    name = "classes"
    item_names = ("class_regions", "claims", "class_boundaries",
                  *(f"class_line_{k}" for k in range(8)))
    caption_words = {"stripes": ("claims",)}

    def __init__(self):
        super().__init__()
        self.scores = None
        self._key = None

    def create(self, view_box) -> None:
        self.regions = self.add("class_regions", pg.ImageItem(axisOrder="row-major"), -25)
        self.claims = self.add("claims", pg.ImageItem(axisOrder="row-major"), -23)
        self.boundaries = self.add("class_boundaries",
                                   pg.PlotCurveItem(connect="pairs", antialias=True), -12)
        self.lines = [self.add(f"class_line_{k}", pg.PlotCurveItem(antialias=True), -13)
                      for k in range(8)]

    def apply_scale(self, scale) -> None:
        pal = style.current()
        self.pen = boundary_pen(scale)
        self.boundaries.setPen(self.pen)
        dash = QtCore.Qt.PenStyle.DashLine
        self.line_pens = [pg.mkPen(c, width=scale.line, style=dash) for c in pal.class_colors]
        for item, pen in zip(self.lines, self.line_pens, strict=True):
            item.setPen(pen)
        alpha = pal.pos_region[3]
        self.tints = np.array([over_background((*pg.mkColor(c).getRgb()[:3], alpha))
                               for c in pal.class_colors], dtype=np.ubyte)
        self.none_color = rgba(pal.background, 235)
        self.several_color = rgba(pal.foreground, 70)
        self.none_color = np.array(self.none_color.getRgb(), np.ubyte)
        self.several_color = np.array(self.several_color.getRgb(), np.ubyte)
        self._key = None

    def cache_key(self, frame) -> tuple | None:
        ws = frame.workspace
        if not ws.multiclass:
            return None
        on = frame.switches
        return (frame.model_version, id(ws.learner), frame.view, frame.pixel_size,
                on["regions"], on["boundary"])

    def update(self, frame) -> None:
        ws = frame.workspace
        on = frame.switches
        grid = class_grid(frame.view, frame.pixel_size)
        if not ws.multiclass or grid is None or not (on["regions"] or on["boundary"]):
            self.scores = None
            self.hide()
            return
        rect, nx, ny = grid
        x0, x1, y0, y1 = rect
        learner = ws.learner
        xs, ys, G = cell_centres(rect, nx, ny)
        with np.errstate(over="ignore", invalid="ignore"):
            S = np.asarray(learner.decision_function(G), dtype=np.float64)
        S[~np.isfinite(S)] = np.nan  # an overflowed score: its place is not drawn
        self.scores = (rect, nx, ny, S.reshape(ny, nx, -1))
        listed = ws.dataset.listed_classes
        places = [listed.index(int(c)) for c in learner.classes_]
        qrect = QtCore.QRectF(x0, y0, x1 - x0, y1 - y0)
        if on["regions"]:
            picture = regions_picture(S, self.tints[places]).reshape(ny, nx, 4)
            self.regions.setImage(picture, autoLevels=False, levels=None)
            self.regions.setRect(qrect)
        self.regions.setVisible(on["regions"])
        if on["boundary"]:
            segs = region_boundaries(xs, ys, S.reshape(ny, nx, -1))
            self.boundaries.setData(segs[:, 0], segs[:, 1])
        show(on["boundary"] and self.boundaries.getData()[0] is not None, self.boundaries)
        claims = ws.capabilities.claims
        for k, item in enumerate(self.lines):
            hyper = None
            if claims and on["boundary"] and k < len(places):
                hyper = unit_normal(learner.coef_[k], float(learner.intercept_[k]))
            set_line(item, hyper, frame.rect, hyper is not None)
            if hyper is not None:
                item.setPen(self.line_pens[places[k]])
        if claims and on["regions"]:
            with np.errstate(invalid="ignore"):
                count = (S > 0).sum(axis=1)
            picture = claims_picture(count, ny, nx, self.none_color, self.several_color,
                                     max(2, round(_STRIPE_PX / _CELL_PX)))
            self.claims.setImage(picture, autoLevels=False, levels=None)
            self.claims.setRect(qrect)
        self.claims.setVisible(claims and on["regions"])

    def legend_entries(self, frame) -> list[LegendEntry]:
        ws = frame.workspace
        if not ws.multiclass:
            return []
        on = frame.switches
        rows = line_rows(on["boundary"] and ("class_boundaries", "boundaries between classes",
                                             self.pen))
        if ws.capabilities.claims and on["boundary"]:
            rows += line_rows(("class_lines", "each class against the rest: f_k(x) = 0",
                               self.line_pens[0]))
        if ws.capabilities.claims and on["regions"]:
            rows.append(_patch_row("claims_none", "no class claims the place",
                                   self.none_color))
            rows.append(_patch_row("claims_several", "several classes claim it (stripes)",
                                   self.several_color))
        return rows


def _patch_row(name: str, text: str, color) -> LegendEntry:
    return LegendEntry(name, text, lambda: marker_sample(
        "s", 12.0, pg.mkColor(*[int(v) for v in color]), pg.mkPen(style.current().foreground)))
