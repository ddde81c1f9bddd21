"""Weight space: the constraint normals, the feasible region and the trajectory.

Every region is checked against an independent computation: a linear program
(scipy's ``linprog``) for the cone without a bias, scipy's
``HalfspaceIntersection`` for the chart's polygon, and the perceptron's update
rule replayed by hand for the trajectory.
"""

from __future__ import annotations

import math

import numpy as np
import pytest
from scipy.optimize import linprog
from scipy.spatial import ConvexHull, HalfspaceIntersection

from perceptron_gui.core import generators
from perceptron_gui.core.learners.dual import DualPerceptron
from perceptron_gui.core.learners.primal import PrimalPerceptron
from perceptron_gui.core.theory import novikoff
from perceptron_gui.core.theory.weight_space import (
    chart_basis,
    clip_polygon,
    constraint_normals,
    feasible_region,
    feasible_slice,
    generous_lines,
    gnomonic,
    trajectory,
)
from tests.benchmarks.bench_weight_space import line_by_line

SEEDS = range(12)


def _separable(seed: int, n: int = 30, through_origin: bool = False):
    rng = np.random.default_rng(seed)
    normal = rng.normal(size=2)
    normal /= np.linalg.norm(normal)
    offset = 0.0 if through_origin else rng.uniform(-1.5, 1.5)
    X = rng.uniform(-4, 4, size=(4 * n, 2))
    s = X @ normal + offset
    keep = np.abs(s) > 0.3
    X, s = X[keep][:n], s[keep][:n]
    return X, np.where(s > 0, 1.0, -1.0)


def _lp_feasible(Z: np.ndarray) -> bool:
    """Whether some w in the box has z_i·w >= t for all i with t > 0 (by LP)."""
    d = Z.shape[1]
    # variables (w, t): maximise t, -z_i·w + t <= 0, -1 <= w <= 1, t <= 1
    res = linprog(np.r_[np.zeros(d), -1.0], A_ub=np.column_stack([-Z, np.ones(len(Z))]),
                  b_ub=np.zeros(len(Z)), bounds=[(-1, 1)] * d + [(None, 1)], method="highs")
    return res.status == 0 and -res.fun > 1e-9


def test_normals_are_labels_times_augmented_points():
    X = np.array([[1.0, 2.0], [3.0, -1.0]])
    y = np.array([1.0, -1.0])
    Z = constraint_normals(X, y, fit_intercept=True, bias_scale=0.5)
    np.testing.assert_array_equal(Z, [[1.0, 2.0, 0.5], [-3.0, 1.0, -0.5]])
    np.testing.assert_array_equal(constraint_normals(X, y, fit_intercept=False),
                                  [[1.0, 2.0], [-3.0, 1.0]])
    with pytest.raises(ValueError, match="bias_scale must be a finite number > 0, got 0"):
        constraint_normals(X, y, bias_scale=0)


@pytest.mark.parametrize("seed", SEEDS)
def test_cone_edges_against_the_normals_and_an_lp(seed):
    X, y = _separable(seed, through_origin=seed % 2 == 0)
    region = feasible_region(X, y, fit_intercept=False)
    Z = constraint_normals(X, y, fit_intercept=False)
    assert region.empty == (not _lp_feasible(Z))
    assert region.empty == (not novikoff(X, y, fit_intercept=False).separable)
    if region.empty:
        assert region.kind == "empty" and region.reason
        return
    assert region.kind == "cone"
    e0, e1 = region.edges
    np.testing.assert_allclose(np.hypot(*region.edges.T), 1.0)
    # each edge lies on its active case's line, every case on the good side of both
    b, a = region.active
    assert abs(Z[b] @ e0) <= 1e-12 * np.linalg.norm(Z[b])
    assert abs(Z[a] @ e1) <= 1e-12 * np.linalg.norm(Z[a])
    scale = np.linalg.norm(Z, axis=1)
    assert (Z @ e0 >= -1e-12 * scale).all() and (Z @ e1 >= -1e-12 * scale).all()
    assert e0[0] * e1[1] - e0[1] * e1[0] > 0  # counter-clockwise, narrower than π
    # directions strictly between the edges are feasible, those outside are not
    t0, t1 = math.atan2(e0[1], e0[0]), math.atan2(e1[1], e1[0])
    span = (t1 - t0) % (2 * np.pi)
    for frac in (0.01, 0.3, 0.5, 0.99):
        t = t0 + frac * span
        assert (Z @ [math.cos(t), math.sin(t)] > 0).all()
    t = t1 + 0.5 * (2 * np.pi - span)
    assert not (Z @ [math.cos(t), math.sin(t)] > 0).all()
    # the region's own membership test agrees with the constraints
    P = np.random.default_rng(seed).normal(size=(200, 2))
    np.testing.assert_array_equal(region.contains(P), (P @ Z.T > 0).all(axis=1))


