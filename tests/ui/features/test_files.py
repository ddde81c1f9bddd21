"""The File menu: open, save, recent files, CSV, unsaved changes, and every bad file.

A bad file (the whole corpus of ``tests/core/data/bad``) must show its precise
message in a dialog and leave the workspace exactly as it was.
"""

from __future__ import annotations

import json
import os
from pathlib import Path

import numpy as np
import pytest
from PySide6 import QtCore, QtWidgets

from perceptron_gui.core import generators, io
from perceptron_gui.core.dataset import AddPoints, ReplaceAll
from perceptron_gui.ui import errors
from perceptron_gui.ui.features import files as files_mod
from tests.ui.helpers import finish, run_main, window_state

DATA = Path(__file__).resolve().parents[2] / "core" / "data"
BAD = DATA / "bad"
GOOD = DATA / "good"
B = QtWidgets.QMessageBox


@pytest.fixture
def answer(monkeypatch):
    """Answer :func:`errors.ask` with ``answer.value`` (default: fail if asked)."""

    class Answer:
        value = None
        asked: list[str] = []

    def fake(parent, title, text, *args, **kwargs):
        Answer.asked.append(text)
        assert Answer.value is not None, f"unexpected question: {text}"
        return Answer.value

    Answer.asked = []
    monkeypatch.setattr(errors, "ask", fake)
    return Answer


def load(window, data, text="test data"):
    assert window.push_edit(ReplaceAll.from_dataset(data, text))




# ----------------------------------------------------------------------------- title and dirty


def test_title_shows_the_file_and_a_star_for_unsaved_changes(qtbot, window, tmp_path):
    assert window.windowTitle() == "untitled — perceptron-gui"
    load(window, generators.separable(12, seed=1))
    assert window.windowTitle() == "untitled* — perceptron-gui"
    path = tmp_path / "demo.json"
    assert finish(qtbot, window.files.save_to(path))
    assert window.windowTitle() == "demo.json — perceptron-gui"
    # stepping is not a change
    window.playback.step_update()
    window.playback.step_update()
    assert not window.files.is_dirty()
    # a parameter is; setting it back is not
    rate = window.learner_panel.control("primal", "eta0")
    rate.setValue(0.5)
    assert window.windowTitle() == "demo.json* — perceptron-gui"
    rate.setValue(1.0)
    assert window.windowTitle() == "demo.json — perceptron-gui"
    window.learner_panel.selector.setCurrentIndex(2)  # LDA
    assert window.files.is_dirty()
    window.learner_panel.selector.setCurrentIndex(0)
    assert not window.files.is_dirty()
    # an edit and its undo
    window.push_edit(AddPoints([0.5, 0.5], 1))
    assert window.files.is_dirty()
    window.undo_stack.undo()
    assert window.windowTitle() == "demo.json — perceptron-gui"


# ----------------------------------------------------------------------------- save and open


