"""Teachers' demos in the core: version 2, placeholders, drafts, the user's library."""

from __future__ import annotations

import json

import numpy as np
import pytest

from perceptron_gui.core import Workspace
from perceptron_gui.core.commands import (
    EditData,
    Run,
    Seek,
    SetLayers,
    SetLearner,
    SetParams,
    SetViewRect,
    ShowViews,
)
from perceptron_gui.core.dataset import AddPoints, Dataset
from perceptron_gui.core.demos import (
    CHECKS,
    DemoError,
    DemoPlayer,
    list_demos,
    load_demo,
    parse_demo,
)
from perceptron_gui.core.demos.captions import (
    PLACEHOLDERS,
    UNAVAILABLE,
    literal_numbers,
    quantities_matching,
)
from perceptron_gui.core.demos.draft import DemoDraft
from perceptron_gui.core.demos.library import DemoLibrary, slug
from perceptron_gui.core.demos.writer import dumps_demo
from perceptron_gui.core.generators import generate
from perceptron_gui.core.text import fmt, fmt_count

#: 20 points the perceptron needs 4 updates for (the margin demo's first data).
_DATA = generate("separable", n=20, noise=0.6, margin=1.0, offset=0.5, seed=6)
POINTS = [{"x": float(x), "y": float(y), "label": int(c)}
          for (x, y), c in zip(_DATA.X.tolist(), _DATA.y.tolist(), strict=True)]


def _doc(steps, version=2, **top):
    return {"format": "perceptron-gui-demo", "version": version, "title": "T",
            "description": "D", "data": {"points": POINTS}, "learner": "primal",
            "steps": steps, **top}


def _parse(steps, **top):
    return parse_demo(json.dumps(_doc(steps, **top)), name="t")


# --------------------------------------------------------------------------- round trip


@pytest.mark.parametrize("name", list_demos())
def test_every_shipped_demo_is_written_back_as_itself(name):
    demo = load_demo(name)
    again = parse_demo(dumps_demo(demo), name=name)
    assert again.version == 2 and again.title == demo.title
    assert again.data_spec == demo.data_spec and again.layers == demo.layers
    assert [(s.action, s.args, s.caption, s.checks, s.command) for s in again.steps] == \
        [(s.action, s.args, s.caption, s.checks, s.command) for s in demo.steps]
    np.testing.assert_array_equal(again.dataset.X, demo.dataset.X)
    assert DemoPlayer(Workspace(), again).run_all() == []


# --------------------------------------------------------------------------- placeholders


def test_placeholders_are_filled_as_the_readouts_write_them():
    demo = _parse([{"action": "step_update", "caption": "x"},
                   {"action": "run_to_end",
                    "caption": "After {k} updates: bound {bound}, γ = {gamma}, R = {R}, "
                               "w = {w}, b = {b}, error {error}, {{k}} literal"}])
    player = DemoPlayer(Workspace(), demo)
    player.run_all()
    r = player.workspace.readouts()
    assert player.caption == (
        f"After {fmt_count(r.k)} updates: bound {fmt(r.bound)}, γ = {fmt(r.gamma)}, "
        f"R = {fmt(r.radius)}, w = {PLACEHOLDERS['w'].write(r.w)}, b = {fmt(r.b)}, "
        f"error 0 %, {{k}} literal")
    assert r.k > 0 and str(r.k) in player.caption


def test_a_placeholder_without_a_value_shows_a_dash_and_version_1_keeps_braces():
    demo = _parse([{"action": "note", "caption": "k = {k}"}], learner="lda")
    player = DemoPlayer(Workspace(), demo)
    player.next()
    assert player.caption == f"k = {UNAVAILABLE}"  # LDA makes no updates
    old = _parse([{"action": "step", "caption": "k = {k}"}], version=1)
    player = DemoPlayer(Workspace(), old)
    player.next()
    assert player.caption == "k = {k}"


@pytest.mark.parametrize("caption, field", [
    ("k is {kk}", "steps[0].caption: unknown placeholder {kk}"),
    ("{}", "steps[0].caption: unknown placeholder {}"),
])
def test_an_unknown_placeholder_is_refused_naming_it(caption, field):
    with pytest.raises(DemoError, match=field.replace("{", r"\{").replace("}", r"\}")
                       .replace("[", r"\[").replace("]", r"\]")):
        _parse([{"action": "step", "caption": caption}])


