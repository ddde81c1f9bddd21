"""The game mode played end to end: the student's clicks, the computer, the rules, undo, files."""

from __future__ import annotations

import re

import numpy as np
import pytest
from PySide6 import QtCore

from perceptron_gui.core.commands import SetViewRect
from perceptron_gui.core.game import game_of
from perceptron_gui.core.game_commands import PlayMove, UndoMove
from perceptron_gui.core.text import fmt
from tests.ui.helpers import finish


def click(qtbot, window, x, y):
    """A left click on the canvas at the data point (x, y)."""
    pos = window.canvas.data_to_widget(x, y).toPoint()
    qtbot.mouseClick(window.canvas.viewport(), QtCore.Qt.MouseButton.LeftButton, pos=pos)


def at(window, x, y):
    """Where a click at (x, y) lands in data coordinates (a pixel's rounding)."""
    return window.canvas.widget_to_data(window.canvas.data_to_widget(x, y).toPoint())


@pytest.fixture
def game_window(window):
    window.game.reveal_ms = 30
    window.game.computer_ms = 0
    window.game.new_game(R=2.0, gamma=0.5, angle=0.0)  # u = (1, 0): the band |x₁| < 0.5
    window.settle()
    return window


def test_the_play_menu_starts_a_game_in_its_mode(window):
    window.actions["play_new_game"].trigger()
    game = game_of(window.workspace)
    assert game is not None and window.modes.is_active("game")
    assert window.menus["play"].title() == "&Play"
    assert not window.side_panel.sections["learner"].isVisible()
    assert window.side_panel.sections["game"].isVisible()
    assert window.workspace.dataset.n == 0 and window.workspace.params["max_iter"] == 1
    assert window.game.panel.rules_box.isVisibleTo(window)  # set before the first move


def test_the_student_plays_a_game_with_clicks(qtbot, game_window):
    window, ui = game_window, game_window.game
    order = []
    ui.predictionShown.connect(lambda x, p: order.append(("predicted", p, len(ui.game.history))))
    ui.revealed.connect(lambda m: order.append(("revealed", m.label, len(ui.game.history))))
    moves = [(1.0, 1.0), (-1.0, 0.5), (1.2, -0.8), (-0.9, -1.2)]
    for x, y in moves:
        with qtbot.waitSignal(ui.revealed, timeout=5000):
            click(qtbot, window, x, y)
            # the prediction is on the canvas before the label: nothing learned yet
            assert ui.game.pending is not None
            assert window.canvas.layer("game").items["guess"].isVisible()
    game = ui.game
    assert len(game.history) == 4 and window.workspace.dataset.n == 4
    assert order[0] == ("predicted", 0, 0) and order[1][0::2] == ("revealed", 1)
    assert [o[0] for o in order] == ["predicted", "revealed"] * 4
    assert list(window.workspace.dataset.y) == [1, -1, 1, -1]
    X = np.array([tuple(at(window, x, y).toTuple()) for x, y in moves])
    # where each click landed, to about a pixel (the axes may re-lay out after the first
    # move, shifting the mapping by one)
    (x0, x1), _ = window.canvas.view_rect()
    pixel = (x1 - x0) / window.canvas.width()
    assert np.allclose(window.workspace.dataset.X, X, atol=1.5 * pixel, rtol=0)
    # both classes: the run is the game, step k is move k, its w is B's
    ws = window.workspace
    assert ws.running and ws.step_count == 4
    assert np.array_equal(ws.weights()[0], game.w)
    assert ui.panel.score.text() == (f"Mistakes forced: {game.mistakes} in 4 moves; the "
                                     "bound (R/γ)² = 16")
    assert ui.panel.rules_box.isHidden()  # rules are fixed after the first move
    assert ui.panel.rules_text.text() == "Rules: R = 2.00, γ = 0.50, u at 0.0°"
    assert window.undo_stack.count() == 0  # moves are the game's, not the data's undo


def test_a_point_breaking_a_rule_is_refused_with_the_reason_on_the_canvas(qtbot, game_window):
    window, ui = game_window, game_window.game
    with qtbot.waitSignal(ui.refused, timeout=5000) as blocker:
        click(qtbot, window, 0.2, 1.0)
    assert re.match(r"inside the forbidden band: \|u·x\| = 0\.(19|20)\d* < γ = 0\.5 \(u must",
                    blocker.args[0])
    label = window.canvas.layer("game").items["refused_label"]
    assert label.isVisible() and "forbidden band" in label.textItem.toPlainText()
    with qtbot.waitSignal(ui.refused, timeout=5000) as blocker:
        click(qtbot, window, 1.8, 1.8)
    assert blocker.args[0].startswith("outside the circle")
    assert window.workspace.dataset.n == 0 and not ui.game.history
    with pytest.raises(ValueError, match="outside the circle"):  # the command refuses too
        window.dispatch(PlayMove((3.0, 0.0)))


