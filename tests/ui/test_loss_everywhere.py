"""The loss and the new orders go everywhere a learner parameter goes: the learner panel,
workspace files, undo, the View menu, ``perceptron-gui render``, exports and ``show()``."""

from __future__ import annotations

import json

import numpy as np
import pytest
from PIL import Image
from PySide6 import QtWidgets

from perceptron_gui.app import main
from perceptron_gui.core import Workspace, generators
from perceptron_gui.core.commands import SetParams
from perceptron_gui.core.dataset import AddPoints
from perceptron_gui.core.io import save_workspace
from perceptron_gui.core.io.workspacefile import workspace_from_json, workspace_to_json


def _data():
    return generators.GENERATORS["separable"](n=24, seed=5, margin=0.3)


def test_the_panel_shows_the_loss_and_needs_hides_the_seed(window):
    panel = window.learner_panel
    loss = panel.control("primal", "loss")
    assert isinstance(loss, QtWidgets.QComboBox)
    assert [loss.itemData(i) for i in range(loss.count())] == ["perceptron", "hinge", "log_loss"]
    order = panel.control("primal", "order")
    assert {"uniform", "batch"} <= {order.itemData(i) for i in range(order.count())}
    seed = panel.control("primal", "random_state")
    enabled = {}
    for value in ("cyclic", "random", "uniform", "batch"):
        order.setCurrentIndex(order.findData(value))  # as a person picks it
        assert window.workspace.params["order"] == value
        enabled[value] = seed.isEnabled()
    assert enabled == {"cyclic": False, "random": True, "uniform": True, "batch": False}
    loss.setCurrentIndex(loss.findData("hinge"))
    assert window.workspace.params["loss"] == "hinge"
    window.workspace.set_params(loss="log_loss")  # and the panel follows the workspace
    assert loss.currentData() == "log_loss"


def test_a_data_edit_undone_keeps_the_loss_and_the_run(window):
    ws = window.workspace
    ws.set_dataset(_data())
    window.dispatch(SetParams({"loss": "hinge", "order": "uniform", "random_state": 7}))
    ws.step_epoch()
    before = ws.learner.coef_.copy()
    window.push_edit(AddPoints(np.array([[0.5, 0.5]]), np.array([1])))
    assert ws.dataset.n == 25
    window.undo_stack.undo()
    assert ws.dataset.n == 24 and ws.params["loss"] == "hinge" and ws.params["order"] == "uniform"
    assert ws.step_count in (0, 24)  # the run restarted, or was put back where it was
    ws.seek(24)
    np.testing.assert_array_equal(ws.learner.coef_, before)  # the same seeded run again


def test_workspace_files_keep_the_loss_and_old_files_open_with_the_default():
    ws = Workspace(_data())
    ws.set_params(loss="log_loss", order="batch", eta0=0.25)
    ws.step()
    ws.step()
    text = workspace_to_json(ws)
    back = workspace_from_json(text)
    assert back.params["loss"] == "log_loss" and back.params["order"] == "batch"
    assert back.step_count == 2
    np.testing.assert_array_equal(back.learner.coef_, ws.learner.coef_)
    doc = json.loads(text)
    del doc["params"]["primal"]["loss"]  # a file written before the loss existed
    doc["params"]["primal"]["order"] = "cyclic"
    doc.pop("run", None)
    old = workspace_from_json(json.dumps(doc))
    assert old.params["loss"] == "perceptron" and old.capabilities.novikoff


def test_the_probability_switch_is_in_the_view_menu_only_with_posteriors(window):
    act = window.actions["show_probability"]
    ws = window.workspace
    ws.set_dataset(_data())
    assert not act.isVisible()
    ws.set_params(loss="log_loss")
    assert act.isVisible()
    act.trigger()
    assert window.view_state.layer("probability")
    ws.step_epoch()
    window.canvas.refresh()
    assert window.canvas.layer("probability").items["probability_image"].isVisible()
    ws.set_params(loss="hinge")
    assert not act.isVisible()


@pytest.fixture
def hinge_file(tmp_path):
    ws = Workspace(generators.GENERATORS["overlapping"](n=30, seed=2))
    ws.set_params(loss="hinge", order="batch")
    ws.step()
    path = tmp_path / "hinge.json"
    save_workspace(ws, path)
    return path


def test_render_png_and_gif_of_a_hinge_run(qapp, hinge_file, tmp_path, capsys):
    png, gif = tmp_path / "h.png", tmp_path / "h.gif"
    assert main(["render", str(hinge_file), "-o", str(png), "--size", "480x360",
                 "--steps", "3"]) == 0, capsys.readouterr().err
    assert main(["render", str(hinge_file), "-o", str(gif), "--size", "480x360",
                 "--steps", "4", "--unit", "update"]) == 0, capsys.readouterr().err
    assert "4 frames" in capsys.readouterr().out
    with Image.open(png) as im:
        assert im.size == (480, 360) and len(set(im.convert("RGB").tobytes()[::3])) > 10
    with Image.open(gif) as im:
        assert im.n_frames == 4
        frames = []
        for i in range(im.n_frames):
            im.seek(i)
            frames.append(im.convert("RGB").tobytes())
        assert len(set(frames)) == 4  # every pass of batch descent moves the picture


def test_show_takes_the_loss_as_a_keyword(qapp):
    import perceptron_gui

    X = _data().X
    y = _data().y
    viewer = perceptron_gui.show(X, y, loss="hinge", order="uniform", random_state=3)
    try:
        ws = viewer.workspace
        assert ws.params["loss"] == "hinge" and ws.params["order"] == "uniform"
        assert not ws.capabilities.novikoff
        with pytest.raises(ValueError, match="loss"):
            perceptron_gui.show(X, y, loss="squared")
    finally:
        viewer.window.close()


def test_the_update_log_lists_batch_passes_and_hinge_updates(qtbot):
    from perceptron_gui.ui.widgets.update_log import UpdateLogModel

    ws = Workspace(generators.GENERATORS["overlapping"](n=30, seed=2))
    ws.set_params(order="batch")
    for _ in range(3):
        ws.step()
    model = UpdateLogModel(ws)
    assert model.rowCount() >= 3
    k, step, epoch, sample, label, margin, update = model.row_texts(2)
    assert (k, step, epoch, sample, label, margin) == ("3", "3", "3", "all", "—", "—")
    assert update.startswith("Σ yᵢ·xᵢ over the ") and "cases with zᵢ ≤ 0" in update
    ws.set_params(order="cyclic", loss="hinge")
    ws.step_epoch()
    model.refresh()
    texts = [model.row_texts(r)[-1] for r in range(model.rowCount())]
    assert 0 < len(texts) == ws.learner.n_updates_ < ws.step_count  # the updates only
    assert all(t.startswith("w ← ") for t in texts)
