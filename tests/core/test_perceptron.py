"""Primal and dual perceptron: exactness against scikit-learn and the step API."""

from __future__ import annotations

import numpy as np
import pytest
from sklearn.linear_model import Perceptron

from perceptron_gui.core import DualPerceptron, PrimalPerceptron
from perceptron_gui.core.learners import _scan


def separable(n, margin, seed, offset=(0.0, 0.0), scale=3.0):
    """Points around a random line through ``offset``, none closer than ``margin``."""
    rng = np.random.default_rng(seed)
    angle = rng.uniform(0, 2 * np.pi)
    normal = np.array([np.cos(angle), np.sin(angle)])
    X = rng.normal(size=(4 * n, 2)) * scale
    d = X @ normal
    X = X[np.abs(d) > margin][:n]
    y = np.where(X @ normal > 0, 1, -1)
    return X + np.asarray(offset, float), y


def sklearn_perceptron(X, y, epochs, fit_intercept=True):
    return Perceptron(
        shuffle=False, eta0=1.0, tol=None, penalty=None, max_iter=epochs,
        fit_intercept=fit_intercept,
    ).fit(X, y)


@pytest.mark.parametrize("seed", range(12))
@pytest.mark.parametrize("offset", [(0.0, 0.0), (6.0, -4.0), (15.0, 10.0)])
def test_bit_identical_to_sklearn(backend, seed, offset):
    X, y = separable(150, 0.05, seed, offset)
    ours = PrimalPerceptron(max_iter=100_000).fit(X, y)
    assert ours.converged_
    ref = sklearn_perceptron(X, y, ours.n_epochs_)
    assert np.array_equal(ours.coef_, ref.coef_)
    assert np.array_equal(ours.intercept_, ref.intercept_)
    np.testing.assert_array_equal(ours.predict(X), y)


def test_bit_identical_on_a_long_off_centre_run(backend):
    X, y = separable(3000, 0.001, 7, offset=(15.0, -9.0))
    ours = PrimalPerceptron(max_iter=100_000).fit(X, y)
    assert ours.converged_ and ours.n_updates_ > 2000
    ref = sklearn_perceptron(X, y, ours.n_epochs_)
    assert np.array_equal(ours.coef_, ref.coef_)
    assert np.array_equal(ours.intercept_, ref.intercept_)


def test_bit_identical_without_intercept(backend):
    X, y = separable(200, 0.05, 3)  # through the origin
    ours = PrimalPerceptron(fit_intercept=False, max_iter=10_000).fit(X, y)
    ref = sklearn_perceptron(X, y, ours.n_epochs_, fit_intercept=False)
    assert ours.intercept_[0] == 0.0
    assert np.array_equal(ours.coef_, ref.coef_)


def test_backends_agree_on_random_order():
    X, y = separable(5000, 0.002, 11, offset=(3.0, 2.0))
    runs = []
    for force in ("numpy", "compiled"):
        if force == "compiled" and not _scan.compiled_available():
            pytest.skip("numba not available")
        _scan.FORCE = force
        try:
            p = PrimalPerceptron(order="random", random_state=5, max_iter=10_000).fit(X, y)
        finally:
            _scan.FORCE = None
        runs.append(p)
    a, b = runs
    assert np.array_equal(a.history.updates.rows().index, b.history.updates.rows().index)
    assert np.array_equal(a.coef_, b.coef_) and np.array_equal(a.intercept_, b.intercept_)


def test_multifeature_input_matches_sklearn(backend):
    rng = np.random.default_rng(0)
    X = rng.normal(size=(300, 5))
    w = rng.normal(size=5)
    X = X[np.abs(X @ w - 0.3) > 0.1]
    y = np.where(X @ w - 0.3 > 0, "yes", "no")
    ours = PrimalPerceptron(max_iter=10_000).fit(X, y)
    ref = sklearn_perceptron(X, y, ours.n_epochs_)
    assert list(ours.classes_) == ["no", "yes"]
    assert np.array_equal(ours.coef_, ref.coef_)
    assert np.array_equal(ours.intercept_, ref.intercept_)
    np.testing.assert_array_equal(ours.predict(X), ref.predict(X))


