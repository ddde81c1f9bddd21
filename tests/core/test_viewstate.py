"""The view state: layer switches, the view rectangle and the views, each announced once."""

from __future__ import annotations

import math

import numpy as np
import pytest

from perceptron_gui.core import Workspace, io
from perceptron_gui.core.viewstate import ViewState, check_rect


def _recorder(signal) -> list:
    calls: list = []
    signal.connect(lambda *args: calls.append(args))
    return calls


def test_layers_announce_only_what_changed():
    state = ViewState({"regions": True, "radius": False})
    calls = _recorder(state.events.layers_changed)
    assert state.set_layers(regions=True, radius=True) == {"radius": True}
    assert calls == [({"radius": True},)]
    assert state.set_layers(radius=True) == {} and len(calls) == 1
    assert state.layer("radius") and state.switches["radius"]
    with pytest.raises(TypeError):
        state.switches["radius"] = False  # read-only: only set_layers writes


def test_an_unknown_layer_changes_nothing():
    state = ViewState({"regions": True})
    calls = _recorder(state.events.layers_changed)
    with pytest.raises(ValueError, match="unknown layer"):
        state.set_layers(regions=False, moon=True)
    assert state.layers() == {"regions": True} and calls == []
    with pytest.raises(ValueError, match="unknown layer"):
        state.layer("moon")


def test_declared_layers_keep_the_values_already_set():
    state = ViewState({"regions": False})
    state.declare_layers({"regions": True, "legend": True})
    assert state.layers() == {"regions": False, "legend": True}
    assert state.defaults() == {"regions": False, "legend": True}


def test_the_rectangle_is_checked_and_announced_once():
    state = ViewState()
    calls = _recorder(state.events.rect_changed)
    assert state.set_rect(((0, 1), (2, 3)))
    assert state.rect == (0.0, 1.0, 2.0, 3.0) and calls == [((0.0, 1.0, 2.0, 3.0),)]
    assert not state.set_rect([0, 1, 2, 3]) and len(calls) == 1
    for bad in ((1, 0, 0, 1), (0, math.inf, 0, 1), (0, 1), ("a", 1, 2, 3), 5):
        with pytest.raises(ValueError):
            state.set_rect(bad)
    assert state.rect == (0.0, 1.0, 2.0, 3.0)
    assert state.set_rect(None) and state.rect is None
    assert check_rect(None) is None


def test_views_shown_announced_on_change():
    state = ViewState()
    calls = _recorder(state.events.views_changed)
    assert state.set_views_shown(True) and not state.set_views_shown(True)
    assert calls == [(True,)] and state.views_shown
    assert state.to_dict() == {"layers": {}, "rect": None, "views": True}


def test_the_workspace_view_is_the_view_states_rectangle_in_files():
    ws = Workspace()
    calls = _recorder(ws.view_state.events.rect_changed)
    ws.view = (-3.5, 3.25, -2.0, 2.0000000000000004)
    assert ws.view_state.rect == ws.view and len(calls) == 1
    loaded = io.workspace_from_json(io.workspace_to_json(ws))
    assert loaded.view_state.rect == (-3.5, 3.25, -2.0, 2.0000000000000004)
    ws.view_state.set_rect((0, 1, 0, 1))
    assert '"view": [0.0, 1.0, 0.0, 1.0]' in io.workspace_to_json(ws)
    ws.view = (1, 0, 0, 1)  # not a rectangle: a display hint, dropped
    assert ws.view is None and '"view": null' in io.workspace_to_json(ws)


def test_the_hovered_sample_is_announced_once_and_not_saved():
    state = ViewState()
    seen = []
    state.events.hovered_changed.connect(seen.append)
    assert state.hovered is None
    assert state.set_hovered(3) is True and state.hovered == 3
    assert state.set_hovered(np.int64(3)) is False  # the same sample: no announcement
    assert state.set_hovered(None) is True and state.hovered is None
    assert seen == [3, None]
    state.set_hovered(5)
    assert "hovered" not in state.to_dict()  # it follows the pointer, not the file
