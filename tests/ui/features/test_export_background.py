"""Exports off the UI thread: a faithful picture, a UI that ticks, an immediate Cancel."""

from __future__ import annotations

import os
import time

import numpy as np
import pyqtgraph as pg
import pytest
import shiboken6
from PySide6 import QtCore, QtGui, QtWidgets

from perceptron_gui.core import Dataset, Workspace, generators
from perceptron_gui.core.dataset import ReplaceAll
from perceptron_gui.ui import style, workers
from perceptron_gui.ui.features.export import renderer as export_renderer


def _rgb(image: QtGui.QImage) -> np.ndarray:
    """An image as an (h, w, 3) int array of R, G, B."""
    image = image.convertToFormat(QtGui.QImage.Format.Format_RGB32)
    a = np.frombuffer(bytes(image.constBits()), np.uint8)[: image.bytesPerLine() * image.height()]
    a = a.reshape(image.height(), image.bytesPerLine() // 4, 4)[:, : image.width(), :3]
    return a[:, :, ::-1].astype(int)


def _files(folder) -> list[str]:
    return sorted(os.listdir(folder))


def _big(n: int, seed: int = 0) -> Dataset:
    rng = np.random.default_rng(seed)
    X = rng.normal(size=(n, 2)) * 3.0
    y = np.where(X[:, 0] + 0.5 * X[:, 1] > 0.3, 1, -1)
    return Dataset(X, y)


def test_the_new_path_matches_pyqtgraphs_own_export(qapp):
    ws = Workspace(dataset=generators.GENERATORS["separable"](n=60, seed=3, margin=0.3))
    for _ in range(3):
        ws.step_update()
    # each from a fresh offscreen canvas (a second render of one canvas can tick its axes
    # differently, in either path)
    with export_renderer.CanvasRenderer(ws, (640, 480)) as renderer:
        new = _rgb(renderer.image())
    with export_renderer.CanvasRenderer(ws, (640, 480), pyqtgraph_points=True) as renderer:
        old = _rgb(renderer.scene_image())
    diff = np.abs(new - old).max(axis=2)
    # the same picture but for antialiasing at the markers' edges
    assert diff.mean() < 2.0
    assert (diff > 40).mean() < 0.005


def test_points_are_painted_at_their_pixels_in_their_colours(qapp):
    X = np.array([[-2.73, -2.27], [2.27, 2.73], [-2.27, 2.73], [2.73, -2.27]])  # off the grid
    y = np.array([1, 1, -1, -1])
    ws = Workspace(dataset=Dataset(X, y))  # no run: no crosses over the points
    # without the legend: it is an overlay in a corner, and every corner holds a point here
    layers = {**export_renderer.default_layers(ws), "legend": False}
    with export_renderer.CanvasRenderer(ws, (400, 300), layers=layers) as renderer:
        image = _rgb(renderer.image())
        centres = [renderer.canvas.data_to_widget(*p) for p in X]
    for c, label in zip(centres, y, strict=True):
        want = np.array(QtGui.QColor(style.POS_COLOR if label == 1 else style.NEG_COLOR)
                        .getRgb()[:3])
        px = image[round(c.y()), round(c.x())]
        assert np.abs(px - want).max() <= 12, (c, label, px)


def test_closing_the_renderer_destroys_its_whole_scene_at_once(qapp):
    ws = Workspace(dataset=generators.GENERATORS["separable"](n=40, seed=1, margin=0.3))
    ws.step_update()
    renderer = export_renderer.CanvasRenderer(ws, (400, 300))
    renderer.image()
    items = renderer.canvas.scene().items()
    assert any(isinstance(item, pg.LabelItem) for item in items)  # the legend's rows
    renderer.close()
    # pyqtgraph's close() takes the view box and the axes out of the scene: nothing of
    # it may be left for the garbage collector to tear down later, in no set order
    assert [type(item).__name__ for item in items if shiboken6.isValid(item)] == []
    renderer.close()  # twice is harmless


def _window_with(window, qtbot, n):
    window.push_edit(ReplaceAll.from_dataset(_big(n)))
    for _ in range(3):
        window.workspace.step_update()
    qtbot.waitUntil(lambda: not window.theory_worker.busy, timeout=120_000)
    return window


def _press_cancel(exporter) -> float:
    """Click the progress dialog's Cancel button; the moment it was pressed."""
    button = exporter.progress_dialog.findChild(QtWidgets.QPushButton)
    t = time.perf_counter()
    button.click()
    return t


def test_the_ui_keeps_ticking_during_a_large_png_export(window, qtbot, tmp_path):
    _window_with(window, qtbot, 100_000)
    ticks = []
    timer = QtCore.QTimer(interval=5)
    timer.setTimerType(QtCore.Qt.TimerType.PreciseTimer)
    timer.timeout.connect(lambda: ticks.append(time.perf_counter()))
    timer.start()
    qtbot.wait(50)
    path = tmp_path / "big.png"
    painting = []
    job = window.exporter.export_canvas(path, (1920, 1080), fmt="png", wait=False)
    assert job is not None and window.exporter.busy
    job.progressed.connect(lambda done, total, text: painting.append(time.perf_counter())
                           if "Painting" in text else None)
    qtbot.waitUntil(lambda: not window.exporter.busy, timeout=120_000)
    end = time.perf_counter()
    timer.stop()
    assert path.exists() and QtGui.QImage(str(path)).width() == 1920
    # once the worker was started (superqt is imported on its first use), the UI thread
    # ticks on while it paints the 10⁵ markers, composes, encodes and writes (a loose
    # bound on a loaded machine; bench_stall is the measure)
    assert painting
    gaps = np.diff([t for t in ticks if t > painting[0]] + [end])
    assert len(gaps) > 20
    assert gaps.max() < 0.25, f"longest gap {1000 * gaps.max():.0f} ms"


@pytest.mark.parametrize("kind", ["png", "gif"])
def test_cancel_at_a_million_points_returns_at_once_and_writes_nothing(window, qtbot,
                                                                       tmp_path, kind):
    _window_with(window, qtbot, 1_000_000)
    exporter = window.exporter
    ws = window.workspace
    step, data = ws.step_count, ws.dataset
    if kind == "png":
        exporter.export_canvas(tmp_path / "big.png", (1920, 1080), fmt="png", wait=False)
        # cancel while the worker paints the markers
        qtbot.waitUntil(lambda: exporter.progress_dialog is not None
                        and "Painting" in exporter.progress_dialog.labelText(), timeout=120_000)
    else:
        exporter.export_gif(tmp_path / "big.gif", size=(640, 480), frames=3, wait=False)
        qtbot.waitUntil(lambda: exporter.progress_dialog is not None
                        and "frame 1" in exporter.progress_dialog.labelText(), timeout=120_000)
    pressed = _press_cancel(exporter)
    qtbot.waitUntil(lambda: not exporter.busy, timeout=1000)
    assert time.perf_counter() - pressed < 0.1
    assert exporter.progress_dialog is None
    assert workers.wait_for_all(60_000)  # the worker ran out: it still writes nothing
    qtbot.wait(20)
    assert _files(tmp_path) == []
    assert ws.step_count == step and ws.dataset is data
