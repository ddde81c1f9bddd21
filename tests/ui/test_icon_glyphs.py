"""The toolbar's own glyphs follow the colour scheme: the Epoch icon shows on dark too."""

from __future__ import annotations

import numpy as np
import pyqtgraph as pg
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


def _drawn_contrast(button: QtWidgets.QToolButton) -> float:
    """How far the icon's pixels, as drawn, stand from the button's background (lightness).

    The icon is the part of the button left of its text (the tool button draws
    the text beside the icon): a band as wide as the icon size from the left.
    """
    image = button.grab().toImage().convertToFormat(QtGui.QImage.Format.Format_RGBA8888)
    a = np.frombuffer(image.constBits(), np.uint8)[:image.height() * image.bytesPerLine()]
    a = a.reshape(image.height(), image.bytesPerLine() // 4, 4)[..., :3].astype(float)
    light = a.mean(axis=-1)
    band = light[:, : button.iconSize().width() + 4]
    return float(np.percentile(np.abs(band - light[1, 1]), 98))


def test_a_disabled_epoch_icon_is_as_faint_as_the_styles_disabled_icons(qtbot, window):
    bar = window.toolbars["playback"]
    epoch, update = (bar.widgetForAction(window.actions[k]) for k in ("step_epoch", "step"))
    try:
        for scheme in ("dark", "light"):
            window.theme.set_choice(scheme)
            qtbot.waitUntil(lambda: bar.palette() == QtWidgets.QApplication.palette())
            assert not epoch.isEnabled() and not update.isEnabled()  # no data: no run
            assert _drawn_contrast(epoch) <= _drawn_contrast(update) + 12, scheme
    finally:
        window.theme.set_choice("system")


def test_the_empty_canvas_hint_reads_in_both_schemes(qtbot, window):
    hint = window.canvas.layer("hint").hint
    try:
        for scheme in ("dark", "light"):
            window.theme.set_choice(scheme)
            window.canvas.refresh()
            assert hint.isVisible() and hint.toPlainText()  # no data: the hint says what to do
            ink = hint.textItem.defaultTextColor()
            back = pg.mkColor(style.current().background)
            a = ink.alphaF()
            seen = QtGui.QColor.fromRgbF(*(a * f + (1 - a) * b for f, b in zip(
                ink.getRgbF()[:3], back.getRgbF()[:3], strict=True)))
            assert style.contrast(seen.name(), back.name()) >= 4.5, scheme
    finally:
        window.theme.set_choice("system")
