"""The learners: scikit-learn-style estimators with a step API for the window."""

from ._base import NotFittedError
from ._run import History, StepEvent, UpdateLog
from .perceptron import DualPerceptron, PrimalPerceptron

__all__ = [
    "DualPerceptron",
    "History",
    "NotFittedError",
    "PrimalPerceptron",
    "StepEvent",
    "UpdateLog",
]
