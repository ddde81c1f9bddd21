"""Benchmark: seeking in a dense run (``w`` moves on every step) at 10⁵ points.

A learner on :class:`~perceptron_gui.core.learners.gradient.GradientEngine`
keeps one row a step in a :class:`~perceptron_gui.core.learners._dense.DenseLog`:
checkpoints every ``SAMPLE_STRIDE`` steps, the steps between them replayed on
demand.  No such learner ships yet, so the benchmark defines one, stochastic
gradient descent with the hinge loss (scikit-learn's ``SGDClassifier(loss=
"hinge", penalty=None, learning_rate="constant")``, bit for bit), as the seam's
test does (``tests/core/test_stepper.py``).

Data
----
``generators.overlapping(n, seed=0)``: two overlapping Gaussian classes, so the
hinge loss moves ``w`` on a large share of the steps and the run never
converges; ``eta = 0.01``, ``EPOCHS`` epochs computed to the end first.

Measured, in this process
-------------------------
- ``frontier_s``, ``us_per_step``: computing the run (the frontier's loop);
- ``seek_ms``: median time of a seek to a random step of the computed run,
  cache emptied first (one replay of at most a stride), and ``step_back_ms``
  from there (cached);
- ``fresh_ms``: median time of the reference, a fresh run stepped forward to
  the same steps (what a seek would cost without the log), on fewer of them;
- ``perceptron_seek_ms``: the reference of a replaying log, the primal
  perceptron's seek on the same points and steps with its update log thinned
  (a budget of ``PERCEPTRON_BUDGET``), so it replays too;
- ``log_bytes``: the dense log's bytes after the run (its checkpoints),
  against a row a step (48 bytes), and ``peak_log_bytes`` after the seeks
  (the replayed segments it caches, within a quarter of ``LOG_BYTES``).
It checks that seeks answer exactly: the events and weights at random steps
equal those of a fresh run stepped there.

Ratios: seek / fresh run (goal 0.01), dense log after the run / a row a step
(goal 0.01), peak log / ``LOG_BYTES`` (goal 1.0), seek / the perceptron's
replaying seek and step back / seek (context).

Run ``python tests/benchmarks/bench_dense_seek.py [--quick]``; the results are
printed and written to ``bench_dense_seek.json`` beside this file
(``bench_dense_seek.quick.json`` for a quick run: 10⁴ points, 3 epochs).
"""

from __future__ import annotations

import statistics
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
from perceptron_gui.core.learners.gradient import GradientEngine  # noqa: E402
from tests.benchmarks.benchlib import environment, main  # noqa: E402

NAME = "bench_dense_seek"
N, EPOCHS, SEEKS, FRESH = 10**5, 10, 30, 3
QUICK = {"n": 10**4, "epochs": 3, "seeks": 10, "fresh": 2, "perceptron_budget": 2**15}
ETA = 0.01
SEED = 0
ROW_BYTES = 48  # step, index, margin, b and w of two features
PERCEPTRON_BUDGET = 2**20


class HingeSGD(GradientEngine):
    """Stochastic gradient descent with the hinge loss: ``dloss = -y`` when ``y p <= 1``."""

    def __init__(self, *, fit_intercept=True, bias_scale=1.0, eta0=ETA,
                 order="cyclic", random_state=None, max_iter=EPOCHS):
        self.fit_intercept = fit_intercept
        self.bias_scale = bias_scale
        self.eta0 = eta0
        self.order = order
        self.random_state = random_state
        self.max_iter = max_iter

    def validate_params(self) -> None:
        self._validate_common()

    def dloss(self, p, y):
        return -y if p * y <= 1.0 else 0.0


def _same(a, b) -> bool:
    return ((a.step, a.index, a.k, a.mistake, a.margin, a.b_after)
            == (b.step, b.index, b.k, b.mistake, b.margin, b.b_after)
            and a.w_after.tobytes() == b.w_after.tobytes()
            and a.w_before.tobytes() == b.w_before.tobytes())


def _fresh_to(X, y, epochs: int, step: int):
    """A fresh run stepped forward to ``step`` (in slices, as the window runs)."""
    learner = HingeSGD(max_iter=epochs).start(X, y)
    while learner.step_count < step:
        learner.advance(step - learner.step_count)
    return learner


