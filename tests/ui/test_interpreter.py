"""The interpreter policies: garbage collection by a timer on the UI thread, by Python's
thresholds."""

from __future__ import annotations

import gc
import weakref

import pytest

from perceptron_gui.ui import interpreter as collector


class _Node:
    """An object in a reference cycle: only a collection frees it."""

    def __init__(self):
        self.me = self


@pytest.fixture
def running(qapp):
    before = gc.isenabled()
    assert collector.start()
    yield
    collector.stop()
    (gc.enable if before else gc.disable)()


def test_the_timer_collects_a_cycle_and_automatic_collection_stays_off(running, qtbot):
    assert collector.active() and not gc.isenabled()
    node = _Node()
    gone = weakref.ref(node)
    del node
    churn = [[i] for i in range(5 * gc.get_threshold()[0])]  # past the youngest threshold
    qtbot.waitUntil(lambda: gone() is None, timeout=5_000)
    assert churn and not gc.isenabled()


def test_nothing_is_collected_below_the_threshold(running):
    # a threshold far above what another thread (a warm-up) may allocate meanwhile
    thresholds = gc.get_threshold()
    gc.set_threshold(200_000, *thresholds[1:])
    try:
        gc.collect()
        node = _Node()
        gone = weakref.ref(node)
        del node
        assert gc.get_count()[0] <= 200_000
        assert collector.collect_due() == 0 and gone() is not None
        churn = [[i] for i in range(400_000)]
        assert collector.collect_due() >= 1 and gone() is None
        assert churn
    finally:
        gc.set_threshold(*thresholds)


def test_stop_turns_automatic_collection_back_on(qapp):
    before = gc.isenabled()
    try:
        assert collector.start() and collector.start()  # a second start does nothing more
        collector.stop()
        assert gc.isenabled() and not collector.active()
    finally:
        (gc.enable if before else gc.disable)()
