"""An exercise on the canvas: the student's line and its handles, their predicted w, their point.

"Be the learner": the line set, with its margin band.  "Predict, then reveal":
the ``w`` and line predicted for the next update, the point picked, every
point's number.  A drag goes to the attempt (``Attempt.drag``).
"""

from __future__ import annotations

import math

import numpy as np
import pyqtgraph as pg
from PySide6 import QtCore, QtGui

from .....core.exercises import attempt_of
from .... import style
from ..geometry import unit_normal
from ..items import Lines
from ..items.line_handles import LineHandles
from .base import Layer, LegendEntry, line_rows
from .draw import ARROW_Z, add_band, font, rgba, set_band, set_line, set_segments, show, style_band

__all__ = ["ExerciseLayer"]


def _asks_class(attempt) -> bool:
    """Whether ``attempt`` predicts the multiclass perceptron (a point and a class, no w)."""
    return attempt.predict is not None and attempt.predict.asks_rival


class ExerciseLayer(Layer):
    """The student's line (or predicted line and w), its margin band, handles and point."""

    name = "exercise"
    redraw_on = "event"  # the student's line changes without the run
    switches = ("exercise",)
    caption_words = {"band": ("band_fill", "band_edges")}
    item_names = ("band_fill", "band_edges", "line", "guess_w", "chosen_label", "drag_anchor",
                  "drag_head")

    def needed(self, frame) -> bool:
        """Made for a level being tried, or data."""
        return attempt_of(frame.workspace) is not None or super().needed(frame)

    def create(self, view_box) -> None:
        self._attempt = None
        self.band_fill, self.band_edges = add_band(self, -19, -18)
        self.line = self.add("line", Lines(), -4)
        self.guess_w = self.add("guess_w", Lines(), ARROW_Z + 0.2)
        self.chosen_label = self.add("chosen_label", pg.TextItem(anchor=(-0.15, 1.1)), 27)
        self.numbers: list[pg.TextItem] = []  # "1", "2" … beside the points (predict levels)
        self._number_style = (QtGui.QFont(), pg.mkColor("k"))
        self.handles = LineHandles(self, "drag", 31)
        self.handles.moved.connect(lambda w, b: self._dragged(w, b, False))
        self.handles.released.connect(lambda w, b: self._dragged(w, b, True))

    def apply_scale(self, scale) -> None:
        pal = style.current()
        color = pal.delta_color
        self.pen = pg.mkPen(color, width=scale.line * 1.2, style=QtCore.Qt.PenStyle.DashLine)
        self.guess_pen = pg.mkPen(pal.weight_color, width=scale.line * 1.2,
                                  style=QtCore.Qt.PenStyle.DashLine)
        style_band(self.band_fill, self.band_edges, color, 30, pg.mkPen(
            rgba(color, 160), width=scale.line * 0.6, style=QtCore.Qt.PenStyle.DotLine))
        self.guess_w_pen = pg.mkPen(pal.weight_color, width=scale.line)
        self.learner_w_pen = pg.mkPen(color, width=scale.line * 0.8)
        self.chosen_label.setFont(font(scale.font_pt, bold=True))
        self.chosen_label.setColor(pal.foreground)
        self.chosen_label.fill = pg.mkBrush(rgba(pal.background, 215))
        number_font = font(scale.font_pt * 0.9)
        self._number_style = (number_font, pg.mkColor(pal.foreground))
        for item in self.numbers:
            item.setFont(number_font)
            item.setColor(pal.foreground)
        self.handle_colors = (color, pal.weight_color, pal.foreground, scale.line,
                              scale.marker * 1.3)

    def showing(self, frame) -> bool:
        attempt = attempt_of(frame.workspace)
        return (attempt is not None and frame.switches["exercise"]
                and (attempt.line is not None or attempt.guess is not None
                     or _asks_class(attempt)))

    def update(self, frame) -> None:
        attempt = self._attempt = attempt_of(frame.workspace)
        if not self.drawing(self.showing(frame)):
            return
        learner = attempt.level.kind == "learner"
        if not learner and attempt.guess is None:  # m classes' weights: the point alone
            self.handles.hide()
            show(False, self.line, self.guess_w, self.band_fill, self.band_edges)
            self._chosen(frame, attempt.chosen)
            self._number_points(frame)
            return
        w1, w2, b = attempt.line if learner else attempt.guess
        color, weight, fg, width, size = self.handle_colors
        self.handles.set_color(color if learner else weight, fg, width, size)
        translate = learner or bool(frame.workspace.params.get("fit_intercept", True))
        self.handles.set_line((w1, w2), b, frame, translate=translate)
        self.line.setPen(self.pen if learner else self.guess_pen)
        hyper = unit_normal(np.array([w1, w2]), b)
        set_line(self.line, hyper, frame.rect)
        self.guess_w.setPen(self.learner_w_pen if learner else self.guess_w_pen)
        set_segments(self.guess_w, [np.array([[0.0, 0.0], [w1, w2]])], True)  # w to its head
        if learner:
            self.chosen_label.setVisible(False)
            show(False, *self.numbers)
        else:
            self._chosen(frame, attempt.chosen)
            self._number_points(frame)
        ds = frame.workspace.dataset
        margin = (float(np.min(ds.y * (ds.X @ hyper[0] - hyper[1])))
                  if learner and hyper is not None and ds.n else math.nan)
        set_band(self.band_fill, self.band_edges, hyper, margin, frame.rect)

    def _chosen(self, frame, index) -> None:
        ds = frame.workspace.dataset
        shown = index is not None and 0 <= index < ds.n
        if shown:
            self.chosen_label.setText(f"your answer: point {index + 1}")
            self.chosen_label.setPos(float(ds.X[index, 0]), float(ds.X[index, 1]))
        self.chosen_label.setVisible(shown)

    def _number_points(self, frame) -> None:
        """Each point's number (1-based, as the panel's "Point #" asks) beside it."""
        X = frame.workspace.dataset.X
        font, color = self._number_style
        while len(self.numbers) < len(X):
            item = self.add(f"number_{len(self.numbers) + 1}", pg.TextItem(anchor=(-0.25, 0.5)), 26)
            item.setFont(font)
            item.setColor(color)
            self.numbers.append(item)
        for i, item in enumerate(self.numbers):
            if i < len(X):
                item.setText(str(i + 1))
                item.setPos(float(X[i, 0]), float(X[i, 1]))
            item.setVisible(i < len(X))

    def _dragged(self, w, b: float, final: bool) -> None:
        if self._attempt is not None:
            self._attempt.drag(w, b, final)

    def legend_entries(self, frame) -> list[LegendEntry]:
        if not self.showing(frame) or attempt_of(frame.workspace).guess is None and \
                attempt_of(frame.workspace).level.kind != "learner":
            return []
        if attempt_of(frame.workspace).level.kind == "learner":
            return line_rows(("exercise_line", "your line and its margin: drag its handles",
                              self.pen))
        return line_rows(("exercise_guess", "your next w and line: drag the handles",
                          self.guess_pen))
