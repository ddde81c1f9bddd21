"""The scale benchmark still runs and its window run equals the core's (no timings asserted)."""

import importlib.util
from pathlib import Path

from PySide6 import QtGui

BENCH = Path(__file__).resolve().parents[1] / "benchmarks" / "bench_scale.py"


def _exposed() -> set[int]:
    """The top-level windows on the screen: offscreen, the pointer's moves go to the first
    one under it, whichever test it belongs to."""
    return {int(w.winId()) for w in QtGui.QGuiApplication.topLevelWindows() if w.isExposed()}


def test_bench_scale_quick(qtbot):
    spec = importlib.util.spec_from_file_location("bench_scale", BENCH)
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    before = _exposed()
    result = module.run(quick=True)
    assert result["updates"] > 0 and result["ratio"] > 0
    assert set(result["ratios"]) == {"window run to end / core fit (10⁵ points)"}
    # its window (unsaved points) closed without a question left open over it
    assert _exposed() <= before
