"""Benchmark: ``PrimalPerceptron(loss=...).fit`` against scikit-learn's ``SGDClassifier``.

The reference is ``SGDClassifier(loss=loss, penalty=None, learning_rate="constant",
eta0=ETA, shuffle=False, tol=None, max_iter=E)`` with ``E`` our ``n_epochs_``:
it makes the same steps (the weights are checked: bit for bit for the
perceptron and hinge losses, to 1e-9 relative for the logistic loss, whose
``exp`` is the C library's in both), so the ratio of the two times compares two
implementations of one computation, measured in the same process on the same
data.  The perceptron and hinge losses run on the perceptron's engine (its
log keeps the updates: z ≤ 0, z ≤ 1), the logistic loss on the gradient
engine (every step a row of the dense log) with the compiled SGD loop
(:mod:`~perceptron_gui.core.learners._sgd`).

Measured here
-------------
- ``fit.<loss>.ratio``: best-of-5 time of our ``fit`` over the best-of-5 time
  of scikit-learn's, interleaved.  Goal: <= 1.0.
- ``fit.<loss>.time_python_s``: one ``fit`` with the Python loop forced
  (``_scan.FORCE = "numpy"``), for context: what a machine without numba gets.
- ``seek.<loss>``: on the fitted logistic run (``N`` points, ``E``
  epochs: ``N·E`` steps, ``w`` moving on every one), ``seek(k)`` to ``SEEKS``
  random steps in a random order, each with the log's replay cache dropped
  first (the worst case: a checkpoint and a replay); the largest and the
  median time.  Goal: the largest <= 50 ms.  Each seek is checked exact
  (``coef_``, ``intercept_`` and the step's event) against a second run
  computed forward to the same steps.

Run ``python tests/benchmarks/bench_sgd.py [--quick]``; the results are printed
and written to ``bench_sgd.json`` beside this file (``bench_sgd.quick.json``
for a quick run).
"""

from __future__ import annotations

import sys
import warnings
from pathlib import Path

import numpy as np

HERE = Path(__file__).resolve().parent
ROOT = HERE.parents[1]
if str(ROOT) not in sys.path:  # run as a script from a checkout
    sys.path.insert(0, str(ROOT))

from perceptron_gui.core import PrimalPerceptron, generators  # noqa: E402
from perceptron_gui.core.learners import _scan  # noqa: E402
from tests.benchmarks.benchlib import environment, main, timed  # noqa: E402

NAME = "bench_sgd"

N, N_QUICK = 100_000, 5_000
EPOCHS, EPOCHS_QUICK = 10, 3
ETA = 0.01
SEED = 0
REPEAT = 5
SEEKS = 50
LOSSES = ("perceptron", "hinge", "log_loss")
SEEK_GOAL_S = 0.050


def make_data(n: int = N, seed: int = SEED):
    """``n`` points of two overlapping Gaussian classes: no loss converges, every epoch runs."""
    ds = generators.overlapping(n, seed=seed)
    return np.ascontiguousarray(ds.X, dtype=np.float64), np.asarray(ds.y)


def _sklearn(loss, X, y, epochs):
    from sklearn.linear_model import SGDClassifier

    with warnings.catch_warnings():
        warnings.simplefilter("ignore")  # max_iter reached: the epochs asked for
        return SGDClassifier(loss=loss, penalty=None, learning_rate="constant", eta0=ETA,
                             shuffle=False, tol=None, max_iter=epochs).fit(X, y)


def _check_weights(loss, ours, ref) -> bool:
    """True when bit-identical; AssertionError when beyond 1e-9 relative (or not bit-identical
    for a loss without ``exp``)."""
    same = bool(np.array_equal(ours.coef_, ref.coef_)
                and np.array_equal(ours.intercept_, ref.intercept_))
    close = bool(np.allclose(ours.coef_, ref.coef_, rtol=1e-9, atol=0)
                 and np.allclose(ours.intercept_, ref.intercept_, rtol=1e-9, atol=0))
    if not (same or (close and loss == "log_loss")):
        raise AssertionError(
            f"PrimalPerceptron(loss={loss!r}) and SGDClassifier disagree: "
            f"ours coef={ours.coef_!r} b={ours.intercept_!r}, "
            f"sklearn coef={ref.coef_!r} b={ref.intercept_!r}")
    return same


