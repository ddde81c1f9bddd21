"""The Qt-free edit tool: gestures in data coordinates become edits, one behaviour a test."""

from __future__ import annotations

import numpy as np
import pytest

from perceptron_gui.core.dataset import AddPoints, Dataset, DeletePoints, FlipLabels, MovePoints
from perceptron_gui.ui.widgets.canvas import EditTool

PX = (0.01, 0.01)  # data size of one screen pixel


@pytest.fixture
def tool():
    edits = []
    t = EditTool(edits.append, hit_radius_px=8)
    t.edits = edits
    t.set_dataset(Dataset([[0.0, 0.0], [1.0, 0.0], [0.0, 1.0]], [1, -1, 1]))
    return t


def apply_last(tool):
    tool.set_dataset(tool.edits[-1].apply(tool.dataset)[0])


def test_left_click_on_empty_space_adds_the_active_class(tool):
    assert tool.click("left", (3.0, 3.0), PX)
    (edit,) = tool.edits
    assert isinstance(edit, AddPoints) and edit.y.tolist() == [1]
    np.testing.assert_array_equal(edit.X, [[3.0, 3.0]])


def test_right_click_on_empty_space_adds_the_other_class(tool):
    tool.active_class = -1
    tool.click("right", (3.0, 3.0), PX)
    assert tool.edits[-1].y.tolist() == [1]


def test_right_click_on_a_point_flips_it(tool):
    tool.click("right", (1.0, 0.02), PX)
    assert isinstance(tool.edits[-1], FlipLabels) and tool.edits[-1].indices.tolist() == [1]


def test_middle_click_is_left_to_the_view(tool):
    assert not tool.click("middle", (3.0, 3.0), PX)
    assert tool.edits == []


def test_hit_radius_and_ties():
    tool = EditTool(lambda e: None, hit_radius_px=8)
    tool.set_dataset(Dataset([[0.0, 0.0], [0.05, 0.0], [0.05, 0.0]], [1, -1, 1]))
    assert tool.hit((0.0, 0.079), PX) == 0
    assert tool.hit((0.0, 0.081), PX) is None
    assert tool.hit((0.05, 0.0), PX) == 2  # a tie goes to the point drawn last
    assert tool.hit((0.0, 0.0), (0.0, 0.01)) is None  # degenerate view: no hit


def test_hit_is_the_nearest_point_in_screen_distance():
    rng = np.random.default_rng(5)
    X = np.round(rng.normal(size=(3000, 2)), 2)  # many exact ties
    tool = EditTool(lambda e: None, hit_radius_px=8)
    tool.set_dataset(Dataset(X, np.ones(len(X))))
    px = (0.004, 0.002)  # anisotropic pixels
    for pos in rng.normal(size=(200, 2)):
        d2 = ((X[:, 0] - pos[0]) / px[0]) ** 2 + ((X[:, 1] - pos[1]) / px[1]) ** 2
        best = d2.min()
        expected = int(np.flatnonzero(d2 == best)[-1]) if best <= 64 else None
        assert tool.hit(tuple(pos), px) == expected


def test_click_selects_and_modifiers_toggle(tool):
    seen = []
    tool.selection_changed.connect(lambda s: seen.append(s.tolist()))
    tool.click("left", (0.0, 0.0), PX)
    tool.click("left", (1.0, 0.0), PX, {"ctrl"})
    tool.click("left", (0.0, 0.0), PX, {"shift"})
    assert seen == [[0], [0, 1], [1]]
    assert tool.edits == []  # selecting edits nothing


def test_a_drag_emits_absolute_moves_that_merge_into_one(tool):
    assert tool.drag_start((1.0, 0.0), PX)
    for x in (1.2, 1.5, 2.0):
        tool.drag_move((x, 0.5))
    finished = []
    tool.drag_finished.connect(lambda: finished.append(1))
    tool.drag_finish((2.0, 0.5))
    moves = tool.edits
    assert all(isinstance(m, MovePoints) and m.indices.tolist() == [1] for m in moves)
    merged = moves[0]
    for m in moves[1:]:
        merged = merged.merge(m)
    np.testing.assert_allclose(merged.X, [[2.0, 0.5]])
    assert finished == [1] and not tool.dragging


