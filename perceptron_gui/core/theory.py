"""Margins, the maximum-margin separator and the Novikoff bound.

A linear classifier ``h(x) = sign(w·x + b)`` has, on a labeled sample
``(x_i, y_i)`` with ``y_i`` in {-1, +1},

- the *functional margin* ``y_i (w·x_i + b)``,
- the *geometric margin* ``y_i (w·x_i + b) / ||w||``, the signed distance of
  ``x_i`` to the hyperplane (positive on the correct side).

The margin of a hyperplane on a data set is the smallest geometric margin; the
margin of a data set is the largest margin over all hyperplanes
(:func:`max_margin`, the hard-margin SVM).

The perceptron with a bias sees the augmented vectors ``z_i = (x_i, c)`` with
``c = bias_scale`` (its bias is ``b = c w_0``).  Novikoff's theorem: if
``||z_i|| <= R`` and a unit vector ``w*`` has ``y_i w*·z_i >= gamma > 0`` for
every ``i``, the perceptron makes at most ``(R / gamma)²`` updates
(:func:`novikoff`).  Its proof rests on two inequalities after ``k`` updates
with learning rate ``eta`` (:func:`proof_trace`)::

    w_k·w*    >= k eta gamma
    ||w_k||²  <= k eta² R²

Only numpy is imported at module level; scipy is imported inside
:func:`novikoff`, the one function that needs it.
"""

from __future__ import annotations

import math
from dataclasses import dataclass

import numpy as np

__all__ = [
    "CERTIFICATE_RTOL",
    "KERNEL_MARGIN_MAX_N",
    "NONSEPARABLE_RTOL",
    "SUPPORT_RTOL",
    "MaxMarginResult",
    "NovikoffResult",
    "ProofTrace",
    "functional_margins",
    "geometric_margins",
    "hyperplane_margin",
    "max_margin",
    "novikoff",
    "proof_trace",
]

#: Largest number of samples for which :func:`novikoff` computes a kernel
#: margin.  The kernel margin needs the n x n kernel matrix (32 MB at n = 2000),
#: its pivoted Cholesky factor and an NNLS on it: about 0.1-1 s at n = 2000,
#: more for labelings with many support vectors.
KERNEL_MARGIN_MAX_N = 2000

#: Relative tolerance for a point to count as a support vector of
#: :func:`max_margin` (on top of the rounding error of the dot products).
SUPPORT_RTOL = 1e-9

#: Largest relative gap ``(upper - lower) / upper`` for which :func:`novikoff`
#: calls its margin certified.
CERTIFICATE_RTOL = 1e-9

#: :func:`novikoff` declares data not separable when no separator is found and
#: the computed hull point nearest the origin is within ``NONSEPARABLE_RTOL * R``
#: of it (the origin is in the hull up to rounding).
NONSEPARABLE_RTOL = 1e-10

#: Relative slack allowed for rounding in :attr:`ProofTrace.holds`.
PROOF_RTOL = 1e-12

_EPS = np.finfo(np.float64).eps


# --------------------------------------------------------------------------- #
# input checking
# --------------------------------------------------------------------------- #


def _check_X(X) -> np.ndarray:
    try:
        arr = np.asarray(X, dtype=np.float64)
    except (TypeError, ValueError) as exc:
        raise ValueError(f"X must be a numeric array: {exc}") from exc
    if arr.ndim == 1 and arr.size == 0:
        arr = arr.reshape(0, 2)  # an empty list: no points in the plane
    if arr.ndim != 2:
        raise ValueError(f"X must be 2-D of shape (n_samples, n_features), got shape {arr.shape}")
    if not np.isfinite(arr).all():
        raise ValueError("X contains NaN or infinity")
    return np.ascontiguousarray(arr)


def _check_Xy(X, y) -> tuple[np.ndarray, np.ndarray]:
    X = _check_X(X)
    try:
        y = np.asarray(y, dtype=np.float64)
    except (TypeError, ValueError) as exc:
        raise ValueError(f"y must contain the labels -1 and +1: {exc}") from exc
    if y.ndim == 2 and y.shape[1] == 1:
        y = y.ravel()
    if y.ndim != 1 or y.shape[0] != X.shape[0]:
        raise ValueError(
            f"y must have shape ({X.shape[0]},) to match X, got shape {y.shape}"
        )
    if not np.isin(y, (-1.0, 1.0)).all():
        raise ValueError("y must contain the labels -1 and +1 only")
    return X, np.ascontiguousarray(y)


def _check_coef(coef, d: int) -> np.ndarray:
    coef = np.asarray(coef, dtype=np.float64).ravel()
    if coef.shape != (d,):
        raise ValueError(f"coef must have {d} entries to match X, got {coef.shape[0]}")
    if not np.isfinite(coef).all():
        raise ValueError("coef contains NaN or infinity")
    return coef


def _readonly(a: np.ndarray) -> np.ndarray:
    a.setflags(write=False)
    return a


# --------------------------------------------------------------------------- #
# margins of a given hyperplane
# --------------------------------------------------------------------------- #


def functional_margins(X, y, coef, intercept=0.0) -> np.ndarray:
    """Functional margins ``y_i (w·x_i + b)`` of a linear classifier.

    Parameters
    ----------
    X : array-like of shape (n_samples, n_features)
        The samples.
    y : array-like of shape (n_samples,)
        Their labels, -1 or +1.
    coef : array-like of shape (n_features,)
        The weight vector ``w``.
    intercept : float, default=0.0
        The bias ``b``.

    Returns
    -------
    margins : ndarray of shape (n_samples,)
        ``y_i (w·x_i + b)``: positive where the sample is classified correctly.
    """
    return _functional(X, y, coef, intercept)[0]


