"""Deferred work on the UI thread: at most one costly job per pass of the event loop.

Qt runs every timer due when a pass of the event loop begins, one after the
other, however long each takes: the jobs one step of a run makes due (the
canvas's redraw, the plots' and panels' refreshes, the next slice of "run to
end") would hold the loop for their sum, and a tick of playback, the user's next
event or a repaint would wait through all of them.

A :class:`YieldingTimer` runs its job unless a costly job (longer than
:data:`COSTLY_SECONDS`) already ran in this pass, or other jobs were put off
before it; otherwise it waits in line until the end of the pass (a queued call
Qt delivers after the pass's timers and repaints).  Each pass runs at least the
first job in line, so none waits for good.  (superqt's ``qthrottled`` limits how
often one callable runs, not many callables back to back.)  Its ``start``,
``stop``, ``isActive``, ``setInterval`` and ``interval`` are Python overrides:
call them from Python, not through a C++ slot.
"""

from __future__ import annotations

import time

import shiboken6
from PySide6 import QtCore

__all__ = ["COSTLY_SECONDS", "YieldingTimer"]

#: A deferred job that took longer than this, in seconds, is costly: no other
#: costly job runs in the same pass of the event loop.
COSTLY_SECONDS = 0.003


class _Passes(QtCore.QObject):
    """Whether a costly deferred job ran in the current pass, and the jobs in line."""

    _ended = QtCore.Signal()

    def __init__(self, parent: QtCore.QObject):
        super().__init__(parent)
        self.costly_ran = False  # a costly job ran in this pass already
        self.waiting: list[YieldingTimer] = []  # in line, first put off first
        self._posted = False
        self._ended.connect(self._on_ended, QtCore.Qt.QueuedConnection)

    def may_run(self, timer: YieldingTimer) -> bool:
        """Whether the pass is free and *timer* first in line."""
        return not self.costly_ran and (not self.waiting or self.waiting[0] is timer)

    def put_off(self, timer: YieldingTimer) -> None:
        """*timer* waits in line (if it is not already) until the pass ends."""
        if timer not in self.waiting:
            self.waiting.append(timer)
        self._post()

    def drop(self, timer: YieldingTimer) -> None:
        """*timer* ran or was stopped: out of the line."""
        if timer in self.waiting:
            self.waiting.remove(timer)

    def ran(self, costly: bool) -> None:
        """A job ran; a costly one spends what is left of the pass."""
        if costly:
            self.costly_ran = True
            self._post()

    def _post(self) -> None:
        if not self._posted:
            self._posted = True
            self._ended.emit()

    def _on_ended(self) -> None:
        self._posted = False
        self.costly_ran = False
        for timer in list(self.waiting):
            if shiboken6.isValid(timer):
                QtCore.QTimer.start(timer, 0)
            else:  # deleted with its owner
                self.waiting.remove(timer)


#: The application's one :class:`_Passes` (a child of the application: it goes with it).
_shared: list[_Passes] = []


def _passes() -> _Passes:
    app = QtCore.QCoreApplication.instance()
    if _shared and shiboken6.isValid(_shared[0]) and _shared[0].parent() is app:
        return _shared[0]
    passes = _Passes(app)
    passes.setObjectName("deferredPasses")
    _shared[:] = [passes]
    return passes


class YieldingTimer(QtCore.QTimer):
    """A single-shot ``QTimer`` whose job waits for a pass with no costly job run yet.

    ``isActive()`` stays true while the job is put off (callers that coalesce on it
    see one pending call) and is false while it runs (it may start the timer again).
    """

    fired = QtCore.Signal()

    def __init__(self, parent: QtCore.QObject, slot, *, interval_ms: int = 0,
                 name: str | None = None):
        super().__init__(parent)
        if name:
            self.setObjectName(name)
        self.setSingleShot(True)
        self._interval_ms = int(interval_ms)
        super().setInterval(self._interval_ms)
        self._passes = _passes()
        self.timeout.connect(self._on_timeout)
        self.fired.connect(slot)

    def start(self, msec: int | None = None) -> None:
        """Start (or restart) the timer: due in *msec* ms, or in its interval."""
        if msec is not None:
            self._interval_ms = int(msec)
        self._passes.drop(self)
        super().start(self._interval_ms)

    def schedule(self, *_args) -> None:
        """Start unless due already: the slot that coalesces a burst of emissions into one job."""
        if not self.isActive():
            self.start()

    def stop(self) -> None:
        """Stop the timer; a job waiting in line leaves it."""
        self._passes.drop(self)
        super().stop()

    def setInterval(self, msec: int) -> None:  # noqa: N802 (Qt's name)
        """The delay of :meth:`start` without an argument (as ``QTimer.setInterval``)."""
        self._interval_ms = int(msec)
        super().setInterval(self._interval_ms)

    def interval(self) -> int:
        """The delay of :meth:`start` without an argument, in ms."""
        return self._interval_ms

    def isActive(self) -> bool:  # noqa: N802 (Qt's name)
        """True while the job is due: counting down, or waiting in line for a pass."""
        return super().isActive() or self in self._passes.waiting

    def _on_timeout(self) -> None:
        passes = self._passes
        if not passes.may_run(self):
            passes.put_off(self)
            return
        passes.drop(self)  # out of the line before it runs: the job may start it again
        t0 = time.perf_counter()
        try:
            self.fired.emit()
        finally:
            passes.ran(time.perf_counter() - t0 > COSTLY_SECONDS)