def test_dragging_a_selected_point_moves_the_selection(tool):
    tool.set_selection([0, 2])
    assert tool.drag_start((0.0, 1.0), PX)
    tool.drag_move((1.0, 2.0))
    assert tool.edits[-1].indices.tolist() == [0, 2]
    np.testing.assert_allclose(tool.edits[-1].X, [[1.0, 1.0], [1.0, 2.0]])


def test_a_drag_on_empty_space_is_the_views(tool):
    assert not tool.drag_start((3.0, 3.0), PX)
    assert not tool.dragging


def test_escape_cancels_a_drag_back_to_its_start(tool):
    tool.drag_start((0.0, 0.0), PX)
    tool.drag_move((1.0, 2.0))
    apply_last(tool)
    assert tool.key("escape")
    np.testing.assert_allclose(tool.edits[-1].X, [[0.0, 0.0]])
    assert not tool.dragging


def test_escape_clears_the_selection(tool):
    tool.set_selection([1])
    assert tool.key("escape")
    assert tool.selection.tolist() == []
    assert not tool.key("escape")  # nothing left to do


def test_delete_removes_the_selection(tool):
    tool.set_selection([0, 2])
    assert tool.key("delete")
    assert isinstance(tool.edits[-1], DeletePoints)
    assert tool.edits[-1].indices.tolist() == [0, 2]
    assert tool.selection.tolist() == []


def test_delete_removes_the_point_under_the_cursor(tool):
    assert not tool.key("delete", (5.0, 5.0), PX)
    assert tool.key("delete", (1.0, 0.01), PX)
    assert tool.edits[-1].indices.tolist() == [1]


def test_delete_is_ignored_while_dragging(tool):
    tool.drag_start((0.0, 0.0), PX)
    assert tool.key("delete", (0.0, 0.0), PX)
    assert not any(isinstance(e, DeletePoints) for e in tool.edits)


@pytest.mark.parametrize("key, expected", [("2", -1), ("-", -1), ("1", 1), ("+", 1)])
def test_keys_choose_the_active_class(tool, key, expected):
    tool.active_class = -expected
    assert tool.key(key)
    assert tool.active_class == expected


def test_t_toggles_the_active_class_and_announces_it(tool):
    seen = []
    tool.active_class_changed.connect(seen.append)
    tool.key("t")
    tool.key("T")
    assert seen == [-1, 1]
    with pytest.raises(ValueError):
        tool.active_class = 0


def test_unknown_keys_are_not_handled(tool):
    assert tool.key("x") is False and tool.edits == []


def test_a_change_of_size_drops_the_selection(tool):
    tool.set_selection([0, 1])
    tool.set_dataset(Dataset([[0.0, 0.0]], [1]))
    assert tool.selection.tolist() == []


def test_with_more_classes_the_keys_and_right_clicks_go_round_the_list():
    from perceptron_gui.core.dataset import Relabel

    edits = []
    tool = EditTool(edits.append)
    data = Dataset([[0.0, 0.0], [5.0, 5.0]], [0, 2], classes=(0, 1, 2))
    tool.set_dataset(data)
    assert tool.active_class == 0  # other classes: the first listed
    assert tool.key("3") and tool.active_class == 2
    assert not tool.key("4")  # no fourth class
    assert tool.key("t") and tool.active_class == 0  # after the last, the first
    assert not tool.key("+") and tool.active_class == 0  # the signs are a binary problem's
    tool.click("right", (-3.0, -3.0), (0.01, 0.01))
    assert isinstance(edits[-1], AddPoints) and edits[-1].y.tolist() == [1]  # the next class
    tool.click("right", (5.0, 5.0), (0.01, 0.01))  # on the point of class 2
    assert isinstance(edits[-1], Relabel) and edits[-1].y.tolist() == [0]
    with pytest.raises(ValueError, match="one of the classes 0, 1, 2; got 5"):
        tool.active_class = 5
    tool.set_dataset(Dataset([[0.0, 0.0]], [1]))
    assert tool.active_class == 1 and tool.key("2") and tool.active_class == -1  # as ever
    assert tool.next_class(-1) == 1


def test_the_active_class_removed_falls_back_to_the_first_listed():
    tool = EditTool(lambda edit: None)
    tool.set_dataset(Dataset(classes=(0, 1, 2)))
    tool.active_class = 2
    tool.set_dataset(Dataset(classes=(0, 1)))
    assert tool.active_class == 0
