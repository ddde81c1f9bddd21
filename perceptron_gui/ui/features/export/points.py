"""The markers of an export (data points, mistake crosses), painted off the UI thread.

pyqtgraph exports a scatter by drawing one vector symbol per point from
Python, on the UI thread.  Here the markers are read from the offscreen
canvas's items on the UI thread (:func:`marker_groups`: device positions and
the items' own symbol, size, pen and brush), and painted in a worker with
``QPainter`` on a ``QImage`` (:func:`paint_markers`): each symbol is drawn once
as a vector, at 16 sub-pixel phases, and copied to every point with the phase
nearest its position (within 1/8 pixel), in the items' order.
"""

from __future__ import annotations

import math
from dataclasses import dataclass

import numpy as np
import pyqtgraph as pg
from PySide6 import QtCore, QtGui

from ...widgets.canvas.items import pyqtgraph_internals as internals

__all__ = ["DATA_ITEMS", "MarkerGroup", "marker_groups", "paint_markers", "POINT_ITEMS", "CHUNK"]

#: The canvas items whose markers are painted off the UI thread, in drawing order.
POINT_ITEMS = ("scatter_pos", "scatter_neg", "mistake_marks")
#: Those of :data:`POINT_ITEMS` that show the data (they change only with the data and view).
DATA_ITEMS = ("scatter_pos", "scatter_neg")
#: Markers painted between two checks for a cancel.
CHUNK = 20_000
PHASES = 4  # sub-pixel positions per axis


@dataclass(frozen=True)
class MarkerGroup:
    """Copies of one marker at many points of an image.

    Attributes
    ----------
    name : str
        The canvas item's name (one of :data:`POINT_ITEMS`).
    x, y : ndarray, shape (m,)
        Marker centres in the item's coordinates (the data's).
    to_image : QTransform
        The item's coordinates to image pixels.
    symbol : str or QPainterPath
    size : float
        In pixels.
    pen : QPen
    brush : QBrush
    """

    name: str
    x: np.ndarray
    y: np.ndarray
    to_image: QtGui.QTransform
    symbol: object
    size: float
    pen: QtGui.QPen
    brush: QtGui.QBrush

    def __len__(self) -> int:
        return len(self.x)

    def image_xy(self) -> np.ndarray:
        """The finite marker centres in image pixels, shape (m, 2)."""
        pos = np.vstack([np.asarray(self.x, np.float64), np.asarray(self.y, np.float64)])
        xy = pg.functions.transformCoordinates(self.to_image, pos).T
        return xy[np.isfinite(xy).all(axis=1)]


def _item_style(item):
    style = getattr(item, "style", None)
    if style is not None and not callable(style):  # Marks
        return style
    opts = item.opts  # pyqtgraph's ScatterPlotItem
    return opts["symbol"], float(opts["size"]), opts["pen"], opts["brush"]


def marker_groups(named_items, to_image: QtGui.QTransform) -> list[MarkerGroup]:
    """The markers of the visible ``items`` (UI thread; the positions are mapped later).

    Parameters
    ----------
    named_items : sequence of (str, QGraphicsItem)
        Scatters or marks with ``getData()``, in drawing order, with their names.
    to_image : QTransform
        Scene coordinates to image pixels.
    """
    groups = []
    for name, item in named_items:
        if not item.isVisible() or item.opacity() == 0:
            continue
        x, y = item.getData()
        if x is None or len(x) == 0:
            continue
        symbol, size, pen, brush = _item_style(item)
        groups.append(MarkerGroup(name, x, y, item.sceneTransform() * to_image, symbol, float(size),
                                  QtGui.QPen(pg.mkPen(pen)), QtGui.QBrush(pg.mkBrush(brush))))
    return groups


def _sprites(group: MarkerGroup):
    """The marker drawn at each sub-pixel phase: (list of QImages, centre offset)."""
    side = int(math.ceil(group.size + max(math.ceil(group.pen.widthF()), 1))) + 4
    centre = side // 2
    sprites = []
    for fx in range(PHASES):
        for fy in range(PHASES):
            image = QtGui.QImage(side, side, QtGui.QImage.Format.Format_ARGB32_Premultiplied)
            image.fill(QtCore.Qt.GlobalColor.transparent)
            p = QtGui.QPainter(image)
            try:
                p.setRenderHint(QtGui.QPainter.RenderHint.Antialiasing)
                p.translate(centre + fx / PHASES, centre + fy / PHASES)
                internals.draw_symbol(p, group.symbol, group.size, group.pen, group.brush)
            finally:
                p.end()
            sprites.append(image)
    return sprites, centre, side


def paint_markers(image: QtGui.QImage, groups, clip: QtCore.QRect | None = None,
                  cancelled=None):
    """Paint ``groups`` on ``image`` in order (worker thread); a generator.

    Yields the number of markers painted so far every :data:`CHUNK` markers
    (a superqt worker stops there when quit); ``cancelled()`` returning True
    stops it too.  Markers are clipped to ``clip`` (the view box).
    """
    done = 0
    painter = QtGui.QPainter(image)
    try:
        if clip is not None:
            painter.setClipRect(clip)
        for group in groups:
            sprites, centre, side = _sprites(group)
            q = np.rint(group.image_xy() * PHASES)
            keep = np.all(np.abs(q) < 2.0**40, axis=1)
            if clip is not None:
                lo = np.array([clip.left() - side, clip.top() - side]) * PHASES
                hi = np.array([clip.right() + side, clip.bottom() + side]) * PHASES
                keep &= np.all((q > lo) & (q < hi), axis=1)
            q = q[keep].astype(np.int64)
            whole, phase = q // PHASES, q % PHASES
            xs = (whole[:, 0] - centre).tolist()
            ys = (whole[:, 1] - centre).tolist()
            ks = (phase[:, 0] * PHASES + phase[:, 1]).tolist()
            draw = painter.drawImage
            for start in range(0, len(xs), CHUNK):
                if cancelled is not None and cancelled():
                    return done
                stop = start + CHUNK
                for x, y, k in zip(xs[start:stop], ys[start:stop], ks[start:stop],
                                   strict=True):
                    draw(x, y, sprites[k])
                done += len(xs[start:stop])
                yield done
    finally:
        painter.end()
    return done
