"""The File menu's workspace documents: open, save, unsaved changes.

- Every file operation returns a :class:`~.progress.Job` at once, its work in a
  worker behind a progress dialog with Cancel, one at a time; closing the window
  waits for a save under way and cancels a read.
- **Open** reads into a *new* workspace and only then installs it, as a
  transaction: a bad file leaves the window exactly as it was.
- The title shows ``*`` when the undo stack is not clean or the learner or its
  parameters differ from the saved ones (stepping and moving the view are not).
"""

from __future__ import annotations

import logging
import os

from PySide6 import QtCore, QtGui, QtWidgets

from ...core import game as games
from ...core import io
from ...core.io.csvfile import TABLE_SUFFIXES
from ...core.text import fmt_count
from ...core.workspace import Workspace
from .. import errors
from ..actions import ActionSpec
from ..deferred import YieldingTimer
from ..window_api import WindowAPI
from .csv_files import CsvFiles
from .progress import APP_NAME, FileJob, Job
from .recent_files import MAX_RECENT, RECENT_KEY, RecentFiles, ask_save_path, insert_menu_above

__all__ = ["FileManager", "Job", "WorkspaceSnapshot", "MAX_RECENT", "RECENT_KEY",
           "TABLE_SUFFIXES", "canvas_view", "set_canvas_view"]

WORKSPACE_FILTER = ("Workspace files (*.json);;Delimited text (*.csv *.tsv *.tab *.txt *.dat);;"
                    "All files (*)")

log = logging.getLogger("perceptron_gui")

#: What a failed open or restore says about the window's work.
UNCHANGED = "Nothing changed: your points, learner, file name and undo history are as they were."


def canvas_view(canvas) -> tuple[float, float, float, float] | None:
    """The canvas's visible rectangle ``(x_min, x_max, y_min, y_max)``, None if empty."""
    (x0, x1), (y0, y1) = canvas.view_rect()
    return (float(x0), float(x1), float(y0), float(y1)) if x0 < x1 and y0 < y1 else None


def set_canvas_view(canvas, view) -> None:
    """Show ``view = (x_min, x_max, y_min, y_max)`` on the canvas (None: fit the data)."""
    try:
        if view is None:
            canvas.fit_view()
        else:
            x0, x1, y0, y1 = view
            canvas.set_view_rect((x0, x1), (y0, y1))
    except Exception:  # noqa: BLE001 - e.g. points near ±1.8e308: no finite frame; keep the view
        log.warning("cannot frame the view %r", view, exc_info=True)


class WorkspaceSnapshot:
    """What :func:`io.workspace_to_json` reads of a workspace, frozen for a worker thread."""

    def __init__(self, workspace):
        self.dataset = workspace.dataset
        self.learner_name = workspace.learner_name
        self.step_count = workspace.step_count
        self.start = workspace.start  # (read-only w0, b0) or None: the weights set by hand
        self.view = workspace.view
        self._params = workspace.all_params()
        game = games.game_of(workspace)
        if game is not None:  # its rules, frozen (its moves are the data set's points)
            games.attach(self, games.PerceptronGame.from_rules(game.rules()))

    def all_params(self) -> dict:
        """A copy of every learner's parameters."""
        return {key: dict(values) for key, values in self._params.items()}


def _reason(exc: BaseException) -> str:
    """A precise one-line reason for an error, for a dialog."""
    if isinstance(exc, OSError) and not isinstance(exc, io.FormatError):
        text = exc.strerror or str(exc)
        return f"{text}: {exc.filename}" if exc.filename else text
    return str(exc)


