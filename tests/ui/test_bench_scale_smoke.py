"""The scale benchmark still runs and its window run equals the core's (no timings asserted)."""

import importlib.util
from pathlib import Path

BENCH = Path(__file__).resolve().parents[1] / "benchmarks" / "bench_scale.py"


def test_bench_scale_quick(qtbot):
    spec = importlib.util.spec_from_file_location("bench_scale", BENCH)
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    result = module.run(quick=True)
    assert result["updates"] > 0 and result["ratio"] > 0
    assert set(result["ratios"]) == {"window run to end / core fit (10⁵ points)"}
