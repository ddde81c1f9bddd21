"""The canvas's legend: a compact box overlaid where it covers no point of the view.

At most :data:`MAX_WIDTH_SHARE` of the view's width, its type at most
:data:`MAX_TEXT_PT` (presenter mode's made it a quarter of the canvas).
"""

from __future__ import annotations

import numpy as np
import pyqtgraph as pg
from PySide6 import QtGui, QtWidgets

from ....core.scale import LARGE_N
from ... import style
from .geometry import box_sums, summed_table
from .items import LegendBox, style_scatter

__all__ = ["CORNERS", "CanvasLegend", "MAX_TEXT_PT", "MAX_WIDTH_SHARE", "free_place",
           "line_sample", "marker_sample", "rgba"]

#: The corners the legend may take, in order of preference on a tie: (x, y) anchors
#: of the view box (0 = left or top, 1 = right or bottom).
CORNERS = ((0, 0), (1, 0), (0, 1), (1, 1))

_MARGIN_PX = 6  # between the legend and the view's edge
_TEXT_FACTOR = 0.85  # the legend's type, relative to the canvas's
#: The legend's largest type, in points (presenter mode's is twice the normal).
MAX_TEXT_PT = 12.0
#: The largest share of the view's width the legend takes in two columns (else one).
MAX_WIDTH_SHARE = 0.22
#: ... when one column finds no empty place: two columns make a lower band.
CROWDED_WIDTH_SHARE = 0.6
_CELL_PX = 4  # the grid of the search for an empty place, in pixels
_ONE_COLUMN_ROWS = 5  # more entries than this take two columns
_ARROW_SAMPLES, _ARROW_WEIGHT = 16, 2.0  # the w arrow counts as 32 points along it
_ARROW_T = np.linspace(0.0, 1.0, _ARROW_SAMPLES)[:, None]  # where along it (made once)
_ARROW_WEIGHTS = np.full(_ARROW_SAMPLES, _ARROW_WEIGHT)
_STAY = 2.0  # the legend moves only to a corner that covers this much less


def line_sample(pen) -> pg.PlotCurveItem:
    """A legend sample drawn with ``pen`` (a bare curve item: its sample draws a line)."""
    return pg.PlotCurveItem(pen=pen)


def marker_sample(symbol, size, brush, pen) -> pg.ScatterPlotItem:
    """A legend sample drawn as one marker."""
    item = pg.ScatterPlotItem()
    style_scatter(item, symbol, size, brush, pen)
    return item


def rgba(color, alpha: int) -> QtGui.QColor:
    """``color`` with the alpha ``alpha`` (0-255)."""
    c = pg.mkColor(color)
    c.setAlpha(alpha)
    return c