class FileManager(RecentFiles, QtCore.QObject):
    """The File menu's actions and the document: its ``path`` (None: untitled), unsaved
    changes; ``force_close`` closes without asking (``--quit-after``)."""

    #: Emitted with a progress dialog just before a load starts (for tests).
    progressStarted = QtCore.Signal(object)

    def __init__(self, window: WindowAPI):
        super().__init__(window)
        self.setObjectName("fileManager")
        self._window = window
        self._ws = window.workspace
        self.path: str | None = None
        self.progress_delay_ms = 400
        self.force_close = False
        self._job: FileJob | None = None  # the file job under way
        self._job_label = ""
        self._job_writes = False
        self._close_after_job = False
        self._close_again_timer = YieldingTimer(self, self._close_again, name="closeAgainTimer")
        self._close_box: QtWidgets.QMessageBox | None = None
        self._close_answer = None  # the button of the close question, acted on soon
        self._close_answer_timer = YieldingTimer(self, self._act_on_close_answer,
                                                 name="closeAnswerTimer")
        self._close_confirmed = False
        self._extra_dirty = False
        self._saved_params = self._params_key()
        self._params_dirty = False
        self._build_actions()
        self.csv = CsvFiles(window, self)
        self._build_menu()
        self._ws.events.learner_changed.connect(self._on_learner_changed)
        self._ws.events.dataset_changed.connect(self._on_dataset_changed)
        self._on_dataset_changed()
        from .samples import SampleMenu

        self.samples = SampleMenu(window)
        # with the other data to start from: above the separator over File ▸ Open…
        insert_menu_above(window.menus["file"], self.samples.menu, self.actionOpen)

    def _open_generator(self) -> None:
        from ..widgets.generator_dialog import open_generator_dialog

        open_generator_dialog(self._window)

    def _build_actions(self) -> None:
        make, key = self._window.actions.make, QtGui.QKeySequence.StandardKey
        (self.actionNewFromGenerator, self.actionOpen, self.actionSave, self.actionSaveAs,
         self.actionClearRecent) = (
            make(ActionSpec(id_, text, slot, keys, tip, key_in_tip=True))
            for id_, text, slot, keys, tip in (
                ("new_from_generator", "&Generate synthetic data…",
                 self._open_generator, (key.New,),
                 "Choose a generator of synthetic points, tune it, preview it, then "
                 "replace or add the points"),
                ("open", "&Open…", self.open_dialog, (key.Open,), "Open a workspace file"),
                ("save", "&Save", self.save, (key.Save,), "Save the workspace"),
                ("save_as", "Save &as…", self.save_as, (key.SaveAs,),
                 "Save the workspace to a new file"),
                ("clear_recent", "&Clear the list", self.clear_recent, (), "")))

    def _build_menu(self) -> None:
        menu = self._window.menus["file"]
        # the window's first entry (Quick synthetic data) stays beside Generate synthetic
        # data…: the data to start from first, then the documents
        acts = menu.actions()  # inserting before None appends
        menu.insertAction(acts[0] if acts else None, self.actionNewFromGenerator)
        before = acts[1] if len(acts) > 1 else None
        self.recent_menu = QtWidgets.QMenu("Open &recent", menu, objectName="menuRecent")
        self.recent_menu.aboutToShow.connect(self.rebuild_recent_menu)
        items = [None, self.actionOpen,
                 self.recent_menu.menuAction(), self.actionSave, self.actionSaveAs, None,
                 self.csv.actionImportCsv, self.csv.actionExportCsv, None]
        for item in items:
            if item is None:
                menu.insertSeparator(before)
            else:
                menu.insertAction(before, item)
        self.rebuild_recent_menu()

    def _params_key(self):
        return self._ws.learner_name, self._ws.all_params()

    def _on_learner_changed(self) -> None:
        dirty = self._params_key() != self._saved_params
        if dirty != self._params_dirty:
            self._params_dirty = dirty
            self._window.update_title()

    def _on_dataset_changed(self, *_args) -> None:
        self.csv.update_actions()
        self._on_learner_changed()  # an opened file brings its parameters with its data

    def is_dirty(self) -> bool:
        """True when the document has unsaved changes."""
        return (not self._window.undo_stack.isClean() or self._params_dirty or self._extra_dirty)

    @property
    def busy(self) -> bool:
        """True while a file job runs."""
        return self._job is not None

    def refused(self) -> bool:
        """True (with a status message) when a file job already runs: one at a time."""
        if self._job is None:
            return False
        self._window.show_message(f"{self._job_label.rstrip('…')} is under way; wait for it "
                                  "or cancel it, then try again.", 10000)
        return True

    def display_name(self) -> str:
        """The document's file name, or "untitled"."""
        return os.path.basename(self.path) if self.path else "untitled"

    def window_title(self) -> str:
        """``name*`` and the program's name, e.g. ``"demo.json* — perceptron-gui"``."""
        star = "*" if self.is_dirty() else ""
        return f"{self.display_name()}{star} — {APP_NAME}"

    def mark_clean(self, path: str | None) -> None:
        """The document is now ``path`` as saved (or opened): no unsaved changes."""
        self.path = os.path.abspath(path) if path else None
        self._window.undo_stack.setClean()
        self._saved_params = self._params_key()
        self._params_dirty = False
        self._extra_dirty = False
        self._window.update_title()

    def mark_modified(self) -> None:
        """Count the current content as unsaved (e.g. restored from an autosave)."""
        self._extra_dirty = True
        self._window.update_title()

    def maybe_save(self, doing: str = "continuing") -> Job:
        """Ask to save unsaved changes before ``doing``; the job's result False means: stop."""
        if not self.is_dirty():
            return Job.resolved(True)
        B = QtWidgets.QMessageBox
        answer = errors.ask(self._window, "Unsaved changes",
                            f"{self.display_name()} has unsaved changes.\nSave them before "
                            f"{doing}?",
                            B.Save | B.Discard | B.Cancel, B.Save)
        return self.save() if answer == B.Save else Job.resolved(answer == B.Discard)

    def confirm_close(self, event: QtGui.QCloseEvent) -> bool:
        """The window's ``closeEvent``: True lets it close.  Unsaved changes open a
        window-modal question whose Save or Discard closes it again; a save under way
        is finished first (the file is never lost)."""
        if self._job is not None:
            event.ignore()
            self._close_after_job = True
            if self._job_writes:
                self._window.show_message(f"{self._job_label.rstrip('…')}: the window closes "
                                          "once the file is written.", 10000)
            else:
                self.cancel_load()
            return False
        if self.force_close or self._close_confirmed or not self.is_dirty():
            return True
        event.ignore()
        if self._close_box is not None and self._close_box.isVisible():
            self._close_box.raise_()
            return False
        B = QtWidgets.QMessageBox
        box = errors.message_box(B.Question, "Unsaved changes",
                                 f"{self.display_name()} has unsaved changes.\nSave them "
                                 "before closing?",
                                 B.Save | B.Discard | B.Cancel, self._window, B.Save)
        box.setObjectName("unsavedChangesBox")
        box.setWindowModality(QtCore.Qt.WindowModal)
        box.finished.connect(lambda _result, b=box: self._on_close_answer(b))
        self._close_box = box
        box.open()
        return False

    def _on_close_answer(self, box: QtWidgets.QMessageBox) -> None:
        B = QtWidgets.QMessageBox
        button = box.standardButton(box.clickedButton()) if box.clickedButton() else B.Cancel
        self._close_box = None
        box.deleteLater()
        # closing deletes the box: answer once the box's click has returned
        self._close_answer = button
        self._close_answer_timer.start()

    def _act_on_close_answer(self) -> None:
        B = QtWidgets.QMessageBox
        button, self._close_answer = self._close_answer, None
        if button == B.Save:
            self.save().when_done(lambda saved: saved and self._close_confirmed_window())
        elif button == B.Discard:
            self._close_confirmed_window()

    def _close_confirmed_window(self) -> None:
        self._close_confirmed = True
        if not self._window.close():
            self._close_confirmed = False

    def _close_again(self) -> None:
        if self._job is None and self._window.isVisible():  # not closed meanwhile
            self._window.close()

    def cancel_load(self) -> None:
        """Press the Cancel of a file operation under way (as a user would)."""
        if self._job is not None:
            self._job.cancel()

    def _file_actions(self):
        return (self.actionOpen, self.csv.actionImportCsv, self.recent_menu.menuAction(),
                self.actionSave, self.actionSaveAs, self.csv.actionExportCsv)

    def run(self, label: str, func, then, *, cancellable: bool = True,
            writes: bool = False) -> FileJob:
        """Start a reader (or writer) in a worker with progress (callers check
        :meth:`refused` first); ``then(job)`` gives the result, the file actions enabled."""
        if self._job is not None:
            raise RuntimeError(f"a file job is under way: {self._job_label}")
        enabled = [act.isEnabled() for act in self._file_actions()]

        def enable(states) -> None:
            for act, on in zip(self._file_actions(), states, strict=True):
                act.setEnabled(on)

        enable([False] * len(enabled))
        self._job_label, self._job_writes = label, writes

        def ended(job: FileJob):
            self._job = None
            enable(enabled)
            try:
                return then(job)
            finally:
                if self._close_after_job:  # the window was closed meanwhile: close it now
                    self._close_after_job = False
                    self._close_again_timer.start()

        try:
            self._job = job = FileJob(self._window, label, func, then=ended,
                                      delay_ms=self.progress_delay_ms,
                                      started=self.progressStarted.emit, cancellable=cancellable)
        except BaseException:
            enable(enabled)
            raise
        return job

    def open_dialog(self) -> Job:
        """Ask for a workspace file (after asking to save changes) and open it."""
        if self.refused():
            return Job.resolved(False)
        return self.maybe_save("opening another file").then(
            lambda go: self._ask_and_open() if go else False)

    def _ask_and_open(self):
        path, _ = QtWidgets.QFileDialog.getOpenFileName(
            self._window, "Open workspace", self.folder(), WORKSPACE_FILTER)
        if not path:
            return False
        if path.lower().endswith(TABLE_SUFFIXES):
            self.csv.show_import_dialog(path)
            return True
        return self.open_path(path, ask=False)

    def open_path(self, path, *, ask: bool = True) -> Job:
        """Open a workspace file (a delimited file is imported instead), after asking to save
        unsaved changes (``ask``); when the job's result is False the workspace is unchanged."""
        path = os.fspath(path)
        if self.refused():
            return Job.resolved(False)
        if path.lower().endswith(TABLE_SUFFIXES):
            return self.csv.import_csv(path)
        if ask:
            return self.maybe_save("opening another file").then(
                lambda go: self._open(path) if go else False)
        return self._open(path)

    def _open(self, path: str) -> Job:
        if self.refused():  # a save asked for first may still run
            return Job.resolved(False)
        name = os.path.basename(path)
        return self.run(f"Opening {name}…", lambda progress: io.load_workspace(
            path, progress=progress), lambda job: self._opened(path, job))

    def outcome(self, job: FileJob, title: str, failed: str, *,
                cancelled: str = "nothing changed", reason=_reason) -> tuple[bool, object]:
        """``(True, result)`` of a finished file job, or ``(False, None)`` once told why: a
        cancel in the status bar, an error in a box ``title`` ("``failed``: reason")."""
        try:
            return True, job.unwrap()
        except io.Cancelled:
            self._window.show_message(f"{self._job_label.rstrip('…')} was cancelled; {cancelled}.")
        except (OSError, ValueError) as exc:
            self._window.report_error(title, f"{failed}:\n\n{reason(exc)}")
        return False, None

    def _opened(self, path: str, job: FileJob) -> bool:
        name = os.path.basename(path)
        ok, loaded = self.outcome(job, "Cannot open the file", f"{path} could not be opened")
        if not ok:
            return False
        try:
            self.adopt(loaded, document=path)
        except Exception as exc:  # noqa: BLE001 - rolled back: say so, keep the traceback
            log.error("opening %s failed while installing it", path, exc_info=True)
            self._window.report_error("Cannot open the file", f"{path} could not be opened:\n\n"
                                      f"{_reason(exc) or type(exc).__name__}\n\n{UNCHANGED}")
            return False
        self.remember_folder(path)
        self.add_recent(path)
        ds = self._ws.dataset
        opened = f"Opened {name}: {fmt_count(ds.n)} points, {fmt_count(self._ws.step_count)} steps."
        if loaded.open_note:  # a stored run position too far to recompute
            self._window.report_error("The run opens at its start", f"{path}\n\n{loaded.open_note}")
        self._window.show_message(opened)
        return True

    def adopt(self, loaded, document: str | None = None, *, modified: bool = False) -> None:
        """Make a loaded workspace the window's document: all of it, or nothing (raises).

        The window keeps its :class:`Workspace` object, which every panel holds,
        and takes over the loaded learner (nothing is replayed on the UI thread);
        ``loaded`` must not be used afterwards but for its ``dataset`` and ``view``.
        """
        self._window.playback.stop()
        view = loaded.view
        ws = self._ws
        canvas = self._window.canvas
        pending = ws.pending_switch  # a change being built: taking over drops it
        before = Workspace()
        before.take_over(ws)  # the current content, to put back on failure
        old_view, shown = ws.view, canvas_view(canvas)
        try:
            ws.take_over(loaded)
            ws.view = view
            set_canvas_view(canvas, view)
        except BaseException:
            ws.take_over(before)
            ws.view = old_view
            if pending is not None:  # the learner and parameters it was building, again
                installed = ws.all_params()
                for key, values in pending.params.items():
                    changed = {k: v for k, v in values.items() if installed[key].get(k) != v}
                    if changed:
                        ws.request_params(key, **changed)
                ws.request_learner(pending.learner_name)
            set_canvas_view(canvas, shown)
            raise
        # the commit: from here the window shows the new document
        self._window.undo_stack.clear()
        self.mark_clean(document)
        if modified:
            self.mark_modified()

    def sync_view(self) -> None:
        """Store the canvas's visible rectangle in ``workspace.view`` (saved with the file)."""
        self._ws.view = canvas_view(self._window.canvas)

    def save(self) -> Job:
        """Save to the document's file (Save As for an untitled one)."""
        return self.save_as() if self.path is None else self.save_to(self.path)

    def save_as(self) -> Job:
        """Ask for a file name and save there (result False when none was chosen)."""
        if self.refused():
            return Job.resolved(False)
        path = ask_save_path(self._window, "Save workspace", self.path or os.path.join(
            self.folder(), "workspace.json"), WORKSPACE_FILTER, ".json")
        return Job.resolved(False) if path is None else self.save_to(path)

    def save_to(self, path) -> Job:
        """Save the workspace as it is now to ``path``, the document's file from then (edits
        made meanwhile leave it modified); when the result is False a file there is intact."""
        path = os.fspath(path)
        if self.refused():
            return Job.resolved(False)
        self.sync_view()
        snapshot = WorkspaceSnapshot(self._ws)  # written in a worker: the UI stays responsive
        before = (self._window.undo_stack.index(), self._params_key())
        return self.run(f"Saving {os.path.basename(path)}…",
                        lambda progress: io.save_workspace(snapshot, path, progress=progress),
                        lambda job: self._saved(path, before, job), writes=True)

    def _saved(self, path: str, before, job: FileJob) -> bool:
        kept = "the file on disk is unchanged" if os.path.exists(path) else "nothing written"
        if not self.outcome(job, "Cannot save", f"The workspace could not be saved to {path}",
                            cancelled=kept)[0]:
            return False
        self.remember_folder(path)
        if (self._window.undo_stack.index(), self._params_key()) == before:
            self.mark_clean(path)
        else:  # changed while the file was written: saved, but not what is shown now
            self.path = os.path.abspath(path)
            self.mark_modified()
        self.add_recent(path)
        self._window.show_message(f"Saved {os.path.basename(path)}.")
        return True

