"""The multiclass perceptron: its rule, its run and its mistake bound."""

from __future__ import annotations

import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from perceptron_gui.core.learners import multiclass_perceptron
from perceptron_gui.core.learners.multiclass_perceptron import (
    MulticlassPerceptron,
    mistake_bound,
    rival_of,
)
from perceptron_gui.core.learners.primal import PrimalPerceptron


def separable(m: int, n: int, seed: int, gap: float = 0.3):
    """Points whose class is the argmax of a random ``U`` (shape (m, 3)), each at least ``gap``
    from a tie; returns X, the classes 0 … m − 1, and U."""
    rng = np.random.default_rng(seed)
    U = rng.normal(size=(m, 3))
    X = rng.uniform(-3, 3, size=(8 * n, 2)) + rng.normal(size=2) * 2
    scores = np.column_stack([X, np.ones(len(X))]) @ U.T
    top = np.sort(scores, axis=1)
    keep = top[:, -1] - top[:, -2] >= gap
    X, y = X[keep][:n], np.argmax(scores[keep], axis=1)[:n]
    return X, y, U


def stepped(model, X, y):
    """``model`` started on ``(X, y)`` and stepped one step at a time to the end of its run."""
    model.start(X, y)
    while model.step() is not None:
        pass
    return model


def test_every_update_is_the_rule_written_out():
    X, y, _ = separable(4, 80, 0)
    y = np.searchsorted(np.unique(y), y)  # the classes present, 0 … m − 1
    m = int(y.max()) + 1
    model = MulticlassPerceptron(eta0=0.5, bias_scale=2.0).start(X, y)
    W = np.zeros((m, 3))
    Z = np.column_stack([X, np.full(len(X), 2.0)])
    while (ev := model.step()) is not None:
        z = Z[ev.index]
        scores = (W[:, 0] * z[0] + W[:, 1] * z[1]) + W[:, 2] * z[2]  # feature by feature
        others = [k for k in range(m) if k != y[ev.index]]
        rival = max(others, key=lambda k: (scores[k], -k))
        margin = scores[y[ev.index]] - scores[rival]
        assert ev.label == y[ev.index] and ev.margin == margin and ev.mistake == (margin <= 0)
        if margin <= 0:
            assert rival_of(W, z, y[ev.index]) == rival
            W[y[ev.index]] += 0.5 * z
            W[rival] -= 0.5 * z
        np.testing.assert_array_equal(model.weights_after(ev.k), W)
        assert ev.w_after is None  # one w a class: the event carries none
    assert model.converged_ and (model.predict(X) == y).all()
    np.testing.assert_array_equal(model.intercept_, 2.0 * W[:, 2])
    np.testing.assert_array_equal(model.training_margins() > 0, np.ones(len(y), bool))


def test_from_zero_every_sample_is_a_mistake():
    X, y, _ = separable(3, 30, 1)
    first = MulticlassPerceptron().start(X, y).step()
    assert first.mistake and first.margin == 0.0 and first.k == 1


def test_two_classes_are_the_binary_perceptron_with_twice_the_rate():
    X, y, _ = separable(2, 120, 2)
    multi = MulticlassPerceptron().fit(X, y)
    binary = PrimalPerceptron(eta0=2.0, max_iter=1000).fit(X, np.where(y == 1, 1, -1))
    W, b = multi.scores_
    np.testing.assert_array_equal(multi.coef_, binary.coef_)  # as scikit-learn's: (1, d)
    np.testing.assert_array_equal(multi.intercept_, binary.intercept_)
    assert np.array_equal(W[1] - W[0], binary.coef_[0]) and b[1] - b[0] == binary.intercept_[0]
    np.testing.assert_allclose(multi.decision_function(X), binary.decision_function(X),
                               rtol=1e-13, atol=1e-13)
    np.testing.assert_array_equal(multi.predict(X), np.where(binary.predict(X) > 0, 1, 0))
    assert multi.n_updates_ == binary.n_updates_


