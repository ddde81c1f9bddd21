"""More than two classes: where each class scores highest, the boundaries between the regions,
and one-vs-rest's lines with the places that none or several of its learners claim."""

from __future__ import annotations

import math

import numpy as np
import pyqtgraph as pg
from PySide6 import QtCore

from .... import style
from ..geometry import cell_centres, cell_segments, drawable_range, unit_normal
from ..legend import marker_sample
from .base import Layer, LegendEntry, line_rows
from .boundary import boundary_pen
from .draw import over_background, rgba, set_line, show

__all__ = ["ClassRegionsLayer", "class_grid", "claims_picture", "paint", "refined",
           "region_boundaries", "regions_picture", "winners"]

_CELL_PX = 8.0  # one score per 8x8 screen pixels ...
_FINE = 4  # ... and 4x4 finer (2 pixels) in the cells where the class changes
_MAX_CELLS = 400  # along each axis
_STRIPE_PX = 9  # the period of the stripes over the places several learners claim


def class_grid(view, pixel_size):
    """``((x0, x1, y0, y1), nx, ny)``: the view and a quarter more on each side, cells of
    about 8 pixels, or None (a view of no finite size)."""
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


def winners(scores: np.ndarray) -> np.ndarray:
    """The argmax of each row of ``scores`` (cells × m classes; ties to the first), -1 where a
    score is NaN."""
    known = ~np.isnan(scores).any(axis=1)
    return np.where(known, np.argmax(np.where(known[:, None], scores, 0.0), axis=1), -1)


def paint(labels: np.ndarray, colors: np.ndarray) -> np.ndarray:
    """``colors[label]`` for each label (RGBA uint8, one 32-bit word a pixel), transparent
    where the label is -1: shape ``labels.shape + (4,)``."""
    words = np.ascontiguousarray(colors, dtype=np.ubyte).view(np.uint32)[:, 0]
    table = np.append(words, np.uint32(0))  # label -1 reads the last entry: clear
    return table[labels].view(np.ubyte).reshape(*labels.shape, 4)


def regions_picture(scores: np.ndarray, colors: np.ndarray) -> np.ndarray:
    """The argmax of ``scores`` (n cells × m classes, ties to the first) as ``colors[k]``
    (RGBA, shape (m, 4)); transparent where a score is NaN. Shape (n, 4)."""
    return paint(winners(scores), colors)


def refined(coarse: np.ndarray, rect, label_of, k: int = _FINE) -> np.ndarray:
    """Labels on a grid ``k`` times finer than ``coarse`` (ny, nx) over ``rect``: each cell's
    label, and where a neighbouring cell's differs, ``label_of(points)`` at the centres of its
    ``k × k`` sub-cells (exact there; elsewhere the label is the same all around)."""
    ny, nx = coarse.shape
    x0, x1, y0, y1 = rect
    fine = np.repeat(np.repeat(coarse, k, axis=0), k, axis=1)
    edge = np.zeros(coarse.shape, bool)
    every, first, last = slice(None), slice(1, None), slice(None, -1)
    for a, b in (((every, first), (every, last)), ((first, every), (last, every)),
                 ((first, first), (last, last)), ((first, last), (last, first))):
        differ = coarse[a] != coarse[b]
        edge[a] |= differ
        edge[b] |= differ
    rows, cols = np.nonzero(edge)
    if rows.size:
        sub = (np.arange(k) + 0.5) / k
        fx = x0 + (x1 - x0) / nx * (cols[:, None] + sub)  # (cells, k): the sub-cells' x
        fy = y0 + (y1 - y0) / ny * (rows[:, None] + sub)
        shape = (rows.size, k, k)
        points = np.column_stack([np.broadcast_to(fx[:, None, :], shape).ravel(),
                                  np.broadcast_to(fy[:, :, None], shape).ravel()])
        fine.reshape(ny, k, nx, k)[rows, :, cols, :] = label_of(points).reshape(shape)
    return fine


def region_boundaries(xs, ys, S: np.ndarray) -> np.ndarray:
    """The boundaries between the classes' regions: for each class ``k`` the zero contour of
    ``s_k − max_{j≠k} s_j`` on the grid ``xs`` × ``ys`` (``S`` of shape (ny, nx, m)); segment
    ends in pairs, shape (2 s, 2).

    Only the cells whose corners have more than one winner are traced: elsewhere no
    such contour crosses (its sign is whether ``k`` wins); there, class ``k``'s contour
    where a class of a higher index meets it, so that a boundary between two classes
    is traced from one side.
    """
    ny, nx, m = S.shape
    labels = winners(S.reshape(-1, m)).reshape(ny, nx)
    c = (labels[:-1, :-1], labels[:-1, 1:], labels[1:, :-1], labels[1:, 1:])
    rows, cols = np.nonzero((c[0] != c[1]) | (c[0] != c[2]) | (c[0] != c[3]))
    if not rows.size:
        return np.empty((0, 2))
    xs, ys = np.asarray(xs, dtype=np.float64), np.asarray(ys, dtype=np.float64)
    box = (xs[cols], xs[cols + 1], ys[rows], ys[rows + 1])
    at = [(rows, cols), (rows, cols + 1), (rows + 1, cols), (rows + 1, cols + 1)]
    corner_scores = [S[r, q] for r, q in at]  # each (cells, m)
    corner_labels = np.column_stack([labels[r, q] for r, q in at])
    # each class's contour in the cells where it meets a class of a higher index: every
    # boundary once (twice only in a cell where three classes meet)
    highest = corner_labels.max(axis=1)
    picks = [(k, np.flatnonzero((corner_labels == k).any(axis=1) & (highest > k)))
             for k in np.unique(corner_labels[corner_labels >= 0])]
    picks = [(k, cells) for k, cells in picks if cells.size]
    if not picks:
        return np.empty((0, 2))
    cells = np.concatenate([c for _k, c in picks])
    classes = np.concatenate([np.full(c.size, k) for k, c in picks])
    values = []
    with np.errstate(invalid="ignore", over="ignore"):
        for scores in corner_scores:
            chosen = scores[cells]
            own = chosen[np.arange(cells.size), classes]
            chosen[np.arange(cells.size), classes] = -np.inf
            values.append(own - chosen.max(axis=1))
    known = ~np.isnan(np.column_stack(values)).any(axis=1)
    return cell_segments(values, known, [b[cells] for b in box])


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

        def scores_at(points):
            with np.errstate(over="ignore", invalid="ignore"):
                values = np.asarray(learner.decision_function(points), dtype=np.float64)
            values[~np.isfinite(values)] = np.nan
            return values

        if on["regions"]:
            labels = refined(winners(S).reshape(ny, nx), rect,
                             lambda points: winners(scores_at(points)))
            self.regions.setImage(paint(labels, self.tints[places]), autoLevels=False,
                                  levels=None)
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
                count = refined(np.count_nonzero(S > 0, axis=1).reshape(ny, nx), rect,
                                lambda points: np.count_nonzero(scores_at(points) > 0, axis=1))
            picture = claims_picture(count, *count.shape, self.none_color, self.several_color,
                                     round(_STRIPE_PX * _FINE / _CELL_PX))
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
