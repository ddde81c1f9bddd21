"""workers.start: work off the UI thread, with the GIL handed back to it often."""

from __future__ import annotations

import sys
import threading

from perceptron_gui.ui import workers


def _no_worker_running(qtbot) -> float:
    """Wait for the workers of earlier tests to end; the switch interval then."""
    qtbot.waitUntil(lambda: workers.running() == 0, timeout=30_000)
    return sys.getswitchinterval()


def test_the_gil_switches_often_while_a_worker_runs_and_as_before_after(qtbot):
    before = _no_worker_running(qtbot)
    seen, gate = [], threading.Event()

    def job():
        seen.append(sys.getswitchinterval())
        gate.wait(10)
        return 7

    got = []
    workers.start(job, returned=got.append)
    try:
        qtbot.waitUntil(lambda: bool(seen), timeout=5_000)
        assert seen == [workers.SWITCH_INTERVAL_S] and sys.getswitchinterval() == seen[0]
    finally:
        gate.set()
    qtbot.waitUntil(lambda: got == [7], timeout=5_000)
    qtbot.waitUntil(lambda: workers.running() == 0, timeout=5_000)
    assert sys.getswitchinterval() == before


def test_a_generator_worker_still_yields_returns_and_stops_on_quit(qtbot):
    before = _no_worker_running(qtbot)

    def count(n):
        yield from range(n)
        return "done"

    yielded, returned = [], []
    workers.start(count, 3, yielded=yielded.append, returned=returned.append)
    qtbot.waitUntil(lambda: returned == ["done"], timeout=5_000)
    assert yielded == [0, 1, 2]

    running, finished = threading.Event(), []

    def endless():
        while True:
            running.set()
            yield

    worker = workers.start(endless, finished=lambda: finished.append(True))
    qtbot.waitUntil(running.is_set, timeout=5_000)
    worker.quit()  # stops it at its next yield
    qtbot.waitUntil(lambda: finished == [True], timeout=5_000)
    qtbot.waitUntil(lambda: workers.running() == 0, timeout=5_000)
    assert sys.getswitchinterval() == before


def test_workers_started_where_no_event_loop_runs_are_all_counted_out(qtbot):
    # Outside an event loop a worker starts at once, and can end before the UI
    # thread has done anything more: the count must not depend on that race.
    before = _no_worker_running(qtbot)
    returned = []
    for _ in range(200):
        workers.start(lambda: 1, returned=returned.append)
    qtbot.waitUntil(lambda: len(returned) == 200, timeout=10_000)
    qtbot.waitUntil(lambda: workers.running() == 0, timeout=5_000)
    assert sys.getswitchinterval() == before


def test_a_runtime_error_reaches_errored_and_the_worker_finishes(qtbot):
    before = _no_worker_running(qtbot)

    def fails():
        yield 1
        raise NotImplementedError("not for this learner")  # a RuntimeError

    errors, finished = [], []
    workers.start(fails, errored=errors.append, finished=lambda: finished.append(True))
    qtbot.waitUntil(lambda: finished == [True], timeout=5_000)
    assert [str(error) for error in errors] == ["not for this learner"]
    assert isinstance(errors[0], NotImplementedError)
    qtbot.waitUntil(lambda: workers.running() == 0, timeout=5_000)
    assert sys.getswitchinterval() == before
