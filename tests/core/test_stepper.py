"""The stepper seam: the perceptrons satisfy the protocol, and a new learner fits the engine.

The learners below live in this file only: stochastic gradient descent with the
hinge and the logistic loss (``w`` moves on correctly classified samples too)
and batch gradient descent with the hinge loss (a step sums a pass), each one
loss function on :class:`~perceptron_gui.core.learners.gradient.GradientEngine`.
scikit-learn's ``SGDClassifier`` is the oracle of the stochastic ones.
"""

from __future__ import annotations

import inspect
import math
import pickle
import warnings

import numpy as np
import pytest

from perceptron_gui.core import generators
from perceptron_gui.core.learners import (
    DualPerceptron,
    PrimalPerceptron,
    StepEvent,
    _dense,
    _log,
    gradient,
)
from perceptron_gui.core.learners._log import UpdateLog
from perceptron_gui.core.learners._run import WEIGHTS_OVERFLOW, History
from perceptron_gui.core.learners.gradient import GradientEngine
from perceptron_gui.core.learners.stepper import RunHistory, RunLog, Stepper


class _SGD(GradientEngine):
    """Parameters as the perceptron names them; the loss is the subclass's."""

    def __init__(self, *, fit_intercept=True, bias_scale=1.0, eta0=0.01,
                 order="cyclic", random_state=None, max_iter=5):
        self.fit_intercept = fit_intercept
        self.bias_scale = bias_scale
        self.eta0 = eta0
        self.order = order
        self.random_state = random_state
        self.max_iter = max_iter

    def validate_params(self) -> None:
        if not self.eta0 > 0:
            raise ValueError("eta0 must be > 0")
        self._validate_common()


class HingeSGD(_SGD):
    """``w <- w + eta y x`` (and ``b <- b + eta y c²``) whenever ``y f(x) <= 1``."""

    def dloss(self, p, y):
        return -y if p * y <= 1.0 else 0.0


class LogisticSGD(_SGD):
    """The logistic loss, as scikit-learn's half binomial loss computes its gradient."""

    def dloss(self, p, y):
        t = 0.5 * (y + 1.0)  # the label as 0 / 1
        if p > -37:
            e = math.exp(-p)
            return ((1 - t) - t * e) / (1 + e)
        return math.exp(p) - t


class BatchHinge(_SGD):
    """Batch gradient descent on the mean hinge loss: a step is a pass."""

    batch = True

    def batch_gradient(self, X, s, p):
        active = s * p <= 1.0
        n = X.shape[0]
        return -(X[active] * s[active, None]).sum(axis=0) / n, -float(s[active].sum()) / n


def _data(n=300, seed=0):
    rng = np.random.default_rng(seed)
    X = rng.normal(size=(n, 2)) * 3 + [1.0, -2.0]
    y = (X[:, 0] - 0.5 * X[:, 1] + rng.normal(size=n) > 1).astype(int)
    return X, y


def _sgd_oracle(loss, X, y, eta, epochs, fit_intercept=True):
    from sklearn.linear_model import SGDClassifier

    sk = SGDClassifier(loss=loss, penalty=None, learning_rate="constant", eta0=eta,
                       shuffle=False, tol=None, max_iter=epochs, fit_intercept=fit_intercept)
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")  # max_iter reached: the number of epochs asked for
        return sk.fit(X, y)


def _same_event(a: StepEvent, b: StepEvent) -> None:
    assert (a.step, a.epoch, a.position, a.index, a.label, a.mistake, a.k) == \
        (b.step, b.epoch, b.position, b.index, b.label, b.mistake, b.k)
    assert a.margin == b.margin or (math.isnan(a.margin) and math.isnan(b.margin))
    assert np.array_equal(a.w_before, b.w_before) and np.array_equal(a.w_after, b.w_after)
    assert (a.b_before, a.b_after) == (b.b_before, b.b_after)


# -- the protocol -------------------------------------------------------------------------
def _members(proto) -> tuple[list[str], list[str], list[str]]:
    """Methods, properties and data attributes the protocol declares (itself and bases)."""
    methods, props, data = [], [], []
    for klass in proto.__mro__:
        if klass is object or not getattr(klass, "_is_protocol", False):
            continue
        data += [a for a in getattr(klass, "__annotations__", {}) if a not in data]
        for name, value in vars(klass).items():
            if name.startswith("_") and name not in ("__len__", "__getitem__"):
                continue
            if isinstance(value, property) and name not in props:
                props.append(name)
            elif inspect.isfunction(value) and name not in methods:
                methods.append(name)
    return methods, props, data


