"""The canvas: the data, the learner's hyperplane and the geometry of the proof.

A :class:`Canvas` is a pyqtgraph ``PlotWidget`` that *draws* a
:class:`~perceptron_gui.core.workspace.Workspace` and turns gestures into
edits.  It never changes the workspace: a gesture produces an edit
(:mod:`perceptron_gui.core.dataset`) through :attr:`Canvas.editRequested`; the
window pushes it on its undo stack, the stack applies it to the workspace, the
workspace announces the new data, and the canvas redraws.

Every plot item is created once in ``__init__`` and afterwards only moved,
re-shaped or hidden.  The two per-class scatters are re-set only when the data
set changes; a step of the run touches only the model's items (boundary,
regions, arrows, highlight, marks), so an animation frame costs the same at
100 or 10,000 points apart from the O(n) arithmetic the core does anyway.

Speed (``tests/benchmarks/bench_window.py``): the items that depend on the
weights are redrawn only when ``w`` (the number of updates), the data, the
view, the layers or the scale changed, so a step without an update moves only
the examined sample; the data scatters, the misclassified marks and the
data-only layers (LDA, support vectors) paint from Qt's device-coordinate item
cache while they stand still; the marks are a numpy-only marker item; the
regions are opaque (their tint composited over the background once).

Lines and bands are clipped to (a margin around) the visible rectangle and
recomputed when the view moves, so they are exact at any zoom.  Linear
decision regions are the two exact half-plane polygons; a kernel's regions are
an image of the sign of the decision function on a grid sized to the view, and
its boundary the level-0 contour of that grid (marching squares).
"""

from __future__ import annotations

import gc
import math
import threading

import numpy as np
import pyqtgraph as pg
from PySide6 import QtCore, QtGui, QtWidgets

from ..core.learners.lda import covariance_ellipse
from ..core.text import fmt
from . import style
from .edit_tool import HELP_TEXT, EditTool

__all__ = ["Canvas", "LAYERS", "clip_line", "clip_polygon", "marching_squares"]

#: Layers that can be shown or hidden, with their default visibility.
LAYERS = {
    "boundary": True,  # the decision boundary (line, or kernel contour)
    "regions": True,  # the decision regions, lightly shaded
    "weight": True,  # w as an arrow from the origin
    "delta": True,  # on an update: the added vector eta*y*x, from w_before to w_after
    "ghost": True,  # on an update: the previous boundary, faint and dashed
    "highlight": True,  # the sample being examined
    "mistakes": True,  # the samples misclassified now
    "margin_band": True,  # the current hyperplane's geometric margin, when positive
    "max_margin": False,  # the maximum-margin hyperplane, its band and support vectors
    "radius": True,  # the circle of radius R = max ||x_i|| (linear perceptrons)
    "alpha": True,  # the dual perceptron's alpha_i next to each support vector
    "lda": False,  # LDA's means and 2σ ellipses (always on when the learner is LDA)
    "legend": True,
}

_DATA, _MODEL = 1, 2
_MAX_ALPHA_LABELS = 150
_KERNEL_CELL_PX = 8.0  # kernel grid: one decision value per 8x8 screen pixels ...
_KERNEL_WORK = 4e6  # ... unless cells x support vectors would exceed this
_KERNEL_MIN_CELLS = 900
#: Memory for the cached kernel columns of the decision grid (one per support vector).
_MAX_KERNEL_COLUMNS_BYTES = 64 * 2**20
_UPSAMPLE = 4  # the shaded kernel regions are drawn on a 4x finer (interpolated) grid


#: Delay after the application window first shows before numba is warmed up (ms).
WARMUP_DELAY_MS = 500


# --------------------------------------------------------------------------- warm-up


_warm_up_thread: threading.Thread | None = None
_warm_up_scheduled = False


def warm_up_compiled_loop() -> threading.Thread | None:
    """Load the compiled perceptron loop (numba) in a background thread, once per process.

    Importing numba and loading the loop from its on-disk cache take about
    0.4 s (a compile, about 0.65 s, on the first run after installing): done
    here, soon after the window shows, the first long "run to end" does not
    stall for it.  The thread is not a daemon, so quitting during the warm-up
    waits for it rather than tearing numba down mid-import.

    Returns
    -------
    threading.Thread or None
        The thread, or None when a warm-up was already started.
    """
    global _warm_up_thread
    if _warm_up_thread is not None:
        return None
    _warm_up_thread = threading.Thread(target=_warm_up, name="numba-warm-up", daemon=False)
    _warm_up_thread.start()
    return _warm_up_thread


def _warm_up() -> None:
    # No garbage collection while this thread imports numba (which allocates a
    # lot): a collection here would free the UI thread's cyclic garbage, Qt
    # wrappers included, from the wrong thread.
    collecting = gc.isenabled()
    gc.disable()
    try:
        _load_compiled_loop()
    finally:
        if collecting:
            gc.enable()


def _load_compiled_loop() -> None:
    try:
        from ..core.learners import _scan
        from ..core.learners.perceptron import PrimalPerceptron

        if not _scan.compiled_available():
            return
        # an epoch long enough for the compiled loop, run the way the window runs
        # (read-only data, start + run_to_end), loads the loop from numba's cache
        # for the argument types the window's runs use
        n = _scan.COMPILED_MIN_STRETCH
        X = np.column_stack([np.linspace(-1.0, 1.0, n), np.ones(n)])
        y = np.where(X[:, 0] > 0, 1, -1)
        X.flags.writeable = y.flags.writeable = False
        learner = PrimalPerceptron(max_epochs=1)
        learner.start(X, y)
        learner.run_to_end()
    except Exception:  # noqa: BLE001 - a failed warm-up only means the first run loads it
        pass


# --------------------------------------------------------------------------- geometry


def _unit_normal(w, b):
    """``(n, off)`` with ``n = w/||w||`` and ``off = -b/||w||``, or None for w = 0."""
    w = np.asarray(w, dtype=np.float64)
    if w.shape != (2,) or not np.isfinite(w).all() or not math.isfinite(b):
        return None
    s = float(np.abs(w).max())
    if s == 0.0:
        return None
    w = w / s
    norm = math.hypot(w[0], w[1])
    return w / norm, -(b / s) / norm


def clip_line(normal, offset, rect):
    """The part of the line ``normal·x = offset`` inside ``rect``.

    Parameters
    ----------
    normal : array-like of shape (2,)
        A unit normal vector.
    offset : float
        Signed distance of the line from the origin along ``normal``.
    rect : (x0, x1, y0, y1)
        The clipping rectangle.

    Returns
    -------
    ndarray of shape (2, 2) or None
        The two end points, or None when the line misses the rectangle.
    """
    n = np.asarray(normal, dtype=np.float64)
    p0 = n * offset
    d = np.array([-n[1], n[0]])
    lo, hi = -np.inf, np.inf
    x0, x1, y0, y1 = rect
    for k, (a, c) in enumerate(((x0, x1), (y0, y1))):
        if d[k] == 0.0:
            if not a <= p0[k] <= c:
                return None
            continue
        t1, t2 = (a - p0[k]) / d[k], (c - p0[k]) / d[k]
        lo, hi = max(lo, min(t1, t2)), min(hi, max(t1, t2))
    if not (np.isfinite(lo) and np.isfinite(hi)) or lo > hi:
        return None
    return np.array([p0 + lo * d, p0 + hi * d])


def clip_polygon(rect, constraints):
    """The rectangle ``rect`` cut by half-planes ``normal·x >= level`` (Sutherland–Hodgman).

    Parameters
    ----------
    rect : (x0, x1, y0, y1)
    constraints : iterable of (normal, level)

    Returns
    -------
    ndarray of shape (m, 2)
        The vertices of the convex polygon, counter-clockwise (m = 0 if empty).
    """
    x0, x1, y0, y1 = rect
    poly = [(x0, y0), (x1, y0), (x1, y1), (x0, y1)]
    for normal, level in constraints:
        nx, ny = float(normal[0]), float(normal[1])
        out = []
        for i, p in enumerate(poly):
            q = poly[(i + 1) % len(poly)]
            fp = nx * p[0] + ny * p[1] - level
            fq = nx * q[0] + ny * q[1] - level
            if fp >= 0:
                out.append(p)
            if (fp >= 0) != (fq >= 0):
                t = fp / (fp - fq)
                out.append((p[0] + t * (q[0] - p[0]), p[1] + t * (q[1] - p[1])))
        poly = out
        if not poly:
            break
    return np.array(poly, dtype=np.float64).reshape(-1, 2)


