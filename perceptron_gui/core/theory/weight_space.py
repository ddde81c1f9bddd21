r"""Weight space: each case is a constraint on ``w``, and the feasible region they leave.

Case ``i`` asks for ``z_i·w > 0`` with its *constraint normal* ``z_i = y_i (x_i, c)``
(``y_i x_i`` without a bias; ``c`` is ``bias_scale``, ``b = c w_0``): a
hyperplane through the origin with a good side.  The weights that classify
every case form an open convex cone, the *feasible region*, which the
perceptron walks towards (:func:`trajectory` reads its walk from the log).

Without a bias the weights are 2-D: the cone is a wedge between two unit
edge directions, a half-plane, or empty.  With a bias only the direction of
the 3-D ``w`` matters, drawn in the *gnomonic chart* centred on a unit ``u``
(:func:`gnomonic`), where a great circle ``z·w = 0`` is the straight line
``(z·e_1) p_1 + (z·e_2) p_2 + z·u = 0``: the feasible directions of the
hemisphere ``w·u > 0`` form a convex polygon, bounded or not.  Centred on
Novikoff's ``w*``, every ``w_k`` with ``k >= 1`` lies in the chart: the
proof's first inequality gives ``w_k·w* >= k eta gamma > 0``.  The cone, the
chart, the slice at a bias and the generously feasible region share one
representation, each case a line of the plane drawn.
"""

from __future__ import annotations

import math
from dataclasses import dataclass

import numpy as np

from ._validation import check_bias_scale, check_Xy, pow2_exponent, readonly
from .hull import convex_hull

__all__ = ["FeasibleRegion", "Trajectory", "chart_basis", "clip_polygon", "constraint_normals",
           "feasible_region", "feasible_slice", "generous_lines", "gnomonic", "trajectory"]

#: Relative size of a cross product below which two constraint normals count as
#: parallel (an edge of the region through the interior point's polar; two
#: cases' lines in a chart that are parallel to rounding make a strip).
PARALLEL_RTOL = 1e-12


def constraint_normals(X, y, *, fit_intercept=True, bias_scale=1.0) -> np.ndarray:
    """The constraint normal ``z_i`` of every case: ``y_i (x_i, c)``, or ``y_i x_i``."""
    X, y = check_Xy(X, y)
    if fit_intercept:
        c = check_bias_scale(bias_scale)
        X = np.column_stack([X, np.full(X.shape[0], c)])
    return X * y[:, None]


def chart_basis(center) -> np.ndarray:
    """An orthonormal basis ``(e_1, e_2)`` of the plane orthogonal to the unit ``center``.

    ``e_1`` is the first axis ``(1, 0, 0)`` made orthogonal to ``center`` (the
    second axis when the first is too close to it) and ``e_2 = center × e_1``,
    so the chart of a ``center`` near the bias axis ``(0, 0, 1)`` has ``w_1``
    to the right and ``w_2`` up. Shape (2, 3).
    """
    u = _unit(center)
    axis = np.array([1.0, 0.0, 0.0]) if abs(u[0]) < 0.9 else np.array([0.0, 1.0, 0.0])
    e1 = axis - (axis @ u) * u
    e1 /= np.linalg.norm(e1)
    return np.stack([e1, np.cross(u, e1)])


def _unit(center) -> np.ndarray:
    u = np.asarray(center, dtype=np.float64).ravel()
    if u.shape != (3,) or not np.isfinite(u).all():
        raise ValueError(f"center must be 3 finite numbers (w_1, w_2, w_0), got {center!r}")
    n = float(np.linalg.norm(u))
    if n == 0:
        raise ValueError("center must not be the zero vector")
    return u / n


