"""The plots are built lazily and repaint at a bounded rate; one readout computation a frame.

(Moved from the canvas's speed tests when the canvas became a package.)
"""

from __future__ import annotations

import pytest
from PySide6 import QtCore, QtWidgets

from perceptron_gui.core import Workspace, datasets
from perceptron_gui.ui import style
from perceptron_gui.ui.views.plots import LivePlots, live


def test_plots_are_built_when_first_needed(qtbot):
    ws = Workspace()
    plots = LivePlots(ws)
    qtbot.addWidget(plots)
    assert not plots._built and plots.message
    assert plots.proof_text == ""
    ws.set_dataset(datasets.separable(20, seed=0))
    plots.refresh()
    assert plots._built and plots.message == ""
    assert plots.part("bound").k_curve is not None


def test_asking_for_a_plot_builds_the_plots(qtbot):
    plots = LivePlots(Workspace())
    qtbot.addWidget(plots)
    assert not plots._built
    assert plots.part("bound").bound_plot.objectName() == "plotBound"
    assert plots._built
    with pytest.raises(KeyError):
        plots.part("no_such_thing")


def test_plots_are_built_in_idle_time_after_the_first_show(qtbot):
    plots = LivePlots(Workspace())
    qtbot.addWidget(plots)
    plots.set_scale(style.PRESENTER)
    plots.show()
    qtbot.waitUntil(lambda: plots._built, timeout=5000)
    assert plots.findChild(QtWidgets.QWidget, "plotMistakes") is not None
    assert plots.part("bound").k_curve.opts["pen"].widthF() == style.PRESENTER.line


def test_the_scale_can_change_while_a_plot_is_half_built(qtbot, monkeypatch):
    # presenter mode entered between the proof's two build steps: the half-made
    # proof plot has no second plot yet to restyle, and takes the scale when done
    plots = LivePlots(Workspace())
    qtbot.addWidget(plots)
    steps = []
    original = LivePlots._build_part
    monkeypatch.setattr(LivePlots, "_build_part",
                        lambda self: (original(self), steps.append(1),
                                      len(steps) == 2 and self.set_scale(style.PRESENTER)))
    plots.show()
    qtbot.waitUntil(lambda: plots._built, timeout=5000)
    assert len(steps) == 4
    assert plots.part("proof").norm_curve.opts["pen"].widthF() == style.PRESENTER.line
    assert plots.part("proof").dot_curve.opts["pen"].widthF() == style.PRESENTER.line


def test_timers_run_between_the_plots_built_in_idle_time(qtbot, monkeypatch):
    # one step per turn of the event loop: a zero timer chain (posted events) would
    # build all three in one pass, with no timer or input event between them
    plots = LivePlots(Workspace())
    qtbot.addWidget(plots)
    ticks = []
    timer = QtCore.QTimer(plots, interval=0)
    timer.timeout.connect(lambda: ticks.append(1))
    seen = []
    original = LivePlots._build_part
    monkeypatch.setattr(LivePlots, "_build_part",
                        lambda self: (seen.append(len(ticks)), original(self))[1])
    timer.start()
    plots.show()
    qtbot.waitUntil(lambda: plots._built, timeout=5000)
    # four steps: the proof's two plots are made in two
    assert len(seen) == 4 and seen == sorted(set(seen))


def test_one_readout_computation_per_frame_in_the_window(qtbot, window, monkeypatch):
    from perceptron_gui.core.dataset import ReplaceAll

    window.push_edit(ReplaceAll.from_dataset(datasets.separable(40, seed=1, margin=0.1)))
    ws = window.workspace
    calls = {"_readouts": [], "_training_margins": []}
    for name, log in calls.items():
        owner = ws if name == "_readouts" else ws.theory  # the margins live in the theory cache
        original = getattr(owner, name)
        monkeypatch.setattr(owner, name,
                            lambda *a, _o=original, _l=log: (_l.append(1), _o(*a))[1])
    weights = set()
    for frame in range(1, 6):
        ws.step()
        weights.add(ws.learner.n_updates_)
        window.canvas.refresh()
        window.readouts.refresh()
        window.plots.refresh()
        assert len(calls["_readouts"]) == frame
        assert len(calls["_training_margins"]) == len(weights)  # once per weights


def test_plots_repaint_at_most_every_refresh_ms(qtbot, monkeypatch):
    from perceptron_gui.ui.views import plots as plots_module

    refreshes = []  # one per refresh cycle: the timer path refreshes the plots in turn
    original = plots_module.LivePlots._refresh_part
    monkeypatch.setattr(plots_module.LivePlots, "_refresh_part",
                        lambda self, i: (i or refreshes.append(1), original(self, i))[1])
    ws = Workspace(datasets.separable(2000, seed=1, margin=0.01))
    plots = plots_module.LivePlots(ws)
    qtbot.addWidget(plots)
    plots.show()
    stepper = QtCore.QTimer()
    stepper.setInterval(1)
    stepper.timeout.connect(ws.step)
    refreshes.clear()
    stepper.start()
    timer = QtCore.QElapsedTimer()
    timer.start()
    # many steps, each announcing a change, however long a loaded machine takes for them
    qtbot.waitUntil(lambda: ws.step_count > 40, timeout=60_000)
    stepper.stop()
    elapsed = timer.elapsed()
    assert 1 <= len(refreshes) <= elapsed / plots_module.REFRESH_MS + 2


def test_the_timer_path_builds_the_plots_one_per_pass(qtbot, monkeypatch):
    # new data arriving before the idle-time build: no single pass builds them all
    from perceptron_gui.ui.views import plots as plots_module

    per_pass = []  # plots built by each pass of the timer path
    staged = plots_module.LivePlots._refresh_staged

    def counted(self):
        before = len(self._parts)
        staged(self)
        per_pass.append(len(self._parts) - before)

    monkeypatch.setattr(plots_module.LivePlots, "_refresh_staged", counted)
    monkeypatch.setattr(live, "PREBUILD_MS", 600_000)  # shown, but no idle-time build
    ws = Workspace()
    plots = plots_module.LivePlots(ws)
    qtbot.addWidget(plots)
    plots.show()
    qtbot.waitExposed(plots)
    ws.set_dataset(datasets.separable(50, seed=2))
    qtbot.waitUntil(lambda: plots._built and plots.message == "", timeout=5000)
    assert sum(per_pass) == 3 and max(per_pass) == 1
    assert plots.part("bound").k_curve is not None


def test_hidden_plots_draw_a_run_when_next_shown(qtbot):
    # an animation redrew the hidden plots every frame: 14 % of a frame
    ws = Workspace()
    ws.set_dataset(datasets.separable(50, seed=2))
    plots = LivePlots(ws)
    qtbot.addWidget(plots)
    plots.show()
    qtbot.waitExposed(plots)
    qtbot.waitUntil(lambda: plots._built and plots.message == "", timeout=5000)
    curve = plots.part("bound").k_curve

    def drawn():
        return None if curve.xData is None else curve.xData.tolist()

    before = drawn()
    plots.hide()
    for _ in range(10):
        ws.step()
    qtbot.waitUntil(lambda: not plots._refresh_timer.isActive(), timeout=5000)
    assert drawn() == before, "a hidden plot was redrawn"
    plots.show()
    qtbot.waitUntil(lambda: drawn() != before, timeout=5000)
