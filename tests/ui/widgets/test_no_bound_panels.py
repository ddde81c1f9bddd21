"""The readout panel, the essentials and the plots say plainly when Novikoff's bound is not
about the run (hinge, logistic, batch), from the learner's capabilities."""

from __future__ import annotations

import pytest
from PySide6 import QtWidgets

from perceptron_gui.core import generators
from perceptron_gui.core.learners.registry import Capabilities
from perceptron_gui.core.readouts import no_bound_reason
from perceptron_gui.ui.views.plots.bound import NO_BOUND


@pytest.mark.parametrize(("params", "headline"), [
    ({"loss": "hinge"}, "No Novikoff bound: the hinge loss"),
    ({"loss": "log_loss"}, "No Novikoff bound: the logistic loss"),
    ({"order": "batch"}, "No Novikoff bound: batch gradient descent"),
])
def test_the_panels_say_the_bound_does_not_apply(window, params, headline):
    ws = window.workspace
    ws.set_dataset(generators.GENERATORS["separable"](n=24, seed=5, margin=0.3))
    ws.set_params(**params)
    ws.step()
    ws.step()
    window.side_panel.set_expanded_state({"now": True, "details": True})
    window.readouts.refresh()
    values = window.readouts.values()
    assert values["bound"] == no_bound_reason(ws.capabilities, ws.params)
    assert "does not apply" in values["bound"]
    assert not {"R", "gamma", "note"} & set(values)  # the bound's quantities are not shown
    label = window.readouts.findChild(QtWidgets.QLabel, "readoutLabel_mistakes")
    assert label.text() == "Updates this epoch"  # the steps that moved w: not mistakes
    assert values["update"] == ws.readouts().last_update
    window.essentials.refresh()
    assert window.essentials.texts()["bound"] == headline
    assert window.essentials.texts()["update"] == ws.readouts().last_update
    window.show_views(True)
    plots = window.plots
    plots.refresh()
    window.settle()
    assert plots.proof_text == values["bound"]
    note = plots.part("bound").bound_note
    assert note.isVisible() and note.toPlainText() == NO_BOUND
    assert "Updates k" in plots.part("bound").bound_plot.getPlotItem().titleLabel.text
    bottom = plots.part("bound").bound_plot.getPlotItem().getAxis("bottom").labelText
    assert bottom == ("step (passes over the data)" if params.get("order") == "batch"
                      else "step (samples examined)")
    assert not window.canvas.layer("radius").items["radius_circle"].isVisible()


def test_the_perceptron_keeps_its_bound_rows(window):
    ws = window.workspace
    ws.set_dataset(generators.GENERATORS["separable"](n=24, seed=5, margin=0.3))
    ws.step_update()
    window.side_panel.set_expanded_state({"details": True})
    window.readouts.refresh()
    values = window.readouts.values()
    assert {"R", "gamma", "bound"} <= set(values)
    label = window.readouts.findChild(QtWidgets.QLabel, "readoutLabel_mistakes")
    assert label.text() == "Mistakes this epoch"
    assert values["bound"].startswith("k = 1 ≤ (R/γ)² = ")
    window.essentials.refresh()
    assert window.essentials.texts()["bound"].startswith("k = 1 ≤")


def test_the_headline_follows_the_capabilities_not_the_names():
    caps = Capabilities(steps=True, novikoff=True)
    assert no_bound_reason(caps, {"loss": "hinge"}, short=True) == ""
    assert NO_BOUND == "Novikoff's bound does not apply to this run"