def test_save_then_open_restores_points_learner_params_step_and_view(qtbot, window, tmp_path):
    ws = window.workspace
    data = generators.separable(15, seed=4, margin=0.4)
    load(window, data)
    window.learner_panel.selector.setCurrentIndex(1)  # dual
    ws.set_params("dual", bias_scale=2.0)
    for _ in range(3):
        window.playback.step_update()
    step = ws.step_count
    assert step > 0
    window.canvas.getViewBox().setRange(xRange=(-7, 3), yRange=(-2, 5), padding=0)
    view = files_mod.canvas_view(window.canvas)
    path = tmp_path / "run.json"
    assert finish(qtbot, window.files.save_to(path))
    assert json.loads(path.read_text())["run"] == {"step": step}

    # change everything, then open the file again
    load(window, generators.xor(8, seed=0))
    window.learner_panel.selector.setCurrentIndex(0)
    window.canvas.fit_view()
    assert finish(qtbot, window.files.open_path(path, ask=False))
    assert window.workspace is ws  # the panels keep their workspace
    assert ws.dataset == data
    assert ws.learner_name == "dual" and ws.params["bias_scale"] == 2.0
    assert ws.step_count == step
    assert window.learner_panel.selector.currentData() == "dual"
    # the canvas keeps its aspect ratio: the restored range contains the saved one,
    # with the same centre
    x0, x1, y0, y1 = files_mod.canvas_view(window.canvas)
    assert x0 <= view[0] + 1e-9 and view[1] <= x1 + 1e-9
    assert y0 <= view[2] + 1e-9 and view[3] <= y1 + 1e-9
    np.testing.assert_allclose([(x0 + x1) / 2, (y0 + y1) / 2],
                               [(view[0] + view[1]) / 2, (view[2] + view[3]) / 2], atol=1e-9)
    assert (x1 - x0) < 1.1 * (view[1] - view[0]) and (y1 - y0) < 1.1 * (view[3] - view[2])
    assert window.undo_stack.count() == 0  # a new document
    assert window.windowTitle() == "run.json — perceptron-gui"
    window.readouts.refresh()
    assert window.readouts.values()["k"] == str(ws.learner.n_updates_)


def test_open_a_file_without_a_view_fits_the_data(qtbot, window, tmp_path):
    data = generators.blobs(30, seed=2, distance=40.0)  # far outside the default view
    ws = io.workspace_from_json(io.workspace_to_json(
        __import__("perceptron_gui.core", fromlist=["Workspace"]).Workspace(data)))
    assert ws.view is None
    path = tmp_path / "noview.json"
    io.save_workspace(ws, path)
    assert finish(qtbot, window.files.open_path(path, ask=False))
    x0, x1, y0, y1 = files_mod.canvas_view(window.canvas)
    assert x0 <= data.X[:, 0].min() and data.X[:, 0].max() <= x1
    assert y0 <= data.X[:, 1].min() and data.X[:, 1].max() <= y1


def test_every_good_file_opens(qtbot, window, warnings):
    for path in sorted(GOOD.iterdir()):
        assert finish(qtbot, window.files.open_path(path, ask=False)), (path.name, warnings)
        expected = io.read_csv(path) if path.suffix == ".csv" else io.load_workspace(path).dataset
        assert window.workspace.dataset == expected, path.name
    assert warnings == []


def test_the_bad_file_corpus_shows_each_message_and_changes_nothing(qtbot, window, warnings,
                                                                  subtests):
    """Every bad file of the corpus, in one window: the JSON ones, then the CSV ones."""
    expected = json.loads((BAD / "EXPECTED.json").read_text(encoding="utf-8"))
    load(window, generators.separable(9, seed=5))
    window.learner_panel.selector.setCurrentIndex(1)
    window.playback.step_update()
    before = window_state(window)
    for suffix in (".json", ".csv"):
        with subtests.test(suffix):
            names = sorted(n for n in expected if n.endswith(suffix))
            assert len(names) >= 35  # six former csv_ entries open now (see good/)
            for name in names:
                warnings.clear()
                assert not finish(qtbot, window.files.open_path(BAD / name, ask=False)), name
                assert len(warnings) == 1, name
                title, text = warnings[0]
                assert expected[name] in text, (name, text)
                assert "internal error" not in text
                assert str(BAD / name) in text
                assert window_state(window) == before, name
    assert window.files.recent_files() == []


def test_open_a_missing_file_says_so(qtbot, window, warnings, tmp_path):
    assert not finish(qtbot, window.files.open_path(tmp_path / "nope.json", ask=False))
    assert "No such file or directory" in warnings[0][1]


