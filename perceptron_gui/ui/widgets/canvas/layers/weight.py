"""The weight vector w: an arrow from the origin (or the means' midpoint), labelled "w".

A w longer than the view is cut at its edge, the label saying where it ends ("w at
(…)"): the view holds the data, not the arrow.
"""

from __future__ import annotations

import math

import numpy as np
import pyqtgraph as pg

from .....core.text import fmt_vec
from .... import style
from ..geometry import clip_arrow, fit_arrow, segment_in_box
from .base import Layer, LegendEntry, line_rows
from .draw import ARROW_Z, add_arrow, font, set_arrow, show, style_arrow

__all__ = ["WeightLayer"]


class WeightLayer(Layer):
    """``w`` as an arrow from the origin (linear learners), its label beside its middle."""

    name = "weight"
    item_names = ("weight_halo", "weight_line", "weight_head", "weight_label")
    switches = ("weight",)
    caption_words = {"arrow": ("weight_head",)}
    #: The room a head cut at the view's edge leaves there, in pixels (set with the scale).
    margin_px = 14.0
    #: The label's text: "w", or where a w cut at the view's edge ends.
    text = "w"

    def create(self, view_box) -> None:
        self.weight_halo, self.weight_line, self.weight_head = add_arrow(self, "weight", ARROW_Z)
        self.weight_label = self.add("weight_label", pg.TextItem("w", anchor=(-0.15, 1.0)),
                                     ARROW_Z + 0.2)

    def apply_scale(self, scale) -> None:
        self.margin_px = scale.line * 6 + 8  # the head's length (arrow_head_style), and air
        self.pen = style_arrow(self.weight_halo, self.weight_line, self.weight_head,
                               style.current().weight_color, scale.line)
        self.weight_label.setFont(font(scale.font_pt, bold=True))
        self.weight_label.setColor(style.current().weight_color)

    def update(self, frame) -> None:
        arrow, text = None, "w"
        if frame.hyperplane is not None and frame.switches["weight"]:
            w = np.asarray(frame.weights[0], dtype=np.float64)
            if frame.workspace.capabilities.arrow_from_means:
                arrow = self._means_arrow(frame, w)
            else:
                arrow = np.array([np.zeros(2), w])
                end = clip_arrow(arrow[0], w, frame.view, frame.pixel_size, self.margin_px)
                if end is not None and not np.array_equal(end, w):
                    text = f"w at {fmt_vec(w)}"
                    arrow = np.array([arrow[0], end])
        visible = arrow is not None
        if visible:
            if self.text != text:
                self.text = text
                self.weight_label.setText(text)
            set_arrow(self.weight_line, self.weight_head, arrow[0], arrow[1], frame.pixel_size,
                      self.weight_halo)
            self._place_label(arrow[0], arrow[1], frame)
        else:
            self.weight_head.setVisible(False)
        show(visible, self.weight_line, self.weight_halo, self.weight_label)

    @staticmethod
    def _means_arrow(frame, w):
        """A w of any length (LDA's Σ⁻¹(μ₊ − μ₋)) from the means' midpoint, a quarter view long."""
        x0, x1, y0, y1 = frame.view
        ws = frame.workspace
        means = ws.learner.means_ if ws.has_model else None
        means = None if means is None else np.asarray(means, dtype=np.float64)
        start = (means.mean(axis=0) if means is not None and np.isfinite(means).all()
                 else np.array([(x0 + x1) / 2, (y0 + y1) / 2]))
        length = 0.25 * min(x1 - x0, y1 - y0)
        return fit_arrow(start, w, length, frame.view)

    def _place_label(self, start, end, frame) -> None:
        """Put "w" beside the middle of the visible part of the arrow (never off the view)."""
        x0, x1, y0, y1 = frame.view
        w = end - start
        span = segment_in_box(start, w, (x0, y0), (x1, y1), 0.0, 1.0)  # the part in view
        mid = start + 0.5 * (1.0 if span is None else span[1]) * w
        self.weight_label.setPos(float(mid[0]), float(mid[1]))
        # shift the text to the left of the arrow, on screen (y down)
        sx, sy = frame.pixel_size
        if sx > 0 and sy > 0:
            d = np.array([w[0] / sx, -w[1] / sy])
            norm = math.hypot(d[0], d[1])
            if norm > 0 and math.isfinite(norm):
                left = np.array([d[1], -d[0]]) / norm  # the screen direction 90° anticlockwise
                self.weight_label.setAnchor((0.5 - 0.8 * left[0], 0.5 - 0.8 * left[1]))

    def legend_entries(self, frame) -> list[LegendEntry]:
        return line_rows(frame.switches["weight"] and frame.workspace.capabilities.linear
                         and ("w", "weight vector w", self.pen))
