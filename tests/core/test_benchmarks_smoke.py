"""Smoke test of the benchmarks: each runs in quick mode and reports what it promises.

Timings are not asserted (speed is measured, not asserted: see
``tests/benchmarks/README.md``); only the shape of the results and the
correctness checks the benchmarks make along the way.
"""

from __future__ import annotations

import importlib.util
import json
from pathlib import Path

import numpy as np
import pytest

from perceptron_gui.core import PrimalPerceptron
from perceptron_gui.core.learners import _scan
from perceptron_gui.core.learners.losses import loss_for

BENCH = Path(__file__).resolve().parents[1] / "benchmarks"


def _load(name: str):
    path = BENCH / f"{name}.py"
    spec = importlib.util.spec_from_file_location(f"_smoke_{name}", path)
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    return module


@pytest.fixture(scope="module")
def run_all():
    return _load("run_all")


@pytest.fixture(scope="module")
def bench_perceptron():
    return _load("bench_perceptron")


@pytest.fixture(scope="module")
def perceptron_result(bench_perceptron):
    return bench_perceptron.run(quick=True)


@pytest.fixture(scope="module")
def dual_result():
    return _load("bench_dual").run(quick=True)


PERCEPTRON_KEYS = {
    "benchmark", "quick", "n", "updates", "epochs", "converged", "backend",
    "weights_identical", "weights_identical_numpy", "time_ours_s", "time_sklearn_s", "ratio",
    "time_numpy_s", "ratio_numpy", "warmup_ours_s", "warmup_sklearn_s", "first_call",
    "first_call_cold", "ratios", "environment",
}
ENVIRONMENT_KEYS = {"timestamp", "python", "numpy", "sklearn", "numba", "cpu_count"}


def test_perceptron_benchmark_quick(perceptron_result):
    r = perceptron_result
    assert PERCEPTRON_KEYS <= r.keys()
    assert ENVIRONMENT_KEYS <= r["environment"].keys()
    assert r["quick"] is True and r["n"] == 5_000
    assert r["weights_identical"] is True
    assert r["weights_identical_numpy"] is True
    assert r["converged"] and r["updates"] > 100 and r["epochs"] >= 2
    assert r["first_call"]["first_fit_s"] > 0 and r["first_call"]["second_fit_s"] > 0
    assert r["ratio"] == r["time_ours_s"] / r["time_sklearn_s"]
    assert _scan.FORCE is None  # the benchmark restored the backend choice
    json.dumps(r)  # JSON-ready


def test_perceptron_benchmark_fails_loudly_on_different_weights(bench_perceptron, monkeypatch):
    # learning rate 1/2 halves the weights exactly: same mistakes, different coef_
    monkeypatch.setattr(
        bench_perceptron, "PrimalPerceptron",
        lambda **kw: PrimalPerceptron(eta0=0.5, **kw),
    )
    with pytest.raises(AssertionError, match="disagree"):
        bench_perceptron.run(quick=True)
    assert _scan.FORCE is None


def test_dual_benchmark_quick(dual_result):
    r = dual_result
    assert {"benchmark", "quick", "sizes", "ratios", "environment", "kernel"} <= r.keys()
    assert ENVIRONMENT_KEYS <= r["environment"].keys()
    assert [s["n"] for s in r["sizes"]] == [500, 1_000]
    for s in r["sizes"]:
        assert s["converged"] and s["separates_training_set"]
        assert s["updates"] > 0 and s["support"] <= s["updates"]
        assert s["dense_gram_bytes"] == 8 * s["n"] ** 2
        assert s["tracemalloc_peak_bytes"] > 0
        assert s["us_per_update"] == pytest.approx(1e6 * s["time_s"] / s["updates"])
    json.dumps(r)


