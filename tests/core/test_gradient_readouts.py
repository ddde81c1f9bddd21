"""Hinge, logistic and batch runs in the readouts, the update rows, the exports and the end
message: each step as its loss's gradient; Novikoff's bound said not to apply."""

from __future__ import annotations

import math

import numpy as np
import pytest

from perceptron_gui.core import datasets, report, report_latex
from perceptron_gui.core.learners.losses import expit
from perceptron_gui.core.text import pass_terms
from perceptron_gui.core.workspace import Workspace


def _ws(n=20, seed=3, **params):
    ws = Workspace(datasets.overlapping(n, seed=seed))
    ws.set_params(**params)
    return ws


def _csv(ws) -> list[str]:
    return "".join(b.text for b in report.csv_blocks(ws)).splitlines()


@pytest.mark.parametrize(("params", "words"), [
    ({"loss": "hinge"}, "this run uses the hinge loss"),
    ({"loss": "log_loss"}, "this run uses the logistic loss"),
    ({"order": "batch"}, "this run is batch gradient descent"),
])
def test_the_readouts_say_the_bound_does_not_apply(params, words):
    ws = _ws(**params)
    ws.step()
    r = ws.readouts()
    assert not ws.capabilities.novikoff
    assert r.bound_text.startswith("Novikoff's bound is about the perceptron's updates")
    assert words in r.bound_text
    assert ws.proof() is None
    ws.run_to_end()
    message = ws.end_message()
    assert "(R/γ)²" not in message and "separable" not in message


def test_the_perceptron_keeps_its_bound_and_its_texts():
    ws = Workspace(datasets.separable(20, seed=1))
    ws.step_update()
    r = ws.readouts()
    assert ws.capabilities.novikoff and r.bound_text.startswith("k = 1 ≤ (R/γ)² = ")
    assert r.last_update.startswith("w ← (0.00, 0.00) + ")


def test_a_hinge_run_writes_its_last_update_as_the_perceptron_does():
    ws = _ws(loss="hinge")
    X, y = ws.dataset.X, ws.dataset.y
    moved = still = 0
    last = ""
    for _ in range(40):
        ev = ws.step()
        text = ws.readouts().last_update
        assert ev.mistake == (ev.margin <= 1)
        assert ws.learner.n_updates_ == moved + ev.mistake
        if ev.mistake:
            moved += 1
            assert text.startswith("w ← ") and "= " in text
            np.testing.assert_allclose(ev.w_after, ev.w_before + ev.label * X[ev.index])
            last = text
        else:
            still += 1
            assert np.array_equal(ev.w_after, ev.w_before) and ev.b_after == ev.b_before
            assert text == last  # the last update stays written, as the perceptron's
        assert y[ev.index] == ev.label
    assert moved and still


def test_a_logistic_step_writes_sigma_of_minus_z_evaluated():
    ws = _ws(loss="log_loss", eta0=0.5)
    ws.step()
    ev = ws.step()
    s = float(expit(-ev.margin))
    x = ws.dataset.X[ev.index]
    np.testing.assert_allclose(ev.w_after, ev.w_before + 0.5 * s * ev.label * x, rtol=1e-12)
    lines = ws.readouts().last_update.split("\n")
    assert lines[0] == f"σ(−z) = σ({-ev.margin:.2f}) = {s:.2f}".replace("-", "−")
    assert f"+ 0.50·{s:.2f}·" in lines[1]


def test_a_batch_pass_writes_its_sum_against_the_formula_computed_here():
    ws = _ws(order="batch")
    X, y = ws.dataset.X, ws.dataset.y
    for _ in range(3):
        ev = ws.step()
    assert ev.index == -1
    z = y * (X @ ev.w_before + ev.b_before)
    m = int(np.sum(z <= 0))
    total = (y[z <= 0, None] * X[z <= 0]).sum(axis=0)  # the Σ_{i: z_i ≤ 0} y_i x_i
    np.testing.assert_allclose(ev.w_after, ev.w_before + total, rtol=1e-12)
    assert pass_terms(ev.w_before, ev.b_before, X, y)[0] == m
    text = ws.readouts().last_update
    assert text.startswith(f"Σ yᵢ·xᵢ over the {m} cases with zᵢ ≤ 0 = ")
    r = ws.readouts()
    assert r.epoch == 3 and r.position == ws.dataset.n  # a pass is one step, an epoch
    # the update rows and the CSV: the pass has no sample (index −1), label 0, x NaN
    row = report.update_row(ws, 2)
    assert row.sample == -1 and row.label == 0 and row.epoch == 3 and np.isnan(row.x).all()
    assert row.formula == text
    cells = _csv(ws)[3].split(",")
    assert cells[:5] == ["3", "3", "3", "-1", "0"] and cells[5] == "nan"
    tex = report_latex.log_to_latex(ws)
    assert "all &" in tex and r"\leftarrow" in tex


def test_the_latex_of_a_hinge_run_writes_its_updates_only():
    ws = _ws(loss="hinge")
    ws.run_to_end()
    tex = report_latex.log_to_latex(ws, stop=60)
    rows = [line for line in tex.splitlines() if line.endswith("\\\\") and line[:1].isdigit()]
    assert 0 < len(rows) == min(60, ws.learner.n_updates_) < ws.step_count
    assert not [r for r in rows if r.endswith("no update \\\\")]


def test_the_end_messages_of_runs_without_a_bound():
    ws = _ws(n=12, seed=1, loss="hinge", max_iter=3)
    ws.run_to_end()
    assert ws.end_message().startswith("Stopped after max_iter = 3 epochs")
    assert "z ≤ 1" in ws.end_message()
    sep = Workspace(datasets.separable(20, seed=1))
    sep.set_params(loss="hinge")
    sep.run_to_end()
    assert sep.learner.converged_
    assert sep.end_message().startswith("Converged: ")
    assert "every case has z > 1" in sep.end_message()
    assert np.all(sep.training_margins() > 1)
    log = _ws(n=12, seed=1, loss="log_loss", max_iter=2)
    log.run_to_end()
    assert "logistic loss moves w on every case" in log.end_message()
    assert not math.isnan(log.readouts().training_error)


@pytest.mark.parametrize("loss", ["perceptron", "hinge", "log_loss"])
def test_the_written_pass_agrees_with_the_learners_own_step_terms(loss):
    ws = _ws(n=30, seed=2, order="batch", loss=loss)
    for _ in range(3):
        ev = ws.step()
    index, dloss = ws.learner.step_terms(ev.step)
    m, total, sum_y = pass_terms(ev.w_before, ev.b_before, ws.dataset.X, ws.dataset.y,
                                 ws.capabilities.loss)
    assert m == index.size
    np.testing.assert_allclose(total, -(dloss[:, None] * ws.dataset.X[index]).sum(axis=0),
                               rtol=1e-12, atol=1e-12)
    assert sum_y == pytest.approx(-dloss.sum(), rel=1e-12, abs=1e-12)
    np.testing.assert_allclose(ev.w_after, ev.w_before + ws.params["eta0"] * total, rtol=1e-12)
