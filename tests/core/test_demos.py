"""Narrated demos: every shipped demo runs to its end with its claims true; files are validated.

No display needed: the demos drive a core Workspace.  The command-line flags
``--list-demos`` and an unknown ``--demo`` are tested here too, in a fresh process
(neither creates a window).
"""

from __future__ import annotations

import copy
import json
import os
import subprocess
import sys
from pathlib import Path

import numpy as np
import pytest

from perceptron_gui.core import Workspace
from perceptron_gui.core.demos import (
    ACTIONS,
    CHECKS,
    DEMO_DIR,
    Demo,
    DemoError,
    DemoPlayer,
    UnknownDemoError,
    list_demos,
    load_demo,
    parse_demo,
)
from perceptron_gui.core.learners import registry

REPO = Path(__file__).resolve().parents[2]
SHIPPED = [
    "first-updates", "novikoff-proof", "margin", "bias", "primal-dual", "non-separable", "lda",
    "gd-vs-sgd", "hinge-margin", "lda-vs-qda", "naive-bayes-is-linear", "the-game",
    "weight-space", "three-classes-lda", "three-classes-qda", "one-vs-rest-gaps",
]


def state(player: DemoPlayer) -> tuple:
    """Everything a step can change, as comparable plain values."""
    ws = player.workspace
    r = ws.readouts()
    return (
        player.index,
        player.caption,
        tuple(sorted(player.layers.items())),
        ws.dataset.X.tobytes(),
        ws.dataset.y.tobytes(),
        ws.learner_name,
        json.dumps(ws.all_params(), sort_keys=True),
        ws.step_count,
        r.k,
        None if r.w is None else r.w.tobytes(),
        r.b,
        r.epoch,
        repr(r.bound),
    )


# --------------------------------------------------------------------------- shipped demos


def test_demo_dir_is_resources_demos():
    assert DEMO_DIR == REPO / "resources" / "demos"


def test_list_demos_in_menu_order():
    assert list_demos() == SHIPPED


@pytest.mark.parametrize("name", SHIPPED)
def test_demo_runs_to_its_end_with_every_claim_true(name):
    demo = load_demo(name)
    assert demo.name == name and demo.title and demo.steps
    player = DemoPlayer(Workspace(), demo)
    assert player.index == 0 and player.caption == demo.description
    failures = player.run_all()
    assert failures == []
    assert player.at_end and player.index == len(demo.steps)
    assert player.next() is None and player.index == len(demo.steps)
    # every step is a real step of the file, and the claims were not vacuous
    n_checks = sum(len(s.checks) for s in demo.steps)
    assert n_checks >= len(demo.steps) - 1


@pytest.mark.parametrize("name", SHIPPED)
def test_prev_then_next_restores_identical_states(name):
    demo = load_demo(name)
    player = DemoPlayer(Workspace(), demo)
    states = [state(player)]
    while player.next() is not None:
        states.append(state(player))
    n = len(demo.steps)
    for i in range(n, 0, -1):
        assert player.index == i
        step = player.prev()
        assert state(player) == states[i - 1]
        assert step is player.current and (step is None) == (i == 1)
        assert player.next() is demo.steps[i - 1]
        assert state(player) == states[i]
        assert player.check(demo.steps[i - 1]) == []
        player.goto(i - 1)
    assert player.prev() is None and player.index == 0
    player.goto(n)
    assert state(player) == states[n]


def test_goto_jumps_both_ways_and_checks_range():
    demo = load_demo("non-separable")
    player = DemoPlayer(Workspace(), demo)
    player.goto(4)
    at4 = state(player)
    player.goto(7)
    player.goto(4)
    assert state(player) == at4
    assert player.check(demo.steps[3]) == []
    with pytest.raises(IndexError):
        player.goto(len(demo.steps) + 1)
    with pytest.raises(IndexError):
        player.goto(-1)


