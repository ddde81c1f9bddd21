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
from perceptron_gui.ui import errors
from perceptron_gui.ui.features import autosave as autosave_mod
from perceptron_gui.ui.features import autosave_restore as restore_mod
from tests.ui.helpers import finish

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
    win.workspace.set_params(eta0=0.5)  # a parameter change is saved too
    qtbot.waitUntil(lambda: io.load_workspace(folder / "autosave.json").params[
        "eta0"] == 0.5, timeout=5000)
    # saving the document makes the autosave obsolete
    assert finish(qtbot, win.files.save_to(tmp_path / "doc.json"))
    qtbot.waitUntil(lambda: not (folder / "autosave.json").exists(), timeout=5000)
    # an edit brings it back; undoing to the saved state removes it again
    win.push_edit(AddPoints([1.0, 1.0], 1))
    qtbot.waitUntil(lambda: (folder / "autosave.json").exists(), timeout=5000)
    win.undo_stack.undo()
    qtbot.waitUntil(lambda: not (folder / "autosave.json").exists(), timeout=5000)


@pytest.mark.serial  # timing: edits come faster than the 150 ms interval at rest
def test_continuous_editing_is_still_saved_every_few_seconds(qtbot, make_window, folder):
    win = make_window()
    win.autosave._timer.setInterval(150)
    saves = []
    win.autosave.saved.connect(saves.append)
    edits = 40
    for k in range(edits):  # an edit every 20 ms or more: for longer than the delay
        win.push_edit(AddPoints([k * 0.01, 1.0], 1))
        qtbot.wait(20)
    qtbot.waitUntil(lambda: not win.autosave.pending, timeout=30_000)
    assert saves, "no save"
    # the first save came while the edits went on, however slowly the machine ran them:
    # a debounce that restarts on every change would save only after the last one
    assert saves[0].n < edits, "a debounce that restarts on every change waits for the last"
    assert _autosave_dataset(folder) == win.workspace.dataset


def test_the_autosave_records_the_step_on_screen_and_restores_there(
        qtbot, make_window, folder, monkeypatch):
    # issue 20: killed at step 80, the restore came back at step 8 (the run's moves
    # after the last data edit never asked for a save)
    win = make_window()
    ws = win.workspace
    with qtbot.waitSignal(win.autosave.saved, timeout=5000):
        win.push_edit(ReplaceAll.from_dataset(generators.overlapping(40, seed=3)))
        ws.advance(8)
    qtbot.waitUntil(lambda: not win.autosave.pending, timeout=5000)
    assert io.load_workspace(folder / "autosave.json").step_count == 8
    ws.advance(72)
    assert ws.step_count == 80
    qtbot.waitUntil(lambda: io.load_workspace(folder / "autosave.json").step_count == 80,
                    timeout=5000)
    # as after a kill: the slot's files without a lock; a new window restores at step 80
    orphan = folder / "orphan"
    orphan.mkdir()
    (orphan / "autosave.json").write_bytes((folder / "autosave.json").read_bytes())
    (orphan / "autosave.document").write_text("")
    monkeypatch.setattr(autosave_mod, "default_directory", lambda: str(orphan))
    monkeypatch.setattr(restore_mod.RestoreDialog, "open",
                        lambda dialog: dialog.restore_button.click())
    again = make_window()
    assert finish(qtbot, restore_mod.offer_restore(again))
    assert again.workspace.dataset == ws.dataset and again.workspace.step_count == 80


def test_a_clean_exit_removes_the_autosave_and_the_lock(qtbot, make_window, folder):
    win = make_window()
    with qtbot.waitSignal(win.autosave.saved, timeout=5000):
        win.push_edit(AddPoints([1.0, 2.0], 1))
    assert (folder / "autosave.json").exists()
    win.files.force_close = True  # do not ask about the unsaved point
    assert win.close()
    assert not (folder / "autosave.json").exists()
    assert not (folder / "autosave.lock").exists()


def _in_event_loop(qtbot, func) -> None:
    """Call ``func`` from a running event loop (where superqt queues a worker's start)."""
    from PySide6 import QtCore

    done = []
    QtCore.QTimer.singleShot(0, lambda: (func(), done.append(True)))
    qtbot.waitUntil(lambda: bool(done), timeout=60_000)


