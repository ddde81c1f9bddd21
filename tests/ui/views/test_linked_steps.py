"""Linked views: a step chosen anywhere (a live plot, weight space, the timeline, the log)
is the step shown everywhere (hovering, both ways, is in test_weight_space.py).
"""

from __future__ import annotations

import numpy as np
import pytest
from PySide6 import QtCore

from perceptron_gui.core import Workspace, generators
from perceptron_gui.core.dataset import ReplaceAll
from perceptron_gui.ui.views.plots.seek import ClickToSeek, step_at


def _run(ws, push=None):
    """``ws`` run to the end on 24 separable points, through the window's ``push`` if given."""
    data = generators.separable(24, seed=7, margin=0.2, offset=0.0)
    (push or ws.apply_edit)(ReplaceAll.from_dataset(data))
    ws.set_params(fit_intercept=False)
    ws.run_to_end()
    return ws


@pytest.fixture
def run(window):
    ws = _run(window.workspace, window.push_edit)
    window.set_views_visible(True)
    return ws


def _everywhere(window, qtbot, ws, step: int) -> None:
    """The timeline, the log and weight space all show ``step``."""
    log = ws.learner.history.updates.rows()
    k = int(np.searchsorted(log.step, step, side="right"))  # updates made by then
    tl = window.timeline
    tl.refresh()
    assert ws.step_count == step
    assert tl.slider.value() == step
    assert tl.view.selected_row() == (k - 1 if k else None)
    weights = window.views.view("weights")
    window.views.setCurrentWidget(weights)
    qtbot.waitUntil(lambda: weights.picture is not None
                    and int(weights.picture.trajectory.count[-1]) == k, timeout=30_000)
    w = ws.learner.coef_[0]
    x, y = weights.now.getData()
    np.testing.assert_allclose([x[0], y[0]], w, rtol=1e-12)


def _click(qtbot, widget, plot_item, x: float, y: float) -> None:
    vb = plot_item.getViewBox()
    scene = vb.mapViewToScene(QtCore.QPointF(x, y))
    qtbot.mouseClick(widget.viewport(), QtCore.Qt.MouseButton.LeftButton,
                     pos=widget.mapFromScene(scene))


def test_step_at_reads_the_log_and_stays_in_the_steps_computed():
    learner = _run(Workspace()).learner
    log = learner.history.updates.rows()
    assert step_at(learner, "update", 0) == 0
    assert step_at(learner, "update", 2.2) == int(log.step[1])  # update 2's step
    assert step_at(learner, "update", 10**9) == int(log.step[-1])
    assert step_at(learner, "step", -5) == 0
    assert step_at(learner, "step", 3.6) == 4
    assert step_at(learner, "step", 10**9) == learner.end_step
    assert step_at(None, "step", 3) is None and step_at(learner, "step", float("nan")) is None
    with pytest.raises(ValueError, match="unknown unit"):
        step_at(learner, "epoch", 1)


def test_a_click_on_the_proof_plot_is_the_step_everywhere(window, qtbot, run, subtests):
    ws = run
    plots = window.views.view("plots")
    window.views.setCurrentWidget(plots)
    qtbot.waitUntil(lambda: len(plots.seekers) == 3, timeout=10_000)
    with subtests.test("a click outside the data area does nothing"):
        seeker = plots.seekers[0]
        assert isinstance(seeker, ClickToSeek) and seeker.unit == "step"
        far = (seeker.plot_item.getViewBox().sceneBoundingRect().bottomRight()
               + QtCore.QPointF(5, 5))
        assert seeker.step_of(far) is None
    window.settle()
    proof = plots.part("proof")
    seen = []
    window.commandDispatched.connect(seen.append)
    log = ws.learner.history.updates.rows()
    _click(qtbot, proof.proof_view, proof.dot_plot, 2.0, 0.0)  # at k = 2
    qtbot.waitUntil(lambda: ws.step_count == int(log.step[1]))
    assert [c.name for c in seen] == ["seek"]
    _everywhere(window, qtbot, ws, int(log.step[1]))
    # the bound plot counts steps: a click at step 5 goes there
    bound = plots.part("bound")
    window.views.setCurrentWidget(plots)
    window.settle()
    _click(qtbot, bound.bound_plot, bound.bound_plot.getPlotItem(), 5.0, 1.0)
    qtbot.waitUntil(lambda: ws.step_count == 5)
    _everywhere(window, qtbot, ws, 5)


def test_the_log_and_the_timeline_move_weight_space(window, qtbot, run):
    ws = run
    log = ws.learner.history.updates.rows()
    tl = window.timeline
    view = tl.view
    tl.refresh()
    assert len(log.step) >= 3
    assert view.selected_row() == len(log.step) - 1  # at the end: the last update
    view.selectRow(1)
    _everywhere(window, qtbot, ws, int(log.step[1]))
    tl.slider.setValue(int(log.step[0]))
    _everywhere(window, qtbot, ws, int(log.step[0]))
    tl.slider.setValue(0)
    _everywhere(window, qtbot, ws, 0)
