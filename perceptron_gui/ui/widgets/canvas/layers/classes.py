"""More than two classes: where each class scores highest, the boundaries between the regions,
and one-vs-rest's lines with the places that none or several of its learners claim.

Linear scores (LDA, naive Bayes with pooled variances, one-vs-rest): each region is
the convex polygon where its score beats every other, drawn exactly as the
two-class half-planes are.  Other scores (QDA, naive Bayes): the argmax on a grid.
"""

from __future__ import annotations

import numpy as np
import pyqtgraph as pg
from PySide6 import QtCore, QtGui, QtWidgets

from .... import style
from ..geometry import (
    cell_centres,
    cell_segments,
    clip_polygon,
    padded_view,
    unit_normal,
)
from ..items import Lines
from ..legend import marker_sample
from ..newest import NewestJob
from .base import Layer, LegendEntry, line_rows
from .boundary import boundary_pen
from .draw import item_alive, over_background, path, rgba, set_line, show

__all__ = ["ClassRegionsLayer", "claims_polygons", "class_grid", "grid_picture",
           "linear_boundaries", "linear_regions", "paint", "refined", "region_boundaries",
           "winners"]

_CELL_PX = 8.0  # one score per 8x8 screen pixels ...
_FINE = 3  # ... and 3x3 finer (under 3 pixels) in the cells where the class changes
_MAX_CELLS = 400  # along each axis


def class_grid(view, pixel_size):
    """``((x0, x1, y0, y1), nx, ny)``: the view and a quarter more on each side, cells of
    about 8 pixels, or None (a view of no finite size)."""
    padded = padded_view(view, pixel_size)
    if padded is None:
        return None
    rect, width, height = padded
    nx = int(min(_MAX_CELLS, max(8, width / _CELL_PX)))
    ny = int(min(_MAX_CELLS, max(8, height / _CELL_PX)))
    return rect, nx, ny


def winners(scores: np.ndarray) -> np.ndarray:
    """The argmax of each row of ``scores`` (cells × m classes; ties to the first), -1 where a
    score is NaN.  A pass per class over its column (the learners' scores are class-major
    in memory: ``np.argmax`` across a row of them is several times slower)."""
    columns = np.asarray(scores, dtype=np.float64).T
    best = columns[0].copy()
    out = np.zeros(best.shape, dtype=np.intp)
    unknown = np.isnan(best)
    for k in range(1, columns.shape[0]):
        column = columns[k]
        better = column > best
        out[better] = k
        np.maximum(best, column, out=best, where=better)
        unknown |= np.isnan(column)
    out[unknown] = -1
    return out


def paint(labels: np.ndarray, colors: np.ndarray) -> np.ndarray:
    """``colors[label]`` for each label (RGBA uint8, one 32-bit word a pixel), transparent
    where the label is -1: shape ``labels.shape + (4,)``."""
    words = np.ascontiguousarray(colors, dtype=np.ubyte).view(np.uint32)[:, 0]
    table = np.append(words, np.uint32(0))  # label -1 reads the last entry: clear
    return table[labels].view(np.ubyte).reshape(*labels.shape, 4)


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


def region_boundaries(xs, ys, S: np.ndarray, scores_of=None, k: int = 8) -> np.ndarray:
    """The boundaries between the classes' regions: for each class ``k`` the zero contour of
    ``s_k − max_{j≠k} s_j`` on the grid ``xs`` × ``ys`` (``S`` of shape (ny, nx, m)); segment
    ends in pairs, shape (2 s, 2).

    Only the cells whose corners have more than one winner are traced: elsewhere no
    such contour crosses (its sign is whether ``k`` wins); there, class ``k``'s contour
    where a class of a higher index meets it, so that a boundary between two classes
    is traced from one side.  Where three classes meet, the contour of a maximum has a
    kink a cell's interpolation cuts: with ``scores_of(points)`` such a cell is traced
    again on a ``k × k`` grid of its own, scored exactly.
    """
    if scores_of is None:
        return _traced(xs, ys, S, None)
    junctions = []
    segments = _traced(xs, ys, S, junctions)
    pieces = [segments]
    for r, c in junctions:
        sub_x = np.linspace(xs[c], xs[c + 1], k + 1)
        sub_y = np.linspace(ys[r], ys[r + 1], k + 1)
        gx, gy = np.meshgrid(sub_x, sub_y)
        sub = np.asarray(scores_of(np.column_stack([gx.ravel(), gy.ravel()])))
        pieces.append(_traced(sub_x, sub_y, sub.reshape(k + 1, k + 1, -1), None))
    return np.concatenate(pieces)


