"""A light line item for the lines that move at every frame of a run."""

from __future__ import annotations

import numpy as np
import pyqtgraph as pg
from PySide6 import QtCore, QtGui

from . import pyqtgraph_internals as internals

__all__ = ["Lines"]


class Lines(pg.GraphicsObject):
    """A polyline, or segments (``connect="pairs"``; one with a non-finite end left out),
    drawn with one cosmetic pen.

    For what moves at every update: a ``PlotCurveItem`` finds its bounds with
    ``nanmin``/``nanmax`` and the pixel size at each position and builds its path
    through a byte stream; here the path is built directly, the bounds with it,
    and the pixel padding once per view.
    """

    def __init__(self, connect: str = "all", antialias: bool = True, pen=None):
        super().__init__()
        if connect not in ("all", "pairs"):
            raise ValueError(f"connect must be 'all' or 'pairs', not {connect!r}")
        self.opts = {"pen": pg.mkPen(pen), "antialias": bool(antialias), "connect": connect}
        self.xData: np.ndarray | None = None
        self.yData: np.ndarray | None = None
        self._path = QtGui.QPainterPath()
        self._bounds = QtCore.QRectF()  # of the path's points (empty: nothing to draw)
        self._pad: tuple[float, float] | None = None  # half the pen, in item units

    def setPen(self, *args, **kwargs) -> None:
        self.prepareGeometryChange()
        self.opts["pen"] = pg.mkPen(*args, **kwargs)
        self._pad = None
        self.update()

    def setData(self, x, y) -> None:
        """Draw through the points ``(x[i], y[i])``."""
        x = np.array(x, dtype=np.float64).ravel()
        y = np.array(y, dtype=np.float64).ravel()
        if x.shape != y.shape:
            raise ValueError(f"x and y differ in length: {x.shape[0]} and {y.shape[0]}")
        path = QtGui.QPainterPath()
        points = [(float(a), float(b)) for a, b in zip(x.tolist(), y.tolist(), strict=True)]
        keep = (np.isfinite(x) & np.isfinite(y)).tolist()
        if self.opts["connect"] == "pairs":
            runs = [points[i:i + 2] for i in range(0, len(points) - 1, 2)
                    if keep[i] and keep[i + 1]]
        else:
            runs = [[p for p, k in zip(points, keep, strict=True) if k]]
        for run in runs:
            if len(run) >= 2:
                path.moveTo(*run[0])
                for point in run[1:]:
                    path.lineTo(*point)
        self.prepareGeometryChange()
        self.xData, self.yData = x, y
        self._path = path
        self._bounds = path.controlPointRect() if not path.isEmpty() else QtCore.QRectF()
        self.update()

    def getData(self):
        """``(x, y)`` as given to :meth:`setData` (``(None, None)`` before)."""
        return self.xData, self.yData

    def _padding(self) -> tuple[float, float]:
        """Half the pen's width (and a pixel), in item units along x and y."""
        if self._pad is None:
            pen = self.opts["pen"]
            pad_px = 0.0 if pen.style() == QtCore.Qt.PenStyle.NoPen else (
                max(pen.widthF(), 1.0) * 0.7072 + 1.0)
            px, py = self.pixelVectors()
            if px is None or py is None:
                return 0.0, 0.0  # not in a shown view yet: found again once it is
            try:
                self._pad = (px.length() * pad_px, py.length() * pad_px)
            except OverflowError:
                self._pad = (0.0, 0.0)
        return self._pad

    def boundingRect(self):
        if self._bounds.isNull():
            return QtCore.QRectF()
        px, py = self._padding()
        return self._bounds.adjusted(-px, -py, px, py)

    def viewTransformChanged(self):
        self._pad = None  # the pixel padding changed with the view
        self.prepareGeometryChange()
        super().viewTransformChanged()

    def paint(self, p, option, widget=None):
        if self._path.isEmpty():
            return
        export = internals.export_options(self)
        antialias = self.opts["antialias"] if export is False else export.get("antialias", True)
        p.setRenderHint(p.RenderHint.Antialiasing, antialias)
        p.setPen(self.opts["pen"])
        p.drawPath(self._path)
