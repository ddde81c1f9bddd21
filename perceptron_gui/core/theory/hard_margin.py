"""The maximum-margin separator of 2-D data, computed exactly (the hard-margin SVM).

The margin of a data set is the largest margin over all hyperplanes: half the
distance between the two classes' convex hulls.
"""

from __future__ import annotations

import math
from dataclasses import dataclass

import numpy as np

from ._validation import EPS, check_Xy, pow2_exponent, readonly
from .hull import convex_hull, overlap_reason

#: Relative tolerance for a point to count as a support vector of
#: :func:`max_margin` (on top of the rounding error of the dot products).
SUPPORT_RTOL = 1e-9
#: Why data whose classes are apart, but by less than rounding of their extent
#: (``64 eps`` times it: 1e300 beside points near 1), count as not separable.
TOUCHING = "the classes touch to within rounding of the data's extent"


@dataclass(frozen=True, eq=False)
class MaxMarginResult:
    """The maximum-margin (hard-margin SVM) separator of a labeled data set.

    Attributes
    ----------
    margin : float
        The geometric margin ``max_{w, b} min_i y_i (w·x_i + b) / ||w||``;
        ``0.0`` when the data are not separable.
    coef : ndarray of shape (n_features,)
        ``w`` in the canonical SVM scaling ``min_i y_i (w·x_i + b) = 1``, so
        ``||w|| = 1 / margin`` (as scikit-learn's ``SVC(kernel="linear").coef_``
        on separable data), and ``intercept`` ``b`` likewise.  All NaN when not
        separable.  Read-only.
    support : ndarray of int, shape (n_support,)
        Indices of the support vectors, the samples on the margin lines
        ``w·x + b = ±1`` (within ``SUPPORT_RTOL`` relative, plus rounding).
        Empty when not separable.  Read-only.
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
    return MaxMarginResult(0.0, readonly(np.full(d, np.nan)), math.nan,
                           readonly(np.empty(0, dtype=np.intp)), False, reason)


def _edges(V: np.ndarray) -> np.ndarray:
    return np.empty((0, 2)) if V.shape[0] < 2 else np.roll(V, -1, axis=0) - V


def _candidate_directions(A: np.ndarray, B: np.ndarray) -> np.ndarray:
    """Directions among which the maximum-margin normal is, for hulls ``A`` and ``B`` (``-N``).

    The point of ``D = A + B`` nearest the origin is a vertex ``a + b`` or on an
    edge of ``A`` or of ``B``: for the few edges of ``D`` nearest the origin,
    their normals and vertex directions, computed from the input points, not
    from the rounded coordinates of ``D``.
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
    # distance from the origin to each edge segment of D; an edge whose squares
    # underflow (hulls of mixed scales, 1e300 beside 1: the squares of the small
    # edges are below the smallest float) has no distance and stays a candidate
    with np.errstate(divide="ignore", invalid="ignore", under="ignore"):
        ee = np.einsum("ij,ij->i", e, e)
        t = np.clip(-np.einsum("ij,ij->i", vert, e) / ee, 0.0, 1.0)
        q = vert + t[:, None] * e
        dist = np.hypot(q[:, 0], q[:, 1])
    known = np.isfinite(dist) & (ee > 0)
    m = e.shape[0]
    if known.any():
        dmin = dist[known].min()
        scale = max(float(np.abs(A).max()), float(np.abs(B).max()), 1e-300)
        near = np.flatnonzero(~known | (dist <= dmin * (1.0 + 1e-6) + 1e-12 * scale))
    else:
        near = np.arange(m)
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

    A degenerate data set gives a result, never an error; more than two features
    raise ValueError (the algorithm is planar; 1-D data are embedded in the plane).

    Notes
    -----
    ``gamma = max_{w, b} min_i y_i (w·x_i + b) / ||w||`` is half the distance
    between the classes' convex hulls (:func:`~.hull.convex_hull`), the
    distance from the origin to their difference ``P - N``, a convex polygon
    built in linear time by merging edges by angle.  Its closest point fixes
    the unit normal ``u``, computed from the input points; the hyperplane is
    placed half-way between the classes along ``u``, so it attains the
    returned margin up to rounding.  The data are scaled by ``2**-e``
    (:func:`~._validation.pow2_exponent`: the unscaled digits, no square
    overflowing at any scale; ``margin`` is ``inf`` only if half the gap
    itself exceeds the largest float).  A hull gap within ``64 eps`` times the
    data's extent counts as touching: not separable.  O(n log n).

    References
    ----------
    A. M. Andrew, "Another efficient algorithm for convex hulls in two
    dimensions", Information Processing Letters 9(5), 1979.
    V. Vapnik, *Statistical Learning Theory*, Wiley, 1998 (optimal hyperplane).
    """
    X, y = check_Xy(X, y)
    n, d = X.shape
    if d > 2:
        raise ValueError(f"max_margin supports 1-D and 2-D data, got {d} features")
    if n == 0:
        return _not_separable(d, "no points")
    pos = y > 0
    if pos.all() or not pos.any():
        return _not_separable(d, "one class only")
    X2 = X if d == 2 else np.column_stack([X[:, 0], np.zeros(n)])
    e = pow2_exponent(float(np.abs(X2).max()))
    X2 = np.ldexp(X2, -e)
    lo, hi = X2.min(axis=0), X2.max(axis=0)
    center = 0.5 * (lo + hi)
    Xc = X2 - center
    extent = float(np.abs(Xc).max())
    tol = 64.0 * EPS * extent
    Xp, Xn = Xc[pos], Xc[~pos]
    HP = convex_hull(Xp)
    HN = convex_hull(Xn)
    U = _candidate_directions(HP, -HN)
    norms = np.hypot(U[:, 0], U[:, 1])
    ok = norms > 0
    widths = np.full(U.shape[0], -np.inf)
    if ok.any():
        U = U[ok] / norms[ok, None]
        widths = (HP @ U.T).min(axis=0) - (HN @ U.T).max(axis=0)
    best = int(np.argmax(widths))
    if not widths[best] > tol:
        return _not_separable(d, TOUCHING if widths[best] > 0 else overlap_reason(Xp, Xn))
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
    coef = np.ldexp(u / margin, -e)
    intercept = -(float(u @ center) + mid) / margin
    if d == 1:
        coef = coef[:1].copy()
    return MaxMarginResult(margin=float(np.ldexp(margin, e)), coef=readonly(coef),
                           intercept=float(intercept), support=readonly(support.astype(np.intp)),
                           separable=True)
