"""The class-model overlay: class means, their 2σ ellipses, LDA's boundary beside a perceptron.

A learner that models its classes shows its own (beside QDA or naive Bayes LDA's
line too); any other learner, LDA's fit.
"""

from __future__ import annotations

import numpy as np
import pyqtgraph as pg
from PySide6 import QtCore, QtWidgets

from .....core.learners.lda import LDA, covariance_ellipse
from .... import style
from ..geometry import unit_normal
from ..items import PassiveScatter, style_scatter
from .base import Layer, LegendEntry, line_rows
from .draw import set_line, show

__all__ = ["ClassModelSwitch", "LdaLayer"]


class ClassModelSwitch:
    """The "lda" switch turns on when a learner of class models comes into use (the View
    menu's check mark says what shows), and back when it goes unless the user changed it."""

    def __init__(self, view_state, workspace):
        self._state = view_state
        self._on = False  # the learner in use has class models
        self._before = False  # the switch before such a learner came
        self.follow(workspace)

    def follow(self, workspace) -> None:
        """Turn the switch on or back for ``workspace``'s learner (read from its capabilities)."""
        now = bool(workspace.capabilities.class_model)
        if now == self._on:
            return
        self._on = now
        if now:
            self._before = self._state.layer("lda")
            self._state.set_layers(lda=True)
        elif not self._before and self._state.layer("lda"):
            self._state.set_layers(lda=False)


class LdaLayer(Layer):
    """LDA's means and covariance, its boundary beside another learner (not while shaping)."""

    name = "lda"
    item_names = ("lda_ellipses", "lda_line", "lda_means")
    switches = ("lda",)
    caption_words = {"ellipse": ("lda_ellipses",), "cross": ("lda_means",)}

    def create(self, view_box) -> None:
        self.lda_ellipses = self.add("lda_ellipses", pg.PlotCurveItem(connect="finite",
                                                                      antialias=True), -16)
        self.lda_line = self.add("lda_line", pg.PlotCurveItem(antialias=True), -15)
        self.lda_means = self.add("lda_means", PassiveScatter(), 14)
        cache = QtWidgets.QGraphicsItem.CacheMode.DeviceCoordinateCache
        for item in (self.lda_ellipses, self.lda_line, self.lda_means):
            item.setCacheMode(cache)

    def apply_scale(self, scale) -> None:
        dash = QtCore.Qt.PenStyle.DashLine
        self.pen = pg.mkPen(style.current().lda_color, width=scale.line * 0.75, style=dash)
        self.lda_ellipses.setPen(self.pen)
        self.line_pen = pg.mkPen(style.current().lda_color, width=scale.line, style=dash)
        self.lda_line.setPen(self.line_pen)
        style_scatter(self.lda_means, "+", scale.marker * 2.4, style.current().lda_color,
                      pg.mkPen(style.current().foreground, width=1))

    def cache_key(self, frame) -> tuple | None:
        lda = self._model(frame)
        return None if lda is None else (lda, frame.workspace.learner, frame.rect,
                                         self._beside(frame))

    @staticmethod
    def _model(frame):
        """The learner in use when it models its classes, else LDA's fit (None: off, shaping)."""
        ws = frame.workspace
        if frame.shaping is not None or not frame.switches["lda"]:
            return None
        return ws.learner if ws.capabilities.class_model and ws.has_model else ws.lda

    def update(self, frame) -> None:
        lda = self._model(frame)
        if lda is None:
            self.hide()
            return
        means = np.asarray(lda.means_, dtype=np.float64)
        cov = np.asarray(lda.covariance_, dtype=np.float64)
        if not (np.isfinite(means).all() and np.isfinite(cov).all()):
            self.hide()
            return
        # one pooled covariance (LDA) or one a class (QDA, naive Bayes)
        covs = [cov] * len(means) if cov.ndim == 2 else list(cov)
        curves = [covariance_ellipse(m, c, n_std=2.0) for m, c in zip(means, covs, strict=True)]
        gap = [[np.nan, np.nan]]
        xy = np.concatenate([part for c in curves for part in (c, gap)][:-1])
        self.lda_ellipses.setData(xy[:, 0], xy[:, 1])
        # means_ follow classes_: each mean in its class's colour on the canvas
        listed, colors = frame.workspace.dataset.listed_classes, style.current().class_colors
        self.lda_means.setData(pos=means, brush=[pg.mkBrush(colors[listed.index(int(c))])
                                                 for c in lda.classes_])
        show(True, self.lda_ellipses, self.lda_means)
        # LDA's boundary beside another learner's (LDA's own is the main boundary)
        beside = self._beside(frame)
        hyper = None if beside is None else unit_normal(beside.coef_[0],
                                                       float(beside.intercept_[0]))
        set_line(self.lda_line, hyper, frame.rect)

    @classmethod
    def _beside(cls, frame):
        ws = frame.workspace
        model = cls._model(frame)
        if model is None:
            return None
        if model is not ws.learner:  # LDA's fit beside a learner without a class model
            return model
        if frame.switches["lda"] and not isinstance(ws.learner, LDA):  # beside QDA, NB
            return ws.lda
        return None

    def legend_entries(self, frame) -> list[LegendEntry]:
        if self._model(frame) is None:
            return []
        ws = frame.workspace
        own = ws.capabilities.class_model and ws.has_model  # the learner's own class model
        name = ws.spec.display_name if own else "LDA"
        return line_rows(("lda", f"{name} means, 2σ ellipses", self.pen),
                         own and self._beside(frame) is not None
                         and ("lda_line", "LDA's boundary (shared covariance)", self.line_pen))
