r"""One against the rest: a binary learner trained once per class, the largest score wins.

For ``m`` classes, learner :math:`k` learns class :math:`k` (+1) against all the
others (−1) and :math:`\hat y(x) = \arg\max_k f_k(x)`, ties to the first class:
scikit-learn's ``Perceptron`` and ``SGDClassifier`` do exactly this with more
than two classes.  Where no :math:`f_k` is positive, or several are, the
binary learners disagree about the point (:meth:`OneVsRest.claims`): the gaps
and overlaps that the multiclass perceptron does not have.
"""

from __future__ import annotations

import numpy as np

from .primal import PrimalPerceptron

__all__ = ["OneVsRest", "OneVsRestPerceptron"]


class OneVsRest:
    """``m`` copies of a binary learner, one per class against the rest (scikit-learn style).

    Parameters
    ----------
    estimator : object
        An unfitted binary learner with ``get_params``, ``fit(X, y)`` and
        ``decision_function`` (a perceptron, LDA …); each class gets a fresh copy
        with its parameters.

    Attributes
    ----------
    classes_ : ndarray of shape (m,)
        The labels, sorted.
    estimators_ : list of m fitted learners
        ``estimators_[k]`` separates ``classes_[k]`` (+1) from the rest (−1).
        Two classes: one learner, ``classes_[1]`` its positive class.
    coef_, intercept_ : ndarray of shape (m, n_features) and (m,)
        The lines :math:`w_k \\cdot x + b_k`, when the learners are linear (two
        classes: shape (1, n_features) and (1,)).
    """

    def __init__(self, estimator):
        self.estimator = estimator

    def get_params(self, deep: bool = True) -> dict:
        """The parameters, as scikit-learn's ``get_params``."""
        return {"estimator": self.estimator}

    def _copy(self):
        return type(self.estimator)(**self.estimator.get_params())

    def fit(self, X, y) -> OneVsRest:
        """Fit one learner per class (ValueError from a learner that cannot be fitted)."""
        X = np.asarray(X, dtype=np.float64)
        y = np.asarray(y)
        self.classes_ = np.unique(y)
        if self.classes_.shape[0] < 2:
            raise ValueError(f"one against the rest needs two classes at least; y has "
                             f"{self.classes_.shape[0]}")
        if self.classes_.shape[0] == 2:  # one binary problem, as scikit-learn's
            self.estimators_ = [self._copy().fit(X, np.where(y == self.classes_[1], 1, -1))]
        else:
            self.estimators_ = [self._copy().fit(X, np.where(y == c, 1, -1))
                                for c in self.classes_]
        if all(hasattr(e, "coef_") for e in self.estimators_):
            self.coef_ = np.vstack([np.asarray(e.coef_).reshape(1, -1) for e in self.estimators_])
            self.intercept_ = np.concatenate([np.ravel(e.intercept_) for e in self.estimators_])
        return self

    def decision_function(self, X) -> np.ndarray:
        """Each learner's score: shape (n, m), or (n,) for two classes (as scikit-learn)."""
        X = np.asarray(X, dtype=np.float64)
        if hasattr(self, "coef_"):  # the lines at once, as scikit-learn sums them
            with np.errstate(over="ignore", invalid="ignore"):  # far out: ±inf, as f is
                scores = X @ self.coef_.T + self.intercept_
        else:
            scores = np.column_stack([np.ravel(e.decision_function(X))
                                      for e in self.estimators_])
        return scores[:, 0] if len(self.estimators_) == 1 else scores

    def predict(self, X) -> np.ndarray:
        """The class of the largest score (ties: the first class)."""
        scores = self.decision_function(X)
        if scores.ndim == 1:
            return self.classes_[(scores > 0).astype(int)]
        return self.classes_[np.argmax(scores, axis=1)]

    def claims(self, X) -> np.ndarray:
        """How many learners claim each point (score > 0), shape (n,): 0 (a gap, none says
        it is theirs) and 2 or more (an overlap) are where one against the rest is unsure."""
        scores = self.decision_function(X)
        if scores.ndim == 1:
            return np.ones(scores.shape[0], dtype=np.int64)
        return np.count_nonzero(scores > 0, axis=1)


class OneVsRestPerceptron(OneVsRest):
    """One against the rest over the primal perceptron, with its parameters (the window's
    learner: ``OneVsRestPerceptron(**PrimalPerceptron.default_params())``)."""

    def __init__(self, **params):
        super().__init__(PrimalPerceptron(**params))

    @classmethod
    def default_params(cls, **changed) -> dict:
        """The primal perceptron's defaults, with ``changed``."""
        return PrimalPerceptron.default_params(**changed)

    def get_params(self, deep: bool = True) -> dict:
        """The perceptron's parameters."""
        return self.estimator.get_params()

    def validate_params(self) -> None:
        """ValueError naming the perceptron's first invalid parameter."""
        self.estimator.validate_params()

    @property
    def n_updates_(self) -> int:
        """The updates of every perceptron, summed."""
        return sum(e.n_updates_ for e in self.estimators_)

    @property
    def converged_(self) -> bool:
        """Whether every perceptron ended with an epoch without a mistake."""
        return all(e.converged_ for e in self.estimators_)
