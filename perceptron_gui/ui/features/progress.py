"""The Qt layer's one job type and its one progress dialog; a file job in a worker.

Every long operation returns a :class:`Job`: a :class:`FileJob`, or an export's
:class:`~.export.job.StepsJob`.
"""

from __future__ import annotations

import threading

from PySide6 import QtCore, QtGui, QtWidgets

from .. import style, workers

__all__ = ["APP_NAME", "FileJob", "Job", "progress_dialog"]

APP_NAME = "perceptron-gui"


def progress_dialog(parent: QtWidgets.QWidget, label: str, *, title: str, name: str,
                    minimum_ms: int, cancellable: bool = True
                    ) -> tuple[QtWidgets.QProgressDialog, QtWidgets.QProgressBar]:
    """The progress dialog of every job: window-modal, shown once the work passes ``minimum_ms``.

    ``label`` is plain text (it may quote a file name).  Returns the dialog,
    busy until the caller sets the range, and its bar.  Progress goes to the
    bar: the dialog's ``setValue`` runs a pass of the event loop inside it once
    shown, which would re-enter the job.
    """
    dialog = QtWidgets.QProgressDialog("", "Cancel", 0, 0, parent)
    text = QtWidgets.QLabel(dialog)
    text.setTextFormat(QtCore.Qt.TextFormat.PlainText)
    dialog.setLabel(text)
    dialog.setLabelText(label)
    dialog.setObjectName(name)
    dialog.setWindowTitle(title)
    # as wide as the title needs in a title bar (a larger, bold font), with room for its icon
    # and buttons: else the window manager cuts it in the middle ("Export th… g as CSV")
    font = style.font(dialog.font().pointSizeF() * 1.25, dialog.font(), bold=True)
    title_px = QtGui.QFontMetrics(font).horizontalAdvance(title)
    dialog.setMinimumWidth(title_px + 10 * dialog.fontMetrics().height())
    dialog.setWindowModality(QtCore.Qt.WindowModality.WindowModal)
    dialog.setMinimumDuration(max(0, int(minimum_ms)))
    dialog.setAutoClose(False)
    dialog.setAutoReset(False)
    bar = QtWidgets.QProgressBar(dialog)
    dialog.setBar(bar)
    if not cancellable:
        dialog.setCancelButton(None)
    dialog.setValue(0)  # starts the dialog's timer: it shows after the minimum duration
    return dialog, bar


class Job(QtCore.QObject):
    """An operation that finishes later, on the UI thread, with a ``result`` (None until)."""

    #: Emitted once, with ``result``, when the job finishes.
    finished = QtCore.Signal(object)

    def __init__(self, parent: QtCore.QObject | None = None, *, waiting_on: Job | None = None):
        super().__init__(parent)
        self.done = False
        self.result = None
        self._waiting_on = waiting_on  # the job this one waits for (cancel() passes on)

    @classmethod
    def resolved(cls, result) -> Job:
        """A job that is already done with ``result`` (an operation refused or skipped)."""
        job = cls()
        job.finish(result)
        return job

    def __bool__(self) -> bool:
        raise TypeError("a Job has no truth value yet: wait for it and read job.result")

    def finish(self, result) -> None:
        """End the job with ``result`` (only the first call counts)."""
        if self.done:
            return
        self.done, self.result, self._waiting_on = True, result, None
        self.finished.emit(result)

    def when_done(self, callback) -> None:
        """Call ``callback(result)`` when the job finishes (now, if it has)."""
        if self.done:
            callback(self.result)
        else:
            self.finished.connect(callback)

    def then(self, step) -> Job:
        """A job that finishes with ``step(result)`` (a :class:`Job`'s: with its result), or
        with None when ``step`` raises (the exception goes on to the exception hook)."""
        chained = Job(waiting_on=self)

        def go(result) -> None:
            try:
                following = step(result)
            except BaseException:
                chained.finish(None)
                raise
            if isinstance(following, Job):
                chained.follow(following)
            else:
                chained.finish(following)

        self.when_done(go)
        return chained

    def follow(self, job: Job) -> None:
        """Finish with ``job``'s result; until then :meth:`cancel` cancels ``job``."""
        self._waiting_on = job
        job.when_done(self.finish)

    def cancel(self) -> None:
        """Cancel the work under way (as the progress dialog's Cancel does)."""
        if self._waiting_on is not None:
            self._waiting_on.cancel()


class FileJob(Job):
    """Start ``func(progress)`` (no Qt objects) in a worker behind a progress dialog.

    Cancel makes the next ``progress(fraction)`` return False (the readers of
    :mod:`perceptron_gui.core.io` raise ``Cancelled``).  ``then(job)`` runs on the
    UI thread once ``func`` returned or raised (``job.unwrap()``) and gives the
    ``result``; without it the result is the value, and an exception is reported.
    """

    def __init__(self, parent: QtWidgets.QWidget, label: str, func, *, then=None,
                 delay_ms: int = 400, started=None, cancellable: bool = True):
        super().__init__()
        self.ok: bool | None = None
        self.value = None
        self._then = then
        self._cancel = threading.Event()
        self._relay = workers.ProgressRelay()
        dialog, self._bar = progress_dialog(parent, label, title=APP_NAME, name="fileProgress",
                                            minimum_ms=delay_ms, cancellable=cancellable)
        dialog.canceled.connect(self._cancel.set)  # Cancel, Esc and closing the dialog
        if cancellable:
            self._bar.setRange(0, 1000)
            self._relay.changed.connect(self._show_progress)
        self.dialog: QtWidgets.QProgressDialog | None = dialog
        if started is not None:
            started(dialog)
        workers.start(func, self._progress, returned=lambda value: self._end(True, value),
                      errored=lambda exc: self._end(False, exc))

    def _progress(self, fraction: float) -> bool:  # on the worker thread
        self._relay.report(fraction)
        return not self._cancel.is_set()

    def _show_progress(self, fraction: float) -> None:
        if self.dialog is not None and not self._cancel.is_set():
            self._bar.setValue(round(1000 * fraction))

    def cancel(self) -> None:
        """Do what the dialog's Cancel does: the next ``progress`` call returns False."""
        if self.dialog is not None:
            self._cancel.set()
            self.dialog.cancel()

    def unwrap(self):
        """What ``func`` returned; raises what it raised."""
        if self.ok is None:
            raise RuntimeError("the file job is still running")
        if not self.ok:
            raise self.value
        return self.value

    def _end(self, ok: bool, value) -> None:
        if self.ok is not None:
            return
        self.ok, self.value = ok, value
        self._relay.blockSignals(True)  # a step still queued must not reach the closed dialog
        self._relay.deleteLater()
        dialog, self.dialog = self.dialog, None
        dialog.canceled.disconnect(self._cancel.set)
        dialog.reset()
        dialog.hide()
        dialog.deleteLater()
        result = None
        try:
            if self._then is not None:
                result = self._then(self)
            elif ok:
                result = value
            else:
                workers.report_error("A file job failed", value)
        finally:
            self.finish(result)

