"""Autosave and crash recovery.

A few seconds after the first unsaved change (:data:`INTERVAL_SECONDS`; the
timer is not restarted by later changes, so continuous editing is still saved
every few seconds) the workspace is written, atomically and in a worker
thread, to ``autosave.json`` in the application's data folder
(``QStandardPaths.AppDataLocation``). Saving the document, or undoing back to
the saved state, removes it; a clean exit (the window closed) removes it too.
So an ``autosave.json`` found at start-up means the program did not exit
cleanly — it crashed or was killed — and :func:`offer_restore` asks whether to
restore it.

Only one running instance autosaves: it holds ``autosave.lock``
(:class:`QtCore.QLockFile`, which notices a lock left by a dead process), so a
second instance neither overwrites the first one's autosave nor offers to
restore it.

Testing hooks (environment variables)
-------------------------------------
``PERCEPTRON_GUI_RESTORE=yes|no``
    Answer the restore question without showing it.
``PERCEPTRON_GUI_AUTOSAVE_SECONDS=0.2``
    Use another autosave delay.
``PERCEPTRON_GUI_AUTOSAVE_DEBUG=1``
    Print ``autosave n=<points> sha=<hash>`` to stdout after every autosave
    and ``restored n=<points> sha=<hash>`` after a restore, where the hash is
    :func:`dataset_digest`.
"""

from __future__ import annotations

import datetime
import hashlib
import logging
import os
import threading

from PySide6 import QtCore, QtWidgets

from ...core import io
from .files import WorkspaceSnapshot

__all__ = ["Autosave", "install", "offer_restore", "dataset_digest", "default_directory",
           "INTERVAL_SECONDS"]

log = logging.getLogger("perceptron_gui")

#: Seconds between the first unsaved change and the autosave.
INTERVAL_SECONDS = 3.0
FILE_NAME = "autosave.json"
LOCK_NAME = "autosave.lock"
#: QSettings key: the document file the autosave belongs to ("" for untitled).
DOCUMENT_KEY = "autosave/document"


def dataset_digest(dataset) -> str:
    """A short hash of a data set's exact coordinates and labels (for the testing hooks)."""
    h = hashlib.sha256()
    h.update(dataset.X.tobytes())
    h.update(dataset.y.tobytes())
    return h.hexdigest()[:16]


def default_directory() -> str:
    """The folder of ``autosave.json``: the application's data folder (``AppDataLocation``)."""
    return QtCore.QStandardPaths.writableLocation(QtCore.QStandardPaths.AppDataLocation)


def _debug() -> bool:
    return os.environ.get("PERCEPTRON_GUI_AUTOSAVE_DEBUG", "") not in ("", "0")


class _Relay(QtCore.QObject):
    saved = QtCore.Signal(object, str)  # snapshot, error text ("" on success)


