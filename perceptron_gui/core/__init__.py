"""The Qt-free core of perceptron-gui: data, learners, margins and the Novikoff bound.

Nothing here imports PySide6, shiboken6 or pyqtgraph (a test checks it), so the
mathematics can be used from scripts and tested without a display.
``io`` (file formats), ``samples`` and ``io.tabular`` are imported only when
named (``from perceptron_gui.core import io``): launching does not need them.
``datasets`` is the former name of :mod:`.generators` and still imports it.
"""

import sys as _sys

from . import generators, theory
from .dataset import Dataset
from .learners import DualPerceptron, NotFittedError, PrimalPerceptron, StepEvent
from .learners.lda import LDA
from .learners.naive_bayes import GaussianNB
from .learners.qda import QDA
from .workspace import Workspace

datasets = generators
_sys.modules[__name__ + ".datasets"] = generators

__all__ = [
    "LDA",
    "Dataset",
    "DualPerceptron",
    "GaussianNB",
    "NotFittedError",
    "PrimalPerceptron",
    "QDA",
    "StepEvent",
    "Workspace",
    "datasets",
    "generators",
    "io",
    "theory",
]
