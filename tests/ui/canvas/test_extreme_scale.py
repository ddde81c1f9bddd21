"""Points near the largest floats: the canvas frames what it can and says so on itself."""

import subprocess
import sys

import numpy as np
import pytest

from perceptron_gui.core import Workspace, io
from perceptron_gui.core.dataset import Dataset

HUGE = np.array([[1.7e308, 1.7e308], [-1.7e308, -1.7e308], [1.7e308, -1.7e308],
                 [-1.7e308, 1e308]])
LABELS = np.array([1, -1, -1, 1])
MIXED = np.array([[1e300, 1e-300], [-1e300, 1e-300], [1e-300, 1e300], [1e-300, -1e300]])
XOR = np.array([[1.0, 1.0], [-1.0, -1.0], [1.0, -1.0], [-1.0, 1.0]]) * 1e300
EXTREME = {"huge": (HUGE, LABELS), "mixed": (MIXED, LABELS),
           "xor": (XOR, np.array([1, 1, -1, -1]))}


def test_the_canvas_says_it_cannot_draw_a_view_that_wide(qtbot):
    from perceptron_gui.ui.main_window import MainWindow

    window = MainWindow(Workspace(Dataset(HUGE, LABELS)))
    qtbot.addWidget(window)
    window.show()
    window.canvas.fit_view()  # raised "Cannot set range [-inf, inf]" before
    (x0, x1), (y0, y1) = window.canvas.view_rect()
    assert all(np.isfinite([x0, x1, y0, y1])) and x1 - x0 > 1e306
    hint = window.canvas.layer("hint").items["hint"]
    qtbot.waitUntil(lambda: hint.isVisible())
    assert "no view that wide can be drawn" in hint.toPlainText()
    assert "±1.70\u202f×\u202f10³⁰⁸" in hint.toPlainText()  # as core.text.fmt writes it


def test_ordinary_data_get_no_such_note(qtbot):
    from perceptron_gui.ui.main_window import MainWindow

    window = MainWindow(Workspace(Dataset(HUGE / 1e300, LABELS)))
    qtbot.addWidget(window)
    window.show()
    window.canvas.fit_view()
    assert "no view that wide" not in window.canvas.layer("hint").items["hint"].toPlainText()


def test_the_pixel_size_is_the_view_over_its_pixels_at_any_scale(make_canvas):
    canvas, _ = make_canvas(view=(-5, 5, -3, 4))
    vb = canvas.getViewBox()
    assert canvas.pixel_size() == pytest.approx(vb.viewPixelSize(), rel=1e-9)  # pyqtgraph's
    for scale in (1e-300, 1e-160, 1e160, 1e300, 1e307):
        vb.setRange(xRange=(-5 * scale, 5 * scale), yRange=(-3 * scale, 4 * scale), padding=0)
        # pyqtgraph's own was NaN at 1e-300, 2e-32 at 1e300 (an underflowed inverse)
        (x0, x1), (y0, y1) = vb.viewRange()
        rect = vb.rect()
        sx, sy = canvas.pixel_size()
        assert sx == pytest.approx(x1 / rect.width() - x0 / rect.width(), rel=1e-12)
        assert sy == pytest.approx(y1 / rect.height() - y0 / rect.height(), rel=1e-12)
        assert sx == pytest.approx(sy, rel=1e-6)  # the aspect ratio is locked


