"""The dual perceptron's α_i: a label beside the support vectors that have room for one.

Many labels between the points blur into a grey mass: then only the :data:`FEW`
largest α are labelled, the others only where they cover no point; the legend
says so, and the hover shows any point's α.
"""

from __future__ import annotations

import numpy as np
import pyqtgraph as pg
from PySide6 import QtGui

from .....core.text import fmt
from .... import style
from ..geometry import box_sums, declutter, summed_table
from ..legend import marker_sample
from ..raster import in_rect
from .base import Layer, LegendEntry
from .draw import font

__all__ = ["AlphaLayer", "ALL_BELOW", "FEW", "MAX_ALPHA_LABELS"]

#: Up to this many support vectors in the view, each gets a label (where labels do not overlap).
ALL_BELOW = 30
#: Beyond that, the largest this many α are labelled, room or not ...
FEW = 8
#: ... and the others only where the label covers no point, at most this many labels in all.
MAX_ALPHA_LABELS = 40
#: The legend's row while only some support vectors in the view are offered a label.
LEGEND_TEXT = "αᵢ: the largest few; hover for the others"

_ANCHOR = (-0.2, 1.0)  # the label's left side a fifth of its width right of the point
_MARGIN = 1  # the text's margin inside its item, in pixels


def alpha_text(a) -> str:
    """The label of a multiplier ``α_i``."""
    return f"α={fmt(a, 0)}"


class AlphaLayer(Layer):
    """``α=k`` beside support vectors, largest α first, never two overlapping (``labels``:
    the pool made so far; ``labelled``: the points labelled now)."""

    name = "alpha"
    item_names = ()
    switches = ("alpha",)

    def __init__(self):
        super().__init__()
        self.labels: list[pg.TextItem] = []
        self._free: list[pg.TextItem] = []
        self._shown: dict[int, tuple[pg.TextItem, int]] = {}  # index -> (label, alpha shown)
        self._dataset = None  # the data set the labels stand on
        self._font = QtGui.QFont()
        self._metrics = QtGui.QFontMetricsF(self._font)
        self._widths: dict[int, float] = {}  # label width by α, for the font in use
        self.labelled = np.empty(0, np.int64)
        self._table = None  # (data set, view, pixel size) and its points' summed-area table
        #: How many support vectors in the view have no label (their α shows on hover).
        self.unlabelled = 0

    def apply_scale(self, scale) -> None:
        self._font = font(scale.font_pt)
        self._metrics = QtGui.QFontMetricsF(self._font)
        self._widths = {}
        for label in self.labels:
            label.setFont(self._font)
            label.setColor(style.current().foreground)

    @staticmethod
    def alpha(frame):
        """The dual coefficients ``alpha_`` of the learner shown in ``frame``, or None."""
        ws = frame.workspace
        if not (frame.switches["alpha"] and ws.capabilities.dual_coef and ws.running):
            return None
        alpha = ws.learner.alpha_  # a started learner with dual coefficients has them
        return alpha if len(alpha) == ws.dataset.n else None

    @staticmethod
    def in_view(frame) -> np.ndarray:
        """The indices of the support vectors in the view."""
        sv = frame.workspace.learner.support_  # flatnonzero(alpha), kept by the learner
        return sv[in_rect(frame.workspace.dataset.X[sv], frame.view)]

    def cache_key(self, frame) -> tuple | None:
        alpha = self.alpha(frame)
        ws = frame.workspace
        # alpha is a function of the run and its number of updates (O(1), not an O(n) copy)
        return None if alpha is None else (ws.dataset, ws.learner, int(ws.learner.n_updates_),
                                           frame.view, frame.pixel_size)

    def rects(self, X, alpha, frame) -> np.ndarray:
        """The screen rectangles ``(left, top, right, bottom)`` of the labels of points ``X``."""
        x0, x1, y0, y1 = frame.view
        sx, sy = frame.pixel_size
        m = self._metrics
        values, inverse = np.unique(np.asarray(alpha, dtype=np.int64), return_inverse=True)
        for a in values.tolist():  # a few distinct α among thousands of support vectors
            if a not in self._widths:
                self._widths[a] = m.horizontalAdvance(alpha_text(a))
        widths = np.array([self._widths[a] for a in values.tolist()],
                          dtype=np.float64).reshape(-1)[inverse] + 2 * _MARGIN + 2
        height = m.height() + 2 * _MARGIN + 1
        px = (X[:, 0] - x0) / sx
        py = (y1 - X[:, 1]) / sy
        left = px - _ANCHOR[0] * widths
        top = py - _ANCHOR[1] * height
        return np.column_stack([left, top, left + widths, top + height])

    def update(self, frame) -> None:
        alpha = self.alpha(frame)
        ds = frame.workspace.dataset
        if alpha is None or ds is not self._dataset:
            self._hide_all()
        if alpha is None:
            return
        self._dataset = ds
        X = ds.X
        sv = self.in_view(frame)
        shown_sv = sv.size
        sv = sv[np.argsort(-alpha[sv], kind="stable")]  # largest α first
        rects = self.rects(X[sv], alpha[sv], frame)
        if sv.size > ALL_BELOW:  # many: the few largest, then only labels over no point
            key = (ds, frame.view, frame.pixel_size)
            if self._table is None or self._table[0] != key:  # the points move less than w
                self._table = (key, _summed(X, frame))
            roomy = _empty(rects, self._table[1])
            roomy[:FEW] = True
            sv, rects = sv[roomy], rects[roomy]
        keep = declutter(rects, MAX_ALPHA_LABELS)
        self.labelled = np.sort(sv[keep])
        self.unlabelled = shown_sv - len(keep)
        wanted = {int(i): int(alpha[i]) for i in sv[keep]}
        shown = self._shown
        for i in [i for i in shown if i not in wanted]:
            label, _ = shown.pop(i)
            label.setVisible(False)
            self._free.append(label)
        for i, a in wanted.items():
            if i in shown:
                label, old = shown[i]
                if old == a:
                    continue
            else:
                label = self._free.pop() if self._free else self._new_label()
                label.setPos(float(X[i, 0]), float(X[i, 1]))
                label.setVisible(True)
            label.setText(alpha_text(a))
            shown[i] = (label, a)

    def showing(self, frame) -> bool:
        """Whether a label shows (the labels are a pool, not named items)."""
        return bool(self._shown)

    def legend_entries(self, frame) -> list[LegendEntry]:
        if self.alpha(frame) is None or self.in_view(frame).size <= ALL_BELOW:
            return []  # each support vector in the view is offered a label
        return [LegendEntry("alpha", LEGEND_TEXT, lambda: marker_sample(
            _glyph("α"), 10, style.current().foreground, None))]

    def _new_label(self) -> pg.TextItem:
        label = self.add(None, pg.TextItem(color=style.current().foreground, anchor=_ANCHOR), 13,
                         visible=True)
        label.textItem.document().setDocumentMargin(_MARGIN)
        label.setFont(self._font)
        self.labels.append(label)
        return label

    def _hide_all(self) -> None:
        for label, _ in self._shown.values():
            label.setVisible(False)
            self._free.append(label)
        self._shown.clear()
        self._dataset = None
        self.labelled = np.empty(0, np.int64)
        self.unlabelled = 0


