"""The canvas cursor the keyboard moves: a crosshair where A/Insert adds a point."""

from __future__ import annotations

import numpy as np
import pyqtgraph as pg

from .... import style
from ..items import PassiveScatter, style_scatter
from .base import Layer

__all__ = ["CursorLayer"]


class CursorLayer(Layer):
    """A crosshair at the edit tool's canvas cursor (:attr:`Frame.cursor`), hidden without one."""

    name = "cursor"
    redraw_on = "data"

    def create(self, view_box) -> None:
        self.keyboard_cursor = self.add("keyboard_cursor", PassiveScatter(), 35)

    def apply_scale(self, scale) -> None:
        pen = pg.mkPen(style.current().foreground, width=max(1.5, scale.line))
        style_scatter(self.keyboard_cursor, "crosshair", scale.marker * 3.0, None, pen)

    def update(self, frame) -> None:
        cursor = frame.cursor
        if cursor is not None:
            self.keyboard_cursor.setData(pos=np.asarray(cursor, dtype=np.float64).reshape(1, 2))
        self.keyboard_cursor.setVisible(cursor is not None)
