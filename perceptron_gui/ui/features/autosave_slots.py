"""The autosave's slots on disk: their files, their locks, and the orphans' rules.

A slot is ``<stem>.json`` (the work), ``<stem>.lock`` (held by the running
instance that writes it) and ``<stem>.document`` (the document's path).  The
first instance takes the main slot ``autosave``; a later one ``autosave-<id>``,
and the main slot when its owner dies.  A lock is stale only when its process
is gone, so a slot whose lock can be taken and whose ``.json`` exists is an
*orphan*: work left by a crash or a kill.
"""

from __future__ import annotations

import contextlib
import datetime
import logging
import os
import re
from dataclasses import dataclass
from typing import TYPE_CHECKING

from PySide6 import QtCore

from ...core import io
from ...core.learners.registry import LEARNERS
from ...core.text import plural

if TYPE_CHECKING:
    from .files import WorkspaceSnapshot

__all__ = ["MAIN_STEM", "Orphan", "UNREADABLE_LOCK_SECONDS", "autosave_names",
           "move_slot", "new_stem", "read_document", "reason", "remove_slot_files", "take_lock",
           "write_slot"]

#: Age after which a lock file nobody can read is removed.
UNREADABLE_LOCK_SECONDS = 10.0

#: The main slot's stem (``autosave.json``, ``autosave.lock``).
MAIN_STEM = "autosave"

_STEM = re.compile(r"^autosave(-[0-9a-f]{8,32})?$")


def new_stem() -> str:
    import uuid  # only a second instance or a dead owner's work needs a new slot

    return f"{MAIN_STEM}-{uuid.uuid4().hex[:12]}"


def take_lock(directory: str, stem: str) -> QtCore.QLockFile | None:
    """The slot's lock, or None when a running instance holds it."""
    lock = QtCore.QLockFile(os.path.join(directory, f"{stem}.lock"))
    lock.setStaleLockTime(0)  # stale only when its process is gone, never by age
    if lock.tryLock(0):
        return lock
    if lock.error() == QtCore.QLockFile.LockFailedError and unreadable_and_old(lock) \
            and lock.removeStaleLockFile() and lock.tryLock(0):
        return lock
    return None


def unreadable_and_old(lock: QtCore.QLockFile) -> bool:
    """A lock file nobody can read (its process died writing it) for a while: ``tryLock``,
    with a stale time of 0, would keep an empty or cut one forever."""
    pid, *_info = lock.getLockInfo()
    if pid:
        return False
    try:
        age = QtCore.QDateTime.currentSecsSinceEpoch() - os.path.getmtime(lock.fileName())
    except (OSError, AttributeError):
        return False
    return age > UNREADABLE_LOCK_SECONDS


def move_slot(directory: str, old: str, new: str) -> None:
    """Rename a slot's work and document files (the work first)."""
    for ext in (".json", ".document"):
        source = os.path.join(directory, old + ext)
        if os.path.exists(source):
            os.replace(source, os.path.join(directory, new + ext))


def remove_slot_files(directory: str, stem: str) -> None:
    for ext in (".json", ".document"):
        with contextlib.suppress(FileNotFoundError):
            os.remove(os.path.join(directory, stem + ext))


def read_document(directory: str, stem: str) -> str:
    try:
        with open(os.path.join(directory, f"{stem}.document"), encoding="utf-8") as f:
            return f.read().strip()
    except (OSError, UnicodeDecodeError):
        return ""


def write_slot(directory: str, stem: str, snapshot: WorkspaceSnapshot, document: str) -> None:
    """Runs in a worker: the work first, then the document it belongs to."""
    io.atomic_write_bytes(os.path.join(directory, f"{stem}.json"),
                          io.workspace_json_chunks(snapshot))
    io.atomic_write_bytes(os.path.join(directory, f"{stem}.document"), [document.encode("utf-8")])


def autosave_names(directory: str, exclude: str = "") -> list[str]:
    """The autosave files in ``directory`` (but ``exclude``'s), sorted; [] if unreadable."""
    try:
        names = sorted(os.listdir(directory))
    except OSError:
        return []
    stems = [os.path.splitext(name) for name in names]
    return [stem + ext for stem, ext in stems
            if ext == ".json" and _STEM.match(stem) and stem != exclude]


def reason(exc: BaseException) -> str:
    if isinstance(exc, OSError) and exc.strerror:
        return exc.strerror.lower()
    return f"{type(exc).__name__}: {exc}"


@dataclass
class Orphan:
    """An autosave whose instance is gone (of ``document``, "" for untitled), locked by this
    process while it decides."""

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
        return (self.mtime.strftime("%Y-%m-%d %H:%M:%S"), plural(ws.dataset.n, "point"),
                LEARNERS.get(ws.learner_name, ws.learner_name), of)

    def release(self) -> None:
        """Keep it for later: unlock it, so the next start offers it again."""
        if self.lock is not None:
            self.lock.unlock()
            self.lock = None

    def discard(self) -> None:
        """Delete it (the user chose to, or its work is safe elsewhere)."""
        try:
            remove_slot_files(self.directory, self.stem)
        except OSError as exc:
            logging.getLogger("perceptron_gui").warning("cannot remove %s: %s", self.path, exc)
        self.release()
