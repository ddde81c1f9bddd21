"""Import and export of delimited text files (CSV, TSV, ...): the File menu's table entries.

An import replaces the points (one undo step) and remembers the dialog's choice
for that file; an export is read back bit for bit by numpy and pandas.
"""

from __future__ import annotations

import json
import os
from typing import TYPE_CHECKING, Protocol

from PySide6 import QtCore, QtWidgets

from ...core import io
from ...core.dataset import ReplaceAll
from ...core.text import fmt_count, plural
from .. import settings
from ..actions import ActionSpec
from .progress import Job
from .recent_files import ask_save_path

if TYPE_CHECKING:
    from ..window_api import WindowAPI
    from .export.tables import TableExport
    from .import_dialog import ImportDialog

__all__ = ["CHOICE_KEY", "CSV_FILTER", "CsvFiles", "mapping_text", "skipped_text"]

CSV_FILTER = ("Delimited text (*.csv *.tsv *.tab *.txt *.dat);;CSV files (*.csv);;"
              "All files (*)")
#: QSettings group of the remembered import choices (one JSON value per file).
CHOICE_KEY = "import/choices"


def mapping_text(mapping: dict) -> str:
    """The label mapping as people read it (``"'cat' → −1, 'dog' → +1"``); "" if unchanged."""
    if all(isinstance(k, (int, float)) and not isinstance(k, bool) and k == v
           for k, v in mapping.items()):
        return ""
    parts = [f"{k!r} → {'+1' if v > 0 else '−1'}" for k, v in sorted(
        mapping.items(), key=lambda kv: kv[1])]
    return ", ".join(parts)


def skipped_text(lines, n_other: int = 0) -> str:
    """What an import left out, for the status bar ("" when nothing)."""
    text = ""
    if lines:
        shown = ", ".join(str(n) for n in lines[:10]) + (", …" if len(lines) > 10 else "")
        text += (f" Skipped {plural(len(lines), 'row')} with a missing or non-numeric value "
                 f"(line{'s' if len(lines) > 1 else ''} {shown}).")
    if n_other:
        text += f" Left out {plural(n_other, 'row')} of other classes."
    return text


def _settings_key(path: str) -> str:
    return f"{CHOICE_KEY}/{os.path.abspath(path).replace('/', '|')}"


class FileManagerAPI(Protocol):
    """What the table files use of the File menu's manager (:class:`.files.FileManager`)."""

    path: str | None

    def display_name(self) -> str: ...
    def folder(self) -> str: ...
    def remember_folder(self, path: str) -> None: ...
    def refused(self) -> bool: ...
    def run(self, label: str, func, then, *, cancellable: bool = True, writes: bool = False): ...
    def outcome(self, job, title: str, failed: str, *, cancelled: str = ..., reason=...): ...

