"""The points as an exact raster of the view's pixels, and which points a view shows (numpy).

At large n each screen pixel is coloured by the classes of the points it holds
(+1 only, −1 only, or both).  :func:`points_view` is the whole job a worker runs
for one view: the few points shown as markers, or the raster.  Nothing here
imports Qt, so the job may run in any thread.
"""

from __future__ import annotations

import math
from dataclasses import dataclass

import numpy as np

__all__ = ["EMPTY", "MIXED", "NEG", "POS", "Markers", "PixelGrid", "Raster", "class_codes",
           "in_rect", "markers_around", "occupied", "pixel_index", "points_view"]

#: The codes of a raster's pixels: no point, class +1 only, class −1 only, both classes.
EMPTY, POS, NEG, MIXED = 0, 1, 2, 3


@dataclass(frozen=True)
class PixelGrid:
    """The screen pixels of a view, in data coordinates.

    Pixel ``(row, col)`` (row 0 at the top) covers the data rectangle
    ``left + col·sx ≤ x < left + (col + 1)·sx`` and
    ``top − (row + 1)·sy < y ≤ top − row·sy``.

    ``(left, top)`` is the grid's top-left corner in data coordinates, ``sx, sy``
    the data size of one pixel (both > 0), ``width, height`` its columns and rows.
    """

    left: float
    top: float
    sx: float
    sy: float
    width: int
    height: int

    @classmethod
    def of_view(cls, view, box) -> PixelGrid | None:
        """The pixels a view box covers, or None when it covers none.

        Parameters
        ----------
        view : (x0, x1, y0, y1)
            The visible data rectangle.
        box : (left, top, right, bottom)
            Where the view box lies in the widget, in pixels (not necessarily
            whole ones): data ``(x0, y1)`` is at ``(left, top)`` and
            ``(x1, y0)`` at ``(right, bottom)``.

        Notes
        -----
        The widget pixel of a data point is ``⌊left + (x − x0)/sx⌋``,
        ``⌊top + (y1 − y)/sy⌋`` with ``sx = (x1 − x0)/(right − left)`` and
        ``sy = (y1 − y0)/(bottom − top)``; the grid is every widget pixel the
        box touches, so its corner is ``⌊left⌋, ⌊top⌋``.
        """
        x0, x1, y0, y1 = (float(v) for v in view)
        bl, bt, br, bb = (float(v) for v in box)
        if not (all(math.isfinite(v) for v in (x0, x1, y0, y1, bl, bt, br, bb))
                and br > bl and bb > bt):
            return None
        with np.errstate(over="ignore"):
            sx = float(np.float64(x1 - x0) / (br - bl))
            sy = float(np.float64(y1 - y0) / (bb - bt))
        if not (math.isfinite(sx) and math.isfinite(sy) and sx > 0 and sy > 0):
            return None
        c0, r0 = math.floor(bl), math.floor(bt)
        width, height = math.ceil(br) - c0, math.ceil(bb) - r0
        if width <= 0 or height <= 0:
            return None
        left = x0 - (bl - c0) * sx
        top = y1 + (bt - r0) * sy
        if not (math.isfinite(left) and math.isfinite(top)):
            return None
        return cls(left, top, sx, sy, int(width), int(height))

    def rect(self) -> tuple[float, float, float, float]:
        """The grid's data rectangle ``(x0, x1, y0, y1)``."""
        return (self.left, self.left + self.width * self.sx,
                self.top - self.height * self.sy, self.top)


