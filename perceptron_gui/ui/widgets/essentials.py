"""The few numbers that matter for the current step, in type large enough to read.

The bound with the update count ("k = 4 ≤ (R/γ)² = 151.9"), the training error and
the last update, wrapped only between a formula's parts (:func:`glue`), never clipped.
"""

from __future__ import annotations

import math

from PySide6 import QtCore, QtGui, QtWidgets

from ...core.readouts import no_bound_reason, shown_error
from ...core.text import fmt_count, fmt_percent
from .. import style
from . import follow_run

__all__ = ["EssentialsPanel", "NBSP", "WJ", "bound_palette", "glue"]

#: The bound's font as a multiple of the scale's font size.
BOUND_FACTOR = 1.25
#: The least it may shrink to (still bold, as large as the text below it) to stay on one
#: line: presenter mode's narrow panel holds "k = 4 ≤ (R/γ)² = 76.19" whole.
BOUND_MIN_FACTOR = 1.0
#: The no-break space: a line never breaks at it.
NBSP = "\u00a0"
#: The word joiner: put after a "/" (Qt would break after it, "(R/⏎γ)²").
WJ = "\u2060"
#: Before which signs each line may break (its other spaces hold their neighbours together):
#: the bound also before the "from w₀" of a start set by hand ("f").
_BREAKS = {"bound": "≤f", "error": "(", "update": "+=\u2212"}  # − : the multiclass update


def glue(text: str, breaks: str) -> str:
    """``text`` with every space a no-break space except those before a sign of ``breaks``
    or a word of three letters or more, outside parentheses; a :data:`WJ` after each "/".

    ``glue("k = 4 ≤ (R/γ)² = 76.19", "≤")`` may break only before "≤"; a minus after
    "=", "≤" or "←" is a number's sign, never a break.
    """
    out, depth, last = [], 0, ""  # last: the character before the spaces
    for i, ch in enumerate(text):
        if ch in "([":
            depth += 1
        elif ch in ")]":
            depth = max(0, depth - 1)
        if ch == " ":
            nxt = text[i + 1] if i + 1 < len(text) else ""
            word = text[i + 1:].split(" ", 1)[0]
            prose = len(word) >= 3 and word.isalpha()  # "over the 20 cases with zᵢ"
            signed = nxt == "\u2212" and last in "=≤←"  # "= −3.02": a number
            out.append(" " if depth == 0 and nxt and not signed and (nxt in breaks or prose)
                       else NBSP)
        else:
            last = ch
            out.append(ch + WJ if ch == "/" else ch)
    return "".join(out)