def test_a_failed_save_says_why_and_keeps_the_changes(qtbot, window, warnings, tmp_path):
    load(window, generators.separable(6, seed=1))
    target = tmp_path / "missing-folder" / "a.json"
    assert not finish(qtbot, window.files.save_to(target))
    assert "No such file or directory" in warnings[0][1] and str(target) in warnings[0][1]
    assert window.files.is_dirty() and window.files.path is None
    # a save over an existing file that fails leaves the old file intact (atomic write)
    good = tmp_path / "good.json"
    assert finish(qtbot, window.files.save_to(good))
    old = good.read_bytes()
    window.push_edit(AddPoints([1.0, 1.0], -1))

    def boom(*_args):
        raise OSError(28, "No space left on device")

    original = os.replace
    try:
        os.replace = boom
        assert not finish(qtbot, window.files.save_to(good))
    finally:
        os.replace = original
    assert "No space left on device" in warnings[-1][1]
    assert good.read_bytes() == old
    assert [p.name for p in tmp_path.iterdir() if p.name.startswith(".")] == []


def test_cancelling_a_save_keeps_the_old_file_and_the_changes(qtbot, window, tmp_path,
                                                                  monkeypatch):
    import threading

    from perceptron_gui.core.io import workspacefile

    good = tmp_path / "good.json"
    load(window, generators.separable(6, seed=1))
    assert finish(qtbot, window.files.save_to(good))
    old = good.read_bytes()
    load(window, generators.separable(200, seed=2))
    assert window.files.is_dirty()
    # the points in four pieces; the worker waits after the first until Cancel was pressed
    monkeypatch.setattr(workspacefile, "_CHUNK", 50)
    pieces = workspacefile._point_chunks
    gate = threading.Event()

    def gated(dataset, indent):
        for i, piece in enumerate(pieces(dataset, indent)):
            if i == 1:
                gate.wait(10)
            yield piece

    monkeypatch.setattr(workspacefile, "_point_chunks", gated)
    seen = {}

    def started(dialog):
        def poll():
            if dialog.value() > 0 and "value" not in seen:  # progress arrived on the bar
                seen["value"] = dialog.value()
                button = dialog.findChild(QtWidgets.QPushButton)
                seen["button"] = button.text()  # the dialog is gone once the job ended
                button.click()  # the dialog's Cancel
                gate.set()

        timer = QtCore.QTimer(dialog, interval=5)
        timer.timeout.connect(poll)
        timer.start()

    window.files.progress_delay_ms = 0
    window.files.progressStarted.connect(started)
    assert not finish(qtbot, window.files.save_to(good))
    gate.set()
    assert 0 < seen["value"] < 1000 and seen["button"] == "Cancel"
    assert good.read_bytes() == old
    assert sorted(p.name for p in tmp_path.iterdir()) == ["good.json"]  # no temporary file
    assert window.files.is_dirty() and window.windowTitle().startswith("good.json*")
    assert window.statusBar().currentMessage() == (
        "Saving good.json was cancelled; the file on disk is unchanged.")


def test_an_edit_while_saving_leaves_the_document_modified(qtbot, window, tmp_path):
    data = generators.separable(6, seed=1)
    load(window, data)
    window.files.progressStarted.connect(
        lambda _dialog: window.push_edit(AddPoints([1.0, 1.0], -1)))  # the save has begun
    assert finish(qtbot, window.files.save_to(tmp_path / "racy.json"))
    assert io.load_workspace(tmp_path / "racy.json").dataset == data
    assert window.workspace.dataset.n == 7
    assert window.windowTitle() == "racy.json* — perceptron-gui"


