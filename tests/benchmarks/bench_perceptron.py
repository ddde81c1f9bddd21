"""Benchmark: ``PrimalPerceptron.fit`` against scikit-learn's ``Perceptron``.

The reference is ``sklearn.linear_model.Perceptron(shuffle=False, eta0=1.0,
tol=None, penalty=None, max_iter=E)`` with ``E`` our ``n_epochs_``: it makes
exactly the same updates (the weights are checked bit for bit), so the ratio of
the two times compares two implementations of one computation, measured in the
same process on the same data.

Measured here
-------------
- ``ratio``: best-of-5 time of our ``fit`` (automatic backend: the numba loop)
  over the best-of-5 time of scikit-learn's ``fit``.  Goal: <= 1.0.
- ``ratio_numpy``: the same with the numpy scan forced (``_scan.FORCE =
  "numpy"``), for context: what a machine without numba gets.
- ``warmup_*_s``: the first, untimed-for-the-ratio call of each, in this process.
- ``first_call``: a fresh interpreter (``python -c``) that imports
  ``perceptron_gui`` and fits the same data twice.  ``first_fit_s`` is what a
  user waits for on the first run after start-up: importing numba, loading the
  compiled loop from numba's on-disk cache (compiling it if the cache is missing
  or stale) and the fit itself; ``overhead_s = first_fit_s - second_fit_s`` is
  the one-time cost.  ``first_call_cold`` repeats this with an empty
  ``NUMBA_CACHE_DIR``, i.e. the compile on the very first run after install,
  and ``numba_import_s`` is ``import numba`` alone in a fresh interpreter (the
  part of the overhead that no cache removes).

Run ``python tests/benchmarks/bench_perceptron.py [--quick]``; the results are
printed and written to ``bench_perceptron.json`` beside this file
(``bench_perceptron.quick.json`` for a quick run).
"""

from __future__ import annotations

import json
import os
import subprocess
import sys
import tempfile
import time
import warnings
from pathlib import Path

import numpy as np

HERE = Path(__file__).resolve().parent
ROOT = HERE.parents[1]
if str(ROOT) not in sys.path:  # run as a script from a checkout
    sys.path.insert(0, str(ROOT))

from perceptron_gui.core import PrimalPerceptron  # noqa: E402
from perceptron_gui.core.learners import _scan  # noqa: E402
from tests.benchmarks.benchlib import environment, main, timed  # noqa: E402

NAME = "bench_perceptron"

N = 100_000
N_QUICK = 5_000
SEED = 0
#: Half-width of the empty strip around the separating line.  Chosen with SEED
#: = 0 and n = 100,000 from {0.1, 0.03, 0.01, 0.003, 0.001, 0.0003}, which gave
#: 734, 1056, 1665, 6961, 20238 and 11365 updates: 0.001 is the one near 2·10⁴
#: (measured: 20,238 updates in 39 epochs).
MARGIN = 0.001
#: The line is off-centre, so the bias matters and the run is long.
OFFSET = (6.0, -4.0)
ANGLE = 0.7
REPEAT = 5
MAX_EPOCHS = 100_000


def make_data(n: int = N, margin: float = MARGIN, seed: int = SEED):
    """``n`` Gaussian points (sd 3) around an off-centre line, none within ``margin`` of it.

    Returns ``(X, y)`` with ``y`` in {-1, +1}; deterministic for a given seed.
    """
    rng = np.random.default_rng(seed)
    normal = np.array([np.cos(ANGLE), np.sin(ANGLE)])
    X = rng.normal(size=(2 * n + 1000, 2)) * 3.0
    d = X @ normal
    X = X[np.abs(d) > margin][:n]
    if X.shape[0] < n:
        raise ValueError("margin too large for the requested number of points")
    y = np.where(X @ normal > 0, 1, -1)
    return np.ascontiguousarray(X + np.asarray(OFFSET)), y


