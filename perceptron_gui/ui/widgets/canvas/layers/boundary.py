"""The linear decision boundary and the two decision regions (exact half-planes)."""

from __future__ import annotations

import pyqtgraph as pg
from PySide6 import QtCore, QtGui, QtWidgets

from .... import style
from ..geometry import clip_polygon
from ..items import Lines
from .base import Layer, LegendEntry, line_rows
from .draw import over_background, path, set_line, show

__all__ = ["BoundaryLayer", "boundary_pen", "region_colors"]


def region_colors():
    """The regions' opaque colours (+1, −1): the palette's tints composited over its background."""
    return over_background(style.current().pos_region), over_background(style.current().neg_region)


def boundary_pen(scale):
    """The pen of the decision boundary (a line, or a kernel's contour)."""
    return pg.mkPen(style.current().boundary_color, width=scale.line)


class BoundaryLayer(Layer):
    """The line ``w·x + b = 0`` and the half-planes on either side, clipped to the view (opaque:
    under everything, and an opaque fill costs a fraction of a blended one)."""

    name = "boundary"
    item_names = ("region_pos", "region_neg", "boundary")
    switches = ("boundary", "regions")

    def create(self, view_box) -> None:
        self.region_pos = self.add("region_pos", QtWidgets.QGraphicsPathItem(), -25)
        self.region_neg = self.add("region_neg", QtWidgets.QGraphicsPathItem(), -25)
        for item in (self.region_pos, self.region_neg):
            item.setPen(QtGui.QPen(QtCore.Qt.PenStyle.NoPen))
        self.boundary = self.add("boundary", Lines(), -12)

    def apply_scale(self, scale) -> None:
        self.pen = boundary_pen(scale)
        self.boundary.setPen(self.pen)
        for item, color in zip((self.region_pos, self.region_neg), region_colors(), strict=True):
            item.setBrush(QtGui.QBrush(QtGui.QColor(*color)))

    def update(self, frame) -> None:
        hyper, rect, on = frame.hyperplane, frame.rect, frame.switches
        set_line(self.boundary, hyper, rect, on["boundary"])
        regions = hyper is not None and on["regions"]
        if regions:
            n, off = hyper
            self.region_pos.setPath(path([clip_polygon(rect, [(n, off)])]))
            self.region_neg.setPath(path([clip_polygon(rect, [(-n, -off)])]))
        show(regions, self.region_pos, self.region_neg)

    def legend_entries(self, frame) -> list[LegendEntry]:
        return line_rows(frame.switches["boundary"] and ("boundary", "decision boundary", self.pen))
