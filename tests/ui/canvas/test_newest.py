"""NewestJob: one worker at a time, only the newest request drawn, older results dropped."""

from __future__ import annotations

import threading

from perceptron_gui.ui.widgets.canvas.newest import NewestJob


def _square_after(gate, x):
    gate.wait(10)
    return x * x


def _job(gates):
    def job(request):
        gate = gates.setdefault(request, threading.Event())
        return _square_after, (gate, request)
    return job


def test_a_request_made_while_one_runs_replaces_the_waiting_one(qtbot):
    gates, drawn, stale = {}, [], []
    job = NewestJob(_job(gates), lambda r, out: drawn.append((r, out)), lambda: True,
                    stale=lambda r, out: stale.append((r, out)))
    job.request(1)  # starts at once
    job.request(2)  # waits ...
    job.request(3)  # ... and is replaced
    assert job.pending and set(gates) == {1}
    gates[1].set()
    qtbot.waitUntil(lambda: 3 in gates, timeout=5_000)  # 1 ended: the newest, 3, starts
    assert stale == [(1, 1)] and drawn == [] and 2 not in gates
    gates[3].set()
    qtbot.waitUntil(lambda: drawn == [(3, 9)], timeout=5_000)
    assert not job.pending


def test_finish_draws_the_newest_now_and_drops_the_workers_result(qtbot):
    gates, drawn = {}, []
    job = NewestJob(_job(gates), lambda r, out: drawn.append((r, out)), lambda: True)
    job.request(4)
    gates[5] = threading.Event()
    gates[5].set()  # computed here, without waiting
    job.request(5, now=True)
    assert drawn == [(5, 25)] and not job.pending
    gates[4].set()
    qtbot.waitUntil(lambda: not job.busy, timeout=5_000)
    assert drawn == [(5, 25)]  # 4's result came after: not drawn


def test_nothing_is_drawn_once_the_layer_is_gone(qtbot):
    gates, drawn, alive = {}, [], [True]
    job = NewestJob(_job(gates), lambda r, out: drawn.append((r, out)), lambda: alive[0])
    job.request(6)
    alive[0] = False
    gates[6].set()
    qtbot.waitUntil(lambda: not job.busy, timeout=5_000)
    assert drawn == []