def gnomonic(w, center) -> np.ndarray:
    """The gnomonic chart's point of each augmented ``w``: ``(w·e_1, w·e_2) / (w·u)``.

    NaN for a ``w`` outside the chart's hemisphere (``w·u <= 0``).
    """
    u = _unit(center)
    E = chart_basis(u)
    W = np.asarray(w, dtype=np.float64)
    one = W.ndim == 1
    W = np.atleast_2d(W)
    if W.shape[1] != 3:
        raise ValueError(f"w must have 3 entries (w_1, w_2, w_0), got {W.shape[1]}")
    with np.errstate(divide="ignore", invalid="ignore", over="ignore"):
        h = W @ u
        P = (W @ E.T) / h[:, None]
    P[~(h > 0)] = np.nan
    return P[0] if one else P


@dataclass(frozen=True, eq=False)
class FeasibleRegion:
    """The weights that classify every case, in the plane the weight-space view draws.

    The plane is ``(w_1, w_2)`` without a bias, the gnomonic chart centred on
    :attr:`center` with one. Arrays are read-only.

    Attributes
    ----------
    lines : ndarray of shape (n_samples, 3)
        Case ``i``'s line ``a p_1 + b p_2 + d = 0`` as ``(a, b, d)``: ``(z_i, 0)``
        without a bias, ``(z_i·e_1, z_i·e_2, z_i·u)`` in the chart, of the normals
        scaled by one power of two (exactly the same lines) so that data at any
        scale draw without overflow.
    empty : bool
        No weight vector classifies every case, or, in a chart, none of the
        hemisphere ``w·u > 0``; ``reason`` then says why.
    kind : str
        Without a bias: ``"cone"`` (a wedge narrower than a half-plane),
        ``"half-plane"`` (all normals point the same way), ``"all"`` (no
        cases) or ``"empty"``.  In a chart: ``"polygon"`` (bounded),
        ``"unbounded"`` (a chain of vertices with two rays), ``"half-plane"``,
        ``"strip"`` (two parallel lines), ``"all"`` or ``"empty"``.
    edges : ndarray of shape (2, 2)
        Without a bias, the cone's unit edge directions: the region is the
        open set of directions counter-clockwise from ``edges[0]`` to
        ``edges[1]`` (opposite for a half-plane).  Shape (0, 2) otherwise.
    vertices : ndarray of shape (m, 2)
        In a chart, the region's vertices, counter-clockwise; for a
        ``"half-plane"`` the point of its line nearest the interior point
        found, for a ``"strip"`` one point of each line.
    rays : ndarray of shape (2, 2) or (0, 2)
        In a chart, for an unbounded region, unit directions: its boundary is
        the ray ``vertices[0] + t rays[0]`` (``t >= 0``, traversed towards
        ``vertices[0]``), the chain of vertices, then ``vertices[-1] + t rays[1]``.
        For a strip, the direction of each line.
    active : ndarray of int
        The cases whose lines bound the region, in the boundary's order.
    """

    fit_intercept: bool
    bias_scale: float
    normals: np.ndarray
    lines: np.ndarray
    empty: bool
    reason: str | None
    kind: str
    edges: np.ndarray
    center: np.ndarray | None
    basis: np.ndarray | None
    vertices: np.ndarray
    rays: np.ndarray
    active: np.ndarray

    def contains(self, P) -> np.ndarray:
        """Whether each point ``P`` (shape (m, 2), in the plane drawn) is in the region."""
        P = np.atleast_2d(np.asarray(P, dtype=np.float64))
        if self.empty:
            return np.zeros(P.shape[0], dtype=bool)
        vals = P @ self.lines[:, :2].T + self.lines[:, 2]
        return (vals > 0).all(axis=1)

    def clipped(self, x_range, y_range) -> np.ndarray:
        """The region's closure within the box ``x_range × y_range``, counter-clockwise."""
        if self.empty:
            return np.empty((0, 2))
        (x0, x1), (y0, y1) = x_range, y_range
        box = np.array([[x0, y0], [x1, y0], [x1, y1], [x0, y1]], dtype=np.float64)
        return clip_polygon(box, self.lines[self.active])


