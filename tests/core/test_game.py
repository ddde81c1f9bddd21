"""The mistake-bound game in the core: its rules, its moves, the adversary, the bound."""

from __future__ import annotations

import math

import numpy as np
import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from perceptron_gui.core import PrimalPerceptron
from perceptron_gui.core.game import PerceptronGame, RuleBroken, attach, game_of, transfer


def test_the_rules_refuse_with_the_reason_and_change_nothing():
    g = PerceptronGame(2.0, 0.5, u=(1.0, 0.0))
    with pytest.raises(RuleBroken, match=r"outside the circle: ‖x‖ = 3 > R = 2"):
        g.play((3.0, 0.0))
    with pytest.raises(RuleBroken, match=r"inside the forbidden band: \|u·x\| = 0.2 < γ = 0.5"):
        g.play((0.2, 1.0))
    with pytest.raises(RuleBroken, match="two finite numbers"):
        g.play((float("nan"), 1.0))
    assert g.history == [] and g.mistakes == 0 and not g.w.any()
    assert g.check((0.5, 1.0)) is None  # on the band's edge: allowed (y u·x >= γ)


def test_invalid_rules_are_refused_plainly():
    with pytest.raises(ValueError, match="R must be"):
        PerceptronGame(0.0, 0.1)
    with pytest.raises(ValueError, match="no point fits the rules"):
        PerceptronGame(1.0, 1.0)
    with pytest.raises(ValueError, match="needs the bias feature"):
        PerceptronGame(1.0, 0.2, offset=0.1)


def test_a_move_predicts_reveals_and_updates_on_a_mistake():
    g = PerceptronGame(2.0, 0.5, u=(0.0, 2.0))  # u normalised to (0, 1)
    assert np.allclose(g.u, (0.0, 1.0)) and g.bound == 16.0
    assert g.predict((1.0, 1.0)) == 0  # w = 0: no opinion
    m = g.play((1.0, 1.0))
    assert (m.prediction, m.label, m.mistake, m.mistakes) == (0, 1, True, 1)
    assert m.w_after == (1.0, 1.0) and g.predict((1.0, -1.0)) == 0
    m2 = g.play((0.5, 1.5))  # w·x = 2 > 0, label +1: right
    assert (m2.prediction, m2.mistake, g.mistakes) == (1, False, 1)
    m3 = g.play((1.5, -0.6))  # w·x = 0.9 > 0 but below the band: a mistake
    assert (m3.prediction, m3.label, m3.mistake, g.mistakes) == (1, -1, True, 2)
    assert np.allclose(g.w, (-0.5, 1.6))
    p = g.proof()
    assert p["k"] == 2 and p["dot"] == pytest.approx(1.6) and p["k_gamma"] == 1.0
    assert p["norm2"] == pytest.approx(0.25 + 2.56) and p["k_r2"] == 8.0


def test_undo_takes_a_move_back_exactly():
    g = PerceptronGame(2.0, 0.5, u=(1.0, 0.0))
    g.play((1.0, 1.0))
    w1 = g.w.copy()
    g.play((-1.0, 1.0))
    assert g.mistakes == 2
    undone = g.undo()
    assert undone.x == (-1.0, 1.0) and g.mistakes == 1 and np.array_equal(g.w, w1)
    g.undo()
    assert g.mistakes == 0 and not g.w.any()
    with pytest.raises(IndexError):
        g.undo()


def test_the_bias_feature_uses_the_augmented_vectors():
    g = PerceptronGame(2.0, 0.5, u=(1.0, 0.0), offset=0.5, fit_intercept=True)
    assert g.R_tilde == pytest.approx(math.sqrt(5.0))
    assert g.gamma_tilde == pytest.approx(0.5 / math.sqrt(1.25))
    assert g.bound == pytest.approx(5.0 * 1.25 / 0.25)  # (R² + 1)(1 + c²)/γ²
    assert np.allclose(g.u_tilde, np.array([1.0, 0.0, 0.5]) / math.sqrt(1.25))
    with pytest.raises(RuleBroken, match=r"\|u·x \+ β\| = 0.3"):
        g.play((-0.2, 0.0))
    m = g.play((0.5, 1.0))
    assert m.label == 1 and m.w_after == (0.5, 1.0, 1.0)


