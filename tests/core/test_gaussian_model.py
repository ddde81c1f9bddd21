"""The hand-shaped Gaussian model: exact against the learners, its handles, its samples."""

from __future__ import annotations

import math

import numpy as np
import pytest
from scipy.stats import multivariate_normal

from perceptron_gui.core import QDA, GaussianNB, generators
from perceptron_gui.core.commands import SampleModel, from_dict
from perceptron_gui.core.learners.gaussian_model import GaussianModel
from perceptron_gui.core.learners.lda import LDA
from perceptron_gui.core.workspace import Workspace

LEARNERS = {"lda": LDA, "qda": QDA, "nb": GaussianNB,
            "nb_pooled": lambda: GaussianNB(shared_variance=True)}


@pytest.fixture(scope="module")
def data():
    d = generators.overlapping(300, seed=5)
    G = np.random.default_rng(2).normal(size=(2000, 2)) * 3
    return d.X, d.y, G


@pytest.mark.parametrize("key", sorted(LEARNERS))
def test_made_from_a_fitted_learner_it_is_the_learner(data, key):
    X, y, G = data
    learner = LEARNERS[key]().fit(X, y)
    model = GaussianModel.from_learner(learner)
    f = learner.decision_function(G)
    np.testing.assert_allclose(model.decision_function(G), f, rtol=1e-9, atol=1e-9)
    np.testing.assert_allclose(model.predict_proba(G), learner.predict_proba(G),
                               rtol=1e-9, atol=1e-12)
    np.testing.assert_array_equal(model.predict(G), learner.predict(G))
    assert model.shared == (key in ("lda", "nb_pooled"))
    assert model.diagonal == key.startswith("nb")
    # the axes rebuild the covariances
    for k in range(2):
        u = model.axes(k)
        rebuilt = (u.T * model.scales[k] ** 2) @ u
        np.testing.assert_allclose(rebuilt, model.covariances[k], rtol=1e-12, atol=1e-12)


def _oracle_log_odds(model, X):
    """ln π₊ N(x; μ₊, Σ₊) − ln π₋ N(x; μ₋, Σ₋), from scipy."""
    lp = [math.log(model.priors[k]) + multivariate_normal(model.means[k],
                                                          model.covariances[k]).logpdf(X)
          for k in range(2)]
    return lp[1] - lp[0]


@pytest.mark.parametrize("key", sorted(LEARNERS))
def test_a_moved_model_is_bayes_rule_for_its_gaussians(data, key):
    X, y, G = data
    model = GaussianModel.from_learner(LEARNERS[key]().fit(X, y))
    moved = model.move_handle(0, (-2.0, 1.0)).move_handle(4, (3.0, 0.5)).with_prior(0.3)
    np.testing.assert_allclose(moved.decision_function(G), _oracle_log_odds(moved, G),
                               rtol=1e-9, atol=1e-9)
    assert moved.priors.tolist() == pytest.approx([0.7, 0.3])
    np.testing.assert_array_equal(moved.means[0], [-2.0, 1.0])


def test_the_handles_move_what_they_say():
    model = GaussianModel([[0, 0], [3, 1]], [0.3, -0.5], [[1.0, 0.5], [2.0, 0.7]], [0.5, 0.5])
    H = model.handles()
    assert H.shape == (6, 2)
    np.testing.assert_allclose(H[3], [3, 1])
    # axis ends on the 2σ ellipse: Mahalanobis radius 2
    for k, i in ((0, 1), (0, 2), (1, 4), (1, 5)):
        d = H[i] - model.means[k]
        assert d @ np.linalg.solve(model.covariances[k], d) == pytest.approx(4.0)
    # an axis end dragged: that axis follows it, the other stays perpendicular, same length
    moved = model.move_handle(4, (3.0, 5.0))  # class +1's first axis, straight up, length 4
    np.testing.assert_allclose(moved.handles()[4], [3.0, 5.0], atol=1e-12)
    assert moved.scales[1].tolist() == pytest.approx([2.0, 0.7])
    assert moved.angles[1] == pytest.approx(math.pi / 2)
    np.testing.assert_array_equal(moved.covariances[0], model.covariances[0])  # −1 unchanged
    # the second axis's end: the first axis turns with it
    moved2 = model.move_handle(2, (-1.0, 0.0))
    np.testing.assert_allclose(moved2.handles()[2], [-1.0, 0.0], atol=1e-12)
    assert moved2.scales[0, 0] == pytest.approx(1.0) and moved2.scales[0, 1] == pytest.approx(0.5)
    assert model.move_handle(1, (0.0, 0.0)) is model  # an axis end dropped on its mean


