"""What the weight-space view draws, without Qt: the picture of a run, and lines in a box."""

from __future__ import annotations

import math
from dataclasses import dataclass

import numpy as np

from ....core.learners.losses import PERCEPTRON, Loss
from ....core.theory import novikoff
from ....core.theory.weight_space import (
    FeasibleRegion,
    Trajectory,
    clip_polygon,
    feasible_region,
    generous_lines,
    gnomonic,
    trajectory,
)

__all__ = ["FAR", "RECENT_UPDATES", "Picture", "generous_polygon", "off_view", "picture",
           "region_and_star", "segments", "ticks", "view_box", "view_extent"]

#: The walk's recent part, drawn in full (every state, its markers); the older
#: part of a longer walk is drawn faded, so a long cycling run does not hide the
#: lines and the landscape under it.
RECENT_UPDATES = 50

#: In the chart, the fitted view reaches at most this many times the feasible polygon's
#: own reach (at least 2): a state far from it (a w₀ set by hand nearly across from w*)
#: is pointed at from the edge (:func:`off_view`), the polygon is not made a speck.
FAR = 5.0


@dataclass(frozen=True, eq=False)
class Picture:
    """The numbers of one weight-space picture.

    Attributes
    ----------
    points : ndarray of shape (m, 2)
        The trajectory in the plane drawn: ``w`` itself without a bias, its
        gnomonic point with one (NaN off the chart's hemisphere: ``w_0 = 0``,
        and states with ``w·w* <= 0``).
    w_star : ndarray of shape (2,) or None
        Without a bias, the unit direction of ``w*`` (None when not separable
        through the origin); with one, None (``w*`` is the chart's centre, 0).
    X, signs : ndarray
        The run's samples and labels ±1, kept: a redraw before the next refresh
        must not read another learner's.
    """

    region: FeasibleRegion
    trajectory: Trajectory
    points: np.ndarray
    w_star: np.ndarray | None
    X: np.ndarray
    signs: np.ndarray
    b: float
    loss: Loss

    @property
    def recent_from(self) -> int:
        """The index of the state before the last :data:`RECENT_UPDATES` updates (0: all)."""
        count = self.trajectory.count
        first = int(count[-1]) - RECENT_UPDATES
        return 0 if first <= 0 else int(np.searchsorted(count, first, side="right")) - 1

    @property
    def chart(self) -> bool:
        """Whether the plane is the gnomonic chart (a bias, and not a slice at b)."""
        return self.region.center is not None

    @property
    def slice(self) -> bool:
        """Whether the plane is ``(w_1, w_2)`` at the current bias (a bias, and a slice)."""
        return self.region.kind == "slice" or (self.region.fit_intercept and not self.chart)


def region_and_star(X, y, fit_intercept: bool, bias_scale: float,
                    known=None) -> tuple[FeasibleRegion, np.ndarray | None]:
    """``(region, w_star)`` of a data set: with a bias the region centred on ``known`` (a
    unit ``w*``) if given; without, ``w_star`` the unit ``w*`` through 0 (None: none)."""
    center = known if fit_intercept and known is not None and known.shape == (3,) else None
    region = feasible_region(X, y, fit_intercept=fit_intercept, bias_scale=bias_scale,
                             center=center)
    if fit_intercept:
        return region, None
    result = novikoff(X, y, fit_intercept=False)
    return region, np.asarray(result.w_star, np.float64) if result.separable else None


def picture(learner, region: FeasibleRegion, w_star: np.ndarray | None, *,
            loss: Loss = PERCEPTRON, m: int = 2048) -> Picture:
    """The run of ``learner`` (``m`` states and its last :data:`RECENT_UPDATES` updates) in
    ``region``'s plane (in a slice at ``b``, each ``w_k`` at its ``(w_1, w_2)``)."""
    tr = trajectory(learner.history.updates, learner.training_X, learner.training_signs,
                    fit_intercept=region.fit_intercept, bias_scale=region.bias_scale,
                    k=int(learner.n_updates_), m=m,
                    recent=RECENT_UPDATES + 1)  # and w_{k-R}, where the recent part starts
    if region.center is not None:
        points = gnomonic(tr.w, region.center)
    else:  # the plane (w_1, w_2): without a bias, or the slice at b (its w_0 dropped)
        points = tr.w[:, :2]
    return Picture(region, tr, np.asarray(points, np.float64),
                   None if region.fit_intercept else w_star, learner.training_X,
                   learner.training_signs, float(learner.intercept_[0]),
                   loss)


def segments(lines: np.ndarray, x_range, y_range) -> np.ndarray:
    """Each line ``a p_1 + b p_2 + d = 0`` cut to the box: shape (n, 2, 2), NaN if it misses.
    Its points ``p = -d n / |n|² + t n⊥`` (``n = (a, b)``), ``t`` cut to each slab
    (Liang–Barsky)."""
    L = np.asarray(lines, np.float64).reshape(-1, 3)
    (x0, x1), (y0, y1) = x_range, y_range
    a, b, d = L[:, 0], L[:, 1], L[:, 2]
    nn = a * a + b * b
    with np.errstate(divide="ignore", invalid="ignore", over="ignore"):
        px, py = -d * a / nn, -d * b / nn  # the foot of the perpendicular from 0
        tx, ty = -b, a  # the direction along the line
        lo = np.full(L.shape[0], -np.inf)
        hi = np.full(L.shape[0], np.inf)
        miss = ~(nn > 0)
        for p, t, s0, s1 in ((px, tx, x0, x1), (py, ty, y0, y1)):
            flat = t == 0
            miss |= flat & ~((p >= s0) & (p <= s1))
            ta, tb = (s0 - p) / t, (s1 - p) / t
            lo = np.where(flat, lo, np.fmax(lo, np.minimum(ta, tb)))
            hi = np.where(flat, hi, np.fmin(hi, np.maximum(ta, tb)))
    ok = ~miss & (lo < hi)
    out = np.full((L.shape[0], 2, 2), np.nan)
    out[ok, 0] = np.column_stack([px + lo * tx, py + lo * ty])[ok]
    out[ok, 1] = np.column_stack([px + hi * tx, py + hi * ty])[ok]
    return out


