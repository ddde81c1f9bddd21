"""A mouse drag on the canvas as a hand makes it: hover, press, moves, release."""

from __future__ import annotations

import pyqtgraph as pg
from PySide6 import QtCore, QtGui, QtWidgets


def drag(canvas, start, end, steps=6):
    """A left drag on ``canvas`` from the data point ``start`` to ``end``.

    The pointer hovers over ``start`` first (pyqtgraph picks the dragged item
    from the last hover), and pyqtgraph's limit of one move per 10 ms is off
    for the drag, so every move counts however fast the test sends them.
    """
    a, b = canvas.data_to_widget(*start), canvas.data_to_widget(*end)
    left, none = QtCore.Qt.MouseButton.LeftButton, QtCore.Qt.MouseButton.NoButton
    vp = canvas.viewport()

    def send(kind, pos, button, buttons):
        ev = QtGui.QMouseEvent(kind, pos, vp.mapToGlobal(pos), button, buttons,
                               QtCore.Qt.KeyboardModifier.NoModifier)
        QtWidgets.QApplication.sendEvent(vp, ev)

    old = pg.getConfigOption("mouseRateLimit")
    pg.setConfigOption("mouseRateLimit", -1)
    try:
        send(QtCore.QEvent.Type.MouseMove, a, none, none)
        send(QtCore.QEvent.Type.MouseButtonPress, a, left, left)
        for k in range(1, steps + 1):
            send(QtCore.QEvent.Type.MouseMove, a + (b - a) * (k / steps), none, left)
        send(QtCore.QEvent.Type.MouseButtonRelease, b, left, none)
    finally:
        pg.setConfigOption("mouseRateLimit", old)