def test_layers_follow_the_steps():
    demo = load_demo("first-updates")
    player = DemoPlayer(Workspace(), demo)
    assert player.layers["margin_band"] is False
    player.goto(len(demo.steps))
    assert player.layers["margin_band"] is True
    player.prev()
    assert player.layers["margin_band"] is False


def test_first_demo_matches_a_hand_computation():
    """The six points' first epoch, computed here by hand from the update rule."""
    demo = load_demo("first-updates")
    X, y = demo.dataset.X, demo.dataset.y
    w, b, k = np.zeros(2), 0.0, 0
    player = DemoPlayer(Workspace(), demo)
    for i in range(6):
        margin = y[i] * (w @ X[i] + b)
        if margin <= 0:
            w, b, k = w + y[i] * X[i], b + y[i], k + 1
        player.next()
        r = player.workspace.readouts()
        assert (r.k, tuple(r.w), r.b) == (k, tuple(w), b)
    assert (k, tuple(w), b) == (3, (5.0, 1.0), 1.0)


# --------------------------------------------------------------------------- checks


def test_a_false_claim_is_reported_with_step_and_values():
    raw = _valid()
    raw["steps"][0]["checks"] = {"updates": 2, "w": [3, 1], "converged": True}
    player = DemoPlayer(Workspace(), parse_demo(json.dumps(raw)))
    failures = player.run_all()
    assert failures == [
        "step 1 (step): updates: expected 2, got 1",
        "step 1 (step): converged: expected true, got false",
    ]


@pytest.mark.parametrize("expected, measured, ok", [
    (22.96, 22.960000000000015, True),
    (22.96, 22.9551, True),
    (22.96, 22.9549, False),
    (22.96, 22.966, False),
    (0.8, 0.84, True),
    (0.8, 0.86, False),
    (2, 2.0, True),
    (2, 2.01, False),
    (0, -1e-13, True),
    (29740.0, 29739.9622, True),
    (1e-3, 0.0014, True),
    (1e-3, 0.0016, False),
])
def test_numbers_compare_to_the_digits_written(expected, measured, ok):
    check = CHECKS["bound"]
    assert (check.failure("bound", measured, expected) is None) is ok


def test_comparisons_use_the_previous_step_that_checked_the_quantity():
    demo = load_demo("margin")
    player = DemoPlayer(Workspace(), demo)
    player.goto(3)  # run on the narrowed data: compared with step 1's k = 4, not step 2's k = 0
    assert CHECKS["updates_increased"].measure(player) is True
    player.goto(1)
    assert CHECKS["updates_increased"].measure(player) is None  # no earlier point


def test_every_check_is_documented_and_used_and_every_action_is_used():
    checked = {c for n in SHIPPED for s in load_demo(n).steps for c in s.checks}
    assert checked == set(CHECKS)
    spec = (REPO / "docs" / "demo-format.md").read_text(encoding="utf-8")
    for name, check in CHECKS.items():
        assert f"`{name}`" in spec, name
        assert check.doc and check.kind in ("bool", "count", "number", "vector", "probe",
                                            "probes"), name
    used = {s.action for n in SHIPPED for s in load_demo(n).steps}
    assert used <= set(ACTIONS)
    assert {"step", "step_update", "step_epoch", "run_to_end", "set_param", "set_learner",
            "add_point", "replace_data", "show", "note"} <= used


def test_same_updates_as_primal_fails_for_a_kernel():
    demo = load_demo("primal-dual")
    player = DemoPlayer(Workspace(), demo)
    player.goto(7)  # polynomial kernel, run to the end
    assert CHECKS["same_updates_as_primal"].measure(player) is False
    player.goto(3)
    assert CHECKS["same_updates_as_primal"].measure(player) is True


# --------------------------------------------------------------------------- malformed files


def _valid() -> dict:
    return {
        "format": "perceptron-gui-demo",
        "version": 1,
        "title": "T",
        "description": "D",
        "data": {"points": [{"x": 3, "y": 1, "label": 1}, {"x": -1, "y": 0, "label": -1}]},
        "learner": "primal",
        "steps": [{"action": "step", "caption": "c", "checks": {"updates": 1}}],
    }


