"""Separability is a property of the signs, not of the scale (issue 12: honest numbers).

The same separable data multiplied by constants from 1e-300 to 1e300, and points
near the largest and smallest floats: ``novikoff`` and ``max_margin`` agree that
they are separable and report R and gamma in the user's units; the bound is
finite whenever ``(R / gamma)²`` is a float; a perceptron run whose arithmetic
overflows ends as ``diverged_``, never ``converged_``; the workspace's readouts
never raise.
"""

import math

import numpy as np
import pytest

from perceptron_gui.core import DualPerceptron, PrimalPerceptron, Workspace, theory
from perceptron_gui.core.dataset import Dataset
from perceptron_gui.core.kernels import make_kernel
from perceptron_gui.core.learners._run import MARGIN_NAN
from perceptron_gui.core.theory.augmented import augmented_margin

#: Data at large scale (`make test` runs these too).
pytestmark = pytest.mark.slow

SCALES = [1e-300, 1e-200, 1e-100, 1e-20, 1e-5, 1.0, 1e5, 1e20, 1e100, 1e200, 1e300]
HUGE = np.array([[1.7e308, 1.7e308], [-1.7e308, -1.7e308], [1.7e308, -1.7e308], [-1.7e308, 1e308]])
HUGE_Y = np.array([1, -1, -1, 1])
TINY = np.array([[1.0, 1.0], [-1.0, -1.0], [1.0, -1.0], [-1.0, 1.0]]) * 1e-300


def _off_centre(seed=0, n=40):
    """Separable points far from the origin: no line through the origin separates them."""
    rng = np.random.default_rng(seed)
    X = rng.normal(size=(3 * n, 2)) + [6.0, -4.0]
    s = X[:, 0] - 6.0 + 0.3 * (X[:, 1] + 4.0)
    keep = np.abs(s) > 0.2
    X, s = X[keep][:n], s[keep][:n]
    return X, np.where(s > 0, 1.0, -1.0)


def _attained(X, y, w_star, c=1.0):
    """``min_i y_i w*·(x_i, c)``, computed without overflow."""
    return float(theory.functional_margins(X, y, w_star[:-1], c * w_star[-1]).min())


def test_the_base_set_is_not_separable_through_the_origin():
    X, y = _off_centre()
    assert theory.max_margin(X, y).separable
    assert theory.novikoff(X, y, fit_intercept=False).separable is False


@pytest.mark.parametrize("scale", SCALES)
def test_novikoff_and_max_margin_agree_at_every_scale(scale):
    X, y = _off_centre()
    Xs = X * scale
    mm = theory.max_margin(Xs, y)
    nv = theory.novikoff(Xs, y)
    assert mm.separable and nv.separable
    base = theory.max_margin(X, y)
    assert mm.margin == pytest.approx(base.margin * scale, rel=1e-9)
    assert mm.intercept == pytest.approx(base.intercept, rel=1e-9, abs=1e-9)
    np.testing.assert_allclose(mm.coef * scale, base.coef, rtol=1e-9)
    # gamma is attained by w_star (a valid lower bound), in the user's units
    assert nv.margin > 0 and nv.margin == nv.lower
    assert _attained(Xs, y, nv.w_star) == pytest.approx(nv.margin, rel=1e-9)
    assert np.linalg.norm(nv.w_star) == pytest.approx(1.0, rel=1e-12)
    # R in the user's units
    expected_r = math.sqrt(scale**2 * (X**2).sum(axis=1).max() + 1.0) if scale < 1e150 else (
        scale * math.sqrt((X**2).sum(axis=1).max()))
    assert nv.radius == pytest.approx(expected_r, rel=1e-12)
    # the bound: finite whenever representable, and then (R / gamma)²
    ratio_sq = (nv.radius / nv.margin) ** 2 if nv.radius / nv.margin < 1e154 else math.inf
    if math.isfinite(ratio_sq):
        assert nv.bound == pytest.approx(ratio_sq, rel=1e-9)
        assert nv.bound >= 1.0
    else:
        assert nv.bound == math.inf
        assert "exceeds the largest float" in nv.reason


def test_scale_invariance_of_gamma_with_the_bias():
    """gamma of (x, c) scales with x and c together."""
    X, y = _off_centre()
    ref = theory.novikoff(X, y)
    for k in (1e-200, 1e-20, 1e20, 1e200):
        nv = theory.novikoff(X * k, y, bias_scale=k)
        assert nv.separable
        assert nv.margin == pytest.approx(ref.margin * k, rel=1e-7)
        assert nv.bound == pytest.approx(ref.bound, rel=1e-6)


