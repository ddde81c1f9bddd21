"""A numpy-only marker item: one pre-rendered symbol drawn at many points."""

from __future__ import annotations

import math

import numpy as np
import pyqtgraph as pg
from PySide6 import QtCore, QtGui

from . import pyqtgraph_internals as internals

__all__ = ["Marks"]


class Marks(pg.GraphicsObject):
    """Copies of one marker at many points; ``setData`` is numpy only, a paint one call.

    A ``ScatterPlotItem`` builds Python objects per point on ``setData`` (tens of
    ms at 10⁵ points); this item draws one pre-rendered symbol with
    ``QPainter.drawPixmapFragments``, as pyqtgraph's pixel mode: the same pixels.
    """

    def __init__(self):
        super().__init__()
        self._pos = np.empty((0, 2))
        self._bounds = None  # (x0, x1, y0, y1) of the finite points
        self._style = None
        self._pixmap = None
        self._side = 0  # of the pixmap, in device pixels
        self._dpr = 1.0
        self._frags = internals.fragment_array()
        self._padding: tuple[float, float] | None = None  # _pad's, kept per view and style

    def set_style(self, symbol, size: float, brush, pen) -> None:
        """The marker: a pyqtgraph symbol name, its size in pixels, brush and pen."""
        self._style = (symbol, float(size), pg.mkPen(pen), pg.mkBrush(brush))
        self._pixmap = None
        self._padding = None
        self.prepareGeometryChange()
        self.update()

    @property
    def style(self):
        """The marker ``(symbol, size, pen, brush)``, or None before :meth:`set_style`."""
        return self._style

    def setData(self, pos=None, x=None, y=None, copy: bool = True) -> None:
        """Place the marks at ``pos`` (shape (m, 2)) or at ``x``, ``y``; ``copy=False`` keeps a
        fresh array the caller gives away (``X[indices]``) as it is."""
        if pos is None:
            pos = np.column_stack([np.asarray(x, dtype=np.float64).ravel(),
                                   np.asarray(y, dtype=np.float64).ravel()])
        P = (np.array if copy else np.asarray)(pos, dtype=np.float64).reshape(-1, 2)
        self.prepareGeometryChange()
        self._pos = P
        finite = P if np.isfinite(P).all() else P[np.isfinite(P).all(axis=1)]
        self._bounds = (None if finite.shape[0] == 0 else
                        (*(float(v) for v in (finite[:, 0].min(), finite[:, 0].max(),
                                              finite[:, 1].min(), finite[:, 1].max())),))
        self.update()

    def getData(self):
        """``(x, y)`` of the marks."""
        return self._pos[:, 0], self._pos[:, 1]

    def _pad(self):
        """Half the marker's extent (with its diagonal), in item units along x and y
        (kept until the view's transform or the style changes)."""
        if self._style is None:
            return 0.0, 0.0
        if self._padding is not None:
            return self._padding
        symbol, size, pen, _ = self._style
        pad_px = (size + max(math.ceil(pen.widthF()), 1)) * 0.7072
        px, py = self.pixelVectors()
        if px is None or py is None:
            return 0.0, 0.0  # not in a shown view yet: found again once it is
        try:
            self._padding = (px.length() * pad_px, py.length() * pad_px)
        except OverflowError:
            self._padding = (0.0, 0.0)
        return self._padding

    def boundingRect(self):
        if self._bounds is None:
            return QtCore.QRectF()
        x0, x1, y0, y1 = self._bounds
        px, py = self._pad()
        return QtCore.QRectF(x0 - px, y0 - py, x1 - x0 + 2 * px, y1 - y0 + 2 * py)

    def viewTransformChanged(self):
        self._padding = None
        self.prepareGeometryChange()  # the pixel padding of the bounds changed
        super().viewTransformChanged()

    def setExportMode(self, export, opts=None):
        super().setExportMode(export, opts)
        self.update()  # the item cache holds the other mode's drawing

    def paint(self, p, option, widget=None):
        if self._bounds is None or self._style is None:
            return
        export = internals.export_options(self)
        if export is not False:  # SVG or image export: vector symbols, as pyqtgraph's scatter
            symbol, size, pen, brush = self._style
            size *= export.get("resolutionScale", 1.0)
            p.setRenderHint(p.RenderHint.Antialiasing, export.get("antialias", True))
            pts = pg.functions.transformCoordinates(p.transform(), self._pos.T)
            for x, y in pts.T:
                p.resetTransform()
                p.translate(float(x), float(y))
                internals.draw_symbol(p, symbol, size, pen, brush)
            return
        # the device's ratio: the widget's, or the item cache's pixmap (widget None)
        device = p.device()
        dpr = (device.devicePixelRatioF() if device is not None
               else widget.devicePixelRatioF() if widget is not None else 1.0)
        if self._pixmap is None or dpr != self._dpr:
            image = internals.render_symbol(*self._style, dpr=dpr)
            self._pixmap = QtGui.QPixmap.fromImage(image)
            self._side, self._dpr = image.width(), dpr
        pos = self._pos
        view = self.viewRect()
        if view is not None:  # cull what is off the view
            px, py = self._pad()
            x, y = pos[:, 0], pos[:, 1]
            pos = pos[(x > view.left() - px) & (x < view.right() + px)
                      & (y > view.top() - py) & (y < view.bottom() + py)]
        if pos.shape[0] == 0:
            return
        pts = pg.functions.transformCoordinates(p.transform(), pos.T)
        pts = np.clip(pts, -2.0**30, 2.0**30)  # Qt misbehaves beyond
        p.resetTransform()
        self._frags.resize(pos.shape[0])
        frags = self._frags.ndarray()
        frags[:, 0:2] = pts.T
        frags[:, 2:6] = (0.0, 0.0, self._side, self._side)
        frags[:, 6:10] = (1.0 / dpr, 1.0 / dpr, 0.0, 1.0)
        p.drawPixmapFragments(*self._frags.drawargs(), self._pixmap)
