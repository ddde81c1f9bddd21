"""A workspace of m classes under every learner of m classes: its numbers are the learner's."""

from __future__ import annotations

import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from perceptron_gui.core.dataset import Dataset
from perceptron_gui.core.learners import registry
from perceptron_gui.core.learners.multiclass_perceptron import MulticlassPerceptron
from perceptron_gui.core.learners.primal import PrimalPerceptron
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


#: Three groups side by side (the demo one-vs-rest-gaps): the middle one is not
#: linearly separable from the other two.
SIDE_BY_SIDE = (np.array([[-2.1, -0.6], [-2.8, 0.3], [-3.2, 0.5], [-3.9, 0.5], [-3.4, 2.1],
                          [-2.9, 0.4], [-0.1, -0.5], [-0.5, -0.4], [0.2, -0.3], [0.4, -0.3],
                          [0.0, 0.5], [0.2, -0.4], [2.9, 0.6], [3.9, 0.3], [2.9, 0.9],
                          [2.6, 0.3], [3.4, 0.7], [3.0, 0.7]]), np.repeat([0, 1, 2], 6))


def test_the_multiclass_perceptron_steps_to_its_fit_and_one_vs_rest_says_its_run():
    X, y = SIDE_BY_SIDE
    ws = Workspace(Dataset(X, y, classes=(0, 1, 2)), "multiclass_perceptron")
    assert ws.capabilities.class_lines and ws.capabilities.steps and ws.running
    first = ws.step()
    assert first.mistake and ws.readouts().last_update.splitlines() == [
        "μ = w_0·x̃ − w_1·x̃ = 0.00 ≤ 0",
        "w_0 ← (0.00, 0.00, 0.00) + (−2.10, −0.60, 1.00) = (−2.10, −0.60, 1.00)",
        "w_1 ← (0.00, 0.00, 0.00) − (−2.10, −0.60, 1.00) = (2.10, 0.60, −1.00)"]
    ws.run_to_end()
    reference = MulticlassPerceptron().fit(X, y)
    np.testing.assert_array_equal(ws.learner.coef_, reference.coef_)
    np.testing.assert_array_equal(ws.learner.intercept_, reference.intercept_)
    assert ws.misclassified().size == 0 and ws.readouts().k == 8
    ws.set_learner("one_vs_rest")  # the middle class's perceptron never converges
    assert ws.readouts().status == ("One-vs-rest perceptron fitted: 3,760 updates; 1 of 3 "
                                    "perceptrons never had an epoch without a mistake")


def test_with_two_classes_the_multiclass_perceptron_is_the_perceptron_at_twice_the_rate():
    X, y = SIDE_BY_SIDE
    keep = y != 1
    X, y = X[keep], np.where(y[keep] == 2, 1, -1)
    ws = Workspace(Dataset(X, y), "multiclass_perceptron")
    assert not ws.multiclass and ws.running
    ws.run_to_end()
    binary = PrimalPerceptron(eta0=2.0).fit(X, y)
    np.testing.assert_array_equal(ws.learner.coef_, binary.coef_)
    np.testing.assert_array_equal(ws.learner.intercept_, binary.intercept_)
    assert ws.readouts().k == binary.n_updates_ and ws.misclassified().size == 0
    # its margins are the binary functional margins y·f(x)
    np.testing.assert_allclose(ws.training_margins(), y * binary.decision_function(X),
                               rtol=1e-12, atol=1e-12)
