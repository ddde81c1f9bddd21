"""perceptron_gui.show and its Viewer drive the real window, with the event loop running."""

from __future__ import annotations

import gc
import os
import re
import subprocess
import sys
import tempfile
import textwrap
from pathlib import Path

import numpy as np
import pytest

from tests.ui.conftest import _isolated_settings  # noqa: F401 - autouse: the tests' QSettings

ROOT = Path(__file__).resolve().parents[1]
PNG = b"\x89PNG\r\n\x1a\n"

X4 = np.array([[-2.0, -1.0], [-1.5, -2.0], [2.0, 1.0], [1.0, 2.5]])
Y01 = np.array([0, 0, 1, 1])


@pytest.fixture
def shown(qtbot):
    """``shown(*args, **kw)``: perceptron_gui.show, the window closed (without asking) after."""
    import perceptron_gui

    viewers = []

    def _show(*args, **kwargs):
        viewer = perceptron_gui.show(*args, **kwargs)
        viewers.append(viewer)
        qtbot.waitExposed(viewer.window)
        return viewer

    yield _show
    for viewer in viewers:
        viewer.close()


@pytest.fixture(autouse=True)
def _suite_collects():
    """show() hands collection to the UI thread's timer, as the application does;
    the suite collects between tests instead (tests/conftest.py)."""
    yield
    from perceptron_gui.ui import interpreter as collector

    collector.stop()
    gc.disable()


def _run_python(code: str, timeout: float = 120) -> subprocess.CompletedProcess:
    home = tempfile.mkdtemp(prefix="perceptron-gui-test-")
    env = dict(os.environ, QT_QPA_PLATFORM="offscreen", XDG_CONFIG_HOME=f"{home}/config",
               XDG_DATA_HOME=f"{home}/data", HOME=home)
    return subprocess.run([sys.executable, "-c", textwrap.dedent(code)], capture_output=True,
                          text=True, timeout=timeout, env=env, cwd=ROOT)


# ----------------------------------------------------------------------------- import


def test_a_fresh_script_imports_no_qt_then_shows_without_blocking_and_exits(subtests):
    """A fresh script: what importing the package loads (listed before ``show``), then
    a ``show`` without ``block`` and a run to the end; the script then exits with its
    window still open."""
    out = _run_python("""
        import gc, sys
        import perceptron_gui
        assert callable(perceptron_gui.show) and perceptron_gui.Viewer
        heavy = sorted(m for m in sys.modules if m.split(".")[0] in ("PySide6", "pandas"))
        print(heavy)

        from perceptron_gui.ui import interpreter as collector
        viewer = perceptron_gui.show([[0, 0], [1, 1]], [0, 1])
        viewer.run_to_end()
        # no event loop runs: Python's automatic collection stays on
        print(viewer.workspace.finished, collector.active(), gc.isenabled())
    """)
    assert out.returncode == 0, out.stderr
    lines = out.stdout.splitlines()
    with subtests.test("the import loads neither Qt nor pandas"):
        assert lines[0].strip() == "[]"
    with subtests.test("a script that does not block exits cleanly"):
        assert lines[1].strip() == "True False True"


# ----------------------------------------------------------------------------- show


def test_show_numpy_arrays_opens_the_window_on_them(shown):
    from perceptron_gui.ui.main_window import MainWindow

    viewer = shown(X4, Y01)
    assert isinstance(viewer.window, MainWindow) and viewer.window.isVisible()
    assert viewer.workspace is viewer.window.workspace
    np.testing.assert_array_equal(viewer.workspace.dataset.X, X4)
    np.testing.assert_array_equal(viewer.workspace.dataset.y, [-1, -1, 1, 1])
    assert viewer.label_mapping == {0: -1, 1: 1}
    assert viewer.workspace.learner_name == "primal"
    assert viewer.window.undo_stack.isClean()  # nothing to save: the data came with the window
    assert "4 points" in repr(viewer)


def test_show_lists_with_string_labels(shown):
    viewer = shown([[0, 0], [1, 1], [3, 3]], ["dog", "cat", "dog"])
    assert viewer.label_mapping == {"cat": -1, "dog": 1}
    assert list(viewer.workspace.dataset.y) == [1, -1, 1]


@pytest.mark.parametrize("labels, mapping", [
    ([True, False, True, False], {False: -1, True: 1}),
    ([1, -1, 1, -1], {-1: -1, 1: 1}),
    ([1.0, 0.0, 1.0, 0.0], {0.0: -1, 1.0: 1}),
])
def test_show_maps_any_two_label_values(shown, labels, mapping):
    viewer = shown(X4, labels)
    assert viewer.label_mapping == mapping
    assert list(viewer.workspace.dataset.y) == [mapping[v] for v in labels]


