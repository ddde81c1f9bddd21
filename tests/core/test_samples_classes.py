"""core.samples with ``all_classes``: every class of a shipped file, the default unchanged."""

from __future__ import annotations

import dataclasses

import numpy as np
import pandas as pd
import pytest
from sklearn.preprocessing import LabelEncoder

from perceptron_gui.core import samples


def _file(info):
    """The sample's rows with x, y and label all present, as pandas reads them."""
    frame = pd.read_csv(info.path)[[info.x, info.y, info.label]].dropna()
    return frame.reset_index(drop=True)


@pytest.mark.parametrize("name", samples.names())
def test_every_class_of_the_file_is_kept_in_sorted_order(name):
    dataset, info = samples.load(name, all_classes=True)
    frame = _file(info)
    oracle = LabelEncoder().fit(frame[info.label])
    m = len(oracle.classes_)
    assert m == 3 and dataset.classes == tuple(range(m)) and not dataset.is_binary
    assert dataset.n == len(frame) and info.n_other == 0 and info.all_classes
    np.testing.assert_array_equal(dataset.y, oracle.transform(frame[info.label]))
    np.testing.assert_array_equal(dataset.X, frame[[info.x, info.y]].to_numpy(float))
    for label, class_name in zip(oracle.classes_, dataset.class_names, strict=True):
        assert str(label) in class_name
    for class_name, count in zip(dataset.class_names, dataset.class_counts(), strict=True):
        assert class_name in info.classes_note and class_name in info.title
        assert f"{count:,} {class_name}" in info.description
    assert info.title.split(":")[0] == samples.SAMPLES[name].title.split(":")[0]
    (x0, x1), (y0, y1) = info.view  # every point shown; the two classes' view kept inside
    b = dataset.bounds()
    assert x0 < b[0] and b[1] < x1 and y0 < b[2] and b[3] < y1
    (u0, u1), (v0, v1) = samples.SAMPLES[name].view
    assert x0 <= u0 and u1 <= x1 and y0 <= v0 and v1 <= y1


@pytest.mark.parametrize("name", samples.names())
def test_the_default_still_opens_two_of_the_classes(name):
    full, _ = samples.load(name, all_classes=True)
    two, info = samples.load(name)
    assert two.is_binary and not info.all_classes and info.kept == ()
    assert info.view == samples.SAMPLES[name].view and info == dataclasses.replace(
        samples.SAMPLES[name], skipped_lines=info.skipped_lines, summary=info.summary,
        n_other=info.n_other)
    assert info.n_other == full.n - two.n > 0
    at = [full.class_names.index(n) for n in two.class_names]  # -1's class, then +1's
    rows = np.isin(full.y, at)
    np.testing.assert_array_equal(two.X, full.X[rows])
    np.testing.assert_array_equal(two.y, np.where(full.y[rows] == at[1], 1, -1))


def test_a_two_class_learner_states_why_it_does_not_run_on_three_classes():
    workspace, info = samples.open_workspace(samples.names()[0], "primal", all_classes=True)
    assert workspace.dataset.n_classes == 3 and workspace.problem_kind is not None
    assert "3" in workspace.problem and workspace.view is not None


@pytest.mark.parametrize("name", samples.names())
def test_every_class_opens_under_a_learner_of_m_classes(name):
    from perceptron_gui.core.learners import registry

    workspace, info = samples.open_workspace(name, all_classes=True)
    assert workspace.dataset.n_classes == 3 and workspace.problem is None
    assert workspace.learner_name in registry.multiclass() and workspace.multiclass
    own = samples.SAMPLES[name].learner
    assert workspace.learner_name == (own if own in registry.multiclass()
                                      else registry.multiclass()[0])
