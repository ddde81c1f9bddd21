"""The points a demo's caption names ("at (2.5, 0.6) …"): a target and its coordinates."""

from __future__ import annotations

import numpy as np
import pyqtgraph as pg

from .....core.named_points import named_points
from .....core.text import fmt_vec
from .... import style
from ..items import Marks
from ..legend import marker_sample
from .base import Layer, LegendEntry
from .draw import font, rgba

__all__ = ["NamedPointsLayer"]

#: The most points a caption names that are labelled (each its own text item).
MAX_LABELS = 6


class NamedPointsLayer(Layer):
    """A ring with a cross at each point the current caption names, and its coordinates."""

    name = "named"
    item_names = ("named_marks", *(f"named_label_{k}" for k in range(MAX_LABELS)))
    redraw_on = "event"  # a caption changes without the model: every frame (it is cheap)

    def __init__(self):
        super().__init__()
        self._drawn_points: tuple | None = None  # what the items show

    def hide(self, *names: str) -> None:
        super().hide(*names)
        self._drawn_points = None

    def create(self, view_box) -> None:
        self.marks = self.add("named_marks", Marks(), 1500)
        # above and right of its point, every other one below: two close points' labels
        # (the demo's (4.9, 1.6) and (5, 1.75)) do not cover each other
        self.labels = [self.add(f"named_label_{k}",
                                pg.TextItem(anchor=(-0.15, 1.1) if k % 2 else (-0.15, -0.1)),
                                1500) for k in range(MAX_LABELS)]

    def apply_scale(self, scale) -> None:
        pal = style.current()
        self.pen = pg.mkPen(pal.foreground, width=max(1.5, scale.line * 0.8))
        self.marks.set_style("crosshair", scale.marker * 2.0, None, self.pen)
        for label in self.labels:
            label.setFont(font(scale.font_pt * 0.9))
            label.setColor(pal.foreground)
            label.fill = pg.mkBrush(rgba(pal.background, 210))

    def needed(self, frame) -> bool:
        return bool(named_points(frame.workspace)) or super().needed(frame)

    def showing(self, frame) -> bool:
        return bool(named_points(frame.workspace))

    def update(self, frame) -> None:
        points = named_points(frame.workspace)
        if points == self._drawn_points:
            return  # an event layer redraws at every frame: only a new caption changes it
        self._drawn_points = points
        was = self.marks.isVisible()
        if not points:
            self.hide()
            self._drawn_points = ()  # hidden for this caption
            if was:
                self.changed()  # the legend drops its row
            return
        self.marks.setData(pos=np.array(points, dtype=np.float64))
        self.marks.setVisible(True)
        for k, label in enumerate(self.labels):
            if k < len(points):
                label.setText(fmt_vec(points[k]))
                label.setPos(*points[k])
            label.setVisible(k < len(points))
        if not was:
            self.changed()  # the legend lists it (a caption's step may change nothing else)

    def legend_entries(self, frame) -> list[LegendEntry]:
        if not named_points(frame.workspace):
            return []
        return [LegendEntry("named", "a point the caption names",
                            lambda: marker_sample("crosshair", 12.0, None, self.pen))]
