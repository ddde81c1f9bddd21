"""One door: window.dispatch carries out every command as the old paths did, and says so.

And one view state: the View menu, the canvas and ``workspace.view_state`` never disagree.
"""

from __future__ import annotations

import numpy as np
import pytest
from PySide6 import QtCore

from perceptron_gui.core import dataset as ds
from perceptron_gui.core import generators
from perceptron_gui.core.commands import (
    RUN_ACTIONS,
    EditData,
    Run,
    Seek,
    SetLayers,
    SetLearner,
    SetParams,
    SetViewRect,
    ShowViews,
)
from perceptron_gui.ui.main_window import MainWindow


def _data():
    return generators.GENERATORS["separable"](n=24, seed=5, margin=0.3)


@pytest.fixture
def heard(window):
    """Every command the window announces on ``commandDispatched``."""
    calls: list = []
    window.commandDispatched.connect(calls.append)
    return calls


@pytest.fixture
def other(qtbot):
    """A second window, driven the old way, to compare with."""
    win = MainWindow()
    qtbot.addWidget(win)
    return win


def _same(a, b) -> None:
    wa, wb = a.workspace, b.workspace
    assert wa.dataset == wb.dataset and wa.learner_name == wb.learner_name
    assert wa.all_params() == wb.all_params() and wa.step_count == wb.step_count
    assert [a.undo_stack.text(i) for i in range(a.undo_stack.count())] == [
        b.undo_stack.text(i) for i in range(b.undo_stack.count())]


def test_edits_go_through_the_undo_stack_as_push_edit_did(window, other, heard):
    edits = [ds.ReplaceAll.from_dataset(_data(), "blobs"), ds.AddPoints([0.5, 0.5], -1),
             ds.MovePoints([2], [[1.0, -1.0]]), ds.Relabel([0, 1], -1), ds.FlipLabels([3]),
             ds.DeletePoints([4, 5])]
    for edit in edits:
        assert window.dispatch(EditData(edit))
        assert other.push_edit(edit)
        _same(window, other)
    assert heard == [EditData(e) for e in edits]
    stack = window.undo_stack
    assert [stack.command(i).command for i in range(stack.count())] == heard
    for stack in (window.undo_stack, other.undo_stack):
        stack.undo()
        stack.undo()
    _same(window, other)
    window.undo_stack.redo()
    other.undo_stack.redo()
    _same(window, other)
    assert window.dispatch(EditData(ds.Clear())) and window.workspace.dataset.n == 0
    window.undo_stack.undo()
    assert window.workspace.dataset == other.workspace.dataset


def test_a_refused_edit_is_not_done_and_not_announced(window, heard):
    assert not window.dispatch(EditData(ds.DeletePoints([7])))  # no such point
    assert heard == [] and window.undo_stack.count() == 0
    assert "Not done" in window.statusBar().currentMessage()


def test_step_actions_and_seek_move_the_run_as_the_playback_did(window, other, heard, qtbot):
    for win in (window, other):
        win.push_edit(ds.ReplaceAll.from_dataset(_data()))
    slots = {"step": other.playback.step_sample, "step_update": other.playback.step_update,
             "step_epoch": other.playback.step_epoch, "step_back": other.playback.step_back,
             "reset": other.playback.reset, "run_to_end": other.playback.run_to_end}
    for action in ("step", "step_update", "step_epoch", "step_back", "step", "run_to_end",
                   "step_back", "reset", "step_update"):
        assert window.dispatch(Run(action))
        slots[action]()
        qtbot.waitUntil(lambda: not (window.playback.running_to_end
                                     or other.playback.running_to_end))
        _same(window, other)
    window.playback.set_playing(True)
    assert window.dispatch(Seek(5))
    assert not window.playback.playing and window.workspace.step_count == 5
    assert [type(c) for c in heard] == [Run] * 9 + [Seek]


def test_the_windows_step_actions_are_dispatched(window, heard):
    window.push_edit(ds.ReplaceAll.from_dataset(_data()))
    expected = {"step_sample": "step", "step": "step_update", "step_epoch": "step_epoch",
                "step_back": "step_back", "run_to_end": "run_to_end", "reset": "reset"}
    for act_id, action in expected.items():
        before = len(heard)
        window.actions[act_id].trigger()
        assert heard[before:] == [Run(action)]
    assert sorted(expected.values()) == sorted(RUN_ACTIONS)
    window.actions["step_sample"].trigger()
    assert window.workspace.step_count == 1  # it still steps


def test_learner_and_parameter_commands_change_the_workspace(window, heard):
    window.push_edit(ds.ReplaceAll.from_dataset(_data()))
    assert window.dispatch(SetLearner("dual"))
    assert window.workspace.learner_name == "dual"
    assert window.learner_panel.selector.currentData() == "dual"
    assert window.dispatch(SetParams({"max_iter": 17}))
    assert window.workspace.params["max_iter"] == 17
    assert window.dispatch(SetParams({"max_iter": 3}, "primal"))
    assert window.workspace.all_params()["primal"]["max_iter"] == 3
    with pytest.raises(ValueError):
        window.dispatch(SetParams({"max_iter": 0}))
    assert window.workspace.params["max_iter"] == 17
    assert heard == [SetLearner("dual"), SetParams({"max_iter": 17}),
                     SetParams({"max_iter": 3}, "primal")]


