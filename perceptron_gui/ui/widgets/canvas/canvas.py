"""The canvas widget: the view, the registry of layers and the public API.

A :class:`Canvas` is a pyqtgraph ``PlotWidget`` that *draws* a
:class:`~perceptron_gui.core.workspace.Workspace` and turns gestures into
edits.  It never changes the workspace: a gesture produces an edit
(:mod:`perceptron_gui.core.dataset`) through :attr:`Canvas.editRequested`; the
window pushes it on its undo stack, the stack applies it to the workspace, the
workspace announces the new data, and the canvas redraws.

What is drawn lives in the layers (:mod:`.layers`, one per file): each makes
its items once and afterwards only moves, re-shapes or hides them.  A redraw
runs the layers by when they must redraw: the data layers when the data set
changed; the weight-dependent layers when the data, the learner, its number of
updates, the view, the switches or the scale changed (and each only if its own
cache key changed); the examined sample and the update arrow at every redraw.
A layer may compute in a worker (the points at large n, drawn as a raster of
the view's pixels): it then shows its previous picture until the new one is
ready, except in :meth:`Canvas.refresh`, which draws everything before it returns.

A fitted view (:meth:`Canvas.fit_view`) holds the data and the origin, not
the w arrow: a w longer than the view is cut at its edge, its head there
and its label saying where it ends (the weight layer), so a run growing w
never zooms the data out to a speck.  While nobody pans or zooms it, it
grows when a point a layer keeps in view would leave it, and when the
canvas is resized (panels shown beside it), so no point is left past its
edge; and when the legend finds no empty place, it grows a band above the
data for it (:meth:`CanvasLegend.room`).  Never while a mouse button is held
on the canvas: what a hand drags stays under it (after the release, only a
point past the edge grows the view).

The module is one file because the canvas is the one door of the view
API (range, fit, layers, scale, the legend) and of the Qt events the gestures
take; what it draws is in the layers.
"""

from __future__ import annotations

import math
import time

import numpy as np
import pyqtgraph as pg
from PySide6 import QtCore, QtWidgets

from ....core.text import axis_titles
from ....core.viewstate import ViewState
from ... import style
from ...deferred import YieldingTimer
from ...subscriptions import connect_for_lifetime
from ..axes import ReadableAxis, style_axes
from . import layers as layers_pkg
from .geometry import drawable_range, inside_by, pixel_span
from .gestures import Gestures
from .items import CanvasViewBox
from .items.pyqtgraph_internals import close_plot_widget, widget_closed
from .layers import Frame, Layer, default_switches, same_key
from .layers.lda import ClassModelSwitch
from .legend import CanvasLegend
from .pixmap_cache import ensure_pixmap_cache
from .registry import LayerRegistry
from .tool import HELP_TEXT, KEYS, EditTool

__all__ = ["Canvas", "LAYERS"]

#: Layers that can be shown or hidden, with their default visibility (the layers'
#: switches in registry order, then the legend's): boundary, regions, weight,
#: delta (the update η·y·x), ghost (the previous boundary), highlight (the
#: examined sample), mistakes, margin_band, max_margin, radius, alpha, lda, legend;
#: a layer registered later (``layers.register_layer``) adds its own.
LAYERS = layers_pkg.LAYERS