class CsvFiles(QtCore.QObject):
    """Import (through the dialog, or directly) and export of delimited files."""

    def __init__(self, window: WindowAPI, manager: FileManagerAPI):
        super().__init__(manager)
        self.setObjectName("csvFiles")
        self._window = window
        self._manager = manager
        #: The label mapping of the last import.
        self.last_mapping: dict | None = None
        self.dialog: ImportDialog | None = None
        self.table_export: TableExport | None = None
        make = window.actions.make
        self.actionImportCsv = make(ActionSpec(
            "import_csv", "&Import CSV…", self.import_csv_dialog,
            tip="Replace the points by those of a CSV or other delimited file (undoable)"))
        self.actionExportCsv = make(ActionSpec("export_csv", "Export &CSV…",
                                               self.export_csv_dialog,
                                               tip="Write the points to a CSV file"))

    @staticmethod
    def remembered_choice(path) -> dict:
        """The choice last accepted in the import dialog for this file ({} if none)."""
        return settings.value(_settings_key(os.fspath(path)), "json", {})

    @staticmethod
    def remember_choice(path, choice: dict) -> None:
        """Store the dialog's choice for this file."""
        QtCore.QSettings().setValue(_settings_key(os.fspath(path)), json.dumps(choice))

    def import_csv_dialog(self) -> ImportDialog | None:
        """Ask for a delimited file and show the import dialog for it."""
        if self._manager.refused():
            return None
        path, _ = QtWidgets.QFileDialog.getOpenFileName(
            self._window, "Import CSV", self._manager.folder(), CSV_FILTER)
        return self.show_import_dialog(path) if path else None

    def show_import_dialog(self, path) -> ImportDialog:
        """Show the import dialog for ``path`` (window-modal; returns at once)."""
        path = os.path.abspath(os.fspath(path))
        if self.dialog is not None:
            self.dialog.reject()
        from .import_dialog import ImportDialog  # with the CSV sniffer: when first asked for

        dialog = ImportDialog(path, self._window, remembered=self.remembered_choice(path))
        dialog.setAttribute(QtCore.Qt.WA_DeleteOnClose)
        dialog.setWindowModality(QtCore.Qt.WindowModal)
        dialog.imported.connect(
            lambda table, d=dialog: self._on_dialog_imported(path, table, d.choice()))
        dialog.finished.connect(lambda _result, d=dialog: self._forget_dialog(d))
        self.dialog = dialog
        dialog.open()
        return dialog

    def _forget_dialog(self, dialog: ImportDialog) -> None:
        if self.dialog is dialog:
            self.dialog = None

    def _on_dialog_imported(self, path: str, table, choice: dict) -> None:
        if self.adopt_table(path, table):
            self.remember_choice(path, choice)

    def import_csv(self, path, **options) -> Job:
        """Read a delimited file (``options``: :func:`perceptron_gui.core.io.read_csv`'s) in a
        worker and replace the points (one undo step); False, nothing changed, when not."""
        from ...core.io import tabular

        path = os.fspath(path)
        if self._manager.refused():
            return Job.resolved(False)
        return self._manager.run(
            f"Importing {os.path.basename(path)}…", lambda progress: tabular.read_table(
                path, progress=progress, max_rows=io.files.MAX_POINTS, summarize=True,
                **options), lambda job: self._imported(path, job))

    def _imported(self, path: str, job) -> bool:
        ok, table = self._manager.outcome(job, "Cannot import the CSV file",
                                          f"{path} could not be imported", reason=str)
        return ok and self.adopt_table(path, table)

    def adopt_table(self, path, table) -> bool:
        """Replace the points by a table's (one undo step) and say what was read."""
        path = os.fspath(path)
        name = os.path.basename(path)
        self._manager.remember_folder(path)
        self._window.playback.stop()
        dataset = table.dataset
        if not self._window.push_edit(ReplaceAll.from_dataset(dataset, f"import {name}")):
            return False
        self._window.canvas.fit_view()
        self.last_mapping = dict(table.mapping)
        text = f"Imported {plural(dataset.n, 'point')} from {name}."
        mapped = mapping_text(table.mapping) if dataset.is_binary else ""
        if mapped:
            text += f" Labels mapped: {mapped}."
        elif not dataset.is_binary:
            text += f" {dataset.n_classes} classes: {', '.join(dataset.class_names)}."
        text += skipped_text(table.skipped_lines, table.n_other)
        self._window.show_message(text, 20000)
        return True

    def export_csv_dialog(self) -> bool:
        """Ask for a file name and write the points as CSV."""
        ws = self._window.workspace
        if ws.dataset.n == 0:
            self._window.show_message("There are no points to export.")
            return False
        manager = self._manager
        stem = os.path.splitext(manager.display_name())[0] if manager.path else "points"
        path = ask_save_path(self._window, "Export CSV", os.path.join(
            manager.folder(), f"{stem}.csv"), "CSV files (*.csv);;All files (*)", ".csv")
        return path is not None and bool(self.export_csv(path, wait=False))

    def export_csv(self, path, *, wait: bool = True):
        """Write the points to ``path`` as CSV, in a worker with progress and Cancel (``wait``:
        see :meth:`.timeline.Timeline.export_csv`)."""
        from .export import tables

        path = os.fspath(path)
        dataset = self._window.workspace.dataset
        if self.table_export is not None and self.table_export.running:
            self._window.show_message("An export of the points is under way; "
                                      "wait for it or cancel it.")
            return False

        def fail(reason) -> None:
            self._window.report_error("Cannot export",
                                      f"The points could not be written to {path}:\n\n{reason}")

        try:
            steps = tables.points_csv_steps(dataset, path)
        except ValueError as exc:
            fail(exc)
            return False
        self._manager.remember_folder(path)

        self.table_export = tables.TableExport(
            self._window, steps, title="Export the points as CSV", path=path, fail=fail,
            done_text=lambda n: f"Exported {fmt_count(n)} points to {os.path.basename(path)}.")
        return self.table_export.wait() if wait else self.table_export

    def update_actions(self) -> None:
        """Export needs points."""
        self.actionExportCsv.setEnabled(self._window.workspace.dataset.n > 0)
