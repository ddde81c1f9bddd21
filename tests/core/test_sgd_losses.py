"""The perceptron as SGD: the primal learner's losses and orders, against their oracles.

- stochastic gradient descent (order cyclic) with the perceptron, hinge and
  logistic losses against scikit-learn's ``SGDClassifier`` on five data sets,
  with and without a bias, with the compiled loop and the Python loop;
- the uniform order against its seed and an independent loop;
- batch gradient descent against the formula summed in the test with numpy;
- seeks and steps back against a run stepped forward one step at a time;
- ``predict_proba``, the capabilities and the files.

scikit-learn 1.9's logistic loss is ``CyHalfBinomialLoss`` (label ``t`` in
{0, 1}, ``g = ((1 - t) - t e^{-p}) / (1 + e^{-p})`` for ``p > -37``, else
``e^p - t``); the learner computes exactly that, so the runs agree bit for
bit wherever ``exp`` is the same function (scikit-learn < 1.6 used the
``Log`` loss, which switches to exponential tails beyond ``|z| = 18``: with
it the two would differ by far less than 1e-9 relative, hence the tolerance).
"""

from __future__ import annotations

import json
import math
import warnings

import numpy as np
import pytest

from perceptron_gui.core import Dataset, Workspace, generators
from perceptron_gui.core.io import workspace_from_json, workspace_to_json
from perceptron_gui.core.learners import PrimalPerceptron, _scan, registry
from perceptron_gui.core.learners.gradient import GradientEngine
from perceptron_gui.core.learners.losses import MARGIN_LOSSES, TRAINABLE, loss_for
from perceptron_gui.core.learners.params import PRIMAL

DATASETS = {
    "separable": lambda n, seed: generators.separable(n, seed=seed, offset=1.5),
    "overlapping": lambda n, seed: generators.overlapping(n, seed=seed),
    "xor": lambda n, seed: generators.xor(n, seed=seed),
    "blobs": lambda n, seed: generators.blobs(n, seed=seed),
    "moons": lambda n, seed: generators.moons(n, seed=seed),
}

LOSSES = tuple(loss.name for loss in TRAINABLE)
LOSS_DERIVATIVES = {loss.name: loss.dloss for loss in TRAINABLE}


def _data(name, n=240, seed=0):
    ds = DATASETS[name](n, seed)
    return np.array(ds.X), np.array(ds.y)


def _sgd(loss, X, y, eta, epochs, fit_intercept=True):
    from sklearn.linear_model import SGDClassifier

    sk = SGDClassifier(loss=loss, penalty=None, learning_rate="constant", eta0=eta,
                       shuffle=False, tol=None, max_iter=epochs, fit_intercept=fit_intercept)
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")  # max_iter reached: the epochs asked for
        return sk.fit(X, y)


@pytest.fixture(params=["compiled", "numpy"])
def backend(request, monkeypatch):
    """Each test runs with the compiled loop forced, then with the Python loop."""
    if request.param == "compiled":
        from perceptron_gui.core.learners import _sgd

        if not _sgd.compiled_available():
            pytest.skip("numba not available")
    monkeypatch.setattr(_scan, "FORCE", request.param)
    return request.param


def _same_event(a, b) -> None:
    assert (a.step, a.epoch, a.position, a.index, a.label, a.mistake, a.k) == \
        (b.step, b.epoch, b.position, b.index, b.label, b.mistake, b.k)
    assert a.margin == b.margin or (math.isnan(a.margin) and math.isnan(b.margin))
    assert np.array_equal(a.w_before, b.w_before) and np.array_equal(a.w_after, b.w_after)
    assert (a.b_before, a.b_after) == (b.b_before, b.b_after)


