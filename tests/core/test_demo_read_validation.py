"""A demo is validated completely when it is read: every step it accepts plays.

A step written as any command of the vocabulary is carried out (the game's),
counted (a sample's points, a seek's steps) or checked when the file is read,
so that a demo never fails on a step it accepted, stranding its player there.
"""

from __future__ import annotations

import copy
import json

import pytest

from perceptron_gui.core import Workspace, demos
from perceptron_gui.core.commands import SampleModel
from perceptron_gui.core.demos import steps as demo_steps
from perceptron_gui.core.demos.game_steps import GAME_COMMANDS
from perceptron_gui.core.game_commands import LeaveGame, StartGame
from perceptron_gui.core.learners.gaussian_model import GaussianModel

POINTS = [{"x": 3, "y": 1, "label": 1}, {"x": 1, "y": 3, "label": 1},
          {"x": -2, "y": -1, "label": -1}, {"x": -1, "y": -3, "label": -1}]
DEMO = {"format": "perceptron-gui-demo", "version": 2, "title": "T", "description": "D",
        "data": {"points": POINTS}, "learner": "primal", "steps": []}
#: The arguments of a game command that takes some (the rest take none).
GAME_ARGS = {"play_move": {"x": [1.0, 2.0]}}
MODEL = GaussianModel([[0, 0], [3, 3]], [0, 0], [[1, 1], [1, 1]], [0.5, 0.5])


def parse(*commands, **changes) -> demos.Demo:
    doc = copy.deepcopy(DEMO)
    doc["steps"] = [{"command": c, "caption": ""} for c in commands]
    doc.update(changes)
    return demos.parse_demo(json.dumps(doc), name="v")


def play(demo) -> Workspace:
    ws = Workspace()
    player = demos.DemoPlayer(ws, demo)
    assert player.run_all() == []
    assert player.at_end
    return ws


def sample(n: int) -> dict:
    command = SampleModel.of(MODEL, 2, seed=3).to_dict()
    return {**command, "n": n}


@pytest.mark.parametrize("cls", [c for c in GAME_COMMANDS if c not in (StartGame, LeaveGame)],
                         ids=lambda c: c.name)
def test_a_game_command_with_no_game_is_refused_when_read(cls):
    command = {"command": cls.name, **GAME_ARGS.get(cls.name, {})}
    with pytest.raises(demos.DemoError, match=rf"^v.json: steps\[0\]\.command: "
                                              rf"'{cls.name}' needs a game"):
        parse(command)


def test_a_game_command_after_a_started_game_reads_and_plays():
    start = {"command": "start_game", "R": 5.0, "gamma": 0.5, "u": [1.0, 0.0]}
    demo = parse(start, {"command": "play_move", "x": [2.0, 1.0]}, {"command": "undo_move"},
                 {"command": "play_move", "x": [-3.0, 0.0]}, {"command": "finish_game"})
    assert play(demo).dataset.n == 1


def test_a_move_the_rules_refuse_is_refused_when_read():
    start = {"command": "start_game", "R": 5.0, "gamma": 0.5, "u": [1.0, 0.0]}
    with pytest.raises(demos.DemoError, match=r"steps\[1\]\.command: "):
        parse(start, {"command": "play_move", "x": [40.0, 1.0]})


@pytest.mark.parametrize("R, gamma", [(1e300, 1e-300), (1e200, 1.0), (1.0, 1e-300)])
def test_a_game_whose_bound_is_no_number_is_refused_when_read(R, gamma):
    with pytest.raises(demos.DemoError, match=r"steps\[0\]\.command: (R|γ) must be"):
        parse({"command": "start_game", "R": R, "gamma": gamma})
    doc = copy.deepcopy(DEMO)
    doc.update(data={"points": []},
               steps=[{"action": "start_game", "R": R, "gamma": gamma, "caption": "c"}])
    with pytest.raises(demos.DemoError, match=r"steps\[0\]: (R|γ) must be"):
        demos.parse_demo(json.dumps(doc), name="v")


def test_a_sample_of_more_points_than_the_limit_is_refused_when_read():
    with pytest.raises(demos.DemoError, match=r"steps\[0\]\.command: the data would have "
                                              r"1,000,000,000,000,000,000 points"):
        parse(sample(10**18))


def test_the_demos_data_over_all_its_steps_are_bounded(monkeypatch):
    monkeypatch.setattr(demo_steps, "MAX_DEMO_POINTS", 20)
    assert len(parse(sample(8), sample(8))) == 2  # 4 + 8 + 8 points
    with pytest.raises(demos.DemoError, match=r"steps\[2\]\.command: the demo's data reach "
                                              r"28 points over its steps, more than the "
                                              r"limit of 20"):
        parse(sample(8), sample(8), sample(8))


def test_added_points_count_toward_the_demos_data(monkeypatch):
    monkeypatch.setattr(demo_steps, "MAX_DEMO_POINTS", 5)
    add = {"command": "edit", "edit": "add", "X": [[0.5, 0.5]], "y": [1]}
    assert parse(add).steps[0].command is not None
    with pytest.raises(demos.DemoError, match=r"steps\[1\]\.command: the demo's data reach 6"):
        parse(add, add)


def test_seeks_are_held_to_the_run_budget(monkeypatch):
    with pytest.raises(demos.DemoError, match=r"steps\[0\]\.command\.step: the demo's seeks "
                                              r"ask for 1,000,000,000 run steps"):
        parse({"command": "seek", "step": 10**9})
    monkeypatch.setattr(demo_steps, "MAX_RUN_STEPS", 10)
    assert len(parse({"command": "seek", "step": 6})) == 1
    with pytest.raises(demos.DemoError, match=r"steps\[1\]\.command\.step: .* 12 run steps"):
        parse({"command": "seek", "step": 6}, {"command": "seek", "step": 6})


def test_a_lone_surrogate_in_a_caption_is_refused_when_read():
    doc = copy.deepcopy(DEMO)
    doc["steps"] = [{"action": "note", "caption": "a\ud800b"}]
    with pytest.raises(demos.DemoError, match=r"steps\[0\]\.caption: character 2 is a lone "
                                              r"surrogate \(U\+D800\)"):
        demos.parse_demo(json.dumps(doc), name="v")


def test_a_lone_surrogate_anywhere_is_refused_when_read():
    replace = {"command": "edit", "edit": "replace", "X": [[1.0, 1.0], [-1.0, -1.0]],
               "y": [1, -1], "description": "x\udfff"}
    with pytest.raises(demos.DemoError, match="lone surrogate"):
        parse(replace)