class _Grid:
    """The places :func:`free_place` tries for a box of ``box_px`` in a view of ``view_px``:
    4-pixel cells, the candidate top lefts and the cells each one's box (grown by
    ``pad_px``) touches."""

    def __init__(self, view_px, box_px, pad_px: float):
        vw, vh = float(view_px[0]), float(view_px[1])
        bw, bh = float(box_px[0]), float(box_px[1])
        c = _CELL_PX
        self.size = (vw, vh)
        self.pad = pad_px
        self.nx, self.ny = nx, ny = max(1, int(np.ceil(vw / c))), max(1, int(np.ceil(vh / c)))

        def candidates(size, span):
            far = max(0.0, span - size)
            steps = np.arange(0.0, far, c)  # not np.unique: it imports numpy.ma (launch)
            return np.append(steps[steps < far], far)

        self.lefts, self.tops = lefts, tops = candidates(bw, vw), candidates(bh, vh)
        self.c0 = np.clip(np.floor((lefts - pad_px) / c), 0, nx).astype(np.intp)
        self.c1 = np.clip(np.ceil((lefts + bw + pad_px) / c), 0, nx).astype(np.intp)
        self.r0 = np.clip(np.floor((tops - pad_px) / c), 0, ny).astype(np.intp)
        self.r1 = np.clip(np.ceil((tops + bh + pad_px) / c), 0, ny).astype(np.intp)
        self.corner_of = {(ax, ay): (lefts[-1] if ax else lefts[0], tops[-1] if ay else tops[0])
                          for ax, ay in CORNERS}

    def cells(self, points, weights=None):
        """The cells ``(cx, cy)`` of the points in or near the view, and their weights."""
        vw, vh = self.size
        pad, c = self.pad, _CELL_PX
        P = np.asarray(points, dtype=np.float64).reshape(-1, 2)
        wts = np.ones(len(P)) if weights is None else np.asarray(weights, dtype=np.float64)
        inside = np.isfinite(P).all(axis=1) & (P[:, 0] >= -pad) & (P[:, 0] <= vw + pad) \
            & (P[:, 1] >= -pad) & (P[:, 1] <= vh + pad)
        P, wts = P[inside], wts[inside]
        cx = np.clip((P[:, 0] // c).astype(np.intp), 0, self.nx - 1)
        cy = np.clip((P[:, 1] // c).astype(np.intp), 0, self.ny - 1)
        return cx, cy, wts

    def under(self, cells, place) -> float:
        """The weight of ``cells`` (:meth:`cells`) the box at the top left ``place`` covers."""
        cx, cy, wts = cells
        i = int(np.argmin(np.abs(self.lefts - place[0])))
        j = int(np.argmin(np.abs(self.tops - place[1])))
        inside = ((cx >= self.c0[i]) & (cx < self.c1[i]) & (cy >= self.r0[j]) & (cy < self.r1[j]))
        return float(np.round(wts[inside].sum(), 9))

    def corner_at(self, left, top):
        """The corner of :data:`CORNERS` whose place is ``(left, top)``, or None."""
        return next((corner for corner, (cl, ct) in self.corner_of.items()
                     if abs(cl - left) < 0.5 and abs(ct - top) < 0.5), None)


def free_place(points, view_px, box_px, pad_px: float = 0.0, weights=None, keep=None,
               grid=None, cells=None):
    """Where a box of ``box_px`` inside a view of ``view_px`` covers the fewest ``points``.

    Parameters
    ----------
    points : ndarray of shape (n, 2)
        Pixel positions in the view (x right, y down from its top left).
    box_px : (float, float)
        The box's width and height, its margin to the view's edge included.
    pad_px : float, default=0.0
        A point this near the box counts as under it (a marker's radius).
    keep : (float, float), optional
        The box's present top left: kept while it covers nothing (no jumps during
        a run), or, when no place is empty, no more than the best plus 2.
    grid : _Grid, optional
        The search grid of these sizes, when the caller keeps it.
    cells : tuple, optional
        ``grid.cells(points, weights)``, when the caller has them (``points`` unread).

    Returns
    -------
    (left, top, corner, count)
        The top left in pixels, the corner of :data:`CORNERS` (or None), the cover.
        At equal cover a corner wins over an edge, an edge over the interior, the
        first of :data:`CORNERS` on a tie; then the place nearest a corner.

    Notes
    -----
    Counted on 4-pixel cells (a summed-area table): a point counts when its cell
    touches the box grown by ``pad_px``, so a place with no count covers no point.
    """
    g = _Grid(view_px, box_px, pad_px) if grid is None else grid
    cells = g.cells(points, weights) if cells is None else cells
    if keep is not None:  # the cells under the kept place alone, before the whole table
        kept = g.under(cells, keep)
        if kept == 0:
            return keep[0], keep[1], g.corner_at(*keep), 0.0
    cx, cy, wts = cells
    lefts, tops = g.lefts, g.tops
    # rounded: the table sums float weights
    counts = np.round(box_sums(summed_table(cy * g.nx + cx, g.nx, g.ny, wts),
                               g.r0[:, None], g.r1[:, None], g.c0, g.c1), 9)
    best = float(counts.min())
    if keep is not None and best > 0 and kept <= best + _STAY:
        return keep[0], keep[1], g.corner_at(*keep), kept
    for corner in CORNERS:
        if counts[-1 if corner[1] else 0, -1 if corner[0] else 0] == best:
            left, top = g.corner_of[corner]
            return float(left), float(top), corner, best
    jj, ii = np.nonzero(counts == best)
    L, T = lefts[ii], tops[jj]
    edge = (ii == 0) | (ii == len(lefts) - 1) | (jj == 0) | (jj == len(tops) - 1)
    dist = np.minimum(np.minimum(L, lefts[-1] - L), np.inf) + np.minimum(T, tops[-1] - T)
    k = int(np.lexsort((dist, ~edge))[0])
    return float(L[k]), float(T[k]), None, best


class CanvasLegend:
    """A semi-transparent ``LegendBox`` inside the view box, where it covers no point (a drag
    puts it elsewhere for good); rebuilt only when its rows or the scale change.

    ``corner``: the one of :data:`CORNERS` it is anchored to, or None; ``covered``: how
    many points (the w arrow counting as 32) it covers where it is.
    """

    def __init__(self, view_box):
        self.item = LegendBox(colCount=1, horSpacing=6, verSpacing=0)  # styled by apply_scale
        self.item.setObjectName("canvasLegend")
        self.item.layout.setContentsMargins(4, 2, 6, 2)
        self.item.setCacheMode(QtWidgets.QGraphicsItem.CacheMode.DeviceCoordinateCache)
        self.item.setParentItem(view_box)
        self.item.setZValue(1000)
        self.corner: tuple[int, int] | None = None
        self.covered = 0.0
        self._clear = None  # the layers' points to keep clear (update's ``clear``)
        self._place: tuple[float, float] | None = None  # the box's top left, margin included
        self._key: tuple | None = None
        self._corner_key: tuple | None = None
        self._data_key: tuple | None = None
        self._data_px = np.empty((0, 2))
        self._grid_key: tuple | None = None
        self._grid: _Grid | None = None
        self._under_key: tuple | None = None
        self._cells_key: tuple | None = None
        self._cells: tuple | None = None
        self._under = 0.0
        self._data_weight = 1.0
        self._pad_px = 0.0
        self._rows: dict[tuple[str, str], tuple] = {}  # (name, text) -> (sample, label), kept
        self._shown: list = []  # the rows shown, in order
        self._two_width: float | None = None  # the width of the rows in two columns
        self._crowded = False  # one column found no empty place: two, lower, may

    def apply_scale(self, scale) -> None:
        """Type size and colours of the scale and of the palette in use (light or dark)."""
        self.item.setLabelTextSize(f"{min(scale.font_pt * _TEXT_FACTOR, MAX_TEXT_PT):.3g}pt")
        self.item.setLabelTextColor(style.current().foreground)
        self.item.setPen(pg.mkPen(rgba(style.current().foreground, 70)))
        self.item.setBrush(pg.mkBrush(rgba(style.current().background, 205)))
        self._key = None
        self.item.drop_rows(list(self._rows.values()))  # the layers' pens changed too
        self._rows = {}

    def update(self, entries, visible: bool, scale, frame=None, clear=None) -> None:
        """Show ``entries`` (``LegendEntry``) where they cover no point, nor ``clear`` (n, 2)."""
        self._clear = None if clear is None or not len(clear) else np.asarray(clear, float)
        key = tuple((e.name, e.text) for e in entries) + (visible, scale.line, scale.marker,
                                                            scale.font_pt)
        self._pad_px = scale.marker / 2 + 2
        if key != self._key:
            self._key = key
            self._corner_key = None
            self.item.setVisible(visible)
            rows = []
            for entry in entries:
                row = self._rows.get((entry.name, entry.text))
                if row is None:
                    row = self.item.make_row(entry.sample(), entry.text)
                    row[1].item.document().setDocumentMargin(1)
                    row[1].updateMin()
                    # the rows repaint from pixmaps while a run redraws the view under them
                    cached = QtWidgets.QGraphicsItem.CacheMode.DeviceCoordinateCache
                    row[0].setCacheMode(cached)
                    row[1].item.setCacheMode(cached)
                    self._rows[(entry.name, entry.text)] = row
                rows.append(row)
            self._shown, self._crowded = rows, False
            two = len(rows) > _ONE_COLUMN_ROWS
            self.item.show_rows(rows, 2 if two else 1)
            self._two_width = self.item.boundingRect().width() if two else None
        if frame is not None:
            self._fit_columns(frame)
        if visible and frame is not None:
            self.place(frame)

    def _fit_columns(self, frame) -> None:
        """Two columns while they take at most :data:`MAX_WIDTH_SHARE` of the view, else one."""
        if self._two_width is None:
            return
        sx = frame.pixel_size[0]
        view_w = (frame.view[1] - frame.view[0]) / sx if sx > 0 else 0.0
        share = CROWDED_WIDTH_SHARE if self._crowded else MAX_WIDTH_SHARE
        columns = 2 if self._two_width <= share * view_w else 1
        if columns != self.item.columnCount:
            self.item.show_rows(self._shown, columns)
            self._corner_key = None

    def room(self, frame) -> float | None:
        """The height (data units) a fitted view must grow above its top for the legend to
        cover no point (None: it covers none, is hidden or moved, or would take half)."""
        if not self.covered or not self.item.isVisible() or self.item.moved:
            return None
        sy = frame.pixel_size[1]
        x0, x1, y0, y1 = frame.view
        height_px = (y1 - y0) / sy if sy > 0 else 0.0
        band = self.item.boundingRect().height() + 2 * _MARGIN_PX + 2 * self._pad_px
        if not 0 < band < 0.5 * height_px:
            return None
        # the band keeps its pixels once the view is taller: band / (height + add) per pixel
        return 1.1 * band * (y1 - y0) / (height_px - band)

    @staticmethod
    def arrow(frame):
        """The end of the linear learner's w arrow from the origin, when it is drawn."""
        ws = frame.workspace
        if (frame.hyperplane is None or not frame.switches.get("weight", False)
                or not ws.capabilities.linear or ws.capabilities.arrow_from_means):
            return None
        w = np.asarray(frame.weights[0], dtype=np.float64)
        return w if np.isfinite(w).all() else None

    def _data_cells(self, grid: _Grid) -> tuple:
        """The data's cells on ``grid`` (:meth:`_Grid.cells`), kept per data set and grid."""
        key = (self._data_key, self._grid_key)
        if key != self._cells_key:
            self._cells_key = key
            self._cells = grid.cells(self._data_px, np.full(len(self._data_px), self._data_weight))
        return self._cells

    def _data_under(self, grid: _Grid, keep) -> float:
        """The data's count under the box at ``keep`` (:meth:`_Grid.under`), kept per
        data set, view, box and place."""
        key = (self._data_key, self._grid_key, keep)
        if key != self._under_key:
            self._under_key = key
            self._under = grid.under(self._data_cells(grid), keep)
        return self._under

    def place(self, frame) -> None:
        """Put the legend where it covers no point of the view (:func:`free_place`)."""
        if self.item.moved:
            return
        rect = self.item.boundingRect()
        sx, sy = frame.pixel_size
        if not (sx > 0 and sy > 0):
            return
        x0, x1, y0, y1 = frame.view
        with np.errstate(over="ignore", invalid="ignore"):  # views near ±1.8e308
            view_px = (float(np.float64(x1) / sx - np.float64(x0) / sx),
                       float(np.float64(y1) / sy - np.float64(y0) / sy))
        if not all(np.isfinite(view_px)):
            return
        box = (rect.width() + 2 * _MARGIN_PX, rect.height() + 2 * _MARGIN_PX)
        ds = frame.workspace.dataset
        arrow = self.arrow(frame)
        clear = self._clear
        key = (id(ds), ds.n, frame.view, box, self._pad_px,
               None if arrow is None else arrow.tobytes(),
               None if clear is None else clear.tobytes())
        if key == self._corner_key:
            return
        self._corner_key = key

        def to_px(X):  # in halves of each span, as the view's own arithmetic (±1.8e308)
            with np.errstate(over="ignore", invalid="ignore"):
                return np.column_stack((X[:, 0] / sx - x0 / sx, y1 / sy - X[:, 1] / sy))

        if key[:3] != self._data_key:  # the points' pixels, kept while only the arrow moves
            self._data_key = key[:3]
            step = max(1, -(-ds.n // LARGE_N))  # a sample of at most LARGE_N points
            self._data_px = to_px(ds.X[::step]) if ds.n else np.empty((0, 2))
            self._data_weight = float(step)
        grid_key = (view_px, box, self._pad_px)
        if grid_key != self._grid_key:
            self._grid_key, self._grid = grid_key, _Grid(view_px, box, self._pad_px)
        grid = self._grid
        extra, extra_weights = [np.empty((0, 2))], [np.empty(0)]
        if arrow is not None:  # the w arrow counts as many points
            extra.append(to_px(_ARROW_T * arrow[None, :]))
            extra_weights.append(_ARROW_WEIGHTS)
        if clear is not None:  # the layers' places to keep clear count as points
            extra.append(to_px(clear))
            extra_weights.append(np.ones(len(clear)))
        extra, extra_weights = np.concatenate(extra), np.concatenate(extra_weights)
        keep = self._place if self._place is not None and self.corner is None else None
        if self.corner is not None:  # a corner follows the view's size
            keep = (0.0 if self.corner[0] == 0 else max(0.0, view_px[0] - box[0]),
                    0.0 if self.corner[1] == 0 else max(0.0, view_px[1] - box[1]))
        extra = grid.cells(extra, extra_weights)
        if keep is not None and not self._data_under(grid, keep) and not grid.under(extra, keep):
            # what free_place finds at a kept place that covers nothing, the data's
            # count there kept while only the arrow or the places to keep clear move
            left, top, corner, self.covered = keep[0], keep[1], grid.corner_at(*keep), 0.0
        else:
            cells = tuple(np.concatenate(pair) for pair in zip(self._data_cells(grid), extra,
                                                               strict=True))
            left, top, corner, self.covered = free_place(
                None, view_px, box, self._pad_px, keep=keep, grid=grid, cells=cells)
        if self.covered and not self._crowded and self.item.columnCount == 1:
            self._crowded = True  # try two columns: a lower box may find a place
            self._fit_columns(frame)
            if self.item.columnCount == 2:
                self._corner_key = None
                self.place(frame)
                return
        if (left, top) == self._place and corner == self.corner:
            return
        self._place, self.corner = (left, top), corner
        if corner is not None:
            offset = (_MARGIN_PX if corner[0] == 0 else -_MARGIN_PX,
                      _MARGIN_PX if corner[1] == 0 else -_MARGIN_PX)
            self.item.anchor(itemPos=corner, parentPos=corner, offset=offset)
        else:
            self.item.anchor(itemPos=(0, 0), parentPos=(0, 0),
                             offset=(left + _MARGIN_PX, top + _MARGIN_PX))