def marching_squares(xs, ys, F, level=0.0):
    """Segments of the contour ``F = level`` of a grid, vectorised.

    Parameters
    ----------
    xs : ndarray of shape (nx,)
        Increasing x coordinates of the grid columns.
    ys : ndarray of shape (ny,)
        Increasing y coordinates of the grid rows.
    F : ndarray of shape (ny, nx)
        Values at ``(xs[j], ys[i])``.
    level : float, default=0.0

    Returns
    -------
    ndarray of shape (2 m, 2)
        End points of ``m`` segments, in pairs (for ``connect="pairs"``).

    Notes
    -----
    A cell edge is crossed where ``F > level`` differs at its ends; the
    crossing is placed by linear interpolation.  A cell with two crossings
    gives one segment; a saddle (four crossings) gives two, paired by the sign
    of the mean of the four corners.
    """
    F = np.asarray(F, dtype=np.float64) - level
    if F.ndim != 2 or F.shape[0] < 2 or F.shape[1] < 2:
        return np.empty((0, 2))
    F = np.where(np.isfinite(F), F, 0.0)
    pos = F > 0
    f00, f01, f10, f11 = F[:-1, :-1], F[:-1, 1:], F[1:, :-1], F[1:, 1:]
    p00, p01, p10, p11 = pos[:-1, :-1], pos[:-1, 1:], pos[1:, :-1], pos[1:, 1:]
    shape = f00.shape
    xs, ys = np.asarray(xs, dtype=np.float64), np.asarray(ys, dtype=np.float64)
    X0, X1 = np.broadcast_to(xs[:-1], shape), np.broadcast_to(xs[1:], shape)
    Y0, Y1 = np.broadcast_to(ys[:-1, None], shape), np.broadcast_to(ys[1:, None], shape)

    def cross(fa, fb):
        with np.errstate(divide="ignore", invalid="ignore"):
            t = fa / (fa - fb)
        return np.clip(np.nan_to_num(t, nan=0.5), 0.0, 1.0)

    # crossings on the four edges: bottom (y0), right (x1), top (y1), left (x0)
    pts = np.empty(shape + (4, 2))
    t = cross(f00, f01)
    pts[..., 0, 0], pts[..., 0, 1] = X0 + t * (X1 - X0), Y0
    t = cross(f01, f11)
    pts[..., 1, 0], pts[..., 1, 1] = X1, Y0 + t * (Y1 - Y0)
    t = cross(f10, f11)
    pts[..., 2, 0], pts[..., 2, 1] = X0 + t * (X1 - X0), Y1
    t = cross(f00, f10)
    pts[..., 3, 0], pts[..., 3, 1] = X0, Y0 + t * (Y1 - Y0)
    hit = np.stack([p00 != p01, p01 != p11, p10 != p11, p00 != p10], axis=-1)
    count = hit.sum(axis=-1)

    two = count == 2
    order = np.argsort(~hit[two], axis=-1, kind="stable")[:, :2]
    P = pts[two]
    rows = np.arange(P.shape[0])
    seg2 = np.stack([P[rows, order[:, 0]], P[rows, order[:, 1]]], axis=1)

    four = count == 4
    P4 = pts[four]
    centre_pos = ((f00 + f01 + f10 + f11)[four] > 0) == p00[four]
    # centre on the side of corners 00 and 11: the curve cuts off corners 01 and 10,
    # pairing (bottom, right) and (top, left); otherwise it cuts off 00 and 11:
    # (bottom, left) and (top, right)
    a = np.where(centre_pos[:, None], [0, 1], [0, 3])
    c = np.where(centre_pos[:, None], [2, 3], [2, 1])
    r4 = np.arange(P4.shape[0])[:, None]
    seg4 = np.concatenate([P4[r4, a], P4[r4, c]], axis=0) if P4.shape[0] else np.empty((0, 2, 2))
    segs = np.concatenate([seg2, seg4.reshape(-1, 2, 2)], axis=0)
    return segs.reshape(-1, 2)


def _bilinear(xs, ys, F, xf, yf):
    """``F`` (on ``xs``×``ys``) interpolated bilinearly at ``xf``×``yf`` (clamped at the edges)."""

    def weights(c, cf):
        step = (c[-1] - c[0]) / (len(c) - 1)
        u = np.clip((cf - c[0]) / step, 0.0, len(c) - 1.0)
        i = np.minimum(np.floor(u).astype(np.intp), len(c) - 2)
        return i, u - i

    ix, tx = weights(xs, xf)
    iy, ty = weights(ys, yf)
    rows = F[iy] * (1 - ty)[:, None] + F[iy + 1] * ty[:, None]
    return rows[:, ix] * (1 - tx) + rows[:, ix + 1] * tx


def _path(polygons) -> QtGui.QPainterPath:
    path = QtGui.QPainterPath()
    for poly in polygons:
        if len(poly) >= 3:
            path.addPolygon(QtGui.QPolygonF([QtCore.QPointF(float(x), float(y)) for x, y in poly]))
            path.closeSubpath()
    return path


def _over_background(rgba) -> tuple[int, int, int, int]:
    """The opaque colour of the translucent ``rgba`` painted over the canvas background."""
    bg = pg.mkColor(style.BACKGROUND)
    a = rgba[3] / 255.0
    return (*(round(c * a + b * (1.0 - a)) for c, b in zip(
        rgba[:3], (bg.red(), bg.green(), bg.blue()), strict=True)), 255)


def _rgba(color, alpha: int) -> QtGui.QColor:
    c = pg.mkColor(color)
    c.setAlpha(alpha)
    return c


# --------------------------------------------------------------------------- items


class _PassiveScatter(pg.ScatterPlotItem):
    """A scatter that never takes a click (the canvas's tool hit-tests itself), and
    whose ``setData`` costs numpy only when every point has the item's style.

    pyqtgraph looks each point's symbol up in its atlas in Python (about 1.5 µs a
    point: 0.15 s for 10⁵ points).  The canvas styles its scatters per item, never
    per point, so one look-up serves every point; per-point styles (a list of
    brushes, say) take pyqtgraph's own path.
    """

    def mouseClickEvent(self, ev):
        ev.ignore()

    def setData(self, *args, **kargs):
        """pyqtgraph's ``setData``; ``setData(pos=array)`` builds the records with numpy.

        pyqtgraph allocates its record array with ``np.empty``, which fills the
        Python-object fields one record at a time (~0.4 µs a point); zeros and
        one assignment of None per field make the same records 10 times faster.
        """
        pos = kargs.get("pos")
        if (args or set(kargs) != {"pos"} or not isinstance(pos, np.ndarray)
                or pos.ndim != 2 or pos.shape[1] != 2):
            super().setData(*args, **kargs)
            return
        self.clear()
        data = np.zeros(pos.shape[0], dtype=self.data.dtype)
        for name in _OBJECT_FIELDS:
            data[name] = None
        data["x"], data["y"] = pos[:, 0], pos[:, 1]
        data["size"] = -1
        data["visible"] = True
        self.data = data
        # the end of ScatterPlotItem.addPoints
        self.prepareGeometryChange()
        self.informViewBoundsChanged()
        self.bounds = [None, None]
        self.invalidate()
        self.updateSpots(data)
        self.sigPlotChanged.emit(self)

    def updateSpots(self, dataSet=None):
        data = self.data if dataSet is None else dataSet
        opts = self.opts
        if not (opts["pxMode"] and opts["useCache"] and not opts["hoverable"]
                and len(data) > 1 and _uniform_style(data)):
            super().updateSpots(dataSet)
            return
        missing = data["sourceRect"]["w"] == 0
        if missing.any():
            style = (opts["symbol"], opts["size"], opts["pen"], opts["brush"])
            (coords,) = self.fragmentAtlas[[style]]
            data["sourceRect"][missing] = tuple(coords)
        self._maybeRebuildAtlas()
        self._updateMaxSpotSizes(data=data)
        if missing.any():
            self.invalidate()