class EssentialsPanel(QtWidgets.QWidget):
    """k with its bound, the training error and the last update, from a workspace."""

    def __init__(self, workspace, parent=None):
        super().__init__(parent)
        self.setObjectName("essentials")
        self._ws = workspace
        self._scale = style.NORMAL
        self._texts = {"bound": "—", "error": "—", "update": "—"}
        layout = QtWidgets.QVBoxLayout(self)
        layout.setContentsMargins(6, 4, 6, 6)
        layout.setSpacing(4)
        self.bound_label = self._label("essentialBound",
                                 "The number of updates k and Novikoff's bound (R/γ)² on it")
        self.error_label = self._label("essentialError", _ERROR_TIP)
        self.update_label = self._label("essentialUpdate", _UPDATE_TIP)
        for label in (self.bound_label, self.error_label, self.update_label):
            layout.addWidget(label)
        self.set_scale(style.NORMAL)
        self._timer = follow_run(self, workspace, self.refresh, "essentialsRefreshTimer",
                                 theory=True)
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

    def set_scale(self, scale: style.Scale) -> None:
        """Use the font sizes of ``scale`` (presenter mode enlarges them)."""
        self._scale = scale
        font = style.font(scale.font_pt, self.font())
        self.error_label.setFont(font)
        self.bound_label.setFont(style.font(scale.font_pt * BOUND_FACTOR, font, bold=True))
        self._fit_bound()
        self.update_label.setFont(style.fixed_font(scale.font_pt))
        self.updateGeometry()

    def texts(self) -> dict[str, str]:
        """The three texts shown: ``bound``, ``error``, ``update`` (plain spaces)."""
        return dict(self._texts)

    def minimum_text_width(self) -> int:
        """The width of the widest part that never breaks, margins included: from the texts
        and the scale alone (one that followed :meth:`_fit_bound` never settled)."""
        widest = self._bound_least()
        for key, label in (("error", self.error_label), ("update", self.update_label)):
            if key == "update" and not label.isVisibleTo(self):
                continue
            widest = max(widest, _widest_part(label.text(), label.fontMetrics()))
        margins = self.layout().contentsMargins()
        return widest + margins.left() + margins.right() + 4

    def _bound_font(self, pt: float) -> QtGui.QFont:
        return style.font(pt, self.bound_label.font())

    def _bound_least(self) -> int:
        """The least room for the bound whole: broken at full size, or one line at its least."""
        text = self.bound_label.text()
        full = QtGui.QFontMetrics(self._bound_font(self._scale.font_pt * BOUND_FACTOR))
        least = _widest_part(text, full)
        if self._texts["bound"].startswith("k = "):
            small = QtGui.QFontMetrics(self._bound_font(self._scale.font_pt * BOUND_MIN_FACTOR))
            least = min(least, small.horizontalAdvance(text))
        return least

    def minimumSizeHint(self) -> QtCore.QSize:  # noqa: N802 - Qt's name
        hint = super().minimumSizeHint()
        return QtCore.QSize(max(hint.width(), self.minimum_text_width()), hint.height())

    def resizeEvent(self, event: QtGui.QResizeEvent) -> None:  # noqa: N802 - Qt's name
        super().resizeEvent(event)
        self._fit_bound()

    def _fit_bound(self) -> None:
        """The bound on one line at the largest size that fits, else at full size, broken."""
        label = self.bound_label
        font = self._bound_font(self._scale.font_pt * BOUND_FACTOR)
        full = self._scale.font_pt * BOUND_FACTOR
        size = full
        margins = self.layout().contentsMargins()
        room = self.width() - margins.left() - margins.right()
        if self._texts["bound"].startswith("k = ") and room > 0:
            text, least = label.text(), self._scale.font_pt * BOUND_MIN_FACTOR

            def wide(pt: float) -> int:
                font.setPointSizeF(pt)
                return QtGui.QFontMetrics(font).horizontalAdvance(text)

            while size > least and wide(size) > room:
                size = max(least, size - 0.5)
            if wide(size) > room:
                size = full
        if label.font().pointSizeF() != size:
            font.setPointSizeF(size)
            label.setFont(font)

    def _tip_rule(self, rule: str | None) -> None:
        error = _ERROR_TIP if rule is None else (
            f"Training error: the share of misclassified samples ({rule})")
        update = _UPDATE_TIP if rule is None else f"{_UPDATE_TIP}\nThe rule in use: {rule}."
        for label, tip in ((self.error_label, error), (self.update_label, update)):
            label.setToolTip(tip)
            label.setAccessibleName(tip)

    def _set(self, key: str, label: QtWidgets.QLabel, text: str, glued: bool = True) -> None:
        self._texts[key] = text
        if glued:
            # a mistake condition ("mistake: y·ŷ < 0, sign(0) = +1 (...)") breaks only
            # before its numbers, never inside "sign(0) = +1"
            text = "\n".join(glue(line, "(" if line.startswith("mistake:") else _BREAKS[key])
                              for line in text.split("\n"))
        label.setText(text)

    def refresh(self) -> None:
        """Redraw the three lines from ``workspace.readouts()`` now."""
        self._timer.stop()
        ws = self._ws
        r = ws.readouts()
        no_bound = no_bound_reason(ws.capabilities, ws.params, short=True)
        if no_bound:  # the readouts' Details say why in a sentence
            text = no_bound
        elif ws.capabilities.steps:
            text = r.bound_text if r.bound_text != "—" else f"k = {fmt_count(r.k)}"
        else:
            text = r.status or "—"
        # a sentence (no bound, a status) wraps at its spaces; the bound breaks before "≤"
        self._set("bound", self.bound_label, _sentence(text), glued="≤" in text)
        self._fit_bound()
        self._tip_rule(ws.capabilities.mistake_condition)
        err, wrong = shown_error(ws, r)
        self._set("error", self.error_label, "Training error —" if math.isnan(err) else
                  f"Training error {fmt_percent(100.0 * err)}  "
                  f"({fmt_count(wrong)} of {fmt_count(ws.dataset.n)})")
        if r.last_update:
            self._set("update", self.update_label, r.last_update)
        else:  # a sentence: it wraps between its words, never inside "w = 0"
            start = ("w₀ set by hand" if ws.starts_by_hand and ws.start
                     else glue("every wₖ = 0" if ws.capabilities.multiclass else "w = 0", ""))
            self._set("update", self.update_label, f"No update yet: {start}", glued=False)
        self.update_label.setVisible(ws.capabilities.steps)
        self.bound_label.setPalette(bound_palette(self, bool(r.separable) and r.k > r.bound))
        self.updateGeometry()  # its least width follows the text


_ERROR_TIP = "Training error: the share of samples with y·f(x) ≤ 0"
_UPDATE_TIP = "The last update of w and b, with the numbers filled in"


def bound_palette(widget: QtWidgets.QWidget, exceeded: bool) -> QtGui.QPalette:
    """``widget``'s palette, its text in class −1's colour when k ``exceeded`` the bound."""
    palette = widget.palette()
    if exceeded:
        palette.setColor(QtGui.QPalette.ColorRole.WindowText,
                         QtGui.QColor(style.current().neg_color))
    return palette


def _widest_part(text: str, metrics: QtGui.QFontMetrics) -> int:
    """The width of the widest part of ``text`` between two spaces where a line may break."""
    return max((metrics.horizontalAdvance(part) for line in text.splitlines()
                for part in line.split(" ")), default=0)


def _sentence(text: str) -> str:
    """*text* as a line of its own: a first word (not a symbol such as ``k``) capitalised."""
    word = text.split(" ", 1)[0]
    if len(word) > 1 and word.isalpha() and word.islower():
        return text[0].upper() + text[1:]
    return text
