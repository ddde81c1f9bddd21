"""Real data keep their names: the data set carries them through edits, undo, commands and files."""

from __future__ import annotations

import json

import numpy as np
import pytest

from perceptron_gui.core import dataset as ds
from perceptron_gui.core import samples
from perceptron_gui.core.commands import EditData, from_dict
from perceptron_gui.core.io import FormatError
from perceptron_gui.core.io.tabular import read_table
from perceptron_gui.core.io.workspacefile import workspace_from_json, workspace_to_json
from perceptron_gui.core.workspace import Workspace

FEATURES = ("sepal length", "sepal width")
CLASSES = ("setosa", "versicolor")


@pytest.fixture
def named():
    X = [[5.1, 3.5], [4.9, 3.0], [7.0, 3.2], [6.4, 3.2]]
    return ds.Dataset(X, [-1, -1, 1, 1], feature_names=FEATURES, class_names=CLASSES)


@pytest.mark.parametrize("edit", [
    ds.AddPoints([1.0, 2.0], 1), ds.InsertPoints([0], [[1.0, 2.0]], [-1]), ds.DeletePoints([1]),
    ds.MovePoints([0, 2], [[0.0, 0.0], [1.0, 1.0]]), ds.Relabel([0], 1), ds.FlipLabels([3]),
])
def test_every_edit_and_its_inverse_keep_the_names(named, edit):
    new, inverse = edit.apply(named)
    assert new.names == (FEATURES, CLASSES)
    back, _ = inverse.apply(new)
    assert back == named and back.names == named.names


def test_replacing_the_data_brings_its_names_and_undo_brings_the_old_ones(named):
    plain = ds.Dataset([[0.0, 0.0], [1.0, 1.0]], [1, -1])
    new, inverse = ds.ReplaceAll.from_dataset(named, "open sample").apply(plain)
    assert new.names == (FEATURES, CLASSES)
    back, redo = inverse.apply(new)
    assert back.names == (None, None)
    again, _ = redo.apply(back)
    assert again.names == (FEATURES, CLASSES)
    # ... and a cleared canvas has no names, until undo
    empty, restore = ds.Clear().apply(named)
    assert empty.names == (None, None) and restore.apply(empty)[0].names == named.names


def test_a_replace_command_carries_the_names_through_its_dictionary(named):
    command = EditData(ds.ReplaceAll(named.X, named.y, "data", feature_names=FEATURES,
                                     class_names=CLASSES))
    text = json.dumps(command.to_dict(), ensure_ascii=False)
    again = from_dict(json.loads(text))
    assert again == command and again.edit.apply(ds.Dataset())[0].names == named.names


@pytest.mark.parametrize(("kwargs", "message"), [
    ({"feature_names": "xy"}, "feature_names must be two names, not one string"),
    ({"feature_names": ["a"]}, "feature_names must be two names; got 1"),
    ({"class_names": ["a", " "]}, "class_names must not be empty"),
    ({"class_names": ["a", "b" * 201]}, "at most 200 characters"),
])
def test_bad_names_are_refused_naming_what(named, kwargs, message):
    with pytest.raises(ValueError, match=message):
        named.with_names(**kwargs)
    with pytest.raises(ValueError, match=message):
        ds.Dataset(named.X, named.y, **kwargs)


def test_names_change_no_result_and_share_the_arrays(named):
    plain = named.with_names()
    assert plain == named and plain.names == (None, None)
    assert plain.X is named.X and hash(plain) == hash(named)


def test_the_workspace_file_keeps_the_names(named):
    ws = Workspace(named)
    text = workspace_to_json(ws)
    head = json.loads(text)
    assert head["feature_names"] == list(FEATURES)
    assert head["class_names"] == {"-1": "setosa", "+1": "versicolor"}
    again = workspace_from_json(text)
    assert again.dataset == named and again.dataset.names == (FEATURES, CLASSES)


def test_a_file_without_names_still_opens(named):
    head = json.loads(workspace_to_json(Workspace(named)))
    del head["feature_names"], head["class_names"]
    again = workspace_from_json(json.dumps(head))
    assert again.dataset == named and again.dataset.names == (None, None)


@pytest.mark.parametrize(("field", "value", "message"), [
    ("class_names", ["a", "b"], "class_names: expected an object"),
    ("class_names", {"-1": "a", "1": "b"}, r"class_names: expected \{\"-1\": name, \"\+1\""),
    ("class_names", {"-1": "a", "+1": 3}, "class_names: expected two strings"),
    ("feature_names", ["a", 1], "feature_names: expected two strings"),
    ("feature_names", ["a", ""], "feature_names must not be empty"),
])
def test_bad_names_in_a_file_are_refused_precisely(named, field, value, message):
    head = json.loads(workspace_to_json(Workspace(named)))
    head[field] = value
    with pytest.raises(FormatError, match=message):
        workspace_from_json(json.dumps(head))


@pytest.mark.parametrize(("name", "features", "classes"), [
    ("iris-setosa-versicolor-sepal", ("sepal_length", "sepal_width"), ("setosa", "versicolor")),
    ("penguins-bill", ("bill_length_mm", "bill_depth_mm"), ("Adelie", "Gentoo")),
    ("wine-alcohol-flavanoids", ("alcohol", "flavanoids"), ("cultivar 2", "cultivar 3")),
])
def test_the_samples_name_their_axes_and_classes(name, features, classes):
    data, _info = samples.load(name)
    assert data.names == (features, classes)


def test_an_imported_table_names_its_columns_and_classes(tmp_path):
    path = tmp_path / "votes.csv"
    path.write_text("age,income,answer\n30,2.5,ja\n41,3.0,nein\n25,1.0,ja\n")
    table = read_table(path)
    assert table.dataset.feature_names == ("age", "income")
    names = dict(zip((-1, 1), table.dataset.class_names, strict=True))
    assert {names[table.mapping["ja"]], names[table.mapping["nein"]]} == {"ja", "nein"}
    assert names[table.mapping["ja"]] == "ja"
    headless = tmp_path / "plain.csv"
    headless.write_text("30,2.5,1\n41,3.0,0\n25,1.0,1\n")
    assert read_table(headless).dataset.feature_names is None


def test_labels_name_the_classes_unless_they_are_the_signs():
    data, mapping = ds.Dataset.from_labels([[0, 0], [1, 1]], ["nein", "ja"])
    assert data.class_names == ("ja", "nein") and mapping == {"ja": -1, "nein": 1}
    assert ds.Dataset.from_labels([[0, 0], [1, 1]], [-1, 1])[0].class_names is None
    assert ds.Dataset.from_labels([[0, 0], [1, 1]], [0, 1])[0].class_names == ("0", "1")
    np.testing.assert_array_equal(data.y, [1, -1])
