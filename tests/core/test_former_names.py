"""Files written before the parameters took scikit-learn's names still open."""

import json
from pathlib import Path

import pytest

from perceptron_gui.core import io
from perceptron_gui.core.demos import DEMO_DIR
from perceptron_gui.core.demos.format import DemoError, parse_demo
from perceptron_gui.core.io.workspacefile import workspace_from_json as parse_workspace_json
from perceptron_gui.core.learners.params import FORMER_NAMES, upgrade_names

GOOD = Path(__file__).parent / "data" / "good" / "saved_dual_rbf_run.json"


def test_upgrade_renames_and_says_which_names_were_former():
    values, former = upgrade_names({"max_epochs": 7, "learning_rate": 0.5, "order": "cyclic"})
    assert values == {"max_iter": 7, "eta0": 0.5, "order": "cyclic"}
    assert list(values) == ["max_iter", "eta0", "order"]
    assert former == {"max_iter": "max_epochs", "eta0": "learning_rate"}
    assert FORMER_NAMES == {"max_epochs": "max_iter", "learning_rate": "eta0"}


def test_a_file_of_the_former_names_opens_with_todays():
    text = GOOD.read_text("utf-8")
    assert '"max_epochs"' in text and '"learning_rate"' in text  # written before the rename
    ws = parse_workspace_json(text)
    params = ws.all_params()
    assert params["primal"]["max_iter"] == 1000 and params["primal"]["eta0"] == 1.0
    assert "max_epochs" not in params["primal"] and "learning_rate" not in params["primal"]
    assert params["dual"]["max_iter"] == 1000


def _workspace_text(primal: dict) -> str:
    doc = json.loads(GOOD.read_text("utf-8"))
    doc["params"]["primal"] = primal
    return json.dumps(doc)


def test_a_former_name_and_its_new_one_together_are_refused_by_name():
    with pytest.raises(io.FormatError, match="'max_epochs' is the former name of 'max_iter'"):
        parse_workspace_json(_workspace_text({"max_epochs": 5, "max_iter": 5}))


def test_a_bad_value_under_a_former_name_is_named_as_the_file_wrote_it():
    with pytest.raises(io.FormatError, match=r"params\.primal\.max_epochs: "):
        parse_workspace_json(_workspace_text({"max_epochs": 0}))


def _demo(params: dict, step: dict) -> str:
    demo = json.loads((DEMO_DIR / "margin.json").read_text("utf-8"))
    demo["params"] = {"primal": params}
    demo["steps"] = [step]
    return json.dumps(demo)


def test_a_demo_of_the_former_names_loads_with_todays():
    demo = parse_demo(_demo({"learning_rate": 1.0},
                            {"action": "set_param", "max_epochs": 3, "caption": "At most 3."}))
    assert demo.params["primal"] == {"eta0": 1.0}
    assert demo.steps[0].command.params == {"max_iter": 3}


def test_a_demo_with_both_names_is_refused():
    with pytest.raises(DemoError, match="former name"):
        parse_demo(_demo({"learning_rate": 1.0, "eta0": 1.0}, {"action": "reset"}))
