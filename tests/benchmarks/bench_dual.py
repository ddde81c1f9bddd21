"""Benchmark: ``DualPerceptron(kernel="rbf")`` on 5,000 and 10,000 points.

The dual learner never builds the n-by-n Gram matrix: it keeps the kernel part
of every sample's decision value up to date and adds one kernel row per update
(O(n) time), caching rows up to ``KERNEL_CACHE_BYTES``.  This benchmark shows
what that costs in time per update and in memory, next to the size of the dense
Gram matrix it avoids.

Data
----
A 12 x 12 checkerboard on ``[0, 12)²`` (XOR generalised to many cells), uniform
points with a seeded ``numpy`` generator, none within 0.03 of a cell edge, so
it is separable with an RBF kernel (``gamma = 8``).  The toy generators of
``perceptron_gui.core.datasets`` (circles, xor, moons) converge within a few
dozen updates with an RBF kernel, too few to time the update loop, so they are
not used here.

Measured here, for each size
----------------------------
- ``time_s``: best-of-3 time of ``fit``; ``us_per_update`` and
  ``updates_per_s`` divide it by the number of updates.
- ``tracemalloc_peak_bytes``: peak of the memory traced during one ``fit``
  (numpy's buffers included), measured in a fresh interpreter.
- ``maxrss_delta_bytes``: growth of that interpreter's maximum resident set
  size during the ``fit``: what the fit adds to the process's memory
  high-water mark.  (In a long-lived process the high-water mark hides memory
  freed by earlier work, hence the fresh interpreter.)  It is read from
  ``VmHWM`` in ``/proc/self/status`` on Linux and from
  ``resource.getrusage(...).ru_maxrss`` elsewhere: on Linux ``ru_maxrss``
  carries the parent's resident size over ``exec``, which hid ~65 MiB of the
  10,000-point fit when this benchmark first used it.
- ``dense_gram_bytes``: ``8 n²``, what a float64 Gram matrix would take.
- ``kernel_row_us``: time to compute one kernel row ``K(x_i, X)`` and add it to
  the decision values, measured in the same process: the floor of an update that
  misses the row cache.  ``us_per_update / kernel_row_us`` is shown for context.

Run ``python tests/benchmarks/bench_dual.py [--quick]``; the results are
printed and written to ``bench_dual.json`` beside this file
(``bench_dual.quick.json`` for a quick run).
"""

from __future__ import annotations

import gc
import json
import os
import subprocess
import sys
import time
import tracemalloc
from pathlib import Path

import numpy as np

try:
    import resource
except ImportError:  # not on a POSIX system
    resource = None

HERE = Path(__file__).resolve().parent
ROOT = HERE.parents[1]
if str(ROOT) not in sys.path:  # run as a script from a checkout
    sys.path.insert(0, str(ROOT))

from perceptron_gui.core import DualPerceptron  # noqa: E402
from perceptron_gui.core.kernels import make_kernel  # noqa: E402
from perceptron_gui.core.learners.dual import KERNEL_CACHE_BYTES  # noqa: E402
from tests.benchmarks.benchlib import best_of, environment, main  # noqa: E402

NAME = "bench_dual"

SIZES = (5_000, 10_000)
SIZES_QUICK = (500, 1_000)
SEED = 0
CELLS = 12
GAP = 0.03
GAMMA = 8.0
#: Cap on the epochs, so that the benchmark ends in seconds even if a change
#: made the run slower to converge (it converges in 22 and 35 epochs here).
MAX_EPOCHS = 200
REPEAT = 3


def make_data(n: int, seed: int = SEED):
    """``n`` points of a ``CELLS`` x ``CELLS`` checkerboard, none within ``GAP`` of an edge.

    Returns ``(X, y)`` with ``y`` in {-1, +1}; deterministic for a given seed.
    """
    rng = np.random.default_rng(seed)
    X = rng.uniform(0.0, CELLS, size=(3 * n, 2))
    frac = X - np.floor(X)
    X = X[np.all((frac > GAP) & (frac < 1.0 - GAP), axis=1)][:n]
    if X.shape[0] < n:
        raise ValueError("gap too large for the requested number of points")
    y = np.where((np.floor(X[:, 0]) + np.floor(X[:, 1])) % 2 == 0, 1, -1)
    return np.ascontiguousarray(X), y


