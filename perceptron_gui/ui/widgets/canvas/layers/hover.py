"""The point under the pointer (on the canvas or in a view): a ring, its coordinates, label,
margins (and α), kept current."""

from __future__ import annotations

import math

import numpy as np
import pyqtgraph as pg
from PySide6 import QtCore

from .....core.class_edits import class_text
from .....core.text import class_label, fmt, fmt_vec
from .... import style
from ..items import Marks
from .alpha import AlphaLayer
from .base import Layer
from .draw import font, rgba

__all__ = ["HoverLayer", "hover_text"]

_GAP_PX = 9.0  # between the point and the label's corner


def hover_text(workspace, index: int, alpha=None) -> str:
    """What the hover label says about sample ``index`` (numbered from 1 for people), with
    its α when the dual learner's multipliers ``alpha`` are given."""
    ds = workspace.dataset
    x, label = ds.X[index], int(ds.y[index])
    name = class_label(ds.class_names, label) if ds.is_binary else class_text(ds, label)
    lines = [f"sample {index + 1} · {name}", f"x = {fmt_vec(x)}"]
    if ds.feature_names is not None:  # what the coordinates are, as the axes say
        lines.append(f"{ds.feature_names[0]} = {fmt(x[0])}, {ds.feature_names[1]} = {fmt(x[1])}")
    margins = workspace.training_margins()
    if margins is not None and index < len(margins) and not ds.is_binary:
        # the multiclass margin: its own class's score less the best of the others
        lines.append(f"own score − best other = {fmt(float(margins[index]))}")
    elif margins is not None and index < len(margins):
        functional = float(margins[index])
        text = f"y·f(x) = {fmt(functional)}"
        ro = workspace.readouts()
        w = None if ro is None or workspace.capabilities.nonlinear_kernel else ro.w
        if w is not None:
            norm = float(np.linalg.norm(np.asarray(w, dtype=np.float64)))
            if norm > 0 and math.isfinite(norm):
                text += f" · margin = {fmt(functional / norm)}"
        lines.append(text)
    if alpha is not None and index < len(alpha):
        lines.append(f"α = {fmt(alpha[index], 0)}")
    return "\n".join(lines)


class HoverLayer(Layer):
    """A ring on the hovered point and a tooltip-like label beside it, redrawn every frame."""

    name = "hover"
    item_names = ("hover_label", "hover_ring")
    redraw_on = "event"

    def create(self, view_box) -> None:
        p = style.current()
        self.hover_label = self.add("hover_label", pg.TextItem(
            color=p.foreground, anchor=(0.0, 1.0), fill=rgba(p.background, 230),
            border=pg.mkPen(rgba(p.foreground, 110))), 2000, pixels=True)  # over the legend
        self.hover_ring = self.add("hover_ring", Marks(), 1990)

    def apply_scale(self, scale) -> None:
        self.hover_label.setFont(font(scale.font_pt * 0.95))
        self.hover_ring.set_style("o", scale.marker * 2.0, None,
                                  pg.mkPen(style.current().foreground, width=scale.line))

    def update(self, frame) -> None:
        ws = frame.workspace
        i = frame.hovered
        if i is None or i >= ws.dataset.n:
            self.hide()
            return
        text = hover_text(ws, i, AlphaLayer.alpha(frame))
        if self.hover_label.toPlainText() != text:
            self.hover_label.setText(text)
        x, y = ws.dataset.X[i]
        self.hover_ring.setData(pos=ws.dataset.X[i : i + 1])
        self.hover_ring.setVisible(True)
        pos = self._view_box.mapFromView(QtCore.QPointF(float(x), float(y)))
        self._place(pos)
        self.hover_label.setVisible(True)

    def _place(self, pos) -> None:
        """Above and right of the point, a marker's width away; flipped where the view ends."""
        rect = self.hover_label.boundingRect()
        view = self._view_box.boundingRect()
        gap = _GAP_PX
        flip_x = pos.x() + gap + rect.width() > view.right()
        flip_y = pos.y() - gap - rect.height() < view.top()
        self.hover_label.setAnchor((1.0 if flip_x else 0.0, 0.0 if flip_y else 1.0))
        self.hover_label.setPos(pos.x() + (-gap if flip_x else gap),
                                pos.y() + (gap if flip_y else -gap))
