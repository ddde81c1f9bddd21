"""The canvas's and plots' speed-ups draw exactly what they replace.

Fast paths are only worth having if they draw the same thing: the numpy-only
marker item against pyqtgraph's scatter (pixels and SVG export), the scatter's
numpy record construction against pyqtgraph's, the redraw that skips
weight-dependent items when ``w`` did not change, the lazily built plots, and
the numba warm-up that must neither fail nor crash the exit.
"""

from __future__ import annotations

import os
import subprocess
import sys
from pathlib import Path

import numpy as np
import pyqtgraph as pg
import pytest
from PySide6 import QtCore, QtGui, QtWidgets

from perceptron_gui.core import Workspace, generators
from perceptron_gui.ui import canvas as canvas_module
from perceptron_gui.ui import style
from perceptron_gui.ui.canvas import Canvas, _Marks, _PassiveScatter
from perceptron_gui.ui.widgets.plots import LivePlots

ROOT = Path(__file__).resolve().parents[2]


def pixels(widget) -> np.ndarray:
    image = widget.grab().toImage().convertToFormat(QtGui.QImage.Format.Format_RGBA8888)
    return np.frombuffer(bytes(image.constBits()), np.uint8).reshape(
        image.height(), image.width(), 4).astype(int)


def plot_with(qtbot, item) -> pg.PlotWidget:
    w = pg.PlotWidget(background="w")
    qtbot.addWidget(w)
    w.resize(300, 240)
    w.getPlotItem().hideAxis("left")
    w.getPlotItem().hideAxis("bottom")
    w.getViewBox().setRange(xRange=(-3, 3), yRange=(-3, 3), padding=0)
    w.addItem(item)
    w.show()
    qtbot.waitExposed(w)
    return w


@pytest.mark.parametrize("symbol", ["x", "o", "s"])
def test_marks_draw_the_pixels_of_a_scatter(qtbot, symbol):
    X = np.random.default_rng(3).normal(size=(40, 2))
    pen = pg.mkPen("w", width=0.5)
    scatter = pg.ScatterPlotItem(pos=X, symbol=symbol, size=9, brush=pg.mkBrush("k"), pen=pen)
    marks = _Marks()
    marks.set_style(symbol, 9, "k", pen)
    marks.setData(pos=X)
    a, b = pixels(plot_with(qtbot, scatter)), pixels(plot_with(qtbot, marks))
    assert (a != 255).any()  # something was drawn
    np.testing.assert_array_equal(a, b)
    np.testing.assert_array_equal(np.column_stack(marks.getData()), X)


def test_marks_export_as_vectors(qtbot):
    from PySide6 import QtSvg

    marks = _Marks()
    marks.set_style("x", 9, "k", pg.mkPen("w"))
    marks.setData(pos=np.array([[0.0, 0.0], [1.0, 1.0], [-1.0, 2.0]]))
    w = plot_with(qtbot, marks)

    def svg_of(export: bool) -> str:
        buffer = QtCore.QBuffer()
        generator = QtSvg.QSvgGenerator()
        generator.setOutputDevice(buffer)
        generator.setSize(QtCore.QSize(300, 240))
        marks.setExportMode(export, {"antialias": True} if export else None)
        painter = QtGui.QPainter(generator)
        painter.setTransform(marks.deviceTransform(w.viewportTransform()))
        marks.paint(painter, None, None)
        painter.end()
        marks.setExportMode(False)
        del painter, generator  # before the buffer it writes to
        return bytes(buffer.data()).decode()

    vector, raster = svg_of(True), svg_of(False)
    assert "<image" not in vector and vector.count("<path") >= 3
    assert "<image" in raster  # on screen: pixmap fragments
    assert w.isVisible()


def test_fast_scatter_records_equal_pyqtgraphs(qtbot):
    X = np.random.default_rng(0).normal(size=(500, 2))
    ours, theirs = _PassiveScatter(symbol="s", size=10), pg.ScatterPlotItem(symbol="s", size=10)
    ours.setData(pos=X)
    theirs.setData(pos=X)
    assert ours.data.dtype == theirs.data.dtype
    for name in ours.data.dtype.names:
        if name != "item":
            assert ours.data[name].tolist() == theirs.data[name].tolist(), name
    views = plot_with(qtbot, ours), plot_with(qtbot, theirs)
    np.testing.assert_array_equal(pixels(views[0]), pixels(views[1]))
    # per-point styles still take pyqtgraph's path
    ours.setData(pos=X[:2], brush=[pg.mkBrush("r"), pg.mkBrush("b")])
    assert ours.data["brush"][0].color() == QtGui.QColor("red")


def make_canvas(qtbot, ws) -> Canvas:
    c = Canvas(ws)
    qtbot.addWidget(c)
    c.resize(500, 400)
    c.show()
    qtbot.waitExposed(c)
    c.refresh()
    return c


