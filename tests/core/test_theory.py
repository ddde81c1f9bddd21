"""Tests for perceptron_gui.core.theory: margins, maximum margin, Novikoff bound, proof trace.

The maximum margin is checked against an exact reference computed here
independently (scipy's Qhull hulls, then point-segment distances), and
separability against a linear-programming feasibility test.
"""

from __future__ import annotations

import math
import subprocess
import sys
import time

import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st
from scipy.optimize import linprog
from scipy.spatial import ConvexHull, QhullError

from perceptron_gui.core import theory
from perceptron_gui.core.kernels import make_kernel
from perceptron_gui.core.theory import certificate

# --------------------------------------------------------------------------- #
# independent references
# --------------------------------------------------------------------------- #


def _hull_vertices(P: np.ndarray) -> np.ndarray:
    """Hull vertices in order (Qhull); 1 or 2 points for degenerate sets."""
    P = np.unique(P, axis=0)
    if len(P) <= 2:
        return P
    try:
        return P[ConvexHull(P).vertices]
    except QhullError:  # collinear: the two extreme points
        d = P - P[0]
        v = d[np.argmax((d**2).sum(axis=1))]
        s = d @ v
        return P[[np.argmin(s), np.argmax(s)]]


def _point_segment(p, a, b) -> float:
    e = b - a
    ee = e @ e
    t = 0.0 if ee == 0 else min(max((p - a) @ e / ee, 0.0), 1.0)
    return float(np.linalg.norm(p - a - t * e))


def reference_margin(X: np.ndarray, y: np.ndarray) -> float:
    """Half the distance between the two class hulls (valid when they are disjoint)."""
    A, B = _hull_vertices(X[y > 0]), _hull_vertices(X[y < 0])
    best = math.inf
    for H, O in ((A, B), (B, A)):
        m = len(O)
        segments = [(O[i], O[(i + 1) % m]) for i in range(m)] if m > 1 else [(O[0], O[0])]
        for p in H:
            for a, b in segments:
                best = min(best, _point_segment(p, a, b))
    return best / 2


def lp_separable(X: np.ndarray, y: np.ndarray) -> bool:
    """Strict linear separability: is {y_i (w·x_i + b) >= 1} feasible?"""
    n, d = X.shape
    A = -(y[:, None] * np.column_stack([X, np.ones(n)]))
    res = linprog(
        np.zeros(d + 1), A_ub=A, b_ub=-np.ones(n), bounds=[(None, None)] * (d + 1),
        method="highs",
    )
    return res.status == 0