def test_first_step_from_zero_is_a_mistake():
    X = np.array([[1.0, 2.0], [-1.0, -1.0]])
    p = PrimalPerceptron().start(X, [1, -1])
    ev = p.step()
    assert ev.mistake and ev.margin == 0.0 and ev.k == 1
    assert ev.index == 0 and ev.label == 1 and ev.epoch == 0 and ev.position == 0
    np.testing.assert_array_equal(ev.w_before, [0.0, 0.0])
    np.testing.assert_array_equal(ev.w_after, [1.0, 2.0])
    assert ev.b_before == 0.0 and ev.b_after == 1.0
    with pytest.raises(AttributeError):
        ev.margin = 1.0  # events are immutable


@pytest.mark.parametrize("order", ["cyclic", "random"])
def test_step_by_step_equals_fit(backend, order):
    X, y = separable(60, 0.05, 4, offset=(2.0, 1.0))
    fitted = PrimalPerceptron(order=order, random_state=3, max_iter=5000).fit(X, y)
    stepped = PrimalPerceptron(order=order, random_state=3, max_iter=5000).start(X, y)
    events = []
    while (ev := stepped.step()) is not None:
        events.append(ev)
    assert stepped.finished and stepped.converged_
    assert np.array_equal(stepped.coef_, fitted.coef_)
    assert np.array_equal(stepped.intercept_, fitted.intercept_)
    assert stepped.n_updates_ == fitted.n_updates_ == sum(e.mistake for e in events)
    assert stepped.n_epochs_ == fitted.n_epochs_
    assert len(events) == len(fitted.history) == fitted.n_epochs_ * len(X)
    # the events rebuilt from the fitted run's log equal the stepped ones
    for a, b in zip(events, fitted.history, strict=True):
        assert (a.step, a.index, a.mistake, a.k, a.margin) == (b.step, b.index, b.mistake, b.k,
                                                               b.margin)
        assert np.array_equal(a.w_after, b.w_after) and a.b_after == b.b_after
    # every event is consistent: mistake iff margin <= 0, margin recomputed exactly
    for e in events:
        assert e.mistake == (e.margin <= 0)
        x = X[e.index]
        margin = e.label * (x[0] * e.w_before[0] + x[1] * e.w_before[1] + e.b_before)
        assert margin == e.margin
    # the last epoch is clean and each epoch visits every sample once
    assert not any(e.mistake for e in events[-len(X):])
    for ep in range(fitted.n_epochs_):
        idx = sorted(e.index for e in events if e.epoch == ep)
        assert idx == list(range(len(X)))


def test_random_order_is_reproducible_and_seed_dependent():
    X, y = separable(80, 0.05, 9)
    a = PrimalPerceptron(order="random", random_state=1).fit(X, y)
    b = PrimalPerceptron(order="random", random_state=1).fit(X, y)
    c = PrimalPerceptron(order="random", random_state=2).fit(X, y)
    assert np.array_equal(a.history.updates.rows().index, b.history.updates.rows().index)
    assert not np.array_equal(a.history.updates.rows(0, 20).index,
                              c.history.updates.rows(0, 20).index)
    first_epoch = [e.index for e in a.history[: len(X)]]
    assert first_epoch != list(range(len(X))) and sorted(first_epoch) == list(range(len(X)))


def test_step_update_step_epoch_step_back_and_seek(backend):
    X, y = separable(40, 0.05, 2, offset=(1.0, -1.0))
    ref = PrimalPerceptron().fit(X, y)
    upd_steps = list(ref.history.updates.rows().step)
    p = PrimalPerceptron().start(X, y)
    for s in upd_steps[:5]:
        ev = p.step_update()
        assert ev.mistake and ev.step == s and p.step_count == s
    ev = p.step_epoch()
    assert p.step_count == len(X) and ev.position == len(X) - 1
    ev = p.step_epoch()
    assert p.step_count == 2 * len(X)
    # stepping back restores the exact earlier state
    before = p.event(p.step_count - 1)
    undone = p.step_back()
    assert undone.step == 2 * len(X)
    assert np.array_equal(p.coef_[0], before.w_after) and p.intercept_[0] == before.b_after
    p.seek(0)
    assert p.step_count == 0 and p.n_updates_ == 0 and not p.coef_.any()
    assert p.step_back() is None
    p.seek(upd_steps[-1])
    assert p.n_updates_ == len(upd_steps)
    p.run_to_end()
    assert p.finished and p.step() is None and p.step_update() is None
    assert np.array_equal(p.coef_, ref.coef_)
    # advance in slices reaches the same end
    q = PrimalPerceptron().start(X, y)
    while q.advance(7):
        pass
    assert q.finished and np.array_equal(q.coef_, ref.coef_)


