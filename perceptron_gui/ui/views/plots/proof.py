"""``plotProof``: the two inequalities of Novikoff's proof along the run.

``wₖ·w* ≥ kηγ`` (left) and ``‖wₖ‖² ≤ kη²R²`` (right), from ``Workspace.proof()``;
in a pane too narrow for both side by side, the second goes under the first.
"""

from __future__ import annotations

import numpy as np
import pyqtgraph as pg
from PySide6 import QtCore, QtGui, QtWidgets

from ....core.readouts import no_bound_reason
from ... import style
from ...deferred import YieldingTimer
from ..base import Paged
from .items import (
    Note,
    Titles,
    axes,
    fast,
    fit_to_view,
    plain,
    restyle_part,
    set_points,
    span,
    title_css,
)

__all__ = ["ProofPlot", "PLOT_MIN_PX", "PROOF_KERNEL", "PROOF_NOT_SEPARABLE"]

#: The least height of one proof plot (two when stacked), in pixels.
PLOT_MIN_PX = 120

PROOF_KERNEL = (
    "The proof's quantities wₖ·w* and ‖wₖ‖² are drawn for a linear perceptron only: "
    "with a kernel, w lives in feature space."
)
PROOF_NOT_SEPARABLE = (
    "Not separable: no unit w* with margin γ > 0 exists, so there is no proof (and no bound)."
)


def _range(values, k: int) -> tuple[tuple[float, float], tuple[float, float]]:
    """x and y ranges that hold ``values`` from 0, never collapsed on one value."""
    x = (0.0, float(max(k, 2)) * 1.04)
    finite = [v[np.isfinite(v)] for v in values if len(v)]
    data = np.concatenate(finite) if finite else np.zeros(0)
    lo = min(0.0, float(data.min())) if data.size else 0.0
    hi = max(0.0, float(data.max())) if data.size else 1.0
    if hi - lo <= 0:
        hi = lo + 1.0
    pad = 0.06 * (hi - lo)
    return x, (lo - (pad if lo < 0 else 0.0), hi + pad)


