"""The command vocabulary: every command survives JSON, and does what the old calls did."""

from __future__ import annotations

import json

import numpy as np
import pytest

from perceptron_gui.core import Workspace, commands, generators
from perceptron_gui.core import dataset as ds
from perceptron_gui.core.class_edits import AddClass, RemoveClass, RenameClass, SetClassNames
from perceptron_gui.core.commands import (
    COMMANDS,
    EDIT_KINDS,
    RUN_ACTIONS,
    EditData,
    Run,
    SampleModel,
    Seek,
    SetLayers,
    SetLearner,
    SetParams,
    SetViewRect,
    SetWeights,
    ShowViews,
    from_dict,
)
from perceptron_gui.core.exercises import LeaveExercise, StartExercise
from perceptron_gui.core.game_commands import FinishGame, LeaveGame, PlayMove, StartGame, UndoMove

EDITS = [
    ds.AddPoints([0.1, -0.2], 1),
    ds.AddPoints([[1.0, 2.0], [3.0, -0.0]], [-1, 1], index=1),
    ds.InsertPoints([0, 3], [[1.5, 2.5], [-1e-300, 1e300]], [1, -1]),
    ds.DeletePoints([2, 0]),
    ds.MovePoints([1], [[0.1 + 0.2, 7.0]]),
    ds.Relabel([0, 1], [-1, 1]),
    ds.FlipLabels([3]),
    ds.Clear(),
    ds.ReplaceAll([[1.0, 1.0], [2.0, 2.0]], [1, -1], "New data set: blobs"),
    ds.ReplaceAll(np.zeros((0, 2)), []),
    ds.ReplaceAll([[1.0, 1.0]], [2], class_names=("a", "b", "c"), classes=(0, 1, 2)),
    AddClass("stars"), RenameClass(2, "stripes"), SetClassNames(("a", "b", "c")),
    SetClassNames(None), RemoveClass(-1),
]

COMMAND_VALUES = [
    *(EditData(e) for e in EDITS),
    *(Run(a) for a in RUN_ACTIONS),
    Seek(0), Seek(12),
    SetLearner("dual"),
    SetParams({"max_iter": 7}), SetParams({"kernel": "rbf", "gamma": 0.5}, "dual"),
    SetParams({"random_state": None}, "primal"),
    SetLayers({"regions": False}), SetLayers({"radius": True, "max_margin": False}),
    SetViewRect((-3.0, 3.5, -2.0, 2.0000000000000004)), SetViewRect(None),
    ShowViews(True), ShowViews(False),
    SampleModel(((-1.0, 0.5), (2.0, 1.25)), (0.3, -1.1), ((1.0, 0.5), (0.75, 0.6)),
                (0.4, 0.6), 250, 7),
    StartGame(2.0, 0.5, seed=3), StartGame(1.5, 0.25, (0.6, 0.8), 0.1, True, None, True),
    PlayMove((0.5, -1.25)), UndoMove(), FinishGame(), LeaveGame(True), LeaveGame(False),
    StartExercise("predict-wide"), LeaveExercise(),  # registered by core/exercises.py
    SetWeights((1.5, -0.25), 0.125), SetWeights(None),
]


@pytest.mark.parametrize("command", COMMAND_VALUES, ids=lambda c: c.text)
def test_every_command_round_trips_through_json(command):
    data = command.to_dict()
    assert data["command"] == command.name
    back = from_dict(json.loads(json.dumps(data, allow_nan=False)))
    assert type(back) is type(command) and back == command
    assert back.to_dict() == data


def test_the_vocabulary_covers_every_kind_and_every_edit():
    kinds = {type(c) for c in COMMAND_VALUES}
    assert kinds == set(COMMANDS.values())
    assert {type(c.edit) for c in COMMAND_VALUES if isinstance(c, EditData)} == set(
        EDIT_KINDS.values())


def test_an_edit_command_keeps_its_floats_bit_for_bit():
    X = np.array([[0.1 + 0.2, -0.0], [5e-324, 1.7976931348623157e308]])
    command = EditData(ds.AddPoints(X, [1, -1]))
    back = from_dict(json.loads(json.dumps(command.to_dict())))
    assert back.edit.X.tobytes() == X.tobytes()