def test_undo_a_move_and_scrub_back_through_the_timeline(qtbot, game_window):
    window, ui = game_window, game_window.game
    for x, y in [(1.0, 1.0), (-1.0, 0.5), (1.2, -0.8)]:
        with qtbot.waitSignal(ui.revealed, timeout=5000):
            click(qtbot, window, x, y)
    game = ui.game
    w2 = game.w_after(2)
    window.actions["play_undo_move"].trigger()
    assert len(game.history) == 2 and window.workspace.dataset.n == 2
    assert np.array_equal(game.w, w2)
    assert window.workspace.step_count == 2
    window.dispatch(UndoMove())
    assert len(game.history) == 1
    with qtbot.waitSignal(ui.revealed, timeout=5000):
        click(qtbot, window, -1.0, 0.5)
    with qtbot.waitSignal(ui.revealed, timeout=5000):
        click(qtbot, window, 1.2, -0.8)
    from perceptron_gui.core.commands import Seek

    window.dispatch(Seek(1))  # what the timeline does
    assert "Looking back at move 1 of 3" in ui.panel.moment.text()
    with qtbot.waitSignal(ui.refused, timeout=5000) as blocker:
        click(qtbot, window, 1.0, -1.0)
    assert "you are looking at move 1 of 3" in blocker.args[0]


def test_the_computer_plays_to_the_end_and_the_result_is_stated(qtbot, game_window):
    window, ui = game_window, game_window.game
    with qtbot.waitSignal(ui.ended, timeout=60000) as blocker:
        window.actions["play_computer"].trigger()
    game = ui.game
    assert game.finished and 0 < game.mistakes <= game.bound == 16
    assert all(m.mistake for m in game.history)  # the adversary fools B at every move
    text = blocker.args[0]
    assert text.startswith(f"The computer forced {game.mistakes} mistakes; the bound was 16; "
                           "the perceptron's w now separates the points with margin ")
    assert text in ui.panel.result.text()
    assert not window.actions["play_computer"].isChecked()
    with qtbot.waitSignal(ui.refused, timeout=5000) as refused:
        click(qtbot, window, 1.0, 1.0)
    assert refused.args[0] == "the game is over (undo a move to play on)"
    window.actions["play_leave"].trigger()  # keeps the points as an ordinary data set
    assert game_of(window.workspace) is None and not window.modes.is_active("game")
    assert window.workspace.dataset.n == len(game.history)
    assert window.workspace.params["max_iter"] == 1000
    assert window.side_panel.sections["learner"].isVisible()
    click(qtbot, window, 0.1, 0.1)  # an ordinary click adds a point again
    assert window.workspace.dataset.n == len(game.history) + 1


def test_a_hidden_u_stays_hidden_until_the_end(qtbot, game_window):
    window, ui = game_window, game_window.game
    ui.hide_u()
    game = ui.game
    assert game.hidden and window.settle() is None
    layer = window.canvas.layer("game")
    assert not layer.items["band_fill"].isVisible() and not layer.items["u_line"].isVisible()
    assert "hidden with u until the end" in ui.panel.progress.text()
    x = game.adversary_move()
    with qtbot.waitSignal(ui.revealed, timeout=5000):
        ui.propose(x)
    ui.finish()
    window.settle()
    assert layer.items["band_fill"].isVisible() and "Progress: w·u" in ui.panel.progress.text()


def test_a_game_saves_and_reopens_as_a_workspace(qtbot, game_window, tmp_path):
    window, ui = game_window, game_window.game
    for x, y in [(1.0, 1.0), (-1.0, 0.5), (1.2, -0.8)]:
        with qtbot.waitSignal(ui.revealed, timeout=5000):
            click(qtbot, window, x, y)
    before = ui.game
    path = tmp_path / "game.json"
    assert finish(qtbot, window.files.save_to(path))
    window.actions["play_leave"].trigger()
    assert not window.modes.is_active("game")
    assert finish(qtbot, window.files.open_path(path, ask=False))
    again = ui.game
    assert again is not None and again is not before and window.modes.is_active("game")
    assert again.rules() == before.rules() and np.array_equal(again.w, before.w)
    assert window.workspace.step_count == 3
    with qtbot.waitSignal(ui.revealed, timeout=5000):  # and the game goes on
        click(qtbot, window, -1.5, -0.5)
    assert len(again.history) == 4