@np.errstate(over="ignore", invalid="ignore")
def clip_polygon(polygon: np.ndarray, lines: np.ndarray) -> np.ndarray:
    """The convex ``polygon`` cut by each half-plane ``a p_1 + b p_2 + d >= 0`` of ``lines``.

    Sutherland–Hodgman, one pass per line that still cuts: a line with every
    vertex on its side leaves the polygon as it is after any further cut (it
    only shrinks), so each round drops those lines at once and cuts by the one
    reaching deepest. The rounds are as many as the lines that cut.
    """
    P = np.asarray(polygon, dtype=np.float64)
    L = np.asarray(lines, dtype=np.float64).reshape(-1, 3)
    while P.shape[0] and L.shape[0]:
        low = np.full(L.shape[0], np.inf)
        for x, y in P.tolist():
            s = L[:, 0] * x + L[:, 1] * y + L[:, 2]
            low = np.where(s >= 0, np.minimum(low, s), -np.inf)  # NaN: it cuts
        cuts = ~(low >= 0)
        if not cuts.any():
            break
        L, low = L[cuts], low[cuts]
        k = int(np.argmin(low))
        P = _clip_one(P, *L[k].tolist())
        L = np.delete(L, k, axis=0)
    return P


def _clip_one(P: np.ndarray, a: float, b: float, d: float) -> np.ndarray:
    """The polygon ``P`` cut by one half-plane ``a p_1 + b p_2 + d >= 0``."""
    s = P[:, 0] * a + P[:, 1] * b + d
    nxt = np.roll(np.arange(P.shape[0]), -1)
    out = []
    for i, j in zip(range(P.shape[0]), nxt.tolist(), strict=True):
        if s[i] >= 0:
            out.append(P[i])
        if (s[i] >= 0) != (s[j] >= 0):
            t = s[i] / (s[i] - s[j])
            out.append(P[i] + t * (P[j] - P[i]))
    return np.array(out) if out else np.empty((0, 2))


def _rot90(v: np.ndarray) -> np.ndarray:
    return np.array([-v[1], v[0]])


def _cone(Z: np.ndarray):
    """``(kind, edges, active, reason)`` of the open cone ``{w : z_i·w > 0}`` in the plane."""
    n = Z.shape[0]
    none = np.empty((0, 2))
    if n == 0:
        return "all", none, np.empty(0, np.intp), None
    norms = np.hypot(Z[:, 0], Z[:, 1])
    if not (norms > 0).all():
        i = int(np.flatnonzero(norms == 0)[0])
        return "empty", none, np.empty(0, np.intp), (
            f"case {i} lies at the origin: w·x = 0 for every w, never > 0")
    ang = np.arctan2(Z[:, 1], Z[:, 0])
    order = np.argsort(ang, kind="stable")
    s = ang[order]
    gaps = np.r_[np.diff(s), s[0] + 2.0 * np.pi - s[-1]]
    k = int(np.argmax(gaps))
    a, b = int(order[(k + 1) % n]), int(order[k])  # the arc of normals runs from z_a to z_b
    za, zb = Z[a] / norms[a], Z[b] / norms[b]
    cross = float(za[0] * zb[1] - za[1] * zb[0])
    dot = float(za @ zb)
    width = 2.0 * np.pi - float(gaps[k])
    if width >= np.pi or cross < 0 or (cross == 0 and dot < 0):
        return "empty", none, np.empty(0, np.intp), (
            "no w through the origin classifies every case: the normals yᵢxᵢ "
            "do not fit in an open half-plane")
    edges = np.stack([-_rot90(zb), _rot90(za)])
    if cross == 0 or width == 0:
        return "half-plane", edges, np.array([b], np.intp), None
    return "cone", edges, np.array([b, a], np.intp), None


