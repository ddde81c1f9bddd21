"""The few numbers that matter for the current step, in type large enough to read.

:class:`EssentialsPanel` shows the Novikoff bound with the update count
("k = 4 ≤ (R/γ)² = 151.9"), the training error and the last update's formula,
each wrapped to the panel's width and never clipped.  The side panel's "Now"
section holds it; presenter mode shows it alone, at presenter sizes.
"""

from __future__ import annotations

import math

from PySide6 import QtCore, QtGui, QtWidgets

from ...core.readouts import no_bound_reason
from ...core.text import fmt_count, fmt_percent
from .. import style
from ..subscriptions import refresh_coalesced

__all__ = ["EssentialsPanel"]

#: The bound's font as a multiple of the scale's font size.
BOUND_FACTOR = 1.25


class EssentialsPanel(QtWidgets.QWidget):
    """k with its bound, the training error and the last update, from a workspace.

    Parameters
    ----------
    workspace : Workspace
        The Qt-free workspace whose :meth:`~Workspace.readouts` are shown.
    parent : QWidget, optional

    Attributes
    ----------
    bound_label, error_label, update_label : QtWidgets.QLabel
        The three lines (objectNames ``essentialBound``, ``essentialError``,
        ``essentialUpdate``); every one wraps and gets the height it needs.
    """

    def __init__(self, workspace, parent=None):
        super().__init__(parent)
        self.setObjectName("essentials")
        self._ws = workspace
        self._scale = style.NORMAL
        layout = QtWidgets.QVBoxLayout(self)
        layout.setContentsMargins(6, 4, 6, 6)
        layout.setSpacing(4)
        self.bound_label = self._label("essentialBound",
                                 "The number of updates k and Novikoff's bound (R/γ)² on it")
        self.error_label = self._label("essentialError",
                                 "Training error: the share of samples with y·f(x) ≤ 0")
        self.update_label = self._label("essentialUpdate",
                                  "The last update of w and b, with the numbers filled in")
        for label in (self.bound_label, self.error_label, self.update_label):
            layout.addWidget(label)
        self.set_scale(style.NORMAL)
        self._timer = refresh_coalesced(self, (workspace.learner_changed, workspace.run_changed,
                                 workspace.dataset_changed, workspace.theory_changed),
                          self.refresh)
        self.refresh()

    def _label(self, name: str, tip: str) -> QtWidgets.QLabel:
        label = QtWidgets.QLabel("—", objectName=name)
        label.setWordWrap(True)
        label.setTextFormat(QtCore.Qt.TextFormat.PlainText)
        label.setTextInteractionFlags(QtCore.Qt.TextInteractionFlag.TextSelectableByMouse)
        label.setSizePolicy(QtWidgets.QSizePolicy.Policy.Ignored,
                            QtWidgets.QSizePolicy.Policy.Preferred)
        label.setToolTip(tip)
        label.setAccessibleName(tip)
        return label

    # -- public API ---------------------------------------------------------------------
    def set_scale(self, scale: style.Scale) -> None:
        """Use the font sizes of ``scale`` (presenter mode enlarges them)."""
        self._scale = scale
        font = QtGui.QFont(self.font())
        font.setPointSizeF(scale.font_pt)
        self.error_label.setFont(font)
        big = QtGui.QFont(font)
        big.setPointSizeF(scale.font_pt * BOUND_FACTOR)
        big.setBold(True)
        self.bound_label.setFont(big)
        mono = QtGui.QFontDatabase.systemFont(QtGui.QFontDatabase.SystemFont.FixedFont)
        mono.setPointSizeF(scale.font_pt)
        self.update_label.setFont(mono)
        self.updateGeometry()

    def texts(self) -> dict[str, str]:
        """The three texts shown: ``bound``, ``error``, ``update``."""
        return {"bound": self.bound_label.text(), "error": self.error_label.text(),
                "update": self.update_label.text()}

    def refresh(self) -> None:
        """Redraw the three lines from ``workspace.readouts()`` now."""
        self._timer.stop()
        ws = self._ws
        r = ws.readouts()
        no_bound = no_bound_reason(ws.capabilities, ws.params, short=True)
        if no_bound:  # the readouts' Details say why in a sentence
            text = no_bound
        elif ws.learner_steps:
            text = r.bound_text if r.bound_text != "—" else f"k = {fmt_count(r.k)}"
        else:
            text = r.status or "—"
        self.bound_label.setText(_sentence(text))
        err = r.training_error
        if math.isnan(err):
            self.error_label.setText("Training error —")
        else:
            wrong = int(ws.misclassified().size)
            self.error_label.setText(f"Training error {fmt_percent(100.0 * err)}  "
                               f"({fmt_count(wrong)} of {fmt_count(ws.dataset.n)})")
        if ws.learner_steps:
            self.update_label.setText(r.last_update or "No update yet: w = 0")
            self.update_label.setVisible(True)
        else:
            self.update_label.setVisible(False)
        violated = bool(r.separable) and r.k > r.bound
        palette = self.palette()
        if violated:
            palette.setColor(QtGui.QPalette.ColorRole.WindowText,
                             QtGui.QColor(style.current().neg_color))
        self.bound_label.setPalette(palette)


def _sentence(text: str) -> str:
    """*text* as a line of its own: a first word (not a symbol such as ``k``) capitalised."""
    word = text.split(" ", 1)[0]
    if len(word) > 1 and word.isalpha() and word.islower():
        return text[0].upper() + text[1:]
    return text