def _traced(xs, ys, S: np.ndarray, junctions) -> np.ndarray:
    """:func:`region_boundaries` on the grid alone; the cells where three classes or more
    meet are left out and listed in ``junctions`` (``(row, col)``) when it is a list."""
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
    if junctions is not None:
        ordered = np.sort(corner_labels, axis=1)
        many = (np.diff(ordered, axis=1) != 0).sum(axis=1) >= 2  # three labels or more
        junctions.extend(zip(rows[many].tolist(), cols[many].tolist(), strict=True))
        keep = ~many
        rows, cols, corner_labels = rows[keep], cols[keep], corner_labels[keep]
        box = tuple(b[keep] for b in box)
        corner_scores = [sc[keep] for sc in corner_scores]
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


def grid_picture(learner, grid, tints, regions: bool, boundary: bool):
    """``(S, picture, segments)`` of ``learner``'s class scores on ``grid`` (:func:`class_grid`):
    the scores (ny, nx, m), the regions' RGBA picture in ``tints`` (each class's, in the
    order of ``learner.classes_``; None unless ``regions``) and the boundaries' segments
    (empty unless ``boundary``). Touches no widget: a worker's job."""
    rect, nx, ny = grid
    xs, ys, G = cell_centres(rect, nx, ny)

    def scores_at(points):
        with np.errstate(over="ignore", invalid="ignore"):
            values = np.asarray(learner.decision_function(points), dtype=np.float64)
        values[~np.isfinite(values)] = np.nan  # an overflowed score: not drawn
        return values

    S = scores_at(G)
    picture = None
    if regions:
        labels = refined(winners(S).reshape(ny, nx), rect,
                         lambda points: winners(scores_at(points)))
        picture = paint(labels, tints)
    segs = (region_boundaries(xs, ys, S.reshape(ny, nx, -1), scores_at) if boundary
            else np.empty((0, 2)))
    return S.reshape(ny, nx, -1), picture, segs


def _sides(W, B):
    """For every pair of classes, where class ``k``'s linear score is at least ``j``'s:
    ``normals`` (m, m, 2) and ``levels`` (m, m), the half-plane ``normal·x >= level``, and
    ``kind`` (m, m): 0 a half-plane, 1 everywhere, -1 nowhere (equal ``w``; ties to the
    first class). As :func:`~..geometry.unit_normal`, scaled so that nothing overflows."""
    dW = W[:, None, :] - W[None, :, :]
    dB = B[:, None] - B[None, :]
    with np.errstate(invalid="ignore", divide="ignore", over="ignore"):
        scale = np.abs(dW).max(axis=2)
        unit = dW / scale[..., None]
        norm = np.hypot(unit[..., 0], unit[..., 1])
        normals = unit / norm[..., None]
        levels = -(dB / scale) / norm
    line = (scale > 0) & np.isfinite(scale)
    first = np.arange(len(W))[:, None] < np.arange(len(W))[None, :]
    wins = (dB > 0) | ((dB == 0) & first)
    kind = np.where(line, 0, np.where(wins, 1, -1))
    return normals, levels, kind


def linear_regions(W, B, rect) -> list[np.ndarray]:
    """Each class's region within ``rect`` under the scores ``W x + B`` (``W`` (m, 2)): the
    convex polygon where its score is the largest (ties to the first), vertices (p, 2)."""
    W, B = np.asarray(W, dtype=np.float64), np.asarray(B, dtype=np.float64)
    normals, levels, kind = _sides(W, B)
    out = []
    for k in range(len(W)):
        others = [j for j in range(len(W)) if j != k]
        if (kind[k, others] < 0).any():
            out.append(np.empty((0, 2)))
        else:
            out.append(clip_polygon(rect, [(normals[k, j], levels[k, j]) for j in others
                                           if kind[k, j] == 0]))
    return out


