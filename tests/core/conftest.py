"""Fixtures shared by the core's tests: each scan backend in turn."""

from __future__ import annotations

import pytest

from perceptron_gui.core.learners import _scan


@pytest.fixture(params=["numpy", "compiled"])
def backend(request, monkeypatch):
    """Run a test with each scan backend forced (numpy, then numba's compiled loop)."""
    if request.param == "compiled" and not _scan.compiled_available():
        pytest.skip("numba not available")
    monkeypatch.setattr(_scan, "FORCE", request.param)
    return request.param
