"""Each step written as the gradient of its case's loss, with the numbers filled in."""

from __future__ import annotations

import math

import numpy as np
import pytest

from perceptron_gui.core.learners import StepEvent
from perceptron_gui.core.learners.losses import HINGE, LOG_LOSS, expit, loss_for
from perceptron_gui.core.learners.registry import Capabilities
from perceptron_gui.core.readouts import no_bound_reason
from perceptron_gui.core.text import format_update, pass_terms


def _event(margin, w0, w1, b0, b1, *, index=0, label=1, mistake=True):
    return StepEvent(step=1, epoch=0, position=0, index=index, label=label, margin=margin,
                     mistake=mistake, k=1, w_before=np.array(w0, float), b_before=b0,
                     w_after=np.array(w1, float), b_after=b1)


def test_the_perceptron_and_the_hinge_write_the_same_update_when_they_move():
    ev = _event(0.5, [1.2, -0.4], [1.7, 1.6], 0.0, 1.0)
    text = format_update(ev, x=[0.5, 2.0], loss=HINGE)
    assert text == format_update(ev, x=[0.5, 2.0])  # w ← w + η·y·x, as for the perceptron
    assert text == ("w ← (1.20, −0.40) + (+1)·(0.50, 2.00) = (1.70, 1.60)\n"
                    "b ← 0.00 + (+1)·1.00 = 1.00")


def test_a_step_that_does_not_move_w_says_so_with_its_loss_threshold():
    ev = _event(1.5, [1, 1], [1, 1], 0.0, 0.0, mistake=False)
    assert format_update(ev, x=[1, 1]) == "no update: y·f(x) = 1.50 > 0"
    assert format_update(ev, x=[1, 1], loss=HINGE) == "no update: y·f(x) = 1.50 > 1"


def test_the_logistic_step_is_scaled_by_sigma_of_minus_z_evaluated():
    z = 0.35
    s = float(expit(-z))
    assert s == pytest.approx(1 / (1 + math.exp(z)))
    x, w0 = np.array([0.5, 2.0]), np.array([1.2, 0.4])
    ev = _event(z, w0, w0 + 0.5 * s * x, 0.0, 0.5 * s, label=1)
    text = format_update(ev, x=x, eta0=0.5, loss=LOG_LOSS)
    lines = text.split("\n")
    assert lines[0] == f"σ(−z) = σ(−0.35) = {s:.2f}"
    assert lines[1] == (f"w ← (1.20, 0.40) + 0.50·{s:.2f}·(+1)·(0.50, 2.00) = "
                        f"({w0[0] + 0.5 * s * 0.5:.2f}, {w0[1] + 0.5 * s * 2:.2f})")
    assert lines[2].startswith(f"b ← 0.00 + 0.50·{s:.2f}·(+1)·1.00 = ")


def test_sigmoid_has_no_overflow_at_either_tail():
    assert expit(800) == 1.0 and expit(-800) == 0.0 and expit(0) == 0.5


def test_a_batch_pass_writes_its_sum_with_the_count_of_cases():
    X = np.array([[1.0, 0.0], [0.0, 2.0], [-1.0, -1.0], [3.0, 1.0]])
    y = np.array([1, -1, 1, 1])
    w0, b0 = np.array([-1.0, 0.5]), 0.0
    z = y * (X @ w0 + b0)  # -1, -1, 0.5, -2.5: three mistakes
    mask = z <= 0
    total = (y[mask, None] * X[mask]).sum(axis=0)  # computed here, independently
    assert mask.sum() == 3
    m, got, sy = pass_terms(w0, b0, X, y)
    assert m == 3 and np.array_equal(got, total) and sy == y[mask].sum()
    ev = _event(math.nan, w0, w0 + total, b0, b0 + y[mask].sum(), index=-1, label=0)
    lines = format_update(ev, X=X, y=y).split("\n")
    assert lines[0] == "Σ yᵢ·xᵢ over the 3 cases with zᵢ ≤ 0 = (4.00, −1.00)"
    assert lines[1] == "w ← (−1.00, 0.50) + (4.00, −1.00) = (3.00, −0.50)"
    assert lines[2] == "b ← 0.00 + 1.00·1.00 = 1.00"
    # the hinge loss sums the cases with z ≤ 1: all four here
    assert pass_terms(w0, b0, X, y, HINGE)[0] == 4
    assert format_update(ev, X=X, y=y, loss=HINGE).startswith(
        "Σ yᵢ·xᵢ over the 4 cases with zᵢ ≤ 1 = ")
    # the logistic loss weighs every case by σ(−z_i)
    m, got, _ = pass_terms(w0, b0, X, y, LOG_LOSS)
    expect = ((1 / (1 + np.exp(z)))[:, None] * y[:, None] * X).sum(axis=0)
    assert m == 4 and np.allclose(got, expect, rtol=1e-12)


def test_a_batch_pass_that_does_not_move_w_says_so():
    X = np.array([[1.0, 0.0], [-1.0, 0.0]])
    y = np.array([1, -1])
    ev = _event(math.nan, [2.0, 0.0], [2.0, 0.0], 0.0, 0.0, index=-1, label=0, mistake=False)
    assert format_update(ev, X=X, y=y) == "no update: every case has zᵢ > 0 (0 of 2 cases summed)"


@pytest.mark.parametrize(("params", "words"), [
    ({"loss": "hinge", "order": "cyclic"}, "this run uses the hinge loss"),
    ({"loss": "log_loss", "order": "uniform"}, "this run uses the logistic loss"),
    ({"loss": "perceptron", "order": "batch"}, "this run is batch gradient descent"),
])
def test_the_bound_is_said_not_to_apply_when_the_capabilities_have_none(params, words):
    none = Capabilities(steps=True, novikoff=False, loss=loss_for(params["loss"]))
    text = no_bound_reason(none, params)
    assert text.startswith("Novikoff's bound is about the perceptron's updates; ")
    assert words in text and "does not apply" in text
    # decided by the capabilities, never by the names: the same params with a bound say nothing
    assert no_bound_reason(Capabilities(steps=True, novikoff=True), params) == ""
    assert no_bound_reason(Capabilities(steps=False), params) == ""
