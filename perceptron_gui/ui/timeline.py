"""The timeline and the update log: scrub a run to any step, read every update.

A perceptron run is a cursor over a deterministic computation (see
:mod:`perceptron_gui.core.learners._run`): every computed step can be shown again
exactly, so scrubbing is only ``workspace.seek(t)`` and every view redraws the
state of step ``t`` from the core.

- :class:`TimelineBar`: a slider (objectName ``timeline``) over the computed steps
  ``0..frontier`` (``0..end_step`` once the run has ended), with a tick under it
  at every update (past updates in the update colour, later ones grey) and the
  label "step t / T".
- :class:`UpdateLogModel` / :class:`UpdateLogView` (objectName ``updateLog``): a
  lazy table over the core's update log — ``rowCount`` is the number of updates
  computed, ``data`` formats a row when the view asks for it (through
  :func:`perceptron_gui.core.report.update_row`, i.e.
  :func:`~perceptron_gui.core.text.format_update`), so a run of a million
  updates costs no Python object per row.  Rows after the cursor are grey.
- :func:`install` adds both to the main window, with the File menu's exports
  (CSV, LaTeX), and an edit guard that asks before an edit discards the steps
  computed after the cursor.

Both directions are kept apart: a user gesture (moving the slider, selecting a
row) calls ``workspace.seek``; the workspace's ``run_changed`` then moves the
slider and the selection with their signals blocked, so nothing feeds back.
"""

from __future__ import annotations

import os
from collections import OrderedDict

import numpy as np
from PySide6 import QtCore, QtGui, QtWidgets

from ..core import report
from ..core.dataset import MovePoints
from ..core.text import MINUS, fmt
from . import style

__all__ = ["TimelineBar", "TimelineSlider", "UpdateLogModel", "UpdateLogView", "Timeline",
           "install"]

_INT_MAX = 2**31 - 1
_FUTURE_COLOR = QtGui.QColor("#9a9a9a")
_TICK_PAST = QtGui.QColor(style.DELTA_COLOR)
_TICK_FUTURE = QtGui.QColor("#c8c8c8")


def _learner(workspace):
    """The workspace's perceptron while it has a run, else None."""
    return workspace.learner if workspace.running else None


def _run_length(learner) -> int:
    """The last step the timeline reaches: the end of the run, or the frontier."""
    if learner is None:
        return 0
    end = learner.end_step
    return int(end if end is not None else learner.frontier)


class _Coalesced:
    """Mixin: connect workspace signals to one zero-interval single-shot refresh."""

    def _coalesce(self, workspace, signals) -> None:
        self._timer = QtCore.QTimer(self)
        self._timer.setObjectName(f"{self.objectName()}RefreshTimer")
        self._timer.setSingleShot(True)
        self._timer.setInterval(0)
        self._timer.timeout.connect(self.refresh)
        self._signals = signals
        for signal in signals:
            signal.connect(self._schedule)
        self.destroyed.connect(lambda *_: _disconnect(signals, self._schedule))

    def _schedule(self, *_args) -> None:
        try:
            if not self._timer.isActive():
                self._timer.start()
        except RuntimeError:  # the C++ object is gone: stop listening
            _disconnect(self._signals, self._schedule)


def _disconnect(signals, slot) -> None:
    for signal in signals:
        signal.disconnect(slot)


# =================================================================================== timeline