def test_the_game_is_the_perceptron_run_on_its_points():
    """The window draws the run of the primal perceptron on the points in the order played."""
    for fit_intercept in (False, True):
        g = PerceptronGame(1.0, 0.1, seed=4, fit_intercept=fit_intercept)
        for _ in range(12):
            g.play(g.adversary_move())
        X, y = g.points
        clf = PrimalPerceptron(fit_intercept=fit_intercept, max_iter=1).fit(X, y)
        w = np.append(clf.coef_.ravel(), clf.intercept_) if fit_intercept else clf.coef_.ravel()
        assert np.array_equal(w, g.w)


def test_the_adversary_plays_within_the_rules_and_fools_b_until_it_cannot():
    g = PerceptronGame(1.0, 0.25, seed=0)
    moves = 0
    while (x := g.adversary_move()) is not None:
        assert g.check(x) is None
        assert g.play(x).mistake
        moves += 1
        assert moves <= g.bound
    assert g.mistakes == moves == 8  # greedy: half of the bound 16 here
    assert g.margin() > 0  # B now separates every point played


def test_the_adversary_forces_more_mistakes_as_the_margin_narrows():
    counts = []
    for gamma in (0.4, 0.2, 0.1):
        g = PerceptronGame(1.0, gamma, seed=1)
        while (x := g.adversary_move()) is not None:
            g.play(x)
        counts.append(g.mistakes)
    assert counts[0] < counts[1] < counts[2] <= 100


def test_rules_round_trip_and_replay():
    g = PerceptronGame(1.5, 0.3, seed=2, fit_intercept=True, offset=-0.2)
    for _ in range(5):
        g.play(g.adversary_move())
    X, y = g.points
    again = PerceptronGame.from_rules(g.rules(), X, y)
    assert np.array_equal(again.w, g.w) and again.mistakes == g.mistakes
    with pytest.raises(ValueError, match="point 1 has label"):
        PerceptronGame.from_rules(g.rules(), X, -y)
    with pytest.raises(ValueError, match="lack 'gamma'"):
        PerceptronGame.from_rules({"R": 1.0, "u": [1, 0]})


def test_a_workspace_holds_its_game_and_hands_it_over():
    class Ws:  # any weak-referenceable object
        pass

    a, b = Ws(), Ws()
    g = PerceptronGame(1.0, 0.2, seed=0)
    attach(a, g)
    assert game_of(a) is g and game_of(b) is None
    transfer(a, b)
    assert game_of(b) is g and game_of(a) is None
    transfer(a, b)  # a has none: b has none after
    assert game_of(b) is None


# --------------------------------------------------------------------------- the property


@st.composite
def games(draw):
    fit_intercept = draw(st.booleans())
    R = draw(st.sampled_from([0.5, 1.0, 3.0, 50.0]))
    gamma = R * draw(st.floats(0.05, 0.6))
    offset = R * draw(st.floats(-0.3, 0.3)) if fit_intercept else 0.0
    if gamma + abs(offset) >= 0.95 * R:
        offset = 0.0
    seed = draw(st.integers(0, 2**31 - 1))
    return PerceptronGame(R, gamma, offset=offset, fit_intercept=fit_intercept, seed=seed), seed


def _random_legal_points(game, rng, n):
    out = []
    while len(out) < n:
        r = game.R * math.sqrt(rng.random())
        t = rng.uniform(0, 2 * math.pi)
        x = (r * math.cos(t), r * math.sin(t))
        if game.check(x) is None:
            out.append(x)
    return out


def _assert_proof_holds(game):
    p = game.proof()
    scale = 1e-9 * max(1.0, p["k_r2"])
    assert p["dot"] >= p["k_gamma"] - scale
    assert p["norm2"] <= p["k_r2"] + scale
    assert game.mistakes <= game.bound


@settings(max_examples=60, deadline=None, derandomize=True,
          suppress_health_check=[HealthCheck.too_slow])
@given(case=games(), adversary=st.booleans())
def test_mistakes_never_exceed_the_bound(case, adversary):
    """Random players and the adversary, with and without the bias: k <= (R̃/γ̃)² always."""
    game, seed = case
    if adversary:
        for _ in range(400):
            x = game.adversary_move()
            if x is None:
                break
            game.play(x)
            _assert_proof_holds(game)
    else:
        rng = np.random.default_rng(seed)
        for x in _random_legal_points(game, rng, 300):
            game.play(x)
            _assert_proof_holds(game)