def test_cone_degenerate_cases():
    region = feasible_region([[1.0, 1.0], [2.0, 2.0]], [1, 1], fit_intercept=False)
    assert region.kind == "half-plane" and not region.empty
    np.testing.assert_allclose(region.edges, [[1, -1], [-1, 1]] / np.sqrt(2))
    opposite = feasible_region([[1.0, 0.0], [2.0, 0.0]], [1, -1], fit_intercept=False)
    assert opposite.empty and opposite.kind == "empty"
    origin = feasible_region([[0.0, 0.0], [1.0, 0.0]], [1, -1], fit_intercept=False)
    assert origin.empty and "case 0 lies at the origin" in origin.reason
    assert feasible_region(np.empty((0, 2)), [], fit_intercept=False).kind == "all"


def test_gnomonic_chart_maps_the_center_to_the_origin():
    u = np.array([0.3, -0.4, 0.8])
    E = chart_basis(u)
    np.testing.assert_allclose(E @ E.T, np.eye(2), atol=1e-15)
    np.testing.assert_allclose(E @ (u / np.linalg.norm(u)), 0.0, atol=1e-15)
    np.testing.assert_allclose(gnomonic(5.0 * u, u), [0.0, 0.0], atol=1e-15)
    w = np.array([[1.0, 2.0, 3.0], [-0.3, 0.4, -0.8]])
    P = gnomonic(w, u)
    un = u / np.linalg.norm(u)
    np.testing.assert_allclose(P[0], (E @ w[0]) / (w[0] @ un))
    assert np.isnan(P[1]).all()  # the opposite hemisphere is not in the chart
    # scaling w does not move its point: the chart shows directions
    np.testing.assert_allclose(gnomonic(7.0 * w[0], u), P[0])


def _scipy_polygon(lines: np.ndarray, p0: np.ndarray, box: float) -> np.ndarray:
    """The vertices of {p : a p1 + b p2 + d >= 0} within a box, by scipy."""
    # scipy's halfspaces: A x + b <= 0
    hs = np.vstack([-lines, [[1, 0, -box], [-1, 0, -box], [0, 1, -box], [0, -1, -box]]])
    return HalfspaceIntersection(hs, p0).intersections


