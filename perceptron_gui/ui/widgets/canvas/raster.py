"""The points as an exact raster of the view's pixels, and which points a view shows.

:func:`points_view` is a worker's whole job for one view: the few points shown as
markers, or the raster.  No Qt here, so it runs in any thread.
"""

from __future__ import annotations

import math
from dataclasses import dataclass

import numpy as np

__all__ = ["EMPTY", "MIXED", "Markers", "PixelGrid", "Raster", "class_codes", "in_rect",
           "markers_around", "occupied", "pixel_index", "points_view"]

#: The codes of a raster's pixels: no point, points of one class only (the class listed
#: ``k``-th, from 0, has the code ``k + 1``), points of several classes.
EMPTY, MIXED = 0, 255


@dataclass(frozen=True)
class PixelGrid:
    """The screen pixels of a view, in data coordinates: pixel ``(row, col)`` (row 0 on top)
    covers ``left + col·sx ≤ x < left + (col + 1)·sx``, ``top − (row + 1)·sy < y ≤ top − row·sy``.
    """

    left: float
    top: float
    sx: float
    sy: float
    width: int
    height: int

    @classmethod
    def of_view(cls, view, box) -> PixelGrid | None:
        """The pixels a view box covers, or None.

        ``view = (x0, x1, y0, y1)`` lies in the widget's pixels ``box = (left, top,
        right, bottom)`` (not whole ones).  A point's pixel is ``⌊left + (x − x0)/sx⌋``,
        ``⌊top + (y1 − y)/sy⌋``, with ``sx = (x1 − x0)/(right − left)`` and ``sy`` alike;
        the grid is every pixel the box touches, its corner ``⌊left⌋, ⌊top⌋``.
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
    """The flat pixel ``row * width + col`` of each point of ``X`` on ``grid``, -1 off it (or
    not finite); ``int32`` below 2³¹ pixels.  A view's marks are binned by indexing it."""
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


def class_codes(X: np.ndarray, places: np.ndarray, grid: PixelGrid) -> np.ndarray:
    """The raster of the points ``X`` on ``grid``, each of the class listed ``places[i]``
    (0 to 7): :data:`EMPTY`, ``k + 1`` where only class ``k`` has points, :data:`MIXED`
    where several do; ``uint8`` of shape (height, width), row 0 on top."""
    flat = pixel_index(X, grid)
    on = flat >= 0
    flat, code = flat[on], places[on] + np.uint8(1)
    codes = np.zeros(grid.height * grid.width, dtype=np.uint8)
    codes[flat] = code  # each occupied pixel: the code of one of its points
    # a pixel is mixed exactly when one of its points has another code than that one
    codes[flat[codes[flat] != code]] = MIXED
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
    """The markers of the points ``X`` (labels ``y`` or None) in ``view`` grown by ``grow`` (a
    small pan needs no new job), unless over ``3 * limit`` or not finite: then ``inside``."""
    x0, x1, y0, y1 = view
    gx, gy = grow * (x1 - x0), grow * (y1 - y0)
    rect = (x0 - gx, x1 + gx, y0 - gy, y1 + gy)
    if all(math.isfinite(v) for v in rect):
        wider = in_rect(X, rect)
        if np.count_nonzero(wider) <= 3 * limit:
            return Markers(rect, X[wider], None if y is None else y[wider])
    return Markers(view, X[inside], None if y is None else y[inside])


def points_view(X, places, grid: PixelGrid, limit: int, grow: float = 0.25) -> Markers | Raster:
    """What to draw for the points ``X`` of the classes listed ``places`` in the view ``grid``:
    at most ``limit`` markers (:func:`markers_around`; their ``y`` the places), else the
    raster."""
    view = grid.rect()
    inside = in_rect(X, view)
    if np.count_nonzero(inside) <= limit:
        return markers_around(X, places, view, inside, limit, grow)
    codes = class_codes(X, places, grid)
    return Raster(grid, codes, bool(np.any(codes == MIXED)))
