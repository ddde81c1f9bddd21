"""Expensive theory and learner switches off the UI thread, in a worker.

The workspace defers the computation (``Workspace.defer_expensive``) and drops
a result that arrives after the data or parameters changed.  A change of
learner or parameters on a large data set (``Workspace.pending_switch``) is
built here too, while the canvas keeps showing the old learner.

While the user drags points, no theory job starts: the margin of each position
would be stale before it arrived, and the worker would take a core from the drag.
"""

from __future__ import annotations

import functools

from PySide6 import QtCore, QtWidgets

from ...core.learners.registry import LEARNERS
from ...core.text import fmt_count
from .. import workers
from ..deferred import YieldingTimer
from ..window_api import WindowAPI

__all__ = ["PROGRESS_AFTER_MS", "TheoryWorker"]

#: The status bar's busy bar shows when the worker has been busy this long.
PROGRESS_AFTER_MS = 300


class TheoryWorker(QtCore.QObject):
    """Runs the workspace's deferred theory jobs and its pending switch, each one at a time.

    A theory job and a switch may run together; of each, only the newest
    request starts when the running one finishes (a stale result is dropped).
    """

    def __init__(self, window: WindowAPI):
        super().__init__(window)
        self._window = window
        self._ws = window.workspace
        self._running: int | None = None
        self._switching = None  # the Switch being built
        self._timer = YieldingTimer(self, self._start_next, name="theoryTimer")
        self.progress = QtWidgets.QProgressBar(objectName="theoryProgress")
        self.progress.setRange(0, 0)  # busy: how long a certificate takes is not known
        self.progress.setMaximumWidth(90)
        self.progress.setToolTip("Computing in the background (the margin, a learner)")
        self.progress.setVisible(False)
        window.add_status_widget(self.progress)
        self._progress_timer = YieldingTimer(self, self._show_progress,
                                             interval_ms=PROGRESS_AFTER_MS,
                                             name="theoryProgressTimer")
        self._ws.defer_expensive = True
        for event in (self._ws.events.learner_changed, self._ws.events.dataset_changed,
                      self._ws.events.switch_changed):
            event.connect(self.schedule)
        window.destroyed.connect(self._detach)
        window.dragFinished.connect(self.schedule)
        self.schedule()

    @property
    def busy(self) -> bool:
        """True while a job runs, a switch is pending, or a job is about to start."""
        return (self._running is not None or self._switching is not None
                or self._ws.pending_switch is not None or self._timer.isActive())

    def schedule(self, *_args) -> None:
        """Look for deferred work soon (coalesced)."""
        self._timer.start()

    def _start_next(self) -> None:
        self._start_switch()
        self._start_job()
        self._sync_progress()

    def _sync_progress(self) -> None:
        if self._running is None and self._switching is None:
            self._progress_timer.stop()
            self.progress.setVisible(False)
        elif not self.progress.isVisible() and not self._progress_timer.isActive():
            self._progress_timer.start()

    def _show_progress(self) -> None:
        self.progress.setVisible(self._running is not None or self._switching is not None)

    def _start_job(self) -> None:
        if self._running is not None:
            return  # the newest job starts when this one finishes
        if self._window.dragging:
            return  # the job of where the drag ends starts when it ends (dragFinished)
        pending = self._ws.pending_theory()
        if pending is None:
            return
        token, job = pending
        self._running = token
        if job.keywords.get("kernel") is not None:  # the linear one takes milliseconds
            self._window.show_message("Computing the kernel margin in the background…", 4000)
        # the result reaches the workspace even when this window went meanwhile
        deliver = functools.partial(self._ws.provide_novikoff, token)  # dropped if stale
        workers.start(job, returned=deliver, errored=self._on_failed, finished=self._on_finished)

    def _start_switch(self) -> None:
        switch = self._ws.pending_switch
        if switch is None or self._switching is not None:
            return  # the newest switch starts when this one finishes
        self._switching = switch
        self._window.show_message(f"Preparing {LEARNERS[switch.learner_name]} on "
                                  f"{fmt_count(switch.dataset.n)} points…", 4000)
        workers.start(switch.run, returned=self._on_switch_built, errored=self._on_switch_failed)

    def _on_switch_built(self, switch) -> None:
        self._switching = None
        if self._ws.commit_switch(switch):  # dropped if a newer request came
            self._window.show_message(f"{LEARNERS[switch.learner_name]} ready.", 3000)
        self.schedule()

    def _on_switch_failed(self, exc) -> None:
        switch, self._switching = self._switching, None
        self._ws.drop_switch(switch, str(exc))
        self.schedule()

    def _on_finished(self) -> None:
        if self._running is not None:  # not after a failure: the job would fail again
            self._running = None
            self._start_next()  # the newest request now: a result arrives in a pass of its own

    def _on_failed(self, exc: BaseException) -> None:
        self._running = None
        self._window.report_error("The kernel margin could not be computed",
                                  f"{type(exc).__name__}: {exc}", dialog=False)
        self._sync_progress()  # not the job again: it would fail again

    def _detach(self, *_args) -> None:
        self._ws.defer_expensive = False

    def shutdown(self, msecs: int = 10_000) -> None:
        """Wait for the running job (window closing)."""
        if self._running is not None or self._switching is not None:
            workers.wait_for_all(msecs)
