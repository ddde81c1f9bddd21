"""The bound from a hand-set w₀ is a number at every learning rate the panel accepts."""

from __future__ import annotations

import math

import numpy as np
import pytest

from perceptron_gui.core import Dataset, Workspace
from perceptron_gui.core.learners.params import FLOAT_MAX, FLOAT_MIN
from perceptron_gui.core.theory import start_bound

X = np.array([[1.0, 2.0], [2.0, 1.0], [-1.0, -2.0], [-2.0, -1.0]])
Y = np.array([1, 1, -1, -1])


@pytest.mark.parametrize("eta", [FLOAT_MIN, 1e-200, 1e200, FLOAT_MAX])
def test_the_readouts_of_a_hand_set_start_refresh_at_any_learning_rate(eta):
    ws = Workspace()
    ws.set_dataset(Dataset(X, Y))
    ws.set_start((1.0, 1.0), 0.0)
    ws.set_params(eta0=eta)
    r = ws.readouts()
    assert math.isfinite(r.bound) and r.bound > 0


@pytest.mark.parametrize("eta", [1e-300, 1e-100, 1e100, 1e200, 1e300])
def test_the_bound_from_w0_at_rate_eta_is_the_bound_from_w0_over_eta_at_rate_1(eta):
    rng = np.random.default_rng(3)
    w_star = rng.normal(size=3)
    w_star /= np.linalg.norm(w_star)
    v0 = rng.normal(size=3) * eta
    expected = start_bound(v0 / eta, w_star, 0.3, 4.0, 1.0)
    assert start_bound(v0, w_star, 0.3, 4.0, eta) == pytest.approx(expected, rel=1e-12)
