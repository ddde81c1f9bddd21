"""A run that starts from a hand-set ``w0, b0``: scikit-learn's ``coef_init`` is the oracle.

The update rule is unchanged: from ``w0`` the weights are bit-identical to
``Perceptron().fit(X, y, coef_init=w0, intercept_init=b0)`` (and to
``SGDClassifier``'s for the other losses), and the log, its checkpoints and
its replay start at ``w0``.
"""

from __future__ import annotations

import warnings

import numpy as np
import pytest
from sklearn.linear_model import Perceptron, SGDClassifier

from perceptron_gui.core import DualPerceptron, PrimalPerceptron
from perceptron_gui.core.learners import _log

from .test_perceptron import separable


def _sk_perceptron(X, y, epochs, w0, b0, fit_intercept=True):
    sk = Perceptron(shuffle=False, eta0=1.0, tol=None, penalty=None, max_iter=epochs,
                    fit_intercept=fit_intercept)
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")  # max_iter reached: the epochs asked for
        return sk.fit(X, y, coef_init=np.array([w0]), intercept_init=np.array([b0]))


STARTS = [((3.0, -2.5), 4.0), ((-7.25, 0.5), -11.0), ((0.1, 0.2), 0.0), ((40.0, 40.0), -3.0)]


@pytest.mark.parametrize("seed", range(6))
@pytest.mark.parametrize("start", STARTS)
def test_from_w0_bit_identical_to_sklearn_coef_init(backend, seed, start):
    X, y = separable(150, 0.05, seed, offset=(4.0, -3.0))
    w0, b0 = start
    ours = PrimalPerceptron(max_iter=100_000).fit(X, y, coef_init=w0, intercept_init=b0)
    assert ours.converged_
    ref = _sk_perceptron(X, y, ours.n_epochs_, w0, b0)
    assert np.array_equal(ours.coef_, ref.coef_)
    assert np.array_equal(ours.intercept_, ref.intercept_)
    zero = PrimalPerceptron(max_iter=100_000).fit(X, y)
    assert not np.array_equal(zero.coef_, ours.coef_)  # the start made a difference


def test_from_w0_without_intercept_bit_identical(backend):
    X, y = separable(200, 0.05, 3)
    ours = PrimalPerceptron(fit_intercept=False, max_iter=10_000).fit(X, y, coef_init=[-5.0, 2.0])
    ref = _sk_perceptron(X, y, ours.n_epochs_, (-5.0, 2.0), 0.0, fit_intercept=False)
    assert np.array_equal(ours.coef_, ref.coef_)
    assert ours.intercept_[0] == 0.0


@pytest.mark.parametrize("loss,eta", [("hinge", 0.05), ("log_loss", 0.1)])
def test_sgd_losses_from_w0_match_sgdclassifier(loss, eta):
    X, y = separable(120, 0.1, 1)
    w0, b0 = np.array([1.5, -0.75]), 0.5
    ours = PrimalPerceptron(loss=loss, eta0=eta, max_iter=4).fit(X, y, w0, b0)
    sk = SGDClassifier(loss=loss, penalty=None, learning_rate="constant", eta0=eta,
                       shuffle=False, tol=None, max_iter=ours.n_epochs_)
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        sk.fit(X, y, coef_init=w0[None], intercept_init=[b0])
    np.testing.assert_allclose(ours.coef_, sk.coef_, rtol=1e-9, atol=0)
    np.testing.assert_allclose(ours.intercept_, sk.intercept_, rtol=1e-9, atol=0)
    if loss == "hinge":
        assert np.array_equal(ours.coef_, sk.coef_)


def test_the_run_starts_at_w0_and_seeks_back_to_it():
    X, y = separable(80, 0.05, 2)
    w0, b0 = np.array([2.0, -1.0]), 3.0
    p = PrimalPerceptron(max_iter=1000).start(X, y, coef_init=w0, intercept_init=b0)
    assert np.array_equal(p.coef_[0], w0) and p.intercept_[0] == b0
    assert np.array_equal(p.start_weights[0], w0) and p.start_weights[1] == b0
    first = p.step_update()
    assert np.array_equal(first.w_before, w0) and first.b_before == b0
    assert first.margin == pytest.approx(y[first.index] * (X[first.index] @ w0 + b0))
    p.run_to_end()
    end = p.coef_.copy()
    p.seek(0)
    assert np.array_equal(p.coef_[0], w0) and p.intercept_[0] == b0
    np.testing.assert_allclose(p.training_margins(), np.where(y > 0, 1, -1) * (X @ w0 + b0))
    p.run_to_end()
    assert np.array_equal(p.coef_, end)