class ProofPlot(Paged):
    """The proof's two plots, or why not (``staged``: the second made by :meth:`build_rest`)."""

    #: Its name in :meth:`~.live.LivePlots.part`.
    name = "proof"

    def __init__(self, titles: Titles, *, staged: bool = False):
        self._titles = titles
        self._scale = style.NORMAL
        #: True once every item exists (after :meth:`build_rest` when ``staged``).
        self.complete = False
        #: The plots' widget in the live plots' column.
        self.widget = self.proof_box = QtWidgets.QWidget(objectName="plotProof")
        self.proof_view = fit_to_view(pg.GraphicsLayoutWidget())
        self.proof_view.setObjectName("plotProofView")
        self.proof_view.setBackground(style.current().background)
        self.proof_view.setMinimumHeight(PLOT_MIN_PX)
        self.proof_view.setSizePolicy(QtWidgets.QSizePolicy.Policy.Ignored,
                                      QtWidgets.QSizePolicy.Policy.Expanding)
        self.proof_view.ci.layout.setSpacing(2)
        self.proof_view.ci.setContentsMargins(2, 2, 2, 2)
        self._paged("plotProofMessage", self.proof_view, 16, host=self.proof_box)
        self._message.setAutoFillBackground(True)
        self._paint_message()
        self.dot_plot, self.dot_curve, self.lower_line = self._add_plot(0, "wₖ·w*", "kγ")
        self.stacked = False
        #: Called with :attr:`stacked` when it changes (the live plots give it more height).
        self.on_stacked = None
        self._arranger = _Arranger(self._arrange, self.proof_view)
        if not staged:
            self.build_rest()

    def build_rest(self) -> None:
        """Make the second plot and the note (a staged build: the next event-loop turn)."""
        if self.complete:
            return
        self.norm_plot, self.norm_curve, self.upper_line = self._add_plot(1, "‖wₖ‖²", "kR²")
        self.proof_note = Note(self.dot_plot.getViewBox())
        self.proof_box.setToolTip(
            "Novikoff's proof, along the run: each update adds η·y·x̃ with y·w·x̃ ≤ 0, so\n"
            "wₖ·w* grows by at least ηγ and ‖wₖ‖² by at most η²R².\n"
            "Together kηγ ≤ wₖ·w* ≤ ‖wₖ‖ ≤ √k·ηR, hence k ≤ (R/γ)²."
        )
        self.complete = True
        self._arrange()

    def _arrange(self) -> None:
        """Side by side when both fit the pane's width at their least widths, else stacked."""
        if not self.complete:
            return
        layout = self.proof_view.ci.layout
        least = sum(plot.effectiveSizeHint(QtCore.Qt.SizeHint.MinimumSize).width()
                    for plot in (self.dot_plot, self.norm_plot))
        least += layout.horizontalSpacing() + 8
        stacked = least > self.proof_view.width()
        if stacked == self.stacked:
            return
        self.stacked = stacked
        # moved within the grid only: the plot stays in its scene (taking it out of the
        # scene and back, as GraphicsLayout.removeItem/addItem do, left the scene's
        # paint preparation calling into it and crashed a later paint)
        grid = self.proof_view.ci.layout
        grid.removeItem(self.norm_plot)
        row, col = (1, 0) if stacked else (0, 1)
        grid.addItem(self.norm_plot, row, col)
        grid.activate()
        self.proof_view.setMinimumHeight(PLOT_MIN_PX * (2 if stacked else 1))
        if self.on_stacked is not None:
            self.on_stacked(stacked)

    def _add_plot(self, col: int, curve_name: str, line_name: str):
        """One of the two plots, with its curve (solid) and line (dashed): its title, each
        side in its colour, is the legend (a legend box would cover the curves)."""
        plot = self.proof_view.addPlot(row=0, col=col, axisItems=axes(True, False),
                                       viewBox=pg.ViewBox(enableMenu=False))
        curve = pg.PlotDataItem(name=curve_name)
        line = pg.PlotDataItem(name=line_name)
        plain(plot)
        plot.setLabel("bottom", "updates k")
        plot.addItem(curve)
        plot.addItem(line)
        fast(plot)
        return plot, curve, line

    def set_scale(self, scale: style.Scale) -> None:
        """Fonts and line widths of ``scale``."""
        self._scale = scale
        font = restyle_part(self.proof_view, self.proof_note, scale, self.dot_plot, self.norm_plot)
        self._message.setFont(font)
        self._paint_message()
        self._arrange()  # larger type needs more width
        line, pal = scale.line, style.current()
        dash = QtCore.Qt.PenStyle.DashLine
        self.dot_curve.setPen(pg.mkPen(pal.weight_color, width=line))
        self.norm_curve.setPen(pg.mkPen(pal.weight_color, width=line))
        self.lower_line.setPen(pg.mkPen(pal.maxmargin_color, width=line, style=dash))
        self.upper_line.setPen(pg.mkPen(pal.radius_color, width=line, style=dash))

    def _paint_message(self) -> None:
        palette = self._message.palette()
        palette.setColor(QtGui.QPalette.ColorRole.Window, pg.mkColor(style.current().background))
        palette.setColor(QtGui.QPalette.ColorRole.WindowText,
                         QtGui.QColor(style.current().foreground))
        self._message.setPalette(palette)

    def refresh(self, ws, k: int) -> None:
        """Draw the proof's quantities up to the ``k``-th update of ``ws``'s run."""
        nov = ws.novikoff
        eta = ws.params.get("eta0", 1.0)
        e1 = "" if eta == 1 else "η"
        e2 = "" if eta == 1 else "η²"
        # from a hand-set start the proof's sides start at w₀'s values
        a0, n0 = ("w<sub>0</sub>·w* + ", "‖w<sub>0</sub>‖² + ") if (
            ws.starts_by_hand and ws.start is not None) else ("", "")
        css, pal = title_css(self._scale), style.current()
        self._titles.set(
            self.dot_plot, f"{span('w<sub>k</sub>·w*', pal.weight_color)} ≥ "
            f"{span(f'{a0}k{e1}γ', pal.maxmargin_color)} (dashed)", **css)
        self._titles.set(
            self.norm_plot, f"{span('‖w<sub>k</sub>‖²', pal.weight_color)} ≤ "
            f"{span(f'{n0}k{e2}R²', pal.radius_color)} (dashed)", **css)
        trace = ws.proof()
        if trace is None:
            for item in (self.dot_curve, self.lower_line, self.norm_curve, self.upper_line):
                item.setData([], [])
            if not ws.capabilities.novikoff:
                text = no_bound_reason(ws.capabilities, ws.params)
            elif ws.capabilities.nonlinear_kernel:
                text = PROOF_KERNEL
            elif nov is not None and nov.separable is False:
                text = PROOF_NOT_SEPARABLE
            else:
                text = "The proof's plot needs γ: " + (
                    nov.reason if nov is not None and nov.reason else "not available.")
            self.set_message(text)
            return
        self._message.setText("")
        self._stack.setCurrentIndex(0)
        self.proof_note.show_text("" if k else "no update yet" + (
            ": w = w₀, set by hand" if a0 else ""))
        marker = self._scale.marker * 0.7
        set_points(self.dot_curve, trace.k, trace.dot, marker)
        set_points(self.norm_curve, trace.k, trace.norm2, marker)
        n = len(trace.k)  # every update up to a few thousand, then a sample ending at k
        ends = [0, n - 1] if n > 1 else [0] if n else []
        set_points(self.lower_line, trace.k[ends], trace.lower[ends], marker)
        set_points(self.upper_line, trace.k[ends], trace.upper[ends], marker)
        for plot, values in ((self.dot_plot, (trace.dot, trace.lower[ends])),
                             (self.norm_plot, (trace.norm2, trace.upper[ends]))):
            x, y = _range(values, k)
            plot.setRange(xRange=x, yRange=y, padding=0)
        self._arrange()  # the titles' widths may have changed


class _Arranger(QtCore.QObject):
    """Calls ``arrange`` a pass of the event loop after a resize of ``widget``, never inside
    it: a plot moved in the grid while the view lays out or paints left the scene painting
    an item list that had changed under it (a crash in ``QGraphicsView::paintEvent``)."""

    def __init__(self, arrange, widget: QtWidgets.QWidget):
        super().__init__(widget)
        self._timer = YieldingTimer(self, lambda: arrange() if widget.isVisible() else None,
                                    name="proofArrange")
        widget.installEventFilter(self)

    def eventFilter(self, obj, event) -> bool:  # noqa: N802 - Qt's name
        if event.type() == QtCore.QEvent.Type.Resize and not self._timer.isActive():
            self._timer.start()
        return False