def _check_signatures(proto, cls) -> None:
    methods, props, _ = _members(proto)
    for name in methods:
        theirs = inspect.signature(getattr(proto, name))
        ours = inspect.signature(getattr(cls, name))
        assert [(p.name, p.kind, p.default) for p in ours.parameters.values()] == \
            [(p.name, p.kind, p.default) for p in theirs.parameters.values()], (cls, name)
    for name in props:
        assert isinstance(inspect.getattr_static(cls, name), property), (cls, name)


def test_the_protocol_lists_what_the_window_uses():
    methods, props, data = _members(Stepper)
    assert set(methods) == {
        "start", "step", "step_update", "step_epoch", "step_back", "seek", "run_to_end",
        "advance", "compute", "event", "training_margins", "mistakes_per_epoch",
        "epoch_mistakes"}
    assert set(props) == {"step_count", "frontier", "end_step", "finished", "history",
                          "update_log", "training_X", "training_signs"}
    assert set(data) == {"n_updates_", "n_epochs_", "converged_", "diverged_reason_",
                         "intercept_", "classes_", "fit_intercept", "bias_scale"}
    log_methods, log_props, _ = _members(RunLog)
    assert {"count_before", "counts_before", "rows", "samples", "state_after", "step_of",
            "steps_of", "epoch_counts", "epoch_count", "__len__"} == set(log_methods)
    assert {"thinned", "nbytes", "budget"} == set(log_props)


@pytest.mark.parametrize("make", [
    PrimalPerceptron,
    lambda: DualPerceptron(kernel="linear"),
    lambda: DualPerceptron(kernel="rbf", gamma=0.5),
    HingeSGD,
    BatchHinge,
])
def test_every_started_learner_is_a_stepper_with_the_protocol_signatures(make):
    X, y = _data(60)
    learner = make().start(X, y)
    assert isinstance(learner, Stepper)
    linear = getattr(learner, "kernel", "linear") == "linear"
    assert hasattr(learner, "coef_") == linear  # a kernel run has no coef_
    _check_signatures(Stepper, type(learner))
    learner.seek(25)
    assert isinstance(learner.history, RunHistory)
    _check_signatures(RunHistory, type(learner.history))
    log = learner.history.updates
    assert isinstance(log, RunLog)
    _check_signatures(RunLog, type(log))


def test_the_logs_answer_the_same_queries():
    for cls in (UpdateLog, _dense.DenseLog):
        _check_signatures(RunLog, cls)
    _check_signatures(RunHistory, History)


# -- scikit-learn as the oracle ---------------------------------------------------------
@pytest.mark.parametrize("eta, epochs, fit_intercept, seed", [
    (0.01, 5, True, 0), (0.1, 3, True, 1), (1.0, 8, True, 2), (0.003, 4, False, 3),
])
def test_hinge_sgd_on_the_engine_equals_sklearn_sgdclassifier(eta, epochs, fit_intercept, seed):
    X, y = _data(400, seed)
    ours = HingeSGD(eta0=eta, max_iter=epochs, fit_intercept=fit_intercept).fit(X, y)
    sk = _sgd_oracle("hinge", X, y, eta, epochs, fit_intercept)
    np.testing.assert_allclose(ours.coef_, sk.coef_, rtol=1e-9, atol=0)
    np.testing.assert_allclose(ours.intercept_, sk.intercept_, rtol=1e-9, atol=0)
    assert ours.n_epochs_ <= epochs
    assert np.array_equal(ours.predict(X), sk.predict(X))


def test_logistic_sgd_moves_w_on_every_sample_and_equals_sklearn():
    X, y = _data(300, 4)
    ours = LogisticSGD(eta0=0.05, max_iter=4).fit(X, y)
    sk = _sgd_oracle("log_loss", X, y, 0.05, 4)
    np.testing.assert_allclose(ours.coef_, sk.coef_, rtol=1e-9, atol=0)
    np.testing.assert_allclose(ours.intercept_, sk.intercept_, rtol=1e-9, atol=0)
    events = ours.history[:50]
    assert all(ev.mistake for ev in events)  # every sample moved w, right or wrong
    assert any(ev.margin > 0 for ev in events)
    assert ours.n_updates_ == ours.step_count == 4 * 300