def _mutate(path: str, value):
    """A mutation setting (or with ``...``, deleting) the field at a dotted path."""
    def apply(raw):
        keys = [int(k) if k.isdigit() else k for k in path.split(".")]
        obj = raw
        for k in keys[:-1]:
            obj = obj[k]
        if value is ...:
            del obj[keys[-1]]
        else:
            obj[keys[-1]] = value
        return raw
    return apply


#: The learners a demo may name, as its messages list them: the registry's.
_LEARNERS = ", ".join(repr(key) for key in registry.REGISTRY)

BAD = [
    (_mutate("format", ...), "bad.json: missing field 'format'"),
    (_mutate("format", "perceptron-gui-workspace"),
     "bad.json: a workspace file, not a demo: open it with File ▸ Open"),
    (_mutate("format", "perceptron-gui-paint"),
     "bad.json: format: expected 'perceptron-gui-demo', got 'perceptron-gui-paint'"),
    (_mutate("version", 3), "bad.json: version: version 3 is not supported"),
    (_mutate("version", "1"), "bad.json: version: expected an integer >= 1, got '1'"),
    (_mutate("title", ""), "bad.json: title: must not be empty"),
    (_mutate("title", 3), "bad.json: title: expected a string, got 3"),
    (_mutate("order", 1.5), "bad.json: order: expected an integer, got 1.5"),
    (_mutate("colour", "red"), "bad.json: colour: unknown field; expected one of format,"),
    (_mutate("data", {}), "bad.json: data: missing field 'points' or 'generator'"),
    (_mutate("data", []), "bad.json: data: expected an object, got a list"),
    (_mutate("data.points", []), "bad.json: data.points: expected a non-empty list of points"),
    (_mutate("data.points.1.label", 0), "bad.json: data.points[1].label: expected 1 or -1, got 0"),
    (_mutate("data.points.1.label", True),
     "bad.json: data.points[1].label: expected 1 or -1, got true"),
    (_mutate("data.points.0.x", "3"), "bad.json: data.points[0].x: expected a number, got '3'"),
    (_mutate("data.points.0.y", ...), "bad.json: data.points[0]: missing field 'y'"),
    (_mutate("data.points.0.z", 1), "bad.json: data.points[0].z: unknown field"),
    (_mutate("data", {"generator": "spiral", "seed": 1}),
     "bad.json: data.generator: unknown generator 'spiral'; expected one of blobs,"),
    (_mutate("data", {"generator": "xor", "n": 20}),
     "bad.json: data: missing field 'seed' (an integer, so the data are the same every time)"),
    (_mutate("data", {"generator": "xor", "seed": 1, "margin": 2}),
     "bad.json: data.margin: unknown parameter of generator 'xor'; expected one of n, noise, seed"),
    (_mutate("data", {"generator": "xor", "seed": 1, "n": 1}),
     "bad.json: data: n must be an integer >= 2; got 1"),
    (_mutate("data", {"generator": "xor", "seed": 1.5}),
     "bad.json: data.seed: expected an integer >= 0, got 1.5"),
    (_mutate("learner", "svm"),
     f"bad.json: learner: expected one of {_LEARNERS}, got 'svm'"),
    (_mutate("params", {"svm": {}}), "bad.json: params.svm: expected one of 'primal'"),
    (_mutate("params", {"primal": {"eta": 2}}),
     "bad.json: params.primal.eta: unknown parameter of Primal perceptron; expected one of "
     "fit_intercept,"),
    (_mutate("params", {"primal": {"eta0": -1}}), "bad.json: params: eta0"),
    (_mutate("params", {"primal": 3}), "bad.json: params.primal: expected an object, got 3"),
    (_mutate("layers", {"grid": True}),
     "bad.json: layers.grid: unknown layer 'grid'; expected one of boundary,"),
    (_mutate("layers", {"radius": "yes"}),
     "bad.json: layers.radius: expected true or false, got 'yes'"),
    (_mutate("steps", []), "bad.json: steps: expected a non-empty list of steps, got a list"),
    (_mutate("steps", {}), "bad.json: steps: expected a non-empty list of steps, got an object"),
    (_mutate("steps.0", "step"), "bad.json: steps[0]: expected an object, got 'step'"),
    (_mutate("steps.0.action", ...), "bad.json: steps[0]: missing field 'action'"),
    (_mutate("steps.0.action", "jump"),
     "bad.json: steps[0].action: unknown action 'jump'; expected one of step,"),
    (_mutate("steps.0.caption", ...), "bad.json: steps[0]: missing field 'caption'"),
    (_mutate("steps.0.caption", "  "), "bad.json: steps[0].caption: must not be empty"),
    (_mutate("steps.0.captoin", "x"),
     "bad.json: steps[0].captoin: unknown field for action 'step'; expected one of action, "
     "caption, checks"),
    (_mutate("steps.0", {"action": "show", "caption": "c"}),
     "bad.json: steps[0]: missing argument 'layer' of action 'show'"),
    (_mutate("steps.0", {"action": "hide", "layer": "grid", "caption": "c"}),
     "bad.json: steps[0].layer: unknown layer 'grid'"),
    (_mutate("steps.0", {"action": "show", "layer": ["radius", 3], "caption": "c"}),
     "bad.json: steps[0].layer[1]: unknown layer 3"),
    (_mutate("steps.0", {"action": "move_point", "index": 2, "x": 0, "y": 0, "caption": "c"}),
     "bad.json: steps[0].index: no point 2: the data have 2 points at this step"),
    (_mutate("steps.0", {"action": "move_point", "index": -1, "x": 0, "y": 0, "caption": "c"}),
     "bad.json: steps[0].index: expected an integer >= 0, got -1"),
    (_mutate("steps.0", {"action": "add_point", "x": 0, "y": 0, "label": 2, "caption": "c"}),
     "bad.json: steps[0].label: expected 1 or -1, got 2"),
    (_mutate("steps.0", {"action": "set_param", "caption": "c"}),
     "bad.json: steps[0]: set_param needs at least one parameter"),
    (_mutate("steps.0", {"action": "set_param", "kernel": "rbf", "caption": "c"}),
     "bad.json: steps[0].kernel: unknown parameter of Primal perceptron"),
    (_mutate("steps.0", {"action": "set_param", "learner": "dual", "kernel": "sigmoid",
                         "caption": "c"}), "bad.json: steps[0]: kernel"),
    (_mutate("steps.0", {"action": "set_param", "max_iter": 0, "caption": "c"}),
     "bad.json: steps[0]: max_iter"),
    (_mutate("steps.0", {"action": "set_learner", "learner": "knn", "caption": "c"}),
     f"bad.json: steps[0].learner: expected one of {_LEARNERS}, got 'knn'"),
    (_mutate("steps.0", {"action": "replace_data", "generator": "xor", "caption": "c"}),
     "bad.json: steps[0]: missing field 'seed'"),
    (_mutate("steps.0.checks", {"updates": "one"}),
     "bad.json: steps[0].checks.updates: expected an integer >= 0, got 'one'"),
    (_mutate("steps.0.checks", {"converged": 1}),
     "bad.json: steps[0].checks.converged: expected true or false, got 1"),
    (_mutate("steps.0.checks", {"w": [1, "2"]}),
     "bad.json: steps[0].checks.w[1]: expected a number, got '2'"),
    (_mutate("steps.0.checks", {"w": 1}),
     "bad.json: steps[0].checks.w: expected a list of numbers, got 1"),
    (_mutate("steps.0.checks", {"bound": None}),
     "bad.json: steps[0].checks.bound: expected a number, got null"),
    (_mutate("steps.0.checks", {"speed": 1}),
     "bad.json: steps[0].checks.speed: unknown check; expected one of updates,"),
    (_mutate("steps.0.checks", []), "bad.json: steps[0].checks: expected an object, got a list"),
]


