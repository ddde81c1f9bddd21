"""Novikoff's radius, margin and update bound, with a certified margin.

The primal certificate (least-distance programming through NNLS) and the kernel
one (the same problem on a pivoted-Cholesky factor) share the bound checks and
the result type; scipy is imported only where it is needed.
"""

from __future__ import annotations

import math
from dataclasses import dataclass

import numpy as np

from ._validation import EPS, check_bias_scale, check_Xy, pow2_exponent, readonly
from .augmented import augmented_margin
from .hard_margin import max_margin
from .hull import convex_hull, overlap_reason

#: Largest number of samples for which :func:`novikoff` computes a kernel
#: margin: the n x n kernel matrix is 32 MB at n = 2000, and its factor and
#: NNLS take about 0.1-1 s.
KERNEL_MARGIN_MAX_N = 2000

#: Largest relative gap ``(upper - lower) / upper`` for which :func:`novikoff`
#: calls its margin certified.
CERTIFICATE_RTOL = 1e-9

#: :func:`novikoff` scales data whose largest entry (or ``bias_scale``) is
#: outside ``[2**-100, 2**100]`` by a power of two before solving.
_UNSCALED_EXPONENT = 100

#: :func:`novikoff` declares data not separable when no separator is found and
#: the computed hull point nearest the origin is within ``NONSEPARABLE_RTOL * R``
#: of it (the origin is in the hull up to rounding).
NONSEPARABLE_RTOL = 1e-10


@dataclass(frozen=True, eq=False)
class NovikoffResult:
    """The quantities of Novikoff's perceptron convergence theorem.

    Attributes
    ----------
    radius : float
        ``R = max_i ||z_i||`` (``z_i = (x_i, bias_scale)`` with an intercept,
        ``x_i`` without); with a kernel, ``R = sqrt(max_i K'(x_i, x_i))``.
    margin : float
        ``gamma = max_{||w||=1} min_i y_i w·z_i``, reported as ``lower`` so
        that ``bound`` is valid; 0 when not separable, NaN when not determined.
    bound : float
        ``(R / gamma)²``, the most updates the perceptron (started at 0, any
        learning rate) can make; ``inf`` when not separable.
    separable : bool or None
        None when not determined (no points, or a kernel above ``KERNEL_MARGIN_MAX_N``).
    w_star : ndarray or None
        A read-only unit vector attaining ``lower``: ``(w, w_0)`` with an
        intercept (the separator ``w·x + bias_scale w_0 = 0``); None with a
        kernel or when not separable.
    upper, lower : float
        Bounds on gamma: ``||p||`` of the computed minimum-norm point ``p`` of
        the convex hull of the ``y_i z_i``, and ``min_i y_i w_star·z_i`` (NaN
        when not determined, ``-inf`` when no candidate direction was found).
    certified : bool
        ``(upper - lower) / upper <= CERTIFICATE_RTOL`` when separable; when not
        separable, ``upper`` is at rounding level (the origin is in the hull).
    dual_coef : ndarray of shape (n_samples,) or None
        With a kernel and separable data: coefficients ``beta`` of the unit
        separator in feature space, ``w* = sum_i beta_i y_i phi'(x_i)``, so its
        decision function is ``sum_i beta_i y_i K'(x_i, x)``.  Read-only.
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

    ``min_{u >= 0} ||E u - f||`` with ``E = [G^T; 1^T]`` and ``f = (0, ..., 0, 1)``
    (Lawson & Hanson, ch. 23): ``u / sum(u)`` are the convex weights.
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
    """Convex weights of the minimum-norm point of the affine hull of the rows, or None.

    ``min ||g_1 + V t||`` with ``V = [g_2 - g_1, ...]`` by least squares (SVD: the
    conditioning of ``V``, not of its Gram matrix); None outside the simplex.
    """
    k = G_act.shape[0]
    if k == 1:
        return np.ones(1)
    V = (G_act[1:] - G_act[0]).T
    t = np.linalg.lstsq(V, -G_act[0], rcond=None)[0]
    lam = np.concatenate([[1.0 - t.sum()], t])
    return None if not np.isfinite(lam).all() or (lam < 0).any() else lam / lam.sum()


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


def _ones_solution(A: np.ndarray) -> np.ndarray:
    """The minimum-norm least-squares ``x`` of ``A x = 1``, refined by one step."""
    ones = np.ones(A.shape[0])
    x = np.linalg.lstsq(A, ones, rcond=None)[0]
    return x + np.linalg.lstsq(A, ones - A @ x, rcond=None)[0]


def _solve_primal(
    G: np.ndarray, H: np.ndarray | None = None
) -> tuple[float, float, np.ndarray]:
    """``(upper, lower, w_star)`` for the rows ``g_i`` of ``G`` (see :func:`novikoff`).

    ``H`` holds rows of ``G`` with the same convex hull (the solver runs on it);
    ``lower`` is still evaluated on every row of ``G``.
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
    ws.append(_ones_solution(H[active]))
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

    Pivoted Cholesky (``dpstrf``): O(n r²) for rank ``r``, much cheaper than an
    eigendecomposition for the low-rank Gram matrices of 2-D data.
    """
    from scipy.linalg import lapack

    n = Q.shape[0]
    tol = n * EPS * max(float(np.max(np.diag(Q))), 0.0)
    c, piv, rank, info = lapack.dpstrf(Q, lower=1, tol=tol)
    if info >= 0 and rank >= 1:
        G = np.zeros((n, rank))
        G[piv - 1] = np.tril(c)[:, :rank]
        return G
    evals, evecs = np.linalg.eigh(Q)  # pragma: no cover - LAPACK failure only
    keep = evals > n * EPS * max(float(evals[-1]), 0.0)
    keep[-1] = True
    return evecs[:, keep] * np.sqrt(np.maximum(evals[keep], 0.0))


def _solve_kernel(G: np.ndarray, Q: np.ndarray) -> tuple[float, float, np.ndarray | None]:
    """``(upper, lower, beta)`` for a Gram matrix ``Q`` with ``Q ≈ G G^T``.

    The NNLS on the factor ``G`` only supplies the active set ``S``; ``Q_SS mu = 1``
    is then solved on the exact Gram matrix, and the bounds come from ``Q``.
    """
    lam = _min_norm_weights(G)
    active = np.flatnonzero(lam > 0)
    mu = _ones_solution(Q[np.ix_(active, active)])
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
    ``g_i = y_i x_i`` are planar.  None (every row) otherwise or for small data.
    """
    n, d = X.shape
    if d != 2 or n <= 64:
        return None
    if not fit_intercept:
        return convex_hull(y[:, None] * X)
    parts = []
    for sign in (1.0, -1.0):
        P = X[y == sign]
        if P.shape[0]:
            H = convex_hull(P)
            parts.append(sign * np.column_stack([H, np.full(H.shape[0], c)]))
    return np.concatenate(parts)


