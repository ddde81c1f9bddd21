"""What to do next, written on the canvas itself while the data cannot be learned yet."""

from __future__ import annotations

import numpy as np
import pyqtgraph as pg
from PySide6 import QtCore

from .....core.game import game_of
from .....core.text import fmt
from .... import style
from ..tool import hint_text
from .base import Layer
from .draw import font, rgba

__all__ = ["HintLayer"]

_QUARTER_MAX = float(np.finfo(np.float64).max) / 4


class HintLayer(Layer):
    """A muted text (:func:`~..tool.hint_text`): centred on an empty canvas, at the top while
    a class or points are missing."""

    name = "hint"

    def create(self, view_box) -> None:
        self.hint = self.add("hint", pg.TextItem(anchor=(0.5, 0.5)), 30)

    def apply_scale(self, scale) -> None:
        self.hint.setFont(font(scale.font_pt * 1.15))
        # the scheme's colour, read at each restyle (a scheme change restyles every layer)
        self.hint.setColor(rgba(style.current().foreground, 200))

    def cache_key(self, frame) -> tuple | None:
        ws = frame.workspace
        return (ws.dataset, ws.learner_name, frame.active_class, frame.view,
                game_of(ws) is not None)

    def text(self, frame) -> str | None:
        """The hint for ``frame``, or None."""
        if game_of(frame.workspace) is not None:
            return None  # in a game, the game's layer says what to do
        ds = frame.workspace.dataset
        b = ds.bounds()  # the data set keeps them
        if b is not None and not (b[1] / 2 - b[0] / 2 < _QUARTER_MAX  # a view that wide
                                  and b[3] / 2 - b[2] / 2 < _QUARTER_MAX):  # would overflow
            reach = max(abs(v) for v in b)
            return (f"These points reach ±{fmt(reach)}: no view that wide can be drawn,\n"
                    "so some are off the canvas. The readouts' numbers are exact;\n"
                    "rescale the data to see every point.")
        return hint_text(frame.workspace.problem_kind, frame.active_class,
                         -1 if ds.n_pos else 1, learner=frame.workspace.spec, dataset=ds)

    def update(self, frame) -> None:
        text = self.text(frame)
        if text is None:
            self.hint.setVisible(False)
            return
        x0, x1, y0, y1 = frame.view
        cx, cy = x0 / 2 + x1 / 2, y0 / 2 + y1 / 2  # halves: no overflow near ±1.8e308
        if frame.workspace.dataset.n == 0:
            self.hint.setAnchor((0.5, 0.5))
            self.hint.setPos(cx, cy)
        else:  # points are there: keep off them, at the top
            self.hint.setAnchor((0.5, 0.0))
            self.hint.setPos(cx, y1 - 6 * frame.pixel_size[1])
        if self.hint.toPlainText() != text:
            self.hint.setText(text)
            self._centre_lines()
        self.hint.setVisible(True)

    def _centre_lines(self) -> None:
        """Centre each line of the text under the others (a document needs a width for that)."""
        doc = self.hint.textItem.document()
        option = doc.defaultTextOption()
        option.setAlignment(QtCore.Qt.AlignmentFlag.AlignHCenter)
        doc.setDefaultTextOption(option)
        doc.setTextWidth(-1)
        doc.setTextWidth(doc.idealWidth())
        self.hint.updateTextPos()