def test_memory_benchmark_quick():
    r = _load("bench_memory").run(quick=True)
    assert {"benchmark", "quick", "sizes", "ratios", "environment", "steps"} <= r.keys()
    ref, big = r["sizes"]
    assert (ref["n"], big["n"]) == (10**4, 10**5) and ref["steps"] == big["steps"] == r["steps"]
    for s in (ref, big):  # the quick run's 4 MiB budget is exceeded fourfold without the bound
        assert s["thinned"] and s["unbounded_log_bytes"] > 4 * s["log_budget_bytes"]
        assert s["peak_log_bytes"] <= s["log_budget_bytes"] + 4 * s["epochs"]
    assert len(r["ratios"]) >= 3
    json.dumps(r)


def test_weight_space_benchmark_quick():
    r = _load("bench_weight_space").run(quick=True)
    assert {"benchmark", "quick", "n", "times_s", "ratios", "environment"} <= r.keys()
    assert r["n"] == 5_000 and set(r["times_s"]) == {"scale 1", "scale 1e-300"}
    assert len(r["ratios"]) == 4
    json.dumps(r)


def test_weight_view_benchmark_quick(qapp):
    r = _load("bench_weight_view").run(quick=True)
    assert r["n"] == 5_000 and set(r["times_s"]) == {"before (on the UI thread)", "chart",
                                                     "slice at b"}
    assert all(len(r["times_s"][k]["steps"]) == 5 for k in ("chart", "slice at b"))
    assert len(r["ratios"]) == 2
    json.dumps(r)


def test_dense_seek_benchmark_quick():
    r = _load("bench_dense_seek").run(quick=True)
    assert {"benchmark", "quick", "steps", "stride", "seek_ms", "fresh_ms", "log_bytes",
            "peak_log_bytes", "ratios", "environment"} <= r.keys()
    assert r["steps"] == 3 * 10**4 and r["perceptron_log_thinned"]  # it replays too
    assert r["log_bytes"] < r["unbounded_log_bytes"] / 50
    assert r["peak_log_bytes"] <= r["log_budget_bytes"]
    assert len(r["ratios"]) == 5
    json.dumps(r)


def test_sgd_benchmark_quick(run_all):
    bench = _load("bench_sgd")
    r = bench.run(quick=True)
    assert {"benchmark", "quick", "n", "epochs", "fit", "seek", "ratios",
            "environment"} <= r.keys()
    assert r["quick"] is True and r["n"] == 5_000
    assert set(r["fit"]) == {"perceptron", "hinge", "log_loss"}
    for loss, f in r["fit"].items():
        assert f["ratio"] == f["time_ours_s"] / f["time_sklearn_s"]
        assert f["engine"] == ("perceptron" if loss_for(loss).kink is not None else "gradient")
        assert f["epochs"] == 3 and f["weights_identical"] in (True, False)
    assert r["fit"]["hinge"]["weights_identical"]  # no exp: the same bits
    assert r["fit"]["hinge"]["steps"] == 3 * 5_000 > r["fit"]["hinge"]["updates"] > 0
    assert r["fit"]["log_loss"]["steps"] == r["fit"]["log_loss"]["updates"] == 3 * 5_000
    assert set(r["seek"]) == {loss for loss in r["fit"] if loss_for(loss).kink is None}
    for s in r["seek"].values():
        assert s["exact"] and s["steps"] == 15_000 and 0 < s["median_s"] <= s["max_s"]
    assert len(run_all.ratios_of(r)) == len(r["fit"]) + len(r["seek"])
    assert _scan.FORCE is None  # the benchmark restored the backend choice
    json.dumps(r)


def test_sgd_benchmark_fails_loudly_on_different_weights(monkeypatch):
    bench = _load("bench_sgd")
    real = bench._sklearn
    monkeypatch.setattr(bench, "_sklearn", lambda loss, X, y, E: real(loss, X, y, E + 1))
    with pytest.raises(AssertionError, match="disagree"):
        bench.run(quick=True)


