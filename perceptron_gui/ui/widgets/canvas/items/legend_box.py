"""The canvas legend's box: a pyqtgraph legend that lets clicks through and remembers a drag."""

from __future__ import annotations

import pyqtgraph as pg

__all__ = ["LegendBox"]


class LegendBox(pg.LegendItem):
    """A ``LegendItem`` overlaid on the view: a click goes through to the view, a drag moves it.

    Attributes
    ----------
    moved : bool
        True once the user dragged the legend (it then stays where it was put
        instead of going to the emptiest corner).
    """

    def __init__(self, **kwargs):
        super().__init__(**kwargs)
        self.moved = False

    def mouseClickEvent(self, ev):
        ev.ignore()  # the view under it adds (or selects) a point, as if the legend were not there

    def mouseDragEvent(self, ev):
        super().mouseDragEvent(ev)
        if ev.isAccepted():
            self.moved = True
