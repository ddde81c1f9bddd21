"""Benchmark: LDA, QDA and GaussianNB with eight classes (``fit``, ``predict_proba``) against
scikit-learn's, as issue 35 asks.

The same model is checked before any timing, as in :mod:`bench_generative` (whose
measuring loop this reuses): LDA's posteriors against scikit-learn's
``LinearDiscriminantAnalysis(solver="lsqr")`` fitted on each class stretched about
its mean by ``sqrt(n / (n − m))`` (ours pools the scatter over ``n − m``, seed 003;
scikit-learn's over ``n``), QDA's and naive Bayes' as there.

Measured here
-------------
- ``<learner> fit / sklearn`` and ``<learner> predict_proba / sklearn`` with
  ``M`` classes: best-of-``REPEAT`` over scikit-learn's, interleaved.  Goal: <= 1.0.

Data: ``N`` = 10⁵ 2-D points in ``M`` = 8 Gaussian classes of one shared shape
(seed 0).  Run ``python tests/benchmarks/bench_multiclass.py [--quick]``; the results
are printed and written to ``bench_multiclass.json`` beside this file.
"""

from __future__ import annotations

import sys
from pathlib import Path

import numpy as np

HERE = Path(__file__).resolve().parent
ROOT = HERE.parents[1]
if str(ROOT) not in sys.path:  # run as a script from a checkout
    sys.path.insert(0, str(ROOT))

from perceptron_gui.core import LDA, QDA, GaussianNB  # noqa: E402
from tests.benchmarks import bench_generative as generative  # noqa: E402
from tests.benchmarks.benchlib import environment, main  # noqa: E402

NAME = "bench_multiclass"
N, N_QUICK, M = 100_000, 4_000, 8
SEED = 0
REPEAT = 5


def make_data(n: int = N, m: int = M, seed: int = SEED):
    """``n`` 2-D points of ``m`` classes around centres on a circle, one shared shape."""
    rng = np.random.default_rng(seed)
    angles = 2 * np.pi * np.arange(m) / m
    centres = 5 * np.column_stack([np.cos(angles), np.sin(angles)])
    y = rng.integers(0, m, n)
    X = centres[y] + rng.normal(size=(n, 2)) @ np.array([[1.3, 0.4], [0.0, 0.8]])
    return np.ascontiguousarray(X), y


def lda_oracle_points(X, y):
    """Points whose pooled covariance over ``n`` is that of ``(X, y)`` over ``n − m``."""
    classes = np.unique(y)
    stretch = np.sqrt(len(y) / (len(y) - len(classes)))
    out = X.copy()
    for k in classes:
        mean = X[y == k].mean(axis=0)
        out[y == k] = mean + (X[y == k] - mean) * stretch
    return out


def _lda(X, y, repeat) -> dict:
    from sklearn.discriminant_analysis import LinearDiscriminantAnalysis as Sk

    def sk_fit():
        return Sk(solver="lsqr").fit(X, y)

    oracle = Sk(solver="lsqr").fit(lda_oracle_points(X, y), y)
    ours = LDA().fit(X, y)
    error = generative._close("LDA", "predict_proba", ours.predict_proba(X),
                              oracle.predict_proba(X), 1e-9)
    out = generative._bench("LDA", lambda: LDA().fit(X, y), sk_fit, X, y, repeat,
                            check=False)
    out["max_relative_error"] = {"predict_proba": error}
    return out


def run(quick: bool = False) -> dict:
    """Run the benchmark; returns the measurements (AssertionError: not scikit-learn's model)."""
    from sklearn.discriminant_analysis import QuadraticDiscriminantAnalysis
    from sklearn.naive_bayes import GaussianNB as SkGaussianNB

    n = N_QUICK if quick else N
    repeat = 2 if quick else REPEAT
    X, y = make_data(n)
    results = {"LDA": _lda(X, y, repeat)}
    results["QDA"] = generative._bench(
        "QDA", lambda: QDA().fit(X, y),
        lambda: QuadraticDiscriminantAnalysis(store_covariance=True).fit(X, y), X, y, repeat)
    results["GaussianNB"] = generative._bench(
        "GaussianNB", lambda: GaussianNB().fit(X, y), lambda: SkGaussianNB().fit(X, y), X, y,
        repeat)
    ratios = {}
    for name, r in results.items():
        ratios[f"{name} fit / sklearn ({M} classes)"] = {"value": r["fit_ratio"], "goal": 1.0}
        ratios[f"{name} predict_proba / sklearn ({M} classes)"] = {"value": r["proba_ratio"],
                                                                   "goal": 1.0}
    return {"benchmark": NAME, "quick": quick, "n": n, "m": M, "seed": SEED, "repeat": repeat,
            "learners": results, "ratios": ratios, "environment": environment("sklearn")}


def format_table(r: dict) -> str:
    """The result as a readable table."""
    text = generative.format_table(r)
    return text.replace("QDA and GaussianNB vs scikit-learn",
                        f"LDA, QDA and GaussianNB, {r['m']} classes, vs scikit-learn", 1)


if __name__ == "__main__":
    main(NAME, run, format_table)