class Autosave(QtCore.QObject):
    """Saves the window's workspace a few seconds after a change.

    Parameters
    ----------
    window : MainWindow
        The window (its workspace, undo stack and :attr:`files` manager).
    directory : str, optional
        Where ``autosave.json`` goes (default: ``AppDataLocation``).
    interval : float, optional
        Seconds from the first unsaved change to the save (default:
        :data:`INTERVAL_SECONDS`, or ``$PERCEPTRON_GUI_AUTOSAVE_SECONDS``).

    Attributes
    ----------
    path : str
        The autosave file.
    enabled : bool
        False when another running instance holds the lock (or the folder
        cannot be written).
    """

    #: Emitted with the snapshot's data set after each successful autosave.
    saved = QtCore.Signal(object)

    def __init__(self, window, directory: str | None = None, interval: float | None = None):
        super().__init__(window)
        self.setObjectName("autosave")
        self._window = window
        self._ws = window.workspace
        if directory is None:
            directory = default_directory()
        self.directory = directory
        self.path = os.path.join(directory, FILE_NAME)
        if interval is None:
            try:
                interval = float(os.environ.get("PERCEPTRON_GUI_AUTOSAVE_SECONDS", ""))
            except ValueError:
                interval = INTERVAL_SECONDS
        self._timer = QtCore.QTimer(self, objectName="autosaveTimer", singleShot=True)
        self._timer.setInterval(max(0, round(interval * 1000)))
        self._timer.timeout.connect(self.save_now)
        self._relay = _Relay(self)
        self._relay.saved.connect(self._on_saved)
        self._thread: threading.Thread | None = None
        self._again = False
        #: While True (the restore question is open) nothing is saved or removed.
        self.hold = False
        self._lock: QtCore.QLockFile | None = None
        self.enabled = self._acquire_lock()
        self._slots = [(self._ws.dataset_changed, self.schedule),
                       (self._ws.learner_changed, self.schedule)]
        for signal, slot in self._slots:
            signal.connect(slot)
        window.undo_stack.cleanChanged.connect(self.schedule)
        window.destroyed.connect(self._detach)

    # -- lock --------------------------------------------------------------------------------
    def _acquire_lock(self) -> bool:
        try:
            os.makedirs(self.directory, exist_ok=True)
        except OSError as exc:
            log.warning("autosave disabled: cannot create %s: %s", self.directory, exc)
            return False
        lock = QtCore.QLockFile(os.path.join(self.directory, LOCK_NAME))
        lock.setStaleLockTime(0)  # stale only when its process is gone, never by age
        if not lock.tryLock(0):
            log.info("autosave disabled: another instance holds %s", LOCK_NAME)
            return False
        self._lock = lock
        return True

    def _release_lock(self) -> None:
        if self._lock is not None:
            self._lock.unlock()
            self._lock = None

    def _detach(self, *_args) -> None:
        for signal, slot in self._slots:
            signal.disconnect(slot)
        self._slots = []
        self._wait()
        self._release_lock()

    # -- saving ------------------------------------------------------------------------------
    @property
    def pending(self) -> bool:
        """True while a save is scheduled or running."""
        return self._timer.isActive() or self._thread is not None

    def schedule(self, *_args) -> None:
        """Note a change: save after the interval (not restarted by later changes)."""
        if self.enabled and not self._timer.isActive():
            self._timer.start()

    def _files(self):
        return getattr(self._window, "files", None)

    def save_now(self) -> None:
        """Save now (in a worker thread), or remove the autosave when nothing is unsaved."""
        self._timer.stop()
        if not self.enabled or self.hold:
            return
        files = self._files()
        if files is not None and not files.is_dirty():
            self.remove()
            return
        if self._thread is not None:  # one save at a time; save again when it ends
            self._again = True
            return
        if files is not None:
            files.sync_view()
        snapshot = WorkspaceSnapshot(self._ws)
        QtCore.QSettings().setValue(DOCUMENT_KEY, (files.path if files else None) or "")
        self._thread = threading.Thread(target=self._write, args=(snapshot,),
                                        name="perceptron-gui-autosave", daemon=True)
        self._thread.start()

    def _write(self, snapshot: WorkspaceSnapshot) -> None:
        try:
            io.save_workspace(snapshot, self.path)
        except Exception as exc:  # reported on the UI thread
            self._relay.saved.emit(snapshot, f"{type(exc).__name__}: {exc}")
        else:
            self._relay.saved.emit(snapshot, "")

    def _on_saved(self, snapshot: WorkspaceSnapshot, error: str) -> None:
        if self._thread is not None:
            self._thread.join()
        self._thread = None
        if error:
            self._window.show_message(f"Autosave failed: {error}")
        else:
            if _debug():
                print(f"autosave n={snapshot.dataset.n} sha={dataset_digest(snapshot.dataset)}",
                      flush=True)
            self.saved.emit(snapshot.dataset)
        if self._again:
            self._again = False
            self.save_now()

    def _wait(self) -> None:
        thread = self._thread
        if thread is not None:
            thread.join()
            self._thread = None

    def remove(self) -> None:
        """Delete the autosave file (if any)."""
        self._wait()
        try:
            os.remove(self.path)
        except FileNotFoundError:
            pass
        except OSError as exc:
            log.warning("cannot remove %s: %s", self.path, exc)

    def clean_exit(self) -> None:
        """The window closes normally: stop, remove the autosave, release the lock."""
        self._timer.stop()
        self._again = False
        if self.enabled:
            self.remove()
        self._release_lock()
        self.enabled = False

    # -- restoring ---------------------------------------------------------------------------
    def exists(self) -> bool:
        """True when an autosave from an earlier session waits (and this instance owns it)."""
        return self.enabled and os.path.isfile(self.path)

    def set_aside(self, suffix: str) -> str:
        target = os.path.join(self.directory, f"autosave.{suffix}.json")
        try:
            os.replace(self.path, target)
        except OSError as exc:
            log.warning("cannot move %s aside: %s", self.path, exc)
        return target


