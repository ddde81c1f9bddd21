"""The workspace's start set by hand: the run from w₀, previews, data edits, learners."""

from __future__ import annotations

import numpy as np
import pytest

from perceptron_gui.core import Workspace, generators
from perceptron_gui.core.dataset import AddPoints, Clear, ReplaceAll
from perceptron_gui.core.document import HAND_W_MAX


def _ws(n=60):
    return Workspace(generators.separable(n, seed=3))


def test_set_start_rewinds_the_run_to_w0_and_announces_once():
    ws = _ws()
    ws.step_epoch()
    seen = []
    ws.events.learner_changed.connect(lambda: seen.append("learner"))
    ws.events.run_changed.connect(lambda ev: seen.append("run"))
    ws.set_start((1.5, -2.0), 0.25)
    assert seen == ["learner"]
    assert ws.step_count == 0 and ws.starts_by_hand
    w, b = ws.weights()
    assert w.tolist() == [1.5, -2.0] and b == 0.25
    ws.set_start((1.5, -2.0), 0.25)  # the same: nothing
    assert seen == ["learner"]
    ws.set_start(None)
    assert ws.start is None and not ws.weights()[0].any()
    ws.set_start((0.0, 0.0), 0.0)  # zero is the ordinary start
    assert ws.start is None


def test_previews_remember_the_start_and_step_from_before_the_drag():
    ws = _ws()
    ws.set_start((1.0, 1.0), 0.0)
    ws.step_update()
    ws.step_update()
    before = ws.step_count
    assert ws.committed_start == (ws.start, before)
    for x in (1.1, 1.2, 1.3):
        ws.set_start((x, 1.0), 0.0, preview=True)
    start, step = ws.committed_start
    assert start[0].tolist() == [1.0, 1.0] and step == before
    ws.set_start((1.3, 1.0), 0.0)  # the release commits
    assert ws.committed_start[0][0].tolist() == [1.3, 1.0]


def test_a_new_start_keeps_novikoffs_result():
    ws = _ws()
    nov = ws.novikoff
    ws.set_start((2.0, 0.5), 1.0)
    assert ws.novikoff is nov  # R and γ do not depend on the start


def test_the_start_survives_data_edits_and_learner_switches():
    ws = _ws()
    ws.set_start((0.5, -0.5), 1.0)
    ws.step_update()
    messages = []
    ws.events.message.connect(messages.append)
    ws.apply_edit(AddPoints(np.array([[9.0, 9.0]]), [1]))
    assert messages == ["The data changed: training restarted from w₀ (set by hand)."]
    assert ws.weights()[0].tolist() == [0.5, -0.5]
    ws.set_learner("dual")  # the dual starts from α = 0: the start stays, unused
    assert not ws.starts_by_hand and ws.start is not None
    assert not ws.weights()[0].any()
    ws.set_learner("primal")
    assert ws.weights()[0].tolist() == [0.5, -0.5]
    ws.set_params(fit_intercept=False)  # without a bias b₀ is dropped by the run
    assert ws.weights()[1] == 0.0 and ws.start[1] == 1.0


@pytest.mark.parametrize("edit", [
    ReplaceAll.from_dataset(generators.separable(40, seed=5), "New data"), Clear()],
    ids=["replace", "clear"])
def test_new_data_in_place_of_the_old_drop_the_start_and_an_undo_gives_it_back(edit):
    ws = _ws()
    ws.set_start((0.5, -0.5), 1.0)
    before = ws.start
    inverse = ws.apply_edit(edit)
    assert ws.start is None
    assert not ws.running or not ws.weights()[0].any()
    ws.apply_edit(inverse, start=before)
    assert ws.start[0].tolist() == [0.5, -0.5] and ws.start[1] == 1.0
    assert ws.weights()[0].tolist() == [0.5, -0.5]
    ws.apply_edit(AddPoints(np.array([[9.0, 9.0]]), [1]))  # some points changed: kept
    assert ws.start[0].tolist() == [0.5, -0.5]


@pytest.mark.parametrize("w,b,match", [
    ((np.inf, 0.0), 0.0, "finite"), ((0.0, 1.0), np.nan, "finite"),
    ((2 * HAND_W_MAX, 0.0), 0.0, "at most"), ((1.0, 2.0, 3.0), 0.0, "two numbers"),
    (("a", 1.0), 0.0, "numbers"),
])
def test_a_bad_start_changes_nothing(w, b, match):
    ws = _ws()
    ws.set_start((1.0, 1.0), 0.5)
    learner = ws.learner
    with pytest.raises(ValueError, match=match):
        ws.set_start(w, b)
    assert ws.learner is learner and ws.start[0].tolist() == [1.0, 1.0]


def test_replace_takes_a_start_and_checks_it_first():
    ws = _ws()
    other = generators.separable(30, seed=9)
    ws.replace(other, "primal", {}, step=3, start=((1.0, -1.0), 0.5))
    assert ws.start[0].tolist() == [1.0, -1.0] and ws.step_count == 3
    with pytest.raises(ValueError, match="finite"):
        ws.replace(generators.separable(20, seed=1), "primal", {}, start=((np.nan, 0), 0))
    assert ws.dataset is other  # nothing changed


def test_a_demo_step_sets_w_by_hand_and_its_checks_measure_from_w0():
    import json

    from perceptron_gui.core.demos import DemoPlayer, parse_demo
    from perceptron_gui.core.demos.checks import CHECKS

    points = [{"x": 1.0, "y": 2.0, "label": 1}, {"x": -1.0, "y": -1.5, "label": -1},
              {"x": 2.0, "y": 0.5, "label": 1}, {"x": -2.0, "y": 0.25, "label": -1}]
    doc = {"format": "perceptron-gui-demo", "version": 2, "title": "T", "description": "D",
           "data": {"points": points}, "learner": "primal",
           "steps": [{"command": {"command": "set_weights", "w": [-3.0, 1.0], "b": 0.5},
                      "caption": "start here"},
                     {"command": {"command": "run", "action": "step_update"},
                      "caption": "one update"}]}
    player = DemoPlayer(Workspace(), parse_demo(json.dumps(doc), name="t"))
    player.goto(1)
    ws = player.workspace
    assert ws.start[0].tolist() == [-3.0, 1.0] and ws.weights()[0].tolist() == [-3.0, 1.0]
    player.goto(2)
    ev = ws.current_event
    assert ev.w_before.tolist() == [-3.0, 1.0]
    assert CHECKS["w_path"].measure(player) == pytest.approx(
        np.linalg.norm(ev.w_after - ev.w_before))
    player.goto(0)  # back to the demo's start: its own data, from w = 0
    assert ws.start is None