def _fit(loss, X, y, epochs, repeat, quick) -> tuple[dict, PrimalPerceptron]:
    def ours():
        return PrimalPerceptron(loss=loss, eta0=ETA, max_iter=epochs).fit(X, y)

    warm_ours, p = timed(ours)  # includes numba's import and cache load, if not yet done
    E = p.n_epochs_

    def theirs():
        return _sklearn(loss, X, y, E)

    warm_sk, ref = timed(theirs)
    identical = _check_weights(loss, p, ref)
    t_ours, t_sk = [], []
    for _ in range(repeat):  # interleaved, so slow drifts hit both alike
        t_ours.append(timed(ours)[0])
        t_sk.append(timed(theirs)[0])
    saved = _scan.FORCE
    try:
        _scan.FORCE = "numpy"
        t_py, q = timed(ours)
    finally:
        _scan.FORCE = saved
    _check_weights(loss, q, ref)
    best_ours, best_sk = min(t_ours), min(t_sk)
    return {
        "engine": "gradient" if p.on_gradient_engine else "perceptron",
        "epochs": int(E),
        "steps": int(p.step_count),
        "updates": int(p.n_updates_),
        "weights_identical": identical,
        "time_ours_s": best_ours,
        "time_sklearn_s": best_sk,
        "ratio": best_ours / best_sk,
        "time_python_s": t_py,
        "warmup_ours_s": warm_ours,
        "warmup_sklearn_s": warm_sk,
    }, p


def _seek(run: PrimalPerceptron, X, y, epochs, seeks: int) -> dict:
    """Seek ``run`` to random steps (cache dropped); each checked against a forward run."""
    T = run.frontier
    rng = np.random.default_rng(1)
    targets = np.unique(np.r_[rng.integers(1, T + 1, seeks - 2), 1, T]).tolist()
    forward = PrimalPerceptron(loss=run.loss, eta0=ETA, max_iter=epochs).start(X, y)
    expected = {}
    for k in targets:  # computed forward, in order: the frontier's loop, no replay
        forward.seek(k)
        expected[k] = (forward.coef_.copy(), forward.intercept_.copy(), forward.event(k))
    times = []
    for k in rng.permutation(targets).tolist():
        run.update_log.drop_cache()
        t, ev = timed(lambda k=k: run.seek(k))
        times.append(t)
        coef, b, want = expected[k]
        if not (np.array_equal(run.coef_, coef) and np.array_equal(run.intercept_, b)
                and np.array_equal(ev.w_after, want.w_after) and ev.b_after == want.b_after
                and ev.index == want.index and ev.margin == want.margin):
            raise AssertionError(f"seek({k}) of the {run.loss} run is not the forward run's")
    return {"steps": int(T), "seeks": len(times), "max_s": max(times),
            "median_s": float(np.median(times)), "exact": True,
            "stride": int(run.update_log.stride)}


def run(quick: bool = False) -> dict:
    """Run the benchmark; returns the measurements as a JSON-ready dict.

    Raises
    ------
    AssertionError
        When our weights are not scikit-learn's, or a seek is not exact.
    """
    n = N_QUICK if quick else N
    epochs = EPOCHS_QUICK if quick else EPOCHS
    repeat = 2 if quick else REPEAT
    seeks = 10 if quick else SEEKS
    X, y = make_data(n)
    saved = _scan.FORCE
    fits, seeks_out, ratios = {}, {}, {}
    try:
        _scan.FORCE = None
        for loss in LOSSES:
            fits[loss], fitted = _fit(loss, X, y, epochs, repeat, quick)
            ratios[f"fit {loss} / SGDClassifier"] = {"value": fits[loss]["ratio"], "goal": 1.0}
            if fitted.on_gradient_engine:  # a dense log: seeks replay from checkpoints
                seeks_out[loss] = _seek(fitted, X, y, epochs, seeks)
                ratios[f"worst seek {loss} / 50 ms"] = {
                    "value": seeks_out[loss]["max_s"] / SEEK_GOAL_S, "goal": 1.0}
    finally:
        _scan.FORCE = saved
    return {
        "benchmark": NAME,
        "quick": quick,
        "n": n,
        "epochs": epochs,
        "eta0": ETA,
        "seed": SEED,
        "repeat": repeat,
        "fit": fits,
        "seek": seeks_out,
        "ratios": ratios,
        "environment": environment("sklearn", "numba"),
    }


def format_table(r: dict) -> str:
    """The result as a readable table."""
    ms = 1000.0
    lines = [f"PrimalPerceptron(loss=...).fit vs SGDClassifier   n = {r['n']:,}, "
             f"{r['epochs']} epochs, eta0 = {r['eta0']}, best of {r['repeat']}"]
    for loss, f in r["fit"].items():
        lines.append(
            f"  {loss:<11} {f['engine']:<10} ours {f['time_ours_s'] * ms:8.2f} ms   sklearn "
            f"{f['time_sklearn_s'] * ms:8.2f} ms   ratio {f['ratio']:5.2f} (goal <= 1.0)   "
            f"identical {f['weights_identical']}   Python loop {f['time_python_s'] * ms:8.0f} ms")
    for loss, s in r["seek"].items():
        lines.append(
            f"  seek {loss:<8} {s['steps']:,} steps: worst {s['max_s'] * ms:6.2f} ms, median "
            f"{s['median_s'] * ms:6.2f} ms over {s['seeks']} seeks (goal <= 50 ms), exact")
    return "\n".join(lines)


if __name__ == "__main__":
    main(NAME, run, format_table)
