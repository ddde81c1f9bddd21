"""Plane geometry for the canvas, numpy only (no Qt): clipping, decluttering, contours,
grids and summed-area tables."""

from __future__ import annotations

import math

import numpy as np

__all__ = ["unit_normal", "clip_line", "clip_arrow", "declutter", "fit_arrow", "clip_polygon",
           "marching_squares", "cell_segments", "bilinear", "drawable_range", "padded_view",
           "pixel_span",
           "inside_by", "MIN_SPAN", "segment_in_box", "cell_centres", "summed_table", "box_sums"]


def unit_normal(w, b):
    """``(n, off)`` with ``n = w/||w||`` and ``off = -b/||w||``, or None for w = 0."""
    w = np.asarray(w, dtype=np.float64)
    if w.shape != (2,) or not np.isfinite(w).all() or not math.isfinite(b):
        return None
    s = float(np.abs(w).max())
    if s == 0.0:
        return None
    w = w / s
    norm = math.hypot(w[0], w[1])
    return w / norm, -(b / s) / norm


def clip_line(normal, offset, rect):
    """The end points (2, 2) of the line ``normal·x = offset`` (``normal`` a unit vector) inside
    ``rect``, or None."""
    n = np.asarray(normal, dtype=np.float64)
    p0 = n * offset
    d = np.array([-n[1], n[0]])
    x0, x1, y0, y1 = rect
    span = segment_in_box(p0, d, (x0, y0), (x1, y1), -math.inf, math.inf)
    return None if span is None else np.array([p0 + span[0] * d, p0 + span[1] * d])


def segment_in_box(p, d, lo, hi, t0: float, t1: float):
    """The part ``[t0, t1]`` of ``p + t·d`` inside the box ``lo``–``hi`` (Liang–Barsky), or None."""
    for k in range(2):
        if d[k] == 0.0:
            if not lo[k] <= p[k] <= hi[k]:
                return None
            continue
        with np.errstate(over="ignore"):  # ±inf past the largest float: no segment below
            ta, tb = (lo[k] - p[k]) / d[k], (hi[k] - p[k]) / d[k]
        t0, t1 = max(t0, min(ta, tb)), min(t1, max(ta, tb))
    if not (math.isfinite(t0) and math.isfinite(t1)) or t0 > t1:
        return None
    return t0, t1


def clip_arrow(start, end, view, pixel_size, margin_px: float):
    """Where the part of the arrow ``start → end`` at least ``margin_px`` pixels inside
    ``view`` ends: ``end`` itself, or where it leaves; None when no part is inside."""
    a = np.asarray(start, dtype=np.float64)
    b = np.asarray(end, dtype=np.float64)
    if not (np.isfinite(a).all() and np.isfinite(b).all()):
        return None
    x0, x1, y0, y1 = view
    mx, my = margin_px * float(pixel_size[0]), margin_px * float(pixel_size[1])
    lo, hi = np.array([x0 + mx, y0 + my]), np.array([x1 - mx, y1 - my])
    if not (lo < hi).all():
        return None
    d = b - a
    span = segment_in_box(a, d, lo, hi, 0.0, 1.0)
    if span is None:
        return None
    return b if span[1] >= 1.0 else a + span[1] * d


def fit_arrow(start, direction, length: float, rect, margin: float = 0.05):
    """An arrow (2, 2) from ``start`` along ``direction``, at most ``length`` long, inside ``rect``
    shrunk by ``margin``, its start moved back from a near edge (None: zero ``direction``)."""
    d = np.asarray(direction, dtype=np.float64)
    norm = math.hypot(float(d[0]), float(d[1])) if np.isfinite(d).all() else 0.0
    if not norm > 0 or not math.isfinite(norm):
        return None
    d = d / norm
    x0, x1, y0, y1 = rect
    mx, my = margin * (x1 - x0), margin * (y1 - y0)
    lo = np.array([x0 + mx, y0 + my])
    hi = np.array([x1 - mx, y1 - my])
    p = np.clip(np.asarray(start, dtype=np.float64), lo, hi)
    length = float(length)

    def room(p, d) -> float:  # how far from p along d the box extends (none: unbounded)
        span = segment_in_box(p, d, lo, hi, 0.0, math.inf)
        return math.inf if span is None else span[1]

    ahead, behind = room(p, d), room(p, -d)
    if ahead < length:  # too close to the edge it points at: start further back
        p = p - min(length - ahead, behind) * d
        ahead = room(p, d)
    return np.array([p, p + max(min(ahead, length), 0.0) * d])


