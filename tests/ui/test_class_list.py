"""The class list in the window: a button and a key per class; add, rename, remove, undo."""

from __future__ import annotations

import numpy as np

from perceptron_gui.core.dataset import Dataset
from perceptron_gui.core.learners import registry
from perceptron_gui.core.switch import DataProblem
from perceptron_gui.ui.class_actions import GLYPHS


def _listed(window) -> list[str]:
    bar = window.toolbars["edit"]
    return [a.iconText() for a in bar.actions() if a in window.classes.actions]


def test_two_classes_are_listed_as_they_always_were(window):
    assert _listed(window) == ["● +1", "■ −1"]
    assert window.actions["class_0"].isChecked()
    assert window.actions["class_2"].isEnabled() is False  # key 3: no third class


def test_adding_a_class_lists_it_and_makes_it_active_and_undo_takes_it_back(window, qtbot):
    ws = window.workspace
    ws.set_dataset(Dataset([[0.0, 0.0], [1.0, 1.0]], [1, -1]))
    assert window.classes.add_class("stars")
    assert ws.dataset.classes == (-1, 1, 2) and window.canvas.active_class == 2
    assert _listed(window) == ["● class +1", "■ class −1", f"{GLYPHS[2]} stars"]
    assert window.actions["class_2"].isChecked() and window.actions["class_2"].isEnabled()
    window.canvas.tool.click("left", (3.0, 3.0), (0.01, 0.01))
    assert ws.dataset.y[-1] == 2
    window.actions["class_0"].trigger()
    assert window.canvas.active_class == 1
    assert window.classes.rename_active("plus")
    assert ws.dataset.class_names[1] == "plus"
    while window.undo_stack.canUndo():
        window.undo_stack.undo()
    assert ws.dataset.is_binary and _listed(window) == ["● +1", "■ −1"]


def test_removing_the_active_class_removes_its_points_undoably(window):
    ws = window.workspace
    ws.set_dataset(Dataset(np.arange(8.0).reshape(4, 2), [0, 1, 2, 2], classes=(0, 1, 2)))
    window.actions["class_2"].trigger()
    assert window.canvas.active_class == 2
    window.actions["class_remove"].trigger()
    assert ws.dataset.is_binary and ws.dataset.n == 2  # two left: −1 and +1
    assert window.canvas.active_class == 1  # the first listed
    assert not window.actions["class_remove"].isEnabled()  # two classes stay
    window.undo_stack.undo()
    assert ws.dataset.classes == (0, 1, 2) and ws.dataset.n == 4


def test_a_ninth_class_is_refused_saying_why(window):
    window.workspace.set_dataset(Dataset(classes=tuple(range(8))))
    assert not window.actions["class_add"].isEnabled()
    assert not window.classes.add_class("ninth")
    assert "at most 8 classes" in window.statusBar().currentMessage()


def test_more_classes_than_the_learner_learns_says_what_to_do(window):
    from perceptron_gui.ui.wording import problem_text

    window.workspace.set_dataset(Dataset(np.arange(6.0).reshape(3, 2), [0, 1, 2],
                                         classes=(0, 1, 2)))
    text = problem_text(window.workspace)
    assert "learns two classes, −1 and +1; these data have 3: choose " in text
    assert "remove classes down to two" in text and "Edit ▸ Remove the active class" in text
    for key in registry.multiclass():  # the learners that do learn three classes, by name
        assert registry.get(key).display_name in text
    assert registry.multiclass() and registry.DEFAULT not in registry.multiclass()


def test_a_class_without_points_is_said_and_nothing_is_drawn_wrong(window, qtbot):
    from perceptron_gui.ui.wording import problem_text

    ws = window.workspace
    window.workspace.set_dataset(Dataset([[0.0, 0.0], [1.0, 0.0], [0.0, 1.0], [1.0, 1.0]],
                                         [0, 1, 1, 0], classes=(0, 1, 2),
                                         class_names=("a", "b", "c")))
    ws.set_learner("lda")
    window.canvas.refresh()  # nothing raises: no model to draw
    assert ws.problem_kind is DataProblem.EMPTY_CLASS and not ws.has_model
    text = problem_text(ws)
    assert text.startswith("No points of class c yet: LDA learns every class from its points")
    assert "Edit ▸ Remove the active class" in text
    ws.set_dataset(Dataset([[0.0, 0.0], [1.0, 0.0]], [1, 1], classes=(0, 1, 2),
                           class_names=("a", "b", "c")))
    assert problem_text(ws).startswith("Only class b so far: add points of the others")
    ws.set_dataset(Dataset([[0.0, 0.0], [1.0, 0.0], [0.0, 1.0], [1.0, 1.0], [3, 3], [3, 4]],
                           [0, 1, 1, 0, 2, 2], classes=(0, 1, 2), class_names=("a", "b", "c")))
    window.canvas.refresh()
    assert ws.problem is None and ws.multiclass
    assert window.canvas.layer("classes").items["class_boundaries"].isVisible()


def test_a_failed_fit_names_the_class_and_the_control(window):
    from perceptron_gui.core import samples
    from perceptron_gui.core.class_edits import AddClass
    from perceptron_gui.core.dataset import AddPoints
    from perceptron_gui.ui.wording import problem_text

    data, _ = samples.load("iris-versicolor-virginica-petal", all_classes=True)
    data, _ = AddClass("hybrid").apply(data)
    data, _ = AddPoints(np.array([[3.0, 1.0], [3.0, 1.0]]), np.array([3, 3])).apply(data)
    ws = window.workspace
    ws.set_dataset(data)
    ws.set_learner("qda")
    assert ws.problem_kind is DataProblem.LDA_FAILED
    assert "class hybrid is singular" in ws.problem and "class 3" not in ws.problem
    text = problem_text(ws)
    assert "Set Regularisation r (reg_param) > 0" in text
