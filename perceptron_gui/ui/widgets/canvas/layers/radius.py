"""The circle of Novikoff's R around the origin: the points ``x`` with ``‖(x, c)‖ = R``.

With a bias ``R = max_i ‖(x_i, c)‖``; either way those points form the circle of
radius ``max_i ‖x_i‖`` through the farthest sample; its label says which norm
equals R there, since its radius is not R when the bias is on.
"""

from __future__ import annotations

import math

import pyqtgraph as pg
from PySide6 import QtCore, QtGui, QtWidgets

from .... import style
from .base import Layer, LegendEntry, line_rows

__all__ = ["RadiusLayer", "circle_label"]


def circle_label(augmented: bool) -> str:
    """The legend's words for the circle: where the norm in Novikoff's R equals R."""
    return "‖(x, c)‖ = R" if augmented else "‖x‖ = R"


class RadiusLayer(Layer):
    """R as a circle about the origin, for the linear perceptrons (R is in their bound)."""

    name = "radius"
    item_names = ("radius_circle",)
    switches = ("radius",)
    caption_words = {"circle": ("radius_circle",)}

    def create(self, view_box) -> None:
        self.radius_circle = self.add("radius_circle", QtWidgets.QGraphicsEllipseItem(), -17)
        self.radius_circle.setBrush(QtGui.QBrush(QtCore.Qt.BrushStyle.NoBrush))

    def apply_scale(self, scale) -> None:
        self.pen = pg.mkPen(style.current().radius_color, width=scale.line * 0.5)
        self.radius_circle.setPen(self.pen)

    def _linear_perceptron(self, frame) -> bool:
        caps = frame.workspace.capabilities
        return (frame.switches["radius"] and caps.novikoff and not caps.nonlinear_kernel
                and frame.workspace.dataset.is_binary)  # Novikoff's R: of two classes

    def update(self, frame) -> None:
        r = frame.workspace.dataset.radius()  # the data set keeps it
        visible = self._linear_perceptron(frame) and math.isfinite(r) and r > 0
        if visible:
            self.radius_circle.setRect(QtCore.QRectF(-r, -r, 2 * r, 2 * r))
        self.radius_circle.setVisible(bool(visible))

    def legend_entries(self, frame) -> list[LegendEntry]:
        augmented = bool(frame.workspace.params.get("fit_intercept", True))
        return line_rows(self._linear_perceptron(frame)
                         and ("radius", circle_label(augmented), self.pen))
