"""Adding a canvas layer: one class in a test file, one ``register_layer`` call.

The layer below (a cross at the mean of the points) is defined here alone, as
docs/architecture.md, "A canvas layer", says: registered, its switch is known
to the view state, a window made after has its View menu entry, whose toggle
is a command that goes through the view state to the canvas, and a demo can
name it.  Unregistered, it and its switch are gone.
"""

from __future__ import annotations

import json

import numpy as np
import pyqtgraph as pg
import pytest

from perceptron_gui.core import generators
from perceptron_gui.core.commands import EditData, SetLayers
from perceptron_gui.core.dataset import ReplaceAll
from perceptron_gui.core.demos import DEMO_DIR, DemoError, parse_demo
from perceptron_gui.core.viewstate import LAYER_SWITCHES, LayerSwitch
from perceptron_gui.ui.main_window import MainWindow
from perceptron_gui.ui.widgets.canvas import LAYERS
from perceptron_gui.ui.widgets.canvas.layers import (
    LAYER_TYPES,
    Layer,
    register_layer,
    unregister_layer,
)


class MeanLayer(Layer):
    """A cross at the mean of the points (off at first)."""

    name = "mean"
    switches = (LayerSwitch("mean", False, "Mean of the &points"),)
    item_names = ("cross",)

    def create(self, view_box) -> None:
        super().create(view_box)
        self.add("cross", pg.ScatterPlotItem(symbol="+", size=18), z=30)

    def update(self, frame) -> None:
        cross = self.items["cross"]
        X = frame.workspace.dataset.X
        if not (frame.switches["mean"] and len(X)):
            cross.setVisible(False)
            return
        mean = X.mean(axis=0)
        cross.setData([mean[0]], [mean[1]])
        cross.setVisible(True)


def _demo(layers: dict) -> str:
    """The shipped demo "first-updates" with ``layers`` as its layers."""
    demo = json.loads((DEMO_DIR / "first-updates.json").read_text(encoding="utf-8"))
    return json.dumps({**demo, "layers": layers})


@pytest.fixture
def mean_layer():
    register_layer(MeanLayer)
    yield MeanLayer
    if "mean" in LAYER_TYPES:
        unregister_layer("mean")


def test_a_layer_defined_here_gets_a_menu_entry_a_switch_and_a_demo_name(mean_layer, qtbot):
    assert LAYER_SWITCHES["mean"].default is False and LAYERS["mean"] is False
    assert list(LAYERS)[-1] == "legend"  # the legend's switch stays last
    window = MainWindow()
    qtbot.addWidget(window)
    action = window.actions["show_mean"]
    assert action in window.menus["view"].actions()
    assert action.text() == "Mean of the &points" and not action.isChecked()
    assert window.view_state.layer("mean") is False
    data = generators.GENERATORS["separable"](n=20, seed=2)
    window.dispatch(EditData(ReplaceAll.from_dataset(data, "data")))
    heard: list = []
    window.commandDispatched.connect(heard.append)

    action.trigger()  # the menu's toggle is a command through the view state

    assert heard == [SetLayers({"mean": True})]
    assert window.view_state.layer("mean") is True
    window.canvas.refresh()
    cross = window.canvas.layer("mean").items["cross"]
    assert cross.isVisible()
    x, y = cross.getData()
    assert np.allclose([x[0], y[0]], data.X.mean(axis=0))
    window.dispatch(SetLayers({"mean": False}))  # and back: the check mark follows
    window.canvas.refresh()
    assert not action.isChecked() and not cross.isVisible()

    demo = parse_demo(_demo({"mean": True}))
    assert demo.layers == {"mean": True}


def test_unregistered_its_switch_menu_entry_and_demo_name_are_gone(mean_layer, qtbot):
    assert unregister_layer("mean") is MeanLayer
    assert "mean" not in LAYER_SWITCHES and "mean" not in LAYERS
    with pytest.raises(DemoError, match="unknown layer 'mean'"):
        parse_demo(_demo({"mean": True}))
    window = MainWindow()
    qtbot.addWidget(window)
    assert "show_mean" not in window.actions
    with pytest.raises(KeyError):
        window.canvas.layer("mean")


def test_a_clash_is_refused_and_changes_nothing(mean_layer):
    class Twin(Layer):
        name = "twin"
        switches = (LayerSwitch("twin", True), "mean")

    before = (list(LAYER_TYPES), dict(LAYERS), dict(LAYER_SWITCHES))
    with pytest.raises(ValueError, match="declared twice"):
        register_layer(Twin)

    class Other(Layer):
        name = "regions_again"
        switches = (LayerSwitch("regions", False),)  # the boundary layer's, at another default

    with pytest.raises(ValueError, match="declared twice"):
        register_layer(Other)

    class Renamed(Layer):
        name = "mean"

    with pytest.raises(ValueError, match="a layer named 'mean'"):
        register_layer(Renamed)
    assert (list(LAYER_TYPES), dict(LAYERS), dict(LAYER_SWITCHES)) == before
