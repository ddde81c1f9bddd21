"""A point on the boundary: a mistake (seeds 001, 003, scikit-learn) or class +1 (002, 004).

The learners' parameter ``tie``: its default is scikit-learn's run bit for bit,
``"positive"`` is checked against a run computed by hand (the demo
first-updates: 6 updates, w = (5, −3), b = 0), the two scans and the dual
agree under it, a replay from checkpoints is exact, and the game, the
exercises, files and demos carry it.
"""

from __future__ import annotations

import json

import numpy as np
import pytest
from sklearn.linear_model import Perceptron

from perceptron_gui.core import Dataset, PrimalPerceptron, Workspace, demos
from perceptron_gui.core.exercises import PredictTheUpdate
from perceptron_gui.core.game import PerceptronGame, game_of
from perceptron_gui.core.game_commands import PlayMove, StartGame
from perceptron_gui.core.io import workspacefile
from perceptron_gui.core.learners import DualPerceptron, _log, _scan, registry, ties

#: The demo first-updates' six points.
X6 = np.array([[3, 1], [-1, 0], [0, -3], [-3, 0], [0, -2], [-2, -3]], dtype=float)
Y6 = np.array([1, -1, 1, -1, 1, -1])

BACKENDS = ["numpy", pytest.param("compiled", marks=pytest.mark.skipif(
    not _scan.compiled_available(), reason="numba not available"))]


def rows_bytes(learner) -> list[bytes]:
    return [a.tobytes() for a in learner.update_log.rows()]


def integer_data(seed: int, n: int = 60) -> tuple[np.ndarray, np.ndarray]:
    """Small integers: from w = 0 every f(x) is 0, and later ties are frequent."""
    rng = np.random.default_rng(seed)
    X = rng.integers(-3, 4, size=(n, 2)).astype(float)
    y = np.where(rng.random(n) < 0.5, -1, 1)
    y[:2] = (-1, 1)
    return X, y


@pytest.mark.parametrize("backend", BACKENDS)
def test_sign_zero_plus_one_gives_the_hand_computed_run(monkeypatch, backend):
    # by hand: sample 1 (+1) on the boundary of w = 0 is right; 2 (−1) is the first
    # mistake, then 3, 6 | 3, 6 | 3 | a clean fourth epoch
    monkeypatch.setattr(_scan, "FORCE", backend)
    p = PrimalPerceptron(tie="positive").fit(X6, Y6)
    assert p.converged_ and p.n_updates_ == 6 and p.n_epochs_ == 4
    assert p.coef_.tolist() == [[5.0, -3.0]] and p.intercept_.tolist() == [0.0]
    rows = p.update_log.rows()
    assert rows.index.tolist() == [1, 2, 5, 2, 5, 2]
    assert rows.step.tolist() == [2, 3, 6, 9, 12, 15]
    assert rows.margin.tolist() == [0.0, -1.0, -7.0, -1.0, -3.0, -1.0]
    first = p.event(1)
    assert first.margin == 0.0 and not first.mistake


@pytest.mark.parametrize("backend", BACKENDS)
def test_the_default_counts_the_boundary_as_a_mistake_as_before(monkeypatch, backend):
    monkeypatch.setattr(_scan, "FORCE", backend)
    p = PrimalPerceptron().fit(X6, Y6)
    assert p.tie == "mistake"
    assert p.n_updates_ == 4 and p.coef_.tolist() == [[5.0, -2.0]]
    assert p.intercept_.tolist() == [2.0]


@pytest.mark.parametrize("seed", range(6))
def test_the_default_equals_scikit_learn_on_data_full_of_ties(seed):
    X, y = integer_data(seed)
    ours = PrimalPerceptron(max_iter=50).fit(X, y)
    ref = Perceptron(shuffle=False, eta0=1.0, tol=None, penalty=None,
                     max_iter=ours.n_epochs_).fit(X, y)
    assert ours.coef_.tobytes() == ref.coef_.tobytes()
    assert ours.intercept_.tobytes() == ref.intercept_.tobytes()


