"""The timeline bar: a slider over the computed steps of a run, with a tick at every update.

A run is a cursor over a deterministic computation, so scrubbing is only
``workspace.seek(t)``; ``run_changed`` then moves the slider with its signals blocked.
"""

from __future__ import annotations

import numpy as np
from PySide6 import QtCore, QtGui, QtWidgets

from ...core.text import fmt_count
from .. import style
from . import follow_run

__all__ = ["TimelineBar", "TimelineSlider", "running_learner", "run_length"]

_INT_MAX = 2**31 - 1


def running_learner(workspace):
    """The workspace's perceptron while it has a run, else None."""
    return workspace.learner if workspace.running else None


def run_length(learner) -> int:
    """The last step the timeline reaches: the end of the run, or the frontier."""
    if learner is None:
        return 0
    end = learner.end_step
    return int(end if end is not None else learner.frontier)


class TimelineSlider(QtWidgets.QSlider):
    """A horizontal slider over the steps of a run, with a tick at every update: one per
    pixel column, cached until the updates, range or width change (10⁵ paint as ten)."""

    def __init__(self, parent=None):
        super().__init__(QtCore.Qt.Orientation.Horizontal, parent)
        self.setObjectName("timeline")
        self._log = None
        self._count = 0
        self._cursor = 0
        self._tick_cache: tuple | None = None
        self._tick_len = 5
        self.setMinimumWidth(160)
        self.setMinimumHeight(26)
        self.setFocusPolicy(QtCore.Qt.FocusPolicy.StrongFocus)

    def set_tick_length(self, pixels: int) -> None:
        """Length of the update ticks under the groove (presenter mode lengthens them)."""
        self._tick_len = max(2, int(pixels))
        self.update()

    def set_marks(self, log, count: int, cursor: int) -> None:
        """Mark the first ``count`` updates of ``log`` (an UpdateLog or None)."""
        if log is not self._log or count != self._count:
            self._tick_cache = None
        changed = log is not self._log or count != self._count or cursor != self._cursor
        self._log, self._count, self._cursor = log, count, cursor
        if changed:
            self.update()

    def _ticks(self, groove: QtCore.QRect, handle_len: int):
        lo, hi = self.minimum(), self.maximum()
        key = (id(self._log), self._count, lo, hi, groove.x(), groove.width(), handle_len)
        if self._tick_cache is not None and self._tick_cache[0] == key:
            return self._tick_cache[1:]
        log = self._log
        span = max(1, groove.width() - handle_len)
        x0 = groove.x() + handle_len / 2.0
        # pixel column p shows the steps that round to it; the log counts the updates
        # before each column's edge: O(width) exact queries, any k
        p = np.arange(int(np.floor(x0)), int(np.ceil(x0 + span)) + 1)
        edges = lo + (p - 0.5 - x0) * (max(1, hi - lo) / span)
        bounds = np.r_[edges, edges[-1] + (hi - lo) / span]
        # the first update at a step >= edge: updates among the steps before it (at the
        # resolution of the log's checkpoints once it keeps no longer every row)
        first = np.minimum(self._count, log.counts_before(np.ceil(bounds).astype(np.int64) - 1))
        has = first[1:] > first[:-1]
        cols = p[has]
        if log.thinned:  # the column's last step stands for its updates
            col_steps = np.ceil(bounds[1:][has]).astype(np.int64) - 1
        else:
            col_steps = log.steps_of(first[:-1][has])
        self._tick_cache = (key, cols, col_steps)
        return cols, col_steps

    def paintEvent(self, event: QtGui.QPaintEvent) -> None:
        super().paintEvent(event)
        if not self._count or self.maximum() <= self.minimum():
            return
        opt = QtWidgets.QStyleOptionSlider()
        self.initStyleOption(opt)
        st = self.style()
        groove = st.subControlRect(QtWidgets.QStyle.ComplexControl.CC_Slider, opt,
                                   QtWidgets.QStyle.SubControl.SC_SliderGroove, self)
        handle = st.subControlRect(QtWidgets.QStyle.ComplexControl.CC_Slider, opt,
                                   QtWidgets.QStyle.SubControl.SC_SliderHandle, self)
        cols, col_steps = self._ticks(groove, handle.width())
        if not cols.size:
            return
        y1 = self.height() - 1
        y0 = max(handle.bottom() + 1, y1 - self._tick_len)
        painter = QtGui.QPainter(self)
        past = col_steps <= self._cursor
        for color, sel in ((QtGui.QColor(style.current().future_tick_color), ~past),
                           (QtGui.QColor(style.current().delta_color), past)):
            xs = cols[sel]
            if xs.size:
                painter.setPen(QtGui.QPen(color, max(1, self._tick_len // 5)))
                painter.drawLines([QtCore.QLineF(float(x), y0, float(x), y1) for x in xs])
        painter.end()


class TimelineBar(QtWidgets.QWidget):
    """The timeline: a ``slider`` over the computed steps of the run (a page an epoch) and
    "run step t / T"; ``seekRequested(step)`` (with ``seek_itself`` the bar seeks)."""

    seekRequested = QtCore.Signal(int)

    def __init__(self, workspace, parent=None, *, seek_itself: bool = True):
        super().__init__(parent)
        self.setObjectName("timelineBar")
        self._ws = workspace
        self._digits = 0  # of the step count the label was last fitted to
        self.slider = TimelineSlider(self)
        self.slider.setToolTip(
            "Timeline: drag to show any step of the run, forwards or backwards.\n"
            "Ticks mark the updates (grey: computed, after the cursor).\n"
            "Arrow keys: one step; Page Up/Down: one epoch.")
        self.slider.setAccessibleName("Timeline: step of the run shown")
        self.label = QtWidgets.QLabel(self, objectName="timelineLabel")
        self.label.setTextFormat(QtCore.Qt.TextFormat.PlainText)
        self.label.setAlignment(QtCore.Qt.AlignmentFlag.AlignRight
                                | QtCore.Qt.AlignmentFlag.AlignVCenter)
        self.label.setToolTip("The step shown, of the steps computed, and its update count k.")
        self.label.setAccessibleName("Step shown")
        self.title = QtWidgets.QLabel("Timeline", self, objectName="timelineTitle")
        self.title.setBuddy(self.slider)
        layout = QtWidgets.QHBoxLayout(self)
        layout.setContentsMargins(6, 0, 6, 0)
        layout.setSpacing(10)
        layout.addWidget(self.title)
        layout.addWidget(self.slider, 1)
        layout.addWidget(self.label)
        self.slider.valueChanged.connect(self.seekRequested)
        if seek_itself:
            self.seekRequested.connect(workspace.seek)
        self.set_scale(style.NORMAL)
        self._timer = follow_run(self, workspace, self.refresh, "timelineBarRefreshTimer")
        self.refresh()

    def set_scale(self, scale: style.Scale) -> None:
        """Use the font size of ``scale`` (presenter mode enlarges it)."""
        self.setFont(style.font(scale.font_pt, self.font()))
        self.label.setFont(style.fixed_font(scale.font_pt))
        # room for the widest label this run can show, so the slider does not jump
        self._fit_label()
        factor = scale.font_pt / style.NORMAL.font_pt
        self.slider.setMinimumHeight(round(26 * factor))
        self.slider.set_tick_length(round(5 * factor))

    def _fit_label(self) -> None:
        total = max(run_length(running_learner(self._ws)), 99999)
        sample = f"run step {fmt_count(total)} / {fmt_count(total)}"
        self.label.setMinimumWidth(QtGui.QFontMetrics(self.label.font()).horizontalAdvance(sample)
                                   + 4)

    def refresh(self) -> None:
        """Set the range, the position, the ticks and the label from the workspace now."""
        self._timer.stop()
        learner = running_learner(self._ws)
        total = min(run_length(learner), _INT_MAX)
        t = min(learner.step_count, total) if learner is not None else 0
        s = self.slider
        with QtCore.QSignalBlocker(s):
            s.setRange(0, total)
            s.setValue(t)
            s.setPageStep(max(1, self._ws.dataset.n))
        s.setEnabled(learner is not None and total > 0)
        if learner is None:
            s.set_marks(None, 0, 0)
            ws = self._ws
            self.label.setText("no run" if ws.capabilities.steps
                               else f"{ws.spec.display_name}: no steps")
        else:
            log = learner.history.updates
            s.set_marks(log, len(log), t)
            self.label.setText(f"run step {fmt_count(t)} / {fmt_count(total)}")
        if len(str(total)) > 5 and len(str(total)) != self._digits:
            self._digits = len(str(total))
            self._fit_label()