# -- the oracle: scikit-learn's SGDClassifier ---------------------------------------------
@pytest.mark.parametrize("fit_intercept", [True, False])
@pytest.mark.parametrize("name", sorted(DATASETS))
@pytest.mark.parametrize("loss", LOSSES)
def test_sgd_equals_sklearn_sgdclassifier(loss, name, fit_intercept, backend):
    X, y = _data(name, seed=len(name))
    eta, epochs = {"perceptron": (1.0, 6), "hinge": (0.05, 5), "log_loss": (0.1, 5)}[loss]
    ours = PrimalPerceptron(loss=loss, eta0=eta, max_iter=epochs,
                            fit_intercept=fit_intercept).fit(X, y)
    assert ours.on_gradient_engine == (loss_for(loss).kink is None)
    sk = _sgd(loss, X, y, eta, ours.n_epochs_, fit_intercept)
    np.testing.assert_allclose(ours.coef_, sk.coef_, rtol=1e-9, atol=0)
    np.testing.assert_allclose(ours.intercept_, sk.intercept_, rtol=1e-9, atol=0)
    if loss != "log_loss":  # no transcendental function: the same bits
        assert np.array_equal(ours.coef_, sk.coef_)
        assert np.array_equal(ours.intercept_, sk.intercept_)
    assert np.array_equal(ours.predict(X), sk.predict(X))
    if loss != "perceptron":  # scikit-learn's t_ counts every step, one more
        assert ours.step_count == ours.n_epochs_ * len(y) == sk.t_ - 1
    if loss == "log_loss":  # its derivative is never 0: every step is an update
        assert ours.n_updates_ == ours.step_count


def test_the_logistic_tails_beyond_37_are_sklearns(backend):
    X, y = _data("separable", 300, 3)
    X = X * 40.0  # decision values far beyond ±37 after the first steps
    ours = PrimalPerceptron(loss="log_loss", eta0=2.0, max_iter=4).fit(X, y)
    margins = ours.update_log.rows().margin
    p = margins * ours.training_signs[ours.update_log.rows().index]
    assert (p < -37).any() and (p > 37).any()
    sk = _sgd("log_loss", X, y, 2.0, 4)
    np.testing.assert_allclose(ours.coef_, sk.coef_, rtol=1e-9, atol=0)
    np.testing.assert_allclose(ours.intercept_, sk.intercept_, rtol=1e-9, atol=0)


class GradientPerceptron(GradientEngine):
    """The perceptron loss on the gradient engine, cyclic: it must be the perceptron."""

    loss_code = 0

    def __init__(self, *, fit_intercept=True, bias_scale=1.0, eta0=1.0, order="cyclic",
                 random_state=None, max_iter=100):
        self.fit_intercept = fit_intercept
        self.bias_scale = bias_scale
        self.eta0 = eta0
        self.order = order
        self.random_state = random_state
        self.max_iter = max_iter

    def validate_params(self) -> None:
        self._validate_common()

    def dloss(self, p, y):
        return LOSS_DERIVATIVES["perceptron"](p, y)


@pytest.mark.parametrize("name", ["separable", "overlapping", "moons"])
def test_the_perceptron_loss_on_the_gradient_engine_is_sklearns_perceptron(name, backend):
    from sklearn.linear_model import Perceptron

    X, y = _data(name, 300, 5)
    grad = GradientPerceptron(max_iter=30, bias_scale=1.0).fit(X, y)
    ours = PrimalPerceptron(max_iter=30).fit(X, y)  # the perceptron's own engine
    sk = Perceptron(shuffle=False, eta0=1.0, tol=None, penalty=None,
                    max_iter=ours.n_epochs_)
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        sk.fit(X, y)
    assert grad.n_epochs_ == ours.n_epochs_ and grad.converged_ == ours.converged_
    assert np.array_equal(grad.coef_, ours.coef_) and np.array_equal(grad.coef_, sk.coef_)
    assert grad.intercept_[0] == ours.intercept_[0] == sk.intercept_[0]
    # step by step: a mistake of one is an update of the other, with the same weights
    for k in np.linspace(1, ours.frontier, 25).astype(int).tolist():
        a, b = grad.event(k), ours.event(k)
        assert (a.index, a.margin, a.mistake) == (b.index, b.margin, b.mistake)
        assert np.array_equal(a.w_after, b.w_after) and a.b_after == b.b_after


def test_the_bias_feature_moves_b_by_eta_times_c_squared():
    X, y = _data("overlapping", 200, 2)
    for loss in ("hinge", "log_loss"):
        run = PrimalPerceptron(loss=loss, eta0=0.1, bias_scale=2.0, max_iter=1).start(X, y)
        for _ in range(30):
            ev = run.step()
            u = -0.1 * LOSS_DERIVATIVES[loss](ev.margin * ev.label, float(ev.label))
            np.testing.assert_array_equal(ev.w_after, ev.w_before + X[ev.index] * u)
            assert ev.b_after == ev.b_before + u * 4.0