def test_esc_leaves_the_game_keeping_the_points(qtbot, game_window):
    window, ui = game_window, game_window.game
    with qtbot.waitSignal(ui.revealed, timeout=5000):
        click(qtbot, window, 1.0, 1.0)
    assert window.modes.esc_owner() == "game" and window.actions["leave_game"].isEnabled()
    window.actions["presenter_mode"].trigger()  # presenter mode's Esc comes first
    assert window.modes.esc_owner() == "presenter"
    assert not window.actions["leave_game"].isEnabled()
    assert window.actions["play_leave"].isEnabled()  # the panel's button still works
    window.actions["presenter_mode"].trigger()
    qtbot.keyClick(window, QtCore.Qt.Key.Key_Escape)
    assert not window.modes.is_active("game") and window.workspace.dataset.n == 1


def test_the_game_demo_plays_in_the_window_and_stop_gives_the_work_back(qtbot, window):
    from perceptron_gui.core import demos
    from perceptron_gui.core.dataset import AddPoints

    assert window.push_edit(AddPoints([[0.5, 0.5], [-0.5, -0.5]], [1, -1]))
    demo = demos.load_demo("the-game")
    assert window.demos.play(demo)
    for _ in range(len(demo)):
        window.demos.next()
    game = game_of(window.workspace)
    assert game is not None and game.mistakes == 4 and game.finished
    assert window.modes.is_active("game") and window.modes.is_active("demo")
    assert window.game.panel.score.text().startswith("Mistakes forced: 4 in 4 moves")
    window.demos.goto(1)  # back over the moves: the game is replayed from its start
    assert len(game_of(window.workspace).history) == 0
    window.demos.stop()
    assert game_of(window.workspace) is None and not window.modes.is_active("game")
    assert window.workspace.dataset.n == 2


def play(qtbot, ui, points):
    """Player A plays ``points`` in turn (each revealed before the next)."""
    for x in points:
        with qtbot.waitSignal(ui.revealed, timeout=5000):
            assert ui.propose(x)


def shown_bound(text: str) -> float:
    """The number a text shows after "(R/γ)² = "."""
    return float(re.search(r"\(R/γ\)² = ([0-9.]+)", text).group(1))


def test_every_bound_shown_during_a_game_is_the_games(qtbot, game_window):
    window, ui = game_window, game_window.game
    # points far from the band: their own margin is wider than γ, their (R/γ)² smaller
    play(qtbot, ui, [(1.5, 0.0), (-1.5, 0.1), (1.2, 0.5)])
    game, ws = ui.game, window.workspace
    assert ws.running and ws.novikoff.bound < 3 < game.bound == 16  # the data's, the rules'
    r = ws.readouts()
    assert (r.bound, r.radius, r.gamma) == (game.bound, game.R_tilde, game.gamma_tilde)
    assert r.bound_text == f"k = {game.mistakes} ≤ (R/γ)² = {fmt(game.bound)}"
    window.settle()
    strip = window.bound_strip
    strip.refresh()
    plots = window.views.view("plots")
    window.set_views_visible(True)
    window.views.setCurrentWidget(plots)
    bound = plots.part("bound")
    qtbot.waitUntil(lambda: "(R/γ)²" in bound.bound_line.label.toPlainText(), timeout=10_000)
    shown = {
        "game panel": ui.panel.score.text(),
        "essentials": window.essentials.texts()["bound"],  # the "Now" headline
        "strip title": strip.plot.bound_plot.getPlotItem().titleLabel.text,
        "strip ceiling": strip.plot.bound_line.label.toPlainText(),
        "live plots title": bound.bound_plot.getPlotItem().titleLabel.text,
        "live plots ceiling": bound.bound_line.label.toPlainText(),
    }
    assert {where: shown_bound(text) for where, text in shown.items()} == dict.fromkeys(
        shown, game.bound)
    assert abs(10 ** bound.bound_line.value() - game.bound) < 1e-9  # the ceiling drawn


def _view(window):
    """The data rectangle the canvas's viewport shows: ``(x0, x1, y0, y1)``."""
    canvas = window.canvas
    rect = canvas.viewport().rect()
    a, b = canvas.widget_to_data(rect.topLeft()), canvas.widget_to_data(rect.bottomRight())
    return a.x(), b.x(), b.y(), a.y()


