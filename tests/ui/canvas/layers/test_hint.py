"""The canvas says on itself what to do while the data cannot be learned yet."""

from __future__ import annotations

from perceptron_gui.core.dataset import ReplaceAll
from perceptron_gui.core.learners import registry
from perceptron_gui.core.workspace import DataProblem
from perceptron_gui.ui.widgets.canvas.tool import hint_text
from tests.ui.canvas.helpers import RIGHT, click, key


def test_hint_words_follow_the_problem_and_the_active_class():
    text = hint_text(DataProblem.NO_POINTS)
    assert text.startswith("Click to add a point of class +1 · right-click for class −1")
    assert "File ▸ Generate synthetic data / Demos" in text
    assert "class −1 · right-click for class +1" in hint_text(DataProblem.NO_POINTS, -1)
    assert hint_text(DataProblem.ONE_CLASS, 1, -1).startswith("Right-click to add")
    assert hint_text(DataProblem.ONE_CLASS, -1, -1).startswith("Click to add a point of class −1")
    assert "3 points" in hint_text(DataProblem.LDA_TOO_FEW, learner=registry.get("lda"))
    assert hint_text(None) is None


def test_the_empty_canvas_says_what_to_do_until_there_is_data(make_canvas, qtbot):
    canvas, ws = make_canvas()
    hint = canvas.layer("hint").items["hint"]
    assert hint.isVisible() and hint.toPlainText().startswith("Click to add a point")
    vb = canvas.getViewBox()
    centre = vb.mapRectToScene(vb.boundingRect()).center()
    assert hint.sceneBoundingRect().contains(centre)
    assert not hint.acceptedMouseButtons()  # a click through it adds a point
    key(qtbot, canvas, 0x32, "2")  # active class −1: the words follow
    assert "class −1 · right-click for class +1" in hint.toPlainText()
    click(canvas, (0.0, 0.0))
    assert ws.dataset.n == 1 and ws.dataset.y[0] == -1
    qtbot.waitUntil(lambda: hint.toPlainText().startswith("Right-click to add a point of class +1"))
    assert hint.sceneBoundingRect().center().y() < centre.y()  # off the point, at the top
    click(canvas, (2.0, 2.0), RIGHT)
    qtbot.waitUntil(lambda: not hint.isVisible())
    ws.apply_edit(ReplaceAll.from_dataset(type(ws.dataset)()))
    qtbot.waitUntil(hint.isVisible)
    assert hint.toPlainText().startswith("Click to add")


def test_with_three_classes_the_hint_names_classes_and_keys():
    from perceptron_gui.core.dataset import Dataset

    empty = Dataset(classes=(0, 1, 2), class_names=("setosa", "versicolor", "virginica"))
    text = hint_text(DataProblem.NO_POINTS, 1, dataset=empty)
    assert text.startswith("Click to add a point of class versicolor (key 2) · right-click for "
                           "the next class")
    one = Dataset([[0.0, 0.0]], [0], classes=(0, 1, 2), class_names=("a", "b", "c"))
    assert hint_text(DataProblem.ONE_CLASS, 0, dataset=one) == (
        "Choose class b (key 2) and click: every class needs points")
    two = Dataset([[0.0, 0.0], [1.0, 1.0]], [0, 2], classes=(0, 1, 2),
                  class_names=("a", "b", "c"))
    assert hint_text(DataProblem.EMPTY_CLASS, 0, dataset=two).startswith("Choose class b (key 2)")
    assert "+1" not in text and "−1" not in text
