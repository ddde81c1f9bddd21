"""The learners: scikit-learn-style estimators with a step API for the window."""

from ._base import NotFittedError
from ._log import Rows, UpdateLog
from ._run import History, StepEvent
from .dual import DualPerceptron
from .primal import PrimalPerceptron

__all__ = ["DualPerceptron", "History", "NotFittedError", "PrimalPerceptron", "Rows",
           "StepEvent", "UpdateLog"]
