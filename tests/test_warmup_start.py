"""The application starts the numba warm-up after its window shows, and quits cleanly during it."""

from __future__ import annotations

import os
import subprocess
import sys
import threading
from pathlib import Path

import pytest

from perceptron_gui import app

ROOT = Path(__file__).resolve().parents[1]


def test_start_warm_up_runs_warm_up_in_a_non_daemon_thread(monkeypatch):
    from perceptron_gui.core.learners import warmup

    ran = threading.Event()
    monkeypatch.setattr(warmup, "warm_up", ran.set)
    thread = app.start_warm_up()
    thread.join(10)
    assert ran.is_set()
    assert not thread.daemon and thread.name == "numba-warm-up"


_WARMS_MODULES = """
import sys
from perceptron_gui import app
from perceptron_gui.core.learners import warmup
from perceptron_gui.ui.widgets.canvas.layers import probability
warmup.warm_up = probability.warm_up = lambda: None
wanted = ("scipy.optimize", "scipy.linalg", "perceptron_gui.ui.features.export.renderer",
          "perceptron_gui.ui.features.import_dialog")
before = any(name in sys.modules for name in wanted)
thread = app.start_warm_up()
thread.join(120)
print(before, all(name in sys.modules for name in wanted), flush=True)
"""


def test_the_warm_up_imports_what_first_uses_need_off_the_ui_thread():
    """The certificate's first use imported scipy.optimize on the UI thread (0.5-3 s); the
    first picture export and import dialog their modules (0.1-0.2 s)."""
    env = dict(os.environ, QT_QPA_PLATFORM="offscreen")
    proc = subprocess.run([sys.executable, "-c", _WARMS_MODULES], capture_output=True,
                          text=True, env=env, cwd=str(ROOT), timeout=180, check=False)
    assert proc.returncode == 0, proc.stderr
    assert proc.stdout.strip().splitlines()[-1] == "False True"


_STARTS_AFTER_SHOW = """
from PySide6 import QtWidgets
from perceptron_gui import app
from perceptron_gui.ui.main_window import MainWindow
shown = []
app.WARMUP_DELAY_MS = 0
app.start_warm_up = lambda: shown.append(any(
    isinstance(w, MainWindow) and w.isVisible() for w in QtWidgets.QApplication.topLevelWidgets()))
code = app.main(["--quit-after", "0.3"])
print(code, shown, flush=True)
"""


def test_the_app_starts_the_warm_up_once_its_window_shows(tmp_path):
    env = dict(os.environ, QT_QPA_PLATFORM="offscreen", XDG_CONFIG_HOME=str(tmp_path / "config"),
               XDG_DATA_HOME=str(tmp_path / "data"))
    proc = subprocess.run([sys.executable, "-c", _STARTS_AFTER_SHOW], capture_output=True,
                          text=True, env=env, cwd=str(ROOT), timeout=120, check=False)
    assert proc.returncode == 0, proc.stderr
    assert proc.stdout.strip().splitlines()[-1] == "0 [True]"


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
            app.start_warm_up().join(10)
            assert order == [("preload", False), ("warm_up", False)]
            assert gc.isenabled() == collecting  # as it was
    finally:
        (gc.enable if before else gc.disable)()


_PRELOAD = """
import sys
from perceptron_gui.ui import workers
assert "superqt" not in sys.modules
workers.preload()
workers.preload()
print("superqt.utils._qthreading" in sys.modules, flush=True)
"""


def test_preload_imports_superqts_worker_module():
    proc = subprocess.run([sys.executable, "-c", _PRELOAD], capture_output=True, text=True,
                          env=dict(os.environ, QT_QPA_PLATFORM="offscreen"), cwd=str(ROOT),
                          timeout=120, check=False)
    assert proc.returncode == 0, proc.stderr
    assert proc.stdout.strip() == "True"


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