def pixel_index(X: np.ndarray, grid: PixelGrid) -> np.ndarray:
    """The flat pixel ``row * width + col`` of each point of ``X`` on ``grid``, -1 off it.

    Kept per point, a view's marks (the misclassified samples, a new subset at
    every update) are binned by indexing it.  A non-finite position is off the
    grid.  ``int32`` when the grid has fewer than 2³¹ pixels, else ``int64``.
    """
    with np.errstate(over="ignore", invalid="ignore"):
        col = X[:, 0] - grid.left
        col /= grid.sx
        np.floor(col, out=col)
        row = grid.top - X[:, 1]
        row /= grid.sy
        np.floor(row, out=row)
        on = (col >= 0) & (col < grid.width) & (row >= 0) & (row < grid.height)
        row *= grid.width
        row += col  # exact: whole numbers below 2**53
    out = np.full(X.shape[0], -1, np.int32 if grid.width * grid.height < 2**31 else np.int64)
    out[on] = row[on]
    return out


def occupied(pixels: np.ndarray, grid: PixelGrid) -> np.ndarray:
    """Which pixels of ``grid`` (shape (height, width), row 0 on top) hold one of ``pixels``."""
    mask = np.zeros(grid.height * grid.width, dtype=bool)
    mask[pixels[pixels >= 0]] = True
    return mask.reshape(grid.height, grid.width)


def class_codes(X: np.ndarray, y: np.ndarray, grid: PixelGrid) -> np.ndarray:
    """The raster of ``(X, y)`` on ``grid``: an array of codes, shape (height, width), row 0 on top.

    Each pixel holds :data:`EMPTY`, :data:`POS` (points of class +1 only),
    :data:`NEG` (class −1 only) or :data:`MIXED` (both), as ``uint8``.
    """
    flat = pixel_index(X, grid)
    on = flat >= 0
    flat = flat[on]
    positive = y[on] > 0
    codes = np.zeros(grid.height * grid.width, dtype=np.uint8)
    codes[flat[positive]] = POS
    # duplicates all write the same value: the pixel's old code with NEG's bit set
    neg = flat[~positive]
    codes[neg] = codes[neg] | NEG
    return codes.reshape(grid.height, grid.width)


def in_rect(X: np.ndarray, rect) -> np.ndarray:
    """Whether each point of ``X`` lies in ``rect = (x0, x1, y0, y1)`` (closed)."""
    x0, x1, y0, y1 = rect
    x, y = X[:, 0], X[:, 1]
    return (x >= x0) & (x <= x1) & (y >= y0) & (y <= y1)


@dataclass(frozen=True)
class Markers:
    """The points to draw as markers: those in ``rect`` (the view grown a little)."""

    rect: tuple
    X: np.ndarray
    y: np.ndarray


@dataclass(frozen=True)
class Raster:
    """The raster of the points on ``grid`` (:func:`class_codes`), and whether a pixel is mixed."""

    grid: PixelGrid
    codes: np.ndarray
    mixed: bool


def markers_around(X, y, view, inside, limit: int, grow: float) -> Markers:
    """The markers of the points ``X`` (labels ``y``, or None) that a view of few of them shows.

    Those in ``view`` grown by ``grow`` of its size on each side (a small pan
    needs no new job), unless that holds more than ``3 * limit`` points or is
    not finite; then those of ``view`` alone (the mask ``inside``).
    """
    x0, x1, y0, y1 = view
    gx, gy = grow * (x1 - x0), grow * (y1 - y0)
    rect = (x0 - gx, x1 + gx, y0 - gy, y1 + gy)
    if all(math.isfinite(v) for v in rect):
        wider = in_rect(X, rect)
        if np.count_nonzero(wider) <= 3 * limit:
            return Markers(rect, X[wider], None if y is None else y[wider])
    return Markers(view, X[inside], None if y is None else y[inside])


def points_view(X, y, grid: PixelGrid, limit: int, grow: float = 0.25) -> Markers | Raster:
    """What to draw for the points ``(X, y)`` (labels ±1) in the view ``grid``: at most
    ``limit`` markers (:func:`markers_around`), else the raster."""
    view = grid.rect()
    inside = in_rect(X, view)
    if np.count_nonzero(inside) <= limit:
        return markers_around(X, y, view, inside, limit, grow)
    codes = class_codes(X, y, grid)
    return Raster(grid, codes, bool(np.any(codes == MIXED)))