def test_a_clean_exit_while_a_save_is_queued_leaves_nothing_and_does_not_wait(
        qtbot, make_window, folder):
    """The save's worker is queued to the pool at the loop's next turn: an exit before
    that turn must neither wait for it nor let it write after the exit."""
    win = make_window()
    win.push_edit(AddPoints([1.0, 2.0], 1))
    took = []

    def save_then_close():  # inside the event loop, as in the application
        win.autosave.save_now()  # queued, not begun: the loop has not turned since
        assert win.autosave.pending
        win.files.force_close = True
        started = time.perf_counter()
        assert win.close()
        took.append(time.perf_counter() - started)

    _in_event_loop(qtbot, save_then_close)
    assert took[0] < 5.0  # it used to wait 30 s for the queued save
    qtbot.waitUntil(lambda: not win.autosave.pending, timeout=5000)
    assert autosave_mod.workers.wait_for_all(5000)
    assert not (folder / "autosave.json").exists()


def test_saving_the_document_while_an_autosave_is_queued_leaves_no_autosave(
        qtbot, make_window, folder, tmp_path):
    win = make_window()
    win.push_edit(AddPoints([1.0, 2.0], 1))

    def save_twice():
        win.autosave.save_now()  # queued
        # clean: the autosave must go
        assert finish(qtbot, win.files.save_to(tmp_path / "doc.json"))

    _in_event_loop(qtbot, save_twice)
    qtbot.waitUntil(lambda: not win.autosave.pending, timeout=5000)
    assert not (folder / "autosave.json").exists()
    win.push_edit(AddPoints([2.0, 2.0], -1))  # and it comes back with the next change
    qtbot.waitUntil(lambda: _autosave_dataset(folder) == win.workspace.dataset
                    if (folder / "autosave.json").exists() else False, timeout=5000)


def test_a_second_instance_autosaves_to_its_own_slot_and_says_so(qtbot, make_window,
                                                                   folder):
    first = make_window()
    with qtbot.waitSignal(first.autosave.saved, timeout=5000):
        first.push_edit(AddPoints([1.0, 2.0], 1))
    second = make_window()
    assert first.autosave.is_main and not second.autosave.is_main
    assert second.autosave.enabled and second.autosave.path != first.autosave.path
    label = second.statusBar().findChild(QtWidgets.QLabel, "autosaveStatus")
    assert label.isVisible() and "file of its own" in label.text()
    assert not first.statusBar().findChild(QtWidgets.QLabel, "autosaveStatus").isVisible()
    # the first one is alive: not an orphan
    assert not finish(qtbot, restore_mod.offer_restore(second))
    with qtbot.waitSignal(second.autosave.saved, timeout=5000):
        second.push_edit(AddPoints([3.0, 3.0], -1))
    assert _autosave_dataset(folder) == first.workspace.dataset
    assert io.load_workspace(second.autosave.path).dataset == second.workspace.dataset


def test_the_second_instance_takes_the_main_slot_over_when_its_owner_dies(qtbot, make_window,
                                                                            folder):
    from PySide6 import QtCore

    folder.mkdir(parents=True)
    owner = QtCore.QLockFile(str(folder / "autosave.lock"))  # a running first instance
    assert owner.tryLock(0)
    left = _leave_autosave(folder, generators.xor(8, seed=1), settings=False)
    win = make_window()
    win.autosave.try_take_over()
    assert not win.autosave.is_main
    with qtbot.waitSignal(win.autosave.saved, timeout=5000):
        win.push_edit(AddPoints([3.0, 3.0], -1))
    own = win.autosave.path
    owner.unlock()  # it dies
    with qtbot.waitSignal(win.autosave.took_over, timeout=10000):
        pass
    assert win.autosave.is_main and not os.path.exists(own)
    assert _autosave_dataset(folder) == win.workspace.dataset
    assert not win.statusBar().findChild(QtWidgets.QLabel, "autosaveStatus").isVisible()
    # the dead owner's work is kept as an orphan, offered at the next start
    orphans, _ = restore_mod.find_orphans(str(folder), exclude=win.autosave.stem)
    assert [o.workspace.dataset for o in orphans] == [left.dataset]
    orphans[0].release()


