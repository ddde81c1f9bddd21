"""The line and its w dragged by hand: the mode "handset" (``ui/features/hand_weights.py``).

Every position of a drag is previewed on the workspace (every view follows live);
the release issues one ``SetWeights``, one undo step.
"""

from __future__ import annotations

import numpy as np
import pyqtgraph as pg

from .....core.commands import SetWeights
from .... import style
from ..items.line_handles import LineHandles
from .base import Layer, LegendEntry, line_rows
from .draw import ARROW_Z

__all__ = ["HandWeightsLayer"]


class HandWeightsLayer(Layer):
    """Two handles on the boundary and the head of ``w``; ``dragging`` between the first
    position of a drag and its release."""

    name = "hand_weights"
    switches = ("hand_handles",)
    item_names = ("hand_anchor", "hand_head", "hand_line")

    def __init__(self):
        super().__init__()
        self.handles: LineHandles | None = None
        self.dragging = False
        self._ws = None
        self._frame = None  # the last redraw's (its view places the anchor)

    def needed(self, frame) -> bool:
        """Made for w set by hand, or data."""
        return self._on(frame) or super().needed(frame)

    def create(self, view_box) -> None:
        self.handles = LineHandles(self, "hand", ARROW_Z + 5, grip=True)
        self.handles.hide()
        self.handles.moved.connect(self._moved)
        self.handles.released.connect(self._released)

    def apply_scale(self, scale) -> None:
        pal = style.current()
        self.handles.set_color(pal.weight_color, pal.foreground, scale.line,
                               size_px=scale.marker * 1.3)
        self.pen = pg.mkPen(pal.weight_color, width=scale.line)

    def _on(self, frame) -> bool:
        ws = frame.workspace
        return bool(frame.switches.get("hand_handles") and ws.starts_by_hand
                    and frame.weights is not None)

    def update(self, frame) -> None:
        self._ws = frame.workspace
        self._frame = frame
        if not self._on(frame):
            self.handles.hide()
            return
        if self.dragging:
            return  # the handle dragged follows the pointer; placing it would fight it
        self._place(frame)

    def _place(self, frame) -> None:
        w, b = frame.workspace.weights()
        fit_intercept = bool(frame.workspace.params.get("fit_intercept", True))
        self.handles.set_line(np.asarray(w, dtype=np.float64), float(b), frame,
                              translate=fit_intercept)

    def showing(self, frame) -> bool:
        return self.handles is not None and self.handles.head.isVisible()

    def legend_entries(self, frame) -> list[LegendEntry]:
        return line_rows(self._on(frame) and (
            "hand_handles", "w by hand: drag the line or the head of w", self.pen))

    def _moved(self, w, b: float) -> None:
        if self._ws is None:
            return
        self.dragging = True
        try:
            self._ws.set_start(w, b, preview=True)
        except ValueError:
            pass  # too large: the last position that was not stays shown

    def _released(self, w, b: float) -> None:
        moved, self.dragging = self.dragging, False
        ws = self._ws
        if ws is None or not moved:  # a click on a handle: nothing to undo
            return
        try:
            command = SetWeights(tuple(float(v) for v in w), float(b))
        except ValueError:  # the release beyond the limit: the last valid preview is kept
            start = ws.start
            command = SetWeights(None) if start is None else SetWeights(
                tuple(float(v) for v in start[0]), start[1])
        self.issue(command)
        # the redraw of the same weights may not come (the last preview drew them): place
        # the handles now, the anchor too after a drag from w = 0 (it had no line)
        if self._frame is not None and self._on(self._frame) and ws.weights() is not None:
            self._place(self._frame)