def test_seek_rewinds_and_stepping_replays_the_same_run():
    X, y, _ = separable(5, 60, 3)
    model = MulticlassPerceptron(order="random", random_state=7).fit(X, y)
    coef, taken = model.coef_, model.step_count
    events = [model.event(t) for t in range(1, taken + 1)]
    model.seek(10)
    np.testing.assert_array_equal(model.weights_after(events[9].k)[:, :2], model.scores_[0])
    again = [model.step() for _ in range(taken - 10)]
    assert again == events[10:] and np.array_equal(model.coef_, coef)
    assert model.step() is None and model.finished
    back = model.step_back()
    assert back == events[-1] and model.step_count == taken - 1


def test_a_thinned_log_replays_every_state_bit_for_bit(monkeypatch):
    from perceptron_gui.core.learners import _log

    X, y, _ = separable(3, 200, 4)
    noisy = y.copy()
    noisy[::5] = (noisy[::5] + 1) % 3  # never converges: many updates
    full = MulticlassPerceptron(max_iter=60).fit(X, noisy)
    monkeypatch.setattr(_log, "LOG_BYTES", 64 * 1024)
    small = MulticlassPerceptron(max_iter=60).fit(X, noisy)
    assert small.update_log.thinned and not full.update_log.thinned
    assert small.n_updates_ == full.n_updates_
    for k in np.linspace(0, full.n_updates_, 37).astype(int):
        np.testing.assert_array_equal(small.weights_after(k), full.weights_after(k))
    for t in (1, 977, 5_000, full.step_count):
        small.seek(t)
        full.seek(t)
        assert small.event(t) == full.event(t)
        np.testing.assert_array_equal(small.coef_, full.coef_)


@pytest.mark.parametrize("force", ["compiled", "numpy"])
@pytest.mark.parametrize("order", ["cyclic", "random"])
def test_fit_is_the_stepped_run_bit_for_bit(monkeypatch, force, order):
    # non-separable data (every epoch has updates) and separable data (it converges)
    X, y, _ = separable(4, 90, 5)
    noisy = y.copy()
    noisy[::7] = (noisy[::7] + 1) % 4
    for labels, epochs in ((y, 1000), (noisy, 40)):
        params = {"order": order, "random_state": 3, "max_iter": epochs, "eta0": 0.7}
        monkeypatch.setattr(multiclass_perceptron, "FORCE", force)  # fit's backend
        fast = MulticlassPerceptron(**params).fit(X, labels)
        monkeypatch.setattr(multiclass_perceptron, "FORCE", "numpy")  # each step in Python
        slow = stepped(MulticlassPerceptron(**params), X, labels)
        assert np.array_equal(fast.scores_[0], slow.scores_[0])
        assert np.array_equal(fast.scores_[1], slow.scores_[1])
        assert (fast.n_updates_, fast.n_epochs_, fast.converged_) == (
            slow.n_updates_, slow.n_epochs_, slow.converged_)
        assert fast.converged_ == (labels is y)
    assert fast.n_updates_ == fast.update_log.count_before(fast.step_count)


@pytest.mark.parametrize(("params", "match"), [
    ({"order": "batch"}, "order must be"), ({"eta0": 0}, "eta0 must be"),
    ({"max_iter": 0}, "max_iter must be"),
])
def test_bad_parameters_are_named(params, match):
    with pytest.raises(ValueError, match=match):
        MulticlassPerceptron(**params).fit(np.zeros((2, 2)), [0, 1])


def test_a_single_class_is_refused():
    with pytest.raises(ValueError, match="two classes at least"):
        MulticlassPerceptron().fit(np.zeros((2, 2)), [3, 3])


@settings(max_examples=60, deadline=None)
@given(st.integers(2, 8), st.integers(0, 10**6), st.floats(0.05, 1.0))
def test_the_updates_never_exceed_the_bound(m, seed, gap):
    X, y, U = separable(m, 40 * m, seed, gap)
    if len(np.unique(y)) < 2:
        return
    classes = np.unique(y)
    codes = np.searchsorted(classes, y)
    model = MulticlassPerceptron(max_iter=100_000).fit(X, y)
    assert model.converged_
    assert model.n_updates_ <= mistake_bound(X, codes, U[classes])
