"""The maximum margin of data of mixed scales (1e300 beside points near 1) is an answer."""

import numpy as np
import pytest

from perceptron_gui.core import theory

X = np.array([[0.692, 3.023], [-4.369, -3.821], [2.61, -0.2775], [-1.204, 1e300]])
Y = np.array([1, -1, 1, 1])


def test_the_reported_set_is_answered_not_raised():
    r = theory.max_margin(X, Y)
    assert not r.separable and "within rounding" in r.reason


@pytest.mark.parametrize("seed", range(4))
def test_random_small_sets_with_one_huge_coordinate_never_raise(seed):
    rng = np.random.default_rng(seed)
    answered = 0
    for _ in range(100):
        n = int(rng.integers(3, 8))
        Xr = rng.normal(size=(n, 2)) * 3
        Xr[rng.integers(n), rng.integers(2)] = rng.choice([1e300, -1e300])
        y = np.where(rng.random(n) < 0.5, -1, 1)
        y[:2] = (-1, 1)
        r = theory.max_margin(Xr, y)
        answered += 1
        if r.separable:  # the separator it gives separates, with the margin it says
            scores = y * (Xr @ r.coef + r.intercept)
            assert scores.min() == pytest.approx(1.0, rel=1e-6)
        else:
            assert r.reason
    assert answered == 100
