"""Data sets of 2 to 8 classes: their labels, names and the edits on their classes."""

from __future__ import annotations

import json

import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from perceptron_gui.core.class_edits import AddClass, RemoveClass, RenameClass, class_texts
from perceptron_gui.core.dataset import (
    AddPoints,
    Clear,
    Dataset,
    DeletePoints,
    FlipLabels,
    InsertPoints,
    Relabel,
    ReplaceAll,
)

THREE = Dataset([[0, 0], [1, 0], [2, 0], [3, 0]], [0, 2, 1, 2], classes=(0, 1, 2),
                class_names=("setosa", "versicolor", "virginica"))


def _same(a: Dataset, b: Dataset) -> None:
    assert a == b and a.classes == b.classes and a.names == b.names


def test_a_binary_data_set_is_as_it_was():
    ds = Dataset([[0, 0], [1, 1]], [1, -1])
    assert ds.classes == (-1, 1) and ds.is_binary and ds.n_classes == 2
    assert ds.class_counts() == (1, 1) and ds.listed_index().tolist() == [0, 1]
    assert ds.listed_classes == (1, -1)  # +1 first, as the window has always listed them


def test_three_classes_count_index_and_compare():
    assert THREE.n_classes == 3 and not THREE.is_binary
    assert THREE.class_counts() == (1, 1, 2) and THREE.listed_index().tolist() == [0, 2, 1, 2]
    assert THREE.has_both_classes
    assert THREE != Dataset(THREE.X, THREE.y, classes=(0, 1, 2, 3))  # an empty class counts
    assert "classes=(0, 1, 2)" in repr(THREE)
    one = Dataset([[0, 0], [1, 1]], [2, 2], classes=(0, 1, 2))
    assert not one.has_both_classes


@pytest.mark.parametrize(("kwargs", "match"), [
    ({"classes": (0, 1, 2), "y": [0, 3]}, r"labels must be one of the classes 0, 1, 2; found 3 "
                                          r"at row 1"),
    ({"classes": (0,), "y": [0, 0]}, "2 to 8 classes; got 1"),
    ({"classes": tuple(range(9)), "y": [0, 0]}, "2 to 8 classes; got 9"),
    ({"classes": (2, 1, 0), "y": [0, 0]}, r"increasing order; got \[2, 1, 0\]"),
    ({"classes": (0, 0, 1), "y": [0, 0]}, "distinct"),
    ({"classes": (0, 1.5), "y": [0, 0]}, "integers"),
    ({"classes": "abc", "y": [0, 0]}, "not the string"),
    ({"classes": (0, 1, 2), "y": [0, 1], "class_names": ("a", "b")}, "must be 3 names; got 2"),
])
def test_bad_classes_get_a_precise_message(kwargs, match):
    y = kwargs.pop("y")
    with pytest.raises(ValueError, match=match):
        Dataset([[0, 0], [1, 1]], y, **kwargs)


def test_point_edits_take_any_class_of_the_data_set():
    new, inverse = AddPoints([5, 5], 1).apply(THREE)
    assert new.classes == THREE.classes and new.y[-1] == 1
    _same(inverse.apply(new)[0], THREE)
    new, _ = Relabel([0], 2).apply(THREE)
    assert new.y[0] == 2
    with pytest.raises(ValueError, match="one of the classes 0, 1, 2; found 7"):
        AddPoints([5, 5], 7).apply(THREE)
    with pytest.raises(ValueError, match=r"-1 or \+1; found 3 at row 0"):
        AddPoints([[0, 0]], 3).apply(Dataset())
    with pytest.raises(ValueError, match="relabel the points instead"):
        FlipLabels([0]).apply(THREE)


def test_clearing_keeps_the_classes_and_undo_gives_everything_back():
    empty, inverse = Clear().apply(THREE)
    assert empty.n == 0 and empty.classes == THREE.classes
    assert empty.class_names == THREE.class_names
    _same(inverse.apply(empty)[0], THREE)
    assert Clear().apply(Dataset([[0, 0]], [1]))[0].class_names is None


def test_replace_all_carries_the_classes():
    edit = ReplaceAll(THREE.X, THREE.y, "iris", class_names=THREE.class_names, classes=(0, 1, 2))
    new, inverse = edit.apply(Dataset())
    _same(new, THREE)
    assert inverse.apply(new)[0] == Dataset()


