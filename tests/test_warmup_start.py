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


def test_the_app_starts_the_warm_up_once_its_window_shows(qtbot, monkeypatch):
    from PySide6 import QtWidgets

    shown = []
    monkeypatch.setattr(app, "WARMUP_DELAY_MS", 0)
    monkeypatch.setattr(app, "start_warm_up", lambda: shown.append(
        any(w.isVisible() for w in QtWidgets.QApplication.topLevelWidgets()
            if w.objectName() != "" or isinstance(w, QtWidgets.QMainWindow))))
    assert app.main(["--quit-after", "0.3"]) == 0
    assert shown == [True]


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
