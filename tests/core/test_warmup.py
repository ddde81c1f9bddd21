"""The numba warm-up loads the compiled perceptron loop, without Qt and without raising."""

from __future__ import annotations

import gc
import os

import pytest

from perceptron_gui.core.learners import _scan, warmup


@pytest.fixture
def unfrozen():
    yield
    gc.unfreeze()  # the test process's objects go back to the collector


def test_warm_up_loads_the_compiled_loop(unfrozen):
    warmup.warm_up()
    if os.environ.get("PERCEPTRON_GUI_NO_JIT") or not _scan.compiled_available():
        pytest.skip("numba not available")
    assert _scan._compiled.signatures


def test_warm_up_restores_garbage_collection_and_swallows_failures(unfrozen, monkeypatch):
    def fail():
        assert not gc.isenabled()  # off while numba loads
        raise RuntimeError("no numba")

    monkeypatch.setattr(_scan, "compiled_available", fail)
    before = gc.isenabled()  # the suite collects between tests only (tests/conftest.py)
    try:
        for collecting in (True, False):
            (gc.enable if collecting else gc.disable)()
            warmup.warm_up()  # a failed warm-up only means the first run loads the loop
            assert gc.isenabled() == collecting  # as it was
    finally:
        (gc.enable if before else gc.disable)()


def test_warm_up_freezes_what_it_loaded(unfrozen, monkeypatch):
    # numba's objects live as long as the process: frozen, a later collection
    # does not walk them all at once (a UI stall while the warm-up ends)
    def load():
        load.kept = [[] for _ in range(1000)]

    monkeypatch.setattr(warmup, "_load_compiled_loop", load)
    gc.unfreeze()
    before = gc.isenabled()
    warmup.warm_up()
    assert gc.get_freeze_count() >= len(load.kept)
    assert gc.isenabled() == before


def test_warm_up_loads_the_compiled_sgd_loop(unfrozen):
    from perceptron_gui.core.learners import _sgd

    warmup.warm_up()
    if os.environ.get("PERCEPTRON_GUI_NO_JIT") or not _sgd.compiled_available():
        pytest.skip("numba not available")
    assert _sgd.loaded()
    assert len(_sgd._compiled.signatures) >= 2  # writable and read-only data