def test_adding_renaming_and_removing_a_class():
    binary = Dataset([[0, 0], [1, 1]], [1, -1])
    three, undo_add = AddClass("new").apply(binary)
    assert three.classes == (-1, 1, 2) and three.class_names == ("class −1", "class +1", "new")
    assert three.listed_classes == (1, -1, 2)  # the two keep their places, colours and keys
    assert three.listed_index().tolist() == [0, 1]
    _same(undo_add.apply(three)[0], binary)  # unnamed again, as it was
    renamed, undo = RenameClass(1, "iris").apply(THREE)
    assert renamed.class_names == ("setosa", "iris", "virginica")
    _same(undo.apply(renamed)[0], THREE)
    named, unname = RenameClass(-1, "cold").apply(binary)
    assert named.class_names == ("cold", "class +1")
    _same(unname.apply(named)[0], binary)
    smaller, undo = RemoveClass(2).apply(THREE)  # two left: the binary problem
    assert smaller.is_binary and smaller.n == 2 and smaller.y.tolist() == [1, -1]
    assert smaller.class_names == ("versicolor", "setosa")  # −1's first, as ever
    assert smaller.listed_classes == (1, -1)  # setosa keeps the first place and colour
    _same(undo.apply(smaller)[0], THREE)
    four = Dataset(THREE.X, THREE.y, classes=(0, 1, 2, 3))
    three, _ = RemoveClass(1).apply(four)
    assert three.classes == (0, 2, 3) and three.class_names is not None


@pytest.mark.parametrize(("edit", "data", "match"), [
    (RemoveClass(1), Dataset(), "at least two classes"),
    (RemoveClass(5), THREE, "no class 5; the classes are 0, 1, 2"),
    (RenameClass(5, "x"), THREE, "no class 5"),
    (AddClass("z"), Dataset(classes=tuple(range(8))), "at most 8 classes"),
])
def test_class_edits_refuse_with_a_reason(edit, data, match):
    with pytest.raises(ValueError, match=match):
        edit.apply(data)


def test_a_class_name_must_say_something():
    with pytest.raises(ValueError, match="must not be empty"):
        AddClass("  ")


def test_labels_of_more_than_two_values_number_the_classes():
    ds, mapping = Dataset.from_labels([[0, 0], [1, 1], [2, 2]], ["b", "c", "a"], most=8)
    assert ds.classes == (0, 1, 2) and ds.y.tolist() == [1, 2, 0]
    assert ds.class_names == ("a", "b", "c") and mapping == {"a": 0, "b": 1, "c": 2}
    two, _ = Dataset.from_labels([[0, 0], [1, 1]], [0, 1], most=8)
    assert two.is_binary and two.y.tolist() == [-1, 1]  # two classes: the binary problem
    with pytest.raises(ValueError, match="at most two distinct values; found 3"):
        Dataset.from_labels([[0, 0], [1, 1], [2, 2]], ["b", "c", "a"])
    with pytest.raises(ValueError, match="at most 8 distinct values; found 9"):
        Dataset.from_labels(np.zeros((9, 2)), list("abcdefghi"), most=8)


EDITS = st.sampled_from(["add", "insert", "delete", "relabel", "add_class", "rename",
                         "remove_class", "clear"])


def _edit(kind: str, data: Dataset, seed: int):
    rng = np.random.default_rng(seed)
    label = int(rng.choice(data.classes))
    if kind == "add":
        return AddPoints(rng.normal(size=(2, 2)), label)
    if kind == "insert":
        return InsertPoints([0], [[1.0, 2.0]], [label])
    if kind == "delete" and data.n:
        return DeletePoints([0])
    if kind == "relabel" and data.n:
        return Relabel([0], label)
    if kind == "add_class" and data.n_classes < 8:
        return AddClass(f"c{seed}")
    if kind == "rename":
        return RenameClass(label, f"r{seed}")
    if kind == "remove_class" and data.n_classes > 2:
        return RemoveClass(label)
    return Clear()


@settings(max_examples=60, deadline=None)
@given(st.lists(st.tuples(EDITS, st.integers(0, 10**6)), min_size=1, max_size=12))
def test_every_edit_of_many_classes_has_its_exact_inverse(steps):
    data = THREE
    for kind, seed in steps:
        edit = _edit(kind, data, seed)
        try:
            new, inverse = edit.apply(data)
        except ValueError as exc:  # a name another class has: refused, nothing changed
            names = data.class_names or class_texts(data)  # two classes: "r0 (−1)" is r0
            assert "already named" in str(exc) and edit.name in names
            continue
        _same(inverse.apply(new)[0], data)
        assert set(np.unique(new.y)) <= set(new.classes)
        data = new


# ------------------------------------------------------------------------------ files

def _file(**fields) -> str:
    doc = {"format": "perceptron-gui-workspace", "version": 2, "learner": "lda",
           "points": [{"x": 0.0, "y": 0.0, "label": 0}, {"x": 1.0, "y": 0.5, "label": 2}],
           "classes": [0, 1, 2]}
    doc.update(fields)
    return json.dumps({k: v for k, v in doc.items() if v is not None})


def _read(text: str):
    from perceptron_gui.core.io import workspacefile as wf

    return wf.workspace_from_document(wf.parse_workspace_json(text))