def test_an_orphan_whose_owner_runs_is_not_offered(qtbot, make_window, folder):
    from PySide6 import QtCore

    _leave_autosave(folder, generators.xor(8, seed=1), stem="autosave-0123456789ab")
    owner = QtCore.QLockFile(str(folder / "autosave-0123456789ab.lock"))
    assert owner.tryLock(0)
    assert restore_mod.find_orphans(str(folder))[0] == []
    owner.unlock()
    orphans, _ = restore_mod.find_orphans(str(folder))
    assert len(orphans) == 1
    orphans[0].release()


def _leave_autosave(folder, data, document="", stem="autosave", settings=True, steps=3):
    """An autosave as a killed instance leaves it (no lock held)."""
    from perceptron_gui.core import Workspace

    folder.mkdir(parents=True, exist_ok=True)
    ws = Workspace(data, learner="dual")
    ws.advance(steps)
    io.save_workspace(ws, folder / f"{stem}.json")
    (folder / f"{stem}.document").write_text(document)
    return ws


def test_restore_yes_brings_back_the_points_as_unsaved_work(qtbot, make_window, folder,
                                                            monkeypatch, tmp_path):
    data = generators.moons(20, seed=4)
    doc = tmp_path / "mine.json"
    doc.write_text("{}")
    _leave_autosave(folder, data, str(doc))
    asked = []

    def open_(dialog):
        asked.append([dialog.tree.topLevelItem(0).text(c) for c in range(4)])
        dialog.restore_button.click()

    monkeypatch.setattr(restore_mod.RestoreDialog, "open", open_)
    win = make_window()
    assert finish(qtbot, restore_mod.offer_restore(win))
    assert asked[0][1:] == ["20 points", "Dual perceptron", "mine.json"]
    ws = win.workspace
    assert ws.dataset == data and ws.learner_name == "dual" and ws.step_count == 3
    assert win.windowTitle() == "mine.json* — perceptron-gui"
    assert win.undo_stack.count() == 0
    # it is autosaved again (the work is still unsaved), then the orphan goes
    qtbot.waitUntil(lambda: (folder / "autosave.json").exists(), timeout=5000)
    assert _autosave_dataset(folder) == data
    qtbot.waitUntil(lambda: sorted(p.name for p in folder.glob("*.json")) == ["autosave.json"],
                    timeout=5000)


def test_the_restore_question_is_answered_without_a_nested_event_loop(qtbot, make_window,
                                                                       folder):
    data = generators.moons(9, seed=5)
    _leave_autosave(folder, data)
    win = make_window()
    job = restore_mod.offer_restore(win)

    def question():
        dialog = win.findChild(QtWidgets.QDialog, "restoreDialog")
        return dialog if dialog is not None and dialog.isVisible() else None

    qtbot.waitUntil(lambda: question() is not None, timeout=10_000)
    assert not job.done and win.autosave.hold  # offer_restore returned: the question waits
    question().restore_button.click()
    assert finish(qtbot, job) is True
    assert win.workspace.dataset == data and not win.autosave.hold


def _two_orphans(folder):
    a = _leave_autosave(folder, generators.xor(12, seed=2), stem="autosave-aaaaaaaaaaaa")
    b = _leave_autosave(folder, generators.moons(7, seed=3), stem="autosave-bbbbbbbbbbbb",
                        steps=0)
    os.utime(folder / "autosave-bbbbbbbbbbbb.json", (1e9, 1e9))  # the older one
    return a, b


def test_every_orphan_is_offered_first_here_the_others_in_new_windows(qtbot, make_window,
                                                                       folder, monkeypatch):
    a, b = _two_orphans(folder)
    c = _leave_autosave(folder, generators.separable(5, seed=1), stem="autosave-cccccccccccc")
    started = []
    monkeypatch.setattr(restore_mod, "_open_in_new_window",
                        lambda orphan: started.append(orphan.stem) or orphan.release())
    win = make_window()
    offered = []

    def open_(dialog):
        offered.extend(o.stem for o in dialog.orphans)
        dialog.tree.topLevelItem(1).setCheckState(0, autosave_mod.QtCore.Qt.Unchecked)
        dialog.restore_button.click()

    monkeypatch.setattr(restore_mod.RestoreDialog, "open", open_)
    assert finish(qtbot, restore_mod.offer_restore(win))
    assert len(offered) == 3 and offered[-1] == "autosave-bbbbbbbbbbbb"  # newest first
    here = offered[0]
    assert win.workspace.dataset == {"autosave-aaaaaaaaaaaa": a, "autosave-cccccccccccc": c}[
        here].dataset
    assert started == ["autosave-bbbbbbbbbbbb"]
    # the unticked one is kept, unlocked: the next start offers it again
    kept = offered[1]
    assert (folder / f"{kept}.json").exists()
    orphans, _ = restore_mod.find_orphans(str(folder), exclude=win.autosave.stem)
    assert kept in [o.stem for o in orphans]
    for o in orphans:
        o.release()
    assert b.dataset.n == 7