def _functional(X, y, coef, intercept) -> tuple[np.ndarray, np.ndarray]:
    """Validated functional margins and the validated weight vector."""
    X, y = _check_Xy(X, y)
    coef = _check_coef(coef, X.shape[1])
    return y * (X @ coef + float(intercept)), coef


def geometric_margins(X, y, coef, intercept=0.0) -> np.ndarray:
    """Geometric margins ``y_i (w·x_i + b) / ||w||``: signed distances to the hyperplane.

    Parameters
    ----------
    X : array-like of shape (n_samples, n_features)
        The samples.
    y : array-like of shape (n_samples,)
        Their labels, -1 or +1.
    coef : array-like of shape (n_features,)
        The weight vector ``w``.
    intercept : float, default=0.0
        The bias ``b``.

    Returns
    -------
    margins : ndarray of shape (n_samples,)
        The distance of each sample to the hyperplane ``w·x + b = 0``, positive
        on the side of its own class.  When ``w = 0`` there is no hyperplane and
        every geometric margin is defined as ``0.0``.
    """
    margins, coef = _functional(X, y, coef, intercept)
    norm = float(np.linalg.norm(coef))
    if norm == 0.0:
        return np.zeros(margins.shape[0])
    return margins / norm


def hyperplane_margin(X, y, coef, intercept=0.0) -> float:
    """Margin of a hyperplane on a data set: ``min_i y_i (w·x_i + b) / ||w||``.

    Parameters
    ----------
    X : array-like of shape (n_samples, n_features)
        The samples.
    y : array-like of shape (n_samples,)
        Their labels, -1 or +1.
    coef : array-like of shape (n_features,)
        The weight vector ``w``.
    intercept : float, default=0.0
        The bias ``b``.

    Returns
    -------
    margin : float
        The smallest geometric margin.  Negative when the hyperplane
        misclassifies a sample, ``0.0`` when ``w = 0`` (see
        :func:`geometric_margins`), ``+inf`` for no samples (the minimum over
        an empty set).
    """
    m = geometric_margins(X, y, coef, intercept)
    return float(m.min()) if m.size else math.inf


# --------------------------------------------------------------------------- #
# maximum margin (2-D, exact)
# --------------------------------------------------------------------------- #


@dataclass(frozen=True, eq=False)
class MaxMarginResult:
    """The maximum-margin (hard-margin SVM) separator of a labeled data set.

    Attributes
    ----------
    margin : float
        The geometric margin ``max_{w, b} min_i y_i (w·x_i + b) / ||w||``: half
        the distance between the convex hulls of the two classes.  ``0.0`` when
        the data are not separable.
    coef : ndarray of shape (n_features,)
        ``w`` in the canonical SVM scaling ``min_i y_i (w·x_i + b) = 1``, so
        ``||w|| = 1 / margin`` (as scikit-learn's ``SVC(kernel="linear").coef_``
        on separable data).  All NaN when not separable.  Read-only.
    intercept : float
        ``b`` in the same scaling; NaN when not separable.
    support : ndarray of int, shape (n_support,)
        Indices of the support vectors, the samples on the margin lines
        ``w·x + b = ±1`` (within ``SUPPORT_RTOL`` relative, plus rounding).
        Empty when not separable.  Read-only.
    separable : bool
        Whether the convex hulls of the two classes are disjoint.
    reason : str or None
        Why the data are not separable: ``"no points"``, ``"one class only"``,
        ``"identical points in both classes"`` or ``"classes overlap"`` (the
        convex hulls intersect or touch).  ``None`` when separable.
    """

    margin: float
    coef: np.ndarray
    intercept: float
    support: np.ndarray
    separable: bool
    reason: str | None = None


def _not_separable(d: int, reason: str) -> MaxMarginResult:
    return MaxMarginResult(
        margin=0.0,
        coef=_readonly(np.full(d, np.nan)),
        intercept=math.nan,
        support=_readonly(np.empty(0, dtype=np.intp)),
        separable=False,
        reason=reason,
    )


# 16 directions in increasing angle, for the Akl-Toussaint filter.
_FILTER_ANGLES = np.arange(16) * (2.0 * np.pi / 16)
_FILTER_DIRS = np.stack([np.cos(_FILTER_ANGLES), np.sin(_FILTER_ANGLES)])


def _drop_interior(P: np.ndarray) -> np.ndarray:
    """Akl-Toussaint heuristic: drop points strictly inside a polygon of extreme points.

    The extreme points of ``P`` in 16 directions, taken in increasing angle,
    are hull vertices in counter-clockwise order; a point strictly inside their
    polygon is not a hull vertex.
    """
    idx = np.argmax(P @ _FILTER_DIRS, axis=0)
    keep = np.ones(idx.size, dtype=bool)
    keep[1:] = idx[1:] != idx[:-1]
    idx = idx[keep]
    if idx.size > 1 and idx[-1] == idx[0]:
        idx = idx[:-1]
    if idx.size < 3:
        return P
    V = P[idx]
    E = np.roll(V, -1, axis=0) - V
    # cross(E_k, p - V_k) > 0 for every k <=> p strictly inside.
    inside = np.ones(P.shape[0], dtype=bool)
    for (ex, ey), (vx, vy) in zip(E.tolist(), V.tolist(), strict=True):
        inside &= ex * (P[:, 1] - vy) - ey * (P[:, 0] - vx) > 0
    return P[~inside]


