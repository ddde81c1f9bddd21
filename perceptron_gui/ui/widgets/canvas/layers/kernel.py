"""A non-linear boundary: the sign of any learner's f (an image) and its zero contour, on a grid."""

from __future__ import annotations

import math

import numpy as np
import pyqtgraph as pg
from PySide6 import QtCore, QtGui

from .....core.text import fmt_short
from ..geometry import bilinear, cell_centres, marching_squares, padded_view
from .base import Layer, LegendEntry, line_rows
from .boundary import boundary_pen, region_colors

__all__ = ["ContourLayer", "contour_drawn"]

_CELL_PX = 8.0  # one decision value per 8x8 screen pixels ...
_WORK = 4e6  # ... unless cells x support vectors would exceed this
_MIN_CELLS = 900
#: Memory for the cached kernel columns of the decision grid (one per support vector).
_MAX_COLUMNS_BYTES = 64 * 2**20
_UPSAMPLE = 4  # the shaded regions are drawn on a 4x finer (interpolated) grid
#: The support vectors are summed in at most this many blocks of consecutive sample
#: indices (each at least _BLOCK indices wide): a step recomputes the blocks it changed.
_MAX_BLOCKS = 256
_BLOCK = 256
#: The region image's value where the sign of f is unknown (NaN): a transparent colour.
_UNKNOWN = 2


def contour_drawn(workspace) -> bool:
    """Whether ``workspace``'s boundary is a contour of f, and there is one to draw
    (none before a dual learner's first update: f = b everywhere)."""
    caps = workspace.capabilities
    return (not caps.linear and workspace.has_model and not workspace.multiclass
            and (not caps.dual_coef or workspace.learner.support_.size > 0))


