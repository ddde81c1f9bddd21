"""Benchmark: the weight-space view's UI thread at 10⁶ overlapping cases.

Times, in the UI thread's CPU time (``time.thread_time``: the workers'
threads are not counted), showing the view and each of a few steps, in the
chart (a bias, no landscape) and in the slice at ``b`` (a bias and the loss
landscape); the reference is what the UI thread did before the region and
the slice went to a worker, measured in the same process on the same data:
the feasible region and ``w*``'s direction once
(:func:`~perceptron_gui.ui.views.weights.geometry.region_and_star`), the slice
at ``b`` on every step. It checks that the region the worker finds is the
core's.  The issue's rule: the UI thread never holds more than 50 ms (a
step's time includes the workspace's own step and the repaint).

Run it as a script (offscreen unless ``QT_QPA_PLATFORM`` is set)::

    .venv/bin/python tests/benchmarks/bench_weight_view.py
"""

from __future__ import annotations

import os
import sys
import time
from pathlib import Path

import numpy as np

ROOT = Path(__file__).resolve().parents[2]
if str(ROOT) not in sys.path:  # run as a script from a checkout
    sys.path.insert(0, str(ROOT))
os.environ.setdefault("QT_QPA_PLATFORM", "offscreen")

from tests.benchmarks.benchlib import best_of, environment, main  # noqa: E402

NAME = "bench_weight_view"
BUDGET_S = 0.05
STEPS = 5


def _app():
    from PySide6 import QtWidgets

    return QtWidgets.QApplication.instance() or QtWidgets.QApplication([])


def _settle(app, view, timeout: float = 600.0) -> float:
    """Turn the event loop until the view's worker has delivered; the seconds waited."""
    t0 = time.monotonic()
    while view.finding_scene or view.picture is None:
        if time.monotonic() - t0 > timeout:
            raise AssertionError("the weight-space region never arrived")
        app.processEvents()
        time.sleep(0.005)
    app.processEvents()
    return time.monotonic() - t0


def _ui(action) -> float:
    t0 = time.thread_time()
    action()
    return time.thread_time() - t0


def measure(data, landscape: bool) -> dict:
    """The UI thread's seconds to show the view and of each step, and the region's wait."""
    import superqt.utils  # noqa: F401 - the application loads it soon after launch

    from perceptron_gui.core.theory.weight_space import feasible_region, feasible_slice
    from perceptron_gui.core.workspace import Workspace
    from perceptron_gui.ui import workers
    from perceptron_gui.ui.views.weights import WeightSpaceView

    app = _app()
    ws = Workspace(data)
    ws.defer_expensive = True  # as the window's theory worker sets it
    ws.step_update()
    view = WeightSpaceView(ws)
    view.resize(480, 640)

    def show():
        view.landscape_box.setChecked(landscape)
        view.show()
        view.refresh()
        app.processEvents()

    shown = _ui(show)
    waited = _settle(app, view)
    learner = ws.learner
    X, s, c = learner.training_X, learner.training_signs, float(learner.bias_scale)
    ref = (feasible_slice(X, s, b=float(learner.intercept_[0]), bias_scale=c) if landscape
           else feasible_region(X, s, fit_intercept=True, bias_scale=c))
    assert np.array_equal(view.picture.region.lines, ref.lines), "not the core's region"
    steps = []
    for _ in range(STEPS):
        def step():
            ws.step_update()
            view.refresh()
            app.processEvents()

        steps.append(_ui(step))
        _settle(app, view)
    workers.wait_for_all(600_000)  # the landscape's last grid, before the view goes
    app.processEvents()
    view.close()
    view.deleteLater()
    app.processEvents()
    return {"show": shown, "steps": steps, "region_wait_s": waited}


def reference(data) -> dict:
    """What the UI thread computed before: the region and w* once, a slice a step."""
    from perceptron_gui.core.theory.weight_space import feasible_slice
    from perceptron_gui.ui.views.weights.geometry import region_and_star

    X, s = data.X, np.where(data.y > 0, 1, -1)
    region_and_star(X[:50], s[:50], True, 1.0)  # scipy imported before the timing
    return {"region": best_of(lambda: region_and_star(X, s, True, 1.0), 1),
            "slice": best_of(lambda: feasible_slice(X, s, b=0.3, bias_scale=1.0), 1)}


def run(quick: bool = False) -> dict:
    from perceptron_gui.core import generators

    n = 5_000 if quick else 1_000_000
    data = generators.overlapping(n, seed=1)
    out = {"benchmark": NAME, "quick": quick, "n": n, "times_s": {}, "ratios": {}}
    ref = reference(data)
    out["times_s"]["before (on the UI thread)"] = ref
    for label, landscape in (("chart", False), ("slice at b", True)):
        got = measure(data, landscape)
        out["times_s"][label] = got
        worst = max(got["show"], *got["steps"])
        out["ratios"][f"{label}: worst UI-thread hold / {BUDGET_S * 1000:.0f} ms"] = {
            "value": worst / BUDGET_S, "goal": 1.0}
    out["environment"] = environment("pyside6", "pyqtgraph")
    return out


def format_table(result: dict) -> str:
    ref = result["times_s"]["before (on the UI thread)"]
    rows = [f"weight-space view at n = {result['n']:,} (UI thread's CPU time)",
            f"  before: region and w* {ref['region'] * 1e3:8.0f} ms once, "
            f"slice at b {ref['slice'] * 1e3:8.0f} ms a step"]
    for label in ("chart", "slice at b"):
        t = result["times_s"][label]
        steps = ", ".join(f"{s * 1e3:.0f}" for s in t["steps"])
        rows.append(f"  {label:<11} show {t['show'] * 1e3:6.1f} ms, steps {steps} ms; "
                    f"the region after {t['region_wait_s']:.1f} s (worker)")
    for label, r in result["ratios"].items():
        rows.append(f"  {label:<40} {r['value']:7.3f}  (goal ≤ {r['goal']})")
    return "\n".join(rows)


if __name__ == "__main__":
    main(NAME, run, format_table)