def _convex_hull(P: np.ndarray) -> np.ndarray:
    """Convex hull vertices of 2-D points, counter-clockwise, collinear points dropped.

    Andrew's monotone chain after an Akl-Toussaint filter.  Returns 1 vertex
    when all points coincide and 2 when they are collinear.  The first vertex
    is the lowest one (smallest y, then smallest x).
    """
    if P.shape[0] > 32:
        P = _drop_interior(P)
    order = np.lexsort((P[:, 1], P[:, 0]))
    P = P[order]
    if P.shape[0] > 1:
        new = np.ones(P.shape[0], dtype=bool)
        new[1:] = (P[1:] != P[:-1]).any(axis=1)
        P = P[new]
    m = P.shape[0]
    if m <= 2:
        hull = P
    else:
        xs = P[:, 0].tolist()
        ys = P[:, 1].tolist()

        def chain(indices):
            out: list[int] = []
            for i in indices:
                xi, yi = xs[i], ys[i]
                while len(out) >= 2:
                    o, a = out[-2], out[-1]
                    if (xs[a] - xs[o]) * (yi - ys[o]) - (ys[a] - ys[o]) * (xi - xs[o]) <= 0:
                        out.pop()
                    else:
                        break
                out.append(i)
            return out

        lower = chain(range(m))
        upper = chain(range(m - 1, -1, -1))
        hull = P[lower[:-1] + upper[:-1]]
    start = np.lexsort((hull[:, 0], hull[:, 1]))[0]
    return np.roll(hull, -start, axis=0)


def _edges(V: np.ndarray) -> np.ndarray:
    if V.shape[0] < 2:
        return np.empty((0, 2))
    return np.roll(V, -1, axis=0) - V


def _candidate_directions(A: np.ndarray, B: np.ndarray) -> np.ndarray:
    """Unit directions among which the maximum-margin normal is, for hulls A and -B.

    ``A`` is the hull of one class and ``B`` the hull of the other class
    reflected through the origin, both counter-clockwise.  Their Minkowski sum
    ``D = A + B`` (the difference of the two hulls) is built by merging the
    edges by angle; the margin normal is the
    direction of the point of ``D`` nearest to the origin.  That point is a
    vertex ``a + b`` or lies on an edge, which is an edge of ``A`` or of ``B``.
    For the few edges of ``D`` nearest to the origin this returns the edge
    normals and the vertex directions, each computed from the input points
    themselves, not from the (rounded) coordinates of ``D``.
    """
    A = np.roll(A, -int(np.lexsort((A[:, 0], A[:, 1]))[0]), axis=0)
    B = np.roll(B, -int(np.lexsort((B[:, 0], B[:, 1]))[0]), axis=0)
    eA, eB = _edges(A), _edges(B)
    nA, nB = A.shape[0], B.shape[0]
    if eA.shape[0] + eB.shape[0] == 0:
        d = A[0] + B[0]
        return d[None, :]
    edges = np.concatenate([eA, eB])
    ang = np.arctan2(edges[:, 1], edges[:, 0])
    ang = np.where(ang < 0, ang + 2.0 * np.pi, ang)
    from_a = np.concatenate([np.ones(eA.shape[0], bool), np.zeros(eB.shape[0], bool)])
    order = np.argsort(ang, kind="stable")
    from_a = from_a[order]
    # vertex k of D (k = 0..m-1) is A[ia[k]] + B[jb[k]]; edge k goes from vertex k.
    ia = np.concatenate([[0], np.cumsum(from_a)[:-1]]) % nA
    jb = np.concatenate([[0], np.cumsum(~from_a)[:-1]]) % nB
    vert = A[ia] + B[jb]
    e = edges[order]
    # distance from the origin to each edge segment of D
    ee = np.einsum("ij,ij->i", e, e)
    t = np.clip(-np.einsum("ij,ij->i", vert, e) / ee, 0.0, 1.0)
    q = vert + t[:, None] * e
    dist = np.hypot(q[:, 0], q[:, 1])
    dmin = dist.min()
    scale = max(float(np.abs(A).max()), float(np.abs(B).max()), 1e-300)
    near = np.flatnonzero(dist <= dmin * (1.0 + 1e-6) + 1e-12 * scale)
    m = e.shape[0]
    cands = []
    for k in near:
        ek = e[k]
        cands.append(np.array([-ek[1], ek[0]]))
        cands.append(np.array([ek[1], -ek[0]]))
        for kk in (k, (k + 1) % m):
            cands.append(A[ia[kk]] + B[jb[kk]])
    return np.array(cands)


