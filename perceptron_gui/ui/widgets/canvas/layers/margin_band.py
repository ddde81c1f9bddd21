"""The current hyperplane's margin band (|n·x - offset| <= margin), when the margin is positive."""

from __future__ import annotations

import math

import pyqtgraph as pg
from PySide6 import QtCore

from .... import style
from .base import Layer, LegendEntry, line_rows
from .draw import add_band, rgba, set_band, style_band

__all__ = ["MarginBandLayer"]


class MarginBandLayer(Layer):
    """A faint band of half-width the geometric margin around the current boundary."""

    name = "margin_band"
    item_names = ("band_fill", "band_edges")
    switches = ("margin_band",)
    caption_words = {"band": ("band_fill", "band_edges")}

    def create(self, view_box) -> None:
        self.band_fill, self.band_edges = add_band(self, -22, -21)

    def apply_scale(self, scale) -> None:
        color = style.current().boundary_color
        self.pen = style_band(self.band_fill, self.band_edges, color, 20, pg.mkPen(
            rgba(color, 150), width=scale.line * 0.6, style=QtCore.Qt.PenStyle.DashLine))

    def update(self, frame) -> None:
        hyper = frame.hyperplane
        margin = math.nan
        # a sample the model gets wrong leaves no positive margin: the readouts (the
        # margin's one source) are read only when every sample is on its side
        if (hyper is not None and frame.switches["margin_band"]
                and not frame.workspace.misclassified().size):
            margin = frame.readouts.margin
        set_band(self.band_fill, self.band_edges, hyper, margin, frame.rect)

    def legend_entries(self, frame) -> list[LegendEntry]:
        caps = frame.workspace.capabilities
        return line_rows(frame.switches["margin_band"] and not caps.nonlinear_kernel
                         and ("band", "margin band", self.pen))