# -- the uniform order -------------------------------------------------------------------
def _reference_sgd(loss, X, s, eta, c2, indices):
    """Plain Python SGD over the given indices, with the learner's formulas."""
    dloss = LOSS_DERIVATIVES[loss]
    w, b = [0.0] * X.shape[1], 0.0
    for i in indices:
        p = X[i, 0] * w[0]
        for j in range(1, len(w)):
            p = p + X[i, j] * w[j]
        p = p + b
        g = dloss(p, s[i])
        if g != 0.0:
            u = -eta * g
            w = [w[j] + X[i, j] * u for j in range(len(w))]
            b = b + u * c2
    return np.array(w), b


@pytest.mark.parametrize("loss", LOSSES)
def test_uniform_sgd_draws_with_replacement_from_its_seed(loss, backend):
    X, y = _data("overlapping", 500, 4)
    n, epochs, seed = len(y), 3, 11
    run = PrimalPerceptron(loss=loss, order="uniform", random_state=seed, eta0=0.2,
                           max_iter=epochs).fit(X, y)
    assert run.frontier == epochs * n  # an epoch is n draws
    draws = np.concatenate([np.random.default_rng([seed, e]).integers(n, size=n)
                            for e in range(epochs)])
    index = np.array([run.event(k).index for k in range(1, run.frontier + 1)])
    assert np.array_equal(index, draws)
    assert len(np.unique(draws[:n])) < n  # with replacement: some drawn twice, some never
    w, b = _reference_sgd(loss, X, run.training_signs, 0.2, 1.0, draws)
    assert np.array_equal(run.coef_[0], w) and run.intercept_[0] == b
    again = PrimalPerceptron(loss=loss, order="uniform", random_state=seed, eta0=0.2,
                             max_iter=epochs).fit(X, y)
    assert np.array_equal(again.coef_, run.coef_) and again.intercept_ == run.intercept_
    other = PrimalPerceptron(loss=loss, order="uniform", random_state=seed + 1, eta0=0.2,
                             max_iter=epochs).fit(X, y)
    assert other.event(1).index != index[0] or other.event(2).index != index[1]
    assert not np.array_equal(other.coef_, run.coef_)


def test_uniform_perceptron_converges_only_when_no_sample_is_a_mistake():
    X, y = _data("separable", 60, 1)
    run = PrimalPerceptron(order="uniform", random_state=4, max_iter=500).fit(X, y)
    assert run.converged_ and not run.on_gradient_engine  # its log keeps the mistakes
    assert (run.training_margins() > 0).all()
    per_epoch = run.mistakes_per_epoch()
    assert per_epoch[-1] == 0 and run.n_updates_ == per_epoch.sum() < run.step_count
    assert registry.get("primal").caps({"order": "uniform"}).novikoff
    # an epoch of draws may miss the last mistake: such a clean epoch is not the end
    clean = [e for e in range(run.n_epochs_ - 1) if per_epoch[e] == 0]
    assert clean  # this seed has one (epoch 7 of 10)
    for e in clean:
        run.seek((e + 1) * len(y))
        assert (run.training_margins() <= 0).any()


# -- batch gradient descent --------------------------------------------------------------
@pytest.mark.parametrize("fit_intercept, c", [(True, 1.0), (True, 2.0), (False, 1.0)])
@pytest.mark.parametrize("loss", LOSSES)
def test_batch_gd_equals_the_summed_gradient(loss, fit_intercept, c):
    X, y = _data("overlapping", 300, 7)
    s = np.where(y == 1, 1.0, -1.0)
    eta, passes = 0.01, 40
    run = PrimalPerceptron(loss=loss, order="batch", eta0=eta, max_iter=passes,
                           fit_intercept=fit_intercept, bias_scale=c).fit(X, y)
    w, b = np.zeros(2), 0.0
    for _ in range(passes):
        z = s * (X @ w + b)
        if loss == "perceptron":  # w <- w + eta * sum over the mistakes of y_i x_i
            coef = np.where(z <= 0, 1.0, 0.0)
        elif loss == "hinge":
            coef = np.where(z <= 1, 1.0, 0.0)
        else:  # every case, scaled by sigma(-z)
            coef = 1.0 / (1.0 + np.exp(z))
        w = w + eta * ((coef * s)[:, None] * X).sum(axis=0)
        if fit_intercept:
            b = b + eta * c * c * (coef * s).sum()
    np.testing.assert_allclose(run.coef_[0], w, rtol=1e-9, atol=1e-12)
    np.testing.assert_allclose(run.intercept_[0], b, rtol=1e-9, atol=1e-12)
    assert run.step_count == run.n_epochs_ == passes and not run.converged_
    ev = run.event(5)
    assert (ev.epoch, ev.position, ev.index, ev.label) == (4, 0, -1, 0)
    assert math.isnan(ev.margin)


