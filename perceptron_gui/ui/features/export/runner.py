"""Every export's one way to run: its steps as a :class:`~.job.StepsJob` behind a progress dialog.

The run stops first: the export is made from the workspace as it is now.
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
    """Start an export's steps at the next turn of the event loop, with a progress dialog
    (``name``: the stall benchmark finds it) deleted when the job ends."""
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
    """Drive ``job`` to its end now (scripts and tests); its result, None when cancelled or
    failed."""
    return job.result if job.done else job.run_here()