@pytest.mark.parametrize("seed", SEEDS)
@pytest.mark.parametrize("c", [0.25, 1.0, 4.0])
def test_chart_polygon_against_scipy_halfspace_intersection(seed, c):
    X, y = _separable(seed, n=12 + seed)
    region = feasible_region(X, y, bias_scale=c)
    nov = novikoff(X, y, bias_scale=c)
    assert not region.empty and nov.separable
    np.testing.assert_allclose(region.center, nov.w_star)  # centred on w*
    # the lines are the normals' in the chart, scaled by one power of two (the same lines)
    ref_d = constraint_normals(X, y, bias_scale=c) @ nov.w_star
    factor = region.lines[0, 2] / ref_d[0]
    assert abs(np.log2(factor) - round(np.log2(factor))) < 1e-9
    np.testing.assert_allclose(region.lines[:, 2], factor * ref_d, rtol=1e-12)
    assert (region.lines[:, 2] > 0).all()  # w* is feasible: the centre is inside
    box = 4.0 * max(1.0, float(np.abs(region.vertices).max(initial=0.0)))
    ref = _scipy_polygon(region.lines, np.zeros(2), box)
    mine = region.clipped((-box, box), (-box, box))
    assert math.isclose(ConvexHull(mine).volume, ConvexHull(ref).volume, rel_tol=1e-9)
    # every vertex of ours is one of scipy's
    for v in region.vertices:
        assert np.min(np.hypot(*(ref - v).T)) <= 1e-8 * box
    # vertices lie on two active lines, inside all the others
    L = region.lines
    vals = region.vertices @ L[:, :2].T + L[:, 2]
    tol = 1e-9 * np.abs(L).sum(axis=1) * max(1.0, float(np.abs(region.vertices).max()))
    assert (vals >= -tol).all()
    assert ((np.abs(vals) <= tol).sum(axis=1) >= 2).all()
    if region.kind == "unbounded":
        for v, r in ((region.vertices[0], region.rays[0]), (region.vertices[-1], region.rays[1])):
            far = v + 1e3 * box * r
            assert (far @ L[:, :2].T + L[:, 2] >= -1e-6 * np.abs(far).max()).all()
    else:
        assert region.kind == "polygon"
        assert math.isclose(ConvexHull(region.vertices).volume, ConvexHull(mine).volume,
                            rel_tol=1e-9)
        # counter-clockwise
        V = region.vertices
        assert 0.5 * np.sum(V[:, 0] * np.roll(V[:, 1], -1) - np.roll(V[:, 0], -1) * V[:, 1]) > 0


def test_bias_scale_changes_the_chart():
    X, y = _separable(3)
    a = feasible_region(X, y, bias_scale=0.5)
    b = feasible_region(X, y, bias_scale=2.0)
    assert not np.allclose(a.lines, b.lines)
    assert not np.allclose(a.center, b.center)


def _check_against_scipy(region, box):
    ref = _scipy_polygon(region.lines, np.zeros(2), box)
    mine = region.clipped((-box, box), (-box, box))
    assert math.isclose(ConvexHull(mine).volume, ConvexHull(ref).volume, rel_tol=1e-9)


def test_two_cases_make_a_strip():
    # w* is a combination of the two normals: their great circles meet on the horizon
    region = feasible_region(np.array([[2.0, 1.0], [-1.0, 0.5]]), np.array([1.0, -1.0]))
    assert region.kind == "strip" and not region.empty
    L = region.lines
    for v, r, i in zip(region.vertices, region.rays, region.active, strict=True):
        assert abs(L[i, :2] @ v + L[i, 2]) <= 1e-12 * np.abs(L[i]).sum()  # on its line
        assert abs(L[i, :2] @ r) <= 1e-12 * np.abs(L[i, :2]).sum()  # along it
    _check_against_scipy(region, 50.0)


@pytest.mark.parametrize("ulps", [-4, -2, -1, 1, 2, 4])
@pytest.mark.parametrize("i, j", [(0, 0), (0, 1), (1, 0), (1, 1)])
def test_two_cases_parallel_to_rounding_make_a_strip(i, j, ulps):
    # the kind must not hang on the last bit of a library's rounding: the two
    # lines of test_two_cases_make_a_strip, one coordinate moved a few ulps
    X = np.array([[2.0, 1.0], [-1.0, 0.5]])
    X[i, j] += ulps * np.spacing(X[i, j])
    region = feasible_region(X, np.array([1.0, -1.0]))
    assert region.kind == "strip"
    assert np.isfinite(region.vertices).all() and region.vertices.shape == (2, 2)
    _check_against_scipy(region, 50.0)