def ticks(lines: np.ndarray, segs: np.ndarray, length: float, at: float = 0.85) -> np.ndarray:
    """A tick of ``length`` on each segment towards its line's good side (along ``(a, b)``),
    ``at`` of the way along it (half way, every line through 0 would tick there)."""
    L = np.asarray(lines, np.float64).reshape(-1, 3)
    with np.errstate(over="ignore", invalid="ignore", divide="ignore"):
        mid = segs[:, 0] + at * (segs[:, 1] - segs[:, 0])
        n = L[:, :2] / np.hypot(L[:, 0], L[:, 1])[:, None]
        return np.stack([mid, mid + length * n], axis=1)


def view_extent(pic: Picture) -> float:
    """Half the side of a square around 0 showing the picture; in the chart, the region, the
    state and the walk's later half, within :data:`FAR` times the region's reach."""
    P = pic.points[np.isfinite(pic.points).all(axis=1)]
    r = np.hypot(P[:, 0], P[:, 1]) if P.size else np.empty(0)
    if not pic.chart:
        top = float(r.max()) if r.size else 0.0
        if pic.slice and not top > 0:
            top = 1.0
        return 1.15 * top if top > 0 else 1.0
    reach = [0.5]
    V = pic.region.vertices
    region = float(np.hypot(V[:, 0], V[:, 1]).max()) if V.size else 0.0
    reach.append(region)
    if r.size:  # the later half of the walk, and where it is now
        reach.append(float(np.quantile(r, 0.5)))
    now = pic.points[-1]
    if np.isfinite(now).all():
        reach.append(float(np.hypot(*now)))
    top = max(reach)
    if math.isfinite(region) and region > 0:
        top = min(top, max(FAR * region, 2.0))
    return 1.25 * (top if math.isfinite(top) else 1.0)


def view_box(pic: Picture) -> tuple[tuple[float, float], tuple[float, float]]:
    """The box the view fits: the square of :func:`view_extent`, or without a bias the box
    around 0 (every case's line passes there), the walk, ``w*`` and the cone, padded."""
    r = view_extent(pic)
    edges = pic.region.edges
    if pic.chart or pic.slice or pic.region.empty or edges.shape[0] != 2:
        return (-r, r), (-r, r)
    start = math.atan2(edges[0, 1], edges[0, 0])
    turn = (math.atan2(edges[1, 1], edges[1, 0]) - start) % (2 * math.pi)
    angles = start + np.linspace(0.0, turn or 2 * math.pi, 13)
    P = [np.zeros((1, 2)), r * np.column_stack([np.cos(angles), np.sin(angles)]),
         pic.points[np.isfinite(pic.points).all(axis=1)]]
    if pic.w_star is not None:
        P.append(r * np.asarray(pic.w_star, np.float64)[None, :])
    P = np.vstack(P)
    lo, hi = P.min(axis=0), P.max(axis=0)
    pad = 0.1 * max(float((hi - lo).max()), 1e-12 * r)
    return (float(lo[0] - pad), float(hi[0] + pad)), (float(lo[1] - pad), float(hi[1] + pad))


def off_view(p, x_range, y_range, inset: float = 0.08):
    """Where to point at ``p`` from inside the box when it lies outside: ``(q, u)`` or None,
    where the ray from the centre to ``p`` meets the box shrunk by ``inset``, its direction."""
    p = np.asarray(p, np.float64)
    (x0, x1), (y0, y1) = x_range, y_range
    if not np.isfinite(p).all() or (x0 <= p[0] <= x1 and y0 <= p[1] <= y1):
        return None
    c = np.array([(x0 + x1) / 2, (y0 + y1) / 2])
    half = np.array([(x1 - x0) / 2, (y1 - y0) / 2]) * (1 - 2 * inset)
    d = p - c
    with np.errstate(divide="ignore"):
        t = float(np.min(np.where(d != 0, half / np.abs(d), np.inf)))
    return c + t * d, d / float(np.hypot(*d))


def generous_polygon(X, signs, fit_intercept: bool, bias_scale: float, b: float,
                     box: tuple) -> tuple:
    """``(lines, box, polygon)``: the generously feasible region of the cases within
    ``box`` (with a bias, the slice at ``b``); the polygon's shape is (m, 2), m = 0: empty."""
    lines = (generous_lines(X, signs, fit_intercept=True, bias_scale=bias_scale, b=b)
             if fit_intercept else generous_lines(X, signs, fit_intercept=False))
    (x0, x1), (y0, y1) = box
    corners = np.array([[x0, y0], [x1, y0], [x1, y1], [x0, y1]], dtype=np.float64)
    return lines, box, clip_polygon(corners, lines)
