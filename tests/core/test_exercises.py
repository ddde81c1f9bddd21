"""The exercises in the core: predict the next update, be the learner, the levels."""

from __future__ import annotations

import math
import re

import numpy as np
import pytest

from perceptron_gui.core import Workspace, generators
from perceptron_gui.core.exercises import (
    LEVELS,
    PredictTheUpdate,
    Progress,
    learner_score,
)
from perceptron_gui.core.exercises import (
    level as level_of,
)
from perceptron_gui.core.game import PerceptronGame
from perceptron_gui.core.theory.hard_margin import max_margin
from perceptron_gui.core.theory.hull import convex_hull


def _workspace(learner="primal", **params):
    ws = Workspace()
    ws.replace(generators.separable(8, seed=3, margin=1.0), learner, {learner: params})
    return ws


def _truth(ws):
    """The next update, computed apart: the oracle the exercise is checked against."""
    here = ws.step_count
    event = ws.step_update()
    ws.seek(here)
    return event


@pytest.mark.parametrize("learner, params", [
    ("primal", {"fit_intercept": False}),
    ("primal", {"fit_intercept": True}),
    ("dual", {"kernel": "linear"}),
    ("primal", {"order": "batch"}),
])
def test_predict_the_update_marks_right_and_wrong_answers(learner, params):
    ws = _workspace(learner, **params)
    ex = PredictTheUpdate(ws)
    truth = _truth(ws)
    batch = truth.index < 0
    assert ex.asks_sample() is not batch
    right = ex.answer(None if batch else truth.index, truth.w_after, truth.b_after)
    assert right.correct and right.w_ok and right.error == 0.0
    assert right.sample_ok is (None if batch else True)
    assert ws.step_count == truth.step  # the update is shown after the answer
    truth = _truth(ws)
    wrong = ex.answer(None if batch else (truth.index + 1) % ws.dataset.n,
                      np.asarray(truth.w_after) + 1.0, truth.b_after)
    assert not wrong.correct and wrong.w_ok is False and wrong.error > 0.05
    assert wrong.w == tuple(truth.w_after) and wrong.sample == truth.index
    if not batch:
        assert wrong.sample_ok is False
    assert (ex.asked, ex.right) == (2, 1)


def test_predict_the_update_with_a_kernel_asks_the_point_only():
    ws = _workspace("dual", kernel="rbf")
    ex = PredictTheUpdate(ws)
    truth = _truth(ws)
    assert ex.asks_sample()
    answer = ex.answer(truth.index)
    assert answer.sample_ok and answer.w_ok is None and answer.correct


def test_predict_the_update_ends_with_the_run():
    ws = _workspace("primal", fit_intercept=True)
    ex = PredictTheUpdate(ws)
    while not ex.over:
        t = _truth(ws)
        ex.answer(t.index, t.w_after, t.b_after)
    assert ex.right == ex.asked > 0 and ws.finished
    with pytest.raises(ValueError, match="no update is left"):
        ex.answer(0, (0, 0))
    with pytest.raises(ValueError, match="needs a learner that steps"):
        PredictTheUpdate(Workspace())


def test_be_the_learner_scores_against_the_maximum_margin():
    X = np.array([[-1.0, 0.0], [-1.0, 1.0], [1.0, 0.0], [1.0, 1.0]])
    y = np.array([-1, -1, 1, 1])
    best = learner_score(X, y, (1.0, 0.0), 0.0)
    assert best.best == pytest.approx(1.0) and best.margin == pytest.approx(1.0)
    assert best.ratio == pytest.approx(1.0) and best.separates
    tilted = learner_score(X, y, (2.0, 0.0), -1.0)  # x₁ = 0.5: a margin of 0.5
    assert tilted.margin == pytest.approx(0.5) and tilted.ratio == pytest.approx(0.5)
    wrong = learner_score(X, y, (-1.0, 0.0), 0.0)
    assert wrong.margin < 0 and not wrong.separates
    overlap = learner_score(np.vstack([X, [[1.0, 0.5]]]), np.append(y, -1), (1.0, 0.0), 0.0)
    assert overlap.best == 0.0 and math.isnan(overlap.ratio)
    with pytest.raises(ValueError, match="nonzero"):
        learner_score(X, y, (0.0, 0.0), 1.0)


def _shown(level):
    """A new workspace showing ``level``, as the exercise mode shows it."""
    ws = Workspace()
    level.show(ws)
    return ws


def test_every_level_can_be_passed_and_progress_is_remembered():
    progress = Progress(["learner-wide", "no-such-level"])
    assert progress.passed == ("learner-wide",)
    assert progress.next_level().key == "predict-wide"
    for level in LEVELS:
        assert level.goal and level.hint and level.title
        if level.kind == "predict":
            ws = _shown(level)
            ex = PredictTheUpdate(ws)
            for _ in range(int(level.target)):
                t = _truth(ws)
                if ex.asks_rival:  # m classes: the point and the class that loses x̃
                    rival = ws.learner.classes_[ws.learner.update_terms(t)[4]]
                    ex.answer(t.index, rival=int(rival))
                else:
                    ex.answer(t.index if t.index >= 0 else None, t.w_after, t.b_after)
            result = ex.right
        elif level.kind == "learner":
            ws = _shown(level)
            best = ws.max_margin
            result = learner_score(ws.dataset.X, ws.dataset.y, best.coef, best.intercept).ratio
        else:
            game = PerceptronGame(level.data["R"], level.data["gamma"], seed=0)
            while (x := game.adversary_move()) is not None:
                game.play(x)
            result = game.mistakes  # the greedy computer passes it too
        assert not progress.record(level, level.target - 1) or level.key in progress.passed
        assert progress.record(level, result), level.key
    assert progress.next_level() is None and len(progress.passed) == len(LEVELS)
    progress.reset()
    assert progress.passed == () and progress.next_level() is LEVELS[0]


