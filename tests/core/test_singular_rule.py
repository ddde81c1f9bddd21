"""One tolerance decides when a class covariance is singular, for LDA and for QDA."""

import numpy as np
import pytest

from perceptron_gui.core.learners import _base
from perceptron_gui.core.learners.lda import LDA
from perceptron_gui.core.learners.qda import QDA


def _thin_classes():
    """Two classes whose covariances have an eigenvalue ratio of about 1e-6."""
    rng = np.random.default_rng(0)
    X = rng.normal(size=(40, 2)) * [1.0, 1e-3]
    X[:20, 0] += 5.0
    return X, np.r_[np.ones(20), -np.ones(20)]


def test_lda_and_qda_read_the_same_singular_tolerance(monkeypatch):
    X, y = _thin_classes()
    assert not LDA().fit(X, y).singular_
    QDA().fit(X, y)
    monkeypatch.setattr(_base, "SINGULAR_RTOL", 1e-3)
    assert LDA().fit(X, y).singular_
    with pytest.raises(ValueError, match="singular"):
        QDA().fit(X, y)
