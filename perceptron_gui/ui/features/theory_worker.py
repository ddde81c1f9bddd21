"""Expensive theory off the UI thread: the kernel margin is certified in a worker.

The workspace defers the computation (``Workspace.defer_expensive``) and hands
out ``(token, job)``; this module runs the job on a one-thread pool and gives
the result back on the UI thread, where the workspace drops it if the data or
parameters changed meanwhile.  Meanwhile the bound readout says
"computing the kernel margin…" and the window stays responsive.
"""

from __future__ import annotations

from PySide6 import QtCore

__all__ = ["TheoryWorker", "install"]


class _Signals(QtCore.QObject):
    done = QtCore.Signal(int, object)
    failed = QtCore.Signal(int, str)


class _Job(QtCore.QRunnable):
    def __init__(self, token: int, job, signals: _Signals):
        super().__init__()
        self.token, self.job, self.signals = token, job, signals

    def run(self) -> None:
        try:
            result = self.job()
        except Exception as exc:  # reported on the UI thread, never lost
            self.signals.failed.emit(self.token, f"{type(exc).__name__}: {exc}")
        else:
            self.signals.done.emit(self.token, result)


class TheoryWorker(QtCore.QObject):
    """Runs the workspace's deferred theory jobs, one at a time, newest first.

    Parameters
    ----------
    window : MainWindow
        The window whose workspace and views it serves.
    """

    def __init__(self, window):
        super().__init__(window)
        self._window = window
        self._ws = window.workspace
        self._pool = QtCore.QThreadPool(self)
        self._pool.setMaxThreadCount(1)
        self._signals = _Signals(self)
        self._signals.done.connect(self._on_done)
        self._signals.failed.connect(self._on_failed)
        self._running: int | None = None
        self._timer = QtCore.QTimer(self, singleShot=True, interval=0)
        self._timer.timeout.connect(self._start_next)
        self._ws.defer_expensive = True
        self._slots = [(self._ws.learner_changed, self.schedule),
                       (self._ws.dataset_changed, self.schedule),
                       (self._ws.theory_changed, self._redraw)]
        for signal, slot in self._slots:
            signal.connect(slot)
        window.destroyed.connect(self._detach)
        self.schedule()

    @property
    def busy(self) -> bool:
        """True while a job runs."""
        return self._running is not None

    def schedule(self, *_args) -> None:
        """Look for deferred work soon (coalesced)."""
        self._timer.start()

    def _start_next(self) -> None:
        if self._running is not None:
            return  # the newest job starts when this one finishes
        pending = self._ws.pending_theory()
        if pending is None:
            return
        token, job = pending
        self._running = token
        self._window.show_message("Computing the kernel margin in the background…", 4000)
        self._pool.start(_Job(token, job, self._signals))

    def _on_done(self, token: int, result) -> None:
        self._running = None
        self._ws.provide_novikoff(token, result)  # dropped if stale
        self.schedule()

    def _on_failed(self, token: int, message: str) -> None:
        self._running = None
        self._window.show_message(f"The kernel margin could not be computed: {message}")

    def _redraw(self) -> None:
        for view in (self._window.readouts, self._window.plots, self._window.canvas):
            view.refresh()

    def _detach(self, *_args) -> None:
        for signal, slot in self._slots:
            signal.disconnect(slot)
        self._slots = []
        self._ws.defer_expensive = False

    def shutdown(self, msecs: int = 10_000) -> None:
        """Drop queued jobs and wait for the running one (window closing)."""
        self._pool.clear()
        self._pool.waitForDone(msecs)


def install(window) -> TheoryWorker:
    """Attach a :class:`TheoryWorker` to the window."""
    return TheoryWorker(window)
