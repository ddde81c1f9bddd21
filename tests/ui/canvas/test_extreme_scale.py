"""Points near the largest floats: the canvas frames what it can and says so on itself."""

import subprocess
import sys

import numpy as np

from perceptron_gui.core import Workspace, io
from perceptron_gui.core.dataset import Dataset

HUGE = np.array([[1.7e308, 1.7e308], [-1.7e308, -1.7e308], [1.7e308, -1.7e308],
                 [-1.7e308, 1e308]])
LABELS = np.array([1, -1, -1, 1])


def test_the_canvas_says_it_cannot_draw_a_view_that_wide(qtbot):
    from perceptron_gui.ui.main_window import MainWindow

    window = MainWindow(Workspace(Dataset(HUGE, LABELS)))
    qtbot.addWidget(window)
    window.show()
    window.canvas.fit_view()  # raised "Cannot set range [-inf, inf]" before
    (x0, x1), (y0, y1) = window.canvas.view_rect()
    assert all(np.isfinite([x0, x1, y0, y1])) and x1 - x0 > 1e306
    hint = window.canvas.layer("hint").hint
    qtbot.waitUntil(lambda: hint.isVisible())
    assert "no view that wide can be drawn" in hint.toPlainText()
    assert "1.7e+308" in hint.toPlainText()


def test_ordinary_data_get_no_such_note(qtbot):
    from perceptron_gui.ui.main_window import MainWindow

    window = MainWindow(Workspace(Dataset(HUGE / 1e300, LABELS)))
    qtbot.addWidget(window)
    window.show()
    window.canvas.fit_view()
    assert "no view that wide" not in window.canvas.layer("hint").hint.toPlainText()


def test_render_answers_without_a_traceback(tmp_path):
    path = tmp_path / "huge.json"
    io.save_workspace(Workspace(Dataset(HUGE, LABELS)), path)
    out = tmp_path / "huge.png"
    proc = subprocess.run([sys.executable, "-m", "perceptron_gui", "render", str(path), "-o",
                           str(out), "--steps", "5"], capture_output=True, text=True,
                          timeout=120, env={**__import__("os").environ,
                                            "QT_QPA_PLATFORM": "offscreen"})
    assert "Traceback" not in proc.stderr
    assert proc.returncode == 0 and out.stat().st_size > 0
