"""A command's inverse, made from the workspace before it, undoes it exactly (no Qt)."""

from __future__ import annotations

import numpy as np
import pytest

from perceptron_gui.core import Workspace, generators
from perceptron_gui.core import dataset as ds
from perceptron_gui.core.commands import EditData, SetWeights


def _workspace() -> Workspace:
    ws = Workspace()
    ws.set_dataset(generators.separable(12, seed=4, margin=0.2))
    ws.run_to_end()
    ws.seek(3)
    return ws


@pytest.mark.parametrize("edit", [ds.AddPoints([0.5, 0.5], 1), ds.DeletePoints([2]),
                                  ds.MovePoints([1], [[2.0, -1.0]]), ds.FlipLabels([0]),
                                  ds.Clear()])
def test_an_edit_and_its_inverse_give_back_the_data_and_the_step(edit):
    ws = _workspace()
    before, step = ws.dataset, ws.step_count
    command = EditData(edit)
    inverse = command.inverse(ws)
    command.execute(ws)
    assert ws.dataset != before and ws.step_count == 0
    inverse.execute(ws)
    assert ws.dataset == before and ws.step_count == step


def test_the_edit_applied_for_its_inverse_is_installed_not_applied_again(monkeypatch):
    ws = _workspace()
    command = EditData(ds.AddPoints([0.5, 0.5], 1))
    command.inverse(ws)
    monkeypatch.setattr(ds.AddPoints, "apply", lambda *_: pytest.fail("applied twice"))
    command.execute(ws)
    assert ws.dataset.n == 13


def test_an_invalid_edit_has_no_inverse_and_changes_nothing():
    ws = _workspace()
    before = ws.dataset
    with pytest.raises(ValueError):
        EditData(ds.MovePoints([40], [[0.0, 0.0]])).inverse(ws)
    assert ws.dataset is before


def test_weights_set_by_hand_undo_to_the_start_and_step_before():
    ws = _workspace()
    command = SetWeights((1.0, -2.0), 0.5)
    inverse = command.inverse(ws)
    command.execute(ws)
    assert ws.start is not None and ws.step_count == 0
    inverse.execute(ws)
    assert ws.start is None and ws.step_count == 3


def test_consecutive_moves_merge_and_other_commands_do_not():
    first = EditData(ds.MovePoints([1], [[2.0, -1.0]]))
    merged = first.merge(EditData(ds.MovePoints([1], [[3.0, -1.0]])))
    assert merged is not None
    np.testing.assert_array_equal(merged.edit.X, [[3.0, -1.0]])
    assert first.merge(SetWeights(None)) is None