def test_decide_later_keeps_all_and_discard_deletes_only_the_ticked(qtbot, make_window, folder,
                                                                    monkeypatch):
    _two_orphans(folder)
    win = make_window()
    monkeypatch.setattr(restore_mod.RestoreDialog, "open",
                        lambda dialog: dialog.later_button.click())
    assert not finish(qtbot, restore_mod.offer_restore(win))
    assert len(list(folder.glob("autosave-*.json"))) == 2 and win.workspace.dataset.n == 0

    def discard_first(dialog):
        dialog.tree.topLevelItem(1).setCheckState(0, autosave_mod.QtCore.Qt.Unchecked)
        dialog.discard_button.click()

    monkeypatch.setattr(errors, "ask", lambda *a, **k: B.Yes)
    monkeypatch.setattr(restore_mod.RestoreDialog, "open", discard_first)
    assert not finish(qtbot, restore_mod.offer_restore(win))
    assert [p.name for p in folder.glob("autosave-*.json")] == ["autosave-bbbbbbbbbbbb.json"]


def test_restore_no_discards_and_later_keeps(qtbot, make_window, folder, monkeypatch):
    _two_orphans(folder)
    monkeypatch.setattr(restore_mod.RestoreDialog, "open",
                        lambda dialog: pytest.fail("the env var answers"))
    win = make_window()
    monkeypatch.setenv("PERCEPTRON_GUI_RESTORE", "later")
    assert not finish(qtbot, restore_mod.offer_restore(win))
    assert len(list(folder.glob("autosave-*.json"))) == 2
    monkeypatch.setenv("PERCEPTRON_GUI_RESTORE", "no")
    assert not finish(qtbot, restore_mod.offer_restore(win))
    assert not list(folder.glob("autosave-*.json")) and win.workspace.dataset.n == 0


def test_a_killed_main_owners_work_is_not_overwritten(qtbot, make_window, folder, monkeypatch):
    left = _leave_autosave(folder, generators.xor(12, seed=2))
    monkeypatch.setenv("PERCEPTRON_GUI_RESTORE", "later")
    win = make_window()
    assert win.autosave.is_main
    with qtbot.waitSignal(win.autosave.saved, timeout=5000):
        win.push_edit(AddPoints([3.0, 3.0], -1))
    assert not finish(qtbot, restore_mod.offer_restore(win))
    orphans, _ = restore_mod.find_orphans(str(folder), exclude=win.autosave.stem)
    assert [o.workspace.dataset for o in orphans] == [left.dataset]
    orphans[0].release()


def test_a_failing_write_says_so_once_and_keeps_the_work(qtbot, make_window, folder,
                                                         monkeypatch):
    def full(*_args):
        raise OSError(28, "No space left on device")

    monkeypatch.setattr(autosave_mod, "write_slot", full)
    win = make_window()
    messages = []
    win.errorReported.connect(lambda summary, _detail: messages.append(summary))
    win.push_edit(AddPoints([1.0, 1.0], 1))
    qtbot.waitUntil(lambda: bool(messages), timeout=5000)
    win.push_edit(AddPoints([2.0, 1.0], 1))
    qtbot.waitUntil(lambda: not win.autosave.pending, timeout=5000)
    qtbot.wait(100)
    assert len(messages) == 1 and "no space left on device" in messages[0]
    assert "File ▸ Save" in messages[0] and win.workspace.dataset.n == 2
    label = win.statusBar().findChild(QtWidgets.QLabel, "autosaveStatus")
    assert label.isVisible() and "failing" in label.text()


def test_an_unwritable_folder_turns_autosave_off_out_loud(qtbot, folder, monkeypatch, tmp_path):
    from perceptron_gui.ui.main_window import MainWindow

    blocker = tmp_path / "file"
    blocker.write_text("")
    monkeypatch.setattr(autosave_mod, "default_directory", lambda: str(blocker / "appdata"))
    win = MainWindow()
    qtbot.addWidget(win)
    win.show()
    assert not win.autosave.enabled
    label = win.statusBar().findChild(QtWidgets.QLabel, "autosaveStatus")
    assert label.isVisible() and "Not autosaving" in label.text()


