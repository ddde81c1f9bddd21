"""The point w dragged by hand in the weight-space view (the mode "handset").

In the gnomonic chart a point ``p`` is the direction ``u + p_1 e_1 + p_2 e_2``
at the length of the ``w`` it starts from (a chart shows directions only; a
``w`` off the chart, ``w·w* <= 0``, has no handle).  A drag previews each
position on the workspace; the release issues one ``SetWeights``.
"""

from __future__ import annotations

import numpy as np
import pyqtgraph as pg
from PySide6 import QtCore

from ....core.commands import SetWeights
from ....core.theory.weight_space import chart_basis
from ... import style
from ...widgets import Guard
from ...widgets.canvas.gestures import mark_handle
from .geometry import Picture

__all__ = ["HandPoint", "chart_weights"]

#: The view state's switch the mode turns on (the canvas layer's handles too).
SWITCH = "hand_handles"


def chart_weights(p, center, length: float, bias_scale: float) -> tuple[np.ndarray, float]:
    """``(w, b)`` of the chart point ``p``: the unit direction ``u + p·E`` times ``length``
    (``u`` the chart's centre, ``E`` its basis; ``b = c·w_0``)."""
    u = np.asarray(center, dtype=np.float64)
    u = u / np.linalg.norm(u)
    E = chart_basis(u)
    d = u + float(p[0]) * E[0] + float(p[1]) * E[1]
    v = float(length) * d / np.linalg.norm(d)
    return v[:2], float(v[2]) * float(bias_scale)


class HandPoint(QtCore.QObject):
    """A draggable ``w`` in the weight-space plot; ``issue``: the view's ``commandIssued.emit``."""

    def __init__(self, plot_item, workspace, issue):
        super().__init__()
        self._ws = workspace
        self._issue = issue
        self._pic: Picture | None = None
        self._placing = Guard()  # the view places the handle: not a drag
        self.dragging = False
        self._left = None  # the start a drag left (its view is kept while it is shown)
        self.target = pg.TargetItem(movable=True, size=15, symbol="o")
        self.target.setToolTip("Drag w: the run starts from it (Move w by hand)")
        mark_handle(self.target)
        self.target.setZValue(30)
        plot_item.addItem(self.target, ignoreBounds=True)
        self.target.setVisible(False)
        self.target.sigPositionChanged.connect(self._moved)
        self.target.sigPositionChangeFinished.connect(self._released)

    def restyle(self, scale) -> None:
        pal = style.current()
        self.target.setPen(pg.mkPen(pal.foreground, width=max(1.0, scale.line * 0.75)))
        self.target.setBrush(pg.mkBrush(pal.weight_color))
        self.target.setHoverBrush(pg.mkBrush(pal.foreground))

    def on(self) -> bool:
        """Whether the switch is on and the learner starts by hand."""
        vs = self._ws.view_state
        return bool(SWITCH in vs.layers() and vs.layer(SWITCH) and self._ws.starts_by_hand)

    def update(self, pic: Picture | None) -> None:
        """Put the handle on the picture's current ``w`` (hidden outside the mode)."""
        self._pic = pic
        if pic is None or not self.on():
            self.target.setVisible(False)
            return
        if self.dragging:
            return
        p = pic.points[-1]
        if not np.isfinite(p).all():  # off the chart (w·w* <= 0, or w = 0): no point to drag
            self.target.setVisible(False)
            return
        with self._placing:
            self.target.setPos(float(p[0]), float(p[1]))
        self.target.setVisible(True)

    def hide(self) -> None:
        self._pic = None
        self.target.setVisible(False)

    def pos(self) -> QtCore.QPointF:
        """Where the handle is, in the plot's coordinates."""
        return self.target.pos()

    def weights_at(self, x: float, y: float) -> tuple[np.ndarray, float]:
        """``(w, b)`` of the point ``(x, y)`` of the plane drawn."""
        pic = self._pic
        if pic.chart:
            v = np.asarray(pic.trajectory.w[-1], dtype=np.float64)
            length = float(np.linalg.norm(v)) or 1.0
            return chart_weights((x, y), pic.region.center, length, pic.region.bias_scale)
        return np.array([x, y]), (pic.b if pic.slice else 0.0)

    def _moved(self, item) -> None:
        if self._placing or self._pic is None:
            return
        self.dragging = True
        w, b = self.weights_at(item.pos().x(), item.pos().y())
        try:
            self._ws.set_start(w, b, preview=True)
        except ValueError:
            pass  # too large: the last position that was not stays

    def _released(self, item) -> None:
        if self._placing or self._pic is None or not self.dragging:
            return
        self.dragging = False
        start = self._ws.start
        try:
            w, b = self.weights_at(item.pos().x(), item.pos().y())
            command = SetWeights(tuple(float(v) for v in w), float(b))
        except ValueError:  # beyond the limit: the last valid preview
            command = SetWeights(None) if start is None else SetWeights(
                tuple(float(v) for v in start[0]), start[1])
        self._issue(command)
        self._left = self._ws.start

    def holds_view(self, pic: Picture, x_range, y_range) -> bool:
        """Whether the view holds its range: in a drag, then while its start shows at step 0."""
        if self.dragging:
            return True
        start, left = self._ws.start, self._left
        if start is None or left is None or self._ws.step_count != 0 or not (
                np.array_equal(start[0], left[0]) and start[1] == left[1]):
            self._left = None
            return False
        p = pic.points[-1]
        return bool(np.isfinite(p).all() and x_range[0] <= p[0] <= x_range[1]
                    and y_range[0] <= p[1] <= y_range[1])