# --------------------------------------------------------------------------- the commands


def test_the_game_commands_play_on_a_workspace_as_its_run():
    from perceptron_gui.core import Workspace
    from perceptron_gui.core.commands import from_dict
    from perceptron_gui.core.game_commands import (
        FinishGame,
        LeaveGame,
        PlayMove,
        StartGame,
        UndoMove,
    )
    from perceptron_gui.core.io.workspacefile import workspace_from_json, workspace_to_json

    ws = Workspace()
    StartGame(1.0, 0.2, seed=5, fit_intercept=True).execute(ws)
    game = game_of(ws)
    assert ws.dataset.n == 0 and ws.params["fit_intercept"] and ws.params["max_iter"] == 1
    for _ in range(6):
        PlayMove(tuple(game.adversary_move())).execute(ws)
    X, y = game.points
    assert np.array_equal(ws.dataset.X, X) and np.array_equal(ws.dataset.y, y)
    if ws.running:  # both classes: the run's step k is move k
        assert ws.step_count == 6
        w, b = ws.weights()
        assert np.array_equal(np.append(w, b), game.w)
    with pytest.raises(ValueError, match="outside the circle"):
        PlayMove((2.0, 0.0)).execute(ws)
    assert ws.dataset.n == 6
    UndoMove().execute(ws)
    assert ws.dataset.n == 5 and len(game.history) == 5
    FinishGame().execute(ws)
    with pytest.raises(ValueError, match="the game is over"):
        PlayMove(tuple(X[5])).execute(ws)
    saved = workspace_to_json(ws)
    back = workspace_from_json(saved)
    again = game_of(back)
    assert again is not game and again.finished and again.mistakes == game.mistakes
    assert np.array_equal(again.w, game.w) and again.rules() == game.rules()
    ws.take_over(back)  # what opening the file does in the window
    assert game_of(ws) is again
    assert from_dict(LeaveGame(True).to_dict()) == LeaveGame(True)
    LeaveGame(True).execute(ws)
    assert game_of(ws) is None and ws.dataset.n == 5 and ws.params["max_iter"] == 1000
    with pytest.raises(ValueError, match="no game is being played"):
        UndoMove().execute(ws)


def test_a_file_whose_game_breaks_its_rules_is_refused_naming_the_point():
    from perceptron_gui.core.io.files import FormatError
    from perceptron_gui.core.io.workspacefile import workspace_from_json

    text = ('{"format": "perceptron-gui-workspace", "version": 1, "learner": "primal", '
            '"game": {"R": 1.0, "gamma": 0.5, "u": [1, 0]}, '
            '"points": [{"x": 0.6, "y": 0.0, "label": 1}, {"x": 0.1, "y": 0.0, "label": 1}]}')
    with pytest.raises(FormatError, match=r"game: point 2 breaks the game's rules: inside"):
        workspace_from_json(text)


def test_the_summary_states_the_result_in_the_texts_terms():
    g = PerceptronGame(1.0, 0.25, seed=0)
    assert g.summary() == "You forced 0 mistakes; the bound was 16; the perceptron's w is still 0."
    while (x := g.adversary_move()) is not None:
        g.play(x)
    text = g.summary("The computer")
    assert text.startswith("The computer forced 8 mistakes; the bound was 16; the perceptron's "
                           "w now separates the points with margin ")


def test_a_proposed_point_shows_the_prediction_before_the_label():
    g = PerceptronGame(2.0, 0.5, u=(1.0, 0.0))
    g.play((1.0, 0.0))
    assert g.propose((-1.0, 1.0)) == -1  # B's guess; nothing revealed or learned yet
    assert g.pending == ((-1.0, 1.0), -1) and len(g.history) == 1
    with pytest.raises(RuleBroken):
        g.propose((0.1, 0.0))
    assert g.pending is None and g.refused[0] == (0.1, 0.0)
    assert g.refused[1].startswith("inside the forbidden band")
    g.propose((-1.0, 1.0))
    move = g.play((-1.0, 1.0))
    assert move.prediction == -1 and not move.mistake and g.pending is None


# --------------------------------------------------------------------------- the demo


def _game_demo(steps, points=()):
    import json

    from perceptron_gui.core.demos import parse_demo

    return parse_demo(json.dumps({
        "format": "perceptron-gui-demo", "version": 1, "title": "g", "description": "",
        "data": {"points": list(points)}, "learner": "primal", "steps": steps}), name="g",
        source="g.json")


