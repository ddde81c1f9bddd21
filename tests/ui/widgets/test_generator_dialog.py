"""The "New from generator…" dialog: every generator, its parameters, the preview, the edits."""

from __future__ import annotations

import math

import numpy as np
import pytest
from PySide6 import QtWidgets

from perceptron_gui.core import generators
from perceptron_gui.core.dataset import ReplaceAll
from perceptron_gui.ui.widgets.generator_dialog import GeneratorDialog, open_generator_dialog


@pytest.fixture
def dialog(qtbot, window):
    dlg = GeneratorDialog(window)
    qtbot.addWidget(dlg)
    dlg.show()
    return dlg


def preview_points(dlg):
    xs, ys, labels = [], [], []
    for label, item in dlg._scatter.items():
        x, y = item.getData()
        xs.extend(x)
        ys.extend(y)
        labels.extend([label] * len(x))
    return np.column_stack([xs, ys]), np.array(labels)


def test_every_generator_is_offered_with_its_own_parameters(dialog):
    names = [dialog.generator.itemData(i) for i in range(dialog.generator.count())]
    assert names == list(generators.GENERATORS)
    for name in names:
        dialog.set_generator(name)
        own = set(generators.generator_parameters(name))
        for key, control in dialog._controls.items():
            assert dialog.form.isRowVisible(control) == (key in own), (name, key)
        assert dialog.description.text() == generators.DESCRIPTIONS[name]
        dialog.update_preview()
        expected = generators.generate(name, **dialog.parameters())
        assert dialog.dataset() == expected
        X, y = preview_points(dialog)
        assert len(X) == expected.n
        for label in (-1, 1):  # the preview shows exactly the points, by class
            mine = X[y == label]
            ref = expected.X[expected.y == label]
            np.testing.assert_array_equal(mine[np.lexsort(mine.T)], ref[np.lexsort(ref.T)])


def test_controls_change_the_preview_live(qtbot, dialog):
    dialog.set_generator("separable")
    dialog.control("n").setValue(24)
    dialog.control("noise").setValue(0.25)
    dialog.control("seed").setValue(7)
    dialog.control("margin").setValue(1.5)
    dialog.control("angle").setValue(90.0)
    dialog.control("offset").setValue(1.0)
    qtbot.waitUntil(lambda: dialog.dataset() is not None and dialog.dataset().n == 24)
    params = dialog.parameters()
    assert params == {"n": 24, "noise": 0.25, "seed": 7, "margin": 1.5,
                      "angle": math.radians(90.0), "offset": 1.0}
    data = dialog.dataset()
    assert data == generators.separable(24, 0.25, 7, margin=1.5, angle=math.pi / 2, offset=1.0)
    # the margin holds around the line y = 1 (normal (0, 1), offset 1)
    assert np.all(data.y * (data.X[:, 1] - 1.0) >= 1.5 - 1e-9)
    assert "24 points: 12 of class +1, 12 of class −1" == dialog.summary.text()
    # "random" angle is the special value at the bottom of the range
    dialog.control("angle").setValue(dialog.control("angle").minimum())
    assert dialog.parameters()["angle"] is None
    assert dialog.control("angle").text() == "random"


def test_each_generator_remembers_its_values(dialog):
    dialog.set_generator("circles")
    dialog.control("factor").setValue(0.3)
    dialog.control("noise").setValue(0.05)
    dialog.set_generator("blobs")
    assert dialog.control("noise").value() == 1.0  # the blobs' own default
    dialog.set_generator("circles")
    assert dialog.control("factor").value() == 0.3
    assert dialog.control("noise").value() == 0.05


def test_replace_is_one_undoable_edit(qtbot, window, dialog):
    before = generators.xor(10, seed=1)
    window.push_edit(ReplaceAll.from_dataset(before))
    dialog.set_generator("moons")
    dialog.control("n").setValue(30)
    dialog.replaceButton.click()
    expected = generators.moons(30, seed=0)
    assert window.workspace.dataset == expected
    assert not dialog.isVisible()
    window.undo_stack.undo()
    assert window.workspace.dataset == before
    window.undo_stack.redo()
    assert window.workspace.dataset == expected


def test_add_to_canvas_appends_and_undo_removes(qtbot, window, dialog):
    before = generators.xor(10, seed=1)
    window.push_edit(ReplaceAll.from_dataset(before))
    dialog.set_generator("blobs")
    dialog.control("n").setValue(6)
    dialog.control("seed").setValue(3)
    dialog.addButton.click()
    ds = window.workspace.dataset
    added = generators.blobs(6, seed=3)
    assert ds.n == 16
    np.testing.assert_array_equal(ds.X[:10], before.X)
    np.testing.assert_array_equal(ds.X[10:], added.X)
    np.testing.assert_array_equal(ds.y[10:], added.y)
    window.undo_stack.undo()
    assert window.workspace.dataset == before


def test_an_edit_guard_can_refuse_and_the_dialog_stays(qtbot, window, dialog):
    window.edit_guards.append(lambda edit: False)
    dialog.replaceButton.click()
    assert window.workspace.dataset.n == 0
    assert dialog.isVisible()


def test_invalid_values_disable_the_buttons_with_the_message(qtbot, dialog, monkeypatch):
    def broken(name, **params):
        raise ValueError("noise must be a finite number >= 0; got -1.0")

    monkeypatch.setattr(generators, "generate", broken)
    dialog.update_preview()
    assert dialog.dataset() is None
    assert not dialog.replaceButton.isEnabled() and not dialog.addButton.isEnabled()
    assert "noise must be" in dialog.error.text()
    assert not dialog.replace() and not dialog.add()


def test_the_file_menu_entry_opens_the_dialog(qtbot, window):
    action = window.findChild(type(window.files.actionOpen), "actionNewFromGenerator")
    assert action in window.menus["file"].actions()
    action.trigger()
    dlg = window.findChild(GeneratorDialog, "generatorDialog")
    assert dlg is not None and dlg.isVisible()
    assert open_generator_dialog(window) is dlg  # one dialog, shown again
    dlg.findChild(QtWidgets.QPushButton, "generatorCancel").click()
    assert not dlg.isVisible()
