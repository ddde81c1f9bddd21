"""Helpers of the canvas tests: mouse and key events at data coordinates, and test data."""

from __future__ import annotations

import numpy as np
from PySide6 import QtCore, QtGui, QtWidgets

from perceptron_gui.core.dataset import (
    Dataset,
)
from perceptron_gui.core.workspace import Workspace

Qt = QtCore.Qt
LEFT, RIGHT, MIDDLE = (
    Qt.MouseButton.LeftButton, Qt.MouseButton.RightButton, Qt.MouseButton.MiddleButton
)




def mouse(canvas, kind, xy, button=Qt.MouseButton.NoButton, buttons=None, mods=None):
    """Send one mouse event to the viewport at data coordinates ``xy`` (or a QPointF)."""
    pos = xy if isinstance(xy, QtCore.QPointF) else canvas.data_to_widget(*xy)
    vp = canvas.viewport()
    if buttons is None:
        release = kind == QtCore.QEvent.Type.MouseButtonRelease
        buttons = Qt.MouseButton.NoButton if release else button
    ev = QtGui.QMouseEvent(
        kind, pos, vp.mapToGlobal(pos), button, buttons, mods or Qt.KeyboardModifier.NoModifier
    )
    QtWidgets.QApplication.sendEvent(vp, ev)


def click(canvas, xy, button=LEFT, mods=None):
    mouse(canvas, QtCore.QEvent.Type.MouseMove, xy)
    mouse(canvas, QtCore.QEvent.Type.MouseButtonPress, xy, button, mods=mods)
    mouse(canvas, QtCore.QEvent.Type.MouseButtonRelease, xy, button, mods=mods)


def drag(canvas, start, end, button=LEFT, steps=6):
    """Press at ``start``, move in ``steps`` to ``end``, release.

    ``start`` and ``end`` are data coordinates in the view as it is before the
    drag (a pan moves the view under the pointer).
    """
    a, b = canvas.data_to_widget(*start), canvas.data_to_widget(*end)
    mouse(canvas, QtCore.QEvent.Type.MouseMove, a)
    mouse(canvas, QtCore.QEvent.Type.MouseButtonPress, a, button)
    for t in np.linspace(0, 1, steps + 1)[1:]:
        mouse(canvas, QtCore.QEvent.Type.MouseMove, a + t * (b - a), button, button)
    mouse(canvas, QtCore.QEvent.Type.MouseButtonRelease, b, button)


def key(qtbot, canvas, k, text=""):
    ev = QtGui.QKeyEvent(QtCore.QEvent.Type.KeyPress, k, Qt.KeyboardModifier.NoModifier, text)
    QtWidgets.QApplication.sendEvent(canvas, ev)


def tol(canvas) -> float:
    """Two screen pixels in data units: the precision of a click."""
    return 2.0 * max(canvas.pixel_size())


def curve_xy(item) -> np.ndarray:
    x, y = item.getData()
    return np.column_stack([x, y])


def separable_ws(**kwargs) -> Workspace:
    X = np.array([[3, 1], [2, 3], [1, 2.5], [-1, -2], [-2, 0.5], [0.5, -2.5]], float)
    y = np.array([1, 1, 1, -1, -1, -1])
    return Workspace(Dataset(X, y), **kwargs)


def line_residual(item, w, b) -> float:
    """Largest |w·p + b| / ||w|| over the drawn vertices of a line item."""
    P = curve_xy(item)
    return float(np.max(np.abs(P @ w + b)) / np.linalg.norm(w))


def legend_texts(canvas) -> list[str]:
    """The legend's row texts, in order."""
    return [label.text for _, label in canvas.legend.items]