def test_the_game_demo_checks_every_number_and_fails_a_wrong_one():
    from perceptron_gui.core import Workspace, demos

    demo = demos.load_demo("the-game")
    player = demos.DemoPlayer(Workspace(), demo)
    assert player.run_all() == []
    game = game_of(player.workspace)
    assert game.finished and game.mistakes == 4 and not game.can_fool()
    assert all(step.checks for step in demo.steps)
    start = {"action": "start_game", "R": 1, "gamma": 0.3, "angle": 30, "caption": "c"}
    wrong = _game_demo([start, {"action": "computer_move", "caption": "c",
                                "checks": {"game_dot": 0.35}}])
    failures = demos.DemoPlayer(Workspace(), wrong).run_all()
    assert len(failures) == 1 and "game_dot" in failures[0]


@pytest.mark.parametrize("steps, message", [
    ([{"action": "computer_move", "caption": "c"}], "expected a non-empty list of points"),
    ([{"action": "start_game", "R": 1, "gamma": 0.3, "caption": "c"},
      {"action": "play_move", "x": 0.1, "y": 0.5, "caption": "c"}],
     r"g.json: steps\[1\]: inside the forbidden band"),
    ([{"action": "start_game", "R": 1, "gamma": 1.5, "caption": "c"}],
     "no point fits the rules"),
    ([{"action": "start_game", "R": "one", "gamma": 0.3, "caption": "c"}], r"steps\[0\].R"),
])
def test_a_game_demo_that_breaks_the_rules_is_refused_on_loading(steps, message):
    from perceptron_gui.core.demos import DemoError

    with pytest.raises(DemoError, match=message):
        _game_demo(steps)
    with pytest.raises(DemoError, match=r"steps\[0\].action: 'computer_move' needs a game"):
        _game_demo([{"action": "computer_move", "caption": "c"}], [{"x": 1, "y": 1, "label": 1}])


def test_the_rules_dragged_by_their_handles_or_refused_with_the_reason():
    from perceptron_gui.core.game_rules import dragged_rules, handle_points, rules_of

    g = PerceptronGame(2.0, 0.5, u=(1.0, 0.0))
    at = handle_points(g)
    assert at["u"] == (2.0, 0.0) and math.hypot(*at["R"]) == pytest.approx(2.0)
    assert float(g.u @ np.array(at["gamma"])) == pytest.approx(0.5)  # on the band's edge
    assert math.hypot(*at["gamma"]) < 2.0  # inside the circle
    r = dragged_rules(g, "u", (0.0, -3.0))
    assert r["angle"] == pytest.approx(-90.0) and (r["R"], r["gamma"]) == (2.0, 0.5)
    assert dragged_rules(g, "gamma", (-0.8, 1.0))["gamma"] == pytest.approx(0.8)
    assert dragged_rules(g, "R", (0.0, 1.5))["R"] == pytest.approx(1.5)
    with pytest.raises(RuleBroken, match=r"γ = 2.10 would fill the circle \(R = 2.00\)"):
        dragged_rules(g, "gamma", (2.1, 0.0))
    with pytest.raises(RuleBroken, match=r"R = 0.40 would leave no room outside the band"):
        dragged_rules(g, "R", (0.4, 0.0))
    with pytest.raises(RuleBroken, match="u needs a direction"):
        dragged_rules(g, "u", (0.0, 0.0))
    with pytest.raises(ValueError, match="no rule handle 'w'"):
        dragged_rules(g, "w", (1.0, 0.0))
    # with the bias: the band is |u·x + β| < γ; R must leave room beyond γ + |β|
    gb = PerceptronGame(2.0, 0.4, u=(0.0, 1.0), offset=0.5, fit_intercept=True)
    assert gb.score(handle_points(gb)["gamma"]) == pytest.approx(0.4)
    assert dragged_rules(gb, "gamma", (0.0, 0.2))["gamma"] == pytest.approx(0.7)
    with pytest.raises(RuleBroken, match=r"\(γ \+ \|c\| = 0.90\)"):
        dragged_rules(gb, "R", (0.8, 0.0))
    assert rules_of(gb) == {"R": 2.0, "gamma": 0.4, "angle": 90.0, "offset": 0.5,
                            "fit_intercept": True}
