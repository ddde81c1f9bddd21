"""What every benchmark reports the same way: the environment of a run, and its JSON file.

Not a benchmark itself (``run_all.py`` picks up ``bench_*.py`` only).  The
benchmarks import it as ``tests.benchmarks.benchlib``, with the checkout's
root on ``sys.path`` (each script puts it there when run directly).
"""

from __future__ import annotations

import datetime
import importlib.metadata
import json
import os
import platform
import sys
import time
from pathlib import Path

import numpy as np

HERE = Path(__file__).resolve().parent

#: The environment's key for a package → the distribution its version is read from.
DISTRIBUTIONS = {
    "sklearn": "scikit-learn",
    "numba": "numba",
    "pandas": "pandas",
    "pyside6": "PySide6",
    "pyqtgraph": "pyqtgraph",
}


def _version(distribution: str) -> str | None:
    # from the installed metadata, without importing the package (importing numba
    # or Qt here would change the timings that follow)
    try:
        return importlib.metadata.version(distribution)
    except importlib.metadata.PackageNotFoundError:
        return None


def environment(*packages: str) -> dict:
    """Timestamp, versions and CPU count, so successive runs can be compared.

    Parameters
    ----------
    *packages : str
        Keys of :data:`DISTRIBUTIONS` whose versions the benchmark depends on
        (``None`` for one not installed); Python's and numpy's are always given.
    """
    try:
        usable = len(os.sched_getaffinity(0))
    except AttributeError:  # not on Linux
        usable = os.cpu_count()
    env = {
        "timestamp": datetime.datetime.now(datetime.timezone.utc).isoformat(timespec="seconds"),
        "python": platform.python_version(),
        "numpy": np.__version__,
    }
    env.update({key: _version(DISTRIBUTIONS[key]) for key in packages})
    env.update({
        "cpu_count": os.cpu_count(),
        "cpu_usable": usable,
        "load_average": os.getloadavg() if hasattr(os, "getloadavg") else None,
        "machine": platform.machine(),
        "platform": platform.platform(),
    })
    return env


def write_result(name: str, result: dict, kind: str | None = None) -> Path:
    """Write ``result`` to ``<name><kind>.json`` beside the benchmarks and return the path.

    ``kind`` defaults to ``".quick"`` for a quick run (``result["quick"]``), else ``""``.
    """
    if kind is None:
        kind = ".quick" if result.get("quick") else ""
    path = HERE / f"{name}{kind}.json"
    path.write_text(json.dumps(result, indent=2, default=str) + "\n")
    return path


def timed(fn):
    """``(seconds, fn())``: one call's wall-clock time and its result."""
    t = time.perf_counter()
    out = fn()
    return time.perf_counter() - t, out


def best_of(fn, repeat: int) -> float:
    """The least wall-clock time of ``repeat`` calls of ``fn`` (the one least disturbed)."""
    return min(timed(fn)[0] for _ in range(repeat))


def main(name: str, run, format_table, argv=None) -> None:
    """A benchmark run as a script: ``run(quick=...)`` (``--quick`` in ``argv``), print, write.

    Prints ``format_table(result)`` and writes the result with :func:`write_result`.
    """
    argv = sys.argv[1:] if argv is None else argv
    result = run(quick="--quick" in argv)
    print(format_table(result))
    print(f"written to {write_result(name, result)}")
