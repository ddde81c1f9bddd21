"""An image drawn pixel for pixel on the screen pixels it was made for (the points' raster)."""

from __future__ import annotations

import numpy as np
import pyqtgraph as pg
from PySide6 import QtCore, QtGui

__all__ = ["PointRaster", "codes_image"]

_FAR = 2.0**24  # a stale raster mapped wider than this many pixels is not drawn


def codes_image(codes: np.ndarray, colors) -> QtGui.QImage:
    """A ``QImage`` of ``codes`` (uint8, shape (h, w), row 0 on top), each code painted
    ``colors[code]`` (None: transparent).  Safe in a worker thread (not a widget)."""
    lut = np.array([0 if c is None else QtGui.QColor(c).rgba() for c in colors], dtype=np.uint32)
    argb = np.ascontiguousarray(lut[codes])
    h, w = argb.shape
    fmt = QtGui.QImage.Format.Format_ARGB32
    return QtGui.QImage(argb.data, w, h, 4 * w, fmt).convertToFormat(
        QtGui.QImage.Format.Format_ARGB32_Premultiplied)


class PointRaster(pg.GraphicsObject):
    """A ``QImage`` covering a data rectangle, its device corners rounded to whole pixels and
    sampled nearest: a current image lands on its pixels, a stale one stretched."""

    def __init__(self):
        super().__init__()
        self._image: QtGui.QImage | None = None
        self._rect = QtCore.QRectF()

    def set_image(self, image: QtGui.QImage | None, rect=None) -> None:
        """Show ``image`` on ``rect = (x0, x1, y0, y1)`` (data coordinates); None: hide."""
        self.setVisible(image is not None)
        if image is None and self._image is None:
            return
        self.prepareGeometryChange()
        self._image = image
        if image is None or rect is None:
            self._rect = QtCore.QRectF()
        else:
            x0, x1, y0, y1 = rect
            self._rect = QtCore.QRectF(x0, y0, x1 - x0, y1 - y0)
        self.update()

    @property
    def image(self) -> QtGui.QImage | None:
        """The image shown (None: nothing)."""
        return self._image

    def boundingRect(self):
        return QtCore.QRectF(self._rect)

    def mouseClickEvent(self, ev):
        ev.ignore()

    def device_rect(self, transform: QtGui.QTransform) -> QtCore.QRect | None:
        """The whole pixels the image covers under ``transform`` (item to device), or None."""
        if self._image is None or self._rect.isEmpty():
            return None
        target = transform.mapRect(self._rect)
        if not (abs(target.width()) < _FAR and abs(target.height()) < _FAR):
            return None
        left, top = round(target.left()), round(target.top())
        right, bottom = round(target.right()), round(target.bottom())
        if right <= left or bottom <= top:
            return None
        return QtCore.QRect(left, top, right - left, bottom - top)

    def paint(self, p, option, widget=None):
        rect = self.device_rect(p.transform())
        if rect is None:
            return
        p.save()
        p.resetTransform()
        p.setRenderHint(QtGui.QPainter.RenderHint.SmoothPixmapTransform, False)
        p.drawImage(rect, self._image)
        p.restore()