def test_batch_gd_converges_after_a_pass_without_a_mistake():
    X, y = _data("separable", 80, 3)
    run = PrimalPerceptron(order="batch", max_iter=10_000).fit(X, y)
    assert run.converged_ and (run.training_margins() > 0).all()
    before = run.event(run.step_count)
    assert np.array_equal(before.w_before, before.w_after)  # the clean pass moved nothing
    hinge = PrimalPerceptron(loss="hinge", order="batch", eta0=0.01, max_iter=10_000).fit(X, y)
    assert hinge.converged_ and (hinge.training_margins() > 1).all()


def test_batch_gd_stuck_at_zero_does_not_converge():
    # xor's four corners: every case a mistake at w = 0, the terms cancel: w stays 0
    X = np.array([[1.0, 1.0], [-1.0, -1.0], [1.0, -1.0], [-1.0, 1.0]])
    y = np.array([1, 1, 0, 0])
    run = PrimalPerceptron(order="batch", max_iter=7).fit(X, y)
    assert not run.converged_ and run.step_count == 7
    assert not run.coef_.any() and run.intercept_[0] == 0


def test_hinge_sgd_ends_with_every_margin_at_least_one():
    X, y = _data("separable", 100, 6)
    run = PrimalPerceptron(loss="hinge", eta0=0.5, max_iter=5000).fit(X, y)
    assert run.converged_ and (run.training_margins() > 1).all()
    log = PrimalPerceptron(loss="log_loss", eta0=0.5, max_iter=20).fit(X, y)
    assert not log.converged_ and log.n_epochs_ == 20  # every step moves w


# -- exact seeks -------------------------------------------------------------------------
@pytest.mark.parametrize("loss, order", [("hinge", "cyclic"), ("log_loss", "cyclic"),
                                         ("hinge", "uniform"), ("log_loss", "random"),
                                         ("log_loss", "batch"), ("perceptron", "uniform")])
def test_seek_and_step_back_equal_a_run_stepped_forward(loss, order, monkeypatch):
    from perceptron_gui.core.learners import _sgd

    X, y = _data("moons", 700, 9)
    params = dict(loss=loss, order=order, eta0=0.05, max_iter=4, random_state=5)
    full = PrimalPerceptron(**params).fit(X, y)  # the compiled loop, if any
    T = full.frontier
    monkeypatch.setattr(_scan, "FORCE", "numpy")
    fresh = PrimalPerceptron(**params).start(X, y)  # the Python loop, a step at a time
    rng = np.random.default_rng(0)
    targets = sorted({int(k) for k in rng.integers(1, T + 1, 6)} | {1, T})
    monkeypatch.undo()
    for k in rng.permutation(targets).tolist():
        full.seek(k)
        with monkeypatch.context() as m:
            m.setattr(_scan, "FORCE", "numpy")
            while fresh.step_count < k:
                fresh.step()
            fresh.seek(k)
            ev = fresh.event(k)
        _same_event(full.event(k), ev)
        assert np.array_equal(full.coef_, fresh.coef_)
        assert full.intercept_[0] == fresh.intercept_[0]
        back = full.step_back()
        _same_event(back, ev)
        assert np.array_equal(full.coef_[0], back.w_before)
    assert _sgd.COMPILED_MIN_STRETCH < T or order == "batch"