@pytest.mark.parametrize("data, message", [
    ({"command": "fly"}, "unknown command 'fly'"),
    ({"action": "step"}, "a command is an object"),
    ({"command": "run", "action": "jump"}, "unknown step action 'jump'"),
    ({"command": "run"}, "command 'run'"),
    ({"command": "seek", "step": -1}, "step >= 0"),
    ({"command": "seek", "step": True}, "integer step"),
    ({"command": "edit", "edit": "paint"}, "unknown edit 'paint'"),
    ({"command": "edit", "edit": "move", "indices": [0]}, "command 'edit'"),
    ({"command": "set_layers", "layers": {"regions": 1}}, "expected true or false"),
    ({"command": "set_params", "values": {}}, "at least one parameter"),
    ({"command": "set_view_rect", "rect": [1, 0, 0, 1]}, "x_min < x_max"),
    ({"command": "show_views", "shown": "yes"}, "true or false"),
    ({"command": "start_game", "R": 1.0, "gamma": 1.0}, "no point fits the rules"),
    ({"command": "play_move", "x": [1.0]}, "a point"),
    ({"command": "leave_game", "keep": 1}, "true or false"),
])
def test_a_malformed_command_is_refused_with_its_name(data, message):
    with pytest.raises(ValueError, match=message):
        from_dict(data)


def test_edit_data_takes_only_the_data_sets_edits():
    with pytest.raises(ValueError, match="edits"):
        EditData("delete everything")


def _workspace() -> Workspace:
    return Workspace(generators.GENERATORS["separable"](n=20, seed=4, margin=0.3))


def test_executing_commands_does_what_the_workspace_calls_do():
    ws, old = _workspace(), _workspace()
    script = [
        (Run("step"), lambda w: w.step()),
        (Run("step_update"), lambda w: w.step_update()),
        (Run("step_epoch"), lambda w: w.step_epoch()),
        (Run("step_back"), lambda w: w.step_back()),
        (Seek(3), lambda w: w.seek(3)),
        (EditData(ds.FlipLabels([0, 5])), lambda w: w.apply_edit(ds.FlipLabels([0, 5]))),
        (SetParams({"max_iter": 9}), lambda w: w.set_params(max_iter=9)),
        (Run("run_to_end"), lambda w: w.run_to_end()),
        (Run("reset"), lambda w: w.reset()),
        (SetLearner("dual"), lambda w: w.set_learner("dual")),
        (SetParams({"kernel": "poly"}, "dual"), lambda w: w.set_params("dual", kernel="poly")),
        (Run("run_to_end"), lambda w: w.run_to_end()),
    ]
    for command, call in script:
        command.execute(ws)
        call(old)
        assert ws.dataset == old.dataset and ws.learner_name == old.learner_name
        assert ws.all_params() == old.all_params() and ws.step_count == old.step_count
    assert ws.step_count > 0
    np.testing.assert_array_equal(ws.learner.alpha_, old.learner.alpha_)


def test_view_commands_write_the_workspaces_view_state():
    ws = Workspace()
    ws.view_state.declare_layers({"regions": True, "radius": True})
    SetLayers({"regions": False}).execute(ws)
    SetViewRect((0, 2, -1, 1)).execute(ws)
    ShowViews(True).execute(ws)
    assert ws.view_state.layers() == {"regions": False, "radius": True}
    assert ws.view == (0.0, 2.0, -1.0, 1.0) and ws.view_state.views_shown


def test_commands_are_immutable_values():
    command = SetParams({"max_iter": 3, "eta0": 1.0})
    with pytest.raises(AttributeError):
        command.learner = "dual"
    assert command.params == {"eta0": 1.0, "max_iter": 3}
    assert SetLayers({"a": True, "b": False}) == SetLayers({"b": False, "a": True})
    assert hash(Run("step")) == hash(Run("step"))
    assert commands.EditData(ds.DeletePoints([1])) != commands.EditData(ds.DeletePoints([2]))


def test_a_sample_is_bounded_by_the_points_every_data_source_allows():
    """n = 10⁷ drew 1.2 GB and held the UI thread 5.8 s; no other source gives so many."""
    from perceptron_gui.core.io.files import MAX_POINTS

    model = ((-1.0, 0.5), (2.0, 1.25)), (0.3, -1.1), ((1.0, 0.5), (0.75, 0.6)), (0.4, 0.6)
    assert SampleModel(*model, MAX_POINTS, 7).n == MAX_POINTS
    for n in (MAX_POINTS + 1, 10**7):
        with pytest.raises(ValueError, match="the limit is"):
            SampleModel(*model, n, 7)
    with pytest.raises(ValueError, match="the limit is"):
        from_dict({**SampleModel(*model, 250, 7).to_dict(), "n": 10**7})