def test_literal_numbers_and_the_quantities_they_match():
    assert literal_numbers("k = 4 ≤ 22,134.5 and −0.25, not x1 or w₄ {k}") == [
        ("4", 4.0), ("22,134.5", 22134.5), ("−0.25", -0.25)]
    demo = _parse([{"action": "run_to_end", "caption": "x"}])
    player = DemoPlayer(Workspace(), demo)
    player.next()
    r = player.workspace.readouts()
    assert "updates" in quantities_matching(str(r.k), player)
    assert "bound" in quantities_matching(f"{r.bound:.2f}", player)
    assert "bound" not in quantities_matching(f"{r.bound + 1:.2f}", player)


def test_a_percentage_is_read_whole_and_compared_as_a_percentage():
    assert literal_numbers("error 10 %, then 32.5%, k = 10") == [
        ("10 %", 10.0), ("32.5%", 32.5), ("10", 10.0)]
    demo = _parse([{"action": "step_update", "caption": "x"}])
    player = DemoPlayer(Workspace(), demo)
    player.next()
    percent = 100 * player.workspace.readouts().training_error
    text = f"{percent:.1f} %"
    matching = quantities_matching(text, player)
    assert "training_error_percent" in matching
    assert all(CHECKS[name].percent for name in matching)
    assert "training_error_percent" not in quantities_matching(f"{percent:.1f}", player)
    assert "training_error" not in quantities_matching(text, player)
    assert quantities_matching(f"{percent + 1:.1f} %", player) == []
    good = _parse([{"action": "step_update", "caption": f"{text} wrong",
                    "checks": {"training_error_percent": round(percent, 1)}}])
    bad = _parse([{"action": "step_update", "caption": "x",
                   "checks": {"training_error_percent": round(percent + 1, 1)}}])
    assert DemoPlayer(Workspace(), good).run_all() == []
    assert len(DemoPlayer(Workspace(), bad).run_all()) == 1


# --------------------------------------------------------------------------- version 2


def test_steps_written_as_commands_play_and_rewind():
    steps = [{"command": Run("step_update").to_dict(), "caption": "one update"},
             {"command": Run("step_update").to_dict(), "caption": "two",
              "checks": {"updates": 2}},
             {"command": Seek(1).to_dict(), "caption": "back to step 1"},
             {"command": SetLayers({"radius": True}).to_dict(), "caption": "R"},
             {"command": ShowViews(True).to_dict(), "caption": "views"},
             {"command": SetViewRect((-3, 3, -3, 3)).to_dict(), "caption": "zoom"},
             {"command": EditData(AddPoints([1.0, -1.0], -1)).to_dict(), "caption": "add"}]
    demo = _parse(steps, views=False)
    assert [s.action for s in demo.steps[:3]] == ["step_update", "step_update", "command"]
    ws = Workspace()
    ws.view_state.declare_layers({"radius": False})
    player = DemoPlayer(ws, demo)
    assert player.views_shown is False
    assert player.run_all() == []
    assert player.views_shown is True and player.layers["radius"] is True
    assert ws.view_state.rect == (-3.0, 3.0, -3.0, 3.0)
    assert ws.dataset.n == len(POINTS) + 1
    player.goto(5)
    assert player.rewinds_to(3) and ws.dataset.n == len(POINTS)
    player.goto(3)
    assert ws.step_count == 1 and player.views_shown is False


@pytest.mark.parametrize("command, message", [
    ({"command": "fly"}, "steps[0].command: unknown command 'fly'"),
    ({"command": "seek", "step": -1}, "steps[0].command: seek takes an integer step >= 0"),
    ({"command": "edit", "edit": "delete", "indices": [99]}, "steps[0].command: "),
    ({"command": "set_params", "values": {"eta0": -1}}, "steps[0].command"),
    ({"command": "set_layers", "layers": {"nope": True}}, "steps[0].command.layers"),
    ("run", "steps[0].command: expected an object"),
])
def test_a_hostile_command_step_is_refused_naming_it(command, message):
    with pytest.raises(DemoError) as info:
        _parse([{"command": command, "caption": "c"}])
    assert message in str(info.value)


def test_version_1_files_cannot_use_version_2_fields():
    with pytest.raises(DemoError, match="needs version 2"):
        _parse([{"command": Run("step").to_dict(), "caption": "c"}], version=1)
    with pytest.raises(DemoError, match="views: expected a list of view names, got true"):
        _parse([{"action": "step", "caption": "c"}], version=1, views=True)


# --------------------------------------------------------------------------- drafts


