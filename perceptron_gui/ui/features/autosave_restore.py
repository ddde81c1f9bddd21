"""Offer the work of killed instances back: the orphans, the restore dialog, the restore.

The first ticked orphan is restored into this window, each further one into
a new process; one left unticked is offered again next time; only "Discard"
deletes.  The testing hooks are listed in :mod:`.autosave`.
"""

from __future__ import annotations

import datetime
import logging
import os
import sys
from typing import TYPE_CHECKING

from PySide6 import QtCore, QtWidgets

from ...core import io
from ...core.text import fmt_count, plural
from .. import errors
from .autosave import Autosave, dataset_digest, debug
from .autosave_slots import Orphan, autosave_names, read_document, reason, take_lock
from .progress import Job

if TYPE_CHECKING:
    from ..window_api import WindowAPI

__all__ = ["RESTORE_PATH_VAR", "Orphan", "RestoreDialog", "find_orphans", "offer_restore"]

log = logging.getLogger("perceptron_gui")

#: Set in the environment of a process started to restore one orphan.
RESTORE_PATH_VAR = "PERCEPTRON_GUI_RESTORE_PATH"


def find_orphans(directory: str, exclude: str = "",
                 progress=None) -> tuple[list[Orphan], list[str]]:
    """Lock and read every orphaned autosave in ``directory`` but ``exclude``'s, newest first.

    Returns the orphans, locked by this process until released, discarded or
    restored, and where the damaged ones went (``<stem>.damaged.json``).
    ``progress(fraction)`` returning False raises ``Cancelled``, every lock released.
    """
    orphans, damaged = [], []
    names = autosave_names(directory, exclude)
    for i, name in enumerate(names):
        stem = os.path.splitext(name)[0]
        lock = take_lock(directory, stem)
        if lock is None:
            continue  # its instance is running
        path = os.path.join(directory, name)
        part = None if progress is None else (lambda f, i=i: progress((i + f) / len(names)))
        try:
            loaded = io.load_workspace(path, progress=part)
            mtime = datetime.datetime.fromtimestamp(os.path.getmtime(path))
        except FileNotFoundError:
            lock.unlock()
            continue
        except io.Cancelled:
            lock.unlock()
            for orphan in orphans:
                orphan.release()
            raise
        except (io.FormatError, OSError) as exc:
            target = os.path.join(directory, f"{stem}.damaged.json")
            try:
                os.replace(path, target)
            except OSError:
                target = path
            log.warning("damaged autosave %s: %s", path, exc)
            damaged.append(f"{target}: {exc}")
            lock.unlock()
            continue
        orphans.append(Orphan(directory, stem, loaded, read_document(directory, stem), mtime, lock))
    orphans.sort(key=lambda o: o.mtime, reverse=True)
    return orphans, damaged


class RestoreDialog(QtWidgets.QDialog):
    """Lists the orphaned autosaves; the user ticks some and restores, discards, or waits
    (:attr:`choice`: ``"restore"``, ``"discard"`` or ``"later"``)."""

    HEADERS = ("Autosaved at", "Points", "Learner", "Document")

    def __init__(self, orphans: list[Orphan], parent=None):
        super().__init__(parent)
        self.setObjectName("restoreDialog")
        self.setWindowTitle("Restore unsaved work?")
        self.orphans = orphans
        self.choice = "later"
        several = len(orphans) > 1
        text = QtWidgets.QLabel(
            "perceptron-gui did not exit normally, and unsaved work was kept"
            + (f" from {fmt_count(len(orphans))} windows." if several else ".") + "\n"
            + ("Tick the work to restore: the first ticked opens in this window, each other "
               "one in a new window.\n" if several else "")
            + "Work you leave unticked, or \"Decide later\", is kept and offered again "
              "next time.")
        text.setWordWrap(True)
        self.tree = QtWidgets.QTreeWidget(objectName="restoreList")
        self.tree.setHeaderLabels(self.HEADERS)
        self.tree.setRootIsDecorated(False)
        for orphan in orphans:
            item = QtWidgets.QTreeWidgetItem(list(orphan.describe()))
            item.setCheckState(0, QtCore.Qt.Checked)
            item.setToolTip(0, errors.plain_tooltip(orphan.path))
            self.tree.addTopLevelItem(item)
        for col in range(len(self.HEADERS)):
            self.tree.resizeColumnToContents(col)
        buttons = QtWidgets.QDialogButtonBox()
        B = QtWidgets.QDialogButtonBox
        self.restore_button = buttons.addButton("Restore ticked", B.AcceptRole)
        self.discard_button = buttons.addButton("Discard ticked", B.DestructiveRole)
        self.later_button = buttons.addButton("Decide later", B.RejectRole)
        self.restore_button.setDefault(True)
        for button, choice in ((self.restore_button, "restore"),
                               (self.discard_button, "discard"), (self.later_button, "later")):
            button.clicked.connect(lambda _=False, c=choice: self._done(c))
        self.tree.itemChanged.connect(self._update_buttons)
        layout = QtWidgets.QVBoxLayout(self)
        layout.addWidget(text)
        layout.addWidget(self.tree)
        layout.addWidget(buttons)
        self.resize(620, 160 + 28 * min(len(orphans), 8))

    def _update_buttons(self, *_args) -> None:
        any_ticked = bool(self.ticked())
        self.restore_button.setEnabled(any_ticked)
        self.discard_button.setEnabled(any_ticked)

    def _done(self, choice: str) -> None:
        if choice == "discard":
            B = QtWidgets.QMessageBox
            n = len(self.ticked())
            if errors.ask(self, "Discard unsaved work?",
                          f"Delete {plural(n, 'autosave')} for good?",
                          B.Yes | B.No, B.No) != B.Yes:
                return
        self.choice = choice
        self.accept() if choice != "later" else self.reject()

    def ticked(self) -> list[Orphan]:
        """The orphans whose row is ticked, in the listed order."""
        return [o for i, o in enumerate(self.orphans)
                if self.tree.topLevelItem(i).checkState(0) == QtCore.Qt.Checked]


