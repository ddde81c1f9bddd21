"""Autosave each window's unsaved work, and offer the work of killed instances back.

A few seconds after the first unsaved change (:data:`INTERVAL_SECONDS`; the
timer is not restarted by later changes, so continuous editing is still saved
every few seconds) the workspace is written, atomically and in a worker, to
the window's own *slot* in the application's data folder
(``QStandardPaths.AppDataLocation``). Saving the document, undoing back to the
saved state, or a clean exit removes the slot's file.

Slots
-----
A slot is ``<stem>.json`` (the work), ``<stem>.lock`` (a
:class:`QtCore.QLockFile` held by the running instance that writes it) and
``<stem>.document`` (the path of the document the work belongs to). The first
instance takes the main slot ``autosave``; an instance started while the main
slot is held writes a slot of its own, ``autosave-<id>``, says so in its status
bar, and takes the main slot over when its owner dies. A lock is stale only
when its process is gone (never by age), so a slot whose lock can be taken and
whose ``.json`` exists is an *orphan*: work left by a crash or a kill.

At start :func:`offer_restore` lists every orphan (time, points, learner,
document). The first ticked one is restored into this window, each further
one into a new window of its own (a new perceptron-gui process); an orphan
left unticked is kept and offered again next time; only "Discard" deletes.
An orphan restored here is deleted once this window's own autosave holds the
work (or the work was saved or closed on purpose).

Testing hooks (environment variables)
-------------------------------------
``PERCEPTRON_GUI_RESTORE=yes|no|later``
    Answer the restore question without showing it: restore every orphan,
    discard every orphan, or keep them all for later.
``PERCEPTRON_GUI_AUTOSAVE_SECONDS=0.2``
    Use another autosave delay.
``PERCEPTRON_GUI_AUTOSAVE_POLL_SECONDS=0.2``
    How often an instance without the main slot checks whether its owner died
    (default :data:`POLL_SECONDS`).
``PERCEPTRON_GUI_AUTOSAVE_DEBUG=1``
    Print ``autosave n=<points> sha=<hash> slot=<stem>`` after every autosave,
    ``offered n=… sha=…`` for each orphan offered, ``restored n=… sha=… pid=…``
    after a restore and ``takeover slot=<stem>`` after taking the main slot
    over, where the hash is :func:`dataset_digest`.
``PERCEPTRON_GUI_AUTOSAVE_TEST_POINTS=x,y,label;…``
    Add these points (one undoable edit) once the window is built.

The module is about 740 lines because locking, writing, taking over and the
restore dialog share one protocol (the slot names and the orphan rules above);
split, that protocol would be spread over several files.
"""

from __future__ import annotations

import contextlib
import datetime
import logging
import os
import re
import sys
import threading
from dataclasses import dataclass
from typing import TYPE_CHECKING

from PySide6 import QtCore, QtWidgets

from ...core import io
from ...core.learners.registry import LEARNERS
from .. import errors, workers
from ..deferred import YieldingTimer
from ..subscriptions import connect_for_lifetime
from .files import WorkspaceSnapshot

if TYPE_CHECKING:
    from ..main_window import MainWindow
    from ..window_api import WindowAPI

__all__ = ["Autosave", "Orphan", "RestoreDialog", "install", "offer_restore", "find_orphans",
           "dataset_digest", "default_directory", "INTERVAL_SECONDS", "POLL_SECONDS",
           "MAIN_STEM"]

log = logging.getLogger("perceptron_gui")

#: Seconds between the first unsaved change and the autosave.
INTERVAL_SECONDS = 3.0
#: Seconds between two checks, by an instance without the main slot, that its owner lives.
POLL_SECONDS = 2.0
#: Age after which a lock file nobody can read is removed.
UNREADABLE_LOCK_SECONDS = 10.0
#: The main slot's stem (``autosave.json``, ``autosave.lock``).
MAIN_STEM = "autosave"
_STEM = re.compile(r"^autosave(-[0-9a-f]{8,32})?$")
#: Set in the environment of a process started to restore one orphan.
RESTORE_PATH_VAR = "PERCEPTRON_GUI_RESTORE_PATH"


