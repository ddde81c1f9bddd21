"""The demo player speaks commands: its layers, view and long runs go through window.dispatch."""

from __future__ import annotations

import json

import numpy as np

from perceptron_gui.core import dataset as ds
from perceptron_gui.core import demos
from perceptron_gui.core.commands import EditData, SetLayers, SetViewRect
from perceptron_gui.ui.window_api import action_id

POINTS = [{"x": 1.0, "y": 2.0, "label": 1}, {"x": -1.0, "y": -1.5, "label": -1},
          {"x": 2.0, "y": 0.5, "label": 1}, {"x": -2.0, "y": 0.25, "label": -1}]


def _edits_demo() -> demos.Demo:
    steps = [{"action": "flip", "index": 0}, {"action": "relabel", "index": [1, 2], "label": 1},
             {"action": "hide", "layer": ["radius", "regions"]},
             {"action": "delete", "index": 3}, {"action": "step_epoch"}]
    return demos.parse_demo(json.dumps({
        "format": "perceptron-gui-demo", "version": 1, "title": "Edits", "description": "",
        "data": {"points": POINTS}, "learner": "primal",
        "steps": [{**s, "caption": f"step {i}"} for i, s in enumerate(steps)]}))


def test_a_demo_shows_its_layers_and_view_through_dispatch(window):
    heard: list = []
    window.commandDispatched.connect(heard.append)
    window.view_state.set_layers(max_margin=True)  # the user's own choice
    before = window.view_state.layers()
    window.canvas.set_view_rect((-1.0, 1.0), (-1.0, 1.0))
    view = window.view_state.rect
    ui = window.demos
    assert ui.play(_edits_demo())
    # the start: the demo's layers over the defaults, the data framed
    assert SetLayers({"max_margin": False}) in heard and SetViewRect(None) in heard
    assert not window.actions["show_max_margin"].isChecked()
    ui.goto(3)
    assert SetLayers({"radius": False, "regions": False}) in heard[-2:]
    assert not window.actions["show_radius"].isChecked()
    assert not window.canvas.layer_visible("regions")
    ui.goto(5)
    ws = window.workspace
    np.testing.assert_array_equal(ws.dataset.y, [-1, 1, 1])
    assert ws.dataset.n == 3 and ws.step_count == 3
    assert window.undo_stack.count() == 0  # a demo's edits are not the user's
    ui.stop()
    assert window.view_state.layers() == before and window.actions["show_max_margin"].isChecked()
    assert window.view_state.rect == view
    assert heard[-1] == SetViewRect(view)


def test_an_edit_during_a_demo_is_refused_until_the_user_takes_its_data(window):
    ui = window.demos
    ui.play(_edits_demo())
    ui.goto(2)
    assert not window.dispatch(EditData(ds.AddPoints([0.0, 0.0], 1)))  # a stray gesture
    assert ui.playing and window.workspace.dataset.n == 4 and window.undo_stack.count() == 0
    window.actions[action_id("actionDemoKeep")].trigger()  # Demos > Edit the demo's data
    assert window.dispatch(EditData(ds.AddPoints([0.0, 0.0], 1)))
    assert not ui.playing and window.workspace.dataset.n == 5
    assert window.undo_stack.count() == 2  # the demo, then the edit
    window.undo_stack.undo()  # the edit: the demo's data at step 2
    np.testing.assert_array_equal(window.workspace.dataset.y, [-1, 1, 1, -1])
    window.undo_stack.undo()  # the demo: the user's (empty) work
    assert window.workspace.dataset.n == 0