class _Marks(pg.GraphicsObject):
    """Copies of one marker at many points; ``setData`` is numpy only, a paint one call.

    For marks that change during a run (the misclassified samples): even with
    :class:`_PassiveScatter`, a ``ScatterPlotItem`` builds a record array with
    Python objects per point on ``setData`` (tens of ms at 10⁵ points).  This
    item keeps an ``(m, 2)`` array and draws one pre-rendered symbol at every
    visible point with ``QPainter.drawPixmapFragments``, as pyqtgraph's scatter
    does in pixel mode, so the pixels are the same.  It never takes a click.
    """

    def __init__(self):
        super().__init__()
        self._pos = np.empty((0, 2))
        self._bounds = None  # (x0, x1, y0, y1) of the finite points
        self._style = None
        self._pixmap = None
        self._side = 0  # of the pixmap, in device pixels
        self._dpr = 1.0
        self._frags = pg.Qt.internals.PrimitiveArray(QtGui.QPainter.PixmapFragment, 10)

    def set_style(self, symbol, size: float, brush, pen) -> None:
        """The marker: a pyqtgraph symbol name, its size in pixels, brush and pen."""
        self._style = (symbol, float(size), pg.mkPen(pen), pg.mkBrush(brush))
        self._pixmap = None
        self.prepareGeometryChange()
        self.update()

    def setData(self, pos=None, x=None, y=None) -> None:
        """Place the marks at ``pos`` (shape (m, 2)) or at ``x``, ``y``."""
        if pos is None:
            pos = np.column_stack([np.asarray(x, dtype=np.float64).ravel(),
                                   np.asarray(y, dtype=np.float64).ravel()])
        P = np.array(pos, dtype=np.float64).reshape(-1, 2)
        self.prepareGeometryChange()
        self._pos = P
        finite = P[np.isfinite(P).all(axis=1)]
        self._bounds = (None if finite.shape[0] == 0 else
                        (*(float(v) for v in (finite[:, 0].min(), finite[:, 0].max(),
                                              finite[:, 1].min(), finite[:, 1].max())),))
        self.update()

    def getData(self):
        """``(x, y)`` of the marks."""
        return self._pos[:, 0], self._pos[:, 1]

    def _pad(self):
        """Half the marker's extent (with its diagonal), in item units along x and y."""
        if self._style is None:
            return 0.0, 0.0
        symbol, size, pen, _ = self._style
        pad_px = (size + max(math.ceil(pen.widthF()), 1)) * 0.7072
        px, py = self.pixelVectors()
        try:
            return (0.0 if px is None else px.length() * pad_px,
                    0.0 if py is None else py.length() * pad_px)
        except OverflowError:
            return 0.0, 0.0

    def boundingRect(self):
        if self._bounds is None:
            return QtCore.QRectF()
        x0, x1, y0, y1 = self._bounds
        px, py = self._pad()
        return QtCore.QRectF(x0 - px, y0 - py, x1 - x0 + 2 * px, y1 - y0 + 2 * py)

    def viewTransformChanged(self):
        self.prepareGeometryChange()  # the pixel padding of the bounds changed
        super().viewTransformChanged()

    def setExportMode(self, export, opts=None):
        super().setExportMode(export, opts)
        self.update()  # the item cache holds the other mode's drawing

    def paint(self, p, option, widget=None):
        if self._bounds is None or self._style is None:
            return
        export = self._exportOpts
        if export is not False:  # SVG or image export: vector symbols, as pyqtgraph's scatter
            from pyqtgraph.graphicsItems.ScatterPlotItem import drawSymbol

            symbol, size, pen, brush = self._style
            size *= export.get("resolutionScale", 1.0)
            p.setRenderHint(p.RenderHint.Antialiasing, export.get("antialias", True))
            pts = pg.functions.transformCoordinates(p.transform(), self._pos.T)
            for x, y in pts.T:
                p.resetTransform()
                p.translate(float(x), float(y))
                drawSymbol(p, symbol, size, pen, brush)
            return
        # the device's ratio: the widget's, or the item cache's pixmap (widget None)
        device = p.device()
        dpr = (device.devicePixelRatioF() if device is not None
               else widget.devicePixelRatioF() if widget is not None else 1.0)
        if self._pixmap is None or dpr != self._dpr:
            from pyqtgraph.graphicsItems.ScatterPlotItem import renderSymbol

            image = renderSymbol(*self._style, dpr=dpr)
            self._pixmap = QtGui.QPixmap.fromImage(image)
            self._side, self._dpr = image.width(), dpr
        pos = self._pos
        view = self.viewRect()
        if view is not None:  # cull what is off the view
            px, py = self._pad()
            x, y = pos[:, 0], pos[:, 1]
            pos = pos[(x > view.left() - px) & (x < view.right() + px)
                      & (y > view.top() - py) & (y < view.bottom() + py)]
        if pos.shape[0] == 0:
            return
        pts = pg.functions.transformCoordinates(p.transform(), pos.T)
        pts = np.clip(pts, -2.0**30, 2.0**30)  # Qt misbehaves beyond
        p.resetTransform()
        self._frags.resize(pos.shape[0])
        frags = self._frags.ndarray()
        frags[:, 0:2] = pts.T
        frags[:, 2:6] = (0.0, 0.0, self._side, self._side)
        frags[:, 6:10] = (1.0 / dpr, 1.0 / dpr, 0.0, 1.0)
        p.drawPixmapFragments(*self._frags.drawargs(), self._pixmap)


_OBJECT_FIELDS = ("symbol", "pen", "brush", "data", "item")


def _uniform_style(data) -> bool:
    """True when no point of a scatter's record array has a style of its own."""
    if not np.all(data["size"] == -1):
        return False
    return all(np.equal(data[key], None).all() for key in ("symbol", "pen", "brush"))


class _LegendSample(pg.ItemSample):
    """A legend sample that does not toggle its item on click."""

    def mouseClickEvent(self, ev):
        ev.accept()


class _CanvasViewBox(pg.ViewBox):
    """A ViewBox that offers clicks on empty space to the canvas (drags pan)."""

    def __init__(self, canvas: Canvas):
        super().__init__(enableMenu=False)
        self._canvas = canvas

    def mouseClickEvent(self, ev):
        if self._canvas._view_click(ev):
            ev.accept()
            return
        super().mouseClickEvent(ev)



# --------------------------------------------------------------------------- canvas