def test_an_event_says_whether_the_step_moved_w():
    X, y = _data(200, 5)
    learner = HingeSGD(eta0=0.5, max_iter=6).fit(X, y)
    for ev in learner.history[-400:]:
        assert ev.mistake == (ev.margin <= 1.0)
        assert ev.mistake == (not np.array_equal(ev.w_before, ev.w_after)
                              or ev.b_before != ev.b_after)
        assert ev.k == ev.step  # every step is a row of the dense log


def test_hinge_sgd_converges_after_an_epoch_that_moves_nothing():
    X = np.array([[2.0, 0.0], [-2.0, 0.0], [3.0, 1.0], [-3.0, -1.0]])
    y = np.array([1, 0, 1, 0])
    learner = HingeSGD(eta0=0.5, max_iter=100).fit(X, y)
    assert learner.converged_ and learner.finished
    assert np.all(learner.training_margins() > 1.0)
    n_ep = learner.n_epochs_
    assert learner.mistakes_per_epoch().tolist() == [4] * n_ep  # every step is an update
    np.testing.assert_array_equal(learner.coef_, _sgd_oracle("hinge", X, y, 0.5, n_ep).coef_)


def test_overflow_ends_the_run_as_diverged():
    X = np.array([[1e200, 1e200], [-1e200, -2e200]])
    learner = HingeSGD(eta0=1.0, max_iter=10).fit(X, [1, 0])
    assert learner.diverged_ and learner.diverged_reason_ == WEIGHTS_OVERFLOW
    assert learner.step_count == learner.end_step < 20


def test_a_step_into_a_divergence_it_cannot_take_stops_where_fit_does():
    # the second step's decision value overflows: the run ends after step 1, not taken
    X = np.array([[1e300, 1e300], [-1e300, -1e300], [1e300, -1e300]])
    y = np.array([1, -1, -1])
    fitted = PrimalPerceptron(loss="log_loss", max_iter=50).fit(X, y)
    stepped = PrimalPerceptron(loss="log_loss", max_iter=50).start(X, y)
    assert stepped.step().step == 1
    assert stepped.step() is None
    assert stepped.step_count == stepped.frontier == stepped.end_step == fitted.step_count == 1
    assert stepped.finished and stepped.diverged_ and fitted.diverged_


# -- batch gradient descent --------------------------------------------------------------
def test_batch_gd_equals_its_reference_loop_and_a_step_is_a_pass():
    X, y = _data(250, 6)
    eta, epochs = 0.2, 30
    learner = BatchHinge(eta0=eta, max_iter=epochs).fit(X, y)
    s = np.where(y == 1, 1.0, -1.0)
    w, b = np.zeros(2), 0.0
    for _ in range(epochs):
        p = X @ w + b
        active = s * p <= 1.0
        w = w + eta * (X[active] * s[active, None]).sum(axis=0) / len(y)
        b = b + eta * s[active].sum() / len(y)
    np.testing.assert_allclose(learner.coef_[0], w, rtol=1e-9)
    np.testing.assert_allclose(learner.intercept_[0], b, rtol=1e-9)
    assert learner.step_count == learner.n_epochs_ == epochs
    ev = learner.event(7)
    assert (ev.epoch, ev.position, ev.index, ev.label) == (6, 0, -1, 0)
    assert math.isnan(ev.margin) and ev.mistake
    fresh = BatchHinge(eta0=eta, max_iter=epochs).start(X, y)
    for _ in range(7):
        fresh.step()
    _same_event(fresh.event(7), ev)
    learner.seek(7)
    np.testing.assert_array_equal(learner.coef_, fresh.coef_)



@pytest.mark.parametrize("cls", [PrimalPerceptron, DualPerceptron, HingeSGD])
def test_the_event_at_the_cursor_is_built_once_and_forgotten_by_a_new_run(cls):
    X, y = _data(60, 9)
    learner = cls().start(X, y) if cls is not HingeSGD else cls(eta0=0.5).start(X, y)
    ev = learner.step_update()
    # every reader of one frame (the step, the run, the canvas's layers) shares it
    assert learner.event(learner.step_count) is ev
    learner.step_back()
    learner.step()
    assert learner.event(learner.step_count) is ev
    step = learner.step_count
    learner.start(-X, y)  # the same learner, a new run: its step's event is computed anew
    learner.seek(step)
    fresh = learner.event(step)
    assert fresh is not ev and not np.array_equal(fresh.w_after, ev.w_after)
    assert "_last_event" not in pickle.loads(pickle.dumps(learner)).__dict__