@pytest.mark.parametrize("mutate, message", BAD, ids=[m for _, m in BAD])
def test_malformed_demo_raises_a_precise_demo_error(mutate, message):
    raw = mutate(copy.deepcopy(_valid()))
    with pytest.raises(DemoError) as info:
        parse_demo(json.dumps(raw), name="bad")
    assert str(info.value).startswith(message), str(info.value)
    assert "\n" not in str(info.value)


def test_numbers_beyond_float64_are_rejected():
    text = json.dumps(_valid()).replace('"x": 3', '"x": 1e400')
    with pytest.raises(DemoError, match=r"^bad.json: data.points\[0\].x: expected a finite "
                                        r"number, got inf$"):
        parse_demo(text, name="bad")


def test_a_step_needs_a_perceptron():
    raw = _valid()
    raw["steps"] = [{"action": "set_learner", "learner": "lda", "caption": "LDA"},
                    {"action": "step_epoch", "caption": "c"}]
    with pytest.raises(DemoError, match=r"^bad.json: steps\[1\].action: 'step_epoch' needs a "
                                        r"perceptron, but the learner at this point is 'lda'$"):
        parse_demo(json.dumps(raw), name="bad")


def test_the_simulation_follows_added_points():
    raw = _valid()
    raw["steps"] = [
        {"action": "add_point", "x": 0, "y": 1, "label": 1, "caption": "a"},
        {"action": "move_point", "index": 2, "x": 1, "y": 1, "caption": "b"},
        {"action": "move_point", "index": 3, "x": 1, "y": 1, "caption": "c"},
    ]
    with pytest.raises(DemoError, match=r"steps\[2\].index: no point 3: the data have 3 points"):
        parse_demo(json.dumps(raw), name="bad")
    raw["steps"].pop()
    demo = parse_demo(json.dumps(raw), name="ok")
    player = DemoPlayer(Workspace(), demo)
    player.run_all()
    assert player.workspace.dataset.X[2].tolist() == [1.0, 1.0]