def test_show_a_dataframe_and_a_series(shown):
    import pandas as pd
    frame = pd.DataFrame({"sepal length": X4[:, 0], "sepal width": X4[:, 1],
                          "petal": [9, 9, 9, 9], "species": ["a", "a", "b", "b"]})
    viewer = shown(frame[["sepal length", "sepal width"]], frame["species"])
    np.testing.assert_array_equal(viewer.workspace.dataset.X, X4)
    assert viewer.label_mapping == {"a": -1, "b": 1}
    with pytest.raises(ValueError, match=re.escape(
            "X has 3 columns ['sepal length', 'sepal width', 'petal']; pass two of them, "
            "e.g. X[['sepal length', 'sepal width']]")):
        viewer.set_data(frame[["sepal length", "sepal width", "petal"]], frame["species"])
    viewer.set_data(frame[["petal", "sepal width"]], frame[["species"]])  # a one-column frame
    assert viewer.workspace.dataset.X[0, 0] == 9
    # the frame's column names go on the axes, the labels name the classes
    assert viewer.workspace.dataset.names == (("petal", "sepal width"), ("a", "b"))


def test_show_keeps_the_names_it_is_given(shown):
    viewer = shown([[0, 0], [1, 1], [3, 3]], ["nein", "ja", "nein"],
                   feature_names=("Alter", "Einkommen"))
    window = viewer.window
    window.settle()
    assert window.canvas.axis_titles() == ("Alter", "Einkommen")
    assert viewer.workspace.dataset.class_names == ("ja", "nein")
    viewer.set_data([[0, 0], [2, 1]], [0, 1], class_names=("no", "yes"))
    window.settle()
    assert window.canvas.axis_titles() == ("", "")
    assert viewer.workspace.dataset.class_names == ("no", "yes")
    with pytest.raises(ValueError, match="feature_names must be two names; got 3"):
        viewer.set_data([[0, 0], [2, 1]], [0, 1], feature_names=("a", "b", "c"))


def test_show_without_data_opens_an_empty_window(shown):
    viewer = shown()
    assert viewer.workspace.dataset.n == 0 and viewer.label_mapping == {}
    assert viewer.window.isVisible()


def test_show_picks_the_learner_and_its_parameters(shown, qtbot):
    viewer = shown(X4, Y01, learner="lda", shrinkage="auto")
    ws = viewer.workspace
    assert ws.learner_name == "lda" and ws.params["shrinkage"] == "auto"
    assert viewer.window.learner_panel.selector.currentData() == "lda"
    qtbot.waitUntil(lambda: "priors" in viewer.window.readouts.values(), timeout=5000)


@pytest.mark.parametrize("X, y, message", [
    (np.zeros((5, 4)), np.ones(5), "X has 4 columns; pass two of them, e.g. X[:, [0, 1]]"),
    (np.zeros((5, 1)), np.ones(5), "X has 1 column; the canvas needs two"),
    ([[0, 0], [np.nan, 1]], [0, 1], "point 1 has a NaN coordinate"),
    ([[0, 0], [np.inf, 1]], [0, 1], "point 1 has an infinite coordinate"),
    (X4, [0, 1, 1], "X has 4 points but labels has 3"),
    (np.zeros((9, 2)), list("abcdefghi"), "labels must take at most 8 distinct values; found 9"),
    (X4, None, "X and y must be given together"),
    (None, Y01, "X and y must be given together"),
])
def test_show_refuses_data_with_a_clear_message_and_opens_nothing(qtbot, X, y, message):
    from PySide6 import QtWidgets

    import perceptron_gui

    before = len(QtWidgets.QApplication.topLevelWidgets())
    with pytest.raises(ValueError, match=re.escape(message)):
        perceptron_gui.show(X, y)
    assert len(QtWidgets.QApplication.topLevelWidgets()) == before


@pytest.mark.parametrize("learner, params, message", [
    ("svm", {}, "unknown learner 'svm'; expected one of "),
    ("dual", {"kernal": "rbf"}, "unknown parameter(s) ['kernal'] for learner 'dual'"),
    ("dual", {"kernel": "cubic"}, "kernel"),
])
def test_show_refuses_a_bad_learner(qtbot, learner, params, message):
    import perceptron_gui
    from perceptron_gui.core.learners.registry import LEARNERS

    if message.endswith("expected one of "):  # the registered learners, whichever they are
        message += str(sorted(LEARNERS))
    with pytest.raises(ValueError, match=re.escape(message)):
        perceptron_gui.show(X4, Y01, learner=learner, **params)


