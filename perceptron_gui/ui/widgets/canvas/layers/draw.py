"""Small drawing helpers the layers share: segments, arrows, bands, paths and colours."""

from __future__ import annotations

import math

import numpy as np
import pyqtgraph as pg
import shiboken6
from PySide6 import QtCore, QtGui, QtWidgets

from .... import style
from ....style import font
from ..geometry import clip_line, clip_polygon
from ..items import Lines
from ..items.pyqtgraph_internals import turn_arrow_head
from ..legend import rgba
from ..raster import PixelGrid

__all__ = ["ARROW_Z", "add_arrow", "add_band", "arrow_head_style", "font", "item_alive",
           "over_background", "path", "rgba", "set_arrow", "set_band", "set_segments", "show",
           "style_arrow", "style_band", "view_grid"]


def item_alive(item) -> bool:
    """Whether ``item``'s C++ object still exists (the canvas's scene deletes them on close)."""
    return shiboken6.isValid(item)


def view_grid(view_box, view) -> PixelGrid | None:
    """The screen pixels of ``view_box`` showing ``view = (x0, x1, y0, y1)``, as a grid
    (None while the view box is not on screen)."""
    box = view_box.mapRectToDevice(view_box.rect())  # the view range spans it (pyqtgraph
    if box is None:  # maps it so at the next paint; its view transform may be older now)
        return None
    return PixelGrid.of_view(view, (box.left(), box.top(), box.right(), box.bottom()))


def over_background(color) -> tuple[int, int, int, int]:
    """The opaque colour of the translucent RGBA ``color`` painted over the canvas background."""
    bg = pg.mkColor(style.current().background)
    a = color[3] / 255.0
    return (*(round(c * a + b * (1.0 - a)) for c, b in zip(
        color[:3], (bg.red(), bg.green(), bg.blue()), strict=True)), 255)


def path(polygons) -> QtGui.QPainterPath:
    """A painter path of closed polygons (each an (m, 2) array; fewer than 3 vertices skipped)."""
    out = QtGui.QPainterPath()
    for poly in polygons:
        if len(poly) >= 3:
            out.addPolygon(QtGui.QPolygonF([QtCore.QPointF(float(x), float(y)) for x, y in poly]))
            out.closeSubpath()
    return out


def show(visible: bool, *items) -> None:
    """Show or hide every item."""
    for item in items:
        item.setVisible(bool(visible))


def set_line(item, hyper, rect, visible: bool = True) -> None:
    """Draw the line ``hyper = (n, off)`` clipped to ``rect``; hide it for None or off ``rect``."""
    seg = clip_line(*hyper, rect) if hyper is not None else None
    set_segments(item, [] if seg is None else [seg], visible)


def set_segments(item, segments, visible: bool) -> None:
    """Draw ``segments`` (each (2, 2); several need ``connect="pairs"``), or hide the item."""
    if not visible or not segments:
        item.setVisible(False)
        return
    pts = np.concatenate(segments)
    item.setData(pts[:, 0], pts[:, 1])
    item.setVisible(True)


def arrow_head_style(line_width: float) -> dict:
    """The ``ArrowItem`` style of an arrow drawn with lines ``line_width`` wide."""
    return dict(headLen=line_width * 6 + 4, headWidth=line_width * 2.5 + 2, tailLen=None,
                pxMode=True)


#: Depth of the arrows (w, the update): above the points (z 10-14), their labels and marks.
ARROW_Z = 20.0


def add_arrow(layer, prefix: str, z: float) -> tuple:
    """Add an arrow's ``{prefix}_halo``, ``_line`` and ``_head`` items to ``layer``, at ``z``."""
    return (layer.add(f"{prefix}_halo", Lines(), z), layer.add(f"{prefix}_line", Lines(), z + 0.1),
            layer.add(f"{prefix}_head", pg.ArrowItem(), z + 0.2))


def style_arrow(halo, line, head, color, line_width: float):
    """Style an arrow of :func:`add_arrow` (its halo the background's colour); return its pen."""
    background = style.current().background
    pen = pg.mkPen(color, width=line_width * 1.25)
    line.setPen(pen)
    halo.setPen(pg.mkPen(background, width=line_width * 1.25 + 2.5))
    head.setStyle(pen=pg.mkPen(background, width=1.5), brush=color, **arrow_head_style(line_width))
    return pen


def set_arrow(line, head, start, end, pixel_size, halo=None) -> None:
    """Draw the arrow from ``start`` to ``end`` with a line item and an ``ArrowItem`` head
    (left off when longer than the arrow); ``halo`` gets the same segment."""
    start = np.asarray(start, dtype=np.float64)
    end = np.asarray(end, dtype=np.float64)
    line.setData([start[0], end[0]], [start[1], end[1]])
    if halo is not None:
        halo.setData([start[0], end[0]], [start[1], end[1]])
    head.setPos(float(end[0]), float(end[1]))
    sx, sy = pixel_size
    v = end - start
    length_px = math.hypot(v[0] / sx, v[1] / sy) if sx > 0 and sy > 0 else 0.0
    if length_px > 0:
        # ArrowItem: angle 0 points the head LEFT, angles turn clockwise on screen
        # (y down), so a screen direction phi needs angle phi + 180 degrees.
        phi = math.degrees(math.atan2(-v[1] / sy, v[0] / sx))
        turn_arrow_head(head, phi + 180.0)
    head.setVisible(bool(length_px >= head.opts["headLen"]))


def add_band(layer, z_fill: float, z_edges: float) -> tuple:
    """Add a band's ``band_fill`` (a path) and ``band_edges`` (:class:`Lines`) to ``layer``."""
    return (layer.add("band_fill", QtWidgets.QGraphicsPathItem(), z_fill),
            layer.add("band_edges", Lines(connect="pairs"), z_edges))


def style_band(fill, edges, color, alpha: int, pen):
    """Fill a band with ``color`` at ``alpha`` (no outline) and draw its edges with ``pen``."""
    fill.setBrush(QtGui.QBrush(rgba(color, alpha)))
    fill.setPen(QtGui.QPen(QtCore.Qt.PenStyle.NoPen))
    edges.setPen(pen)
    return pen


def set_band(fill, edges, hyperplane, half_width: float, rect) -> None:
    """A band ``|n·x - offset| <= half_width``: its fill clipped to ``rect``, and its edges;
    hidden without a hyperplane or a positive ``half_width``."""
    if hyperplane is None or not (math.isfinite(half_width) and half_width > 0):
        show(False, fill, edges)
        return
    n, off = hyperplane
    poly = clip_polygon(rect, [(n, off - half_width), (-n, -(off + half_width))])
    fill.setPath(path([poly]))
    segs = [clip_line(n, off - half_width, rect), clip_line(n, off + half_width, rect)]
    set_segments(edges, [s for s in segs if s is not None], True)
    fill.setVisible(True)