@np.errstate(over="ignore", invalid="ignore", divide="ignore")
def _chart(L: np.ndarray, p0: np.ndarray):
    """``(kind, vertices, rays, active)`` of ``{p : L_i·(p, 1) > 0}``, ``p0`` strictly inside."""
    c = L[:, :2] @ p0 + L[:, 2]
    Q = -L[:, :2] / c[:, None]  # around p0: q_i·r < 1
    # a line at infinity (z_i nearly parallel to the centre, to rounding) bounds nothing
    size = np.abs(L).sum(axis=1)
    keep = np.flatnonzero(np.abs(L[:, :2]).sum(axis=1) > PARALLEL_RTOL * size)
    none = np.empty((0, 2))
    if keep.size == 0:
        return "all", none, none, np.empty(0, np.intp)
    Qk = Q[keep]
    where = {}
    for j, row in enumerate(map(tuple, Qk.tolist())):
        where.setdefault(row, int(keep[j]))
    H = convex_hull(np.vstack([Qk, [[0.0, 0.0]]]))
    is_origin = (H == 0).all(axis=1)
    if is_origin.any() and H.shape[0] >= 3:
        # 0 on the segment between its hull neighbours, to PARALLEL_RTOL: two
        # cases' lines parallel to rounding.  The origin is then no vertex, so the
        # kind (strip, or the chain of a flat edge) does not hang on the last bit.
        o = int(np.flatnonzero(is_origin)[0])
        qa, qb = H[o - 1], H[(o + 1) % H.shape[0]]
        if (abs(float(qa[0] * qb[1] - qa[1] * qb[0]))
                <= PARALLEL_RTOL * float(np.hypot(*qa) * np.hypot(*qb))
                and float(qa @ qb) < 0):
            H = np.delete(H, o, axis=0)
            is_origin = np.zeros(H.shape[0], dtype=bool)
    idx = [where.get(tuple(h), -1) for h in H.tolist()]

    def foot(q):  # the point of q·r = 1 nearest the interior point
        return q / float(q @ q)

    def vertex(qi, qj):
        det = qi[0] * qj[1] - qi[1] * qj[0]
        return np.array([qj[1] - qi[1], qi[0] - qj[0]]) / det

    def unit(v):
        return v / float(np.hypot(*v))

    if H.shape[0] <= 2:  # the q's on one line through 0
        Hq = H[~is_origin]
        hq = [i for i, o in zip(idx, is_origin.tolist(), strict=True) if not o]
        if is_origin.any() or Hq.shape[0] == 1 or float(Hq[0] @ Hq[1]) > 0:
            far = int(np.argmax(np.hypot(Hq[:, 0], Hq[:, 1])))
            q = Hq[far]
            return ("half-plane", (foot(q) + p0)[None, :],
                    np.stack([unit(-_rot90(q)), unit(_rot90(q))]), np.array([hq[far]], np.intp))
        return ("strip", np.stack([foot(Hq[0]), foot(Hq[1])]) + p0,
                np.stack([unit(_rot90(Hq[0])), unit(_rot90(Hq[1]))]), np.array(hq, np.intp))
    m = H.shape[0]
    if is_origin.any():
        o = int(np.flatnonzero(is_origin)[0])
        chain = [(o + j) % m for j in range(1, m)]
        bounded = False
    else:
        nxt = np.roll(H, -1, axis=0)
        cross = H[:, 0] * nxt[:, 1] - H[:, 1] * nxt[:, 0]
        scale = np.hypot(H[:, 0], H[:, 1]) * np.hypot(nxt[:, 0], nxt[:, 1])
        flat = np.flatnonzero(cross <= PARALLEL_RTOL * scale)
        if flat.size:  # the interior point's polar lies on this hull edge
            s = int(flat[0])
            chain = [(s + 1 + j) % m for j in range(m)]
            bounded = False
        else:
            chain = list(range(m))
            bounded = True
    pairs = zip(chain, chain[1:] + chain[:1] if bounded else chain[1:], strict=False)
    V = np.array([vertex(H[i], H[j]) for i, j in pairs]).reshape(-1, 2) + p0
    active = np.array([idx[i] for i in chain], np.intp)
    if bounded:
        return "polygon", V, none, active
    rays = np.stack([unit(-_rot90(H[chain[0]])), unit(_rot90(H[chain[-1]]))])
    return "unbounded", V, rays, active


