"""A workspace of m classes under every learner of m classes: its numbers are the learner's."""

from __future__ import annotations

import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from perceptron_gui.core.dataset import Dataset
from perceptron_gui.core.learners import registry
from perceptron_gui.core.workspace import Workspace


@st.composite
def class_data(draw):
    m = draw(st.integers(3, 8))
    per = draw(st.lists(st.integers(0, 6), min_size=m, max_size=m))
    seed = draw(st.integers(0, 2**16))
    scale = draw(st.sampled_from([1e-6, 1.0, 1e6]))
    rng = np.random.default_rng(seed)
    X = np.concatenate([rng.normal(size=(k, 2)) + 3 * rng.normal(size=2) for k in per]
                       or [np.empty((0, 2))]) * scale
    y = np.repeat(np.arange(m), per)
    return Dataset(X, y, classes=tuple(range(m)))


@settings(max_examples=40, deadline=None)
@given(data=class_data(), key=st.sampled_from(registry.multiclass()))
def test_margins_mistakes_and_readouts_are_the_learners_or_a_stated_problem(data, key):
    ws = Workspace(data, key)
    r = ws.readouts()  # never raises
    if not ws.has_model:
        assert ws.problem and r.status
        assert ws.training_margins() is None and ws.misclassified().size == 0
        return
    assert ws.multiclass and ws.weights() is None and not ws.capabilities.novikoff
    assert min(data.class_counts()) > 0  # every class has points when a model is drawn
    margins = ws.training_margins()
    wrong = ws.learner.predict(data.X) != data.y
    # a point whose own class scores above every other is right; a tie is a mistake
    assert not (wrong & (margins > 0)).any()
    assert set(ws.misclassified().tolist()) >= set(np.flatnonzero(wrong).tolist())
    assert r.training_error == pytest.approx(ws.misclassified().size / data.n)
