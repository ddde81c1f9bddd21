"""The maximum-margin hyperplane of the data, its band and its support vectors."""

from __future__ import annotations

import numpy as np
import pyqtgraph as pg
from PySide6 import QtCore, QtWidgets

from .... import style
from ..geometry import unit_normal
from ..items import PassiveScatter, style_scatter
from .base import Layer, LegendEntry, line_rows
from .draw import set_band, set_line, style_band

__all__ = ["MaxMarginLayer"]


class MaxMarginLayer(Layer):
    """The data's maximum-margin hyperplane (when separable): redrawn with the data or view."""

    name = "max_margin"
    item_names = ("mm_fill", "mm_edges", "mm_line", "mm_support")
    switches = ("max_margin",)
    caption_words = {"band": ("mm_fill", "mm_edges")}

    def create(self, view_box) -> None:
        self.mm_fill = self.add("mm_fill", QtWidgets.QGraphicsPathItem(), -20)
        self.mm_edges = self.add("mm_edges", pg.PlotCurveItem(connect="pairs", antialias=True), -19)
        self.mm_line = self.add("mm_line", pg.PlotCurveItem(antialias=True), -18)
        self.mm_support = self.add("mm_support", PassiveScatter(), 9)
        self.mm_support.setCacheMode(QtWidgets.QGraphicsItem.CacheMode.DeviceCoordinateCache)

    def apply_scale(self, scale) -> None:
        lw = scale.line
        style_band(self.mm_fill, self.mm_edges, style.current().maxmargin_color, 40, pg.mkPen(
            style.current().maxmargin_color, width=lw * 0.6, style=QtCore.Qt.PenStyle.DashLine))
        self.pen = pg.mkPen(style.current().maxmargin_color, width=lw)
        self.mm_line.setPen(self.pen)
        style_scatter(self.mm_support, "o", scale.marker * 2.0, None,
                      pg.mkPen(style.current().maxmargin_color, width=lw))

    def _hyperplane(self, frame):
        mm = frame.workspace.max_margin if frame.switches["max_margin"] else None
        ok = mm is not None and mm.separable and np.all(np.isfinite(mm.coef))
        return mm, (unit_normal(mm.coef, float(mm.intercept)) if ok else None)

    def cache_key(self, frame) -> tuple | None:
        mm, hyper = self._hyperplane(frame)
        return None if hyper is None else (mm, frame.rect)

    def update(self, frame) -> None:
        mm, hyper = self._hyperplane(frame)
        if hyper is None:
            self.hide()
            return
        rect = frame.rect
        set_line(self.mm_line, hyper, rect)
        set_band(self.mm_fill, self.mm_edges, hyper, float(mm.margin), rect)
        self.mm_support.setData(pos=frame.workspace.dataset.X[np.asarray(mm.support)])
        self.mm_support.setVisible(True)

    def legend_entries(self, frame) -> list[LegendEntry]:
        return line_rows(frame.switches["max_margin"] and ("mm", "max-margin hyperplane", self.pen))
