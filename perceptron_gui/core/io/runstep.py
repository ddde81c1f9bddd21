"""Restoring a stored run position (``run.step``): within a time budget, cancellable.

A workspace file stores the run's cursor, not the run: opening it recomputes
the run up to that step (deterministic, so to the same bits).  A step too
costly to recompute opens at the start, ``Workspace.open_note`` saying why, so
the points and parameters of a file the program saved itself are never lost.
"""

from __future__ import annotations

import time

from ..workspace import Workspace
from .files import FormatError, report_progress

__all__ = ["RESTORE_SECONDS", "restore_seconds", "restore_step"]

#: Seconds of recomputing the run between two progress reports (and chances to cancel).
_SLICE_SECONDS = 0.05

#: A step whose estimate (:func:`restore_seconds`, an upper bound, often several
#: times the real cost) exceeds this is not recomputed; the run opens at its start.
RESTORE_SECONDS = 60.0
#: The estimate's costs, the slowest measured with the compiled scan (2 cores
#: shared by several processes): 26-110 ns a step on 10³-10⁶ non-separable
#: points, 10-30 µs an epoch's overhead (4 points: 2.5-7.5 µs a step), and
#: with a kernel at worst an update a step, 11 ns a point (54 µs an update at
#: 5,000 points, 108 µs at 10,000).
_STEP_SECONDS = 110e-9
_EPOCH_SECONDS = 30e-6
_KERNEL_POINT_SECONDS = 11e-9


def restore_seconds(step: int, n_points: int, kernel: bool) -> float:
    """Estimated seconds to recompute a run up to ``step`` on ``n_points`` (an upper bound)."""
    n = max(1, int(n_points))
    per_step = _STEP_SECONDS + (_KERNEL_POINT_SECONDS * n if kernel else 0.0)
    return float(step) * per_step + float(step) / n * _EPOCH_SECONDS


def _step_text(step: int) -> str:
    """A step number as people read it, short even for a huge one."""
    digits = str(step)
    return f"{step:,}" if len(digits) <= 16 else f"{digits[0]}.{digits[1:3]}e{len(digits) - 1}"


def restore_step(workspace: Workspace, learner: str, step: int, progress) -> None:
    """Recompute the run of ``workspace`` up to ``step``, or leave it at the start.

    ``progress`` gets fractions from 0.9 to 1 after each slice; a step that
    cannot be reached is a FormatError.
    """
    if not workspace.running:
        raise FormatError(
            f"run.step: step {_step_text(step)} but no run is possible: {workspace.problem}"
            if workspace.problem
            else f"run.step: step {_step_text(step)} but {learner!r} does not step"
        )
    n = workspace.dataset.n
    longest = workspace.params["max_iter"] * n
    if step > longest:
        raise FormatError(
            f"run.step: step {_step_text(step)} is beyond the longest possible run "
            f"(max_iter × points = {_step_text(longest)})"
        )
    seconds = restore_seconds(step, n, workspace.capabilities.nonlinear_kernel)
    if seconds > RESTORE_SECONDS:
        workspace.open_note = (
            f"The run opens at its start: its stored position, step {_step_text(step)} on "
            f"{n:,} points, could take up to {_duration(seconds)} to recompute (the limit "
            f"is {RESTORE_SECONDS:.0f} s). Run to end or the timeline go on from there."
        )
        return
    while workspace.step_count < step:
        deadline = time.perf_counter() + _SLICE_SECONDS
        if not workspace.advance(step - workspace.step_count, deadline=deadline):
            break
        report_progress(progress, 0.9 + 0.1 * workspace.step_count / step)
    if workspace.step_count != step:
        raise FormatError(
            f"run.step: the run ends at step {workspace.step_count:,}, "
            f"before step {_step_text(step)}"
        )


def _duration(seconds: float) -> str:
    if seconds < 120:
        return f"{seconds:.0f} s"
    if seconds < 7200:
        return f"{seconds / 60:.0f} min"
    if seconds < 2 * 86400:
        return f"{seconds / 3600:.0f} h"
    days = seconds / 86400
    return f"{days:,.0f} days" if days < 1e6 else "over a million days"
