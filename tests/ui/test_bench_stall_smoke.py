"""Smoke test of ``tests/benchmarks/bench_stall.py``: it runs in quick mode and measures.

Timings are not asserted (speed is measured, not asserted); the test checks
that every action ran and did its job, that the idle baseline and every gap
were measured, and that the measure sees a stall and cancels an endless action.
"""

from __future__ import annotations

import importlib.util
import json
import math
import sys
import time
from pathlib import Path

import pytest

BENCH = Path(__file__).resolve().parents[1] / "benchmarks" / "bench_stall.py"


@pytest.fixture(scope="module")
def bench():
    spec = importlib.util.spec_from_file_location("_smoke_bench_stall", BENCH)
    module = importlib.util.module_from_spec(spec)
    sys.modules[spec.name] = module  # its dataclasses look their module up
    spec.loader.exec_module(module)
    yield module
    del sys.modules[spec.name]


@pytest.mark.serial  # timing: its idle baseline ticks a 5 ms timer 50 times in 0.5 s
def test_quick_run_measures_every_cheap_action(qapp, bench):
    sizes = bench.SIZES_QUICK[:1]  # every action at one size: the second measured the same
    r = bench.run(quick=True, sizes=sizes)
    json.dumps(r)  # JSON-ready
    assert [s["n"] for s in r["sizes"]] == list(sizes)
    quick_names = [a.name for a in bench.ACTIONS if a.quick]
    assert len(quick_names) >= 8
    for s in r["sizes"]:
        assert 0 < s["idle_ms"] < 1000 and s["idle_ticks"] >= 50  # the baseline was measured
        assert [row["action"] for row in s["rows"]] == quick_names
        for row in s["rows"]:
            assert row["ok"], row
            assert math.isfinite(row["gap_ms"]) and row["gap_ms"] > 0 and row["ticks"] > 0
            assert row["excess_ms"] == row["gap_ms"] - s["idle_ms"]
            assert 0 <= row["done_s"] <= row["wall_s"]
            assert not row["cancelled"] and not row["stopped"]
    assert len(r["ratios"]) == len(quick_names) * len(r["sizes"])
    assert {x["goal"] for x in r["ratios"].values()} == {50.0}
    text = bench.format_table(r)
    for name in quick_names:
        assert f"| {name} |" in text
    assert "Idle baseline" in text and "Load before" in text


def test_a_blocking_action_is_a_gap(qapp, bench):
    window = bench.new_window()
    try:
        block = bench.Action("block", lambda w, c: time.sleep(0.25))
        row = bench.measure(window, block, bench.Context(), cap_s=5.0, tail_s=0.05)
    finally:
        bench.close_window(window)
    assert row["ok"] and row["gap_ms"] >= 250 and row["wall_s"] >= 0.25


def test_an_endless_action_is_cancelled_and_control_comes_back(qapp, bench):
    from perceptron_gui.core import datasets
    from perceptron_gui.core.dataset import ReplaceAll

    window = bench.new_window()
    try:
        assert window.push_edit(ReplaceAll.from_dataset(datasets.separable(200, seed=0)))
        window.speedSlider.setValue(0)  # half a step per second: play outlasts the cap
        play = bench.Action("play", lambda w, c: w.actionPlay.setChecked(True),
                            cancel=lambda w, c: w.actionPlay.setChecked(False))
        row = bench.measure(window, play, bench.Context(), cap_s=0.3, tail_s=0.05)
        assert not window.actionPlay.isChecked()
    finally:
        bench.close_window(window)
    assert row["cancelled"] and row["ok"] and not row["stopped"]
    # Cancel is pressed at the cap, or as soon after it as the event loop is
    # free: never earlier, and no later than the longest time the loop was
    # held (the gap the measure itself saw), whatever else the machine runs.
    late_by = row["cancel_pressed_at_s"] - 0.3
    assert -0.005 <= late_by <= row["gap_ms"] / 1000 + 0.01
    assert 0 <= row["cancel_to_control_s"] < 5.0
    assert row["wall_s"] >= 0.3


def test_a_driver_that_no_longer_fits_ends_its_row_at_once(qapp, bench):
    window = bench.new_window()
    try:
        stale = bench.Action("stale", lambda w, c: None, done=lambda w, c: w.no_such_attribute)
        row = bench.measure(window, stale, bench.Context(), cap_s=30.0, tail_s=0.05)
    finally:
        bench.close_window(window)
    assert not row["ok"] and "AttributeError" in row["error"]
    assert row["wall_s"] < 5.0 and not row["cancelled"]