def separable_set(rng, flavor: str) -> tuple[np.ndarray, np.ndarray]:
    """A random linearly separable 2-D set with both classes present."""
    while True:
        n = int(rng.integers(2, 120))
        theta = rng.uniform(0, 2 * np.pi)
        normal = np.array([np.cos(theta), np.sin(theta)])
        X = rng.normal(size=(n, 2)) * rng.uniform(0.2, 3.0, size=2)
        if flavor == "collinear":  # nearly collinear: a thin band along a random line
            t = rng.normal(size=n)
            X = np.outer(t, normal) + 1e-9 * rng.normal(size=(n, 2))
        if flavor == "duplicates":
            X = np.round(X, 0)
            X = np.concatenate([X, X[: n // 2]])
        y = np.where(X @ normal > 0, 1.0, -1.0)
        if abs(y.sum()) == len(y):
            continue
        gap = 10 ** rng.uniform(-3, 0)
        X = X + np.outer(y * gap, normal)
        if flavor == "scaled":
            X = X * 10 ** rng.uniform(-3, 3)
        if flavor == "offcentre":
            X = X + rng.uniform(-1, 1, size=2) * 10 ** rng.uniform(1, 3)
        return X, y


FLAVORS = ["plain", "scaled", "offcentre", "duplicates", "collinear"]


# --------------------------------------------------------------------------- #
# margins of a given hyperplane
# --------------------------------------------------------------------------- #


def test_functional_and_geometric_margins_by_hand():
    X = np.array([[1.0, 2.0], [3.0, -1.0], [0.0, 0.0]])
    y = np.array([1, -1, -1])
    w, b = np.array([3.0, 4.0]), -1.0
    np.testing.assert_allclose(theory.functional_margins(X, y, w, b), [10.0, -4.0, 1.0])
    np.testing.assert_allclose(theory.geometric_margins(X, y, w, b), [2.0, -0.8, 0.2])
    assert theory.hyperplane_margin(X, y, w, b) == pytest.approx(-0.8)


def test_zero_coef_and_empty_data():
    X = np.array([[1.0, 2.0], [3.0, -1.0]])
    y = np.array([1, -1])
    np.testing.assert_array_equal(theory.geometric_margins(X, y, [0.0, 0.0], 5.0), [0.0, 0.0])
    assert theory.hyperplane_margin(X, y, [0.0, 0.0], 5.0) == 0.0
    assert theory.hyperplane_margin(np.empty((0, 2)), [], [1.0, 0.0]) == math.inf


@pytest.mark.parametrize(
    "X, y, coef, match",
    [
        ([[0.0, 0.0]], [0], [1.0, 0.0], "-1 and \\+1"),
        ([[0.0, np.nan]], [1], [1.0, 0.0], "NaN"),
        ([[0.0, 0.0]], [1, 1], [1.0, 0.0], "shape"),
        ([[0.0, 0.0]], [1], [1.0, 0.0, 2.0], "entries"),
    ],
)
def test_margin_input_validation(X, y, coef, match):
    with pytest.raises(ValueError, match=match):
        theory.functional_margins(X, y, coef)


# --------------------------------------------------------------------------- #
# maximum margin
# --------------------------------------------------------------------------- #


def _check_max_margin(X, y, rtol=1e-8):
    res = theory.max_margin(X, y)
    assert res.separable and res.reason is None
    ref = reference_margin(X, y)
    assert res.margin == pytest.approx(ref, rel=rtol)
    # the returned hyperplane attains the margin
    hm = theory.hyperplane_margin(X, y, res.coef, res.intercept)
    assert hm == pytest.approx(res.margin, rel=1e-9)
    assert np.linalg.norm(res.coef) == pytest.approx(1.0 / res.margin, rel=1e-12)
    # canonical scaling: min functional margin 1, support vectors on the margin lines
    f = theory.functional_margins(X, y, res.coef, res.intercept)
    assert f.min() == pytest.approx(1.0, rel=1e-9)
    assert res.support.size >= 2
    np.testing.assert_allclose(f[res.support], 1.0, rtol=2e-9)
    others = np.setdiff1d(np.arange(len(y)), res.support)
    assert (f[others] > 1.0).all()
    # both classes have a support vector
    assert set(y[res.support]) == {-1.0, 1.0}
    return res


@pytest.mark.parametrize("flavor", FLAVORS)
def test_max_margin_matches_exact_reference(flavor):
    rng = np.random.default_rng(["plain", "scaled", "offcentre", "duplicates",
                                 "collinear"].index(flavor) + 100)
    for _ in range(40):
        X, y = separable_set(rng, flavor)
        _check_max_margin(X, y)


def test_max_margin_by_hand():
    # triangle at the origin vs a triangle at (3, 3): distance from (0.5, 0.5) to (3, 3)
    X = np.array([[0, 0], [1, 0], [0, 1], [3, 3], [4, 3], [3, 4]], dtype=float)
    y = np.array([1, 1, 1, -1, -1, -1])
    res = _check_max_margin(X, y)
    assert res.margin == pytest.approx(2.5 * math.sqrt(2) / 2, rel=1e-14)
    np.testing.assert_array_equal(np.sort(res.support), [1, 2, 3])
    # the hyperplane is x1 + x2 = 3.5, positive class below
    np.testing.assert_allclose(res.coef / res.coef[0], [1.0, 1.0])
    assert -res.intercept / res.coef[0] == pytest.approx(3.5)
    assert res.coef[0] < 0


def test_max_margin_single_points_and_1d():
    res = theory.max_margin([[0.0, 0.0], [2.0, 0.0]], [1, -1])
    assert res.margin == pytest.approx(1.0)
    np.testing.assert_allclose(res.coef, [-1.0, 0.0])
    assert res.intercept == pytest.approx(1.0)
    res = theory.max_margin([[0.0], [1.0], [3.0], [4.0]], [1, 1, -1, -1])
    assert res.separable and res.margin == pytest.approx(1.0)
    assert res.coef.shape == (1,)
    np.testing.assert_allclose(res.coef, [-1.0])
    assert res.intercept == pytest.approx(2.0)


def test_max_margin_agrees_with_sklearn_svc():
    from sklearn.svm import SVC

    rng = np.random.default_rng(7)
    for _ in range(4):
        X, y = separable_set(rng, "plain")
        res = theory.max_margin(X, y)
        svc = SVC(kernel="linear", C=1e10, tol=1e-10).fit(X, y)
        assert res.margin == pytest.approx(1.0 / np.linalg.norm(svc.coef_), rel=1e-4)


@pytest.mark.parametrize(
    "X, y, reason",
    [
        (np.empty((0, 2)), np.empty(0), "no points"),
        ([], [], "no points"),
        ([[1.0, 2.0]], [1], "one class only"),
        ([[1.0, 2.0], [3.0, 4.0]], [-1, -1], "one class only"),
        ([[1.0, 1.0], [1.0, 1.0]], [1, -1], "identical points in both classes"),
        ([[1.0, 1.0]] * 3, [1, -1, 1], "identical points in both classes"),
        ([[0, 0], [1, 1], [5, 5], [1, 1]], [1, 1, -1, -1], "identical points in both classes"),
        ([[0, 0], [1, 1], [0, 1], [1, 0]], [1, 1, -1, -1], "classes overlap"),  # XOR
        ([[0, 0], [2, 2], [1, 1], [3, 3]], [1, 1, -1, -1], "classes overlap"),  # collinear
        ([[0, 0], [2, 0], [1, 0], [1, 5]], [1, 1, -1, -1], "classes overlap"),  # touching
    ],
)
def test_max_margin_not_separable(X, y, reason):
    res = theory.max_margin(X, y)
    assert not res.separable
    assert res.reason == reason
    assert res.margin == 0.0
    assert np.isnan(res.coef).all() and math.isnan(res.intercept)
    assert res.support.size == 0


def test_max_margin_degenerate_but_separable():
    # duplicates in each class, all points of a class equal, collinear classes
    _check_max_margin(np.array([[0, 0], [0, 0], [3, 0], [3, 0]], float), np.array([1, 1, -1, -1]))
    X = np.array([[0, 0], [1, 1], [2, 2], [5, 5], [6, 6]], float)
    res = _check_max_margin(X, np.array([1, 1, 1, -1, -1]))
    assert res.margin == pytest.approx(1.5 * math.sqrt(2))
    # two parallel collinear classes: many support vectors
    X = np.array([[i, 0] for i in range(5)] + [[i, 1] for i in range(5)], float)
    res = _check_max_margin(X, np.array([1] * 5 + [-1] * 5))
    assert res.margin == pytest.approx(0.5)
    assert res.support.size == 10


@settings(max_examples=150, deadline=None)
@given(
    st.lists(
        st.tuples(st.integers(-3, 3), st.integers(-3, 3), st.sampled_from([-1, 1])),
        min_size=2,
        max_size=12,
    )
)
def test_max_margin_separability_matches_lp(points):
    X = np.array([p[:2] for p in points], dtype=float)
    y = np.array([p[2] for p in points], dtype=float)
    if abs(y.sum()) == len(y):
        return
    res = theory.max_margin(X, y)
    assert res.separable == lp_separable(X, y)
    if res.separable:
        _check_max_margin(X, y)
        nov = theory.novikoff(X, y)
        assert nov.separable
    else:
        nov = theory.novikoff(X, y)
        assert nov.separable is False and nov.bound == math.inf


def test_max_margin_rejects_3d_and_bad_labels():
    with pytest.raises(ValueError, match="1-D and 2-D"):
        theory.max_margin(np.zeros((3, 3)), [1, -1, 1])
    with pytest.raises(ValueError, match="-1 and \\+1"):
        theory.max_margin(np.zeros((2, 2)), [0, 1])


def test_max_margin_result_is_read_only():
    res = theory.max_margin([[0.0, 0.0], [2.0, 0.0]], [1, -1])
    with pytest.raises(ValueError):
        res.coef[0] = 1.0
    with pytest.raises(AttributeError):
        res.margin = 3.0


def test_max_margin_is_fast_on_10000_points():
    rng = np.random.default_rng(3)
    X = rng.normal(size=(10_000, 2))
    y = np.where(X @ [1.0, 2.0] > 0.1, 1.0, -1.0)
    X += 0.05 * y[:, None] * np.array([1.0, 2.0]) / math.sqrt(5)
    theory.max_margin(X, y)
    best = math.inf
    for _ in range(3):  # CPU time: other processes on a loaded machine do not add to it
        t = time.process_time()
        theory.max_margin(X, y)
        best = min(best, time.process_time() - t)
    assert best < 0.25  # a few ms in practice


# --------------------------------------------------------------------------- #
# Novikoff
# --------------------------------------------------------------------------- #


def _check_novikoff(X, y, **kw):
    res = theory.novikoff(X, y, **kw)
    fit_intercept = kw.get("fit_intercept", True)
    c = kw.get("bias_scale", 1.0)
    Z = np.column_stack([X, np.full(len(y), c)]) if fit_intercept else X
    assert res.augmented == fit_intercept
    assert res.radius == pytest.approx(np.linalg.norm(Z, axis=1).max(), rel=1e-14)
    assert res.separable is True and res.certified and res.reason is None
    assert (res.upper - res.lower) <= 1e-9 * res.upper
    assert res.margin == res.lower
    assert res.bound == pytest.approx((res.radius / res.margin) ** 2, rel=1e-14)
    assert res.w_star.shape == (Z.shape[1],)
    assert np.linalg.norm(res.w_star) == pytest.approx(1.0, rel=1e-14)
    assert (y * (Z @ res.w_star)).min() >= res.margin * (1 - 1e-9)
    return res


@pytest.mark.parametrize("flavor", ["plain", "scaled", "duplicates", "collinear"])
def test_novikoff_certificate(flavor):
    rng = np.random.default_rng(["plain", "scaled", "duplicates", "collinear"].index(flavor))
    for i in range(30):
        X, y = separable_set(rng, flavor)
        kw = {"bias_scale": float(np.abs(X).max()) * 10 ** rng.uniform(-1, 1)} if i % 2 else {}
        _check_novikoff(X, y, **kw)


def test_novikoff_margin_equals_max_margin_when_bias_is_huge():
    # with c -> infinity the through-origin margin of (x, c) tends to the bias margin
    X = np.array([[2.0], [1.0]])
    y = np.array([1, -1])
    res = _check_novikoff(X, y, bias_scale=1e6)
    assert res.margin == pytest.approx(theory.max_margin(X, y).margin, rel=1e-9)


def test_novikoff_by_hand_without_intercept():
    res = _check_novikoff(np.array([[1.0, 0.0], [-1.0, 0.0]]), np.array([1, -1]),
                          fit_intercept=False)
    assert res.margin == pytest.approx(1.0, rel=1e-15)
    assert res.radius == 1.0
    assert res.bound == pytest.approx(1.0, rel=1e-14)
    np.testing.assert_allclose(res.w_star, [1.0, 0.0], atol=1e-15)


@pytest.mark.parametrize(
    "c, gamma, radius",
    [
        # 1-D: x = 2 labelled +1, x = 1 labelled -1; g = (2, c), (-1, -c).  The nearest
        # point of the segment to 0 is g1 - t (g1 - g2), t = (6 + 2c²) / (9 + 4c²).
        (1.0, 1 / math.sqrt(13), math.sqrt(5)),  # t = 8/13, p = (2, -3) / 13
        (10.0, 10 / math.sqrt(409), math.sqrt(104)),  # t = 206/409, p = (200, -30) / 409
    ],
)
def test_novikoff_by_hand_bias_scale(c, gamma, radius):
    res = _check_novikoff(np.array([[2.0], [1.0]]), np.array([1, -1]), bias_scale=c)
    assert res.margin == pytest.approx(gamma, rel=1e-13)
    assert res.radius == pytest.approx(radius, rel=1e-15)
    assert res.bound == pytest.approx((radius / gamma) ** 2, rel=1e-12)


def test_novikoff_bias_scale_symmetric_pair():
    # (1, 0) / +1 and (-1, 0) / -1 with intercept: gamma = 1 for every c, R² = 1 + c²
    for c in (0.1, 1.0, 3.0):
        res = _check_novikoff(np.array([[1.0, 0.0], [-1.0, 0.0]]), np.array([1, -1]),
                              bias_scale=c)
        assert res.margin == pytest.approx(1.0, rel=1e-14)
        assert res.bound == pytest.approx(1.0 + c * c, rel=1e-13)
        np.testing.assert_allclose(res.w_star, [1.0, 0.0, 0.0], atol=1e-14)


@pytest.mark.parametrize(
    "X, y, kw, reason",
    [
        ([[0, 0], [1, 1], [0, 1], [1, 0]], [1, 1, -1, -1], {}, "classes overlap"),
        ([[1, 1], [1, 1], [2, 0]], [1, -1, 1], {}, "identical points in both classes"),
        ([[2, 0], [-2, 0]], [1, -1], {"fit_intercept": True, "bias_scale": 1.0}, None),
        ([[2, 0], [3, 0]], [1, -1], {"fit_intercept": False},
         "not separable by a hyperplane through the origin"),
        ([[0, 0], [1, 1]], [1, 1], {"fit_intercept": False}, "a sample at the origin"),
    ],
)
def test_novikoff_not_separable(X, y, kw, reason):
    X = np.asarray(X, dtype=float)
    res = theory.novikoff(X, y, **kw)
    if reason is None:  # control case: separable
        assert res.separable
        return
    assert res.separable is False
    assert res.reason == reason
    assert res.margin == 0.0 and res.bound == math.inf
    assert res.w_star is None
    assert res.certified and res.upper <= 1e-10 * res.radius


def test_novikoff_overlapping_gaussians():
    rng = np.random.default_rng(11)
    X = rng.normal(size=(400, 2))
    y = np.where(rng.random(400) < 0.5, 1.0, -1.0)
    res = theory.novikoff(X, y)
    assert res.separable is False and res.certified and res.bound == math.inf


def test_novikoff_edge_cases():
    res = theory.novikoff(np.empty((0, 2)), [])
    assert res.separable is None and res.reason == "no points" and math.isnan(res.bound)
    # one class: separable thanks to the bias feature
    res = _check_novikoff(np.array([[1.0, 2.0], [3.0, 4.0]]), np.array([1, 1]))
    assert res.margin == pytest.approx(math.sqrt(6), rel=1e-14)  # the point (1, 2, 1)
    # one point: gamma = R, bound 1
    res = _check_novikoff(np.array([[3.0, 4.0]]), np.array([-1]), fit_intercept=False)
    assert res.margin == pytest.approx(5.0) and res.bound == pytest.approx(1.0)
    # all points identical, one label: separable
    _check_novikoff(np.ones((5, 2)), -np.ones(5))
    # duplicates of the same labelled point in both classes: not separable
    X = np.array([[0.0, 0.0], [0.0, 0.0], [1.0, 1.0], [1.0, 1.0]])
    res = theory.novikoff(X, np.array([1, -1, 1, -1]))
    assert res.separable is False and res.reason == "identical points in both classes"
    with pytest.raises(ValueError, match="bias_scale"):
        theory.novikoff(X, [1, 1, 1, 1], bias_scale=0.0)


@pytest.mark.parametrize("fit_intercept", [True, False])
def test_novikoff_hull_prefilter_changes_nothing(monkeypatch, fit_intercept):
    # for 2-D data above 64 points only hull vertices enter the solver
    rng = np.random.default_rng(12)
    sets = [separable_set(rng, "plain") for _ in range(6)]
    sets = [(X, y) for X, y in sets if len(y) > 64]
    sets.append((np.round(rng.normal(size=(300, 2)), 1) + [3.0, 0.0], np.ones(300)))
    sets.append((rng.normal(size=(300, 2)), np.where(rng.random(300) < 0.5, 1.0, -1.0)))
    fast = [theory.novikoff(X, y, fit_intercept=fit_intercept, bias_scale=0.8) for X, y in sets]
    monkeypatch.setattr(certificate, "_hull_rows", lambda *args: None)
    for (X, y), a in zip(sets, fast, strict=True):
        b = theory.novikoff(X, y, fit_intercept=fit_intercept, bias_scale=0.8)
        assert a.separable == b.separable
        if a.separable:
            assert a.certified and b.certified
            assert a.margin == pytest.approx(b.margin, rel=1e-9)
    assert any(a.separable for a in fast) and not all(a.separable for a in fast)


def test_novikoff_is_fast_on_10000_points():
    rng = np.random.default_rng(5)
    X = rng.normal(size=(10_000, 2))
    y = np.where(X @ [1.0, -1.0] > 0.3, 1.0, -1.0)
    X += 0.05 * y[:, None] * np.array([1.0, -1.0])
    _check_novikoff(X, y)
    t = time.process_time()  # CPU time: other processes do not add to it
    theory.novikoff(X, y)
    assert time.process_time() - t < 0.5  # a few ms in practice


# --------------------------------------------------------------------------- #
# kernel Novikoff
# --------------------------------------------------------------------------- #


@pytest.mark.parametrize("fit_intercept", [True, False])
def test_kernel_linear_matches_primal(fit_intercept):
    rng = np.random.default_rng(21)
    lin = make_kernel("linear")
    for i in range(10):
        X, y = separable_set(rng, "plain")  # separable through the origin too
        c = 0.5 + i / 4
        a = theory.novikoff(X, y, fit_intercept=fit_intercept, bias_scale=c)
        b = theory.novikoff(X, y, fit_intercept=fit_intercept, bias_scale=c, kernel=lin)
        assert a.separable and b.separable and b.certified
        assert b.w_star is None
        assert b.radius == pytest.approx(a.radius, rel=1e-12)
        assert b.margin == pytest.approx(a.margin, rel=1e-9)
        assert b.bound == pytest.approx(a.bound, rel=2e-9)


def _check_kernel_certificate(X, y, kernel, c=1.0):
    res = theory.novikoff(X, y, kernel=kernel, bias_scale=c)
    Kp = kernel(X, X) + c * c
    assert res.radius == pytest.approx(math.sqrt(np.diag(Kp).max()), rel=1e-14)
    assert res.separable is True and res.certified
    assert math.isfinite(res.bound) and res.bound > 0
    assert (res.upper - res.lower) <= 1e-9 * res.upper
    beta = res.dual_coef
    Q = y[:, None] * Kp * y[None, :]
    assert beta @ Q @ beta == pytest.approx(1.0, rel=1e-9)  # w* is a unit vector
    assert (Q @ beta).min() >= res.margin * (1 - 1e-9)  # and attains the margin
    return res


def test_kernel_rbf_separates_xor_and_circles():
    xor = np.array([[0.0, 0.0], [1.0, 1.0], [0.0, 1.0], [1.0, 0.0]])
    yx = np.array([1.0, 1.0, -1.0, -1.0])
    assert theory.novikoff(xor, yx).separable is False
    res = _check_kernel_certificate(xor, yx, make_kernel("rbf", gamma=1.0))
    # by symmetry all four points are support vectors with equal weight
    np.testing.assert_allclose(res.dual_coef, res.dual_coef[0], rtol=1e-9)
    _check_kernel_certificate(xor, yx, make_kernel("poly", degree=2))

    rng = np.random.default_rng(4)
    r = np.concatenate([rng.uniform(0, 1, 100), rng.uniform(2, 3, 100)])
    t = rng.uniform(0, 2 * np.pi, 200)
    X = np.column_stack([r * np.cos(t), r * np.sin(t)])
    y = np.where(r > 1.5, 1.0, -1.0)
    assert theory.novikoff(X, y).separable is False
    _check_kernel_certificate(X, y, make_kernel("rbf", gamma=0.5), c=0.5)


def test_kernel_linear_xor_not_separable_and_kernel_by_name():
    xor = np.array([[0.0, 0.0], [1.0, 1.0], [0.0, 1.0], [1.0, 0.0]])
    yx = np.array([1.0, 1.0, -1.0, -1.0])
    res = theory.novikoff(xor, yx, kernel=make_kernel("linear"))
    assert res.separable is False and res.certified and res.bound == math.inf
    assert res.reason.startswith("not separable in the kernel's feature space")
    by_name = theory.novikoff(xor, yx, kernel="rbf")
    by_obj = theory.novikoff(xor, yx, kernel=make_kernel("rbf"))
    assert by_name.margin == by_obj.margin and by_name.separable


def test_kernel_not_separable_with_identical_points():
    X = np.array([[0.0, 0.0], [0.0, 0.0], [1.0, 0.0]])
    res = theory.novikoff(X, [1, -1, -1], kernel=make_kernel("rbf"))
    assert res.separable is False and res.certified and res.bound == math.inf
    assert res.reason == "identical points in both classes"


class _ExplodingKernel:
    """Quacks like a Kernel but refuses to build an n x n matrix."""

    def diagonal(self, A):
        return np.ones(len(A))

    def __call__(self, A, B):  # pragma: no cover - must not be reached
        raise AssertionError("kernel matrix computed above KERNEL_MARGIN_MAX_N")


def test_kernel_size_cap(monkeypatch):
    n = theory.KERNEL_MARGIN_MAX_N + 1
    X = np.random.default_rng(0).normal(size=(n, 2))
    y = np.where(X[:, 0] > 0, 1.0, -1.0)
    t = time.process_time()  # CPU time: other processes do not add to it
    res = theory.novikoff(X, y, kernel=_ExplodingKernel())
    assert time.process_time() - t < 0.5
    assert res.separable is None and math.isnan(res.bound) and math.isnan(res.margin)
    assert res.reason.startswith(
        f"the kernel margin is not computed above {theory.KERNEL_MARGIN_MAX_N:,} points")
    assert "KERNEL_MARGIN_MAX_N" not in res.reason  # no internal name reaches the user
    assert res.radius == pytest.approx(math.sqrt(2.0))
    # the cap applies to kernels only, and is read at call time
    monkeypatch.setattr(certificate, "KERNEL_MARGIN_MAX_N", 3)
    res = theory.novikoff(X[:4], y[:4], kernel=make_kernel("rbf"))
    assert res.separable is None and "above 3 points (n=4)" in res.reason
    assert theory.novikoff(X[:4], y[:4]).separable is not None


# --------------------------------------------------------------------------- #
# proof trace
# --------------------------------------------------------------------------- #


def test_proof_trace_by_hand():
    # augmented weights (w, b / c) with c = 2: (1, 0, 2) then (1, 1, 0)
    W = np.array([[1.0, 0.0], [1.0, 1.0]])
    B = np.array([4.0, 0.0])  # b / c = 2, then 0
    w_star = np.array([0.6, 0.8, 0.0])
    tr = theory.proof_trace(W, B, w_star=w_star, gamma=0.25, radius=3.0, bias_scale=2.0)
    np.testing.assert_array_equal(tr.k, [1, 2])
    np.testing.assert_allclose(tr.dot, [0.6, 1.4])
    np.testing.assert_allclose(tr.lower, [0.25, 0.5])
    np.testing.assert_allclose(tr.norm2, [5.0, 2.0])
    np.testing.assert_allclose(tr.upper, [9.0, 18.0])
    assert tr.holds
    # a radius too small breaks the second inequality at k = 1 only
    tr = theory.proof_trace(W, B, w_star=w_star, gamma=0.25, radius=2.0, bias_scale=2.0)
    np.testing.assert_array_equal(tr.norm_holds, [False, True])
    assert tr.dot_holds.all() and not tr.holds
    # a margin too large breaks the first
    tr = theory.proof_trace(W, B, w_star=w_star, gamma=0.65, radius=3.0, bias_scale=2.0)
    np.testing.assert_array_equal(tr.dot_holds, [False, True])
    assert not tr.holds
    # without intercept B is ignored and learning rate scales the bounds
    tr = theory.proof_trace(W, B, w_star=[0.6, 0.8], gamma=0.25, radius=3.0,
                            eta0=0.5, fit_intercept=False)
    np.testing.assert_allclose(tr.norm2, [1.0, 2.0])
    np.testing.assert_allclose(tr.lower, [0.125, 0.25])
    np.testing.assert_allclose(tr.upper, [2.25, 4.5])


def _perceptron_updates(X, y, eta, c, fit_intercept=True, max_iter=10_000):
    """A plain cyclic perceptron: weights and biases after each update."""
    w = np.zeros(X.shape[1])
    b = 0.0
    W, B = [], []
    for _ in range(max_iter):
        mistakes = 0
        for xi, yi in zip(X, y, strict=True):
            if yi * (w @ xi + b) <= 0:
                w = w + eta * yi * xi
                if fit_intercept:
                    b = b + eta * yi * c * c  # b = c w0, w0 += eta y c
                W.append(w.copy())
                B.append(b)
                mistakes += 1
        if mistakes == 0:
            return np.array(W), np.array(B)
    raise AssertionError("perceptron did not converge")


@pytest.mark.parametrize("fit_intercept", [True, False])
def test_proof_trace_holds_along_a_real_run(fit_intercept):
    rng = np.random.default_rng(8)
    done = 0
    while done < 5:
        X, y = separable_set(rng, "plain")  # separable through the origin
        eta, c = 0.3, 1.7
        nov = theory.novikoff(X, y, fit_intercept=fit_intercept, bias_scale=c)
        if nov.bound > 5000:  # keep the pure-Python perceptron quick
            continue
        done += 1
        W, B = _perceptron_updates(X, y, eta, c, fit_intercept)
        assert len(W) <= nov.bound
        tr = theory.proof_trace(
            W, B, w_star=nov.w_star, gamma=nov.margin, radius=nov.radius,
            eta0=eta, fit_intercept=fit_intercept, bias_scale=c,
        )
        assert tr.holds
        # Cauchy-Schwarz: k eta gamma <= ||w_k|| <= sqrt(k) eta R
        assert (tr.lower <= np.sqrt(tr.norm2) * (1 + 1e-12)).all()


def test_proof_trace_empty():
    tr = theory.proof_trace(np.empty((0, 2)), np.empty(0), w_star=[1.0, 0.0, 0.0],
                            gamma=1.0, radius=1.0)
    assert tr.k.size == 0 and tr.holds


# --------------------------------------------------------------------------- #
# module hygiene
# --------------------------------------------------------------------------- #


def test_import_is_light():
    code = (
        "import sys; import perceptron_gui.core.theory; "
        "bad = [m for m in ('scipy', 'sklearn', 'PySide6', 'pyqtgraph') if m in sys.modules]; "
        "print(bad); sys.exit(1 if bad else 0)"
    )
    proc = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True)
    assert proc.returncode == 0, proc.stdout + proc.stderr
