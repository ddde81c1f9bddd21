"""The Qt-free core of perceptron-gui: data, learners, margins and the Novikoff bound.

Nothing here imports PySide6, shiboken6 or pyqtgraph (a test checks it), so the
mathematics can be used from scripts and tested without a display::

    from perceptron_gui.core import Dataset, PrimalPerceptron, DualPerceptron, LDA
    from perceptron_gui.core import theory, generators
    from perceptron_gui.core import tabular, samples   # any CSV; the shipped data sets

(:mod:`.tabular` and :mod:`.samples` are imported when first named so: launch
does not need them.)

``datasets`` is the former name of :mod:`.generators` and still imports it.
"""

import sys as _sys

from . import generators, io, theory
from .dataset import Dataset
from .learners import DualPerceptron, NotFittedError, PrimalPerceptron, StepEvent
from .learners.lda import LDA
from .workspace import Workspace

datasets = generators
_sys.modules[__name__ + ".datasets"] = generators

__all__ = [
    "LDA",
    "Dataset",
    "DualPerceptron",
    "NotFittedError",
    "PrimalPerceptron",
    "StepEvent",
    "Workspace",
    "datasets",
    "generators",
    "io",
    "samples",
    "tabular",
    "theory",
]
