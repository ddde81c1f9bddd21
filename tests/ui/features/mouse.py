"""A mouse drag on a plot as a hand makes it: hover, press, moves, release."""

from __future__ import annotations

import pyqtgraph as pg
from PySide6 import QtCore, QtGui, QtWidgets


def drag(plot, start, end, steps=6):
    """A left drag on ``plot`` (the canvas or any PlotWidget) from the data point
    ``start`` to ``end``.

    The pointer hovers over ``start`` first (pyqtgraph picks the dragged item
    from the last hover), and pyqtgraph's limit of one move per 10 ms is off
    for the drag, so every move counts however fast the test sends them.
    """
    vb, vp = plot.getViewBox(), plot.viewport()

    def at(x, y):
        return QtCore.QPointF(plot.mapFromScene(vb.mapViewToScene(QtCore.QPointF(x, y))))

    a, b = at(*start), at(*end)
    left, none = QtCore.Qt.MouseButton.LeftButton, QtCore.Qt.MouseButton.NoButton

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
