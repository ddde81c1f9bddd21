"""File ▸ Open sample data: each sample opens with its learner, parameters, view and words."""

from __future__ import annotations

import pytest
from PySide6 import QtWidgets

from perceptron_gui.core import generators, samples
from perceptron_gui.core.dataset import ReplaceAll


def test_the_submenu_lists_every_sample(qtbot, window):
    menu = window.findChild(QtWidgets.QMenu, "menuSamples")
    assert menu is not None and menu.menuAction() in window.menus["file"].actions()
    assert [a.text() for a in menu.actions()] == samples.names()
    assert all(a.statusTip() == samples.SAMPLES[a.text()].description for a in menu.actions())


@pytest.mark.parametrize("name", samples.names())
def test_each_sample_opens_with_its_learner_view_and_description(qtbot, window, name):
    before = generators.separable(5, seed=4)
    assert window.push_edit(ReplaceAll.from_dataset(before, "before"))
    steps = window.undo_stack.count()
    action = window.findChild(type(window.files.actionOpen), f"actionSample_{name}")
    action.trigger()
    dataset, info = samples.load(name)
    ws = window.workspace
    assert ws.dataset == dataset
    assert ws.learner_name == info.learner
    assert all(ws.params[k] == v for k, v in info.params.items())
    (x0, x1), (y0, y1) = window.canvas.view_rect()
    (a0, a1), (b0, b1) = info.view
    assert x0 <= a0 + 0.5 and x1 >= a1 - 0.5 and y0 <= b0 + 0.5 and y1 >= b1 - 0.5
    message = window.statusBar().currentMessage()
    assert message == f"{info.description} {info.classes_note}"
    # every shipped sample keeps two of its file's classes, and the window says so
    assert info.n_other > 0
    assert message.endswith(f"The window shows two classes: {info.negative} as −1 and "
                            f"{info.positive} as +1; {info.n_other:,} rows of the file's "
                            "other classes left out.")
    assert window.undo_stack.count() == steps + 1  # the data: one undo step
    window.undo_stack.undo()
    assert ws.dataset == before


def test_an_unknown_sample_says_so(qtbot, window):
    assert not window.files.samples.open_sample("nope")
    assert "no sample named 'nope'" in window.statusBar().currentMessage()
    assert window.workspace.dataset.n == 0
