"""The window has the app's icon: two classes of points in the app's colours."""

import gc
import sys

import shiboken6
from PySide6 import QtGui, QtWidgets

from perceptron_gui import app
from perceptron_gui.ui import style
from perceptron_gui.ui.icon import ICON_FILE, app_icon
from perceptron_gui.ui.main_window import MainWindow


def _has_colour(image: QtGui.QImage, colour: str) -> bool:
    target = QtGui.QColor(colour)
    return any(
        image.pixelColor(x, y).rgb() == target.rgb()
        for y in range(image.height())
        for x in range(image.width())
    )


def _address(widget: QtWidgets.QWidget) -> int:
    return shiboken6.getCppPointer(widget)[0]


def test_icon_draws_both_classes(qapp):
    assert ICON_FILE.is_file()
    icon = app_icon()
    assert not icon.isNull()
    image = icon.pixmap(64, 64).toImage()
    assert image.width() == 64
    p = style.current()
    assert _has_colour(image, p.pos_color) and _has_colour(image, p.neg_color)


def test_the_window_that_main_opens_has_the_icon(qapp, monkeypatch):
    seen = []
    earlier = {_address(w) for w in QtWidgets.QApplication.topLevelWidgets()}  # others' windows

    def inspect_instead_of_looping(_app=None):
        windows = [w for w in QtWidgets.QApplication.topLevelWidgets()
                   if isinstance(w, MainWindow) and w.isVisible() and _address(w) not in earlier]
        seen.extend(not w.windowIcon().isNull() for w in windows)
        for window in windows:
            window.files.force_close = True
        return 0

    monkeypatch.setattr(QtWidgets.QApplication, "exec", inspect_instead_of_looping)
    monkeypatch.setattr(sys, "excepthook", sys.excepthook)  # main installs the app's own
    collecting, before = [], gc.isenabled()
    monkeypatch.setattr(QtWidgets.QApplication, "exec", lambda _app=None: (
        collecting.append(gc.isenabled()), inspect_instead_of_looping())[1])
    assert app.main([]) == 0
    assert seen == [True]
    # no collection until the first frame; as it was however main ends (here before it)
    assert collecting == [False] and gc.isenabled() == before