def dataset_digest(dataset) -> str:
    """A short hash of a data set's exact coordinates and labels (for the testing hooks)."""
    import hashlib  # here, not at launch: only the debug lines and the tests need it

    h = hashlib.sha256()
    h.update(dataset.X.tobytes())
    h.update(dataset.y.tobytes())
    return h.hexdigest()[:16]


def default_directory() -> str:
    """The folder of the autosaves: the application's data folder (``AppDataLocation``)."""
    return QtCore.QStandardPaths.writableLocation(QtCore.QStandardPaths.AppDataLocation)


def _debug(text: str) -> None:
    if os.environ.get("PERCEPTRON_GUI_AUTOSAVE_DEBUG", "") not in ("", "0"):
        print(text, flush=True)


def _env_seconds(name: str, default: float) -> float:
    try:
        return float(os.environ.get(name, ""))
    except ValueError:
        return default


def _new_stem() -> str:
    import uuid  # only a second instance or a dead owner's work needs a new slot

    return f"{MAIN_STEM}-{uuid.uuid4().hex[:12]}"


def _lock_file(directory: str, stem: str) -> QtCore.QLockFile:
    lock = QtCore.QLockFile(os.path.join(directory, f"{stem}.lock"))
    lock.setStaleLockTime(0)  # stale only when its process is gone, never by age
    return lock


def _take_lock(directory: str, stem: str) -> QtCore.QLockFile | None:
    """The slot's lock, or None when a running instance holds it."""
    lock = _lock_file(directory, stem)
    if lock.tryLock(0):
        return lock
    if lock.error() == QtCore.QLockFile.LockFailedError and _unreadable_and_old(lock) \
            and lock.removeStaleLockFile() and lock.tryLock(0):
        return lock
    return None


def _unreadable_and_old(lock: QtCore.QLockFile) -> bool:
    """A lock file without an owner (its process died while writing it), for a while.

    ``tryLock`` already treats a lock whose process is gone as stale; one it
    cannot read (empty, cut short) it would keep forever with a stale time of 0.
    """
    pid, *_info = lock.getLockInfo()
    if pid:
        return False
    try:
        age = QtCore.QDateTime.currentSecsSinceEpoch() - os.path.getmtime(lock.fileName())
    except (OSError, AttributeError):
        return False
    return age > UNREADABLE_LOCK_SECONDS


def _move_slot(directory: str, old: str, new: str) -> None:
    """Rename a slot's work and document files (the work first: it is what matters)."""
    for ext in (".json", ".document"):
        source = os.path.join(directory, old + ext)
        if os.path.exists(source):
            os.replace(source, os.path.join(directory, new + ext))


def _remove_slot_files(directory: str, stem: str) -> None:
    for ext in (".json", ".document"):
        try:
            os.remove(os.path.join(directory, stem + ext))
        except FileNotFoundError:
            pass


def _read_document(directory: str, stem: str) -> str:
    try:
        with open(os.path.join(directory, f"{stem}.document"), encoding="utf-8") as f:
            return f.read().strip()
    except (OSError, UnicodeDecodeError):
        return ""


def _write_slot(directory: str, stem: str, snapshot: WorkspaceSnapshot, document: str) -> None:
    """Runs in a worker: the work first, then the document it belongs to."""
    io.atomic_write_bytes(os.path.join(directory, f"{stem}.json"),
                          io.workspace_json_chunks(snapshot))
    io.atomic_write_bytes(os.path.join(directory, f"{stem}.document"),
                          [document.encode("utf-8")])


def _reason(exc: BaseException) -> str:
    if isinstance(exc, OSError) and exc.strerror:
        return exc.strerror.lower()
    return f"{type(exc).__name__}: {exc}"