# -- exact seeks ----------------------------------------------------------------------------
@pytest.mark.parametrize("cls, order", [(HingeSGD, "cyclic"), (HingeSGD, "random"),
                                        (LogisticSGD, "cyclic"), (BatchHinge, "cyclic")])
def test_seek_and_step_back_equal_a_fresh_run_stepped_forward(cls, order):
    X, y = _data(700, 7)
    params = dict(eta0=0.05, max_iter=6, order=order, random_state=3)
    full = cls(**params).fit(X, y)
    T = full.frontier
    rng = np.random.default_rng(0)
    targets = sorted({int(k) for k in rng.integers(1, T + 1, 8)} | {1, T, T // 2})
    fresh = cls(**params).start(X, y)
    for k in rng.permutation(targets).tolist():  # seek in a random order
        full.seek(k)
        while fresh.step_count < k:
            fresh.step()
        fresh.seek(k)
        assert full.step_count == k
        _same_event(full.event(k), fresh.event(k))
        np.testing.assert_array_equal(full.coef_, fresh.coef_)
        assert full.intercept_[0] == fresh.intercept_[0]
        margins = full.training_margins()
        np.testing.assert_array_equal(margins, fresh.training_margins())
        if k < T and cls is not BatchHinge:  # the next event reports the margin seen here
            nxt = full.event(k + 1)
            assert margins[nxt.index] == nxt.margin
        back = full.step_back()
        _same_event(back, fresh.event(k))
        assert full.step_count == k - 1
        np.testing.assert_array_equal(full.coef_[0], back.w_before)


def test_a_step_back_across_a_checkpoint_and_a_pickled_run_stay_exact(monkeypatch):
    monkeypatch.setattr(gradient, "SAMPLE_STRIDE", 64)
    X, y = _data(150, 8)
    learner = HingeSGD(eta0=0.3, max_iter=4).fit(X, y)
    forward = [learner.event(k) for k in range(1, learner.frontier + 1)]
    for k in range(learner.frontier, 0, -1):
        _same_event(learner.step_back(), forward[k - 1])
    learner.seek(200)
    copy = pickle.loads(pickle.dumps(learner))
    assert copy.step_count == 200
    _same_event(copy.event(130), forward[129])
    copy.run_to_end()
    np.testing.assert_array_equal(copy.coef_[0], forward[-1].w_after)


# -- bounded memory at 10^5 samples -----------------------------------------------------
def test_the_dense_log_is_bounded_at_1e5_samples_and_stays_exact(monkeypatch):
    n, budget = 10**5, 2**17  # 3·10⁵ steps are within its bound (budget² / (16·48·24))
    ds = generators.overlapping(n, seed=0)
    monkeypatch.setattr(_log, "LOG_BYTES", budget)
    monkeypatch.setattr(gradient, "SAMPLE_STRIDE", 16)  # many checkpoints: they must halve
    small = HingeSGD(eta0=0.01, max_iter=3).start(ds.X, ds.y)
    peak = 0
    while not small.finished:
        small.advance(2**15)
        peak = max(peak, small.update_log.nbytes)
    log = small.update_log
    assert log.budget == budget and peak <= budget
    assert log.stride >= 4 * 16  # the checkpoints halved, the stride doubled, twice at least
    monkeypatch.undo()
    big = HingeSGD(eta0=0.01, max_iter=3).fit(ds.X, ds.y)
    steps = big.frontier
    assert steps == 3 * n
    # a row a step would take 48 bytes: the checkpoints take 24 bytes a stride of steps
    assert big.update_log.nbytes < steps * 48 / 100
    rng = np.random.default_rng(1)
    for k in rng.integers(1, steps, 4).tolist():
        small.seek(k)
        big.seek(k)
        _same_event(small.event(k), big.event(k))
        np.testing.assert_array_equal(small.coef_, big.coef_)
    assert small.update_log.nbytes <= budget
