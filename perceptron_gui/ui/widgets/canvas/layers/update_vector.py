"""On an update: the added vector η·y·x (from w before to w after) and the previous boundary."""

from __future__ import annotations

import numpy as np
import pyqtgraph as pg
from PySide6 import QtCore

from .... import style
from ..geometry import unit_normal
from ..items import Lines
from .base import Layer, LegendEntry, line_rows
from .draw import ARROW_Z, add_arrow, rgba, set_arrow, set_line, show, style_arrow

__all__ = ["UpdateLayer"]


class UpdateLayer(Layer):
    """The update arrow ``η·y·x`` and the ghost of the boundary before it, at each update."""

    name = "update"
    item_names = ("ghost_line", "delta_halo", "delta_line", "delta_head")
    switches = ("delta", "ghost")
    caption_words = {"arrow": ("delta_head",)}
    redraw_on = "event"

    def create(self, view_box) -> None:
        self.ghost_line = self.add("ghost_line", Lines(), -14)
        self.delta_halo, self.delta_line, self.delta_head = add_arrow(self, "delta", ARROW_Z + 1)

    def apply_scale(self, scale) -> None:
        lw = scale.line
        self.ghost_pen = pg.mkPen(rgba(style.current().ghost_color, style.GHOST_ALPHA),
                                  width=lw * 0.75, style=QtCore.Qt.PenStyle.DashLine)
        self.ghost_line.setPen(self.ghost_pen)
        self.delta_pen = style_arrow(self.delta_halo, self.delta_line, self.delta_head,
                                     style.current().delta_color, lw)

    def update(self, frame) -> None:
        ws = frame.workspace
        on = frame.switches
        ev = ws.current_event if ws.running else None
        update = ev is not None and ev.mistake and ev.w_before is not None
        show_delta = update and on["delta"] and np.all(np.isfinite(ev.w_after))
        if show_delta:
            set_arrow(self.delta_line, self.delta_head, ev.w_before, ev.w_after,
                      frame.pixel_size, self.delta_halo)
        else:
            self.delta_head.setVisible(False)
        show(show_delta, self.delta_line, self.delta_halo)
        ghost = unit_normal(ev.w_before, ev.b_before) if update and on["ghost"] else None
        set_line(self.ghost_line, ghost, frame.rect)

    def legend_entries(self, frame) -> list[LegendEntry]:
        ws = frame.workspace
        if not (ws.capabilities.steps and ws.capabilities.linear and ws.current_event is not None):
            return []
        # rows for what this run has drawn at its updates so far (not only at this step,
        # so that the legend holds still while the run steps); the first update starts
        # from w = 0, which has no boundary to leave behind
        updates = ws.learner.n_updates_  # a run exists: its event is there
        text = "update η·y·x" if ws.capabilities.novikoff else "step −η·∇ℓ"  # any loss
        return line_rows(frame.switches["delta"] and updates >= 1
                         and ("delta", text, self.delta_pen),
                         frame.switches["ghost"] and updates >= 2
                         and ("ghost", "previous boundary", self.ghost_pen))
