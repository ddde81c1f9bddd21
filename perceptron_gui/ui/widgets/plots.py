"""Live plots of a perceptron run: updates against the bound, the proof, mistakes per epoch.

Three small pyqtgraph plots, stacked:

1. ``plotBound``: the number of updates ``k`` against the step number, with
   Novikoff's bound ``(R/γ)²`` as a ceiling line;
2. ``plotProof``: the two inequalities of Novikoff's proof along the run,
   ``w_k·w* ≥ kηγ`` (left) and ``‖w_k‖² ≤ kη²R²`` (right), from
   ``Workspace.proof()``;
3. ``plotMistakes``: updates made in each epoch, as bars.

Every plot item is created once and updated with ``setData``/``setOpts``/
``setPos``; the long curves downsample (``peak``) and clip to the view, so a run
with 10⁶ updates stays fluid.  All numbers come from the core; this module only
draws them.  The plots are built when a run first needs them (or in idle time
after the window shows), so a window opening on an empty workspace does not
wait for them, and repaint at most every :data:`REFRESH_MS`.
"""

from __future__ import annotations

import math

import numpy as np
import pyqtgraph as pg
from PySide6 import QtCore, QtGui, QtWidgets

from ...core.text import fmt
from .. import style
from ..subscriptions import connect_for_lifetime

__all__ = ["LivePlots", "log_ticks"]

#: Shown instead of the plots for LDA.
LDA_MESSAGE = (
    "LDA has no iterations: it is fitted in one step, from the class means and the "
    "pooled covariance. There is no run to plot."
)
#: Shown instead of the plots when no run exists yet.
NO_RUN_MESSAGE = "The plots fill in as the perceptron runs: add points of both classes."
NOT_SEPARABLE = "not separable — no bound"
#: Minimum time between two repaints of the plots during playback (ms).
REFRESH_MS = 40
#: Delay after the first show before the (hidden) plots are built in idle time (ms).
PREBUILD_MS = 300
PROOF_KERNEL = (
    "The proof's quantities w_k·w* and ‖w_k‖² are drawn for a linear perceptron only: "
    "with a kernel, w lives in feature space."
)
PROOF_NOT_SEPARABLE = (
    "Not separable: no unit w* with margin γ > 0 exists, so there is no proof (and no bound)."
)

_BOUND_COLOR = style.RADIUS_COLOR  # the ceiling (R/γ)² and the line kR² (both from R)
_GAMMA_COLOR = style.MAXMARGIN_COLOR  # the line kγ (γ, a margin)
_CURVE_COLOR = style.WEIGHT_COLOR  # quantities of w_k
_BAR_COLOR = "#7F8FA6"
_NOW_COLOR = style.HIGHLIGHT_COLOR


#: The attributes that exist once the plots are built (see ``LivePlots._build``).
_BUILT_ATTRIBUTES = frozenset({
    "bound_plot", "k_curve", "k_tail", "k_now", "bound_line", "bound_note",
    "proof_box", "_proof_stack", "proof_view", "proof_message", "dot_plot", "norm_plot",
    "dot_curve", "lower_line", "norm_curve", "upper_line", "proof_note",
    "mistakes_plot", "bars", "current_bar", "mistakes_note",
})


def _span(text: str, color: str) -> str:
    return f"<span style='color: {color}; font-weight: bold'>{text}</span>"


def _int_label(value: int) -> str:
    """``1``, ``10``, …, ``10000``, then ``10⁵``, ``10⁶``, …"""
    if value < 100_000:
        return str(value)
    exponent = str(round(math.log10(value))).translate(str.maketrans("0123456789", "⁰¹²³⁴⁵⁶⁷⁸⁹"))
    return "10" + exponent


def log_ticks(top: float) -> list[list[tuple[float, str]]]:
    """Ticks of a log10 axis from 1 to ``10**top``, labelled as plain counts.

    Major ticks at the powers of ten; minor ticks at 2 and 5 times them
    (labelled when the axis spans at most two decades).
    """
    decades = max(1, math.ceil(top))
    major = [(float(j), _int_label(10**j)) for j in range(decades + 1)]
    label_minor = decades <= 2
    minor = [(math.log10(m * 10**j), str(m * 10**j) if label_minor else "")
             for j in range(decades) for m in (2, 5)]
    return [major, minor]