def test_a_step_without_an_update_redraws_only_the_examined_sample(qtbot, monkeypatch):
    ws = Workspace(generators.separable(50, seed=2, margin=0.05))
    c = make_canvas(qtbot, ws)
    calls = []
    original = c._update_weights
    monkeypatch.setattr(c, "_update_weights", lambda: (calls.append(1), original()))
    ws.step_update()
    c.refresh()
    assert calls == [1]
    for _ in range(60):
        k = ws.learner.n_updates_
        ev = ws.step()
        c.refresh()
        assert len(calls) == 1 + (ws.learner.n_updates_ != k)
        calls[:] = [1]
        # what is drawn is the workspace's state either way
        np.testing.assert_allclose(np.column_stack(c.highlight.getData()),
                                   ws.dataset.X[[ev.index]])
        w, b = ws.learner.coef_[0], ws.learner.intercept_[0]
        xs, ys = c.boundary.getData()
        assert np.abs(w[0] * xs + w[1] * ys + b).max() <= 1e-9 * max(1.0, np.abs(xs).max())
        assert c.delta_line.isVisible() == bool(ev.mistake)


def test_a_view_change_redraws_the_model(qtbot):
    ws = Workspace(generators.separable(50, seed=2, margin=0.05))
    c = make_canvas(qtbot, ws)
    ws.step_update()
    c.refresh()
    before = c.boundary.getData()[0].copy()
    c.getViewBox().setRange(xRange=(-40, 40), yRange=(-40, 40), padding=0)
    c.refresh()
    assert not np.array_equal(before, c.boundary.getData()[0])


def test_static_layers_follow_the_data(qtbot):
    from perceptron_gui.core.dataset import AddPoints

    ws = Workspace(generators.separable(30, seed=1, margin=0.3))
    c = make_canvas(qtbot, ws)
    c.set_visible_layers(max_margin=True, lda=True)
    c.refresh()
    means = c.lda_means.getData()[0].copy()
    pos = ws.dataset.X[ws.dataset.y == 1]
    ws.apply_edit(AddPoints([(pos[0] + pos[1]) / 2], 1))  # inside the hull: still separable
    c.refresh()
    assert ws.max_margin.separable and c.mm_support.isVisible()
    assert not np.array_equal(means, c.lda_means.getData()[0])
    np.testing.assert_allclose(np.sort(c.lda_means.getData()[0]), np.sort(ws.lda.means_[:, 0]))
    support = ws.dataset.X[np.asarray(ws.max_margin.support)]
    np.testing.assert_allclose(np.column_stack(c.mm_support.getData()), support)


def test_scatters_are_cached_only_while_the_data_stand_still(qtbot):
    from perceptron_gui.core.dataset import AddPoints

    ws = Workspace(generators.separable(30, seed=1, margin=0.3))
    c = make_canvas(qtbot, ws)
    cache = QtWidgets.QGraphicsItem.CacheMode
    ws.apply_edit(AddPoints([[1.0, 1.0]], 1))
    c.refresh()
    assert c.scatter_pos.cacheMode() == cache.NoCache
    ws.step()
    c.refresh()
    assert c.scatter_pos.cacheMode() == cache.DeviceCoordinateCache


def test_plots_are_built_when_first_needed(qtbot):
    ws = Workspace()
    plots = LivePlots(ws)
    qtbot.addWidget(plots)
    assert not plots._built and plots.message
    assert plots.proof_text == ""
    ws.set_dataset(generators.separable(20, seed=0))
    plots.refresh()
    assert plots._built and plots.message == ""
    assert plots.k_curve is not None


def test_plot_attributes_build_the_plots(qtbot):
    plots = LivePlots(Workspace())
    qtbot.addWidget(plots)
    assert not plots._built
    assert plots.bound_plot.objectName() == "plotBound"
    assert plots._built
    with pytest.raises(AttributeError):
        plots.no_such_thing  # noqa: B018


def test_plots_are_built_in_idle_time_after_the_first_show(qtbot):
    plots = LivePlots(Workspace())
    qtbot.addWidget(plots)
    plots.set_scale(style.PRESENTER)
    plots.show()
    qtbot.waitUntil(lambda: plots._built, timeout=5000)
    assert plots.findChild(QtWidgets.QWidget, "plotMistakes") is not None
    assert plots.k_curve.opts["pen"].widthF() == style.PRESENTER.line


def test_warm_up_loads_the_compiled_loop():
    from perceptron_gui.core.learners import _scan

    canvas_module._warm_up()  # the thread's body, here
    if os.environ.get("PERCEPTRON_GUI_NO_JIT") or not _scan.compiled_available():
        pytest.skip("numba not available")
    assert _scan._compiled.signatures