def _workspace():
    ws = Workspace()
    X = np.array([[p["x"], p["y"]] for p in POINTS])
    y = np.array([p["label"] for p in POINTS])
    ws.replace(Dataset(X, y), "primal", {})
    ws.view_state.declare_layers({"radius": False, "max_margin": False})
    ws.view_state.set_layers(radius=True)
    return ws


def test_a_recorded_draft_saves_reopens_and_replays_the_same_numbers(tmp_path):
    ws = _workspace()
    draft = DemoDraft.from_workspace(ws, title="Two updates")
    for command in (Run("step_update"), Run("step_update"), SetParams({"eta0": 2.0}),
                    Run("run_to_end")):
        command.execute(ws)
        draft.record(command)
    k = ws.readouts().k
    draft.set_caption(2, "After {k} updates")
    draft.steps[1].checks["updates"] = 2
    draft.set_caption(4, f"Converged after {k} updates; the bound is {{bound}}")
    draft.steps[3].checks["updates"] = k
    assert draft.validate() == []
    entry = DemoLibrary(tmp_path / "mine").save(draft)
    assert entry.user and entry.name == "two-updates"
    demo = load_demo(entry.path)
    player = DemoPlayer(Workspace(), demo)
    assert player.layers["radius"] is True
    player.goto(2)
    assert player.caption == "After 2 updates"
    player.goto(4)
    assert player.caption.startswith(f"Converged after {k} updates; the bound is ")
    assert UNAVAILABLE not in player.caption
    np.testing.assert_array_equal(player.workspace.readouts().w, ws.readouts().w)


def test_validation_names_the_step_of_a_wrong_number_and_of_a_missing_value():
    ws = _workspace()
    draft = DemoDraft.from_workspace(ws)
    draft.record(Run("step_update"))
    draft.add_note("No run has {k}... or has it?", at=0)
    draft.set_caption(2, "3 updates already")
    draft.steps[1].checks["updates"] = 3
    problems = draft.validate()
    assert [str(p) for p in problems] == ["step 2: updates: expected 3, got 1"]
    assert draft.unchecked_numbers() == []
    del draft.steps[1].checks["updates"]
    assert draft.unchecked_numbers() == [(2, "3")]
    draft.move(2, 1)
    draft.replace_command(2, SetLearner("lda"))
    draft.set_caption(2, "LDA: {k}")
    assert [p.step for p in draft.validate()] == [2]
    assert "{k} has no value at this step" in str(draft.validate()[0])


def test_a_draft_of_a_shipped_demo_is_editable_and_saved_as_a_copy(tmp_path):
    demo = load_demo("margin")
    draft = DemoDraft.from_demo(demo)
    assert draft.validate() == []
    first = draft.steps[0].caption
    draft.delete(len(draft.steps))
    draft.set_caption(1, first + " (edited)")
    lib = DemoLibrary(tmp_path, shipped_dir=None)
    entry = lib.save(draft)
    assert entry.name == "margin-and-convergence"
    assert load_demo("margin").steps[0].caption == first  # the shipped file is untouched
    copy = load_demo(entry.path)
    assert len(copy.steps) == len(demo.steps) - 1 and copy.steps[0].caption.endswith("(edited)")
    assert copy.data_spec == demo.data_spec  # the generator stays a generator


def test_an_invalid_draft_is_not_saved(tmp_path):
    draft = DemoDraft.from_workspace(_workspace())
    lib = DemoLibrary(tmp_path / "mine")
    with pytest.raises(DemoError):
        lib.save(draft)  # no step
    draft.record(Run("step"))
    draft.set_caption(1, "{nope}")
    with pytest.raises(DemoError, match="unknown placeholder"):
        lib.save(draft)
    assert not (tmp_path / "mine").exists()


# --------------------------------------------------------------------------- the library


def test_the_library_lists_marks_imports_exports_and_deletes(tmp_path):
    lib = DemoLibrary(tmp_path / "mine")
    shipped = [e for e in lib.entries() if not e.user]
    assert [e.name for e in shipped] == list_demos()
    assert all(e.title == load_demo(e.name).title for e in shipped)
    bias = next(e for e in shipped if e.name == "bias")
    imported = lib.import_file(bias.path)
    assert imported.user and imported.name == slug(load_demo("bias").title)
    again = lib.import_file(imported.path)
    assert again.name == imported.name + "-2"
    mine = [e for e in lib.entries() if e.user]
    assert {e.name for e in mine} == {imported.name, again.name}
    out = lib.export(again.name, tmp_path / "share.json")
    assert load_demo(out).title == load_demo("bias").title
    lib.delete(again.name)
    assert again.name not in {e.name for e in lib.entries()}
    with pytest.raises(DemoError, match="not one of your demos"):
        lib.delete("bias")


