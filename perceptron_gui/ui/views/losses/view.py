"""The loss view: every case on the loss curves at its margin, and the risk under each loss.

``plotRisk`` draws the risk for up to :data:`MAX_STATES` exact states of the
run's log, each computed once (in a worker when there is much to compute).
"""

from __future__ import annotations

import math
import time

import numpy as np
import pyqtgraph as pg
import shiboken6

from ....core.learners.losses import MARGIN_LOSSES, PERCEPTRON
from ... import style, workers
from ...deferred import YieldingTimer
from ...widgets.canvas.items import Marks
from ...widgets.canvas.newest import NewestJob
from ...wording import problem_text
from ..base import REFRESH_MS, View
from ..case_hover import CaseHover
from ..plots.items import Note, Titles, new_plot_widget, note_font, style_axes, title_css
from .functions import LOSS_LABELS, LOSS_NAMES, curve, loss_values, risks, risks_of_margins

__all__ = ["DEDUPE_AT", "LOSS_COLORS", "LossView", "MAX_STATES", "NO_RUN_MESSAGE",
           "NO_W_MESSAGE", "states_for"]

#: Each loss's colour (Okabe–Ito hues apart from the classes' blue and vermilion).
LOSS_COLORS = {loss.name: loss.color for loss in MARGIN_LOSSES}
#: The most states of the run whose risk is drawn.
MAX_STATES = 4096
#: Margins computed for the risk curve per refresh at most (~0.1 s of numpy).
RISK_WORK = 1 << 22
#: Rest between two workers computing risks (s): a long run at 10⁵ points played
#: asks for new states at every refresh, and must not keep a core busy.
RISK_REST_S = 0.25
#: Risks on fewer margins than this are computed at once, on the UI thread (~2 ms).
SYNC_WORK = 1 << 16
#: A class with more cases is drawn one marker per half pixel column.
DEDUPE_AT = 2048
#: Bins of the margins' histogram drawn past :data:`DEDUPE_AT`, and its height (of the plot's).
DENSITY_BINS = 100
DENSITY_HEIGHT = 0.3

#: Shown when no run exists yet (and the data have no problem).
NO_RUN_MESSAGE = "The losses fill in as the perceptron runs: add points of both classes."
#: Shown in the risk plot of a run whose log keeps α, not w (the dual perceptron).
NO_W_MESSAGE = ("The risk over the run is not drawn: this run's log keeps α (one per\n"
                "sample), not w. The margins above are those of the current step.")


