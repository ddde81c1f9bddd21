"""The seam for views: a view defined here alone, registered with one call, is a full view.

It gets a tab in the views area of a window already open (and of a window made
after), follows presenter mode at presenter sizes, and restyles in both colour
schemes through its theme hook; unregistered, its tab goes.  Nothing in the
package is touched: this file follows docs/architecture.md, "Adding a view".
"""

from __future__ import annotations

import numpy as np
import pyqtgraph as pg
import pytest
from PySide6 import QtWidgets

from perceptron_gui.core import generators
from perceptron_gui.core.dataset import ReplaceAll
from perceptron_gui.ui import style
from perceptron_gui.ui.views import VIEW_TYPES, View, register_view, unregister_view


class WeightNormView(View):
    """‖w‖ after each step of the run: one curve, one point per step seen."""

    name = "weight_norm"
    title = "‖w‖ per step"

    def __init__(self, workspace, parent=None):
        super().__init__(workspace, parent)
        self.norms: dict[int, float] = {}  # step -> ‖w‖ after it
        self.themes: list = []  # the palettes the theme hook was given
        self.plot = pg.PlotWidget(self)
        self.curve = self.plot.plot(symbol="o")
        box = QtWidgets.QVBoxLayout(self)
        box.setContentsMargins(0, 0, 0, 0)
        box.addWidget(self.plot)
        self.restyle()

    def refresh(self) -> None:
        ws = self.workspace
        if ws.step_count == 0:
            self.norms.clear()  # a new run starts at w = 0
        w = ws.readouts().w if ws.running else None
        if w is not None:
            self.norms[ws.step_count] = float(np.linalg.norm(w))
        steps = sorted(self.norms)
        self.curve.setData(steps, [self.norms[t] for t in steps])

    def restyle(self) -> None:
        palette = style.current()
        self.plot.setBackground(palette.background)
        self.curve.setPen(pg.mkPen(palette.boundary_color, width=self.scale.line))
        self.refresh()

    def apply_theme(self, palette) -> None:
        self.themes.append(palette)
        super().apply_theme(palette)


@pytest.fixture
def registered():
    """The view registered for one test, whatever happens in it."""
    register_view(WeightNormView)
    yield WeightNormView
    if WeightNormView.name in VIEW_TYPES:
        unregister_view(WeightNormView.name)


@pytest.fixture
def win(qtbot):
    """A shown window, given back to the system's scheme as it closes (palettes are global)."""
    from perceptron_gui.ui.main_window import MainWindow

    window = MainWindow()
    qtbot.addWidget(window, before_close_func=lambda w: w.theme.set_choice("system"))
    window.resize(1280, 800)
    window.show()
    qtbot.waitExposed(window)
    return window


def _tabs(window) -> list[str]:
    return [window.views.tabText(i) for i in range(window.views.count())]


def test_a_registered_view_is_a_tab_follows_presenter_mode_and_both_schemes(win, qtbot):
    assert "‖w‖ per step" not in _tabs(win)
    register_view(WeightNormView)  # the one call
    try:
        view = win.views.view("weight_norm")
        assert isinstance(view, WeightNormView)
        assert _tabs(win) == ["Live plots", "Losses", "Weight space", "‖w‖ per step"]
        assert win.views.widget(win.views.count() - 1) is view

        # it draws the run, through its subscriptions
        win.push_edit(ReplaceAll.from_dataset(generators.GENERATORS["blobs"](n=40, seed=1)))
        ws = win.workspace
        for _ in range(3):
            ws.step_update()
        qtbot.waitUntil(lambda: ws.step_count in view.norms)
        assert view.norms[ws.step_count] == pytest.approx(np.linalg.norm(ws.readouts().w))
        x, y = view.curve.getData()
        assert x[-1] == ws.step_count and y[-1] == view.norms[ws.step_count]

        # presenter mode: presenter sizes, normal ones again after
        win.presenter.set_active(True)
        assert view.scale == style.PRESENTER
        assert view.curve.opts["pen"].widthF() == style.PRESENTER.line
        win.presenter.set_active(False)
        assert view.scale == style.NORMAL
        assert view.curve.opts["pen"].widthF() == style.NORMAL.line

        # both colour schemes, through the theme hook
        win.theme.set_choice("dark")
        assert view.themes[-1] is style.DARK
        assert view.plot.backgroundBrush().color() == pg.mkColor(style.DARK.background)
        assert view.curve.opts["pen"].color() == pg.mkColor(style.DARK.boundary_color)
        win.theme.set_choice("light")
        assert view.themes[-1] is style.LIGHT
        assert view.plot.backgroundBrush().color() == pg.mkColor(style.LIGHT.background)
        assert view.curve.opts["pen"].color() == pg.mkColor(style.LIGHT.boundary_color)

        # in presenter mode the scheme keeps presenter sizes
        win.presenter.set_active(True)
        win.theme.set_choice("dark")
        assert view.themes[-1] is style.DARK and view.scale == style.PRESENTER
        assert view.curve.opts["pen"].widthF() == style.PRESENTER.line
        win.presenter.set_active(False)
    finally:
        unregister_view(WeightNormView.name)
    assert "weight_norm" not in VIEW_TYPES
    assert _tabs(win) == ["Live plots", "Losses", "Weight space"]
    with pytest.raises(KeyError):
        win.views.view("weight_norm")


def test_a_window_made_after_registering_has_the_tab(registered, qtbot):
    from perceptron_gui.ui.main_window import MainWindow

    window = MainWindow()
    qtbot.addWidget(window)
    assert _tabs(window) == ["Live plots", "Losses", "Weight space", "‖w‖ per step"]
    assert window.views.view("weight_norm").scale == style.NORMAL


def test_a_view_enters_presenter_mode_at_presenter_sizes_when_added_during_it(win):
    win.presenter.set_active(True)
    register_view(WeightNormView)
    try:
        assert win.views.view("weight_norm").scale == style.PRESENTER
    finally:
        unregister_view(WeightNormView.name)
        win.presenter.set_active(False)


def test_registering_checks_the_class():
    class Nameless(View):
        pass

    class Clash(View):
        name = "plots"

    with pytest.raises(ValueError, match="no name"):
        register_view(Nameless)
    with pytest.raises(ValueError, match="registered already"):
        register_view(Clash)
    with pytest.raises(TypeError):
        register_view(QtWidgets.QWidget)
    with pytest.raises(KeyError):
        unregister_view("no such view")
