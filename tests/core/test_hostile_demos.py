"""Hostile demo files: lengths, point counts and runs are bounded, and a workspace says so.

No display: the core's reader and player.  (The window's side is in
``tests/ui/features/test_demo_player.py``, ``render``'s in ``tests/test_render_cli.py``.)
"""

from __future__ import annotations

import copy
import json

import pytest

from perceptron_gui.core import Workspace, demos, generators
from perceptron_gui.core.demos import reader
from perceptron_gui.core.io import files, save_workspace

POINTS = [{"x": 3, "y": 1, "label": 1}, {"x": 1, "y": 3, "label": 1},
          {"x": -2, "y": -1, "label": -1}, {"x": -1, "y": -3, "label": -1}]
DEMO = {
    "format": "perceptron-gui-demo", "version": 1, "title": "T", "description": "D",
    "data": {"points": POINTS}, "learner": "primal",
    "steps": [{"action": "step", "caption": "one step"}],
}


def parse(**changes) -> demos.Demo:
    doc = copy.deepcopy(DEMO)
    doc.update(changes)
    return demos.parse_demo(json.dumps(doc), name="hostile")


@pytest.mark.parametrize("field, limit", [("title", demos.MAX_TITLE_CHARS),
                                          ("description", demos.MAX_CAPTION_CHARS)])
def test_a_title_or_description_over_its_limit_is_refused(field, limit):
    assert parse(**{field: "x" * limit}).title
    with pytest.raises(demos.DemoError, match=rf"^hostile.json: {field}: {limit + 1:,} "
                                              rf"characters are more than the limit of "
                                              rf"{limit:,}$"):
        parse(**{field: "x" * (limit + 1)})


def test_an_unbreakable_title_of_a_million_characters_is_refused_at_once():
    with pytest.raises(demos.DemoError, match=r"title: 1,000,000 characters"):
        parse(title="x" * 10**6)


def test_a_caption_over_its_limit_is_refused():
    limit = demos.MAX_CAPTION_CHARS
    steps = [{"action": "step", "caption": "ok"},
             {"action": "note", "caption": "y" * (limit + 1)}]
    with pytest.raises(demos.DemoError, match=rf"steps\[1\]\.caption: {limit + 1:,} characters "
                                              rf"are more than the limit of {limit:,}$"):
        parse(steps=steps)


def test_too_many_steps_are_refused():
    steps = [{"action": "note", "caption": "n"}] * (demos.MAX_STEPS + 1)
    with pytest.raises(demos.DemoError, match=r"^hostile.json: steps: 1,001 steps are more "
                                              r"than the limit of 1,000$"):
        parse(steps=steps)


def test_inline_points_have_the_limit_of_every_data_source(monkeypatch):
    assert reader.MAX_POINTS == files.MAX_POINTS == 1_000_000
    monkeypatch.setattr(reader, "MAX_POINTS", 4)
    assert parse().dataset.n == 4
    built = []
    monkeypatch.setattr(reader, "Dataset", lambda *a: built.append(a))
    with pytest.raises(demos.DemoError, match=r"^hostile.json: data.points: 5 points are "
                                              r"more than the limit of 4$"):
        parse(data={"points": POINTS + POINTS[:1]})
    assert not built  # refused before any point was read


def test_adding_points_past_the_limit_is_refused(monkeypatch):
    monkeypatch.setattr(files, "MAX_POINTS", 4)
    steps = [{"action": "add_point", "x": 0, "y": 0, "label": 1, "caption": "one more"}]
    with pytest.raises(demos.DemoError, match=r"steps\[0\]: the data would have more than 4"):
        parse(steps=steps)


def test_a_workspace_file_is_named_as_such(tmp_path):
    path = tmp_path / "mine.json"
    save_workspace(Workspace(dataset=generators.generate("blobs", n=10, seed=1)), path)
    with pytest.raises(demos.DemoError) as info:
        demos.load_demo(path)
    message = str(info.value)
    assert message.startswith("mine.json: a workspace file, not a demo")
    assert "File ▸ Open" in message and "without --demo" in message
    assert "missing field" not in message


NON_SEPARABLE = {"data": {"generator": "xor", "n": 200, "seed": 1},
                 "params": {"primal": {"max_iter": 1000}},
                 "steps": [{"action": "step", "caption": "one"},
                           {"action": "run_to_end", "caption": "to the end"}]}


def test_a_step_budget_stops_a_run_that_does_not_end():
    demo = parse(**NON_SEPARABLE)
    ws = Workspace()
    player = demos.DemoPlayer(ws, demo, step_budget=5_000)
    player.next()
    with pytest.raises(demos.DemoTooLong, match=r"^hostile.json: steps\[1\] \(run_to_end\): "
                                                r"the run needs more than 5,000 steps"):
        player.next()
    assert ws.step_count <= 5_000 and player.index == 1
    # without a budget the same run goes to its end (max_iter)
    free = demos.DemoPlayer(Workspace(), demo)
    free.goto(2)
    assert free.workspace.finished and free.workspace.step_count == 200 * 1000