@pytest.mark.parametrize("seed", range(8))
@pytest.mark.parametrize("order", ["cyclic", "random", "uniform"])
@pytest.mark.parametrize("fit_intercept", [True, False])
def test_both_scans_agree_bit_for_bit_under_either_rule(monkeypatch, seed, order,
                                                         fit_intercept):
    if not _scan.compiled_available():
        pytest.skip("numba not available")
    X, y = integer_data(seed)
    runs = {}
    for tie in ties.TIES:
        for backend in ("numpy", "compiled"):
            monkeypatch.setattr(_scan, "FORCE", backend)
            p = PrimalPerceptron(tie=tie, order=order, random_state=seed, max_iter=40,
                                 fit_intercept=fit_intercept).fit(X, y)
            runs[tie, backend] = rows_bytes(p)
        assert runs[tie, "numpy"] == runs[tie, "compiled"]
    assert runs["mistake", "numpy"] != runs["positive", "numpy"]


@pytest.mark.parametrize("seed", range(6))
@pytest.mark.parametrize("fit_intercept", [True, False])
def test_the_dual_equals_the_primal_under_the_same_rule(seed, fit_intercept):
    X, y = integer_data(seed, n=30)
    for tie in ties.TIES:
        primal = PrimalPerceptron(tie=tie, max_iter=40, fit_intercept=fit_intercept).fit(X, y)
        dual = DualPerceptron(tie=tie, max_iter=40, fit_intercept=fit_intercept).fit(X, y)
        # a kernel run (K = a·b exactly, as polynomial of degree 1) sums f the dual's way
        kern = DualPerceptron(tie=tie, kernel="poly", degree=1, gamma=1.0, coef0=0.0,
                              max_iter=40, fit_intercept=fit_intercept).fit(X, y)
        idx = primal.update_log.rows().index.tolist()
        assert dual.update_log.rows().index.tolist() == idx
        assert kern.update_log.rows().index.tolist() == idx
        assert dual.coef_.tobytes() == primal.coef_.tobytes()
        assert dual.intercept_.tobytes() == primal.intercept_.tobytes()
        assert kern.intercept_.tobytes() == primal.intercept_.tobytes()
        assert dual.converged_ == primal.converged_ == kern.converged_
        assert np.array_equal(dual.alpha_, kern.alpha_)


def test_the_dual_kernel_run_follows_the_hand_computed_run():
    d = DualPerceptron(tie="positive", kernel="poly", degree=1, gamma=1.0, coef0=0.0).fit(X6, Y6)
    assert d.converged_ and d.n_updates_ == 6 and d.intercept_.tolist() == [0.0]
    assert d.alpha_.tolist() == [0, 1, 3, 0, 0, 2]
    w = (d.alpha_ * Y6) @ X6
    assert w.tolist() == [5.0, -3.0]


@pytest.mark.parametrize("backend", BACKENDS)
def test_a_replay_from_checkpoints_follows_the_rule(monkeypatch, backend):
    X, y = integer_data(3, n=400)
    y = np.where(np.random.default_rng(9).random(400) < 0.1, -y, y)  # never separable

    def make():
        return PrimalPerceptron(tie="positive", order="random", random_state=2, max_iter=100)

    monkeypatch.setattr(_scan, "FORCE", backend)
    monkeypatch.setattr(_log, "LOG_BYTES", 2**16)
    small = make().start(X, y)
    monkeypatch.setattr(_log, "LOG_BYTES", 256 * 2**20)
    while not small.finished:
        small.advance(5_000)
    ref = make().fit(X, y)
    assert small.update_log.thinned
    assert rows_bytes(small) == rows_bytes(ref)
    for step in np.random.default_rng(0).integers(1, ref.step_count, 25).tolist():
        a, b = small.seek(step), ref.seek(step)
        assert (a.index, a.margin, a.mistake, a.k) == (b.index, b.margin, b.mistake, b.k)
        assert small.coef_.tobytes() == ref.coef_.tobytes()


