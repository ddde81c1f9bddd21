"""A line ``w·x + b = 0`` the user drags by two handles: one moves it, one turns w.

- The anchor dragged to ``p`` keeps ``w``, ``b = −w·p``: the line moves parallel.
- The head dragged to ``p``: ``w = p``, the line through the anchor.  Without a
  bias (``translate=False``) no anchor and ``b = 0``: the line turns about the
  origin; from ``w = 0`` (no anchor) ``b`` stays.
- With ``grip=True`` the line itself moves as the anchor (drawn under the pointer).

A press on a handle is the handle's even over a point (:func:`~..gestures.mark_handle`).
"""

from __future__ import annotations

import math

import numpy as np
import pyqtgraph as pg
from PySide6 import QtCore

from ... import Guard
from ..geometry import segment_in_box
from ..gestures import mark_handle

__all__ = ["LineHandles", "add_handle", "anchor_point", "style_handle"]

#: The grip's own pen: not drawn (the boundary is another layer's), its width the
#: band that takes a press; over it, the hover pen shows the line can be dragged.
_GRIP_PEN = pg.mkPen((0, 0, 0, 0), width=13)


def add_handle(layer, name: str, z: float, symbol: str, tip: str = "", size: float = 13):
    """A ``pg.TargetItem`` the user drags, added to ``layer`` as ``name``; a press on it is
    its own even over a point (:func:`~..gestures.mark_handle`)."""
    handle = pg.TargetItem(movable=True, size=size, symbol=symbol)
    mark_handle(handle)
    handle.setToolTip(tip)
    return layer.add(name, handle, z, passive=False)


def style_handle(handle, fill, outline, hover, line_width: float, pixels: float | None = None):
    """Fill ``handle`` and outline it for lines ``line_width`` wide; ``pixels`` wide on screen
    (None: as it is), so that it grows with presenter mode's marks."""
    handle.setPen(pg.mkPen(outline, width=max(1.0, line_width * 0.75)))
    handle.setBrush(pg.mkBrush(fill))
    handle.setHoverBrush(pg.mkBrush(hover))
    if pixels is not None and pixels != handle.scale:
        handle.scale = float(pixels)
        handle.prepareGeometryChange()
        handle.viewTransformChanged()  # its shape is made again at the new size


def anchor_point(w, b: float, view) -> np.ndarray | None:
    """The point of ``w·x + b = 0`` nearest the centre of ``view``, kept inside it (the
    centre's projection when the line misses it; None without a line)."""
    w = np.asarray(w, dtype=np.float64)
    nn = float(w @ w)
    if not (math.isfinite(nn) and nn > 0 and math.isfinite(b)):
        return None
    x0, x1, y0, y1 = view
    centre = np.array([(x0 + x1) / 2, (y0 + y1) / 2])
    p = centre - (float(w @ centre) + b) / nn * w  # the centre projected on the line
    # pull the anchor in from the view's edges along the line, so it can be grabbed
    d = np.array([-w[1], w[0]]) / math.sqrt(nn)
    px, py = 0.1 * (x1 - x0), 0.1 * (y1 - y0)
    span = segment_in_box(p, d, (x0 + px, y0 + py), (x1 - px, y1 - py), -math.inf, math.inf)
    return p if span is None else p + min(max(0.0, span[0]), span[1]) * d


