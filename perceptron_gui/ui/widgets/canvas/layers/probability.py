"""P(+1 | x) as a graded tint of the plane, for a learner that gives class probabilities.

Drawn when the View menu's "Probability shading" is on and the learner's
capabilities say ``posteriors`` (the primal perceptron with ``loss="log_loss"``,
whose ``predict_proba`` is ``σ(f(x))``; LDA): the tint is the background
where ``P = 1/2`` and deepens towards the class colour as ``P`` goes to 0 or 1,
so the boundary is where the colour fades out.
"""

from __future__ import annotations

import math

import numpy as np
import pyqtgraph as pg
from PySide6 import QtCore

from .... import style
from ..legend import line_sample
from .base import Layer, LegendEntry
from .draw import over_background

__all__ = ["ProbabilityLayer", "probability_lut", "LEVELS"]

#: Grey levels of the tint: ``P`` is drawn to 1/255.
LEVELS = 256
_CELL_PX = 3.0  # one probability per 3x3 screen pixels
_MAX_CELLS = 600  # along each axis
#: The tint at P = 0 or 1, as a multiple of the decision regions' opacity: the deepest
#: that keeps the marks, the boundary and w at a contrast of 3:1 in both palettes.
_DEPTH = 1.25


def probability_lut() -> np.ndarray:
    """The colour of each level ``P = i / 255``: opaque RGBA, shape (256, 4), uint8.

    ``|2P − 1|`` of the class's region colour (made :data:`_DEPTH` times deeper)
    over the background: ``P = 1/2`` is the background itself.
    """
    pal = style.current()
    table = np.empty((LEVELS, 4), np.ubyte)
    for i in range(LEVELS):
        t = 2.0 * i / (LEVELS - 1) - 1.0
        rgba = pal.pos_region if t >= 0 else pal.neg_region
        alpha = min(255.0, rgba[3] * _DEPTH) * abs(t)
        table[i] = over_background((*rgba[:3], alpha))
    return table


def _shows(frame) -> bool:
    ws = frame.workspace
    return bool(frame.switches["probability"] and ws.capabilities.posteriors
                and ws.has_model and ws.dataset.n)


class ProbabilityLayer(Layer):
    """``P(+1 | x)`` of the learner (``predict_proba``) on a grid over the view, as an image.

    Attributes
    ----------
    grid : tuple or None
        ``(x0, x1, y0, y1, P)`` of the last drawing: the rectangle and the
        probabilities on its grid, shape (ny, nx) (None when hidden).
    """

    name = "probability"
    item_names = ("probability_image",)
    switches = {"probability": False}

    def __init__(self):
        super().__init__()
        self.grid = None

    def create(self, view_box) -> None:
        super().create(view_box)
        # above the exact half-planes of the regions (-25), below everything else
        self.image = self.add("probability_image", pg.ImageItem(axisOrder="row-major"), -24)

    def apply_scale(self, scale) -> None:
        self.image.setLookupTable(probability_lut())
        self.pen = pg.mkPen(style.current().pos_region[:3], width=scale.line * 4)

    def cache_key(self, frame) -> tuple | None:
        return (*frame.weights_key, style.current().name)

    def update(self, frame) -> None:
        if not _shows(frame):
            self.grid = None
            self.hide()
            return
        x0, x1, y0, y1 = frame.clip_rect(0.25)
        sx, sy = frame.pixel_size
        nx, ny = (x1 - x0) / sx / _CELL_PX, (y1 - y0) / sy / _CELL_PX
        if not all(math.isfinite(v) for v in (x0, x1, y0, y1, nx, ny)) or nx <= 0 or ny <= 0:
            self.grid = None
            self.hide()
            return
        nx, ny = int(min(_MAX_CELLS, max(2, nx))), int(min(_MAX_CELLS, max(2, ny)))
        xs = x0 + (x1 - x0) / nx * (np.arange(nx) + 0.5)
        ys = y0 + (y1 - y0) / ny * (np.arange(ny) + 0.5)
        gx, gy = np.meshgrid(xs, ys)
        with np.errstate(over="ignore", invalid="ignore"):
            P = frame.workspace.learner.predict_proba(np.column_stack([gx.ravel(), gy.ravel()]))
        P = np.asarray(P[:, 1], dtype=np.float64).reshape(ny, nx)
        self.grid = (x0, x1, y0, y1, P)
        levels = np.rint(np.nan_to_num(P, nan=0.5) * (LEVELS - 1)).astype(np.ubyte)
        self.image.setImage(levels, autoLevels=False, levels=(0, LEVELS - 1))
        self.image.setRect(QtCore.QRectF(x0, y0, x1 - x0, y1 - y0))
        self.image.setVisible(True)

    def legend_entries(self, frame) -> list[LegendEntry]:
        if not self.image.isVisible():
            return []
        return [LegendEntry("probability", "P(+1 | x): deeper = surer",
                            lambda: line_sample(self.pen))]
