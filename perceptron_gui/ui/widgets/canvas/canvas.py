"""The canvas widget: the view, the registry of layers and the public API.

The canvas draws the workspace and never changes it: a gesture becomes an edit
(:attr:`Canvas.editRequested`) that the window's undo stack applies.  A redraw
runs the layers by tier (``Layer.redraw_on``).  One file: one class, the ``PlotWidget`` that
Qt's events, the workspace's signals and the coalesced redraw all meet in.
"""

from __future__ import annotations

import math
import time

import numpy as np
import pyqtgraph as pg
from PySide6 import QtCore, QtGui, QtWidgets

from ....core.text import axis_titles
from ....core.viewstate import ViewState
from ... import style
from ...deferred import YieldingTimer
from ..axes import ReadableAxis, size_for_labels, style_axes
from . import layers as layers_pkg
from .geometry import drawable_range, pixel_span
from .gestures import Gestures
from .items import CanvasViewBox
from .items.pyqtgraph_internals import close_plot_widget, widget_closed
from .layers import Frame, Layer, same_key
from .layers.lda import ClassModelSwitch
from .legend import CanvasLegend
from .registry import LayerRegistry
from .tool import HELP_TEXT, KEYS, EditTool
from .view_fit import ViewFit

__all__ = ["Canvas"]

_DATA, _MODEL = 1, 2

#: How many view-sized pixmaps Qt's pixmap cache must hold: the items drawn from a
#: device cache (the two axes with their grid, the two data scatters, the
#: mistakes' marks, the legend, the maximum margin's supports, the LDA overlay).
CACHED_ITEMS = 8
#: This long after the canvas first shows (ms), the layers that wait for data are made in
#: idle time, one a pass: the first data then pay their drawing only.
PREBUILD_MS = 300


def _ensure_pixmap_cache(screen) -> None:
    """Make Qt's pixmap cache hold :data:`CACHED_ITEMS` pixmaps of ``screen``'s size (at least
    1920×1080): its 10 MB held three of a 1280×800 view, redrawn at every frame."""
    pixels, ratio = 1920 * 1080, 1.0
    if screen is not None:
        pixels = max(pixels, screen.size().width() * screen.size().height())
        ratio = screen.devicePixelRatio()
    kib = int(CACHED_ITEMS * pixels * ratio * ratio * 4 / 1024)
    if kib > QtGui.QPixmapCache.cacheLimit():
        QtGui.QPixmapCache.setCacheLimit(kib)