class Autosave(QtCore.QObject):
    """Saves the window's workspace to the window's own slot a few seconds after a change.

    Parameters
    ----------
    window : WindowAPI
        The window (its workspace, undo stack, :attr:`files` manager, status bar).
    directory : str, optional
        The folder of the slots (default: ``AppDataLocation``).
    interval : float, optional
        Seconds from the first unsaved change to the save (default:
        :data:`INTERVAL_SECONDS`, or ``$PERCEPTRON_GUI_AUTOSAVE_SECONDS``).

    Attributes
    ----------
    stem : str
        The slot's name: :data:`MAIN_STEM` or ``autosave-<id>``.
    path : str
        The slot's work file, ``<directory>/<stem>.json``.
    enabled : bool
        False when the folder cannot be written (the window says so).
    """

    #: Emitted with the snapshot's data set after each successful autosave.
    saved = QtCore.Signal(object)
    #: Emitted with the new stem after this instance took the main slot over.
    took_over = QtCore.Signal(str)

    def __init__(self, window: WindowAPI, directory: str | None = None,
                 interval: float | None = None):
        super().__init__(window)
        self.setObjectName("autosave")
        self._window = window
        self._ws = window.workspace
        self.directory = directory if directory is not None else default_directory()
        if interval is None:
            interval = _env_seconds("PERCEPTRON_GUI_AUTOSAVE_SECONDS", INTERVAL_SECONDS)
        self._timer = YieldingTimer(self, self.save_now, name="autosaveTimer",
                                    interval_ms=max(0, round(interval * 1000)))
        # the owner of the main slot may die without a word (killed): look again, now and then
        self._poll = YieldingTimer(self, self._look_for_take_over, name="autosaveTakeoverTimer",
                                   interval_ms=round(1000 * _env_seconds(
                                       "PERCEPTRON_GUI_AUTOSAVE_POLL_SECONDS", POLL_SECONDS)))
        self._worker = None
        #: Held by a write while it runs; whoever moves or removes the slot's files takes
        #: it and bumps the generation, so a write still queued finds it stale and skips.
        self._io_lock = threading.Lock()
        self._generation = 0
        self._remove_after_write = False
        self._again = False
        self._failed = False
        #: While True (the restore question is open) nothing is saved or removed.
        self.hold = False
        #: Orphans restored into this window: deleted once this slot holds their work.
        self.adopted: list[Orphan] = []
        self._label = QtWidgets.QLabel(objectName="autosaveStatus")
        self._label.setTextFormat(QtCore.Qt.TextFormat.PlainText)
        self._label.hide()
        window.add_status_widget(self._label)
        self._lock: QtCore.QLockFile | None = None
        self.stem = MAIN_STEM
        self.enabled = self._claim()
        connect_for_lifetime(self, (self._ws.dataset_changed, self._ws.learner_changed),
                             self.schedule)
        window.undo_stack.cleanChanged.connect(self.schedule)
        window.destroyed.connect(self._detach)

    # -- the slot ----------------------------------------------------------------------------
    @property
    def path(self) -> str:
        return os.path.join(self.directory, f"{self.stem}.json")

    @property
    def is_main(self) -> bool:
        """True when this instance writes the main slot (no other instance did first)."""
        return self.stem == MAIN_STEM

    def _claim(self) -> bool:
        try:
            os.makedirs(self.directory, exist_ok=True)
        except OSError as exc:
            self._say_not_saving(f"cannot create {self.directory}: {_reason(exc)}")
            return False
        lock = _take_lock(self.directory, MAIN_STEM)
        if lock is not None:
            self._lock, self.stem = lock, MAIN_STEM
            self._set_aside_main_orphan()
            return True
        for _ in range(10):
            stem = _new_stem()
            lock = _take_lock(self.directory, stem)
            if lock is not None and not os.path.exists(os.path.join(self.directory, stem
                                                                    + ".json")):
                self._lock, self.stem = lock, stem
                break
        else:
            self._say_not_saving(f"cannot create a lock in {self.directory}")
            return False
        self._label.setText("Autosaving to a file of its own (another perceptron-gui "
                            "window is open)")
        self._label.setToolTip(errors.plain_tooltip(
            f"Unsaved work of this window is autosaved to {self.path}"))
        self._label.show()
        self._window.show_message("Another perceptron-gui window is open: this one autosaves "
                                  "its unsaved work to a file of its own.", 12000)
        self._poll.start()
        return True

    def _set_aside_main_orphan(self) -> None:
        """Work left in the main slot by a dead owner moves to a slot of its own (an orphan)."""
        if os.path.exists(os.path.join(self.directory, f"{MAIN_STEM}.json")):
            try:
                _move_slot(self.directory, MAIN_STEM, _new_stem())
            except OSError as exc:
                log.warning("cannot move the main autosave aside: %s", exc)

    def _say_not_saving(self, reason: str) -> None:
        log.warning("autosave disabled: %s", reason)
        self._label.setText("Not autosaving: save your work yourself")
        self._label.setToolTip(errors.plain_tooltip(reason))
        self._label.show()
        self._window.report_error(f"Autosave is off ({reason}); save your work with "
                                  "File ▸ Save.", dialog=False, msecs=15000)

    def _look_for_take_over(self) -> None:
        if not self.try_take_over() and self._lock is not None:
            self._poll.start()  # not yet: look again after the interval

    def try_take_over(self) -> bool:
        """Take the main slot over if its owner has died; True if this instance now has it."""
        if self.is_main or not self.enabled or self.hold:
            return self.is_main
        lock = _take_lock(self.directory, MAIN_STEM)
        if lock is None:
            return False
        with self._fence():
            had_orphan = os.path.exists(os.path.join(self.directory, f"{MAIN_STEM}.json"))
            try:
                self._set_aside_main_orphan()
                _move_slot(self.directory, self.stem, MAIN_STEM)
            except OSError as exc:
                log.warning("cannot take the main autosave over: %s", exc)
                lock.unlock()
                return False
            old = self._lock
            self._lock, self.stem = lock, MAIN_STEM
        if old is not None:
            old.unlock()
        self._poll.stop()
        self._label.hide()
        text = "The other perceptron-gui window has ended; this window now keeps the main autosave."
        if had_orphan:
            text += " Its unsaved work is kept and will be offered when perceptron-gui next starts."
        self._window.show_message(text, 15000)
        _debug(f"takeover slot={self.stem}")
        self.took_over.emit(self.stem)
        return True

    def _release_lock(self) -> None:
        self._poll.stop()
        if self._lock is not None:
            self._lock.unlock()
            self._lock = None
        for orphan in self.adopted:
            orphan.release()

    def _detach(self, *_args) -> None:
        self._timer.stop()
        with self._fence():
            self._release_lock()

    @contextlib.contextmanager
    def _fence(self):
        """Hold the slot's files still: wait for a write that has begun, skip those queued.

        A worker is queued to the pool at the event loop's next turn, so a write
        may not have begun yet; waiting for it from the UI thread would wait for
        ever. Bumping the generation makes it skip instead (see :meth:`save_now`).
        """
        with self._io_lock:
            self._generation += 1
            yield

    # -- saving ------------------------------------------------------------------------------
    @property
    def pending(self) -> bool:
        """True while a save is scheduled or running."""
        return self._timer.isActive() or self._worker is not None

    def schedule(self, *_args) -> None:
        """Note a change: save after the interval (not restarted by later changes)."""
        try:
            if self.enabled and not self._timer.isActive():
                self._timer.start()
        except RuntimeError:  # the C++ timer is gone before ``destroyed`` ran
            pass

    def _files(self):
        return self._window.files

    def save_now(self) -> None:
        """Save now (in a worker), or remove the autosave when nothing is unsaved."""
        self._timer.stop()
        if not self.enabled or self.hold:
            return
        files = self._files()
        if files is not None and not files.is_dirty():
            self.remove()
            return
        if self._worker is not None:  # one save at a time; save again when it ends
            self._again = True
            return
        if files is not None:
            files.sync_view()
        snapshot = WorkspaceSnapshot(self._ws)
        document = (files.path if files else None) or ""
        stem, generation = self.stem, self._generation

        def write():
            with self._io_lock:
                if generation != self._generation:  # the slot moved or went meanwhile
                    return None
                _write_slot(self.directory, stem, snapshot, document)
            return snapshot

        self._worker = workers.start(write, returned=self._on_saved, errored=self._on_failed)

    def _on_saved(self, snapshot: WorkspaceSnapshot | None) -> None:
        self._worker = None
        if self._remove_after_write:  # the work was saved meanwhile: nothing to keep
            self.remove()
            self._after_write()
            return
        if snapshot is None:  # skipped: the slot moved before the write began
            self._again = False
            self.schedule()
            return
        if self._failed:
            self._failed = False
            self._label.setVisible(not self.is_main)
            self._window.show_message("Autosave works again.", 8000)
        _debug(f"autosave n={snapshot.dataset.n} sha={dataset_digest(snapshot.dataset)} "
               f"slot={self.stem}")
        self._forget_adopted()
        self.saved.emit(snapshot.dataset)
        self._after_write()

    def _on_failed(self, exc: BaseException) -> None:
        self._worker = None
        if self._remove_after_write:
            self.remove()
            self._after_write()
            return
        if not self._failed:  # one message per failure, not one per attempt
            self._failed = True
            self._window.report_error(
                f"Autosave failed ({_reason(exc)}) in {self.directory}. Your work is still "
                "here: save it with File ▸ Save.", dialog=False, msecs=20000)
            self._label.setText("Autosave failing: save your work yourself")
            self._label.setToolTip(errors.plain_tooltip(f"{self.path}: {_reason(exc)}"))
            self._label.show()
        log.warning("autosave failed: %s", exc)
        self._after_write()

    def _after_write(self) -> None:
        if self._again:
            self._again = False
            self.save_now()

    def _forget_adopted(self) -> None:
        """This slot holds (or no longer needs) the restored orphans' work: delete them."""
        for orphan in self.adopted:
            orphan.discard()
        self.adopted = []

    def remove(self) -> None:
        """Delete this slot's autosave (nothing is unsaved any more).

        A write already under way is not waited for: the files go when it ends.
        """
        self._generation += 1  # a write still queued skips
        self._remove_after_write = self._worker is not None
        if self._remove_after_write:
            return
        self._remove_files()

    def _remove_files(self) -> None:
        with self._fence():
            try:
                _remove_slot_files(self.directory, self.stem)
            except OSError as exc:
                log.warning("cannot remove %s: %s", self.path, exc)
        self._forget_adopted()

    def clean_exit(self) -> None:
        """The window closes normally: stop, remove the autosave, release the lock.

        Waits for a write that has begun (the files must not reappear after the
        exit); one still queued is skipped.
        """
        self._timer.stop()
        self._again = False
        if self.enabled:
            self._remove_files()
        self._release_lock()
        self.enabled = False


