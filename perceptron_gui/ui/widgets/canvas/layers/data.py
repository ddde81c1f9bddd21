"""The data: one scatter per class, or at large n an exact raster of the view's pixels."""

from __future__ import annotations

from dataclasses import astuple

import numpy as np
import pyqtgraph as pg
from PySide6 import QtWidgets

from .....core.scale import LARGE_N
from .....core.text import class_label
from .... import style
from ..items import PassiveScatter, PointRaster, codes_image, style_scatter
from ..legend import marker_sample
from ..newest import NewestJob
from ..raster import Markers, PixelGrid, Raster, in_rect, points_view
from .base import Layer, LegendEntry
from .draw import item_alive, view_grid

__all__ = ["DataLayer"]

#: The legend's text for a pixel that holds points of both classes.
MIXED_NAME = "both classes"


def _view_job(X, y, grid: PixelGrid, limit: int, colors):
    result = points_view(X, y, grid, limit)
    image = codes_image(result.codes, colors) if isinstance(result, Raster) else None
    return result, image


class DataLayer(Layer):
    """The points of class +1 and of class −1: beyond :attr:`marker_max` in the view, an exact
    raster of its pixels (:mod:`..raster`) made in a worker, the old one shown meanwhile.

    Still data paint from Qt's item cache; changing data paint directly, since a
    cache would be redrawn and blitted at every change (:meth:`set_cached`).
    """

    name = "data"
    marker_max = LARGE_N

    def __init__(self):
        super().__init__()
        self._shown = None  # what the scatters hold at large n: (dataset, rect, X) or None
        # the picture at large n, in a worker: requests are (dataset, grid)
        self._job = NewestJob(self._job_of, self._apply, lambda: item_alive(self.point_raster))

    def create(self, view_box) -> None:
        self.scatter_pos = self.add("scatter_pos", PassiveScatter(), 10, visible=True)
        self.scatter_neg = self.add("scatter_neg", PassiveScatter(), 10, visible=True)
        self.point_raster = self.add("point_raster", PointRaster(), 10)

    def apply_scale(self, scale) -> None:
        edge = pg.mkPen(style.current().background, width=max(1.0, scale.line * 0.4))
        self.styles = {
            "pos": (style.POS_SYMBOL, scale.marker, style.current().pos_color, edge),
            "neg": (style.NEG_SYMBOL, scale.marker, style.current().neg_color, edge),
        }
        self._pixel_size = max(4.0, scale.marker * 0.6)
        p = style.current()
        self.colors = (None, p.pos_color, p.neg_color, p.mixed_color)
        style_scatter(self.scatter_pos, *self.styles["pos"])
        style_scatter(self.scatter_neg, *self.styles["neg"])

    def cache_key(self, frame) -> tuple:
        ds = frame.workspace.dataset
        if ds.n <= self.marker_max:
            return (ds,)
        grid = view_grid(self._view_box, frame.view)
        return (ds, None if grid is None else astuple(grid))

    def update(self, frame) -> None:
        ds = frame.workspace.dataset
        if ds.n <= self.marker_max:
            self._job.drop()
            self._show_markers(ds.X, ds.y)
            return
        grid = view_grid(self._view_box, frame.view)  # None: not on screen, drawn at a view change
        shown, rect = self._shown, None if grid is None else grid.rect()
        if grid is None or (self.mode == "markers" and shown is not None and shown[0] is ds
                            and in_rect(np.reshape(rect, (2, 2)).T, shown[1]).all()
                            and np.count_nonzero(in_rect(shown[2], rect)) <= self.marker_max):
            self._job.drop()  # or the markers there already cover the view (its two corners)
            return
        self._job.request((ds, grid), now=frame.now)

    def _job_of(self, request) -> tuple:
        ds, grid = request
        return _view_job, (ds.X, ds.y, grid, self.marker_max, self.colors)

    def _apply(self, request, out) -> None:
        ds, grid = request
        result, image = out
        if isinstance(result, Markers):
            self._show_markers(result.X, result.y, (ds, result.rect, result.X))
            return
        self.point_raster.set_image(image, grid.rect())
        for item in (self.scatter_pos, self.scatter_neg):
            item.setData(pos=np.empty((0, 2)))
            item.setVisible(False)
        self._shown = None
        self.set_mode("raster", result.mixed)

    def _show_markers(self, X, y, shown=None) -> None:
        positive = y > 0
        self.scatter_pos.setData(pos=X[positive])
        self.scatter_neg.setData(pos=X[~positive])
        for item in (self.scatter_pos, self.scatter_neg):
            item.setVisible(True)
        self.point_raster.set_image(None)
        self._shown = shown
        self.set_mode("markers")

    def set_cached(self, cached: bool) -> None:
        """Paint the scatters from Qt's item cache (True) or directly (False)."""
        mode = QtWidgets.QGraphicsItem.CacheMode
        wanted = mode.DeviceCoordinateCache if cached else mode.NoCache
        for item in (self.scatter_pos, self.scatter_neg):
            if item.cacheMode() != wanted:
                item.setCacheMode(wanted)

    def legend_entries(self, frame) -> list[LegendEntry]:
        names = frame.workspace.dataset.class_names  # "setosa (−1)", else "class −1"
        pos, neg = class_label(names, 1), class_label(names, -1)
        if self.mode == "markers":
            return [LegendEntry("pos", pos, lambda: marker_sample(*self.styles["pos"])),
                    LegendEntry("neg", neg, lambda: marker_sample(*self.styles["neg"]))]
        entries = [("pos_pixels", pos, self.colors[1]), ("neg_pixels", neg, self.colors[2])]
        if self.mixed:
            entries.append(("mixed_pixels", MIXED_NAME, self.colors[3]))
        return [LegendEntry(name, text, lambda c=color: marker_sample(
            "s", self._pixel_size, c, None)) for name, text, color in entries]