def _summed(X: np.ndarray, frame) -> np.ndarray:
    x0, x1, y0, y1 = frame.view
    sx, sy = frame.pixel_size
    width = max(1, int(np.ceil((x1 - x0) / sx)))
    height = max(1, int(np.ceil((y1 - y0) / sy)))
    px = np.floor((X[:, 0] - x0) / sx)
    py = np.floor((y1 - X[:, 1]) / sy)
    on = (px >= 0) & (px < width) & (py >= 0) & (py < height)
    return summed_table((py[on] * width + px[on]).astype(np.int64), width, height)


def _empty(rects: np.ndarray, table: np.ndarray) -> np.ndarray:
    """Which label rectangles (screen pixels) cover no point: four look-ups each."""
    height, width = table.shape[0] - 1, table.shape[1] - 1
    left = np.clip(np.floor(rects[:, 0]), 0, width).astype(np.int64)
    right = np.clip(np.ceil(rects[:, 2]), 0, width).astype(np.int64)
    top = np.clip(np.floor(rects[:, 1]), 0, height).astype(np.int64)
    bottom = np.clip(np.ceil(rects[:, 3]), 0, height).astype(np.int64)
    return box_sums(table, top, bottom, left, right) == 0


def _glyph(text: str) -> QtGui.QPainterPath:
    """``text`` as a marker symbol: a path in pyqtgraph's unit box."""
    path = QtGui.QPainterPath()
    path.addText(0, 0, QtGui.QFont(), text)
    box = path.boundingRect()
    scale = 1.0 / max(box.width(), box.height())
    transform = QtGui.QTransform()
    transform.scale(scale, scale)
    transform.translate(-box.center().x(), -box.center().y())
    return transform.map(path)