@pytest.mark.parametrize("kernel", ["rbf", "poly"])
@pytest.mark.parametrize("name", list(EXTREME))
def test_the_kernel_layer_draws_what_it_can_and_says_what_it_cannot(make_canvas, name,
                                                                    kernel):
    """Every redraw raised "cannot convert float NaN to integer" on these data."""
    X, y = EXTREME[name]
    ws = Workspace(Dataset(X, y))
    ws.set_learner("dual")
    ws.set_params(kernel=kernel)
    canvas, ws = make_canvas(ws, view=None)
    canvas.fit_view()
    layer = canvas.layer("kernel")
    for _ in range(3):
        ws.step()
        canvas.refresh()
        assert ws.learner.support_.size > 0
        assert layer.note is not None  # nothing here is drawn as at ordinary scales
        assert layer.note in [row.text for _, row in canvas.legend.items]
        if kernel == "rbf":  # f = b between the points: no picture would be true
            # and no view can show it: zooming in from 1e300 cannot reach a width of 1
            assert "RBF width 1 ≪ data scale " in layer.note  # γ = 1
            assert layer.note.endswith("; rescale the data") and "zoom" not in layer.note
            assert not layer.items["region_image"].isVisible()
            assert not layer.items["contour"].isVisible()
        elif "not drawn" not in layer.note:  # the sign of f, where it is known
            assert layer.items["region_image"].isVisible()
            image = layer.items["region_image"].image
            assert image.shape[0] >= 8 and image.shape[1] >= 8
    canvas.getViewBox().setRange(xRange=(-5.0, 5.0), yRange=(-5.0, 5.0), padding=0)
    canvas.refresh()  # a view of ordinary size on the same run draws or says, never raises
    assert layer.note is None or layer.note in [row.text for _, row in canvas.legend.items]


def test_an_ordinary_kernel_run_has_no_note(make_canvas):
    X = np.array([[1.0, 1.0], [-1.0, -1.0], [1.0, -1.0], [-1.0, 1.0]]) * 2
    ws = Workspace(Dataset(X, np.array([1, 1, -1, -1])))
    ws.set_learner("dual")
    ws.set_params(kernel="rbf")
    canvas, ws = make_canvas(ws)
    ws.run_to_end()
    canvas.refresh()
    assert canvas.layer("kernel").note is None
    drawn = canvas.layer("kernel").items
    assert drawn["contour"].isVisible() and drawn["region_image"].isVisible()
    assert "decision boundary" in [row.text for _, row in canvas.legend.items]


LEARNERS = [("primal", {}), ("dual", {"kernel": "rbf"}), ("dual", {"kernel": "poly"}),
            ("lda", {})]


@pytest.mark.parametrize("scale", [1e154, 1e300, None], ids=["1e154", "1e300", "1.7e308"])
def test_no_overflow_warning_from_the_window_at_extreme_scales(qtbot, scale):
    """Overflows are handled where they are expected, never left to warn on stderr."""
    import warnings

    from perceptron_gui.core import generators
    from perceptron_gui.ui.main_window import MainWindow

    if scale is None:
        ds = Dataset(HUGE, LABELS)
    else:
        base = generators.blobs(40, seed=0)  # its covariance overflowed at 1e154
        ds = Dataset(base.X * scale, base.y)
    with warnings.catch_warnings(record=True) as caught:
        warnings.simplefilter("always")  # pyqtgraph's too, not only the package's
        for learner, params in LEARNERS:
            ws = Workspace(ds, learner=learner, params={learner: params} if params else None)
            window = MainWindow(ws)
            qtbot.addWidget(window)
            window.resize(1000, 700)
            window.show()
            qtbot.waitExposed(window)
            if ws.running:
                ws.step()
                window.canvas.refresh()
                ws.run_to_end()
            window.canvas.fit_view()
            window.canvas.refresh()
            window.grab()  # paint: the items' bounding rectangles are asked for
            window.close()
    overflow = [f"{w.filename}:{w.lineno}: {w.message}" for w in caught
                if issubclass(w.category, RuntimeWarning)]
    assert overflow == []


def _scaled_demo(tmp_path, name, factor):
    """A bundled demo with its points (and added points) times ``factor``, checks dropped."""
    import json
    from pathlib import Path

    import perceptron_gui

    demos = Path(perceptron_gui.__file__).resolve().parents[1] / "resources" / "demos"
    demo = json.loads((demos / f"{name}.json").read_text(encoding="utf-8"))
    for p in demo["data"]["points"]:
        p["x"], p["y"] = p["x"] * factor, p["y"] * factor
    for step in demo["steps"]:
        step.pop("checks", None)  # the numbers change with the scale
        for key in ("x", "y"):
            if key in step:
                step[key] *= factor
    path = tmp_path / f"{name}-huge.json"
    path.write_text(json.dumps(demo), encoding="utf-8")
    return path