def test_non_separable_stops_at_max_epochs():
    X = np.array([[0.0, 0.0], [1.0, 1.0], [0.0, 1.0], [1.0, 0.0]])
    y = np.array([1, 1, -1, -1])  # XOR
    p = PrimalPerceptron(max_iter=25).fit(X, y)
    assert not p.converged_ and p.finished
    assert p.n_epochs_ == 25 and p.step_count == 100
    assert all(m > 0 for m in p.mistakes_per_epoch())


def test_identical_point_with_both_labels_never_converges():
    X = np.array([[1.0, 1.0], [1.0, 1.0]])
    p = PrimalPerceptron(max_iter=10).fit(X, [1, -1])
    assert not p.converged_ and p.n_updates_ == 20


def test_learning_rate_only_scales_the_weights(backend):
    X, y = separable(100, 0.02, 6, offset=(2.0, 3.0))
    one = PrimalPerceptron().fit(X, y)
    half = PrimalPerceptron(eta0=0.5).fit(X, y)  # exact power of two
    assert np.array_equal(one.history.updates.rows().index, half.history.updates.rows().index)
    assert np.array_equal(one.coef_ * 0.5, half.coef_)
    odd = PrimalPerceptron(eta0=0.37).fit(X, y)
    assert np.array_equal(one.history.updates.rows().index, odd.history.updates.rows().index)
    np.testing.assert_allclose(odd.coef_, one.coef_ * 0.37, rtol=1e-12)


@pytest.mark.parametrize("c", [0.5, 2.0, 4.0])
def test_bias_is_the_weight_of_a_constant_feature(c):
    """A run with bias_scale c is the run without intercept on (x, c), with b = c * w0."""
    X, y = separable(80, 0.05, 8, offset=(3.0, -2.0))
    ours = PrimalPerceptron(bias_scale=c).fit(X, y)
    Z = np.hstack([X, np.full((len(X), 1), c)])
    aug = PrimalPerceptron(fit_intercept=False).fit(Z, y)
    assert np.array_equal(ours.history.updates.rows().index, aug.history.updates.rows().index)
    assert np.array_equal(ours.coef_[0], aug.coef_[0, :2])
    assert ours.intercept_[0] == c * aug.coef_[0, 2]


def test_bias_scale_changes_the_run():
    X, y = separable(80, 0.05, 8, offset=(3.0, -2.0))
    a = PrimalPerceptron(bias_scale=1.0).fit(X, y)
    b = PrimalPerceptron(bias_scale=10.0).fit(X, y)
    assert a.n_updates_ != b.n_updates_


# -- dual --------------------------------------------------------------------------------
@pytest.mark.parametrize("order", ["cyclic", "random"])
def test_dual_linear_equals_primal_update_by_update(backend, order):
    X, y = separable(120, 0.01, 12, offset=(4.0, 4.0))
    primal = PrimalPerceptron(order=order, random_state=0).fit(X, y)
    dual = DualPerceptron(kernel="linear", order=order, random_state=0).fit(X, y)
    assert np.array_equal(primal.history.updates.rows().step, dual.history.updates.rows().step)
    assert np.array_equal(primal.history.updates.rows().index, dual.history.updates.rows().index)
    assert np.array_equal(primal.history.updates.rows().w, dual.history.updates.rows().w)
    assert np.array_equal(primal.coef_, dual.coef_)
    assert np.array_equal(primal.intercept_, dual.intercept_)
    s = np.where(y == dual.classes_[1], 1.0, -1.0)
    np.testing.assert_allclose((dual.alpha_ * s) @ X, primal.coef_[0], rtol=1e-12, atol=1e-12)
    assert dual.alpha_.sum() == dual.n_updates_
    assert dual.intercept_[0] == (dual.alpha_ * s).sum()