# -- probabilities, capabilities, parameters, files ---------------------------------------
def test_predict_proba_is_the_sigmoid_of_the_decision_for_log_loss_only():
    X, y = _data("blobs", 200, 1)
    run = PrimalPerceptron(loss="log_loss", eta0=0.1, max_iter=5).fit(X, y)
    sk = _sgd("log_loss", X, y, 0.1, 5)
    proba = run.predict_proba(X)
    np.testing.assert_allclose(proba, sk.predict_proba(X), rtol=1e-12, atol=1e-15)
    f = run.decision_function(X)
    np.testing.assert_allclose(proba[:, 1], 1 / (1 + np.exp(-f)), rtol=1e-12)
    np.testing.assert_allclose(proba.sum(axis=1), 1.0)
    np.testing.assert_allclose(run.predict_log_proba(X), np.log(proba))
    for loss in ("perceptron", "hinge"):
        other = PrimalPerceptron(loss=loss).fit(X, y)
        assert not hasattr(other, "predict_proba")
        with pytest.raises(AttributeError, match=f"loss='{loss}'"):
            other.predict_proba(X)


def test_capabilities_follow_loss_and_order():
    spec = registry.get("primal")
    assert spec.defaults["loss"] == "perceptron"
    for loss in LOSSES:
        for order in ("cyclic", "random", "uniform", "batch"):
            caps = spec.caps({"loss": loss, "order": order})
            assert caps.novikoff == (loss == "perceptron" and order != "batch")
            assert caps.proof == caps.novikoff
            assert caps.posteriors == (loss == "log_loss")
            assert caps.steps and caps.linear


def test_the_loss_is_a_validated_choice_and_the_seed_matters_for_random_draws():
    specs = {p.key: p for p in PRIMAL}
    assert [v for v, _ in specs["loss"].choices] == list(LOSSES)
    assert [v for v, _ in specs["order"].choices] == ["cyclic", "random", "uniform", "batch"]
    assert specs["random_state"].needs == ("order", ("random", "uniform"))
    with pytest.raises(ValueError, match="^loss must be one of 'perceptron', 'hinge', "):
        PrimalPerceptron(loss="squared_hinge").fit([[0.0], [1.0]], [0, 1])
    with pytest.raises(ValueError, match="^order must be"):
        registry.get("dual").validate(dict(registry.get("dual").defaults, order="uniform"))
    assert PrimalPerceptron(loss="hinge").get_params()["loss"] == "hinge"


def test_a_workspace_file_keeps_the_loss_and_an_old_file_opens_with_the_default():
    points = Dataset([[0.0, 0.0], [1.0, 1.0], [2.0, 0.0], [3.0, 1.0]], [-1, 1, 1, -1])
    ws = Workspace(points)
    ws.set_params(loss="log_loss", order="batch", eta0=0.5)
    text = workspace_to_json(ws)
    back = workspace_from_json(text)
    assert back.params["loss"] == "log_loss" and back.params["order"] == "batch"
    assert back.capabilities.posteriors and not back.capabilities.novikoff
    doc = json.loads(text)
    del doc["params"]["primal"]["loss"]  # a file written before the loss existed
    doc["params"]["primal"]["order"] = "cyclic"
    old = workspace_from_json(json.dumps(doc))
    assert old.params["loss"] == "perceptron" and old.capabilities.novikoff


def test_a_demo_sets_the_loss_like_any_parameter_and_rewinds():
    from perceptron_gui.core.demos import DemoPlayer, parse_demo

    points = [{"x": 3, "y": 1, "label": 1}, {"x": -1, "y": 0, "label": -1},
              {"x": 2, "y": 2, "label": 1}, {"x": -2, "y": 1, "label": -1}]
    hinge = PrimalPerceptron(loss="hinge", eta0=0.5).fit([[3, 1], [-1, 0], [2, 2], [-2, 1]],
                                                          [1, -1, 1, -1])
    raw = {
        "format": "perceptron-gui-demo", "version": 1, "title": "T", "description": "D",
        "data": {"points": points}, "learner": "primal",
        "params": {"primal": {"loss": "hinge", "eta0": 0.5}},
        "steps": [
            {"action": "run_to_end", "caption": "hinge",
             "checks": {"converged": True, "w": hinge.coef_[0].tolist()}},
            {"action": "set_param", "loss": "perceptron", "caption": "perceptron",
             "checks": {"updates": 0}},
            {"action": "run_to_end", "caption": "perceptron", "checks": {"converged": True}},
        ],
    }
    player = DemoPlayer(Workspace(), parse_demo(json.dumps(raw), name="loss"))
    assert player.run_all() == []
    assert player.workspace.params["loss"] == "perceptron"
    player.goto(1)
    assert player.workspace.params["loss"] == "hinge"
    assert player.workspace.capabilities.novikoff is False


