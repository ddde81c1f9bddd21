"""The weight-space view's marks of ``w*`` and of a current state past the view's edge."""

from __future__ import annotations

import math

import numpy as np
import pyqtgraph as pg

from ....core.text import fmt_vec
from ... import style
from ..plots.items import note_font
from .geometry import Picture, off_view

__all__ = ["LABEL_GAP_PX", "StarMarks"]

#: The least gap between the w* label and the current w (pixels, at NORMAL).
LABEL_GAP_PX = 6.0


class StarMarks:
    """The ``w*`` arrow (or the chart's centre cross) with its label, kept away from the
    current ``w_k``, and the pointer from the view's edge at a state past it."""

    def __init__(self, plot_item):
        self.star = pg.PlotCurveItem(connect="pairs")
        self.label = pg.TextItem("w*", anchor=(0.0, 1.0))
        self.far = pg.ArrowItem(tailLen=0, headLen=16)
        self.far_label = pg.TextItem(anchor=(0.5, 0.5))
        for far in (self.far, self.far_label):
            far.setZValue(12)
            far.setVisible(False)
            plot_item.addItem(far, ignoreBounds=True)

    def restyle(self, scale) -> None:
        palette = style.current()
        self.star.setPen(pg.mkPen(palette.maxmargin_color, width=scale.line))
        self.label.setColor(palette.maxmargin_color)
        self.label.setFont(note_font(scale))
        self.far.setStyle(headLen=scale.marker * 1.4, pen=pg.mkPen(palette.foreground),
                          brush=pg.mkBrush(palette.highlight_color))
        self.far_label.setColor(palette.foreground)
        self.far_label.setFont(note_font(scale))

    def hide_far(self) -> None:
        self.far.setVisible(False)
        self.far_label.setVisible(False)

    def draw_star(self, pic: Picture, x_range, y_range, px: float, scale) -> None:
        """Draw ``w*``: the cross at the chart's centre, or the arrow from 0 along ``w*``
        short enough for its head and label to stay in the box (``px``: a pixel's size)."""
        half = (x_range[1] - x_range[0]) * 0.5
        visible = pic.chart or pic.w_star is not None
        self.star.setVisible(visible)
        self.label.setVisible(visible)
        if pic.chart:
            r = 0.04 * half
            self.star.setData([-r, r, 0, 0], [0, 0, -r, r])
            d = np.sqrt(0.5)
            self._place_label(pic, np.zeros(2), r, [np.array([d, d]), np.array([-d, d]),
                                                    np.array([d, -d]), np.array([-d, -d])],
                              px, scale)
            return
        if not visible:
            return
        head = 0.06 * half
        u = pic.w_star
        length = min(0.8 * half, self._room(u, head, x_range, y_range, px, scale))
        tip = u * length
        back = tip - head * u
        side = head * 0.5 * np.array([-u[1], u[0]])
        xs = [0, tip[0], tip[0], back[0] + side[0], tip[0], back[0] - side[0]]
        ys = [0, tip[1], tip[1], back[1] + side[1], tip[1], back[1] - side[1]]
        self.star.setData(xs, ys)
        n = np.array([-u[1], u[0]])
        self._place_label(pic, tip, head, [u, n, -n], px, scale)

    def _room(self, u: np.ndarray, head: float, x_range, y_range, px: float, scale) -> float:
        """How long the arrow along ``u`` may be for its head, gap and label to end in the box."""
        rect = self.label.boundingRect()
        gap = LABEL_GAP_PX * scale.line / style.NORMAL.line * px
        extra = head + gap + math.hypot(rect.width(), rect.height()) * px
        reach = math.inf
        for c, (lo, hi) in zip(u, (x_range, y_range), strict=True):
            if c > 0 and hi > 0:
                reach = min(reach, hi / c)
            elif c < 0 and lo < 0:
                reach = min(reach, lo / c)
        if not math.isfinite(reach):
            return 0.8 * max(x_range[1] - x_range[0], 0.0) * 0.5
        return max(reach - extra, reach / 3)

    def _place_label(self, pic: Picture, at: np.ndarray, reach: float, sides: list,
                     px: float, scale) -> None:
        """Put the label past ``reach`` of ``at`` (its near edge facing it: never over the
        arrowhead or the cross) on the first of ``sides`` clear of ``w_k``, else the farthest."""
        rect = self.label.boundingRect()  # in pixels (the item ignores the zoom)
        half = np.array([rect.width(), rect.height()]) * 0.5 * px
        gap = LABEL_GAP_PX * scale.line / style.NORMAL.line * px
        now = pic.points[-1]
        clear = scale.marker * 0.65 * px + gap  # the current state's radius and a gap
        best, best_d = None, -1.0
        for d in sides:
            d = np.asarray(d, np.float64)
            centre = at + d * (reach + gap) + d * half  # the label's middle, roughly
            far = np.hypot(*(centre - now)) - np.hypot(*half) if np.isfinite(now).all() \
                else np.inf
            if far >= clear:
                best = d
                break
            if far > best_d:
                best, best_d = d, far
        d = best
        big = float(np.abs(d).max())
        self.label.setAnchor((0.5 - 0.5 * d[0] / big, 0.5 + 0.5 * d[1] / big))
        self.label.setPos(*(at + d * (reach + gap)))

    def draw_far(self, pic: Picture | None, x_range, y_range) -> None:
        """Point from the view's edge at the current state when it lies past it."""
        far = None if pic is None else off_view(pic.points[-1], x_range, y_range)
        self.far.setVisible(far is not None)
        self.far_label.setVisible(far is not None)
        if far is None:
            return
        (q, u), p = far, pic.points[-1]
        self.far.setPos(*q)
        self.far.setStyle(angle=float(np.degrees(np.arctan2(-u[1], u[0]))) - 180.0)
        self.far_label.setText(f"{'w₀' if pic.trajectory.count[-1] == 0 else 'w'} "
                               f"at {fmt_vec(p, 1)}")
        # the label inside, behind the arrow
        self.far_label.setAnchor((0.5 + 0.5 * float(u[0]), 0.5 - 0.5 * float(u[1])))
        self.far_label.setPos(*(q - 0.07 * (x_range[1] - x_range[0]) * u))