@pytest.mark.parametrize("scale", [1e-100, 1e-20, 1e20, 1e100])
def test_the_bound_is_finite_when_representable(scale):
    X, y = _off_centre()
    nv = theory.novikoff(X * scale, y)
    assert nv.separable
    assert math.isfinite(nv.bound) and nv.bound > 1
    assert "direction search" in nv.reason  # the LDP lost the bias feature
    assert nv.certified is False


@pytest.mark.parametrize("scale", [1e-200, 1e200])
def test_an_unrepresentable_bound_is_inf_and_says_why(scale):
    X, y = _off_centre()
    nv = theory.novikoff(X * scale, y)
    assert nv.separable is True and nv.bound == math.inf
    assert "exceeds the largest float" in nv.reason and "not separable" not in nv.reason


def test_ordinary_data_keep_the_certified_ldp():
    X, y = _off_centre()
    nv = theory.novikoff(X, y)
    assert nv.separable and nv.certified and nv.reason is None


def test_direction_search_agrees_with_the_ldp_on_ordinary_data():
    rng = np.random.default_rng(0)
    checked = 0
    for _ in range(60):
        n = int(rng.integers(4, 60))
        X = rng.normal(size=(n, 2)) * rng.uniform(0.5, 3) + rng.normal(size=2) * rng.uniform(0, 5)
        w, b = rng.normal(size=2), rng.normal()
        s = X @ w + b
        keep = np.abs(s) / np.linalg.norm(w) > 0.05
        X, y = X[keep], np.where(s[keep] > 0, 1.0, -1.0)
        if abs(y.sum()) == len(y):
            continue
        c = float(rng.choice([0.25, 1.0, 4.0]))
        nv = theory.novikoff(X, y, bias_scale=c)
        assert nv.certified
        gamma, u = augmented_margin(X, y, c, theory.max_margin(X, y).coef)
        assert gamma == pytest.approx(nv.margin, rel=1e-9)
        assert _attained(X, y, u, c) == pytest.approx(gamma, rel=1e-9, abs=1e-12)
        checked += 1
    assert checked > 30


def test_gamma_against_a_linear_program():
    """Oracle: gamma = max t s.t. y_i u·z_i >= t, |u|_inf <= 1 is not gamma, but the
    LP's direction, normalised, attains at most gamma and the LDP at least it."""
    from scipy.optimize import linprog

    X, y = _off_centre()
    Z = np.column_stack([X, np.ones(len(y))])
    # variables (u, t): maximise t, y_i u·z_i >= t, -1 <= u_j <= 1
    res = linprog(
        c=[0, 0, 0, -1], A_ub=np.column_stack([-(y[:, None] * Z), np.ones(len(y))]),
        b_ub=np.zeros(len(y)), bounds=[(-1, 1)] * 3 + [(None, None)],
    )
    u = res.x[:3] / np.linalg.norm(res.x[:3])
    lp_margin = float((y * (Z @ u)).min())
    for scale in (1.0, 1e20, 1e-20):
        nv = theory.novikoff(X * scale, y, bias_scale=scale)
        assert nv.margin >= lp_margin * scale * (1 - 1e-9)


def test_max_margin_against_svc():
    from sklearn.svm import SVC

    X, y = _off_centre()
    svc = SVC(kernel="linear", C=1e10, tol=1e-10).fit(X, y)
    for scale in (1.0, 1e200, 1e-200):
        mm = theory.max_margin(X * scale, y)
        np.testing.assert_allclose(mm.coef * scale, svc.coef_[0], rtol=1e-5)
        assert mm.intercept == pytest.approx(svc.intercept_[0], rel=1e-5)


def test_the_largest_floats():
    mm = theory.max_margin(HUGE, HUGE_Y)
    nv = theory.novikoff(HUGE, HUGE_Y)
    assert mm.separable and nv.separable
    assert np.isfinite(mm.coef).all() and math.isfinite(mm.intercept)
    assert (np.sign(theory.functional_margins(HUGE, HUGE_Y, mm.coef, mm.intercept)) > 0).all()
    # |z| exceeds the largest float: R is inf and says so, the bound is still a number
    assert nv.radius == math.inf and "R exceeds the largest float" in nv.reason
    assert math.isfinite(nv.bound) and nv.bound >= 1
    assert _attained(HUGE, HUGE_Y, nv.w_star) > 0


def test_the_smallest_floats():
    mm = theory.max_margin(TINY, HUGE_Y)
    nv = theory.novikoff(TINY, HUGE_Y)
    assert mm.separable and mm.margin == pytest.approx(1e-300)
    assert nv.separable is True and nv.margin == pytest.approx(1e-300, rel=1e-9)
    assert nv.bound == math.inf and "exceeds the largest float" in nv.reason
    # without a bias, uniform scaling suffices: the certified answer
    nv0 = theory.novikoff(TINY, HUGE_Y, fit_intercept=False)
    assert nv0.separable and nv0.certified
    assert nv0.margin == pytest.approx(1e-300, rel=1e-12) and nv0.bound == pytest.approx(2.0)


