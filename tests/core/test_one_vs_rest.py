"""One against the rest equals scikit-learn's Perceptron and SGDClassifier on m classes."""

from __future__ import annotations

import warnings

import numpy as np
import pytest

from perceptron_gui.core.learners.lda import LDA
from perceptron_gui.core.learners.one_vs_rest import OneVsRest
from perceptron_gui.core.learners.primal import PrimalPerceptron


def blobs(m: int, n: int, seed: int, spread: float = 1.0):
    """``n`` points around ``m`` centres on a circle of radius 4, labels ``0 … m − 1``."""
    rng = np.random.default_rng(seed)
    y = rng.integers(0, m, n)
    angles = 2 * np.pi * np.arange(m) / m
    centres = 4 * np.column_stack([np.cos(angles), np.sin(angles)]) + [3.0, -2.0]
    return centres[y] + spread * rng.normal(size=(n, 2)), y


def _sklearn(loss, X, y, eta, epochs):
    from sklearn.linear_model import Perceptron, SGDClassifier

    if loss == "perceptron":
        sk = Perceptron(shuffle=False, eta0=eta, tol=None, penalty=None, max_iter=epochs)
    else:
        sk = SGDClassifier(loss=loss, penalty=None, learning_rate="constant", eta0=eta,
                           shuffle=False, tol=None, max_iter=epochs)
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")  # max_iter reached: the epochs asked for
        return sk.fit(X, y)


@pytest.mark.parametrize("m", [3, 5, 8])
@pytest.mark.parametrize("seed", range(3))
@pytest.mark.parametrize(("loss", "eta", "epochs"), [("perceptron", 1.0, 30),
                                                      ("hinge", 0.05, 8)])
def test_bit_for_bit_scikit_learns_one_against_the_rest(m, seed, loss, eta, epochs):
    X, y = blobs(m, 60 * m, seed)
    ours = OneVsRest(PrimalPerceptron(loss=loss, eta0=eta, max_iter=epochs)).fit(X, y)
    sk = _sklearn(loss, X, y, eta, epochs)
    assert ours.coef_.shape == (m, 2) and np.array_equal(ours.classes_, sk.classes_)
    assert np.array_equal(ours.coef_, sk.coef_)
    assert np.array_equal(ours.intercept_, sk.intercept_)
    assert np.array_equal(ours.decision_function(X), sk.decision_function(X))
    assert np.array_equal(ours.predict(X), sk.predict(X))


def test_two_classes_are_one_binary_problem_as_in_scikit_learn():
    X, y = blobs(2, 80, 4)
    ours = OneVsRest(PrimalPerceptron(max_iter=50)).fit(X, y + 5)
    sk = _sklearn("perceptron", X, y + 5, 1.0, 50)
    assert len(ours.estimators_) == 1 and ours.decision_function(X).shape == (80,)
    assert np.array_equal(ours.coef_, sk.coef_) and np.array_equal(ours.predict(X), sk.predict(X))
    assert (ours.claims(X) == 1).all()


def test_claims_count_the_learners_that_say_a_point_is_theirs():
    X, y = blobs(3, 300, 1, spread=1.5)
    ovr = OneVsRest(LDA()).fit(X, y)
    counts = ovr.claims(X)
    scores = ovr.decision_function(X)
    assert np.array_equal(counts, (scores > 0).sum(axis=1))
    grid = np.mgrid[-10:16:0.25, -14:10:0.25].reshape(2, -1).T
    claimed = ovr.claims(grid)
    assert (claimed == 0).any()  # the gaps one against the rest leaves
    assert set(np.unique(claimed)) <= {0, 1, 2, 3}


def test_fewer_than_two_classes_is_refused():
    with pytest.raises(ValueError, match="two classes at least; y has 1"):
        OneVsRest(PrimalPerceptron()).fit(np.zeros((3, 2)), [1, 1, 1])


def test_the_registered_learner_is_scikit_learns_perceptron_on_m_classes():
    from perceptron_gui.core.dataset import Dataset
    from perceptron_gui.core.learners import registry
    from perceptron_gui.core.workspace import Workspace

    X, y = blobs(4, 200, 7, spread=1.6)  # overlapping: every class runs all its epochs
    ws = Workspace(Dataset(X, y, classes=(0, 1, 2, 3)), "one_vs_rest")
    defaults = registry.DEFAULT_PARAMS["one_vs_rest"]
    assert defaults["order"] == "cyclic" and ws.multiclass and ws.capabilities.claims
    sk = _sklearn("perceptron", X, y, defaults["eta0"], defaults["max_iter"])
    assert np.array_equal(ws.learner.coef_, sk.coef_)
    assert np.array_equal(ws.learner.intercept_, sk.intercept_)
    assert np.array_equal(ws.learner.predict(X), sk.predict(X))
    assert ws.learner.n_updates_ == sum(e.n_updates_ for e in ws.learner.estimators_) > 0
