"""The game's rules dragged on the canvas before the first move: u, γ, R; refusals say why."""

from __future__ import annotations

import math

import numpy as np
import pytest

from perceptron_gui.core.game import game_of
from perceptron_gui.core.game_rules import handle_points
from tests.ui.features.mouse import drag


@pytest.fixture
def game_window(window):
    window.game.reveal_ms = 30
    window.game.new_game(R=2.0, gamma=0.5, angle=0.0)  # u = (1, 0): the band |x₁| < 0.5
    window.settle()
    return window


def _handle(window, name):
    p = window.canvas.layer("game").handle_at(name)
    return (p.x(), p.y())


def test_the_rules_are_dragged_and_the_boxes_follow(qtbot, game_window):
    window, ui = game_window, game_window.game
    canvas, layer = window.canvas, window.canvas.layer("game")
    assert all(layer.handles[n].isVisible() for n in ("u", "gamma", "R"))
    np.testing.assert_allclose(_handle(window, "u"), (2.0, 0.0), atol=1e-9)  # on the circle
    pixel = max(canvas.pixel_size())
    # u's head dragged to 60°: u turns, the band with it, the angle box follows
    target = (2.0 * math.cos(math.radians(60)), 2.0 * math.sin(math.radians(60)))
    drag(canvas, _handle(window, "u"), target)
    qtbot.waitUntil(lambda: abs(ui.panel.angle.value() - 60.0) < 1.0)
    game = game_of(window.workspace)
    assert math.degrees(math.atan2(game.u[1], game.u[0])) == pytest.approx(60.0, abs=1.0)
    assert ui.panel.gamma.value() == 0.5 and ui.panel.R.value() == 2.0
    # the band's edge dragged out: γ is the distance of the edge from the separator
    window.settle()
    start = np.array(_handle(window, "gamma"))
    drag(canvas, tuple(start), tuple(start + 0.3 * game_of(window.workspace).u))
    qtbot.waitUntil(lambda: abs(game_of(window.workspace).gamma - 0.8) < 3 * pixel)
    assert ui.panel.gamma.value() == pytest.approx(game_of(window.workspace).gamma, abs=1e-3)
    # R dragged inwards: the circle follows; the view fits it when the drag ends
    window.settle()
    r_start = np.array(_handle(window, "R"))
    drag(canvas, tuple(r_start), tuple(r_start * 0.75))
    qtbot.waitUntil(lambda: abs(game_of(window.workspace).R - 1.5) < 3 * pixel)
    assert ui.panel.R.value() == pytest.approx(game_of(window.workspace).R, abs=1e-3)
    (x0, x1), _ = canvas.view_rect()  # the circle with room (for the legend), as R = 2 not
    assert 1.25 * 1.5 < (x1 - x0) / 2 < 1.6 * 1.5 < 1.25 * 2.0
    assert window.workspace.dataset.n == 0  # a drag is no move


def test_rules_that_cannot_be_played_are_refused_on_the_canvas(qtbot, game_window):
    window, ui = game_window, game_window.game
    canvas, layer = window.canvas, window.canvas.layer("game")
    before = game_of(window.workspace)
    with qtbot.waitSignal(ui.rulesRefused, timeout=5000) as blocker:
        drag(canvas, _handle(window, "gamma"), (2.1, -0.3))  # the band past the circle
    assert blocker.args[0].startswith("γ = ") and "would fill the circle (R = 2" in \
        blocker.args[0]
    note = layer.items["rule_note"]
    assert note.isVisible() and note.textItem.toPlainText().startswith("Refused: γ = ")
    game = game_of(window.workspace)  # the last rules the drag could have, kept
    assert before.gamma < game.gamma < game.R == 2.0 and not game.history
    np.testing.assert_allclose(_handle(window, "gamma"), handle_points(game)["gamma"],
                               atol=1e-9)  # the handle put back on the band's edge
    assert ui.panel.gamma.value() == pytest.approx(game.gamma, abs=1e-3)
    with qtbot.waitSignal(ui.rulesRefused, timeout=5000) as blocker:
        drag(canvas, _handle(window, "R"), (0.3, 0.2))  # inside the band
    assert blocker.args[0].startswith("R = ") and "no room outside the band" in blocker.args[0]
    assert game_of(window.workspace).R == 2.0


def test_after_the_first_move_the_rules_are_fixed(qtbot, game_window):
    window, ui = game_window, game_window.game
    layer = window.canvas.layer("game")
    u_at = _handle(window, "u")
    with qtbot.waitSignal(ui.revealed, timeout=5000):
        ui.propose((1.0, 1.0))
    window.settle()
    assert not any(h.isVisible() for h in layer.handles.values())
    drag(window.canvas, u_at, (0.0, 2.0))  # where the handle was: nothing turns
    window.settle()
    assert tuple(game_of(window.workspace).u) == (1.0, 0.0)
    assert len(game_of(window.workspace).history) == 1
    window.actions["play_undo_move"].trigger()  # no move: the rules may be set again
    window.settle()
    assert all(h.isVisible() for h in layer.handles.values())
    ui.hide_u()  # a hidden u has no handles: they would show it
    window.settle()
    assert not any(h.isVisible() for h in layer.handles.values())


def test_a_recorded_drag_of_the_rules_is_one_step(qtbot, window):
    from perceptron_gui.core.dataset import AddPoints

    assert window.push_edit(AddPoints([[0.5, 0.5], [-0.5, -0.5]], [1, -1]))  # to record
    rec = window.demo_files.recorder
    rec.start()
    window.game.new_game(R=2.0, gamma=0.5, angle=0.0)
    window.settle()
    drag(window.canvas, _handle(window, "u"), (0.0, 2.0), steps=8)
    drag(window.canvas, _handle(window, "R"), (-1.2, 1.2))
    window.settle()
    game = game_of(window.workspace)
    steps = [s.data["command"] for s in rec.draft.steps]
    # the game's layers, the new game and its view; both drags one step (every move of
    # them merged), and the view fitted to the new R once the drag ended
    assert [c["command"] for c in steps] == ["set_layers", "start_game", "set_view_rect",
                                             "start_game", "set_view_rect"]
    assert steps[3]["R"] == pytest.approx(game.R) and steps[3]["u"] == list(game.u)
    assert math.degrees(math.atan2(game.u[1], game.u[0])) == pytest.approx(90.0, abs=1.0)
    assert game.R == pytest.approx(math.hypot(1.2, 1.2), abs=3 * max(window.canvas.pixel_size()))
