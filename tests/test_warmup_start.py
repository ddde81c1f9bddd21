"""The application starts the numba warm-up after its window shows, and quits cleanly during it."""

from __future__ import annotations

import json
import os
import subprocess
import sys
import threading
from pathlib import Path

from perceptron_gui import app

ROOT = Path(__file__).resolve().parents[1]


def test_start_warm_up_runs_warm_up_in_a_non_daemon_thread(monkeypatch):
    from perceptron_gui.core.learners import warmup
    from perceptron_gui.ui.widgets.canvas.layers import probability

    ran = threading.Event()
    monkeypatch.setattr(app, "preload_modules", lambda: None)  # seconds under load
    monkeypatch.setattr(probability, "warm_up", lambda: None)
    monkeypatch.setattr(warmup, "warm_up", ran.set)
    thread = app.start_warm_up()
    thread.join(60)
    assert ran.is_set()
    assert not thread.daemon and thread.name == "numba-warm-up"


_FRESH = """
import json, sys
results = {}
from perceptron_gui.ui import workers
results["superqt before"] = "superqt" in sys.modules
workers.preload()
workers.preload()
results["preloaded"] = "superqt.utils._qthreading" in sys.modules

from PySide6 import QtWidgets
from perceptron_gui import app
from perceptron_gui.core.learners import warmup
from perceptron_gui.ui.widgets.canvas.layers import probability
warm_ups = warmup.warm_up, probability.warm_up
warmup.warm_up = probability.warm_up = lambda: None
wanted = ("scipy.optimize", "scipy.linalg", "perceptron_gui.ui.features.export.renderer",
          "perceptron_gui.ui.features.import_dialog")
results["modules before"] = any(name in sys.modules for name in wanted)
thread = app.start_warm_up()
thread.join(120)
results["modules after"] = all(name in sys.modules for name in wanted)
warmup.warm_up, probability.warm_up = warm_ups

from perceptron_gui.ui.main_window import MainWindow
shown = []
app.WARMUP_DELAY_MS = 0
app.start_warm_up = lambda: shown.append(any(
    isinstance(w, MainWindow) and w.isVisible() for w in QtWidgets.QApplication.topLevelWidgets()))
results["main"] = [app.main(["--quit-after", "0.3"]), shown]
print(json.dumps(results), flush=True)
"""


def test_a_fresh_process_preloads_warms_up_and_starts_it_once_the_window_shows(tmp_path,
                                                                               subtests):
    """What a fresh process finds, in order: superqt before and after ``workers.preload``;
    the preloaded modules before and after ``start_warm_up`` (the warm-up itself left out); then the
    exit status of ``main`` and, at each start of the warm-up, whether the window showed.

    The certificate's first use imported scipy.optimize on the UI thread (0.5-3 s); the
    first picture export and import dialog their modules (0.1-0.2 s); the first worker (a
    file opened or imported) superqt.
    """
    env = dict(os.environ, QT_QPA_PLATFORM="offscreen", XDG_CONFIG_HOME=str(tmp_path / "config"),
               XDG_DATA_HOME=str(tmp_path / "data"))
    proc = subprocess.run([sys.executable, "-c", _FRESH], capture_output=True, text=True,
                          env=env, cwd=str(ROOT), timeout=180, check=False)
    assert proc.returncode == 0, proc.stderr
    fresh = json.loads(proc.stdout.strip().splitlines()[-1])
    with subtests.test("the warm-up imports what first uses need off the UI thread"):
        assert (fresh["modules before"], fresh["modules after"]) == (False, True)
    with subtests.test("the app starts the warm-up once its window shows"):
        assert fresh["main"] == [0, [True]]
    with subtests.test("preload imports superqt's worker module"):
        assert (fresh["superqt before"], fresh["preloaded"]) == (False, True)


def test_quitting_during_the_warm_up_exits_cleanly(tmp_path, subtests):
    """The application quit 0.55 s and 0.65 s after its window shows: while the warm-up
    (0.5 s after the window shows, its compiled loops built afresh) runs.  The two
    processes run side by side."""
    procs = {}
    for quit_after in ("0.55", "0.65"):
        home = tmp_path / quit_after
        env = dict(os.environ, QT_QPA_PLATFORM="offscreen", XDG_CONFIG_HOME=str(home),
                   NUMBA_CACHE_DIR=str(home / "numba"))
        procs[quit_after] = subprocess.Popen(
            [sys.executable, "-m", "perceptron_gui", "--quit-after", quit_after],
            stdout=subprocess.DEVNULL, stderr=subprocess.PIPE, text=True, env=env,
            cwd=str(ROOT))
    try:
        for quit_after, proc in procs.items():
            stderr = proc.communicate(timeout=120)[1]
            with subtests.test(quit_after=quit_after):
                assert proc.returncode == 0, stderr
                assert "Traceback" not in stderr
    finally:
        for proc in procs.values():
            if proc.poll() is None:  # a hang: TimeoutExpired fails the test
                proc.kill()
                proc.communicate()


def test_the_warm_up_loads_superqt_first_without_collecting(monkeypatch):
    # the first worker (a file opened or imported) would import superqt on the UI thread
    import gc

    from perceptron_gui.core.learners import warmup
    from perceptron_gui.ui import workers
    from perceptron_gui.ui.widgets.canvas.layers import probability

    order = []
    monkeypatch.setattr(workers, "preload", lambda: order.append(("preload", gc.isenabled())))
    monkeypatch.setattr(warmup, "warm_up", lambda: order.append(("warm_up", gc.isenabled())))
    monkeypatch.setattr(app, "preload_modules", lambda: None)
    monkeypatch.setattr(probability, "warm_up", lambda: None)
    before = gc.isenabled()  # the suite collects between tests only (tests/conftest.py)
    try:
        for collecting in (True, False):
            order.clear()
            (gc.enable if collecting else gc.disable)()
            app.start_warm_up().join(60)
            assert order == [("preload", False), ("warm_up", False)]
            assert gc.isenabled() == collecting  # as it was
    finally:
        (gc.enable if before else gc.disable)()


def test_the_warm_up_builds_every_palettes_posterior_map(monkeypatch):
    """Built on the UI thread when the canvas first drew, the map held it for 0.3–3 s."""
    from perceptron_gui.core.learners import warmup
    from perceptron_gui.ui import colormap, style, workers
    from perceptron_gui.ui.widgets.canvas.layers.probability import probability_lut

    monkeypatch.setattr(workers, "preload", lambda: None)
    monkeypatch.setattr(app, "preload_modules", lambda: None)
    monkeypatch.setattr(warmup, "warm_up", lambda: None)
    colormap._build.cache_clear()
    app.start_warm_up().join(60)
    built = colormap._build.cache_info().misses
    assert built == len(style.PALETTES)
    for pal in style.PALETTES.values():
        probability_lut(pal)
    assert colormap._build.cache_info().misses == built
