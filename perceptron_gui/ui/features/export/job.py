"""An export as a sequence of short UI-thread slices and worker tasks, run now or in the background.

An export is a generator (its *steps*): a bare ``yield`` ends a short slice of
UI-thread work, ``yield Offload(func, *args)`` hands ``func`` to a worker and
resumes with its result.  :func:`run_now` drives the steps synchronously, a
:class:`StepsJob` from the event loop.
"""

from __future__ import annotations

import threading

from PySide6 import QtCore

from ....core.io import Cancelled
from ...deferred import YieldingTimer
from ...workers import consume
from ..progress import Job

__all__ = ["Offload", "StepsJob", "consume", "report", "run_now"]


class Offload:
    """What a step yields to run ``func(*args)`` off the UI thread (no widgets, no scene); a
    generator function is stopped at a ``yield`` on Cancel."""

    def __init__(self, func, *args):
        self.func = func
        self.args = args


def run_now(steps):
    """Drive ``steps`` to the end on this thread (offloaded work too); return its result
    (offloaded work that raises closes the steps, then propagates)."""
    value = None
    while True:
        try:
            item = steps.send(value)
        except StopIteration as stop:
            return stop.value
        try:
            value = consume(item.func, *item.args) if isinstance(item, Offload) else None
        except BaseException:
            steps.close()
            raise


def report(progress, done: int, total: int, text: str = "") -> None:
    """Call ``progress(done, total, text)`` if given; Cancelled when it returns False."""
    if progress is not None and progress(done, total, text) is False:
        raise Cancelled("export cancelled")


class StepsJob(Job):
    """A :class:`~..progress.Job` that drives an export's steps from the event loop.

    ``make_steps(progress, cancelled)`` returns the steps generator:
    ``progress(done, total, text)`` reports, ``cancelled()`` (thread-safe) tells
    a worker to stop.  ``should_stop()`` is asked between slices.  ``error`` is
    the exception that ended the steps; ``result`` is None when cancelled or failed.
    """

    progressed = QtCore.Signal(int, int, str)

    def __init__(self, make_steps, should_stop=None, parent=None):
        super().__init__(parent)
        self._stop_event = threading.Event()
        self._steps = make_steps(self._report, self._stop_event.is_set)
        self._should_stop = should_stop
        self._worker = None
        self.error = None
        self.cancelled = False
        self._tick = YieldingTimer(self, lambda: self._advance(None))

    def start(self) -> StepsJob:
        """Begin at the next turn of the event loop."""
        self._tick.start()
        return self

    def run_here(self):
        """Drive the steps that are left to the end now, waiting for each worker (no event
        loop turns); RuntimeError while a step's work runs in a worker."""
        from ... import workers

        if self._worker is not None:
            raise RuntimeError("a step of the job is running in a worker")
        self._tick.stop()
        value = None
        while not self.done:
            item = self._send(value)
            value = None
            if isinstance(item, Offload):
                try:
                    value = workers.run_blocking(item.func, *item.args)
                except Exception as exc:  # noqa: BLE001 - as a worker's error
                    self._on_errored(exc)
        return self.result

    def cancel(self) -> None:
        """Stop now: the steps are closed, a running worker is told to quit and ignored."""
        if self.done:
            return
        self.cancelled = True
        self._stop_event.set()
        if self._worker is not None:
            self._worker.quit()
        try:
            self._steps.close()
        finally:
            self._end(None)

    def _report(self, done: int, total: int, text: str = "") -> bool:
        if not self.done:
            self.progressed.emit(int(done), int(total), str(text))
        return not (self.done or self._stop_requested())

    def _stop_requested(self) -> bool:
        return self._stop_event.is_set() or bool(self._should_stop and self._should_stop())

    def _send(self, value):  # what the steps yield, or None once the job ended
        if self._stop_requested():
            self.cancel()
            return None
        try:
            return self._steps.send(value)
        except StopIteration as stop:
            self._end(stop.value)
        except Cancelled:
            self.cancelled = True
            self._end(None)
        except Exception as exc:  # reported to the caller, which shows it
            self._fail(exc)
        return None

    def _advance(self, value) -> None:
        if self.done:
            return
        item = self._send(value)
        if self.done:
            return
        if isinstance(item, Offload):
            from ... import workers

            self._worker = workers.start(item.func, *item.args,
                                         returned=self._on_returned, errored=self._on_errored)
        else:
            self._tick.start()

    def _on_returned(self, value) -> None:
        if self.done:
            return
        self._worker = None
        self._advance(value)

    def _on_errored(self, exc) -> None:
        if self.done:
            return
        self._worker = None
        if isinstance(exc, Cancelled):
            self.cancel()
            return
        try:
            self._steps.close()
        finally:
            self._fail(exc)

    def _fail(self, exc) -> None:
        self.error = exc
        self._end(None)

    def _end(self, result) -> None:
        if not self.done:
            self._tick.stop()
            self.finish(result)