# ----------------------------------------------------------------------------- the viewer


def test_set_data_is_one_undo_step_and_reports_the_mapping(shown):
    viewer = shown(X4, Y01)
    stack = viewer.window.undo_stack
    viewer.step(2)
    mapping = viewer.set_data([[0, 1], [2, 3], [4, 5]], ["no", "yes", "yes"])
    assert mapping == viewer.label_mapping == {"no": -1, "yes": 1}
    assert stack.count() == 1 and stack.undoText() == "Data from Python"
    assert viewer.workspace.dataset.n == 3 and viewer.workspace.step_count == 0
    stack.undo()
    np.testing.assert_array_equal(viewer.workspace.dataset.X, X4)
    with pytest.raises(ValueError, match="point 0 has a NaN"):
        viewer.set_data([[np.nan, 0]], [1])
    assert viewer.workspace.dataset.n == 4 and stack.count() == 1


def test_set_data_after_a_reset_does_not_ask_about_later_steps(shown):
    viewer = shown(X4, Y01)
    viewer.run_to_end()
    viewer.reset()  # computed steps now lie after the cursor: the window itself would ask
    viewer.set_data(X4 * 2, Y01)
    assert viewer.workspace.dataset.X[3, 1] == 5.0


def test_set_learner_uses_the_registry_and_validates(shown, qtbot):
    viewer = shown(X4, Y01)
    viewer.set_learner("dual", kernel="rbf", gamma=0.5)
    ws = viewer.workspace
    assert ws.learner_name == "dual" and ws.params["kernel"] == "rbf" and ws.params["gamma"] == 0.5
    assert viewer.window.learner_panel.selector.currentData() == "dual"
    for name, params, message in [
        ("svm", {}, "unknown learner 'svm'"),
        ("primal", {"eta": 2}, "unknown parameter(s) ['eta'] for learner 'primal'; "
                               "expected some of ['bias_scale'"),
        ("primal", {"max_iter": 0}, "max_iter"),
        ("primal", {"max_iter": 2**31}, "max_iter must be a positive integer (at most "
                                          "1,000,000), got 2147483648"),
        ("dual", {"random_state": 2**31}, "random_state must be None or a non-negative"),
    ]:
        with pytest.raises(ValueError, match=re.escape(message)):
            viewer.set_learner(name, **params)
        assert ws.learner_name == "dual" and ws.params["gamma"] == 0.5  # nothing changed
    viewer.set_learner("lda")
    assert ws.learner_name == "lda"
    qtbot.waitUntil(lambda: viewer.window.learner_panel.selector.currentData() == "lda")


def test_step_run_to_end_and_reset_drive_the_window(shown, qtbot):
    viewer = shown(X4, Y01)
    ws, readouts = viewer.workspace, viewer.window.readouts
    event = viewer.step()
    assert ws.step_count == 1 and event.step == 1
    viewer.step(n=2)
    assert ws.step_count == 3
    event = viewer.step_update()  # to the next mistake, or to convergence
    assert ws.step_count > 3 and (event.mistake or ws.finished)
    last = viewer.run_to_end()
    assert ws.finished and ws.learner.converged_ and last.step == ws.step_count
    k = str(ws.learner.n_updates_)
    qtbot.waitUntil(lambda: readouts.values().get("k") == k, timeout=5000)
    assert not viewer.window.actionRunToEnd.isEnabled()  # the window knows the run ended
    assert viewer.step() is None  # nothing left to step
    viewer.reset()
    assert ws.step_count == 0
    qtbot.waitUntil(lambda: readouts.values().get("k") == "0", timeout=5000)
    for bad in (0, -1, 1.5, True):
        with pytest.raises(ValueError, match="n must be a whole number >= 1"):
            viewer.step(bad)


def test_stepping_lda_or_unusable_data_says_why(shown):
    viewer = shown(X4, Y01, learner="lda")
    with pytest.raises(ValueError, match="'lda' is fitted at once and has no steps"):
        viewer.step()
    viewer.set_learner("primal")
    viewer.set_data([[0, 0], [1, 1]], ["a", "a"])  # one class
    with pytest.raises(ValueError, match="cannot run on these data: Only one class"):
        viewer.run_to_end()


