"""The model shaped by hand: its two 2σ ellipses, its boundary and six draggable handles.

Per class a handle on the mean and on each axis end of its ellipse; a drag writes
``model.move_handle(i, xy)`` into the view state.
"""

from __future__ import annotations

import numpy as np
import pyqtgraph as pg
from PySide6 import QtCore

from .... import style
from ... import Guard
from ..geometry import clip_line, marching_squares, unit_normal
from ..items import add_handle, style_handle
from .base import Layer, LegendEntry, line_rows

__all__ = ["ShapingLayer"]

_CELL_PX = 5.0  # the boundary's grid over the view: one value per 5x5 screen pixels
_MAX_CELLS = 300


class ShapingLayer(Layer):
    """The shaped model's ellipses, boundary and six ``handles`` (``GaussianModel.handles()``)."""

    name = "shaping"
    item_names = ("shaping_ellipses", "shaping_boundary",
                  *(f"shaping_handle_{i}" for i in range(6)))
    caption_words = {"ellipse": ("shaping_ellipses",)}

    def __init__(self):
        super().__init__()
        self.model = None
        self.handles: list = []
        self._view_state = None
        self._placing = Guard()  # the layer moves the handles itself: not a drag

    def create(self, view_box) -> None:
        self.ellipses = self.add("shaping_ellipses",
                                 pg.PlotCurveItem(connect="finite", antialias=True), 15)
        self.boundary = self.add("shaping_boundary",
                                 pg.PlotCurveItem(connect="pairs", antialias=True), 16)
        for i in range(6):
            handle = add_handle(self, f"shaping_handle_{i}", 30, "o" if i % 3 == 0 else "s",
                                size=12)
            handle.sigPositionChanged.connect(lambda item, i=i: self._dragged(i, item))
            self.handles.append(handle)

    def apply_scale(self, scale) -> None:
        pal = style.current()
        self.ellipse_pen = pg.mkPen(pal.lda_color, width=scale.line)
        self.boundary_pen = pg.mkPen(pal.boundary_color, width=scale.line * 1.25)
        self.ellipses.setPen(self.ellipse_pen)
        self.boundary.setPen(self.boundary_pen)
        for i, handle in enumerate(self.handles):
            style_handle(handle, pal.neg_color if i < 3 else pal.pos_color, pal.foreground,
                         pal.highlight_color, scale.line)

    def cache_key(self, frame) -> tuple | None:
        return (frame.shaping, *frame.view, *frame.pixel_size)

    def update(self, frame) -> None:
        self._view_state = frame.workspace.view_state
        model = self.model = frame.shaping
        if model is None:
            self.hide()
            return
        curves = [model.ellipse(0), [[np.nan, np.nan]], model.ellipse(1)]
        xy = np.concatenate(curves)
        self.ellipses.setData(xy[:, 0], xy[:, 1])
        self.ellipses.setVisible(True)
        pts = self.boundary_points(frame)
        if len(pts):
            self.boundary.setData(pts[:, 0], pts[:, 1])
        self.boundary.setVisible(len(pts) > 0)
        with self._placing:
            for handle, (x, y) in zip(self.handles, model.handles(), strict=True):
                handle.setPos(float(x), float(y))
                handle.setVisible(True)

    def boundary_points(self, frame) -> np.ndarray:
        """The boundary ``f = 0`` as segment end points in pairs, shape (2 m, 2): a line for a
        shared covariance, else the zero contour on a grid."""
        model = self.model
        rect = frame.clip_rect(0.02)
        if model.shared:
            hyper = unit_normal(model.coef_[0], float(model.intercept_[0]))
            seg = clip_line(*hyper, frame.rect) if hyper is not None else None
            return np.empty((0, 2)) if seg is None else np.asarray(seg, dtype=float)
        x0, x1, y0, y1 = rect
        sx, sy = frame.pixel_size
        nx = int(min(_MAX_CELLS, max(8, (x1 - x0) / sx / _CELL_PX)))
        ny = int(min(_MAX_CELLS, max(8, (y1 - y0) / sy / _CELL_PX)))
        xs, ys = np.linspace(x0, x1, nx), np.linspace(y0, y1, ny)
        gx, gy = np.meshgrid(xs, ys)
        F = model.decision_function(np.column_stack([gx.ravel(), gy.ravel()])).reshape(ny, nx)
        return marching_squares(xs, ys, F)

    def _dragged(self, index: int, item) -> None:
        if self._placing or self.model is None or self._view_state is None:
            return
        p = item.pos()
        self._view_state.set_shaping(self.model.move_handle(index, (p.x(), p.y())))

    def legend_entries(self, frame) -> list[LegendEntry]:
        if frame.shaping is None:
            return []
        return line_rows(("shaping_boundary", "boundary of the model shaped", self.boundary_pen),
                         ("shaping_ellipses", "2σ ellipses: drag the handles", self.ellipse_pen))

    def handle_at(self, index: int) -> QtCore.QPointF:
        """Where handle ``index`` is drawn, in data coordinates."""
        return self.handles[index].pos()
