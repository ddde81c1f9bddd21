"""The data: one scatter per class (up to eight), or at large n an exact raster of the view's
pixels."""

from __future__ import annotations

from dataclasses import astuple

import numpy as np
import pyqtgraph as pg
from PySide6 import QtWidgets

from .....core.class_edits import class_texts
from .....core.scale import LARGE_N
from .... import style
from ..items import PassiveScatter, PointRaster, codes_image, style_scatter
from ..legend import marker_sample
from ..newest import NewestJob
from ..raster import MIXED, Markers, PixelGrid, Raster, in_rect, points_view
from .base import Layer, LegendEntry
from .draw import item_alive, view_grid

__all__ = ["DataLayer"]

#: The legend's text for a pixel that holds points of both classes (of several, with more).
MIXED_NAME = "both classes"
MIXED_MANY = "several classes"
#: The most classes drawn: a scatter, a colour and a marker each.
N_SCATTERS = len(style.CLASS_SYMBOLS)


def _view_job(dataset, grid: PixelGrid, limit: int, colors):
    result = points_view(dataset.X, dataset.listed_index(), grid, limit)
    image = codes_image(result.codes, colors) if isinstance(result, Raster) else None
    return result, image


class DataLayer(Layer):
    """The points of each class, a scatter per class: beyond :attr:`marker_max` in the view, an
    exact raster of its pixels (:mod:`..raster`) made in a worker, the old one shown meanwhile.

    Still data paint from Qt's item cache; changing data paint directly, since a
    cache would be redrawn and blitted at every change (:meth:`set_cached`).
    """

    name = "data"
    marker_max = LARGE_N

    def __init__(self):
        super().__init__()
        self._shown = None  # what the scatters hold at large n: (dataset, rect, X) or None
        self._filled = [False] * N_SCATTERS  # which scatters hold points
        # the picture at large n, in a worker: requests are (dataset, grid)
        self._job = NewestJob(self._job_of, self._apply, lambda: item_alive(self.point_raster))

    def create(self, view_box) -> None:
        self.scatters = [self.add(f"scatter_{k}", PassiveScatter(), 10, visible=True)
                         for k in range(N_SCATTERS)]
        self.point_raster = self.add("point_raster", PointRaster(), 10)

    def apply_scale(self, scale) -> None:
        p = style.current()
        edge = pg.mkPen(p.background, width=max(1.0, scale.line * 0.4))
        self.styles = [(symbol, scale.marker * size, color, edge) for symbol, size, color in
                       zip(style.CLASS_SYMBOLS, style.CLASS_SYMBOL_SIZES, p.class_colors,
                           strict=True)]
        self._pixel_size = max(4.0, scale.marker * 0.6)
        # a raster's colour by its code (raster.py): none, each class's, several classes'
        self.colors = [None, *p.class_colors] + [None] * (MIXED - 1 - N_SCATTERS)
        self.colors.append(p.mixed_color)
        for item, item_style in zip(self.scatters, self.styles, strict=True):
            style_scatter(item, *item_style)

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
            self._show_markers(ds.X, ds.listed_index())
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
        return _view_job, (ds, grid, self.marker_max, self.colors)

    def _apply(self, request, out) -> None:
        ds, grid = request
        result, image = out
        if isinstance(result, Markers):
            self._show_markers(result.X, result.y, (ds, result.rect, result.X))
            return
        self.point_raster.set_image(image, grid.rect())
        for item in self.scatters:
            item.setData(pos=np.empty((0, 2)))
            item.setVisible(False)
        self._filled = [False] * N_SCATTERS
        self._shown = None
        self.set_mode("raster", result.mixed)

    def _show_markers(self, X, places, shown=None) -> None:
        """Each class's points (``places``: their classes' places in the list) in its scatter."""
        top = int(places.max()) if len(places) else -1
        for k, item in enumerate(self.scatters):
            if k <= top or self._filled[k]:  # an unused scatter emptied once
                points = X[places == k] if k <= top else np.empty((0, 2))
                item.setData(pos=points)
                self._filled[k] = len(points) > 0
            item.setVisible(True)
        self.point_raster.set_image(None)
        self._shown = shown
        self.set_mode("markers")

    def set_cached(self, cached: bool) -> None:
        """Paint the scatters from Qt's item cache (True) or directly (False)."""
        mode = QtWidgets.QGraphicsItem.CacheMode
        wanted = mode.DeviceCoordinateCache if cached else mode.NoCache
        for item in self.scatters:
            if item.cacheMode() != wanted:
                item.setCacheMode(wanted)

    def legend_entries(self, frame) -> list[LegendEntry]:
        ds = frame.workspace.dataset
        texts = class_texts(ds)
        if self.mode == "markers":
            return [LegendEntry(f"class_{k}", text, lambda k=k: marker_sample(*self.styles[k]))
                    for k, text in enumerate(texts)]
        entries = [(f"class_{k}_pixels", text, self.colors[k + 1])
                   for k, text in enumerate(texts)]
        if self.mixed:
            entries.append(("mixed_pixels", MIXED_NAME if ds.n_classes == 2 else MIXED_MANY,
                            self.colors[MIXED]))
        return [LegendEntry(name, text, lambda c=color: marker_sample(
            "s", self._pixel_size, c, None)) for name, text, color in entries]
