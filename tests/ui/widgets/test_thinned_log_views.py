"""The timeline bar and the update log list read a thinned run log exactly.

Past its budget the update log keeps checkpoints and replays between them
(``core/learners/_log.py``); the views ask it for what they show and must show
what an unbounded log shows.
"""

from __future__ import annotations

import numpy as np
import pytest
from PySide6 import QtWidgets

from perceptron_gui.core import Workspace, generators
from perceptron_gui.core.learners import _log
from perceptron_gui.ui.widgets.timeline_bar import TimelineBar
from perceptron_gui.ui.widgets.update_log import UpdateLogModel


def run(monkeypatch=None) -> Workspace:
    if monkeypatch is not None:
        monkeypatch.setattr(_log, "LOG_BYTES", 2**18)
    ws = Workspace(generators.overlapping(1000, seed=2),
                   params={"primal": {"max_iter": 60}})
    ws.run_to_end()
    if monkeypatch is not None:
        monkeypatch.undo()
    return ws


@pytest.fixture
def thinned_and_full(monkeypatch):
    small, ref = run(monkeypatch), run()
    assert small.learner.update_log.thinned and not ref.learner.update_log.thinned
    return small, ref


def tick_columns(qtbot, ws) -> set[int]:
    bar = TimelineBar(ws)
    qtbot.addWidget(bar)
    bar.resize(600, 40)
    bar.show()
    qtbot.waitExposed(bar)
    image = bar.slider.grab().toImage()
    y = image.height() - 1
    return {x for x in range(image.width()) if image.pixelColor(x, y).name() == "#cc79a7"}


def test_the_timeline_ticks_of_a_thinned_log_are_updates_of_the_full_log(qtbot,
                                                                          thinned_and_full):
    # at the resolution of the checkpoints (here ~1,200 steps, 12 columns apart; with
    # the default budget they are finer than a column once a run is long enough to thin)
    small, ref = thinned_and_full
    ticks, full = tick_columns(qtbot, small), tick_columns(qtbot, ref)
    log = small.learner.update_log
    assert len(ticks) > 30 and len(full) > 300 and ticks <= full
    # and the marks it draws from are exact at the checkpoints and after the last one
    steps = np.arange(0, small.step_count + 1, 97)
    got = log.counts_before(steps)
    want = [ref.learner.update_log.count_before(int(t)) for t in steps]
    assert np.all(got <= want) and got[-1] == want[-1]


def test_the_update_list_of_a_thinned_log_shows_the_same_rows(qtbot, thinned_and_full):
    small, ref = thinned_and_full
    models = [UpdateLogModel(ws) for ws in (small, ref)]
    for m in models:
        m.refresh()
        QtWidgets.QApplication.processEvents()
    a, b = models
    n = a.rowCount()
    assert n == b.rowCount() == len(ref.learner.update_log) > 10_000
    for row in np.linspace(0, n - 1, 25).astype(int).tolist():
        assert a.step_of(row) == b.step_of(row)
        for col in range(a.columnCount()):
            assert a.index(row, col).data() == b.index(row, col).data()