def max_margin(X, y) -> MaxMarginResult:
    """Exact maximum-margin separator (hard-margin SVM with bias) of 1-D or 2-D data.

    Parameters
    ----------
    X : array-like of shape (n_samples, n_features), n_features in {1, 2}
        The samples (``n_samples`` may be 0).
    y : array-like of shape (n_samples,)
        Their labels, -1 or +1.

    Returns
    -------
    result : MaxMarginResult
        The margin, the separator ``(coef, intercept)`` in canonical scaling, the
        support vectors, and whether (or why not) the data are separable.
        Valid finite input never raises for a degenerate data set (no points,
        one class, duplicates, collinear points).

    Raises
    ------
    ValueError
        For NaN or infinite input, labels other than -1/+1, mismatched shapes,
        or ``n_features > 2`` (this exact algorithm is planar; the app's data
        are 2-D).

    Notes
    -----
    The maximum margin of a data set is::

        gamma = max_{w, b} min_i y_i (w·x_i + b) / ||w||
              = dist(conv{x_i : y_i = +1}, conv{x_i : y_i = -1}) / 2

    The hull of each class is computed exactly (Andrew's monotone chain, after
    an Akl-Toussaint filter); the distance between the two convex polygons is
    the distance from the origin to their difference ``P - N``, a convex
    polygon built in linear time by merging edges by angle.  Its closest point
    fixes the unit normal ``u`` (an edge normal of one hull or the direction
    between two vertices), computed from the input points; the hyperplane is
    then placed half-way between the classes along ``u``::

        gamma = (min_{y_i=+1} u·x_i - max_{y_i=-1} u·x_i) / 2

    so the returned hyperplane attains the returned margin up to rounding.
    Data whose hull gap is within rounding (``64 eps`` times the data's extent
    after centring) of zero count as touching, i.e. not separable.
    1-D data are embedded in the plane.  Cost: O(n log n); for 10,000 points a
    few milliseconds.

    References
    ----------
    A. M. Andrew, "Another efficient algorithm for convex hulls in two
    dimensions", Information Processing Letters 9(5), 1979.
    V. Vapnik, *Statistical Learning Theory*, Wiley, 1998 (optimal hyperplane).
    """
    X, y = _check_Xy(X, y)
    n, d = X.shape
    if d > 2:
        raise ValueError(f"max_margin supports 1-D and 2-D data, got {d} features")
    if n == 0:
        return _not_separable(d, "no points")
    pos = y > 0
    if pos.all() or not pos.any():
        return _not_separable(d, "one class only")
    X2 = X if d == 2 else np.column_stack([X[:, 0], np.zeros(n)])
    lo, hi = X2.min(axis=0), X2.max(axis=0)
    center = 0.5 * (lo + hi)
    Xc = X2 - center
    extent = float(np.abs(Xc).max())
    tol = 64.0 * _EPS * extent
    Xp, Xn = Xc[pos], Xc[~pos]
    HP = _convex_hull(Xp)
    HN = _convex_hull(Xn)
    U = _candidate_directions(HP, -HN)
    norms = np.hypot(U[:, 0], U[:, 1])
    ok = norms > 0
    widths = np.full(U.shape[0], -np.inf)
    if ok.any():
        U = U[ok] / norms[ok, None]
        widths = (HP @ U.T).min(axis=0) - (HN @ U.T).max(axis=0)
    best = int(np.argmax(widths))
    if not widths[best] > tol:
        return _not_separable(d, _overlap_reason(Xp, Xn))
    u = U[best]
    sp = Xp @ u
    sn = Xn @ u
    top, bottom = float(sp.min()), float(sn.max())
    width = top - bottom
    if not width > tol:  # pragma: no cover - the hull vertices already said so
        return _not_separable(d, "classes overlap")
    margin = 0.5 * width
    mid = 0.5 * (top + bottom)
    s = Xc @ u - mid
    support = np.flatnonzero(np.abs(y * s - margin) <= SUPPORT_RTOL * margin + tol)
    coef = u / margin
    intercept = -(float(u @ center) + mid) / margin
    if d == 1:
        coef = coef[:1].copy()
    return MaxMarginResult(
        margin=float(margin),
        coef=_readonly(coef),
        intercept=float(intercept),
        support=_readonly(support.astype(np.intp)),
        separable=True,
        reason=None,
    )


def _overlap_reason(Xp: np.ndarray, Xn: np.ndarray) -> str:
    """``"identical points in both classes"`` if a point has both labels, else overlap."""
    both = np.concatenate([Xp, Xn])
    label = np.concatenate([np.ones(Xp.shape[0], bool), np.zeros(Xn.shape[0], bool)])
    order = np.lexsort((label, *both.T[::-1]))
    both, label = both[order], label[order]
    same = (both[1:] == both[:-1]).all(axis=1) & (label[1:] != label[:-1])
    return "identical points in both classes" if same.any() else "classes overlap"


# --------------------------------------------------------------------------- #
# Novikoff
# --------------------------------------------------------------------------- #