# ================================================================================ restoring


@dataclass
class Orphan:
    """An autosave whose instance is gone, locked by this process while it decides.

    Attributes
    ----------
    directory, stem : str
        The slot.
    workspace : Workspace
        Its content, read and validated.
    document : str
        The document it belongs to ("" for untitled).
    mtime : datetime.datetime
        When it was written.
    """

    directory: str
    stem: str
    workspace: object
    document: str
    mtime: datetime.datetime
    lock: QtCore.QLockFile | None

    @property
    def path(self) -> str:
        return os.path.join(self.directory, f"{self.stem}.json")

    def describe(self) -> tuple[str, str, str, str]:
        """(time, points, learner, document) as the restore dialog shows them."""
        ws = self.workspace
        of = os.path.basename(self.document) if self.document else "untitled"
        return (self.mtime.strftime("%Y-%m-%d %H:%M:%S"), f"{ws.dataset.n} points",
                LEARNERS.get(ws.learner_name, ws.learner_name), of)

    def release(self) -> None:
        """Keep it for later: unlock it, so the next start offers it again."""
        if self.lock is not None:
            self.lock.unlock()
            self.lock = None

    def discard(self) -> None:
        """Delete it (the user chose to, or its work is safe elsewhere)."""
        try:
            _remove_slot_files(self.directory, self.stem)
        except OSError as exc:
            log.warning("cannot remove %s: %s", self.path, exc)
        self.release()