@pytest.mark.parametrize("text, message", [
    ('{"format": ', "bad.json: invalid JSON at line 1, column 12: Expecting value"),
    ('{"format": "a", "format": "b"}', "bad.json: invalid JSON: duplicate key 'format'"),
    ('{"x": NaN}', "bad.json: invalid JSON: NaN is not a number this format accepts"),
    ("[1, 2]", "bad.json: top level: expected an object, got a list"),
    ("", "bad.json: invalid JSON at line 1, column 1"),
])
def test_invalid_json(text, message):
    with pytest.raises(DemoError) as info:
        parse_demo(text, name="bad")
    assert str(info.value).startswith(message), str(info.value)


def test_load_by_path_and_bad_files(tmp_path):
    good = tmp_path / "mine.json"
    good.write_text(json.dumps(_valid()), encoding="utf-8")
    demo = load_demo(good)
    assert isinstance(demo, Demo) and demo.name == "mine" and demo.source == "mine.json"
    assert load_demo(str(good)).title == "T"
    binary = tmp_path / "binary.json"
    binary.write_bytes(b'{"title": "\xff\xfe"}')
    with pytest.raises(DemoError, match=r"^binary.json: not UTF-8 text at byte 11 \(line 1\); "
                                        r"save the file as UTF-8$"):
        load_demo(binary)
    with pytest.raises(DemoError, match=r"^missing.json: cannot read: No such file"):
        load_demo(tmp_path / "missing.json")


def test_unknown_name_lists_the_known_ones(tmp_path):
    with pytest.raises(UnknownDemoError) as info:
        load_demo("no-such-demo")
    assert str(info.value) == ("unknown demo 'no-such-demo'; known demos: "
                               + ", ".join(SHIPPED))
    assert isinstance(info.value, DemoError) and isinstance(info.value, ValueError)
    with pytest.raises(UnknownDemoError, match="none in"):
        load_demo("x", folder=tmp_path)