def declutter(rects, limit: int | None = None) -> np.ndarray:
    """Indices, increasing, of the rectangles to keep so that no two kept ones overlap (greedy).

    ``rects`` are ``(left, top, right, bottom)`` rows, most important first; the kept
    ones are binned in cells as large as the largest, so a test looks at nine cells.
    """
    R = np.asarray(rects, dtype=np.float64).reshape(-1, 4)
    finite = np.isfinite(R).all(axis=1)
    if not finite.any():
        return np.empty(0, np.int64)
    # the grid's cells from the finite candidates (a NaN one is never kept)
    cw = max(float(np.max(R[finite, 2] - R[finite, 0])), 1e-9)
    ch = max(float(np.max(R[finite, 3] - R[finite, 1])), 1e-9)
    grid: dict[tuple[int, int], list[int]] = {}
    kept: list[int] = []
    rows = R.tolist()  # Python floats: a kept rectangle is read back at every test
    for i, (l0, t0, r0, b0) in enumerate(rows):
        if limit is not None and len(kept) >= limit:
            break
        if not all(map(math.isfinite, (l0, t0, r0, b0))):
            continue
        cx, cy = int(math.floor(l0 / cw)), int(math.floor(t0 / ch))
        near = (rows[j] for gx in (cx - 1, cx, cx + 1) for gy in (cy - 1, cy, cy + 1)
                for j in grid.get((gx, gy), ()))
        if not any(l0 < r1 and l1 < r0 and t0 < b1 and t1 < b0 for l1, t1, r1, b1 in near):
            kept.append(i)
            grid.setdefault((cx, cy), []).append(i)
    return np.array(sorted(kept), dtype=np.int64)


def clip_polygon(rect, constraints):
    """The rectangle ``rect`` cut by the half-planes ``(normal, level)``: ``normal·x >= level``
    (Sutherland–Hodgman); the vertices (m, 2), counter-clockwise (m = 0 if empty)."""
    x0, x1, y0, y1 = rect
    poly = [(x0, y0), (x1, y0), (x1, y1), (x0, y1)]
    for normal, level in constraints:
        nx, ny = float(normal[0]), float(normal[1])
        out = []
        for i, p in enumerate(poly):
            q = poly[(i + 1) % len(poly)]
            fp = nx * p[0] + ny * p[1] - level
            fq = nx * q[0] + ny * q[1] - level
            if fp >= 0:
                out.append(p)
            if (fp >= 0) != (fq >= 0):
                t = fp / (fp - fq)
                out.append((p[0] + t * (q[0] - p[0]), p[1] + t * (q[1] - p[1])))
        poly = out
        if not poly:
            break
    return np.array(poly, dtype=np.float64).reshape(-1, 2)


def marching_squares(xs, ys, F, level=0.0):
    """Segments of the contour ``F = level`` of a grid, vectorised.

    ``xs``, ``ys`` (increasing) are the columns' and rows' coordinates, ``F`` (ny, nx) the
    values at ``(xs[j], ys[i])``.  Returns the end points of ``m`` segments in pairs,
    shape (2 m, 2) (for ``connect="pairs"``).

    Notes
    -----
    A cell edge is crossed where ``F > level`` differs at its ends, at the linear
    interpolation (the edge's middle when an end is ±inf).  A cell with a NaN corner
    has no segment; a saddle (four crossings) gives two, paired by the sign of the
    mean of the four corners.
    """
    F = np.asarray(F, dtype=np.float64) - level
    if F.ndim != 2 or F.shape[0] < 2 or F.shape[1] < 2:
        return np.empty((0, 2))
    known = ~np.isnan(F)
    shape = (F.shape[0] - 1, F.shape[1] - 1)
    xs, ys = np.asarray(xs, dtype=np.float64), np.asarray(ys, dtype=np.float64)
    X0, X1 = np.broadcast_to(xs[:-1], shape), np.broadcast_to(xs[1:], shape)
    Y0, Y1 = np.broadcast_to(ys[:-1, None], shape), np.broadcast_to(ys[1:, None], shape)
    corners = (F[:-1, :-1], F[:-1, 1:], F[1:, :-1], F[1:, 1:])
    every = known[:-1, :-1] & known[:-1, 1:] & known[1:, :-1] & known[1:, 1:]
    return cell_segments(corners, every, (X0, X1, Y0, Y1))


