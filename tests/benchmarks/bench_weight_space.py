"""Benchmark: the weight-space view's generously feasible region at 10⁵ cases.

Times :func:`~perceptron_gui.core.theory.weight_space.clip_polygon` (a
round drops every line that leaves the polygon whole, then cuts by the
deepest one) against Sutherland–Hodgman one line after the other (the
reference, :func:`line_by_line`) on the same lines in the same process, at
the scales 1 and 1e-300, and checks that the two polygons agree.  The
issue's rule: the UI thread never holds more than 50 ms (its budget ratio,
time / 50 ms, is reported).

Run it as a script::

    .venv/bin/python tests/benchmarks/bench_weight_space.py
"""

from __future__ import annotations

import sys
from pathlib import Path

import numpy as np

ROOT = Path(__file__).resolve().parents[2]
if str(ROOT) not in sys.path:  # run as a script from a checkout
    sys.path.insert(0, str(ROOT))

from perceptron_gui.core.theory.weight_space import clip_polygon, generous_lines  # noqa: E402
from tests.benchmarks.benchlib import best_of, environment, main  # noqa: E402

NAME = "bench_weight_space"
BUDGET_S = 0.05


def make_cases(n: int, scale: float, seed: int = 2) -> tuple[np.ndarray, np.ndarray]:
    """``n`` cases separable through the origin with a margin, times ``scale``."""
    rng = np.random.default_rng(seed)
    X = rng.normal(size=(2 * n, 2))
    along = X @ np.array([0.6, 0.8])
    X = X[np.abs(along) > 0.1][:n]
    y = np.where(X @ np.array([0.6, 0.8]) > 0, 1, -1)
    return X * scale, y


def line_by_line(P: np.ndarray, lines: np.ndarray) -> np.ndarray:
    """Sutherland–Hodgman, one pass per line: the reference."""
    with np.errstate(over="ignore", invalid="ignore"):
        for a, b, d in np.asarray(lines, np.float64).tolist():
            if not P.shape[0]:
                break
            s = P[:, 0] * a + P[:, 1] * b + d
            out = []
            for i in range(P.shape[0]):
                j = (i + 1) % P.shape[0]
                if s[i] >= 0:
                    out.append(P[i])
                if (s[i] >= 0) != (s[j] >= 0):
                    out.append(P[i] + s[i] / (s[i] - s[j]) * (P[j] - P[i]))
            P = np.array(out) if out else np.empty((0, 2))
    return P


def _area(P: np.ndarray) -> float:
    x, y = P[:, 0], P[:, 1]
    return 0.5 * abs(float(x @ np.roll(y, -1) - y @ np.roll(x, -1)))


def run(quick: bool = False) -> dict:
    n = 5_000 if quick else 100_000
    out = {"benchmark": NAME, "quick": quick, "n": n, "times_s": {}, "ratios": {}}
    for scale in (1.0, 1e-300):
        X, y = make_cases(n, scale)
        lines = generous_lines(X, y, fit_intercept=False)
        r = 1000 * float(np.abs(X).max())
        box = np.array([[-r, -r], [r, -r], [r, r], [-r, r]])
        ours, ref = clip_polygon(box, lines), line_by_line(box, lines)
        assert ours.shape[0] >= 3 and ref.shape[0] >= 3, "the region is empty"
        assert abs(_area(ours / r) - _area(ref / r)) <= 1e-9 * _area(ref / r), (
            f"scale {scale:g}: the polygons differ")
        t_ours = best_of(lambda b=box, L=lines: clip_polygon(b, L), 3)
        t_ref = best_of(lambda b=box, L=lines: line_by_line(b, L), 1)
        label = f"scale {scale:g}"
        out["times_s"][label] = {"ours": t_ours, "line by line": t_ref}
        out["ratios"][f"{label}: ours / line by line"] = {"value": t_ours / t_ref,
                                                          "goal": 0.05}
        out["ratios"][f"{label}: ours / {BUDGET_S * 1000:.0f} ms"] = {
            "value": t_ours / BUDGET_S, "goal": 1.0}
    out["environment"] = environment()
    return out


def format_table(result: dict) -> str:
    rows = [f"generously feasible region at n = {result['n']:,}"]
    for label, t in result["times_s"].items():
        rows.append(f"  {label:<14} ours {t['ours'] * 1e3:8.1f} ms   "
                    f"line by line {t['line by line'] * 1e3:9.1f} ms")
    for label, r in result["ratios"].items():
        rows.append(f"  {label:<40} {r['value']:7.3f}  (goal ≤ {r['goal']})")
    return "\n".join(rows)


if __name__ == "__main__":
    main(NAME, run, format_table)