def _sees(window, points, pixels: float = 0.0) -> bool:
    """Whether the canvas shows every one of ``points``, ``pixels`` from its edges."""
    x0, x1, y0, y1 = _view(window)
    rect = window.canvas.viewport().rect()
    mx, my = pixels * (x1 - x0) / rect.width(), pixels * (y1 - y0) / rect.height()
    return all(x0 + mx <= x <= x1 - mx and y0 + my <= y <= y1 - my for x, y in points)


def _circle_and_w(game):
    """The circle's extremes, w's head and its head before the last move (the update)."""
    r, k = game.R, len(game.history)
    heads = [tuple(game.w_after(j)[:2]) for j in {max(k - 1, 0), k}]
    return [(r, 0.0), (-r, 0.0), (0.0, r), (0.0, -r), *heads]


def test_the_view_keeps_the_circle_w_and_the_update_arrow_in_sight(qtbot, game_window):
    window, ui = game_window, game_window.game
    ui.new_game(R=2.0, gamma=0.5, angle=90.0)  # u = (0, 1): w grows up the short axis
    window.settle()
    game = ui.game
    first = _view(window)
    assert _sees(window, _circle_and_w(game), 8)
    # the computer drives w's head far past the circle (‖w‖² grows to about kR²)
    with qtbot.waitSignal(ui.ended, timeout=60000):
        window.actions["play_computer"].trigger()
    assert max(abs(game.w_after(k)[1]) for k in range(len(game.history) + 1)) > first[3]
    qtbot.waitUntil(lambda: _sees(window, _circle_and_w(game), 8), timeout=10_000)
    # panned or zoomed by the user: the view is theirs, and stays put
    ui.undo()
    ui.undo()
    window.dispatch(SetViewRect((-1.0, 1.0, -1.0, 1.0)))
    window.settle()
    mine = window.canvas.view_rect()  # (the axes' width may move the viewport's edge)
    assert mine == ((-1.0, 1.0), (-1.0, 1.0))
    play(qtbot, ui, [game.adversary_move()])
    window.settle()
    assert window.canvas.view_rect() == mine and not _sees(window, _circle_and_w(game))


def test_the_legend_keeps_off_the_disk(qtbot, window):
    window.game.reveal_ms = 30
    canvas = window.canvas

    def under():
        """The points of the disk under the legend."""
        r = window.game.game.R
        disk = [(s * r * np.cos(a), s * r * np.sin(a)) for s in np.linspace(0.0, 1.0, 12)
                for a in np.linspace(0.0, 2 * np.pi, 48)]
        return [p for p in disk if canvas.over_legend(canvas.data_to_widget(*p).toPoint())]

    for size in ((1280, 800), (1000, 700)):
        window.resize(*size)
        window.game.new_game(R=1.0, gamma=0.37, angle=65.5)  # the review's rules
        play(qtbot, window.game, [(-0.6, 0.72), (0.02, 0.72), (0.08, -0.75), (0.95, 0.25)])
        window.settle()
        assert canvas.legend.isVisible() and len(window.workspace.dataset.y) == 4
        # (the view may grow a band above the disk for it, soon)
        qtbot.waitUntil(lambda: under() == [], timeout=10_000)


def test_a_refusal_in_a_hidden_game_gives_no_number_and_the_end_draws_u(qtbot, game_window):
    window, ui = game_window, game_window.game
    ui.hide_u()
    u, c = ui.game.u, ui.game.offset
    across = (-u[1], u[0])
    for t in (0.6, -0.6):  # two probes inside the band
        x, y = -c * u[0] + t * across[0] + 0.1 * u[0], -c * u[1] + t * across[1] + 0.1 * u[1]
        with qtbot.waitSignal(ui.refused, timeout=5000) as blocker:
            click(qtbot, window, x, y)
        reason = blocker.args[0]
        assert reason.startswith("inside the forbidden band")
        assert not re.search(r"\d", reason.replace("γ = 0.5", ""))  # no measure of u·x
        label = window.canvas.layer("game").items["refused_label"]
        shown = label.textItem.toPlainText()
        assert "forbidden band" in shown and not re.search(r"\d", shown.replace("γ = 0.5", ""))
    game = ui.game
    for _ in range(4):
        with qtbot.waitSignal(ui.revealed, timeout=5000):
            ui.propose(game.adversary_move())
    window.settle()
    ui.finish()  # u revealed: nothing else changed (the run, the data are as they were)
    window.settle()
    layer = window.canvas.layer("game")
    assert all(layer.items[k].isVisible() for k in ("separator", "u_line", "u_head", "u_label"))
    legend = [label.text for _, label in window.canvas.legend.items]
    assert any(text.startswith("separator u") for text in legend)  # named where it is drawn
