"""Expensive theory off the UI thread: the margin of many samples is certified in a worker.

The workspace defers the computation (``Workspace.defer_expensive``) and hands
out ``(token, job)``; this module runs the job in the Qt layer's one worker
type (:mod:`perceptron_gui.ui.workers`) and gives the result back to the
workspace on the UI thread, which drops it if the data or parameters changed
meanwhile and otherwise emits ``theory_changed`` (the views subscribe to it).
Meanwhile the bound readout says "computing the (kernel) margin…" and the
window stays responsive: an edit of a large data set is drawn at once.
"""

from __future__ import annotations

from PySide6 import QtCore

from .. import workers
from ..subscriptions import connect_for_lifetime

__all__ = ["TheoryWorker", "install"]


class TheoryWorker(QtCore.QObject):
    """Runs the workspace's deferred theory jobs, one at a time, newest first.

    Parameters
    ----------
    window : MainWindow
        The window whose workspace it serves (and whose status bar it tells).
    """

    def __init__(self, window):
        super().__init__(window)
        self._window = window
        self._ws = window.workspace
        self._running: int | None = None
        self._worker = None
        self._timer = QtCore.QTimer(self, singleShot=True, interval=0)
        self._timer.timeout.connect(self._start_next)
        self._ws.defer_expensive = True
        connect_for_lifetime(window, (self._ws.learner_changed, self._ws.dataset_changed),
                             self.schedule)
        window.destroyed.connect(self._detach)
        self.schedule()

    @property
    def busy(self) -> bool:
        """True while a job runs."""
        return self._running is not None

    def schedule(self, *_args) -> None:
        """Look for deferred work soon (coalesced)."""
        try:
            self._timer.start()
        except RuntimeError:  # a result came back after the window (and its timer) was deleted
            pass

    def _start_next(self) -> None:
        if self._running is not None:
            return  # the newest job starts when this one finishes
        pending = self._ws.pending_theory()
        if pending is None:
            return
        token, job = pending
        self._running = token
        if job.keywords.get("kernel") is not None:  # the linear one takes milliseconds
            self._window.show_message("Computing the kernel margin in the background…", 4000)
        self._worker = workers.start(
            job, returned=lambda result, t=token: self._on_done(t, result),
            errored=lambda exc, t=token: self._on_failed(t, f"{type(exc).__name__}: {exc}"))

    def _on_done(self, token: int, result) -> None:
        self._running = None
        self._ws.provide_novikoff(token, result)  # dropped if stale
        self.schedule()

    def _on_failed(self, token: int, message: str) -> None:
        self._running = None
        self._window.show_message(f"The kernel margin could not be computed: {message}")

    def _detach(self, *_args) -> None:
        self._ws.defer_expensive = False

    def shutdown(self, msecs: int = 10_000) -> None:
        """Wait for the running job (window closing)."""
        if self._running is not None:
            workers.wait_for_all(msecs)


def install(window) -> TheoryWorker:
    """Attach a :class:`TheoryWorker` to the window."""
    return TheoryWorker(window)