class Canvas(pg.PlotWidget):
    """The 2-D view of the workspace: points, hyperplane, margins, and editing.

    ``editRequested(edit)``: a data-set edit for the window to apply; ``dragFinished()``:
    the next move starts a new undo step; ``commandIssued(command)``: a layer's gesture's.
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
        self.view_state.declare_layers(dict(layers_pkg.LAYERS))
        self._switches = self.view_state.switches  # live and read-only
        self._class_model = ClassModelSwitch(self.view_state, workspace)  # "lda" follows it
        self._dirty = _DATA | _MODEL
        self._drawn_dataset = None  # the data set the scatters show
        self._weights_state: tuple | None = None  # what the weight-dependent layers show
        self._keys: dict[str, tuple | None] = {}  # each weight layer's last cache key
        self._redrawn: set[str] = set()  # the weight layers the last redraw updated
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
        self._prebuild = None  # the layers still to make in idle time (layer_steps)
        self._prebuild_timer = YieldingTimer(self, self._prebuild_step, interval_ms=PREBUILD_MS,
                                             name="canvasPrebuildTimer")
        # the head's length (draw.arrow_head_style), and air
        self._fit = ViewFit(self, self._frame, self._layers, lambda: self._scale.line * 6 + 8,
                            self._legend.room)
        self._refit_timer = self._fit.timer
        vb.sigRangeChanged.connect(self._model_due)
        vb.sigResized.connect(self._model_due)

        workspace.events.dataset_changed.connect(self._on_dataset_changed)
        workspace.events.learner_changed.connect(self._on_learner_changed)
        workspace.events.run_changed.connect(self._model_due)
        self.view_state.events.layers_changed.connect(self._model_due)
        self.view_state.events.shaping_changed.connect(self._model_due)
        self.view_state.events.hovered_changed.connect(self._on_hovered)
        workspace.events.theory_changed.connect(self._on_theory_changed)

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
        _ensure_pixmap_cache(self.screen())
        self._legend = CanvasLegend(self._vb)
        self.legend = self._legend.item

    def _create_layers(self) -> None:
        def style_later(layer: Layer) -> None:
            if self._styled:  # a layer made after the canvas was styled: style it alike
                layer.apply_scale(self._scale)

        self._registry = LayerRegistry(self._vb, bool(self.workspace.dataset.n),
                                       self._on_layer_changed, self.commandIssued.emit,
                                       style_later)
        self._layers = self._registry.layers

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
        return self._registry.by_name[name].created

    def layer(self, name: str) -> Layer:
        """The layer ``name``, made if it was not (an unknown name: KeyError)."""
        return self._registry.get(name)

    def layer_steps(self):
        """Make the layers a redraw with data would make, one a step (a generator)."""
        for tier in ("data", "event", "weights"):
            for layer in self._layers:
                if layer.redraw_on == tier and not layer.created:
                    self._registry.create(layer)
                    yield

    def showEvent(self, event) -> None:  # noqa: N802 - Qt's name
        super().showEvent(event)
        if self._prebuild is None:
            size_for_labels(self.getPlotItem())  # the first paint then lays out nothing again
            self._prebuild = self.layer_steps()
            self._prebuild_timer.start()

    def _prebuild_step(self) -> None:
        if not widget_closed(self) and next(self._prebuild, False) is None:
            self._prebuild_timer.start(1)

    def refresh(self, finish: bool = True) -> None:
        """Redraw everything from the workspace now, the workers' pictures too unless
        ``finish`` is False (the data set is immutable: compared by identity)."""
        self._dirty |= _MODEL
        if self.workspace.dataset is not self._drawn_dataset:
            self._dirty |= _DATA
        self._flush(now=finish)
        if finish and not widget_closed(self):
            for layer in self._layers:
                if layer.created:
                    layer.finish()

    def close(self) -> None:
        """Close the canvas and delete every item of its scene now (see ``close_plot_widget``)."""
        if not widget_closed(self):
            close_plot_widget(self, super().close)

    def view_rect(self) -> tuple[tuple[float, float], tuple[float, float]]:
        """The range the view shows or is moving to: ``((x0, x1), (y0, y1))``."""
        (x0, x1), (y0, y1) = self._vb.targetRange()
        return (float(x0), float(x1)), (float(y0), float(y1))

    def set_view_rect(self, x_range, y_range, padding: float = 0.0) -> None:
        """Show ``x_range`` × ``y_range`` (grown by ``padding``, a fraction of each span), the
        aspect locked; a span not a finite float (near ±1.8e308) narrowed to one that is."""
        (x0, x1), (y0, y1) = (drawable_range(*map(float, x_range)),
                                drawable_range(*map(float, y_range)))
        self._vb.setRange(xRange=(x0, x1), yRange=(y0, y1), padding=padding)

    def fit_view(self) -> None:
        """Frame the data and the origin ([-5, 5]² without data), then follow what the layers
        keep in view until a pan, a zoom or another rectangle (:mod:`.view_fit`)."""
        self._fit.fit()

    def set_scale(self, scale: style.Scale) -> None:
        """Marker sizes, line widths and fonts from ``scale``, drawn by the next redraw."""
        self._scale = scale
        self._apply_scale()
        self._schedule(_DATA | _MODEL)

    def set_visible_layers(self, **flags: bool) -> None:
        """Switch layers by name in :attr:`view_state` (unknown: ValueError)."""
        self.view_state.set_layers(**flags)

    def layer_visible(self, name: str) -> bool:
        """Whether the layer ``name`` is switched on."""
        return self.view_state.layer(name)

    def layers(self) -> dict:
        """A copy of every layer's on/off state."""
        return self.view_state.layers()

    def unseen_words(self, caption: str) -> list[str]:
        """The words of ``caption`` (:func:`~.layers.caption_words`) no visible item draws now."""
        shown = {(layer.name, name) for layer in self._layers
                 for name, item in layer.items.items() if item.isVisible()}
        table = layers_pkg.caption_words()
        return [word for word in layers_pkg.words_named(caption)
                if not any((name, item) in shown for name, items in table[word] for item in items)]

    def axis_space(self, space: dict | None = None) -> dict:
        """The pixels the axes take, ``{"left": w, "bottom": h}``; ``space``: fix them so (an
        export's data area then lies as this one's: pyqtgraph sizes an axis by its labels)."""
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
        scene = self.viewportTransform().inverted()[0].map(QtCore.QPointF(pos))
        return self.legend.isVisible() and self.legend.sceneBoundingRect().contains(scene)

    def pixel_size(self) -> tuple[float, float]:
        """Data size of one screen pixel along x and y (0, 0 before the view has a size); not
        ``viewPixelSize``, whose inverted transform underflows beyond about 1e±150."""
        self._vb.updateMatrix()
        (x0, x1), (y0, y1) = self._vb.viewRange()
        w, h = self._vb.rect().width(), self._vb.rect().height()
        return (pixel_span(x0, x1, w), pixel_span(y0, y1, h)) if w > 0 and h > 0 else (0.0, 0.0)

    def set_hovered(self, index: int | None) -> None:
        """Show the hover label of point ``index`` (None hides it); it follows every frame."""
        self.view_state.set_hovered(index)  # its announcement redraws the hover layer

    def end_drag(self) -> None:
        """End a point drag whose release a modal dialog took, once no button is down."""
        buttons = QtWidgets.QApplication.mouseButtons()
        if buttons == QtCore.Qt.MouseButton.NoButton:
            self._fit.hold(buttons)  # the release went elsewhere: the view may follow again
        self._gestures.end_drag()

    def _on_dataset_changed(self, dataset) -> None:
        if self.view_state.hovered is not None and dataset.n != self.tool.dataset.n:
            self.view_state.set_hovered(None)  # the index may name another point now
        self.tool.set_dataset(dataset)
        self._dirty |= _DATA
        self._on_learner_changed()  # rebuilt on the new data (an opened file's learner)

    def _on_learner_changed(self) -> None:
        self._model_version += 1
        self._class_model.follow(self.workspace)
        self._schedule(_MODEL)

    def _on_theory_changed(self) -> None:
        # the kernel margin is drawn here too: redraw when a deferred result lands, leaving
        # the points' pictures to their workers (binned there, not on this thread)
        self.refresh(finish=False)

    def _on_hovered(self, _index=None) -> None:
        self._update_layer("hover")

    def _model_due(self, *_args) -> None:
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
        layer, frame = self._registry.by_name[name], self._frame()
        if layer in self._registry.drawn(layer.redraw_on, frame):
            layer.update(frame)

    def set_redraw_interval(self, seconds: float) -> None:
        """Redraw what changed at most once per *seconds* (0: as soon as the loop is free), so
        that a long computation in slices ("run to end") gets most of the time."""
        self._redraw_interval = max(0.0, float(seconds))
        if self._timer.isActive():
            self._timer.stop()
            self._schedule(0)

    def _schedule(self, what: int) -> None:
        self._dirty |= what
        if not self._timer.isActive():
            wait = self._redraw_interval - (time.perf_counter() - self._last_flush)
            self._timer.start(math.ceil(wait * 1000) if wait > 0 else 0)

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
        self._redrawn = set()
        try:
            if dirty & _DATA:
                self._update_data()
            if dirty & (_DATA | _MODEL):
                self._update_model()
        finally:
            self._now = False
        # cache the data scatters and the mistakes' marks from the first redraw that did
        # not change them (a pixmap redrawn at every frame costs more than it saves)
        data = self._registry.by_name["data"]
        if data.created:
            data.set_cached(not dirty & _DATA)
        mistakes = self._registry.by_name.get("mistakes")
        if mistakes is not None and mistakes.created:
            mistakes.set_cached("mistakes" not in self._redrawn)

    def _update_data(self) -> None:
        self._drawn_dataset = dataset = self.workspace.dataset
        if axis_titles(dataset) != self.axis_titles():  # the axes take the data's names
            style_axes(self.getPlotItem(), self._scale.font_pt, axis_titles(dataset))
        frame = self._frame()
        for layer in self._registry.drawn("data", frame):
            layer.update(frame)

    def _update_model(self) -> None:
        """Redraw the model: what depends on the weights only when they changed."""
        frame = self._frame()
        # made before the weights' redraw, whose legend lists them
        events = self._registry.drawn("event", frame)
        key = frame.weights_key
        if not same_key(self._weights_state, key):
            self._weights_state = key
            self._update_weights(frame)
        for layer in events:
            layer.update(frame)

    def _update_weights(self, frame: Frame) -> None:
        for layer in self._registry.drawn("weights", frame):
            key = layer.cache_key(frame)
            if key is not None and same_key(self._keys.get(layer.name), key):
                continue  # drawn from the same state already
            self._keys[layer.name] = key
            self._redrawn.add(layer.name)
            layer.update(frame)
        self._update_legend(frame)
        self._fit.follow(frame)

    def _update_legend(self, frame: Frame) -> None:
        entries = [entry for layer in self._layers if layer.created and layer.showing(frame)
                   for entry in layer.legend_entries(frame)]
        self._legend.update(entries, self._switches["legend"], self._scale, frame,
                            self._fit.kept(frame, clear=True))
        if self._legend.covered and self._fit.fitted():
            self._fit.timer.start()  # a fitted view makes the legend a band of its own

    def _on_layer_changed(self) -> None:
        if not widget_closed(self):
            self._update_legend(self._frame())

    @property
    def refit_waiting(self) -> bool:
        """Whether a refit of the fitted view waits for the mouse button held to be released."""
        return self._fit.waiting

    def mousePressEvent(self, ev):
        self._fit.hold(ev.buttons())
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
        self._fit.hold(ev.buttons())

    def leaveEvent(self, ev):
        self._gestures.leave_event()
        for layer in self._layers:
            if layer.created:
                layer.pointer_left()
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
