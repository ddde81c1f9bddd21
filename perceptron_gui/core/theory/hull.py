"""Convex hulls of 2-D point sets, and why two classes' hulls overlap."""

from __future__ import annotations

import numpy as np

from ._validation import pow2_exponent

_FILTER_ANGLES = np.arange(16) * (2.0 * np.pi / 16)
_FILTER_DIRS = np.stack([np.cos(_FILTER_ANGLES), np.sin(_FILTER_ANGLES)])


def _drop_interior(P: np.ndarray) -> np.ndarray:
    """Akl-Toussaint heuristic: drop points strictly inside a polygon of extreme points.

    The extreme points of ``P`` in 16 directions, taken in increasing angle,
    are hull vertices in counter-clockwise order; a point strictly inside their
    polygon is not a hull vertex.
    """
    S = np.ldexp(P, -pow2_exponent(float(np.abs(P).max())))
    idx = np.argmax(S @ _FILTER_DIRS, axis=0)
    keep = np.ones(idx.size, dtype=bool)
    keep[1:] = idx[1:] != idx[:-1]
    idx = idx[keep]
    if idx.size > 1 and idx[-1] == idx[0]:
        idx = idx[:-1]
    if idx.size < 3:
        return P
    V = S[idx]
    E = np.roll(V, -1, axis=0) - V
    # cross(E_k, p - V_k) > 0 for every k <=> p strictly inside.
    inside = np.ones(P.shape[0], dtype=bool)
    for (ex, ey), (vx, vy) in zip(E.tolist(), V.tolist(), strict=True):
        inside &= ex * (S[:, 1] - vy) - ey * (S[:, 0] - vx) > 0
    return P[~inside]


def convex_hull(P: np.ndarray) -> np.ndarray:
    """Convex hull vertices of 2-D points, counter-clockwise, collinear points dropped.

    Andrew's monotone chain after an Akl-Toussaint filter.  Returns 1 vertex
    when all points coincide and 2 when they are collinear.  The first vertex
    is the lowest one (smallest y, then smallest x).  The orientation tests run
    on the points scaled by a power of two (exact), so that their products
    neither overflow nor underflow at any scale; the vertices returned are
    the input points themselves.
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
        S = np.ldexp(P, -pow2_exponent(float(np.abs(P).max())))
        xs = S[:, 0].tolist()
        ys = S[:, 1].tolist()

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
        ring = lower[:-1] + upper[:-1]
        if len(set(ring)) < len(ring):
            # a point on both chains: the orientation tests, rounded, kept a
            # middle point on both sides of a segment; the points are collinear
            # to rounding and the hull is that segment
            ring = [0, m - 1]
        hull = P[ring]
    start = np.lexsort((hull[:, 0], hull[:, 1]))[0]
    return np.roll(hull, -start, axis=0)


def overlap_reason(Xp: np.ndarray, Xn: np.ndarray) -> str:
    """``"identical points in both classes"`` if a point has both labels, else overlap."""
    both = np.concatenate([Xp, Xn])
    label = np.concatenate([np.ones(Xp.shape[0], bool), np.zeros(Xn.shape[0], bool)])
    order = np.lexsort((label, *both.T[::-1]))
    both, label = both[order], label[order]
    same = (both[1:] == both[:-1]).all(axis=1) & (label[1:] != label[:-1])
    return "identical points in both classes" if same.any() else "classes overlap"
