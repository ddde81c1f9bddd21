"""The primal and dual perceptron under their first module name.

Kept because code outside the core (the numba warm-up) imports
``perceptron_gui.core.learners.perceptron``; the learners live in
:mod:`.primal`, :mod:`.dual` and their shared :mod:`.engine`.
"""

from ._run import StepEvent
from .dual import KERNEL_CACHE_BYTES, DualPerceptron
from .primal import PrimalPerceptron

__all__ = ["PrimalPerceptron", "DualPerceptron", "StepEvent", "KERNEL_CACHE_BYTES"]
