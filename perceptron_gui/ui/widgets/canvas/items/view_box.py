"""The canvas's view box: clicks on empty space go to the canvas's gestures."""

from __future__ import annotations

import pyqtgraph as pg

__all__ = ["CanvasViewBox"]


class CanvasViewBox(pg.ViewBox):
    """A ViewBox that offers clicks on empty space to ``on_click(ev)``, True when it handled
    one (drags still pan)."""

    def __init__(self, on_click):
        super().__init__(enableMenu=False)
        self._on_click = on_click

    def mouseClickEvent(self, ev):
        if self._on_click(ev):
            ev.accept()
            return
        super().mouseClickEvent(ev)
