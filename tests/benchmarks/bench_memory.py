"""Benchmark: a run's memory is bounded at 10⁶ non-separable points.

The update log keeps every row only while they fit half of ``LOG_BYTES``
(256 MiB); past that it keeps checkpoints and replays the scan between them
(``perceptron_gui/core/learners/_log.py``).  This benchmark runs the primal
perceptron for the same fixed number of steps on 10⁵ (the reference) and 10⁶
overlapping points, each in a fresh interpreter, and compares what the runs
hold.

Data
----
``generators.overlapping(n, seed=0)``: two Gaussian classes that overlap, so
the run never converges and updates on about a third of its steps: without the
bound its log would take 48 bytes an update (1.4 GB at 10⁸ steps).

Measured for each size, in a fresh interpreter
----------------------------------------------
- ``peak_log_bytes``: the largest ``UpdateLog.nbytes`` seen between slices of
  the run (every 2²⁰ steps) and after the queries;
- ``unbounded_log_bytes``: what a row per update would take (48 bytes each);
- ``maxrss_delta_bytes``: growth of ``VmHWM`` (``/proc/self/status``) from just
  before the learner starts to the end, the data excluded;
- ``time_s``, ``ns_per_step``: the run's time;
- ``seek_ms``: median time of a seek to a random step after the run (an exact
  replay of one segment), and of a step back from there.
It checks that seeks answer exactly: the events at three early steps equal
those of a fresh run computed to them, and the weights at random steps equal
``w`` after the counted updates.

Ratios: peak log bytes 10⁶ / 10⁵ (goal 1.1: the bound does not grow with the
points), peak log bytes / ``LOG_BYTES`` at 10⁶ (goal 1.0), ΔmaxRSS 10⁶ / 10⁵
(goal 1.5), and peak log / unbounded rows for context.

Run ``python tests/benchmarks/bench_memory.py [--quick]``; the results are
printed and written to ``bench_memory.json`` beside this file
(``bench_memory.quick.json`` for a quick run: 10⁴ / 10⁵ points, 2·10⁶ steps,
a 4 MiB budget).
"""

from __future__ import annotations

import gc
import json
import os
import statistics
import subprocess
import sys
import time
from pathlib import Path

import numpy as np

HERE = Path(__file__).resolve().parent
ROOT = HERE.parents[1]
if str(ROOT) not in sys.path:  # run as a script from a checkout
    sys.path.insert(0, str(ROOT))

from perceptron_gui.core import generators  # noqa: E402
from perceptron_gui.core.learners import PrimalPerceptron, _log  # noqa: E402
from tests.benchmarks.benchlib import environment, main  # noqa: E402

NAME = "bench_memory"
REFERENCE, LARGE = 10**5, 10**6
STEPS = 10**8
QUICK = {"reference": 10**4, "large": 10**5, "steps": 2 * 10**6, "budget": 4 * 2**20}
SLICE = 2**20
SEED = 0
ROW_BYTES = 48  # step, index, margin, b and w of two features, float64 / int64


def _hwm_bytes() -> int | None:
    """The process's peak resident set size (``VmHWM``), or None off Linux."""
    try:
        with open("/proc/self/status") as f:
            for line in f:
                if line.startswith("VmHWM:"):
                    return int(line.split()[1]) * 1024
    except OSError:
        pass
    return None


def _same_event(a, b) -> bool:
    return (a.step, a.index, a.k, a.margin, a.b_after) == (b.step, b.index, b.k, b.margin,
                                                           b.b_after) and \
        a.w_after.tobytes() == b.w_after.tobytes()


