"""A workspace file's game opens only when its rules and its learner agree, naming the field."""

from __future__ import annotations

import json

import pytest

from perceptron_gui.core import Workspace, io
from perceptron_gui.core import game as games
from perceptron_gui.core.game_commands import PlayMove, StartGame


def _game_doc(fit_intercept: bool = True) -> dict:
    ws = Workspace()
    StartGame(5.0, 0.5, (1.0, 0.0), 0.0, fit_intercept).execute(ws)
    PlayMove((2.0, 1.0)).execute(ws)
    PlayMove((-3.0, 1.0)).execute(ws)
    return json.loads(io.workspace_to_json(ws))


def _learner_params(doc: dict) -> dict:
    return doc["params"][doc["learner"]]


def test_a_saved_game_opens_with_its_rules():
    ws = io.workspace_from_json(json.dumps(_game_doc()))
    assert games.game_of(ws).mistakes == ws.readouts().k


def test_a_game_with_a_bias_its_learner_lacks_is_refused():
    doc = _game_doc(fit_intercept=True)
    _learner_params(doc)["fit_intercept"] = False
    with pytest.raises(io.FormatError, match=r"^game: .*fit_intercept = True"):
        io.workspace_from_json(json.dumps(doc))


@pytest.mark.parametrize("R, gamma", [(1e200, 1.0), (1e300, 1e-300)])
def test_a_game_whose_bound_overflows_is_refused_naming_the_field(R, gamma):
    doc = _game_doc()
    doc["game"].update(R=R, gamma=gamma)
    with pytest.raises(io.FormatError, match=r"^game: (R|γ) must be"):
        io.workspace_from_json(json.dumps(doc))