def _autosave_names(directory: str, exclude: str = "") -> list[str]:
    """The autosave files in ``directory`` (but ``exclude``'s), sorted; [] if unreadable."""
    try:
        names = sorted(os.listdir(directory))
    except OSError:
        return []
    stems = [os.path.splitext(name) for name in names]
    return [stem + ext for stem, ext in stems
            if ext == ".json" and _STEM.match(stem) and stem != exclude]


def find_orphans(directory: str, exclude: str = "",
                 progress=None) -> tuple[list[Orphan], list[str]]:
    """Lock and read every orphaned autosave in ``directory``, newest first.

    An autosave whose lock a running instance holds is not an orphan. A
    damaged one is renamed ``<stem>.damaged.json`` (never deleted).

    Parameters
    ----------
    directory : str
    exclude : str, default=""
        The stem of this instance's own autosave.
    progress : callable, optional
        ``progress(fraction)`` while the autosaves are read (each recomputes
        its run up to its stored step); returning False cancels.

    Returns
    -------
    orphans : list of Orphan
        Locked by this process until released, discarded or restored.
    damaged : list of str
        Where the damaged ones went.

    Raises
    ------
    Cancelled
        When ``progress`` returned False: every lock taken is released and
        every autosave is left as it was, to be offered at the next start.
    """
    orphans, damaged = [], []
    names = _autosave_names(directory, exclude)
    for i, name in enumerate(names):
        stem = os.path.splitext(name)[0]
        lock = _take_lock(directory, stem)
        if lock is None:
            continue  # its instance is running
        path = os.path.join(directory, name)
        part = None if progress is None else (
            lambda f, i=i: progress((i + f) / len(names)))
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
        orphans.append(Orphan(directory, stem, loaded, _read_document(directory, stem), mtime,
                              lock))
    orphans.sort(key=lambda o: o.mtime, reverse=True)
    return orphans, damaged