def test_naive_bayes_keeps_its_axes_and_lda_shares_its_covariance():
    nb = GaussianModel([[0, 0], [2, 2]], [0, 0], [[1, 1], [1, 1]], [0.5, 0.5], diagonal=True)
    m = nb.move_handle(1, (3.0, 7.0))  # x axis end: only the x variance changes, |dx| / 2
    assert m.angles.tolist() == [0.0, 0.0]
    np.testing.assert_allclose(m.covariances[0], np.diag([1.5 ** 2, 1.0]), atol=1e-15)
    np.testing.assert_array_equal(m.covariances[1], nb.covariances[1])
    lda = GaussianModel([[0, 0], [2, 2]], [0.4, 0.4], [[1, 0.5], [1, 0.5]], [0.5, 0.5],
                        shared=True)
    m = lda.move_handle(5, (2.0, 4.0))  # class +1's second axis: both classes'
    np.testing.assert_allclose(m.covariances[0], m.covariances[1], atol=1e-15)
    assert m.scales[0, 1] == pytest.approx(1.0)
    assert m.coef_.shape == (1, 2)  # and the boundary stays a line


def test_sampling_is_seeded_stratified_and_from_the_model():
    model = GaussianModel([[-1, 0], [2, 1]], [0.5, -0.2], [[1.5, 0.4], [0.8, 0.6]], [0.3, 0.7])
    X, y = model.sample(200_000, 11)
    X2, y2 = model.sample(200_000, 11)
    np.testing.assert_array_equal(X, X2)
    np.testing.assert_array_equal(y, y2)
    assert not np.array_equal(model.sample(200_000, 12)[0], X)
    assert (y == 1).sum() == 140_000 and model.class_counts(7) == (2, 5)
    for k, label in enumerate((-1, 1)):
        Xk = X[y == label]
        np.testing.assert_allclose(Xk.mean(axis=0), model.means[k], atol=0.02)
        np.testing.assert_allclose(np.cov(Xk.T), model.covariances[k], atol=0.03)
    assert len(set(y[:50].tolist())) == 2  # shuffled, not sorted by class
    with pytest.raises(ValueError, match="at least 2"):
        model.sample(1, 0)
    with pytest.raises(ValueError, match="seed"):
        model.sample(10, -1)


def test_bad_models_are_refused_with_the_reason():
    with pytest.raises(ValueError, match="positive"):
        GaussianModel([[0, 0], [1, 1]], [0, 0], [[1, 0], [1, 1]], [0.5, 0.5])
    with pytest.raises(ValueError, match="priors"):
        GaussianModel([[0, 0], [1, 1]], [0, 0], [[1, 1], [1, 1]], [0.999, 0.001])
    with pytest.raises(ValueError, match="two classes"):
        GaussianModel.from_learner(QDA().fit(np.random.default_rng(0).normal(size=(30, 2)),
                                             np.repeat([0, 1, 2], 10)))


def test_the_sample_command_is_plain_data_and_undoable_in_the_core():
    d = generators.overlapping(100, seed=1)
    model = GaussianModel.from_learner(QDA().fit(d.X, d.y))
    cmd = SampleModel.of(model, 150, 3)
    assert from_dict(cmd.to_dict()) == cmd
    ws = Workspace(generators.overlapping(40, seed=2))
    before = ws.dataset
    cmd.execute(ws)
    X, y = model.sample(150, 3)
    np.testing.assert_allclose(ws.dataset.X, X, rtol=1e-15)
    np.testing.assert_array_equal(ws.dataset.y, y)
    assert ws.dataset.n == 150 and before.n == 40
    with pytest.raises(ValueError, match="at least 2"):
        SampleModel.of(model, 1, 0)
