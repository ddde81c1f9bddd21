"""The window's colour scheme: View ▸ Colour scheme, the system's scheme, persistence, exports."""

from __future__ import annotations

import pyqtgraph as pg
import pytest
from PySide6 import QtCore, QtGui, QtWidgets

from perceptron_gui.core import generators
from perceptron_gui.core.dataset import ReplaceAll
from perceptron_gui.ui import style, theme
from perceptron_gui.ui.features.export.dialogs import SizeDialog

WHITE = QtGui.QColor("#ffffff")
DARK_BG = QtGui.QColor(style.DARK.background)


@pytest.fixture
def win(qtbot):
    """A main window, given back to the system's scheme as it closes (palettes are global)."""
    from perceptron_gui.ui.main_window import MainWindow

    window = MainWindow()
    qtbot.addWidget(window, before_close_func=lambda w: w.theme.set_choice("system"))
    window.resize(1280, 800)
    window.show()
    qtbot.waitExposed(window)
    yield window
    assert style.current() is style.LIGHT


@pytest.fixture
def running(win, qtbot):
    win.push_edit(ReplaceAll.from_dataset(generators.GENERATORS["blobs"](n=40, seed=1)))
    win.workspace.set_learner("primal")
    for _ in range(3):
        win.workspace.step_update()
    win.canvas.refresh()
    return win


def _corner(widget: QtWidgets.QWidget) -> QtGui.QColor:
    """The colour of a pixel near the widget's top-left corner (outside the axes' text)."""
    return widget.grab().toImage().pixelColor(3, 3)


def test_the_view_menu_offers_three_exclusive_checkable_schemes(win):
    menu = win.findChild(QtWidgets.QMenu, "menuColourScheme")
    assert menu is not None and menu.menuAction() in win.menus["view"].actions()
    actions = [a for a in menu.actions() if a.isCheckable()]
    assert [a.objectName() for a in actions] == [
        "actionSchemeSystem", "actionSchemeLight", "actionSchemeDark"]
    assert actions[0].isChecked() and win.theme.choice == "system"
    actions[2].trigger()
    assert actions[2].isChecked() and not actions[0].isChecked()
    assert win.theme.choice == "dark"


def test_switching_to_dark_restyles_canvas_layers_and_plots_and_back(running, qtbot):
    win = running
    canvas, plots = win.canvas, win.plots
    plots.part("bound")  # the plots are built
    boundary = canvas.layer("boundary").items["boundary"]
    light_pen = QtGui.QColor(boundary.opts["pen"].color())
    assert _corner(canvas) == WHITE
    assert plots.part("bound").bound_plot.backgroundBrush().color() == WHITE

    with qtbot.waitSignal(win.theme.changed, timeout=2000) as blocker:
        win.theme.set_choice("dark")
    assert blocker.args == ["dark"]
    assert style.current() is style.DARK
    assert _corner(canvas) == DARK_BG
    assert canvas.backgroundBrush().color() == DARK_BG
    assert boundary.opts["pen"].color() == QtGui.QColor(style.DARK.boundary_color)
    assert boundary.opts["pen"].color() != light_pen
    scatter_pos = canvas.layer("data").items["scatter_0"]
    assert scatter_pos.opts["brush"].color() == QtGui.QColor(style.DARK.pos_color)
    assert plots.part("bound").bound_plot.backgroundBrush().color() == DARK_BG
    assert _corner(plots.part("bound").bound_plot) == DARK_BG
    app = QtWidgets.QApplication.instance()
    assert app.palette().color(QtGui.QPalette.ColorRole.Window).lightness() < 100

    win.theme.set_choice("light")
    assert _corner(canvas) == WHITE
    assert boundary.opts["pen"].color() == light_pen
    assert plots.part("bound").bound_plot.backgroundBrush().color() == WHITE
    assert app.palette().color(QtGui.QPalette.ColorRole.Window).lightness() > 150


