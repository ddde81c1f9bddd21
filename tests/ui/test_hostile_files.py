"""The window answers every hostile file with one message and leaves the work unchanged.

Through its public open functions (``window.files.open_path``, which also
imports ``.csv``, and ``window.demos.play``): FIFOs (made at run time: they
cannot be committed), JSON nested 100,000 deep, a 10-million-character
label and UTF-32 text. The bad-file corpus is opened the same way in
``test_files.py``. A FIFO that is not refused would block the load, so each
FIFO is released after a time limit and the test then fails on its message.
"""

from __future__ import annotations

import threading

import pytest
from PySide6 import QtWidgets

from perceptron_gui.core import generators
from perceptron_gui.core.dataset import ReplaceAll
from tests.hostile import PATIENCE, make_fifo, needs_fifo, release
from tests.ui.helpers import finish, window_state

B = QtWidgets.QMessageBox


@pytest.fixture
def busy_window(window):
    """A window with work of the user's: points, the dual learner, a step taken."""
    assert window.push_edit(ReplaceAll.from_dataset(generators.separable(9, seed=5), "data"))
    window.learner_panel.selector.setCurrentIndex(1)
    window.playback.step_update()
    return window




def _guarded(fifo: str, func):
    """Call ``func()``; if it is still waiting after PATIENCE seconds, release the FIFO."""
    timer = threading.Timer(PATIENCE, release, (fifo,))
    timer.start()
    try:
        return func()
    finally:
        timer.cancel()


@needs_fifo
@pytest.mark.parametrize("suffix", [".json", ".csv"])
def test_opening_a_fifo_says_so_and_changes_nothing(qtbot, busy_window, warnings, tmp_path,
                                                    suffix):
    fifo = make_fifo(tmp_path / f"pipe{suffix}")
    before = window_state(busy_window)
    assert not _guarded(fifo, lambda: finish(qtbot, busy_window.files.open_path(fifo, ask=False)))
    assert len(warnings) == 1
    assert "is not a regular file (a FIFO)" in warnings[0][1] and fifo in warnings[0][1]
    assert window_state(busy_window) == before
    assert busy_window.files.recent_files() == []


@needs_fifo
def test_playing_a_fifo_demo_says_so_and_changes_nothing(qtbot, busy_window, warnings,
                                                         tmp_path):
    fifo = make_fifo(tmp_path / "pipe.json")
    before = window_state(busy_window)
    assert not _guarded(fifo, lambda: busy_window.demos.play(fifo))
    assert [text for _, text in warnings] == [
        f"pipe.json: cannot read '{fifo}': it is not a regular file (a FIFO)"]
    assert not busy_window.demos.playing and window_state(busy_window) == before


@pytest.mark.parametrize("content, message", [
    ("[" * 100_000, "nested.json: invalid JSON: nested too deeply (line 1, column 101)"),
    ('{"format": "perceptron-gui-demo"}'.encode("utf-32"),
     "nested.json: the file is UTF-32 text; save it as UTF-8"),
])
def test_playing_a_hostile_demo_file_says_why(qtbot, busy_window, warnings, tmp_path,
                                              content, message):
    path = tmp_path / "nested.json"
    (path.write_bytes if isinstance(content, bytes) else path.write_text)(content)
    before = window_state(busy_window)
    assert not busy_window.demos.play(str(path))
    assert [text for _, text in warnings] == [message]
    assert not busy_window.demos.playing and window_state(busy_window) == before


def test_a_ten_million_character_label_is_refused_not_shown(qtbot, busy_window, warnings,
                                                            tmp_path):
    path = tmp_path / "long.csv"
    path.write_text("x,y,label\n1,2,cat\n3,4," + "d" * 10_000_000 + "\n", encoding="utf-8")
    before = window_state(busy_window)
    assert not finish(qtbot, busy_window.files.open_path(path, ask=False))
    assert len(warnings) == 1
    text = warnings[0][1]
    assert ("line 3, column 'label': a label of 10,000,000 characters is too long "
            "(at most 200)") in text
    assert len(text) < 500
    assert window_state(busy_window) == before
    assert len(busy_window.statusBar().currentMessage()) < 500