class ContourLayer(Layer):
    """The sign of ``f`` on a grid sized to the view, and its level-0 contour (the switches
    and the legend row of :class:`~.boundary.BoundaryLayer`).

    ``cache``: the grid (``geometry``, ``rect``, ``xs``, ``ys``, ``G``) and the kernel column
    of each support vector met (``cols``), or the values ``F``; ``note``: the legend's
    row when the last redraw could not draw everything.
    """

    name = "kernel"
    item_names = ("region_image", "contour")
    caption_words = {"ellipse": ("contour",)}  # a conic boundary (QDA's) may be one

    def __init__(self):
        super().__init__()
        self.cache: dict | None = None
        self.note: str | None = None

    def create(self, view_box) -> None:
        self.region_image = self.add("region_image", pg.ImageItem(axisOrder="row-major"), -25)
        self.region_image.setLevels([0, _UNKNOWN])
        self.contour = self.add("contour", pg.PlotCurveItem(connect="pairs", antialias=True), -12)

    def apply_scale(self, scale) -> None:
        self.pen = boundary_pen(scale)
        self.contour.setPen(self.pen)
        pos, neg = region_colors()
        self.region_image.setLookupTable(np.array([neg, pos, (0, 0, 0, 0)], dtype=np.ubyte))

    def legend_entries(self, frame) -> list[LegendEntry]:
        # the same row (and key) as the linear boundary's: only one of the two layers shows
        pen = self.pen if self.contour.isVisible() else pg.mkPen(None)
        return line_rows((self.note is not None or self.contour.isVisible())  # note: why not
                         and ("boundary", self.note or "decision boundary", pen))

    def showing(self, frame) -> bool:
        return super().showing(frame) or self.note is not None

    def update(self, frame) -> None:
        self.note = None
        on = frame.switches
        ws = frame.workspace
        if not ((on["regions"] or on["boundary"]) and contour_drawn(ws)):
            self.hide()
            return
        learner = ws.learner
        grid = _grid(frame.view, frame.pixel_size, ws.dataset.n)
        if grid is None:
            self.hide()
            self.note = "decision boundary not drawn: the view has no finite size"
            return
        rect, nx, ny = grid
        kern = ws.capabilities.kernel
        rbf = kern is not None and kern.name == "rbf"
        width = 1.0 / math.sqrt(kern.gamma) if rbf else math.inf
        if width < min(frame.pixel_size):
            # the grid would see f = b between the points: one colour, no boundary
            self.hide()
            scale = float(np.abs(ws.dataset.X).max())
            if width < scale * 2.0**-40:  # below what a float64 view there can resolve
                self.note = (f"boundary not drawn: RBF width {fmt_short(width)} ≪ "
                             f"data scale {fmt_short(scale, 1)}; rescale the data")
            else:
                self.note = (f"decision boundary not drawn: the RBF width 1/√γ = "
                             f"{fmt_short(width)} is under a pixel; zoom in")
            return
        x0, x1, y0, y1 = rect
        geometry = (frame.model_version, id(learner), nx, ny,
                    round(x0 / (x1 - x0), 3), round(y0 / (y1 - y0), 3), round(x1 - x0, 9))
        with np.errstate(over="ignore", invalid="ignore"):  # inf - inf: NaN, drawn blank
            xs, ys, F = self.values(ws, geometry, rect, nx, ny)
        x0, x1, y0, y1 = self.cache["rect"]
        F2 = F.reshape(ny, nx)
        if np.isfinite(F2).all():
            picture = None
        else:  # only the sign is known where f overflowed, nothing where it is NaN
            picture = np.sign(F2)
            known = np.isfinite(picture)
            if not known.any():
                self.hide()
                self.note = "decision boundary not drawn: f is inf − inf in the whole view"
                return
            self.note = ("decision boundary: f overflows, drawn by its sign" if known.all() else
                         "decision boundary: f overflows, drawn by its sign (blank: unknown)")
        self.region_image.setVisible(on["regions"])
        if on["regions"]:
            if picture is None:
                k = _UPSAMPLE
                xf = x0 + (x1 - x0) / (nx * k) * (np.arange(nx * k) + 0.5)
                yf = y0 + (y1 - y0) / (ny * k) * (np.arange(ny * k) + 0.5)
                image = (bilinear(xs, ys, F2, xf, yf) > 0).astype(np.ubyte)
            else:
                image = np.where(np.isnan(picture), _UNKNOWN, picture > 0).astype(np.ubyte)
            self.region_image.setImage(image, autoLevels=False, levels=(0, _UNKNOWN))
            self.region_image.setRect(QtCore.QRectF(x0, y0, x1 - x0, y1 - y0))
        if on["boundary"]:
            # traced in grid units, placed by the item's transform: Qt drops path points
            # beyond about 1e128, so data coordinates at 1e300 drew nothing
            segs = marching_squares(np.arange(nx, dtype=np.float64),
                                    np.arange(ny, dtype=np.float64),
                                    F2 if picture is None else picture)
            step_x, step_y = (x1 - x0) / nx, (y1 - y0) / ny
            self.contour.setTransform(QtGui.QTransform(step_x, 0.0, 0.0, step_y,
                                                       x0 + 0.5 * step_x, y0 + 0.5 * step_y))
            self.contour.setData(segs[:, 0], segs[:, 1])
            self.contour.setVisible(segs.shape[0] > 0)
        else:
            self.contour.setVisible(False)

    def contour_points(self) -> np.ndarray:
        """The contour's vertices in data coordinates, shape (2 m, 2) (pairs of segment ends)."""
        x, y = self.contour.getData()
        if x is None:
            return np.empty((0, 2))
        t = self.contour.transform()
        return np.column_stack([t.m31() + t.m11() * np.asarray(x, dtype=np.float64),
                                t.m32() + t.m22() * np.asarray(y, dtype=np.float64)])

    def values(self, workspace, geometry, rect, nx, ny):
        """``(xs, ys, F)``: the grid's coordinates and the decision values on it, row-major.

        Without dual coefficients: ``decision_function`` once per model and grid.
        With them: ``f = b + Σ_blocks K(G, X_sv) @ (alpha y)[sv]``, one cached kernel
        column per support vector, summed in blocks of consecutive indices, a
        block's sum kept while its support vectors and ``alpha`` stay.  Every number
        is a function of the learner's state alone: a step reached by stepping,
        scrubbing or jumping draws the same bits (an incremental sum would drift).
        """
        ws = workspace
        learner = ws.learner
        cache = self.cache
        if cache is None or cache["geometry"] != geometry:
            xs, ys, G = cell_centres(rect, nx, ny)
            cache = dict(geometry=geometry, rect=rect, xs=xs, ys=ys, G=G, cols={})
            self.cache = cache
        G, cols = cache["G"], cache["cols"]
        caps = ws.capabilities
        if not (caps.dual_coef and caps.kernel is not None):
            if "F" not in cache:
                cache["F"] = np.asarray(learner.decision_function(G), dtype=np.float64)
            return cache["xs"], cache["ys"], cache["F"]
        alpha = learner.alpha_
        sv = learner.support_  # flatnonzero(alpha), kept by the learner
        if len(cols) + sv.size > _MAX_COLUMNS_BYTES // (8 * G.shape[0]):
            cols = {i: cols[i] for i in sv if i in cols}  # keep only what this step needs
            cache["cols"] = cols
        kern, X = ws.capabilities.kernel, ws.dataset.X
        F = np.full(G.shape[0], float(learner.intercept_[0]))
        if not sv.size:
            return cache["xs"], cache["ys"], F
        coef = (alpha[sv] * ws.dataset.y[sv]).astype(np.float64)
        width = max(_BLOCK, -(-ws.dataset.n // _MAX_BLOCKS))
        block = sv // width  # sv is sorted
        starts = np.flatnonzero(np.r_[True, block[1:] != block[:-1]])
        ends = np.r_[starts[1:], sv.size]
        sums, kept = cache.get("sums", {}), {}
        for a, b, k in zip(starts.tolist(), ends.tolist(), block[starts].tolist(), strict=True):
            key = (sv[a:b].tobytes(), coef[a:b].tobytes())
            hit = sums.get(k)
            if hit is None or hit[0] != key:
                members = sv[a:b].tolist()
                for i in members:
                    if i not in cols:
                        cols[i] = kern(G, X[i : i + 1])[:, 0]
                hit = (key, np.column_stack([cols[i] for i in members]) @ coef[a:b])
            kept[k] = hit
            F += hit[1]
        cache["sums"] = kept
        return cache["xs"], cache["ys"], F


def _grid(view, pixel_size, n):
    """``((x0, x1, y0, y1), nx, ny)``: the view and a quarter more on each side, or None."""
    padded = padded_view(view, pixel_size)
    if padded is None:
        return None
    (x0, x1, y0, y1), width, height = padded
    nx, ny = width / _CELL_PX, height / _CELL_PX
    # the grid size depends on n (a bound on the support vectors), not on the
    # current support, so that it stays put during a run and updates are incremental
    budget = max(_MIN_CELLS, _WORK / max(1, n))
    shrink = math.sqrt(max(1.0, nx * ny / budget))
    nx = int(min(400, max(8, math.ceil(nx / shrink))))
    ny = int(min(400, max(8, math.ceil(ny / shrink))))
    return (x0, x1, y0, y1), nx, ny
