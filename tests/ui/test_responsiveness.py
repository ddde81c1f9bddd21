"""The UI thread never blocks for more than 50 ms while a 10⁵-point run goes to the end.

A 5 ms timer records when it fires; the longest gap between two firings while
"run to end" works through its slices is the longest stall a user would feel.
The run is measured up to three times from scratch (a fresh run each time, not
a replay): a stall caused by our code shows in every attempt, while a pause
caused by another process on a shared machine does not, so the test passes on
the first attempt under the limit.  On a machine so loaded that every attempt
is paused by others, the gaps are also measured in the UI thread's own CPU
time (``time.thread_time``), which other processes do not add to: then the
work our code did between two firings must stay under the limit in every
attempt.
"""

from __future__ import annotations

import time

import numpy as np
import pytest
from PySide6 import QtCore

from perceptron_gui.core import generators
from perceptron_gui.core.dataset import ReplaceAll
from perceptron_gui.core.learners import _scan

# timing-sensitive: run alone, after the parallel part (Makefile)
pytestmark = pytest.mark.serial

MAX_STALL_S = 0.050
ATTEMPTS = 3


def _measure(qtbot, window) -> tuple[float, float, float]:
    """The longest and median wall-clock gaps, and the longest in UI-thread CPU time."""
    ws = window.workspace
    ticks, cpu = [], []
    timer = QtCore.QTimer()
    timer.setInterval(5)
    timer.timeout.connect(lambda: (ticks.append(time.perf_counter()),
                                   cpu.append(time.thread_time())))
    timer.start()
    qtbot.waitUntil(lambda: len(ticks) >= 3)
    window.actionRunToEnd.trigger()
    qtbot.waitUntil(lambda: ws.finished, timeout=120_000)
    end = len(ticks)
    qtbot.waitUntil(lambda: len(ticks) >= end + 20, timeout=30_000)  # the repaints after it
    timer.stop()
    gaps = np.diff(ticks)
    return float(gaps.max()), float(np.median(gaps)), float(np.diff(cpu).max())


def test_run_to_end_on_100k_points_keeps_the_ui_responsive(qtbot, window):
    data = generators.separable(100_000, seed=2, margin=0.0005, noise=1.0)
    window.push_edit(ReplaceAll.from_dataset(data))
    window.canvas.fit_view()
    _scan.compiled_available()  # the window warms numba after start-up; do it here too
    # let start-up's idle work (the plots are built after the first show) and the
    # one-off redraw of 10⁵ markers finish: this measures the run, not start-up
    qtbot.wait(800)
    ws = window.workspace
    results = []
    for attempt in range(ATTEMPTS):
        if attempt:
            ws.set_params(max_iter=1000 - attempt)  # a fresh run, not a replay
            qtbot.wait(300)
        longest, median, busy = _measure(qtbot, window)
        results.append((longest, median, busy))
        assert ws.learner.converged_ and ws.learner.n_updates_ > 1000
        print(f"\nattempt {attempt + 1}: {ws.learner.n_updates_} updates in "
              f"{ws.learner.n_epochs_} epochs; longest gap {longest * 1000:.1f} ms, "
              f"median {median * 1000:.1f} ms, longest UI-thread CPU {busy * 1000:.1f} ms")
        if longest < MAX_STALL_S:
            break
    # an attempt under the limit; or, every attempt paused by a loaded machine, our own
    # work between two firings under the limit in every attempt
    assert (min(r[0] for r in results) < MAX_STALL_S
            or max(r[2] for r in results) < MAX_STALL_S), results
