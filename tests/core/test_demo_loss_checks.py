"""The demo checks of losses and orders measure what they say (risk, path of w, passes,
margins), and a wrong number in a caption fails."""

from __future__ import annotations

import json

import numpy as np
import pytest

from perceptron_gui.core import Workspace
from perceptron_gui.core.demos import CHECKS, DEMO_DIR, DemoPlayer, load_demo, parse_demo


def _player(name: str, upto: int) -> DemoPlayer:
    player = DemoPlayer(Workspace(), load_demo(name))
    player.goto(upto)
    return player


@pytest.mark.parametrize(("loss", "of_z"), [
    ("perceptron", lambda z: np.maximum(0, -z)),
    ("hinge", lambda z: np.maximum(0, 1 - z)),
    ("log_loss", lambda z: np.log1p(np.exp(-z))),
])
def test_risk_is_the_mean_loss_of_the_margins_computed_here(loss, of_z):
    player = _player("gd-vs-sgd", 1)
    ws = player.workspace
    ws.set_params(loss=loss, order="cyclic")
    ws.step_epoch()
    X, y = ws.dataset.X, ws.dataset.y
    w, b = ws.learner.coef_[0], ws.learner.intercept_[0]
    expect = float(np.mean(of_z(y * (X @ w + b))))
    assert CHECKS["risk"].measure(player) == pytest.approx(expect, rel=1e-12)


def test_w_path_sums_the_steps_of_w_seen_one_by_one():
    player = _player("gd-vs-sgd", 5)  # uniform SGD run to its end
    ws = player.workspace
    total = CHECKS["w_path"].measure(player)
    end = ws.step_count
    ws.reset()
    walked, last = 0.0, np.zeros(2)
    for _ in range(end):
        ws.step()
        walked += float(np.linalg.norm(ws.learner.coef_[0] - last))
        last = ws.learner.coef_[0].copy()
    assert total == pytest.approx(walked, rel=1e-12)


def test_the_batch_pass_counts_its_cases_and_sample_steps_have_none():
    assert CHECKS["last_pass_cases"].measure(_player("gd-vs-sgd", 1)) is None
    player = _player("gd-vs-sgd", 8)
    ws = player.workspace
    ev = ws.current_event
    z = ws.dataset.y * (ws.dataset.X @ ev.w_before + ev.b_before)
    assert CHECKS["last_pass_cases"].measure(player) == int(np.sum(z <= 0)) == 4


def test_the_margin_checks_tell_the_two_losses_apart():
    perceptron = _player("hinge-margin", 2)
    hinge = _player("hinge-margin", 5)
    assert CHECKS["margin_exceeds_perceptron"].measure(perceptron) is False
    assert CHECKS["functional_margins_ge_1"].measure(perceptron) is False
    assert CHECKS["margin_exceeds_perceptron"].measure(hinge) is True
    assert CHECKS["functional_margins_ge_1"].measure(hinge) is True
    z = hinge.workspace.training_margins()
    assert CHECKS["min_functional_margin"].measure(hinge) == z.min() >= 1
    w = hinge.workspace.learner.coef_[0]
    assert CHECKS["margin"].measure(hinge) == pytest.approx(z.min() / np.linalg.norm(w))


@pytest.mark.parametrize(("name", "step", "check", "wrong"), [
    ("gd-vs-sgd", 8, "w_path", 60.0),
    ("gd-vs-sgd", 6, "last_pass_cases", 19),
    ("hinge-margin", 4, "margin", 0.5),
    ("hinge-margin", 1, "min_functional_margin", 0.0255),
])
def test_a_wrong_number_in_a_caption_fails(name, step, check, wrong):
    doc = json.loads((DEMO_DIR / f"{name}.json").read_text("utf-8"))
    assert check in doc["steps"][step]["checks"]
    doc["steps"][step]["checks"][check] = wrong
    player = DemoPlayer(Workspace(), parse_demo(json.dumps(doc), name))
    failures = player.run_all()
    assert len(failures) == 1 and check in failures[0]