def test_a_hostile_import_writes_nothing(tmp_path):
    bad = tmp_path / "bad.json"
    bad.write_text(json.dumps(_doc([{"command": {"command": "edit", "edit": "delete",
                                                 "indices": [50]}, "caption": "c"}])))
    lib = DemoLibrary(tmp_path / "mine")
    with pytest.raises(DemoError, match=r"steps\[0\]\.command"):
        lib.import_file(bad)
    assert not (tmp_path / "mine").exists()


def test_names_stay_inside_the_user_folder(tmp_path):
    assert slug("../../etc/passwd") == "etc-passwd"
    assert slug("Marge & Bound (week 3)") == "marge-bound-week-3"
    assert slug("ΓΔ") == "demo"
    draft = DemoDraft.from_demo(load_demo("bias"))
    entry = DemoLibrary(tmp_path / "mine").save(draft, name="../escape")
    assert entry.path.parent == tmp_path / "mine"


def test_a_full_disk_keeps_the_previous_file(tmp_path, monkeypatch):
    from perceptron_gui.core.io import files

    lib = DemoLibrary(tmp_path / "mine")
    draft = DemoDraft.from_demo(load_demo("bias"))
    entry = lib.save(draft, name="kept")
    before = entry.path.read_bytes()
    draft.set_caption(1, "changed")

    def full(path, chunks):
        raise OSError(28, "No space left on device")

    monkeypatch.setattr(files, "atomic_write_bytes", full)
    with pytest.raises(DemoError, match="kept.json: cannot write: No space left on device"):
        lib.save(draft, name="kept")
    assert entry.path.read_bytes() == before


def test_a_demo_recorded_on_three_named_classes_reads_back_with_them():
    """A recording wrote the points of m classes with labels 0 … m − 1 and no classes: the
    file could not be read back (labels must be ±1), and every name was dropped."""
    from perceptron_gui.core import samples
    from perceptron_gui.core.commands import EditData, SetLearner
    from perceptron_gui.core.dataset import AddPoints, Relabel
    from perceptron_gui.core.demos.draft import DemoDraft

    data, _ = samples.load("iris-versicolor-virginica-petal", all_classes=True)
    ws = Workspace(data, "lda")
    draft = DemoDraft.from_workspace(ws, title="Three")
    draft.record(SetLearner("qda"), "QDA")
    draft.record(EditData(AddPoints([4.0, 1.2], 2)), "a virginica point")
    draft.record(EditData(Relabel([0], 1)), "now versicolor")
    demo = parse_demo(draft.dumps(), name="three")
    assert demo.dataset.classes == (0, 1, 2) and demo.dataset == data
    assert demo.dataset.class_names == ("setosa", "versicolor", "virginica")
    assert demo.dataset.feature_names == ("petal_length", "petal_width")
    player = DemoPlayer(Workspace(), demo)
    assert player.run_all() == []
    assert player.workspace.dataset.n == 151 and player.workspace.dataset.y[0] == 1
    assert player.workspace.multiclass and player.workspace.learner_name == "qda"
    bad = json.loads(draft.dumps())
    bad["steps"][1]["command"]["y"] = [7]  # a class the data do not have
    with pytest.raises(DemoError, match=r"steps\[1\].*7"):
        parse_demo(json.dumps(bad), name="bad")
    old_style = {**bad, "steps": [{"action": "add_point", "x": 1, "y": 1, "label": 7,
                                   "caption": "c"}]}
    with pytest.raises(DemoError, match=r"label: expected one of the classes 0, 1, 2, got 7"):
        parse_demo(json.dumps(old_style), name="bad")


def test_a_two_class_recording_keeps_its_names():
    from perceptron_gui.core import samples
    from perceptron_gui.core.commands import SetLearner
    from perceptron_gui.core.demos.draft import DemoDraft

    data, _ = samples.load("iris-setosa-versicolor-sepal")
    draft = DemoDraft.from_workspace(Workspace(data), title="Two")
    draft.record(SetLearner("lda"), "LDA")
    demo = parse_demo(draft.dumps(), "two")
    assert demo.dataset.class_names == data.class_names and demo.dataset.is_binary
    assert demo.dataset.feature_names == data.feature_names