def test_a_step_budget_stops_a_seek_past_it():
    # 200 xor points for 1,000 epochs: a seek to step 200,000 would compute them all
    demo = parse(**dict(NON_SEPARABLE, version=2, steps=[
        {"action": "step", "caption": "one"},
        {"command": {"command": "seek", "step": 200_000}, "caption": "far"}]))
    ws = Workspace()
    player = demos.DemoPlayer(ws, demo, step_budget=5_000)
    player.next()
    with pytest.raises(demos.DemoTooLong, match=r"^hostile.json: steps\[1\] \(seek to step "
                                                r"200,000\): the run needs more than 5,000 "):
        player.next()
    assert ws.learner.frontier <= 5_000 and player.steps_run <= 5_000 and player.index == 1
    # a seek the budget covers goes through, back and forth
    player = demos.DemoPlayer(Workspace(), demo, step_budget=300_000)
    player.goto(2)
    assert player.workspace.step_count == 200_000 and player.steps_run == 200_000
    player.goto(1)
    assert player.workspace.step_count == 1


def test_a_budget_lets_a_run_that_ends_in_time_through():
    demo = parse(data={"points": POINTS}, steps=[{"action": "run_to_end", "caption": "go"}])
    player = demos.DemoPlayer(Workspace(), demo, step_budget=100)
    player.next()
    assert player.at_end and player.workspace.finished and player.steps_run <= 100


def test_complete_counts_a_run_the_caller_drove():
    demo = parse(**NON_SEPARABLE)
    reference = demos.DemoPlayer(Workspace(), demo)
    reference.goto(2)
    player = demos.DemoPlayer(Workspace(), demo)
    player.next()
    step = player.upcoming
    assert step.action == "run_to_end"
    with pytest.raises(ValueError, match="has not ended"):
        player.complete(step)
    while player.workspace.can_step:
        player.workspace.advance_for(0.01)
    with pytest.raises(ValueError, match="upcoming run_to_end"):
        player.complete(demo.steps[0])
    player.complete(step)
    assert player.index == 2 and player.at_end and player.upcoming is None
    assert player.workspace.step_count == reference.workspace.step_count
    assert player.workspace.readouts().k == reference.workspace.readouts().k


def test_going_back_over_run_steps_seeks_instead_of_running_again():
    steps = [{"action": "step", "caption": "one"},
             {"action": "run_to_end", "caption": "to the end"},
             {"action": "show", "layer": "radius", "caption": "R"},
             {"action": "set_param", "max_iter": 3, "caption": "fewer epochs"},
             {"action": "note", "caption": "after"}]
    demo = parse(**dict(NON_SEPARABLE, steps=steps))
    player = demos.DemoPlayer(Workspace(), demo)
    player.goto(3)
    learner = player.workspace.learner
    for target in (2, 1, 0):
        player.goto(target)
        fresh = demos.DemoPlayer(Workspace(), demo)
        fresh.goto(target)
        assert player.workspace.learner is learner  # the same run, seeked: nothing recomputed
        assert (player.index, player.layers, player.workspace.step_count) == (
            fresh.index, fresh.layers, fresh.workspace.step_count)
        assert player.workspace.readouts().k == fresh.workspace.readouts().k
    player.goto(5)
    player.goto(3)  # back over a parameter change: replayed from the start
    assert player.workspace.learner is not learner
    assert player.workspace.params["max_iter"] == 1000 and player.index == 3
    assert player.workspace.step_count == 200 * 1000


def test_demo_parameters_are_those_the_learners_validate_params_accepts(monkeypatch):
    """A guard: the ranges are the learner's own (no copy here), at the start and per step."""
    from perceptron_gui.core.learners.primal import PrimalPerceptron

    accepted = PrimalPerceptron.validate_params

    def at_most_ten_epochs(self):
        if self.max_iter > 10:
            raise ValueError(f"max_iter must be 1 to 10, got {self.max_iter}")
        accepted(self)

    monkeypatch.setattr(PrimalPerceptron, "validate_params", at_most_ten_epochs)
    with pytest.raises(demos.DemoError, match=r"^hostile.json: params: max_iter must be "
                                              r"1 to 10, got 11$"):
        parse(params={"primal": {"max_iter": 11}})
    steps = [{"action": "set_param", "max_iter": 10**9, "caption": "more"}]
    with pytest.raises(demos.DemoError, match=r"^hostile.json: steps\[0\]: max_iter must be "
                                              r"1 to 10, got 1000000000$"):
        parse(steps=steps)


def test_a_spent_budget_refuses_every_further_run_step():
    steps = [{"action": "step", "caption": "one"}, {"action": "step", "caption": "two"},
             {"action": "step", "caption": "three"}]
    player = demos.DemoPlayer(Workspace(), parse(**dict(NON_SEPARABLE, steps=steps)),
                              step_budget=2)
    player.next()
    player.next()
    assert player.steps_run == 2 and player.workspace.step_count == 2
    with pytest.raises(demos.DemoTooLong, match=r"steps\[2\] \(step\): the run needs more "
                                                r"than 2 steps"):
        player.next()
    assert player.workspace.step_count == 2 and player.index == 2
