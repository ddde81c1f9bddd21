"""The margin of planar data augmented with a bias feature, by a search over directions.

The perceptron with a bias sees ``z_i = (x_i, c)``; its margin is
``gamma = max_{||u|| = 1} min_i y_i u·z_i``.  For 2-D data this module finds it
without a least-distance solver: write ``u`` as a unit direction ``n`` in the
plane and an offset ``beta``, ``u = (n, beta / c) / hypot(1, beta / c)``.
Then ``min_i y_i u·z_i = q(beta) = min(A + beta, B - beta) / hypot(1, beta / c)``
with ``A = min_{y_i = +1} n·x_i`` and ``B = -max_{y_i = -1} n·x_i``, whose
maximum over ``beta`` has a closed form, and the best direction is found by a
golden-section search on the arc of separating directions.  Every quantity is
a dot product of the data with a unit vector, so a bias feature ``c`` that is
``1e-20`` (or ``1e20``) times the data is not lost to rounding, as it is in a
solver that works with the vectors ``z_i`` themselves.
"""

from __future__ import annotations

import math

import numpy as np

from .hull import convex_hull

#: Largest number of hull-vertex pairs whose directions are evaluated at once.
_PAIR_BLOCK = 1 << 20

_GOLDEN = (math.sqrt(5.0) - 1.0) / 2.0


def _offset_margin(A: float, B: float, c: float) -> tuple[float, float]:
    """``max_beta q(beta)`` (the module's ``q``) and its ``beta``.

    The maximum is at the kink ``beta = (B - A) / 2`` or at a stationary point of one
    branch: ``beta = c² / A`` (of ``A + beta``) or ``-c² / B``.
    """
    best, arg = -math.inf, 0.0
    cands = [0.5 * (B - A)]
    if A > 0:
        cands.append(c * (c / A))
    if B > 0:
        cands.append(-c * (c / B))
    for beta in cands:
        if not math.isfinite(beta):
            continue
        m = min(A + beta, B - beta) / math.hypot(1.0, beta / c)
        if m > best:
            best, arg = m, beta
    return best, arg


def _separating_arc(HP: np.ndarray, HN: np.ndarray, t0: float) -> tuple[float, float]:
    """The open arc ``(a, b)`` of angles ``t`` with ``n(t)·(p - q) > 0`` for every pair.

    ``t0`` is the angle of a separating direction, so every difference
    ``p - q`` lies within a quarter turn of it.
    """
    lo, hi = math.inf, -math.inf
    step = max(1, _PAIR_BLOCK // max(1, HN.shape[0]))
    for k in range(0, HP.shape[0], step):
        D = (HP[k : k + step, None, :] - HN[None, :, :]).reshape(-1, 2)
        rel = np.angle(np.exp(1j * (np.arctan2(D[:, 1], D[:, 0]) - t0)))
        lo, hi = min(lo, float(rel.min())), max(hi, float(rel.max()))
    return t0 + hi - 0.5 * math.pi, t0 + lo + 0.5 * math.pi


def augmented_margin(X: np.ndarray, y: np.ndarray, c: float, normal: np.ndarray):
    """Margin and unit separator of the vectors ``(x_i, c)`` of separable 2-D data.

    ``X`` is best scaled so that ``max |x_ij|`` is about 1, ``c`` the bias
    feature in its units, ``normal`` a direction that separates the classes
    (``normal·x`` larger on the positive class), e.g. the maximum-margin
    normal.  Returns ``(gamma, u)``: the margin ``min_i y_i u·z_i`` on the hull
    vertices and the unit ``u = (w, w_0)`` that attains it.

    Notes
    -----
    ``F(t) = max_beta q(beta)`` is unimodal on the arc of separating directions
    (its superlevel sets are the projections of geodesically convex sets of
    unit vectors), so a golden-section search finds its maximum to the
    resolution of the angle.
    """
    HP, HN = convex_hull(X[y > 0]), convex_hull(X[y < 0])
    a, b = _separating_arc(HP, HN, math.atan2(normal[1], normal[0]))

    def F(t: float) -> float:
        n = np.array([math.cos(t), math.sin(t)])
        return _offset_margin(float((HP @ n).min()), -float((HN @ n).max()), c)[0]

    x1, x2 = b - _GOLDEN * (b - a), a + _GOLDEN * (b - a)
    f1, f2 = F(x1), F(x2)
    for _ in range(200):
        if b - a <= 4.0 * np.finfo(float).eps * max(1.0, abs(a)):
            break
        if f1 < f2:
            a, x1, f1 = x1, x2, f2
            x2 = a + _GOLDEN * (b - a)
            f2 = F(x2)
        else:
            b, x2, f2 = x2, x1, f1
            x1 = b - _GOLDEN * (b - a)
            f1 = F(x1)
    t = x1 if f1 >= f2 else x2
    n = np.array([math.cos(t), math.sin(t)])
    gamma, beta = _offset_margin(float((HP @ n).min()), -float((HN @ n).max()), c)
    h = math.hypot(1.0, beta / c)
    return gamma, np.array([n[0] / h, n[1] / h, (beta / c) / h])
