"""Autosave and crash recovery, in process and for real (a subprocess killed with SIGKILL)."""

from __future__ import annotations

import os
import signal
import subprocess
import sys
import textwrap
import time

import numpy as np
import pytest
from PySide6 import QtWidgets

from perceptron_gui.core import generators, io
from perceptron_gui.core.dataset import AddPoints, ReplaceAll
from perceptron_gui.ui.features import autosave as autosave_mod

B = QtWidgets.QMessageBox


@pytest.fixture
def folder(tmp_path, monkeypatch):
    """A private autosave folder and a short autosave delay for the windows of a test."""
    path = tmp_path / "appdata"
    monkeypatch.setattr(autosave_mod, "default_directory", lambda: str(path))
    monkeypatch.setenv("PERCEPTRON_GUI_AUTOSAVE_SECONDS", "0.05")
    monkeypatch.delenv("PERCEPTRON_GUI_RESTORE", raising=False)
    return path


@pytest.fixture
def make_window(qtbot, folder):
    from perceptron_gui.ui.main_window import MainWindow

    def make():
        win = MainWindow()
        qtbot.addWidget(win)
        win.show()
        return win

    return make


def _autosave_dataset(folder):
    return io.load_workspace(folder / "autosave.json").dataset


def test_a_change_is_autosaved_and_a_save_removes_it(qtbot, make_window, folder, tmp_path):
    win = make_window()
    assert win.autosave.enabled and win.autosave.path == str(folder / "autosave.json")
    data = generators.separable(10, seed=1)
    with qtbot.waitSignal(win.autosave.saved, timeout=5000):
        win.push_edit(ReplaceAll.from_dataset(data))
    assert _autosave_dataset(folder) == data
    win.workspace.set_params(learning_rate=0.5)  # a parameter change is saved too
    qtbot.waitUntil(lambda: io.load_workspace(folder / "autosave.json").params[
        "learning_rate"] == 0.5, timeout=5000)
    # saving the document makes the autosave obsolete
    assert win.files.save_to(tmp_path / "doc.json")
    qtbot.waitUntil(lambda: not (folder / "autosave.json").exists(), timeout=5000)
    # an edit brings it back; undoing to the saved state removes it again
    win.push_edit(AddPoints([1.0, 1.0], 1))
    qtbot.waitUntil(lambda: (folder / "autosave.json").exists(), timeout=5000)
    win.undo_stack.undo()
    qtbot.waitUntil(lambda: not (folder / "autosave.json").exists(), timeout=5000)


def test_continuous_editing_is_still_saved_every_few_seconds(qtbot, make_window, folder):
    win = make_window()
    win.autosave._timer.setInterval(150)
    saves = []
    win.autosave.saved.connect(saves.append)
    deadline = time.monotonic() + 0.8
    k = 0
    while time.monotonic() < deadline:  # an edit every ~20 ms, for longer than the delay
        win.push_edit(AddPoints([k * 0.01, 1.0], 1))
        k += 1
        qtbot.wait(20)
    assert saves, "a debounce that restarts on every change would never save"
    qtbot.waitUntil(lambda: not win.autosave.pending, timeout=5000)
    assert _autosave_dataset(folder) == win.workspace.dataset


def test_a_clean_exit_removes_the_autosave_and_the_lock(qtbot, make_window, folder):
    win = make_window()
    with qtbot.waitSignal(win.autosave.saved, timeout=5000):
        win.push_edit(AddPoints([1.0, 2.0], 1))
    assert (folder / "autosave.json").exists()
    win.files.force_close = True  # do not ask about the unsaved point
    assert win.close()
    assert not (folder / "autosave.json").exists()
    assert not (folder / "autosave.lock").exists()


def test_a_second_instance_neither_autosaves_nor_offers_the_first_ones(qtbot, make_window,
                                                                        folder):
    first = make_window()
    with qtbot.waitSignal(first.autosave.saved, timeout=5000):
        first.push_edit(AddPoints([1.0, 2.0], 1))
    second = make_window()
    assert not second.autosave.enabled
    assert not autosave_mod.offer_restore(second)
    second.push_edit(AddPoints([3.0, 3.0], -1))
    qtbot.wait(200)
    assert _autosave_dataset(folder) == first.workspace.dataset


def _leave_autosave(folder, data, document=""):
    """An autosave as a crashed session leaves it (no lock held)."""
    from PySide6 import QtCore

    from perceptron_gui.core import Workspace

    folder.mkdir(parents=True, exist_ok=True)
    ws = Workspace(data, learner="dual")
    ws.advance(3)
    io.save_workspace(ws, folder / "autosave.json")
    QtCore.QSettings().setValue(autosave_mod.DOCUMENT_KEY, document)
    return ws


def test_restore_yes_brings_back_the_points_as_unsaved_work(qtbot, make_window, folder,
                                                            monkeypatch, tmp_path):
    data = generators.moons(20, seed=4)
    doc = tmp_path / "mine.json"
    doc.write_text("{}")
    _leave_autosave(folder, data, str(doc))
    asked = []

    def exec_(box):
        asked.append((box.objectName(), box.text(), box.informativeText()))
        return B.Yes

    monkeypatch.setattr(B, "exec", exec_)
    win = make_window()
    assert autosave_mod.offer_restore(win)
    assert asked[0][0] == "restoreBox" and "with 20 points" in asked[0][2]
    assert "of mine.json" in asked[0][2]
    ws = win.workspace
    assert ws.dataset == data and ws.learner_name == "dual" and ws.step_count == 3
    assert win.windowTitle() == "mine.json* — perceptron-gui"
    assert win.undo_stack.count() == 0
    # it is autosaved again (the work is still unsaved)
    os.remove(folder / "autosave.json")
    qtbot.waitUntil(lambda: (folder / "autosave.json").exists(), timeout=5000)
    assert _autosave_dataset(folder) == data


