"""The canvas's fitted view: the data and the origin framed, grown but never zoomed in.

Not the w arrow (cut at the edge): a run growing w never shrinks the data to a
speck.  Until a pan or zoom it grows for a point a layer keeps in view, a resize,
and a band for a legend with no empty place; never under a held mouse button.
"""

from __future__ import annotations

import math

import numpy as np
from PySide6 import QtCore

from ...deferred import YieldingTimer
from .geometry import inside_by
from .items.pyqtgraph_internals import widget_closed
from .layers import Frame


class ViewFit:
    """The fitted view of one canvas and the refit that follows its kept points (``frame()``:
    the current :class:`Frame`; ``margin()``: w's head's pixels; ``room``: the legend's band)."""

    def __init__(self, canvas, frame, layers, margin, room):
        self._canvas = canvas
        self._vb = canvas.getViewBox()
        self._frame, self._layers, self._margin, self._room = frame, layers, margin, room
        self.timer = YieldingTimer(canvas, self._refit, name="canvasRefitTimer")
        self._fit_range = None  # the view box's target range the last fit set
        self._held = False  # a button held on the canvas: no refit under the hand
        self.waiting = False  # a refit put off until the button is released
        self._no_band = False  # a drag's release declined the legend's band: until a fit
        self._vb.sigResized.connect(self._on_resized)

    def fit(self) -> None:
        """Frame the data, the origin and the layers' kept points ([-5, 5]² without data)."""
        c = self._canvas
        b = c.workspace.dataset.bounds()
        kept = self.kept(self._frame())  # the layers' (the game's circle and w)
        if kept is not None:
            lo, hi = kept.min(axis=0), kept.max(axis=0)
            b = (lo[0], hi[0], lo[1], hi[1]) if b is None else (
                min(b[0], lo[0]), max(b[1], hi[0]), min(b[2], lo[1]), max(b[3], hi[1]))
        if b is None:
            x0, x1, y0, y1 = -5.0, 5.0, -5.0, 5.0
        else:
            x0, x1 = min(b[0], 0.0), max(b[1], 0.0)
            y0, y1 = min(b[2], 0.0), max(b[3], 0.0)
            big = max(abs(x0), abs(x1), abs(y0), abs(y1))
            floor = big * 1e-6 if big > 0 else 1.0
            # in halves, so that data near ±1.8e308 do not overflow the arithmetic
            hx, hy = x1 / 2 - x0 / 2, y1 / 2 - y0 / 2
            half_span = max(hx, hy, floor / 2)
            pad = 0.24 * half_span
            cx, cy = x0 / 2 + x1 / 2, y0 / 2 + y1 / 2
            half_x = max(hx, half_span * 0.5) + pad
            half_y = max(hy, half_span * 0.5) + pad
            x0, x1, y0, y1 = cx - half_x, cx + half_x, cy - half_y, cy + half_y
        c.set_view_rect((x0, x1), (y0, y1))
        self._fit_range = np.array(self._vb.targetRange(), dtype=np.float64)
        self._no_band = False

    def fitted(self) -> bool:
        """Whether the view box shows the last fit's rectangle (a resize keeps it)."""
        now = np.array(self._vb.targetRange(), dtype=np.float64)
        return self._fit_range is not None and bool(np.array_equal(now, self._fit_range))

    def kept(self, frame: Frame, clear: bool = False):
        """The layers' points to keep in view (or the legend's to keep clear), or None."""
        parts = [p for layer in self._layers if layer.created
                 for p in [layer.keep_clear(frame) if clear else layer.keep_in_view(frame)]
                 if p is not None and len(p)]
        if not parts:
            return None
        kept = np.concatenate([np.asarray(p, dtype=np.float64).reshape(-1, 2) for p in parts])
        return kept[np.isfinite(kept).all(axis=1)]

    def _outside(self, frame: Frame, margin: float) -> list:
        kept = self.kept(frame)
        points = [] if kept is None else list(kept)
        return [p for p in points if not inside_by(p, frame.view, frame.pixel_size, margin)]

    def follow(self, frame: Frame) -> None:
        """Grow the fitted view soon when it cuts a kept point (w's head is cut, not followed)."""
        if self.fitted() and self._outside(frame, self._margin()):
            self.timer.start()

    def _on_resized(self, *_args) -> None:
        if self.fitted():
            self.timer.start()

    def hold(self, buttons) -> None:
        """Note whether a mouse button is held; at the release, run the refit put off."""
        self._held = buttons != QtCore.Qt.MouseButton.NoButton
        if not self._held and self.waiting:
            self.timer.start()

    def _refit(self) -> None:
        c = self._canvas
        after_release, self.waiting = self.waiting, False
        if widget_closed(c) or not self.fitted():
            return
        if self._held:  # the view moves under nobody's hand: after the release
            self.waiting = True
            return
        self._no_band = self._no_band or after_release
        frame = self._frame()
        x0, x1, y0, y1 = frame.view
        sx, sy = frame.pixel_size
        margin = self._margin()
        # a head nearer the edge than its length is cut: its box reaches that far
        mx, my = margin * sx, margin * sy
        boxes = [(p[0] - mx, p[0] + mx, p[1] - my, p[1] + my) for p in self._outside(frame, margin)]
        b = c.workspace.dataset.bounds()
        if b is not None and not (inside_by((b[0], b[2]), frame.view, frame.pixel_size, 0)
                                  and inside_by((b[1], b[3]), frame.view, frame.pixel_size, 0)):
            boxes.append(b)
        # no empty place for the legend: a band above (not once a drag wanted it: the
        # picture would shrink under what the hand placed; the next fit may)
        room = None if self._no_band else self._room(frame)
        if not boxes and not room:
            return
        lo_x, hi_x = min([x0, *(q[0] for q in boxes)]), max([x1, *(q[1] for q in boxes)])
        lo_y, hi_y = min([y0, *(q[2] for q in boxes)]), max([y1, *(q[3] for q in boxes)])
        pad_x = 0.08 * (hi_x - lo_x) + 2 * margin * sx  # the head, and air, at the new scale
        pad_y = 0.08 * (hi_y - lo_y) + 2 * margin * sy
        grow = (lo_x - pad_x if lo_x < x0 else x0, hi_x + pad_x if hi_x > x1 else x1,
                lo_y - pad_y if lo_y < y0 else y0,
                (hi_y + pad_y if hi_y > y1 else y1) + (room or 0.0))
        if not all(math.isfinite(v) for v in grow):
            return
        c.set_view_rect(grow[:2], grow[2:])
        self._fit_range = np.array(self._vb.targetRange(), dtype=np.float64)


def fit_plot_steps(canvas, finish: bool = True):
    """Lay a canvas's plot out again to fit its width, a redraw a step: no layer for a moment
    shrinks the legend, whose minimum width held the view box wide."""
    def deliver_layout():
        QtCore.QCoreApplication.sendPostedEvents(None, QtCore.QEvent.Type.LayoutRequest)

    layers = canvas.layers()
    canvas.set_visible_layers(**{name: False for name in layers})
    canvas.refresh(finish)
    yield
    deliver_layout()
    viewport = canvas.viewport().rect()
    canvas.getPlotItem().setGeometry(QtCore.QRectF(0, 0, viewport.width(), viewport.height()))
    deliver_layout()
    canvas.set_visible_layers(**layers)
    canvas.refresh(finish)
    yield
    deliver_layout()
    canvas.refresh(finish)  # the model again, for the view box's final size