def test_order_field_and_broken_files_sort_last(tmp_path):
    for name, order in (("b", 2), ("a", None), ("c", 1)):
        raw = _valid()
        if order is not None:
            raw["order"] = order
        (tmp_path / f"{name}.json").write_text(json.dumps(raw), encoding="utf-8")
    (tmp_path / "0broken.json").write_text("{", encoding="utf-8")
    assert list_demos(tmp_path) == ["c", "b", "0broken", "a"]
    assert list_demos(tmp_path / "nowhere") == []


# --------------------------------------------------------------------------- Qt-free, CLI


_FRESH = """
import contextlib, io, json, sys
import perceptron_gui.core.demos as d
d.load_demo('lda')
results = {"loaded": [m for m in sys.modules
                      if m.split('.')[0] in ('PySide6', 'shiboken6', 'pyqtgraph', 'sklearn')]}
from perceptron_gui.app import main
for name, argv in (("list", ["--list-demos"]), ("unknown", ["--demo", "nope"])):
    out, err = io.StringIO(), io.StringIO()
    with contextlib.redirect_stdout(out), contextlib.redirect_stderr(err):
        code = main(argv)
    results[name] = [code, out.getvalue(), err.getvalue()]
print(json.dumps(results), flush=True)
"""


@pytest.fixture(scope="module")
def fresh(tmp_path_factory):
    """One fresh interpreter: what loading a demo imported, then ``main`` with
    ``--list-demos`` and with an unknown ``--demo`` (exit status, stdout, stderr), and
    what the process wrote to its own stderr (a window would have said something)."""
    home = tmp_path_factory.mktemp("demos-cli")
    env = dict(os.environ, XDG_CONFIG_HOME=str(home / "config"),
               XDG_DATA_HOME=str(home / "data"))
    proc = subprocess.run([sys.executable, "-c", _FRESH], capture_output=True, text=True,
                          timeout=120, cwd=REPO, env=env)
    assert proc.returncode == 0, proc.stderr
    return json.loads(proc.stdout.strip().splitlines()[-1]), proc.stderr


def test_demos_module_imports_no_qt(fresh):
    assert fresh[0]["loaded"] == []


def test_cli_list_demos_prints_names_and_makes_no_window(fresh):
    (code, out, err), stderr = fresh[0]["list"], fresh[1]
    assert code == 0, err
    assert out.splitlines() == SHIPPED
    assert err == "" and stderr == ""


def test_cli_unknown_demo_exits_2_with_one_line(fresh):
    code, out, err = fresh[0]["unknown"]
    assert code == 2
    assert out == ""
    lines = err.strip().splitlines()
    assert lines == ["perceptron-gui: unknown demo 'nope'; known demos: " + ", ".join(SHIPPED)]


def test_a_demo_names_the_views_it_uses():
    """``views``: the views beside the canvas the window shows while the demo plays."""
    from perceptron_gui.core.demos import load_demo

    assert load_demo("novikoff-proof").views == ("plots",)  # "the live plots show them too"
    assert load_demo("first-updates").views == ()
    raw = _valid()
    raw["views"] = ["plots", "losses"]
    assert parse_demo(json.dumps(raw), name="ok").views == ("plots", "losses")
    for views, message in (("plots", r"views: expected a list of view names, got"),
                           (["plots", "plots"], r"views\[1\]: 'plots' is named twice"),
                           (["live plots"], r"views\[0\]: a view name is a word"),
                           ([3], r"views\[0\]: expected a string")):
        raw["views"] = views
        with pytest.raises(DemoError, match=r"^bad.json: " + message):
            parse_demo(json.dumps(raw), name="bad")


def test_no_shipped_caption_names_a_parameter_by_its_code_name():
    from perceptron_gui.core.learners import registry

    keys = {p.key for name in registry.LEARNERS for p in registry.get(name).params
            if "_" in p.key}  # fit_intercept, max_iter …: the panel says "Bias", "Max epochs"
    assert keys
    said = [(n, i, key) for n in SHIPPED for i, s in enumerate(load_demo(n).steps, 1)
            for key in keys if key in s.caption or key in load_demo(n).description]
    assert said == []
