"""A layer that draws nothing without data is made with the first point, and is whole then."""

from __future__ import annotations

import numpy as np
import pytest

from perceptron_gui.core.dataset import AddPoints, Clear
from perceptron_gui.core.workspace import Workspace
from perceptron_gui.ui import style
from perceptron_gui.ui.widgets.canvas.layers import LAYER_TYPES
from tests.ui.canvas.helpers import separable_ws
from tests.ui.canvas.items.helpers import pixels


def _created(canvas) -> set[str]:
    return {t.name for t in LAYER_TYPES.values() if canvas.layer_created(t.name)}


def test_an_empty_canvas_makes_only_what_draws_without_data(make_canvas):
    canvas, ws = make_canvas()
    eager = {t.name for t in LAYER_TYPES.values() if t.item_names is None}
    assert _created(canvas) == eager
    assert {"origin", "data", "hint", "cursor"} <= eager
    # the legend keys the two classes a click adds, as before any layer was made lazily
    assert [label.text for _sample, label in canvas.legend.items] == ["class +1", "class −1"]
    ws.apply_edit(AddPoints([[1.0, 1.0], [-1.0, -2.0]], [1, -1]))
    ws.advance(3)
    canvas.refresh()
    assert _created(canvas) == {t.name for t in LAYER_TYPES.values()}
    boundary = canvas.layer("boundary").items["boundary"]
    assert canvas.layer("data").items["scatter_0"].isVisible() and boundary.isVisible()
    ws.apply_edit(Clear())
    canvas.refresh()  # made once: they stay, hidden
    assert _created(canvas) == {t.name for t in LAYER_TYPES.values()}
    assert not boundary.isVisible()


def test_a_layer_asked_for_is_made_with_its_items_and_pen(make_canvas):
    canvas, _ws = make_canvas()
    assert not canvas.layer_created("weight")
    layer = canvas.layer("weight")  # items are reached through their layer, made on request
    line = layer.items["weight_line"]
    assert canvas.layer_created("weight") and not line.isVisible()
    assert set(layer.items) == set(layer.item_names) and line.opts["pen"] == layer.pen
    assert canvas.layer("lda").created
    assert not hasattr(canvas, "weight_line")  # no item is an attribute of the canvas
    with pytest.raises(KeyError, match="unknown layer 'nonsense'"):
        canvas.layer("nonsense")


def test_a_layer_made_later_takes_the_presenter_scale(make_canvas):
    canvas, ws = make_canvas()
    canvas.set_scale(style.PRESENTER)
    ws.apply_edit(AddPoints([[1.0, 1.0], [-1.0, -2.0]], [1, -1]))
    canvas.refresh()
    assert canvas.layer("boundary").items["boundary"].opts["pen"].widthF() == style.PRESENTER.line


def test_the_picture_is_the_one_of_a_canvas_made_with_the_data(make_canvas):
    late, ws_late = make_canvas(Workspace())
    ws = separable_ws()
    ws_late.set_dataset(ws.dataset)
    for w in (ws, ws_late):
        w.advance(4)
    early, _ = make_canvas(ws)
    late.refresh()
    early.refresh()
    a, b = pixels(late), pixels(early)
    assert (a != a[0, 0]).any()
    np.testing.assert_array_equal(a, b)


def test_a_shown_canvas_makes_its_layers_in_idle_time(make_canvas, qtbot):
    """Made by the first redraw with data, the layers held the UI thread 50-500 ms then."""
    canvas, ws = make_canvas(Workspace())
    canvas.show()
    qtbot.waitUntil(lambda: _created(canvas) == {t.name for t in LAYER_TYPES.values()},
                    timeout=10_000)
    assert ws.dataset.n == 0


def test_the_game_layer_is_made_when_a_game_is_played(make_canvas):
    from perceptron_gui.core.game import PerceptronGame, attach

    canvas, ws = make_canvas()
    canvas.refresh()
    assert not canvas.layer_created("game")  # an empty canvas out of the game
    attach(ws, PerceptronGame(R=2.0, gamma=0.25, u=(1.0, 0.0)))
    canvas.set_visible_layers(game=True)
    canvas.refresh()
    layer = canvas.layer("game")
    assert canvas.layer_created("game") and set(layer.items) == set(layer.item_names)
    assert layer.items["circle"].isVisible() and layer.handles["R"].isVisible()


def test_the_exercise_and_hand_layers_wait_for_their_use(make_canvas):
    """Made with the window, the two held its launch 5-10 ms for handles nobody sees."""
    from perceptron_gui.core.exercises import LEVELS, LeaveExercise, StartExercise

    canvas, ws = make_canvas()
    canvas.refresh()
    assert not canvas.layer_created("exercise") and not canvas.layer_created("hand_weights")
    level = next(lv for lv in LEVELS if lv.kind == "learner")
    StartExercise(level.key).execute(ws)
    canvas.refresh()
    layer = canvas.layer("exercise")
    assert canvas.layer_created("exercise") and set(layer.items) == set(layer.item_names)
    assert canvas.layer_created("hand_weights")  # made with the level's data
    hand = canvas.layer("hand_weights")
    assert set(hand.items) == set(hand.item_names) and not hand.items["hand_head"].isVisible()
    LeaveExercise().execute(ws)
