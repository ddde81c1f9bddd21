"""``plotMistakes``: the updates made in each epoch, as bars (the current one highlighted)."""

from __future__ import annotations

import numpy as np
import pyqtgraph as pg

from ....core.text import fmt_count
from ... import style
from .items import (
    BAR_COLOR,
    Note,
    Titles,
    axis_css,
    new_plot_widget,
    restyle_part,
    title_css,
)

__all__ = ["MistakesPlot", "MAX_BARS"]

#: At most this many bars: a longer run shows the largest count of each group of
#: consecutive epochs (a bar per epoch costs ~0.6 µs a paint: 0.6 s at 10⁶ epochs).
MAX_BARS = 2000


class MistakesPlot:
    """Mistakes per epoch: ``bars`` (finished epochs) and ``current_bar`` (the one in progress)."""

    #: Its name in :meth:`~.live.LivePlots.part`; every item exists from the start.
    name = "mistakes"
    complete = True

    def __init__(self, titles: Titles):
        self._titles = titles
        self._scale = style.NORMAL
        #: The plot's widget in the live plots' column.
        self.widget = self.mistakes_plot = new_plot_widget("plotMistakes")
        item = self.mistakes_plot.getPlotItem()
        item.setLabel("bottom", "epoch")
        item.setLabel("left", "mistakes")
        empty = np.zeros(0)
        self.bars = pg.BarGraphItem(x=empty, height=empty, width=0.8)
        self.current_bar = pg.BarGraphItem(x=empty, height=empty, width=0.8)
        item.addItem(self.bars)
        item.addItem(self.current_bar)
        self.mistakes_note = Note(item.getViewBox())
        self.mistakes_plot.setToolTip(
            "Updates (mistakes) made in each pass over the data; the epoch in progress\n"
            "is highlighted. An epoch without a mistake ends the run."
        )

    def set_scale(self, scale: style.Scale) -> None:
        """Fonts and line widths of ``scale``."""
        self._scale = scale
        restyle_part(self.mistakes_plot, self.mistakes_note, scale,
                     self.mistakes_plot.getPlotItem())
        self.bars.setOpts(pen=None, brush=pg.mkBrush(BAR_COLOR))
        self.current_bar.setOpts(pen=pg.mkPen(style.current().foreground,
                                              width=max(1.0, scale.line / 2)),
                                 brush=pg.mkBrush(style.current().highlight_color))

    def refresh(self, ws, t: int) -> None:
        """Draw the mistakes of each epoch of ``ws``'s run up to step ``t``."""
        learner = ws.learner
        counts = learner.mistakes_per_epoch()
        epochs = np.arange(1, counts.size + 1, dtype=np.float64)
        n = ws.dataset.n
        ev = ws.current_event
        a_pass = ev is not None and ev.index < 0  # batch descent: a step is a whole epoch
        in_progress = (not learner.finished) and t % n != 0 and counts.size > 0 and not a_pass
        done = counts.size - 1 if in_progress else counts.size
        # gaps between many narrow bars alias into a moiré: past ~100 epochs they tile
        width = 0.8 if counts.size <= 100 else 1.0
        group = -(-done // MAX_BARS)
        if group > 1:  # the largest count of each group of epochs, one bar each
            starts = np.arange(0, done, group)
            x = epochs[starts] + (np.minimum(starts + group, done) - starts - 1) / 2.0
            heights = np.maximum.reduceat(counts[:done], starts).astype(np.float64)
            self.bars.setOpts(x=x, height=heights, width=float(group))
        else:
            self.bars.setOpts(x=epochs[:done], height=counts[:done].astype(np.float64),
                              width=width)
        self.current_bar.setOpts(x=epochs[done:], height=counts[done:].astype(np.float64),
                                 width=width)
        item = self.mistakes_plot.getPlotItem()
        what = "mistakes" if ws.capabilities.novikoff else "updates"  # steps that moved w
        title = (f"{what.capitalize()} per epoch" if group <= 1
                 else f"Most {what} per {fmt_count(group)} epochs")
        self._titles.set(item, title, **title_css(self._scale))
        if item.getAxis("left").labelText != what:
            item.setLabel("left", what, **axis_css(self._scale))
        self.mistakes_note.show_text("" if counts.size else "no epoch yet")
        top = float(counts.max()) if counts.size else 1.0
        item.setYRange(0.0, max(top, 1.0) * 1.12, padding=0)
        item.setXRange(0.4, max(counts.size, 5) + 0.6, padding=0)