def measure(n: int, steps: int, budget: int | None = None) -> dict:
    """Run ``steps`` steps on ``n`` overlapping points; the log's and the process's memory."""
    if budget is not None:
        _log.LOG_BYTES = budget
    ds = generators.overlapping(n, seed=SEED)
    X, y = ds.X, ds.y
    PrimalPerceptron().fit(X[:64], y[:64])  # load the compiled scan outside the measure
    gc.collect()
    rss0 = _hwm_bytes()
    learner = PrimalPerceptron(max_iter=10**6).start(X, y)
    log = learner.update_log
    peak = 0
    t = time.perf_counter()
    while learner.step_count < steps and not learner.finished:
        learner.advance(min(SLICE, steps - learner.step_count))
        peak = max(peak, log.nbytes)
    elapsed = time.perf_counter() - t
    updates, total = learner.n_updates_, learner.step_count
    rng = np.random.default_rng(1)
    seeks, backs = [], []
    for step in rng.integers(1, total + 1, 20).tolist():
        t0 = time.perf_counter()
        learner.seek(step)
        t1 = time.perf_counter()
        ev = learner.step_back()
        backs.append(time.perf_counter() - t1)
        seeks.append(t1 - t0)
        k = learner.n_updates_
        w, b = log.state_after(k)
        if not (learner.coef_[0].tobytes() == w.tobytes() and learner.intercept_[0] == b
                and ev.step == step):
            raise AssertionError(f"n={n}: the weights at step {step} are not w_{k}")
        peak = max(peak, log.nbytes)
    for step in (1, n // 2 + 1, 3 * n + 7):  # a fresh run to these steps gives the same events
        if step <= total:
            fresh = PrimalPerceptron(max_iter=10**6).start(X, y)
            if not _same_event(fresh.seek(step), learner.event(step)):
                raise AssertionError(f"n={n}: the event at step {step} differs from a fresh run")
    rss1 = _hwm_bytes()
    return {
        "n": n,
        "steps": total,
        "updates": updates,
        "epochs": -(-total // n),
        "log_budget_bytes": log.budget,
        "thinned": log.thinned,
        "peak_log_bytes": peak,
        "unbounded_log_bytes": updates * ROW_BYTES,
        "maxrss_delta_bytes": None if rss0 is None else rss1 - rss0,
        "time_s": elapsed,
        "ns_per_step": elapsed / max(1, total) * 1e9,
        "seek_ms": statistics.median(seeks) * 1e3,
        "step_back_ms": statistics.median(backs) * 1e3,
    }


_MEASURE = """
import json, sys
sys.path.insert(0, sys.argv[1])
import bench_memory
budget = None if sys.argv[4] == "-" else int(sys.argv[4])
print(json.dumps(bench_memory.measure(int(sys.argv[2]), int(sys.argv[3]), budget)))
"""


def measure_fresh(n: int, steps: int, budget: int | None = None) -> dict:
    """:func:`measure` in a fresh interpreter (its memory high-water mark is its own)."""
    env = dict(os.environ)
    env["PYTHONPATH"] = os.pathsep.join(filter(None, [str(ROOT), env.get("PYTHONPATH")]))
    proc = subprocess.run(
        [sys.executable, "-c", _MEASURE, str(HERE), str(n), str(steps),
         "-" if budget is None else str(budget)],
        capture_output=True, text=True, env=env, check=False,
    )
    if proc.returncode != 0:
        raise RuntimeError(f"memory subprocess failed:\n{proc.stderr}")
    return json.loads(proc.stdout.strip().splitlines()[-1])


def run(quick: bool = False) -> dict:
    """Run the benchmark; returns the measurements as a JSON-ready dict."""
    if quick:
        ref_n, big_n, steps, budget = (QUICK["reference"], QUICK["large"], QUICK["steps"],
                                       QUICK["budget"])
    else:
        ref_n, big_n, steps, budget = REFERENCE, LARGE, STEPS, None
    ref = measure_fresh(ref_n, steps, budget)
    big = measure_fresh(big_n, steps, budget)
    cap = big["log_budget_bytes"] + 4 * big["epochs"]
    if big["peak_log_bytes"] > cap or ref["peak_log_bytes"] > cap:
        raise AssertionError(f"the log outgrew its bound: {big['peak_log_bytes']} > {cap}")
    rss = (None if not (ref["maxrss_delta_bytes"] and big["maxrss_delta_bytes"])
           else big["maxrss_delta_bytes"] / ref["maxrss_delta_bytes"])
    ratios = {
        f"peak log bytes n={big_n:,} / n={ref_n:,}": {
            "value": big["peak_log_bytes"] / ref["peak_log_bytes"], "goal": 1.1},
        f"peak log bytes n={big_n:,} / LOG_BYTES": {
            "value": big["peak_log_bytes"] / big["log_budget_bytes"], "goal": 1.0},
        f"peak log / a row per update n={big_n:,} (context)": {
            "value": big["peak_log_bytes"] / max(1, big["unbounded_log_bytes"]), "goal": None},
    }
    if rss is not None:
        ratios[f"ΔmaxRSS n={big_n:,} / n={ref_n:,}"] = {"value": rss, "goal": 1.5}
    return {
        "benchmark": NAME,
        "quick": quick,
        "data": {"kind": "overlapping", "seed": SEED},
        "steps": steps,
        "sizes": [ref, big],
        "ratios": ratios,
        "environment": environment(),
    }


def _mib(b) -> str:
    return "n/a" if b is None else f"{b / 2**20:,.1f}"


def format_table(res: dict) -> str:
    """A readable table of a :func:`run` result."""
    head = (f"PrimalPerceptron, {res['steps']:,} steps on overlapping points "
            "(never converges), each size in a fresh interpreter")
    cols = [
        ("n", lambda r: f"{r['n']:,}"),
        ("updates", lambda r: f"{r['updates']:,}"),
        ("epochs", lambda r: f"{r['epochs']:,}"),
        ("ns/step", lambda r: f"{r['ns_per_step']:.1f}"),
        ("peak log MiB", lambda r: _mib(r["peak_log_bytes"])),
        ("budget MiB", lambda r: _mib(r["log_budget_bytes"])),
        ("a row each MiB", lambda r: _mib(r["unbounded_log_bytes"])),
        ("ΔmaxRSS MiB", lambda r: _mib(r["maxrss_delta_bytes"])),
        ("seek ms", lambda r: f"{r['seek_ms']:.1f}"),
        ("back ms", lambda r: f"{r['step_back_ms']:.2f}"),
    ]
    cells = [[name for name, _ in cols]] + [[f(r) for _, f in cols] for r in res["sizes"]]
    widths = [max(len(row[j]) for row in cells) for j in range(len(cols))]
    lines = [head]
    for row in cells:
        lines.append("  " + "  ".join(c.rjust(w) for c, w in zip(row, widths, strict=True)))
    for label, r in res["ratios"].items():
        goal = "" if r["goal"] is None else f"   (goal <= {r['goal']})"
        lines.append(f"  {label:<46} {r['value']:.3f}{goal}")
    return "\n".join(lines)


if __name__ == "__main__":
    main(NAME, run, format_table)