def test_follow_system_reacts_to_the_system_scheme(win, qtbot, monkeypatch):
    assert win.theme.choice == "system" and win.theme.scheme == "light"
    hints = QtGui.QGuiApplication.styleHints()
    monkeypatch.setattr(theme, "system_scheme", lambda: "dark")
    with qtbot.waitSignal(win.theme.changed, timeout=2000):
        hints.colorSchemeChanged.emit(QtCore.Qt.ColorScheme.Dark)
    assert win.theme.scheme == "dark" and style.current() is style.DARK
    assert _corner(win.canvas) == DARK_BG
    # the platform draws its dark scheme itself: the application keeps its own palette
    app = QtWidgets.QApplication.instance()
    assert app.palette().color(QtGui.QPalette.ColorRole.Window).lightness() > 150

    win.theme.set_choice("light")  # an explicit choice ignores the system
    monkeypatch.setattr(theme, "system_scheme", lambda: "light")
    hints.colorSchemeChanged.emit(QtCore.Qt.ColorScheme.Light)
    monkeypatch.setattr(theme, "system_scheme", lambda: "dark")
    hints.colorSchemeChanged.emit(QtCore.Qt.ColorScheme.Dark)
    assert win.theme.scheme == "light" and _corner(win.canvas) == WHITE
    monkeypatch.setattr(theme, "system_scheme", lambda: "light")  # for the teardown


def test_the_choice_persists_in_the_settings_and_the_next_window(win, qtbot):
    from perceptron_gui.ui.main_window import MainWindow

    win.theme.set_choice("dark")
    assert QtCore.QSettings().value(theme.SETTINGS_KEY) == "dark"
    second = MainWindow()
    qtbot.addWidget(second)
    assert second.theme.choice == "dark"
    assert second.findChild(QtGui.QAction, "actionSchemeDark").isChecked()
    assert second.canvas.backgroundBrush().color() == DARK_BG
    second.theme.set_choice("system")
    assert QtCore.QSettings().value(theme.SETTINGS_KEY) == "system"


def test_an_unknown_choice_is_refused_and_a_bad_setting_falls_back(win, qtbot):
    from perceptron_gui.ui.main_window import MainWindow

    with pytest.raises(ValueError, match="colour scheme"):
        win.theme.set_choice("sepia")
    QtCore.QSettings().setValue(theme.SETTINGS_KEY, "sepia")
    second = MainWindow()
    qtbot.addWidget(second)
    assert second.theme.choice == "system"


def test_exports_stay_light_when_the_window_is_dark(running, tmp_path):
    win = running
    win.theme.set_choice("dark")
    path = win.exporter.export_canvas(tmp_path / "light.png", (320, 240))
    image = QtGui.QImage(str(path))
    assert image.pixelColor(3, 3) == WHITE
    assert style.current() is style.DARK  # the window stays dark
    assert _corner(win.canvas) == DARK_BG
    dark = win.exporter.export_canvas(tmp_path / "dark.png", (320, 240), palette=style.DARK)
    assert QtGui.QImage(str(dark)).pixelColor(3, 3) == DARK_BG


def test_the_export_dialog_offers_the_window_scheme_unchecked(win, qtbot):
    dialog = SizeDialog((400, 300))
    qtbot.addWidget(dialog)
    box = dialog.findChild(QtWidgets.QCheckBox, "exportWindowScheme")
    assert box is not None and not box.isChecked()


def test_the_canvas_legend_follows_the_scheme(running, qtbot):
    """Its box takes the scheme's background, so its text (the foreground) stays readable."""
    legend = running.canvas.legend
    for scheme, palette in (("dark", style.DARK), ("light", style.LIGHT)):
        running.theme.set_choice(scheme)
        box = legend.brush().color()
        assert (box.red(), box.green(), box.blue()) == pg.mkColor(palette.background).getRgb()[:3]
        text = QtGui.QColor(legend.opts["labelTextColor"])
        assert abs(text.lightness() - box.lightness()) > 100
