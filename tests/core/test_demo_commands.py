"""Demo steps are commands: every step names the command it performs, and the new edits
(delete, relabel, flip) load, validate and play like the others."""

from __future__ import annotations

import json
from pathlib import Path

import numpy as np
import pytest

from perceptron_gui.core import Workspace
from perceptron_gui.core import dataset as ds
from perceptron_gui.core.commands import EditData, Run, SetLayers, SetLearner, SetParams, from_dict
from perceptron_gui.core.demos import (
    ACTIONS,
    DemoError,
    DemoPlayer,
    list_demos,
    load_demo,
    parse_demo,
)
from perceptron_gui.core.game_commands import FinishGame, PlayMove, StartGame

REPO = Path(__file__).resolve().parents[2]
POINTS = [{"x": 1.0, "y": 2.0, "label": 1}, {"x": -1.0, "y": -1.5, "label": -1},
          {"x": 2.0, "y": 0.5, "label": 1}, {"x": -2.0, "y": 0.25, "label": -1},
          {"x": 0.5, "y": 3.0, "label": 1}]


def _demo(*steps) -> str:
    return json.dumps({"format": "perceptron-gui-demo", "version": 1, "title": "Edits",
                       "description": "", "data": {"points": POINTS}, "learner": "primal",
                       "steps": [{**s, "caption": s.get("caption", "a step")} for s in steps]})


def test_delete_relabel_and_flip_play_as_the_edits():
    demo = parse_demo(_demo(
        {"action": "step_epoch"},
        {"action": "flip", "index": 1},
        {"action": "relabel", "index": [0, 2], "label": -1},
        {"action": "delete", "index": [3, 0]},
        {"action": "delete", "index": 0},
        {"action": "run_to_end"},
    ))
    assert [s.command for s in demo.steps[1:5]] == [
        EditData(ds.FlipLabels([1])), EditData(ds.Relabel([0, 2], -1)),
        EditData(ds.DeletePoints([3, 0])), EditData(ds.DeletePoints([0]))]
    assert demo.steps[3].args == {"index": [3, 0]} and demo.steps[4].args == {"index": 0}
    expected = demo.dataset
    for edit in (ds.FlipLabels([1]), ds.Relabel([0, 2], -1), ds.DeletePoints([3, 0]),
                 ds.DeletePoints([0])):
        expected, _ = edit.apply(expected)
    player = DemoPlayer(Workspace(), demo)
    player.goto(5)
    assert player.workspace.dataset == expected and player.workspace.dataset.n == 2
    np.testing.assert_array_equal(player.workspace.dataset.y, [-1, 1])
    player.next()
    end = player.workspace.step_count
    player.goto(2)  # back over an edit: the demo replays from its start
    again = Workspace()
    again.replace(demo.dataset, "primal", {})
    again.step_epoch()
    again.apply_edit(ds.FlipLabels([1]))
    assert player.workspace.dataset == again.dataset
    assert player.workspace.step_count == again.step_count
    player.goto(6)
    assert player.workspace.step_count == end


@pytest.mark.parametrize("step, message", [
    ({"action": "delete", "index": 5}, r"steps\[0\].index: no point 5: the data have 5 points"),
    ({"action": "flip", "index": [1, 1]}, r"steps\[0\].index\[1\]: point 1 is named twice"),
    ({"action": "flip", "index": []}, r"steps\[0\].index: expected an index or a non-empty"),
    ({"action": "relabel", "index": 0, "label": 2}, r"steps\[0\].label: expected 1 or -1"),
    ({"action": "relabel", "index": 0}, r"missing argument 'label' of action 'relabel'"),
    ({"action": "delete", "index": "0"}, r"steps\[0\].index: expected an integer >= 0"),
    ({"action": "move_point", "index": [0], "x": 1, "y": 1}, r"steps\[0\].index: expected an"),
    ({"action": "flip", "index": 0, "label": 1}, r"steps\[0\].label: unknown field"),
])
def test_malformed_edits_name_the_step_and_field(step, message):
    with pytest.raises(DemoError, match=message):
        parse_demo(_demo(step))


def test_the_simulation_follows_deletions():
    text = _demo({"action": "delete", "index": [0, 1, 2]}, {"action": "flip", "index": 2})
    with pytest.raises(DemoError, match=r"steps\[1\].index: no point 2: the data have 2"):
        parse_demo(text)


GAME_STEPS = {"start_game": StartGame, "play_move": PlayMove, "computer_move": PlayMove,
              "finish_game": FinishGame}


@pytest.mark.parametrize("name", list_demos())
def test_every_shipped_step_names_its_command(name):
    for step in load_demo(name).steps:
        command = step.command
        if step.action == "note":
            assert command is None
            continue
        assert from_dict(json.loads(json.dumps(command.to_dict()))) == command
        if step.action in ("show", "hide"):
            assert isinstance(command, SetLayers)
            assert set(command.switches.values()) == {step.action == "show"}
        elif step.action == "set_param":
            assert isinstance(command, SetParams)
        elif step.action == "set_learner":
            assert command == SetLearner(step.args["learner"])
        elif step.action in ("add_point", "move_point", "replace_data", "delete", "relabel",
                             "flip"):
            assert isinstance(command, EditData)
        elif step.action in GAME_STEPS:
            assert isinstance(command, GAME_STEPS[step.action])
        else:
            assert command == Run(step.action)


def test_every_action_is_documented():
    spec = (REPO / "docs" / "demo-format.md").read_text(encoding="utf-8")
    for action in ACTIONS:
        assert f"`{action}`" in spec, action
    assert {"delete", "relabel", "flip"} <= set(ACTIONS)
