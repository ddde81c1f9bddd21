"""Every control of the learner panel, timeline, update log and generator dialog can be named.

A screen reader says a control's accessible name; its tooltip says what it does.
"""

from __future__ import annotations

import contextlib

import pyqtgraph as pg
import pytest
from PySide6 import QtWidgets

from perceptron_gui.core import generators
from perceptron_gui.core.learners import registry
from perceptron_gui.core.workspace import Workspace
from perceptron_gui.ui.widgets.generator_dialog import GeneratorDialog
from perceptron_gui.ui.widgets.learner_panel import LearnerPanel
from perceptron_gui.ui.widgets.timeline_bar import TimelineBar
from perceptron_gui.ui.widgets.update_log import UpdateLogModel, UpdateLogView

_CONTROLS = (QtWidgets.QAbstractButton, QtWidgets.QAbstractSpinBox, QtWidgets.QComboBox,
             QtWidgets.QSlider, QtWidgets.QAbstractItemView, pg.PlotWidget)
#: Parts of a composite control (a table's corner button, a combo box's list).
_INSIDE = (QtWidgets.QAbstractItemView, QtWidgets.QComboBox, QtWidgets.QAbstractSpinBox)


def controls(root: QtWidgets.QWidget) -> list[QtWidgets.QWidget]:
    found = [root] if isinstance(root, _CONTROLS) else []
    for child in root.findChildren(QtWidgets.QWidget):
        if not isinstance(child, _CONTROLS):
            continue
        parent, inside = child.parentWidget(), False
        while parent is not None:
            inside = inside or isinstance(parent, _INSIDE)
            parent = None if parent is root else parent.parentWidget()
        if not inside:
            found.append(child)
    return found


def make(qtbot, which: str, window=None) -> QtWidgets.QWidget:
    ws = Workspace(generators.separable(20, seed=1))
    ws.run_to_end()
    widget = {
        "learner": lambda: LearnerPanel(ws),
        "timeline": lambda: TimelineBar(ws),
        "log": lambda: UpdateLogView(UpdateLogModel(ws)),
        "generator": lambda: GeneratorDialog(window),
    }[which]()
    if which != "generator":  # the dialog belongs to the window
        qtbot.addWidget(widget)
    if which == "learner":  # a learner's form is built when first needed: build them all
        for key in registry.LEARNERS:
            for spec in registry.get(key).params:
                with contextlib.suppress(KeyError):  # a parameter without a control
                    widget.control(key, spec.key)
    return widget


@pytest.mark.parametrize("which", ["learner", "timeline", "log", "generator"])
def test_every_control_has_a_name_and_a_tooltip(qtbot, window, which):
    widget = make(qtbot, which, window)
    found = controls(widget)
    assert found, which
    for control in found:
        label = f"{which}: {type(control).__name__} {control.objectName()!r}"
        assert control.accessibleName().strip(), label
        assert control.toolTip().strip(), label


def test_the_walk_finds_the_parameters(qtbot):
    panel = make(qtbot, "learner")
    names = {c.accessibleName() for c in controls(panel)}
    assert "Learner" in names and len(names) >= 10