@dataclass(frozen=True, eq=False)
class NovikoffResult:
    """The quantities of Novikoff's perceptron convergence theorem.

    Attributes
    ----------
    radius : float
        ``R = max_i ||z_i||`` over the vectors the perceptron sees:
        ``z_i = (x_i, bias_scale)`` with an intercept, ``x_i`` without; with a
        kernel, ``R = sqrt(max_i K'(x_i, x_i))``.
    margin : float
        ``gamma``, the largest margin of a separator through the origin of the
        ``z_i``: ``max_{||w||=1} min_i y_i w·z_i``.  The value reported is
        ``lower`` (attained by ``w_star``), so ``bound`` is a valid bound.
        ``0.0`` when not separable, NaN when not determined.
    bound : float
        ``(R / gamma)²``, the most updates the perceptron (started at 0, any
        learning rate) can make.  ``inf`` when not separable, NaN when not
        determined.
    separable : bool or None
        Whether some ``w`` has ``y_i w·z_i > 0`` for all ``i``.  ``None`` when
        not determined (no points, or a kernel problem above
        ``KERNEL_MARGIN_MAX_N``).
    w_star : ndarray of shape (n_features + 1,) or (n_features,), or None
        A unit vector attaining ``lower``: ``(w, w_0)`` in the augmented space
        with an intercept (the separator ``w·x + bias_scale w_0 = 0``).
        ``None`` with a kernel or when not separable.  Read-only.
    upper : float
        ``||p||`` for ``p = sum_i lambda_i y_i z_i`` the computed minimum-norm
        point of the convex hull of the ``y_i z_i``: an upper bound on gamma
        (for every unit ``w``, ``min_i y_i w·z_i <= w·p <= ||p||``).
    lower : float
        ``min_i y_i w_star·z_i``: a lower bound on gamma (NaN when not
        determined, ``-inf`` when no candidate direction was found).
    augmented : bool
        Whether the ``z_i`` include the bias feature ``bias_scale``.
    reason : str or None
        Why the data are not separable or the margin was not determined;
        ``None`` when separable.
    certified : bool
        ``(upper - lower) / upper <= CERTIFICATE_RTOL`` when separable; when not
        separable, ``upper`` is at rounding level (the origin is in the hull).
        ``False`` when the solver could not certify its answer.
    dual_coef : ndarray of shape (n_samples,) or None
        With a kernel and separable data: coefficients ``beta`` of the unit
        separator in feature space, ``w* = sum_i beta_i y_i phi'(x_i)``, so its
        decision function is ``sum_i beta_i y_i K'(x_i, x)``.  ``None``
        otherwise.  Read-only.
    """

    radius: float
    margin: float
    bound: float
    separable: bool | None
    w_star: np.ndarray | None
    upper: float
    lower: float
    augmented: bool
    reason: str | None = None
    certified: bool = False
    dual_coef: np.ndarray | None = None


def _min_norm_weights(G: np.ndarray) -> np.ndarray:
    """Convex weights of the minimum-norm point of conv(rows of G), by LDP via NNLS.

    Least-distance programming ``min ||w|| s.t. G w >= 1`` (Lawson & Hanson,
    ch. 23): solve ``min_{u >= 0} ||E u - f||`` with ``E = [G^T; 1^T]`` and
    ``f = (0, ..., 0, 1)``.  Then ``u / sum(u)`` are convex weights whose
    combination ``G^T u / sum(u)`` is the minimum-norm point, and
    ``w = G^T u / (1 - sum(u))`` solves the LDP when it is feasible.
    """
    from scipy.optimize import nnls

    n, D = G.shape
    E = np.empty((D + 1, n))
    E[:D] = G.T
    E[D] = 1.0
    f = np.zeros(D + 1)
    f[D] = 1.0
    u, _ = nnls(E, f, maxiter=max(50 * n, 1000))
    s = u.sum()
    if not s > 0:  # cannot happen for a correct NNLS: E^T f = 1 > 0
        return np.full(n, 1.0 / n)
    return u / s


def _polish(G_act: np.ndarray) -> np.ndarray | None:
    """Minimum-norm point of the affine hull of the active points (rows of ``G_act``).

    Writes the point as ``g_1 + V t`` with ``V = [g_2 - g_1, ...]`` and solves
    ``min ||g_1 + V t||`` by least squares (SVD, so the conditioning is that of
    ``V``, not of its Gram matrix); returns the convex weights
    ``(1 - sum t, t)``, or ``None`` when they leave the simplex.
    """
    k = G_act.shape[0]
    if k == 1:
        return np.ones(1)
    V = (G_act[1:] - G_act[0]).T
    t = np.linalg.lstsq(V, -G_act[0], rcond=None)[0]
    lam = np.concatenate([[1.0 - t.sum()], t])
    if not np.isfinite(lam).all() or (lam < 0).any():
        return None
    return lam / lam.sum()


def _active_weights(G: np.ndarray) -> tuple[list[np.ndarray], np.ndarray]:
    """Convex-weight candidates (NNLS, then polished) and the NNLS active set."""
    lam = _min_norm_weights(G)
    cands = [lam]
    active = np.flatnonzero(lam > 0)
    pol = _polish(G[active])
    if pol is not None:
        full = np.zeros(G.shape[0])
        full[active] = pol
        cands.append(full)
    return cands, active


def _solve_primal(
    G: np.ndarray, H: np.ndarray | None = None
) -> tuple[float, float, np.ndarray]:
    """``(upper, lower, w_star)`` for the rows ``g_i`` of ``G``.

    ``H``, when given, holds rows of ``G`` whose convex hull is that of all
    rows (e.g. the hull vertices); the solver then runs on ``H`` only, while
    ``lower`` is still evaluated on every row of ``G``.
    ``upper`` is the smallest ``||H^T lambda||`` over the convex-weight
    candidates.  ``w_star`` is the better of the direction of that hull point
    and the least-distance solution on the active set, ``G_S w = 1`` (minimum
    norm, by least squares plus one step of iterative refinement): it is much
    less sensitive to rounding when ``R / gamma`` is large.
    """
    H = G if H is None else H
    cands, active = _active_weights(H)
    upper, best_w, lower = math.inf, None, -math.inf
    ws = []
    for lam in cands:
        p = H.T @ lam
        up = float(np.linalg.norm(p))
        upper = min(upper, up)
        if up > 0:
            ws.append(p)
    Ga = H[active]
    ones = np.ones(active.size)
    w = np.linalg.lstsq(Ga, ones, rcond=None)[0]
    w = w + np.linalg.lstsq(Ga, ones - Ga @ w, rcond=None)[0]
    ws.append(w)
    for w in ws:
        nw = float(np.linalg.norm(w))
        if not (np.isfinite(nw) and nw > 0):
            continue
        u = w / nw
        lo = float((G @ u).min())
        if lo > lower:
            lower, best_w = lo, u
    return upper, lower, best_w


