"""The weight-space demo checks measure what they say, computed here another way, and a
wrong number in a caption of the weight-space demo fails."""

from __future__ import annotations

import json
import math

import numpy as np
import pytest
from scipy.optimize import linprog

from perceptron_gui.core import Dataset, Workspace
from perceptron_gui.core.demos import CHECKS, DEMO_DIR, DemoPlayer, load_demo, parse_demo

WEIGHT_CHECKS = ("feasible", "region_sides", "cone_angle", "cone_edges", "w_feasible",
                 "w_in_chart", "w_repeats", "cycle_updates")


def _player(upto: int) -> DemoPlayer:
    player = DemoPlayer(Workspace(), load_demo("weight-space"))
    player.goto(upto)
    return player


def _z(ws) -> np.ndarray:
    """The constraint normals y (x, c) or y x of the workspace's run, written out here."""
    X, y = ws.dataset.X, ws.dataset.y.astype(float)
    q = ws.params
    if q["fit_intercept"]:
        X = np.column_stack([X, np.full(len(y), q["bias_scale"])])
    return X * y[:, None]


def _w(ws) -> np.ndarray:
    w = np.asarray(ws.learner.coef_[0], float)
    if ws.params["fit_intercept"]:
        w = np.r_[w, ws.learner.intercept_[0] / ws.params["bias_scale"]]
    return w


def _separable_lp(Z) -> bool:
    """Whether some w has z_i·w >= 1 for every case (a linear program, not our geometry)."""
    res = linprog(np.zeros(Z.shape[1]), A_ub=-Z, b_ub=-np.ones(len(Z)),
                  bounds=[(None, None)] * Z.shape[1], method="highs")
    return res.status == 0


def test_no_run_and_a_learner_fitted_at_once_have_none_of_them():
    ws = Workspace(Dataset(np.array([[1.0, 2.0], [-1.0, -1.0]]), np.array([1, -1])),
                   learner="lda")
    player = DemoPlayer(ws, load_demo("weight-space"))
    player.workspace.set_learner("lda")
    for name in WEIGHT_CHECKS:
        assert CHECKS[name].measure(player) is None, name


@pytest.mark.parametrize("upto", range(1, 12))
def test_feasible_and_w_feasible_agree_with_a_linear_program_and_the_margins(upto):
    player = _player(upto)
    ws = player.workspace
    Z = _z(ws)
    assert CHECKS["feasible"].measure(player) == _separable_lp(Z)
    assert CHECKS["w_feasible"].measure(player) == bool(np.all(Z @ _w(ws) > 0))


def test_the_cone_is_the_angle_between_its_edges_and_each_edge_lies_on_a_case_line():
    player = _player(1)
    Z = _z(player.workspace)
    e = np.asarray(CHECKS["cone_edges"].measure(player)).reshape(2, 2)
    assert np.allclose(np.hypot(e[:, 0], e[:, 1]), 1.0)
    for edge in e:  # on some case's line, and on the good side of every other
        dots = Z @ edge / np.linalg.norm(Z, axis=1)
        assert np.min(np.abs(dots)) < 1e-12
        assert np.all(dots > -1e-12)
    between = math.degrees(math.acos(float(np.clip(e[0] @ e[1], -1, 1))))
    assert CHECKS["cone_angle"].measure(player) == pytest.approx(between, abs=1e-9)
    assert CHECKS["region_sides"].measure(player) == 2
    # a direction just inside the cone classifies every case; one just outside does not
    mid = e[0] + e[1]
    assert np.all(Z @ mid > 0)
    turn = np.array([[0.0, -1.0], [1.0, 0.0]])
    assert not np.all(Z @ (e[0] - 1e-3 * turn @ e[0]) > 0)


def test_with_a_bias_there_is_no_cone_and_every_later_state_is_on_the_chart():
    player = _player(6)
    assert CHECKS["cone_angle"].measure(player) is None
    assert CHECKS["cone_edges"].measure(player) is None
    assert CHECKS["w_in_chart"].measure(player) is True
    ws = player.workspace
    w_star = np.asarray(ws.novikoff.w_star, float)
    assert float(_w(ws) @ w_star) > 0


def test_the_walk_repeats_where_brute_force_finds_it():
    player = _player(11)
    ws = player.workspace
    end = ws.learner.n_updates_
    ws.reset()
    states = [np.zeros(2)]
    while ws.learner.n_updates_ < end:
        ws.step_update()
        states.append(np.asarray(ws.learner.coef_[0], float).copy())
    last = states[-1]
    earlier = [k for k, w in enumerate(states[:-1]) if np.array_equal(w, last)]
    assert earlier, "the non-separable run should come back to a state"
    assert CHECKS["w_repeats"].measure(player) is True
    assert CHECKS["cycle_updates"].measure(player) == end - earlier[-1] == 9
    first = _player(3)  # the walk into the cone never comes back
    assert CHECKS["w_repeats"].measure(first) is False
    assert CHECKS["cycle_updates"].measure(first) is None


@pytest.mark.parametrize(("step", "name", "wrong"), [
    (0, "cone_angle", 33.5),
    (4, "region_sides", 3),
    (6, "region_sides", 4),
    (10, "cycle_updates", 8),
    (3, "w_feasible", False),
])
def test_a_wrong_number_in_the_weight_space_demo_fails(step, name, wrong):
    raw = json.loads((DEMO_DIR / "weight-space.json").read_text(encoding="utf-8"))
    raw["steps"][step]["checks"][name] = wrong
    demo = parse_demo(json.dumps(raw), name="weight-space")
    failures = DemoPlayer(Workspace(), demo).run_all()
    assert len(failures) == 1 and name in failures[0]


def test_the_demo_shows_the_weight_space_view():
    assert load_demo("weight-space").views == ("weights",)
