"""Values from Python: coordinates are numbers, labels of one type, messages short."""

from __future__ import annotations

import json

import numpy as np
import pytest

from perceptron_gui.core import Dataset, Workspace
from perceptron_gui.core.io import FormatError, workspace_from_json, workspace_to_json
from perceptron_gui.viewer import as_dataset

X2 = [[0.0, 1.0], [2.0, 3.0]]


@pytest.mark.parametrize("labels", [[1, "1"], ["a", 2], np.array([1, "1"], dtype=object),
                                    [True, 1], [[1], ["1"]]])
def test_labels_of_mixed_types_are_refused_not_merged(labels):
    with pytest.raises(ValueError, match="labels mix .* give every label the same type"):
        as_dataset(X2, labels)
    with pytest.raises(ValueError, match="labels mix"):
        Dataset.from_labels(X2, labels)


def test_labels_of_one_type_still_map():
    assert as_dataset(X2, ["b", "a"])[1] == {"a": -1, "b": 1}
    assert as_dataset(X2, [np.int64(0), 1])[1] == {0: -1, 1: 1}


@pytest.mark.parametrize(("X", "message"), [
    ([["1.5", "2"], ["3", "4"]], "numbers only, not text such as '1.5'"),
    (np.array([["1.5", 2.0], [3.0, 4.0]], dtype=object), "not text such as '1.5'"),
    (np.array([["2024-01-01", "2024-01-02"]] * 2, dtype="datetime64[D]"), "not dates"),
    (np.array([[np.timedelta64(1, "s")] * 2] * 2), "not dates or times"),
    (np.array([[1 + 2j, 0], [0, 0]], dtype=object), "not complex numbers"),
    ([[10**400, 1], [2, 3]], "holds an integer of 401 digits, beyond the range of float64"),
])
def test_coordinates_must_be_numbers(X, message):
    with pytest.raises(ValueError) as info:
        as_dataset(X, [0, 1])
    assert message in str(info.value) and len(str(info.value)) < 200
    with pytest.raises(ValueError, match="numbers only|range of float64"):
        Dataset(X, [1, -1])


def test_many_distinct_labels_give_a_short_message():
    n = 1_000_000
    with pytest.raises(ValueError) as info:
        as_dataset(np.zeros((n, 2)), np.arange(n).astype(str))
    message = str(info.value)
    assert len(message) < 200 and "1,000,000" in message and "'0', '1'" in message


def test_a_huge_stored_step_gives_a_short_message():
    doc = json.loads(workspace_to_json(Workspace(Dataset(X2, [1, -1]))))
    doc["run"] = {"step": 10**4000}
    with pytest.raises(FormatError) as info:
        workspace_from_json(json.dumps(doc))
    assert len(str(info.value)) < 300 and "1.00e4000" in str(info.value)
