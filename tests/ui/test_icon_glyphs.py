"""The toolbar's own glyphs follow the colour scheme: the Epoch icon shows on dark too."""

from __future__ import annotations

import numpy as np
from PySide6 import QtGui, QtWidgets

from perceptron_gui.ui import style


def _ink_contrast(icon: QtGui.QIcon, background: QtGui.QColor) -> float:
    """The contrast of the icon's most opaque pixels against ``background``."""
    image = icon.pixmap(32, 32).toImage().convertToFormat(QtGui.QImage.Format.Format_RGBA8888)
    a = np.frombuffer(image.constBits(), np.uint8)[:image.height() * image.bytesPerLine()]
    a = a.reshape(image.height(), image.bytesPerLine() // 4, 4)
    ink = a[a[..., 3] > 200]
    assert len(ink) > 10  # something is drawn
    r, g, b = np.median(ink[:, :3], axis=0)
    return style.contrast(QtGui.QColor(int(r), int(g), int(b)).name(), background.name())


def test_the_epoch_icon_contrasts_with_the_toolbar_in_both_schemes(qtbot, window):
    action = window.playback.actionStepEpoch
    bar = window.toolbars["playback"]
    try:
        for scheme in ("dark", "light"):
            window.theme.set_choice(scheme)
            qtbot.waitUntil(lambda: bar.palette() == QtWidgets.QApplication.palette())
            toolbar = bar.palette().color(QtGui.QPalette.ColorRole.Window)
            assert _ink_contrast(action.icon(), toolbar) >= 4.5, scheme
    finally:
        window.theme.set_choice("system")
