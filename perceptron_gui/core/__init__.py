"""The Qt-free core of perceptron-gui: data, learners, margins and the Novikoff bound.

Nothing here imports PySide6, shiboken6 or pyqtgraph (a test checks it), so the
mathematics can be used from scripts and tested without a display.
"""

from .learners import DualPerceptron, NotFittedError, PrimalPerceptron, StepEvent

__all__ = ["DualPerceptron", "NotFittedError", "PrimalPerceptron", "StepEvent"]