def test_a_thinned_log_replays_from_w0(monkeypatch):
    """Under a tiny budget the log keeps checkpoints; checkpoint 0 is the start, not 0."""
    monkeypatch.setattr(_log, "LOG_BYTES", 4096)
    rng = np.random.default_rng(5)
    X = rng.normal(size=(60, 2))
    y = np.where(rng.random(60) < 0.5, 1, -1)  # not separable: many updates
    w0, b0 = np.array([9.0, -4.0]), 2.5
    p = PrimalPerceptron(max_iter=60).fit(X, y, coef_init=w0, intercept_init=b0)
    assert p.update_log.thinned
    ref = PrimalPerceptron(max_iter=60)
    monkeypatch.setattr(_log, "LOG_BYTES", 1 << 28)
    ref.fit(X, y, coef_init=w0, intercept_init=b0)
    for k in (0, 1, 7, len(ref.update_log) // 2, len(ref.update_log)):
        a, b = p.update_log.state_after(k), ref.update_log.state_after(k)
        assert np.array_equal(a[0], b[0]) and a[1] == b[1]
    assert np.array_equal(p.update_log.rows(0, 5).w, ref.update_log.rows(0, 5).w)


def test_a_dense_log_starts_at_w0():
    X, y = separable(50, 0.1, 4)
    w0, b0 = np.array([-1.0, 0.5]), -0.25
    p = PrimalPerceptron(loss="hinge", eta0=0.1, max_iter=3).start(X, y, w0, b0)
    assert np.array_equal(p.update_log.state_after(0)[0], w0)
    p.run_to_end()
    end = (p.coef_.copy(), p.intercept_.copy())
    p.seek(0)
    assert np.array_equal(p.coef_[0], w0) and p.intercept_[0] == b0
    p.seek(37)
    ref = PrimalPerceptron(loss="hinge", eta0=0.1, max_iter=3).start(X, y, w0, b0)
    for _ in range(37):
        ref.step()
    assert np.array_equal(p.coef_, ref.coef_) and p.intercept_[0] == ref.intercept_[0]
    p.run_to_end()
    assert np.array_equal(p.coef_, end[0])


@pytest.mark.parametrize("coef,intercept,match", [
    ([1.0], 0.0, "2 entries"),
    ([np.inf, 0.0], 0.0, "finite"),
    ([0.0, 0.0], np.nan, "finite"),
    ([0.0, 0.0], [1.0, 2.0], "one number"),
])
def test_a_bad_start_is_refused(coef, intercept, match):
    X, y = separable(20, 0.1, 0)
    with pytest.raises(ValueError, match=match):
        PrimalPerceptron().start(X, y, coef_init=coef, intercept_init=intercept)


def test_no_bias_start_without_an_intercept_and_no_start_for_the_dual():
    X, y = separable(20, 0.1, 0)
    with pytest.raises(ValueError, match="without an intercept"):
        PrimalPerceptron(fit_intercept=False).start(X, y, [1.0, 0.0], 1.0)
    with pytest.raises(ValueError, match="alpha = 0"):
        DualPerceptron().start(X, y, [1.0, 0.0], 0.0)
    assert DualPerceptron().start(X, y, [0.0, 0.0], 0.0).step_count == 0


def test_the_update_table_of_a_run_from_w0_starts_at_w0():
    from perceptron_gui.core import report

    X, y = separable(60, 0.1, 6)
    w0, b0 = np.array([-3.0, 2.0]), 1.25
    p = PrimalPerceptron(max_iter=1000).start(X, y, w0, b0)
    p.run_to_end()
    rows = list(report.update_rows(p))
    assert len(rows) > 2
    np.testing.assert_array_equal(rows[0].w_before, w0)
    assert rows[0].b_before == b0
    single = report.update_row(p, 0)
    np.testing.assert_array_equal(single.w_before, w0) and single.b_before == b0
    log = p.update_log.rows()
    for u in range(1, len(rows)):
        np.testing.assert_array_equal(rows[u].w_before, log.w[u - 1])