def test_screenshot_writes_the_canvas_and_the_window(shown, tmp_path):
    from PySide6 import QtGui

    viewer = shown(X4, Y01)
    before = viewer.screenshot(tmp_path / "before.png", size=(320, 240))
    viewer.run_to_end()
    after = viewer.screenshot(tmp_path / "after.png", size=(320, 240))
    assert before == os.fspath(tmp_path / "before.png")
    one, two = Path(before).read_bytes(), Path(after).read_bytes()
    assert one.startswith(PNG) and two.startswith(PNG)
    assert one != two  # the boundary learned by the run is drawn
    assert QtGui.QImage(after).size().toTuple() == (320, 240)
    window_png = viewer.screenshot(tmp_path / "window.png", canvas_only=False)
    image = QtGui.QImage(window_png)
    assert image.width() >= viewer.window.width() and image.height() >= viewer.window.height()
    viewer.screenshot(tmp_path / "canvas.png")  # the canvas's own size on screen
    canvas = viewer.window.canvas
    assert QtGui.QImage(str(tmp_path / "canvas.png")).size().toTuple() == (
        canvas.width(), canvas.height())
    assert sorted(p.name for p in tmp_path.iterdir()) == [
        "after.png", "before.png", "canvas.png", "window.png"]  # no temporary file left


def test_screenshot_to_a_missing_folder_says_so(shown, tmp_path):
    from perceptron_gui.ui.features.export import ExportError

    viewer = shown(X4, Y01)
    with pytest.raises(ExportError, match="does not exist"):
        viewer.screenshot(tmp_path / "nowhere" / "x.png")


# ----------------------------------------------------------------------------- event loop


def test_driven_from_timer_callbacks_while_the_event_loop_runs(qtbot):
    """As under ``%gui qt``: the loop runs, the caller is never blocked, and a timer
    keeps firing between the calls that drive the viewer."""
    from PySide6 import QtCore

    import perceptron_gui

    ticks = []
    heartbeat = QtCore.QTimer()
    heartbeat.setInterval(5)
    heartbeat.timeout.connect(lambda: ticks.append(1))
    heartbeat.start()
    seen: dict[str, int] = {}
    state: dict = {}

    def cell(name, action):
        def run():
            seen[name] = len(ticks)
            action()
        return run

    cells = [
        ("show", lambda: state.setdefault("viewer", perceptron_gui.show(X4, Y01))),
        ("step", lambda: state["viewer"].step(3)),
        ("data", lambda: state["viewer"].set_data(X4 * 3, ["x", "x", "o", "o"])),
        ("run", lambda: state["viewer"].run_to_end()),
    ]
    queue = list(cells)

    def next_cell():
        if not queue:
            state["done"] = True
            return
        name, action = queue.pop(0)
        cell(name, action)()
        # the next "cell" once the heartbeat has ticked again: the loop was not blocked
        start = len(ticks)
        waiter = QtCore.QTimer()
        waiter.setInterval(1)
        state["waiter"] = waiter

        def poll():
            if len(ticks) > start + 1:
                waiter.stop()
                next_cell()
        waiter.timeout.connect(poll)
        waiter.start()

    QtCore.QTimer.singleShot(0, next_cell)
    try:
        qtbot.waitUntil(lambda: state.get("done", False), timeout=30000)
        viewer = state["viewer"]
        assert seen["show"] < seen["step"] < seen["data"] < seen["run"]
        ws = viewer.workspace
        assert ws.finished and ws.dataset.X[0, 0] == -6.0
        assert viewer.label_mapping == {"o": -1, "x": 1}
        k = str(ws.learner.n_updates_)
        qtbot.waitUntil(lambda: viewer.window.readouts.values().get("k") == k, timeout=5000)
    finally:
        heartbeat.stop()
        if "viewer" in state:
            state["viewer"].close()


def test_show_turns_on_ipythons_qt_event_loop(shown, monkeypatch):
    import types

    from perceptron_gui.ui import interpreter as collector

    calls = []

    def enable_gui(name):
        calls.append(name)
        shell.active_eventloop = "qt"

    shell = types.SimpleNamespace(active_eventloop=None, enable_gui=enable_gui)
    fake = types.ModuleType("IPython")
    fake.get_ipython = lambda: shell
    monkeypatch.setitem(sys.modules, "IPython", fake)
    shown(X4, Y01)
    assert calls == ["qt"]
    assert collector.active()  # IPython's loop runs the collector's timer
    shown()
    assert calls == ["qt"]  # already on: left alone