def states_for(n: int) -> int:
    """States of the run whose risk is drawn for ``n`` cases: fewer as ``n`` grows."""
    return int(min(MAX_STATES, max(128, RISK_WORK // max(n, 1))))


def _nice_up(v: float) -> float:
    """The least of 1, 2, 5 times a power of ten at least ``v`` (> 0)."""
    v = min(v, 1e300)  # a bound that stays finite once grown
    e = 10.0 ** math.floor(math.log10(v))
    return next(m * e for m in (1.0, 2.0, 5.0, 10.0) if m * e >= v * (1 - 1e-12))


#: What the view says for the multiclass perceptron.
MULTICLASS_TEXT = ("The multiclass perceptron's cases have the margin μ = w_y·x̃ − the largest "
                   "other wₖ·x̃, not one y·f(x): the losses of one margin are drawn for the "
                   "perceptrons of two classes.")


class LossView(View):
    """The losses of the margin with every case on them, and the risk over the run.

    Attributes
    ----------
    markers : dict of str to Marks
        ``"pos"`` and ``"neg"``: the cases of each class at ``(z_i, ℓ(z_i))``.
    density : dict of str to PlotDataItem
        The class −1's margins' histogram (``"neg"``), the class +1's stacked on it.
    """

    name = "losses"
    title = "Losses"
    refresh_ms = REFRESH_MS
    redraw_hidden = False  # a step at 10⁵ points costs milliseconds: not for a hidden tab
    object_name = "lossView"

    def __init__(self, workspace, parent=None):
        super().__init__(workspace, parent)
        self._titles = Titles()
        self._z = self._l = np.empty(0)  # every case's margin, and its loss
        self._chosen = PERCEPTRON.name
        self._cache: dict[int, np.ndarray] = {}  # update count -> risks (4,)
        self._cache_owner: tuple = ()
        self._signed: tuple | None = None  # (Xs, s) of the cached learner
        # one worker at a time; a result of another run (learner, data) is dropped
        self._job = NewestJob(lambda request: (risks, request[2:]), self._arrived,
                              lambda: shiboken6.isValid(self))
        self._token = 0
        self._rest_until = 0.0
        self._rest_timer = YieldingTimer(self, self.refresh)
        self.risk_key: tuple = ()  # the samples drawn: (step, k) pairs (tests read it)

        column = self._paged("lossViewMessage")

        self.margin_plot = self._plot("plotLossMargin", "margin z = y·f(x)", "loss", False)
        item = self.margin_plot.getPlotItem()
        self.legend = item.addLegend(offset=(-8, 8))
        self.loss_curves = {name: item.plot(name=LOSS_LABELS[name]) for name in LOSS_NAMES}
        self.markers = {"neg": Marks(), "pos": Marks()}
        for z, marks in enumerate(self.markers.values()):
            marks.setZValue(10 + z)
            item.addItem(marks, ignoreBounds=True)
        # past DEDUPE_AT cases of a class, how many lie at each margin (a histogram)
        self.density = {key: pg.PlotDataItem(stepMode="center", fillLevel=0.0)
                        for key in ("neg", "pos")}
        for key, curve_item in self.density.items():
            curve_item.setZValue(0.5 if key == "neg" else 0.0)  # the class −1 (bottom) in front
            curve_item.setVisible(False)
            item.addItem(curve_item, ignoreBounds=True)
        self.hover_ring = Marks()
        self.hover_ring.setZValue(20)
        self.hover_ring.setVisible(False)
        item.addItem(self.hover_ring, ignoreBounds=True)
        self.margin_plot.setToolTip(
            "The losses of the margin z = y·f(x); the learner's own loss is thick.\n"
            "Each training case sits on it at its margin now (with many cases, the\n"
            "shaded histograms count them). Point at a case to find it on the canvas.")

        self.risk_plot = self._plot("plotRisk", "step", "mean loss", True)
        item = self.risk_plot.getPlotItem()
        self.risk_curves = {name: item.plot(stepMode="right") for name in LOSS_NAMES}
        self.risk_now = pg.ScatterPlotItem(symbol="o")
        item.addItem(self.risk_now)
        self.risk_note = Note(item.getViewBox())
        self.risk_plot.setToolTip(
            "The empirical risk (the mean loss over the training set) under each loss,\n"
            "after each step of the run; the dots mark the current step.")
        column.addWidget(self.margin_plot, 3)
        column.addWidget(self.risk_plot, 2)

        self.case_hover = CaseHover(self.margin_plot, self.case_at, workspace.view_state)
        self.margin_plot.getPlotItem().getViewBox().sigResized.connect(
            lambda *_: self._draw_markers())
        workspace.view_state.events.hovered_changed.connect(self._draw_ring)
        self.restyle()

    @staticmethod
    def _plot(name: str, x_label: str, y_label: str, x_counts: bool) -> pg.PlotWidget:
        widget = new_plot_widget(name, counts=x_counts, y_counts=False)
        item = widget.getPlotItem()
        item.setLabel("bottom", x_label)
        item.setLabel("left", y_label)
        item.showGrid(x=True, y=True, alpha=0.15)
        widget.getViewBox().disableAutoRange()
        return widget

    # -- what is shown ---------------------------------------------------------------------
    @property
    def chosen_loss(self) -> str:
        """The learner's loss, drawn thick and carrying the markers."""
        return self._chosen

    def margins(self) -> tuple[np.ndarray, np.ndarray]:
        """``(z, ℓ(z))`` of every case, by index, as drawn from (not deduplicated)."""
        return self._z, self._l

    # -- style -----------------------------------------------------------------------------
    def restyle(self) -> None:
        """Fonts, pens and markers of :attr:`scale` in the current palette."""
        scale, palette = self._scale, style.current()
        self._message.setFont(note_font(scale))
        for plot in (self.margin_plot, self.risk_plot):
            plot.setBackground(palette.background)
            style_axes(plot.getPlotItem(), scale)
        self.risk_note.setFont(note_font(scale))
        self.risk_note.restyle()
        size = f"{scale.font_pt * 0.85:g}pt"
        self.legend.setLabelTextColor(palette.foreground)
        self.legend.setLabelTextSize(size)
        for _sample, label in self.legend.items:
            label.setText(label.text, color=palette.foreground, size=size)
        self.legend.setBrush(pg.mkBrush(pg.mkColor(palette.background)))
        self.legend.setPen(pg.mkPen(palette.foreground, width=0.5))
        edge = pg.mkPen(palette.background, width=max(1.0, scale.line * 0.4))
        self.hover_ring.set_style("o", scale.marker * 2.0, None,
                                  pg.mkPen(palette.foreground, width=scale.line))
        for key, symbol, color in (("pos", style.POS_SYMBOL, palette.pos_color),
                                   ("neg", style.NEG_SYMBOL, palette.neg_color)):
            self.markers[key].set_style(symbol, scale.marker * 0.8, color, edge)
            # opaque, half way to the background: the class +1's bars stand behind
            c, bg = pg.mkColor(color), pg.mkColor(palette.background)
            fill = pg.mkColor(*((a + b) // 2 for a, b in zip(c.getRgb()[:3], bg.getRgb()[:3],
                                                             strict=True)))
            self.density[key].setPen(pg.mkPen(color, width=max(1.0, scale.line * 0.5)))
            self.density[key].setBrush(pg.mkBrush(fill))
        self.risk_now.setSize(scale.marker * 0.9)
        self.risk_now.setPen(pg.mkPen(palette.foreground, width=1))
        self._titles.clear()
        if self._chosen:  # the pens follow the loss: the refresh sets them for a new one
            self._set_pens(self._chosen)
        self.refresh_shown()

    def _set_pens(self, chosen: str) -> None:
        line = self._scale.line
        for name in LOSS_NAMES:
            thick = name == chosen
            width = line * 1.75 if thick else max(1.0, line * 0.6)
            pen = pg.mkPen(LOSS_COLORS[name], width=width)
            self.loss_curves[name].setPen(pen)
            self.risk_curves[name].setPen(pen)
            self.loss_curves[name].setZValue(5 if thick else 1)

    # -- drawing ----------------------------------------------------------------------------
    def refresh(self) -> None:
        self.stop_pending_refresh()
        self._stale = False
        ws = self.workspace
        if not self._page_for(ws, ws.spec.no_steps_text, NO_RUN_MESSAGE):
            return
        if ws.capabilities.multiclass:  # μ is not one margin y·f(x) of one w
            self.set_message(MULTICLASS_TEXT)
            return
        margins = ws.training_margins()
        if margins is None:
            self.set_message(problem_text(ws) or NO_RUN_MESSAGE)
            return
        loss = ws.capabilities.loss
        chosen = loss.name
        if chosen != self._chosen:
            self._chosen = chosen
            self._set_pens(chosen)
        self._z = margins
        self._l = loss_values(chosen, margins)
        self._titles.set(self.margin_plot.getPlotItem(),
                         f"Each case on the {loss.label} loss",
                         **title_css(self._scale))
        self._draw_curves()
        self._draw_markers()
        self._draw_ring()
        self._refresh_risk()

    def set_message(self, text: str) -> None:
        super().set_message(text)
        self._z = self._l = np.empty(0)
        self.hover_ring.setVisible(False)

    def _range(self) -> tuple[float, float]:
        z = self._z[np.isfinite(self._z)]
        lo = min(float(z.min()), 0.0) if z.size else 0.0
        hi = max(float(z.max()), 0.0) if z.size else 0.0
        return -_nice_up(max(-lo, 2.0)), _nice_up(max(hi, 2.0))

    def _draw_curves(self) -> None:
        lo, hi = self._range()
        top = 1.0 - lo  # the hinge's height at lo, the highest of the four there
        for name in LOSS_NAMES:
            self.loss_curves[name].setData(*curve(name, lo, hi))
        self.margin_plot.getPlotItem().setRange(xRange=(lo, hi), yRange=(-0.04 * top, top * 1.04),
                                                padding=0)

    def _draw_markers(self) -> None:
        z, loss = self._z, self._l
        y = self.workspace.dataset.y
        if z.size != y.size:
            for marks in self.markers.values():
                marks.setData(pos=np.empty((0, 2)))
            return
        lo, hi = self._range()
        columns = int(max(2.0 * self.margin_plot.getViewBox().width(), 200.0))
        finite = np.isfinite(z)
        top = 1.0 - lo
        stacked: dict[str, np.ndarray] = {}  # the histogram of each class thinned
        for key, mask in (("pos", y > 0), ("neg", y <= 0)):
            idx = np.flatnonzero(mask & finite)
            if idx.size > DEDUPE_AT:  # one case per half pixel column: the rest hide under it
                bins = ((z[idx] - lo) * (columns / (hi - lo))).astype(np.int64)
                np.clip(bins, 0, columns - 1, out=bins)
                keep = np.full(columns, -1, np.int64)
                keep[bins] = idx
                # ... and how many there are: a histogram of the margins, DENSITY_BINS wide
                coarse = ((z[idx] - lo) * (DENSITY_BINS / (hi - lo))).astype(np.int64)
                np.clip(coarse, 0, DENSITY_BINS - 1, out=coarse)
                counts = np.bincount(coarse, minlength=DENSITY_BINS)
                idx = keep[keep >= 0]
                stacked[key] = counts
            self.markers[key].setData(pos=np.column_stack([z[idx], loss[idx]]), copy=False)
        # stacked: the class −1 at the bottom, the class +1 on it; the tallest bar fixed
        if stacked:
            edges = np.linspace(lo, hi, DENSITY_BINS + 1)
            neg = stacked.get("neg", np.zeros(DENSITY_BINS, np.int64))
            both = neg + stacked.get("pos", 0)
            unit = DENSITY_HEIGHT * top / max(int(both.max()), 1)
            self.density["pos"].setData(edges, both * unit)
            self.density["neg"].setData(edges, neg * unit)
        for key, density in self.density.items():
            density.setVisible(key in stacked)

    def _draw_ring(self) -> None:
        i = self.workspace.view_state.hovered
        if i is None or not 0 <= i < self._z.size or not math.isfinite(self._z[i]):
            self.hover_ring.setVisible(False)
            return
        self.hover_ring.setData(x=[self._z[i]], y=[self._l[i]])
        self.hover_ring.setVisible(True)

    # -- the risk over the run ----------------------------------------------------------------
    def _refresh_risk(self) -> None:
        ws = self.workspace
        learner = ws.learner
        owner = (learner, ws.dataset)
        if not (len(owner) == len(self._cache_owner)
                and all(a is b for a, b in zip(owner, self._cache_owner, strict=True))):
            self._cache_owner, self._cache, self._signed = owner, {}, None
            self._stop_worker()
        k, t = int(learner.n_updates_), int(learner.step_count)
        rows = learner.history.updates.samples(k, states_for(ws.dataset.n))
        if k and rows.w is None:
            for item in (*self.risk_curves.values(), self.risk_now):
                item.setData([], [])
            self.risk_note.show_text(NO_W_MESSAGE)
            self.risk_key = ()
            return
        self.risk_note.show_text("")
        keys = np.asarray(rows.index, dtype=np.int64)
        missing = [j for j, kk in enumerate(keys.tolist()) if kk not in self._cache]
        if missing:
            pick = np.asarray(missing)
            W, B = np.array(rows.w[pick], dtype=np.float64), np.array(rows.b[pick], np.float64)
            if ws.dataset.n * len(missing) <= SYNC_WORK:
                self._store(self._token, keys[pick], workers.consume(risks, *self._signs(), W, B))
            else:
                self._compute_later(keys[pick], W, B)
        have = [j for j, kk in enumerate(keys.tolist()) if kk in self._cache]
        steps = np.r_[0.0, np.asarray(rows.step, np.float64)[have], float(t)]
        now = risks_of_margins(self._z)
        values = np.vstack([self._start_risk(), *(self._cache[kk]
                            for kk in keys[have].tolist()), now])
        for j, name in enumerate(LOSS_NAMES):
            self.risk_curves[name].setData(steps, values[:, j])
        self.risk_now.setData(x=np.full(len(LOSS_NAMES), float(t)), y=now,
                              brush=[pg.mkBrush(LOSS_COLORS[n]) for n in LOSS_NAMES])
        self.risk_key = tuple(zip(np.asarray(rows.step)[have].tolist(),
                                  keys[have].tolist(), strict=True))
        item = self.risk_plot.getPlotItem()
        self._titles.set(item, "Risk (mean loss) per step",
                         **title_css(self._scale))
        finite = values[np.isfinite(values)]
        top = float(finite.max()) if finite.size else 1.0
        item.setRange(xRange=(0.0, float(max(t, 10))),
                      yRange=(0.0, max(top, 1.0) * 1.08), padding=0.02)

    def _start_risk(self) -> np.ndarray:
        """The risks at step 0 (at ``w = 0`` every margin is 0; a hand-set start has its own)."""
        hit = self._cache.get(0)  # the updates' keys start at 1: 0 is the start's
        if hit is None:
            w0, b0 = self.workspace.learner.history.updates.state_after(0)
            hit = risks_of_margins(np.zeros(1)) if w0 is None or not (w0.any() or b0) else \
                workers.consume(risks, *self._signs(), w0[None], np.array([b0]))[0]
            self._cache[0] = hit
        return hit

    def _signs(self) -> tuple[np.ndarray, np.ndarray]:
        """``(Xs, s)``: the run's samples times their labels, transposed, and the labels."""
        if self._signed is None:
            learner = self.workspace.learner
            s = np.asarray(learner.training_signs, dtype=np.float64)
            X = np.asarray(learner.training_X, dtype=np.float64)
            self._signed = (np.ascontiguousarray((X * s[:, None]).T), s)
        return self._signed

    def _store(self, token: int, keys: np.ndarray, values: np.ndarray) -> None:
        if token == self._token:
            for kk, row in zip(keys.tolist(), values, strict=True):
                self._cache[kk] = row

    def _compute_later(self, keys: np.ndarray, W: np.ndarray, B: np.ndarray) -> None:
        """Compute the risks of the states ``W, B`` in a worker, then redraw (one at a time)."""
        if self._job.pending:  # its result refreshes, which asks for the rest
            return
        rest = self._rest_until - time.perf_counter()
        if rest > 0:
            if not self._rest_timer.isActive():
                self._rest_timer.start(math.ceil(rest * 1000))
            return
        self._job.request((self._token, keys, *self._signs(), W, B))

    def _arrived(self, request: tuple, values: np.ndarray) -> None:
        if request[0] == self._token:  # draw what arrived; compute what is missing now
            self._store(request[0], request[1], values)
            self._rest_until = time.perf_counter() + RISK_REST_S
            self.refresh()

    def _stop_worker(self) -> None:
        self._token += 1
        self._rest_timer.stop()
        self._job.drop()

    @property
    def computing(self) -> bool:
        """Whether risks of the run are being computed in a worker (or wait for one)."""
        return self._job.busy or self._rest_timer.isActive()

    # -- hover --------------------------------------------------------------------------------
    def case_at(self, scene_pos) -> int | None:
        """The case whose marker is under ``scene_pos`` (a scene point of the margin plot)."""
        vb = self.margin_plot.getViewBox()
        if self._z.size == 0 or not vb.sceneBoundingRect().contains(scene_pos):
            return None
        p = vb.mapSceneToView(scene_pos)
        dx, dy = vb.viewPixelSize()
        if not (dx > 0 and dy > 0):
            return None
        with np.errstate(invalid="ignore", over="ignore"):
            d2 = ((self._z - p.x()) / dx) ** 2 + ((self._l - p.y()) / dy) ** 2
        d2[~np.isfinite(d2)] = np.inf
        i = int(np.argmin(d2))
        reach = self._scale.marker * 0.8 / 2 + 3
        return i if d2[i] <= reach * reach else None
