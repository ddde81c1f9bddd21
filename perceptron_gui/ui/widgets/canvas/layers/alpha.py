"""The dual perceptron's α_i: a label beside each support vector."""

from __future__ import annotations

import numpy as np
import pyqtgraph as pg
from PySide6 import QtGui

from .....core.text import fmt
from .... import style
from .base import Layer

__all__ = ["AlphaLayer", "MAX_ALPHA_LABELS"]

#: At most this many labels (the largest α_i) are shown.
MAX_ALPHA_LABELS = 150


class AlphaLayer(Layer):
    """``α=k`` next to each support vector of a dual run (pooled labels, changed ones only).

    Attributes
    ----------
    labels : list of pyqtgraph.TextItem
        Every label made so far (the pool); the visible ones are shown.
    """

    name = "alpha"
    switches = {"alpha": True}

    def __init__(self):
        super().__init__()
        self.labels: list[pg.TextItem] = []
        self._free: list[pg.TextItem] = []
        self._shown: dict[int, tuple[pg.TextItem, int]] = {}  # index -> (label, alpha shown)
        self._dataset = None  # the data set the labels stand on
        self._font = QtGui.QFont()

    def apply_scale(self, scale) -> None:
        self._font = QtGui.QFont()
        self._font.setPointSizeF(scale.font_pt)
        for label in self.labels:
            label.setFont(self._font)
            label.setColor(style.FOREGROUND)

    def _alpha(self, frame):
        ws = frame.workspace
        alpha = getattr(ws.learner, "alpha_", None)
        on = frame.switches["alpha"] and ws.learner_name == "dual" and ws.running
        return alpha if on and alpha is not None and len(alpha) == ws.dataset.n else None

    def cache_key(self, frame) -> tuple | None:
        alpha = self._alpha(frame)
        return None if alpha is None else (frame.workspace.dataset,
                                           np.asarray(alpha).tobytes())

    def update(self, frame) -> None:
        alpha = self._alpha(frame)
        ds = frame.workspace.dataset
        if alpha is None or ds is not self._dataset:
            self._hide_all()
        if alpha is None:
            return
        self._dataset = ds
        sv = np.flatnonzero(alpha)
        if sv.size > MAX_ALPHA_LABELS:  # label the largest ones only
            sv = sv[np.argsort(-alpha[sv], kind="stable")[:MAX_ALPHA_LABELS]]
        wanted = {int(i): int(alpha[i]) for i in sv}
        shown = self._shown
        for i in [i for i in shown if i not in wanted]:
            label, _ = shown.pop(i)
            label.setVisible(False)
            self._free.append(label)
        X = ds.X
        for i, a in wanted.items():
            if i in shown:
                label, old = shown[i]
                if old == a:
                    continue
            else:
                label = self._free.pop() if self._free else self._new_label()
                label.setPos(float(X[i, 0]), float(X[i, 1]))
                label.setVisible(True)
            label.setText(f"α={fmt(a, 0)}")
            shown[i] = (label, a)

    def _new_label(self) -> pg.TextItem:
        label = self.add(None, pg.TextItem(color=style.FOREGROUND, anchor=(-0.2, 1.0)), 13,
                         visible=True)
        label.setFont(self._font)
        self.labels.append(label)
        return label

    def _hide_all(self) -> None:
        for label, _ in self._shown.values():
            label.setVisible(False)
            self._free.append(label)
        self._shown.clear()
        self._dataset = None
