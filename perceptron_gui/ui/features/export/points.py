"""The markers of an export (data points, mistake crosses), painted off the UI thread.

pyqtgraph exports a scatter by drawing one vector symbol per point from
Python, on the UI thread.  Here each symbol is drawn once, at 16 sub-pixel
phases, and copied in a worker to every point with the phase nearest its
position (within 1/8 pixel), in the items' order.
"""

from __future__ import annotations

import math
from collections.abc import Callable
from dataclasses import dataclass
from functools import partial

import numpy as np
import pyqtgraph as pg
from PySide6 import QtCore, QtGui

from ...widgets.canvas.items import Marks
from ...widgets.canvas.items import pyqtgraph_internals as internals

__all__ = ["MarkerGroup", "data_groups", "paint_markers", "rows_group", "CHUNK"]

#: Markers painted between two checks for a cancel.
CHUNK = 20_000
PHASES = 4  # sub-pixel positions per axis


@dataclass(frozen=True)
class MarkerGroup:
    """Copies of the marker of the canvas item ``name`` (``size`` in pixels) at many points.

    ``points`` are the centres in the item's coordinates, or a function returning
    them (called in the worker: selecting a class of 10⁶ points is not UI-thread work).
    """

    name: str
    points: np.ndarray | Callable[[], np.ndarray]
    count: int
    to_image: QtGui.QTransform
    symbol: object
    size: float
    pen: QtGui.QPen
    brush: QtGui.QBrush

    def __len__(self) -> int:
        return self.count

    def positions(self) -> np.ndarray:
        """The marker centres in the item's coordinates, shape (m, 2)."""
        points = self.points() if callable(self.points) else self.points
        return np.asarray(points, np.float64).reshape(-1, 2)

    def image_xy(self) -> np.ndarray:
        """The finite marker centres in image pixels, shape (m, 2)."""
        xy = pg.functions.transformCoordinates(self.to_image, self.positions().T).T
        return xy[np.isfinite(xy).all(axis=1)]


def _group(name, item, points, count, to_image) -> MarkerGroup:
    if isinstance(item, Marks) and item.style is not None:
        symbol, size, pen, brush = item.style
    else:  # pyqtgraph's ScatterPlotItem
        opts = item.opts
        symbol, size, pen, brush = opts["symbol"], opts["size"], opts["pen"], opts["brush"]
    return MarkerGroup(name, points, int(count), item.sceneTransform() * to_image, symbol,
                       float(size), QtGui.QPen(pg.mkPen(pen)), QtGui.QBrush(pg.mkBrush(brush)))


def _rows(dataset, label: int | None = None, indices=None) -> np.ndarray:
    """The points of class ``label``, or the rows ``indices``, of a data set (worker)."""
    return dataset.X[dataset.y == label] if indices is None else dataset.X[indices]


def data_groups(dataset, canvas, to_image: QtGui.QTransform) -> list[MarkerGroup]:
    """The data points of ``dataset``, a group per class in the order listed, styled as
    ``canvas``'s (empty) scatters."""
    groups = []
    scatters = canvas.layer("data").items
    counts = dict(zip(dataset.classes, dataset.class_counts(), strict=True))
    for k, label in enumerate(dataset.listed_classes):
        if counts[label]:
            name = f"scatter_{k}"
            groups.append(_group(name, scatters[name], partial(_rows, dataset, label),
                                 counts[label], to_image))
    return groups


def rows_group(name: str, item, dataset, indices, to_image: QtGui.QTransform) -> MarkerGroup | None:
    """Markers at the points ``indices`` of ``dataset``, styled as ``item``; None when none."""
    if dataset is None or len(indices) == 0:
        return None
    return _group(name, item, partial(_rows, dataset, indices=indices), len(indices), to_image)


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
    """Paint ``groups`` on ``image`` in order, clipped to ``clip`` (worker); a generator that
    yields the count painted every :data:`CHUNK` markers (a superqt worker stops there)."""
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
