"""Names from the data on screen: the canvas's axes, the legend, the readouts, the hover label,
through undo, a saved file and an export."""

from __future__ import annotations

from perceptron_gui.core import samples
from perceptron_gui.core.dataset import Dataset, MovePoints, ReplaceAll
from perceptron_gui.ui.features.export.renderer import CanvasRenderer
from perceptron_gui.ui.widgets.canvas.layers.hover import hover_text
from tests.ui.canvas.helpers import legend_texts
from tests.ui.helpers import finish

IRIS = "iris-setosa-versicolor-sepal"


def shown_names(window) -> tuple:
    window.settle()
    return (window.canvas.axis_titles(), sorted(legend_texts(window.canvas)[:2]))


def test_a_sample_names_the_axes_legend_and_readouts_and_undo_keeps_them(window):
    assert shown_names(window) == (("", ""), ["class +1", "class −1"])
    job = window.files.samples.open_sample(IRIS)
    assert job.done and job.result is True
    named = (("sepal_length", "sepal_width"), ["setosa (−1)", "versicolor (+1)"])
    assert shown_names(window) == named
    values = window.readouts.values()
    assert values["classes"] == ("−1: setosa (50)\n+1: versicolor (50)\n"
                                 "x₁: sepal_length\nx₂: sepal_width")
    ws = window.workspace
    assert hover_text(ws, 0).splitlines()[0] == "sample 1 · setosa (−1)"
    assert "sepal_length = 5.10, sepal_width = 3.50" in hover_text(ws, 0)
    assert window.push_edit(MovePoints([0], [[4.0, 4.0]]))  # an edit keeps the names
    assert shown_names(window) == named
    window.undo_stack.undo()
    assert shown_names(window) == named
    assert not window.undo_stack.canUndo()  # a sample opens as a new, clean document
    window.undo_stack.redo()
    assert shown_names(window) == named
    window.push_edit(ReplaceAll.from_dataset(Dataset(), "clear"))  # no data, no names
    assert shown_names(window) == (("", ""), ["class +1", "class −1"])
    assert window.readouts.values()["classes"] == "−1: 0\n+1: 0"
    window.undo_stack.undo()
    assert shown_names(window) == named


def test_the_names_survive_a_save_and_an_open(window, qtbot, tmp_path):
    job = window.files.samples.open_sample("penguins-bill")
    assert job.done and job.result is True
    path = tmp_path / "penguins.json"
    finish(qtbot, window.files.save_to(path))
    window.files.samples.open_sample(IRIS)
    finish(qtbot, window.files.open_path(path, ask=False))
    qtbot.waitUntil(lambda: window.workspace.dataset.class_names == ("Adelie", "Gentoo"),
                    timeout=10_000)
    assert shown_names(window) == (("bill_length_mm", "bill_depth_mm"),
                                   ["Adelie (−1)", "Gentoo (+1)"])


def test_an_export_shows_the_names(qtbot):
    ws, _info = samples.open_workspace("wine-alcohol-flavanoids")
    with CanvasRenderer(ws, (640, 480)) as renderer:
        assert renderer.canvas.axis_titles() == ("alcohol", "flavanoids")
        assert sorted(legend_texts(renderer.canvas)[:2]) == ["cultivar 2 (−1)",
                                                             "cultivar 3 (+1)"]
