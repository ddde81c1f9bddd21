"""Subnormal coordinates (5e-324) are painted: the view is never narrower than MIN_SPAN.

The window's first paint used to end in a segmentation fault and ``render`` in a
ZeroDivisionError, so each is run in a child process.
"""

from __future__ import annotations

import os
import subprocess
import sys
import textwrap
from pathlib import Path

import numpy as np

from perceptron_gui.ui.widgets.canvas import geometry

REPO = Path(__file__).resolve().parents[2]
POINTS = "[[1e-323, 5e-324], [5e-324, 1e-323], [-1e-323, -5e-324], [-5e-324, -1e-323]]"


def _run(args, tmp_path, **kwargs):
    env = dict(os.environ, XDG_CONFIG_HOME=str(tmp_path / "config"),
               XDG_DATA_HOME=str(tmp_path / "data"), QT_QPA_PLATFORM="offscreen",
               PYTHONPATH=str(REPO))
    return subprocess.run([sys.executable, *args], capture_output=True, text=True,
                          timeout=180, env=env, cwd=REPO, **kwargs)


def test_a_range_narrower_than_the_least_is_widened_about_its_middle():
    least = getattr(geometry, "MIN_SPAN", 1e-290)
    for lo, hi in ((5e-324, 1e-323), (-1e-321, 1e-321), (1e-300, 2e-300)):
        a, b = geometry.drawable_range(lo, hi)
        assert b - a >= least and a <= lo / 2 + hi / 2 <= b
    assert geometry.drawable_range(-2.0, 3.0) == (-2.0, 3.0)


def test_the_window_paints_subnormal_points_and_render_draws_them(tmp_path, subtests):
    """One child draws both (a start-up each cost as much as the drawing): the window's
    first paint, then ``render`` of a CSV of the same points."""
    rows = "".join(f"{float(x)!r},{float(y)!r},{label}\n" for (x, y), label in
                   zip(np.array(eval(POINTS)), (1, 1, -1, -1), strict=True))
    (tmp_path / "sub.csv").write_text("x,y,label\n" + rows)
    out = tmp_path / "sub.png"
    script = textwrap.dedent(f"""
        import sys
        import numpy as np
        from PySide6 import QtWidgets
        app = QtWidgets.QApplication([])
        from perceptron_gui.app import main
        from perceptron_gui.ui.main_window import MainWindow
        from perceptron_gui.core.dataset import ReplaceAll
        w = MainWindow(); w.resize(1280, 800); w.show()
        w.push_edit(ReplaceAll(np.array({POINTS}), [1, 1, -1, -1]))
        w.canvas.fit_view()
        for _ in range(20):
            app.processEvents()
        print("painted", w.grab().width(), flush=True)
        print("@@ render", file=sys.stderr, flush=True)
        sys.exit(main(["render", {str(tmp_path / "sub.csv")!r}, "-o", {str(out)!r}]))
    """)
    done = _run(["-c", script], tmp_path)
    with subtests.test("window"):
        assert "painted 1280" in done.stdout, done.stderr[-2000:]
    with subtests.test("render"):
        assert done.returncode == 0, done.stderr[-2000:]
        assert "Traceback" not in done.stderr.partition("@@ render")[2]
        assert out.stat().st_size > 0