def cell_segments(corners, known, box):
    """The zero contour's segments in cells given by their corners, as :func:`marching_squares`
    traces them (any shape of cells: a grid's, or a chosen few as 1-D arrays).

    ``corners = (f00, f01, f10, f11)``: the values at ``(x0, y0)``, ``(x1, y0)``,
    ``(x0, y1)``, ``(x1, y1)`` (NaN: unknown); ``known``: the cells whose four
    corners are known; ``box = (X0, X1, Y0, Y1)`` each cell's sides.  Returns the
    segments' ends in pairs, shape (2 s, 2).
    """
    f00, f01, f10, f11 = (np.where(np.isnan(f), 0.0, f) for f in corners)
    X0, X1, Y0, Y1 = box
    p00, p01, p10, p11 = f00 > 0, f01 > 0, f10 > 0, f11 > 0
    shape = f00.shape

    def cross(fa, fb):
        with np.errstate(divide="ignore", invalid="ignore", over="ignore"):
            t = fa / (fa - fb)
        t[~(np.isfinite(fa) & np.isfinite(fb))] = 0.5  # only the signs are known
        return np.clip(np.nan_to_num(t, nan=0.5), 0.0, 1.0)

    # crossings on the four edges: bottom (y0), right (x1), top (y1), left (x0)
    pts = np.empty(shape + (4, 2))
    t = cross(f00, f01)
    pts[..., 0, 0], pts[..., 0, 1] = X0 + t * (X1 - X0), Y0
    t = cross(f01, f11)
    pts[..., 1, 0], pts[..., 1, 1] = X1, Y0 + t * (Y1 - Y0)
    t = cross(f10, f11)
    pts[..., 2, 0], pts[..., 2, 1] = X0 + t * (X1 - X0), Y1
    t = cross(f00, f10)
    pts[..., 3, 0], pts[..., 3, 1] = X0, Y0 + t * (Y1 - Y0)
    hit = np.stack([p00 != p01, p01 != p11, p10 != p11, p00 != p10], axis=-1)
    hit &= np.asarray(known)[..., None]
    count = hit.sum(axis=-1)

    two = count == 2
    order = np.argsort(~hit[two], axis=-1, kind="stable")[:, :2]
    P = pts[two]
    rows = np.arange(P.shape[0])
    seg2 = np.stack([P[rows, order[:, 0]], P[rows, order[:, 1]]], axis=1)

    four = count == 4
    P4 = pts[four]
    with np.errstate(over="ignore", invalid="ignore"):  # inf - inf: NaN, a side as good
        centre_pos = ((f00 + f01 + f10 + f11)[four] > 0) == p00[four]
    # centre on the side of corners 00 and 11: the curve cuts off corners 01 and 10,
    # pairing (bottom, right) and (top, left); otherwise it cuts off 00 and 11:
    # (bottom, left) and (top, right)
    a = np.where(centre_pos[:, None], [0, 1], [0, 3])
    c = np.where(centre_pos[:, None], [2, 3], [2, 1])
    r4 = np.arange(P4.shape[0])[:, None]
    seg4 = np.concatenate([P4[r4, a], P4[r4, c]], axis=0) if P4.shape[0] else np.empty((0, 2, 2))
    segs = np.concatenate([seg2, seg4.reshape(-1, 2, 2)], axis=0)
    return segs.reshape(-1, 2)


def bilinear(xs, ys, F, xf, yf):
    """``F`` (on ``xs``×``ys``) interpolated bilinearly at ``xf``×``yf`` (clamped at the edges)."""

    def weights(c, cf):
        step = (c[-1] - c[0]) / (len(c) - 1)
        u = np.clip((cf - c[0]) / step, 0.0, len(c) - 1.0)
        i = np.minimum(np.floor(u).astype(np.intp), len(c) - 2)
        return i, u - i

    ix, tx = weights(xs, xf)
    iy, ty = weights(ys, yf)
    rows = F[iy] * (1 - ty)[:, None] + F[iy + 1] * ty[:, None]
    return rows[:, ix] * (1 - tx) + rows[:, ix + 1] * tx


#: Half the largest float: the widest view whose width is still a finite float.
_HALF_MAX = float(np.finfo(np.float64).max) / 2


