"""Tests for perceptron_gui.core.generators: the toy data set generators."""

from __future__ import annotations

import numpy as np
import pytest
from scipy.optimize import linprog

from perceptron_gui.core import generators as gen
from perceptron_gui.core.dataset import Dataset

NAMES = ["blobs", "separable", "overlapping", "xor", "circles", "moons"]


def linearly_separable(d: Dataset) -> bool:
    """LP feasibility: is there (w, b) with y_i (w·x_i + b) >= 1 for all i?"""
    A = -d.y[:, None] * np.column_stack([d.X, np.ones(d.n)])
    res = linprog(
        np.zeros(3), A_ub=A, b_ub=-np.ones(d.n), bounds=[(None, None)] * 3, method="highs"
    )
    assert res.status in (0, 2), res.message
    return res.status == 0


def test_registry_complete():
    assert list(gen.GENERATORS) == NAMES
    assert set(gen.DESCRIPTIONS) == set(NAMES)
    assert all(isinstance(s, str) and s for s in gen.DESCRIPTIONS.values())


@pytest.mark.parametrize("name", NAMES)
@pytest.mark.parametrize("n", [2, 3, 7, 100])
def test_shapes_labels_both_classes(name, n):
    d = gen.GENERATORS[name](n=n, seed=1)
    assert isinstance(d, Dataset)
    assert d.X.shape == (n, 2) and d.y.shape == (n,)
    assert set(d.y.tolist()) == {-1, 1}
    assert (d.n_neg, d.n_pos) == (n // 2, n - n // 2)
    assert np.isfinite(d.X).all()


@pytest.mark.parametrize("name", NAMES)
def test_sensible_viewing_range(name):
    for seed in range(5):
        d = gen.GENERATORS[name](seed=seed)
        assert np.abs(d.X).max() < 8.0
        assert np.median(np.abs(d.X)) < 5.0


@pytest.mark.parametrize("name", NAMES)
def test_deterministic_per_seed(name):
    f = gen.GENERATORS[name]
    assert f(seed=42) == f(seed=42)
    assert f(seed=42) != f(seed=43)
    assert f(seed=np.random.default_rng(5)) == f(seed=np.random.default_rng(5))


@pytest.mark.parametrize("name", NAMES)
def test_not_sorted_by_class(name):
    d = gen.GENERATORS[name](n=40, seed=0)
    assert np.any(np.diff(d.y) < 0) and np.any(np.diff(d.y) > 0)


@pytest.mark.parametrize("name", NAMES)
@pytest.mark.parametrize(
    ("kwargs", "match"),
    [
        ({"n": 1}, r"n must be an integer >= 2; got 1"),
        ({"n": 10.0}, r"n must be an integer >= 2; got 10.0"),
        ({"n": True}, r"n must be an integer >= 2; got True"),
        ({"noise": -0.1}, r"noise must be a finite number >= 0; got -0.1"),
        ({"noise": float("nan")}, r"noise must be a finite number >= 0; got nan"),
        ({"noise": float("inf")}, r"noise must be a finite number >= 0; got inf"),
        ({"noise": "1"}, r"noise must be a finite number >= 0; got '1'"),
    ],
)
def test_common_validation(name, kwargs, match):
    with pytest.raises(ValueError, match=match):
        gen.GENERATORS[name](**kwargs)


@pytest.mark.parametrize(
    ("f", "kwargs", "match"),
    [
        (gen.blobs, {"distance": -1}, "distance must be a finite number >= 0; got -1"),
        (gen.overlapping, {"distance": np.inf}, "distance must be a finite number >= 0"),
        (gen.separable, {"margin": -0.5}, "margin must be a finite number >= 0; got -0.5"),
        (gen.separable, {"angle": np.nan}, "angle must be a finite number; got nan"),
        (gen.separable, {"offset": np.inf}, "offset must be a finite number; got inf"),
        (gen.circles, {"factor": 1.0}, r"factor must be a finite number >= 0 and < 1; got 1.0"),
        (gen.circles, {"factor": -0.1}, r"factor must be a finite number >= 0 and < 1"),
    ],
)
def test_specific_validation(f, kwargs, match):
    with pytest.raises(ValueError, match=match):
        f(**kwargs)


def test_zero_noise_is_allowed():
    for f in gen.GENERATORS.values():
        d = f(n=10, noise=0.0, seed=0)
        assert d.n == 10


# --------------------------------------------------------------------------- separable


@pytest.mark.parametrize("seed", range(8))
@pytest.mark.parametrize("margin", [0.0, 0.1, 0.5, 1.0, 2.5])
@pytest.mark.parametrize("noise", [0.0, 1.0])
def test_separable_margin_holds(seed, margin, noise):
    d = gen.separable(n=60, noise=noise, seed=seed, margin=margin)
    w, b = gen.separable_line(seed)
    assert np.isclose(np.linalg.norm(w), 1.0)
    dist = d.X @ w + b
    assert np.all(np.abs(dist) >= margin)
    assert np.all(np.sign(dist) == d.y)  # label = side of the line
    if noise == 0.0:
        np.testing.assert_allclose(np.abs(dist), margin, atol=1e-8)  # tight
    else:
        assert np.abs(dist).min() < margin + 0.5  # not a trivially huge margin


@pytest.mark.parametrize("seed", range(4))
def test_separable_given_line(seed):
    d = gen.separable(n=50, seed=seed, margin=0.7, angle=np.pi / 3, offset=1.5)
    w, b = gen.separable_line(seed, angle=np.pi / 3, offset=1.5)
    np.testing.assert_allclose(w, [0.5, np.sqrt(3) / 2])
    assert b == -1.5
    dist = d.X @ w + b
    assert np.all(np.abs(dist) >= 0.7)
    assert np.all(np.sign(dist) == d.y)


def test_separable_line_is_random_per_seed():
    w0, _ = gen.separable_line(0)
    w1, _ = gen.separable_line(1)
    assert not np.allclose(w0, w1)


def test_separable_is_separable():
    assert linearly_separable(gen.separable(seed=0))


# --------------------------------------------------------------------------- overlap etc.


def test_overlapping_default_not_separable():
    assert not linearly_separable(gen.overlapping(seed=0))


def test_far_blobs_separable_and_oracle_detects_it():
    assert linearly_separable(gen.blobs(seed=0, distance=10.0, noise=0.5))


def test_blob_centres():
    d = gen.blobs(n=4000, noise=0.5, seed=3, distance=4.0)
    np.testing.assert_allclose(d.X[d.y == -1].mean(axis=0), [-2, 0], atol=0.05)
    np.testing.assert_allclose(d.X[d.y == 1].mean(axis=0), [2, 0], atol=0.05)
    np.testing.assert_allclose(d.X[d.y == 1].std(axis=0), [0.5, 0.5], rtol=0.05)


def test_xor_quadrants():
    d = gen.xor(n=200, noise=0.3, seed=0)
    assert np.all(np.sign(d.X[:, 0] * d.X[:, 1]) == d.y)
    assert not linearly_separable(d)


def test_circles_inner_is_positive():
    d = gen.circles(n=200, noise=0.0, seed=0, factor=0.5)
    r = np.linalg.norm(d.X, axis=1)
    np.testing.assert_allclose(r[d.y == 1], 2.0)
    np.testing.assert_allclose(r[d.y == -1], 4.0)


def test_moons_shape():
    d = gen.moons(n=200, noise=0.0, seed=0)
    up = d.X[d.y == -1] / 2.5 + [0.5, 0.25]
    low = d.X[d.y == 1] / 2.5 + [0.5, 0.25]
    np.testing.assert_allclose(np.linalg.norm(up, axis=1), 1.0)
    np.testing.assert_allclose(np.linalg.norm(low - [1.0, 0.5], axis=1), 1.0)
    assert not linearly_separable(d)


# --------------------------------------------------------------------------- helpers


def test_generator_parameters():
    assert gen.generator_parameters("blobs") == {
        "n": 100, "noise": 1.0, "seed": None, "distance": 4.0
    }
    assert gen.generator_parameters("separable") == {
        "n": 40, "noise": 1.0, "seed": None, "margin": 0.5, "angle": None, "offset": 0.0
    }
    assert gen.generator_parameters("moons") == {"n": 100, "noise": 0.1, "seed": None}
    with pytest.raises(ValueError, match="unknown generator 'spiral'"):
        gen.generator_parameters("spiral")


def test_generate():
    assert gen.generate("circles", n=20, seed=1, factor=0.3) == gen.circles(20, seed=1, factor=0.3)
    with pytest.raises(ValueError, match=r"unknown parameter\(s\) \['radius'\]"):
        gen.generate("moons", radius=2)