def _maxrss_bytes() -> tuple[int | None, str]:
    """The process's peak resident set size in bytes, and where it was read.

    On Linux ``VmHWM`` of ``/proc/self/status`` is preferred: ``getrusage``'s
    ``ru_maxrss`` survives ``exec`` and starts at the parent's resident size, so
    in a child started by a big parent it hides the child's own growth.
    """
    try:
        with open("/proc/self/status") as f:
            for line in f:
                if line.startswith("VmHWM:"):
                    return int(line.split()[1]) * 1024, "VmHWM"
    except OSError:
        pass
    if resource is None:
        return None, "unavailable"
    rss = resource.getrusage(resource.RUSAGE_SELF).ru_maxrss
    return (int(rss) if sys.platform == "darwin" else int(rss) * 1024), "getrusage"


def _learner() -> DualPerceptron:
    return DualPerceptron(kernel="rbf", gamma=GAMMA, max_iter=MAX_EPOCHS)


def kernel_row_time(X, rows: int = 200) -> float:
    """Mean seconds to compute ``K(x_i, X)`` and add it to a vector of decision values."""
    kern = make_kernel("rbf", gamma=GAMMA)
    f = np.zeros(X.shape[0])
    idx = np.linspace(0, X.shape[0] - 1, rows).astype(int)
    def rows_once():
        for i in idx:
            f[:] += kern(X[i : i + 1], X)[0]

    return best_of(rows_once, 3) / rows


def memory_fit(n: int) -> dict:
    """Memory of one ``fit`` on ``n`` points, measured in this process.

    Called in a fresh interpreter by :func:`measure`, so that the max-RSS delta
    is not hidden under the high-water mark of earlier work.
    """
    X, y = make_data(n)
    gc.collect()
    rss0, source = _maxrss_bytes()
    tracemalloc.start()
    p = _learner().fit(X, y)
    peak = tracemalloc.get_traced_memory()[1]
    tracemalloc.stop()
    rss1, _ = _maxrss_bytes()
    return {
        "tracemalloc_peak_bytes": int(peak),
        "maxrss_delta_bytes": None if rss0 is None else rss1 - rss0,
        "maxrss_source": source,
        "separates_training_set": bool(np.array_equal(p.predict(X), y)),
        "converged": bool(p.converged_),
    }


_MEMORY = """
import json, sys
sys.path.insert(0, sys.argv[1])
import bench_dual
print(json.dumps(bench_dual.memory_fit(int(sys.argv[2]))))
"""


def memory_fit_fresh(n: int) -> dict:
    """:func:`memory_fit` in a fresh interpreter."""
    env = dict(os.environ)
    env["PYTHONPATH"] = os.pathsep.join(filter(None, [str(ROOT), env.get("PYTHONPATH")]))
    proc = subprocess.run(
        [sys.executable, "-c", _MEMORY, str(HERE), str(n)],
        capture_output=True, text=True, env=env, check=False,
    )
    if proc.returncode != 0:
        raise RuntimeError(f"memory subprocess failed:\n{proc.stderr}")
    return json.loads(proc.stdout.strip().splitlines()[-1])


