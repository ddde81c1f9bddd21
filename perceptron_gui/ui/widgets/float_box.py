"""A spin box for a float parameter: it holds any value of its range exactly.

:class:`QtWidgets.QDoubleSpinBox` rounds its value to a fixed number of
decimals and cannot show ``1e-9`` next to ``1e9``.  :class:`FloatBox` keeps
the value exact (323 decimals, the most Qt allows, round-trip every float64
of the parameter ranges), shows it with a few significant digits or, when
they would round it, with all it needs, and reads typed text in plain or
exponent notation (``0.5``, ``2e-6``).
"""

from __future__ import annotations

import math
import re

from PySide6 import QtGui, QtWidgets

__all__ = ["FloatBox"]

#: Text that may still become a number as the user types (``-``, ``1e``, ``2.``).
_PARTIAL = re.compile(r"^[+\-−]?(\d*\.?\d*)([eE][+\-−]?\d*)?$")


def _parse(text: str) -> float | None:
    try:
        value = float(text.strip().replace("−", "-"))
    except ValueError:
        return None
    return value if math.isfinite(value) else None


class FloatBox(QtWidgets.QDoubleSpinBox):
    """A float spin box over ``[low, high]`` showing ``digits`` significant digits.

    Parameters
    ----------
    low, high : float
        The range (the core's range of the parameter).
    digits : int
        Significant digits shown (more when fewer would round the value).
    step : float
        What the arrows add or take away.
    """

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

    def textFromValue(self, value: float) -> str:  # noqa: N802 - Qt's name
        """The value with its significant digits, or all it needs to be read back exactly.

        ``0.5`` and ``1e-09`` as they are; a value that ``digits`` digits would
        round (``0.1234567891``, ``-123456.789``) in the shortest text that
        reads back as the same float, so the number shown is the number used.
        """
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