def _fast(plot: pg.PlotItem) -> pg.PlotItem:
    """Downsample (peak: keeps every jump visible) and clip to the view.

    Set on the PlotItem, which imposes its mode on every PlotDataItem it holds
    (an item's own ``setDownsampling`` is overwritten by ``addItem``).
    """
    plot.setDownsampling(auto=True, mode="peak")
    plot.setClipToView(True)
    return plot


class _Note(pg.TextItem):
    """A text fixed in a ViewBox's pixel frame (unaffected by pan and zoom).

    ``where`` is "corner" (top left, where a rising curve leaves room) or
    "center".
    """

    def __init__(self, viewbox: pg.ViewBox):
        super().__init__("", color=style.FOREGROUND)
        self.restyle()
        self._vb = viewbox
        self._where = "center"
        self.setParentItem(viewbox)
        self.setZValue(100)
        self.setVisible(False)
        viewbox.sigResized.connect(self._place)

    def restyle(self) -> None:
        """Text and a translucent box in the active palette's colours."""
        self.setColor(style.FOREGROUND)
        box = pg.mkColor(style.BACKGROUND)
        box.setAlpha(220)
        self.fill = pg.mkBrush(box)
        self.update()

    def _place(self, *_):
        rect = self._vb.boundingRect()
        if self._where == "corner":
            self.setAnchor((0.0, 0.0))
            self.setPos(rect.left() + 6, rect.top() + 4)
        else:
            self.setAnchor((0.5, 0.5))
            self.setPos(rect.center())

    def show_text(self, text: str, where: str = "center") -> None:
        if text != self.toPlainText():
            self.setText(text)
        if where != self._where or not self.isVisible():
            self._where = where
            self._place()
        self.setVisible(bool(text))


