"""The misclassified samples: a cross on each point with ``y f(x) <= 0`` now (with m classes:
whose own class does not score above every other), or their pixels."""

from __future__ import annotations

from dataclasses import astuple

import numpy as np
import pyqtgraph as pg
from PySide6 import QtWidgets

from .....core.scale import LARGE_N
from .... import style
from ..items import Marks, PointRaster, codes_image
from ..legend import marker_sample
from ..newest import NewestJob
from ..raster import Markers, PixelGrid, Raster, markers_around, occupied, pixel_index
from .base import Layer, LegendEntry
from .draw import item_alive, view_grid
from .kernel import contour_drawn

__all__ = ["MistakesLayer"]

_NONE = np.empty(0, np.int64)
_NONE.flags.writeable = False


def _marks_job(X, idx, grid: PixelGrid, pixels, limit: int, color, grow: float = 0.25):
    """A worker's job for the marks of one view: ``(result, image, pixels)``, ``pixels``
    (:func:`pixel_index`, made when None) kept for the next step of the same view."""
    if pixels is None:
        pixels = pixel_index(X, grid)
    where = pixels[idx]
    seen = where >= 0
    if np.count_nonzero(seen) <= limit:
        return markers_around(X[idx], None, grid.rect(), seen, limit, grow), None, pixels
    mask = occupied(where, grid)
    return Raster(grid, mask, False), codes_image(mask.view(np.uint8), (None, color)), pixels


class MistakesLayer(Layer):
    """Crosses on the samples the current model gets wrong, or, beyond :attr:`marker_max` in
    the view, a raster of their pixels (a worker; the points binned once per view).

    ``marked``: the read-only indices marked at the last redraw, into ``marked_dataset``;
    ``draws`` False: no crosses (an export paints them itself), a raster as on screen.
    """

    name = "mistakes"
    switches = ("mistakes",)
    marker_max = LARGE_N

    def __init__(self):
        super().__init__()
        self.marked = _NONE
        self.marked_dataset = None
        self.draws = True
        self._pixels = None  # (dataset, grid, pixel_index of its points on the grid)
        # the raster at large n, in a worker: requests are (dataset, idx, grid)
        self._job = NewestJob(self._job_of, self._apply,
                              lambda: item_alive(self.mistake_raster),
                              stale=lambda request, out: self._keep_pixels(request, out[2]))

    def create(self, view_box) -> None:
        self.mistake_marks = self.add("mistake_marks", Marks(), 12)
        self.set_cached(True)
        self.mistake_raster = self.add("mistake_raster", PointRaster(), 12)

    def apply_scale(self, scale) -> None:
        self.size = scale.marker
        self.pen = pg.mkPen("w", width=0.5)
        self.mistake_marks.set_style("x", scale.marker * 0.9, style.current().mistake_color,
                                     self.pen)
        self._pixel_size = max(4.0, scale.marker * 0.6)
        self._color = style.current().mistake_color

    def _indices(self, frame) -> np.ndarray:
        ws = frame.workspace
        on = frame.switches["mistakes"] and (frame.hyperplane is not None or contour_drawn(ws)
                                             or ws.multiclass)
        return ws.misclassified() if on else _NONE

    def cache_key(self, frame) -> tuple:
        # the workspace keeps the same array while the weights stay (compared by identity)
        idx = self._indices(frame)
        key = (frame.workspace.dataset, idx, self.draws)
        if idx.size <= self.marker_max:
            return key
        grid = view_grid(self._view_box, frame.view)
        return (*key, None if grid is None else astuple(grid))

    def update(self, frame) -> None:
        ds = frame.workspace.dataset
        idx = self._indices(frame)
        self.marked, self.marked_dataset = idx, ds
        if idx.size <= self.marker_max:
            self._job.drop()
            self._show_markers(ds.X[idx] if self.draws else np.empty((0, 2)), idx.size > 0)
            return
        grid = view_grid(self._view_box, frame.view)
        if grid is None:
            self._job.drop()
            return  # not on screen: the next view change draws it
        self._job.request((ds, idx, grid), now=frame.now)

    def _job_of(self, request) -> tuple:
        ds, idx, grid = request
        cached = self._pixels
        pixels = (cached[2] if cached is not None and cached[0] is ds
                  and cached[1] == grid else None)
        return _marks_job, (ds.X, idx, grid, pixels, self.marker_max, self._color)

    def _keep_pixels(self, request, pixels) -> None:
        ds, _idx, grid = request
        self._pixels = (ds, grid, pixels)

    def _apply(self, request, out) -> None:
        result, image, pixels = out
        self._keep_pixels(request, pixels)
        if isinstance(result, Markers):
            self._show_markers(result.X if self.draws else np.empty((0, 2)), result.X.size > 0)
            return
        self.mistake_raster.set_image(image, result.grid.rect())
        self.mistake_marks.setData(pos=np.empty((0, 2)), copy=False)
        self.mistake_marks.setVisible(False)
        self.set_mode("raster")

    def _show_markers(self, P, shown: bool | None = None) -> None:
        self.mistake_marks.setData(pos=P, copy=False)  # a fresh array
        self.mistake_marks.setVisible(P.shape[0] > 0 if shown is None else shown)
        self.mistake_raster.set_image(None)
        self.set_mode("markers")

    def set_cached(self, cached: bool) -> None:
        """Paint the marks from Qt's item cache (True) or directly (False): the canvas
        caches them from the first redraw that did not move them."""
        mode = QtWidgets.QGraphicsItem.CacheMode
        wanted = mode.DeviceCoordinateCache if cached else mode.NoCache
        if self.mistake_marks.cacheMode() != wanted:
            self.mistake_marks.setCacheMode(wanted)

    def legend_entries(self, frame) -> list[LegendEntry]:
        if not frame.switches["mistakes"]:
            return []
        if self.mode == "raster":
            return [LegendEntry("mistake_pixels", "misclassified", lambda: marker_sample(
                "s", self._pixel_size, self._color, None))]
        return [LegendEntry("mistake", "misclassified", lambda: marker_sample(
            "x", self.size, style.current().mistake_color, self.pen))]

