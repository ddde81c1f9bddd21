"""The update log: a lazy table of every update of the run (objectName ``updateLog``)."""

from __future__ import annotations

from collections import OrderedDict

from PySide6 import QtCore, QtGui, QtWidgets

from ...core.text import fmt, fmt_count, run_class_names
from .. import style
from . import Guard, follow_run, signed
from .timeline_bar import running_learner

__all__ = ["UpdateLogModel", "UpdateLogView"]


def _align(left: bool) -> int:
    return int((QtCore.Qt.AlignmentFlag.AlignLeft if left else QtCore.Qt.AlignmentFlag.AlignRight)
               | QtCore.Qt.AlignmentFlag.AlignVCenter)


class UpdateLogModel(QtCore.QAbstractTableModel):
    """A lazy table model over the update log of the workspace's run.

    A row per update computed (grey after the cursor), formatted only when asked
    (``report.update_row``, a small cache): a million updates cost no object a row.
    ``synced`` is emitted after :meth:`refresh` (the view then follows the cursor).
    """

    COLUMNS = ("k", "step", "epoch", "sample", "y", "y·f(x) before", "update")
    _TIPS = (
        "Update number k (1 = the first mistake).",
        "The step of the run at which the update happened (the timeline's t).",
        "The epoch (pass over the data) of that step, 1 = the first.",
        "Number i of the misclassified sample (1 = the first point, as in α[i]).",
        "The sample's label y (+1 or −1).",
        "Its functional margin y·f(x) = y·(w·x + b) just before the update;\n"
        "≤ 0 is what made it a mistake.",
        "The update with its numbers: w ← w + η·y·x and b ← b + η·y·c²\n"
        "(for a kernel: α[i] ← α[i] + 1; the hinge loss: the same when y·f(x) ≤ 1;\n"
        "the logistic loss: w ← w + η·σ(−z)·y·x; a batch pass: w ← w + η·Σ yᵢ·xᵢ).",
    )
    #: The multiclass perceptron's columns 4 and 5: the sample's class, its margin μ.
    MULTICLASS_COLUMNS = {4: ("class", "The sample's class."),
                          5: ("μ before", "Its margin μ = w_y·x̃ − max over the other classes of "
                                          "wₖ·x̃ just before the update;\n≤ 0 is what made it "
                                          "a mistake.")}
    UPDATE = 6  # the column of the update's formula
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
        self._timer = follow_run(self, workspace, self.refresh, "updateLogModelRefreshTimer")
        self.refresh()

    @property
    def workspace(self):
        """The workspace whose run is listed."""
        return self._ws

    @property
    def cursor_updates(self) -> int:
        """Updates at or before the cursor, as of the last :meth:`refresh`."""
        return self._k

    def step_of(self, row: int) -> int:
        """The step of the run at which the update of ``row`` happened."""
        return self._learner.history.updates.step_of(row)

    def refresh(self) -> None:
        """Bring the rows and the greying up to date with the workspace now."""
        self._timer.stop()
        learner = running_learner(self._ws)
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

    def rowCount(self, parent=QtCore.QModelIndex()) -> int:  # noqa: B008 - Qt's signature
        return 0 if parent.isValid() else self._rows

    def columnCount(self, parent=QtCore.QModelIndex()) -> int:  # noqa: B008
        return 0 if parent.isValid() else len(self.COLUMNS)

    def headerData(self, section, orientation, role=QtCore.Qt.ItemDataRole.DisplayRole):
        if orientation != QtCore.Qt.Orientation.Horizontal:
            return None
        multiclass = self._multiclass() and section in self.MULTICLASS_COLUMNS
        if role == QtCore.Qt.ItemDataRole.DisplayRole:
            return self.MULTICLASS_COLUMNS[section][0] if multiclass else self.COLUMNS[section]
        if role == QtCore.Qt.ItemDataRole.ToolTipRole:
            return self.MULTICLASS_COLUMNS[section][1] if multiclass else self._TIPS[section]
        if role == QtCore.Qt.ItemDataRole.TextAlignmentRole:
            return _align(section == self.UPDATE)
        return None

    def _multiclass(self) -> bool:
        """Whether the run listed is of m classes' weights (the multiclass perceptron)."""
        return self._learner is not None and self._ws.capabilities.multiclass

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
            texts = self._texts(row)
            return texts[-1] if col == self.UPDATE else texts[col]
        if role == R.ForegroundRole:
            return QtGui.QColor(style.current().future_text_color) if row >= self._k else None
        if role == R.TextAlignmentRole:
            return _align(col == self.UPDATE)
        if role == R.ToolTipRole:
            tip = self._texts(row)[-2]
            if row >= self._k:
                tip += "\n\nAfter the cursor: computed, not shown yet (select to go there)."
            return tip
        return None

    def row_texts(self, row: int) -> tuple[str, ...]:
        """The texts of ``row``'s cells, in column order (the update on one line)."""
        return self._texts(row)[:-2]

    def update_lines(self) -> int:
        """How many lines the update column shows a row in (w, then b: 2 with a bias)."""
        return 1 if self._learner is None or not self._rows else self._texts(0)[-1].count("\n") + 1

    def _texts(self, row: int) -> tuple[str, ...]:
        hit = self._cache.get(row)
        if hit is not None:
            self._cache.move_to_end(row)
            return hit
        from ...core import report  # with the first row shown: not on the launch's path

        r = report.update_row(self._ws, row)  # the workspace: its classes' names
        label = (run_class_names(self._ws.dataset, [r.label])[0] if self._multiclass()
                 else signed(r.label))
        formula = r.formula
        number = r.sample + 1  # samples are numbered from 1, as in the readouts
        head = f"α[{number}] ← α[{number}] + 1"
        if r.alpha_before is not None and formula.startswith(head):
            # the dual form with its number, as in the LaTeX export
            formula = f"{head} = {r.alpha_before + 1}{formula[len(head):]}"
        one_line = formula.replace("\n", "   ")
        tip = (f"update k = {fmt_count(r.k)} at step {fmt_count(r.step)} "
               f"(epoch {fmt_count(r.epoch)})\n{r.formula}")
        if r.alpha_before is not None:
            tip += f"\nα[{number}] = {r.alpha_before + 1} after this update"
        if r.sample < 0:  # a pass of batch gradient descent sums every sample
            number, label = "all", "—"
        texts = (fmt_count(r.k), fmt_count(r.step), fmt_count(r.epoch),
                 number if isinstance(number, str) else fmt_count(number), label, fmt(r.margin),
                 one_line, tip, formula)
        self._cache[row] = texts
        while len(self._cache) > self._CACHE_ROWS:
            self._cache.popitem(last=False)
        return texts