class LineHandles(QtCore.QObject):
    """Two handles for a line ``w·x + b = 0`` and its ``w``: ``layer``'s items
    ``f"{prefix}_anchor"``, ``…_head`` and, with ``grip``, ``…_line`` just under them.

    ``moved(w, b)`` at every position of a drag (``w`` of shape (2,)), ``released(w, b)``
    once at its end.
    """

    moved = QtCore.Signal(object, float)
    released = QtCore.Signal(object, float)

    def __init__(self, layer, prefix: str, z: float, *, grip: bool = False):
        super().__init__()
        self.anchor = add_handle(layer, f"{prefix}_anchor", z, "s", "Drag to move the line")
        self.head = add_handle(layer, f"{prefix}_head", z, "o", "Drag to turn and scale w")
        self.anchor.sigPositionChanged.connect(self._through)
        self.head.sigPositionChanged.connect(self._head_moved)
        self.anchor.sigPositionChangeFinished.connect(self._finished)
        self.head.sigPositionChangeFinished.connect(self._finished)
        self.grip: pg.InfiniteLine | None = None
        if grip:
            self.grip = pg.InfiniteLine(movable=True, pen=_GRIP_PEN)
            self.grip.setToolTip("Drag to move the line")
            layer.add(f"{prefix}_line", self.grip, z - 0.5, passive=False)
            self.grip.sigDragged.connect(self._through)
            self.grip.sigPositionChangeFinished.connect(self._finished)
        self._w = np.zeros(2)
        self._b = 0.0
        self._translate = True
        self._placing = Guard()

    @property
    def w(self) -> np.ndarray:
        """The weight vector the handles show."""
        return self._w.copy()

    def set_line(self, w, b: float, frame, *, translate: bool = True) -> None:
        """Place the handles for ``w·x + b = 0`` (no signal; ``frame.view`` places the anchor,
        hidden without a bias, ``translate=False``); hide them for ``w = 0``."""
        self._w = np.asarray(w, dtype=np.float64).copy()
        self._b = 0.0 if not translate else float(b)
        self._translate = translate
        anchor = self._kept_anchor(frame.view) if translate else None
        head = self._w
        with self._placing:
            if anchor is not None:
                self.anchor.setPos(float(anchor[0]), float(anchor[1]))
            if np.isfinite(head).all():
                self.head.setPos(float(head[0]), float(head[1]))
        self.anchor.setVisible(anchor is not None)
        self.head.setVisible(bool(np.isfinite(head).all()))
        self._place_grip()

    def _kept_anchor(self, view) -> np.ndarray | None:
        """The anchor where a drag left it, while on the line well inside ``view``."""
        fresh = anchor_point(self._w, self._b, view)
        if fresh is None or not self.anchor.isVisible():
            return fresh
        a = np.array([self.anchor.pos().x(), self.anchor.pos().y()])
        x0, x1, y0, y1 = view
        px, py = 0.05 * (x1 - x0), 0.05 * (y1 - y0)
        off = abs(float(self._w @ a) + self._b) / float(np.linalg.norm(self._w))
        scale = max(1.0, float(np.abs(a).max()), abs(self._b) / float(np.linalg.norm(self._w)))
        if off <= 1e-9 * scale and x0 + px <= a[0] <= x1 - px and y0 + py <= a[1] <= y1 - py:
            return a
        return fresh

    def _place_grip(self) -> None:
        """The grip along the line, through the anchor (hidden with the anchor)."""
        if self.grip is None:
            return
        shown = self.anchor.isVisible() and bool(self._w.any())
        if shown:
            a = self.anchor.pos()
            with self._placing:
                self.grip.setAngle(math.degrees(math.atan2(self._w[0], -self._w[1])))
                self.grip.setPos(QtCore.QPointF(a.x(), a.y()))
        self.grip.setVisible(shown)

    def set_color(self, color, foreground, line_width: float, size_px: float | None = None) -> None:
        """Fill the handles with ``color``, outlined in ``foreground``; ``size_px`` wide
        (None: as they are), so they grow with presenter mode's marks."""
        if self.grip is not None:  # pressed within about half a handle of the line
            wide = float(size_px if size_px is not None else self.head.scale)
            self.grip.setPen(pg.mkPen(_GRIP_PEN.color(), width=wide))
            shown = pg.mkColor(color)
            shown.setAlpha(150)
            self.grip.setHoverPen(pg.mkPen(shown, width=max(2.0, 0.45 * wide)))
        for item in (self.anchor, self.head):
            style_handle(item, color, foreground, foreground, line_width, size_px)

    def hide(self) -> None:
        """Hide both handles."""
        self.anchor.setVisible(False)
        self.head.setVisible(False)
        if self.grip is not None:
            self.grip.setVisible(False)

    def _through(self, item) -> None:
        """The anchor, or the grip where the line was grabbed, moved: the line through it."""
        if self._placing:
            return
        p = item.pos()
        self._b = -float(self._w @ np.array([p.x(), p.y()]))
        with self._placing:
            self.anchor.setPos(p.x(), p.y())  # a grip's drag: the head turns about it next
        self._place_grip()
        self.moved.emit(self._w.copy(), self._b)

    def _head_moved(self, item) -> None:
        if self._placing:
            return
        w = np.array([item.pos().x(), item.pos().y()])
        if not np.isfinite(w).all() or not w.any():
            return  # the head on the origin: no line; keep the last one
        self._w = w
        if self._translate and self.anchor.isVisible():  # no anchor from w = 0: b stays
            a = self.anchor.pos()
            self._b = -float(w @ np.array([a.x(), a.y()]))
        self._place_grip()
        self.moved.emit(self._w.copy(), self._b)

    def _finished(self, _item) -> None:
        if not self._placing:
            self.released.emit(self._w.copy(), self._b)