def test_blocking_calls_run_the_event_loop_and_hand_collection_back(subtests):
    """One process, two blocking calls of ``show`` in turn: the first notes whether the
    event loop ran and what it shows; the second whether the UI thread collects while it
    blocks, and who collects once it has handed back."""
    out = _run_python("""
        import gc
        from PySide6 import QtCore, QtWidgets
        import perceptron_gui
        from perceptron_gui.app import ensure_application
        from perceptron_gui.ui import interpreter as collector
        from perceptron_gui.ui.main_window import MainWindow

        app = ensure_application()

        def close_window():
            for widget in app.topLevelWidgets():
                if isinstance(widget, MainWindow):
                    widget.close()

        ticks = []
        QtCore.QTimer.singleShot(50, lambda: ticks.append("loop ran"))
        QtCore.QTimer.singleShot(700, close_window)
        viewer = perceptron_gui.show([[0, 0], [1, 1]], ["a", "b"], block=True)
        print(ticks, viewer.workspace.dataset.n)

        seen = []

        def look_and_close():
            seen.append((collector.active(), gc.isenabled()))
            close_window()

        QtCore.QTimer.singleShot(300, look_and_close)
        perceptron_gui.show([[0, 0], [1, 1]], ["a", "b"], block=True)
        print(seen, collector.active(), gc.isenabled())
    """)
    assert out.returncode == 0, out.stderr
    lines = out.stdout.splitlines()
    with subtests.test("block=True runs the event loop until the window closes"):
        assert lines[0].strip() == "['loop ran'] 2"
    with subtests.test("show collects on the UI thread; a blocking call hands it back"):
        assert lines[1].strip() == "[(True, False)] False True"




# ----------------------------------------------------------------------------- README


def test_readme_notebook_example_runs(qtbot, tmp_path, monkeypatch):
    text = (ROOT / "README.md").read_text(encoding="utf-8")
    section = text.split("## From a notebook or a script", 1)[1].split("\n## ", 1)[0]
    blocks = re.findall(r"```python notebook\n(.*?)```", section, flags=re.S)
    assert len(blocks) == 1, "the section has one example"
    monkeypatch.chdir(tmp_path)
    namespace = {"__name__": "readme"}
    try:
        exec(compile(blocks[0], "README.md", "exec"), namespace)
        viewer = namespace["viewer"]
        assert viewer.window.isVisible()
        assert viewer.workspace.learner_name == "dual"
        assert (tmp_path / "perceptron.png").read_bytes().startswith(PNG)
    finally:
        if "viewer" in namespace:
            namespace["viewer"].close()


def test_show_with_the_generative_learners(shown):
    """``show(X, y, learner="qda")``: the scripting viewer offers QDA and naive Bayes."""
    rng = np.random.default_rng(3)
    X = np.vstack([rng.normal(0, 0.5, (15, 2)), rng.normal(1, 2.0, (15, 2))])
    y = np.r_[np.zeros(15, int), np.ones(15, int)]
    from perceptron_gui.core import QDA, GaussianNB

    viewer = shown(X, y, learner="qda", reg_param=0.1)
    ws = viewer.workspace
    assert ws.learner_name == "qda" and isinstance(ws.learner, QDA)
    assert ws.learner.reg_param == 0.1 and ws.has_model
    viewer.set_learner("naive_bayes", shared_variance=True)
    assert isinstance(ws.learner, GaussianNB) and ws.capabilities.linear
    assert ws.weights() is not None


def test_show_refuses_data_past_the_point_limit_and_opens_nothing(qtbot, monkeypatch):
    from PySide6 import QtWidgets

    import perceptron_gui
    from perceptron_gui.core import dataset

    monkeypatch.setattr(dataset, "MAX_POINTS", 6, raising=False)
    before = len(QtWidgets.QApplication.topLevelWidgets())
    X = np.column_stack([np.arange(7.0), np.arange(7.0) % 3])
    with pytest.raises(ValueError, match="the data would have 7 points; the limit is 6"):
        perceptron_gui.show(X, np.arange(7) % 2)
    assert len(QtWidgets.QApplication.topLevelWidgets()) == before


def test_show_takes_up_to_eight_classes_with_their_names():
    from perceptron_gui.viewer import as_dataset

    dataset, mapping = as_dataset(X4, ["c", "a", "b", "a"])
    assert dataset.classes == (0, 1, 2) and dataset.y.tolist() == [2, 0, 1, 0]
    assert dataset.class_names == ("a", "b", "c") and mapping == {"a": 0, "b": 1, "c": 2}