_DATA, _MODEL = 1, 2


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
    commandIssued : Signal(object)
        A command a layer's gesture asked for (``Layer.issue``: the line
        dragged by hand at its release); the window dispatches it.
    view_state : ViewState
        Where the layer switches live (the window's, or the canvas's own).
    tool : EditTool
        The gesture logic (hit-testing, selection, drag state).
    legend : LegendBox
        The legend, overlaid in the emptiest corner of the view.

    Notes
    -----
    What is drawn is reached through the layer that draws it:
    ``canvas.layer("boundary").items["boundary"]``,
    ``canvas.layer("data").items["scatter_pos"]`` (each layer's ``items``, by
    name; :meth:`layer` makes a layer not made yet).  Gestures are listed in
    :data:`perceptron_gui.ui.widgets.canvas.tool.HELP_TEXT` (also the canvas's
    tool tip).  Clicks in tests go to ``canvas.viewport()`` at :meth:`data_to_widget`.
    """

    editRequested = QtCore.Signal(object)
    dragFinished = QtCore.Signal()
    activeClassChanged = QtCore.Signal(int)
    selectionChanged = QtCore.Signal(object)
    commandIssued = QtCore.Signal(object)

    def __init__(self, workspace, parent=None, view_state=None):
        vb = CanvasViewBox(lambda ev: self._gestures.view_click(ev))
        super().__init__(parent=parent, background=style.current().background, viewBox=vb,
                         axisItems={side: ReadableAxis(side) for side in ("bottom", "left")})
        self.setObjectName("canvas")
        self.workspace = workspace
        self._vb = vb
        self._scale = style.NORMAL
        self.view_state = view_state if view_state is not None else ViewState()
        self.view_state.declare_layers(default_switches())
        self._switches = self.view_state.switches  # live and read-only
        self._class_model = ClassModelSwitch(self.view_state, workspace)  # "lda" follows it
        self._dirty = _DATA | _MODEL
        self._drawn_dataset = None  # the data set the scatters show
        self._weights_state: tuple | None = None  # what the weight-dependent layers show
        self._keys: dict[str, tuple | None] = {}  # each weight layer's last cache key
        self._model_version = 0
        self._now = False  # a redraw of refresh(): layers compute on this thread
        self._redraw_interval = 0.0  # shortest time between two scheduled redraws, s
        self._last_flush = -float("inf")  # perf_counter() at the last redraw's start
        self._styled = False  # _apply_scale has run (a layer made later is styled on creation)

        self.tool = EditTool(self.editRequested.emit)
        self.tool.set_dataset(workspace.dataset)
        self.tool.active_class_changed.connect(self._on_active_class_changed)
        self.tool.selection_changed.connect(self._on_selection_changed)
        self.tool.drag_finished.connect(self.dragFinished.emit)
        self.tool.cursor_changed.connect(self._on_cursor_changed)
        self._gestures = Gestures(self, self.tool)

        self._setup_plot()
        self._create_layers()
        self._apply_scale()

        self._timer = YieldingTimer(self, self._flush, name="canvasRedrawTimer")
        # the view follows the w arrow's head while it is the fitted one (see fit_view)
        self._fit_range = None  # the view box's target range the last fit set
        self._refit_timer = YieldingTimer(self, self._refit, name="canvasRefitTimer")
        # a button held on the canvas (a handle, a point, a pan): no refit under the hand
        self._held = False
        self._refit_waiting = False
        self._no_band = False  # a drag's release declined the legend's band: until a fit
        vb.sigResized.connect(self._refit_timer_start)
        vb.sigRangeChanged.connect(self._on_view_changed)
        vb.sigResized.connect(self._on_view_changed)

        connect_for_lifetime(self, [workspace.dataset_changed], self._on_dataset_changed)
        connect_for_lifetime(self, [workspace.learner_changed], self._on_learner_changed)
        connect_for_lifetime(self, [workspace.run_changed], self._on_run_changed)
        connect_for_lifetime(self, [self.view_state.layers_changed,
                                    self.view_state.shaping_changed],
                             lambda _changed: self._schedule(_MODEL))
        connect_for_lifetime(self, [self.view_state.hovered_changed],
                             lambda _index: self._update_layer("hover"))

        self.setAccessibleName("Canvas")
        self.setAccessibleDescription(
            "The data points of class +1 and class −1, the learner's decision boundary and "
            "regions, the weight vector w, the last update and the geometry of the proof "
            "(margin, the circle where ‖(x, c)‖ = R). Keys: "
            + "; ".join(f"{k}: {w}" for k, w in KEYS) + ".")
        self.setToolTip(HELP_TEXT)
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
        for name in ("bottom", "left"):  # pens, fonts and titles: _apply_scale
            axis = pi.getAxis(name)
            # the axes also draw the grid over the whole plot: cache their pixels so a
            # frame of the run (view unchanged) does not redraw hundreds of grid lines
            axis.setCacheMode(QtWidgets.QGraphicsItem.CacheMode.DeviceCoordinateCache)
            # ... behind the view box (pyqtgraph puts them over it): the grid never tints a point
            axis.setZValue(-0.5)
        ensure_pixmap_cache(self.screen())
        self._legend = CanvasLegend(self._vb)
        self.legend = self._legend.item

    def _create_layers(self) -> None:
        def style_later(layer: Layer) -> None:
            if self._styled:  # a layer made after the canvas was styled: style it alike
                layer.apply_scale(self._scale)

        self._registry = LayerRegistry(self._vb, bool(self.workspace.dataset.n),
                                       self._on_layer_changed, style_later)
        self._layers = self._registry.layers
        for layer in self._layers:
            layer.issue = self.commandIssued.emit
        self._by_name = self._registry.by_name
        self._tiers = self._registry.tiers

    def _apply_scale(self) -> None:
        s = self._scale
        self.setBackground(style.current().background)
        for layer in self._layers:
            if layer.created:
                layer.apply_scale(s)
        style_axes(self.getPlotItem(), s.font_pt, axis_titles(self.workspace.dataset))
        self._legend.apply_scale(s)
        self._styled = True
        self._drawn_dataset = None  # restyled: the next refresh re-sets the scatters
        self._weights_state = None  # ... and redraws the model
        self._keys = {}

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

    def axis_titles(self) -> tuple[str, str]:
        """The titles the x and y axes show (``""`` for none)."""
        return tuple(self.getPlotItem().getAxis(name).title for name in ("bottom", "left"))

    def layer_created(self, name: str) -> bool:
        """Whether the layer ``name`` has made its items (see ``Layer.item_names``)."""
        return self._by_name[name].created

    def layer(self, name: str) -> Layer:
        """The layer ``name`` (``"boundary"``, ``"kernel"``, ``"alpha"`` ...), made if it was not.

        Its items are ``layer(name).items[item_name]`` (``Layer.items``); an
        unknown name raises KeyError.
        """
        layer = self._by_name.get(name)
        if layer is None:
            raise KeyError(f"unknown layer {name!r}; known: {sorted(self._by_name)}")
        return self._registry.create(layer)

    def refresh(self, finish: bool = True) -> None:
        """Redraw everything from the workspace, now (synchronously).

        The per-class scatters are re-set only when the data set (immutable, so
        compared by identity) or the style changed since they were drawn: a
        refresh during a run costs what a frame costs, at any number of points.
        What a layer was computing in a worker (the points' raster) is computed
        here instead, unless ``finish`` is False: then it stays in (or goes to)
        the worker, and the layer shows its previous picture until it arrives
        (a re-layout or a new margin needs the items, not the points' picture).
        """
        self._dirty |= _MODEL
        if self.workspace.dataset is not self._drawn_dataset:
            self._dirty |= _DATA
        self._flush(now=finish)
        if finish and not widget_closed(self):
            for layer in self._layers:
                if layer.created:
                    layer.finish()

    def close(self) -> None:
        """Close the canvas and delete every item of its scene now.

        None is left to the garbage collector (:func:`.items.pyqtgraph_internals.
        close_plot_widget` says why).  A second call does nothing.
        """
        if not widget_closed(self):
            close_plot_widget(self, super().close)

    def view_rect(self) -> tuple[tuple[float, float], tuple[float, float]]:
        """The range the view shows or is moving to: ``((x0, x1), (y0, y1))``."""
        (x0, x1), (y0, y1) = self._vb.targetRange()
        return (float(x0), float(x1)), (float(y0), float(y1))

    def set_view_rect(self, x_range, y_range, padding: float = 0.0) -> None:
        """Show ``x_range`` × ``y_range`` (grown by ``padding``, a fraction of each span).

        The aspect ratio stays locked: the view covers at least the rectangle.
        A rectangle whose width or height is not a finite float (points near
        ±1.8e308) is narrowed to the widest one that is; the canvas then says
        on itself that the points cannot all be drawn (the hint layer).
        """
        (x0, x1), (y0, y1) = (drawable_range(*map(float, x_range)),
                                drawable_range(*map(float, y_range)))
        self._vb.setRange(xRange=(x0, x1), yRange=(y0, y1), padding=padding)

    def fit_view(self) -> None:
        """Frame the data and the origin with a margin ([-5, 5]² without data).

        The w arrow does not widen the frame: a w longer than the view is cut
        at its edge and labelled there (the weight layer).  The view then grows
        when a point a layer keeps in view would leave it, or the canvas is
        resized, until a pan, a zoom or another rectangle (any other target
        range of the view box).
        """
        frame = self._frame()
        b = self.workspace.dataset.bounds()
        kept = self._kept(frame)  # the layers' (the game's circle and w)
        if kept is not None:
            lo, hi = kept.min(axis=0), kept.max(axis=0)
            b = (lo[0], hi[0], lo[1], hi[1]) if b is None else (
                min(b[0], lo[0]), max(b[1], hi[0]), min(b[2], lo[1]), max(b[3], hi[1]))
        if b is None:
            x0, x1, y0, y1 = -5.0, 5.0, -5.0, 5.0
        else:
            x0, x1 = min(b[0], 0.0), max(b[1], 0.0)
            y0, y1 = min(b[2], 0.0), max(b[3], 0.0)
            big = max(abs(x0), abs(x1), abs(y0), abs(y1))
            floor = big * 1e-6 if big > 0 else 1.0
            # in halves, so that data near ±1.8e308 do not overflow the arithmetic
            hx, hy = x1 / 2 - x0 / 2, y1 / 2 - y0 / 2
            half_span = max(hx, hy, floor / 2)
            pad = 0.24 * half_span
            cx, cy = x0 / 2 + x1 / 2, y0 / 2 + y1 / 2
            half_x = max(hx, half_span * 0.5) + pad
            half_y = max(hy, half_span * 0.5) + pad
            x0, x1, y0, y1 = cx - half_x, cx + half_x, cy - half_y, cy + half_y
        self.set_view_rect((x0, x1), (y0, y1))
        self._fit_range = np.array(self._vb.targetRange(), dtype=np.float64)
        self._no_band = False

    def _fitted(self) -> bool:
        """Whether the view box shows the rectangle of the last fit (no pan, zoom or other
        rectangle since; a resize keeps its target range)."""
        now = np.array(self._vb.targetRange(), dtype=np.float64)
        return self._fit_range is not None and bool(np.array_equal(now, self._fit_range))

    def _kept(self, frame: Frame, clear: bool = False):
        """The layers' points to keep in view (or the legend's to keep clear) in one array,
        or None."""
        parts = [p for layer in self._layers if layer.created
                 for p in [layer.keep_clear(frame) if clear else layer.keep_in_view(frame)]
                 if p is not None and len(p)]
        if not parts:
            return None
        kept = np.concatenate([np.asarray(p, dtype=np.float64).reshape(-1, 2) for p in parts])
        return kept[np.isfinite(kept).all(axis=1)]

    def _outside(self, frame: Frame, margin: float) -> list:
        """The layers' points to keep in view that a fitted view cuts (not w's head)."""
        kept = self._kept(frame)
        points = [] if kept is None else list(kept)
        return [p for p in points if not inside_by(p, frame.view, frame.pixel_size, margin)]

    def _follow_kept(self, frame: Frame) -> None:
        """Grow the fitted view (soon) when it would cut a point a layer keeps in view.

        w's own head is not followed: the weight layer cuts a long arrow at the edge.
        """
        margin = self._scale.line * 6 + 8  # the head's length (draw.arrow_head_style), and air
        if self._fitted() and self._outside(frame, margin):
            self._refit_timer.start()

    def _refit_timer_start(self, *_args) -> None:
        if self._fitted():
            self._refit_timer.start()

    def _refit(self) -> None:
        """Grow the fitted view to hold the data and the layers' kept points, never zooming in.

        A resize keeps the view box's target range, which the view covers; so
        this only grows a view whose data or kept points went past its edge.
        """
        after_release, self._refit_waiting = self._refit_waiting, False
        if widget_closed(self) or not self._fitted():
            return
        if self._held:  # the view moves under nobody's hand: after the release
            self._refit_waiting = True
            return
        self._no_band = self._no_band or after_release
        frame = self._frame()
        x0, x1, y0, y1 = frame.view
        sx, sy = frame.pixel_size
        margin = self._scale.line * 6 + 8
        # a head nearer the edge than its length is cut: its box reaches that far
        mx, my = margin * sx, margin * sy
        boxes = [(p[0] - mx, p[0] + mx, p[1] - my, p[1] + my)
                 for p in self._outside(frame, margin)]
        b = self.workspace.dataset.bounds()
        if b is not None and not (inside_by((b[0], b[2]), frame.view, frame.pixel_size, 0)
                                  and inside_by((b[1], b[3]), frame.view, frame.pixel_size, 0)):
            boxes.append(b)
        # no empty place for the legend: a band above (not once a drag wanted it: the
        # picture would shrink under what the hand placed; the next fit may)
        room = None if self._no_band else self._legend.room(frame)
        if not boxes and not room:
            return
        lo_x, hi_x = min([x0, *(q[0] for q in boxes)]), max([x1, *(q[1] for q in boxes)])
        lo_y, hi_y = min([y0, *(q[2] for q in boxes)]), max([y1, *(q[3] for q in boxes)])
        pad_x = 0.08 * (hi_x - lo_x) + 2 * margin * sx  # the head, and air, at the new scale
        pad_y = 0.08 * (hi_y - lo_y) + 2 * margin * sy
        grow = (lo_x - pad_x if lo_x < x0 else x0, hi_x + pad_x if hi_x > x1 else x1,
                lo_y - pad_y if lo_y < y0 else y0,
                (hi_y + pad_y if hi_y > y1 else y1) + (room or 0.0))
        if not all(math.isfinite(v) for v in grow):
            return
        self.set_view_rect(grow[:2], grow[2:])
        self._fit_range = np.array(self._vb.targetRange(), dtype=np.float64)

    def set_scale(self, scale: style.Scale) -> None:
        """Presenter mode: marker sizes, line widths and fonts from ``scale``.

        The restyled picture is drawn by the next scheduled redraw, as after
        any change (the points' raster in its worker), not at once.
        """
        self._scale = scale
        self._apply_scale()
        self._schedule(_DATA | _MODEL)

    def set_visible_layers(self, **flags: bool) -> None:
        """Switch layers by name in :attr:`view_state` (:data:`LAYERS`; unknown: ValueError)."""
        self.view_state.set_layers(**flags)

    def layer_visible(self, name: str) -> bool:
        """Whether the layer ``name`` is switched on."""
        return self.view_state.layer(name)

    def layers(self) -> dict:
        """A copy of every layer's on/off state."""
        return self.view_state.layers()

    def unseen_words(self, caption: str) -> list[str]:
        """The words ``caption`` names for something on the canvas that nothing shows now.

        The words are the layers' (:func:`~.layers.caption_words`: "ellipse",
        "shading", "cross", "band", "arrow", "circle" ...); one is seen when
        an item that draws it is visible in a layer made so far.
        """
        table = layers_pkg.caption_words()
        unseen = []
        for word in layers_pkg.words_named(caption):
            seen = False
            for name, item_names in table[word]:
                layer = self._by_name.get(name)
                if layer is not None and layer.created:
                    seen = seen or any(layer.items[item].isVisible()
                                       for item in item_names if item in layer.items)
            if not seen:
                unseen.append(word)
        return unseen

    def axis_space(self, space: dict | None = None) -> dict:
        """The pixels the axes take, ``{"left": w, "bottom": h}``; ``space``: fix them so.

        pyqtgraph sizes an axis to the widest label it painted (shrinking it
        10 pixels late): an export given this one lays its data area out alike.
        """
        left, bottom = self.getPlotItem().getAxis("left"), self.getPlotItem().getAxis("bottom")
        if space is not None:
            left.setWidth(float(space["left"]))
            bottom.setHeight(float(space["bottom"]))
        return {"left": float(left.width()), "bottom": float(bottom.height())}

    def data_to_widget(self, x: float, y: float) -> QtCore.QPointF:
        """Data coordinates to pixel coordinates in :meth:`viewport` (for test clicks)."""
        scene = self._vb.mapViewToScene(QtCore.QPointF(float(x), float(y)))
        return self.viewportTransform().map(scene)

    def widget_to_data(self, pos) -> QtCore.QPointF:
        """Pixel coordinates in :meth:`viewport` to data coordinates."""
        scene = self.viewportTransform().inverted()[0].map(QtCore.QPointF(pos))
        return self._vb.mapSceneToView(scene)

    def over_legend(self, pos) -> bool:
        """Whether the viewport pixel ``pos`` is on the shown legend (a press there moves it)."""
        legend = self.legend
        if not legend.isVisible():
            return False
        scene = self.viewportTransform().inverted()[0].map(QtCore.QPointF(pos))
        return legend.sceneBoundingRect().contains(scene)

    def pixel_size(self) -> tuple[float, float]:
        """Data size of one screen pixel along x and y (0, 0 before the view has a size).

        From the view range and the view box's size (:func:`.geometry.pixel_span`),
        the view's transform brought up to date first: pyqtgraph's
        ``viewPixelSize`` inverts that transform, whose determinant underflows
        beyond about 1e±150 (it gave NaN, 0 or 1e-317).
        """
        self._vb.updateMatrix()
        (x0, x1), (y0, y1) = self._vb.viewRange()
        w, h = self._vb.rect().width(), self._vb.rect().height()
        return (pixel_span(x0, x1, w), pixel_span(y0, y1, h)) if w > 0 and h > 0 else (0.0, 0.0)

    @property
    def hovered(self) -> int | None:
        """The index of the point whose details the hover label shows, or None.

        It is :attr:`view_state`'s ``hovered``: a view that points at a sample
        (the loss view's markers) shows it here, and the point hovered here is
        shown there.
        """
        return self.view_state.hovered

    def set_hovered(self, index: int | None) -> None:
        """Show the hover label of point ``index`` (None hides it); it follows every frame."""
        self.view_state.set_hovered(index)  # its announcement redraws the hover layer

    def end_drag(self) -> None:
        """End a point drag whose button release never arrived, as if released at the cursor.

        A modal dialog opened during a drag takes the release.  Once no mouse
        button is down, the drag ends (last move, then :attr:`dragFinished`)
        right after the current event; with a button still down, or no drag
        under way, nothing happens.
        """
        if QtWidgets.QApplication.mouseButtons() == QtCore.Qt.MouseButton.NoButton:
            self._held = False  # the release went elsewhere: the view may follow again
            if self._refit_waiting:
                self._refit_timer.start()
        self._gestures.end_drag()

    # -- workspace signals ---------------------------------------------------------------------
    def _on_dataset_changed(self, dataset) -> None:
        if self.view_state.hovered is not None and dataset.n != self.tool.dataset.n:
            self.view_state.set_hovered(None)  # the index may name another point now
        self.tool.set_dataset(dataset)
        self._model_version += 1  # the learner was rebuilt on the new data too
        self._class_model.follow(self.workspace)  # an opened file's learner
        self._schedule(_DATA | _MODEL)

    def _on_learner_changed(self) -> None:
        self._model_version += 1
        self._class_model.follow(self.workspace)
        self._schedule(_MODEL)

    def _on_run_changed(self, event=None) -> None:
        self._schedule(_MODEL)

    def _on_view_changed(self, *args) -> None:
        self._schedule(_MODEL)

    def _on_active_class_changed(self, value) -> None:
        self._update_layer("hint")
        self.activeClassChanged.emit(value)

    def _on_cursor_changed(self, cursor) -> None:
        self._update_layer("cursor")

    def _on_selection_changed(self, selection) -> None:
        self._update_layer("selection")
        self.selectionChanged.emit(selection)

    def _update_layer(self, name: str) -> None:
        """Redraw one layer now (one not created yet only when there are data)."""
        layer, frame = self._by_name[name], self._frame()
        if self._registry.drawn(layer, frame):
            layer.update(frame)

    def set_redraw_interval(self, seconds: float) -> None:
        """Redraw what changed at most once per *seconds* (0: as soon as the loop is free).

        A long computation in slices ("run to end") sets it so that the slices,
        not the redraws of every step they make, get most of the time; the
        picture still follows a few times a second.  :meth:`refresh` always
        redraws at once.
        """
        self._redraw_interval = max(0.0, float(seconds))
        if self._timer.isActive():
            self._timer.stop()
            self._schedule(0)

    def _schedule(self, what: int) -> None:
        self._dirty |= what
        if not self._timer.isActive():
            wait = self._redraw_interval - (time.perf_counter() - self._last_flush)
            self._timer.start(math.ceil(wait * 1000) if wait > 0 else 0)

    # -- drawing -------------------------------------------------------------------------------
    def _frame(self) -> Frame:
        return Frame(self.workspace, self._switches, self._vb.viewRange(), self.pixel_size(),
                     self._model_version, self.tool.selection, self.tool.active_class,
                     self.view_state.hovered, self.tool.cursor, now=self._now,
                     shaping=self.view_state.shaping)

    def _flush(self, now: bool = False) -> None:
        self._timer.stop()
        self._last_flush = time.perf_counter()
        if widget_closed(self):
            return  # pyqtgraph's close() deleted the scene's items
        dirty, self._dirty = self._dirty, 0
        self._now = now
        try:
            if dirty & _DATA:
                self._update_data()
            if dirty & (_DATA | _MODEL):
                self._update_model()
        finally:
            self._now = False
        # cache the data scatters from the first redraw that did not change them
        data = self._by_name["data"]
        if data.created:
            data.set_cached(not dirty & _DATA)

    def _update_data(self) -> None:
        """Redraw the layers that depend on the data set alone (the scatters, the selection)."""
        self._drawn_dataset = dataset = self.workspace.dataset
        if axis_titles(dataset) != self.axis_titles():  # the axes take the data's names
            style_axes(self.getPlotItem(), self._scale.font_pt, axis_titles(dataset))
        frame = self._frame()
        for layer in self._tiers["data"]:
            if self._registry.drawn(layer, frame):
                layer.update(frame)

    def _update_model(self) -> None:
        """Redraw the model: what depends on the weights only when they changed.

        Most steps of a run make no update: then only the examined sample (and
        the update arrow and ghost, which show on an update) move.
        """
        frame = self._frame()
        # made before the weights' redraw, whose legend lists them
        events = [layer for layer in self._tiers["event"] if self._registry.drawn(layer, frame)]
        key = frame.weights_key
        if not same_key(self._weights_state, key):
            self._weights_state = key
            self._update_weights(frame)
        for layer in events:
            layer.update(frame)

    def _update_weights(self, frame: Frame) -> None:
        for layer in self._tiers["weights"]:
            if not self._registry.drawn(layer, frame):
                continue
            key = layer.cache_key(frame)
            if key is not None and same_key(self._keys.get(layer.name), key):
                continue  # drawn from the same state already
            self._keys[layer.name] = key
            layer.update(frame)
        self._update_legend(frame)
        self._follow_kept(frame)

    def _update_legend(self, frame: Frame) -> None:
        entries = [entry for layer in self._layers if layer.created and layer.showing(frame)
                   for entry in layer.legend_entries(frame)]
        self._legend.update(entries, self._switches["legend"], self._scale, frame,
                            self._kept(frame, clear=True))
        if self._legend.covered and self._fitted():
            self._refit_timer.start()  # a fitted view makes the legend a band of its own

    def _on_layer_changed(self) -> None:
        """A layer's worker result arrived and changed what it shows: the legend follows."""
        if not widget_closed(self):
            self._update_legend(self._frame())

    # -- events: routed to the gestures ------------------------------------------------------------
    @property
    def refit_waiting(self) -> bool:
        """Whether a refit of the fitted view waits for the mouse button held to be released.

        While a button is held on the canvas (a handle or a point dragged) the
        view does not move; after the release it grows only if the w arrow's
        head or a point is past its edge (not for the legend's band, until the
        next :meth:`fit_view`).
        """
        return self._refit_waiting

    def _hold(self, ev) -> None:
        self._held = ev.buttons() != QtCore.Qt.MouseButton.NoButton
        if not self._held and self._refit_waiting:
            self._refit_timer.start()

    def mousePressEvent(self, ev):
        self._hold(ev)
        if not self._gestures.press_event(ev):
            super().mousePressEvent(ev)

    def mouseDoubleClickEvent(self, ev):
        if self._gestures.double_click_event(ev):
            return
        super().mousePressEvent(ev)  # pyqtgraph sees the second press, then the double click
        super().mouseDoubleClickEvent(ev)

    def mouseMoveEvent(self, ev):
        if self._gestures.move_event(ev):
            return
        super().mouseMoveEvent(ev)
        self._gestures.hover_event(ev)

    def mouseReleaseEvent(self, ev):
        if not self._gestures.release_event(ev):
            super().mouseReleaseEvent(ev)
        self._hold(ev)

    def leaveEvent(self, ev):
        self._gestures.leave_event()
        super().leaveEvent(ev)

    def event(self, ev):
        kind = ev.type()
        if (kind == QtCore.QEvent.Type.ShortcutOverride
                and self._gestures.shortcut_override_event(ev)):
            return True
        if (kind == QtCore.QEvent.Type.KeyPress and ev.key() == QtCore.Qt.Key.Key_Tab
                and self._gestures.key_press_event(ev)):
            return True  # Tab selects the nearest point while the canvas cursor shows
        return super().event(ev)

    def keyPressEvent(self, ev):
        if not self._gestures.key_press_event(ev):
            super().keyPressEvent(ev)

    def keyReleaseEvent(self, ev):
        self._gestures.key_release_event(ev)
        super().keyReleaseEvent(ev)