def test_a_half_strip_is_unbounded_with_two_parallel_rays():
    X = np.array([[1.0, 0.0], [-1.0, 0.0], [3.0, 5.0]])
    region = feasible_region(X, np.array([1.0, -1.0, 1.0]))
    assert region.kind == "unbounded"
    np.testing.assert_allclose(region.rays[0], region.rays[1])
    assert sorted(region.active.tolist()) == [0, 1, 2]
    for v, r in ((region.vertices[0], region.rays[0]), (region.vertices[-1], region.rays[1])):
        assert region.contains(v + 0.5 * (region.vertices.mean(axis=0) - v) + 100.0 * r)[0]
    _check_against_scipy(region, 50.0)
    # the fourth case closes it: a bounded polygon
    closed = feasible_region(np.vstack([X, [[-2.0, 4.0]]]), np.array([1.0, -1.0, 1.0, -1.0]))
    assert closed.kind == "polygon" and closed.vertices.shape == (4, 2)
    _check_against_scipy(closed, 50.0)


def test_one_case_leaves_the_whole_chart():
    # its normal is w* itself: its great circle is the chart's horizon
    one = feasible_region([[1.0, 1.0]], [1.0])
    assert one.kind == "all" and one.contains([[0.0, 0.0], [1e6, -1e6]]).all()


def test_a_center_off_w_star_is_translated_to_an_interior_point():
    X, y = _separable(5)
    star = feasible_region(X, y)
    other = star.center + np.array([0.05, -0.03, 0.02])
    region = feasible_region(X, y, center=other)
    np.testing.assert_allclose(region.center, other / np.linalg.norm(other))
    box = 4.0 * max(1.0, float(np.abs(region.vertices).max()))
    p0 = gnomonic(star.center, other)
    ref = _scipy_polygon(region.lines, p0, box)
    mine = region.clipped((-box, box), (-box, box))
    assert math.isclose(ConvexHull(mine).volume, ConvexHull(ref).volume, rel_tol=1e-9)
    with pytest.raises(ValueError, match=r"does not show w\* \(w\*·center <= 0\)"):
        feasible_region(X, y, center=-star.center)


def test_non_separable_region_is_empty_and_says_why():
    data = generators.xor(40, seed=1)
    region = feasible_region(data.X, data.y)
    assert region.empty and region.kind == "empty" and region.reason
    assert not region.contains([[0.0, 0.0]])[0]
    assert region.clipped((-1, 1), (-1, 1)).shape == (0, 2)
    assert region.lines.shape == (40, 3)


def _replay(X, s, c, fit_intercept, eta=1.0):
    """The cyclic perceptron by hand: the weights after each update."""
    Z = np.column_stack([X, np.full(len(X), c)]) if fit_intercept else X
    Z = Z * s[:, None]
    w = np.zeros(Z.shape[1])
    out, cases = [w.copy()], []
    for _epoch in range(1000):
        mistakes = 0
        for i in range(len(Z)):
            if Z[i] @ w <= 0:
                w = w + eta * Z[i]
                out.append(w.copy())
                cases.append(i)
                mistakes += 1
        if not mistakes:
            break
    return np.array(out), cases


@pytest.mark.parametrize("fit_intercept", [True, False])
@pytest.mark.parametrize("c", [1.0, 0.5])
def test_trajectory_against_the_update_rule(fit_intercept, c):
    X, y = _separable(2, n=40, through_origin=not fit_intercept)
    ref, cases = _replay(X, y, c, fit_intercept)
    for learner in (PrimalPerceptron(fit_intercept=fit_intercept, bias_scale=c),
                    DualPerceptron(fit_intercept=fit_intercept, bias_scale=c)):
        learner.start(X, y)
        learner.run_to_end()
        k = learner.n_updates_
        assert k == len(ref) - 1
        tr = trajectory(learner.history.updates, learner.training_X, learner.training_signs,
                        fit_intercept=fit_intercept, bias_scale=c, k=k)
        np.testing.assert_allclose(tr.w, ref, rtol=1e-12, atol=1e-12)
        np.testing.assert_array_equal(tr.count, np.arange(k + 1))
        assert tr.last_case == cases[-1]
        # a thinned trajectory keeps w_0 and w_k and exact states between
        short = trajectory(learner.history.updates, learner.training_X,
                           learner.training_signs, fit_intercept=fit_intercept,
                           bias_scale=c, k=k, m=3)
        assert short.count[0] == 0 and short.count[-1] == k
        np.testing.assert_allclose(short.w, ref[short.count], rtol=1e-12, atol=1e-12)
        # ... and, asked for, every one of the last updates, exactly, with their steps
        tail = trajectory(learner.history.updates, learner.training_X,
                          learner.training_signs, fit_intercept=fit_intercept,
                          bias_scale=c, k=k, m=3, recent=5)
        r = min(5, k)
        assert tail.count[0] == 0 and np.all(np.diff(tail.count) > 0)
        np.testing.assert_array_equal(tail.count[-r:], np.arange(k - r + 1, k + 1))
        assert tail.count.size <= 3 + 1 + r
        np.testing.assert_allclose(tail.w, ref[tail.count], rtol=1e-12, atol=1e-12)
        rows = learner.history.updates.rows(k - r, k)
        np.testing.assert_array_equal(tail.step[-r:], rows.step)


