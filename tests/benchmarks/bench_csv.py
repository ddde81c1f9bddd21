"""Reading a 10⁶-row ``x,y,label`` file: ``tabular.read_table`` against ``pandas.read_csv``.

Issue 12's goal: the table reader costs at most 1.5 times ``pandas.read_csv``
on the same file, measured in the same process.  The file is written by
``core.io.write_csv`` (``repr`` floats, labels -1/1) from Gaussian points
(seed 0) into a temporary folder.  Both readers are warmed up once, then timed
interleaved, best of :data:`REPEAT` with ``time.perf_counter`` (and, for
context, with ``time.process_time``: the CPU time, less disturbed by other
processes on a shared machine).  Our side
includes everything a user waits for: sniffing, the chunked parse, checking
every value and mapping the labels into a ``Dataset``; the points are checked
to equal pandas' bit for bit.  ``core.io.read_csv`` (a thin wrapper
over it) is timed too, for context.

Run: ``.venv/bin/python tests/benchmarks/bench_csv.py`` (``--quick``: 20,000 rows).
"""

from __future__ import annotations

import os
import sys
import tempfile
import time
from pathlib import Path

import numpy as np

HERE = Path(__file__).resolve().parent
ROOT = HERE.parents[1]
if str(ROOT) not in sys.path:  # run as a script from a checkout
    sys.path.insert(0, str(ROOT))

from tests.benchmarks.benchlib import environment, main  # noqa: E402

NAME = "bench_csv"
N = 1_000_000
N_QUICK = 20_000
REPEAT = 5
GOAL = 1.5


def make_file(n: int, folder: str) -> str:
    """Write ``n`` labeled Gaussian points as ``x,y,label`` and return the path."""
    from perceptron_gui.core import Dataset, io

    rng = np.random.default_rng(0)
    X = rng.normal(size=(n, 2))
    y = np.where(X[:, 0] + 0.5 * X[:, 1] > 0, 1, -1)
    path = os.path.join(folder, "points.csv")
    io.write_csv(Dataset(X, y), path)
    return path


def _best(funcs: dict, repeat: int) -> dict:
    """Best wall-clock and best CPU time of each function, timed interleaved."""
    times = {k: [] for k in funcs}
    for _ in range(repeat):
        for k, f in funcs.items():
            t, c = time.perf_counter(), time.process_time()
            f()
            times[k].append((time.perf_counter() - t, time.process_time() - c))
    return {k: (min(w for w, _ in v), min(c for _, c in v)) for k, v in times.items()}


def run(quick: bool = False) -> dict:
    """Measure; raises AssertionError when our points differ from pandas'."""
    import pandas as pd

    from perceptron_gui.core import io
    from perceptron_gui.core.io import tabular

    n = N_QUICK if quick else N
    repeat = 2 if quick else REPEAT
    with tempfile.TemporaryDirectory() as folder:
        path = make_file(n, folder)
        size = os.path.getsize(path)
        ref = pd.read_csv(path)
        ours = tabular.read_table(path)
        expected = ref[["x", "y"]].to_numpy()
        if not (np.array_equal(ours.dataset.X, expected)
                and np.array_equal(ours.dataset.y, ref["label"].to_numpy())):
            raise AssertionError("read_table and pandas.read_csv disagree on the points")
        best = _best({"pandas": lambda: pd.read_csv(path),
                      "ours": lambda: tabular.read_table(path)}, repeat)
        best.update(_best({"io": lambda: io.read_csv(path)}, 1 if quick else 2))
    ratio = best["ours"][0] / best["pandas"][0]
    ratio_cpu = best["ours"][1] / best["pandas"][1]
    ratio_io = best["io"][0] / best["pandas"][0]
    return {
        "benchmark": NAME, "quick": quick, "n": n, "file_bytes": size,
        "points_identical": True,
        "time_pandas_s": best["pandas"][0], "time_ours_s": best["ours"][0],
        "time_io_s": best["io"][0], "cpu_pandas_s": best["pandas"][1],
        "cpu_ours_s": best["ours"][1],
        "ratio": ratio, "ratio_cpu": ratio_cpu, "ratio_io": ratio_io,
        "ratios": {
            "read_table / pandas.read_csv": {"value": ratio, "goal": GOAL},
            "read_table / pandas.read_csv, CPU time": {"value": ratio_cpu, "goal": None},
            "io.read_csv / pandas.read_csv": {"value": ratio_io, "goal": None},
        },
        "environment": environment("pandas"),
    }


def format_table(r: dict) -> str:
    """A readable table of a :func:`run` result."""
    ms = 1e3
    return "\n".join([
        f"{r['n']:,} rows of x,y,label ({r['file_bytes'] / 2**20:.1f} MB), best of "
        f"{2 if r['quick'] else REPEAT}; points identical to pandas': {r['points_identical']}",
        f"  pandas.read_csv               {r['time_pandas_s'] * ms:8.1f} ms   1",
        f"  tabular.read_table            {r['time_ours_s'] * ms:8.1f} ms   "
        f"{r['ratio']:.2f} (goal <= {GOAL})",
        f"    CPU time: pandas {r['cpu_pandas_s'] * ms:.1f} ms, ours {r['cpu_ours_s'] * ms:.1f} ms"
        f"   {r['ratio_cpu']:.2f} (context: less sensitive to other processes)",
        f"  io.read_csv (wraps it)       {r['time_io_s'] * ms:8.1f} ms   "
        f"{r['ratio_io']:.2f} (context)",
    ])


if __name__ == "__main__":
    main(NAME, run, format_table)