def _psd_factor(Q: np.ndarray) -> np.ndarray:
    """``G`` with ``G G^T ≈ Q`` for a positive semi-definite ``Q``, of numerical rank.

    Pivoted Cholesky (LAPACK ``dpstrf``) stopped when the largest remaining
    diagonal entry falls below ``n eps max(diag Q)``: O(n r²) for rank ``r``,
    much cheaper than an eigendecomposition for the low-rank Gram matrices of
    2-D data.  Falls back to ``eigh`` if LAPACK reports an error.
    """
    from scipy.linalg import lapack

    n = Q.shape[0]
    tol = n * _EPS * max(float(np.max(np.diag(Q))), 0.0)
    c, piv, rank, info = lapack.dpstrf(Q, lower=1, tol=tol)
    if info >= 0 and rank >= 1:
        G = np.zeros((n, rank))
        G[piv - 1] = np.tril(c)[:, :rank]
        return G
    evals, evecs = np.linalg.eigh(Q)  # pragma: no cover - LAPACK failure only
    keep = evals > n * _EPS * max(float(evals[-1]), 0.0)
    keep[-1] = True
    return evecs[:, keep] * np.sqrt(np.maximum(evals[keep], 0.0))


def _solve_kernel(G: np.ndarray, Q: np.ndarray) -> tuple[float, float, np.ndarray | None]:
    """``(upper, lower, beta)`` for a Gram matrix ``Q`` with ``Q ≈ G G^T``.

    The NNLS runs on the factor ``G`` and only supplies the active set ``S``;
    then ``Q_SS mu = 1`` is solved on the exact Gram matrix (least squares plus
    one refinement step).  ``mu / sum(mu)`` are the convex weights of the
    minimum-norm point of the affine hull of the active vectors and ``mu`` the
    dual coefficients of the least-distance solution.  The bounds come from
    ``Q`` itself: ``upper = min sqrt(lambda^T Q lambda)`` over the convex-weight
    candidates, ``lower = min_i (Q beta)_i`` for the best unit-norm
    (``beta^T Q beta = 1``) candidate.
    """
    lam = _min_norm_weights(G)
    active = np.flatnonzero(lam > 0)
    Qa = Q[np.ix_(active, active)]
    ones = np.ones(active.size)
    mu = np.linalg.lstsq(Qa, ones, rcond=None)[0]
    mu = mu + np.linalg.lstsq(Qa, ones - Qa @ mu, rcond=None)[0]
    full = np.zeros(Q.shape[0])
    full[active] = mu
    cands = [lam]
    if np.isfinite(mu).all() and (mu >= 0).all() and mu.sum() > 0:
        cands.append(full / mu.sum())
    upper, lower, best = math.inf, -math.inf, None
    for beta in [*cands, full]:
        qb = Q @ beta
        nn = float(beta @ qb)
        if beta is not full and np.isfinite(nn):
            upper = min(upper, math.sqrt(max(nn, 0.0)))
        if not (np.isfinite(nn) and nn > 0):
            continue
        nb = math.sqrt(nn)
        lo = float(qb.min()) / nb
        if lo > lower:
            lower, best = lo, beta / nb
    return upper, lower, best


def _hull_rows(X: np.ndarray, y: np.ndarray, fit_intercept: bool, c: float):
    """For 2-D data, the few ``g_i = y_i z_i`` that span the hull of all of them.

    With an intercept the ``g_i`` lie in the two planes ``z = c`` (positive
    class) and ``z = -c`` (negative class, reflected), so the vertices of their
    hull are among the 2-D hull vertices of each class; without one, the
    ``g_i = y_i x_i`` are planar.  ``None`` (use every row) otherwise or when
    the data are small.
    """
    n, d = X.shape
    if d != 2 or n <= 64:
        return None
    if not fit_intercept:
        return _convex_hull(y[:, None] * X)
    parts = []
    for sign in (1.0, -1.0):
        P = X[y == sign]
        if P.shape[0]:
            H = _convex_hull(P)
            parts.append(sign * np.column_stack([H, np.full(H.shape[0], c)]))
    return np.concatenate(parts)


