"""The misclassified samples: a cross on each point with ``y f(x) <= 0`` now."""

from __future__ import annotations

import numpy as np
import pyqtgraph as pg
from PySide6 import QtWidgets

from .... import style
from ..items import Marks
from ..legend import marker_sample
from .base import Layer, LegendEntry

__all__ = ["MistakesLayer"]

_NONE = np.empty(0, np.int64)
_NONE.flags.writeable = False


class MistakesLayer(Layer):
    """Crosses on the samples the current model gets wrong (re-set when the set changes)."""

    name = "mistakes"
    switches = {"mistakes": True}

    def create(self, view_box) -> None:
        super().create(view_box)
        self.mistake_marks = self.add("mistake_marks", Marks(), 12)
        self.mistake_marks.setCacheMode(QtWidgets.QGraphicsItem.CacheMode.DeviceCoordinateCache)

    def apply_scale(self, scale) -> None:
        self.size = scale.marker
        self.pen = pg.mkPen("w", width=0.5)
        self.mistake_marks.set_style("x", scale.marker * 0.9, style.MISTAKE_COLOR, self.pen)

    def _indices(self, frame) -> np.ndarray:
        ws = frame.workspace
        kernel_model = frame.kernel_run and getattr(
            ws.learner, "support_", np.empty(0)).size > 0
        on = frame.switches["mistakes"] and (frame.hyperplane is not None or kernel_model)
        return ws.misclassified() if on else _NONE

    def cache_key(self, frame) -> tuple:
        # the workspace keeps the same array while the weights stay (compared by identity)
        return (frame.workspace.dataset, self._indices(frame))

    def update(self, frame) -> None:
        idx = self._indices(frame)
        self.mistake_marks.setData(pos=frame.workspace.dataset.X[idx], copy=False)  # fresh
        self.mistake_marks.setVisible(idx.size > 0)

    def legend_entries(self, frame) -> list[LegendEntry]:
        if not frame.switches["mistakes"]:
            return []
        return [LegendEntry("mistake", "misclassified", lambda: marker_sample(
            "x", self.size, style.MISTAKE_COLOR, self.pen))]
