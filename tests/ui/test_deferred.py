"""YieldingTimer: deferred jobs that cost milliseconds never run back to back in one pass."""

from __future__ import annotations

import time

from PySide6 import QtCore

from perceptron_gui.ui.deferred import COSTLY_SECONDS, YieldingTimer

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
    probe = QtCore.QTimer(owner, interval=5)
    probe.timeout.connect(lambda: log.append("tick"))
    probe.start()
    qtbot.waitUntil(lambda: "tick" in log)
    log.clear()
    for job in jobs:
        job.start()
    qtbot.waitUntil(lambda: "b" in log, timeout=5_000)
    assert log[:2] == ["a", "b"]  # nothing costly ran: neither waited for a pass


def test_start_takes_a_delay_as_qtimer_does(qtbot):
    owner, log = QtCore.QObject(), []
    timer = YieldingTimer(owner, lambda: log.append(time.perf_counter()), interval_ms=1_000)
    timer.start()
    assert timer.isActive() and timer.remainingTime() > 500
    started = time.perf_counter()
    timer.start(20)  # restarts, with this delay
    qtbot.waitUntil(lambda: bool(log), timeout=5_000)
    assert log[0] - started >= 0.015 and not timer.isActive()
