"""YieldingTimer: deferred jobs that cost milliseconds never run back to back in one pass."""

from __future__ import annotations

import time

import pytest
from PySide6 import QtCore

from perceptron_gui.ui.deferred import COSTLY_SECONDS, YieldingTimer

# timing-sensitive: run alone, after the parallel part (Makefile)
pytestmark = pytest.mark.serial

COSTLY_MS = 10 * COSTLY_SECONDS * 1000


def busy(ms: float) -> None:
    """Hold the UI thread for *ms* milliseconds, as a redraw or a run's slice does."""
    end = time.perf_counter() + ms / 1000
    while time.perf_counter() < end:
        pass


def test_costly_jobs_due_together_let_a_waiting_timer_tick_between_them(qtbot):
    owner, log = QtCore.QObject(), []
    probe = QtCore.QTimer(owner, interval=5)
    probe.setTimerType(QtCore.Qt.PreciseTimer)
    probe.timeout.connect(lambda: log.append("tick"))
    jobs = [YieldingTimer(owner, lambda k=k: (log.append(k), busy(COSTLY_MS))) for k in "abc"]
    probe.start()
    qtbot.waitUntil(lambda: "tick" in log)
    log.clear()
    for job in jobs:
        job.start()
    qtbot.waitUntil(lambda: "c" in log, timeout=5_000)
    probe.stop()
    assert [e for e in log if e != "tick"] == ["a", "b", "c"]  # in the order they came due
    a, b, c = (log.index(k) for k in "abc")
    assert "tick" in log[a:b] and "tick" in log[b:c]


def test_a_job_put_off_goes_before_one_that_restarts_itself(qtbot):
    # a run to the end restarts its slice after each one: a redraw put off
    # behind a slice must not wait for the whole run
    owner, log = QtCore.QObject(), []

    def run_slice():
        log.append("slice")
        busy(COSTLY_MS)
        if log.count("slice") < 10:
            slices.start()

    slices = YieldingTimer(owner, run_slice)
    redraw = YieldingTimer(owner, lambda: (log.append("redraw"), busy(COSTLY_MS)))
    slices.start()
    redraw.start()
    qtbot.waitUntil(lambda: log.count("slice") == 10, timeout=5_000)
    assert log.index("redraw") == 1 and log.count("redraw") == 1


def test_a_job_in_line_stays_active_and_stop_takes_it_out(qtbot):
    owner, log = QtCore.QObject(), []
    costly = YieldingTimer(owner, lambda: (log.append("costly"), busy(COSTLY_MS)))
    waiting = YieldingTimer(owner, lambda: log.append("waiting"))
    later = YieldingTimer(owner, lambda: log.append("later"))

    def look():  # a plain timer, due after both: the second one is in line by now
        log.append(waiting.isActive())
        waiting.stop()
        log.append(waiting.isActive())
        later.start()

    looker = QtCore.QTimer(owner, singleShot=True, interval=0)
    looker.timeout.connect(look)
    costly.start()
    waiting.start()
    looker.start()
    qtbot.waitUntil(lambda: "later" in log, timeout=5_000)
    assert log == ["costly", True, False, "later"]


def test_cheap_jobs_are_not_put_off(qtbot):
    owner, log = QtCore.QObject(), []
    jobs = [YieldingTimer(owner, lambda k=k: log.append(k)) for k in "ab"]
    after = QtCore.QTimer(owner, singleShot=True, interval=0)  # due right after them
    after.timeout.connect(lambda: log.append("after"))
    for job in jobs:
        job.start()
    after.start()
    qtbot.waitUntil(lambda: len(log) == 3, timeout=5_000)
    assert log == ["a", "b", "after"]  # a job put off would come after "after"


def test_a_costly_job_is_put_off_behind_a_plain_timer_due_after_it(qtbot):
    owner, log = QtCore.QObject(), []
    jobs = [YieldingTimer(owner, lambda k=k: (log.append(k), busy(COSTLY_MS))) for k in "ab"]
    after = QtCore.QTimer(owner, singleShot=True, interval=0)
    after.timeout.connect(lambda: log.append("after"))
    for job in jobs:
        job.start()
    after.start()
    qtbot.waitUntil(lambda: len(log) == 3, timeout=5_000)
    assert log == ["a", "after", "b"]


def test_a_job_may_start_its_own_timer_again(qtbot):
    owner, log = QtCore.QObject(), []

    def job():
        log.append(timer.isActive())
        if len(log) < 3:
            timer.start()  # a refresh asked for while the last one runs is not lost

    first = YieldingTimer(owner, lambda: busy(COSTLY_MS))
    timer = YieldingTimer(owner, job)
    first.start()
    timer.start()  # put off behind the costly first job: it runs from the line
    qtbot.waitUntil(lambda: len(log) == 3, timeout=5_000)
    assert log == [False, False, False] and not timer.isActive()


def test_a_job_in_a_nested_event_loop_runs_once(qtbot):
    # a job that opens a modal dialog (an error message) runs an event loop of its
    # own; jobs put off meanwhile start again at the end of a pass, not this one
    owner, log = QtCore.QObject(), []

    def modal():
        log.append("modal")
        loop = QtCore.QEventLoop()
        QtCore.QTimer.singleShot(100, loop.quit)
        loop.exec()

    first = YieldingTimer(owner, lambda: busy(COSTLY_MS))
    outer = YieldingTimer(owner, modal)
    others = [YieldingTimer(owner, lambda k=k: (log.append(k), busy(COSTLY_MS))) for k in "bc"]
    first.start()
    outer.start()  # put off behind the costly first job: it runs from the line
    for other in others:
        other.start()
    qtbot.waitUntil(lambda: "b" in log and "c" in log, timeout=5_000)
    qtbot.waitUntil(lambda: not outer.isActive())
    assert log.count("modal") == 1 and sorted(log) == ["b", "c", "modal"]


def test_start_takes_a_delay_as_qtimer_does(qtbot):
    owner, log = QtCore.QObject(), []
    timer = YieldingTimer(owner, lambda: log.append(time.perf_counter()), interval_ms=1_000)
    timer.start()
    assert timer.isActive() and timer.remainingTime() > 500
    started = time.perf_counter()
    timer.start(20)  # restarts, with this delay
    qtbot.waitUntil(lambda: bool(log), timeout=5_000)
    assert log[0] - started >= 0.015 and not timer.isActive()
