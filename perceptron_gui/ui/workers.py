"""Work off the UI thread: one worker type for the whole Qt layer (superqt's).

While a worker runs, Python switches threads more often (:mod:`.interpreter`).
Every worker ends with ``finished``, and an exception reaches ``errored`` whatever
its type: superqt's own ``run`` drops a ``RuntimeError`` (and the ``finished``
after it) as the sign of a deleted wrapper.  Without ``errored`` it goes to
:func:`report_error`, the window's error sink.
"""

from __future__ import annotations

import inspect
import logging
import threading
import weakref

from PySide6 import QtCore

from . import interpreter
from .interpreter import SWITCH_INTERVAL_S

__all__ = ["SWITCH_INTERVAL_S", "ProgressRelay", "add_error_sink", "consume", "preload",
           "remove_error_sink", "report_error", "run_blocking", "running", "start",
           "wait_for_all"]

log = logging.getLogger("perceptron_gui")
#: Where :func:`report_error` sends an error, newest last: weak references to windows'
#: ``report_error`` (a window that goes is forgotten).
_sinks: list[weakref.WeakMethod] = []


def running() -> int:
    """The number of workers started by :func:`start` that have not finished yet."""
    return interpreter.workers_running()


def add_error_sink(sink) -> None:
    """Send the workers' errors to ``sink`` (a window's ``report_error``, held weakly), newest."""
    _sinks.append(weakref.WeakMethod(sink))


def remove_error_sink(sink) -> None:
    """Stop sending errors to ``sink`` (its window goes)."""
    _sinks[:] = [ref for ref in _sinks if ref() is not None and ref() != sink]


def report_error(summary: str, exc: BaseException) -> None:
    """Tell the user that work in a worker failed (the newest window's status bar, or the log)."""
    for ref in reversed(_sinks):
        sink = ref()
        if sink is not None:
            sink(summary, exc, dialog=False)
            return
    log.error("%s", summary, exc_info=(type(exc), exc, exc.__traceback__))


class _CountedOut:
    """Mixin for superqt's workers: counted out in their own thread as they end."""

    def run(self) -> None:
        try:
            super().run()
        finally:
            interpreter.worker_finished()


def _worker_classes():
    """superqt's two worker types, counted out as they end, raising what they raise."""
    global _CLASSES
    if _CLASSES is None:
        from superqt.utils import FunctionWorker, GeneratorWorker

        class CountedFunctionWorker(_CountedOut, FunctionWorker):
            pass

        class CountedGeneratorWorker(_CountedOut, GeneratorWorker):
            def work(self):
                result = super().work()
                if isinstance(result, RuntimeError):  # superqt returns it to drop it
                    raise result
                return result

        _CLASSES = (CountedFunctionWorker, CountedGeneratorWorker)
    return _CLASSES


_CLASSES = None


def start(func, *args, returned=None, errored=None, yielded=None, finished=None, **kwargs):
    """Run ``func(*args, **kwargs)`` (no Qt widgets) in Qt's global thread pool; returns the
    superqt worker.  The slots are called on the UI thread; a generator function's yields
    go to ``yielded`` and ``worker.quit()`` stops it at its next ``yield``.  The worker is
    queued at the event loop's next turn (superqt's rule): never block the UI thread
    waiting for it to begin.
    """
    from superqt.utils import create_worker

    if errored is None:
        def errored(exc: BaseException) -> None:
            report_error("Work in the background failed", exc)

    function_worker, generator_worker = _worker_classes()
    kind = generator_worker if inspect.isgeneratorfunction(func) else function_worker
    connect = {name: slot for name, slot in (("returned", returned), ("errored", errored),
                                             ("yielded", yielded), ("finished", finished))
               if slot is not None}
    worker = create_worker(func, *args, _worker_class=kind, _start_thread=False,
                           _connect=connect, **kwargs)
    interpreter.worker_started()
    try:
        worker.start()
    except BaseException:
        interpreter.worker_finished()
        raise
    return worker


def consume(func, *args):
    """Call ``func(*args)``; exhaust it when it is a generator; return its result."""
    result = func(*args)
    if inspect.isgenerator(result):
        try:
            while True:
                next(result)
        except StopIteration as stop:
            return stop.value
    return result


def run_blocking(func, *args):
    """Run ``func(*args)`` (:func:`consume`) in a thread and wait here for what it returns or
    raises (an export with ``wait=True``); ``func`` must not wait for the UI thread."""
    outcome: dict = {}

    def work() -> None:
        try:
            outcome["value"] = consume(func, *args)
        except BaseException as exc:  # noqa: BLE001 - raised on the waiting thread
            outcome["error"] = exc
        finally:
            interpreter.worker_finished()

    thread = threading.Thread(target=work, name="perceptron-gui-blocking-worker")
    interpreter.worker_started()
    thread.start()
    thread.join()
    if "error" in outcome:
        raise outcome["error"]
    return outcome["value"]


class ProgressRelay(QtCore.QObject):
    """A worker's progress (:meth:`report`, from any thread) as :attr:`changed` (0 to 1) on the
    UI thread, emitted when it moves by a step of :attr:`STEPS`."""

    changed = QtCore.Signal(float)
    #: The resolution of :attr:`changed` (a progress bar's 1000 steps).
    STEPS = 1000

    def __init__(self, parent: QtCore.QObject | None = None):
        super().__init__(parent)
        self._last = -1

    def report(self, fraction: float) -> bool:
        """Note the fraction done (any thread); returns True (the work goes on)."""
        step = round(self.STEPS * min(max(float(fraction), 0.0), 1.0))
        if step != self._last:
            self._last = step
            self.changed.emit(step / self.STEPS)
        return True


def preload() -> None:
    """Import superqt's worker module now, in a background thread (the first :func:`start`
    would import it, all its widgets, on the UI thread: ~0.15 s).  Never raises."""
    try:
        _worker_classes()
    except Exception:  # noqa: BLE001, S110 - start() will raise it where it matters
        pass


def wait_for_all(msecs: int = 10_000) -> bool:
    """Wait up to ``msecs`` for every running worker to finish (the window closes)."""
    return QtCore.QThreadPool.globalInstance().waitForDone(msecs)
