"""Benchmark: ``QDA`` and ``GaussianNB`` (``fit``, ``predict_proba``) against scikit-learn's.

The references are scikit-learn's ``QuadraticDiscriminantAnalysis(store_covariance=True)``
and ``GaussianNB()``, fitted on the same points in the same process.  Both
compute the same model: the results are checked before any timing (the
posteriors to 1e-9, the means and covariances to 1e-12; scikit-learn from 1.9
divides a QDA class scatter by ``n_k`` where ours divides by ``n_k − 1``, so
its covariances are then compared times ``n_k / (n_k − 1)`` and its posteriors
are those of a fit on each class stretched about its mean by
``sqrt(n_k / (n_k − 1))``: ``tests/sklearn_oracle.py``, which asks the
installed scikit-learn which it does).

Measured here
-------------
- ``<learner> fit / sklearn``: best-of-``REPEAT`` time of our ``fit`` over
  scikit-learn's, interleaved.  Goal: <= 1.0.
- ``<learner> predict_proba / sklearn``: the same for ``predict_proba`` on
  the ``N`` training points.  Goal: <= 1.0.

Data: ``N`` = 10⁶ 2-D points, two Gaussian classes of unequal covariances
(seed 0), 40 % / 60 %.

Run ``python tests/benchmarks/bench_generative.py [--quick]``; the results are
printed and written to ``bench_generative.json`` beside this file
(``bench_generative.quick.json`` for a quick run).
"""

from __future__ import annotations

import sys
from pathlib import Path

import numpy as np

HERE = Path(__file__).resolve().parent
ROOT = HERE.parents[1]
if str(ROOT) not in sys.path:  # run as a script from a checkout
    sys.path.insert(0, str(ROOT))

from perceptron_gui.core import QDA, GaussianNB  # noqa: E402
from tests.benchmarks.benchlib import environment, main, timed  # noqa: E402
from tests.sklearn_oracle import qda_covariances_as_ours, qda_oracle_points  # noqa: E402

NAME = "bench_generative"

N, N_QUICK = 1_000_000, 5_000
SEED = 0
REPEAT = 5


def make_data(n: int = N, seed: int = SEED):
    """``n`` 2-D points: class 0 round and wide, class 1 narrow and tilted (40 % / 60 %)."""
    rng = np.random.default_rng(seed)
    n0 = int(0.4 * n)
    X0 = rng.normal(size=(n0, 2)) * 2.0 + [-1.0, 0.5]
    X1 = rng.normal(size=(n - n0, 2)) @ np.array([[1.2, 0.6], [0.0, 0.4]]) + [1.5, -0.5]
    X = np.vstack([X0, X1])
    y = np.r_[np.zeros(n0, dtype=int), np.ones(n - n0, dtype=int)]
    perm = rng.permutation(n)
    return np.ascontiguousarray(X[perm]), y[perm]


def _close(name, what, ours, ref, tol) -> float:
    ours, ref = np.asarray(ours, dtype=float), np.asarray(ref, dtype=float)
    err = float(np.abs(ours - ref).max()) / max(1.0, float(np.abs(ref).max()))
    if not err <= tol:
        raise AssertionError(f"{name} and scikit-learn disagree on {what}: "
                             f"relative difference {err:.3g} > {tol:g}")
    return err


def _check(name, ours, ref, oracle, X, y) -> dict:
    """The same model: means, covariances (or variances), posteriors; raises when not."""
    errors = {}
    if name == "QDA":
        errors["means"] = _close(name, "the means", ours.means_, ref.means_, 1e-12)
        sk_cov = qda_covariances_as_ours(ref.covariance_, np.bincount(y))
        errors["covariances"] = _close(name, "the covariances", ours.covariance_, sk_cov, 1e-12)
    else:
        errors["means"] = _close(name, "the means", ours.theta_, ref.theta_, 1e-12)
        errors["variances"] = _close(name, "the variances", ours.var_, ref.var_, 1e-12)
    errors["predict_proba"] = _close(name, "predict_proba", ours.predict_proba(X),
                                     oracle.predict_proba(X), 1e-9)
    return errors


