"""The canvas's legend: a compact box overlaid in the emptiest corner of the view."""

from __future__ import annotations

import numpy as np
import pyqtgraph as pg
from PySide6 import QtWidgets

from ... import style
from .items import LegendBox, LegendSample, style_scatter

__all__ = ["CORNERS", "CanvasLegend", "corner_counts", "emptiest_corner", "line_sample",
           "marker_sample"]

#: The corners the legend may take, in order of preference on a tie: (x, y) anchors
#: of the view box (0 = left or top, 1 = right or bottom).
CORNERS = ((0, 0), (1, 0), (0, 1), (1, 1))

_MARGIN_PX = 6  # between the legend and the view's edge
_TEXT_FACTOR = 0.85  # the legend's type, relative to the canvas's
_ONE_COLUMN_ROWS = 5  # more entries than this take two columns
_ARROW_SAMPLES, _ARROW_WEIGHT = 16, 2.0  # the w arrow counts as 32 points along it
_ARROW_T = np.linspace(0.0, 1.0, _ARROW_SAMPLES)[:, None]  # where along it (made once)
_ARROW_WEIGHTS = np.full(_ARROW_SAMPLES, _ARROW_WEIGHT)
_STAY = 2.0  # the legend moves only to a corner that covers this much less
#: Above this many points the legend counts every k-th point (times k) to choose its corner.
_COUNT_MAX = 20_000


def line_sample(pen) -> pg.PlotCurveItem:
    """A legend sample drawn with ``pen`` (a bare curve item: its sample draws a line)."""
    return pg.PlotCurveItem(pen=pen)


def marker_sample(symbol, size, brush, pen) -> pg.ScatterPlotItem:
    """A legend sample drawn as one marker."""
    item = pg.ScatterPlotItem()
    style_scatter(item, symbol, size, brush, pen)
    return item


def _translucent(color, alpha: int):
    c = pg.mkColor(color)
    c.setAlpha(alpha)
    return c


def corner_counts(X, view, size_data, weights=None) -> list[float]:
    """How many points of ``X`` (or their total ``weights``) a box of ``size_data`` covers
    in each corner of ``view`` (in the order of :data:`CORNERS`)."""
    x0, x1, y0, y1 = view
    w, h = size_data
    x, y = X[:, 0], X[:, 1]
    left, right = (x >= x0) & (x <= x0 + w), (x <= x1) & (x >= x1 - w)
    top, bottom = (y <= y1) & (y >= y1 - h), (y >= y0) & (y <= y0 + h)
    masks = [(left if ax == 0 else right) & (top if ay == 0 else bottom) for ax, ay in CORNERS]
    if weights is None:
        return [float(np.count_nonzero(m)) for m in masks]
    weights = np.asarray(weights, dtype=np.float64)
    return [float(weights[m].sum()) for m in masks]


def emptiest_corner(X, view, size_data, weights=None) -> tuple[int, int]:
    """The corner of ``view`` where a box of ``size_data`` covers the fewest points of ``X``.

    Parameters
    ----------
    X : ndarray of shape (n, 2)
    view : (x0, x1, y0, y1)
        The visible rectangle (data coordinates, y up).
    size_data : (float, float)
        The box's width and height in data units.
    weights : ndarray of shape (n,), optional
        How much each point counts (default 1).

    Returns
    -------
    (int, int)
        The corner as view-box anchors (x: 0 left, 1 right; y: 0 top, 1 bottom);
        the first of :data:`CORNERS` on a tie.
    """
    if X.shape[0] == 0:
        return CORNERS[0]
    return CORNERS[int(np.argmin(corner_counts(X, view, size_data, weights)))]


