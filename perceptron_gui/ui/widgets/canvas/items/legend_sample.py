"""The canvas legend's sample: pyqtgraph's, without the toggle-on-click (clicks go through)."""

from __future__ import annotations

import pyqtgraph as pg

__all__ = ["LegendSample"]


class LegendSample(pg.ItemSample):
    """A legend sample that does not toggle its item on click: the click goes to the view."""

    def mouseClickEvent(self, ev):
        ev.ignore()
