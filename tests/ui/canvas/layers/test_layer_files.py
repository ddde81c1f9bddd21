"""Each layer file defines one layer class, registered, owning its switches and legend entries."""

from __future__ import annotations

import importlib
import inspect
import pkgutil

import pytest

from perceptron_gui.core import Workspace, datasets
from perceptron_gui.ui.widgets.canvas import LAYERS, Canvas, layers
from perceptron_gui.ui.widgets.canvas.layers import LAYER_TYPES, Layer, switch_names

NOT_LAYERS = {"base", "draw"}  # the base class, and helpers the layers share
MODULES = sorted(m.name for m in pkgutil.iter_modules(layers.__path__)
                 if m.name not in NOT_LAYERS)


@pytest.mark.parametrize("name", MODULES)
def test_each_layer_file_defines_one_registered_layer(name):
    module = importlib.import_module(f"{layers.__name__}.{name}")
    classes = [c for _, c in inspect.getmembers(module, inspect.isclass)
               if issubclass(c, Layer) and c is not Layer and c.__module__ == module.__name__]
    assert len(classes) == 1, classes
    (cls,) = classes
    assert LAYER_TYPES[cls.name] is cls
    assert cls.redraw_on in ("never", "data", "weights", "event")


def test_layers_switches_are_the_layers_own():
    names = [n for t in LAYER_TYPES.values() for n in switch_names(t)]
    assert len(names) == len(set(names))
    assert list(LAYERS) == names + ["legend"]


def test_every_legend_row_comes_from_one_layer(qtbot):
    ws = Workspace(datasets.separable(20, seed=0))
    canvas = Canvas(ws)
    qtbot.addWidget(canvas)
    canvas.set_visible_layers(**{name: True for name in LAYERS})
    ws.step_update()
    ws.step_update()  # the run's rows (update, previous boundary) list once it drew them
    canvas.refresh()
    owners = {}
    frame = canvas._frame()
    for layer in canvas._layers:
        for entry in layer.legend_entries(frame):
            assert entry.name not in owners, (entry.name, owners.get(entry.name))
            owners[entry.name] = layer.name
            assert entry.sample() is not None
    assert set(owners) >= {"class_0", "class_1", "boundary", "w", "delta", "ghost", "examined",
                           "mistake", "band", "mm", "radius", "lda"}
    labels = [label.text for _, label in canvas.legend.items]
    shown = [e.text for layer in canvas._layers if layer.showing(frame)
             for e in layer.legend_entries(frame)]
    assert labels == shown and len(labels) < len(owners)
    ws.step_update()
    canvas.refresh()
    labels = [label.text for _, label in canvas.legend.items]
    assert {"update η·y·x", "examined sample", "decision boundary",
            "weight vector w"} <= set(labels)
