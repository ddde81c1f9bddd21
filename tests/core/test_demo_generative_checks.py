"""The demo checks of the generative learners measure what they say, and a wrong number fails.

``posterior_at`` and ``lda_posterior_at`` are probes (``[x₁, x₂, P]``): the
posterior is recomputed here from the class Gaussians (scipy's density), not
read from the learner; the covariances and LDA's line from the data.
"""

from __future__ import annotations

import json

import numpy as np
import pytest
from scipy.stats import multivariate_normal

from perceptron_gui.core import Workspace
from perceptron_gui.core.demos import (
    CHECKS,
    DEMO_DIR,
    DemoError,
    DemoPlayer,
    load_demo,
    parse_demo,
)


def _player(name: str, upto: int) -> DemoPlayer:
    player = DemoPlayer(Workspace(), load_demo(name))
    player.goto(upto)
    return player


def _classes(ws):
    X, y = ws.dataset.X, ws.dataset.y
    return X[y < 0], X[y > 0]


def test_qda_posterior_probe_is_the_ratio_of_the_class_gaussians():
    player = _player("lda-vs-qda", 2)  # QDA in use
    assert player.workspace.learner_name == "qda"
    Xn, Xp = _classes(player.workspace)
    n = len(Xn) + len(Xp)
    point = (3.0, 3.0)
    pos = len(Xp) / n * multivariate_normal(Xp.mean(0), np.cov(Xp, rowvar=False)).pdf(point)
    neg = len(Xn) / n * multivariate_normal(Xn.mean(0), np.cov(Xn, rowvar=False)).pdf(point)
    assert CHECKS["posterior_at"].measure(player, point) == pytest.approx(pos / (pos + neg),
                                                                          rel=1e-9)
    assert CHECKS["posterior_at"].measure(player) is None  # no point: nothing to measure


def test_lda_probe_uses_the_pooled_covariance_over_n_minus_2():
    player = _player("lda-vs-qda", 2)
    Xn, Xp = _classes(player.workspace)
    n = len(Xn) + len(Xp)
    S = ((Xn - Xn.mean(0)).T @ (Xn - Xn.mean(0)) + (Xp - Xp.mean(0)).T @ (Xp - Xp.mean(0)))
    S /= n - 2
    point = (-2.0, 2.0)
    pos = len(Xp) * multivariate_normal(Xp.mean(0), S).pdf(point)
    neg = len(Xn) * multivariate_normal(Xn.mean(0), S).pdf(point)
    assert CHECKS["lda_posterior_at"].measure(player, point) == pytest.approx(
        pos / (pos + neg), rel=1e-9)
    w = np.linalg.solve(S, Xp.mean(0) - Xn.mean(0))
    np.testing.assert_allclose(CHECKS["lda_w"].measure(player), w, rtol=1e-9)


def test_class_covariances_are_each_class_s_own_or_the_pooled_one():
    qda = _player("lda-vs-qda", 2)
    Xn, Xp = _classes(qda.workspace)
    cp, cn = np.cov(Xp, rowvar=False), np.cov(Xn, rowvar=False)
    np.testing.assert_allclose(CHECKS["covariance_pos"].measure(qda),
                               [cp[0, 0], cp[0, 1], cp[1, 1]], rtol=1e-12)
    np.testing.assert_allclose(CHECKS["covariance_neg"].measure(qda),
                               [cn[0, 0], cn[0, 1], cn[1, 1]], rtol=1e-12)
    lda = _player("lda-vs-qda", 1)  # LDA in use: its pooled covariance for both classes
    np.testing.assert_array_equal(CHECKS["covariance_pos"].measure(lda),
                                  CHECKS["covariance_neg"].measure(lda))
    nb = _player("naive-bayes-is-linear", 2)  # pooled naive Bayes: diagonal, no correlation
    Xn, Xp = _classes(nb.workspace)
    var = (((Xn - Xn.mean(0)) ** 2).sum(0) + ((Xp - Xp.mean(0)) ** 2).sum(0)) / (len(Xn) + len(Xp))
    var += 1e-9 * nb.workspace.dataset.X.var(axis=0).max()
    np.testing.assert_allclose(CHECKS["covariance_pos"].measure(nb), [var[0], 0.0, var[1]],
                               rtol=1e-12)
    perceptron = _player("lda", 1)  # a stepping learner: no class model of its own
    assert CHECKS["covariance_pos"].measure(perceptron) is None
    assert CHECKS["posterior_at"].measure(perceptron, (0.0, 0.0)) is None


@pytest.mark.parametrize(("name", "step", "check", "wrong"), [
    ("lda-vs-qda", 0, "posterior_at", [3, 3, 0.99]),
    ("lda-vs-qda", 2, "lda_posterior_at", [3, 3, 0.031]),
    ("lda-vs-qda", 2, "posterior_at", [2, 3, 0.031]),  # the right P at another point
    ("lda-vs-qda", 1, "covariance_pos", [0.195, 0.119, 0.166]),
    ("naive-bayes-is-linear", 1, "b", -1.48),
    ("naive-bayes-is-linear", 4, "lda_w", [2.77, 3.96]),
    ("naive-bayes-is-linear", 4, "lda_b", -1.32),
])
def test_a_wrong_number_in_a_caption_fails(name, step, check, wrong):
    doc = json.loads((DEMO_DIR / f"{name}.json").read_text("utf-8"))
    assert check in doc["steps"][step]["checks"]
    doc["steps"][step]["checks"][check] = wrong
    player = DemoPlayer(Workspace(), parse_demo(json.dumps(doc), name))
    failures = player.run_all()
    assert len(failures) == 1 and check in failures[0], failures


@pytest.mark.parametrize("value", [[3, 3], [3, 3, 0.5, 1], "0.5", [3, "a", 0.5]])
def test_a_probe_needs_a_point_and_a_value(value):
    doc = json.loads((DEMO_DIR / "lda-vs-qda.json").read_text("utf-8"))
    doc["steps"][0]["checks"]["posterior_at"] = value
    with pytest.raises(DemoError, match=r"steps\[0\]\.checks\.posterior_at"):
        parse_demo(json.dumps(doc), "lda-vs-qda")
