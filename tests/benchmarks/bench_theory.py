"""Benchmark: maximum margin and Novikoff bound against scikit-learn's linear SVC.

Times ``theory.max_margin`` and ``theory.novikoff`` on 10,000 linearly
separable 2-D points and ``sklearn.svm.SVC(kernel="linear")`` on the same data,
in the same process (best of a few repeats, ``time.perf_counter``), and reports
the ratios ours / SVC (goal: at most 0.2).  SVC is the reference a user would
otherwise reach for; it solves the soft-margin problem (C=1.0) iteratively,
while ``max_margin`` is exact and ``novikoff`` certified.

Run it as a script::

    .venv/bin/python tests/benchmarks/bench_theory.py

or call :func:`run` (returns the results as a dict).  The results are also
written to ``tests/benchmarks/bench_theory.json`` (gitignored).
"""

from __future__ import annotations

import json
import platform
import time
from pathlib import Path

import numpy as np

from perceptron_gui.core import theory

GOAL = 0.2
JSON_PATH = Path(__file__).with_name("bench_theory.json")


def make_data(n: int = 10_000, seed: int = 0) -> tuple[np.ndarray, np.ndarray]:
    """``n`` separable 2-D points: a Gaussian cloud split by a line, pushed apart."""
    rng = np.random.default_rng(seed)
    normal = np.array([1.0, 2.0]) / np.sqrt(5.0)
    X = rng.normal(size=(n, 2)) * [2.0, 1.0] + [3.0, -1.0]
    y = np.where((X - [3.0, -1.0]) @ normal > 0.2, 1.0, -1.0)
    X = X + 0.1 * y[:, None] * normal
    return X, y


def best_time(fn, repeats: int) -> float:
    """Best wall time of ``repeats`` calls, in seconds."""
    best = float("inf")
    for _ in range(repeats):
        t = time.perf_counter()
        fn()
        best = min(best, time.perf_counter() - t)
    return best


def run(n: int = 10_000, repeats: int = 5, svc_repeats: int = 3, write: bool = True) -> dict:
    """Run the benchmark and return its results (times in seconds)."""
    from sklearn.svm import SVC

    X, y = make_data(n)
    # warm-up: lazy imports (scipy) and caches are not part of the steady state
    mm = theory.max_margin(X, y)
    nov = theory.novikoff(X, y)
    svc = SVC(kernel="linear").fit(X, y)

    t_mm = best_time(lambda: theory.max_margin(X, y), repeats)
    t_nov = best_time(lambda: theory.novikoff(X, y), repeats)
    t_svc = best_time(lambda: SVC(kernel="linear").fit(X, y), svc_repeats)

    results = {
        "benchmark": "theory",
        "n_samples": n,
        "python": platform.python_version(),
        "numpy": np.__version__,
        "times_s": {"max_margin": t_mm, "novikoff": t_nov, "svc_linear": t_svc},
        "ratios": {"max_margin/svc": t_mm / t_svc, "novikoff/svc": t_nov / t_svc},
        "goal_ratio": GOAL,
        "pass": bool(t_mm / t_svc <= GOAL and t_nov / t_svc <= GOAL),
        "checks": {
            "max_margin_separable": bool(mm.separable),
            "max_margin": mm.margin,
            "max_margin_n_support": int(mm.support.size),
            "svc_margin_C1": float(1.0 / np.linalg.norm(svc.coef_)),
            "novikoff_certified": bool(nov.certified),
            "novikoff_gap": (nov.upper - nov.lower) / nov.upper,
            "novikoff_bound": nov.bound,
        },
    }
    if write:
        JSON_PATH.write_text(json.dumps(results, indent=2) + "\n")
    return results


def main() -> None:
    r = run()
    t, q = r["times_s"], r["ratios"]
    print(f"theory benchmark, n = {r['n_samples']}")
    for name in ("max_margin", "novikoff"):
        print(f"  {name:<12} {t[name] * 1e3:9.2f} ms   ratio to SVC {q[name + '/svc']:.4f}")
    print(f"  SVC(linear)  {t['svc_linear'] * 1e3:9.2f} ms")
    print(f"  goal ratio <= {r['goal_ratio']}: {'PASS' if r['pass'] else 'FAIL'}")
    c = r["checks"]
    print(
        f"  margin {c['max_margin']:.6g} ({c['max_margin_n_support']} support vectors); "
        f"Novikoff bound {c['novikoff_bound']:.6g}, certificate gap {c['novikoff_gap']:.2e}"
    )
    print(f"  written to {JSON_PATH}")


if __name__ == "__main__":
    main()
