"""The selection: a dashed ring around each selected point."""

from __future__ import annotations

import pyqtgraph as pg
from PySide6 import QtCore

from .... import style
from ..items import PassiveScatter, style_scatter
from .base import Layer

__all__ = ["SelectionLayer"]


class SelectionLayer(Layer):
    """Rings around the points the edit tool has selected (:attr:`Frame.selection`)."""

    name = "selection"
    item_names = ("selection_marks",)
    redraw_on = "data"

    def create(self, view_box) -> None:
        self.selection_marks = self.add("selection_marks", PassiveScatter(), 11, visible=True)

    def apply_scale(self, scale) -> None:
        pen = pg.mkPen(style.current().foreground, width=max(1.0, scale.line * 0.75),
                       style=QtCore.Qt.PenStyle.DashLine)
        style_scatter(self.selection_marks, "o", scale.marker * 1.8, None, pen)

    def update(self, frame) -> None:
        X = frame.workspace.dataset.X
        sel = frame.selection
        sel = sel[sel < X.shape[0]]
        self.selection_marks.setData(pos=X[sel])
        self.selection_marks.setVisible(sel.size > 0)
