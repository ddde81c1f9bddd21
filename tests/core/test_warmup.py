"""The numba warm-up loads the compiled perceptron loop, without Qt and without raising."""

from __future__ import annotations

import gc
import os

import pytest

from perceptron_gui.core.learners import _scan, warmup


def test_warm_up_loads_the_compiled_loop():
    warmup.warm_up()
    if os.environ.get("PERCEPTRON_GUI_NO_JIT") or not _scan.compiled_available():
        pytest.skip("numba not available")
    assert _scan._compiled.signatures


def test_warm_up_restores_garbage_collection_and_swallows_failures(monkeypatch):
    def fail():
        assert not gc.isenabled()  # off while numba loads
        raise RuntimeError("no numba")

    monkeypatch.setattr(_scan, "compiled_available", fail)
    assert gc.isenabled()
    warmup.warm_up()  # a failed warm-up only means the first run loads the loop
    assert gc.isenabled()
