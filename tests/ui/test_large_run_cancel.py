"""Cancel of the dual RBF run to the end at 10⁶ points gives control back at once.

Each update of a kernel run costs O(n) (one kernel row of 10⁶ values), so the
run to the end works through slices that stop at their deadline between two
updates.  Cancel is measured as a user feels it: from the moment it is
triggered to the moment the event loop runs a 5 ms timer again.  What is left
is the run paused at a consistent step: the same run, step for step, as a
fresh learner computes up to there, with the readouts of that step.
"""

from __future__ import annotations

import time

import numpy as np
import pytest
from PySide6 import QtCore

from perceptron_gui.core import Dataset
from perceptron_gui.core.dataset import ReplaceAll
from perceptron_gui.core.learners import DualPerceptron

# timing-sensitive: run alone, after the parallel part (Makefile)
pytestmark = [pytest.mark.serial, pytest.mark.slow]

N = 1_000_000
MAX_CANCEL_S = 0.100


def large_data() -> Dataset:
    rng = np.random.default_rng(7)
    X = rng.normal(size=(N, 2)) * 3.0
    y = np.where(X[:, 0] + 0.5 * X[:, 1] > 0.3, 1, -1)
    return Dataset(X, y)


def test_cancel_of_a_dual_rbf_run_at_a_million_points(qtbot, window):
    ws = window.workspace
    window.push_edit(ReplaceAll.from_dataset(large_data()))
    ws.set_learner("dual")
    ws.set_params(kernel="rbf", gamma=0.5)
    qtbot.waitUntil(lambda: not window.theory_worker.busy, timeout=60_000)
    qtbot.wait(300)  # the first repaints of 10⁶ points
    ticks: list[float] = []
    timer = QtCore.QTimer(interval=5)
    timer.setTimerType(QtCore.Qt.TimerType.PreciseTimer)
    timer.timeout.connect(lambda: ticks.append(time.perf_counter()))
    timer.start()
    window.actionRunToEnd.trigger()
    assert window.playback.running_to_end and window.playback.progress.isVisible()
    qtbot.waitUntil(lambda: ws.step_count > 0 and ws.learner.n_updates_ >= 3, timeout=60_000)
    qtbot.wait(500)  # well into the run
    pressed = []

    def cancel():
        pressed.append(time.perf_counter())
        window.actionCancel.trigger()

    QtCore.QTimer.singleShot(0, cancel)
    qtbot.waitUntil(lambda: bool(pressed) and ticks[-1] > pressed[0], timeout=60_000)
    timer.stop()
    after = next(t for t in ticks if t > pressed[0]) - pressed[0]
    assert after < MAX_CANCEL_S, f"control came back {after * 1000:.0f} ms after Cancel"
    assert not window.playback.running_to_end and not window.playback.progress.isVisible()
    assert window.actionStep.isEnabled()

    # the run is paused at a consistent step: the one a fresh learner reaches
    learner, steps = ws.learner, ws.step_count
    assert not learner.finished and 0 < steps <= learner.frontier
    p = ws.params
    fresh = DualPerceptron(kernel="rbf", gamma=0.5, max_iter=p["max_iter"]).start(
        ws.dataset.X, ws.dataset.y)
    fresh.advance(steps)
    assert fresh.step_count == steps and fresh.n_updates_ == learner.n_updates_
    np.testing.assert_array_equal(fresh.update_log.rows().index, learner.update_log.rows().index[
        :learner.n_updates_])
    np.testing.assert_array_equal(fresh.alpha_, learner.alpha_)
    np.testing.assert_array_equal(fresh.training_margins(), ws.training_margins())
    r = ws.readouts()
    assert (r.k, r.epoch, r.position) == (learner.n_updates_, 1, steps)
    assert r.training_error == np.mean(~(fresh.training_margins() > 0))
    window.actionStep.trigger()  # and it goes on from there
    assert ws.step_count > steps