def test_a_file_of_many_classes_round_trips_bit_for_bit():
    from perceptron_gui.core import Workspace
    from perceptron_gui.core.io import workspacefile as wf

    rng = np.random.default_rng(3)
    data = Dataset(rng.normal(size=(50, 2)) * 1e3, rng.integers(0, 5, 50) * 3 - 4,
                   classes=(-4, -1, 2, 5, 8), class_names=tuple("abcde"))
    ws = Workspace()
    ws.set_dataset(data)
    text = wf.workspace_to_json(ws)
    head = json.loads(text)
    assert head["version"] == 2 and head["classes"] == [-4, -1, 2, 5, 8]
    _same(_read(text).dataset, data)
    binary = Workspace()
    binary.set_dataset(Dataset([[0, 0], [1, 1]], [1, -1], class_names=("no", "yes")))
    text = wf.workspace_to_json(binary)
    assert json.loads(text)["version"] == 1 and "classes" not in json.loads(text)  # as before
    _same(_read(text).dataset, binary.dataset)


@pytest.mark.parametrize(("fields", "match"), [
    ({"version": 1}, r"classes: a version 1 file has the classes −1 and \+1 only"),
    ({"classes": [0, 1, 1]}, "classes: classes must be distinct"),
    ({"classes": [0, "1", 2]}, r"classes\[1\]: expected an integer label, got '1'"),
    ({"classes": [0, True, 2]}, r"classes\[1\]: expected an integer label, got true"),
    ({"classes": {"0": 0}}, "classes: expected a list of integers, got an object"),
    ({"classes": list(range(9))}, "2 to 8 classes; got 9"),
    ({"classes": [0, 1]}, r"points\[1\].label: expected one of the classes 0, 1, got 2"),
    ({"class_names": {"0": "a", "1": "b"}},
     r'class_names: expected \{"0": name, "1": name, "2": name\}, got keys \[.0., .1.\]'),
])
def test_a_malformed_class_list_is_named(fields, match):
    from perceptron_gui.core.io import FormatError

    with pytest.raises(FormatError, match=match):
        _read(_file(**fields))


def test_the_classes_are_read_with_their_names():
    ws = _read(_file(class_names={"0": "setosa", "1": "versicolor", "2": "virginica"}))
    assert ws.dataset.classes == (0, 1, 2) and ws.dataset.class_names[2] == "virginica"
    assert ws.dataset.y.tolist() == [0, 2]


# ----------------------------------------------------------------------- delimited text

def _csv(tmp_path, labels) -> object:
    path = tmp_path / "points.csv"
    rows = [f"{i},{i % 7 * 0.5},{label}" for i, label in enumerate(labels)]
    path.write_text("x,y,species\n" + "\n".join(rows) + "\n", encoding="utf-8")
    return path


def test_a_table_of_three_classes_keeps_them_all_when_asked(tmp_path):
    from perceptron_gui.core.io.tabular import read_table

    path = _csv(tmp_path, ["virginica", "setosa", "versicolor", "setosa"] * 10)
    table = read_table(path, all_classes=True)
    ds = table.dataset
    assert ds.classes == (0, 1, 2) and ds.y.tolist() == [2, 0, 1, 0] * 10
    assert ds.class_names == ("setosa", "versicolor", "virginica")
    assert ds.feature_names == ("x", "y")
    against = read_table(path, positive="setosa", all_classes=True).dataset  # as before
    assert against.is_binary and against.y.tolist() == [-1, 1, -1, 1] * 10
    from perceptron_gui.core.io import FormatError

    with pytest.raises(FormatError, match="has 3 labels"):  # the default is unchanged
        read_table(path)


def test_a_table_of_nine_classes_is_refused_with_the_limit(tmp_path):
    from perceptron_gui.core.io import FormatError
    from perceptron_gui.core.io.tabular import read_table

    with pytest.raises(FormatError, match="has 9 labels .*at most 8 classes"):
        read_table(_csv(tmp_path, list("abcdefghi")), label="species", all_classes=True)
    two = read_table(_csv(tmp_path, list("abab") * 5), all_classes=True).dataset
    assert two.is_binary and two.class_names == ("a", "b")


@given(st.lists(st.sampled_from((-1, 1, 2)), max_size=30))
def test_counts_follow_the_classes_not_the_listed_order(labels):
    ds = Dataset(np.zeros((len(labels), 2)), labels, classes=(-1, 1, 2))  # +1 is listed first
    assert ds.class_counts() == tuple(labels.count(c) for c in ds.classes)


def test_a_workspace_that_cannot_run_says_why_at_its_end():
    from perceptron_gui.core import Workspace

    ws = Workspace()
    ws.set_dataset(THREE)
    assert ws.end_message() == ws.problem and "these data have 3" in ws.problem
    assert Workspace().end_message() == Workspace().problem


def test_a_name_another_class_has_is_refused():
    named = Dataset(THREE.X, THREE.y, classes=THREE.classes, class_names=("a", "b", "c"))
    with pytest.raises(ValueError, match="a class is already named 'a'"):
        RenameClass(1, "a").apply(named)
    with pytest.raises(ValueError, match="a class is already named 'c'"):
        AddClass(" c ").apply(named)
    new, _ = RenameClass(0, "a").apply(named)  # its own name again: no change of name
    assert new.class_names == ("a", "b", "c")
