"""Novikoff's bound under both rules for a point on the boundary (``tie``).

A mistake has ``y f(x) <= 0`` under both rules, which is all the proof uses,
so on separable data either run makes at most ``(R/γ)²`` updates and the
proof's two inequalities hold at every update.  The data are small integers:
from ``w = 0`` every ``f(x)`` is 0, and later states put samples exactly on
the boundary often, where the two rules part.
"""

from __future__ import annotations

import numpy as np
from hypothesis import HealthCheck, assume, given, settings
from hypothesis import strategies as st

from perceptron_gui.core import PrimalPerceptron, theory
from perceptron_gui.core.learners import DualPerceptron, ties


@st.composite
def integer_separable_sets(draw, fit_intercept: bool):
    """Integer points labelled by an integer line ``a·x + c`` (through 0 without a bias),
    none on that line: strictly separable, with ties along the run."""
    a = np.array([draw(st.integers(-3, 3)), draw(st.integers(-3, 3))])
    assume(a.any())
    c = draw(st.integers(-4, 4)) if fit_intercept else 0
    n = draw(st.integers(2, 30))
    coords = st.lists(st.tuples(st.integers(-6, 6), st.integers(-6, 6)), min_size=n,
                      max_size=n)
    X = np.array(draw(coords), dtype=float)
    score = X @ a + c
    keep = score != 0
    X, score = X[keep], score[keep]
    y = np.where(score > 0, 1, -1)
    assume(len(y) >= 2 and (y > 0).any() and (y < 0).any())
    return X, y


def check_run(learner, X, y, fit_intercept: bool, proof: bool) -> None:
    nov = theory.novikoff(X, y, fit_intercept=fit_intercept)
    assert nov.separable
    assert learner.converged_
    assert learner.n_updates_ <= nov.bound * (1 + 1e-9)
    if proof:
        log = learner.update_log.rows()
        trace = theory.proof_trace(log.w, log.b, w_star=nov.w_star, gamma=nov.margin,
                                   radius=nov.radius, eta0=1.0, fit_intercept=fit_intercept)
        rel = 1e-9
        assert np.all(trace.dot >= trace.lower * (1 - rel) - 1e-12 * trace.upper ** 0.5)
        assert np.all(trace.norm2 <= trace.upper * (1 + rel))


SETTINGS = settings(max_examples=60, deadline=None, derandomize=True,
                    suppress_health_check=[HealthCheck.too_slow, HealthCheck.filter_too_much])


@SETTINGS
@given(data=st.data(), tie=st.sampled_from(ties.TIES), fit_intercept=st.booleans(),
       order=st.sampled_from(["cyclic", "random"]))
def test_the_primal_run_keeps_the_bound_and_the_proof_under_either_rule(
        data, tie, fit_intercept, order):
    X, y = data.draw(integer_separable_sets(fit_intercept))
    p = PrimalPerceptron(tie=tie, order=order, random_state=3, fit_intercept=fit_intercept,
                         max_iter=100_000).fit(X, y)
    check_run(p, X, y, fit_intercept, proof=True)
    assert np.all(ties.correct(y * p.decision_function(X), y, tie == "positive"))


@SETTINGS
@given(data=st.data(), tie=st.sampled_from(ties.TIES), fit_intercept=st.booleans())
def test_the_dual_run_keeps_the_bound_under_either_rule(data, tie, fit_intercept):
    X, y = data.draw(integer_separable_sets(fit_intercept))
    d = DualPerceptron(tie=tie, kernel="poly", degree=1, gamma=1.0, coef0=0.0,
                       fit_intercept=fit_intercept, max_iter=100_000).fit(X, y)
    check_run(d, X, y, fit_intercept, proof=False)
    assert np.array_equal(d.predict(X), y)
    p = PrimalPerceptron(tie=tie, fit_intercept=fit_intercept, max_iter=100_000).fit(X, y)
    assert d.update_log.rows().index.tolist() == p.update_log.rows().index.tolist()


def test_the_two_rules_part_on_integer_data_from_w_zero():
    # every f(x) is 0 at w = 0: the default errs on the first sample, sign(0) = +1 on
    # the first −1 sample only
    X = np.array([[2.0, 1.0], [-1.0, -2.0], [1.0, 3.0]])
    y = np.array([1, -1, 1])
    first = {tie: PrimalPerceptron(tie=tie).fit(X, y).update_log.rows().index[0]
             for tie in ties.TIES}
    assert first == {"mistake": 0, "positive": 1}