def test_the_batch_hint_is_the_pass_the_level_accepts():
    lv = level_of("predict-batch")
    step = re.search(r"adds (η(?:/n)?) Σ (?:y_i x_i|yᵢxᵢ)"
                     r"(?: to w and (η(?:/n)?) Σ (?:y_i|yᵢ) to b)?", lv.hint)
    assert step, lv.hint
    ws = _shown(lv)
    eta = ws.params["eta0"]
    stated = re.search(r"η = ([\d.]+)", lv.hint)
    assert stated is None or float(stated.group(1)) == eta
    X, y = ws.dataset.X, ws.dataset.y
    ex = PredictTheUpdate(ws)
    for _ in range(int(lv.target)):
        w, b = ws.weights()
        mistaken = y * (X @ w + b) <= 0
        share = [eta / len(y) if g.endswith("/n") else eta
                 for g in (step.group(1), step.group(2) or step.group(1))]
        w_hint = w + share[0] * (y[mistaken, None] * X[mistaken]).sum(axis=0)
        b_hint = b + share[1] * y[mistaken].sum()
        assert ex.answer(None, w_hint, b_hint).correct


def _segment_closest(p, a, b):
    """The point of the segment ``ab`` closest to ``p``."""
    d = b - a
    t = 0.0 if not d.any() else float(np.clip((p - a) @ d / (d @ d), 0.0, 1.0))
    return a + t * d


def _closest_pair(A, B):
    """The closest points of the polygons (or point sets) ``A`` and ``B``, brute force."""
    pairs = []
    for P, Q, flip in ((A, B, False), (B, A, True)):
        edges = [(Q[i], Q[(i + 1) % len(Q)]) for i in range(len(Q))]
        for p in P:
            for a, b in edges:
                q = _segment_closest(p, a, b)
                pairs.append((q, p) if flip else (p, q))
    return min(pairs, key=lambda pq: np.linalg.norm(pq[0] - pq[1]))


def test_the_learner_hint_describes_the_maximum_margin_line():
    lv = level_of("learner-wide")
    ws = _shown(lv)
    X, y = ws.dataset.X, ws.dataset.y
    pos, neg = X[y > 0], X[y < 0]
    if "convex hull" in lv.hint:
        pos, neg = convex_hull(pos), convex_hull(neg)
        p, q = _closest_pair(pos, neg)
    else:  # the closest points of the two classes themselves
        p, q = min(((a, b) for a in pos for b in neg), key=lambda ab: np.linalg.norm(ab[0] - ab[1]))
    w = p - q
    b = -float(w @ (p + q)) / 2
    best = max_margin(X, y)
    scale = np.linalg.norm(best.coef) / np.linalg.norm(w)
    np.testing.assert_allclose(np.append(w, b) * scale, np.append(best.coef, best.intercept),
                               rtol=1e-9, atol=1e-9)
    assert learner_score(X, y, w, b).ratio == pytest.approx(1.0)
    assert "halfway" in lv.hint and "right angles" in lv.hint


def test_progress_counts_attempts_and_keeps_the_best_score_of_each_level():
    first, second = LEVELS[0], LEVELS[1]
    progress = Progress([], {first.key: 2, "no-such-level": 4, second.key: "x"},
                        {first.key: 1.0, second.key: float("nan")})
    assert progress.attempts == {first.key: 2} and progress.best == {first.key: 1.0}
    assert progress.started(first) == 3 and progress.started(second) == 1
    assert not progress.record(first, 0.0) and progress.best[first.key] == 1.0
    assert progress.record(first, first.target) and progress.best[first.key] == first.target
    assert progress.passed == (first.key,)
    for level in LEVELS:  # each level says its score against its pass mark
        assert level.score_text(level.target)
    progress.reset()
    assert progress.attempts == {} and progress.best == {} and progress.passed == ()


def test_the_multiclass_hint_is_the_rule_the_level_marks():
    lv = level_of("predict-multiclass")
    assert "w_y gains x̃" in lv.hint and "first such when they tie" in lv.hint
    ws = _shown(lv)
    ex = PredictTheUpdate(ws)
    assert ex.asks_rival and ws.multiclass
    learner = ws.learner
    for _ in range(int(lv.target)):
        here = learner.weights_after(learner.n_updates_)
        t = _truth(ws)
        z = learner.augmented_X[t.index]
        scores = here @ z  # the hint's rule, by hand: the first other class scoring as much
        own = list(learner.classes_).index(t.label)
        rival = next(k for k in range(3) if k != own and scores[k] == max(
            scores[j] for j in range(3) if j != own))
        assert scores[rival] >= scores[own]
        mark = ex.answer(t.index, rival=int(learner.classes_[rival]))
        assert mark.correct and mark.rival == learner.classes_[rival]
    assert ex.right == 3