def novikoff(X, y, *, fit_intercept=True, bias_scale=1.0, kernel=None) -> NovikoffResult:
    """Radius, margin and update bound of Novikoff's perceptron convergence theorem.

    Parameters
    ----------
    X : array-like of shape (n_samples, n_features)
        The samples (``n_samples`` may be 0).
    y : array-like of shape (n_samples,)
        Their labels, -1 or +1.
    fit_intercept : bool, default=True
        Whether the perceptron learns a bias; it then sees the augmented vectors
        ``z_i = (x_i, bias_scale)``, otherwise ``z_i = x_i``.
    bias_scale : float, default=1.0
        The constant bias feature ``c > 0`` (the bias is ``b = c w_0``).  A
        larger ``c`` raises ``R`` and changes ``gamma``.
    kernel : perceptron_gui.core.kernels.Kernel or str, optional
        With a kernel the vectors are ``phi(x_i)`` augmented with ``c``, whose
        Gram matrix is ``K'(i, j) = K(x_i, x_j) + c²`` (``+ 0`` without an
        intercept).  A string is passed to
        :func:`~perceptron_gui.core.kernels.make_kernel`.

    Returns
    -------
    result : NovikoffResult

    Raises
    ------
    ValueError
        For NaN or infinite input, labels other than -1/+1, mismatched shapes,
        or a non-positive / non-finite ``bias_scale``.

    Notes
    -----
    Novikoff's theorem: if ``||z_i|| <= R`` and a unit ``w*`` has
    ``y_i w*·z_i >= gamma > 0`` for all ``i``, the perceptron
    ``w <- w + eta y_i z_i`` (on every ``y_i w·z_i <= 0``, from ``w = 0``) makes
    at most ``k <= (R / gamma)²`` updates.

    ``gamma`` is the distance from the origin to the convex hull of the
    ``g_i = y_i z_i`` (for 2-D data, only the hull vertices of each class enter
    the solver; the certificate below still checks every sample).  It is
    computed by least-distance programming,
    ``min ||w|| s.t. G w >= 1`` (rows of ``G`` are the ``g_i``), solved through
    ``scipy.optimize.nnls`` as in Lawson & Hanson.  Its convex weights
    ``lambda`` give a hull point ``p = G^T lambda`` (then polished: the exact
    minimum-norm point of the affine hull of the active ``g_i``), and its
    active set ``S`` gives ``w`` solving ``G_S w = 1`` with minimum norm (least
    squares plus one refinement step, far less sensitive to rounding than
    ``p / ||p||`` when ``R / gamma`` is large).  The answer is certified by two
    bounds that are checked, not assumed::

        lower = min_i g_i·w*  <=  gamma  <=  ||p|| = upper

    (for any unit ``w``, ``min_i g_i·w <= w·p <= ||p||``).  Rounding limits the
    attainable gap to roughly ``eps R / gamma`` in the primal and
    ``eps (R / gamma)²`` with a kernel (which works with the Gram matrix).

    With a kernel, ``Q = diag(y) K' diag(y)`` is factored as ``L L^T``
    (pivoted Cholesky to numerical rank, pivots below ``n eps max diag Q``
    dropped) and the same problem is solved on the rows of ``L``; the
    polishing and the bounds use ``Q`` itself:
    ``upper = sqrt(lambda^T Q lambda)``,
    ``lower = min_i (Q beta)_i / sqrt(beta^T Q beta)``.  Above
    ``KERNEL_MARGIN_MAX_N`` samples the kernel margin is not computed (``separable=None``).

    Data are declared not separable when no candidate separates them
    (``lower <= 0``); ``certified`` then says whether ``upper`` is at rounding
    level, i.e. the origin is in the hull: below ``NONSEPARABLE_RTOL R``, or
    with a kernel below ``sqrt(4 n eps) R`` (the accuracy of the Gram
    matrix computations and of the truncated factor).

    References
    ----------
    A. B. J. Novikoff, "On convergence proofs on perceptrons", Symposium on the
    Mathematical Theory of Automata, 1962.
    C. L. Lawson and R. J. Hanson, *Solving Least Squares Problems*,
    Prentice-Hall, 1974, ch. 23 (LDP via NNLS).
    """
    X, y = _check_Xy(X, y)
    n, d = X.shape
    fit_intercept = bool(fit_intercept)
    c = float(bias_scale)
    if not math.isfinite(c) or c <= 0:
        raise ValueError(f"bias_scale must be a positive finite number, got {bias_scale!r}")
    if isinstance(kernel, str):
        from .kernels import make_kernel

        kernel = make_kernel(kernel)

    # radius
    if kernel is None:
        Z = np.column_stack([X, np.full(n, c)]) if fit_intercept else X
        sq = np.einsum("ij,ij->i", Z, Z)
    else:
        sq = kernel.diagonal(X) + (c * c if fit_intercept else 0.0) if n else np.empty(0)
    radius = math.sqrt(max(float(sq.max()), 0.0)) if n else 0.0

    def undetermined(reason: str) -> NovikoffResult:
        return NovikoffResult(
            radius=radius,
            margin=math.nan,
            bound=math.nan,
            separable=None,
            w_star=None,
            upper=math.nan,
            lower=math.nan,
            augmented=fit_intercept,
            reason=reason,
            certified=False,
            dual_coef=None,
        )

    if n == 0:
        return undetermined("no points")

    if kernel is None:
        upper, lower, w_star = _solve_primal(y[:, None] * Z, _hull_rows(X, y, fit_intercept, c))
        beta = None
    else:
        if n > KERNEL_MARGIN_MAX_N:
            return undetermined(
                f"kernel margin too costly to certify at n={n} "
                f"(limit KERNEL_MARGIN_MAX_N={KERNEL_MARGIN_MAX_N})"
            )
        Kp = kernel(X, X)
        if fit_intercept:
            Kp = Kp + c * c
        Q = (y[:, None] * Kp) * y[None, :]
        Q = 0.5 * (Q + Q.T)
        G = _psd_factor(Q)
        upper, lower, beta = _solve_kernel(G, Q)
        w_star = None

    if lower > 0:
        certified = (upper - lower) <= CERTIFICATE_RTOL * upper
        return NovikoffResult(
            radius=radius,
            margin=float(lower),
            bound=(radius / lower) ** 2,
            separable=True,
            w_star=None if w_star is None else _readonly(w_star),
            upper=float(upper),
            lower=float(lower),
            augmented=fit_intercept,
            reason=None,
            certified=bool(certified),
            dual_coef=None if beta is None else _readonly(beta),
        )
    pos = y > 0
    if pos.all() or not pos.any():
        reason = "a sample at the origin"  # one class: only a zero vector blocks separation
    elif kernel is not None:
        reason = _overlap_reason(X[pos], X[~pos])
        if reason == "classes overlap":
            reason = "not separable in the kernel's feature space (to numerical precision)"
    elif fit_intercept:
        reason = _overlap_reason(X[pos], X[~pos])
    else:
        reason = "not separable by a hyperplane through the origin"
    if kernel is None:
        certified = upper <= NONSEPARABLE_RTOL * radius
    else:  # lambda^T Q lambda has rounding error eps R², the factor n eps R²
        certified = upper <= math.sqrt(4.0 * n * _EPS) * radius
    return NovikoffResult(
        radius=radius,
        margin=0.0,
        bound=math.inf,
        separable=False,
        w_star=None,
        upper=float(upper),
        lower=float(lower),
        augmented=fit_intercept,
        reason=reason if certified else reason + " (not certified)",
        certified=bool(certified),
        dual_coef=None,
    )


