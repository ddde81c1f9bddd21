"""A learner, a view and a layer from outside the package plug in by their recipes alone.

``tests/extensions.py`` defines a nearest-centroid learner, a view and a
canvas layer, and registers them through the public calls of
docs/architecture.md.  Here a window is made with the three present, and
used; then they are withdrawn and the window made after has none of them.
The slow test runs the test modules whose expectations read the registries
with the three registered from the start (``pytest -p tests.extensions``):
none of them may spell out the list of learners, views or layers.
"""

from __future__ import annotations

import os
import subprocess
import sys
from pathlib import Path

import numpy as np
import pytest

from perceptron_gui.core import generators
from perceptron_gui.core.commands import EditData, SetLayers
from perceptron_gui.core.dataset import ReplaceAll
from perceptron_gui.core.learners import registry
from perceptron_gui.core.registry import Registry
from perceptron_gui.core.viewstate import LAYER_SWITCHES
from perceptron_gui.ui import modes, views
from perceptron_gui.ui.main_window import MainWindow
from perceptron_gui.ui.views import VIEW_TYPES
from perceptron_gui.ui.widgets.canvas.layers import LAYER_TYPES, LAYERS
from tests import extensions

ROOT = Path(__file__).resolve().parents[2]
#: The tests whose cases or messages come from a registry: whole modules where
#: they are quick, the cases that once spelled out a list where the module is long.
READ_THE_REGISTRIES = (
    "tests/core/test_learner_registry_files.py", "tests/core/test_params.py",
    *(f"tests/test_readme.py::test_readme_{case}" for case in (
        "lists_every_learner_of_the_registry", "lists_every_view", "names_every_mode")),
    *(f"tests/ui/widgets/test_learner_panel.py::test_{case}" for case in (
        "each_control_has_the_core_range", "values_at_the_ends_of_the_range_are_shown_exactly",
        "a_learner_s_form_is_built_when_it_is_first_chosen")),
    "tests/ui/canvas/layers/test_layer_files.py",
    *(f"tests/ui/canvas/test_lazy_layers.py::test_{case}" for case in (
        "an_empty_canvas_makes_only_what_draws_without_data",
        "a_shown_canvas_makes_its_layers_in_idle_time")),
    "tests/core/test_demos.py::test_malformed_demo_raises_a_precise_demo_error",
    "tests/test_viewer.py::test_show_refuses_a_bad_learner",
    "tests/ui/features/test_demo_player.py::test_layer_names_agree_with_the_canvas",
)


@pytest.fixture
def extended():
    added = extensions.register_all()
    yield added
    extensions.unregister_all()


def test_a_window_with_a_learner_a_view_and_a_layer_from_outside(qtbot, extended):
    spec, view_cls, layer_cls = extended
    window = MainWindow()
    qtbot.addWidget(window)
    data = generators.GENERATORS["separable"](n=30, seed=4)
    window.dispatch(EditData(ReplaceAll.from_dataset(data, "data")))

    panel = window.learner_panel
    index = panel.selector.findData(spec.key)
    assert index >= 0 and panel.selector.itemText(index) == "Nearest centroid"
    panel.selector.setCurrentIndex(index)
    ws = window.workspace
    assert ws.learner_name == spec.key and ws.has_model
    assert np.mean(ws.learner.predict(data.X) == data.y) > 0.9

    window.settle()  # a hidden view redraws when asked
    assert window.views.view("count").label.text() == "30 points"
    action = window.actions["show_centroids"]
    assert action in window.menus["view"].actions() and not action.isChecked()
    window.dispatch(SetLayers({"centroids": True}))
    window.canvas.refresh()
    crosses = window.canvas.layer("centroids").items["crosses"]
    assert crosses.isVisible() and len(crosses.getData()[0]) == 2
    assert action.isChecked()


def test_withdrawn_they_leave_nothing_behind(qtbot):
    before = (list(registry.REGISTRY), list(VIEW_TYPES), list(LAYER_TYPES), dict(LAYERS),
              list(LAYER_SWITCHES))
    extensions.register_all()
    extensions.unregister_all()
    assert (list(registry.REGISTRY), list(VIEW_TYPES), list(LAYER_TYPES), dict(LAYERS),
            list(LAYER_SWITCHES)) == before
    window = MainWindow()
    qtbot.addWidget(window)
    assert "show_centroids" not in window.actions and "count" not in window.views.views()
    assert window.learner_panel.selector.findData("nearest_centroid") < 0


def test_the_qt_layers_registries_are_the_same_type():
    for registered in (VIEW_TYPES, LAYER_TYPES, modes.MODE_TYPES):
        assert isinstance(registered, Registry)
    assert views.registry_changed is VIEW_TYPES.changed
    heard = []
    modes.MODE_TYPES.changed.connect(heard.append)
    try:
        class Quiet(modes.Mode):
            name = "quiet"

        modes.register_mode(Quiet)
        modes.unregister_mode("quiet")
    finally:
        modes.MODE_TYPES.changed.disconnect(heard.append)
    assert heard == ["quiet", "quiet"]  # the mode registry announces its changes too


@pytest.mark.slow
def test_the_registry_reading_tests_pass_with_the_three_registered():
    env = {**os.environ, "QT_QPA_PLATFORM": "offscreen"}
    result = subprocess.run(
        [sys.executable, "-m", "pytest", "-q", "-p", "no:cacheprovider", "-p", "no:xdist",
         "-p", "tests.extensions", *READ_THE_REGISTRIES],
        cwd=ROOT, env=env, capture_output=True, text=True, timeout=1800)
    assert result.returncode == 0, result.stdout[-4000:]
