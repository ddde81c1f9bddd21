"""The examined sample: a ring around the point the current step looked at."""

from __future__ import annotations

import pyqtgraph as pg

from .... import style
from ..items import Marks
from ..legend import marker_sample
from .base import Layer, LegendEntry
from .draw import rgba

__all__ = ["ExaminedLayer"]


class ExaminedLayer(Layer):
    """A yellow ring around the sample of the current step (every frame of a run)."""

    name = "examined"
    item_names = ("highlight",)
    switches = ("highlight",)
    redraw_on = "event"

    def create(self, view_box) -> None:
        self.highlight = self.add("highlight", Marks(), 8)

    def apply_scale(self, scale) -> None:
        self.brush = rgba(style.current().highlight_color, 150)
        self.size = scale.marker
        self.highlight.set_style("o", scale.marker * 2.2, self.brush,
                                 pg.mkPen(style.current().foreground,
                                          width=max(1.0, scale.line * 0.5)))

    def update(self, frame) -> None:
        ws = frame.workspace
        ds = ws.dataset
        ev = ws.current_event if ws.running else None
        shown = ev is not None and frame.switches["highlight"] and ev.index < ds.n
        if shown:
            self.highlight.setData(pos=ds.X[ev.index : ev.index + 1])
        self.highlight.setVisible(shown)

    def legend_entries(self, frame) -> list[LegendEntry]:
        ws = frame.workspace
        if not (ws.capabilities.steps and frame.switches["highlight"]
                and ws.current_event is not None):
            return []
        # the legend's ring is smaller than the one on the data, with a hairline edge
        return [LegendEntry("examined", "examined sample", lambda: marker_sample(
            "o", min(self.size * 1.6, 18), self.brush, pg.mkPen(style.current().foreground)))]
