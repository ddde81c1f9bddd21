"""The workspace computes its per-cursor quantities once per cursor position.

The canvas, the readout panel and the plots all ask for ``readouts()``,
``training_margins()`` and ``misclassified()`` after each step; the workspace
computes them once and shares them.  Sharing must never show a stale value.
"""

from __future__ import annotations

import numpy as np
import pytest

from perceptron_gui.core import Workspace, generators
from perceptron_gui.core.dataset import AddPoints


def counted(monkeypatch, ws, name):
    calls = []
    original = getattr(ws, name)
    monkeypatch.setattr(ws, name, lambda *a: (calls.append(1), original(*a))[1])
    return calls


def test_one_computation_per_cursor_position(monkeypatch):
    ws = Workspace(generators.separable(40, seed=1, margin=0.1))
    readouts = counted(monkeypatch, ws, "_readouts")
    margins = counted(monkeypatch, ws.theory, "_training_margins")
    weights = set()
    for step in range(1, 30):
        ws.step()
        weights.add(ws.learner.n_updates_)
        first = ws.readouts()
        for _ in range(3):  # canvas, readout panel, plots
            assert ws.readouts() is first
            ws.misclassified()
            ws.training_margins()
        # the margins once per weights: a step that is not a mistake keeps them
        assert len(readouts) == step and len(margins) == len(weights)
    assert len(weights) < 29


def test_the_margins_are_shared_while_the_weights_stay():
    ws = Workspace(generators.separable(40, seed=1, margin=0.1))
    ws.step_update()
    margins, wrong = ws.training_margins(), ws.misclassified()
    while ws.can_step:
        event = ws.step()
        if event.mistake:
            break
        assert ws.training_margins() is margins and ws.misclassified() is wrong
    assert event.mistake and ws.training_margins() is not margins
    fresh = Workspace(ws.dataset)
    fresh.seek(ws.step_count)
    np.testing.assert_array_equal(ws.training_margins(), fresh.training_margins())


@pytest.mark.parametrize("move", ["step", "step_back", "step_update", "reset", "seek", "edit",
                                  "params", "learner"])
def test_every_change_is_seen(move):
    ws = Workspace(generators.overlapping(60, seed=3))
    for _ in range(25):
        ws.step()
    before = ws.readouts()
    {
        "step": ws.step,
        "step_back": ws.step_back,
        "step_update": ws.step_update,
        "reset": ws.reset,
        "seek": lambda: ws.seek(7),
        "edit": lambda: ws.apply_edit(AddPoints([[0.5, 0.5]], 1)),
        "params": lambda: ws.set_params(eta0=0.5),
        "learner": lambda: ws.set_learner("dual"),
    }[move]()
    after = ws.readouts()
    assert after is not before
    fresh = Workspace(ws.dataset, learner=ws.learner_name, params=ws.all_params())
    fresh.seek(ws.step_count)
    expected = fresh.readouts()
    assert (after.epoch, after.position, after.k, after.status) == (
        expected.epoch, expected.position, expected.k, expected.status)
    np.testing.assert_array_equal(ws.training_margins(), fresh.training_margins())
    np.testing.assert_array_equal(ws.misclassified(), fresh.misclassified())


def test_shared_arrays_are_read_only():
    ws = Workspace(generators.separable(20, seed=0))
    ws.step_update()
    r = ws.readouts()
    for array in (r.w, ws.training_margins(), ws.misclassified()):
        with pytest.raises(ValueError):
            array[0] = 1


def test_lda_margins_are_cached_until_the_data_change():
    ws = Workspace(generators.blobs(30, seed=2), learner="lda")
    m = ws.training_margins()
    assert ws.training_margins() is m
    np.testing.assert_allclose(m, ws.dataset.y * ws.lda.decision_function(ws.dataset.X))
    ws.apply_edit(AddPoints([[0.0, 0.0]], 1))
    assert ws.training_margins().shape == (31,)


def test_a_delivered_bound_replaces_the_cached_readouts():
    ws = Workspace(generators.circles(200, seed=0), learner="dual",
                   params={"dual": {"kernel": "rbf", "gamma": 0.5}})
    ws.defer_expensive = True
    ws.step_update()
    waiting = ws.readouts()
    assert waiting.separable is None
    token, job = ws.pending_theory()
    assert ws.provide_novikoff(token, job())
    done = ws.readouts()
    assert done is not waiting and done.separable is not None
    assert done.bound_text != waiting.bound_text