class RestoreDialog(QtWidgets.QDialog):
    """Lists the orphaned autosaves; the user ticks some and restores, discards, or waits.

    After ``exec()``, :attr:`choice` is ``"restore"``, ``"discard"`` or
    ``"later"`` and :meth:`ticked` gives the ticked orphans.
    """

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
            + (f" from {len(orphans)} windows." if several else ".") + "\n"
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
        self.restore_button.clicked.connect(lambda: self._done("restore"))
        self.discard_button.clicked.connect(lambda: self._done("discard"))
        self.later_button.clicked.connect(lambda: self._done("later"))
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
                          f"Delete {n} autosave{'s' if n > 1 else ''} for good?",
                          B.Yes | B.No, B.No) != B.Yes:
                return
        self.choice = choice
        self.accept() if choice != "later" else self.reject()

    def ticked(self) -> list[Orphan]:
        """The orphans whose row is ticked, in the listed order."""
        return [o for i, o in enumerate(self.orphans)
                if self.tree.topLevelItem(i).checkState(0) == QtCore.Qt.Checked]


def _restore_into(window: WindowAPI, autosave: Autosave, orphan: Orphan) -> bool:
    """Restore ``orphan`` into ``window`` (all or nothing); False, with a message, if it failed.

    A restore that fails leaves the window as it was and the orphan on disk,
    unlocked, so the next start offers it again.
    """
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
                            f"{_reason(exc)}\n\nIt is kept and offered again at "
                            "the next start; this window is unchanged.")
        return False
    autosave.adopted.append(orphan)
    if orphan.workspace.open_note:  # a run position too far to recompute
        window.report_error("The run opens at its start", orphan.workspace.open_note)
    window.show_message(f"Restored unsaved work: {ds.n:,} points.")
    _debug(f"restored n={ds.n} sha={dataset_digest(ds)} pid={os.getpid()}")
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