def test_save_and_save_as_use_the_dialog_and_add_a_suffix(qtbot, window, tmp_path, monkeypatch):
    load(window, generators.separable(6, seed=1))
    chosen = str(tmp_path / "chosen")
    monkeypatch.setattr(QtWidgets.QFileDialog, "getSaveFileName",
                        staticmethod(lambda *a, **k: (chosen, "")))
    window.findChild(QtWidgets.QWidget, "mainWindow")
    window.files.actionSave.trigger()  # untitled: Save is Save As
    qtbot.waitUntil(lambda: not window.files.busy)
    assert (tmp_path / "chosen.json").exists()
    assert window.files.path == str(tmp_path / "chosen.json")
    window.push_edit(AddPoints([1.0, 1.0], -1))
    monkeypatch.setattr(QtWidgets.QFileDialog, "getSaveFileName",
                        staticmethod(lambda *a, **k: (_ for _ in ()).throw(AssertionError)))
    window.files.actionSave.trigger()  # titled: no dialog
    qtbot.waitUntil(lambda: not window.files.busy)
    assert io.load_workspace(tmp_path / "chosen.json").dataset == window.workspace.dataset
    monkeypatch.setattr(QtWidgets.QFileDialog, "getSaveFileName",
                        staticmethod(lambda *a, **k: ("", "")))
    assert not finish(qtbot, window.files.save_as())  # cancelled


def test_open_asks_to_save_unsaved_changes(qtbot, window, tmp_path, answer, monkeypatch):
    path = tmp_path / "other.json"
    io.save_workspace(__import__("perceptron_gui.core", fromlist=["Workspace"]).Workspace(
        generators.xor(8, seed=1)), path)
    monkeypatch.setattr(QtWidgets.QFileDialog, "getOpenFileName",
                        staticmethod(lambda *a, **k: (str(path), "")))
    data = generators.separable(6, seed=1)
    load(window, data)
    answer.value = B.Cancel
    assert not finish(qtbot, window.files.open_dialog())
    assert window.workspace.dataset == data and len(answer.asked) == 1
    answer.value = B.Discard
    assert finish(qtbot, window.files.open_dialog())
    assert window.workspace.dataset == io.load_workspace(path).dataset


# ----------------------------------------------------------------------------- closing


def test_closing_with_unsaved_changes_asks_and_cancel_keeps_the_window(qtbot, window):
    load(window, generators.separable(6, seed=1))
    assert not window.close()
    box = window.findChild(QtWidgets.QMessageBox, "unsavedChangesBox")
    assert box is not None and box.isVisible()
    assert "untitled has unsaved changes" in box.text()
    box.button(B.Cancel).click()
    qtbot.waitUntil(lambda: not box.isVisible())
    assert window.isVisible()


def test_closing_discard_closes_and_save_saves_first(qtbot, window, tmp_path, monkeypatch):
    load(window, generators.separable(6, seed=1))
    target = tmp_path / "closing.json"
    monkeypatch.setattr(QtWidgets.QFileDialog, "getSaveFileName",
                        staticmethod(lambda *a, **k: (str(target), "")))
    assert not window.close()
    box = window.findChild(QtWidgets.QMessageBox, "unsavedChangesBox")
    box.button(B.Save).click()
    qtbot.waitUntil(lambda: not window.isVisible(), timeout=30_000)  # a save first
    assert io.load_workspace(target).dataset == window.workspace.dataset


def test_closing_discard(qtbot):
    from perceptron_gui.ui.main_window import MainWindow

    win = MainWindow()
    qtbot.addWidget(win)
    win.show()
    load(win, generators.separable(6, seed=1))
    assert not win.close()
    box = win.findChild(QtWidgets.QMessageBox, "unsavedChangesBox")
    box.button(B.Discard).click()
    qtbot.waitUntil(lambda: not win.isVisible(), timeout=30_000)


def test_a_clean_window_closes_without_asking(qtbot, window):
    assert window.close()


# ----------------------------------------------------------------------------- recent files