def feasible_region(X, y, *, fit_intercept=True, bias_scale=1.0, center=None) -> FeasibleRegion:
    """The feasible region of a data set in weight space: the weights that classify every case.

    Parameters
    ----------
    center : array-like of shape (3,), optional
        The chart's centre (normalised).  Default: Novikoff's unit ``w*`` of
        the largest margin (:func:`~.certificate.novikoff`) when the data are
        separable, else the mean of the unit normals ``z_i / ||z_i||`` (the
        bias axis if that is 0).  A feasible centre (every ``z_i·center > 0``,
        as ``w*``) needs no margin solve.  A centre whose hemisphere holds no
        known feasible direction raises ValueError.

    Notes
    -----
    Without a bias the region is the open cone ``{w : z_i·w > 0}``: the
    normals, sorted by angle, fit in an arc narrower than π exactly when it is
    not empty, and its edges are the arc's end normals turned by a quarter
    turn.  In the chart, case ``i``'s half-plane around an interior point
    ``p_0`` is ``q_i·r < 1`` with ``r = p - p_0`` and
    ``q_i = -a_i / (a_i·p_0 + d_i)``; the region's edges are the hull
    vertices of ``{q_i} ∪ {0}`` (the region is unbounded when 0 is one of
    them, or on a hull edge), its vertices where consecutive edges meet.
    """
    X, y = check_Xy(X, y)
    if X.shape[1] != 2:
        raise ValueError(f"weight space is drawn for 2-D data, got {X.shape[1]} features")
    Z = constraint_normals(X, y, fit_intercept=fit_intercept, bias_scale=bias_scale)
    c = check_bias_scale(bias_scale) if fit_intercept else float(bias_scale)
    Zu = Z  # the normals in the user's units; the geometry uses them scaled, exactly
    Z = np.ldexp(Z, -pow2_exponent(float(np.abs(Z).max(initial=0.0))))
    if not fit_intercept:
        kind, edges, active, reason = _cone(Z)
        return _region(False, c, Zu, np.column_stack([Z, np.zeros(Z.shape[0])]), kind,
                       active=active, reason=reason, edges=edges)
    from .certificate import novikoff

    feasible = center is not None and X.shape[0] and bool((Z @ _unit(center) > 0).all())
    nov = novikoff(X, y, fit_intercept=True, bias_scale=c) if X.shape[0] and not feasible else None
    w_star = None if nov is None or not nov.separable else np.asarray(nov.w_star, np.float64)
    if center is not None:
        u = center
    elif w_star is not None:
        u = w_star
    else:
        norms = np.linalg.norm(Z, axis=1)
        u = (Z / norms[:, None]).sum(axis=0) if Z.shape[0] else np.zeros(3)
        if not np.linalg.norm(u) > 0:
            u = np.array([0.0, 0.0, 1.0])
    u = _unit(u)
    E = chart_basis(u)
    lines = np.column_stack([Z @ E.T, Z @ u])
    if feasible:  # a feasible centre: its own interior point, no solve needed
        return _region(True, c, Zu, lines, *_chart(lines, np.zeros(2)), center=u, basis=E)
    if X.shape[0] == 0:
        return _region(True, c, Zu, lines, "all", center=u, basis=E)
    if w_star is None:
        return _region(True, c, Zu, lines, "empty", center=u, basis=E,
                       reason=nov.reason or "the data are not linearly separable")
    if not float(w_star @ u) > 0:
        raise ValueError("the chart centred on this center does not show w* (w*·center <= 0): "
                         "centre it nearer a feasible direction")
    return _region(True, c, Zu, lines, *_chart(lines, gnomonic(w_star, u)), center=u, basis=E)