def _read_orphans(window, directory: str, exclude: str) -> tuple[list[Orphan], list[str]]:
    """:func:`find_orphans` in the window's file worker, with progress and Cancel.

    Reading an autosave recomputes its run up to its stored step, which can
    take seconds on many points: never on the UI thread.  Cancel keeps every
    autosave for the next start.
    """
    if not _autosave_names(directory, exclude):
        return [], []  # nothing to read: no worker at start
    try:
        return window.files.run(
            "Reading the unsaved work of an earlier session…",
            lambda progress: find_orphans(directory, exclude=exclude, progress=progress))
    except io.Cancelled:
        window.show_message("Reading the unsaved work was cancelled; "
                            "it is kept and offered at the next start.")
        return [], []


def _restore_requested(window, autosave: Autosave, path: str) -> bool:
    """This process was started to restore one orphan: do it without asking."""
    os.environ.pop(RESTORE_PATH_VAR, None)
    directory, name = os.path.split(path)
    orphans, _ = _read_orphans(window, directory, autosave.stem)
    chosen = [o for o in orphans if o.stem == os.path.splitext(name)[0]]
    for orphan in orphans:
        if orphan not in chosen:
            orphan.release()
    return bool(chosen) and _restore_into(window, autosave, chosen[0])


def offer_restore(window: MainWindow, autosave: Autosave | None = None) -> bool:
    """Offer every orphaned autosave to restore; True if one was restored into ``window``.

    The answer comes from a :class:`RestoreDialog`, or from
    ``$PERCEPTRON_GUI_RESTORE`` (``yes``/``no``/``later``) when that is set. A
    restored workspace is an unsaved document: of the file it was autosaved
    from when that still exists, else untitled.
    """
    autosave = autosave if autosave is not None else window.autosave
    if not autosave.enabled:
        return False
    requested = os.environ.get(RESTORE_PATH_VAR, "")
    if requested:
        return _restore_requested(window, autosave, requested)
    orphans, damaged = _read_orphans(window, autosave.directory, autosave.stem)
    if damaged:
        window.report_error(
            "Autosave unreadable",
            "An autosave could not be read; it was kept as:\n\n" + "\n\n".join(damaged))
    if not orphans:
        return False
    for orphan in orphans:
        ds = orphan.workspace.dataset
        _debug(f"offered n={ds.n} sha={dataset_digest(ds)}")
    answer = os.environ.get("PERCEPTRON_GUI_RESTORE", "").strip().lower()
    if answer in ("yes", "no", "later"):
        choice = {"yes": "restore", "no": "discard", "later": "later"}[answer]
        ticked = list(orphans)
    else:
        dialog = RestoreDialog(orphans, window)
        autosave.hold = True  # the dialog's event loop must not save or remove anything
        try:
            dialog.exec()
            choice, ticked = dialog.choice, dialog.ticked()
        finally:
            autosave.hold = False
            dialog.deleteLater()
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


def _add_test_points(window) -> None:
    spec = os.environ.get("PERCEPTRON_GUI_AUTOSAVE_TEST_POINTS", "")
    if not spec:
        return
    from ...core.dataset import AddPoints

    rows = [[float(v) for v in part.split(",")] for part in spec.split(";") if part.strip()]
    for x, y, label in rows:
        window.push_edit(AddPoints([x, y], int(label)))


def install(window: WindowAPI, directory: str | None = None) -> Autosave:
    """Attach an :class:`Autosave` to the window (it does not offer a restore:
    the application calls :func:`offer_restore` once the window is shown)."""
    autosave = Autosave(window, directory)
    if os.environ.get("PERCEPTRON_GUI_AUTOSAVE_TEST_POINTS"):
        YieldingTimer(autosave, lambda: _add_test_points(window)).start()
    return autosave