def test_recent_files_newest_first_at_most_eight_and_pruned(qtbot, window, tmp_path, warnings):
    load(window, generators.separable(6, seed=1))
    paths = []
    for i in range(10):
        path = tmp_path / f"f{i}.json"
        assert finish(qtbot, window.files.save_to(path))
        paths.append(str(path))
    assert window.files.recent_files() == paths[::-1][:8]
    window.files.rebuild_recent_menu()
    entries = [a for a in window.files.recent_menu.actions() if a.data()]
    assert [a.data() for a in entries] == paths[::-1][:8]
    assert entries[0].text() == "&1 f9.json"
    # a vanished file is pruned with a message when the menu is built
    os.remove(paths[9])
    window.files.rebuild_recent_menu()
    assert paths[9] not in window.files.recent_files()
    assert "f9.json" in window.statusBar().currentMessage()
    # ... and when it is clicked after the menu was built
    window.files.rebuild_recent_menu()
    first = [a for a in window.files.recent_menu.actions() if a.data()][0]
    gone = first.data()
    os.remove(gone)
    first.trigger()
    assert "no longer exists" in warnings[-1][1]
    assert gone not in window.files.recent_files()
    # the entries open their file; the list persists in QSettings
    window.files.rebuild_recent_menu()
    entry = [a for a in window.files.recent_menu.actions() if a.data()][0]
    assert entry.data() == paths[7]
    window.push_edit(AddPoints([2.0, 2.0], 1))
    window.files.mark_clean(window.files.path)
    entry.trigger()
    qtbot.waitUntil(lambda: not window.files.busy)
    assert window.files.path == entry.data()
    assert QtCore.QSettings().value(files_mod.RECENT_KEY)[0] == entry.data()
    window.files.clear_recent()
    assert window.files.recent_files() == []


# ----------------------------------------------------------------------------- CSV


def test_import_csv_maps_string_labels_shows_the_mapping_and_is_undoable(qtbot, window,
                                                                          tmp_path):
    before = generators.separable(6, seed=1)
    load(window, before)
    path = tmp_path / "pets.csv"
    path.write_text("x,y,label\n1,2,dog\n3,4,cat\n-1,0.5,dog\n")
    assert finish(qtbot, window.files.csv.import_csv(path))
    ds = window.workspace.dataset
    np.testing.assert_array_equal(ds.y, [1, -1, 1])
    np.testing.assert_array_equal(ds.X, [[1, 2], [3, 4], [-1, 0.5]])
    assert "Labels mapped: 'cat' → −1, 'dog' → +1" in window.statusBar().currentMessage()
    assert window.files.csv.last_mapping == {"cat": -1, "dog": 1}
    assert window.files.is_dirty()
    window.undo_stack.undo()
    assert window.workspace.dataset == before
    # labels already -1/+1: no mapping is announced
    path.write_text("x,y,label\n1,2,1\n3,4,-1\n")
    assert finish(qtbot, window.files.csv.import_csv(path))
    assert "mapped" not in window.statusBar().currentMessage()


def test_export_csv_round_trips_bit_for_bit(qtbot, window, tmp_path, monkeypatch, warnings):
    data = generators.moons(50, seed=3)
    load(window, data)
    window.push_edit(AddPoints([[0.1, -0.0], [1e-300, 3.0000000000000004]], [1, -1]))
    target = tmp_path / "out"
    monkeypatch.setattr(QtWidgets.QFileDialog, "getSaveFileName",
                        staticmethod(lambda *a, **k: (str(target), "")))
    window.files.csv.actionExportCsv.trigger()  # written in a worker: the menu does not wait
    assert window.files.csv.table_export.wait()
    assert window.statusBar().currentMessage() == "Exported 52 points to out.csv."
    back = np.loadtxt(tmp_path / "out.csv", delimiter=",", skiprows=1)
    ds = window.workspace.dataset
    assert back[:, :2].tobytes() == ds.X.tobytes()
    np.testing.assert_array_equal(back[:, 2], ds.y)
    assert io.read_csv(tmp_path / "out.csv") == ds
    window.push_edit(ReplaceAll.from_dataset(io.read_csv(tmp_path / "out.csv")))
    window.clear_points()
    assert not window.files.csv.actionExportCsv.isEnabled()
    assert not window.files.csv.export_csv_dialog()
    assert not window.files.csv.export_csv(tmp_path / "empty.csv")
    assert "empty" in warnings[-1][1]