class UpdateLogView(QtWidgets.QTableView):
    """The update log table: a row selected asks to seek to its step (:attr:`seekRequested`);
    the view follows the cursor with its signals blocked."""

    seekRequested = QtCore.Signal(int)

    def __init__(self, model: UpdateLogModel, parent=None, *, seek_itself: bool = True):
        super().__init__(parent)
        self.setObjectName("updateLog")
        self._syncing = Guard()
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
        self.setAccessibleName("Update log")
        self.setToolTip("Every update of the run. Select a row to show the run at that update;\n"
                        "grey rows are computed but lie after the cursor.")
        self.selectionModel().selectionChanged.connect(self._on_selection_changed)
        model.synced.connect(self.follow_cursor)
        model.modelReset.connect(self._apply_widths)
        model.modelReset.connect(self.follow_cursor)
        if seek_itself:
            self.seekRequested.connect(lambda step: model.workspace.seek(step))
        self.set_font_size(style.NORMAL.font_pt)
        self.follow_cursor()

    def set_font_size(self, pt: float) -> None:
        """Font size of the table (presenter mode enlarges it)."""
        font = style.font(pt, self.font())
        self.setFont(font)
        self.horizontalHeader().setFont(font)
        self._apply_widths()

    def _apply_widths(self) -> None:
        """Numeric columns as wide as a long number; the update the rest, w and b a line each."""
        fm = QtGui.QFontMetrics(self.font())
        lines = self.model().update_lines()
        pt = self.font().pointSizeF()
        self.verticalHeader().setDefaultSectionSize(
            lines * fm.lineSpacing() + max(4, round(pt * 0.5)))
        pad = fm.horizontalAdvance("  ") + 6
        counts = "9,999,999"  # 7-digit counts fit: a run of 10⁶ updates still reads
        samples = (counts, counts, counts, counts, "+1", "−99.99")
        for col, sample in enumerate(samples):
            title = self.model().COLUMNS[col]
            self.setColumnWidth(col, max(fm.horizontalAdvance(sample),
                                         fm.horizontalAdvance(title)) + pad)

    def selected_row(self) -> int | None:
        rows = self.selectionModel().selectedRows()
        return rows[0].row() if rows else None

    def follow_cursor(self) -> None:
        """Select and show the latest update at or before the cursor (no seek)."""
        model = self.model()
        k = model.cursor_updates
        with self._syncing:
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

    def _on_selection_changed(self, *_args) -> None:
        if self._syncing:
            return
        row = self.selected_row()
        if row is not None and row < self.model().rowCount():
            self.seekRequested.emit(self.model().step_of(row))