def test_a_damaged_autosave_is_reported_and_set_aside(qtbot, make_window, folder, monkeypatch):
    folder.mkdir(parents=True)
    (folder / "autosave-dddddddddddd.json").write_text(
        '{"format": "perceptron-gui-workspace", "vers')
    warned = []
    monkeypatch.setattr(errors, "warn", lambda *a: warned.append(a[2]))
    win = make_window()
    assert not finish(qtbot, restore_mod.offer_restore(win))
    assert "truncated?" in warned[0]
    assert (folder / "autosave-dddddddddddd.damaged.json").exists()


def test_the_restore_dialog_looks_right(qtbot, window, tmp_path):
    folder = tmp_path / "orphans"
    _two_orphans(folder)
    orphans, _ = restore_mod.find_orphans(str(folder))
    dialog = restore_mod.RestoreDialog(orphans, window)
    qtbot.addWidget(dialog)
    dialog.show()
    qtbot.waitExposed(dialog)
    assert dialog.restore_button.isDefault() and len(dialog.ticked()) == 2
    assert dialog.tree.topLevelItem(0).text(1) == "12 points"
    for i in range(2):
        dialog.tree.topLevelItem(i).setCheckState(0, autosave_mod.QtCore.Qt.Unchecked)
    assert not dialog.restore_button.isEnabled() and not dialog.discard_button.isEnabled()
    image = dialog.grab()
    assert image.width() > 400 and image.height() > 120
    image.save(os.environ.get("PERCEPTRON_GUI_SHOT_DIR", str(tmp_path)) + "/restore.png")
    for o in orphans:
        o.release()


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
        elif wins and os.environ.get("TEST_QUIT_WHEN_RESTORED") and wins[0].workspace.dataset.n:
            app.quit()  # the restore is done: however long a loaded machine took for it

    timer = QtCore.QTimer()
    timer.timeout.connect(tick)
    timer.start(15)
    sys.exit(main(sys.argv[1:]))
