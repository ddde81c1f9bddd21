"""The weight-space view's optional layers that cost: the loss landscape, the generous region.

A small problem is computed at once; a large one in a worker (coarse grids first, each
drawn as it arrives), which a newer request stops: the UI thread never waits for it.
"""

from __future__ import annotations

import numpy as np
import pyqtgraph as pg
import shiboken6
from PySide6 import QtCore, QtGui, QtWidgets

from ....core.learners.losses import Loss
from ... import style, workers
from ...widgets.canvas.newest import NewestJob
from .geometry import Picture, generous_polygon
from .landscape import LEVELS, progressive, risk_grid
from .scenes import same_key

__all__ = ["SYNC_WORK", "GenerousLayer", "LandscapeLayer"]

#: Risk grids costing less than this are computed at once: cases × grid cells, or
#: cases × grid rows for a piecewise-linear loss (:func:`.landscape.piecewise_grid`).
SYNC_WORK = 1 << 17


class LandscapeLayer:
    """The risk under a loss shaded: :attr:`grid` at the cell centres of :attr:`rect` (by row)."""

    def __init__(self, plot_item):
        self.image = pg.ImageItem(axisOrder="row-major")
        self.image.setZValue(-10)
        self.image.setOpacity(0.65)
        self.image.setColorMap(pg.colormap.get("viridis"))
        self.image.setVisible(False)
        plot_item.addItem(self.image, ignoreBounds=True)
        self.grid: np.ndarray | None = None
        self.rect: tuple | None = None
        self.loss: Loss | None = None
        self._request: tuple | None = None
        self._worker = None
        self._token = 0
        #: Called with the grid side after each grid is drawn (tests and benchmarks).
        self.drawn = None
        #: Compute every landscape at once, at the finest grid (an export's view).
        self.synchronous = False

    @property
    def computing(self) -> bool:
        """Whether a worker is refining the landscape."""
        return self._worker is not None

    def hide(self) -> None:
        """Stop drawing and computing."""
        self._stop()
        self._request = None
        self.image.setVisible(False)
        self.grid = self.rect = self.loss = None

    def request(self, lines: np.ndarray, loss: Loss, x_range, y_range) -> None:
        """Shade the risk of the margins ``lines @ (w_1, w_2, 1)`` under ``loss`` over the box."""
        box = (tuple(map(float, x_range)), tuple(map(float, y_range)))
        req = self._request
        if req is not None and req[0] is lines and req[1:] == (loss, box):
            return
        self._stop()
        self._request = (lines, loss, box)
        token = self._token
        size = LEVELS[-1]
        work = lines.shape[0] * (size if loss.kink is not None else size * size)
        if work <= SYNC_WORK or self.synchronous:
            self._show(token, loss, box, LEVELS[-1], risk_grid(lines, loss, *box, LEVELS[-1]))
            return

        def yielded(value) -> None:
            if value is not None and shiboken6.isValid(self.image):
                self._show(token, loss, box, *value)

        def finished() -> None:
            if token == self._token:
                self._worker = None

        self._worker = workers.start(progressive, np.array(lines), loss, *box,
                                     yielded=yielded, finished=finished)

    def _show(self, token: int, loss: Loss, box: tuple, size: int, grid: np.ndarray) -> None:
        if token != self._token:
            return
        (x0, x1), (y0, y1) = box
        finite = grid[np.isfinite(grid)]
        lo = float(finite.min()) if finite.size else 0.0
        hi = float(np.quantile(finite, 0.98)) if finite.size else 1.0
        self.image.setImage(grid, levels=(lo, hi if hi > lo else lo + 1.0), autoLevels=False)
        self.image.setRect(QtCore.QRectF(x0, y0, x1 - x0, y1 - y0))
        self.image.setVisible(True)
        self.grid, self.rect, self.loss = grid, box, loss
        if self.drawn is not None:
            self.drawn(size)

    def _stop(self) -> None:
        self._token += 1
        if self._worker is not None:
            self._worker.quit()
            self._worker = None


class GenerousLayer:
    """The generously feasible region: cut at once up to ``at_once`` cases, else in a worker
    (the older picture stays until the newest cut arrives, then ``late()`` is called)."""

    def __init__(self, plot_item, at_once: int, late):
        self.item = QtWidgets.QGraphicsPolygonItem()
        self.item.setZValue(-4)
        plot_item.addItem(self.item, ignoreBounds=True)
        self.cut: tuple = ()
        self._at_once = at_once
        self._late = late
        self._asked: tuple = ()  # the arguments of the newest cut asked for
        self._job = NewestJob(lambda request: (generous_polygon, request[0]), self._show,
                              lambda: shiboken6.isValid(self.item))

    @property
    def cutting(self) -> bool:
        """Whether a worker cuts a region, or a cut waits to be drawn."""
        return self._job.pending or self._job.busy

    def restyle(self, scale) -> None:
        color = pg.mkColor(style.current().maxmargin_color)
        self.item.setBrush(QtGui.QBrush(color, QtCore.Qt.BrushStyle.BDiagPattern))
        self.item.setPen(pg.mkPen(color, width=max(1.0, scale.line * 0.5)))

    def forget(self) -> None:
        """Drop the cut asked for: the next request cuts again."""
        self._asked = ()
        self._job.drop()

    def hide(self) -> None:
        self.forget()
        self.item.setVisible(False)

    def request(self, pic: Picture, x_range, y_range) -> None:
        """Cut the region of ``pic``'s cases in the box (the same request again does nothing)."""
        args = (pic.X, pic.signs, bool(pic.region.fit_intercept),
                float(pic.region.bias_scale), float(pic.b), (tuple(x_range), tuple(y_range)))
        if self._asked and same_key(self._asked, args):
            return
        self._asked = args
        late = pic.X.shape[0] > self._at_once
        self._job.request((args, late), now=not late)

    def _show(self, request: tuple, cut: tuple) -> None:
        self.cut = cut
        self.item.setPolygon(QtGui.QPolygonF([QtCore.QPointF(*p) for p in cut[2].tolist()]))
        self.item.setVisible(True)
        if request[1]:
            self._late()
