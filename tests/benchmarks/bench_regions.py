"""Benchmark: the canvas's redraw of the decision regions with eight classes against two.

Issue 35 asks that drawing the regions of m classes be as fast as drawing the two
regions of today's two-class boundary.  A *frame* moves the view by 1 % (so the
regions are computed afresh: a new grid), redraws the canvas (``refresh``) and
paints its viewport (``viewport().repaint()``); both sides show the data, the
regions and the boundaries (the class-model overlay is off: eight ellipses are
not regions).  Two classes are drawn by the boundary layer (LDA's line: two
half-planes) or the contour layer (a conic: the decision values on an 8-pixel
grid, their sign 4x finer, the zero contour); m classes by the classes layer
(linear scores: a convex polygon a class; others: the scores on the same grid,
the argmax 4x finer where the class changes, the boundaries between regions).

Measured here
-------------
- ``<learner> regions, M classes / two (UI thread)``: the median time a frame holds
  the UI thread with ``M`` = 8 classes over the median with two, as the window draws
  (``refresh(finish=False)``: what a layer computes in a worker is not waited for;
  the m-class grid of QDA and naive Bayes is, the two-class contour is not).  Goal:
  <= 1.0.  For context: the same frame with every picture drawn on the UI thread
  (``refresh()``, "picture"), and the time until every layer's picture is current
  ("latency").  Frames interleaved in blocks.

Checks (``AssertionError``): after the frames, 2,000 random points of the view
lie in the drawn region of the class ``predict`` gives them (at the centre of
their pixel, for a picture), and the two-class regions are drawn.

Data: ``N`` = 2,000 points of the classes of :func:`bench_multiclass.make_data`
(two classes: the same points, classes 0-3 as −1 and 4-7 as +1); a canvas of
1,000 × 700 pixels, offscreen.  Run ``python tests/benchmarks/bench_regions.py
[--quick]``; the results are printed and written to ``bench_regions.json``.
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

from tests.benchmarks.bench_multiclass import make_data  # noqa: E402
from tests.benchmarks.benchlib import environment, main  # noqa: E402

NAME = "bench_regions"
N, M = 2_000, 8
LEARNERS = ("lda", "qda", "naive_bayes")
SIZE = (1000, 700)
BLOCK, BLOCKS, BLOCKS_QUICK = 8, 6, 2


def _app():
    from PySide6 import QtWidgets

    return QtWidgets.QApplication.instance() or QtWidgets.QApplication([])


def _canvas(m: int, learner: str):
    from perceptron_gui.core.dataset import Dataset
    from perceptron_gui.core.workspace import Workspace
    from perceptron_gui.ui.widgets.canvas import Canvas

    X, y = make_data(N, M)
    if m == 2:  # the same points: the first half of the classes against the second
        dataset = Dataset(X, np.where(y < M // 2, -1, 1))
    else:
        dataset = Dataset(X, y, classes=tuple(range(m)))
    canvas = Canvas(Workspace(dataset, learner))
    canvas.set_visible_layers(lda=False, mistakes=False, legend=False)
    canvas.resize(*SIZE)
    canvas.show()
    app = _app()
    for _ in range(5):
        app.processEvents()
    canvas.set_view_rect((-9.0, 9.0), (-9.0, 9.0))
    canvas.refresh()
    return canvas


def _frames(canvas, count: int, start: int) -> list[float]:
    times = []
    for i in range(start, start + count):
        shift = 0.18 * (i % 2)  # 1 % of the view: a new grid every frame
        t0 = time.perf_counter()
        canvas.set_view_rect((-9.0 + shift, 9.0 + shift), (-9.0, 9.0))
        canvas.refresh()
        canvas.viewport().repaint()
        times.append(time.perf_counter() - t0)
    return times


#: The layers that may compute in a worker what these frames show.
_WORKING = ("classes", "data", "mistakes")


def _window_frames(canvas, count: int, start: int) -> tuple[list[float], list[float]]:
    """Frames as the window draws them (its workers compute what they compute): the UI
    thread's time of each, and the time until every layer's picture was current."""
    app = _app()
    busy, latency = [], []
    for i in range(start, start + count):
        shift = 0.18 * (i % 2)
        t0 = time.perf_counter()
        canvas.set_view_rect((-9.0 + shift, 9.0 + shift), (-9.0, 9.0))
        canvas.refresh(finish=False)
        canvas.viewport().repaint()
        busy.append(time.perf_counter() - t0)
        while any(canvas.layer(name).pending for name in _WORKING):
            app.processEvents()
            time.sleep(0.0002)
        canvas.viewport().repaint()
        latency.append(time.perf_counter() - t0)
    return busy, latency


def _check(two, many) -> None:
    shown = (two.layer("kernel").items["region_image"].isVisible()  # a conic: the contour's
             or two.layer("boundary").items["region_pos"].isVisible())  # a line: half-planes
    assert shown, "two classes: no regions drawn"
    ws = many.workspace
    rng = np.random.default_rng(0)
    points = rng.uniform(-8.5, 8.5, (2000, 2))
    drawn, at = many.layer("classes").drawn_classes(ws, points)
    wrong = np.flatnonzero(drawn != ws.learner.predict(at))
    assert wrong.size == 0, f"{wrong.size} points drawn in another class's region"


def run(quick: bool = False) -> dict:
    """Run the benchmark; returns the measurements (AssertionError: a wrong picture)."""
    _app()
    blocks = BLOCKS_QUICK if quick else BLOCKS
    results, ratios = {}, {}
    for learner in LEARNERS:
        two, many = _canvas(2, learner), _canvas(M, learner)
        _frames(two, 2, 0), _frames(many, 2, 0)  # warm up
        t_two, t_many = [], []
        for b in range(blocks):  # interleaved blocks
            t_two += _frames(two, BLOCK, b * BLOCK)
            t_many += _frames(many, BLOCK, b * BLOCK)
        _check(two, many)
        w_two, w_many, l_two, l_many = [], [], [], []
        for b in range(blocks):
            busy, late = _window_frames(two, BLOCK, b * BLOCK)
            w_two, l_two = w_two + busy, l_two + late
            busy, late = _window_frames(many, BLOCK, b * BLOCK)
            w_many, l_many = w_many + busy, l_many + late
        _check(two, many)
        med_two, med_many = float(np.median(t_two)), float(np.median(t_many))
        ui_two, ui_many = float(np.median(w_two)), float(np.median(w_many))
        results[learner] = {"two_classes_s": med_two, f"{M}_classes_s": med_many,
                            "two_classes_best_s": min(t_two), f"{M}_classes_best_s": min(t_many),
                            "frames": len(t_two), "ratio": med_many / med_two,
                            "window_two_classes_s": ui_two, f"window_{M}_classes_s": ui_many,
                            "window_ratio": ui_many / ui_two,
                            "latency_two_classes_s": float(np.median(l_two)),
                            f"latency_{M}_classes_s": float(np.median(l_many))}
        ratios[f"{learner} regions, {M} classes / two (UI thread)"] = {
            "value": ui_many / ui_two, "goal": 1.0}
        for canvas in (two, many):
            canvas.close()
            canvas.deleteLater()
    return {"benchmark": NAME, "quick": quick, "n": N, "m": M, "size": SIZE,
            "learners": results, "ratios": ratios,
            "environment": environment("pyside6", "pyqtgraph")}


def format_table(r: dict) -> str:
    """The result as a readable table."""
    lines = [f"Regions redraw, {r['m']} classes vs two ({r['n']:,} points, "
             f"{r['size'][0]}x{r['size'][1]} canvas; median frame, ms)",
             f"{'learner':<13}{'UI two':>8}{f'UI {M}':>8}{'ratio':>7}  goal  |"
             f"{'picture two':>12}{f'picture {M}':>10}{'ratio':>7}  |"
             f"{'latency two':>12}{f'latency {M}':>10}"]
    for name, x in r["learners"].items():
        lines.append(f"{name:<13}{1e3 * x['window_two_classes_s']:>8.1f}"
                     f"{1e3 * x[f'window_{M}_classes_s']:>8.1f}{x['window_ratio']:>7.2f}  <= 1 |"
                     f"{1e3 * x['two_classes_s']:>12.1f}{1e3 * x[f'{M}_classes_s']:>10.1f}"
                     f"{x['ratio']:>7.2f}  |{1e3 * x['latency_two_classes_s']:>12.1f}"
                     f"{1e3 * x[f'latency_{M}_classes_s']:>10.1f}")
    return "\n".join(lines)


if __name__ == "__main__":
    main(NAME, run, format_table)