def test_stepping_seeking_and_stepping_back_give_the_fitted_run():
    fitted = PrimalPerceptron(tie="positive").fit(X6, Y6)
    p = PrimalPerceptron(tie="positive").start(X6, Y6)
    events = []
    while (ev := p.step()) is not None:
        events.append((ev.index, ev.mistake, ev.margin))
    assert sum(m for _, m, _ in events) == 6 and p.coef_.tolist() == fitted.coef_.tolist()
    p.seek(3)
    assert p.n_updates_ == 2 and p.coef_.tolist() == [[1.0, -3.0]]
    p.step_back()
    assert p.n_updates_ == 1 and p.intercept_.tolist() == [-1.0]


def test_predict_gives_plus_one_on_the_boundary_only_under_positive():
    on = np.array([[1.0, 1.0]])
    for tie, label in (("mistake", -1), ("positive", 1)):
        p = PrimalPerceptron(tie=tie, fit_intercept=False, max_iter=1).fit(
            np.array([[1.0, -1.0], [-1.0, 1.0]]), np.array([1, -1]))
        assert p.decision_function(on).tolist() == [0.0]
        assert p.predict(on).tolist() == [label]


def test_the_rule_is_stored_unchecked_and_validated_in_fit():
    p = PrimalPerceptron(tie="sometimes")
    assert p.tie == "sometimes"
    with pytest.raises(ValueError, match="tie must be 'mistake' or 'positive'"):
        p.fit(X6, Y6)
    with pytest.raises(ValueError, match="tie"):
        DualPerceptron(tie=None).fit(X6, Y6)


def test_batch_descent_of_the_perceptron_loss_follows_the_rule():
    # one pass from w = 0: every f(x) is 0, so only the −1 samples are mistakes
    p = PrimalPerceptron(tie="positive", order="batch", max_iter=1).start(X6, Y6)
    ev = p.step()
    neg = Y6 < 0
    assert ev.w_after.tolist() == (-(X6[neg].sum(axis=0))).tolist()
    assert ev.b_after == -3.0
    assert p.step_terms(1)[0].tolist() == np.flatnonzero(neg).tolist()


def test_every_stepping_perceptron_in_the_registry_offers_the_rule():
    offered = [key for key, spec in registry.REGISTRY.items() if spec.caps().tie is not None]
    # the stepping perceptrons of two classes, and the learners made of them (one-vs-rest);
    # the multiclass perceptron has one rule, μ ≤ 0 (two classes: y·f(x) ≤ 0, as sklearn's)
    multiclass = set(registry.stepping()) & set(registry.multiclass())
    assert multiclass and not {k for k in multiclass if registry.get(k).caps().tie}
    assert offered and set(registry.stepping()) - multiclass <= set(offered)
    assert all(registry.get(k).caps().steps or registry.get(k).caps().claims for k in offered)
    for key in offered:
        spec = registry.get(key)
        assert spec.defaults["tie"] == ties.DEFAULT_TIE
        assert [v for v, _ in spec.param("tie").choices] == list(ties.TIES)
        positive = spec.caps(dict(spec.defaults, tie="positive"))
        assert positive.mistake_condition == "mistake: y·ŷ < 0, sign(0) = +1"
        assert spec.caps().mistake_condition == "mistake: y·f(x) ≤ 0"
        learner = spec.create(dict(spec.defaults, tie="positive")).fit(X6, Y6)
        assert learner.n_updates_ == 6


def test_the_workspace_counts_misclassified_samples_by_the_rule():
    ws = Workspace(Dataset(X6, Y6))
    assert ws.misclassified().tolist() == [0, 1, 2, 3, 4, 5]  # w = 0: all on the boundary
    assert ws.readouts().training_error == 1.0
    ws.set_params(tie="positive")
    assert ws.misclassified().tolist() == [1, 3, 5]
    assert ws.readouts().training_error == 0.5
    ws.step()
    ws.step()
    r = ws.readouts()
    assert r.last_update.startswith("mistake: y·ŷ < 0, sign(0) = +1 (y·f(x) = 0.00, y = −1)\n")
    assert ws.capabilities.mistake_condition == "mistake: y·ŷ < 0, sign(0) = +1"