def test_margins_never_nan_at_the_largest_floats():
    w = np.array([1.0, 1.0])
    f = theory.functional_margins(HUGE, HUGE_Y, w * 1e10, 0.0)
    assert not np.isnan(f).any()
    assert f[0] == math.inf and f[1] == math.inf
    g = theory.geometric_margins(HUGE, HUGE_Y, w)
    assert not np.isnan(g).any()
    assert g[3] == pytest.approx((-1.7e308 + 1e308) / math.sqrt(2.0), rel=1e-15)
    g = theory.geometric_margins(HUGE, HUGE_Y, np.array([1e300, -1e300]), 1e300)
    assert not np.isnan(g).any()
    assert theory.hyperplane_margin(HUGE, HUGE_Y, np.array([0.0, 1.0])) == pytest.approx(1e308)


def test_rbf_distances_at_huge_scales():
    K = make_kernel("rbf")(HUGE, HUGE)
    np.testing.assert_array_equal(K, np.eye(4))


def test_an_overflowing_polynomial_kernel_is_a_clear_value_error():
    X, y = _off_centre()
    with pytest.raises(ValueError, match="the polynomial kernel overflows at this data scale"):
        theory.novikoff(X * 1e200, y, kernel="poly")
    nv = theory.novikoff_or_reason(X * 1e200, y, kernel="poly")
    assert nv.separable is None and "rescale the data" in nv.reason


def test_huge_points_end_as_diverged_never_converged(backend):
    p = PrimalPerceptron(max_iter=50).fit(HUGE, HUGE_Y)
    assert not p.converged_
    assert p.diverged_ and p.diverged_reason_ == MARGIN_NAN
    assert math.isnan(p.history[-1].margin) and not p.history[-1].mistake


@pytest.mark.parametrize("scale", [1e200, 1e300])
def test_overflowing_runs_never_claim_convergence(scale, backend):
    X, y = _off_centre()
    p = PrimalPerceptron(max_iter=200).fit(X * scale, y)
    assert not p.converged_ and p.diverged_
    d = DualPerceptron(max_iter=200).fit(X * scale, y)
    assert not d.converged_ and d.diverged_


def test_a_clean_epoch_with_a_nan_margin_is_not_a_convergence():
    """The engine's own check, whatever the scan reported."""
    p = PrimalPerceptron().start(HUGE, HUGE_Y)
    assert p._any_nan_margin(np.array([1e10, 1e10]), 0.0)
    assert not p._any_nan_margin(np.array([1.0, 0.0]), 0.0)


def test_tiny_points_report_what_the_arithmetic_gives():
    p = PrimalPerceptron(max_iter=50).fit(TINY, HUGE_Y)
    assert not p.converged_ and not p.diverged_ and p.n_epochs_ == 50
    ws = Workspace(Dataset(TINY, HUGE_Y))
    ws.set_params(max_iter=50)
    ws.run_to_end()
    message = ws.end_message()
    assert "underflow" in message and "Rescale the data" in message
    r = ws.readouts()
    assert r.separable is True and "exceeds the largest float" in r.bound_text


def test_the_workspace_says_why_a_run_stopped():
    ws = Workspace(Dataset(HUGE, HUGE_Y))
    ws.run_to_end()
    assert ws.learner.diverged_
    assert "not a number" in ws.end_message()
    r = ws.readouts()
    assert r.training_error > 0  # NaN margins are not counted as correct


CASES = [(X_ * s, y_) for (X_, y_) in [_off_centre()] for s in SCALES] + [
    (HUGE, HUGE_Y), (TINY, HUGE_Y)]


@pytest.mark.parametrize("case", range(len(CASES)))
@pytest.mark.parametrize(
    "learner", ["primal", "dual", "dual-rbf", "dual-poly", "lda"])
def test_readouts_never_raise(case, learner):
    X, y = CASES[case]
    ws = Workspace(Dataset(X, y))
    name, _, kernel = learner.partition("-")
    ws.set_learner(name)
    if kernel:
        ws.set_params(kernel=kernel)
    r = ws.readouts()
    assert isinstance(r.bound_text, str)
    ws.max_margin  # noqa: B018
    if name != "lda":
        ws.step_update()
        ws.readouts()
        ws.set_params(max_iter=20)
        ws.run_to_end()
        r = ws.readouts()
        assert isinstance(ws.end_message(), str)
        assert ws.proof() is None or ws.proof().k.size == ws.learner.n_updates_
    else:
        assert ws.lda is not None
        assert np.isfinite(ws.lda.coef_).all()
