"""The data: one scatter per class."""

from __future__ import annotations

import pyqtgraph as pg
from PySide6 import QtWidgets

from .... import style
from ..items import PassiveScatter, style_scatter
from ..legend import marker_sample
from .base import Layer, LegendEntry

__all__ = ["DataLayer"]


class DataLayer(Layer):
    """The points of class +1 and of class −1, re-set only when the data set changes.

    While the data stand still the scatters paint from Qt's device-coordinate
    item cache; while they change (an edit, a drag) they paint directly, since
    a cache would be redrawn and blitted on every change (:meth:`set_cached`).
    """

    name = "data"
    redraw_on = "data"

    def create(self, view_box) -> None:
        super().create(view_box)
        self.scatter_pos = self.add("scatter_pos", PassiveScatter(), 10, visible=True)
        self.scatter_neg = self.add("scatter_neg", PassiveScatter(), 10, visible=True)

    def apply_scale(self, scale) -> None:
        edge = pg.mkPen(style.BACKGROUND, width=max(1.0, scale.line * 0.4))
        self.styles = {
            "pos": (style.POS_SYMBOL, scale.marker, style.POS_COLOR, edge),
            "neg": (style.NEG_SYMBOL, scale.marker, style.NEG_COLOR, edge),
        }
        style_scatter(self.scatter_pos, *self.styles["pos"])
        style_scatter(self.scatter_neg, *self.styles["neg"])

    def update(self, frame) -> None:
        ds = frame.workspace.dataset
        X, y = ds.X, ds.y
        self.scatter_pos.setData(pos=X[y == 1])
        self.scatter_neg.setData(pos=X[y == -1])

    def set_cached(self, cached: bool) -> None:
        """Paint the scatters from Qt's item cache (True) or directly (False)."""
        mode = QtWidgets.QGraphicsItem.CacheMode
        wanted = mode.DeviceCoordinateCache if cached else mode.NoCache
        for item in (self.scatter_pos, self.scatter_neg):
            if item.cacheMode() != wanted:
                item.setCacheMode(wanted)

    def legend_entries(self, frame) -> list[LegendEntry]:
        return [LegendEntry("pos", style.POS_NAME, lambda: marker_sample(*self.styles["pos"])),
                LegendEntry("neg", style.NEG_NAME, lambda: marker_sample(*self.styles["neg"]))]
