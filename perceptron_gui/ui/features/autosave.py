"""Autosave each window's unsaved work, and offer the work of killed instances back.

A few seconds after the first unsaved change (not restarted by later ones:
continuous editing is still saved) the workspace is written, atomically and
in a worker, to the window's own *slot*.  Saving the document, undoing back
to the saved state, or a clean exit removes it.

Testing hooks (environment variables): ``PERCEPTRON_GUI_RESTORE=yes|no|later``
answers the restore question without showing it; ``PERCEPTRON_GUI_AUTOSAVE_SECONDS``
and ``PERCEPTRON_GUI_AUTOSAVE_POLL_SECONDS`` set the delays;
``PERCEPTRON_GUI_AUTOSAVE_DEBUG=1`` prints ``autosave``, ``offered``, ``restored``
and ``takeover`` lines with :func:`dataset_digest`;
``PERCEPTRON_GUI_AUTOSAVE_TEST_POINTS=x,y,label;…`` adds points once the window is built.
"""

from __future__ import annotations

import contextlib
import logging
import os
import threading
from typing import TYPE_CHECKING

from PySide6 import QtCore, QtWidgets

from .. import errors, workers
from ..deferred import YieldingTimer
from .autosave_slots import (
    MAIN_STEM,
    Orphan,
    move_slot,
    new_stem,
    reason,
    remove_slot_files,
    take_lock,
    write_slot,
)
from .files import WorkspaceSnapshot

if TYPE_CHECKING:
    from ..window_api import WindowAPI

__all__ = ["Autosave", "dataset_digest", "default_directory", "INTERVAL_SECONDS", "POLL_SECONDS"]

log = logging.getLogger("perceptron_gui")

#: Seconds between the first unsaved change and the autosave.
INTERVAL_SECONDS = 3.0

#: Seconds between two checks, by an instance without the main slot, that its owner lives.
POLL_SECONDS = 2.0


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


def debug(text: str) -> None:
    """Print a line for the tests when ``$PERCEPTRON_GUI_AUTOSAVE_DEBUG`` is set."""
    if os.environ.get("PERCEPTRON_GUI_AUTOSAVE_DEBUG", "") not in ("", "0"):
        print(text, flush=True)


def _env_seconds(name: str, default: float) -> float:
    try:
        return float(os.environ.get(name, ""))
    except ValueError:
        return default