def test_a_canvas_click_is_dispatched_as_an_edit(window, heard, qtbot):
    pos = window.canvas.data_to_widget(1.0, 2.0).toPoint()
    qtbot.mouseClick(window.canvas.viewport(), QtCore.Qt.LeftButton, pos=pos)
    assert len(heard) == 1 and isinstance(heard[0].edit, ds.AddPoints)
    assert window.workspace.dataset.n == 1 and window.undo_stack.count() == 1


# ---------------------------------------------------------------------- one view state


def test_a_menu_toggle_reaches_the_view_state_and_the_canvas(window, heard):
    act = window.actions["show_radius"]
    assert act.isChecked() and window.view_state.layer("radius")
    act.trigger()
    assert not act.isChecked()
    assert not window.view_state.layer("radius") and not window.canvas.layer_visible("radius")
    assert heard == [SetLayers({"radius": False})]


def test_the_view_state_sets_the_menu_and_the_canvas(window, heard):
    window.view_state.set_layers(max_margin=True, regions=False)
    assert window.actions["show_max_margin"].isChecked()
    assert not window.actions["show_regions"].isChecked()
    assert window.canvas.layer_visible("max_margin") and not window.canvas.layer_visible("regions")
    assert heard == []  # not a user's command: nothing to record
    window.canvas.set_visible_layers(regions=True)  # the canvas's API writes the same state
    assert window.actions["show_regions"].isChecked() and window.view_state.layer("regions")
    assert window.dispatch(SetLayers({"lda": True}))
    assert window.actions["show_lda"].isChecked() and window.canvas.layer_visible("lda")


def test_the_view_rectangle_follows_the_canvas_and_leads_it(window, qtbot):
    window.canvas.set_view_rect((-2.0, 2.0), (-1.0, 1.0))
    (x0, x1), (y0, y1) = window.canvas.view_rect()
    assert window.view_state.rect == (x0, x1, y0, y1) == window.workspace.view
    assert x0 <= -2.0 and 2.0 <= x1 and y0 <= -1.0 and 1.0 <= y1
    window.workspace.view = (10.0, 20.0, 30.0, 40.0)  # as a file restores it
    (x0, x1), (y0, y1) = window.canvas.view_rect()
    assert x0 <= 10.0 and 20.0 <= x1 and y0 <= 30.0 and 40.0 <= y1
    assert window.view_state.rect == (x0, x1, y0, y1)  # what is shown, aspect ratio kept
    window.push_edit(ds.ReplaceAll.from_dataset(_data()))
    assert window.dispatch(SetViewRect(None))  # fit the data
    (x0, x1), (y0, y1) = window.canvas.view_rect()
    X = window.workspace.dataset.X
    assert x0 < X[:, 0].min() and X[:, 0].max() < x1 and y0 < X[:, 1].min()
    assert window.view_state.rect == (x0, x1, y0, y1)
    assert window.dispatch(SetViewRect((0.0, 1.0, 0.0, 1.0)))
    assert np.allclose(np.mean(window.canvas.view_rect(), axis=1), [0.5, 0.5])


def test_the_views_follow_the_view_state(window, heard):
    assert window.dispatch(ShowViews(True))
    assert window.views.isVisible() and window.actions["views"].isChecked()
    assert window.view_state.views_shown
    window.actions["views"].trigger()  # F9
    assert not window.views.isVisible() and not window.view_state.views_shown
    window.view_state.set_views_shown(True)
    assert window.views.isVisible() and window.actions["views"].isChecked()
    assert heard == [ShowViews(True), ShowViews(False)]


def test_the_windows_own_entries_are_dispatched(window, heard):
    window.load_example("blobs")
    window.actions["fit_view"].trigger()
    window.actions["clear"].trigger()
    assert [type(c) for c in heard] == [EditData, SetViewRect, SetViewRect, EditData]
    assert isinstance(heard[0].edit, ds.ReplaceAll) and isinstance(heard[-1].edit, ds.Clear)
    assert heard[1] == heard[2] == SetViewRect(None)
    assert window.workspace.dataset.n == 0 and window.undo_stack.count() == 2


def test_every_layer_action_has_its_switch_in_the_view_state(window):
    layer_actions = {k.removeprefix("show_"): a for k, a in window.actions.items()
                     if k.startswith("show_")}
    assert layer_actions
    for key, act in layer_actions.items():
        assert act.isChecked() == window.view_state.layer(key) == window.canvas.layer_visible(key)


def test_the_learner_panel_and_the_timeline_speak_through_the_door(window, qtbot):
    from perceptron_gui.core import generators
    from perceptron_gui.core.commands import Seek, SetLearner, SetParams
    from perceptron_gui.core.dataset import ReplaceAll

    heard = []
    window.commandDispatched.connect(heard.append)
    window.push_edit(ReplaceAll.from_dataset(generators.separable(n=30, seed=3, margin=0.3)))
    panel, ws = window.learner_panel, window.workspace
    panel.selector.setCurrentIndex(panel.selector.findData("dual"))
    assert ws.learner_name == "dual" and SetLearner("dual") in heard
    panel.selector.setCurrentIndex(panel.selector.findData("primal"))
    panel.control("primal", "max_iter").setValue(7)
    assert ws.params["max_iter"] == 7 and SetParams({"max_iter": 7}, "primal") in heard
    ws.run_to_end()
    window.timeline.seek(2)
    assert ws.step_count == 2 and heard[-1] == Seek(2)