def _restore_box(window, n: int, when: str, document: str) -> QtWidgets.QMessageBox:
    B = QtWidgets.QMessageBox
    of = f"of {os.path.basename(document)}" if document else "of an untitled workspace"
    box = B(B.Question, "Restore unsaved work?",
            "perceptron-gui did not exit normally last time.", B.Yes | B.No, window)
    box.setObjectName("restoreBox")
    box.setInformativeText(
        f"An autosave {of} with {n} points, from {when}, was found.\n\n"
        "Restore it? If not, it is kept as autosave.previous.json in the data folder.")
    box.setDefaultButton(B.Yes)
    return box


def offer_restore(window, autosave: Autosave | None = None) -> bool:
    """Offer to restore an autosave left by a crash or a kill; True if restored.

    The autosave is read (and validated) first; a damaged one is set aside
    as ``autosave.damaged.json`` with a message. The answer comes from a
    question dialog, or from ``$PERCEPTRON_GUI_RESTORE`` (``yes``/``no``)
    when that is set. A restored workspace is an unsaved document: of the
    file it was autosaved from, when that still exists, else untitled.
    """
    autosave = autosave or getattr(window, "autosave", None)
    if autosave is None or not autosave.exists():
        return False
    try:
        loaded = io.load_workspace(autosave.path)
    except (io.FormatError, io.Cancelled) as exc:
        target = autosave.set_aside("damaged")
        QtWidgets.QMessageBox.warning(
            window, "Autosave unreadable",
            f"The autosave could not be read:\n\n{exc}\n\nIt was moved to {target}.")
        return False
    document = QtCore.QSettings().value(DOCUMENT_KEY, "") or ""
    if not isinstance(document, str):
        document = ""
    mtime = datetime.datetime.fromtimestamp(os.path.getmtime(autosave.path))
    answer = os.environ.get("PERCEPTRON_GUI_RESTORE", "").strip().lower()
    if answer in ("yes", "no"):
        restore = answer == "yes"
    else:
        box = _restore_box(window, loaded.dataset.n, mtime.strftime("%Y-%m-%d %H:%M:%S"),
                           document)
        autosave.hold = True  # the question's event loop must not save over the file
        try:
            restore = box.exec() == QtWidgets.QMessageBox.Yes
        finally:
            autosave.hold = False
            box.deleteLater()
    if not restore:
        autosave.set_aside("previous")
        return False
    files = window.files
    if not files.adopt(loaded, source="the autosave"):
        return False
    files.path = document if document and os.path.isfile(document) else None
    files.mark_modified()
    window.show_message(f"Restored the autosave: {loaded.dataset.n} points.")
    if _debug():
        print(f"restored n={loaded.dataset.n} sha={dataset_digest(loaded.dataset)}", flush=True)
    autosave.schedule()
    return True


def install(window, directory: str | None = None) -> Autosave:
    """Attach an :class:`Autosave` to the window (it does not offer a restore:
    the application calls :func:`offer_restore` once the window is shown)."""
    return Autosave(window, directory)