class LivePlots(QtWidgets.QWidget):
    """The three live plots of a perceptron run, redrawn on the workspace's signals.

    Parameters
    ----------
    workspace : Workspace
        The Qt-free workspace; its ``learner``, ``readouts()`` and ``proof()`` are
        drawn.
    parent : QWidget, optional
        Parent widget.

    Attributes
    ----------
    bound_plot : pyqtgraph.PlotWidget
        ``plotBound``: updates ``k`` (curve ``k_curve``, a step curve whose points
        are the updates ``(step, k)``) and the ceiling ``bound_line``.
    proof_view : pyqtgraph.GraphicsLayoutWidget
        ``plotProof``: ``dot_curve``/``lower_line`` and ``norm_curve``/``upper_line``.
    mistakes_plot : pyqtgraph.PlotWidget
        ``plotMistakes``: ``bars`` (finished epochs) and ``current_bar`` (the
        epoch in progress).

    Notes
    -----
    The signals ``learner_changed``, ``run_changed`` and ``dataset_changed`` only
    start a zero single-shot timer, so a burst of them costs one redraw;
    :meth:`refresh` redraws at once.  A refresh skips the plots whose inputs
    (learner, ``k``, step) did not change.
    """

    def __init__(self, workspace, parent=None):
        super().__init__(parent)
        self.setObjectName("livePlots")
        self._ws = workspace
        self._scale = style.NORMAL
        self._keys: dict[str, object] = {}
        self._titles: dict[int, tuple] = {}

        self._built = False
        self._parts_built = 0
        self._prebuild_started = False
        self._stack = QtWidgets.QStackedLayout(self)
        plots = QtWidgets.QWidget()
        plots.setObjectName("livePlotsPage")
        self._column = QtWidgets.QVBoxLayout(plots)
        self._column.setContentsMargins(0, 0, 0, 0)
        self._column.setSpacing(4)
        self._message = QtWidgets.QLabel()
        self._message.setObjectName("livePlotsMessage")
        self._message.setWordWrap(True)
        self._message.setAlignment(QtCore.Qt.AlignmentFlag.AlignCenter)
        self._message.setMargin(12)
        self._stack.addWidget(plots)
        self._stack.addWidget(self._message)
        # The plots themselves (five pyqtgraph plots, ~80 ms) are built when a run
        # first needs them, when one of their attributes is first used, or in the
        # idle time after the first show: a window that opens on an empty
        # workspace shows the message at once.

        self._timer = QtCore.QTimer(self)
        self._timer.setObjectName("livePlotsRefreshTimer")
        self._timer.setSingleShot(True)
        # Coalesce and cap: the first change starts the timer, later ones ride on
        # it, so the plots repaint at most every REFRESH_MS with the latest state
        # (a paint of all three costs ~25 ms offscreen; the canvas stays per-frame).
        self._timer.setInterval(REFRESH_MS)
        self._timer.timeout.connect(self._refresh_staged)
        # The timer path refreshes one plot per event-loop pass: after a long run
        # every plot has new ranges and axis text, and repainting all of them in
        # one pass held the UI ~50 ms; one at a time, no pass takes over ~20 ms.
        self._stage = 0
        self._stage_timer = QtCore.QTimer(self, singleShot=True, interval=0)
        self._stage_timer.timeout.connect(self._refresh_staged)
        self._connect(workspace)
        self.set_scale(style.NORMAL)
        self.refresh()

    # -- construction ---------------------------------------------------------------------
    def __getattr__(self, name: str):
        # only reached for attributes not found: the plots' items before they exist
        if name in _BUILT_ATTRIBUTES and not self.__dict__.get("_built", True):
            self._build()
            return getattr(self, name)
        raise AttributeError(f"{type(self).__name__!r} object has no attribute {name!r}")

    def _build(self) -> None:
        """Create the three plots (once) and style them."""
        if self._built:
            return
        self._built = True
        for part in self._parts()[self._parts_built:]:
            part()
        self._parts_built = len(self._parts())
        self._column.addWidget(self.bound_plot, 1)
        self._column.addWidget(self.proof_box, 1)
        self._column.addWidget(self.mistakes_plot, 1)
        self._style_plots()

    def _parts(self):
        return (self._build_bound_plot, self._build_proof_plot, self._build_mistakes_plot)

    def showEvent(self, event) -> None:
        super().showEvent(event)
        if not self._built and not self._prebuild_started:
            # build the plots soon after the window shows, one per event-loop turn
            # (~25 ms each), so that the first run does not wait for them
            self._prebuild_started = True
            QtCore.QTimer.singleShot(PREBUILD_MS, self, self._prebuild_step)

    def _prebuild_step(self) -> None:
        if self._built:
            return
        if self._parts_built < len(self._parts()):
            self._parts()[self._parts_built]()
            self._parts_built += 1
            QtCore.QTimer.singleShot(0, self, self._prebuild_step)
        else:
            self._build()

    @staticmethod
    def _plot_widget(name: str) -> pg.PlotWidget:
        widget = pg.PlotWidget(background=style.BACKGROUND)
        widget.setObjectName(name)
        widget.setMinimumHeight(120)
        item = widget.getPlotItem()
        item.setMenuEnabled(False)
        item.hideButtons()
        return widget

    def _build_bound_plot(self) -> None:
        self.bound_plot = self._plot_widget("plotBound")
        item = self.bound_plot.getPlotItem()
        item.setLabel("bottom", "step (samples examined)")
        item.setLabel("left", "updates k")
        # a grid only here, where it marks the decades of k (grids cost ~10 ms a frame)
        item.showGrid(y=True, alpha=0.15)
        self.k_curve = pg.PlotDataItem(stepMode="left", name="k")
        self.k_tail = pg.PlotDataItem()  # from the last update to the current step
        self.k_now = pg.PlotDataItem(symbol="o", pen=None)  # the cursor
        self.bound_line = pg.InfiniteLine(
            angle=0, movable=False, label="", labelOpts={
                "position": 0.03, "anchors": [(0, 0), (0, 0)], "color": _BOUND_COLOR,
            },
        )
        for it in (self.k_curve, self.k_tail, self.k_now):
            item.addItem(it)
        item.addItem(self.bound_line, ignoreBounds=True)
        _fast(item)
        self.bound_note = _Note(item.getViewBox())

    def _build_proof_plot(self) -> None:
        self.proof_box = QtWidgets.QWidget()
        self.proof_box.setObjectName("plotProof")
        self._proof_stack = QtWidgets.QStackedLayout(self.proof_box)
        self.proof_view = pg.GraphicsLayoutWidget()
        self.proof_view.setObjectName("plotProofView")
        self.proof_view.setBackground(style.BACKGROUND)
        self.proof_view.setMinimumHeight(120)
        self.proof_view.ci.layout.setSpacing(2)
        self.proof_view.ci.setContentsMargins(2, 2, 2, 2)
        self.proof_message = QtWidgets.QLabel()
        self.proof_message.setObjectName("plotProofMessage")
        self.proof_message.setWordWrap(True)
        self.proof_message.setAlignment(QtCore.Qt.AlignmentFlag.AlignCenter)
        self.proof_message.setMargin(16)
        self.proof_message.setAutoFillBackground(True)
        palette = self.proof_message.palette()
        palette.setColor(QtGui.QPalette.ColorRole.Window, QtGui.QColor("white"))
        palette.setColor(QtGui.QPalette.ColorRole.WindowText, QtGui.QColor(style.FOREGROUND))
        self.proof_message.setPalette(palette)
        self._proof_stack.addWidget(self.proof_view)
        self._proof_stack.addWidget(self.proof_message)
        self.dot_plot = self.proof_view.addPlot(row=0, col=0)
        self.norm_plot = self.proof_view.addPlot(row=0, col=1)
        self.dot_curve = pg.PlotDataItem(name="w_k·w*")
        self.lower_line = pg.PlotDataItem(name="kγ")
        self.norm_curve = pg.PlotDataItem(name="‖w_k‖²")
        self.upper_line = pg.PlotDataItem(name="kR²")
        # The titles are the legends: each inequality with its two sides in the
        # colours of their curve (solid) and line (dashed); a legend box inside
        # these small plots would cover the curves.
        for plot, curve, line in ((self.dot_plot, self.dot_curve, self.lower_line),
                                  (self.norm_plot, self.norm_curve, self.upper_line)):
            plot.setMenuEnabled(False)
            plot.hideButtons()
            plot.setLabel("bottom", "updates k")
            plot.addItem(curve)
            plot.addItem(line)
            _fast(plot)
        self.proof_note = _Note(self.dot_plot.getViewBox())
        self.proof_box.setToolTip(
            "Novikoff's proof, along the run: each update adds η·y·z with y·w·z ≤ 0, so\n"
            "w_k·w* grows by at least ηγ and ‖w_k‖² by at most η²R².\n"
            "Together kηγ ≤ w_k·w* ≤ ‖w_k‖ ≤ √k·ηR, hence k ≤ (R/γ)²."
        )
        self.bound_plot.setToolTip(
            "Updates k against the samples examined. On separable data Novikoff's\n"
            "theorem caps k at (R/γ)² (dashed line), whatever the order of the samples."
        )

    def _build_mistakes_plot(self) -> None:
        self.mistakes_plot = self._plot_widget("plotMistakes")
        item = self.mistakes_plot.getPlotItem()
        item.setLabel("bottom", "epoch")
        item.setLabel("left", "mistakes")
        empty = np.zeros(0)
        self.bars = pg.BarGraphItem(x=empty, height=empty, width=0.8)
        self.current_bar = pg.BarGraphItem(x=empty, height=empty, width=0.8)
        item.addItem(self.bars)
        item.addItem(self.current_bar)
        self.mistakes_note = _Note(item.getViewBox())

    def _connect(self, workspace) -> None:
        signals = (workspace.learner_changed, workspace.run_changed, workspace.dataset_changed,
                   workspace.theory_changed)
        connect_for_lifetime(self, signals, self._schedule)

    # -- public API ----------------------------------------------------------------------
    @property
    def workspace(self):
        """The workspace drawn."""
        return self._ws

    @property
    def proof_text(self) -> str:
        """Why the proof is not drawn ("" when it is, or when no plot is shown yet)."""
        if not self._built:
            return ""
        return self.proof_message.text() if self._proof_stack.currentIndex() == 1 else ""

    @property
    def message(self) -> str:
        """The message shown instead of the plots ("" when the plots are shown)."""
        return self._message.text() if self._stack.currentIndex() == 1 else ""

    def set_scale(self, scale: style.Scale) -> None:
        """Use the line widths and font sizes of ``scale`` (presenter mode)."""
        self._scale = scale
        note_font = QtGui.QFont()
        note_font.setPointSizeF(scale.font_pt * 0.9)
        self._message.setFont(note_font)
        if self._built:
            self._style_plots()
        self._keys.clear()  # titles carry sizes: redraw them
        self.refresh()

    def _style_plots(self) -> None:
        """Apply the scale's fonts and line widths to the plots."""
        scale = self._scale
        pt = scale.font_pt
        line = scale.line
        tick = QtGui.QFont()
        tick.setPointSizeF(pt * 0.85)
        css = self._axis_css()
        for view in (self.bound_plot, self.mistakes_plot, self.proof_view):
            view.setBackground(style.BACKGROUND)
        palette = self.proof_message.palette()
        palette.setColor(QtGui.QPalette.ColorRole.Window, pg.mkColor(style.BACKGROUND))
        palette.setColor(QtGui.QPalette.ColorRole.WindowText, QtGui.QColor(style.FOREGROUND))
        self.proof_message.setPalette(palette)
        for plot in (self.bound_plot.getPlotItem(), self.dot_plot, self.norm_plot,
                     self.mistakes_plot.getPlotItem()):
            for name in ("left", "bottom"):
                axis = plot.getAxis(name)
                axis.setStyle(tickFont=tick)
                axis.setPen(style.FOREGROUND)
                axis.setTextPen(style.FOREGROUND)
                axis.setLabel(axis.labelText, axis.labelUnits, **css)
        note_font = QtGui.QFont()
        note_font.setPointSizeF(pt * 0.9)
        for note in (self.bound_note, self.proof_note, self.mistakes_note):
            note.setFont(note_font)
            note.restyle()
        self.bound_line.label.setFont(note_font)

        self.k_curve.setPen(pg.mkPen(_CURVE_COLOR, width=line))
        self.k_tail.setPen(pg.mkPen(_CURVE_COLOR, width=line))
        self.k_now.setSymbolSize(scale.marker * 0.9)
        self.k_now.setSymbolPen(pg.mkPen(style.FOREGROUND, width=1))
        self.k_now.setSymbolBrush(pg.mkBrush(_NOW_COLOR))
        self.bound_line.setPen(pg.mkPen(_BOUND_COLOR, width=line,
                                        style=QtCore.Qt.PenStyle.DashLine))
        self.dot_curve.setPen(pg.mkPen(_CURVE_COLOR, width=line))
        self.norm_curve.setPen(pg.mkPen(_CURVE_COLOR, width=line))
        self.lower_line.setPen(pg.mkPen(_GAMMA_COLOR, width=line,
                                        style=QtCore.Qt.PenStyle.DashLine))
        self.upper_line.setPen(pg.mkPen(_BOUND_COLOR, width=line,
                                        style=QtCore.Qt.PenStyle.DashLine))
        self.bars.setOpts(pen=None, brush=pg.mkBrush(_BAR_COLOR))
        self.current_bar.setOpts(pen=pg.mkPen(style.FOREGROUND, width=max(1.0, line / 2)),
                                 brush=pg.mkBrush(_NOW_COLOR))
        self.proof_message.setFont(note_font)
        self._keys.clear()

    def _refresh_staged(self) -> None:
        """Timer path: refresh the next plot; the following one comes next pass."""
        ws = self._ws
        if ws.learner_name == "lda" or not ws.running:
            self._stage = 0
            self.refresh()
            return
        self._build()
        self._stack.setCurrentIndex(0)
        learner = ws.learner
        t, k = learner.step_count, learner.n_updates_
        if self._stage == 0:
            self._refresh_bound(learner, t, k, ws.readouts())
        elif self._stage == 1:
            self._refresh_proof(learner, k)
        else:
            self._refresh_mistakes(learner, t)
        self._stage = (self._stage + 1) % 3
        if self._stage:
            self._stage_timer.start()

    def refresh(self) -> None:
        """Redraw the plots from the workspace now."""
        self._timer.stop()
        self._stage_timer.stop()
        self._stage = 0
        ws = self._ws
        if ws.learner_name == "lda":
            self._show_message(LDA_MESSAGE)
            return
        if not ws.running:
            self._show_message(ws.problem or NO_RUN_MESSAGE)
            return
        self._build()
        self._stack.setCurrentIndex(0)
        learner = ws.learner
        t, k = learner.step_count, learner.n_updates_
        readouts = ws.readouts()
        self._refresh_bound(learner, t, k, readouts)
        self._refresh_proof(learner, k)
        self._refresh_mistakes(learner, t)

    # -- the three plots -------------------------------------------------------------------
    def _set_title(self, plot: pg.PlotItem, text: str, **css) -> None:
        """Set a title only when it changed (a new title re-lays out the plot)."""
        key = (text, tuple(sorted(css.items())))
        if self._titles.get(id(plot)) != key:
            self._titles[id(plot)] = key
            plot.setTitle(text, **css)

    def _axis_css(self) -> dict:
        return {"color": style.FOREGROUND, "font-size": f"{self._scale.font_pt * 0.9:g}pt"}

    def _title_css(self) -> dict:
        return {"color": style.FOREGROUND, "size": f"{self._scale.font_pt:g}pt"}

    def _refresh_bound(self, learner, t: int, k: int, r) -> None:
        key = (learner, t, k, r.bound, r.separable)
        if self._keys.get("bound") == key:
            return
        self._keys["bound"] = key
        item = self.bound_plot.getPlotItem()
        finite = bool(r.separable) and math.isfinite(r.bound) and r.bound > 0
        # With a ceiling, k runs on a log axis: the bound is often 10-100 times the
        # k reached, and a linear axis would flatten the staircase into the floor.
        log = finite
        if item.ctrl.logYCheck.isChecked() != log:
            item.setLogMode(y=log)
            item.setLabel("left", "updates k (log scale)" if log else "updates k",
                          **self._axis_css())
            if not log:
                item.getAxis("left").setTicks(None)
                self._keys.pop("ticks", None)
        steps = self._ws.learner.history.updates.step[:k]
        self.k_curve.setData(steps, np.arange(1, k + 1))
        last = float(steps[-1]) if k else 0.0
        has_k = k > 0 or not log  # log10(0) is not drawn
        self.k_tail.setData([last, float(t)], [k, k]) if has_k else self.k_tail.setData([], [])
        self.k_now.setData([float(t)], [k]) if has_k else self.k_now.setData([], [])
        self.bound_line.setVisible(finite)
        if finite:
            self.bound_line.setPos(math.log10(r.bound))
            label = f"(R/γ)² = {fmt(r.bound)}"
            if self.bound_line.label.format != label:
                self.bound_line.label.setFormat(label)
            self._set_title(item, f"Updates k  ≤  (R/γ)² = {fmt(r.bound)}", **self._title_css())
            self.bound_note.show_text("" if k else "no update yet")
            # the ceiling is the point of this plot: keep it in view, with room for its label
            top = math.log10(max(r.bound, k, 1.0)) + 0.35
            item.setYRange(-0.12, top, padding=0)
            ticks = log_ticks(top)
            if self._keys.get("ticks") != ticks:
                self._keys["ticks"] = ticks
                item.getAxis("left").setTicks(ticks)
        else:
            self._set_title(item, "Updates k", **self._title_css())
            if r.separable is False:
                self.bound_note.show_text(NOT_SEPARABLE, "corner")
            else:
                self.bound_note.show_text(r.bound_text if r.bound_text != "—" else "", "corner")
            item.enableAutoRange(axis="y")
        # the first epoch fills the axis, then the axis grows with the run
        item.setXRange(0.0, float(max(t, self._ws.dataset.n, 1)), padding=0.02)

    def _refresh_proof(self, learner, k: int) -> None:
        ws = self._ws
        nov = ws.novikoff
        key = (learner, k, nov)
        if self._keys.get("proof") == key:
            return
        self._keys["proof"] = key
        eta = ws.params.get("learning_rate", 1.0)
        e1 = "" if eta == 1 else "η"
        e2 = "" if eta == 1 else "η²"
        css = self._title_css()
        self._set_title(
            self.dot_plot,
            f"{_span('w<sub>k</sub>·w*', _CURVE_COLOR)} ≥ {_span(f'k{e1}γ', _GAMMA_COLOR)}"
            " (dashed)", **css)
        self._set_title(
            self.norm_plot,
            f"{_span('‖w<sub>k</sub>‖²', _CURVE_COLOR)} ≤ {_span(f'k{e2}R²', _BOUND_COLOR)}"
            " (dashed)", **css)
        trace = ws.proof()
        if trace is None:
            for item in (self.dot_curve, self.lower_line, self.norm_curve, self.upper_line):
                item.setData([], [])
            if ws.is_kernel:
                text = PROOF_KERNEL
            elif nov is not None and nov.separable is False:
                text = PROOF_NOT_SEPARABLE
            else:
                text = "The proof's plot needs γ: " + (
                    nov.reason if nov is not None and nov.reason else "not available.")
            self.proof_message.setText(text)
            self._proof_stack.setCurrentIndex(1)
            return
        self.proof_message.setText("")
        self._proof_stack.setCurrentIndex(0)
        self.proof_note.show_text("" if k else "no update yet")
        for plot in (self.dot_plot, self.norm_plot):
            if k:
                plot.enableAutoRange()
            else:  # integer counts on empty axes
                plot.setRange(xRange=(0, 5), yRange=(0, 1), padding=0)
        self.dot_curve.setData(trace.k, trace.dot)
        self.norm_curve.setData(trace.k, trace.norm2)
        ends = [0, k - 1] if k else []
        self.lower_line.setData(trace.k[ends], trace.lower[ends])
        self.upper_line.setData(trace.k[ends], trace.upper[ends])

    def _refresh_mistakes(self, learner, t: int) -> None:
        key = (learner, t)
        if self._keys.get("mistakes") == key:
            return
        self._keys["mistakes"] = key
        counts = learner.mistakes_per_epoch()
        epochs = np.arange(1, counts.size + 1, dtype=np.float64)
        n = self._ws.dataset.n
        in_progress = (not learner.finished) and t % n != 0 and counts.size > 0
        done = counts.size - 1 if in_progress else counts.size
        # gaps between many narrow bars alias into a moiré: past ~100 epochs they tile
        width = 0.8 if counts.size <= 100 else 1.0
        self.bars.setOpts(x=epochs[:done], height=counts[:done].astype(np.float64), width=width)
        self.current_bar.setOpts(x=epochs[done:], height=counts[done:].astype(np.float64),
                                 width=width)
        item = self.mistakes_plot.getPlotItem()
        title = "Mistakes per epoch" + (" (the current one highlighted)" if in_progress else "")
        self._set_title(item, title, **self._title_css())
        self.mistakes_note.show_text("" if counts.size else "no epoch yet")
        top = float(counts.max()) if counts.size else 1.0
        item.setYRange(0.0, max(top, 1.0) * 1.12, padding=0)
        item.setXRange(0.4, max(counts.size, 5) + 0.6, padding=0)

    # -- internals -----------------------------------------------------------------------
    def _show_message(self, text: str) -> None:
        self._message.setText(text)
        self._stack.setCurrentIndex(1)
        self._keys.clear()

    def _schedule(self, *_args) -> None:
        try:
            if not self._timer.isActive():
                self._timer.start()
        except RuntimeError:  # the C++ widget is gone: stop listening
            for signal in (self._ws.learner_changed, self._ws.run_changed,
                           self._ws.dataset_changed, self._ws.theory_changed):
                signal.disconnect(self._schedule)