#: One interpreter renders every job in turn (each start-up imports the whole app): a job's
#: part of stderr begins with a line ``@@ name``, its exit status is printed as ``RC name n``.
_RENDER_ALL = """
import json, sys, traceback
from perceptron_gui.app import main
for name, argv in json.loads(sys.argv[1]):
    sys.stderr.flush()
    print("@@", name, file=sys.stderr, flush=True)
    try:
        rc = main(argv)
    except SystemExit as exc:
        rc = exc.code
    except Exception:
        traceback.print_exc()
        rc = 1
    sys.stderr.flush()
    print("RC", name, rc, flush=True)
"""


def test_renders_near_the_largest_float_answer_without_a_traceback_or_a_warning(
        tmp_path, subtests):
    """``perceptron-gui render`` of the huge workspace and of two demos scaled to 5e307 (as
    small GIFs: what overflows is the data's scale, not the frame's)."""
    import json
    import os

    path = tmp_path / "huge.json"
    io.save_workspace(Workspace(Dataset(HUGE, LABELS)), path)
    jobs = {"huge": (["render", str(path), "-o", str(tmp_path / "huge.png"), "--steps", "5"],
                     tmp_path / "huge.png")}
    for name in ("first-updates", "lda"):
        demo, out = _scaled_demo(tmp_path, name, 5e307), tmp_path / f"{name}.gif"
        jobs[name] = (["render", str(demo), "-o", str(out), "--size", "320x240"], out)
    proc = subprocess.run([sys.executable, "-c", _RENDER_ALL,
                           json.dumps([(name, argv) for name, (argv, _) in jobs.items()])],
                          capture_output=True, text=True, timeout=600,
                          env={**os.environ, "QT_QPA_PLATFORM": "offscreen"})
    start, *rest = proc.stderr.split("@@ ")
    assert proc.returncode == 0 and "Warning" not in start and "Traceback" not in start, start
    parts = dict(part.partition("\n")[::2] for part in rest)
    for name, (_, out) in jobs.items():
        with subtests.test(name):
            stderr = parts.get(name, proc.stderr)
            assert f"RC {name} 0" in proc.stdout.splitlines(), stderr
            assert out.stat().st_size > 0
            assert "Warning" not in stderr and "Traceback" not in stderr, stderr


def test_the_kernel_contour_is_painted_at_1e300(make_canvas):
    """Qt drops path points beyond about 1e128: the contour traced in data coordinates
    was computed but never painted."""
    X, y = EXTREME["mixed"]
    ws = Workspace(Dataset(X, y))
    ws.set_learner("dual")
    ws.set_params(kernel="poly")
    canvas, ws = make_canvas(ws, view=None)
    ws.step()
    canvas.fit_view()
    canvas.refresh()
    P = canvas.layer("kernel").contour_points()
    assert canvas.layer("kernel").items["contour"].isVisible() and P.shape[0] > 0
    assert np.ptp(P[:, 1]) > 1e300  # a long segment, near x = 0
    image = canvas.grab().toImage()
    ratio = image.devicePixelRatio()
    dark = 0
    for k in range(0, P.shape[0], max(1, P.shape[0] // 20)):
        pos = canvas.data_to_widget(*P[k])
        px, py = int(pos.x() * ratio), int(pos.y() * ratio)
        if 0 <= px < image.width() and 0 <= py < image.height():
            near = [image.pixelColor(px + dx, py).lightness() for dx in (-1, 0, 1)
                    if 0 <= px + dx < image.width()]
            dark += min(near) < 100
    assert dark >= 5


def test_an_rbf_width_under_a_pixel_at_an_ordinary_scale_says_zoom_in(make_canvas):
    X = np.array([[0.0, 0.0], [1.0, 1.0], [0.0, 1.0], [1.0, 0.0]]) * 1e3
    ws = Workspace(Dataset(X, np.array([1, 1, -1, -1])))
    ws.set_learner("dual")
    ws.set_params(kernel="rbf", gamma=100.0)  # a width of 0.1 in a view 1,000 wide
    canvas, ws = make_canvas(ws, view=None)
    canvas.fit_view()
    ws.step()
    canvas.refresh()
    note = canvas.layer("kernel").note
    assert note == ("decision boundary not drawn: the RBF width 1/√γ = 0.1 is under a "
                    "pixel; zoom in")
