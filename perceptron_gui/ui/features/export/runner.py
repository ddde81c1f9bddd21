"""Every export's one way to run: its steps as a :class:`~.job.StepsJob` behind a progress dialog.

:func:`start` stops the run moving (the export is made from the workspace as
it is now), opens the jobs' :func:`~..progress.progress_dialog`, which
shows once the export passes its minimum duration, and
drives the steps from the event loop, their heavy work in a worker
(:mod:`perceptron_gui.ui.workers`).  The dialog follows the job's progress
and closes when the job ends; Cancel ends the job at once and writes
nothing.  :func:`wait` drives a job to its end on the calling thread (scripts
and tests; the menus never wait).
"""

from __future__ import annotations

from typing import TYPE_CHECKING

from PySide6 import QtCore, QtWidgets

from ..progress import progress_dialog
from .job import StepsJob

if TYPE_CHECKING:
    from ...window_api import WindowAPI

__all__ = ["start", "wait"]


def start(window: WindowAPI, make_steps, *, title: str, name: str, minimum_ms: int = 300,
          parent: QtCore.QObject | None = None) -> tuple[StepsJob, QtWidgets.QProgressDialog]:
    """Start an export's steps with a progress dialog; returns the job and the dialog.

    Parameters
    ----------
    window : WindowAPI
        The window the dialog belongs to (its playback is stopped first).
    make_steps : callable
        ``make_steps(progress, cancelled)``, as :class:`StepsJob` takes it.
    title : str
        The dialog's title; its first label is ``title…``.
    name : str
        The dialog's objectName (tests and the stall benchmark find it by it).
    minimum_ms : int, default=300
        How long the export runs before the dialog shows.
    parent : QObject, optional
        The job's parent (default: the window).

    Returns
    -------
    (StepsJob, QProgressDialog)
        The job has started (at the next turn of the event loop); connect to
        its ``finished`` for the outcome.  The dialog is closed and deleted
        when the job ends.
    """
    window.playback.stop()
    dialog, bar = progress_dialog(window, f"{title}…", title=title, name=name,
                                  minimum_ms=minimum_ms)
    job = StepsJob(make_steps, should_stop=dialog.wasCanceled, parent=parent or window)
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


def wait(job: StepsJob):
    """Drive ``job`` to its end now (:meth:`StepsJob.run_here`); its result (None: cancelled
    or failed)."""
    return job.run_here() if job.running else job.result