def _region(fit_intercept, c, normals, lines, kind, vertices=None, rays=None, active=(), *,
            reason=None, edges=None, center=None, basis=None) -> FeasibleRegion:
    def ro(a):
        return readonly(np.empty((0, 2)) if a is None else np.asarray(a, np.float64))

    return FeasibleRegion(fit_intercept, c, readonly(normals), readonly(lines), kind == "empty",
                          reason, kind, ro(edges), None if center is None else readonly(center),
                          None if basis is None else readonly(basis), ro(vertices), ro(rays),
                          readonly(np.asarray(active, np.intp)))


def feasible_slice(X, y, *, b, bias_scale=1.0) -> FeasibleRegion:
    """The feasible region's slice at the bias ``b``: the ``(w_1, w_2)`` with every case right.

    Case ``i``'s line is ``y_i (x_i·w + b) = 0``, i.e. ``(y_i x_i, y_i b)`` scaled by
    one power of two. The bounding lines are among those of the classes' hull
    vertices (:attr:`active`), so :meth:`FeasibleRegion.clipped` draws it
    exactly. ``kind`` is ``"slice"`` (no ``vertices`` or ``rays``) or ``"empty"``
    when the data are not separable at all; a slice may still be empty at this ``b``.
    """
    X, y = check_Xy(X, y)
    c = check_bias_scale(bias_scale)
    b = float(b)
    if not math.isfinite(b):
        raise ValueError(f"b must be a finite number, got {b!r}")
    Z = constraint_normals(X, y, fit_intercept=True, bias_scale=c)
    lines = np.column_stack([X * y[:, None], y * b])
    lines = np.ldexp(lines, -pow2_exponent(float(np.abs(lines).max(initial=0.0))))
    from .hard_margin import max_margin

    separable = X.shape[0] == 0 or max_margin(X, y).separable
    active = []
    for label in (1.0, -1.0):
        idx = np.flatnonzero(y == label)
        if idx.size:
            H = convex_hull(X[idx])
            where = {tuple(p): int(i) for p, i in zip(X[idx].tolist(), idx.tolist(), strict=True)}
            active.extend(where[tuple(h)] for h in H.tolist())
    if not separable:
        return _region(True, c, Z, lines, "empty", active=active,
                       reason="the data are not linearly separable")
    return _region(True, c, Z, lines, "slice", active=active)


def generous_lines(X, y, *, fit_intercept=True, bias_scale=1.0, b=None) -> np.ndarray:
    """The lines of the *generously feasible* region: ``z_i·w >= ||z_i||²`` for every case.

    Hinton's convergence argument uses the weight vectors at a distance of at
    least ``||z_i||`` from each case's plane: vectors, not directions, so drawn in
    the plane ``(w_1, w_2)``: without a bias ``(z_i, -||z_i||²)``; with one, in the
    slice at ``b``, ``(y_i x_i, y_i b - ||z_i||²)``.  Each line ``(a, b, d)`` (the
    region: ``a w_1 + b w_2 + d >= 0``) is divided by ``||z_i||`` (no square to overflow).
    """
    Z = constraint_normals(X, y, fit_intercept=fit_intercept, bias_scale=bias_scale)
    if fit_intercept and (b is None or not math.isfinite(float(b))):
        raise ValueError("with a bias, the generously feasible region is drawn in the slice "
                         "at a finite b: pass b")
    e = pow2_exponent(float(np.abs(Z).max(initial=0.0)))
    norm = np.ldexp(np.sqrt(np.sum(np.ldexp(Z, -e) ** 2, axis=1)), e)
    safe = np.where(norm > 0, norm, 1.0)
    if not fit_intercept:
        return np.column_stack([Z / safe[:, None], -norm])
    y = np.asarray(y, np.float64)
    with np.errstate(over="ignore"):
        return np.column_stack([Z[:, :2] / safe[:, None], y * float(b) / safe - norm])