def measure(n: int, repeat: int) -> dict:
    """All measurements for one size."""
    X, y = make_data(n)
    mem = memory_fit_fresh(n)
    peak = mem["tracemalloc_peak_bytes"]
    if mem["converged"] and not mem["separates_training_set"]:
        raise AssertionError(f"n={n}: converged but does not separate its training set")

    p = None
    times = []
    for _ in range(repeat):
        p = None  # free the previous run's row cache before the next one
        gc.collect()
        t = time.perf_counter()
        p = _learner().fit(X, y)
        times.append(time.perf_counter() - t)
    best = min(times)
    updates = int(p.n_updates_)
    row = kernel_row_time(X)
    per_update = best / max(updates, 1)
    return {
        "n": n,
        "updates": updates,
        "epochs": int(p.n_epochs_),
        "converged": bool(p.converged_),
        "separates_training_set": mem["separates_training_set"],
        "support": int(p.support_.size),
        "cache_rows": max(1, KERNEL_CACHE_BYTES // (8 * n)),
        "time_s": best,
        "us_per_update": per_update * 1e6,
        "updates_per_s": updates / best if best > 0 else float("inf"),
        "tracemalloc_peak_bytes": int(peak),
        "maxrss_delta_bytes": mem["maxrss_delta_bytes"],
        "maxrss_source": mem["maxrss_source"],
        "dense_gram_bytes": 8 * n * n,
        "peak_over_gram": peak / (8 * n * n),
        "kernel_row_us": row * 1e6,
        "update_over_kernel_row": per_update / row,
    }


def run(quick: bool = False) -> dict:
    """Run the benchmark; returns the measurements as a JSON-ready dict."""
    sizes = SIZES_QUICK if quick else SIZES
    repeat = 1 if quick else REPEAT
    rows = [measure(n, repeat) for n in sizes]
    ratios = {}
    for r in rows:
        ratios[f"dual rbf n={r['n']}: traced peak / dense Gram"] = {
            "value": r["peak_over_gram"], "goal": 1.0,
        }
        ratios[f"dual rbf n={r['n']}: time per update / kernel row (context)"] = {
            "value": r["update_over_kernel_row"], "goal": None,
        }
    return {
        "benchmark": NAME,
        "quick": quick,
        "data": {"kind": "checkerboard", "cells": CELLS, "gap": GAP, "seed": SEED},
        "kernel": {"name": "rbf", "gamma": GAMMA},
        "max_iter": MAX_EPOCHS,
        "kernel_cache_bytes": KERNEL_CACHE_BYTES,
        "repeat": repeat,
        "sizes": rows,
        "ratios": ratios,
        "environment": environment("sklearn", "numba"),
    }


def _mib(b) -> str:
    return "n/a" if b is None else f"{b / 2**20:.1f}"


def format_table(res: dict) -> str:
    """A readable table of a :func:`run` result."""
    head = (
        f"DualPerceptron(kernel='rbf', gamma={res['kernel']['gamma']}) on a "
        f"{res['data']['cells']}x{res['data']['cells']} checkerboard   "
        f"(best of {res['repeat']}, max_iter={res['max_iter']})"
    )
    cols = [
        ("n", lambda r: f"{r['n']:,}"),
        ("updates", lambda r: f"{r['updates']:,}"),
        ("epochs", lambda r: f"{r['epochs']}{'' if r['converged'] else ' (cap)'}"),
        ("support", lambda r: f"{r['support']:,}"),
        ("fit ms", lambda r: f"{r['time_s'] * 1e3:.1f}"),
        ("µs/update", lambda r: f"{r['us_per_update']:.1f}"),
        ("updates/s", lambda r: f"{r['updates_per_s']:,.0f}"),
        ("row µs", lambda r: f"{r['kernel_row_us']:.1f}"),
        ("peak MiB", lambda r: _mib(r["tracemalloc_peak_bytes"])),
        ("ΔmaxRSS MiB", lambda r: _mib(r["maxrss_delta_bytes"])),
        ("Gram MiB", lambda r: _mib(r["dense_gram_bytes"])),
    ]
    cells = [[name for name, _ in cols]] + [[f(r) for _, f in cols] for r in res["sizes"]]
    widths = [max(len(row[j]) for row in cells) for j in range(len(cols))]
    lines = [head]
    for row in cells:
        lines.append("  " + "  ".join(c.rjust(w) for c, w in zip(row, widths, strict=True)))
    return "\n".join(lines)


if __name__ == "__main__":
    main(NAME, run, format_table)