def run(quick: bool = False) -> dict:
    """Run the benchmark; returns the measurements as a JSON-ready dict."""
    n, epochs, n_seeks, n_fresh, ref_budget = (
        (QUICK["n"], QUICK["epochs"], QUICK["seeks"], QUICK["fresh"], QUICK["perceptron_budget"])
        if quick else (N, EPOCHS, SEEKS, FRESH, PERCEPTRON_BUDGET))
    ds = generators.overlapping(n, seed=SEED)
    X, y = ds.X, ds.y
    t = time.perf_counter()
    learner = HingeSGD(max_iter=epochs).fit(X, y)
    frontier_s = time.perf_counter() - t
    total = learner.frontier
    log = learner.update_log
    run_bytes = log.nbytes  # the checkpoints: nothing replayed yet
    peak = run_bytes
    rng = np.random.default_rng(1)
    targets = rng.integers(1, total + 1, n_seeks).tolist()
    seeks, backs = [], []
    for step in targets:
        learner.seek(0)
        log.drop_cache()  # a cold seek: it replays
        t0 = time.perf_counter()
        ev = learner.seek(step)
        t1 = time.perf_counter()
        learner.step_back()
        backs.append(time.perf_counter() - t1)
        seeks.append(t1 - t0)
        peak = max(peak, log.nbytes)
        if ev.step != step or learner.step_count != step - 1:
            raise AssertionError(f"seek({step}) stands at {learner.step_count + 1}")
    fresh = []
    for step in targets[:n_fresh]:
        t0 = time.perf_counter()
        other = _fresh_to(X, y, epochs, step)
        fresh.append(time.perf_counter() - t0)
        learner.seek(step)
        if not (_same(other.event(step), learner.event(step))
                and other.coef_.tobytes() == learner.coef_.tobytes()):
            raise AssertionError(f"the event at step {step} differs from a fresh run's")
    budget = _log.LOG_BYTES
    _log.LOG_BYTES = ref_budget
    try:
        ref = PrimalPerceptron(max_iter=epochs).start(X, y)
        ref.advance(total)
    finally:
        _log.LOG_BYTES = budget
    ref_seeks = []
    for step in targets:
        ref.seek(0)
        t0 = time.perf_counter()
        ref.seek(min(step, ref.frontier))
        ref_seeks.append(time.perf_counter() - t0)
    seek_ms = statistics.median(seeks) * 1e3
    fresh_ms = statistics.median(fresh) * 1e3
    ref_ms = statistics.median(ref_seeks) * 1e3
    back_ms = statistics.median(backs) * 1e3
    ratios = {
        f"dense seek / fresh run to the step n={n:,}": {"value": seek_ms / fresh_ms,
                                                          "goal": 0.01},
        f"dense log bytes after the run / a row a step n={n:,}": {
            "value": run_bytes / (total * ROW_BYTES), "goal": 0.01},
        f"dense log peak bytes / LOG_BYTES n={n:,}": {
            "value": peak / log.budget, "goal": 1.0},
        f"dense seek / perceptron's replaying seek n={n:,} (context)": {
            "value": seek_ms / ref_ms if ref_ms else float("inf"), "goal": None},
        "dense step back / seek (context)": {"value": back_ms / seek_ms, "goal": None},
    }
    return {
        "benchmark": NAME,
        "quick": quick,
        "data": {"kind": "overlapping", "seed": SEED, "n": n, "epochs": epochs, "eta": ETA},
        "steps": total,
        "stride": log.stride,
        "frontier_s": frontier_s,
        "us_per_step": frontier_s / total * 1e6,
        "seek_ms": seek_ms,
        "step_back_ms": back_ms,
        "fresh_ms": fresh_ms,
        "perceptron_seek_ms": ref_ms,
        "perceptron_log_thinned": ref.update_log.thinned,
        "log_bytes": run_bytes,
        "peak_log_bytes": peak,
        "log_budget_bytes": log.budget,
        "unbounded_log_bytes": total * ROW_BYTES,
        "ratios": ratios,
        "environment": environment(),
    }


def format_table(res: dict) -> str:
    """A readable table of a :func:`run` result."""
    d = res["data"]
    lines = [
        f"HingeSGD (GradientEngine, dense log) on {d['n']:,} overlapping points, "
        f"{d['epochs']} epochs = {res['steps']:,} steps, stride {res['stride']:,}",
        f"  frontier       {res['frontier_s']:.2f} s ({res['us_per_step']:.2f} µs a step)",
        f"  seek (cold)    {res['seek_ms']:.2f} ms   step back {res['step_back_ms']:.3f} ms",
        f"  fresh run      {res['fresh_ms']:.0f} ms to the same steps",
        f"  perceptron     {res['perceptron_seek_ms']:.2f} ms a seek "
        f"(thinned: {res['perceptron_log_thinned']})",
        f"  log            {res['log_bytes'] / 2**10:,.0f} KiB after the run, "
        f"{res['peak_log_bytes'] / 2**20:,.1f} MiB after the seeks "
        f"(a row a step: {res['unbounded_log_bytes'] / 2**20:,.0f} MiB)",
    ]
    for label, r in res["ratios"].items():
        goal = "" if r["goal"] is None else f"   (goal <= {r['goal']})"
        lines.append(f"  {label:<58} {r['value']:.4f}{goal}")
    return "\n".join(lines)


if __name__ == "__main__":
    main(NAME, run, format_table)
