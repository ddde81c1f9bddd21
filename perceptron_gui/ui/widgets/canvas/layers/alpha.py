"""The dual perceptron's α_i: a label beside each support vector that has room for one."""

from __future__ import annotations

import numpy as np
import pyqtgraph as pg
from PySide6 import QtGui

from .....core.text import fmt
from .... import style
from ..geometry import declutter
from .base import Layer

__all__ = ["AlphaLayer", "MAX_ALPHA_LABELS"]

#: At most this many labels (the largest α_i that fit) are shown.
MAX_ALPHA_LABELS = 150

_ANCHOR = (-0.2, 1.0)  # the label's left side a fifth of its width right of the point
_MARGIN = 1  # the text's margin inside its item, in pixels


def alpha_text(a) -> str:
    """The label of a multiplier ``α_i``."""
    return f"α={fmt(a, 0)}"


class AlphaLayer(Layer):
    """``α=k`` beside support vectors, decluttered: largest α first, never two overlapping.

    A label is placed only where its screen rectangle overlaps no label placed
    before it (:func:`~..geometry.declutter`); the α of a support vector
    without a label shows when the pointer hovers its point (the hover layer).

    Attributes
    ----------
    labels : list of pyqtgraph.TextItem
        Every label made so far (the pool); the visible ones are shown.
    labelled : ndarray of int
        Indices of the points whose α has a label now.
    """

    name = "alpha"
    item_names = ()
    switches = {"alpha": True}

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

    def apply_scale(self, scale) -> None:
        self._font = QtGui.QFont()
        self._font.setPointSizeF(scale.font_pt)
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
        x0, x1, y0, y1 = frame.view
        sv = frame.workspace.learner.support_  # flatnonzero(alpha), kept by the learner
        inside = ((X[sv, 0] >= x0) & (X[sv, 0] <= x1) & (X[sv, 1] >= y0) & (X[sv, 1] <= y1))
        sv = sv[inside]
        sv = sv[np.argsort(-alpha[sv], kind="stable")]  # largest α first
        keep = declutter(self.rects(X[sv], alpha[sv], frame), MAX_ALPHA_LABELS)
        self.labelled = np.sort(sv[keep])
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
