"""The origin's axes: the lines x = 0 and y = 0."""

from __future__ import annotations

import pyqtgraph as pg

from .... import style
from .base import Layer
from .draw import rgba

__all__ = ["OriginLayer"]


class OriginLayer(Layer):
    """The two axes through the origin, above the regions (which are opaque)."""

    name = "origin"
    redraw_on = "never"

    def create(self, view_box) -> None:
        self.axis_x = self.add("axis_x", pg.InfiniteLine(pos=0, angle=0, movable=False), -24,
                               visible=True)
        self.axis_y = self.add("axis_y", pg.InfiniteLine(pos=0, angle=90, movable=False), -24,
                               visible=True)

    def apply_scale(self, scale) -> None:
        pen = pg.mkPen(rgba(style.current().foreground, 110), width=max(1.0, scale.line * 0.5))
        self.axis_x.setPen(pen)
        self.axis_y.setPen(pen)