def test_trajectory_reaches_the_feasible_region_and_stays_in_the_chart():
    X, y = _separable(7, n=40)
    learner = PrimalPerceptron().start(X, y)
    learner.run_to_end()
    tr = trajectory(learner.history.updates, learner.training_X, learner.training_signs,
                    fit_intercept=True, bias_scale=1.0, k=learner.n_updates_)
    region = feasible_region(X, y)
    P = gnomonic(tr.w[1:], region.center)
    assert np.isfinite(P).all()  # Novikoff: w_k·w* >= k γ > 0 for k >= 1
    inside = region.contains(P)
    assert inside[-1] and not inside[0]


@pytest.mark.parametrize("seed", range(6))
def test_slice_at_a_bias_against_scipy(seed):
    X, y = _separable(seed, n=25)
    region = feasible_region(X, y)
    # the slice through w*'s own bias holds w*'s (w_1, w_2), scaled to that b
    u = region.center
    b = 2.0 * u[2]  # w = 2 u: b = c w_0 with c = 1
    sl = feasible_slice(X, y, b=b)
    assert sl.kind == "slice" and not sl.empty
    ref_lines = np.column_stack([X * y[:, None], y * b])
    factor = sl.lines[0, 0] / ref_lines[0, 0]
    assert abs(np.log2(factor) - round(np.log2(factor))) < 1e-9  # the same lines, scaled exactly
    np.testing.assert_allclose(sl.lines, factor * ref_lines, rtol=1e-15)
    inner = 2.0 * u[:2]
    assert sl.contains(inner[None, :])[0]
    box = 20.0
    ref = HalfspaceIntersection(np.vstack([-sl.lines, [[1, 0, -box], [-1, 0, -box],
                                                       [0, 1, -box], [0, -1, -box]]]),
                                inner).intersections
    mine = sl.clipped((-box, box), (-box, box))
    # the hull-vertex lines alone cut the same polygon as all the lines
    assert math.isclose(ConvexHull(mine).volume, ConvexHull(ref).volume, rel_tol=1e-9)
    assert feasible_slice(*_xor(), b=0.0).empty


def _xor():
    data = generators.xor(30, seed=2)
    return data.X, data.y


def test_generous_region_keeps_every_case_a_norm_away():
    X, y = _separable(4, n=20, through_origin=True)
    L = generous_lines(X, y, fit_intercept=False)
    Z = X * y[:, None]
    norm = np.linalg.norm(Z, axis=1)
    np.testing.assert_allclose(L * norm[:, None], np.column_stack([Z, -np.sum(Z * Z, axis=1)]),
                               rtol=1e-12)
    # a w far along w*: in it when its margin exceeds every ||x_i||
    w_star = novikoff(X, y, fit_intercept=False).w_star
    gamma = float((Z @ w_star).min())
    R = float(np.linalg.norm(Z, axis=1).max())
    w = w_star * (R / gamma) * R * 1.01
    assert (Z @ w / np.linalg.norm(Z, axis=1) >= np.linalg.norm(Z, axis=1)).all()
    assert (L[:, :2] @ w + L[:, 2] >= 0).all()
    # with a bias: the slice at b, z_i = y_i (x_i, c)
    Lb = generous_lines(X, y, fit_intercept=True, bias_scale=2.0, b=0.5)
    sq = np.sum(X * X, axis=1) + 4.0
    np.testing.assert_allclose(Lb * np.sqrt(sq)[:, None],
                               np.column_stack([X * y[:, None], 0.5 * y - sq]), rtol=1e-12)
    with pytest.raises(ValueError, match="pass b"):
        generous_lines(X, y, fit_intercept=True)