@pytest.mark.parametrize("quit_after", ["0.55", "0.65"])
def test_quitting_during_the_warm_up_exits_cleanly(tmp_path, quit_after):
    # the warm-up starts 0.5 s after the window shows; quit while it runs
    env = dict(os.environ, QT_QPA_PLATFORM="offscreen", XDG_CONFIG_HOME=str(tmp_path),
               NUMBA_CACHE_DIR=str(tmp_path / "numba"))
    proc = subprocess.run(
        [sys.executable, "-m", "perceptron_gui", "--quit-after", quit_after],
        capture_output=True, text=True, env=env, cwd=str(ROOT), timeout=120, check=False)
    assert proc.returncode == 0, proc.stderr
    assert "Traceback" not in proc.stderr


def test_the_warm_up_waits_for_the_application_window(qtbot, monkeypatch):
    started = []
    monkeypatch.setattr(canvas_module, "_warm_up_scheduled", False)
    monkeypatch.setattr(canvas_module, "WARMUP_DELAY_MS", 0)
    monkeypatch.setattr(canvas_module, "warm_up_compiled_loop", lambda: started.append(1))
    make_canvas(qtbot, Workspace())  # a bare canvas: not the application
    qtbot.wait(20)
    assert started == []
    win = QtWidgets.QMainWindow()
    qtbot.addWidget(win)
    win.setCentralWidget(Canvas(Workspace()))
    win.show()
    qtbot.waitUntil(lambda: started == [1], timeout=2000)
    QtCore.QCoreApplication.processEvents()
    assert started == [1]


def test_one_readout_computation_per_frame_in_the_window(qtbot, window, monkeypatch):
    from perceptron_gui.core.dataset import ReplaceAll

    window.push_edit(ReplaceAll.from_dataset(generators.separable(40, seed=1, margin=0.1)))
    ws = window.workspace
    calls = {"_readouts": [], "_training_margins": []}
    for name, log in calls.items():
        original = getattr(ws, name)
        monkeypatch.setattr(ws, name, lambda *a, _o=original, _l=log: (_l.append(1), _o(*a))[1])
    for frame in range(1, 6):
        ws.step()
        window.canvas.refresh()
        window.readouts.refresh()
        window.plots.refresh()
        assert len(calls["_readouts"]) == frame
        assert len(calls["_training_margins"]) == frame


def test_plots_repaint_at_most_every_refresh_ms(qtbot, monkeypatch):
    from perceptron_gui.ui.widgets import plots as plots_module

    refreshes = []  # one per refresh cycle: the timer path refreshes the plots in turn
    original = plots_module.LivePlots._refresh_bound
    monkeypatch.setattr(plots_module.LivePlots, "_refresh_bound",
                        lambda self, *a: (refreshes.append(1), original(self, *a))[1])
    ws = Workspace(generators.separable(2000, seed=1, margin=0.01))
    plots = plots_module.LivePlots(ws)
    qtbot.addWidget(plots)
    plots.show()
    stepper = QtCore.QTimer()
    stepper.setInterval(1)
    stepper.timeout.connect(ws.step)
    refreshes.clear()
    stepper.start()
    timer = QtCore.QElapsedTimer()
    timer.start()
    qtbot.wait(400)
    stepper.stop()
    elapsed = timer.elapsed()
    assert ws.step_count > 20  # many steps, each announcing a change
    assert 1 <= len(refreshes) <= elapsed / plots_module.REFRESH_MS + 2


_HIDPI = """
import numpy as np
from PySide6 import QtGui, QtWidgets
app = QtWidgets.QApplication([])
import pyqtgraph as pg
from perceptron_gui.ui.canvas import _Marks
X = np.random.default_rng(0).normal(size=(30, 2))
images = []
for marks in (False, True):
    w = pg.PlotWidget(background="w")
    w.resize(300, 200)
    w.getViewBox().setRange(xRange=(-3, 3), yRange=(-3, 3), padding=0)
    pen = pg.mkPen("w", width=0.5)
    if marks:
        item = _Marks()
        item.set_style("x", 9, "k", pen)
        item.setData(pos=X)
        item.setCacheMode(QtWidgets.QGraphicsItem.CacheMode.DeviceCoordinateCache)
    else:
        item = pg.ScatterPlotItem(pos=X, symbol="x", size=9, brush=pg.mkBrush("k"), pen=pen)
    w.addItem(item)
    w.show()
    app.processEvents()
    image = w.grab().toImage().convertToFormat(QtGui.QImage.Format.Format_RGBA8888)
    assert image.devicePixelRatio() == 2.0
    images.append(np.frombuffer(bytes(image.constBits()), np.uint8).astype(int))
print(int(np.abs(images[0] - images[1]).max()), flush=True)
import os
os._exit(0)  # skip the interpreter's teardown of the Qt objects
"""


def test_cached_marks_are_sharp_on_a_high_dpi_screen():
    env = dict(os.environ, QT_QPA_PLATFORM="offscreen", QT_SCALE_FACTOR="2")
    proc = subprocess.run([sys.executable, "-c", _HIDPI], capture_output=True, text=True,
                          env=env, cwd=str(ROOT), timeout=120, check=False)
    assert proc.returncode == 0, proc.stderr
    assert int(proc.stdout.strip().splitlines()[-1]) <= 2  # rounding of the cache blend