#: The narrowest view: its pixels, ticks and the scene's scale (pixels per unit,
#: about 1e293 here) stay normal floats; subnormal coordinates (5e-324) made the
#: tick spacing 0 and the painter's transform infinite.
MIN_SPAN = 1e-290


def padded_view(view, pixel_size, pad: float = 0.25):
    """``((x0, x1, y0, y1), width_px, height_px)``: the view grown by ``pad`` of its size on
    each side (within what a float can draw) and its size in screen pixels, or None (a view
    or pixel of no finite, positive size)."""
    x0, x1, y0, y1 = view
    sx, sy = pixel_size
    if not all(math.isfinite(v) for v in (x0, x1, y0, y1, sx, sy)):
        return None
    if not (sx > 0 and sy > 0 and x1 > x0 and y1 > y0):
        return None
    pad_x, pad_y = pad * x1 - pad * x0, pad * y1 - pad * y0  # no overflow
    x0, x1 = drawable_range(x0 - pad_x, x1 + pad_x)
    y0, y1 = drawable_range(y0 - pad_y, y1 + pad_y)
    width, height = x1 / sx - x0 / sx, y1 / sy - y0 / sy
    if not (math.isfinite(width) and math.isfinite(height)):
        return None
    return (x0, x1, y0, y1), width, height


def drawable_range(lo: float, hi: float) -> tuple[float, float]:
    """``(lo, hi)`` narrowed so that ``hi - lo`` is a finite float (and both are finite),
    and widened about its middle to at least :data:`MIN_SPAN`."""
    lo = min(max(lo, -_HALF_MAX), _HALF_MAX)
    hi = min(max(hi, -_HALF_MAX), _HALF_MAX)
    if not hi - lo < float("inf"):  # pragma: no cover - the clamp above guarantees it
        lo, hi = -_HALF_MAX / 2, _HALF_MAX / 2
    if not abs(hi - lo) >= MIN_SPAN:
        middle = lo / 2 + hi / 2
        lo, hi = middle - MIN_SPAN / 2, middle + MIN_SPAN / 2
    return lo, hi


def pixel_span(lo: float, hi: float, pixels: float) -> float:
    """Data size of one of ``pixels`` pixels across ``[lo, hi]``: ``hi / pixels - lo / pixels``
    does not overflow where ``hi - lo`` would (a view from -1.7e308 to 1.7e308)."""
    return float(hi / pixels - lo / pixels)


def inside_by(point, view, pixel_size, margin_px: float) -> bool:
    """Whether ``point`` lies in ``view`` at least ``margin_px`` pixels from each edge (an
    arrow's head drawn there is whole)."""
    x, y = float(point[0]), float(point[1])
    mx, my = margin_px * float(pixel_size[0]), margin_px * float(pixel_size[1])
    x0, x1, y0, y1 = view
    return x0 + mx <= x <= x1 - mx and y0 + my <= y <= y1 - my


def cell_centres(rect, nx: int, ny: int):
    """``(xs, ys, G)``: the centres of an ``nx × ny`` grid over ``rect`` along x and y, and
    every centre, row-major (shape (nx ny, 2))."""
    x0, x1, y0, y1 = rect
    xs = x0 + (x1 - x0) / nx * (np.arange(nx) + 0.5)
    ys = y0 + (y1 - y0) / ny * (np.arange(ny) + 0.5)
    gx, gy = np.meshgrid(xs, ys)
    return xs, ys, np.column_stack([gx.ravel(), gy.ravel()])


def summed_table(cells, nx: int, ny: int, weights=None) -> np.ndarray:
    """The summed-area table of points in flat cells ``cells`` of an ``nx × ny`` grid:
    ``table[r, c]`` sums the points above row ``r`` and left of column ``c``."""
    counts = np.bincount(cells, weights=weights, minlength=nx * ny).reshape(ny, nx)
    table = np.zeros((ny + 1, nx + 1), counts.dtype)
    table[1:, 1:] = counts.cumsum(0).cumsum(1)
    return table


def box_sums(table, top, bottom, left, right):
    """What ``table`` (:func:`summed_table`) holds in rows ``top:bottom``, columns
    ``left:right`` (indices broadcast): four look-ups per box."""
    return table[bottom, right] - table[top, right] - table[bottom, left] + table[top, left]