def test_a_feasible_center_given_skips_the_solve_and_gives_the_same_region(monkeypatch):
    X, y = _separable(6, n=30)
    ref = feasible_region(X, y)
    import perceptron_gui.core.theory.certificate as certificate

    def refuse(*_a, **_k):
        raise AssertionError("novikoff called for a feasible centre")

    monkeypatch.setattr(certificate, "novikoff", refuse)
    again = feasible_region(X, y, center=ref.center)
    assert again.kind == ref.kind
    np.testing.assert_allclose(again.vertices, ref.vertices, rtol=1e-12, atol=1e-12)
    np.testing.assert_array_equal(again.active, ref.active)


@pytest.mark.parametrize("scale", [1e-300, 1e154, 1e300, 2e307])  # |x| <= 4: finite data
def test_any_scale_gives_the_same_picture_without_a_warning(scale):
    X, y = _separable(8, n=25, through_origin=True)
    import warnings

    with warnings.catch_warnings():
        warnings.simplefilter("error")
        for fit in (False, True):
            ref = feasible_region(X, y, fit_intercept=fit, bias_scale=1.0)
            big = feasible_region(X * scale, y, fit_intercept=fit, bias_scale=scale)
            assert big.kind == ref.kind
            np.testing.assert_allclose(big.edges, ref.edges, rtol=1e-9)
            np.testing.assert_allclose(big.vertices, ref.vertices, rtol=1e-7, atol=1e-9)
        generous_lines(X * scale, y, fit_intercept=False)
        feasible_slice(X * scale, y, b=scale, bias_scale=scale)


@pytest.mark.parametrize("scale", [1.0, 1e-300])
def test_the_generously_feasible_polygon_of_many_cases_is_cut_in_few_rounds(scale):
    """10⁵ cases at 1e-300 took 19 s of the UI thread, one Python pass per line; the
    lines that leave the polygon whole are dropped at once, so the cuts are few."""
    import time

    rng = np.random.default_rng(2)
    X = rng.normal(size=(150_000, 2))
    along = X @ np.array([0.6, 0.8])
    X = X[np.abs(along) > 0.1][:100_000] * scale  # separable through the origin, a margin
    y = np.where(X @ np.array([0.6, 0.8]) > 0, 1, -1)
    lines = generous_lines(X, y, fit_intercept=False)
    r = 1000 * float(np.abs(X).max())
    box = np.array([[-r, -r], [r, -r], [r, r], [-r, r]])
    t0 = time.thread_time()
    poly = clip_polygon(box, lines)
    took = time.thread_time() - t0
    print(f"\n10⁵ lines at scale {scale:g}: {took * 1000:.0f} ms of CPU")
    assert took < 3.0
    # the same polygon as line by line, on a subset the reference can afford
    few = lines[:3000]
    ours, ref = clip_polygon(box, few), line_by_line(box.astype(float), few)
    assert ours.shape[0] >= 3 and ConvexHull(ours / r).volume == pytest.approx(
        ConvexHull(ref / r).volume, rel=1e-9)
    assert np.all(few[:, :2] @ ours.T + few[:, 2:] >= -1e-9 * np.abs(few).max(axis=1)[:, None])
    # every case of all 10⁵ is kept a norm away at each vertex
    if poly.shape[0]:
        assert np.all(lines[:, :2] @ poly.T + lines[:, 2:] >= -1e-6 * r)
