"""The student's line in an exercise ("be the learner"), with the band of its margin."""

from __future__ import annotations

import math

import numpy as np
import pyqtgraph as pg
from PySide6 import QtCore, QtGui, QtWidgets

from .....core.exercises import attempt_of
from .... import style
from ..geometry import clip_line, unit_normal
from ..items import Lines
from ..legend import line_sample
from .base import Layer, LegendEntry
from .draw import rgba, set_band, set_segments, show

__all__ = ["ExerciseLayer"]


class ExerciseLayer(Layer):
    """The line ``w·x + b = 0`` a student drew, and the band of its margin (if positive)."""

    name = "exercise"
    redraw_on = "event"  # the student's line changes without the run
    switches = {"exercise": True}

    def create(self, view_box) -> None:
        super().create(view_box)
        self._drawn = False
        self.band_fill = self.add("band_fill", QtWidgets.QGraphicsPathItem(), -19)
        self.band_edges = self.add("band_edges", Lines(connect="pairs"), -18)
        self.line = self.add("line", Lines(), -4)

    def apply_scale(self, scale) -> None:
        color = style.current().delta_color
        self.pen = pg.mkPen(color, width=scale.line * 1.2, style=QtCore.Qt.PenStyle.DashLine)
        self.line.setPen(self.pen)
        self.band_edges.setPen(pg.mkPen(rgba(color, 160), width=scale.line * 0.6,
                                        style=QtCore.Qt.PenStyle.DotLine))
        self.band_fill.setBrush(QtGui.QBrush(rgba(color, 30)))
        self.band_fill.setPen(QtGui.QPen(QtCore.Qt.PenStyle.NoPen))

    def showing(self, frame) -> bool:
        attempt = attempt_of(frame.workspace)
        return attempt is not None and attempt.line is not None and frame.switches["exercise"]

    def update(self, frame) -> None:
        if not self.showing(frame):
            if self._drawn:  # every redraw comes here: hide once, then return at once
                self.hide()
                self._drawn = False
            return
        self._drawn = True
        w1, w2, b = attempt_of(frame.workspace).line
        hyper = unit_normal(np.array([w1, w2]), b)
        if hyper is None:
            self.hide()
            return
        seg = clip_line(hyper[0], hyper[1], frame.rect)
        set_segments(self.line, [] if seg is None else [seg], seg is not None)
        ds = frame.workspace.dataset
        margin = (float(np.min(ds.y * (ds.X @ hyper[0] - hyper[1]))) if ds.n else math.nan)
        if math.isfinite(margin) and margin > 0:
            set_band(self.band_fill, self.band_edges, hyper, margin, frame.rect)
        else:
            show(False, self.band_fill, self.band_edges)

    def legend_entries(self, frame) -> list[LegendEntry]:
        if not self.showing(frame):
            return []
        return [LegendEntry("exercise_line", "your line and its margin",
                            lambda: line_sample(self.pen))]
