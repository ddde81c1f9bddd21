"""The data exports: the update log as CSV or LaTeX, the points as CSV, written in a worker.

The worker writes the core's blocks, reporting rows after each and stopping
at the next once Cancel was pressed.  What is exported is fixed when the
export starts (:func:`frozen_run`), so the window's run may move on.
"""

from __future__ import annotations

import os
import pickle
from typing import TYPE_CHECKING

from ....core.text import fmt_count, plural
from ....core.workspace import Workspace
from . import runner
from .job import Offload, StepsJob

if TYPE_CHECKING:
    from ...window_api import WindowAPI

__all__ = ["TableExport", "frozen_run", "log_csv_steps", "log_latex_steps", "points_csv_steps"]


def frozen_run(source):
    """A callable returning a copy of the run of ``source`` (a workspace or a started learner).

    The learner's update log and caches change (a replay fills a cache, the run
    appends and thins): a worker must not share them with the UI thread.  Pickled
    now (caches left out; about 20 ms for an 85 MB log), unpickled where called.
    """
    if isinstance(source, Workspace):
        if not source.running:
            return lambda: source
        source = source.learner
    data = pickle.dumps(source, protocol=pickle.HIGHEST_PROTOCOL)
    return lambda: pickle.loads(data)


def _written(path: str, blocks, progress, what: str) -> int:
    """In the worker: write ``blocks`` to ``path``, reporting rows of ``what``; rows written."""
    from ....core import report

    def report_rows(done: int, total: int) -> bool:
        return progress(done, total, f"Writing {fmt_count(done)} of {plural(total, what)}…")

    return report.write_blocks(path, blocks, report_rows)


def log_csv_steps(source, path, *, start: int = 0, stop: int | None = None):
    """The steps of an export of the update log of ``source`` to CSV (the rows fixed now)."""
    from ....core import report

    return _log_steps(report.csv_blocks, source, path, start, stop)


def log_latex_steps(source, path, *, start: int = 0, stop: int | None = None):
    """The steps of an export of updates ``start + 1`` to ``stop`` as a LaTeX table (more
    rows than :data:`~perceptron_gui.core.report_latex.LATEX_MAX_ROWS`: ValueError now)."""
    from ....core import report_latex

    return _log_steps(report_latex.latex_blocks, source, path, start, stop)


def _log_steps(make_blocks, source, path, start: int, stop: int | None):
    """The steps writing ``make_blocks(run, start=, stop=)`` of a frozen copy of the run."""
    make_blocks(source, start=start, stop=stop)  # what it refuses, it refuses now
    thaw = frozen_run(source)
    path = os.fspath(path)

    def write(progress):
        return _written(path, make_blocks(thaw(), start=start, stop=stop), progress, "update")

    def make_steps(progress, _cancelled):
        return (yield Offload(write, progress))

    return make_steps


def points_csv_steps(dataset, path):
    """The steps of an export of ``dataset`` to CSV; an empty one raises ValueError at once."""
    from ....core import io

    if dataset.n == 0:  # as write_csv says it, but now, not in the worker
        raise ValueError("the data set is empty: there is nothing to write")
    path = os.fspath(path)

    def write(progress):
        def report_points(fraction: float) -> bool:
            done = round(fraction * dataset.n)
            return progress(done, dataset.n,
                            f"Writing {fmt_count(done)} of {plural(dataset.n, 'point')}…")

        io.write_csv(dataset, path, progress=report_points)
        return dataset.n

    def make_steps(progress, _cancelled):
        return (yield Offload(write, progress))

    return make_steps


class TableExport:
    """One data export under way in a window, and what the window says at its end:
    ``done_text(rows)`` after a success, ``fail(reason)`` shows why nothing was written."""

    def __init__(self, window: WindowAPI, make_steps, *, title: str, path: str, done_text, fail):
        existed = os.path.exists(path)
        self.job: StepsJob
        self.job, self.dialog = runner.start(window, make_steps, title=title,
                                             name="tableExportProgress")

        def finished(result):
            error = self.job.error
            if error is not None:
                fail((error.strerror if isinstance(error, OSError) else None) or error)
            elif self.job.cancelled:
                kept = "the file on disk is unchanged" if existed else "nothing was written"
                window.show_message(f"{title}: cancelled; {kept}.")
            else:
                window.show_message(done_text(result))

        self.job.finished.connect(finished)

    @property
    def running(self) -> bool:
        """True until the export ended, failed or was cancelled."""
        return not self.job.done

    def wait(self) -> bool:
        """Drive the export to its end now; True when the file was written."""
        return runner.wait(self.job) is not None