class CanvasLegend:
    """A semi-transparent ``LegendBox`` inside the view box, in the corner with fewest points.

    It never takes a band of the canvas's height; a click on it goes through to
    the view (it adds or selects a point as anywhere else) and a drag moves it
    (it then stays where it was put).  Rebuilt only when
    its rows or the scale change, so it stays put while editing and during a
    run.  It is part of the scene, so exports draw it too.

    Parameters
    ----------
    view_box : pyqtgraph.ViewBox
        The canvas's view: the legend is its child, anchored to a corner.

    Attributes
    ----------
    item : LegendBox
    corner : (int, int)
        The corner it is anchored to (see :data:`CORNERS`).
    """

    def __init__(self, view_box):
        self.item = LegendBox(
            sampleType=LegendSample, labelTextColor=style.current().foreground, colCount=1,
            horSpacing=6, verSpacing=0, pen=pg.mkPen(_translucent(style.current().foreground, 70)),
            brush=pg.mkBrush(_translucent(style.current().background, 205)),
        )
        self.item.setObjectName("canvasLegend")
        self.item.layout.setContentsMargins(4, 2, 6, 2)
        self.item.setCacheMode(QtWidgets.QGraphicsItem.CacheMode.DeviceCoordinateCache)
        self.item.setParentItem(view_box)
        self.item.setZValue(1000)
        self.view_box = view_box
        self.corner: tuple[int, int] | None = None
        self._key: tuple | None = None
        self._corner_key: tuple | None = None
        self._data_key: tuple | None = None
        self._data_counts: list[float] = []
        self._rows: dict[tuple[str, str], tuple] = {}  # (name, text) -> (sample, label), kept
        self.samples: list = []

    def apply_scale(self, scale) -> None:
        """Type size and colours of the scale and of the palette in use (light or dark)."""
        self.item.setLabelTextSize(f"{scale.font_pt * _TEXT_FACTOR:.3g}pt")
        self.item.setLabelTextColor(style.current().foreground)
        self.item.setPen(pg.mkPen(_translucent(style.current().foreground, 70)))
        self.item.setBrush(pg.mkBrush(_translucent(style.current().background, 205)))
        self._key = None
        self.item.drop_rows(list(self._rows.values()))  # the layers' pens changed too
        self._rows = {}

    def update(self, entries, visible: bool, scale, frame=None) -> None:
        """Show ``entries`` (a list of ``LegendEntry``), then take the emptiest corner."""
        key = tuple((e.name, e.text) for e in entries) + (visible, scale.line, scale.marker,
                                                            scale.font_pt)
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
            self.samples = [sample.item for sample, _label in rows]
            self.item.show_rows(rows, 1 if len(entries) <= _ONE_COLUMN_ROWS else 2)
        if visible and frame is not None:
            self.place(frame)

    @staticmethod
    def _arrow(frame):
        """The end of the linear learner's w arrow from the origin, when it is drawn."""
        ws = frame.workspace
        if (frame.hyperplane is None or not frame.switches.get("weight", False)
                or not ws.linear or ws.capabilities.arrow_from_means):
            return None
        w = np.asarray(frame.weights[0], dtype=np.float64)
        return w if np.isfinite(w).all() else None

    def place(self, frame) -> None:
        """Anchor the legend to the corner of the view that covers the fewest points.

        Above 20,000 points, every k-th point counts k times (a sample of 20,000).
        """
        if self.item.moved:
            return
        rect = self.item.boundingRect()
        sx, sy = frame.pixel_size
        box = ((rect.width() + _MARGIN_PX) * sx, (rect.height() + _MARGIN_PX) * sy)
        ds = frame.workspace.dataset
        arrow = self._arrow(frame)
        key = (id(ds), ds.n, frame.view, box, None if arrow is None else arrow.tobytes())
        if key == self._corner_key:
            return
        self._corner_key = key
        if key[:4] != self._data_key:  # the points' counts, kept while only the arrow moves
            self._data_key = key[:4]
            step = max(1, -(-ds.n // _COUNT_MAX))  # a sample of at most _COUNT_MAX points
            self._data_counts = [step * c for c in corner_counts(ds.X[::step], frame.view, box)]
        counts = self._data_counts
        if arrow is not None:  # the w arrow and its label count as many points
            on_arrow = corner_counts(_ARROW_T * arrow[None, :], frame.view, box, _ARROW_WEIGHTS)
            counts = [a + b for a, b in zip(counts, on_arrow, strict=True)]
        corner = CORNERS[int(np.argmin(counts))]
        if self.corner is not None and counts[CORNERS.index(self.corner)] <= counts[
                CORNERS.index(corner)] + _STAY:
            corner = self.corner  # not enough better to move (it would jump during a run)
        if corner != self.corner:
            self.corner = corner
            offset = (_MARGIN_PX if corner[0] == 0 else -_MARGIN_PX,
                      _MARGIN_PX if corner[1] == 0 else -_MARGIN_PX)
            self.item.anchor(itemPos=corner, parentPos=corner, offset=offset)