""")


def _expected(n):
    X = [[((i * 37) % 101) / 10.0 - 5.0, ((i * 53) % 97) / 10.0 - 5.0] for i in range(n)]
    y = [1 if i % 3 else -1 for i in range(n)]
    return np.array(X), np.array(y)


@pytest.mark.slow  # a second process, killed
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

    # quit once restored (a fixed second was too short for a loaded machine to restore in);
    # --quit-after closes without asking, and at the latest then
    env.update(PERCEPTRON_GUI_RESTORE="yes", TEST_EDITS="0", TEST_QUIT_WHEN_RESTORED="1")
    out = subprocess.run([sys.executable, "-c", _CHILD, "--quit-after", "60"],
                         capture_output=True, text=True, timeout=120, env=env)
    assert out.returncode == 0, out.stderr
    restored = [line.split()[:3] for line in out.stdout.splitlines()
                if line.startswith("restored")]
    assert restored == [["restored", f"n={on_disk.n}",
                         f"sha={autosave_mod.dataset_digest(on_disk)}"]]
    assert not autosave.exists()  # the restart exited cleanly


# ------------------------------------------------------------- two instances, for real

_POINTS_A = "1,1,1;2,0.5,-1;3,1.5,1"
_POINTS_B = "-1,-1,-1;-2,0.25,1"


def _instance_env(tmp_path, **extra):
    env = dict(os.environ, QT_QPA_PLATFORM="offscreen", HOME=str(tmp_path / "home"),
               XDG_CONFIG_HOME=str(tmp_path / "cfg"), XDG_DATA_HOME=str(tmp_path / "share"),
               PERCEPTRON_GUI_AUTOSAVE_SECONDS="0.1", PERCEPTRON_GUI_AUTOSAVE_POLL_SECONDS="0.2",
               PERCEPTRON_GUI_AUTOSAVE_DEBUG="1")
    for key in ("PERCEPTRON_GUI_RESTORE", "PERCEPTRON_GUI_AUTOSAVE_TEST_POINTS",
                restore_mod.RESTORE_PATH_VAR):
        env.pop(key, None)
    env.update(extra)
    return env


def _start(tmp_path, name, *args, **env):
    out = tmp_path / f"{name}.out"
    with open(out, "w") as f:
        proc = subprocess.Popen([sys.executable, "-m", "perceptron_gui", *args], stdout=f,
                                stderr=subprocess.DEVNULL, env=_instance_env(tmp_path, **env),
                                cwd=os.getcwd())
    return proc, out


def _wait_lines(out, prefix, count=1, timeout=90, proc=None):
    """The first ``count`` lines of ``out`` starting with ``prefix``, split into fields."""
    deadline = time.monotonic() + timeout
    while time.monotonic() < deadline:
        lines = [dict(f.split("=", 1) for f in line.split()[1:])
                 for line in out.read_text().splitlines() if line.startswith(prefix + " ")]
        if len(lines) >= count:
            return lines
        assert proc is None or proc.poll() is None, out.read_text()
        time.sleep(0.05)
    raise AssertionError(f"no {prefix!r} line in {out}: {out.read_text()!r}")


def _kill(*procs):
    for proc in procs:
        if proc.poll() is None:
            proc.send_signal(signal.SIGKILL)
        proc.wait(30)


def _kill_pid(pid):
    try:
        os.kill(pid, signal.SIGKILL)
    except ProcessLookupError:
        pass


@pytest.mark.slow  # three processes
def test_two_instances_killed_are_both_offered_and_restored_exactly(tmp_path):
    a, a_out = _start(tmp_path, "a", PERCEPTRON_GUI_AUTOSAVE_TEST_POINTS=_POINTS_A)
    b = c = None
    spawned = []
    try:
        saved_a = _wait_lines(a_out, "autosave", proc=a)[0]
        assert saved_a["n"] == "3" and saved_a["slot"] == "autosave"
        b, b_out = _start(tmp_path, "b", PERCEPTRON_GUI_AUTOSAVE_TEST_POINTS=_POINTS_B)
        saved_b = _wait_lines(b_out, "autosave", proc=b)[0]
        assert saved_b["n"] == "2" and saved_b["slot"].startswith("autosave-")
        _kill(a, b)
        assert a.returncode == b.returncode == -signal.SIGKILL
        # the third start offers both works: one restored in its window, one in a new one
        c, c_out = _start(tmp_path, "c", "--quit-after", "2", PERCEPTRON_GUI_RESTORE="yes")
        restored = _wait_lines(c_out, "restored", count=2, timeout=120)
        spawned = [int(r["pid"]) for r in restored if int(r["pid"]) != c.pid]
        offered = _wait_lines(c_out, "offered", count=2)
        c.wait(120)
        assert c.returncode == 0
        works = {(saved_a["n"], saved_a["sha"]), (saved_b["n"], saved_b["sha"])}
        assert {(o["n"], o["sha"]) for o in offered} == works
        assert {(r["n"], r["sha"]) for r in restored} == works
        assert len(spawned) == 1 and c.pid in {int(r["pid"]) for r in restored}
    finally:
        _kill(*[p for p in (a, b, c) if p is not None])
        for pid in spawned:
            _kill_pid(pid)


@pytest.mark.slow  # two processes
def test_the_second_instance_takes_over_when_the_first_is_killed(tmp_path):
    folder = tmp_path / "share" / "perceptron-gui" / "perceptron-gui"
    a, a_out = _start(tmp_path, "a", PERCEPTRON_GUI_AUTOSAVE_TEST_POINTS=_POINTS_A)
    b = None
    try:
        saved_a = _wait_lines(a_out, "autosave", proc=a)[0]
        b, b_out = _start(tmp_path, "b", PERCEPTRON_GUI_AUTOSAVE_TEST_POINTS=_POINTS_B)
        saved_b = _wait_lines(b_out, "autosave", proc=b)[0]
        assert saved_b["slot"] != "autosave"
        _kill(a)
        assert _wait_lines(b_out, "takeover", proc=b)[0]["slot"] == "autosave"
        # the main slot now holds the second's work; the first's is an orphan of its own
        on_disk = io.load_workspace(folder / "autosave.json").dataset
        assert autosave_mod.dataset_digest(on_disk) == saved_b["sha"]
        others = [io.load_workspace(p).dataset for p in folder.glob("autosave-*.json")]
        assert [autosave_mod.dataset_digest(d) for d in others] == [saved_a["sha"]]
        assert b.poll() is None
    finally:
        _kill(*[p for p in (a, b) if p is not None])


def test_an_autosave_with_a_value_beyond_32_bits_is_reported_and_kept(
        qtbot, make_window, folder, warnings, monkeypatch):
    import json

    _leave_autosave(folder, generators.xor(8, seed=1), stem="autosave-eeeeeeeeeeee")
    path = folder / "autosave-eeeeeeeeeeee.json"
    doc = json.loads(path.read_text())
    doc["params"]["dual"]["max_iter"] = 2**31
    path.write_text(json.dumps(doc))
    monkeypatch.setenv("PERCEPTRON_GUI_RESTORE", "yes")
    win = make_window()
    # no OverflowError: the program runs on
    assert not finish(qtbot, restore_mod.offer_restore(win))
    assert win.workspace.dataset.n == 0
    (title, text), = warnings
    assert "params.dual.max_iter: max_iter must be a positive integer" in text
    assert (folder / "autosave-eeeeeeeeeeee.damaged.json").exists()  # kept, never deleted


def test_a_restore_that_fails_keeps_the_window_and_offers_the_orphan_again(
        qtbot, make_window, folder, warnings, monkeypatch):
    data = generators.moons(20, seed=4)
    _leave_autosave(folder, data)
    monkeypatch.setenv("PERCEPTRON_GUI_RESTORE", "yes")
    win = make_window()
    before = (win.workspace.dataset, win.windowTitle(), win.undo_stack.count())
    ws = win.workspace

    def refuse(*_args):
        if ws.dataset.n == 20:
            raise OverflowError("Python int too large to convert to C int")

    ws.events.dataset_changed.connect(refuse)  # a restore announces itself as new data
    assert not finish(qtbot, restore_mod.offer_restore(win))  # the program goes on
    assert (win.workspace.dataset, win.windowTitle(), win.undo_stack.count()) == before
    (title, text), = warnings
    assert title == "Cannot restore the unsaved work" and "offered again" in text
    ws.events.dataset_changed.disconnect(refuse)
    orphans, _ = restore_mod.find_orphans(str(folder), exclude=win.autosave.stem)
    assert [o.workspace.dataset for o in orphans] == [data]  # kept, and offered again
    for orphan in orphans:
        orphan.release()


def test_an_autosave_at_a_position_too_far_to_recompute_is_offered_not_damaged(folder,
                                                                              monkeypatch):
    # before, such an autosave was refused as damaged and never offered again: the
    # run's position is dropped (with a note), the points and parameters are kept
    from perceptron_gui.core.io import runstep

    left = _leave_autosave(folder, generators.xor(8, seed=1), steps=5)
    monkeypatch.setattr(runstep, "RESTORE_SECONDS", 1e-12)
    orphans, damaged = restore_mod.find_orphans(str(folder))
    assert damaged == [] and len(orphans) == 1
    restored = orphans[0].workspace
    assert restored.dataset == left.dataset and restored.step_count == 0
    assert restored.open_note.startswith("The run opens at its start: its stored position, "
                                         "step 5 on 8 points")
    orphans[0].release()


def test_the_orphans_are_read_off_the_ui_thread(qtbot, make_window, folder, monkeypatch):
    # reading an autosave recomputes its run up to its stored step: seconds on many
    # points, which held the window at start while it was done on the UI thread
    import threading

    _leave_autosave(folder, generators.xor(8, seed=1), stem="autosave-0123456789ab")
    win = make_window()
    readers = []
    real = io.load_workspace

    def load(path, progress=None):
        readers.append(threading.current_thread() is threading.main_thread())
        return real(path, progress=progress)

    monkeypatch.setattr(io, "load_workspace", load)
    monkeypatch.setenv("PERCEPTRON_GUI_RESTORE", "later")
    assert not finish(qtbot, restore_mod.offer_restore(win))
    assert readers == [False]


def test_reading_the_orphans_can_be_cancelled_and_keeps_them(folder):
    left = _leave_autosave(folder, generators.xor(8, seed=1), stem="autosave-0123456789ab")
    with pytest.raises(io.Cancelled):
        restore_mod.find_orphans(str(folder), progress=lambda fraction: False)
    assert sorted(p.name for p in folder.glob("*.json")) == ["autosave-0123456789ab.json"]
    orphans, damaged = restore_mod.find_orphans(str(folder))  # its lock was released
    assert damaged == [] and [o.workspace.dataset for o in orphans] == [left.dataset]
    orphans[0].release()
