"""Naive Bayes and QDA fit data of any finite scale, as the linear learners do.

Their scores are computed on the data scaled by a power of two (exact), so
the log-odds at 1e200 or 1e-200 are those at scale 1; the parameters are
reported in the user's units (a variance past the largest float is inf).
"""

from __future__ import annotations

import numpy as np
import pytest

from perceptron_gui.core import Dataset, Workspace
from perceptron_gui.core.learners import registry
from perceptron_gui.core.learners.naive_bayes import GaussianNB
from perceptron_gui.core.learners.params import FLOAT_MAX
from perceptron_gui.core.learners.qda import QDA

#: Data at large scale (`make test` runs these too).
pytestmark = pytest.mark.slow

X = np.array([[0.0, 0.0], [1.0, 0.5], [0.5, 1.0], [3.0, 3.0], [4.0, 3.5], [3.5, 4.0],
              [0.2, 0.9], [3.1, 3.8]])
Y = np.array([-1, -1, -1, 1, 1, 1, -1, 1])
LEARNERS = [GaussianNB(), GaussianNB(shared_variance=True), QDA(), QDA(reg_param=0.1)]


@pytest.mark.parametrize("scale", [1e200, 1e-200, 2.0**1000])
@pytest.mark.parametrize("learner", LEARNERS, ids=repr)
def test_the_log_odds_at_any_scale_are_those_at_scale_1(learner, scale):
    at_1 = learner.fit(X, Y).decision_function(X)
    scaled = type(learner)(**learner.get_params()).fit(X * scale, Y)
    if isinstance(learner, QDA) and learner.reg_param:
        return  # r·I is in the user's units: at another scale it is another model
    assert np.allclose(scaled.decision_function(X * scale), at_1, rtol=1e-9, atol=1e-9)
    assert (scaled.predict(X * scale) == Y).all()


def test_naive_bayes_with_the_largest_var_smoothing_gives_even_odds_not_nan():
    nb = GaussianNB(var_smoothing=FLOAT_MAX).fit(X, Y)
    scores = nb.decision_function(X)
    assert np.isfinite(scores).all()
    assert np.allclose(nb.predict_proba(X), 0.5)


@pytest.mark.parametrize("key", [k for k in registry.LEARNERS
                                 if registry.get(k).cls in (GaussianNB, QDA)])
def test_the_readouts_say_the_true_training_error_at_1e200(key):
    ws = Workspace()
    ws.set_dataset(Dataset(X * 1e200, Y))
    ws.set_learner(key)
    r = ws.readouts()
    assert r.training_error == 0.0
