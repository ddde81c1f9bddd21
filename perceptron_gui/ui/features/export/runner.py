"""Every export's one way to run: its steps as a :class:`~.job.Job` behind a progress dialog.

:func:`start` stops the run moving (the export is made from the workspace as
it is now), opens a window-modal :class:`QtWidgets.QProgressDialog` with a
Cancel button, which shows once the export passes its minimum duration, and
drives the steps from the event loop, their heavy work in a worker
(:mod:`perceptron_gui.ui.workers`).  The dialog follows the job's progress
and closes when the job ends; Cancel ends the job at once and writes
nothing.  :func:`wait` drives a job to its end on the calling thread (scripts
and tests; the menus never wait).
"""

from __future__ import annotations

from typing import TYPE_CHECKING

from PySide6 import QtCore, QtWidgets

from ..progress import fit_title
from .job import Job

if TYPE_CHECKING:
    from ...window_api import WindowAPI

__all__ = ["start", "wait"]


def start(window: WindowAPI, make_steps, *, title: str, name: str, minimum_ms: int = 300,
          parent: QtCore.QObject | None = None) -> tuple[Job, QtWidgets.QProgressDialog]:
    """Start an export's steps with a progress dialog; returns the job and the dialog.

    ``name`` is the dialog's objectName (the stall benchmark finds it by it);
    it shows after ``minimum_ms``. The job starts at the next turn of the event
    loop (its ``finished`` gives the outcome); the dialog is deleted when the
    job ends.
    """
    window.playback.stop()
    dialog = QtWidgets.QProgressDialog(f"{title}…", "Cancel", 0, 0, window)
    dialog.setObjectName(name)
    dialog.setWindowTitle(title)
    fit_title(dialog)
    dialog.setWindowModality(QtCore.Qt.WindowModality.WindowModal)
    dialog.setMinimumDuration(max(0, int(minimum_ms)))
    dialog.setAutoClose(False)
    dialog.setAutoReset(False)
    bar = QtWidgets.QProgressBar(dialog)
    dialog.setBar(bar)
    dialog.setValue(0)  # starts the dialog's timer: it shows after the minimum duration
    # later values go to the bar itself: QProgressDialog.setValue of a shown modal
    # dialog runs a pass of the event loop inside it, which would re-enter the job
    job = Job(make_steps, should_stop=dialog.wasCanceled, parent=parent or window)
    dialog.canceled.connect(job.cancel)

    def progressed(done, total, text):
        if text:
            dialog.setLabelText(text)
        bar.setRange(0, total)
        bar.setValue(done)

    def finished(_result):
        dialog.close()
        dialog.deleteLater()

    job.progressed.connect(progressed)
    job.finished.connect(finished)
    job.start()
    return job, dialog


def wait(job: Job):
    """Drive ``job`` to its end now (:meth:`Job.run_here`); its result (None: cancelled
    or failed)."""
    return job.run_here() if job.running else job.result
