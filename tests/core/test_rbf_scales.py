"""The RBF kernel at every scale, and a kernel run called converged only when its predictions agree.

``||a||² + ||b||² − 2 a·b`` lost the squared distance to cancellation from
about 1e100 on: K(x, x) was 0 instead of 1, and a dual RBF run at 1e145–1e150
said "converged" while its own ``predict`` misclassified training points.
"""

import numpy as np
import pytest
from scipy.spatial.distance import cdist
from sklearn.metrics.pairwise import rbf_kernel

from perceptron_gui.core import DualPerceptron, Workspace, generators
from perceptron_gui.core.dataset import Dataset
from perceptron_gui.core.kernels import Kernel, make_kernel, squared_distances
from perceptron_gui.core.learners import dual as dual_module
from perceptron_gui.core.learners.dual import PREDICTIONS_DISAGREE

SCALES = [1e-150, 1e-100, 1e-20, 1.0, 1e20, 1e100, 1e140, 1e145, 1e148, 1e150]


def _points():
    ds = generators.separable(40, seed=0)
    return ds.X, ds.y


@pytest.mark.parametrize("scale", SCALES + [1e200, 1e300])
def test_a_point_and_itself_have_kernel_one_at_every_scale(scale):
    X, _ = _points()
    K = make_kernel("rbf", gamma=1.0)(X * scale, X * scale)
    np.testing.assert_array_equal(np.diag(K), 1.0)
    np.testing.assert_array_equal(squared_distances(X * scale, X * scale).diagonal(), 0.0)


@pytest.mark.parametrize("scale", SCALES)
def test_the_kernel_is_the_oracle_s_at_every_scale(scale):
    """exp(-gamma ||a - b||²) with the distances from scipy (differences: exact at any
    scale), gamma = 0.5 / scale² so that the values are the same at every scale."""
    X, _ = _points()
    A, B = X[:25] * scale, X[10:] * scale
    gamma = 0.5 / scale**2
    K = make_kernel("rbf", gamma=gamma)(A, B)
    oracle = np.exp(-gamma * cdist(A, B, "sqeuclidean"))
    np.testing.assert_allclose(K, oracle, rtol=1e-12, atol=1e-300)
    reference = rbf_kernel(X[:25], X[10:], gamma=0.5)  # sklearn, exact at scale 1
    np.testing.assert_allclose(K, reference, rtol=1e-10, atol=1e-14)
    assert K.min() < 1e-3 < 0.5 < K.max()  # the values are not all 0 or 1


def test_the_kernel_is_symmetric_to_the_bit():
    X = generators.blobs(300, seed=2).X * 1e3
    k = make_kernel("rbf", gamma=0.3)
    np.testing.assert_array_equal(k(X, X[:7]), k(X[:7], X).T)  # rows and predict agree
    huge = np.array([[1e200, 0.0], [-1e200, 1.0], [0.0, 0.0]])
    K = k(huge, huge)
    np.testing.assert_array_equal(K, np.eye(3))  # far apart: 0 (an inf distance), no warning


@pytest.mark.parametrize("scale", SCALES)
@pytest.mark.parametrize("scaled_gamma", [False, True], ids=["gamma=1", "gamma=1/scale²"])
def test_a_converged_run_predicts_its_training_points(scale, scaled_gamma):
    X, y = _points()
    gamma = 1.0 / scale**2 if scaled_gamma else 1.0
    learner = DualPerceptron(kernel="rbf", gamma=gamma, max_iter=300).fit(X * scale, y)
    if learner.converged_:
        np.testing.assert_array_equal(learner.predict(X * scale), y)
        assert (learner.training_margins() > 0).all()
    if scaled_gamma or scale >= 1e20:  # separable in the kernel's space: it converges
        assert learner.converged_ and not learner.diverged_


class _Cancelling(Kernel):
    """The RBF kernel as it was: ||a||² + ||b||² − 2 a·b, which cancels at large scales."""

    def _matrix(self, A, B):
        A = np.atleast_2d(np.asarray(A, dtype=np.float64))
        B = np.atleast_2d(np.asarray(B, dtype=np.float64))
        sq = np.einsum("ij,ij->i", A, A)[:, None] + np.einsum("ij,ij->i", B, B)[None, :]
        sq -= 2.0 * (A @ B.T)
        np.maximum(sq, 0.0, out=sq)
        return np.exp(-self.gamma * sq)


def test_a_run_whose_predictions_disagree_is_not_called_converged(monkeypatch):
    """With the old, cancelling kernel the run at 1e150 said "converged" while its
    predict misclassified 2 of the 40 points: the epoch's close now checks."""
    monkeypatch.setattr(dual_module, "make_kernel",
                        lambda name, **kw: _Cancelling(name, **kw))
    X, y = _points()
    learner = DualPerceptron(kernel="rbf").fit(X * 1e150, y)
    assert (learner.predict(X * 1e150) != y).any()  # the kernel's rounding is still there
    assert not learner.converged_
    assert learner.diverged_ and learner.diverged_reason_ == PREDICTIONS_DISAGREE
    ws = Workspace(Dataset(X * 1e150, y), learner="dual")
    ws.set_params(kernel="rbf")
    ws.run_to_end()
    message = ws.end_message()
    assert "not called converged" in message and len(message) < 300
    assert not ws.learner.converged_


def test_the_check_of_a_small_run_recomputes_every_sample(monkeypatch):
    seen = []
    original = DualPerceptron._decision
    monkeypatch.setattr(DualPerceptron, "_decision",
                        lambda self, *args: seen.append(args[0].shape[0]) or original(self, *args))
    X, y = _points()
    assert DualPerceptron(kernel="rbf").fit(X, y).converged_
    assert seen == [len(y)]


def test_the_check_of_a_large_run_recomputes_only_the_samples_near_zero(monkeypatch):
    """Above CHECK_ALL_WORK the epoch's close recomputes few samples, not all n."""
    monkeypatch.setattr(dual_module, "CHECK_ALL_WORK", 0)
    ds = generators.circles(400, noise=0.05, seed=1)
    seen = []
    original = DualPerceptron._decision

    def spy(self, X, sv, coef, b):
        seen.append(X.shape[0])
        return original(self, X, sv, coef, b)

    monkeypatch.setattr(DualPerceptron, "_decision", spy)
    learner = DualPerceptron(kernel="rbf", gamma=2.0).fit(ds.X, ds.y)
    assert learner.converged_
    assert sum(seen) < ds.n // 10