def test_restore_no_keeps_the_autosave_aside(qtbot, make_window, folder, monkeypatch):
    data = generators.xor(12, seed=2)
    _leave_autosave(folder, data)
    monkeypatch.setenv("PERCEPTRON_GUI_RESTORE", "no")
    monkeypatch.setattr(B, "exec", lambda box: pytest.fail("the env var answers"))
    win = make_window()
    assert not autosave_mod.offer_restore(win)
    assert win.workspace.dataset.n == 0
    assert not (folder / "autosave.json").exists()
    assert io.load_workspace(folder / "autosave.previous.json").dataset == data


def test_a_damaged_autosave_is_reported_and_set_aside(qtbot, make_window, folder, monkeypatch):
    folder.mkdir(parents=True)
    (folder / "autosave.json").write_text('{"format": "perceptron-gui-workspace", "vers')
    warned = []
    monkeypatch.setattr(B, "warning", staticmethod(lambda *a: warned.append(a[2])))
    win = make_window()
    assert not autosave_mod.offer_restore(win)
    assert "truncated?" in warned[0]
    assert (folder / "autosave.damaged.json").exists()


def test_the_restore_question_looks_right(qtbot, window, tmp_path):
    box = autosave_mod._restore_box(window, 42, "2026-11-22 06:30:00", "/home/me/lesson.json")
    qtbot.addWidget(box)
    box.show()
    qtbot.waitExposed(box)
    assert box.defaultButton() is box.button(B.Yes)
    assert "lesson.json" in box.informativeText() and "42 points" in box.informativeText()
    image = box.grab()
    assert image.width() > 300 and image.height() > 100
    image.save(os.environ.get("PERCEPTRON_GUI_SHOT_DIR", str(tmp_path)) + "/restore.png")


# ----------------------------------------------------------------------------- for real

_CHILD = textwrap.dedent("""
    import os, sys
    from PySide6 import QtCore, QtWidgets
    app = QtWidgets.QApplication(sys.argv[:1])
    from perceptron_gui.app import main
    from perceptron_gui.core.dataset import AddPoints

    N = int(os.environ["TEST_EDITS"])
    done = [0]

    def point(i):  # the i-th point the test expects (deterministic)
        return [((i * 37) % 101) / 10.0 - 5.0, ((i * 53) % 97) / 10.0 - 5.0], (1 if i % 3 else -1)

    def tick():
        wins = [w for w in app.topLevelWidgets() if w.objectName() == "mainWindow"]
        if wins and done[0] < N:
            xy, label = point(done[0])
            wins[0].push_edit(AddPoints(xy, label))
            done[0] += 1

    timer = QtCore.QTimer()
    timer.timeout.connect(tick)
    timer.start(15)
    sys.exit(main(sys.argv[1:]))
""")


def _expected(n):
    X = [[((i * 37) % 101) / 10.0 - 5.0, ((i * 53) % 97) / 10.0 - 5.0] for i in range(n)]
    y = [1 if i % 3 else -1 for i in range(n)]
    return np.array(X), np.array(y)


def test_sigkill_then_restart_recovers_the_last_autosave(tmp_path):
    env = dict(os.environ, QT_QPA_PLATFORM="offscreen", XDG_CONFIG_HOME=str(tmp_path / "cfg"),
               XDG_DATA_HOME=str(tmp_path / "share"), PERCEPTRON_GUI_AUTOSAVE_SECONDS="0.1",
               PERCEPTRON_GUI_AUTOSAVE_DEBUG="1", TEST_EDITS="100000")
    env.pop("PERCEPTRON_GUI_RESTORE", None)
    autosave = tmp_path / "share" / "perceptron-gui" / "perceptron-gui" / "autosave.json"
    child = subprocess.Popen([sys.executable, "-c", _CHILD], stdout=subprocess.PIPE,
                             stderr=subprocess.DEVNULL, text=True, env=env)
    lines = []
    try:
        deadline = time.monotonic() + 90
        while time.monotonic() < deadline:
            line = child.stdout.readline()
            if not line:
                break
            if line.startswith("autosave "):
                lines.append(line.split())
                if len(lines) >= 3:  # killed while it keeps editing
                    break
        assert len(lines) >= 3, "no autosave reported"
        child.send_signal(signal.SIGKILL)
        child.wait(30)
    finally:
        if child.poll() is None:
            child.kill()
            child.wait()
    assert child.returncode == -signal.SIGKILL
    last_n = int(lines[-1][1].split("=")[1])
    last_sha = lines[-1][2].split("=")[1]
    assert last_n > 0
    # the file is intact (atomic writes) and holds the edits in order: the last reported
    # autosave, or a later one that finished writing before its line was printed
    on_disk = io.load_workspace(autosave).dataset
    assert on_disk.n >= last_n
    X, y = _expected(on_disk.n)
    np.testing.assert_array_equal(on_disk.X, X)
    np.testing.assert_array_equal(on_disk.y, y)
    if on_disk.n == last_n:
        assert autosave_mod.dataset_digest(on_disk) == last_sha

    env.update(PERCEPTRON_GUI_RESTORE="yes", TEST_EDITS="0")
    out = subprocess.run([sys.executable, "-c", _CHILD, "--quit-after", "1"],
                         capture_output=True, text=True, timeout=120, env=env)
    assert out.returncode == 0, out.stderr
    restored = [line.split() for line in out.stdout.splitlines() if line.startswith("restored")]
    assert restored == [["restored", f"n={on_disk.n}",
                         f"sha={autosave_mod.dataset_digest(on_disk)}"]]
    assert not autosave.exists()  # the restart exited cleanly