def _restore_into(window: WindowAPI, autosave: Autosave, orphan: Orphan) -> bool:
    """Restore ``orphan`` into ``window`` (all or nothing); False, with a message, if it failed
    (the orphan then stays on disk, unlocked, for the next start)."""
    files = window.files
    document = orphan.document if orphan.document and os.path.isfile(orphan.document) else None
    ds = orphan.workspace.dataset
    try:
        files.adopt(orphan.workspace, document, modified=True)
    except Exception as exc:  # noqa: BLE001 - rolled back: say so, keep the work on disk
        log.error("restoring %s failed", orphan.path, exc_info=True)
        orphan.release()
        window.report_error("Cannot restore the unsaved work",
                            f"The autosave {orphan.path} could not be restored:\n\n"
                            f"{reason(exc)}\n\nIt is kept and offered again at "
                            "the next start; this window is unchanged.")
        return False
    autosave.adopted.append(orphan)
    if orphan.workspace.open_note:  # a run position too far to recompute
        window.report_error("The run opens at its start", orphan.workspace.open_note)
    window.show_message(f"Restored unsaved work: {fmt_count(ds.n)} points.")
    debug(f"restored n={ds.n} sha={dataset_digest(ds)} pid={os.getpid()}")
    autosave.schedule()
    return True


def _open_in_new_window(orphan: Orphan) -> bool:
    """Start a new perceptron-gui process that restores ``orphan`` (unlocked for it first)."""
    orphan.release()
    process = QtCore.QProcess()
    process.setProgram(sys.executable)
    process.setArguments(["-m", "perceptron_gui"])
    env = QtCore.QProcessEnvironment.systemEnvironment()
    env.insert(RESTORE_PATH_VAR, orphan.path)
    process.setProcessEnvironment(env)
    started = process.startDetached()
    ok = started[0] if isinstance(started, tuple) else bool(started)
    if not ok:
        log.warning("cannot start a window for %s", orphan.path)
    return bool(ok)


def _read_orphans(window, directory: str, exclude: str) -> Job:
    """:func:`find_orphans` in the window's file worker (a run's recomputation takes time)."""
    if not autosave_names(directory, exclude) or window.files.refused():
        return Job.resolved(([], []))  # nothing to read (no worker at start), or refused

    def read(job):
        try:
            return job.unwrap()
        except io.Cancelled:
            window.show_message("Reading the unsaved work was cancelled; "
                                "it is kept and offered at the next start.")
            return [], []

    return window.files.run(
        "Reading the unsaved work of an earlier session…",
        lambda progress: find_orphans(directory, exclude=exclude, progress=progress), read)


def _restore_requested(window, autosave: Autosave, path: str) -> Job:  # without asking
    os.environ.pop(RESTORE_PATH_VAR, None)
    directory, name = os.path.split(path)

    def restore(found) -> bool:
        chosen = [o for o in found[0] if o.stem == os.path.splitext(name)[0]]
        for orphan in found[0]:
            if orphan not in chosen:
                orphan.release()
        return bool(chosen) and _restore_into(window, autosave, chosen[0])

    return _read_orphans(window, directory, autosave.stem).then(restore)


def offer_restore(window: WindowAPI) -> Job:
    """Offer every orphaned autosave to restore; the job's result: one was restored here.

    A restored workspace is an unsaved document: of the file it was autosaved
    from when that still exists, else untitled.
    """
    autosave = window.autosave
    if not autosave.enabled:
        return Job.resolved(False)
    requested = os.environ.get(RESTORE_PATH_VAR, "")
    if requested:
        return _restore_requested(window, autosave, requested)
    return _read_orphans(window, autosave.directory, autosave.stem).then(
        lambda found: _offer(window, autosave, *found))


def _offer(window, autosave: Autosave, orphans: list[Orphan], damaged: list[str]):
    if damaged:
        window.report_error(
            "Autosave unreadable",
            "An autosave could not be read; it was kept as:\n\n" + "\n\n".join(damaged))
    if not orphans:
        return False
    for orphan in orphans:
        ds = orphan.workspace.dataset
        debug(f"offered n={ds.n} sha={dataset_digest(ds)}")
    answer = os.environ.get("PERCEPTRON_GUI_RESTORE", "").strip().lower()
    if answer in ("yes", "no", "later"):
        choice = {"yes": "restore", "no": "discard", "later": "later"}[answer]
        return _settle(window, autosave, orphans, choice, list(orphans))
    dialog = RestoreDialog(orphans, window)
    dialog.setWindowModality(QtCore.Qt.WindowModal)
    answered = Job()
    autosave.hold = True  # while the question is open, nothing is saved or removed

    def on_answer(_result) -> None:
        autosave.hold = False
        dialog.deleteLater()
        restored = False
        try:
            restored = _settle(window, autosave, orphans, dialog.choice, dialog.ticked())
        finally:
            answered.finish(restored)

    dialog.finished.connect(on_answer)
    dialog.open()
    return answered


def _settle(window, autosave: Autosave, orphans: list[Orphan], choice: str,
            ticked: list[Orphan]) -> bool:
    """Restore, discard or keep the orphans as ``choice`` says; True if one came here."""
    if choice == "later":
        ticked = []
    restored = False
    for orphan in orphans:
        if orphan not in ticked:
            orphan.release()
        elif choice == "discard":
            orphan.discard()
        elif not restored:
            restored = _restore_into(window, autosave, orphan)
        else:
            _open_in_new_window(orphan)
    return restored