@dataclass(frozen=True, eq=False)
class Trajectory:
    """The weight vectors ``w_0 … w_k`` of a run, read from its log.

    After step ``step[j]`` the run had made ``count[j]`` updates (increasing,
    0 first) and had the weights ``w[j]``: ``(w_1, w_2)``, or ``(w_1, w_2, w_0)``
    with a bias (``w_0 = b / c``). ``last_case`` is the sample of the last
    update; None before the first or for a step that sums a pass.
    """

    step: np.ndarray
    count: np.ndarray
    w: np.ndarray
    last_case: int | None


def trajectory(log, X, signs, *, fit_intercept, bias_scale, k, m=4096,
               recent=0) -> Trajectory:
    """The weights ``w_0, …, w_k`` after each update of a run, from its log (``w_0``: its start).

    ``log, X, signs, k``: the run's ``history.updates``, ``training_X``, ``training_signs``,
    ``n_updates_``.

    Parameters
    ----------
    m : int, default=4096
        At most this many states besides ``w_0``: every update up to ``m``,
        else spread evenly (``log.samples``), ``w_k`` always last.
    recent : int, default=0
        Besides, every one of the last ``recent`` updates (a long run's recent
        walk drawn exactly, not sampled).

    Notes
    -----
    A kernel run's log keeps only which sample each update took: with the
    linear kernel (the caller checks it) ``w_k = sum_j y_{i_j} x_{i_j}`` and
    ``b_k = sum_j y_{i_j} c²``, summed in blocks.
    """
    k = int(k)
    d = X.shape[1]
    c = float(bias_scale)
    width = d + 1 if fit_intercept else d
    rows = log.samples(k, m) if k else None
    tail = log.rows(max(0, k - int(recent)), k) if rows is not None and int(recent) > 0 else None
    if rows is None:
        counts = steps = np.empty(0, np.int64)
        W = np.empty((0, width))
    else:
        counts = np.asarray(rows.index, np.int64)
        steps = np.asarray(rows.step, np.int64)
        keep = slice(None)
        if tail is not None:
            keep = counts <= k - tail.step.size
            counts = np.r_[counts[keep], np.arange(k - tail.step.size + 1, k + 1)]
            steps = np.r_[steps[keep], np.asarray(tail.step, np.int64)]
        if rows.w is None:
            W = _summed_updates(log, X, signs, c if fit_intercept else None, counts, k)
        else:
            W = np.asarray(rows.w, np.float64)[keep]
            b = np.asarray(rows.b, np.float64)[keep]
            if tail is not None:
                W = np.vstack([W, np.asarray(tail.w, np.float64)])
                b = np.r_[b, np.asarray(tail.b, np.float64)]
            if fit_intercept:
                W = np.column_stack([W, b / c])
    last = None
    if k:
        i = int(log.rows(k - 1, k).index[0])
        last = i if i >= 0 else None
    first = np.zeros((1, width))  # w_0: the run's start (a kernel run's is 0)
    w0, b0 = log.state_after(0)
    if w0 is not None:
        first[0, :d] = w0
        if fit_intercept:
            first[0, d] = b0 / c
    return Trajectory(step=readonly(np.r_[0, steps].astype(np.int64)),
                      count=readonly(np.r_[0, counts].astype(np.int64)),
                      w=readonly(np.vstack([first, W])), last_case=last)


def _summed_updates(log, X, signs, c, counts, k) -> np.ndarray:
    """The weights after ``counts`` updates of a log that keeps only the samples (block sums)."""
    Z = X if c is None else np.column_stack([X, np.full(X.shape[0], c)])
    Z = Z * np.asarray(signs, np.float64)[:, None]
    W = np.empty((counts.size, Z.shape[1]))
    acc = np.zeros(Z.shape[1])
    done, j = 0, 0
    while j < counts.size:
        stop = min(k, done + (1 << 16))
        cum = np.cumsum(Z[np.asarray(log.rows(done, stop).index, np.int64)], axis=0) + acc
        while j < counts.size and counts[j] <= stop:
            W[j] = cum[counts[j] - done - 1]
            j += 1
        acc, done = cum[-1], stop
    return W