class Canvas(pg.PlotWidget):
    """The 2-D view of the workspace: points, hyperplane, margins, and editing.

    Parameters
    ----------
    workspace : Workspace
        The Qt-free workspace drawn; its signals schedule redraws.
    parent : QWidget, optional

    Attributes
    ----------
    editRequested : Signal(object)
        A data-set edit the user asked for (the window applies it through its
        undo stack; the canvas never applies it itself).
    dragFinished : Signal()
        A point drag ended (the stream of ``MovePoints`` of one drag is over;
        the next move must start a new undo step).
    activeClassChanged : Signal(int)
        The class a left click adds changed (+1 or -1).
    selectionChanged : Signal(object)
        The selected indices changed (a sorted int array).
    tool : EditTool
        The gesture logic (hit-testing, selection, drag state).

    Notes
    -----
    Gestures are listed in :data:`perceptron_gui.ui.edit_tool.HELP_TEXT`
    (also the canvas's tool tip and status tip).  Clicks in tests go to
    ``canvas.viewport()`` at :meth:`data_to_widget`.
    """

    editRequested = QtCore.Signal(object)
    dragFinished = QtCore.Signal()
    activeClassChanged = QtCore.Signal(int)
    selectionChanged = QtCore.Signal(object)

    def __init__(self, workspace, parent=None):
        vb = _CanvasViewBox(self)
        super().__init__(parent=parent, background=style.BACKGROUND, viewBox=vb)
        self.setObjectName("canvas")
        self.workspace = workspace
        self._vb = vb
        self._scale = style.NORMAL
        self._layers = dict(LAYERS)
        self._dirty = _DATA | _MODEL
        self._drawn_dataset = None  # the data set the scatters show
        self._weights_state: tuple | None = None  # what the weight-dependent items show
        self._static_keys: dict = {}  # what the data-only layers (max margin, LDA) show
        self._model_version = 0
        self._kernel_cache: dict | None = None
        self._mistake_key: bytes | None = None
        self._alpha_key: bytes | None = None
        self._legend_key: tuple | None = None
        self._legend_text_width: tuple = (None, 0.0)
        self._radius = math.nan
        self._cursor: QtCore.QPointF | None = None
        self._press: _Press | None = None  # a press on a point, until its release

        self.tool = EditTool(self.editRequested.emit)
        self.tool.set_dataset(workspace.dataset)
        self.tool.active_class_changed.connect(self.activeClassChanged.emit)
        self.tool.selection_changed.connect(self._on_selection_changed)
        self.tool.drag_finished.connect(self.dragFinished.emit)

        self._setup_plot()
        self._create_items()
        self._apply_scale()

        self._timer = QtCore.QTimer(self)
        self._timer.setObjectName("canvasRedrawTimer")
        self._timer.setSingleShot(True)
        self._timer.setInterval(0)
        self._timer.timeout.connect(self._flush)
        vb.sigRangeChanged.connect(self._on_view_changed)
        vb.sigResized.connect(self._on_view_changed)

        workspace.dataset_changed.connect(self._on_dataset_changed)
        workspace.learner_changed.connect(self._on_learner_changed)
        workspace.run_changed.connect(self._on_run_changed)
        slots = (self._on_dataset_changed, self._on_learner_changed, self._on_run_changed)
        self.destroyed.connect(lambda *_: _disconnect(workspace, slots))

        self.setToolTip(HELP_TEXT)
        self.setStatusTip(
            "Click: add a point · right-click: other class · drag a point: move · "
            "Del: delete · 1/2/T: active class"
        )
        self.setWhatsThis(HELP_TEXT)
        self.setFocusPolicy(QtCore.Qt.FocusPolicy.StrongFocus)
        self.setMouseTracking(True)
        self.viewport().setCursor(QtCore.Qt.CursorShape.CrossCursor)
        self.fit_view()
        self.refresh()

    # -- construction ------------------------------------------------------------------------
    def _setup_plot(self) -> None:
        pi = self.getPlotItem()
        pi.setMenuEnabled(False)
        self._vb.setMenuEnabled(False)
        pi.hideButtons()
        self.setAspectLocked(True)
        self._vb.disableAutoRange()
        pi.showGrid(x=True, y=True, alpha=0.12)
        for name in ("bottom", "left"):
            axis = pi.getAxis(name)
            axis.setPen(pg.mkPen(style.FOREGROUND))
            axis.setTextPen(pg.mkPen(style.FOREGROUND))
            # the axes also draw the grid over the whole plot: cache their pixels so a
            # frame of the run (view unchanged) does not redraw hundreds of grid lines
            axis.setCacheMode(QtWidgets.QGraphicsItem.CacheMode.DeviceCoordinateCache)
        # the legend sits under the plot, in its own row: it never covers a point
        self._legend = pg.LegendItem(
            sampleType=_LegendSample, labelTextColor=style.FOREGROUND, colCount=4,
            horSpacing=12, verSpacing=-6,
        )
        self._legend.setObjectName("canvasLegend")
        self._legend.setCacheMode(QtWidgets.QGraphicsItem.CacheMode.DeviceCoordinateCache)
        self.legend = self._legend
        pi.layout.addItem(self._legend, 4, 1)

    def _add(self, item, z: float, passive: bool = True):
        item.setZValue(z)
        if passive:
            item.setAcceptedMouseButtons(QtCore.Qt.MouseButton.NoButton)
        self._vb.addItem(item, ignoreBounds=True)
        return item

    def _create_items(self) -> None:
        A = self._add
        # origin axes (over the regions, which are opaque)
        self.axis_x = A(pg.InfiniteLine(pos=0, angle=0, movable=False), -24)
        self.axis_y = A(pg.InfiniteLine(pos=0, angle=90, movable=False), -24)
        # regions: exact half-plane polygons (linear) or a sign image (kernel).  They
        # are the bottom layer and always cover the whole view, so their translucent
        # tints are composited over the background once, here: an opaque fill of
        # the view costs a fraction of an alpha-blended one, every frame.
        self.region_pos = A(QtWidgets.QGraphicsPathItem(), -25)
        self.region_neg = A(QtWidgets.QGraphicsPathItem(), -25)
        pos_rgba, neg_rgba = _over_background(style.POS_REGION), _over_background(style.NEG_REGION)
        for item, rgba in ((self.region_pos, pos_rgba), (self.region_neg, neg_rgba)):
            item.setPen(QtGui.QPen(QtCore.Qt.PenStyle.NoPen))
            item.setBrush(QtGui.QBrush(QtGui.QColor(*rgba)))
        self.region_image = A(pg.ImageItem(axisOrder="row-major"), -25)
        lut = np.array([neg_rgba, pos_rgba], dtype=np.ubyte)
        self.region_image.setLookupTable(lut)
        self.region_image.setLevels([0, 1])
        # bands (fill + dashed edges)
        self.band_fill = A(QtWidgets.QGraphicsPathItem(), -22)
        self.band_edges = A(pg.PlotCurveItem(connect="pairs", antialias=True), -21)
        self.mm_fill = A(QtWidgets.QGraphicsPathItem(), -20)
        self.mm_edges = A(pg.PlotCurveItem(connect="pairs", antialias=True), -19)
        self.mm_line = A(pg.PlotCurveItem(antialias=True), -18)
        self.mm_support = A(_PassiveScatter(), 9)
        # R circle, LDA
        self.radius_circle = A(QtWidgets.QGraphicsEllipseItem(), -17)  # cheaper than a polyline
        self.radius_circle.setBrush(QtGui.QBrush(QtCore.Qt.BrushStyle.NoBrush))
        self.lda_ellipses = A(pg.PlotCurveItem(connect="finite", antialias=True), -16)
        self.lda_line = A(pg.PlotCurveItem(antialias=True), -15)
        self.lda_means = A(_PassiveScatter(), 14)
        # the model
        self.ghost_line = A(pg.PlotCurveItem(antialias=True), -14)
        self.boundary = A(pg.PlotCurveItem(antialias=True), -12)
        self.contour = A(pg.PlotCurveItem(connect="pairs", antialias=True), -12)
        self.weight_line = A(pg.PlotCurveItem(antialias=True), 5)
        self.weight_head = A(pg.ArrowItem(), 5)
        self.weight_label = A(pg.TextItem("w", anchor=(-0.15, 1.0)), 5)
        self.delta_line = A(pg.PlotCurveItem(antialias=True), 6)
        self.delta_head = A(pg.ArrowItem(), 6)
        # marks around the data
        self.highlight = A(_Marks(), 8)
        self.selection_marks = A(_PassiveScatter(), 11)
        self.scatter_pos = A(_PassiveScatter(), 10)
        self.scatter_neg = A(_PassiveScatter(), 10)
        self.mistake_marks = A(_Marks(), 12)
        # The data scatters change only with the data, and the marks only with w:
        # painted from a cached pixmap of the view's size, a frame blits them
        # instead of drawing every marker (at 10⁵ points, 30 ms -> 10 ms a paint).
        # So do LDA's ellipses (long dashed antialiased curves: ~1 ms a paint), its
        # line and means, and the support vectors (pyqtgraph's per-paint Python).
        # While the data change (an edit, a drag) the scatters paint directly: a
        # cache would be redrawn and blitted on every change (see _flush).
        for item in (self.mistake_marks, self.lda_ellipses, self.lda_line, self.lda_means,
                     self.mm_support):
            item.setCacheMode(QtWidgets.QGraphicsItem.CacheMode.DeviceCoordinateCache)
        self._alpha_labels: list[pg.TextItem] = []  # the pool
        self._alpha_free: list[pg.TextItem] = []
        self._alpha_shown: dict[int, tuple[pg.TextItem, int]] = {}
        for item in self._model_items():
            item.setVisible(False)

    def _model_items(self):
        return (
            self.region_pos, self.region_neg, self.region_image, self.band_fill, self.band_edges,
            self.mm_fill, self.mm_edges, self.mm_line, self.mm_support, self.radius_circle,
            self.lda_ellipses, self.lda_line, self.lda_means, self.ghost_line, self.boundary,
            self.contour, self.weight_line, self.weight_head, self.weight_label, self.delta_line,
            self.delta_head, self.highlight, self.mistake_marks,
        )

    def _apply_scale(self) -> None:
        s = self._scale
        lw = s.line
        dash = QtCore.Qt.PenStyle.DashLine
        axis_pen = pg.mkPen(_rgba(style.FOREGROUND, 110), width=max(1.0, lw * 0.5))
        self.axis_x.setPen(axis_pen)
        self.axis_y.setPen(axis_pen)
        self.band_fill.setBrush(QtGui.QBrush(_rgba(style.BOUNDARY_COLOR, 20)))
        self.band_fill.setPen(QtGui.QPen(QtCore.Qt.PenStyle.NoPen))
        band_pen = pg.mkPen(_rgba(style.BOUNDARY_COLOR, 150), width=lw * 0.6, style=dash)
        self.band_edges.setPen(band_pen)
        self.mm_fill.setBrush(QtGui.QBrush(_rgba(style.MAXMARGIN_COLOR, 40)))
        self.mm_fill.setPen(QtGui.QPen(QtCore.Qt.PenStyle.NoPen))
        self.mm_edges.setPen(pg.mkPen(style.MAXMARGIN_COLOR, width=lw * 0.6, style=dash))
        self.mm_line.setPen(pg.mkPen(style.MAXMARGIN_COLOR, width=lw))
        _style_scatter(self.mm_support, "o", s.marker * 2.0, None,
                       pg.mkPen(style.MAXMARGIN_COLOR, width=lw))
        self.radius_circle.setPen(pg.mkPen(style.RADIUS_COLOR, width=lw * 0.5))
        self.lda_ellipses.setPen(pg.mkPen(style.LDA_COLOR, width=lw * 0.75, style=dash))
        self.lda_line.setPen(pg.mkPen(style.LDA_COLOR, width=lw, style=dash))
        _style_scatter(self.lda_means, "+", s.marker * 2.4, style.LDA_COLOR,
                       pg.mkPen(style.FOREGROUND, width=1))
        self.ghost_line.setPen(pg.mkPen(_rgba(style.GHOST_COLOR, 200), width=lw * 0.75, style=dash))
        self.boundary.setPen(pg.mkPen(style.BOUNDARY_COLOR, width=lw))
        self.contour.setPen(pg.mkPen(style.BOUNDARY_COLOR, width=lw))
        head = dict(headLen=lw * 6 + 4, headWidth=lw * 2.5 + 2, tailLen=None, pxMode=True)
        self.weight_line.setPen(pg.mkPen(style.WEIGHT_COLOR, width=lw * 1.25))
        self.weight_head.setStyle(pen=pg.mkPen(style.WEIGHT_COLOR), brush=style.WEIGHT_COLOR,
                                  **head)
        self.delta_line.setPen(pg.mkPen(style.DELTA_COLOR, width=lw * 1.25))
        self.delta_head.setStyle(pen=pg.mkPen(style.DELTA_COLOR), brush=style.DELTA_COLOR, **head)
        font = QtGui.QFont()
        font.setPointSizeF(s.font_pt)
        bold = QtGui.QFont(font)
        bold.setBold(True)
        self.weight_label.setFont(bold)
        self.weight_label.setColor(style.WEIGHT_COLOR)
        self._label_font = font
        for label in self._alpha_labels:
            label.setFont(font)
        self.highlight.set_style("o", s.marker * 2.2, _rgba(style.HIGHLIGHT_COLOR, 150),
                                 pg.mkPen(style.FOREGROUND, width=max(1.0, lw * 0.5)))
        _style_scatter(self.selection_marks, "o", s.marker * 1.8, None,
                       pg.mkPen(style.FOREGROUND, width=max(1.0, lw * 0.75), style=dash))
        self.mistake_marks.set_style("x", s.marker * 0.9, style.MISTAKE_COLOR,
                                     pg.mkPen("w", width=0.5))
        self._mistake_key = None
        edge = pg.mkPen("w", width=max(1.0, lw * 0.4))
        _style_scatter(self.scatter_pos, style.POS_SYMBOL, s.marker, style.POS_COLOR, edge)
        _style_scatter(self.scatter_neg, style.NEG_SYMBOL, s.marker, style.NEG_COLOR, edge)
        pi = self.getPlotItem()
        for name in ("bottom", "left"):
            pi.getAxis(name).setStyle(tickFont=font)
        self._legend.setLabelTextSize(f"{s.font_pt}pt")
        self._legend_key = None
        self._drawn_dataset = None  # restyled: the next refresh re-sets the scatters
        self._weights_state = None  # ... and redraws the model
        self._static_keys = {}

    # -- public API --------------------------------------------------------------------------
    @property
    def active_class(self) -> int:
        """The class (+1 or -1) a left click adds; a right click adds the other."""
        return self.tool.active_class

    @active_class.setter
    def active_class(self, value: int) -> None:
        self.tool.active_class = value

    @property
    def selection(self) -> np.ndarray:
        """Sorted indices of the selected points."""
        return self.tool.selection

    def refresh(self) -> None:
        """Redraw everything from the workspace, now (synchronously).

        The per-class scatters are re-set only when the data set (immutable, so
        compared by identity) or the style changed since they were drawn: a
        refresh during a run costs what a frame costs, at any number of points.
        """
        self._dirty |= _MODEL
        if self.workspace.dataset is not self._drawn_dataset:
            self._dirty |= _DATA
        self._flush()

    def fit_view(self) -> None:
        """Frame the data and the origin with a margin ([-5, 5]² without data)."""
        b = self.workspace.dataset.bounds()
        if b is None:
            x0, x1, y0, y1 = -5.0, 5.0, -5.0, 5.0
        else:
            x0, x1 = min(b[0], 0.0), max(b[1], 0.0)
            y0, y1 = min(b[2], 0.0), max(b[3], 0.0)
            big = max(abs(x0), abs(x1), abs(y0), abs(y1))
            floor = big * 1e-6 if big > 0 else 1.0
            span = max(x1 - x0, y1 - y0, floor)
            pad = 0.12 * span
            cx, cy = (x0 + x1) / 2, (y0 + y1) / 2
            half_x = max((x1 - x0) / 2, span * 0.25) + pad
            half_y = max((y1 - y0) / 2, span * 0.25) + pad
            x0, x1, y0, y1 = cx - half_x, cx + half_x, cy - half_y, cy + half_y
        self._vb.setRange(xRange=(x0, x1), yRange=(y0, y1), padding=0)

    def set_scale(self, scale: style.Scale) -> None:
        """Presenter mode: marker sizes, line widths and fonts from ``scale``."""
        self._scale = scale
        self._apply_scale()
        self.refresh()

    def set_visible_layers(self, **flags: bool) -> None:
        """Show or hide layers by name (see :data:`LAYERS`); unknown names raise ValueError."""
        unknown = set(flags) - set(self._layers)
        if unknown:
            raise ValueError(f"unknown layer(s) {sorted(unknown)}; known: {sorted(self._layers)}")
        for name, value in flags.items():
            self._layers[name] = bool(value)
        self._schedule(_MODEL)

    def layer_visible(self, name: str) -> bool:
        """Whether the layer ``name`` is switched on."""
        if name not in self._layers:
            raise ValueError(f"unknown layer {name!r}; known: {sorted(self._layers)}")
        return self._layers[name]

    def layers(self) -> dict:
        """A copy of every layer's on/off state."""
        return dict(self._layers)

    def data_to_widget(self, x: float, y: float) -> QtCore.QPointF:
        """Data coordinates to pixel coordinates in :meth:`viewport` (for test clicks)."""
        scene = self._vb.mapViewToScene(QtCore.QPointF(float(x), float(y)))
        return self.viewportTransform().map(scene)

    def widget_to_data(self, pos) -> QtCore.QPointF:
        """Pixel coordinates in :meth:`viewport` to data coordinates."""
        scene = self.viewportTransform().inverted()[0].map(QtCore.QPointF(pos))
        return self._vb.mapSceneToView(scene)

    def pixel_size(self) -> tuple[float, float]:
        """Data size of one screen pixel along x and y."""
        sx, sy = self._vb.viewPixelSize()
        return float(sx), float(sy)

    # -- workspace signals ---------------------------------------------------------------------
    def _on_dataset_changed(self, dataset) -> None:
        self.tool.set_dataset(dataset)
        self._schedule(_DATA | _MODEL)

    def _on_learner_changed(self) -> None:
        self._model_version += 1
        self._schedule(_MODEL)

    def _on_run_changed(self, event=None) -> None:
        self._schedule(_MODEL)

    def _on_view_changed(self, *args) -> None:
        self._schedule(_MODEL)

    def _on_selection_changed(self, selection) -> None:
        self._update_selection()
        self.selectionChanged.emit(selection)

    def _schedule(self, what: int) -> None:
        self._dirty |= what
        if not self._timer.isActive():
            self._timer.start()

    def _flush(self) -> None:
        self._timer.stop()
        if getattr(self, "closed", False):
            return  # pyqtgraph's close() deleted the scene's items
        dirty, self._dirty = self._dirty, 0
        if dirty & _DATA:
            self._update_data()
        if dirty & (_DATA | _MODEL):
            self._update_model()
        # cache the data scatters from the first redraw that did not change them
        mode = QtWidgets.QGraphicsItem.CacheMode
        wanted = mode.NoCache if dirty & _DATA else mode.DeviceCoordinateCache
        for item in (self.scatter_pos, self.scatter_neg):
            if item.cacheMode() != wanted:
                item.setCacheMode(wanted)

    # -- drawing: data -------------------------------------------------------------------------
    def _update_data(self) -> None:
        ds = self.workspace.dataset
        self._drawn_dataset = ds
        X, y = ds.X, ds.y
        self.scatter_pos.setData(pos=X[y == 1])
        self.scatter_neg.setData(pos=X[y == -1])
        self._radius = float(np.sqrt(np.max(np.einsum("ij,ij->i", X, X)))) if ds.n else math.nan
        self._update_selection()
        self._mistake_key = None
        self._hide_alpha_labels()

    def _update_selection(self) -> None:
        sel = self.tool.selection
        X = self.workspace.dataset.X
        sel = sel[sel < X.shape[0]]
        self.selection_marks.setData(pos=X[sel])
        self.selection_marks.setVisible(sel.size > 0)

    # -- drawing: model ------------------------------------------------------------------------
    def _clip_rect(self, grow: float = 1.0):
        (x0, x1), (y0, y1) = self._vb.viewRange()
        w, h = x1 - x0, y1 - y0
        return (x0 - grow * w, x1 + grow * w, y0 - grow * h, y1 + grow * h)

    def _update_model(self) -> None:
        """Redraw the model: what depends on the weights only when they changed.

        Most steps of a run make no update: then only the examined sample (and
        the update arrow and ghost, which show on an update) move.  Everything
        else depends on the data, the learner, its number of updates ``k``, the
        view, the layers and the scale, and is redrawn only when one changed.
        """
        ws = self.workspace
        learner = ws.learner
        (x0, x1), (y0, y1) = self._vb.viewRange()
        state = (ws.dataset, learner, int(learner.n_updates_) if ws.running else -1,
                 (float(x0), float(x1), float(y0), float(y1), *self.pixel_size()),
                 tuple(self._layers.values()), self._model_version)
        if self._weights_state is None or not all(
                a is b or (isinstance(a, (int, tuple)) and a == b)
                for a, b in zip(self._weights_state, state, strict=True)):
            self._weights_state = state
            self._update_weights()
        self._update_event()

    def _update_event(self) -> None:
        """The examined sample, and on an update the vector η·y·x and the previous boundary."""
        ws = self.workspace
        ds = ws.dataset
        L = self._layers
        ev = ws.current_event if ws.running else None
        update = ev is not None and ev.mistake and ev.w_before is not None
        show_delta = update and L["delta"] and np.all(np.isfinite(ev.w_after))
        if show_delta:
            self._set_arrow(self.delta_line, self.delta_head, ev.w_before, ev.w_after)
        else:
            self.delta_head.setVisible(False)
        self.delta_line.setVisible(bool(show_delta))
        ghost = _unit_normal(ev.w_before, ev.b_before) if update and L["ghost"] else None
        gseg = clip_line(*ghost, self._clip_rect()) if ghost is not None else None
        _set_segments(self.ghost_line, [gseg] if gseg is not None else [], True)
        if ev is not None and L["highlight"] and ev.index < ds.n:
            self.highlight.setData(pos=ds.X[ev.index : ev.index + 1])
            self.highlight.setVisible(True)
        else:
            self.highlight.setVisible(False)

    def _update_weights(self) -> None:
        ws = self.workspace
        ds = ws.dataset
        L = self._layers
        ro = ws.readouts() if ds.n else None
        w = ro.w if ro is not None else None
        b = float(ro.b) if ro is not None else 0.0
        hyper = _unit_normal(w, b) if w is not None else None
        rect = self._clip_rect()
        kernel = ws.is_kernel and ws.running

        # boundary and regions
        seg = clip_line(*hyper, rect) if hyper is not None else None
        _set_segments(self.boundary, [seg] if seg is not None else [], L["boundary"])
        if hyper is not None and L["regions"]:
            n, off = hyper
            self.region_pos.setPath(_path([clip_polygon(rect, [(n, off)])]))
            self.region_neg.setPath(_path([clip_polygon(rect, [(-n, -off)])]))
            self.region_pos.setVisible(True)
            self.region_neg.setVisible(True)
        else:
            self.region_pos.setVisible(False)
            self.region_neg.setVisible(False)
        self._update_kernel(kernel and (L["regions"] or L["boundary"]))

        # w (the update eta*y*x and the ghost of the previous boundary: _update_event)
        show_w = hyper is not None and L["weight"]
        if show_w:
            self._set_arrow(self.weight_line, self.weight_head, np.zeros(2), np.asarray(w))
            self._place_weight_label(np.asarray(w, dtype=np.float64))
        else:
            self.weight_head.setVisible(False)
        self._show(show_w, self.weight_line, self.weight_label)

        # the mistakes
        kernel_model = kernel and getattr(ws.learner, "support_", np.empty(0)).size > 0
        self._update_mistakes(L["mistakes"] and (hyper is not None or kernel_model))

        # the current margin band, the maximum-margin hyperplane
        margin = ro.margin if ro is not None else math.nan
        if hyper is not None and L["margin_band"] and math.isfinite(margin) and margin > 0:
            self._set_band(self.band_fill, self.band_edges, hyper, margin, rect)
        else:
            self._show(False, self.band_fill, self.band_edges)
        self._update_max_margin(rect)

        # R, alpha, LDA
        show_r = (
            L["radius"] and ws.is_perceptron and not ws.is_kernel
            and math.isfinite(self._radius) and self._radius > 0
        )
        if show_r:
            r = self._radius
            self.radius_circle.setRect(QtCore.QRectF(-r, -r, 2 * r, 2 * r))
        self.radius_circle.setVisible(bool(show_r))
        self._update_alpha()
        self._update_lda(rect)
        self._update_legend()

    def _show(self, visible: bool, *items) -> None:
        for item in items:
            item.setVisible(bool(visible))

    def _set_arrow(self, line, head, start, end) -> None:
        start = np.asarray(start, dtype=np.float64)
        end = np.asarray(end, dtype=np.float64)
        line.setData([start[0], end[0]], [start[1], end[1]])
        head.setPos(float(end[0]), float(end[1]))
        sx, sy = self.pixel_size()
        v = end - start
        length_px = math.hypot(v[0] / sx, v[1] / sy) if sx > 0 and sy > 0 else 0.0
        if length_px > 0:
            # ArrowItem: angle 0 points the head LEFT, angles turn clockwise on screen
            # (y down), so a screen direction phi needs angle phi + 180 degrees.
            phi = math.degrees(math.atan2(-v[1] / sy, v[0] / sx))
            head.setStyle(angle=phi + 180.0)
        # a head longer than its vector would poke out behind the start: leave it off
        head.setVisible(bool(length_px >= head.opts["headLen"]))

    def _place_weight_label(self, w) -> None:
        """Put "w" beside the middle of the visible part of the arrow (never off the view)."""
        (x0, x1), (y0, y1) = self._vb.viewRange()
        # largest t in [0, 1] with t*w inside the view (when the origin is in view)
        t = 1.0
        for k, (a, c) in enumerate(((x0, x1), (y0, y1))):
            if w[k] > 0 and c > 0:
                t = min(t, c / w[k])
            elif w[k] < 0 and a < 0:
                t = min(t, a / w[k])
        mid = 0.5 * t * w
        self.weight_label.setPos(float(mid[0]), float(mid[1]))
        # shift the text to the left of the arrow, on screen (y down)
        sx, sy = self.pixel_size()
        if sx > 0 and sy > 0:
            d = np.array([w[0] / sx, -w[1] / sy])
            norm = math.hypot(d[0], d[1])
            if norm > 0 and math.isfinite(norm):
                left = np.array([d[1], -d[0]]) / norm  # the screen direction 90° anticlockwise
                self.weight_label.setAnchor((0.5 - 0.8 * left[0], 0.5 - 0.8 * left[1]))

    def _set_band(self, fill, edges, hyper, half_width, rect) -> None:
        n, off = hyper
        poly = clip_polygon(rect, [(n, off - half_width), (-n, -(off + half_width))])
        fill.setPath(_path([poly]))
        segs = [clip_line(n, off - half_width, rect), clip_line(n, off + half_width, rect)]
        _set_segments(edges, [s for s in segs if s is not None], True)
        self._show(True, fill)

    def _update_mistakes(self, on: bool) -> None:
        idx = self.workspace.misclassified() if on else np.empty(0, np.int64)
        key = idx.tobytes()
        if key != self._mistake_key:
            self._mistake_key = key
            self.mistake_marks.setData(pos=self.workspace.dataset.X[idx])
        self.mistake_marks.setVisible(idx.size > 0)

    def _update_max_margin(self, rect) -> None:
        mm = self.workspace.max_margin if self._layers["max_margin"] else None
        ok = mm is not None and mm.separable and np.all(np.isfinite(mm.coef))
        hyper = _unit_normal(mm.coef, float(mm.intercept)) if ok else None
        if hyper is None:
            self._show(False, self.mm_fill, self.mm_edges, self.mm_line, self.mm_support)
            self._static_keys.pop("max_margin", None)
            return
        if self._unchanged("max_margin", (mm, rect)):
            return  # the data and the view are the same: so is the drawing
        seg = clip_line(*hyper, rect)
        _set_segments(self.mm_line, [seg] if seg is not None else [], True)
        self._set_band(self.mm_fill, self.mm_edges, hyper, float(mm.margin), rect)
        self.mm_support.setData(pos=self.workspace.dataset.X[np.asarray(mm.support)])
        self.mm_support.setVisible(True)

    def _unchanged(self, name: str, key: tuple) -> bool:
        """Whether the layer ``name`` was last drawn from ``key`` (objects by identity)."""
        old = self._static_keys.get(name)
        if old is not None and len(old) == len(key) and all(
                a is b or (isinstance(a, (str, tuple)) and a == b)
                for a, b in zip(old, key, strict=True)):
            return True
        self._static_keys[name] = key
        return False

    def _update_alpha(self) -> None:
        """Label each support vector with its alpha_i (pooled TextItems, changed ones only)."""
        ws = self.workspace
        alpha = getattr(ws.learner, "alpha_", None)
        on = self._layers["alpha"] and ws.learner_name == "dual" and ws.running
        if not on or alpha is None or len(alpha) != ws.dataset.n:
            self._hide_alpha_labels()
            return
        key = np.asarray(alpha).tobytes()
        if key == self._alpha_key:
            return
        self._alpha_key = key
        sv = np.flatnonzero(alpha)
        if sv.size > _MAX_ALPHA_LABELS:  # label the largest ones only
            sv = sv[np.argsort(-alpha[sv], kind="stable")[:_MAX_ALPHA_LABELS]]
        wanted = {int(i): int(alpha[i]) for i in sv}
        shown = self._alpha_shown  # sample index -> (label, alpha shown)
        for i in [i for i in shown if i not in wanted]:
            label, _ = shown.pop(i)
            label.setVisible(False)
            self._alpha_free.append(label)
        X = ws.dataset.X
        for i, a in wanted.items():
            if i in shown:
                label, old = shown[i]
                if old == a:
                    continue
            else:
                label = self._alpha_free.pop() if self._alpha_free else self._new_alpha_label()
                label.setPos(float(X[i, 0]), float(X[i, 1]))
                label.setVisible(True)
            label.setText(f"α={fmt(a, 0)}")
            shown[i] = (label, a)

    def _new_alpha_label(self) -> pg.TextItem:
        label = self._add(pg.TextItem(color=style.FOREGROUND, anchor=(-0.2, 1.0)), 13)
        label.setFont(self._label_font)
        self._alpha_labels.append(label)
        return label

    def _hide_alpha_labels(self) -> None:
        for label, _ in self._alpha_shown.values():
            label.setVisible(False)
            self._alpha_free.append(label)
        self._alpha_shown.clear()
        self._alpha_key = None

    def _update_lda(self, rect) -> None:
        ws = self.workspace
        on = ws.learner_name == "lda" or self._layers["lda"]
        lda = ws.lda if on else None
        if lda is None:
            self._show(False, self.lda_ellipses, self.lda_means, self.lda_line)
            self._static_keys.pop("lda", None)
            return
        if self._unchanged("lda", (lda, ws.learner_name, rect)):
            return
        means = np.asarray(lda.means_, dtype=np.float64)
        cov = np.asarray(lda.covariance_, dtype=np.float64)
        if not (np.isfinite(means).all() and np.isfinite(cov).all()):
            self._show(False, self.lda_ellipses, self.lda_means, self.lda_line)
            return
        curves = [covariance_ellipse(m, cov, n_std=2.0) for m in means]
        xy = np.concatenate([curves[0], [[np.nan, np.nan]], curves[1]])
        self.lda_ellipses.setData(xy[:, 0], xy[:, 1])
        # means_ follow classes_, which the core keeps as (-1, +1)
        self.lda_means.setData(pos=means, brush=[pg.mkBrush(style.NEG_COLOR),
                                                 pg.mkBrush(style.POS_COLOR)])
        self._show(True, self.lda_ellipses, self.lda_means)
        # the LDA boundary beside a perceptron's (LDA's own is the main boundary)
        hyper = None
        if ws.learner_name != "lda":
            hyper = _unit_normal(lda.coef_[0], float(lda.intercept_[0]))
        seg = clip_line(*hyper, rect) if hyper is not None else None
        _set_segments(self.lda_line, [seg] if seg is not None else [], True)

    # -- kernel grid ---------------------------------------------------------------------------
    def _update_kernel(self, on: bool) -> None:
        if not on:
            self._show(False, self.region_image, self.contour)
            return
        ws = self.workspace
        learner = ws.learner
        sv = getattr(learner, "support_", np.empty(0))
        if sv.size == 0:  # alpha = 0: f = b everywhere, no boundary yet
            self._show(False, self.region_image, self.contour)
            return
        (x0, x1), (y0, y1) = self._vb.viewRange()
        sx, sy = self.pixel_size()
        if not all(math.isfinite(v) and v > 0 for v in (sx, sy, x1 - x0, y1 - y0)):
            self._show(False, self.region_image, self.contour)
            return
        pad_x, pad_y = 0.25 * (x1 - x0), 0.25 * (y1 - y0)
        x0, x1, y0, y1 = x0 - pad_x, x1 + pad_x, y0 - pad_y, y1 + pad_y
        cell = _KERNEL_CELL_PX
        nx, ny = (x1 - x0) / (sx * cell), (y1 - y0) / (sy * cell)
        # the grid size depends on n (a bound on the support vectors), not on the
        # current support, so that it stays put during a run and updates are incremental
        budget = max(_KERNEL_MIN_CELLS, _KERNEL_WORK / max(1, ws.dataset.n))
        shrink = math.sqrt(max(1.0, nx * ny / budget))
        nx = int(min(400, max(8, math.ceil(nx / shrink))))
        ny = int(min(400, max(8, math.ceil(ny / shrink))))
        geometry = (self._model_version, id(learner), nx, ny,
                    round(x0 / (x1 - x0), 3), round(y0 / (y1 - y0), 3), round(x1 - x0, 9))
        xs, ys, F = self._kernel_values(geometry, (x0, x1, y0, y1), nx, ny)
        x0, x1, y0, y1 = self._kernel_cache["rect"]
        F2 = F.reshape(ny, nx)
        finite = np.isfinite(F2).all()
        if self._layers["regions"] and finite:
            k = _UPSAMPLE
            xf = x0 + (x1 - x0) / (nx * k) * (np.arange(nx * k) + 0.5)
            yf = y0 + (y1 - y0) / (ny * k) * (np.arange(ny * k) + 0.5)
            image = (_bilinear(xs, ys, F2, xf, yf) > 0).astype(np.ubyte)
            self.region_image.setImage(image, autoLevels=False, levels=(0, 1))
            self.region_image.setRect(QtCore.QRectF(x0, y0, x1 - x0, y1 - y0))
            self.region_image.setVisible(True)
        else:
            self.region_image.setVisible(False)
        if self._layers["boundary"] and finite:
            segs = marching_squares(xs, ys, F2)
            self.contour.setData(segs[:, 0], segs[:, 1])
            self.contour.setVisible(segs.shape[0] > 0)
        else:
            self.contour.setVisible(False)

    def _kernel_values(self, geometry, rect, nx, ny):
        """The learner's decision values on the grid, as a function of its state alone.

        ``f = K(G, X_sv) @ (alpha y)[sv] + b`` with one cached kernel column per
        support vector, each computed by the same call, combined in index order:
        a step reached by stepping, scrubbing back or jumping draws the same bits
        (an incremental sum would drift with the path and move a contour near
        f = 0).  A step costs at most one new column and one matrix-vector product.
        """
        ws = self.workspace
        learner = ws.learner
        cache = self._kernel_cache
        if cache is None or cache["geometry"] != geometry:
            x0, x1, y0, y1 = rect
            xs = x0 + (x1 - x0) / nx * (np.arange(nx) + 0.5)
            ys = y0 + (y1 - y0) / ny * (np.arange(ny) + 0.5)
            gx, gy = np.meshgrid(xs, ys)
            G = np.column_stack([gx.ravel(), gy.ravel()])
            cache = dict(geometry=geometry, rect=rect, xs=xs, ys=ys, G=G, cols={})
            self._kernel_cache = cache
        G, cols = cache["G"], cache["cols"]
        alpha = learner.alpha_
        sv = np.flatnonzero(alpha)
        if len(cols) + sv.size > _MAX_KERNEL_COLUMNS_BYTES // (8 * G.shape[0]):
            cols = {i: cols[i] for i in sv if i in cols}  # keep only what this step needs
            cache["cols"] = cols
        kern, X = ws.kernel, ws.dataset.X
        for i in sv:
            if i not in cols:
                cols[i] = kern(G, X[i : i + 1])[:, 0]
        F = np.full(G.shape[0], float(learner.intercept_[0]))
        if sv.size:
            coef = (alpha[sv] * ws.dataset.y[sv]).astype(np.float64)
            F += np.column_stack([cols[i] for i in sv]) @ coef
        return cache["xs"], cache["ys"], F

    # -- legend --------------------------------------------------------------------------------
    def _update_legend(self) -> None:
        ws = self.workspace
        L = self._layers
        lw = self._scale.line
        m = self._scale.marker
        dash = QtCore.Qt.PenStyle.DashLine
        entries = [
            ("pos", style.POS_NAME), ("neg", style.NEG_NAME),
        ]
        # entries depend on the learner and the layers only, not on the data or the
        # step, so the legend (and with it the plot's height) stays put while editing
        # and during a run
        linear_run = ws.is_perceptron and not ws.is_kernel
        if L["boundary"]:
            entries.append(("boundary", "decision boundary"))
        if L["weight"] and not ws.is_kernel:
            entries.append(("w", "weight vector w"))
        if linear_run and L["delta"]:
            entries.append(("delta", "update η·y·x"))
        if linear_run and L["ghost"]:
            entries.append(("ghost", "previous boundary"))
        if ws.is_perceptron and L["highlight"]:
            entries.append(("examined", "examined sample"))
        if L["mistakes"]:
            entries.append(("mistake", "misclassified"))
        if L["margin_band"] and not ws.is_kernel:
            entries.append(("band", "margin band"))
        if L["max_margin"]:
            entries.append(("mm", "max-margin hyperplane"))
        if L["radius"] and ws.is_perceptron and not ws.is_kernel:
            entries.append(("radius", "radius R"))
        if ws.learner_name == "lda" or L["lda"]:
            entries.append(("lda", "LDA means, 2σ ellipses"))
        width = self._vb.boundingRect().width() or self.width()
        texts = tuple(text for _, text in entries)
        if self._legend_text_width[0] != (texts, self._scale.font_pt):
            font = QtGui.QFont()
            font.setPointSizeF(self._scale.font_pt)
            metrics = QtGui.QFontMetricsF(font)
            widest = max(metrics.horizontalAdvance(text) for text in texts)
            self._legend_text_width = ((texts, self._scale.font_pt), widest)
        entry = self._legend_text_width[1] + 20 + 12 + 8
        columns = int(max(1, min(len(entries), width // entry)))
        key = tuple(entries) + (L["legend"], lw, m, columns)
        if key == self._legend_key:
            return
        self._legend_key = key
        self._legend.clear()
        self._legend.setColumnCount(columns)
        self._legend.setVisible(L["legend"])
        def line(color, width, pen_style=QtCore.Qt.PenStyle.SolidLine):
            # the legend's sample draws a line from the item's pen: a bare curve
            # item is enough (a PlotDataItem would build a curve and a scatter)
            return pg.PlotCurveItem(pen=pg.mkPen(color, width=width, style=pen_style))

        def marker(symbol, size, brush, pen):
            item = pg.ScatterPlotItem()
            _style_scatter(item, symbol, size, brush, pen)
            return item

        edge = pg.mkPen("w", width=max(1.0, lw * 0.4))
        proxies = {
            "pos": lambda: marker(style.POS_SYMBOL, m, style.POS_COLOR, edge),
            "neg": lambda: marker(style.NEG_SYMBOL, m, style.NEG_COLOR, edge),
            "boundary": lambda: line(style.BOUNDARY_COLOR, lw),
            "w": lambda: line(style.WEIGHT_COLOR, lw * 1.25),
            "delta": lambda: line(style.DELTA_COLOR, lw * 1.25),
            "ghost": lambda: line(_rgba(style.GHOST_COLOR, 200), lw * 0.75, dash),
            "examined": lambda: marker("o", min(m * 1.6, 18), _rgba(style.HIGHLIGHT_COLOR, 150),
                                       pg.mkPen(style.FOREGROUND)),
            "mistake": lambda: marker("x", m, style.MISTAKE_COLOR, pg.mkPen("w", width=0.5)),
            "band": lambda: line(_rgba(style.BOUNDARY_COLOR, 150), lw * 0.6, dash),
            "mm": lambda: line(style.MAXMARGIN_COLOR, lw),
            "radius": lambda: line(style.RADIUS_COLOR, lw * 0.5),
            "lda": lambda: line(style.LDA_COLOR, lw * 0.75, dash),
        }
        self._legend_proxies = []
        for name, text in entries:
            proxy = proxies[name]()
            self._legend_proxies.append(proxy)
            self._legend.addItem(proxy, text)

    # -- gestures --------------------------------------------------------------------------------
    def _view_click(self, ev) -> bool:
        button = _BUTTONS.get(ev.button())
        if button is None or button == "middle":
            return False
        if ev.double():
            return True  # the first click of the pair already acted
        pos = self._vb.mapSceneToView(ev.scenePos())
        self.setFocus(QtCore.Qt.FocusReason.MouseFocusReason)
        return self.tool.click(button, (pos.x(), pos.y()), self.pixel_size(), _mods(ev.modifiers()))

    # Gestures that start ON a point are handled here, at the widget level, with
    # every mouse event: pyqtgraph's scene drops move events above its rate limit
    # and calls a press held for 0.5 s a drag, which would lose moves of a point
    # drag and turn slow clicks into drags.  Everything else (clicks and drags on
    # empty space, middle drags, the wheel) goes on to pyqtgraph.
    def mousePressEvent(self, ev):
        button = _BUTTONS.get(ev.button())
        if self._press is None and button in ("left", "right") and ev.buttons() == ev.button():
            p = self.widget_to_data(ev.position())
            pos = (p.x(), p.y())
            if self.tool.hit(pos, self.pixel_size()) is not None:
                self._press = _Press(button, QtCore.QPointF(ev.position()), pos,
                                     _mods(ev.modifiers()))
                self.setFocus(QtCore.Qt.FocusReason.MouseFocusReason)
                ev.accept()
                return
        if self._press is not None:
            ev.accept()  # a second button during a point gesture: ignored
            return
        super().mousePressEvent(ev)

    def mouseDoubleClickEvent(self, ev):
        if self._press is None:
            self.mousePressEvent(ev)  # on a point: the second click is a click too
            if self._press is not None:
                return
        if self._press is not None:
            ev.accept()
            return
        super().mouseDoubleClickEvent(ev)

    def mouseMoveEvent(self, ev):
        self._cursor = QtCore.QPointF(ev.position())
        press = self._press
        if press is not None:
            if press.button == "left":
                if not press.dragging:
                    moved = (ev.position() - press.widget_pos).manhattanLength()
                    if moved >= QtWidgets.QApplication.startDragDistance():
                        press.dragging = self.tool.drag_start(press.data_pos, self.pixel_size())
                        if press.dragging:
                            self._set_cursor_shape(QtCore.Qt.CursorShape.ClosedHandCursor)
                if press.dragging and self.tool.dragging:
                    p = self.widget_to_data(ev.position())
                    self.tool.drag_move((p.x(), p.y()))
            ev.accept()
            return
        super().mouseMoveEvent(ev)
        if ev.buttons() == QtCore.Qt.MouseButton.NoButton:
            pos, pixel = self._cursor_in_data()
            over = self.tool.hit(pos, pixel) is not None
            self._set_cursor_shape(QtCore.Qt.CursorShape.OpenHandCursor if over
                                   else QtCore.Qt.CursorShape.CrossCursor)

    def mouseReleaseEvent(self, ev):
        press = self._press
        if press is None:
            super().mouseReleaseEvent(ev)
            return
        ev.accept()
        if _BUTTONS.get(ev.button()) != press.button:
            return
        self._press = None
        if press.dragging:
            p = self.widget_to_data(ev.position())
            self.tool.drag_finish((p.x(), p.y()))
            self._set_cursor_shape(QtCore.Qt.CursorShape.OpenHandCursor)
        else:
            self.tool.click(press.button, press.data_pos, self.pixel_size(), press.modifiers)

    def _set_cursor_shape(self, shape) -> None:
        if self.viewport().cursor().shape() != shape:
            self.viewport().setCursor(shape)

    def showEvent(self, ev):
        super().showEvent(ev)
        global _warm_up_scheduled
        if not _warm_up_scheduled and isinstance(self.window(), QtWidgets.QMainWindow):
            # the application's window is on screen: warm numba up in the background
            _warm_up_scheduled = True
            QtCore.QTimer.singleShot(WARMUP_DELAY_MS, warm_up_compiled_loop)

    def leaveEvent(self, ev):
        self._cursor = None
        super().leaveEvent(ev)

    def _key_name(self, ev) -> str:
        """The tool's name for a key event ("" for keys the canvas leaves alone)."""
        mods = ev.modifiers() & ~(QtCore.Qt.KeyboardModifier.ShiftModifier
                                  | QtCore.Qt.KeyboardModifier.KeypadModifier)
        if mods != QtCore.Qt.KeyboardModifier.NoModifier:
            return ""  # Ctrl+T and the like belong to the window
        Key = QtCore.Qt.Key
        if ev.key() in (Key.Key_Delete, Key.Key_Backspace):
            return "delete"
        if ev.key() == Key.Key_Escape:
            return "escape"
        text = ev.text()
        return text if text in ("1", "2", "+", "-", "t", "T") else ""

    def _cursor_in_data(self):
        if self._cursor is None:
            return None, None
        p = self.widget_to_data(self._cursor)
        return (p.x(), p.y()), self.pixel_size()

    def event(self, ev):
        # Let the canvas's keys win over window shortcuts while it has the focus,
        # but only when they would do something here.
        if ev.type() == QtCore.QEvent.Type.ShortcutOverride:
            name = self._key_name(ev)
            if name == "delete":
                pos, pixel = self._cursor_in_data()
                wanted = self.tool.selection.size > 0 or (
                    pos is not None and self.tool.hit(pos, pixel) is not None)
            elif name == "escape":
                wanted = self.tool.dragging or self.tool.selection.size > 0
            else:
                wanted = bool(name)
            if wanted:
                ev.accept()
                return True
        return super().event(ev)

    def keyPressEvent(self, ev):
        name = self._key_name(ev)
        pos, pixel = self._cursor_in_data()
        if name and self.tool.key(name, pos, pixel):
            ev.accept()
            return
        super().keyPressEvent(ev)

    def view_rect(self) -> tuple[tuple[float, float], tuple[float, float]]:
        """The data rectangle asked for, ``((x0, x1), (y0, y1))`` (the view box's target range)."""
        (x0, x1), (y0, y1) = self._vb.targetRange()
        return (float(x0), float(x1)), (float(y0), float(y1))

    def set_view_rect(self, x_range, y_range, padding: float = 0.0) -> None:
        """Show the data rectangle ``x_range`` × ``y_range`` (widened to the aspect ratio)."""
        self._vb.setRange(xRange=tuple(x_range), yRange=tuple(y_range), padding=padding)


class _Press:
    """A mouse press on a point: becomes a click, or (left button) a drag."""

    def __init__(self, button: str, widget_pos: QtCore.QPointF, data_pos, modifiers):
        self.button = button
        self.widget_pos = widget_pos
        self.data_pos = data_pos
        self.modifiers = modifiers
        self.dragging = False


_BUTTONS = {
    QtCore.Qt.MouseButton.LeftButton: "left",
    QtCore.Qt.MouseButton.RightButton: "right",
    QtCore.Qt.MouseButton.MiddleButton: "middle",
}


def _mods(modifiers) -> set:
    out = set()
    if modifiers & QtCore.Qt.KeyboardModifier.ControlModifier:
        out.add("ctrl")
    if modifiers & QtCore.Qt.KeyboardModifier.ShiftModifier:
        out.add("shift")
    return out


def _style_scatter(item, symbol, size, brush, pen) -> None:
    """Set a scatter's default look (kept by later ``setData(pos=...)`` calls)."""
    item.setSymbol(symbol)
    item.setSize(size)
    item.setBrush(pg.mkBrush(brush))
    item.setPen(pen)


def _set_segments(item, segments, visible: bool) -> None:
    """Draw ``segments`` (each (2, 2)) in a line item, or hide it when there are none.

    Several segments need an item made with ``connect="pairs"``.
    """
    if not visible or not segments:
        item.setVisible(False)
        return
    pts = np.concatenate(segments)
    item.setData(pts[:, 0], pts[:, 1])
    item.setVisible(True)


def _disconnect(workspace, slots) -> None:
    workspace.dataset_changed.disconnect(slots[0])
    workspace.learner_changed.disconnect(slots[1])
    workspace.run_changed.disconnect(slots[2])
