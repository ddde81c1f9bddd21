"""The Qt-free geometry: clipped lines and polygons, decluttered labels, drawable ranges
and the marching-squares contour."""

from __future__ import annotations

import math

import numpy as np

from perceptron_gui.ui.widgets.canvas.geometry import (
    clip_arrow,
    clip_line,
    clip_polygon,
    declutter,
    drawable_range,
    fit_arrow,
    marching_squares,
)


def test_clip_line_and_polygon():
    rect = (-1.0, 1.0, -2.0, 2.0)
    seg = clip_line([1.0, 0.0], 0.5, rect)  # x = 0.5
    np.testing.assert_allclose(sorted(seg[:, 1]), [-2.0, 2.0])
    np.testing.assert_allclose(seg[:, 0], 0.5)
    assert clip_line([1.0, 0.0], 3.0, rect) is None
    n = np.array([1.0, 1.0]) / math.sqrt(2)
    seg = clip_line(n, 0.0, rect)
    np.testing.assert_allclose(seg @ n, 0.0, atol=1e-12)
    poly = clip_polygon(rect, [(np.array([1.0, 0.0]), 0.0)])  # x >= 0
    assert poly[:, 0].min() == 0.0 and poly[:, 0].max() == 1.0
    assert clip_polygon(rect, [(np.array([1.0, 0.0]), 5.0)]).shape == (0, 2)


def test_marching_squares_traces_a_circle():
    xs = np.linspace(-2, 2, 41)
    ys = np.linspace(-2, 2, 37)
    gx, gy = np.meshgrid(xs, ys)
    F = 1.0 - (gx**2 + gy**2)
    P = marching_squares(xs, ys, F)
    assert P.shape[0] % 2 == 0 and P.shape[0] > 40
    np.testing.assert_allclose(np.hypot(P[:, 0], P[:, 1]), 1.0, atol=0.01)
    # a saddle cell yields two segments
    S = marching_squares(np.array([0.0, 1.0]), np.array([0.0, 1.0]), np.array([[1, -1], [-1, 1.0]]))
    assert S.shape == (4, 2)


def test_fit_arrow_keeps_its_length_inside_the_rect():
    rect = (0.0, 10.0, 0.0, 10.0)
    a = fit_arrow((5.0, 5.0), (3.0, 4.0), 2.0, rect)
    np.testing.assert_allclose(a, [[5, 5], [6.2, 6.6]])
    # starts outside, pointing out: clamped in, moved back, full length
    a = fit_arrow((50.0, 5.0), (1.0, 0.0), 2.0, rect)
    np.testing.assert_allclose(a, [[7.5, 5.0], [9.5, 5.0]])
    assert fit_arrow((5.0, 5.0), (0.0, 0.0), 2.0, rect) is None
    assert fit_arrow((5.0, 5.0), (np.nan, 1.0), 2.0, rect) is None


def test_declutter_keeps_the_first_of_overlapping_labels_and_skips_non_finite_ones():
    nan, inf = float("nan"), float("inf")
    rects = [[0, 0, 2, 1], [1, 0, 3, 1], [nan, 0, 1, 1], [2, 0, 4, 1], [0, inf, 1, 2],
             [5, 0, 6, 1]]
    np.testing.assert_array_equal(declutter(rects), [0, 3, 5])  # touching edges: no overlap
    np.testing.assert_array_equal(declutter(rects, limit=2), [0, 3])
    assert declutter([[nan, nan, nan, nan]]).size == 0 and declutter([]).size == 0


def test_drawable_range_keeps_a_finite_width():
    big = float(np.finfo(np.float64).max)
    lo, hi = drawable_range(-big, big)
    assert math.isfinite(hi - lo) and lo < 0 < hi
    assert drawable_range(-1.0, 2.0) == (-1.0, 2.0)


def test_marching_squares_follows_the_sign_of_infinities_and_skips_nan():
    xs = ys = np.arange(4.0)
    inf, nan = math.inf, math.nan
    F = np.array([[-inf, -inf, inf, inf]] * 4)  # only the signs known: x = 1.5
    P = marching_squares(xs, ys, F)
    assert P.shape[0] == 6
    np.testing.assert_allclose(P[:, 0], 1.5)
    F[:2, 1] = nan  # the cells with a NaN corner have no segment
    P = marching_squares(xs, ys, F)
    assert P.shape[0] == 2 and P[:, 1].min() >= 2.0


def test_pixel_span_of_the_widest_view_is_finite():
    from perceptron_gui.ui.widgets.canvas.geometry import pixel_span

    assert pixel_span(-1.7e308, 1.7e308, 1000) == 2 * (1.7e308 / 1000)  # 1.7e308 * 2 is inf
    assert pixel_span(0.0, 10.0, 4) == 2.5


def test_clip_arrow_ends_a_margin_inside_the_view():
    view, px = (-10.0, 10.0, -5.0, 5.0), (0.1, 0.1)  # 10 px of margin: 1 data unit
    np.testing.assert_allclose(clip_arrow((0, 0), (3, 2), view, px, 10), (3, 2))  # inside
    np.testing.assert_allclose(clip_arrow((0, 0), (40, 0), view, px, 10), (9, 0))
    np.testing.assert_allclose(clip_arrow((0, 0), (8, 8), view, px, 10), (4, 4))
    np.testing.assert_allclose(clip_arrow((0, 0), (0, -30), view, px, 10), (0, -4))
    assert clip_arrow((20, 20), (30, 30), view, px, 10) is None  # wholly outside
    assert clip_arrow((0, 0), (math.inf, 0), view, px, 10) is None
    assert clip_arrow((0, 0), (5, 0), view, (1.0, 1.0), 10) is None  # no room left
