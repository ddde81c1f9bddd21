"""Smoke test of ``tests/benchmarks/bench_window.py``: it runs in quick mode and checks.

Timings are not asserted (speed is measured, not asserted); only the shape of
the result and the checks the benchmark makes along the way.
"""

from __future__ import annotations

import importlib.util
import json
from concurrent.futures import ThreadPoolExecutor
from pathlib import Path

import pytest

BENCH = Path(__file__).resolve().parents[1] / "benchmarks" / "bench_window.py"


@pytest.fixture(scope="module")
def bench():
    spec = importlib.util.spec_from_file_location("_smoke_bench_window", BENCH)
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    return module


def test_quick_run_reports_every_ratio(qapp, bench):
    # the launches and the stall probe are other processes, mostly waited for here:
    # they run while this one measures the frames and the edit
    with ThreadPoolExecutor(1) as pool:
        apart = pool.submit(bench.run, quick=True, parts=("launch", "stalls"))
        r = bench.run(quick=True, parts=("frames", "edit"))
        other = apart.result()
    r.update(launch=other["launch"], stalls=other["stalls"],
             ratios={**r["ratios"], **other["ratios"]})
    json.dumps(r)  # JSON-ready
    assert [f["n"] for f in r["frames"]] == [100, 1_000]
    assert [f["n"] for f in r["frames_all_layers"]] == [100]
    assert [f["n"] for f in r["frames_updates"]] == [100]
    for f in r["frames"] + r["frames_all_layers"] + r["frames_updates"]:
        assert f["canvas"]["best_s"] > 0 and f["reference"]["best_s"] > 0
        assert f["ratio"] == f["canvas"]["best_s"] / f["reference"]["best_s"]
        assert set(f["canvas_parts_median_s"]) == {"step", "redraw", "paint"}
        assert f["block"] == bench.BLOCK_QUICK  # a smoke test: blocks of a few frames
    e = r["edit"]
    assert e["n"] == 1_000 and e["lda_fitted"] and e["max_margin_separable"]
    la = r["launch"]
    assert 0 < la["reference_shown"]["best_s"] < la["reference_process"]["best_s"]
    assert 0 < la["app_shown"]["best_s"] < la["app_process"]["best_s"]
    assert 0 < la["app_cpu"]["best_s"] and 0 < la["reference_cpu"]["best_s"]
    st = r["stalls"]
    assert st["idle"]["n"] == 1 and st["warm_up_duration"]["best_s"] > 0
    assert st["warm_up"]["best_s"] >= 0.004  # at least one timer interval
    assert (st["idle_s"], st["settle_s"]) == (bench.IDLE_S_QUICK, bench.SETTLE_S_QUICK)
    goals = {label: x["goal"] for label, x in r["ratios"].items()}
    assert len(goals) == 2 + 1 + 1 + 2 + 3 + 1
    assert sorted(g for g in goals.values() if g is not None) == [1.2, 1.25, 1.25, 1.25, 1.5]
    text = bench.format_table(r)
    assert "Launch to shown" in text and "Add one point" in text
    assert "during the warm-up" in text and f"idle ({bench.IDLE_S_QUICK:g} s" in text


def test_a_frame_touching_the_scatters_fails(qapp, bench, monkeypatch):
    # a redraw that re-sets the per-class scatters is what the benchmark forbids
    def redraw(self):  # what a canvas that re-set its scatters every frame would do
        scatter_pos = self.canvas.layer("data").items["scatter_0"]
        scatter_pos.setData(pos=self.ws.dataset.X[self.ws.dataset.y == 1])
        self.canvas.refresh()

    monkeypatch.setattr(bench.CanvasRig, "redraw", redraw)
    with pytest.raises(AssertionError, match="setData"):
        bench.measure_frames(100, repeat=1)


def test_a_wrong_boundary_fails(qapp, bench):
    rig = bench.CanvasRig(100)
    try:
        rig.restart()
        rig.frame()
        rig.check()
        boundary = rig.canvas.layer("boundary").items["boundary"]
        xs, ys = boundary.getData()
        boundary.setData(xs + 1.0, ys)
        with pytest.raises(AssertionError, match="boundary"):
            rig.check()
    finally:
        rig.close()