@pytest.mark.parametrize("loss, order", [("hinge", "cyclic"), ("log_loss", "batch"),
                                         ("perceptron", "uniform")])
def test_a_pickled_run_steps_on_exactly(loss, order):
    import pickle

    X, y = _data("moons", 3000, 2)
    run = PrimalPerceptron(loss=loss, order=order, eta0=0.05, max_iter=3,
                           random_state=1).fit(X, y)
    end = run.step_count
    run.seek(end // 2)
    copy = pickle.loads(pickle.dumps(run))
    assert copy.step_count == end // 2 and np.array_equal(copy.coef_, run.coef_)
    _same_event(copy.event(end // 3 + 1), run.event(end // 3 + 1))
    copy.run_to_end()
    run.run_to_end()
    assert np.array_equal(copy.coef_, run.coef_) and copy.intercept_ == run.intercept_


@pytest.mark.parametrize("loss, order", [("hinge", "cyclic"), ("log_loss", "uniform"),
                                         ("perceptron", "batch"), ("hinge", "batch")])
def test_step_terms_rebuild_each_step(loss, order):
    X, y = _data("overlapping", 150, 3)
    run = PrimalPerceptron(loss=loss, order=order, eta0=0.1, max_iter=6, bias_scale=1.5,
                           random_state=0).fit(X, y)
    for k in range(1, run.frontier + 1, max(1, run.frontier // 40)):
        ev = run.event(k)
        index, g = run.step_terms(k)
        assert np.all(g != 0) and np.all(np.diff(index) > 0)
        z = run.training_signs * (X @ ev.w_before + ev.b_before)
        if order == "batch" and loss == "perceptron":
            assert np.array_equal(index, np.flatnonzero(z <= 0))  # the mistakes summed
        if order != "batch":
            assert set(index.tolist()) <= {ev.index}
            assert (index.size == 1) == ev.mistake
        np.testing.assert_allclose(ev.w_after, ev.w_before - 0.1 * (g @ X[index]),
                                   rtol=1e-12, atol=1e-12)
        np.testing.assert_allclose(ev.b_after, ev.b_before - 0.1 * 2.25 * g.sum(),
                                   rtol=1e-12, atol=1e-12)


def test_margin_losses_on_the_margin_axis():
    def margin_loss(name, z):
        return loss_for(name).value(z)

    z = np.array([-800.0, -2.0, 0.0, 0.5, 1.0, 3.0, 800.0])
    assert margin_loss("zero_one", z).tolist() == [1, 1, 1, 0, 0, 0, 0]
    assert margin_loss("perceptron", z).tolist() == [800, 2, 0, 0, 0, 0, 0]
    assert margin_loss("hinge", z).tolist() == [801, 3, 1, 0.5, 0, 0, 0]
    log = margin_loss("log_loss", z)
    assert log[0] == 800.0 and log[-1] == 0.0 and log[2] == math.log(2)
    np.testing.assert_allclose(log[1:-1], np.log1p(np.exp(-z[1:-1])), rtol=1e-15)
    assert {loss.name for loss in MARGIN_LOSSES} == {"zero_one", *LOSSES}
    with pytest.raises(ValueError, match="unknown loss 'squared'"):
        margin_loss("squared", z)


def test_the_compiled_loop_hands_its_checkpoints_to_a_log_that_halves(monkeypatch, backend):
    from perceptron_gui.core.learners import _log, gradient

    X, y = _data("overlapping", 10_000, 8)
    params = dict(loss="log_loss", eta0=0.01, max_iter=3)
    big = PrimalPerceptron(**params).fit(X, y)
    monkeypatch.setattr(_log, "LOG_BYTES", 2**15)
    monkeypatch.setattr(gradient, "SAMPLE_STRIDE", 16)  # many checkpoints: they must halve
    small = PrimalPerceptron(**params).fit(X, y)
    log = small.update_log
    assert log.stride >= 4 * 16 and log.nbytes <= log.budget
    assert np.array_equal(small.coef_, big.coef_) and small.intercept_ == big.intercept_
    rng = np.random.default_rng(3)
    for k in rng.integers(1, small.frontier + 1, 12).tolist():
        small.seek(k)
        big.seek(k)
        _same_event(small.event(k), big.event(k))
        assert np.array_equal(small.coef_, big.coef_)