def linear_boundaries(W, B, rect, regions=None) -> np.ndarray:
    """The boundaries between neighbouring classes within ``rect``: the edges of the regions
    (:func:`linear_regions`, or ``regions`` already made) that are not on ``rect``'s sides,
    each once (from the region of the lower class); segment ends in pairs (2 s, 2)."""
    W, B = np.asarray(W, dtype=np.float64), np.asarray(B, dtype=np.float64)
    regions = linear_regions(W, B, rect) if regions is None else regions
    x0, x1, y0, y1 = rect
    ends, owners = [], []
    for k, polygon in enumerate(regions):
        if len(polygon) < 3:
            continue
        a, b = polygon, np.roll(polygon, -1, axis=0)
        # clip_polygon puts the points it cuts on a side exactly on it
        border = np.zeros(len(a), bool)
        for axis, side in ((0, x0), (0, x1), (1, y0), (1, y1)):
            border |= (a[:, axis] == side) & (b[:, axis] == side)
        inner = ~border & (np.abs(b - a).max(axis=1) > 0)
        ends.append(np.stack([a[inner], b[inner]], axis=1))
        owners.append(np.full(int(inner.sum()), k))
    if not ends:
        return np.empty((0, 2))
    ends, owners = np.concatenate(ends), np.concatenate(owners)
    scores = (ends.mean(axis=1)) @ W.T + B  # at each edge's middle: its two classes tie
    scores[np.arange(len(owners)), owners] = -np.inf
    keep = np.argmax(scores, axis=1) > owners
    return ends[keep].reshape(-1, 2)


def claims_polygons(W, B, rect) -> tuple[np.ndarray, list[np.ndarray]]:
    """Where the binary learners ``f_k = W_k x + B_k`` leave a point to none (``f_k < 0`` for
    all k: one convex polygon) or to several (``f_k, f_j > 0`` for a pair: a polygon each)."""
    W, B = np.asarray(W, dtype=np.float64), np.asarray(B, dtype=np.float64)
    lines = [unit_normal(W[k], float(B[k])) for k in range(len(W))]
    if any(line is None for line in lines):  # a learner with w = 0 claims all or nothing
        return np.empty((0, 2)), []
    none = clip_polygon(rect, [(-n, -level) for n, level in lines])
    several = [clip_polygon(rect, [lines[k], lines[j]])
               for k in range(len(W)) for j in range(k + 1, len(W))]
    return none, [poly for poly in several if len(poly) >= 3]