def _bench(name, ours_fit, sk_fit, X, y, repeat, check: bool = True) -> dict:
    """Time ``fit`` and ``predict_proba`` of ours and scikit-learn's, interleaved (``check``:
    first the same model, as :func:`_check` says; else the caller checked it)."""
    warm_ours, ours = timed(ours_fit)
    warm_sk, ref = timed(sk_fit)
    oracle = ref
    if name == "QDA":
        from sklearn.discriminant_analysis import QuadraticDiscriminantAnalysis

        oracle = QuadraticDiscriminantAnalysis(store_covariance=True)
        oracle.fit(qda_oracle_points(X, y), y)
    errors = _check(name, ours, ref, oracle, X, y) if check else {}
    fit_ours, fit_sk, proba_ours, proba_sk = [], [], [], []
    for _ in range(repeat):  # interleaved, so slow drifts hit both alike
        fit_ours.append(timed(ours_fit)[0])
        fit_sk.append(timed(sk_fit)[0])
        proba_ours.append(timed(lambda: ours.predict_proba(X))[0])
        proba_sk.append(timed(lambda: ref.predict_proba(X))[0])
    return {
        "fit_ours_s": min(fit_ours), "fit_sklearn_s": min(fit_sk),
        "fit_ratio": min(fit_ours) / min(fit_sk),
        "proba_ours_s": min(proba_ours), "proba_sklearn_s": min(proba_sk),
        "proba_ratio": min(proba_ours) / min(proba_sk),
        "warmup_ours_s": warm_ours, "warmup_sklearn_s": warm_sk,
        "max_relative_error": errors,
    }


def run(quick: bool = False) -> dict:
    """Run the benchmark; returns the measurements as a JSON-ready dict.

    Raises
    ------
    AssertionError
        When a fitted model or its posteriors are not scikit-learn's.
    """
    from sklearn.discriminant_analysis import QuadraticDiscriminantAnalysis
    from sklearn.naive_bayes import GaussianNB as SkGaussianNB

    n = N_QUICK if quick else N
    repeat = 2 if quick else REPEAT
    X, y = make_data(n)
    learners = {
        "QDA": (lambda: QDA().fit(X, y),
                lambda: QuadraticDiscriminantAnalysis(store_covariance=True).fit(X, y)),
        "GaussianNB": (lambda: GaussianNB().fit(X, y), lambda: SkGaussianNB().fit(X, y)),
    }
    results, ratios = {}, {}
    for name, (ours_fit, sk_fit) in learners.items():
        r = results[name] = _bench(name, ours_fit, sk_fit, X, y, repeat)
        ratios[f"{name} fit / sklearn"] = {"value": r["fit_ratio"], "goal": 1.0}
        ratios[f"{name} predict_proba / sklearn"] = {"value": r["proba_ratio"], "goal": 1.0}
    return {"benchmark": NAME, "quick": quick, "n": n, "seed": SEED, "repeat": repeat,
            "learners": results, "ratios": ratios, "environment": environment("sklearn")}


def format_table(r: dict) -> str:
    """The result as a readable table."""
    ms = 1000.0
    lines = [f"QDA and GaussianNB vs scikit-learn   n = {r['n']:,} (2-D), best of {r['repeat']}"]
    for name, x in r["learners"].items():
        lines.append(
            f"  {name:<10} fit ours {x['fit_ours_s'] * ms:8.1f} ms  sklearn "
            f"{x['fit_sklearn_s'] * ms:8.1f} ms  ratio {x['fit_ratio']:5.2f} (goal <= 1.0)")
        lines.append(
            f"  {'':<10} predict_proba ours {x['proba_ours_s'] * ms:8.1f} ms  sklearn "
            f"{x['proba_sklearn_s'] * ms:8.1f} ms  ratio {x['proba_ratio']:5.2f} (goal <= 1.0)"
            f"   same model (posteriors to {x['max_relative_error']['predict_proba']:.1e})")
    return "\n".join(lines)


if __name__ == "__main__":
    main(NAME, run, format_table)
