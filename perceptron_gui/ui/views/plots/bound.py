"""``plotBound``: the updates ``k`` against the step, under Novikoff's ceiling ``(R/γ)²``."""

from __future__ import annotations

import math

import pyqtgraph as pg
from PySide6 import QtCore

from ....core.text import fmt
from ... import style
from .items import (
    Note,
    Titles,
    fast,
    fitting_title,
    new_plot_widget,
    restyle_part,
    title_css,
)

__all__ = ["BoundPlot", "NOT_SEPARABLE", "NO_BOUND"]

NOT_SEPARABLE = "not separable — no bound"
#: The corner note of a run that Novikoff's bound is not about (hinge, logistic, batch).
NO_BOUND = "Novikoff's bound does not apply to this run"


class BoundPlot:
    """The plot of ``k`` and its ceiling: ``k_curve`` a step curve through the updates
    ``(step, k)``, ``k_tail`` from the last one to the cursor ``k_now``, ``bound_line`` the
    ceiling ``(R/γ)²`` (on a log axis, at ``log10`` of it)."""

    #: Its name in :meth:`~.live.LivePlots.part`; every item exists from the start.
    name = "bound"
    complete = True

    def __init__(self, titles: Titles):
        self._titles = titles
        self._scale = style.NORMAL
        #: The plot's widget in the live plots' column.
        self.widget = self.bound_plot = new_plot_widget("plotBound")
        item = self.bound_plot.getPlotItem()
        self._bottom = "step (samples examined)"
        item.setLabel("bottom", self._bottom)
        item.setLabel("left", "updates k")
        # a grid only here, where it marks the decades of k (grids cost ~10 ms a frame)
        item.showGrid(y=True, alpha=0.15)
        self.k_curve = pg.PlotDataItem(stepMode="right", name="k")  # k_i from its step on
        self.k_tail = pg.PlotDataItem()
        self.k_now = pg.PlotDataItem(symbol="o", pen=None)
        self.bound_line = pg.InfiniteLine(
            angle=0, movable=False, label="", labelOpts={
                "position": 0.03, "anchors": [(0, 0), (0, 0)],
            },
        )
        for it in (self.k_curve, self.k_tail, self.k_now):
            item.addItem(it)
        item.addItem(self.bound_line, ignoreBounds=True)
        fast(item)
        self.bound_note = Note(item.getViewBox())
        self.bound_plot.setToolTip(
            "Updates k against the samples examined. On separable data Novikoff's\n"
            "theorem caps k at (R/γ)² (dashed line), whatever the order of the samples.\n"
            "With a ceiling the k axis is logarithmic (1, 10, 100, …)."
        )

    def set_scale(self, scale: style.Scale) -> None:
        """Fonts and line widths of ``scale``."""
        self._scale = scale
        font = restyle_part(self.bound_plot, self.bound_note, scale, self.bound_plot.getPlotItem())
        self.bound_line.label.setFont(font)
        line, pal = scale.line, style.current()
        self.k_curve.setPen(pg.mkPen(pal.weight_color, width=line))
        self.k_tail.setPen(pg.mkPen(pal.weight_color, width=line))
        self.k_now.setSymbolSize(scale.marker * 0.9)
        self.k_now.setSymbolPen(pg.mkPen(pal.foreground, width=1))
        self.k_now.setSymbolBrush(pg.mkBrush(pal.highlight_color))
        dash = QtCore.Qt.PenStyle.DashLine
        self.bound_line.setPen(pg.mkPen(pal.radius_color, width=line, style=dash))
        self.bound_line.label.setColor(pal.radius_color)

    def refresh(self, ws, t: int, k: int, r) -> None:
        """Draw ``k`` updates after ``t`` steps of ``ws``'s run, with readouts ``r``."""
        item = self.bound_plot.getPlotItem()
        finite = bool(r.separable) and math.isfinite(r.bound) and r.bound > 0
        # With a ceiling, k runs on a log axis: the bound is often 10-100 times the
        # k reached, and a linear axis would flatten the staircase into the floor.
        log = finite
        if item.ctrl.logYCheck.isChecked() != log:
            item.setLogMode(y=log)
        # every update up to a few thousand, then exact points of the staircase
        points = ws.learner.history.updates.samples(k)
        self.k_curve.setData(points.step, points.index)
        last = float(points.step[-1]) if k else 0.0
        has_k = k > 0 or not log  # log10(0) is not drawn
        self.k_tail.setData([last, float(t)], [k, k]) if has_k else self.k_tail.setData([], [])
        self.k_now.setData([float(t)], [k]) if has_k else self.k_now.setData([], [])
        self.bound_line.setVisible(finite)
        css = title_css(self._scale)
        if finite:
            self.bound_line.setPos(math.log10(r.bound))
            # from a start set by hand the ceiling is the bound from w₀ (readouts' bound_note)
            ceiling = "bound from w₀" if r.bound_note else "(R/γ)²"
            label = f"{ceiling} = {fmt(r.bound)}"
            if self.bound_line.label.format != label:
                self.bound_line.label.setFormat(label)
            bound = fmt(r.bound)
            # presenter mode's large type: the short title (the pane is narrow for it)
            title = (f"k ≤ {ceiling} = {bound}" if self._scale.font_pt > style.NORMAL.font_pt
                     else fitting_title(item, self._scale, f"Updates k ≤ {ceiling} = {bound}",
                                        f"k ≤ {ceiling} = {bound}"))
            self._titles.set(item, title, **css)
            self.bound_note.show_text("" if k else "no update yet", "bottom")  # clear of the label
            # the ceiling is the point of this plot: keep it in view, with room for its label
            top = math.log10(max(r.bound, k, 1.0)) + 0.35
            item.setYRange(-0.12, top, padding=0)
        else:
            # k counts the updates, the steps that moved w, for every loss
            self._titles.set(item, "Updates k", **css)
            if not ws.capabilities.novikoff:  # the readouts say why, in a sentence
                self.bound_note.show_text(NO_BOUND, "corner")
            elif r.separable is False:
                self.bound_note.show_text(NOT_SEPARABLE, "corner")
            else:
                self.bound_note.show_text(r.bound_text if r.bound_text != "—" else "", "corner")
            # counts start at 0; an autorange around a single k would show negative ticks
            item.setYRange(0.0, max(k, 1) * 1.15, padding=0)
        # the first epoch fills the axis, then the axis grows with the run
        ev = ws.current_event  # batch descent: a step is a pass, an epoch is one step
        passes = ev is not None and ev.index < 0
        epoch = 10 if passes else ws.dataset.n
        item.setXRange(0.0, float(max(t, epoch, 1)), padding=0.02)
        bottom = "step (passes over the data)" if passes else "step (samples examined)"
        if bottom != self._bottom:  # a new label lays the plot out again: only on a change
            self._bottom = bottom
            item.setLabel("bottom", bottom)
