"""The data set's point limit holds on every path that makes data, so every file written opens."""

import numpy as np
import pytest

from perceptron_gui.core import dataset as ds
from perceptron_gui.core import io
from perceptron_gui.core.commands import SampleModel
from perceptron_gui.core.io import files
from perceptron_gui.core.learners.gaussian_model import GaussianModel
from perceptron_gui.core.workspace import Workspace

LIMIT = 6


@pytest.fixture
def small_limit(monkeypatch):
    """A limit of LIMIT points for the data set and for files alike."""
    monkeypatch.setattr(ds, "MAX_POINTS", LIMIT, raising=False)
    monkeypatch.setattr(files, "MAX_POINTS", LIMIT)


def _full():
    X = np.column_stack([np.arange(LIMIT, dtype=float), np.ones(LIMIT)])
    return ds.Dataset(X, np.where(np.arange(LIMIT) % 2, 1, -1))


def _grow_edits():
    yield ds.AddPoints([0.5, 0.5], 1)
    yield ds.InsertPoints([0], [[0.5, 0.5]], [1])


@pytest.mark.parametrize("edit", list(_grow_edits()), ids=lambda e: type(e).__name__)
def test_an_edit_past_the_limit_is_refused_and_the_data_kept(small_limit, edit):
    ws = Workspace()
    ws.set_dataset(_full())
    with pytest.raises(ValueError, match=f"the limit is {LIMIT}"):
        ws.apply_edit(edit)
    assert ws.dataset.n == LIMIT


def test_a_data_set_past_the_limit_is_refused(small_limit):
    X = np.zeros((LIMIT + 1, 2))
    with pytest.raises(ValueError, match=f"{LIMIT + 1} points; the limit is {LIMIT}"):
        ds.Dataset(X, np.ones(LIMIT + 1))
    with pytest.raises(ValueError, match="the limit"):
        ds.ReplaceAll(X, np.ones(LIMIT + 1))


def test_a_sample_past_the_limit_is_refused_before_it_is_drawn(small_limit):
    model = GaussianModel([[0, 0], [3, 3]], [0, 0], [[1, 1], [1, 1]], [0.5, 0.5])
    with pytest.raises(ValueError, match="the limit"):
        SampleModel.of(model, LIMIT + 1, seed=1)
    with pytest.raises(ValueError, match="the limit"):  # no 6.9 EiB allocation first
        SampleModel.of(model, 10**18, seed=1)
    assert SampleModel.of(model, LIMIT, seed=1).edit().X.shape == (LIMIT, 2)


def test_every_file_saved_at_the_limit_opens_again(small_limit, tmp_path):
    ws = Workspace()
    ws.set_dataset(_full())
    for edit in _grow_edits():
        with pytest.raises(ValueError):
            ws.apply_edit(edit)
    path = tmp_path / "full.json"
    io.save_workspace(ws, path)
    assert io.load_workspace(path).dataset == ws.dataset