class Autosave(QtCore.QObject):
    """Saves the window's workspace to its own slot ``stem`` :data:`INTERVAL_SECONDS` after
    a change (the restore is offered once the window shows); ``enabled`` is False when the
    folder cannot be written (the window says so)."""

    #: Emitted with the snapshot's data set after each successful autosave.
    saved = QtCore.Signal(object)
    #: Emitted with the new stem after this instance took the main slot over.
    took_over = QtCore.Signal(str)

    def __init__(self, window: WindowAPI):
        super().__init__(window)
        self.setObjectName("autosave")
        self._window = window
        self._ws = window.workspace
        self.directory = default_directory()
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
        # the run's step too: a restore lands on the step that was on screen, not on the
        # step of the last data edit
        for event in (self._ws.events.dataset_changed, self._ws.events.learner_changed,
                      self._ws.events.run_changed):
            event.connect(self.schedule)
        window.undo_stack.cleanChanged.connect(self.schedule)
        window.destroyed.connect(self._detach)
        if os.environ.get("PERCEPTRON_GUI_AUTOSAVE_TEST_POINTS"):
            YieldingTimer(self, self._add_test_points).start()

    @property
    def path(self) -> str:
        return os.path.join(self.directory, f"{self.stem}.json")

    @property
    def is_main(self) -> bool:
        """True when this instance writes the main slot."""
        return self.stem == MAIN_STEM

    def _claim(self) -> bool:
        try:
            os.makedirs(self.directory, exist_ok=True)
        except OSError as exc:
            self._say_not_saving(f"cannot create {self.directory}: {reason(exc)}")
            return False
        lock = take_lock(self.directory, MAIN_STEM)
        if lock is not None:
            self._lock, self.stem = lock, MAIN_STEM
            self._set_aside_main_orphan()
            return True
        for _ in range(10):
            stem = new_stem()
            lock = take_lock(self.directory, stem)
            if lock is not None and not os.path.exists(os.path.join(self.directory, stem
                                                                    + ".json")):
                self._lock, self.stem = lock, stem
                break
        else:
            self._say_not_saving(f"cannot create a lock in {self.directory}")
            return False
        self._show_label("Autosaving to a file of its own (another perceptron-gui window is "
                         "open)", f"Unsaved work of this window is autosaved to {self.path}")
        self._window.show_message("Another perceptron-gui window is open: this one autosaves "
                                  "its unsaved work to a file of its own.", 12000)
        self._poll.start()
        return True

    def _set_aside_main_orphan(self) -> None:
        """Work left in the main slot by a dead owner moves to a slot of its own (an orphan)."""
        if os.path.exists(os.path.join(self.directory, f"{MAIN_STEM}.json")):
            try:
                move_slot(self.directory, MAIN_STEM, new_stem())
            except OSError as exc:
                log.warning("cannot move the main autosave aside: %s", exc)

    def _show_label(self, text: str, tip: str) -> None:
        self._label.setText(text)
        self._label.setToolTip(errors.plain_tooltip(tip))
        self._label.show()

    def _say_not_saving(self, reason: str) -> None:
        log.warning("autosave disabled: %s", reason)
        self._show_label("Not autosaving: save your work yourself", reason)
        self._window.report_error(f"Autosave is off ({reason}); save your work with "
                                  "File ▸ Save.", dialog=False, msecs=15000)

    def _look_for_take_over(self) -> None:
        if not self.try_take_over() and self._lock is not None:
            self._poll.start()  # not yet: look again after the interval

    def try_take_over(self) -> bool:
        """Take the main slot over if its owner has died; True if this instance now has it."""
        if self.is_main or not self.enabled or self.hold:
            return self.is_main
        lock = take_lock(self.directory, MAIN_STEM)
        if lock is None:
            return False
        with self._fence():
            had_orphan = os.path.exists(os.path.join(self.directory, f"{MAIN_STEM}.json"))
            try:
                self._set_aside_main_orphan()
                move_slot(self.directory, self.stem, MAIN_STEM)
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
        debug(f"takeover slot={self.stem}")
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
        """Hold the slot's files still: wait for a write that has begun, skip those queued
        (queued at the event loop's next turn: waiting for one would wait for ever)."""
        with self._io_lock:
            self._generation += 1
            yield

    @property
    def pending(self) -> bool:
        """True while a save is scheduled or running."""
        return self._timer.isActive() or self._worker is not None

    def schedule(self, *_args) -> None:
        """Note a change: save after the interval (not restarted by later changes)."""
        if self.enabled and not self._timer.isActive():
            self._timer.start()

    def save_now(self) -> None:
        """Save now (in a worker), or remove the autosave when nothing is unsaved."""
        self._timer.stop()
        if not self.enabled or self.hold:
            return
        files = self._window.files
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
                write_slot(self.directory, stem, snapshot, document)
            return snapshot

        self._worker = workers.start(write, returned=self._on_saved, errored=self._on_failed)

    def _removed_after_write(self) -> bool:  # the work was saved meanwhile
        self._worker = None
        removing = self._remove_after_write
        if removing:
            self.remove()
            self._after_write()
        return removing

    def _on_saved(self, snapshot: WorkspaceSnapshot | None) -> None:
        if self._removed_after_write():
            return
        if snapshot is None:  # skipped: the slot moved before the write began
            self._again = False
            self.schedule()
            return
        if self._failed:
            self._failed = False
            self._label.setVisible(not self.is_main)
            self._window.show_message("Autosave works again.", 8000)
        debug(f"autosave n={snapshot.dataset.n} sha={dataset_digest(snapshot.dataset)} "
               f"slot={self.stem}")
        self._forget_adopted()
        self.saved.emit(snapshot.dataset)
        self._after_write()

    def _on_failed(self, exc: BaseException) -> None:
        if self._removed_after_write():
            return
        if not self._failed:  # one message per failure, not one per attempt
            self._failed = True
            self._window.report_error(
                f"Autosave failed ({reason(exc)}) in {self.directory}. Your work is still "
                "here: save it with File ▸ Save.", dialog=False, msecs=20000)
            self._show_label("Autosave failing: save your work yourself",
                             f"{self.path}: {reason(exc)}")
        log.warning("autosave failed: %s", exc)
        self._after_write()

    def _after_write(self) -> None:
        if self._again:
            self._again = False
            self.save_now()

    def _forget_adopted(self) -> None:  # this slot holds their work
        for orphan in self.adopted:
            orphan.discard()
        self.adopted = []

    def remove(self) -> None:
        """Delete this slot's autosave (a write under way: when it ends)."""
        self._generation += 1  # a write still queued skips
        self._remove_after_write = self._worker is not None
        if self._remove_after_write:
            return
        self._remove_files()

    def _remove_files(self) -> None:
        with self._fence():
            try:
                remove_slot_files(self.directory, self.stem)
            except OSError as exc:
                log.warning("cannot remove %s: %s", self.path, exc)
        self._forget_adopted()

    def clean_exit(self) -> None:
        """The window closes normally: remove the autosave (after a write that has begun:
        its files must not reappear) and release the lock."""
        self._timer.stop()
        self._again = False
        if self.enabled:
            self._remove_files()
        self._release_lock()
        self.enabled = False

    def _add_test_points(self) -> None:
        from ...core.dataset import AddPoints

        spec = os.environ["PERCEPTRON_GUI_AUTOSAVE_TEST_POINTS"]
        for part in filter(str.strip, spec.split(";")):
            x, y, label = (float(v) for v in part.split(","))
            self._window.push_edit(AddPoints([x, y], int(label)))

