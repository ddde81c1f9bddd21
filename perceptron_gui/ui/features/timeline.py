"""The timeline bar and the update log in the window, their exports (CSV, LaTeX), and
the edit guard that asks before an edit discards the steps computed after the cursor.
"""

from __future__ import annotations

import os
from typing import TYPE_CHECKING

from PySide6 import QtCore, QtWidgets

from ...core.commands import Seek
from ...core.dataset import Edit, MovePoints
from ...core.text import fmt_count, plural
from .. import errors, style
from ..actions import ActionSpec
from ..widgets.timeline_bar import TimelineBar, running_learner
from ..widgets.update_log import UpdateLogModel, UpdateLogView
from ..window_api import WindowAPI
from .recent_files import ask_save_path, insert_menu_above

if TYPE_CHECKING:
    from .export.tables import TableExport

__all__ = ["Timeline"]


class Timeline(QtCore.QObject):
    """The timeline ``bar`` (toolbar ``toolbarTimeline``) and the update log (its dock).

    The log is made when its dock first shows or its ``model`` or ``view`` is
    asked for (the log is hidden at the first start).
    """

    def __init__(self, window: WindowAPI):
        super().__init__(window)
        self.setObjectName("timelineFeature")
        self.window = window
        ws = window.workspace
        self._refused_drag: int | None = None
        self._export_dir = ""
        self._scale = style.NORMAL
        self._model: UpdateLogModel | None = None
        self._view: UpdateLogView | None = None
        self.table_export: TableExport | None = None

        self.bar = TimelineBar(ws, seek_itself=False)
        self.slider = self.bar.slider
        self.toolbar = QtWidgets.QToolBar("Timeline", window, objectName="toolbarTimeline")
        self.toolbar.setMovable(True)
        self.toolbar.addWidget(self.bar)
        window.add_toolbar(self.toolbar, QtCore.Qt.ToolBarArea.BottomToolBarArea, key="timeline")

        self.dock = QtWidgets.QDockWidget("Update log", window)
        self.dock.setObjectName("dock_updateLog")
        self.dock.visibilityChanged.connect(self._on_dock_visible)
        # the log sits under the canvas and the plots; the learner and readout column
        # keeps the full height (the readouts must not be squeezed into a scroll area)
        window.setCorner(QtCore.Qt.Corner.BottomLeftCorner,
                         QtCore.Qt.DockWidgetArea.LeftDockWidgetArea)
        window.add_dock("updateLog", self.dock, QtCore.Qt.DockWidgetArea.BottomDockWidgetArea)
        window.resizeDocks([self.dock], [190], QtCore.Qt.Orientation.Vertical)

        self.bar.seekRequested.connect(self.seek)
        self._build_actions()
        window.edit_guards.append(self.confirm_edit)
        for event in (ws.events.run_changed, ws.events.learner_changed, ws.events.dataset_changed):
            event.connect(self._update_actions)
        self._update_actions()

    def _build_actions(self) -> None:
        w = self.window
        self.actionExportLogCsv = w.actions.make(ActionSpec(
            "export_log_csv", "Export update log as &CSV…", lambda: self.export_csv(wait=False),
            tip="Write every update of the run (k, step, sample, margin, w and b before and "
                "after) to a CSV file, exact to the last bit"))
        self.actionExportLogLatex = w.actions.make(ActionSpec(
            "export_log_latex", "Export update log as &LaTeX…",
            lambda: self.export_latex(wait=False),
            tip="Write the update log as a LaTeX table (booktabs) with the formulas typeset"))
        for act in (self.actionExportLogCsv, self.actionExportLogLatex):
            insert_menu_above(w.menus["file"], act, w.actions["quit"])
        # the View menu's toggles (the log's context menu has the exports too)
        view_menu = w.menus["view"]
        view_menu.addAction(self.dock.toggleViewAction())
        self.toolbar.toggleViewAction().setText("Timeline")
        view_menu.addAction(self.toolbar.toggleViewAction())

    def _on_dock_visible(self, visible: bool) -> None:
        if visible and self._view is None:
            self._build_log()
            self._view.show()  # in this frame, not in a later event-loop turn

    def _build_log(self) -> None:
        if self._view is not None:
            return
        self._model = UpdateLogModel(self.window.workspace, self)
        self._view = UpdateLogView(self._model, seek_itself=False)
        if self._scale != style.NORMAL:
            self._view.set_font_size(self._scale.font_pt)
        self._view.seekRequested.connect(self.seek)
        self._view.setContextMenuPolicy(QtCore.Qt.ContextMenuPolicy.ActionsContextMenu)
        self._view.addActions([self.actionExportLogCsv, self.actionExportLogLatex])
        self.dock.setWidget(self._view)

    def _update_actions(self, *_args) -> None:
        ws = self.window.workspace
        for act in (self.actionExportLogCsv, self.actionExportLogLatex):
            act.setEnabled(ws.running and len(ws.learner.history.updates) > 0)

    # -- public -----------------------------------------------------------------------
    @property
    def model(self) -> UpdateLogModel:
        """The update log's table model (made with the table when first needed)."""
        self._build_log()
        return self._model

    @property
    def view(self) -> UpdateLogView:
        """The update log's table ``updateLog`` (made when first needed)."""
        self._build_log()
        return self._view

    def refresh(self) -> None:
        """Redraw the timeline and the log now (tests call it)."""
        self.bar.refresh()
        if self._model is not None:  # a log not made yet is made up to date
            self._model.refresh()
        self._update_actions()

    def set_scale(self, scale: style.Scale) -> None:
        """Font sizes of the timeline and the log (presenter mode)."""
        self._scale = scale
        self.bar.set_scale(scale)
        if self._view is not None:
            self._view.set_font_size(scale.font_pt)

    def seek(self, step: int) -> None:
        """Show step ``step`` of the run (playback and "run to end" stop first)."""
        self.window.dispatch(Seek(step))

    # -- the edit guard ---------------------------------------------------------------------
    def later_steps(self) -> int:
        """Steps computed after the cursor (what an edit of the data would discard)."""
        learner = running_learner(self.window.workspace)
        return 0 if learner is None else max(0, learner.frontier - learner.step_count)

    def confirm_edit(self, edit) -> bool:
        """The edit guard while the run is scrubbed back: discard the later steps?  (One
        drag asks once: after No, the rest of it is refused silently.)"""
        later = self.later_steps()
        if later == 0 or not isinstance(edit, Edit):  # a start set by hand: undo seeks back
            return True
        drag = self.window.current_drag if isinstance(edit, MovePoints) else None
        if drag is not None and drag == self._refused_drag:
            return False
        ws = self.window.workspace
        steps = "step" if later == 1 else "steps"
        start = "the w₀ set by hand" if ws.starts_by_hand else "w = 0"
        b = QtWidgets.QMessageBox.StandardButton
        ok = errors.ask(
            self.window, "Discard later steps?",
            f"Discard the {fmt_count(later)} later {steps} of the run?\n\n"
            f"The run is shown at step {fmt_count(ws.step_count)} of "
            f"{fmt_count(ws.learner.frontier)} computed. "
            f"Changing the data restarts training from {start}; Undo brings back the data "
            "and this step.", b.Yes | b.No, b.No) == b.Yes
        if drag is not None:
            self._refused_drag = None if ok else drag
            # the modal question ate the button's release: the canvas ends the drag
            self.window.canvas.end_drag()
        if not ok:
            self.window.show_message("Edit cancelled: the run keeps its later steps.")
        return ok

    # -- exports ----------------------------------------------------------------------------
    def _export(self, what: str, suffix: str, path: str | None, make_steps, wait: bool):
        from .export.tables import TableExport

        if not path:
            start = os.path.join(self._export_dir or QtCore.QStandardPaths.writableLocation(
                QtCore.QStandardPaths.StandardLocation.DocumentsLocation), f"update-log{suffix}")
            path = ask_save_path(self.window, f"Export update log as {what}", start,
                                 f"{what} files (*{suffix});;All files (*)", suffix)
            if path is None:
                return False
            self._export_dir = os.path.dirname(path)
        if self.table_export is not None and self.table_export.running:
            self.window.show_message("An export of the update log is under way; "
                                     "wait for it or cancel it.")
            return False

        def fail(reason) -> None:
            self.window.report_error("Export failed", f"Could not write {path}:\n{reason}")

        try:
            steps = make_steps(path)
        except ValueError as exc:  # no perceptron run
            fail(exc)
            return False
        self.table_export = TableExport(
            self.window, steps, title=f"Export the update log as {what}", path=path, fail=fail,
            done_text=lambda n: f"Update log: {plural(n, 'update')} written to {path}")
        return self.table_export.wait() if wait else self.table_export

    def export_csv(self, path: str | None = None, *, wait: bool = True):
        """Export the update log (the whole computed run) as CSV, in a worker; asks for the
        file.  With ``wait``, True means written; else the :class:`~.export.tables.TableExport`
        (False when none started)."""
        from .export import tables

        return self._export("CSV", ".csv", path,
                            lambda p: tables.log_csv_steps(self.window.workspace, p), wait)

    def export_latex(self, path: str | None = None, *, start: int | None = None,
                     stop: int | None = None, wait: bool = True):
        """Export updates ``start + 1`` to ``stop`` as a LaTeX table (see :meth:`export_csv`).

        A table has at most :data:`~perceptron_gui.core.report_latex.LATEX_MAX_ROWS`
        rows: for a longer log without ``start``/``stop``, a dialog asks which
        (the rows around the cursor by default).
        """
        from ...core import report, report_latex  # when the log is saved: not on the launch's path
        from .export import tables
        from .export.dialogs import RangeDialog

        ws = self.window.workspace
        n = report.n_updates(ws) if ws.running else 0
        if start is None and stop is None and n > report_latex.LATEX_MAX_ROWS:
            dialog = RangeDialog(n, report_latex.LATEX_MAX_ROWS, report_latex.latex_window(ws),
                                 here=min(int(ws.learner.n_updates_), n), parent=self.window)
            try:
                if dialog.exec() != QtWidgets.QDialog.DialogCode.Accepted:
                    return False
                start, stop = dialog.chosen_range()
            finally:
                dialog.deleteLater()

        return self._export("LaTeX", ".tex", path, lambda p: tables.log_latex_steps(
            ws, p, start=start or 0, stop=stop), wait)
