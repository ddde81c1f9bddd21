"""Run to the end on 100,000 points inside the window, against the core's ``fit``.

Issue 6's goal: running a 10⁵-point perceptron (about 2·10⁴ updates) to the end
in the window costs at most 1.2 times the same ``PrimalPerceptron.fit`` with no
window, while the window stays responsive.  Both sides use the same data as
``bench_perceptron.py`` and the same settings (the window's defaults), so they
make the same updates (checked).  The window's time runs from pressing "Run to
end" to the run being finished, with the event loop running (repaints between
slices included).  It also reports the longest gap between the ticks of a 5 ms
timer during the run: the longest the user would wait for the UI.

Run: ``QT_QPA_PLATFORM=offscreen .venv/bin/python tests/benchmarks/bench_scale.py``.
"""

from __future__ import annotations

import importlib.util
import json
import os
import time
from pathlib import Path

import numpy as np

os.environ.setdefault("QT_QPA_PLATFORM", "offscreen")

HERE = Path(__file__).resolve().parent
NAME = "bench_scale"
REPEAT = 5


def _bench_perceptron():
    spec = importlib.util.spec_from_file_location("bench_perceptron", HERE / "bench_perceptron.py")
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    return module


def run(quick: bool = False) -> dict:
    """Measure; raises AssertionError if the window's run differs from the core's."""
    from PySide6 import QtCore, QtWidgets

    from perceptron_gui.core import Dataset, PrimalPerceptron
    from perceptron_gui.core.dataset import ReplaceAll
    from perceptron_gui.core.learners import _scan
    from perceptron_gui.core.workspace import DEFAULT_PARAMS
    from perceptron_gui.ui.main_window import MainWindow

    bp = _bench_perceptron()
    n = bp.N_QUICK if quick else bp.N
    repeat = 2 if quick else REPEAT
    X, y = bp.make_data(n)
    params = dict(DEFAULT_PARAMS["primal"], max_iter=bp.MAX_EPOCHS)
    _scan.compiled_available()  # numba's one-time load, as the window does after start-up

    def core():
        return PrimalPerceptron(**params).fit(X, y)

    ref = core()
    t_core = []
    for _ in range(repeat):
        t0 = time.perf_counter()
        core()
        t_core.append(time.perf_counter() - t0)

    app = QtWidgets.QApplication.instance() or QtWidgets.QApplication([])
    window = MainWindow()
    window.resize(1280, 800)
    window.show()
    ws = window.workspace
    ws.set_params(max_iter=bp.MAX_EPOCHS)
    window.push_edit(ReplaceAll.from_dataset(Dataset(X, np.where(y > 0, 1, -1))))
    window.canvas.fit_view()

    def settle(seconds=0.2):
        end = time.perf_counter() + seconds
        while time.perf_counter() < end:
            app.processEvents()

    settle(0.5)
    t_window, stalls = [], []
    for i in range(repeat):
        ws.set_params(max_iter=bp.MAX_EPOCHS - 1 - i)  # a fresh run, not a replay
        settle()
        ticks = []
        timer = QtCore.QTimer()
        timer.setInterval(5)
        timer.timeout.connect(lambda ticks=ticks: ticks.append(time.perf_counter()))
        timer.start()
        t0 = time.perf_counter()
        window.actionRunToEnd.trigger()
        while not ws.finished:
            app.processEvents()
        t_window.append(time.perf_counter() - t0)
        settle(0.05)
        timer.stop()
        gaps = np.diff([t0, *ticks])
        stalls.append(float(gaps.max()) if len(gaps) else float("nan"))
        if not (np.array_equal(ws.learner.coef_, ref.coef_)
                and np.array_equal(ws.learner.intercept_, ref.intercept_)):
            raise AssertionError("the window's run differs from the core's fit")
    window.files.force_close = True  # its points are unsaved: no question left open
    window.close()
    window.deleteLater()

    best_core, best_window = min(t_core), min(t_window)
    result = {
        "benchmark": NAME,
        "quick": quick,
        "n": n,
        "updates": int(ref.n_updates_),
        "epochs": int(ref.n_epochs_),
        "time_core_fit_s": best_core,
        "time_window_run_s": best_window,
        "ratio": best_window / best_core,
        "longest_stall_s": max(stalls),
        "stalls_s": stalls,
        "timestamp": time.strftime("%Y-%m-%dT%H:%M:%S"),
    }
    result["ratios"] = {
        "window run to end / core fit (10⁵ points)": {"value": result["ratio"], "goal": 1.2},
    }
    return result


def format_table(r: dict) -> str:
    """A readable summary of :func:`run`'s result."""
    return "\n".join([
        f"run to end on {r['n']:,} points: {r['updates']:,} updates, {r['epochs']} epochs",
        f"  core fit          {r['time_core_fit_s'] * 1000:8.1f} ms",
        f"  inside the window {r['time_window_run_s'] * 1000:8.1f} ms"
        f"   ratio {r['ratio']:.2f} (goal <= 1.2)",
        f"  longest UI stall  {r['longest_stall_s'] * 1000:8.1f} ms (goal < 50)",
    ])


def write_json(r: dict) -> Path:
    """Write the result beside this file."""
    path = HERE / (f"{NAME}.quick.json" if r["quick"] else f"{NAME}.json")
    path.write_text(json.dumps(r, indent=2))
    return path


if __name__ == "__main__":
    result = run()
    print(format_table(result))
    print(f"written to {write_json(result)}")