def test_run_all_summarises_every_ratio(run_all, perceptron_result, dual_result):
    names = [p.stem for p in run_all.discover()]
    assert {"bench_perceptron", "bench_dual"} <= set(names)
    rows = [(b, *x) for b, res in (("p", perceptron_result), ("d", dual_result))
            for x in run_all.ratios_of(res)]
    assert len(rows) == 2 + 2 * 2
    text = run_all.summary(rows)
    for _, label, _, _ in rows:
        assert label in text
    assert "<= 1" in text and "context" in text


def test_run_all_reads_plain_ratio_dicts(run_all):
    result = {"ratios": {"a/b": 0.1, "c/d": 0.5}, "goal_ratio": 0.2}
    rows = run_all.ratios_of(result)
    assert rows == [("a/b", 0.1, 0.2), ("c/d", 0.5, 0.2)]
    text = run_all.summary([("x", *r) for r in rows])
    assert text.count("MISSED") == 1 and text.count(" met") == 1


def test_generative_benchmark_quick(run_all):
    bench = _load("bench_generative")
    r = bench.run(quick=True)
    assert r["quick"] is True and r["n"] == 5_000 and set(r["learners"]) == {"QDA", "GaussianNB"}
    for x in r["learners"].values():
        assert x["fit_ratio"] == x["fit_ours_s"] / x["fit_sklearn_s"]
        assert x["proba_ratio"] == x["proba_ours_s"] / x["proba_sklearn_s"]
        assert x["max_relative_error"]["predict_proba"] <= 1e-9
        assert x["max_relative_error"]["means"] <= 1e-12
    assert len(run_all.ratios_of(r)) == 4
    assert {g for _, _, g in run_all.ratios_of(r)} == {1.0}
    json.dumps(r)


def test_multiclass_benchmark_quick(run_all):
    bench = _load("bench_multiclass")
    r = bench.run(quick=True)
    assert r["m"] == 8 and set(r["learners"]) == {"LDA", "QDA", "GaussianNB"}
    for x in r["learners"].values():
        assert x["proba_ratio"] == x["proba_ours_s"] / x["proba_sklearn_s"]
        assert x["max_relative_error"]["predict_proba"] <= 1e-9
    assert len(run_all.ratios_of(r)) == 6
    json.dumps(r)


def test_multiclass_benchmark_fails_loudly_on_a_different_model(monkeypatch):
    bench = _load("bench_multiclass")
    monkeypatch.setattr(bench, "lda_oracle_points", lambda X, y: X * 1.01)
    with pytest.raises(AssertionError, match="LDA and scikit-learn disagree on predict_proba"):
        bench.run(quick=True)


def test_generative_benchmark_fails_loudly_on_a_different_model(monkeypatch):
    bench = _load("bench_generative")
    def other(X, y):  # the oracle fitted on other data
        return X * 1.01

    monkeypatch.setattr(bench, "qda_oracle_points", other)
    with pytest.raises(AssertionError, match="QDA and scikit-learn disagree on predict_proba"):
        bench.run(quick=True)


def test_regions_benchmark_quick(qapp, run_all):
    r = _load("bench_regions").run(quick=True)
    assert r["m"] == 8 and set(r["learners"]) == {"lda", "qda", "naive_bayes"}
    for x in r["learners"].values():
        assert x["ratio"] == x["8_classes_s"] / x["two_classes_s"] and x["frames"] == 16
    assert len(run_all.ratios_of(r)) == 3
    json.dumps(r)


def test_regions_benchmark_fails_loudly_on_a_wrong_picture(qapp, monkeypatch):
    from perceptron_gui.ui.widgets.canvas.layers import classes

    bench = _load("bench_regions")
    monkeypatch.setattr(classes, "linear_regions",
                        lambda W, B, rect: [np.empty((0, 2)) for _ in W])  # nothing drawn
    with pytest.raises(AssertionError, match="drawn in another class's region"):
        bench.run(quick=True)