def test_a_saved_rule_is_opened_and_an_old_file_opens_with_the_default():
    ws = Workspace(Dataset(X6, Y6))
    ws.set_params(tie="positive")
    ws.run_to_end()
    text = workspacefile.workspace_to_json(ws)
    back = workspacefile.workspace_from_json(text)
    assert back.params["tie"] == "positive"
    assert back.learner.n_updates_ == 6 and back.learner.coef_.tolist() == [[5.0, -3.0]]
    doc = json.loads(text)
    for values in doc["params"].values():
        values.pop("tie", None)
    doc["run"]["step"] = 0  # a file from before: its step counted the default's run
    old = workspacefile.workspace_from_json(json.dumps(doc))
    assert old.params["tie"] == "mistake"
    assert old.all_params()["dual"]["tie"] == "mistake"
    old.run_to_end()
    assert old.learner.n_updates_ == 4


@pytest.mark.parametrize("fit_intercept", [False, True])
def test_the_game_plays_the_rule_and_the_run_agrees(fit_intercept):
    ws = Workspace()
    StartGame(2.0, 0.5, (1.0, 0.0), fit_intercept=fit_intercept, tie="positive").execute(ws)
    assert ws.params["tie"] == "positive"
    moves = [(-1.0, 0.5), (1.0, 0.2), (-0.8, -1.0), (1.5, -0.5)]
    for x in moves:
        PlayMove(x).execute(ws)
    game = game_of(ws)
    first = game.history[0]  # w = 0: B says +1 on its boundary, the label is −1
    assert first.prediction == 1 and first.label == -1 and first.mistake
    assert [m.mistake for m in game.history] == [
        ws.learner.event(k).mistake for k in range(1, len(moves) + 1)]
    assert game.rules()["tie"] == "positive"
    again = PerceptronGame.from_rules(game.rules(), *game.points)
    assert again.tie == "positive" and again.mistakes == game.mistakes
    old = dict(game.rules())
    del old["tie"]
    assert PerceptronGame.from_rules(old).tie == "mistake"


def test_at_w_zero_the_game_errs_on_a_plus_one_point_only_under_the_default():
    for tie, mistake, prediction in (("mistake", True, 0), ("positive", False, 1)):
        game = PerceptronGame(2.0, 0.5, (1.0, 0.0), tie=tie)
        move = game.play((1.0, 0.0))
        assert (move.mistake, move.prediction, move.label) == (mistake, prediction, 1)
    with pytest.raises(ValueError, match="tie"):
        PerceptronGame(2.0, 0.5, (1.0, 0.0), tie="maybe")


def test_predicting_the_update_follows_the_rule():
    ws = Workspace(Dataset(X6, Y6))
    ws.set_params(tie="positive")
    exercise = PredictTheUpdate(ws)
    answer = exercise.answer(1, w=(1.0, 0.0), b=-1.0)  # sample 2 (index 1), not sample 1
    assert answer.correct


def _game_demo(start: dict):
    doc = {"format": "perceptron-gui-demo", "version": 1, "title": "t", "description": "d",
           "data": {"points": []}, "learner": "primal",
           "steps": [dict(start, action="start_game", R=1, gamma=0.3, caption="c"),
                     {"action": "play_move", "x": 0.5, "y": 0.0, "caption": "c",
                      "checks": {"game_mistakes": 0}},
                     {"action": "play_move", "x": -0.5, "y": 0.0, "caption": "c",
                      "checks": {"game_mistakes": 1, "updates": 1}}]}
    return demos.parse_demo(json.dumps(doc), name="g.json")


def test_a_demo_may_set_the_game_s_rule():
    demo = _game_demo({"tie": "positive"})
    player = demos.DemoPlayer(Workspace(), demo)
    assert player.run_all() == []  # at w = 0 the +1 point is right, the −1 point is not
    assert game_of(player.workspace).tie == "positive"
    default = demos.DemoPlayer(Workspace(), _game_demo({})).run_all()
    assert default[0] == "step 2 (play_move): game_mistakes: expected 0, got 1"
    with pytest.raises(demos.DemoError, match=r"steps\[0\].tie: expected one of 'mistake', "):
        _game_demo({"tie": "never"})