# --------------------------------------------------------------------------- #
# the proof's two inequalities along a run
# --------------------------------------------------------------------------- #


@dataclass(frozen=True, eq=False)
class ProofTrace:
    """Both sides of the two inequalities of Novikoff's proof after each update.

    Attributes
    ----------
    k : ndarray of int, shape (K,)
        Update counts ``1, ..., K``.
    dot : ndarray of shape (K,)
        ``w_k·w*`` (augmented ``w_k = (w, b / c)`` with an intercept).
    lower : ndarray of shape (K,)
        ``k eta gamma``; the proof shows ``dot >= lower``.
    norm2 : ndarray of shape (K,)
        ``||w_k||²`` (augmented likewise).
    upper : ndarray of shape (K,)
        ``k eta² R²``; the proof shows ``norm2 <= upper``.
    """

    k: np.ndarray
    dot: np.ndarray
    lower: np.ndarray
    norm2: np.ndarray
    upper: np.ndarray

    @property
    def dot_holds(self) -> np.ndarray:
        """``w_k·w* >= k eta gamma`` at each k, up to ``PROOF_RTOL`` relative."""
        return self.dot >= self.lower - PROOF_RTOL * np.abs(self.lower)

    @property
    def norm_holds(self) -> np.ndarray:
        """``||w_k||² <= k eta² R²`` at each k, up to ``PROOF_RTOL`` relative."""
        return self.norm2 <= self.upper + PROOF_RTOL * np.abs(self.upper)

    @property
    def holds(self) -> bool:
        """Whether both inequalities hold at every k."""
        return bool(self.dot_holds.all() and self.norm_holds.all())


def proof_trace(
    W,
    B,
    *,
    w_star,
    gamma,
    radius,
    learning_rate=1.0,
    fit_intercept=True,
    bias_scale=1.0,
) -> ProofTrace:
    """The quantities of Novikoff's proof along a perceptron run.

    Parameters
    ----------
    W : array-like of shape (K, n_features)
        The weights after each of the ``K`` updates (row ``k-1`` is ``w_k``).
    B : array-like of shape (K,)
        The biases after each update (ignored without an intercept).
    w_star : array-like of shape (n_features + 1,) or (n_features,)
        A unit separator in the augmented space (``NovikoffResult.w_star``).
    gamma : float
        Its margin ``min_i y_i w*·z_i`` (``NovikoffResult.margin``).
    radius : float
        ``R = max_i ||z_i||`` (``NovikoffResult.radius``).
    learning_rate : float, default=1.0
        ``eta``.
    fit_intercept : bool, default=True
        Whether ``w_k`` is augmented with ``b_k / bias_scale``.
    bias_scale : float, default=1.0
        ``c``.

    Returns
    -------
    trace : ProofTrace

    Notes
    -----
    Each update adds ``eta y_i z_i`` for a sample with ``y_i w_{k-1}·z_i <= 0``,
    so by induction from ``w_0 = 0``::

        w_k·w*   = w_{k-1}·w* + eta y_i z_i·w*   >= k eta gamma
        ||w_k||² = ||w_{k-1}||² + 2 eta y_i w_{k-1}·z_i + eta² ||z_i||²
                 <= k eta² R²

    and with Cauchy-Schwarz ``k eta gamma <= ||w_k|| <= sqrt(k) eta R``, hence
    ``k <= (R / gamma)²``.
    """
    W = np.asarray(W, dtype=np.float64)
    if W.ndim == 1:
        W = W.reshape(-1, 1) if W.size else W.reshape(0, 0)
    B = np.asarray(B, dtype=np.float64).ravel()
    K = W.shape[0]
    if fit_intercept:
        if B.shape[0] != K:
            raise ValueError(f"B must have {K} entries to match W, got {B.shape[0]}")
        V = np.column_stack([W, B / float(bias_scale)]) if K else np.empty((0, W.shape[1] + 1))
    else:
        V = W
    w_star = np.asarray(w_star, dtype=np.float64).ravel()
    if K and V.shape[1] != w_star.shape[0]:
        raise ValueError(
            f"w_star has {w_star.shape[0]} entries, the (augmented) weights have {V.shape[1]}"
        )
    k = np.arange(1, K + 1)
    eta = float(learning_rate)
    dot = V @ w_star if K else np.empty(0)
    norm2 = np.einsum("ij,ij->i", V, V) if K else np.empty(0)
    return ProofTrace(
        k=_readonly(k),
        dot=_readonly(np.asarray(dot, dtype=np.float64)),
        lower=_readonly(k * eta * float(gamma)),
        norm2=_readonly(np.asarray(norm2, dtype=np.float64)),
        upper=_readonly(k * eta**2 * float(radius) ** 2),
    )