def xor_data():
    rng = np.random.default_rng(0)
    X = rng.uniform(-1, 1, size=(80, 2))
    X = X[np.abs(X).min(axis=1) > 0.15]
    y = np.where(X[:, 0] * X[:, 1] > 0, 1, -1)
    return X, y


@pytest.mark.parametrize("kernel,params", [("rbf", {"gamma": 2.0}), ("poly", {"degree": 2})])
def test_kernel_perceptron_separates_xor(kernel, params):
    X, y = xor_data()
    assert not PrimalPerceptron(max_iter=50).fit(X, y).converged_
    dual = DualPerceptron(kernel=kernel, max_iter=500, **params).fit(X, y)
    assert dual.converged_
    np.testing.assert_array_equal(dual.predict(X), y)
    # decision values of the training points agree with the run's own margins
    f = dual.decision_function(X)
    last = dual.history[-len(X):]
    for e in last:
        assert not e.mistake
        assert np.isclose(e.margin, e.label * f[e.index], rtol=1e-9, atol=1e-9)


def test_kernel_step_back_and_replay_are_exact():
    X, y = xor_data()
    d = DualPerceptron(kernel="rbf", gamma=0.5).start(X, y)
    while d.step() is not None:
        pass
    events = list(d.history)
    n = len(events)
    assert n > 2 * len(X) and d.n_updates_ > 10
    for _ in range(n - 30):
        d.step_back()
    assert d.step_count == 30
    replay = [d.step() for _ in range(n - 30)]
    assert replay == events[30:]
    for e in events:
        assert e.w_before is None and e.mistake == (e.margin <= 0)
    fitted = DualPerceptron(kernel="rbf", gamma=0.5).fit(X, y)
    assert np.array_equal(d.alpha_, fitted.alpha_)
    assert d.intercept_[0] == fitted.intercept_[0]


def test_kernel_rows_are_cached_not_a_gram_matrix(monkeypatch):
    from perceptron_gui.core.learners import dual

    X, y = xor_data()
    monkeypatch.setattr(dual, "KERNEL_CACHE_BYTES", 8 * len(X) * 5)
    d = DualPerceptron(kernel="rbf", gamma=2.0).fit(X, y)
    assert len(d._rows) <= 5
    assert d.converged_


@pytest.mark.parametrize(
    "params,message",
    [
        ({"eta0": 0}, "eta0"),
        ({"eta0": float("nan")}, "eta0"),
        ({"bias_scale": -1.0}, "bias_scale"),
        ({"order": "sorted"}, "order"),
        ({"max_iter": 0}, "max_iter"),
        ({"max_iter": 2.5}, "max_iter"),
        ({"random_state": "x"}, "random_state"),
    ],
)
def test_parameters_are_validated_in_fit(params, message):
    p = PrimalPerceptron(**params)  # stored unchanged
    for k, v in params.items():
        assert getattr(p, k) is v
    with pytest.raises(ValueError, match=message):
        p.fit([[0.0, 0.0], [1.0, 1.0]], [0, 1])


@pytest.mark.parametrize(
    "X,y,message",
    [
        ([[0.0, np.nan], [1.0, 1.0]], [0, 1], "NaN"),
        ([[0.0, np.inf], [1.0, 1.0]], [0, 1], "infinity"),
        ([0.0, 1.0], [0, 1], "2D array"),
        ([[0.0, 0.0], [1.0, 1.0]], [1, 1], "classes"),
        ([[0.0, 0.0], [1.0, 1.0], [2.0, 2.0]], [0, 1, 2], "binary"),
        ([[0.0, 0.0], [1.0, 1.0]], [0, 1, 1], "inconsistent"),
    ],
)
def test_bad_data_is_rejected_with_a_clear_message(X, y, message):
    with pytest.raises(ValueError, match=message):
        PrimalPerceptron().fit(X, y)