_FIRST_CALL = """
import json, sys, time
t0 = time.perf_counter()
import numpy as np
from perceptron_gui.core import PrimalPerceptron
t1 = time.perf_counter()
data = np.load(sys.argv[1])
X, y = data["X"], data["y"]
t2 = time.perf_counter()
PrimalPerceptron(max_iter=int(sys.argv[2])).fit(X, y)
t3 = time.perf_counter()
PrimalPerceptron(max_iter=int(sys.argv[2])).fit(X, y)
t4 = time.perf_counter()
from perceptron_gui.core.learners import _scan
print(json.dumps({"import_s": t1 - t0, "first_fit_s": t3 - t2, "second_fit_s": t4 - t3,
                  "compiled": bool(_scan.compiled_available())}))
"""


def first_call(X, y, cold: bool = False) -> dict:
    """First and second fit in a fresh interpreter (see the module docstring).

    With ``cold``, numba's cache points at an empty directory, so the loop is compiled.
    """
    with tempfile.TemporaryDirectory() as tmp:
        path = os.path.join(tmp, "data.npz")
        np.savez(path, X=X, y=y)
        env = dict(os.environ)
        env["PYTHONPATH"] = os.pathsep.join(filter(None, [str(ROOT), env.get("PYTHONPATH")]))
        if cold:
            env["NUMBA_CACHE_DIR"] = os.path.join(tmp, "numba_cache")
        t = time.perf_counter()
        proc = subprocess.run(
            [sys.executable, "-c", _FIRST_CALL, path, str(MAX_EPOCHS)],
            capture_output=True, text=True, env=env, cwd=tmp, check=False,
        )
        wall = time.perf_counter() - t
    if proc.returncode != 0:
        raise RuntimeError(f"first-call subprocess failed:\n{proc.stderr}")
    out = json.loads(proc.stdout.strip().splitlines()[-1])
    out["overhead_s"] = out["first_fit_s"] - out["second_fit_s"]
    out["process_s"] = wall
    out["numba_cache"] = "empty (compile)" if cold else "as installed (normally a cache load)"
    return out


def numba_import_time() -> float | None:
    """Seconds to ``import numba`` in a fresh interpreter (part of the first-call overhead)."""
    code = (
        "import time; t = time.perf_counter(); import numba; "
        "print(time.perf_counter() - t)"
    )
    proc = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True,
                          check=False)
    if proc.returncode != 0:
        return None
    return float(proc.stdout.strip().splitlines()[-1])


