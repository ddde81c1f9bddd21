"""``boundStrip``: the bound plot alone, for the side panel while the views are hidden.

It redraws only while shown, at most every :data:`REFRESH_MS`; its plot is built
when there is first a run to draw.
"""

from __future__ import annotations

from PySide6 import QtCore, QtWidgets

from ... import style
from ...deferred import YieldingTimer
from ..base import Paged, workspace_events
from .bound import BoundPlot
from .items import Titles, note_font
from .live import NO_RUN_MESSAGE, REFRESH_MS

__all__ = ["BoundStrip", "STRIP_MIN_PX"]

#: The strip's least height, in pixels: under "Now" in a 1280 × 680 window (a 1366 × 768
#: laptop's) it shows whole.  Its title says what the axes are: they go unlabelled.
STRIP_MIN_PX = 100


class BoundStrip(Paged, QtWidgets.QWidget):
    """The bound plot of a workspace (:attr:`plot`, objectName ``stripBound``), small."""

    def __init__(self, workspace, parent=None):
        super().__init__(parent)
        self.setObjectName("boundStrip")
        self._ws = workspace
        self._due = True  # a change came while hidden: redraw when shown
        self._plot: BoundPlot | None = None
        self._scale = style.NORMAL
        self._paged("boundStripMessage", QtWidgets.QWidget(minimumHeight=STRIP_MIN_PX), margin=6)
        self.setMinimumHeight(STRIP_MIN_PX)
        # one subscription: the page (the plot, or why there is none) the next pass, the
        # plot at most every REFRESH_MS
        self._timer = YieldingTimer(self, self._changed, name="boundStripRefreshTimer")
        for event in workspace_events(workspace):
            event.connect(self._timer.schedule)
        self._draw_timer = YieldingTimer(self, self.refresh, interval_ms=REFRESH_MS,
                                         name="boundStripDrawTimer")
        self.set_scale(style.NORMAL)

    @property
    def plot(self) -> BoundPlot:
        """The bound plot, built the first time it is drawn or asked for."""
        if self._plot is None:
            self._plot = plot = BoundPlot(Titles())
            plot.bound_plot.setObjectName("stripBound")
            plot.bound_plot.setMinimumHeight(STRIP_MIN_PX)
            plot.set_scale(self._scale)
            empty, shown = self._stack.widget(0), self._stack.currentIndex()
            self._stack.insertWidget(0, plot.widget)
            self._stack.removeWidget(empty)
            self._stack.setCurrentIndex(shown)
            empty.deleteLater()
        return self._plot

    def follow(self, window, section: QtWidgets.QWidget) -> None:
        """Show ``section`` (the strip's, in ``window``'s side panel) while the views beside
        the canvas are hidden, outside presenter mode (which shows the views themselves)."""
        self._followed = (window, section)
        window.view_state.events.views_changed.connect(self._follow)
        window.presenter.toggled.connect(self._follow)
        self._follow()

    def _follow(self, *_args) -> None:
        window, section = self._followed
        section.setVisible(not window.view_state.views_shown and not window.presenting)

    def sizeHint(self) -> QtCore.QSize:  # noqa: N802 - Qt's name
        """A little over its least height: the panel above keeps its own (a plot's hint
        is 480 px, which squeezed "Now" and pushed the strip out of sight)."""
        return QtCore.QSize(super().sizeHint().width(), STRIP_MIN_PX + 10)

    def set_scale(self, scale: style.Scale) -> None:
        """Sizes of ``scale`` and the current palette (the theme calls it too)."""
        self._scale = scale
        if self._plot is not None:
            self._plot.set_scale(scale)
        self._message.setFont(note_font(scale))
        self.refresh()

    def _unlabel(self) -> None:
        """No axis labels: the title names both axes."""
        item = self.plot.bound_plot.getPlotItem()
        for side in ("left", "bottom"):
            axis = item.getAxis(side)
            if axis.label.isVisible():
                axis.showLabel(False)

    def _fit_plot(self) -> None:
        """The plot's item laid out to its view's size again: a view resized while the
        item's least width was larger leaves it at that width, drawn past the strip."""
        widget = self.plot.bound_plot
        item = widget.getPlotItem()
        item.layout.activate()
        item.updateGeometry()
        size = widget.viewport().size()
        widget.centralWidget.setGeometry(QtCore.QRectF(0, 0, size.width(), size.height()))

    def showEvent(self, event) -> None:  # noqa: N802 - Qt's name
        super().showEvent(event)
        if self._due:
            self.refresh()
        if self._plot is not None:
            self._fit_plot()

    def _changed(self) -> None:
        self._due = True
        if self._page() and self.isVisible() and not self._draw_timer.isActive():
            self._draw_timer.start()

    def refresh(self) -> None:
        self._timer.stop()
        self._draw_timer.stop()
        self._due = False
        if self._page():
            ws = self._ws
            learner = ws.learner
            self.plot.refresh(ws, learner.step_count, learner.n_updates_, ws.readouts())
            self._unlabel()
            self._fit_plot()

    def _page(self) -> bool:
        """Show the plot (built the first time: True) or the message (False)."""
        shown = self._page_for(self._ws, self._ws.spec.no_steps_text, NO_RUN_MESSAGE)
        return shown and self.plot is not None
