"""One scale policy: every large-data cut-off reads ``core.scale``."""

from __future__ import annotations

import ast

import numpy as np

from perceptron_gui.core import Dataset, Workspace, scale
from perceptron_gui.ui.widgets.canvas.layers.data import DataLayer
from perceptron_gui.ui.widgets.canvas.layers.mistakes import MistakesLayer
from tests.package_source import modules, nodes


def test_the_layers_draw_markers_up_to_the_one_cut_off():
    assert DataLayer.marker_max == MistakesLayer.marker_max == scale.LARGE_N


def test_the_workspace_builds_a_switch_in_a_worker_above_the_cut_off(monkeypatch):
    rng = np.random.default_rng(0)
    ws = Workspace(Dataset(rng.normal(size=(12, 2)), np.r_[np.ones(6), -np.ones(6)]))
    ws.defer_expensive = True
    assert ws.request_params(eta0=0.5) is None  # 12 points: at once
    monkeypatch.setattr(scale, "LARGE_N", 11)
    switch = ws.request_params(eta0=0.25)
    assert switch is not None and ws.params["eta0"] == 0.5  # built later, in a worker


def test_no_module_states_the_cut_off_again():
    here = []
    for rel, source in modules().items():
        for node in nodes(source, rel):
            if (isinstance(node, ast.Compare) and len(node.comparators) == 1
                    and isinstance(node.comparators[0], ast.Constant)
                    and node.comparators[0].value == scale.LARGE_N):
                here.append(rel)
            elif (isinstance(node, ast.Assign) and isinstance(node.value, ast.Constant)
                  and node.value.value == scale.LARGE_N
                  and any(isinstance(t, ast.Name) and t.id.endswith(("_N", "_MAX"))
                          for t in node.targets)):
                here.append(rel)
    assert here == ["core/scale.py"]