def test_dual_kernel_parameters_are_validated():
    with pytest.raises(ValueError, match="kernel"):
        DualPerceptron(kernel="sigmoid").fit([[0.0, 0.0], [1.0, 1.0]], [0, 1])
    with pytest.raises(ValueError, match="gamma"):
        DualPerceptron(kernel="rbf", gamma=0).fit([[0.0, 0.0], [1.0, 1.0]], [0, 1])


def test_unstarted_learner_says_so():
    p = PrimalPerceptron()
    with pytest.raises(ValueError, match="start"):
        p.step()
    with pytest.raises(ValueError, match="not fitted"):
        p.predict([[0.0, 0.0]])


def test_get_set_params_roundtrip():
    p = PrimalPerceptron(bias_scale=2.0, order="random", random_state=4)
    params = p.get_params()
    assert params["bias_scale"] == 2.0 and params["order"] == "random"
    q = PrimalPerceptron().set_params(**params)
    assert q.get_params() == params
    assert "bias_scale=2.0" in repr(p)


@pytest.mark.parametrize("lr", [1e307, 1e308])
def test_overflow_stops_the_run_instead_of_faking_convergence(backend, lr):
    X = np.array([[1e200, 1e200], [-1e200, -3e200], [2e200, -1e200]])
    y = np.array([1, -1, 1])
    p = PrimalPerceptron(eta0=lr, max_iter=50).fit(X, y)
    assert p.diverged_ and not p.converged_ and p.finished


def test_kernel_overflow_stops_the_run():
    X = np.array([[1e10, 0.0], [0.0, 1e10], [-1e10, 0.0]])
    d = DualPerceptron(kernel="poly", degree=12, gamma=1e10).fit(X, [1, -1, 1])
    assert d.diverged_ and not d.converged_


def test_huge_bias_scale_is_rejected():
    with pytest.raises(ValueError, match="bias_scale"):
        PrimalPerceptron(bias_scale=1e308).fit([[0.0, 0.0], [1.0, 1.0]], [0, 1])


@pytest.mark.parametrize("y", [np.array([3, 7, 7, 3, 3]), np.array([0, 1, 1, 0, 0], np.uint8),
                               np.array([-1, 1, 1, -1, -1]), np.array([2.0, 5.0, 5.0, 2.0, 2.0]),
                               np.array(["b", "a", "a", "b", "b"])])
def test_two_labels_are_encoded_as_numpy_unique_sorts_them(y):
    from perceptron_gui.core.learners._base import encode_labels

    classes, signs = encode_labels(y, len(y))
    expected = np.unique(y)
    assert classes.dtype == expected.dtype and np.array_equal(classes, expected)
    np.testing.assert_array_equal(signs, np.where(y == expected[1], 1.0, -1.0))


@pytest.mark.parametrize(("y", "match"), [([4, 4, 4], "greater than one"),
                                          ([0, 1, 2], r"Only binary.*\[0, 1, 2\]")])
def test_one_or_three_integer_labels_are_refused(y, match):
    from perceptron_gui.core.learners._base import encode_labels

    with pytest.raises(ValueError, match=match):
        encode_labels(np.array(y), 3)


def test_mistakes_per_epoch_costs_the_epochs_not_the_updates():
    # the counts of a long run without a copy of its log
    import tracemalloc

    rng = np.random.default_rng(5)
    X = rng.normal(size=(2000, 2))
    y = np.where(rng.random(2000) < 0.5, 1, -1)  # labels at random: never separable
    p = PrimalPerceptron(max_iter=60).fit(X, y)
    steps = np.asarray(p.update_log.rows().step)
    assert len(steps) > 40_000
    tracemalloc.start()
    counts = p.mistakes_per_epoch()
    _, peak = tracemalloc.get_traced_memory()
    tracemalloc.stop()
    np.testing.assert_array_equal(counts, np.bincount((steps - 1) // 2000, minlength=60))
    assert peak < 8 * len(steps) // 4, peak
    p.seek(2000 * 7 + 5)  # part of the 8th epoch
    np.testing.assert_array_equal(p.mistakes_per_epoch(),
                                  np.bincount((steps[steps <= 14005] - 1) // 2000, minlength=8))
