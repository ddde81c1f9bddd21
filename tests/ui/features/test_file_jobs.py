"""File jobs are asynchronous: the UI thread runs on, one job at a time, nothing is lost.

The readers and writers are replaced by slow ones that wait in the worker
(on an event the test sets), so that what the window does *while* a job runs
can be watched: its timers tick, a second open or save is refused with a
message, Cancel leaves it as it was, and closing waits for a save.
"""

from __future__ import annotations

import threading

import pytest
from PySide6 import QtCore

from perceptron_gui.core import Workspace, generators, io
from perceptron_gui.core.dataset import ReplaceAll
from perceptron_gui.ui.features.progress import Job
from tests.ui.helpers import finish, window_state

PATIENCE_S = 20  # a gate no test should reach: the worker gives up waiting after it


@pytest.fixture
def saved(tmp_path):
    """A workspace file of 8 XOR points, and its data set."""
    path = tmp_path / "saved.json"
    data = generators.xor(8, seed=1)
    io.save_workspace(Workspace(data), path)
    return path, data


@pytest.fixture
def slow_reader(monkeypatch):
    """``io.load_workspace`` that waits in the worker until ``gate`` is set (or Cancel)."""
    gate = threading.Event()
    entered = threading.Event()
    original = io.load_workspace

    def slow(path, progress=None):
        entered.set()
        for _ in range(PATIENCE_S * 100):
            if gate.wait(0.01):
                break
            if progress is not None and not progress(0.5):
                raise io.Cancelled("cancelled")
        return original(path, progress=progress)

    monkeypatch.setattr(io, "load_workspace", slow)
    yield gate, entered
    gate.set()


def test_the_ui_thread_runs_on_while_a_slow_open_runs(qtbot, window, saved, slow_reader):
    gate, entered = slow_reader
    path, data = saved
    ticks: list[float] = []
    timer = QtCore.QTimer(interval=10)
    timer.timeout.connect(lambda: ticks.append(1))
    timer.start()
    job = window.files.open_path(path, ask=False)
    assert isinstance(job, Job) and not job.done  # it returned at once
    qtbot.waitUntil(lambda: entered.is_set() and len(ticks) >= 20, timeout=10_000)
    assert window.files.busy and not job.done  # the worker still reads: the timer ticked
    gate.set()
    with qtbot.waitSignal(job.finished, timeout=10_000) as blocker:
        pass
    timer.stop()
    assert blocker.args == [True] and job.result is True
    assert window.workspace.dataset == data and not window.files.busy


def test_a_second_open_or_save_while_one_runs_is_refused_with_a_message(
        qtbot, window, saved, slow_reader, tmp_path):
    gate, entered = slow_reader
    path, data = saved
    job = window.files.open_path(path, ask=False)
    qtbot.waitUntil(entered.is_set, timeout=10_000)
    before = window_state(window)
    for second in (window.files.open_path(path, ask=False),
                   window.files.save_to(tmp_path / "other.json"),
                   window.files.csv.import_csv(tmp_path / "points.csv")):
        assert second.done and second.result is False
        assert window.statusBar().currentMessage() == (
            "Opening saved.json is under way; wait for it or cancel it, then try again.")
    assert window_state(window) == before and not (tmp_path / "other.json").exists()
    assert not window.files.actionOpen.isEnabled() and not window.files.actionSave.isEnabled()
    gate.set()
    assert finish(qtbot, job)  # the first one was not disturbed
    assert window.workspace.dataset == data and window.files.actionOpen.isEnabled()


def test_cancel_leaves_the_window_as_it_was(qtbot, window, saved, slow_reader):
    path, _data = saved
    window.push_edit(ReplaceAll.from_dataset(generators.separable(6, seed=2), "mine"))
    before = window_state(window)
    job = window.files.open_path(path, ask=False)
    qtbot.waitUntil(slow_reader[1].is_set, timeout=10_000)
    window.files.cancel_load()
    assert finish(qtbot, job) is False
    assert window_state(window) == before
    assert window.statusBar().currentMessage() == (
        "Opening saved.json was cancelled; nothing changed.")


def test_closing_during_a_save_waits_for_it_then_closes(qtbot, window, tmp_path, monkeypatch):
    gate = threading.Event()
    original = io.save_workspace

    def slow(workspace, path, progress=None):
        gate.wait(PATIENCE_S)
        return original(workspace, path, progress=progress)

    monkeypatch.setattr(io, "save_workspace", slow)
    data = generators.separable(6, seed=1)
    window.push_edit(ReplaceAll.from_dataset(data, "mine"))
    target = tmp_path / "closing.json"
    job = window.files.save_to(target)
    assert not window.close()  # the save runs: the window stays
    assert window.isVisible() and "the window closes once the file is written" in (
        window.statusBar().currentMessage())
    gate.set()
    qtbot.waitUntil(lambda: not window.isVisible(), timeout=10_000)
    assert job.result is True and io.load_workspace(target).dataset == data


def test_closing_during_an_open_cancels_it_and_closes(qtbot, window, saved, slow_reader):
    path, _data = saved
    before = window_state(window)
    job = window.files.open_path(path, ask=False)
    qtbot.waitUntil(slow_reader[1].is_set, timeout=10_000)
    assert not window.close()
    assert finish(qtbot, job) is False  # cancelled: nothing was adopted
    qtbot.waitUntil(lambda: not window.isVisible(), timeout=10_000)
    assert window_state(window) == before


def test_a_job_has_no_truth_value_and_chains(qtbot):
    job = Job()
    with pytest.raises(TypeError, match="wait for it"):
        bool(job)  # `assert files.save_to(p)` would always pass: it must not be written
    chained = job.then(lambda result: result + 1)
    assert not chained.done
    job.finish(41)
    assert chained.done and chained.result == 42
    assert Job.resolved("x").result == "x"
