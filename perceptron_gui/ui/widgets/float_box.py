"""A spin box for a float parameter: it holds any value of its range exactly.

``QDoubleSpinBox`` rounds to fixed decimals: no ``1e-9`` beside ``1e9``.  323
decimals, the most Qt allows, round-trip every float64 of the parameter ranges.
A spin box claims every printable key, the window's one-key shortcuts too
(:func:`pass_shortcuts`).
"""

from __future__ import annotations

import math
import re

from PySide6 import QtCore, QtGui, QtWidgets

__all__ = ["FloatBox", "pass_shortcuts", "spin_box", "wheel_when_focused"]

#: Text that may still become a number as the user types (``-``, ``1e``, ``2.``).
_PARTIAL = re.compile(r"^[+\-−]?(\d*\.?\d*)([eE][+\-−]?\d*)?$")


def _parse(text: str) -> float | None:
    try:
        value = float(text.strip().replace("−", "-"))
    except ValueError:
        return None
    return value if math.isfinite(value) else None


class _ShortcutKeys(QtCore.QObject):
    """Lets the keys a number box cannot take go to the window's shortcuts."""

    _PLAIN = (QtCore.Qt.KeyboardModifier.NoModifier, QtCore.Qt.KeyboardModifier.ShiftModifier)

    def __init__(self, box: QtWidgets.QAbstractSpinBox, keep: str):
        super().__init__(box)
        self._keep = keep

    def takes(self, event: QtGui.QKeyEvent) -> bool:
        """Whether the box keeps the key: anything but a space or a letter not in ``keep``."""
        if event.modifiers() not in self._PLAIN:
            return True
        text = event.text()
        return not (text == " " or (len(text) == 1 and text.isalpha()
                                     and text not in self._keep))

    def eventFilter(self, watched, event) -> bool:  # noqa: N802 - Qt's name
        if event.type() == QtCore.QEvent.Type.ShortcutOverride and not self.takes(event):
            event.ignore()  # not claimed: the shortcut, if any, fires
            return True
        return False


def pass_shortcuts(box: QtWidgets.QAbstractSpinBox, keep: str = "") -> None:
    """Let ``box`` give the window's shortcuts the keys it cannot take (but ``keep``'s letters)."""
    keys = _ShortcutKeys(box, keep)
    box.installEventFilter(keys)
    box.lineEdit().installEventFilter(keys)


class _WheelWhenFocused(QtCore.QObject):
    """Gives a wheel turn over an unfocused control to its scroll area, not to its value."""

    def eventFilter(self, watched, event) -> bool:  # noqa: N802 - Qt's name
        if event.type() == QtCore.QEvent.Type.Wheel and not watched.hasFocus():
            event.ignore()  # the panel scrolls; the value stays
            return True
        return False


def wheel_when_focused(widget: QtWidgets.QWidget) -> None:
    """Let the wheel change ``widget``'s value (a spin or combo box) only once it has the
    focus, clicked or tabbed to: scrolling a panel past it changed a parameter unseen."""
    widget.setFocusPolicy(QtCore.Qt.FocusPolicy.StrongFocus)
    widget.installEventFilter(_WheelWhenFocused(widget))


def spin_box(low: float, high: float, step: float, decimals: int = 3,
             tip: str = "") -> QtWidgets.QDoubleSpinBox:
    """A plain ``QDoubleSpinBox`` over ``[low, high]`` for the game's and exercises' panels."""
    box = QtWidgets.QDoubleSpinBox()
    box.setRange(low, high)
    box.setDecimals(decimals)
    box.setSingleStep(step)
    box.setMinimumWidth(50)
    box.setToolTip(tip)
    return box


class FloatBox(QtWidgets.QDoubleSpinBox):
    """A float spin box over ``[low, high]`` showing ``digits`` significant digits, more where
    fewer would round the value."""

    def __init__(self, low: float, high: float, digits: int = 6, step: float = 0.1,
                 parent=None, objectName: str = ""):  # noqa: N803 - Qt's keyword
        super().__init__(parent)
        if objectName:
            self.setObjectName(objectName)
        self._digits = int(digits)
        self.setDecimals(323)  # no rounding: see the module docstring
        self.setRange(low, high)
        self.setSingleStep(step)
        if low > 0:  # a positive value steps by a tenth of its order: 1, 0.99, …, 0.1, 0.099
            self.setStepType(QtWidgets.QAbstractSpinBox.StepType.AdaptiveDecimalStepType)
        pass_shortcuts(self, keep="eE")

    #: The text a box is sized for: Qt sizes it for its range's ends, and the largest float
    #: ("1.7976931348623157e+308") made every form wider than the side panel.
    SIZED_FOR = "−0.00000001"

    def _capped(self, hint: QtCore.QSize) -> QtCore.QSize:
        ends = max(self.fontMetrics().horizontalAdvance(self.textFromValue(v))
                   for v in (self.minimum(), self.maximum()))
        room = self.fontMetrics().horizontalAdvance(self.SIZED_FOR)
        return QtCore.QSize(hint.width() - max(0, ends - room), hint.height())

    def sizeHint(self) -> QtCore.QSize:  # noqa: N802 - Qt's name
        return self._capped(super().sizeHint())

    def minimumSizeHint(self) -> QtCore.QSize:  # noqa: N802 - Qt's name
        return self._capped(super().minimumSizeHint())

    def textFromValue(self, value: float) -> str:  # noqa: N802 - Qt's name
        """The value with its digits, or the shortest text that reads back as the same float."""
        text = format(value, f".{self._digits}g")
        if float(text) != value:
            text = repr(float(value))
        return text.replace("-", "−")

    def valueFromText(self, text: str) -> float:  # noqa: N802 - Qt's name
        """The typed number; the shown text of the current value keeps the value exact."""
        if text == self.textFromValue(self.value()):
            return self.value()
        value = _parse(text)
        return self.value() if value is None else value

    def validate(self, text: str, pos: int):
        """Acceptable: a number in range; Intermediate: what may still become one."""
        State = QtGui.QValidator.State
        value = _parse(text)
        if value is not None and self.minimum() <= value <= self.maximum():
            return State.Acceptable, text, pos
        if value is not None or _PARTIAL.match(text.strip()):
            return State.Intermediate, text, pos
        return State.Invalid, text, pos