def novikoff(X, y, *, fit_intercept=True, bias_scale=1.0, kernel=None) -> NovikoffResult:
    """Radius, margin and update bound of Novikoff's theorem: at most ``(R / gamma)²`` updates.

    Parameters
    ----------
    fit_intercept, bias_scale : bool, float, default=True, 1.0
        With a bias the perceptron sees ``z_i = (x_i, c)``, ``c = bias_scale > 0``
        (a larger ``c`` raises ``R`` and changes ``gamma``); else ``z_i = x_i``.
    kernel : perceptron_gui.core.kernels.Kernel or str, optional
        With a kernel the vectors are ``phi(x_i)`` augmented with ``c``, whose
        Gram matrix is ``K'(i, j) = K(x_i, x_j) + c²`` (``+ 0`` without an
        intercept).  A string is passed to
        :func:`~perceptron_gui.core.kernels.make_kernel`.

    Notes
    -----
    ``gamma`` is the distance from the origin to the convex hull of the
    ``g_i = y_i z_i``, computed by least-distance programming
    ``min ||w|| s.t. G w >= 1`` through NNLS (:func:`_min_norm_weights`).  Its
    convex weights give a hull point ``p`` (polished, :func:`_polish`), and its
    active set ``S`` gives ``w`` solving ``G_S w = 1`` with minimum norm (far
    less sensitive to rounding than ``p / ||p||`` when ``R / gamma`` is
    large).  The answer is certified by two bounds that are checked, not
    assumed::

        lower = min_i g_i·w*  <=  gamma  <=  ||p|| = upper

    (for any unit ``w``, ``min_i g_i·w <= w·p <= ||p||``).  Rounding limits the
    attainable gap to roughly ``eps R / gamma`` in the primal and
    ``eps (R / gamma)²`` with a kernel (which works with the Gram matrix).

    With a kernel, the same problem is solved on a factor ``L L^T`` of
    ``Q = diag(y) K' diag(y)`` (:func:`_psd_factor`); the bounds use ``Q``
    itself: ``upper = sqrt(lambda^T Q lambda)``,
    ``lower = min_i (Q beta)_i / sqrt(beta^T Q beta)``.

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
    X, y = check_Xy(X, y)
    fit_intercept = bool(fit_intercept)
    c = check_bias_scale(bias_scale)
    if isinstance(kernel, str):
        from ..kernels import make_kernel

        kernel = make_kernel(kernel)
    if kernel is None:
        return _novikoff_primal(X, y, fit_intercept, c)
    return _novikoff_kernel(X, y, fit_intercept, c, kernel)


def _result(radius, margin, bound, separable, *, upper=math.nan, lower=math.nan, w_star=None,
            augmented, reason=None, certified=False, dual_coef=None) -> NovikoffResult:
    return NovikoffResult(
        radius=float(radius), margin=float(margin), bound=float(bound), separable=separable,
        w_star=None if w_star is None else readonly(np.asarray(w_star, dtype=np.float64)),
        upper=float(upper), lower=float(lower), augmented=augmented, reason=reason,
        certified=bool(certified), dual_coef=None if dual_coef is None else readonly(dual_coef),
    )


def _unknown(radius, augmented: bool, reason: str) -> NovikoffResult:
    """A result whose margin is not determined (``separable=None``), saying why."""
    return _result(radius, math.nan, math.nan, None, augmented=augmented, reason=reason)


def _unscale(v: float, e: int) -> float:
    """``v * 2**e`` (``inf`` when it exceeds the largest float)."""
    with np.errstate(over="ignore"):
        return float(np.ldexp(v, e))


def _join(*notes) -> str | None:
    text = "; ".join(note for note in notes if note)
    return text or None


def _novikoff_primal(X: np.ndarray, y: np.ndarray, fit_intercept: bool, c: float):
    """:func:`novikoff` without a kernel, on data scaled by a power of two."""
    n, d = X.shape
    amax = float(np.abs(X).max()) if n else 0.0
    e = pow2_exponent(max(amax, c) if fit_intercept else amax)
    if abs(e) <= _UNSCALED_EXPONENT:
        e = 0  # squares are safe unscaled: the same bits as no scaling
    Xs, cs = np.ldexp(X, -e), math.ldexp(c, -e)
    Z = np.column_stack([Xs, np.full(n, cs)]) if fit_intercept else Xs
    radius_s = math.sqrt(max(float(np.einsum("ij,ij->i", Z, Z).max()), 0.0)) if n else 0.0
    radius = _unscale(radius_s, e)
    r_note = "R exceeds the largest float" if math.isinf(radius) else None
    if n == 0:
        return _unknown(0.0, fit_intercept, "no points")
    G = y[:, None] * Z
    try:
        with np.errstate(all="ignore"):
            upper, lower, w_star = _solve_primal(G, _hull_rows(Xs, y, fit_intercept, cs))
        failed = not (math.isfinite(upper) and lower < math.inf)
    except (np.linalg.LinAlgError, ValueError, RuntimeError, FloatingPointError):
        failed = True
    if failed:
        upper, lower, w_star = math.nan, -math.inf, None
    pos = y > 0
    two_classes = bool(pos.any() and not pos.all())
    search_note = None
    if fit_intercept and d <= 2 and two_classes:
        mm = max_margin(X, y)
        if not mm.separable:
            return _not_separable(radius, upper, lower, mm.reason,
                                  not failed and upper <= NONSEPARABLE_RTOL * radius_s,
                                  fit_intercept, e)
        if not (lower > 0 and upper - lower <= CERTIFICATE_RTOL * upper):
            lo, u = _search(Xs, y, cs, G, mm.coef)
            if lo > lower or not lower > 0:
                lower, w_star = lo, u
                if not upper >= lower:
                    upper = math.nan
                search_note = ("γ found by a direction search: the certified solver failed "
                               "at this scale of the data")
    if lower > 0:
        certified = math.isfinite(upper) and (upper - lower) <= CERTIFICATE_RTOL * upper
        ratio = radius_s / lower
        bound = ratio * ratio
        b_note = "(R/γ)² exceeds the largest float" if math.isinf(bound) else None
        return _result(radius, _unscale(lower, e), bound, True, upper=_unscale(upper, e),
                       lower=_unscale(lower, e), w_star=w_star, augmented=fit_intercept,
                       certified=certified,
                       reason=_join(search_note and not certified and search_note
                                    + " (not certified)", b_note, r_note))
    if search_note is not None:  # separable, but no margin above float resolution
        return _result(radius, math.nan, math.inf, True, augmented=fit_intercept,
                       reason=_join("separable, but γ is below float resolution at this "
                                    "scale of the data", r_note))
    if failed and not two_classes and fit_intercept:
        reason = "the certified solver failed on these data"
        return _unknown(radius, fit_intercept, reason)
    reason = ("not separable by a hyperplane through the origin"
              if two_classes and not fit_intercept else _one_class_or(X, y, pos))
    return _not_separable(radius, upper, lower, reason,
                          not failed and upper <= NONSEPARABLE_RTOL * radius_s, fit_intercept, e)


def _not_separable(radius, upper, lower, reason, certified, augmented, e=0) -> NovikoffResult:
    """``separable=False``; ``upper`` and ``lower`` computed on data scaled by ``2**-e``."""
    return _result(radius, 0.0, math.inf, False, upper=_unscale(upper, e),
                   lower=_unscale(lower, e), augmented=augmented,
                   reason=reason if certified else reason + " (not certified)",
                   certified=certified)


def _one_class_or(X, y, pos) -> str:
    """Why the classes do not separate (one class: only a zero vector blocks separation)."""
    return "a sample at the origin" if pos.all() or not pos.any() else overlap_reason(
        X[pos], X[~pos])


def _search(Xs: np.ndarray, y: np.ndarray, cs: float, G: np.ndarray, coef: np.ndarray):
    """``(lower, w_star)`` of the direction search on scaled 1-D or 2-D data."""
    d = Xs.shape[1]
    X2 = Xs if d == 2 else np.column_stack([Xs[:, 0], np.zeros(Xs.shape[0])])
    normal = coef if d == 2 else np.array([coef[0], 0.0])
    with np.errstate(all="ignore"):
        _, u = augmented_margin(X2, y, cs, normal)
        if d == 1:
            u = np.array([u[0], u[2]]) / math.hypot(u[0], u[2])
        lower = float((G @ u).min())
    return (lower, u) if math.isfinite(lower) else (-math.inf, None)


def _novikoff_kernel(X: np.ndarray, y: np.ndarray, fit_intercept: bool, c: float, kernel):
    """:func:`novikoff` with a kernel: the same problem on the Gram matrix."""
    n = X.shape[0]
    c2 = c * c if fit_intercept else 0.0
    with np.errstate(over="ignore", invalid="ignore"):
        sq = kernel.diagonal(X) + c2 if n else np.empty(0)
    radius = math.sqrt(max(float(sq.max()), 0.0)) if n else 0.0
    if n == 0:
        return _unknown(radius, fit_intercept, "no points")
    if n > KERNEL_MARGIN_MAX_N:
        return _unknown(radius, fit_intercept, f"the kernel margin is not computed above "
                        f"{KERNEL_MARGIN_MAX_N:,} points (n={n:,}): no bound")
    Kp = kernel(X, X)
    if fit_intercept:
        Kp = Kp + c2
    if not (np.isfinite(Kp).all() and math.isfinite(radius)):
        name = {"poly": "polynomial"}.get(kernel.name, kernel.name)
        raise ValueError(f"the {name} kernel overflows at this data scale; rescale the data")
    Q = (y[:, None] * Kp) * y[None, :]
    Q = 0.5 * (Q + Q.T)
    try:
        with np.errstate(all="ignore"):
            upper, lower, beta = _solve_kernel(_psd_factor(Q), Q)
    except (np.linalg.LinAlgError, ValueError, RuntimeError, FloatingPointError) as exc:
        return _unknown(radius, fit_intercept, f"the kernel margin could not be computed ({exc})")
    if lower > 0:
        ratio = radius / lower
        bound = ratio * ratio
        return _result(radius, lower, bound, True, upper=upper, lower=lower,
                       augmented=fit_intercept,
                       reason="(R/γ)² exceeds the largest float" if math.isinf(bound) else None,
                       certified=(upper - lower) <= CERTIFICATE_RTOL * upper, dual_coef=beta)
    reason = _one_class_or(X, y, y > 0)
    if reason == "classes overlap":
        reason = "not separable in the kernel's feature space (to numerical precision)"
    # lambda^T Q lambda has rounding error eps R², the factor n eps R²
    return _not_separable(radius, upper, lower, reason,
                          upper <= math.sqrt(4.0 * n * EPS) * radius, fit_intercept)


def novikoff_or_reason(X, y, **kwargs) -> NovikoffResult:
    """:func:`novikoff`, a ValueError becoming ``separable=None`` with its message as reason."""
    try:
        return novikoff(X, y, **kwargs)
    except ValueError as exc:
        return _unknown(math.nan, bool(kwargs.get("fit_intercept", True)), str(exc))