def run(quick: bool = False) -> dict:
    """Run the benchmark; returns the measurements as a JSON-ready dict.

    Raises
    ------
    AssertionError
        When our weights are not bit-identical to scikit-learn's.
    """
    from sklearn.linear_model import Perceptron

    n = N_QUICK if quick else N
    repeat = 2 if quick else REPEAT
    X, y = make_data(n)

    def ours():
        return PrimalPerceptron(max_iter=MAX_EPOCHS).fit(X, y)

    saved = _scan.FORCE
    try:
        _scan.FORCE = None
        warm_ours, p = timed(ours)  # includes numba's import and cache load, if not yet done
        if not p.converged_:
            raise AssertionError(f"the benchmark data did not converge in {MAX_EPOCHS} epochs")
        epochs = p.n_epochs_
        backend = "compiled" if _scan.choose_compiled(n) else "numpy"

        def theirs():
            with warnings.catch_warnings():
                warnings.simplefilter("ignore")
                return Perceptron(
                    shuffle=False, eta0=1.0, tol=None, penalty=None, max_iter=epochs,
                ).fit(X, y)

        warm_sk, ref = timed(theirs)
        identical = bool(
            np.array_equal(p.coef_, ref.coef_) and np.array_equal(p.intercept_, ref.intercept_)
        )
        if not identical:
            raise AssertionError(
                "PrimalPerceptron and sklearn Perceptron disagree: "
                f"ours coef={p.coef_!r} b={p.intercept_!r}, "
                f"sklearn coef={ref.coef_!r} b={ref.intercept_!r}"
            )

        t_ours, t_sk = [], []
        for _ in range(repeat):  # interleaved, so slow drifts hit both alike
            t_ours.append(timed(ours)[0])
            t_sk.append(timed(theirs)[0])

        _scan.FORCE = "numpy"
        warm_np, q = timed(ours)
        identical_np = bool(
            np.array_equal(q.coef_, ref.coef_) and np.array_equal(q.intercept_, ref.intercept_)
        )
        if not identical_np:
            raise AssertionError("the numpy scan disagrees with sklearn Perceptron")
        t_np = [timed(ours)[0] for _ in range(repeat)]
    finally:
        _scan.FORCE = saved

    best_ours, best_sk, best_np = min(t_ours), min(t_sk), min(t_np)
    result = {
        "benchmark": NAME,
        "quick": quick,
        "n": n,
        "margin": MARGIN,
        "seed": SEED,
        "updates": int(p.n_updates_),
        "epochs": int(epochs),
        "converged": bool(p.converged_),
        "backend": backend,
        "weights_identical": identical,
        "weights_identical_numpy": identical_np,
        "repeat": repeat,
        "time_ours_s": best_ours,
        "time_sklearn_s": best_sk,
        "ratio": best_ours / best_sk,
        "time_numpy_s": best_np,
        "ratio_numpy": best_np / best_sk,
        "warmup_ours_s": warm_ours,
        "warmup_sklearn_s": warm_sk,
        "warmup_numpy_s": warm_np,
        "first_call": first_call(X, y),
        "first_call_cold": None if quick else first_call(X, y, cold=True),
        "numba_import_s": None if quick else numba_import_time(),
    }
    result["ratios"] = {
        "PrimalPerceptron.fit / sklearn Perceptron.fit": {"value": result["ratio"], "goal": 1.0},
        "PrimalPerceptron.fit, numpy scan forced / sklearn (context)": {
            "value": result["ratio_numpy"], "goal": None,
        },
    }
    result["environment"] = environment("sklearn", "numba")
    return result


def format_table(r: dict) -> str:
    """A readable table of a :func:`run` result."""
    ms = 1e3

    def fc(label, f):
        if f is None:
            return []
        return [
            f"{label} ({f['numba_cache']}):",
            f"  import perceptron_gui       {f['import_s'] * ms:9.1f} ms",
            f"  first fit                   {f['first_fit_s'] * ms:9.1f} ms",
            f"  second fit                  {f['second_fit_s'] * ms:9.1f} ms",
            f"  first-call overhead         {f['overhead_s'] * ms:9.1f} ms",
            f"  whole process               {f['process_s'] * ms:9.1f} ms",
        ]

    lines = [
        f"PrimalPerceptron.fit vs sklearn Perceptron   (best of {r['repeat']})",
        f"  n                           {r['n']:>9,}",
        f"  updates                     {r['updates']:>9,}",
        f"  epochs                      {r['epochs']:>9,}",
        f"  weights identical           {r['weights_identical']!s:>9}",
        f"  ours ({r['backend']})".ljust(30) + f"{r['time_ours_s'] * ms:9.2f} ms",
        f"  sklearn                     {r['time_sklearn_s'] * ms:9.2f} ms",
        f"  ratio ours / sklearn        {r['ratio']:9.2f}   (goal <= 1.0)",
        f"  numpy scan                  {r['time_numpy_s'] * ms:9.2f} ms",
        f"  ratio numpy / sklearn       {r['ratio_numpy']:9.2f}   (context)",
        f"  warm-up ours / sklearn      {r['warmup_ours_s'] * ms:9.1f} ms / "
        f"{r['warmup_sklearn_s'] * ms:.1f} ms (this process)",
    ]
    lines += fc("first call in a fresh interpreter", r["first_call"])
    lines += fc("first call after install", r["first_call_cold"])
    if r.get("numba_import_s") is not None:
        lines.append(f"import numba alone, fresh interpreter {r['numba_import_s'] * ms:9.1f} ms")
    return "\n".join(lines)


if __name__ == "__main__":
    main(NAME, run, format_table)