class TimelineSlider(QtWidgets.QSlider):
    """A horizontal slider over the steps of a run, with a tick at every update.

    The ticks are drawn one per pixel column (however many updates fall in it),
    from a cache rebuilt only when the number of updates, the range or the
    width changes: a run of 10⁵ updates paints as fast as one of ten.
    """

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
        steps = self._log.step[: self._count]
        span = max(1, groove.width() - handle_len)
        x0 = groove.x() + handle_len / 2.0
        # pixel column p shows the steps that round to it; the steps are increasing, so
        # a binary search per column finds its first update: O(width log k), any k
        p = np.arange(int(np.floor(x0)), int(np.ceil(x0 + span)) + 1)
        edges = lo + (p - 0.5 - x0) * (max(1, hi - lo) / span)
        first = np.searchsorted(steps, np.r_[edges, edges[-1] + (hi - lo) / span])
        has = first[1:] > first[:-1]
        cols, col_steps = p[has], np.asarray(steps)[first[:-1][has]]
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
        for color, sel in ((_TICK_FUTURE, ~past), (_TICK_PAST, past)):
            xs = cols[sel]
            if xs.size:
                painter.setPen(QtGui.QPen(color, max(1, self._tick_len // 5)))
                painter.drawLines([QtCore.QLineF(float(x), y0, float(x), y1) for x in xs])
        painter.end()


class TimelineBar(QtWidgets.QWidget, _Coalesced):
    """The timeline: a slider over the computed steps of the run and "step t / T".

    Parameters
    ----------
    workspace : Workspace
        The workspace whose run it scrubs.
    parent : QWidget, optional

    Attributes
    ----------
    slider : TimelineSlider
        The QSlider (objectName ``timeline``); its range is ``0..frontier``
        (``0..end_step`` once the run has ended).
    seekRequested : Signal(int)
        The user moved the slider to this step (the owner calls
        ``workspace.seek``; without an owner the bar seeks itself).

    Notes
    -----
    PageUp/PageDown move the slider by one epoch (n steps), the arrow keys by
    one step.
    """

    seekRequested = QtCore.Signal(int)

    def __init__(self, workspace, parent=None, *, seek_itself: bool = True):
        super().__init__(parent)
        self.setObjectName("timelineBar")
        self._ws = workspace
        self.slider = TimelineSlider(self)
        self.slider.setToolTip(
            "Timeline: drag to show any step of the run, forwards or backwards.\n"
            "Ticks mark the updates (grey: computed, after the cursor).\n"
            "Arrow keys: one step; Page Up/Down: one epoch.")
        self.label = QtWidgets.QLabel(self, objectName="timelineLabel")
        self.label.setTextFormat(QtCore.Qt.TextFormat.PlainText)
        self.label.setAlignment(QtCore.Qt.AlignmentFlag.AlignRight
                                | QtCore.Qt.AlignmentFlag.AlignVCenter)
        self.title = QtWidgets.QLabel("Timeline", self, objectName="timelineTitle")
        layout = QtWidgets.QHBoxLayout(self)
        layout.setContentsMargins(6, 0, 6, 0)
        layout.setSpacing(10)
        layout.addWidget(self.title)
        layout.addWidget(self.slider, 1)
        layout.addWidget(self.label)
        self.slider.valueChanged.connect(self._on_value_changed)
        if seek_itself:
            self.seekRequested.connect(self._seek)
        self.set_scale(style.NORMAL)
        self._coalesce(workspace, (workspace.run_changed, workspace.learner_changed))
        self.refresh()

    @property
    def workspace(self):
        """The workspace scrubbed."""
        return self._ws

    def set_scale(self, scale: style.Scale) -> None:
        """Use the font size of ``scale`` (presenter mode enlarges it)."""
        font = QtGui.QFont(self.font())
        font.setPointSizeF(scale.font_pt)
        self.setFont(font)
        mono = style.fixed_font(scale.font_pt)
        self.label.setFont(mono)
        # room for the widest label this run can show, so the slider does not jump
        self._fit_label()
        factor = scale.font_pt / style.NORMAL.font_pt
        self.slider.setMinimumHeight(round(26 * factor))
        self.slider.set_tick_length(round(5 * factor))

    def _fit_label(self) -> None:
        total = max(_run_length(_learner(self._ws)), 99999)
        sample = f"step {total} / {total}"
        self.label.setMinimumWidth(QtGui.QFontMetrics(self.label.font()).horizontalAdvance(sample)
                                   + 4)

    def refresh(self) -> None:
        """Set the range, the position, the ticks and the label from the workspace now."""
        self._timer.stop()
        learner = _learner(self._ws)
        total = min(_run_length(learner), _INT_MAX)
        t = min(learner.step_count, total) if learner is not None else 0
        s = self.slider
        blocked = s.blockSignals(True)
        try:
            s.setRange(0, total)
            s.setValue(t)
            s.setPageStep(max(1, self._ws.dataset.n))
        finally:
            s.blockSignals(blocked)
        s.setEnabled(learner is not None and total > 0)
        if learner is None:
            s.set_marks(None, 0, 0)
            self.label.setText("no run" if self._ws.learner_name != "lda" else "LDA: no steps")
        else:
            log = learner.history.updates
            s.set_marks(log, len(log), t)
            self.label.setText(f"step {t} / {total}")
        if len(str(total)) > 5 and len(str(total)) != getattr(self, "_digits", 0):
            self._digits = len(str(total))
            self._fit_label()

    def _on_value_changed(self, value: int) -> None:
        self.seekRequested.emit(int(value))

    def _seek(self, step: int) -> None:
        self._ws.seek(step)


# =================================================================================== update log


class UpdateLogModel(QtCore.QAbstractTableModel, _Coalesced):
    """A lazy table model over the update log of the workspace's run.

    ``rowCount`` is the number of updates computed (the log may extend past the
    cursor); ``data`` formats a row only when asked (a small cache keeps the
    rows on screen), so the model holds no Python object per update.

    Parameters
    ----------
    workspace : Workspace
        The workspace whose run is listed.
    parent : QObject, optional

    Attributes
    ----------
    COLUMNS : tuple of str
        Column titles: k, step, epoch, sample i, label y, margin before, update.
    synced : Signal()
        Emitted after :meth:`refresh` brought the rows up to date (the view then
        follows the cursor).
    """

    COLUMNS = ("k", "step", "epoch", "sample", "y", "y·f(x) before", "update")
    _TIPS = (
        "Update number k (1 = the first mistake).",
        "The step of the run at which the update happened (the timeline's t).",
        "The epoch (pass over the data) of that step, 1 = the first.",
        "Index i of the misclassified sample in the data (0-based, as in α[i]).",
        "The sample's label y (+1 or −1).",
        "Its functional margin y·f(x) = y·(w·x + b) just before the update;\n"
        "≤ 0 is what made it a mistake.",
        "The update with its numbers: w ← w + η·y·x and b ← b + η·y·c²\n"
        "(for a kernel: α[i] ← α[i] + 1).",
    )
    K, STEP, EPOCH, SAMPLE, LABEL, MARGIN, UPDATE = range(7)
    _CACHE_ROWS = 1024

    synced = QtCore.Signal()

    def __init__(self, workspace, parent=None):
        super().__init__(parent)
        self.setObjectName("updateLogModel")
        self._ws = workspace
        self._learner = None
        self._rows = 0
        self._k = 0  # updates at or before the cursor
        self._cache: OrderedDict[int, tuple] = OrderedDict()
        self._coalesce(workspace, (workspace.run_changed, workspace.learner_changed))
        self.refresh()

    # -- state ------------------------------------------------------------------------
    @property
    def learner(self):
        """The perceptron listed (None without a run)."""
        return self._learner

    @property
    def cursor_updates(self) -> int:
        """Updates at or before the cursor, as of the last :meth:`refresh`."""
        return self._k

    def step_of(self, row: int) -> int:
        """The step of the run at which the update of ``row`` happened."""
        return int(self._learner.history.updates.step[row])

    def is_future(self, row: int) -> bool:
        """True when the update of ``row`` lies after the cursor (greyed)."""
        return row >= self._k

    def refresh(self) -> None:
        """Bring the rows and the greying up to date with the workspace now."""
        self._timer.stop()
        learner = _learner(self._ws)
        count = len(learner.history.updates) if learner is not None else 0
        if learner is not self._learner or count < self._rows:
            self.beginResetModel()
            self._learner = learner
            self._rows = count
            self._k = learner.n_updates_ if learner is not None else 0
            self._cache.clear()
            self.endResetModel()
        else:
            if count > self._rows:
                self.beginInsertRows(QtCore.QModelIndex(), self._rows, count - 1)
                self._rows = count
                self.endInsertRows()
            k = learner.n_updates_ if learner is not None else 0
            if k != self._k:
                lo, hi = sorted((k, self._k))
                self._k = k
                hi = min(hi, self._rows)
                if hi > lo:
                    self.dataChanged.emit(self.index(lo, 0),
                                          self.index(hi - 1, len(self.COLUMNS) - 1),
                                          [QtCore.Qt.ItemDataRole.ForegroundRole,
                                           QtCore.Qt.ItemDataRole.ToolTipRole])
        self.synced.emit()

    # -- the Qt model ---------------------------------------------------------------------
    def rowCount(self, parent=QtCore.QModelIndex()) -> int:  # noqa: B008 - Qt's signature
        return 0 if parent.isValid() else self._rows

    def columnCount(self, parent=QtCore.QModelIndex()) -> int:  # noqa: B008
        return 0 if parent.isValid() else len(self.COLUMNS)

    def headerData(self, section, orientation, role=QtCore.Qt.ItemDataRole.DisplayRole):
        if orientation != QtCore.Qt.Orientation.Horizontal:
            return None
        if role == QtCore.Qt.ItemDataRole.DisplayRole:
            return self.COLUMNS[section]
        if role == QtCore.Qt.ItemDataRole.ToolTipRole:
            return self._TIPS[section]
        if role == QtCore.Qt.ItemDataRole.TextAlignmentRole:
            left = section == self.UPDATE
            return int((QtCore.Qt.AlignmentFlag.AlignLeft if left
                        else QtCore.Qt.AlignmentFlag.AlignRight)
                       | QtCore.Qt.AlignmentFlag.AlignVCenter)
        return None

    def flags(self, index):
        if not index.isValid():
            return QtCore.Qt.ItemFlag.NoItemFlags
        return QtCore.Qt.ItemFlag.ItemIsEnabled | QtCore.Qt.ItemFlag.ItemIsSelectable

    def data(self, index, role=QtCore.Qt.ItemDataRole.DisplayRole):
        if not index.isValid() or self._learner is None:
            return None
        row, col = index.row(), index.column()
        if not 0 <= row < self._rows:
            return None
        R = QtCore.Qt.ItemDataRole
        if role == R.DisplayRole:
            return self._texts(row)[col]
        if role == R.ForegroundRole:
            return _FUTURE_COLOR if row >= self._k else None
        if role == R.TextAlignmentRole:
            left = col == self.UPDATE
            return int((QtCore.Qt.AlignmentFlag.AlignLeft if left
                        else QtCore.Qt.AlignmentFlag.AlignRight)
                       | QtCore.Qt.AlignmentFlag.AlignVCenter)
        if role == R.ToolTipRole:
            tip = self._texts(row)[-1]
            if row >= self._k:
                tip += "\n\nAfter the cursor: computed, not shown yet (select to go there)."
            return tip
        return None

    def row_texts(self, row: int) -> tuple[str, ...]:
        """The texts of ``row``'s cells, in column order."""
        return self._texts(row)[:-1]

    def _texts(self, row: int) -> tuple[str, ...]:
        hit = self._cache.get(row)
        if hit is not None:
            self._cache.move_to_end(row)
            return hit
        r = report.update_row(self._learner, row)
        label = "+1" if r.label > 0 else f"{MINUS}1"
        formula = r.formula
        head = f"α[{r.sample}] ← α[{r.sample}] + 1"
        if r.alpha_before is not None and formula.startswith(head):
            # the dual form with its number, as in the LaTeX export
            formula = f"{head} = {r.alpha_before + 1}{formula[len(head):]}"
        one_line = formula.replace("\n", "   ")
        tip = f"update k = {r.k} at step {r.step} (epoch {r.epoch})\n{r.formula}"
        if r.alpha_before is not None:
            tip += f"\nα[{r.sample}] = {r.alpha_before + 1} after this update"
        texts = (str(r.k), str(r.step), str(r.epoch), str(r.sample), label, fmt(r.margin),
                 one_line, tip)
        self._cache[row] = texts
        while len(self._cache) > self._CACHE_ROWS:
            self._cache.popitem(last=False)
        return texts


class UpdateLogView(QtWidgets.QTableView):
    """The update log table (objectName ``updateLog``).

    Selecting a row asks to seek the run to that update's step
    (:attr:`seekRequested`); when the cursor moves by other means, the view
    selects and scrolls to the latest update at or before it, without asking.

    Parameters
    ----------
    model : UpdateLogModel
    parent : QWidget, optional
    """

    seekRequested = QtCore.Signal(int)

    def __init__(self, model: UpdateLogModel, parent=None, *, seek_itself: bool = True):
        super().__init__(parent)
        self.setObjectName("updateLog")
        self._syncing = False
        self.setModel(model)
        self.setSelectionBehavior(QtWidgets.QAbstractItemView.SelectionBehavior.SelectRows)
        self.setSelectionMode(QtWidgets.QAbstractItemView.SelectionMode.SingleSelection)
        self.setEditTriggers(QtWidgets.QAbstractItemView.EditTrigger.NoEditTriggers)
        self.setWordWrap(False)
        self.setTextElideMode(QtCore.Qt.TextElideMode.ElideRight)
        self.setHorizontalScrollMode(QtWidgets.QAbstractItemView.ScrollMode.ScrollPerPixel)
        self.setCornerButtonEnabled(False)
        self.setShowGrid(False)
        self.setAlternatingRowColors(True)
        self.verticalHeader().setVisible(False)
        # fixed row heights and column widths: nothing ever measures all rows
        self.verticalHeader().setSectionResizeMode(QtWidgets.QHeaderView.ResizeMode.Fixed)
        header = self.horizontalHeader()
        header.setSectionResizeMode(QtWidgets.QHeaderView.ResizeMode.Interactive)
        header.setStretchLastSection(True)
        header.setHighlightSections(False)
        self.setToolTip("Every update of the run. Select a row to show the run at that update;\n"
                        "grey rows are computed but lie after the cursor.")
        self.selectionModel().selectionChanged.connect(self._on_selection_changed)
        model.synced.connect(self.follow_cursor)
        model.modelReset.connect(self._apply_widths)
        model.modelReset.connect(self.follow_cursor)
        if seek_itself:
            self.seekRequested.connect(lambda step: model._ws.seek(step))
        self.set_font_size(style.NORMAL.font_pt)
        self.follow_cursor()

    def set_font_size(self, pt: float) -> None:
        """Font size of the table (presenter mode enlarges it)."""
        font = QtGui.QFont(self.font())
        font.setPointSizeF(pt)
        self.setFont(font)
        self.horizontalHeader().setFont(font)
        fm = QtGui.QFontMetrics(font)
        self.verticalHeader().setDefaultSectionSize(fm.height() + max(4, round(pt * 0.5)))
        self._apply_widths()

    def _apply_widths(self) -> None:
        """Numeric columns as wide as their title or a long number; the update takes the rest."""
        fm = QtGui.QFontMetrics(self.font())
        pad = fm.horizontalAdvance("  ") + 6
        samples = ("9999", "999999", "9999", "99999", "+1", "−99.99")
        for col, sample in enumerate(samples):
            title = self.model().COLUMNS[col]
            self.setColumnWidth(col, max(fm.horizontalAdvance(sample),
                                         fm.horizontalAdvance(title)) + pad)

    def selected_row(self) -> int | None:
        """The selected row, or None."""
        rows = self.selectionModel().selectedRows()
        return rows[0].row() if rows else None

    def follow_cursor(self) -> None:
        """Select and show the latest update at or before the cursor (no seek)."""
        model = self.model()
        k = model.cursor_updates
        self._syncing = True
        try:
            sel = self.selectionModel()
            if k <= 0 or k > model.rowCount():
                sel.clearSelection()
                sel.setCurrentIndex(QtCore.QModelIndex(),
                                    QtCore.QItemSelectionModel.SelectionFlag.NoUpdate)
                return
            index = model.index(k - 1, 0)
            if self.selected_row() != k - 1:
                sel.setCurrentIndex(
                    index, QtCore.QItemSelectionModel.SelectionFlag.ClearAndSelect
                    | QtCore.QItemSelectionModel.SelectionFlag.Rows)
            self.scrollTo(index, QtWidgets.QAbstractItemView.ScrollHint.EnsureVisible)
        finally:
            self._syncing = False

    def _on_selection_changed(self, *_args) -> None:
        if self._syncing:
            return
        row = self.selected_row()
        if row is not None and row < self.model().rowCount():
            self.seekRequested.emit(self.model().step_of(row))


# =================================================================================== the feature


class Timeline(QtCore.QObject):
    """The timeline feature of the main window (made by :func:`install`).

    Parameters
    ----------
    window : MainWindow

    Attributes
    ----------
    bar : TimelineBar
        In the bottom toolbar ``toolbarTimeline``; ``bar.slider`` is the
        QSlider ``timeline``.
    model : UpdateLogModel
    view : UpdateLogView
        The table ``updateLog`` in the dock ``dock_updateLog`` ("Update log").
    actionExportLogCsv, actionExportLogLatex : QAction
        "Export update log as CSV…" and "…as LaTeX…" (File menu and the log's
        context menu).
    """

    def __init__(self, window):
        super().__init__(window)
        self.setObjectName("timelineFeature")
        self.window = window
        ws = window.workspace
        self._refused_drag: int | None = None
        self._export_dir = ""

        self.bar = TimelineBar(ws, seek_itself=False)
        self.slider = self.bar.slider
        self.toolbar = QtWidgets.QToolBar("Timeline", window)
        self.toolbar.setObjectName("toolbarTimeline")
        self.toolbar.setMovable(True)
        self.toolbar.addWidget(self.bar)
        window.addToolBar(QtCore.Qt.ToolBarArea.BottomToolBarArea, self.toolbar)

        self.model = UpdateLogModel(ws, self)
        self.view = UpdateLogView(self.model, seek_itself=False)
        self.dock = QtWidgets.QDockWidget("Update log", window)
        self.dock.setObjectName("dock_updateLog")
        self.dock.setWidget(self.view)
        self.dock.setFeatures(QtWidgets.QDockWidget.DockWidgetFeature.DockWidgetMovable
                              | QtWidgets.QDockWidget.DockWidgetFeature.DockWidgetFloatable
                              | QtWidgets.QDockWidget.DockWidgetFeature.DockWidgetClosable)
        # the log sits under the canvas and the plots; the learner and readout column
        # keeps the full height (the readouts must not be squeezed into a scroll area)
        window.setCorner(QtCore.Qt.Corner.BottomLeftCorner,
                         QtCore.Qt.DockWidgetArea.LeftDockWidgetArea)
        window.addDockWidget(QtCore.Qt.DockWidgetArea.BottomDockWidgetArea, self.dock)
        window.resizeDocks([self.dock], [190], QtCore.Qt.Orientation.Vertical)
        window._docks["updateLog"] = self.dock

        self.bar.seekRequested.connect(self.seek)
        self.view.seekRequested.connect(self.seek)
        self._build_actions()
        window.edit_guards.append(self.confirm_edit)
        self._slots = ((ws.run_changed, self._update_actions),
                       (ws.learner_changed, self._update_actions))
        for signal, slot in self._slots:
            signal.connect(slot)
        window.destroyed.connect(self._detach)
        self._update_actions()

    def _detach(self, *_args) -> None:
        for signal, slot in self._slots:
            signal.disconnect(slot)

    def _build_actions(self) -> None:
        w = self.window
        self.actionExportLogCsv = QtGui.QAction("Export update log as &CSV…", w)
        self.actionExportLogCsv.setObjectName("actionExportLogCsv")
        self.actionExportLogCsv.setStatusTip(
            "Write every update of the run (k, step, sample, margin, w and b before and "
            "after) to a CSV file, exact to the last bit")
        self.actionExportLogCsv.triggered.connect(self.export_csv)
        self.actionExportLogLatex = QtGui.QAction("Export update log as &LaTeX…", w)
        self.actionExportLogLatex.setObjectName("actionExportLogLatex")
        self.actionExportLogLatex.setStatusTip(
            "Write the update log as a LaTeX table (booktabs) with the formulas typeset")
        self.actionExportLogLatex.triggered.connect(self.export_latex)
        actions = [self.actionExportLogCsv, self.actionExportLogLatex]
        w.addActions(actions)
        file_menu = w.menus["file"]
        quit_action = getattr(w, "actionQuit", None)
        items = file_menu.actions()
        before = None
        if quit_action in items:  # just above the separator that precedes Quit
            at = items.index(quit_action)
            before = items[at - 1] if at and items[at - 1].isSeparator() else quit_action
        for act in actions:
            file_menu.insertAction(before, act) if before else file_menu.addAction(act)
        # the log's context menu, and the View menu's toggles
        self.view.setContextMenuPolicy(QtCore.Qt.ContextMenuPolicy.ActionsContextMenu)
        self.view.addActions(actions)
        view_menu = w.menus["view"]
        view_menu.addAction(self.dock.toggleViewAction())
        self.toolbar.toggleViewAction().setText("Timeline")
        view_menu.addAction(self.toolbar.toggleViewAction())

    def _update_actions(self, *_args) -> None:
        has_log = self.window.workspace.running and len(
            self.window.workspace.learner.history.updates) > 0
        self.actionExportLogCsv.setEnabled(has_log)
        self.actionExportLogLatex.setEnabled(has_log)

    # -- public -----------------------------------------------------------------------
    def refresh(self) -> None:
        """Redraw the timeline and the log now (tests call it)."""
        self.bar.refresh()
        self.model.refresh()
        self._update_actions()

    def set_scale(self, scale: style.Scale) -> None:
        """Font sizes of the timeline and the log (presenter mode)."""
        self.bar.set_scale(scale)
        self.view.set_font_size(scale.font_pt)

    def seek(self, step: int) -> None:
        """Show step ``step`` of the run (the user scrubbed or picked an update).

        Playback and "run to end" stop first: the user took the run in hand.
        """
        w = self.window
        if w.actionPlay.isChecked():
            w.set_playing(False)
        if w.running_to_end:
            w.cancel_run()
        w.workspace.seek(step)

    # -- the edit guard ---------------------------------------------------------------------
    def later_steps(self) -> int:
        """Steps computed after the cursor (what an edit of the data would discard)."""
        learner = _learner(self.window.workspace)
        return 0 if learner is None else max(0, learner.frontier - learner.step_count)

    def confirm_edit(self, edit) -> bool:
        """Before an edit while the run is scrubbed back: discard the later steps?

        Returns True (go ahead) when no computed step lies after the cursor or
        the user answers Yes; False cancels the edit.  Either way the edit is
        undoable: undo restores the data and the run's position.  One drag asks
        once: after No, the rest of the same drag is refused silently.
        """
        later = self.later_steps()
        if later == 0:
            return True
        drag = self.window._drag_serial if isinstance(edit, MovePoints) else None
        if drag is not None and drag == self._refused_drag:
            return False
        ws = self.window.workspace
        steps = "step" if later == 1 else "steps"
        answer = QtWidgets.QMessageBox.question(
            self.window, "Discard later steps?",
            f"Discard the {later} later {steps} of the run?\n\n"
            f"The run is shown at step {ws.step_count} of {ws.learner.frontier} computed. "
            "Changing the data restarts training from w = 0; Undo brings back the data "
            "and this step.",
            QtWidgets.QMessageBox.StandardButton.Yes | QtWidgets.QMessageBox.StandardButton.No,
            QtWidgets.QMessageBox.StandardButton.No,
        )
        ok = answer == QtWidgets.QMessageBox.StandardButton.Yes
        if drag is not None:
            self._refused_drag = None if ok else drag
            self._end_stale_drag()
        if not ok:
            self.window.show_message("Edit cancelled: the run keeps its later steps.")
        return ok

    def _end_stale_drag(self) -> None:
        """A modal question in the middle of a drag eats the button's release: when no
        button is down any more, post one so the canvas ends the drag."""
        if QtWidgets.QApplication.mouseButtons() != QtCore.Qt.MouseButton.NoButton:
            return
        viewport = self.window.canvas.viewport()
        local = QtCore.QPointF(viewport.mapFromGlobal(QtGui.QCursor.pos()))
        release = QtGui.QMouseEvent(
            QtCore.QEvent.Type.MouseButtonRelease, local, viewport.mapToGlobal(local),
            QtCore.Qt.MouseButton.LeftButton, QtCore.Qt.MouseButton.NoButton,
            QtCore.Qt.KeyboardModifier.NoModifier)
        QtCore.QCoreApplication.postEvent(viewport, release)

    # -- exports ----------------------------------------------------------------------------
    def _ask_path(self, title: str, suffix: str, filter_text: str) -> str | None:
        start = os.path.join(self._export_dir or QtCore.QStandardPaths.writableLocation(
            QtCore.QStandardPaths.StandardLocation.DocumentsLocation), f"update-log{suffix}")
        path, _ = QtWidgets.QFileDialog.getSaveFileName(self.window, title, start, filter_text)
        if not path:
            return None
        if not os.path.splitext(path)[1]:
            path += suffix
        self._export_dir = os.path.dirname(path)
        return path

    def _write(self, path: str, write) -> bool:
        QtWidgets.QApplication.setOverrideCursor(QtCore.Qt.CursorShape.WaitCursor)
        try:
            count = write(path)
        except (OSError, ValueError) as exc:
            error = exc
        else:
            error = None
        finally:
            QtWidgets.QApplication.restoreOverrideCursor()
        if error is not None:
            QtWidgets.QMessageBox.warning(self.window, "Export failed",
                                          f"Could not write {path}:\n{error}")
            return False
        self.window.show_message(f"Update log: {count} updates written to {path}")
        return True

    def export_csv(self, path: str | None = None) -> bool:
        """Export the update log (the whole computed run) as CSV; asks for the file."""
        path = path or self._ask_path("Export update log as CSV", ".csv",
                                      "CSV files (*.csv);;All files (*)")
        if not path:
            return False
        return self._write(path, lambda p: report.log_to_csv(self.window.workspace, p))

    def export_latex(self, path: str | None = None) -> bool:
        """Export the update log as a LaTeX table; asks for the file."""
        path = path or self._ask_path("Export update log as LaTeX", ".tex",
                                      "LaTeX files (*.tex);;All files (*)")
        if not path:
            return False

        def write(p):
            ws = self.window.workspace
            report.write_text(p, report.log_to_latex(ws))
            return report.n_updates(ws)

        return self._write(path, write)


def install(window) -> Timeline:
    """Add the timeline, the update log, their exports and the edit guard to ``window``."""
    return Timeline(window)