def _big_csv(path: Path, n: int) -> None:
    rng = np.random.default_rng(0)
    X = rng.normal(size=(n, 2))
    y = np.where(rng.random(n) < 0.5, -1, 1)
    with open(path, "w") as f:
        f.write("x,y,label\n")
        f.write("".join(f"{a!r},{b!r},{c}\n" for (a, b), c in zip(X.tolist(), y.tolist(),
                                                                  strict=True)))


def test_cancelling_a_large_import_changes_nothing(qtbot, window, tmp_path):
    path = tmp_path / "big.csv"
    _big_csv(path, 50_000)
    data = generators.separable(6, seed=1)
    load(window, data)
    before = window_state(window)
    window.files.progressStarted.connect(
        lambda dialog: dialog.findChild(QtWidgets.QPushButton).click())  # its Cancel button
    assert not finish(qtbot, window.files.csv.import_csv(path))
    assert window_state(window) == before
    assert "cancelled" in window.statusBar().currentMessage()


def test_a_large_import_shows_progress_and_keeps_the_ui_responsive(qtbot, window, tmp_path):
    path = tmp_path / "big.csv"
    _big_csv(path, 200_000)
    ticks = []
    seen = {}

    class Shown(QtCore.QObject):  # the dialog's Show event, however busy the machine
        def eventFilter(self, obj, event):  # noqa: N802 - Qt's name
            if event.type() == QtCore.QEvent.Type.Show:
                seen["visible"] = True
            return False

    shown = Shown()
    timer = QtCore.QTimer(interval=10)
    timer.timeout.connect(lambda: ticks.append(1))

    def started(dialog):
        dialog.installEventFilter(shown)
        if dialog.isVisible():
            seen["visible"] = True
        timer.start()

    window.files.progress_delay_ms = 0
    window.files.progressStarted.connect(started)
    job = window.files.csv.import_csv(path)
    job.finished.connect(timer.stop)  # before the dialog is deleted
    assert finish(qtbot, job)
    assert window.workspace.dataset.n == 200_000
    assert seen.get("visible") is True  # the progress dialog was up while reading
    # the event loop ran while the file was read (a load on the UI thread gives 0 ticks;
    # the reader's long numpy calls hold the GIL, so there are gaps of a few 100 ms)
    assert len(ticks) >= 1


def test_a_file_beyond_the_point_limit_is_refused_with_the_limit(qtbot, window, tmp_path,
                                                                warnings, monkeypatch):
    monkeypatch.setattr(io.files, "MAX_POINTS", 1000)
    path = tmp_path / "many.csv"
    _big_csv(path, 1001)
    assert not finish(qtbot, window.files.csv.import_csv(path))
    assert "the limit is 1,000" in warnings[0][1]
    assert window.workspace.dataset.n == 0


# ----------------------------------------------------------------------------- command line


def _state(window) -> tuple:
    from perceptron_gui.ui.features.autosave import dataset_digest

    ws = window.workspace
    return ws.dataset.n, dataset_digest(ws.dataset), ws.learner_name, ws.step_count, \
        window.windowTitle()


def test_command_line_file_opens_it(qtbot, monkeypatch, tmp_path, warnings):
    from perceptron_gui.core import Workspace
    from perceptron_gui.ui.features.autosave import dataset_digest

    data = generators.separable(11, seed=2)
    ws = Workspace(data, learner="dual")
    ws.advance(5)
    io.save_workspace(ws, tmp_path / "cli.json")
    code, good = run_main(qtbot, monkeypatch, [str(tmp_path / "cli.json")],
                          lambda window: "cli.json" in window.windowTitle(), _state)
    assert code == 0
    assert good == (11, dataset_digest(data), "dual", 5, "cli.json — perceptron-gui")
    assert warnings == []
    code, bad = run_main(qtbot, monkeypatch, [str(BAD / "ws_truncated.json")],
                         lambda window: bool(warnings), _state)
    assert code == 0
    assert len(warnings) == 1 and "truncated?" in warnings[0][1]
    assert bad[0] == 0
