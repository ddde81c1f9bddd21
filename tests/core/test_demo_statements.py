"""What the shipped demos' captions state about the mathematics, checked against the core."""

from __future__ import annotations

import re

import numpy as np

from perceptron_gui.core import Workspace
from perceptron_gui.core.demos import DemoPlayer, load_demo
from perceptron_gui.core.kernels import make_kernel


def _played_to(name: str, phrase: str) -> tuple[DemoPlayer, str]:
    """The demo ``name`` played through its step whose caption has ``phrase``."""
    demo = load_demo(name)
    at = next(i for i, s in enumerate(demo.steps) if phrase in s.caption)
    player = DemoPlayer(Workspace(), demo)
    player.goto(at + 1)
    return player, demo.steps[at].caption


def _feature_map(text: str):
    """The features a caption lists, ``"x₁², √2 x₁x₂, 1"``, as a function of the points."""
    terms = []
    for term in (t.strip() for t in text.split(",")):
        coef = np.sqrt(2.0) if term.startswith("√2 ") else 1.0
        factors = re.findall(r"x([₁₂])(²?)", term)
        assert factors or term == "1", term
        powers = [0, 0]
        for which, square in factors:
            powers["₁₂".index(which)] += 2 if square else 1
        terms.append((coef, tuple(powers)))
    return lambda X: np.column_stack([c * X[:, 0] ** p1 * X[:, 1] ** p2 for c, (p1, p2) in terms])


def test_the_polynomial_kernels_features_are_the_ones_its_caption_lists():
    player, caption = _played_to("primal-dual", "(a·b + 1)²")
    listed = re.search(r"the features (?:φ\(x\) = \()?(.*?)\)?\. There", caption)
    assert listed, caption
    phi = _feature_map(listed.group(1))
    params = player.workspace.params
    kernel = make_kernel(params["kernel"], degree=params["degree"], gamma=params["gamma"],
                         coef0=params["coef0"])
    rng = np.random.default_rng(0)
    A, B = rng.normal(size=(5, 2)), rng.normal(size=(7, 2))
    np.testing.assert_allclose(phi(A) @ phi(B).T, kernel(A, B), rtol=1e-12, atol=1e-12)
    assert "hyperplane" in caption and " a line in" not in caption


def test_the_hinge_step_is_along_the_negative_gradient_as_its_caption_says():
    player, caption = _played_to("hinge-margin", "w ← w + η·y·x")
    ws = player.workspace
    event = ws.current_event
    x, y = ws.dataset.X[event.index], float(event.label)
    p = float(np.dot(event.w_before, x) + event.b_before)
    gradient = -y * x if y * p <= 1 else np.zeros_like(x)  # of max(0, 1 − y(w·x + b)) in w
    step = np.asarray(event.w_after) - np.asarray(event.w_before)
    np.testing.assert_allclose(step, -ws.params["eta0"] * gradient)
    assert "negative gradient" in caption