class ClassRegionsLayer(Layer):
    """With m classes: each class's region in its tint (the ``regions`` switch), the
    boundaries between them (``boundary``), and for one-vs-rest each learner's line in its
    class's colour and where none or several claim a point. ``scores``: the last grid's
    ``(rect, nx, ny, S)`` (S of shape (ny, nx, m)), or None (no grid: linear scores)."""

    name = "classes"
    item_names = ("class_regions", *(f"class_region_{k}" for k in range(8)), "claims_none",
                  "claims_several", "class_boundaries", *(f"class_line_{k}" for k in range(8)))
    caption_words = {"stripes": ("claims_several",)}

    def __init__(self):
        super().__init__()
        self.scores = None
        self._cut = None  # linear scores: (what was drawn, the rectangle it was cut to)
        self._job = NewestJob(lambda request: (grid_picture, request), self._apply_grid,
                              lambda: item_alive(self.regions))

    def hide(self, *names: str) -> None:
        """Hide items; the polygons are cut afresh when next shown, no grid is awaited."""
        super().hide(*names)
        self._cut = None
        self._job.drop()

    def create(self, view_box) -> None:
        no_pen = QtGui.QPen(QtCore.Qt.PenStyle.NoPen)
        self.regions = self.add("class_regions", pg.ImageItem(axisOrder="row-major"), -25)
        self.polygons = [self.add(f"class_region_{k}", QtWidgets.QGraphicsPathItem(), -25)
                         for k in range(8)]
        self.none_claims = self.add("claims_none", QtWidgets.QGraphicsPathItem(), -23)
        self.several_claims = self.add("claims_several", QtWidgets.QGraphicsPathItem(), -23)
        for item in (*self.polygons, self.none_claims, self.several_claims):
            item.setPen(no_pen)
        self.boundaries = self.add("class_boundaries", Lines(connect="pairs"), -12)
        self.lines = [self.add(f"class_line_{k}", Lines(), -13) for k in range(8)]

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
        for item, tint in zip(self.polygons, self.tints, strict=True):
            item.setBrush(QtGui.QBrush(QtGui.QColor(*(int(v) for v in tint))))
        self.none_brush = QtGui.QBrush(pg.mkColor(pal.background))
        self.several_brush = QtGui.QBrush(rgba(pal.foreground, 150),
                                          QtCore.Qt.BrushStyle.BDiagPattern)
        self.none_claims.setBrush(self.none_brush)
        self.several_claims.setBrush(self.several_brush)

    def cache_key(self, frame) -> tuple | None:
        ws = frame.workspace
        if not ws.multiclass:
            return None
        on = frame.switches
        updates = int(ws.learner.n_updates_) if ws.running else -1  # a run moves its scores
        return (frame.model_version, id(ws.learner), updates, frame.view, frame.pixel_size,
                on["regions"], on["boundary"])

    def update(self, frame) -> None:
        ws = frame.workspace
        on = frame.switches
        if not ws.multiclass or not (on["regions"] or on["boundary"]):
            self.scores = None
            self.hide()
            return
        learner = ws.learner
        caps = ws.capabilities
        listed = ws.dataset.listed_classes
        places = [listed.index(int(c)) for c in learner.classes_]
        if caps.class_lines:
            self._job.drop()
            self.scores = None  # no grid: polygons
            self._draw_polygons(frame, learner, places)
        else:
            self._cut = None
            self._draw_grid(frame, learner, places)
        claims = caps.claims and caps.class_lines
        W = np.asarray(learner.coef_, dtype=np.float64) if claims else None
        B = np.asarray(learner.intercept_, dtype=np.float64) if claims else None
        for k, item in enumerate(self.lines):
            hyper = None
            if claims and on["boundary"] and k < len(places):
                hyper = unit_normal(W[k], float(B[k]))
            set_line(item, hyper, frame.rect, hyper is not None)
            if hyper is not None:
                item.setPen(self.line_pens[places[k]])
        if claims and on["regions"]:
            none, several = claims_polygons(W, B, frame.rect)
            self.none_claims.setPath(path([none]))
            many = path(several)
            many.setFillRule(QtCore.Qt.FillRule.WindingFill)  # overlaps filled once
            self.several_claims.setPath(many)
        show(claims and on["regions"], self.none_claims, self.several_claims)

    def _draw_polygons(self, frame, learner, places) -> None:
        """Linear scores: each region the polygon where its class wins, exactly, cut to the
        view grown by two of its sizes on every side; a pan within that redraws nothing."""
        on = frame.switches
        W = np.asarray(learner.coef_, dtype=np.float64)
        B = np.asarray(learner.intercept_, dtype=np.float64)
        self.regions.setVisible(False)
        key = (W.tobytes(), B.tobytes(), tuple(places), on["regions"], on["boundary"])
        if self._cut is not None and self._cut[0] == key and _covers(self._cut[1],
                                                                         frame.view):
            return
        rect = frame.clip_rect(2.0)
        self._cut = (key, rect)
        used = set()
        finite = np.isfinite(W).all() and np.isfinite(B).all()
        regions = linear_regions(W, B, rect) if finite else []
        if on["regions"]:
            for polygon, place in zip(regions, places, strict=True):
                self.polygons[place].setPath(path([polygon]))
                used.add(place)
        for k, item in enumerate(self.polygons):
            item.setVisible(k in used)
        if on["boundary"] and finite:
            segs = linear_boundaries(W, B, rect, regions)
            self.boundaries.setData(segs[:, 0], segs[:, 1])
            self.boundaries.setVisible(len(segs) > 0)
        else:
            self.boundaries.setVisible(False)

    def _draw_grid(self, frame, learner, places) -> None:
        """Other scores: their argmax on a grid, 3x finer where the class changes, computed
        in a worker for a learner fitted at once (the last picture stays meanwhile)."""
        for item in self.polygons:
            item.setVisible(False)
        grid = class_grid(frame.view, frame.pixel_size)
        if grid is None:
            self._job.drop()
            show(False, self.regions, self.boundaries)
            return
        on = frame.switches
        request = (learner, grid, self.tints[places], on["regions"], on["boundary"])
        now = frame.now or frame.workspace.capabilities.steps  # a run changes in place
        self._job.request(request, now=now)

    def _apply_grid(self, request, out) -> None:
        _learner, ((x0, x1, y0, y1), nx, ny), _tints, regions, boundary = request
        S, picture, segs = out
        was = self.regions.isVisible() or self.boundaries.isVisible()
        self.scores = ((x0, x1, y0, y1), nx, ny, S)
        if regions:
            self.regions.setImage(picture, autoLevels=False, levels=None)
            self.regions.setRect(QtCore.QRectF(x0, y0, x1 - x0, y1 - y0))
        self.regions.setVisible(regions)
        if boundary:
            self.boundaries.setData(segs[:, 0], segs[:, 1])
        self.boundaries.setVisible(boundary and len(segs) > 0)
        if not was:  # the first picture of a worker: the legend lists the layer now
            self.changed()

    def drawn_classes(self, workspace, points) -> tuple[np.ndarray, np.ndarray]:
        """The class whose drawn region holds each of ``points`` (-1: none), and where the
        picture decided it: the point itself in a polygon (linear scores), else the centre
        of the regions picture's pixel under it (to check the picture against ``predict``)."""
        points = np.asarray(points, dtype=np.float64)
        listed = workspace.dataset.listed_classes
        out = np.full(len(points), -1)
        if self.scores is None:  # linear scores: a polygon a class
            for place, item in enumerate(self.polygons):
                if item.isVisible():
                    shape = item.path()
                    inside = [shape.contains(QtCore.QPointF(*p)) for p in points]
                    out[np.asarray(inside, bool)] = listed[place]
            return out, points
        (x0, x1, y0, y1), _nx, _ny, _S = self.scores
        image = self.regions.image
        fy, fx = image.shape[:2]
        col = np.clip(np.floor((points[:, 0] - x0) / (x1 - x0) * fx).astype(int), 0, fx - 1)
        row = np.clip(np.floor((points[:, 1] - y0) / (y1 - y0) * fy).astype(int), 0, fy - 1)
        pixels = image[row, col]
        for place, c in enumerate(listed):
            out[(pixels == self.tints[place]).all(axis=1)] = c
        centres = np.column_stack([x0 + (col + 0.5) * (x1 - x0) / fx,
                                   y0 + (row + 0.5) * (y1 - y0) / fy])
        return out, centres

    def legend_entries(self, frame) -> list[LegendEntry]:
        ws = frame.workspace
        if not ws.multiclass:
            return []
        on = frame.switches
        rows = line_rows(on["boundary"] and ("class_boundaries", "boundaries between classes",
                                             self.pen))
        claims = ws.capabilities.claims and ws.capabilities.class_lines
        if claims and on["boundary"]:
            rows += line_rows(("class_lines", "each class against the rest: f_k(x) = 0",
                               self.line_pens[0]))
        if claims and on["regions"]:
            rows.append(_patch_row("claims_none", "no class claims the place", self.none_brush))
            rows.append(_patch_row("claims_several", "several classes claim it",
                                   self.several_brush))
        return rows


def _covers(rect, view) -> bool:
    """Whether ``rect`` holds ``view`` and is at most 8 times as wide and high (a polygon cut
    far outside a small view would draw its edges imprecisely)."""
    x0, x1, y0, y1 = rect
    v0, v1, w0, w1 = view
    return (x0 <= v0 and v1 <= x1 and y0 <= w0 and w1 <= y1
            and x1 - x0 <= 8 * (v1 - v0) and y1 - y0 <= 8 * (w1 - w0))


def _patch_row(name: str, text: str, brush) -> LegendEntry:
    return LegendEntry(name, text, lambda: marker_sample(
        "s", 12.0, brush, pg.mkPen(style.current().foreground)))
